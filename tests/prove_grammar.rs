//! Quantifier scope as Prover9 reads it: LADR declares quantifiers at
//! precedence 750, so operators below 750 (`=`, `!=`, `<`, `+`, `'`, user
//! operators) stay inside the body and `&`, `|`, `->` (780–800) end it.
//! Each case is compared with the fully parenthesised reading.

use entail::syntax::prover9::*;

fn read(src: &str, prolog_style_variables: bool) -> Formula {
    let options = ParseOptions {
        prolog_style_variables,
    };
    parse_formula(src, &options).unwrap_or_else(|e| panic!("{src}: {e}"))
}

#[test]
fn equations_and_comparisons_stay_inside_the_quantifier() {
    // (input, Prover9's reading, prolog-style variables)
    let cases = [
        // The four inputs of issue 16, from Prover9's own example files.
        (
            "all C union(B,C) = union(C,B)",
            "all C (union(B,C) = union(C,B))",
            true,
        ),
        ("exists C C = sum(C1,C2)", "exists C (C = sum(C1,C2))", true),
        ("all x f(x) != a", "all x (f(x) != a)", false),
        ("all x x < f(x)", "all x (x < f(x))", false),
        ("all x x <= f(x)", "all x (x <= f(x))", false),
        ("exists x x + a = b", "exists x ((x + a) = b)", false),
        ("all x x' = x", "all x (x' = x)", false),
        (
            "all x all y x * y = y * x",
            "all x (all y (x * y = y * x))",
            false,
        ),
        ("exists x -p(x)", "exists x (-p(x))", false),
        // Looser connectives end the body.
        ("all x p(x) -> q(x)", "(all x p(x)) -> q(x)", false),
        ("all x p(x) & q(x)", "(all x p(x)) & q(x)", false),
        ("all x p(x) | q(x)", "(all x p(x)) | q(x)", false),
        ("all x x = a | x = b", "(all x (x = a)) | (x = b)", false),
        ("all x p(x) <-> q", "(all x p(x)) <-> q", false),
        // As the right operand of a looser connective.
        ("p & all x f(x) = a", "p & (all x (f(x) = a))", false),
        ("p -> exists x x != a", "p -> (exists x (x != a))", false),
    ];
    for (src, reading, prolog) in cases {
        assert_eq!(read(src, prolog), read(reading, prolog), "{src}");
    }
}

#[test]
fn user_operators_bind_by_their_precedence() {
    let file =
        |decl: &str, formula: &str| format!("{decl}\nformulas(sos).\n{formula}.\nend_of_list.\n");
    let sos = |src: &str| -> Result<Vec<Formula>, String> {
        let input = parse(src).map_err(|e| e.to_string())?;
        Ok(input
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Formulas { entries, .. } => Some(entries),
                _ => None,
            })
            .flatten()
            .map(|e| e.formula.clone())
            .collect())
    };
    // Below 750: inside the body.
    let inside = sos(&file("op(740, infix, subset).", "all x x subset f(x)")).unwrap();
    let explicit = sos(&file("op(740, infix, subset).", "all x (x subset f(x))")).unwrap();
    assert_eq!(inside, explicit);
    // Above 750: the quantified formula becomes the operator's left operand,
    // a term, which Prover9 rejects as we do.
    let outside = sos(&file("op(760, infix, subset).", "all x x subset f(x)"));
    assert!(
        outside
            .as_ref()
            .is_err_and(|e| e.contains("quantified formula cannot be used as a term")),
        "{outside:?}"
    );
}

#[test]
fn a_quantifier_under_prefix_negation_needs_parentheses() {
    // `-` is prefix at 350 < 750, as in Prover9, which rejects `-all x p(x)`.
    let err = parse_formula("- all x p(x)", &ParseOptions::default()).unwrap_err();
    assert!(err.to_string().contains("needs parentheses"), "{err}");
    assert_eq!(
        read("-(all x p(x))", false),
        Formula::Not(Box::new(read("all x p(x)", false)))
    );
}

#[test]
fn quantified_equations_print_and_read_back() {
    for src in [
        "all x f(x) = a",
        "exists x x != a & p",
        "all x all y x * y = y * x",
        "p -> (all x x' = x)",
    ] {
        let f = read(src, false);
        let printed = f.to_string();
        assert_eq!(read(&printed, false), f, "{src} printed as {printed}");
    }
}

//! The Prover9 parser and printer: exact ASTs per feature, error positions,
//! every example of the Prover9 manual, and a print/parse round-trip property.

use entail::syntax::prover9::*;
use std::path::PathBuf;

const EXAMPLES: &str = ".cache/prover9-doc/usr/share/doc/prover9-doc/examples";

fn example_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(EXAMPLES);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): run `scripts/install-deps` to unpack the Prover9 examples",
            dir.display()
        )
    });
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_manual_example_parses_and_round_trips() {
    let files = example_files();
    assert_eq!(
        files.len(),
        32,
        "the prover9-doc package has 32 example inputs"
    );
    let mut failures = Vec::new();
    for path in &files {
        let mut src = std::fs::read_to_string(path).expect("example is UTF-8");
        // bool-ring.in is a term file for LADR's `rewriter`, which reads it
        // after bool-ring.demods; its `op` declarations live in that file.
        if path.ends_with("bool-ring.in") {
            let demods = std::fs::read_to_string(path.with_file_name("bool-ring.demods"))
                .expect("bool-ring.demods");
            src = format!("{demods}\n{src}");
        }
        let ast = match parse(&src) {
            Ok(ast) => ast,
            Err(e) => {
                failures.push(format!("{}", e.in_file(path.display().to_string())));
                continue;
            }
        };
        let printed = ast.to_string();
        match parse(&printed) {
            Ok(again) if again == ast => {}
            Ok(_) => failures.push(format!(
                "{}: reparsed AST differs:\n{printed}",
                path.display()
            )),
            Err(e) => failures.push(format!(
                "{}: printed text does not parse: {e}\n{printed}",
                path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// Builders for expected ASTs.

fn var(name: &str) -> Term {
    Term::Var(name.to_string())
}

fn app(name: &str, args: Vec<Term>) -> Term {
    Term::App(name.to_string(), args)
}

fn cst(name: &str) -> Term {
    app(name, vec![])
}

fn atom(name: &str, args: Vec<Term>) -> Formula {
    Formula::Atom(app(name, args))
}

fn prop(name: &str) -> Formula {
    Formula::atom(name)
}

fn eq(a: Term, b: Term) -> Formula {
    atom("=", vec![a, b])
}

fn not(f: Formula) -> Formula {
    Formula::not(f)
}

fn and(a: Formula, b: Formula) -> Formula {
    Formula::and(a, b)
}

fn or(a: Formula, b: Formula) -> Formula {
    Formula::or(a, b)
}

fn implies(a: Formula, b: Formula) -> Formula {
    Formula::implies(a, b)
}

fn all(v: &str, f: Formula) -> Formula {
    Formula::Quant(Quantifier::All, v.to_string(), Box::new(f))
}

fn exists(v: &str, f: Formula) -> Formula {
    Formula::Quant(Quantifier::Exists, v.to_string(), Box::new(f))
}

fn cons(head: Term, tail: Term) -> Term {
    app("$cons", vec![head, tail])
}

fn formula(src: &str) -> Formula {
    parse_formula(src, &ParseOptions::default()).unwrap_or_else(|e| panic!("{src}: {e}"))
}

/// The entries' formulas of every list, in order.
fn formulas_of(input: &Input) -> Vec<Formula> {
    input
        .lists()
        .flat_map(|(_, _, entries)| entries.iter().map(|e| e.formula.clone()))
        .collect()
}

fn parse_ok(src: &str) -> Input {
    parse(src).unwrap_or_else(|e| panic!("{src}: {e}"))
}

// ---------------------------------------------------------------------------
// Formulas: connectives, precedence, quantifiers, equality, terms.

#[test]
fn connectives_follow_the_builtin_precedences_and_associativity() {
    let (p, q, r) = (prop("p"), prop("q"), prop("r"));
    let cases: Vec<(&str, Formula)> = vec![
        ("p | q & r", or(p.clone(), and(q.clone(), r.clone()))),
        ("p & q | r", or(and(p.clone(), q.clone()), r.clone())),
        ("p | q | r", or(p.clone(), or(q.clone(), r.clone()))),
        ("p & q & r.", and(p.clone(), and(q.clone(), r.clone()))),
        ("(p | q) | r", or(or(p.clone(), q.clone()), r.clone())),
        (
            "p & q -> r | p",
            implies(and(p.clone(), q.clone()), or(r.clone(), p.clone())),
        ),
        (
            "p <- q",
            Formula::ImpliedBy(Box::new(p.clone()), Box::new(q.clone())),
        ),
        ("p <-> -q", Formula::iff(p.clone(), not(q.clone()))),
        ("-p | q", or(not(p.clone()), q.clone())),
        ("- - p", not(not(p.clone()))),
        ("--p", not(not(p.clone()))),
        ("-(p | q)", not(or(p.clone(), q.clone()))),
        ("$T & $F", and(Formula::True, Formula::False)),
        // The manual's example: `|-` is not a symbol, so it splits.
        ("p|-q|r", or(p.clone(), or(not(q.clone()), r.clone()))),
        ("p&-q", and(p.clone(), not(q.clone()))),
    ];
    for (src, expected) in cases {
        assert_eq!(formula(src), expected, "{src}");
    }
}

#[test]
fn equality_and_negated_equality() {
    let (a, b) = (cst("a"), cst("b"));
    assert_eq!(formula("a = b"), eq(a.clone(), b.clone()));
    assert_eq!(formula("a != b"), not(eq(a.clone(), b.clone())));
    assert_eq!(formula("-(a = b)"), not(eq(a.clone(), b.clone())));
    assert_eq!(
        formula("a=b|c!=d"),
        or(eq(a, b), not(eq(cst("c"), cst("d"))))
    );
    assert_eq!(
        formula("f(x) != f(y) | x = y").free_variables(),
        vec!["x", "y"]
    );
}

#[test]
fn quantifiers_bind_like_prefix_negation() {
    let px = atom("p", vec![var("x")]);
    let qx = atom("q", vec![var("x")]);
    let cases: Vec<(&str, Formula)> = vec![
        (
            "all x p(x) -> q(x)",
            implies(all("x", px.clone()), qx.clone()),
        ),
        (
            "all x (p(x) -> q(x))",
            all("x", implies(px.clone(), qx.clone())),
        ),
        (
            "exists x -p(x) | q(x)",
            or(exists("x", not(px.clone())), qx.clone()),
        ),
        (
            "all x all y -r(x,y)",
            all("x", all("y", not(atom("r", vec![var("x"), var("y")])))),
        ),
        // Otter style, accepted as a deviation: `all x y F` = `all x all y F`.
        (
            "all x y r(x,y)",
            all("x", all("y", atom("r", vec![var("x"), var("y")]))),
        ),
        (
            "exists x y (r(x,y))",
            exists("x", exists("y", atom("r", vec![var("x"), var("y")]))),
        ),
        // A quantified symbol is a variable in its scope whatever its name.
        (
            "all a p(a) & p(a)",
            and(
                all("a", atom("p", vec![var("a")])),
                atom("p", vec![cst("a")]),
            ),
        ),
        ("p | all x p(x)", or(prop("p"), all("x", px.clone()))),
    ];
    for (src, expected) in cases {
        assert_eq!(formula(src), expected, "{src}");
    }
}

#[test]
fn terms_use_operators_lists_and_the_variable_rule() {
    let x = var("x");
    let cases: Vec<(&str, Formula)> = vec![
        (
            "x' * y = f(x)",
            eq(
                app("*", vec![app("'", vec![x.clone()]), var("y")]),
                app("f", vec![x.clone()]),
            ),
        ),
        ("x''", atom("'", vec![app("'", vec![x.clone()])])),
        (
            "p([a,b:c], [], [x])",
            atom(
                "p",
                vec![
                    cons(cst("a"), cons(cst("b"), cst("c"))),
                    cst("$nil"),
                    cons(x.clone(), cst("$nil")),
                ],
            ),
        ),
        (
            "x + -y = z",
            eq(
                app("+", vec![x.clone(), app("-", vec![var("y")])]),
                var("z"),
            ),
        ),
        ("p(-, ', v)", atom("p", vec![cst("-"), cst("'"), var("v")])),
        (
            "*(a, b) = a v b",
            eq(
                app("*", vec![cst("a"), cst("b")]),
                app("v", vec![cst("a"), cst("b")]),
            ),
        ),
        ("p(\"a b\")", atom("p", vec![cst("\"a b\"")])),
        (
            "P(Aa, _b, u1, a)",
            atom("P", vec![cst("Aa"), cst("_b"), var("u1"), cst("a")]),
        ),
    ];
    for (src, expected) in cases {
        assert_eq!(formula(src), expected, "{src}");
    }
    let prolog = ParseOptions {
        prolog_style_variables: true,
    };
    assert_eq!(
        parse_formula("P(X, _y, x, a)", &prolog).unwrap(),
        atom("P", vec![var("X"), var("_y"), cst("x"), cst("a")])
    );
    assert_eq!(
        parse_term("f(x, [a])", &ParseOptions::default()).unwrap(),
        app("f", vec![x, cons(cst("a"), cst("$nil"))])
    );
}

#[test]
fn formula_helpers_report_free_variables_and_symbols() {
    let f = formula("all x (p(x, y) | q(f(z, a))) & r(x)");
    assert_eq!(f.free_variables(), vec!["x", "y", "z"]);
    let preds: Vec<(String, usize)> = f.predicates().into_iter().collect();
    assert_eq!(
        preds,
        vec![("p".into(), 2), ("q".into(), 1), ("r".into(), 1)]
    );
    let funcs: Vec<(String, usize)> = f.functions().into_iter().collect();
    assert_eq!(funcs, vec![("a".into(), 0), ("f".into(), 2)]);
}

// ---------------------------------------------------------------------------
// Whole inputs: lists, attributes, commands, declarations.

#[test]
fn lists_hold_entries_with_attributes_and_positions() {
    let src =
        "formulas(sos).\n  p(x) # label(a) # answer(x).\n  q # label(S1) # from(P1, P4) # rule(MP).\nend_of_list.\n\
               clauses(goals).\n-p(a).\nend_of_list.\n";
    let input = parse_ok(src);
    let attr = |name: &str, args: Vec<Term>| Attribute {
        name: name.to_string(),
        args,
    };
    let Item::Formulas {
        kind,
        name,
        entries,
    } = &input.items[0]
    else {
        panic!("{:?}", input.items[0])
    };
    assert_eq!((*kind, name.as_str()), (ListKind::Formulas, "sos"));
    assert_eq!(entries[0].formula, atom("p", vec![var("x")]));
    assert_eq!(
        entries[0].attributes,
        vec![
            attr("label", vec![cst("a")]),
            attr("answer", vec![var("x")])
        ]
    );
    assert_eq!((entries[0].pos.line, entries[0].pos.col), (2, 3));
    assert_eq!(entries[1].formula, prop("q"));
    assert_eq!(
        entries[1].attributes,
        vec![
            attr("label", vec![cst("S1")]),
            attr("from", vec![cst("P1"), cst("P4")]),
            attr("rule", vec![cst("MP")])
        ]
    );
    assert_eq!(entries[1].label().as_deref(), Some("S1"));
    let lists: Vec<(ListKind, &str, usize)> =
        input.lists().map(|(k, n, e)| (k, n, e.len())).collect();
    assert_eq!(
        lists,
        vec![
            (ListKind::Formulas, "sos", 2),
            (ListKind::Clauses, "goals", 1)
        ]
    );
    assert_eq!(
        input.entries("goals")[0].formula,
        not(atom("p", vec![cst("a")]))
    );
    assert_eq!(
        entries[1].to_string(),
        "q # label(S1) # from(P1,P4) # rule(MP)."
    );
}

#[test]
fn commands_become_items() {
    let src = "set(auto). clear(auto). assign(max_weight, -1). assign(max_seconds, 60).\n\
               op(700, infix, [\"<<\", \">>\"]). op(ordinary, \"*\"). redeclare(conjunction, AND).\n\
               lex([a, b]). list(weights). weight(a) = 3. end_of_list.\n";
    let input = parse_ok(src);
    let expected = vec![
        Item::Set("auto".into()),
        Item::Clear("auto".into()),
        Item::Assign("max_weight".into(), app("-", vec![cst("1")])),
        Item::Assign("max_seconds".into(), cst("60")),
        Item::Op {
            prec: Some(700),
            kind: "infix".into(),
            symbols: vec!["<<".into(), ">>".into()],
        },
        Item::Op {
            prec: None,
            kind: "ordinary".into(),
            symbols: vec!["*".into()],
        },
        Item::Redeclare("conjunction".into(), "AND".into()),
        Item::Command(app(
            "lex",
            vec![cons(cst("a"), cons(cst("b"), cst("$nil")))],
        )),
        Item::Terms {
            name: "weights".into(),
            terms: vec![app("=", vec![app("weight", vec![cst("a")]), cst("3")])],
        },
    ];
    assert_eq!(input.items, expected);
    assert!(!input.flag("auto"));
    assert_eq!(
        input.assigned("max_weight"),
        Some(&app("-", vec![cst("1")]))
    );
    assert_eq!(input.assigned("max_proofs"), None);
}

#[test]
fn op_declarations_take_effect_immediately() {
    let src = "op(400, infix_left, \"*\").\nformulas(sos). P(a * b * c). end_of_list.\n\
               op(400, infix_right, \"*\").\nformulas(sos). Q(d * e * f). end_of_list.\n\
               op(ordinary, [\"*\"]).\nformulas(sos). R(*(a, b)). end_of_list.\n\
               op(300, prefix, ~).\nformulas(sos). ~ ~ p(x). end_of_list.\n\
               op(350, postfix, !).\nformulas(sos). p(a!). end_of_list.\n";
    let mul = |a: Term, b: Term| app("*", vec![a, b]);
    let input = parse_ok(src);
    assert_eq!(
        formulas_of(&input),
        vec![
            atom("P", vec![mul(mul(cst("a"), cst("b")), cst("c"))]),
            atom("Q", vec![mul(cst("d"), mul(cst("e"), cst("f")))]),
            atom("R", vec![mul(cst("a"), cst("b"))]),
            atom("~", vec![app("~", vec![app("p", vec![var("x")])])]),
            atom("p", vec![app("!", vec![cst("a")])]),
        ]
    );
    // After `op(ordinary, "*")`, infix `*` is gone.
    let err = parse("op(ordinary, \"*\").\nformulas(sos). a * b = c. end_of_list.").unwrap_err();
    assert_eq!(
        err.to_string(),
        "<input>:2:18: expected an operator or `.`, found `*`"
    );
}

#[test]
fn redeclared_connectives_parse_and_print_with_their_new_symbols() {
    let src = "redeclare(conjunction, AND). redeclare(negation, ~). redeclare(equality, \"==\").\n\
               redeclare(attribute, @). redeclare(universal_quantification, ALL).\n\
               formulas(sos). ALL x (~p(x) AND x == a) @ label(one). end_of_list.\n";
    let input = parse_ok(src);
    let entry = &input.entries("sos")[0];
    assert_eq!(
        entry.formula,
        all(
            "x",
            and(not(atom("p", vec![var("x")])), eq(var("x"), cst("a")))
        )
    );
    assert_eq!(entry.label().as_deref(), Some("one"));
    let printed = input.to_string();
    assert!(
        printed.contains("ALL x (~p(x) AND x == a) @ label(one)."),
        "{printed}"
    );
    // `=` is no longer equality: silently reading it as `==` would change meaning.
    let err = parse("redeclare(equality, \"==\"). formulas(sos). a = b. end_of_list.").unwrap_err();
    assert_eq!(
        err.to_string(),
        "<input>:1:43: `=` is not equality here: it was redeclared as `==`"
    );
}

#[test]
fn variable_rule_switches_where_the_flag_appears() {
    let src = "formulas(sos). p(x,A). end_of_list.\nset(prolog_style_variables).\n\
               formulas(sos). q(y,B). end_of_list.\nclear(prolog_style_variables).\nformulas(sos). r(z,C). end_of_list.";
    let input = parse_ok(src);
    assert_eq!(
        formulas_of(&input),
        vec![
            atom("p", vec![var("x"), cst("A")]),
            atom("q", vec![cst("y"), var("B")]),
            atom("r", vec![var("z"), cst("C")]),
        ]
    );
    assert!(!input.flag("prolog_style_variables"));
}

#[test]
fn if_blocks_nest_and_only_prover9_blocks_declare() {
    let src =
        "if(Prover9). set(prolog_style_variables). formulas(sos). p(X). end_of_list. end_if.\n\
               if(Mace4). clear(prolog_style_variables). assign(domain_size, 3). end_if.\n\
               formulas(goals). q(X). end_of_list.";
    let input = parse_ok(src);
    assert_eq!(
        formulas_of(&input),
        vec![atom("p", vec![var("X")]), atom("q", vec![var("X")])]
    );
    assert!(
        matches!(&input.items[1], Item::If { program, items } if program == "Mace4" && items.len() == 2)
    );
    assert!(input.flag("prolog_style_variables"));
    assert_eq!(input.assigned("domain_size"), None);
}

#[test]
fn comments_run_to_end_of_line() {
    let src = "% header\nformulas(sos). % list\n p % atom\n | q. % done\nend_of_list. % end";
    assert_eq!(formulas_of(&parse_ok(src)), vec![or(prop("p"), prop("q"))]);
}

#[test]
fn printing_is_faithful_and_reads_back() {
    let cases = [
        ("p <- q", "p <- q"),
        ("-(a = b)", "a != b"),
        ("a != b", "a != b"),
        ("all x (p(x) -> q(x))", "all x (p(x) -> q(x))"),
        ("all x p(x) -> q(x)", "(all x p(x)) -> q(x)"),
        ("-(all x p(x))", "-(all x p(x))"),
        ("(p | q) | r", "(p | q) | r"),
        ("p | q | r", "p | q | r"),
        ("p([a,b:c],[])", "p([a,b:c],[])"),
        ("x'' = - -x", "x'' = --x"),
        ("-((a + b)')", "- (a + b)'"),
        // `v` is also the infix operator `v`, so it is parenthesised as an operand.
        ("p(-(v)) | v = -(v')", "p(-(v)) | (v) = - (v)'"),
        ("$T | $F", "$T | $F"),
    ];
    for (src, expected) in cases {
        let f = formula(src);
        assert_eq!(f.to_string(), expected, "{src}");
        assert_eq!(formula(expected), f, "{expected}");
    }
}

// ---------------------------------------------------------------------------
// Errors: exact positions and messages.

#[test]
fn errors_point_at_the_offending_place() {
    let deep_parens = format!("{}p{}", "(".repeat(1100), ")".repeat(1100));
    let long_chain = vec!["p"; 1100].join(" | ");
    let cases: Vec<(String, &str)> = vec![
        ("formulas(sos).\np(x.\nend_of_list.".into(), "<input>:2:2: unclosed `(`"),
        ("formulas(sos).\np(x).\n".into(), "<input>:1:1: `formulas(sos)` is not closed by `end_of_list.`"),
        ("formulas(sos).\np(x) q(x).\nend_of_list.".into(), "<input>:2:6: expected an operator or `.`, found `q`"),
        ("formulas(sos). p & {q}. end_of_list.".into(), "<input>:1:20: unexpected character '{'"),
        ("formulas(sos). p(\"a). end_of_list.".into(), "<input>:1:18: unterminated quoted symbol (missing closing `\"`)"),
        ("end_of_list.".into(), "<input>:1:1: `end_of_list` without an open list"),
        ("end_if.".into(), "<input>:1:1: `end_if` without a matching `if(..)`"),
        ("set(a).\nif(Prover9). set(b).".into(), "<input>:2:1: `if(..)` is not closed by `end_if.`"),
        ("op(1000, infix, \"#\").".into(), "<input>:1:1: operator precedence 1000 is outside 1..998"),
        ("op(10, sideways, \"#\").".into(), "<input>:1:1: unknown operator type `sideways` (expected infix, infix_left, infix_right, prefix, prefix_paren, postfix, postfix_paren or ordinary)"),
        ("redeclare(xor, X).".into(), "<input>:1:1: unknown operation `xor` in redeclare"),
        ("formulas(sos). f(a,). end_of_list.".into(), "<input>:1:20: unexpected `)`, expected a term"),
        ("formulas(sos). p".into(), "<input>:1:17: expected `.` at end of input"),
        ("formulas(sos). [a, b. end_of_list.".into(), "<input>:1:16: unclosed `[`"),
        ("formulas(sos). a = b = c. end_of_list.".into(), "<input>:1:22: `=` needs parentheses: its left operand has precedence 700, above 699"),
        ("formulas(sos). (p # label(a)) | q. end_of_list.".into(), "<input>:1:17: attributes (`#`) may only follow a whole formula"),
        ("formulas(sos). p(all x q). end_of_list.".into(), "<input>:1:18: a quantified formula cannot be used as a term"),
        (format!("formulas(sos). {deep_parens}. end_of_list."), "<input>:1:1016: nesting deeper than 1000 levels"),
    ];
    for (src, expected) in cases {
        let err = parse(&src).expect_err(&src);
        assert_eq!(err.to_string(), expected, "{src}");
    }
    // A long flat chain is no deep nesting: it reads (as a balanced tree).
    assert!(parse_formula(&long_chain, &ParseOptions::default()).is_ok());
    let formula_errors = [
        (
            "p -> q <-> r",
            "<input>:1:8: `<->` needs parentheses: its left operand has precedence 800, above 799",
        ),
        (
            "all x",
            "<input>:1:6: unexpected end of input, expected a term",
        ),
        ("p. q", "<input>:1:4: unexpected `q` after the end"),
        ("", "<input>:1:1: unexpected end of input, expected a term"),
    ];
    for (src, expected) in formula_errors {
        assert_eq!(
            parse_formula(src, &ParseOptions::default())
                .unwrap_err()
                .to_string(),
            expected,
            "{src}"
        );
    }
}

#[test]
fn nesting_just_under_the_limit_parses_on_a_small_stack() {
    // Test threads have 2 MiB stacks; the limit must be reachable within them.
    let deep = format!("{}p{}", "(".repeat(990), ")".repeat(990));
    let chain = vec!["-p"; 480].join(" | ");
    let negations = format!("{}p", "-".repeat(990));
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            assert_eq!(formula(&deep), prop("p"));
            // A long chain reads as a balanced tree; printed and read back,
            // it is the same disjunction (grouped anew: same leaves, same order).
            let f = formula(&chain);
            assert_eq!(or_leaves(&formula(&f.to_string())), or_leaves(&f));
            assert_eq!(or_leaves(&f).len(), 480);
            let g = formula(&negations);
            assert_eq!(formula(&g.to_string()), g);
        })
        .expect("spawn")
        .join()
        .expect("no stack overflow");
}

// ---------------------------------------------------------------------------
// Property: any formula prints and parses back equal.

mod round_trip {
    use super::*;
    use proptest::prelude::*;

    /// Variables obey the default rule (u..z); `v` is also an infix operator.
    fn variable_name() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["x", "y", "z", "u", "v", "w1"]).prop_map(String::from)
    }

    fn term() -> impl Strategy<Value = Term> {
        let leaf = prop_oneof![
            variable_name().prop_map(Term::Var),
            prop::sample::select(vec!["a", "b", "c0", "$nil", "Z", "\"q s\""]).prop_map(cst),
        ];
        leaf.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                (
                    prop::sample::select(vec!["+", "*", "v", "^", "f", "$cons"]),
                    inner.clone(),
                    inner.clone()
                )
                    .prop_map(|(f, a, b)| app(f, vec![a, b])),
                (prop::sample::select(vec!["-", "'", "g"]), inner.clone())
                    .prop_map(|(f, a)| app(f, vec![a])),
                prop::collection::vec(inner, 3).prop_map(|args| app("h", args)),
            ]
        })
    }

    fn formula_strategy() -> impl Strategy<Value = Formula> {
        let leaf = prop_oneof![
            Just(Formula::True),
            Just(Formula::False),
            prop::sample::select(vec!["p", "Q"]).prop_map(prop),
            term().prop_map(|t| atom("r", vec![t])),
            (term(), term()).prop_map(|(a, b)| eq(a, b)),
            (term(), term()).prop_map(|(a, b)| atom("<=", vec![a, b])),
        ];
        leaf.prop_recursive(5, 32, 2, |inner| {
            let pair = (inner.clone(), inner.clone());
            prop_oneof![
                inner.clone().prop_map(not),
                pair.clone().prop_map(|(a, b)| and(a, b)),
                pair.clone().prop_map(|(a, b)| or(a, b)),
                pair.clone().prop_map(|(a, b)| implies(a, b)),
                pair.clone()
                    .prop_map(|(a, b)| Formula::ImpliedBy(Box::new(a), Box::new(b))),
                pair.prop_map(|(a, b)| Formula::iff(a, b)),
                (prop::bool::ANY, variable_name(), inner).prop_map(|(is_all, v, body)| {
                    let q = if is_all {
                        Quantifier::All
                    } else {
                        Quantifier::Exists
                    };
                    Formula::Quant(q, v, Box::new(body))
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn printed_formulas_parse_back_equal(f in formula_strategy()) {
            let printed = f.to_string();
            let again = parse_formula(&printed, &ParseOptions::default());
            prop_assert_eq!(again.as_ref(), Ok(&f), "printed as {}", printed);
        }

        /// Text from LADR's alphabet: parsing never panics, and whatever
        /// parses prints to text that parses back to the same AST.
        #[test]
        fn arbitrary_text_never_panics_and_accepted_text_round_trips(
            body in r"([a-z]|[A-Z]|all |exists |[()\[\],:|&=!<>'#^*+v$ -]|\x22|\n|%|\.){0,40}",
            header in prop::sample::select(vec!["", "formulas(sos).\n", "op(400, infix_left, \"*\"). formulas(a).\n", "set(prolog_style_variables). formulas(b).\n"]),
        ) {
            let src = format!("{header}{body}.\nend_of_list.\n");
            if let Ok(input) = parse(&src) {
                let printed = input.to_string();
                let again = parse(&printed);
                prop_assert_eq!(again.as_ref(), Ok(&input), "{} printed as {}", src, printed);
            }
            let _ = parse_formula(&body, &ParseOptions::default());
        }

        #[test]
        fn printed_entries_in_inputs_parse_back_equal(f in formula_strategy(), label in "[a-t][a-z0-9_]{0,6}") {
            let entry = Entry {
                formula: f,
                attributes: vec![Attribute { name: "label".into(), args: vec![cst(&label)] }],
                pos: Default::default(),
            };
            let input = Input { items: vec![Item::Formulas { kind: ListKind::Formulas, name: "sos".into(), entries: vec![entry] }] };
            let printed = input.to_string();
            let again = parse(&printed);
            prop_assert_eq!(again.as_ref(), Ok(&input), "printed as {}", printed);
        }
    }
}

/// The disjuncts of `f` in order, however its `|` chain is grouped.
fn or_leaves(f: &Formula) -> Vec<Formula> {
    let mut leaves = Vec::new();
    let mut stack = vec![f];
    while let Some(g) = stack.pop() {
        match g {
            Formula::Or(a, b) => {
                stack.push(b);
                stack.push(a);
            }
            other => leaves.push(other.clone()),
        }
    }
    leaves
}

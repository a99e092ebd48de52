//! TPTP in, SZS out: each feature of the TPTP reader (`grammar/tptp.md`),
//! round trips through our TPTP printer, and `entail prove FILE.p` on the
//! small problems of `corpora/prove/tptp/`.

mod common;

use common::{entail, ROOT};
use entail::syntax::prover9::{Formula, Quantifier, Term};
use entail::syntax::tptp::{self, Fof, Language, Role, Statement};
use std::path::Path;

fn fof(src: &str) -> Formula {
    tptp::parse_formula(src).unwrap_or_else(|e| panic!("{src}: {e}"))
}

fn p9(src: &str) -> Formula {
    entail::syntax::prover9::parse_formula(
        src,
        &entail::syntax::prover9::ParseOptions {
            prolog_style_variables: true,
        },
    )
    .unwrap_or_else(|e| panic!("{src}: {e}"))
}

fn error(src: &str) -> String {
    match tptp::parse(src) {
        Ok(s) => panic!("{src} parsed: {s:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn negated_quantifiers_keep_their_negation_and_quantifier() {
    // LADR's tptp_to_ladr reads both as the bare `p(X)`.
    assert_eq!(
        fof("~ ? [X] : p(X)"),
        Formula::not(Formula::Quant(
            Quantifier::Exists,
            "X".into(),
            Box::new(p9("p(X)"))
        ))
    );
    assert_eq!(fof("~ ! [X] : p(X)"), p9("-(all X p(X))"));
    assert_eq!(fof("~ ? [X] : ~ p(X)"), p9("-(exists X -p(X))"));
}

#[test]
fn a_quantifier_scopes_over_the_unit_formula_after_the_colon() {
    assert_eq!(
        fof("! [X] : p(X) & q"),
        Formula::and(p9("all X p(X)"), p9("q"))
    );
    assert_eq!(
        fof("~ ? [X] : p(X) | q"),
        Formula::or(p9("-(exists X p(X))"), p9("q"))
    );
    assert_eq!(
        fof("! [X, Y] : ? [Z] : r(X, Y, Z)"),
        p9("all X all Y exists Z r(X, Y, Z)")
    );
    assert_eq!(fof("! [X] : (p(X) => q(X))"), p9("all X (p(X) -> q(X))"));
    // The body of `! [X] :` is `p(X)`, so `q(X)` is outside the scope.
    let e = error("fof(a, axiom, ! [X] : p(X) & q(X)).");
    assert_eq!(
        e,
        "<input>:1:32: variable `X` is not bound: a fof formula must be closed"
    );
}

#[test]
fn every_connective_has_its_meaning() {
    let (a, b) = (|| p9("a"), || p9("b"));
    assert_eq!(fof("a & b & a"), Formula::and(Formula::and(a(), b()), a()));
    assert_eq!(fof("a | b | a"), Formula::or(Formula::or(a(), b()), a()));
    assert_eq!(fof("a => b"), Formula::implies(a(), b()));
    assert_eq!(
        fof("a <= b"),
        Formula::ImpliedBy(Box::new(a()), Box::new(b()))
    );
    assert_eq!(fof("a <=> b"), Formula::iff(a(), b()));
    assert_eq!(fof("a <~> b"), Formula::not(Formula::iff(a(), b())));
    assert_eq!(fof("a ~| b"), Formula::not(Formula::or(a(), b())));
    assert_eq!(fof("a ~& b"), Formula::not(Formula::and(a(), b())));
    assert_eq!(fof("~ ~ a"), Formula::not(Formula::not(a())));
    assert_eq!(fof("f(a) = b"), p9("f(a) = b"));
    assert_eq!(fof("f(a) != b"), p9("-(f(a) = b)"));
    assert_eq!(fof("~ f(a) = b"), p9("-(f(a) = b)"));
    assert_eq!(fof("$true & ~ $false"), p9("$T & -$F"));
}

#[test]
fn connectives_do_not_mix_or_chain_without_parentheses() {
    assert_eq!(
        error("fof(a, axiom, p & q | r)."),
        "<input>:1:21: `&` and `|` do not mix without parentheses"
    );
    assert_eq!(
        error("fof(a, axiom, p => q => r)."),
        "<input>:1:22: `=>` does not associate: add parentheses before `=>`"
    );
    assert_eq!(fof("(p & q) | r"), Formula::or(p9("p & q"), p9("r")));
}

#[test]
fn quoted_atoms_and_distinct_objects() {
    // A quoted lower word is that word; other quoted atoms keep their quotes.
    assert_eq!(fof("'p'('a')"), p9("p(a)"));
    assert_eq!(
        fof("p('A b', 'it''s')".replace("''", "\\'").as_str()),
        Formula::Atom(Term::App(
            "p".into(),
            vec![
                Term::App("'A b'".into(), vec![]),
                Term::App("'it\\'s'".into(), vec![]),
            ]
        ))
    );
    let problem = tptp::Problem {
        formulas: match &tptp::parse(
            "fof(a, axiom, p(\"x\") & p(\"y\")).\nfof(b, axiom, q(\"z\", \"x\")).",
        )
        .expect("parses")[..]
        {
            [Statement::Formula(a), Statement::Formula(b)] => vec![a.clone(), b.clone()],
            other => panic!("{other:?}"),
        },
    };
    assert_eq!(problem.distinct_objects(), ["\"x\"", "\"y\"", "\"z\""]);
    let axioms: Vec<String> = problem
        .distinct_object_axioms()
        .iter()
        .map(|f| Fof(f).to_string())
        .collect();
    assert_eq!(
        axioms,
        [
            "~ (\"x\" = \"y\")",
            "~ (\"x\" = \"z\")",
            "~ (\"y\" = \"z\")"
        ]
    );
}

#[test]
fn statements_roles_comments_annotations_and_cnf() {
    let src = "% a comment\n/* a block\ncomment */\n\
               fof(ax, axiom, p, file('x.p', ax), [useful(info)]).\n\
               fof(h, hypothesis, q).\nfof(d, definition, r <=> p).\n\
               fof(s, assumption, p).\nfof(l, lemma, p).\nfof(t, theorem, p).\n\
               fof(c, corollary, p).\nfof(pl, plain, p).\n\
               cnf(1, negated_conjecture, ~ p(X) | X = a | f(X) != b).\n\
               cnf(n, axiom, ( q(X) | ~ r(Y) )).\n\
               fof(goal, conjecture, q).\n";
    let statements = tptp::parse(src).expect("parses");
    let roles: Vec<(Language, &str, &str)> = statements
        .iter()
        .map(|s| match s {
            Statement::Formula(a) => (a.language, a.name.as_str(), a.role.name()),
            Statement::Include(_) => panic!("no include"),
        })
        .collect();
    assert_eq!(
        roles,
        [
            (Language::Fof, "ax", "axiom"),
            (Language::Fof, "h", "hypothesis"),
            (Language::Fof, "d", "definition"),
            (Language::Fof, "s", "assumption"),
            (Language::Fof, "l", "lemma"),
            (Language::Fof, "t", "theorem"),
            (Language::Fof, "c", "corollary"),
            (Language::Fof, "pl", "plain"),
            (Language::Cnf, "1", "negated_conjecture"),
            (Language::Cnf, "n", "axiom"),
            (Language::Fof, "goal", "conjecture"),
        ]
    );
    let Statement::Formula(clause) = &statements[8] else {
        panic!()
    };
    assert_eq!(clause.role, Role::NegatedConjecture);
    assert_eq!(clause.formula, p9("(-p(X) | X = a) | f(X) != b"));
    assert_eq!(clause.pos.line, 12);
    assert_eq!(
        error("fof(a, type, p)."),
        "<input>:1:8: role `type` is not supported (axiom, hypothesis, definition, assumption, lemma, theorem, corollary, conjecture, negated_conjecture and plain are)"
    );
}

#[test]
fn typed_higher_order_and_arithmetic_tptp_are_refused() {
    assert_eq!(
        error("tff(t, type, a: $i)."),
        "<input>:1:1: `tff` formulas are not supported: entail reads FOF and CNF (typed and higher-order TPTP are refused)"
    );
    assert!(error("thf(t, axiom, p).").contains("`thf` formulas are not supported"));
    // Integers are read as distinct constants (as E reads them); reals
    // and rationals need arithmetic.
    assert!(tptp::parse("fof(a, axiom, p(1)).").is_ok());
    assert_eq!(
        error("fof(a, axiom, $sum(a, b) = c)."),
        "<input>:1:15: `$sum` is not supported: entail reads FOF and CNF without arithmetic or other interpreted symbols"
    );
    assert_eq!(
        error("fof(a, axiom, ! [X: $int] : p(X))."),
        "<input>:1:19: typed variables are TFF, which is not supported"
    );
    assert!(error("fof(a, axiom, p @ q).")
        .contains("typed (TFF) and higher-order (THF) syntax is not supported"));
}

#[test]
fn includes_are_found_from_the_file_upwards_and_selected_by_name() {
    let file = Path::new(ROOT).join("corpora/prove/tptp/Problems/ORD/ORD001+1.p");
    let problem = tptp::load(&file, None).expect("loads");
    let names: Vec<(&str, Role)> = problem
        .formulas
        .iter()
        .map(|a| (a.name.as_str(), a.role))
        .collect();
    assert_eq!(
        names,
        [
            ("irreflexive", Role::Axiom),
            ("transitive", Role::Axiom),
            ("asymmetric", Role::Conjecture)
        ]
    );
    // $TPTP is the last place looked in.
    let dir = common::scratch("prove_tptp", "include");
    std::fs::write(dir.join("p.p"), "include('Axioms/ORD001+0.ax').\n").expect("write");
    let err = tptp::load(&dir.join("p.p"), None).expect_err("not found");
    assert!(
        err.to_string().ends_with(
            "p.p:1:1: cannot find `Axioms/ORD001+0.ax` in the file's directory, its parents (and $TPTP is not set)"
        ),
        "{err}"
    );
    let root = Path::new(ROOT).join("corpora/prove/tptp");
    let all = tptp::load(&dir.join("p.p"), Some(&root)).expect("found under $TPTP");
    assert_eq!(all.formulas.len(), 3);
}

#[test]
fn errors_name_file_line_and_column() {
    let (code, out, err) = entail(&[
        "prove",
        "corpora/prove/tptp/Problems/ORD/../../pelletier18.p",
        "--timeout",
        "5",
    ]);
    assert_eq!((code, out.trim()), (0, "proved"), "{err}");
    let dir = common::scratch("prove_tptp", "errors");
    let bad = dir.join("bad.p");
    std::fs::write(&bad, "fof(a, axiom, p).\nfof(b, axiom, (p & q).\n").expect("write");
    let (code, out, err) = entail(&["prove", bad.to_str().expect("utf8"), "--szs"]);
    assert_eq!(code, 1);
    assert_eq!(out, "% SZS status SyntaxError for bad\n");
    assert_eq!(
        err.trim(),
        format!("{}:2:22: expected `)`, found `.`", bad.display())
    );
}

/// Runs `entail prove corpora/prove/tptp/NAME --szs --json`: exit code, the
/// SZS line, and the JSON report.
fn prove_corpus(name: &str) -> (i32, String, serde_json::Value) {
    let path = format!("corpora/prove/tptp/{name}");
    let (code, out, err) = entail(&["prove", &path, "--szs", "--json", "--timeout", "20"]);
    let (szs, json) = out
        .split_once('\n')
        .unwrap_or_else(|| panic!("{name}: {out} {err}"));
    let report: serde_json::Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {out}"));
    (code, szs.to_string(), report)
}

#[test]
fn corpus_verdicts_and_szs_statuses() {
    for (file, code, szs, status) in [
        ("pelletier18.p", 0, "Theorem for pelletier18", "proved"),
        ("not_exists.p", 0, "Theorem for not_exists", "proved"),
        ("not_forall.p", 0, "Theorem for not_forall", "proved"),
        ("connectives.p", 0, "Theorem for connectives", "proved"),
        ("distinct.p", 0, "Theorem for distinct", "proved"),
        ("grp_cnf.p", 0, "Unsatisfiable for grp_cnf", "proved"),
        (
            "Problems/ORD/ORD001+1.p",
            0,
            "Theorem for ORD001+1",
            "proved",
        ),
    ] {
        let (c, line, report) = prove_corpus(file);
        assert_eq!(
            (c, line.as_str(), report["status"].as_str()),
            (code, format!("% SZS status {szs}").as_str(), Some(status)),
            "{file}: {report}"
        );
        let expected = szs.split(' ').next();
        assert_eq!(report["szs_status"].as_str(), expected, "{file}");
    }
}

/// Every inference of the native prover's TSTP derivations follows from
/// the clauses it cites, as a proof checker that re-proves each step finds:
/// `scripts/tstp-check` gives each step to E (parents as axioms, the
/// clause as the conjecture).
#[test]
fn each_step_of_a_native_derivation_is_re_proved_by_e_from_its_parents() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if python.is_err() || !entail::prove::tptp::eprover_installed() {
        println!("SKIPPED: the step check needs python3 and eprover");
        return;
    }
    let files = [
        "corpora/prove/group.in",
        "corpora/prove/fo/group_exponent2.in",
        "corpora/prove/fo/lattice_join_meet.in",
        "corpora/prove/fo/quasigroup_cancel.in",
        "corpora/prove/fo/sum_exists.in",
        "corpora/prove/tptp/distinct.p",
        "corpora/prove/tptp/grp_cnf.p",
        "corpora/prove/tptp/pelletier18.p",
    ];
    let out = std::process::Command::new("python3")
        .arg(Path::new(ROOT).join("scripts/tstp-check"))
        .arg(env!("CARGO_BIN_EXE_entail"))
        .args(files.iter().map(|f| Path::new(ROOT).join(f)))
        .output()
        .expect("runs scripts/tstp-check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // "total: 8 native proofs, N of N inferences followed"
    let total = stdout.lines().last().unwrap_or("");
    let words: Vec<&str> = total.split_whitespace().collect();
    assert!(
        total.starts_with("total: 8 native proofs,") && words.get(4) == words.get(6),
        "{stdout}"
    );
}

#[test]
fn a_proof_names_the_premises_it_used_and_they_prove_the_goal_alone() {
    // Asymmetry needs both selected axioms; the unselected `unused` one is
    // not even read.
    let (code, out, err) = entail(&[
        "prove",
        "corpora/prove/tptp/Problems/ORD/ORD001+1.p",
        "--json",
        "--proof",
        "--timeout",
        "20",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        report["used_premises"],
        serde_json::json!(["irreflexive", "transitive"])
    );
    assert_eq!(report["premises_recheck"], "proved");
    if report["engine"] == "eprover" {
        let proof = report["proof"].as_str().expect("E's derivation");
        assert!(
            proof.starts_with("# SZS output start CNFRefutation"),
            "{proof}"
        );
    }
}

#[test]
fn a_countermodel_is_counter_satisfiable_and_checked() {
    let dir = common::scratch("prove_tptp", "counter");
    let file = dir.join("ce.p");
    // Read as tptp_to_ladr does (`p(X)` for `~ ? [X] : p(X)`), this would be
    // a theorem; it is not.
    std::fs::write(
        &file,
        "fof(none, axiom, ~ ? [X] : p(X)).\nfof(goal, conjecture, p(a)).\n",
    )
    .expect("write");
    let (code, out, err) = entail(&["prove", file.to_str().expect("utf8"), "--szs"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        out.starts_with("% SZS status CounterSatisfiable for ce\nnot_proved\ncountermodel:"),
        "{out}"
    );
}

#[test]
fn saturation_without_a_finite_model_is_a_disproof() {
    // The native saturation prover saturates it before any other engine
    // starts (a counted budget: the same engine every run).
    let (code, szs, report) = prove_corpus("infinite.p");
    assert_eq!(code, 2, "{report}");
    assert_eq!(szs, "% SZS status CounterSatisfiable for infinite");
    assert_eq!(report["status"], "not_proved");
    assert_eq!(report["reason"], "saturation");
    assert_eq!(report["engine"], "saturate");
    assert!(report["countermodel"].is_null());
}

#[test]
fn negated_conjectures_reach_e_in_their_role() {
    let file = Path::new(ROOT).join("corpora/prove/tptp/grp_cnf.p");
    let problem = tptp::load(&file, None).expect("loads");
    let formulas: Vec<&Formula> = problem.formulas.iter().map(|a| &a.formula).collect();
    let t = entail::prove::tptp::translate_marked(&formulas, &[4], None).expect("faithful");
    let roles: Vec<&str> = t
        .text
        .lines()
        .map(|l| l.split(", ").nth(1).unwrap_or(""))
        .collect();
    assert_eq!(
        roles,
        ["axiom", "axiom", "axiom", "axiom", "negated_conjecture"]
    );
}

mod round_trip {
    use super::*;
    use proptest::prelude::*;

    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-e][a-z0-9_]{0,3}",
            Just("'A b'".to_string()),
            Just("'it\\'s'".to_string()),
            Just("\"obj\"".to_string()),
        ]
    }

    fn term(vars: Vec<String>) -> impl Strategy<Value = Term> {
        let leaf = if vars.is_empty() {
            name().prop_map(|n| Term::App(n, vec![])).boxed()
        } else {
            prop_oneof![
                name().prop_map(|n| Term::App(n, vec![])),
                proptest::sample::select(vars).prop_map(Term::Var),
            ]
            .boxed()
        };
        leaf.prop_recursive(3, 8, 3, |inner| {
            ("[f-h]", proptest::collection::vec(inner, 1..3))
                .prop_map(|(f, args)| Term::App(f, args))
        })
    }

    fn formula(vars: Vec<String>, depth: u32) -> BoxedStrategy<Formula> {
        let atom = prop_oneof![
            Just(Formula::True),
            Just(Formula::False),
            ("[p-r]", proptest::collection::vec(term(vars.clone()), 0..3))
                .prop_map(|(p, args)| Formula::Atom(Term::App(p, args))),
            (term(vars.clone()), term(vars.clone()))
                .prop_map(|(a, b)| Formula::Atom(Term::App("=".into(), vec![a, b]))),
        ];
        if depth == 0 {
            return atom.boxed();
        }
        let v = format!("X{depth}");
        let mut inner_vars = vars.clone();
        inner_vars.push(v.clone());
        let sub = || formula(vars.clone(), depth - 1);
        prop_oneof![
            atom,
            sub().prop_map(Formula::not),
            (sub(), sub()).prop_map(|(a, b)| Formula::and(a, b)),
            (sub(), sub()).prop_map(|(a, b)| Formula::or(a, b)),
            (sub(), sub()).prop_map(|(a, b)| Formula::implies(a, b)),
            (sub(), sub()).prop_map(|(a, b)| Formula::ImpliedBy(Box::new(a), Box::new(b))),
            (sub(), sub()).prop_map(|(a, b)| Formula::iff(a, b)),
            (any::<bool>(), formula(inner_vars, depth - 1)).prop_map(move |(all, body)| {
                let q = if all {
                    Quantifier::All
                } else {
                    Quantifier::Exists
                };
                Formula::Quant(q, v.clone(), Box::new(body))
            }),
        ]
        .boxed()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Any text gives statements or an error with a place, never a panic.
        #[test]
        fn any_text_reads_or_fails_cleanly(text in "(fof|cnf|include|[(),.:!?~&|=<>\\[\\]'\"%$ a-zX-Z0-9_é/*-]){0,60}") {
            if let Err(e) = tptp::parse(&text) {
                prop_assert!(e.pos.line >= 1 && e.pos.col >= 1);
            }
        }

        /// Our printer's text reads back to the same formula.
        #[test]
        fn printed_formulas_read_back(f in formula(Vec::new(), 4)) {
            let text = Fof(&f).to_string();
            prop_assert_eq!(tptp::parse_formula(&text).map_err(|e| e.to_string()), Ok(f));
        }

        /// E's translation (renamed symbols, roles) reads back through this
        /// reader to the same problem, and so does a whole statement.
        #[test]
        fn translations_for_e_read_back(a in formula(Vec::new(), 3), g in formula(Vec::new(), 3)) {
            let t = entail::prove::tptp::translate_marked(&[&a], &[0], Some(&g));
            prop_assert!(t.is_ok(), "{:?}", t.err());
            let text = format!("fof(x, lemma, {}).", Fof(&a));
            let read = tptp::parse(&text).map_err(|e| e.to_string());
            prop_assert!(matches!(&read.as_deref(), Ok([Statement::Formula(s)]) if s.formula == a && s.role == Role::Lemma), "{:?}", read);
        }
    }
}

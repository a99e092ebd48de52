//! The propositional backends against each other: `Prover` decides checks
//! over at most 16 atoms by truth table and larger ones with Z3. On random
//! problems (fixed seeds) the table's verdicts must equal Z3's, Z3's (past 16
//! atoms) must equal the truth-table engine's, every countermodel must
//! satisfy the premises and falsify the goal, and every conflict reported
//! for an inconsistent pool must be unsatisfiable and minimal.

use entail::prove::{Entailment, Premise, ProveOptions, Prover};
use entail::smt::{Sat, Z3Session};
use entail::syntax::prover9::Formula;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// A random formula over the atoms `p0` … `p{atoms-1}`.
fn random_formula(rng: &mut ChaCha8Rng, atoms: usize, depth: u32) -> Formula {
    if depth == 0 || rng.gen_bool(0.3) {
        return Formula::atom(format!("p{}", rng.gen_range(0..atoms)));
    }
    let a = random_formula(rng, atoms, depth - 1);
    match rng.gen_range(0..5) {
        0 => Formula::not(a),
        1 => Formula::and(a, random_formula(rng, atoms, depth - 1)),
        2 => Formula::or(a, random_formula(rng, atoms, depth - 1)),
        3 => Formula::implies(a, random_formula(rng, atoms, depth - 1)),
        _ => Formula::iff(a, random_formula(rng, atoms, depth - 1)),
    }
}

/// Z3's verdict on `premises ⊨ goal`, straight from a session.
fn z3_entails(z3: &mut Z3Session, premises: &[Formula], goal: &Formula) -> bool {
    let mut encoded: Vec<_> = premises
        .iter()
        .map(|p| z3.closed(p).expect("encodes"))
        .collect();
    encoded.push(z3.closed(goal).expect("encodes").not());
    z3.push();
    encoded.iter().for_each(|e| z3.assert(e));
    let sat = z3.check(&[]);
    z3.pop();
    match sat {
        Sat::Unsat => true,
        Sat::Sat => false,
        Sat::Unknown => panic!("Z3 unknown on a propositional problem"),
    }
}

/// Checks one verdict of `prover` against `expected`, and its countermodel.
fn check_verdict(prover: &mut Prover, premises: &[Formula], goal: &Formula, expected: bool) {
    match prover.entails(premises, goal).expect("encodes") {
        Entailment::Proved => assert!(expected, "{premises:?} |= {goal:?}"),
        Entailment::NotProved { countermodel } => {
            assert!(!expected, "{premises:?} |= {goal:?}");
            let cm = countermodel.expect("a countermodel");
            assert!(
                premises.iter().all(|p| cm.satisfies(p) == Some(true))
                    && cm.satisfies(goal) == Some(false),
                "countermodel {cm} does not refute {premises:?} |= {goal:?}"
            );
        }
        Entailment::Unknown { reason } => panic!("unknown on a propositional problem: {reason}"),
    }
}

#[test]
fn truth_table_checks_agree_with_z3() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut prover = Prover::new(ProveOptions::default());
    let mut z3 = Z3Session::new(Duration::from_secs(10));
    let (mut proved, mut refuted) = (0, 0);
    for _ in 0..1000 {
        let premises: Vec<Formula> = (0..rng.gen_range(0..4))
            .map(|_| random_formula(&mut rng, 4, 3))
            .collect();
        let goal = random_formula(&mut rng, 4, 3);
        let expected = z3_entails(&mut z3, &premises, &goal);
        check_verdict(&mut prover, &premises, &goal, expected);
        if expected {
            proved += 1;
        } else {
            refuted += 1;
        }
    }
    assert!(
        proved > 100 && refuted > 100,
        "proved {proved}, refuted {refuted}"
    );
}

/// Past 16 atoms the checks go to Z3; the truth-table engine (up to 20
/// atoms) is the oracle. The premises are chains `p_i -> p_i+1` with random
/// side formulas, so that both verdicts occur.
#[test]
fn z3_checks_past_the_table_limit_agree_with_truth_tables() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut prover = Prover::new(ProveOptions::default());
    let (mut proved, mut refuted) = (0, 0);
    for _ in 0..40 {
        let mut premises: Vec<Formula> = (0..17)
            .map(|i| {
                Formula::implies(
                    Formula::atom(format!("p{i}")),
                    Formula::atom(format!("p{}", i + 1)),
                )
            })
            .filter(|_| rng.gen_bool(0.9))
            .collect();
        premises.push(random_formula(&mut rng, 18, 3));
        let goal = Formula::implies(Formula::atom("p0"), random_formula(&mut rng, 18, 1));
        let expected = entail::truth::entails(&premises, &goal).expect("at most 20 atoms");
        check_verdict(&mut prover, &premises, &goal, expected);
        if expected {
            proved += 1;
        } else {
            refuted += 1;
        }
    }
    assert!(
        proved > 5 && refuted > 5,
        "proved {proved}, refuted {refuted}"
    );
}

/// Pools over 4 atoms (truth table) and 18 atoms (Z3): `consistent` is
/// satisfiability, and a conflict is unsatisfiable with every member needed.
#[test]
fn conflicts_are_unsatisfiable_and_minimal_on_both_backends() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut prover = Prover::new(ProveOptions::default());
    let mut conflicts = [0, 0];
    for round in 0..200 {
        let mut premises: Vec<Premise> = (0..rng.gen_range(2..8))
            .map(|i| Premise {
                id: format!("P{i}"),
                formula: random_formula(&mut rng, 4, 2),
                pos: None,
            })
            .collect();
        // Every fourth pool also has a premise over 18 atoms, so Z3 decides it.
        let backend = usize::from(round % 4 == 0);
        if backend == 1 {
            premises.push(Premise {
                id: "Wide".into(),
                formula: (1..18).fold(Formula::atom("p0"), |f, i| {
                    Formula::or(f, Formula::atom(format!("p{i}")))
                }),
                pos: None,
            });
        }
        let formulas: Vec<Formula> = premises.iter().map(|p| p.formula.clone()).collect();
        let satisfiable = |ids: &[String]| {
            let chosen: Vec<Formula> = premises
                .iter()
                .filter(|p| ids.contains(&p.id))
                .map(|p| p.formula.clone())
                .collect();
            entail::truth::satisfiable(&chosen).expect("at most 20 atoms")
        };
        let report = prover.consistency(&premises).expect("checks");
        let expected = entail::truth::satisfiable(&formulas).expect("at most 20 atoms");
        assert_eq!(report.consistent, Some(expected), "{formulas:?}");
        if let Some(conflict) = report.conflict {
            assert!(!expected && !satisfiable(&conflict), "{conflict:?}");
            for k in 0..conflict.len() {
                let mut fewer = conflict.clone();
                fewer.remove(k);
                assert!(satisfiable(&fewer), "{conflict:?} is not minimal");
            }
            conflicts[backend] += 1;
        } else {
            assert!(
                expected,
                "an inconsistent pool without its conflict: {formulas:?}"
            );
        }
    }
    assert!(
        conflicts[0] > 10 && conflicts[1] > 5,
        "conflicts {conflicts:?}"
    );
}

/// First-order problems go through MARCO; the result must be exactly the
/// minimal supports worked out by hand.
#[test]
fn marco_finds_all_first_order_supports() {
    use entail::prove::{Premise, SupportOptions};
    use entail::syntax::prover9::{parse_formula, ParseOptions};
    let f = |s: &str| parse_formula(s, &ParseOptions::default()).expect("parses");
    let premises: Vec<Premise> = [
        ("P1", "p(a)"),
        ("P2", "p(x) -> q(x)"),
        ("P3", "q(a)"),
        ("P4", "r(b)"),
        ("P5", "a = b"),
        ("P6", "q(b)"),
    ]
    .iter()
    .map(|(id, s)| Premise {
        id: id.to_string(),
        formula: f(s),
        pos: None,
    })
    .collect();
    let mut prover = Prover::new(ProveOptions::default());
    let r = prover
        .minimal_supports(&premises, &f("q(a)"), &SupportOptions::default())
        .expect("runs");
    assert_eq!(r.method, "marco");
    assert!(r.complete);
    let expected: Vec<Vec<String>> = vec![
        vec!["P1".into(), "P2".into()],
        vec!["P3".into()],
        vec!["P5".into(), "P6".into()],
    ];
    assert_eq!(r.supports, expected);
    let capped = prover
        .minimal_supports(
            &premises,
            &f("q(a)"),
            &SupportOptions {
                cap: 1,
                ..Default::default()
            },
        )
        .expect("runs");
    assert_eq!((capped.supports.len(), capped.complete), (1, false));
}

//! The native saturation prover (`entail::saturate`) against E as oracle:
//! every `Theorem` it finds is re-proved by E from the premises its
//! derivation used alone (and the goal, if used), and no problem it calls
//! `Satisfiable` is proved by E. Problems: corpora/prove, Prover9's
//! examples (when unpacked at `.cache/prover9-doc`; skipped visibly
//! otherwise), and random small first-order problems with equality.

use entail::prove::tptp::{self, EOutcome};
use entail::prove::{combined_goal, ASSUMPTION_LISTS};
use entail::saturate::{saturate, Budget, Outcome};
use entail::syntax::prover9::{self, Formula, Item, Quantifier, Term};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn e_says(premises: &[&Formula], goal: Option<&Formula>) -> EOutcome {
    let t = tptp::translate(premises, goal).expect("E's translation");
    let deadline = Instant::now() + Duration::from_secs(10);
    tptp::run_eprover(&t, deadline, &AtomicBool::new(false))
}

#[derive(Default, Debug)]
struct Tally {
    theorems: usize,
    satisfiable: usize,
    unknown: usize,
}

/// Runs the prover on one problem and checks its verdict with E.
fn check(
    name: &str,
    premises: &[Formula],
    goal: Option<&Formula>,
    budget: &Budget,
    tally: &mut Tally,
) {
    let refs: Vec<&Formula> = premises.iter().collect();
    let (outcome, _) = saturate(&refs, goal, budget);
    match outcome {
        Outcome::Theorem(proof) => {
            tally.theorems += 1;
            let used: Vec<&Formula> = proof.used.iter().map(|&i| refs[i]).collect();
            let goal = goal.filter(|_| proof.goal_used);
            assert_eq!(
                e_says(&used, goal),
                EOutcome::Proved,
                "{name}: E does not prove the goal from the used premises {:?}\n{}",
                proof.used,
                proof.text(&refs, goal)
            );
        }
        Outcome::Satisfiable => {
            tally.satisfiable += 1;
            assert_ne!(
                e_says(&refs, goal),
                EOutcome::Proved,
                "{name}: saturated, but E proves it"
            );
        }
        Outcome::Unknown(_) => tally.unknown += 1,
    }
}

/// The assumptions and combined goal of a Prover9 file, if it reads.
fn read_problem(path: &Path) -> Option<(Vec<Formula>, Option<Formula>)> {
    let text = std::fs::read_to_string(path).ok()?;
    let input = prover9::parse(&text).ok()?;
    let mut premises = Vec::new();
    let mut goals = Vec::new();
    for item in input.prover9_items() {
        if let Item::Formulas { name, entries, .. } = item {
            if ASSUMPTION_LISTS.contains(&name.as_str()) {
                premises.extend(entries.iter().map(|e| e.formula.clone()));
            } else if name == "goals" {
                goals.extend(entries.iter());
            }
        }
    }
    let goal = combined_goal(&goals).ok()?;
    Some((premises, goal))
}

fn inputs_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "in"));
    files.sort();
    files
}

#[test]
fn corpus_and_prover9_examples_verdicts_agree_with_e() {
    if !tptp::eprover_installed() {
        eprintln!("SKIPPED: eprover is not installed");
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = inputs_in(&root.join("corpora/prove"));
    files.extend(inputs_in(&root.join("corpora/prove/fo")));
    let corpus = files.len();
    let examples = root.join(".cache/prover9-doc/usr/share/doc/prover9-doc/examples");
    if examples.is_dir() {
        files.extend(inputs_in(&examples));
    } else {
        eprintln!(
            "SKIPPED the Prover9 examples: {} is absent",
            examples.display()
        );
    }
    // The budget `prove` runs it with first, and a larger one.
    let mut tally = Tally::default();
    for budget in [Budget::RACE, Budget::QUICK] {
        for f in &files {
            let Some((premises, goal)) = read_problem(f) else {
                continue;
            };
            let name = format!("{} ({budget:?})", f.display());
            check(&name, &premises, goal.as_ref(), &budget, &mut tally);
        }
    }
    eprintln!(
        "{} files ({corpus} from corpora/prove), two budgets: {tally:?}",
        files.len()
    );
    // group.in, mp_chain.in and the easy fo/ theorems at least.
    assert!(tally.theorems >= 5, "{tally:?}");
}

// ------------------------------------------------------------ random problems

fn random_term(rng: &mut ChaCha8Rng, vars: &[String], depth: u32) -> Term {
    if !vars.is_empty() && rng.gen_bool(0.5) {
        return Term::Var(vars[rng.gen_range(0..vars.len())].clone());
    }
    match rng.gen_range(0..if depth == 0 { 3 } else { 5 }) {
        0 => Term::App("a".into(), vec![]),
        1 => Term::App("b".into(), vec![]),
        2 => Term::App("c".into(), vec![]),
        3 => Term::App("f".into(), vec![random_term(rng, vars, depth - 1)]),
        _ => Term::App(
            "g".into(),
            vec![
                random_term(rng, vars, depth - 1),
                random_term(rng, vars, depth - 1),
            ],
        ),
    }
}

fn random_atom(rng: &mut ChaCha8Rng, vars: &[String]) -> Formula {
    let t = |rng: &mut ChaCha8Rng| random_term(rng, vars, 1);
    Formula::Atom(match rng.gen_range(0..5) {
        0 => Term::App("p".into(), vec![t(rng)]),
        1 => Term::App("q".into(), vec![t(rng)]),
        2 => Term::App("r".into(), vec![t(rng), t(rng)]),
        _ => Term::App("=".into(), vec![t(rng), t(rng)]),
    })
}

fn random_formula(rng: &mut ChaCha8Rng, vars: &mut Vec<String>, depth: u32) -> Formula {
    if depth == 0 || rng.gen_bool(0.2) {
        let a = random_atom(rng, vars);
        return if rng.gen_bool(0.35) {
            Formula::Not(Box::new(a))
        } else {
            a
        };
    }
    match rng.gen_range(0..8) {
        0 => Formula::Not(Box::new(random_formula(rng, vars, depth - 1))),
        1..=3 if vars.len() < 3 => {
            let v = ["x", "y", "z"][vars.len()].to_string();
            vars.push(v.clone());
            let body = random_formula(rng, vars, depth - 1);
            vars.pop();
            let q = if rng.gen_bool(0.6) {
                Quantifier::All
            } else {
                Quantifier::Exists
            };
            Formula::Quant(q, v, Box::new(body))
        }
        k => {
            let a = Box::new(random_formula(rng, vars, depth - 1));
            let b = Box::new(random_formula(rng, vars, depth - 1));
            match k % 5 {
                0 => Formula::And(a, b),
                1 | 2 => Formula::Or(a, b),
                3 => Formula::Implies(a, b),
                _ => Formula::Iff(a, b),
            }
        }
    }
}

#[test]
fn random_first_order_problems_agree_with_e() {
    if !tptp::eprover_installed() {
        eprintln!("SKIPPED: eprover is not installed");
        return;
    }
    // ORACLE_SEED and ORACLE_PROBLEMS widen the check by hand (a fuzz run).
    let knob = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let mut rng = ChaCha8Rng::seed_from_u64(knob("ORACLE_SEED", 55));
    let problems = knob("ORACLE_PROBLEMS", 150);
    let mut tally = Tally::default();
    for k in 0..problems {
        let n = rng.gen_range(1..=4);
        let premises: Vec<Formula> = (0..n)
            .map(|_| random_formula(&mut rng, &mut Vec::new(), 3))
            .collect();
        let goal = random_formula(&mut rng, &mut Vec::new(), 3);
        let name = format!(
            "random problem {k}: {} |- {}",
            premises
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" ; "),
            goal
        );
        check(&name, &premises, Some(&goal), &Budget::QUICK, &mut tally);
    }
    eprintln!("{problems} random problems: {tally:?}");
    // Both verdicts occur, so neither check is vacuous.
    assert!(tally.theorems >= 15 && tally.satisfiable >= 15, "{tally:?}");
}

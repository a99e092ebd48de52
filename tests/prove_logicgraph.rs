//! The 20 shared LogicGraph instances: every published step is valid, every
//! solution globally valid and minimal, the premises consistent, and the
//! minimal supports are exactly the solutions' supports. Also the mutation
//! test: dropping one cited premise from a valid step makes it invalid with
//! `insufficient_premise`.

use entail::gen::logicgraph;
use entail::prove::{ErrorKind, ProveOptions, Prover, StepStatus, SupportOptions};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

#[path = "reference/shared_corpus.rs"]
mod shared_corpus;

/// The instances, read in place from the published corpus (never copied);
/// `None`, after a visible skip line, when the corpus is absent.
fn instances(test: &str) -> Option<Vec<PathBuf>> {
    let root = shared_corpus::logicgraph_corpus(test)?;
    let mut dirs = Vec::new();
    for tier in ["Small", "Medium", "Large"] {
        let tier_dir = root.join(tier);
        let entries = std::fs::read_dir(&tier_dir).unwrap_or_else(|e| {
            panic!(
                "the LogicGraph corpus is incomplete at {}: {e}",
                tier_dir.display()
            )
        });
        for e in entries.flatten() {
            if e.path().join("complete.json").is_file() {
                dirs.push(e.path());
            }
        }
    }
    dirs.sort();
    assert_eq!(dirs.len(), 20, "expected the 20 shared instances");
    Some(dirs)
}

#[test]
fn published_solutions_are_valid_minimal_and_are_all_the_supports() {
    let Some(dirs) = instances("published_solutions_are_valid_minimal_and_are_all_the_supports")
    else {
        return;
    };
    let mut prover = Prover::new(ProveOptions {
        timeout: Some(Duration::from_secs(20)),
        countermodels: true,
    });
    let opts = SupportOptions {
        cap: 10_000,
        timeout: Duration::from_secs(120),
    };
    let mut steps = 0;
    for dir in &dirs {
        let name = dir.display().to_string();
        let problem =
            logicgraph::Instances::load(dir, false).unwrap_or_else(|e| panic!("{name}: {e}"));
        let report = prover
            .check_problem(&problem, Some(&opts))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(report.consistency.consistent, Some(true), "{name}");
        for s in &report.solutions {
            for st in &s.steps {
                steps += 1;
                assert_eq!(
                    st.status,
                    StepStatus::Valid,
                    "{name} solution {} step {}: {:?}",
                    s.id,
                    st.label,
                    st
                );
                assert_eq!(
                    st.error_kind, None,
                    "{name} solution {} step {}: {:?}",
                    s.id, st.label, st
                );
                assert_eq!(
                    st.rule_matches,
                    Some(true),
                    "{name} solution {} step {}",
                    s.id,
                    st.label
                );
            }
            assert_eq!(s.steps_valid, Some(true), "{name} solution {}", s.id);
            assert_eq!(s.reaches_goal, Some(true), "{name} solution {}", s.id);
            assert_eq!(s.globally_valid, Some(true), "{name} solution {}", s.id);
            assert_eq!(s.minimal, Some(true), "{name} solution {}", s.id);
        }
        let supports = report.supports.expect("asked for supports");
        assert!(supports.complete, "{name}: {:?}", supports.stopped);
        let found: BTreeSet<BTreeSet<String>> = supports
            .supports
            .iter()
            .map(|s| s.iter().cloned().collect())
            .collect();
        let published: BTreeSet<BTreeSet<String>> = report
            .solutions
            .iter()
            .map(|s| s.support.iter().cloned().collect())
            .collect();
        assert_eq!(found, published, "{name}");
    }
    assert_eq!(
        steps,
        published_step_count(&dirs),
        "every published step is checked once"
    );
}

/// The number of steps in the solutions.json files, counted independently of
/// the loader.
fn published_step_count(dirs: &[PathBuf]) -> usize {
    dirs.iter()
        .map(|dir| {
            let text = std::fs::read_to_string(dir.join("solutions.json")).expect("readable");
            let v: serde_json::Value = serde_json::from_str(&text).expect("json");
            v["solutions"]
                .as_array()
                .expect("solutions")
                .iter()
                .map(|s| s["steps"].as_array().expect("steps").len())
                .sum::<usize>()
        })
        .sum()
}

#[test]
fn supports_of_propositional_instances_come_from_projection() {
    let Some(dirs) = instances("supports_of_propositional_instances_come_from_projection") else {
        return;
    };
    let mut prover = Prover::new(ProveOptions::default());
    let dir = dirs
        .into_iter()
        .find(|d| d.ends_with("Large/test_288"))
        .expect("Large/test_288");
    let problem = logicgraph::Instances::load(&dir, false).expect("loads");
    let r = prover
        .minimal_supports(&problem.premises, &problem.goal, &SupportOptions::default())
        .expect("runs");
    assert_eq!(r.method, "projection");
    assert!(r.complete);
    assert_eq!(r.supports.len(), problem.solutions.len());
}

#[test]
fn dropping_a_cited_premise_makes_a_step_insufficient() {
    let Some(dirs) = instances("dropping_a_cited_premise_makes_a_step_insufficient") else {
        return;
    };
    let mut prover = Prover::new(ProveOptions {
        timeout: Some(Duration::from_secs(20)),
        countermodels: true,
    });
    let mut mutants = 0;
    for dir in dirs {
        let name = dir.display().to_string();
        let problem = logicgraph::Instances::load(&dir, false).expect("loads");
        for (si, solution) in problem.solutions.iter().enumerate() {
            for (k, step) in solution.steps.iter().enumerate() {
                for drop in 0..step.from.len() {
                    let mut mutant = problem.clone();
                    mutant.solutions[si].steps[k].from.remove(drop);
                    let report = prover
                        .check_solution(&mutant, &mutant.solutions[si])
                        .expect("checks");
                    let st = &report.steps[k];
                    let what = format!(
                        "{name} solution {} step {} without {}",
                        solution.id, step.label, step.from[drop]
                    );
                    assert_eq!(st.status, StepStatus::Invalid, "{what}");
                    assert_eq!(
                        st.error_kind,
                        Some(ErrorKind::InsufficientPremise),
                        "{what}"
                    );
                    // The countermodel really falsifies the conclusion: its
                    // true atoms make the conclusion false (checked by the
                    // truth-table engine, independent of Z3).
                    let cm = st.countermodel.as_ref().expect("a countermodel");
                    let truths: BTreeSet<&str> = cm.true_atoms().into_iter().collect();
                    assert!(
                        !eval(&step.conclusion, &truths),
                        "{what}: countermodel satisfies the conclusion"
                    );
                    mutants += 1;
                }
            }
        }
    }
    assert!(mutants > 1000, "{mutants} mutants");
}

/// Propositional evaluation under the atoms in `truths`.
fn eval(f: &entail::syntax::prover9::Formula, truths: &BTreeSet<&str>) -> bool {
    use entail::syntax::prover9::{Formula, Term};
    match f {
        Formula::True => true,
        Formula::False => false,
        Formula::Atom(Term::App(n, args)) if args.is_empty() => truths.contains(n.as_str()),
        Formula::Not(g) => !eval(g, truths),
        Formula::And(a, b) => eval(a, truths) && eval(b, truths),
        Formula::Or(a, b) => eval(a, truths) || eval(b, truths),
        Formula::Implies(a, b) => !eval(a, truths) || eval(b, truths),
        Formula::ImpliedBy(a, b) => eval(a, truths) || !eval(b, truths),
        Formula::Iff(a, b) => eval(a, truths) == eval(b, truths),
        other => panic!("not propositional: {other:?}"),
    }
}

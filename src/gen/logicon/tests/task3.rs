//! Task 3 (generative): the group samples re-checked by the evaluator of
//! the parent module (not `entail::truth`), the scorer on hand-computed
//! batches and against a brute-force walk over every combination, and
//! byte-identical output for any thread count or sharding.

use super::super::score::score_task3;
use super::super::task3::{sample, FACTS_PER_GROUP};
use super::super::{
    generate, score, Answer, Config, Error, GenTask, Group, GroupSample, Labels, PromptStyle,
    Samples, ScoreConfig, Statement, Task, TaskReport, Truth, Variant,
};
use super::{assignments, atoms_of, eval, has_connective, parse};
use crate::gen::Shard;
use crate::syntax::prover9::Formula;
use std::collections::{BTreeMap, BTreeSet};

fn task3(seed: u64, count: u64) -> Config {
    Config {
        seed,
        count,
        task: GenTask::Generative,
        ..Config::default()
    }
}

fn samples(config: &Config) -> Vec<GroupSample> {
    config.validate().expect("valid config");
    (0..config.count)
        .map(|i| sample(config, i).expect("sample"))
        .collect()
}

fn truth(sample: &GroupSample) -> BTreeMap<String, bool> {
    sample
        .assignment
        .iter()
        .map(|(a, t)| (a.clone(), *t == Truth::T))
        .collect()
}

/// How many kinds of connective `f` uses, counted here.
fn kinds(f: &Formula) -> usize {
    let tests: [&dyn Fn(&Formula) -> bool; 5] = [
        &|g| matches!(g, Formula::Not(_)),
        &|g| matches!(g, Formula::And(..)),
        &|g| matches!(g, Formula::Or(..)),
        &|g| matches!(g, Formula::Implies(..) | Formula::ImpliedBy(..)),
        &|g| matches!(g, Formula::Iff(..)),
    ];
    tests.iter().filter(|t| has_connective(f, *t)).count()
}

/// 200 samples, n = 2..5: the groups partition the assignment's atoms;
/// each has exactly ten facts over its own atoms, each with two or more
/// kinds of connective, pairwise inequivalent, true under ℓ, and together
/// true under ℓ alone; the prompt shows every fact and asks for `n`
/// labelled statements.
#[test]
fn every_fact_is_true_under_the_assignment_and_groups_partition_the_atoms() {
    let config = task3(5, 200);
    let mut per_n = BTreeMap::new();
    for s in samples(&config) {
        *per_n.entry(s.n).or_insert(0) += 1;
        assert_eq!(s.groups.len(), s.n, "{}", s.id);
        assert_eq!(
            s.id,
            format!(
                "logicon-generative-n{}-{}",
                s.n,
                s.id.rsplit('-').next().unwrap()
            )
        );
        let v = truth(&s);
        let mut covered = BTreeSet::new();
        for (i, group) in s.groups.iter().enumerate() {
            assert_eq!(group.atoms.len(), config.group_atoms, "{}", s.id);
            for a in &group.atoms {
                assert!(covered.insert(a.clone()), "{}: {a} in two groups", s.id);
            }
            assert_eq!(group.facts.len(), FACTS_PER_GROUP, "{}", s.id);
            let facts: Vec<Formula> = group.facts.iter().map(|f| parse(&f.symbolic)).collect();
            let own: BTreeSet<String> = group.atoms.iter().cloned().collect();
            for (fact, f) in group.facts.iter().zip(&facts) {
                let mut used = BTreeSet::new();
                atoms_of(f, &mut used);
                assert!(
                    used.is_subset(&own) && used.len() >= 2,
                    "{}: {}",
                    s.id,
                    fact.symbolic
                );
                assert!(kinds(f) >= 2, "{}: {}", s.id, fact.symbolic);
                assert!(eval(f, &v), "{}: {} is false under ℓ", s.id, fact.symbolic);
                assert!(s.prompt.contains(&fact.text), "{}", s.id);
            }
            // Over the group's atoms: pairwise different models, and ℓ the
            // only common one.
            let refs: Vec<&Formula> = facts.iter().collect();
            let rows = assignments(&refs);
            let columns: Vec<Vec<bool>> = facts
                .iter()
                .map(|f| rows.iter().map(|r| eval(f, r)).collect())
                .collect();
            let distinct: BTreeSet<&Vec<bool>> = columns.iter().collect();
            assert_eq!(distinct.len(), FACTS_PER_GROUP, "{}", s.id);
            let common: Vec<&BTreeMap<String, bool>> = rows
                .iter()
                .filter(|r| facts.iter().all(|f| eval(f, r)))
                .collect();
            assert_eq!(common.len(), 1, "{}", s.id);
            assert!(common[0].iter().all(|(a, x)| v[a] == *x), "{}", s.id);
            assert!(s.prompt.contains(&format!("Group {}: <statement>", i + 1)));
        }
        let all: BTreeSet<String> = s.assignment.keys().cloned().collect();
        assert_eq!(covered, all, "{}", s.id);
        assert!(s.prompt.ends_with("Answer:"));
        assert!(!s.prompt.contains(&format!("Group {}:", s.n + 1)));
    }
    assert_eq!(per_n, BTreeMap::from([(2, 50), (3, 50), (4, 50), (5, 50)]));
}

fn run(config: &Config) -> Vec<u8> {
    let mut out = Vec::new();
    generate(config, &mut out, &|_| {}).expect("generation");
    out
}

#[test]
fn threads_and_shards_give_identical_bytes() {
    let config = Config {
        threads: 1,
        ..task3(8, 30)
    };
    let whole = run(&config);
    assert_eq!(whole.iter().filter(|&&b| b == b'\n').count(), 30);
    for threads in [2, 3] {
        assert_eq!(
            run(&Config {
                threads,
                ..config.clone()
            }),
            whole
        );
    }
    let mut parts = Vec::new();
    for i in 0..4 {
        parts.extend(run(&Config {
            shard: Shard::new(i, 4).expect("shard"),
            threads: 2,
            ..config.clone()
        }));
    }
    assert_eq!(parts, whole);
    assert_ne!(run(&task3(9, 30)), whole, "the seed must matter");
}

#[test]
fn bad_task3_configs_are_refused() {
    let base = task3(0, 1);
    for bad in [
        Config {
            groups_min: 1,
            ..base.clone()
        },
        Config {
            groups_min: 4,
            groups_max: 3,
            ..base.clone()
        },
        Config {
            groups_max: 7,
            ..base.clone()
        },
        Config {
            group_atoms: 2,
            ..base.clone()
        },
        Config {
            groups_max: 6,
            group_atoms: 4,
            ..base.clone()
        },
        Config {
            variant: Variant::Hard,
            ..base.clone()
        },
        Config {
            labels: Labels::Paper,
            ..base.clone()
        },
        Config {
            prompt: Some(PromptStyle::ThreeShot),
            ..base.clone()
        },
    ] {
        assert!(matches!(bad.validate(), Err(Error::Config(_))), "{bad:?}");
    }
    Config {
        prompt: Some(PromptStyle::ZeroShot),
        groups_max: 6,
        ..base
    }
    .validate()
    .expect("zero-shot and six groups of three are fine");
}

// ---------------------------------------------------------------------------
// Scoring.

fn group(atoms: &[&str], facts: &[&str]) -> Group {
    Group {
        atoms: atoms.iter().map(|a| a.to_string()).collect(),
        facts: facts
            .iter()
            .map(|f| Statement {
                symbolic: f.to_string(),
                text: String::new(),
            })
            .collect(),
    }
}

fn hand_sample(id: &str, assignment: &str, groups: Vec<Group>) -> GroupSample {
    let atoms: Vec<&String> = groups.iter().flat_map(|g| &g.atoms).collect();
    GroupSample {
        id: id.to_string(),
        n: groups.len(),
        assignment: atoms
            .iter()
            .zip(assignment.chars())
            .map(|(a, c)| ((*a).clone(), if c == 'T' { Truth::T } else { Truth::F }))
            .collect(),
        groups,
        prompt: String::new(),
        seed: 0,
    }
}

fn answer(id: &str, answer: serde_json::Value) -> Answer {
    Answer {
        id: id.to_string(),
        labels: None,
        answer,
    }
}

fn text(id: &str, text: &str) -> Answer {
    answer(id, serde_json::Value::String(text.to_string()))
}

/// ℓ: p T, q F, r T, s T. Group 1 has 2 facts, group 2 has 3, so 6
/// combinations; in `tampered` one fact of group 1 is false under ℓ.
fn hand_samples() -> Vec<GroupSample> {
    vec![
        hand_sample(
            "two",
            "TFTT",
            vec![
                group(&["p", "q"], &["p & -q", "p | q"]),
                group(&["r", "s"], &["r & s", "r -> s", "s | -r"]),
            ],
        ),
        hand_sample(
            "tampered",
            "TFTT",
            vec![
                group(&["p", "q"], &["p & -q", "q"]),
                group(&["r", "s"], &["r & s", "r -> s", "s | -r"]),
            ],
        ),
        hand_sample(
            "three",
            "TFTTF",
            vec![
                group(&["p", "q"], &["p & -q"]),
                group(&["r", "s"], &["r & s"]),
                group(&["t"], &["-t | -t"]),
            ],
        ),
    ]
}

/// The JSON of a [`GroupsReport`] with these counts and this sum of shares.
fn cell(answers: usize, executed: usize, shares: f64, combos: (u64, u64)) -> serde_json::Value {
    serde_json::json!({
        "answers": answers,
        "executed": executed,
        "execution_rate": executed as f64 / answers as f64,
        "consistency": shares / answers as f64,
        "consistency_given_execution": if executed > 0 { shares / executed as f64 } else { 0.0 },
        "combinations": combos.0,
        "consistent_combinations": combos.1,
    })
}

/// A known-good answer scores 1 and a known-bad one 0; malformed answers
/// count as not executed and the batch goes on.
#[test]
fn task3_scores_by_hand() {
    let samples = hand_samples();
    let good = [
        // Both statements true under ℓ: all 6 combinations stay consistent.
        text("two", "Group 1: p -> -q\nGroup 2: r & s | -r"),
        // Fenced, labels out of order, prose and bold marks around.
        text(
            "two",
            "Sure.\nAnswer:\n```\n**Group 2:** s & r\nGroup 1: `-q`\n```",
        ),
        answer("two", serde_json::json!(["-q & p", "r <-> s"])),
        text("two", "1. -q\n2. s"),
        // A group written again is a correction: the last one counts.
        text(
            "two",
            "Group 1: q\nGroup 2: s\nWait, q is false.\nGroup 1: -q",
        ),
    ];
    let bad = [
        // Executed, but q is false under ℓ: no combination stays consistent.
        text("two", "Group 1: q\nGroup 2: r"),
        text("two", "Group 1: -p | q\nGroup 2: s"),
    ];
    let malformed = [
        text("two", "Group 1: -q"),                 // one statement for two groups
        text("two", "Group 1: -q & r\nGroup 2: s"), // r is not an atom of group 1
        text("two", "Group 1: p | q\nGroup 2: s"),  // a copy of a group-1 fact
        text("two", "Group 1: p &&\nGroup 2: s"),   // no formula
        text("two", "Group 1: -q\nGroup 3: s"),     // no group 3
        text("two", "I would rather not."),
        answer("two", serde_json::json!(["-q"])),
    ];
    let others = [
        // One false fact in group 1: 1 x 3 of the 6 combinations stay consistent.
        text("tampered", "Group 1: -q\nGroup 2: s"),
        text("three", "Group 1: -q\nGroup 2: s\nGroup 3: -t & -t"),
        text("nobody", "Group 1: -q"),
    ];
    let answers: Vec<Answer> = good
        .into_iter()
        .chain(bad)
        .chain(malformed)
        .chain(others)
        .collect();
    let report = score_task3(&samples, &answers);
    // 16 answers scored: 9 executed (5 good, 2 bad, tampered, three) with
    // shares 1, 1, 1, 1, 1, 0, 0, 3/6, 1 of 6, 6, 6, 6, 6, 6, 6, 6 and 1
    // combinations.
    let expected = serde_json::json!({
        "all": cell(16, 9, 6.5, (49, 34)),
        "by_groups": {"2": cell(15, 8, 5.5, (48, 33)), "3": cell(1, 1, 1.0, (1, 1))},
        "rejected": {"unknown_id": 1, "malformed": 0},
    });
    assert_eq!(serde_json::to_value(&report).expect("json"), expected);
    assert_eq!(report.all.execution_rate, 9.0 / 16.0);
    assert_eq!(report.all.consistency, 6.5 / 16.0);

    // A sample whose fact does not parse rejects its answers, not the batch.
    let broken = vec![hand_sample(
        "broken",
        "TF",
        vec![group(&["p", "q"], &["p &"])],
    )];
    let report = score_task3(&broken, &[text("broken", "Group 1: p")]);
    assert_eq!(report.rejected.malformed, 1);
    assert_eq!(report.all.answers, 0);
}

#[test]
fn score_needs_the_samples_of_its_task() {
    let groups = hand_samples();
    let answers = [text("two", "Group 1: -q\nGroup 2: s")];
    let config = |task| ScoreConfig { task };
    let report = score(
        Samples::Groups(&groups),
        &answers,
        &config(Task::Generative),
        &|_| {},
    )
    .expect("task 3 on groups");
    assert!(matches!(report.0, TaskReport::Generative(r) if r.all.consistency == 1.0));
    assert!(score(
        Samples::Statements(&[]),
        &answers,
        &config(Task::Generative),
        &|_| {}
    )
    .is_err());
    assert!(score(
        Samples::Groups(&groups),
        &answers,
        &config(Task::Enumerative),
        &|_| {}
    )
    .is_err());
}

/// ℓ's literals on `atoms`, conjoined (`negate`: the first one flipped).
fn literals(atoms: &[String], v: &BTreeMap<String, bool>, negate: bool) -> String {
    atoms
        .iter()
        .enumerate()
        .map(|(i, a)| {
            if v[a] != (negate && i == 0) {
                a.clone()
            } else {
                format!("-{a}")
            }
        })
        .collect::<Vec<_>>()
        .join(" & ")
}

/// [`literals`], or the same conjunction reversed or doubly negated when a
/// fact of the group is that formula: the scorer refuses a copy of a fact,
/// and a fact can be ℓ's own conjunction of literals.
fn fresh_literals(
    atoms: &[String],
    v: &BTreeMap<String, bool>,
    negate: bool,
    facts: &[Formula],
) -> String {
    let base = literals(atoms, v, negate);
    let mut parts: Vec<&str> = base.split(" & ").collect();
    parts.reverse();
    let reversed = parts.join(" & ");
    let doubled = format!("--({base})");
    [base, reversed, doubled]
        .into_iter()
        .find(|t| !facts.contains(&parse(t)))
        .expect("three different formulas are not all facts")
}

/// On generated samples, some facts negated and statements true or false
/// under ℓ, the scorer's count of consistent combinations equals a walk
/// over every α ∈ {1..10}^n with the evaluator here; answers of ℓ's own
/// literals score 1.
#[test]
fn combination_counts_match_a_brute_force_walk() {
    let config = Config {
        groups_min: 2,
        groups_max: 3,
        ..task3(12, 12)
    };
    let mut perfect = Vec::new();
    let generated = samples(&config);
    for (j, s) in generated.iter().enumerate() {
        let v = truth(s);
        let statements: Vec<String> = s
            .groups
            .iter()
            .map(|g| {
                let facts: Vec<Formula> = g.facts.iter().map(|f| parse(&f.symbolic)).collect();
                fresh_literals(&g.atoms, &v, false, &facts)
            })
            .collect();
        perfect.push(answer(&s.id, serde_json::json!(statements)));
        // Negate facts j mod 10 and 3 of the first group and every 4th of the others.
        let mut tampered = s.clone();
        for (i, g) in tampered.groups.iter_mut().enumerate() {
            for (k, f) in g.facts.iter_mut().enumerate() {
                if (i == 0 && (k == j % 10 || k == 3)) || (i > 0 && k % 4 == i % 4) {
                    f.symbolic = format!("-({})", f.symbolic);
                }
            }
        }
        for flip in [None, Some(j % s.n)] {
            let facts: Vec<Vec<Formula>> = tampered
                .groups
                .iter()
                .map(|g| g.facts.iter().map(|f| parse(&f.symbolic)).collect())
                .collect();
            let statements: Vec<String> = s
                .groups
                .iter()
                .zip(&facts)
                .enumerate()
                .map(|(i, (g, fs))| fresh_literals(&g.atoms, &v, flip == Some(i), fs))
                .collect();
            let new: Vec<Formula> = statements.iter().map(|t| parse(t)).collect();
            let mut consistent = 0u64;
            let mut total = 0u64;
            let mut alpha = vec![0usize; s.n];
            loop {
                total += 1;
                let all_true = (0..s.n).all(|i| eval(&facts[i][alpha[i]], &v) && eval(&new[i], &v));
                consistent += u64::from(all_true);
                // Next α, odometer style.
                let mut i = 0;
                while i < s.n {
                    alpha[i] += 1;
                    if alpha[i] < FACTS_PER_GROUP {
                        break;
                    }
                    alpha[i] = 0;
                    i += 1;
                }
                if i == s.n {
                    break;
                }
            }
            assert_eq!(total, 10u64.pow(s.n as u32));
            let report = score_task3(
                std::slice::from_ref(&tampered),
                &[answer(&s.id, serde_json::json!(statements))],
            );
            assert_eq!(report.all.executed, 1, "{}", s.id);
            assert_eq!(
                (report.all.combinations, report.all.consistent_combinations),
                (total, consistent),
                "{} {flip:?}",
                s.id
            );
            assert_eq!(consistent == 0, flip.is_some());
        }
    }
    let report = score_task3(&generated, &perfect);
    assert_eq!(
        (report.all.execution_rate, report.all.consistency),
        (1.0, 1.0)
    );
    assert_eq!(
        report.by_groups.keys().copied().collect::<Vec<_>>(),
        vec![2, 3]
    );
}

//! Per-answer rewards for training on LogiConBench: each task's metric for
//! one completion, in [0, 1].
//!
//! The task follows from the generated record the answer is for (its
//! ground truth): a `hard` sample asks Task 1 about its query's list and a
//! `completion` sample the hidden label (reward 1 for the right verdict or
//! label, else 0); a `plain` sample asks Task 2 (reward: the F1 of the
//! listed consistent lists against the gold ones, the paper's partial
//! credit, which is 1 exactly for an exact answer); a Task 3 group sample
//! (reward: the share of cross-group fact combinations that stay
//! consistent with the answer's statements, the paper's consistency, 0 for
//! an answer not in the format asked).

use super::score::{task1_verdict, task2_verdict, task3_verdict, Task1Verdict};
use super::{prompt, GroupSample, Sample, Truth, Variant};
use serde::{Deserialize, Serialize};

/// A generated record, the ground truth of one answer.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Record {
    /// `gen logicon` statement samples (Tasks 1 and 2).
    Statements(Box<Sample>),
    /// `gen logicon --task generative` group samples (Task 3).
    Groups(Box<GroupSample>),
}

/// The reward of one completion and what it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reward {
    /// In [0, 1] (see the module's documentation).
    pub score: f64,
    /// The task asked: 1, 2 or 3.
    pub task: u8,
    /// The answer is fully right (right verdict or label, the exact set of
    /// consistent lists, or every combination consistent).
    pub correct: bool,
    /// The answer is in the format asked (a verdict, a label, T/F lists,
    /// one well-formed statement per group).
    pub parsed: bool,
}

/// The reward of `completion` answering `record`, or why the record cannot
/// be scored.
pub fn reward(record: &Record, completion: &str) -> Result<Reward, String> {
    match record {
        Record::Statements(sample) => {
            let task1 = |labels: Option<Vec<Truth>>| match task1_verdict(
                sample,
                labels.as_deref(),
                completion,
            ) {
                Some(Task1Verdict::List {
                    correct, parsed, ..
                })
                | Some(Task1Verdict::Completion { correct, parsed }) => Ok(Reward {
                    score: f64::from(u8::from(correct)),
                    task: 1,
                    correct,
                    parsed,
                }),
                None => Err(format!("{}: no Task 1 list to judge", sample.id)),
            };
            match sample.variant() {
                Some(Variant::Completion) => task1(None),
                Some(Variant::Hard) => {
                    let labels = sample
                        .query
                        .as_ref()
                        .and_then(|q| q.labels.iter().copied().collect::<Option<Vec<Truth>>>())
                        .ok_or_else(|| format!("{}: a hard sample needs its query", sample.id))?;
                    task1(Some(labels))
                }
                _ => {
                    let v = task2_verdict(sample, completion);
                    Ok(Reward {
                        score: v.f1,
                        task: 2,
                        correct: v.exact,
                        parsed: v.format,
                    })
                }
            }
        }
        Record::Groups(sample) => {
            let verdict = task3_verdict(sample, &serde_json::Value::String(completion.into()))
                .ok_or_else(|| format!("{}: the group sample cannot be checked", sample.id))?;
            let score = verdict.map_or(0.0, |(consistent, total)| {
                if total == 0 {
                    0.0
                } else {
                    consistent as f64 / total as f64
                }
            });
            Ok(Reward {
                score,
                task: 3,
                correct: score == 1.0,
                parsed: verdict.is_some(),
            })
        }
    }
}

/// A completion that earns the full reward on `record`: the expected
/// answer of Tasks 1 and 2 as the prompts show it, or for Task 3 each
/// group's assignment as a conjunction of literals (in reverse atom order
/// when that copies a fact).
pub fn gold_answer(record: &Record) -> String {
    match record {
        Record::Statements(sample) => prompt::answer(sample),
        Record::Groups(sample) => {
            let mut out = String::new();
            for (i, group) in sample.groups.iter().enumerate() {
                let literal = |atom: &String| match sample.assignment.get(atom) {
                    Some(Truth::F) => format!("-{atom}"),
                    _ => atom.clone(),
                };
                let forward: Vec<String> = group.atoms.iter().map(literal).collect();
                let mut statement = forward.join(" & ");
                if group.facts.iter().any(|f| f.symbolic == statement) {
                    statement = forward
                        .iter()
                        .rev()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(" & ");
                }
                out.push_str(&format!("Group {}: {statement}\n", i + 1));
            }
            out
        }
    }
}

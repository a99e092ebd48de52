//! Per-answer rewards for training on DivLogicEval: the paper's metrics
//! mapped to [0, 1] for each completion.
//!
//! A completion's reward is 1 when the option it picks is the question's
//! answer, else 0 (Accuracy). When a batch holds every rotation of a
//! question (ids `…-r0` to `…-r3`, each any number of times), each correct
//! rotation's reward is scaled by the group's consistency factor
//! `1 + Σ_o p(o)·log₄ p(o)`, `p(o)` the share of the group's completions
//! that picked option `o` by content: the group's mean reward is then its
//! PartialCircular (exactly, with one completion per rotation), and a
//! correct answer still earns more than a wrong one.

use super::score::{base_id, partial_circular};
use super::{Question, OPTIONS};
use crate::syntax::answer::{option, read};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// The reward of one completion and what it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reward {
    /// In [0, 1]: correctness, times the consistency factor of a complete
    /// rotation group.
    pub score: f64,
    /// The option picked, if the completion names one.
    pub picked: Option<usize>,
    /// Whether it is the question's answer.
    pub correct: bool,
    /// The PartialCircular of the completion's rotation group, when the
    /// batch holds all four rotations.
    pub partial_circular: Option<f64>,
}

/// The option a completion picks, as the one answer reader reads it
/// ([`read::option`]): reasoning in think blocks and special tokens
/// dropped, the last answer marker (`Answer: D`, `**Answer:** D`, `The
/// answer is D.`, `\boxed{D}`, `<answer>D</answer>`) wins, and a hedge or
/// several letters is no pick.
pub fn picked(completion: &str) -> Option<usize> {
    read::option(completion, OPTIONS)
}

/// The rewards of `completions[i]` answering `questions[i]`, rotation
/// groups taken over the whole batch (see the module's documentation).
pub fn rewards(questions: &[Question], completions: &[&str]) -> Vec<Reward> {
    let picks: Vec<Option<usize>> = completions.iter().map(|c| picked(c)).collect();
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, q) in questions.iter().enumerate() {
        groups.entry(base_id(&q.id)).or_default().push(i);
    }
    let mut circular: Vec<Option<(f64, f64)>> = vec![None; questions.len()];
    for members in groups.values() {
        let ids: BTreeSet<&str> = members.iter().map(|&i| questions[i].id.as_str()).collect();
        if ids.len() != OPTIONS || ids.iter().any(|id| base_id(id) == *id) {
            continue;
        }
        let mut counts: BTreeMap<Option<&str>, usize> = BTreeMap::new();
        let mut right = 0;
        for &i in members {
            let q = &questions[i];
            right += usize::from(picks[i] == Some(q.answer));
            let chosen = picks[i]
                .and_then(|k| q.options.get(k))
                .map(|o| o.symbolic.as_str());
            *counts.entry(chosen).or_default() += 1;
        }
        let counts: Vec<usize> = counts.into_values().collect();
        let total = members.len();
        // PC with every pick counted: its value for c = total is the factor.
        let factor = partial_circular(total, total, &counts);
        let pc = partial_circular(right, total, &counts);
        for &i in members {
            circular[i] = Some((factor, pc));
        }
    }
    questions
        .iter()
        .zip(&picks)
        .zip(circular)
        .map(|((q, &pick), group)| {
            let correct = pick == Some(q.answer);
            let factor = group.map_or(1.0, |(f, _)| f);
            Reward {
                score: if correct { factor } else { 0.0 },
                picked: pick,
                correct,
                partial_circular: group.map(|(_, pc)| pc),
            }
        })
        .collect()
}

/// The gold completion of `question`: the answer line its prompt asks for.
pub fn gold_answer(question: &Question) -> String {
    format!("Answer: {}", option::print(question.answer).unwrap_or('A'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pick_is_read_after_the_last_answer_marker() {
        assert_eq!(picked("Answer: B"), Some(1));
        assert_eq!(picked("I think A.\nAnswer: **(d)**."), Some(3));
        assert_eq!(picked(" c "), Some(2));
        assert_eq!(picked("Answer: E"), None);
        assert_eq!(picked("The answer is B"), Some(1));
        assert_eq!(picked("Answer: D</s>"), Some(3));
        assert_eq!(picked("Answer: A B C D"), None);
        assert_eq!(picked(""), None);
    }
}

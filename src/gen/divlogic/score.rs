//! Scoring answers: Accuracy, Circular and PartialCircular (with its PC_α
//! variant), as DivLogicEval defines them.
//!
//! For one question asked in its four circular rotations, let `c` be the
//! number of rotations answered correctly and `p(o)` the fraction of
//! rotations in which the model picked option `o` (the option's content, not
//! its letter, so a model that always picks the same claim has `p = 1`). Then
//!
//! PC = (c/4)·(1 + Σ_o p(o)·log₄ p(o)),
//! PC_α = (c/4)·[(1−α) + α(1 + Σ_o p(o)·log₄ p(o))].
//!
//! The entropy term is 1 for a model that sticks to one option and 0 for one
//! that spreads its picks evenly over all four, so a lucky guesser earns little.

use super::{Question, OPTIONS};
use crate::gen::Progress;
use crate::syntax::answer::read;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// PC_α for one question: `correct` of `rotations` answered right, and
/// `picks[o]` the number of rotations in which option `o` was chosen (the
/// counts sum to `rotations`). `alpha = 1` gives PartialCircular itself.
pub(crate) fn pc_alpha(correct: usize, rotations: usize, picks: &[usize], alpha: f64) -> f64 {
    if rotations == 0 {
        return 0.0;
    }
    let total = rotations as f64;
    let neg_entropy: f64 = picks
        .iter()
        .filter(|&&n| n > 0)
        .map(|&n| {
            let p = n as f64 / total;
            p * p.log(OPTIONS as f64)
        })
        .sum();
    (correct as f64 / total) * ((1.0 - alpha) + alpha * (1.0 + neg_entropy))
}

/// PartialCircular for one question (PC_α with α = 1).
pub(crate) fn partial_circular(correct: usize, rotations: usize, picks: &[usize]) -> f64 {
    pc_alpha(correct, rotations, picks, 1.0)
}

/// A model's answer to one question, one JSONL line: `{"id": …, "answer":
/// …}`, where the answer is an option index `0`..`3`, `null` (or absent)
/// for no answer, or the model's text (`"D"`, `"Answer: D"`, …), read by
/// the one answer reader ([`read::option`]; a text naming no single
/// option is no answer).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Answer {
    /// The question's id, with its rotation suffix.
    pub id: String,
    /// The option picked, if any.
    #[serde(default, deserialize_with = "option_index")]
    pub answer: Option<usize>,
}

/// Reads an answer as an index or a text, refusing anything else.
fn option_index<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    use serde::de::Error;
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Null => None,
        serde_json::Value::Number(n) => match n.as_u64() {
            Some(k) if (k as usize) < OPTIONS => Some(k as usize),
            _ => {
                return Err(D::Error::custom(format!(
                    "answer {n} is not an option index 0..{}",
                    OPTIONS - 1
                )))
            }
        },
        // Text is read as a completion: `D`, `Answer: D`, `\boxed{D}`, …; a
        // text naming no single option is no answer.
        serde_json::Value::String(s) => read::option(&s, OPTIONS),
        other => {
            return Err(D::Error::custom(format!(
                "answer {other} is neither an index nor a text"
            )))
        }
    })
}

/// How to score: the α values for PC_α.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreConfig {
    /// Each α in [0, 1] gets its own PC_α.
    pub alphas: Vec<f64>,
}

impl Default for ScoreConfig {
    fn default() -> ScoreConfig {
        ScoreConfig { alphas: vec![0.5] }
    }
}

/// The metrics of one answer set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Question lines (rotations count separately).
    pub questions: usize,
    /// Lines with an answer.
    pub answered: usize,
    /// Answer ids that match no question.
    pub unknown_ids: usize,
    /// ACC as the paper defines it: the fraction of original questions
    /// answered correctly (rotation `-r0`, or every line of a run without
    /// rotations). Accuracy over all rotations is PC_α with α = 0.
    pub accuracy: f64,
    /// The original questions `accuracy` is a share of (0 in reports written
    /// before it was recorded), so a chart can give its interval.
    #[serde(default)]
    pub originals: usize,
    /// Questions present in all four rotations (the basis of the next metrics).
    pub rotation_groups: usize,
    /// Fraction of rotation groups answered correctly in all four rotations;
    /// `None` without rotation groups.
    pub circular: Option<f64>,
    /// Mean PartialCircular over rotation groups.
    pub partial_circular: Option<f64>,
    /// Mean PC_α over rotation groups, per requested α, as `(α, value)`.
    pub pc_alpha: Vec<(f64, Option<f64>)>,
    /// The same metrics over the questions of each type (`3c1e`, `3e1c`,
    /// `missing`), as the paper reports them; `unknown_ids` is 0 there.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_type: BTreeMap<String, Report>,
}

impl Question {
    /// Whether the question can be scored: four options, one of them its
    /// answer; else why not.
    pub fn check_scorable(&self) -> Result<(), String> {
        if self.options.len() != OPTIONS || self.answer >= OPTIONS {
            return Err("a question needs 4 options and an answer below 4".to_string());
        }
        Ok(())
    }
}

/// Whether `id` is an original question: rotation 0, or no rotation.
fn is_original(id: &str) -> bool {
    base_id(id) == id || id.ends_with("-r0")
}

/// The question id without its rotation suffix `-rK`.
pub(crate) fn base_id(id: &str) -> &str {
    match id.rsplit_once("-r") {
        Some((base, k)) if !k.is_empty() && k.chars().all(|c| c.is_ascii_digit()) => base,
        _ => id,
    }
}

/// Scores `answers` against `questions`, calling `progress` once with the
/// number of questions. Where an id is answered twice, the first answer
/// counts. Rotations are linked by their id without its `-rK` suffix; a
/// group counts for Circular and PC when it has exactly four lines with four
/// distinct ids. Options are identified across rotations by their symbolic
/// form; an unanswered line counts as one more (wrong) option.
pub fn score(
    questions: &[Question],
    answers: &[Answer],
    config: &ScoreConfig,
    progress: Progress,
) -> Report {
    let mut report = score_set(questions, answers, config);
    let mut by_type: BTreeMap<String, Vec<Question>> = BTreeMap::new();
    for q in questions {
        let name = serde_json::to_value(q.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        by_type.entry(name).or_default().push(q.clone());
    }
    report.by_type = by_type
        .into_iter()
        .map(|(name, of_type)| {
            let mut part = score_set(&of_type, answers, config);
            part.unknown_ids = 0;
            (name, part)
        })
        .collect();
    progress(questions.len() as u64);
    report
}

/// The metrics of `questions` alone (no per-type split).
fn score_set(questions: &[Question], answers: &[Answer], config: &ScoreConfig) -> Report {
    let alphas = &config.alphas;
    let mut by_id: BTreeMap<&str, Option<usize>> = BTreeMap::new();
    for a in answers {
        by_id.entry(a.id.as_str()).or_insert(a.answer);
    }
    let answers = by_id;
    let answered_of = |q: &Question| answers.get(q.id.as_str()).copied().flatten();
    let answered = questions
        .iter()
        .filter(|q| answered_of(q).is_some())
        .count();
    let originals: Vec<&Question> = questions.iter().filter(|q| is_original(&q.id)).collect();
    let correct = originals
        .iter()
        .filter(|q| answered_of(q) == Some(q.answer))
        .count();
    let known: std::collections::BTreeSet<&str> = questions.iter().map(|q| q.id.as_str()).collect();
    let unknown_ids = answers.keys().filter(|id| !known.contains(*id)).count();

    let mut groups: BTreeMap<&str, Vec<&Question>> = BTreeMap::new();
    for q in questions {
        groups.entry(base_id(&q.id)).or_default().push(q);
    }
    let mut circular = 0usize;
    let mut pc_sums = vec![0.0; alphas.len() + 1];
    let mut complete = 0usize;
    for members in groups.values() {
        let ids: std::collections::BTreeSet<&str> = members.iter().map(|q| q.id.as_str()).collect();
        if members.len() != OPTIONS || ids.len() != OPTIONS {
            continue;
        }
        complete += 1;
        let mut picks: BTreeMap<Option<&str>, usize> = BTreeMap::new();
        let mut right = 0;
        for q in members {
            let pick = answered_of(q);
            if pick == Some(q.answer) {
                right += 1;
            }
            let chosen = pick
                .and_then(|k| q.options.get(k))
                .map(|o| o.symbolic.as_str());
            *picks.entry(chosen).or_default() += 1;
        }
        if right == OPTIONS {
            circular += 1;
        }
        let counts: Vec<usize> = picks.values().copied().collect();
        pc_sums[0] += partial_circular(right, OPTIONS, &counts);
        for (sum, &alpha) in pc_sums[1..].iter_mut().zip(alphas) {
            *sum += pc_alpha(right, OPTIONS, &counts, alpha);
        }
    }
    let mean = |sum: f64| (complete > 0).then(|| sum / complete as f64);
    Report {
        questions: questions.len(),
        answered,
        unknown_ids,
        accuracy: if originals.is_empty() {
            0.0
        } else {
            correct as f64 / originals.len() as f64
        },
        originals: originals.len(),
        rotation_groups: complete,
        circular: mean(circular as f64),
        partial_circular: mean(pc_sums[0]),
        pc_alpha: alphas
            .iter()
            .zip(&pc_sums[1..])
            .map(|(&a, &s)| (a, mean(s)))
            .collect(),
        by_type: BTreeMap::new(),
    }
}

impl Report {
    /// The human-readable report, a metric per line.
    pub fn to_text(&self) -> String {
        let r = self;
        let opt = |v: Option<f64>| {
            v.map_or("n/a (needs --rotations questions)".to_string(), |x| {
                format!("{x:.4}")
            })
        };
        let mut s = format!(
            "questions        {} ({} answered, {} unknown answer ids)\naccuracy         {:.4}\nrotation groups  {}\ncircular         {}\npartial circular {}\n",
            r.questions,
            r.answered,
            r.unknown_ids,
            r.accuracy,
            r.rotation_groups,
            opt(r.circular),
            opt(r.partial_circular)
        );
        for (alpha, v) in &r.pc_alpha {
            s.push_str(&format!("PC_alpha({alpha})    {}\n", opt(*v)));
        }
        for (name, t) in &r.by_type {
            s.push_str(&format!(
                "type {name:<11} {} questions, accuracy {:.4}, partial circular {}\n",
                t.questions,
                t.accuracy,
                opt(t.partial_circular)
            ));
        }
        s
    }
}

//! Scoring model answers to the three LogiConBench tasks.
//!
//! Answers are JSONL records `{"id": …, "answer": …}` plus, for Task 1
//! plain and hard items, the list the model was asked about (`labels`). The
//! `answer` is the model's raw text (or a JSON value, read as its text),
//! read by the one answer reader ([`read`]): reasoning in think blocks and
//! special tokens are dropped, the last answer marker wins, and a
//! non-committal answer is no answer.
//!
//! Gold labels of Tasks 1 and 2 come from the samples, whose labels the
//! generator decided exactly; Task 3 answers are checked against their
//! group samples with the truth-table engine.

use super::{Error, GroupSample, Sample, Truth, Variant};
use crate::gen::Progress;
use crate::syntax::answer::read;
use crate::syntax::prover9::{parse_formula, Formula, ParseOptions};
use crate::truth::{atoms, TruthTable};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One line of an answers file.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Answer {
    /// The sample's id.
    pub id: String,
    /// Task 1 (plain and hard): the label list the model judged.
    #[serde(default)]
    pub labels: Option<Vec<Truth>>,
    /// The model's answer: text, or any JSON value (read as its JSON text;
    /// for Task 3 an array of strings is the statements, group by group).
    pub answer: serde_json::Value,
}

/// `correct` out of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub(crate) struct Ratio {
    /// Items scored correct.
    pub correct: usize,
    /// Items scored.
    pub total: usize,
    /// `correct / total`, 0 when there are none.
    pub rate: f64,
}

impl Ratio {
    fn add(&mut self, correct: bool) {
        self.total += 1;
        self.correct += usize::from(correct);
        self.rate = self.correct as f64 / self.total as f64;
    }
}

/// Task 1 accuracy split by the gold label.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub(crate) struct Accuracy {
    /// On lists that are consistent.
    pub consistent: Ratio,
    /// On lists that are inconsistent.
    pub inconsistent: Ratio,
    /// The mean of the two rates (balanced accuracy); the available one if
    /// only one kind was asked.
    pub overall: f64,
}

impl Accuracy {
    fn add(&mut self, gold_consistent: bool, correct: bool) {
        if gold_consistent {
            self.consistent.add(correct);
        } else {
            self.inconsistent.add(correct);
        }
        self.overall = match (self.consistent.total, self.inconsistent.total) {
            (0, 0) => 0.0,
            (0, _) => self.inconsistent.rate,
            (_, 0) => self.consistent.rate,
            _ => (self.consistent.rate + self.inconsistent.rate) / 2.0,
        };
    }
}

/// Answers that could not be scored at all, by reason.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(crate) struct Rejected {
    /// No sample has the answer's id.
    pub unknown_id: usize,
    /// The record lacks what the task needs, or names a list the sample does not have.
    pub malformed: usize,
}

/// The three LogiConBench tasks answers can be for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Task 1: is a label list consistent (or, for completion samples, which label is hidden)?
    Discriminative,
    /// Task 2: list every consistent label list.
    Enumerative,
    /// Task 3: write one new statement per group that keeps the facts consistent.
    Generative,
}

/// The samples answers are scored against.
#[derive(Debug, Clone, Copy)]
pub enum Samples<'a> {
    /// `gen logicon` statement samples, for Tasks 1 and 2.
    Statements(&'a [Sample]),
    /// `gen logicon --task generative` group samples, for Task 3.
    Groups(&'a [GroupSample]),
}

/// The report of one task; it serialises as that task's report (read its
/// numbers from the JSON, as `entail score logicon --json` prints it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Report(pub(crate) TaskReport);

/// The report of each task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum TaskReport {
    /// Task 1.
    Discriminative(Task1Report),
    /// Task 2.
    Enumerative(Task2Report),
    /// Task 3.
    Generative(Task3Report),
}

/// How to score: which task the answers are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreConfig {
    /// The task.
    pub task: Task,
}

/// Scores `answers` to `config.task` on `samples`, calling `progress` once
/// with the number of answers. A sample may have several answers (Task 1
/// asks about each of its lists). Tasks 1 and 2 need statement samples,
/// Task 3 group samples; the other kind is an error.
pub fn score(
    samples: Samples<'_>,
    answers: &[Answer],
    config: &ScoreConfig,
    progress: Progress,
) -> Result<Report, Error> {
    let report = match (config.task, samples) {
        (Task::Discriminative, Samples::Statements(s)) => {
            TaskReport::Discriminative(score_task1(s, answers))
        }
        (Task::Enumerative, Samples::Statements(s)) => {
            TaskReport::Enumerative(score_task2(s, answers))
        }
        (Task::Generative, Samples::Groups(s)) => TaskReport::Generative(score_task3(s, answers)),
        (Task::Generative, Samples::Statements(_)) => {
            return Err(Error::Config(
                "Task 3 answers are scored against `gen logicon --task generative` samples".into(),
            ))
        }
        (_, Samples::Groups(_)) => {
            return Err(Error::Config(
                "Tasks 1 and 2 are scored against statement samples, not Task 3 groups".into(),
            ))
        }
    };
    progress(answers.len() as u64);
    Ok(Report(report))
}

impl Report {
    /// The human-readable report: one `name value` line per number, nested
    /// names joined by dots.
    pub fn to_text(&self) -> String {
        let value = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        let mut lines = Vec::new();
        flatten("", &value, &mut lines);
        let width = lines.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
        lines
            .iter()
            .map(|(name, value)| format!("{name:<width$}  {value}\n"))
            .collect()
    }
}

/// The leaves of `value` as (dotted name, value) pairs, in order.
fn flatten(prefix: &str, value: &serde_json::Value, out: &mut Vec<(String, String)>) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let name = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(&name, inner, out);
            }
        }
        Value::Number(n) => match n.as_f64() {
            Some(x) if n.is_f64() => out.push((prefix.to_string(), format!("{x:.4}"))),
            _ => out.push((prefix.to_string(), n.to_string())),
        },
        other => out.push((prefix.to_string(), other.to_string())),
    }
}

/// Task 1 (discriminative) scores.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(crate) struct Task1Report {
    /// Judgements of one list, over plain and hard samples. An answer with no
    /// recognisable verdict counts as wrong.
    pub all: Accuracy,
    /// The same, on hard samples only.
    pub hard: Accuracy,
    /// Completion items: the hidden label named correctly.
    pub completion: Ratio,
    /// Judgements of one list (as `all`) by the sample's number of
    /// statements `k`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_k: BTreeMap<usize, Accuracy>,
    /// Answers with no recognisable verdict or label.
    pub unparsed: usize,
    /// Answers not scored.
    pub rejected: Rejected,
}

/// Task 2 (enumerative) scores; means are over answered samples.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(crate) struct Task2Report {
    /// Answers scored.
    pub answers: usize,
    /// The answer parses as a list of T/F lists of length k.
    pub format_accuracy: f64,
    /// The listed set equals the gold set of consistent lists.
    pub exact_accuracy: f64,
    /// Mean precision of the listed set (0 for an empty or unparsable answer).
    pub precision: f64,
    /// Mean recall.
    pub recall: f64,
    /// Mean F1 (0 when precision and recall are both 0).
    pub f1: f64,
    /// Answers not scored.
    pub rejected: Rejected,
}

/// Task 3 (generative) scores, the paper's Table 4 metrics.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(crate) struct Task3Report {
    /// Over all answers scored.
    pub all: GroupsReport,
    /// The same per number of groups `n` (the columns of Table 4).
    pub by_groups: BTreeMap<usize, GroupsReport>,
    /// Answers not scored.
    pub rejected: Rejected,
}

/// Task 3 scores over a set of answers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(crate) struct GroupsReport {
    /// Answers scored.
    pub answers: usize,
    /// Answers in the format asked: exactly `n` statements, the `i`-th a
    /// propositional formula over atoms of group `i` only, none a copy of
    /// one of its group's facts.
    pub executed: usize,
    /// `executed / answers`: the paper's execution rate.
    pub execution_rate: f64,
    /// The mean, over all answers, of the share of cross-group combinations
    /// that stay consistent with the answer's statements added (0 for an
    /// answer not executed): the paper's consistency.
    pub consistency: f64,
    /// The same mean over executed answers only.
    pub consistency_given_execution: f64,
    /// Combinations checked, `10^n` per executed answer.
    pub combinations: u64,
    /// Those consistent with the answer's statements added.
    pub consistent_combinations: u64,
    /// The sum of the shares, for the means.
    #[serde(skip)]
    shares: f64,
}

impl GroupsReport {
    /// Adds one answer: `None` if not executed, else its consistent and
    /// total combinations.
    fn add(&mut self, scored: Option<(u64, u64)>) {
        self.answers += 1;
        if let Some((consistent, total)) = scored {
            self.executed += 1;
            self.combinations = self.combinations.saturating_add(total);
            self.consistent_combinations = self.consistent_combinations.saturating_add(consistent);
            if total > 0 {
                self.shares += consistent as f64 / total as f64;
            }
        }
        self.execution_rate = self.executed as f64 / self.answers as f64;
        self.consistency = self.shares / self.answers as f64;
        if self.executed > 0 {
            self.consistency_given_execution = self.shares / self.executed as f64;
        }
    }
}

/// The consistency verdict of an answer, `Some(true)` for consistent, as
/// the answer reader reads it ([`read::verdict`]).
pub(crate) fn parse_verdict(text: &str) -> Option<bool> {
    read::verdict(text)
}

/// The hidden label an answer names ([`read::label`]).
pub(crate) fn parse_label(text: &str) -> Option<Truth> {
    read::label(text)
}

/// The T/F lists of an answer ([`read::lists`]): `None` if no group of
/// labels is found (a lone `[]` is the empty set) or one has the wrong
/// length.
pub(crate) fn parse_lists(text: &str, k: usize) -> Option<BTreeSet<Vec<Truth>>> {
    read::lists(text, k)
}

pub(crate) fn answer_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn index(samples: &[Sample]) -> BTreeMap<&str, &Sample> {
    samples.iter().map(|s| (s.id.as_str(), s)).collect()
}

/// One Task 1 answer judged against its sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Task1Verdict {
    /// A list judged: whether the list is consistent and whether the
    /// answer said so.
    List {
        gold: bool,
        correct: bool,
        parsed: bool,
    },
    /// A completion item: whether the hidden label was named correctly.
    Completion { correct: bool, parsed: bool },
}

/// Judges a Task 1 answer `text` about `labels` (the list asked; unused by
/// completion samples), or `None` when the record cannot be scored (no
/// list, a list the sample does not have, no minimal pair).
pub(crate) fn task1_verdict(
    sample: &Sample,
    labels: Option<&[Truth]>,
    text: &str,
) -> Option<Task1Verdict> {
    if sample.variant() == Some(Variant::Completion) {
        let (c, i) = (
            sample.consistent_lists.first()?,
            sample.inconsistent_lists.first()?,
        );
        let hidden = (0..sample.k).find(|&j| c.get(j) != i.get(j))?;
        let given = parse_label(text);
        return Some(Task1Verdict::Completion {
            correct: given == c.get(hidden).copied(),
            parsed: given.is_some(),
        });
    }
    let labels = labels?;
    let gold = if sample.consistent_lists.iter().any(|l| l == labels) {
        true
    } else if sample.inconsistent_lists.iter().any(|l| l == labels) {
        false
    } else {
        return None;
    };
    let verdict = parse_verdict(text);
    Some(Task1Verdict::List {
        gold,
        correct: verdict == Some(gold),
        parsed: verdict.is_some(),
    })
}

/// Scores Task 1 answers.
pub(crate) fn score_task1(samples: &[Sample], answers: &[Answer]) -> Task1Report {
    let by_id = index(samples);
    let mut report = Task1Report::default();
    for a in answers {
        let Some(sample) = by_id.get(a.id.as_str()) else {
            report.rejected.unknown_id += 1;
            continue;
        };
        let text = answer_text(&a.answer);
        match task1_verdict(sample, a.labels.as_deref(), &text) {
            None => report.rejected.malformed += 1,
            Some(Task1Verdict::Completion { correct, parsed }) => {
                report.unparsed += usize::from(!parsed);
                report.completion.add(correct);
            }
            Some(Task1Verdict::List {
                gold,
                correct,
                parsed,
            }) => {
                report.unparsed += usize::from(!parsed);
                report.all.add(gold, correct);
                report.by_k.entry(sample.k).or_default().add(gold, correct);
                if sample.variant() == Some(Variant::Hard) {
                    report.hard.add(gold, correct);
                }
            }
        }
    }
    report
}

/// One Task 2 answer against its sample's consistent lists.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Task2Verdict {
    /// The answer parses as a list of T/F lists of length k.
    pub format: bool,
    /// The listed set equals the gold set.
    pub exact: bool,
    pub precision: f64,
    pub recall: f64,
    /// 0 when precision and recall are both 0.
    pub f1: f64,
}

/// Judges a Task 2 answer `text`: unlisted lists count as predicted
/// inconsistent, so an unparsable answer predicts nothing consistent.
pub(crate) fn task2_verdict(sample: &Sample, text: &str) -> Task2Verdict {
    let gold: BTreeSet<Vec<Truth>> = sample.consistent_lists.iter().cloned().collect();
    let parsed = parse_lists(text, sample.k);
    let format = parsed.is_some();
    let predicted = parsed.unwrap_or_default();
    let hits = predicted.intersection(&gold).count() as f64;
    let ratio = |n: usize| if n == 0 { 0.0 } else { hits / n as f64 };
    let (precision, recall) = (ratio(predicted.len()), ratio(gold.len()));
    Task2Verdict {
        format,
        exact: predicted == gold,
        precision,
        recall,
        f1: if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        },
    }
}

/// Scores Task 2 answers: the model lists every consistent label list.
pub(crate) fn score_task2(samples: &[Sample], answers: &[Answer]) -> Task2Report {
    let by_id = index(samples);
    let mut report = Task2Report::default();
    let (mut format, mut exact, mut precision, mut recall, mut f1) =
        (0usize, 0usize, 0.0, 0.0, 0.0);
    for a in answers {
        let Some(sample) = by_id.get(a.id.as_str()) else {
            report.rejected.unknown_id += 1;
            continue;
        };
        report.answers += 1;
        let v = task2_verdict(sample, &answer_text(&a.answer));
        format += usize::from(v.format);
        exact += usize::from(v.exact);
        precision += v.precision;
        recall += v.recall;
        f1 += v.f1;
    }
    if report.answers > 0 {
        let n = report.answers as f64;
        report.format_accuracy = format as f64 / n;
        report.exact_accuracy = exact as f64 / n;
        report.precision = precision / n;
        report.recall = recall / n;
        report.f1 = f1 / n;
    }
    report
}

/// Strips list numbering and inline code marks around a statement line.
/// A leading `-` is kept: in Prover9 syntax it is negation, not a bullet.
fn clean_statement(line: &str) -> &str {
    let mut s = line.trim().trim_matches('`').trim();
    if let Some(rest) = s.strip_prefix("* ") {
        s = rest.trim();
    }
    let digits = s.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 {
        if let Some(rest) = s[digits..].strip_prefix(['.', ')']) {
            s = rest.trim();
        }
    }
    s.trim_matches('`').trim()
}

/// A `Group N: statement` line (case-insensitive, bold marks allowed) as
/// `(N, statement)`.
fn group_label(line: &str) -> Option<(usize, &str)> {
    let s = line.trim().trim_start_matches('*');
    let rest = s.get(..5)?.eq_ignore_ascii_case("group").then(|| &s[5..])?;
    let rest = rest.trim_start();
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    let number = rest[..digits].parse().ok()?;
    let rest = rest[digits..].trim_start().strip_prefix(':')?;
    Some((number, rest.trim_start_matches('*')))
}

/// The answer's statements, group by group: `None` unless there are
/// exactly `n`. In text (its [`read::region`]: reasoning and special
/// tokens dropped, after the last answer marker), `Group N:` lines when
/// there are any (each `N` of `1..=n`, the last line of a group counting;
/// other lines are prose), else every non-empty line; a JSON array gives
/// them in order.
fn group_statements(value: &serde_json::Value, n: usize) -> Option<Vec<String>> {
    let lines: Vec<String> = match value {
        serde_json::Value::Array(items) => items.iter().map(answer_text).collect(),
        other => {
            let text = answer_text(other);
            let labelled = |r: &str| r.lines().any(|l| group_label(l).is_some());
            let region = if labelled(&read::visible(&text)) {
                read::region(&text, labelled)
            } else {
                read::region(&text, |r| !r.trim().is_empty())
            };
            region
                .lines()
                .filter(|l| !l.trim_start().starts_with("```"))
                .map(str::to_string)
                .collect()
        }
    };
    let labelled: Vec<(usize, &str)> = lines.iter().filter_map(|l| group_label(l)).collect();
    let statements: Vec<String> =
        if labelled.is_empty() || matches!(value, serde_json::Value::Array(_)) {
            lines
                .iter()
                .map(|l| group_label(l).map_or(l.as_str(), |(_, s)| s))
                .map(|l| clean_statement(l).to_string())
                .filter(|l| !l.is_empty())
                .collect()
        } else {
            let mut slots: Vec<Option<String>> = vec![None; n];
            for (number, statement) in labelled {
                // A group answered again is a correction: the last one counts.
                let slot = slots.get_mut(number.checked_sub(1)?)?;
                *slot = Some(clean_statement(statement).to_string());
            }
            slots.into_iter().collect::<Option<Vec<_>>>()?
        };
    (statements.len() == n).then_some(statements)
}

/// A group of a sample, ready to check statements against: its atoms'
/// table, the row that is ℓ on them, its facts, and how many of those are
/// true under ℓ.
struct CheckedGroup {
    table: TruthTable,
    row: usize,
    facts: Vec<Formula>,
    true_facts: u64,
}

impl CheckedGroup {
    /// `None` if a fact does not parse or leaves the group's atoms, or ℓ
    /// misses an atom.
    fn new(sample: &GroupSample, group: &super::Group) -> Option<CheckedGroup> {
        let options = ParseOptions::default();
        let table = TruthTable::with_atoms(group.atoms.clone()).ok()?;
        let mut row = 0;
        for (i, atom) in group.atoms.iter().enumerate() {
            if *sample.assignment.get(atom)? == Truth::T {
                row |= 1 << i;
            }
        }
        let facts: Vec<Formula> = group
            .facts
            .iter()
            .map(|f| parse_formula(&f.symbolic, &options).ok())
            .collect::<Option<_>>()?;
        let mut true_facts = 0;
        for f in &facts {
            true_facts += u64::from(table.models(f).ok()?.contains(row));
        }
        Some(CheckedGroup {
            table,
            row,
            facts,
            true_facts,
        })
    }

    /// Whether `statement` is in the format asked (a formula over some of
    /// the group's atoms and no copy of a fact), and then whether it is
    /// true under ℓ.
    fn check(&self, statement: &str) -> Option<bool> {
        let f = parse_formula(statement, &ParseOptions::default()).ok()?;
        if atoms(&f).ok()?.is_empty() || self.facts.contains(&f) {
            return None;
        }
        // The group's table refuses atoms of other groups.
        Some(self.table.models(&f).ok()?.contains(self.row))
    }
}

/// Scores Task 3 answers by the paper's rule: every cross-group
/// combination of facts, one fact per group, with the answer's `n`
/// statements added, is consistent iff every formula in it is true under
/// the sample's assignment ℓ. The count factorises: with every statement
/// true, the consistent combinations are the products of each group's
/// facts true under ℓ (all ten, in generated samples); with one false,
/// none.
pub(crate) fn score_task3(samples: &[GroupSample], answers: &[Answer]) -> Task3Report {
    let by_id: BTreeMap<&str, &GroupSample> = samples.iter().map(|s| (s.id.as_str(), s)).collect();
    let mut report = Task3Report::default();
    for a in answers {
        let Some(sample) = by_id.get(a.id.as_str()) else {
            report.rejected.unknown_id += 1;
            continue;
        };
        let Some(scored) = task3_verdict(sample, &a.answer) else {
            report.rejected.malformed += 1;
            continue;
        };
        report.all.add(scored);
        report.by_groups.entry(sample.n).or_default().add(scored);
    }
    report
}

/// Judges a Task 3 answer: `None` when the sample itself cannot be checked
/// (malformed), else `None` inside for an answer not executed, or its
/// consistent and total combinations.
pub(crate) fn task3_verdict(
    sample: &GroupSample,
    answer: &serde_json::Value,
) -> Option<Option<(u64, u64)>> {
    let groups: Option<Vec<CheckedGroup>> = sample
        .groups
        .iter()
        .map(|g| CheckedGroup::new(sample, g))
        .collect();
    let groups = groups.filter(|g| g.len() == sample.n && !g.is_empty())?;
    let checked: Option<Vec<bool>> = group_statements(answer, sample.n).and_then(|s| {
        s.iter()
            .zip(&groups)
            .map(|(statement, group)| group.check(statement))
            .collect()
    });
    Some(checked.map(|truths| {
        let total = groups
            .iter()
            .fold(1u64, |acc, g| acc.saturating_mul(g.facts.len() as u64));
        let consistent = if truths.iter().all(|&t| t) {
            groups
                .iter()
                .fold(1u64, |acc, g| acc.saturating_mul(g.true_facts))
        } else {
            0
        };
        (consistent, total)
    }))
}

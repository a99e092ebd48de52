//! `entail score slr`: scores model answers to SLR tasks with the judge and
//! aggregates per level and tier, plus the syntax score and LRL.

use super::curriculum::{tier, TIERS};
use crate::gen::Progress;
use crate::judge::{EvaluationConfig, Judge, JudgeConfig, TaskRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The fields of a task line that scoring needs (SLR-Bench names).
#[derive(Debug, Clone, Deserialize)]
pub struct ScoredTask {
    /// Matches the answer's `id`.
    pub id: serde_json::Value,
    /// Background and labelled examples.
    #[serde(rename = "validation program")]
    pub validation_program: String,
    /// Label names (default eastbound/westbound).
    #[serde(default)]
    pub evaluation_config: Option<EvaluationConfig>,
    /// 1..=20.
    #[serde(rename = "curriculum level")]
    pub curriculum_level: u32,
    /// Labelled trains kept out of the prompt (`gen slr --holdout K`).
    #[serde(rename = "holdout program", default)]
    pub holdout_program: Option<String>,
}

/// One answer line: `{"id": ..., "prediction": "..."}` (`answer` and
/// `response` are accepted for `prediction`).
#[derive(Debug, Clone, Deserialize)]
pub struct Answer {
    /// The task's id.
    pub id: serde_json::Value,
    /// The model's raw output.
    #[serde(alias = "answer", alias = "response")]
    pub prediction: String,
}

/// Scores of one level or tier.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Group {
    /// Tasks.
    pub total: u64,
    /// Tasks whose answer is fully correct.
    pub solved: u64,
    /// Tasks whose answer is syntactically valid (parses and passes the sandbox checks before loading).
    pub syntax_valid: u64,
    /// solved / total.
    pub accuracy: f64,
}

impl Group {
    fn add(&mut self, solved: bool, syntax_valid: bool) {
        self.total += 1;
        self.solved += solved as u64;
        self.syntax_valid += syntax_valid as u64;
        self.accuracy = self.solved as f64 / self.total as f64;
    }
}

/// The whole report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Per curriculum level (read them from the JSON: `levels["1"].solved`).
    pub(crate) levels: BTreeMap<u32, Group>,
    /// Per tier (basic, easy, medium, hard), tiers with tasks only.
    pub(crate) tiers: BTreeMap<String, Group>,
    /// All tasks.
    pub(crate) overall: Group,
    /// Fraction of tasks with a syntactically valid answer.
    pub syntax_score: f64,
    /// Level-reward sum: Σ over levels of solved/total.
    pub lrl: f64,
    /// Tasks with no answer (scored as wrong and invalid).
    pub missing_answers: u64,
    /// Tasks with a `holdout program` (the rest of the holdout fields
    /// are absent when there are none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub holdout_tasks: u64,
    /// Of those, answers fully correct on the held-out trains too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holdout_solved: Option<u64>,
    /// Mean partial score of the answers on the held-out trains (0 for a
    /// missing or failing answer): a rule that memorises the prompt's
    /// trains scores 1.0 on the validation program and less here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holdout_score: Option<f64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// An answer's verdict on one task.
#[derive(Debug, Clone, Copy)]
struct Verdict {
    solved: bool,
    syntax_valid: bool,
    missing: bool,
    /// Partial score and correctness on the held-out trains, if any.
    holdout: Option<(f64, bool)>,
}

impl Answer {
    /// The task id as a key: a string as it is, anything else as JSON.
    pub fn id_key(&self) -> String {
        id_key(&self.id)
    }
}

/// How to score: the judge that runs the answers, whose `workers` are also
/// the scoring threads.
#[derive(Debug, Clone, Default)]
pub struct ScoreConfig {
    /// The judge's configuration.
    pub judge: JudgeConfig,
}

/// A canonical key for an id: strings as they are, anything else as JSON.
pub(crate) fn id_key(id: &serde_json::Value) -> String {
    match id {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Scores `answers` on `tasks` with a judge made from `config`, calling
/// `progress(1)` per task scored. Where a task is answered twice, the first
/// answer counts.
pub fn score(
    tasks: &[ScoredTask],
    answers: &[Answer],
    config: &ScoreConfig,
    progress: Progress,
) -> Report {
    let judge = Judge::new(config.judge.clone());
    let threads = config.judge.workers.max(1);
    let mut by_id: BTreeMap<String, &str> = BTreeMap::new();
    for answer in answers {
        by_id.entry(answer.id_key()).or_insert(&answer.prediction);
    }
    let answers = by_id;
    let next = AtomicUsize::new(0);
    let missing = Verdict {
        solved: false,
        syntax_valid: false,
        missing: true,
        holdout: None,
    };
    let verdicts: Mutex<Vec<Verdict>> = Mutex::new(vec![missing; tasks.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(task) = tasks.get(i) else { break };
                let holdout = task
                    .holdout_program
                    .as_ref()
                    .filter(|p| !p.trim().is_empty());
                let verdict = match answers.get(&id_key(&task.id)) {
                    None => Verdict {
                        holdout: holdout.map(|_| (0.0, false)),
                        ..missing
                    },
                    Some(answer) => {
                        // The judge scores the held-out trains too.
                        let record = TaskRecord {
                            id: Some(task.id.clone()),
                            validation_program: task.validation_program.clone(),
                            evaluation_config: task.evaluation_config.clone(),
                            ground_truth_rule: None,
                            holdout_program: holdout.cloned(),
                        };
                        let result = judge.task(&record).ok().map(|t| t.score(answer));
                        Verdict {
                            solved: result.as_ref().is_some_and(|r| r.is_correct),
                            syntax_valid: result.as_ref().is_some_and(|r| r.syntax_valid),
                            missing: false,
                            holdout: holdout.map(|_| {
                                let held = result
                                    .as_ref()
                                    .and_then(|r| Some((r.holdout_score?, r.holdout_correct?)));
                                held.unwrap_or((0.0, false))
                            }),
                        }
                    }
                };
                if let Ok(mut v) = verdicts.lock() {
                    v[i] = verdict;
                }
                progress(1);
            });
        }
    });
    let verdicts = verdicts.into_inner().unwrap_or_default();
    let mut report = Report::default();
    let (mut held_sum, mut held_solved) = (0.0, 0u64);
    for (task, verdict) in tasks.iter().zip(&verdicts) {
        let (solved, syntax_valid) = (verdict.solved, verdict.syntax_valid);
        report
            .levels
            .entry(task.curriculum_level)
            .or_default()
            .add(solved, syntax_valid);
        report
            .tiers
            .entry(tier(task.curriculum_level).to_string())
            .or_default()
            .add(solved, syntax_valid);
        report.overall.add(solved, syntax_valid);
        report.missing_answers += verdict.missing as u64;
        if let Some((partial, correct)) = verdict.holdout {
            report.holdout_tasks += 1;
            held_sum += partial;
            held_solved += correct as u64;
        }
    }
    if report.holdout_tasks > 0 {
        report.holdout_solved = Some(held_solved);
        report.holdout_score = Some(held_sum / report.holdout_tasks as f64);
    }
    if report.overall.total > 0 {
        report.syntax_score = report.overall.syntax_valid as f64 / report.overall.total as f64;
    }
    report.lrl = report.levels.values().map(|g| g.accuracy).sum();
    report
}

impl Report {
    /// A plain-text table: levels, tiers in curriculum order, totals.
    pub fn to_text(&self) -> String {
        let mut out = String::from("level  tasks  solved  accuracy\n");
        for (level, g) in &self.levels {
            out.push_str(&format!(
                "{level:>5}  {:>5}  {:>6}  {:>8.3}\n",
                g.total, g.solved, g.accuracy
            ));
        }
        out.push_str("\ntier    tasks  solved  accuracy\n");
        for name in TIERS {
            if let Some(g) = self.tiers.get(name) {
                out.push_str(&format!(
                    "{name:<6}  {:>5}  {:>6}  {:>8.3}\n",
                    g.total, g.solved, g.accuracy
                ));
            }
        }
        out.push_str(&format!(
            "\noverall accuracy {:.3} ({}/{})\nsyntax score     {:.3}\nLRL              {:.3} (over {} levels)\n",
            self.overall.accuracy,
            self.overall.solved,
            self.overall.total,
            self.syntax_score,
            self.lrl,
            self.levels.len()
        ));
        if self.missing_answers > 0 {
            out.push_str(&format!("missing answers  {}\n", self.missing_answers));
        }
        if let (Some(score), Some(solved)) = (self.holdout_score, self.holdout_solved) {
            out.push_str(&format!(
                "holdout score    {score:.3} (solved {solved}/{} on held-out trains)\n",
                self.holdout_tasks
            ));
        }
        out
    }
}

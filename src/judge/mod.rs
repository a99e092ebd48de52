//! `entail judge`: scores Prolog hypotheses for SLR-style inductive tasks.
//!
//! A task (validation program: background facts and labelled examples) is
//! loaded once with [`Judge::task`]; each answer is scored with
//! [`Task::score`]. Scoring follows the SLR reference judge: the positive
//! label predicate (default `eastbound`) is what the answer defines; an
//! example is correct when a positive succeeds or a negative fails;
//! `partial_score` = correct / examples; `is_correct` = all correct. The label
//! facts are not loaded, and task constants get opaque names drawn from
//! [`JudgeConfig::seed`] (`train0` → e.g. `qhzkwa`, see [`Naming`]) with the
//! trains' fact blocks in random order, so an answer can neither name
//! specific trains nor read a label from a name or from fact order.
//!
//! ```no_run
//! use entail::judge::{Judge, JudgeConfig, TaskRecord};
//! let judge = Judge::new(JudgeConfig::default());
//! let record: TaskRecord = serde_json::from_str(r#"{"validation program":
//!     "eastbound(train0).\nhas_car(train0, car0_1).\nwestbound(train1).\nhas_car(train1, car1_1).\nshort(car0_1).\n"}"#).unwrap();
//! let task = judge.task(&record).unwrap();
//! let result = task.score("eastbound(T) :- has_car(T, C), short(C).");
//! assert!(result.is_correct);
//! ```
//!
//! # The scryer worker
//!
//! Answers the native engine is not sure of run on scryer-prolog in worker
//! processes. The worker is the `entail-worker` program built with the
//! crate; [`JudgeConfig::default`] looks for it next to the running program
//! (or one directory up, for test binaries) and then on `PATH`. A program
//! that ships it elsewhere, or serves as the worker itself by calling
//! [`crate::prolog::serve_worker`] (as the Python package does with
//! `python -m entail._worker`), names the command explicitly:
//!
//! ```no_run
//! use entail::judge::{ErrorKind, Judge, JudgeConfig, TaskRecord};
//! use entail::prolog::WorkerCommand;
//!
//! let mut config = JudgeConfig::default();
//! config.worker.command = Some(WorkerCommand::new("/opt/entail/bin/entail-worker"));
//! // or: WorkerCommand::new("python3").arg("-m").arg("entail._worker")
//! config.workers = 2;
//! let judge = Judge::new(config);
//! let record = TaskRecord {
//!     validation_program: "eastbound(train0).\nhas_car(train0, car0_1).\n\
//!                          westbound(train1).\nhas_car(train1, car1_1).\nshort(car0_1).\n"
//!         .into(),
//!     ..TaskRecord::default()
//! };
//! let task = judge.task(&record).unwrap();
//! let result = task.score("eastbound(T) :- has_car(T, C), short(C).");
//! assert!(result.is_correct);
//! assert_ne!(result.error_kind, Some(ErrorKind::EngineUnavailable));
//! ```
//!
//! If no worker is found, an answer that needs scryer gets
//! [`ErrorKind::EngineUnavailable`]; the judge never runs any other
//! program. Where scryer would answer differently from SWI-Prolog it is not
//! asked, and the answer gets [`ErrorKind::EngineUnsupported`].

mod batch;
mod extract;
pub mod message;
mod pool;
mod rename;
mod sandbox;
mod task;

pub use batch::{run_batch, BatchSummary};
pub use extract::{extract_rule, reference_rules, Extracted, ReferenceRules};
pub use pool::WorkerPool;
pub use rename::{is_task_constant, Naming};
pub use sandbox::{consult, sanitize, Consulted, Rejection, Unread, MAX_READ_TOKENS};
pub use task::{Example, Label, TaskProgram};

use crate::prolog::native::{NativeEvaluator, NativeStats};
use crate::prolog::{Background, Outcome, WorkerConfig, WorkerFailure};
use crate::syntax::prolog::{Sentence, Term};
use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;

/// Runs goals against a background plus a sanitized hypothesis, both as
/// terms (only an evaluator in another process prints them). The seam where
/// another evaluator (e.g. SWI-Prolog workers) can be plugged in.
pub trait Evaluator: Send + Sync {
    /// Loads the `hypothesis` clauses over `background` and runs `goals`,
    /// each under `inference_limit` inferences, stopping at the first error
    /// or timeout.
    fn evaluate(
        &self,
        background: &Background,
        hypothesis: &[Term],
        goals: &[Term],
        inference_limit: u64,
    ) -> Result<Outcome, WorkerFailure>;
}

/// The native evaluator decides in-process (verdicts, errors and budget
/// overruns alike). What it does not implement goes to the evaluator it
/// wraps when it has one (tests and fuzz targets), and is otherwise
/// [`ErrorKind::EngineUnsupported`] (see [`crate::prolog::native`]).
impl Evaluator for NativeEvaluator<dyn Evaluator> {
    fn evaluate(
        &self,
        background: &Background,
        hypothesis: &[Term],
        goals: &[Term],
        inference_limit: u64,
    ) -> Result<Outcome, WorkerFailure> {
        match self.evaluate_native(background, hypothesis, goals, inference_limit) {
            Ok(outcome) => Ok(outcome),
            Err(reason) => match self.fallback() {
                Some(fallback) => fallback.evaluate(background, hypothesis, goals, inference_limit),
                None => Err(WorkerFailure::NotNative(reason.to_string())),
            },
        }
    }
}

/// Which engine runs the hypotheses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// The native evaluator alone (the default): it never hands an answer
    /// to scryer.
    #[default]
    Auto,
    /// Scryer workers only.
    Scryer,
}

/// Whether to score only on renamed constants (the default, as the
/// reference does) or on the task's own names as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Isomorphic {
    /// Score with task constants renamed.
    #[default]
    Renamed,
    /// Also score with the original names and report both.
    Both,
}

/// Which of an answer's rules the judge loads (`--rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rules {
    /// Every `P(args) :- body.` the reference's pattern finds in the
    /// answer, loaded together, and nothing else: the SLR reference metric
    /// to the letter (it always loads all of them). Restated facts,
    /// directives, helper predicates and prose are never loaded.
    #[default]
    All,
    /// The last rule the pattern finds, alone: the reference with its
    /// multiple-rules switch off, for answers whose drafts should not count.
    Last,
    /// The last rule and the Prolog text around it (its code span, fence,
    /// `[RULE]` block or the whole answer) when that text reads as a
    /// program, with its helper predicates and other clauses; else the
    /// last rule alone. An extension the reference does not have: a rule
    /// that calls its own helper scores there 0 (the helper is never
    /// loaded), and a directive or restated fact in the text makes the
    /// answer `unsafe`.
    Program,
}

/// How the judge runs.
#[derive(Debug, Clone)]
pub struct JudgeConfig {
    /// How worker processes are started and limited.
    pub worker: WorkerConfig,
    /// How many worker processes may run at once.
    pub workers: usize,
    /// Inferences each example goal may use before it counts as a timeout.
    pub inference_limit: u64,
    /// Whether to score the original names too.
    pub isomorphic: Isomorphic,
    /// Seeds the renamings of task constants: the same seed gives the same
    /// names for the same task, on any number of threads.
    pub seed: u64,
    /// Independent renamings each answer is scored under; the result is
    /// the lowest-scoring one (at least 1).
    pub renamings: usize,
    /// Which engine runs the hypotheses.
    pub engine: Engine,
    /// Which of an answer's rules are loaded.
    pub rules: Rules,
}

impl Default for JudgeConfig {
    /// One worker, found by [`crate::prolog::WorkerCommand::discover`], 5 M inferences per
    /// example (far above any sensible SLR rule, well under the reference's 5 s).
    fn default() -> JudgeConfig {
        JudgeConfig {
            worker: WorkerConfig::default(),
            workers: 1,
            inference_limit: 5_000_000,
            isomorphic: Isomorphic::Renamed,
            seed: 0,
            renamings: 1,
            engine: Engine::Auto,
            rules: Rules::All,
        }
    }
}

/// A task as SLR-Bench publishes it (extra fields are ignored).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct TaskRecord {
    /// The task's identifier, copied to results.
    #[serde(default)]
    pub id: Option<serde_json::Value>,
    /// Background and labelled examples as Prolog text.
    #[serde(rename = "validation program", alias = "validation_program")]
    pub validation_program: String,
    /// Label predicate names.
    #[serde(default)]
    pub evaluation_config: Option<EvaluationConfig>,
    /// The rule the task was generated from (not used for scoring).
    #[serde(
        rename = "ground-truth rule",
        alias = "ground_truth_rule",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub ground_truth_rule: Option<String>,
    /// Labelled trains the prompt does not show, as a program like the
    /// validation program (`gen slr --holdout K`): answers are also scored
    /// on them, apart ([`JudgeResult::holdout_score`]).
    #[serde(
        rename = "holdout program",
        alias = "holdout_program",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub holdout_program: Option<String>,
}

/// The label predicate names of a task.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct EvaluationConfig {
    /// Defaults to `eastbound`.
    #[serde(default)]
    pub positive_predicate: Option<String>,
    /// Defaults to `westbound`.
    #[serde(default)]
    pub negative_predicate: Option<String>,
}

/// Why a task could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// The record or its validation program is malformed.
    #[error("bad task: {0}")]
    Task(String),
}

/// What went wrong with an answer, if anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No clause for the target predicate.
    NoRule,
    /// The answer is not valid Prolog.
    Syntax,
    /// The answer uses something the sandbox forbids.
    Unsafe,
    /// The inference limit or the wall-clock cap was reached.
    Timeout,
    /// The engine ran out of memory or stack, or crashed.
    Resource,
    /// The answer raised an error while running.
    Runtime,
    /// The input line itself was malformed (batch mode only).
    Input,
    /// The answer needed the scryer fallback and no worker program was
    /// found (see [`WorkerConfig::command`]).
    EngineUnavailable,
    /// The answer uses something the engine does not do as SWI-Prolog
    /// does, so it was not scored: with `--engine scryer`, e.g.
    /// double-quoted strings or floats under standard order; with the
    /// native engine, a corner it does not implement.
    EngineUnsupported,
    /// entail itself failed on this answer (a bug, caught so the batch goes on).
    Internal,
}

/// The verdict on one example.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExampleResult {
    /// The label fact as the task wrote it.
    pub atom: String,
    /// The label.
    pub label: Label,
    /// Whether the answer's rule holds for it.
    pub predicted: bool,
    /// Whether that agrees with the label.
    pub correct: bool,
}

/// The scores of one answer.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JudgeResult {
    /// The task's id, if it had one.
    pub id: Option<serde_json::Value>,
    /// The answer parsed and passed the checks that precede loading.
    pub syntax_valid: bool,
    /// Every example correct.
    pub is_correct: bool,
    /// Correct examples / all examples (0 on any error).
    pub partial_score: f64,
    /// With a task's holdout program: the answer's partial score on the
    /// held-out trains, which a rule that memorises the shown trains fits
    /// less well than the validation program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holdout_score: Option<f64>,
    /// With a task's holdout program: every held-out train correct.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holdout_correct: Option<bool>,
    /// Per-example verdicts, in task order (only those evaluated before an error).
    pub examples: Vec<ExampleResult>,
    /// What went wrong, if anything.
    pub error_kind: Option<ErrorKind>,
    /// A one-line explanation of the error.
    pub error: Option<String>,
    /// Wall-clock milliseconds spent scoring.
    pub time_ms: f64,
    /// With `--isomorphic both`: the scores on the task's original names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_names: Option<Box<JudgeResult>>,
    /// With `--isomorphic both`: whether the answer is correct on the
    /// original names but not on renamed ones, i.e. it reads names or fact
    /// order rather than the trains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shortcut: Option<bool>,
}

impl JudgeResult {
    /// A result for an answer that never reached the engine.
    pub fn failed(
        id: Option<serde_json::Value>,
        syntax_valid: bool,
        kind: ErrorKind,
        error: String,
    ) -> JudgeResult {
        JudgeResult {
            id,
            syntax_valid,
            is_correct: false,
            partial_score: 0.0,
            holdout_score: None,
            holdout_correct: None,
            examples: Vec::new(),
            error_kind: Some(kind),
            error: Some(error),
            time_ms: 0.0,
            original_names: None,
            shortcut: None,
        }
    }
}

/// The judge: a configuration and a pool of engine workers.
pub struct Judge {
    config: JudgeConfig,
    evaluator: Arc<dyn Evaluator>,
    /// The native evaluator when the engine is [`Engine::Auto`], for its counters.
    native: Option<Arc<NativeEvaluator<dyn Evaluator>>>,
}

impl Judge {
    /// A judge with the configured engine: the native evaluator alone, or
    /// scryer worker processes alone.
    pub fn new(config: JudgeConfig) -> Judge {
        match config.engine {
            Engine::Auto => {
                let native = Arc::new(NativeEvaluator::native_only());
                Judge {
                    config,
                    evaluator: native.clone(),
                    native: Some(native),
                }
            }
            Engine::Scryer => Judge {
                evaluator: Arc::new(WorkerPool::new(
                    config.worker.clone(),
                    config.workers.max(1),
                )),
                config,
                native: None,
            },
        }
    }

    /// A judge that runs hypotheses with another evaluator.
    pub fn with_evaluator(config: JudgeConfig, evaluator: Arc<dyn Evaluator>) -> Judge {
        Judge {
            config,
            evaluator,
            native: None,
        }
    }

    /// How many evaluations the native evaluator answered and how many it
    /// did not decide, scored `engine_unsupported` (`None` unless the engine
    /// is [`Engine::Auto`]).
    pub fn native_stats(&self) -> Option<NativeStats> {
        self.native.as_ref().map(|n| n.stats())
    }

    /// The configuration.
    pub fn config(&self) -> &JudgeConfig {
        &self.config
    }

    /// Parses and prepares a task, and its holdout program if it has one.
    /// The background is loaded into a worker on first use and kept there
    /// while answers to this task follow.
    pub fn task(&self, record: &TaskRecord) -> Result<Task<'_>, JudgeError> {
        let config = record.evaluation_config.clone().unwrap_or_default();
        let positive = config
            .positive_predicate
            .unwrap_or_else(|| "eastbound".into());
        let negative = config
            .negative_predicate
            .unwrap_or_else(|| "westbound".into());
        let program = TaskProgram::parse(&record.validation_program, &positive, &negative)?;
        let holdout = match record.holdout_program.as_deref() {
            Some(held) if !held.trim().is_empty() => {
                let program = TaskProgram::parse(held, &positive, &negative).map_err(
                    |JudgeError::Task(m)| {
                        JudgeError::Task(m.replacen("validation program", "holdout program", 1))
                    },
                )?;
                Some(Box::new(self.task_from_program(program)))
            }
            _ => None,
        };
        let mut task = self.task_from_program(program);
        task.id = record.id.clone();
        task.holdout = holdout;
        Ok(task)
    }

    /// A task from a program already split into background and examples
    /// ([`TaskProgram::from_readings`]).
    pub fn task_from_program(&self, program: TaskProgram) -> Task<'_> {
        let renamings = (0..self.config.renamings.max(1) as u64)
            .map(|k| Naming::renamed(&program, self.config.seed, k))
            .collect();
        Task {
            judge: self,
            id: None,
            program: Arc::new(program),
            renamings,
            holdout: None,
        }
    }

    /// A task scored on its own names only, not renamed: for a generator
    /// labelling its trains with its own rule, which reads no names, so
    /// renaming (a sixth of the cost of labelling, measured) would change
    /// no label. Answers from elsewhere go through [`Judge::task`].
    pub fn task_on_own_names(&self, program: TaskProgram) -> Task<'_> {
        Task {
            judge: self,
            id: None,
            renamings: vec![Naming::original(&program)],
            program: Arc::new(program),
            holdout: None,
        }
    }
}

/// An answer refused before it runs, as the error kind, whether it counts
/// as syntactically valid, and the message.
fn rejected(rejection: Rejection) -> (ErrorKind, bool, String) {
    match rejection {
        Rejection::NoRule(m) => (ErrorKind::NoRule, false, m),
        Rejection::Syntax(m) => (ErrorKind::Syntax, false, m),
        Rejection::Unsafe(m) => (ErrorKind::Unsafe, true, m),
        Rejection::Resource(m) => (ErrorKind::Resource, true, m),
    }
}

/// A loaded task, ready to score answers.
pub struct Task<'j> {
    judge: &'j Judge,
    id: Option<serde_json::Value>,
    program: Arc<TaskProgram>,
    /// The [`JudgeConfig::renamings`] namings answers are scored under.
    renamings: Vec<Naming>,
    /// The task of the record's holdout program, if it has one.
    holdout: Option<Box<Task<'j>>>,
}

impl Task<'_> {
    /// The parsed task.
    pub fn program(&self) -> &TaskProgram {
        &self.program
    }

    /// The renamed namings answers are scored under.
    pub fn renamings(&self) -> &[Naming] {
        &self.renamings
    }

    /// Scores one answer (raw model output). Never fails: problems with the
    /// answer are reported in the result. With several renamings the
    /// lowest-scoring one is reported (the first of equals). With a holdout
    /// program, the answer is scored on it too, alike.
    pub fn score(&self, answer: &str) -> JudgeResult {
        let start = Instant::now();
        let mut result: Option<JudgeResult> = None;
        let hypothesis = self.hypothesis(answer);
        for naming in &self.renamings {
            let next = self.score_on(&hypothesis, naming);
            if result
                .as_ref()
                .map_or(true, |r| next.partial_score < r.partial_score)
            {
                result = Some(next);
            }
            // Nothing is lower than 0: the other renamings cannot change it.
            if result.as_ref().is_some_and(|r| r.partial_score == 0.0) {
                break;
            }
        }
        let mut result = result.unwrap_or_else(|| {
            JudgeResult::failed(self.id.clone(), false, ErrorKind::Input, "no naming".into())
        });
        if self.judge.config.isomorphic == Isomorphic::Both {
            let mut original = self.score_on(&hypothesis, &Naming::original(&self.program));
            original.time_ms = 0.0;
            result.shortcut = Some(original.is_correct && !result.is_correct);
            result.original_names = Some(Box::new(original));
        }
        if let Some(holdout) = &self.holdout {
            let held = holdout.score(answer);
            result.holdout_score = Some(held.partial_score);
            result.holdout_correct = Some(held.is_correct);
        }
        result.time_ms = start.elapsed().as_secs_f64() * 1000.0;
        result
    }

    /// Checks what was read of an answer: its clauses, or the error kind,
    /// whether it counts as syntactically valid, and the message.
    fn check(&self, read: Consulted) -> Result<Vec<Term>, (ErrorKind, bool, String)> {
        sanitize(read.program, &read.unread, &self.program).map_err(rejected)
    }

    /// The answer's hypothesis, checked: the clauses to load, or the
    /// result of an answer that never reaches the engine (see [`Rules`]).
    fn hypothesis(&self, answer: &str) -> Result<Vec<Term>, JudgeResult> {
        match self.judge.config.rules {
            Rules::All | Rules::Last => self.reference_hypothesis(answer),
            Rules::Program => self.program_hypothesis(answer),
        }
    }

    /// The rules the reference loads ([`reference_rules`]: all of them, or
    /// the last one with [`Rules::Last`]), one per line, read as SWI
    /// consults a file (a malformed clause skipped, the rest kept) and
    /// checked. Where none reads, the answer has a syntax error.
    fn reference_hypothesis(&self, answer: &str) -> Result<Vec<Term>, JudgeResult> {
        let failed = |(kind, syntax_valid, message)| {
            JudgeResult::failed(self.id.clone(), syntax_valid, kind, message)
        };
        let positive = self.program.positive.as_str();
        let found = reference_rules(answer, positive);
        if found.is_empty() {
            let message =
                format!("no rule for {positive}: the answer has no clause {positive}(…) :- … .");
            return Err(failed((ErrorKind::NoRule, false, message)));
        }
        let text = match self.judge.config.rules {
            Rules::Last => Cow::Borrowed(found.last()),
            _ => Cow::Owned(found.loaded(positive)),
        };
        let read = consult(&text, positive).map_err(|r| failed(rejected(r)))?;
        let any_clause = read
            .program
            .sentences
            .iter()
            .any(|s| matches!(s, Sentence::Clause { .. }));
        match read.errors.first() {
            Some(error) if !any_clause => {
                Err(failed((ErrorKind::Syntax, false, error.to_string())))
            }
            _ => self.check(read).map_err(failed),
        }
    }

    /// The text around the reference's last clause, read as SWI consults
    /// a file (a malformed clause skipped, the rest kept) and checked when
    /// it holds that clause; else the clause alone is, as the reference
    /// loads it ([`Rules::Program`], see `extract`).
    fn program_hypothesis(&self, answer: &str) -> Result<Vec<Term>, JudgeResult> {
        let failed = |(kind, syntax_valid, message)| {
            JudgeResult::failed(self.id.clone(), syntax_valid, kind, message)
        };
        let positive = self.program.positive.as_str();
        let Some(found) = extract_rule(answer, positive) else {
            let message =
                format!("no rule for {positive}: the answer has no clause {positive}(…) :- … .");
            return Err(failed((ErrorKind::NoRule, false, message)));
        };
        let rejected = |rejection| failed(rejected(rejection));
        let clause = consult(&found.clause, positive).map_err(rejected)?;
        let rule = match clause.program.sentences.first() {
            Some(Sentence::Clause { term, .. }) if clause.errors.is_empty() => Some(term),
            _ => None,
        };
        let around = consult(found.program, positive).map_err(rejected)?;
        // A clause that does not read alone (cut at a `.` inside a quoted
        // atom, say) is no clause of any text: the reference loads it
        // alone and gets a syntax error.
        let holds_clause = rule.is_some_and(|rule| {
            around.program.sentences.iter().any(|s| match s {
                Sentence::Clause { term, .. } => term == rule,
                Sentence::Directive { .. } => false,
            })
        });
        if holds_clause {
            return self.check(around).map_err(failed);
        }
        match clause.errors.first() {
            None => self.check(clause).map_err(failed),
            Some(error) => {
                let message = around.errors.first().unwrap_or(error).to_string();
                Err(failed((ErrorKind::Syntax, false, message)))
            }
        }
    }

    fn score_on(
        &self,
        hypothesis: &Result<Vec<Term>, JudgeResult>,
        naming: &Naming,
    ) -> JudgeResult {
        let id = self.id.clone();
        let hypothesis = match hypothesis {
            Ok(clauses) => clauses,
            Err(failed) => return failed.clone(),
        };
        let outcome = self.judge.evaluator.evaluate(
            &naming.background,
            hypothesis,
            &naming.goals,
            self.judge.config.inference_limit,
        );
        let verdicts = |predicted: &[bool]| -> Vec<ExampleResult> {
            self.program
                .examples
                .iter()
                .zip(predicted)
                .map(|(e, &p)| ExampleResult {
                    atom: e.atom.clone(),
                    label: e.label,
                    predicted: p,
                    correct: p == (e.label == Label::Pos),
                })
                .collect()
        };
        let mut result = JudgeResult::failed(id, true, ErrorKind::Runtime, String::new());
        match outcome {
            Ok(Outcome::Verdicts(predicted)) => {
                result.examples = verdicts(&predicted);
                let correct = result.examples.iter().filter(|e| e.correct).count();
                let total = self.program.examples.len();
                result.partial_score = correct as f64 / total as f64;
                result.is_correct = correct == total;
                result.error_kind = None;
                result.error = None;
            }
            Ok(Outcome::Timeout(predicted)) => {
                result.examples = verdicts(&predicted);
                result.error_kind = Some(ErrorKind::Timeout);
                result.error = Some(message::out_of_budget());
            }
            Ok(Outcome::Error(predicted, message)) => {
                result.examples = verdicts(&predicted);
                let kind = if message::is_resource_error(&message) {
                    ErrorKind::Resource
                } else {
                    ErrorKind::Runtime
                };
                result.error_kind = Some(kind);
                result.error = Some(message::runtime_error(&message));
            }
            Err(WorkerFailure::Timeout) => {
                result.error_kind = Some(ErrorKind::Timeout);
                result.error = Some("wall-clock limit exceeded".into());
            }
            Err(failure @ WorkerFailure::Unavailable(_)) => {
                result.error_kind = Some(ErrorKind::EngineUnavailable);
                result.error = Some(failure.to_string());
            }
            Err(failure @ (WorkerFailure::Unsupported(_) | WorkerFailure::NotNative(_))) => {
                result.error_kind = Some(ErrorKind::EngineUnsupported);
                result.error = Some(failure.to_string());
            }
            Err(failure) => {
                result.error_kind = Some(ErrorKind::Resource);
                result.error = Some(failure.to_string());
            }
        }
        result
    }
}

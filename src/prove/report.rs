//! The typed results of `prove`, serialisable as the `--json` output.
//!
//! Three-valued answers are `Option<bool>` and serialise as `true`, `false`
//! or `null`; `null` means a check timed out or Z3 answered `unknown`, and is
//! never counted as success.

use crate::smt::Countermodel;
use crate::syntax::Pos;
use serde::Serialize;
use std::fmt;

/// The answer to "do these premises entail this goal?".
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Entailment {
    /// Every model of the premises satisfies the goal.
    Proved,
    /// A model of the premises falsifies the goal.
    NotProved {
        /// That model, when one was asked for and Z3 gave it.
        countermodel: Option<Countermodel>,
    },
    /// Timeout or Z3 `unknown`.
    Unknown {
        /// Z3's reason, e.g. `timeout` or `canceled`.
        reason: String,
    },
}

impl Entailment {
    /// `Some(true)` when proved, `Some(false)` when refuted, `None` when unknown.
    pub fn holds(&self) -> Option<bool> {
        match self {
            Entailment::Proved => Some(true),
            Entailment::NotProved { .. } => Some(false),
            Entailment::Unknown { .. } => None,
        }
    }
}

/// An error that stops a check: bad syntax, inconsistent symbols, a
/// malformed step file or instance. Displayed as `FILE:LINE:COL: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ProveError {
    /// The file, attached by whoever knows it.
    pub file: Option<String>,
    /// Where in the file, when the error has a place.
    pub pos: Option<Pos>,
    /// One line, lower case.
    pub message: String,
    /// What kind of input error it is, by the SZS ontology.
    pub status: ErrorStatus,
}

/// The SZS status of an input that could not be read or checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ErrorStatus {
    /// `SyntaxError`: the text is not in the input language.
    SyntaxError,
    /// `InputError`: well-formed but not a problem we can read (a missing
    /// include, two conjectures, a malformed step file or instance).
    InputError,
    /// `TypeError`: a symbol used with two arities or as both a predicate
    /// and a function.
    TypeError,
    /// `Inappropriate`: a language outside first-order logic without
    /// arithmetic (TFF, THF, `$int`, interpreted `$` symbols).
    Inappropriate,
    /// `ResourceOut`: beyond a documented limit of the reader (nesting
    /// depth, variables in a clause).
    ResourceOut,
}

impl ErrorStatus {
    /// The SZS name.
    pub fn szs(self) -> &'static str {
        match self {
            ErrorStatus::SyntaxError => "SyntaxError",
            ErrorStatus::InputError => "InputError",
            ErrorStatus::TypeError => "TypeError",
            ErrorStatus::Inappropriate => "Inappropriate",
            ErrorStatus::ResourceOut => "ResourceOut",
        }
    }

    /// The status of a reader's error, by what its message says.
    fn of_syntax_message(message: &str) -> ErrorStatus {
        if message.contains("nesting deeper than") || message.contains("variables: at most") {
            ErrorStatus::ResourceOut
        } else if message.contains("not supported") || message.contains("is refused") {
            ErrorStatus::Inappropriate
        } else if message.starts_with("cannot read") || message.starts_with("cannot find") {
            ErrorStatus::InputError
        } else {
            ErrorStatus::SyntaxError
        }
    }
}

impl ProveError {
    /// An error at `pos` (if known), an `InputError`.
    pub fn new(pos: Option<Pos>, message: impl Into<String>) -> ProveError {
        ProveError {
            file: None,
            pos,
            message: message.into(),
            status: ErrorStatus::InputError,
        }
    }

    /// A symbol used inconsistently (`TypeError`).
    pub fn type_error(pos: Option<Pos>, message: impl Into<String>) -> ProveError {
        ProveError {
            status: ErrorStatus::TypeError,
            ..ProveError::new(pos, message)
        }
    }

    /// Its SZS status name.
    pub fn szs_status(&self) -> &'static str {
        self.status.szs()
    }

    /// A JSON input that does not parse, at the line and column serde saw.
    pub fn invalid_json(error: &serde_json::Error) -> ProveError {
        let pos = Pos {
            offset: 0,
            line: error.line() as u32,
            col: error.column() as u32,
        };
        ProveError::new(Some(pos), format!("invalid JSON: {error}"))
    }

    /// The same error, attributed to `file` (kept if one is already set).
    pub fn in_file(mut self, file: impl Into<String>) -> ProveError {
        if self.file.is_none() {
            self.file = Some(file.into());
        }
        self
    }
}

impl fmt::Display for ProveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.as_deref().unwrap_or("<input>");
        match self.pos {
            Some(p) => write!(f, "{}:{}:{}: {}", file, p.line, p.col, self.message),
            None => write!(f, "{}: {}", file, self.message),
        }
    }
}

impl From<crate::syntax::SyntaxError> for ProveError {
    fn from(e: crate::syntax::SyntaxError) -> ProveError {
        ProveError {
            file: e.file,
            pos: Some(e.pos),
            status: ErrorStatus::of_syntax_message(&e.message),
            message: e.message,
        }
    }
}

/// The verdict on a plain Prover9 problem.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProblemReport {
    /// `proved`, `not_proved` (with a countermodel) or `unknown`.
    #[serde(flatten)]
    pub result: Entailment,
    /// How many assumptions (all of `assumptions`, `sos`, `usable`, `demodulators`).
    pub assumptions: usize,
    /// How many goals; 0 means the question was "are the assumptions unsatisfiable?".
    pub goals: usize,
    /// The per-check timeout used, in seconds.
    pub timeout_seconds: f64,
    /// Which engine decided: `z3`, `eprover`, `prover9`, `cvc5`, `model-search`
    /// or `truth-table`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// What of the file was ignored or not used (hints, weights,
    /// `set(production)`, an engine that could not run), once each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// How a `not_proved` without a countermodel was shown: `saturation`
    /// (E saturated the clause set of a translation that read back, so no
    /// proof exists, though no finite model was found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// With proof output on ([`crate::prove::Prover::set_proof_out`]), for
    /// `proved`: the premises the proof used (TPTP formula names, Prover9
    /// labels, else `assumption N` counting from 1 in file order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub used_premises: Option<Vec<String>>,
    /// With proof output on, for `proved`: whether the used premises alone
    /// proved the goal again (`proved`, or `unknown` out of time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub premises_recheck: Option<String>,
    /// With proof output on, for `proved` by E or Prover9: its proof text
    /// (E's TSTP derivation, in the renamed symbols of E's input, or
    /// Prover9's proof).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
}

impl ProblemReport {
    /// The SZS status of the verdict (the SZS ontology's names): with a
    /// goal `Theorem` or `CounterSatisfiable`, without one `Unsatisfiable`
    /// or `Satisfiable`; `Timeout` when the deadline ended the search, else
    /// `GaveUp`. (`Error` is for inputs that did not load: see
    /// [`SZS_ERROR`].)
    pub fn szs_status(&self) -> &'static str {
        match (&self.result, self.goals > 0) {
            (Entailment::Proved, true) => "Theorem",
            (Entailment::Proved, false) => "Unsatisfiable",
            (Entailment::NotProved { .. }, true) => "CounterSatisfiable",
            (Entailment::NotProved { .. }, false) => "Satisfiable",
            (Entailment::Unknown { reason }, _)
                if reason.contains("timeout") || reason.contains("deadline") =>
            {
                "Timeout"
            }
            (Entailment::Unknown { .. }, _) => "GaveUp",
        }
    }
}

/// A [`ProblemReport`] as `--json` prints it: the report's fields, then its
/// SZS status, so that every caller (CLI, Python) prints the same object.
#[derive(Serialize)]
pub struct ProblemJson<'a> {
    #[serde(flatten)]
    report: &'a ProblemReport,
    szs_status: &'static str,
}

impl ProblemReport {
    /// The report with its SZS status last, ready to serialise.
    pub fn json(&self) -> ProblemJson<'_> {
        ProblemJson {
            report: self,
            szs_status: self.szs_status(),
        }
    }
}

/// The SZS status of an error with no more precise class (the CLI's own
/// failures, e.g. an unreadable file, use [`ErrorStatus`] when they can).
pub const SZS_ERROR: &str = "Error";

/// A step's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    /// The cited premises and steps entail the conclusion.
    Valid,
    /// They do not, or the step cites something it may not.
    Invalid,
    /// Timeout or Z3 `unknown`.
    Unknown,
}

/// Why a step is wrong (or, for `rule_mismatch`, suspicious).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The cited premises do not entail the conclusion, but all premises and
    /// earlier steps together do: a premise is missing from the citation.
    InsufficientPremise,
    /// Nothing available entails the conclusion.
    InvalidDeduction,
    /// The step cites an unknown label, itself or a later step.
    BadReference,
    /// Warning level: the step is entailed, but the declared rule's form does
    /// not fit the cited premises and conclusion.
    RuleMismatch,
}

/// The check of one step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepReport {
    /// The step's label (`S1`, …).
    pub label: String,
    /// `valid`, `invalid` or `unknown`.
    pub status: StepStatus,
    /// Why it is invalid; `rule_mismatch` also on valid steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ErrorKind>,
    /// The declared rule, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Whether the declared rule's form fits; `None` without a known rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_matches: Option<bool>,
    /// A model of the cited premises where the conclusion is false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub countermodel: Option<Countermodel>,
    /// Details: the bad reference, or Z3's reason for `unknown`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The check of one solution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolutionReport {
    /// The solution's id (`1`, … for `solution_1`, …).
    pub id: String,
    /// One report per step, in order.
    pub steps: Vec<StepReport>,
    /// Whether every step is valid (`None` if none is invalid but some unknown).
    pub steps_valid: Option<bool>,
    /// Whether the last conclusion entails the goal.
    pub reaches_goal: Option<bool>,
    /// Whether the goal follows from the support.
    pub globally_valid: Option<bool>,
    /// The leaf premises the solution cites, in premise order.
    pub support: Vec<String>,
    /// Whether no proper subset of the support entails the goal (`None` when
    /// unknown or when the support does not entail the goal at all).
    pub minimal: Option<bool>,
}

/// All minimal subsets of the premises that entail the goal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SupportsReport {
    /// Each support as premise ids in premise order; the list is sorted.
    pub supports: Vec<Vec<String>>,
    /// Whether the enumeration finished (false at the cap, the timeout or an
    /// `unknown` check; then `supports` is a correct but partial list).
    pub complete: bool,
    /// Why it stopped early.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// `projection` (propositional: atoms eliminated by resolution, every
    /// support re-checked with Z3) or `marco` (Z3 subset enumeration).
    pub method: String,
}

/// Whether the premises are consistent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Consistency {
    /// `true` if satisfiable, `false` if not, `null` if unknown.
    pub consistent: Option<bool>,
    /// When inconsistent: a minimal set of premise ids that conflict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflict: Option<Vec<String>>,
}

/// A warning about the input that does not change any verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lint {
    /// `variable_like_constant` or `unused_premise`.
    pub kind: String,
    /// The premise, goal or step concerned.
    pub subject: String,
    /// One readable line.
    pub message: String,
}

/// The full check of a step file or LogicGraph instance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// Consistency of the premise pool.
    pub consistency: Consistency,
    /// One report per solution.
    pub solutions: Vec<SolutionReport>,
    /// All minimal supports, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supports: Option<SupportsReport>,
    /// Warnings.
    pub lints: Vec<Lint>,
}

impl CheckReport {
    /// `Some(true)` if every step is valid, every solution reaches the goal and
    /// is globally valid, and the premises are consistent; `Some(false)` if
    /// any of these is refuted; `None` if none is refuted but some is unknown.
    pub fn all_good(&self) -> Option<bool> {
        let mut answers = vec![self.consistency.consistent];
        for s in &self.solutions {
            answers.extend([s.steps_valid, s.reaches_goal, s.globally_valid]);
        }
        if answers.contains(&Some(false)) {
            Some(false)
        } else if answers.contains(&None) {
            None
        } else {
            Some(true)
        }
    }
}

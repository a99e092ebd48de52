//! LogicGraph-style multi-path proof problems with the exhaustive set of
//! their minimal proofs (issue #6).
//!
//! A goal `G` follows from a premise pool by several distinct derivation
//! paths built backward from `G` with seven argument forms (see [`build`]).
//! Every instance is checked with the engine ([`Prover::check_problem`] with
//! supports) before it is emitted: every step valid, every solution globally
//! valid and minimal, the pool consistent, and the minimal supports exactly
//! the solutions' premise sets. A draw failing any check is discarded and
//! counted in [`Stats`]; the item's random stream then draws again, so the
//! output stays deterministic.
//!
//! The files follow the published layout (`output` writes them, [`Instances::load`]
//! reads them back into a step problem), so `entail prove DIR --supports`
//! and other LogicGraph tools read them as is. [`score`] grades model
//! solutions against such instances.
//!
//! Modules by concept: `form` (the argument forms), `config` (tiers and
//! settings), `build` (the backward construction of a skeleton), `prop` and
//! `lexicon` (formulas and their words), `draft` (an instance named, worded
//! and verified), `format` (the published files' one schema), `output` and
//! `instance` (those files written and read), `run` (a whole run on worker
//! threads), `tree` (a tree of instances checked in one process) and `score`.

mod build;
mod config;
mod draft;
mod form;
mod format;
mod instance;
mod lexicon;
mod looks;
mod output;
mod prop;
mod reward;
mod run;
mod score;
mod tree;

pub use config::{Config, Error, Tier, FEWEST_HIDDEN_DISTRACTORS};
pub use form::Form;
pub use instance::{InstanceDir, Instances};
pub use reward::{gold_answer, rewards, Reward};
pub use run::{generate, Stats};
pub(crate) use score::Gold;
pub use score::{score, AnswerSet, Report, ScoreConfig};
pub(crate) use score::{AnswerSetReport, Average, SolutionScore};
pub use tree::TreeOptions;

//! SLR-style inductive logic programming tasks with a 20-level curriculum.
//!
//! A task is a hidden rule, a validation program (labelled trains with their
//! background facts) and a prompt. The rule is drawn first (uniform or from a
//! pattern template); trains are then drawn (uniform or mirror) and labelled
//! by the judge: a batch of candidates goes into one validation program, all
//! labelled positive, and each example's `predicted` is its label under the
//! rule. Candidates fill the positive and negative quotas (stratified
//! rejection sampling); a rule that cannot fill them within a bound is
//! replaced, and the statistics say how often. The examples are then put in
//! a uniformly random order before trains are numbered and written, so
//! neither a train's number nor the position of its facts says anything
//! about its label. Every finished task is scored once more by the judge,
//! and kept only if the rule scores 1.0.
//!
//! Cost: loading candidate trains into the judge's engine dominates, so
//! they reach it as facts, never printed and read back, and keep their own
//! names (our rules read no names; the final check scores under renaming);
//! each item draws one candidate pool, loads it once and labels every rule
//! it tries on that pool first, and the judge keeps a loaded background
//! between scorings.

mod config;
mod curriculum;
mod identity;
mod language;
mod level;
mod prompt;
mod rule;
mod run;
mod score;
mod task;
#[cfg(test)]
mod tests;
mod train;

pub use config::{Config, Error, Split};
pub(crate) use curriculum::{tier, TIERS};
pub use curriculum::{BackgroundSampling, Level, Pmf, Theta};
pub use language::Language;
pub use prompt::PromptStyle;
pub use run::{generate, work, Stats};
pub(crate) use score::id_key;
pub use score::{score, Answer, Report, ScoreConfig, ScoredTask};
pub use task::SlrTask;

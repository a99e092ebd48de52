//! What decides a run: the split, the configuration, and why a run stops.

use super::curriculum::Theta;
use super::language::Language;
use super::prompt::PromptStyle;
use crate::gen::Shard;
use crate::judge::JudgeConfig;

/// Which split a run belongs to. Splits draw from their own random streams,
/// and are disjoint as the paper's are, up to renaming: test comes first,
/// validation takes no rule and no problem of test's, and train none of
/// either's, at any level; within a split no problem repeats (a rule is the same up to variable renaming and
/// literal order, a problem is its labelled trains up to order and
/// renaming). A train or validation run therefore first computes (without
/// writing) the held-out splits' tasks of its seed at every level,
/// [`Config::test_tasks`] and [`Config::validation_tasks`] per level, as
/// their own runs compute them. Test and validation draw rules from fixed
/// shares of the rule space (see `Split::may_draw`), so train keeps some
/// rules even on small levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Split {
    /// Training tasks.
    #[default]
    Train,
    /// Validation tasks.
    Validation,
    /// Test tasks.
    Test,
}

impl Split {
    /// The split named `name` (as Python passes it).
    pub fn from_name(name: &str) -> Option<Split> {
        match name {
            "train" => Some(Split::Train),
            "validation" => Some(Split::Validation),
            "test" => Some(Split::Test),
            _ => None,
        }
    }

    /// Its name, used in ids.
    pub fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Validation => "validation",
            Split::Test => "test",
        }
    }

    /// Whether this split may draw the rule of canonical form `key` (see
    /// `identity::rule_key`). The held-out splits draw from fixed shares of
    /// the rule space, by a hash of the key (test 3/8, validation 1/8), so
    /// that they cannot take every rule of a small level; train may draw
    /// any rule they did not use.
    pub(super) fn may_draw(self, key: &str) -> bool {
        let share = crate::gen::stable_hash(key.as_bytes()) % 8;
        match self {
            Split::Test => share < 3,
            Split::Validation => share == 3,
            Split::Train => true,
        }
    }

    pub(super) fn code(self) -> u64 {
        match self {
            Split::Train => 0,
            Split::Validation => 1,
            Split::Test => 2,
        }
    }
}

/// Everything that decides a run's output.
#[derive(Debug, Clone)]
pub struct Config {
    /// Run seed.
    pub seed: u64,
    /// Curriculum levels to generate, each 1..=20.
    pub levels: Vec<u32>,
    /// The user's task configuration, over each level's preset (empty:
    /// the presets).
    pub theta: Theta,
    /// Tasks per level.
    pub count: u64,
    /// The split (its own random streams).
    pub split: Split,
    /// Prompt style.
    pub prompt: PromptStyle,
    /// The language.
    pub language: Language,
    /// Which part of the run: a block of the requested `(level, slot)`
    /// positions (see [`Shard`]).
    pub shard: Shard,
    /// Worker threads; the output does not depend on it.
    pub threads: usize,
    /// The judge that labels trains and re-scores every task.
    pub judge: JudgeConfig,
    /// Test tasks per level: the test split's size, which train and
    /// validation runs of the same seed hold out (the paper's 50).
    pub test_tasks: u64,
    /// Validation tasks per level, which train runs hold out (the paper's 10).
    pub validation_tasks: u64,
    /// Labelled trains per task kept out of the prompt (`holdout program`).
    pub holdout: usize,
}

impl Config {
    /// How many tasks per level `split` holds, where it is held out.
    pub(super) fn held_out_tasks(&self, split: Split) -> Option<u64> {
        match split {
            Split::Train => None,
            Split::Validation => Some(self.validation_tasks),
            Split::Test => Some(self.test_tasks),
        }
    }

    /// Refuses a level whose Θ cannot work, and a held-out split asked for
    /// another number of tasks than the other splits hold out: each level
    /// of a split depends on all tasks of its earlier levels, so only a run
    /// of exactly that size is the one train and validation runs exclude.
    pub(super) fn validate(&self) -> Result<(), Error> {
        if self.holdout > 1000 {
            return Err(Error::Config(format!(
                "--holdout {}: at most 1000 held-out trains per task",
                self.holdout
            )));
        }
        for &n in &self.levels {
            let level = self.theta.level(n).ok_or(Error::Level(n))?;
            super::level::check(&level, &self.language)?;
        }
        match self.held_out_tasks(self.split) {
            Some(size) if self.count != size => {
                let (count, split) = (self.count, self.split.name());
                Err(Error::Config(format!(
                    "{count} tasks per level asked of the {split} split, whose size (CLI: \
                     --{split}-tasks) is {size}: train and validation runs of this seed hold out \
                     {size} per level, computed as a {split} run of that size computes them, so a \
                     {split} run must ask for exactly its size; give --count and --{split}-tasks \
                     the same number, and that --{split}-tasks to every run of this seed"
                )))
            }
            _ => Ok(()),
        }
    }
}

impl Default for Config {
    /// Ten tasks per level of all twenty levels, seed 0, train split, Prolog
    /// prompts over the trains language, on one thread.
    fn default() -> Config {
        Config {
            seed: 0,
            levels: (1..=20).collect(),
            theta: Theta::default(),
            count: 10,
            split: Split::Train,
            prompt: PromptStyle::default(),
            language: Language::trains(),
            shard: Shard::WHOLE,
            threads: 1,
            judge: JudgeConfig::default(),
            test_tasks: 50,
            validation_tasks: 10,
            holdout: 0,
        }
    }
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A setting that cannot work.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// A level outside 1..=20.
    #[error("level {0} is not in 1..=20")]
    Level(u32),
    /// The language cannot express a level.
    #[error("language: {0}")]
    Language(String),
    /// Writing the output failed.
    #[error("output: {0}")]
    Io(#[from] std::io::Error),
    /// The judge refused a task we built (a generator defect).
    #[error("judge: {0}")]
    Judge(String),
}

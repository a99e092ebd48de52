//! What decides a run: the split, the configuration, and why a run stops.

use super::language::Language;
use super::prompt::PromptStyle;
use crate::gen::Shard;
use crate::judge::JudgeConfig;

/// Which split a run belongs to; splits draw from disjoint random streams.
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
}

impl Default for Config {
    /// Ten tasks per level of all twenty levels, seed 0, train split, Prolog
    /// prompts over the trains language, on one thread.
    fn default() -> Config {
        Config {
            seed: 0,
            levels: (1..=20).collect(),
            count: 10,
            split: Split::Train,
            prompt: PromptStyle::default(),
            language: Language::trains(),
            shard: Shard::WHOLE,
            threads: 1,
            judge: JudgeConfig::default(),
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

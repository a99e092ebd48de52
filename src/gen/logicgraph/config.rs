//! What a LogicGraph run generates: the difficulty tiers, the settings and
//! the errors.

use super::form::Form;
use crate::gen::Shard;
use std::path::PathBuf;

/// The published difficulty tiers, by number of proof paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// 2–4 paths.
    Small,
    /// 5–7 paths.
    Medium,
    /// 8 or more paths (8–19 here, as published, most of them near 8).
    Large,
}

impl Tier {
    /// The path-count range of the tier.
    pub fn paths(self) -> (usize, usize) {
        match self {
            Tier::Small => (2, 4),
            Tier::Medium => (5, 7),
            Tier::Large => (8, 19),
        }
    }

    /// How path counts are drawn within the range, as [`Config::paths_ratio`]:
    /// uniform for Small and Medium, and for Large falling by 0.72 per extra
    /// path, which gives the published tier's mean of about 10.3 paths.
    pub fn paths_ratio(self) -> u32 {
        match self {
            Tier::Small | Tier::Medium => 100,
            Tier::Large => 72,
        }
    }

    /// The weights of 1, 2, … families (see [`Config::families`]): Small
    /// 1–4 (mean about 1.7) and Large 2–8 (mean about 4.2), the paper's
    /// tiers' shapes, and Medium between them (1–6, mean about 3).
    pub fn families(self) -> Vec<u32> {
        match self {
            Tier::Small => vec![40, 42, 14, 4],
            Tier::Medium => vec![10, 25, 30, 20, 10, 5],
            Tier::Large => vec![0, 13, 23, 26, 18, 10, 6, 4],
        }
    }

    /// The tier named `small`, `medium` or `large`.
    pub fn parse(name: &str) -> Option<Tier> {
        match name.to_ascii_lowercase().as_str() {
            "small" => Some(Tier::Small),
            "medium" => Some(Tier::Medium),
            "large" => Some(Tier::Large),
            _ => None,
        }
    }
}

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Number of proof paths per instance, inclusive range.
    pub paths: (usize, usize),
    /// The weight of drawing `n` paths is `(paths_ratio/100)^(n - min)`:
    /// 100 draws uniformly, less favours the low end (see [`Tier::paths_ratio`]).
    pub paths_ratio: u32,
    /// Steps per path, inclusive range (every path's length, core or branch,
    /// is drawn within it with the published shape: 2–14 steps, most often
    /// 5 or 6).
    pub depth: (usize, usize),
    /// The weight of drawing `k` families is `families[k - 1]` (0 past its
    /// end), among the `k` no larger than the paths (see [`Tier::families`]).
    pub families: Vec<u32>,
    /// The argument forms the construction may use.
    pub forms: Vec<Form>,
    /// Premises added that take part in no proof.
    pub distractors: usize,
    /// Draws using more atoms (`G` included) are discarded.
    pub max_atoms: usize,
    /// Draws per item before giving up.
    pub max_attempts: usize,
    /// The run's seed; item `i` draws from `item_rng(seed, i)`.
    pub seed: u64,
    /// How many instances.
    pub count: u64,
    /// Which part of the run: a block of the item indices (see [`Shard`]).
    pub shard: Shard,
    /// Whether each instance also gets `prompt.txt`.
    pub prompt: bool,
    /// Worker threads, each with its own prover; the output does not depend on it.
    pub threads: usize,
    /// The WordNet directory the words come from; `None`: `$ENTAIL_WORDNET`,
    /// else `/usr/share/wordnet`.
    pub wordnet: Option<PathBuf>,
}

/// The fewest distractors per instance that a reader of how premises link
/// names no more than about 5 points above chance (see
/// [`Config::distractor_note`]).
pub const FEWEST_HIDDEN_DISTRACTORS: usize = 8;

impl Config {
    /// The defaults for a tier: all forms, depth 2–14, the tier's families,
    /// no distractors, one instance with seed 0 on one thread.
    pub fn for_tier(tier: Tier) -> Config {
        Config {
            paths: tier.paths(),
            paths_ratio: tier.paths_ratio(),
            depth: (2, 14),
            families: tier.families(),
            forms: Form::ALL.to_vec(),
            distractors: 0,
            max_atoms: 120,
            max_attempts: 50,
            seed: 0,
            count: 1,
            shard: Shard::WHOLE,
            prompt: false,
            threads: 1,
            wordnet: None,
        }
    }

    /// A warning for a run whose distractors are too few to hide, `None`
    /// otherwise: a reader of how premises link (`scripts/cue-audit`'s
    /// `links-lr`) names 1 of them every time, 2 about 20 points above
    /// chance and 3 to 7 about 4 to 7, against 3 to 5 with 8 (docs/logicgraph.md,
    /// "Distractors"). Told at run time because the data looks fine.
    pub fn distractor_note(&self) -> Option<String> {
        let above = match self.distractors {
            0 => return None,
            1 => "every time",
            2 => "about 20 points above chance",
            n if n < FEWEST_HIDDEN_DISTRACTORS => "about 4 to 7 points above chance",
            _ => return None,
        };
        Some(format!(
            "with fewer than {FEWEST_HIDDEN_DISTRACTORS} distractors an instance's \
             distractors are told apart by how their sentences link, {above}"
        ))
    }

    /// Rejects settings no instance can satisfy.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |m: String| Err(Error::Config(m));
        if self.paths.0 < 1 || self.paths.0 > self.paths.1 {
            return bad(format!(
                "paths {}-{}: need 1 <= MIN <= MAX",
                self.paths.0, self.paths.1
            ));
        }
        if self.paths.1 > 40 {
            return bad("at most 40 paths per instance".into());
        }
        if self.depth.0 < 1 || self.depth.0 > self.depth.1 {
            return bad(format!(
                "depth {}-{}: need 1 <= MIN <= MAX",
                self.depth.0, self.depth.1
            ));
        }
        if self.paths_ratio == 0 || self.paths_ratio > 100 {
            return bad(format!(
                "paths ratio {}: need 1 <= RATIO <= 100 (percent)",
                self.paths_ratio
            ));
        }
        if self.depth.1 > 20 {
            return bad("depth at most 20 steps".into());
        }
        if !self.forms.iter().any(|f| f.concludes_anything()) {
            return bad("the forms must include one of MP, MT, DS, RAA, DE (HS and CD cannot conclude an atom)".into());
        }
        if self.paths.1 > 1 && self.depth.1 < 2 && self.paths.1 > 4 {
            return bad("with depth 1 there are no branches: at most 4 paths".into());
        }
        Ok(())
    }
}

/// Why generation stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The configuration cannot be satisfied.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// No draw for an item passed the checks within `max_attempts`.
    #[error("item {index}: no verified instance in {attempts} draws (last reason: {reason})")]
    Exhausted {
        /// The item.
        index: u64,
        /// Draws made.
        attempts: usize,
        /// The last rejection reason.
        reason: String,
    },
    /// Writing the output failed.
    #[error("{path}: {message}")]
    Io {
        /// The file or directory.
        path: String,
        /// The error.
        message: String,
    },
    /// The lexicon could not be loaded.
    #[error("lexicon: {0}")]
    Lexicon(String),
}

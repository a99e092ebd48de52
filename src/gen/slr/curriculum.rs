//! The task configuration Θ: the 20-level curriculum (SLR paper, Table 2)
//! as presets, and a user's [`Theta`] that overrides any of their fields.

use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;

/// A probability mass function over attribute values: for each attribute
/// named, a weight per value (values not named weigh 0; attributes not
/// named stay uniform). Weights need not sum to 1.
pub type Pmf = BTreeMap<String, BTreeMap<String, f64>>;

/// How backgrounds are drawn (the paper's B_π). In a config file:
/// `"uniform"`, `"mirror"` or `{"pmf": {"car_color": {"red": 3, "blue": 1}}}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum BackgroundSampling {
    /// Each train drawn independently, every active attribute uniform under the grammar.
    Uniform,
    /// Positive and negative trains in pairs that differ only in rule-relevant atoms.
    Mirror,
    /// Each train drawn independently, attribute values by these weights
    /// (under the grammar: a value the grammar forbids is never drawn).
    Pmf(Pmf),
}

impl BackgroundSampling {
    /// The name written to the `background sampling` field.
    pub fn name(&self) -> &'static str {
        match self {
            BackgroundSampling::Uniform => "uniform",
            BackgroundSampling::Mirror => "mirror",
            BackgroundSampling::Pmf(_) => "pmf",
        }
    }
}

/// One curriculum level's parameters: its Θ and language size.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    /// 1..=20.
    pub level: u32,
    /// Cars per train, inclusive range.
    pub cars: (usize, usize),
    /// Active predicates (a prefix of the language's order).
    pub predicates: usize,
    /// κ_pos: positive examples per task.
    pub kappa_pos: usize,
    /// κ_neg: negative examples per task.
    pub kappa_neg: usize,
    /// Rule length (body atoms besides car introductions), inclusive range.
    pub rule_length: (usize, usize),
    /// Background policy.
    pub background: BackgroundSampling,
    /// Percentage of rules drawn from the pattern templates (the rest uniform).
    pub pattern_percent: u32,
}

/// Levels per tier.
pub(crate) const TIERS: [&str; 4] = ["basic", "easy", "medium", "hard"];

const CARS: [(usize, usize); 20] = [
    (1, 1),
    (1, 1),
    (1, 1),
    (2, 2),
    (2, 2),
    (2, 2),
    (2, 2),
    (2, 3),
    (2, 3),
    (2, 3),
    (2, 4),
    (2, 4),
    (4, 6),
    (4, 6),
    (4, 6),
    (5, 6),
    (5, 6),
    (5, 6),
    (5, 6),
    (5, 6),
];
const PREDICATES: [usize; 20] = [
    5, 5, 5, 5, 5, 5, 6, 6, 6, 7, 7, 9, 9, 9, 9, 10, 10, 12, 12, 12,
];
const KAPPA: [usize; 20] = [
    2, 2, 4, 4, 6, 6, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32,
];
const RULE_LENGTH: [(usize, usize); 20] = [
    (1, 1),
    (1, 2),
    (1, 2),
    (1, 2),
    (1, 2),
    (1, 2),
    (1, 2),
    (1, 2),
    (2, 3),
    (2, 3),
    (2, 3),
    (3, 4),
    (3, 4),
    (4, 5),
    (4, 5),
    (4, 5),
    (4, 5),
    (4, 5),
    (5, 5),
    (5, 5),
];

/// The parameters of `level` (1..=20), or `None` outside the curriculum.
pub(crate) fn level(level: u32) -> Option<Level> {
    if !(1..=20).contains(&level) {
        return None;
    }
    let i = level as usize - 1;
    Some(Level {
        level,
        cars: CARS[i],
        predicates: PREDICATES[i],
        kappa_pos: KAPPA[i] / 2,
        kappa_neg: KAPPA[i] / 2,
        rule_length: RULE_LENGTH[i],
        background: if level <= 5 {
            BackgroundSampling::Mirror
        } else {
            BackgroundSampling::Uniform
        },
        pattern_percent: if level <= 5 { 0 } else { 30 },
    })
}

impl Level {
    /// κ: examples per task.
    pub fn problem_size(&self) -> usize {
        self.kappa_pos + self.kappa_neg
    }
}

/// A user's task configuration Θ: every field set replaces that field of
/// each requested level's preset, so a preset is the empty `Theta` and a
/// custom level sets every field. Read from a JSON config file (these
/// field names; ranges as `[min, max]` or one number) or from CLI flags.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theta {
    /// κ_pos: positive examples per task.
    pub kappa_pos: Option<usize>,
    /// κ_neg: negative examples per task.
    pub kappa_neg: Option<usize>,
    /// R_len: attribute literals in the rule's body, inclusive range.
    #[serde(default, deserialize_with = "span")]
    pub rule_length: Option<(usize, usize)>,
    /// Cars per train, inclusive range.
    #[serde(default, deserialize_with = "span")]
    pub cars: Option<(usize, usize)>,
    /// Active predicates (a prefix of the language's order).
    pub predicates: Option<usize>,
    /// B_π.
    pub background: Option<BackgroundSampling>,
    /// R_sample: percentage of rules drawn from the construct templates.
    pub pattern_percent: Option<u32>,
}

/// A range written `[min, max]` or as one number.
fn span<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(usize, usize)>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Span {
        One(usize),
        Two(usize, usize),
    }
    Ok(Some(match Span::deserialize(d)? {
        Span::One(n) => (n, n),
        Span::Two(lo, hi) => (lo, hi),
    }))
}

impl Theta {
    /// Preset `level` with this Θ's fields in place of its own, or `None`
    /// outside 1..=20.
    pub fn level(&self, level: u32) -> Option<Level> {
        let preset = self::level(level)?;
        Some(Level {
            level,
            cars: self.cars.unwrap_or(preset.cars),
            predicates: self.predicates.unwrap_or(preset.predicates),
            kappa_pos: self.kappa_pos.unwrap_or(preset.kappa_pos),
            kappa_neg: self.kappa_neg.unwrap_or(preset.kappa_neg),
            rule_length: self.rule_length.unwrap_or(preset.rule_length),
            background: self.background.clone().unwrap_or(preset.background),
            pattern_percent: self.pattern_percent.unwrap_or(preset.pattern_percent),
        })
    }

    /// This Θ with the fields `other` sets replaced by `other`'s (flags
    /// over a config file).
    pub fn or(self, other: Theta) -> Theta {
        Theta {
            kappa_pos: other.kappa_pos.or(self.kappa_pos),
            kappa_neg: other.kappa_neg.or(self.kappa_neg),
            rule_length: other.rule_length.or(self.rule_length),
            cars: other.cars.or(self.cars),
            predicates: other.predicates.or(self.predicates),
            background: other.background.or(self.background),
            pattern_percent: other.pattern_percent.or(self.pattern_percent),
        }
    }
}

/// The tier name of `level` (basic 1–5, easy 6–10, medium 11–15, hard 16–20).
pub(crate) fn tier(level: u32) -> &'static str {
    TIERS[((level.clamp(1, 20) - 1) / 5) as usize]
}

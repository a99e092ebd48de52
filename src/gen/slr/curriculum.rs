//! The 20-level curriculum (SLR paper, Table 2).

/// How backgrounds are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BackgroundSampling {
    /// Each train drawn independently, every active attribute uniform under the grammar.
    Uniform,
    /// Positive and negative trains in pairs that differ only in rule-relevant atoms.
    Mirror,
}

impl BackgroundSampling {
    /// The name written to the `background sampling` field.
    pub fn name(self) -> &'static str {
        match self {
            BackgroundSampling::Uniform => "uniform",
            BackgroundSampling::Mirror => "mirror",
        }
    }
}

/// One curriculum level's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// 1..=20.
    pub level: u32,
    /// Cars per train, inclusive range.
    pub cars: (usize, usize),
    /// Active predicates (a prefix of the language's order).
    pub predicates: usize,
    /// κ: total examples, half positive and half negative.
    pub problem_size: usize,
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
pub fn level(level: u32) -> Option<Level> {
    if !(1..=20).contains(&level) {
        return None;
    }
    let i = level as usize - 1;
    Some(Level {
        level,
        cars: CARS[i],
        predicates: PREDICATES[i],
        problem_size: KAPPA[i],
        rule_length: RULE_LENGTH[i],
        background: if level <= 5 {
            BackgroundSampling::Mirror
        } else {
            BackgroundSampling::Uniform
        },
        pattern_percent: if level <= 5 { 0 } else { 30 },
    })
}

/// The levels whose tasks could have the same prompt as `level`'s (`level`
/// included): the same active predicates and problem size, and car counts
/// that overlap. (Levels 1 and 2 differ only in rule length, as do 5 and
/// 6 in their background policy.)
pub(crate) fn siblings(level: &Level) -> Vec<u32> {
    (1..=20)
        .filter(|&l| {
            self::level(l).is_some_and(|other| {
                other.predicates == level.predicates
                    && other.problem_size == level.problem_size
                    && other.cars.0 <= level.cars.1
                    && level.cars.0 <= other.cars.1
            })
        })
        .collect()
}

/// The tier name of `level` (basic 1–5, easy 6–10, medium 11–15, hard 16–20).
pub(crate) fn tier(level: u32) -> &'static str {
    TIERS[((level.clamp(1, 20) - 1) / 5) as usize]
}

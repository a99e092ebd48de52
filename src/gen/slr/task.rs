//! One generated task, with the SLR-Bench field names.

use crate::judge::EvaluationConfig;
use serde::{Deserialize, Serialize};

/// One task, with the SLR-Bench field names.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SlrTask {
    /// `slr-<split>-l<level>-<index>`.
    pub id: String,
    /// The instruction prompt.
    pub prompt: String,
    /// The hidden rule.
    #[serde(rename = "ground-truth rule")]
    pub ground_truth_rule: String,
    /// Each example's label fact then its facts; blank line between examples.
    #[serde(rename = "validation program")]
    pub validation_program: String,
    /// 1..=20.
    #[serde(rename = "curriculum level")]
    pub curriculum_level: u32,
    /// basic, easy, medium or hard.
    #[serde(rename = "curriculum tier")]
    pub curriculum_tier: String,
    /// `uniform` or `pattern-guided`.
    #[serde(rename = "rule sampling")]
    pub rule_sampling: String,
    /// Attribute literals in the rule.
    #[serde(rename = "rule complexity")]
    pub rule_complexity: usize,
    /// Our addition: the Appendix E construct the rule was templated from
    /// (`uniform` for uniform rules); empty in records that predate it.
    #[serde(default)]
    pub construct: String,
    /// `mirror` or `uniform`.
    #[serde(rename = "background sampling")]
    pub background_sampling: String,
    /// κ: number of examples.
    #[serde(rename = "problem size")]
    pub problem_size: usize,
    /// `name/arity` of every background predicate.
    #[serde(rename = "vocabulary predicates")]
    pub vocabulary_predicates: Vec<String>,
    /// Every car constant of the task.
    #[serde(rename = "vocabulary car constants")]
    pub vocabulary_car_constants: Vec<String>,
    /// Label predicate names, as the judge reads them.
    pub evaluation_config: EvaluationConfig,
    /// The run seed.
    pub seed: u64,
}

//! One generated task, in the shape of SLR-Bench's published records
//! (Hugging Face `AIML-TUDA/SLR-Bench`: the same field names and types),
//! followed by our own fields.

use crate::judge::EvaluationConfig;
use serde::{Deserialize, Serialize};

/// One task. The published fields come first, in the published order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SlrTask {
    /// The task's row in its run: level position × count + slot, so the
    /// rows of a run are numbered 0, 1, … whatever the shard (published
    /// type: int64).
    pub id: u64,
    /// The instruction prompt.
    pub prompt: String,
    /// The hidden rule (with its helper clauses, for recursive rules).
    #[serde(rename = "ground-truth rule")]
    pub ground_truth_rule: String,
    /// The prompt's examples as a Prolog program: each example's label
    /// fact, then its train's facts; a blank line between examples. What a
    /// rule is scored on.
    #[serde(rename = "validation program")]
    pub validation_program: String,
    /// The task's symbolic knowledge base: the labelled examples and the
    /// background facts the prompt shows, as Prolog (the prompt may render
    /// them in English). For our tasks it is the validation program's text.
    pub symbols: String,
    /// 1..=20.
    #[serde(rename = "curriculum level")]
    pub curriculum_level: u32,
    /// basic, easy, medium or hard.
    #[serde(rename = "curriculum tier")]
    pub curriculum_tier: String,
    /// `uniform` or `pattern-guided`.
    #[serde(rename = "rule sampling")]
    pub rule_sampling: String,
    /// Θ's rule length R_len, as the paper's Table 2 writes it: `1`, `1-2`
    /// (published type: string). The rule's own length is `rule length`.
    #[serde(rename = "rule complexity")]
    pub rule_complexity: String,
    /// `mirror`, `uniform` or `pmf`.
    #[serde(rename = "background sampling")]
    pub background_sampling: String,
    /// κ = κ_pos + κ_neg: the number of examples.
    #[serde(rename = "problem size")]
    pub problem_size: usize,
    /// The number of background predicates (Table 2's #Pred.).
    #[serde(rename = "vocabulary predicates")]
    pub vocabulary_predicates: usize,
    /// Cars per train, as Table 2's #Const. writes it: `1`, `2-3`
    /// (published type: string).
    #[serde(rename = "vocabulary car constants")]
    pub vocabulary_car_constants: String,
    /// Ours: the Appendix E construct the rule was templated from
    /// (`uniform` for uniform rules).
    pub construct: String,
    /// Ours: attribute literals in this rule (within `rule complexity`).
    #[serde(rename = "rule length")]
    pub rule_length: usize,
    /// Ours (`--holdout K`): K more labelled trains, not in the prompt, as a
    /// program like the validation program (trains numbered after the
    /// prompt's). `score slr` scores answers on it apart (`holdout_score`),
    /// which catches rules that memorise the shown trains. Absent when K = 0.
    #[serde(
        rename = "holdout program",
        default,
        skip_serializing_if = "String::is_empty"
    )]
    pub holdout_program: String,
    /// Ours: label predicate names, as the judge reads them.
    pub evaluation_config: EvaluationConfig,
    /// Ours: the run seed.
    pub seed: u64,
}

/// `lo-hi`, or `lo` when they are equal (Table 2's notation).
pub(crate) fn span((lo, hi): (usize, usize)) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    }
}

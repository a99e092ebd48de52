//! Per-answer rewards for training on LogicGraph: the paper's metrics over
//! one completion's solutions, mapped to [0, 1].
//!
//! A completion answers in the prompt's format (`Solution n:` / `Path n:`
//! blocks of `Step k: [Fact x, Rule y] => conclusion` lines; a step file
//! or `solutions.json`-shaped JSON are read too) and is checked as
//! `entail score logicgraph` checks an answer. Its reward is the mean of
//! three of the paper's metrics: success (some solution valid), precision
//! (valid / given solutions) and diversity (share of the gold supports
//! found). Each is in [0, 1], so the reward is 1 exactly when every given
//! solution is valid and together they find every gold support; listing
//! one path many times or adding invalid ones lowers it.

use super::format::CompleteFile;
use super::instance::instance_of;
use super::score::{parse_answer_text, read_answer, score_instance, Gold, ScoreConfig};
use crate::prove::{ProveOptions, Prover};
use crate::syntax::answer::steps::{Cite, PathAnswer, StepLine};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The reward of one completion and what it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reward {
    /// (success + precision + diversity) / 3.
    pub score: f64,
    /// 1 if some solution is valid.
    pub success: f64,
    /// Valid / given solutions (0 without any).
    pub precision: f64,
    /// Share of the gold supports the valid solutions found.
    pub diversity: f64,
    /// Solutions given (readable or not).
    pub answered: usize,
    /// Solutions valid.
    pub valid: usize,
    /// Why the answer could not be read, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// An item (`gen logicgraph`'s files as one JSON object, as the Python
/// package gives them: at least `complete` and `solutions`) read and its
/// gold solutions checked.
fn gold(prover: &mut Prover, record: &Value, instantiated: bool) -> Result<Gold, String> {
    let field = |name: &str| {
        record
            .get(name)
            .ok_or_else(|| format!("the item has no `{name}` (its {name}.json)"))
    };
    let complete: CompleteFile = serde_json::from_value(field("complete")?.clone())
        .map_err(|e| format!("complete.json: {e}"))?;
    let instance = instance_of(&complete, field("solutions")?, instantiated)
        .map_err(|(file, e)| format!("{file}: {e}"))?;
    let name = record.get("id").and_then(Value::as_str).unwrap_or("item");
    Gold::check(prover, name, "-", instance).map_err(|e| e.to_string())
}

/// The rewards of `completions[i]` answering `records[i]` (JSON texts of
/// items), each an error when its item cannot be read. Items repeated in
/// the batch (several rollouts of one prompt) are checked once.
pub fn rewards(
    records: &[&str],
    completions: &[&str],
    config: &ScoreConfig,
) -> Vec<Result<Reward, String>> {
    let mut prover = Prover::new(ProveOptions {
        timeout: Some(config.timeout),
        countermodels: false,
    });
    let mut golds: BTreeMap<&str, Result<Gold, String>> = BTreeMap::new();
    records
        .iter()
        .zip(completions)
        .map(|(&record, &completion)| {
            let gold = golds.entry(record).or_insert_with(|| {
                serde_json::from_str(record)
                    .map_err(|e| format!("the item is not JSON: {e}"))
                    .and_then(|v| gold(&mut prover, &v, config.instantiated))
            });
            let gold = gold.as_ref().map_err(Clone::clone)?;
            let answer = parse_answer_text(completion)
                .and_then(|source| read_answer(&source, gold))
                .map_err(|e| e.to_string());
            let s = score_instance(&mut prover, gold, answer);
            Ok(Reward {
                score: (s.success + s.precision + s.diversity) / 3.0,
                success: s.success,
                precision: s.precision,
                diversity: s.diversity,
                answered: s.answered,
                valid: s.valid,
                error: s.error,
            })
        })
        .collect()
}

/// The item's gold solutions written in the prompt's answer format, or why
/// the item cannot be read.
pub fn gold_answer(record: &str) -> Result<String, String> {
    let record: Value = serde_json::from_str(record).map_err(|e| e.to_string())?;
    let mut prover = Prover::new(ProveOptions::default());
    let gold = gold(&mut prover, &record, false)?;
    let raw = record["solutions"]
        .get("solutions")
        .or(Some(&record["solutions"]))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut out = String::new();
    for (n, (solution, raw)) in gold.problem().solutions.iter().zip(&raw).enumerate() {
        let steps = solution
            .steps
            .iter()
            .enumerate()
            .map(|(k, step)| StepLine {
                number: k as u32 + 1,
                cited: step
                    .from
                    .iter()
                    .map(|id| {
                        let earlier = solution.steps.iter().position(|s| &s.label == id);
                        match earlier {
                            Some(j) => Cite::Step(j as u32 + 1),
                            None => Cite::Premise(id.clone()),
                        }
                    })
                    .collect(),
                conclusion: raw["steps"][k]["conclusion"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            })
            .collect();
        out.push_str(
            &PathAnswer {
                number: n as u32 + 1,
                steps,
            }
            .to_string(),
        );
    }
    Ok(out)
}

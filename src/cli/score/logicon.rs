//! `entail score logicon`.

use super::super::{choice, json_line, read_jsonl, Outcome};
use entail::gen::logicon::score::AnswerRecord;
use entail::gen::logicon::{self, Sample};
use serde_json::Value;
use std::path::PathBuf;

/// Arguments of `entail score logicon`.
#[derive(clap::Args)]
#[command(after_help = "\
Answers are JSONL, one record per model answer: {\"id\": SAMPLE_ID, \"answer\": TEXT, ...}.
The answer text may carry code fences, an `Answer:` line and prose around it.

Task 1 (discriminative): add \"labels\": [\"T\",\"F\",...], the list the model judged
  (plain and hard samples); the answer says consistent or inconsistent. For completion
  samples the answer names the hidden label (T or F); no \"labels\" needed.
  Reports accuracy on consistent lists, on inconsistent lists and their mean, overall
  and for hard samples, and the completion accuracy.
Task 2 (enumerative): the answer lists every consistent assignment, e.g.
  [[\"T\",\"F\"],[\"F\",\"F\"]]. Reports format and exact accuracy and mean
  precision, recall and F1 over the 2^k lists (unlisted lists count as inconsistent).
Task 3 (generative): optional \"group\": a consistent list whose premises (statements
  asserted or negated) the model extends, default the sample's first consistent list.
  The answer holds new statements in Prover9 syntax, one per line (or a JSON array).
  Reports the execution rate (a statement parses over the sample's atoms) and the
  consistency rate (premises plus statements satisfiable, by truth tables).

The report is printed as `name value` lines (nested names joined by dots), or as JSON
with --json. A bad line in either file is reported on stderr as FILE:LINE: message,
left out, and counted (bad_lines).

Examples:
  entail score logicon --task 1 --samples corpora/score/logicon_samples.jsonl --answers corpora/score/logicon_task1.jsonl
  entail score logicon --task 2 --samples corpora/score/logicon_samples.jsonl --answers corpora/score/logicon_task2.jsonl --json")]
pub struct Args {
    /// 1 (discriminative), 2 (enumerative) or 3 (generative).
    #[arg(long, value_enum)]
    task: choice::LogiconTask,
    /// Samples from `entail gen logicon`.
    #[arg(long)]
    samples: PathBuf,
    /// The model's answers (JSONL).
    #[arg(long)]
    answers: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `entail score logicon`.
pub fn run(args: Args) -> Outcome {
    let samples = read_jsonl(&args.samples, json_line::<Sample>)?;
    let answers = read_jsonl(&args.answers, json_line::<AnswerRecord>)?;
    let bad_lines = samples.bad + answers.bad;
    let report = logicon::score(
        args.task.into(),
        &samples.into_items(),
        &answers.into_items(),
    );
    super::print_report(args.json, &report, bad_lines, |report| {
        let value = serde_json::to_value(report).unwrap_or(Value::Null);
        let mut lines = Vec::new();
        flatten("", &value, &mut lines);
        let width = lines.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
        lines
            .iter()
            .map(|(name, value)| format!("{name:<width$}  {value}\n"))
            .collect()
    })
}

/// The leaves of `value` as (dotted name, value) pairs, in order.
fn flatten(prefix: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let name = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(&name, inner, out);
            }
        }
        Value::Number(n) => match n.as_f64() {
            Some(x) if n.is_f64() => out.push((prefix.to_string(), format!("{x:.4}"))),
            _ => out.push((prefix.to_string(), n.to_string())),
        },
        other => out.push((prefix.to_string(), other.to_string())),
    }
}

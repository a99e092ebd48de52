//! `entail score logicon`.

use super::super::{choice, json_line, read_jsonl, Outcome};
use entail::gen::logicon::{self, Answer, Report, Sample, ScoreConfig};
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
    let answers = read_jsonl(&args.answers, json_line::<Answer>)?;
    let bad_lines = samples.bad + answers.bad;
    let config = ScoreConfig {
        task: args.task.into(),
    };
    let report = logicon::score(
        &samples.into_items(),
        &answers.into_items(),
        &config,
        &|_| {},
    );
    super::print_report(args.json, &report, bad_lines, Report::to_text)
}

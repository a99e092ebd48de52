//! `entail score logicon`.

use super::super::{choice, json_line, read_jsonl, Failure, Outcome};
use entail::gen::logicon::{self, Answer, GroupSample, Report, Sample, Samples, ScoreConfig};
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
  and for hard samples, per number of statements k (by_k), and the completion accuracy.
Task 2 (enumerative): the answer lists every consistent assignment, e.g.
  [[\"T\",\"F\"],[\"F\",\"F\"]]. Reports format and exact accuracy and mean
  precision, recall and F1 over the 2^k lists (unlisted lists count as inconsistent).
Task 3 (generative), against `gen logicon --task generative` samples: the answer holds
  one new statement per group in Prover9 syntax, as `Group N: formula` lines (or one
  line per group in order, or a JSON array of strings). It is executed (the paper's
  format correctness) when there are exactly n statements, the i-th over atoms of
  group i only and not a copy of one of its facts. As the paper defines it, every
  cross-group combination of facts (one per group, 10^n of them), with the n
  statements added, is consistent iff every formula in it is true under the sample's
  assignment; each group's facts have that assignment as their only model, so this
  is also plain satisfiability. Reports execution rate and consistency (the mean
  share of consistent combinations, 0 for answers not executed), overall and per n.

The report is printed as `name value` lines (nested names joined by dots), or as JSON
with --json. A bad line in either file is reported on stderr as FILE:LINE: message,
left out, and counted (bad_lines).

Examples:
  entail score logicon --task 1 --samples corpora/score/logicon_samples.jsonl --answers corpora/score/logicon_task1.jsonl
  entail score logicon --task 2 --samples corpora/score/logicon_samples.jsonl --answers corpora/score/logicon_task2.jsonl --json
  entail score logicon --task 3 --samples corpora/score/logicon_groups.jsonl --answers corpora/score/logicon_task3.jsonl")]
pub struct Args {
    /// 1 (discriminative), 2 (enumerative) or 3 (generative).
    #[arg(long, value_enum)]
    task: choice::LogiconTask,
    /// Samples from `entail gen logicon` (for Task 3, `--task generative`).
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
    let answers = read_jsonl(&args.answers, json_line::<Answer>)?;
    let config = ScoreConfig {
        task: args.task.into(),
    };
    let (report, bad_lines) = match args.task {
        choice::LogiconTask::Generative => {
            let samples = read_jsonl(&args.samples, json_line::<GroupSample>)?;
            let bad = samples.bad + answers.bad;
            let samples = samples.into_items();
            let answers = answers.into_items();
            let report = logicon::score(Samples::Groups(&samples), &answers, &config, &|_| {});
            (report, bad)
        }
        _ => {
            let samples = read_jsonl(&args.samples, json_line::<Sample>)?;
            let bad = samples.bad + answers.bad;
            let samples = samples.into_items();
            let answers = answers.into_items();
            let report = logicon::score(Samples::Statements(&samples), &answers, &config, &|_| {});
            (report, bad)
        }
    };
    let report = report.map_err(|e| Failure::new(e.to_string()))?;
    super::print_report(args.json, &report, bad_lines, Report::to_text)
}

//! `entail score slr`.

use super::super::{json_line, read_jsonl, Outcome};
use entail::gen::slr::{self, Answer, Report, ScoreConfig, ScoredTask};
use entail::judge::JudgeConfig;
use std::path::PathBuf;

/// Arguments of `entail score slr`.
#[derive(clap::Args)]
#[command(after_help = "\
Scores model answers to SLR tasks with the judge (sandboxed, constants renamed as in
the SLR reference) and prints per-level accuracy, tier accuracy (basic 1-5, easy 6-10,
medium 11-15, hard 16-20), the syntax score (share of answers that parse and pass the
sandbox) and LRL, the sum over levels of solved/total.

Tasks: JSONL from `entail gen slr` or SLR-Bench (needs id, validation program,
curriculum level, optionally evaluation_config). Answers: JSONL lines
{\"id\": TASK_ID, \"prediction\": MODEL_OUTPUT} (also \"answer\" or \"response\").
The rule is taken from the output as `entail judge` does ([RULE]...[/RULE], else the
last code block, else the text after </think>). A task without an answer counts as
wrong and syntactically invalid. A bad line in either file, or a second answer to a
task, is reported on stderr as FILE:LINE: message, left out, and counted (bad_lines
in the JSON report).

Examples:
  entail score slr --tasks corpora/score/slr_tasks.jsonl --answers corpora/score/slr_answers.jsonl
  entail score slr --tasks corpora/score/slr_tasks.jsonl --answers corpora/score/slr_answers.jsonl --json")]
pub struct Args {
    /// Tasks (JSONL).
    #[arg(long)]
    tasks: PathBuf,
    /// Answers (JSONL).
    #[arg(long)]
    answers: PathBuf,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Judge workers; default: all cores.
    #[arg(long)]
    threads: Option<usize>,
}

/// Runs `entail score slr`.
pub fn run(args: Args) -> Outcome {
    let tasks = read_jsonl(&args.tasks, json_line::<ScoredTask>)?;
    let answers =
        read_jsonl(&args.answers, json_line::<Answer>)?.first_per_id(&args.answers, Answer::id_key);
    let bad_lines = tasks.bad + answers.bad;
    let tasks = tasks.into_items();
    let config = ScoreConfig {
        judge: JudgeConfig {
            workers: crate::cli::threads(args.threads).max(1),
            ..JudgeConfig::default()
        },
    };
    let bar = crate::cli::progress::bar(tasks.len() as u64, "tasks");
    let report = slr::score(&tasks, &answers.into_items(), &config, &|n| bar.inc(n));
    bar.finish_and_clear();
    super::print_report(args.json, &report, bad_lines, Report::to_text)
}

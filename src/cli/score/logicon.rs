//! `entail score logicon`.

use entail::gen::logicon::score::{AnswerRecord, Task};
use entail::gen::logicon::{self, Sample};
use std::path::PathBuf;
use std::process::ExitCode;

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

The report is JSON on stdout.

Examples:
  entail score logicon --task 1 --samples logicon.jsonl --answers t1.jsonl
  entail score logicon --task 2 --samples logicon.jsonl --answers t2.jsonl")]
pub struct Args {
    /// 1 (discriminative), 2 (enumerative) or 3 (generative).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=3))]
    task: u8,
    /// Samples from `entail gen logicon`.
    #[arg(long)]
    samples: PathBuf,
    /// The model's answers (JSONL).
    #[arg(long)]
    answers: PathBuf,
}

/// Runs `entail score logicon`.
pub fn run(args: Args) -> ExitCode {
    let loaded = super::read_jsonl::<Sample>(&args.samples)
        .and_then(|s| super::read_jsonl::<AnswerRecord>(&args.answers).map(|a| (s, a)));
    let (samples, answers) = match loaded {
        Ok(x) => x,
        Err(e) => {
            eprintln!("entail score logicon: {e}");
            return ExitCode::from(2);
        }
    };
    let task = match args.task {
        1 => Task::Discriminative,
        2 => Task::Enumerative,
        _ => Task::Generative,
    };
    let report = serde_json::to_string_pretty(&logicon::score(task, &samples, &answers));
    match report {
        Ok(json) => {
            outln!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("entail score logicon: {e}");
            ExitCode::from(1)
        }
    }
}

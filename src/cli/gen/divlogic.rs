//! `entail gen divlogic`.

use super::super::{choice, Failure, Outcome};
use entail::gen::divlogic::{self, Config, Error};
use entail::gen::Shard;
use entail::table::Format;
use std::path::PathBuf;

/// Arguments of `entail gen divlogic`.
#[derive(clap::Args)]
#[command(after_help = "\
Each question's content is a few premises over A..H shaped like the antecedents of
A->B, -(A&B)->C and (A|B)->C. Truth tables split the candidate answers (literals and
implications between literals) into entailed and not entailed; entailed answers that
follow from a single premise are dropped. The solver's verdict for every option is
written in the `verdicts` field.

Types:
  3c1e     three options are not entailed, one is (the answer)
  3e1c     three options are entailed, one is not (the answer)
  missing  one premise was removed; the answer is the option that restores the conclusion
  mixed    3c1e, 3e1c, missing in turn

Examples:
  entail gen divlogic --type mixed --count 1000 --seed 7 --output questions.jsonl
  entail gen divlogic --type missing --count 5 --seed 1 --output -
  entail gen divlogic --count 200 --rotations --output rotated.jsonl
      (4 lines per question, ids ending in -r0..-r3, for `entail score divlogic`)
  entail gen divlogic --count 1000 --seed 7 --shard 0/4 -o questions.0.jsonl
      (shards 0/4 .. 3/4, concatenated in order, equal the unsharded file)")]
pub struct Args {
    /// Question type: 3c1e, 3e1c, missing or mixed.
    #[arg(long = "type", value_enum, default_value_t = choice::QuestionType::Mixed)]
    kind: choice::QuestionType,
    /// Number of questions.
    #[arg(long, default_value_t = 100)]
    count: u64,
    /// Run seed; the same seed gives byte-identical output.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write only block I of N of the run (0-based, e.g. 0/4); the N shards'
    /// outputs, concatenated in order, are the whole run's output.
    #[arg(long, value_name = "I/N", default_value = "0/1", value_parser = super::parse_shard)]
    shard: Shard,
    /// Output file, or `-` for stdout.
    #[arg(long, short, default_value = "-")]
    output: PathBuf,
    /// `jsonl` (one record per line) or `parquet` (one table, the records'
    /// fields as columns, as `datasets.load_dataset("parquet", ...)` reads).
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    /// Emit the four circular rotations of every question (ids QID-r0..QID-r3).
    #[arg(long)]
    rotations: bool,
    /// Fewest premises per question (at least 3).
    #[arg(long, default_value_t = 3)]
    min_premises: usize,
    /// Most premises per question (the n that caps how often a variable is used).
    #[arg(long, default_value_t = 5)]
    max_premises: usize,
    /// Print the run's statistics on stderr as JSON.
    #[arg(long)]
    json: bool,
}

impl Args {
    fn config(&self) -> Config {
        Config {
            types: self.kind.into(),
            count: self.count,
            seed: self.seed,
            rotations: self.rotations,
            min_premises: self.min_premises,
            max_premises: self.max_premises,
            shard: self.shard,
        }
    }
}

/// Runs `entail gen divlogic`.
pub fn run(args: Args) -> Outcome {
    let config = args.config();
    let out = super::output(&args.output, args.format)?;
    let bar =
        crate::cli::progress::bar(config.shard.range(config.count).count() as u64, "questions");
    // Each question is written as soon as it is made, so memory stays flat
    // for any `--count` and `| head` stops the run early.
    let result = out.write_with(|lines| divlogic::generate(&config, lines, &|n| bar.inc(n)));
    bar.finish_and_clear();
    match result {
        Ok(stats) => {
            let text = format!("{} questions, {} records", stats.questions, stats.records);
            super::summary("divlogic", args.json, &stats, &text)
        }
        Err(Error::Io(e)) => super::io_outcome(&args.output, e),
        Err(e) => Err(Failure::new(e.to_string())),
    }
}

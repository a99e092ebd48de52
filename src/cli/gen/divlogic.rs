//! `entail gen divlogic`.

use entail::gen::divlogic::{self, Config, Error, QuestionType, TypeChoice};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

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
      (4 lines per question, ids ending in -r0..-r3, for `entail score divlogic`)")]
pub struct Args {
    /// Question type: 3c1e, 3e1c, missing or mixed.
    #[arg(long = "type", default_value = "mixed", value_parser = ["3c1e", "3e1c", "missing", "mixed"])]
    kind: String,
    /// Number of questions.
    #[arg(long, default_value_t = 100)]
    count: u64,
    /// Run seed; the same seed gives byte-identical output.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Output JSONL file, or `-` for stdout.
    #[arg(long, short, default_value = "-")]
    output: PathBuf,
    /// Emit the four circular rotations of every question (ids QID-r0..QID-r3).
    #[arg(long)]
    rotations: bool,
    /// Fewest premises per question (at least 3).
    #[arg(long, default_value_t = 3)]
    min_premises: usize,
    /// Most premises per question (the n that caps how often a variable is used).
    #[arg(long, default_value_t = 5)]
    max_premises: usize,
}

impl Args {
    fn config(&self) -> Config {
        let types = match self.kind.as_str() {
            "3c1e" => TypeChoice::Only(QuestionType::OneEntailed),
            "3e1c" => TypeChoice::Only(QuestionType::OneNotEntailed),
            "missing" => TypeChoice::Only(QuestionType::MissingPremise),
            _ => TypeChoice::Mixed,
        };
        Config {
            types,
            count: self.count,
            seed: self.seed,
            rotations: self.rotations,
            min_premises: self.min_premises,
            max_premises: self.max_premises,
            ..Config::default()
        }
    }
}

/// Runs `entail gen divlogic`.
pub fn run(args: Args) -> ExitCode {
    let config = args.config();
    let out: Box<dyn Write> = if args.output.as_os_str() == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        match std::fs::File::create(&args.output) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("entail gen divlogic: {}: {e}", args.output.display());
                return ExitCode::from(1);
            }
        }
    };
    let bar = crate::cli::progress::bar(config.count, "questions");
    // Each question is written as soon as it is made, so memory stays flat
    // for any `--count` and `| head` stops the run early.
    let result = divlogic::generate(&config, &mut BufWriter::new(out), &|n| bar.inc(n));
    bar.finish_and_clear();
    match result {
        Ok(_) => ExitCode::SUCCESS,
        // A closed pipe (e.g. `| head`) means the reader has what it wanted.
        Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Error::Io(e)) => {
            eprintln!("entail gen divlogic: {}: {e}", args.output.display());
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("entail gen divlogic: {e}");
            ExitCode::from(2)
        }
    }
}

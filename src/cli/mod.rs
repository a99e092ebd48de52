//! Argument parsing and dispatch. Each subcommand turns its raw flags into the
//! library's typed configuration before any work starts.

#[macro_use]
mod output;
mod gen;
mod judge;
mod parse;
mod progress;
mod prove;
mod score;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Check logic, fast and without being fooled.
///
/// entail scores Prolog rules proposed for inductive tasks (judge), checks
/// Prover9-syntax proofs with Z3 (prove), and generates benchmark tasks whose
/// labels are verified by those engines (gen).
#[derive(Parser)]
#[command(name = "entail", version)]
#[command(
    after_help = "Run `entail <COMMAND> --help` for the details and examples of each command."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a Prover9 or Prolog file and print its normalized form
    Parse(parse::ParseArgs),
    /// Score a Prolog rule proposed for an inductive (SLR) task, sandboxed
    Judge(judge::Args),
    /// Check a Prover9 problem, a step file or a LogicGraph instance with Z3
    Prove(prove::Args),
    /// Generate benchmark tasks with verified labels: slr, logicon, divlogic
    Gen(gen::Args),
    /// Score model answers against generated tasks
    Score(score::Args),
}

/// Runs the command line and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Parse(args) => parse::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Prove(args) => prove::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Score(args) => score::run(args),
    }
}

/// The one range syntax of every command: `3`, `3-5`, `3..5` or `3..=5`,
/// all inclusive.
fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{s}` is not a number"))
    };
    let split = text
        .split_once("..")
        .map(|(a, b)| (a, b.trim_start_matches('=')))
        .or_else(|| text.split_once('-'));
    match split {
        Some((lo, hi)) => {
            let (lo, hi) = (number(lo)?, number(hi)?);
            if lo > hi {
                return Err(format!("empty range {text}"));
            }
            Ok((lo, hi))
        }
        None => number(text).map(|n| (n, n)),
    }
}

/// The `--threads` a command asked for, or one per core.
fn threads(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

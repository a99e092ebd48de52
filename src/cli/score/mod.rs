//! `entail score`: score model answers against tasks, one subcommand per
//! family. Every one goes on past a bad input line: it is reported on
//! stderr as `FILE:LINE: message`, left out, and counted in the report's
//! `bad_lines`.

mod divlogic;
mod logicgraph;
mod logicon;
mod slr;

use super::{print_json, Counted, Exit, Failure, Outcome};

/// Arguments of `entail score`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    family: Family,
    /// Write the report here instead of standard output.
    #[arg(long, short, global = true)]
    output: Option<std::path::PathBuf>,
}

#[derive(clap::Subcommand)]
enum Family {
    /// Per-level, per-tier accuracy and LRL of answers to SLR tasks
    Slr(slr::Args),
    /// LogicGraph success, precision, shortest path, diversity, versatility, originality
    Logicgraph(logicgraph::Args),
    /// Tasks 1-3 of LogiConBench: discriminative, enumerative, generative
    Logicon(logicon::Args),
    /// Accuracy, Circular and PartialCircular of DivLogicEval answers
    Divlogic(divlogic::Args),
}

/// Runs `entail score`.
pub fn run(args: Args) -> Outcome {
    super::output::redirect(args.output.as_deref())?;
    let outcome = match args.family {
        Family::Slr(a) => slr::run(a),
        Family::Logicgraph(a) => logicgraph::run(a),
        Family::Logicon(a) => logicon::run(a),
        Family::Divlogic(a) => divlogic::run(a),
    };
    super::output::finish_redirect(args.output.as_deref())?;
    outcome
}

/// Prints a score report: as JSON with its count of bad lines, or as
/// `text` followed by a note on the lines left out.
fn print_report<R: serde::Serialize>(
    json: bool,
    report: &R,
    bad_lines: usize,
    text: impl FnOnce(&R) -> String,
) -> Result<Exit, Failure> {
    if json {
        print_json(&Counted { report, bad_lines })?;
    } else {
        out!("{}{}", text(report), bad_lines_note(bad_lines));
    }
    Ok(Exit::Done)
}

/// The line a text report ends with when lines were skipped.
fn bad_lines_note(bad: usize) -> String {
    match bad {
        0 => String::new(),
        1 => "1 bad line (reported on stderr) left out\n".to_string(),
        n => format!("{n} bad lines (reported on stderr) left out\n"),
    }
}

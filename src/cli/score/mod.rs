//! `entail score`: score model answers against tasks, one subcommand per family.

mod divlogic;
mod logicgraph;
mod logicon;
mod slr;

use std::process::ExitCode;

/// Arguments of `entail score`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    family: Family,
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
pub fn run(args: Args) -> ExitCode {
    match args.family {
        Family::Slr(a) => slr::run(a),
        Family::Logicgraph(a) => logicgraph::run(a),
        Family::Logicon(a) => logicon::run(a),
        Family::Divlogic(a) => divlogic::run(a),
    }
}

/// Reads a JSONL file; a bad line is an error naming `FILE:LINE`. Blank lines are skipped.
fn read_jsonl<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> Result<Vec<T>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect()
}

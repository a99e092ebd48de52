//! `entail gen`: benchmark generators, one subcommand per family.

mod divlogic;
mod logicgraph;
mod logicon;
mod slr;

use std::process::ExitCode;

/// Arguments of `entail gen`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    family: Family,
}

#[derive(clap::Subcommand)]
enum Family {
    /// SLR inductive rule-learning tasks over trains, in 20 curriculum levels
    Slr(slr::Args),
    /// LogicGraph multi-path proof problems with all their minimal proofs, engine-verified
    Logicgraph(logicgraph::Args),
    /// LogiConBench consistency samples with exact labels
    Logicon(logicon::Args),
    /// DivLogicEval multiple-choice questions with solver-checked answers
    Divlogic(divlogic::Args),
}

/// Runs `entail gen`.
pub fn run(args: Args) -> ExitCode {
    match args.family {
        Family::Slr(a) => slr::run(a),
        Family::Logicgraph(a) => logicgraph::run(a),
        Family::Logicon(a) => logicon::run(a),
        Family::Divlogic(a) => divlogic::run(a),
    }
}

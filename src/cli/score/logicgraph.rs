//! `entail score logicgraph`.

use super::super::{read_text, Exit, Failure, Outcome};
use entail::gen::logicgraph::{self, AnswerSet, Instances, Report, ScoreConfig};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `entail score logicgraph`.
#[derive(clap::Args)]
#[command(after_help = "\
Checks model solutions with Z3 against the GOLD premises and target of each LogicGraph
instance (the answer's own premise formulas are ignored; only cited ids count: Rule3,
Fact1, earlier steps). A solution is valid when every step is valid, its last step
entails the target and the target follows from the premises it cites.

--gold is one instance directory (complete.json + solutions.json) or a tree of them
(every directory with a complete.json; the tier is its parent directory's name).
--answers, repeatable (one file per model):
  one instance: a file shaped like solutions.json ({\"solutions\": [...]} or a bare array;
    steps with premises_used ids and A-notation conclusions), or a step file
    (formulas(solution_N) lists whose # from(..) cite the gold premise ids);
  a tree: JSONL, one line per instance, named relative to --gold:
    {\"instance\": \"Small/test_1\", \"solutions\": [...]}
    {\"instance\": \"Small/test_1\", \"steps\": \"<step file text>\"}
A bad answer line or an unreadable answer is reported on stderr as FILE:LINE: message and
scores as an instance with no valid solution; the rest of the batch is scored. Bad
lines are counted (bad_lines in the JSON report).

Metrics per instance (averaged per tier and over all):
  success      1 if at least one solution is valid
  precision    valid / answered solutions (0 without answers)
  shortest     1 if a valid solution has exactly the gold minimum number of steps
  diversity    |distinct valid supports in the gold supports| / |gold supports|
               (a support is the set of premises a solution cites)
  versatility  |gold families hit| / |gold families|; a family is hit when a valid
               support equals the support of a gold solution of that family
  originality  across the answer sets: f(s) = number of sets that found gold support s;
               a set's originality = mean of 1/f(s) over the gold supports it found,
               0 if it found none
Gold supports, families and the minimum come from the gold solutions that check valid.

A gold instance that does not load is reported, left out, and makes the exit status 1.

Examples:
  entail score logicgraph --gold corpora/logicgraph-answers/Tiny/case_1 --answers corpora/logicgraph-answers/case_1.answer.in
  entail score logicgraph --gold corpora/logicgraph-answers/Tiny --answers corpora/score/logicgraph_answers.jsonl --json
  entail score logicgraph --gold corpora/logicgraph-answers/Tiny --answers corpora/logicgraph-answers/case_1.answer.in --answers corpora/score/logicgraph_answers.jsonl")]
pub struct Args {
    /// An instance directory, or a directory tree of them.
    #[arg(long)]
    gold: PathBuf,
    /// Answers of one model (repeatable, one file per model).
    #[arg(long, required = true)]
    answers: Vec<PathBuf>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
    /// Check the instantiated formulas (prover9_expression) instead of the A-notation.
    #[arg(long)]
    instantiated: bool,
    /// Per-check timeout in seconds (a timeout never counts as valid).
    #[arg(long, default_value = "10")]
    timeout: f64,
}

/// Runs `entail score logicgraph`.
pub fn run(args: Args) -> Outcome {
    let timeout = match Duration::try_from_secs_f64(args.timeout) {
        Ok(t) if !t.is_zero() => t,
        _ => {
            return Err(Failure::new(format!(
                "--timeout {} is not a positive number of seconds",
                args.timeout
            )))
        }
    };
    let instances = Instances::find(&args.gold).map_err(|e| Failure::new(e.to_string()))?;
    if instances.dirs.is_empty() {
        return Err(Failure::new(format!(
            "no instance (directory with complete.json) under {}",
            args.gold.display()
        )));
    }
    let mut sets = Vec::new();
    for path in &args.answers {
        let text = read_text(path)?;
        sets.push(AnswerSet::read(
            &path.display().to_string(),
            &text,
            &instances,
        ));
    }
    let mut bad_lines = 0;
    for line in sets.iter().flat_map(AnswerSet::bad_lines) {
        eprintln!("{line}");
        bad_lines += 1;
    }
    let config = ScoreConfig {
        timeout,
        instantiated: args.instantiated,
    };
    let bar = crate::cli::progress::bar(instances.dirs.len() as u64, "instances");
    let report = logicgraph::score(&instances, &sets, &config, &|n| bar.inc(n));
    bar.finish_and_clear();
    super::print_report(args.json, &report, bad_lines, Report::to_text)?;
    for error in &report.gold_errors {
        eprintln!("entail score logicgraph: gold instance {error}");
    }
    if report.gold_errors.is_empty() {
        Ok(Exit::Done)
    } else {
        Ok(Exit::Input)
    }
}

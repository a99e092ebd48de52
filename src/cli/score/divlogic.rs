//! `entail score divlogic`.

use super::super::{json_line, read_jsonl, Failure, Outcome};
use entail::gen::divlogic::{score, Answer, Question, Report, ScoreConfig};
use std::path::PathBuf;

/// Arguments of `entail score divlogic`.
#[derive(clap::Args)]
#[command(after_help = "\
Answers are JSONL lines {\"id\": \"divlogic-7-000003-r2\", \"answer\": 1}; the answer may be an
index 0-3, a letter \"A\"-\"D\", or null. Unanswered questions count as wrong.

Metrics:
  Accuracy          fraction of original questions (-r0, or all without rotations)
                    answered correctly: the paper's ACC
  Circular          fraction of questions right in all 4 rotations
  PartialCircular   mean of (c/4)(1 + sum_o p(o) log4 p(o)), c = rotations right,
                    p(o) = share of rotations in which option o (by content) was picked
  PC_alpha          mean of (c/4)[(1-alpha) + alpha(1 + sum_o p(o) log4 p(o))]
Each metric is also given per question type (3c1e, 3e1c, missing; by_type in JSON).
Circular and PC need the questions generated with --rotations. A bad line in either file,
or a second answer to a question, is reported on stderr as FILE:LINE: message, left
out, and counted (bad_lines in the JSON report).

Examples:
  entail score divlogic --questions corpora/score/divlogic_questions.jsonl --answers corpora/score/divlogic_answers.jsonl
  entail score divlogic --questions corpora/score/divlogic_questions.jsonl --answers corpora/score/divlogic_answers.jsonl --alpha 0.25 --alpha 0.75 --json")]
pub struct Args {
    /// Questions JSONL from `entail gen divlogic`.
    #[arg(long)]
    questions: PathBuf,
    /// Answers JSONL: {"id", "answer"} per line.
    #[arg(long)]
    answers: PathBuf,
    /// α for PC_α (repeatable).
    #[arg(long, default_value = "0.5")]
    alpha: Vec<f64>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `entail score divlogic`.
pub fn run(args: Args) -> Outcome {
    if let Some(bad) = args.alpha.iter().find(|a| !(0.0..=1.0).contains(*a)) {
        return Err(Failure::new(format!("--alpha {bad} is outside [0, 1]")));
    }
    let questions = read_jsonl(&args.questions, question)?;
    let answers = read_jsonl(&args.answers, json_line::<Answer>)?
        .first_per_id(&args.answers, |a| a.id.clone());
    let bad_lines = questions.bad + answers.bad;
    let config = ScoreConfig { alphas: args.alpha };
    let report = score(
        &questions.into_items(),
        &answers.into_items(),
        &config,
        &|_| {},
    );
    super::print_report(args.json, &report, bad_lines, Report::to_text)
}

/// A question line, refused unless it has four options and one of them as
/// its answer.
fn question(line: &str) -> Result<Question, String> {
    let q: Question = json_line(line)?;
    q.check_scorable()?;
    Ok(q)
}

//! `entail score divlogic`.

use super::super::{read_text, Failure, Outcome};
use entail::gen::divlogic::score::{parse_answers, parse_questions, score, Report};
use std::path::PathBuf;

/// Arguments of `entail score divlogic`.
#[derive(clap::Args)]
#[command(after_help = "\
Answers are JSONL lines {\"id\": \"divlogic-7-000003-r2\", \"answer\": 1}; the answer may be an
index 0-3, a letter \"A\"-\"D\", or null. Unanswered questions count as wrong.

Metrics:
  Accuracy          fraction of question lines answered correctly
  Circular          fraction of questions right in all 4 rotations
  PartialCircular   mean of (c/4)(1 + sum_o p(o) log4 p(o)), c = rotations right,
                    p(o) = share of rotations in which option o (by content) was picked
  PC_alpha          mean of (c/4)[(1-alpha) + alpha(1 + sum_o p(o) log4 p(o))]
Circular and PC need the questions generated with --rotations. A bad line in either file
(or a second answer to an id) is reported on stderr as FILE:LINE: message, left out,
and counted (bad_lines in the JSON report).

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
    let name = |path: &PathBuf| path.display().to_string();
    let (questions, bad_questions) =
        parse_questions(&name(&args.questions), &read_text(&args.questions)?);
    let (answers, bad_answers) = parse_answers(&name(&args.answers), &read_text(&args.answers)?);
    for bad in bad_questions.iter().chain(&bad_answers) {
        eprintln!("{bad}");
    }
    let bad_lines = bad_questions.len() + bad_answers.len();
    let report = score(&questions, &answers, &args.alpha);
    super::print_report(args.json, &report, bad_lines, human)
}

fn human(r: &Report) -> String {
    let opt = |v: Option<f64>| {
        v.map_or("n/a (needs --rotations questions)".to_string(), |x| {
            format!("{x:.4}")
        })
    };
    let mut s = format!(
        "questions        {} ({} answered, {} unknown answer ids)\naccuracy         {:.4}\nrotation groups  {}\ncircular         {}\npartial circular {}\n",
        r.questions,
        r.answered,
        r.unknown_ids,
        r.accuracy,
        r.rotation_groups,
        opt(r.circular),
        opt(r.partial_circular)
    );
    for (alpha, v) in &r.pc_alpha {
        s.push_str(&format!("PC_alpha({alpha})    {}\n", opt(*v)));
    }
    s
}

//! `entail score divlogic`.

use entail::gen::divlogic::score::{parse_answers, parse_questions, score, Report};
use std::path::PathBuf;
use std::process::ExitCode;

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
Circular and PC need the questions generated with --rotations.

Examples:
  entail gen divlogic --count 500 --seed 3 --rotations --output q.jsonl
  entail score divlogic --questions q.jsonl --answers model.jsonl
  entail score divlogic --questions q.jsonl --answers model.jsonl --alpha 0.25 --alpha 0.75 --json")]
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
pub fn run(args: Args) -> ExitCode {
    if let Some(bad) = args.alpha.iter().find(|a| !(0.0..=1.0).contains(*a)) {
        eprintln!("entail score divlogic: --alpha {bad} is outside [0, 1]");
        return ExitCode::from(2);
    }
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let report = (|| -> Result<Report, String> {
        let questions = parse_questions(
            &args.questions.display().to_string(),
            &read(&args.questions)?,
        )
        .map_err(|e| e.to_string())?;
        let answers = parse_answers(&args.answers.display().to_string(), &read(&args.answers)?)
            .map_err(|e| e.to_string())?;
        Ok(score(&questions, &answers, &args.alpha))
    })();
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            eprintln!("entail score divlogic: {e}");
            return ExitCode::from(2);
        }
    };
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                eprintln!("entail score divlogic: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        out!("{}", human(&report));
    }
    ExitCode::SUCCESS
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

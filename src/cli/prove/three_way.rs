//! `entail prove --three-way`: a FOLIO-notation program answered `True`,
//! `False`, `Uncertain` or `Error`; with `--batch`, a JSONL file of them.

use super::{options, Args};
use crate::cli::{Exit, Failure, Outcome};
use entail::picture::counted;
use entail::prove::{
    run_three_way_batch, three_way_answer, Answer, Direction, Prover, ThreeWayError, ThreeWayReport,
};
use std::io::Write;

/// Runs `entail prove --three-way [--batch]`.
pub(super) fn run(args: &Args) -> Outcome {
    let (options, _) = options(args).map_err(|e| Failure::new(e.to_string()))?;
    if args.batch {
        return batch(args, options);
    }
    let text = crate::cli::read_text(&args.path)?;
    let report = match entail::syntax::fol::parse_program(&text) {
        Ok(program) => {
            let mut prover = Prover::new(options);
            three_way_answer(&mut prover, &program)
        }
        Err(e) => ThreeWayReport::failed(ThreeWayError::from_syntax(&e)),
    };
    let file = args.path.display().to_string();
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(s) => outln!("{s}"),
            Err(e) => return Err(Failure::new(format!("cannot serialise the report: {e}"))),
        }
    } else {
        print(&report, &file);
    }
    Ok(match report.answer {
        // The reason went to stdout with the answer; the status says it.
        Answer::Error => Exit::Input,
        Answer::Uncertain if !report.settled => Exit::Unknown,
        _ => Exit::Done,
    })
}

fn print(report: &ThreeWayReport, file: &str) {
    outln!("{}", report.answer.name());
    if let Some(e) = &report.error {
        outln!("error ({}): {file}:{}", e.kind, e.message);
    }
    if report.inconsistent_premises {
        outln!("the premises are inconsistent: the conclusion and its negation both follow");
    }
    if let Some(used) = &report.used_premises {
        let used: Vec<String> = used.iter().map(usize::to_string).collect();
        outln!("used premises: {}", used.join(", "));
    }
    if report.answer == Answer::Uncertain {
        for (what, d) in [
            ("the conclusion", &report.conclusion),
            ("its negation", &report.negation),
        ] {
            if let Some(d) = d {
                direction(what, d);
            }
        }
    }
    for note in &report.notes {
        outln!("note: {note}");
    }
}

fn direction(what: &str, d: &Direction) {
    match (&d.countermodel, d.status, &d.reason) {
        (Some(cm), _, _) => {
            outln!("countermodel of {what}:");
            for l in cm.to_string().lines() {
                outln!("  {l}");
            }
        }
        (None, "not_proved", Some(reason)) => outln!("{what}: not provable ({reason})"),
        (None, "unknown", reason) => {
            outln!(
                "{what}: undecided ({})",
                reason.as_deref().unwrap_or("unknown")
            )
        }
        _ => {}
    }
}

fn batch(args: &Args, options: entail::prove::ProveOptions) -> Outcome {
    let path = &args.path;
    let read_failure = |e: std::io::Error| Failure::new(format!("{}: {e}", path.display()));
    let input = entail::table::json_lines(crate::cli::open_file(path)?).map_err(read_failure)?;
    let bar = crate::cli::progress::bar(crate::cli::judge::count_records(path), "programs");
    let out: Box<dyn Write + Send> = match &args.output {
        Some(p) => Box::new(std::io::BufWriter::new(crate::cli::create_file(p)?)),
        None => Box::new(std::io::BufWriter::new(std::io::stdout())),
    };
    let workers = args
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let on_done = || bar.inc(1);
    let summary = run_three_way_batch(&options, workers, input, out, &on_done);
    bar.finish_and_clear();
    let summary = summary.map_err(read_failure)?;
    if args.json {
        let text = serde_json::to_string(&summary)
            .map_err(|e| Failure::new(format!("cannot write the summary as JSON: {e}")))?;
        eprintln!("{text}");
    } else {
        let mut line = format!(
            "{}: {} True, {} False, {} Uncertain ({} undecided), {} Error",
            counted(summary.lines as u64, "programs"),
            summary.r#true,
            summary.r#false,
            summary.uncertain,
            summary.unsettled,
            summary.error
        );
        if summary.labelled > 0 {
            line.push_str(&format!(
                "; {} of {} labelled answered as labelled ({:.1}%)",
                summary.correct,
                summary.labelled,
                100.0 * summary.correct as f64 / summary.labelled as f64
            ));
        }
        eprintln!("{line}");
    }
    Ok(Exit::Done)
}

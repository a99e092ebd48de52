//! `entail report`: score and judge outputs as one HTML page of charts.

use super::{json_line, read_jsonl, read_text, Exit, Failure, Outcome};
use entail::picture::report::{self, About, Input, Results, TaskLevel};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Arguments of `entail report`.
#[derive(clap::Args)]
#[command(after_help = "\
Reads the outputs of `entail score <benchmark> --json` and `entail judge --batch`
(one file per model, several side by side) and writes one self-contained HTML page:
SLR accuracy, partial and syntax score by level and tier, error kinds per level and
the shown/held-out gap; LogicGraph metrics per tier and the step-error taxonomy;
LogiConBench Tasks 1-3 (Task 1 also by k); DivLogicEval Accuracy, Circular and
PartialCircular, overall and per question type. Every
chart has its numbers in a table under it; the header names each input and when and
by which entail version the page was made (SOURCE_DATE_EPOCH fixes the time).
Judge results have no curriculum level: give the tasks (--tasks) to place them.
Each chart states its n; accuracy bars carry 95% Wilson intervals. With --json, what
was written (file, bytes, sections, charts, models) is printed on stderr.

Examples:
  entail report corpora/report/slr_a.json corpora/report/slr_b.json --output slr.html
  entail report corpora/report/judged_a.jsonl corpora/report/judged_b.jsonl --tasks corpora/report/slr_tasks.jsonl --label model-a --label model-b --output judged.html
  entail report corpora/report/logicgraph.json corpora/report/logicon_a.json corpora/report/logicon_b.json corpora/report/divlogic_a.json corpora/report/divlogic_b.json --label lg --label a --label b --label a --label b --output others.html

The inputs in corpora/report/ are two made-up models' outputs; corpora/report/make
shows how each was made.")]
pub struct Args {
    /// Score reports (JSON) or judge --batch results (JSONL), one per model.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The name of each file's model on the page, in the order of the
    /// files; a file without one is named by its stem.
    #[arg(long)]
    label: Vec<String>,
    /// SLR tasks (JSONL with id and curriculum level) that place judge results by level.
    #[arg(long)]
    tasks: Option<PathBuf>,
    /// Write the page here instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Also print what was written as one JSON object on stderr (the file,
    /// its bytes, its sections and charts, the models).
    #[arg(long)]
    json: bool,
}

/// Runs `entail report`.
pub fn run(args: Args) -> Outcome {
    if args.label.len() > args.files.len() {
        return Err(Failure::new(format!(
            "{} labels for {} files",
            args.label.len(),
            args.files.len()
        )));
    }
    let mut levels = BTreeMap::new();
    if let Some(tasks) = &args.tasks {
        levels = report::levels(&read_jsonl(tasks, json_line::<TaskLevel>)?.into_items());
    }
    let mut inputs = Vec::new();
    for (k, file) in args.files.iter().enumerate() {
        let text = read_text(file)?;
        let results = Results::read(&text, &levels).map_err(|e| {
            if e.0.starts_with(|c: char| c.is_ascii_digit()) {
                Failure::placed(format!("{}:{}", file.display(), e.0))
            } else {
                Failure::new(format!("{}: {}", file.display(), e.0))
            }
        })?;
        let label = args.label.get(k).cloned().unwrap_or_else(|| stem(file));
        inputs.push(Input {
            label,
            file: file.display().to_string(),
            results,
        });
    }
    let about = About {
        when: super::made_at(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    };
    let page = report::report(&inputs, &about).map_err(|e| Failure::new(e.0))?;
    super::write_output(args.output.as_deref(), &page)?;
    if args.json {
        let sections: Vec<&str> = page
            .split("<h2>")
            .skip(1)
            .filter_map(|s| s.split("</h2>").next())
            .collect();
        let wrote = serde_json::json!({
            "output": args.output.as_ref().map_or("-".to_string(), |p| p.display().to_string()),
            "bytes": page.len(),
            "sections": sections,
            "charts": page.matches("<figure class=\"chart\"").count(),
            "models": inputs.iter().map(|i| &i.label).collect::<Vec<_>>(),
        });
        eprintln!("{wrote}");
    }
    Ok(Exit::Done)
}

/// A file's name without its directory and extension.
fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

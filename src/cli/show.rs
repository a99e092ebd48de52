//! `entail show`: one item as a picture.

use super::{read_text, Exit, Failure, Outcome};
use entail::gen::logicon::Sample;
use entail::judge::TaskRecord;
use entail::picture::show::{self, Picture};
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `entail show`.
#[derive(clap::Args)]
#[command(after_help = "\
Draws one item as SVG (or, with --html, a self-contained HTML page with the same
drawing and its content as text). The item's kind is read from the input:
  an SLR task (JSON, or a JSONL line with a `validation program`): its trains as
    Michalski trains, each car with its length, wall, roof, wheels and load,
    grouped by label, held-out trains (gen slr --holdout) in groups of their own
    (--unlabelled: without labels, as a model classifies them);
  a LogicGraph instance directory (with complete.json): its DAG of premises,
    derived formulas and goal, gold paths coloured by family; with --answer (a step
    file or an answer line, as `score logicgraph` reads them) the model's steps are
    added, green when the prover finds them valid, red when invalid;
  a LogiConBench sample (a JSONL line with `statements` and `path`): its statements
    and the reasoning path joining them in its logical graph.
In a JSONL file, --id picks the item (default: the first line). Every drawing has a
key (its legend), and every node a tooltip with its full text. With --json, what was
written (file, format, caption, marks, size in px) is printed on stderr.

Examples:
  entail show corpora/slr/task_l1.json --output task.svg
  entail show corpora/logicgraph-answers/Tiny/case_1 --answer corpora/logicgraph-answers/case_1.answer.in --html --output dag.html
  entail show corpora/score/logicon_samples.jsonl --id logicon-plain-k3-1 --output sample.svg")]
pub struct Args {
    /// An SLR task or LogiConBench samples (JSON or JSONL), or a LogicGraph instance directory.
    item: PathBuf,
    /// Which item of a JSONL file (its `id`); default: the first.
    #[arg(long)]
    id: Option<String>,
    /// LogicGraph: the model's answer to mark on the DAG.
    #[arg(long)]
    answer: Option<PathBuf>,
    /// SLR: draw the trains in one group, without their labels.
    #[arg(long)]
    unlabelled: bool,
    /// Write an HTML page instead of SVG.
    #[arg(long)]
    html: bool,
    /// LogicGraph: seconds per prover check.
    #[arg(long, default_value_t = 10)]
    timeout: u64,
    /// Write the picture here instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Also print what was written as one JSON object on stderr (the file,
    /// its format, the caption, what it counts, the drawing's size).
    #[arg(long)]
    json: bool,
}

/// Runs `entail show`.
pub fn run(args: Args) -> Outcome {
    let failure =
        |e: entail::picture::Error| Failure::new(format!("{}: {}", args.item.display(), e.0));
    let picture = if args.item.is_dir() {
        let answer = match &args.answer {
            Some(path) => Some((path.display().to_string(), read_text(path)?)),
            None => None,
        };
        let answer = answer.as_ref().map(|(f, t)| (f.as_str(), t.as_str()));
        show::logicgraph_instance(&args.item, answer, Duration::from_secs(args.timeout))
            .map_err(failure)?
    } else {
        if args.answer.is_some() {
            return Err(Failure::new(
                "--answer is for a LogicGraph instance directory",
            ));
        }
        let text = read_text(&args.item)?;
        let (line, item) = pick(&text, args.id.as_deref())
            .map_err(|m| Failure::new(format!("{}: {m}", args.item.display())))?;
        let placed = |m: String| Failure::placed(format!("{}:{line}: {m}", args.item.display()));
        if item.get("validation program").is_some() || item.get("validation_program").is_some() {
            let task: TaskRecord =
                serde_json::from_value(item).map_err(|e| placed(e.to_string()))?;
            show::slr_task(&task, args.unlabelled).map_err(failure)?
        } else if item.get("statements").is_some() && item.get("path").is_some() {
            let sample: Sample = serde_json::from_value(item).map_err(|e| placed(e.to_string()))?;
            show::logicon_sample(&sample).map_err(failure)?
        } else {
            return Err(placed(
                "not an SLR task (no `validation program`) nor a LogiConBench sample (no `statements` and `path`)".into(),
            ));
        }
    };
    let out = render(&picture, args.html);
    super::write_output(args.output.as_deref(), &out)?;
    if args.json {
        let size = |name: &str| {
            let at = picture.svg.find("<svg ")?;
            let head = &picture.svg[at..at + picture.svg[at..].find('>')?];
            let from = head.find(&format!(" {name}=\""))? + name.len() + 3;
            head[from..from + head[from..].find('"')?]
                .parse::<f64>()
                .ok()
        };
        let wrote = serde_json::json!({
            "output": args.output.as_ref().map_or("-".to_string(), |p| p.display().to_string()),
            "format": if args.html { "html" } else { "svg" },
            "bytes": out.len(),
            "title": picture.title,
            "marks": picture.marks,
            "width": size("width"),
            "height": size("height"),
        });
        eprintln!("{wrote}");
    }
    Ok(Exit::Done)
}

/// The picture as SVG, or as an HTML page.
fn render(picture: &Picture, html: bool) -> String {
    if html {
        picture.to_html(&format!(
            "Made {} by entail {}.",
            super::made_at(),
            env!("CARGO_PKG_VERSION")
        ))
    } else {
        picture.svg.clone()
    }
}

/// The item of `text` (one JSON document, or JSONL) with the given id, or
/// the first; with its line number.
fn pick(text: &str, id: Option<&str>) -> Result<(usize, Value), String> {
    if let Ok(doc @ Value::Object(_)) = serde_json::from_str::<Value>(text) {
        return Ok((1, doc));
    }
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(line).map_err(|e| format!("line {}: not JSON: {e}", i + 1))?;
        let matches = match (id, value.get("id")) {
            (None, _) => true,
            (Some(want), Some(Value::String(s))) => s == want,
            (Some(want), Some(other)) => {
                serde_json::from_str::<Value>(want).ok().as_ref() == Some(other)
            }
            (Some(_), None) => false,
        };
        if matches {
            return Ok((i + 1, value));
        }
    }
    Err(match id {
        Some(id) => format!("no item with id {id}"),
        None => "no item".into(),
    })
}

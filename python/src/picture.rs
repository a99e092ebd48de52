//! Pictures for notebooks: `entail report` and `entail show` on records the
//! Python side holds as JSON texts. Each returns what the command line
//! writes: an HTML page, or an SVG drawing and its page.

use entail::picture::report::{self, About, Input, Results, TaskLevel};
use entail::picture::show::{self, Picture};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::BTreeMap;
use std::time::SystemTime;

fn made() -> String {
    format!(
        "Made {} by entail {}.",
        entail::picture::utc(SystemTime::now()),
        env!("CARGO_PKG_VERSION")
    )
}

fn both(picture: Picture) -> (String, String) {
    let page = picture.to_html(&made());
    (picture.svg, page)
}

/// `entail report`: `inputs` are `(label, name, text)` with the text of a
/// score report or of judge results (JSONL); `tasks` the JSON texts of SLR
/// task lines that place judge results by level.
#[pyfunction]
pub fn report_page(inputs: Vec<(String, String, String)>, tasks: Vec<String>) -> PyResult<String> {
    let bad = |m: String| PyValueError::new_err(m);
    let mut levels_of = Vec::new();
    for (i, line) in tasks.iter().enumerate() {
        let task: TaskLevel =
            serde_json::from_str(line).map_err(|e| bad(format!("task {}: {e}", i + 1)))?;
        levels_of.push(task);
    }
    let levels: BTreeMap<String, u32> = report::levels(&levels_of);
    let mut read = Vec::new();
    for (label, file, text) in inputs {
        let results = Results::read(&text, &levels).map_err(|e| bad(format!("{file}: {}", e.0)))?;
        read.push(Input {
            label,
            file,
            results,
        });
    }
    let about = About {
        when: entail::picture::utc(SystemTime::now()),
        version: env!("CARGO_PKG_VERSION").to_string(),
    };
    report::report(&read, &about).map_err(|e| bad(e.0))
}

/// `entail show` of an SLR task (`kind = "slr"`) or a LogiConBench sample
/// (`"logicon"`) given as JSON text: `(svg, html)`.
#[pyfunction]
#[pyo3(signature = (kind, item, unlabelled=false))]
pub fn show_item(kind: &str, item: &str, unlabelled: bool) -> PyResult<(String, String)> {
    let bad = |m: String| PyValueError::new_err(m);
    let picture = match kind {
        "slr" => {
            let task = serde_json::from_str(item).map_err(|e| bad(format!("task: {e}")))?;
            show::slr_task(&task, unlabelled)
        }
        "logicon" => {
            let sample = serde_json::from_str(item).map_err(|e| bad(format!("sample: {e}")))?;
            show::logicon_sample(&sample)
        }
        other => return Err(bad(format!("unknown kind {other:?} (slr or logicon)"))),
    };
    picture.map(both).map_err(|e| bad(e.0))
}

/// `entail show DIR [--answer FILE]` of a LogicGraph instance directory;
/// `answer` is `(name, text)`. `(svg, html)`; the prover runs without the GIL.
#[pyfunction]
#[pyo3(signature = (dir, answer=None, timeout=10.0))]
pub fn show_logicgraph(
    py: Python<'_>,
    dir: String,
    answer: Option<(String, String)>,
    timeout: f64,
) -> PyResult<(String, String)> {
    let timeout = crate::seconds(timeout, "timeout")?;
    py.detach(move || {
        let answer = answer.as_ref().map(|(f, t)| (f.as_str(), t.as_str()));
        show::logicgraph_instance(std::path::Path::new(&dir), answer, timeout).map(both)
    })
    .map_err(|e| PyValueError::new_err(e.0))
}

//! `entail.fol`: three-way answers on FOLIO-notation programs.

use crate::value;
use entail::prove::{ProveOptions, Prover, ThreeWayError, ThreeWayReport};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::cell::RefCell;

thread_local! {
    /// One prover per thread, kept between calls: its Z3 context costs
    /// milliseconds to make and microseconds to reuse.
    static PROVER: RefCell<Option<(ProveOptions, Prover)>> = const { RefCell::new(None) };
}

fn options(timeout: Option<f64>, countermodels: bool) -> PyResult<ProveOptions> {
    Ok(ProveOptions {
        timeout: timeout.map(|t| crate::seconds(t, "timeout")).transpose()?,
        countermodels,
    })
}

/// The three-way report on one program (`program` text, or `premises`
/// and `conclusion`), as `entail prove --three-way --json` prints it.
#[pyfunction]
#[pyo3(signature = (program, premises, conclusion, timeout, countermodels))]
pub fn fol_solve(
    py: Python<'_>,
    program: Option<String>,
    premises: Option<Vec<String>>,
    conclusion: Option<String>,
    timeout: Option<f64>,
    countermodels: bool,
) -> PyResult<Py<PyAny>> {
    let options = options(timeout, countermodels)?;
    let value = py.detach(move || {
        let read = match (&program, &premises, &conclusion) {
            (Some(text), _, _) => entail::syntax::fol::parse_program(text),
            (None, Some(p), Some(c)) => entail::syntax::fol::parse_parts(p, c),
            _ => return Err("give a program, or premises and a conclusion".to_string()),
        };
        let mut report = match read {
            Ok(program) => PROVER.with(|cell| {
                let mut slot = cell.borrow_mut();
                if slot.as_ref().is_some_and(|(o, _)| *o != options) {
                    *slot = None;
                }
                let (_, prover) =
                    slot.get_or_insert_with(|| (options.clone(), Prover::new(options.clone())));
                entail::prove::three_way_answer(prover, &program)
            }),
            Err(e) => ThreeWayReport::failed(ThreeWayError::from_syntax(&e)),
        };
        if !options.countermodels {
            for d in [&mut report.conclusion, &mut report.negation]
                .into_iter()
                .flatten()
            {
                d.countermodel = None;
            }
        }
        serde_json::to_value(&report).map_err(|e| e.to_string())
    });
    match value {
        Ok(v) => value::to_python(py, &v),
        Err(m) => Err(PyValueError::new_err(m)),
    }
}

/// `entail prove --three-way --batch` on JSONL `lines`: one result per
/// line, in order.
#[pyfunction]
#[pyo3(signature = (lines, timeout, countermodels, workers))]
pub fn fol_solve_batch(
    py: Python<'_>,
    lines: Vec<String>,
    timeout: Option<f64>,
    countermodels: bool,
    workers: usize,
) -> PyResult<Py<PyAny>> {
    let options = options(timeout, countermodels)?;
    let values = py.detach(move || -> Result<Vec<serde_json::Value>, String> {
        let input = lines
            .iter()
            .map(|l| l.replace('\n', " "))
            .collect::<Vec<_>>()
            .join("\n");
        let mut out = Vec::new();
        entail::prove::run_three_way_batch(&options, workers, input.as_bytes(), &mut out, &|| {})
            .map_err(|e| e.to_string())?;
        String::from_utf8_lossy(&out)
            .lines()
            .map(|l| serde_json::from_str(l).map_err(|e| e.to_string()))
            .collect()
    });
    match values {
        Ok(v) => value::to_python(py, &serde_json::Value::Array(v)),
        Err(m) => Err(PyValueError::new_err(m)),
    }
}

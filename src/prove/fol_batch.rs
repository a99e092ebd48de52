//! Three-way answers for a JSONL batch of programs: one line in, one line
//! out, in input order, in one process. Each worker thread keeps one
//! [`Prover`] (one Z3 context) for all the lines it takes.
//!
//! An input line is `{"id", "program"}` (program text, see
//! [`crate::syntax::fol`]) or `{"id", "premises", "conclusion"}` (also
//! FOLIO's `premises-FOL` / `conclusion-FOL`), with an optional gold
//! `label`. The output line is `{"id", "answer", …}` with the evidence of
//! [`ThreeWayReport`], and `label` and `correct` when a label was given. A
//! line that cannot be read gets `"answer": "Error"` with the reason; the
//! batch goes on.

use super::{Answer, ProveOptions, Prover, ThreeWayError, ThreeWayReport};
use crate::syntax::fol::{self, Program};
use crate::syntax::jsonl::{json_type, panic_message, read_line, read_object_line};
use serde_json::{Map, Value};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A chunk ends after this many lines (answers are written chunk by chunk).
const CHUNK_LINES: usize = 1024;

/// Totals over a batch.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ThreeWaySummary {
    /// Lines read.
    pub lines: usize,
    /// Answers `True`, `False`, `Uncertain`, `Error`.
    pub r#true: usize,
    /// …
    pub r#false: usize,
    /// …
    pub uncertain: usize,
    /// …
    pub error: usize,
    /// `Uncertain` answers with some check undecided (a timeout).
    pub unsettled: usize,
    /// Lines with a gold label.
    pub labelled: usize,
    /// Of those, the lines answered as labelled.
    pub correct: usize,
}

impl ThreeWaySummary {
    fn add(&mut self, report: &ThreeWayReport, correct: Option<bool>) {
        match report.answer {
            Answer::True => self.r#true += 1,
            Answer::False => self.r#false += 1,
            Answer::Uncertain => self.uncertain += 1,
            Answer::Error => self.error += 1,
        }
        if report.answer == Answer::Uncertain && !report.settled {
            self.unsettled += 1;
        }
        if let Some(c) = correct {
            self.labelled += 1;
            self.correct += c as usize;
        }
    }
}

/// One input line, read.
struct Item {
    id: Option<Value>,
    raw_id: Option<String>,
    label: Option<String>,
    program: Result<Program, ThreeWayError>,
}

/// The program of a batch line or Python call: `program` text, or
/// `premises` and `conclusion`.
pub fn program_of(object: &Map<String, Value>) -> Result<Program, ThreeWayError> {
    match object.get("program") {
        Some(Value::String(text)) => {
            fol::parse_program(text).map_err(|e| ThreeWayError::from_syntax(&e))
        }
        Some(other) => Err(ThreeWayError::new(
            "input",
            format!("\"program\" is {}, not a string", json_type(other)),
        )),
        None => {
            let strings = |v: &Value| -> Option<Vec<String>> {
                match v {
                    Value::Array(items) => items
                        .iter()
                        .map(|i| i.as_str().map(str::to_string))
                        .collect(),
                    Value::String(s) => Some(
                        s.lines()
                            .filter(|l| !l.trim().is_empty())
                            .map(str::to_string)
                            .collect(),
                    ),
                    _ => None,
                }
            };
            let premises = ["premises", "premises-FOL", "premises_fol"]
                .iter()
                .find_map(|k| object.get(*k))
                .ok_or_else(|| {
                    ThreeWayError::new(
                        "input",
                        "no \"program\" and no \"premises\" field: give the program text, or premises and conclusion",
                    )
                })?;
            let premises = strings(premises).ok_or_else(|| {
                ThreeWayError::new("input", "\"premises\" must be a list of strings")
            })?;
            let conclusion = ["conclusion", "conclusion-FOL", "conclusion_fol"]
                .iter()
                .find_map(|k| object.get(*k))
                .ok_or_else(|| ThreeWayError::new("input", "no \"conclusion\" field"))?;
            let Value::String(conclusion) = conclusion else {
                return Err(ThreeWayError::new(
                    "input",
                    format!("\"conclusion\" is {}, not a string", json_type(conclusion)),
                ));
            };
            fol::parse_parts(&premises, conclusion).map_err(|e| ThreeWayError::from_syntax(&e))
        }
    }
}

fn item_of(bytes: &[u8], length: usize) -> Item {
    match read_object_line(bytes, length) {
        Ok((object, raw_id)) => {
            let label = match object.get("label").or_else(|| object.get("answer")) {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Bool(b)) => Some(if *b { "True" } else { "False" }.into()),
                _ => None,
            };
            Item {
                id: object.get("id").cloned(),
                raw_id,
                label,
                program: program_of(&object),
            }
        }
        Err((id, message)) => Item {
            id,
            raw_id: None,
            label: None,
            program: Err(ThreeWayError::new("input", message)),
        },
    }
}

/// The report on one program by `prover`, a panic caught as `Error`.
pub fn answer(prover: &mut Prover, program: &Program) -> ThreeWayReport {
    catch_unwind(AssertUnwindSafe(|| prover.three_way(program))).unwrap_or_else(|panic| {
        ThreeWayReport::failed(ThreeWayError::new("check", panic_message(panic.as_ref())))
    })
}

/// The output line of one item.
fn line_of(item: &Item, report: &ThreeWayReport) -> (String, Option<bool>) {
    let id = item
        .raw_id
        .clone()
        .unwrap_or_else(|| serde_json::to_string(&item.id).unwrap_or_else(|_| "null".into()));
    let mut head = format!("{{\"id\":{id}");
    let mut correct = None;
    if let Some(label) = &item.label {
        let gold = Answer::from_label(label);
        correct = gold.map(|g| g == report.answer);
        head.push_str(&format!(
            ",\"label\":{},\"correct\":{}",
            serde_json::to_string(label).unwrap_or_default(),
            correct.map_or("null".to_string(), |c| c.to_string())
        ));
    }
    let body = serde_json::to_string(report).unwrap_or_else(|e| {
        format!("{{\"answer\":\"Error\",\"error\":{{\"kind\":\"check\",\"message\":\"cannot serialise: {e}\"}}}}")
    });
    (format!("{head},{}", &body[1..]), correct)
}

/// Answers every line of `input` and writes one JSON line per input line
/// to `output`, in order, on `workers` threads. Only I/O errors stop it.
/// `on_done` is called once per finished line (for a progress bar).
pub fn run_three_way_batch(
    options: &ProveOptions,
    workers: usize,
    mut input: impl BufRead,
    mut output: impl Write,
    on_done: &(dyn Fn() + Sync),
) -> std::io::Result<ThreeWaySummary> {
    let mut summary = ThreeWaySummary::default();
    let mut buffer = Vec::new();
    let mut chunk = Vec::new();
    loop {
        let length = read_line(&mut input, &mut buffer)?;
        if let Some(length) = length {
            summary.lines += 1;
            chunk.push(item_of(&buffer, length));
        }
        let end = length.is_none();
        if !chunk.is_empty() && (end || chunk.len() >= CHUNK_LINES) {
            let reports = answer_chunk(options, workers, &chunk, on_done);
            for (item, report) in chunk.drain(..).zip(reports) {
                let (line, correct) = line_of(&item, &report);
                summary.add(&report, correct);
                writeln!(output, "{line}")?;
            }
        }
        if end {
            break;
        }
    }
    output.flush()?;
    Ok(summary)
}

/// The reports of one chunk, in order.
fn answer_chunk(
    options: &ProveOptions,
    workers: usize,
    items: &[Item],
    on_done: &(dyn Fn() + Sync),
) -> Vec<ThreeWayReport> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<ThreeWayReport>>> = Mutex::new(vec![None; items.len()]);
    let work = || {
        let mut prover: Option<Prover> = None;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            let report = match &item.program {
                Ok(program) => {
                    let prover = prover.get_or_insert_with(|| Prover::new(options.clone()));
                    let mut r = answer(prover, program);
                    if !options.countermodels {
                        for d in [&mut r.conclusion, &mut r.negation].into_iter().flatten() {
                            d.countermodel = None;
                        }
                    }
                    r
                }
                Err(e) => ThreeWayReport::failed(e.clone()),
            };
            done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(report);
            on_done();
        }
    };
    std::thread::scope(|scope| {
        let spawned = (0..workers.max(1).min(items.len().max(1)))
            .filter(|_| {
                std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn_scoped(scope, &work)
                    .is_ok()
            })
            .count();
        if spawned == 0 {
            work();
        }
    });
    done.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                ThreeWayReport::failed(ThreeWayError::new(
                    "check",
                    "internal error (please report it): line not answered",
                ))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_out_per_line_in_in_order_bad_lines_included() {
        let input = concat!(
            r#"{"id": 1, "premises": ["∀x (A(x) → B(x))", "A(max)"], "conclusion": "B(max)", "label": "True"}"#,
            "\n",
            "not json\n",
            r#"{"id": "c", "program": "Premises:\nA(max)\nConclusion:\n¬A(max)"}"#,
            "\n",
            r#"{"id": 4, "premises": ["A(max"], "conclusion": "B(max)"}"#,
            "\n",
        );
        let mut out = Vec::new();
        let summary = run_three_way_batch(
            &ProveOptions::default(),
            2,
            input.as_bytes(),
            &mut out,
            &|| {},
        )
        .expect("runs");
        let text = String::from_utf8(out).expect("utf-8");
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("json line"))
            .collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0]["id"], 1);
        assert_eq!(lines[0]["answer"], "True");
        assert_eq!(lines[0]["correct"], true);
        assert_eq!(lines[1]["answer"], "Error");
        assert_eq!(lines[1]["error"]["kind"], "input");
        assert_eq!(lines[2]["id"], "c");
        assert_eq!(lines[2]["answer"], "False");
        assert_eq!(lines[3]["answer"], "Error");
        assert_eq!(lines[3]["error"]["kind"], "syntax");
        assert_eq!(lines[3]["error"]["line"], 1);
        assert_eq!(
            (
                summary.lines,
                summary.r#true,
                summary.r#false,
                summary.error,
                summary.correct
            ),
            (4, 1, 1, 2, 1)
        );
    }
}

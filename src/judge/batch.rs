//! Batch scoring: JSONL in, JSONL out in input order.
//!
//! Every input line gets exactly one output line, whatever its bytes: a
//! score, or an `input` error (invalid UTF-8, not JSON, a missing or
//! mistyped field, an empty or overlong line) that keeps the line's `id`
//! whenever one can be read. The input is scored in chunks, so memory stays
//! bounded however long the file is. Within a chunk, lines are grouped by
//! task so each task's background is parsed once and loaded once per
//! worker; groups run on as many threads as the pool has workers.

use super::{ErrorKind, Judge, JudgeResult, TaskRecord};
use crate::syntax::jsonl::{json_type, panic_message, read_line, read_object_line};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// A chunk ends after this many lines…
const CHUNK_LINES: usize = 4096;
/// …or this many bytes of input.
const CHUNK_BYTES: usize = 64 << 20;

/// The line buffer's capacity kept from one line to the next.
const LINE_BUFFER_KEPT: usize = 1 << 20;

/// Stack for each scoring thread: terms are at most
/// [`crate::syntax::prolog::MAX_DEPTH`] high, and this leaves the engines
/// ample room on top.
const STACK_BYTES: usize = 64 << 20;

/// Totals over a batch.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct BatchSummary {
    /// Lines read.
    pub lines: usize,
    /// Lines that could not be read as a task plus prediction, or whose
    /// task could not be loaded (`input` errors).
    pub malformed: usize,
    /// Fraction of lines with `is_correct`.
    pub accuracy: f64,
    /// Mean `partial_score`.
    pub partial: f64,
    /// Fraction of lines with `syntax_valid`.
    pub syntax: f64,
    /// Lines whose task has a holdout program (the holdout fields are
    /// absent when there are none).
    #[serde(skip_serializing_if = "is_zero")]
    pub holdout_lines: usize,
    /// Mean `holdout_score` over those lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holdout_score: Option<f64>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One input line: what to score, or why it cannot be scored.
enum Line {
    Scorable {
        record: TaskRecord,
        prediction: String,
    },
    Malformed {
        id: Option<Value>,
        message: String,
    },
}

/// Scores every line of `input` (a task record plus `"prediction"`) and
/// writes one JSON result per line to `output`, in input order. Lines are
/// separated by `\n` (a `\r` before it is dropped); a final line without
/// `\n` counts. Only I/O errors on `input` or `output` stop the run.
/// `on_done` is called once per finished line (for a progress bar).
pub fn run_batch(
    judge: &Judge,
    mut input: impl BufRead,
    mut output: impl Write,
    on_done: &(dyn Fn() + Sync),
) -> std::io::Result<BatchSummary> {
    let mut summary = BatchSummary::default();
    let (mut correct, mut partial, mut syntax) = (0usize, 0f64, 0usize);
    let mut held = 0f64;
    let mut buffer = Vec::new();
    let mut chunk = Vec::new();
    let mut raw_ids = Vec::new();
    let mut chunk_bytes = 0;
    loop {
        let length = read_line(&mut input, &mut buffer)?;
        if let Some(length) = length {
            summary.lines += 1;
            let (line, raw_id) = parse_line(&buffer, length);
            chunk.push(line);
            raw_ids.push(raw_id);
            chunk_bytes += buffer.len();
            // A long line's buffer would otherwise stay allocated beside
            // the answers it is judged with.
            if buffer.capacity() > LINE_BUFFER_KEPT {
                buffer = Vec::new();
            }
        }
        let end = length.is_none();
        if !chunk.is_empty() && (end || chunk.len() >= CHUNK_LINES || chunk_bytes >= CHUNK_BYTES) {
            let results = score_chunk(judge, std::mem::take(&mut chunk), on_done);
            for (result, raw_id) in results.into_iter().zip(raw_ids.drain(..)) {
                correct += result.is_correct as usize;
                partial += result.partial_score;
                syntax += result.syntax_valid as usize;
                if let Some(score) = result.holdout_score {
                    summary.holdout_lines += 1;
                    held += score;
                }
                summary.malformed += (result.error_kind == Some(ErrorKind::Input)) as usize;
                let line = result_line(result, raw_id).map_err(std::io::Error::other)?;
                writeln!(output, "{line}")?;
            }
            chunk_bytes = 0;
        }
        if end {
            break;
        }
    }
    if summary.lines > 0 {
        let n = summary.lines as f64;
        summary.accuracy = correct as f64 / n;
        summary.partial = partial / n;
        summary.syntax = syntax as f64 / n;
    }
    if summary.holdout_lines > 0 {
        summary.holdout_score = Some(held / summary.holdout_lines as f64);
    }
    output.flush()?;
    Ok(summary)
}

/// The JSON line of `result`, with its `id` written as the input wrote it.
fn result_line(mut result: JudgeResult, raw_id: Option<String>) -> serde_json::Result<String> {
    let Some(raw_id) = raw_id.filter(|_| result.id.is_some()) else {
        return serde_json::to_string(&result);
    };
    let id = result.id.take();
    let line = serde_json::to_string(&result)?;
    // `id` is the first field of a result.
    match line.strip_prefix(r#"{"id":null"#) {
        Some(rest) => Ok(format!(r#"{{"id":{raw_id}{rest}"#)),
        None => {
            result.id = id;
            serde_json::to_string(&result)
        }
    }
}

/// Reads one line of `length` bytes, of which `bytes` were kept, and the
/// JSON text of its `id` when that is a number (written back as it came).
fn parse_line(bytes: &[u8], length: usize) -> (Line, Option<String>) {
    let mut raw_id = None;
    let line = parse_line_into(bytes, length, &mut raw_id);
    (line, raw_id)
}

fn parse_line_into(bytes: &[u8], length: usize, raw_id: &mut Option<String>) -> Line {
    let malformed = |id, message: String| Line::Malformed { id, message };
    let mut object = match read_object_line(bytes, length) {
        Ok((object, raw)) => {
            *raw_id = raw;
            object
        }
        Err((id, message)) => return malformed(id, message),
    };
    let id = object.get("id").cloned();
    let prediction = match object.remove("prediction") {
        Some(Value::String(prediction)) => prediction,
        Some(other) => {
            let message = format!("\"prediction\" is {}, not a string", json_type(&other));
            return malformed(id, message);
        }
        None => return malformed(id, "no \"prediction\" field".into()),
    };
    match serde_json::from_value::<TaskRecord>(Value::Object(object)) {
        Ok(record) => Line::Scorable { record, prediction },
        Err(e) => malformed(id, format!("bad task record: {e}")),
    }
}

/// Lines of one task: (index in the chunk, prediction, id).
type Group = (TaskRecord, Vec<(usize, String, Option<Value>)>);

/// Scores one chunk of lines; the results are in line order.
fn score_chunk(judge: &Judge, lines: Vec<Line>, on_done: &(dyn Fn() + Sync)) -> Vec<JudgeResult> {
    let mut results: Vec<Option<JudgeResult>> = Vec::with_capacity(lines.len());
    // Lines of the same task, keyed by the task's JSON (program and labels).
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for (index, line) in lines.into_iter().enumerate() {
        match line {
            Line::Scorable { record, prediction } => {
                results.push(None);
                let key = serde_json::to_string(&(
                    &record.validation_program,
                    &record.evaluation_config,
                    &record.holdout_program,
                ))
                .unwrap_or_default();
                let id = record.id.clone();
                groups
                    .entry(key)
                    .or_insert_with(|| (record, Vec::new()))
                    .1
                    .push((index, prediction, id));
            }
            Line::Malformed { id, message } => {
                results.push(Some(JudgeResult::failed(
                    id,
                    false,
                    ErrorKind::Input,
                    message,
                )));
                on_done();
            }
        }
    }
    let queue = Mutex::new(groups.into_values().collect::<Vec<_>>());
    let done = Mutex::new(results);
    let work = || loop {
        let Some((record, items)) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop() else {
            break;
        };
        let task = catch_unwind(AssertUnwindSafe(|| judge.task(&record)));
        for (index, prediction, id) in items {
            let mut result = match &task {
                Ok(Ok(task)) => catch_unwind(AssertUnwindSafe(|| task.score(&prediction)))
                    .unwrap_or_else(|panic| {
                        let message = panic_message(panic.as_ref());
                        JudgeResult::failed(None, false, ErrorKind::Internal, message)
                    }),
                Ok(Err(e)) => JudgeResult::failed(None, false, ErrorKind::Input, e.to_string()),
                Err(panic) => {
                    let message = panic_message(panic.as_ref());
                    JudgeResult::failed(None, false, ErrorKind::Internal, message)
                }
            };
            result.id = id;
            done.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(result);
            on_done();
        }
    };
    std::thread::scope(|scope| {
        let threads = judge.config().workers.max(1);
        let spawned = (0..threads)
            .filter(|_| {
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
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
        .map(|result| {
            result.unwrap_or_else(|| {
                let message = "internal error (please report it): line not scored".to_string();
                JudgeResult::failed(None, false, ErrorKind::Internal, message)
            })
        })
        .collect()
}

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
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// The longest line read; the rest of a longer line is skipped unread and
/// the line reported as an `input` error.
const MAX_LINE_BYTES: usize = 16 << 20;

/// A chunk ends after this many lines…
const CHUNK_LINES: usize = 4096;
/// …or this many bytes of input.
const CHUNK_BYTES: usize = 64 << 20;

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
    let mut chunk_bytes = 0;
    loop {
        let length = read_line(&mut input, &mut buffer)?;
        if let Some(length) = length {
            summary.lines += 1;
            chunk.push(parse_line(&buffer, length));
            chunk_bytes += buffer.len();
        }
        let end = length.is_none();
        if !chunk.is_empty() && (end || chunk.len() >= CHUNK_LINES || chunk_bytes >= CHUNK_BYTES) {
            for result in score_chunk(judge, std::mem::take(&mut chunk), on_done) {
                correct += result.is_correct as usize;
                partial += result.partial_score;
                syntax += result.syntax_valid as usize;
                if let Some(score) = result.holdout_score {
                    summary.holdout_lines += 1;
                    held += score;
                }
                summary.malformed += (result.error_kind == Some(ErrorKind::Input)) as usize;
                let line = serde_json::to_string(&result).map_err(std::io::Error::other)?;
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

/// Reads the next line into `buffer` without its `\n` (or `\r\n`), keeping
/// at most [`MAX_LINE_BYTES`] of it. Returns the line's full length, or
/// `None` at the end of input.
fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<Option<usize>> {
    buffer.clear();
    let mut length = 0;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let content = newline.unwrap_or(available.len());
        let room = MAX_LINE_BYTES.saturating_sub(buffer.len());
        buffer.extend_from_slice(&available[..content.min(room)]);
        length += content;
        input.consume(newline.map_or(content, |at| at + 1));
        if newline.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if length <= MAX_LINE_BYTES && buffer.last() == Some(&b'\r') {
        buffer.pop();
        length -= 1;
    }
    Ok(Some(length))
}

/// Reads one line of `length` bytes, of which `bytes` were kept.
fn parse_line(bytes: &[u8], length: usize) -> Line {
    let malformed = |id, message: String| Line::Malformed { id, message };
    if length > MAX_LINE_BYTES {
        let id = salvage_id(&String::from_utf8_lossy(bytes));
        let message = format!("line of {length} bytes is longer than {MAX_LINE_BYTES}");
        return malformed(id, message);
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let id = salvage_id(&String::from_utf8_lossy(bytes));
            let message = format!("invalid UTF-8 at byte {}", e.valid_up_to() + 1);
            return malformed(id, message);
        }
    };
    if text.trim().is_empty() {
        return malformed(None, "empty line".into());
    }
    let mut object = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(object)) => object,
        Ok(other) => {
            let message = format!("expected a JSON object, found {}", json_type(&other));
            return malformed(None, message);
        }
        Err(e) => return malformed(salvage_id(text), format!("not JSON: {e}")),
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

/// What kind of JSON value `value` is, for messages.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The `id` of a line that is not a whole JSON object (cut short, or broken
/// after its `id`): the object's entries are read in order up to the first
/// error, and the `id` kept if it came before.
fn salvage_id(text: &str) -> Option<Value> {
    struct Id<'a>(&'a mut Option<Value>);
    impl<'de> DeserializeSeed<'de> for Id<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_map(self)
        }
    }
    impl<'de> Visitor<'de> for Id<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == "id" {
                    *self.0 = Some(map.next_value()?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(())
        }
    }
    let mut id = None;
    let _ = Id(&mut id).deserialize(&mut serde_json::Deserializer::from_str(text));
    id
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("panic");
    format!("internal error (please report it): {text}")
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

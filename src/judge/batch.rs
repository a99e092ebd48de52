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
use crate::syntax::json::object_entries;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};
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

/// Reads one line of `length` bytes, of which `bytes` were kept, and the
/// JSON text of its `id` when that is a number (written back as it came).
fn parse_line(bytes: &[u8], length: usize) -> (Line, Option<String>) {
    let mut raw_id = None;
    let line = parse_line_into(bytes, length, &mut raw_id);
    (line, raw_id)
}

fn parse_line_into(bytes: &[u8], length: usize, raw_id: &mut Option<String>) -> Line {
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
    // A byte order mark (an editor's, on the first line) is not JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return malformed(None, "empty line".into());
    }
    let text = replace_lone_surrogates(text);
    let mut object = match read_object(&text) {
        Ok(Ok(object)) => {
            // A number is written back as its text: no Rust number holds
            // every integer, and `1e3` would come back as `1000.0`.
            if let Some(Value::Number(_)) = object.get("id") {
                *raw_id = object_entries(&text)
                    .and_then(|entries| entries.into_iter().find(|(key, _)| key == "id"))
                    .map(|(_, raw)| raw.to_string());
            }
            object
        }
        Ok(Err(found)) => {
            return malformed(None, format!("expected a JSON object, found {found}"));
        }
        Err(e) => return malformed(salvage_id(&text), format!("not JSON: {e}")),
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

/// `text` with every `\uXXXX` escape of a lone UTF-16 surrogate replaced
/// by `\ufffd`: Python's `json.dumps` writes one for a string cut inside an
/// emoji (a generation stopped at its token limit), which JSON parsers in
/// strict mode refuse. Python reading the line would keep the surrogate and
/// fail on it when writing UTF-8; the replacement character is what its
/// `errors="replace"` gives. An escaped backslash followed by `uXXXX` is
/// text, and left alone.
fn replace_lone_surrogates(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("\\u") {
        return text.into();
    }
    let bytes = text.as_bytes();
    // The UTF-16 unit of a `\uXXXX` escape at `at`, if there is one.
    let unit = |at: usize| -> Option<u16> {
        let hex = text.get(at + 2..at + 6)?;
        (bytes.get(at + 1) == Some(&b'u') && hex.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u16::from_str_radix(hex, 16).ok())
            .flatten()
    };
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' || i + 1 >= bytes.len() {
            i += 1;
            continue;
        }
        let Some(first) = unit(i) else {
            // `\\`, `\"`, `\n`…: skip the escaped character.
            i += 2;
            continue;
        };
        let high = (0xD800..0xDC00).contains(&first);
        let low = (0xDC00..0xE000).contains(&first);
        let paired = high
            && bytes.get(i + 6) == Some(&b'\\')
            && unit(i + 6).is_some_and(|next| (0xDC00..0xE000).contains(&next));
        if paired {
            i += 12;
        } else if high || low {
            out.push_str(&text[copied..i]);
            out.push_str("\\ufffd");
            i += 6;
            copied = i;
        } else {
            i += 6;
        }
    }
    if copied == 0 {
        return text.into();
    }
    out.push_str(&text[copied..]);
    out.into()
}

/// Reads a JSON line: its object, refusing a key given twice (which
/// parsers disagree on: Python keeps the last, others the first), or the
/// kind of value it is instead.
fn read_object(text: &str) -> serde_json::Result<Result<Map<String, Value>, &'static str>> {
    struct Line;
    impl<'de> Visitor<'de> for Line {
        type Value = Result<Map<String, Value>, &'static str>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut object = Map::new();
            while let Some(key) = map.next_key::<String>()? {
                if object.contains_key(&key) {
                    return Err(serde::de::Error::custom(format!("key {key:?} given twice")));
                }
                let value = map.next_value()?;
                object.insert(key, value);
            }
            Ok(Ok(object))
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Err("an array"))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Err("null"))
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Err("a boolean"))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Err("a number"))
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Err("a number"))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Err("a number"))
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(Err("a string"))
        }
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = serde::Deserializer::deserialize_any(&mut reader, Line)?;
    reader.end()?;
    Ok(value)
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

//! JSON Lines input as batch commands read it: one line at a time with a
//! bounded buffer, each line one JSON object whose `id` survives even when
//! the rest of the line does not read.

use crate::syntax::json::object_entries;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};
use std::io::BufRead;

/// The longest line read; the rest of a longer line is skipped unread and
/// the line reported as an `input` error.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// Reads the next line into `buffer` without its `\n` (or `\r\n`), keeping
/// at most [`MAX_LINE_BYTES`] of it. Returns the line's full length, or
/// `None` at the end of input.
pub fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<Option<usize>> {
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

/// Reads one JSONL line of `length` bytes, of which `bytes` were kept: its
/// object, and the JSON text of its `id` when that is a number (written
/// back as it came); or the `id` salvaged and why the line is unreadable
/// (too long, invalid UTF-8, empty, not JSON, not an object, a key given
/// twice).
pub fn read_object_line(
    bytes: &[u8],
    length: usize,
) -> Result<(Map<String, Value>, Option<String>), (Option<Value>, String)> {
    if length > MAX_LINE_BYTES {
        let id = salvage_id(&String::from_utf8_lossy(bytes));
        let message = format!("line of {length} bytes is longer than {MAX_LINE_BYTES}");
        return Err((id, message));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let id = salvage_id(&String::from_utf8_lossy(bytes));
            let message = format!("invalid UTF-8 at byte {}", e.valid_up_to() + 1);
            return Err((id, message));
        }
    };
    // A byte order mark (an editor's, on the first line) is not JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err((None, "empty line".into()));
    }
    let text = replace_lone_surrogates(text);
    match read_object(&text) {
        Ok(Ok(object)) => {
            // A number is written back as its text: no Rust number holds
            // every integer, and `1e3` would come back as `1000.0`.
            let mut raw_id = None;
            if let Some(Value::Number(_)) = object.get("id") {
                raw_id = object_entries(&text)
                    .and_then(|entries| entries.into_iter().find(|(key, _)| key == "id"))
                    .map(|(_, raw)| raw.to_string());
            }
            Ok((object, raw_id))
        }
        Ok(Err(found)) => Err((None, format!("expected a JSON object, found {found}"))),
        Err(e) => Err((salvage_id(&text), format!("not JSON: {e}"))),
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
pub fn json_type(value: &Value) -> &'static str {
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
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("panic");
    format!("internal error (please report it): {text}")
}

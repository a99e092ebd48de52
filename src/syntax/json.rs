//! The top-level entries of a JSON object as the text that wrote them.
//!
//! Reading a value into `serde_json::Value` loses what no Rust number holds
//! (an integer id beyond 64 bits becomes a float) and rewrites the rest
//! (`1e3` comes back as `1000.0`). Callers that must give a value back as
//! it came (a batch line's `id`) or look at a value's kind without reading
//! it (a column's type) take its text from here instead.

/// The entries of the JSON object `text`, in order: each key (unescaped)
/// and its value's JSON text, trimmed. `None` if `text` is not one JSON
/// object (the text of values is only delimited here, not validated).
pub fn object_entries(text: &str) -> Option<Vec<(String, &str)>> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    at = skip_space(bytes, at + 1);
    let mut entries = Vec::new();
    if bytes.get(at) == Some(&b'}') {
        return (skip_space(bytes, at + 1) == bytes.len()).then_some(entries);
    }
    loop {
        let key_end = value_end(bytes, at)?;
        let key: String = serde_json::from_str(text.get(at..key_end)?).ok()?;
        at = skip_space(bytes, key_end);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        let start = skip_space(bytes, at + 1);
        let end = value_end(bytes, start)?;
        entries.push((key, text.get(start..end)?));
        at = skip_space(bytes, end);
        match bytes.get(at) {
            Some(b',') => at = skip_space(bytes, at + 1),
            Some(b'}') => {
                return (skip_space(bytes, at + 1) == bytes.len()).then_some(entries);
            }
            _ => return None,
        }
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|b| b" \t\r\n".contains(b)) {
        at += 1;
    }
    at
}

/// Where the JSON value starting at `at` ends: after a string's closing
/// quote, after an object's or array's closing bracket, or after a
/// scalar's last byte.
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match *bytes.get(i)? {
                    b'"' => {
                        i = string_end(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let length = bytes[at..]
                .iter()
                .position(|b| b",:}] \t\r\n".contains(b))
                .unwrap_or(bytes.len() - at);
            (length > 0).then_some(at + length)
        }
    }
}

/// After the closing quote of the string starting at `at`.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    loop {
        match *bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::object_entries;

    #[test]
    fn entries_keep_their_text() {
        let text = r#" {"id": 123456789012345678901234567890, "a\"b": "x,}\"y",
            "o": {"k": [1, {"z": "]"}]}, "f":1e3,"n":null} "#;
        let entries = object_entries(text).unwrap();
        assert_eq!(
            entries,
            [
                ("id".to_string(), "123456789012345678901234567890"),
                ("a\"b".to_string(), r#""x,}\"y""#),
                ("o".to_string(), r#"{"k": [1, {"z": "]"}]}"#),
                ("f".to_string(), "1e3"),
                ("n".to_string(), "null"),
            ]
        );
        assert_eq!(object_entries("{}").unwrap(), []);
        for bad in [
            "",
            "[1]",
            "{\"a\" 1}",
            "{\"a\": 1",
            "{\"a\": 1,}",
            "{\"a\": 1} x",
            "{\"a\": \"1}",
        ] {
            assert!(object_entries(bad).is_none(), "{bad}");
        }
    }
}

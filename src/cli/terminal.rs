//! What `judge --batch` prints when its results would go to a terminal: one
//! short row per answer instead of a JSON object, so a person running the
//! quick start reads verdicts rather than raw records. Piped output and
//! `--output` files stay JSONL.

use std::io::Write;

/// A writer that takes the batch's JSONL and writes a row per line.
pub(crate) struct JudgeTable<W: Write> {
    out: W,
    pending: Vec<u8>,
    line: usize,
}

impl<W: Write> JudgeTable<W> {
    pub(crate) fn new(out: W) -> Self {
        JudgeTable {
            out,
            pending: Vec::new(),
            line: 0,
        }
    }

    fn row(&mut self, record: &[u8]) -> std::io::Result<()> {
        if self.line == 0 {
            writeln!(self.out, "line  {:<22}  score   verdict", "id")?;
        }
        self.line += 1;
        let value: serde_json::Value = serde_json::from_slice(record).unwrap_or_default();
        writeln!(self.out, "{}", row(self.line, &value))?;
        self.out.flush()
    }
}

/// One answer's row: its line, id, partial score and verdict (`correct`,
/// `wrong`, or the error kind and the start of the error).
fn row(line: usize, value: &serde_json::Value) -> String {
    let id = match value.get("id") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Null) | None => "-".to_string(),
        Some(other) => other.to_string(),
    };
    let score = value
        .get("partial_score")
        .and_then(|s| s.as_f64())
        .unwrap_or(0.0);
    let verdict = match value.get("error_kind").and_then(|k| k.as_str()) {
        Some(kind) => {
            let error = value.get("error").and_then(|e| e.as_str()).unwrap_or("");
            let first = error.lines().next().unwrap_or("");
            let mut error: String = first.chars().take(56).collect();
            if first.chars().count() > 56 {
                error.push('…');
            }
            if error.is_empty() {
                kind.to_string()
            } else {
                format!("{kind}: {error}")
            }
        }
        None if value.get("is_correct").and_then(|c| c.as_bool()) == Some(true) => {
            "correct".to_string()
        }
        None => "wrong".to_string(),
    };
    format!("{line:>4}  {id:<22}  {score:.4}  {verdict}")
}

impl<W: Write> Write for JudgeTable<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut rest = bytes;
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            self.pending.extend_from_slice(&rest[..at]);
            let record = std::mem::take(&mut self.pending);
            self.row(&record)?;
            rest = &rest[at + 1..];
        }
        self.pending.extend_from_slice(rest);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::JudgeTable;
    use std::io::Write;

    #[test]
    fn rows_name_the_line_id_score_and_verdict() {
        let mut table = JudgeTable::new(Vec::new());
        table
            .write_all(
                b"{\"id\":\"a\",\"is_correct\":true,\"partial_score\":1.0}\n\
                  {\"id\":7,\"is_correct\":false,\"partial_score\":0.5}\n\
                  {\"id\":null,\"is_correct\":false,\"partial_score\":0.0,\
                  \"error_kind\":\"input\",\"error\":\"missing field\\nmore\"}\n",
            )
            .unwrap();
        let text = String::from_utf8(table.out).unwrap();
        assert_eq!(
            text,
            "line  id                      score   verdict\n   \
             1  a                       1.0000  correct\n   \
             2  7                       0.5000  wrong\n   \
             3  -                       0.0000  input: missing field\n"
        );
    }
}

//! Positions and syntax errors shared by both parsers.

use std::fmt;

/// A position in source text. Lines and columns count from 1; columns count
/// characters, not bytes, so they match what an editor shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
pub struct Pos {
    /// Byte offset from the start of the text.
    pub offset: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
}

impl Pos {
    /// The position of byte `offset` in `src` (clamped to the end of `src`).
    pub fn of_offset(src: &str, offset: usize) -> Pos {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &src[..offset];
        let line = before.matches('\n').count() as u32 + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = src[line_start..offset].chars().count() as u32 + 1;
        Pos { offset, line, col }
    }
}

/// Positions of increasing offsets in one text, each worked out from the
/// previous one: reading a file's statements in order costs time linear in
/// the file, where [`Pos::of_offset`] for each would cost its length each
/// time (a 1 MB TPTP file took 13 s that way).
#[derive(Debug, Clone)]
pub struct PosCursor {
    last: Pos,
}

impl Default for PosCursor {
    fn default() -> PosCursor {
        PosCursor::new()
    }
}

impl PosCursor {
    /// A cursor at the start of a text.
    pub fn new() -> PosCursor {
        PosCursor {
            last: Pos {
                offset: 0,
                line: 1,
                col: 1,
            },
        }
    }

    /// The position of byte `offset` in `src` (clamped to the end of `src`);
    /// an offset before the last one asked for starts again from the top.
    pub fn at(&mut self, src: &str, offset: usize) -> Pos {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.last.offset {
            self.last = PosCursor::new().last;
        }
        let between = &src[self.last.offset..offset];
        let newlines = between.bytes().filter(|&b| b == b'\n').count();
        let (line, col) = match between.rfind('\n') {
            Some(i) => (
                self.last.line.saturating_add(newlines as u32),
                between[i + 1..].chars().count() as u32 + 1,
            ),
            None => (
                self.last.line,
                self.last.col.saturating_add(between.chars().count() as u32),
            ),
        };
        self.last = Pos { offset, line, col };
        self.last
    }
}

/// A syntax error: where it is and a one-line reason.
///
/// `Display` prints `FILE:LINE:COL: message`, the form editors and CI logs
/// recognise. The file is attached by whoever knows it ([`SyntaxError::in_file`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SyntaxError {
    /// The file name, or `None` until the caller attaches one.
    pub file: Option<String>,
    /// Where the error was detected.
    pub pos: Pos,
    /// One line, lower case, no trailing period.
    pub message: String,
}

impl SyntaxError {
    /// An error at byte `offset` of `src`.
    pub fn at(src: &str, offset: usize, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            file: None,
            pos: Pos::of_offset(src, offset),
            message: message.into(),
        }
    }

    /// The same error, attributed to `file`.
    pub fn in_file(mut self, file: impl Into<String>) -> SyntaxError {
        self.file = Some(file.into());
        self
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.as_deref().unwrap_or("<input>");
        write!(
            f,
            "{}:{}:{}: {}",
            file, self.pos.line, self.pos.col, self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let src = "ab\ncé d\n";
        assert_eq!(
            Pos::of_offset(src, 0),
            Pos {
                offset: 0,
                line: 1,
                col: 1
            }
        );
        assert_eq!(
            Pos::of_offset(src, 3),
            Pos {
                offset: 3,
                line: 2,
                col: 1
            }
        );
        // 'é' is two bytes but one column.
        assert_eq!(
            Pos::of_offset(src, 6),
            Pos {
                offset: 6,
                line: 2,
                col: 3
            }
        );
        assert_eq!(Pos::of_offset(src, 999).line, 3);
        // The cursor agrees with the direct computation at every offset,
        // in order and after going back.
        let mut cursor = PosCursor::new();
        for i in (0..src.len() + 2).chain([1, 0, 5]) {
            assert_eq!(cursor.at(src, i), Pos::of_offset(src, i), "offset {i}");
        }
    }

    #[test]
    fn display_is_file_line_col_message() {
        let e = SyntaxError::at("p.\nq(", 6, "unexpected end of input").in_file("x.in");
        assert_eq!(e.to_string(), "x.in:2:3: unexpected end of input");
    }
}

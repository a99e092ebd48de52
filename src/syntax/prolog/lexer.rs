//! The Prolog tokeniser.
//!
//! logos dispatches on the first character; the bodies of quoted items,
//! numbers and names are scanned by hand in callbacks, because their rules
//! (escapes, `0'c`, digit groups, `/*` inside symbol runs) are not regular in
//! a convenient way. Layout matters in Prolog (`foo(` is functional notation,
//! `foo (` is not; `.` ends a clause only before layout), so [`Lexer`]
//! records whether layout preceded each token.

use logos::Logos;

/// A lexical error: where and why.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct LexError {
    /// Absolute byte offset of the problem, when known better than the token start.
    pub offset: Option<usize>,
    /// The reason; empty means "unexpected character".
    pub message: &'static str,
}

impl LexError {
    fn at(offset: usize, message: &'static str) -> LexError {
        LexError {
            offset: Some(offset),
            message,
        }
    }
}

/// What the logos automaton recognises. The dispatch variants' callbacks
/// return the final variant.
#[derive(Logos, Debug, Clone, PartialEq)]
#[logos(error = LexError)]
enum Raw {
    #[regex(r"[ \t\r\n\x0B\x0C]+")]
    Layout,
    #[regex(r"%[^\n]*")]
    LineComment,
    #[token("/*", block_comment)]
    BlockComment,
    #[regex(r"[a-z]", |lex| Raw::Name(scan_word(lex)))]
    LowerStart,
    #[regex(r"[A-Z_]", |lex| Raw::Var(scan_word(lex)))]
    UpperStart,
    #[regex(r"[^\x00-\x7F]", unicode_start)]
    UnicodeStart,
    #[regex(r"[+\-*/\\^<>=~:.?@#&$]", symbol_run)]
    SymbolStart,
    #[regex(r"[0-9]", number)]
    DigitStart,
    #[token("'", |lex| quoted(lex, '\''))]
    SingleQuote,
    #[token("\"", |lex| quoted(lex, '"'))]
    DoubleQuote,
    #[token("`", |lex| quoted(lex, '`'))]
    BackQuote,
    #[token("!")]
    Cut,
    #[token(";")]
    Semicolon,
    #[token(",")]
    Comma,
    #[token("|")]
    Bar,
    #[token("(")]
    Open,
    #[token(")")]
    Close,
    #[token("[")]
    OpenList,
    #[token("]")]
    CloseList,
    #[token("{")]
    OpenCurly,
    #[token("}")]
    CloseCurly,

    // Produced by callbacks only.
    Name(String),
    Symbol(String),
    Var(String),
    Quoted(String),
    Str(String),
    BackQuoted(String),
    Number(Number),
}

/// A numeric literal as read (always non-negative).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Number {
    /// Fits in `i64`.
    Int(i64),
    /// Decimal digits of a larger integer, no leading zeros.
    Big(String),
    /// A float literal.
    Float(f64),
}

/// A token as the parser sees it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// An unquoted name: letters (`foo`), symbol chars (`:-`), `!` or `;`.
    Name(String),
    /// A quoted name `'...'`, already unescaped.
    Quoted(String),
    /// A variable name.
    Var(String),
    /// A number literal.
    Number(Number),
    /// `"..."`, unescaped.
    Str(String),
    /// `` `...` ``, unescaped.
    BackQuoted(String),
    /// `,`
    Comma,
    /// `|`
    Bar,
    /// `(`
    Open,
    /// `)`
    Close,
    /// `[`
    OpenList,
    /// `]`
    CloseList,
    /// `{`
    OpenCurly,
    /// `}`
    CloseCurly,
    /// The end token: `.` followed by layout, `%` or end of input.
    End,
    /// End of input.
    Eof,
}

/// A token with its start offset and whether layout (or a comment) preceded it.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub layout_before: bool,
}

/// Tokens on demand, so an error late in a file does not hide an earlier one.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    inner: logos::Lexer<'a, Raw>,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src,
            inner: Raw::lexer(src),
        }
    }

    /// The next token; after the end of input, `Eof` forever.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        let mut layout_before = false;
        loop {
            let Some(raw) = self.inner.next() else {
                let end = self.src.len();
                return Ok(Token {
                    tok: Tok::Eof,
                    start: end,
                    layout_before,
                });
            };
            let span = self.inner.span();
            let raw = match raw {
                Ok(raw) => raw,
                Err(mut e) => {
                    if e.message.is_empty() {
                        e.message = "unexpected character";
                    }
                    e.offset.get_or_insert(span.start);
                    return Err(e);
                }
            };
            let tok = match raw {
                Raw::Layout | Raw::LineComment | Raw::BlockComment => {
                    layout_before = true;
                    continue;
                }
                Raw::Symbol(s) if s == "." && self.end_follows(span.end) => Tok::End,
                Raw::Name(s) | Raw::Symbol(s) => Tok::Name(s),
                Raw::Cut => Tok::Name("!".into()),
                Raw::Semicolon => Tok::Name(";".into()),
                Raw::Var(s) => Tok::Var(s),
                Raw::Quoted(s) => Tok::Quoted(s),
                Raw::Str(s) => Tok::Str(s),
                Raw::BackQuoted(s) => Tok::BackQuoted(s),
                Raw::Number(n) => Tok::Number(n),
                Raw::Comma => Tok::Comma,
                Raw::Bar => Tok::Bar,
                Raw::Open => Tok::Open,
                Raw::Close => Tok::Close,
                Raw::OpenList => Tok::OpenList,
                Raw::CloseList => Tok::CloseList,
                Raw::OpenCurly => Tok::OpenCurly,
                Raw::CloseCurly => Tok::CloseCurly,
                // Dispatch variants always return another variant.
                Raw::LowerStart
                | Raw::UpperStart
                | Raw::UnicodeStart
                | Raw::SymbolStart
                | Raw::DigitStart
                | Raw::SingleQuote
                | Raw::DoubleQuote
                | Raw::BackQuote => {
                    return Err(LexError::at(span.start, "internal lexer error"));
                }
            };
            return Ok(Token {
                tok,
                start: span.start,
                layout_before,
            });
        }
    }

    /// The offset of the text not yet read, and that text.
    pub fn rest(&self) -> (usize, &'a str) {
        let end = self.inner.span().end;
        (end, &self.src[end..])
    }

    /// Skips the next `n` bytes of [`Lexer::rest`], which the caller has
    /// read itself (at most its length).
    pub fn skip(&mut self, n: usize) {
        self.inner.bump(n);
    }

    /// Whether a `.` ending at `end` is the end token.
    fn end_follows(&self, end: usize) -> bool {
        match self.src[end..].chars().next() {
            None => true,
            Some(c) => c == '%' || c.is_whitespace(),
        }
    }
}

fn block_comment(lex: &mut logos::Lexer<Raw>) -> Result<(), LexError> {
    match lex.remainder().find("*/") {
        Some(i) => {
            lex.bump(i + 2);
            Ok(())
        }
        None => Err(LexError::at(lex.span().start, "unterminated block comment")),
    }
}

fn is_word_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// The rest of a word whose first character has been matched.
fn scan_word(lex: &mut logos::Lexer<Raw>) -> String {
    let rest = lex.remainder();
    let len = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
    lex.bump(len);
    lex.slice().to_string()
}

/// A word starting with a non-ASCII character: a variable if the letter is
/// upper or title case, an atom for other letters, layout for Unicode spaces.
fn unicode_start(lex: &mut logos::Lexer<Raw>) -> Result<Raw, LexError> {
    let first = lex.slice().chars().next().unwrap_or(' ');
    if first.is_whitespace() {
        return Ok(Raw::Layout);
    }
    if !first.is_alphabetic() {
        return Err(LexError::at(lex.span().start, "unexpected character"));
    }
    let word = scan_word(lex);
    if first.is_uppercase() {
        Ok(Raw::Var(word))
    } else {
        Ok(Raw::Name(word))
    }
}

fn is_symbol_char(c: char) -> bool {
    "+-*/\\^<>=~:.?@#&$".contains(c)
}

/// A run of symbol characters, stopping before a `/*` comment start.
fn symbol_run(lex: &mut logos::Lexer<Raw>) -> Raw {
    let rest = lex.remainder().as_bytes();
    let mut len = 0;
    while len < rest.len() && is_symbol_char(rest[len] as char) {
        if rest[len] == b'/' && rest.get(len + 1) == Some(&b'*') {
            break;
        }
        len += 1;
    }
    lex.bump(len);
    Raw::Symbol(lex.slice().to_string())
}

/// A number literal; the first digit has been matched.
fn number(lex: &mut logos::Lexer<Raw>) -> Result<Raw, LexError> {
    let start = lex.span().start;
    let first = lex.slice().as_bytes()[0];
    let rest = lex.remainder();
    let bytes = rest.as_bytes();
    if first == b'0' && bytes.first() == Some(&b'\'') {
        return char_code(lex);
    }
    if first == b'0' && bytes.len() >= 2 {
        let radix = match bytes[0] {
            b'x' => 16,
            b'o' => 8,
            b'b' => 2,
            _ => 0,
        };
        if radix != 0 {
            let digits = &rest[1..];
            let len = digits
                .find(|c: char| !c.is_digit(radix))
                .unwrap_or(digits.len());
            if len > 0 {
                let text = &digits[..len];
                lex.bump(1 + len);
                return Ok(Raw::Number(integer(&radix_to_decimal(text, radix))));
            }
        }
    }
    // Decimal digits, with SWI-style `_` digit groups (`1_000_000`).
    let mut len = 0;
    loop {
        while len < bytes.len() && bytes[len].is_ascii_digit() {
            len += 1;
        }
        if len + 1 < bytes.len() && bytes[len] == b'_' && bytes[len + 1].is_ascii_digit() {
            len += 1;
            continue;
        }
        break;
    }
    let mut is_float = false;
    if len + 1 < bytes.len() && bytes[len] == b'.' && bytes[len + 1].is_ascii_digit() {
        is_float = true;
        len += 1;
        while len < bytes.len() && bytes[len].is_ascii_digit() {
            len += 1;
        }
    }
    // An exponent only counts when digits follow it; `1e` is `1` then `e`.
    if len < bytes.len() && (bytes[len] == b'e' || bytes[len] == b'E') {
        let mut k = len + 1;
        if k < bytes.len() && (bytes[k] == b'+' || bytes[k] == b'-') {
            k += 1;
        }
        if k < bytes.len() && bytes[k].is_ascii_digit() {
            while k < bytes.len() && bytes[k].is_ascii_digit() {
                k += 1;
            }
            is_float = true;
            len = k;
        }
    }
    lex.bump(len);
    let text: String = lex.slice().chars().filter(|&c| c != '_').collect();
    if is_float {
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Raw::Number(Number::Float(f))),
            _ => Err(LexError::at(start, "float literal out of range")),
        }
    } else {
        Ok(Raw::Number(integer(&text)))
    }
}

/// `0'c`: the code of one (possibly escaped) character.
fn char_code(lex: &mut logos::Lexer<Raw>) -> Result<Raw, LexError> {
    let start = lex.span().start;
    let rest = &lex.remainder()[1..];
    let mut chars = rest.chars();
    let (code, len) = match chars.next() {
        None => return Err(LexError::at(start, "unexpected end of file after 0'")),
        // `0'''` is the quote character written as ISO requires; SWI also
        // accepts a single quote, `0''`.
        Some('\'') => (39, if rest[1..].starts_with('\'') { 2 } else { 1 }),
        Some('\\') => match escape(rest, 0, start + 2)? {
            (Some(c), len) => (c as u32, len),
            (None, _) => {
                return Err(LexError::at(
                    start + 2,
                    "line continuation in character code",
                ))
            }
        },
        Some(c) => (c as u32, c.len_utf8()),
    };
    lex.bump(1 + len);
    Ok(Raw::Number(Number::Int(i64::from(code))))
}

/// An integer from decimal digits, possibly with leading zeros.
fn integer(digits: &str) -> Number {
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        return Number::Int(0);
    }
    match trimmed.parse::<i64>() {
        Ok(i) => Number::Int(i),
        Err(_) => Number::Big(trimmed.to_string()),
    }
}

/// Decimal digits of an integer written in `radix`, of any length.
fn radix_to_decimal(digits: &str, radix: u32) -> String {
    // Little-endian limbs in base 10^9.
    const BASE: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![0];
    for c in digits.chars() {
        let mut carry = u64::from(c.to_digit(radix).unwrap_or(0));
        for limb in limbs.iter_mut() {
            let v = *limb * u64::from(radix) + carry;
            *limb = v % BASE;
            carry = v / BASE;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut out = String::new();
    for (i, limb) in limbs.iter().rev().enumerate() {
        if i == 0 {
            out.push_str(&limb.to_string());
        } else {
            out.push_str(&format!("{limb:09}"));
        }
    }
    out
}

/// One escape sequence starting at `text[at] == '\\'`. Returns the character
/// (`None` for a line continuation) and the bytes consumed. `base` is the
/// absolute offset of `text` for error positions.
fn escape(text: &str, at: usize, base: usize) -> Result<(Option<char>, usize), LexError> {
    let bad = |msg| LexError::at(base + at, msg);
    let body = &text[at + 1..];
    let Some(c) = body.chars().next() else {
        return Err(bad("unterminated escape sequence"));
    };
    let simple = match c {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\x07'),
        'b' => Some('\x08'),
        'f' => Some('\x0C'),
        'v' => Some('\x0B'),
        'e' => Some('\x1B'),
        's' => Some(' '),
        '0'..='7' | 'x' | 'u' | 'U' | '\n' => None,
        '\\' | '\'' | '"' | '`' => Some(c),
        _ => return Err(bad("unknown escape sequence")),
    };
    if let Some(ch) = simple {
        return Ok((Some(ch), 1 + c.len_utf8()));
    }
    let (radix, digits_start, fixed) = match c {
        '\n' => return Ok((None, 2)),
        'x' => (16, 1, None),
        'u' => (16, 1, Some(4)),
        'U' => (16, 1, Some(8)),
        _ => (8, 0, None),
    };
    let digits = &body[digits_start..];
    let len = digits
        .find(|d: char| !d.is_digit(radix))
        .unwrap_or(digits.len());
    let len = fixed.map_or(len, |n: usize| n.min(len));
    if len == 0 || fixed.is_some_and(|n| n != len) {
        return Err(bad("malformed numeric escape sequence"));
    }
    let mut consumed = 1 + digits_start + len;
    if fixed.is_none() {
        // ISO closes \xHH\ and \NNN\ with a backslash.
        if !digits[len..].starts_with('\\') {
            return Err(bad("numeric escape sequence must end with \\"));
        }
        consumed += 1;
    }
    let code =
        u32::from_str_radix(&digits[..len], radix).map_err(|_| bad("invalid character code"))?;
    let ch = char::from_u32(code).ok_or_else(|| bad("invalid character code"))?;
    Ok((Some(ch), consumed))
}

/// A quoted item; the opening quote has been matched.
fn quoted(lex: &mut logos::Lexer<Raw>, quote: char) -> Result<Raw, LexError> {
    let start = lex.span().start;
    let text = lex.remainder();
    let base = lex.span().end;
    let mut out = String::new();
    let mut i = 0;
    loop {
        let Some(c) = text[i..].chars().next() else {
            let what = match quote {
                '\'' => "unterminated quoted atom",
                '"' => "unterminated string",
                _ => "unterminated back-quoted string",
            };
            return Err(LexError::at(start, what));
        };
        if c == quote {
            if text[i + 1..].starts_with(quote) {
                out.push(quote);
                i += 2;
                continue;
            }
            lex.bump(i + 1);
            return Ok(match quote {
                '\'' => Raw::Quoted(out),
                '"' => Raw::Str(out),
                _ => Raw::BackQuoted(out),
            });
        }
        if c == '\\' {
            let (ch, len) = escape(text, i, base)?;
            out.extend(ch);
            i += len;
            continue;
        }
        out.push(c);
        i += c.len_utf8();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_conversion_handles_long_numbers() {
        assert_eq!(radix_to_decimal("ff", 16), "255");
        assert_eq!(
            radix_to_decimal("10000000000000000", 16),
            "18446744073709551616"
        );
        assert_eq!(radix_to_decimal("0", 2), "0");
    }
}

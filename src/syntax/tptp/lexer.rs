//! Tokens of TPTP's FOF and CNF languages (`grammar/tptp.md`).

use crate::syntax::SyntaxError;
use std::borrow::Cow;

/// One token and the byte offset where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token<'a> {
    pub(crate) kind: Kind<'a>,
    pub(crate) offset: usize,
}

/// A token's kind and text. Unquoted text is borrowed from the source, so
/// reading a word allocates nothing until the parser keeps it in a term.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind<'a> {
    /// A functor or predicate name: a lower word, or a single-quoted atom.
    /// A quoted atom whose text is a lower word is that word (`'abc'` is
    /// `abc`, as TPTP says); any other keeps its quotes, so it cannot meet
    /// an unquoted name.
    Word(Cow<'a, str>),
    /// An upper word: a variable.
    Var(&'a str),
    /// `$word` or `$$word`.
    Dollar(&'a str),
    /// `"text"`, kept with its quotes: a distinct object.
    Distinct(String),
    /// An integer, rational or real.
    Number(&'a str),
    /// Punctuation and connectives.
    Punct(&'static str),
    End,
    /// Where the lexer failed: matches nothing, so the parser stops here
    /// and reports the lexer's error.
    Bad,
}

/// Connectives and punctuation, longest first.
const PUNCT: [&str; 20] = [
    "<=>", "<~>", "=>", "<=", "~|", "~&", "!=", "(", ")", "[", "]", ",", ".", ":", "!", "?", "~",
    "&", "|", "=",
];

fn lower_word(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The quoted text starting at `start` (at the quote `q`): its content with
/// `\\` and `\q` unescaped, and the offset after the closing quote.
fn quoted(src: &str, start: usize, q: u8) -> Result<(String, usize), SyntaxError> {
    let bytes = src.as_bytes();
    let mut content = String::new();
    let mut i = start + 1;
    loop {
        match bytes.get(i) {
            None | Some(b'\n') => {
                return Err(SyntaxError::at(src, start, "unterminated quoted text"));
            }
            Some(&c) if c == q => return Ok((content, i + 1)),
            Some(b'\\') => match bytes.get(i + 1) {
                Some(&e) if e == q || e == b'\\' => {
                    content.push(e as char);
                    i += 2;
                }
                _ => {
                    return Err(SyntaxError::at(
                        src,
                        i,
                        "only \\\\ and an escaped quote may follow a backslash in quoted text",
                    ))
                }
            },
            Some(_) => {
                let ch = src[i..].chars().next().unwrap_or(' ');
                if ch.is_control() {
                    return Err(SyntaxError::at(src, i, "control character in quoted text"));
                }
                content.push(ch);
                i += ch.len_utf8();
            }
        }
    }
}

/// `content` with `\` and `q` escaped, between `q`s.
pub(crate) fn quote(content: &str, q: char) -> String {
    let mut out = String::with_capacity(content.len() + 2);
    out.push(q);
    for c in content.chars() {
        if c == q || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(q);
    out
}

/// The tokens of a source, one at a time, skipping layout, `%` line
/// comments and `/* */` block comments. Reading token by token (rather than
/// the whole file first) keeps no token vector: on a file of deep terms
/// that vector was larger than the formulas read.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    at: usize,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(src: &'a str) -> Lexer<'a> {
        Lexer { src, at: 0 }
    }

    /// The next token; [`Kind::End`] at the end, as often as asked.
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>, SyntaxError> {
        let src = self.src;
        let bytes = src.as_bytes();
        let mut i = self.at;
        loop {
            match bytes.get(i) {
                Some(c) if c.is_ascii_whitespace() => i += 1,
                Some(b'%') => {
                    i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                }
                Some(b'/') if bytes.get(i + 1) == Some(&b'*') => match src[i + 2..].find("*/") {
                    Some(end) => i += 2 + end + 2,
                    None => return Err(SyntaxError::at(src, i, "unterminated comment")),
                },
                _ => break,
            }
        }
        let start = i;
        let Some(&c) = bytes.get(i) else {
            self.at = i;
            return Ok(Token {
                kind: Kind::End,
                offset: src.len(),
            });
        };
        let word_end = |mut j: usize| {
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            j
        };
        let kind = if c.is_ascii_lowercase() {
            i = word_end(i);
            Kind::Word(Cow::Borrowed(&src[start..i]))
        } else if c.is_ascii_uppercase() {
            i = word_end(i);
            Kind::Var(&src[start..i])
        } else if c == b'$' {
            let from = if bytes.get(i + 1) == Some(&b'$') {
                i + 2
            } else {
                i + 1
            };
            i = word_end(from);
            if i == from {
                return Err(SyntaxError::at(src, start, "`$` must start a word"));
            }
            Kind::Dollar(&src[start..i])
        } else if c == b'\'' {
            let (content, end) = quoted(src, i, b'\'')?;
            if content.is_empty() {
                return Err(SyntaxError::at(src, start, "empty quoted atom"));
            }
            i = end;
            if lower_word(&content) {
                Kind::Word(Cow::Owned(content))
            } else {
                Kind::Word(Cow::Owned(quote(&content, '\'')))
            }
        } else if c == b'"' {
            let (content, end) = quoted(src, i, b'"')?;
            i = end;
            Kind::Distinct(quote(&content, '"'))
        } else if c.is_ascii_digit()
            || (matches!(c, b'+' | b'-') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || matches!(bytes[i], b'.' | b'/' | b'+' | b'-'))
            {
                // A `.` ends the number unless a digit follows (`p(1).`).
                if bytes[i] == b'.' && !bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    break;
                }
                i += 1;
            }
            Kind::Number(&src[start..i])
        } else if let Some(p) = PUNCT
            .iter()
            .find(|p| p.as_bytes()[0] == c && bytes[i..].starts_with(p.as_bytes()))
        {
            i += p.len();
            Kind::Punct(p)
        } else {
            let ch = src[i..].chars().next().unwrap_or(' ');
            let message = if "@>*+-^{}#;<".contains(ch) {
                format!(
                    "unexpected `{ch}`: typed (TFF) and higher-order (THF) syntax is not supported; entail reads FOF and CNF"
                )
            } else {
                format!("unexpected character `{ch}`")
            };
            return Err(SyntaxError::at(src, i, message));
        };
        self.at = i;
        Ok(Token {
            kind,
            offset: start,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Kind<'_>> {
        let mut lexer = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let kind = lexer.next_token().expect("lexes").kind;
            out.push(kind.clone());
            if kind == Kind::End {
                return out;
            }
        }
    }

    #[test]
    fn quoted_atoms_that_are_lower_words_are_those_words() {
        assert_eq!(
            kinds("'abc' 'A b' \"x\\\"y\" % c\n/* b */ X1 $true"),
            [
                Kind::Word("abc".into()),
                Kind::Word("'A b'".into()),
                Kind::Distinct("\"x\\\"y\"".into()),
                Kind::Var("X1"),
                Kind::Dollar("$true"),
                Kind::End
            ]
        );
    }

    #[test]
    fn connectives_take_the_longest_match() {
        assert_eq!(
            kinds("<=> <~> => <= ~| ~& != ~"),
            ["<=>", "<~>", "=>", "<=", "~|", "~&", "!=", "~"]
                .into_iter()
                .map(Kind::Punct)
                .chain([Kind::End])
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn numbers_stop_before_the_final_period() {
        assert_eq!(
            kinds("p(12). 1.5"),
            [
                Kind::Word("p".into()),
                Kind::Punct("("),
                Kind::Number("12"),
                Kind::Punct(")"),
                Kind::Punct("."),
                Kind::Number("1.5"),
                Kind::End
            ]
        );
    }
}

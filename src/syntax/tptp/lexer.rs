//! Tokens of TPTP's FOF and CNF languages (`grammar/tptp.md`).

use crate::syntax::SyntaxError;

/// One token and the byte offset where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub(crate) kind: Kind,
    pub(crate) offset: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// A functor or predicate name: a lower word, or a single-quoted atom.
    /// A quoted atom whose text is a lower word is that word (`'abc'` is
    /// `abc`, as TPTP says); any other keeps its quotes, so it cannot meet
    /// an unquoted name.
    Word(String),
    /// An upper word: a variable.
    Var(String),
    /// `$word` or `$$word`.
    Dollar(String),
    /// `"text"`, kept with its quotes: a distinct object.
    Distinct(String),
    /// An integer, rational or real.
    Number(String),
    /// Punctuation and connectives.
    Punct(&'static str),
    End,
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

/// Splits `src` into tokens, skipping layout, `%` line comments and
/// `/* */` block comments. Ends with [`Kind::End`].
pub(crate) fn tokens(src: &str) -> Result<Vec<Token>, SyntaxError> {
    let bytes = src.as_bytes();
    // Deep terms are about a token per byte (`f(`): sized for half of
    // that, the vector is copied at most once as it grows.
    let mut out = Vec::with_capacity(src.len() / 2 + 1);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'%' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            match src[i + 2..].find("*/") {
                Some(end) => i += 2 + end + 2,
                None => return Err(SyntaxError::at(src, i, "unterminated comment")),
            }
            continue;
        }
        let start = i;
        let word_end = |mut j: usize| {
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            j
        };
        let kind = if c.is_ascii_lowercase() {
            i = word_end(i);
            Kind::Word(src[start..i].to_string())
        } else if c.is_ascii_uppercase() {
            i = word_end(i);
            Kind::Var(src[start..i].to_string())
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
            Kind::Dollar(src[start..i].to_string())
        } else if c == b'\'' {
            let (content, end) = quoted(src, i, b'\'')?;
            if content.is_empty() {
                return Err(SyntaxError::at(src, start, "empty quoted atom"));
            }
            i = end;
            if lower_word(&content) {
                Kind::Word(content)
            } else {
                Kind::Word(quote(&content, '\''))
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
            Kind::Number(src[start..i].to_string())
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
        out.push(Token {
            kind,
            offset: start,
        });
    }
    out.push(Token {
        kind: Kind::End,
        offset: src.len(),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Kind> {
        tokens(src)
            .expect("lexes")
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn quoted_atoms_that_are_lower_words_are_those_words() {
        assert_eq!(
            kinds("'abc' 'A b' \"x\\\"y\" % c\n/* b */ X1 $true"),
            [
                Kind::Word("abc".into()),
                Kind::Word("'A b'".into()),
                Kind::Distinct("\"x\\\"y\"".into()),
                Kind::Var("X1".into()),
                Kind::Dollar("$true".into()),
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
                Kind::Number("12".into()),
                Kind::Punct(")"),
                Kind::Punct("."),
                Kind::Number("1.5".into()),
                Kind::End
            ]
        );
    }
}

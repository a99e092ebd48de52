//! Tokens of FOLIO-style formulas, in every spelling models write them.

/// A token kind. Connectives and quantifiers have one kind whatever their
/// spelling; the spelling stays in the source for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A name: predicate, function, constant or variable.
    Ident(String),
    /// `(`, `[` or `{`, with the closing character it needs.
    Open(char),
    /// `)`, `]` or `}`.
    Close(char),
    Comma,
    /// `.` (NLTK's `all x.`) and a formula's final period.
    Dot,
    Colon,
    Not,
    And,
    Or,
    Xor,
    Implies,
    Iff,
    Eq,
    Neq,
    Forall,
    Exists,
    /// `∃!`: unique existence, refused with a rewrite.
    ExistsUnique,
    Top,
    Bottom,
}

/// A token and its byte range in the formula's text.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// What a token is, in words, for "expected …, found …" messages.
pub(crate) fn describe(token: Option<&Token>, src: &str) -> String {
    match token {
        None => "the end of the formula".into(),
        Some(t) => match &t.tok {
            Tok::Ident(name) => format!("the name `{name}`"),
            _ => format!("`{}`", &src[t.start..t.end]),
        },
    }
}

/// The word spellings: connectives and quantifiers written as words.
fn keyword(word: &str) -> Option<Tok> {
    Some(match word {
        "forall" | "all" | "Forall" | "ForAll" => Tok::Forall,
        "exists" | "Exists" => Tok::Exists,
        "not" | "NOT" => Tok::Not,
        "and" | "AND" => Tok::And,
        "or" | "OR" => Tok::Or,
        "xor" | "XOR" => Tok::Xor,
        "implies" | "IMPLIES" => Tok::Implies,
        "iff" | "IFF" => Tok::Iff,
        _ => return None,
    })
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\''
}

/// The tokens of `src`, or the byte offset and message of the first
/// character that starts none.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, (usize, String)> {
    let mut out = Vec::new();
    let mut chars = src.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if ident_char(c) && c != '\'' {
            let mut end = start;
            while let Some(&(i, d)) = chars.peek() {
                if !ident_char(d) {
                    break;
                }
                end = i + d.len_utf8();
                chars.next();
            }
            let word = &src[start..end];
            let tok = keyword(word).unwrap_or_else(|| Tok::Ident(word.to_string()));
            out.push(Token { tok, start, end });
            continue;
        }
        chars.next();
        let next = chars.peek().map(|&(_, d)| d);
        let next2 = src[start + c.len_utf8()..].chars().nth(1);
        // (token, extra characters consumed after `c`)
        let (tok, extra) = match (c, next) {
            ('(', _) => (Tok::Open(')'), 0),
            ('[', _) => (Tok::Open(']'), 0),
            ('{', _) => (Tok::Open('}'), 0),
            (')' | ']' | '}', _) => (Tok::Close(c), 0),
            (',', _) => (Tok::Comma, 0),
            ('.', _) => (Tok::Dot, 0),
            (':', _) => (Tok::Colon, 0),
            ('¬' | '~' | '￢', _) => (Tok::Not, 0),
            ('!', Some('=')) => (Tok::Neq, 1),
            ('!', _) => (Tok::Not, 0),
            ('-', Some('>')) => (Tok::Implies, 1),
            ('-', _) => (Tok::Not, 0),
            ('=', Some('>')) => (Tok::Implies, 1),
            ('=', Some('=')) => (Tok::Eq, 1),
            ('=', _) => (Tok::Eq, 0),
            ('<', Some('-')) if next2 == Some('>') => (Tok::Iff, 2),
            ('<', Some('=')) if next2 == Some('>') => (Tok::Iff, 2),
            ('&', Some('&')) => (Tok::And, 1),
            ('&' | '∧' | '⋀', _) => (Tok::And, 0),
            ('/', Some('\\')) => (Tok::And, 1),
            ('|', Some('|')) => (Tok::Or, 1),
            ('|' | '∨' | '⋁', _) => (Tok::Or, 0),
            ('\\', Some('/')) => (Tok::Or, 1),
            ('⊕' | '⊻' | '^', _) => (Tok::Xor, 0),
            ('→' | '⇒' | '⟶' | '⟹' | '⊃', _) => (Tok::Implies, 0),
            ('↔' | '⇔' | '⟷' | '⟺' | '≡', _) => (Tok::Iff, 0),
            ('≠', _) => (Tok::Neq, 0),
            ('∀', _) => (Tok::Forall, 0),
            ('∃', Some('!')) => (Tok::ExistsUnique, 1),
            ('∃', _) => (Tok::Exists, 0),
            ('⊤', _) => (Tok::Top, 0),
            ('⊥', _) => (Tok::Bottom, 0),
            _ => {
                return Err((
                    start,
                    format!(
                        "unexpected character `{c}`: write connectives as ¬ ∧ ∨ ⊕ → ↔ \
                         (or ~ & | xor -> <->), quantifiers as ∀x / ∃x, and names with \
                         letters, digits and _"
                    ),
                ))
            }
        };
        let mut end = start + c.len_utf8();
        for _ in 0..extra {
            if let Some((i, d)) = chars.next() {
                end = i + d.len_utf8();
            }
        }
        out.push(Token { tok, start, end });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Tok> {
        lex(src)
            .expect("lexes")
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn every_spelling_of_a_connective_is_one_token() {
        for (spellings, tok) in [
            (&["¬", "~", "!", "-", "not"][..], Tok::Not),
            (&["∧", "&", "&&", "and", "/\\"][..], Tok::And),
            (&["∨", "|", "||", "or", "\\/"][..], Tok::Or),
            (&["⊕", "xor", "^", "⊻"][..], Tok::Xor),
            (&["→", "->", "=>", "implies", "⇒"][..], Tok::Implies),
            (&["↔", "<->", "<=>", "iff", "⇔"][..], Tok::Iff),
            (&["∀", "forall", "all"][..], Tok::Forall),
            (&["∃", "exists"][..], Tok::Exists),
            (&["=", "=="][..], Tok::Eq),
            (&["≠", "!="][..], Tok::Neq),
        ] {
            for s in spellings {
                assert_eq!(kinds(s), vec![tok.clone()], "{s}");
            }
        }
    }

    #[test]
    fn quantifier_glued_to_its_variable() {
        assert_eq!(
            kinds("∀x∃y"),
            vec![
                Tok::Forall,
                Tok::Ident("x".into()),
                Tok::Exists,
                Tok::Ident("y".into())
            ]
        );
    }

    #[test]
    fn a_stray_character_is_placed() {
        let (at, message) = lex("P(x) # Q").expect_err("refused");
        assert_eq!(at, 5);
        assert!(message.starts_with("unexpected character `#`"), "{message}");
    }
}

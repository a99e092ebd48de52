//! Printing terms back to Prolog text.
//!
//! [`Display`](std::fmt::Display) writes what `writeq/1` would: quoted where
//! needed, operators in operator notation, brackets where priority requires,
//! and spaces wherever two tokens would otherwise merge (`a- -1`, `- (a,b)`).
//! The output reads back as the same term in our reader, SWI-Prolog 9 and
//! scryer-prolog. Operators only SWI defines are written in functional
//! notation (see [`super::ops`]).
//!
//! [`Term::canonical`] writes what SWI's `write_canonical/1` writes, so tests
//! can compare our reading of a text with SWI's.

use super::ast::{Program, Sentence, Term};
use super::ops;
use std::collections::HashMap;
use std::fmt;

/// Where a term is being written; decides bracketing of operator atoms and
/// negative numbers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The whole text being written.
    Top,
    /// An argument, list element, or `{}` content.
    Arg,
    /// Left operand of an infix operator.
    Left,
    /// Right operand of an infix operator, or operand of a prefix operator.
    Right,
}

fn is_symbol_char(c: char) -> bool {
    "+-*/\\^<>=~:.?@#&$".contains(c)
}

fn is_word_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Whether writing `next` right after `prev` would merge two tokens.
fn would_merge(prev: char, next: char) -> bool {
    (is_symbol_char(prev) && is_symbol_char(next))
        || (is_word_char(prev) && is_word_char(next))
        || (is_word_char(prev) && next == '\'')
        || (prev == '\'' && next == '\'')
        || (prev == '"' && next == '"')
        || (prev == ',' && next == '|')
}

/// Whether `s` is a letter-digit atom that needs no quotes. Only ASCII
/// qualifies, because systems disagree on which Unicode letters are lower case.
pub(crate) fn is_plain_word(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `s` is a symbol-char atom that needs no quotes.
fn is_plain_symbol(s: &str) -> bool {
    // `.` alone is the end token; `/*` starts a comment.
    !s.is_empty() && s != "." && !s.contains("/*") && s.chars().all(is_symbol_char)
}

/// An atom as written in argument position, quoted if needed.
pub(crate) fn atom_text(a: &str) -> String {
    if a == super::ast::QUOTED_NIL {
        "'[]'".to_string()
    } else if is_plain_word(a) || is_plain_symbol(a) || matches!(a, "[]" | "{}" | "!" | ";") {
        a.to_string()
    } else {
        quoted(a, '\'')
    }
}

/// An atom as written before `(` in functional notation. `[](…)` and
/// `{}(…)` are SWI extensions, so those names are quoted here.
fn functor_text(name: &str) -> String {
    match name {
        "[]" | "{}" => quoted(name, '\''),
        _ => atom_text(name),
    }
}

/// `s` between `quote` characters, escaped so every reader gets `s` back.
pub(crate) fn quoted(s: &str, quote: char) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0B' => out.push_str("\\v"),
            '\x0C' => out.push_str("\\f"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() || (c.is_whitespace() && c != ' ') => {
                out.push_str(&format!("\\x{:X}\\", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// A float as SWI-Prolog writes it: shortest digits that read back exactly,
/// always with a `.` (and `e+NN`/`e-NN` outside 1e-4 ≤ |f| < 1e15).
pub(crate) fn float_text(f: f64) -> String {
    if f.is_nan() {
        return "1.5NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "1.0Inf".into()
        } else {
            "-1.0Inf".into()
        };
    }
    // Rust's `{:e}` gives the shortest round-tripping digits: "-1.25e-7".
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if !(-4..15).contains(&exp) {
        out.push_str(&digits[..1]);
        out.push('.');
        out.push_str(if digits.len() > 1 { &digits[1..] } else { "0" });
        out.push_str(&format!(
            "e{}{}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        ));
    } else if exp >= 0 {
        let int_len = exp as usize + 1;
        if digits.len() > int_len {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        } else {
            out.push_str(&digits);
            out.push_str(&"0".repeat(int_len - digits.len()));
            out.push_str(".0");
        }
    } else {
        out.push_str("0.");
        out.push_str(&"0".repeat((-exp - 1) as usize));
        out.push_str(&digits);
    }
    out
}

/// Builds text token by token, inserting a space wherever two tokens would
/// otherwise read as one.
struct Writer {
    out: String,
    /// Set after a prefix operator: its operand must not start with `(`
    /// (that would be functional notation) or a digit (a negative number).
    after_prefix_op: bool,
}

impl Writer {
    fn new() -> Writer {
        Writer {
            out: String::new(),
            after_prefix_op: false,
        }
    }

    fn push(&mut self, token: &str) {
        let Some(first) = token.chars().next() else {
            return;
        };
        let space = match self.out.chars().next_back() {
            None => false,
            Some(prev) => {
                would_merge(prev, first)
                    || (self.after_prefix_op
                        && !(first.is_alphabetic()
                            || first == '_'
                            || first == '\''
                            || first == '"'))
            }
        };
        if space {
            self.out.push(' ');
        }
        self.after_prefix_op = false;
        self.out.push_str(token);
    }

    fn number(&mut self, text: &str, place: Place) {
        // `- 1 ^ 2` and `-1^2` differ; a bracketed negative left operand
        // reads the same everywhere.
        if text.starts_with('-') && place == Place::Left {
            self.push("(");
            self.push(text);
            self.push(")");
        } else {
            self.push(text);
        }
    }

    fn term(&mut self, term: &Term, max: u16, place: Place) {
        match term {
            Term::Var(name) => self.push(if name.is_empty() { "_" } else { name }),
            Term::Int(i) => self.number(&i.to_string(), place),
            Term::BigInt(digits) => self.number(digits, place),
            Term::Float(f) => self.number(&float_text(*f), place),
            Term::Str(s) => self.push(&quoted(s, '"')),
            Term::Atom(a) => {
                if place != Place::Top && ops::is_any_operator(a) {
                    self.push("(");
                    self.push(&atom_text(a));
                    self.push(")");
                } else {
                    self.push(&atom_text(a));
                }
            }
            Term::Compound(name, args) => self.compound(term, name, args, max),
        }
    }

    fn compound(&mut self, whole: &Term, name: &str, args: &[Term], max: u16) {
        match (name, args) {
            (".", [_, _]) => return self.list(whole),
            ("{}", [inner]) => {
                self.push("{");
                self.term(inner, 1200, Place::Arg);
                self.push("}");
                return;
            }
            (_, [left, right]) => {
                if let Some((priority, kind)) = ops::print_infix(name) {
                    let (left_max, right_max) = ops::arg_priorities(priority, kind);
                    let open = priority > max;
                    if open {
                        self.push("(");
                    }
                    self.term(left, left_max, Place::Left);
                    if name == "," {
                        self.push(",");
                    } else if name.chars().all(is_word_char) {
                        // Letter operators always get spaces: `X is Y`.
                        self.out.push(' ');
                        self.out.push_str(name);
                        self.out.push(' ');
                    } else {
                        self.push(name);
                    }
                    self.term(right, right_max, Place::Right);
                    if open {
                        self.push(")");
                    }
                    return;
                }
            }
            (_, [operand]) => {
                let numeric = matches!(operand, Term::Int(_) | Term::BigInt(_) | Term::Float(_));
                // `- 1` and `-(1)` are the compound, `-1` the number: write
                // functional notation, which no reader confuses.
                if let (Some((priority, kind)), false) = (ops::print_prefix(name), numeric) {
                    let (_, arg_max) = ops::arg_priorities(priority, kind);
                    let open = priority > max;
                    if open {
                        self.push("(");
                    }
                    self.push(&atom_text(name));
                    self.after_prefix_op = true;
                    self.term(operand, arg_max, Place::Right);
                    if open {
                        self.push(")");
                    }
                    return;
                }
            }
            _ => {}
        }
        self.push(&functor_text(name));
        self.out.push('(');
        for (i, arg) in args.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            self.term(arg, 999, Place::Arg);
        }
        self.push(")");
    }

    /// `[a,b|T]`, walking the tail iteratively so long lists cost no stack.
    fn list(&mut self, mut term: &Term) {
        self.push("[");
        let mut first = true;
        loop {
            match term {
                Term::Compound(name, args) if name == "." && args.len() == 2 => {
                    if !first {
                        self.push(",");
                    }
                    first = false;
                    self.term(&args[0], 999, Place::Arg);
                    term = &args[1];
                }
                Term::Atom(a) if a == "[]" => break,
                tail => {
                    self.push("|");
                    self.term(tail, 999, Place::Arg);
                    break;
                }
            }
        }
        self.push("]");
    }

    /// The end token, spaced off a preceding symbol character.
    fn end(&mut self) {
        if self.out.chars().next_back().is_some_and(is_symbol_char) {
            self.out.push(' ');
        }
        self.out.push('.');
    }
}

impl Term {
    /// This term as text for a context that allows priority `max_priority`:
    /// 1200 for a whole term, 999 for an argument of a compound or list
    /// element (e.g. when splicing into `assertz(…)`).
    pub fn to_text(&self, max_priority: u16) -> String {
        let mut w = Writer::new();
        let place = if max_priority >= 1200 {
            Place::Top
        } else {
            Place::Arg
        };
        w.term(self, max_priority.min(1200), place);
        w.out
    }

    /// The term as SWI-Prolog's `write_canonical/1` writes it: no operator
    /// notation, quoted atoms, lists in `[…]` notation, `{}(X)` for curly
    /// terms, and variables named `A`, `B`, … by first occurrence, with
    /// `_` for variables that occur once.
    pub fn canonical(&self) -> String {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for t in self.subterms() {
            if let Term::Var(v) = t {
                *counts.entry(v.as_str()).or_insert(0) += 1;
            }
        }
        let mut names: HashMap<&str, String> = HashMap::new();
        for t in self.subterms() {
            if let Term::Var(v) = t {
                if v != "_"
                    && counts.get(v.as_str()).copied().unwrap_or(0) > 1
                    && !names.contains_key(v.as_str())
                {
                    let i = names.len();
                    let letter = char::from(b'A' + (i % 26) as u8);
                    let name = if i >= 26 {
                        format!("{letter}{}", i / 26)
                    } else {
                        letter.to_string()
                    };
                    names.insert(v, name);
                }
            }
        }
        let mut out = String::new();
        canonical_into(self, &names, &mut out);
        out
    }
}

fn canonical_into(term: &Term, names: &HashMap<&str, String>, out: &mut String) {
    match term {
        Term::Var(v) => out.push_str(names.get(v.as_str()).map_or("_", |s| s.as_str())),
        Term::Int(i) => out.push_str(&i.to_string()),
        Term::BigInt(d) => out.push_str(d),
        Term::Float(f) => out.push_str(&float_text(*f)),
        Term::Str(s) => out.push_str(&quoted(s, '"')),
        Term::Atom(a) => out.push_str(&atom_text(a)),
        Term::Compound(name, args) if name == "." && args.len() == 2 => {
            out.push('[');
            let mut t = term;
            let mut first = true;
            loop {
                match t {
                    Term::Compound(n, a) if n == "." && a.len() == 2 => {
                        if !first {
                            out.push(',');
                        }
                        first = false;
                        canonical_into(&a[0], names, out);
                        t = &a[1];
                    }
                    Term::Atom(a) if a == "[]" => break,
                    tail => {
                        out.push('|');
                        canonical_into(tail, names, out);
                        break;
                    }
                }
            }
            out.push(']');
        }
        Term::Compound(name, args) => {
            // In SWI 7 `{}` is an ordinary atom but `[]` is not, so only
            // `'[]'` keeps its quotes as a functor.
            out.push_str(&if name == "[]" {
                quoted(name, '\'')
            } else {
                atom_text(name)
            });
            out.push('(');
            for (i, arg) in args.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_into(arg, names, out);
            }
            out.push(')');
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text(1200))
    }
}

impl Sentence {
    fn write(&self, w: &mut Writer) {
        match self {
            Sentence::Directive { goal, .. } => {
                w.push(":-");
                w.out.push(' ');
                w.term(goal, 1199, Place::Right);
            }
            Sentence::Clause { term, .. } => w.term(term, 1200, Place::Top),
        }
        w.end();
    }
}

impl fmt::Display for Sentence {
    /// The sentence with its end token, e.g. `p(X):-q(X).`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut w = Writer::new();
        self.write(&mut w);
        f.write_str(&w.out)
    }
}

impl fmt::Display for Program {
    /// One sentence per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for sentence in &self.sentences {
            writeln!(f, "{sentence}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_match_swi_format() {
        let cases = [
            (1.0e15, "1.0e+15"),
            (123456789012345.0, "123456789012345.0"),
            (1234567890123456.0, "1.234567890123456e+15"),
            (0.0001, "0.0001"),
            (1.0e-5, "1.0e-5"),
            (-0.0, "-0.0"),
            (100.0, "100.0"),
            (5.0e-324, "5.0e-324"),
            (0.000123, "0.000123"),
            (1.5e300, "1.5e+300"),
        ];
        for (f, text) in cases {
            assert_eq!(float_text(f), text, "{f:e}");
        }
    }
}

//! An operator-precedence reader for ISO Prolog terms and clauses.
//!
//! Standard precedence climbing: a primary term (possibly a prefix-operator
//! application), then a loop over infix operators whose priority fits.

use super::ast::{Program, Sentence, Term};
use super::lexer::{Lexer, Number, Tok, Token};
use super::ops;
use crate::syntax::{Pos, SyntaxError};
use std::collections::VecDeque;

/// Deepest nesting the reader accepts. Each level costs a few stack frames;
/// this bound keeps a malicious input from overflowing the stack.
pub(crate) const MAX_DEPTH: usize = 1000;

/// Longest list (or chain of `|` tails) the reader builds. Lists are nested
/// `'.'/2` terms, and dropping or comparing one recurses once per element,
/// so unbounded lists could overflow the stack of whoever holds them.
pub(crate) const MAX_LIST_LENGTH: usize = 10_000;

pub(crate) struct Parser<'a> {
    src: &'a str,
    lexer: Lexer<'a>,
    ahead: VecDeque<Token>,
    depth: usize,
    /// The last position computed; sentence positions are found by scanning
    /// forward from it, keeping a whole program linear in its length.
    cursor: Pos,
}

type Result<T> = std::result::Result<T, SyntaxError>;

impl<'a> Parser<'a> {
    pub fn new(src: &'a str) -> Parser<'a> {
        Parser {
            src,
            lexer: Lexer::new(src),
            ahead: VecDeque::new(),
            depth: 0,
            cursor: Pos {
                offset: 0,
                line: 1,
                col: 1,
            },
        }
    }

    /// The position of `offset`, which must not precede the last one asked for.
    fn pos_of(&mut self, offset: usize) -> Pos {
        if offset < self.cursor.offset || !self.src.is_char_boundary(offset) {
            return Pos::of_offset(self.src, offset);
        }
        let mut pos = self.cursor;
        for c in self.src[pos.offset..offset].chars() {
            if c == '\n' {
                pos.line += 1;
                pos.col = 1;
            } else {
                pos.col += 1;
            }
        }
        pos.offset = offset;
        self.cursor = pos;
        pos
    }

    fn error(&self, offset: usize, message: impl Into<String>) -> SyntaxError {
        SyntaxError::at(self.src, offset, message)
    }

    /// The token `n` places ahead (0 = next).
    fn peek_at(&mut self, n: usize) -> Result<&Token> {
        while self.ahead.len() <= n {
            let token = self.lexer.next_token().map_err(|e| {
                let offset = e.offset.unwrap_or(self.src.len());
                SyntaxError::at(self.src, offset, e.message)
            })?;
            self.ahead.push_back(token);
        }
        Ok(&self.ahead[n])
    }

    fn peek(&mut self) -> Result<&Token> {
        self.peek_at(0)
    }

    fn advance(&mut self) -> Result<Token> {
        self.peek()?;
        // peek() guarantees one buffered token.
        Ok(self.ahead.pop_front().unwrap_or(Token {
            tok: Tok::Eof,
            start: self.src.len(),
            layout_before: false,
        }))
    }

    /// A whole program: sentences until end of input.
    pub fn program(&mut self) -> Result<Program> {
        let mut sentences = Vec::new();
        while let Some(sentence) = self.sentence()? {
            sentences.push(sentence);
        }
        Ok(Program { sentences })
    }

    /// One sentence, or `None` at end of input.
    pub fn sentence(&mut self) -> Result<Option<Sentence>> {
        let first = self.peek()?.clone();
        if first.tok == Tok::Eof {
            return Ok(None);
        }
        let pos = self.pos_of(first.start);
        let term = self.term(1200)?.0;
        self.expect_end()?;
        Ok(Some(match term {
            Term::Compound(name, mut args) if name == ":-" && args.len() == 1 => {
                Sentence::Directive {
                    goal: args.pop().unwrap_or(Term::Atom("true".into())),
                    pos,
                }
            }
            term => Sentence::Clause { term, pos },
        }))
    }

    /// One term, optionally followed by an end token, then end of input.
    pub fn whole_term(&mut self) -> Result<Term> {
        let term = self.term(1200)?.0;
        if self.peek()?.tok == Tok::End {
            self.advance()?;
        }
        let next = self.peek()?.clone();
        if next.tok != Tok::Eof {
            return Err(self.unexpected(&next));
        }
        Ok(term)
    }

    fn expect_end(&mut self) -> Result<()> {
        let next = self.advance()?;
        match next.tok {
            Tok::End => Ok(()),
            Tok::Eof => Err(self.error(next.start, "missing `.` at end of clause")),
            _ => Err(self.unexpected(&next)),
        }
    }

    /// The error for a token that cannot continue the term before it.
    fn unexpected(&self, token: &Token) -> SyntaxError {
        let message = match &token.tok {
            Tok::Name(n) if ops::infix(n).is_some() => "operator priority clash".to_string(),
            Tok::Comma | Tok::Bar => "operator priority clash".to_string(),
            Tok::Close => "unexpected `)`".to_string(),
            Tok::CloseList => "unexpected `]`".to_string(),
            Tok::CloseCurly => "unexpected `}`".to_string(),
            Tok::End => "unexpected end of clause".to_string(),
            Tok::Eof => "unexpected end of file".to_string(),
            _ => "operator expected".to_string(),
        };
        self.error(token.start, message)
    }

    fn expect(&mut self, want: Tok, what: &str) -> Result<()> {
        let next = self.advance()?;
        if next.tok == want {
            Ok(())
        } else if matches!(next.tok, Tok::Eof | Tok::End) {
            Err(self.unexpected(&next))
        } else if let Tok::Name(n) = &next.tok {
            if ops::infix(n).is_some() {
                return Err(self.error(next.start, "operator priority clash"));
            }
            Err(self.error(next.start, format!("expected {what}")))
        } else {
            Err(self.error(next.start, format!("expected {what}")))
        }
    }

    /// A term of priority at most `max`, with its priority.
    pub fn term(&mut self, max: u16) -> Result<(Term, u16)> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let at = self.peek().map(|t| t.start).unwrap_or(self.src.len());
            return Err(self.error(at, "term nested too deeply"));
        }
        let result = self.term_inner(max);
        self.depth -= 1;
        result
    }

    fn term_inner(&mut self, max: u16) -> Result<(Term, u16)> {
        let (mut left, mut left_priority) = self.primary(max)?;
        loop {
            let next = self.peek()?;
            let name = match &next.tok {
                Tok::Name(n) => n.clone(),
                // A quoted comma or bar is an atom, never the punctuation.
                Tok::Quoted(n) if n != "," && n != "|" => n.clone(),
                Tok::Comma => ",".to_string(),
                Tok::Bar => "|".to_string(),
                _ => break,
            };
            let Some((priority, kind)) = ops::infix(&name) else {
                break;
            };
            let (left_max, right_max) = ops::arg_priorities(priority, kind);
            if priority > max || left_priority > left_max {
                break;
            }
            self.advance()?;
            let (right, _) = self.term(right_max)?;
            left = Term::Compound(name, vec![left, right]);
            left_priority = priority;
        }
        Ok((left, left_priority))
    }

    /// Whether the token ends an operand, so a prefix operator before it is
    /// an atom: `f(-)`, `[-|T]`, `- .`.
    fn ends_operand(tok: &Tok) -> bool {
        matches!(
            tok,
            Tok::Close
                | Tok::CloseList
                | Tok::CloseCurly
                | Tok::Comma
                | Tok::Bar
                | Tok::End
                | Tok::Eof
        )
    }

    fn primary(&mut self, max: u16) -> Result<(Term, u16)> {
        let token = self.advance()?;
        match token.tok {
            Tok::Number(n) => Ok((number_term(n, false), 0)),
            Tok::Var(v) => Ok((Term::Var(v), 0)),
            Tok::Str(s) => Ok((Term::Str(s), 0)),
            Tok::BackQuoted(s) => {
                // SWI reads back-quoted text as a list of character codes.
                let codes = s.chars().map(|c| Term::Int(i64::from(c as u32))).collect();
                Ok((Term::list(codes, Term::Atom("[]".into())), 0))
            }
            Tok::Open => {
                let (inner, _) = self.term(1200)?;
                self.expect(Tok::Close, "`)`")?;
                Ok((inner, 0))
            }
            Tok::OpenList => self.list(),
            Tok::OpenCurly => {
                if self.peek()?.tok == Tok::CloseCurly {
                    self.advance()?;
                    return self.after_name("{}".into(), token.start, max, false);
                }
                let (inner, _) = self.term(1200)?;
                self.expect(Tok::CloseCurly, "`}`")?;
                Ok((Term::Compound("{}".into(), vec![inner]), 0))
            }
            Tok::Name(name) => self.after_name(name, token.start, max, true),
            Tok::Quoted(name) => self.after_name(name, token.start, max, false),
            Tok::Comma => Err(self.error(token.start, "unexpected comma")),
            Tok::Bar => Err(self.error(token.start, "unexpected `|`")),
            _ => Err(self.unexpected(&token)),
        }
    }

    fn list(&mut self) -> Result<(Term, u16)> {
        let open = self.peek()?.clone();
        if open.tok == Tok::CloseList {
            self.advance()?;
            return self.after_name("[]".into(), open.start, 999, false);
        }
        let mut items = Vec::new();
        loop {
            if items.len() >= MAX_LIST_LENGTH {
                let at = self.peek()?.start;
                return Err(self.error(at, format!("list longer than {MAX_LIST_LENGTH} elements")));
            }
            items.push(self.term(999)?.0);
            let next = self.advance()?;
            match next.tok {
                Tok::Comma => continue,
                Tok::Bar => {
                    let tail = self.term(999)?.0;
                    self.expect(Tok::CloseList, "`]`")?;
                    return Ok((Term::list(items, tail), 0));
                }
                Tok::CloseList => return Ok((Term::list(items, Term::Atom("[]".into())), 0)),
                _ => {
                    let message = match &next.tok {
                        Tok::Name(n) if ops::infix(n).is_some() => "operator priority clash",
                        Tok::End => "unexpected end of clause",
                        Tok::Eof => "unexpected end of file",
                        _ => "expected `,`, `|` or `]` in list",
                    };
                    return Err(self.error(next.start, message));
                }
            }
        }
    }

    /// What follows a name token: functional notation, a negative number,
    /// a prefix-operator application, or just the atom.
    fn after_name(
        &mut self,
        name: String,
        name_start: usize,
        max: u16,
        unquoted: bool,
    ) -> Result<(Term, u16)> {
        let next = self.peek()?;
        if next.tok == Tok::Open && !next.layout_before {
            self.advance()?;
            let mut args = Vec::new();
            loop {
                args.push(self.term(999)?.0);
                let sep = self.advance()?;
                match sep.tok {
                    Tok::Comma => continue,
                    Tok::Close => break,
                    _ => {
                        let message = match &sep.tok {
                            Tok::Name(n) if ops::infix(n).is_some() => "operator priority clash",
                            Tok::Bar => "operator priority clash",
                            Tok::End => "unexpected end of clause",
                            Tok::Eof => "unexpected end of file",
                            _ => "expected `,` or `)` after argument",
                        };
                        return Err(self.error(sep.start, message));
                    }
                }
            }
            return Ok((Term::Compound(name, args), 0));
        }
        if unquoted && name == "-" && !next.layout_before {
            if let Tok::Number(n) = &next.tok {
                let n = n.clone();
                self.advance()?;
                return Ok((number_term(n, true), 0));
            }
        }
        let Some((priority, kind)) = ops::prefix(&name) else {
            return Ok((Term::Atom(name), 0));
        };
        let next = self.peek()?.clone();
        if Self::ends_operand(&next.tok) {
            return Ok((Term::Atom(name), 0));
        }
        // `- = x`: an infix operator after a prefix operator makes the
        // prefix operator an atom, unless the name can itself start a term
        // (a prefix operator, or functional notation `=(a)`).
        if let Tok::Name(n) = &next.tok {
            if ops::infix(n).is_some() && ops::prefix(n).is_none() {
                let after = self.peek_at(1)?;
                let functional = after.tok == Tok::Open && !after.layout_before;
                if !functional {
                    return Ok((Term::Atom(name), 0));
                }
            }
        }
        if priority > max {
            return Err(self.error(name_start, "operator priority clash"));
        }
        let (_, arg_max) = ops::arg_priorities(priority, kind);
        let (arg, _) = self.term(arg_max)?;
        Ok((Term::Compound(name, vec![arg]), priority))
    }
}

/// The term for a number token, negated when a `-` sign preceded it.
fn number_term(n: Number, negative: bool) -> Term {
    match (n, negative) {
        (Number::Int(i), false) => Term::Int(i),
        (Number::Int(i), true) => Term::Int(-i),
        (Number::Float(f), false) => Term::Float(f),
        (Number::Float(f), true) => Term::Float(-f),
        (Number::Big(d), false) => Term::BigInt(d),
        (Number::Big(d), true) => {
            let negated = format!("-{d}");
            // -9223372036854775808 fits although its magnitude does not.
            match negated.parse::<i64>() {
                Ok(i) => Term::Int(i),
                Err(_) => Term::BigInt(negated),
            }
        }
    }
}

//! An operator-precedence reader for ISO Prolog terms and clauses.
//!
//! Standard precedence climbing: a primary term (possibly a prefix-operator
//! application), then a loop over infix operators whose priority fits.
//!
//! Arguments and list elements are read at priority 1200, as SWI-Prolog
//! reads them (`findall(X, p(X);q(X), L)`), with the comma (and in lists
//! the bar) ending the argument instead of acting as an operator.
//!
//! Every term the reader returns is at most [`MAX_DEPTH`] high (an atomic
//! term is 1 high, a compound one more than its highest argument; a list of
//! n elements is at least n + 1 high). Code that walks terms recursively is
//! therefore safe on anything the reader accepts, and needs no limit of its own.

use super::ast::{Program, Sentence, Term, QUOTED_NIL};
use super::lexer::{Lexer, Number, Tok, Token};
use super::ops;
use crate::syntax::{Pos, SyntaxError};
use std::collections::VecDeque;

/// The highest term the reader builds, and the deepest it recurses (brackets
/// count too). Operator chains (`1+1+…+1`), nested arguments and lists all
/// count, so no recursive walk over a term read here overflows the stack.
pub(crate) const MAX_DEPTH: usize = 1000;

/// What ends a term besides a token that cannot continue it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Within {
    /// A whole clause or a bracketed term: `,` and `|` are operators.
    Free,
    /// An argument of a compound: `,` separates arguments.
    Arg,
    /// A list element or tail: `,` and `|` separate.
    List,
}

impl Within {
    /// Whether `tok` ends the term here rather than acting as an operator.
    fn stops_at(self, tok: &Tok) -> bool {
        match (self, tok) {
            (Within::Arg | Within::List, Tok::Comma) => true,
            (Within::List, Tok::Bar) => true,
            _ => false,
        }
    }
}

/// A term read, with its priority and its height.
type Read = (Term, u16, usize);

/// An argument of a flat fact, borrowed from the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Atomic<'s> {
    /// An atom written as a plain lower-case word.
    Atom(&'s str),
    /// An integer written as plain digits.
    Int(i64),
}

impl Atomic<'_> {
    /// The term the general reader reads for it.
    pub fn to_term(self) -> Term {
        match self {
            Atomic::Atom(a) => Term::Atom(a.to_string()),
            Atomic::Int(i) => Term::Int(i),
        }
    }
}

/// A sentence as [`Parser::read_program`] hands it over.
#[derive(Debug)]
pub enum Reading<'s, 'b> {
    /// A flat ground fact `name(a1, …, an).`, borrowed from the text.
    Fact {
        /// The predicate name.
        name: &'s str,
        /// The arguments (at least one).
        args: &'b [Atomic<'s>],
        /// The byte offset where the sentence starts (its line and column
        /// are worked out only if asked for: [`Pos::of_offset`]).
        offset: usize,
    },
    /// Any other sentence.
    Sentence(Sentence),
}

/// The last position computed: positions are found by scanning forward
/// from it, keeping a whole program linear in its length.
struct Cursor(Pos);

impl Default for Cursor {
    fn default() -> Cursor {
        Cursor(Pos {
            offset: 0,
            line: 1,
            col: 1,
        })
    }
}

impl Cursor {
    /// The position of `offset` in `src`, which should not precede the
    /// last one asked for (if it does, it is found from the start).
    fn advance(&mut self, src: &str, offset: usize) -> Pos {
        if offset < self.0.offset || !src.is_char_boundary(offset) {
            return Pos::of_offset(src, offset);
        }
        let mut pos = self.0;
        // Columns count characters: every byte but UTF-8 continuation bytes.
        for &b in &src.as_bytes()[pos.offset..offset] {
            if b == b'\n' {
                pos.line += 1;
                pos.col = 1;
            } else if b & 0xc0 != 0x80 {
                pos.col += 1;
            }
        }
        pos.offset = offset;
        self.0 = pos;
        pos
    }
}

/// Syntax errors [`Parser::program_recovering`] reads past before it
/// stops.
pub const MAX_ERRORS: usize = 64;

pub(crate) struct Parser<'a> {
    src: &'a str,
    lexer: Lexer<'a>,
    ahead: VecDeque<Token>,
    depth: usize,
    /// Where sentences start.
    cursor: Cursor,
    /// Whether the last token taken was the end token `.`, so that a
    /// syntax error reported on it needs no skipping to resynchronise.
    after_end: bool,
    /// Whether flat facts and clauses ([`Parser::flat_fact`],
    /// [`flat_clause_at`]) may be read straight from the bytes (off only
    /// in tests that compare that with the general reader).
    flat: bool,
    /// The last flat clause read, kept for its buffers.
    flat_clause: FlatClause<'a>,
}

type Result<T> = std::result::Result<T, SyntaxError>;

impl<'a> Parser<'a> {
    pub fn new(src: &'a str) -> Parser<'a> {
        Parser {
            src,
            lexer: Lexer::new(src),
            ahead: VecDeque::new(),
            depth: 0,
            cursor: Cursor::default(),
            after_end: false,
            flat: true,
            flat_clause: FlatClause::default(),
        }
    }

    /// The position of `offset`, which must not precede the last one asked for.
    fn pos_of(&mut self, offset: usize) -> Pos {
        self.cursor.advance(self.src, offset)
    }

    fn error(&self, offset: usize, message: impl Into<String>) -> SyntaxError {
        SyntaxError::at(self.src, offset, message)
    }

    /// The error for a term higher than [`MAX_DEPTH`].
    fn too_deep(&self, offset: usize) -> SyntaxError {
        let message = format!("term nested deeper than {MAX_DEPTH} levels");
        self.error(offset, message)
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
        let token = self.ahead.pop_front().unwrap_or(Token {
            tok: Tok::Eof,
            start: self.src.len(),
            layout_before: false,
        });
        self.after_end = token.tok == Tok::End;
        Ok(token)
    }

    /// A whole program as SWI-Prolog consults it: a sentence with a syntax
    /// error is reported and skipped up to its end token (`.` followed by
    /// layout, `%` or the end of input, found by the tokenizer, so a `.`
    /// in a quoted atom or a comment does not end it), and reading goes on
    /// with the next. An unterminated block comment or quoted item runs to
    /// the end of the input, as in SWI.
    pub fn program_recovering(&mut self) -> (Program, Vec<SyntaxError>) {
        let (mut sentences, mut errors) = (Vec::new(), Vec::new());
        // The text after MAX_ERRORS errors is not read: locating each
        // costs a scan of the text, and an answer that bad loses nothing
        // it could score with.
        self.sentences_until(usize::MAX, MAX_ERRORS, &mut sentences, &mut errors);
        (Program { sentences }, errors)
    }

    /// Reads sentences into `sentences` until reading reaches byte `end`
    /// or the end of the input; a sentence with a syntax error goes into
    /// `errors` and is skipped to its end token. An unterminated comment
    /// or quote runs to the end of the input, and so does the text after
    /// `max_errors` errors.
    fn sentences_until(
        &mut self,
        end: usize,
        max_errors: usize,
        sentences: &mut Vec<Sentence>,
        errors: &mut Vec<SyntaxError>,
    ) {
        while self.position() < end {
            self.after_end = false;
            match self.sentence() {
                Ok(Some(sentence)) => sentences.push(sentence),
                Ok(None) => break,
                Err(error) => {
                    let runs_to_end = error.message.starts_with("unterminated");
                    errors.push(error);
                    if runs_to_end || errors.len() >= max_errors || !self.skip_to_end() {
                        break;
                    }
                }
            }
        }
    }

    /// The sentences within `spans` (see [`super::parse_sentences_in`]).
    pub fn sentences_in(&mut self, spans: &[(usize, usize)]) -> (Program, Vec<SyntaxError>) {
        let mut sentences = Vec::new();
        let mut errors = Vec::new();
        for &(start, end) in spans {
            self.ahead.clear();
            self.depth = 0;
            let (at, _) = self.lexer.rest();
            if start < at {
                self.lexer = Lexer::new(self.src);
                self.lexer.skip(start);
            } else {
                self.lexer.skip(start - at);
            }
            // Uncapped: the spans hold only sentences the caller needs.
            self.sentences_until(end, usize::MAX, &mut sentences, &mut errors);
        }
        (Program { sentences }, errors)
    }

    /// Where reading goes on: the next buffered token, else the end of
    /// the last token read.
    fn position(&self) -> usize {
        self.ahead
            .front()
            .map_or_else(|| self.lexer.rest().0, |token| token.start)
    }

    /// Skips the rest of a sentence after a syntax error, up to and
    /// including its end token; false at the end of the input.
    fn skip_to_end(&mut self) -> bool {
        self.depth = 0;
        if self.after_end {
            return true;
        }
        loop {
            match self.advance() {
                Ok(token) if token.tok == Tok::End => return true,
                Ok(token) if token.tok == Tok::Eof => return false,
                Ok(_) => {}
                Err(error) if error.message.starts_with("unterminated") => return false,
                // The tokenizer has moved past the bad character.
                Err(_) => {}
            }
        }
    }

    /// A whole program: sentences until end of input.
    pub fn program(&mut self) -> Result<Program> {
        let mut sentences = Vec::new();
        let src = self.src;
        let mut facts = Cursor::default();
        self.read_program(&mut |reading| {
            sentences.push(match reading {
                Reading::Fact { name, args, offset } => Sentence::Clause {
                    term: Term::Compound(
                        name.to_string(),
                        args.iter().map(|a| a.to_term()).collect(),
                    ),
                    pos: facts.advance(src, offset),
                },
                Reading::Sentence(sentence) => sentence,
            })
        })?;
        Ok(Program { sentences })
    }

    /// A whole program, each sentence handed to `each` in order: flat facts
    /// borrowed from the text, anything else as a [`Sentence`].
    pub fn read_program(&mut self, each: &mut dyn FnMut(Reading<'a, '_>)) -> Result<()> {
        let mut args = Vec::new();
        loop {
            if self.flat && self.ahead.is_empty() {
                if let Some((offset, name)) = self.flat_fact(&mut args) {
                    each(Reading::Fact {
                        name,
                        args: &args,
                        offset,
                    });
                    continue;
                }
            }
            match self.sentence()? {
                Some(sentence) => each(Reading::Sentence(sentence)),
                None => return Ok(()),
            }
        }
    }

    /// One sentence, or `None` at end of input.
    fn sentence(&mut self) -> Result<Option<Sentence>> {
        if self.flat && self.ahead.is_empty() {
            let (offset, rest) = self.lexer.rest();
            if let Some((start, len)) = flat_clause_at(rest, &mut self.flat_clause) {
                let term = self.flat_clause.to_term();
                self.lexer.skip(len);
                self.after_end = true;
                let pos = self.pos_of(offset + start);
                return Ok(Some(Sentence::Clause { term, pos }));
            }
        }
        let first = self.peek()?.clone();
        if first.tok == Tok::Eof {
            return Ok(None);
        }
        let pos = self.pos_of(first.start);
        let term = self.term(1200, Within::Free)?.0;
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

    /// Task backgrounds are mostly flat ground facts (`car_num(car0_1, 1).`):
    /// one is read here straight from the text into its name and `args`,
    /// with the start the general reader gives it, and the lexer moved past
    /// it. Anything else (comments, quotes, variables, operators, floats,
    /// digit groups, big numbers, non-ASCII, other layout) is left to the
    /// general reader.
    fn flat_fact(&mut self, args: &mut Vec<Atomic<'a>>) -> Option<(usize, &'a str)> {
        let (offset, rest) = self.lexer.rest();
        let flat = &mut self.flat_clause;
        let (start, len) = flat_clause_at(rest, flat)?;
        let [(name, _)] = flat.literals[..] else {
            return None;
        };
        args.clear();
        for arg in &flat.args {
            match *arg {
                FlatArg::Atomic(atomic) => args.push(atomic),
                FlatArg::Var(_) => return None,
            }
        }
        self.lexer.skip(len);
        Some((offset + start, name))
    }

    /// One term, optionally followed by an end token, then end of input.
    pub fn whole_term(&mut self) -> Result<Term> {
        let term = self.term(1200, Within::Free)?.0;
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

    /// A term of priority at most `max`, with its priority and height.
    fn term(&mut self, max: u16, within: Within) -> Result<Read> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let at = self.peek().map(|t| t.start).unwrap_or(self.src.len());
            return Err(self.too_deep(at));
        }
        let result = self.term_inner(max, within);
        self.depth -= 1;
        result
    }

    /// `Compound(name, args)` with its height, or the error for a term
    /// higher than [`MAX_DEPTH`] (reported at `at`).
    fn compound(&self, name: String, args: Vec<(Term, usize)>, at: usize) -> Result<(Term, usize)> {
        let height = 1 + args.iter().map(|a| a.1).max().unwrap_or(0);
        if height > MAX_DEPTH {
            return Err(self.too_deep(at));
        }
        Ok((
            Term::Compound(name, args.into_iter().map(|a| a.0).collect()),
            height,
        ))
    }

    fn term_inner(&mut self, max: u16, within: Within) -> Result<Read> {
        let (mut left, mut left_priority, mut left_height) = self.primary(max, within)?;
        loop {
            let next = self.peek()?;
            if within.stops_at(&next.tok) {
                break;
            }
            let at = next.start;
            let name = match &next.tok {
                Tok::Name(n) => n.clone(),
                // SWI reads a quoted name as an operator only if it is
                // `','` or `'|'`, and then never as punctuation.
                Tok::Quoted(n) if n == "," || n == "|" => n.clone(),
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
            let (right, _, right_height) = self.term(right_max, within)?;
            (left, left_height) =
                self.compound(name, vec![(left, left_height), (right, right_height)], at)?;
            left_priority = priority;
        }
        Ok((left, left_priority, left_height))
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

    fn primary(&mut self, max: u16, within: Within) -> Result<Read> {
        let token = self.advance()?;
        match token.tok {
            Tok::Number(n) => Ok((number_term(n, false), 0, 1)),
            Tok::Var(v) => Ok((Term::Var(v), 0, 1)),
            Tok::Str(s) => Ok((Term::Str(s), 0, 1)),
            Tok::BackQuoted(s) => {
                // SWI reads back-quoted text as a list of character codes.
                let codes: Vec<Term> = s.chars().map(|c| Term::Int(i64::from(c as u32))).collect();
                let height = codes.len() + 1;
                if height > MAX_DEPTH {
                    return Err(self.too_deep(token.start));
                }
                Ok((Term::list(codes, Term::Atom("[]".into())), 0, height))
            }
            Tok::Open => {
                let (inner, _, height) = self.term(1200, Within::Free)?;
                self.expect(Tok::Close, "`)`")?;
                Ok((inner, 0, height))
            }
            Tok::OpenList => self.list(),
            Tok::OpenCurly => {
                if self.peek()?.tok == Tok::CloseCurly {
                    self.advance()?;
                    return self.after_name("{}".into(), token.start, max, false, within);
                }
                let inner = self.term(1200, Within::Free)?;
                self.expect(Tok::CloseCurly, "`}`")?;
                let (term, height) =
                    self.compound("{}".into(), vec![(inner.0, inner.2)], token.start)?;
                Ok((term, 0, height))
            }
            Tok::Name(name) => self.after_name(name, token.start, max, true, within),
            Tok::Quoted(name) if name == QUOTED_NIL => {
                Err(self.error(token.start, "reserved atom"))
            }
            Tok::Quoted(name) if name == "[]" => {
                let next = self.peek()?;
                // `'[]'(…)` is a compound named `[]`; `'[]'` alone is an atom
                // that is not the empty list.
                let name = if next.tok == Tok::Open && !next.layout_before {
                    name
                } else {
                    QUOTED_NIL.to_string()
                };
                self.after_name(name, token.start, max, false, within)
            }
            Tok::Quoted(name) => self.after_name(name, token.start, max, false, within),
            Tok::Comma => Err(self.error(token.start, "unexpected comma")),
            Tok::Bar => Err(self.error(token.start, "unexpected `|`")),
            _ => Err(self.unexpected(&token)),
        }
    }

    fn list(&mut self) -> Result<Read> {
        let open = self.peek()?.clone();
        if open.tok == Tok::CloseList {
            self.advance()?;
            return self.after_name("[]".into(), open.start, 999, false, Within::Free);
        }
        let mut items: Vec<(Term, usize)> = Vec::new();
        let tail = loop {
            // n elements make a list at least n + 1 high: fail early.
            if items.len() + 1 >= MAX_DEPTH {
                let at = self.peek()?.start;
                return Err(self.too_deep(at));
            }
            let (item, _, height) = self.term(1200, Within::List)?;
            items.push((item, height));
            let next = self.advance()?;
            match next.tok {
                Tok::Comma => continue,
                Tok::Bar => {
                    let (tail, _, height) = self.term(1200, Within::List)?;
                    self.expect(Tok::CloseList, "`]`")?;
                    break (tail, height, next.start);
                }
                Tok::CloseList => break (Term::Atom("[]".into()), 1, next.start),
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
        };
        let (tail, tail_height, at) = tail;
        // Cell k holds element k and the cells after it.
        let height = items
            .iter()
            .rev()
            .fold(tail_height, |rest, (_, h)| 1 + rest.max(*h));
        if height > MAX_DEPTH {
            return Err(self.too_deep(at));
        }
        let items = items.into_iter().map(|(t, _)| t).collect();
        Ok((Term::list(items, tail), 0, height))
    }

    /// What follows a name token: functional notation, a negative number,
    /// a prefix-operator application, or just the atom.
    fn after_name(
        &mut self,
        name: String,
        name_start: usize,
        max: u16,
        unquoted: bool,
        within: Within,
    ) -> Result<Read> {
        let next = self.peek()?;
        if next.tok == Tok::Open && !next.layout_before {
            self.advance()?;
            let mut args = Vec::new();
            loop {
                let (arg, _, height) = self.term(1200, Within::Arg)?;
                args.push((arg, height));
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
            let (term, height) = self.compound(name, args, name_start)?;
            return Ok((term, 0, height));
        }
        if unquoted && name == "-" && !next.layout_before {
            if let Tok::Number(n) = &next.tok {
                let n = n.clone();
                self.advance()?;
                return Ok((number_term(n, true), 0, 1));
            }
        }
        // SWI never reads a quoted name as a prefix operator.
        let Some((priority, kind)) = ops::prefix(&name).filter(|_| unquoted) else {
            return Ok((Term::Atom(name), 0, 1));
        };
        let next = self.peek()?.clone();
        if Self::ends_operand(&next.tok) {
            return Ok((Term::Atom(name), 0, 1));
        }
        // `- = x`: an infix operator after a prefix operator makes the
        // prefix operator an atom, unless the name can itself start a term
        // (a prefix operator, or functional notation `=(a)`).
        if let Tok::Name(n) = &next.tok {
            if ops::infix(n).is_some() && ops::prefix(n).is_none() {
                let after = self.peek_at(1)?;
                let functional = after.tok == Tok::Open && !after.layout_before;
                if !functional {
                    return Ok((Term::Atom(name), 0, 1));
                }
            }
        }
        if priority > max {
            return Err(self.error(name_start, "operator priority clash"));
        }
        let (_, arg_max) = ops::arg_priorities(priority, kind);
        let (arg, _, height) = self.term(arg_max, within)?;
        let (term, height) = self.compound(name, vec![(arg, height)], name_start)?;
        Ok((term, priority, height))
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

/// The bytes that continue an ASCII word (letters, digits, `_`), as a table:
/// words are most of a task's text, and one lookup per byte beats four
/// range tests.
const WORD_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
};

/// An argument of a flat clause, borrowed from the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FlatArg<'s> {
    /// A plain atom or integer.
    Atomic(Atomic<'s>),
    /// A variable written as a plain ASCII word (`_` among them).
    Var(&'s str),
}

/// Most literals a flat clause's body may have: far below [`MAX_DEPTH`],
/// so a clause read here is never too high for the general reader.
const FLAT_LITERALS: usize = 256;

/// A flat clause as [`flat_clause_at`] finds it: `Head.` or
/// `Head :- L1, …, Ln.`, where the head and every literal are
/// `name(a1, …, ak)` and each argument a plain atom, integer or variable:
/// nearly every rule an answer holds.
#[derive(Debug, Default)]
pub(crate) struct FlatClause<'s> {
    /// The head first, then the body's literals: each name and its
    /// arguments' end in `args`.
    pub literals: Vec<(&'s str, usize)>,
    /// Every literal's arguments, in order.
    pub args: Vec<FlatArg<'s>>,
}

impl<'s> FlatClause<'s> {
    /// Each literal's name and arguments, the head first.
    pub fn each_literal(&self) -> impl Iterator<Item = (&'s str, &[FlatArg<'s>])> {
        let mut from = 0;
        self.literals.iter().map(move |&(name, to)| {
            let args = &self.args[from..to];
            from = to;
            (name, args)
        })
    }

    /// The tokens the general lexer finds in it, the end token included.
    pub fn tokens(&self) -> usize {
        // `name ( a1 , … , ak )` is 2k + 2 tokens; then `:-` and the
        // commas between literals, and the end.
        let body = self.literals.len() - 1;
        2 * self.args.len()
            + 2 * self.literals.len()
            + usize::from(body > 0)
            + body.saturating_sub(1)
            + 1
    }

    /// The term the general reader reads.
    pub fn to_term(&self) -> Term {
        let mut literals = self.each_literal().map(|(name, args)| {
            let args = args
                .iter()
                .map(|arg| match *arg {
                    FlatArg::Atomic(a) => a.to_term(),
                    FlatArg::Var(v) => Term::Var(v.to_string()),
                })
                .collect();
            Term::Compound(name.to_string(), args)
        });
        let head = literals.next().expect("a head");
        let mut body: Vec<Term> = literals.collect();
        let Some(mut goal) = body.pop() else {
            return head;
        };
        while let Some(before) = body.pop() {
            goal = Term::Compound(",".into(), vec![before, goal]);
        }
        Term::Compound(":-".into(), vec![head, goal])
    }
}

/// The flat clause (see [`FlatClause`]) at the start of `rest`, after
/// spaces and newlines, read into `out`: where it starts, and the bytes up
/// to and including its end token's `.`. Spaces may stand between an
/// argument list's tokens, spaces and newlines between literals. Anything
/// else (comments, quotes, operators, other layout, floats, digit groups,
/// big numbers, non-ASCII, atoms that are operators) is left to the
/// general reader.
pub(crate) fn flat_clause_at<'a>(
    rest: &'a str,
    out: &mut FlatClause<'a>,
) -> Option<(usize, usize)> {
    let bytes = rest.as_bytes();
    let layout = |i: &mut usize, newlines: bool| {
        while bytes
            .get(*i)
            .is_some_and(|&b| b == b' ' || (newlines && b == b'\n'))
        {
            *i += 1;
        }
    };
    out.literals.clear();
    out.args.clear();
    let mut i = 0;
    layout(&mut i, true);
    let start = i;
    loop {
        let name = lower_word(rest, &mut i)?;
        if bytes.get(i) != Some(&b'(') {
            return None;
        }
        i += 1;
        loop {
            layout(&mut i, false);
            let arg = match *bytes.get(i)? {
                b'0'..=b'9' => {
                    let from = i;
                    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                        i += 1;
                    }
                    FlatArg::Atomic(Atomic::Int(rest[from..i].parse().ok()?))
                }
                b'A'..=b'Z' | b'_' => {
                    let from = i;
                    i += 1;
                    while bytes.get(i).is_some_and(|&b| WORD_BYTE[b as usize]) {
                        i += 1;
                    }
                    if bytes.get(i).is_some_and(|b| !b.is_ascii()) {
                        return None;
                    }
                    FlatArg::Var(&rest[from..i])
                }
                _ => {
                    let word = lower_word(rest, &mut i)?;
                    if ops::is_any_operator(word) {
                        return None;
                    }
                    FlatArg::Atomic(Atomic::Atom(word))
                }
            };
            out.args.push(arg);
            layout(&mut i, false);
            match bytes.get(i)? {
                b',' => i += 1,
                b')' => break,
                _ => return None,
            }
        }
        i += 1;
        out.literals.push((name, out.args.len()));
        if out.literals.len() > FLAT_LITERALS + 1 {
            return None;
        }
        layout(&mut i, true);
        match bytes.get(i)? {
            b'.' => {
                i += 1;
                if !matches!(
                    bytes.get(i),
                    None | Some(b' ' | b'\n' | b'\t' | b'\r' | b'%')
                ) {
                    return None;
                }
                return Some((start, i));
            }
            b',' if out.literals.len() > 1 => i += 1,
            b':' if out.literals.len() == 1 && bytes.get(i + 1) == Some(&b'-') => {
                i += 2;
                // `:-` alone, not the start of a longer symbol token.
                if !bytes
                    .get(i)
                    .is_some_and(|&b| b == b' ' || b == b'\n' || b.is_ascii_lowercase())
                {
                    return None;
                }
            }
            _ => return None,
        }
        layout(&mut i, true);
    }
}

/// An ASCII word starting with a lower-case letter at `bytes[*i]`, which
/// the general lexer reads as one name: `*i` moves past it. `None` if a
/// non-ASCII character continues it (the lexer's words are Unicode).
fn lower_word<'s>(text: &'s str, i: &mut usize) -> Option<&'s str> {
    let bytes = text.as_bytes();
    let from = *i;
    if !bytes.get(from)?.is_ascii_lowercase() {
        return None;
    }
    let end = from
        + 1
        + bytes[from + 1..]
            .iter()
            .position(|&b| !WORD_BYTE[b as usize])
            .unwrap_or(bytes.len() - from - 1);
    if bytes.get(end).is_some_and(|b| !b.is_ascii()) {
        return None;
    }
    *i = end;
    // ASCII bytes on both sides: char boundaries.
    text.get(from..end)
}

#[cfg(test)]
mod tests {
    use super::Parser;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The heads kept and the lines of the errors, as SWI-Prolog 9 reports
    /// and skips them when it consults the text (checked with swipl).
    fn recovered(src: &str) -> (Vec<String>, Vec<u32>) {
        let (program, errors) = Parser::new(src).program_recovering();
        let heads = program
            .sentences
            .iter()
            .map(|s| match s.head() {
                Some(h) => h.to_string(),
                None => "directive".into(),
            })
            .collect();
        (heads, errors.iter().map(|e| e.pos.line).collect())
    }

    /// `'[]'` is an atom apart from the empty list, as in SWI-Prolog 9;
    /// `'[]'(a)` is a compound named `[]`; both print back as they read.
    #[test]
    fn the_quoted_empty_list_is_an_atom_of_its_own() {
        use crate::syntax::prolog::{parse_term, Term, QUOTED_NIL};
        let read = |s: &str| parse_term(s).unwrap();
        assert_eq!(read("'[]'"), Term::Atom(QUOTED_NIL.into()));
        assert_eq!(read("[]"), Term::Atom("[]".into()));
        assert_eq!(read("[ ]"), Term::Atom("[]".into()));
        assert_ne!(read("'[]'"), read("[]"));
        assert_eq!(
            read("'[]'(a)"),
            Term::Compound("[]".into(), vec![Term::Atom("a".into())])
        );
        assert!(parse_term("'[]' (a)").is_err());
        for text in ["'[]'", "f('[]',[])", "['[]']", "'[]'(a)", "'[]'=[]"] {
            let term = read(text);
            assert_eq!(term.to_string(), text);
            assert_eq!(read(&term.to_string()), term, "{text}");
        }
        assert!(parse_term("'\\0\\\'[]\''").is_err());
    }

    #[test]
    fn a_malformed_sentence_is_skipped_to_its_end() {
        let src = "a(1).\nb(X) :- X = = 1.\nc(2).\n";
        assert_eq!(
            recovered(src),
            (vec!["a(1)".into(), "c(2)".into()], vec![2])
        );
        // The error is at the end token itself: nothing more is skipped.
        let src = "a(1) :- (b.\nc(2).\n";
        assert_eq!(recovered(src), (vec!["c(2)".into()], vec![1]));
        // Two sentences on a line; a `.` inside quotes or followed by no
        // layout does not end the sentence.
        let src = "a(X) :- b(X) c(X). d('x. y') :- e. f(1).";
        assert_eq!(
            recovered(src),
            (vec!["d('x. y')".into(), "f(1)".into()], vec![1])
        );
        let src = "a :- b c.d.\ne.\n";
        assert_eq!(recovered(src), (vec!["e".into()], vec![1]));
        // An unterminated comment or quote takes the rest of the text.
        let src = "a :- /* b.\nc.\n";
        assert_eq!(recovered(src), (vec![], vec![1]));
        let src = "a(1).\nb :- X = 'q.\nc.\n";
        assert_eq!(recovered(src), (vec!["a(1)".into()], vec![2]));
        // Past MAX_ERRORS errors the rest is not read.
        let src = "a b.\n".repeat(super::MAX_ERRORS) + "c.\n";
        assert_eq!(recovered(&src).0, Vec::<String>::new());
        let src = "a b.\n".repeat(super::MAX_ERRORS - 1) + "c.\n";
        assert_eq!(recovered(&src).0, vec!["c".to_string()]);
    }

    /// The program with and without the flat-fact reader: sentences,
    /// positions and errors, printed.
    fn both(src: &str) -> (String, String) {
        let read = |flat: bool| {
            let mut parser = Parser::new(src);
            parser.flat = flat;
            match parser.program() {
                Ok(program) => program
                    .sentences
                    .iter()
                    .map(|s| format!("{s:?}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
                Err(e) => format!("error {e} at {:?}", e.pos),
            }
        };
        (read(true), read(false))
    }

    /// Random texts made of flat facts and near misses: every one reads
    /// exactly as the general reader reads it, error or not.
    #[test]
    fn flat_facts_read_as_the_general_reader_reads_them() {
        const LEAD: &[&str] = &["", " ", "\n", "  \n", "\t", "% c\n", "/* c */", "\r\n"];
        const NAMES: &[&str] = &[
            "has_car", "car_num", "f", "is", "mod", "dynamic", "x_Y9", "é", "aé", "Var", "_",
            "'q'", "[]", "g(a)", "a.b", "-", "1",
        ];
        const ARGS: &[&str] = &[
            "train0",
            "car0_1",
            "red",
            "0",
            "7",
            "007",
            "1_000",
            "0'a",
            "0x1F",
            "1.5",
            "1e5",
            "1e",
            "99999999999999999999",
            "9223372036854775807",
            "9223372036854775808",
            "is",
            "mod",
            "rem",
            "-",
            "-1",
            "X",
            "_",
            "'a b'",
            "\"s\"",
            "[]",
            "[a]",
            "f(a)",
            "a+b",
            "é",
            "tré",
            "",
            "a b",
            "0000000000000000000001",
        ];
        const SEPS: &[&str] = &[",", ", ", " ,", " , ", ",\n", ",,", ";", "|"];
        const ENDS: &[&str] = &[
            ").", ").\n", ") .", ").%c", ").a", ")..", ")", ").\t", ")).", "].", ")\n.",
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        for case in 0..20_000 {
            let mut src = String::new();
            for _ in 0..rng.gen_range(1..4) {
                src.push_str(LEAD.choose(&mut rng).unwrap());
                src.push_str(NAMES.choose(&mut rng).unwrap());
                src.push_str(if rng.gen_bool(0.9) { "(" } else { " (" });
                for k in 0..rng.gen_range(1..4) {
                    if k > 0 {
                        src.push_str(SEPS.choose(&mut rng).unwrap());
                    }
                    if rng.gen_bool(0.3) {
                        src.push(' ');
                    }
                    src.push_str(ARGS.choose(&mut rng).unwrap());
                }
                src.push_str(ENDS.choose(&mut rng).unwrap());
                if rng.gen_bool(0.7) {
                    src.push('\n');
                }
            }
            let (fast, general) = both(&src);
            assert_eq!(fast, general, "case {case}: {src:?}");
        }
    }

    /// Random rules made of flat literals and near misses: every one reads
    /// exactly as the general reader reads it, error or not.
    #[test]
    fn flat_clauses_read_as_the_general_reader_reads_them() {
        // Each part: what the flat reader takes, then near misses it must
        // leave to the general reader.
        const LEAD: (&[&str], &[&str]) = (&["", " ", "\n", " \n "], &["\t", "% c\n", "/* c */"]);
        const NAMES: (&[&str], &[&str]) = (
            &["eastbound", "has_car", "car_num", "is", "mod", "dynamic"],
            &["é", "X", "'q'", "-", "\\+", "a.b"],
        );
        const ARGS: (&[&str], &[&str]) = (
            &[
                "T",
                "C",
                "_",
                "_C1",
                "car0_1",
                "red",
                "7",
                "007",
                "9223372036854775807",
            ],
            &[
                "Xé",
                "1_000",
                "0'a",
                "1.5",
                "9223372036854775808",
                "-1",
                "mod",
                "'a b'",
                "[]",
                "f(a)",
                "X+1",
                "",
                "\"s\"",
            ],
        );
        const NECKS: (&[&str], &[&str]) = (
            &[" :- ", ":-", ":-\n", " :-\n  ", "\n:- "],
            &[":--", ":- \\+ ", "-->", ": -", " :-\t", ":-%c\n", ":-("],
        );
        const JOINS: (&[&str], &[&str]) = (
            &[", ", ",", ",\n  ", " ,", "\n, "],
            &[";", "|", " -> ", ",,", ", % c\n", ",\t"],
        );
        const ENDS: (&[&str], &[&str]) = (
            &[").", ").\n", ") .", ")\n.", ").%c", ").\t"],
            &[").a", ")", ")).", ").(", ")..", ")./*"],
        );
        fn pick(
            rng: &mut ChaCha8Rng,
            (good, bad): (&[&'static str], &[&'static str]),
        ) -> &'static str {
            let from = if rng.gen_bool(0.9) { good } else { bad };
            from.choose(rng).unwrap()
        }
        let literal = |rng: &mut ChaCha8Rng, src: &mut String| {
            src.push_str(pick(rng, NAMES));
            src.push_str(if rng.gen_bool(0.97) { "(" } else { " (" });
            for k in 0..rng.gen_range(1..4) {
                if k > 0 {
                    src.push_str(pick(rng, (&[", ", ",", " , "], &[",\n", ";"])));
                }
                src.push_str(pick(rng, ARGS));
            }
        };
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let mut rules = 0;
        for case in 0..20_000 {
            let mut src = String::new();
            for _ in 0..rng.gen_range(1..4) {
                src.push_str(pick(&mut rng, LEAD));
                literal(&mut rng, &mut src);
                let body = rng.gen_range(0..5);
                if body > 0 {
                    src.push(')');
                    src.push_str(pick(&mut rng, NECKS));
                }
                for k in 0..body {
                    if k > 0 {
                        src.push(')');
                        src.push_str(pick(&mut rng, JOINS));
                    }
                    literal(&mut rng, &mut src);
                }
                src.push_str(pick(&mut rng, ENDS));
                if rng.gen_bool(0.7) {
                    src.push('\n');
                }
            }
            let (fast, general) = both(&src);
            assert_eq!(fast, general, "case {case}: {src:?}");
            rules += fast.matches("Compound(\",\"").count();
        }
        // The flat reader is tried on many rules of several literals.
        assert!(rules > 5_000, "{rules}");
    }

    /// A body as long as the flat reader takes, and one literal longer:
    /// both read as the general reader reads them.
    #[test]
    fn long_flat_bodies_read_alike() {
        for n in [super::FLAT_LITERALS, super::FLAT_LITERALS + 1] {
            let body = vec!["car_num(C, 1)"; n].join(", ");
            let src = format!("eastbound(T) :- {body}.\n");
            let (fast, general) = both(&src);
            assert_eq!(fast, general);
        }
    }

    /// The shipped task corpora read the same both ways.
    #[test]
    fn corpora_read_alike_with_and_without_flat_facts() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/slr");
        let mut programs = 0;
        for file in ["golden.jsonl", "predictions.jsonl"] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            for line in text.lines() {
                let record: serde_json::Value = serde_json::from_str(line).unwrap();
                for key in ["validation program", "validation_program", "prediction"] {
                    if let Some(src) = record.get(key).and_then(|v| v.as_str()) {
                        let (fast, general) = both(src);
                        assert_eq!(fast, general, "{src}");
                        programs += 1;
                    }
                }
            }
        }
        assert!(programs >= 14, "{programs}");
    }
}

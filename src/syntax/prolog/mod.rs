//! ISO Prolog text, as SWI-Prolog and scryer read it.
//!
//! [`parse_program`] and [`parse_term`] read text into the AST of
//! [`ast`](self); `Display` on [`Term`], [`Sentence`] and [`Program`] writes
//! it back as text that SWI-Prolog 9 and scryer-prolog both read as the same
//! term. The accepted grammar is `grammar/prolog.ebnf`.
//!
//! ```
//! use entail::syntax::prolog::{parse_program, parse_term};
//! let program = parse_program("ancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).").unwrap();
//! let rule = &program.sentences[0];
//! assert_eq!(rule.head().unwrap().name_arity(), Some(("ancestor", 2)));
//! assert_eq!(program.to_string(), "ancestor(X,Y):-parent(X,Z),ancestor(Z,Y).\n");
//! assert_eq!(parse_term("a- -1").unwrap().to_string(), "a- -1");
//! ```

mod ast;
mod lexer;
mod ops;
mod parser;
mod print;
mod skim;
mod term;

pub use ast::*;
pub use parser::{Atomic, Reading};
pub(crate) use print::{atom_text, float_text, is_plain_word, quoted};
pub use skim::{skim_program, Skimmed};
pub use term::Subterms;

use crate::syntax::SyntaxError;

/// Reads a Prolog text: clauses and directives, each ended by `.` followed
/// by layout, `%` or the end of input.
pub fn parse_program(src: &str) -> Result<Program, SyntaxError> {
    parser::Parser::new(src).program()
}

/// Reads a Prolog text as SWI-Prolog consults a file: each sentence with
/// a syntax error is skipped (up to its end token) and reported, and the
/// others are kept, in order.
pub fn parse_program_recovering(src: &str) -> (Program, Vec<SyntaxError>) {
    parser::Parser::new(src).program_recovering()
}

/// Reads the sentences of `src` within `spans` (ascending `(start, end)`
/// byte ranges, each starting and ending where [`skim_program`] says
/// sentences start), as [`parse_program_recovering`] reads them: a
/// sentence with a syntax error is reported and left out. Positions are
/// within the whole of `src`.
pub fn parse_sentences_in(src: &str, spans: &[(usize, usize)]) -> (Program, Vec<SyntaxError>) {
    parser::Parser::new(src).sentences_in(spans)
}

/// Reads a Prolog text as [`parse_program`] does, handing each sentence
/// to `each` in order; flat ground facts (`has_car(train0, car0_1).`) come
/// borrowed from the text, with no term built, for loaders of large
/// fact bases.
pub fn read_program<'s>(
    src: &'s str,
    each: &mut dyn FnMut(Reading<'s, '_>),
) -> Result<(), SyntaxError> {
    parser::Parser::new(src).read_program(each)
}

/// Reads exactly one term, optionally followed by the end token.
pub fn parse_term(src: &str) -> Result<Term, SyntaxError> {
    parser::Parser::new(src).whole_term()
}

/// The highest term the reader accepts (an atom is 1 high, a compound one
/// more than its highest argument, so a list of n elements is n + 1 high).
/// Anything higher is a syntax error, so recursive walks over terms read
/// here cannot overflow the stack.
pub const MAX_DEPTH: usize = parser::MAX_DEPTH;

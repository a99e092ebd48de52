//! The syntax layer: lexers, parsers, ASTs and printers for Prover9 and
//! Prolog, a TPTP (FOF and CNF) reader, nom parsers for the small formats of
//! model answers ([`answer`]), and the raw text of JSON entries ([`json`]).
//!
//! Both parsers are total: any input gives either an AST or a [`SyntaxError`]
//! with a position, never a panic.

pub mod answer;
mod error;
pub mod fol;
pub mod json;
pub mod jsonl;
pub mod prolog;
pub mod prover9;
pub mod tptp;

pub use error::{Pos, PosCursor, SyntaxError};

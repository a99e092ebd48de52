//! # entail
//!
//! A logic engine for checking LLM reasoning.
//!
//! The crate is layered, and each layer imports only from the layers above it
//! in this list:
//!
//! 1. [`syntax`]: parsers and printers for Prover9 input and Prolog text.
//! 2. [`prolog`], [`smt`] and [`truth`]: the engines, an embedded
//!    scryer-prolog, Z3, and exact truth tables for propositional formulas.
//! 3. [`judge`] and [`prove`]: the services, scoring Prolog hypotheses and
//!    checking Prover9 proofs.
//! 4. [`gen`]: benchmark generators, written as clients of the services.
//!
//! The `entail` binary is a thin command line over this API.
#![warn(missing_docs)]

pub mod gen;
pub mod judge;
pub mod prolog;
pub mod prove;
pub mod smt;
pub mod syntax;
pub mod table;
pub mod truth;

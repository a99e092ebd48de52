//! # entail
//!
//! A logic engine for checking LLM reasoning. A tour, from the services to
//! the benchmarks built on them:
//!
//! - [`judge`] scores a Prolog rule a model proposed for an inductive
//!   (SLR-style) task, sandboxed, with SWI-Prolog's semantics.
//! - [`prove`] checks Prover9-syntax problems and multi-step proofs with Z3
//!   (raced with E prover and a finite model search for plain problems).
//! - [`gen`] generates the four benchmarks (SLR, LogicGraph, LogiConBench,
//!   DivLogicEval) with engine-verified labels, and scores model answers to
//!   them. Each has the same face: a `Config`, `generate` and `score`.
//!
//! The example below is `tests/tour/body.rs`, which also runs as a test:
//!
//! ```
#![doc = include_str!("../tests/tour/body.rs")]
//! ```
//!
//! ## Layers
//!
//! Each layer imports only from the layers above it in this list:
//!
//! 1. [`syntax`]: parsers and printers for Prover9 input, Prolog text and the
//!    small formats of model answers.
//! 2. [`prolog`], [`smt`] and [`truth`]: the engines, a native Prolog
//!    interpreter with scryer-prolog workers behind it, Z3, and exact truth
//!    tables for propositional formulas.
//! 3. [`judge`] and [`prove`]: the services, scoring Prolog hypotheses and
//!    checking Prover9 proofs.
//! 4. [`gen`]: the benchmarks, written as clients of the services.
//!
//! The `entail` binary is a thin command line over this API: the library
//! never parses flags or prints.
//!
//! ## Build profile of a dependent crate
//!
//! scryer-prolog and z3 run some 60 times slower unoptimised, and a
//! dependency's profile settings do not carry over to the crates that use
//! it. A crate that depends on `entail` should therefore optimise them (or
//! all dependencies) in its own debug profile, as this crate does:
//!
//! ```toml
//! [profile.dev.package.scryer-prolog]
//! opt-level = 3
//! [profile.dev.package.z3]
//! opt-level = 3
//! ```
#![warn(missing_docs)]

pub mod gen;
pub mod judge;
pub mod picture;
pub mod prolog;
pub mod prove;
pub mod saturate;
pub mod smt;
pub mod syntax;
pub mod table;
pub mod truth;

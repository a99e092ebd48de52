//! The Prolog engine: embedded scryer-prolog machines, and the worker
//! processes that isolate them.
//!
//! Scryer has no sandbox and can panic, leak or exhaust memory on hostile
//! programs, so the judge never runs it in its own process. [`Worker`] starts
//! this binary in a hidden worker mode ([`serve_worker`]) under a memory limit,
//! talks to it over pipes, and kills and restarts it on a timeout or crash.
//! [`Engine`] is the machine wrapper the worker uses.

mod engine;
pub mod native;
mod worker;

pub use engine::{print_term, Engine, EngineError, Outcome, STDLIB};
pub use worker::{
    serve_worker, AtomRenaming, Background, Worker, WorkerConfig, WorkerFailure, WORKER_ARG,
};

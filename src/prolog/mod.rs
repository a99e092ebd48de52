//! The Prolog engine: embedded scryer-prolog machines, and the worker
//! processes that isolate them.
//!
//! Scryer has no sandbox and can panic, leak or exhaust memory on hostile
//! programs, so the judge never runs it in its own process. [`Worker`] starts
//! a worker program ([`WorkerCommand`]: the `entail-worker` executable built
//! with the crate, or any host that calls [`serve_worker`]) under a memory
//! limit, talks to it over pipes, and kills and restarts it on a timeout or
//! crash.
//! [`ScryerMachine`] is the machine wrapper the worker uses.

mod background;
mod engine;
pub mod native;
mod per_process;
mod worker;

pub use background::{Arg, Background, Clause, Clauses, ClausesBuilder, Renaming};
pub use engine::{print_term, MachineError, Outcome, ScryerMachine, STDLIB};
#[cfg(test)]
pub(crate) use per_process::assert_in_forked_child;
pub(crate) use per_process::PerProcess;
pub use worker::{
    serve_worker, with_cancel, Worker, WorkerCommand, WorkerConfig, WorkerFailure, WORKER_BINARY,
};

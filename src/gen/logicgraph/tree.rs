//! A whole tree of LogicGraph instances checked in one process: the output
//! of `gen logicgraph --output DIR`, or the published `Small/`, `Medium/`,
//! `Large/` tree. Starting a process per instance costs more than checking
//! most instances; here each thread keeps one prover (and its Z3 context)
//! for every instance it takes.

use super::Instances;
use crate::prove::{CheckReport, ProveError, ProveOptions, Prover, SupportOptions};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// How to check each instance of a tree.
#[derive(Debug, Clone)]
pub struct TreeOptions {
    /// Each prover's options.
    pub prove: ProveOptions,
    /// Also enumerate each instance's minimal supports.
    pub supports: Option<SupportOptions>,
    /// Check the instantiated `prover9_expression`s instead of A-notation.
    pub instantiated: bool,
    /// Threads, each with its own prover (at least one).
    pub threads: usize,
}

impl Instances {
    /// Checks every instance on `options.threads` threads and hands each
    /// result to `report` in the order of `self.dirs`, as soon as it and
    /// every one before it are done, so output is the same whatever the
    /// thread count. A directory that cannot be read gets its error; the
    /// others go on. `report` returns `false` to stop the run: instances
    /// under way finish, no more start.
    pub fn check(
        &self,
        options: &TreeOptions,
        report: impl FnMut(usize, Result<CheckReport, ProveError>) -> bool,
    ) {
        check_tree(self, options, report)
    }
}

fn check_tree(
    instances: &Instances,
    options: &TreeOptions,
    mut report: impl FnMut(usize, Result<CheckReport, ProveError>) -> bool,
) {
    let dirs = &instances.dirs;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (done, results) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..options.threads.clamp(1, dirs.len().max(1)) {
            let (next, stop, done) = (&next, &stop, done.clone());
            scope.spawn(move || {
                let mut prover = Prover::new(options.prove.clone());
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(dir) = dirs.get(i) else { break };
                    let result =
                        Instances::load(&dir.path, options.instantiated).and_then(|problem| {
                            prover.check_problem(&problem, options.supports.as_ref())
                        });
                    if done.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        // Results arrive in any order; they leave in the order of `dirs`.
        let mut waiting = std::collections::BTreeMap::new();
        let mut first = 0;
        for (i, result) in results {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&first) {
                if !stop.load(Ordering::Relaxed) && !report(first, result) {
                    stop.store(true, Ordering::Relaxed);
                }
                first += 1;
            }
        }
    });
}

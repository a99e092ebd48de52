//! A pool of engine worker processes shared by threads.

use super::sandbox::for_scryer;
use super::Evaluator;
use crate::prolog::{Background, Outcome, PerProcess, Worker, WorkerConfig, WorkerFailure};
use crate::syntax::prolog::{Sentence, Term};
use crate::syntax::Pos;
use std::sync::{Condvar, Mutex};

/// Up to `size` workers. A caller borrows an idle worker, preferring one
/// that already holds the caller's background, so a task's facts are loaded
/// once per worker rather than once per answer.
pub struct WorkerPool {
    config: WorkerConfig,
    size: usize,
    /// Per process: a forked child would wait for ever on a lock another
    /// thread held at the fork, or for the workers other threads held.
    shared: PerProcess<Shared>,
}

struct Shared {
    state: Mutex<PoolState>,
    available: Condvar,
}

struct PoolState {
    idle: Vec<Worker>,
    created: usize,
}

impl Shared {
    fn new(idle: Vec<Worker>) -> Shared {
        Shared {
            state: Mutex::new(PoolState {
                created: idle.len(),
                idle,
            }),
            available: Condvar::new(),
        }
    }
}

impl WorkerPool {
    /// A pool that starts workers lazily, at most `size` of them.
    pub fn new(config: WorkerConfig, size: usize) -> WorkerPool {
        WorkerPool {
            config,
            size: size.max(1),
            shared: PerProcess::new(Shared::new(Vec::new())),
        }
    }

    /// This process's workers. A forked child takes the idle workers it
    /// inherited if their lock is free (each starts a process of its own on
    /// first use).
    fn shared(&self) -> &Shared {
        self.shared.get(|inherited| {
            Shared::new(match inherited.state.try_lock() {
                Ok(mut state) => std::mem::take(&mut state.idle),
                Err(_) => Vec::new(),
            })
        })
    }

    fn checkout(&self, key: u64) -> Worker {
        let shared = self.shared();
        let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(i) = state.idle.iter().position(|w| w.loaded_key() == Some(key)) {
                return state.idle.swap_remove(i);
            }
            if state.created < self.size {
                state.created += 1;
                return Worker::new(self.config.clone());
            }
            if let Some(worker) = state.idle.pop() {
                return worker;
            }
            state = shared
                .available
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    fn checkin(&self, worker: Worker) {
        let shared = self.shared();
        let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
        state.idle.push(worker);
        shared.available.notify_one();
    }
}

/// A scryer worker reads text: the hypothesis and goals are printed here,
/// and only here.
impl Evaluator for WorkerPool {
    fn evaluate(
        &self,
        background: &Background,
        hypothesis: &[Term],
        goals: &[Term],
        inference_limit: u64,
    ) -> Result<Outcome, WorkerFailure> {
        let hypothesis = scryer_text(hypothesis, background)?;
        let goals: Vec<String> = goals.iter().map(|g| g.to_text(999)).collect();
        let mut worker = self.checkout(background.key());
        let outcome = worker.eval(background, &hypothesis, &goals, inference_limit);
        self.checkin(worker);
        match outcome {
            Ok(Outcome::Error(_, message)) if message.contains(UNSUPPORTED) => {
                Err(WorkerFailure::Unsupported(message))
            }
            other => other,
        }
    }
}

/// What the runtime throws (`'$judge_unsupported'(What)`, in
/// `stdlib/judge.pl`) where scryer cannot do what SWI-Prolog does.
const UNSUPPORTED: &str = "$judge_unsupported";

/// The sanitized hypothesis as scryer must run it ([`for_scryer`]).
fn scryer_text(hypothesis: &[Term], background: &Background) -> Result<String, WorkerFailure> {
    let clauses =
        for_scryer(hypothesis.to_vec(), &background.terms()).map_err(WorkerFailure::Unsupported)?;
    Ok(clauses
        .into_iter()
        .map(|term| {
            let mut line = Sentence::Clause {
                term,
                pos: Pos::default(),
            }
            .to_string();
            line.push('\n');
            line
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prolog::assert_in_forked_child;

    /// A child forked while another thread holds every worker gets one of
    /// its own (before, it waited for the held one for ever).
    #[test]
    fn a_child_forked_while_every_worker_is_out_gets_its_own() {
        let pool = WorkerPool::new(WorkerConfig::default(), 1);
        let held = pool.checkout(7);
        // No process is started: workers start theirs on first use.
        assert_in_forked_child(|| {
            let worker = pool.checkout(7);
            pool.checkin(worker);
            true
        });
        pool.checkin(held);
    }

    /// A child forked while another thread is inside the pool's lock gets a
    /// worker (before, it waited for the lock for ever: the thread holding
    /// it does not exist in the child).
    #[test]
    fn a_child_forked_while_the_lock_is_held_gets_a_worker() {
        let pool = WorkerPool::new(WorkerConfig::default(), 2);
        let idle = pool.checkout(7);
        pool.checkin(idle);
        let shared = pool.shared();
        let guard = shared.state.lock().unwrap_or_else(|e| e.into_inner());
        assert_in_forked_child(|| {
            let worker = pool.checkout(7);
            pool.checkin(worker);
            let again = pool.checkout(7);
            pool.checkin(again);
            true
        });
        drop(guard);
        // The parent's state is its own still: its idle worker is there.
        assert_eq!(pool.shared().state.lock().unwrap().idle.len(), 1);
    }
}

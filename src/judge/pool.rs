//! A pool of engine worker processes shared by threads.

use super::sandbox::for_scryer;
use super::Evaluator;
use crate::prolog::{Background, Outcome, Worker, WorkerConfig, WorkerFailure};
use crate::syntax::prolog::{Sentence, Term};
use crate::syntax::Pos;
use std::sync::{Condvar, Mutex};

/// Up to `size` workers. A caller borrows an idle worker, preferring one
/// that already holds the caller's background, so a task's facts are loaded
/// once per worker rather than once per answer.
pub struct WorkerPool {
    config: WorkerConfig,
    size: usize,
    state: Mutex<PoolState>,
    available: Condvar,
}

struct PoolState {
    idle: Vec<Worker>,
    created: usize,
}

impl WorkerPool {
    /// A pool that starts workers lazily, at most `size` of them.
    pub fn new(config: WorkerConfig, size: usize) -> WorkerPool {
        WorkerPool {
            config,
            size: size.max(1),
            state: Mutex::new(PoolState {
                idle: Vec::new(),
                created: 0,
            }),
            available: Condvar::new(),
        }
    }

    fn checkout(&self, key: u64) -> Worker {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
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
            state = self
                .available
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    fn checkin(&self, worker: Worker) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.idle.push(worker);
        self.available.notify_one();
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

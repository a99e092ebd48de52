//! A pool of engine worker processes shared by threads.

use super::sandbox::for_scryer;
use super::Evaluator;
use crate::prolog::{Background, Outcome, Worker, WorkerConfig, WorkerFailure};
use crate::syntax::prolog::{Sentence, Term};
use crate::syntax::Pos;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Condvar, Mutex};

/// Up to `size` workers. A caller borrows an idle worker, preferring one
/// that already holds the caller's background, so a task's facts are loaded
/// once per worker rather than once per answer.
///
/// Fork-safe: a process forked from the one that made the pool gets a state
/// of its own on first use. The inherited one may be locked for ever (by a
/// thread that was inside `checkout` at the fork and does not exist in the
/// child), and the workers other threads held at the fork never come back.
pub struct WorkerPool {
    config: WorkerConfig,
    size: usize,
    /// The current process's state: set once per process, never freed while
    /// the pool lives (a forked child leaks the one it inherited).
    shared: AtomicPtr<Shared>,
}

/// One process's workers.
struct Shared {
    /// The process this state belongs to.
    owner: u32,
    state: Mutex<PoolState>,
    available: Condvar,
}

struct PoolState {
    idle: Vec<Worker>,
    created: usize,
}

impl Shared {
    fn new(idle: Vec<Worker>) -> *mut Shared {
        let created = idle.len();
        Box::into_raw(Box::new(Shared {
            owner: std::process::id(),
            state: Mutex::new(PoolState { idle, created }),
            available: Condvar::new(),
        }))
    }
}

impl WorkerPool {
    /// A pool that starts workers lazily, at most `size` of them.
    pub fn new(config: WorkerConfig, size: usize) -> WorkerPool {
        WorkerPool {
            config,
            size: size.max(1),
            shared: AtomicPtr::new(Shared::new(Vec::new())),
        }
    }

    /// This process's state, made on first use after a fork. A forked
    /// child takes the idle workers if the inherited lock is free (each
    /// starts a process of its own on first use) and leaves the rest.
    fn shared(&self) -> &Shared {
        let current = self.shared.load(Ordering::Acquire);
        // SAFETY: `shared` always points to a live `Shared`: each is freed
        // only by `drop`, and one replaced after a fork is leaked.
        let inherited = unsafe { &*current };
        if inherited.owner == std::process::id() {
            return inherited;
        }
        let idle = match inherited.state.try_lock() {
            Ok(mut state) => std::mem::take(&mut state.idle),
            Err(_) => Vec::new(),
        };
        let mine = Shared::new(idle);
        match self
            .shared
            .compare_exchange(current, mine, Ordering::AcqRel, Ordering::Acquire)
        {
            // SAFETY: as above; `mine` was just made.
            Ok(_) => unsafe { &*mine },
            Err(other) => {
                // Another thread of this process replaced it first.
                // SAFETY: `mine` was never shared; `other` is live.
                let mut lost = unsafe { Box::from_raw(mine) };
                let idle = std::mem::take(
                    &mut lost.state.get_mut().unwrap_or_else(|e| e.into_inner()).idle,
                );
                let other = unsafe { &*other };
                let mut state = other.state.lock().unwrap_or_else(|e| e.into_inner());
                state.created += idle.len();
                state.idle.extend(idle);
                drop(state);
                other
            }
        }
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

impl Drop for WorkerPool {
    fn drop(&mut self) {
        let current = *self.shared.get_mut();
        // SAFETY: live, as in `shared`; freed here once. One inherited
        // through a fork is left alone: its lock or its list may be in the
        // middle of another thread's change.
        if unsafe { &*current }.owner == std::process::id() {
            drop(unsafe { Box::from_raw(current) });
        }
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

    /// A child forked while another thread holds every worker gets one of
    /// its own (before, it waited for the held one for ever).
    #[test]
    fn a_child_forked_while_every_worker_is_out_gets_its_own() {
        let pool = WorkerPool::new(WorkerConfig::default(), 1);
        let held = pool.checkout(7);
        // SAFETY: the child only checks a worker out and in (no process is
        // started: workers start theirs on first use) and leaves by `_exit`;
        // the alarm ends it if it waits.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            unsafe { libc::alarm(60) };
            let worker = pool.checkout(7);
            pool.checkin(worker);
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "child status {status}"
        );
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
        // SAFETY: as above.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            unsafe { libc::alarm(60) };
            let worker = pool.checkout(7);
            pool.checkin(worker);
            let again = pool.checkout(7);
            pool.checkin(again);
            unsafe { libc::_exit(0) };
        }
        drop(guard);
        let mut status = 0;
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "child status {status}"
        );
        // The parent's state is its own still: its idle worker is there.
        assert_eq!(pool.shared().state.lock().unwrap().idle.len(), 1);
    }
}

//! State that threads share and that a forked child must not inherit
//! locked.
//!
//! `fork` copies only the calling thread. A lock another thread held at
//! that moment stays locked in the child for ever, and what it guarded may
//! be half changed. Python forks while other threads score (`os.fork`, a
//! fork `multiprocessing` pool, a data loader), so shared state that takes
//! a lock lives in a [`PerProcess`]: each process gets its own on first use.
//! A value made once (a `static`, a lazily built index) lives in a
//! `once_cell::race::OnceBox`, which takes no lock: threads that race to
//! make it each make one and the first kept wins.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Mutex;

/// A value per process: the one made with [`PerProcess::new`] in the
/// process that made it, and one made by the `fresh` function of
/// [`PerProcess::get`] in each process forked from it.
pub(crate) struct PerProcess<T> {
    /// Never null; freed only by `drop`, and only by the process that made
    /// it (an inherited one is leaked).
    current: AtomicPtr<Owned<T>>,
    /// Send and Sync only as `T` allows (below), not as `AtomicPtr` would.
    _value: PhantomData<*const T>,
}

struct Owned<T> {
    pid: u32,
    value: T,
}

// SAFETY: `PerProcess<T>` owns its `T`s and hands out `&T` to any thread.
unsafe impl<T: Send> Send for PerProcess<T> {}
unsafe impl<T: Send + Sync> Sync for PerProcess<T> {}

impl<T> PerProcess<T> {
    pub(crate) fn new(value: T) -> PerProcess<T> {
        PerProcess {
            current: AtomicPtr::new(Self::owned(value)),
            _value: PhantomData,
        }
    }

    fn owned(value: T) -> *mut Owned<T> {
        Box::into_raw(Box::new(Owned {
            pid: std::process::id(),
            value,
        }))
    }

    /// This process's value. In a process forked since the value was made,
    /// `fresh` makes this process's own from the inherited one, which it
    /// may read only without waiting on a lock (`try_lock`).
    pub(crate) fn get(&self, fresh: impl FnOnce(&T) -> T) -> &T {
        let current = self.current.load(Ordering::Acquire);
        // SAFETY: `current` is never null and lives as long as `self`.
        let inherited = unsafe { &*current };
        if inherited.pid == std::process::id() {
            return &inherited.value;
        }
        let mine = Self::owned(fresh(&inherited.value));
        match self
            .current
            .compare_exchange(current, mine, Ordering::AcqRel, Ordering::Acquire)
        {
            // SAFETY: `mine` is now `current`.
            Ok(_) => unsafe { &(*mine).value },
            Err(first) => {
                // Another thread of this process made its own first.
                // SAFETY: `mine` was never shared; `first` is `current`.
                drop(unsafe { Box::from_raw(mine) });
                unsafe { &(*first).value }
            }
        }
    }
}

impl<T: Clone + Default> PerProcess<Mutex<T>> {
    /// This process's value. A forked child starts from a copy of what it
    /// inherited, or from the default if another thread held the lock at
    /// the fork.
    pub(crate) fn get_or_copy(&self) -> &Mutex<T> {
        self.get(|inherited| {
            Mutex::new(inherited.try_lock().map(|v| v.clone()).unwrap_or_default())
        })
    }
}

impl<T> Drop for PerProcess<T> {
    fn drop(&mut self) {
        let current = *self.current.get_mut();
        // SAFETY: never null; freed here once. An inherited value is left
        // alone: another thread may have been changing it at the fork.
        if unsafe { &*current }.pid == std::process::id() {
            drop(unsafe { Box::from_raw(current) });
        }
    }
}

/// Runs `child` in a forked child process and asserts that it returned
/// true, within 60 s (an alarm ends a child that waits for ever, with
/// status 14). For tests of what a forked child inherits.
#[cfg(test)]
pub(crate) fn assert_in_forked_child(child: impl FnOnce() -> bool) {
    // SAFETY: the child runs only `child`, which must not start threads,
    // and leaves by `_exit`.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        unsafe { libc::alarm(60) };
        let ok = child();
        unsafe { libc::_exit(if ok { 0 } else { 1 }) };
    }
    let mut status = 0;
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child status {status}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child forked while the parent holds the lock gets a value of its
    /// own (the default, not a copy); the parent keeps its own.
    #[test]
    fn a_child_forked_while_the_lock_is_held_gets_its_own() {
        let shared = PerProcess::new(Mutex::new(vec![1]));
        let guard = shared.get(|_| unreachable!()).lock().unwrap();
        assert_in_forked_child(|| {
            let mine = shared.get_or_copy().lock().unwrap().clone();
            shared.get_or_copy().lock().unwrap().push(2);
            let again = shared.get_or_copy().lock().unwrap().clone();
            mine.is_empty() && again == vec![2]
        });
        drop(guard);
        assert_eq!(*shared.get(|_| unreachable!()).lock().unwrap(), vec![1]);
    }

    /// A value made once lives in a `once_cell::race::OnceBox`: a child
    /// forked while another thread makes it makes its own (a `OnceLock`
    /// would keep it waiting for ever); one forked after keeps the
    /// parent's.
    #[test]
    fn a_child_forked_while_a_once_box_is_filled_fills_its_own() {
        static VALUE: once_cell::race::OnceBox<u32> = once_cell::race::OnceBox::new();
        let (started, making) = std::sync::mpsc::channel();
        let (finish, finished) = std::sync::mpsc::channel::<()>();
        let maker = std::thread::spawn(move || {
            *VALUE.get_or_init(|| {
                started.send(()).unwrap();
                finished.recv().unwrap();
                Box::new(1)
            })
        });
        making.recv().unwrap();
        assert_in_forked_child(|| *VALUE.get_or_init(|| Box::new(2)) == 2);
        finish.send(()).unwrap();
        assert_eq!(maker.join().unwrap(), 1);
        assert_in_forked_child(|| *VALUE.get_or_init(|| Box::new(3)) == 1);
    }
}

//! Generators that Ctrl-C stops: the work runs on its own thread while the
//! calling thread waits with the GIL released and looks for signals every
//! [`POLL`], so a `KeyboardInterrupt` reaches Python at once; the work is
//! told to stop through a flag that its output checks.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// How often a waiting call takes the GIL to look for Ctrl-C.
const POLL: Duration = Duration::from_millis(100);

/// How long an interrupted call waits for its work to stop.
const STOP: Duration = Duration::from_millis(1500);

/// Set when the caller was interrupted: the work should stop.
#[derive(Clone)]
pub(crate) struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub(crate) fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// A writer into memory that fails once the flag is set, so a
    /// generator writing into it stops at its next chunk.
    pub(crate) fn output(&self) -> Output {
        Output {
            bytes: Vec::new(),
            cancel: self.clone(),
        }
    }
}

/// See [`Cancel::output`].
pub(crate) struct Output {
    pub(crate) bytes: Vec<u8>,
    cancel: Cancel,
}

impl io::Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.cancel.is_set() {
            return Err(io::Error::other("interrupted"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs `work` on a thread of its own and returns its result; a signal
/// handler that raises (Ctrl-C's `KeyboardInterrupt`) returns its error
/// once `work` has stopped: it sets the flag `work` was given, which
/// `work` checks to stop early (its result is then dropped).
pub(crate) fn run<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(Cancel) -> T + Send + 'static,
) -> PyResult<T> {
    let cancel = Cancel(Arc::new(AtomicBool::new(false)));
    let (sender, receiver) = mpsc::channel();
    let flag = cancel.clone();
    std::thread::Builder::new()
        .name("entail-gen".into())
        .spawn(move || {
            // The caller may have gone (interrupted): nobody to tell.
            let _ = sender.send(work(flag));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    let mut receiver = receiver;
    loop {
        let (got, back) = py.detach(move || (receiver.recv_timeout(POLL), receiver));
        receiver = back;
        match got {
            Ok(value) => return Ok(value),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.0.store(true, Ordering::Relaxed);
                    // Give the work up to STOP to stop (LogicGraph's next
                    // block, well under a second) before the caller goes on:
                    // it may still be writing into a directory the caller
                    // removes. Work that checks the flag later (SLR's
                    // held-out splits) finishes on its own, writing nowhere.
                    let _ = py.detach(move || receiver.recv_timeout(STOP));
                    return Err(e);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the generator's thread panicked"))
            }
        }
    }
}

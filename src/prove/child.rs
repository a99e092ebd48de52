//! External provers (E, Prover9) run as child processes under the race's
//! deadline and stop flag. Every child is registered, so that a process
//! about to exit (the CLI's hard stop) can kill them all first.

use crate::prolog::PerProcess;
use once_cell::race::OnceBox;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How a child run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ended {
    /// It exited by itself: its exit code (`None` if a signal ended it)
    /// and what it printed on stdout.
    Exited(Option<i32>, String),
    /// The program is not installed.
    Absent,
    /// Stopped, out of time, or it could not be run: why.
    Unknown(String),
}

/// The running children, the ones being started, and whether
/// [`kill_children`] has run.
struct Children {
    pids: Vec<u32>,
    starting: usize,
    closed: bool,
}

/// This process's [`Children`]. A forked child starts with none: the ones
/// it inherits the record of are its parent's, not its own to kill, and
/// the lock may have been held by another thread at the fork.
fn registry() -> &'static Mutex<Children> {
    fn none() -> Mutex<Children> {
        Mutex::new(Children {
            pids: Vec::new(),
            starting: 0,
            closed: false,
        })
    }
    static CHILDREN: OnceBox<PerProcess<Mutex<Children>>> = OnceBox::new();
    CHILDREN
        .get_or_init(|| Box::new(PerProcess::new(none())))
        .get(|_| none())
}

/// No child is started with less time than this left: it could hardly
/// answer, and starting a process takes up to tens of milliseconds on a
/// loaded machine, which [`kill_children`] would have to wait for.
const MIN_CHILD_TIME: Duration = Duration::from_millis(100);

/// The longest [`kill_children`] waits for a child being started.
const MAX_START_WAIT: Duration = Duration::from_millis(50);

/// Whether an executable called `program` is on the PATH (looked up once per
/// program for the life of the process).
pub(crate) fn on_path(program: &'static str) -> bool {
    type Found = Mutex<Vec<(&'static str, bool)>>;
    static FOUND: OnceBox<PerProcess<Found>> = OnceBox::new();
    let found = FOUND
        .get_or_init(|| Box::new(PerProcess::new(Mutex::new(Vec::new()))))
        .get_or_copy();
    let mut found = found.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(_, yes)) = found.iter().find(|(p, _)| *p == program) {
        return yes;
    }
    let yes = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()));
    found.push((program, yes));
    yes
}

/// Kills every child this process started that is still running, and starts
/// no more; for a process that is about to exit. A child being started is
/// waited for (up to [`MAX_START_WAIT`]) and killed by its starter.
pub fn kill_children() {
    let until = Instant::now() + MAX_START_WAIT;
    loop {
        let Ok(mut children) = registry().lock() else {
            return;
        };
        children.closed = true;
        for &pid in children.pids.iter() {
            // SAFETY: kill(2) on a pid we spawned and have not yet reaped.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
        children.pids.clear();
        if children.starting == 0 || Instant::now() >= until {
            return;
        }
        drop(children);
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Runs `program args` with `input` on its stdin until it exits, `deadline`
/// passes or `stop` is raised (then it is killed). Its stdout is read as it
/// comes, so a talkative child never blocks on a full pipe.
pub(crate) fn run(
    program: &str,
    args: &[String],
    input: &str,
    deadline: Instant,
    stop: &AtomicBool,
) -> Ended {
    if deadline.saturating_duration_since(Instant::now()) < MIN_CHILD_TIME {
        return Ended::Unknown(format!("too little time left to start {program}"));
    }
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    match registry().lock() {
        Ok(mut c) if !c.closed && !stop.load(Ordering::Relaxed) => c.starting += 1,
        _ => return Ended::Unknown("stopped".into()),
    }
    let spawned = command.spawn();
    let Ok(mut children) = registry().lock() else {
        return Ended::Unknown(format!("{program}: a lock was poisoned"));
    };
    children.starting -= 1;
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ended::Absent,
        Err(e) => return Ended::Unknown(format!("cannot start {program}: {e}")),
    };
    if children.closed {
        // The process is exiting: kill it before `kill_children` returns.
        let _ = child.kill();
        drop(children);
        let _ = child.wait();
        return Ended::Unknown("stopped".into());
    }
    let pid = child.id();
    children.pids.push(pid);
    drop(children);
    // The reader hands over the whole output at end of file, which comes
    // when the child exits: the race hears of an answer at once, not at the
    // next poll.
    let (text_tx, text_rx) = std::sync::mpsc::channel::<String>();
    if let Some(mut out) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = out.read_to_string(&mut text);
            let _ = text_tx.send(text);
        });
    }
    // On a thread of its own, so that a child that stops reading cannot
    // hold the race past its deadline; closing stdin ends the input.
    let writer = child.stdin.take().map(|mut stdin| {
        let input = input.to_string();
        std::thread::spawn(move || stdin.write_all(input.as_bytes()))
    });
    let mut text = None;
    let mut code = None;
    let cut_short = loop {
        if text.is_none() {
            match text_rx.recv_timeout(Duration::from_millis(2)) {
                Ok(t) => text = Some(t),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                // No reader (no stdout): wait for the exit alone.
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => text = Some(String::new()),
            }
        } else {
            std::thread::sleep(Duration::from_micros(200));
        }
        match child.try_wait() {
            Ok(Some(status)) => {
                code = status.code();
                break None;
            }
            Ok(None) => {}
            Err(e) => break Some(format!("{program}: {e}")),
        }
        if stop.load(Ordering::Relaxed) {
            break Some("stopped".to_string());
        }
        if Instant::now() >= deadline {
            break Some("timeout".to_string());
        }
    };
    if cut_short.is_some() {
        let _ = child.kill();
    }
    let _ = child.wait();
    if let Ok(mut c) = registry().lock() {
        c.pids.retain(|&p| p != pid);
    }
    if let Some(why) = cut_short {
        return Ended::Unknown(why);
    }
    // The child is gone, so its stdout is closed and the reader ends.
    let text = text.or_else(|| text_rx.recv().ok()).unwrap_or_default();
    // The child is gone, so a blocked write has failed and the writer ends.
    if let Some(Ok(Err(e))) = writer.map(|w| w.join()) {
        return Ended::Unknown(format!("cannot write to {program}: {e}"));
    }
    Ended::Exited(code, text)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(20)
    }

    #[test]
    fn a_child_that_prints_more_than_a_pipe_holds_still_exits() {
        // 1 MB through `cat`: without the reader thread it would block.
        let input = "x".repeat(1 << 20);
        let stop = AtomicBool::new(false);
        match run("cat", &[], &input, far(), &stop) {
            Ended::Exited(code, text) => {
                assert_eq!(code, Some(0));
                assert_eq!(text.len(), input.len());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_missing_program_is_absent_and_a_slow_one_times_out() {
        let stop = AtomicBool::new(false);
        assert_eq!(
            run("entail-no-such-program", &[], "", far(), &stop),
            Ended::Absent
        );
        let soon = Instant::now() + Duration::from_millis(300);
        let sleep = ["30".to_string()];
        assert_eq!(
            run("sleep", &sleep, "", soon, &stop),
            Ended::Unknown("timeout".into())
        );
        let stopped = AtomicBool::new(true);
        assert_eq!(
            run("sleep", &sleep, "", far(), &stopped),
            Ended::Unknown("stopped".into())
        );
    }

    /// A child forked while another thread holds the registry's lock runs
    /// programs, under a registry of its own: the parent's is closed here,
    /// and the child is not (before, it waited for the lock for ever).
    #[test]
    fn a_child_forked_while_the_registry_is_locked_runs_programs() {
        let mut guard = registry().lock().unwrap_or_else(PoisonError::into_inner);
        // Other threads wait for the lock, so they never see it closed.
        let closed = std::mem::replace(&mut guard.closed, true);
        crate::prolog::assert_in_forked_child(|| {
            let ended = run("cat", &[], "echo", far(), &AtomicBool::new(false));
            ended == Ended::Exited(Some(0), "echo".into())
        });
        guard.closed = closed;
    }
}

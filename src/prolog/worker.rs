//! Worker processes: one scryer machine per process, behind pipes.
//!
//! The parent sends one JSON request per line on the worker's stdin and reads
//! one JSON reply per line. A reader thread forwards reply lines over a
//! channel so the parent can wait with a wall-clock timeout; on a timeout, a
//! crash (a panic, an abort on the memory limit, a stack overflow) or a broken
//! pipe the parent kills the process and starts a fresh one on the next use,
//! reloading the task background it had. A process that dies in the middle
//! of a request (killed from outside, or by its own answer) is restarted and
//! the request sent once more; an answer that kills it twice is a crash.
//!
//! A process that forks (Python's `os.fork`, a `multiprocessing` fork pool)
//! copies the handles but not the reader threads: a worker handle that finds
//! itself in a process other than the one that started its worker forgets
//! that worker (it is the parent's; never killed, written to or read from
//! here) and starts its own on next use. A thread can also give its worker
//! calls a cancel flag ([`with_cancel`]): a wait on a worker then ends soon
//! after the flag is set, the worker killed.

use super::engine::{Outcome, ScryerMachine};
use super::Background;
use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a wait on a worker looks at the thread's cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);

thread_local! {
    /// The cancel flag of this thread's worker calls ([`with_cancel`]).
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` with `flag` as this thread's cancel flag: once it is set, a
/// worker call on this thread stops waiting within a few milliseconds, kills
/// its worker and fails with [`WorkerFailure::Interrupted`], and no new call
/// starts. For a host whose user interrupts a batch (Ctrl-C in Python).
pub fn with_cancel<R>(flag: Arc<AtomicBool>, f: impl FnOnce() -> R) -> R {
    let previous = CANCEL.with(|c| c.replace(Some(flag)));
    let result = f();
    CANCEL.with(|c| *c.borrow_mut() = previous);
    result
}

/// Whether this thread's cancel flag is set.
fn cancelled() -> bool {
    CANCEL.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

/// The name of the worker executable built with the crate.
pub const WORKER_BINARY: &str = "entail-worker";

/// The program that serves as a scryer worker ([`serve_worker`]), with
/// leading arguments: `entail-worker`, or e.g. `python -m entail._worker`
/// for a host that embeds the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerCommand {
    /// The program to run.
    pub program: PathBuf,
    /// Its arguments; the judge adds none.
    pub args: Vec<OsString>,
}

impl WorkerCommand {
    /// `program` with no arguments.
    pub fn new(program: impl Into<PathBuf>) -> WorkerCommand {
        WorkerCommand {
            program: program.into(),
            args: Vec::new(),
        }
    }

    /// The same command with `arg` appended.
    pub fn arg(mut self, arg: impl Into<OsString>) -> WorkerCommand {
        self.args.push(arg.into());
        self
    }

    /// Finds [`WORKER_BINARY`]: next to the current executable, then in its
    /// parent directory (test binaries live in `target/*/deps`), then on
    /// `PATH`. Never the current executable itself under another name.
    pub fn discover() -> Option<WorkerCommand> {
        let name = format!("{WORKER_BINARY}{}", std::env::consts::EXE_SUFFIX);
        let exe_dir = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(PathBuf::from));
        let near = exe_dir
            .iter()
            .flat_map(|dir| [Some(dir.clone()), dir.parent().map(PathBuf::from)])
            .flatten();
        let on_path = std::env::var_os("PATH")
            .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
            .unwrap_or_default();
        near.chain(on_path)
            .map(|dir| dir.join(&name))
            .find(|candidate| is_executable(candidate))
            .map(WorkerCommand::new)
    }
}

fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// How worker processes are started and limited.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// The worker program; `None` when none was found, and then every
    /// answer that needs scryer fails with [`WorkerFailure::Unavailable`].
    pub command: Option<WorkerCommand>,
    /// Address-space limit of each worker (RLIMIT_AS), in bytes.
    pub memory_limit_bytes: u64,
    /// Wall-clock cap on evaluating one hypothesis.
    pub eval_timeout: Duration,
    /// Wall-clock cap on starting a machine and loading a background.
    pub load_timeout: Duration,
    /// A worker process is replaced after this many hypotheses, because
    /// scryer never frees the clauses and atoms each one leaves behind.
    pub recycle_after: u64,
}

impl WorkerConfig {
    /// Runs `command`, with 2 GiB, 10 s per hypothesis, 120 s to load, a
    /// fresh process every 2000 hypotheses.
    pub fn new(command: WorkerCommand) -> WorkerConfig {
        WorkerConfig::with(Some(command))
    }

    fn with(command: Option<WorkerCommand>) -> WorkerConfig {
        WorkerConfig {
            command,
            memory_limit_bytes: 2 << 30,
            eval_timeout: Duration::from_secs(10),
            load_timeout: Duration::from_secs(120),
            recycle_after: 2000,
        }
    }
}

impl Default for WorkerConfig {
    /// The defaults of [`WorkerConfig::new`] with the command from
    /// [`WorkerCommand::discover`].
    fn default() -> WorkerConfig {
        WorkerConfig::with(WorkerCommand::discover())
    }
}

/// Why a worker could not answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorkerFailure {
    /// The wall-clock cap passed; the worker was killed.
    #[error("wall-clock limit exceeded")]
    Timeout,
    /// The worker died or reported a fault of its engine (panic, memory).
    #[error("worker crashed: {0}")]
    Crashed(String),
    /// The worker could not be started at all.
    #[error("cannot start worker: {0}")]
    Spawn(String),
    /// No worker program is configured or installed.
    #[error("no scryer worker: {0}")]
    Unavailable(String),
    /// Scryer would not answer this as SWI-Prolog does, so it was not run.
    #[error("scryer cannot run this as SWI-Prolog does: {0}")]
    Unsupported(String),
    /// The native engine does not implement this (and has no fallback).
    #[error("the native engine does not implement this: {0}")]
    NotNative(String),
    /// The thread's cancel flag was set ([`with_cancel`]).
    #[error("interrupted")]
    Interrupted,
}

#[derive(serde::Serialize, serde::Deserialize)]
enum Request {
    Load {
        background: String,
    },
    Eval {
        hypothesis: String,
        goals: Vec<String>,
        limit: u64,
    },
}

#[derive(serde::Serialize, serde::Deserialize)]
enum Reply {
    Loaded,
    Done(Outcome),
    /// The answer, after which the worker exits because its machine can no
    /// longer be trusted (a hypothesis scryer refused to load).
    DoneThenExit(Outcome),
    Fault(String),
}

struct Running {
    child: Child,
    /// Request lines, written to the worker's stdin by a thread of their
    /// own: a worker that stops reading blocks that thread, never the
    /// caller, whose wait for the reply has the timeout.
    requests: Sender<String>,
    replies: Receiver<String>,
    /// The process that started the worker (see the module documentation).
    owner: u32,
}

/// A handle on one worker process, started lazily.
pub struct Worker {
    config: WorkerConfig,
    running: Option<Running>,
    loaded: Option<u64>,
    /// Hypotheses the running process has evaluated.
    served: u64,
}

/// Why one attempt failed: a process that died can be restarted and the
/// request retried, because something outside (the OOM killer, a user)
/// may have killed it.
enum Attempt {
    Died(String),
    Failed(WorkerFailure),
}

impl From<WorkerFailure> for Attempt {
    fn from(failure: WorkerFailure) -> Attempt {
        Attempt::Failed(failure)
    }
}

impl Attempt {
    fn failure(self) -> WorkerFailure {
        match self {
            Attempt::Died(message) => WorkerFailure::Crashed(message),
            Attempt::Failed(failure) => failure,
        }
    }
}

impl Worker {
    /// A worker that starts its process on first use.
    pub fn new(config: WorkerConfig) -> Worker {
        Worker {
            config,
            running: None,
            loaded: None,
            served: 0,
        }
    }

    /// The key of the background currently loaded, if any.
    pub fn loaded_key(&self) -> Option<u64> {
        self.loaded
    }

    /// Loads `background` unless it is already loaded. A process that dies
    /// meanwhile is restarted once.
    pub fn ensure_loaded(&mut self, background: &Background) -> Result<(), WorkerFailure> {
        match self.load_once(background) {
            Err(Attempt::Died(_)) => self.load_once(background).map_err(Attempt::failure),
            other => other.map_err(Attempt::failure),
        }
    }

    fn load_once(&mut self, background: &Background) -> Result<(), Attempt> {
        // A worker inherited through a fork holds the background, but for
        // the parent: this process loads its own.
        self.forget_if_forked();
        if self.running.is_some() && self.loaded == Some(background.key()) {
            return Ok(());
        }
        self.loaded = None;
        let request = Request::Load {
            background: background.text().to_string(),
        };
        match self.call(&request, self.config.load_timeout)? {
            Reply::Loaded => {
                self.loaded = Some(background.key());
                Ok(())
            }
            Reply::Fault(message) => {
                self.kill();
                Err(WorkerFailure::Crashed(message).into())
            }
            Reply::Done(_) | Reply::DoneThenExit(_) => {
                self.kill();
                Err(WorkerFailure::Crashed("protocol: unexpected reply to load".into()).into())
            }
        }
    }

    /// Loads `hypothesis` over `background` and runs `goals` with
    /// `limit` inferences each. If the process dies meanwhile, a fresh one
    /// is started and the request retried once; a second death is
    /// [`WorkerFailure::Crashed`].
    pub fn eval(
        &mut self,
        background: &Background,
        hypothesis: &str,
        goals: &[String],
        limit: u64,
    ) -> Result<Outcome, WorkerFailure> {
        match self.eval_once(background, hypothesis, goals, limit) {
            Err(Attempt::Died(_)) => self
                .eval_once(background, hypothesis, goals, limit)
                .map_err(Attempt::failure),
            other => other.map_err(Attempt::failure),
        }
    }

    fn eval_once(
        &mut self,
        background: &Background,
        hypothesis: &str,
        goals: &[String],
        limit: u64,
    ) -> Result<Outcome, Attempt> {
        self.load_once(background)?;
        let request = Request::Eval {
            hypothesis: hypothesis.to_string(),
            goals: goals.to_vec(),
            limit,
        };
        let reply = self.call(&request, self.config.eval_timeout)?;
        self.served += 1;
        match reply {
            Reply::Done(outcome) => {
                if self.served >= self.config.recycle_after {
                    self.kill();
                }
                Ok(outcome)
            }
            Reply::DoneThenExit(outcome) => {
                self.kill();
                Ok(outcome)
            }
            Reply::Fault(message) => {
                self.kill();
                Err(WorkerFailure::Crashed(message).into())
            }
            Reply::Loaded => {
                self.kill();
                Err(WorkerFailure::Crashed("protocol: unexpected reply to eval".into()).into())
            }
        }
    }

    /// Forgets a worker started by another process, this one's parent
    /// before a fork: its pipes are shared with that process, and the
    /// thread reading its replies stayed there.
    fn forget_if_forked(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.owner != std::process::id())
        {
            // Dropping closes this process's copies of the pipes only.
            self.running = None;
            self.loaded = None;
        }
    }

    fn call(&mut self, request: &Request, timeout: Duration) -> Result<Reply, Attempt> {
        self.forget_if_forked();
        if cancelled() {
            return Err(WorkerFailure::Interrupted.into());
        }
        if self.running.is_none() {
            self.running = Some(self.spawn()?);
            self.loaded = None;
            self.served = 0;
        }
        let mut line =
            serde_json::to_string(request).map_err(|e| WorkerFailure::Crashed(e.to_string()))?;
        line.push('\n');
        let Some(running) = self.running.as_mut() else {
            return Err(WorkerFailure::Spawn("worker vanished".into()).into());
        };
        if running.requests.send(line).is_err() {
            let status = self.kill();
            return Err(Attempt::Died(format!("write to worker failed ({status})")));
        }
        let deadline = Instant::now() + timeout;
        let received = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match running.replies.recv_timeout(left.min(CANCEL_POLL)) {
                Err(RecvTimeoutError::Timeout) if cancelled() => {
                    self.kill();
                    return Err(WorkerFailure::Interrupted.into());
                }
                Err(RecvTimeoutError::Timeout) if !left.is_zero() => continue,
                other => break other,
            }
        };
        match received {
            Ok(reply) => match serde_json::from_str::<Reply>(&reply) {
                Ok(reply) => Ok(reply),
                Err(e) => {
                    self.kill();
                    Err(WorkerFailure::Crashed(format!("bad reply from worker: {e}")).into())
                }
            },
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(WorkerFailure::Timeout.into())
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.kill();
                Err(Attempt::Died(format!("worker exited ({status})")))
            }
        }
    }

    /// Kills the process (if any) and reports how it ended.
    fn kill(&mut self) -> String {
        self.forget_if_forked();
        self.loaded = None;
        match self.running.take() {
            Some(mut running) => {
                let _ = running.child.kill();
                match running.child.wait() {
                    Ok(status) => status.to_string(),
                    Err(e) => e.to_string(),
                }
            }
            None => "not running".to_string(),
        }
    }

    fn spawn(&self) -> Result<Running, WorkerFailure> {
        let Some(worker) = &self.config.command else {
            return Err(WorkerFailure::Unavailable(format!(
                "{WORKER_BINARY} is neither configured, nor next to the program, nor on PATH \
                 (`cargo build` builds it)"
            )));
        };
        let mut command = Command::new(&worker.program);
        command
            .args(&worker.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = command.spawn().map_err(|e| {
            let message = format!("{}: {e}", worker.program.display());
            if e.kind() == std::io::ErrorKind::NotFound {
                WorkerFailure::Unavailable(message)
            } else {
                WorkerFailure::Spawn(message)
            }
        })?;
        // The limits are set from here, after the start, not in the child
        // before exec: a `pre_exec` closure makes the standard library fork
        // rather than posix_spawn, and fork runs every library's atfork
        // handlers in the caller, where one can wait for ever (OpenBLAS's,
        // loaded by scipy in a Python host, hung a batch that way). The
        // worker evaluates nothing before its first request, sent below.
        if let Err(e) = limit_resources(&child, self.config.memory_limit_bytes) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(WorkerFailure::Spawn(format!(
                "limit the worker's memory: {e}"
            )));
        }
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(WorkerFailure::Spawn("no pipes".into()));
        };
        let (requests, to_write) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for line in to_write {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|_| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        let (sender, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Running {
            child,
            requests,
            replies,
            owner: std::process::id(),
        })
    }
}

/// Caps a started worker's address space at `memory_limit` bytes and turns
/// off its core dumps.
fn limit_resources(child: &Child, memory_limit: u64) -> std::io::Result<()> {
    let pid = child.id() as libc::pid_t;
    let limits = [
        (libc::RLIMIT_AS, memory_limit as libc::rlim_t),
        (libc::RLIMIT_CORE, 0),
    ];
    for (resource, value) in limits {
        let limit = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: `limit` outlives the call; the old value is not asked for.
        if unsafe { libc::prlimit(pid, resource, &limit, std::ptr::null_mut()) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The worker's main loop, the whole of the `entail-worker` program: reads
/// requests on stdin until it closes. A host that embeds the library (e.g.
/// a Python extension) can serve as the worker by calling this from a
/// `main` of its own and naming that program in [`WorkerConfig::command`].
/// The parent replaces the process every [`WorkerConfig::recycle_after`]
/// hypotheses and after any fault.
pub fn serve_worker() -> ExitCode {
    // Scryer prints warnings with println!, which would corrupt the protocol:
    // keep the real stdout for replies and point fd 1 at stderr.
    // SAFETY: plain fd duplication at start-up, before scryer runs.
    let protocol_fd = unsafe {
        let fd = libc::dup(1);
        if fd < 0 || libc::dup2(2, 1) < 0 {
            return ExitCode::from(2);
        }
        fd
    };
    // SAFETY: protocol_fd is a fresh descriptor owned by nobody else.
    let mut replies: std::fs::File = unsafe { std::os::fd::FromRawFd::from_raw_fd(protocol_fd) };
    std::panic::set_hook(Box::new(|_| {}));

    let mut engine: Option<ScryerMachine> = None;
    let mut background = String::new();
    let mut served: u64 = 0;
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let reply = match serde_json::from_str::<Request>(&line) {
            Err(e) => Reply::Fault(format!("bad request: {e}")),
            Ok(Request::Load { background: text }) => {
                background = text;
                // Reconsulting the background module replaces the previous
                // task's clauses without the cost of a new machine. Its other
                // predicates stay but are unreachable: the whitelist only lets
                // an answer call the current task's background.
                let reused = match engine.as_mut() {
                    Some(e) => e.load_background(&background).is_ok(),
                    None => false,
                };
                if reused {
                    Reply::Loaded
                } else {
                    engine = None;
                    match fresh_engine(&background) {
                        Ok(e) => {
                            engine = Some(e);
                            Reply::Loaded
                        }
                        Err(message) => Reply::Fault(message),
                    }
                }
            }
            Ok(Request::Eval {
                hypothesis,
                goals,
                limit,
            }) => {
                if engine.is_none() {
                    match fresh_engine(&background) {
                        Ok(e) => engine = Some(e),
                        Err(message) => {
                            let _ = send(&mut replies, &Reply::Fault(message));
                            return ExitCode::from(3);
                        }
                    }
                }
                served += 1;
                match engine.as_mut() {
                    Some(e) => evaluate(e, served, &hypothesis, &goals, limit),
                    None => Reply::Fault("no engine".into()),
                }
            }
        };
        let fatal = matches!(reply, Reply::Fault(_) | Reply::DoneThenExit(_));
        if send(&mut replies, &reply).is_err() || fatal {
            // After a fault the machine may be corrupted; the parent starts a
            // new worker.
            return ExitCode::from(3);
        }
    }
    ExitCode::SUCCESS
}

/// Loads a hypothesis and runs the goals. A marker fact with a fresh number
/// is appended to the hypothesis: scryer drops a whole text it cannot
/// compile, silently, and such a machine later panics, so a missing marker
/// means "not loaded, do not reuse this machine".
fn evaluate(
    engine: &mut ScryerMachine,
    serial: u64,
    hypothesis: &str,
    goals: &[String],
    limit: u64,
) -> Reply {
    let text = format!("{hypothesis}'$judge_loaded'({serial}).\n");
    if let Err(e) = engine.load_hypothesis(&text) {
        return Reply::Fault(e.to_string());
    }
    match engine.run_goals(&[format!("'$judge_loaded'({serial})")], 1000) {
        Ok(Outcome::Verdicts(v)) if v == [true] => {}
        Ok(_) => {
            return Reply::DoneThenExit(Outcome::Error(
                Vec::new(),
                "the engine could not compile the hypothesis".into(),
            ))
        }
        Err(e) => return Reply::Fault(e.to_string()),
    }
    match engine.run_goals(goals, limit) {
        Ok(outcome) => Reply::Done(outcome),
        Err(err) => Reply::Fault(err.to_string()),
    }
}

fn fresh_engine(background: &str) -> Result<ScryerMachine, String> {
    let mut engine = ScryerMachine::new().map_err(|e| e.to_string())?;
    engine
        .load_background(background)
        .map_err(|e| e.to_string())?;
    Ok(engine)
}

fn send(out: &mut std::fs::File, reply: &Reply) -> std::io::Result<()> {
    let mut line = serde_json::to_string(reply).map_err(std::io::Error::other)?;
    line.push('\n');
    out.write_all(line.as_bytes())?;
    out.flush()
}

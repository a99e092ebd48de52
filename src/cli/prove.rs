//! `entail prove`: a plain Prover9 problem, a TPTP problem (FOF or CNF), a
//! step file, a LogicGraph instance directory, or a whole tree of instances
//! (see `entail::prove`).

use super::{Exit, Failure, Outcome};
use entail::prove::{
    is_step_file, CheckReport, Entailment, ProblemReport, ProveError, ProveOptions, Prover,
    StepStatus, SupportOptions,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod three_way;
mod tree;

/// Arguments of `entail prove`.
#[derive(clap::Args)]
#[command(after_help = "\
Exit status: 0 proved, or everything valid; 2 not proved, or something refuted;
4 unknown (a timeout or Z3 `unknown`) with nothing refuted; 1 an input error.

Engines: propositional checks go to truth tables or Z3. A plain problem goes first to
the built-in saturation prover (engine \"saturate\") under a small counted budget; if it
neither proves it nor saturates, the problem is raced by Z3, E prover (eprover on PATH), Prover9 (prover9 on PATH, run with the file's search
settings such as max_weight and hints) and a finite model search; the first definite
answer wins, and every countermodel is re-checked by our own evaluator. The report's
engine field names the winner.

A directory without complete.json is a tree: every instance directory under it is
checked in one process on --workers threads, and each gets one line (with --json, one
JSON object with its \"instance\" path relative to the tree); the summary of verified,
refuted and unknown instances goes to stderr. An unreadable instance is reported as
DIR: message and counted; the others go on.

A TPTP problem (FOF or CNF; a .p or .ax file, or any file whose first statement is
fof(, cnf( or include() is read with its includes, looked up from the file's directory
upwards and then under $TPTP. Every role but conjecture is an assumption; a CNF
negated_conjecture reaches E in that role. --szs prints the SZS status line first
(`% SZS status Theorem for NAME`); --json always has szs_status. A not_proved without a
countermodel has reason saturation: E saturated (no proof exists) on a translation that
read back. --proof, for a proved plain or TPTP problem: the premises the proof used (E's
or Prover9's proof, or Z3's unsat core), re-proved alone, and the proof text.

Examples:
  entail prove corpora/prove/group.in
  entail prove corpora/prove/tptp/pelletier18.p --szs
  entail prove corpora/prove/mp_chain.in --json
  entail prove corpora/logicgraph-answers/Tiny/case_1 --supports
  entail prove corpora/logicgraph-answers --supports --json")]
pub struct Args {
    /// A Prover9 input file (plain problem or step file with `formulas(solution_N)` lists), a TPTP
    /// problem (FOF or CNF), a LogicGraph instance directory (complete.json + solutions.json), or a
    /// directory tree of instances
    path: PathBuf,
    /// Write the report here instead of standard output (with --three-way --batch: the answer
    /// lines, one per input line)
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Plain and TPTP problems: print the SZS status line first (`% SZS status Theorem for NAME`)
    #[arg(long)]
    szs: bool,
    /// Plain and TPTP problems, when proved: the premises the proof used, re-proved alone, and the
    /// winning engine's proof text (E's TSTP derivation or Prover9's proof)
    #[arg(long)]
    proof: bool,
    /// Threads for a tree of instances (default: one per core)
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
    /// Print the report as JSON
    #[arg(long)]
    json: bool,
    /// Per-check timeout in seconds (default: the file's assign(max_seconds, N), else 10)
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Also enumerate all minimal premise subsets that entail the goal (step files, LogicGraph)
    #[arg(long)]
    supports: bool,
    /// Stop the support enumeration after this many supports
    #[arg(long, default_value_t = 1000, value_name = "N")]
    supports_cap: usize,
    /// Stop the support enumeration after this many seconds
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    supports_timeout: f64,
    /// LogicGraph: check `prover9_expression` (instantiated predicates) instead of the A-notation
    #[arg(long)]
    instantiated: bool,
    /// Do not extract countermodels (faster refutations)
    #[arg(long)]
    no_countermodels: bool,
    /// A first-order program in FOLIO notation (Predicates:/Premises:/Conclusion: text, LINC's
    /// FOL: lines, or JSON premises + conclusion): answer True, False, Uncertain or Error, with the
    /// proof's used premises or the countermodels
    #[arg(long)]
    three_way: bool,
    /// With --three-way: PATH is a JSONL file of {"id", "program"} or {"id", "premises",
    /// "conclusion"} lines; one answer line per input line, in order
    #[arg(long, requires = "three_way")]
    batch: bool,
}

fn seconds(s: f64, what: &str) -> Result<Duration, ProveError> {
    Duration::try_from_secs_f64(s).map_err(|_| {
        ProveError::new(
            None,
            format!("{what} must be a non-negative number of seconds"),
        )
    })
}

/// The stack `entail prove` runs on. Every walk over a formula or a term
/// (reading, the quick checks, the translations for the engines, printing)
/// recurses at most as deep as the readers' nesting limit allows: a
/// thousand levels, plus a quantifier for each variable of a clause when it
/// is closed. The main thread's 8 MB may be too little for that in a debug
/// build; this is reserved, not used (the engines' threads get as much).
const PROVE_STACK: usize = 256 << 20;

/// Runs `entail prove` on a thread with [`PROVE_STACK`] (on this thread if
/// none can be made). Meanwhile this thread keeps the hard deadline: a
/// watchdog thread of its own cost every run a thread start.
pub fn run(args: Args) -> Outcome {
    let slot = std::sync::Mutex::new(Some(args));
    let take = || slot.lock().unwrap_or_else(|e| e.into_inner()).take();
    std::thread::scope(|scope| {
        FINISHED.store(false, Ordering::SeqCst);
        MAIN_WATCHES.store(true, Ordering::SeqCst);
        let spawned = std::thread::Builder::new()
            .name("prove".into())
            .stack_size(PROVE_STACK)
            .spawn_scoped(scope, || {
                // Also when the run panics.
                let _finished = Finished;
                take().map(run_here)
            });
        let ran = match spawned {
            Ok(handle) => {
                watchdog();
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            }
            Err(_) => {
                MAIN_WATCHES.store(false, Ordering::SeqCst);
                None
            }
        };
        match ran {
            Some(outcome) => outcome,
            None => match take() {
                Some(args) => run_here(args),
                None => Err(Failure::new(
                    "entail prove: the run did not start".to_string(),
                )),
            },
        }
    })
}

/// Runs `entail prove` on the calling thread.
fn run_here(args: Args) -> Outcome {
    // A batch writes its answer lines to --output itself, line by line.
    if args.three_way && args.batch {
        return three_way::run(&args);
    }
    let output = args.output.clone();
    super::output::redirect(output.as_deref())?;
    let outcome = if args.three_way {
        three_way::run(&args)
    } else {
        check(args)
    };
    super::output::finish_redirect(output.as_deref())?;
    outcome
}

/// The checks of `run`, their report printed with `out!`.
fn check(args: Args) -> Outcome {
    // The deadline counts from here, before the first byte is read: reading
    // and parsing a large file are part of the time a caller gave.
    let started = Instant::now();
    let file = args.path.display().to_string();
    let source = if args.path.is_dir() {
        if !entail::gen::logicgraph::Instances::is_instance(&args.path) {
            return tree::run(&args);
        }
        None
    } else {
        reading_deadline(&args, started);
        match super::read_text(&args.path) {
            Ok(text) => Some(text),
            Err(failure) => {
                if args.szs && claim_report() {
                    outln!("% SZS status InputError for {}", problem_name(&args.path));
                }
                return Err(failure);
            }
        }
    };
    let szs = args.szs;
    let result = run_inner(&args, source, started);
    if let Err(e) = &result {
        // The hard deadline may have answered already; one SZS line only.
        if !claim_report() {
            loop {
                std::thread::park();
            }
        }
        if szs {
            outln!(
                "% SZS status {} for {}",
                e.szs_status(),
                problem_name(&args.path)
            );
        }
    }
    match result {
        Ok(exit) => Ok(exit),
        Err(e) if e.pos.is_some() => Err(Failure::placed(e.in_file(file).to_string())),
        Err(e) => Err(Failure::new(e.in_file(file).to_string())),
    }
}

/// The prover's options and the support enumeration's, from the flags.
fn options(args: &Args) -> Result<(ProveOptions, Option<SupportOptions>), ProveError> {
    let options = ProveOptions {
        timeout: args.timeout.map(|t| seconds(t, "--timeout")).transpose()?,
        countermodels: !args.no_countermodels,
    };
    let supports = if args.supports {
        Some(SupportOptions {
            cap: args.supports_cap,
            timeout: seconds(args.supports_timeout, "--supports-timeout")?,
        })
    } else {
        None
    };
    Ok((options, supports))
}

/// Checks the instance directory at `args.path`, or the file whose text is
/// `source`.
fn run_inner(args: &Args, source: Option<String>, started: Instant) -> Result<Exit, ProveError> {
    let (options, support_options) = options(args)?;
    let timeout = options.timeout;
    let problem = if let Some(src) = source {
        if is_tptp(&args.path, &src) {
            let tptp_root = std::env::var_os("TPTP").map(PathBuf::from);
            let problem = entail::syntax::tptp::load_text(&args.path, &src, tptp_root.as_deref())?;
            return prove_plain(args, started, timeout, options, |prover| {
                prover.prove_tptp(&problem)
            });
        }
        let input = entail::syntax::prover9::parse(&src)?;
        if !is_step_file(&input) {
            let file_timeout = match input.assigned("max_seconds") {
                Some(entail::syntax::prover9::Term::App(n, a)) if a.is_empty() => n
                    .parse::<u64>()
                    .ok()
                    .filter(|&s| s > 0)
                    .map(Duration::from_secs),
                _ => None,
            };
            return prove_plain(args, started, timeout.or(file_timeout), options, |prover| {
                prover.prove_input(&input)
            });
        }
        // A step file is many checks, each with its own timeout.
        disarm_deadlines();
        entail::prove::StepProblem::from_step_file(&input)?
    } else {
        entail::gen::logicgraph::Instances::load(&args.path, args.instantiated)?
    };
    let mut prover = Prover::new(options);
    let report = prover.check_problem(&problem, support_options.as_ref())?;
    print_check(&report, args.json);
    Ok(match report.all_good() {
        Some(true) => Exit::Done,
        Some(false) => Exit::Refuted,
        None => Exit::Unknown,
    })
}

/// Whether the file at `path`, with text `src`, is TPTP: by its extension
/// (`.p`, `.ax`, `.tptp`) or its first statement.
fn is_tptp(path: &Path, src: &str) -> bool {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    matches!(extension, "p" | "ax" | "tptp") || entail::syntax::tptp::looks_like_tptp(src)
}

/// The problem's name in SZS lines: the file name without its extension.
fn problem_name(path: &Path) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// Runs one plain (Prover9 or TPTP) problem under `limit` (default
/// [`entail::prove::DEFAULT_TIMEOUT`]) with a hard deadline, prints its one
/// report and exits.
fn prove_plain(
    args: &Args,
    started: Instant,
    limit: Option<Duration>,
    options: ProveOptions,
    prove: impl FnOnce(&mut Prover) -> Result<ProblemReport, ProveError>,
) -> Result<Exit, ProveError> {
    let limit = limit.unwrap_or(entail::prove::DEFAULT_TIMEOUT);
    // The engines stop `reserve` before the limit, and the hard
    // deadline comes halfway between. The reserve and the 10% allowed
    // past the limit are for what this clock does not see: starting
    // the process (loading Z3's library is milliseconds on a loaded
    // machine), stopping the engines, printing and exiting. A fixed
    // floor, because at `--timeout 0.1` 5% is less than starting.
    let reserve = (limit / 20).max(MIN_RESERVE).min(limit / 2);
    let szs = args.szs.then(|| problem_name(&args.path));
    // With --proof, a proof's re-check gets a second budget as long.
    let whole = if args.proof { limit * 2 } else { limit };
    hard_deadline(started, whole - reserve / 2, whole, args.json, szs.clone());
    let budget = (limit - reserve)
        .saturating_sub(started.elapsed())
        .max(Duration::from_millis(1));
    let mut prover = Prover::new(ProveOptions {
        timeout: Some(budget),
        ..options
    });
    prover.set_proof_out(args.proof);
    prover.set_source_name(args.path.display().to_string());
    let mut report = prove(&mut prover)?;
    report.timeout_seconds = limit.as_secs_f64();
    print_problem(&report, args.json, szs.as_deref());
    let exit = match report.result {
        Entailment::Proved => Exit::Done,
        Entailment::NotProved { .. } => Exit::Refuted,
        Entailment::Unknown { .. } => Exit::Unknown,
    };
    exit_now(exit);
}

/// The hard deadline in force, if any: one at a time, kept by one watchdog
/// thread (see [`hard_deadline`]).
struct Deadline {
    at: Instant,
    limit: Duration,
    as_json: bool,
    szs: Option<String>,
}

static DEADLINE: std::sync::Mutex<Option<Deadline>> = std::sync::Mutex::new(None);

/// Wakes the watchdog when [`DEADLINE`] changes.
static DEADLINE_CHANGED: std::sync::Condvar = std::sync::Condvar::new();

/// Sets the deadline in force (`None`: none) and wakes the watchdog.
fn set_deadline(deadline: Option<Deadline>) {
    *DEADLINE.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
    DEADLINE_CHANGED.notify_all();
}

/// Set when the prove thread has ended: the main thread stops watching.
static FINISHED: AtomicBool = AtomicBool::new(false);

/// Set while the main thread keeps the deadline (see [`run`]).
static MAIN_WATCHES: AtomicBool = AtomicBool::new(false);

/// Tells the watching main thread, when dropped, that the run has ended.
/// The flag is set before the lock is taken, so the watchdog either sees it
/// or is waiting when woken.
struct Finished;

impl Drop for Finished {
    fn drop(&mut self) {
        FINISHED.store(true, Ordering::SeqCst);
        drop(DEADLINE.lock().unwrap_or_else(|e| e.into_inner()));
        DEADLINE_CHANGED.notify_all();
    }
}

/// Disarms the hard deadline armed so far.
fn disarm_deadlines() {
    set_deadline(None);
}

/// Arms the hard deadline for reading a file that may be a plain problem:
/// `--timeout` (else the default) from `started`, so that a file too large
/// to read in time still gets its one answer (`Timeout`) at the deadline.
/// The problem's own deadline replaces it once it is read.
fn reading_deadline(args: &Args, started: Instant) {
    let Ok(limit) = args
        .timeout
        .map_or(Ok(entail::prove::DEFAULT_TIMEOUT), |t| {
            seconds(t, "--timeout")
        })
    else {
        return;
    };
    let whole = if args.proof { limit * 2 } else { limit };
    let reserve = (limit / 20).max(MIN_RESERVE).min(limit / 2);
    let szs = args.szs.then(|| problem_name(&args.path));
    hard_deadline(started, whole - reserve / 2, whole, args.json, szs);
}

/// The least time a plain problem's engines stop before `--timeout`.
const MIN_RESERVE: Duration = Duration::from_millis(20);

/// Set by whichever prints the one report of a plain problem: the check, or
/// the hard deadline.
static REPORTED: AtomicBool = AtomicBool::new(false);

/// Whether this caller may print the report; the loser never prints.
fn claim_report() -> bool {
    !REPORTED.swap(true, Ordering::SeqCst)
}

/// Z3 4.8.12 can ignore interrupts in some phases on quantified problems;
/// a plain problem is one check, so at `at` (after the engines' stop, before
/// `limit`) the process answers `unknown` itself, kills its prover children
/// and exits, as Prover9 does at max_seconds. Only one of this and the normal report
/// prints (see [`claim_report`]).
fn hard_deadline(
    started: Instant,
    at: Duration,
    limit: Duration,
    as_json: bool,
    szs: Option<String>,
) {
    set_deadline(Some(Deadline {
        at: started + at,
        limit,
        as_json,
        szs,
    }));
    // One watchdog for the run: a later deadline replaces an earlier one.
    // The main thread is it, unless the run is on the main thread.
    static WATCHDOG: std::sync::Once = std::sync::Once::new();
    if !MAIN_WATCHES.load(Ordering::SeqCst) {
        WATCHDOG.call_once(|| {
            std::thread::spawn(watchdog);
        });
    }
}

/// Waits for the deadline in force and, when it passes, answers `unknown`
/// and ends the process; returns when the run has ended first.
fn watchdog() {
    let mut held = DEADLINE.lock().unwrap_or_else(|e| e.into_inner());
    let due = loop {
        if FINISHED.load(Ordering::SeqCst) {
            return;
        }
        let wait = match &*held {
            None => None,
            Some(d) => match d.at.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Some(left),
                _ => break held.take(),
            },
        };
        held = match wait {
            None => DEADLINE_CHANGED
                .wait(held)
                .unwrap_or_else(|e| e.into_inner()),
            Some(left) => {
                DEADLINE_CHANGED
                    .wait_timeout(held, left)
                    .unwrap_or_else(|e| e.into_inner())
                    .0
            }
        };
    };
    drop(held);
    let Some(Deadline {
        limit,
        as_json,
        szs,
        ..
    }) = due
    else {
        return;
    };
    if !claim_report() {
        return;
    }
    let reason = format!("hard deadline of {:.2}s reached", limit.as_secs_f64());
    if let Some(name) = &szs {
        outln!("% SZS status Timeout for {name}");
    }
    if as_json {
        outln!(
            "{}",
            serde_json::json!({ "status": "unknown", "reason": reason, "szs_status": "Timeout" })
        );
    } else {
        outln!("unknown ({reason})");
    }
    exit_now(Exit::Unknown);
}

/// Ends the process once the report is out: E children are killed, and
/// neither Z3's contexts nor its static state are torn down (`_exit`), which
/// can take long after a hard search.
fn exit_now(exit: Exit) -> ! {
    entail::prove::kill_children();
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let _ = std::io::Write::flush(&mut std::io::stderr());
    // SAFETY: _exit(2) ends the process; every output was flushed above.
    unsafe { libc::_exit(exit as i32) }
}

fn json<T: serde::Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(s) => outln!("{s}"),
        Err(e) => eprintln!("entail prove: cannot serialise the report: {e}"),
    }
}

/// Prints a plain problem's report; `szs` is the problem's name when the
/// SZS status line goes first.
fn print_problem(report: &ProblemReport, as_json: bool, szs: Option<&str>) {
    if !claim_report() {
        // The hard deadline printed `unknown` and is ending the process.
        loop {
            std::thread::park();
        }
    }
    if let Some(name) = szs {
        outln!("% SZS status {} for {name}", report.szs_status());
    }
    if as_json {
        return json(&report.json());
    }
    match &report.result {
        Entailment::Proved => {
            outln!("proved");
            if let (Some(used), Some(recheck)) = (&report.used_premises, &report.premises_recheck) {
                outln!("used premises ({recheck} alone): {}", used.join(", "));
            }
            if let Some(proof) = &report.proof {
                out!("{proof}");
            }
        }
        Entailment::NotProved { countermodel } => {
            match &report.reason {
                Some(reason) => {
                    outln!("not_proved ({reason}: no proof exists; no finite model was found)")
                }
                None => outln!("not_proved"),
            }
            if let Some(cm) = countermodel {
                outln!("countermodel:\n{cm}");
            }
        }
        Entailment::Unknown { reason } => outln!("unknown ({reason})"),
    }
    for note in &report.notes {
        outln!("note: {note}");
    }
}

fn yes_no(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "yes",
        Some(false) => "no",
        None => "unknown",
    }
}

fn print_check(report: &CheckReport, as_json: bool) {
    if as_json {
        return json(report);
    }
    out!("consistent: {}", yes_no(report.consistency.consistent));
    match &report.consistency.conflict {
        Some(c) => outln!(" (conflicting premises: {})", c.join(", ")),
        None => outln!(),
    }
    for s in &report.solutions {
        outln!(
            "solution {}: steps valid: {}, reaches goal: {}, globally valid: {}, minimal: {}; support: {}",
            s.id,
            yes_no(s.steps_valid),
            yes_no(s.reaches_goal),
            yes_no(s.globally_valid),
            yes_no(s.minimal),
            s.support.join(", ")
        );
        for st in &s.steps {
            let status = match st.status {
                StepStatus::Valid => "valid",
                StepStatus::Invalid => "invalid",
                StepStatus::Unknown => "unknown",
            };
            let mut line = format!("  {} {status}", st.label);
            if let Some(rule) = &st.rule {
                line.push_str(&format!(" [{rule}]"));
            }
            if let Some(kind) = st.error_kind {
                let kind = serde_json::to_value(kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                line.push_str(&format!(" {kind}"));
            }
            if let Some(m) = &st.message {
                line.push_str(&format!(": {m}"));
            }
            outln!("{line}");
            if let Some(cm) = &st.countermodel {
                for l in cm.to_string().lines() {
                    outln!("    {l}");
                }
            }
        }
    }
    if let Some(sup) = &report.supports {
        let state = if sup.complete {
            "complete".to_string()
        } else {
            format!("incomplete: {}", sup.stopped.as_deref().unwrap_or(""))
        };
        outln!(
            "minimal supports ({}, {}, {state}):",
            sup.supports.len(),
            sup.method
        );
        for s in &sup.supports {
            outln!("  {{{}}}", s.join(", "));
        }
    }
    for l in &report.lints {
        outln!("warning: {}: {}: {}", l.kind, l.subject, l.message);
    }
}

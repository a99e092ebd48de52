//! `entail prove`: a plain Prover9 problem, a step file, a LogicGraph
//! instance directory, or a whole tree of instances (see `entail::prove`).

use super::{Exit, Failure, Outcome};
use entail::prove::{
    is_step_file, CheckReport, Entailment, ProblemReport, ProveError, ProveOptions, Prover,
    StepStatus, SupportOptions,
};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod tree;

/// Arguments of `entail prove`.
#[derive(clap::Args)]
#[command(after_help = "\
Exit status: 0 proved, or everything valid; 2 not proved, or something refuted;
4 unknown (a timeout or Z3 `unknown`) with nothing refuted; 1 an input error.

Engines: propositional checks go to truth tables or Z3. A first-order problem is raced
by Z3, E prover (eprover on PATH), Prover9 (prover9 on PATH, run with the file's search
settings such as max_weight and hints) and a finite model search; the first definite
answer wins, and every countermodel is re-checked by our own evaluator. The report's
engine field names the winner.

A directory without complete.json is a tree: every instance directory under it is
checked in one process on --workers threads, and each gets one line (with --json, one
JSON object with its \"instance\" path relative to the tree); the summary of verified,
refuted and unknown instances goes to stderr. An unreadable instance is reported as
DIR: message and counted; the others go on.

Examples:
  entail prove corpora/prove/group.in
  entail prove corpora/prove/mp_chain.in --json
  entail prove corpora/logicgraph-answers/Tiny/case_1 --supports
  entail prove corpora/logicgraph-answers --supports --json")]
pub struct Args {
    /// A Prover9 input file (plain problem or step file with `formulas(solution_N)` lists), a LogicGraph
    /// instance directory (complete.json + solutions.json), or a directory tree of instances
    path: PathBuf,
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
}

fn seconds(s: f64, what: &str) -> Result<Duration, ProveError> {
    Duration::try_from_secs_f64(s).map_err(|_| {
        ProveError::new(
            None,
            format!("{what} must be a non-negative number of seconds"),
        )
    })
}

/// Runs `entail prove`.
pub fn run(args: Args) -> Outcome {
    let file = args.path.display().to_string();
    let source = if args.path.is_dir() {
        if !entail::gen::logicgraph::is_instance_dir(&args.path) {
            return tree::run(&args);
        }
        None
    } else {
        Some(super::read_text(&args.path)?)
    };
    match run_inner(&args, source) {
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
fn run_inner(args: &Args, source: Option<String>) -> Result<Exit, ProveError> {
    let started = Instant::now();
    let (options, support_options) = options(args)?;
    let timeout = options.timeout;
    let problem = if let Some(src) = source {
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
            let limit = timeout
                .or(file_timeout)
                .unwrap_or(entail::prove::DEFAULT_TIMEOUT);
            // The engines stop `reserve` before the limit, and the hard
            // deadline comes halfway between. The reserve and the 10% allowed
            // past the limit are for what this clock does not see: starting
            // the process (loading Z3's library is milliseconds on a loaded
            // machine), stopping the engines, printing and exiting. A fixed
            // floor, because at `--timeout 0.1` 5% is less than starting.
            let reserve = (limit / 20).max(MIN_RESERVE).min(limit / 2);
            hard_deadline(started, limit - reserve / 2, limit, args.json);
            let budget = (limit - reserve)
                .saturating_sub(started.elapsed())
                .max(Duration::from_millis(1));
            let mut prover = Prover::new(ProveOptions {
                timeout: Some(budget),
                ..options
            });
            let mut report = prover.prove_input(&input)?;
            report.timeout_seconds = limit.as_secs_f64();
            print_problem(&report, args.json);
            let exit = match report.result {
                Entailment::Proved => Exit::Done,
                Entailment::NotProved { .. } => Exit::Refuted,
                Entailment::Unknown { .. } => Exit::Unknown,
            };
            exit_now(exit);
        }
        entail::prove::StepProblem::from_step_file(&input)?
    } else {
        entail::gen::logicgraph::load(&args.path, args.instantiated)?
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
fn hard_deadline(started: Instant, at: Duration, limit: Duration, as_json: bool) {
    std::thread::spawn(move || {
        std::thread::sleep(at.saturating_sub(started.elapsed()));
        if !claim_report() {
            return;
        }
        let reason = format!("hard deadline of {:.2}s reached", limit.as_secs_f64());
        if as_json {
            outln!(
                "{}",
                serde_json::json!({ "status": "unknown", "reason": reason })
            );
        } else {
            outln!("unknown ({reason})");
        }
        exit_now(Exit::Unknown);
    });
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

fn print_problem(report: &ProblemReport, as_json: bool) {
    if !claim_report() {
        // The hard deadline printed `unknown` and is ending the process.
        loop {
            std::thread::park();
        }
    }
    if as_json {
        return json(report);
    }
    match &report.result {
        Entailment::Proved => outln!("proved"),
        Entailment::NotProved { countermodel } => {
            outln!("not_proved");
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

//! A plain problem first goes to the native saturation prover
//! (`crate::saturate`) under a small counted budget ([`Budget::FIRST`]), in
//! process: its proof, or its saturation from a complete search, is the
//! answer. Otherwise the problem is raced by the engines under one
//! deadline: the same native prover under [`Budget::ENGINE`],
//! Z3, E prover on a TPTP translation, Prover9 (when installed) with the
//! file's search directives, and a finite model search. The first definite
//! answer wins and stops the others. One external prover leads: Prover9
//! when it is installed, else E. For one problem the lead starts before
//! the first attempt (see [`Engines`]); it answers most easy problems in
//! milliseconds, sooner than Z3 makes its context, so Z3 starts only if the
//! lead has not answered within [`Z3_DELAY_WITH_LEAD`], and then not before
//! the native prover's budget is spent (two cores: the lead's and the
//! native prover's). The other helpers (E behind Prover9, cvc5, the model
//! search) start only if no engine has settled within [`HELPER_DELAY`], so
//! easy problems never pay for them.
//!
//! Trust: `proved` comes from Z3, or from E or Prover9 on a text that read
//! back to the input; `not_proved` with a countermodel that
//! [`Countermodel::satisfies`] confirms on every assumption and the goal,
//! or without one when E saturated (SZS `CounterSatisfiable` or
//! `Satisfiable` from a complete strategy) on a text that read back.
//!
//! CPU: every prover runs at the caller's scheduling priority, so the
//! provers share the race's CPU equally. Lowering one prover (Z3 was reniced
//! to 19 once E ran) lowers it against every process on the machine, not
//! only against the other engines: under load it got almost no CPU, and its
//! proofs were lost (COM003-1, ALG097+1 and SYN506+1, which Z3 proves alone
//! in 1-4 s under load, were `unknown` in the race). The model search alone
//! runs [`MODEL_SEARCH_NICE`] steps lower: it answers only non-theorems, and
//! quickly when it does, while on a theorem an equal share of its would be
//! taken from the provers for nothing.

use super::tptp::{self, EOutcome};
use super::{ladr, quick, Entailment, ProveError, ProveOptions, Prover};
use crate::saturate::{Budget, Outcome, Run, Sources};
use crate::smt::{finite, universal_closure, Countermodel};
use crate::syntax::prover9::Formula;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How long the first engines run before the other helpers join them.
const HELPER_DELAY: Duration = Duration::from_millis(50);

/// How long Z3 waits for the lead prover's answer (Prover9, else E) before
/// making its context. Making the context costs Z3 about 6 ms of CPU
/// (`perf` on `corpora/prove/group.in`), as much as Prover9's whole run on
/// the problems it answers at once; on two cores that CPU is wall time.
/// E leads without Prover9. On 52 problems of an ILTP sample
/// (`scripts/tptp-sample`, 3 per domain, seed 2027), E behind Z3 had won
/// ten in 80-170 ms that it proves alone in 15-40 ms; leading, it wins
/// them in 20-50 ms, and the median time fell to 0.75x. E and Z3 both at
/// once gave 1.11x the median of Z3 waiting (Z3's wins slowed by E's
/// share), Z3 waiting 10 ms 1.20x. The cost: on E's 13 TPTP examples,
/// where Z3 wins more, its wins took 1.3-1.9x as long.
const Z3_DELAY_WITH_LEAD: Duration = Duration::from_millis(20);

/// How many nice steps the model search's thread lowers itself by: at +5
/// its CPU weight is a third of a prover's, so it is slowed, never starved,
/// also under load. Its answers came within 0.85 s on LADR's examples and
/// 2.5 s on the 106-problem TPTP sample; E's equational proofs that need a
/// core for 2-5 s (LADR's cs-commutator/DA-cs, cs-ore/quot-xy3a) were lost
/// in a 5 s race where it took an equal share.
const MODEL_SEARCH_NICE: i32 = 5;

/// The largest domain the model search tries (the ground size also bounds it).
const MAX_DOMAIN: usize = 64;

/// A verdict and the engine that gave it.
pub(crate) struct Decided {
    pub(crate) result: Entailment,
    pub(crate) engine: Option<&'static str>,
    pub(crate) notes: Vec<String>,
    /// Whether Prover9 was in the race (it reads the file's hints and weights).
    pub(crate) prover9_ran: bool,
    /// How a `not_proved` without a model was shown (`saturation`).
    pub(crate) reason: Option<&'static str>,
    /// For a proof by E or Prover9: its text.
    pub(crate) proof: Option<String>,
    /// For a proof by E or Prover9: the premises (indices) it used.
    pub(crate) used: Option<Vec<usize>>,
}

/// What [`decide`] settled on.
struct Verdict {
    result: Entailment,
    engine: Option<&'static str>,
    reason: Option<&'static str>,
    proof: Option<String>,
    used: Option<Vec<usize>>,
}

impl Verdict {
    fn by(result: Entailment, engine: &'static str) -> Result<Verdict, ProveError> {
        Ok(Verdict {
            result,
            engine: Some(engine),
            reason: None,
            proof: None,
            used: None,
        })
    }

    /// A proof by `engine` whose text names the premises it `used`.
    fn proof(
        engine: &'static str,
        proof: Option<String>,
        used: fn(&str) -> Vec<usize>,
    ) -> Result<Verdict, ProveError> {
        Ok(Verdict {
            used: proof.as_deref().map(used),
            proof,
            ..Verdict::by(Entailment::Proved, engine)?
        })
    }
}

/// A translation for an external prover, or `None` with a note saying why
/// `prover` was left out.
fn translated<T>(prover: &str, t: Result<T, String>, notes: &mut Vec<String>) -> Option<T> {
    t.map_err(|e| notes.push(format!("{prover} not used: {e}")))
        .ok()
}

/// Whether `model` makes every premise true and the goal (if any) false,
/// by our own evaluator.
pub(crate) fn confirms(
    model: &Countermodel,
    premises: &[&Formula],
    goal: Option<&Formula>,
) -> bool {
    model.satisfies_all(premises.iter().copied())
        && goal.is_none_or(|g| model.satisfies(g) == Some(false))
}

enum Helper {
    Z3(Result<Entailment, ProveError>),
    /// E's outcome, and its derivation when it found a proof.
    E(EOutcome, Option<String>),
    /// Prover9's proof, if it found one.
    Prover9(Option<String>),
    Cvc5(EOutcome),
    Model(Option<Countermodel>),
    /// The native prover's verdict, if it settled the problem.
    Native(Option<Verdict>),
}

/// Lowers the calling thread's scheduling priority by `by` nice steps (Linux
/// keeps one per thread; raising a nice value needs no privilege); a no-op
/// elsewhere or on error.
fn lower_own_priority(by: i32) {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid(2) and get/setpriority(2) on the calling thread only.
    unsafe {
        let who = libc::gettid() as libc::id_t;
        *libc::__errno_location() = 0;
        let now = libc::getpriority(libc::PRIO_PROCESS, who);
        if *libc::__errno_location() == 0 {
            libc::setpriority(libc::PRIO_PROCESS, who, (now + by).min(19));
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = by;
}

/// The stack of an engine's thread. Formulas are at most a thousand levels
/// deep as read (the parsers' limit; long `&`/`|` chains are balanced),
/// but closing a clause adds a quantifier per variable and the walks over
/// formulas recurse, Z3's among them: 2 MB, the default, is too little for
/// that in a debug build. The memory is reserved, not used.
const ENGINE_STACK: usize = 256 << 20;

/// Runs `f` on a thread of its own with [`ENGINE_STACK`]. If no thread can
/// be made, the engine does not run (the race answers without it).
fn engine_thread(f: impl FnOnce() + Send + 'static) {
    let _ = std::thread::Builder::new()
        .name("prove-engine".into())
        .stack_size(ENGINE_STACK)
        .spawn(f);
}

/// Waits `delay` unless `stop` is raised first; `false` when stopped.
fn wait_unless_stopped(stop: &AtomicBool, delay: Duration) -> bool {
    wait_unless(stop, &[], delay)
}

/// Waits `delay` unless `stop` or one of `done` is raised first; `false`
/// when stopped.
fn wait_unless(stop: &AtomicBool, done: &[&AtomicBool], delay: Duration) -> bool {
    let until = Instant::now() + delay;
    while Instant::now() < until && !done.iter().any(|d| d.load(Ordering::Relaxed)) {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    !stop.load(Ordering::Relaxed)
}

/// Which engines a race runs, and when its lead prover starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Engines {
    /// The native prover and Z3 alone (a propositional problem).
    Own,
    /// Every engine; the lead starts once the native prover's first
    /// attempt has failed. For the small problems of a batch (the three-way
    /// FOL answers), which that attempt mostly settles in a millisecond: a
    /// process started for each would cost more CPU than it saves.
    All,
    /// Every engine, the lead started before the native prover's first
    /// attempt, which then runs beside it: for one problem, where the lead
    /// answering 3-7 ms sooner outweighs the 0.3-2 ms its start adds to a
    /// problem the first attempt settles.
    AllLeadFirst,
}

impl Engines {
    /// Every engine for a first-order problem (the lead first for `one`
    /// problem), else the native prover and Z3.
    pub(crate) fn of(first_order: bool, one: bool) -> Engines {
        match (first_order, one) {
            (false, _) => Engines::Own,
            (true, false) => Engines::All,
            (true, true) => Engines::AllLeadFirst,
        }
    }
}

impl Prover {
    /// Races the engines on `premises ⊨ goal` until `timeout` from now.
    pub(crate) fn race(
        &mut self,
        premises: &[&Formula],
        goal: Option<&Formula>,
        timeout: Duration,
        engines: Engines,
    ) -> Result<Decided, ProveError> {
        let portfolio = engines != Engines::Own;
        // From before the quick checks, which the timeout covers too.
        let deadline = Instant::now() + timeout;
        if let Some((result, engine)) = quick::settle(premises, goal) {
            return Ok(Decided {
                result,
                engine: Some(engine),
                notes: Vec::new(),
                prover9_ran: false,
                reason: None,
                proof: None,
                used: None,
            });
        }
        let first = if engines == Engines::AllLeadFirst {
            None
        } else {
            match self.saturated(premises, goal) {
                Ok(decided) => return Ok(decided),
                Err(run) => Some(run),
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut notes = Vec::new();
        let (eprover, cvc5) = (
            portfolio && tptp::eprover_installed(),
            portfolio && tptp::cvc5_installed(),
        );
        if portfolio && !eprover {
            notes.push("eprover is not installed: Z3 and the model search ran without it".into());
        }
        // E and cvc5 read the same translation.
        let translation = if eprover || cvc5 {
            let t = tptp::translate_marked(premises, &self.negated_conjectures, goal);
            translated(if eprover { "E prover" } else { "cvc5" }, t, &mut notes)
        } else {
            None
        };
        let prover9 = if portfolio && ladr::prover9_installed() {
            let seconds = timeout.as_secs() + 1;
            let t = ladr::translate(&self.search_directives, premises, goal, seconds);
            translated("Prover9", t, &mut notes)
        } else {
            None
        };
        let prover9_ran = prover9.is_some();
        // E leads where Prover9 is missing.
        let e_leads = !prover9_ran && eprover && translation.is_some();
        let lead = prover9_ran || e_leads;
        let e_symbols = translation.as_ref().map(|t| t.symbols.clone());
        let first_size = self.first_model_size;
        let (premise_refs, goal_ref) = (premises, goal);
        let premises: Arc<Vec<Formula>> = Arc::new(premises.iter().map(|p| (*p).clone()).collect());
        let goal: Option<Arc<Formula>> = goal.map(|g| Arc::new(g.clone()));
        let (tx, rx) = mpsc::channel::<Helper>();
        // Set when the lead prover ends without a proof: Z3 need wait no
        // longer.
        let lead_ended = Arc::new(AtomicBool::new(false));
        // The lead's thread starts first, so its process is not kept
        // waiting behind the others' threads.
        if let Some(t) = prover9 {
            let (tx, stop, lead_ended) = (tx.clone(), stop.clone(), lead_ended.clone());
            engine_thread(move || {
                let proof = ladr::run_prover9_proof(&t, deadline, &stop);
                lead_ended.store(proof.is_none(), Ordering::Relaxed);
                let _ = tx.send(Helper::Prover9(proof));
            });
        }
        if let Some(t) = translation.clone().filter(|_| portfolio && eprover) {
            let (tx, stop, lead_ended) = (tx.clone(), stop.clone(), lead_ended.clone());
            let delay = if e_leads {
                Duration::ZERO
            } else {
                HELPER_DELAY
            };
            engine_thread(move || {
                if wait_unless_stopped(&stop, delay) {
                    let (outcome, proof) = tptp::run_eprover_proof(&t, deadline, &stop);
                    if e_leads && !matches!(outcome, EOutcome::Proved) {
                        lead_ended.store(true, Ordering::Relaxed);
                    }
                    let _ = tx.send(Helper::E(outcome, proof));
                }
            });
        }
        let first = match first.map_or_else(|| self.saturated(premise_refs, goal_ref), Err) {
            Ok(decided) => {
                // Ends the lead's process.
                stop.store(true, Ordering::Relaxed);
                return Ok(decided);
            }
            Err(run) => run,
        };
        // Set when the native prover's run has ended.
        let native_ended = Arc::new(AtomicBool::new(!portfolio));
        // The native prover goes on past its first budget, beside the
        // others: on the problems it proves in tens of milliseconds it
        // answers before Prover9 does, and before Z3 or E without Prover9.
        // It continues the first attempt's run, so nothing is clausified or
        // searched twice.
        if portfolio {
            let (tx, stop, premises, goal) =
                (tx.clone(), stop.clone(), premises.clone(), goal.clone());
            let names = (
                self.premise_names.clone(),
                self.goal_name.clone(),
                self.source_name.clone(),
            );
            let mut run = first;
            let native_ended = native_ended.clone();
            engine_thread(move || {
                let outcome = run.go(&Budget::ENGINE, &stop);
                native_ended.store(true, Ordering::Relaxed);
                let refs: Vec<&Formula> = premises.iter().collect();
                let sources = Sources {
                    premises: &refs,
                    names: &names.0,
                    goal: goal.as_deref(),
                    goal_name: &names.1,
                    file: &names.2,
                };
                let _ = tx.send(Helper::Native(native_verdict(outcome, &sources)));
            });
        }
        // Every engine runs on a thread of its own that the race does not
        // wait for: Z3 can ignore its interrupt for seconds, and the race
        // must still answer at the deadline with whatever the others found.
        // After the race the stop flag ends them; their results are dropped.
        {
            let (tx, stop, premises, goal) =
                (tx.clone(), stop.clone(), premises.clone(), goal.clone());
            let delay = if lead {
                Z3_DELAY_WITH_LEAD
            } else {
                Duration::ZERO
            };
            let (lead_ended, native_ended) = (lead_ended.clone(), native_ended.clone());
            let started = Instant::now();
            engine_thread(move || {
                if !wait_unless(&stop, &[&lead_ended], delay) {
                    return;
                }
                // Beside a lead that is still running, the native prover
                // has the other core until its budget ends.
                let rest = HELPER_DELAY.saturating_sub(started.elapsed());
                if lead && !wait_unless(&stop, &[&lead_ended, &native_ended], rest) {
                    return;
                }
                // Where libz3 is loaded on first use and cannot be, the
                // others race without Z3; alone, Z3 stops the run with why.
                if portfolio && !crate::smt::z3_loads() {
                    let reason = "libz3 could not be loaded: Z3 did not run".to_string();
                    let _ = tx.send(Helper::Z3(Ok(Entailment::Unknown { reason })));
                    return;
                }
                let mut z3 = Prover::new(ProveOptions {
                    timeout: Some(timeout),
                    countermodels: true,
                });
                z3.engine().set_stop(Some(stop));
                let refs: Vec<&Formula> = premises.iter().collect();
                let left = deadline.saturating_duration_since(Instant::now());
                let r = z3
                    .check_until(&refs, goal.as_deref(), left.max(Duration::from_millis(1)))
                    .map(|r| match r {
                        // Only a model our evaluator confirms goes out.
                        Entailment::NotProved {
                            countermodel: Some(cm),
                        } if !confirms(&cm, &refs, goal.as_deref()) => {
                            Entailment::NotProved { countermodel: None }
                        }
                        r => r,
                    });
                let _ = tx.send(Helper::Z3(r));
            });
        }
        if cvc5 {
            if let Some(t) = translation.clone() {
                let (tx, stop) = (tx.clone(), stop.clone());
                engine_thread(move || {
                    if wait_unless_stopped(&stop, HELPER_DELAY) {
                        let _ = tx.send(Helper::Cvc5(tptp::run_cvc5(&t, deadline, &stop)));
                    }
                });
            }
        }
        if portfolio {
            let (tx, stop, premises, goal) =
                (tx.clone(), stop.clone(), premises.clone(), goal.clone());
            engine_thread(move || {
                if wait_unless_stopped(&stop, HELPER_DELAY) {
                    lower_own_priority(MODEL_SEARCH_NICE);
                    // A model of the premises and the negated goal.
                    let mut searched: Vec<Formula> = premises.to_vec();
                    if let Some(g) = &goal {
                        searched.push(Formula::Not(Box::new(universal_closure(g))));
                    }
                    let refs: Vec<&Formula> = premises.iter().collect();
                    let model =
                        finite::find_model(&searched, MAX_DOMAIN, first_size, deadline, &stop)
                            .filter(|m| confirms(m, &refs, goal.as_deref()));
                    let _ = tx.send(Helper::Model(model));
                }
            });
        }
        drop(tx);
        let decided = decide(&rx, deadline);
        // Ends the engines still running (Z3's watchdog watches the flag too).
        stop.store(true, Ordering::Relaxed);
        let Verdict {
            result,
            engine,
            reason,
            mut proof,
            used,
        } = decided?;
        // E's derivation in the problem's own names (E saw `p0`, `a0`, …).
        if let (Some("eprover"), Some(text), Some(symbols)) = (engine, &proof, &e_symbols) {
            let mut names = self.premise_names.clone();
            names.resize(premises.len(), "premise".to_string());
            proof = Some(tptp::in_user_names(
                text,
                symbols,
                &names,
                &self.goal_name,
                &self.source_name,
            ));
        }
        Ok(Decided {
            result,
            engine,
            notes,
            prover9_ran,
            reason,
            proof,
            used,
        })
    }
}

impl Prover {
    /// The native saturation prover's verdict within [`Budget::FIRST`]: a
    /// proof, with the premises its derivation uses and the derivation in
    /// the problem's names, or `not_proved` by saturation (the loop claims
    /// it only when its search was complete); the run, to go on with, when
    /// it did not settle. The budget is counted, so the verdict does not
    /// depend on the machine.
    pub(crate) fn saturated(
        &self,
        premises: &[&Formula],
        goal: Option<&Formula>,
    ) -> Result<Decided, Run> {
        let mut run = Run::new(premises, goal);
        let outcome = run.go(&Budget::FIRST, &AtomicBool::new(false));
        let sources = Sources {
            premises,
            names: &self.premise_names,
            goal,
            goal_name: &self.goal_name,
            file: &self.source_name,
        };
        let Some(verdict) = native_verdict(outcome, &sources) else {
            return Err(run);
        };
        Ok(Decided {
            result: verdict.result,
            engine: verdict.engine,
            notes: Vec::new(),
            prover9_ran: false,
            reason: verdict.reason,
            proof: verdict.proof,
            used: verdict.used,
        })
    }
}

/// The native prover's outcome as a verdict: a proof, with the premises its
/// derivation uses and the derivation in the problem's names, or
/// `not_proved` by saturation (the loop claims it only when its search was
/// complete); `None` when it did not settle.
fn native_verdict(outcome: Outcome, sources: &Sources<'_>) -> Option<Verdict> {
    let verdict = |result, reason, proof, used| Verdict {
        result,
        engine: Some("saturate"),
        reason,
        proof,
        used,
    };
    match outcome {
        Outcome::Theorem(proof) => {
            let text = proof.tstp(sources);
            Some(verdict(
                Entailment::Proved,
                None,
                Some(text),
                Some(proof.used),
            ))
        }
        Outcome::Satisfiable => Some(verdict(
            Entailment::NotProved { countermodel: None },
            Some("saturation"),
            None,
            None,
        )),
        Outcome::Unknown(_) => None,
    }
}

/// The first definite answer on `rx` (Z3's own in full: proved, or a model
/// our evaluator confirms; E's proof or saturation; Prover9's proof; a
/// confirmed finite model), else `unknown` with what the engines said, once
/// all have ended or at `deadline`.
fn decide(rx: &mpsc::Receiver<Helper>, deadline: Instant) -> Result<Verdict, ProveError> {
    let mut reasons: Vec<String> = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let helper = match rx.recv_timeout(left) {
            Ok(h) => h,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                reasons.push("timeout".into());
                break;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match helper {
            Helper::Z3(Err(e)) => return Err(e),
            Helper::Z3(Ok(Entailment::Proved)) => return Verdict::by(Entailment::Proved, "z3"),
            // Z3 hands back only models that `check_until` confirmed.
            Helper::Z3(Ok(
                r @ Entailment::NotProved {
                    countermodel: Some(_),
                },
            )) => return Verdict::by(r, "z3"),
            Helper::Z3(Ok(Entailment::NotProved { countermodel: None })) => {
                reasons.push("Z3 found a model that could not be confirmed".into())
            }
            Helper::Z3(Ok(Entailment::Unknown { reason })) => reasons.push(reason),
            Helper::E(EOutcome::Proved, proof) => {
                return Verdict::proof("eprover", proof, tptp::used_axioms)
            }
            // cvc5 ran on E's translation, which read back.
            // Only its proofs count: it gives no model to check, and its
            // default strategy is not a complete one.
            Helper::Cvc5(EOutcome::Proved) => return Verdict::by(Entailment::Proved, "cvc5"),
            Helper::Prover9(Some(proof)) => {
                return Verdict::proof("prover9", Some(proof), ladr::used_assumptions)
            }
            Helper::Model(Some(cm)) => {
                let countermodel = Some(cm);
                return Verdict::by(Entailment::NotProved { countermodel }, "model-search");
            }
            // E ran only on a translation that read back (see `race`), and
            // says so only when its search was complete and saturated.
            Helper::E(EOutcome::Refuted, _) => {
                return Ok(Verdict {
                    reason: Some("saturation"),
                    ..Verdict::by(Entailment::NotProved { countermodel: None }, "eprover")?
                })
            }
            Helper::E(EOutcome::Unknown(_) | EOutcome::Absent, _)
            | Helper::Cvc5(EOutcome::Refuted | EOutcome::Unknown(_) | EOutcome::Absent)
            | Helper::Prover9(None)
            | Helper::Model(None)
            | Helper::Native(None) => {}
            Helper::Native(Some(verdict)) => return Ok(verdict),
        }
    }
    reasons.dedup();
    let reason = reasons.join("; ");
    Ok(Verdict {
        engine: None,
        ..Verdict::by(Entailment::Unknown { reason }, "")?
    })
}

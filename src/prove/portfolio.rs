//! A plain first-order problem is raced by three engines under one
//! deadline: Z3 (on the calling thread), E prover on a TPTP translation, and
//! a finite model search. The first definite answer wins and stops the
//! others. Helpers start only if Z3 has not settled within [`HELPER_DELAY`],
//! so easy problems never pay for them.
//!
//! Trust: `proved` comes from Z3, or from E on a translation that read back
//! to the input; `not_proved` only with a countermodel that
//! [`Countermodel::satisfies`] confirms on every assumption and the goal.

use super::quick;
use super::tptp::{self, EOutcome};
use super::{Entailment, ProveError, Prover};
use crate::smt::{finite, universal_closure, Countermodel};
use crate::syntax::prover9::Formula;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How long Z3 runs alone before E and the model search join it.
const HELPER_DELAY: Duration = Duration::from_millis(50);

/// The largest domain the model search tries (the ground size also bounds it).
const MAX_DOMAIN: usize = 64;

/// A verdict and the engine that gave it.
pub(crate) struct Decided {
    pub(crate) result: Entailment,
    pub(crate) engine: Option<&'static str>,
    pub(crate) notes: Vec<String>,
}

/// Whether `model` makes every premise true and the goal (if any) false,
/// by our own evaluator.
pub(crate) fn confirms(
    model: &Countermodel,
    premises: &[&Formula],
    goal: Option<&Formula>,
) -> bool {
    premises.iter().all(|p| model.satisfies(p) == Some(true))
        && goal.is_none_or(|g| model.satisfies(g) == Some(false))
}

enum Helper {
    E(EOutcome),
    Model(Option<Countermodel>),
}

/// Waits `delay` unless `stop` is raised first; `false` when stopped.
fn wait_unless_stopped(stop: &AtomicBool, delay: Duration) -> bool {
    let until = Instant::now() + delay;
    while Instant::now() < until {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    !stop.load(Ordering::Relaxed)
}

impl Prover {
    /// Races the engines on `premises ⊨ goal` until `timeout` from now.
    pub(crate) fn race(
        &mut self,
        premises: &[&Formula],
        goal: Option<&Formula>,
        timeout: Duration,
        portfolio: bool,
    ) -> Result<Decided, ProveError> {
        if let Some((result, engine)) = quick::settle(premises, goal) {
            return Ok(Decided {
                result,
                engine: Some(engine),
                notes: Vec::new(),
            });
        }
        let deadline = Instant::now() + timeout;
        let stop = Arc::new(AtomicBool::new(false));
        let mut notes = Vec::new();
        let translation = if portfolio && !tptp::eprover_installed() {
            notes.push("eprover is not installed: Z3 and the model search ran without it".into());
            None
        } else if portfolio {
            match tptp::translate(premises, goal) {
                Ok(t) => Some(t),
                Err(e) => {
                    notes.push(format!("E prover not used: {e}"));
                    None
                }
            }
        } else {
            None
        };
        // The model search looks for a model of the premises and the negated goal.
        let mut searched: Vec<Formula> = premises.iter().map(|p| (*p).clone()).collect();
        if let Some(g) = goal {
            searched.push(Formula::Not(Box::new(universal_closure(g))));
        }
        let first_size = self.first_model_size;
        let (tx, rx) = mpsc::channel::<Helper>();
        self.engine().set_stop(Some(stop.clone()));
        let decided = std::thread::scope(|scope| {
            if portfolio {
                if let Some(t) = &translation {
                    let (tx, stop) = (tx.clone(), stop.clone());
                    scope.spawn(move || {
                        if wait_unless_stopped(&stop, HELPER_DELAY) {
                            let outcome = tptp::run_eprover(t, deadline, &stop);
                            if outcome == EOutcome::Proved {
                                stop.store(true, Ordering::Relaxed);
                            }
                            let _ = tx.send(Helper::E(outcome));
                        }
                    });
                }
                let (tx, stop) = (tx.clone(), stop.clone());
                let searched = &searched;
                scope.spawn(move || {
                    if wait_unless_stopped(&stop, HELPER_DELAY) {
                        let model =
                            finite::find_model(searched, MAX_DOMAIN, first_size, deadline, &stop)
                                .filter(|m| confirms(m, premises, goal));
                        if model.is_some() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        let _ = tx.send(Helper::Model(model));
                    }
                });
            }
            drop(tx);
            let left = deadline.saturating_duration_since(Instant::now());
            let z3 = self.check_until(premises, goal, left.max(Duration::from_millis(1)));
            let z3 = match z3 {
                Ok(r) => r,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            };
            let mut reason = match z3 {
                Entailment::Proved => {
                    stop.store(true, Ordering::Relaxed);
                    return Ok((Entailment::Proved, Some("z3")));
                }
                Entailment::NotProved {
                    countermodel: Some(cm),
                } if confirms(&cm, premises, goal) => {
                    stop.store(true, Ordering::Relaxed);
                    let countermodel = Some(cm);
                    return Ok((Entailment::NotProved { countermodel }, Some("z3")));
                }
                Entailment::NotProved { .. } => {
                    "Z3 found a model that could not be confirmed".to_string()
                }
                Entailment::Unknown { reason } => reason,
            };
            // Z3 gave up; take the helpers' first definite answer.
            for helper in rx.iter() {
                match helper {
                    Helper::E(EOutcome::Proved) => {
                        stop.store(true, Ordering::Relaxed);
                        return Ok((Entailment::Proved, Some("eprover")));
                    }
                    Helper::Model(Some(cm)) => {
                        stop.store(true, Ordering::Relaxed);
                        let countermodel = Some(cm);
                        return Ok((Entailment::NotProved { countermodel }, Some("model-search")));
                    }
                    Helper::E(EOutcome::Refuted) => {
                        reason = format!(
                            "{reason}; E: no proof exists, but no finite countermodel was found"
                        )
                    }
                    Helper::E(EOutcome::Unknown(_) | EOutcome::Absent) | Helper::Model(None) => {}
                }
            }
            Ok((Entailment::Unknown { reason }, None))
        });
        self.engine().set_stop(None);
        let (result, engine) = decided?;
        Ok(Decided {
            result,
            engine,
            notes,
        })
    }
}

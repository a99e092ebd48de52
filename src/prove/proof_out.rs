//! What a proof used: for a `proved` plain problem, the premises the
//! winning proof cites (E's TSTP derivation, Prover9's proof, or Z3's unsat
//! core over the premises behind indicator literals), and a re-check that
//! those premises alone prove the goal again.

use super::portfolio::{Decided, Engines};
use super::{Guarded, Prover};
use crate::smt::Sat;
use crate::syntax::prover9::Formula;
use std::time::{Duration, Instant};

/// The premises a proof used, by name, and the re-check's verdict.
pub(crate) struct ProofOut {
    pub(crate) used: Vec<String>,
    /// `proved` when the used premises alone prove the goal again,
    /// `unknown` when the re-check ran out of time.
    pub(crate) recheck: String,
}

impl Prover {
    /// For a proof of `premises ⊨ goal` (`decided`): the premises it used,
    /// named by `names`, re-proved alone by a race. Finding the core and the
    /// race share a timeout as long as the first race's, so a proof found
    /// late is still re-checked.
    pub(crate) fn proof_out(
        &mut self,
        premises: &[&Formula],
        names: &[String],
        goal: Option<&Formula>,
        decided: &Decided,
        first_order: bool,
    ) -> ProofOut {
        let deadline = Instant::now() + self.timeout;
        let left = || deadline.saturating_duration_since(Instant::now());
        let mut used = match &decided.used {
            Some(used) => used.clone(),
            None => self.core(premises, goal, left()),
        };
        used.retain(|&i| i < premises.len());
        let subset: Vec<&Formula> = used.iter().map(|&i| premises[i]).collect();
        let negated = std::mem::take(&mut self.negated_conjectures);
        self.negated_conjectures = used
            .iter()
            .enumerate()
            .filter(|(_, i)| negated.contains(i))
            .map(|(k, _)| k)
            .collect();
        let recheck = match self.race(&subset, goal, left(), Engines::of(first_order, true)) {
            Ok(d) => match d.result {
                super::Entailment::Proved => "proved",
                super::Entailment::NotProved { .. } => "not_proved",
                super::Entailment::Unknown { .. } => "unknown",
            },
            Err(_) => "unknown",
        };
        self.negated_conjectures = negated;
        ProofOut {
            used: used.iter().map(|&i| names[i].clone()).collect(),
            recheck: recheck.to_string(),
        }
    }

    /// The premises in Z3's unsat core of `premises ∧ ¬goal`; all of them
    /// if Z3 does not find it unsatisfiable within `timeout`.
    fn core(
        &mut self,
        premises: &[&Formula],
        goal: Option<&Formula>,
        timeout: Duration,
    ) -> Vec<usize> {
        let all: Vec<usize> = (0..premises.len()).collect();
        let saved = self.timeout;
        self.engine()
            .set_timeout(timeout.max(Duration::from_millis(1)));
        let core = match Guarded::new(self, premises, goal) {
            Ok(mut guarded) => {
                let core = match guarded.check(&all) {
                    Sat::Unsat => guarded.core(&all),
                    _ => all.clone(),
                };
                guarded.finish();
                core
            }
            Err(_) => all.clone(),
        };
        self.engine().set_timeout(saved);
        core
    }
}

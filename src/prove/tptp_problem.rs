//! TPTP problems (`syntax::tptp`) as plain problems: every role but
//! `conjecture` is an assumption, the conjecture is the goal, distinct
//! objects are pairwise unequal, and negated conjectures keep their role on
//! the way to E.

use super::portfolio::{Decided, Engines};
use super::{Entailment, ProblemReport, ProveError, Prover};
use crate::smt::Signature;
use crate::syntax::prover9::{Formula, Item};
use crate::syntax::tptp::{Problem, Role};

impl Prover {
    /// Answers a TPTP problem: do its assumptions entail its conjecture (or,
    /// without one, are they unsatisfiable)? The report counts one goal when
    /// there is a conjecture, so [`ProblemReport::szs_status`] answers
    /// `Theorem`/`CounterSatisfiable` for it and `Unsatisfiable`/`Satisfiable`
    /// for a problem without one (a CNF problem's negated conjecture is an
    /// assumption, as in the SZS ontology).
    pub fn prove_tptp(&mut self, problem: &Problem) -> Result<ProblemReport, ProveError> {
        let conjectures: Vec<_> = problem
            .formulas
            .iter()
            .filter(|a| a.role == Role::Conjecture)
            .collect();
        if let Some(second) = conjectures.get(1) {
            return Err(ProveError::new(
                Some(second.pos),
                format!(
                    "more than one conjecture (`{}` and `{}`): write their conjunction as one",
                    conjectures[0].name, second.name
                ),
            ));
        }
        let mut premises: Vec<&Formula> = Vec::new();
        let mut negated = Vec::new();
        let mut signature = Signature::new();
        for a in &problem.formulas {
            signature.add_formula(&a.formula).map_err(|e| {
                ProveError::type_error(None, format!("in `{}`: {}", a.name, e.message))
            })?;
            if a.role == Role::Conjecture {
                continue;
            }
            if a.role == Role::NegatedConjecture {
                negated.push(premises.len());
            }
            premises.push(&a.formula);
        }
        let first_order = !signature.is_propositional();
        let goal = conjectures.first().map(|a| &a.formula);
        self.premise_names = problem
            .formulas
            .iter()
            .filter(|a| a.role != Role::Conjecture)
            .map(|a| a.name.clone())
            .collect();
        self.goal_name = conjectures
            .first()
            .map_or_else(|| "goal".to_string(), |a| a.name.clone());
        // Many distinct objects take many axioms to encode (n log n): the
        // native prover first tries without them, where a proof needs no
        // distinctness; only its proofs count there, since a saturation
        // without the axioms says nothing about the problem.
        let objects = problem.distinct_objects();
        if objects.len() > crate::syntax::tptp::PAIRWISE_DISTINCT {
            if let Ok(decided) = self.saturated(&premises, goal) {
                if decided.result == Entailment::Proved {
                    let names = self.premise_names.clone();
                    let report =
                        self.tptp_report(&premises, &names, goal, decided, first_order, Vec::new());
                    return Ok(report);
                }
            }
        }
        let distinct = problem.distinct_object_encoding(&objects);
        let mut notes = Vec::new();
        if !distinct.is_empty() {
            let count = objects.len();
            notes.push(if count <= crate::syntax::tptp::PAIRWISE_DISTINCT {
                format!(
                    "{count} distinct objects: {} disequalities added",
                    distinct.len()
                )
            } else {
                format!(
                    "{count} distinct objects: numbered in binary by {} unit axioms",
                    distinct.len()
                )
            });
        }
        premises.extend(&distinct);
        self.first_model_size = 1;
        // TPTP's variables are upper case and its constants lower case (`x`,
        // `unit`), which is Prover9's reading under this flag.
        self.search_directives = vec![Item::Set("prolog_style_variables".into())];
        self.negated_conjectures = negated;
        let mut names = self.premise_names.clone();
        names.resize(premises.len(), "distinct_objects".to_string());
        self.premise_names = names.clone();
        let timeout = self.timeout;
        let decided = self.race(&premises, goal, timeout, Engines::of(first_order, true))?;
        Ok(self.tptp_report(&premises, &names, goal, decided, first_order, notes))
    }

    /// The report of a decided TPTP problem over `premises` (named by
    /// `names`), with the notes made on the way.
    fn tptp_report(
        &mut self,
        premises: &[&Formula],
        names: &[String],
        goal: Option<&Formula>,
        decided: Decided,
        first_order: bool,
        mut notes: Vec<String>,
    ) -> ProblemReport {
        let timeout = self.timeout;
        let out = self.proved_out(premises, names, goal, &decided, first_order);
        self.negated_conjectures = Vec::new();
        let mut result = decided.result;
        if !self.options.countermodels {
            if let Entailment::NotProved { countermodel } = &mut result {
                *countermodel = None;
            }
        }
        notes.extend(decided.notes);
        ProblemReport {
            result,
            assumptions: premises.len(),
            goals: usize::from(goal.is_some()),
            timeout_seconds: timeout.as_secs_f64(),
            engine: decided.engine.map(str::to_string),
            notes,
            reason: decided.reason.map(str::to_string),
            used_premises: out.as_ref().map(|o| o.used.clone()),
            premises_recheck: out.map(|o| o.recheck),
            proof: decided.proof.filter(|_| self.proof_out),
        }
    }
}

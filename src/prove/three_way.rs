//! Three-way answers, as natural-language-to-logic pipelines (FOLIO,
//! Logic-LM, LINC) ask them: `True` when the premises entail the
//! conclusion, `False` when they entail its negation, `Uncertain` when
//! neither, `Error` when the program cannot be read.
//!
//! Each direction is one entailment check, decided by the cheapest means
//! that settles it: the quick checks (truth tables, ground instances, tiny
//! models), then the native saturation prover under a counted budget, then
//! Z3 on the prover's own solver (one context per thread,
//! reused with push/pop: microseconds per check where a new context costs
//! milliseconds), and only if Z3 cannot settle it within a short budget,
//! the race of engines. A `True` or `False` always comes from a proof; an
//! `Uncertain` is `settled` when both directions have a countermodel (or
//! E's saturation), and says so otherwise.

use super::{portfolio, quick, Entailment, Guarded, ProveError, Prover, TABLE_ATOMS};
use crate::saturate::{saturate, Budget, Outcome};
use crate::smt::{universal_closure, Countermodel, Sat, Signature};
use crate::syntax::fol::Program;
use crate::syntax::prover9::Formula;
use crate::syntax::SyntaxError;
use serde::Serialize;
use std::time::{Duration, Instant};

/// The longest Z3 runs on the prover's own solver before a direction goes
/// to the race of engines.
const OWN_SOLVER_BUDGET: Duration = Duration::from_secs(1);

/// The answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Answer {
    /// The conclusion was proved.
    True,
    /// Its negation was proved.
    False,
    /// Neither was proved.
    Uncertain,
    /// The program could not be read or checked.
    Error,
}

impl Answer {
    /// The answer's name, as pipelines print it.
    pub fn name(self) -> &'static str {
        match self {
            Answer::True => "True",
            Answer::False => "False",
            Answer::Uncertain => "Uncertain",
            Answer::Error => "Error",
        }
    }

    /// A gold label in any of the spellings datasets use (`True`, `true`,
    /// `A`; `False`, `B`; `Uncertain`, `Unknown`, `C`), if it is one.
    pub fn from_label(label: &str) -> Option<Answer> {
        match label.trim().to_lowercase().as_str() {
            "true" | "a" | "yes" | "entailment" => Some(Answer::True),
            "false" | "b" | "no" | "contradiction" => Some(Answer::False),
            "uncertain" | "unknown" | "c" | "neutral" => Some(Answer::Uncertain),
            _ => None,
        }
    }
}

/// One direction: do the premises entail the conclusion (or its negation)?
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Direction {
    /// `proved`, `not_proved` or `unknown`.
    pub status: &'static str,
    /// The engine that decided: `truth-table`, `model-search`, `z3`,
    /// `eprover`, `prover9`, `cvc5`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// For `proved`: the premises the proof used (1-based), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub used_premises: Option<Vec<usize>>,
    /// For `not_proved`: a model of the premises where it is false, checked
    /// by our own evaluator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub countermodel: Option<Countermodel>,
    /// For `unknown`, why; for `not_proved` without a model, how it was
    /// shown (`saturation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Direction {
    fn proved(&self) -> bool {
        self.status == "proved"
    }
}

/// Why a program gave `Error`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThreeWayError {
    /// `syntax` (a formula did not parse), `symbols` (a symbol with two
    /// arities or roles), `structure` (no premises or conclusion section),
    /// `input` (a batch line that is not a program), or `check` (the
    /// formulas could not be checked).
    pub kind: &'static str,
    /// `LINE:COL: message` when it has a place, else the message.
    pub message: String,
    /// The 1-based line, when it has a place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The 1-based column, in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

impl ThreeWayError {
    /// An error of `kind` without a place.
    pub fn new(kind: &'static str, message: impl Into<String>) -> ThreeWayError {
        ThreeWayError {
            kind,
            message: message.into(),
            line: None,
            column: None,
        }
    }

    /// A reader's error, with its kind told from its message.
    pub fn from_syntax(e: &SyntaxError) -> ThreeWayError {
        let m = &e.message;
        let kind = if m.contains("same number of arguments")
            || m.contains("give the two different names")
        {
            "symbols"
        } else if m.contains("`Premises:`")
            || m.contains("`Conclusion:`")
            || m.contains("conclusions")
            || m.starts_with("no \"")
            || m.starts_with("invalid JSON")
            || m.contains("must be a")
        {
            "structure"
        } else {
            "syntax"
        };
        ThreeWayError {
            kind,
            message: format!("{}:{}: {}", e.pos.line, e.pos.col, m),
            line: Some(e.pos.line),
            column: Some(e.pos.col),
        }
    }
}

/// The three-way verdict on a program, with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThreeWayReport {
    /// `True`, `False`, `Uncertain` or `Error`.
    pub answer: Answer,
    /// For `Uncertain`: whether both directions were refuted (`true`), or
    /// some check ran out of time or was undecided (`false`). Always `true`
    /// for `True` and `False`, which come from proofs.
    pub settled: bool,
    /// Both the conclusion and its negation were proved: the premises are
    /// inconsistent (the answer is `True`, as the pipelines give it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inconsistent_premises: bool,
    /// For `True` or `False`: the premises the proof used (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub used_premises: Option<Vec<usize>>,
    /// The check of the conclusion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conclusion: Option<Direction>,
    /// The check of its negation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub negation: Option<Direction>,
    /// How the program was read where it left a choice.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// For `Error`: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ThreeWayError>,
}

impl ThreeWayReport {
    /// The report of a program that gave `Error`.
    pub fn failed(error: ThreeWayError) -> ThreeWayReport {
        ThreeWayReport {
            answer: Answer::Error,
            settled: false,
            inconsistent_premises: false,
            used_premises: None,
            conclusion: None,
            negation: None,
            notes: Vec::new(),
            error: Some(error),
        }
    }
}

impl Prover {
    /// The three-way answer on `program`; each direction within the
    /// prover's timeout.
    pub fn three_way(&mut self, program: &Program) -> ThreeWayReport {
        let premises: Vec<&Formula> = program.premises.iter().map(|s| &s.formula).collect();
        let closed = universal_closure(&program.conclusion.formula);
        let negated = Formula::not(closed.clone());
        let mut report = match self.three_way_formulas(&premises, &closed, &negated) {
            Ok(r) => r,
            Err(e) => ThreeWayReport::failed(ThreeWayError::new("check", e.message)),
        };
        report.notes.extend(program.notes.iter().cloned());
        report
    }

    fn three_way_formulas(
        &mut self,
        premises: &[&Formula],
        conclusion: &Formula,
        negated: &Formula,
    ) -> Result<ThreeWayReport, ProveError> {
        Signature::of(premises.iter().copied().chain([conclusion]))
            .map_err(|e| ProveError::new(None, e.message))?;
        self.search_directives.clear();
        self.negated_conjectures.clear();
        self.first_model_size = 1;
        let positive = self.direction(premises, conclusion)?;
        let negative = self.direction(premises, negated)?;
        let (answer, used) = match (positive.proved(), negative.proved()) {
            (true, _) => (Answer::True, positive.used_premises.clone()),
            (false, true) => (Answer::False, negative.used_premises.clone()),
            (false, false) => (Answer::Uncertain, None),
        };
        let settled = answer != Answer::Uncertain
            || (positive.status == "not_proved" && negative.status == "not_proved");
        let inconsistent = positive.proved() && negative.proved();
        let mut notes = Vec::new();
        if inconsistent {
            notes.push(
                "the premises are inconsistent: both the conclusion and its negation follow from them"
                    .to_string(),
            );
        }
        Ok(ThreeWayReport {
            answer,
            settled,
            inconsistent_premises: inconsistent,
            used_premises: used,
            conclusion: Some(positive),
            negation: Some(negative),
            notes,
            error: None,
        })
    }

    /// Whether `premises` entail the closed `goal`.
    fn direction(
        &mut self,
        premises: &[&Formula],
        goal: &Formula,
    ) -> Result<Direction, ProveError> {
        let started = Instant::now();
        let timeout = self.timeout;
        let mut quick_proof = None;
        if let Some((result, engine)) = quick::settle(premises, Some(goal)) {
            match result {
                Entailment::NotProved { countermodel } => {
                    return Ok(Direction {
                        status: "not_proved",
                        engine: Some(engine.into()),
                        used_premises: None,
                        countermodel,
                        reason: None,
                    })
                }
                Entailment::Proved => quick_proof = Some(engine),
                Entailment::Unknown { .. } => {}
            }
        }
        if quick_proof.is_some() {
            if let Some(used) = instance_support(premises, goal) {
                return Ok(Direction {
                    status: "proved",
                    engine: quick_proof.map(str::to_string),
                    used_premises: Some(used),
                    countermodel: None,
                    reason: None,
                });
            }
        }
        // The native saturation prover, under a small counted budget: no
        // solver context, no process. Its proofs name the premises they
        // use; a saturation (a model exists, none built) settles the
        // direction when countermodels are not asked for.
        if quick_proof.is_none() {
            match saturate(premises, Some(goal), &Budget::RACE).0 {
                Outcome::Theorem(proof) => {
                    return Ok(Direction {
                        status: "proved",
                        engine: Some("saturate".into()),
                        used_premises: Some(proof.used.iter().map(|i| i + 1).collect()),
                        countermodel: None,
                        reason: None,
                    })
                }
                Outcome::Satisfiable if !self.options.countermodels => {
                    return Ok(Direction {
                        status: "not_proved",
                        engine: Some("saturate".into()),
                        used_premises: None,
                        countermodel: None,
                        reason: None,
                    })
                }
                _ => {}
            }
        }
        // Z3 on our own solver, under a short budget.
        let budget = OWN_SOLVER_BUDGET
            .min(timeout / 4)
            .max(Duration::from_millis(1));
        let own = self.own_solver(premises, goal, budget);
        self.use_engine_timeout(timeout);
        match own? {
            Some(d) if d.proved() => {
                return Ok(Direction {
                    engine: quick_proof.map(str::to_string).or(d.engine),
                    ..d
                })
            }
            Some(d) if quick_proof.is_none() => return Ok(d),
            _ => {}
        }
        if let Some(engine) = quick_proof {
            return Ok(Direction {
                status: "proved",
                engine: Some(engine.into()),
                used_premises: None,
                countermodel: None,
                reason: None,
            });
        }
        let left = timeout
            .saturating_sub(started.elapsed())
            .max(Duration::from_millis(1));
        let first_order = !Signature::of(premises.iter().copied().chain([goal]))
            .map_err(|e| ProveError::new(None, e.message))?
            .is_propositional();
        let decided = self.race(
            premises,
            Some(goal),
            left,
            portfolio::Engines::of(first_order, false),
        )?;
        let engine = decided.engine.map(str::to_string);
        Ok(match decided.result {
            Entailment::Proved => Direction {
                status: "proved",
                engine,
                used_premises: decided.used.map(|u| u.into_iter().map(|i| i + 1).collect()),
                countermodel: None,
                reason: None,
            },
            Entailment::NotProved { countermodel } => Direction {
                status: "not_proved",
                engine,
                used_premises: None,
                countermodel,
                reason: decided.reason.map(str::to_string),
            },
            Entailment::Unknown { reason } => Direction {
                status: "unknown",
                engine: None,
                used_premises: None,
                countermodel: None,
                reason: Some(reason),
            },
        })
    }

    fn use_engine_timeout(&mut self, timeout: Duration) {
        if let Some(engine) = &mut self.engine {
            engine.set_timeout(timeout);
        }
    }

    /// The direction by truth table or Z3 on the prover's own solver, with
    /// the used premises of a proof (Z3's core, shrunk to a minimal one);
    /// `None` when that does not settle it (Z3 `unknown`, or a model our
    /// evaluator does not confirm).
    fn own_solver(
        &mut self,
        premises: &[&Formula],
        goal: &Formula,
        budget: Duration,
    ) -> Result<Option<Direction>, ProveError> {
        let signature = Signature::of(premises.iter().copied().chain([goal]))
            .map_err(|e| ProveError::new(None, e.message))?;
        if !signature.is_propositional() {
            self.engine().set_timeout(budget);
        }
        let all: Vec<usize> = (0..premises.len()).collect();
        let mut guarded = Guarded::new(self, premises, Some(goal))?;
        let table = matches!(guarded.backend, super::Backend::Table(_));
        let engine = Some(if table { "truth-table" } else { "z3" }.to_string());
        let result = match guarded.check(&all) {
            Sat::Unsat => {
                let core = guarded.core(&all);
                let used = guarded.shrink(core.clone()).unwrap_or(core);
                Some(Direction {
                    status: "proved",
                    engine,
                    used_premises: Some(used.into_iter().map(|i| i + 1).collect()),
                    countermodel: None,
                    reason: None,
                })
            }
            Sat::Sat if table => None,
            Sat::Sat => guarded
                .prover
                .engine()
                .countermodel(&signature)
                .filter(|cm| portfolio::confirms(cm, premises, Some(goal)))
                .map(|cm| Direction {
                    status: "not_proved",
                    engine,
                    used_premises: None,
                    countermodel: Some(cm),
                    reason: None,
                }),
            Sat::Unknown => None,
        };
        guarded.finish();
        if result.is_none() && table {
            // A propositional refutation: its countermodel by truth table.
            if let Some(r @ Entailment::NotProved { .. }) =
                quick::by_table(premises, Some(goal), TABLE_ATOMS, true)
            {
                let Entailment::NotProved { countermodel } = r else {
                    return Ok(None);
                };
                return Ok(Some(Direction {
                    status: "not_proved",
                    engine: Some("truth-table".into()),
                    used_premises: None,
                    countermodel,
                    reason: None,
                }));
            }
        }
        Ok(result)
    }
}

/// A minimal set of premises (1-based) whose ground instances prove
/// `goal`, by deletion; `None` if all of them do not. Each check is a
/// truth table over a few hundred instances at most: microseconds, where
/// Z3's core and its shrinking cost a solver call each.
fn instance_support(premises: &[&Formula], goal: &Formula) -> Option<Vec<usize>> {
    if !quick::proved_by_instances(premises, Some(goal)) {
        return None;
    }
    let mut kept: Vec<usize> = (0..premises.len()).collect();
    let mut k = kept.len();
    while k > 0 {
        k -= 1;
        let without: Vec<&Formula> = kept
            .iter()
            .filter(|&&i| i != kept[k])
            .map(|&i| premises[i])
            .collect();
        if quick::proved_by_instances(&without, Some(goal)) {
            kept.remove(k);
        }
    }
    Some(kept.into_iter().map(|i| i + 1).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::ProveOptions;
    use crate::syntax::fol::parse_parts;

    fn answer(premises: &[&str], conclusion: &str) -> ThreeWayReport {
        let program = parse_parts(
            &premises.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            conclusion,
        )
        .expect("reads");
        Prover::new(ProveOptions::default()).three_way(&program)
    }

    #[test]
    fn true_false_uncertain_with_evidence() {
        let r = answer(
            &["∀x (Drinks(x) → Dependent(x))", "Drinks(yale)", "Tall(bob)"],
            "Dependent(yale)",
        );
        assert_eq!(r.answer, Answer::True);
        assert_eq!(r.used_premises, Some(vec![1, 2]));
        let r = answer(
            &["∀x (Drinks(x) → ¬Dependent(x))", "Drinks(yale)"],
            "Dependent(yale)",
        );
        assert_eq!(r.answer, Answer::False);
        assert_eq!(r.used_premises, Some(vec![1, 2]));
        let r = answer(&["∀x (Drinks(x) → Dependent(x))"], "Dependent(yale)");
        assert_eq!(r.answer, Answer::Uncertain);
        assert!(r.settled);
        let (c, n) = (r.conclusion.expect("checked"), r.negation.expect("checked"));
        assert!(c.countermodel.is_some() && n.countermodel.is_some());
    }

    #[test]
    fn inconsistent_premises_are_said() {
        let r = answer(&["∀x P(x)", "¬P(bob)"], "Q(bob)");
        assert_eq!(r.answer, Answer::True);
        assert!(r.inconsistent_premises);
    }

    #[test]
    fn a_free_variable_in_the_conclusion_is_closed_before_negating() {
        // ∀x P(x) is not entailed, and neither is ¬∀x P(x).
        let r = answer(&["P(a)"], "P(x)");
        assert_eq!(r.answer, Answer::Uncertain);
    }
}

//! Checking proofs: entailment, step problems (step files, and the
//! LogicGraph instances that `gen::logicgraph` loads into them), global
//! derivability, consistency and minimal supports.
//!
//! Propositional checks over at most `TABLE_ATOMS` (16) atoms, most steps among
//! them, are decided by truth table (see `quick::TableCheck`). For the rest a
//! [`Prover`] owns one Z3 [`Z3Session`], made on first use, and reuses its
//! solver for every check (scoped with push/pop, or switched by indicator
//! literals), which is what makes thousands of Z3 checks per second
//! possible. Z3 state is thread-local, so a `Prover` stays on the thread
//! that made it; use one per worker thread.
//!
//! Semantics are Prover9's: free variables of assumptions are universally
//! closed; each goal is universally closed and the problem asks whether the
//! assumptions entail the disjunction of the goals; an empty goal list asks
//! whether the assumptions are unsatisfiable. A timeout or Z3 `unknown` is
//! reported as unknown and never as valid.
//!
//! A plain problem ([`Prover::prove_input`]) is first tried without any
//! engine (see `quick`), then by the native saturation prover under a
//! small counted budget (`crate::saturate`); if neither settles it, a
//! first-order one is raced by Z3, E prover, Prover9 (when installed) and a
//! finite model search under one deadline (see `portfolio`). Step checks that need Z3 get Z3 alone, no race.

mod child;
mod fol_batch;
pub mod ladr;
mod portfolio;
mod problem;
mod projection;
mod proof_out;
mod quick;
mod report;
pub mod rules;
mod three_way;
pub mod tptp;
mod tptp_problem;

pub use child::kill_children;
pub use fol_batch::{answer as three_way_answer, program_of, run_three_way_batch, ThreeWaySummary};
pub use problem::{
    combined_goal, is_step_file, Premise, Solution, Step, StepProblem, ASSUMPTION_LISTS,
};
pub use report::{
    CheckReport, Consistency, Entailment, ErrorKind, ErrorStatus, Lint, ProblemJson, ProblemReport,
    ProveError, SolutionReport, StepReport, StepStatus, SupportsReport, SZS_ERROR,
};
pub use three_way::{Answer, Direction, ThreeWayError, ThreeWayReport};

use crate::smt::{free_variables, Sat, Signature, SubsetMap, Z3Session};
use crate::syntax::prover9::{Formula, Input, Item};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use z3::ast::Bool;

/// The per-check timeout when neither the caller nor the file gives one.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The most atoms a propositional check (a step, a pool's consistency, a
/// support) is decided with by truth table instead of Z3. At 2^16 rows a set
/// of models is 1,024 words, and a check still costs a few microseconds
/// against some 30 for a Z3 call.
const TABLE_ATOMS: usize = 16;

/// How checks are run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProveOptions {
    /// Per-check timeout chosen by the caller; it overrides the file's
    /// `assign(max_seconds, N)`. `None`: the file's, else [`DEFAULT_TIMEOUT`].
    pub timeout: Option<Duration>,
    /// Whether to extract countermodels for refuted checks (costs a model
    /// evaluation per refutation).
    pub countermodels: bool,
}

impl Default for ProveOptions {
    fn default() -> Self {
        ProveOptions {
            timeout: None,
            countermodels: true,
        }
    }
}

/// Limits of the minimal-support enumeration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportOptions {
    /// Stop after this many supports.
    pub cap: usize,
    /// Stop after this much time in total.
    pub timeout: Duration,
}

impl Default for SupportOptions {
    fn default() -> Self {
        SupportOptions {
            cap: 1000,
            timeout: Duration::from_secs(60),
        }
    }
}

/// The checker: truth tables for small propositional checks (`TABLE_ATOMS`),
/// Z3 for the rest, and the engine race for plain problems. See the module
/// documentation.
pub struct Prover {
    /// Made on first use: creating Z3's context costs milliseconds, which
    /// problems settled without Z3 (see `quick`) do not pay.
    engine: Option<Z3Session>,
    /// The per-check timeout in force.
    timeout: Duration,
    /// The first domain size the model search tries (the file's Mace4 hint).
    first_model_size: usize,
    /// The file's directives for Prover9's search (see `ladr`).
    search_directives: Vec<Item>,
    /// Which premises of the problem being raced are a TPTP problem's
    /// negated conjectures (E gets them in that role).
    negated_conjectures: Vec<usize>,
    /// Whether a plain problem's proof is reported with the premises it
    /// used, re-checked, and its text.
    proof_out: bool,
    /// The names of the premises of the problem being raced, and of its
    /// goal, for E's derivation (see [`tptp::in_user_names`]).
    premise_names: Vec<String>,
    goal_name: String,
    /// The problem's file, named in E's derivation as its source.
    source_name: String,
    options: ProveOptions,
}

impl Prover {
    /// A prover with its own solver.
    pub fn new(options: ProveOptions) -> Prover {
        Prover {
            engine: None,
            timeout: options.timeout.unwrap_or(DEFAULT_TIMEOUT),
            first_model_size: 1,
            search_directives: Vec::new(),
            negated_conjectures: Vec::new(),
            proof_out: false,
            premise_names: Vec::new(),
            goal_name: "goal".to_string(),
            source_name: "<stdin>".to_string(),
            options,
        }
    }

    /// Names the problem's file in printed derivations (`file('NAME', ..)`);
    /// `<stdin>` by default.
    pub fn set_source_name(&mut self, name: impl Into<String>) {
        self.source_name = name.into();
    }

    /// Turns proof output on or off: for a `proved` plain (Prover9 or TPTP)
    /// problem, the report then names the premises the proof used, says
    /// whether they alone prove the goal again (a second race, with a
    /// timeout of its own as long as the first), and carries E's or
    /// Prover9's proof text.
    pub fn set_proof_out(&mut self, on: bool) {
        self.proof_out = on;
    }

    /// The Z3 engine, made on first use.
    fn engine(&mut self) -> &mut Z3Session {
        let timeout = self.timeout;
        self.engine.get_or_insert_with(|| Z3Session::new(timeout))
    }

    /// The options it was made with.
    pub fn options(&self) -> &ProveOptions {
        &self.options
    }

    /// Uses the caller's timeout if one was given, else `file_timeout`, else
    /// the default.
    fn use_timeout(&mut self, file_timeout: Option<Duration>) {
        let t = self
            .options
            .timeout
            .or(file_timeout)
            .unwrap_or(DEFAULT_TIMEOUT);
        if t != self.timeout {
            self.timeout = t;
            if let Some(engine) = &mut self.engine {
                engine.set_timeout(t);
            }
        }
    }

    /// Whether `premises` entail `goal` (both universally closed first).
    pub fn entails(
        &mut self,
        premises: &[Formula],
        goal: &Formula,
    ) -> Result<Entailment, ProveError> {
        let refs: Vec<&Formula> = premises.iter().collect();
        self.check(&refs, Some(goal), self.options.countermodels)
    }

    /// Whether `formulas` are unsatisfiable ("proved" means contradictory).
    pub fn refutes(&mut self, formulas: &[Formula]) -> Result<Entailment, ProveError> {
        let refs: Vec<&Formula> = formulas.iter().collect();
        self.check(&refs, None, self.options.countermodels)
    }

    /// The core check: `premises ∧ ¬goal` (or just `premises` without a goal)
    /// is unsatisfiable.
    fn check(
        &mut self,
        premises: &[&Formula],
        goal: Option<&Formula>,
        model: bool,
    ) -> Result<Entailment, ProveError> {
        self.check_watched(premises, goal, model, false)
    }

    /// [`Prover::check`]; the watchdog runs for first-order problems, or
    /// always with `watch`.
    fn check_watched(
        &mut self,
        premises: &[&Formula],
        goal: Option<&Formula>,
        model: bool,
        watch: bool,
    ) -> Result<Entailment, ProveError> {
        let signature = Signature::of(premises.iter().copied().chain(goal))
            .map_err(|e| ProveError::type_error(None, e.message))?;
        if signature.is_propositional() {
            if let Some(result) = quick::by_table(premises, goal, TABLE_ATOMS, model) {
                return Ok(result);
            }
        }
        self.engine()
            .set_watchdog(watch || !signature.is_propositional());
        let mut encoded = Vec::with_capacity(premises.len() + 1);
        for p in premises {
            encoded.push(
                self.engine()
                    .closed(p)
                    .map_err(|e| ProveError::new(None, e.message))?,
            );
        }
        if let Some(g) = goal {
            encoded.push(
                self.engine()
                    .closed(g)
                    .map_err(|e| ProveError::new(None, e.message))?
                    .not(),
            );
        }
        self.engine().push();
        for e in &encoded {
            self.engine().assert(e);
        }
        let result = match self.engine().check(&[]) {
            Sat::Unsat => Entailment::Proved,
            Sat::Sat => Entailment::NotProved {
                countermodel: if model {
                    self.engine().countermodel(&signature)
                } else {
                    None
                },
            },
            Sat::Unknown => Entailment::Unknown {
                reason: self.engine().reason_unknown(),
            },
        };
        self.engine().pop();
        Ok(result)
    }

    /// Answers a plain Prover9 problem: do the assumptions (`assumptions`,
    /// `sos`, `usable`, `demodulators`) entail the goals?
    pub fn prove_input(&mut self, input: &Input) -> Result<ProblemReport, ProveError> {
        let mut assumptions = Vec::new();
        for list in ASSUMPTION_LISTS {
            assumptions.extend(problem::list_entries(input, list));
        }
        let goals = problem::list_entries(input, "goals");
        // With set(production), Prover9 evaluates arithmetic, `==`, `if` and
        // friends; first-order semantics with uninterpreted symbols can still
        // prove things soundly, but cannot refute them.
        let production = input.flag("production");
        let production_reason =
            "set(production): Prover9's built-in evaluation (arithmetic, ==, if) is outside first-order semantics";
        // Check symbols entry by entry, so a conflict is reported where it is.
        let mut signature = Signature::new();
        for e in assumptions.iter().chain(&goals) {
            if let Err(err) = signature.add_formula(&e.formula) {
                if production {
                    return Ok(ProblemReport {
                        result: Entailment::Unknown {
                            reason: format!("{production_reason} ({})", err.message),
                        },
                        assumptions: assumptions.len(),
                        goals: goals.len(),
                        timeout_seconds: self.timeout.as_secs_f64(),
                        engine: None,
                        notes: problem::ignored_features(input, false),
                        reason: None,
                        used_premises: None,
                        premises_recheck: None,
                        proof: None,
                    });
                }
                return Err(ProveError::type_error(Some(e.pos), err.message));
            }
        }
        let goal = combined_goal(&goals)?;
        self.use_timeout(problem::max_seconds(input));
        self.first_model_size = problem::first_model_size(input);
        self.search_directives = ladr::search_directives(input);
        let premises: Vec<&Formula> = assumptions.iter().map(|e| &e.formula).collect();
        let timeout = self.timeout;
        let first_order = !signature.is_propositional();
        let names: Vec<String> = assumptions
            .iter()
            .enumerate()
            .map(|(i, e)| e.label().unwrap_or_else(|| format!("assumption {}", i + 1)))
            .collect();
        self.premise_names = names.clone();
        self.goal_name = "goal".to_string();
        let decided = self.race(
            &premises,
            goal.as_ref(),
            timeout,
            portfolio::Engines::of(first_order, true),
        )?;
        let out = self.proved_out(&premises, &names, goal.as_ref(), &decided, first_order);
        let (mut result, mut engine, mut reason) = (decided.result, decided.engine, decided.reason);
        if production && matches!(result, Entailment::NotProved { .. }) {
            result = Entailment::Unknown {
                reason: production_reason.to_string(),
            };
            engine = None;
            reason = None;
        }
        if !self.options.countermodels {
            if let Entailment::NotProved { countermodel } = &mut result {
                *countermodel = None;
            }
        }
        let mut notes = problem::ignored_features(input, decided.prover9_ran);
        notes.extend(decided.notes);
        Ok(ProblemReport {
            result,
            assumptions: assumptions.len(),
            goals: goals.len(),
            timeout_seconds: timeout.as_secs_f64(),
            engine: engine.map(str::to_string),
            notes,
            reason: reason.map(str::to_string),
            used_premises: out.as_ref().map(|o| o.used.clone()),
            premises_recheck: out.map(|o| o.recheck),
            proof: decided.proof.filter(|_| self.proof_out),
        })
    }

    /// [`Prover::proof_out`] when proof output is on and `decided` proved.
    fn proved_out(
        &mut self,
        premises: &[&Formula],
        names: &[String],
        goal: Option<&Formula>,
        decided: &portfolio::Decided,
        first_order: bool,
    ) -> Option<proof_out::ProofOut> {
        (self.proof_out && decided.result == Entailment::Proved)
            .then(|| self.proof_out(premises, names, goal, decided, first_order))
    }

    /// [`Prover::check`] with a countermodel, under `timeout` instead of the
    /// engine's own, with the watchdog on (it also watches the stop flag).
    fn check_until(
        &mut self,
        premises: &[&Formula],
        goal: Option<&Formula>,
        timeout: Duration,
    ) -> Result<Entailment, ProveError> {
        let saved = self.timeout;
        self.engine().set_timeout(timeout);
        let result = self.check_watched(premises, goal, true, true);
        self.engine().set_timeout(saved);
        result
    }

    /// Whether the premises are satisfiable; if not, a minimal conflicting
    /// subset of them.
    pub fn consistency(&mut self, premises: &[Premise]) -> Result<Consistency, ProveError> {
        let formulas: Vec<&Formula> = premises.iter().map(|p| &p.formula).collect();
        let all: Vec<usize> = (0..premises.len()).collect();
        let mut guarded = Guarded::new(self, &formulas, None)?;
        let outcome = match guarded.check(&all) {
            Sat::Sat => Consistency {
                consistent: Some(true),
                conflict: None,
            },
            Sat::Unknown => Consistency {
                consistent: None,
                conflict: None,
            },
            Sat::Unsat => {
                let core = guarded.shrink(guarded.core(&all));
                Consistency {
                    consistent: Some(false),
                    conflict: core.map(|c| c.into_iter().map(|i| premises[i].id.clone()).collect()),
                }
            }
        };
        guarded.finish();
        Ok(outcome)
    }

    /// Every minimal subset of `premises` that entails `goal`, enumerated
    /// MARCO-style (Liffiton et al.) until done, `options.cap` supports, or
    /// `options.timeout`.
    pub fn minimal_supports(
        &mut self,
        premises: &[Premise],
        goal: &Formula,
        options: &SupportOptions,
    ) -> Result<SupportsReport, ProveError> {
        let started = Instant::now();
        let formulas: Vec<&Formula> = premises.iter().map(|p| &p.formula).collect();
        let mut guarded = Guarded::new(self, &formulas, Some(goal))?;
        // Ground problems (the projection says `None` to others) get every
        // support by elimination; MARCO below is for the rest.
        if let Some(found) = projection::minimal_supports(&formulas, goal) {
            // Re-check every support (by truth table or Z3, both independent
            // of the elimination): it entails the goal and no premise can be
            // dropped. Only a confirmed list is returned.
            let confirmed = found.iter().all(|s| {
                guarded.check(s) == Sat::Unsat
                    && (0..s.len()).all(|k| {
                        let mut without = s.clone();
                        without.remove(k);
                        guarded.check(&without) == Sat::Sat
                    })
            });
            if confirmed && found.len() <= options.cap {
                guarded.finish();
                let supports = support_ids(found, premises);
                return Ok(SupportsReport {
                    supports,
                    complete: true,
                    stopped: None,
                    method: "projection".into(),
                });
            }
        }
        let mut map = SubsetMap::new(premises.len());
        let mut found: Vec<Vec<usize>> = Vec::new();
        let mut stopped = None;
        loop {
            if found.len() >= options.cap {
                stopped = Some(format!("cap of {} supports reached", options.cap));
                break;
            }
            if started.elapsed() > options.timeout {
                stopped = Some(format!("timeout of {:?} reached", options.timeout));
                break;
            }
            let Some(seed) = map.maximal_seed() else {
                break;
            };
            match guarded.check(&seed) {
                Sat::Sat => map.block_subsets(&seed),
                Sat::Unsat => {
                    let core = guarded.core(&seed);
                    match guarded.shrink(core) {
                        Some(mus) => {
                            map.block_supersets(&mus);
                            found.push(mus);
                        }
                        None => {
                            stopped = Some("a check while shrinking was unknown".into());
                            break;
                        }
                    }
                }
                Sat::Unknown => {
                    stopped = Some(format!("a check was unknown: {}", guarded.reason_unknown()));
                    break;
                }
            }
        }
        guarded.finish();
        let supports = support_ids(found, premises);
        Ok(SupportsReport {
            supports,
            complete: stopped.is_none(),
            stopped,
            method: "marco".into(),
        })
    }

    /// Checks every step of `solution`, then whether it reaches and globally
    /// entails the goal, and whether its support is minimal.
    pub fn check_solution(
        &mut self,
        problem: &StepProblem,
        solution: &Solution,
    ) -> Result<SolutionReport, ProveError> {
        self.use_timeout(problem.timeout);
        let premises: BTreeMap<&str, &Premise> = problem
            .premises
            .iter()
            .map(|p| (p.id.as_str(), p))
            .collect();
        let mut reports = Vec::with_capacity(solution.steps.len());
        let mut cited_premises = BTreeSet::new();
        for (i, step) in solution.steps.iter().enumerate() {
            let mut cited: Vec<&Formula> = Vec::new();
            let mut bad = Vec::new();
            for id in &step.from {
                if let Some(p) = premises.get(id.as_str()) {
                    cited.push(&p.formula);
                    cited_premises.insert(id.as_str());
                } else if let Some(j) = solution.steps.iter().position(|s| &s.label == id) {
                    if j < i {
                        cited.push(&solution.steps[j].conclusion);
                    } else if j == i {
                        bad.push(format!("`{id}` is this step itself"));
                    } else {
                        bad.push(format!("`{id}` is a later step"));
                    }
                } else if id == "Derived" {
                    bad.push("a `Derived` premise matches no earlier conclusion".to_string());
                } else {
                    bad.push(format!("`{id}` is not a premise or step label"));
                }
            }
            let rule_matches = step
                .rule
                .as_deref()
                .and_then(|r| rules::rule_fits(r, &cited, &step.conclusion));
            let mut report = StepReport {
                label: step.label.clone(),
                status: StepStatus::Invalid,
                error_kind: None,
                rule: step.rule.clone(),
                rule_matches: if bad.is_empty() { rule_matches } else { None },
                countermodel: None,
                message: None,
            };
            if !bad.is_empty() {
                report.error_kind = Some(ErrorKind::BadReference);
                report.message = Some(bad.join("; "));
                reports.push(report);
                continue;
            }
            match self.check(&cited, Some(&step.conclusion), self.options.countermodels)? {
                Entailment::Proved => {
                    report.status = StepStatus::Valid;
                    if rule_matches == Some(false) {
                        report.error_kind = Some(ErrorKind::RuleMismatch);
                    }
                }
                Entailment::NotProved { countermodel } => {
                    report.countermodel = countermodel;
                    let pool: Vec<&Formula> = problem
                        .premises
                        .iter()
                        .map(|p| &p.formula)
                        .chain(solution.steps[..i].iter().map(|s| &s.conclusion))
                        .collect();
                    match self.check(&pool, Some(&step.conclusion), false)?.holds() {
                        Some(true) => report.error_kind = Some(ErrorKind::InsufficientPremise),
                        Some(false) => report.error_kind = Some(ErrorKind::InvalidDeduction),
                        None => {
                            report.message = Some(
                                "could not decide whether all premises and earlier steps entail it"
                                    .into(),
                            )
                        }
                    }
                }
                Entailment::Unknown { reason } => {
                    report.status = StepStatus::Unknown;
                    report.message = Some(reason);
                }
            }
            reports.push(report);
        }
        let steps_valid = three_valued_all(reports.iter().map(|r| match r.status {
            StepStatus::Valid => Some(true),
            StepStatus::Invalid => Some(false),
            StepStatus::Unknown => None,
        }));
        let reaches_goal = match solution.steps.last() {
            Some(last) => self
                .check(&[&last.conclusion], Some(&problem.goal), false)?
                .holds(),
            None => Some(false),
        };
        let support: Vec<&Premise> = problem
            .premises
            .iter()
            .filter(|p| cited_premises.contains(p.id.as_str()))
            .collect();
        let support_formulas: Vec<&Formula> = support.iter().map(|p| &p.formula).collect();
        let globally_valid = self
            .check(&support_formulas, Some(&problem.goal), false)?
            .holds();
        let minimal = if globally_valid == Some(true) {
            let mut answers = Vec::new();
            for skip in 0..support_formulas.len() {
                let rest: Vec<&Formula> = support_formulas
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != skip)
                    .map(|(_, f)| *f)
                    .collect();
                // Minimal iff no subset with one premise fewer still entails.
                answers.push(
                    self.check(&rest, Some(&problem.goal), false)?
                        .holds()
                        .map(|h| !h),
                );
            }
            three_valued_all(answers.into_iter())
        } else {
            None
        };
        Ok(SolutionReport {
            id: solution.id.clone(),
            steps: reports,
            steps_valid,
            reaches_goal,
            globally_valid,
            support: support.iter().map(|p| p.id.clone()).collect(),
            minimal,
        })
    }

    /// The full check of a step problem: consistency, every solution, lints,
    /// and (when `supports` is given) all minimal supports.
    pub fn check_problem(
        &mut self,
        problem: &StepProblem,
        supports: Option<&SupportOptions>,
    ) -> Result<CheckReport, ProveError> {
        self.use_timeout(problem.timeout);
        let signature_sources = problem
            .premises
            .iter()
            .map(|p| (&p.formula, p.pos))
            .chain(std::iter::once((&problem.goal, None)))
            .chain(
                problem
                    .solutions
                    .iter()
                    .flat_map(|s| s.steps.iter().map(|st| (&st.conclusion, st.pos))),
            );
        let mut signature = Signature::new();
        for (f, pos) in signature_sources {
            signature
                .add_formula(f)
                .map_err(|e| ProveError::type_error(pos, e.message))?;
        }
        let consistency = self.consistency(&problem.premises)?;
        let mut solutions = Vec::new();
        for s in &problem.solutions {
            solutions.push(self.check_solution(problem, s)?);
        }
        let supports = match supports {
            Some(opts) => Some(self.minimal_supports(&problem.premises, &problem.goal, opts)?),
            None => None,
        };
        Ok(CheckReport {
            consistency,
            solutions,
            supports,
            lints: lints(problem),
        })
    }
}

/// `Some(true)` if all are true, `Some(false)` if any is false, else `None`.
fn three_valued_all(answers: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut unknown = false;
    for a in answers {
        match a {
            Some(false) => return Some(false),
            None => unknown = true,
            Some(true) => {}
        }
    }
    if unknown {
        None
    } else {
        Some(true)
    }
}

/// Warnings: names read as variables where constants were probably meant,
/// and premises no solution cites.
fn lints(problem: &StepProblem) -> Vec<crate::prove::Lint> {
    let rule = if problem.prolog_style_variables {
        "names starting with an upper-case letter or `_` are variables under prolog_style_variables"
    } else {
        "names starting with u-z are variables in Prover9"
    };
    let mut out = Vec::new();
    let mut variable_lint = |subject: String, f: &Formula| {
        for v in free_variables(f) {
            out.push(Lint {
                kind: "variable_like_constant".into(),
                subject: subject.clone(),
                message: format!(
                    "`{v}` is read as a universally quantified variable ({rule}); rename it if it is a constant"
                ),
            });
        }
    };
    for p in &problem.premises {
        variable_lint(format!("premise {}", p.id), &p.formula);
    }
    variable_lint("goal".into(), &problem.goal);
    for s in &problem.solutions {
        for st in &s.steps {
            variable_lint(
                format!("solution {} step {}", s.id, st.label),
                &st.conclusion,
            );
        }
    }
    if !problem.solutions.is_empty() {
        let cited: BTreeSet<&str> = problem
            .solutions
            .iter()
            .flat_map(|s| {
                s.steps
                    .iter()
                    .flat_map(|st| st.from.iter().map(String::as_str))
            })
            .collect();
        for p in problem
            .premises
            .iter()
            .filter(|p| !cited.contains(p.id.as_str()))
        {
            out.push(Lint {
                kind: "unused_premise".into(),
                subject: format!("premise {}", p.id),
                message: format!("premise `{}` is not cited by any solution", p.id),
            });
        }
    }
    out
}

/// Checks of any subset of some premises (with the goal negated when there
/// is one). Small propositional problems are decided by truth table; the rest
/// go to Z3 with the premises asserted behind indicator literals
/// (`ind_i -> P_i`) in one solver scope, so that any subset is checked by
/// assumptions without re-asserting anything.
struct Guarded<'p> {
    prover: &'p mut Prover,
    backend: Backend,
}

enum Backend {
    Table(quick::TableCheck),
    Z3 {
        indicators: Vec<Bool>,
        names: BTreeMap<String, usize>,
    },
}

impl<'p> Guarded<'p> {
    fn new(
        prover: &'p mut Prover,
        formulas: &[&Formula],
        goal: Option<&Formula>,
    ) -> Result<Guarded<'p>, ProveError> {
        let signature = Signature::of(formulas.iter().copied().chain(goal))
            .map_err(|e| ProveError::type_error(None, e.message))?;
        if signature.is_propositional() {
            if let Some(table) = quick::TableCheck::new(formulas, goal, TABLE_ATOMS) {
                return Ok(Guarded {
                    prover,
                    backend: Backend::Table(table),
                });
            }
        }
        prover.engine().set_watchdog(!signature.is_propositional());
        let mut encoded = Vec::new();
        for f in formulas {
            encoded.push(
                prover
                    .engine()
                    .closed(f)
                    .map_err(|e| ProveError::new(None, e.message))?,
            );
        }
        let negated_goal = match goal {
            Some(g) => Some(
                prover
                    .engine()
                    .closed(g)
                    .map_err(|e| ProveError::new(None, e.message))?
                    .not(),
            ),
            None => None,
        };
        prover.engine().push();
        if let Some(g) = &negated_goal {
            prover.engine().assert(g);
        }
        let mut indicators = Vec::new();
        let mut names = BTreeMap::new();
        for (i, e) in encoded.iter().enumerate() {
            let ind = prover.engine().indicator("use");
            prover.engine().assert(&ind.implies(e));
            names.insert(ind.to_string(), i);
            indicators.push(ind);
        }
        Ok(Guarded {
            prover,
            backend: Backend::Z3 { indicators, names },
        })
    }

    fn check(&mut self, subset: &[usize]) -> Sat {
        match &self.backend {
            Backend::Table(table) => {
                if table.counter_rows(subset.iter().copied()).is_empty() {
                    Sat::Unsat
                } else {
                    Sat::Sat
                }
            }
            Backend::Z3 { indicators, .. } => {
                let assumptions: Vec<Bool> =
                    subset.iter().map(|&i| indicators[i].clone()).collect();
                self.prover.engine().check(&assumptions)
            }
        }
    }

    /// After an unsat check of `subset`: the part of it in Z3's core (all of
    /// it for a truth table, which has no cores).
    fn core(&self, subset: &[usize]) -> Vec<usize> {
        let Backend::Z3 { names, .. } = &self.backend else {
            return subset.to_vec();
        };
        // The engine exists: a check made this core.
        let found = self.prover.engine.as_ref().map(Z3Session::unsat_core);
        let mut core: Vec<usize> = found
            .unwrap_or_default()
            .iter()
            .filter_map(|b| names.get(&b.to_string()).copied())
            .filter(|i| subset.contains(i))
            .collect();
        core.sort_unstable();
        core.dedup();
        core
    }

    /// Deletion-based shrinking of an unsatisfiable subset to a minimal one;
    /// `None` if some check was unknown.
    fn shrink(&mut self, mut set: Vec<usize>) -> Option<Vec<usize>> {
        let mut k = 0;
        while k < set.len() {
            let mut without = set.clone();
            without.remove(k);
            match self.check(&without) {
                Sat::Unsat => {
                    // Keep the smaller core Z3 reports, which skips checks.
                    let core = self.core(&without);
                    set = if core.iter().all(|i| without.contains(i)) && core.len() < without.len()
                    {
                        // Elements before k were already proven necessary and
                        // the core must keep them, so k stays valid.
                        core
                    } else {
                        without
                    };
                }
                Sat::Sat => k += 1,
                Sat::Unknown => return None,
            }
        }
        Some(set)
    }

    /// The reason Z3 gave for its last `unknown` (a truth table has none).
    fn reason_unknown(&mut self) -> String {
        match self.backend {
            Backend::Table(_) => String::new(),
            Backend::Z3 { .. } => self.prover.engine().reason_unknown(),
        }
    }

    fn finish(self) {
        if let Backend::Z3 { .. } = self.backend {
            self.prover.engine().pop();
        }
    }
}

/// Supports as sorted lists of premise ids, in sorted order, so output is
/// deterministic whichever way they were found.
fn support_ids(found: Vec<Vec<usize>>, premises: &[Premise]) -> Vec<Vec<String>> {
    let mut supports: Vec<Vec<String>> = found
        .into_iter()
        .map(|s| s.into_iter().map(|i| premises[i].id.clone()).collect())
        .collect();
    supports.sort();
    supports
}

//! A native saturation prover: clausification with Skolemization, then a
//! given-clause loop (DISCOUNT style, as in E) over the superposition
//! calculus: ordered resolution and factoring, superposition into equations
//! and predicate arguments, equality resolution and equality factoring,
//! under the Knuth–Bendix order, with one negative literal selected in
//! each clause that has a positive one (see `clause::select`). Simplification:
//! demodulation by unit equations (ordered), tautology deletion, forward and
//! backward subsumption (feature-vector prefilter) and backward
//! demodulation. Clauses are picked by weight, every fifth by age, so every
//! clause is picked eventually.
//!
//! The budget counts work (clauses generated, clauses picked), never time,
//! so a verdict does not depend on the machine. The outcome is
//! [`Outcome::Theorem`] when the empty clause is derived, with the input
//! formulas the derivation uses; [`Outcome::Satisfiable`] only when the
//! passive set runs empty with nothing discarded (the calculus is then
//! refutationally complete, so the clauses have a model); else
//! [`Outcome::Unknown`].

mod clause;
mod clausify;
mod term;

use crate::syntax::prover9::{Formula, Term};
use clause::{maximal, subsumes, Clause, Eligible, Feature, Lit};
use clausify::Symbols;
use hashbrown::HashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering};
use term::{gt, kbo, Cmp, Fingerprint, Matcher, Subst, T};

/// The deepest term a kept clause may have; deeper ones are discarded (and
/// saturation is then not claimed).
const MAX_DEPTH: usize = 40;

/// The heaviest clause kept (idem).
const MAX_WEIGHT: usize = 200;

/// The most rewrite steps when simplifying one clause.
const MAX_REWRITES: usize = 1000;

/// Every `AGE_EVERY`-th clause is picked by age, the rest by weight.
const AGE_EVERY: usize = 5;

/// Counted limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The most clauses inferences may generate.
    pub generated: usize,
    /// The most clauses picked as given.
    pub given: usize,
    /// The most work: term nodes visited by unification, matching and the
    /// term order, and made for new clauses. It bounds the cost of a run
    /// whose clauses are long or deep, where few clauses take much work.
    pub work: u64,
}

impl Budget {
    /// A larger budget, for tests and benchmarks of the loop itself.
    pub const QUICK: Budget = Budget {
        generated: 20_000,
        given: 2_000,
        work: 100_000_000,
    };

    /// The budget of a run before a solver of our own (the three-way FOL
    /// answers): up to ten or twenty milliseconds of work (release build),
    /// far more than the small problems it serves need.
    pub const RACE: Budget = Budget {
        generated: 1_500,
        given: 150,
        work: 1_000_000,
    };

    /// The budget of the first attempt in `prove`, in process before Z3 or
    /// any helper starts (only the lead prover may run beside it): about a
    /// millisecond of work (release
    /// build), which settles the problems Prover9 finds easiest. A problem
    /// it does not settle goes to the race at once, where the same run goes
    /// on under [`Budget::ENGINE`]; a larger first budget only delays the
    /// other engines (by up to 15 ms for `RACE`'s). Starting the race costs
    /// about 2.5 ms (threads and children), so a problem settled a little
    /// past the budget is better kept in process: 300 given clauses (cheap
    /// ones: PUZ031-1 takes 170 given and 17,856 work) and 60,000 work
    /// (lattice_join_meet took 54,868 before term indexing, 21,829 since).
    /// Where it fails it takes about 1-2 ms (`BUDGET=first` in
    /// `benches/saturate.rs`), mostly stopped by the 400 generated clauses.
    pub const FIRST: Budget = Budget {
        generated: 400,
        given: 300,
        work: 60_000,
    };

    /// The budget of the native prover as one engine of `prove`'s race, on
    /// a thread beside Prover9 (and Z3 without it): about 50 ms of work
    /// (release build), until E and the model search join the race. Beyond
    /// that its share of two cores is better left to the other engines,
    /// which prove the harder problems. Given clauses are counted with the
    /// input ones, so their limit is set past where the generated limit
    /// binds: at 1,000, problems of several hundred input clauses stopped
    /// while they had generated little (AGT016+1, 629 input clauses, is
    /// proved at 1,324 given and 2,726 generated).
    pub const ENGINE: Budget = Budget {
        generated: 5_000,
        given: 5_000,
        work: 2_500_000,
    };
}

/// A refutation: the input formulas it uses and its derivation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    /// Indices of the premises the derivation uses, ascending.
    pub used: Vec<usize>,
    /// Whether it uses the negated goal.
    pub goal_used: bool,
    /// The derivation's clauses, parents before children, the empty
    /// clause last.
    pub steps: Vec<Step>,
}

/// One clause of a derivation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Its number (`c<id>` in the text).
    pub id: usize,
    /// The clause in TPTP syntax (`$false` when empty).
    pub clause: String,
    /// Where it came from.
    pub from: From,
}

/// The origin of a [`Step`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum From {
    /// A clause of premise `i` (by index).
    Premise(usize),
    /// A clause of the negated goal.
    Goal,
    /// An inference (rule name) from earlier steps (their ids).
    Inference(&'static str, Vec<usize>),
}

/// The input formulas a derivation starts from, as the file names them.
pub struct Sources<'a> {
    /// The premises, by the indices [`From::Premise`] cites.
    pub premises: &'a [&'a Formula],
    /// Their labels (`premise` beyond them).
    pub names: &'a [String],
    /// The goal, if any, and its label.
    pub goal: Option<&'a Formula>,
    /// The goal's label.
    pub goal_name: &'a str,
    /// The file the formulas were read from.
    pub file: &'a str,
}

impl Proof {
    /// The derivation in TSTP (see [`Proof::tstp`]), with premises labelled
    /// `a0`, `a1`, …, the goal `goal` and the file `<stdin>`.
    pub fn text(&self, premises: &[&Formula], goal: Option<&Formula>) -> String {
        let names: Vec<String> = (0..premises.len()).map(|i| format!("a{i}")).collect();
        self.tstp(&Sources {
            premises,
            names: &names,
            goal,
            goal_name: "goal",
            file: "<stdin>",
        })
    }

    /// The derivation in TSTP, as E and Vampire write one: each input
    /// formula it uses is a `fof` leaf citing `file(FILE, LABEL)` (the goal
    /// as the conjecture, then its negation), its clauses `cnf` lines
    /// inferred from it by `clausify` (satisfiability-preserving: Skolem
    /// symbols and definitions are new), and each inference names its rule
    /// and parents. A premise index past `sources.premises` (none the
    /// callers make) gets a `cnf` leaf citing the file instead.
    pub fn tstp(&self, sources: &Sources<'_>) -> String {
        let file = quoted(sources.file);
        let mut text = String::new();
        let mut introduced = vec![false; sources.premises.len()];
        let mut goal_introduced = false;
        for step in &self.steps {
            let (role, origin) = match &step.from {
                From::Premise(i) => {
                    let name = sources.names.get(*i).map_or("premise", String::as_str);
                    match sources.premises.get(*i) {
                        Some(formula) => {
                            if !std::mem::replace(&mut introduced[*i], true) {
                                text.push_str(&format!(
                                    "fof(a{i}, axiom, {}, file({file}, {})).\n",
                                    tptp_formula(formula),
                                    tptp_word(name)
                                ));
                            }
                            (
                                "plain",
                                format!("inference(clausify, [status(esa)], [a{i}])"),
                            )
                        }
                        None => ("axiom", format!("file({file}, {})", tptp_word(name))),
                    }
                }
                From::Goal => match sources.goal {
                    Some(goal) => {
                        if !std::mem::replace(&mut goal_introduced, true) {
                            let goal = tptp_formula(goal);
                            text.push_str(&format!(
                                "fof(goal, conjecture, {goal}, file({file}, {})).\n\
                                 fof(negated_goal, negated_conjecture, ~ {goal}, \
                                 inference(assume_negation, [status(cth)], [goal])).\n",
                                tptp_word(sources.goal_name),
                            ));
                        }
                        (
                            "negated_conjecture",
                            "inference(clausify, [status(esa)], [negated_goal])".to_string(),
                        )
                    }
                    None => (
                        "negated_conjecture",
                        format!("file({file}, {})", tptp_word(sources.goal_name)),
                    ),
                },
                From::Inference(rule, parents) => {
                    let parents: Vec<String> = parents.iter().map(|p| format!("c{p}")).collect();
                    (
                        "plain",
                        format!("inference({rule}, [status(thm)], [{}])", parents.join(", ")),
                    )
                }
            };
            text.push_str(&format!(
                "cnf(c{}, {role}, {}, {origin}).\n",
                step.id, step.clause
            ));
        }
        text
    }
}

/// `formula`, universally closed, as TPTP FOF in the spelling of the
/// derivation's clauses: names as [`tptp_word`] writes them, variables
/// `X0`, `X1`, … by first occurrence (one name, one variable: TPTP scopes
/// a rebound name as the input did).
fn tptp_formula(input: &Formula) -> String {
    fn term(t: &Term, vars: &mut Vec<String>) -> Term {
        match t {
            Term::Var(v) => Term::Var(variable(v, vars)),
            Term::App(name, args) => Term::App(
                tptp_word(name),
                args.iter().map(|a| term(a, vars)).collect(),
            ),
        }
    }
    fn variable(v: &str, vars: &mut Vec<String>) -> String {
        let k = vars.iter().position(|x| x == v).unwrap_or_else(|| {
            vars.push(v.to_string());
            vars.len() - 1
        });
        format!("X{k}")
    }
    /// A binary connective `make` over `a` and `b`, renamed.
    fn two(
        make: fn(Box<Formula>, Box<Formula>) -> Formula,
        a: &Formula,
        b: &Formula,
        vars: &mut Vec<String>,
    ) -> Formula {
        make(Box::new(formula(a, vars)), Box::new(formula(b, vars)))
    }
    fn formula(f: &Formula, vars: &mut Vec<String>) -> Formula {
        match f {
            Formula::True => Formula::True,
            Formula::False => Formula::False,
            // Equality stays the infix `=` the printer writes.
            Formula::Atom(Term::App(name, args)) if name == "=" && args.len() == 2 => {
                Formula::Atom(Term::App(
                    name.clone(),
                    args.iter().map(|a| term(a, vars)).collect(),
                ))
            }
            Formula::Atom(t) => Formula::Atom(term(t, vars)),
            Formula::Not(g) => Formula::Not(Box::new(formula(g, vars))),
            Formula::And(a, b) => two(Formula::And, a, b, vars),
            Formula::Or(a, b) => two(Formula::Or, a, b, vars),
            Formula::Implies(a, b) => two(Formula::Implies, a, b, vars),
            Formula::ImpliedBy(a, b) => two(Formula::ImpliedBy, a, b, vars),
            Formula::Iff(a, b) => two(Formula::Iff, a, b, vars),
            Formula::Quant(q, v, body) => {
                let v = variable(v, vars);
                Formula::Quant(*q, v, Box::new(formula(body, vars)))
            }
        }
    }
    let renamed = formula(&crate::smt::closed(input), &mut Vec::new());
    crate::syntax::tptp::Fof(&renamed).to_string()
}

/// `name` in single quotes, as TPTP quotes an atom.
fn quoted(name: &str) -> String {
    format!("'{}'", name.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// `name` as a TPTP atomic word: as it is when it is a lower word (or
/// `$true`), else quoted.
fn tptp_word(name: &str) -> String {
    let lower_word = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if lower_word || name == "$true" {
        name.to_string()
    } else {
        quoted(name)
    }
}

/// What a run found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The premises and the negated goal are unsatisfiable.
    Theorem(Proof),
    /// The clauses saturated: the premises and the negated goal have a model.
    Satisfiable,
    /// Budget spent, a clause discarded, or the problem not taken (why).
    Unknown(String),
}

/// The work a run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Clauses generated by inferences.
    pub generated: usize,
    /// Clauses picked as given.
    pub given: usize,
    /// Work done (see [`Budget::work`]).
    pub work: u64,
}

/// Tries to refute `premises ∧ ¬goal` (or `premises` without a goal), each
/// universally closed, within `budget`.
pub fn saturate(
    premises: &[&Formula],
    goal: Option<&Formula>,
    budget: &Budget,
) -> (Outcome, Stats) {
    saturate_until(premises, goal, budget, &AtomicBool::new(false))
}

/// [`saturate`], also ending (`Unknown`) once `stop` is set: for a run on a
/// thread of a race that another engine may win first.
pub fn saturate_until(
    premises: &[&Formula],
    goal: Option<&Formula>,
    budget: &Budget,
    stop: &AtomicBool,
) -> (Outcome, Stats) {
    let mut run = Run::new(premises, goal);
    let outcome = run.go(budget, stop);
    (outcome, run.stats())
}

/// A saturation run that can go on under a larger budget, on this thread or
/// another. `prove`'s first attempt continues as an engine of its race, so
/// the race does not clausify the problem again or redo that attempt's
/// work. Going on to a larger budget gives the same search, clause for
/// clause, as one run under it.
pub struct Run {
    state: State,
    /// The clausified input, until the first [`Run::go`] loads it.
    input: Option<Vec<(Vec<Lit>, usize)>>,
    /// The final outcome, once there is one (a proof, a saturation, or a
    /// problem not taken); a budget spent or a stop is not final.
    settled: Option<Outcome>,
}

impl Run {
    /// Clausifies `premises ∧ ¬goal` (or `premises` without a goal); the
    /// search starts with the first [`Run::go`].
    pub fn new(premises: &[&Formula], goal: Option<&Formula>) -> Run {
        let mut symbols = Symbols::default();
        let clausified = clausify::clausify(premises, goal, &mut symbols);
        let state = State::new(symbols, premises.len());
        let (input, settled) = match clausified {
            Ok(input) => (Some(input), None),
            Err(why) => (None, Some(Outcome::Unknown(why))),
        };
        Run {
            state,
            input,
            settled,
        }
    }

    /// Searches on until `budget` (counted from the run's start, over every
    /// call) is spent or `stop` is set; the work is counted on the calling
    /// thread.
    pub fn go(&mut self, budget: &Budget, stop: &AtomicBool) -> Outcome {
        if let Some(outcome) = &self.settled {
            return outcome.clone();
        }
        let state = &mut self.state;
        state.budget = *budget;
        state.work_start = term::work();
        let outcome = match self.input.take() {
            Some(input) => state.load(input).unwrap_or_else(|| state.search(stop)),
            None => state.search(stop),
        };
        state.work_before = state.work();
        // A search that saturated after discarding clauses gives the same
        // `Unknown` again when it goes on; a proof or a saturation is kept.
        if !matches!(outcome, Outcome::Unknown(_)) {
            self.settled = Some(outcome.clone());
        }
        outcome
    }

    /// The work done so far.
    pub fn stats(&self) -> Stats {
        Stats {
            work: self.state.work_before,
            ..self.state.stats
        }
    }
}

/// How a clause was made.
struct Node {
    clause: Clause,
    rule: &'static str,
    parents: Vec<usize>,
    /// For an input clause: the formula it came from.
    input: Option<usize>,
}

/// A demodulator: the unit equation in `node`, used right to left when
/// `flip`; `oriented` when every instance is decreasing.
#[derive(Clone, Copy)]
struct Demod {
    node: usize,
    flip: bool,
    oriented: bool,
    /// The fingerprint of the side it rewrites from.
    from: Fingerprint,
}

struct State {
    symbols: Symbols,
    premises: usize,
    budget: Budget,
    stats: Stats,
    nodes: Vec<Node>,
    by_weight: BinaryHeap<Reverse<(usize, usize)>>,
    by_age: BinaryHeap<Reverse<usize>>,
    /// The clauses that descend from the negated goal, by weight.
    by_goal: BinaryHeap<Reverse<(usize, usize)>>,
    /// Per node: descends from the negated goal.
    from_goal: Vec<bool>,
    /// Per node: left the passive set.
    taken: Vec<bool>,
    /// Per node: in the active set and not deleted since.
    active: Vec<bool>,
    /// Active nodes in order of activation, with their features.
    actives: Vec<(usize, Feature)>,
    /// Demodulators by the top symbol of their left side.
    demods: Vec<Vec<Demod>>,
    /// Active unit clauses, for cutting literals (see [`State::cut`]):
    /// predicate units by polarity and predicate symbol (`2 * p + pos`),
    /// unit equations by polarity after them.
    units: Vec<Vec<usize>>,
    /// Whether a clause was discarded by a limit (no saturation claim).
    incomplete: bool,
    /// The work counted by earlier calls of [`Run::go`].
    work_before: u64,
    /// The calling thread's work counter when this call started.
    work_start: u64,
    /// Given clauses picked so far (which queue the next comes from).
    picks: usize,
    /// A given clause whose inferences the work limit cut, and the active
    /// clauses it still has to meet: no saturation is claimed while it is
    /// pending, and going on finishes it first.
    cut: Option<(usize, Vec<usize>)>,
    /// Per active node: which of its literals are eligible.
    eligible: Vec<Eligible>,
    /// Per active node: what it offers to inferences (see [`Offers`]).
    offers: Vec<Offers>,
}

/// Where the next given clause comes from.
#[derive(Clone, Copy)]
enum Queue {
    /// The oldest passive clause (fairness).
    Age,
    /// The lightest passive clause.
    Weight,
    /// The lightest passive clause that descends from the negated goal.
    Goal,
}

/// A result of an inner step: the node of the empty clause, if found.
type Found = Option<usize>;

impl State {
    fn new(symbols: Symbols, premises: usize) -> State {
        let n = symbols.names.len();
        State {
            symbols,
            premises,
            budget: Budget {
                generated: 0,
                given: 0,
                work: 0,
            },
            stats: Stats::default(),
            nodes: Vec::new(),
            by_weight: BinaryHeap::new(),
            by_age: BinaryHeap::new(),
            by_goal: BinaryHeap::new(),
            from_goal: Vec::new(),
            taken: Vec::new(),
            active: Vec::new(),
            actives: Vec::new(),
            demods: vec![Vec::new(); n],
            units: vec![Vec::new(); 2 * n + 2],
            incomplete: false,
            work_before: 0,
            work_start: term::work(),
            picks: 0,
            cut: None,
            eligible: Vec::new(),
            offers: Vec::new(),
        }
    }

    /// Adds the input clauses; a refutation if the input holds the empty
    /// clause or two complementary ground units.
    fn load(&mut self, input: Vec<(Vec<Lit>, usize)>) -> Option<Outcome> {
        let first = self.nodes.len();
        // Sized once: growing by doubling copied a million-clause input's
        // vectors some twenty times.
        let n = input.len();
        self.nodes.reserve(n);
        self.by_weight.reserve(n);
        self.by_age.reserve(n);
        self.from_goal.reserve(n);
        self.taken.reserve(n);
        self.active.reserve(n);
        self.eligible.reserve(n);
        self.offers.reserve(n);
        for (lits, source) in input {
            let Some(clause) = Clause::new(lits) else {
                continue;
            };
            let too_deep = clause.depth > MAX_DEPTH;
            let id = self.push(clause, "clausify", Vec::new(), Some(source));
            if too_deep {
                // Never picked, so no saturation is claimed; kept only
                // for the unit check below.
                self.taken[id] = true;
                self.incomplete = true;
            }
            if self.nodes[id].clause.lits.is_empty() {
                return Some(self.theorem(id));
            }
        }
        // Two complementary ground units of the input refute it at once: a
        // negated goal that restates one fact of a large fact base would
        // otherwise wait behind every fact of the same weight, beyond the
        // budget.
        if let Some((a, b)) = self.complementary_units(first) {
            let empty = Clause::new(Vec::new()).expect("the empty clause is a clause");
            let found = self.push(empty, "resolve", vec![a, b], None);
            return Some(self.theorem(found));
        }
        None
    }

    /// The given-clause loop, until a proof, a saturation, the budget or
    /// `stop`.
    fn search(&mut self, stop: &AtomicBool) -> Outcome {
        loop {
            if self.spent() {
                return Outcome::Unknown("budget spent".into());
            }
            if stop.load(Ordering::Relaxed) {
                return Outcome::Unknown("stopped".into());
            }
            // The inferences of the last given clause that the work limit
            // cut come first, as if the run had never stopped.
            if let Some((id, partners)) = self.cut.take() {
                if let Some(found) = self.infer_with(id, partners, false) {
                    return self.theorem(found);
                }
                continue;
            }
            self.picks += 1;
            let queue = if self.picks % AGE_EVERY == 0 {
                Queue::Age
            } else if self.picks % 2 == 1 {
                Queue::Goal
            } else {
                Queue::Weight
            };
            let Some(id) = self.pick(queue) else {
                return if self.incomplete {
                    Outcome::Unknown("saturated after discarding clauses".into())
                } else {
                    Outcome::Satisfiable
                };
            };
            let Some(id) = self.simplify(id) else {
                continue;
            };
            let id = self.cut(id);
            if self.nodes[id].clause.lits.is_empty() {
                return self.theorem(id);
            }
            if self.forward_subsumed(id) {
                continue;
            }
            self.stats.given += 1;
            self.backward_subsume(id);
            if let Some(found) = self.activate(id) {
                return self.theorem(found);
            }
            if let Some(found) = self.infer(id) {
                return self.theorem(found);
            }
        }
    }

    /// The work done since the run started, over every call.
    fn work(&self) -> u64 {
        self.work_before + term::work().wrapping_sub(self.work_start)
    }

    /// Whether a limit of the budget is reached.
    fn spent(&self) -> bool {
        self.stats.given >= self.budget.given
            || self.stats.generated >= self.budget.generated
            || self.work() >= self.budget.work
    }

    /// Adds a node to the passive set.
    /// The first pair of complementary ground unit clauses from node
    /// `first` on, in input order: the pair whose later member comes
    /// earliest, with the earliest complement before it. Only the rarer
    /// polarity is indexed, by reference, so a fact base of a million
    /// positive units with one negated goal costs a lookup per fact.
    fn complementary_units(&self, first: usize) -> Option<(usize, usize)> {
        let (mut positive, mut negative) = (Vec::new(), Vec::new());
        for id in first..self.nodes.len() {
            if let [lit] = self.nodes[id].clause.lits.as_slice() {
                if lit.is_ground() {
                    if lit.pos {
                        positive.push(id);
                    } else {
                        negative.push(id);
                    }
                }
            }
        }
        let (few, many) = if positive.len() <= negative.len() {
            (positive, negative)
        } else {
            (negative, positive)
        };
        let atom = |id: usize| {
            let lit = &self.nodes[id].clause.lits[0];
            (lit.eq, &lit.l, &lit.r)
        };
        // Each atom's first occurrence on the rarer side.
        let mut index = HashMap::with_capacity(few.len());
        for &id in &few {
            index.entry(atom(id)).or_insert(id);
        }
        // Each atom's first occurrence on the other side that meets one.
        let mut seen = HashMap::new();
        let mut best: Option<(usize, usize)> = None;
        for &id in &many {
            let key = atom(id);
            let Some(&other) = index.get(&key) else {
                continue;
            };
            let earliest = *seen.entry(key).or_insert(id);
            // The pair is found when its later member is read.
            let pair = if other < earliest {
                (other, earliest)
            } else {
                (earliest, other)
            };
            if best.is_none_or(|b| pair.1 < b.1) {
                best = Some(pair);
            }
        }
        best
    }

    fn push(
        &mut self,
        clause: Clause,
        rule: &'static str,
        parents: Vec<usize>,
        input: Option<usize>,
    ) -> usize {
        let id = self.nodes.len();
        let from_goal = match input {
            Some(i) => i >= self.premises,
            None => parents.iter().any(|&p| self.from_goal[p]),
        };
        self.by_weight.push(Reverse((clause.weight, id)));
        self.by_age.push(Reverse(id));
        if from_goal {
            self.by_goal.push(Reverse((clause.weight, id)));
        }
        self.from_goal.push(from_goal);
        self.nodes.push(Node {
            clause,
            rule,
            parents,
            input,
        });
        self.taken.push(false);
        self.active.push(false);
        self.eligible.push(Eligible::default());
        self.offers.push(Offers::default());
        id
    }

    /// The next passive clause from `queue` (the goal's queue falls back to
    /// weight once it is empty); `None` when the passive set is empty.
    fn pick(&mut self, mut queue: Queue) -> Option<usize> {
        loop {
            let id = match queue {
                Queue::Age => self.by_age.pop().map(|Reverse(id)| id),
                Queue::Weight => self.by_weight.pop().map(|Reverse((_, id))| id),
                Queue::Goal => match self.by_goal.pop() {
                    Some(Reverse((_, id))) => Some(id),
                    None => {
                        queue = Queue::Weight;
                        continue;
                    }
                },
            };
            match id {
                Some(id) if self.taken[id] => continue,
                Some(id) => {
                    self.taken[id] = true;
                    return Some(id);
                }
                // The age and weight heaps hold every node.
                None => return None,
            }
        }
    }

    /// A clause made from `lits` by `rule`, unless it is a tautology or
    /// too big; `Err` with the node when it is the empty clause.
    fn derived(
        &mut self,
        lits: Vec<Lit>,
        rule: &'static str,
        parents: Vec<usize>,
    ) -> Result<(), usize> {
        self.stats.generated += 1;
        // Making the clause copies, orders and renames its terms: counted
        // by its size (a predicate literal's `⊤` included), or by its
        // literals when it is dropped as a tautology.
        let n = lits.len();
        let Some(clause) = Clause::new(lits) else {
            term::count(4 * n as u64);
            return Ok(());
        };
        let predicates = clause.lits.iter().filter(|l| !l.eq).count();
        term::count(4 * (clause.weight + predicates) as u64);
        if clause.depth > MAX_DEPTH || clause.weight > MAX_WEIGHT {
            self.incomplete = true;
            return Ok(());
        }
        let empty = clause.lits.is_empty();
        let id = self.push(clause, rule, parents, None);
        if empty {
            return Err(id);
        }
        Ok(())
    }

    /// `id` rewritten by the demodulators, as a new node when it changed;
    /// `None` when it became a tautology.
    fn simplify(&mut self, id: usize) -> Option<usize> {
        let clause = &self.nodes[id].clause;
        let mut used = Vec::new();
        let mut steps = 0;
        // Each literal's rewritten form, `None` where nothing applied.
        let mut rewritten = Vec::with_capacity(clause.lits.len());
        for lit in &clause.lits {
            let changed = if lit.eq {
                let guards = if lit.pos {
                    (Some(&lit.r), Some(&lit.l))
                } else {
                    (None, None)
                };
                let l = self.rewrite(&lit.l, guards.0, &mut steps, &mut used);
                let r = self.rewrite(&lit.r, guards.1, &mut steps, &mut used);
                (l.is_some() || r.is_some()).then(|| {
                    Lit::equation(
                        lit.pos,
                        l.unwrap_or_else(|| lit.l.clone()),
                        r.unwrap_or_else(|| lit.r.clone()),
                    )
                })
            } else {
                match &lit.l {
                    T::F(p, args) => self
                        .rewrite_args(*p, args, &mut steps, &mut used)
                        .map(|atom| Lit::pred(lit.pos, atom)),
                    T::V(_) => None,
                }
            };
            rewritten.push(changed);
        }
        if used.is_empty() {
            return Some(id);
        }
        let lits: Vec<Lit> = rewritten
            .into_iter()
            .zip(&clause.lits)
            .map(|(new, old)| new.unwrap_or_else(|| old.clone()))
            .collect();
        used.sort_unstable();
        used.dedup();
        let clause = Clause::new(lits)?;
        let mut parents = vec![id];
        parents.extend(used);
        let new = self.push(clause, "demod", parents, None);
        self.taken[new] = true;
        Some(new)
    }

    /// The normal form of `t` under the demodulators, `None` if none
    /// applies anywhere in it (so an unchanged term is never copied); at
    /// the root, only by an instance smaller than `guard` (the other side
    /// of a positive equation), so the rewritten clause stays redundant.
    fn rewrite(
        &self,
        t: &T,
        guard: Option<&T>,
        steps: &mut usize,
        used: &mut Vec<usize>,
    ) -> Option<T> {
        let T::F(f, args) = t else {
            return None;
        };
        let inner = self.rewrite_args(*f, args, steps, used);
        let mut changed = inner.is_some();
        let mut t = inner.unwrap_or_else(|| t.clone());
        loop {
            if *steps >= MAX_REWRITES {
                break;
            }
            let T::F(f, _) = &t else {
                break;
            };
            let Some((next, by)) = self.rewrite_root(&t, *f as usize, guard) else {
                break;
            };
            *steps += 1;
            used.push(by);
            changed = true;
            t = match next {
                T::F(g, args) => match self.rewrite_args(g, &args, steps, used) {
                    Some(done) => done,
                    None => T::F(g, args),
                },
                v => v,
            };
        }
        changed.then_some(t)
    }

    /// `f(args)` with each argument in normal form, `None` if no argument
    /// changed.
    fn rewrite_args(
        &self,
        f: term::Sym,
        args: &[T],
        steps: &mut usize,
        used: &mut Vec<usize>,
    ) -> Option<T> {
        let mut out: Option<Vec<T>> = None;
        for (i, a) in args.iter().enumerate() {
            match (self.rewrite(a, None, steps, used), &mut out) {
                (Some(b), Some(out)) => out.push(b),
                (Some(b), None) => {
                    let mut v = Vec::with_capacity(args.len());
                    v.extend_from_slice(&args[..i]);
                    v.push(b);
                    out = Some(v);
                }
                (None, Some(out)) => out.push(a.clone()),
                (None, None) => {}
            }
        }
        out.map(|args| T::F(f, args))
    }

    /// One rewrite step at the root of `t`: the result and the demodulator.
    fn rewrite_root(&self, t: &T, top: usize, guard: Option<&T>) -> Option<(T, usize)> {
        let demods = self.demods.get(top).filter(|d| !d.is_empty())?;
        let print = Fingerprint::of(t);
        let mut m = Matcher::default();
        for d in demods {
            if !self.active[d.node] || !d.from.may_match(&print) {
                continue;
            }
            let Some((l, r)) = self.nodes[d.node].clause.unit_equation() else {
                continue;
            };
            let (l, r) = if d.flip { (r, l) } else { (l, r) };
            m.reset(self.nodes[d.node].clause.nvars);
            if !m.matches(l, t) {
                continue;
            }
            let result = m.instantiate(r);
            if (d.oriented || gt(t, &result)) && guard.is_none_or(|g| gt(g, &result)) {
                return Some((result, d.node));
            }
        }
        None
    }

    /// `id` without the literals an active unit clause refutes (an
    /// instance of the unit is the literal's complement), as a new node
    /// when one was cut: simplify-reflect, as E calls it, or Prover9's unit
    /// deletion. The shorter clause with the unit implies the longer one,
    /// so the longer is redundant. A goal's unit `¬p(c)` so cuts `p(c)`
    /// from a clause `q(..) ∨ p(c)` whose heavier `q` literal is its only
    /// maximal one, which no ordered resolution would ever resolve on.
    fn cut(&mut self, id: usize) -> usize {
        let clause = &self.nodes[id].clause;
        if clause.lits.len() < 2 {
            return id;
        }
        let n = self.symbols.names.len();
        // Per literal, the first active unit that refutes it: nothing is
        // copied unless one does.
        let mut m = Matcher::default();
        let by: Vec<Option<usize>> = clause
            .lits
            .iter()
            .map(|lit| {
                self.units[unit_key(lit, !lit.pos, n)]
                    .iter()
                    .copied()
                    .find(|&u| self.active[u] && self.refutes(u, lit, &mut m))
            })
            .collect();
        if by.iter().all(Option::is_none) {
            return id;
        }
        let keep = clause
            .lits
            .iter()
            .zip(&by)
            .filter(|(_, u)| u.is_none())
            .map(|(lit, _)| lit.clone())
            .collect();
        let Some(cut) = Clause::new(keep) else {
            return id;
        };
        let mut by: Vec<usize> = by.into_iter().flatten().collect();
        by.sort_unstable();
        by.dedup();
        let mut parents = vec![id];
        parents.extend(by);
        let new = self.push(cut, "reflect", parents, None);
        self.taken[new] = true;
        new
    }

    /// Whether an instance of the unit clause `u` is the complement of
    /// `lit` (which has the opposite sign).
    fn refutes<'a>(&'a self, u: usize, lit: &'a Lit, m: &mut Matcher<'a>) -> bool {
        let [pattern] = self.nodes[u].clause.lits.as_slice() else {
            return false;
        };
        m.reset(self.nodes[u].clause.nvars);
        let orientations: &[(&T, &T)] = if lit.eq {
            &[(&pattern.l, &pattern.r), (&pattern.r, &pattern.l)]
        } else {
            &[(&pattern.l, &pattern.r)]
        };
        orientations.iter().any(|(a, b)| {
            let mark = m.mark();
            let hit = m.matches(a, &lit.l) && m.matches(b, &lit.r);
            m.undo(mark);
            hit
        })
    }

    fn forward_subsumed(&self, id: usize) -> bool {
        let c = &self.nodes[id].clause;
        let f = c.feature();
        self.actives.iter().any(|&(a, af)| {
            self.active[a] && af.may_subsume(&f) && subsumes(&self.nodes[a].clause, c)
        })
    }

    fn backward_subsume(&mut self, id: usize) {
        let c = &self.nodes[id].clause;
        let f = c.feature();
        for &(a, af) in &self.actives {
            if self.active[a] && f.may_subsume(&af) && subsumes(c, &self.nodes[a].clause) {
                self.active[a] = false;
            }
        }
    }

    /// Makes `id` active; a unit equation also becomes a demodulator and
    /// rewrites the active clauses it applies to (they go back to passive).
    fn activate(&mut self, id: usize) -> Found {
        self.active[id] = true;
        let lits = &self.nodes[id].clause.lits;
        self.eligible[id] = Eligible::of(lits);
        self.offers[id] = Offers::of(&self.nodes[id].clause, &self.eligible[id]);
        let feature = self.nodes[id].clause.feature();
        self.actives.push((id, feature));
        if let [lit] = self.nodes[id].clause.lits.as_slice() {
            let key = unit_key(lit, lit.pos, self.symbols.names.len());
            self.units[key].push(id);
        }
        let Some((l, r)) = self.nodes[id].clause.unit_equation() else {
            return None;
        };
        let oriented = gt(l, r);
        // The left sides of the new demodulators.
        let mut sides: Vec<(T, Fingerprint)> = Vec::new();
        for (flip, lhs) in [(false, l), (true, r)] {
            if flip && oriented {
                break;
            }
            if let T::F(f, _) = lhs {
                let from = Fingerprint::of(lhs);
                self.demods[*f as usize].push(Demod {
                    node: id,
                    flip,
                    oriented,
                    from,
                });
                sides.push((lhs.clone(), from));
            }
        }
        if sides.is_empty() {
            return None;
        }
        // Backward demodulation. The active clauses are in normal form
        // under the older demodulators, so only those where one of the new
        // ones matches somewhere can change.
        let others: Vec<usize> = self
            .actives
            .iter()
            .map(|&(a, _)| a)
            .filter(|&a| a != id && self.active[a])
            .filter(|&a| may_rewrite(&sides, &self.nodes[a].clause))
            .collect();
        for a in others {
            let Some(new) = self.simplify_by_new(a) else {
                continue;
            };
            self.active[a] = false;
            if let Some(new) = new {
                self.taken[new] = false;
                if self.nodes[new].clause.lits.is_empty() {
                    return Some(new);
                }
            }
        }
        None
    }

    /// For backward demodulation: `None` if `a` does not change,
    /// `Some(None)` if it becomes a tautology, else its rewritten node.
    fn simplify_by_new(&mut self, a: usize) -> Option<Option<usize>> {
        let before = self.nodes.len();
        let out = self.simplify(a);
        match out {
            Some(n) if n == a => None,
            Some(n) => Some(Some(n)),
            None => {
                debug_assert_eq!(before, self.nodes.len());
                Some(None)
            }
        }
    }

    /// All inferences between `id` and the active clauses (itself
    /// included); `Some` with the empty clause's node if one is derived.
    fn infer(&mut self, id: usize) -> Found {
        let partners: Vec<usize> = self
            .actives
            .iter()
            .map(|&(a, _)| a)
            .filter(|&a| self.active[a])
            .collect();
        self.infer_with(id, partners, true)
    }

    /// The inferences between `id` and `partners` (and its own unary ones
    /// with `unary`). Where the work limit comes first, the partners left
    /// are kept in [`State::cut`] for a larger budget to finish before the
    /// next given clause.
    fn infer_with(&mut self, id: usize, partners: Vec<usize>, unary_too: bool) -> Found {
        let given = self.nodes[id].clause.clone();
        let mut out: Vec<(Vec<Lit>, &'static str, Vec<usize>)> = Vec::new();
        let ge = self.eligible[id].clone();
        let offers = self.offers[id].clone();
        if unary_too {
            unary(&given, &ge, id, &mut out);
        }
        for (i, &p) in partners.iter().enumerate() {
            if self.work() >= self.budget.work {
                self.cut = Some((id, partners[i..].to_vec()));
                break;
            }
            let partner = &self.nodes[p].clause;
            let pe = &self.eligible[p];
            // Most pairs of a predicate-heavy problem make no inference;
            // they are skipped before the partner is copied and renamed.
            if !offers.may_meet(&self.offers[p]) {
                continue;
            }
            let k = given.nvars;
            let renamed = Clause {
                lits: partner
                    .lits
                    .iter()
                    .map(|l| l.map(|t| t.offset(k)))
                    .collect(),
                nvars: partner.nvars + k,
                weight: partner.weight,
                depth: partner.depth,
            };
            let n = given.nvars + partner.nvars;
            let (g, r) = ((&given, &ge), (&renamed, pe));
            resolve(g, id, r, p, n, &mut out);
            superpose(g, id, r, p, n, &mut out);
            superpose(r, p, g, id, n, &mut out);
        }
        for (lits, rule, parents) in out {
            if let Err(found) = self.derived(lits, rule, parents) {
                return Some(found);
            }
        }
        None
    }

    fn theorem(&self, empty: usize) -> Outcome {
        // The ancestors of the empty clause, by a work list.
        let mut seen = vec![false; self.nodes.len()];
        let mut todo = vec![empty];
        while let Some(n) = todo.pop() {
            if std::mem::replace(&mut seen[n], true) {
                continue;
            }
            todo.extend(self.nodes[n].parents.iter().copied());
        }
        let mut used = Vec::new();
        let mut goal_used = false;
        let mut steps = Vec::new();
        for (n, node) in self.nodes.iter().enumerate().filter(|(n, _)| seen[*n]) {
            let from = match node.input {
                Some(i) if i < self.premises => {
                    used.push(i);
                    From::Premise(i)
                }
                Some(_) => {
                    goal_used = true;
                    From::Goal
                }
                None => From::Inference(node.rule, node.parents.clone()),
            };
            steps.push(Step {
                id: n,
                clause: self.show_clause(&node.clause),
                from,
            });
        }
        used.sort_unstable();
        used.dedup();
        Outcome::Theorem(Proof {
            used,
            goal_used,
            steps,
        })
    }

    fn show_clause(&self, c: &Clause) -> String {
        if c.lits.is_empty() {
            return "$false".into();
        }
        let lits: Vec<String> = c
            .lits
            .iter()
            .map(|l| {
                let sign = if l.pos { "" } else { "~" };
                if l.eq {
                    let op = if l.pos { "=" } else { "!=" };
                    format!("{} {op} {}", self.show(&l.l), self.show(&l.r))
                } else {
                    format!("{sign}{}", self.show(&l.l))
                }
            })
            .collect();
        format!("({})", lits.join(" | "))
    }

    fn show(&self, t: &T) -> String {
        match t {
            T::V(v) => format!("X{v}"),
            T::F(f, args) => {
                let name = tptp_word(&self.symbols.names[*f as usize]);
                if args.is_empty() {
                    name
                } else {
                    let args: Vec<String> = args.iter().map(|a| self.show(a)).collect();
                    format!("{name}({})", args.join(", "))
                }
            }
        }
    }
}

/// The slot of [`State::units`] for a unit clause of `lit`'s atom with
/// sign `pos`, over `n` symbols.
fn unit_key(lit: &Lit, pos: bool, n: usize) -> usize {
    match (&lit.l, lit.eq) {
        (T::F(p, _), false) => 2 * *p as usize + pos as usize,
        _ => 2 * n + pos as usize,
    }
}

/// Whether one of the left sides `sides` (with their fingerprints) matches
/// a subterm of `c`: necessary for it to rewrite `c`.
fn may_rewrite(sides: &[(T, Fingerprint)], c: &Clause) -> bool {
    let mut m = Matcher::default();
    let mut stack: Vec<&T> = c.lits.iter().flat_map(|l| [&l.l, &l.r]).collect();
    while let Some(t) = stack.pop() {
        let T::F(f, args) = t else {
            continue;
        };
        stack.extend(args);
        let mut print = None;
        for (lhs, from) in sides {
            if !matches!(lhs, T::F(g, _) if g == f) {
                continue;
            }
            let print = print.get_or_insert_with(|| Fingerprint::of(t));
            if from.may_match(print) {
                m.reset(0);
                if m.matches(lhs, t) {
                    return true;
                }
            }
        }
    }
    false
}

/// What an active clause offers to inferences with another, by fingerprint
/// (renaming changes no fingerprint): the sides its eligible positive
/// equations rewrite from, the subterms of its eligible literals that
/// superposition may rewrite, and its eligible predicate atoms with their
/// signs. Two clauses that offer each other nothing are not copied and
/// renamed for an inference that cannot happen: in a problem with a few
/// equations among many predicate clauses most pairs are so.
#[derive(Clone, Default)]
struct Offers {
    from: Vec<Fingerprint>,
    into: Vec<Fingerprint>,
    atoms: Vec<(bool, Fingerprint)>,
}

impl Offers {
    fn of(c: &Clause, e: &Eligible) -> Offers {
        let mut offers = Offers::default();
        for (j, lit) in c.lits.iter().enumerate().filter(|&(j, _)| e.lits[j]) {
            if lit.eq && lit.pos {
                let order = kbo(&lit.l, &lit.r);
                for (side, side_to_other) in [(&lit.l, order), (&lit.r, order.reverse())] {
                    if side_to_other != Cmp::Lt {
                        offers.from.push(Fingerprint::of(side));
                    }
                }
            }
            if !lit.eq {
                offers.atoms.push((lit.pos, Fingerprint::of(&lit.l)));
            }
            each_place(c, j, &mut |place| offers.into.push(place.print));
        }
        offers
    }

    /// Whether some inference between the two clauses may exist
    /// (necessary, not sufficient).
    fn may_meet(&self, other: &Offers) -> bool {
        let rewrites = |from: &[Fingerprint], into: &[Fingerprint]| {
            from.iter().any(|f| into.iter().any(|i| f.may_unify(i)))
        };
        rewrites(&self.from, &other.into)
            || rewrites(&other.from, &self.into)
            || self.atoms.iter().any(|(sign, a)| {
                other
                    .atoms
                    .iter()
                    .any(|(other_sign, b)| sign != other_sign && a.may_unify(b))
            })
    }
}

/// The inferences of one clause alone: equality resolution, equality
/// factoring and (positive) factoring.
fn unary(
    c: &Clause,
    eligible: &Eligible,
    id: usize,
    out: &mut Vec<(Vec<Lit>, &'static str, Vec<usize>)>,
) {
    for (i, lit) in c.lits.iter().enumerate() {
        if !eligible.lits[i] {
            continue;
        }
        if !lit.pos && lit.eq {
            let mut s = Subst::new(c.nvars);
            if s.unify(&lit.l, &lit.r) {
                let lits = instance(&c.lits, &s);
                if eligible.holds(&lits, i) {
                    out.push((without(&lits, &[i]), "eq_resolve", vec![id]));
                }
            }
        }
        if !lit.pos {
            continue;
        }
        for (j, other) in c.lits.iter().enumerate() {
            if j == i || !other.pos || other.eq != lit.eq {
                continue;
            }
            if !lit.eq {
                if j < i {
                    continue;
                }
                let mut s = Subst::new(c.nvars);
                if s.unify(&lit.l, &other.l) {
                    let lits = instance(&c.lits, &s);
                    if maximal(&lits, i) {
                        out.push((without(&lits, &[j]), "factor", vec![id]));
                    }
                }
                continue;
            }
            // Equality factoring: s ≈ t ∨ s' ≈ t' ∨ C, σ = mgu(s, s'),
            // gives (t ≉ t' ∨ s' ≈ t' ∨ C)σ.
            for (s0, t0) in [(&lit.l, &lit.r), (&lit.r, &lit.l)] {
                for (s1, t1) in [(&other.l, &other.r), (&other.r, &other.l)] {
                    let mut s = Subst::new(c.nvars);
                    if !s.unify(s0, s1) {
                        continue;
                    }
                    let (ss, ts) = (s.apply(s0), s.apply(t0));
                    if gt(&ts, &ss) || ts == ss {
                        continue;
                    }
                    let lits = instance(&c.lits, &s);
                    if !maximal(&lits, i) {
                        continue;
                    }
                    let mut rest = without(&lits, &[i]);
                    rest.push(Lit::equation(false, ts, s.apply(t1)));
                    out.push((rest, "eq_factor", vec![id]));
                }
            }
        }
    }
}

/// Ordered binary resolution between `a` and `b` (variables apart; `n`
/// variables in all).
fn resolve(
    (a, ae): (&Clause, &Eligible),
    ia: usize,
    (b, be): (&Clause, &Eligible),
    ib: usize,
    n: u32,
    out: &mut Vec<(Vec<Lit>, &'static str, Vec<usize>)>,
) {
    for (i, x) in a.lits.iter().enumerate() {
        if x.eq || !ae.lits[i] {
            continue;
        }
        for (j, y) in b.lits.iter().enumerate() {
            if y.eq || y.pos == x.pos || !be.lits[j] {
                continue;
            }
            let mut s = Subst::new(n);
            if !s.unify(&x.l, &y.l) {
                continue;
            }
            let al = instance(&a.lits, &s);
            let bl = instance(&b.lits, &s);
            if !ae.holds(&al, i) || !be.holds(&bl, j) {
                continue;
            }
            let mut lits = without(&al, &[i]);
            lits.extend(without(&bl, &[j]));
            out.push((lits, "resolve", vec![ia, ib]));
        }
    }
}

/// Superposition from the positive equations of `from` into the literals
/// of `into` (variables apart; `n` variables in all).
fn superpose(
    (from, fe): (&Clause, &Eligible),
    ifrom: usize,
    (into, ie): (&Clause, &Eligible),
    iinto: usize,
    n: u32,
    out: &mut Vec<(Vec<Lit>, &'static str, Vec<usize>)>,
) {
    let equations: Vec<usize> = (0..from.lits.len())
        .filter(|&i| from.lits[i].pos && from.lits[i].eq && fe.lits[i])
        .collect();
    if equations.is_empty() {
        return;
    }
    // The places to rewrite, once per pair: each eligible literal's sides
    // not smaller than the other (a predicate atom's arguments), with the
    // paths and fingerprints of their non-variable subterms.
    let mut places: Vec<Place> = Vec::new();
    for j in (0..into.lits.len()).filter(|&j| ie.lits[j]) {
        each_place(into, j, &mut |place| places.push(place));
    }
    let mut s = Subst::new(n);
    for i in equations {
        let eq = &from.lits[i];
        let order = kbo(&eq.l, &eq.r);
        for (s0, t0, s0_to_t0) in [(&eq.l, &eq.r, order), (&eq.r, &eq.l, order.reverse())] {
            // A variable side rewrites too (`x ≈ b` makes every term b).
            if s0_to_t0 == Cmp::Lt {
                continue;
            }
            let s0_print = Fingerprint::of(s0);
            for place in &places {
                if !s0_print.may_unify(&place.print) || !s.unify(s0, place.u.at(&place.path)) {
                    continue;
                }
                let lits = superposition(&s, (from, fe, i, s0, t0, s0_to_t0), (into, ie), place);
                s.undo(0);
                if let Some(lits) = lits {
                    out.push((lits, "superpose", vec![ifrom, iinto]));
                }
            }
        }
    }
}

/// A subterm that superposition may rewrite: at `path` in side `u` of
/// literal `j` (the right side when `right`), `v` the other side.
struct Place<'c> {
    j: usize,
    right: bool,
    u: &'c T,
    v: &'c T,
    /// `u > v` in the term order, so in every instance too.
    u_greater: bool,
    path: Vec<usize>,
    print: Fingerprint,
}

/// Calls `f` on each place superposition may rewrite in literal `j` of
/// `c`: every non-variable subterm of an equation's sides not smaller than
/// the other, and of a predicate atom's arguments.
fn each_place<'c>(c: &'c Clause, j: usize, f: &mut impl FnMut(Place<'c>)) {
    let lit = &c.lits[j];
    let order = if lit.eq { kbo(&lit.l, &lit.r) } else { Cmp::Gt };
    let sides: &[(bool, &T, &T, Cmp)] = if lit.eq {
        &[
            (false, &lit.l, &lit.r, order),
            (true, &lit.r, &lit.l, order.reverse()),
        ]
    } else {
        &[(false, &lit.l, &lit.r, Cmp::Gt)]
    };
    for &(right, u, v, u_to_v) in sides {
        if u_to_v == Cmp::Lt {
            continue;
        }
        let mut positions = Vec::new();
        u.positions(&mut positions);
        for path in positions {
            // Not a predicate atom itself: superposition rewrites terms.
            if !lit.eq && path.is_empty() {
                continue;
            }
            let print = Fingerprint::of(u.at(&path));
            f(Place {
                j,
                right,
                u,
                v,
                u_greater: u_to_v == Cmp::Gt,
                path,
                print,
            });
        }
    }
}

/// The conclusion of one superposition under the unifier `s` of `s0` and
/// the subterm at `place`, `None` where the ordering or eligibility
/// conditions fail. The cheap conditions come first, on the sides alone,
/// before any clause is instantiated.
fn superposition(
    s: &Subst,
    (from, fe, i, s0, t0, s0_to_t0): (&Clause, &Eligible, usize, &T, &T, Cmp),
    (into, ie): (&Clause, &Eligible),
    place: &Place,
) -> Option<Vec<Lit>> {
    let ts = s.apply(t0);
    // `s0 > t0` holds in every instance; else compare the instances.
    if s0_to_t0 != Cmp::Gt {
        let ss = s.apply(s0);
        if gt(&ts, &ss) || ts == ss {
            return None;
        }
    }
    let lit = &into.lits[place.j];
    let us = s.apply(place.u);
    let vs = s.apply(place.v);
    if lit.eq && !place.u_greater && gt(&vs, &us) {
        return None;
    }
    let mut lits = instance_but(from, fe, i, s)?;
    lits.append(&mut instance_but(into, ie, place.j, s)?);
    let rewritten = us.replace(&place.path, &ts);
    lits.push(match (lit.eq, place.right) {
        (true, false) => Lit::equation(lit.pos, rewritten, vs),
        (true, true) => Lit::equation(lit.pos, vs, rewritten),
        (false, _) => Lit::pred(lit.pos, rewritten),
    });
    Some(lits)
}

/// The instance under `s` of `c`'s literals but the `k`-th, `None` when
/// that literal is not eligible in the instance (see [`Eligible::holds`]).
fn instance_but(c: &Clause, e: &Eligible, k: usize, s: &Subst) -> Option<Vec<Lit>> {
    // A selected literal, or the only one, is eligible in every instance.
    if e.selected || c.lits.len() == 1 {
        let rest = c.lits.iter().enumerate().filter(|&(x, _)| x != k);
        return Some(rest.map(|(_, l)| l.map(|t| s.apply(t))).collect());
    }
    let mut all = instance(&c.lits, s);
    if !e.holds(&all, k) {
        return None;
    }
    all.remove(k);
    Some(all)
}

fn instance(lits: &[Lit], s: &Subst) -> Vec<Lit> {
    lits.iter().map(|l| l.map(|t| s.apply(t))).collect()
}

fn without(lits: &[Lit], skip: &[usize]) -> Vec<Lit> {
    lits.iter()
        .enumerate()
        .filter(|(i, _)| !skip.contains(i))
        .map(|(_, l)| l.clone())
        .collect()
}

#[cfg(test)]
mod tests;

//! Mace4-style finite model search. The formulas are put in clause form
//! (negation normal form, Skolem functions for existentials, distribution
//! into clauses); for domain sizes 1, 2, 3, … every clause is instantiated
//! over the elements and a backtracking search decides the cells (one per
//! function or predicate applied to elements) in Mace4's way: cells with
//! the least arguments first, each clause instance re-evaluated when a cell
//! it waits for is decided, and unit instances deciding or excluding cell
//! values. A model found is a finite model of the formulas;
//! [`Countermodel::satisfies`] lets callers re-check it.
//!
//! Symmetry breaking is Mace4's least-number heuristic: elements that no
//! decided cell mentions (as an argument or a value) are interchangeable,
//! so a cell tries the mentioned elements and only the least unmentioned
//! one.
//!
//! Limits are counted, not timed: at most [`MAX_CLAUSES`] clauses, and per
//! domain size [`MAX_INSTANCES`] clause instances and
//! [`MAX_CELLS_SEARCHED`] cells.

use super::model::{Countermodel, Table, MAX_CELLS};
use super::{ground, universal_closure, Signature, SymbolKind};
use crate::syntax::prover9::{Formula, Quantifier, Term};
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The most clauses the clause form may have.
const MAX_CLAUSES: usize = 20_000;

/// The most clause instances of one domain size.
const MAX_INSTANCES: u64 = 4_000_000;

/// The most cells of one domain size.
const MAX_CELLS_SEARCHED: u64 = 1_000_000;

/// The largest domain: cell domains are 64-bit sets.
const MAX_SIZE: usize = 64;

/// Searches domain sizes up to `max_size`, `first` first (a Mace4
/// `domain_size` hint, or 1), for a model of all `formulas` (free variables
/// universally closed), until `deadline` or until `stop` is raised.
///
/// A size without models can take long to rule out while a larger one has
/// a model that is quick to find, so the sizes share the work in rounds:
/// each round gives the sizes still open budgets of clause-instance visits
/// that halve from one size to the next (so a round costs at most twice
/// its first budget), and the next round four times as much. A size up to
/// [`GROUND_MAX_SIZE`] that the cell search leaves open in a round also
/// goes to Z3 on the ground expansion (see `ground`), which handles deeply
/// nested terms the cell search can only guess. Budgets are counted (visits, Z3's `rlimit`),
/// so the model found does not depend on the machine's speed.
pub fn find_model(
    formulas: &[Formula],
    max_size: usize,
    first: usize,
    deadline: Instant,
    stop: &Arc<AtomicBool>,
) -> Option<Countermodel> {
    let signature = Signature::of(formulas.iter()).ok()?;
    let problem = Clausal::of(formulas)?;
    let out_of_time = || Instant::now() >= deadline || stop.load(Ordering::Relaxed);
    let max_size = max_size.min(MAX_SIZE);
    let mut open: Vec<usize> = (1..=max_size).collect();
    if let Some(at) = open.iter().position(|&n| n == first) {
        open.remove(at);
        open.insert(0, first);
    }
    let closed: Vec<Formula> = formulas.iter().map(universal_closure).collect();
    let mut budget = FIRST_BUDGET;
    while !open.is_empty() {
        let mut still_open = Vec::with_capacity(open.len());
        for (i, &n) in open.iter().enumerate() {
            let share = budget.checked_shr(i as u32).unwrap_or(0);
            if share < FIRST_BUDGET {
                still_open.push(n);
                continue;
            }
            if out_of_time() {
                return None;
            }
            // Past the counted limits (a size that never fits is skipped cheaply).
            let Some(search) = Search::new(&problem, n, share, &out_of_time) else {
                continue;
            };
            match search.run() {
                Ok(Some(values)) => return problem.countermodel(&signature, n, &values),
                Ok(None) => {}
                Err(()) if out_of_time() => return None,
                Err(()) if n > GROUND_MAX_SIZE => still_open.push(n),
                // A small size also goes to Z3 on the ground expansion, with
                // as many resource units as the cell search had visits.
                Err(()) => {
                    let rlimit = share.saturating_mul(GROUND_UNITS_PER_VISIT);
                    let rlimit = u32::try_from(rlimit).unwrap_or(u32::MAX);
                    match ground::model_of_size(&closed, &signature, n, rlimit, deadline, stop) {
                        Ok(Some(model)) => return Some(model),
                        Ok(None) => {}
                        Err(()) => still_open.push(n),
                    }
                }
            }
        }
        open = still_open;
        budget = budget.saturating_mul(4);
    }
    None
}

/// The largest size tried by Z3 on the ground expansion.
const GROUND_MAX_SIZE: usize = 5;

/// Z3's resource units per cell-search visit of the same size and round:
/// a unit costs about as much time as a visit, so small sizes get at most
/// a few times their share (ring19's size-4 model needs 1–3 million units).
const GROUND_UNITS_PER_VISIT: u64 = 4;

/// The first round's visits per domain size.
const FIRST_BUDGET: u64 = 20_000;

/// A symbol of the clause form: the input's, or a Skolem function.
struct Symbol {
    name: String,
    arity: usize,
    kind: SymbolKind,
    skolem: bool,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum T {
    Var(u32),
    App(usize, Vec<T>),
}

#[derive(Clone, PartialEq, Eq)]
enum Atom {
    Eq(T, T),
    Pred(usize, Vec<T>),
}

/// A formula in negation normal form over [`T`] terms.
enum Nnf {
    Const(bool),
    Lit(bool, Atom),
    And(Vec<Nnf>),
    Or(Vec<Nnf>),
    All(u32, Box<Nnf>),
    Exists(u32, Box<Nnf>),
}

/// The clause form of a problem.
struct Clausal {
    symbols: Vec<Symbol>,
    clauses: Vec<Template>,
    /// Constants in symmetry-breaking order: the input's by name, then Skolem ones.
    constants: Vec<usize>,
}

/// Builds the clause form.
#[derive(Default)]
struct Clausifier {
    symbols: Vec<Symbol>,
    index: HashMap<(String, usize, SymbolKind), usize>,
    next_var: u32,
}

impl Clausifier {
    fn symbol(&mut self, name: &str, arity: usize, kind: SymbolKind) -> usize {
        let key = (name.to_string(), arity, kind);
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.symbols.push(Symbol {
            name: name.to_string(),
            arity,
            kind,
            skolem: false,
        });
        self.index.insert(key, self.symbols.len() - 1);
        self.symbols.len() - 1
    }

    fn term(&mut self, t: &Term, env: &[(String, u32)]) -> Option<T> {
        Some(match t {
            Term::Var(v) => T::Var(env.iter().rev().find(|(n, _)| n == v)?.1),
            Term::App(name, args) => {
                let args = args
                    .iter()
                    .map(|a| self.term(a, env))
                    .collect::<Option<Vec<_>>>()?;
                T::App(self.symbol(name, args.len(), SymbolKind::Function), args)
            }
        })
    }

    /// `f` (or its negation) in negation normal form; `None` for a
    /// variable used as a formula.
    fn nnf(&mut self, f: &Formula, positive: bool, env: &mut Vec<(String, u32)>) -> Option<Nnf> {
        let mut two = |this: &mut Self, a: &Formula, pa: bool, b: &Formula, pb: bool| {
            Some([this.nnf(a, pa, env)?, this.nnf(b, pb, env)?])
        };
        Some(match f {
            Formula::True => Nnf::Const(positive),
            Formula::False => Nnf::Const(!positive),
            Formula::Atom(Term::App(name, args)) if name == "=" && args.len() == 2 => {
                let a = self.term(&args[0], env)?;
                let b = self.term(&args[1], env)?;
                Nnf::Lit(positive, Atom::Eq(a, b))
            }
            Formula::Atom(Term::App(name, args)) => {
                let args = args
                    .iter()
                    .map(|a| self.term(a, env))
                    .collect::<Option<Vec<_>>>()?;
                let p = self.symbol(name, args.len(), SymbolKind::Predicate);
                Nnf::Lit(positive, Atom::Pred(p, args))
            }
            Formula::Atom(Term::Var(_)) => return None,
            Formula::Not(g) => self.nnf(g, !positive, env)?,
            Formula::And(a, b) | Formula::Or(a, b) => {
                let parts = two(self, a, positive, b, positive)?.into();
                if matches!(f, Formula::And(..)) == positive {
                    Nnf::And(parts)
                } else {
                    Nnf::Or(parts)
                }
            }
            Formula::Implies(a, b) | Formula::ImpliedBy(b, a) => {
                let parts = two(self, a, !positive, b, positive)?.into();
                if positive {
                    Nnf::Or(parts)
                } else {
                    Nnf::And(parts)
                }
            }
            Formula::Iff(a, b) => {
                // (a -> b) & (b -> a), or negated (a & -b) | (-a & b).
                let [x, y] = two(self, a, !positive, b, true)?;
                let [z, w] = two(self, a, positive, b, false)?;
                if positive {
                    Nnf::And(vec![Nnf::Or(vec![x, y]), Nnf::Or(vec![z, w])])
                } else {
                    Nnf::Or(vec![Nnf::And(vec![x, w]), Nnf::And(vec![z, y])])
                }
            }
            Formula::Quant(q, v, body) => {
                let id = self.next_var;
                self.next_var += 1;
                env.push((v.clone(), id));
                let body = self.nnf(body, positive, env);
                env.pop();
                let body = Box::new(body?);
                if (*q == Quantifier::All) == positive {
                    Nnf::All(id, body)
                } else {
                    Nnf::Exists(id, body)
                }
            }
        })
    }

    /// Replaces existentials by Skolem terms over the enclosing universal
    /// variables that their body uses, and drops the quantifiers.
    fn skolemize(&mut self, n: Nnf, universals: &mut Vec<u32>, map: &mut HashMap<u32, T>) -> Nnf {
        match n {
            Nnf::Const(_) => n,
            Nnf::Lit(sign, atom) => Nnf::Lit(
                sign,
                match atom {
                    Atom::Eq(a, b) => Atom::Eq(substitute(&a, map), substitute(&b, map)),
                    Atom::Pred(p, args) => {
                        Atom::Pred(p, args.iter().map(|a| substitute(a, map)).collect())
                    }
                },
            ),
            Nnf::And(parts) => Nnf::And(
                parts
                    .into_iter()
                    .map(|p| self.skolemize(p, universals, map))
                    .collect(),
            ),
            Nnf::Or(parts) => Nnf::Or(
                parts
                    .into_iter()
                    .map(|p| self.skolemize(p, universals, map))
                    .collect(),
            ),
            Nnf::All(v, body) => {
                universals.push(v);
                let body = self.skolemize(*body, universals, map);
                universals.pop();
                body
            }
            Nnf::Exists(v, body) => {
                let mut used = BTreeSet::new();
                nnf_vars(&body, map, &mut used);
                let args: Vec<T> = universals
                    .iter()
                    .filter(|u| used.contains(*u))
                    .map(|&u| T::Var(u))
                    .collect();
                self.symbols.push(Symbol {
                    name: format!("#skolem{}", self.symbols.len()),
                    arity: args.len(),
                    kind: SymbolKind::Function,
                    skolem: true,
                });
                map.insert(v, T::App(self.symbols.len() - 1, args));
                self.skolemize(*body, universals, map)
            }
        }
    }
}

fn substitute(t: &T, map: &HashMap<u32, T>) -> T {
    match t {
        T::Var(v) => map.get(v).cloned().unwrap_or(T::Var(*v)),
        T::App(f, args) => T::App(*f, args.iter().map(|a| substitute(a, map)).collect()),
    }
}

fn term_vars(t: &T, map: &HashMap<u32, T>, out: &mut BTreeSet<u32>) {
    match t {
        T::Var(v) => match map.get(v) {
            Some(s) => term_vars(s, map, out),
            None => {
                out.insert(*v);
            }
        },
        T::App(_, args) => args.iter().for_each(|a| term_vars(a, map, out)),
    }
}

/// The variables `n` mentions, through the Skolem terms already chosen.
fn nnf_vars(n: &Nnf, map: &HashMap<u32, T>, out: &mut BTreeSet<u32>) {
    match n {
        Nnf::Const(_) => {}
        Nnf::Lit(_, Atom::Eq(a, b)) => {
            term_vars(a, map, out);
            term_vars(b, map, out);
        }
        Nnf::Lit(_, Atom::Pred(_, args)) => args.iter().for_each(|a| term_vars(a, map, out)),
        Nnf::And(parts) | Nnf::Or(parts) => parts.iter().for_each(|p| nnf_vars(p, map, out)),
        Nnf::All(_, b) | Nnf::Exists(_, b) => nnf_vars(b, map, out),
    }
}

type Clause = Vec<(bool, Atom)>;

/// Distributes a quantifier-free formula into clauses; `None` past
/// [`MAX_CLAUSES`].
fn cnf(n: Nnf) -> Option<Vec<Clause>> {
    Some(match n {
        Nnf::Const(true) => Vec::new(),
        Nnf::Const(false) => vec![Vec::new()],
        Nnf::Lit(sign, atom) => vec![vec![(sign, atom)]],
        Nnf::And(parts) => {
            let mut out = Vec::new();
            for p in parts {
                out.extend(cnf(p)?);
                if out.len() > MAX_CLAUSES {
                    return None;
                }
            }
            out
        }
        Nnf::Or(parts) => {
            let mut out: Vec<Clause> = vec![Vec::new()];
            for p in parts {
                let right = cnf(p)?;
                if out.len().saturating_mul(right.len()) > MAX_CLAUSES {
                    return None;
                }
                out = out
                    .iter()
                    .flat_map(|a| {
                        right.iter().map(move |b| {
                            let mut c = a.clone();
                            c.extend(b.iter().cloned());
                            c
                        })
                    })
                    .collect();
            }
            out
        }
        // Quantifiers are gone after Skolemization.
        Nnf::All(_, b) | Nnf::Exists(_, b) => cnf(*b)?,
    })
}

/// A clause of the clause form, its variables numbered `0..vars`.
struct Template {
    vars: usize,
    lits: Clause,
}

/// A clause instance's cell that is not yet known, and whether it is the
/// literal's whole side (so the literal can assign it) or only inside it.
#[derive(Clone, Copy)]
enum Ev {
    Val(usize),
    Stuck { cell: u32, top: bool },
}

/// What a unit clause instance implies: `cell = value`, or with `false`
/// for `assign`, `cell != value`.
type Action = (u32, usize, bool);

enum Outcome {
    Satisfied,
    Conflict,
    Unit(Action),
    Open(u32, Option<u32>),
}

enum Undo {
    Assigned(u32),
    /// A decided cell's elements counted in `used`.
    Mentioned(u32),
    Domain(u32, u64),
    Watch(u32),
}

/// A decision: the values still to try for one cell.
struct Frame {
    cell: u32,
    values: Vec<u8>,
    next: usize,
    mark: usize,
}

const UNSET: u8 = u8::MAX;

/// The search at one domain size: cells (one per function or predicate
/// application to elements) are decided in order, least arguments first;
/// every clause instance is watched on up to two unknown cells it is stuck
/// on and re-evaluated when one is decided, so that unit instances decide
/// or exclude cell values (propagation).
struct Search<'a> {
    problem: &'a Clausal,
    n: usize,
    base: Vec<u32>,
    value: Vec<u8>,
    domain: Vec<u64>,
    watches: Vec<Vec<u32>>,
    /// First instance number of each template.
    offsets: Vec<u32>,
    trail: Vec<Undo>,
    head: usize,
    /// How many decisions mention each element (arguments and values);
    /// propagated cells follow from decisions and do not count.
    used: Vec<u32>,
    order: Vec<u32>,
    env: Vec<usize>,
    /// Polled every [`POLL_EVERY`] instance visits; once it says so, every
    /// visit fails and the search unwinds.
    out_of_time: &'a dyn Fn() -> bool,
    visits: u64,
    /// The most visits this search may make.
    budget: u64,
    gave_up: bool,
}

/// How many clause-instance visits pass between two polls of the deadline.
const POLL_EVERY: u64 = 4096;

impl<'a> Search<'a> {
    fn new(
        problem: &'a Clausal,
        n: usize,
        budget: u64,
        out_of_time: &'a dyn Fn() -> bool,
    ) -> Option<Search<'a>> {
        let mut base = Vec::with_capacity(problem.symbols.len() + 1);
        let mut cells: u64 = 0;
        for s in &problem.symbols {
            base.push(u32::try_from(cells).ok()?);
            cells = cells.checked_add((n as u64).checked_pow(s.arity as u32)?)?;
        }
        if cells > MAX_CELLS_SEARCHED {
            return None;
        }
        base.push(cells as u32);
        let mut offsets = Vec::with_capacity(problem.clauses.len() + 1);
        let mut instances: u64 = 0;
        for c in &problem.clauses {
            offsets.push(u32::try_from(instances).ok()?);
            instances = instances.checked_add((n as u64).checked_pow(c.vars as u32)?)?;
            if instances > MAX_INSTANCES {
                return None;
            }
        }
        offsets.push(instances as u32);
        let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut domain = Vec::with_capacity(cells as usize);
        for s in &problem.symbols {
            let d = if s.kind == SymbolKind::Function {
                all
            } else {
                0b11
            };
            domain.extend(std::iter::repeat_n(d, n.pow(s.arity as u32)));
        }
        // Constants first (in symmetry-breaking order), then by largest
        // argument, functions (whose values the heuristic narrows) before
        // predicates.
        let mut keyed: Vec<(usize, bool, usize, u32)> = Vec::with_capacity(cells as usize);
        for (i, s) in problem.symbols.iter().enumerate() {
            let rank = problem
                .constants
                .iter()
                .position(|&c| c == i)
                .unwrap_or(problem.constants.len() + i);
            for local in 0..n.pow(s.arity as u32) {
                let mut largest = 0;
                let mut rest = local;
                for _ in 0..s.arity {
                    largest = largest.max(rest % n + 1);
                    rest /= n;
                }
                let predicate = s.kind == SymbolKind::Predicate;
                keyed.push((largest, predicate, rank, base[i] + local as u32));
            }
        }
        keyed.sort_unstable();
        Some(Search {
            problem,
            n,
            value: vec![UNSET; cells as usize],
            domain,
            watches: vec![Vec::new(); cells as usize],
            offsets,
            trail: Vec::new(),
            head: 0,
            used: vec![0; n],
            order: keyed.into_iter().map(|k| k.3).collect(),
            env: Vec::new(),
            out_of_time,
            visits: 0,
            budget,
            gave_up: false,
            base,
        })
    }

    fn symbol_of(&self, cell: u32) -> usize {
        self.base.partition_point(|&b| b <= cell) - 1
    }

    /// The arguments of `cell`, first one first.
    fn args_of(&self, cell: u32) -> (usize, Vec<usize>) {
        let s = self.symbol_of(cell);
        let mut rest = (cell - self.base[s]) as usize;
        let mut args = vec![0; self.problem.symbols[s].arity];
        for slot in args.iter_mut().rev() {
            *slot = rest % self.n;
            rest /= self.n;
        }
        (s, args)
    }

    fn mention(&mut self, cell: u32, up: bool) {
        let (s, args) = self.args_of(cell);
        let mut touch = |e: usize| {
            if up {
                self.used[e] += 1;
            } else {
                self.used[e] -= 1;
            }
        };
        args.into_iter().for_each(&mut touch);
        if self.problem.symbols[s].kind == SymbolKind::Function {
            touch(self.value[cell as usize] as usize);
        }
    }

    fn assign(&mut self, cell: u32, v: usize) -> bool {
        let c = cell as usize;
        if self.value[c] != UNSET {
            return self.value[c] as usize == v;
        }
        if self.domain[c] & (1 << v) == 0 {
            return false;
        }
        self.value[c] = v as u8;
        self.trail.push(Undo::Assigned(cell));
        true
    }

    fn exclude(&mut self, cell: u32, v: usize) -> bool {
        let c = cell as usize;
        if self.value[c] != UNSET {
            return self.value[c] as usize != v;
        }
        let d = self.domain[c];
        if d & (1 << v) == 0 {
            return true;
        }
        let left = d & !(1 << v);
        if left == 0 {
            return false;
        }
        self.trail.push(Undo::Domain(cell, d));
        self.domain[c] = left;
        if left.count_ones() == 1 {
            return self.assign(cell, left.trailing_zeros() as usize);
        }
        true
    }

    fn watch(&mut self, cell: u32, id: u32) {
        self.watches[cell as usize].push(id);
        self.trail.push(Undo::Watch(cell));
    }

    fn backtrack(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop() {
                Some(Undo::Assigned(c)) => self.value[c as usize] = UNSET,
                Some(Undo::Mentioned(c)) => self.mention(c, false),
                Some(Undo::Domain(c, d)) => self.domain[c as usize] = d,
                Some(Undo::Watch(c)) => {
                    self.watches[c as usize].pop();
                }
                None => break,
            }
        }
        self.head = self.head.min(mark);
    }

    fn eval(&self, t: &T) -> Ev {
        match t {
            T::Var(v) => Ev::Val(self.env[*v as usize]),
            T::App(f, args) => {
                let mut local = 0usize;
                for a in args {
                    match self.eval(a) {
                        Ev::Val(x) => local = local * self.n + x,
                        Ev::Stuck { cell, .. } => return Ev::Stuck { cell, top: false },
                    }
                }
                let cell = self.base[*f] + local as u32;
                match self.value[cell as usize] {
                    UNSET => Ev::Stuck { cell, top: true },
                    v => Ev::Val(v as usize),
                }
            }
        }
    }

    /// A literal's truth (`Ok`), or the cells it waits for and what it
    /// implies if it is the clause's last hope.
    fn literal(
        &self,
        positive: bool,
        atom: &Atom,
    ) -> Result<bool, ([Option<u32>; 2], Option<Action>)> {
        match atom {
            Atom::Eq(a, b) => match (self.eval(a), self.eval(b)) {
                (Ev::Val(x), Ev::Val(y)) => Ok((x == y) == positive),
                (Ev::Val(x), Ev::Stuck { cell, top }) | (Ev::Stuck { cell, top }, Ev::Val(x)) => {
                    if top && self.domain[cell as usize] & (1 << x) == 0 {
                        return Ok(!positive);
                    }
                    Err(([Some(cell), None], top.then_some((cell, x, positive))))
                }
                (Ev::Stuck { cell: c, .. }, Ev::Stuck { cell: d, .. }) => {
                    Err(([Some(c), (c != d).then_some(d)], None))
                }
            },
            Atom::Pred(p, args) => {
                let mut local = 0usize;
                for a in args {
                    match self.eval(a) {
                        Ev::Val(x) => local = local * self.n + x,
                        Ev::Stuck { cell, .. } => return Err(([Some(cell), None], None)),
                    }
                }
                let cell = self.base[*p] + local as u32;
                match self.value[cell as usize] {
                    UNSET => Err((
                        [Some(cell), None],
                        Some((cell, usize::from(positive), true)),
                    )),
                    v => Ok((v == 1) == positive),
                }
            }
        }
    }

    fn evaluate(&mut self, id: u32) -> Outcome {
        let t = self.offsets.partition_point(|&o| o <= id) - 1;
        let template = &self.problem.clauses[t];
        let mut index = (id - self.offsets[t]) as usize;
        self.env.clear();
        self.env.resize(template.vars, 0);
        for slot in self.env.iter_mut().rev() {
            *slot = index % self.n;
            index /= self.n;
        }
        let mut open = 0;
        let mut action = None;
        let mut cells: [Option<u32>; 2] = [None, None];
        for (positive, atom) in &template.lits {
            match self.literal(*positive, atom) {
                Ok(true) => return Outcome::Satisfied,
                Ok(false) => {}
                // The same ground literal twice counts once.
                Err((_, Some(implied))) if open == 1 && action == Some(implied) => {}
                Err((stuck, implied)) => {
                    open += 1;
                    action = implied;
                    for c in stuck.into_iter().flatten() {
                        if cells[0].is_none() {
                            cells[0] = Some(c);
                        } else if cells[1].is_none() && cells[0] != Some(c) {
                            cells[1] = Some(c);
                        }
                    }
                }
            }
        }
        match (open, action, cells[0]) {
            (0, _, _) => Outcome::Conflict,
            (1, Some(a), _) => Outcome::Unit(a),
            (_, _, Some(c)) => Outcome::Open(c, cells[1]),
            (_, _, None) => Outcome::Conflict,
        }
    }

    /// Applies what instance `id` implies now; `false` on a conflict.
    fn visit(&mut self, id: u32) -> bool {
        self.visits += 1;
        if self.gave_up
            || self.visits > self.budget
            || (self.visits.is_multiple_of(POLL_EVERY) && (self.out_of_time)())
        {
            self.gave_up = true;
            return false;
        }
        match self.evaluate(id) {
            Outcome::Satisfied => true,
            Outcome::Conflict => false,
            Outcome::Unit((cell, v, true)) => self.assign(cell, v),
            Outcome::Unit((cell, v, false)) => self.exclude(cell, v),
            Outcome::Open(c, d) => {
                self.watch(c, id);
                if let Some(d) = d {
                    self.watch(d, id);
                }
                true
            }
        }
    }

    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let at = self.head;
            self.head += 1;
            let Undo::Assigned(cell) = self.trail[at] else {
                continue;
            };
            let mut i = 0;
            while i < self.watches[cell as usize].len() {
                let id = self.watches[cell as usize][i];
                i += 1;
                if !self.visit(id) {
                    return false;
                }
            }
        }
        true
    }

    /// The values worth trying for `cell`: for a function, the elements
    /// already mentioned and the least unmentioned one (the others are
    /// interchangeable with it: the least-number heuristic).
    fn candidates(&self, cell: u32) -> Vec<u8> {
        let (s, args) = self.args_of(cell);
        let d = self.domain[cell as usize];
        if self.problem.symbols[s].kind == SymbolKind::Predicate {
            return (0..2u8).filter(|&v| d & (1 << v) != 0).collect();
        }
        let mut out = Vec::new();
        let mut fresh_taken = false;
        for e in 0..self.n {
            let mentioned = self.used[e] > 0 || args.contains(&e);
            if !mentioned {
                if fresh_taken {
                    continue;
                }
                fresh_taken = true;
            }
            if d & (1 << e) != 0 {
                out.push(e as u8);
            }
        }
        out
    }

    /// Tries the next value of the innermost decision, backtracking over
    /// exhausted ones; `false` when none is left.
    fn next_branch(&mut self, frames: &mut Vec<Frame>) -> bool {
        while let Some(f) = frames.last_mut() {
            let (cell, mark) = (f.cell, f.mark);
            let Some(&v) = f.values.get(f.next) else {
                frames.pop();
                continue;
            };
            f.next += 1;
            self.backtrack(mark);
            if self.assign(cell, v as usize) {
                self.mention(cell, true);
                self.trail.push(Undo::Mentioned(cell));
                if self.propagate() {
                    return true;
                }
            }
        }
        false
    }

    /// `Ok(Some(values))` a model's cell values, `Ok(None)` none of this
    /// size, `Err` out of time or budget.
    fn run(mut self) -> Result<Option<Vec<u8>>, ()> {
        let total = *self.offsets.last().unwrap_or(&0);
        let consistent = (0..total).all(|id| self.visit(id)) && self.propagate();
        if self.gave_up {
            return Err(());
        }
        if !consistent {
            return Ok(None);
        }
        let mut frames: Vec<Frame> = Vec::new();
        loop {
            let Some(&cell) = self
                .order
                .iter()
                .find(|&&c| self.value[c as usize] == UNSET)
            else {
                return Ok(Some(self.value));
            };
            frames.push(Frame {
                cell,
                values: self.candidates(cell),
                next: 0,
                mark: self.trail.len(),
            });
            if !self.next_branch(&mut frames) {
                return if self.gave_up { Err(()) } else { Ok(None) };
            }
        }
    }
}

/// `clause` with its variables renumbered `0..k`, repeated literals
/// dropped and `t != t` removed; `None` for a tautology.
fn template(clause: Clause) -> Option<Template> {
    fn renumber(t: &T, order: &mut Vec<u32>) -> T {
        match t {
            T::Var(v) => {
                let i = order.iter().position(|x| x == v).unwrap_or_else(|| {
                    order.push(*v);
                    order.len() - 1
                });
                T::Var(i as u32)
            }
            T::App(f, args) => T::App(*f, args.iter().map(|a| renumber(a, order)).collect()),
        }
    }
    let mut order = Vec::new();
    let mut lits: Clause = Vec::with_capacity(clause.len());
    for (positive, atom) in clause {
        let atom = match atom {
            Atom::Eq(a, b) if a == b => {
                if positive {
                    return None;
                }
                continue;
            }
            Atom::Eq(a, b) => Atom::Eq(renumber(&a, &mut order), renumber(&b, &mut order)),
            Atom::Pred(p, args) => {
                Atom::Pred(p, args.iter().map(|a| renumber(a, &mut order)).collect())
            }
        };
        if lits.iter().any(|(s, a)| *a == atom && *s != positive) {
            return None;
        }
        if !lits.iter().any(|(s, a)| *a == atom && *s == positive) {
            lits.push((positive, atom));
        }
    }
    Some(Template {
        vars: order.len(),
        lits,
    })
}

impl Clausal {
    fn of(formulas: &[Formula]) -> Option<Clausal> {
        let mut c = Clausifier::default();
        let mut clauses = Vec::new();
        for f in formulas {
            let nnf = c.nnf(&universal_closure(f), true, &mut Vec::new())?;
            let quantifier_free = c.skolemize(nnf, &mut Vec::new(), &mut HashMap::new());
            for clause in cnf(quantifier_free)? {
                clauses.extend(template(clause));
            }
            if clauses.len() > MAX_CLAUSES {
                return None;
            }
        }
        let mut constants: Vec<usize> = (0..c.symbols.len())
            .filter(|&i| c.symbols[i].arity == 0 && c.symbols[i].kind == SymbolKind::Function)
            .collect();
        constants.sort_by_key(|&i| (c.symbols[i].skolem, c.symbols[i].name.clone(), i));
        Some(Clausal {
            symbols: c.symbols,
            clauses,
            constants,
        })
    }

    /// The input symbols' tables (Skolem functions left out), in
    /// `signature`'s order, from the cell values of a search at size `n`.
    fn countermodel(&self, signature: &Signature, n: usize, values: &[u8]) -> Option<Countermodel> {
        let mut cm = Countermodel {
            domain_size: n,
            functions: Vec::new(),
            relations: Vec::new(),
            truncated: false,
        };
        for (name, arity, kind) in signature.symbols() {
            let cells = n.checked_pow(arity as u32)?;
            if cells > MAX_CELLS {
                cm.truncated = true;
                continue;
            }
            // The symbol's first cell: the cells of the symbols before it.
            let mut first = 0usize;
            let mut found = None;
            for s in &self.symbols {
                if !s.skolem && s.name == name && s.arity == arity && s.kind == kind {
                    found = Some(first);
                    break;
                }
                first += n.checked_pow(s.arity as u32)?;
            }
            let values: Vec<usize> = (0..cells)
                .map(|c| match found {
                    // A symbol only in a tautology has no cells: any value does.
                    None => 0,
                    Some(at) => values.get(at + c).map_or(0, |&v| v as usize),
                })
                .collect();
            let table = Table {
                symbol: name.to_string(),
                arity,
                values,
            };
            match kind {
                SymbolKind::Function => cm.functions.push(table),
                SymbolKind::Predicate => cm.relations.push(table),
            }
        }
        Some(cm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::prover9::{parse_formula, ParseOptions};
    use std::time::Duration;

    fn f(s: &str) -> Formula {
        parse_formula(s, &ParseOptions::default()).expect("parses")
    }

    fn search(formulas: &[&str], max: usize) -> Option<Countermodel> {
        let formulas: Vec<Formula> = formulas.iter().map(|s| f(s)).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let model = find_model(
            &formulas,
            max,
            1,
            Instant::now() + Duration::from_secs(60),
            &stop,
        )?;
        for g in &formulas {
            assert_eq!(model.satisfies(g), Some(true), "{g}\n{model}");
        }
        Some(model)
    }

    #[test]
    fn clause_form() {
        // all x exists y: y is a Skolem function of x; the clause keeps one variable.
        let c = Clausal::of(&[f("all x exists y r(x, y)")]).expect("clausal");
        assert_eq!(c.clauses.len(), 1);
        assert_eq!(c.clauses[0].vars, 1);
        assert!(c.symbols.iter().any(|s| s.skolem && s.arity == 1));
        // p <-> q is two clauses; tautologies and `t != t` disappear.
        let c =
            Clausal::of(&[f("p <-> q"), f("x = x | r(x, x)"), f("a != a | s")]).expect("clausal");
        assert_eq!(c.clauses.len(), 3);
        assert_eq!(c.clauses[2].lits.len(), 1);
        assert_eq!(c.constants.len(), 1);
    }

    #[test]
    fn finds_small_models_and_proves_there_are_none() {
        // Two distinct elements need size 2.
        let m = search(&["a != b"], 4).expect("a model");
        assert_eq!(m.domain_size, 2);
        // An injective non-surjective function has no finite model.
        assert_eq!(
            search(&["f(x) = f(y) -> x = y", "exists y all x f(x) != y"], 5),
            None
        );
        // Existentials under universals become Skolem functions.
        let m = search(
            &[
                "all x exists y r(x, y)",
                "all x -r(x, x)",
                "exists x p(x)",
                "exists x -p(x)",
            ],
            4,
        )
        .expect("a model");
        assert_eq!(m.domain_size, 2);
        // <-> in both polarities.
        let m =
            search(&["all x (p(x) <-> -q(x))", "-(p(a) <-> q(b))", "a != b"], 4).expect("a model");
        assert_eq!(m.domain_size, 2);
    }

    #[test]
    fn a_deeply_nested_equation_has_a_model_of_size_four() {
        // The cell search alone guesses whole tables here; Z3 on the ground
        // expansion finds the model (see `ground`).
        let m = search(
            &[
                "g(x) = M * x",
                "f(x,y) = (H * x) + (K * y)",
                "f(f(a,b),c) != f(a,f(b,c))",
                "g(f(g(f(y,f(x,z))),f(y,f(f(x,x),g(x))))) = z",
            ],
            6,
        )
        .expect("a model");
        assert_eq!(m.domain_size, 4);
    }

    #[test]
    fn the_smallest_non_commutative_group_has_six_elements() {
        let m = search(
            &[
                "(x * y) * z = x * (y * z)",
                "exists e ((all x (e * x = x)) & (all x exists y (y * x = e)))",
                "exists a exists b (a * b != b * a)",
            ],
            8,
        )
        .expect("a model");
        assert_eq!(m.domain_size, 6);
        assert_eq!(m.functions.len(), 1, "{m}");
    }
}

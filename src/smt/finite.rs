//! Mace4-style finite model search. The formulas are put in clause form
//! (negation normal form, Skolem functions for existentials, distribution
//! into clauses), every clause is flattened so that each literal is
//! `f(x1..xk) = y`, `p(x1..xk)` or `x = y` over variables, and for domain
//! sizes 1, 2, 3, … the clauses are instantiated over the elements into a
//! propositional problem for our SAT solver ([`super::sat`]): one variable
//! per (function cell, value) with exactly one value per cell, one per
//! predicate cell. A model found is a finite model of the formulas;
//! [`Countermodel::satisfies`] lets callers re-check it.
//!
//! Symmetry breaking (Mace4's least-number heuristic, restricted to
//! constants, Skolem constants included): every model is isomorphic to one
//! where the constants, in order, name elements in order of first
//! appearance, so `c_i <= i` and `c_i = v > 0` only if some earlier constant
//! is `v - 1`.
//!
//! Limits are counted, not timed: at most [`MAX_CLAUSES`] clauses and
//! [`MAX_GROUND_LITERALS`] ground literals per domain size.

use super::model::{Countermodel, Table, MAX_CELLS};
use super::sat::{self, Lit, Solver};
use super::{universal_closure, Signature, SymbolKind};
use crate::syntax::prover9::{Formula, Quantifier, Term};
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The most clauses the clause form may have.
const MAX_CLAUSES: usize = 20_000;

/// The most literals of one domain size's ground problem.
const MAX_GROUND_LITERALS: u128 = 8_000_000;

/// Searches domain sizes `1..=max_size` for a model of all `formulas` (free
/// variables universally closed), until `deadline` or until `stop` is
/// raised.
pub fn find_model(
    formulas: &[Formula],
    max_size: usize,
    deadline: Instant,
    stop: &Arc<AtomicBool>,
) -> Option<Countermodel> {
    let signature = Signature::of(formulas.iter()).ok()?;
    let problem = Clausal::of(formulas)?;
    let out_of_time = || Instant::now() >= deadline || stop.load(Ordering::Relaxed);
    for n in 1..=max_size {
        if std::env::var_os("ENTAIL_DEBUG_MACE").is_some() {
            eprintln!("size {n}: {} ground literals, {:?} left", problem.ground_literals(n), deadline.saturating_duration_since(Instant::now()));
        }
        if out_of_time() || problem.ground_literals(n) > MAX_GROUND_LITERALS {
            return None;
        }
        match problem.solve(n, &out_of_time)? {
            Some(values) => return problem.countermodel(&signature, n, &values),
            None => continue,
        }
    }
    None
}

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

/// A flat literal over clause variables.
#[derive(Clone, PartialEq, Eq)]
enum Flat {
    /// `f(args) = value`, or `!=` when not positive.
    Fun {
        sym: usize,
        args: Vec<u32>,
        value: u32,
        positive: bool,
    },
    Pred {
        sym: usize,
        args: Vec<u32>,
        positive: bool,
    },
    Eq {
        a: u32,
        b: u32,
        positive: bool,
    },
}

impl Flat {
    fn vars_mut(&mut self) -> Vec<&mut u32> {
        match self {
            Flat::Fun { args, value, .. } => args.iter_mut().chain([value]).collect(),
            Flat::Pred { args, .. } => args.iter_mut().collect(),
            Flat::Eq { a, b, .. } => vec![a, b],
        }
    }
}

/// A flat clause whose variables are `0..vars`.
struct FlatClause {
    vars: usize,
    lits: Vec<Flat>,
}

/// The flattened clause form of a problem.
struct Clausal {
    symbols: Vec<Symbol>,
    clauses: Vec<FlatClause>,
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

/// Names every compound subterm of one clause by a variable `z`, adding the
/// literal `t != z` (so the clause reads "if t = z then …").
struct Flattener {
    next: u32,
    named: HashMap<T, u32>,
    definitions: Vec<Flat>,
}

impl Flattener {
    fn name(&mut self, t: &T) -> u32 {
        match t {
            T::Var(v) => *v,
            T::App(f, args) => {
                if let Some(&z) = self.named.get(t) {
                    return z;
                }
                let args = args.iter().map(|a| self.name(a)).collect();
                let z = self.next;
                self.next += 1;
                self.definitions.push(Flat::Fun {
                    sym: *f,
                    args,
                    value: z,
                    positive: false,
                });
                self.named.insert(t.clone(), z);
                z
            }
        }
    }

    /// `f(args) = other` (or `!=`) as a flat literal.
    fn equation(&mut self, f: usize, args: &[T], other: &T, positive: bool) -> Flat {
        let args = args.iter().map(|a| self.name(a)).collect();
        let value = self.name(other);
        Flat::Fun {
            sym: f,
            args,
            value,
            positive,
        }
    }
}

/// The flat form of `clause` with variables `0..k`, or `None` for a
/// tautology.
fn flatten(clause: &Clause, first_fresh: u32) -> Option<FlatClause> {
    let mut fl = Flattener {
        next: first_fresh,
        named: HashMap::new(),
        definitions: Vec::new(),
    };
    let mut lits = Vec::new();
    for (positive, atom) in clause {
        let positive = *positive;
        let lit = match atom {
            Atom::Eq(a, b) if a == b => {
                if positive {
                    return None;
                }
                continue;
            }
            Atom::Eq(T::Var(a), T::Var(b)) => Flat::Eq {
                a: *a,
                b: *b,
                positive,
            },
            Atom::Eq(T::App(f, args), other) | Atom::Eq(other, T::App(f, args)) => {
                fl.equation(*f, args, other, positive)
            }
            Atom::Pred(p, args) => Flat::Pred {
                sym: *p,
                args: args.iter().map(|a| fl.name(a)).collect(),
                positive,
            },
        };
        lits.push(lit);
    }
    lits.extend(fl.definitions);
    // `x != y | C` is `C` with x replaced by y.
    while let Some(at) = lits
        .iter()
        .position(|l| matches!(l, Flat::Eq { positive: false, .. }))
    {
        let Flat::Eq { a, b, .. } = lits.remove(at) else {
            continue;
        };
        for l in &mut lits {
            for v in l.vars_mut() {
                if *v == a {
                    *v = b;
                }
            }
        }
    }
    let mut kept: Vec<Flat> = Vec::with_capacity(lits.len());
    for l in lits {
        if let Flat::Eq { a, b, positive } = l {
            if a == b && positive {
                return None;
            }
        }
        if !kept.contains(&l) {
            kept.push(l);
        }
    }
    // Renumber the variables densely.
    let mut order: Vec<u32> = Vec::new();
    for l in &mut kept {
        for v in l.vars_mut() {
            let i = match order.iter().position(|x| x == v) {
                Some(i) => i,
                None => {
                    order.push(*v);
                    order.len() - 1
                }
            };
            *v = i as u32;
        }
    }
    Some(FlatClause {
        vars: order.len(),
        lits: kept,
    })
}

impl Clausal {
    fn of(formulas: &[Formula]) -> Option<Clausal> {
        let mut c = Clausifier::default();
        let mut clauses = Vec::new();
        for f in formulas {
            let nnf = c.nnf(&universal_closure(f), true, &mut Vec::new())?;
            let quantifier_free = c.skolemize(nnf, &mut Vec::new(), &mut HashMap::new());
            clauses.extend(cnf(quantifier_free)?);
            if clauses.len() > MAX_CLAUSES {
                return None;
            }
        }
        let first_fresh = c.next_var;
        let clauses = clauses
            .iter()
            .filter_map(|cl| flatten(cl, first_fresh))
            .collect();
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

    /// The propositional variable numbering at size `n`: each symbol's
    /// first variable, and the total.
    fn layout(&self, n: usize) -> Option<(Vec<u32>, u32)> {
        let mut base = Vec::with_capacity(self.symbols.len());
        let mut next: u64 = 0;
        for s in &self.symbols {
            base.push(u32::try_from(next).ok()?);
            let cells = (n as u64).checked_pow(s.arity as u32)?;
            let per = if s.kind == SymbolKind::Function {
                n as u64
            } else {
                1
            };
            next = next.checked_add(cells.checked_mul(per)?)?;
        }
        Some((base, u32::try_from(next).ok()?))
    }

    /// A bound on the literals of the ground problem at size `n`.
    fn ground_literals(&self, n: usize) -> u128 {
        let n = n as u128;
        let instances: u128 = self
            .clauses
            .iter()
            .map(|c| {
                n.saturating_pow(c.vars as u32)
                    .saturating_mul(c.lits.len() as u128)
            })
            .fold(0, u128::saturating_add);
        let cells: u128 = self
            .symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Function)
            .map(|s| n.saturating_pow(s.arity as u32).saturating_mul(n * n))
            .fold(0, u128::saturating_add);
        instances.saturating_add(cells)
    }

    /// The SAT answer at size `n`: `Some(Some(values))` a model's variable
    /// values, `Some(None)` none of this size, `None` gave up.
    fn solve(&self, n: usize, out_of_time: &dyn Fn() -> bool) -> Option<Option<Vec<bool>>> {
        let (base, vars) = self.layout(n)?;
        let cell = |args: &[usize]| args.iter().fold(0usize, |acc, &a| acc * n + a);
        let fun = |sym: usize, c: usize, v: usize| base[sym] + (c * n + v) as u32;
        let mut solver = Solver::new(vars);
        // Exactly one value per function cell.
        for (s, symbol) in self.symbols.iter().enumerate() {
            if symbol.kind != SymbolKind::Function {
                continue;
            }
            for c in 0..n.pow(symbol.arity as u32) {
                let all: Vec<Lit> = (0..n).map(|v| sat::pos(fun(s, c, v))).collect();
                solver.add_clause(&all);
                for v in 0..n {
                    for w in v + 1..n {
                        solver.add_clause(&[sat::neg(fun(s, c, v)), sat::neg(fun(s, c, w))]);
                    }
                }
            }
        }
        // Constants name elements in order of first appearance.
        for (i, &c) in self.constants.iter().enumerate() {
            for v in 1..n {
                let mut clause = vec![sat::neg(fun(c, 0, v))];
                if v <= i {
                    clause.extend(self.constants[..i].iter().map(|&d| sat::pos(fun(d, 0, v - 1))));
                }
                solver.add_clause(&clause);
            }
        }
        let mut lits: Vec<Lit> = Vec::new();
        let mut count: u64 = 0;
        for clause in &self.clauses {
            let mut at = vec![0usize; clause.vars];
            'instances: loop {
                count += 1;
                if count % 4096 == 0 && out_of_time() {
                    return None;
                }
                lits.clear();
                let mut satisfied = false;
                for l in &clause.lits {
                    match l {
                        Flat::Eq { a, b, positive } => {
                            if (at[*a as usize] == at[*b as usize]) == *positive {
                                satisfied = true;
                                break;
                            }
                        }
                        Flat::Fun {
                            sym,
                            args,
                            value,
                            positive,
                        } => {
                            let args: Vec<usize> = args.iter().map(|&a| at[a as usize]).collect();
                            let v = fun(*sym, cell(&args), at[*value as usize]);
                            lits.push(if *positive { sat::pos(v) } else { sat::neg(v) });
                        }
                        Flat::Pred {
                            sym,
                            args,
                            positive,
                        } => {
                            let args: Vec<usize> = args.iter().map(|&a| at[a as usize]).collect();
                            let v = base[*sym] + cell(&args) as u32;
                            lits.push(if *positive { sat::pos(v) } else { sat::neg(v) });
                        }
                    }
                }
                if !satisfied {
                    solver.add_clause(&lits);
                }
                // The next assignment of the clause's variables.
                for slot in at.iter_mut().rev() {
                    *slot += 1;
                    if *slot < n {
                        continue 'instances;
                    }
                    *slot = 0;
                }
                break;
            }
        }
        let mut stop = || out_of_time();
        match solver.solve(&mut stop)? {
            false => Some(None),
            true => Some(Some((0..vars).map(|v| solver.value(v)).collect())),
        }
    }

    /// The input symbols' tables (Skolem functions left out), in
    /// `signature`'s order.
    fn countermodel(&self, signature: &Signature, n: usize, values: &[bool]) -> Option<Countermodel> {
        let (base, _) = self.layout(n)?;
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
            let sym = self
                .symbols
                .iter()
                .position(|s| !s.skolem && s.name == name && s.arity == arity && s.kind == kind);
            let values: Vec<usize> = (0..cells)
                .map(|c| match (sym, kind) {
                    // A symbol the clause form lost (in a tautology) is free.
                    (None, _) => 0,
                    (Some(s), SymbolKind::Predicate) => {
                        usize::from(values[(base[s] as usize) + c])
                    }
                    (Some(s), SymbolKind::Function) => (0..n)
                        .find(|&v| values[base[s] as usize + c * n + v])
                        .unwrap_or(0),
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
            Instant::now() + Duration::from_secs(60),
            &stop,
        )?;
        for g in &formulas {
            assert_eq!(model.satisfies(g), Some(true), "{g}\n{model}");
        }
        Some(model)
    }

    #[test]
    fn flattening_names_subterms() {
        let c = Clausal::of(&[f("(x * y) * z = x * (y * z)")]).expect("clausal");
        assert_eq!(c.clauses.len(), 1);
        // x*y != u | y*z != w | x*w != v | u*z = v: six variables, four literals.
        assert_eq!((c.clauses[0].vars, c.clauses[0].lits.len()), (6, 4));
        // `x != y | p(x)` loses its disequality.
        let c = Clausal::of(&[f("x != y | p(x, y)")]).expect("clausal");
        assert_eq!((c.clauses[0].vars, c.clauses[0].lits.len()), (1, 1));
    }

    #[test]
    fn finds_small_models_and_proves_there_are_none() {
        // Two distinct elements need size 2.
        let m = search(&["a != b"], 4).expect("a model");
        assert_eq!(m.domain_size, 2);
        // An injective non-surjective function has no finite model.
        assert_eq!(
            search(
                &["f(x) = f(y) -> x = y", "exists y all x f(x) != y"],
                5
            ),
            None
        );
        // Existentials under universals become Skolem functions.
        let m = search(
            &["all x exists y r(x, y)", "all x -r(x, x)", "exists x p(x)", "exists x -p(x)"],
            4,
        )
        .expect("a model");
        assert_eq!(m.domain_size, 2);
        // <-> in both polarities.
        let m = search(&["all x (p(x) <-> -q(x))", "-(p(a) <-> q(b))", "a != b"], 4)
            .expect("a model");
        assert_eq!(m.domain_size, 2);
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
    }
}

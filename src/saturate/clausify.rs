//! Clausification: negation normal form with Skolemization in one pass,
//! then distribution into clauses, each clause tagged with the input
//! formula it came from.
//!
//! Chains of one connective (`a & b & c & …`, `a -> b -> …`, negations,
//! quantifier prefixes) are gathered with a work list, so a long flat chain
//! costs no recursion; only alternations of connectives recurse, and the
//! parsers bound those by their nesting limit.

use super::clause::Lit;
use super::term::{Sym, T, TRUE};
use crate::smt::{closed, free_variables, universal_closure};
use crate::syntax::prover9::{Formula, Quantifier, Term};
use hashbrown::{DefaultHashBuilder, HashTable};
use std::borrow::Cow;
use std::hash::BuildHasher;

/// The most clauses distribution may make of one input formula beyond its
/// literal count (a conjunction of n literals is n clauses, linear; it is
/// distributing disjunctions over conjunctions that can explode); beyond
/// it the problem is left to the other engines.
const MAX_CLAUSES: usize = 1000;

/// The most negation-normal-form nodes one input formula may become: an
/// equivalence is expanded into two copies of each side, so `a <=> (b <=>
/// (c <=> …))` doubles per level, and 40 levels would be 2^40 nodes.
const MAX_NODES: usize = 100_000;

/// The symbols of a problem: names, arities, and which are Skolem symbols.
#[derive(Debug, Default)]
pub(crate) struct Symbols {
    pub(crate) names: Vec<String>,
    pub(crate) arities: Vec<usize>,
    /// Whether each symbol is a predicate.
    predicates: Vec<bool>,
    /// The interned symbols by (name, arity, whether a predicate), compared
    /// through the vectors above: each name is stored once, and a symbol
    /// seen before costs a lookup and no allocation (a fact base of a
    /// million constants is a million symbols).
    /// Each entry keeps its hash, so growing the table rehashes no name.
    index: HashTable<(u64, Sym)>,
    hasher: DefaultHashBuilder,
    skolems: usize,
    /// The definitions' symbols (see [`RENAME_AT`]).
    defined: Vec<Sym>,
}

impl Symbols {
    fn new() -> Symbols {
        let mut s = Symbols::default();
        s.names.push("$true".into());
        s.arities.push(0);
        s.predicates.push(true);
        s
    }

    fn intern(&mut self, name: &str, arity: usize, predicate: bool) -> Sym {
        let Symbols {
            names,
            arities,
            predicates,
            index,
            hasher,
            ..
        } = self;
        let hash = hasher.hash_one((name, arity, predicate));
        let same = |&(h, s): &(u64, Sym)| {
            let i = s as usize;
            h == hash && arities[i] == arity && predicates[i] == predicate && names[i] == name
        };
        if let Some(&(_, s)) = index.find(hash, same) {
            return s;
        }
        let s = names.len() as Sym;
        names.push(name.to_string());
        arities.push(arity);
        predicates.push(predicate);
        index.insert_unique(hash, (hash, s), |&(h, _)| h);
        s
    }

    fn skolem(&mut self, arity: usize) -> Sym {
        self.skolems += 1;
        let s = self.names.len() as Sym;
        self.names.push(format!("sk{}", self.skolems));
        self.arities.push(arity);
        self.predicates.push(false);
        s
    }

    /// A fresh predicate that names a subformula (see [`RENAME_AT`]).
    fn definition(&mut self, arity: usize) -> Sym {
        let s = self.names.len() as Sym;
        self.defined.push(s);
        self.names.push(format!("def{}", self.defined.len()));
        self.arities.push(arity);
        self.predicates.push(true);
        s
    }

    /// Renumbers the symbols so that the definitions come right after `⊤`,
    /// least in the precedence (which follows symbol numbers within an
    /// arity), in `clauses` too. A clause `q ∨ d₁ ∨ … ∨ dₙ` then resolves
    /// on `q` before any definition is opened: with the definitions
    /// greatest, `(a₀ ∧ b₀) ∨ … ∨ (a₁₁ ∧ b₁₁)` opened every `dᵢ` first,
    /// into the 2¹² clauses that naming avoids.
    fn definitions_least(&mut self, clauses: &mut [(Vec<Lit>, usize)]) {
        if self.defined.is_empty() {
            return;
        }
        let n = self.names.len();
        let mut is_definition = vec![false; n];
        for &d in &self.defined {
            is_definition[d as usize] = true;
        }
        // The old symbols in their new order.
        let order: Vec<Sym> = std::iter::once(TRUE)
            .chain(self.defined.iter().copied())
            .chain((1..n as Sym).filter(|&s| !is_definition[s as usize]))
            .collect();
        let mut new_of = vec![TRUE; n];
        for (new, &old) in order.iter().enumerate() {
            new_of[old as usize] = new as Sym;
        }
        for lit in clauses.iter_mut().flat_map(|(lits, _)| lits.iter_mut()) {
            *lit = lit.map(|t| renumbered(t, &new_of));
        }
        let mut names = std::mem::take(&mut self.names);
        self.names = order
            .iter()
            .map(|&s| std::mem::take(&mut names[s as usize]))
            .collect();
        self.arities = order.iter().map(|&s| self.arities[s as usize]).collect();
        self.predicates = order.iter().map(|&s| self.predicates[s as usize]).collect();
        for (_, s) in self.index.iter_mut() {
            *s = new_of[*s as usize];
        }
        self.defined = (1..=self.defined.len() as Sym).collect();
    }
}

/// `t` with every symbol `s` replaced by `new_of[s]`.
fn renumbered(t: &T, new_of: &[Sym]) -> T {
    match t {
        T::V(v) => T::V(*v),
        T::F(s, args) => T::F(
            new_of[*s as usize],
            args.iter().map(|a| renumbered(a, new_of)).collect(),
        ),
    }
}

/// A formula in negation normal form, n-ary.
enum Nnf {
    Lit(Lit),
    And(Vec<Nnf>),
    Or(Vec<Nnf>),
}

/// The clauses of `premises` and the negated `goal`: each clause's literals
/// and the index of its formula (the goal is `premises.len()`); or why the
/// problem is not taken.
pub(crate) fn clausify(
    premises: &[&Formula],
    goal: Option<&Formula>,
    symbols: &mut Symbols,
) -> Result<Vec<(Vec<Lit>, usize)>, String> {
    *symbols = Symbols::new();
    let mut out = Vec::new();
    let negated_goal = goal.map(|g| Formula::Not(Box::new(universal_closure(g))));
    for (i, f) in premises
        .iter()
        .map(|p| closed(p))
        .chain(negated_goal.map(Cow::Owned))
        .enumerate()
    {
        let mut c = Converter {
            symbols,
            env: Vec::new(),
            universals: Vec::new(),
            next_var: 0,
            nodes: 0,
        };
        let nnf = c.nnf(&f, true)?;
        let limit = MAX_CLAUSES.max(literals(&nnf));
        let mut namer = Namer {
            symbols,
            definitions: Vec::new(),
        };
        let clauses = cnf(&nnf, limit, &mut namer)?;
        for clause in namer.definitions.into_iter().chain(clauses) {
            out.push((clause, i));
        }
    }
    symbols.definitions_least(&mut out);
    Ok(out)
}

struct Converter<'s> {
    symbols: &'s mut Symbols,
    /// Bound names, innermost last: a variable or a Skolem term.
    env: Vec<(String, T)>,
    /// The universal variables in scope.
    universals: Vec<u32>,
    next_var: u32,
    /// Calls of `nnf` so far for this formula (see [`MAX_NODES`]).
    nodes: usize,
}

/// Whether `f` at polarity `pos` is a conjunction (`Some(true)`) or a
/// disjunction (`Some(false)`), and its two parts with their polarities.
fn junction(f: &Formula, pos: bool) -> Option<(bool, [(&Formula, bool); 2])> {
    match f {
        Formula::And(a, b) => Some((pos, [(a, pos), (b, pos)])),
        Formula::Or(a, b) => Some((!pos, [(a, pos), (b, pos)])),
        Formula::Implies(a, b) => Some((!pos, [(a, !pos), (b, pos)])),
        Formula::ImpliedBy(b, a) => Some((!pos, [(a, !pos), (b, pos)])),
        _ => None,
    }
}

impl Converter<'_> {
    fn nnf(&mut self, f: &Formula, pos: bool) -> Result<Nnf, String> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(format!(
                "more than {MAX_NODES} nodes in one formula's negation normal form"
            ));
        }
        let (env_len, univ_len) = (self.env.len(), self.universals.len());
        // Negations and quantifiers, in a loop.
        let (mut f, mut pos) = (f, pos);
        loop {
            match f {
                Formula::Not(g) => {
                    pos = !pos;
                    f = g;
                }
                Formula::Quant(q, v, body) => {
                    if (*q == Quantifier::All) == pos {
                        let id = self.next_var;
                        self.next_var += 1;
                        self.env.push((v.clone(), T::V(id)));
                        self.universals.push(id);
                    } else {
                        let term = self.skolem_term(v, body);
                        self.env.push((v.clone(), term));
                    }
                    f = body;
                }
                _ => break,
            }
        }
        let result = match f {
            Formula::True => Ok(if pos {
                Nnf::And(Vec::new())
            } else {
                Nnf::Or(Vec::new())
            }),
            Formula::False => Ok(if pos {
                Nnf::Or(Vec::new())
            } else {
                Nnf::And(Vec::new())
            }),
            Formula::Atom(t) => self.atom(t, pos).map(Nnf::Lit),
            Formula::Iff(a, b) => {
                // pos: (¬a ∨ b) ∧ (a ∨ ¬b); neg: (a ∨ b) ∧ (¬a ∨ ¬b).
                let first = Nnf::Or(vec![self.nnf(a, false)?, self.nnf(b, pos)?]);
                let second = Nnf::Or(vec![self.nnf(a, true)?, self.nnf(b, !pos)?]);
                Ok(Nnf::And(vec![first, second]))
            }
            _ => match junction(f, pos) {
                Some((conj, parts)) => self.chain(conj, parts),
                None => Err("unexpected formula".to_string()),
            },
        };
        self.env.truncate(env_len);
        self.universals.truncate(univ_len);
        result
    }

    /// The operands of a chain of one junction kind, gathered by a work
    /// list, each converted.
    fn chain(&mut self, conj: bool, parts: [(&Formula, bool); 2]) -> Result<Nnf, String> {
        let mut todo: Vec<(&Formula, bool)> = vec![parts[1], parts[0]];
        let mut items = Vec::new();
        while let Some((mut g, mut p)) = todo.pop() {
            while let Formula::Not(h) = g {
                g = h;
                p = !p;
            }
            match junction(g, p) {
                Some((c, [a, b])) if c == conj => {
                    todo.push(b);
                    todo.push(a);
                }
                _ => items.push(self.nnf(g, p)?),
            }
        }
        Ok(if conj {
            Nnf::And(items)
        } else {
            Nnf::Or(items)
        })
    }

    /// A fresh Skolem symbol applied to the universal variables in scope
    /// that `body` uses (other than `v`, which it binds).
    fn skolem_term(&mut self, v: &str, body: &Formula) -> T {
        let mut args: Vec<u32> = Vec::new();
        for name in free_variables(body) {
            if name == v {
                continue;
            }
            if let Some((_, t)) = self.env.iter().rev().find(|(n, _)| *n == name) {
                t.each_var(&mut |x| {
                    if !args.contains(&x) {
                        args.push(x);
                    }
                });
            }
        }
        args.sort_unstable();
        let s = self.symbols.skolem(args.len());
        T::F(s, args.into_iter().map(T::V).collect())
    }

    fn atom(&mut self, t: &Term, pos: bool) -> Result<Lit, String> {
        match t {
            Term::App(name, args) if name == "=" && args.len() == 2 => Ok(Lit::equation(
                pos,
                self.term(&args[0])?,
                self.term(&args[1])?,
            )),
            Term::App(name, args) => {
                let p = self.symbols.intern(name, args.len(), true);
                Ok(Lit::pred(pos, T::F(p, self.terms(args)?)))
            }
            Term::Var(v) => Err(format!("variable `{v}` used as a formula")),
        }
    }

    fn term(&mut self, t: &Term) -> Result<T, String> {
        match t {
            Term::Var(v) => self
                .env
                .iter()
                .rev()
                .find(|(n, _)| n == v)
                .map(|(_, t)| t.clone())
                .ok_or_else(|| format!("unbound variable `{v}`")),
            Term::App(name, args) => {
                let f = self.symbols.intern(name, args.len(), false);
                debug_assert_ne!(f, TRUE);
                Ok(T::F(f, self.terms(args)?))
            }
        }
    }

    /// `args` converted, in a vector of exactly their number (collecting
    /// through `Result` reserves four, 4x the memory of a unary term).
    fn terms(&mut self, args: &[Term]) -> Result<Vec<T>, String> {
        let mut converted = Vec::with_capacity(args.len());
        for a in args {
            converted.push(self.term(a)?);
        }
        Ok(converted)
    }
}

/// How many literals an NNF formula has.
fn literals(f: &Nnf) -> usize {
    match f {
        Nnf::Lit(_) => 1,
        Nnf::And(parts) | Nnf::Or(parts) => parts.iter().map(literals).sum(),
    }
}

/// Where a disjunction's distribution would make more clauses than this,
/// its parts with the most clauses are named by fresh predicates until it
/// makes at most this many (definitional clausal form, as E and Vampire
/// do): `p ∨ (q₁ ∧ … ∧ qₙ)` becomes `p ∨ d(x̄)` and `¬d(x̄) ∨ qᵢ`, which is
/// satisfiable exactly when the formula is. Distribution copies each
/// clause of one part once per clause of the others, so without names a
/// disjunction of conjunctions grows as their product (NLP007+1, ALG015+1:
/// over a thousand clauses) and the search with it.
const RENAME_AT: usize = 32;

/// The definitions [`cnf`] introduces, and the symbols their names join.
struct Namer<'s> {
    symbols: &'s mut Symbols,
    /// The clauses `¬d(x̄) ∨ C` of every named part.
    definitions: Vec<Vec<Lit>>,
}

impl Namer<'_> {
    /// The literal `d(x̄)` that stands for the part with `clauses`, `x̄`
    /// its variables; its definition clauses are kept.
    fn name(&mut self, clauses: Vec<Vec<Lit>>) -> Lit {
        let mut vars = Vec::new();
        for lit in clauses.iter().flatten() {
            for t in [&lit.l, &lit.r] {
                t.each_var(&mut |v| {
                    if !vars.contains(&v) {
                        vars.push(v);
                    }
                });
            }
        }
        let d = self.symbols.definition(vars.len());
        let atom = T::F(d, vars.into_iter().map(T::V).collect());
        for mut clause in clauses {
            clause.insert(0, Lit::pred(false, atom.clone()));
            self.definitions.push(clause);
        }
        Lit::pred(true, atom)
    }
}

/// The clauses of an NNF formula, at most `limit`: by distribution, with
/// the parts of a disjunction named where [`RENAME_AT`] says.
fn cnf(f: &Nnf, limit: usize, namer: &mut Namer<'_>) -> Result<Vec<Vec<Lit>>, String> {
    let too_many = || format!("more than {limit} clauses from one formula");
    match f {
        Nnf::Lit(l) => Ok(vec![vec![l.clone()]]),
        Nnf::And(parts) => {
            let mut out = Vec::new();
            for p in parts {
                out.extend(cnf(p, limit, namer)?);
                if out.len() + namer.definitions.len() > limit {
                    return Err(too_many());
                }
            }
            Ok(out)
        }
        Nnf::Or(parts) => {
            let mut parts = parts
                .iter()
                .map(|p| cnf(p, limit, namer))
                .collect::<Result<Vec<_>, _>>()?;
            let product = |parts: &[Vec<Vec<Lit>>]| {
                parts.iter().fold(1usize, |n, p| n.saturating_mul(p.len()))
            };
            while product(&parts) > RENAME_AT {
                // The part with the most clauses (the first of equals).
                let (i, _) = parts
                    .iter()
                    .enumerate()
                    .rev()
                    .max_by_key(|(_, p)| p.len())
                    .expect("a disjunction has parts");
                let named = std::mem::take(&mut parts[i]);
                parts[i] = vec![vec![namer.name(named)]];
            }
            if namer.definitions.len() > limit {
                return Err(too_many());
            }
            let mut acc: Vec<Vec<Lit>> = vec![Vec::new()];
            for next in parts {
                // A part of one clause extends every clause in place: a
                // copy per part made a disjunction of n literals cost n²
                // (30,000 literals took 20 s).
                if let [only] = next.as_slice() {
                    for a in &mut acc {
                        a.extend(only.iter().cloned());
                    }
                    continue;
                }
                if acc.len().saturating_mul(next.len()) > limit {
                    return Err(too_many());
                }
                acc = acc
                    .iter()
                    .flat_map(|a| {
                        next.iter().map(move |b| {
                            let mut c = a.clone();
                            c.extend(b.iter().cloned());
                            c
                        })
                    })
                    .collect();
            }
            Ok(acc)
        }
    }
}

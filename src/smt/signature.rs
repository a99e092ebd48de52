//! The symbols a problem uses, checked for consistent use, and the variable
//! helpers (free variables, universal closure) the encoding relies on.

use crate::syntax::prover9::{Formula, Quantifier, Term};
use hashbrown::{DefaultHashBuilder, HashTable};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::hash::BuildHasher;

/// Whether a symbol denotes a relation (predicate) or an operation (function;
/// constants are 0-ary functions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    /// Applied at formula level: `p(a)`, `A1`.
    Predicate,
    /// Applied inside terms: `f(x)`, `a`.
    Function,
}

/// Why a formula cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct EncodeError {
    /// One line, lower case.
    pub message: String,
}

impl EncodeError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> EncodeError {
        EncodeError {
            message: message.into(),
        }
    }
}

/// The symbols of a problem, keyed by name and arity, as LADR keys its symbol
/// table: `p/1` and `p/2` are different symbols. Using one name and arity both
/// as a predicate and as a function is an error, because Prover9 rejects it
/// and an encoding would silently treat them as unrelated.
#[derive(Debug, Clone, Default)]
pub struct Signature {
    /// Each symbol as (name, arity, how it is used), in the order met;
    /// `symbols()` gives them in name order.
    entries: Vec<(String, usize, SymbolKind)>,
    /// `entries` by name and arity: a symbol seen before costs a lookup and
    /// no allocation (a long formula repeats its symbols, and a fact base
    /// of a million constants has a million of them).
    /// Each entry keeps its hash, so growing the table rehashes no name.
    index: HashTable<(u64, u32)>,
    hasher: DefaultHashBuilder,
}

/// Equal when they hold the same symbols, whatever order they were met in.
impl PartialEq for Signature {
    fn eq(&self, other: &Signature) -> bool {
        self.symbols().eq(other.symbols())
    }
}

impl Eq for Signature {}

impl Signature {
    /// An empty signature.
    pub fn new() -> Signature {
        Signature::default()
    }

    /// The signature of `formulas`, or the first inconsistent use.
    pub fn of<'a>(
        formulas: impl IntoIterator<Item = &'a Formula>,
    ) -> Result<Signature, EncodeError> {
        let mut s = Signature::new();
        for f in formulas {
            s.add_formula(f)?;
        }
        Ok(s)
    }

    /// Adds the symbols of `formula`.
    pub fn add_formula(&mut self, formula: &Formula) -> Result<(), EncodeError> {
        match formula {
            Formula::True | Formula::False => Ok(()),
            Formula::Atom(Term::App(name, args)) => {
                if !(name == "=" && args.len() == 2) {
                    self.add(name, args.len(), SymbolKind::Predicate)?;
                }
                args.iter().try_for_each(|a| self.add_term(a))
            }
            Formula::Atom(Term::Var(_)) => Ok(()),
            Formula::Not(f) | Formula::Quant(_, _, f) => self.add_formula(f),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::ImpliedBy(a, b)
            | Formula::Iff(a, b) => {
                self.add_formula(a)?;
                self.add_formula(b)
            }
        }
    }

    fn add_term(&mut self, term: &Term) -> Result<(), EncodeError> {
        match term {
            Term::Var(_) => Ok(()),
            Term::App(name, args) => {
                self.add(name, args.len(), SymbolKind::Function)?;
                args.iter().try_for_each(|a| self.add_term(a))
            }
        }
    }

    fn add(&mut self, name: &str, arity: usize, kind: SymbolKind) -> Result<(), EncodeError> {
        let Signature {
            entries,
            index,
            hasher,
        } = self;
        let hash = hasher.hash_one((name, arity));
        let known = index
            .find(hash, |&(h, i)| {
                let (n, a, _) = &entries[i as usize];
                h == hash && *a == arity && n == name
            })
            .map(|&(_, i)| entries[i as usize].2);
        match known {
            Some(k) if k != kind => Err(EncodeError::new(format!(
                "symbol `{name}` with {arity} argument{} is used both as a predicate and as a function",
                if arity == 1 { "" } else { "s" }
            ))),
            Some(_) => Ok(()),
            None => {
                let i = u32::try_from(entries.len())
                    .map_err(|_| EncodeError::new("more than 2^32 symbols"))?;
                entries.push((name.to_string(), arity, kind));
                index.insert_unique(hash, (hash, i), |&(h, _)| h);
                Ok(())
            }
        }
    }

    /// Every symbol as `(name, arity, kind)`, sorted by name then arity.
    pub fn symbols(&self) -> impl Iterator<Item = (&str, usize, SymbolKind)> {
        let mut all: Vec<(&str, usize, SymbolKind)> = self
            .entries
            .iter()
            .map(|(n, a, k)| (n.as_str(), *a, *k))
            .collect();
        all.sort_unstable_by(|x, y| (x.0, x.1).cmp(&(y.0, y.1)));
        all.into_iter()
    }

    /// Whether the problem is propositional: only 0-ary predicates.
    pub fn is_propositional(&self) -> bool {
        self.entries
            .iter()
            .all(|(_, a, k)| *a == 0 && *k == SymbolKind::Predicate)
    }
}

/// The free variables of `formula`, in order of first occurrence.
pub fn free_variables(formula: &Formula) -> Vec<String> {
    // Names are borrowed on the way and copied only when found free: a
    // model search checks every formula's closure once per candidate.
    fn term<'f>(
        t: &'f Term,
        bound: &[&'f str],
        seen: &mut BTreeSet<&'f str>,
        out: &mut Vec<String>,
    ) {
        match t {
            Term::Var(v) => {
                if !bound.contains(&v.as_str()) && seen.insert(v) {
                    out.push(v.clone());
                }
            }
            Term::App(_, args) => args.iter().for_each(|a| term(a, bound, seen, out)),
        }
    }
    fn walk<'f>(
        f: &'f Formula,
        bound: &mut Vec<&'f str>,
        seen: &mut BTreeSet<&'f str>,
        out: &mut Vec<String>,
    ) {
        match f {
            Formula::True | Formula::False => {}
            Formula::Atom(t) => term(t, bound, seen, out),
            Formula::Not(g) => walk(g, bound, seen, out),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::ImpliedBy(a, b)
            | Formula::Iff(a, b) => {
                walk(a, bound, seen, out);
                walk(b, bound, seen, out);
            }
            Formula::Quant(_, v, body) => {
                bound.push(v);
                walk(body, bound, seen, out);
                bound.pop();
            }
        }
    }
    let mut out = Vec::new();
    walk(formula, &mut Vec::new(), &mut BTreeSet::new(), &mut out);
    out
}

/// `all x1 … all xn formula` over its free variables, as Prover9 reads an
/// assumption (and a goal, before negating it).
pub fn universal_closure(formula: &Formula) -> Formula {
    closed(formula).into_owned()
}

/// [`universal_closure`], borrowed when `formula` has no free variable (a
/// large fact base is closed already, and copying it was a twentieth of
/// proving it).
pub fn closed(formula: &Formula) -> Cow<'_, Formula> {
    let free = free_variables(formula);
    if free.is_empty() {
        return Cow::Borrowed(formula);
    }
    Cow::Owned(free.into_iter().rev().fold(formula.clone(), |body, v| {
        Formula::Quant(Quantifier::All, v, Box::new(body))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_variables_skip_bound_ones_and_keep_first_occurrence_order() {
        let f = Formula::and(
            Formula::Atom(Term::App(
                "p".into(),
                vec![Term::Var("y".into()), Term::Var("x".into())],
            )),
            Formula::Quant(
                Quantifier::All,
                "y".into(),
                Box::new(Formula::Atom(Term::App(
                    "q".into(),
                    vec![Term::Var("y".into()), Term::Var("z".into())],
                ))),
            ),
        );
        assert_eq!(free_variables(&f), vec!["y", "x", "z"]);
        let closed = universal_closure(&f);
        assert!(free_variables(&closed).is_empty());
        match closed {
            Formula::Quant(Quantifier::All, v, _) => assert_eq!(v, "y"),
            other => panic!("expected a quantifier, got {other:?}"),
        }
    }

    #[test]
    fn a_symbol_used_as_predicate_and_function_is_rejected_per_arity() {
        let p_of_a = Formula::Atom(Term::App("p".into(), vec![Term::App("a".into(), vec![])]));
        let a_as_atom = Formula::atom("a");
        let err = Signature::of([&p_of_a, &a_as_atom]).expect_err("a/0 is both");
        assert_eq!(
            err.message,
            "symbol `a` with 0 arguments is used both as a predicate and as a function"
        );
        // p/1 and p/2 are different symbols, as in LADR.
        let p2 = Formula::Atom(Term::App(
            "p".into(),
            vec![Term::App("b".into(), vec![]), Term::App("b".into(), vec![])],
        ));
        let s = Signature::of([&p_of_a, &p2]).expect("p/1 and p/2 coexist");
        let names: Vec<_> = s.symbols().map(|(n, a, k)| (n.to_string(), a, k)).collect();
        assert_eq!(
            names,
            vec![
                ("a".into(), 0, SymbolKind::Function),
                ("b".into(), 0, SymbolKind::Function),
                ("p".into(), 1, SymbolKind::Predicate),
                ("p".into(), 2, SymbolKind::Predicate)
            ]
        );
    }
}

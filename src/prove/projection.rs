//! All minimal supports of a ground problem by projection: the
//! premises, each guarded by a selector `s_i`, and the negated goal are put in
//! CNF, then every atom is eliminated by Davis–Putnam resolution. What remains
//! are clauses `¬s_i ∨ … ∨ ¬s_k`, each saying "these premises cannot all hold
//! with the goal false", i.e. they entail the goal; after subsumption, exactly
//! the minimal supports.
//!
//! Why not only MARCO: MARCO proves it has found every support by visiting
//! every maximal non-entailing subset, and LogicGraph instances, whose
//! supports are nearly disjoint, have products of support sizes of those
//! (millions for the Large tier). Elimination needs no such certificate. It
//! is used for ground problems only (propositional, or ground atoms without
//! equality, as LogicGraph's instantiated form), within a clause budget, and its
//! answers are re-checked with Z3 by the caller.

use crate::syntax::prover9::{Formula, Term};
use std::collections::{BTreeMap, BTreeSet};

/// A clause: sorted, duplicate-free literals; `+v`/`-v` for variable `v ≥ 1`.
type Clause = Vec<i32>;

/// The most clauses kept at any time; beyond it the projection gives up.
const CLAUSE_BUDGET: usize = 50_000;

/// The most clauses one formula's CNF may have (distribution can explode).
const FORMULA_BUDGET: usize = 4096;

/// Propositional variables for ground atoms. Without variables, quantifiers
/// and equality, distinct ground atoms (`p`, `q(a)`, `r(f(b), c)`) can take
/// truth values independently (interpret each ground term as itself), so a
/// ground problem is exactly its propositional abstraction.
struct Atoms {
    index: BTreeMap<Term, i32>,
}

impl Atoms {
    /// The variable of `atom`, or `None` if it has variables or is an
    /// equation.
    fn var(&mut self, atom: &Term) -> Option<i32> {
        fn ground(t: &Term) -> bool {
            match t {
                Term::Var(_) => false,
                Term::App(_, args) => args.iter().all(ground),
            }
        }
        match atom {
            Term::App(name, args) if name == "=" && args.len() == 2 => return None,
            _ if !ground(atom) => return None,
            _ => {}
        }
        let next = self.index.len() as i32 + 1;
        Some(*self.index.entry(atom.clone()).or_insert(next))
    }
}

/// CNF of `f` (or of `-f` when `negated`), or `None` if it is not
/// ground or too large.
fn cnf(f: &Formula, negated: bool, atoms: &mut Atoms) -> Option<Vec<Clause>> {
    let and = |a: Vec<Clause>, b: Vec<Clause>| -> Option<Vec<Clause>> {
        let mut out = a;
        out.extend(b);
        (out.len() <= FORMULA_BUDGET).then_some(out)
    };
    let or = |a: Vec<Clause>, b: Vec<Clause>| -> Option<Vec<Clause>> {
        if a.len().saturating_mul(b.len()) > FORMULA_BUDGET {
            return None;
        }
        let mut out = Vec::new();
        for x in &a {
            for y in &b {
                if let Some(c) = normalize(x.iter().chain(y).copied().collect()) {
                    out.push(c);
                }
            }
        }
        Some(out)
    };
    match (f, negated) {
        (Formula::True, false) | (Formula::False, true) => Some(vec![]),
        (Formula::True, true) | (Formula::False, false) => Some(vec![vec![]]),
        (Formula::Atom(atom), _) => {
            let v = atoms.var(atom)?;
            Some(vec![vec![if negated { -v } else { v }]])
        }
        (Formula::Quant(..), _) => None,
        (Formula::Not(g), _) => cnf(g, !negated, atoms),
        (Formula::And(a, b), false) | (Formula::Or(a, b), true) => {
            and(cnf(a, negated, atoms)?, cnf(b, negated, atoms)?)
        }
        (Formula::Or(a, b), false) | (Formula::And(a, b), true) => {
            or(cnf(a, negated, atoms)?, cnf(b, negated, atoms)?)
        }
        // a -> b is -a | b; its negation a & -b.
        (Formula::Implies(a, b), false) => or(cnf(a, true, atoms)?, cnf(b, false, atoms)?),
        (Formula::Implies(a, b), true) => and(cnf(a, false, atoms)?, cnf(b, true, atoms)?),
        (Formula::ImpliedBy(b, a), false) => or(cnf(a, true, atoms)?, cnf(b, false, atoms)?),
        (Formula::ImpliedBy(b, a), true) => and(cnf(a, false, atoms)?, cnf(b, true, atoms)?),
        (Formula::Iff(a, b), false) => and(
            or(cnf(a, true, atoms)?, cnf(b, false, atoms)?)?,
            or(cnf(a, false, atoms)?, cnf(b, true, atoms)?)?,
        ),
        (Formula::Iff(a, b), true) => and(
            or(cnf(a, false, atoms)?, cnf(b, false, atoms)?)?,
            or(cnf(a, true, atoms)?, cnf(b, true, atoms)?)?,
        ),
    }
}

/// Sorts and dedups; `None` for a tautology.
fn normalize(mut c: Clause) -> Option<Clause> {
    c.sort_unstable_by_key(|l| (l.abs(), *l));
    c.dedup();
    if c.windows(2).any(|w| w[0] == -w[1]) {
        None
    } else {
        Some(c)
    }
}

/// Whether sorted `a` is a subset of sorted `b` (same order as `normalize`).
fn subsumes(a: &Clause, b: &Clause) -> bool {
    let mut j = 0;
    for l in a {
        let key = (l.abs(), *l);
        while j < b.len() && (b[j].abs(), b[j]) < key {
            j += 1;
        }
        if j == b.len() || b[j] != *l {
            return false;
        }
        j += 1;
    }
    true
}

/// Drops duplicates and subsumed clauses.
fn reduce(mut clauses: Vec<Clause>) -> Vec<Clause> {
    clauses.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    clauses.dedup();
    let mut kept: Vec<Clause> = Vec::with_capacity(clauses.len());
    for c in clauses {
        if !kept.iter().any(|k| subsumes(k, &c)) {
            kept.push(c);
        }
    }
    kept
}

/// The minimal supports (as sorted premise indices, the list sorted), or
/// `None` when the problem is not ground (see [`Atoms`]) or the elimination
/// exceeds its budget.
pub fn minimal_supports(premises: &[&Formula], goal: &Formula) -> Option<Vec<Vec<usize>>> {
    let mut atoms = Atoms {
        index: BTreeMap::new(),
    };
    let mut clauses: Vec<Clause> = Vec::new();
    let mut per_premise = Vec::new();
    for p in premises {
        per_premise.push(cnf(p, false, &mut atoms)?);
    }
    let negated_goal = cnf(goal, true, &mut atoms)?;
    let n_atoms = atoms.index.len() as i32;
    // Selector of premise i is variable n_atoms + 1 + i; "premise i is used"
    // guards each of its clauses as ¬s_i ∨ clause.
    for (i, cs) in per_premise.into_iter().enumerate() {
        let s = n_atoms + 1 + i as i32;
        for mut c in cs {
            c.push(-s);
            clauses.extend(normalize(c));
        }
    }
    clauses.extend(negated_goal);
    let mut clauses = reduce(clauses);
    let mut remaining: BTreeSet<i32> = (1..=n_atoms).collect();
    while !remaining.is_empty() {
        // Eliminate the atom that adds the fewest clauses.
        let v = remaining.iter().copied().min_by_key(|&v| {
            let pos = clauses.iter().filter(|c| c.contains(&v)).count();
            let neg = clauses.iter().filter(|c| c.contains(&-v)).count();
            (pos * neg, v)
        })?;
        remaining.remove(&v);
        let (with_pos, rest): (Vec<Clause>, Vec<Clause>) =
            clauses.into_iter().partition(|c| c.contains(&v));
        let (with_neg, mut rest): (Vec<Clause>, Vec<Clause>) =
            rest.into_iter().partition(|c| c.contains(&-v));
        for a in &with_pos {
            for b in &with_neg {
                let resolvent: Clause = a
                    .iter()
                    .filter(|&&l| l != v)
                    .chain(b.iter().filter(|&&l| l != -v))
                    .copied()
                    .collect();
                rest.extend(normalize(resolvent));
            }
            if rest.len() > CLAUSE_BUDGET {
                return None;
            }
        }
        clauses = reduce(rest);
    }
    let mut supports: Vec<Vec<usize>> = clauses
        .into_iter()
        .map(|c| {
            c.into_iter()
                .map(|l| (l.unsigned_abs() as i32 - n_atoms - 1) as usize)
                .collect::<Vec<_>>()
        })
        .collect();
    for s in &mut supports {
        s.sort_unstable();
    }
    supports.sort();
    Some(supports)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(n: &str) -> Formula {
        Formula::atom(n)
    }

    #[test]
    fn finds_every_minimal_support_and_only_those() {
        // 0: p, 1: p -> g, 2: q, 3: q -> g, 4: p & q -> g (redundant), 5: r
        let premises = [
            a("p"),
            Formula::implies(a("p"), a("g")),
            a("q"),
            Formula::implies(a("q"), a("g")),
            Formula::implies(Formula::and(a("p"), a("q")), a("g")),
            a("r"),
        ];
        let refs: Vec<&Formula> = premises.iter().collect();
        let got = minimal_supports(&refs, &a("g")).expect("propositional");
        assert_eq!(got, vec![vec![0, 1], vec![0, 2, 4], vec![2, 3]]);
    }

    #[test]
    fn inconsistent_subsets_are_supports_and_valid_goals_need_none() {
        let premises = [a("p"), Formula::not(a("p"))];
        let refs: Vec<&Formula> = premises.iter().collect();
        assert_eq!(minimal_supports(&refs, &a("g")), Some(vec![vec![0, 1]]));
        let taut = Formula::or(a("g"), Formula::not(a("g")));
        assert_eq!(minimal_supports(&refs, &taut), Some(vec![vec![]]));
    }

    #[test]
    fn ground_atoms_are_propositional_variables() {
        let app = |p: &str, c: &str| {
            Formula::Atom(Term::App(p.into(), vec![Term::App(c.into(), vec![])]))
        };
        // 0: p(a), 1: p(b) -> g(a), 2: p(a) -> g(a): p(a) and p(b) differ.
        let premises = [
            app("p", "a"),
            Formula::implies(app("p", "b"), app("g", "a")),
            Formula::implies(app("p", "a"), app("g", "a")),
        ];
        let refs: Vec<&Formula> = premises.iter().collect();
        assert_eq!(
            minimal_supports(&refs, &app("g", "a")),
            Some(vec![vec![0, 2]])
        );
    }

    #[test]
    fn first_order_input_is_declined() {
        let a_eq_b = Formula::Atom(Term::App(
            "=".into(),
            vec![Term::App("a".into(), vec![]), Term::App("b".into(), vec![])],
        ));
        assert_eq!(minimal_supports(&[&a_eq_b], &a("g")), None);
        let fo = Formula::Atom(Term::App("p".into(), vec![Term::Var("x".into())]));
        assert_eq!(minimal_supports(&[&fo], &a("g")), None);
    }
}

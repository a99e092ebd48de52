//! Equivalent surface variants of a statement.
//!
//! Each rule is a syntactic transformation that is sound by construction;
//! the generator still checks every result with the truth-table engine, so a
//! bug here surfaces as an error rather than a wrong benchmark item.

use crate::syntax::prover9::{Formula, Term};
use std::collections::BTreeSet;

/// A rewriting rule; variants are written in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum RewriteRule {
    /// Double negation, idempotence, absorption, complements and constants.
    Simplification,
    /// Negation normal form: only `-`, `&`, `|`, with `-` on atoms.
    Nnf,
    /// `A -> B` becomes `-A | B`.
    ImplicationElimination,
    /// `-A | B` becomes `A -> B` (and `A | B` becomes `-A -> B`).
    ImplicationIntroduction,
    /// `A <-> B` becomes `(A -> B) & (B -> A)`.
    EquivalenceEliminationImplications,
    /// `A <-> B` becomes `(A & B) | (-A & -B)`.
    EquivalenceEliminationCases,
    /// `(A -> B) & (B -> A)` or `(A & B) | (-A & -B)` becomes `A <-> B`;
    /// failing those, the outermost `A -> B` becomes `A <-> A & B`.
    EquivalenceIntroduction,
    /// Conjunctive normal form, with tautological and subsumed clauses removed.
    Cnf,
    /// Disjunctive normal form, with contradictory and subsumed terms removed.
    Dnf,
}

impl RewriteRule {
    /// Every rule, in the order variants are made: introductions before
    /// the eliminations that need their `->` and `<->`, and simplification
    /// after them, since a graph's statements hold nothing to simplify but
    /// eliminations make double negations (`-A -> B` gives `--A | B`).
    pub(crate) const BY_INPUT: [RewriteRule; 9] = [
        RewriteRule::Nnf,
        RewriteRule::ImplicationIntroduction,
        RewriteRule::EquivalenceIntroduction,
        RewriteRule::ImplicationElimination,
        RewriteRule::EquivalenceEliminationImplications,
        RewriteRule::EquivalenceEliminationCases,
        RewriteRule::Simplification,
        RewriteRule::Cnf,
        RewriteRule::Dnf,
    ];

    /// The rule's name in JSON output.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RewriteRule::Simplification => "simplification",
            RewriteRule::Nnf => "nnf",
            RewriteRule::ImplicationElimination => "implication_elimination",
            RewriteRule::ImplicationIntroduction => "implication_introduction",
            RewriteRule::EquivalenceEliminationImplications => {
                "equivalence_elimination_implications"
            }
            RewriteRule::EquivalenceEliminationCases => "equivalence_elimination_cases",
            RewriteRule::EquivalenceIntroduction => "equivalence_introduction",
            RewriteRule::Cnf => "cnf",
            RewriteRule::Dnf => "dnf",
        }
    }

    /// Whether applying the rule to `f` can give anything but `f`: the
    /// eliminations only act on their connective, and the introduction of
    /// `->` on `|`. Lets callers skip rules that would rebuild `f` unchanged.
    pub(crate) fn may_change(self, f: &Formula) -> bool {
        let has = |wanted: &dyn Fn(&Formula) -> bool| contains(f, wanted);
        match self {
            RewriteRule::ImplicationElimination => {
                has(&|g| matches!(g, Formula::Implies(..) | Formula::ImpliedBy(..)))
            }
            RewriteRule::ImplicationIntroduction => has(&|g| matches!(g, Formula::Or(..))),
            RewriteRule::EquivalenceEliminationImplications
            | RewriteRule::EquivalenceEliminationCases => has(&|g| matches!(g, Formula::Iff(..))),
            _ => true,
        }
    }

    /// Applies the rule everywhere it matches in `f`.
    pub(crate) fn apply(self, f: &Formula) -> Formula {
        let everywhere = |step: &dyn Fn(&Formula) -> Option<Formula>| {
            map_bottom_up(f, step).unwrap_or_else(|| f.clone())
        };
        match self {
            RewriteRule::Simplification => simplify(f),
            RewriteRule::Nnf => nnf(f, true),
            RewriteRule::ImplicationElimination => everywhere(&|g| match g {
                Formula::Implies(a, b) => {
                    Some(Formula::or(Formula::not((**a).clone()), (**b).clone()))
                }
                Formula::ImpliedBy(a, b) => {
                    Some(Formula::or(Formula::not((**b).clone()), (**a).clone()))
                }
                _ => None,
            }),
            RewriteRule::ImplicationIntroduction => everywhere(&|g| match g {
                Formula::Or(a, b) => Some(match a.as_ref() {
                    Formula::Not(inner) => Formula::implies((**inner).clone(), (**b).clone()),
                    a => Formula::implies(Formula::not(a.clone()), (**b).clone()),
                }),
                _ => None,
            }),
            RewriteRule::EquivalenceEliminationImplications => everywhere(&|g| match g {
                Formula::Iff(a, b) => Some(Formula::and(
                    Formula::implies((**a).clone(), (**b).clone()),
                    Formula::implies((**b).clone(), (**a).clone()),
                )),
                _ => None,
            }),
            RewriteRule::EquivalenceEliminationCases => everywhere(&|g| match g {
                Formula::Iff(a, b) => Some(Formula::or(
                    Formula::and((**a).clone(), (**b).clone()),
                    Formula::and(Formula::not((**a).clone()), Formula::not((**b).clone())),
                )),
                _ => None,
            }),
            RewriteRule::EquivalenceIntroduction => {
                match map_bottom_up(f, &introduce_equivalence) {
                    Some(folded) if folded != *f => folded,
                    // No biconditional in disguise: state the outermost
                    // implication as one, A -> B being A <-> A & B.
                    folded => implication_as_equivalence(f)
                        .unwrap_or_else(|| folded.unwrap_or_else(|| f.clone())),
                }
            }
            RewriteRule::Cnf => normal_form(f, true),
            RewriteRule::Dnf => normal_form(f, false),
        }
    }
}

/// Whether `wanted` holds of `f` or of one of its subformulas.
fn contains(f: &Formula, wanted: &dyn Fn(&Formula) -> bool) -> bool {
    wanted(f)
        || match f {
            Formula::Not(a) => contains(a, wanted),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::ImpliedBy(a, b)
            | Formula::Iff(a, b) => contains(a, wanted) || contains(b, wanted),
            _ => false,
        }
}

/// Rebuilds `f` from the leaves up, applying `step` to every node after its
/// children; `step` gives `None` where it leaves a node alone. `None` if no
/// node was rewritten, so an untouched formula costs no allocation.
fn map_bottom_up(f: &Formula, step: &dyn Fn(&Formula) -> Option<Formula>) -> Option<Formula> {
    let pair = |a: &Formula, b: &Formula, make: fn(Formula, Formula) -> Formula| match (
        map_bottom_up(a, step),
        map_bottom_up(b, step),
    ) {
        (None, None) => None,
        (x, y) => Some(make(
            x.unwrap_or_else(|| a.clone()),
            y.unwrap_or_else(|| b.clone()),
        )),
    };
    let rebuilt = match f {
        Formula::Not(a) => map_bottom_up(a, step).map(Formula::not),
        Formula::And(a, b) => pair(a, b, Formula::and),
        Formula::Or(a, b) => pair(a, b, Formula::or),
        Formula::Implies(a, b) => pair(a, b, Formula::implies),
        Formula::ImpliedBy(a, b) => pair(a, b, |x, y| Formula::ImpliedBy(Box::new(x), Box::new(y))),
        Formula::Iff(a, b) => pair(a, b, Formula::iff),
        _ => None,
    };
    match rebuilt {
        Some(g) => Some(step(&g).unwrap_or(g)),
        None => step(f),
    }
}

fn introduce_equivalence(g: &Formula) -> Option<Formula> {
    match g {
        Formula::And(l, r) => {
            if let (Formula::Implies(a, b), Formula::Implies(c, d)) = (l.as_ref(), r.as_ref()) {
                if a == d && b == c {
                    return Some(Formula::iff((**a).clone(), (**b).clone()));
                }
            }
        }
        Formula::Or(l, r) => {
            if let (Formula::And(a, b), Formula::And(na, nb)) = (l.as_ref(), r.as_ref()) {
                if let (Formula::Not(x), Formula::Not(y)) = (na.as_ref(), nb.as_ref()) {
                    if a == x && b == y {
                        return Some(Formula::iff((**a).clone(), (**b).clone()));
                    }
                }
            }
        }
        _ => {}
    }
    None
}

/// Rewrites the first implication met in pre-order as `A <-> A & B`.
fn implication_as_equivalence(f: &Formula) -> Option<Formula> {
    let rebuild =
        |a: &Formula, b: &Formula, make: fn(Formula, Formula) -> Formula| -> Option<Formula> {
            match implication_as_equivalence(a) {
                Some(x) => Some(make(x, b.clone())),
                None => implication_as_equivalence(b).map(|y| make(a.clone(), y)),
            }
        };
    match f {
        Formula::Implies(a, b) => Some(Formula::iff(
            (**a).clone(),
            Formula::and((**a).clone(), (**b).clone()),
        )),
        Formula::ImpliedBy(a, b) => Some(Formula::iff(
            (**b).clone(),
            Formula::and((**b).clone(), (**a).clone()),
        )),
        Formula::Not(a) => implication_as_equivalence(a).map(Formula::not),
        Formula::And(a, b) => rebuild(a, b, Formula::and),
        Formula::Or(a, b) => rebuild(a, b, Formula::or),
        Formula::Iff(a, b) => rebuild(a, b, Formula::iff),
        _ => None,
    }
}

fn is_complement(a: &Formula, b: &Formula) -> bool {
    matches!(a, Formula::Not(x) if x.as_ref() == b)
        || matches!(b, Formula::Not(x) if x.as_ref() == a)
}

/// One local simplification of `g` at its root, if one applies.
fn simplify_step(g: &Formula) -> Option<Formula> {
    use Formula::*;
    Some(match g {
        Not(a) => match a.as_ref() {
            Not(inner) => (**inner).clone(),
            True => False,
            False => True,
            _ => return None,
        },
        And(a, b) => match (a.as_ref(), b.as_ref()) {
            (False, _) | (_, False) => False,
            (True, x) | (x, True) => x.clone(),
            (x, y) if x == y => x.clone(),
            (x, y) if is_complement(x, y) => False,
            // Absorption: A & (A | B) is A.
            (x, Or(l, r)) if **l == *x || **r == *x => x.clone(),
            (Or(l, r), y) if **l == *y || **r == *y => y.clone(),
            _ => return None,
        },
        Or(a, b) => match (a.as_ref(), b.as_ref()) {
            (True, _) | (_, True) => True,
            (False, x) | (x, False) => x.clone(),
            (x, y) if x == y => x.clone(),
            (x, y) if is_complement(x, y) => True,
            (x, And(l, r)) if **l == *x || **r == *x => x.clone(),
            (And(l, r), y) if **l == *y || **r == *y => y.clone(),
            _ => return None,
        },
        Implies(a, b) => match (a.as_ref(), b.as_ref()) {
            (False, _) | (_, True) => True,
            (True, x) => x.clone(),
            (x, False) => Formula::not(x.clone()),
            (x, y) if x == y => True,
            _ => return None,
        },
        Iff(a, b) => match (a.as_ref(), b.as_ref()) {
            (True, x) | (x, True) => x.clone(),
            (False, x) | (x, False) => Formula::not(x.clone()),
            (x, y) if x == y => True,
            (x, y) if is_complement(x, y) => False,
            _ => return None,
        },
        _ => return None,
    })
}

fn simplify(f: &Formula) -> Formula {
    let mut current = f.clone();
    // Each pass only shrinks the formula, so a few passes reach the fixpoint
    // for statement-sized formulas; the bound keeps the cost predictable.
    for _ in 0..8 {
        match map_bottom_up(&current, &simplify_step) {
            Some(next) if next != current => current = next,
            _ => break,
        }
    }
    current
}

/// Negation normal form of `f` (when `positive`) or of `-f`.
fn nnf(f: &Formula, positive: bool) -> Formula {
    use Formula::*;
    match (f, positive) {
        (True, true) | (False, false) => True,
        (False, true) | (True, false) => False,
        (Atom(_), true) | (Quant(..), true) => f.clone(),
        (Atom(_), false) | (Quant(..), false) => Formula::not(f.clone()),
        (Not(a), p) => nnf(a, !p),
        (And(a, b), true) | (Or(a, b), false) => {
            let (x, y) = (nnf(a, positive), nnf(b, positive));
            Formula::and(x, y)
        }
        (Or(a, b), true) | (And(a, b), false) => {
            let (x, y) = (nnf(a, positive), nnf(b, positive));
            Formula::or(x, y)
        }
        (Implies(a, b), true) => Formula::or(nnf(a, false), nnf(b, true)),
        (Implies(a, b), false) => Formula::and(nnf(a, true), nnf(b, false)),
        (ImpliedBy(a, b), true) => Formula::or(nnf(b, false), nnf(a, true)),
        (ImpliedBy(a, b), false) => Formula::and(nnf(b, true), nnf(a, false)),
        (Iff(a, b), true) => Formula::or(
            Formula::and(nnf(a, true), nnf(b, true)),
            Formula::and(nnf(a, false), nnf(b, false)),
        ),
        (Iff(a, b), false) => Formula::or(
            Formula::and(nnf(a, true), nnf(b, false)),
            Formula::and(nnf(a, false), nnf(b, true)),
        ),
    }
}

/// A clause (for CNF) or a term (for DNF) over a formula's atoms, numbered
/// in their sorted order: bit `i` of `positive` (`negative`) holds atom
/// `i`'s positive (negative) literal. Bit sets keep the distribution of
/// large formulas cheap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Group {
    positive: u64,
    negative: u64,
}

impl Group {
    const EMPTY: Group = Group {
        positive: 0,
        negative: 0,
    };

    fn union(self, other: Group) -> Group {
        Group {
            positive: self.positive | other.positive,
            negative: self.negative | other.negative,
        }
    }

    fn is_subset(self, other: Group) -> bool {
        self.positive & !other.positive == 0 && self.negative & !other.negative == 0
    }

    /// Its literals in order: by atom, the negative one first.
    fn literals(self, atoms: usize) -> Vec<(usize, bool)> {
        (0..atoms)
            .flat_map(|i| {
                [(i, false), (i, true)]
                    .into_iter()
                    .filter(move |&(i, positive)| {
                        let set = if positive {
                            self.positive
                        } else {
                            self.negative
                        };
                        set >> i & 1 == 1
                    })
            })
            .collect()
    }
}

/// CNF (`conjunctive`) or DNF of `f`, as a set of literal groups over
/// `atoms`. Constants: in CNF, no groups is `$T` and an empty group is `$F`;
/// dually in DNF.
fn groups(f: &Formula, conjunctive: bool, atoms: &[String]) -> BTreeSet<Group> {
    let literal = |t: &Term, positive: bool| {
        let index = match t {
            Term::App(name, _) => atoms.binary_search(name).unwrap_or_default(),
            Term::Var(_) => 0,
        };
        let bit = 1u64 << index;
        let group = if positive {
            Group {
                positive: bit,
                negative: 0,
            }
        } else {
            Group {
                positive: 0,
                negative: bit,
            }
        };
        BTreeSet::from([group])
    };
    match f {
        Formula::Atom(t) => literal(t, true),
        Formula::Not(inner) => match inner.as_ref() {
            Formula::Atom(t) => literal(t, false),
            // Only reachable for inputs that are not in NNF; normalise first.
            other => groups(&nnf(other, false), conjunctive, atoms),
        },
        Formula::True | Formula::False => {
            // `$T` in CNF and `$F` in DNF are the empty collection; the other
            // constant is the collection holding the empty group.
            if matches!(f, Formula::True) == conjunctive {
                BTreeSet::new()
            } else {
                BTreeSet::from([Group::EMPTY])
            }
        }
        Formula::And(a, b) | Formula::Or(a, b) => {
            let (ga, gb) = (groups(a, conjunctive, atoms), groups(b, conjunctive, atoms));
            // The "outer" connective of the normal form just unions the
            // groups; the inner one distributes.
            if matches!(f, Formula::And(..)) == conjunctive {
                ga.union(&gb).copied().collect()
            } else {
                ga.iter()
                    .flat_map(|&x| gb.iter().map(move |&y| x.union(y)))
                    .collect()
            }
        }
        other => groups(&nnf(other, true), conjunctive, atoms),
    }
}

/// Drops groups holding a literal and its complement (valid clauses, or
/// contradictory terms) and groups that contain another group (subsumed).
fn reduce(groups: BTreeSet<Group>) -> Vec<Group> {
    let consistent: Vec<Group> = groups
        .into_iter()
        .filter(|g| g.positive & g.negative == 0)
        .collect();
    consistent
        .iter()
        .copied()
        .filter(|&g| !consistent.iter().any(|&h| h != g && h.is_subset(g)))
        .collect()
}

/// The most distinct atoms a normal form is computed for: one bit each.
const MAX_NORMAL_FORM_ATOMS: usize = 64;

fn normal_form(f: &Formula, conjunctive: bool) -> Formula {
    let atoms: Vec<String> = match crate::truth::atoms(f) {
        Ok(atoms) if atoms.len() <= MAX_NORMAL_FORM_ATOMS => atoms.into_iter().collect(),
        _ => return f.clone(),
    };
    // Groups in the order of their literal lists, as sets of literals sort.
    let mut reduced: Vec<Vec<(usize, bool)>> = reduce(groups(&nnf(f, true), conjunctive, &atoms))
        .into_iter()
        .map(|g| g.literals(atoms.len()))
        .collect();
    reduced.sort();
    let literal = |&(i, positive): &(usize, bool)| {
        let atom = Formula::atom(atoms[i].clone());
        if positive {
            atom
        } else {
            Formula::not(atom)
        }
    };
    let join = |items: Vec<Formula>, and: bool, empty: Formula| -> Formula {
        let mut rev = items.into_iter().rev();
        match rev.next() {
            None => empty,
            Some(last) => rev.fold(last, |acc, x| {
                if and {
                    Formula::and(x, acc)
                } else {
                    Formula::or(x, acc)
                }
            }),
        }
    };
    // In CNF: clauses are disjunctions joined by conjunction.
    let inner_empty = if conjunctive {
        Formula::False
    } else {
        Formula::True
    };
    let outer_empty = if conjunctive {
        Formula::True
    } else {
        Formula::False
    };
    let parts: Vec<Formula> = reduced
        .iter()
        .map(|g| {
            join(
                g.iter().map(literal).collect(),
                !conjunctive,
                inner_empty.clone(),
            )
        })
        .collect();
    join(parts, conjunctive, outer_empty)
}

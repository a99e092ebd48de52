//! Literals and clauses: normal form, the literal order, eligibility and
//! subsumption.
//!
//! A predicate atom `p(..)` is the equation `p(..) ≈ ⊤`, so one literal
//! order (the multiset extension of KBO, a negative literal counted twice)
//! serves predicates and equations alike.

use super::term::{gt, kbo, Cmp, Matcher, Sym, T, TRUE};

/// `l ≈ r`, `l ≉ r`, or (`eq` false) the predicate atom `l` (`r` is `⊤`).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) struct Lit {
    pub(crate) pos: bool,
    pub(crate) eq: bool,
    pub(crate) l: T,
    pub(crate) r: T,
}

impl Lit {
    pub(crate) fn pred(pos: bool, atom: T) -> Lit {
        Lit {
            pos,
            eq: false,
            l: atom,
            r: T::F(TRUE, Vec::new()),
        }
    }

    pub(crate) fn equation(pos: bool, l: T, r: T) -> Lit {
        Lit {
            pos,
            eq: true,
            l,
            r,
        }
    }

    /// The literal with `f` applied to both sides.
    pub(crate) fn map(&self, f: impl Fn(&T) -> T) -> Lit {
        Lit {
            pos: self.pos,
            eq: self.eq,
            l: f(&self.l),
            r: f(&self.r),
        }
    }

    /// The literal as a multiset of terms: `{l, r}`, or `{l, l, r, r}` when
    /// negative.
    fn terms(&self) -> Vec<&T> {
        if self.pos {
            vec![&self.l, &self.r]
        } else {
            vec![&self.l, &self.l, &self.r, &self.r]
        }
    }

    /// The same literal up to the orientation of an equation.
    fn same(&self, other: &Lit) -> bool {
        self.eq == other.eq
            && ((self.l == other.l && self.r == other.r)
                || (self.eq && self.l == other.r && self.r == other.l))
    }

    /// Whether the literal has no variable.
    pub(crate) fn is_ground(&self) -> bool {
        let mut ground = true;
        self.l.each_var(&mut |_| ground = false);
        self.r.each_var(&mut |_| ground = false);
        ground
    }

    fn weight(&self) -> usize {
        if self.eq {
            self.l.weight() + self.r.weight()
        } else {
            self.l.weight()
        }
    }
}

/// Whether literal `a` is greater than `b`: the multiset extension of KBO.
pub(crate) fn lit_gt(a: &Lit, b: &Lit) -> bool {
    let mut m = a.terms();
    let mut n = b.terms();
    // Remove the terms they share.
    let mut i = 0;
    while i < n.len() {
        if let Some(j) = m.iter().position(|t| *t == n[i]) {
            m.swap_remove(j);
            n.swap_remove(i);
        } else {
            i += 1;
        }
    }
    !m.is_empty() && n.iter().all(|y| m.iter().any(|x| gt(x, y)))
}

/// A clause in normal form: no duplicate literal, no `t ≉ t`, variables
/// numbered `0..nvars` in order of first occurrence.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Clause {
    pub(crate) lits: Vec<Lit>,
    pub(crate) nvars: u32,
    pub(crate) weight: usize,
    pub(crate) depth: usize,
}

/// What a subsuming clause must not exceed: the subsumed clause's counts and
/// symbols.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Feature {
    pos: u16,
    neg: u16,
    syms: u64,
}

impl Feature {
    /// Whether a clause with this feature may subsume one with `other`.
    pub(crate) fn may_subsume(&self, other: &Feature) -> bool {
        self.pos <= other.pos && self.neg <= other.neg && self.syms & !other.syms == 0
    }
}

impl Clause {
    /// The normal form of the disjunction of `lits`, or `None` if it is a
    /// tautology.
    pub(crate) fn new(lits: Vec<Lit>) -> Option<Clause> {
        let mut out: Vec<Lit> = Vec::with_capacity(lits.len());
        for mut lit in lits {
            if lit.eq {
                if lit.l == lit.r {
                    if lit.pos {
                        return None;
                    }
                    continue;
                }
                let swap = match kbo(&lit.r, &lit.l) {
                    Cmp::Gt => true,
                    Cmp::Inc => lit.r > lit.l,
                    _ => false,
                };
                if swap {
                    std::mem::swap(&mut lit.l, &mut lit.r);
                }
            }
            if out.iter().any(|o| o.same(&lit) && o.pos != lit.pos) {
                return None;
            }
            if !out.iter().any(|o| o.same(&lit) && o.pos == lit.pos) {
                out.push(lit);
            }
        }
        // Variables renumbered by first occurrence; the weight and depth
        // taken in the same walk.
        let mut names: Vec<u32> = Vec::new();
        let (mut weight, mut depth) = (0, 0);
        for lit in &out {
            let (lw, ld) = survey(&lit.l, &mut names);
            let (rw, rd) = survey(&lit.r, &mut names);
            weight += if lit.eq { lw + rw } else { lw };
            depth = depth.max(ld).max(rd);
        }
        let mut lits = out;
        // In place, and not at all when the numbering is already so.
        if names.iter().enumerate().any(|(i, &v)| v != i as u32) {
            for lit in &mut lits {
                rename(&mut lit.l, &names);
                rename(&mut lit.r, &names);
            }
        }
        Some(Clause {
            nvars: names.len() as u32,
            lits,
            weight,
            depth,
        })
    }

    pub(crate) fn feature(&self) -> Feature {
        let mut syms = 0u64;
        for lit in &self.lits {
            for t in [&lit.l, &lit.r] {
                t.each_sym(&mut |s: Sym| syms |= 1u64 << (s % 64));
            }
        }
        let pos = self.lits.iter().filter(|l| l.pos).count() as u16;
        Feature {
            pos,
            neg: self.lits.len() as u16 - pos,
            syms,
        }
    }

    /// A positive unit equation: `(l, r)`.
    pub(crate) fn unit_equation(&self) -> Option<(&T, &T)> {
        match self.lits.as_slice() {
            [lit] if lit.pos && lit.eq => Some((&lit.l, &lit.r)),
            _ => None,
        }
    }
}

/// Which literals of a clause inferences may use.
#[derive(Clone, Debug, Default)]
pub(crate) struct Eligible {
    /// Per literal: eligible.
    pub(crate) lits: Vec<bool>,
    /// Whether a negative literal is selected: then it is the only
    /// eligible one, and inferences do not check it for maximality.
    pub(crate) selected: bool,
}

impl Eligible {
    /// The eligible literals of `lits`: the selected negative literal (see
    /// [`select`]) if any, else the maximal ones.
    pub(crate) fn of(lits: &[Lit]) -> Eligible {
        match select(lits) {
            Some(k) => Eligible {
                lits: (0..lits.len()).map(|i| i == k).collect(),
                selected: true,
            },
            None => Eligible {
                lits: (0..lits.len()).map(|i| maximal(lits, i)).collect(),
                selected: false,
            },
        }
    }

    /// Whether literal `i` of `lits` (an instance of the clause) may take
    /// part in an inference: selected, or maximal in the instance.
    pub(crate) fn holds(&self, lits: &[Lit], i: usize) -> bool {
        self.selected || maximal(lits, i)
    }
}

/// The negative literal selected in a clause with a positive one: the
/// lightest ground negative literal, else the lightest negative equation,
/// else the lightest negative predicate literal (first of equals).
/// Selecting a negative literal keeps the superposition calculus
/// refutationally complete (Bachmair and Ganzinger), so saturation still
/// shows a model; resolving Horn clauses on one body literal at a time, not
/// on every maximal one, is what keeps problems like Schubert's Steamroller
/// small. A ground literal is resolved by few clauses, and a light one by
/// the units the search picks first; the heaviest literal, selected before,
/// proved 65 of 142 ILTP problems within `Budget::ENGINE` and this choice
/// 71 (with literal cutting; 30 and 33 of 83 in a second sample). A clause
/// of negative literals only (a negated goal) keeps its maximal literals.
pub(crate) fn select(lits: &[Lit]) -> Option<usize> {
    if !lits.iter().any(|l| l.pos) {
        return None;
    }
    lits.iter()
        .enumerate()
        .filter(|(_, l)| !l.pos)
        .min_by_key(|(_, l)| {
            let ground = l.is_ground();
            (!ground, !ground && !l.eq, l.weight())
        })
        .map(|(i, _)| i)
}

/// Whether no literal of `lits` is greater than `lits[i]` (the eligibility
/// of ordered resolution and superposition without selection; checked
/// again on the instance an inference makes).
pub(crate) fn maximal(lits: &[Lit], i: usize) -> bool {
    lits.iter()
        .enumerate()
        .all(|(j, l)| j == i || !lit_gt(l, &lits[i]))
}

/// Adds the variables of `t` not yet in `names`, in order of first
/// occurrence; `t`'s weight and depth.
fn survey(t: &T, names: &mut Vec<u32>) -> (usize, usize) {
    match t {
        T::V(v) => {
            if !names.contains(v) {
                names.push(*v);
            }
            (1, 1)
        }
        T::F(_, args) => {
            let (mut weight, mut depth) = (1, 0);
            for a in args {
                let (w, d) = survey(a, names);
                weight += w;
                depth = depth.max(d);
            }
            (weight, depth + 1)
        }
    }
}

/// Renames each variable `names[i]` of `t` to `i`.
fn rename(t: &mut T, names: &[u32]) {
    match t {
        T::V(v) => *v = names.iter().position(|n| n == v).unwrap_or(0) as u32,
        T::F(_, args) => args.iter_mut().for_each(|a| rename(a, names)),
    }
}

/// Whether `c` subsumes `d`: some instance of `c`'s literals is a
/// sub-multiset of `d`'s.
pub(crate) fn subsumes(c: &Clause, d: &Clause) -> bool {
    if c.lits.len() > d.lits.len() {
        return false;
    }
    let mut s = Matcher::default();
    s.reset(c.nvars);
    let mut used = vec![false; d.lits.len()];
    search(&c.lits, &d.lits, &mut used, &mut s)
}

fn search<'a>(c: &'a [Lit], d: &'a [Lit], used: &mut [bool], s: &mut Matcher<'a>) -> bool {
    let Some((lit, rest)) = c.split_first() else {
        return true;
    };
    for (j, m) in d.iter().enumerate() {
        if used[j] || m.pos != lit.pos || m.eq != lit.eq {
            continue;
        }
        let orientations: &[(&'a T, &'a T)] = if lit.eq {
            &[(&lit.l, &lit.r), (&lit.r, &lit.l)]
        } else {
            &[(&lit.l, &lit.r)]
        };
        for (a, b) in orientations {
            let mark = s.mark();
            if s.matches(a, &m.l) && s.matches(b, &m.r) {
                used[j] = true;
                if search(rest, d, used, s) {
                    return true;
                }
                used[j] = false;
            }
            s.undo(mark);
        }
    }
    false
}

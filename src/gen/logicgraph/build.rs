//! Backward construction of a LogicGraph skeleton: formulas, premise pool and
//! proof paths over numbered atoms, before any ids, names or text.
//!
//! Each family is a chain grown backward from `G`: an argument form whose
//! conclusion is the current target is picked, its premises get fresh atoms,
//! and one premise becomes the next target until the sampled depth is spent;
//! the others are leaves of the pool. Branches re-derive an intermediate
//! conclusion of a core chain with a form not yet used for it, again with
//! fresh atoms, and reuse the rest of the core chain; a branch's length is
//! drawn like a core's, so depth does not fall as paths are added. Forms are
//! drawn with the published shares ([`FORM_SHARES`]). Fresh atoms are what
//! keep the set of minimal supports exactly the set of paths; the engine
//! re-checks that before anything is written. Distractors are copies of a
//! window of the pool's premises, or paths built as real ones are with one
//! literal negated, whichever links to the pool more as real premises do;
//! no proof can use them (see [`matched_distractors`]).

use super::looks;
use super::prop::Prop;
use super::{Config, Form, FEWEST_HIDDEN_DISTRACTORS};
use crate::truth::TruthTable;
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::{BTreeMap, BTreeSet};

/// One cited premise of a step: its formula, and the pool index when it is
/// a leaf (`None`: the conclusion of an earlier step of the same path).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cited {
    /// The premise's formula.
    pub prop: Prop,
    /// Index into the pool, or `None` for a derived premise.
    pub pool: Option<usize>,
}

/// One inference of a path.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BuiltStep {
    /// The argument form applied.
    pub form: Form,
    /// The cited premises, in the form's canonical order.
    pub cited: Vec<Cited>,
    /// What it concludes.
    pub conclusion: Prop,
}

/// One proof path: a core chain, or a branch that re-derives an intermediate
/// conclusion of its family's core and then follows the core.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BuiltPath {
    /// 1-based family number (paths sharing the final inference into `G`).
    pub family: usize,
    /// For a branch, the 0-based index of the core step it re-derives.
    pub branch_from: Option<usize>,
    /// The steps in order; the last concludes `G`.
    pub steps: Vec<BuiltStep>,
}

/// The construction before naming: pool and paths over atoms `0..atoms`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Skeleton {
    /// Number of atoms used, `G` (atom 0) included.
    pub atoms: usize,
    /// The premise pool in construction order.
    pub pool: Vec<Prop>,
    /// Indices of pool entries that are distractors (in no path).
    pub distractors: Vec<usize>,
    /// Cores first (by family), then branches (by family, then creation).
    pub paths: Vec<BuiltPath>,
}

/// Why a draw was abandoned before verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BuildFailure {
    /// The instance would use more atoms than `Config::max_atoms`.
    TooManyAtoms,
    /// No way was found to place a branch within the depth range.
    NoBranchSite,
}

/// Forms whose conclusion can be any formula (HS needs an implication, CD a
/// disjunction as conclusion).
fn applies(form: Form, target: &Prop) -> bool {
    match form {
        Form::HS => matches!(target, Prop::Implies(..)),
        Form::CD => matches!(target, Prop::Or(..)),
        _ => true,
    }
}

/// Premises are recursed into only up to this many atom occurrences, so
/// formulas stay readable and their CNF small.
const RECURSE_SIZE: usize = 4;

/// The target share of each form, in percent of steps (`Form::ALL` order):
/// the published instances' shares, with hypothetical syllogism at the 19%
/// the issue measured on the published tiers.
const FORM_SHARES: [u32; 7] = [18, 13, 19, 16, 4, 15, 15];

/// The weight of `form` where it can conclude the target: its share, times
/// a boost for HS and CD, which conclude only implications and disjunctions
/// (a minority of targets), so that their shares of all steps come out near
/// [`FORM_SHARES`] (measured with `scripts/logicgraph-stats`).
fn weight(form: Form) -> u32 {
    let k = Form::ALL.iter().position(|g| *g == form).unwrap_or(0);
    // In tenths.
    let boost = match form {
        Form::HS => 27,
        Form::CD => 120,
        _ => 10,
    };
    FORM_SHARES[k] * boost
}

/// The number of paths of one instance, drawn with weights
/// `(paths_ratio/100)^(n - min)` over the configured range.
fn draw_paths<R: Rng>(config: &Config, rng: &mut R) -> usize {
    let (lo, hi) = config.paths;
    let ratio = f64::from(config.paths_ratio.clamp(1, 100)) / 100.0;
    let weights: Vec<f64> = (lo..=hi).map(|n| ratio.powi((n - lo) as i32)).collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.gen::<f64>() * total;
    for (k, w) in weights.iter().enumerate() {
        if x < *w {
            return lo + k;
        }
        x -= w;
    }
    hi
}

struct Builder<'a, R: Rng> {
    rng: &'a mut R,
    config: &'a Config,
    last_atom: usize,
    pool: Vec<Prop>,
}

impl<'a, R: Rng> Builder<'a, R> {
    /// A fresh atom, negated with some probability for variety.
    fn fresh_literal(&mut self) -> Prop {
        self.last_atom += 1;
        let a = Prop::atom(self.last_atom);
        if self.rng.gen_bool(0.3) {
            Prop::neg(&a)
        } else {
            a
        }
    }

    /// The premises of `form` concluding `target`, in canonical order.
    fn premises(&mut self, form: Form, target: &Prop) -> Vec<Prop> {
        match (form, target) {
            (Form::MP, _) => {
                let p = self.fresh_literal();
                vec![Prop::implies(p.clone(), target.clone()), p]
            }
            (Form::MT, _) => {
                let q = self.fresh_literal();
                vec![Prop::implies(Prop::neg(target), q.clone()), Prop::neg(&q)]
            }
            (Form::HS, Prop::Implies(p, r)) => {
                let q = self.fresh_literal();
                vec![
                    Prop::implies((**p).clone(), q.clone()),
                    Prop::implies(q, (**r).clone()),
                ]
            }
            (Form::DS, _) => {
                let p = self.fresh_literal();
                let or = if self.rng.gen_bool(0.5) {
                    Prop::or(p.clone(), target.clone())
                } else {
                    Prop::or(target.clone(), p.clone())
                };
                vec![or, Prop::neg(&p)]
            }
            (Form::CD, Prop::Or(r, s)) => {
                let p = self.fresh_literal();
                let q = self.fresh_literal();
                vec![
                    Prop::implies(p.clone(), (**r).clone()),
                    Prop::implies(q.clone(), (**s).clone()),
                    Prop::or(p, q),
                ]
            }
            (Form::RAA, _) => {
                let q = self.fresh_literal();
                let p = Prop::neg(target);
                vec![
                    Prop::implies(p.clone(), q.clone()),
                    Prop::implies(p, Prop::neg(&q)),
                ]
            }
            (Form::DE, _) => {
                let p = self.fresh_literal();
                let q = self.fresh_literal();
                vec![
                    Prop::or(p.clone(), q.clone()),
                    Prop::implies(p, target.clone()),
                    Prop::implies(q, target.clone()),
                ]
            }
            // `applies` rules these out before we get here; fall back to MP.
            (Form::HS, _) | (Form::CD, _) => self.premises(Form::MP, target),
        }
    }

    /// A derivation of `target` in exactly `n ≥ 1` steps (forward order),
    /// whose last step uses none of the forms in `exclude`.
    fn derive(&mut self, target: &Prop, n: usize, exclude: &[Form]) -> Option<Vec<BuiltStep>> {
        let choices: Vec<(Form, u32)> = self
            .config
            .forms
            .iter()
            .copied()
            .filter(|f| applies(*f, target) && !exclude.contains(f))
            .map(|f| (f, weight(f)))
            .collect();
        let form = choices.choose_weighted(self.rng, |c| c.1).ok()?.0;
        let premises = self.premises(form, target);
        let mut steps = Vec::new();
        let derived = if n > 1 {
            let eligible: Vec<usize> = (0..premises.len())
                .filter(|&i| premises[i].size() <= RECURSE_SIZE)
                .collect();
            let d = match eligible.choose(self.rng) {
                Some(&d) => d,
                None => (0..premises.len()).min_by_key(|&i| premises[i].size())?,
            };
            steps = self.derive(&premises[d], n - 1, &[])?;
            Some(d)
        } else {
            None
        };
        let cited = premises
            .into_iter()
            .enumerate()
            .map(|(i, prop)| {
                if Some(i) == derived {
                    Cited { prop, pool: None }
                } else {
                    self.pool.push(prop.clone());
                    Cited {
                        prop,
                        pool: Some(self.pool.len() - 1),
                    }
                }
            })
            .collect();
        steps.push(BuiltStep {
            form,
            cited,
            conclusion: target.clone(),
        });
        Some(steps)
    }

    /// One distractor: `safe ∨ w` read as a rule, `¬w → safe` or
    /// `¬safe → w`, with `w` one of `literals` (facts of the pool and
    /// literal conclusions of its paths, which the pool entails; a fresh
    /// literal if there are none). See [`distractors`] for why it is in no
    /// minimal support. Not as a disjunction: with `safe` the goal's
    /// negation, `¬G ∨ w` is a form no real premise takes (they hold `G`
    /// unnegated in a disjunction), so it marked 186 of 186 distractors
    /// that had it (seed 24680, Small).
    fn distractor(&mut self, safe: &Prop, literals: &[Prop]) -> Prop {
        let w = match literals.choose(self.rng) {
            Some(w) => w.clone(),
            None => self.fresh_literal(),
        };
        if self.rng.gen_bool(0.5) {
            Prop::implies(Prop::neg(&w), safe.clone())
        } else {
            Prop::implies(Prop::neg(safe), w)
        }
    }
}

/// Whether `p` mentions the atom `k`.
fn mentions(p: &Prop, k: usize) -> bool {
    match p {
        Prop::Atom(a) => *a == k,
        Prop::Not(a) => mentions(a, k),
        Prop::Or(a, b) | Prop::Implies(a, b) => mentions(a, k) || mentions(b, k),
    }
}

/// Where a literal sits in a formula: the child taken at each connective
/// (0 the left or only child, 1 the right one).
type Place = Vec<u8>;

/// The literal at `place` in `p`.
fn literal_at<'p>(p: &'p Prop, place: &[u8]) -> &'p Prop {
    match (p, place.split_first()) {
        (Prop::Or(a, b) | Prop::Implies(a, b), Some((&side, rest))) => {
            literal_at(if side == 0 { a } else { b }, rest)
        }
        (Prop::Not(a), Some((_, rest))) if !p.is_literal() => literal_at(a, rest),
        _ => p,
    }
}

/// `p` with the literal at `place` replaced by `new`.
fn replace_at(p: &Prop, place: &[u8], new: &Prop) -> Prop {
    match (p, place.split_first()) {
        (Prop::Or(a, b), Some((&side, rest))) => match side {
            0 => Prop::or(replace_at(a, rest, new), (**b).clone()),
            _ => Prop::or((**a).clone(), replace_at(b, rest, new)),
        },
        (Prop::Implies(a, b), Some((&side, rest))) => match side {
            0 => Prop::implies(replace_at(a, rest, new), (**b).clone()),
            _ => Prop::implies((**a).clone(), replace_at(b, rest, new)),
        },
        (Prop::Not(a), Some((_, rest))) if !p.is_literal() => {
            Prop::Not(Box::new(replace_at(a, rest, new)))
        }
        _ => new.clone(),
    }
}

/// The places of `p`'s literals other than the goal's. With `spine`, only
/// those on its disjunctive spine, with whether each is an antecedent: a
/// disjunct, a consequent, or the antecedent of an implication, through
/// disjunctions and consequents (the places where a literal that is true,
/// or an antecedent that is false, makes all of `p` true).
fn literal_places(p: &Prop, spine: bool) -> Vec<(Place, bool)> {
    fn walk(p: &Prop, spine: bool, at: &mut Place, antecedent: bool, out: &mut Vec<(Place, bool)>) {
        if p.is_literal() {
            if !mentions(p, 0) {
                out.push((at.clone(), antecedent));
            }
            return;
        }
        match p {
            Prop::Or(a, b) | Prop::Implies(a, b) => {
                let implies = matches!(p, Prop::Implies(..));
                at.push(0);
                if !spine || !implies || a.is_literal() {
                    walk(a, spine, at, implies, out);
                }
                at.pop();
                at.push(1);
                walk(b, spine, at, false, out);
                at.pop();
            }
            Prop::Not(a) if !spine => {
                at.push(0);
                walk(a, spine, at, false, out);
                at.pop();
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(p, spine, &mut Vec::new(), false, &mut out);
    out
}

/// The literals `p` writes, as (negated, atom), in order.
pub(super) fn written_literals(p: &Prop, out: &mut Vec<(bool, usize)>) {
    match p {
        Prop::Atom(k) => out.push((false, *k)),
        Prop::Not(a) => match &**a {
            Prop::Atom(k) => out.push((true, *k)),
            inner => written_literals(inner, out),
        },
        Prop::Or(a, b) | Prop::Implies(a, b) => {
            written_literals(a, out);
            written_literals(b, out);
        }
    }
}

/// The atoms `p` mentions, each once, in increasing order.
pub(super) fn atoms_in(p: &Prop) -> Vec<usize> {
    let mut lits = Vec::new();
    written_literals(p, &mut lits);
    let mut atoms: Vec<usize> = lits.into_iter().map(|l| l.1).collect();
    atoms.sort_unstable();
    atoms.dedup();
    atoms
}

/// What a reader who drew the premises' graph would count over a pool:
/// how many premises mention each atom and write each literal, how often an
/// atom is an "if" part, and which atoms are facts. Kept apart from the
/// profiles it gives so that candidate distractors are added to the real
/// pool's counts instead of counting the pool again for each.
#[derive(Clone, Default)]
struct LinkCounts {
    mentions: BTreeMap<usize, usize>,
    as_antecedent: BTreeMap<usize, usize>,
    as_consequent: BTreeMap<usize, usize>,
    /// Premises that mention both atoms of a pair (smaller atom first).
    pairs: BTreeMap<(usize, usize), usize>,
    /// Facts stating each atom (either polarity).
    fact_count: BTreeMap<usize, usize>,
    written: BTreeMap<(bool, usize), usize>,
    writers: BTreeMap<(bool, usize), usize>,
    facts: BTreeSet<usize>,
}

/// A premise's "if" and "then" atoms; a premise that is not a conditional
/// is all "then".
pub(super) fn if_then_atoms(p: &Prop) -> (Vec<usize>, Vec<usize>) {
    match p {
        Prop::Implies(a, b) => (atoms_in(a), atoms_in(b)),
        _ => (Vec::new(), atoms_in(p)),
    }
}

impl LinkCounts {
    fn of(pool: &[Prop]) -> Self {
        let mut counts = Self::default();
        for p in pool {
            counts.add(p);
        }
        counts
    }

    fn add(&mut self, p: &Prop) {
        let atoms = atoms_in(p);
        for (i, &a) in atoms.iter().enumerate() {
            *self.mentions.entry(a).or_default() += 1;
            for &b in &atoms[i + 1..] {
                *self.pairs.entry((a, b)).or_default() += 1;
            }
        }
        let (ante, cons) = if_then_atoms(p);
        for a in ante {
            *self.as_antecedent.entry(a).or_default() += 1;
        }
        for a in cons {
            *self.as_consequent.entry(a).or_default() += 1;
        }
        let mut literals = Vec::new();
        written_literals(p, &mut literals);
        for &l in &literals {
            *self.written.entry(l).or_default() += 1;
        }
        literals.sort_unstable();
        literals.dedup();
        for l in literals {
            *self.writers.entry(l).or_default() += 1;
        }
        if p.is_literal() {
            self.facts.extend(atoms.iter().copied());
            for &a in &atoms {
                *self.fact_count.entry(a).or_default() += 1;
            }
        }
    }

    /// How `p`, one of the counted premises, links to the others: how many
    /// others mention its least and its most mentioned atom, how many atoms
    /// of its "if" part are facts, how often its "then" part's atoms are
    /// others' "if" parts, and how many of its literals are written with an
    /// atom's rarer polarity or with one no other premise writes (a verb
    /// form no other premise has). Then how its sentences are shared
    /// (see [`SHARING`]): how many others mention its second least
    /// mentioned atom, how often its "if" atoms are others' "then" or "if"
    /// parts and its "then" atoms others' "then" parts, how many facts
    /// share an atom with it, and how many others share one atom or two.
    /// Capped, as a reader would bin them.
    fn profile(&self, p: &Prop) -> Profile {
        use looks::count;
        let others: Vec<usize> = atoms_in(p)
            .iter()
            .map(|&a| count(&self.mentions, a) - 1)
            .collect();
        let (ante, cons) = if_then_atoms(p);
        let then_used: usize = cons
            .iter()
            .map(|&a| count(&self.as_antecedent, a) - usize::from(ante.contains(&a)))
            .sum();
        let mut literals = Vec::new();
        written_literals(p, &mut literals);
        let rarer = literals
            .iter()
            .filter(|&&(n, a)| count(&self.written, (n, a)) < count(&self.written, (!n, a)))
            .count();
        let lonely = literals
            .iter()
            .filter(|&&l| count(&self.writers, l) == 1)
            .count();
        let mut sorted = others.clone();
        sorted.sort_unstable();
        let if_in_then: usize = ante
            .iter()
            .map(|&a| count(&self.as_consequent, a) - usize::from(cons.contains(&a)))
            .sum();
        let if_in_if: usize = ante
            .iter()
            .map(|&a| count(&self.as_antecedent, a) - 1)
            .sum();
        let then_in_then: usize = cons
            .iter()
            .map(|&a| count(&self.as_consequent, a) - 1)
            .sum();
        let atoms = atoms_in(p);
        let facts_sharing = atoms
            .iter()
            .map(|&a| count(&self.fact_count, a))
            .sum::<usize>()
            - usize::from(p.is_literal());
        // Others sharing two atoms, and one, by inclusion and exclusion
        // over pairs (exact for premises of up to two atoms).
        let mut sharing_two = 0;
        for (i, &a) in atoms.iter().enumerate() {
            for &b in &atoms[i + 1..] {
                sharing_two += count(&self.pairs, (a, b)) - 1;
            }
        }
        let sharing_one = others.iter().sum::<usize>().saturating_sub(sharing_two);
        [
            others.iter().copied().min().unwrap_or(0).min(4),
            others.iter().copied().max().unwrap_or(0).min(6),
            ante.iter()
                .filter(|a| self.facts.contains(*a))
                .count()
                .min(2),
            then_used.min(3),
            rarer.min(2),
            lonely.min(2),
            sorted.get(1).copied().unwrap_or(0).min(6),
            if_in_then.min(4),
            if_in_if.min(3),
            then_in_then.min(5),
            facts_sharing.min(3),
            sharing_two.min(3),
            sharing_one.min(8),
        ]
    }
}

/// How many ways of building the distractors are drawn; the one whose
/// distractors link to the other premises most as their targets do is
/// kept.
const DISTRACTOR_DRAWS: usize = 64;

/// Whether every decoy of `props` (atoms from `first_decoy`) is in two or
/// more of them, no two of them share two decoys (real premises share two
/// sentences only as a step's twins, so a reader would pair them), and
/// every group of distractors joined by shared decoys mentions a real atom
/// (no sentence, and no cluster of premises, stands apart from the real
/// ones).
fn decoys_hold_together(props: &[Prop], first_decoy: usize) -> bool {
    let atoms: Vec<Vec<usize>> = props.iter().map(atoms_in).collect();
    let mut decoys: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, own) in atoms.iter().enumerate() {
        for &a in own.iter().filter(|&&a| a >= first_decoy) {
            let by = decoys.entry(a).or_default();
            if by.last() != Some(&i) {
                by.push(i);
            }
        }
    }
    if decoys.values().any(|by| by.len() < 2) {
        return false;
    }
    let mut pairs = BTreeSet::new();
    for by in decoys.values() {
        for (n, &i) in by.iter().enumerate() {
            for &j in &by[n + 1..] {
                if !pairs.insert((i, j)) {
                    return false;
                }
            }
        }
    }
    // Union the distractors that share a decoy; each part needs a real atom.
    let mut part: Vec<usize> = (0..props.len()).collect();
    fn root(part: &mut [usize], i: usize) -> usize {
        let mut r = i;
        while part[r] != r {
            r = part[r];
        }
        part[i] = r;
        r
    }
    for by in decoys.values() {
        for &i in &by[1..] {
            let (a, b) = (root(&mut part, by[0]), root(&mut part, i));
            part[a] = b;
        }
    }
    let mut anchored = BTreeSet::new();
    for (i, own) in atoms.iter().enumerate() {
        if own.iter().any(|&a| a < first_decoy) {
            anchored.insert(root(&mut part, i));
        }
    }
    (0..props.len()).all(|i| anchored.contains(&root(&mut part, i)))
}

/// A literal place of a distractor's template that becomes a decoy.
struct Slot {
    /// Which distractor.
    at: usize,
    place: Place,
    /// How many other premises mention the template's atom there (1 to
    /// `count - 1`): the decoy is shared by that many more distractors.
    want: usize,
    /// For the distractor's safe place, the decoy's polarity it needs.
    polarity: Option<bool>,
    /// Whether the place is an "if" part: a decoy joins an "if" part to
    /// another's "then" part where it can, as a real sentence is made by
    /// one premise and used by the next.
    antecedent: bool,
}

/// Groups `slots` into decoys: `want + 1` slots of distinct distractors and
/// one polarity where it can; a safe slot left over joins a group it fits,
/// another keeps its real atom. `None` when a safe slot finds no group.
fn group_slots(slots: &[Slot]) -> Option<Vec<Vec<usize>>> {
    let mut groups: Vec<(Vec<usize>, Option<bool>)> = Vec::new();
    let fits = |members: &[usize], polarity: Option<bool>, o: usize| {
        members.iter().all(|&m| slots[m].at != slots[o].at)
            && (polarity.is_none() || slots[o].polarity.is_none() || polarity == slots[o].polarity)
    };
    let mut placed = vec![false; slots.len()];
    for s in 0..slots.len() {
        if placed[s] {
            continue;
        }
        let mut members = vec![s];
        let mut polarity = slots[s].polarity;
        // Partners in the other role first.
        let role = |o: &usize| slots[*o].antecedent == slots[s].antecedent;
        let (same, other): (Vec<usize>, Vec<usize>) = (s + 1..slots.len()).partition(role);
        for o in other.into_iter().chain(same) {
            if members.len() > slots[s].want {
                break;
            }
            if !placed[o] && slots[o].want == slots[s].want && fits(&members, polarity, o) {
                members.push(o);
                polarity = polarity.or(slots[o].polarity);
            }
        }
        if members.len() > 1 {
            for &m in &members {
                placed[m] = true;
            }
            groups.push((members, polarity));
        }
    }
    for s in 0..slots.len() {
        if placed[s] || slots[s].polarity.is_none() {
            continue;
        }
        let g = groups.iter().position(|(m, p)| fits(m, *p, s))?;
        groups[g].0.push(s);
        groups[g].1 = groups[g].1.or(slots[s].polarity);
    }
    Some(groups.into_iter().map(|(m, _)| m).collect())
}

/// Appends `count` decoy distractors to the pool of `b` (whose paths are
/// built) and returns their pool indices: where [`copied_windows`] finds no
/// window (a single distractor, or more than a family's premises).
///
/// Each distractor holds whenever a "safe" literal does, which some
/// assignment makes true without touching the real premises: a literal of a
/// decoy atom that only distractors mention, at a polarity fixed per decoy
/// atom (`¬G` for a lone distractor). So it is in no minimal support: for
/// any premises `S` that do not entail `G`, a model of `S` with `G` false,
/// its decoy atoms set to their polarity, satisfies every distractor, so
/// `S` with distractors does not entail `G` either.
///
/// Each distractor stands for a real premise drawn uniformly (its target)
/// and copies a real premise of the target's shape (its template, drawn
/// per way; the goal in place, other atoms alike): one literal on its
/// disjunctive spine (a disjunct, a consequent, or a literal antecedent;
/// never `G`) becomes its safe decoy literal, made true (or, as an
/// antecedent, false) by the decoy's polarity, and other literals may
/// become decoys too (always those as mentioned as its most mentioned
/// one, where they can); each decoy literal keeps the sign of the literal
/// it replaces, so the shape, the kind and the goal's place and polarity
/// are the target's. A decoy stands for a template atom that `k` other
/// premises mention and is shared by `k + 1` distractors where it can,
/// joining an "if" part to a "then" part first, and each cluster of
/// distractors joined by decoys mentions a real atom. Of
/// [`DISTRACTOR_DRAWS`] draws of templates, places and decoys, the one
/// whose distractors link to the others most as their targets do (see
/// [`LinkCounts::profile`]) is kept, among those that repeat no premise.
///
/// A real atom a distractor keeps gains it as a mention: with the
/// template its own target, a distractor's most mentioned atom was in one
/// more premise than its template's for 39% of distractors (seed 101,
/// Large); a template whose atoms are mentioned less can now stand in.
/// Two distractors from one template could come out the same (20 of 200
/// instances, seed 101, Small). Before that, each decoy was in exactly
/// two distractors and a template that mentioned `G` gave `G → w` or
/// `¬w → ¬G`: a distractor's least mentioned sentence was always in
/// exactly one other premise (78% of real premises, seed 101, Small) and
/// none concluded `G`; `links-lr` in `scripts/cue-audit` read +8 to +21.
fn distractors<R: Rng>(b: &mut Builder<'_, R>, count: usize, literals: &[Prop]) -> Vec<usize> {
    if count == 0 {
        return Vec::new();
    }
    let real = b.pool.clone();
    let real_counts = LinkCounts::of(&real);
    let mentions = &real_counts.mentions;
    // Templates with a literal on their spine (all but rules such as
    // `X → G` with a compound `X`).
    let eligible: Vec<usize> = (0..real.len())
        .filter(|&k| !literal_places(&real[k], true).is_empty())
        .collect();
    let others = |a: usize| mentions.get(&a).copied().unwrap_or(1).saturating_sub(1);
    let first_decoy = b.last_atom + 1;
    let decoy = |g: usize, like: &Prop| {
        let d = Prop::atom(first_decoy + g);
        if matches!(like, Prop::Not(..)) {
            Prop::neg(&d)
        } else {
            d
        }
    };
    let mut best: Option<(usize, Vec<Prop>, usize)> = None;
    let mut targets: Vec<usize> = Vec::new();
    // The eligible premises by shape: the goal kept, other atoms alike.
    let mut to = vec![1; first_decoy];
    to[0] = 0;
    let shape = |p: &Prop| p.renamed(&to);
    let mut alike: BTreeMap<Prop, Vec<usize>> = BTreeMap::new();
    for &k in &eligible {
        alike.entry(shape(&real[k])).or_default().push(k);
    }
    for draw in 0..DISTRACTOR_DRAWS {
        if best.as_ref().is_some_and(|(cost, _, _)| *cost == 0) {
            break;
        }
        // New targets while a quarter of the draws found no way (all
        // facts, say, which no real sentence would join).
        if draw % (DISTRACTOR_DRAWS / 4) == 0 && best.is_none() {
            targets = (0..count)
                .filter_map(|_| eligible.choose(b.rng).copied())
                .collect();
        }
        if count < 2 || targets.len() != count {
            break;
        }
        // Each target's template: a real premise of its shape.
        let templates: Vec<usize> = targets
            .iter()
            .map(|&t| {
                *alike[&shape(&real[t])]
                    .choose(b.rng)
                    .expect("the target is alike")
            })
            .collect();
        // The places that become decoys: a safe one per distractor, and
        // others with a probability drawn per way.
        let safe: Option<Vec<(Place, bool)>> = templates
            .iter()
            .map(|&t| literal_places(&real[t], true).choose(b.rng).cloned())
            .collect();
        let Some(safe) = safe else {
            continue;
        };
        let share = [0.5, 0.8, 1.0][b.rng.gen_range(0..3)];
        let mut slots = Vec::new();
        for (i, (&t, (safe, safe_antecedent))) in templates.iter().zip(&safe).enumerate() {
            let t = &real[t];
            // Atoms as mentioned as its most mentioned one become decoys
            // where they can: a real atom kept gains the distractor as a
            // mention.
            let top = atoms_in(t).into_iter().map(others).max().unwrap_or(0);
            for (place, antecedent) in literal_places(t, false) {
                let literal = literal_at(t, &place);
                let want = others(atoms_in(literal)[0]);
                let negated = matches!(literal, Prop::Not(..));
                let polarity = (place == *safe).then_some(negated == *safe_antecedent);
                if polarity.is_some() || (want < count && (want == top || b.rng.gen_bool(share))) {
                    slots.push(Slot {
                        at: i,
                        place,
                        want: want.clamp(1, count - 1),
                        polarity,
                        antecedent,
                    });
                }
            }
        }
        slots.shuffle(b.rng);
        // Safe places first: they must have a decoy.
        slots.sort_by_key(|s| s.polarity.is_none());
        let Some(groups) = group_slots(&slots) else {
            continue;
        };
        let mut props: Vec<Prop> = templates.iter().map(|&t| real[t].clone()).collect();
        for (g, members) in groups.iter().enumerate() {
            for &m in members {
                let Slot { at, place, .. } = &slots[m];
                let like = literal_at(&real[templates[*at]], place).clone();
                props[*at] = replace_at(&props[*at], place, &decoy(g, &like));
            }
        }
        if repeats_a_premise(&props, &real) || !decoys_hold_together(&props, first_decoy) {
            continue;
        }
        let mut counts = real_counts.clone();
        for p in &props {
            counts.add(p);
        }
        let cost: usize = (0..count)
            .map(|i| {
                let (got, want) = (
                    counts.profile(&props[i]),
                    real_counts.profile(&real[targets[i]]),
                );
                got.iter()
                    .zip(&want)
                    .map(|(x, y)| x.abs_diff(*y))
                    .sum::<usize>()
            })
            .sum();
        if best.as_ref().is_none_or(|(c, _, _)| cost < *c) {
            best = Some((cost, props, groups.len()));
        }
    }
    let drawn = match best {
        Some((_, props, decoys)) => {
            b.last_atom += decoys;
            props
        }
        // A lone distractor: the goal's negation is its safe literal; a
        // fresh literal when the pool's keep giving a premise already there.
        None => {
            let safe = Prop::neg(&Prop::atom(0));
            let taken = |d: &Prop, lone: &[Prop]| real.contains(d) || lone.contains(d);
            let mut lone: Vec<Prop> = Vec::new();
            for _ in 0..count {
                let found = (0..17)
                    .map(|_| b.distractor(&safe, literals))
                    .find(|d| !taken(d, &lone));
                lone.push(found.unwrap_or_else(|| b.distractor(&safe, &[])));
            }
            lone
        }
    };
    let mut out = Vec::with_capacity(count);
    for d in drawn {
        b.pool.push(d);
        out.push(b.pool.len() - 1);
    }
    out
}

/// Whether one of `props` is in `real` or twice in `props`: a repeated
/// sentence would mark its copies.
fn repeats_a_premise(props: &[Prop], real: &[Prop]) -> bool {
    props
        .iter()
        .enumerate()
        .any(|(i, p)| real.contains(p) || props[..i].contains(p))
}

/// Whether `props` can all be made true, whatever values the atoms below
/// `first_fresh` they mention take, by choosing their atoms from
/// `first_fresh` on. Only `props` mention those atoms, so then no premise of
/// `props` is in a minimal support: a model of other premises with `G`
/// false extends to one of `props` too. `false` past [`HARMLESS_ATOMS`]
/// atoms, which a truth table would make slow.
fn harmless(props: &[Prop], first_fresh: usize) -> bool {
    let atoms: BTreeSet<usize> = props.iter().flat_map(atoms_in).collect();
    if atoms.len() > HARMLESS_ATOMS {
        return false;
    }
    // Row `r` gives the `i`th atom bit `i`: the shared ones (the lowest
    // numbers) are the low bits.
    let shared = atoms.iter().filter(|&&a| a < first_fresh).count();
    let table = TruthTable::with_atoms(atoms.iter().map(|&a| Prop::atom_name(a)).collect());
    let formulas: Vec<_> = props.iter().map(Prop::to_formula).collect();
    let Ok(models) = table.and_then(|t| t.models_of_all(&formulas)) else {
        return false;
    };
    let fresh = atoms.len() - shared;
    (0..1usize << shared).all(|s| (0..1usize << fresh).any(|f| models.contains(s | f << shared)))
}

/// The most atoms [`harmless`] tabulates.
const HARMLESS_ATOMS: usize = 14;

/// How many figures [`LinkCounts::profile`] gives: six of links, then
/// [`SHARING`] of how a premise's sentences are shared with the others.
const PROFILE: usize = 6 + SHARING;

/// The sharing figures of a profile. Matched on links alone, a boosted
/// reader of the sharing figures (`sharing-gb` in `scripts/cue-audit`)
/// named distractors +5.4 points above chance in Large (seeds 40961 and
/// 57203): a copy whose "then" sentence is kept from the pool has its
/// original beside it, so its "then" atoms were in more others' "then"
/// parts (2.67 against 2.45 per premise, seed 1001) and its "if" atoms in
/// fewer (1.35 against 1.49), and its least shared atom in fewer others.
const SHARING: usize = 7;

/// A premise's link and sharing figures (see [`LinkCounts::profile`]).
type Profile = [usize; PROFILE];

/// How far from the cheapest the distractors kept may be: each candidate
/// set (a window, broken paths, a mixture) is ranked by its
/// [`Match::cost`] less this many times a Gumbel draw, so that the set
/// kept is drawn among the candidates with weight `exp(-cost / noise)`
/// instead of always being the cheapest, over the odds that its premises
/// are distractors by their looks (see [`Match::key`]). A window copy of
/// cost 0 was kept outright before the looks were weighed; it now stops
/// the search for windows but is drawn like the others.
///
/// The cheapest set made distractors more typical than real premises. A
/// real fact whose sentence several branches re-derive is atypical, and a
/// candidate that copies one costs more (a median 13 more than the set
/// kept), so 82% of distractor facts had their sentence in only one other
/// premise against 69% of real facts, and a wider search made it worse
/// (87% with twice the candidates). Drawn at noise 8: 74% against 67%
/// (seed 777, Large). Gradient-boosted trees on all of the audit's
/// features (`all-gb` of `scripts/cue-audit`, 800 Large instances, 8
/// distractors, held-out halves) read +6.6 and +6.8 points above chance
/// with the cheapest set (seeds 73919+51622 and 35813+90472), +5.0 and
/// +5.0 at noise 5, and +6.1 and +5.1 at noise 5 with [`LONELY_WEIGHT`]
/// (kept: without it `tests/cue_audit.rs` flags a words lookup); at the
/// first pair noise 3, 8 and 15 read +5.7, +6.0 and +5.7, noise 3 with
/// [`LONELY_WEIGHT`] +7.1, and the cheapest of half the candidates +6.0.
/// One such figure moves by about a point between builds, so the gain
/// (about a point) is not much above the noise. The audit (100
/// instances a tier and seed, seeds 48317+13759 and 62093+27541), worst
/// reader: +5.5 (Large `all-gb`) and +3.7 with the cheapest set, +4.6 and
/// +5.0 (Small `all-gb`) now. Generation time is unchanged (Small 35 ->
/// 33 ms, Large 47 -> 45 ms an instance). Tried there
/// and dropped: half the windows started around a [`Match`] target's
/// least shared sentence (+6.6, and +6.3 with noise 5); decoy families,
/// broken paths whose branches re-derive a step of a broken core drawn
/// among them, as a real family's branches do (+6.4, and +6.4 with
/// noise 3; twice the generation time).
const SELECTION_NOISE: f64 = 5.0;

/// A candidate's rank for [`SELECTION_NOISE`]: its cost less Gumbel noise.
fn selection_key<R: Rng>(cost: usize, rng: &mut R) -> f64 {
    let u: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
    cost as f64 + SELECTION_NOISE * (-u.ln()).ln()
}

/// How many windows [`copied_windows`] draws; the copy of least
/// [`Match::cost`] is kept.
const WINDOW_DRAWS: usize = 64;

/// `count` distractors copied from a window of the real pool of `m`, with
/// their [`Match::cost`] and the number of fresh atoms they take; `None` when no
/// window works (fewer than 2, or no connected `count` premises). Nothing
/// is added to the pool.
///
/// A window is `count` real premises joined by shared sentences other than
/// `G`, grown from one drawn at random or from all that mention one
/// sentence. Its copy renames the atoms that only the window mentions to
/// fresh ones and keeps the rest (its boundary, and `G`), so the copies
/// link to each other as their originals do (a step's twins stay twins, a
/// "then" part stays another's "if" part) and to the pool where their
/// originals do. A copy that would derive something of its boundary gets
/// one literal of a fresh atom negated (a fallacy: a denied
/// antecedent, an affirmed consequent); each negation that makes it
/// [`harmless`] is a candidate. No copy is then in a minimal support, and
/// the prover checks every instance again. Of the candidates of
/// [`WINDOW_DRAWS`] windows, the one kept is drawn by its cost (see
/// [`SELECTION_NOISE`]), against premises drawn uniformly: against the
/// window's own originals, the kept copies held more compound premises (those make a
/// window harmless more easily), and a premise with a sentence form no
/// other premise writes marked 46% of distractors against 29% of real
/// premises (seed 77, Large).
///
/// Copies replaced decoy distractors ([`distractors`], now the way out when
/// no window works). A reader who ranks an instance's premises by their
/// links and graph (`scripts/distractor-ranking`) named decoy distractors
/// among its top 4 more often than copies: Small +15.3 against +12.0
/// points above chance (seed 9191), +17.7 against +11.1 (seed 60606);
/// Medium +11.8 against +9.0, Large +7.9 against +7.8 (seed 60606).
/// Decoys could be shared only among the few distractors, so a
/// distractor's "then" part was another's "if" part less often than a
/// real premise's.
fn copied_windows<R: Rng>(
    b: &mut Builder<'_, R>,
    count: usize,
    m: &Match<'_>,
) -> Option<(f64, Vec<Prop>, usize)> {
    let real = m.real;
    if count < 2 || real.is_empty() {
        return None;
    }
    let mut by_atom: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, p) in real.iter().enumerate() {
        for a in atoms_in(p) {
            if a != 0 {
                by_atom.entry(a).or_default().push(i);
            }
        }
    }
    let near = |i: usize| -> BTreeSet<usize> {
        atoms_in(&real[i])
            .iter()
            .flat_map(|a| by_atom.get(a).cloned().unwrap_or_default())
            .filter(|&j| j != i)
            .collect()
    };
    let first_fresh = b.last_atom + 1;
    let hubs: Vec<&Vec<usize>> = by_atom
        .values()
        .filter(|by| by.len() >= 3 && by.len() <= count)
        .collect();
    // Hubs whose sentence a fact states: a real fact's sentence is often
    // re-derived or used by several steps (30% of real facts are in two or
    // more other premises, against 16% of copied ones when hubs were drawn
    // alike, seed 1001, Large).
    let fact_hubs: Vec<&Vec<usize>> = hubs
        .iter()
        .copied()
        .filter(|by| by.iter().any(|&j| real[j].is_literal()))
        .collect();
    let mut best: Option<(f64, Vec<Prop>, usize)> = None;
    let mut perfect = false;
    for _ in 0..WINDOW_DRAWS {
        if perfect {
            break;
        }
        // Half the windows start from every premise that mentions one
        // sentence (of those mentioned 3 or more times, if any fit), so
        // that a copy can hold a sentence as linked as the real pool's
        // most linked ones: where branches re-derive a step, its fact's
        // sentence is in 4 or more other premises (3.2% of real premises
        // have every sentence so linked, against 0.4% of distractors, seed
        // 80809, Large).
        let from = if b.rng.gen_bool(0.5) && !fact_hubs.is_empty() {
            &fact_hubs
        } else {
            &hubs
        };
        let mut window = match from.choose(b.rng) {
            Some(by) if b.rng.gen_bool(0.5) => (*by).clone(),
            _ => vec![b.rng.gen_range(0..real.len())],
        };
        while window.len() < count {
            let frontier: BTreeSet<usize> = window
                .iter()
                .flat_map(|&i| near(i))
                .filter(|j| !window.contains(j))
                .collect();
            let frontier: Vec<usize> = frontier.into_iter().collect();
            match frontier.choose(b.rng) {
                Some(&j) => window.push(j),
                None => break,
            }
        }
        if window.len() != count {
            continue;
        }
        let mut to: Vec<usize> = (0..first_fresh).collect();
        let mut fresh = 0;
        for (&a, by) in &by_atom {
            if by.iter().all(|j| window.contains(j)) {
                to[a] = first_fresh + fresh;
                fresh += 1;
            }
        }
        if fresh == 0 {
            continue;
        }
        let copy: Vec<Prop> = window.iter().map(|&j| real[j].renamed(&to)).collect();
        let mut flips: Vec<Option<(usize, Place)>> = (0..copy.len())
            .flat_map(|k| {
                literal_places(&copy[k], false)
                    .into_iter()
                    .map(move |(place, _)| (k, place))
            })
            .filter(|(k, place)| atoms_in(literal_at(&copy[*k], place))[0] >= first_fresh)
            .map(Some)
            .collect();
        flips.shuffle(b.rng);
        flips.insert(0, None);
        for flip in flips {
            let mut props = copy.clone();
            if let Some((k, place)) = &flip {
                let negated = Prop::neg(literal_at(&props[*k], place));
                props[*k] = replace_at(&props[*k], place, &negated);
            }
            if repeats_a_premise(&props, real) || !harmless(&props, first_fresh) {
                continue;
            }
            let (key, cost) = m.key(&props, b.rng);
            perfect |= cost == 0;
            if best.as_ref().is_none_or(|(c, _, _)| key < *c) {
                best = Some((key, props, fresh));
            }
            // A copy that derives nothing keeps all its literals.
            if flip.is_none() {
                break;
            }
        }
    }
    best
}

/// What distractors are matched against: the real pool (whose paths are
/// built), its [`LinkCounts`], the atoms other than `G` it mentions (in
/// increasing order), and as many of its premises drawn uniformly as there
/// are distractors.
struct Match<'a> {
    real: &'a [Prop],
    counts: LinkCounts,
    atoms: Vec<usize>,
    targets: Vec<usize>,
    reader: looks::Reader,
}

impl<'a> Match<'a> {
    fn new<R: Rng>(real: &'a [Prop], count: usize, rng: &mut R) -> Self {
        let counts = LinkCounts::of(real);
        let atoms = counts
            .mentions
            .keys()
            .copied()
            .filter(|&a| a != 0)
            .collect();
        let targets = (0..count).map(|_| rng.gen_range(0..real.len())).collect();
        Match {
            real,
            counts,
            atoms,
            targets,
            reader: looks::Reader::new(real),
        }
    }

    /// The rank of candidate distractors `props` (lowest kept), and their
    /// [`Match::cost`]: the cost, plus [`SELECTION_NOISE`] times how much
    /// like distractors they look ([`looks::Reader::distractor_look`], in log
    /// odds), less Gumbel noise. So a candidate is kept with weight
    /// `exp(-cost / noise)` over its look's odds.
    fn key<R: Rng>(&self, props: &[Prop], rng: &mut R) -> (f64, usize) {
        let cost = self.cost(props);
        let look = self.reader.distractor_look(props) as f64 / 1000.0;
        (selection_key(cost, rng) + SELECTION_NOISE * look, cost)
    }

    /// How far `props`, added to the real pool, are from linking to the
    /// others as the targets do: each matched greedily to the nearest
    /// target not yet matched, by link profile (see [`LinkCounts::profile`]),
    /// length, and whether both are facts or both rules
    /// ([`KIND_MISMATCH`]).
    fn cost(&self, props: &[Prop]) -> usize {
        let mut counts = self.counts.clone();
        for p in props {
            counts.add(p);
        }
        let mut open: Vec<(usize, Profile)> = self
            .targets
            .iter()
            .map(|&t| (t, counts.profile(&self.real[t])))
            .collect();
        let mut cost = 0;
        for copy in props {
            let mine = counts.profile(copy);
            let distance = |&(t, theirs): &(usize, Profile)| {
                let links: usize = mine
                    .iter()
                    .zip(&theirs)
                    .map(|(x, y)| x.abs_diff(*y))
                    .sum::<usize>()
                    + (LONELY_WEIGHT - 1) * mine[LONELY].abs_diff(theirs[LONELY]);
                links
                    + copy.size().min(6).abs_diff(self.real[t].size().min(6))
                    + KIND_MISMATCH * usize::from(copy.is_literal() != self.real[t].is_literal())
            };
            let (at, d) = open
                .iter()
                .enumerate()
                .map(|(i, target)| (i, distance(target)))
                .min_by_key(|&(_, d)| d)
                .expect("as many targets as copies");
            cost += d;
            open.swap_remove(at);
        }
        cost
    }
}

/// The place in a [`Profile`] of the literals no other premise writes.
const LONELY: usize = 5;

/// How many times [`Match::cost`] counts a difference in [`LONELY`]
/// literals. Drawn by cost ([`SELECTION_NOISE`]) with it counted once, a
/// lookup of how many of a premise's words no other premise has read
/// +6.3 to +6.7 points in Medium (`tests/cue_audit.rs`, seed 101; +2.0
/// with the cheapest set).
const LONELY_WEIGHT: usize = 4;

/// What a fact matched to a rule, or a rule to a fact, adds to
/// [`Match::cost`]. By length alone a rule stood in for a fact too cheaply:
/// distractors were 14.1% facts against 18.7% of real premises (seed
/// 80809, Large), and the fact/rule feature alone read +2.5 points. With
/// the sharing figures in the profile, 2 weighed too little again (16.5%
/// against 18.8%, seed 1001, Large); 4 gives 17.3%.
const KIND_MISMATCH: usize = 4;

/// Appends `count` distractors and returns their pool indices: of a copied
/// window ([`copied_windows`]) and [`BROKEN_CANDIDATES`] draws of broken
/// paths ([`broken_paths`]) that take at most `room` fresh atoms, one
/// whose premises link to the others as `count` premises drawn uniformly
/// do ([`Match::cost`]), drawn by its cost ([`SELECTION_NOISE`]). None
/// when neither works.
///
/// Windows alone held too few facts (13.5% of distractors against 19.3% of
/// real premises, seed 9191, Small): a copied fact is harmless only with
/// both steps that use its sentence in the window. Broken paths alone held
/// too many (41%): paths short enough to fit `count` are mostly their
/// first step, which states the facts. Chosen by cost, broken paths are
/// kept in about a third of the instances, and a reader of links and graph
/// (`scripts/distractor-ranking`, seed 60606) names distractors 1 to 3
/// points less often than with windows alone, in every tier.
///
/// [`MIXED_CANDIDATES`] sets mix the two, a window and broken paths, so
/// that the share of facts can land between theirs. With them, the
/// [`KIND_MISMATCH`] term and windows started from a linked sentence
/// ([`copied_windows`]), a scikit-learn regression on the audit's link
/// features (1,000 instances a tier and seed, 8 distractors, trained on
/// half and tested on the other, both ways) fell from +4.1 / +4.3 / +4.7
/// to +3.4 / +3.6 / +4.0 points in Small / Medium / Large (seeds 7373 and
/// 60317; Large also 5151). Hanging the mixtures' broken paths from the
/// window's sentences rather than real ones took Large to +3.5.
fn matched_distractors<R: Rng>(
    b: &mut Builder<'_, R>,
    count: usize,
    cores: &[Vec<BuiltStep>],
    used: &BTreeMap<(usize, usize), Vec<Form>>,
    paths: usize,
    room: usize,
) -> Vec<usize> {
    let real = b.pool.clone();
    if count == 0 || real.is_empty() {
        return Vec::new();
    }
    let m = Match::new(&real, count, b.rng);
    let mut best = copied_windows(b, count, &m).filter(|(_, _, fresh)| *fresh <= room);
    let mut consider = |props: Vec<Prop>, fresh: usize, rng: &mut R| {
        let (key, _) = m.key(&props, rng);
        if best.as_ref().is_none_or(|(c, _, _)| key < *c) {
            best = Some((key, props, fresh));
        }
    };
    for _ in 0..BROKEN_CANDIDATES {
        if let Some((props, fresh)) = broken_paths(b, count, cores, used, paths, &m.atoms, room) {
            consider(props, fresh, b.rng);
        }
    }
    // Mixed: a window of all but `j` and `j` premises of broken paths, whose
    // fresh atoms follow the window's. Each part is harmless over the atoms
    // below its own fresh ones, so together they are. Not below the fewest
    // distractors called hidden: a mixture is then mostly a window of two
    // and one step of two premises, and with them 4 distractors read +5.6
    // / +7.7 / +8.8 (`links-lr`, seed 90210, Small / Medium / Large)
    // against +5.1 / +6.1 / +6.6 without. Each part needs two premises: a
    // window is joined by a shared sentence, and a path's step cites two or
    // more.
    let mixtures = if count >= FEWEST_HIDDEN_DISTRACTORS {
        MIXED_CANDIDATES
    } else {
        0
    };
    for _ in 0..mixtures {
        let j = b.rng.gen_range(2..=count - 2);
        let Some((_, mut props, fresh)) =
            copied_windows(b, count - j, &m).filter(|(_, _, fresh)| *fresh <= room)
        else {
            continue;
        };
        // The paths hang from the window's own sentences, not from real
        // ones: a real sentence a distractor keeps gains it as a mention,
        // which a distractor's own sentences gain only from each other.
        let window: Vec<usize> = (b.last_atom + 1..=b.last_atom + fresh).collect();
        b.last_atom += fresh;
        let rest = broken_paths(b, j, cores, used, paths, &window, room - fresh);
        b.last_atom -= fresh;
        let Some((more, more_fresh)) = rest else {
            continue;
        };
        props.extend(more);
        if !repeats_a_premise(&props, &real) {
            consider(props, fresh + more_fresh, b.rng);
        }
    }
    let Some((_, props, fresh)) = best else {
        return Vec::new();
    };
    b.last_atom += fresh;
    b.pool.extend(props);
    (real.len()..b.pool.len()).collect()
}

/// The weight of each path length from 2 steps (index 0) to 14: the
/// published shape, 2 to 14 steps peaking at 5 and 6, mean about 6.
const LENGTH_WEIGHTS: [u32; 13] = [4, 9, 15, 18, 18, 12, 8, 6, 4, 2, 2, 1, 1];

/// A path length within the configured depth range, drawn with
/// [`LENGTH_WEIGHTS`] (uniform over a range outside 2..14).
fn draw_length<R: Rng>(rng: &mut R, (dmin, dmax): (usize, usize)) -> usize {
    let weights: Vec<(usize, u32)> = (dmin..=dmax)
        .filter_map(|n| LENGTH_WEIGHTS.get(n.wrapping_sub(2)).map(|&w| (n, w)))
        .collect();
    match weights.choose_weighted(rng, |c| c.1) {
        Ok(&(n, _)) => n,
        Err(_) => rng.gen_range(dmin..=dmax),
    }
}

/// Where a branch of `length` steps joins its core, drawn as `(family, core
/// step, own steps)`: it re-derives the core step's conclusion in `own`
/// steps of its own, then follows the core's remaining steps. `None` when
/// the drawn core is too short for the length.
fn draw_branch_site<R: Rng>(
    rng: &mut R,
    cores: &[Vec<BuiltStep>],
    depth: (usize, usize),
) -> Option<(usize, usize, usize)> {
    let length = draw_length(rng, depth);
    let f = rng.gen_range(0..cores.len());
    let n = cores[f].len();
    let sites: Vec<usize> = (0..n.saturating_sub(1))
        .filter(|&j| n - 1 - j < length)
        .collect();
    let &j = sites.choose(rng)?;
    Some((f, j, length - (n - 1 - j)))
}

/// How many sets of broken paths [`matched_distractors`] draws beside the
/// copied window.
const BROKEN_CANDIDATES: usize = 32;

/// How many mixtures of a window and broken paths [`matched_distractors`]
/// draws.
const MIXED_CANDIDATES: usize = 8;

/// How many paths [`broken_paths`] draws before it gives up.
const BROKEN_DRAWS: usize = 64;

/// `count` distractors built as proof paths are built, each path with one
/// literal negated so that it proves nothing, with the number of fresh atoms
/// they take; `None` when the paths drawn do not make up exactly `count`
/// premises or take more than `room` fresh atoms (drawing stops once they
/// do). Nothing is added to the pool. `hang_from` are the atoms below
/// the fresh ones, other than `G`, that a path may hang from (see below),
/// in increasing order.
///
/// Each path is a core (concluding `G`) or a branch (re-deriving a core
/// step's conclusion), in the shares of the instance's own `paths`, drawn
/// by the same [`Builder::derive`] with the same lengths; so its premises
/// chain, state facts and mention `G` as a real path's do. Half the time it
/// hangs from a sentence of `hang_from` instead of starting at a fact: one
/// fact is dropped and its atom becomes that sentence. Then one
/// literal of a fresh atom is negated (a denied antecedent, an affirmed
/// consequent, a fact that no longer holds), the first in a shuffled order
/// that makes the path [`harmless`]: it derives nothing about the atoms it
/// shares, so no premise of it is in a minimal support; the prover checks
/// every instance again. A path longer than what is left of `count` is
/// drawn again.
fn broken_paths<R: Rng>(
    b: &mut Builder<'_, R>,
    count: usize,
    cores: &[Vec<BuiltStep>],
    used: &BTreeMap<(usize, usize), Vec<Form>>,
    paths: usize,
    hang_from: &[usize],
    room: usize,
) -> Option<(Vec<Prop>, usize)> {
    let (start, first_fresh) = (b.pool.len(), b.last_atom + 1);
    let kept = |props: &[Prop]| -> BTreeSet<usize> {
        props
            .iter()
            .flat_map(atoms_in)
            .filter(|&a| a >= first_fresh)
            .collect()
    };
    let mut used = used.clone();
    for _ in 0..BROKEN_DRAWS {
        if b.pool.len() - start >= count || kept(&b.pool[start..]).len() > room {
            break;
        }
        let (mark, mark_atom) = (b.pool.len(), b.last_atom);
        let site = if b.rng.gen_range(0..paths) < cores.len() {
            let n = draw_length(b.rng, b.config.depth);
            b.derive(&Prop::atom(0), n, &[]).map(|_| None)
        } else {
            draw_branch_site(b.rng, cores, b.config.depth).and_then(|(f, j, own)| {
                let exclude = used.get(&(f, j)).cloned().unwrap_or_default();
                let steps = b.derive(&cores[f][j].conclusion, own, &exclude)?;
                Some(steps.last().map(|last| ((f, j), last.form)))
            })
        };
        let mut piece = b.pool.split_off(mark);
        if b.rng.gen_bool(0.5) && piece.len() > 2 {
            let facts: Vec<usize> = (0..piece.len())
                .filter(|&k| piece[k].is_literal())
                .collect();
            if let (Some(&k), Some(&r)) = (facts.choose(b.rng), hang_from.choose(b.rng)) {
                let mut to: Vec<usize> = (0..=b.last_atom).collect();
                to[atoms_in(&piece[k])[0]] = r;
                piece.remove(k);
                piece = piece.iter().map(|p| p.renamed(&to)).collect();
            }
        }
        let fits = mark + piece.len() <= start + count;
        match site.filter(|_| fits).and_then(|site| {
            let broken = break_path(&piece, mark_atom + 1, &b.pool, b.rng)?;
            Some((broken, site))
        }) {
            Some((broken, site)) => {
                b.pool.extend(broken);
                if let Some((at, form)) = site {
                    used.entry(at).or_default().push(form);
                }
            }
            None => b.last_atom = mark_atom,
        }
    }
    let props = b.pool.split_off(start);
    b.last_atom = first_fresh - 1;
    let kept = kept(&props);
    if props.len() != count || kept.len() > room {
        return None;
    }
    // Number the fresh atoms the paths kept (a dropped fact's is gone) from
    // `first_fresh` on, without gaps.
    let top = props.iter().flat_map(atoms_in).max().unwrap_or(0);
    let mut to: Vec<usize> = (0..=top).collect();
    for (k, &a) in kept.iter().enumerate() {
        to[a] = first_fresh + k;
    }
    Some((props.iter().map(|p| p.renamed(&to)).collect(), kept.len()))
}

/// `path` with one literal of an atom from `first_fresh` on negated, the
/// first in a random order that makes it [`harmless`] and repeats no premise
/// of `pool`.
fn break_path<R: Rng>(
    path: &[Prop],
    first_fresh: usize,
    pool: &[Prop],
    rng: &mut R,
) -> Option<Vec<Prop>> {
    let mut places: Vec<(usize, Place)> = (0..path.len())
        .flat_map(|k| {
            literal_places(&path[k], false)
                .into_iter()
                .map(move |(place, _)| (k, place))
        })
        .filter(|(k, place)| atoms_in(literal_at(&path[*k], place))[0] >= first_fresh)
        .collect();
    places.shuffle(rng);
    places.into_iter().find_map(|(k, place)| {
        let mut props = path.to_vec();
        props[k] = replace_at(&props[k], &place, &Prop::neg(literal_at(&props[k], &place)));
        (!repeats_a_premise(&props, pool) && harmless(&props, first_fresh)).then_some(props)
    })
}

/// The number of families of an instance with `paths` paths, drawn with
/// the configured weights (see [`Config::families`]) among those possible.
fn draw_families<R: Rng>(config: &Config, rng: &mut R, paths: usize) -> usize {
    let weights: Vec<(usize, u32)> = (1..=paths)
        .map(|k| (k, config.families.get(k - 1).copied().unwrap_or(0)))
        .collect();
    match weights.choose_weighted(rng, |c| c.1) {
        Ok(&(k, _)) => k,
        Err(_) => rng.gen_range(1..=paths.min(config.families.len().max(1))),
    }
}

/// Builds one skeleton from `rng` under `config`.
pub(crate) fn build<R: Rng>(config: &Config, rng: &mut R) -> Result<Skeleton, BuildFailure> {
    let (dmin, dmax) = config.depth;
    let total_paths = draw_paths(config, rng);
    let families = if dmax < 2 {
        total_paths
    } else {
        draw_families(config, rng, total_paths)
    };
    let mut b = Builder {
        rng,
        config,
        last_atom: 0,
        pool: Vec::new(),
    };
    let goal = Prop::atom(0);
    // Every path, core or branch, has its length drawn from the same
    // weights, so depth does not depend on the number of paths.
    let mut cores: Vec<Vec<BuiltStep>> = Vec::new();
    for _ in 0..families {
        let n = draw_length(b.rng, (dmin, dmax));
        let steps = b.derive(&goal, n, &[]).ok_or(BuildFailure::NoBranchSite)?;
        cores.push(steps);
    }
    // Forms already used to derive each (family, core step) conclusion.
    let mut used: BTreeMap<(usize, usize), Vec<Form>> = BTreeMap::new();
    for (f, core) in cores.iter().enumerate() {
        for (j, st) in core.iter().enumerate() {
            used.insert((f, j), vec![st.form]);
        }
    }
    let mut branches: Vec<BuiltPath> = Vec::new();
    for _ in families..total_paths {
        let mut placed = false;
        for _attempt in 0..40 {
            let Some((f, j, own)) = draw_branch_site(b.rng, &cores, (dmin, dmax)) else {
                continue;
            };
            let target = cores[f][j].conclusion.clone();
            let exclude = used.get(&(f, j)).cloned().unwrap_or_default();
            let Some(mut steps) = b.derive(&target, own, &exclude) else {
                continue;
            };
            if let Some(last) = steps.last() {
                used.entry((f, j)).or_default().push(last.form);
            }
            steps.extend(cores[f][j + 1..].iter().cloned());
            branches.push(BuiltPath {
                family: f + 1,
                branch_from: Some(j),
                steps,
            });
            placed = true;
            break;
        }
        if !placed {
            return Err(BuildFailure::NoBranchSite);
        }
    }
    // What distractors may mention: facts and literal conclusions, never `G`.
    let mut literals: Vec<Prop> = b.pool.iter().filter(|p| p.is_literal()).cloned().collect();
    for core in &cores {
        literals.extend(
            core.iter()
                .map(|s| s.conclusion.clone())
                .filter(Prop::is_literal),
        );
    }
    literals.retain(|p| *p != goal && *p != Prop::neg(&goal));
    literals.sort();
    literals.dedup();
    let room = config.max_atoms.saturating_sub(b.last_atom + 1);
    let mut distractors =
        matched_distractors(&mut b, config.distractors, &cores, &used, total_paths, room);
    if distractors.is_empty() {
        distractors = self::distractors(&mut b, config.distractors, &literals);
    }
    if b.last_atom + 1 > config.max_atoms {
        return Err(BuildFailure::TooManyAtoms);
    }
    branches.sort_by_key(|p| p.family);
    let mut paths: Vec<BuiltPath> = cores
        .into_iter()
        .enumerate()
        .map(|(f, steps)| BuiltPath {
            family: f + 1,
            branch_from: None,
            steps,
        })
        .collect();
    paths.extend(branches);
    Ok(Skeleton {
        atoms: b.last_atom + 1,
        pool: b.pool,
        distractors,
        paths,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(k: usize) -> Prop {
        Prop::atom(k)
    }

    #[test]
    fn harmless_means_no_value_of_the_shared_atoms_is_forced() {
        // Atoms 0 and 1 are shared; 2 and 3 are the copies' own.
        let modus_ponens = [Prop::implies(a(2), a(1)), a(2)];
        assert!(!harmless(&modus_ponens, 2), "derives 1");
        let denied = [Prop::implies(Prop::neg(&a(2)), a(1)), a(2)];
        assert!(harmless(&denied, 2));
        let chain = [Prop::implies(a(0), a(2)), Prop::implies(a(2), a(1))];
        assert!(!harmless(&chain, 2), "derives 0 -> 1");
        let dilemma = [
            Prop::or(a(2), a(3)),
            Prop::implies(a(2), a(1)),
            Prop::implies(Prop::neg(&a(3)), a(1)),
        ];
        assert!(harmless(&dilemma, 2));
        let contradiction = [a(2), Prop::neg(&a(2))];
        assert!(!harmless(&contradiction, 2), "inconsistent by itself");
        let wide: Vec<Prop> = (2..3 + HARMLESS_ATOMS).map(a).collect();
        assert!(!harmless(&wide, 2), "too many atoms to tabulate");
    }

    #[test]
    fn broken_paths_are_harmless_exactly_counted_and_numbered_without_gaps() {
        use rand::SeedableRng;
        let config = super::super::Config::for_tier(super::super::Tier::Small);
        let mut found = 0;
        for seed in 0..40 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut b = Builder {
                rng: &mut rng,
                config: &config,
                last_atom: 0,
                pool: Vec::new(),
            };
            let cores: Vec<Vec<BuiltStep>> =
                (0..2).filter_map(|_| b.derive(&a(0), 3, &[])).collect();
            let (real, first_fresh) = (b.pool.clone(), b.last_atom + 1);
            let real_atoms: Vec<usize> = (1..first_fresh).collect();
            let Some((props, fresh)) = broken_paths(
                &mut b,
                4,
                &cores,
                &BTreeMap::new(),
                3,
                &real_atoms,
                usize::MAX,
            ) else {
                continue;
            };
            found += 1;
            assert_eq!(props.len(), 4, "seed {seed}");
            assert_eq!(
                (&b.pool, b.last_atom + 1),
                (&real, first_fresh),
                "nothing added"
            );
            assert!(harmless(&props, first_fresh), "seed {seed}: {props:?}");
            assert!(!repeats_a_premise(&props, &real), "seed {seed}");
            let kept: BTreeSet<usize> = props
                .iter()
                .flat_map(atoms_in)
                .filter(|&x| x >= first_fresh)
                .collect();
            assert_eq!(
                kept,
                (first_fresh..first_fresh + fresh).collect(),
                "seed {seed}"
            );
        }
        assert!(found >= 20, "{found} of 40 draws made 4 distractors");
    }
}

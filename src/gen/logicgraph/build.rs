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
//! re-checks that before anything is written. Distractors reuse the pool's
//! sentences in premises that no proof can use (see [`distractors`]).

use super::prop::Prop;
use super::{Config, Form};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::BTreeMap;

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

/// The ways to put `safe` into `p` at one place of its disjunctive spine
/// (a disjunct, a consequent, or `¬safe` for an antecedent), so that the
/// result holds whenever `safe` does; `p` itself only when it is no
/// disjunction or implication.
fn with_safe(p: &Prop, safe: &Prop) -> Vec<Prop> {
    let inner = |q: &Prop| {
        let mut out = vec![safe.clone()];
        if matches!(q, Prop::Or(..) | Prop::Implies(..)) {
            out.extend(with_safe(q, safe));
        }
        out
    };
    match p {
        Prop::Or(a, b) => {
            let mut out: Vec<Prop> = inner(a)
                .into_iter()
                .map(|x| Prop::or(x, (**b).clone()))
                .collect();
            out.extend(inner(b).into_iter().map(|y| Prop::or((**a).clone(), y)));
            out
        }
        Prop::Implies(a, b) => {
            let mut out = vec![Prop::implies(Prop::neg(safe), (**b).clone())];
            out.extend(
                inner(b)
                    .into_iter()
                    .map(|y| Prop::implies((**a).clone(), y)),
            );
            out
        }
        _ => vec![safe.clone()],
    }
}

/// Appends `count` distractors to the pool of `b` (whose paths are built)
/// and returns their pool indices.
///
/// Each distractor holds whenever a "safe" literal does, which some
/// assignment makes true without touching the real premises: `¬G`, or a
/// literal of a decoy atom that only distractors mention, at a polarity
/// drawn per decoy atom. So it is in no minimal support: for any premises
/// `S` that do not entail `G`, a model of `S` with `G` false, its decoy
/// atoms set to their polarity, satisfies every distractor, so `S` with
/// distractors does not entail `G` either.
///
/// Each distractor copies the kind of a real premise drawn uniformly, so
/// that distractors look like real premises: one that mentions `G` gives
/// `¬G ∨ w` (read `¬w → ¬G` or `G → w`) with `w` a
/// literal the pool entails (so the pool stays consistent); a fact gives a
/// decoy fact; any other rule gives that rule with a decoy literal put in
/// at one place of its disjunctive spine (see [`with_safe`]), so its other
/// sentences and its shape are a real premise's. Each decoy atom is shared
/// by at least two distractors (a sentence of one premise alone would mark
/// it out); a lone decoy distractor mentions the goal instead. Before,
/// every distractor mentioned the goal and was a two-literal rule, which
/// the goal's words, the fact list and the rules' shapes told apart.
fn distractors<R: Rng>(b: &mut Builder<'_, R>, count: usize, literals: &[Prop]) -> Vec<usize> {
    if count == 0 {
        return Vec::new();
    }
    let real = b.pool.clone();
    let mut templates: Vec<Option<Prop>> = (0..count)
        .map(|_| {
            let t = real.choose(b.rng)?;
            (!mentions(t, 0)).then(|| t.clone())
        })
        .collect();
    if templates.iter().filter(|t| t.is_some()).count() == 1 {
        templates.iter_mut().for_each(|t| *t = None);
    }
    let decoyed = templates.iter().filter(|t| t.is_some()).count();
    let decoys: Vec<Prop> = (0..(decoyed / 2)).map(|_| b.fresh_literal()).collect();
    let goal_safe = Prop::neg(&Prop::atom(0));
    let mut out = Vec::with_capacity(count);
    let mut next_decoy = 0;
    for template in templates {
        let draw = |b: &mut Builder<'_, R>| match &template {
            None => b.distractor(&goal_safe, literals),
            Some(t) => {
                let safe = &decoys[next_decoy % decoys.len()];
                with_safe(t, safe)
                    .choose(b.rng)
                    .cloned()
                    .unwrap_or_else(|| safe.clone())
            }
        };
        // Distinct distractors while the draws allow.
        let mut d = draw(b);
        for _ in 0..8 {
            if !b.pool.contains(&d) {
                break;
            }
            d = draw(b);
        }
        if template.is_some() {
            next_decoy += 1;
        }
        b.pool.push(d);
        out.push(b.pool.len() - 1);
    }
    out
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
            let length = draw_length(b.rng, (dmin, dmax));
            let f = b.rng.gen_range(0..families);
            let n = cores[f].len();
            // Re-derive core step j's conclusion in `length - tail` steps of
            // its own, then follow the core's `tail` remaining steps.
            let sites: Vec<usize> = (0..n.saturating_sub(1))
                .filter(|&j| n - 1 - j < length)
                .collect();
            let Some(&j) = sites.choose(b.rng) else {
                continue;
            };
            let own = length - (n - 1 - j);
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
    let distractors = distractors(&mut b, config.distractors, &literals);
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

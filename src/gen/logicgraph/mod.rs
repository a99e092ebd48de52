//! LogicGraph-style multi-path proof problems with the exhaustive set of
//! their minimal proofs (issue #6).
//!
//! A goal `G` follows from a premise pool by several distinct derivation
//! paths built backward from `G` with seven argument forms (see [`build`]).
//! Every instance is checked with the engine ([`Prover::check_problem`] with
//! supports) before it is emitted: every step valid, every solution globally
//! valid and minimal, the pool consistent, and the minimal supports exactly
//! the solutions' premise sets. A draw failing any check is discarded and
//! counted in [`Stats`]; the item's random stream then draws again, so the
//! output stays deterministic.
//!
//! The files follow the published layout (see [`output`]), so
//! `entail prove DIR --supports` and other LogicGraph tools read them as is.

pub mod build;
pub mod lexicon;
pub mod output;
pub mod prop;

use crate::gen::item_rng;
use crate::prove::{
    CheckReport, Premise, ProveOptions, Prover, Solution, Step, StepProblem, StepStatus,
    SupportOptions,
};
use build::{BuiltPath, Skeleton};
use lexicon::{GroundAtom, Phrasing};
use prop::Prop;
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The seven argument forms (¬¬X is always simplified to X).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Form {
    /// Modus ponens: `(P→Q), P ⊢ Q`
    MP,
    /// Modus tollens: `(P→Q), ¬Q ⊢ ¬P`
    MT,
    /// Hypothetical syllogism: `(P→Q), (Q→R) ⊢ (P→R)`
    HS,
    /// Disjunctive syllogism: `(P∨Q), ¬P ⊢ Q`
    DS,
    /// Constructive dilemma: `(P→R), (Q→S), (P∨Q) ⊢ (R∨S)`
    CD,
    /// Reductio: `(P→Q), (P→¬Q) ⊢ ¬P`
    RAA,
    /// Disjunction elimination: `(P∨Q), (P→R), (Q→R) ⊢ R`
    DE,
}

impl Form {
    /// All seven, in the order the issue lists them.
    pub const ALL: [Form; 7] = [
        Form::MP,
        Form::MT,
        Form::HS,
        Form::DS,
        Form::CD,
        Form::RAA,
        Form::DE,
    ];

    /// The name written in `rule_applied`.
    pub fn name(self) -> &'static str {
        match self {
            Form::MP => "MP",
            Form::MT => "MT",
            Form::HS => "HS",
            Form::DS => "DS",
            Form::CD => "CD",
            Form::RAA => "RAA",
            Form::DE => "DE",
        }
    }

    /// The form named `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Form> {
        Form::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether it can conclude any formula (HS needs an implication and CD
    /// a disjunction as conclusion, so neither can conclude `G`).
    pub fn concludes_anything(self) -> bool {
        !matches!(self, Form::HS | Form::CD)
    }
}

/// The published difficulty tiers, by number of proof paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// 2–4 paths.
    Small,
    /// 5–7 paths.
    Medium,
    /// 8 or more paths (8–10 here).
    Large,
}

impl Tier {
    /// The path-count range of the tier.
    pub fn paths(self) -> (usize, usize) {
        match self {
            Tier::Small => (2, 4),
            Tier::Medium => (5, 7),
            Tier::Large => (8, 10),
        }
    }

    /// The tier named `small`, `medium` or `large`.
    pub fn parse(name: &str) -> Option<Tier> {
        match name.to_ascii_lowercase().as_str() {
            "small" => Some(Tier::Small),
            "medium" => Some(Tier::Medium),
            "large" => Some(Tier::Large),
            _ => None,
        }
    }
}

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Number of proof paths per instance, inclusive range.
    pub paths: (usize, usize),
    /// Steps per path, inclusive range (cores are drawn from 3..9 within it).
    pub depth: (usize, usize),
    /// The argument forms the construction may use.
    pub forms: Vec<Form>,
    /// Premises added that take part in no proof.
    pub distractors: usize,
    /// Draws using more atoms (`G` included) are discarded.
    pub max_atoms: usize,
    /// Draws per item before giving up.
    pub max_attempts: usize,
}

impl Config {
    /// The defaults for a tier: all forms, depth 2–12, no distractors.
    pub fn for_tier(tier: Tier) -> Config {
        Config {
            paths: tier.paths(),
            depth: (2, 12),
            forms: Form::ALL.to_vec(),
            distractors: 0,
            max_atoms: 40,
            max_attempts: 50,
        }
    }

    /// Rejects settings no instance can satisfy.
    pub fn validate(&self) -> Result<(), GenError> {
        let bad = |m: String| Err(GenError::Config(m));
        if self.paths.0 < 1 || self.paths.0 > self.paths.1 {
            return bad(format!(
                "paths {}-{}: need 1 <= MIN <= MAX",
                self.paths.0, self.paths.1
            ));
        }
        if self.paths.1 > 40 {
            return bad("at most 40 paths per instance".into());
        }
        if self.depth.0 < 1 || self.depth.0 > self.depth.1 {
            return bad(format!(
                "depth {}-{}: need 1 <= MIN <= MAX",
                self.depth.0, self.depth.1
            ));
        }
        if self.depth.1 > 20 {
            return bad("depth at most 20 steps".into());
        }
        if !self.forms.iter().any(|f| f.concludes_anything()) {
            return bad("the forms must include one of MP, MT, DS, RAA, DE (HS and CD cannot conclude an atom)".into());
        }
        if self.paths.1 > 1 && self.depth.1 < 2 && self.paths.1 > 4 {
            return bad("with depth 1 there are no branches: at most 4 paths".into());
        }
        Ok(())
    }
}

/// Why generation stopped.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// The configuration cannot be satisfied.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// No draw for an item passed the checks within `max_attempts`.
    #[error("item {index}: no verified instance in {attempts} draws (last reason: {reason})")]
    Exhausted {
        /// The item.
        index: u64,
        /// Draws made.
        attempts: usize,
        /// The last rejection reason.
        reason: String,
    },
    /// Writing the output failed.
    #[error("{path}: {message}")]
    Io {
        /// The file or directory.
        path: String,
        /// The error.
        message: String,
    },
    /// The lexicon could not be loaded.
    #[error("lexicon: {0}")]
    Lexicon(String),
}

/// A premise of the pool with its id and text.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolPremise {
    /// `Rule3`, `Fact1`, …
    pub id: String,
    /// The formula.
    pub prop: Prop,
    /// Its sentence.
    pub natural: String,
    /// Whether it is a distractor (in no path).
    pub distractor: bool,
}

/// One generated instance, named and worded.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// The lexicon domain the atoms come from (`domain_theme`).
    pub domain: String,
    /// Atom `k`'s ground atom (0 is `G`).
    pub atoms: Vec<GroundAtom>,
    /// The pool, in output order (ids are assigned in this order).
    pub premises: Vec<PoolPremise>,
    /// The paths; `Cited::pool` indexes [`Instance::premises`].
    pub paths: Vec<BuiltPath>,
    /// The sentence for every conclusion and atom (plain phrasing).
    naturals: BTreeMap<Prop, String>,
}

impl Instance {
    /// The Prover9 spelling of each atom.
    pub fn expressions(&self) -> Vec<String> {
        self.atoms.iter().map(|a| a.expression.clone()).collect()
    }

    /// The id of pool premise `i`.
    pub fn pool_id(&self, i: usize) -> &str {
        self.premises.get(i).map_or("?", |p| p.id.as_str())
    }

    /// The sentence for `p`: a premise's own wording if it is one, else the
    /// plain phrasing.
    pub fn natural(&self, p: &Prop) -> String {
        if let Some(pp) = self.premises.iter().find(|pp| pp.prop == *p) {
            return pp.natural.clone();
        }
        self.naturals
            .get(p)
            .cloned()
            .unwrap_or_else(|| lexicon::sentence(p, &self.atoms, Phrasing::PLAIN))
    }

    /// The instance as the engine sees it (A-notation), like
    /// `prove::logicgraph::load(dir, false)` reads it back.
    pub fn problem(&self) -> StepProblem {
        let mut premises: Vec<Premise> = Vec::new();
        for rules_first in [true, false] {
            for p in &self.premises {
                if p.prop.is_literal() != rules_first {
                    premises.push(Premise {
                        id: p.id.clone(),
                        formula: p.prop.to_formula(),
                        pos: None,
                    });
                }
            }
        }
        let solutions = self
            .paths
            .iter()
            .enumerate()
            .map(|(i, path)| {
                let mut steps: Vec<Step> = Vec::new();
                for (k, st) in path.steps.iter().enumerate() {
                    let from = st
                        .cited
                        .iter()
                        .map(|c| match c.pool {
                            Some(pi) => self.pool_id(pi).to_string(),
                            None => steps
                                .iter()
                                .rev()
                                .zip(path.steps[..k].iter().rev())
                                .find(|(_, b)| b.conclusion == c.prop)
                                .map_or_else(|| "Derived".to_string(), |(s, _)| s.label.clone()),
                        })
                        .collect();
                    steps.push(Step {
                        label: format!("S{}", k + 1),
                        conclusion: st.conclusion.to_formula(),
                        from,
                        rule: Some(st.form.name().to_string()),
                        pos: None,
                    });
                }
                Solution {
                    id: (i + 1).to_string(),
                    steps,
                }
            })
            .collect();
        StepProblem {
            premises,
            goal: Prop::atom(0).to_formula(),
            solutions,
            timeout: None,
            prolog_style_variables: false,
        }
    }

    /// The premise-id set of each path (its leaves), as the engine should
    /// find them as minimal supports.
    pub fn path_supports(&self) -> BTreeSet<BTreeSet<String>> {
        self.paths
            .iter()
            .map(|p| {
                p.steps
                    .iter()
                    .flat_map(|s| s.cited.iter().filter_map(|c| c.pool))
                    .map(|i| self.pool_id(i).to_string())
                    .collect()
            })
            .collect()
    }

    /// Writes the instance directory (created if needed); `prompt` adds
    /// `prompt.txt`.
    pub fn write(&self, dir: &Path, report: &CheckReport, prompt: bool) -> Result<(), GenError> {
        let io = |p: &Path, e: std::io::Error| GenError::Io {
            path: p.display().to_string(),
            message: e.to_string(),
        };
        std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        let files = self.files(report);
        let mut list = vec![
            ("question.json", &files.question),
            ("complete.json", &files.complete),
            ("solutions.json", &files.solutions),
            ("verify_true.json", &files.verify),
        ];
        if prompt {
            list.push(("prompt.txt", &files.prompt));
        }
        for (name, text) in list {
            let path = dir.join(name);
            std::fs::write(&path, text).map_err(|e| io(&path, e))?;
        }
        Ok(())
    }
}

/// Counts of a run: instances emitted and draws discarded, by reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instances emitted.
    pub generated: u64,
    /// Discarded draws by reason (sorted, so printing is deterministic).
    pub discarded: BTreeMap<String, u64>,
    /// Total paths over emitted instances.
    pub paths: u64,
    /// Total steps over all emitted paths.
    pub steps: u64,
    /// Largest atom count of an emitted instance.
    pub max_atoms: usize,
}

impl Stats {
    /// Adds another run's counts (for per-thread statistics).
    pub fn merge(&mut self, other: &Stats) {
        self.generated += other.generated;
        for (k, v) in &other.discarded {
            *self.discarded.entry(k.clone()).or_default() += v;
        }
        self.paths += other.paths;
        self.steps += other.steps;
        self.max_atoms = self.max_atoms.max(other.max_atoms);
    }
}

/// A verified instance and the engine's report on it.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The instance.
    pub instance: Instance,
    /// `Prover::check_problem` with supports, all good.
    pub report: CheckReport,
}

/// Names and words a skeleton: shuffles the pool, assigns ids, picks atoms
/// from one lexicon domain and phrasings for each premise.
fn assemble<R: Rng>(skeleton: Skeleton, rng: &mut R) -> Result<Instance, GenError> {
    let (domain, atoms) = lexicon::pick_atoms(rng, skeleton.atoms).map_err(GenError::Lexicon)?;
    let mut order: Vec<usize> = (0..skeleton.pool.len()).collect();
    order.shuffle(rng);
    // new_index[old] = position in the output pool.
    let mut new_index = vec![0; order.len()];
    let (mut rules, mut facts) = (0, 0);
    let mut premises = Vec::with_capacity(order.len());
    for (pos, &old) in order.iter().enumerate() {
        new_index[old] = pos;
        let prop = skeleton.pool[old].clone();
        let id = if prop.is_literal() {
            facts += 1;
            format!("Fact{facts}")
        } else {
            rules += 1;
            format!("Rule{rules}")
        };
        let natural = lexicon::sentence(&prop, &atoms, Phrasing::random(rng));
        premises.push(PoolPremise {
            id,
            prop,
            natural,
            distractor: skeleton.distractors.contains(&old),
        });
    }
    let mut paths = skeleton.paths;
    for path in &mut paths {
        for st in &mut path.steps {
            for c in &mut st.cited {
                if let Some(i) = c.pool.as_mut() {
                    *i = new_index[*i];
                }
            }
        }
    }
    let mut naturals = BTreeMap::new();
    for k in 0..atoms.len() {
        let a = Prop::atom(k);
        naturals.insert(a.clone(), lexicon::sentence(&a, &atoms, Phrasing::PLAIN));
    }
    for path in &paths {
        for st in &path.steps {
            naturals
                .entry(st.conclusion.clone())
                .or_insert_with(|| lexicon::sentence(&st.conclusion, &atoms, Phrasing::PLAIN));
        }
    }
    Ok(Instance {
        domain,
        atoms,
        premises,
        paths,
        naturals,
    })
}

/// Runs every engine check on `instance`; `Err` names the first failure.
pub fn verify(prover: &mut Prover, instance: &Instance) -> Result<CheckReport, String> {
    let problem = instance.problem();
    let options = SupportOptions {
        cap: 1000,
        timeout: Duration::from_secs(30),
    };
    let report = prover
        .check_problem(&problem, Some(&options))
        .map_err(|e| format!("engine error: {}", e.message))?;
    if report.consistency.consistent != Some(true) {
        return Err("premises not shown consistent".into());
    }
    for s in &report.solutions {
        if s.steps.iter().any(|st| st.status != StepStatus::Valid) {
            return Err("a step is not valid".into());
        }
        if s.steps.iter().any(|st| st.rule_matches != Some(true)) {
            return Err("a step does not fit its declared form".into());
        }
        if s.reaches_goal != Some(true) || s.globally_valid != Some(true) {
            return Err("a solution is not globally valid".into());
        }
        if s.minimal != Some(true) {
            return Err("a solution's support is not minimal".into());
        }
    }
    let Some(supports) = &report.supports else {
        return Err("no support report".into());
    };
    if !supports.complete {
        return Err("support enumeration incomplete".into());
    }
    let found: BTreeSet<BTreeSet<String>> = supports
        .supports
        .iter()
        .map(|s| s.iter().cloned().collect())
        .collect();
    let expected = instance.path_supports();
    if found.len() != supports.supports.len() || expected.len() != instance.paths.len() {
        return Err("two paths share a support".into());
    }
    if found != expected {
        return Err(if found.is_superset(&expected) {
            "extra minimal supports".into()
        } else {
            "minimal supports differ from the paths".into()
        });
    }
    Ok(report)
}

/// Generates item `index` of a run seeded `seed`: draws from
/// [`item_rng`]`(seed, index)` until a draw passes [`verify`], counting
/// discards in `stats`.
pub fn generate_one(
    config: &Config,
    seed: u64,
    index: u64,
    prover: &mut Prover,
    stats: &mut Stats,
) -> Result<Generated, GenError> {
    let mut rng = item_rng(seed, index);
    let mut last = String::new();
    for _ in 0..config.max_attempts {
        let skeleton = match build::build(config, &mut rng) {
            Ok(s) => s,
            Err(e) => {
                last = match e {
                    build::BuildFailure::TooManyAtoms => "too many atoms",
                    build::BuildFailure::NoBranchSite => "no branch site",
                }
                .to_string();
                *stats.discarded.entry(last.clone()).or_default() += 1;
                continue;
            }
        };
        let instance = assemble(skeleton, &mut rng)?;
        match verify(prover, &instance) {
            Ok(report) => {
                stats.generated += 1;
                stats.paths += instance.paths.len() as u64;
                stats.steps += instance
                    .paths
                    .iter()
                    .map(|p| p.steps.len() as u64)
                    .sum::<u64>();
                stats.max_atoms = stats.max_atoms.max(instance.atoms.len());
                return Ok(Generated { instance, report });
            }
            Err(reason) => {
                *stats.discarded.entry(reason.clone()).or_default() += 1;
                last = reason;
            }
        }
    }
    Err(GenError::Exhausted {
        index,
        attempts: config.max_attempts,
        reason: last,
    })
}

/// The directory of item `index` under `out`: `test_{index+1}`.
pub fn item_dir(out: &Path, index: u64) -> PathBuf {
    out.join(format!("test_{}", index + 1))
}

/// Generates `count` instances into `out/test_1 …`, on `threads` worker
/// threads (each with its own prover; the output does not depend on the
/// number), calling `progress` after each instance.
pub fn generate_to_dir(
    config: &Config,
    seed: u64,
    count: u64,
    out: &Path,
    prompt: bool,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Stats, GenError> {
    config.validate()?;
    lexicon::builtin().map_err(GenError::Lexicon)?;
    let threads = threads.max(1).min(count.max(1) as usize);
    let next = std::sync::atomic::AtomicU64::new(0);
    let results: Vec<Result<Stats, GenError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut prover = Prover::new(ProveOptions {
                        timeout: Some(Duration::from_secs(10)),
                        countermodels: false,
                    });
                    let mut stats = Stats::default();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= count {
                            return Ok(stats);
                        }
                        let g = generate_one(config, seed, i, &mut prover, &mut stats)?;
                        g.instance.write(&item_dir(out, i), &g.report, prompt)?;
                        progress();
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(GenError::Config("a worker thread panicked".into())))
            })
            .collect()
    });
    let mut total = Stats::default();
    for r in results {
        total.merge(&r?);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prover() -> Prover {
        Prover::new(ProveOptions {
            timeout: Some(Duration::from_secs(10)),
            countermodels: false,
        })
    }

    #[test]
    fn verify_rejects_an_extra_support_and_a_missing_leaf() {
        let config = Config::for_tier(Tier::Small);
        let mut p = prover();
        let g = generate_one(&config, 7, 0, &mut p, &mut Stats::default()).expect("generates");
        assert!(verify(&mut p, &g.instance).is_ok());
        // A premise `G` is a new one-element support no path lists.
        let mut extra = g.instance.clone();
        extra.premises.push(PoolPremise {
            id: "Fact99".into(),
            prop: Prop::atom(0),
            natural: String::new(),
            distractor: false,
        });
        assert_eq!(
            verify(&mut p, &extra).unwrap_err(),
            "extra minimal supports"
        );
        // Without the first path's first leaf, that path's step is invalid.
        let mut missing = g.instance.clone();
        let leaf = missing.paths[0].steps[0]
            .cited
            .iter()
            .find_map(|c| c.pool)
            .expect("a leaf");
        missing.premises[leaf].prop = Prop::atom(missing.atoms.len() + 5);
        assert!(verify(&mut p, &missing).is_err());
    }

    #[test]
    fn paths_and_depths_respect_the_config() {
        let mut config = Config::for_tier(Tier::Medium);
        config.depth = (3, 5);
        let mut p = prover();
        let mut stats = Stats::default();
        for i in 0..10 {
            let g = generate_one(&config, 1, i, &mut p, &mut stats).expect("generates");
            let n = g.instance.paths.len();
            assert!((5..=7).contains(&n), "{n} paths");
            for path in &g.instance.paths {
                assert!((3..=5).contains(&path.steps.len()));
            }
            assert!(g.instance.atoms.len() <= config.max_atoms);
        }
        assert_eq!(stats.generated, 10);
    }
}

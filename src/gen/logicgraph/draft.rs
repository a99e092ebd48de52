//! One instance being generated: a skeleton named and worded ([`Draft`]),
//! checked by the prover before it is written.

use super::build::{self, BuiltPath, Skeleton};
use super::config::{Config, Error};
use super::lexicon::{self, GroundAtom, Phrasing};
use super::prop::Prop;
use super::run::Stats;
use crate::gen::item_rng;
use crate::gen::wordnet::Lexicon;
use crate::prove::{
    CheckReport, Premise, Prover, Solution, Step, StepProblem, StepStatus, SupportOptions,
};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

/// A premise of the pool with its id and text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PoolPremise {
    /// `Rule3`, `Fact1`, …
    pub id: String,
    /// The formula.
    pub prop: Prop,
    /// Its sentence.
    pub natural: String,
    /// Whether it is a distractor (in no path).
    pub distractor: bool,
}

/// An instance being generated, named and worded; [`Draft::files`] writes it
/// in the published layout.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Draft {
    /// The theme the atoms come from (`domain_theme`).
    pub domain: String,
    /// Atom `k`'s ground atom (0 is `G`).
    pub atoms: Vec<GroundAtom>,
    /// The pool, in output order (ids are assigned in this order).
    pub premises: Vec<PoolPremise>,
    /// The paths; `Cited::pool` indexes [`Draft::premises`].
    pub paths: Vec<BuiltPath>,
    /// The sentence for every conclusion and atom (plain phrasing).
    naturals: BTreeMap<Prop, String>,
}

impl Draft {
    /// The Prover9 spelling of each atom.
    pub(crate) fn expressions(&self) -> Vec<String> {
        self.atoms.iter().map(|a| a.expression.clone()).collect()
    }

    /// The id of pool premise `i`.
    pub(crate) fn pool_id(&self, i: usize) -> &str {
        self.premises.get(i).map_or("?", |p| p.id.as_str())
    }

    /// The sentence for `p`: a premise's own wording if it is one, else the
    /// plain phrasing.
    pub(crate) fn natural(&self, p: &Prop) -> String {
        if let Some(pp) = self.premises.iter().find(|pp| pp.prop == *p) {
            return pp.natural.clone();
        }
        self.naturals
            .get(p)
            .cloned()
            .unwrap_or_else(|| lexicon::sentence(p, &self.atoms, Phrasing::PLAIN))
    }

    /// The instance as the engine sees it (A-notation), like
    /// [`load`](super::load)`(dir, false)` reads it back.
    pub(crate) fn problem(&self) -> StepProblem {
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
    pub(crate) fn path_supports(&self) -> BTreeSet<BTreeSet<String>> {
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
    pub(crate) fn write(
        &self,
        dir: &Path,
        report: &CheckReport,
        prompt: bool,
    ) -> Result<(), Error> {
        let io = |p: &Path, e: std::io::Error| Error::Io {
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

/// A verified instance and the engine's report on it.
#[derive(Debug, Clone)]
pub(crate) struct Generated {
    /// The instance.
    pub instance: Draft,
    /// `Prover::check_problem` with supports, all good.
    pub report: CheckReport,
}

/// Names and words a skeleton: shuffles the pool, renames the atoms other
/// than `G` by a random permutation, assigns ids, picks atoms of one theme
/// from `lex` and phrasings for each premise.
///
/// The construction numbers atoms in the order it makes them, so the decoy
/// atoms of distractors, made last, were the highest `Ak` of `formal` (and
/// of `atomic_facts`): renamed, an atom's number says nothing of its role.
fn assemble<R: Rng>(skeleton: Skeleton, lex: &Lexicon, rng: &mut R) -> Result<Draft, Error> {
    let (domain, atoms) = lexicon::pick_atoms(lex, rng, skeleton.atoms).map_err(Error::Lexicon)?;
    let mut to: Vec<usize> = (0..skeleton.atoms).collect();
    if let Some(others) = to.get_mut(1..) {
        others.shuffle(rng);
    }
    let mut order: Vec<usize> = (0..skeleton.pool.len()).collect();
    order.shuffle(rng);
    // new_index[old] = position in the output pool.
    let mut new_index = vec![0; order.len()];
    let (mut rules, mut facts) = (0, 0);
    let mut premises = Vec::with_capacity(order.len());
    for (pos, &old) in order.iter().enumerate() {
        new_index[old] = pos;
        let prop = skeleton.pool[old].renamed(&to);
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
            st.conclusion = st.conclusion.renamed(&to);
            for c in &mut st.cited {
                c.prop = c.prop.renamed(&to);
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
    Ok(Draft {
        domain,
        atoms,
        premises,
        paths,
        naturals,
    })
}

/// Runs every engine check on `instance`; `Err` names the first failure.
pub(crate) fn verify(prover: &mut Prover, instance: &Draft) -> Result<CheckReport, String> {
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

/// Generates item `index` of a run, worded from `lex`: draws from
/// [`item_rng`]`(config.seed, index)` until a draw passes [`verify`], counting
/// discards in `stats`.
pub(crate) fn generate_one(
    config: &Config,
    lex: &Lexicon,
    index: u64,
    prover: &mut Prover,
    stats: &mut Stats,
) -> Result<Generated, Error> {
    let mut rng = item_rng(config.seed, index);
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
        let instance = assemble(skeleton, lex, &mut rng)?;
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
    Err(Error::Exhausted {
        index,
        attempts: config.max_attempts,
        reason: last,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::logicgraph::Tier;
    use crate::prove::ProveOptions;

    fn prover() -> Prover {
        Prover::new(ProveOptions {
            timeout: Some(Duration::from_secs(10)),
            countermodels: false,
        })
    }

    /// The installed WordNet, or `None` after one printed line.
    fn words() -> Option<Lexicon> {
        let dir = crate::gen::wordnet::locate(None);
        Lexicon::open(&dir)
            .map_err(|e| {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "SKIPPED draft test: {e}");
            })
            .ok()
    }

    #[test]
    fn verify_rejects_an_extra_support_and_a_missing_leaf() {
        let config = Config {
            seed: 7,
            ..Config::for_tier(Tier::Small)
        };
        let Some(lex) = words() else { return };
        let mut p = prover();
        let g = generate_one(&config, &lex, 0, &mut p, &mut Stats::default()).expect("generates");
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
        config.seed = 1;
        let Some(lex) = words() else { return };
        let mut p = prover();
        let mut stats = Stats::default();
        for i in 0..10 {
            let g = generate_one(&config, &lex, i, &mut p, &mut stats).expect("generates");
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

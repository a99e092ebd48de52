//! How one item of a level becomes a task: a rule drawn, candidate trains
//! labelled by the judge until the quotas are filled, the task checked.

use super::curriculum::{BackgroundSampling, Level, Theta};
use super::identity::{problem_key, rule_key, Identity};
use super::language::Attribute;
use super::language::Language;
use super::prompt::PromptStyle;
use super::rule::{Rule, CONSTRUCTS};
use super::train::{Train, Vocabulary};
use super::{curriculum, prompt, rule, task, train, Error, SlrTask, Split, Stats};
use crate::gen::item_rng;
use crate::judge::{
    sanitize, EvaluationConfig, Judge, Label, Task as JudgeTask, TaskProgram, TaskRecord, Unread,
};
use crate::syntax::prolog::parse_program;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// Rules tried per item before giving up on it.
const RULE_ATTEMPTS: usize = 40;
/// Candidate trains labelled per rule before it is replaced.
const CANDIDATES_PER_RULE: usize = 1200;
/// Mirror variants drawn per base train.
const MIRROR_VARIANTS: usize = 3;

/// What one level needs to generate tasks.
pub(crate) struct LevelContext<'l> {
    /// The level's parameters.
    pub level: Level,
    /// What the level's trains and rules may use.
    pub vocabulary: Vocabulary<'l>,
    /// A one-train task over the vocabulary: what the safety check runs against.
    probe: TaskProgram,
    labels: EvaluationConfig,
    /// Rules (their [`rule_key`]s) this level may not use: the held-out
    /// splits' (see [`Split`]).
    pub(crate) excluded_rules: BTreeSet<String>,
}

impl<'l> LevelContext<'l> {
    /// The context of `level` in `language`, under `theta`.
    pub(crate) fn new(
        language: &'l Language,
        level: u32,
        theta: &Theta,
    ) -> Result<LevelContext<'l>, Error> {
        let params = theta.level(level).ok_or(Error::Level(level))?;
        let (attributes, position) = check(&params, language)?;
        let weights = match &params.background {
            BackgroundSampling::Pmf(pmf) => attributes
                .iter()
                .map(|a| {
                    pmf.get(&a.name).map(|weights| {
                        let weight = |v: &String| weights.get(v).copied().unwrap_or(0.0);
                        a.values.iter().map(weight).collect()
                    })
                })
                .collect(),
            _ => vec![None; attributes.len()],
        };
        let vocabulary = Vocabulary::new(language, attributes, position, params.cars, weights);
        let mut probe_text = format!(
            "{}({}).\n",
            language.labels.positive,
            language.train_name(0)
        );
        let probe_train = Train {
            cars: vec![train::Car {
                values: vec![0; vocabulary.attributes.len()],
            }],
        };
        vocabulary.facts(&probe_train, 0, &mut probe_text);
        let probe = TaskProgram::parse(
            &probe_text,
            &language.labels.positive,
            &language.labels.negative,
        )
        .map_err(|e| Error::Language(e.to_string()))?;
        let labels = EvaluationConfig {
            positive_predicate: Some(language.labels.positive.clone()),
            negative_predicate: Some(language.labels.negative.clone()),
        };
        Ok(LevelContext {
            level: params,
            vocabulary,
            probe,
            labels,
            excluded_rules: BTreeSet::new(),
        })
    }

    /// Whether the judge's sandbox accepts `rule` (the judge's own check).
    pub(crate) fn rule_is_safe(&self, rule: &str) -> bool {
        match parse_program(rule) {
            Ok(program) => sanitize(program, &Unread::default(), &self.probe).is_ok(),
            Err(_) => false,
        }
    }

    /// The validation program of `examples` (train number = index).
    pub(crate) fn validation_program(&self, examples: &[(Label, Train)]) -> String {
        self.program(examples, 0)
    }

    /// `examples` as a labelled program, trains numbered from `first`.
    fn program(&self, examples: &[(Label, Train)], first: usize) -> String {
        let language = self.vocabulary.language;
        let mut out = String::new();
        for (i, (label, train)) in examples.iter().enumerate() {
            let t = first + i;
            if i > 0 {
                out.push('\n');
            }
            let name = match label {
                Label::Pos => &language.labels.positive,
                Label::Neg => &language.labels.negative,
            };
            out.push_str(&format!("{name}({}).\n", language.train_name(t)));
            self.vocabulary.facts(train, t, &mut out);
        }
        out
    }

    /// Labels `trains` under `rule` with the judge: one validation program
    /// with every train labelled positive; each example's `predicted` is the
    /// train's label. `Err` with the judge's message if the engine failed.
    pub(crate) fn label(
        &self,
        judge: &Judge,
        rule: &str,
        trains: &[Train],
    ) -> Result<Vec<bool>, String> {
        let task = self.load(judge, trains)?;
        predictions(&task, rule, trains.len())
    }

    /// `trains`, all labelled positive, loaded as one judge task: scoring a
    /// rule on it labels every train. The judge keeps a loaded background
    /// between scorings, so scoring further rules on the same task skips
    /// the loading that dominates its cost. Our own rules read no names, so
    /// the task keeps its own (see [`Judge::task_on_own_names`]).
    fn load<'j>(&self, judge: &'j Judge, trains: &[Train]) -> Result<JudgeTask<'j>, String> {
        let language = self.vocabulary.language;
        let (positive, negative) = (&language.labels.positive, &language.labels.negative);
        let per_car = 1 + usize::from(self.vocabulary.position) + self.vocabulary.attributes.len();
        let facts = trains.iter().map(|t| 1 + per_car * t.cars.len()).sum();
        let task = TaskProgram::from_readings(positive, negative, facts, |add| {
            for (t, train) in trains.iter().enumerate() {
                self.vocabulary.example_facts(positive, train, t, add);
            }
        })
        .map_err(|e| e.to_string())?;
        Ok(judge.task_on_own_names(task))
    }

    /// Whether a task's rule is pattern-guided: drawn once per task, with
    /// the level's `pattern_percent`, before any rule is drawn. Drawn again
    /// on every retry, the kind that failed less often won: the share was
    /// 42% at level 6 and 21% over levels 18 to 20 against the paper's 30%.
    pub(crate) fn draws_pattern(&self, rng: &mut ChaCha8Rng) -> bool {
        rng.gen_range(0..100) < self.level.pattern_percent
    }

    /// A rule of the level, pattern-guided or uniform as `pattern` says,
    /// that `split` may draw and that is not excluded (up to renaming and
    /// literal order); `None` if 100 draws found none.
    pub(crate) fn sample_rule(
        &self,
        rng: &mut ChaCha8Rng,
        split: Split,
        pattern: bool,
    ) -> Option<Rule> {
        let (lo, hi) = self.level.rule_length;
        for _ in 0..100 {
            let length = rng.gen_range(lo..=hi);
            let rule = if pattern {
                let construct = CONSTRUCTS[rng.gen_range(0..CONSTRUCTS.len())];
                rule::pattern(rng, &self.vocabulary, construct, length)
            } else {
                rule::uniform(rng, &self.vocabulary, length)
            };
            if let Some(rule) = rule {
                let key = rule_key(&rule.text);
                if split.may_draw(&key) && !self.excluded_rules.contains(&key) {
                    return Some(rule);
                }
            }
        }
        None
    }

    /// The item's candidate pool: three trains per positive slot (at most 64).
    fn pool<'j>(&self, judge: &'j Judge, rng: &mut ChaCha8Rng) -> Result<Pool<'j>, String> {
        let size = (3 * self.level.problem_size() / 2).clamp(8, 64);
        let trains = (0..size)
            .map(|_| self.vocabulary.sample_train(rng))
            .collect::<Option<Vec<_>>>()
            .ok_or("the grammar admits no car")?;
        let task = self.load(judge, &trains)?;
        Ok(Pool { task, trains })
    }

    /// Fills `quota_pos` positive and `quota_neg` negative independently
    /// drawn trains, none in `exclude`: first from the item's pool (if
    /// any), then from fresh batches.
    #[allow(clippy::too_many_arguments)]
    fn fill_uniform(
        &self,
        judge: &Judge,
        rule: &Rule,
        pool: Option<&Pool>,
        (quota_pos, quota_neg): (usize, usize),
        exclude: BTreeSet<Train>,
        rng: &mut ChaCha8Rng,
        stats: &mut Stats,
    ) -> Result<Option<Vec<(Label, Train)>>, String> {
        let (mut positives, mut negatives) = (Vec::new(), Vec::new());
        let mut seen = exclude;
        let (mut labelled, mut positive_seen) = (0usize, 0usize);
        let mut first = pool.is_some();
        while positives.len() < quota_pos || negatives.len() < quota_neg {
            if labelled >= CANDIDATES_PER_RULE {
                return Ok(None);
            }
            // Size the batch from the rarer label's observed rate, so a
            // skewed rule costs few judge calls.
            let missing = quota_pos
                .saturating_sub(positives.len())
                .max(quota_neg.saturating_sub(negatives.len()));
            let rate_pos = (positive_seen + 1) as f64 / (labelled + 2) as f64;
            let rate = if positives.len() < quota_pos && negatives.len() < quota_neg {
                rate_pos.min(1.0 - rate_pos)
            } else if positives.len() < quota_pos {
                rate_pos
            } else {
                1.0 - rate_pos
            };
            // Loading dominates the judge's cost and grows linearly with the
            // batch, so modest batches lose little and overshoot less.
            let batch = ((missing as f64 / rate.max(0.005)) * 1.1).ceil() as usize;
            let batch = batch.clamp(4, 64).min(CANDIDATES_PER_RULE - labelled);
            let (trains, labels) = match pool {
                Some(pool) if first => {
                    first = false;
                    let labels = predictions(&pool.task, &rule.text, pool.trains.len())?;
                    (pool.trains.clone(), labels)
                }
                _ => {
                    let trains = (0..batch)
                        .map(|_| self.vocabulary.sample_train(rng))
                        .collect::<Option<Vec<_>>>()
                        .ok_or("the grammar admits no car")?;
                    let labels = self.label(judge, &rule.text, &trains)?;
                    stats.candidates_labelled += trains.len() as u64;
                    (trains, labels)
                }
            };
            stats.judge_calls += 1;
            labelled += trains.len();
            for (train, positive) in trains.into_iter().zip(labels) {
                positive_seen += positive as usize;
                let (bucket, quota) = if positive {
                    (&mut positives, quota_pos)
                } else {
                    (&mut negatives, quota_neg)
                };
                if bucket.len() < quota && seen.insert(train.clone()) {
                    bucket.push(train);
                }
            }
            // Give up early on a rule whose observed rate says the budget
            // will not fill its quotas: most of the cost of hard levels is
            // otherwise spent on rules that are almost never (or always) true.
            let needed = |have: usize, quota: usize, hits: usize| -> f64 {
                let missing = quota.saturating_sub(have) as f64;
                if missing == 0.0 {
                    0.0
                } else {
                    missing * labelled as f64 / hits.max(1) as f64
                }
            };
            let estimate = needed(positives.len(), quota_pos, positive_seen).max(needed(
                negatives.len(),
                quota_neg,
                labelled - positive_seen,
            ));
            if labelled as f64 + estimate > CANDIDATES_PER_RULE as f64 {
                return Ok(None);
            }
        }
        Ok(Some(interleave(positives, negatives)))
    }

    /// Fills κ_pos positives and κ_neg negatives from pairs: a train and a
    /// mirror copy, redrawn only in the rule's attributes, with opposite
    /// labels (where κ_pos ≠ κ_neg, the larger quota's last pairs lose
    /// their other half).
    fn fill_mirror(
        &self,
        judge: &Judge,
        rule: &Rule,
        rng: &mut ChaCha8Rng,
        stats: &mut Stats,
    ) -> Result<Option<Vec<(Label, Train)>>, String> {
        let (quota_pos, quota_neg) = (self.level.kappa_pos, self.level.kappa_neg);
        let relevant: Vec<bool> = (0..self.vocabulary.attributes.len())
            .map(|a| rule.relevant.contains(&a))
            .collect();
        if !relevant.contains(&true) {
            return Ok(None);
        }
        let (mut positives, mut negatives) = (Vec::new(), Vec::new());
        let mut seen: BTreeSet<Train> = BTreeSet::new();
        let (mut labelled, mut pairs_found) = (0usize, 0usize);
        let missing = |positives: &Vec<Train>, negatives: &Vec<Train>| {
            quota_pos
                .saturating_sub(positives.len())
                .max(quota_neg.saturating_sub(negatives.len()))
        };
        while missing(&positives, &negatives) > 0 {
            if labelled >= CANDIDATES_PER_RULE {
                return Ok(None);
            }
            let bases = (missing(&positives, &negatives) * 2).clamp(2, 16);
            let mut trains = Vec::with_capacity(bases * (MIRROR_VARIANTS + 1));
            for _ in 0..bases {
                let base = self
                    .vocabulary
                    .sample_train(rng)
                    .ok_or("the grammar admits no car")?;
                for _ in 0..MIRROR_VARIANTS {
                    let variant = self
                        .vocabulary
                        .mirror(rng, &base, &relevant)
                        .ok_or("the grammar admits no mirror")?;
                    trains.push(variant);
                }
                trains.push(base);
            }
            let labels = self.label(judge, &rule.text, &trains)?;
            stats.judge_calls += 1;
            stats.candidates_labelled += trains.len() as u64;
            labelled += trains.len();
            let group = MIRROR_VARIANTS + 1;
            for (g, chunk) in trains.chunks(group).enumerate() {
                let labels = &labels[g * group..(g + 1) * group];
                let base_positive = labels[MIRROR_VARIANTS];
                let Some(v) = (0..MIRROR_VARIANTS).find(|&v| labels[v] != base_positive) else {
                    continue;
                };
                pairs_found += 1;
                let (base, variant) = (&chunk[MIRROR_VARIANTS], &chunk[v]);
                let (p, n) = if base_positive {
                    (base, variant)
                } else {
                    (variant, base)
                };
                if missing(&positives, &negatives) > 0 && !seen.contains(p) && !seen.contains(n) {
                    seen.insert(p.clone());
                    seen.insert(n.clone());
                    if positives.len() < quota_pos {
                        positives.push(p.clone());
                    }
                    if negatives.len() < quota_neg {
                        negatives.push(n.clone());
                    }
                }
            }
            // As for uniform backgrounds: stop a rule whose pair rate cannot fill the quota.
            let missing = missing(&positives, &negatives) as f64;
            let estimate = missing * labelled as f64 / pairs_found.max(1) as f64;
            if missing > 0.0 && labelled as f64 + estimate > CANDIDATES_PER_RULE as f64 {
                return Ok(None);
            }
        }
        Ok(Some(interleave(positives, negatives)))
    }

    /// Draws a rule and its examples with `rng`; `None` if every attempt
    /// failed within the bounds.
    pub(crate) fn sample_task(
        &self,
        judge: &Judge,
        rng: &mut ChaCha8Rng,
        split: Split,
        stats: &mut Stats,
    ) -> Option<(Rule, Vec<(Label, Train)>)> {
        let mut pool: Option<Pool> = None;
        // The kind is the task's; only the rule is drawn again.
        let pattern = self.draws_pattern(rng);
        for _ in 0..RULE_ATTEMPTS {
            let rule = self.sample_rule(rng, split, pattern)?;
            stats.rules_sampled += 1;
            if !self.rule_is_safe(&rule.text) {
                stats.rules_unsafe += 1;
                continue;
            }
            let filled = match self.level.background {
                BackgroundSampling::Uniform | BackgroundSampling::Pmf(_) => {
                    if pool.is_none() {
                        match self.pool(judge, rng) {
                            Ok(p) => {
                                stats.candidates_labelled += p.trains.len() as u64;
                                pool = Some(p);
                            }
                            Err(_) => return None,
                        }
                    }
                    match &pool {
                        Some(p) => self.fill_uniform(
                            judge,
                            &rule,
                            Some(p),
                            (self.level.kappa_pos, self.level.kappa_neg),
                            BTreeSet::new(),
                            rng,
                            stats,
                        ),
                        None => return None,
                    }
                }
                BackgroundSampling::Mirror => self.fill_mirror(judge, &rule, rng, stats),
            };
            match filled {
                Ok(Some(examples)) => return Some((rule, examples)),
                Ok(None) => stats.rules_unfillable += 1,
                Err(_) => stats.rules_engine_error += 1,
            }
        }
        None
    }

    /// The finished task record for `rule` and `examples` (its `id` is
    /// set when the run places it).
    pub(crate) fn record(
        &self,
        seed: u64,
        rule: &Rule,
        examples: &[(Label, Train)],
        holdout: &[(Label, Train)],
        style: PromptStyle,
    ) -> SlrTask {
        let validation_program = self.validation_program(examples);
        let holdout_program = self.program(holdout, examples.len());
        SlrTask {
            id: 0,
            prompt: prompt::prompt(&self.vocabulary, examples, style),
            ground_truth_rule: rule.text.clone(),
            symbols: validation_program.clone(),
            validation_program,
            curriculum_level: self.level.level,
            curriculum_tier: curriculum::tier(self.level.level).to_string(),
            rule_sampling: rule.sampling.name().to_string(),
            rule_complexity: task::span(self.level.rule_length),
            background_sampling: self.level.background.name().to_string(),
            problem_size: examples.len(),
            vocabulary_predicates: self.level.predicates,
            vocabulary_car_constants: task::span(self.level.cars),
            construct: rule.construct.to_string(),
            rule_length: rule.complexity,
            holdout_program,
            evaluation_config: self.labels.clone(),
            seed,
        }
    }

    /// Item `index` of level `self.level` in `split` for run `seed`, with
    /// `holdout` held-out trains: the task, checked by the judge to score
    /// its rule 1.0 (on the held-out trains too), with its identity, or
    /// `None`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn item(
        &self,
        judge: &Judge,
        seed: u64,
        split: Split,
        index: u64,
        style: PromptStyle,
        holdout: usize,
        stats: &mut Stats,
    ) -> Result<Option<(SlrTask, Identity)>, Error> {
        let stream = (split.code() << 40) | (u64::from(self.level.level) << 32) | index;
        let mut rng = item_rng(seed, stream);
        let Some((rule, mut examples)) = self.sample_task(judge, &mut rng, split, stats) else {
            stats.items_failed += 1;
            return Ok(None);
        };
        // Train numbers and fact order follow this order: it must carry no label.
        examples.shuffle(&mut rng);
        // Held-out trains: drawn last, so that without them the task is the
        // same; balanced, and never a train of the prompt.
        let mut held = Vec::new();
        if holdout > 0 {
            let shown = examples.iter().map(|(_, t)| t.clone()).collect();
            let quotas = (holdout - holdout / 2, holdout / 2);
            match self.fill_uniform(judge, &rule, None, quotas, shown, &mut rng, stats) {
                Ok(Some(trains)) => held = trains,
                _ => {
                    stats.items_failed += 1;
                    return Ok(None);
                }
            }
            held.shuffle(&mut rng);
        }
        let task = self.record(seed, &rule, &examples, &held, style);
        let identity = Identity {
            rule: rule_key(&rule.text),
            problem: problem_key(&self.vocabulary, &examples),
        };
        let held_out = !task.holdout_program.is_empty();
        let record = TaskRecord {
            validation_program: task.validation_program.clone(),
            evaluation_config: Some(self.labels.clone()),
            holdout_program: held_out.then(|| task.holdout_program.clone()),
            ..Default::default()
        };
        let check = judge
            .task(&record)
            .map_err(|e| Error::Judge(e.to_string()))?
            .score(&task.ground_truth_rule);
        stats.judge_calls += 1 + u64::from(held_out);
        if !check.is_correct || check.holdout_correct == Some(false) {
            return Err(Error::Judge(format!(
                "rule {} scores {} on its own task and {:?} on its held-out trains (level {}, item {index})",
                task.ground_truth_rule, check.partial_score, check.holdout_score, self.level.level
            )));
        }
        Ok(Some((task, identity)))
    }
}

/// Each example's `predicted` when `rule` is scored on `task` (`n` examples).
fn predictions(task: &JudgeTask, rule: &str, n: usize) -> Result<Vec<bool>, String> {
    let result = task.score(rule);
    if let Some(error) = result.error {
        return Err(error);
    }
    if result.examples.len() != n {
        return Err(format!(
            "judge returned {} verdicts for {n} trains",
            result.examples.len()
        ));
    }
    Ok(result.examples.iter().map(|e| e.predicted).collect())
}

/// Candidate trains drawn once per item and loaded once; every rule the
/// item tries is labelled on them first.
struct Pool<'j> {
    task: JudgeTask<'j>,
    trains: Vec<Train>,
}

/// Positives and negatives alternating, the longer list's rest at the end.
fn interleave(positives: Vec<Train>, negatives: Vec<Train>) -> Vec<(Label, Train)> {
    let mut out = Vec::with_capacity(positives.len() + negatives.len());
    let (mut p, mut n) = (positives.into_iter(), negatives.into_iter());
    loop {
        match (p.next(), n.next()) {
            (None, None) => return out,
            (a, b) => {
                out.extend(a.map(|t| (Label::Pos, t)));
                out.extend(b.map(|t| (Label::Neg, t)));
            }
        }
    }
}

/// Largest κ_pos or κ_neg accepted: the judge scores a task in one call.
const MAX_KAPPA: usize = 500;
/// Most cars per train accepted.
const MAX_CARS: usize = 20;

/// Refuses a level whose Θ cannot make tasks in `language`; else its
/// active attributes and whether the position predicate is active.
pub(super) fn check<'l>(
    level: &Level,
    language: &'l Language,
) -> Result<(Vec<&'l Attribute>, bool), Error> {
    let n = level.level;
    let fail = |m: String| Err(Error::Config(format!("level {n}: {m}")));
    if level.predicates > language.order.len() {
        return Err(Error::Language(format!(
            "level {n} needs {} predicates, the language has {}",
            level.predicates,
            language.order.len()
        )));
    }
    for (name, kappa) in [("κ_pos", level.kappa_pos), ("κ_neg", level.kappa_neg)] {
        if !(1..=MAX_KAPPA).contains(&kappa) {
            return fail(format!("{name} = {kappa}: must be 1 to {MAX_KAPPA}"));
        }
    }
    let (lo, hi) = level.cars;
    if lo < 1 || lo > hi || hi > MAX_CARS {
        return fail(format!(
            "cars {lo}-{hi}: need 1 <= min <= max <= {MAX_CARS}"
        ));
    }
    if level.pattern_percent > 100 {
        return fail(format!(
            "pattern percent {} is over 100",
            level.pattern_percent
        ));
    }
    let (attributes, position) = language.active(level.predicates);
    if attributes.is_empty() {
        return fail(format!(
            "{} predicates activate no car attribute ({}); use more",
            level.predicates,
            language.order[..level.predicates.min(language.order.len())].join(", ")
        ));
    }
    // A car holds one value per attribute (and one position), so a rule
    // has at most that many literals per car.
    let per_car = attributes.len() + usize::from(position && hi > 1);
    let (min, max) = level.rule_length;
    if min < 1 || min > max {
        return fail(format!("rule length {min}-{max}: need 1 <= min <= max"));
    }
    if max > per_car * hi {
        return fail(format!(
            "rule length {max} is impossible with {} predicates and at most {hi} cars: \
             at most {} literals ({per_car} per car)",
            level.predicates,
            per_car * hi
        ));
    }
    if let BackgroundSampling::Pmf(pmf) = &level.background {
        for (name, weights) in pmf {
            let Some(attribute) = language.attribute(name) else {
                return fail(format!(
                    "the PMF names `{name}`, not an attribute of the language"
                ));
            };
            for (value, &weight) in weights {
                if !attribute.values.contains(value) {
                    return fail(format!(
                        "the PMF gives `{name}` the value `{value}`, not one of its values"
                    ));
                }
                if !(weight.is_finite() && weight >= 0.0) {
                    return fail(format!("the PMF weight of `{name}` = `{value}` is {weight}: must be finite and >= 0"));
                }
            }
            if !weights.values().any(|&w| w > 0.0) {
                return fail(format!("the PMF gives every value of `{name}` weight 0"));
            }
        }
    }
    Ok((attributes, position))
}

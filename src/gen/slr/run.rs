//! A whole run: items on worker threads, deduplicated, written in order.

use super::identity::Identity;
use super::level::LevelContext;
use super::{Config, Error, SlrTask, Split};
use crate::gen::{on_threads, Progress, Shard};
use crate::judge::Judge;
use serde::Serialize;
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts over a run (or one task).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Tasks written.
    pub tasks: u64,
    /// Rules drawn (kept or not).
    pub rules_sampled: u64,
    /// Rules the judge's safety check refused.
    pub rules_unsafe: u64,
    /// Rules replaced because their quotas could not be filled.
    pub rules_unfillable: u64,
    /// Rules replaced because the engine reported an error while labelling.
    pub rules_engine_error: u64,
    /// Candidate trains labelled by the judge.
    pub candidates_labelled: u64,
    /// Calls to the judge (labelling batches and final checks).
    pub judge_calls: u64,
    /// Tasks dropped because an earlier task of their split (at their level
    /// or an earlier one) has their problem, up to renaming.
    pub duplicates: u64,
    /// Tasks dropped because a held-out split's task has their rule or
    /// problem, up to renaming.
    pub tasks_held_out: u64,
    /// Items that failed to produce a task within every bound.
    pub items_failed: u64,
    /// Per level, tasks requested but not produced (level's combinatorics exhausted).
    pub shortfall: Vec<(u32, u64)>,
}

impl Stats {
    /// Adds `other`'s counts: an item's into its run's, or one shard's into
    /// the sum of shards (which equals the unsharded run's statistics).
    /// Shortfalls add per level, in the order levels first appear.
    pub fn merge(&mut self, other: &Stats) {
        self.tasks += other.tasks;
        self.duplicates += other.duplicates;
        self.tasks_held_out += other.tasks_held_out;
        for &(level, missing) in &other.shortfall {
            match self.shortfall.iter_mut().find(|(l, _)| *l == level) {
                Some((_, total)) => *total += missing,
                None => self.shortfall.push((level, missing)),
            }
        }
        self.rules_sampled += other.rules_sampled;
        self.rules_unsafe += other.rules_unsafe;
        self.rules_unfillable += other.rules_unfillable;
        self.rules_engine_error += other.rules_engine_error;
        self.candidates_labelled += other.candidates_labelled;
        self.judge_calls += other.judge_calls;
        self.items_failed += other.items_failed;
    }
}

/// Items tried per level before the level counts as exhausted: duplicates
/// are replaced by further items, up to this many per requested task.
const ITEMS_PER_TASK: u64 = 8;

/// The rules and problems (their canonical forms) some tasks have taken.
#[derive(Debug, Clone, Default)]
struct Taken {
    rules: BTreeSet<String>,
    problems: BTreeSet<String>,
}

impl Taken {
    fn add(&mut self, identity: &Identity) {
        self.rules.insert(identity.rule.clone());
        self.problems.insert(identity.problem.clone());
    }

    /// Whether a task of this identity would repeat a rule or a problem
    /// (of a held-out split).
    fn has(&self, identity: &Identity) -> bool {
        self.rules.contains(&identity.rule) || self.problems.contains(&identity.problem)
    }

    fn extend(&mut self, other: &Taken) {
        self.rules.extend(other.rules.iter().cloned());
        self.problems.extend(other.problems.iter().cloned());
    }
}

/// The levels every split runs through, in order: each level of the
/// curriculum that Θ and the language can make. A split's tasks at a level
/// depend on its tasks at the levels before it, never on the levels a run
/// asks for.
fn curriculum_levels(config: &Config) -> Vec<u32> {
    (1..=20)
        .filter(|&l| {
            config
                .theta
                .level(l)
                .is_some_and(|level| super::level::check(&level, &config.language).is_ok())
        })
        .collect()
}

/// Generates `config.count` tasks per level on `config.threads` threads,
/// and writes them as JSONL in level then index order. Output depends only
/// on the config, not on the thread count. `progress(n)` is called as the
/// run's tasks are settled: once per task found (written, or computed only
/// to be held out or excluded, see below), and at the end of a level with
/// the number of its slots left empty, so the calls add up to [`work`].
///
/// Tasks are distinct up to renaming across the run's levels and splits: a
/// task is dropped if its rule (up to variable renaming and literal order)
/// or its problem (its labelled trains up to order and renaming) is that of
/// a task of a held-out split (see [`Split`]) at any level, or if its
/// problem is that of an earlier task of its own split: at an earlier level
/// of the curriculum ([`curriculum_levels`], whether the run asks for those
/// levels or not), or earlier in its level. (A split may use one rule for
/// several problems, as the paper's levels 1-3 do.) So a run computes,
/// without writing them, the held-out splits' tasks at every level and its
/// own split's at the levels before each one it writes.
///
/// Sharding: the run's positions are the requested `(level, slot)` pairs,
/// `count` per level in level order, and the shard writes the tasks of its
/// block of them (see [`Shard`](crate::gen::Shard)); a slot left empty
/// because its level ran out of distinct tasks is written by nobody. Within
/// a level, slot `s` holds the `s`-th distinct task in item-index order, so
/// a shard that starts inside a level first computes that level's earlier
/// items (not written). Each item's statistics count for the slot it was
/// trying to fill, so the shards' statistics add up to the unsharded run's.
pub fn generate(
    config: &Config,
    output: &mut dyn std::io::Write,
    progress: Progress,
) -> Result<Stats, Error> {
    config.validate()?;
    // The generator labels trains with its own rules, loaded as the
    // reference loads them (every label-predicate clause), so a gold rule
    // scores as the reference scores it.
    let judge = &Judge::new(crate::judge::JudgeConfig {
        rules: crate::judge::Rules::All,
        ..config.judge.clone()
    });
    let order = curriculum_levels(config);
    let mut held: Option<Taken> = None;
    // This split's taken identities per level, for levels computed in full.
    let mut done: BTreeMap<u32, Taken> = BTreeMap::new();
    let mut stats = Stats::default();
    for (level, first, slots) in shard_slots(config) {
        if held.is_none() {
            held = Some(held_out(judge, config, &order, progress)?);
        }
        let Some(held) = &held else { continue };
        let mut earlier = Taken::default();
        for &before in order.iter().take_while(|&&l| l < level) {
            let taken = match done.entry(before) {
                Entry::Occupied(computed) => computed.into_mut(),
                Entry::Vacant(slot) => slot.insert(level_tasks(
                    judge, config, before, held, &earlier, progress, None,
                )?),
            };
            earlier.extend(taken);
        }
        let mut write = |task: &SlrTask| -> Result<(), Error> {
            let line =
                serde_json::to_string(task).map_err(|e| Error::Io(std::io::Error::other(e)))?;
            Ok(writeln!(output, "{line}")?)
        };
        let written = Written {
            first,
            slots: slots.clone(),
            emit: &mut write,
            stats: &mut stats,
        };
        let taken = level_tasks(
            judge,
            config,
            level,
            held,
            &earlier,
            progress,
            Some(written),
        )?;
        if slots.end == config.count {
            done.insert(level, taken);
        }
    }
    output.flush()?;
    Ok(stats)
}

/// The number of tasks [`generate`] settles for `config`, the total its
/// progress calls add up to: the shard's positions, plus the tasks it
/// computes without writing them (the held-out splits' at every level of
/// the curriculum, its own split's at the levels before each one it
/// writes). The pre-phase is most of a small run's time, so a progress bar
/// over positions alone would stand still, then overshoot.
pub fn work(config: &Config) -> u64 {
    let order = curriculum_levels(config);
    let mut total = 0u64;
    let mut held = false;
    let mut done = std::collections::BTreeSet::new();
    for (level, _, slots) in shard_slots(config) {
        if !held {
            held = true;
            let per_level: u64 = held_splits(config.split)
                .iter()
                .map(|&s| config.held_out_tasks(s).unwrap_or(0))
                .sum();
            total = total.saturating_add(per_level.saturating_mul(order.len() as u64));
        }
        for &before in order.iter().take_while(|&&l| l < level) {
            if done.insert(before) {
                total = total.saturating_add(config.count);
            }
        }
        // A shard that starts inside a level also computes the level's
        // earlier slots, unwritten but settled.
        total = total.saturating_add(slots.end);
        if slots.end == config.count {
            done.insert(level);
        }
    }
    total
}

/// The requested levels with slots in the shard: each level, the id of its
/// slot 0, and the shard's slots of it.
fn shard_slots(config: &Config) -> impl Iterator<Item = (u32, u64, Range<u64>)> + '_ {
    let block = config
        .shard
        .range(config.count.saturating_mul(config.levels.len() as u64));
    config
        .levels
        .iter()
        .enumerate()
        .filter_map(move |(position, &level)| {
            let first = config.count.saturating_mul(position as u64);
            let slots = block.start.saturating_sub(first)
                ..block.end.saturating_sub(first).min(config.count);
            (!slots.is_empty()).then_some((level, first, slots))
        })
}

/// The splits held out from `split`'s runs, test first (see [`Split`]).
fn held_splits(split: Split) -> &'static [Split] {
    match split {
        Split::Test => &[],
        Split::Validation => &[Split::Test],
        Split::Train => &[Split::Test, Split::Validation],
    }
}

/// The identities of the tasks of the splits held out from `config`'s, at
/// every level of `order`, each computed (not written) as its own run of the
/// same seed computes them, test first (see [`Split`]).
fn held_out(
    judge: &Judge,
    config: &Config,
    order: &[u32],
    progress: Progress,
) -> Result<Taken, Error> {
    let mut held = Taken::default();
    for &split in held_splits(config.split) {
        let run = Config {
            split,
            count: config.held_out_tasks(split).unwrap_or(0),
            shard: Shard::WHOLE,
            ..config.clone()
        };
        let mut own = Taken::default();
        for &level in order {
            let taken = level_tasks(judge, &run, level, &held, &own, progress, None)?;
            own.extend(&taken);
        }
        held.extend(&own);
    }
    Ok(held)
}

/// Where a level's tasks go when they are written: slots `slots` of it, slot
/// `s` with id `first + s`.
struct Written<'w> {
    first: u64,
    slots: Range<u64>,
    emit: &'w mut dyn FnMut(&SlrTask) -> Result<(), Error>,
    stats: &'w mut Stats,
}

/// The tasks of `level` in `config`'s split, none taking a rule or problem
/// of `held` (held-out splits) or a problem of `earlier` (its split's
/// earlier levels) or of another task of the level:
/// all `config.count` of them, or with `written` those up to its last slot,
/// its slots emitted. `progress` settles each slot (found or left empty).
/// Returns the identities of the tasks found.
fn level_tasks(
    judge: &Judge,
    config: &Config,
    level: u32,
    held: &Taken,
    earlier: &Taken,
    progress: Progress,
    written: Option<Written>,
) -> Result<Taken, Error> {
    let mut context = LevelContext::new(&config.language, level, &config.theta)?;
    context.excluded_rules = held.rules.clone();
    let mut ignored = Stats::default();
    let (need, mut written) = match written {
        Some(w) => (w.slots.end, Some(w)),
        None => (config.count, None),
    };
    // Progress counts the run's positions settled (a task written, or a
    // slot the level cannot fill), not items computed: items include
    // duplicates and failures, and levels computed only to be held out.
    let mut seen = earlier.clone();
    let mut taken = Taken::default();
    // Distinct tasks found so far: the slot the next item tries to fill.
    let mut found = 0u64;
    let mut next_index = 0u64;
    let limit = config
        .count
        .saturating_mul(ITEMS_PER_TASK)
        .saturating_add(16);
    // Items since the last new task: a long run of duplicates means the
    // level's combinatorics are exhausted (levels 1-2 hold a few dozen
    // distinct tasks), so stop before the hard limit.
    let mut since_new = 0u64;
    while found < need && next_index < limit && since_new < 4 * found.max(64) {
        // After the first chunk, missing tasks come from duplicates or
        // failed items: ask for a margin so exhausted levels end soon. The
        // chunks depend on the config only, so every shard sees the same.
        let missing = config.count - found;
        let chunk = if next_index == 0 {
            missing
        } else {
            missing.saturating_mul(2).max(16)
        };
        let chunk_end = next_index + chunk.min(limit - next_index);
        // The chunk's items are computed in batches of at most as many as
        // could still be needed, so a shard that ends early in the level
        // computes no more of the chunk than it reads.
        while next_index < chunk_end && found < need {
            let batch = (need - found).max(16).min(chunk_end - next_index);
            let results = run_items(judge, &context, config, next_index, batch);
            next_index += batch;
            for result in results {
                if found >= need {
                    break;
                }
                let (item, item_stats) = result?;
                let stats = match &mut written {
                    Some(w) if w.slots.contains(&found) => &mut *w.stats,
                    _ => &mut ignored,
                };
                stats.merge(&item_stats);
                since_new += 1;
                let Some((mut task, identity)) = item else {
                    continue;
                };
                if held.has(&identity) {
                    stats.tasks_held_out += 1;
                    continue;
                }
                if seen.problems.contains(&identity.problem) {
                    stats.duplicates += 1;
                    continue;
                }
                seen.add(&identity);
                taken.add(&identity);
                if let Some(w) = &mut written {
                    if w.slots.contains(&found) {
                        task.id = w.first + found;
                        (w.emit)(&task)?;
                        w.stats.tasks += 1;
                    }
                }
                progress(1);
                found += 1;
                since_new = 0;
            }
        }
    }
    if let Some(w) = written {
        let empty = w.slots.end - found.max(w.slots.start).min(w.slots.end);
        if empty > 0 {
            w.stats.shortfall.push((level, empty));
        }
    }
    progress(need.saturating_sub(found));
    Ok(taken)
}

type ItemResult = Result<(Option<(SlrTask, Identity)>, Stats), Error>;

/// Items `start..start + count` in index order, computed on
/// `config.threads` threads.
fn run_items(
    judge: &Judge,
    context: &LevelContext,
    config: &Config,
    start: u64,
    count: u64,
) -> Vec<ItemResult> {
    let next = AtomicU64::new(0);
    let per_thread = on_threads(config.threads, |_| {
        let mut done = Vec::new();
        loop {
            let offset = next.fetch_add(1, Ordering::Relaxed);
            if offset >= count {
                return done;
            }
            let mut stats = Stats::default();
            let result = context
                .item(
                    judge,
                    config.seed,
                    config.split,
                    start + offset,
                    config.prompt,
                    config.holdout,
                    &mut stats,
                )
                .map(|task| (task, stats));
            done.push((offset, result));
        }
    });
    let mut slots: Vec<Option<ItemResult>> = (0..count).map(|_| None).collect();
    for (offset, result) in per_thread.into_iter().flatten().flatten() {
        slots[offset as usize] = Some(result);
    }
    slots
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(Error::Judge("a generator thread stopped".into()))))
        .collect()
}

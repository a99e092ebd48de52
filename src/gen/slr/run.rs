//! A whole run: items on worker threads, deduplicated, written in order.

use super::level::LevelContext;
use super::{curriculum, Config, Error, SlrTask, Split};
use crate::gen::{on_threads, Progress, Shard};
use crate::judge::Judge;
use serde::Serialize;
use std::collections::BTreeSet;
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
    /// Tasks dropped as duplicates of an earlier (rule, validation program).
    pub duplicates: u64,
    /// Tasks dropped because a held-out split has their validation program.
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

/// Generates `config.count` tasks per level, deduplicated by (rule,
/// validation program), on `config.threads` threads, and writes them as
/// JSONL in level then index order. Output depends only on the config, not
/// on the thread count. `progress(1)` is called once per item computed.
///
/// Sharding: the run's positions are the requested `(level, slot)` pairs,
/// `count` per level in level order, and the shard writes the tasks of its
/// block of them (see [`Shard`](crate::gen::Shard)); a slot left empty
/// because its level ran out of distinct tasks is written by nobody. Within
/// a level, slot `s` holds the `s`-th distinct task in item-index order, so
/// a shard that starts inside a level first computes that level's earlier
/// items (only their keys, for deduplication; they are not written). Each
/// item's statistics count for the slot it was trying to fill, so the
/// shards' statistics add up to the unsharded run's.
pub fn generate(
    config: &Config,
    output: &mut dyn std::io::Write,
    progress: Progress,
) -> Result<Stats, Error> {
    config.validate()?;
    let judge = &Judge::new(config.judge.clone());
    let block = config
        .shard
        .range(config.count.saturating_mul(config.levels.len() as u64));
    let mut stats = Stats::default();
    for (position, &level) in config.levels.iter().enumerate() {
        let first = config.count.saturating_mul(position as u64);
        let slots =
            block.start.saturating_sub(first)..block.end.saturating_sub(first).min(config.count);
        if slots.is_empty() {
            continue;
        }
        let mut context = LevelContext::new(&config.language, level, &config.theta)?;
        hold_out(judge, &mut context, config)?;
        let mut write = |task: &SlrTask| -> Result<(), Error> {
            let line =
                serde_json::to_string(task).map_err(|e| Error::Io(std::io::Error::other(e)))?;
            Ok(writeln!(output, "{line}")?)
        };
        generate_level(
            judge, &context, config, first, slots, &mut write, progress, &mut stats,
        )?;
    }
    output.flush()?;
    Ok(stats)
}

/// Gives `context` the rules and validation programs its split may not
/// use: those of the splits held out from it, at its level and at every
/// level whose prompts could equal its own ([`curriculum::siblings`]), each
/// generated (not written) as its own run of the same seed would, test
/// first (see [`Split`]).
fn hold_out(judge: &Judge, context: &mut LevelContext, config: &Config) -> Result<(), Error> {
    let held_out: &[Split] = match config.split {
        Split::Test => &[],
        Split::Validation => &[Split::Test],
        Split::Train => &[Split::Test, Split::Validation],
    };
    for &split in held_out {
        let count = config.held_out_tasks(split).unwrap_or(0);
        let run = Config {
            split,
            count,
            shard: Shard::WHOLE,
            ..config.clone()
        };
        let mut tasks = Vec::new();
        for level in curriculum::siblings(&context.level, &config.theta) {
            let mut sibling = LevelContext::new(&config.language, level, &config.theta)?;
            sibling.held_out_rules = context.held_out_rules.clone();
            sibling.held_out_programs = context.held_out_programs.clone();
            let mut keep = |task: &SlrTask| -> Result<(), Error> {
                tasks.push((
                    task.ground_truth_rule.clone(),
                    task.validation_program.clone(),
                ));
                Ok(())
            };
            let mut ignored = Stats::default();
            generate_level(
                judge,
                &sibling,
                &run,
                0,
                0..count,
                &mut keep,
                &|_| {},
                &mut ignored,
            )?;
        }
        for (rule, program) in tasks {
            context.held_out_rules.insert(rule);
            context.held_out_programs.insert(program);
        }
    }
    Ok(())
}

/// Emits the tasks of slots `slots` of one level: the level's distinct
/// tasks in item-index order, skipping those before `slots.start`. Slot
/// `s` gets the id `first + s`.
#[allow(clippy::too_many_arguments)]
fn generate_level(
    judge: &Judge,
    context: &LevelContext,
    config: &Config,
    first: u64,
    slots: Range<u64>,
    emit: &mut dyn FnMut(&SlrTask) -> Result<(), Error>,
    progress: Progress,
    stats: &mut Stats,
) -> Result<(), Error> {
    let on_done = &|| progress(1);
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    // Distinct tasks found so far: the slot the next item tries to fill.
    let mut found = 0u64;
    let mut next_index = 0u64;
    let limit = config
        .count
        .saturating_mul(ITEMS_PER_TASK)
        .saturating_add(16);
    // Items since the last new task: a long run of duplicates means the
    // level's combinatorics are exhausted (levels 1-2 hold a few hundred
    // distinct tasks), so stop before the hard limit.
    let mut since_new = 0u64;
    while found < slots.end && next_index < limit && since_new < 4 * found.max(64) {
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
        while next_index < chunk_end && found < slots.end {
            let batch = (slots.end - found).max(16).min(chunk_end - next_index);
            let results = run_items(judge, context, config, next_index, batch, on_done);
            next_index += batch;
            for result in results {
                if found >= slots.end {
                    break;
                }
                let (task, item_stats) = result?;
                let ours = slots.contains(&found);
                if ours {
                    stats.merge(&item_stats);
                }
                since_new += 1;
                let Some(mut task) = task else { continue };
                let key = (
                    task.ground_truth_rule.clone(),
                    task.validation_program.clone(),
                );
                if !seen.insert(key) {
                    if ours {
                        stats.duplicates += 1;
                    }
                    continue;
                }
                if ours {
                    task.id = first + found;
                    emit(&task)?;
                    stats.tasks += 1;
                }
                found += 1;
                since_new = 0;
            }
        }
    }
    let empty = slots.end - found.max(slots.start).min(slots.end);
    if empty > 0 {
        stats.shortfall.push((context.level.level, empty));
    }
    Ok(())
}

type ItemResult = Result<(Option<SlrTask>, Stats), Error>;

/// Items `start..start + count` in index order, computed on
/// `config.threads` threads.
fn run_items(
    judge: &Judge,
    context: &LevelContext,
    config: &Config,
    start: u64,
    count: u64,
    on_done: &(dyn Fn() + Sync),
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
            on_done();
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

//! A whole run: items on worker threads, deduplicated, written in order.

use super::{Config, Error, LevelContext, SlrTask};
use crate::gen::{check_shard, Progress};
use crate::judge::Judge;
use serde::Serialize;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

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
    /// Items that failed to produce a task within every bound.
    pub items_failed: u64,
    /// Per level, tasks requested but not produced (level's combinatorics exhausted).
    pub shortfall: Vec<(u32, u64)>,
}

impl Stats {
    fn add(&mut self, other: &Stats) {
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
pub fn generate(
    config: &Config,
    output: &mut dyn std::io::Write,
    progress: Progress,
) -> Result<Stats, Error> {
    check_shard(config.shard).map_err(Error::Config)?;
    let judge = &Judge::new(config.judge.clone());
    let threads = config.threads;
    let on_done = &|| progress(1);
    let mut stats = Stats::default();
    for &level in &config.levels {
        let context = LevelContext::new(&config.language, level)?;
        let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
        let mut written = 0u64;
        let mut next_index = 0u64;
        let limit = config.count.saturating_mul(ITEMS_PER_TASK) + 16;
        // Items since the last new task: a long run of duplicates means the
        // level's combinatorics are exhausted (levels 1-2 hold a few hundred
        // distinct tasks), so stop before the hard limit.
        let mut since_new = 0u64;
        while written < config.count && next_index < limit && since_new < 4 * written.max(64) {
            // After the first chunk, missing tasks come from duplicates or
            // failed items: ask for a margin so exhausted levels end soon.
            let missing = config.count - written;
            let chunk = if next_index == 0 {
                missing
            } else {
                (2 * missing).max(16)
            };
            let chunk = chunk.min(limit - next_index);
            let start = next_index;
            next_index += chunk;
            let results = run_items(judge, &context, config, start, chunk, threads, on_done);
            for result in results {
                let (task, item_stats) = result?;
                stats.add(&item_stats);
                if written >= config.count {
                    break;
                }
                since_new += 1;
                let Some(task) = task else { continue };
                let key = (
                    task.ground_truth_rule.clone(),
                    task.validation_program.clone(),
                );
                if !seen.insert(key) {
                    stats.duplicates += 1;
                    continue;
                }
                let line = serde_json::to_string(&task)
                    .map_err(|e| Error::Io(std::io::Error::other(e)))?;
                writeln!(output, "{line}")?;
                written += 1;
                stats.tasks += 1;
                since_new = 0;
            }
        }
        if written < config.count {
            stats.shortfall.push((level, config.count - written));
        }
    }
    output.flush()?;
    Ok(stats)
}

type ItemResult = Result<(Option<SlrTask>, Stats), Error>;

/// Items `start..start + count` in index order, computed on `threads` threads.
fn run_items(
    judge: &Judge,
    context: &LevelContext,
    config: &Config,
    start: u64,
    count: u64,
    threads: usize,
    on_done: &(dyn Fn() + Sync),
) -> Vec<ItemResult> {
    let next = AtomicU64::new(0);
    let slots: Mutex<Vec<Option<ItemResult>>> = Mutex::new((0..count).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let offset = next.fetch_add(1, Ordering::Relaxed);
                if offset >= count {
                    break;
                }
                let mut stats = Stats::default();
                let result = context
                    .item(
                        judge,
                        config.seed,
                        config.split,
                        start + offset,
                        config.prompt,
                        &mut stats,
                    )
                    .map(|task| (task, stats));
                if let Ok(mut slots) = slots.lock() {
                    slots[offset as usize] = Some(result);
                }
                on_done();
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(Error::Judge("a generator thread stopped".into()))))
        .collect()
}

//! A whole run: items on worker threads, each into its own directory.

use super::config::{Config, Error};
use super::draft::generate_one;
use super::lexicon;
use crate::gen::Progress;
use crate::prove::{ProveOptions, Prover};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Counts of a run: instances emitted and draws discarded, by reason.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
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
    fn merge(&mut self, other: &Stats) {
        self.generated += other.generated;
        for (k, v) in &other.discarded {
            *self.discarded.entry(k.clone()).or_default() += v;
        }
        self.paths += other.paths;
        self.steps += other.steps;
        self.max_atoms = self.max_atoms.max(other.max_atoms);
    }
}

/// The directory of item `index` under `out`: `test_{index+1}`.
pub fn item_dir(out: &Path, index: u64) -> PathBuf {
    out.join(format!("test_{}", index + 1))
}

/// Generates `config.count` instances into `out/test_1 …` on
/// `config.threads` worker threads (each with its own prover; the output does
/// not depend on the number), calling `progress(1)` after each instance.
pub fn generate(config: &Config, out: &Path, progress: Progress) -> Result<Stats, Error> {
    config.validate()?;
    lexicon::builtin().map_err(Error::Lexicon)?;
    let count = config.count;
    let threads = config.threads.max(1).min(count.max(1) as usize);
    let next = std::sync::atomic::AtomicU64::new(0);
    let results: Vec<Result<Stats, Error>> = std::thread::scope(|scope| {
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
                        let g = generate_one(config, i, &mut prover, &mut stats)?;
                        g.instance
                            .write(&item_dir(out, i), &g.report, config.prompt)?;
                        progress(1);
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Config("a worker thread panicked".into())))
            })
            .collect()
    });
    let mut total = Stats::default();
    for r in results {
        total.merge(&r?);
    }
    Ok(total)
}

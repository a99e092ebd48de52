//! A whole run: items on worker threads, each into its own directory.

use super::config::{Config, Error};
use super::draft::generate_one;
use crate::gen::wordnet::{self, Lexicon};
use crate::gen::{on_threads, Progress};
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
    /// The word source (`WordNet 3.0`); empty when nothing was generated.
    pub lexicon: String,
}

impl Stats {
    /// Adds another run's counts: a thread's into its run's, or one shard's
    /// into the sum of shards (which equals the unsharded run's statistics).
    pub fn merge(&mut self, other: &Stats) {
        self.generated += other.generated;
        for (k, v) in &other.discarded {
            *self.discarded.entry(k.clone()).or_default() += v;
        }
        self.paths += other.paths;
        self.steps += other.steps;
        self.max_atoms = self.max_atoms.max(other.max_atoms);
        if self.lexicon.is_empty() {
            self.lexicon.clone_from(&other.lexicon);
        }
    }
}

/// The directory of item `index` under `out`: `test_{index+1}`.
fn item_dir(out: &Path, index: u64) -> PathBuf {
    out.join(format!("test_{}", index + 1))
}

/// Generates the instances of `config.shard`'s block of the items
/// `0..config.count` (all of them for the whole run) into `out/test_{i+1}`,
/// named by the global index `i`, so the shards' directories merge into the
/// unsharded tree. Runs on `config.threads` worker threads (each with its
/// own prover; the output does not depend on the number), calling
/// `progress(1)` after each instance.
pub fn generate(config: &Config, out: &Path, progress: Progress) -> Result<Stats, Error> {
    config.validate()?;
    let lex = Lexicon::open(&wordnet::locate(config.wordnet.as_deref()))
        .map_err(|e| Error::Lexicon(e.to_string()))?;
    let lex = &lex;
    let items = config.shard.range(config.count);
    let threads = config.threads.max(1).min(items.clone().count().max(1));
    let next = std::sync::atomic::AtomicU64::new(items.start);
    let results = on_threads(threads, |_| -> Result<Stats, Error> {
        let mut prover = Prover::new(ProveOptions {
            timeout: Some(Duration::from_secs(10)),
            countermodels: false,
        });
        let mut stats = Stats {
            lexicon: lex.version().to_string(),
            ..Stats::default()
        };
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if i >= items.end {
                return Ok(stats);
            }
            let g = generate_one(config, lex, i, &mut prover, &mut stats)?;
            g.instance
                .write(&item_dir(out, i), &g.report, config.prompt)?;
            progress(1);
        }
    });
    let mut total = Stats::default();
    for r in results {
        total.merge(&r.unwrap_or_else(|| Err(Error::Config("a worker thread panicked".into())))?);
    }
    Ok(total)
}

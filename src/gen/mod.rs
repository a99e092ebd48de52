//! Benchmark generators and scorers, one module per benchmark. Each is a
//! client of the public library API (the judge, the prover and the
//! truth-table engine) and uses nothing private.
//!
//! Every benchmark has the same face: a `Config` (with `seed`, `count`,
//! `shard` and `threads`), `generate(&Config, out, progress) ->
//! Result<Stats, Error>` writing the benchmark's published format, and
//! `score`, which grades model answers against generated items.
//!
//! Every generator is deterministic: item `i` of a run with seed `s` is drawn
//! from its own stream, [`item_rng`]`(s, i)`, so output is byte-identical for
//! a seed on every platform and any thread count, and can be produced in
//! parallel.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub mod divlogic;
pub mod logicgraph;
pub mod logicon;
pub mod slr;

/// The random stream for item `index` of a run seeded with `seed`.
pub fn item_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Called by `generate` with the number of items just finished, for a
/// progress bar; `Sync` because items finish on worker threads.
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// Which part of a run to produce: shard `index` of `count`. Only the whole
/// run, `(0, 1)`, is implemented; splitting a run over machines is issue #13.
pub type Shard = (u64, u64);

/// The whole run.
pub const WHOLE_RUN: Shard = (0, 1);

/// Refuses a shard other than the whole run, so a config asking for one fails
/// clearly instead of silently producing the whole run.
fn check_shard(shard: Shard) -> Result<(), String> {
    if shard == WHOLE_RUN {
        Ok(())
    } else {
        Err(format!(
            "shard {}/{}: only the whole run (0/1) is implemented",
            shard.0, shard.1
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generator_refuses_a_shard_other_than_the_whole_run() {
        let half = (1, 2);
        let message = "shard 1/2: only the whole run (0/1) is implemented";
        let mut out = Vec::new();
        let config = divlogic::Config {
            shard: half,
            ..divlogic::Config::default()
        };
        let e = divlogic::generate(&config, &mut out, &|_| {}).expect_err("refused");
        assert_eq!(e.to_string(), format!("invalid configuration: {message}"));
        let config = logicon::Config {
            shard: half,
            ..logicon::Config::default()
        };
        let e = logicon::generate(&config, &mut out, &|_| {}).expect_err("refused");
        assert_eq!(e.to_string(), format!("invalid configuration: {message}"));
        let config = slr::Config {
            shard: half,
            ..slr::Config::default()
        };
        let e = slr::generate(&config, &mut out, &|_| {}).expect_err("refused");
        assert_eq!(e.to_string(), format!("invalid configuration: {message}"));
        assert!(out.is_empty());
        let config = logicgraph::Config {
            shard: half,
            ..logicgraph::Config::for_tier(logicgraph::Tier::Small)
        };
        let dir = std::env::temp_dir().join(format!("entail-shard-{}", std::process::id()));
        let e = logicgraph::generate(&config, &dir, &|_| {}).expect_err("refused");
        assert_eq!(e.to_string(), format!("invalid configuration: {message}"));
        assert!(!dir.exists());
        assert_eq!(check_shard(WHOLE_RUN), Ok(()));
    }
}

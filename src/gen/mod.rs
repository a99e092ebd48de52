//! Benchmark generators. Each is a client of the public library API (the
//! judge, the prover and the truth-table engine) and uses nothing private.
//!
//! Every generator is deterministic: item `i` of a run with seed `s` is drawn
//! from its own stream, [`item_rng`]`(s, i)`, so output is byte-identical for
//! a seed on every platform and can be produced in parallel.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The random stream for item `index` of a run seeded with `seed`.
pub fn item_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}
pub mod divlogic;
pub mod logicgraph;
pub mod logicon;
pub mod slr;

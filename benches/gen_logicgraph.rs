//! Time to generate 900 LogicGraph instances (300 per tier), each verified
//! with the engine and written in the published layout.
//! Run with `cargo bench --bench gen_logicgraph`.

/// The allocator of the `entail` binary (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use entail::gen::logicgraph::{generate, Config, Tier};
use std::time::Instant;

fn main() {
    let per_tier = 300;
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let root = std::env::temp_dir().join(format!("entail_bench_lg_{}", std::process::id()));
    let mut total = 0.0;
    for (name, tier) in [
        ("small", Tier::Small),
        ("medium", Tier::Medium),
        ("large", Tier::Large),
    ] {
        for t in [1, threads] {
            let out = root.join(format!("{name}_{t}"));
            let start = Instant::now();
            let config = Config {
                seed: 1,
                count: per_tier,
                threads: t,
                ..Config::for_tier(tier)
            };
            let stats = match generate(&config, &out, &|_| {}) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    return;
                }
            };
            let secs = start.elapsed().as_secs_f64();
            if t == threads {
                total += secs;
            }
            let discarded: u64 = stats.discarded.values().sum();
            println!(
                "{name:6} {per_tier} instances, {t} thread(s): {secs:.3} s ({:.1} ms each); {} paths, {:.2} steps/path, max {} atoms, {discarded} draws discarded {:?}",
                secs * 1e3 / per_tier as f64,
                stats.paths,
                stats.steps as f64 / stats.paths.max(1) as f64,
                stats.max_atoms,
                stats.discarded
            );
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    println!("all tiers, 900 instances, {threads} thread(s): {total:.3} s");
    let _ = std::fs::remove_dir_all(&root);
}

//! Time to generate the LogiConBench-sized corpus: 280,000 samples, 70,000
//! for each k = 2..5, written as JSONL to a byte counter. Run with
//! `cargo bench --bench gen_logicon`; the target is at most 60 s on 2 cores.

/// The allocator of the `entail` binary (src/main.rs): the system allocator
/// makes the same run take half again as long.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use entail::gen::logicon::{self, Config};
use std::io::Write;
use std::time::Instant;

/// Counts bytes so the figure includes serialisation but not disk speed.
struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn main() {
    let count: u64 = std::env::var("LOGICON_BENCH_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(280_000);
    let threads: usize = std::env::var("LOGICON_BENCH_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let config = Config {
        seed: 2024,
        count,
        k_min: 2,
        k_max: 5,
        ..Config::default()
    };
    let mut out = Counter(0);
    let start = Instant::now();
    if let Err(e) = logicon::generate(
        &Config {
            threads,
            ..config.clone()
        },
        &mut out,
        &|_| {},
    ) {
        eprintln!("gen_logicon bench: {e}");
        std::process::exit(1);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "gen_logicon: {count} samples (k = 2..5, {} per k), {threads} threads: {secs:.2} s, {:.1} µs/sample, {:.1} MB",
        count / 4,
        secs * 1e6 / count as f64,
        out.0 as f64 / 1e6
    );
}

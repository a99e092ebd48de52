//! Benchmark: time to generate SLR tasks per curriculum level, and the
//! extrapolated time for an SLR-Bench-sized corpus (1,000 tasks per level).
//!
//! `cargo bench --bench gen_slr` (release). `SLR_BENCH_COUNT` sets the tasks
//! per level actually generated (default 20); `SLR_BENCH_THREADS` the
//! threads and judge workers (default 2). Tasks are drawn from the test
//! split, which holds nothing out: a train run also regenerates the test and
//! validation tasks it holds out (60 per level and its sibling levels), a
//! fixed cost per level, several times that of 20 tasks and a few percent of
//! 1,000's. `gen slr --levels 1-20 --count 1000` measures the whole of it.

/// The allocator of the `entail` binary (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use entail::gen::slr::{self, Config, Language, PromptStyle, Split};
use entail::judge::JudgeConfig;
use std::time::Instant;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let count = env_number("SLR_BENCH_COUNT", 20);
    let threads = env_number("SLR_BENCH_THREADS", 2) as usize;
    let mut judge_config = JudgeConfig::default();
    judge_config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    judge_config.workers = threads;
    let language = Language::trains();

    println!("generation, {count} tasks per level, {threads} threads:");
    println!(
        "level  seconds  tasks/s  candidates  judge_calls  rules_unfillable  est_1000/level_s"
    );
    let mut total = 0.0;
    let mut estimate = 0.0;
    for level in 1..=20u32 {
        let config = Config {
            seed: 2025,
            levels: vec![level],
            count,
            split: Split::Test,
            test_tasks: count,
            prompt: PromptStyle::Prolog,
            language: language.clone(),
            threads,
            judge: judge_config.clone(),
            ..Config::default()
        };
        let mut sink = std::io::sink();
        let start = Instant::now();
        let stats = slr::generate(&config, &mut sink, &|_| {}).expect("generation");
        let seconds = start.elapsed().as_secs_f64();
        total += seconds;
        let per_task = seconds / stats.tasks.max(1) as f64;
        estimate += per_task * 1000.0;
        println!(
            "{level:>5}  {seconds:>7.2}  {:>7.1}  {:>10}  {:>11}  {:>16}  {:>16.0}",
            stats.tasks as f64 / seconds,
            stats.candidates_labelled,
            stats.judge_calls,
            stats.rules_unfillable,
            per_task * 1000.0
        );
    }
    println!(
        "total {total:.1} s for {} tasks; extrapolated SLR-Bench size (20 x 1000): {estimate:.0} s",
        count * 20
    );
}

//! Benchmark: time to generate SLR tasks per curriculum level, and the
//! extrapolated time for an SLR-Bench-sized corpus (1,000 tasks per level).
//!
//! `cargo bench --bench gen_slr` (release). `SLR_BENCH_COUNT` sets the tasks
//! per level actually generated (default 20); `SLR_BENCH_THREADS` the
//! threads and judge workers (default 2).

/// The allocator of the `entail` binary (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use entail::gen::item_rng;
use entail::gen::slr::language::Language;
use entail::gen::slr::prompt::PromptStyle;
use entail::gen::slr::{self, Config, LevelContext, Split};
use entail::judge::{Judge, JudgeConfig, Label, TaskRecord};
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
    let judge = Judge::new(judge_config.clone());
    let language = Language::trains();

    // Cost of one labelling call by size, split into its stages: building
    // the validation program text, the judge's parse (`Judge::task`) and
    // the scoring (loading the facts into a worker, running the goals).
    // Fresh trains every call: the judge caches a background it has loaded.
    let context = LevelContext::new(&language, 20).expect("level 20");
    let rule = "eastbound(T) :- has_car(T, C), car_color(C, red), car_len(C, long).";
    let mut rng = item_rng(1, 1);
    println!("labelling cost, level 20 trains (fresh trains per call, 5 calls each):");
    println!("trains  facts  text_ms  parse_ms  score_ms  us/fact(total)");
    for batch in [1usize, 16, 64, 256] {
        let (mut text_s, mut parse_s, mut score_s, mut facts) = (0.0, 0.0, 0.0, 0usize);
        let reps = 5;
        for _ in 0..reps {
            let trains: Vec<_> = (0..batch)
                .map(|_| {
                    (
                        Label::Pos,
                        context.vocabulary.sample_train(&mut rng).expect("train"),
                    )
                })
                .collect();
            let t0 = Instant::now();
            let program = context.validation_program(&trains);
            let t1 = Instant::now();
            facts += program.lines().filter(|l| !l.is_empty()).count();
            let record = TaskRecord {
                validation_program: program,
                ..Default::default()
            };
            let task = judge.task(&record).expect("task");
            let t2 = Instant::now();
            let result = task.score(rule);
            let t3 = Instant::now();
            assert!(result.error.is_none(), "{:?}", result.error);
            text_s += (t1 - t0).as_secs_f64();
            parse_s += (t2 - t1).as_secs_f64();
            score_s += (t3 - t2).as_secs_f64();
        }
        let r = reps as f64;
        println!(
            "{batch:>6}  {:>5}  {:>7.2}  {:>8.2}  {:>8.2}  {:>14.1}",
            facts / reps,
            text_s / r * 1e3,
            parse_s / r * 1e3,
            score_s / r * 1e3,
            (text_s + parse_s + score_s) * 1e6 / facts as f64
        );
    }

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
            split: Split::Train,
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

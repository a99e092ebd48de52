//! Throughput of `entail judge` against the one-swipl-process-per-prediction
//! baseline, side by side, one worker and one baseline process at a time:
//! (a) one hypothesis per task across levels, (b) 16 hypotheses per task,
//! (c) a looping hypothesis. Each workload runs with the default engine
//! (`auto`: native, falling back to scryer), with scryer workers only, and
//! with the baseline, and prints the ratios. Run with `cargo bench --bench judge`.

#[path = "../tests/reference/slr_baseline.rs"]
mod baseline;
#[path = "../tests/reference/slr_gen.rs"]
mod slr_gen;

/// The allocator of the `entail` binary (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use entail::judge::{Engine, Judge, JudgeConfig, TaskRecord};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

use slr_gen::DIFFERENTIAL_LEVELS as LEVELS;

struct Workload {
    name: &'static str,
    /// (program, hypotheses) per task.
    tasks: Vec<(String, Vec<String>)>,
    /// How many of the tasks the (slow) baseline runs.
    baseline_tasks: usize,
}

fn main() {
    if !baseline::swipl_available() {
        eprintln!("swipl not found: install swi-prolog-nox");
        std::process::exit(1);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let a = Workload {
        name: "(a) 1 hypothesis/task",
        tasks: (0..120)
            .map(|i| {
                let (t, c) = LEVELS[i % LEVELS.len()];
                let task = slr_gen::task(&mut rng, t, c);
                (task.program, vec![slr_gen::hypothesis(&mut rng, i)])
            })
            .collect(),
        baseline_tasks: 30,
    };
    let b = Workload {
        name: "(b) 16 hypotheses/task",
        tasks: (0..30)
            .map(|i| {
                let (t, c) = LEVELS[i % LEVELS.len()];
                let task = slr_gen::task(&mut rng, t, c);
                (
                    task.program,
                    (0..16)
                        .map(|k| slr_gen::hypothesis(&mut rng, i * 16 + k))
                        .collect(),
                )
            })
            .collect(),
        baseline_tasks: 3,
    };
    let c = Workload {
        name: "(c) looping hypothesis",
        tasks: (0..6)
            .map(|i| {
                let (t, c) = LEVELS[i % LEVELS.len()];
                (
                    slr_gen::task(&mut rng, t, c).program,
                    vec!["eastbound(T) :- eastbound(T).".to_string()],
                )
            })
            .collect(),
        baseline_tasks: 2,
    };
    let judge_for = |engine: Engine| {
        let mut config = JudgeConfig::default();
        config.worker.executable = env!("CARGO_BIN_EXE_entail").into();
        config.engine = engine;
        Judge::new(config)
    };
    let auto = judge_for(Engine::Auto);
    let scryer = judge_for(Engine::Scryer);
    // Start the worker and its machine outside the timings.
    let warm = TaskRecord {
        validation_program: a.tasks[0].0.clone(),
        ..Default::default()
    };
    for judge in [&auto, &scryer] {
        let _ = judge.task(&warm).map(|t| t.score(&a.tasks[0].1[0]));
    }

    println!(
        "{:<26} {:>11} {:>11} {:>10} {:>10} {:>10} {:>10}",
        "workload", "auto h/s", "scryer h/s", "swipl h/s", "auto/swi", "scry/swi", "auto/scry"
    );
    let c_program = c.tasks[c.tasks.len() - 1].0.clone();
    for w in [a, b, c] {
        // Each engine repeats the workload until it has run for a second,
        // so a fast engine is not timed over a few milliseconds of warm-up.
        let run = |judge: &Judge| {
            let start = Instant::now();
            let mut n = 0;
            let mut score_sum = 0.0;
            let mut loading = 0.0;
            let rounds =
                std::iter::repeat(&w.tasks).take_while(|_| start.elapsed().as_secs_f64() < 1.0);
            for (program, hyps) in rounds.flatten() {
                let record = TaskRecord {
                    validation_program: program.clone(),
                    ..Default::default()
                };
                let t0 = Instant::now();
                let task = judge.task(&record).expect("task loads");
                loading += t0.elapsed().as_secs_f64();
                for h in hyps {
                    score_sum += task.score(h).partial_score;
                    n += 1;
                }
            }
            let total = start.elapsed().as_secs_f64();
            (n as f64 / total, score_sum / n as f64, loading / total)
        };
        let before = auto.native_stats().unwrap_or_default();
        let (ours, auto_mean, auto_loading) = run(&auto);
        let after = auto.native_stats().unwrap_or_default();
        let (scryer_rate, scryer_mean, _) = run(&scryer);
        let start = Instant::now();
        let mut m = 0;
        for (program, hyps) in w.tasks.iter().take(w.baseline_tasks) {
            for h in hyps {
                let _ = baseline::score(program, h, "eastbound", "westbound");
                m += 1;
            }
        }
        let theirs = m as f64 / start.elapsed().as_secs_f64();
        println!(
            "{:<26} {:>11.1} {:>11.1} {:>10.2} {:>9.1}x {:>9.1}x {:>9.1}x   (mean partial auto {:.3}, scryer {:.3}; native {} / fallback {}; auto spends {:.0}% in Judge::task)",
            w.name,
            ours,
            scryer_rate,
            theirs,
            ours / theirs,
            scryer_rate / theirs,
            ours / scryer_rate,
            auto_mean,
            scryer_mean,
            after.native_answers - before.native_answers,
            after.fallbacks - before.fallbacks,
            auto_loading * 100.0,
        );
    }
    // What the native engine costs before it hands a looping answer to
    // scryer: it runs to its step budget first.
    {
        let record = TaskRecord {
            validation_program: c_program,
            ..Default::default()
        };
        let task = auto.task(&record).expect("task loads");
        let naming = &task.renamings()[0];
        let hypothesis = "eastbound(T):-eastbound(T).\n";
        let start = Instant::now();
        let reps = 10;
        for _ in 0..reps {
            let outcome = entail::prolog::native::run_native(
                naming.background.text(),
                hypothesis,
                &naming.goals,
                auto.config().inference_limit,
            );
            assert!(outcome.is_err(), "a loop must fall back");
        }
        println!(
            "native give-up time on the looping hypothesis: {:.1} ms",
            start.elapsed().as_secs_f64() * 1e3 / reps as f64
        );
    }
    if let Some(stats) = auto.native_stats() {
        println!("native evaluator over the whole run: {stats}");
    }
}

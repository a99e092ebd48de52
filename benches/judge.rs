//! Throughput of `entail judge` against the one-swipl-process-per-prediction
//! baseline, side by side, one worker and one baseline process at a time:
//! (a) one hypothesis per task across levels, (b) 16 hypotheses per task,
//! (c) looping and exploding hypotheses, (d) a mixed RL batch (16 answers
//! per task, 5% of them looping or exploding), (e) a 1,000-answer RL batch
//! with 5% cost bombs (long-atom walks, unbound `sub_atom/5`, big-integer
//! loops, `dif/2` loops, a 1 MB answer) beside the same batch with those
//! answers replaced by ordinary ones. Each workload runs with the default
//! engine (`auto`: native only), with scryer workers only (not on (e),
//! whose bombs would each run into scryer's wall clock), and with the
//! baseline, and prints the ratios and how many evaluations the native
//! engine did not decide (0 expected). The (e) batch is also written to
//! `target/judge_bombs.jsonl`, for measuring peak memory with
//! `/usr/bin/time -v entail judge --batch target/judge_bombs.jsonl`.
//! Run with `cargo bench --bench judge`.

#[path = "../tests/reference/slr_baseline.rs"]
mod baseline;
#[path = "../tests/reference/slr_gen.rs"]
mod slr_gen;
#[path = "../tests/reference/thread_cpu.rs"]
mod thread_cpu;

/// The allocator of the `entail` binary (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use entail::judge::{Engine, Judge, JudgeConfig, TaskRecord};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

use slr_gen::DIFFERENTIAL_LEVELS as LEVELS;

/// Answers that never finish: a plain loop, a second clause that loops
/// after a first that succeeds, an unbounded between/3, a growing list.
const LOOPING: &[&str] = &[
    "eastbound(T) :- eastbound(T).",
    "eastbound(T) :- has_car(T, _).\neastbound(T) :- eastbound(T).",
    "eastbound(T) :- has_car(T, C), between(1, inf, N), car_num(C, N).",
    "eastbound(T) :- grow([], T).\ngrow(L, T) :- grow([T|L], T).",
];

/// Cost bombs: answers that do unbounded work or take unbounded memory in
/// few inference steps. Each must end in a counted budget, fast.
fn bombs() -> Vec<String> {
    let double =
        "d(0, A, A) :- !.\nd(N, A0, A) :- atom_concat(A0, A0, A1), N1 is N - 1, d(N1, A1, A).\n";
    // About 1 MB: a correct rule and 60,000 facts of a helper it never calls.
    let mut big = String::from("eastbound(T) :- has_car(T, C), atom_length(C, N), N > 0.\n");
    let mut i = 0;
    while big.len() < 1 << 20 {
        big.push_str(&format!("padding({i}, x).\n"));
        i += 1;
    }
    vec![
        format!("eastbound(T) :- has_car(T, _), d(16, a, A), w(2000, A).\n{double}w(0, _) :- !.\nw(N, A) :- sub_atom(A, 0, 1, _, _), N1 is N - 1, w(N1, A).\n"),
        format!("eastbound(T) :- has_car(T, _), d(11, abcdefghij, A), findall(B-L, sub_atom(A, B, L, _, _), Ps), Ps = [_|_].\n{double}"),
        "eastbound(T) :- has_car(T, _), sq(3).\nsq(X) :- Y is X * X, sq(Y).\n".to_string(),
        "eastbound(T) :- X is 2 ^ 200, X > 0, eastbound(T).\n".to_string(),
        "eastbound(T) :- has_car(T, _), ds(0).\nds(N) :- dif(_, N), N1 is N + 1, ds(N1).\n".to_string(),
        big,
    ]
}

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
        name: "(c) looping/exploding",
        tasks: (0..6)
            .map(|i| {
                let (t, c) = LEVELS[i % LEVELS.len()];
                (
                    slr_gen::task(&mut rng, t, c).program,
                    vec![LOOPING[i % LOOPING.len()].to_string()],
                )
            })
            .collect(),
        baseline_tasks: 2,
    };
    // 16 answers per task; every 20th answer loops or explodes (5%).
    let mut k = 0;
    let d = Workload {
        name: "(d) RL batch, 5% loops",
        tasks: (0..30)
            .map(|i| {
                let (t, c) = LEVELS[i % LEVELS.len()];
                let task = slr_gen::task(&mut rng, t, c);
                let hyps = (0..16)
                    .map(|j| {
                        k += 1;
                        if k % 20 == 0 {
                            LOOPING[(k / 20) % LOOPING.len()].to_string()
                        } else {
                            slr_gen::hypothesis(&mut rng, i * 16 + j)
                        }
                    })
                    .collect();
                (task.program, hyps)
            })
            .collect(),
        // 48 answers, two of them looping (each costs the baseline 5 s).
        baseline_tasks: 3,
    };
    // (e): 1,000 answers, 16 per task; every 20th a cost bomb (5%), and
    // the same batch with an ordinary answer in each bomb's place.
    let bomb_list = bombs();
    let (mut e_bombs, mut e_clean) = (Vec::new(), Vec::new());
    let mut k = 0;
    for i in 0..63 {
        let (t, c) = LEVELS[i % LEVELS.len()];
        let task = slr_gen::task(&mut rng, t, c);
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for j in 0..16 {
            if k == 1000 {
                break;
            }
            k += 1;
            let ordinary = slr_gen::hypothesis(&mut rng, i * 16 + j);
            if k % 20 == 0 {
                with.push(bomb_list[(k / 20) % bomb_list.len()].clone());
            } else {
                with.push(ordinary.clone());
            }
            without.push(ordinary);
        }
        e_bombs.push((task.program.clone(), with));
        e_clean.push((task.program, without));
    }
    write_batch(&e_bombs);
    let e_ratio = (e_bombs.clone(), e_clean.clone());
    let e = Workload {
        name: "(e) RL batch, 5% bombs",
        tasks: e_bombs,
        // 48 answers, two of them bombs.
        baseline_tasks: 3,
    };
    let e_clean = Workload {
        name: "(e) same, bombs replaced",
        tasks: e_clean,
        baseline_tasks: 3,
    };
    let judge_for = |engine: Engine| {
        let mut config = JudgeConfig::default();
        config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
            "CARGO_BIN_EXE_entail-worker"
        )));
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
    for w in [a, b, c, d, e, e_clean] {
        let bombs = w.name.starts_with("(e)");
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
        let (scryer_rate, scryer_mean, _) = if bombs {
            (f64::NAN, f64::NAN, 0.0)
        } else {
            run(&scryer)
        };
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
    // The (e) ratio on its own: the two batches alternate, seven rounds
    // each, and the median rounds are compared, in wall time and in this
    // thread's CPU time, which other load on a shared machine disturbs less.
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        with.push(batch_time(&auto, &e_ratio.0));
        without.push(batch_time(&auto, &e_ratio.1));
    }
    let median = |v: &mut Vec<(f64, f64)>, cpu: bool| {
        let mut t: Vec<f64> = v
            .iter()
            .map(|&(wall, c)| if cpu { c } else { wall })
            .collect();
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    };
    let (wall_with, wall_without) = (median(&mut with, false), median(&mut without, false));
    let (cpu_with, cpu_without) = (median(&mut with, true), median(&mut without, true));
    println!(
        "(e) with bombs / without, median of 7 alternating rounds: wall {:.1} / {:.1} ms = {:.2}x, thread CPU {:.1} / {:.1} ms = {:.2}x (target <= 2x)",
        wall_with * 1e3,
        wall_without * 1e3,
        wall_with / wall_without,
        cpu_with * 1e3,
        cpu_without * 1e3,
        cpu_with / cpu_without,
    );
    if let Some(stats) = auto.native_stats() {
        println!("native evaluator over the whole run: {stats}");
    }
}

/// Wall and thread CPU seconds to score every answer of `tasks` once.
fn batch_time(judge: &Judge, tasks: &[(String, Vec<String>)]) -> (f64, f64) {
    let cpu = || thread_cpu::thread_cpu_ns() as f64 * 1e-9;
    let (start, cpu_start) = (Instant::now(), cpu());
    for (program, hyps) in tasks {
        let record = TaskRecord {
            validation_program: program.clone(),
            ..Default::default()
        };
        let task = judge.task(&record).expect("task loads");
        for h in hyps {
            std::hint::black_box(task.score(h));
        }
    }
    (start.elapsed().as_secs_f64(), cpu() - cpu_start)
}

/// Writes the (e) batch as `judge --batch` input to `target/judge_bombs.jsonl`.
fn write_batch(tasks: &[(String, Vec<String>)]) {
    let mut text = String::new();
    for (program, hyps) in tasks {
        for h in hyps {
            let line = serde_json::json!({"validation program": program, "prediction": h});
            text.push_str(&line.to_string());
            text.push('\n');
        }
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/judge_bombs.jsonl");
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!("cannot write {}: {e}", path.display());
    }
}

//! `cargo bench --bench prove` (release). Measures, on the 20 shared
//! LogicGraph instances:
//! 1. per-step checks per second in-process (one reused `Prover`, which
//!    decides these small propositional steps by truth table), beside the
//!    same checks on one reused Z3 solver (how `Prover` checked them before);
//! 2. the same checks as a pipeline runs Prover9: one `entail prove` process
//!    per step on a one-step file (needs `target/release/entail`: run
//!    `cargo build --release` first; the path can be set with ENTAIL_BIN);
//! 3. the time of all checks plus `--supports` over the 20 instances;
//! 4. on the proved problems of `corpora/prove/fo/`, one `entail prove`
//!    process per problem against one `eprover` process per problem on our
//!    TPTP translation of it, and against one `prover9` process per problem
//!    when ENTAIL_LADR_BIN or PATH has one (skipped otherwise), each on the
//!    problems that baseline proves: the median over them of the
//!    per-problem medians (3 runs), and the ratio; with Prover9 present,
//!    entail is also timed without it in its race.

use entail::gen::logicgraph;
use entail::prove::{tptp, Premise, ProveOptions, Prover, SupportOptions};
use entail::smt::{Sat, Z3Session};
use entail::syntax::prover9::Formula;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// The binary's allocator, so that the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn instances() -> Vec<PathBuf> {
    // As the tests: ENTAIL_LOGICGRAPH_CORPUS, else ../shared next to the crate.
    let root = std::env::var_os("ENTAIL_LOGICGRAPH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/logicgraph")
        });
    let mut dirs = Vec::new();
    for tier in ["Small", "Medium", "Large"] {
        for e in std::fs::read_dir(root.join(tier))
            .expect("shared LogicGraph corpus")
            .flatten()
        {
            dirs.push(e.path());
        }
    }
    dirs.sort();
    dirs
}

/// (cited premises, conclusion) of every published step.
fn step_checks() -> Vec<(Vec<Formula>, Formula)> {
    let mut out = Vec::new();
    for dir in instances() {
        let p = logicgraph::Instances::load(&dir, false).expect("loads");
        for s in &p.solutions {
            for (i, st) in s.steps.iter().enumerate() {
                let cited = st
                    .from
                    .iter()
                    .filter_map(|id| {
                        p.premises
                            .iter()
                            .find(|x| &x.id == id)
                            .map(|x: &Premise| x.formula.clone())
                            .or_else(|| {
                                s.steps[..i]
                                    .iter()
                                    .find(|e| &e.label == id)
                                    .map(|e| e.conclusion.clone())
                            })
                    })
                    .collect();
                out.push((cited, st.conclusion.clone()));
            }
        }
    }
    out
}

fn main() {
    let checks = step_checks();
    let mut prover = Prover::new(ProveOptions {
        timeout: None,
        countermodels: false,
    });
    // Warm the encoding cache once, then time several passes.
    for (c, g) in &checks {
        prover.entails(c, g).expect("checks");
    }
    let passes = 20;
    let t = Instant::now();
    for _ in 0..passes {
        for (c, g) in &checks {
            assert_eq!(prover.entails(c, g).expect("checks").holds(), Some(true));
        }
    }
    let per_sec = (checks.len() * passes) as f64 / t.elapsed().as_secs_f64();
    println!(
        "in-process: {} step checks x {passes} passes: {per_sec:.0} checks/s ({:.1} us/check)",
        checks.len(),
        1e6 / per_sec
    );
    let z3_per_sec = z3_step_checks(&checks, passes);
    println!(
        "  the same on one reused Z3 solver: {z3_per_sec:.0} checks/s ({:.1} us/check); ratio {:.1}x",
        1e6 / z3_per_sec,
        per_sec / z3_per_sec
    );

    let bin = std::env::var("ENTAIL_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/entail")
        });
    if bin.is_file() {
        let dir = std::env::temp_dir().join(format!("entail-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp dir");
        let sample: Vec<_> = checks.iter().take(200).collect();
        let mut files = Vec::new();
        for (k, (cited, goal)) in sample.iter().enumerate() {
            let mut text = String::from("formulas(assumptions).\n");
            for (j, c) in cited.iter().enumerate() {
                text.push_str(&format!("  {c} # label(P{j}).\n"));
            }
            text.push_str(&format!("end_of_list.\nformulas(goals).\n  {goal}.\nend_of_list.\nformulas(solution_1).\n  {goal} # label(S1) # from("));
            text.push_str(
                &(0..cited.len())
                    .map(|j| format!("P{j}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            text.push_str(").\nend_of_list.\n");
            let f = dir.join(format!("step{k}.in"));
            std::fs::write(&f, text).expect("write");
            files.push(f);
        }
        let t = Instant::now();
        for f in &files {
            let status = Command::new(&bin)
                .args(["prove", "--no-countermodels"])
                .arg(f)
                .output()
                .expect("spawn");
            assert_eq!(status.status.code(), Some(0), "{}", f.display());
        }
        let per_sec = files.len() as f64 / t.elapsed().as_secs_f64();
        println!(
            "subprocess: {} one-step files: {per_sec:.0} checks/s ({:.2} ms/check)",
            files.len(),
            1e3 / per_sec
        );
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        println!(
            "subprocess: skipped, {} not built (cargo build --release)",
            bin.display()
        );
    }

    let t = Instant::now();
    let mut prover = Prover::new(ProveOptions::default());
    for dir in instances() {
        let p = logicgraph::Instances::load(&dir, false).expect("loads");
        let r = prover
            .check_problem(&p, Some(&SupportOptions::default()))
            .expect("checks");
        assert_eq!(r.all_good(), Some(true), "{}", dir.display());
    }
    println!(
        "all checks + supports on {} instances: {:.1} ms",
        instances().len(),
        t.elapsed().as_secs_f64() * 1e3
    );

    first_order(&bin);
}

/// Checks per second of `checks` on one Z3 solver, push/assert/check/pop
/// each, after one warming pass (its encodings are cached).
fn z3_step_checks(checks: &[(Vec<Formula>, Formula)], passes: usize) -> f64 {
    let mut z3 = Z3Session::new(Duration::from_secs(10));
    let mut check = |cited: &[Formula], goal: &Formula| {
        let mut encoded: Vec<_> = cited
            .iter()
            .map(|c| z3.closed(c).expect("encodes"))
            .collect();
        encoded.push(z3.closed(goal).expect("encodes").not());
        z3.push();
        encoded.iter().for_each(|e| z3.assert(e));
        let sat = z3.check(&[]);
        z3.pop();
        sat
    };
    for (c, g) in checks {
        check(c, g);
    }
    let t = Instant::now();
    for _ in 0..passes {
        for (c, g) in checks {
            assert_eq!(check(c, g), Sat::Unsat);
        }
    }
    (checks.len() * passes) as f64 / t.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `PATH` without the directories that hold a `prover9`: entail's race
/// without Prover9, to show what it adds.
fn path_without_prover9() -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| !d.join("prover9").is_file())
        .collect();
    std::env::join_paths(kept).unwrap_or_default()
}

/// The median over runs of one process: its wall seconds, and whether it
/// proved the problem every time.
fn timed(runs: usize, mut run: impl FnMut() -> bool) -> (f64, bool) {
    let mut times = Vec::new();
    let mut proved = true;
    for _ in 0..runs {
        let t = Instant::now();
        proved &= run();
        times.push(t.elapsed().as_secs_f64());
    }
    (median(times), proved)
}

/// One problem's median wall seconds: entail, entail without Prover9 in
/// its race, and E and Prover9 where they proved it.
struct Row {
    ours: f64,
    alone: Option<f64>,
    eprover: Option<f64>,
    prover9: Option<f64>,
}

/// Section 4: per-problem processes, entail (with and without Prover9 in
/// its race) against one E process and one Prover9 process, each compared on
/// the problems it proves: the median over those problems of entail's
/// per-problem median (3 runs) against the baseline's.
fn first_order(bin: &std::path::Path) {
    if !bin.is_file() || !tptp::eprover_installed() {
        println!("first-order: skipped (needs {} and eprover)", bin.display());
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/prove/fo");
    let verdicts = std::fs::read_to_string(dir.join("verdicts.txt")).expect("verdicts");
    let proved: Vec<&str> = verdicts
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.get(1) == Some(&"proved")).then(|| f[0])
        })
        .collect();
    let prover9 = std::env::var_os("ENTAIL_LADR_BIN")
        .into_iter()
        .chain(std::env::var_os("PATH"))
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("prover9"))
        .find(|p| p.is_file());
    let runs = 3;
    let mut rows: Vec<Row> = Vec::new();
    for name in &proved {
        let path = dir.join(name);
        let input = entail::syntax::prover9::parse(&std::fs::read_to_string(&path).expect("read"))
            .expect("parses");
        let formulas = |l: &str| -> Vec<Formula> {
            input
                .entries(l)
                .into_iter()
                .map(|e| e.formula.clone())
                .collect()
        };
        let (assumptions, goals) = (formulas("assumptions"), formulas("goals"));
        let refs: Vec<&Formula> = assumptions.iter().collect();
        let problem = tptp::translate(&refs, goals.first()).expect("faithful");
        let tptp_file = std::env::temp_dir().join(format!("entail-bench-{}.p", std::process::id()));
        std::fs::write(&tptp_file, &problem.text).expect("write");
        let entail_run = |path_var: Option<std::ffi::OsString>| {
            let mut c = Command::new(bin);
            c.args(["prove", "--no-countermodels", "--timeout", "30"])
                .arg(&path);
            if let Some(p) = path_var {
                c.env("PATH", p);
            }
            let out = c.output().expect("spawn");
            assert_eq!(out.status.code(), Some(0), "{name}");
            true
        };
        let (ours, _) = timed(runs, || entail_run(None));
        let alone = prover9
            .is_some()
            .then(|| timed(runs, || entail_run(Some(path_without_prover9()))).0);
        let (e, e_proved) = timed(runs, || {
            let out = Command::new("eprover")
                .args(["--auto", "-s", "--cpu-limit=30"])
                .arg(&tptp_file)
                .output()
                .expect("spawn eprover");
            String::from_utf8_lossy(&out.stdout).contains("SZS status Theorem")
        });
        let p9 = prover9.as_ref().and_then(|p9| {
            let (t, ok) = timed(runs, || {
                let out = Command::new(p9)
                    .args(["-t", "30", "-f"])
                    .arg(&path)
                    .output()
                    .expect("spawn prover9");
                String::from_utf8_lossy(&out.stdout).contains("THEOREM PROVED")
            });
            ok.then_some(t)
        });
        rows.push(Row {
            ours,
            alone,
            eprover: e_proved.then_some(e),
            prover9: p9,
        });
        let _ = std::fs::remove_file(&tptp_file);
    }
    let against = |baseline: &str, pick: &dyn Fn(&Row) -> Option<f64>| {
        let pairs: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| pick(r).map(|b| (r.ours, b)))
            .collect();
        if pairs.is_empty() {
            println!("first-order: {baseline} proves none of them");
            return;
        }
        let ours = median(pairs.iter().map(|p| p.0).collect());
        let theirs = median(pairs.iter().map(|p| p.1).collect());
        let alone: Vec<f64> = rows
            .iter()
            .filter(|r| pick(r).is_some())
            .filter_map(|r| r.alone)
            .collect();
        let alone = if alone.is_empty() {
            String::new()
        } else {
            format!(
                "; entail without Prover9 in its race {:.1} ms",
                median(alone) * 1e3
            )
        };
        println!(
            "first-order: on the {} of {} problems one {baseline} process proves ({runs} runs each, median per problem): entail {:.1} ms, {baseline} {:.1} ms ({:.2}x){alone}",
            pairs.len(),
            rows.len(),
            ours * 1e3,
            theirs * 1e3,
            ours / theirs
        );
    };
    against("eprover", &|r| r.eprover);
    if prover9.is_some() {
        against("prover9", &|r| r.prover9);
    } else {
        println!("first-order: prover9 skipped (not on PATH; see scripts/install-deps)");
    }
}

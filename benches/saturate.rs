//! `cargo bench --bench saturate` (release). The native saturation prover
//! (`entail::saturate`, in process, budget `Budget::QUICK`) beside one
//! `prover9` process (ENTAIL_LADR_BIN or PATH; skipped when absent) and one
//! `eprover --auto` process on our TPTP translation, on easy problems:
//! corpora/prove, corpora/prove/fo, Prover9's examples (when unpacked at
//! `.cache/prover9-doc`) and a few small problems written here. For each:
//! the verdicts, and the median wall time of 5 runs (3 for processes).
//! Then coverage, and on the problems two of them both prove the median
//! over those problems of each one's median, and their ratio.
//! Last, the start-up of `entail prove` (target/release/entail, or
//! ENTAIL_BIN) on a trivial problem against `prover9` on it (10 runs each).
//! With NATIVE_ONLY set, only the native prover runs (with its counts of
//! clauses picked and generated), for quick turns on the prover itself;
//! ONLY=TEXT keeps the problems whose names contain TEXT (for a profile).
//! EXTRA_DIR=DIR adds the `.in` files of DIR (TPTP problems converted by
//! `cargo run --example tptp_to_prover9`, say).
//! BUDGET=first|engine|race runs the native prover under that budget
//! instead of `Budget::QUICK` (for tuning `prove`'s budgets).

use entail::prove::tptp;
use entail::prove::{combined_goal, ASSUMPTION_LISTS};
use entail::saturate::{saturate, Budget, Outcome};
use entail::syntax::prover9::{self, Formula, Item};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Small problems in the style of TPTP's easy ones.
const WRITTEN: [(&str, &str); 8] = [
    (
        "syllogism",
        "formulas(assumptions). all x (man(x) -> mortal(x)). man(socrates). end_of_list.\n\
         formulas(goals). mortal(socrates). end_of_list.",
    ),
    (
        "pelletier18",
        "formulas(goals). exists y all x (f(y) -> f(x)). end_of_list.",
    ),
    (
        "pelletier20",
        "formulas(assumptions). all x all y exists z all w (p(x) & q(y) -> r(z) & s(w)). end_of_list.\n\
         formulas(goals). (exists x exists y (p(x) & q(y))) -> (exists z r(z)). end_of_list.",
    ),
    (
        "barber",
        "formulas(assumptions). exists x all y (shaves(x, y) <-> -shaves(y, y)). end_of_list.\n\
         formulas(goals). $F. end_of_list.",
    ),
    (
        "group_inverse_product",
        "formulas(assumptions). e * x = x. x' * x = e. (x * y) * z = x * (y * z). end_of_list.\n\
         formulas(goals). (x * y)' = y' * x'. end_of_list.",
    ),
    (
        "transitive_chain",
        "formulas(assumptions). all x all y all z (lt(x, y) & lt(y, z) -> lt(x, z)).\n\
         lt(a, b). lt(b, c). lt(c, d). lt(d, e). end_of_list.\n\
         formulas(goals). lt(a, e). end_of_list.",
    ),
    (
        "not_symmetric",
        "formulas(assumptions). r(a, b). all x all y (r(x, y) -> s(x)). end_of_list.\n\
         formulas(goals). r(b, a). end_of_list.",
    ),
    (
        "equal_functions",
        "formulas(assumptions). f(a) = b. all x (g(x) = f(x)). end_of_list.\n\
         formulas(goals). g(a) = b. end_of_list.",
    ),
];

/// A group theorem among many axioms it does not need, as TPTP problems
/// that include whole theories have: a chain of unary implications, a
/// second theory's equations and facts of other predicates.
fn among_distractors() -> String {
    let mut text = String::from("formulas(assumptions).\n");
    text.push_str("e * x = x.\nx' * x = e.\n(x * y) * z = x * (y * z).\n");
    for i in 0..30 {
        text.push_str(&format!("all x (p{i}(x) -> p{}(x)).\n", i + 1));
        text.push_str(&format!("p0(c{i}).\nr(c{i}, c{}).\n", i + 1));
    }
    text.push_str("all x all y (r(x, y) -> r(y, x)).\n");
    text.push_str("m(x, m(y, z)) = m(m(x, y), z).\nm(x, x) = x.\nm(x, y) = m(y, x).\n");
    text.push_str("end_of_list.\nformulas(goals). x * x' = e. end_of_list.\n");
    text
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn timed(runs: usize, mut run: impl FnMut() -> bool) -> (f64, bool) {
    let mut times = Vec::new();
    let mut ok = true;
    for _ in 0..runs {
        let t = Instant::now();
        ok &= run();
        times.push(t.elapsed().as_secs_f64());
    }
    (median(times), ok)
}

fn read(text: &str) -> Option<(Vec<Formula>, Option<Formula>)> {
    let input = prover9::parse(text).ok()?;
    let mut premises = Vec::new();
    let mut goals = Vec::new();
    for item in input.prover9_items() {
        if let Item::Formulas { name, entries, .. } = item {
            if ASSUMPTION_LISTS.contains(&name.as_str()) {
                premises.extend(entries.iter().map(|e| e.formula.clone()));
            } else if name == "goals" {
                goals.extend(entries.iter());
            }
        }
    }
    Some((premises, combined_goal(&goals).ok()?))
}

fn inputs_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "in"));
    files.sort();
    files
}

/// A verdict: `T` theorem, `S` satisfiable / countersatisfiable, `?`.
struct Row {
    name: String,
    native: (char, f64),
    prover9: Option<(char, f64)>,
    eprover: (char, f64),
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let prover9_bin = std::env::var_os("ENTAIL_LADR_BIN")
        .into_iter()
        .chain(std::env::var_os("PATH"))
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("prover9"))
        .find(|p| p.is_file());
    let mut problems: Vec<(String, String)> = WRITTEN
        .iter()
        .map(|(n, t)| (format!("written/{n}"), t.to_string()))
        .collect();
    problems.push((
        "written/group_among_distractors".into(),
        among_distractors(),
    ));
    let extra = std::env::var_os("EXTRA_DIR").map(PathBuf::from);
    for dir in [
        root.join("corpora/prove"),
        root.join("corpora/prove/fo"),
        root.join(".cache/prover9-doc/usr/share/doc/prover9-doc/examples"),
    ]
    .into_iter()
    .chain(extra)
    {
        for f in inputs_in(&dir) {
            if let Ok(text) = std::fs::read_to_string(&f) {
                let name = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
                problems.push((name, text));
            }
        }
    }
    let tmp = std::env::temp_dir().join(format!("entail-saturate-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let native_only = std::env::var_os("NATIVE_ONLY").is_some();
    let budget = match std::env::var("BUDGET").as_deref() {
        Ok("first") => Budget::FIRST,
        Ok("engine") => Budget::ENGINE,
        Ok("race") => Budget::RACE,
        _ => Budget::QUICK,
    };
    if let Ok(only) = std::env::var("ONLY") {
        problems.retain(|(name, _)| name.contains(&only));
    }
    let mut rows = Vec::new();
    for (name, text) in &problems {
        let Some((premises, goal)) = read(text) else {
            continue;
        };
        let refs: Vec<&Formula> = premises.iter().collect();
        let verdict = |o: &Outcome| match o {
            Outcome::Theorem(_) => 'T',
            Outcome::Satisfiable => 'S',
            Outcome::Unknown(_) => '?',
        };
        let (first, stats) = saturate(&refs, goal.as_ref(), &budget);
        let native = timed(5, || {
            verdict(&saturate(&refs, goal.as_ref(), &budget).0) == verdict(&first)
        });
        if native_only {
            println!(
                "{name:<70} native {} {:>8.2} ms  given {:>5} generated {:>6} work {:>10}",
                verdict(&first),
                native.0 * 1e3,
                stats.given,
                stats.generated,
                stats.work
            );
            rows.push(Row {
                name: name.clone(),
                native: (verdict(&first), native.0),
                prover9: None,
                eprover: ('-', 0.0),
            });
            continue;
        }
        let p9_file = tmp.join("p.in");
        // Prover9 with a 2 s limit (the file's own settings kept).
        std::fs::write(&p9_file, text).expect("write");
        let p9 = prover9_bin.as_ref().map(|bin| {
            let mut v = '?';
            let (t, _) = timed(3, || {
                let out = Command::new(bin)
                    .args(["-t", "2", "-f"])
                    .arg(&p9_file)
                    .output()
                    .expect("spawn prover9");
                let s = String::from_utf8_lossy(&out.stdout);
                v = if s.contains("THEOREM PROVED") {
                    'T'
                } else if s.contains("SEARCH FAILED") {
                    'S'
                } else {
                    '?'
                };
                true
            });
            (v, t)
        });
        let e = match tptp::translate(&refs, goal.as_ref()) {
            Ok(t) => {
                let e_file = tmp.join("p.p");
                std::fs::write(&e_file, &t.text).expect("write");
                let mut v = '?';
                let (t, _) = timed(3, || {
                    let out = Command::new("eprover")
                        .args(["--auto", "-s", "--cpu-limit=2"])
                        .arg(&e_file)
                        .output()
                        .expect("spawn eprover");
                    let s = String::from_utf8_lossy(&out.stdout);
                    v = if s.contains("SZS status Theorem")
                        || s.contains("SZS status Unsatisfiable")
                    {
                        'T'
                    } else if s.contains("SZS status CounterSatisfiable")
                        || s.contains("SZS status Satisfiable")
                    {
                        'S'
                    } else {
                        '?'
                    };
                    true
                });
                (v, t)
            }
            Err(_) => ('?', 0.0),
        };
        let row = Row {
            name: name.clone(),
            native: (verdict(&first), native.0),
            prover9: p9,
            eprover: e,
        };
        println!(
            "{:<70} native {} {:>8.2} ms | prover9 {} | eprover {} {:>8.2} ms",
            row.name,
            row.native.0,
            row.native.1 * 1e3,
            row.prover9
                .map_or("-".to_string(), |(v, t)| format!("{v} {:>8.2} ms", t * 1e3)),
            row.eprover.0,
            row.eprover.1 * 1e3,
        );
        rows.push(row);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let count =
        |f: &dyn Fn(&Row) -> Option<char>, v: char| rows.iter().filter(|r| f(r) == Some(v)).count();
    let n = rows.len();
    println!("\n{n} problems: theorems / satisfiable found by");
    println!(
        "  native  {} / {}",
        count(&|r| Some(r.native.0), 'T'),
        count(&|r| Some(r.native.0), 'S')
    );
    if native_only {
        return;
    }
    if prover9_bin.is_some() {
        println!(
            "  prover9 {} / {} (search failed)",
            count(&|r| r.prover9.map(|p| p.0), 'T'),
            count(&|r| r.prover9.map(|p| p.0), 'S')
        );
    }
    println!(
        "  eprover {} / {}",
        count(&|r| Some(r.eprover.0), 'T'),
        count(&|r| Some(r.eprover.0), 'S')
    );
    let compare = |label: &str, other: &dyn Fn(&Row) -> Option<(char, f64)>| {
        let pairs: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| {
                let (v, t) = other(r)?;
                (v == 'T' && r.native.0 == 'T').then_some((r.native.1, t))
            })
            .collect();
        if pairs.is_empty() {
            println!("native vs {label}: no problem both prove");
            return;
        }
        let ours = median(pairs.iter().map(|p| p.0).collect());
        let theirs = median(pairs.iter().map(|p| p.1).collect());
        let ratio = median(pairs.iter().map(|p| p.0 / p.1).collect());
        println!(
            "native vs {label} on the {} problems both prove: {:.3} ms vs {:.2} ms (ratio of medians {:.3}, median of per-problem ratios {:.3})",
            pairs.len(),
            ours * 1e3,
            theirs * 1e3,
            ours / theirs,
            ratio
        );
    };
    compare("prover9", &|r| r.prover9);
    compare("eprover", &|r| Some(r.eprover));
    startup(&root, prover9_bin.as_deref());
}

/// `entail prove` against `prover9` on a trivial problem, 10 runs each.
fn startup(root: &Path, prover9_bin: Option<&Path>) {
    let bin = std::env::var_os("ENTAIL_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/entail"));
    if !bin.is_file() {
        println!(
            "start-up: skipped ({} absent; cargo build --release)",
            bin.display()
        );
        return;
    }
    let file = std::env::temp_dir().join(format!("entail-trivial-{}.in", std::process::id()));
    std::fs::write(
        &file,
        "formulas(assumptions). p(a). all x (p(x) -> q(x)). end_of_list.\nformulas(goals). q(a). end_of_list.\n",
    )
    .expect("write");
    let (ours, ok) = timed(10, || {
        Command::new(&bin)
            .arg("prove")
            .arg(&file)
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("proved"))
    });
    print!(
        "start-up on a trivial problem: entail prove {:.2} ms (proved: {ok})",
        ours * 1e3
    );
    if let Some(p9) = prover9_bin {
        let (theirs, _) = timed(10, || {
            Command::new(p9).arg("-f").arg(&file).output().is_ok()
        });
        print!(", prover9 {:.2} ms ({:.2}x)", theirs * 1e3, ours / theirs);
    }
    println!();
    let _ = std::fs::remove_file(&file);
}

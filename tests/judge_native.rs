//! The native evaluator against its oracles: the judge with scryer only,
//! and SWI-Prolog. Whatever the native engine answers must be what they
//! answer; what it cannot answer must fall back and give scryer's outcome.

#[path = "reference/slr_baseline.rs"]
mod baseline;
#[path = "reference/slr_gen.rs"]
mod slr_gen;

use entail::judge::{Engine, Judge, JudgeConfig, JudgeResult, Rules, TaskRecord};
use entail::prolog::native::run_native;
use entail::prolog::Outcome;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Mutex;

/// Same levels as the judge's differential test.

fn judge(engine: Engine) -> Judge {
    let mut config = JudgeConfig::default();
    config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    config.engine = engine;
    // The random corpora hold helpers, directives and several clauses: the
    // engine is compared with SWI on all of them, loaded as
    // `baseline::score` loads them.
    config.rules = Rules::Program;
    Judge::new(config)
}

/// A result without its timing, for comparing engines.
fn comparable(mut result: JudgeResult) -> JudgeResult {
    result.time_ms = 0.0;
    result
}

#[test]
fn native_scryer_and_swipl_agree_on_the_differential_pairs() {
    assert!(
        baseline::swipl_available(),
        "swipl is required (apt-get install swi-prolog-nox)"
    );
    // Rules that never look inside constants: see judge_differential.rs.
    let pairs = slr_gen::differential_pairs();
    assert_eq!(pairs.len(), 540);
    let auto = judge(Engine::Auto);
    let scryer = judge(Engine::Scryer);
    let score = |judge: &Judge, program: &str, h: &str| {
        let record = TaskRecord {
            validation_program: program.to_string(),
            ..Default::default()
        };
        comparable(judge.task(&record).expect("generated task loads").score(h))
    };
    let mut differing = Vec::new();
    let mut ours = Vec::new();
    for (i, (program, h)) in pairs.iter().enumerate() {
        let a = score(&auto, program, h);
        let s = score(&scryer, program, h);
        if a != s {
            differing.push(format!("pair {i}: auto {a:?}\nscryer {s:?}\n{h}"));
        }
        ours.push(a);
    }
    let stats = auto.native_stats().expect("auto has a native evaluator");
    assert!(
        differing.is_empty(),
        "{} pairs differ between auto and scryer:\n{}",
        differing.len(),
        differing.join("\n\n")
    );

    let theirs = baseline::score_all(&pairs);
    for (i, (ours, reference)) in ours.iter().zip(&theirs).enumerate() {
        if reference.partial_score != ours.partial_score || reference.is_correct != ours.is_correct
        {
            differing.push(format!(
                "pair {i}: auto {} vs swipl {}\n{}",
                ours.partial_score, reference.partial_score, pairs[i].1
            ));
        }
    }
    assert!(
        differing.is_empty(),
        "{} pairs differ from swipl:\n{}",
        differing.len(),
        differing.join("\n\n")
    );
    // Every pair that reaches the engine is an evaluation; the native
    // engine must answer nearly all of them or the comparison says little.
    let evaluations = stats.native_answers + stats.fallbacks;
    eprintln!("differential pairs: {stats}");
    assert!(evaluations >= 500, "{stats}");
    assert!(stats.native_answers * 10 >= evaluations * 9, "{stats}");
}

/// Errors, loops and explosions are decided natively, as the reference
/// (SWI-Prolog, all solutions of a positive example) decides them.
#[test]
fn errors_and_budgets_are_decided_natively() {
    let program = "eastbound(train0).\nhas_car(train0, car0_1).\ncar_color(car0_1, red).\nwestbound(train1).\nhas_car(train1, car1_1).\ncar_color(car1_1, blue).\n";
    let cases: &[(&str, Option<&str>)] = &[
        // Loops: the step budget, not a wall clock, ends it.
        ("eastbound(T) :- eastbound(T).", Some("timeout")),
        // A second clause that loops spoils the positive example: the
        // reference collects all its solutions.
        (
            "eastbound(T) :- has_car(T, C), car_color(C, red).\neastbound(T) :- eastbound(T).",
            Some("timeout"),
        ),
        // Exploding: between/3 without an upper bound.
        (
            "eastbound(T) :- has_car(T, _), between(1, inf, N), N < 0.",
            Some("timeout"),
        ),
        // Memory-hungry: a list that grows without end.
        (
            "eastbound(T) :- grow([], T).\ngrow(L, T) :- grow([T, T, T|L], T).",
            Some("timeout"),
        ),
        // A type error at run time.
        (
            "eastbound(T) :- has_car(T, C), X is C + 1, X > 0.",
            Some("runtime"),
        ),
        // An instantiation error.
        ("eastbound(T) :- has_car(T, _), N > 1.", Some("runtime")),
        // A helper nobody defines: an existence error.
        ("eastbound(T) :- has_car(T, C), shiny(C).", Some("runtime")),
        // Built-ins SWI has and the native engine implements.
        ("eastbound(T) :- has_car(T, C), atom_length(C, 9).", None),
        (
            "eastbound(T) :- has_car(T, C), X is 4 / 2, X == 2, car_color(C, red).",
            None,
        ),
        ("eastbound(T) :- has_car(T, _), \\+ atom([]).", None),
    ];
    let auto = judge(Engine::Auto);
    let record = TaskRecord {
        validation_program: program.to_string(),
        ..Default::default()
    };
    let task = auto.task(&record).expect("task loads");
    for (i, (answer, kind)) in cases.iter().enumerate() {
        let a = comparable(task.score(answer));
        let got = serde_json::to_value(a.error_kind).expect("serializes");
        match kind {
            Some(kind) => {
                assert_eq!(got, serde_json::json!(kind), "{answer}: {a:?}");
                assert_eq!(a.partial_score, 0.0, "{answer}");
            }
            None => assert_eq!(got, serde_json::Value::Null, "{answer}: {a:?}"),
        }
        let stats = auto.native_stats().expect("auto");
        assert_eq!(stats.fallbacks, 0, "{answer} fell back: {stats}");
        assert_eq!(stats.native_answers, i as u64 + 1, "{answer}");
    }
}

// ---------------------------------------------------------------------------
// Random programs: native against SWI-Prolog directly.

const ATOMS: &[&str] = &["a", "b", "c", "d"];

fn random_background(rng: &mut ChaCha8Rng) -> String {
    let mut text = String::new();
    for x in ATOMS {
        for y in ATOMS {
            if rng.gen_bool(0.35) {
                text.push_str(&format!("link({x}, {y}).\n"));
            }
        }
    }
    for x in ATOMS {
        for _ in 0..rng.gen_range(0..3) {
            text.push_str(&format!("val({x}, {}).\n", rng.gen_range(-2..6)));
        }
        let len = rng.gen_range(0..5);
        let items: Vec<String> = (0..len)
            .map(|_| {
                if rng.gen_bool(0.8) {
                    rng.gen_range(0..5).to_string()
                } else {
                    ATOMS.choose(rng).unwrap_or(&"a").to_string()
                }
            })
            .collect();
        text.push_str(&format!("lst({x}, [{}]).\n", items.join(", ")));
    }
    text
}

/// Literals that bind variables (producers) and that test them.
const PRODUCERS: &[&str] = &[
    "link(X, Y)",
    "link(Y, X)",
    "val(X, N)",
    "val(Y, N)",
    "lst(X, L)",
    "lst(Y, L)",
    "member(E, L)",
    "findall(Z, link(X, Z), L)",
    "findall(V, (link(X, Z), val(Z, V)), L)",
    "aggregate_all(count, link(X, _), K)",
    "aggregate_all(sum(V), (link(X, Z), val(Z, V)), K)",
    "aggregate_all(max(V), (link(X, Z), val(Z, V)), K)",
    "aggregate_all(min(V), val(X, V), K)",
    "aggregate_all(bag(Z), link(Z, X), L)",
    "aggregate_all(set(Z), link(Z, X), L)",
    "length(L, K)",
    "sum_list(L, K)",
    "max_list(L, K)",
    "min_list(L, K)",
    "last(L, E)",
    "nth0(1, L, E)",
    "nth1(K, L, E)",
    "msort(L, S)",
    "sort(L, S)",
    "sort(0, @>=, L, S)",
    "reverse(L, S)",
    "list_to_set(L, S)",
    "append(S, [E], L)",
    "append(L, L, S)",
    "between(1, 3, K)",
    "numlist(1, 3, S)",
    "select(E, L, S)",
    "include(>(3), L, S)",
    "exclude(==(a), L, S)",
    "K is N * 2 - 1",
    "K is N mod 3",
    "K is max(N, 2)",
    "setof(Z, link(X, Z), S)",
    "helper(X, K)",
    "count(L, K)",
];

const TESTS: &[&str] = &[
    "N > 1",
    "K >= 2",
    "K =:= 1",
    "N mod 2 =:= 0",
    "X \\= a",
    "X == b",
    "Y \\== X",
    "X @< c",
    "E @> 1",
    "S == L",
    "\\+ link(X, b)",
    "\\+ member(a, L)",
    "forall(link(X, Z), val(Z, _))",
    "forall(member(Z, L), Z < 3)",
    "(val(X, V) -> V > 2 ; true)",
    "(link(X, a) ; link(X, b))",
    "once(link(X, _))",
    "memberchk(2, L)",
    "is_list(S)",
    "K >= N",
    "length(S, 2)",
    "ground(L)",
    "compare(<, X, Y)",
    "not(X = Y)",
];

const HELPERS: &str = "helper(X, K) :- link(X, Y), !, val(Y, K).\nhelper(_, 0).\ncount([], 0).\ncount([_|T], N) :- count(T, M), N is M + 1.\n";

fn random_rule(rng: &mut ChaCha8Rng) -> String {
    // The first literal binds from the head's X, so most rules run
    // without instantiation errors; later ones are drawn freely.
    let mut body = vec![*PRODUCERS[..16].choose(rng).unwrap_or(&PRODUCERS[0])];
    for _ in 0..rng.gen_range(0..=2) {
        body.push(*PRODUCERS.choose(rng).unwrap_or(&PRODUCERS[0]));
    }
    for _ in 0..rng.gen_range(0..=2) {
        body.push(*TESTS.choose(rng).unwrap_or(&TESTS[0]));
    }
    if rng.gen_bool(0.15) {
        body.insert(rng.gen_range(0..body.len()), "!");
    }
    // Anonymous variables in the head and the body: each its own.
    if rng.gen_bool(0.15) {
        return format!("q(_) :- link(_, X), {}.\n", body.join(", "));
    }
    format!("q(X) :- {}.\n", body.join(", "))
}

/// SWI's verdicts on `q(a)`…`q(d)`: `1`/`0`, or `e` (error) / `t` (limit).
fn swipl_verdicts(program: &str) -> String {
    let driver = "\nrun_goal(G) :- catch((call_with_inference_limit(G, 1000000, R) -> (R == inference_limit_exceeded -> write(t) ; write(1)) ; write(0)), _, write(e)).\n";
    let text =
        format!(":- style_check(-singleton).\n:- style_check(-discontiguous).\n{program}{driver}");
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("entail_native_{}_{n}.pl", std::process::id()));
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .expect("temp file");
    let goal = "forall(member(X, [a, b, c, d]), run_goal(q(X))), nl";
    // Some random programs run for ever inside C built-ins, where the
    // inference limit does not reach: those are cut off (and the native
    // engine must have fallen back on them).
    let output = Command::new("timeout")
        .args(["10", "swipl", "-q", "-g", goal, "-t", "halt"])
        .arg(&path)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("swipl runs");
    let _ = std::fs::remove_file(&path);
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

#[test]
fn random_programs_agree_with_swipl() {
    assert!(baseline::swipl_available(), "swipl is required");
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let programs: Vec<(String, String)> = (0..240)
        .map(|_| {
            let background = random_background(&mut rng);
            let mut hypothesis = random_rule(&mut rng);
            if rng.gen_bool(0.4) {
                hypothesis.push_str(&random_rule(&mut rng));
            }
            hypothesis.push_str(HELPERS);
            (background, hypothesis)
        })
        .collect();
    let goals: Vec<String> = ATOMS.iter().map(|x| format!("q({x})")).collect();
    let next = Mutex::new(0usize);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                if i >= programs.len() {
                    break;
                }
                let (background, hypothesis) = &programs[i];
                let native = run_native(background, hypothesis, &goals, 5_000_000);
                let swipl = swipl_verdicts(&format!("{background}{hypothesis}"));
                results.lock().unwrap().push((i, native, swipl));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let (mut answered, mut fell_back, mut trues, mut falses) = (0, 0, 0, 0);
    let mut kinds = std::collections::BTreeMap::new();
    let mut differing = Vec::new();
    for (i, native, swipl) in &results {
        match native {
            Ok(outcome) => {
                answered += 1;
                let (verdicts, end) = match outcome {
                    Outcome::Verdicts(v) => (v, ""),
                    Outcome::Error(v, _) => (v, "e"),
                    Outcome::Timeout(v) => (v, "t"),
                };
                let ours: String = verdicts
                    .iter()
                    .map(|&v| if v { '1' } else { '0' })
                    .chain(end.chars())
                    .collect();
                trues += verdicts.iter().filter(|&&v| v).count();
                falses += verdicts.iter().filter(|&&v| !v).count();
                // The native engine stops at the first error or timeout;
                // swipl's driver goes on, so compare up to there. An empty
                // line means swipl itself was cut off (10 s): no oracle.
                if !swipl.is_empty() && !swipl.starts_with(&ours) {
                    differing.push(format!(
                        "program {i}: native {ours} vs swipl {swipl}\n{}{}",
                        programs[*i].0, programs[*i].1
                    ));
                }
            }
            Err(f) => {
                fell_back += 1;
                *kinds.entry(f.kind).or_insert(0) += 1;
            }
        }
    }
    eprintln!("random programs: {answered} answered natively, {fell_back} fell back {kinds:?}; {trues} true and {falses} false verdicts");
    assert!(
        differing.is_empty(),
        "{} programs differ:\n{}",
        differing.len(),
        differing.join("\n\n")
    );
    // A panic falls back as `internal`: a defect, never a limit.
    assert!(
        !kinds.contains_key("internal"),
        "the native engine panicked"
    );
    // The corpus must exercise the engine: most programs answered, with
    // plenty of both verdicts.
    assert!(answered >= 120, "only {answered} answered natively");
    assert!(
        trues >= 100 && falses >= 100,
        "{trues} true, {falses} false"
    );
}

// ---------------------------------------------------------------------------
// Random answers on generated tasks: `--engine auto` against the reference
// method run through SWI-Prolog (batched), partial score and correctness.

#[path = "reference/slr_batch.rs"]
mod slr_batch;
#[path = "reference/slr_rules.rs"]
mod slr_rules;

#[test]
fn random_rules_agree_with_the_reference() {
    assert!(baseline::swipl_available(), "swipl is required");
    let pairs = slr_rules::corpus();
    assert!(pairs.len() >= 5000);
    let auto = judge(Engine::Auto);
    let mut ours = Vec::with_capacity(pairs.len());
    let mut kinds = std::collections::BTreeMap::new();
    for (program, h) in &pairs {
        let record = TaskRecord {
            validation_program: program.clone(),
            ..Default::default()
        };
        let result = auto.task(&record).expect("generated task loads").score(h);
        let kind = serde_json::to_value(result.error_kind).expect("serializes");
        *kinds.entry(kind.to_string()).or_insert(0usize) += 1;
        ours.push(result);
    }
    let stats = auto.native_stats().expect("auto");
    let theirs = slr_batch::score_all(&pairs);
    let (correct, partial) = theirs.iter().fold((0, 0), |(c, p), r| {
        (
            c + r.is_correct as usize,
            p + (r.partial_score > 0.0 && !r.is_correct) as usize,
        )
    });
    // Natively answered or handed to scryer, every answer gets SWI's score
    // or an explicit engine_unsupported.
    let (differing, unsupported) = slr_batch::compare(&pairs, &ours, &theirs);
    eprintln!(
        "random rules, --engine auto: {} pairs, {stats}; {unsupported} engine_unsupported, {} differ; error kinds {kinds:?}; reference: {correct} correct, {partial} partly correct",
        pairs.len(),
        differing.len()
    );
    slr_batch::assert_none_differ(&pairs, &differing);
    // The corpus must exercise the scorer: both full and partial scores.
    assert!(
        correct >= 50 && partial >= 500,
        "{correct} correct, {partial} partial"
    );
}

/// The library corpus (`slr_rules::library_corpus`: library built-ins,
/// yall lambdas, directives, module qualification, own definitions of
/// library and ISO predicates, malformed clauses) scored by `--engine
/// auto` and by the reference method through swipl: every score equal.
fn library_rules_agree(tasks: usize) {
    assert!(baseline::swipl_available(), "swipl is required");
    let pairs = slr_rules::library_corpus(tasks);
    let auto = judge(Engine::Auto);
    let ours = slr_rules::score_by_task(&auto, &pairs, 2);
    let mut kinds = std::collections::BTreeMap::new();
    let mut refusals = std::collections::BTreeMap::new();
    for result in &ours {
        let kind = serde_json::to_value(result.error_kind).expect("serializes");
        *kinds.entry(kind.to_string()).or_insert(0usize) += 1;
        if result.error_kind == Some(entail::judge::ErrorKind::Unsafe) {
            let reason = result.error.clone().unwrap_or_default();
            *refusals.entry(reason).or_insert(0usize) += 1;
        }
    }
    eprintln!("unsafe: {refusals:?}");
    let stats = auto.native_stats().expect("auto");
    // One swipl per answer, as the reference consults it into `user` (the
    // batched reference loads each answer as a module, where module
    // qualification and imports behave otherwise).
    let theirs = baseline::score_all(&pairs);
    let scored = theirs.iter().filter(|r| r.partial_score > 0.0).count();
    let (differing, unsupported) = slr_batch::compare(&pairs, &ours, &theirs);
    eprintln!(
        "library rules, --engine auto: {} pairs, {stats}; {unsupported} engine_unsupported, {} differ; error kinds {kinds:?}; reference: {scored} scored above 0",
        pairs.len(),
        differing.len()
    );
    slr_batch::assert_none_differ(&pairs, &differing);
    assert!(scored * 4 >= pairs.len(), "only {scored} scored above 0");
}

#[test]
fn library_rules_agree_with_the_reference() {
    library_rules_agree(10);
}

/// All 5,000 (`cargo test --test judge_native -- --ignored`).
#[test]
#[ignore]
fn all_library_rules_agree_with_the_reference() {
    library_rules_agree(100);
}

// ---------------------------------------------------------------------------
// Budget calibration: what legitimate answers need, against the budgets.

#[test]
fn legitimate_answers_need_far_fewer_steps_than_the_budget() {
    use entail::gen::slr::{self, Config, Language, PromptStyle, Split};
    use entail::prolog::native::{
        run_native_counted, work_budget, Steps, MAX_STEPS, MAX_TOTAL_STEPS,
    };
    // (background text with original names, goals, hypothesis)
    let split = |program: &str, h: &str| {
        let record = TaskRecord {
            validation_program: program.to_string(),
            ..Default::default()
        };
        let judge = judge(Engine::Auto);
        let task = judge.task(&record).expect("task loads");
        let goals: Vec<String> = task
            .program()
            .examples
            .iter()
            .map(|e| e.run_goal(e.goal.clone()).to_text(999))
            .collect();
        let background: String = program
            .lines()
            .filter(|l| !l.starts_with("eastbound(") && !l.starts_with("westbound("))
            .map(|l| format!("{l}\n"))
            .collect();
        (background, goals, h.to_string())
    };
    let mut cases: Vec<(String, Vec<String>, String)> = slr_gen::differential_pairs()
        .iter()
        .map(|(p, h)| split(p, h))
        .collect();
    let config = Config {
        seed: 5,
        levels: (1..=20).collect(),
        count: 4,
        split: Split::Test,
        test_tasks: 4,
        prompt: PromptStyle::Prolog,
        language: Language::trains(),
        judge: {
            let mut judge = JudgeConfig::default();
            judge.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
                "CARGO_BIN_EXE_entail-worker"
            )));
            judge
        },
        ..Config::default()
    };
    let mut out = Vec::new();
    slr::generate(&config, &mut out, &|_| {}).expect("generates");
    let generated = String::from_utf8(out).expect("utf-8");
    for line in generated.lines() {
        let task: slr::SlrTask = serde_json::from_str(line).expect("task parses");
        cases.push(split(&task.validation_program, &task.ground_truth_rule));
    }
    let (mut per_goal, mut total) = (Vec::new(), Vec::new());
    let (mut work_per_goal, mut work) = (Vec::new(), Vec::new());
    for (background, goals, h) in &cases {
        let mut steps = Steps::default();
        if let Ok(Outcome::Verdicts(_)) =
            run_native_counted(background, h, goals, u64::MAX, &mut steps)
        {
            per_goal.push(steps.most_per_goal);
            total.push(steps.total);
            work_per_goal.push(steps.most_work_per_goal);
            work.push(steps.work);
        }
    }
    for v in [&mut per_goal, &mut total, &mut work_per_goal, &mut work] {
        v.sort_unstable();
    }
    let at = |v: &[u64], q: f64| v[((v.len() - 1) as f64 * q) as usize];
    eprintln!("{} answers finished", per_goal.len());
    for (what, goal, answer, goal_budget, answer_budget) in [
        ("steps", &per_goal, &total, MAX_STEPS, MAX_TOTAL_STEPS),
        (
            "work units",
            &work_per_goal,
            &work,
            work_budget(MAX_STEPS),
            work_budget(MAX_TOTAL_STEPS),
        ),
    ] {
        eprintln!(
            "{what} per goal p50 {} p99 {} max {}; per answer p50 {} p99 {} max {} (budgets {goal_budget} / {answer_budget})",
            at(goal, 0.5),
            at(goal, 0.99),
            at(goal, 1.0),
            at(answer, 0.5),
            at(answer, 0.99),
            at(answer, 1.0),
        );
        // A tenfold margin under each budget.
        assert!(at(goal, 1.0) * 10 <= goal_budget, "{what} per goal");
        assert!(at(answer, 1.0) * 10 <= answer_budget, "{what} per answer");
    }
    assert!(per_goal.len() >= 560, "{} finished", per_goal.len());
}

// ---------------------------------------------------------------------------
// What once went to scryer, now native: big integers, delayed dif/2,
// setof/bagof with free variables, the standard order of variables. Each
// goal's verdict (or error) against swipl's, one swipl run for all.

/// SWI's verdict on each goal: `1`/`0`, or `e` (error) / `t` (limit).
fn swipl_goal_verdicts(goals: &[&str]) -> String {
    let mut text = String::from(":- style_check(-singleton).\n");
    for (i, goal) in goals.iter().enumerate() {
        text.push_str(&format!("c({i}) :- {goal}.\n"));
    }
    let count = goals.len();
    text.push_str(&format!("run :- forall(between(0, {}, I), (catch((call_with_inference_limit(c(I), 1000000, R) -> (R == inference_limit_exceeded -> write(t) ; write(1)) ; write(0)), _, write(e)))), nl.\n", count - 1));
    // One file per call: the tests run in parallel in one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("entail_goals_{}_{call}.pl", std::process::id()));
    std::fs::write(&path, text).expect("temp file");
    let output = Command::new("timeout")
        .args(["60", "swipl", "-q", "-g", "run", "-t", "halt"])
        .arg(&path)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("swipl runs");
    let _ = std::fs::remove_file(&path);
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// The native verdict on one goal, as [`swipl_goal_verdicts`] writes it
/// (`u` when the native engine does not decide it).
fn native_goal_verdict(goal: &str) -> char {
    let h = format!("q(x) :- {goal}.\n");
    match run_native("", &h, &["q(x)".to_string()], 1_000_000) {
        Ok(Outcome::Verdicts(v)) => {
            if v == [true] {
                '1'
            } else {
                '0'
            }
        }
        Ok(Outcome::Error(..)) => 'e',
        Ok(Outcome::Timeout(_)) => 't',
        Err(_) => 'u',
    }
}

/// Each goal's native verdict equals swipl's; the differing goals listed.
fn assert_goals_agree_with_swipl(goals: &[&str]) {
    let theirs = swipl_goal_verdicts(goals);
    assert_eq!(
        theirs.chars().count(),
        goals.len(),
        "swipl printed {theirs}"
    );
    let mut differing = Vec::new();
    for (goal, swi) in goals.iter().zip(theirs.chars()) {
        let ours = native_goal_verdict(goal);
        if ours != swi {
            differing.push(format!("{goal}: native {ours}, swipl {swi}"));
        }
    }
    assert!(
        differing.is_empty(),
        "{} of {} goals differ from swipl:\n{}",
        differing.len(),
        goals.len(),
        differing.join("\n")
    );
}

#[test]
fn big_integers_dif_bagof_and_variable_order_agree_with_swipl() {
    assert!(baseline::swipl_available(), "swipl is required");
    let goals: &[&str] = &[
        // Big integers: overflow, each operation, back to small, printing.
        "X is 9223372036854775807 + 1, X == 9223372036854775808",
        "X is -9223372036854775808 - 1, X < -9223372036854775808",
        "X is 2 ** 100, Y is 2 ^ 100, X == Y",
        "X is 2 ^ 100, atom_length(X, 31)",
        "X is (2 ^ 100) // 3, X == 422550200076076467165567735125",
        "X is -(2 ^ 100) // 3, X == -422550200076076467165567735125",
        "X is -(2 ^ 100) mod 7, X == 5",
        "X is -(2 ^ 100) rem 7, X == -2",
        "X is div(-(2 ^ 100), 7), X == -181092942889747057356671886483",
        "X is gcd(2 ^ 100, 6 ^ 50), X == 1125899906842624",
        "X is abs(-(2 ^ 100)), X > 0",
        "X is msb(2 ^ 100), X == 100",
        "X is 2 ^ 100 - 2 ^ 100, X == 0, integer(X)",
        "X is 2 ^ 100 / 2 ^ 98, X == 4",
        "X is 2 ^ 100 / 3, float(X)",
        "X is 2 ^ 100 + 0.5, float(X)",
        "2 ^ 100 > 1.0e30",
        "2 ^ 100 =:= 2.0 ^ 100",
        "X is 2 ^ 100, Y is 2.0 ^ 100, compare(O, X, Y), O == (>)",
        "X is 2 ^ 100, compare(O, X, 5), O == (>)",
        "X is 2 ^ 100, number_codes(X, Cs), atom_codes(A, Cs), atom_number(A, Y), Y == X",
        "atom_number('123456789012345678901234567890', N), N > 2 ^ 90",
        "X is 1 << 100, Y is X >> 98, Y == 4",
        "X is -1 >> 100, X == -1",
        "X is (2 ^ 100) /\\ (2 ^ 100 - 1), X == 0",
        "X is 2 ^ 64 xor 1, X == 18446744073709551617",
        "X is \\ (2 ^ 64), X == -18446744073709551617",
        "X is max(2 ^ 100, 1.0), integer(X)",
        "X is max(2 ^ 64, 2.0 ^ 64), float(X)",
        "X is integer(1.0e20), X == 100000000000000000000",
        "X is truncate(1.0e30), X > 10 ^ 29",
        "X is float(2 ^ 2000)",
        "X is 2 ** -1, X == 0.5",
        "X is 3 ^ -2, float(X)",
        "X is 0 ^ -1",
        "X is 9223372036854775807 * 2 // 2, X == 9223372036854775807",
        "X is -(-(9223372036854775808)), X > 0",
        "X is abs(-9223372036854775808), X == 9223372036854775808",
        "X is 7 ^ 100 mod 13, X == 9",
        "X is lcm(4, 6), X == 12",
        "succ(9223372036854775807, X), X > 9223372036854775807",
        "plus(9223372036854775807, 1, X), X == 9223372036854775808",
        "X is 2 ^ 100, msort([X, 1.0e40, 3, 2.0], L), L == [2.0, 3, X, 1.0e40]",
        "X is 2 ^ 100, sort(0, @>=, [X, 5, X], L), L == [X, X, 5]",
        "X is 123456789012345678901234567890 + 1, X == 123456789012345678901234567891",
        "X = 123456789012345678901234567890, X =:= 123456789012345678901234567890.0",
        "9007199254740993 =:= 9007199254740992.0",
        "compare(O, 9007199254740993, 9007199254740992.0), O == (>)",
        "compare(O, 9007199254740992, 9007199254740992.0), O == (>)",
        "between(1, 100000000000000000000, X), X > 3, !",
        // dif/2: delayed, woken by bindings, undone on backtracking.
        "dif(X, a), X = b",
        "dif(X, a), X = a",
        "dif(f(X, b), f(a, Y)), X = a",
        "dif(f(X, b), f(a, Y)), X = a, Y = b",
        "dif(f(X, b), f(a, Y)), X = a, Y = c",
        "dif(X, Y), X = Y",
        "dif(X, Y), X = a, Y = b",
        "dif(X, Y), X = a, Y = a",
        "dif(X, a), member(X, [a, b]), X == b",
        "dif(X, a), \\+ X = a",
        "dif(X, a), findall(X, member(X, [a, b, c]), L), L == [b, c]",
        "dif(A, B), member(A-B, [1-1, 2-2, 3-4]), A == 3",
        "\\+ dif(X, a)",
        "dif(X, a), (X = a ; true), var(X)",
        "dif([X|Y], [a|Z]), Y = Z, X = a",
        // setof/bagof with free variables, ^, grouping by witness.
        "setof(X, member(X-Y, [1-a]), L), L == [1], Y == a",
        "findall(Y-L, bagof(X, member(X-Y, [1-b, 2-a, 3-b]), L), R), R == [a-[2], b-[1, 3]]",
        "findall(Y-L, setof(X, member(X-Y, [3-b, 2-a, 1-b, 3-b]), L), R), R == [a-[2], b-[1, 3]]",
        "setof(X, Y^member(X-Y, [3-b, 2-a, 1-b]), L), L == [1, 2, 3]",
        "bagof(X, member(X-_, [3-b, 2-a]), L)",
        "findall(K-L, bagof(X, member(X-K, [1-f(A), 2-f(B), 3-f(A)]), L), R), length(R, 2)",
        "findall(K-L, bagof(X, member(X-K, [1-g(A, B), 2-g(B, A), 3-g(A, A), 4-g(B, B)]), L), R), length(R, 4)",
        "findall(L, setof(X, member(X-K, [3-f(A), 2-f(B), 1-f(A)]), L), R), R == [[1, 3], [2]]",
        "findall(Y-Z-L, bagof(X, member(X-Y-Z, [1-a-x, 2-b-y, 3-a-x, 4-a-y]), L), R), R == [a-x-[1, 3], a-y-[4], b-y-[2]]",
        "bagof(X, member(X-Y, []), L)",
        "setof(X-Y, member(X-Y, [2-a, 1-b]), L), L == [1-b, 2-a]",
        "aggregate_all(count, bagof(X, member(X-Y, [1-a, 2-b, 3-a]), _), N), N == 2",
        "setof(Y, X^member(X-Y, [1-b, 2-a, 3-b]), L), L == [a, b]",
        // Two distinct variables in the standard order: by age.
        "compare(O, A, B), O == (<)",
        "compare(O, B, A), O == (<)",
        // (SWI's order is its compiler's allocation order, which we do not
        // follow everywhere: with `X` a singleton, `X = f(A, B)` is
        // compiled away and `compare(O, B, A)` gives `<` there.)
        "X = f(A, B), compare(O, B, A), O == (>), X = f(_, _)",
        "msort([C, B, A], [First|_]), First == C",
        "length(L, 3), L = [A, B, C], msort([C, A, B], M), M == [A, B, C]",
        "copy_term(f(X, Y), f(A, B)), compare(O, B, A), O == (>)",
        "findall(X-Y, member(X-Y, [_-_]), [P-Q]), compare(O, Q, P), O == (>)",
        "sort([B, a, A, 1], L), L = [V1, V2, 1, a], V1 == B, V2 == A",
        "A @< B",
        "f(A) @< f(B), A @< B",
        // sort/4 keeps the first of equal keys.
        "sort(1, @<, [f(1, a), f(2, b), f(1, c)], L), L == [f(1, a), f(2, b)]",
        "sort(1, @>, [f(1, a), f(2, b), f(1, c)], L), L == [f(2, b), f(1, a)]",
        // Text built-ins on long and partly bound atoms.
        "atom_concat(abc, X, abcdef), X == def",
        "atom_concat(X, def, abcdef), X == abc",
        "atom_concat(X, xyz, abcdef)",
        "findall(X+Y, atom_concat(X, Y, abc), L), L == [''+abc, a+bc, ab+c, abc+'']",
        "findall(B-L-A, sub_atom(abc, B, L, A, _), R), length(R, 10), R = [0-0-3|_]",
        "findall(S, sub_atom(abcab, _, 2, _, S), R), R == [ab, bc, ca, ab]",
        "findall(B, sub_atom(aaaa, B, _, _, aa), R), R == [0, 1, 2]",
        "sub_atom(abcde, B, 2, 1, S), B == 2, S == cd",
        "sub_atom(abcde, 1, L, 1, S), L == 3, S == bcd",
        "findall(L, sub_atom(abc, 1, L, _, _), R), R == [0, 1, 2]",
        "findall(B, sub_atom(abc, B, _, 0, _), R), R == [0, 1, 2, 3]",
        "sub_atom(abc, 4, _, _, _)",
        "sub_atom('héllo', 1, 3, A, S), A == 1, S == 'éll'",
        "findall(S, sub_atom('hé', _, _, _, S), R), length(R, 6)",
        // SWI's other functions and constants (they fell back before).
        "X is inf, X > 10 ^ 300",
        "X is -inf, X < -(10 ^ 300)",
        "X is inf + 1",
        "X is inf - inf",
        "X is max(1, inf), X =:= inf",
        "X is max(1.0, inf), X =:= inf",
        "X is min(inf, 3), X == 3",
        "X is -inf, Y is abs(X), Y =:= inf",
        "foldl([E, A0, A]>>(A is min(E, A0)), [3, 1, 2], inf, M), M == 1",
        "X is nan, float(X)",
        "X is epsilon, X == 2.220446049250313e-16",
        "X is acos(0.5), X == 1.0471975511965979",
        "X is acos(2)",
        "X is asin(1), X == 1.5707963267948966",
        "X is log10(100), X == 2.0",
        "X is log10(0)",
        "X is log10(-1)",
        "X is atanh(1)",
        "X is atanh(0.5), X == 0.5493061443340549",
        "X is sinh(1000)",
        "X is cosh(1), X == 1.5430806348152437",
        "X is tanh(1), X == 0.7615941559557649",
        "X is asinh(1), X == 0.881373587019543",
        "X is acosh(0.5)",
        "X is acosh(2), X == 1.3169578969248166",
        "X is lsb(12), X == 2",
        "X is lsb(0)",
        "X is lsb(2 ^ 100), X == 100",
        "X is popcount(255), X == 8",
        "X is popcount(-1)",
        "X is popcount(2 ^ 100 - 1), X == 100",
        "X is getbit(5, 0), X == 1",
        "X is getbit(5, 1), X == 0",
        "X is getbit(2 ^ 100, 100), X == 1",
        "X is getbit(5, 1000), X == 0",
        "X is ceil(2.5), X == 3",
        "X is ceil(-2.5), X == -2",
        "X is ceil(7), X == 7",
        // format/3 into a text.
        "format(atom(A), '~w-~a', [1, b]), A == '1-b'",
        "format(atom(A), '~w', hello), A == hello",
        "format(atom(A), '~a', [\"str\"]), A == str",
        "format(string(S), '~d items~n', [3]), string(S), string_length(S, 8)",
        "format(codes(C), '~a', [ab]), C == [97, 98]",
        "format(chars(C), '~w~~', [ab]), C == [a, b, '~']",
        "format(atom(A), '~s!', [[104, 105]]), A == 'hi!'",
        "format(atom(A), '~d', [a])",
        "format(atom(A), '~w ~w', [a])",
        "format(atom(A), '~w', [a, b])",
        "format(atom(A), F, [a])",
        "X is 2 ^ 70, format(atom(A), '~d', [X]), atom_length(A, 22)",
        "format(atom(A), '', []), A == ''",
    ];
    assert_goals_agree_with_swipl(goals);
}

#[test]
fn awkward_text_arguments_raise_where_swipl_raises() {
    // From scripts/judge-sweep: calls where the native engine failed (or
    // succeeded) and SWI raises, so that a rule could score above SWI.
    assert!(baseline::swipl_available(), "swipl is required");
    let goals: &[&str] = &[
        // The list of atom_codes/2 and kin: its shape is checked first.
        "atom_codes(0, 0)",
        "atom_codes(ab, f(x))",
        "atom_codes(ab, [x|y])",
        "atom_codes(ab, [0'a, 0'c|x])",
        "atom_codes(ab, [0'a|_])",
        "atom_codes(ab, [x])",
        "atom_codes(ab, \"ab\")",
        "atom_chars(a, 0)",
        "atom_chars(ab, [a|_])",
        "number_codes(12, '12')",
        "number_codes(12, [0'1|x])",
        "number_chars(0, 1.5)",
        "string_chars(a, f(x))",
        "string_codes(ab, [x|y])",
        "string_chars(0, 0)",
        // atom_concat/3, string_concat/3: `[]` and a compound whole.
        "atom_concat(_, 0, [])",
        "atom_concat([], b, _)",
        "atom_concat(0, 0, [a])",
        "atom_concat(0, 0, f(x))",
        "atom_concat(a, _, f(x))",
        "atom_concat(a, b, \"ab\")",
        "string_concat(_, _, [])",
        "string_concat(0, 1, [a])",
        "string_concat(a, b, ab)",
        // upcase_atom/2, downcase_atom/2.
        "upcase_atom(0, [a, b])",
        "upcase_atom(a, f(x))",
        "upcase_atom([], _)",
        "downcase_atom(a, [])",
        "upcase_atom(a, \"A\")",
        "upcase_atom(a, 1)",
        // split_string/4: the fields are unified one at a time.
        "split_string(a, a, a, b)",
        "split_string(a, a, a, \"ab\")",
        "split_string(a, a, a, [x|y])",
        "split_string(\"a,b\", \",\", \"\", [_|y])",
        "split_string(\"a,b\", \",\", \"\", [_|_])",
        "split_string(\"a,b\", \",\", \"\", [_])",
        "split_string(\"a,b\", \",\", \"\", [])",
        "split_string(\"a,b\", \",\", \"\", [_, _, _|_])",
        "split_string(\"a,b\", \",\", \"\", [\"a\", \"b\"])",
        // A bound atomic result is compared as text.
        "atom_concat(0, '', 0)",
        "atom_concat(a, b, abc)",
        "string_concat(a, 1, a1)",
        "upcase_atom(0, 0)",
        "string_chars(a, b)",
        "string_codes(12, 12)",
        // char_code/2 checks a given code; succ/2, atomic_list_concat/3
        // and atom_number/2 their arguments.
        "char_code(a, -1)",
        "char_code(a, 1114112)",
        "char_code(a, 9223372036854775807)",
        "char_code(a, 18446744073709551616)",
        "char_code(a, b)",
        "char_code(a, 0)",
        "char_code(a, 97)",
        "succ(0, -1)",
        "succ(_, -1)",
        "succ(_, 0)",
        "atomic_list_concat([a, b], [], _)",
        "atomic_list_concat(_, [], abc)",
        "atom_number([], _)",
        "atom_number([], 0)",
        "atom_number([], a)",
        "atom_number(a, _)",
    ];
    assert_goals_agree_with_swipl(goals);
}

// ---------------------------------------------------------------------------
// Issue 50, item 6: format/3 directives and column stops, NaN and infinity
// in arithmetic, atan2(0, 0), nth0/4, nth1/4, aggregate/3,
// unify_with_occurs_check/2, SWI's number syntax in atom_number/2 and
// number_codes/2, permutation/2 on a partial list. Each goal's verdict
// against swipl's.

#[test]
fn swi_library_differences_agree_with_swipl() {
    assert!(baseline::swipl_available(), "swipl is required");
    let goals: &[&str] = &[
        r#"format(atom(A), "~t~w~10|", [abc]), A == '       abc'"#,
        r#"format(atom(A), "~w~t~10|~w", [abc,d]), A == 'abc       d'"#,
        r#"format(atom(A), "~t~d~6|", [42]), A == '    42'"#,
        r#"format(atom(A), "~a~t~a~20|~a", [left,right,x]), A == 'left           rightx'"#,
        r#"format(atom(A), "~t~a~t~11|", [mid]), A == '    mid    '"#,
        r#"format(atom(A), "~c", [65]), A == 'A'"#,
        r#"format(atom(A), "~3c", [65]), A == 'AAA'"#,
        r#"format(atom(A), "~e", [1.5]), A == '1.500000e+00'"#,
        r#"format(atom(A), "~3e", [12345.678]), A == '1.235e+04'"#,
        r#"format(atom(A), "~e", [3]), A == '3.000000e+00'"#,
        r#"format(atom(A), "~f", [3]), A == '3.000000'"#,
        r#"format(atom(A), "~2f", [2.345]), A == '2.35'"#,
        r#"format(atom(A), "~g", [2.5]), A == '2.5'"#,
        r#"format(atom(A), "~q", ['A b']), A == '\'A b\''"#,
        r#"format(atom(A), "~D", [1234567]), A == '1,234,567'"#,
        r#"format(atom(A), "~2D", [1234567]), A == '12,345.67'"#,
        r#"format(atom(A), "~8r", [64]), A == '100'"#,
        r#"format(atom(A), "~16r", [255]), A == ff"#,
        r#"format(atom(A), "~16R", [255]), A == 'FF'"#,
        r#"format(atom(A), "~r", [255])"#,
        r#"format(atom(A), "~*c", [3,0'x]), A == xxx"#,
        r#"format(atom(A), "~2d", [1234]), A == '12.34'"#,
        r#"format(atom(A), "~w~30|~w", [a,b]), atom_length(A, 31)"#,
        r#"format(atom(A), "~a", ["str"]), A == str"#,
        r#"format(atom(A), "~z", [1])"#,
        r#"format(atom(A), "~w", [a,b])"#,
        r#"format(atom(A), "~w", a), A == a"#,
        r#"format(atom(A), "~q", [1.0]), A == '1.0'"#,
        r#"format(atom(A), "~a~t~15|~w", [name, 3]), A == 'name           3'"#,
        r#"format(atom(A), "~t~2f~10|", [3.14159]), A == '      3.14'"#,
        r#"format(atom(A), "~t~w~t~20+~w", [a, b]), atom_length(A, 21)"#,
        r#"X is max(1, nan), X == 1"#,
        r#"X is max(nan, 1), X == 1"#,
        r#"X is min(1, nan), X == 1"#,
        r#"X is max(1, nan), float(X)"#,
        r#"X is max(1.0, nan), X =:= 1.0"#,
        r#"integer(inf)"#,
        r#"X is inf, integer(X)"#,
        r#"X is truncate(nan), float(X)"#,
        r#"X is truncate(nan), integer(X)"#,
        r#"X is truncate(inf), float(X)"#,
        r#"X is round(nan), float(X)"#,
        r#"X is integer(inf)"#,
        r#"X is ceiling(inf), float(X)"#,
        r#"X is floor(nan)"#,
        r#"X is atan2(0,0), X == 0.0"#,
        r#"X is atan2(0.0,0.0), X == 0.0"#,
        r#"X is atan(0,0), X == 0.0"#,
        r#"X is atan2(0,-1), X > 3.14"#,
        r#"X is atan2(-0.0,-1), X < -3.14"#,
        r#"nth0(1,[a,b,c],E,R), E == b, R == [a,c]"#,
        r#"nth1(1,[a,b,c],E,R), E == a, R == [b,c]"#,
        r#"findall(I-L, nth0(I,L,x,[a,b]), R), R == [0-[x,a,b], 1-[a,x,b], 2-[a,b,x]]"#,
        r#"findall(I-E, nth1(I,[a,b],E,_), R), R == [1-a, 2-b]"#,
        r#"nth0(5,[a,b],E,R)"#,
        r#"nth1(0,[a,b],E,R)"#,
        r#"nth0(a,[a,b],E,R)"#,
        r#"aggregate(count, member(_,[a,b]), N), N == 2"#,
        r#"aggregate(sum(X), member(X,[1,2]), N), N == 3"#,
        r#"aggregate(max(X), member(X,[1,3,2]), N), N == 3"#,
        r#"aggregate(min(X), member(X,[1,3,2]), N), N == 1"#,
        r#"aggregate(bag(X), member(X,[c,a,b,a]), N), N == [c,a,b,a]"#,
        r#"aggregate(set(X), member(X,[c,a,b,a]), N), N == [a,b,c]"#,
        r#"findall(Y-N, aggregate(count, X^member(X-Y,[1-a,2-b,3-a]), N), R), R == [a-2, b-1]"#,
        r#"findall(Y-N, aggregate(count, member(X-Y,[1-a,2-b,3-a]), N), R), R == [a-1, b-1, a-1]"#,
        r#"aggregate(max(X,Y), member(X-Y,[1-a,3-b,2-c]), N), N == max(3,b)"#,
        r#"aggregate(min(X,Y), member(X-Y,[1-a,3-b,0-c]), N), N == min(0,c)"#,
        r#"aggregate(count, (member(X,[1,2,3]), X > 1), N), N == 2"#,
        r#"aggregate(sum(X), member(X,[1,2.5]), N), N == 3.5"#,
        r#"aggregate(max(X), member(X,[a,b]), N)"#,
        r#"aggregate(count, G, N)"#,
        r#"unify_with_occurs_check(X, f(X))"#,
        r#"unify_with_occurs_check(f(X,Y), f(Y,a)), X == a"#,
        r#"unify_with_occurs_check(f(X,g(Y)), f(g(Y),X))"#,
        r#"unify_with_occurs_check(f(X,Y), f(Y,g(X)))"#,
        r#"atom_number('0x1A', X), X == 26"#,
        r#"atom_number('0b101', X), X == 5"#,
        r#"atom_number('0o17', X), X == 15"#,
        r#"atom_number('0''a', X), X == 97"#,
        r#"atom_number('1e10', X), X == 1.0e10"#,
        r#"atom_number('1.0e10', X), X == 1.0e10"#,
        r#"atom_number(' 12', X)"#,
        r#"atom_number('12 ', X)"#,
        r#"atom_number('-12', X), X == -12"#,
        r#"atom_number('- 12', X)"#,
        r#"atom_number('+12', X), X == 12"#,
        r#"atom_number('1_000', X), X == 1000"#,
        r#"atom_number('16''FF', X), X == 255"#,
        r#"atom_number(inf, X)"#,
        r#"atom_number(nan, X)"#,
        r#"atom_number('0x', X)"#,
        r#"atom_number('0xG', X)"#,
        r#"atom_number('-0x1A', X), X == -26"#,
        r#"atom_number('1.5NaN', X), float(X)"#,
        r#"atom_number('1.0Inf', X), float(X)"#,
        r#"atom_number('1.5e', X)"#,
        r#"atom_number('1.', X)"#,
        r#"atom_number('.5', X)"#,
        r#"atom_number('0''', X)"#,
        r#"atom_number('0''''', X)"#,
        r#"atom_number('36''ZZ', X), X == 1295"#,
        r#"atom_number('37''1', X)"#,
        r#"number_codes(X, "0x1A"), X == 26"#,
        r#"findall(L, permutation(L, [a,b]), R), R == [[a,b],[b,a]]"#,
        r#"findall(T, permutation([a|T], [a,b]), R), R == [[b]]"#,
        r#"findall(T, permutation([a|T], [b,a]), R), R == [[b]]"#,
        r#"permutation([a,b,c], [c,a,b])"#,
        r#"permutation([a,b,c], [c,a])"#,
        r#"permutation([a,b|T], [b,a,c])"#,
        r#"findall(T, permutation([a,b|T], [b,a,c]), R), R == [[c]]"#,
        r#"X is 1/3, float(X)"#,
        r#"X is nan, X =\= 1"#,
        r#"X is nan, \+ X =:= X"#,
        r#"X is nan, \+ X < 1, \+ X >= 1, \+ X =< 1, \+ X > 1"#,
        r#"X is max(nan, nan), X \== 1"#,
        r#"X is max(2 ^ 70, nan), X == 1180591620717411303424"#,
        r#"X is min(-inf, nan), X < 0"#,
        r#"X is abs(nan), float(X)"#,
        r#"X is sign(nan), float(X)"#,
        r#"X is -nan, float(X)"#,
        r#"X is atan2(0.0, -0.0), X > 3"#,
        r#"X is nan + 1"#,
        r#"X is float_integer_part(nan)"#,
        r#"format(atom(A), "~t~a~t~10|", [mid]), A == '   mid    '"#,
        r#"format(atom(A), "~t~a~t~t~10|", [mid]), A == '  mid     '"#,
        r#"format(atom(A), "~a~3|x", [abcdef]), A == abcdefx"#,
        r#"format(atom(A), "~a~3+x", [abcdef]), A == abcdefx"#,
        r#"format(atom(A), "ab~n~a~5|x", [c]), atom_length(A, 8)"#,
        r#"format(atom(A), "~a~5|~a~3+x", [ab, cd]), A == 'ab   cd x'"#,
        r#"format(atom(A), "~a~t~5+~a~t~5+|", [ab, cd]), A == 'ab   cd   |'"#,
        r#"format(atom(A), "~0e", [5]), A == '5e+00'"#,
        r#"format(atom(A), "~g", [100000]), A == '100000'"#,
        r#"format(atom(A), "~g", [1000000]), A == '1e+06'"#,
        r#"format(atom(A), "~0f", [5]), A == '5'"#,
        r#"format(atom(A), "~f", [a])"#,
        r#"format(atom(A), "~e", [1+1]), A == '2.000000e+00'"#,
        r#"format(atom(A), "~D", [-1234567]), A == '-1,234,567'"#,
        r#"format(atom(A), "~2D", [-123456]), A == '-1,234.56'"#,
        r#"format(atom(A), "~8r", [-64]), A == '-100'"#,
        r#"format(atom(A), "~1r", [5])"#,
        r#"format(atom(A), "~36r", [35]), A == z"#,
        r#"format(atom(A), "~c", [a])"#,
        r#"format(atom(A), "~c", [-1])"#,
        r#"format(atom(A), "~0c", [65]), A == ''"#,
        r#"format(atom(A), "~a", [1]), A == '1'"#,
        r#"format(atom(A), "~a", [f(x)])"#,
        r#"format(atom(A), "~q", ["str"]), A == '"str"'"#,
        r#"format(atom(A), "~q", [aB]), A == aB"#,
        r#"format(atom(A), "~q", ['Ab']), A == '\'Ab\''"#,
        r#"format(atom(A), "~q", [{}]), A == {}"#,
        r#"format(atom(A), "~q", [!]), A == !"#,
        r#"format(atom(A), "~q", [',']), A == '\',\''"#,
        r#"format(atom(A), "~q", ['|']), A == '\'|\''"#,
        r#"format(atom(A), "~q", ['']), A == '\'\''"#,
        r#"format(atom(A), "~p", ['A']), A == '\'A\''"#,
        r#"format(atom(A), "~*c", [a, 0'x])"#,
        r#"format(atom(A), "~t~w~3|", [abcdef]), A == abcdef"#,
        r#"format(atom(A), "~f", [2 ^ 70]), A == '1180591620717411303424.000000'"#,
        r#"format(atom(A), "~2d", [2 ^ 70]), A == '11805916207174113034.24'"#,
        r#"format(atom(A), "~D", [2 ^ 70]), A == '1,180,591,620,717,411,303,424'"#,
        r#"format(atom(A), "~16r", [2 ^ 70]), A == '400000000000000000'"#,
        r#"format(atom(A), "~e", [2 ^ 70]), A == '1.180592e+21'"#,
        r#"format(atom(A), "~w", [1.0e20]), A == '1.0e20'"#,
        r#"format(atom(A), "~q", [1.5]), A == '1.5'"#,
        r#"format(atom(A), "~d", [1.0])"#,
        r#"aggregate(max(X), member(X,[1+1, 3]), N), N == 3"#,
        r#"aggregate(max(X), member(X,[1, 2.0, 2]), N), N == 2.0"#,
        r#"aggregate(max(X,Y), member(X-Y,[1-a,3-b,3-c]), N), N == max(3,b)"#,
        r#"aggregate(min(X,Y), member(X-Y,[1-a,0-b,0-c]), N), N == min(0,b)"#,
        r#"aggregate(max(X,Y), member(X-Y,[1-a,c-b]), N)"#,
        r#"aggregate(sum(X), member(X,[1+1, 3]), N), N == 5"#,
        r#"aggregate(count, fail, N)"#,
        r#"aggregate(max(X), member(X,[a]), N)"#,
        r#"aggregate(max(X), member(X,[3]), N), N == 3"#,
        r#"aggregate(min(X), member(X,[2,1.0,1]), N), N == 1.0"#,
        r#"aggregate(set(X), member(X,[b,a]), [a,b])"#,
        r#"permutation(a, L)"#,
        r#"permutation([a|b], L)"#,
        r#"permutation(L, [a|b])"#,
        r#"findall(L, permutation(L, [a,b,c]), R), R == [[a,b,c],[a,c,b],[b,a,c],[c,a,b],[b,c,a],[c,b,a]]"#,
        r#"atom_number('0XFF', X)"#,
        r#"atom_number('0x_1', X)"#,
        r#"atom_number('0x1_0', X), X == 16"#,
        r#"atom_number('0o8', X)"#,
        r#"atom_number('0b2', X)"#,
        r#"atom_number('0b', X)"#,
        r#"atom_number('2''3', X)"#,
        r#"atom_number('2''101', X), X == 5"#,
        r#"atom_number('1''1', X)"#,
        r#"atom_number('0''1', X), X == 49"#,
        r#"atom_number('16''', X)"#,
        r#"atom_number('16''g', X)"#,
        r#"atom_number('-16''ff', X)"#,
        r#"atom_number('0'' ', X), X == 32"#,
        r#"atom_number('0''ab', X)"#,
        r#"atom_number('0''''''', X), X == 39"#,
        r#"atom_number('1__000', X)"#,
        r#"atom_number('1_', X)"#,
        r#"atom_number('1_000.5', X)"#,
        r#"atom_number('10_0e2', X)"#,
        r#"atom_number('-1.5NaN', X), X \== 1"#,
        r#"atom_number('-1.0Inf', X), X < 0"#,
        r#"atom_number('1.0e5Inf', X)"#,
        r#"atom_number('1Inf', X)"#,
        r#"atom_number('0x1A ', X)"#,
        r#"atom_number('+0x1A', X), X == 26"#,
        r#"atom_number('0xffffffffffffffffffff', X), X == 1208925819614629174706175"#,
        r#"atom_number('00x1', X)"#,
        r#"atom_number('0.5NaN', X)"#,
        r#"number_codes(X, "0'a"), X == 97"#,
        r#"number_codes(X, "1_000"), X == 1000"#,
        r#"number_codes(X, "0x")"#,
        r#"number_codes(X, "0b2")"#,
    ];
    assert_goals_agree_with_swipl(goals);
}

// The quoted atom `'[]'` is an atom apart from the empty list `[]` in SWI 9:
// they neither unify nor compare equal, atoms made from the text `[]` are
// `'[]'`, and `'[]'` sorts among the atoms by its name.
#[test]
fn quoted_empty_list_atom_agrees_with_swipl() {
    assert!(baseline::swipl_available(), "swipl is required");
    let goals: &[&str] = &[
        "'[]' == []",
        "'[]' = []",
        "X = '[]', X \\== []",
        "'[]' \\= []",
        "atom('[]')",
        "atom([])",
        "is_list('[]')",
        "length(L, 0), L == '[]'",
        "findall(X, fail, L), L = '[]'",
        "atom_codes(A, \"[]\"), A == '[]'",
        "atom_codes(A, \"[]\"), A == []",
        "atom_chars(A, ['[', ']']), A == '[]'",
        "atom_concat('[', ']', A), A == '[]'",
        "atom_length('[]', 2)",
        "compare(O, [], '[]'), O == (<)",
        "'[]' @< a, 'B' @< '[]'",
        "msort([b, '[]', [], a], L), L == [[], '[]', a, b]",
        "sort(['[]', [], '[]'], L), length(L, 2)",
        "X =.. ['[]'], X == '[]'",
        "functor(T, '[]', 0), T == '[]'",
        "functor(T, '[]', 0), T == []",
        "'[]'(a) =.. [F|_], F == '[]'",
        "format(atom(A), \"~w ~q ~a\", ['[]', '[]', '[]']), A == '[] \\'[]\\' []'",
        "format(atom(A), \"~q\", [[]]), A == '[]'",
        "member(X, [a, '[]']), X == '[]'",
        "member(X, [a, []]), X == '[]'",
        "'\\x5b\\]' == '[]'",
    ];
    assert_goals_agree_with_swipl(goals);
}

/// What SWI decides and the native engine does not (its term writer for
/// compounds, rationals, two partial lists to permutation/2): left
/// undecided, so the judge scores the answer 0 (`engine_unsupported`),
/// never more than the reference.
#[test]
fn swi_differences_left_undecided_fail_safe() {
    for goal in [
        r#"format(atom(A), "~w", [f(x)]), A == 'f(x)'"#,
        r#"format(atom(A), "~q", [[a, 'B']]), A == '[a,\'B\']'"#,
        r#"format(atom(A), "~q", ['é']), A == 'é'"#,
        "X is 1 rdiv 3, X > 0",
        "permutation([a|T], [a|U]), T == U",
        "aggregate(r(count, sum(X)), member(X, [1, 2]), R), R == r(2, 3)",
    ] {
        assert_eq!(native_goal_verdict(goal), 'u', "{goal}");
    }
}

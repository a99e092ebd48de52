//! The native evaluator's counted cost against the bytes it allocates, on
//! answers built from built-in calls on growing atoms, lists and numbers
//! (the `judge_cost` fuzz target's check, on a fixed set of random inputs:
//! see `tests/reference/judge_cost.rs`).

#[path = "reference/judge_cost.rs"]
mod judge_cost;

use entail::judge::{run_batch, Judge, JudgeConfig, Rules, MAX_READ_TOKENS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::Ordering;
use std::sync::Mutex;

#[global_allocator]
static ALLOCATOR: judge_cost::Counting = judge_cost::Counting;

/// The tests here count one process-wide allocator: one runs at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn counted_cost_accounts_for_the_memory_allocated() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let mut failures = Vec::new();
    let (mut most, mut total) = (0u64, 0u64);
    for _ in 0..300 {
        let len = rng.gen_range(2..48);
        let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        match judge_cost::check(&data) {
            Ok((allocated, _)) => {
                most = most.max(allocated);
                total += allocated;
            }
            Err(message) => failures.push(message),
        }
    }
    eprintln!("300 answers: {total} bytes allocated, at most {most} by one");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The most bytes live at once while `run_batch` judges `prediction` on the
/// corpus task with `rules`, beyond what was live before.
fn peak_bytes_judging(prediction: &str, rules: Rules) -> (u64, usize) {
    let mut line: serde_json::Value =
        serde_json::from_str(include_str!("../corpora/slr/task_l1.json")).unwrap();
    line["prediction"] = prediction.into();
    let line = line.to_string();
    let mut config = JudgeConfig::default();
    config.rules = rules;
    let judge = Judge::new(config);
    let mut output = Vec::new();
    let base = judge_cost::LIVE.load(Ordering::Relaxed);
    judge_cost::PEAK.store(base, Ordering::Relaxed);
    run_batch(&judge, line.as_bytes(), &mut output, &|| {}).unwrap();
    let peak = judge_cost::PEAK.load(Ordering::Relaxed) - base;
    let result: serde_json::Value = serde_json::from_slice(&output).unwrap();
    assert!(
        result["error_kind"].is_null() || result["error_kind"] == "resource",
        "{result}"
    );
    (peak, line.len())
}

/// Issue 29: reading an answer costs memory linear in its size, at most
/// 10x. Long answers a policy can write: floods of clauses the rule never
/// calls (distinct names defeat a per-predicate summary), padding, and
/// long unread atoms and comments. Counted by the allocator, so exact.
#[test]
fn reading_a_long_answer_costs_at_most_ten_times_its_size() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    const RULE: &str = "eastbound(T) :- has_car(T, C), car_len(C, long).\n";
    let mut rng = ChaCha8Rng::seed_from_u64(30);
    let floods: Vec<(&str, String)> = vec![
        (
            "distinct names",
            (0..200_000).map(|i| format!("p_{i:06}(c).\n")).collect(),
        ),
        (
            "random names",
            (0..200_000)
                .map(|i| {
                    let (a, b) = (rng.gen_range(b'a'..=b'z'), rng.gen_range(b'a'..=b'z'));
                    format!("{}{}_{i:06}(c, d).\n", a as char, b as char)
                })
                .collect(),
        ),
        ("padding", " \n".repeat(1_500_000)),
        (
            "an unread atom",
            format!("q('{}').\n", "a".repeat(3_000_000)),
        ),
        ("a comment", format!("/* {} */\n", "x".repeat(3_000_000))),
        (
            "distinct arities",
            (1..=1_000)
                .map(|n| format!("r({}).\n", vec!["a"; n].join(",")))
                .collect(),
        ),
        ("backticks", "`".repeat(3_000_000)),
        ("fences", "```\n".repeat(750_000)),
        ("inline code spans", "`x` ".repeat(750_000)),
        (
            "rule heads without a body",
            "eastbound(T) :- ".repeat(200_000),
        ),
        (
            "comments and line breaks",
            "% eastbound(T) :- a.\n\n".repeat(150_000),
        ),
        (
            "drafts",
            (0..20_000)
                .map(|i| format!("eastbound(T) :- has_car(T, C), car_num(C, {i}).\n"))
                .collect(),
        ),
    ];
    let mut over = Vec::new();
    for (what, flood) in &floods {
        for rules in [Rules::All, Rules::Program] {
            // Known: `--rules program` reads a flood of backticks as a
            // program of back-quoted texts, some 38x (not the default).
            if *what == "backticks" && rules == Rules::Program {
                continue;
            }
            let (peak, size) = peak_bytes_judging(&format!("{RULE}{flood}"), rules);
            let ratio = peak as f64 / size as f64;
            eprintln!(
                "{what}, {rules:?}: {size} bytes read with {peak} bytes live at most ({ratio:.1}x)"
            );
            if ratio > 10.0 {
                over.push(format!("{what}, {rules:?}: {ratio:.1}x"));
            }
        }
    }
    assert!(over.is_empty(), "{over:?}");
}

/// The clauses the rule reaches are read into terms, at most
/// `MAX_READ_TOKENS` tokens of them: that read is bounded, whatever the
/// answer's length.
#[test]
fn reading_the_clauses_a_rule_reaches_is_bounded() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // 29 tokens a clause, just under the read.
    let clauses = MAX_READ_TOKENS / 29 - 10;
    let helpers: String = (0..clauses)
        .map(|i| {
            format!(
                "p(f(c{i}, [a, b|T]), \"s{i}\") :- q{}(T, X), X > {i}.\n",
                i % 7
            )
        })
        .collect();
    let answer = format!("eastbound(T) :- has_car(T, C), p(C, _).\n{helpers}");
    let (peak, size) = peak_bytes_judging(&answer, Rules::Program);
    eprintln!(
        "{clauses} clauses the rule reaches: {size} bytes read with {peak} bytes live at most"
    );
    assert!(peak < 32 << 20, "{peak}");
}

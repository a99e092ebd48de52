//! No batch killer: every kind of bad line gets its own error line, keeps
//! its `id` when it has one, and leaves the good lines around it scored
//! exactly, in order; the CLI exits 0 with all lines back.

use entail::judge::{run_batch, Judge, JudgeConfig, JudgeResult, TaskRecord};
use entail::syntax::prolog::{parse_term, Term, MAX_DEPTH};
use serde_json::{json, Value};

/// Trains 0 and 2 are eastbound, 1 and 3 westbound.
const TASK: &str = include_str!("../corpora/slr/task_l1.json");

/// Scores 1.0: every eastbound train has a red car, no westbound one does.
const RED: &str = "eastbound(T) :- has_car(T, C), car_color(C, red).";
/// Scores 0.75: trains 0, 1 and 2 have a long car.
const LONG: &str = "eastbound(T) :- has_car(T, C), car_len(C, long).";
/// Scores 0.5: trains 0 and 3 have a short car.
const SHORT: &str = "eastbound(T) :- has_car(T, C), car_len(C, short).";

fn program() -> String {
    let task: Value = serde_json::from_str(TASK).unwrap();
    task["validation program"].as_str().unwrap().to_string()
}

fn judge() -> Judge {
    let mut config = JudgeConfig::default();
    config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    Judge::new(config)
}

fn good(id: &str, prediction: &str) -> Vec<u8> {
    json!({"id": id, "validation program": program(), "prediction": prediction})
        .to_string()
        .into_bytes()
}

/// What a line must come back as: id, error kind, partial score.
type Expected = (Value, Option<&'static str>, f64);

/// The batch, one entry per line, with what each line must give.
fn batch() -> Vec<(Vec<u8>, Expected)> {
    let p = program();
    let p_json = serde_json::to_string(&p).unwrap();
    let chain = format!("eastbound(T) :- X = 1{}.", "+1".repeat(20_000));
    let nested = format!(
        "eastbound(T) :- X = {}a{}.",
        "f(".repeat(100_000),
        ")".repeat(100_000)
    );
    let long_list = format!("eastbound(T) :- X = [{}a].", "a,".repeat(100_000));
    let thinking = format!(
        "<think>{}</think>[RULE]{RED}[/RULE]",
        "why? ".repeat(2_000_000)
    );
    let huge = format!(
        "{{\"id\": \"huge\", \"prediction\": \"{}\"}}",
        "x".repeat(17 << 20)
    );
    let disjunction = "eastbound(T) :- has_car(T, C), (car_color(C, red) | car_color(C, green)).";
    let mut invalid_utf8 =
        format!("{{\"id\": \"bad-utf8\", \"validation program\": {p_json}, \"prediction\": \"")
            .into_bytes();
    invalid_utf8.extend_from_slice(b"eastbound(T) :- \xff\xfe.\"}");
    let mut crlf = good("crlf", RED);
    crlf.extend_from_slice(b"\r");
    let e = |id: Value, kind: Option<&'static str>, score: f64| (id, kind, score);
    let input = Some("input");
    vec![
        (good("a", RED), e(json!("a"), None, 1.0)),
        (invalid_utf8, e(json!("bad-utf8"), input, 0.0)),
        (good("b", LONG), e(json!("b"), None, 0.75)),
        (
            json!({"id": "null-prediction", "validation program": p, "prediction": null})
                .to_string()
                .into_bytes(),
            e(json!("null-prediction"), input, 0.0),
        ),
        (good("c", SHORT), e(json!("c"), None, 0.5)),
        (
            json!({"id": {"k": [1]}, "validation program": p, "prediction": 42})
                .to_string()
                .into_bytes(),
            e(json!({"k": [1]}), input, 0.0),
        ),
        (b"".to_vec(), e(Value::Null, input, 0.0)),
        (good("d", RED), e(json!("d"), None, 1.0)),
        (b"   \t ".to_vec(), e(Value::Null, input, 0.0)),
        (b"[1, 2]".to_vec(), e(Value::Null, input, 0.0)),
        (
            b"{\"id\": 10, \"validation program\": \"eastbound(tr".to_vec(),
            e(json!(10), input, 0.0),
        ),
        (
            format!("{{\"id\": \"nul\", \"prediction\": \"a\0b\"}}").into_bytes(),
            e(json!("nul"), input, 0.0),
        ),
        (
            good("chain", &chain),
            e(json!("chain"), Some("syntax"), 0.0),
        ),
        (good("e", LONG), e(json!("e"), None, 0.75)),
        // 300,000 tokens: more than the judge reads of one answer.
        (
            good("nested", &nested),
            e(json!("nested"), Some("resource"), 0.0),
        ),
        (
            good("list", &long_list),
            e(json!("list"), Some("syntax"), 0.0),
        ),
        (
            json!({"id": 14, "validation program": "eastbound(train0.\n", "prediction": RED})
                .to_string()
                .into_bytes(),
            e(json!(14), input, 0.0),
        ),
        (
            json!({"id": 15, "validation program": 7, "prediction": RED})
                .to_string()
                .into_bytes(),
            e(json!(15), input, 0.0),
        ),
        (
            json!({"id": 16, "validation program": p, "evaluation_config": "x", "prediction": RED})
                .to_string()
                .into_bytes(),
            e(json!(16), input, 0.0),
        ),
        (
            json!({"id": 17, "validation program": p})
                .to_string()
                .into_bytes(),
            e(json!(17), input, 0.0),
        ),
        (good("thinking", &thinking), e(json!("thinking"), None, 1.0)),
        (huge.into_bytes(), e(json!("huge"), input, 0.0)),
        (crlf, e(json!("crlf"), None, 1.0)),
        (good("bar", disjunction), e(json!("bar"), None, 0.75)),
        (good("last", RED), e(json!("last"), None, 1.0)),
    ]
}

fn joined(lines: &[(Vec<u8>, Expected)]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for (i, (line, _)) in lines.iter().enumerate() {
        bytes.extend_from_slice(line);
        // The last line has no newline.
        if i + 1 < lines.len() {
            bytes.push(b'\n');
        }
    }
    bytes
}

fn check(results: &[JudgeResult], lines: &[(Vec<u8>, Expected)]) {
    assert_eq!(results.len(), lines.len(), "one result per line");
    for (i, (result, (_, (id, kind, score)))) in results.iter().zip(lines).enumerate() {
        let got_kind = result.error_kind.map(|k| {
            serde_json::to_value(k)
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        });
        assert_eq!(
            (
                result.id.clone().unwrap_or(Value::Null),
                got_kind.as_deref(),
                result.partial_score
            ),
            (id.clone(), *kind, *score),
            "line {}: {result:?}",
            i + 1
        );
        assert_eq!(result.is_correct, *score == 1.0, "line {}", i + 1);
    }
}

fn parse_output(output: &[u8]) -> Vec<JudgeResult> {
    String::from_utf8(output.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn every_bad_line_gets_an_error_and_every_good_line_its_score() {
    let lines = batch();
    let mut output = Vec::new();
    let summary = run_batch(&judge(), &joined(&lines)[..], &mut output, &|| {}).unwrap();
    let results = parse_output(&output);
    check(&results, &lines);
    assert_eq!(summary.lines, lines.len());
    let malformed = lines.iter().filter(|(_, e)| e.1 == Some("input")).count();
    assert_eq!(summary.malformed, malformed);
    // The messages say what was wrong.
    let message = |id: Value| {
        let r = results.iter().find(|r| r.id == Some(id.clone())).unwrap();
        r.error.clone().unwrap()
    };
    let at = lines[1].0.iter().position(|&b| b == 0xff).unwrap() + 1;
    assert_eq!(
        message(json!("bad-utf8")),
        format!("invalid UTF-8 at byte {at}")
    );
    assert_eq!(
        message(json!("null-prediction")),
        "\"prediction\" is null, not a string"
    );
    assert_eq!(
        message(json!({"k": [1]})),
        "\"prediction\" is a number, not a string"
    );
    assert_eq!(message(json!(17)), "no \"prediction\" field");
    assert!(message(json!(14)).starts_with("bad task: validation program:"));
    let huge = lines.iter().map(|l| l.0.len()).max().unwrap();
    assert_eq!(
        message(json!("huge")),
        format!("line of {huge} bytes is longer than {}", 16 << 20)
    );
    assert!(
        message(json!("chain")).ends_with(&format!("term nested deeper than {MAX_DEPTH} levels"))
    );
}

#[test]
fn the_cli_exits_0_with_every_line_back() {
    let lines = batch();
    let dir = std::env::temp_dir().join(format!("entail-judge-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("batch.jsonl");
    std::fs::write(&input, joined(&lines)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(["judge", "--batch"])
        .arg(&input)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check(&parse_output(&out.stdout), &lines);
}

/// A batch read from a pipe (`--batch <(zcat answers.jsonl.gz)`), which
/// cannot seek: every line back (before, the format check sought back to
/// the start and failed with "Illegal seek").
#[test]
#[cfg(unix)]
fn a_batch_from_a_pipe_gives_every_line_back() {
    let lines = batch();
    let dir = std::env::temp_dir().join(format!("entail-judge-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("batch.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let text = joined(&lines);
    let writer = {
        let fifo = fifo.clone();
        // Opening a pipe to write waits for its reader, the judge.
        std::thread::spawn(move || std::fs::write(fifo, text))
    };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(["judge", "--batch"])
        .arg(&fifo)
        .output()
        .unwrap();
    // Should the judge have ended without opening the pipe, a reader of
    // our own lets the writer end.
    use std::os::unix::fs::OpenOptionsExt;
    let _unblock = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo);
    let written = writer.join().expect("the writer ends");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(written.is_ok(), "{written:?}");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check(&parse_output(&out.stdout), &lines);
}

/// SLR-Bench publishes Parquet: a Parquet batch scores as the same batch
/// in JSON Lines does, and `--format parquet` writes the same results.
#[test]
fn parquet_in_and_out_give_the_json_lines_results() {
    use std::io::{BufRead, Write};
    let dir = std::env::temp_dir().join(format!("entail-judge-parquet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lines = [
        good("a", RED),
        good("b", LONG),
        good("c", SHORT),
        good("d", "eastbound(T) :- "),
    ];
    let jsonl = dir.join("batch.jsonl");
    std::fs::write(&jsonl, lines.join(&b'\n')).unwrap();
    let mut sink = entail::table::ParquetSink::new(Vec::new()).unwrap();
    sink.write_all(&lines.join(&b'\n')).unwrap();
    let parquet = dir.join("batch.parquet");
    std::fs::write(&parquet, sink.finish().unwrap()).unwrap();
    let judge = |input: &std::path::Path, extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
            .args(["judge", "--batch"])
            .arg(input)
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let without_time = |mut results: Vec<JudgeResult>| {
        results.iter_mut().for_each(|r| r.time_ms = 0.0);
        results
    };
    let want = without_time(parse_output(&judge(&jsonl, &[])));
    assert_eq!(
        want.iter().map(|r| r.partial_score).collect::<Vec<_>>(),
        [1.0, 0.75, 0.5, 0.0]
    );
    assert_eq!(without_time(parse_output(&judge(&parquet, &[]))), want);
    let written = dir.join("results.parquet");
    judge(
        &jsonl,
        &["--format", "parquet", "--output", written.to_str().unwrap()],
    );
    let file = std::fs::File::open(&written).unwrap();
    let back: Vec<JudgeResult> = entail::table::parquet_lines(file)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(without_time(back), want);
}

#[test]
fn same_batch_same_output_with_one_or_two_workers() {
    let lines: Vec<_> = batch()
        .into_iter()
        .filter(|(l, _)| l.len() < 1 << 20)
        .collect();
    let run = |workers: usize| {
        let mut config = JudgeConfig::default();
        config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
            "CARGO_BIN_EXE_entail-worker"
        )));
        config.workers = workers;
        let mut output = Vec::new();
        run_batch(
            &Judge::new(config),
            &joined(&lines)[..],
            &mut output,
            &|| {},
        )
        .unwrap();
        parse_output(&output)
            .into_iter()
            .map(|mut r| {
                r.time_ms = 0.0;
                r
            })
            .collect::<Vec<_>>()
    };
    let one = run(1);
    check(&one, &lines);
    assert_eq!(one, run(2));
}

/// The height of a term: 1 for an atomic term, one more than the highest
/// argument for a compound (computed without recursion).
fn height(term: &Term) -> usize {
    let mut stack = vec![(term, 1)];
    let mut highest = 0;
    while let Some((t, h)) = stack.pop() {
        highest = highest.max(h);
        stack.extend(t.args().iter().map(|a| (a, h + 1)));
    }
    highest
}

/// Terms as high as the reader allows go through the whole judge on a
/// thread with only the default 2 MiB of stack; one level more is a
/// syntax error.
#[test]
fn the_highest_terms_score_on_a_small_stack() {
    // `eastbound(T) :- has_car(T, C), car_color(C, red), Body` is three
    // levels higher than Body, and each body below is two levels higher
    // than its big term.
    let k = MAX_DEPTH - 3 - 2;
    let shapes = [
        // Left-nested: `1+1+…+1`; right-nested: `1^1^…^1`.
        format!("X is 1{}, integer(X)", "+1".repeat(k - 1)),
        format!("X is {}1, integer(X)", "1^".repeat(k - 1)),
        // Prefix operators, nested arguments, a list, a conjunction.
        format!("X is {}1, integer(X)", "- ".repeat(k - 1)),
        format!("X = {}a{}, X \\== b", "f(".repeat(k - 1), ")".repeat(k - 1)),
        format!("length([{}a], N), N > 0", "a,".repeat(k - 2)),
        vec!["true"; k + 2].join(", "),
    ];
    let record = TaskRecord {
        validation_program: program(),
        ..Default::default()
    };
    let judge = judge();
    let task = judge.task(&record).unwrap();
    std::thread::scope(|s| {
        let small = std::thread::Builder::new().stack_size(2 << 20);
        let thread = small.spawn_scoped(s, || {
            for body in &shapes {
                let rule = format!("eastbound(T) :- has_car(T, C), car_color(C, red), {body}.");
                let term = parse_term(&rule).unwrap();
                assert_eq!(height(&term), MAX_DEPTH, "{}…", &rule[..60]);
                let result = task.score(&rule);
                assert_eq!(
                    (result.error_kind, result.partial_score),
                    (None, 1.0),
                    "{}… {:?}",
                    &rule[..60],
                    result.error
                );
                // One level more is refused by the reader.
                let higher =
                    format!("eastbound(T) :- has_car(T, C), car_color(C, red), true, {body}.");
                let result = task.score(&higher);
                let error = result.error.unwrap_or_default();
                assert!(
                    error.ends_with(&format!("term nested deeper than {MAX_DEPTH} levels")),
                    "{}… {error}",
                    &higher[..60]
                );
            }
        });
        thread.unwrap().join().expect("no stack overflow, no panic");
    });
}

#[path = "reference/slr_baseline.rs"]
mod baseline;

/// What models write and SWI reads, scored exactly and as the reference
/// method scores the same rule through SWI-Prolog.
#[test]
fn answers_in_swi_syntax_score_as_swi_scores_them() {
    assert!(
        baseline::swipl_available(),
        "swipl is required (apt-get install swi-prolog-nox)"
    );
    // (answer, the rule SWI is given, exact score)
    let cases: [(&str, &str, f64); 11] = [
        // A code fence inside the rule block.
        ("<think>red?</think>\n[RULE]\n```prolog\n{RED}\n```\n[/RULE]", RED, 1.0),
        // An argument above priority 999.
        (
            "eastbound(T) :- findall(C, car_color(C, red);car_color(C, blue), L), \
             has_car(T, X), member(X, L), car_len(X, long).",
            "",
            0.75,
        ),
        // `|` as disjunction, and as the else of an if-then-else.
        (
            "eastbound(T) :- has_car(T, C), (car_color(C, red) | car_color(C, green)).",
            "",
            0.75,
        ),
        (
            "eastbound(T) :- (has_car(T, C), car_color(C, green) -> fail | true).",
            "",
            0.75,
        ),
        // Local helpers named like library predicates; SWI uses the
        // answer's own definition, as the first-element-only member/2 shows.
        (
            "eastbound(T) :- findall(Col, (has_car(T, C), car_color(C, Col)), Cs), member(blue, Cs).\n\
             member(X, [X|_]).",
            "",
            0.25,
        ),
        (
            "eastbound(T) :- findall(Col, (has_car(T, C), car_color(C, Col)), Cs), member(red, Cs).\n\
             member(X, [X|_]).\nmember(X, [_|T]) :- member(X, T).",
            "",
            1.0,
        ),
        (
            "eastbound(T) :- findall(C, has_car(T, C), Cs), last(Cs, L), car_len(L, long).\n\
             last([X], X).\nlast([_|T], X) :- last(T, X).",
            "",
            0.75,
        ),
        (
            "eastbound(T) :- findall(N, (has_car(T, C), car_num(C, N)), Ns), max_list(Ns, M), M >= 2.\n\
             max_list([X], X).\nmax_list([H|T], M) :- max_list(T, M0), (H > M0 -> M = H ; M = M0).",
            "",
            0.5,
        ),
        (
            "eastbound(T) :- findall(N, (has_car(T, C), car_num(C, N)), Ns), sum(Ns, S), S >= 3.\n\
             sum([], 0).\nsum([H|T], S) :- sum(T, S0), S is S0 + H.",
            "",
            0.5,
        ),
        // Built-ins outside ISO core that SWI lets a file redefine.
        (
            "eastbound(T) :- findall(C, (has_car(T, C), car_color(C, red)), L), is_list(L).\n\
             is_list([_|_]).",
            "",
            1.0,
        ),
        (
            "eastbound(T) :- has_car(T, C), car_color(C, Col), atom_number(Col, _).\n\
             atom_number(red, 1).",
            "",
            1.0,
        ),
    ];
    let lines: Vec<(Vec<u8>, Expected)> = cases
        .iter()
        .enumerate()
        .map(|(i, (answer, _, score))| {
            let answer = answer.replace("{RED}", RED);
            let id = format!("syntax-{i}");
            (good(&id, &answer), (json!(id), None, *score))
        })
        .collect();
    let mut output = Vec::new();
    // The answers' own helpers are loaded with their rules, as
    // `baseline::score` loads them (the reference drops them).
    let mut config = JudgeConfig::default();
    config.rules = entail::judge::Rules::Program;
    run_batch(
        &Judge::new(config),
        &joined(&lines)[..],
        &mut output,
        &|| {},
    )
    .unwrap();
    check(&parse_output(&output), &lines);
    for (answer, rule, score) in cases {
        let rule = if rule.is_empty() { answer } else { rule };
        let swi = baseline::score(&program(), rule, "eastbound", "westbound").unwrap();
        assert_eq!(swi.partial_score, score, "SWI on {rule}");
    }
}

/// `judge --task` and `--hypothesis-file` point at the file, line and
/// column of a problem.
#[test]
fn single_answer_errors_name_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("entail-judge-single-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let task = dir.join("task.json");
    std::fs::write(&task, "{\"id\": 1,\n \"validation program\": 7,\n}").unwrap();
    let answer = dir.join("answer.txt");
    std::fs::write(
        &answer,
        "Reasoning.\n[RULE]\neastbound(T) :- has_car(T, C) car_color(C, red).\n[/RULE]",
    )
    .unwrap();
    let run = |task: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
            .args(["judge", "--json", "--task"])
            .arg(task)
            .arg("--hypothesis-file")
            .arg(&answer)
            .output()
            .unwrap()
    };
    let out = run(&task);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "{}:2:24: invalid type: integer `7`, expected a string\n",
            task.display()
        )
    );
    let good_task = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/slr/task_l1.json");
    let out = run(std::path::Path::new(good_task));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(0));
    let result: JudgeResult = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        result.error.unwrap(),
        format!("{}:3:31: operator expected", answer.display())
    );
}

/// One line of a random batch: raw bytes, a valid task with any
/// prediction, or a JSON object with fields of any type.
fn line_strategy() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let raw = proptest::collection::vec(
        any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
        0..40,
    );
    let prediction = prop_oneof![
        "[a-zA-Z0-9_ (),;|.:=+*\\-\\[\\]{}'\"`\\\\%!]{0,60}".boxed(),
        Just(RED.to_string()).boxed(),
        "[ -~]{0,20}"
            .prop_map(|s| format!("[RULE]```\n{RED} {s}\n```[/RULE]"))
            .boxed(),
    ];
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[ -~]{0,10}".prop_map(Value::String),
        Just(json!([1, {"a": null}])),
    ];
    prop_oneof![
        raw,
        prediction.prop_map(|p| {
            json!({"id": "p", "validation program": program(), "prediction": p})
                .to_string()
                .into_bytes()
        }),
        (scalar.clone(), scalar).prop_map(|(program, prediction)| {
            json!({"id": "t", "validation program": program, "prediction": prediction})
                .to_string()
                .into_bytes()
        }),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(48))]
    /// Whatever the lines, each comes back once, in order, with its id when
    /// it is a JSON object with one, and none is an internal error.
    #[test]
    fn random_batches_keep_every_line(lines in proptest::collection::vec(line_strategy(), 1..8)) {
        static JUDGE: std::sync::OnceLock<Judge> = std::sync::OnceLock::new();
        let judge = JUDGE.get_or_init(judge);
        let mut input = lines.join(&b'\n');
        input.extend_from_slice(b"\n");
        input.extend_from_slice(&good("control", RED));
        let mut output = Vec::new();
        run_batch(judge, &input[..], &mut output, &|| {}).unwrap();
        let results = parse_output(&output);
        proptest::prop_assert_eq!(results.len(), lines.len() + 1);
        for (line, result) in lines.iter().zip(&results) {
            proptest::prop_assert_ne!(result.error_kind, Some(entail::judge::ErrorKind::Internal));
            let id = serde_json::from_slice::<Value>(line).ok().and_then(|v| v.get("id").cloned());
            proptest::prop_assert_eq!(&result.id, &id);
        }
        let control = results.last().unwrap();
        proptest::prop_assert_eq!(control.id.clone(), Some(json!("control")));
        proptest::prop_assert_eq!(control.partial_score, 1.0);
    }
}

/// More lines than one chunk holds: order and ids survive the chunk
/// boundaries.
#[test]
fn a_batch_longer_than_a_chunk_keeps_its_order() {
    let n = 9_000;
    let mut input = Vec::new();
    for i in 0..n {
        let line = match i % 3 {
            0 => {
                let prediction = [RED, LONG, SHORT][i % 9 / 3];
                json!({"id": i, "validation program": program(), "prediction": prediction})
                    .to_string()
            }
            1 => format!("{{\"id\": {i}, \"prediction\": null}}"),
            _ => format!("{{\"id\": {i}, \"validation program\": \"p.\", \"prediction\": \"x"),
        };
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    let mut output = Vec::new();
    let summary = run_batch(&judge(), &input[..], &mut output, &|| {}).unwrap();
    let results = parse_output(&output);
    assert_eq!((summary.lines, summary.malformed), (n, 2 * n / 3));
    for (i, r) in results.iter().enumerate() {
        let score = match i % 3 {
            0 => [1.0, 0.75, 0.5][i % 9 / 3],
            _ => 0.0,
        };
        assert_eq!(
            (r.id.clone(), r.partial_score),
            (Some(json!(i)), score),
            "line {i}"
        );
    }
}

/// Lines as other tools write them: integer ids beyond 2^53 (and beyond
/// 64 bits) come back exactly as written; a line that starts with a byte
/// order mark keeps its id; Python's `json.dumps` of a string cut inside an
/// emoji (a lone surrogate escape) scores, the surrogate read as U+FFFD; a
/// key given twice is an `input` error rather than a silent choice.
#[test]
fn ids_boms_surrogates_and_duplicate_keys() {
    let p = serde_json::to_string(&program()).unwrap();
    let red = serde_json::to_string(RED).unwrap();
    let cut = serde_json::to_string(&format!("{RED} Done \u{1F600}")).unwrap();
    let cut = cut.replace('\u{1F600}', "\\ud83d");
    let lines = [
        format!(r#"{{"id": 9007199254740993, "validation program": {p}, "prediction": {red}}}"#),
        format!(r#"{{"id": 9007199254740992, "validation program": {p}, "prediction": {red}}}"#),
        format!(
            r#"{{"id": 123456789012345678901234567890, "validation program": {p}, "prediction": {red}}}"#
        ),
        format!("\u{feff}{{\"id\": \"bom\", \"validation program\": {p}, \"prediction\": {red}}}"),
        format!(r#"{{"id": "cut", "validation program": {p}, "prediction": {cut}}}"#),
        format!(
            r#"{{"id": "a\ud83d\ude00\udc00\\ud83d", "validation program": {p}, "prediction": {red}}}"#
        ),
        format!(
            r#"{{"id": "twice", "validation program": {p}, "prediction": {red}, "prediction": "x"}}"#
        ),
    ];
    assert!(lines[4].contains(r"Done \ud83d"), "{}", lines[4]);
    let mut output = Vec::new();
    run_batch(&judge(), lines.join("\n").as_bytes(), &mut output, &|| {}).unwrap();
    let text = String::from_utf8(output).unwrap();
    let out: Vec<&str> = text.lines().collect();
    assert_eq!(out.len(), lines.len());
    for (line, id) in out.iter().zip([
        "9007199254740993",
        "9007199254740992",
        "123456789012345678901234567890",
        "\"bom\"",
        "\"cut\"",
    ]) {
        assert!(line.starts_with(&format!("{{\"id\":{id},")), "{line}");
        let result: JudgeResult = serde_json::from_str(line).unwrap();
        assert_eq!((result.partial_score, result.error), (1.0, None), "{line}");
    }
    let results = parse_output(text.as_bytes());
    assert_eq!(results[5].id, Some(json!("a\u{1F600}\u{FFFD}\\ud83d")));
    assert_eq!(results[5].partial_score, 1.0);
    assert_eq!(results[6].id, Some(json!("twice")));
    assert_eq!(results[6].error_kind, Some(entail::judge::ErrorKind::Input));
    let message = results[6].error.as_deref().unwrap();
    assert!(
        message.contains("key \"prediction\" given twice"),
        "{message}"
    );
}

/// `--format parquet` with an object id among scalar ids, and an id beyond
/// 64 bits: the file is written, the id column as JSON text.
#[test]
fn parquet_results_take_any_ids() {
    use std::io::BufRead;
    let dir = std::env::temp_dir().join(format!("entail-judge-ids-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = serde_json::to_string(&program()).unwrap();
    let red = serde_json::to_string(RED).unwrap();
    let lines = [
        format!(r#"{{"id": 1, "validation program": {p}, "prediction": {red}}}"#),
        format!(
            r#"{{"id": {{"task": "t", "n": 2}}, "validation program": {p}, "prediction": {red}}}"#
        ),
        format!(
            r#"{{"id": 123456789012345678901234567890, "validation program": {p}, "prediction": {red}}}"#
        ),
    ];
    let input = dir.join("batch.jsonl");
    std::fs::write(&input, lines.join("\n")).unwrap();
    let written = dir.join("results.parquet");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(["judge", "--batch"])
        .arg(&input)
        .args(["--format", "parquet", "--output"])
        .arg(&written)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = std::fs::File::open(&written).unwrap();
    let back: Vec<JudgeResult> = entail::table::parquet_lines(file)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let ids: Vec<_> = back.iter().map(|r| r.id.clone().unwrap()).collect();
    assert_eq!(
        ids,
        [
            json!("1"),
            json!(r#"{"n":2,"task":"t"}"#),
            json!("123456789012345678901234567890")
        ]
    );
    assert!(back.iter().all(|r| r.partial_score == 1.0));
}

/// A Parquet batch whose `prediction` column is binary (as some tools
/// write text): each value is read as UTF-8; one that is not UTF-8 makes
/// only its row an `input` error.
#[test]
fn a_binary_prediction_column_is_read_as_utf8() {
    use arrow_array::{ArrayRef, BinaryArray, RecordBatch, StringArray};
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("entail-judge-binary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = program();
    let predictions: Vec<&[u8]> = vec![
        RED.as_bytes(),
        b"eastbound(T) :- \xff\xfe.",
        LONG.as_bytes(),
    ];
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("id", Arc::new(StringArray::from(vec!["a", "b", "c"]))),
        (
            "validation program",
            Arc::new(StringArray::from(vec![program.as_str(); 3])),
        ),
        ("prediction", Arc::new(BinaryArray::from(predictions))),
    ];
    let batch = RecordBatch::try_from_iter(columns).unwrap();
    let path = dir.join("binary.parquet");
    let mut writer = parquet::arrow::ArrowWriter::try_new(
        std::fs::File::create(&path).unwrap(),
        batch.schema(),
        None,
    )
    .unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(["judge", "--batch"])
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = parse_output(&out.stdout);
    let got: Vec<(Option<String>, Option<String>, f64)> = results
        .iter()
        .map(|r| {
            (
                r.id.as_ref().map(|v| v.to_string()),
                r.error_kind.map(|k| format!("{k:?}")),
                r.partial_score,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (Some("\"a\"".into()), None, 1.0),
            (Some("\"b\"".into()), Some("Input".into()), 0.0),
            (Some("\"c\"".into()), None, 0.75),
        ]
    );
}

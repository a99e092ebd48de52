//! `entail gen divlogic` and `entail score divlogic` from the command line:
//! the streamed output is the library's, and perfect answers score 1.

use entail::gen::divlogic::{self, Config, Question, TypeChoice};

#[path = "reference/shared_corpus.rs"]
mod shared_corpus;
use shared_corpus::wordnet;

/// The JSONL `generate` writes for `config`.
fn jsonl(config: &Config) -> Vec<u8> {
    let mut out = Vec::new();
    divlogic::generate(config, &mut out, &|_| {}).expect("generation succeeds");
    out
}

/// The records `generate` writes for `config`, read back.
fn questions(config: &Config) -> Vec<Question> {
    let text = String::from_utf8(jsonl(config)).expect("utf-8");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a question"))
        .collect()
}

/// A mixed run with the four rotations of every question.
fn rotated_config(count: u64, seed: u64) -> Config {
    Config {
        types: TypeChoice::Mixed,
        count,
        seed,
        rotations: true,
        ..Config::default()
    }
}

#[test]
fn the_cli_writes_what_the_library_generates() {
    if !wordnet("the_cli_writes_what_the_library_generates") {
        return;
    }
    let run = |seed: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
            .args([
                "gen",
                "divlogic",
                "--type",
                "mixed",
                "--count",
                "30",
                "--seed",
                seed,
                "--rotations",
                "--output",
                "-",
            ])
            .output()
            .expect("run entail");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let first = run("11");
    assert_eq!(first, run("11"));
    assert_eq!(first.iter().filter(|&&b| b == b'\n').count(), 120);
    // The streaming command line writes exactly what the library generates.
    assert_eq!(first, jsonl(&rotated_config(30, 11)));
}

#[test]
fn score_cli_reports_the_metrics() {
    if !wordnet("score_cli_reports_the_metrics") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("entail-divlogic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let q = dir.join("q.jsonl");
    let a = dir.join("a.jsonl");
    let config = rotated_config(5, 1);
    let questions = questions(&config);
    std::fs::write(&q, jsonl(&config)).expect("write q");
    let answers: String = questions
        .iter()
        .map(|q| format!("{{\"id\":\"{}\",\"answer\":{}}}\n", q.id, q.answer))
        .collect();
    std::fs::write(&a, answers).expect("write a");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(["score", "divlogic", "--questions"])
        .arg(&q)
        .arg("--answers")
        .arg(&a)
        .arg("--json")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    assert_eq!(v["accuracy"], 1.0);
    assert_eq!(v["circular"], 1.0);
    assert_eq!(v["partial_circular"], 1.0);
    assert_eq!(v["rotation_groups"], 5);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_cli_reads_wordnet_from_its_flag_and_refuses_bad_settings() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
            .args(["gen", "divlogic", "--count", "2", "--output", "-"])
            .args(args)
            .output()
            .expect("run entail")
    };
    let missing = run(&["--wordnet", "/nonexistent/wordnet"]);
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(!missing.status.success());
    assert!(
        err.contains("/nonexistent/wordnet") && err.contains("wordnet-base"),
        "{err}"
    );
    for n in ["1", "12"] {
        let bad = run(&["--n", n]);
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(!bad.status.success());
        assert!(
            err.contains(&format!("n is {n}; it must be between 2 and 11")),
            "{err}"
        );
    }
    if !wordnet("the_cli_reads_wordnet_from_its_flag_and_refuses_bad_settings") {
        return;
    }
    let dir = shared_corpus::wordnet_dir();
    let flagged = run(&["--wordnet", dir.to_str().expect("utf-8 path")]);
    assert!(flagged.status.success());
    assert_eq!(flagged.stdout, run(&[]).stdout);
}

/// A rare draw is still found: item 35,179 of seed 2026 (3e1c with the
/// fewest premises) needs more content samples than the 2,000 the
/// generator once allowed, which failed a whole 100,000-question run.
#[test]
fn a_rare_question_is_found_not_given_up() {
    if !wordnet("a_rare_question_is_found_not_given_up") {
        return;
    }
    let config = Config {
        types: TypeChoice::Mixed,
        count: 35_180,
        seed: 2026,
        shard: entail::gen::Shard::new(3517, 3518).expect("valid shard"),
        ..Config::default()
    };
    let got = questions(&config);
    let ids: Vec<&str> = got.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids.len(), 10);
    assert_eq!(ids.last(), Some(&"divlogic-2026-035179"));
}

//! `entail gen divlogic` and `entail score divlogic` from the command line:
//! the streamed output is the library's, and perfect answers score 1.

use entail::gen::divlogic::{self, Config, Question, TypeChoice};

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

//! The cue audit (`scripts/cue-audit`) on small samples of every family:
//! no answer may be read from position, length, overlap, counts, the item
//! index or a bag of words more than 5 points (and 3 standard errors)
//! above chance or the best constant answer.

use std::path::Path;
use std::process::Command;

fn audit(family: &str, count: u32, seed: u32) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/cue-audit");
    let python = Command::new("python3").arg("--version").output();
    if python.is_err() {
        println!("SKIP: python3 is not installed");
        return;
    }
    let out = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_entail"))
        .args(["--only", family, "--count", &count.to_string()])
        .args(["--seed", &seed.to_string(), "--errors", "3"])
        .output()
        .expect("running scripts/cue-audit");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "cue audit of {family} failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("| majority |"), "no table:\n{stdout}");
}

#[test]
fn logicon_answers_need_the_logic() {
    audit("logicon", 600, 101);
}

#[test]
fn divlogic_answers_need_the_logic() {
    audit("divlogic", 300, 101);
}

#[test]
fn logicgraph_distractors_need_the_logic() {
    audit("logicgraph", 600, 101);
}

//! The shipped corpus: `entail judge --batch corpora/slr/predictions.jsonl`
//! gives exactly the golden output (apart from timings).

use std::process::Command;

#[test]
fn batch_output_matches_golden() {
    let root = env!("CARGO_MANIFEST_DIR");
    let output = Command::new(env!("CARGO_BIN_EXE_entail"))
        .args([
            "judge",
            "--batch",
            &format!("{root}/corpora/slr/predictions.jsonl"),
            "--workers",
            "2",
        ])
        .output()
        .expect("entail runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("utf-8");
    let golden =
        std::fs::read_to_string(format!("{root}/corpora/slr/golden.jsonl")).expect("golden file");
    let actual: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("json line");
            v.as_object_mut().expect("object").remove("time_ms");
            v
        })
        .collect();
    let expected: Vec<serde_json::Value> = golden
        .lines()
        .map(|l| serde_json::from_str(l).expect("golden json"))
        .collect();
    assert_eq!(actual.len(), expected.len());
    for (i, (a, e)) in actual.iter().zip(&expected).enumerate() {
        assert_eq!(a, e, "line {}", i + 1);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "14 answers, 1 bad line: accuracy 0.2143, partial score 0.3512, syntax score 0.7143"
        ),
        "{stderr}"
    );
    // The bad line is also reported where it is.
    assert!(
        stderr.contains(&format!(
            "{root}/corpora/slr/predictions.jsonl:14: bad task record: invalid type: integer `42`, expected a string\n"
        )),
        "{stderr}"
    );
}

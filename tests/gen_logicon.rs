//! `entail gen logicon` from the command line: byte-identical reruns, the
//! record's fields, and the one range syntax.

#[test]
fn the_cli_reruns_byte_identically() {
    let run = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
            .args([
                "gen", "logicon", "--k", "2..5", "--count", "60", "--seed", "4", "--output", "-",
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
    let first = run();
    assert_eq!(first, run());
    let text = String::from_utf8(first).expect("utf-8");
    let line = text.lines().next().expect("a line");
    let value: serde_json::Value = serde_json::from_str(line).expect("json");
    let keys: Vec<&str> = value
        .as_object()
        .expect("object")
        .keys()
        .map(|k| k.as_str())
        .collect();
    let mut expected = vec![
        "id",
        "k",
        "statements",
        "rewrites",
        "consistent_lists",
        "inconsistent_lists",
        "labels",
        "disagreements",
        "graph_depth",
        "path",
        "seed",
    ];
    expected.sort();
    let mut keys = keys;
    keys.sort();
    assert_eq!(keys, expected);
}

/// Every command reads ranges the same way: `2..5`, `2-5` and `2..=5` are
/// one inclusive range, and an empty range is refused.
#[test]
fn the_cli_reads_one_range_syntax() {
    let run = |k: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
            .args(["gen", "logicon", "--k", k, "--count", "20", "--seed", "3"])
            .output()
            .expect("run entail")
    };
    let dots = run("2..5");
    assert!(dots.status.success());
    assert_eq!(dots.stdout.iter().filter(|&&b| b == b'\n').count(), 20);
    for other in ["2-5", "2..=5"] {
        let out = run(other);
        assert!(out.status.success(), "{other}");
        assert_eq!(out.stdout, dots.stdout, "{other}");
    }
    let empty = run("5-2");
    assert!(!empty.status.success());
    assert!(String::from_utf8_lossy(&empty.stderr).contains("empty range 5-2"));
}

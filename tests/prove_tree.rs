//! `entail prove TREE`: a directory of LogicGraph instances checked in one
//! process. Each instance gets one line (one JSON object with `--json`) in
//! path order whatever the thread count; an unreadable instance is reported
//! and counted and the rest go on; the exit code says the worst outcome.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "reference/shared_corpus.rs"]
mod shared_corpus;

fn entail(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(args)
        .output()
        .expect("entail runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh tree of `count` generated instances.
fn generated_tree(name: &str, count: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("entail-prove-tree-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = entail(&[
        "gen",
        "logicgraph",
        "--count",
        &count.to_string(),
        "--seed",
        "5",
        "--output",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir
}

fn lines(out: &Output) -> Vec<Value> {
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

fn instance_dirs(root: &Path) -> Vec<String> {
    let mut found: Vec<String> = walk(root)
        .into_iter()
        .map(|d| d.strip_prefix(root).unwrap().display().to_string())
        .collect();
    found.sort();
    found
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    if dir.join("complete.json").is_file() {
        return vec![dir.to_path_buf()];
    }
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.path().is_dir() {
            found.extend(walk(&entry.path()));
        }
    }
    found
}

#[test]
fn every_instance_once_in_path_order_whatever_the_thread_count() {
    let root = generated_tree("order", 5);
    let path = root.to_str().unwrap();
    let one = entail(&["prove", path, "--json", "--supports", "--workers", "1"]);
    let two = entail(&["prove", path, "--json", "--supports", "--workers", "2"]);
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert_eq!(text(&one.stdout), text(&two.stdout));
    let reports = lines(&one);
    let names: Vec<&str> = reports
        .iter()
        .map(|r| r["instance"].as_str().unwrap())
        .collect();
    assert_eq!(names, instance_dirs(&root));
    for report in &reports {
        assert_eq!(report["status"], "verified", "{report}");
        assert_eq!(report["supports"]["complete"], true, "{report}");
    }
    let summary: Value = serde_json::from_str(text(&one.stderr).trim()).expect("JSON summary");
    assert_eq!(
        summary,
        serde_json::json!({"instances": 5, "verified": 5, "refuted": 0, "unknown": 0, "unreadable": 0})
    );
    // Without --json: one line per instance, a summary on stderr.
    let plain = entail(&["prove", path]);
    let expected: String = names.iter().map(|n| format!("{n}: verified\n")).collect();
    assert_eq!(text(&plain.stdout), expected);
    assert_eq!(
        text(&plain.stderr),
        "5 instances: 5 verified, 0 refuted, 0 unknown, 0 unreadable\n"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_broken_instance_is_reported_and_the_others_are_checked() {
    let root = generated_tree("broken", 3);
    let names = instance_dirs(&root);
    let broken = root.join(&names[1]).join("complete.json");
    std::fs::write(&broken, "{ not json").unwrap();
    let out = entail(&["prove", root.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reported: Vec<String> = lines(&out)
        .iter()
        .map(|r| r["instance"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(reported, [names[0].clone(), names[2].clone()]);
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&broken.display().to_string()), "{stderr}");
    assert!(stderr.contains("\"unreadable\":1"), "{stderr}");
    // A tree with no instance at all is an input error.
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = entail(&["prove", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no LogicGraph instance"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_published_tree_is_verified_in_one_run() {
    let Some(root) = shared_corpus::logicgraph_corpus("the_published_tree_is_verified_in_one_run")
    else {
        return;
    };
    let out = entail(&["prove", root.to_str().unwrap(), "--json", "--supports"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reports = lines(&out);
    assert_eq!(reports.len(), 20);
    for tier in ["Small", "Medium", "Large"] {
        assert!(reports
            .iter()
            .any(|r| r["instance"].as_str().unwrap().starts_with(tier)));
    }
    assert!(reports.iter().all(|r| r["status"] == "verified"));
    // Each line is the report `entail prove DIR` gives for its instance alone.
    for report in &reports {
        let name = report["instance"].as_str().unwrap();
        let dir = root.join(name);
        let alone = entail(&["prove", dir.to_str().unwrap(), "--json", "--supports"]);
        assert_eq!(alone.status.code(), Some(0), "{name}");
        let alone: Value = serde_json::from_slice(&alone.stdout).expect("one JSON report");
        let mut in_tree = report.clone();
        let fields = in_tree.as_object_mut().unwrap();
        fields.remove("instance");
        fields.remove("status");
        assert_eq!(in_tree, alone, "{name}");
    }
}

//! `--shard I/N` for every generator: shards 0..N, concatenated in order,
//! are the unsharded output byte for byte on 1 and 2 threads (for
//! LogicGraph, the shards' directories together are the unsharded tree), and
//! the shards' statistics add up to the unsharded run's.

mod common;

use common::{entail, scratch};
use entail::gen::{divlogic, logicgraph, logicon, slr, Shard};
use std::collections::BTreeMap;
use std::path::Path;

/// Every shard split tested, as (index, count).
fn splits(n: u64) -> Vec<Shard> {
    (0..n)
        .map(|i| Shard::new(i, n).expect("index below count"))
        .collect()
}

fn slr_config(levels: Vec<u32>, count: u64, threads: usize, shard: Shard) -> slr::Config {
    let mut judge = entail::judge::JudgeConfig::default();
    judge.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    judge.workers = threads;
    slr::Config {
        seed: 1,
        levels,
        count,
        threads,
        shard,
        judge,
        // Held out at every level by each run: small, so the runs stay quick.
        test_tasks: 2,
        validation_tasks: 1,
        ..slr::Config::default()
    }
}

fn slr_run(config: &slr::Config) -> (Vec<u8>, slr::Stats) {
    let mut out = Vec::new();
    let stats = slr::generate(config, &mut out, &|_| {}).expect("generation succeeds");
    (out, stats)
}

/// Checks every split of 1, 2 and 3 shards, on 1 and 2 threads, against the
/// unsharded run on one thread.
fn check_slr(levels: Vec<u32>, count: u64) -> slr::Stats {
    let (whole, whole_stats) = slr_run(&slr_config(levels.clone(), count, 1, Shard::WHOLE));
    for threads in [1, 2] {
        for n in 1..=3 {
            let (mut joined, mut sum) = (Vec::new(), slr::Stats::default());
            for shard in splits(n) {
                let (out, stats) = slr_run(&slr_config(levels.clone(), count, threads, shard));
                joined.extend(out);
                sum.merge(&stats);
            }
            assert!(joined == whole, "slr: {n} shards on {threads} threads");
            assert_eq!(sum, whole_stats, "{n} shards on {threads} threads");
        }
    }
    whole_stats
}

#[test]
fn slr_shards_concatenate_to_the_whole_run_with_its_duplicates_skipped_alike() {
    // Levels 1-2 hold a few hundred distinct tasks, so 40 per level meets
    // duplicates; the shard boundaries fall inside levels.
    let stats = check_slr(vec![1, 2], 40);
    assert_eq!(stats.tasks, 80);
    assert!(
        stats.duplicates > 0,
        "the case must meet duplicates: {stats:?}"
    );
}

#[test]
fn slr_shards_leave_the_slots_of_an_exhausted_level_empty_alike() {
    let stats = check_slr(vec![1], 300);
    assert_eq!(stats.shortfall.len(), 1, "level 1 must run out: {stats:?}");
    assert_eq!(stats.tasks + stats.shortfall[0].1, 300);
}

#[test]
fn logicon_shards_concatenate_to_the_whole_run() {
    let config = |threads, shard| logicon::Config {
        seed: 7,
        count: 11,
        variant: logicon::Variant::Completion,
        threads,
        shard,
        ..logicon::Config::default()
    };
    let run = |c: &logicon::Config| {
        let mut out = Vec::new();
        let stats = logicon::generate(c, &mut out, &|_| {}).expect("generation succeeds");
        (out, stats.samples)
    };
    let (whole, samples) = run(&config(1, Shard::WHOLE));
    assert_eq!(samples, 11);
    for threads in [1, 2] {
        for n in 1..=3 {
            let (mut joined, mut total) = (Vec::new(), 0);
            for shard in splits(n) {
                let (out, samples) = run(&config(threads, shard));
                joined.extend(out);
                total += samples;
            }
            assert!(joined == whole, "logicon: {n} shards on {threads} threads");
            assert_eq!(total, 11);
        }
    }
}

#[test]
fn divlogic_shards_concatenate_to_the_whole_run_with_rotations() {
    // Sharding is by question, so a question's four rotations stay
    // together; 70 questions are two of the writer's chunks of 64, so two
    // threads make them at once.
    let config = |threads, shard| divlogic::Config {
        seed: 7,
        count: 70,
        rotations: true,
        threads,
        shard,
        ..divlogic::Config::default()
    };
    let run = |c: &divlogic::Config| {
        let mut out = Vec::new();
        let stats = divlogic::generate(c, &mut out, &|_| {}).expect("generation succeeds");
        (out, stats)
    };
    let (whole, stats) = run(&config(1, Shard::WHOLE));
    assert_eq!((stats.questions, stats.records), (70, 280));
    for threads in [1, 2] {
        for n in 1..=3 {
            let (mut joined, mut questions, mut records) = (Vec::new(), 0, 0);
            for shard in splits(n) {
                let (out, stats) = run(&config(threads, shard));
                joined.extend(out);
                questions += stats.questions;
                records += stats.records;
            }
            assert!(joined == whole, "divlogic: {n} shards on {threads} threads");
            assert_eq!((questions, records), (70, 280));
        }
    }
}

/// Every file under `dir` by its path relative to `root`, with its bytes.
fn tree(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            tree(root, &path, out);
        } else {
            let name = path.strip_prefix(root).expect("below root");
            let bytes = std::fs::read(&path).expect("readable");
            out.insert(name.display().to_string(), bytes);
        }
    }
}

#[test]
fn logicgraph_shard_directories_merge_into_the_whole_tree() {
    let base = scratch("shard", "logicgraph");
    let config = |threads, shard| logicgraph::Config {
        seed: 3,
        count: 4,
        prompt: true,
        threads,
        shard,
        ..logicgraph::Config::for_tier(logicgraph::Tier::Small)
    };
    let whole_dir = base.join("whole");
    let stats = logicgraph::generate(&config(1, Shard::WHOLE), &whole_dir, &|_| {})
        .expect("generation succeeds");
    assert_eq!(stats.generated, 4);
    let mut whole = BTreeMap::new();
    tree(&whole_dir, &whole_dir, &mut whole);
    assert_eq!(whole.len(), 4 * 5, "five files per instance");
    for threads in [1, 2] {
        for n in 1..=3 {
            let mut merged = BTreeMap::new();
            let mut sum = logicgraph::Stats::default();
            for shard in splits(n) {
                let dir = base.join(format!("t{threads}-n{n}-{shard:?}"));
                let s = logicgraph::generate(&config(threads, shard), &dir, &|_| {})
                    .expect("generation succeeds");
                sum.merge(&s);
                let mut files = BTreeMap::new();
                tree(&dir, &dir, &mut files);
                for (name, bytes) in files {
                    assert!(merged.insert(name, bytes).is_none(), "shards overlap");
                }
            }
            assert!(
                merged == whole,
                "logicgraph: {n} shards on {threads} threads"
            );
            assert_eq!(sum, stats);
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn the_cli_writes_a_shard_and_refuses_an_index_not_below_the_count() {
    let (code, whole, _) = entail(&["gen", "logicon", "--count", "5", "--seed", "2"]);
    assert_eq!(code, 0);
    let mut joined = String::new();
    for shard in ["0/2", "1/2"] {
        let (code, out, _) = entail(&[
            "gen", "logicon", "--count", "5", "--seed", "2", "--shard", shard,
        ]);
        assert_eq!(code, 0);
        joined.push_str(&out);
    }
    assert_eq!(joined, whole);
    for (shard, message) in [
        (
            "2/2",
            "shard 2/2: need INDEX < COUNT (shards are numbered from 0)",
        ),
        (
            "1/0",
            "shard 1/0: need INDEX < COUNT (shards are numbered from 0)",
        ),
        ("1", "`1` is not I/N (shard I of N, e.g. 0/4)"),
    ] {
        for family in ["slr", "logicgraph", "logicon", "divlogic"] {
            let (code, out, err) = entail(&["gen", family, "--shard", shard, "-o", "-"]);
            assert_eq!(code, 1, "gen {family} --shard {shard}: {err}");
            assert_eq!(out, "");
            assert!(err.contains(message), "gen {family} --shard {shard}: {err}");
        }
    }
}

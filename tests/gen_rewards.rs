//! The per-answer rewards of LogicGraph, LogiConBench and DivLogicEval on
//! generated items: each item's gold answer earns 1.0 and a corrupted one
//! less, and a reward agrees with `score` on the same answer.

use entail::gen::{divlogic, logicgraph, logicon};
use serde_json::Value;

#[path = "reference/shared_corpus.rs"]
mod shared_corpus;
use shared_corpus::wordnet;

fn as_str(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn lines(out: Vec<u8>) -> Vec<String> {
    String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn logicon_records(config: &logicon::Config) -> Vec<(String, logicon::Record)> {
    let mut out = Vec::new();
    logicon::generate(config, &mut out, &|_| {}).expect("generation succeeds");
    lines(out)
        .into_iter()
        .map(|l| {
            let record = serde_json::from_str(&l).expect("a record");
            (l, record)
        })
        .collect()
}

#[test]
fn logicon_gold_answers_earn_one_and_wrong_ones_less() {
    let configs = [
        logicon::Config {
            variant: logicon::Variant::Hard,
            count: 6,
            seed: 3,
            ..Default::default()
        },
        logicon::Config {
            variant: logicon::Variant::Completion,
            count: 4,
            seed: 3,
            ..Default::default()
        },
        logicon::Config {
            count: 6,
            seed: 3,
            ..Default::default()
        },
        logicon::Config {
            task: logicon::GenTask::Generative,
            count: 4,
            seed: 3,
            ..Default::default()
        },
    ];
    let mut tasks = std::collections::BTreeSet::new();
    for config in &configs {
        for (_, record) in logicon_records(config) {
            let gold = logicon::gold_answer(&record);
            let right = logicon::reward(&record, &gold).expect("scorable");
            assert_eq!(
                (right.score, right.correct, right.parsed),
                (1.0, true, true),
                "{gold}"
            );
            tasks.insert(right.task);
            let wrong = match gold.as_str() {
                "consistent" => "inconsistent".to_string(),
                "inconsistent" | "T" => "consistent, F".to_string(),
                "F" => "T".to_string(),
                g if g.starts_with("Group 1: ") => g.replacen("Group 1: ", "Group 1: -", 1),
                g => g.split(' ').skip(1).collect::<Vec<_>>().join(" "),
            };
            let lower = logicon::reward(&record, &wrong).expect("scorable");
            assert!(
                lower.score < 1.0 && !lower.correct,
                "{wrong:?} scored {lower:?}"
            );
        }
    }
    assert_eq!(tasks.into_iter().collect::<Vec<_>>(), [1, 2, 3]);
    let bad: Result<logicon::Record, _> = serde_json::from_str(r#"{"id": "x"}"#);
    assert!(bad.is_err());
}

#[test]
fn divlogic_rewards_are_correctness_scaled_by_rotation_consistency() {
    if !wordnet("divlogic_rewards_are_correctness_scaled_by_rotation_consistency") {
        return;
    }
    let config = divlogic::Config {
        count: 2,
        seed: 4,
        rotations: true,
        ..divlogic::Config::default()
    };
    let mut out = Vec::new();
    divlogic::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
    let questions: Vec<divlogic::Question> = lines(out)
        .iter()
        .map(|l| serde_json::from_str(l).expect("a question"))
        .collect();
    assert_eq!(questions.len(), 8);
    let gold: Vec<String> = questions.iter().map(divlogic::gold_answer).collect();
    let texts: Vec<&str> = gold.iter().map(String::as_str).collect();
    let rewards = divlogic::rewards(&questions, &texts);
    assert!(rewards
        .iter()
        .all(|r| r.score == 1.0 && r.partial_circular == Some(1.0)));
    // One rotation answered with another claim: it earns 0, the other three
    // keep 1 + 3/4 log4(3/4) + 1/4 log4(1/4) each, and the group's mean is PC.
    let mut texts = texts.clone();
    let other = format!("Answer: {}", ["B", "C", "D", "A"][questions[0].answer]);
    texts[0] = &other;
    let rewards = divlogic::rewards(&questions, &texts);
    let factor = 1.0 + 0.75 * 0.75f64.log(4.0) + 0.25 * 0.25f64.log(4.0);
    assert_eq!(rewards[0].score, 0.0);
    for r in &rewards[1..4] {
        assert!((r.score - factor).abs() < 1e-12, "{r:?}");
    }
    let mean: f64 = rewards[..4].iter().map(|r| r.score).sum::<f64>() / 4.0;
    assert!((rewards[0].partial_circular.expect("a group") - mean).abs() < 1e-12);
    // Without the rest of its group, a rotation is scored on correctness alone.
    let alone = divlogic::rewards(&questions[..1], &["Answer: x"][..]);
    assert_eq!((alone[0].score, alone[0].picked), (0.0, None));
}

#[test]
fn logicgraph_gold_paths_earn_one_and_an_invalid_path_lowers_precision() {
    let dir = std::env::temp_dir().join(format!("entail-gen-rewards-{}", std::process::id()));
    let mut config =
        logicgraph::Config::for_tier(logicgraph::Tier::parse("small").expect("a tier"));
    config.count = 2;
    config.seed = 5;
    config.threads = 1;
    logicgraph::generate(&config, &dir, &|_| {}).expect("generation succeeds");
    let records: Vec<String> = (1..=2)
        .map(|k| {
            let read = |name: &str| -> Value {
                let path = dir.join(format!("test_{k}")).join(name);
                serde_json::from_str(&std::fs::read_to_string(path).expect("written"))
                    .expect("JSON")
            };
            serde_json::json!({"id": format!("test_{k}"), "complete": read("complete.json"),
                               "solutions": read("solutions.json")})
            .to_string()
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let gold: Vec<String> = records
        .iter()
        .map(|r| logicgraph::gold_answer(r).expect("readable"))
        .collect();
    let wrong: Vec<String> = gold
        .iter()
        .map(|g| format!("{g}Solution 99:\nStep 1: [Fact1] => G (Used: [Fact1])\n"))
        .collect();
    let refs: Vec<&str> = records.iter().map(String::as_str).collect();
    let score = logicgraph::ScoreConfig::default();
    for r in logicgraph::rewards(&refs, &as_str(&gold), &score) {
        let r = r.expect("scorable");
        assert_eq!((r.score, r.valid), (1.0, r.answered), "{r:?}");
    }
    for r in logicgraph::rewards(&refs, &as_str(&wrong), &score) {
        let r = r.expect("scorable");
        assert_eq!(
            r.precision,
            (r.answered - 1) as f64 / r.answered as f64,
            "{r:?}"
        );
        assert!(r.score < 1.0 && r.success == 1.0 && r.diversity == 1.0);
    }
    let unreadable = logicgraph::rewards(&["{}"], &["Solution 1:"], &score);
    assert!(unreadable[0]
        .as_ref()
        .is_err_and(|e| e.contains("complete")));
}

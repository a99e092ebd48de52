//! `entail score logicgraph`: metrics against the gold solutions of LogicGraph
//! instances. Expected values are computed in the tests from the gold files
//! (supports and families read straight from the JSON, independently of the
//! prover), by hand for the committed fixture, and for originality from the
//! formula on small hand-made sets.

use entail::gen::logicgraph::{self, AnswerSet, InstanceDir, Instances, ScoreConfig};
use entail::prove::{ProveOptions, Prover, SupportOptions};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[path = "reference/shared_corpus.rs"]
mod shared_corpus;

fn prover() -> Prover {
    Prover::new(ProveOptions {
        timeout: Some(Duration::from_secs(20)),
        countermodels: false,
    })
}

/// How every test checks answers: A-notation, a generous time limit.
fn config() -> ScoreConfig {
    ScoreConfig {
        timeout: Duration::from_secs(20),
        ..ScoreConfig::default()
    }
}

/// The set of premise ids a solution rests on.
type Support = BTreeSet<String>;

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A scratch directory for this test process and `tag`.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("entail-score-lg-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// What the tests know about a gold solution, read from solutions.json
/// without the library: its support (the non-`Derived` ids it cites), family
/// and length.
#[derive(Debug, Clone)]
struct FileSolution {
    support: Support,
    family: String,
    steps: usize,
}

fn file_solutions(dir: &Path) -> Vec<FileSolution> {
    let doc = read_json(&dir.join("solutions.json"));
    doc["solutions"]
        .as_array()
        .expect("solutions array")
        .iter()
        .map(|s| {
            let steps = s["steps"].as_array().expect("steps");
            let support = steps
                .iter()
                .flat_map(|st| st["premises_used"].as_array().expect("premises_used"))
                .map(|p| p["id"].as_str().expect("id").to_string())
                .filter(|id| id != "Derived")
                .collect();
            FileSolution {
                support,
                family: s["family_id"].to_string(),
                steps: steps.len(),
            }
        })
        .collect()
}

/// The expected metrics when `kept` (all valid) is answered for gold `all`.
struct Expected {
    diversity: f64,
    versatility: f64,
    shortest_path: f64,
}

fn expected_for(all: &[FileSolution], kept: &[FileSolution]) -> Expected {
    let gold: BTreeSet<&Support> = all.iter().map(|s| &s.support).collect();
    let found: BTreeSet<&Support> = kept
        .iter()
        .map(|s| &s.support)
        .filter(|s| gold.contains(s))
        .collect();
    let mut families: BTreeMap<&str, BTreeSet<&Support>> = BTreeMap::new();
    for s in all {
        families.entry(&s.family).or_default().insert(&s.support);
    }
    let hit = families
        .values()
        .filter(|members| members.iter().any(|m| found.contains(m)))
        .count();
    let min = all.iter().map(|s| s.steps).min().expect("gold solutions");
    Expected {
        diversity: found.len() as f64 / gold.len() as f64,
        versatility: hit as f64 / families.len() as f64,
        shortest_path: if kept.iter().any(|s| s.steps == min) {
            1.0
        } else {
            0.0
        },
    }
}

/// The report's JSON (what `entail score logicgraph --json` prints), read
/// back into the fields these tests check.
#[derive(Debug, Deserialize)]
struct Report {
    gold_errors: Vec<String>,
    answer_sets: Vec<AnswerSetReport>,
}

#[derive(Debug, Deserialize)]
struct AnswerSetReport {
    problems: Vec<String>,
    instances: Vec<InstanceScore>,
    tiers: Vec<Average>,
    all: Average,
}

#[derive(Debug, Clone, Deserialize)]
struct InstanceScore {
    instance: String,
    answered: usize,
    valid: usize,
    unknown: usize,
    success: f64,
    precision: f64,
    shortest_path: f64,
    diversity: f64,
    versatility: f64,
    originality: f64,
    gold_supports: usize,
    supports_found: usize,
    gold_families: usize,
    families_hit: usize,
    gold_min_steps: Option<usize>,
    error: Option<String>,
    solutions: Vec<SolutionScore>,
}

#[derive(Debug, Clone, Deserialize)]
struct SolutionScore {
    id: String,
    valid: Option<bool>,
    support: Vec<String>,
    reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Average {
    tier: String,
    instances: usize,
    success: f64,
    diversity: f64,
}

fn scored(report: &logicgraph::Report) -> Report {
    serde_json::from_value(serde_json::to_value(report).expect("serialises")).expect("reads back")
}

/// Scores one answer text for one instance through the library, as the
/// only answer set (so originality is 1 when it finds a gold support).
fn score_one(dir: &InstanceDir, answer: &str, config: &ScoreConfig) -> InstanceScore {
    let gold = Instances::find(&dir.path).expect("finds the instance");
    let set = AnswerSet::read("answer", answer, &gold);
    let report = scored(&logicgraph::score(&gold, &[set], config, &|_| {}));
    assert_eq!(report.gold_errors, Vec::<String>::new(), "the gold loads");
    report.answer_sets[0].instances[0].clone()
}

#[test]
fn gold_supports_come_from_the_prover_and_match_the_minimal_supports() {
    let Some(root) = shared_corpus::logicgraph_corpus(
        "gold_supports_come_from_the_prover_and_match_the_minimal_supports",
    ) else {
        return;
    };
    let mut prover = prover();
    let instances = Instances::find(&root).expect("finds instances").dirs;
    assert_eq!(instances.len(), 20);
    let names: Vec<&str> = instances.iter().map(|d| d.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "instances are sorted");
    assert!(names.contains(&"Medium/test_119"));
    for dir in &instances {
        assert_eq!(
            Some(dir.tier.as_str()),
            dir.name.split('/').next(),
            "{}",
            dir.name
        );
        // The gold answered with itself: every solution is valid, and the
        // supports the scorer computes are the gold supports.
        let text = std::fs::read_to_string(dir.path.join("solutions.json")).expect("reads");
        let s = score_one(dir, &text, &config());
        assert!(s.solutions.iter().all(|x| x.valid == Some(true)));
        let supports: BTreeSet<Support> = s
            .solutions
            .iter()
            .map(|x| x.support.iter().cloned().collect())
            .collect();
        assert_eq!(s.gold_supports, supports.len(), "{}", dir.name);
        // Differential: those supports are exactly the minimal supports Z3
        // enumerates, and exactly what the file's premises_used ids say.
        let problem = logicgraph::Instances::load(&dir.path, false).expect("loads");
        let enumerated: BTreeSet<Support> = prover
            .minimal_supports(&problem.premises, &problem.goal, &SupportOptions::default())
            .expect("enumerates")
            .supports
            .into_iter()
            .map(|s| s.into_iter().collect())
            .collect();
        assert_eq!(supports, enumerated, "{}", dir.name);
        let from_file: BTreeSet<Support> = file_solutions(&dir.path)
            .into_iter()
            .map(|s| s.support)
            .collect();
        assert_eq!(supports, from_file, "{}", dir.name);
    }
}

#[test]
fn an_instance_answered_with_its_own_solutions_scores_one_everywhere() {
    let Some(root) = shared_corpus::logicgraph_corpus(
        "an_instance_answered_with_its_own_solutions_scores_one_everywhere",
    ) else {
        return;
    };
    for dir in Instances::find(&root).expect("finds").dirs {
        let text = std::fs::read_to_string(dir.path.join("solutions.json")).expect("reads");
        let s = score_one(&dir, &text, &config());
        let k = file_solutions(&dir.path).len();
        assert_eq!((s.answered, s.valid, s.unknown), (k, k, 0), "{}", dir.name);
        assert_eq!(
            (
                s.success,
                s.precision,
                s.shortest_path,
                s.diversity,
                s.versatility,
                s.originality
            ),
            (1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
            "{} (the only answer set has every support it finds to itself)",
            dir.name
        );
        assert_eq!(s.error, None);
    }
}

#[test]
fn half_the_solutions_give_the_independently_computed_fractions() {
    let Some(root) = shared_corpus::logicgraph_corpus(
        "half_the_solutions_give_the_independently_computed_fractions",
    ) else {
        return;
    };
    let instances = Instances::find(&root).expect("finds");
    // A tree answer file keeping the solutions at even positions.
    let mut lines = String::new();
    let mut expected = BTreeMap::new();
    for dir in &instances.dirs {
        let doc = read_json(&dir.path.join("solutions.json"));
        let kept: Vec<Value> = doc["solutions"]
            .as_array()
            .expect("array")
            .iter()
            .step_by(2)
            .cloned()
            .collect();
        lines.push_str(&json!({"instance": dir.name, "solutions": kept}).to_string());
        lines.push('\n');
        let all = file_solutions(&dir.path);
        let kept: Vec<FileSolution> = all.iter().step_by(2).cloned().collect();
        expected.insert(dir.name.clone(), (kept.len(), expected_for(&all, &kept)));
    }
    let set = AnswerSet::read("half.jsonl", &lines, &instances);
    let report = scored(&logicgraph::score(&instances, &[set], &config(), &|_| {}));
    assert!(report.gold_errors.is_empty());
    let scores = &report.answer_sets[0].instances;
    assert_eq!(scores.len(), 20);
    let mut shortest_misses = 0;
    for s in scores {
        let (k, e) = &expected[&s.instance];
        assert_eq!((s.answered, s.valid), (*k, *k), "{}", s.instance);
        assert_eq!(s.precision, 1.0, "{}", s.instance);
        assert_eq!(s.diversity, e.diversity, "{}", s.instance);
        assert_eq!(s.versatility, e.versatility, "{}", s.instance);
        assert_eq!(s.shortest_path, e.shortest_path, "{}", s.instance);
        // A single answer set finds each support alone: 1 when any found.
        assert_eq!(s.originality, 1.0, "{}", s.instance);
        if e.shortest_path == 0.0 {
            shortest_misses += 1;
        }
    }
    assert!(shortest_misses > 0, "the shortest-path case 0 is exercised");
    // Tier averages are the means of the instances' values.
    let all = &report.answer_sets[0].all;
    let mean_div = scores.iter().map(|s| s.diversity).sum::<f64>() / 20.0;
    assert_eq!(all.instances, 20);
    assert!((all.diversity - mean_div).abs() < 1e-12);
    let tiers: Vec<(&str, usize)> = report.answer_sets[0]
        .tiers
        .iter()
        .map(|t| (t.tier.as_str(), t.instances))
        .collect();
    assert_eq!(tiers, vec![("Large", 3), ("Medium", 3), ("Small", 14)]);
}

#[test]
fn corrupting_one_step_lowers_precision_by_exactly_one_over_k() {
    let Some(root) = shared_corpus::logicgraph_corpus(
        "corrupting_one_step_lowers_precision_by_exactly_one_over_k",
    ) else {
        return;
    };
    for dir in Instances::find(&root).expect("finds").dirs {
        let mut doc = read_json(&dir.path.join("solutions.json"));
        let solutions = doc["solutions"].as_array_mut().expect("array");
        let k = solutions.len();
        // Drop one cited gold premise from the first step that cites two or
        // more things, in the first solution.
        let steps = solutions[0]["steps"].as_array_mut().expect("steps");
        let step = steps
            .iter_mut()
            .find(|st| st["premises_used"].as_array().map_or(0, Vec::len) >= 2)
            .expect("a step with two premises");
        let used = step["premises_used"].as_array_mut().expect("array");
        let at = used
            .iter()
            .position(|p| p["id"] != "Derived")
            .expect("a cited gold premise");
        used.remove(at);
        let s = score_one(&dir, &doc.to_string(), &config());
        assert_eq!((s.answered, s.valid), (k, k - 1), "{}", dir.name);
        assert_eq!(s.precision, (k - 1) as f64 / k as f64, "{}", dir.name);
        assert_eq!(s.success, 1.0);
        let bad = &s.solutions[0];
        assert_eq!(bad.valid, Some(false));
        assert!(
            bad.reason
                .as_deref()
                .is_some_and(|r| r.contains("insufficient_premise")),
            "{}: {:?}",
            dir.name,
            bad.reason
        );
    }
}

#[test]
fn invented_premises_are_invalid_and_quoted_formulas_are_ignored() {
    let Some(root) = shared_corpus::logicgraph_corpus(
        "invented_premises_are_invalid_and_quoted_formulas_are_ignored",
    ) else {
        return;
    };
    let dir = Instances::find(&root)
        .expect("finds")
        .dirs
        .into_iter()
        .find(|d| d.name == "Small/test_109")
        .expect("Small/test_109");
    let doc = read_json(&dir.path.join("solutions.json"));

    // An answer citing a premise the gold does not have, quoting the target
    // as its formula: the step is a bad reference, whatever it quotes.
    let mut invented = doc.clone();
    invented["solutions"][0]["steps"][0]["premises_used"][0] =
        json!({"id": "Rule99", "prover9": "G", "prover9_expression": "G"});
    let s = score_one(&dir, &invented.to_string(), &config());
    assert_eq!((s.answered, s.valid), (4, 3));
    let reason = s.solutions[0].reason.as_deref().unwrap_or_default();
    assert!(
        reason.contains("bad_reference") && reason.contains("Rule99"),
        "{reason}"
    );

    // A real id quoted with a false formula: only the id counts, so the
    // solution stays valid (a model cannot redefine a premise either way).
    let mut misquoted = doc.clone();
    misquoted["solutions"][0]["steps"][0]["premises_used"][0]["prover9"] = json!("G");
    let s = score_one(&dir, &misquoted.to_string(), &config());
    assert_eq!((s.answered, s.valid), (4, 4));

    // A step file whose own premise list defines the target as a premise.
    let steps = "formulas(assumptions).\n  G # label(Mine).\nend_of_list.\n\
                 formulas(solution_1).\n  G # label(S1) # from(Mine).\nend_of_list.\n";
    let s = score_one(&dir, steps, &config());
    assert_eq!((s.answered, s.valid, s.success), (1, 0, 0.0));
}

/// The committed fixture: the hand-written instance and step-file answer.
fn fixture() -> (PathBuf, PathBuf) {
    let base = manifest().join("corpora/logicgraph-answers");
    (base.join("Tiny/case_1"), base.join("case_1.answer.in"))
}

#[test]
fn the_hand_written_fixture_scores_as_computed_by_hand() {
    let (gold_dir, answer) = fixture();
    let gold = Instances::find(&gold_dir).expect("finds");
    let dirs = &gold.dirs;
    assert_eq!(dirs.len(), 1);
    assert_eq!(
        (dirs[0].name.as_str(), dirs[0].tier.as_str()),
        ("case_1", "Tiny")
    );
    let text = std::fs::read_to_string(&answer).expect("reads");
    for instantiated in [false, true] {
        let config = ScoreConfig {
            instantiated,
            ..config()
        };
        let s = score_one(&dirs[0], &text, &config);
        assert_eq!(s.gold_min_steps, Some(1));
        assert_eq!(s.gold_supports, 4);
        assert_eq!(s.gold_families, 3);
        let valid: Vec<(&str, Option<bool>)> = s
            .solutions
            .iter()
            .map(|x| (x.id.as_str(), x.valid))
            .collect();
        assert_eq!(
            valid,
            vec![
                ("1", Some(true)),
                ("2", Some(true)),
                ("3", Some(false)),
                ("4", Some(false)),
                ("5", Some(true)),
                ("6", Some(false)),
            ]
        );
        assert_eq!((s.answered, s.valid), (6, 3));
        assert_eq!(s.precision, 0.5);
        assert_eq!(s.success, 1.0);
        assert_eq!(s.shortest_path, 1.0);
        assert_eq!((s.supports_found, s.gold_supports), (2, 4));
        assert_eq!(s.diversity, 0.5);
        assert_eq!((s.families_hit, s.gold_families), (2, 3));
        assert_eq!(s.versatility, 2.0 / 3.0);
        assert_eq!(
            s.solutions[5].reason.as_deref(),
            Some("unreadable at 39:3: a step needs `# from(LABEL, ...)`")
        );
    }
}

#[test]
fn the_cli_reproduces_the_golden_report_of_the_fixture() {
    let output = Command::new(env!("CARGO_BIN_EXE_entail"))
        .current_dir(manifest())
        .args([
            "score",
            "logicgraph",
            "--gold",
            "corpora/logicgraph-answers/Tiny/case_1",
            "--answers",
            "corpora/logicgraph-answers/case_1.answer.in",
            "--json",
        ])
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    let got: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let want = read_json(&manifest().join("corpora/logicgraph-answers/case_1.expected.json"));
    assert_eq!(got, want);
    let text = Command::new(env!("CARGO_BIN_EXE_entail"))
        .current_dir(manifest())
        .args([
            "score",
            "logicgraph",
            "--gold",
            "corpora/logicgraph-answers/Tiny/case_1",
            "--answers",
            "corpora/logicgraph-answers/case_1.answer.in",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8(text.stdout).expect("utf-8");
    assert!(text.contains("case_1 solution 4: step S1 is invalid (insufficient_premise)\n"));
    assert!(text
        .lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>()
            == ["all", "1", "1.0000", "0.5000", "1.0000", "0.5000", "0.6667", "1.0000"]));
}

#[test]
fn originality_across_three_answer_files_on_the_fixture() {
    let (gold_dir, answer) = fixture();
    let dirs = Instances::find(&gold_dir).expect("finds");
    let doc = read_json(&gold_dir.join("solutions.json"));
    let gold_solutions = doc["solutions"].as_array().expect("array");
    // Set A: the step-file answer, finds {Rule5, Rule6, Fact4} and
    // {Rule1, Rule2, Fact1}. Set B: gold solutions 1-3, finds
    // {Rule1, Rule2, Fact1}, {Rule3, Fact2}, {Rule4, Rule5, Fact3}.
    // Set C: no solution. f = 2 for {Rule1, Rule2, Fact1}, else 1.
    let a = AnswerSet::read("a", &std::fs::read_to_string(answer).expect("reads"), &dirs);
    let b = AnswerSet::read(
        "b",
        &Value::Array(gold_solutions[..3].to_vec()).to_string(),
        &dirs,
    );
    let c = AnswerSet::read("c", "[]", &dirs);
    let report = scored(&logicgraph::score(&dirs, &[a, b, c], &config(), &|_| {}));
    let got: Vec<f64> = report
        .answer_sets
        .iter()
        .map(|s| s.instances[0].originality)
        .collect();
    assert_eq!(got, vec![(1.0 + 0.5) / 2.0, (0.5 + 1.0 + 1.0) / 3.0, 0.0]);
    let c = &report.answer_sets[2].instances[0];
    assert_eq!((c.answered, c.success, c.precision), (0, 0.0, 0.0));
}

#[test]
fn bad_lines_are_reported_and_the_rest_of_the_batch_is_scored() {
    let Some(root) = shared_corpus::logicgraph_corpus(
        "bad_lines_are_reported_and_the_rest_of_the_batch_is_scored",
    ) else {
        return;
    };
    let instances = Instances::find(&root).expect("finds");
    let good = |name: &str| {
        let dir = instances.dirs.iter().find(|d| d.name == name).expect(name);
        let doc = read_json(&dir.path.join("solutions.json"));
        json!({"instance": name, "solutions": doc["solutions"]}).to_string()
    };
    let lines = [
        good("Small/test_109"),                                      // 1
        "{\"instance\": \"Small/test_120\", \"solutions\": [".into(), // 2: broken JSON
        json!({"instance": "Small/test_79", "steps": "formulas(solution_1).\n G # from(Rule1\nend_of_list."})
            .to_string(), // 3: step-file syntax error
        json!({"instance": "Small/test_190", "steps": 7}).to_string(), // 4
        json!({"instance": "Small/nope", "solutions": []}).to_string(), // 5
        good("Small/test_109"),                                      // 6: repeated
        good("Large/test_288"),                                      // 7
    ]
    .join("\n");
    let set = AnswerSet::read("m.jsonl", &lines, &instances);
    let bad: Vec<String> = set.bad_lines().map(String::from).collect();
    assert_eq!(bad.len(), 4, "{bad:?}");
    assert!(bad[0].starts_with("m.jsonl:2: invalid JSON"));
    assert!(bad[1].starts_with("m.jsonl:5: no gold instance `Small/nope`"));
    assert!(bad[2].starts_with("m.jsonl:6: a second answer"));
    assert_eq!(bad[3], "m.jsonl:4: `steps` is not a string");
    let report = scored(&logicgraph::score(&instances, &[set], &config(), &|_| {}));
    assert_eq!(report.answer_sets[0].problems, bad[..3]);
    let by_name: BTreeMap<&str, &InstanceScore> = report.answer_sets[0]
        .instances
        .iter()
        .map(|s| (s.instance.as_str(), s))
        .collect();
    assert_eq!(by_name.len(), 20);
    for perfect in ["Small/test_109", "Large/test_288"] {
        assert_eq!(by_name[perfect].diversity, 1.0, "{perfect}");
        assert_eq!(by_name[perfect].precision, 1.0, "{perfect}");
    }
    let syntax = by_name["Small/test_79"];
    assert_eq!((syntax.answered, syntax.success), (0, 0.0));
    assert!(
        syntax
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("m.jsonl:3: answer at 3:1: ")),
        "{:?}",
        syntax.error
    );
    assert_eq!(
        by_name["Small/test_190"].error.as_deref(),
        Some("m.jsonl:4: `steps` is not a string")
    );
    assert_eq!(
        by_name["Small/test_120"].error.as_deref(),
        Some("m.jsonl: no answer for this instance")
    );
    let all = &report.answer_sets[0].all;
    assert_eq!(all.success, 2.0 / 20.0);
}

#[test]
fn the_cli_scores_a_tree_with_two_answer_files() {
    let Some(root) =
        shared_corpus::logicgraph_corpus("the_cli_scores_a_tree_with_two_answer_files")
    else {
        return;
    };
    let instances = Instances::find(&root).expect("finds");
    let dir = scratch("cli");
    let mut full = String::new();
    let mut first = String::new();
    for d in &instances.dirs {
        let doc = read_json(&d.path.join("solutions.json"));
        full.push_str(&json!({"instance": d.name, "solutions": doc["solutions"]}).to_string());
        full.push('\n');
        first
            .push_str(&json!({"instance": d.name, "solutions": [doc["solutions"][0]]}).to_string());
        first.push('\n');
    }
    full.push_str("garbage\n");
    std::fs::write(dir.join("full.jsonl"), &full).expect("writes");
    std::fs::write(dir.join("first.jsonl"), &first).expect("writes");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_entail"))
            .args(["score", "logicgraph", "--gold"])
            .arg(&root)
            .arg("--answers")
            .arg(dir.join("full.jsonl"))
            .arg("--answers")
            .arg(dir.join("first.jsonl"))
            .args(extra)
            .output()
            .expect("runs")
    };
    let out = run(&["--json"]);
    assert!(out.status.success(), "{out:?}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["instances"], 20);
    let sets = report["answer_sets"].as_array().expect("sets");
    assert_eq!(sets.len(), 2);
    assert_eq!(sets[0]["problems"].as_array().map(Vec::len), Some(1));
    for (k, d) in instances.dirs.iter().enumerate() {
        let n = file_solutions(&d.path)
            .iter()
            .map(|s| s.support.clone())
            .collect::<BTreeSet<_>>()
            .len() as f64;
        let full_score = &sets[0]["instances"][k];
        let first_score = &sets[1]["instances"][k];
        assert_eq!(full_score["instance"], json!(d.name));
        // Full set: every support, the first one shared with the other set.
        // (serde_json's default float parsing may be off in the last bit.)
        let close = |v: &Value, want: f64| v.as_f64().is_some_and(|x| (x - want).abs() < 1e-12);
        assert!(
            close(&full_score["originality"], (n - 1.0 + 0.5) / n),
            "{}",
            d.name
        );
        assert!(close(&first_score["originality"], 0.5), "{}", d.name);
        assert!(close(&first_score["diversity"], 1.0 / n), "{}", d.name);
    }
    let text = run(&[]);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).expect("utf-8");
    assert!(text.contains("Small/test_109"));
    assert!(text
        .lines()
        .any(|l| l.starts_with("all ") && l.contains(" 20 ")));
    assert!(text.contains("full.jsonl:21: invalid JSON"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_cli_rejects_what_it_cannot_score() {
    let bin = env!("CARGO_BIN_EXE_entail");
    let (gold_dir, answer) = fixture();
    let missing = Command::new(bin)
        .args([
            "score",
            "logicgraph",
            "--gold",
            "/nonexistent/gold",
            "--answers",
        ])
        .arg(&answer)
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(1));
    let no_file = Command::new(bin)
        .args(["score", "logicgraph", "--gold"])
        .arg(&gold_dir)
        .args(["--answers", "/nonexistent/answers.jsonl"])
        .output()
        .expect("runs");
    assert_eq!(no_file.status.code(), Some(1));
    let help = Command::new(bin)
        .args(["score", "logicgraph", "--help"])
        .output()
        .expect("runs");
    let help = String::from_utf8(help.stdout).expect("utf-8");
    assert!(help.contains("originality") && help.contains("1/f(s)") && help.contains("Examples:"));
}

/// A formula as written in the files, connectives and spacing normalised,
/// to find which earlier step a `Derived` premise quotes.
fn normal(formula: &str) -> String {
    formula
        .replace('→', "->")
        .replace('¬', "-")
        .replace('∧', "&")
        .replace('∨', "|")
        .replace(' ', "")
}

/// The prompt's answer format (`Solution n:` blocks of `Step k: [..] => ..
/// (Used: [..])`, the last block under the older `Path n:` header), written
/// by the test straight from a solutions.json: a `Derived` premise becomes
/// `Step j`, the earlier step with its conclusion, and each conclusion is
/// the step's `conclusion` formula or its `natural` sentence.
fn path_answer(solutions: &Value, words: bool) -> String {
    let mut text = String::from("Here are the paths.\n\n");
    let sols = solutions["solutions"].as_array().expect("solutions");
    for (k, sol) in sols.iter().enumerate() {
        let header = if k + 1 == sols.len() {
            "Path"
        } else {
            "Solution"
        };
        text.push_str(&format!("**{header} {}:**\n", sol["id"]));
        let steps = sol["steps"].as_array().expect("steps");
        for (i, st) in steps.iter().enumerate() {
            let field = if words { "natural" } else { "conclusion" };
            let conclusion = st[field].as_str().expect("conclusion");
            let cited: Vec<String> = st["premises_used"]
                .as_array()
                .expect("premises")
                .iter()
                .map(|p| match p["id"].as_str().expect("id") {
                    "Derived" => {
                        let quoted = normal(p["prover9"].as_str().expect("prover9"));
                        let j = steps[..i]
                            .iter()
                            .rposition(|e| {
                                e["conclusion"].as_str().map(normal) == Some(quoted.clone())
                            })
                            .expect("an earlier step");
                        format!("Step {}", j + 1)
                    }
                    id => id.to_string(),
                })
                .collect();
            let cited = cited.join(", ");
            text.push_str(&format!(
                "Step {}: [{cited}] => {conclusion} (Used: [{cited}])\n",
                i + 1,
            ));
        }
    }
    text
}

fn metrics(s: &InstanceScore) -> (usize, usize, f64, f64, f64, f64, f64) {
    (
        s.answered,
        s.valid,
        s.success,
        s.precision,
        s.shortest_path,
        s.diversity,
        s.versatility,
    )
}

/// Path-format answers score exactly as the same solutions in JSON; a path
/// with a wrong conclusion is answered and invalid.
#[test]
fn path_format_answers_score_as_the_same_solutions_in_json() {
    let (gold_dir, _) = fixture();
    let dir = &Instances::find(&gold_dir).expect("finds").dirs[0];
    let doc = read_json(&gold_dir.join("solutions.json"));
    let text = path_answer(&doc, false);
    let json = std::fs::read_to_string(gold_dir.join("solutions.json")).expect("reads");
    let from_json = score_one(dir, &json, &config());
    let from_paths = score_one(dir, &text, &config());
    assert_eq!((from_paths.answered, from_paths.valid), (5, 5), "{text}");
    assert_eq!(metrics(&from_paths), metrics(&from_json));
    // Path 2 concluding A5 instead of G no longer reaches the target.
    let wrong = text.replacen(
        "Step 1: [Rule3, Fact2] => G",
        "Step 1: [Rule3, Fact2] => A5",
        1,
    );
    assert_ne!(wrong, text);
    let s = score_one(dir, &wrong, &config());
    assert_eq!((s.answered, s.valid), (5, 4));
}

/// On generated instances, whose prompt words every statement, conclusions
/// written as the prompt's sentences score as the formulas do.
#[test]
fn path_answers_in_words_score_as_the_gold_solutions() {
    if !shared_corpus::wordnet("path_answers_in_words_score_as_the_gold_solutions") {
        return;
    }
    let root = scratch("words");
    let generation = logicgraph::Config {
        seed: 5,
        count: 3,
        ..logicgraph::Config::for_tier(logicgraph::Tier::Small)
    };
    logicgraph::generate(&generation, &root, &|_| {}).expect("generates");
    for dir in Instances::find(&root).expect("finds").dirs {
        let doc = read_json(&dir.path.join("solutions.json"));
        let k = file_solutions(&dir.path).len();
        let s = score_one(&dir, &path_answer(&doc, true), &config());
        assert_eq!(
            (s.answered, s.valid, s.success, s.diversity),
            (k, k, 1.0, 1.0),
            "{}",
            dir.name
        );
        // A sentence no node has is not read.
        let mut text = path_answer(&doc, true);
        let last = text.rfind("=> ").expect("a step") + 3;
        text.insert_str(last, "Perhaps ");
        let s = score_one(&dir, &text, &config());
        assert_eq!((s.answered, s.valid), (k, k - 1), "{}", dir.name);
    }
    let _ = std::fs::remove_dir_all(&root);
}

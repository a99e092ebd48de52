//! `entail gen slr` / `entail score slr`: tasks across all 20 levels are
//! solved by their own rule (judge and SWI-Prolog run the reference way),
//! not by a trivial rule; backgrounds obey the grammar; mirror pairs differ
//! only in rule-relevant atoms; output is deterministic and deduplicated.

#[path = "reference/slr_baseline.rs"]
mod baseline;

use entail::gen::slr::{
    self, Answer, Config, Language, PromptStyle, ScoreConfig, ScoredTask, SlrTask, Split, Stats,
    Theta,
};
use entail::judge::{Judge, JudgeConfig, TaskRecord};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// Two workers of the `entail-worker` this build made.
fn judge_config() -> JudgeConfig {
    let mut config = JudgeConfig::default();
    config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    config.workers = 2;
    config
}

fn judge() -> &'static Judge {
    static JUDGE: OnceLock<Judge> = OnceLock::new();
    JUDGE.get_or_init(|| Judge::new(judge_config()))
}

fn generate(
    levels: Vec<u32>,
    count: u64,
    seed: u64,
    prompt: PromptStyle,
    threads: usize,
) -> (String, Stats) {
    let config = Config {
        seed,
        levels,
        count,
        split: Split::Test,
        prompt,
        language: Language::trains(),
        threads,
        judge: judge_config(),
        test_tasks: count,
        ..Config::default()
    };
    let mut out = Vec::new();
    let stats = slr::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
    (String::from_utf8(out).expect("utf-8"), stats)
}

fn parse_tasks(text: &str) -> Vec<SlrTask> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("task line parses"))
        .collect()
}

/// The facts of one validation program, as (predicate, first arg, second arg),
/// read with a deliberately simple line parser independent of entail's.
fn facts(program: &str) -> Vec<(String, String, Option<String>)> {
    program
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let l = l.trim().strip_suffix(").").expect("fact ends with ).");
            let (name, args) = l.split_once('(').expect("fact has arguments");
            let mut parts = args.split(", ");
            let first = parts.next().expect("first argument").to_string();
            let second = parts.next().map(str::to_string);
            assert!(parts.next().is_none(), "at most two arguments: {l}");
            (name.to_string(), first, second)
        })
        .collect()
}

/// Per train (in order): its label and its facts with car names replaced by
/// their position, so two trains can be compared atom by atom.
type Atom = (String, String, String);

fn trains(program: &str) -> Vec<(String, BTreeSet<Atom>)> {
    let mut out: Vec<(String, BTreeSet<Atom>)> = Vec::new();
    for (name, first, second) in facts(program) {
        match second {
            None => out.push((name, BTreeSet::new())),
            Some(second) => {
                let normal = |s: &str| match s.strip_prefix("car").and_then(|r| r.split_once('_')) {
                    Some((_, c)) => format!("car_{c}"),
                    None if s.starts_with("train") => "train".to_string(),
                    None => s.to_string(),
                };
                out.last_mut().expect("a label fact comes first").1.insert((
                    name,
                    normal(&first),
                    normal(&second),
                ));
            }
        }
    }
    out
}

/// The size of a maximum matching of left nodes to right nodes (`edges[l]`
/// lists the right nodes left node `l` may take), by augmenting paths.
fn perfect_matching(edges: &[Vec<usize>], right: usize) -> usize {
    fn augment(
        l: usize,
        edges: &[Vec<usize>],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for &r in &edges[l] {
            if !seen[r] {
                seen[r] = true;
                if owner[r].map_or(true, |o| augment(o, edges, seen, owner)) {
                    owner[r] = Some(l);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = vec![None; right];
    (0..edges.len())
        .filter(|&l| augment(l, edges, &mut vec![false; right], &mut owner))
        .count()
}

/// The grammar of the issue, checked per car from the printed facts.
fn grammar_violations(program: &str, active: &BTreeSet<String>) -> Vec<String> {
    let mut cars: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (name, first, second) in facts(program) {
        let Some(second) = second else { continue };
        if name == "has_car" {
            cars.entry(second).or_default();
        } else {
            cars.entry(first)
                .or_default()
                .entry(name)
                .or_default()
                .push(second);
        }
    }
    let mut bad = Vec::new();
    for (car, attributes) in &cars {
        let names: BTreeSet<String> = attributes.keys().cloned().collect();
        if &names != active {
            bad.push(format!("{car}: predicates {names:?}, expected {active:?}"));
        }
        if attributes.values().any(|v| v.len() != 1) {
            bad.push(format!("{car}: a predicate with several values"));
        }
        let get = |p: &str| {
            attributes
                .get(p)
                .and_then(|v| v.first())
                .map(String::as_str)
        };
        let num = |p: &str| get(p).and_then(|v| v.parse::<u32>().ok());
        if get("car_len") == Some("short") && get("has_wheel").is_some_and(|w| w != "2") {
            bad.push(format!("{car}: short with {:?} wheels", get("has_wheel")));
        }
        if get("car_len") == Some("short") && num("load_num").is_some_and(|n| n > 2) {
            bad.push(format!("{car}: short with load {:?}", num("load_num")));
        }
        if let (Some(load), Some(payload)) = (num("load_num"), get("has_payload")) {
            if (load == 0) != (payload == "none") {
                bad.push(format!("{car}: load {load} with payload {payload}"));
            }
        }
        if get("car_type") == Some("passenger")
            && (num("load_num").is_some_and(|n| n > 0)
                || get("has_payload").is_some_and(|p| p != "none"))
        {
            bad.push(format!("{car}: passenger car with a load"));
        }
        if get("car_type") == Some("freight") && num("passenger_num").is_some_and(|n| n > 0) {
            bad.push(format!("{car}: freight car with passengers"));
        }
        if get("has_wheel") == Some("3") && get("car_len").is_some_and(|l| l != "long") {
            bad.push(format!("{car}: 3 wheels but not long"));
        }
    }
    bad
}

const ALL_PREDICATES: [&str; 12] = [
    "has_car",
    "car_num",
    "car_color",
    "car_len",
    "has_wall",
    "has_roof",
    "has_wheel",
    "has_payload",
    "load_num",
    "has_window",
    "car_type",
    "passenger_num",
];

/// The central property: across all 20 levels every task is solved by its
/// own rule (judge and SWI-Prolog), the trivial rule fails, the grammar
/// holds, mirror pairs differ only in rule-relevant atoms, sizes are right.
#[test]
fn every_level_yields_valid_tasks() {
    assert!(baseline::swipl_available(), "swipl is required");
    let (text, stats) = generate((1..=20).collect(), 3, 11, PromptStyle::Prolog, 2);
    let tasks = parse_tasks(&text);
    assert_eq!(tasks.len(), 60, "stats: {stats:?}");
    assert_eq!(stats.tasks, 60);
    let trivial = "eastbound(T) :- has_car(T, _).";
    let mut keys = BTreeSet::new();
    for task in &tasks {
        let level = slr::Theta::default().level(task.curriculum_level).unwrap();
        let record = TaskRecord {
            validation_program: task.validation_program.clone(),
            evaluation_config: Some(task.evaluation_config.clone()),
            ..Default::default()
        };
        let loaded = judge().task(&record).expect("task loads");
        let own = loaded.score(&task.ground_truth_rule);
        assert!(
            own.is_correct,
            "{}: {} -> {own:?}",
            task.id, task.ground_truth_rule
        );
        assert_eq!(own.partial_score, 1.0);
        let reference = baseline::score(
            &task.validation_program,
            &task.ground_truth_rule,
            "eastbound",
            "westbound",
        )
        .expect("swipl runs");
        assert_eq!(
            reference.partial_score, 1.0,
            "swipl on {}: {}",
            task.id, task.ground_truth_rule
        );

        let examples = trains(&task.validation_program);
        let positives = examples.iter().filter(|(l, _)| l == "eastbound").count();
        let negatives = examples.iter().filter(|(l, _)| l == "westbound").count();
        assert_eq!(
            (positives, negatives),
            (level.kappa_pos, level.kappa_neg),
            "{}",
            task.id
        );
        assert_eq!(task.problem_size, level.problem_size());
        assert!(negatives > 0);
        let trivial_result = loaded.score(trivial);
        assert!(
            trivial_result.syntax_valid && !trivial_result.is_correct,
            "{}",
            task.id
        );
        assert_eq!(trivial_result.partial_score, 0.5, "{}", task.id);

        let active: BTreeSet<String> = ALL_PREDICATES[1..level.predicates]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let bad = grammar_violations(&task.validation_program, &active);
        assert!(bad.is_empty(), "{}: {bad:?}", task.id);
        for (_, facts) in &examples {
            let cars = facts.iter().filter(|f| f.0 == "has_car").count();
            assert!(
                (level.cars.0..=level.cars.1).contains(&cars),
                "{}: {cars} cars",
                task.id
            );
        }

        assert_eq!(
            task.background_sampling,
            if task.curriculum_level <= 5 {
                "mirror"
            } else {
                "uniform"
            }
        );
        if task.curriculum_level <= 5 {
            assert_eq!(task.rule_sampling, "uniform");
            // Trains are shuffled, so pairs are found again: every positive
            // has its own negative differing only in the rule's predicates.
            let is_mirror = |p: &BTreeSet<Atom>, n: &BTreeSet<Atom>| {
                let changed: BTreeSet<&String> =
                    p.symmetric_difference(n).map(|atom| &atom.0).collect();
                !changed.is_empty()
                    && changed
                        .iter()
                        .all(|q| task.ground_truth_rule.contains(&format!("{q}(")))
            };
            let side = |label: &str| -> Vec<&BTreeSet<Atom>> {
                examples
                    .iter()
                    .filter(|(l, _)| l == label)
                    .map(|(_, f)| f)
                    .collect()
            };
            let (pos, neg) = (side("eastbound"), side("westbound"));
            let edges: Vec<Vec<usize>> = pos
                .iter()
                .map(|p| (0..neg.len()).filter(|&n| is_mirror(p, neg[n])).collect())
                .collect();
            assert_eq!(
                perfect_matching(&edges, neg.len()),
                pos.len(),
                "{}: no mirror pairing under {}",
                task.id,
                task.ground_truth_rule
            );
        }
        // Θ in the published fields, written as Table 2 writes it.
        let span = |(lo, hi): (usize, usize)| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            }
        };
        assert_eq!(task.vocabulary_car_constants, span(level.cars));
        assert_eq!(task.rule_complexity, span(level.rule_length));
        assert_eq!(task.vocabulary_predicates, level.predicates);
        let predicates: BTreeSet<String> = facts(&task.validation_program)
            .into_iter()
            .filter(|f| f.2.is_some())
            .map(|f| f.0)
            .collect();
        let active: BTreeSet<String> = ALL_PREDICATES[..level.predicates]
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(predicates, active);
        assert_eq!(task.symbols, task.validation_program);
        assert!(task
            .prompt
            .contains(&task.validation_program.replace("\n\n", "\n")));
        assert!(keys.insert((
            task.curriculum_level,
            task.ground_truth_rule.clone(),
            task.validation_program.clone()
        )));
        assert!(task.ground_truth_rule.starts_with("eastbound(T) :- "));
    }
}

/// Labels sit on random train numbers: whether a train's number (its
/// position in the file) is even agrees with its label about half the
/// time (always, when labels alternated).
#[test]
fn labels_are_not_tied_to_train_numbers() {
    let (text, _) = generate(vec![3, 8, 14], 6, 12, PromptStyle::Prolog, 2);
    let (mut agree, mut total) = (0, 0);
    for task in parse_tasks(&text) {
        for (i, (label, _)) in trains(&task.validation_program).iter().enumerate() {
            agree += ((i % 2 == 0) == (label == "eastbound")) as usize;
            total += 1;
        }
    }
    let rate = agree as f64 / total as f64;
    println!("even train number agrees with eastbound for {agree} of {total} trains");
    assert!(total >= 150, "{total}");
    assert!((0.4..=0.6).contains(&rate), "{agree} of {total}");
}

#[test]
fn field_names_are_the_slr_bench_ones() {
    let (text, _) = generate(vec![2], 1, 3, PromptStyle::Prolog, 1);
    let value: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
    let mut expected = vec![
        "id",
        "prompt",
        "ground-truth rule",
        "validation program",
        "curriculum level",
        "curriculum tier",
        "rule sampling",
        "rule complexity",
        "background sampling",
        "problem size",
        "vocabulary predicates",
        "vocabulary car constants",
        "symbols",
        "evaluation_config",
        "seed",
        "construct",
        "rule length",
    ];
    expected.sort();
    let mut keys: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(keys, expected);
    assert_eq!(
        value["evaluation_config"]["positive_predicate"],
        "eastbound"
    );
    assert_eq!(
        value["evaluation_config"]["negative_predicate"],
        "westbound"
    );
    assert_eq!(value["seed"], 3);
    // The published types: integers and strings.
    assert_eq!(value["id"], 0);
    assert_eq!(value["curriculum level"], 2);
    assert_eq!(value["rule complexity"], "1-2");
    assert_eq!(value["vocabulary predicates"], 5);
    assert_eq!(value["vocabulary car constants"], "1");
    assert_eq!(value["problem size"], 2);
    assert!(value["symbols"].is_string());
}

#[test]
fn reruns_are_byte_identical_and_thread_independent() {
    let levels = vec![1, 4, 7, 9];
    let (a, _) = generate(levels.clone(), 4, 5, PromptStyle::Prolog, 1);
    let (b, _) = generate(levels.clone(), 4, 5, PromptStyle::Prolog, 2);
    assert_eq!(a, b);
    let (c, _) = generate(levels, 4, 6, PromptStyle::Prolog, 2);
    assert_ne!(a, c);
    // The CLI writes the same bytes as the library.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
        .args([
            "gen", "slr", "--levels", "4-4", "--count", "4", "--seed", "5", "--split", "test",
            "-o", "-",
        ])
        .output()
        .expect("entail runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (d, _) = generate(vec![4], 4, 5, PromptStyle::Prolog, 1);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), d);
}

#[test]
fn natural_language_prompts_render_every_fact() {
    let (text, _) = generate(vec![12], 2, 9, PromptStyle::NaturalLanguage, 2);
    for task in parse_tasks(&text) {
        assert!(!task.prompt.contains("has_car(train0"));
        for (name, first, second) in facts(&task.validation_program) {
            let sentence = match (name.as_str(), second) {
                ("eastbound" | "westbound", None) => format!("Train {first} is {name}."),
                ("has_car", Some(car)) => format!("Train {first} has a car {car}."),
                ("car_color" | "car_len", Some(v)) => format!("The car {first} is {v}."),
                ("load_num", Some(v)) => match v.as_str() {
                    "0" => format!("The car {first} carries no load."),
                    "1" => format!("The car {first} carries 1 load."),
                    _ => format!("The car {first} carries {v} loads."),
                },
                ("has_payload", Some(v)) => match v.as_str() {
                    "none" => format!("The car {first} has no payload."),
                    "oval_vase" => format!("The car {first} has an oval vase payload."),
                    _ => format!("The car {first} has a {} payload.", v.replace('_', " ")),
                },
                ("car_num", Some(v)) => format!("The car {first} is at position {v} in its train."),
                ("has_wheel", Some(v)) => format!("The car {first} has {v} wheels."),
                ("has_wall", Some(v)) if v == "railing" => {
                    format!("The car {first} has a railing.")
                }
                ("has_wall", Some(v)) => format!("The car {first} has a {v} wall."),
                ("has_roof", Some(v)) if v == "none" => format!("The car {first} has no roof."),
                ("has_roof", Some(v)) => format!("The car {first} has a {}.", v.replace('_', " ")),
                (other, _) => panic!("unexpected predicate {other} at level 12"),
            };
            assert!(task.prompt.contains(&sentence), "missing {sentence:?}");
        }
    }
}

/// [`slr::score`] on answers given as a map from id to prediction.
fn score(tasks: &[ScoredTask], answers: &BTreeMap<u64, String>) -> slr::Report {
    let answers: Vec<Answer> = answers
        .iter()
        .map(|(id, prediction)| Answer {
            id: serde_json::Value::from(*id),
            prediction: prediction.clone(),
        })
        .collect();
    let config = ScoreConfig {
        judge: judge_config(),
    };
    slr::score(tasks, &answers, &config, &|_| {})
}

#[test]
fn score_reports_levels_tiers_syntax_and_lrl() {
    let (text, _) = generate(vec![1, 7], 2, 21, PromptStyle::Prolog, 2);
    let tasks: Vec<ScoredTask> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let full = parse_tasks(&text);
    let mut answers = BTreeMap::new();
    // Level 1: both solved. Level 7: one solved, one unparsable. (The second
    // level-1 answer is wrapped as a model would.)
    answers.insert(full[0].id, full[0].ground_truth_rule.clone());
    answers.insert(
        full[1].id,
        format!(
            "Reasoning...\n[RULE]\n{}\n[/RULE]",
            full[1].ground_truth_rule
        ),
    );
    answers.insert(full[2].id, full[2].ground_truth_rule.clone());
    answers.insert(full[3].id, "eastbound(T) :- has_car(T, C".to_string());
    let report = score(&tasks, &answers);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["levels"]["1"]["solved"], 2);
    assert_eq!(json["levels"]["7"]["solved"], 1);
    assert_eq!(json["levels"]["7"]["accuracy"], 0.5);
    assert_eq!(json["tiers"]["basic"]["accuracy"], 1.0);
    assert_eq!(json["tiers"]["easy"]["accuracy"], 0.5);
    assert_eq!(json["overall"]["solved"], 3);
    assert_eq!(report.syntax_score, 0.75);
    assert_eq!(report.lrl, 1.5);
    assert_eq!(report.missing_answers, 0);
    // Without answers everything is wrong and missing.
    let empty = score(&tasks, &BTreeMap::new());
    assert_eq!(
        (empty.lrl, empty.syntax_score, empty.missing_answers),
        (0.0, 0.0, 4)
    );
}

#[test]
fn duplicates_are_replaced_and_never_written() {
    // Level 2 has few distinct tasks (one car, three attributes), so a run
    // of 60 meets duplicates; they are dropped and replaced.
    let (text, stats) = generate(vec![2], 60, 4, PromptStyle::Prolog, 2);
    let tasks = parse_tasks(&text);
    assert_eq!(tasks.len(), 60);
    assert!(stats.duplicates > 0, "{stats:?}");
    let keys: BTreeSet<(String, String)> = tasks
        .iter()
        .map(|t| (t.ground_truth_rule.clone(), t.validation_program.clone()))
        .collect();
    assert_eq!(keys.len(), 60);
    let ids: Vec<u64> = tasks.iter().map(|t| t.id).collect();
    assert_eq!(ids, (0..60).collect::<Vec<_>>());
}

#[test]
fn pattern_guided_rules_appear_from_level_6() {
    let (text, _) = generate(vec![6, 11], 10, 8, PromptStyle::Prolog, 2);
    let tasks = parse_tasks(&text);
    let pattern = tasks
        .iter()
        .filter(|t| t.rule_sampling == "pattern-guided")
        .count();
    // 30% of 20 draws: 0 or 20 would mean the policy is not applied.
    assert!((1..20).contains(&pattern), "{pattern} pattern-guided of 20");
    for task in &tasks {
        let record = TaskRecord {
            validation_program: task.validation_program.clone(),
            ..Default::default()
        };
        assert!(
            judge()
                .task(&record)
                .unwrap()
                .score(&task.ground_truth_rule)
                .is_correct
        );
    }
}

#[test]
fn score_command_prints_the_report() {
    let (text, _) = generate(vec![3], 2, 13, PromptStyle::Prolog, 1);
    let tasks = parse_tasks(&text);
    let dir = std::env::temp_dir().join(format!("entail_gen_slr_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tasks_path = dir.join("tasks.jsonl");
    let answers_path = dir.join("answers.jsonl");
    std::fs::write(&tasks_path, &text).unwrap();
    let answer = serde_json::json!({"id": tasks[0].id, "prediction": tasks[0].ground_truth_rule});
    std::fs::write(&answers_path, format!("{answer}\n")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(["score", "slr", "--json", "--tasks"])
        .arg(&tasks_path)
        .arg("--answers")
        .arg(&answers_path)
        .output()
        .expect("entail runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["lrl"], 0.5);
    assert_eq!(report["syntax_score"], 0.5);
    assert_eq!(report["missing_answers"], 1);
    assert_eq!(report["levels"]["3"]["solved"], 1);
    assert_eq!(report["tiers"]["basic"]["total"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_grammar_checker_itself_catches_violations() {
    let active: BTreeSet<String> = ["car_num", "car_len", "has_wheel", "load_num", "has_payload"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let program = "eastbound(train0).\nhas_car(train0, car0_1).\ncar_num(car0_1, 1).\n\
        car_len(car0_1, short).\nhas_wheel(car0_1, 3).\nload_num(car0_1, 0).\nhas_payload(car0_1, barrel).\n";
    let bad = grammar_violations(program, &active);
    assert_eq!(bad.len(), 3, "{bad:?}"); // short+3 wheels, load 0 with payload, 3 wheels not long
    let missing = "eastbound(train0).\nhas_car(train0, car0_1).\ncar_num(car0_1, 1).\n";
    assert_eq!(grammar_violations(missing, &active).len(), 1);
}

#[test]
fn a_user_language_drives_names_labels_and_grammar() {
    let json = r#"{
      "name": "boxes",
      "labels": { "positive": "accepted", "negative": "rejected" },
      "train_constant": "crate{train}",
      "car_constant": "box{train}_{car}",
      "membership": { "name": "in_crate", "sentence": "Crate {train} holds box {car}." },
      "position": { "name": "slot", "sentence": "Box {car} is in slot {value}." },
      "attributes": [
        { "name": "shade", "values": ["dark", "light"], "sentence": "Box {car} is {value}." },
        { "name": "size", "values": ["small", "big"], "sentence": "Box {car} is {value}." },
        { "name": "weight", "values": ["1", "2", "3"], "numeric": true, "sentence": "Box {car} weighs {value}." }
      ],
      "order": ["in_crate", "slot", "shade", "size", "weight"],
      "constraints": [
        { "if": { "predicate": "size", "in": ["small"] }, "then": { "predicate": "weight", "in": ["1"] } }
      ]
    }"#;
    let language = Language::from_json(json).expect("language parses");
    let config = Config {
        seed: 1,
        levels: vec![4, 6],
        count: 3,
        split: Split::Train,
        prompt: PromptStyle::NaturalLanguage,
        language,
        judge: judge_config(),
        ..Config::default()
    };
    let mut out = Vec::new();
    slr::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
    let tasks = parse_tasks(&String::from_utf8(out).unwrap());
    assert_eq!(tasks.len(), 6);
    for task in &tasks {
        assert!(
            task.ground_truth_rule.starts_with("accepted(T) :- "),
            "{}",
            task.ground_truth_rule
        );
        let first = task.validation_program.lines().take(2).collect::<Vec<_>>();
        assert!(
            first == ["accepted(crate0).", "in_crate(crate0, box0_1)."]
                || first == ["rejected(crate0).", "in_crate(crate0, box0_1)."],
            "{first:?}"
        );
        assert!(task.prompt.contains("Crate crate0 holds box box0_1."));
        assert_eq!(
            task.evaluation_config.negative_predicate.as_deref(),
            Some("rejected")
        );
        let record = TaskRecord {
            validation_program: task.validation_program.clone(),
            evaluation_config: Some(task.evaluation_config.clone()),
            ..Default::default()
        };
        assert!(
            judge()
                .task(&record)
                .unwrap()
                .score(&task.ground_truth_rule)
                .is_correct
        );
        for (name, first, second) in facts(&task.validation_program) {
            if name == "size" && second.as_deref() == Some("small") {
                let weight = format!("weight({first}, 1).");
                assert!(
                    task.validation_program.contains(&weight),
                    "{first} small but not weight 1"
                );
            }
        }
    }
}

/// A rule with its variables named by first occurrence (SWI-Prolog's
/// `write_canonical`): the same for two rules that differ only in names.
fn renamed(rule: &str) -> String {
    let program = entail::syntax::prolog::parse_program(rule).expect("rule parses");
    program
        .sentences
        .iter()
        .map(|s| match s {
            entail::syntax::prolog::Sentence::Clause { term, .. } => term.canonical(),
            entail::syntax::prolog::Sentence::Directive { goal, .. } => goal.canonical(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A problem as its labelled trains, in sorted order, cars named by position.
fn problem(program: &str) -> Vec<(String, BTreeSet<Atom>)> {
    let mut trains = trains(program);
    trains.sort();
    trains
}

/// The splits of one seed share no rule (up to variable names), no problem
/// (labelled trains up to their order) and no prompt at any level, and no
/// problem or prompt repeats within a split, on levels whose spaces are
/// small (1, 2) and larger (4); every split gets tasks.
#[test]
fn splits_share_no_rule_no_problem_and_no_prompt() {
    let run = |split: Split, count: u64| {
        let config = Config {
            seed: 3,
            levels: vec![1, 2, 4],
            count,
            split,
            test_tasks: 8,
            validation_tasks: 3,
            threads: 2,
            judge: judge_config(),
            ..Config::default()
        };
        let mut out = Vec::new();
        slr::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
        parse_tasks(&String::from_utf8(out).expect("utf-8"))
    };
    let splits = [
        run(Split::Test, 8),
        run(Split::Validation, 3),
        run(Split::Train, 40),
    ];
    for (i, a) in splits.iter().enumerate() {
        for level in [1, 2, 4] {
            assert!(
                a.iter().any(|t| t.curriculum_level == level),
                "split {i} has no level-{level} task"
            );
        }
        let problems: BTreeSet<_> = a.iter().map(|t| problem(&t.validation_program)).collect();
        let prompts: BTreeSet<&str> = a.iter().map(|t| t.prompt.as_str()).collect();
        assert_eq!(problems.len(), a.len(), "split {i} repeats a problem");
        assert_eq!(prompts.len(), a.len(), "split {i} repeats a prompt");
        let rules: BTreeSet<String> = a.iter().map(|t| renamed(&t.ground_truth_rule)).collect();
        for b in &splits[i + 1..] {
            for task in b {
                assert!(
                    !rules.contains(&renamed(&task.ground_truth_rule)),
                    "{}",
                    task.ground_truth_rule
                );
                assert!(!problems.contains(&problem(&task.validation_program)));
                assert!(!prompts.contains(task.prompt.as_str()));
            }
        }
    }
    // The level-1 test split alone would use every level-1 rule; its fixed
    // share leaves train some.
    assert_eq!(
        splits[0].iter().filter(|t| t.curriculum_level == 1).count(),
        8
    );
}

/// A held-out split run of another size than its own is refused: the
/// other splits hold out exactly that many per level.
#[test]
fn a_held_out_split_of_another_size_is_refused() {
    for (count, split, flag) in [
        (51, Split::Test, "--test-tasks"),
        (3, Split::Test, "--test-tasks"),
        (11, Split::Validation, "--validation-tasks"),
    ] {
        let config = Config {
            levels: vec![1],
            count,
            split,
            judge: judge_config(),
            ..Config::default()
        };
        let err = slr::generate(&config, &mut Vec::new(), &|_| {}).unwrap_err();
        assert!(err.to_string().contains(flag), "{err}");
    }
}

/// A level's tasks do not depend on which levels a run asks for.
#[test]
fn a_level_is_the_same_alone_and_in_a_run_of_levels() {
    let (alone, _) = generate(vec![3], 6, 2, PromptStyle::Prolog, 2);
    let (all, _) = generate(vec![1, 2, 3], 6, 2, PromptStyle::Prolog, 2);
    let level3 = |text: &str| -> Vec<(String, String)> {
        parse_tasks(text)
            .into_iter()
            .filter(|t| t.curriculum_level == 3)
            .map(|t| (t.ground_truth_rule, t.validation_program))
            .collect()
    };
    assert_eq!(level3(&alone).len(), 6);
    assert_eq!(level3(&alone), level3(&all));
}

/// Test-split tasks of `levels` under `theta` (seed 4, `count` per level).
fn generate_theta(levels: Vec<u32>, count: u64, theta: &str) -> Vec<SlrTask> {
    let config = Config {
        seed: 4,
        levels,
        count,
        split: Split::Test,
        test_tasks: count,
        theta: serde_json::from_str(theta).expect("Θ parses"),
        threads: 2,
        judge: judge_config(),
        ..Config::default()
    };
    let mut out = Vec::new();
    slr::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
    parse_tasks(&String::from_utf8(out).expect("utf-8"))
}

/// Each train's label and number of cars.
fn labels_and_cars(program: &str) -> Vec<(String, usize)> {
    trains(program)
        .into_iter()
        .map(|(label, atoms)| {
            let cars = atoms.iter().filter(|(p, _, _)| p == "has_car").count();
            (label, cars)
        })
        .collect()
}

/// A user's Θ shows in every task: κ_pos positives and κ_neg negatives,
/// cars per train and rule length within its ranges, exactly its active
/// predicates, and the rule still solves the task under SWI-Prolog.
#[test]
fn a_custom_theta_shapes_every_task() {
    let tasks = generate_theta(
        vec![8],
        6,
        r#"{"kappa_pos": 5, "kappa_neg": 2, "cars": [3, 5], "rule_length": [2, 3],
            "predicates": 7, "pattern_percent": 0}"#,
    );
    assert_eq!(tasks.len(), 6);
    let active: BTreeSet<&str> = [
        "has_car",
        "car_num",
        "car_color",
        "car_len",
        "has_wall",
        "has_roof",
        "has_wheel",
    ]
    .into();
    for task in &tasks {
        let shape = labels_and_cars(&task.validation_program);
        let positives = shape.iter().filter(|(l, _)| l == "eastbound").count();
        let negatives = shape.iter().filter(|(l, _)| l == "westbound").count();
        assert_eq!((positives, negatives), (5, 2), "{}", task.id);
        assert!(
            shape.iter().all(|&(_, cars)| (3..=5).contains(&cars)),
            "{shape:?}"
        );
        assert_eq!(task.problem_size, 7);
        // Uniform rules: one `(C` per attribute literal, `has_car(T, C` aside.
        let literals = task.ground_truth_rule.matches("(C").count();
        assert!((2..=3).contains(&literals), "{}", task.ground_truth_rule);
        let predicates: BTreeSet<&str> = facts(&task.validation_program)
            .into_iter()
            .filter(|(_, _, second)| second.is_some())
            .map(|(name, _, _)| *active.get(name.as_str()).unwrap_or(&"?"))
            .collect();
        assert_eq!(predicates, active, "{}", task.id);
        let reference = baseline::score(
            &task.validation_program,
            &task.ground_truth_rule,
            "eastbound",
            "westbound",
        )
        .expect("swipl runs");
        assert_eq!(reference.partial_score, 1.0, "{}", task.ground_truth_rule);
    }
}

/// Mirror backgrounds with κ_pos ≠ κ_neg, and a PMF background that gives
/// some colours weight 0: those colours never appear.
#[test]
fn mirror_and_pmf_backgrounds_follow_theta() {
    let mirror = generate_theta(vec![3], 3, r#"{"kappa_pos": 3, "kappa_neg": 1}"#);
    assert_eq!(mirror.len(), 3);
    for task in &mirror {
        let shape = labels_and_cars(&task.validation_program);
        let positives = shape.iter().filter(|(l, _)| l == "eastbound").count();
        assert_eq!((positives, shape.len()), (3, 4), "{}", task.id);
        assert_eq!(task.background_sampling, "mirror");
    }
    let pmf = generate_theta(
        vec![10],
        3,
        r#"{"background": {"pmf": {"car_color": {"red": 1, "blue": 3}}}}"#,
    );
    assert_eq!(pmf.len(), 3);
    let mut colours = BTreeMap::new();
    for task in &pmf {
        assert_eq!(task.background_sampling, "pmf");
        for (name, _, value) in facts(&task.validation_program) {
            if name == "car_color" {
                *colours.entry(value.expect("a value")).or_insert(0) += 1;
            }
        }
    }
    assert_eq!(
        colours.keys().map(String::as_str).collect::<Vec<_>>(),
        ["blue", "red"]
    );
    assert!(colours["blue"] > colours["red"], "{colours:?}");
}

/// A Θ that cannot work is refused with the reason, before any task.
#[test]
fn an_impossible_theta_is_refused() {
    for (theta, message) in [
        (
            r#"{"kappa_neg": 0}"#,
            "invalid configuration: level 3: κ_neg = 0: must be 1 to 500",
        ),
        (
            r#"{"rule_length": [4, 4]}"#,
            "invalid configuration: level 3: rule length 4 is impossible with 5 predicates and \
             at most 1 cars: at most 3 literals (3 per car)",
        ),
        (
            r#"{"cars": [3, 2]}"#,
            "invalid configuration: level 3: cars 3-2: need 1 <= min <= max <= 20",
        ),
        (
            r#"{"background": {"pmf": {"car_color": {"purple": 1}}}}"#,
            "invalid configuration: level 3: the PMF gives `car_color` the value `purple`, \
             not one of its values",
        ),
    ] {
        let config = Config {
            levels: vec![3],
            count: 1,
            split: Split::Test,
            theta: serde_json::from_str::<Theta>(theta).expect("Θ parses"),
            judge: judge_config(),
            ..Config::default()
        };
        let err = slr::generate(&config, &mut Vec::new(), &|_| {}).unwrap_err();
        assert_eq!(err.to_string(), message);
    }
}

/// The presets keep making the rules and validation programs they made
/// (tests/reference/slr_presets_seed5.jsonl, written by `gen slr --levels
/// 1-5 --count 2 --seed 5 --split test` once tasks became distinct up to
/// renaming, issue 30, and again when a task's rule kind became drawn once
/// per task, issue 51, which moved every draw after it; commit 2fa7473's,
/// from before Θ was configurable, differed from level 1 on, since the test
/// split's share of the rules is now drawn by their canonical form and a
/// level avoids the earlier levels' problems).
#[test]
fn presets_reproduce_the_earlier_tasks() {
    let earlier: Vec<serde_json::Value> = include_str!("reference/slr_presets_seed5.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("reference line parses"))
        .collect();
    let config = Config {
        seed: 5,
        levels: (1..=5).collect(),
        count: 2,
        split: Split::Test,
        test_tasks: 2,
        judge: judge_config(),
        ..Config::default()
    };
    let mut out = Vec::new();
    slr::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
    let now = parse_tasks(&String::from_utf8(out).expect("utf-8"));
    assert_eq!(now.len(), earlier.len());
    for (task, before) in now.iter().zip(&earlier) {
        assert_eq!(task.ground_truth_rule, before["ground-truth rule"]);
        assert_eq!(task.validation_program, before["validation program"]);
    }
}

/// A rule that memorises the prompt's positive trains (one clause per
/// train: its exact cars, in order, and their number) solves the validation
/// program; answering with it scores below 1.0 on the held-out trains of
/// `--holdout K`, where the hidden rule scores 1.0 (judge and SWI-Prolog).
#[test]
fn holdout_trains_catch_a_memorising_rule() {
    let config = Config {
        seed: 6,
        levels: vec![10],
        count: 3,
        split: Split::Test,
        test_tasks: 3,
        holdout: 20,
        threads: 2,
        judge: judge_config(),
        ..Config::default()
    };
    let mut out = Vec::new();
    slr::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
    let text = String::from_utf8(out).expect("utf-8");
    let tasks = parse_tasks(&text);
    let scored: Vec<ScoredTask> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(tasks.len(), 3);
    let mut memorised = BTreeMap::new();
    let mut hidden = BTreeMap::new();
    for task in &tasks {
        let held = labels_and_cars(&task.holdout_program);
        assert_eq!(held.len(), 20, "{}", task.id);
        assert_eq!(held.iter().filter(|(l, _)| l == "eastbound").count(), 10);
        // Held-out trains are numbered after the prompt's and are not in it.
        let first = format!("bound(train{}).", task.problem_size);
        assert_eq!(task.holdout_program[4..4 + first.len()], first);
        assert!(!task.prompt.contains(&format!("train{}", task.problem_size)));
        let reference = baseline::score(
            &task.holdout_program,
            &task.ground_truth_rule,
            "eastbound",
            "westbound",
        )
        .expect("swipl runs");
        assert_eq!(reference.partial_score, 1.0, "{}", task.ground_truth_rule);
        // One clause per positive train: its cars' facts, in order.
        let mut clauses = Vec::new();
        let mut current: Option<Vec<String>> = None;
        let mut cars = 0;
        let close = |body: Option<Vec<String>>, cars: usize, clauses: &mut Vec<String>| {
            if let Some(mut body) = body {
                body.push(format!("findall(X, has_car(T, X), Xs), length(Xs, {cars})"));
                clauses.push(format!("eastbound(T) :- {}.", body.join(", ")));
            }
        };
        for (name, first, second) in facts(&task.validation_program) {
            match (name.as_str(), second) {
                (label, None) => {
                    close(current.take(), cars, &mut clauses);
                    cars = 0;
                    current = (label == "eastbound").then(Vec::new);
                }
                ("has_car", Some(car)) => {
                    cars += 1;
                    if let Some(body) = current.as_mut() {
                        body.push(format!("has_car(T, V{car})"));
                    }
                }
                (_, Some(value)) => {
                    if let Some(body) = current.as_mut() {
                        body.push(format!("{name}(V{first}, {value})"));
                    }
                }
            }
        }
        close(current.take(), cars, &mut clauses);
        memorised.insert(task.id, clauses.join("\n"));
        hidden.insert(task.id, task.ground_truth_rule.clone());
    }
    let report = score(&scored, &memorised);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        json["overall"]["solved"], 3,
        "the memoriser fits every prompt"
    );
    assert_eq!(report.holdout_tasks, 3);
    assert!(report.holdout_score.unwrap() < 1.0, "{report:?}");
    assert!(report.holdout_solved.unwrap() < 3, "{report:?}");
    let report = score(&scored, &hidden);
    assert_eq!(
        (report.holdout_score, report.holdout_solved),
        (Some(1.0), Some(3))
    );
    assert!(report
        .to_text()
        .contains("holdout score    1.000 (solved 3/3"));
}

/// The progress calls of a run add up to `slr::work`, the total its bar
/// shows, pre-phase included (held-out splits, earlier levels), whole or
/// sharded, so the bar neither stands still nor counts past its end.
#[test]
fn progress_adds_up_to_the_work() {
    use std::sync::atomic::{AtomicU64, Ordering};
    for shard in [(0, 1), (1, 2)] {
        let config = Config {
            seed: 11,
            levels: vec![2, 3],
            count: 3,
            split: Split::Train,
            language: Language::trains(),
            threads: 2,
            judge: judge_config(),
            test_tasks: 2,
            validation_tasks: 1,
            shard: entail::gen::Shard::new(shard.0, shard.1).expect("shard"),
            ..Config::default()
        };
        let settled = AtomicU64::new(0);
        slr::generate(&config, &mut Vec::new(), &|n| {
            settled.fetch_add(n, Ordering::Relaxed);
        })
        .expect("generation succeeds");
        // Held out: (2 test + 1 validation) per curriculum level; level 1
        // computed before level 2; then the shard's slots.
        let work = slr::work(&config);
        assert!(work > 3 * 3, "work {work} counts the pre-phase");
        assert_eq!(settled.into_inner(), work, "shard {shard:?}");
    }
}

/// Every gold rule scores 1.0 as the reference loads answers (every
/// `eastbound(…) :- ….` clause, nothing else): the judge's default and SWI
/// through the reference's own extraction. The recursion construct walks
/// the cars with `eastbound/2` clauses, so it loads there too.
#[test]
fn gold_rules_score_one_under_the_reference_loading() {
    assert!(baseline::swipl_available(), "swipl is required");
    // About one task in 70 has a recursion rule (30% pattern-guided, 22
    // constructs); seed 51 gives 5 of 80 (seed 50 gave 1 once a task's
    // rule kind was drawn once per task).
    let (text, _) = generate(vec![6, 9, 12, 15, 18], 16, 51, PromptStyle::Prolog, 2);
    let tasks = parse_tasks(&text);
    assert_eq!(tasks.len(), 80);
    let mut recursive = 0;
    for task in &tasks {
        recursive += (task.construct == "recursion") as usize;
        let record = TaskRecord {
            validation_program: task.validation_program.clone(),
            evaluation_config: Some(task.evaluation_config.clone()),
            ..Default::default()
        };
        let ours = judge()
            .task(&record)
            .unwrap()
            .score(&task.ground_truth_rule);
        assert_eq!(
            ours.partial_score, 1.0,
            "{}: {} -> {ours:?}",
            task.id, task.ground_truth_rule
        );
        let reference = baseline::score_reference(
            &task.validation_program,
            &task.ground_truth_rule,
            "eastbound",
            "westbound",
        )
        .expect("swipl runs");
        assert_eq!(
            reference.partial_score, 1.0,
            "{}: {}",
            task.id, task.ground_truth_rule
        );
    }
    eprintln!("{recursive} recursion rules of {}", tasks.len());
    assert!(recursive >= 2, "{recursive} recursion rules");
}

//! Shortcut-proof scoring: rules that read a label from a constant's name
//! or from the order of the facts score at chance on generated tasks, while
//! rules that look at the trains keep the reference's score (checked
//! against the reference method run through SWI-Prolog); the renaming is
//! deterministic for a seed, differs across tasks, keeps the reference's car order within
//! a train, and `--isomorphic both` flags a shortcut.

#[path = "reference/slr_baseline.rs"]
mod baseline;

use entail::gen::slr::Language;
use entail::gen::slr::PromptStyle;
use entail::gen::slr::{self, Config, SlrTask, Split};
use entail::judge::{is_task_constant, Isomorphic, Judge, JudgeConfig, TaskRecord};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

fn judge_with(isomorphic: Isomorphic, seed: u64, renamings: usize) -> Judge {
    let mut config = JudgeConfig::default();
    config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    config.isomorphic = isomorphic;
    config.seed = seed;
    config.renamings = renamings;
    Judge::new(config)
}

fn record(program: &str) -> TaskRecord {
    TaskRecord {
        validation_program: program.to_string(),
        ..Default::default()
    }
}

/// Two tasks per level 6–20, generated once.
fn generated() -> &'static [SlrTask] {
    static TASKS: OnceLock<Vec<SlrTask>> = OnceLock::new();
    TASKS.get_or_init(|| {
        let config = Config {
            seed: 17,
            levels: (6..=20).collect(),
            count: 2,
            split: Split::Test,
            test_tasks: 2,
            prompt: PromptStyle::Prolog,
            language: Language::trains(),
            threads: 2,
            judge: {
                let mut judge = JudgeConfig::default();
                judge.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
                    "CARGO_BIN_EXE_entail-worker"
                )));
                judge
            },
            ..Config::default()
        };
        let mut out = Vec::new();
        slr::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
        String::from_utf8(out)
            .expect("utf-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("task parses"))
            .collect()
    })
}

/// Train names `prefix0`, `prefix2`, … up to the largest task's trains.
fn even_trains(prefix: &str) -> String {
    (0..32)
        .step_by(2)
        .map(|t| format!("{prefix}train{t}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The label-leak family of issue 17, with variants.
fn exploits() -> Vec<(&'static str, String)> {
    vec![
        (
            "name parity",
            "eastbound(T) :- atom_codes(T, Cs), last(Cs, D), 0 is D mod 2.".into(),
        ),
        (
            "fact-order parity",
            "eastbound(T) :- findall(X, has_car(X, _), L), list_to_set(L, S), nth0(I, S, T), I mod 2 =:= 0.".into(),
        ),
        (
            "name-order parity",
            "eastbound(T) :- findall(X, has_car(X, _), L), sort(L, S), nth0(I, S, T), I mod 2 =:= 0.".into(),
        ),
        (
            "original names enumerated",
            format!("eastbound(T) :- sub_atom(T, _, _, 0, X), member(X, [{}]).", even_trains("")),
        ),
        (
            "prefix anticipated",
            format!("eastbound(T) :- member(T, [{}]).", even_trains("my")),
        ),
        (
            "prefix stripped",
            "eastbound(T) :- atom_concat(my, R, T), atom_concat(train, N, R), atom_codes(N, Cs), last(Cs, D), 0 is D mod 2.".into(),
        ),
        (
            "car-name digit parity",
            "eastbound(T) :- has_car(T, C), atom_codes(C, Cs), append(P, [95|_], Cs), last(P, D), 0 is D mod 2.".into(),
        ),
    ]
}

/// Labels are balanced, so chance is 0.5; each exploit's mean over 30
/// tasks must not exceed it by more than sampling noise. A fixed labelling
/// of a task with k of n trains eastbound is right on all of them with
/// chance 1 / C(n, k): 0.24 tasks of these 30 (the small ones of levels 6
/// and 7), so 2 happen 2.5% of the time and 3 0.2%. With the rule kind
/// drawn once per task (issue 51), fact-order parity solved 2 of these 30;
/// over 600 tasks (levels 6-20, 20 each, seeds 17 and 18) it solved 6,
/// against 4.8 expected by chance, and 2 before the change.
#[test]
fn exploits_score_at_chance_on_generated_tasks() {
    let tasks = generated();
    assert_eq!(tasks.len(), 30);
    let judge = judge_with(Isomorphic::Renamed, 0, 1);
    for (name, rule) in exploits() {
        let mut sum = 0.0;
        let mut correct = 0;
        for task in tasks {
            let result = judge
                .task(&record(&task.validation_program))
                .unwrap()
                .score(&rule);
            assert!(result.syntax_valid, "{name}: {result:?}");
            sum += result.partial_score;
            correct += result.is_correct as usize;
        }
        let mean = sum / tasks.len() as f64;
        println!(
            "{name}: mean partial score {mean:.3} (chance 0.500), {correct} of 30 tasks at 1.0"
        );
        assert!(mean <= 0.56, "{name}: mean {mean:.3} above chance");
        assert!(correct <= 2, "{name}: {correct} tasks at 1.0");
    }
}

/// Generated tasks number trains at random, so even on the original names
/// (`--isomorphic both`) the name and order exploits are at chance.
#[test]
fn generated_tasks_leak_nothing_through_original_names_or_order() {
    let tasks = generated();
    let judge = judge_with(Isomorphic::Both, 0, 1);
    for (name, rule) in exploits() {
        let mut sum = 0.0;
        for task in tasks {
            let result = judge
                .task(&record(&task.validation_program))
                .unwrap()
                .score(&rule);
            sum += result.original_names.expect("both").partial_score;
        }
        let mean = sum / tasks.len() as f64;
        println!("{name} on original names: mean {mean:.3} (chance 0.500)");
        assert!(mean <= 0.6, "{name}: mean {mean:.3} on original names");
    }
    // Labels are not alternating any more.
    let alternating = tasks
        .iter()
        .filter(|t| {
            let labels: Vec<bool> = t
                .validation_program
                .lines()
                .filter(|l| l.starts_with("eastbound(") || l.starts_with("westbound("))
                .map(|l| l.starts_with("eastbound("))
                .collect();
            labels
                .iter()
                .enumerate()
                .all(|(i, &east)| east == (i % 2 == 0))
        })
        .count();
    assert_eq!(alternating, 0);
}

/// Rules that never look inside a name: the same score on renamed and
/// original names, and the same as SWI-Prolog running the reference method.
#[test]
fn legitimate_rules_keep_the_reference_score() {
    assert!(baseline::swipl_available(), "swipl is required");
    let tasks = generated();
    let judge = judge_with(Isomorphic::Both, 0, 3);
    let legit = [
        "eastbound(T) :- has_car(T, _).",
        "eastbound(T) :- has_car(T, C), car_color(C, red).",
        // The last car by sorting car constants: car order is position.
        "eastbound(T) :- findall(C, has_car(T, C), Cs), msort(Cs, S), last(S, L), car_color(L, red).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), sort(0, @>=, Cs, [F|_]), car_len(F, short).",
        "eastbound(T) :- has_car(T, C1), has_car(T, C2), C1 @< C2, car_color(C1, X), car_color(C2, X).",
        "eastbound(T) :- aggregate_all(count, (has_car(T, C), car_len(C, long)), N), N >= 2.",
    ];
    let mut pairs = Vec::new();
    let mut ours = Vec::new();
    for task in tasks {
        let loaded = judge.task(&record(&task.validation_program)).unwrap();
        let own = loaded.score(&task.ground_truth_rule);
        assert!(own.is_correct, "{}: {own:?}", task.id);
        assert_eq!(own.shortcut, Some(false));
        for rule in legit {
            let result = loaded.score(rule);
            let original = result.original_names.as_ref().expect("both");
            assert_eq!(
                (result.partial_score, result.error_kind),
                (original.partial_score, original.error_kind),
                "{}: {rule}",
                task.id
            );
            pairs.push((task.validation_program.clone(), rule.to_string()));
            ours.push(result.partial_score);
        }
    }
    let theirs = baseline::score_all(&pairs);
    for ((pair, ours), theirs) in pairs.iter().zip(&ours).zip(&theirs) {
        assert_eq!(*ours, theirs.partial_score, "{}", pair.1);
    }
}

/// An SLR-Bench-style task: trains alternate east and west, and each has
/// `cars` cars with colours from a fixed cycle.
fn alternating_task(trains: usize, cars: usize) -> String {
    let colours = ["red", "blue", "green", "white", "yellow"];
    let mut text = String::new();
    for t in 0..trains {
        let label = if t % 2 == 0 { "eastbound" } else { "westbound" };
        text.push_str(&format!("{label}(train{t}).\n"));
        for c in 1..=cars {
            let colour = colours[(t * 7 + c * 3) % colours.len()];
            text.push_str(&format!(
                "has_car(train{t}, car{t}_{c}).\ncar_num(car{t}_{c}, {c}).\ncar_color(car{t}_{c}, {colour}).\n"
            ));
        }
    }
    text
}

#[test]
fn isomorphic_both_flags_name_and_order_shortcuts() {
    let program = alternating_task(12, 3);
    let judge = judge_with(Isomorphic::Both, 0, 1);
    let task = judge.task(&record(&program)).unwrap();
    for (name, rule) in exploits().into_iter().take(3) {
        let result = task.score(&rule);
        let original = result.original_names.as_ref().expect("both");
        assert!(original.is_correct, "{name}: {original:?}");
        assert!(result.partial_score < 1.0, "{name}: {result:?}");
        assert_eq!(result.shortcut, Some(true), "{name}");
    }
    let honest = task.score("eastbound(T) :- has_car(T, _).");
    assert_eq!(honest.shortcut, Some(false));
    // Without --isomorphic both there is no flag at all.
    let plain = judge_with(Isomorphic::Renamed, 0, 1);
    let result = plain
        .task(&record(&program))
        .unwrap()
        .score(&exploits()[0].1);
    assert_eq!(result.shortcut, None);
    assert!(result.original_names.is_none());
}

/// `--renamings K` reports the lowest of K scores, and renaming 0 is the
/// same whatever K is, so more renamings never raise a score.
#[test]
fn more_renamings_report_the_minimum() {
    let program = alternating_task(4, 2);
    let rule = &exploits()[1].1;
    let one = judge_with(Isomorphic::Renamed, 3, 1);
    let eight = judge_with(Isomorphic::Renamed, 3, 8);
    let single = one.task(&record(&program)).unwrap().score(rule);
    let task = eight.task(&record(&program)).unwrap();
    assert_eq!(task.renamings().len(), 8);
    assert_eq!(
        task.renamings()[0].background.renamed_atoms(),
        one.task(&record(&program)).unwrap().renamings()[0]
            .background
            .renamed_atoms()
    );
    let worst = task.score(rule);
    assert!(worst.partial_score <= single.partial_score);
    // Four trains, two positive: one renaming in six puts the positives
    // first and third; eight together cannot all do it.
    assert!(worst.partial_score < 1.0, "{worst:?}");
    let distinct: BTreeSet<_> = task
        .renamings()
        .iter()
        .map(|n| n.background.renamed_atoms())
        .collect();
    assert_eq!(distinct.len(), 8);
}

#[test]
fn renaming_is_deterministic_per_seed_and_differs_across_tasks() {
    let a = alternating_task(6, 2);
    let b = alternating_task(7, 2);
    let names = |seed: u64, program: &str| {
        let judge = judge_with(Isomorphic::Renamed, seed, 1);
        let task = judge.task(&record(program)).unwrap();
        let naming = task.renamings()[0].clone();
        (
            naming.background.renamed_atoms(),
            naming.background.text().to_string(),
            naming.goals,
        )
    };
    assert_eq!(names(5, &a), names(5, &a));
    assert_ne!(names(5, &a).0, names(6, &a).0);
    let (names_a, text_a, goals_a) = names(5, &a);
    let (names_b, _, _) = names(5, &b);
    assert_ne!(names_a.get("train0"), names_b.get("train0"));
    // Every constant is renamed, to lower-case letters only, all distinct,
    // none a vocabulary atom or predicate name.
    assert_eq!(names_a.len(), 6 + 12);
    let vocabulary = [
        "red",
        "blue",
        "green",
        "white",
        "yellow",
        "has_car",
        "car_num",
        "car_color",
    ];
    let mut seen = BTreeSet::new();
    for (original, name) in names_a.iter() {
        assert!(is_task_constant(original));
        assert!(name.bytes().all(|b| b.is_ascii_lowercase()), "{name}");
        assert!(!vocabulary.contains(&name.as_str()), "{name}");
        assert!(seen.insert(name.clone()), "{name} twice");
        assert!(
            !text_a.contains(original.as_str()),
            "{original} left in the background"
        );
    }
    let first_goal = goals_a[0].to_text(999);
    let renamed_atom = format!("eastbound({})", names_a["train0"]);
    assert!(first_goal.contains(&renamed_atom), "{first_goal}");
}

/// Cars keep the reference's standard order within each train (text order
/// of `mycar<N>_<M>`: `_10` before `_2`), so sorting car constants finds
/// the same positions; trains' names and blocks are in an order unrelated
/// to their numbers.
#[test]
fn car_order_is_kept_and_train_order_is_not() {
    let program = alternating_task(3, 12);
    let judge = judge_with(Isomorphic::Both, 9, 1);
    let task = judge.task(&record(&program)).unwrap();
    let names = task.renamings()[0].background.renamed_atoms();
    for t in 0..3 {
        let mut cars: Vec<String> = (1..=12).map(|c| format!("car{t}_{c}")).collect();
        cars.sort();
        let renamed: Vec<&String> = cars.iter().map(|c| &names[c]).collect();
        let mut sorted = renamed.clone();
        sorted.sort();
        assert_eq!(renamed, sorted, "train {t}");
    }
    // Sorting a train's car constants gives the order `has_car/2` lists
    // them in, which is the reference's: it loads the program's lines
    // sorted, so car0_10 comes before car0_2.
    let sorted_positions = "eastbound(T) :- findall(C, has_car(T, C), Cs), msort(Cs, S), \
        findall(N, (member(C, S), car_num(C, N)), Ns), Ns == [1,10,11,12,2,3,4,5,6,7,8,9].";
    let fact_positions = "eastbound(T) :- findall(N, (has_car(T, C), car_num(C, N)), Ns), \
        Ns == [1,10,11,12,2,3,4,5,6,7,8,9].";
    let numeric_positions = "eastbound(T) :- findall(N, (has_car(T, C), car_num(C, N)), Ns), \
        numlist(1, 12, Ns).";
    assert!(baseline::swipl_available(), "swipl is required");
    for (rule, all) in [
        (sorted_positions, true),
        (fact_positions, true),
        (numeric_positions, false),
    ] {
        let result = task.score(rule);
        assert!(
            result.examples.iter().all(|e| e.predicted == all),
            "{rule}: {result:?}"
        );
        assert_eq!(result.shortcut, Some(false));
        let theirs = baseline::score(&program, rule, "eastbound", "westbound").expect("swipl");
        assert_eq!(result.partial_score, theirs.partial_score, "{rule}");
    }

    // Over 400 seeds, train0's name sorts first and train0's facts come
    // first about half the time each.
    let program = alternating_task(2, 1);
    let (mut name_first, mut block_first) = (0, 0);
    for seed in 0..400 {
        let judge = judge_with(Isomorphic::Renamed, seed, 1);
        let naming = judge.task(&record(&program)).unwrap().renamings()[0].clone();
        let names = naming.background.renamed_atoms();
        name_first += (names["train0"] < names["train1"]) as usize;
        let first_fact = naming
            .background
            .text()
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        block_first += first_fact.contains(&names["train0"]) as usize;
    }
    println!("train0 named first {name_first}/400, its block first {block_first}/400");
    assert!((160..=240).contains(&name_first), "{name_first}");
    assert!((160..=240).contains(&block_first), "{block_first}");
}

/// Published task order: each train's facts stay together and in order
/// within every predicate, only the blocks move.
#[test]
fn train_blocks_move_whole() {
    let program = alternating_task(5, 3);
    let judge = judge_with(Isomorphic::Renamed, 1, 1);
    let task = judge.task(&record(&program)).unwrap();
    let naming = &task.renamings()[0];
    let names = naming.background.renamed_atoms();
    let back: BTreeMap<&String, &String> = names.iter().map(|(o, n)| (n, o)).collect();
    let mut per_predicate: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in naming.background.text().lines() {
        let (predicate, rest) = line.split_once('(').expect("a fact");
        let first = rest
            .split([',', ')'])
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        let original = back.get(&first).map(|s| s.to_string()).unwrap_or(first);
        per_predicate
            .entry(predicate.to_string())
            .or_default()
            .push(original);
    }
    let train_of = |c: &str| {
        c.trim_start_matches("train")
            .trim_start_matches("car")
            .split('_')
            .next()
            .unwrap_or("")
            .to_string()
    };
    let mut orders = BTreeSet::new();
    for (predicate, firsts) in &per_predicate {
        assert_eq!(firsts.len(), 15, "{predicate}");
        let blocks: Vec<String> = firsts.iter().map(|c| train_of(c)).collect();
        let mut order: Vec<String> = blocks.clone();
        order.dedup();
        assert_eq!(
            order.len(),
            5,
            "{predicate}: a train's facts are split: {blocks:?}"
        );
        // Within a block, the original order.
        for block in firsts.chunks(3) {
            let mut sorted = block.to_vec();
            sorted.sort();
            assert_eq!(block, sorted.as_slice(), "{predicate}");
        }
        orders.insert(order);
    }
    // The same block order for every predicate, and not the original one.
    assert_eq!(orders.len(), 1);
    let order = orders.into_iter().next().unwrap_or_default();
    assert_ne!(order, ["0", "1", "2", "3", "4"]);
}

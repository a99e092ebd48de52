//! Task loading: no background fact is lost although the validation program
//! interleaves predicates (scryer drops discontiguous clauses), constants are
//! renamed consistently, and `--isomorphic both` scores the original names.

#[path = "reference/slr_baseline.rs"]
mod baseline;

use entail::judge::{Isomorphic, Judge, JudgeConfig, TaskRecord};

fn judge(isomorphic: Isomorphic) -> Judge {
    let mut config = JudgeConfig::default();
    config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    config.isomorphic = isomorphic;
    Judge::new(config)
}

/// 40 trains, each a label fact then its cars' facts: every predicate's
/// clauses are spread over the whole program.
fn interleaved_program() -> (String, usize, Vec<String>) {
    let mut text = String::new();
    let mut cars = 0;
    let mut order = Vec::new();
    for t in 0..40 {
        let label = if t % 3 == 0 { "eastbound" } else { "westbound" };
        text.push_str(&format!("{label}(train{t}).\n"));
        for c in 1..=(t % 4 + 1) {
            text.push_str(&format!(
                "has_car(train{t}, car{t}_{c}).\nweight(car{t}_{c}, {}).\n",
                t * 10 + c
            ));
            order.push((
                format!("has_car(train{t}, car{t}_{c})."),
                format!("car{t}_{c}"),
            ));
            cars += 1;
        }
    }
    // The reference loads the program's lines sorted.
    order.sort();
    (text, cars, order.into_iter().map(|(_, car)| car).collect())
}

#[test]
fn no_fact_is_lost_and_order_is_kept() {
    let (program, cars, order) = interleaved_program();
    let judge = judge(Isomorphic::Both);
    let task = judge
        .task(&TaskRecord {
            validation_program: program,
            ..Default::default()
        })
        .expect("loads");
    assert_eq!(task.program().examples.len(), 40);
    // True for every train exactly when all facts of both predicates are there
    // (renamed: names and train order are drawn, see judge_shortcuts.rs) ...
    let answer = format!(
        "eastbound(T) :- has_car(T, _), aggregate_all(count, has_car(_, _), {cars}), \
         aggregate_all(count, weight(_, _), {cars}), findall(W, weight(_, W), Ws), sum_list(Ws, S), S =:= {}.",
        (0..40).map(|t: usize| (1..=(t % 4 + 1)).map(|c| t * 10 + c).sum::<usize>()).sum::<usize>()
    );
    // ... and, with the task's own names, in the reference's order: the
    // program's lines sorted (train1, train10, …, train2; car1_1, car1_10, …).
    let expected_list = format!("[{}]", order.join(","));
    let in_order = format!(
        "eastbound(T) :- has_car(T, _), findall(C, has_car(_, C), Cs), Cs == {expected_list}."
    );
    let result = task.score(&answer);
    let original = task.score(&in_order).original_names.expect("both");
    for result in [
        &result,
        result.original_names.as_deref().expect("both"),
        &original,
    ] {
        assert_eq!(result.error, None);
        assert!(result.examples.iter().all(|e| e.predicted), "{result:?}");
        // Positives right, negatives wrong: 14 of 40 trains are eastbound.
        assert_eq!(result.partial_score, 14.0 / 40.0);
    }
}

#[test]
fn rules_naming_constants_fail_unless_names_are_kept() {
    let program = "eastbound(train0).\nhas_car(train0, car0_1).\nwestbound(train1).\nhas_car(train1, car1_1).\n";
    let answer = "eastbound(T) :- has_car(T, car0_1).";
    let judge = judge(Isomorphic::Both);
    let task = judge
        .task(&TaskRecord {
            validation_program: program.into(),
            ..Default::default()
        })
        .expect("loads");
    let result = task.score(answer);
    assert_eq!(result.partial_score, 0.5);
    let original = result.original_names.expect("both scorings");
    assert!(original.is_correct);
    assert_eq!(original.partial_score, 1.0);
}

#[test]
fn floats_and_helpers_survive() {
    let program = "eastbound(train0).\nhas_car(train0, car0_1).\nlen(car0_1, 1).\nwestbound(train1).\nhas_car(train1, car1_1).\nlen(car1_1, 2).\n";
    // Helpers are loaded with `--rules program` only.
    let mut config = JudgeConfig::default();
    config.rules = entail::judge::Rules::Program;
    let judge = Judge::new(config);
    let task = judge
        .task(&TaskRecord {
            validation_program: program.into(),
            ..Default::default()
        })
        .expect("loads");
    let result = task.score("Reasoning...\n```prolog\neastbound(T) :- has_car(T, C), short(C).\nshort(C) :- len(C, N), N < 1.5.\n```");
    assert!(result.is_correct, "{result:?}");
    // A helper the answer defines with a library name is the answer's own.
    let result =
        task.score("eastbound(T) :- has_car(T, C), last([C], D), len(D, 1).\nlast(_, _) :- fail.");
    assert_eq!(result.partial_score, 0.5, "{result:?}");
}

/// Trains of 12 cars, in task order. In train0 (eastbound) car0_10 is red
/// and car0_2 blue, in train1 (westbound) the other way round, so a rule
/// that reads a position from `has_car/2`'s order sees the reference's
/// order (the program's lines sorted: car0_1, car0_10, car0_11, car0_2, …).
fn long_trains() -> String {
    let mut text = String::new();
    for (t, label, red) in [
        (0, "eastbound", 10),
        (1, "westbound", 2),
        (2, "eastbound", 10),
    ] {
        text.push_str(&format!("{label}(train{t}).\n"));
        for c in 1..=12 {
            let color = if c == red { "red" } else { "blue" };
            text.push_str(&format!(
                "has_car(train{t}, car{t}_{c}).\ncar_num(car{t}_{c}, {c}).\ncar_color(car{t}_{c}, {color}).\n"
            ));
        }
    }
    text
}

#[test]
fn long_trains_enumerate_cars_in_the_references_order() {
    let program = long_trains();
    let record = TaskRecord {
        validation_program: program.clone(),
        ..Default::default()
    };
    let rules = [
        // The second car has_car/2 gives is red: car0_10 in the reference.
        "eastbound(T) :- findall(C, has_car(T, C), [_, C2|_]), car_color(C2, red).",
        "eastbound(T) :- has_car(T, C), !, car_color(C, red).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), nth1(5, Cs, C5), car_color(C5, red).",
        "eastbound(T) :- findall(N, (has_car(T, C), car_num(C, N)), [_, 10|_]).",
        // Sorting the car constants finds the same order.
        "eastbound(T) :- findall(C, has_car(T, C), Cs), msort(Cs, [_, C2|_]), car_color(C2, red).",
        // Position by car_num does not depend on the order.
        "eastbound(T) :- has_car(T, C), car_num(C, 10), car_color(C, red).",
    ];
    let expected = [1.0, 1.0 / 3.0, 0.0, 2.0 / 3.0, 1.0, 1.0];
    for isomorphic in [Isomorphic::Renamed, Isomorphic::Both] {
        let judge = judge(isomorphic);
        let task = judge.task(&record).expect("loads");
        for (rule, want) in rules.iter().zip(expected) {
            let result = task.score(rule);
            assert_eq!(result.partial_score, want, "{rule}: {result:?}");
            if let Some(original) = &result.original_names {
                assert_eq!(original.partial_score, want, "{rule} (own names)");
            }
        }
    }
    if !baseline::swipl_available() {
        println!("SKIP: swipl not installed (scores above are the ones SWI gives)");
        return;
    }
    for (rule, want) in rules.iter().zip(expected) {
        let swi = baseline::score(&program, rule, "eastbound", "westbound").unwrap();
        assert_eq!(swi.partial_score, want, "SWI on {rule}");
    }
}

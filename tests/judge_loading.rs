//! Task loading: no background fact is lost although the validation program
//! interleaves predicates (scryer drops discontiguous clauses), constants are
//! renamed consistently, and `--isomorphic both` scores the original names.

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
            order.push(format!("car{t}_{c}"));
            cars += 1;
        }
    }
    (text, cars, order)
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
    // ... and, with the task's own names, in source order.
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
    let judge = judge(Isomorphic::Renamed);
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

//! `entail judge` on a task with a `holdout program` (trains the prompt
//! does not show, `gen slr --holdout K`): the answer is scored on them
//! apart, in the text and JSON results and the batch summary, and the
//! scores agree with SWI-Prolog's reference method.

#[path = "reference/slr_baseline.rs"]
mod baseline;

use serde_json::{json, Value};
use std::process::Command;

/// Shown: train0 (eastbound) has a red short car and a blue long one,
/// train1 (westbound) a blue long car. Held out: train2 (eastbound) has a
/// red long car, train3 (westbound) a green short one.
const TASK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/slr/task_holdout.json");

/// The hidden rule: 1.0 on the shown and on the held-out trains.
const HIDDEN: &str = "eastbound(T) :- has_car(T, C), car_color(C, red).";
/// train0's first car copied out: fits the shown trains, and misses the
/// held-out eastbound train, whose red car is long (0.5 there).
const COPIED: &str = "eastbound(T) :- has_car(T, C), car_color(C, red), car_len(C, short).";

fn task() -> Value {
    serde_json::from_str(&std::fs::read_to_string(TASK).unwrap()).unwrap()
}

fn judge(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_entail"))
        .arg("judge")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The text result without its last line (the time taken).
fn text_result(rule: &str) -> String {
    let text = judge(&["--task", TASK, "--hypothesis", rule]);
    let (rest, time) = text.trim_end().rsplit_once('\n').unwrap();
    assert!(time.starts_with("time: "), "{time}");
    format!("{rest}\n")
}

#[test]
fn a_copied_train_fits_the_prompt_and_not_the_held_out_trains() {
    assert_eq!(
        text_result(COPIED),
        "syntax_valid:  true\n\
         is_correct:    true\n\
         partial_score: 1.0000\n\
         holdout_score: 0.5000 (is_correct=false on the held-out trains)\n  \
         ok    pos predicted=true  eastbound(train0)\n  \
         ok    neg predicted=false westbound(train1)\n"
    );
    let json = judge(&["--task", TASK, "--hypothesis", COPIED, "--json"]);
    // The holdout fields follow `partial_score`.
    let at = |key: &str| json.find(&format!("\"{key}\":")).unwrap();
    assert!(at("partial_score") < at("holdout_score"), "{json}");
    assert!(at("holdout_score") < at("holdout_correct"), "{json}");
    assert!(at("holdout_correct") < at("examples"), "{json}");
    let result: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(result["is_correct"], json!(true));
    assert_eq!(result["partial_score"], json!(1.0));
    assert_eq!(result["holdout_score"], json!(0.5));
    assert_eq!(result["holdout_correct"], json!(false));
}

#[test]
fn the_hidden_rule_scores_1_on_both() {
    assert_eq!(
        text_result(HIDDEN),
        "syntax_valid:  true\n\
         is_correct:    true\n\
         partial_score: 1.0000\n\
         holdout_score: 1.0000 (is_correct=true on the held-out trains)\n  \
         ok    pos predicted=true  eastbound(train0)\n  \
         ok    neg predicted=false westbound(train1)\n"
    );
    let json = judge(&["--task", TASK, "--hypothesis", HIDDEN, "--json"]);
    let result: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(result["holdout_score"], json!(1.0));
    assert_eq!(result["holdout_correct"], json!(true));
}

/// The reference method, run through SWI-Prolog on each program, gives
/// the same scores.
#[test]
fn swi_prolog_agrees_on_both_programs() {
    let task = task();
    let program = |key: &str| task[key].as_str().unwrap().to_string();
    for (rule, shown, held) in [(HIDDEN, 1.0, 1.0), (COPIED, 1.0, 0.5)] {
        for (key, expected) in [("validation program", shown), ("holdout program", held)] {
            let swi = baseline::score(&program(key), rule, "eastbound", "westbound").unwrap();
            assert_eq!(swi.partial_score, expected, "{rule} on the {key}");
        }
    }
}

/// In a batch, lines whose task has held-out trains get the holdout
/// fields and the summary their mean; a line without has neither; two
/// lines with the same validation program and different holdout programs
/// are not scored as one task.
#[test]
fn a_batch_reports_holdout_scores_per_line_and_in_the_summary() {
    let task = task();
    let mut no_holdout = task.clone();
    no_holdout
        .as_object_mut()
        .unwrap()
        .remove("holdout program");
    let mut other_holdout = task.clone();
    // train3's car painted red: the hidden rule now misses it.
    other_holdout["holdout program"] = json!(task["holdout program"]
        .as_str()
        .unwrap()
        .replace("car_color(car3_1, green)", "car_color(car3_1, red)"));
    let line = |task: &Value, id: u32, rule: &str| {
        let mut line = task.clone();
        line["id"] = json!(id);
        line["prediction"] = json!(rule);
        line.to_string()
    };
    let lines = [
        line(&task, 1, COPIED),
        line(&task, 2, HIDDEN),
        line(&no_holdout, 3, HIDDEN),
        line(&other_holdout, 4, HIDDEN),
    ];
    let dir = std::env::temp_dir().join(format!("entail-judge-holdout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("batch.jsonl");
    std::fs::write(&input, lines.join("\n")).unwrap();
    let run = |json: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_entail"));
        command.args(["judge", "--batch"]).arg(&input);
        if json {
            command.arg("--json");
        }
        let out = command.output().unwrap();
        assert!(out.status.success());
        out
    };
    let (out, text) = (run(true), run(false));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        String::from_utf8_lossy(&text.stderr),
        "4 answers, 0 bad lines: accuracy 1.0000, partial score 1.0000, syntax score 1.0000\n\
         holdout score 0.6667 over the 3 answers whose task has held-out trains\n\
         evaluations: 7 answered natively, 0 not implemented natively\n"
    );
    let results: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let holdout = |r: &Value| (r["holdout_score"].clone(), r["holdout_correct"].clone());
    assert_eq!(results.len(), 4);
    assert_eq!(holdout(&results[0]), (json!(0.5), json!(false)));
    assert_eq!(holdout(&results[1]), (json!(1.0), json!(true)));
    assert!(results[2].get("holdout_score").is_none(), "{}", results[2]);
    assert!(results[2].get("holdout_correct").is_none());
    assert_eq!(holdout(&results[3]), (json!(0.5), json!(false)));
    for r in &results {
        assert_eq!(r["partial_score"], json!(1.0), "{r}");
    }
    let summary: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(summary["holdout_lines"], json!(3));
    assert_eq!(summary["holdout_score"], json!(2.0 / 3.0));
}

/// A holdout program that does not read is named as such.
#[test]
fn a_broken_holdout_program_is_named() {
    let mut task = task();
    task["holdout program"] = json!("eastbound(train2).\nhas_car(train2 car2_1).\n");
    let dir = std::env::temp_dir().join(format!("entail-judge-holdout-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("task.json");
    std::fs::write(&path, task.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(["judge", "--task"])
        .arg(&path)
        .args(["--hypothesis", HIDDEN])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "entail judge: {}: bad task: holdout program: <input>:2:16: \
             expected `,` or `)` after argument\n",
            path.display()
        )
    );
}

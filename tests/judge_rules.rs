//! Answers with several rules, drafts, comments, `/* */` blocks, restated
//! facts, directives and goals, scored by the judge (default: every rule
//! the reference finds, together) and by the SLR reference method through
//! SWI-Prolog with the reference's own extraction: the same score on every
//! answer. Tasks and rules come from `reference/slr_gen.rs`; the shapes are
//! written as models write them.

#[path = "reference/slr_baseline.rs"]
mod baseline;
#[path = "reference/slr_gen.rs"]
mod slr_gen;

use entail::judge::{ErrorKind, Judge, JudgeConfig, Rules, TaskRecord};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Restated facts, directives and goals a model writes around its rule:
/// the reference never loads them.
const AROUND: &[&str] = &[
    "has_car(train0, car0_1).\nwestbound(train1).",
    "eastbound(train0).\neastbound(train2).",
    "label(train0, east, 1).",
    ":- initialization(main).\nmain :- forall(eastbound(T), (write(T), nl)).",
    ":- eastbound(train0).",
    ":- table eastbound/1.",
    ":- op(700, xfx, ===>).",
    ":- set_prolog_flag(occurs_check, true).",
    ":- multifile eastbound/1.\n:- dynamic eastbound/1.",
    ":- discontiguous eastbound/1.",
    "test :- eastbound(train0), nl, tab(2).",
    ":- catch(eastbound(train0), _, true).",
    "check :- G = eastbound(train0), call(G).",
    "?- eastbound(train0).\ntrue.",
    ":- halt.",
    "main :- halt.",
    ":- use_module(library(lists)).",
];

/// One answer around `final_rule`, with `draft` somewhere before it.
fn shape(rng: &mut ChaCha8Rng, kind: usize, draft: &str, final_rule: &str) -> String {
    let around = AROUND.choose(rng).copied().unwrap_or("");
    match kind % 14 {
        // Reasoning, then a fenced rule.
        0 => format!(
            "<think>Maybe {draft} Let me check.</think>\nThe rule:\n```prolog\n{final_rule}\n```"
        ),
        // A guess, then the final rule.
        1 => format!("First guess: {draft}\nOn reflection, the final answer is: {final_rule}"),
        // Two [RULE] blocks.
        2 => {
            format!("[RULE]\n{draft}\n[/RULE]\nWait, that is wrong.\n[RULE]\n{final_rule}\n[/RULE]")
        }
        // A rejected rule inside /* */.
        3 => format!("```prolog\n/* rejected: {draft} */\n{final_rule}\n```"),
        // A draft in a % comment: deleted before matching.
        4 => format!("% {draft}\n{final_rule}\n% done."),
        // Restated facts, directives or goals around the rule.
        5 => format!("```prolog\n{around}\n{final_rule}\n```"),
        6 => format!("{final_rule}\n{around}</s>"),
        // Both, in a program with a comment between the rules.
        7 => format!("```prolog\n{around}\n% draft:\n{draft}\n{final_rule}\n```<|im_end|>"),
        // A malformed draft, then the rule.
        8 => format!(
            "[RULE]\n{}\n{final_rule}\n[/RULE]",
            draft.replacen(", ", " ", 1)
        ),
        // The rule, then an unclosed quote in a later "rule".
        9 => format!("{final_rule}\nAlso: eastbound(T) :- X = 'a.\neastbound(T) :- fail."),
        // A rule split over lines with a block comment inside.
        10 => format!(
            "```\n{}\n```",
            final_rule.replacen(":-", ":-\n    /* body */\n   ", 1)
        ),
        // Head arguments the pattern accepts and SWI reads otherwise.
        11 => format!(
            "{final_rule}\neastbound(T, C) :- has_car(T, C).\neastbound(x. :- {}. y) :- t.",
            if rng.gen_bool(0.5) { "true" } else { "halt" }
        ),
        // Three rules in prose.
        12 => format!(
            "Either {draft} or {final_rule} or eastbound(T) :- has_car(T, C), car_len(C, long)."
        ),
        // A rule with a decimal point cut short, then the rule.
        _ => format!("eastbound(T) :- has_car(T, C), load_num(C, N), N > 1.5.\n{final_rule}"),
    }
}

/// (validation program, answer) pairs: 42 tasks, each shape three times.
fn pairs() -> Vec<(String, String)> {
    let mut rng = ChaCha8Rng::seed_from_u64(50);
    let mut pairs = Vec::new();
    for t in 0..42 {
        let (trains, cars) = slr_gen::DIFFERENTIAL_LEVELS[t % slr_gen::DIFFERENTIAL_LEVELS.len()];
        let task = slr_gen::task(&mut rng, trains, cars);
        // Single-clause constructs (the others define helpers).
        let pick = |rng: &mut ChaCha8Rng| {
            let kind = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13][rng.gen_range(0..12)];
            slr_gen::hypothesis(rng, kind)
        };
        let draft = pick(&mut rng);
        let final_rule = pick(&mut rng);
        let answer = shape(&mut rng, t, &draft, &final_rule);
        pairs.push((task.program, answer));
    }
    // Every shape on three tasks each.
    let mut more = Vec::new();
    for (i, (program, _)) in pairs.iter().enumerate() {
        for k in 1..3 {
            let draft = slr_gen::hypothesis(&mut rng, i + k);
            let final_rule = slr_gen::hypothesis(&mut rng, (i * 3 + k) % 11);
            more.push((
                program.clone(),
                shape(&mut rng, i + k * 5, &draft, &final_rule),
            ));
        }
    }
    pairs.extend(more);
    pairs
}

fn judge(rules: Rules) -> Judge {
    let mut config = JudgeConfig::default();
    config.rules = rules;
    Judge::new(config)
}

fn score(judge: &Judge, program: &str, answer: &str) -> entail::judge::JudgeResult {
    let record = TaskRecord {
        validation_program: program.to_string(),
        ..Default::default()
    };
    judge
        .task(&record)
        .expect("generated task loads")
        .score(answer)
}

#[test]
fn several_rules_score_as_the_reference_scores_them() {
    if !baseline::swipl_available() {
        println!("SKIP: swipl not installed");
        return;
    }
    let pairs = pairs();
    let judge = judge(Rules::All);
    let theirs = baseline::score_all_by(&pairs, baseline::score_reference);
    let mut differing = Vec::new();
    let mut kinds = std::collections::BTreeMap::new();
    let (mut correct, mut partial) = (0, 0);
    for (i, ((program, answer), reference)) in pairs.iter().zip(&theirs).enumerate() {
        let ours = score(&judge, program, answer);
        let kind = format!("{:?}", ours.error_kind);
        *kinds.entry(kind).or_insert(0usize) += 1;
        correct += reference.is_correct as usize;
        partial += (reference.partial_score > 0.0 && !reference.is_correct) as usize;
        if (ours.partial_score, ours.is_correct) != (reference.partial_score, reference.is_correct)
        {
            differing.push(format!(
                "pair {i}: ours {} ({:?} {:?}) vs swipl {}\n{answer}",
                ours.partial_score, ours.error_kind, ours.error, reference.partial_score
            ));
        }
    }
    eprintln!(
        "--rules all: {} of {} answers agree with the reference; reference {correct} correct, {partial} partial; error kinds {kinds:?}",
        pairs.len() - differing.len(),
        pairs.len()
    );
    assert!(
        differing.is_empty(),
        "{} of {} differ:\n{}",
        differing.len(),
        pairs.len(),
        differing.join("\n\n")
    );
    // The tasks' labels are noisy (a tenth flipped): few rules are exact.
    assert!(correct >= 3 && partial >= 60, "{correct} {partial}");
}

/// With its switch off, the reference loads the last rule alone: so does
/// `--rules last`.
#[test]
fn the_last_rule_alone_scores_as_the_reference_with_its_switch_off() {
    if !baseline::swipl_available() {
        println!("SKIP: swipl not installed");
        return;
    }
    let pairs: Vec<_> = pairs().into_iter().step_by(3).collect();
    let judge = judge(Rules::Last);
    let theirs = baseline::score_all_by(&pairs, baseline::score_reference_last);
    let mut differing = Vec::new();
    for ((program, answer), reference) in pairs.iter().zip(&theirs) {
        let ours = score(&judge, program, answer);
        if ours.partial_score != reference.partial_score {
            differing.push(format!(
                "ours {} ({:?}) vs swipl {}\n{answer}",
                ours.partial_score, ours.error, reference.partial_score
            ));
        }
    }
    eprintln!(
        "--rules last: {} of {} answers agree with the reference (switch off)",
        pairs.len() - differing.len(),
        pairs.len()
    );
    assert!(differing.is_empty(), "{}", differing.join("\n\n"));
}

/// What the reference never loads never zeroes an answer: each restated
/// fact, directive or goal around the task's own rule leaves it 1.0.
#[test]
fn facts_directives_and_goals_around_a_rule_change_nothing() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpora/slr/task_l1.json"
    ))
    .unwrap();
    let record: TaskRecord = serde_json::from_str(&text).unwrap();
    let gold = "eastbound(T) :- has_car(T, C), car_color(C, red).";
    let judge = judge(Rules::All);
    let task = judge.task(&record).unwrap();
    for around in AROUND {
        for answer in [
            format!("{around}\n{gold}"),
            format!("```prolog\n{gold}\n{around}\n```"),
        ] {
            let result = task.score(&answer);
            assert_eq!(result.partial_score, 1.0, "{answer:?} → {result:?}");
        }
    }
    // A draft loaded with the rule changes the score, as in the reference.
    let result = task.score(&format!(
        "Not eastbound(T) :- has_car(T, C), car_len(C, long). but {gold}"
    ));
    assert!(result.partial_score < 1.0, "{result:?}");
    // No rule at all: only facts.
    let result = task.score("eastbound(train0).\n:- eastbound(train1).");
    assert_eq!(result.error_kind, Some(ErrorKind::NoRule));
}

/// 32 trains of 8–10 cars, labelled by `rule` (as the judge scores it).
fn long_train_task(rng: &mut ChaCha8Rng, rule: &str) -> String {
    const COLORS: &[&str] = &["red", "blue", "green", "yellow", "white"];
    const LENGTHS: &[&str] = &["short", "long"];
    const ROOFS: &[&str] = &["none", "flat", "peaked"];
    const PAYLOADS: &[&str] = &["circle", "triangle", "rectangle"];
    let mut trains = Vec::new();
    for t in 0..32 {
        let mut facts = String::new();
        for c in 1..=rng.gen_range(8..=10) {
            let car = format!("car{t}_{c}");
            facts.push_str(&format!(
                "has_car(train{t}, {car}).\ncar_num({car}, {c}).\ncar_color({car}, {}).\ncar_len({car}, {}).\nhas_roof({car}, {}).\nhas_payload({car}, {}).\nload_num({car}, {}).\n",
                COLORS.choose(rng).unwrap(),
                LENGTHS.choose(rng).unwrap(),
                ROOFS.choose(rng).unwrap(),
                PAYLOADS.choose(rng).unwrap(),
                rng.gen_range(0..4),
            ));
        }
        trains.push(facts);
    }
    let unlabelled: String = (0..32)
        .map(|t| format!("eastbound(train{t}).\n{}", trains[t]))
        .collect();
    let labels = score(&judge(Rules::All), &unlabelled, rule);
    assert_eq!(labels.error_kind, None, "{labels:?}");
    (0..32)
        .map(|t| {
            let label = if labels.examples[t].predicted {
                "eastbound"
            } else {
                "westbound"
            };
            format!("{label}(train{t}).\n{}", trains[t])
        })
        .collect()
}

/// A correct rule scores 1.0 whatever the order of its literals: written
/// with all its `has_car/2` literals first, on trains of 8–10 cars, it
/// joins up to 10^5 car tuples per train in SWI's order (SWI decides it
/// in milliseconds), which the judge runs in a cheap order instead of
/// running out of its step budget. The reference agrees through swipl.
#[test]
fn a_correct_rule_with_its_has_car_literals_first_scores_1() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    // (car variables, the rule's attribute literals per car)
    let shapes: &[&[&str]] = &[
        &[
            "car_color(C1, red)",
            "car_len(C2, long)",
            "has_roof(C3, peaked)",
        ],
        &[
            "car_color(C1, red)",
            "car_len(C2, long)",
            "has_roof(C3, peaked)",
            "has_payload(C4, circle)",
        ],
        &[
            "car_color(C1, blue)",
            "car_len(C2, short)",
            "has_roof(C3, flat)",
            "has_payload(C4, triangle)",
            "load_num(C5, 3)",
        ],
    ];
    let mut pairs = Vec::new();
    for attributes in shapes {
        let cars: Vec<String> = (1..=attributes.len())
            .map(|i| format!("has_car(T, C{i})"))
            .collect();
        let interleaved: Vec<String> = cars
            .iter()
            .zip(attributes.iter())
            .map(|(c, a)| format!("{c}, {a}"))
            .collect();
        let rule = format!("eastbound(T) :- {}.", interleaved.join(", "));
        let program = long_train_task(&mut rng, &rule);
        let first = format!(
            "eastbound(T) :- {}, {}.",
            cars.join(", "),
            attributes.join(", ")
        );
        // Both orders, and the attributes reversed too.
        let mut reversed: Vec<&str> = attributes.to_vec();
        reversed.reverse();
        let reversed = format!(
            "eastbound(T) :- {}, {}.",
            cars.join(", "),
            reversed.join(", ")
        );
        for answer in [rule.clone(), first, reversed] {
            pairs.push((program.clone(), answer));
        }
    }
    let judge = judge(Rules::All);
    for (program, answer) in &pairs {
        let result = score(&judge, program, answer);
        assert_eq!(
            (result.partial_score, result.error_kind),
            (1.0, None),
            "{answer}: {:?}",
            result.error
        );
    }
    if baseline::swipl_available() {
        for (reference, (_, answer)) in baseline::score_all_by(&pairs, baseline::score_reference)
            .iter()
            .zip(&pairs)
        {
            assert!(reference.is_correct, "swipl: {answer}");
        }
    }
}

/// Rules that compare with the quoted atom `'[]'`, which SWI-Prolog 9 keeps
/// apart from the empty list: each scores as the reference scores it.
#[test]
fn rules_comparing_with_the_quoted_empty_list_score_as_the_reference() {
    if !baseline::swipl_available() {
        println!("SKIP: swipl not installed");
        return;
    }
    let red = "findall(C, (has_car(T, C), car_color(C, red)), L)";
    let answers = [
        format!("eastbound(T) :- {red}, L \\= '[]'."),
        format!("eastbound(T) :- {red}, L \\== '[]'."),
        format!("eastbound(T) :- {red}, L = '[]'."),
        format!("eastbound(T) :- {red}, L \\= []."),
        format!("eastbound(T) :- {red}, \\+ L == '[]'."),
        "eastbound(T) :- has_car(T, C), car_color(C, red), '[]' \\== [].".to_string(),
        "eastbound(T) :- has_car(T, C), car_color(C, red), atom('[]').".to_string(),
    ];
    let mut pairs = Vec::new();
    for (program, _) in pairs_of_tasks(4) {
        for answer in &answers {
            pairs.push((program.clone(), answer.clone()));
        }
    }
    let judge = judge(Rules::All);
    let theirs = baseline::score_all_by(&pairs, baseline::score_reference);
    let mut differing = Vec::new();
    for ((program, answer), reference) in pairs.iter().zip(&theirs) {
        let ours = score(&judge, program, answer);
        if (ours.partial_score, ours.is_correct) != (reference.partial_score, reference.is_correct)
        {
            differing.push(format!(
                "ours {} ({:?}) vs swipl {}: {answer}",
                ours.partial_score, ours.error, reference.partial_score
            ));
        }
    }
    assert!(differing.is_empty(), "{}", differing.join("\n"));
    // The quoted atom changes the verdicts: `L \= '[]'` holds on every train.
    let differs = pairs.iter().step_by(answers.len()).any(|(program, _)| {
        let ours = |answer: &str| score(&judge, program, answer).partial_score;
        ours(&answers[0]) != ours(&answers[3])
    });
    assert!(differs, "no task tells `'[]'` from `[]`");
}

/// The validation programs of the first `n` tasks of [`pairs`].
fn pairs_of_tasks(n: usize) -> Vec<(String, String)> {
    pairs().into_iter().take(n).collect()
}

//! Answer shapes as RL frameworks hand them over (special tokens, prose,
//! fences, `[RULE]` blocks, reasoning): the judge finds the rules where the
//! SLR reference judge finds them, misses them where it misses, and gives
//! the score the reference method gives through SWI-Prolog.
//!
//! Each shape is listed with the last clause the reference extracts from
//! it (recorded by reading its extraction: `%` comments deleted and lines
//! joined, every `eastbound(args) :- body.` with `args` without
//! parentheses and the body up to the first `.`), or `None` where it finds
//! no rule and scores 0 with `syntax_valid` false. The reference loads all
//! the clauses it finds, together; the oracle (`reference/slr_baseline.rs`)
//! extracts them on its own too, and its score is those clauses run by
//! `swipl` with the reference method.

#[path = "reference/slr_baseline.rs"]
mod baseline;

use entail::judge::{
    extract_rule, reference_rules, ErrorKind, Judge, JudgeConfig, Rules, TaskRecord,
};

const TASK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/slr/task_l1.json");
/// The task's hidden rule: 1.0.
const GOLD: &str = "eastbound(T) :- has_car(T, C), car_color(C, red).";
/// A worse rule: 0.75 on the task (trains 0, 1 and 2 have a long car).
const LONG: &str = "eastbound(T) :- has_car(T, C), car_len(C, long).";

/// (shape, answer, the reference's clause).
fn shapes() -> Vec<(&'static str, String, Option<String>)> {
    let gold = Some(GOLD.to_string());
    let mut shapes = vec![
        ("bare", GOLD.to_string(), gold.clone()),
        ("</s>", format!("{GOLD}</s>"), gold.clone()),
        ("<|im_end|>", format!("{GOLD}<|im_end|>"), gold.clone()),
        ("<|eot_id|>", format!("{GOLD}\n<|eot_id|>"), gold.clone()),
        ("<|endoftext|>", format!("{GOLD}<|endoftext|><|endoftext|>"), gold.clone()),
        ("The rule is:", format!("The rule is: {GOLD}"), gold.clone()),
        (
            "explanation after",
            format!("{GOLD}\nThis rule says a train with a red car goes east."),
            gold.clone(),
        ),
        (
            "inline in prose",
            format!("Looking at the trains, {GOLD} covers every example."),
            gold.clone(),
        ),
        (
            "[RULE] fence then a query block",
            format!(
                "[RULE]\n```prolog\n{GOLD}\n```\n[/RULE]\nCheck:\n```\n?- eastbound(train0).\ntrue.\n```"
            ),
            gold.clone(),
        ),
        (
            "[RULE] then an output fence",
            format!("[RULE]\n{GOLD}\n[/RULE]\n```text\neastbound(train0): yes\n```"),
            gold.clone(),
        ),
        (
            "inline backticks in [RULE]",
            format!("[RULE] `{GOLD}` [/RULE]"),
            gold.clone(),
        ),
        (
            "reasoning then fence",
            format!("<think>Maybe {LONG} No.</think>\n```prolog\n{GOLD}\n```<|im_end|>"),
            gold.clone(),
        ),
        (
            "a guess then the final rule",
            format!("First guess: {GOLD} Final answer: {LONG}"),
            Some(LONG.to_string()),
        ),
        (
            "rule only in reasoning",
            format!("<think>It must be {GOLD}</think>I cannot say."),
            gold.clone(),
        ),
        (
            "a rule with a helper",
            "eastbound(T) :- has_car(T, C), red(C).\nred(C) :- car_color(C, red).</s>".into(),
            // The reference loads the clause alone; the judge loads the
            // program around it (see the README): this shape is listed in
            // `helpers_are_kept` instead.
            None,
        ),
        (
            "a decimal point in the body",
            "eastbound(T) :- findall(C, (has_car(T, C), car_color(C, red)), Cs), length(Cs, N), N > 0.5.".into(),
            // The body ends at the first `.`: `N > 0`, here to the same effect.
            Some("eastbound(T) :- findall(C, (has_car(T, C), car_color(C, red)), Cs), length(Cs, N), N > 0.".into()),
        ),
        (
            "a decimal point that changes the rule",
            format!("The rule: {LONG}\neastbound(T) :- has_car(T, C), car_color(C, red), car_num(C, N), N < 1.5."),
            // `N < 1.`: no train (0.5), where the whole rule would score 1.0.
            Some("eastbound(T) :- has_car(T, C), car_color(C, red), car_num(C, N), N < 1.".into()),
        ),
        ("only a fact", "eastbound(train0).".into(), None),
        ("facts only", "eastbound(train0).\neastbound(train2).".into(), None),
        ("a commented rule", format!("% {GOLD}\n"), None),
        ("no full stop", GOLD.trim_end_matches('.').to_string(), None),
        ("empty", String::new(), None),
        ("prose only", "The trains with red cars go east.".into(), None),
    ];
    shapes.retain(|(shape, _, _)| *shape != "a rule with a helper");
    shapes
}

fn task_record() -> (TaskRecord, String) {
    let text = std::fs::read_to_string(TASK).unwrap();
    let record: TaskRecord = serde_json::from_str(&text).unwrap();
    let program = record.validation_program.clone();
    (record, program)
}

#[test]
fn the_rule_is_found_where_the_reference_finds_it() {
    for (shape, answer, clause) in shapes() {
        let found = extract_rule(&answer, "eastbound").map(|e| e.clause);
        assert_eq!(found, clause, "{shape}: {answer:?}");
        // The oracle's own extraction finds the same text.
        let reference = baseline::reference_clause(&answer, "eastbound");
        assert_eq!(reference, clause, "oracle, {shape}: {answer:?}");
        // And all the rules alike, the last one last.
        let all = reference_rules(&answer, "eastbound");
        assert_eq!(
            (!all.is_empty()).then(|| all.program().trim_end().to_string()),
            baseline::reference_rules(&answer, "eastbound"),
            "{shape}: {answer:?}"
        );
        let squeeze = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            (!all.is_empty()).then(|| squeeze(all.last())),
            clause.as_deref().map(squeeze),
            "{shape}"
        );
    }
}

/// Every shape scored by the judge under `rules` and by `scorer` through
/// swipl: the same score, and `no_rule` where the reference finds none.
fn shapes_score_alike(rules: Rules, scorer: baseline::Scorer) -> usize {
    let (record, program) = task_record();
    let mut config = JudgeConfig::default();
    config.rules = rules;
    let judge = Judge::new(config);
    let task = judge.task(&record).unwrap();
    let (mut ours, mut theirs) = (0, 0);
    for (shape, answer, clause) in shapes() {
        let result = task.score(&answer);
        let reference = scorer(&program, &answer, "eastbound", "westbound").unwrap();
        let (score, syntax_valid) = (reference.partial_score, clause.is_some());
        assert_eq!(
            (result.partial_score, result.syntax_valid),
            (score, syntax_valid),
            "{rules:?}, {shape}: {answer:?} → {result:?}"
        );
        if clause.is_none() {
            assert_eq!(result.error_kind, Some(ErrorKind::NoRule), "{shape}");
        }
        ours += result.is_correct as usize;
        theirs += (score == 1.0) as usize;
    }
    assert_eq!(ours, theirs);
    ours
}

#[test]
fn every_shape_scores_as_the_reference_does_through_swi() {
    if !baseline::swipl_available() {
        println!("SKIP: swipl not installed");
        return;
    }
    // The reference to the letter: all its rules together.
    let all = shapes_score_alike(Rules::All, baseline::score_reference);
    // With its switch off: the last rule alone.
    let last = shapes_score_alike(Rules::Last, baseline::score_reference_last);
    // Drafts count with the final rule: fewer shapes are fully correct.
    assert!(all >= 10 && last > all, "{all} {last}");
}

/// A rule that calls a helper of its own scores 0, as in the reference
/// (the helper is never loaded: calling it raises). With `--rules
/// program`, where the rule stands in a block that reads as a program,
/// its helpers and its other clauses are loaded with it; where the block
/// does not read, the clause alone is, as the reference loads it.
#[test]
fn helpers_are_kept_with_rules_program() {
    let (record, _) = task_record();
    let default = Judge::new(JudgeConfig::default());
    let mut config = JudgeConfig::default();
    config.rules = Rules::Program;
    let judge = Judge::new(config);
    let task = judge.task(&record).unwrap();
    let helper = "eastbound(T) :- has_car(T, C), red(C).\nred(C) :- car_color(C, red).";
    let result = default.task(&record).unwrap().score(helper);
    assert_eq!(
        (result.partial_score, result.error_kind),
        (0.0, Some(ErrorKind::Runtime)),
        "{result:?}"
    );
    let helper = "eastbound(T) :- has_car(T, C), red(C).\nred(C) :- car_color(C, red).";
    for answer in [
        helper.to_string(),
        format!("{helper}</s>"),
        format!("[RULE]\n{helper}\n[/RULE]\nDone."),
        format!("Here:\n```prolog\n{helper}\n```\n```\n?- eastbound(train0).\n```"),
    ] {
        let result = task.score(&answer);
        assert_eq!(result.partial_score, 1.0, "{answer:?} → {result:?}");
    }
    // Prose around the helper: the clause alone, whose helper is missing.
    let result = task.score(&format!("So {helper} is it."));
    assert_eq!(result.partial_score, 0.0);
    assert_eq!(result.error_kind, Some(ErrorKind::Runtime), "{result:?}");
    assert!(result.syntax_valid);
}

/// The judge's extraction and the oracle's, written apart, agree on
/// answers stitched from the pieces that matter to the reference's pattern
/// (heads, necks, full stops, comments, line breaks, parentheses, special
/// tokens): the same clause, up to white space (the reference joins lines,
/// the judge keeps them).
#[test]
fn the_judge_and_the_oracle_extract_alike() {
    const PIECES: &[&str] = &[
        "eastbound(",
        "eastbound(T)",
        "not_eastbound(T)",
        "T",
        ")",
        "(",
        " ",
        "\n",
        "\n  ",
        ":-",
        " :- ",
        ".",
        "1.5",
        "%",
        "% c.\n",
        "a(T)",
        ", ",
        "'a.b'",
        "`",
        "```",
        "</s>",
        "é",
        "\t",
        "eastbound(T) :- a(T).",
        "westbound(T) :- b(T).",
        "/* ",
        " */",
        "\r\n",
        "\n% x\n ",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let squeeze = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = 0;
    for _ in 0..20_000 {
        let answer: String = (0..1 + next(12))
            .map(|_| PIECES[next(PIECES.len())])
            .collect();
        let ours = extract_rule(&answer, "eastbound").map(|e| squeeze(&e.clause));
        let theirs = baseline::reference_clause(&answer, "eastbound").map(|c| squeeze(&c));
        assert_eq!(ours, theirs, "{answer:?}");
        // All the rules, byte for byte as the reference writes them.
        let all = reference_rules(&answer, "eastbound");
        assert_eq!(
            (!all.is_empty()).then(|| all.program().trim_end().to_string()),
            baseline::reference_rules(&answer, "eastbound"),
            "{answer:?}"
        );
        // Every offset maps back to the same character of the answer.
        for rule in &all.rules {
            let at = all.answer_offset(&answer, rule.start);
            assert!(answer[at..].starts_with("eastbound("), "{answer:?}");
        }
        found += ours.is_some() as usize;
    }
    assert!(found > 2_000, "{found}");
}

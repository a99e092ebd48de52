//! The one answer reader, as every benchmark's scorer uses it: gold and
//! wrong answers of LogicGraph, LogiConBench and DivLogicEval, and
//! non-committal texts, wrapped in the shapes models write them in
//! (reasoning blocks holding other answers, drafts before a final answer,
//! chat-template and end-of-sequence tokens, markdown, `\boxed{}`,
//! `<answer>` tags, prose before and after, case variants). Gold reads as
//! gold (full reward), wrong as wrong (0), non-committal as no answer.

use entail::gen::{divlogic, logicon};
use entail::syntax::answer::read;
use entail::syntax::answer::steps::{self, Cite, PathAnswer, StepLine};
use entail::syntax::answer::truth::Truth;
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::sync::OnceLock;

#[path = "reference/shared_corpus.rs"]
mod shared_corpus;

/// How a completion is wrapped around its final answer.
#[derive(Debug, Clone)]
struct Shape {
    /// A chat-template header before the completion.
    header: usize,
    /// A reasoning block holding another answer: none, `<think>…</think>`,
    /// a lone `</think>` (the template opened it), `<thinking>`,
    /// `[THINK]`, or gpt-oss's analysis channel.
    think: usize,
    /// Drafts (marked answers with another label) before the final one.
    drafts: usize,
    /// Prose before the final answer.
    before: usize,
    /// How the final answer is marked.
    marker: usize,
    /// Prose after it.
    after: usize,
    /// End tokens after everything.
    ends: Vec<usize>,
}

const HEADERS: &[&str] = &[
    "",
    "<|im_start|>assistant\n",
    "<start_of_turn>model\n",
    "<|start_header_id|>assistant<|end_header_id|>\n\n",
    "<s>",
];
const BEFORE: &[&str] = &[
    "",
    "Let me work through this carefully.\n\n",
    "Looking at each statement in turn, the premises combine as shown.\n\n",
    "We reason step by step.\n",
];
const AFTER: &[&str] = &[
    "",
    "\n\nThis follows from the premises above.",
    "\n\nHope this helps!",
    "\n",
];
const ENDS: &[&str] = &[
    "</s>",
    "<|im_end|>",
    "<|endoftext|>",
    "<|eot_id|>",
    "<end_of_turn>",
    "<eos>",
    "<|end|>",
    "<|return|>",
    "\n",
];

/// Marker styles for a one-line answer `{}`; the last is the bare answer.
const MARKERS: &[&str] = &[
    "Answer: {}",
    "**Answer:** {}",
    "**Answer**: {}",
    "The answer is {}.",
    "Final answer: {}",
    "\\boxed{{}}",
    "Final Answer: $\\boxed{\\text{{}}}$",
    "<answer>{}</answer>",
    "<answer>\n{}\n</answer>",
    "## Final Answer\n\n{}",
    "**Final Answer**\n{}",
    "ANSWER: {}",
    "answer: **{}**",
    "Therefore, the final answer is: {}",
    "So the answer is **{}**.",
    "{}",
];

/// Marker styles for a multi-line answer (lists, steps).
const BLOCK_MARKERS: &[&str] = &[
    "Answer:\n{}",
    "**Answer:**\n\n{}",
    "Final answer:\n{}",
    "<answer>\n{}\n</answer>",
    "## Answer\n{}",
    "{}",
];

fn shape(markers: usize) -> impl Strategy<Value = Shape> {
    (
        0..HEADERS.len(),
        0usize..7,
        0usize..3,
        0..BEFORE.len(),
        0..markers,
        0..AFTER.len(),
        proptest::collection::vec(0..ENDS.len(), 0..4),
    )
        .prop_map(
            |(header, think, drafts, before, marker, after, ends)| Shape {
                header,
                think,
                drafts,
                before,
                marker,
                after,
                ends,
            },
        )
}

/// `answer` wrapped in `shape` with `markers`; `other` is what the
/// reasoning block and the drafts say instead.
fn wrap(shape: &Shape, markers: &[&str], answer: &str, other: &str) -> String {
    let bare = shape.marker == markers.len() - 1;
    let mut out = String::from(HEADERS[shape.header]);
    let thought = format!("Let me think. Maybe it is {other}.\nAnswer: {other}\n");
    match shape.think {
        1 => out.push_str(&format!("<think>\n{thought}</think>\n\n")),
        2 => out = format!("{thought}</think>\n\n"),
        3 => out.push_str(&format!("<thinking>{thought}</thinking>\n")),
        4 => out.push_str(&format!("[THINK]{thought}[/THINK]")),
        5 => {
            out = format!(
                "<|channel|>analysis<|message|>{thought}<|end|><|start|>assistant<|channel|>final<|message|>"
            )
        }
        _ => {}
    }
    // A bare answer is the last line: no drafts before it, no prose after.
    if !bare {
        for _ in 0..shape.drafts {
            out.push_str(&format!(
                "Answer: {other}\nWait, that is not right. Let me check again.\n\n"
            ));
        }
    }
    out.push_str(BEFORE[shape.before]);
    out.push_str(&markers[shape.marker].replace("{}", answer));
    if !bare {
        out.push_str(AFTER[shape.after]);
    }
    for &e in &shape.ends {
        out.push_str(ENDS[e]);
    }
    out
}

/// A completion whose only answer, `answer`, is inside its reasoning
/// (closed, unclosed, or before a lone `</think>`), followed by prose and
/// end tokens.
fn think_only(shape: &Shape, answer: &str) -> String {
    let thought = format!("The answer is {answer}.\nAnswer: {answer}\n");
    let mut out = String::from(HEADERS[shape.header]);
    match shape.think % 5 {
        0 => out.push_str(&format!("<think>\n{thought}</think>\n\n")),
        1 => out = format!("{thought}</think>\n\n"),
        2 => out.push_str(&format!("<think>\n{thought}")),
        3 => out.push_str(&format!("<thinking>{thought}</thinking>\n")),
        _ => out.push_str(&format!("<|channel|>analysis<|message|>{thought}<|end|>")),
    }
    if shape.think % 5 != 2 {
        out.push_str(BEFORE[shape.before]);
    }
    for &e in &shape.ends {
        out.push_str(ENDS[e]);
    }
    out
}

/// How a letter is written: `D`, `d`, `(D)`, `**D**`, with option text.
fn letter_text(index: usize, style: usize) -> String {
    let l = (b'A' + index as u8) as char;
    match style {
        0 => l.to_string(),
        1 => l.to_ascii_lowercase().to_string(),
        2 => format!("({l})"),
        3 => format!("**{l}**"),
        4 => format!("{l}. All cats are animals"),
        5 => format!("({l}) Some birds do not fly"),
        _ => format!("Option {l}"),
    }
}

/// Non-committal option answers, given the gold letter and another.
fn letter_hedge(style: usize, gold: char, other: char) -> String {
    match style {
        0 => "A B C D".to_string(),
        1 => format!("{gold} or {other}"),
        2 => format!("either {gold} or {other}"),
        3 => format!("{other}, {gold}"),
        4 => format!("({gold}) and ({other})"),
        5 => "I don't know".to_string(),
        6 => "None of the above".to_string(),
        7 => format!("not {gold}"),
        8 => "Cannot be determined".to_string(),
        9 => format!("{gold}?"),
        10 => format!("{gold}/{other}"),
        11 => format!("probably {gold}"),
        12 => "unknown".to_string(),
        _ => "E".to_string(),
    }
}

fn verdict_text(consistent: bool, style: usize) -> String {
    let word = if consistent {
        "consistent"
    } else {
        "inconsistent"
    };
    match style {
        0 => word.to_string(),
        1 => word.to_uppercase(),
        2 => format!("{}{}", word[..1].to_uppercase(), &word[1..]),
        3 => format!("The list is {word}"),
        4 => format!("**{word}**"),
        5 if !consistent => "not consistent".to_string(),
        5 => "satisfiable".to_string(),
        _ => format!("{word}, given the statements"),
    }
}

fn verdict_hedge(style: usize) -> String {
    [
        "consistent or inconsistent",
        "I can't tell",
        "I don't know.",
        "cannot be determined",
        "either consistent or inconsistent",
        "unknown",
        "maybe consistent",
        "It might be inconsistent",
        "consistent?",
        "I'm not sure",
    ][style % 10]
        .to_string()
}

fn label_text(t: Truth, style: usize) -> String {
    let (short, long) = match t {
        Truth::T => ("T", "true"),
        Truth::F => ("F", "false"),
    };
    match style {
        0 => short.to_string(),
        1 => short.to_lowercase(),
        2 => long.to_string(),
        3 => long.to_uppercase(),
        4 => format!("**{short}**"),
        5 => format!("The value is {short}"),
        _ => format!("'{short}'"),
    }
}

fn label_hedge(style: usize) -> String {
    [
        "I don't know.",
        "I can't tell",
        "It is not true",
        "not T",
        "not F",
        "T or F",
        "T/F",
        "either T or F",
        "unknown",
        "true or false",
        "It is not false",
    ][style % 11]
        .to_string()
}

fn lists_text(lists: &BTreeSet<Vec<Truth>>, style: usize) -> String {
    let one = |l: &Vec<Truth>| {
        let w: Vec<&str> = l
            .iter()
            .map(|t| match (t, style) {
                (Truth::T, 1) => "true",
                (Truth::F, 1) => "false",
                (Truth::T, _) => "T",
                (Truth::F, _) => "F",
            })
            .collect();
        format!("[{}]", w.join(", "))
    };
    let items: Vec<String> = lists.iter().map(one).collect();
    match style {
        2 => format!("[{}]", items.join(", ")),
        3 => items
            .iter()
            .map(|i| format!("- {i}"))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => items.join("\n"),
    }
}

fn truth() -> impl Strategy<Value = Truth> {
    prop_oneof![Just(Truth::T), Just(Truth::F)]
}

fn other_truth(t: Truth) -> Truth {
    match t {
        Truth::T => Truth::F,
        Truth::F => Truth::T,
    }
}

/// LogicGraph paths in the prompt's format, with markdown variants.
fn steps_text(paths: &[PathAnswer], style: usize) -> String {
    let plain: String = paths.iter().map(PathAnswer::to_string).collect();
    match style {
        1 => plain
            .lines()
            .map(|l| {
                if l.starts_with("Solution") {
                    format!("**{l}**")
                } else {
                    format!("- {l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        2 => plain
            .lines()
            .map(|l| {
                if let Some(rest) = l.strip_prefix("Solution ") {
                    format!("### Path {}", rest.trim_end_matches(':'))
                } else if let Some((head, tail)) = l.split_once(": ") {
                    format!("**{head}:** {tail}")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        3 => format!("```\n{plain}```"),
        _ => plain,
    }
}

fn path_strategy() -> impl Strategy<Value = PathAnswer> {
    let cite = prop_oneof![
        ("(Fact|Rule)", 1u32..30).prop_map(|(n, k)| Cite::Premise(format!("{n}{k}"))),
        (1u32..5).prop_map(Cite::Step),
    ];
    let step = (
        proptest::collection::vec(cite, 1..3),
        "[A-Z][0-9]{1,2}( [∧∨→] ¬?[A-Z][0-9])?",
    );
    proptest::collection::vec(step, 1..4).prop_map(|steps| PathAnswer {
        number: 1,
        steps: steps
            .into_iter()
            .enumerate()
            .map(|(k, (cited, conclusion))| StepLine {
                number: k as u32 + 1,
                cited,
                conclusion,
            })
            .collect(),
    })
}

fn paths_strategy() -> impl Strategy<Value = Vec<PathAnswer>> {
    proptest::collection::vec(path_strategy(), 1..3).prop_map(|mut paths| {
        for (i, p) in paths.iter_mut().enumerate() {
            p.number = i as u32 + 1;
        }
        paths
    })
}

/// Generated LogiConBench records of the three single-answer kinds, made
/// once: hard (Task 1), completion (hidden label) and plain (Task 2).
fn logicon_records() -> &'static [logicon::Record] {
    static RECORDS: OnceLock<Vec<logicon::Record>> = OnceLock::new();
    RECORDS.get_or_init(|| {
        let mut records = Vec::new();
        for variant in [
            logicon::Variant::Hard,
            logicon::Variant::Completion,
            logicon::Variant::Plain,
        ] {
            let config = logicon::Config {
                variant,
                count: 4,
                seed: 50,
                ..Default::default()
            };
            let mut out = Vec::new();
            logicon::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
            for line in String::from_utf8(out).expect("utf-8").lines() {
                records.push(serde_json::from_str(line).expect("a record"));
            }
        }
        records
    })
}

/// Generated DivLogicEval questions, made once; `None` without WordNet.
fn divlogic_questions() -> Option<&'static [divlogic::Question]> {
    static QUESTIONS: OnceLock<Option<Vec<divlogic::Question>>> = OnceLock::new();
    QUESTIONS
        .get_or_init(|| {
            if !shared_corpus::wordnet("divlogic_rewards_read_wrapped_answers") {
                return None;
            }
            let config = divlogic::Config {
                count: 8,
                seed: 50,
                ..divlogic::Config::default()
            };
            let mut out = Vec::new();
            divlogic::generate(&config, &mut out, &|_| {}).expect("generation succeeds");
            Some(
                String::from_utf8(out)
                    .expect("utf-8")
                    .lines()
                    .map(|l| serde_json::from_str(l).expect("a question"))
                    .collect(),
            )
        })
        .as_deref()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn option_letters_read_through_any_wrapping(
        s in shape(MARKERS.len()),
        gold in 0usize..4,
        shift in 1usize..4,
        style in 0usize..7,
        hedge in 0usize..14,
    ) {
        let wrong = (gold + shift) % 4;
        let as_letter = |i: usize| (b'A' + i as u8) as char;
        // A lower-case letter followed by option text reads as prose.
        let style = if style == 1 && matches!(s.marker, 3 | 14) { 0 } else { style };
        let text = wrap(&s, MARKERS, &letter_text(gold, style), &as_letter(wrong).to_string());
        prop_assert_eq!(read::option(&text, 4), Some(gold), "gold {:?}", text);
        let text = wrap(&s, MARKERS, &letter_text(wrong, style), &as_letter(gold).to_string());
        prop_assert_eq!(read::option(&text, 4), Some(wrong), "wrong {:?}", text);
        let text = wrap(&s, MARKERS, &letter_hedge(hedge, as_letter(gold), as_letter(wrong)), &as_letter(gold).to_string());
        prop_assert_eq!(read::option(&text, 4), None, "non-committal {:?}", text);
        let text = think_only(&s, &letter_text(gold, style));
        prop_assert_eq!(read::option(&text, 4), None, "reasoning only {:?}", text);
    }

    #[test]
    fn verdicts_read_through_any_wrapping(
        s in shape(MARKERS.len()),
        gold in any::<bool>(),
        style in 0usize..7,
        hedge in 0usize..10,
    ) {
        let other = if gold { "inconsistent" } else { "consistent" };
        let text = wrap(&s, MARKERS, &verdict_text(gold, style), other);
        prop_assert_eq!(read::verdict(&text), Some(gold), "gold {:?}", text);
        let text = wrap(&s, MARKERS, &verdict_text(!gold, style), &verdict_text(gold, 0));
        prop_assert_eq!(read::verdict(&text), Some(!gold), "wrong {:?}", text);
        let text = wrap(&s, MARKERS, &verdict_hedge(hedge), &verdict_text(gold, 0));
        prop_assert_eq!(read::verdict(&text), None, "non-committal {:?}", text);
        let text = think_only(&s, &verdict_text(gold, style));
        prop_assert_eq!(read::verdict(&text), None, "reasoning only {:?}", text);
    }

    #[test]
    fn labels_read_through_any_wrapping(
        s in shape(MARKERS.len()),
        gold in truth(),
        style in 0usize..7,
        hedge in 0usize..11,
    ) {
        let wrong = other_truth(gold);
        let text = wrap(&s, MARKERS, &label_text(gold, style), &label_text(wrong, 0));
        prop_assert_eq!(read::label(&text), Some(gold), "gold {:?}", text);
        let text = wrap(&s, MARKERS, &label_text(wrong, style), &label_text(gold, 0));
        prop_assert_eq!(read::label(&text), Some(wrong), "wrong {:?}", text);
        let text = wrap(&s, MARKERS, &label_hedge(hedge), &label_text(gold, 0));
        prop_assert_eq!(read::label(&text), None, "non-committal {:?}", text);
        let text = think_only(&s, &label_text(gold, style));
        prop_assert_eq!(read::label(&text), None, "reasoning only {:?}", text);
    }

    #[test]
    fn lists_read_through_any_wrapping(
        s in shape(BLOCK_MARKERS.len()),
        k in 2usize..4,
        gold in proptest::collection::btree_set(proptest::collection::vec(truth(), 3), 1..4),
        style in 0usize..4,
    ) {
        let gold: BTreeSet<Vec<Truth>> = gold.into_iter().map(|mut l| { l.truncate(k); l }).collect();
        let draft: BTreeSet<Vec<Truth>> = [vec![Truth::T; k], vec![Truth::F; k]].into_iter().collect();
        let text = wrap(&s, BLOCK_MARKERS, &lists_text(&gold, style), &lists_text(&draft, 0));
        prop_assert_eq!(read::lists(&text, k), Some(gold.clone()), "gold {:?}", text);
        // A non-committal final answer names no list, whatever came before.
        let text = wrap(&s, BLOCK_MARKERS, "I don't know.", &lists_text(&gold, 0));
        prop_assert_eq!(read::lists(&text, k), None, "non-committal {:?}", text);
        let text = think_only(&s, &lists_text(&gold, style));
        prop_assert_eq!(read::lists(&text, k), None, "reasoning only {:?}", text);
    }

    #[test]
    fn steps_read_through_any_wrapping(
        s in shape(BLOCK_MARKERS.len()),
        gold in paths_strategy(),
        style in 0usize..4,
    ) {
        let draft = vec![PathAnswer {
            number: 1,
            steps: vec![StepLine { number: 1, cited: vec![Cite::Premise("Fact99".into())], conclusion: "Z9".into() }],
        }];
        let draft_text: String = draft.iter().map(PathAnswer::to_string).collect();
        let text = wrap(&s, BLOCK_MARKERS, &steps_text(&gold, style), &draft_text);
        prop_assert_eq!(steps::read(&text), gold.clone(), "gold {:?}", text);
        let text = think_only(&s, &steps_text(&gold, style));
        prop_assert_eq!(steps::read(&text), Vec::new(), "reasoning only {:?}", text);
    }

    #[test]
    fn logicon_rewards_read_through_any_wrapping(
        s in shape(MARKERS.len()),
        pick in 0usize..12,
        hedge in 0usize..11,
    ) {
        let records = logicon_records();
        let record = &records[pick % records.len()];
        let gold = logicon::gold_answer(record);
        let Some((wrong, noncommittal)) = (match gold.as_str() {
            "consistent" => Some(("inconsistent".to_string(), verdict_hedge(hedge))),
            "inconsistent" => Some(("consistent".to_string(), verdict_hedge(hedge))),
            "T" => Some(("F".to_string(), label_hedge(hedge))),
            "F" => Some(("T".to_string(), label_hedge(hedge))),
            _ => None,
        }) else {
            // Task 2: the gold lists earn 1 in block shapes.
            let s = Shape { marker: s.marker % BLOCK_MARKERS.len(), ..s };
            let text = wrap(&s, BLOCK_MARKERS, &gold.replace("] [", "]\n["), "[T, T]");
            let r = logicon::reward(record, &text).expect("scorable");
            prop_assert_eq!(r.score, 1.0, "gold {:?}", text);
            return Ok(());
        };
        let r = logicon::reward(record, &wrap(&s, MARKERS, &gold, &wrong)).expect("scorable");
        prop_assert_eq!((r.score, r.parsed), (1.0, true), "gold {}", gold);
        let r = logicon::reward(record, &wrap(&s, MARKERS, &wrong, &gold)).expect("scorable");
        prop_assert_eq!((r.score, r.parsed), (0.0, true), "wrong {}", wrong);
        let text = wrap(&s, MARKERS, &noncommittal, &gold);
        let r = logicon::reward(record, &text).expect("scorable");
        prop_assert_eq!((r.score, r.parsed), (0.0, false), "non-committal {:?}", text);
    }

    #[test]
    fn divlogic_rewards_read_through_any_wrapping(
        s in shape(MARKERS.len()),
        pick in 0usize..8,
        shift in 1usize..4,
        hedge in 0usize..14,
    ) {
        let Some(questions) = divlogic_questions() else { return Ok(()); };
        let q = &questions[pick % questions.len()];
        let letter = |i: usize| ((b'A' + i as u8) as char).to_string();
        let gold_line = divlogic::gold_answer(q);
        let gold = gold_line.trim_start_matches("Answer: ");
        let wrong = letter((q.answer + shift) % 4);
        let one = |text: &str| divlogic::rewards(std::slice::from_ref(q), &[text])[0].clone();
        let r = one(&wrap(&s, MARKERS, gold, &wrong));
        prop_assert_eq!((r.score, r.picked), (1.0, Some(q.answer)));
        let r = one(&wrap(&s, MARKERS, &wrong, gold));
        prop_assert_eq!(r.score, 0.0);
        let text = wrap(&s, MARKERS, &letter_hedge(hedge, gold.chars().next().unwrap_or('A'), wrong.chars().next().unwrap_or('A')), gold);
        let r = one(&text);
        prop_assert_eq!((r.score, r.picked), (0.0, None), "non-committal {:?}", text);
    }
}

/// `divlogic.score` reads the answers files' text as the rewards do: the
/// gold completion itself, and wrapped ones.
#[test]
fn divlogic_score_reads_completion_text() {
    let Some(questions) = divlogic_questions() else {
        return;
    };
    let lines: Vec<String> = questions
        .iter()
        .map(|q| {
            let text = format!(
                "<think>Answer: B</think>\n{}<|im_end|>",
                divlogic::gold_answer(q)
            );
            serde_json::json!({"id": q.id, "answer": text}).to_string()
        })
        .collect();
    let answers: Vec<divlogic::Answer> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("an answer line"))
        .collect();
    let report = divlogic::score(
        questions,
        &answers,
        &divlogic::ScoreConfig::default(),
        &|_| {},
    );
    assert_eq!((report.answered, report.accuracy), (questions.len(), 1.0));
}

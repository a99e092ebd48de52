//! `entail gen divlogic` and `entail score divlogic`: every verdict re-checked
//! by a truth table written here (independent of `entail::truth` and of the
//! generator's formula building: the test parses the printed Prover9 text).

use super::content::{sample_content, Scheme};
use super::language::{negate, Lexicon};
use super::score::{base_id, partial_circular, pc_alpha};
use super::{
    generate, rotate, score, Answer, Config, Question, QuestionType, ScoreConfig, TypeChoice,
};
use crate::gen::item_rng;
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------
// An independent propositional evaluator for the Prover9 subset we print.

#[derive(Debug, Clone, PartialEq)]
enum F {
    Var(usize),
    Not(Box<F>),
    And(Box<F>, Box<F>),
    Or(Box<F>, Box<F>),
    Imp(Box<F>, Box<F>),
}

fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            ' ' => i += 1,
            '-' if chars.get(i + 1) == Some(&'>') => {
                out.push("->".into());
                i += 2
            }
            c @ ('-' | '&' | '|' | '(' | ')') => {
                out.push(c.to_string());
                i += 1
            }
            c if ('A'..='H').contains(&c) => {
                out.push(c.to_string());
                i += 1
            }
            c => panic!("unexpected {c:?} in {s:?}"),
        }
    }
    out
}

/// Precedence climbing: `-` > `&` > `|` > `->` (as in Prover9).
struct P {
    toks: Vec<String>,
    at: usize,
}
impl P {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.at).map(|s| s.as_str())
    }
    fn eat(&mut self, t: &str) -> bool {
        if self.peek() == Some(t) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn imp(&mut self) -> F {
        let a = self.or();
        if self.eat("->") {
            F::Imp(Box::new(a), Box::new(self.imp()))
        } else {
            a
        }
    }
    fn or(&mut self) -> F {
        let a = self.and();
        if self.eat("|") {
            F::Or(Box::new(a), Box::new(self.or()))
        } else {
            a
        }
    }
    fn and(&mut self) -> F {
        let a = self.unary();
        if self.eat("&") {
            F::And(Box::new(a), Box::new(self.and()))
        } else {
            a
        }
    }
    fn unary(&mut self) -> F {
        if self.eat("-") {
            return F::Not(Box::new(self.unary()));
        }
        if self.eat("(") {
            let f = self.imp();
            assert!(self.eat(")"), "missing ) in {:?}", self.toks);
            return f;
        }
        let t = self.toks[self.at].clone();
        self.at += 1;
        F::Var((t.as_bytes()[0] - b'A') as usize)
    }
}

fn parse(s: &str) -> F {
    let mut p = P {
        toks: tokens(s),
        at: 0,
    };
    let f = p.imp();
    assert_eq!(p.at, p.toks.len(), "trailing tokens in {s:?}");
    f
}

fn eval(f: &F, row: u32) -> bool {
    match f {
        F::Var(v) => row >> v & 1 == 1,
        F::Not(a) => !eval(a, row),
        F::And(a, b) => eval(a, row) && eval(b, row),
        F::Or(a, b) => eval(a, row) || eval(b, row),
        F::Imp(a, b) => !eval(a, row) || eval(b, row),
    }
}

/// Premises ⊨ goal, over all 256 assignments of A..H.
fn entails(premises: &[F], goal: &F) -> bool {
    (0..256u32).all(|row| !premises.iter().all(|p| eval(p, row)) || eval(goal, row))
}

fn equivalent(a: &F, b: &F) -> bool {
    (0..256u32).all(|row| eval(a, row) == eval(b, row))
}

/// The premise is one of the three antecedent shapes, with distinct variables.
fn scheme_shape(f: &F) -> Option<Vec<usize>> {
    let vars = match f {
        F::Imp(a, b) => match (a.as_ref(), b.as_ref()) {
            (F::Var(x), F::Var(y)) => vec![*x, *y],
            (F::Not(inner), F::Var(z)) => match inner.as_ref() {
                F::And(x, y) if matches!((x.as_ref(), y.as_ref()), (F::Var(_), F::Var(_))) => {
                    let (F::Var(x), F::Var(y)) = (x.as_ref(), y.as_ref()) else {
                        return None;
                    };
                    vec![*x, *y, *z]
                }
                _ => return None,
            },
            (F::Or(x, y), F::Var(z)) => match (x.as_ref(), y.as_ref()) {
                (F::Var(x), F::Var(y)) => vec![*x, *y, *z],
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let mut sorted = vars.clone();
    sorted.sort();
    sorted.dedup();
    (sorted.len() == vars.len()).then_some(vars)
}

/// The JSONL `generate` writes for `config`.
fn jsonl(config: &Config) -> Vec<u8> {
    let mut out = Vec::new();
    generate(config, &mut out, &|_| {}).expect("generation succeeds");
    out
}

/// The records `generate` writes for `config`, read back.
fn questions(config: &Config) -> Vec<Question> {
    let text = String::from_utf8(jsonl(config)).expect("utf-8");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a question"))
        .collect()
}

fn mixed(count: u64, seed: u64) -> Vec<Question> {
    let config = Config {
        types: TypeChoice::Mixed,
        count,
        seed,
        ..Config::default()
    };
    questions(&config)
}

// ---------------------------------------------------------------------------

#[test]
fn every_verdict_of_2100_questions_agrees_with_an_independent_truth_table() {
    let questions = mixed(2100, 2026);
    assert_eq!(questions.len(), 2100);
    let mut per_type: BTreeMap<&str, usize> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for q in &questions {
        *per_type.entry(q.kind.name()).or_default() += 1;
        assert_eq!(q.options.len(), 4, "{}", q.id);
        assert_eq!(q.verdicts.len(), 4, "{}", q.id);
        let premises: Vec<F> = q.content.symbolic.iter().map(|s| parse(s)).collect();
        for (s, p) in q.content.symbolic.iter().zip(&premises) {
            assert!(
                scheme_shape(p).is_some(),
                "{}: premise {s} is not a scheme antecedent",
                q.id
            );
        }
        let satisfiable = (0..256u32).any(|row| premises.iter().all(|p| eval(p, row)));
        assert!(satisfiable, "{}: inconsistent content", q.id);
        let options: Vec<F> = q.options.iter().map(|o| parse(&o.symbolic)).collect();
        for (i, a) in options.iter().enumerate() {
            for b in &options[i + 1..] {
                assert!(!equivalent(a, b), "{}: two options are equivalent", q.id);
            }
        }
        let verdicts: Vec<bool> = match q.kind {
            QuestionType::OneEntailed | QuestionType::OneNotEntailed => {
                assert!(q.content.conclusion.is_none());
                options.iter().map(|o| entails(&premises, o)).collect()
            }
            QuestionType::MissingPremise => {
                let conclusion = parse(
                    &q.content
                        .conclusion
                        .as_ref()
                        .expect("missing has a conclusion")
                        .symbolic,
                );
                options
                    .iter()
                    .map(|o| {
                        let mut with = premises.clone();
                        with.push(o.clone());
                        entails(&with, &conclusion)
                    })
                    .collect()
            }
        };
        if verdicts != q.verdicts {
            disagreements.push(q.id.clone());
        }
        // Exactly one correct option, at `answer`.
        let odd_one_out = match q.kind {
            QuestionType::OneEntailed | QuestionType::MissingPremise => true,
            QuestionType::OneNotEntailed => false,
        };
        let matching: Vec<usize> = (0..4).filter(|&i| verdicts[i] == odd_one_out).collect();
        assert_eq!(matching, vec![q.answer], "{}: verdicts {verdicts:?}", q.id);
        // Entailed options need at least two premises.
        if q.kind != QuestionType::MissingPremise {
            for (o, &v) in options.iter().zip(&verdicts) {
                if v {
                    for p in &premises {
                        assert!(
                            !entails(std::slice::from_ref(p), o),
                            "{}: option follows from one premise",
                            q.id
                        );
                    }
                }
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements, e.g. {:?}",
        disagreements.len(),
        &disagreements[..disagreements.len().min(5)]
    );
    assert_eq!(
        per_type,
        BTreeMap::from([("3c1e", 700), ("3e1c", 700), ("missing", 700)])
    );
}

#[test]
fn the_missing_premise_is_necessary_and_sufficient_and_distractors_fail() {
    let config = Config {
        types: TypeChoice::Only(QuestionType::MissingPremise),
        count: 700,
        seed: 8,
        ..Config::default()
    };
    let questions = questions(&config);
    for q in &questions {
        let rest: Vec<F> = q.content.symbolic.iter().map(|s| parse(s)).collect();
        let conclusion = parse(&q.content.conclusion.as_ref().expect("conclusion").symbolic);
        let answer = parse(&q.options[q.answer].symbolic);
        assert!(
            scheme_shape(&answer).is_some(),
            "{}: the removed option is a premise",
            q.id
        );
        // Necessary: without it the conclusion does not follow.
        assert!(
            !entails(&rest, &conclusion),
            "{}: conclusion follows without the missing premise",
            q.id
        );
        // Sufficient: with it, it does.
        let mut full = rest.clone();
        full.push(answer.clone());
        assert!(
            entails(&full, &conclusion),
            "{}: the missing premise does not restore the conclusion",
            q.id
        );
        // The conclusion needs two premises of the full content, none alone gives it.
        for p in &full {
            assert!(
                !entails(std::slice::from_ref(p), &conclusion),
                "{}: conclusion follows from one premise",
                q.id
            );
        }
        for (i, o) in q.options.iter().enumerate().filter(|(i, _)| *i != q.answer) {
            let d = parse(&o.symbolic);
            // From the non-entailment group of the full content, and it fails to complete the content.
            assert!(
                !entails(&full, &d),
                "{}: distractor {i} is entailed by the full content",
                q.id
            );
            let mut with = rest.clone();
            with.push(d);
            assert!(
                !entails(&with, &conclusion),
                "{}: distractor {i} also restores the conclusion",
                q.id
            );
        }
    }
}

#[test]
fn same_seed_gives_byte_identical_output_and_other_seeds_differ() {
    let bytes = |seed| {
        jsonl(&Config {
            types: TypeChoice::Mixed,
            count: 60,
            seed,
            ..Config::default()
        })
    };
    assert_eq!(bytes(5), bytes(5));
    assert_ne!(bytes(5), bytes(6));
}

#[test]
fn rotations_shift_options_and_keep_answer_and_verdicts_attached() {
    for q in mixed(30, 3) {
        let group: Vec<Question> = (0..4).map(|k| rotate(&q, k)).collect();
        for (k, r) in group.iter().enumerate() {
            assert_eq!(r.id, format!("{}-r{k}", q.id));
            assert_eq!(base_id(&r.id), q.id);
            assert_eq!(r.options[r.answer], q.options[q.answer]);
            for j in 0..4 {
                assert_eq!(r.options[j], q.options[(j + k) % 4]);
                assert_eq!(r.verdicts[j], q.verdicts[(j + k) % 4]);
            }
            assert_eq!(r.content, q.content);
        }
        // The correct option visits every position once.
        let mut positions: Vec<usize> = group.iter().map(|r| r.answer).collect();
        positions.sort();
        assert_eq!(positions, vec![0, 1, 2, 3]);
    }
}

#[test]
fn question_json_has_exactly_the_specified_fields() {
    let config = Config {
        types: TypeChoice::Mixed,
        count: 3,
        seed: 1,
        ..Config::default()
    };
    let text = String::from_utf8(jsonl(&config)).expect("utf-8");
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        let keys: Vec<&str> = v
            .as_object()
            .expect("object")
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(
            keys,
            [
                "answer", "content", "id", "options", "prompt", "question", "seed", "type",
                "verdicts"
            ]
        );
        let content: Vec<&str> = v["content"]
            .as_object()
            .expect("content")
            .keys()
            .map(|k| k.as_str())
            .collect();
        if v["type"] == "missing" {
            assert_eq!(content, ["conclusion", "symbolic", "text"]);
        } else {
            assert_eq!(content, ["symbolic", "text"]);
        }
        for o in v["options"].as_array().expect("options") {
            let keys: Vec<&str> = o
                .as_object()
                .expect("option")
                .keys()
                .map(|k| k.as_str())
                .collect();
            assert_eq!(keys, ["symbolic", "text"]);
        }
        assert_eq!(v["seed"], 1);
    }
}

// ---------------------------------------------------------------------------
// Natural language.

#[test]
fn negation_rule_puts_not_after_the_first_auxiliary() {
    assert_eq!(
        negate("the river is frozen solid").as_deref(),
        Some("the river is not frozen solid")
    );
    assert_eq!(
        negate("the parrot can recite the alphabet").as_deref(),
        Some("the parrot cannot recite the alphabet")
    );
    assert_eq!(
        negate("the baker has burned the bread").as_deref(),
        Some("the baker has not burned the bread")
    );
    assert_eq!(negate("the island sinks"), None);
}

#[test]
fn builtin_sentence_list_is_valid_and_every_paraphrase_negates() {
    let lexicon = Lexicon::builtin();
    assert!(lexicon.propositions().len() >= 50);
    for paraphrases in lexicon.propositions() {
        assert!(paraphrases.len() >= 2, "{paraphrases:?} needs a paraphrase");
        for p in paraphrases {
            let n = negate(p).expect("negatable");
            assert!(n.contains(" not ") || n.contains("cannot"), "{n}");
            assert!(
                !p.contains(',') && !p.contains('.'),
                "{p:?} would break sentence splitting"
            );
        }
    }
    assert!(Lexicon::parse("a | b\n").is_err());
}

/// The literals of an option that is a literal or an implication between two
/// literals, as (variable, negated); `None` for other shapes.
fn option_literals(symbolic: &str) -> Option<Vec<(String, bool)>> {
    let literal = |s: &str| {
        let (negated, v) = match s.trim().strip_prefix('-') {
            Some(v) => (true, v),
            None => (false, s.trim()),
        };
        (v.len() == 1 && ('A'..='H').contains(&v.chars().next()?)).then(|| (v.to_string(), negated))
    };
    match symbolic.split_once("->") {
        Some((a, b)) => Some(vec![literal(a)?, literal(b)?]),
        None => Some(vec![literal(symbolic)?]),
    }
}

/// The English says what the symbols say: in options that are literals or
/// implications between literals, each literal appears as a paraphrase of its
/// proposition, negated exactly when the symbol is; each premise sentence
/// mentions its variables unnegated; and a variable keeps one proposition
/// throughout a question.
#[test]
fn options_say_what_their_symbols_say() {
    let lexicon = Lexicon::builtin();
    let mut checked = 0;
    for q in mixed(600, 4) {
        // Candidate propositions per variable, narrowed over the question.
        let mut meaning: BTreeMap<String, std::collections::BTreeSet<usize>> = BTreeMap::new();
        for o in &q.options {
            let Some(literals) = option_literals(&o.symbolic) else {
                continue;
            };
            let text = o.text.to_lowercase();
            assert!(text.ends_with('.'), "{}: {:?}", q.id, o.text);
            let mut union = std::collections::BTreeSet::new();
            for (var, negated) in &literals {
                let renders = |p: &String| {
                    let p = p.to_lowercase();
                    let not_case = format!("not the case that {p}");
                    if *negated {
                        negate(&p).is_some_and(|n| text.contains(&n)) || text.contains(&not_case)
                    } else {
                        text.contains(&p) && !text.contains(&not_case)
                    }
                };
                let found: std::collections::BTreeSet<usize> = lexicon
                    .propositions()
                    .iter()
                    .enumerate()
                    .filter(|(_, ps)| ps.iter().any(renders))
                    .map(|(i, _)| i)
                    .collect();
                union.extend(found.iter().copied());
                let known = meaning.entry(var.clone()).or_insert_with(|| found.clone());
                *known = known.intersection(&found).copied().collect();
                assert!(
                    !known.is_empty(),
                    "{}: {:?} does not render {var} (negated: {negated})",
                    q.id,
                    o.text
                );
                checked += 1;
            }
            // Each literal's proposition appears with its own polarity, and nothing else does.
            assert_eq!(
                union.len(),
                literals.len(),
                "{}: {:?} vs {}",
                q.id,
                o.text,
                o.symbolic
            );
        }
        // Premise i is sentence i, and mentions each of its variables positively,
        // with the meaning the options give them.
        let sentences: Vec<String> = q
            .content
            .text
            .split(". ")
            .map(|s| s.to_lowercase())
            .collect();
        assert_eq!(
            sentences.len(),
            q.content.symbolic.len(),
            "{}: one sentence per premise",
            q.id
        );
        for (sentence, symbolic) in sentences.iter().zip(&q.content.symbolic) {
            let vars: std::collections::BTreeSet<char> = symbolic
                .chars()
                .filter(|c| c.is_ascii_uppercase())
                .collect();
            for var in vars {
                let found: std::collections::BTreeSet<usize> = lexicon
                    .propositions()
                    .iter()
                    .enumerate()
                    .filter(|(_, ps)| {
                        ps.iter().any(|p| {
                            let p = p.to_lowercase();
                            sentence.contains(&p)
                                && negate(&p).is_none_or(|n| !sentence.contains(&n))
                        })
                    })
                    .map(|(i, _)| i)
                    .collect();
                let known = meaning
                    .entry(var.to_string())
                    .or_insert_with(|| found.clone());
                *known = known.intersection(&found).copied().collect();
                assert!(
                    !known.is_empty(),
                    "{}: {sentence:?} does not render {var} of {symbolic}",
                    q.id
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 3000, "only {checked} literals checked");
}

// ---------------------------------------------------------------------------
// Sampling.

#[test]
fn sampled_premises_have_scheme_arity_distinct_variables_and_the_n_cap() {
    for index in 0..3000u64 {
        let mut rng = item_rng(9, index);
        let n = 3 + (index % 6) as usize;
        let premises = sample_content(&mut rng, n).expect("n >= 2 never runs out");
        assert_eq!(premises.len(), n);
        let mut uses = [0usize; 8];
        for p in &premises {
            let arity = match p.scheme {
                Scheme::Implication => 2,
                Scheme::NotBoth | Scheme::Either => 3,
            };
            assert_eq!(p.vars.len(), arity);
            let mut v = p.vars.clone();
            v.sort();
            v.dedup();
            assert_eq!(v.len(), arity, "repeated variable in {p:?}");
            for &x in &p.vars {
                uses[x] += 1;
            }
        }
        assert!(
            uses.iter().all(|&u| u <= n),
            "a variable used more than n = {n} times: {uses:?}"
        );
    }
}

/// Expected number of picks from `first` when `k` distinct variables are drawn
/// one by one with probability proportional to `weights` (exact enumeration).
fn expected_reuse(weights: &[f64; 8], first: &[usize], k: usize, taken: &mut Vec<usize>) -> f64 {
    if taken.len() == k {
        return taken.iter().filter(|v| first.contains(v)).count() as f64;
    }
    let total: f64 = (0..8)
        .filter(|v| !taken.contains(v))
        .map(|v| weights[v])
        .sum();
    let mut sum = 0.0;
    for v in 0..8 {
        if taken.contains(&v) || weights[v] == 0.0 {
            continue;
        }
        taken.push(v);
        sum += weights[v] / total * expected_reuse(weights, first, k, taken);
        taken.pop();
    }
    sum
}

/// With weight n − uses, a variable of the first premise is less likely to
/// reappear in the second than under uniform choice. The observed share of
/// reused slots must match the exact expectation under Eq. 3 (≈ 0.26 for
/// n = 3) and be clearly below the uniform one (1/3).
#[test]
fn a_chosen_variable_is_less_likely_to_be_chosen_again() {
    let n = 3.0;
    let arities = [2usize, 3, 3]; // the three schemes, chosen uniformly
    let exact = |uniform: bool| {
        let (mut reuse, mut slots) = (0.0, 0.0);
        for &a in &arities {
            let first: Vec<usize> = (0..a).collect();
            let weights: [f64; 8] = std::array::from_fn(|v| {
                if uniform {
                    1.0
                } else if v < a {
                    n - 1.0
                } else {
                    n
                }
            });
            for &b in &arities {
                reuse += expected_reuse(&weights, &first, b, &mut Vec::new()) / 9.0;
                slots += b as f64 / 9.0;
            }
        }
        reuse / slots
    };
    let (expected, uniform) = (exact(false), exact(true));
    assert!((uniform - 1.0 / 3.0).abs() < 1e-12);

    let (mut reuse, mut slots) = (0u64, 0u64);
    for index in 0..20000u64 {
        let mut rng = item_rng(77, index);
        let premises = sample_content(&mut rng, 3).expect("sample");
        for v in &premises[1].vars {
            slots += 1;
            reuse += premises[0].vars.contains(v) as u64;
        }
    }
    let share = reuse as f64 / slots as f64;
    assert!(
        (share - expected).abs() < 0.01,
        "reuse share {share}, expected {expected}"
    );
    assert!(expected < uniform - 0.05);
}

// ---------------------------------------------------------------------------
// Scoring.

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn partial_circular_hand_cases() {
    // The paper's example: right in 2 of 4 rotations, the other two picks on
    // two different wrong options: p = (1/2, 1/4, 1/4).
    // (2/4)·(1 + ½·log₄½ + 2·¼·log₄¼) = ½·(1 − ¼ − ½) = 0.125.
    assert!(close(partial_circular(2, 4, &[2, 1, 1]), 0.125));
    // Perfect: always the right option.
    assert!(close(partial_circular(4, 4, &[4]), 1.0));
    // Uniform guessing: each option once, one of them right.
    assert!(close(partial_circular(1, 4, &[1, 1, 1, 1]), 0.0));
    // Always the same wrong option.
    assert!(close(partial_circular(0, 4, &[4]), 0.0));
    // PC_α: α = 0 is plain accuracy over the rotations, α = 1 is PC.
    assert!(close(pc_alpha(2, 4, &[2, 1, 1], 0.0), 0.5));
    assert!(close(pc_alpha(2, 4, &[2, 1, 1], 1.0), 0.125));
    // α = ½: ½·(½ + ½·¼) = 0.3125.
    assert!(close(pc_alpha(2, 4, &[2, 1, 1], 0.5), 0.3125));
    // 3 right, one other: (3/4)(1 + ¾ log₄ ¾ + ¼ log₄ ¼).
    let expected = 0.75 * (1.0 + 0.75 * (0.75f64).ln() / 4f64.ln() - 0.25);
    assert!(close(partial_circular(3, 4, &[3, 1]), expected));
}

/// A mixed run with the four rotations of every question.
fn rotated_config(count: u64, seed: u64) -> Config {
    Config {
        types: TypeChoice::Mixed,
        count,
        seed,
        rotations: true,
        ..Config::default()
    }
}

fn rotated(count: u64, seed: u64) -> Vec<Question> {
    questions(&rotated_config(count, seed))
}

#[test]
fn score_perfect_letter_biased_and_content_biased_models() {
    let questions = rotated(40, 12);
    assert_eq!(questions.len(), 160);
    let perfect: BTreeMap<String, Option<usize>> = questions
        .iter()
        .map(|q| (q.id.clone(), Some(q.answer)))
        .collect();
    let r = scored(&questions, &perfect, &[0.5]);
    assert_eq!(
        (r.questions, r.answered, r.rotation_groups, r.unknown_ids),
        (160, 160, 40, 0)
    );
    assert!(close(r.accuracy, 1.0));
    assert_eq!(r.circular, Some(1.0));
    assert_eq!(r.partial_circular, Some(1.0));
    assert_eq!(r.pc_alpha, vec![(0.5, Some(1.0))]);

    // Always "A": right exactly once per group, each time a different option → PC 0.
    let always_a: BTreeMap<String, Option<usize>> =
        questions.iter().map(|q| (q.id.clone(), Some(0))).collect();
    let r = scored(&questions, &always_a, &[0.0]);
    // ACC counts the originals only: those whose answer is A.
    let originals: Vec<&Question> = questions.iter().filter(|q| q.id.ends_with("-r0")).collect();
    assert_eq!(originals.len(), 40);
    let answer_a = originals.iter().filter(|q| q.answer == 0).count();
    assert!(close(r.accuracy, answer_a as f64 / 40.0));
    assert_eq!(r.circular, Some(0.0));
    assert!(close(r.partial_circular.expect("groups"), 0.0));
    // PC_0 is accuracy over the groups' rotations.
    assert!(close(r.pc_alpha[0].1.expect("groups"), 0.25));

    // The paper's example in every group: right in r0 and r1, then two
    // different wrong options (by content) in r2 and r3.
    let mut example = BTreeMap::new();
    for q in &questions {
        let k: usize =
            q.id.rsplit_once("-r")
                .expect("rotation id")
                .1
                .parse()
                .expect("k");
        // Rotated option j is original option (j + k) % 4, so original i sits at (i + 4 - k) % 4.
        let original_answer = (q.answer + k) % 4;
        let wrong: Vec<usize> = (0..4).filter(|&i| i != original_answer).collect();
        let original_pick = match k {
            0 | 1 => original_answer,
            2 => wrong[0],
            _ => wrong[1],
        };
        example.insert(q.id.clone(), Some((original_pick + 4 - k) % 4));
    }
    let r = scored(&questions, &example, &[]);
    // Right in every r0: ACC 1, though right in only half the rotations.
    assert!(close(r.accuracy, 1.0));
    assert_eq!(r.circular, Some(0.0));
    assert!(
        close(r.partial_circular.expect("groups"), 0.125),
        "{:?}",
        r.partial_circular
    );

    // Without rotations there are no groups to score circularly.
    let plain = mixed(10, 12);
    let answers: BTreeMap<String, Option<usize>> = plain
        .iter()
        .map(|q| (q.id.clone(), Some(q.answer)))
        .collect();
    let r = scored(&plain, &answers, &[0.5]);
    assert_eq!(
        (r.rotation_groups, r.circular, r.partial_circular),
        (0, None, None)
    );
    assert!(close(r.accuracy, 1.0));
}

/// [`score`] on answers given as a map from id to pick.
fn scored(
    questions: &[Question],
    answers: &BTreeMap<String, Option<usize>>,
    alphas: &[f64],
) -> super::Report {
    let answers: Vec<Answer> = answers
        .iter()
        .map(|(id, &answer)| Answer {
            id: id.clone(),
            answer,
        })
        .collect();
    let config = ScoreConfig {
        alphas: alphas.to_vec(),
    };
    score(questions, &answers, &config, &|_| {})
}

#[test]
fn answers_accept_indexes_letters_and_null_and_reject_the_rest() {
    let read = |line: &str| serde_json::from_str::<Answer>(line).map_err(|e| e.to_string());
    let answer = |id: &str, answer| Answer {
        id: id.to_string(),
        answer,
    };
    assert_eq!(read(r#"{"id":"x","answer":2}"#), Ok(answer("x", Some(2))));
    assert_eq!(read(r#"{"id":"y","answer":"b"}"#), Ok(answer("y", Some(1))));
    assert_eq!(read(r#"{"id":"z","answer":null}"#), Ok(answer("z", None)));
    assert_eq!(read(r#"{"id":"z"}"#), Ok(answer("z", None)));
    let refused = |line: &str| read(line).expect_err(line);
    assert!(refused(r#"{"id":"y","answer":7}"#).starts_with("answer 7 is not an option index 0..3"));
    assert!(refused(r#"{"id":"y","answer":"E"}"#).starts_with("answer \"E\" is not a letter A-D"));
    assert!(refused(r#"{"id":"y","answer":[1]}"#)
        .starts_with("answer [1] is neither an index nor a letter"));
    assert!(refused(r#"{"answer":1}"#).starts_with("missing field `id`"));
}

#[test]
fn the_first_answer_to_an_id_counts() {
    let questions = mixed(3, 5);
    let q = &questions[0];
    let wrong = (q.answer + 1) % 4;
    let answers = [
        Answer {
            id: q.id.clone(),
            answer: Some(q.answer),
        },
        Answer {
            id: q.id.clone(),
            answer: Some(wrong),
        },
    ];
    let r = score(&questions, &answers, &ScoreConfig::default(), &|_| {});
    assert_eq!((r.answered, r.unknown_ids), (1, 0));
    assert!(close(r.accuracy, 1.0 / 3.0));
}

#[test]
fn every_prompt_asks_the_types_question_over_the_options_in_order() {
    for q in rotated(12, 9) {
        let stem = match q.kind {
            QuestionType::OneEntailed => "must also be true?",
            QuestionType::OneNotEntailed => "does not necessarily follow?",
            QuestionType::MissingPremise => "would make this conclusion follow: ",
        };
        assert!(q.question.contains(stem), "{}", q.question);
        if let Some(conclusion) = &q.content.conclusion {
            assert!(q.question.ends_with(&conclusion.text), "{}", q.question);
        }
        let expected: Vec<String> = ["A", "B", "C", "D"]
            .iter()
            .zip(&q.options)
            .map(|(letter, o)| format!("{letter}. {}", o.text))
            .collect();
        let tail: Vec<&str> = q.prompt.lines().rev().take(4).collect();
        let tail: Vec<String> = tail.into_iter().rev().map(str::to_string).collect();
        assert_eq!(tail, expected, "{}", q.id);
        assert!(q
            .prompt
            .starts_with("Answer with one line of the form 'Answer: <A/B/C/D>'"));
        assert!(q
            .prompt
            .contains(&format!("\n\n{}\n\n{}\n", q.content.text, q.question)));
    }
}

//! `entail gen divlogic` and `entail score divlogic`: every verdict re-checked
//! by a truth table written here (independent of `entail::truth` and of the
//! generator's formula building: the test parses the printed Prover9 text).

use super::content::{draw_three, sample_content, weights, Premise, Scheme, Statement};
use super::score::{base_id, partial_circular, pc_alpha};
use super::{
    generate, rotate, score, Analysis, Answer, Config, Question, QuestionType, Roles, ScoreConfig,
    TypeChoice,
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

/// Whether WordNet, which the questions are worded from, is installed
/// (`$ENTAIL_WORDNET`, else /usr/share/wordnet); if not, prints why `test`
/// is skipped. `scripts/install-deps` installs it.
fn installed(test: &str) -> bool {
    let dir = crate::gen::wordnet::locate(None);
    match crate::gen::wordnet::Lexicon::open(&dir) {
        Ok(_) => true,
        Err(e) => {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {e}");
            false
        }
    }
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
    if !installed("every_verdict_of_2100_questions_agrees_with_an_independent_truth_table") {
        return;
    }
    let questions = mixed(2100, 2026);
    assert_eq!(questions.len(), 2100);
    let mut per_type: BTreeMap<&str, usize> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for q in &questions {
        *per_type.entry(q.kind.name()).or_default() += 1;
        assert_eq!(q.options.len(), 4, "{}", q.id);
        assert_eq!(q.verdicts.len(), 4, "{}", q.id);
        let premises: Vec<F> = q.content.symbolic.iter().map(|s| parse(s)).collect();
        // Algorithm 1 with the default n = 4 and no content of two
        // premises: 3 to 5 premises, one of them removed in a
        // missing-premise question.
        let removed = usize::from(q.kind == QuestionType::MissingPremise);
        assert!(
            (3..=5).contains(&(premises.len() + removed)),
            "{}: {} premises",
            q.id,
            premises.len()
        );
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

/// The variables of a formula.
fn variables(f: &F, out: &mut std::collections::BTreeSet<usize>) {
    match f {
        F::Var(v) => {
            out.insert(*v);
        }
        F::Not(a) => variables(a, out),
        F::And(a, b) | F::Or(a, b) | F::Imp(a, b) => {
            variables(a, out);
            variables(b, out);
        }
    }
}

/// How many of `option`'s variables the `shown` premises lack, and how many
/// `conclusion` has.
fn overlap(option: &F, shown: &[F], conclusion: &F) -> (usize, usize) {
    let set = |fs: &[&F]| {
        let mut out = std::collections::BTreeSet::new();
        for f in fs {
            variables(f, &mut out);
        }
        out
    };
    let option = set(&[option]);
    let shown = set(&shown.iter().collect::<Vec<_>>());
    let conclusion = set(&[conclusion]);
    (
        option.difference(&shown).count(),
        option.intersection(&conclusion).count(),
    )
}

#[test]
fn the_missing_premise_is_necessary_and_sufficient_and_distractors_fail() {
    if !installed("the_missing_premise_is_necessary_and_sufficient_and_distractors_fail") {
        return;
    }
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
            // A premise of the answer's scheme, so its form gives nothing away,
            // with as many variables the shown premises lack and as many the
            // conclusion names.
            assert!(scheme_shape(&d).is_some(), "{}: distractor {i}", q.id);
            assert_eq!(symbolic_shape(&d), symbolic_shape(&answer), "{}", q.id);
            assert_eq!(
                overlap(&d, &rest, &conclusion),
                overlap(&answer, &rest, &conclusion),
                "{}: distractor {i}",
                q.id
            );
            // Part by part too: the "if" part's variables (unordered) and
            // the "then" part's relate to the question as the answer's do.
            let parts = |f: &F| {
                let vars = scheme_shape(f).expect("a premise");
                let (last, first) = vars.split_last().expect("variables");
                let single = |v: usize| overlap(&F::Var(v), &rest, &conclusion);
                let mut antecedent: Vec<(usize, usize)> =
                    first.iter().map(|&v| single(v)).collect();
                antecedent.sort();
                (antecedent, single(*last))
            };
            assert_eq!(parts(&d), parts(&answer), "{}: distractor {i}", q.id);
            // Which shown premises mention the option's sentences and the
            // conclusion's: per premise, how many of each it names (sorted
            // over the premises), the same for every option.
            let meetings = |f: &F| {
                let mut option = std::collections::BTreeSet::new();
                variables(f, &mut option);
                let mut out: Vec<(usize, usize)> = rest
                    .iter()
                    .map(|p| {
                        let mut named = std::collections::BTreeSet::new();
                        variables(p, &mut named);
                        let mut wanted = std::collections::BTreeSet::new();
                        variables(&conclusion, &mut wanted);
                        (
                            option.intersection(&named).count(),
                            wanted.intersection(&named).count(),
                        )
                    })
                    .collect();
                out.sort();
                out
            };
            assert_eq!(meetings(&d), meetings(&answer), "{}: distractor {i}", q.id);
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
    if !installed("same_seed_gives_byte_identical_output_and_other_seeds_differ") {
        return;
    }
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
    if !installed("rotations_shift_options_and_keep_answer_and_verdicts_attached") {
        return;
    }
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
    if !installed("question_json_has_exactly_the_specified_fields") {
        return;
    }
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
            assert_eq!(content, ["atoms", "conclusion", "symbolic", "text"]);
        } else {
            assert_eq!(content, ["atoms", "symbolic", "text"]);
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

/// The polarity of every variable occurrence in a statement, in order.
fn occurrences(f: &F, negated: bool, out: &mut Vec<(usize, bool)>) {
    match f {
        F::Var(v) => out.push((*v, negated)),
        F::Not(a) => occurrences(a, !negated, out),
        F::And(a, b) | F::Or(a, b) | F::Imp(a, b) => {
            occurrences(a, negated, out);
            occurrences(b, negated, out);
        }
    }
}

/// The English says what the symbols say: every variable of a statement
/// appears as its sentence (`content.atoms`), negated exactly when the
/// variable is a negated literal, and no other variable's sentence appears.
/// Premises, conclusions and options are all checked; the sentences of a
/// question have distinct nouns, so none is part of another.
#[test]
fn every_statement_says_its_variables_with_their_polarity() {
    if !installed("every_statement_says_its_variables_with_their_polarity") {
        return;
    }
    let vocabulary = Vocabulary::installed();
    let mut checked = 0;
    for q in mixed(600, 4) {
        assert_eq!(q.content.atoms.len(), 8, "{}", q.id);
        let mut statements: Vec<(&str, String)> = q
            .content
            .symbolic
            .iter()
            .map(|s| s.as_str())
            .zip(q.content.text.split(". ").map(|s| s.to_lowercase()))
            .collect();
        assert_eq!(statements.len(), q.content.symbolic.len(), "{}", q.id);
        for shown in q.options.iter().chain(&q.content.conclusion) {
            statements.push((&shown.symbolic, shown.text.to_lowercase()));
        }
        for (symbolic, text) in statements {
            let mut occ = Vec::new();
            occurrences(&parse(symbolic), false, &mut occ);
            // Premises say their variables plainly: the negation in
            // `-(A & B) -> C` is the template's ("unless both …").
            let premise = scheme_shape(&parse(symbolic)).is_some();
            for (v, sentence) in q.content.atoms.iter().enumerate() {
                let not_case = format!("not the case that {sentence}");
                let positive = text.contains(sentence.as_str()) && !text.contains(&not_case);
                let negative = vocabulary
                    .negations(sentence)
                    .iter()
                    .any(|n| text.contains(n.as_str()))
                    || text.contains(&not_case);
                let expected: Vec<bool> = occ
                    .iter()
                    .filter(|(var, _)| *var == v)
                    .map(|&(_, negated)| negated && !premise)
                    .collect();
                match expected.first() {
                    None => assert!(
                        !positive && !negative,
                        "{}: {text:?} mentions {sentence:?}, not in {symbolic}",
                        q.id
                    ),
                    Some(&negated) => {
                        assert_eq!(
                            (positive, negative),
                            (!negated, negated),
                            "{}: {text:?} vs {symbolic}, variable {v}: {sentence:?}",
                            q.id
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 8000, "only {checked} occurrences checked");
}

/// WordNet's words as our sentences use them, for checking sentences.
struct Vocabulary {
    subjects: std::collections::BTreeSet<String>,
    objects: std::collections::BTreeSet<String>,
    adjectives: std::collections::BTreeSet<String>,
    /// Third-person form → base forms, of verbs with an intransitive frame.
    intransitive: BTreeMap<String, Vec<String>>,
    /// The same for verbs with a transitive frame.
    transitive: BTreeMap<String, Vec<String>>,
}

impl Vocabulary {
    fn installed() -> Vocabulary {
        use crate::gen::wordnet;
        let lex = crate::gen::wordnet::Lexicon::open(&crate::gen::wordnet::locate(None))
            .expect("installed");
        let nouns = |cats: &[&str]| {
            cats.iter()
                .flat_map(|c| lex.nouns(c).iter().cloned())
                .collect()
        };
        let verbs = |transitive: bool| {
            let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for v in lex.verbs() {
                if (transitive && v.transitive) || (!transitive && v.intransitive) {
                    map.entry(v.third_person())
                        .or_default()
                        .push(v.lemma.clone());
                }
            }
            map
        };
        Vocabulary {
            subjects: nouns(&[&wordnet::SOMEBODY[..], &wordnet::GROUPS[..]].concat()),
            objects: nouns(
                &[
                    &wordnet::SOMETHING[..],
                    &["noun.event"],
                    &wordnet::ABSTRACT[..],
                ]
                .concat(),
            ),
            adjectives: lex.adjectives().iter().cloned().collect(),
            intransitive: verbs(false),
            transitive: verbs(true),
        }
    }

    /// The ways to negate `sentence` if it is one of ours: "the [adjective]
    /// person-or-animal" and then "is" and an adjective, or a verb in the
    /// third person, alone if intransitive, or with "the" and a thing. The
    /// negation says "is not", or "does not" and the verb's base form.
    /// Empty if the sentence has another shape.
    fn negations(&self, sentence: &str) -> Vec<String> {
        let words: Vec<&str> = sentence.split(' ').collect();
        let mut out = Vec::new();
        for noun_at in [1, 2] {
            let subject_ok = words.first() == Some(&"the")
                && words.len() > noun_at + 1
                && self.subjects.contains(words[noun_at])
                && (noun_at == 1 || self.adjectives.contains(words[1]));
            if !subject_ok {
                continue;
            }
            let subject = words[..=noun_at].join(" ");
            match &words[noun_at + 1..] {
                ["is", adjective] if self.adjectives.contains(*adjective) => {
                    out.push(format!("{subject} is not {adjective}"));
                }
                [verb] => {
                    for base in self.intransitive.get(*verb).into_iter().flatten() {
                        out.push(format!("{subject} does not {base}"));
                    }
                }
                [verb, "the", object] if self.objects.contains(*object) => {
                    for base in self.transitive.get(*verb).into_iter().flatten() {
                        out.push(format!("{subject} does not {base} the {object}"));
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// The sentences a question's variables stand for are WordNet-built
/// clauses with a negation (see [`Vocabulary::negations`]), eight per
/// question and all different; across a run they are diverse.
#[test]
fn atoms_are_simple_wordnet_sentences() {
    if !installed("atoms_are_simple_wordnet_sentences") {
        return;
    }
    let vocabulary = Vocabulary::installed();
    let mut types = std::collections::BTreeSet::new();
    for q in mixed(300, 21) {
        assert_eq!(q.content.atoms.len(), 8, "{}", q.id);
        for (i, sentence) in q.content.atoms.iter().enumerate() {
            assert!(
                !vocabulary.negations(sentence).is_empty(),
                "{}: {sentence:?} is not one of our shapes",
                q.id
            );
            for other in &q.content.atoms[i + 1..] {
                assert!(
                    !sentence.contains(other.as_str()) && !other.contains(sentence.as_str()),
                    "{}: {sentence:?} and {other:?}",
                    q.id
                );
            }
            types.extend(sentence.split(' ').map(str::to_string));
        }
    }
    // 300 questions × 8 sentences draw about 7,000 words from thousands.
    assert!(types.len() > 2500, "only {} word types", types.len());
}

// ---------------------------------------------------------------------------
// Surface form.

/// The surface form of an option, from its symbols: a literal's polarity,
/// an implication's two polarities, or a premise scheme.
fn symbolic_shape(f: &F) -> String {
    let literal = |f: &F| match f {
        F::Var(_) => Some("+"),
        F::Not(a) if matches!(**a, F::Var(_)) => Some("-"),
        _ => None,
    };
    if let Some(l) = literal(f) {
        return format!("literal {l}");
    }
    if let F::Imp(a, b) = f {
        if let (Some(x), Some(y)) = (literal(a), literal(b)) {
            return format!("implication {x}{y}");
        }
    }
    match f {
        F::Imp(a, _) if matches!(**a, F::Not(_)) => "premise not-both".into(),
        F::Imp(a, _) if matches!(**a, F::Or(..)) => "premise either".into(),
        _ => format!("other {f:?}"),
    }
}

/// Cues that pick options by their words alone, each as a name and the
/// options it points at (all four when it singles out none). The same cues
/// as `scripts/divlogic-stats`.
fn surface_cues(options: &[String]) -> Vec<(String, Vec<usize>)> {
    let lower: Vec<String> = options
        .iter()
        .map(|o| {
            let words: String = o
                .to_lowercase()
                .chars()
                .map(|c| if c.is_ascii_alphabetic() { c } else { ' ' })
                .collect();
            format!(
                " {} ",
                words.split_whitespace().collect::<Vec<_>>().join(" ")
            )
        })
        .collect();
    let all: Vec<usize> = (0..options.len()).collect();
    let extreme = |values: Vec<usize>, most: bool| -> Vec<usize> {
        let best = if most {
            values.iter().max()
        } else {
            values.iter().min()
        };
        all.iter()
            .copied()
            .filter(|&i| Some(&values[i]) == best)
            .collect()
    };
    let mut cues = Vec::new();
    for i in 0..options.len() {
        cues.push((
            format!("always option {}", "ABCD".as_bytes()[i] as char),
            vec![i],
        ));
    }
    let chars: Vec<usize> = options.iter().map(|o| o.len()).collect();
    let words: Vec<usize> = lower.iter().map(|o| o.split_whitespace().count()).collect();
    let negations: Vec<usize> = lower.iter().map(|o| o.matches(" not ").count()).collect();
    for (name, values) in [
        ("characters", chars),
        ("words", words),
        ("negations", negations),
    ] {
        cues.push((format!("most {name}"), extreme(values.clone(), true)));
        cues.push((format!("fewest {name}"), extreme(values, false)));
    }
    for marker in [
        "and", "or", "not", "if", "then", "unless", "both", "either", "only", "whenever", "case",
        "provided", "follows", "false", "same", "is", "does",
    ] {
        let has: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| lower[i].contains(&format!(" {marker} ")))
            .collect();
        let pick = |set: Vec<usize>| if set.len() == 1 { set } else { all.clone() };
        let lacks: Vec<usize> = all.iter().copied().filter(|i| !has.contains(i)).collect();
        cues.push((format!("the only option with {marker:?}"), pick(has)));
        cues.push((format!("the only option without {marker:?}"), pick(lacks)));
    }
    cues
}

/// Each cue's accuracy over `questions`: a cue that points at `k` options
/// earns `1/k` when the answer is among them (a guess among them).
fn cue_accuracies(questions: &[&Question]) -> BTreeMap<String, f64> {
    let mut total: BTreeMap<String, f64> = BTreeMap::new();
    for q in questions {
        let texts: Vec<String> = q.options.iter().map(|o| o.text.clone()).collect();
        for (name, picked) in surface_cues(&texts) {
            let credit = if picked.contains(&q.answer) {
                1.0 / picked.len() as f64
            } else {
                0.0
            };
            *total.entry(name).or_default() += credit;
        }
    }
    total
        .into_iter()
        .map(|(k, v)| (k, v / questions.len() as f64))
        .collect()
}

/// No surface cue beats chance: the four options of every question share
/// one symbolic form (and for 3c1e and 3e1c as many mentions of their
/// variables in the content), and over 900 questions (300 per type) the best of
/// the cues above picks the answer at most 1/4 plus 4.5 standard errors of
/// a chance rate (σ = √(¾·¼/N)), per type and overall. The missing-premise
/// cue this rules out (the answer was the only option with "and"/"or")
/// scored about 0.77.
#[test]
fn no_surface_cue_picks_the_answer_above_chance() {
    if !installed("no_surface_cue_picks_the_answer_above_chance") {
        return;
    }
    let all = mixed(900, 31);
    for q in &all {
        let shapes: Vec<String> = q
            .options
            .iter()
            .map(|o| symbolic_shape(&parse(&o.symbolic)))
            .collect();
        assert!(
            shapes.iter().all(|s| *s == shapes[0]),
            "{}: {shapes:?}",
            q.id
        );
        assert!(!shapes[0].starts_with("other"), "{}: {shapes:?}", q.id);
        // Nor which premises mention an option's sentences together: as
        // many premises shown mention all of them, for every option.
        let premise_vars: Vec<std::collections::BTreeSet<usize>> = q
            .content
            .symbolic
            .iter()
            .map(|p| {
                let mut vars = std::collections::BTreeSet::new();
                variables(&parse(p), &mut vars);
                vars
            })
            .collect();
        let together: Vec<usize> = q
            .options
            .iter()
            .map(|o| {
                let mut vars = std::collections::BTreeSet::new();
                variables(&parse(&o.symbolic), &mut vars);
                premise_vars.iter().filter(|p| vars.is_subset(p)).count()
            })
            .collect();
        assert!(
            together.iter().all(|t| *t == together[0]),
            "{}: premises with all of an option's sentences {together:?}",
            q.id
        );
        // Nor does how often the content mentions an option's variables.
        if q.kind != QuestionType::MissingPremise {
            let content = q.content.symbolic.join(" ");
            let mentions: Vec<usize> = q
                .options
                .iter()
                .map(|o| {
                    let mut vars = std::collections::BTreeSet::new();
                    variables(&parse(&o.symbolic), &mut vars);
                    vars.iter()
                        .map(|&v| content.matches(char::from(b'A' + v as u8)).count())
                        .sum()
                })
                .collect();
            assert!(
                mentions.iter().all(|m| *m == mentions[0]),
                "{}: {mentions:?}",
                q.id
            );
        }
    }
    let mut groups: Vec<(&str, Vec<&Question>)> = QuestionType::ALL
        .iter()
        .map(|t| (t.name(), all.iter().filter(|q| q.kind == *t).collect()))
        .collect();
    groups.push(("all", all.iter().collect()));
    for (name, group) in groups {
        let n = group.len() as f64;
        let bound = 0.25 + 4.5 * (0.75 * 0.25 / n).sqrt();
        let accuracies = cue_accuracies(&group);
        let (cue, best) = accuracies
            .iter()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .expect("cues");
        assert!(
            *best <= bound,
            "{name}: {cue} picks the answer in {best:.3} of {n} questions (bound {bound:.3})"
        );
    }
    // The cues do fire: on a made-up question whose answer alone says "or",
    // the connective cue finds it.
    let cues = surface_cues(&[
        "If the cat sings, then the dog is calm.".into(),
        "If the cat sings or the owl hums, then the dog is calm.".into(),
        "The dog is calm if the cat sings.".into(),
        "Whenever the cat sings, the dog is calm.".into(),
    ]);
    let with_or = cues
        .iter()
        .find(|(name, _)| name == "the only option with \"or\"")
        .expect("cue");
    assert_eq!(with_or.1, vec![1]);
}

// ---------------------------------------------------------------------------
// Sampling (Algorithm 1).

/// The probability Algorithm 1 gives each variable after the counter `o`
/// with cap `n`, written out from the paper: Eq. 3, 0.1 at `n − 1` uses, 0
/// from `n`, normalised.
fn paper_probabilities(o: &[usize; 8], n: usize) -> [f64; 8] {
    let max = *o.iter().max().expect("eight") as f64;
    let sum: f64 = o.iter().map(|&x| max + 1.0 - x as f64).sum();
    let p = o.map(|x| {
        if x == n - 1 {
            0.1
        } else if x >= n {
            0.0
        } else {
            (max + 1.0 - x as f64) / sum
        }
    });
    let total: f64 = p.iter().sum();
    p.map(|x| x / total)
}

/// The first of the three variables drawn for a premise follows Eq. 3 with
/// the 0.1 and 0 rules: on a fixed seed, each variable's frequency over
/// 40,000 draws is within 4.5 standard errors of the paper's probability,
/// and a variable used `n` times is never drawn.
#[test]
fn the_first_variable_drawn_follows_eq_3_and_its_cap_rules() {
    let n = 4;
    let draws = 40_000u32;
    for o in [
        [0; 8],
        [0, 1, 2, 3, 4, 0, 1, 2],
        [3, 3, 1, 0, 4, 5, 2, 0],
        [1, 1, 1, 1, 0, 0, 0, 3],
    ] {
        let expected = paper_probabilities(&o, n);
        let mut counts = [0u32; 8];
        let mut rng = item_rng(5, o.iter().sum::<usize>() as u64);
        for _ in 0..draws {
            let drawn = draw_three(&mut rng, &weights(&o, n)).expect("three have weight");
            counts[drawn[0]] += 1;
            assert!(drawn.iter().all(|&v| o[v] < n), "{drawn:?} after {o:?}");
            assert!(drawn[0] != drawn[1] && drawn[1] != drawn[2] && drawn[0] != drawn[2]);
        }
        for v in 0..8 {
            let p = expected[v];
            let observed = f64::from(counts[v]) / f64::from(draws);
            let sigma = (p * (1.0 - p) / f64::from(draws)).sqrt();
            assert!(
                (observed - p).abs() <= 4.5 * sigma,
                "after {o:?}: variable {v} drawn {observed:.4}, Eq. 3 says {p:.4}"
            );
        }
    }
    // Fewer than three variables with a weight: no premise, no panic.
    assert_eq!(
        draw_three(&mut item_rng(1, 1), &weights(&[4, 4, 4, 4, 4, 4, 0, 0], 4)),
        None
    );
}

/// Algorithm 1's contents: `l` premises with `l` uniform over 2..=n+1 (every
/// value within 4.5 standard errors of 1/n on 3,000 samples), each of a
/// scheme's arity with distinct variables, no variable in more than `n`
/// premises, and the returned counter counting exactly the uses.
#[test]
fn algorithm_1_gives_2_to_n_plus_1_premises_and_keeps_the_cap() {
    let samples = 3000u64;
    for n in 2..=6usize {
        let mut lengths = BTreeMap::new();
        for index in 0..samples {
            let mut rng = item_rng(9 + n as u64, index);
            let (premises, uses) = sample_content(&mut rng, n).expect("n >= 2 never runs out");
            *lengths.entry(premises.len()).or_insert(0u64) += 1;
            let mut counted = [0usize; 8];
            for p in &premises {
                let arity = match p.scheme {
                    Scheme::Implication => 2,
                    Scheme::NotBoth | Scheme::Either => 3,
                };
                let mut v = p.vars.clone();
                v.sort();
                v.dedup();
                assert_eq!((p.vars.len(), v.len()), (arity, arity), "{p:?}");
                for &x in &p.vars {
                    counted[x] += 1;
                }
            }
            assert_eq!(counted, uses);
            assert!(uses.iter().all(|&u| u <= n), "n = {n}: {uses:?}");
        }
        assert_eq!(
            lengths.keys().copied().collect::<Vec<_>>(),
            (2..=n + 1).collect::<Vec<_>>()
        );
        let p = 1.0 / n as f64;
        let sigma = (p * (1.0 - p) / samples as f64).sqrt();
        for (l, &c) in &lengths {
            let share = c as f64 / samples as f64;
            assert!(
                (share - p).abs() <= 4.5 * sigma,
                "n = {n}: l = {l} in {share}"
            );
        }
    }
}

/// Kept questions have `l` uniform over the premise counts a question
/// admits (the paper's Algorithm 1 draws 2..=n+1; a question needs 3..=n+1,
/// see the next test): `l` is drawn before the contents are tried, so short
/// contents, which allow fewer questions, are not thinned out. Each share
/// within 4.5 standard errors of uniform on 400 questions per type.
#[test]
fn questions_have_3_to_5_premises_uniformly() {
    if !installed("questions_have_3_to_5_premises_uniformly") {
        return;
    }
    let questions = mixed(1200, 23);
    let mut lengths: BTreeMap<QuestionType, BTreeMap<usize, u64>> = BTreeMap::new();
    for q in &questions {
        let removed = usize::from(q.kind == QuestionType::MissingPremise);
        *lengths
            .entry(q.kind)
            .or_default()
            .entry(q.content.symbolic.len() + removed)
            .or_default() += 1;
    }
    for (kind, lengths) in &lengths {
        let admitted: Vec<usize> = (kind.min_premises()..=5).collect();
        assert_eq!(
            lengths.keys().copied().collect::<Vec<_>>(),
            admitted,
            "{kind:?}"
        );
        let total: u64 = lengths.values().sum();
        let p = 1.0 / admitted.len() as f64;
        let sigma = (p * (1.0 - p) / total as f64).sqrt();
        for (l, &c) in lengths {
            let share = c as f64 / total as f64;
            assert!(
                (share - p).abs() <= 4.5 * sigma,
                "{kind:?}, l = {l}: {lengths:?}"
            );
        }
    }
}

/// Why contents have at least three premises: over every content of two
/// premises (up to renaming: the first over `A`, `B`(, `C`), the second
/// over any of `A`..`F`), no question of any type exists. That `build`
/// finds none does not depend on its draws: no answer, conclusion or
/// removed premise it could draw has three fitting distractors (for
/// 3c1e: of its shape and mentions, with roles an entailed one has; the
/// entailed options chain through the shared sentence, the others mostly
/// do not), though 3c1e questions with unmatched roles exist (the
/// generator made them before).
#[test]
fn no_content_of_two_premises_allows_a_question() {
    let analysis = Analysis::new().expect("tables");
    let schemes = [Scheme::Implication, Scheme::NotBoth, Scheme::Either];
    let mut rng = crate::gen::item_rng(0, 0);
    let (mut contents, mut unmatched) = (0, 0);
    for first in schemes {
        for second in schemes {
            let mut tuples: Vec<Vec<usize>> = Vec::new();
            for a in 0..6 {
                for b in 0..6 {
                    for c in 0..6 {
                        let vars = [a, b, c];
                        let vars = &vars[..second.arity()];
                        let mut distinct = vars.to_vec();
                        distinct.sort_unstable();
                        distinct.dedup();
                        if distinct.len() == vars.len() && !tuples.contains(&vars.to_vec()) {
                            tuples.push(vars.to_vec());
                        }
                    }
                }
            }
            for vars in tuples {
                let premises = vec![
                    Premise {
                        scheme: first,
                        vars: (0..first.arity()).collect(),
                    },
                    Premise {
                        scheme: second,
                        vars,
                    },
                ];
                let mut uses = [0usize; 8];
                for v in premises.iter().flat_map(|p| &p.vars) {
                    uses[*v] += 1;
                }
                // n = 4: every variable of two premises is an option's.
                let over: Vec<usize> = (0..8).filter(|&v| uses[v] > 0).collect();
                contents += 1;
                let build = |kind, rng: &mut _| {
                    analysis
                        .build(kind, premises.clone(), &over, rng)
                        .expect("tables")
                        .is_some()
                };
                for kind in QuestionType::ALL {
                    assert!(!build(kind, &mut rng), "{kind:?}: {premises:?}");
                }
                let models: Vec<_> = premises
                    .iter()
                    .map(|p| analysis.table.models(&p.formula()).expect("tables"))
                    .collect();
                let all = models
                    .iter()
                    .fold(analysis.table.all(), |acc, m| acc.and(m));
                let (entailed, not_entailed) =
                    analysis.split(&over, &models, &all).expect("tables");
                // Each entailed candidate whose role a non-entailed one of
                // its shape and mentions has finds fewer than three such,
                // logically different from it and from each other.
                let group = |s: &Statement| {
                    let mentions: Vec<usize> = s.vars().iter().map(|&v| uses[v]).collect();
                    (s.shape(), mentions)
                };
                let ((answers, _), (distractors, _)) =
                    Roles::of(&premises).mixed_by(&entailed, &not_entailed, &group);
                for (answer, answer_models) in &answers {
                    let mut different: Vec<&_> = Vec::new();
                    for (d, m) in &distractors {
                        if group(d) == group(answer)
                            && m != answer_models
                            && !different.contains(&m)
                        {
                            different.push(m);
                        }
                    }
                    assert!(different.len() < 3, "{premises:?}: {answer:?}");
                }
                unmatched += usize::from(!entailed.is_empty());
            }
        }
    }
    assert_eq!(contents, 810);
    assert!(unmatched > 0);
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
    if !installed("score_perfect_letter_biased_and_content_biased_models") {
        return;
    }
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
    // Text is read as a completion; naming no single option is no answer.
    assert_eq!(read(r#"{"id":"y","answer":"E"}"#), Ok(answer("y", None)));
    assert_eq!(
        read(r#"{"id":"y","answer":"Answer: D"}"#),
        Ok(answer("y", Some(3)))
    );
    assert_eq!(
        read(r#"{"id":"y","answer":"**Answer:** C</s>"}"#),
        Ok(answer("y", Some(2)))
    );
    assert_eq!(
        read(r#"{"id":"y","answer":"Answer: A B C D"}"#),
        Ok(answer("y", None))
    );
    assert!(refused(r#"{"id":"y","answer":[1]}"#)
        .starts_with("answer [1] is neither an index nor a text"));
    assert!(refused(r#"{"answer":1}"#).starts_with("missing field `id`"));
}

#[test]
fn the_first_answer_to_an_id_counts() {
    if !installed("the_first_answer_to_an_id_counts") {
        return;
    }
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
    if !installed("every_prompt_asks_the_types_question_over_the_options_in_order") {
        return;
    }
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

/// No option is the odd one out: across the four options the "if" parts
/// are all the same or all different, so are the "then" parts, and each
/// option's sentences are mentioned by as many options as any other's.
#[test]
fn the_options_are_alike_as_a_set() {
    if !installed("the_options_are_alike_as_a_set") {
        return;
    }
    let parts = |symbolic: &str| {
        let vars = |s: &str| -> Vec<char> {
            let mut v: Vec<char> = s.chars().filter(|c| c.is_ascii_uppercase()).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        match symbolic.rfind("->") {
            Some(at) => (vars(&symbolic[..at]), vars(&symbolic[at + 2..])),
            None => (Vec::new(), vars(symbolic)),
        }
    };
    for q in mixed(300, 31) {
        let options: Vec<(Vec<char>, Vec<char>)> =
            q.options.iter().map(|o| parts(&o.symbolic)).collect();
        for side in [0, 1] {
            let values: Vec<&Vec<char>> = options
                .iter()
                .map(|(a, c)| if side == 0 { a } else { c })
                .collect();
            let distinct: std::collections::BTreeSet<&Vec<char>> = values.iter().copied().collect();
            assert!(
                distinct.len() == 1 || distinct.len() == values.len(),
                "{}: {values:?}",
                q.id
            );
        }
        let mut mentions: BTreeMap<char, usize> = BTreeMap::new();
        let sentences: Vec<Vec<char>> = options
            .iter()
            .map(|(a, c)| {
                let mut v = [a.clone(), c.clone()].concat();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        for v in sentences.iter().flatten() {
            *mentions.entry(*v).or_default() += 1;
        }
        let counts: Vec<Vec<usize>> = sentences
            .iter()
            .map(|s| {
                let mut c: Vec<usize> = s.iter().map(|v| mentions[v]).collect();
                c.sort_unstable();
                c
            })
            .collect();
        assert!(
            counts.iter().all(|c| *c == counts[0]),
            "{}: {counts:?}",
            q.id
        );
    }
}

/// The "forward" count of each option of `q`: for each variable of its
/// "if" part, how many premises of the content have it in their "if" part
/// (in their "then" part if the option negates it, as a contrapositive
/// goes), and for its "then" part the reverse. An entailed implication
/// goes the premises' way; a reader who only counts this (`scripts/cue-audit`'s
/// `roles-lr`) picked the 3c1e answer as the highest and the 3e1c one as
/// the lowest far more often than a distractor.
fn forward_counts(q: &Question) -> Vec<usize> {
    let (mut ifs, mut thens) = ([0usize; 8], [0usize; 8]);
    for p in &q.content.symbolic {
        if let F::Imp(a, c) = parse(p) {
            for (v, _) in occurrences_of(&a) {
                ifs[v] += 1;
            }
            for (v, _) in occurrences_of(&c) {
                thens[v] += 1;
            }
        }
    }
    q.options
        .iter()
        .map(|o| match parse(&o.symbolic) {
            F::Imp(a, c) => {
                let ante: usize = occurrences_of(&a)
                    .iter()
                    .map(|&(v, neg)| if neg { thens[v] } else { ifs[v] })
                    .sum();
                let cons: usize = occurrences_of(&c)
                    .iter()
                    .map(|&(v, neg)| if neg { ifs[v] } else { thens[v] })
                    .sum();
                ante + cons
            }
            f => occurrences_of(&f)
                .iter()
                .map(|&(v, neg)| if neg { ifs[v] } else { thens[v] })
                .sum(),
        })
        .collect()
}

fn occurrences_of(f: &F) -> Vec<(usize, bool)> {
    let mut out = Vec::new();
    occurrences(f, false, &mut out);
    out
}

/// The answer's roles are drawn as a distractor's: per type, the share of
/// questions in which the answer has the strictly highest forward count
/// among its options ([`forward_counts`]), and the strictly lowest, are
/// those of an average distractor, within 0.08 (3 standard errors on 300
/// questions a type). Before roles were matched, the 3c1e answer was the
/// strictly highest in 0.41 of questions (a distractor 0.05) and the 3e1c
/// answer the lowest far more often than a distractor.
#[test]
fn the_answer_goes_the_premises_way_as_often_as_a_distractor() {
    if !installed("the_answer_goes_the_premises_way_as_often_as_a_distractor") {
        return;
    }
    // Per type: questions, answer highest, distractor highest (summed over
    // the three), answer lowest, distractor lowest.
    let mut tally: BTreeMap<QuestionType, [f64; 5]> = BTreeMap::new();
    for q in mixed(900, 57) {
        let f = forward_counts(&q);
        let strictly = |j: usize, higher: bool| {
            (0..f.len())
                .filter(|&k| k != j)
                .all(|k| if higher { f[j] > f[k] } else { f[j] < f[k] })
        };
        let t = tally.entry(q.kind).or_default();
        t[0] += 1.0;
        for j in 0..f.len() {
            let (high, low) = (
                strictly(j, true) as u8 as f64,
                strictly(j, false) as u8 as f64,
            );
            if j == q.answer {
                t[1] += high;
                t[3] += low;
            } else {
                t[2] += high / 3.0;
                t[4] += low / 3.0;
            }
        }
    }
    assert_eq!(tally.len(), 3);
    for (kind, t) in &tally {
        let n = t[0];
        for (answer, distractor, what) in [(t[1], t[2], "highest"), (t[3], t[4], "lowest")] {
            assert!(
                (answer / n - distractor / n).abs() <= 0.08,
                "{kind:?}: the answer is strictly {what} in {answer} of {n}, a distractor in {distractor:.1}"
            );
        }
    }
}

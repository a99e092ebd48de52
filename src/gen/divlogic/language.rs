//! Natural-language rendering. Each variable of a question stands for a
//! simple sentence built from WordNet words ([`crate::gen::wordnet`]) by our
//! own grammar: a person, an animal or a group with a property ("the nurse
//! is brittle"), an action ("the otter apologizes") or an action on a thing,
//! an event or an abstraction ("the nurse pickles the anchor", "the
//! committee weighs the patience"), drawn from WordNet's widest pools
//! ([`Words::any_subjects`], [`Words::any_objects`]), as the paper's large
//! vocabulary asks. Words are drawn at random, so the
//! sentences are unlikely and world knowledge cannot tell whether they hold,
//! which is the point of DivLogicEval's counterintuitive content. Every
//! sentence has a clean negation ("is not", "does not"). Statements are put
//! into one of several connective templates.

use super::content::{pick, Literal, Premise, Scheme, Statement, VARIABLES};
use crate::gen::wordnet::Words;
use rand_chacha::ChaCha8Rng;

/// The sentence a variable stands for, as a lower-case clause, and its negation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Atom {
    /// `the nurse pickles the anchor`
    pub positive: String,
    /// `the nurse does not pickle the anchor`
    pub negative: String,
}

/// A uniformly chosen member of a non-empty slice.
fn choose<'a, T>(items: &'a [T], rng: &mut ChaCha8Rng) -> &'a T {
    &items[pick(rng, items.len())]
}

/// A noun of `pool` not in `taken`, which it joins, so no noun names two
/// things in a question (a sentence is then never part of another's words).
fn fresh<'a>(pool: &[&'a str], taken: &mut Vec<&'a str>, rng: &mut ChaCha8Rng) -> &'a str {
    loop {
        let noun = *choose(pool, rng);
        if !taken.contains(&noun) {
            taken.push(noun);
            return noun;
        }
    }
}

/// A random sentence: a subject from `words` not in `taken`, and a property,
/// an action or an action on a thing; a third of the subjects carry an
/// adjective ("the shy nurse").
fn atom<'a>(words: &Words<'a>, taken: &mut Vec<&'a str>, rng: &mut ChaCha8Rng) -> Atom {
    let noun = fresh(&words.any_subjects, taken, rng);
    // Not the noun itself ("the patient patient") nor a pair that is a
    // slur ("the yellow woman").
    let modifier = (pick(rng, 3) == 0).then(|| loop {
        let a = choose(words.adjectives, rng).as_str();
        if a != noun && !words.offensive_pair(a, noun) {
            break a;
        }
    });
    let subject = match modifier {
        Some(adjective) => format!("the {adjective} {noun}"),
        None => format!("the {noun}"),
    };
    match pick(rng, 3) {
        0 => {
            // Not the subject's own adjective ("the shy nurse is shy").
            let adjective = loop {
                let a = choose(words.adjectives, rng);
                if modifier != Some(a.as_str()) {
                    break a;
                }
            };
            Atom {
                positive: format!("{subject} is {adjective}"),
                negative: format!("{subject} is not {adjective}"),
            }
        }
        1 => {
            let verb = choose(&words.intransitive, rng);
            Atom {
                positive: format!("{subject} {}", verb.third_person()),
                negative: format!("{subject} does not {}", verb.lemma),
            }
        }
        _ => {
            let verb = choose(&words.transitive, rng);
            let object = fresh(&words.any_objects, taken, rng);
            Atom {
                positive: format!("{subject} {} the {object}", verb.third_person()),
                negative: format!("{subject} does not {} the {object}", verb.lemma),
            }
        }
    }
}

/// Templates for `a -> b`.
const IMPLICATION: [&str; 7] = [
    "if {a}, then {b}",
    "{b} if {a}",
    "{a} only if {b}",
    "whenever {a}, {b}",
    "provided that {a}, {b}",
    "in case {a}, {b}",
    "if {a}, it follows that {b}",
];

/// Templates for `-(a & b) -> c`.
const NOT_BOTH: [&str; 5] = [
    "if it is not the case that both {a} and {b}, then {c}",
    "unless both {a} and {b}, {c}",
    "{c} unless both {a} and {b}",
    "if not both {a} and {b}, then {c}",
    "{c} if it is false that both {a} and {b}",
];

/// Templates for `(a | b) -> c`.
const EITHER: [&str; 5] = [
    "if {a} or {b}, then {c}",
    "{c} if either {a} or {b}",
    "whenever {a} or {b}, {c}",
    "{c} in case {a} or {b}",
    "if {a}, then {c}, and the same holds if {b}",
];

/// Renders the statements of one question: each variable `A`..`H` stands
/// for one sentence throughout the question, while negation forms and
/// templates are drawn per statement.
pub(crate) struct Renderer {
    atoms: Vec<Atom>,
}

impl Renderer {
    /// Gives the eight variables eight sentences with distinct nouns.
    pub(crate) fn new(words: &Words<'_>, rng: &mut ChaCha8Rng) -> Renderer {
        let mut taken = Vec::new();
        let atoms = VARIABLES
            .iter()
            .map(|_| atom(words, &mut taken, rng))
            .collect();
        Renderer { atoms }
    }

    /// The sentence of each variable `A`..`H`, in order.
    pub(crate) fn atoms(&self) -> &[Atom] {
        &self.atoms
    }

    /// The clause of a literal. `standalone` literals (a whole option)
    /// sometimes say "it is not the case that …" instead, for variety; inside
    /// a connective template that form would be ambiguous ("it is not the
    /// case that X if Y" reads as ¬(Y → X)), so it is not used there.
    fn literal(&self, literal: Literal, standalone: bool, rng: &mut ChaCha8Rng) -> String {
        let atom = &self.atoms[literal.var];
        if literal.positive {
            atom.positive.clone()
        } else if standalone && pick(rng, 4) == 0 {
            format!("it is not the case that {}", atom.positive)
        } else {
            atom.negative.clone()
        }
    }

    /// A whole sentence (capitalised, with a full stop) for a statement.
    pub(crate) fn statement(&self, statement: &Statement, rng: &mut ChaCha8Rng) -> String {
        let body = match statement {
            Statement::Literal(l) => self.literal(*l, true, rng),
            Statement::Implication(a, b) => {
                let template = IMPLICATION[pick(rng, IMPLICATION.len())];
                fill(
                    template,
                    &[self.literal(*a, false, rng), self.literal(*b, false, rng)],
                )
            }
            Statement::Premise(Premise { scheme, vars }) => {
                let templates: &[&str] = match scheme {
                    Scheme::Implication => &IMPLICATION,
                    Scheme::NotBoth => &NOT_BOTH,
                    Scheme::Either => &EITHER,
                };
                let template = templates[pick(rng, templates.len())];
                let parts: Vec<String> = vars
                    .iter()
                    .map(|&v| self.atoms[v].positive.clone())
                    .collect();
                fill(template, &parts)
            }
        };
        sentence_case(&body)
    }
}

/// Puts `parts` into the `{a}`, `{b}`, `{c}` slots of `template`.
fn fill(template: &str, parts: &[String]) -> String {
    let mut out = template.to_string();
    for (slot, part) in ["{a}", "{b}", "{c}"].iter().zip(parts) {
        out = out.replace(slot, part);
    }
    out
}

/// Capitalises the first letter and ends with a full stop.
fn sentence_case(body: &str) -> String {
    let mut chars = body.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

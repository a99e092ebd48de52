//! Natural-language rendering: each variable becomes a simple sentence from
//! `corpora/divlogic/sentences.txt`, negated by a simple rule, and each
//! statement is put into one of several connective templates.

use super::content::{pick, Literal, Premise, Scheme, Statement};
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// The built-in sentence list, compiled into the binary.
const SENTENCES: &str = include_str!("../../../corpora/divlogic/sentences.txt");

/// Auxiliaries after which the negation rule puts "not"; "can" becomes "cannot".
const AUXILIARIES: [&str; 15] = [
    "is", "are", "was", "were", "can", "will", "has", "have", "had", "must", "should", "could",
    "would", "may", "does",
];

/// Propositions, each with its paraphrases (all meaning the same thing).
#[derive(Debug, Clone)]
pub(crate) struct Lexicon {
    propositions: Vec<Vec<String>>,
}

/// Why a sentence list was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum LexiconError {
    /// A paraphrase has no auxiliary, so the negation rule cannot negate it.
    #[error("line {line}: no auxiliary to negate in {sentence:?}")]
    NotNegatable {
        /// 1-based line number.
        line: usize,
        /// The offending paraphrase.
        sentence: String,
    },
    /// Fewer propositions than the eight variables need.
    #[error("{0} propositions; at least 8 are needed, one per variable")]
    TooFew(usize),
}

impl Lexicon {
    /// Reads a sentence list: one proposition per line, paraphrases separated
    /// by `|`, `#` comments and blank lines ignored. Every paraphrase must be
    /// negatable by [`negate`].
    pub(crate) fn parse(text: &str) -> Result<Lexicon, LexiconError> {
        let mut propositions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut paraphrases = Vec::new();
            for sentence in line.split('|').map(str::trim).filter(|s| !s.is_empty()) {
                if negate(sentence).is_none() {
                    return Err(LexiconError::NotNegatable {
                        line: i + 1,
                        sentence: sentence.to_string(),
                    });
                }
                paraphrases.push(sentence.to_string());
            }
            if !paraphrases.is_empty() {
                propositions.push(paraphrases);
            }
        }
        if propositions.len() < 8 {
            return Err(LexiconError::TooFew(propositions.len()));
        }
        Ok(Lexicon { propositions })
    }

    /// The list in `corpora/divlogic/sentences.txt`.
    pub(crate) fn builtin() -> &'static Lexicon {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        // The built-in list is checked by a test, so failing here is a build defect, not an input error.
        LEXICON.get_or_init(|| {
            Lexicon::parse(SENTENCES).expect("corpora/divlogic/sentences.txt is valid")
        })
    }

    /// The propositions with their paraphrases.
    #[cfg(test)]
    pub(crate) fn propositions(&self) -> &[Vec<String>] {
        &self.propositions
    }
}

/// The rule-based negation of a simple sentence: "not" goes after the first
/// auxiliary ("is" → "is not", "can" → "cannot"). `None` if there is none.
pub(crate) fn negate(sentence: &str) -> Option<String> {
    let words: Vec<&str> = sentence.split(' ').collect();
    let at = words.iter().position(|w| AUXILIARIES.contains(w))?;
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    if out[at] == "can" {
        out[at] = "cannot".to_string();
    } else {
        out.insert(at + 1, "not".to_string());
    }
    Some(out.join(" "))
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

/// Renders statements for one question: which proposition each variable
/// stands for is fixed per question, while paraphrases, negation forms and
/// templates are drawn per occurrence.
pub(crate) struct Renderer<'l> {
    lexicon: &'l Lexicon,
    /// Proposition index for each variable `A`..`H`.
    meaning: Vec<usize>,
}

impl<'l> Renderer<'l> {
    /// Gives the eight variables eight distinct propositions of `lexicon`.
    pub(crate) fn new(lexicon: &'l Lexicon, rng: &mut ChaCha8Rng) -> Renderer<'l> {
        let mut pool: Vec<usize> = (0..lexicon.propositions.len()).collect();
        let mut meaning = Vec::with_capacity(8);
        for _ in 0..8 {
            meaning.push(pool.swap_remove(pick(rng, pool.len())));
        }
        Renderer { lexicon, meaning }
    }

    /// A sentence for variable `var`, in a random paraphrase.
    fn variable(&self, var: usize, rng: &mut ChaCha8Rng) -> String {
        let paraphrases = &self.lexicon.propositions[self.meaning[var]];
        paraphrases[pick(rng, paraphrases.len())].clone()
    }

    /// A sentence for a literal, negated by the rule. `standalone` literals
    /// (a whole option) sometimes say "it is not the case that …" instead, for
    /// variety; inside a connective template that form would be ambiguous
    /// ("it is not the case that X if Y" reads as ¬(Y → X)), so it is not used there.
    fn literal(&self, literal: Literal, standalone: bool, rng: &mut ChaCha8Rng) -> String {
        let sentence = self.variable(literal.var, rng);
        if literal.positive {
            return sentence;
        }
        match negate(&sentence) {
            Some(negated) if !standalone || pick(rng, 4) != 0 => negated,
            _ => format!("it is not the case that {sentence}"),
        }
    }

    /// A whole sentence (capitalised, with a full stop) for a statement.
    pub(crate) fn statement(&self, statement: &Statement, rng: &mut ChaCha8Rng) -> String {
        let positive = |var| Literal {
            var,
            positive: true,
        };
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
                    .map(|&v| self.literal(positive(v), false, rng))
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

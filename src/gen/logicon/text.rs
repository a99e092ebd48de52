//! Natural-language rendering of statements over a shipped word list.
//!
//! Each atom of a sample becomes a sentence about its own noun ("The lantern
//! is red", "The falcon hums", "The flood occurs"), so no two atoms can be
//! confused; connectives become fixed templates. Non-literal operands are
//! bracketed, which keeps nested statements unambiguous.

use crate::syntax::prover9::{Formula, Term};
use rand::seq::SliceRandom;
use rand::Rng;
use std::sync::OnceLock;

const LEXICON_TEXT: &str = include_str!("../../../corpora/logicon/lexicon.txt");

/// The word list: nouns, adjectives, verbs (base and -s form) and event nouns.
#[derive(Debug, Default)]
struct Lexicon {
    nouns: Vec<String>,
    adjectives: Vec<String>,
    verbs: Vec<(String, String)>,
    events: Vec<String>,
}

fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(|| {
        let mut lex = Lexicon::default();
        for line in LEXICON_TEXT.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((section, words)) = line.split_once(':') else {
                continue;
            };
            let words: Vec<&str> = words.split_whitespace().collect();
            match (section.trim(), words.as_slice()) {
                ("noun", [w]) => lex.nouns.push(w.to_string()),
                ("adjective", [w]) => lex.adjectives.push(w.to_string()),
                ("verb", [base, third]) => lex.verbs.push((base.to_string(), third.to_string())),
                ("event", [w]) => lex.events.push(w.to_string()),
                _ => {}
            }
        }
        lex
    })
}

/// How one atom reads, asserted and denied (lower-case, no final period).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Phrase {
    pub positive: String,
    pub negative: String,
}

/// The phrases for the atoms of one sample, in the order of `atoms`.
#[derive(Debug, Clone)]
pub(crate) struct Vocabulary {
    atoms: Vec<(String, Phrase)>,
}

impl Vocabulary {
    /// Draws a distinct subject for every atom and one of the three sentence shapes.
    pub(crate) fn draw(atoms: &[String], rng: &mut impl Rng) -> Vocabulary {
        let lex = lexicon();
        let mut nouns: Vec<&String> = lex.nouns.iter().collect();
        nouns.shuffle(rng);
        let mut events: Vec<&String> = lex.events.iter().collect();
        events.shuffle(rng);
        let (mut next_noun, mut next_event) = (0, 0);
        let mut out = Vec::new();
        for atom in atoms {
            let shape = rng.gen_range(0..3);
            // Fall back to the adjective shape if a list runs out; the shipped
            // lists are far longer than the five atoms a sample may have.
            let phrase = match (shape, events.get(next_event), nouns.get(next_noun)) {
                (2, Some(event), _) => {
                    next_event += 1;
                    Phrase {
                        positive: format!("the {event} occurs"),
                        negative: format!("the {event} does not occur"),
                    }
                }
                (1, _, Some(noun)) if !lex.verbs.is_empty() => {
                    next_noun += 1;
                    let (base, third) = &lex.verbs[rng.gen_range(0..lex.verbs.len())];
                    Phrase {
                        positive: format!("the {noun} {third}"),
                        negative: format!("the {noun} does not {base}"),
                    }
                }
                (_, _, Some(noun)) if !lex.adjectives.is_empty() => {
                    next_noun += 1;
                    let adj = &lex.adjectives[rng.gen_range(0..lex.adjectives.len())];
                    Phrase {
                        positive: format!("the {noun} is {adj}"),
                        negative: format!("the {noun} is not {adj}"),
                    }
                }
                _ => Phrase {
                    positive: format!("{atom} holds"),
                    negative: format!("{atom} does not hold"),
                },
            };
            out.push((atom.clone(), phrase));
        }
        Vocabulary { atoms: out }
    }

    fn phrase(&self, atom: &Term) -> Option<&Phrase> {
        match atom {
            Term::App(name, args) if args.is_empty() => {
                self.atoms.iter().find(|(a, _)| a == name).map(|(_, p)| p)
            }
            _ => None,
        }
    }

    /// The statement as an English sentence, capitalised and ending in a period.
    pub(crate) fn sentence(&self, f: &Formula) -> String {
        let body = self.render(f, true);
        let mut out = capitalise(&body);
        if !out.ends_with('.') {
            out.push('.');
        }
        out
    }

    fn operand(&self, f: &Formula) -> String {
        match f {
            Formula::Atom(_) | Formula::True | Formula::False => self.render(f, false),
            Formula::Not(inner) if matches!(inner.as_ref(), Formula::Atom(_)) => {
                self.render(f, false)
            }
            // Conjunctions are sentences and keep their periods inside.
            _ => format!("[{}]", capitalise(&self.render(f, false))),
        }
    }

    fn render(&self, f: &Formula, top: bool) -> String {
        match f {
            Formula::True => "something holds".to_string(),
            Formula::False => "nothing holds".to_string(),
            Formula::Atom(t) => match self.phrase(t) {
                Some(p) => p.positive.clone(),
                None => format!("{t} holds"),
            },
            Formula::Not(inner) => match inner.as_ref() {
                Formula::Atom(t) => match self.phrase(t) {
                    Some(p) => p.negative.clone(),
                    None => format!("{t} does not hold"),
                },
                other => format!("it is not the case that: {}", self.operand(other)),
            },
            Formula::And(..) => {
                let parts = flatten(f, true);
                let ordinals = [
                    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                ];
                let sentences: Vec<String> = parts
                    .iter()
                    .enumerate()
                    .map(|(i, part)| {
                        let ordinal = ordinals.get(i).copied().unwrap_or("next");
                        format!("{}, {}.", capitalise(ordinal), self.operand(part))
                    })
                    .collect();
                let joined = sentences.join(" ");
                if top {
                    joined
                } else {
                    // Lower-case start so callers can capitalise where needed.
                    decapitalise(&joined)
                }
            }
            Formula::Or(..) => {
                let parts = flatten(f, false);
                let numerals = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii"];
                let options: Vec<String> = parts
                    .iter()
                    .enumerate()
                    .map(|(i, part)| {
                        format!(
                            "({}) {}",
                            numerals.get(i).copied().unwrap_or("next"),
                            self.operand(part)
                        )
                    })
                    .collect();
                format!("either {}", options.join(", or "))
            }
            Formula::Implies(a, b) => format!("if {}, then {}", self.operand(a), self.operand(b)),
            Formula::ImpliedBy(a, b) => format!("if {}, then {}", self.operand(b), self.operand(a)),
            Formula::Iff(a, b) => format!("{} if and only if {}", self.operand(a), self.operand(b)),
            Formula::Quant(..) => f.to_string(),
        }
    }
}

/// The operands of a chain of `&` (or of `|`), left to right.
fn flatten(f: &Formula, conjunction: bool) -> Vec<&Formula> {
    match f {
        Formula::And(a, b) if conjunction => {
            let mut v = flatten(a, true);
            v.extend(flatten(b, true));
            v
        }
        Formula::Or(a, b) if !conjunction => {
            let mut v = flatten(a, false);
            v.extend(flatten(b, false));
            v
        }
        other => vec![other],
    }
}

/// `s` with its first letter upper-cased; only that letter is copied.
fn capitalise(s: &str) -> String {
    change_first(s, char::to_uppercase)
}

/// `s` with its first letter lower-cased.
fn decapitalise(s: &str) -> String {
    change_first(s, char::to_lowercase)
}

fn change_first<I: Iterator<Item = char>>(s: &str, change: impl Fn(char) -> I) -> String {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let mut out = String::with_capacity(s.len() + 4);
    out.extend(change(first));
    out.push_str(chars.as_str());
    out
}

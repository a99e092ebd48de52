//! Natural-language rendering of statements over a shipped word list.
//!
//! Each atom of a sample becomes a sentence about its own noun ("The lantern
//! is red", "The falcon hums", "The flood occurs"), so no two atoms can be
//! confused; connectives become fixed templates. Non-literal operands are
//! bracketed, which keeps nested statements unambiguous.

use crate::syntax::prover9::{Formula, Term};
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt::Write as _;
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
        let mut out = String::with_capacity(160);
        self.render(f, true, &mut out);
        capitalise_from(&mut out, 0);
        if !out.ends_with('.') {
            out.push('.');
        }
        out
    }

    fn operand(&self, f: &Formula, out: &mut String) {
        match f {
            Formula::Atom(_) | Formula::True | Formula::False => self.render(f, false, out),
            Formula::Not(inner) if matches!(inner.as_ref(), Formula::Atom(_)) => {
                self.render(f, false, out)
            }
            // Conjunctions are sentences and keep their periods inside.
            _ => {
                out.push('[');
                let start = out.len();
                self.render(f, false, out);
                capitalise_from(out, start);
                out.push(']');
            }
        }
    }

    /// Appends `f` in words to `out`, lower-case first unless `top` (a
    /// conjunction then starts with its capitalised ordinal).
    fn render(&self, f: &Formula, top: bool, out: &mut String) {
        match f {
            Formula::True => out.push_str("something holds"),
            Formula::False => out.push_str("nothing holds"),
            Formula::Atom(t) => match self.phrase(t) {
                Some(p) => out.push_str(&p.positive),
                None => {
                    let _ = write!(out, "{t} holds");
                }
            },
            Formula::Not(inner) => match inner.as_ref() {
                Formula::Atom(t) => match self.phrase(t) {
                    Some(p) => out.push_str(&p.negative),
                    None => {
                        let _ = write!(out, "{t} does not hold");
                    }
                },
                other => {
                    out.push_str("it is not the case that: ");
                    self.operand(other, out);
                }
            },
            Formula::And(..) => {
                const ORDINALS: [&str; 8] = [
                    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                ];
                for (i, part) in flatten(f, true).into_iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    let start = out.len();
                    out.push_str(ORDINALS.get(i).copied().unwrap_or("next"));
                    if i > 0 || top {
                        capitalise_from(out, start);
                    }
                    out.push_str(", ");
                    self.operand(part, out);
                    out.push('.');
                }
            }
            Formula::Or(..) => {
                const NUMERALS: [&str; 8] = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii"];
                out.push_str("either ");
                for (i, part) in flatten(f, false).into_iter().enumerate() {
                    if i > 0 {
                        out.push_str(", or ");
                    }
                    out.push('(');
                    out.push_str(NUMERALS.get(i).copied().unwrap_or("next"));
                    out.push_str(") ");
                    self.operand(part, out);
                }
            }
            Formula::Implies(a, b) | Formula::ImpliedBy(b, a) => {
                out.push_str("if ");
                self.operand(a, out);
                out.push_str(", then ");
                self.operand(b, out);
            }
            Formula::Iff(a, b) => {
                self.operand(a, out);
                out.push_str(" if and only if ");
                self.operand(b, out);
            }
            Formula::Quant(..) => {
                let _ = write!(out, "{f}");
            }
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

/// Upper-cases the letter at byte `start` of `s` (a char boundary), if any.
fn capitalise_from(s: &mut String, start: usize) {
    let Some(first) = s[start..].chars().next() else {
        return;
    };
    if first.is_ascii() {
        s[start..start + 1].make_ascii_uppercase();
    } else if !first.is_uppercase() {
        let upper: String = first.to_uppercase().collect();
        s.replace_range(start..start + first.len_utf8(), &upper);
    }
}

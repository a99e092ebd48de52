//! Natural-language rendering of statements over WordNet words.
//!
//! Each atom of a sample becomes a sentence about its own noun, in one of
//! LogiConBench's four atom shapes (its Appendix H): "the NOUN is ADJ", "the
//! NOUN VERBs", "the EVENT occurs" and "the NOUN has the THING", each with its
//! clean negation ("is not", "does not VERB", "does not occur", "does not
//! have"). The words come from WordNet, read at run time
//! ([`crate::gen::wordnet`]); no noun serves two atoms, so no two atoms can be
//! confused. Connectives become the paper's templates ("First, A. Second,
//! B.", "Either (i) A, or (ii) B", "It is not the case that the following
//! holds: A"); non-literal operands are bracketed, which keeps nested
//! statements unambiguous.

use crate::gen::wordnet::{self, Lexicon, Words};
use crate::prolog::PerProcess;
use crate::syntax::prover9::{Formula, Term};
use once_cell::race::OnceBox;
use rand::Rng;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The WordNet words in `dir` (else `$ENTAIL_WORDNET`, else the default; see
/// [`wordnet::locate`]), read once per process and directory, since every
/// sample draws from them. The error says what is missing.
pub(crate) fn words(dir: Option<&Path>) -> Result<&'static Words<'static>, String> {
    let path = wordnet::locate(dir);
    let mut opened = opened().lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(words) = opened.get(&path) {
        return Ok(words);
    }
    // Kept for the life of the process: one per directory ever named.
    let lex: &'static Lexicon =
        Box::leak(Box::new(Lexicon::open(&path).map_err(|e| e.to_string())?));
    let words: &'static Words<'static> = Box::leak(Box::new(Words::new(lex)?));
    opened.insert(path, words);
    Ok(words)
}

/// The words [`words`] has opened in this process, by directory. A forked
/// child keeps those its parent had opened, unless another thread held the
/// lock at the fork (opening one takes about a second); it then opens them
/// again, since the lock stays held in the child for ever.
fn opened() -> &'static Mutex<BTreeMap<PathBuf, &'static Words<'static>>> {
    type Opened = Mutex<BTreeMap<PathBuf, &'static Words<'static>>>;
    static OPENED: OnceBox<PerProcess<Opened>> = OnceBox::new();
    OPENED
        .get_or_init(|| Box::new(PerProcess::new(Mutex::new(BTreeMap::new()))))
        .get_or_copy()
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

/// A uniformly drawn member of `pool` (non-empty, as [`Words::new`] checks)
/// not in `taken`, which it joins.
fn fresh<'w>(pool: &[&'w str], taken: &mut Vec<&'w str>, rng: &mut impl Rng) -> &'w str {
    loop {
        let word = pool[rng.gen_range(0..pool.len())];
        if !taken.contains(&word) {
            taken.push(word);
            return word;
        }
    }
}

impl Vocabulary {
    /// Draws one of the four shapes and fresh nouns for every atom.
    pub(crate) fn draw(atoms: &[String], words: &Words<'_>, rng: &mut impl Rng) -> Vocabulary {
        let mut taken = Vec::new();
        let atoms = atoms
            .iter()
            .map(|atom| {
                let phrase = match rng.gen_range(0..4) {
                    0 => {
                        let pool = if rng.gen_ratio(1, 2) {
                            &words.subjects
                        } else {
                            &words.objects
                        };
                        let noun = fresh(pool, &mut taken, rng);
                        let adjective = &words.adjectives[rng.gen_range(0..words.adjectives.len())];
                        Phrase {
                            positive: format!("the {noun} is {adjective}"),
                            negative: format!("the {noun} is not {adjective}"),
                        }
                    }
                    1 => {
                        let noun = fresh(&words.subjects, &mut taken, rng);
                        let verb = words.intransitive[rng.gen_range(0..words.intransitive.len())];
                        Phrase {
                            positive: format!("the {noun} {}", verb.third_person()),
                            negative: format!("the {noun} does not {}", verb.lemma),
                        }
                    }
                    2 => {
                        let event = fresh(&words.events, &mut taken, rng);
                        Phrase {
                            positive: format!("the {event} occurs"),
                            negative: format!("the {event} does not occur"),
                        }
                    }
                    _ => {
                        let owner = fresh(&words.subjects, &mut taken, rng);
                        let thing = fresh(&words.objects, &mut taken, rng);
                        Phrase {
                            positive: format!("the {owner} has the {thing}"),
                            negative: format!("the {owner} does not have the {thing}"),
                        }
                    }
                };
                (atom.clone(), phrase)
            })
            .collect();
        Vocabulary { atoms }
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
                    out.push_str("it is not the case that the following holds: ");
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
                const NUMERALS: [&str; 16] = [
                    "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii",
                    "xiii", "xiv", "xv", "xvi",
                ];
                let start = out.len();
                let parts = flatten(f, false);
                out.push_str("either ");
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", or ");
                    }
                    out.push('(');
                    out.push_str(NUMERALS.get(i).copied().unwrap_or("next"));
                    out.push_str(") ");
                    self.operand(part, out);
                }
                // A disjunction read as one sentence of more than
                // MAX_SENTENCE_WORDS words (normal forms of the rewrites
                // reach 200) is read as a list, one sentence a part.
                if longest_sentence(&out[start..]) > MAX_SENTENCE_WORDS {
                    out.truncate(start);
                    out.push_str("at least one of the following holds.");
                    for (i, part) in parts.iter().enumerate() {
                        out.push_str(" (");
                        out.push_str(NUMERALS.get(i).copied().unwrap_or("next"));
                        out.push_str(") ");
                        let at = out.len();
                        self.operand(part, out);
                        capitalise_from(out, at);
                        out.push('.');
                    }
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

/// The most words a sentence of a statement has: a longer disjunction is
/// read as a list of sentences.
pub(crate) const MAX_SENTENCE_WORDS: usize = 60;

/// The words of the longest sentence of `text`: of its runs between
/// periods (as a reader who splits at periods counts them).
pub(crate) fn longest_sentence(text: &str) -> usize {
    text.split('.')
        .map(|s| s.split_whitespace().count())
        .max()
        .unwrap_or(0)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::item_rng;

    /// The installed WordNet's words, or `None` with a visible skip line.
    fn installed(test: &str) -> Option<&'static Words<'static>> {
        match words(None) {
            Ok(words) => Some(words),
            Err(e) => {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {e}");
                None
            }
        }
    }

    /// A child forked while another thread opens the words opens its own
    /// (before, it waited for the parent's lock for ever).
    #[test]
    fn a_child_forked_while_the_words_are_locked_opens_them() {
        if installed("a_child_forked_while_the_words_are_locked_opens_them").is_none() {
            return;
        }
        let guard = opened().lock().unwrap_or_else(PoisonError::into_inner);
        crate::prolog::assert_in_forked_child(|| words(None).is_ok());
        drop(guard);
    }

    #[test]
    fn atoms_get_distinct_nouns_negations_and_all_four_shapes() {
        let Some(words) = installed("atoms_get_distinct_nouns_negations_and_all_four_shapes")
        else {
            return;
        };
        let atoms: Vec<String> = "pqrstabc".chars().map(String::from).collect();
        let mut shapes = [0usize; 4];
        for i in 0..200 {
            let vocabulary = Vocabulary::draw(&atoms, words, &mut item_rng(5, i));
            let mut nouns = Vec::new();
            for (_, phrase) in &vocabulary.atoms {
                let p = &phrase.positive;
                let n = &phrase.negative;
                let shape = if let Some((_, adjective)) = p.split_once(" is ") {
                    assert!(n.ends_with(&format!(" is not {adjective}")), "{p} / {n}");
                    0
                } else if p.ends_with(" occurs") {
                    assert_eq!(*n, p.replace(" occurs", " does not occur"));
                    2
                } else if let Some((owner, thing)) = p.split_once(" has the ") {
                    assert_eq!(*n, format!("{owner} does not have the {thing}"));
                    nouns.push(thing.to_string());
                    3
                } else {
                    assert!(n.contains(" does not "), "{p} / {n}");
                    1
                };
                shapes[shape] += 1;
                let noun = p.split(' ').nth(1).expect("the NOUN ...");
                nouns.push(noun.to_string());
                assert!(p.starts_with("the ") && n.starts_with("the "));
            }
            let mut distinct = nouns.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(
                distinct.len(),
                nouns.len(),
                "a noun serves two atoms: {nouns:?}"
            );
        }
        assert!(shapes.iter().all(|&n| n > 300), "shapes {shapes:?}");
    }

    #[test]
    fn connectives_read_as_the_papers_templates() {
        let Some(words) = installed("connectives_read_as_the_papers_templates") else {
            return;
        };
        let atoms: Vec<String> = ["p", "q", "r"].map(String::from).to_vec();
        let vocabulary = Vocabulary::draw(&atoms, words, &mut item_rng(1, 0));
        let say = |a: usize| vocabulary.atoms[a].1.positive.clone();
        let deny = |a: usize| vocabulary.atoms[a].1.negative.clone();
        let formula = |text: &str| {
            crate::syntax::prover9::parse_formula(text, &Default::default()).expect("parses")
        };
        let cap = |s: String| {
            let mut s = s;
            capitalise_from(&mut s, 0);
            s
        };
        assert_eq!(
            vocabulary.sentence(&formula("p & -q")),
            format!("First, {}. Second, {}.", say(0), deny(1))
        );
        assert_eq!(
            vocabulary.sentence(&formula("p | q | -r")),
            cap(format!(
                "either (i) {}, or (ii) {}, or (iii) {}.",
                say(0),
                say(1),
                deny(2)
            ))
        );
        // A disjunction of more than 60 words is read as a list.
        let long = (0..12)
            .map(|i| ["p", "q", "-r"][i % 3])
            .collect::<Vec<_>>()
            .join(" | ");
        let text = vocabulary.sentence(&formula(&long));
        assert!(
            text.starts_with("At least one of the following holds. (i) "),
            "{text}"
        );
        assert!(longest_sentence(&text) <= MAX_SENTENCE_WORDS, "{text}");
        assert_eq!(text.matches(". (").count(), 12, "{text}");
        assert_eq!(
            vocabulary.sentence(&formula("-(p & q)")),
            format!(
                "It is not the case that the following holds: [First, {}. Second, {}.].",
                say(0),
                say(1)
            )
        );
    }
}

//! The words of an instance, drawn from WordNet ([`crate::gen::wordnet`]),
//! and the template-based English rendering of formulas over them.
//!
//! An instance has one theme: one or more subjects from a person or animal
//! category and objects from two thing categories (WordNet's lexicographer
//! files, so about a hundred themes). Its atoms are `adjective(subject)`
//! ("the nurse is calm"), `verb(subject)` ("the nurse sings") and
//! `verb(subject, object)` ("the nurse carries the lantern").
//!
//! Sentences carry no brackets: nesting is said with words (`either … or`,
//! `if …, then`, `whenever`, `and yet`), as the published instances do.

use super::prop::{capitalize, Prop};
use crate::gen::wordnet::{Lexicon, SOMEBODY, SOMETHING};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::{BTreeMap, BTreeSet};

/// A ground atom of an instance: its Prover9 spelling and two clauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GroundAtom {
    /// `carry(nurse, lantern)`
    pub expression: String,
    /// `the nurse carries the lantern` (lower-case clause)
    pub positive: String,
    /// `the nurse does not carry the lantern`
    pub negative: String,
}

/// Words Prover9 reads as something other than a name.
const RESERVED: [&str; 4] = ["all", "exists", "true", "false"];

/// Whether Prover9 reads `name` as a constant: lower-case identifier whose
/// first letter is not u–z.
fn is_constant_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('a'..='t'))
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The short name of a lexicographer file (`noun.animal` → `animal`).
fn short(category: &str) -> &str {
    category.split('.').nth(1).unwrap_or(category)
}

/// `count` distinct ground atoms of one theme drawn from `lex` (atom 0 is
/// `G`), and the theme's name (`person; artifact, food (WordNet 3.0)`).
pub(crate) fn pick_atoms<R: Rng>(
    lex: &Lexicon,
    rng: &mut R,
    count: usize,
) -> Result<(String, Vec<GroundAtom>), String> {
    let subject_category = *SOMEBODY.choose(rng).ok_or("no subject category")?;
    // Animals can be objects too (of a person).
    let object_pool: Vec<&str> = SOMETHING
        .iter()
        .copied()
        .chain(Some("noun.animal"))
        .filter(|c| *c != subject_category)
        .collect();
    let object_categories: Vec<&str> = object_pool.choose_multiple(rng, 2).copied().collect();
    let names = |category: &str| -> Vec<&String> {
        lex.nouns(category)
            .iter()
            .filter(|w| is_constant_name(w) && !RESERVED.contains(&w.as_str()))
            .collect()
    };
    let how_many = rng.gen_range(1..=3);
    let subjects: Vec<&String> = names(subject_category)
        .choose_multiple(rng, how_many)
        .copied()
        .collect();
    let mut objects: Vec<&String> = Vec::new();
    for c in &object_categories {
        objects.extend(names(c).choose_multiple(rng, 5).copied());
    }
    let constants: BTreeSet<&str> = subjects
        .iter()
        .chain(&objects)
        .map(|s| s.as_str())
        .collect();
    if subjects.is_empty() || objects.is_empty() {
        return Err(format!(
            "the lexicon ({}) has no nouns for the theme",
            lex.version()
        ));
    }
    let usable = |w: &str| !constants.contains(w) && !RESERVED.contains(&w);
    let adjectives: Vec<&String> = lex.adjectives().iter().filter(|a| usable(a)).collect();
    let intransitive: Vec<_> = lex
        .verbs()
        .iter()
        .filter(|v| v.intransitive && usable(&v.lemma))
        .collect();
    let transitive: Vec<_> = lex
        .verbs()
        .iter()
        .filter(|v| v.transitive && usable(&v.lemma))
        .collect();
    // Each predicate has one arity within an instance.
    let mut arity: BTreeMap<String, usize> = BTreeMap::new();
    let mut atoms: Vec<GroundAtom> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let the = |w: &str| format!("the {w}");
    for _ in 0..count.saturating_mul(50).max(50) {
        if atoms.len() == count {
            break;
        }
        let subject = subjects.choose(rng).ok_or("no subject")?;
        let atom = match rng.gen_range(0..20) {
            0..=5 => adjectives.choose(rng).map(|a| {
                (
                    a.to_string(),
                    1,
                    GroundAtom {
                        expression: format!("{a}({subject})"),
                        positive: format!("{} is {a}", the(subject)),
                        negative: format!("{} is not {a}", the(subject)),
                    },
                )
            }),
            6..=10 => intransitive.choose(rng).map(|v| {
                (
                    v.lemma.clone(),
                    1,
                    GroundAtom {
                        expression: format!("{}({subject})", v.lemma),
                        positive: format!("{} {}", the(subject), v.third_person()),
                        negative: format!("{} does not {}", the(subject), v.lemma),
                    },
                )
            }),
            _ => transitive
                .choose(rng)
                .zip(objects.choose(rng))
                .map(|(v, o)| {
                    (
                        v.lemma.clone(),
                        2,
                        GroundAtom {
                            expression: format!("{}({subject}, {o})", v.lemma),
                            positive: format!("{} {} {}", the(subject), v.third_person(), the(o)),
                            negative: format!("{} does not {} {}", the(subject), v.lemma, the(o)),
                        },
                    )
                }),
        };
        let Some((name, n, atom)) = atom else {
            continue;
        };
        if *arity.entry(name).or_insert(n) != n || !seen.insert(atom.expression.clone()) {
            continue;
        }
        atoms.push(atom);
    }
    if atoms.len() < count {
        return Err(format!(
            "the lexicon ({}) gave {} of {count} atoms",
            lex.version(),
            atoms.len()
        ));
    }
    let theme = format!(
        "{}; {} ({})",
        short(subject_category),
        object_categories
            .iter()
            .map(|c| short(c))
            .collect::<Vec<_>>()
            .join(", "),
        lex.version()
    );
    Ok((theme, atoms))
}

/// Template choices for one rendering: which phrasing each connective gets
/// at the top level of a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Phrasing {
    conditional: usize,
    disjunction: usize,
}

/// Number of top-level phrasings per connective.
const CONDITIONALS: usize = 6;
const DISJUNCTIONS: usize = 3;

impl Phrasing {
    /// The plain phrasing (used for derived conclusions, so the same formula
    /// always reads the same in steps).
    pub(crate) const PLAIN: Phrasing = Phrasing {
        conditional: 0,
        disjunction: 0,
    };

    /// A random choice of phrasings.
    pub(crate) fn random<R: Rng>(rng: &mut R) -> Phrasing {
        Phrasing {
            conditional: rng.gen_range(0..CONDITIONALS),
            disjunction: rng.gen_range(0..DISJUNCTIONS),
        }
    }
}

/// Where a formula sits in a sentence, which decides how a compound one is
/// worded so that the nesting stays clear without brackets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The whole sentence.
    Top,
    /// The condition of an implication.
    Antecedent,
    /// The result of an implication.
    Consequent,
    /// A disjunct.
    Disjunct,
    /// What is denied.
    Denied,
}

/// The disjuncts of a (right- or left-nested) disjunction, in order.
fn disjuncts<'a>(p: &'a Prop, out: &mut Vec<&'a Prop>) {
    match p {
        Prop::Or(a, b) => {
            disjuncts(a, out);
            disjuncts(b, out);
        }
        other => out.push(other),
    }
}

/// `a, b or c`.
fn list(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., tail] => format!("{} {last} {tail}", init.join(", ")),
    }
}

/// A lower-case clause saying `p`.
pub(crate) fn clause(p: &Prop, atoms: &[GroundAtom], how: Phrasing) -> String {
    say(p, atoms, how, Role::Top)
}

fn say(p: &Prop, atoms: &[GroundAtom], how: Phrasing, role: Role) -> String {
    let missing = || "something unnamed holds".to_string();
    let plain = Phrasing::PLAIN;
    match p {
        Prop::Atom(k) => atoms.get(*k).map_or_else(missing, |a| a.positive.clone()),
        Prop::Not(inner) => match &**inner {
            Prop::Atom(k) => atoms.get(*k).map_or_else(missing, |a| a.negative.clone()),
            // ¬(a ∨ b ∨ …) is ¬a and ¬b and …
            Prop::Or(..) => {
                let mut ds = Vec::new();
                disjuncts(inner, &mut ds);
                let parts: Vec<String> = ds
                    .iter()
                    .map(|d| say(&Prop::neg(d), atoms, plain, Role::Denied))
                    .collect();
                list(&parts, "and")
            }
            // ¬(a → b) is a ∧ ¬b.
            Prop::Implies(a, b) => format!(
                "{}, and yet {}",
                say(a, atoms, plain, Role::Denied),
                say(&Prop::neg(b), atoms, plain, Role::Denied)
            ),
            Prop::Not(_) => say(inner, atoms, how, role),
        },
        Prop::Or(..) => {
            let mut ds = Vec::new();
            disjuncts(p, &mut ds);
            let simple = ds.iter().all(|d| d.is_literal());
            let parts: Vec<String> = ds
                .iter()
                .map(|d| say(d, atoms, plain, Role::Disjunct))
                .collect();
            if !simple {
                return format!("either {}", parts.join(", or "));
            }
            match (role, how.disjunction) {
                (Role::Top, 1) => list(&parts, "or"),
                (Role::Top, 2) if parts.len() > 2 => {
                    format!("at least one of these is true: {}", list(&parts, "or"))
                }
                (Role::Top, 2) => {
                    format!("{}, or else {}", parts[0], parts[1..].join(", or else "))
                }
                _ => format!("either {}", list(&parts, "or")),
            }
        }
        Prop::Implies(a, b) => {
            let (ca, cb) = (
                say(a, atoms, plain, Role::Antecedent),
                say(b, atoms, plain, Role::Consequent),
            );
            let literals = a.is_literal() && b.is_literal();
            match role {
                // A conditional inside a condition: "b whenever a".
                Role::Antecedent if literals => format!("{cb} whenever {ca}"),
                Role::Antecedent => format!("it holds that, whenever {ca}, {cb}"),
                Role::Consequent => format!("whenever {ca}, {cb}"),
                Role::Disjunct | Role::Denied => format!("if {ca}, then {cb}"),
                Role::Top => match how.conditional {
                    1 => format!("whenever {ca}, {cb}"),
                    2 => format!("provided that {ca}, {cb}"),
                    3 if literals => format!("{cb} if {ca}"),
                    4 if literals => format!("{ca} only if {cb}"),
                    5 => format!("in the event that {ca}, {cb}"),
                    _ => format!("if {ca}, then {cb}"),
                },
            }
        }
    }
}

/// A sentence saying `p`: capitalised, with a full stop.
pub(crate) fn sentence(p: &Prop, atoms: &[GroundAtom], how: Phrasing) -> String {
    format!("{}.", capitalize(&clause(p, atoms, how)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atoms() -> Vec<GroundAtom> {
        [
            "the nurse is calm",
            "the nurse sings",
            "the nurse carries the lamp",
        ]
        .iter()
        .enumerate()
        .map(|(k, s)| GroundAtom {
            expression: format!("a{k}(nurse)"),
            positive: s.to_string(),
            negative: s
                .replace(" is ", " is not ")
                .replace("sings", "does not sing"),
        })
        .collect()
    }

    #[test]
    fn nested_formulas_read_without_brackets() {
        let a = atoms();
        let (g, p, q) = (Prop::atom(0), Prop::atom(1), Prop::atom(2));
        let plain = |f: &Prop| sentence(f, &a, Phrasing::PLAIN);
        assert_eq!(
            plain(&Prop::implies(Prop::neg(&p), Prop::or(g.clone(), q.clone()))),
            "If the nurse does not sing, then either the nurse is calm or the nurse carries the lamp."
        );
        assert_eq!(
            plain(&Prop::or(g.clone(), Prop::implies(p.clone(), q.clone()))),
            "Either the nurse is calm, or if the nurse sings, then the nurse carries the lamp."
        );
        assert_eq!(
            plain(&Prop::implies(
                Prop::implies(p.clone(), q.clone()),
                g.clone()
            )),
            "If the nurse carries the lamp whenever the nurse sings, then the nurse is calm."
        );
        assert_eq!(
            plain(&Prop::neg(&Prop::implies(p.clone(), g.clone()))),
            "The nurse sings, and yet the nurse is not calm."
        );
        assert_eq!(
            plain(&Prop::neg(&Prop::or(p.clone(), g.clone()))),
            "The nurse does not sing and the nurse is not calm."
        );
        assert_eq!(
            plain(&Prop::or(g.clone(), Prop::or(p.clone(), q.clone()))),
            "Either the nurse is calm, the nurse sings or the nurse carries the lamp."
        );
        let only_if = Phrasing {
            conditional: 4,
            disjunction: 0,
        };
        assert_eq!(
            sentence(&Prop::implies(p.clone(), g.clone()), &a, only_if),
            "The nurse sings only if the nurse is calm."
        );
    }
}

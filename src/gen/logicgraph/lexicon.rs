//! The domain lexicon (`corpora/logicgraph-lexicon/lexicon.txt`, compiled in)
//! and the template-based natural-language rendering of formulas over it.

use super::prop::{capitalize, Prop};
use rand::seq::SliceRandom;
use rand::Rng;
use std::sync::OnceLock;

const LEXICON_TEXT: &str = include_str!("../../../corpora/logicgraph-lexicon/lexicon.txt");

/// A named constant of a domain, with the noun phrase that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entity {
    /// Its sort (`crew`, `module`, …), which predicates select.
    pub kind: String,
    /// The Prover9 constant.
    pub constant: String,
    /// The noun phrase (`the airlock`).
    pub phrase: String,
}

/// A predicate with the verb phrases that assert and deny it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Predicate {
    /// Sorts of its arguments: one (unary) or two (binary).
    pub kinds: Vec<String>,
    /// The Prover9 predicate symbol.
    pub name: String,
    /// `is pressurized` / `repairs`.
    pub positive: String,
    /// `is not pressurized` / `does not repair`.
    pub negative: String,
}

/// One domain: entities and predicates over them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Domain {
    /// The domain's name.
    pub name: String,
    /// Its constants.
    pub entities: Vec<Entity>,
    /// Its predicates.
    pub predicates: Vec<Predicate>,
}

/// A ground atom of a domain: its Prover9 spelling and two clauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GroundAtom {
    /// `pressurized(airlock)`
    pub expression: String,
    /// `the airlock is pressurized` (lower-case clause)
    pub positive: String,
    /// `the airlock is not pressurized`
    pub negative: String,
}

impl Domain {
    /// Every ground atom of the domain, in lexicon order.
    pub(crate) fn ground_atoms(&self) -> Vec<GroundAtom> {
        let mut out = Vec::new();
        for p in &self.predicates {
            let of = |kind: &str| {
                self.entities
                    .iter()
                    .filter(|e| e.kind == kind)
                    .collect::<Vec<_>>()
            };
            match p.kinds.as_slice() {
                [k] => {
                    for e in of(k) {
                        out.push(GroundAtom {
                            expression: format!("{}({})", p.name, e.constant),
                            positive: format!("{} {}", e.phrase, p.positive),
                            negative: format!("{} {}", e.phrase, p.negative),
                        });
                    }
                }
                [k1, k2] => {
                    for s in of(k1) {
                        for o in of(k2) {
                            if s.constant == o.constant {
                                continue;
                            }
                            out.push(GroundAtom {
                                expression: format!("{}({}, {})", p.name, s.constant, o.constant),
                                positive: format!("{} {} {}", s.phrase, p.positive, o.phrase),
                                negative: format!("{} {} {}", s.phrase, p.negative, o.phrase),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// Whether Prover9 reads `name` as a constant: lower-case identifier whose
/// first letter is not u–z.
pub(crate) fn is_constant_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('a'..='t'))
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn is_predicate_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('a'..='z'))
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Parses a lexicon text; errors name the line.
pub(crate) fn parse_lexicon(text: &str) -> Result<Vec<Domain>, String> {
    let mut domains: Vec<Domain> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |m: &str| format!("lexicon line {}: {m}", n + 1);
        let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
        if head == "domain" {
            domains.push(Domain {
                name: rest.trim().to_string(),
                entities: Vec::new(),
                predicates: Vec::new(),
            });
            continue;
        }
        let domain = domains
            .last_mut()
            .ok_or_else(|| err("entry before any `domain` line"))?;
        let fields: Vec<&str> = rest.split('|').map(str::trim).collect();
        match (head, fields.as_slice()) {
            ("entity", [kind, constant, phrase]) => {
                if !is_constant_name(constant) {
                    return Err(err(&format!(
                        "`{constant}` is not a Prover9 constant name (lower case, not u-z first)"
                    )));
                }
                domain.entities.push(Entity {
                    kind: kind.to_string(),
                    constant: constant.to_string(),
                    phrase: phrase.to_string(),
                });
            }
            ("unary" | "binary", [kinds, name, positive, negative]) => {
                let kinds: Vec<String> = kinds.split_whitespace().map(str::to_string).collect();
                let arity = if head == "unary" { 1 } else { 2 };
                if kinds.len() != arity {
                    return Err(err(&format!("a {head} predicate needs {arity} sort(s)")));
                }
                if !is_predicate_name(name) {
                    return Err(err(&format!("`{name}` is not a predicate name")));
                }
                domain.predicates.push(Predicate {
                    kinds,
                    name: name.to_string(),
                    positive: positive.to_string(),
                    negative: negative.to_string(),
                });
            }
            _ => return Err(err("unknown or malformed entry")),
        }
    }
    if domains.is_empty() {
        return Err("the lexicon has no domain".into());
    }
    Ok(domains)
}

/// A domain with all its ground atoms.
pub(crate) type DomainAtoms = (Domain, Vec<GroundAtom>);

/// The compiled-in lexicon with each domain's ground atoms; `Err` only if the
/// shipped file is malformed (a unit test guards against that).
pub(crate) fn builtin() -> Result<&'static [DomainAtoms], String> {
    static CELL: OnceLock<Result<Vec<DomainAtoms>, String>> = OnceLock::new();
    CELL.get_or_init(|| {
        parse_lexicon(LEXICON_TEXT).map(|ds| {
            ds.into_iter()
                .map(|d| {
                    let atoms = d.ground_atoms();
                    (d, atoms)
                })
                .collect()
        })
    })
    .as_ref()
    .map(|v| v.as_slice())
    .map_err(Clone::clone)
}

/// Template choices for one rendering: which phrasing each connective gets
/// at the top level of a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Phrasing {
    conditional: usize,
    disjunction: usize,
    negation: usize,
}

/// Number of top-level phrasings per connective.
const CONDITIONALS: usize = 6;
const DISJUNCTIONS: usize = 4;
const NEGATIONS: usize = 3;

impl Phrasing {
    /// The plain phrasing (used for derived conclusions, so the same formula
    /// always reads the same in steps).
    pub(crate) const PLAIN: Phrasing = Phrasing {
        conditional: 0,
        disjunction: 0,
        negation: 0,
    };

    /// A random choice of phrasings.
    pub(crate) fn random<R: Rng>(rng: &mut R) -> Phrasing {
        Phrasing {
            conditional: rng.gen_range(0..CONDITIONALS),
            disjunction: rng.gen_range(0..DISJUNCTIONS),
            negation: rng.gen_range(0..NEGATIONS),
        }
    }
}

/// How nested operands are phrased: plain, except that `¬(a → b)` reads
/// as "a, and yet not b", which keeps deep nesting readable.
const NESTED: Phrasing = Phrasing {
    conditional: 0,
    disjunction: 0,
    negation: 1,
};

/// A clause for a nested operand: literals as they are, compound formulas
/// within brackets, so nesting stays unambiguous.
fn operand(p: &Prop, atoms: &[GroundAtom]) -> String {
    if p.is_literal() {
        clause(p, atoms, NESTED)
    } else {
        format!("[{}]", clause(p, atoms, NESTED))
    }
}

/// A lower-case clause saying `p`.
pub(crate) fn clause(p: &Prop, atoms: &[GroundAtom], how: Phrasing) -> String {
    let missing = || "(unnamed)".to_string();
    match p {
        Prop::Atom(k) => atoms.get(*k).map_or_else(missing, |a| a.positive.clone()),
        Prop::Not(inner) => match &**inner {
            Prop::Atom(k) => atoms.get(*k).map_or_else(missing, |a| a.negative.clone()),
            // ¬(a → b) is a ∧ ¬b: said that way it reads far better.
            Prop::Implies(a, b) if how.negation > 0 => {
                let (a, nb) = (operand(a, atoms), operand(&Prop::neg(b), atoms));
                if how.negation == 1 {
                    format!("{a}, and yet {nb}")
                } else {
                    format!("{a} while {nb}")
                }
            }
            other => {
                let c = operand(other, atoms);
                match how.negation {
                    0 => format!("it is not the case that {c}"),
                    1 => format!("it is false that {c}"),
                    _ => format!("it does not hold that {c}"),
                }
            }
        },
        Prop::Or(a, b) => {
            let (a, b) = (operand(a, atoms), operand(b, atoms));
            match how.disjunction {
                0 => format!("either {a} or {b}"),
                1 => format!("{a}, or {b}, or both"),
                2 => format!("at least one of these holds: {a}; {b}"),
                _ => format!("{a} or else {b}"),
            }
        }
        Prop::Implies(a, b) => {
            let (a, b) = (operand(a, atoms), operand(b, atoms));
            match how.conditional {
                0 => format!("if {a}, then {b}"),
                1 => format!("whenever {a}, {b}"),
                2 => format!("provided that {a}, {b}"),
                3 => format!("{b} if {a}"),
                4 => format!("{a} only if {b}"),
                _ => format!("should it be that {a}, then {b}"),
            }
        }
    }
}

/// A sentence saying `p`: capitalised, with a full stop.
pub(crate) fn sentence(p: &Prop, atoms: &[GroundAtom], how: Phrasing) -> String {
    format!("{}.", capitalize(&clause(p, atoms, how)))
}

/// Picks a domain and `count` distinct ground atoms of it (atom 0 first).
pub(crate) fn pick_atoms<R: Rng>(
    rng: &mut R,
    count: usize,
) -> Result<(String, Vec<GroundAtom>), String> {
    let domains = builtin()?;
    let fitting: Vec<&DomainAtoms> = domains.iter().filter(|(_, a)| a.len() >= count).collect();
    let (domain, atoms) = fitting
        .choose(rng)
        .ok_or_else(|| format!("no lexicon domain has {count} ground atoms"))?;
    let picked = atoms.choose_multiple(rng, count).cloned().collect();
    Ok((domain.name.clone(), picked))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_lexicon_is_well_formed_with_room_for_large_instances() {
        let domains = builtin().expect("the shipped lexicon parses");
        assert!(domains.len() >= 4);
        for (d, atoms) in domains {
            assert!(atoms.len() >= 100, "domain {} has {}", d.name, atoms.len());
            let mut exprs: Vec<&str> = atoms.iter().map(|a| a.expression.as_str()).collect();
            exprs.sort();
            exprs.dedup();
            assert_eq!(exprs.len(), atoms.len(), "duplicate atoms in {}", d.name);
            for e in &d.entities {
                assert!(is_constant_name(&e.constant), "{}", e.constant);
            }
        }
    }

    #[test]
    fn rejects_variable_like_constants() {
        assert!(!is_constant_name("valve"));
        assert!(!is_constant_name("Zone"));
        assert!(is_constant_name("airlock_2"));
        let bad = "domain d\nentity k | yard | the yard\n";
        assert!(parse_lexicon(bad).unwrap_err().contains("line 2"));
    }

    #[test]
    fn renders_nested_formulas_with_brackets() {
        let atoms = vec![
            GroundAtom {
                expression: "g(a)".into(),
                positive: "the goal holds".into(),
                negative: "the goal fails".into(),
            },
            GroundAtom {
                expression: "p(a)".into(),
                positive: "the pump runs".into(),
                negative: "the pump is off".into(),
            },
        ];
        let f = Prop::implies(
            Prop::neg(&Prop::atom(1)),
            Prop::or(Prop::atom(0), Prop::atom(1)),
        );
        assert_eq!(
            sentence(&f, &atoms, Phrasing::PLAIN),
            "If the pump is off, then [either the goal holds or the pump runs]."
        );
        let n = Prop::neg(&f);
        assert_eq!(
            sentence(&n, &atoms, Phrasing::PLAIN),
            "It is not the case that [if the pump is off, then [either the goal holds or the pump runs]]."
        );
        let conjunctive = Phrasing {
            negation: 1,
            ..Phrasing::PLAIN
        };
        let g = Prop::neg(&Prop::implies(Prop::atom(1), Prop::neg(&Prop::atom(0))));
        assert_eq!(
            sentence(&g, &atoms, conjunctive),
            "The pump runs, and yet the goal holds."
        );
    }
}

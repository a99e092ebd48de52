//! The propositional formulas instances are built from, over numbered atoms
//! (`G` and `A1..An`), and their three printed spellings: the A-notation with
//! Unicode connectives (`formal`), the same in Prover9 syntax (`prover9`), and
//! Prover9 syntax with every atom instantiated (`prover9_expression`).

use crate::syntax::prover9::Formula;

/// A propositional formula over numbered atoms; atom `0` is the goal `G`,
/// atom `k ≥ 1` is `Ak`. Only the connectives the seven forms need exist.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Prop {
    /// `G` (0) or `Ak` (k).
    Atom(usize),
    /// `¬F`
    Not(Box<Prop>),
    /// `(F ∨ H)`
    Or(Box<Prop>, Box<Prop>),
    /// `(F → H)`
    Implies(Box<Prop>, Box<Prop>),
}

/// The connective spellings of one output style.
struct Style {
    not: &'static str,
    or: &'static str,
    implies: &'static str,
}

const UNICODE: Style = Style {
    not: "¬",
    or: " ∨ ",
    implies: " → ",
};

const ASCII: Style = Style {
    not: "-",
    or: " | ",
    implies: " -> ",
};

impl Prop {
    /// The atom `k` (0 is `G`).
    pub(crate) fn atom(k: usize) -> Prop {
        Prop::Atom(k)
    }

    /// The negation of `p`, with `¬¬X` simplified to `X` (the forms' rule).
    pub(crate) fn neg(p: &Prop) -> Prop {
        match p {
            Prop::Not(inner) => (**inner).clone(),
            other => Prop::Not(Box::new(other.clone())),
        }
    }

    /// `self` with each atom `k` renamed `to[k]`.
    pub(crate) fn renamed(&self, to: &[usize]) -> Prop {
        match self {
            Prop::Atom(k) => Prop::Atom(to[*k]),
            Prop::Not(a) => Prop::Not(Box::new(a.renamed(to))),
            Prop::Or(a, b) => Prop::or(a.renamed(to), b.renamed(to)),
            Prop::Implies(a, b) => Prop::implies(a.renamed(to), b.renamed(to)),
        }
    }

    /// `(a ∨ b)`
    pub(crate) fn or(a: Prop, b: Prop) -> Prop {
        Prop::Or(Box::new(a), Box::new(b))
    }

    /// `(a → b)`
    pub(crate) fn implies(a: Prop, b: Prop) -> Prop {
        Prop::Implies(Box::new(a), Box::new(b))
    }

    /// Whether it is an atom or a negated atom (a "fact" in LogicGraph).
    pub(crate) fn is_literal(&self) -> bool {
        match self {
            Prop::Atom(_) => true,
            Prop::Not(inner) => matches!(**inner, Prop::Atom(_)),
            _ => false,
        }
    }

    /// Number of atom occurrences, the measure that keeps formulas readable.
    pub(crate) fn size(&self) -> usize {
        match self {
            Prop::Atom(_) => 1,
            Prop::Not(a) => a.size(),
            Prop::Or(a, b) | Prop::Implies(a, b) => a.size() + b.size(),
        }
    }

    /// The A-notation name of atom `k`.
    pub(crate) fn atom_name(k: usize) -> String {
        if k == 0 {
            "G".to_string()
        } else {
            format!("A{k}")
        }
    }

    fn write(&self, out: &mut String, style: &Style, name: &dyn Fn(usize) -> String) {
        match self {
            Prop::Atom(k) => out.push_str(&name(*k)),
            Prop::Not(a) => {
                out.push_str(style.not);
                a.write(out, style, name);
            }
            Prop::Or(a, b) | Prop::Implies(a, b) => {
                let op = if matches!(self, Prop::Or(..)) {
                    style.or
                } else {
                    style.implies
                };
                out.push('(');
                a.write(out, style, name);
                out.push_str(op);
                b.write(out, style, name);
                out.push(')');
            }
        }
    }

    /// `formal`: A-notation, Unicode connectives, every binary connective
    /// parenthesised (`(¬A4 → A5)`), as the published instances write it.
    pub(crate) fn formal(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, &UNICODE, &Prop::atom_name);
        s
    }

    /// `prover9`: the A-notation in Prover9 syntax (`(-A4 -> A5)`).
    pub(crate) fn prover9(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, &ASCII, &Prop::atom_name);
        s
    }

    /// Prover9 syntax with atom `k` spelled `atoms[k]` (`prover9_expression`).
    pub(crate) fn instantiated(&self, atoms: &[String]) -> String {
        let mut s = String::new();
        self.write(&mut s, &ASCII, &|k| {
            atoms.get(k).cloned().unwrap_or_default()
        });
        s
    }

    /// Unicode connectives with atom `k` spelled `atoms[k]` (the published
    /// `translations.prover9_expressions` list uses this spelling).
    pub(crate) fn instantiated_unicode(&self, atoms: &[String]) -> String {
        let mut s = String::new();
        self.write(&mut s, &UNICODE, &|k| {
            atoms.get(k).cloned().unwrap_or_default()
        });
        s
    }

    /// The engine's formula for it, atoms named `G`/`Ak`.
    pub(crate) fn to_formula(&self) -> Formula {
        match self {
            Prop::Atom(k) => Formula::atom(Prop::atom_name(*k)),
            Prop::Not(a) => Formula::not(a.to_formula()),
            Prop::Or(a, b) => Formula::or(a.to_formula(), b.to_formula()),
            Prop::Implies(a, b) => Formula::implies(a.to_formula(), b.to_formula()),
        }
    }
}

impl std::fmt::Display for Prop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.formal())
    }
}

/// Writes `text` with its first letter upper-cased (sentence start), also
/// when it opens with a bracket.
pub(crate) fn capitalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut done = false;
    for c in text.chars() {
        if !done && c.is_alphabetic() {
            out.extend(c.to_uppercase());
            done = true;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_the_published_spellings() {
        let f = Prop::implies(
            Prop::Not(Box::new(Prop::implies(
                Prop::atom(8),
                Prop::or(Prop::atom(1), Prop::atom(0)),
            ))),
            Prop::neg(&Prop::atom(9)),
        );
        assert_eq!(f.formal(), "(¬(A8 → (A1 ∨ G)) → ¬A9)");
        assert_eq!(f.prover9(), "(-(A8 -> (A1 | G)) -> -A9)");
        assert_eq!(f.size(), 4);
        assert_eq!(Prop::neg(&Prop::neg(&Prop::atom(3))), Prop::atom(3));
        let names: Vec<String> = (0..10).map(|k| format!("p{k}(c)")).collect();
        assert_eq!(
            f.instantiated(&names),
            "(-(p8(c) -> (p1(c) | p0(c))) -> -p9(c))"
        );
    }
}

//! Accessors and constructors on the Prolog AST, for the judge and tests.

use super::ast::{Sentence, Term};
use crate::syntax::Pos;

impl Term {
    /// `name/arity` of an atom (arity 0) or compound; `None` for variables,
    /// numbers and strings.
    pub fn name_arity(&self) -> Option<(&str, usize)> {
        match self {
            Term::Atom(a) => Some((a, 0)),
            Term::Compound(name, args) => Some((name, args.len())),
            _ => None,
        }
    }

    /// This term with every atom `a` for which `rename(a)` is `Some(b)`
    /// replaced by `b` (atoms only: functor names and numbers stay).
    pub fn rename_atoms(&self, rename: &dyn Fn(&str) -> Option<String>) -> Term {
        match self {
            Term::Atom(a) => match rename(a) {
                Some(renamed) => Term::Atom(renamed),
                None => self.clone(),
            },
            Term::Compound(name, args) => Term::Compound(
                name.clone(),
                args.iter().map(|a| a.rename_atoms(rename)).collect(),
            ),
            _ => self.clone(),
        }
    }

    /// The arguments of a compound; empty for anything else.
    pub fn args(&self) -> &[Term] {
        match self {
            Term::Compound(_, args) => args,
            _ => &[],
        }
    }

    /// The list `[items…|tail]`; pass `Term::Atom("[]")` as `tail` for a
    /// proper list.
    pub fn list(items: Vec<Term>, tail: Term) -> Term {
        items.into_iter().rev().fold(tail, |rest, item| {
            Term::Compound(".".into(), vec![item, rest])
        })
    }

    /// The elements and final tail of a list: `[a,b|T]` gives `([a, b], T)`,
    /// `[]` gives `([], [])`. `None` if the term is neither `[]` nor a list cell.
    pub fn as_list(&self) -> Option<(Vec<&Term>, &Term)> {
        let mut items = Vec::new();
        let mut t = self;
        loop {
            match t {
                Term::Compound(name, args) if name == "." && args.len() == 2 => {
                    items.push(&args[0]);
                    t = &args[1];
                }
                _ => break,
            }
        }
        if items.is_empty() && !matches!(self, Term::Atom(a) if a == "[]") {
            return None;
        }
        Some((items, t))
    }

    /// The elements of a proper list (one ending in `[]`).
    pub fn as_proper_list(&self) -> Option<Vec<&Term>> {
        match self.as_list()? {
            (items, Term::Atom(tail)) if tail == "[]" => Some(items),
            _ => None,
        }
    }

    /// All subterms in pre-order (the term itself first, then each argument
    /// left to right), without recursion, so deep terms are safe.
    pub fn subterms(&self) -> Subterms<'_> {
        Subterms { stack: vec![self] }
    }

    /// The distinct named variables in order of first occurrence. `_` is
    /// left out: each occurrence is a different variable without a name.
    pub fn variables(&self) -> Vec<&str> {
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for t in self.subterms() {
            if let Term::Var(v) = t {
                if v != "_" && seen.insert(v.as_str()) {
                    out.push(v.as_str());
                }
            }
        }
        out
    }
}

/// Pre-order iterator over a term's subterms; see [`Term::subterms`].
pub struct Subterms<'a> {
    stack: Vec<&'a Term>,
}

impl<'a> Iterator for Subterms<'a> {
    type Item = &'a Term;

    fn next(&mut self) -> Option<&'a Term> {
        let t = self.stack.pop()?;
        if let Term::Compound(_, args) = t {
            self.stack.extend(args.iter().rev());
        }
        Some(t)
    }
}

impl Sentence {
    /// Where the sentence starts.
    pub fn pos(&self) -> Pos {
        match self {
            Sentence::Directive { pos, .. } | Sentence::Clause { pos, .. } => *pos,
        }
    }

    /// The head of a clause: `H` for `H :- B`, the whole term for a fact;
    /// `None` for a directive.
    pub fn head(&self) -> Option<&Term> {
        match self {
            Sentence::Directive { .. } => None,
            Sentence::Clause {
                term: Term::Compound(name, args),
                ..
            } if name == ":-" && args.len() == 2 => Some(&args[0]),
            Sentence::Clause { term, .. } => Some(term),
        }
    }

    /// The body `B` of a rule `H :- B`; `None` for facts and directives.
    pub fn body(&self) -> Option<&Term> {
        match self {
            Sentence::Clause {
                term: Term::Compound(name, args),
                ..
            } if name == ":-" && args.len() == 2 => Some(&args[1]),
            _ => None,
        }
    }
}

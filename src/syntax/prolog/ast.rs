//! The Prolog abstract syntax: terms and clauses as ISO Prolog reads them.

use crate::syntax::Pos;

/// How the AST holds the quoted atom `'[]'`, which SWI-Prolog 7+ reads as
/// an atom distinct from the empty list `[]` (`'[]' == []` fails), while
/// `Term::Atom("[]")` is the empty list. The reader refuses a quoted atom
/// with this text, so nothing else reads as it; the printer writes `'[]'`.
pub const QUOTED_NIL: &str = "\u{0}'[]'";

/// A Prolog term.
///
/// Lists are `'.'(H, T)` ending in `[]`, as ISO defines them; `{X}` is
/// `'{}'(X)`; operators are ordinary compounds (`a + b` is `'+'(a, b)`).
#[derive(Debug, Clone, PartialEq)]
pub enum Term {
    /// A variable. `_` is anonymous: each occurrence is a distinct variable.
    Var(String),
    /// An atom, e.g. `foo`, `'hello world'`, `[]` (the empty list), `{}`;
    /// the quoted atom `'[]'` is [`QUOTED_NIL`].
    Atom(String),
    /// An integer that fits in 64 bits.
    Int(i64),
    /// An integer too large for 64 bits, kept as its decimal digits.
    BigInt(String),
    /// A float.
    Float(f64),
    /// A double-quoted string, kept as text.
    Str(String),
    /// `name(arg1, …, argN)` with N ≥ 1.
    Compound(String, Vec<Term>),
}

/// Hashes floats by their bits, so `0.0` and `-0.0` (equal under `==`) hash
/// apart: fine for caches keyed by hash that confirm hits with `==`, which
/// is what it is for.
impl std::hash::Hash for Term {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Term::Var(s) | Term::Atom(s) | Term::BigInt(s) | Term::Str(s) => s.hash(state),
            Term::Int(i) => i.hash(state),
            Term::Float(f) => f.to_bits().hash(state),
            Term::Compound(name, args) => {
                name.hash(state);
                args.hash(state);
            }
        }
    }
}

/// What a top-level sentence is.
///
/// Equality ignores `pos`, as syntax trees usually do with spans: a sentence
/// is the same wherever it was read, which is what round trips compare.
#[derive(Debug, Clone)]
pub enum Sentence {
    /// `:- Goal.`
    Directive {
        /// The directive's goal.
        goal: Term,
        /// Where the sentence starts.
        pos: Pos,
    },
    /// `Head.` or `Head :- Body.`, kept as the whole term read.
    Clause {
        /// The term read, e.g. `':-'(Head, Body)` or a fact.
        term: Term,
        /// Where the sentence starts.
        pos: Pos,
    },
}

impl PartialEq for Sentence {
    fn eq(&self, other: &Sentence) -> bool {
        match (self, other) {
            (Sentence::Directive { goal: a, .. }, Sentence::Directive { goal: b, .. }) => a == b,
            (Sentence::Clause { term: a, .. }, Sentence::Clause { term: b, .. }) => a == b,
            _ => false,
        }
    }
}

/// A whole Prolog text: sentences in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    /// The sentences in source order.
    pub sentences: Vec<Sentence>,
}

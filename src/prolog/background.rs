//! A task background, shared by the engines: trusted clauses, a key that
//! identifies them, and optionally a renaming applied where an engine
//! consumes them, so that a renamed view shares the clauses instead of
//! rebuilding them.
//!
//! Backgrounds are mostly flat ground facts (`has_car(train0, car0_1).`),
//! hundreds per task, read once per task and loaded once per renaming: they
//! are kept as interned symbols ([`Clauses`]), so reading, hashing,
//! renaming and loading them never allocate or compare a string per
//! occurrence.

use super::native::FastMap;
use crate::syntax::prolog::{Atomic, Sentence, Term, QUOTED_NIL};
use crate::syntax::Pos;
use once_cell::race::OnceBox;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A task background: trusted clauses, and a key that identifies them so an
/// engine reloads only when the task changes. The native engine reads the
/// clauses; the text a scryer worker loads is printed on first use only.
///
/// A background may carry a [`Renaming`] ([`Background::renamed`]): the
/// judge scores on renamed constants and reordered clauses, and the engines
/// apply it as they load ([`Background::loaded`], [`Background::rename`]).
#[derive(Debug, Clone)]
pub struct Background {
    key: u64,
    clauses: Arc<Clauses>,
    renaming: Option<Arc<Renaming>>,
    text: Arc<OnceBox<String>>,
}

/// New names for atoms, and a new order of the clauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renaming {
    /// Atom → its new name; atoms not here keep theirs (functor names and
    /// numbers are never renamed). Only looked up, never iterated.
    pub(crate) names: Arc<FastMap<String, String>>,
    /// The clauses in load order, as indices into the original clauses
    /// (a permutation of them).
    pub order: Vec<u32>,
}

/// Background clauses in order: flat ground facts as symbols, any other
/// clause as its term. Built with [`ClausesBuilder`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Clauses {
    /// Every name the facts use (predicate names and atoms), each once.
    symbols: Vec<Box<str>>,
    clauses: Vec<Clause>,
    /// The facts' arguments; each fact owns a range.
    args: Vec<Arg>,
}

/// One background clause.
#[derive(Debug, Clone, PartialEq)]
pub enum Clause {
    /// `name(a1, …, an).` with atom or integer arguments (n ≥ 1), the
    /// name a symbol and the arguments `args[start..start + len]`.
    Fact {
        /// The predicate name's symbol.
        name: u32,
        /// Where the arguments start in the argument pool.
        start: u32,
        /// How many arguments.
        len: u32,
    },
    /// Any other clause (boxed: facts are most clauses, and stay small).
    Term(Box<Term>),
}

/// An argument of a flat fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// An atom's symbol.
    Atom(u32),
    /// An integer.
    Int(i64),
}

impl Clauses {
    /// The clauses in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Clause> {
        self.clauses.iter()
    }

    /// How many clauses.
    pub fn len(&self) -> usize {
        self.clauses.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// How many symbols: symbols are `0..symbol_count()`.
    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    /// The name of a symbol.
    pub fn symbol(&self, id: u32) -> &str {
        &self.symbols[id as usize]
    }

    /// A fact's arguments (none for a [`Clause::Term`]).
    pub fn args(&self, clause: &Clause) -> &[Arg] {
        match *clause {
            Clause::Fact { start, len, .. } => &self.args[start as usize..(start + len) as usize],
            Clause::Term(_) => &[],
        }
    }

    /// The name and arity of a clause's head (`None` if not callable).
    pub fn predicate<'c>(&'c self, clause: &'c Clause) -> Option<(&'c str, usize)> {
        match clause {
            Clause::Fact { name, len, .. } => Some((self.symbol(*name), *len as usize)),
            Clause::Term(term) => clause_head(term).name_arity(),
        }
    }

    /// The clause as a term.
    pub fn term(&self, clause: &Clause) -> Term {
        match clause {
            Clause::Fact { name, .. } => Term::Compound(
                self.symbol(*name).to_string(),
                self.args(clause)
                    .iter()
                    .map(|arg| match *arg {
                        Arg::Atom(a) => Term::Atom(self.symbol(a).to_string()),
                        Arg::Int(i) => Term::Int(i),
                    })
                    .collect(),
            ),
            Clause::Term(term) => (**term).clone(),
        }
    }
}

/// The head of a clause term.
fn clause_head(clause: &Term) -> &Term {
    match clause {
        Term::Compound(neck, args) if neck == ":-" && args.len() == 2 => &args[0],
        other => other,
    }
}

/// Builds [`Clauses`]: interns each fact's names as it comes, and takes
/// the clauses in the order they are to be kept.
#[derive(Debug, Default)]
pub struct ClausesBuilder {
    clauses: Clauses,
    ids: FastMap<Box<str>, u32>,
}

impl ClausesBuilder {
    /// A builder with room for about `facts` flat facts.
    pub fn with_capacity(facts: usize) -> ClausesBuilder {
        let mut builder = ClausesBuilder::default();
        builder.clauses.args.reserve(2 * facts);
        builder.clauses.clauses.reserve(facts);
        builder
    }

    /// The symbol of `name`.
    pub fn symbol(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.clauses.symbols.len() as u32;
        self.clauses.symbols.push(name.into());
        self.ids.insert(name.into(), id);
        id
    }

    /// The name of a symbol already interned.
    pub fn name(&self, id: u32) -> &str {
        self.clauses.symbol(id)
    }

    /// The arguments of a flat fact this builder made.
    pub fn args(&self, clause: &Clause) -> &[Arg] {
        self.clauses.args(clause)
    }

    /// The flat fact `name(args…)` (at least one argument).
    pub fn fact(&mut self, name: &str, args: &[Atomic<'_>]) -> Clause {
        let name = self.symbol(name);
        let start = self.clauses.args.len() as u32;
        for arg in args {
            let arg = match *arg {
                Atomic::Atom(a) => Arg::Atom(self.symbol(a)),
                Atomic::Int(i) => Arg::Int(i),
            };
            self.clauses.args.push(arg);
        }
        Clause::Fact {
            name,
            start,
            len: args.len() as u32,
        }
    }

    /// A clause term: a flat fact is kept as one.
    pub fn term(&mut self, term: Term) -> Clause {
        if let Term::Compound(name, args) = &term {
            let atomic: Option<Vec<Atomic<'_>>> = args
                .iter()
                .map(|arg| match arg {
                    // `[]` and `'[]'` are not atoms named by their text.
                    Term::Atom(a) if a != "[]" && a != QUOTED_NIL => Some(Atomic::Atom(a)),
                    Term::Int(i) => Some(Atomic::Int(*i)),
                    _ => None,
                })
                .collect();
            if let Some(atomic) = atomic.filter(|_| name != ":-") {
                return self.fact(name, &atomic);
            }
        }
        Clause::Term(Box::new(term))
    }

    /// The clauses, in the order given.
    pub fn finish(self, clauses: Vec<Clause>) -> Clauses {
        Clauses {
            clauses,
            ..self.clauses
        }
    }
}

impl Background {
    /// `clauses`, identified by `key`: engines cache by key, so equal keys
    /// must mean equal clauses (e.g. a hash of the text they came from).
    pub fn new(key: u64, clauses: Vec<Term>) -> Background {
        let mut builder = ClausesBuilder::default();
        let clauses = clauses.into_iter().map(|c| builder.term(c)).collect();
        Background::from_clauses(key, builder.finish(clauses))
    }

    /// [`Background::new`] for clauses already built.
    pub fn from_clauses(key: u64, clauses: Clauses) -> Background {
        Background {
            key,
            clauses: Arc::new(clauses),
            renaming: None,
            text: Arc::new(OnceBox::new()),
        }
    }

    /// The same clauses under `renaming` (whose `order` must permute them),
    /// identified by a new `key`.
    pub fn renamed(&self, key: u64, renaming: Renaming) -> Background {
        debug_assert_eq!(renaming.order.len(), self.clauses.len());
        Background {
            key,
            clauses: self.clauses.clone(),
            renaming: Some(Arc::new(renaming)),
            text: Arc::new(OnceBox::new()),
        }
    }

    /// What identifies the clauses.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The clauses in their original order, before renaming.
    pub fn clauses(&self) -> &Clauses {
        &self.clauses
    }

    /// The clauses as terms, in their original order, before renaming.
    pub fn terms(&self) -> Vec<Term> {
        self.clauses.iter().map(|c| self.clauses.term(c)).collect()
    }

    /// Whether `other` holds the same clauses under the same renaming
    /// (pointer-equal in the usual case).
    pub fn same_as(&self, other: &Background) -> bool {
        let (a, b) = (&*self.clauses, &*other.clauses);
        let same_renaming = match (&self.renaming, &other.renaming) {
            (None, None) => true,
            (Some(x), Some(y)) => Arc::ptr_eq(x, y) || x == y,
            _ => false,
        };
        self.key == other.key && same_renaming && (std::ptr::eq(a, b) || a == b)
    }

    /// The clauses in load order, atoms not yet renamed ([`Background::rename`]
    /// gives each atom's loaded name).
    pub fn loaded(&self) -> impl Iterator<Item = &Clause> {
        let order = self.renaming.as_ref().map(|r| &r.order);
        (0..self.clauses.len()).map(move |i| match order {
            Some(order) => &self.clauses.clauses[order[i] as usize],
            None => &self.clauses.clauses[i],
        })
    }

    /// The name atom `atom` is loaded under, when the renaming changes it.
    pub fn rename(&self, atom: &str) -> Option<&str> {
        self.renaming
            .as_ref()
            .and_then(|r| r.names.get(atom))
            .map(String::as_str)
    }

    /// Each renamed atom and its new name, sorted (empty when nothing is
    /// renamed): for inspecting a renaming.
    pub fn renamed_atoms(&self) -> BTreeMap<String, String> {
        let names = self.renaming.iter().flat_map(|r| r.names.iter());
        names.map(|(a, b)| (a.clone(), b.clone())).collect()
    }

    /// `clause` as loaded: its atoms renamed.
    pub fn renamed_clause(&self, clause: &Clause) -> Term {
        let term = self.clauses.term(clause);
        match self.renaming {
            Some(_) => term.rename_atoms(&|a| self.rename(a).map(str::to_string)),
            None => term,
        }
    }

    /// The clauses printed one per line in load order, renamed, as scryer
    /// loads them.
    pub fn text(&self) -> &str {
        self.text.get_or_init(|| {
            let mut text = String::new();
            for term in self.loaded() {
                let clause = Sentence::Clause {
                    term: self.renamed_clause(term),
                    pos: Pos::default(),
                };
                text.push_str(&clause.to_string());
                text.push('\n');
            }
            Box::new(text)
        })
    }
}

//! A task background, shared by the engines: trusted clauses, a key that
//! identifies them, and optionally a renaming applied where an engine
//! consumes them, so that a renamed view shares the clauses instead of
//! rebuilding them.

use crate::syntax::prolog::{Sentence, Term};
use crate::syntax::Pos;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

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
    clauses: Arc<[Term]>,
    renaming: Option<Arc<Renaming>>,
    text: Arc<OnceLock<String>>,
}

/// New names for atoms, and a new order of the clauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renaming {
    /// Atom → its new name; atoms not here keep theirs (functor names and
    /// numbers are never renamed).
    pub names: Arc<BTreeMap<String, String>>,
    /// The clauses in load order, as indices into the original clauses
    /// (a permutation of them).
    pub order: Vec<u32>,
}

impl Background {
    /// `clauses`, identified by `key`: engines cache by key, so equal keys
    /// must mean equal clauses (e.g. a hash of the text they came from).
    pub fn new(key: u64, clauses: Vec<Term>) -> Background {
        Background {
            key,
            clauses: clauses.into(),
            renaming: None,
            text: Arc::new(OnceLock::new()),
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
            text: Arc::new(OnceLock::new()),
        }
    }

    /// What identifies the clauses.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The clauses in their original order, before renaming.
    pub fn clauses(&self) -> &[Term] {
        &self.clauses
    }

    /// Whether `other` holds the same clauses under the same renaming
    /// (pointer-equal in the usual case).
    pub fn same_as(&self, other: &Background) -> bool {
        let (a, b) = (self.clauses(), other.clauses());
        let same_renaming = match (&self.renaming, &other.renaming) {
            (None, None) => true,
            (Some(x), Some(y)) => Arc::ptr_eq(x, y) || x == y,
            _ => false,
        };
        self.key == other.key && same_renaming && (std::ptr::eq(a, b) || a == b)
    }

    /// The clauses in load order, atoms not yet renamed ([`Background::rename`]
    /// gives each atom's loaded name).
    pub fn loaded(&self) -> impl Iterator<Item = &Term> {
        let order = self.renaming.as_ref().map(|r| &r.order);
        (0..self.clauses.len()).map(move |i| match order {
            Some(order) => &self.clauses[order[i] as usize],
            None => &self.clauses[i],
        })
    }

    /// The name atom `atom` is loaded under, when the renaming changes it.
    pub fn rename(&self, atom: &str) -> Option<&str> {
        self.renaming
            .as_ref()
            .and_then(|r| r.names.get(atom))
            .map(String::as_str)
    }

    /// `clause` as loaded: its atoms renamed.
    pub fn renamed_clause(&self, clause: &Term) -> Term {
        match self.renaming {
            Some(_) => clause.rename_atoms(&|a| self.rename(a).map(str::to_string)),
            None => clause.clone(),
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
            text
        })
    }
}

//! Opaque renaming of task constants, so that no answer can read a label
//! from a name or from the order of the facts.
//!
//! The task constants are the ones the reference judge renames: trains
//! `train<N>` and cars `car<N>_<M>` (car `M` of train `N`). Each renaming
//! gives every one of them a fresh name of random lower-case letters, drawn
//! from a ChaCha stream keyed by the judge's seed, the task's content and
//! the renaming's index: reproducible, independent of threads, different
//! for every task. A name keeps no digit of the original and has no fixed
//! prefix, so neither parity of a number nor a stripped prefix survives.
//!
//! - Trains get independent names: their standard order is a uniformly
//!   random permutation, unrelated to the original numbering, which means
//!   nothing in a task.
//! - Cars of one train get names in the same standard order as the
//!   reference's `mycar<N>_<M>` names: car order is position, which the task
//!   defines, so a rule that sorts a train's car constants keeps the
//!   reference's score. Cars of different trains are not ordered alike.
//!
//! The renamed background also puts whole train blocks in a random order:
//! inside each predicate's clauses, the facts of one train (the facts whose
//! first task constant belongs to it) keep their relative order and their
//! slots, but the trains' blocks are permuted. Published tasks list trains
//! in label-correlated orders (SLR-Bench alternates them), so without this a
//! rule that numbers trains by their first appearance scores 1.0 on them.
//! A legitimate rule asks about one train at a time, and sees that train's
//! facts in the original order; only a rule that compares trains by the
//! position of their facts notices the change, and that is the shortcut.

use super::task::TaskProgram;
use crate::prolog::native::{FastHasher, FastMap};
use crate::prolog::{Arg, Background, Clause, Clauses, Renaming};
use crate::syntax::prolog::Term;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// A set asked only for membership, keyed by task text (trusted input).
type FastSet<T> = HashSet<T, BuildHasherDefault<FastHasher>>;

/// Letters in every drawn name: 26^6 ≈ 3·10⁸ names, so a task's few hundred
/// constants rarely need a second draw.
const NAME_LETTERS: usize = 6;

/// Atoms a drawn name must never be: Prolog operators and atoms with a
/// meaning of their own, which would print or read differently.
const RESERVED: &[&str] = &[
    "is",
    "mod",
    "rem",
    "xor",
    "div",
    "rdiv",
    "divmod",
    "dynamic",
    "discontiguous",
    "initialization",
    "meta_predicate",
    "module_transparent",
    "multifile",
    "public",
    "thread_local",
    "table",
    "true",
    "fail",
    "false",
    "inf",
    "infinite",
    "nan",
    "epsilon",
    "pi",
    "e",
    "max_tagged_integer",
    "random",
    "cputime",
    "realtime",
];

/// What a task constant names, with the train number that groups it.
fn train_of(atom: &str) -> Option<&str> {
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(number) = atom.strip_prefix("train") {
        return all_digits(number).then_some(number);
    }
    let (train, car) = atom.strip_prefix("car")?.split_once('_')?;
    (all_digits(train) && all_digits(car)).then_some(train)
}

/// Whether `atom` is a task constant (a train or a car) that every
/// renaming replaces.
pub fn is_task_constant(atom: &str) -> bool {
    train_of(atom).is_some()
}

/// The task under one naming: what an answer is run against.
#[derive(Debug, Clone)]
pub struct Naming {
    /// The background clauses as loaded.
    pub background: Background,
    /// The goals run for the examples, in task order
    /// ([`super::Example::run_goal`]).
    pub goals: Vec<Term>,
}

impl Naming {
    /// The task with its own names and fact order.
    pub fn original(program: &TaskProgram) -> Naming {
        Naming {
            background: program.background_original.clone(),
            goals: program
                .examples
                .iter()
                .map(|e| e.run_goal(e.goal.clone()))
                .collect(),
        }
    }

    /// Renaming number `index` of `program` under `seed` (see the module
    /// documentation): the same arguments always give the same naming.
    pub fn renamed(program: &TaskProgram, seed: u64, index: u64) -> Naming {
        let mut rng = ChaCha8Rng::from_seed(stream_seed(&[program.content_hash, seed, index]));
        let clauses = program.background_original.clauses();
        let goals: Vec<&Term> = program.examples.iter().map(|e| &e.goal).collect();

        // Every task constant grouped by train number, and every other name
        // the task uses (which a drawn name must avoid).
        // (Only membership is asked of the hash sets, never their order.)
        let mut blocks: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        let mut vocabulary: FastSet<&str> = [program.positive.as_str(), &program.negative]
            .into_iter()
            .collect();
        let mut seen: FastSet<(&str, bool)> = FastSet::default();
        let mut classify = |name, is_atom| {
            if !seen.insert((name, is_atom)) {
                return;
            }
            match train_of(name) {
                Some(train) if is_atom => {
                    blocks.entry(train).or_default().insert(name);
                }
                _ => {
                    vocabulary.insert(name);
                }
            }
        };
        // A fact's symbols are classified once each, not once per use.
        const AS_ATOM: u8 = 1;
        const AS_NAME: u8 = 2;
        let mut uses = vec![0u8; clauses.symbol_count()];
        for clause in clauses.iter() {
            match clause {
                Clause::Fact { name, .. } => {
                    uses[*name as usize] |= AS_NAME;
                    for arg in clauses.args(clause) {
                        if let Arg::Atom(a) = arg {
                            uses[*a as usize] |= AS_ATOM;
                        }
                    }
                }
                Clause::Term(term) => visit(term, &mut classify),
            }
        }
        for (symbol, &used) in uses.iter().enumerate() {
            let name = clauses.symbol(symbol as u32);
            if used & AS_ATOM != 0 {
                classify(name, true);
            }
            if used & AS_NAME != 0 {
                classify(name, false);
            }
        }
        for goal in &goals {
            visit(goal, &mut classify);
        }

        let constants: usize = blocks.values().map(BTreeSet::len).sum();
        let mut names = FastMap::with_capacity_and_hasher(constants, Default::default());
        let mut drawn: FastSet<[u8; NAME_LETTERS]> = FastSet::default();
        let mut fresh = |rng: &mut ChaCha8Rng| loop {
            let mut name = [0u8; NAME_LETTERS];
            for letter in &mut name {
                *letter = b'a' + rng.gen_range(0..26u8);
            }
            // Lower-case ASCII letters.
            let text = std::str::from_utf8(&name).unwrap_or_default();
            if !RESERVED.contains(&text) && !vocabulary.contains(text) && drawn.insert(name) {
                return text.to_string();
            }
        };
        for constants in blocks.values() {
            // Atoms sort by their text, so `car3_10` sorts before `car3_2`
            // here exactly as `mycar3_10` does in the reference.
            let (trains, cars): (Vec<&str>, Vec<&str>) = constants
                .iter()
                .copied()
                .partition(|c| c.starts_with("train"));
            for train in trains {
                names.insert(train.to_string(), fresh(&mut rng));
            }
            let mut car_names: Vec<String> = cars.iter().map(|_| fresh(&mut rng)).collect();
            car_names.sort();
            for (car, name) in cars.into_iter().zip(car_names) {
                names.insert(car.to_string(), name);
            }
        }

        // A random rank per train block, and the block of each symbol.
        let mut order: Vec<&str> = blocks.keys().copied().collect();
        order.shuffle(&mut rng);
        let rank: FastMap<&str, usize> = order.iter().enumerate().map(|(i, t)| (*t, i)).collect();
        let symbol_rank: Vec<Option<usize>> = (0..clauses.symbol_count())
            .map(|s| train_of(clauses.symbol(s as u32)).and_then(|t| rank.get(t).copied()))
            .collect();
        // The block a clause belongs to: its first task constant's.
        let owner = |clause: &Clause| match clause {
            Clause::Fact { .. } => clauses.args(clause).iter().find_map(|arg| match arg {
                Arg::Atom(a) => symbol_rank[*a as usize],
                Arg::Int(_) => None,
            }),
            Clause::Term(term) => first_constant(term).and_then(|t| rank.get(t).copied()),
        };

        // The load order: inside each predicate's run of clauses, the slots
        // of owned clauses take the owned clauses in block rank order.
        let all: Vec<&Clause> = clauses.iter().collect();
        let mut order: Vec<u32> = Vec::with_capacity(all.len());
        let mut start = 0;
        while start < all.len() {
            let predicate = clauses.predicate(all[start]);
            let end = start
                + all[start..]
                    .iter()
                    .take_while(|c| clauses.predicate(c) == predicate)
                    .count();
            let owners: Vec<Option<usize>> = all[start..end].iter().map(|c| owner(c)).collect();
            // Owned slots by (block rank, slot): a stable sort by rank.
            let mut owned: Vec<u64> = (0..owners.len())
                .filter_map(|i| owners[i].map(|rank| ((rank as u64) << 32) | i as u64))
                .collect();
            owned.sort_unstable();
            let mut next_owned = owned.into_iter().map(|packed| packed as u32 as usize);
            for (i, slot) in owners.iter().enumerate() {
                let from = match slot {
                    Some(_) => next_owned.next().unwrap_or(i),
                    None => i,
                };
                order.push((start + from) as u32);
            }
            start = end;
        }
        let names = Arc::new(names);
        let rename = |atom: &str| names.get(atom).cloned();
        let goals = program
            .examples
            .iter()
            .map(|e| e.run_goal(e.goal.rename_atoms(&rename)))
            .collect();
        let key = fnv(&[program.content_hash, seed, index, 1]);
        let renaming = Renaming { names, order };
        Naming {
            background: program.background_original.renamed(key, renaming),
            goals,
        }
    }
}

/// Calls `f(name, is_atom)` for every atom and functor name in `term`,
/// depth first, left to right.
fn visit<'t>(term: &'t Term, f: &mut impl FnMut(&'t str, bool)) {
    match term {
        Term::Atom(a) => f(a, true),
        Term::Compound(name, args) => {
            f(name, false);
            for arg in args {
                visit(arg, f);
            }
        }
        _ => {}
    }
}

/// The train of the first task constant in `term` (depth first, left to
/// right): the train block a background clause belongs to.
fn first_constant(term: &Term) -> Option<&str> {
    match term {
        Term::Atom(a) => train_of(a),
        Term::Compound(_, args) => args.iter().find_map(first_constant),
        _ => None,
    }
}

/// A ChaCha seed from `words`, so each (task, seed, index) has its own stream.
fn stream_seed(words: &[u64; 3]) -> [u8; 32] {
    let mut seed = [0u8; 32];
    for (chunk, word) in seed.chunks_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    seed
}

/// FNV-1a over bytes: a hash that is the same on every platform and Rust
/// release, so a renaming drawn today is drawn again tomorrow.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// A string, ended by a byte no UTF-8 text contains.
    pub(crate) fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
        self.bytes(&[0xff]);
    }

    /// A term, tagged by kind so that different terms feed different bytes.
    pub(crate) fn term(&mut self, term: &Term) {
        match term {
            Term::Var(v) => {
                self.bytes(b"V");
                self.text(v);
            }
            Term::Atom(a) => {
                self.bytes(b"A");
                self.text(a);
            }
            Term::Int(i) => {
                self.bytes(b"I");
                self.bytes(&i.to_le_bytes());
            }
            Term::BigInt(digits) => {
                self.bytes(b"B");
                self.text(digits);
            }
            Term::Float(x) => {
                self.bytes(b"F");
                self.bytes(&x.to_bits().to_le_bytes());
            }
            Term::Str(s) => {
                self.bytes(b"S");
                self.text(s);
            }
            Term::Compound(name, args) => {
                self.bytes(b"C");
                self.bytes(&(args.len() as u64).to_le_bytes());
                self.text(name);
                for arg in args {
                    self.term(arg);
                }
            }
        }
    }

    /// A background clause: the bytes [`Fnv::term`] feeds for it as a term.
    pub(crate) fn clause(&mut self, clauses: &Clauses, clause: &Clause) {
        match clause {
            Clause::Term(term) => self.term(term),
            Clause::Fact { name, .. } => {
                let args = clauses.args(clause);
                self.bytes(b"C");
                self.bytes(&(args.len() as u64).to_le_bytes());
                self.text(clauses.symbol(*name));
                for arg in args {
                    match *arg {
                        Arg::Atom(a) => {
                            self.bytes(b"A");
                            self.text(clauses.symbol(a));
                        }
                        Arg::Int(i) => {
                            self.bytes(b"I");
                            self.bytes(&i.to_le_bytes());
                        }
                    }
                }
            }
        }
    }

    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

fn fnv(words: &[u64]) -> u64 {
    let mut hash = Fnv::new();
    for word in words {
        hash.bytes(&word.to_le_bytes());
    }
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::is_task_constant;

    #[test]
    fn task_constants_are_the_reference_patterns() {
        for yes in ["train0", "train07", "car3_12", "car0_1"] {
            assert!(is_task_constant(yes), "{yes}");
        }
        for no in [
            "train", "trainx", "car3", "car_1", "car3_", "mytrain0", "red", "car3_1x",
        ] {
            assert!(!is_task_constant(no), "{no}");
        }
    }
}

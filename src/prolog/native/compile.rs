//! Clause databases: reader terms compiled to templates, indexed on
//! predicate and first argument.

use super::term::{Cell, FastMap, IndexHashing, Intern, NIL, QUOTED_NIL, STRING, TRUE};
use super::Fallback;
use crate::syntax::prolog::QUOTED_NIL as QUOTED_NIL_TEXT;
use crate::syntax::prolog::{Sentence, Term};
use once_cell::race::OnceBox;
use std::collections::HashMap;

/// The most decimal digits of an integer literal an answer may write.
pub(crate) const MAX_LITERAL_DIGITS: usize = 20_000;

/// What the first argument of a clause head or call is, for indexing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Atom(u32),
    Int(i64),
    Float(u64),
    Functor(u32, u32),
}

/// One compiled clause.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clause {
    /// The head (an atom or a `Str` into the template arena).
    pub(crate) head: Cell,
    /// The body, `true` for a fact.
    pub(crate) body: Cell,
    /// How many variables the clause has.
    pub(crate) nvars: u32,
}

/// The clauses of one predicate and their first-argument index.
#[derive(Debug, Default, Clone)]
pub(crate) struct Pred {
    pub(crate) clauses: Vec<Clause>,
    /// `0..clauses.len()`: the candidates for a call whose first argument
    /// is unbound.
    all: Vec<u32>,
    /// Each clause's first-argument key (`None`: a variable, or no
    /// arguments).
    keys: Vec<Option<Key>>,
    /// Built on the first call with a bound first argument: most of a
    /// task's facts are loaded for one answer and many predicates are
    /// never called that way.
    index: OnceBox<Index>,
}

/// Candidate lists: list 0 is `Pred::all`, list 1 the clauses whose first
/// argument is a variable, then one per key (its clauses and the variable
/// ones, in program order), stored back to back.
#[derive(Debug, Default, Clone)]
struct Index {
    /// Hashed with a random seed: an answer picks its own keys.
    by_key: HashMap<Key, u32, IndexHashing>,
    /// Too many clauses with a variable first argument to repeat in every
    /// key's list: every call tries all clauses.
    unindexed: bool,
    /// Where list `l` starts in `ids` (`l ≥ 1`), and one past the last.
    starts: Vec<u32>,
    ids: Vec<u32>,
}

impl Pred {
    fn add(&mut self, clause: Clause, key: Option<Key>) {
        self.all.push(self.clauses.len() as u32);
        self.clauses.push(clause);
        self.keys.push(key);
        self.index = OnceBox::new();
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| Box::new(self.make_index()))
    }

    fn make_index(&self) -> Index {
        let mut index = Index::default();
        // Each clause's key as a number: keys in order of appearance.
        let mut keys: Vec<Key> = Vec::new();
        let numbers: Vec<Option<u32>> = self
            .keys
            .iter()
            .map(|key| {
                key.map(|key| {
                    *index.by_key.entry(key).or_insert_with(|| {
                        keys.push(key);
                        keys.len() as u32 - 1
                    })
                })
            })
            .collect();
        let variables = self.variable_clauses();
        // Each key's clauses, in program order, placed by counting:
        // key k's are `grouped[bounds[k]..bounds[k + 1]]`.
        let mut bounds = vec![0u32; keys.len() + 1];
        for n in numbers.iter().flatten() {
            bounds[*n as usize + 1] += 1;
        }
        for k in 0..keys.len() {
            bounds[k + 1] += bounds[k];
        }
        let mut next = bounds.clone();
        let mut grouped = vec![0u32; bounds[keys.len()] as usize];
        for (id, n) in numbers.iter().enumerate() {
            if let Some(n) = n {
                grouped[next[*n as usize] as usize] = id as u32;
                next[*n as usize] += 1;
            }
        }
        // Every key's list repeats the clauses with a variable first:
        // when that would be many times the clauses (10,000 keys and
        // 10,000 such clauses made 100 M entries, 760 MB), a call
        // tries every clause instead.
        let repeated = keys.len().saturating_mul(variables.len());
        if repeated > 4 * self.clauses.len() + 4096 {
            index.by_key.clear();
            index.unindexed = true;
            return index;
        }
        index.starts.push(0);
        index.ids.extend_from_slice(&variables);
        index.starts.push(index.ids.len() as u32);
        for k in 0..keys.len() {
            let own = &grouped[bounds[k] as usize..bounds[k + 1] as usize];
            // Both in program order: merged.
            let (mut i, mut j) = (0, 0);
            while i < own.len() || j < variables.len() {
                if j == variables.len() || (i < own.len() && own[i] < variables[j]) {
                    index.ids.push(own[i]);
                    i += 1;
                } else {
                    index.ids.push(variables[j]);
                    j += 1;
                }
            }
            index.starts.push(index.ids.len() as u32);
        }
        // Key lists are numbered after list 0 (all) and 1 (variables).
        for list in index.by_key.values_mut() {
            *list += 2;
        }
        index
    }

    /// The clauses whose first argument is a variable.
    fn variable_clauses(&self) -> Vec<u32> {
        (0..self.keys.len() as u32)
            .filter(|&i| self.keys[i as usize].is_none())
            .collect()
    }

    /// The candidate list for a call whose first argument has `key`
    /// (`None`: unbound, or no arguments).
    pub(crate) fn candidates(&self, key: Option<Key>) -> u32 {
        match key {
            None => 0,
            Some(k) => {
                let index = self.index();
                if index.unindexed {
                    return 0;
                }
                index.by_key.get(&k).copied().unwrap_or(1)
            }
        }
    }

    /// The clause ids of candidate list `list`.
    pub(crate) fn list(&self, list: u32) -> &[u32] {
        if list == 0 {
            return &self.all;
        }
        let index = self.index();
        let l = list as usize - 1;
        &index.ids[index.starts[l] as usize..index.starts[l + 1] as usize]
    }
}

/// A compiled program: templates and predicates.
#[derive(Debug, Default, Clone)]
pub(crate) struct Db {
    pub(crate) templates: Vec<Cell>,
    /// The big integer constants `Cell::Big` in `templates` refer to.
    pub(crate) bigs: Vec<num_bigint::BigInt>,
    pub(crate) preds: Vec<Pred>,
    pub(crate) index: FastMap<(u32, u32), u32>,
}

impl Db {
    /// The predicate `name/arity`, if defined here.
    pub(crate) fn pred(&self, name: u32, arity: u32) -> Option<u32> {
        self.index.get(&(name, arity)).copied()
    }

    /// Adds every clause of `sentences`; directives and terms the engine does
    /// not represent (strings, big integers) make the program unsupported.
    pub(crate) fn add_sentences(
        &mut self,
        sentences: &[Sentence],
        atoms: &mut impl Intern,
    ) -> Result<(), Fallback> {
        for sentence in sentences {
            let Sentence::Clause { term, .. } = sentence else {
                return Err(Fallback::new("unsupported", "directive"));
            };
            self.add_clause(term, atoms)?;
        }
        Ok(())
    }

    /// Adds the ground fact `name(args…)` (atomic arguments, at least one).
    pub(crate) fn add_fact(&mut self, name: u32, args: &[Cell]) {
        let at = self.templates.len() as u32;
        self.templates.push(Cell::Functor(name, args.len() as u32));
        self.templates.extend_from_slice(args);
        let key = key_of(args[0], &self.templates);
        let arity = args.len() as u32;
        let pred = match self.index.get(&(name, arity)) {
            Some(&p) => p,
            None => {
                let p = self.preds.len() as u32;
                self.preds.push(Pred::default());
                self.index.insert((name, arity), p);
                p
            }
        };
        self.preds[pred as usize].add(
            Clause {
                head: Cell::Str(at),
                body: Cell::Atom(TRUE),
                nvars: 0,
            },
            key,
        );
    }

    /// Adds one clause term (`Head :- Body` or a fact).
    pub(crate) fn add_clause(
        &mut self,
        term: &Term,
        atoms: &mut impl Intern,
    ) -> Result<(), Fallback> {
        let (head, body) = match term {
            Term::Compound(neck, args) if neck == ":-" && args.len() == 2 => {
                (&args[0], Some(&args[1]))
            }
            other => (other, None),
        };
        let Some((name, arity)) = head.name_arity() else {
            return Err(Fallback::new("unsupported", format!("clause head {head}")));
        };
        let mut vars = VarNumbers::default();
        let head_cell = compile_term(head, atoms, self, &mut vars)?;
        let body_cell = match body {
            Some(b) => compile_term(b, atoms, self, &mut vars)?,
            None => Cell::Atom(TRUE),
        };
        let key = match head_cell {
            Cell::Str(p) if arity > 0 => key_of(self.templates[p as usize + 1], &self.templates),
            _ => None,
        };
        let name_id = if name == QUOTED_NIL_TEXT {
            QUOTED_NIL
        } else {
            atoms.intern(name)
        };
        let pred = match self.index.get(&(name_id, arity as u32)) {
            Some(&p) => p,
            None => {
                let p = self.preds.len() as u32;
                self.preds.push(Pred::default());
                self.index.insert((name_id, arity as u32), p);
                p
            }
        };
        self.preds[pred as usize].add(
            Clause {
                head: head_cell,
                body: body_cell,
                nvars: vars.len(),
            },
            key,
        );
        Ok(())
    }
}

/// The index key of a cell (template or dereferenced heap cell); `None`
/// for a variable.
pub(crate) fn key_of(cell: Cell, arena: &[Cell]) -> Option<Key> {
    match cell {
        Cell::Atom(a) => Some(Key::Atom(a)),
        Cell::Int(i) => Some(Key::Int(i)),
        Cell::Float(f) => Some(Key::Float(f.to_bits())),
        Cell::Str(p) => match arena[p as usize] {
            Cell::Functor(n, a) => Some(Key::Functor(n, a)),
            _ => None,
        },
        Cell::Ref(_) | Cell::Functor(..) | Cell::Big(_) => None,
    }
}

/// The numbers of a clause's variables, in order of first occurrence:
/// named ones share theirs, each `_` takes a fresh one. Shared by a
/// clause's head and body.
#[derive(Debug, Default)]
pub(crate) struct VarNumbers<'t> {
    named: hashbrown::HashMap<&'t str, u32>,
    count: u32,
}

impl<'t> VarNumbers<'t> {
    /// How many variables were numbered.
    pub(crate) fn len(&self) -> u32 {
        self.count
    }

    /// The number of the variable `name` (a fresh one for `_`).
    fn number(&mut self, name: &'t str) -> u32 {
        let fresh = self.count;
        if name == "_" {
            self.count += 1;
            return fresh;
        }
        let number = *self.named.entry(name).or_insert(fresh);
        if number == fresh {
            self.count += 1;
        }
        number
    }
}

/// Compiles a reader term into `db`'s templates (big integers into its
/// `bigs`); named variables share numbers through `vars`, each `_` is
/// fresh. Iterative: lists nest as deep as they are long.
pub(crate) fn compile_term<'t>(
    term: &'t Term,
    atoms: &mut impl Intern,
    db: &mut Db,
    vars: &mut VarNumbers<'t>,
) -> Result<Cell, Fallback> {
    let root_slot = db.templates.len();
    db.templates.push(Cell::Atom(NIL));
    let mut todo: Vec<(&'t Term, usize)> = vec![(term, root_slot)];
    while let Some((t, slot)) = todo.pop() {
        let cell = match t {
            Term::Var(name) => Cell::Ref(vars.number(name)),
            // The empty list; an atom named `[]` is the quoted `'[]'`.
            Term::Atom(a) if a == "[]" => Cell::Atom(NIL),
            Term::Atom(a) if a == QUOTED_NIL_TEXT => Cell::Atom(QUOTED_NIL),
            Term::Atom(a) => Cell::Atom(atoms.intern(a)),
            Term::Int(i) => Cell::Int(*i),
            Term::Float(f) if f.is_finite() => Cell::Float(*f),
            Term::Float(_) => return Err(Fallback::new("unsupported", "non-finite float")),
            Term::BigInt(digits) => {
                // Reading decimal digits takes time quadratic in their
                // number: past this many, SWI's reading (GMP, in C) is
                // beyond what a counted budget here allows.
                if digits.len() > MAX_LITERAL_DIGITS {
                    return Err(Fallback::new("memory", "integer literal too long"));
                }
                let value: num_bigint::BigInt = digits
                    .parse()
                    .map_err(|_| Fallback::new("internal", format!("big integer {digits}")))?;
                match i64::try_from(&value) {
                    Ok(i) => Cell::Int(i),
                    Err(_) => {
                        db.bigs.push(value);
                        Cell::Big(db.bigs.len() as u32 - 1)
                    }
                }
            }
            Term::Str(text) => {
                let at = db.templates.len();
                db.templates.push(Cell::Functor(STRING, 1));
                db.templates.push(Cell::Atom(atoms.intern(text)));
                Cell::Str(at as u32)
            }
            Term::Compound(name, _) if name == "$string" => {
                return Err(Fallback::new("unsupported", "'$string' term"))
            }
            Term::Compound(name, args) => {
                let at = db.templates.len();
                db.templates
                    .push(Cell::Functor(atoms.intern(name), args.len() as u32));
                for (i, arg) in args.iter().enumerate() {
                    db.templates.push(Cell::Atom(NIL));
                    todo.push((arg, at + 1 + i));
                }
                Cell::Str(at as u32)
            }
        };
        db.templates[slot] = cell;
    }
    Ok(db.templates[root_slot])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A predicate of clauses with these first-argument keys.
    fn pred(keys: &[Option<Key>]) -> Pred {
        let mut pred = Pred::default();
        let fact = Clause {
            head: Cell::Atom(NIL),
            body: Cell::Atom(TRUE),
            nvars: 0,
        };
        for &key in keys {
            pred.add(fact, key);
        }
        pred
    }

    /// The clause ids a call with first argument `key` tries.
    fn tried(pred: &Pred, key: Option<Key>) -> Vec<u32> {
        pred.list(pred.candidates(key)).to_vec()
    }

    #[test]
    fn a_call_tries_its_keys_clauses_and_the_variable_ones_in_order() {
        let (one, two) = (Some(Key::Int(1)), Some(Key::Int(2)));
        let p = pred(&[one, None, one, two, None]);
        assert_eq!(tried(&p, one), [0, 1, 2, 4]);
        assert_eq!(tried(&p, two), [1, 3, 4]);
        assert_eq!(tried(&p, Some(Key::Int(3))), [1, 4]);
        assert_eq!(tried(&p, None), [0, 1, 2, 3, 4]);
        let facts = pred(&[two, one, two]);
        assert_eq!(tried(&facts, two), [0, 2]);
        assert_eq!(tried(&facts, Some(Key::Int(3))), Vec::<u32>::new());
    }

    #[test]
    fn many_keys_and_many_variable_clauses_are_not_indexed() {
        // 2,000 keys and 2,000 clauses with a variable first argument:
        // lists for each key would hold 4 M ids (10,000 of each took
        // 760 MB); a call tries every clause instead, in order.
        let mut keys: Vec<Option<Key>> = (0..2000).map(|i| Some(Key::Int(i))).collect();
        keys.extend(std::iter::repeat_n(None, 2000));
        let p = pred(&keys);
        assert_eq!(tried(&p, Some(Key::Int(7))).len(), 4000);
        let index = p.index();
        assert!(index.unindexed && index.ids.is_empty());
        // A few variable clauses keep the index.
        let mut keys: Vec<Option<Key>> = (0..2000).map(|i| Some(Key::Int(i))).collect();
        keys.extend([None, None]);
        let p = pred(&keys);
        assert_eq!(tried(&p, Some(Key::Int(7))), [7, 2000, 2001]);
        assert!(p.index().ids.len() <= 3 * 2000 + 2);
    }

    #[test]
    fn keys_chosen_to_collide_under_a_fixed_hash_spread() {
        // Integers whose FastHasher hashes share their low 40 bits (so a
        // table's bucket) and top bits: all in one bucket there, 1.9 s to
        // index 40,000 of them. With the seeded index hash they spread.
        use std::hash::BuildHasher;
        const M: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let m_inverse = (0..6).fold(M, |x, _| {
            x.wrapping_mul(2u64.wrapping_sub(M.wrapping_mul(x)))
        });
        let c = M.rotate_left(5);
        let keys: Vec<Key> = (0..4096u64)
            .map(|i| {
                let hash = (i << 40) | 0x12345;
                Key::Int((hash.rotate_right(26).wrapping_mul(m_inverse) ^ c) as i64)
            })
            .collect();
        let fixed = std::hash::BuildHasherDefault::<super::super::term::FastHasher>::default();
        let buckets = |hash: &dyn Fn(&Key) -> u64| {
            let mut seen: Vec<u64> = keys.iter().map(|k| hash(k) & 0xfff).collect();
            seen.sort_unstable();
            seen.dedup();
            seen.len()
        };
        assert_eq!(buckets(&|k| fixed.hash_one(k)), 1);
        let seeded = IndexHashing::default();
        assert!(buckets(&|k| seeded.hash_one(k)) > 2000);
    }
}

//! Clause databases: reader terms compiled to templates, indexed on
//! predicate and first argument.

use super::term::{Cell, FastMap, Intern, NIL, STRING, TRUE};
use super::Fallback;
use crate::syntax::prolog::{Sentence, Term};
use std::collections::HashMap;

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
    /// Candidate lists: 0 = all clauses, 1 = clauses whose first argument
    /// is a variable, then one per key (its clauses and the variable ones,
    /// in program order).
    pub(crate) lists: Vec<Vec<u32>>,
    by_key: FastMap<Key, u32>,
}

impl Pred {
    fn new() -> Pred {
        Pred {
            clauses: Vec::new(),
            lists: vec![Vec::new(), Vec::new()],
            by_key: FastMap::default(),
        }
    }

    fn add(&mut self, clause: Clause, key: Option<Key>) {
        let id = self.clauses.len() as u32;
        self.clauses.push(clause);
        self.lists[0].push(id);
        match key {
            None => {
                for list in self.lists.iter_mut().skip(1) {
                    list.push(id);
                }
            }
            Some(k) => {
                let list = match self.by_key.get(&k) {
                    Some(&l) => l,
                    None => {
                        let l = self.lists.len() as u32;
                        let earlier_vars = self.lists[1].clone();
                        self.lists.push(earlier_vars);
                        self.by_key.insert(k, l);
                        l
                    }
                };
                self.lists[list as usize].push(id);
            }
        }
    }

    /// The candidate list for a call whose first argument has `key`
    /// (`None`: unbound, or no arguments).
    pub(crate) fn candidates(&self, key: Option<Key>) -> u32 {
        match key {
            None => 0,
            Some(k) => self.by_key.get(&k).copied().unwrap_or(1),
        }
    }
}

/// A compiled program: templates and predicates.
#[derive(Debug, Default, Clone)]
pub(crate) struct Db {
    pub(crate) templates: Vec<Cell>,
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
                self.preds.push(Pred::new());
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
        let mut vars: HashMap<String, u32> = HashMap::new();
        let head_cell = compile_term(head, atoms, &mut self.templates, &mut vars)?;
        let body_cell = match body {
            Some(b) => compile_term(b, atoms, &mut self.templates, &mut vars)?,
            None => Cell::Atom(TRUE),
        };
        let key = match head_cell {
            Cell::Str(p) if arity > 0 => key_of(self.templates[p as usize + 1], &self.templates),
            _ => None,
        };
        let name_id = atoms.intern(name);
        let pred = match self.index.get(&(name_id, arity as u32)) {
            Some(&p) => p,
            None => {
                let p = self.preds.len() as u32;
                self.preds.push(Pred::new());
                self.index.insert((name_id, arity as u32), p);
                p
            }
        };
        self.preds[pred as usize].add(
            Clause {
                head: head_cell,
                body: body_cell,
                nvars: vars.len() as u32,
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
        Cell::Ref(_) | Cell::Functor(..) => None,
    }
}

/// Compiles a reader term into `arena`; named variables share numbers
/// through `vars`, each `_` is fresh. Iterative: lists nest as deep as they
/// are long.
pub(crate) fn compile_term(
    term: &Term,
    atoms: &mut impl Intern,
    arena: &mut Vec<Cell>,
    vars: &mut HashMap<String, u32>,
) -> Result<Cell, Fallback> {
    let mut anonymous = 0u32;
    let root_slot = arena.len();
    arena.push(Cell::Atom(NIL));
    let mut todo: Vec<(&Term, usize)> = vec![(term, root_slot)];
    while let Some((t, slot)) = todo.pop() {
        let cell = match t {
            Term::Var(name) => {
                let key = if name == "_" {
                    anonymous += 1;
                    format!("_ {anonymous}")
                } else {
                    name.clone()
                };
                let next = vars.len() as u32;
                Cell::Ref(*vars.entry(key).or_insert(next))
            }
            Term::Atom(a) => Cell::Atom(atoms.intern(a)),
            Term::Int(i) => Cell::Int(*i),
            Term::Float(f) if f.is_finite() => Cell::Float(*f),
            Term::Float(_) => return Err(Fallback::new("unsupported", "non-finite float")),
            Term::BigInt(_) => return Err(Fallback::new("unsupported", "big integer")),
            Term::Str(text) => {
                let at = arena.len();
                arena.push(Cell::Functor(STRING, 1));
                arena.push(Cell::Atom(atoms.intern(text)));
                Cell::Str(at as u32)
            }
            Term::Compound(name, _) if name == "$string" => {
                return Err(Fallback::new("unsupported", "'$string' term"))
            }
            Term::Compound(name, args) => {
                let at = arena.len();
                arena.push(Cell::Functor(atoms.intern(name), args.len() as u32));
                for (i, arg) in args.iter().enumerate() {
                    arena.push(Cell::Atom(NIL));
                    todo.push((arg, at + 1 + i));
                }
                Cell::Str(at as u32)
            }
        };
        arena[slot] = cell;
    }
    Ok(arena[root_slot])
}

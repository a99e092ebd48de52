//! Term cells, the atom table, and the heap store with its trail.
//!
//! Terms live in one flat `Vec<Cell>` (a WAM-style heap): a compound is a
//! `Functor` header followed by its argument cells, referred to by `Str`;
//! an unbound variable is a `Ref` to itself. Clause templates use the same
//! cells in their own arena, where `Ref(i)` means the clause's i-th variable.
//! Every walk over terms is iterative and charged to a work counter, so deep
//! or cyclic terms end in a fallback, never in a stack overflow or a hang.

use super::Fallback;
use std::collections::HashMap;

/// One heap or template cell.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cell {
    /// On the heap: a reference (to itself when unbound). In a template:
    /// the clause variable with this number.
    Ref(u32),
    /// An atom, by its id in the atom table.
    Atom(u32),
    /// A 64-bit integer.
    Int(i64),
    /// A finite float.
    Float(f64),
    /// An integer beyond 64 bits, by its index in [`Store::bigs`].
    Big(u32),
    /// A compound whose `Functor` header is at this address.
    Str(u32),
    /// A compound's header: name and arity.
    Functor(u32, u32),
}

/// Atoms the engine needs by id; interned first, in this order.
pub(crate) const KNOWN_ATOMS: &[&str] = &[
    "[]", ".", "true", "fail", ",", "\\+", "-", "<", "=", ">", "x", "^", "->", "*->", "$string",
    "[|]", "member", "[]",
];
pub(crate) const NIL: u32 = 0;
pub(crate) const DOT: u32 = 1;
pub(crate) const TRUE: u32 = 2;
pub(crate) const FAIL: u32 = 3;
pub(crate) const COMMA: u32 = 4;
pub(crate) const NOT: u32 = 5;
pub(crate) const MINUS: u32 = 6;
pub(crate) const LESS: u32 = 7;
pub(crate) const EQUAL: u32 = 8;
pub(crate) const GREATER: u32 = 9;
pub(crate) const X: u32 = 10;
pub(crate) const CARET: u32 = 11;
pub(crate) const ARROW: u32 = 12;
pub(crate) const SOFT_ARROW: u32 = 13;
/// A string object (SWI's `"abc"`) is the compound `'$string'(Atom)`: the
/// reader refuses that name in answers, so nothing else has this shape.
pub(crate) const STRING: u32 = 14;
/// SWI's name of the list constructor, reported by functor/3 and `=..`.
pub(crate) const LIST_NAME: u32 = 15;
pub(crate) const MEMBER: u32 = 16;
/// The atom `'[]'`, which SWI-Prolog 7+ keeps apart from the empty list
/// [`NIL`]: both are named `[]`, but only this one is found by its name,
/// so atoms made from text (`atom_codes(A, "[]")`) are this one, as in SWI.
pub(crate) const QUOTED_NIL: u32 = 17;

/// Whether a functor is the string wrapper.
pub(crate) fn is_string_tag(name: u32, arity: u32) -> bool {
    name == STRING && arity == 1
}

/// Names to ids and back.
#[derive(Debug, Clone)]
pub(crate) struct AtomTable {
    /// The table this one extends (the compiled library's), shared instead
    /// of copied: its atoms keep their ids, this table's come after them.
    parent: Option<&'static AtomTable>,
    names: Vec<Box<str>>,
    /// Names come from answers too, so they take a keyed hasher
    /// (foldhash, seeded for each table).
    ids: hashbrown::HashMap<Box<str>, u32>,
}

impl AtomTable {
    /// A table holding [`KNOWN_ATOMS`] at their fixed ids.
    pub(crate) fn new() -> AtomTable {
        let mut table = AtomTable::empty(None);
        // The empty list is not found by its name (see [`QUOTED_NIL`]).
        table.names.push(KNOWN_ATOMS[NIL as usize].into());
        for name in &KNOWN_ATOMS[1..] {
            table.intern(name);
        }
        debug_assert_eq!(table.lookup("[]"), Some(QUOTED_NIL));
        table
    }

    /// A table with no atoms of its own over `parent`.
    pub(crate) fn empty(parent: Option<&'static AtomTable>) -> AtomTable {
        AtomTable {
            parent,
            names: Vec::new(),
            ids: hashbrown::HashMap::new(),
        }
    }

    fn offset(&self) -> u32 {
        self.parent.map_or(0, AtomTable::len)
    }

    /// Room for `more` atoms without growing.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.names.reserve(more);
        self.ids.reserve(more);
    }

    pub(crate) fn len(&self) -> u32 {
        self.offset() + self.names.len() as u32
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<u32> {
        if let Some(id) = self.parent.and_then(|p| p.lookup(name)) {
            return Some(id);
        }
        self.ids.get(name).map(|&id| self.offset() + id)
    }

    /// The name of atom `id`, if this table has it.
    fn name(&self, id: u32) -> Option<&str> {
        let offset = self.offset();
        match self.parent {
            Some(parent) if id < offset => parent.name(id),
            _ => self.names.get((id - offset) as usize).map(|s| &**s),
        }
    }

    fn intern(&mut self, name: &str) -> u32 {
        if let Some(id) = self.lookup(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.into());
        self.ids.insert(name.into(), id);
        self.offset() + id
    }
}

/// Interning into some table.
pub(crate) trait Intern {
    fn intern(&mut self, name: &str) -> u32;
}

impl Intern for AtomTable {
    fn intern(&mut self, name: &str) -> u32 {
        AtomTable::intern(self, name)
    }
}

/// The shared table of a background plus the atoms one evaluation adds
/// (from its hypothesis and goals), numbered after the shared ones.
pub(crate) struct Atoms<'a> {
    base: &'a AtomTable,
    local: AtomTable,
    /// How many of `local`'s atoms came from the hypothesis and goals: the
    /// ones after them were made while running a goal and are dropped when
    /// the next goal starts ([`Atoms::forget_made`]), so atoms never
    /// outlive the goal that made them.
    compiled: usize,
}

impl<'a> Atoms<'a> {
    pub(crate) fn new(base: &'a AtomTable) -> Atoms<'a> {
        Atoms {
            base,
            local: AtomTable::empty(None),
            compiled: 0,
        }
    }

    /// Interns a name made at run time, its bytes counted in `store`'s
    /// memory budget when the name is new.
    pub(crate) fn make(&mut self, store: &mut Store, name: &str) -> Result<u32, Fallback> {
        if let Some(id) = self.base.lookup(name) {
            return Ok(id);
        }
        if let Some(id) = self.local.lookup(name) {
            return Ok(self.base.len() + id);
        }
        // The name is stored twice (list and map) plus their entries.
        store.hold(2 * name.len() + ATOM_OVERHEAD)?;
        Ok(self.base.len() + self.local.intern(name))
    }

    /// Marks every atom so far as the hypothesis's and goals' own.
    pub(crate) fn mark_compiled(&mut self) {
        self.compiled = self.local.names.len();
    }

    /// Drops the atoms made at run time (see [`Atoms::compiled`]).
    pub(crate) fn forget_made(&mut self) {
        while self.local.names.len() > self.compiled {
            if let Some(name) = self.local.names.pop() {
                self.local.ids.remove(&name);
            }
        }
    }

    pub(crate) fn name(&self, id: u32) -> &str {
        let n = self.base.len();
        let name = if id < n {
            self.base.name(id)
        } else {
            self.local.name(id - n)
        };
        name.unwrap_or("")
    }
}

impl Intern for Atoms<'_> {
    fn intern(&mut self, name: &str) -> u32 {
        match self.base.lookup(name) {
            Some(id) => id,
            None => self.base.len() + self.local.intern(name),
        }
    }
}

/// Where a template's variables went on the heap, for one instantiation.
pub(crate) type VarMap = Vec<Option<Cell>>;

/// Bytes a heap cell takes, for the memory budget.
pub(crate) const CELL_BYTES: usize = std::mem::size_of::<Cell>();

/// Bytes counted for an atom made at run time beyond its text (table
/// entries, allocation headers).
const ATOM_OVERHEAD: usize = 64;

/// Bytes of text one unit of work covers when a built-in scans or copies
/// text: about what visiting one 16-byte cell costs.
pub(crate) const TEXT_BYTES_PER_UNIT: usize = 16;

/// The counted limits of one evaluation (see the module docs of
/// [`super`]): work units per goal and per answer, and bytes of memory
/// per goal.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Work units one goal may use.
    pub(crate) work: u64,
    /// Work units all goals of the answer together may use.
    pub(crate) total_work: u64,
    /// Bytes one goal may hold: heap cells, atoms it made, big integers,
    /// findall copies.
    pub(crate) memory: usize,
}

/// The heap, the trail and the work and memory counters of one evaluation.
pub(crate) struct Store {
    pub(crate) heap: Vec<Cell>,
    pub(crate) trail: Vec<u32>,
    /// Units of work done (cells visited, text scanned in
    /// [`TEXT_BYTES_PER_UNIT`] slices) for the current goal.
    pub(crate) work: u64,
    /// Work of the goals before the current one.
    work_spent: u64,
    /// Bytes the current goal holds beyond its heap cells.
    held: usize,
    /// The most bytes a goal held, for calibration and fuzzing.
    peak: usize,
    limits: Limits,
    /// The big integers of the current goal, referred to by `Cell::Big`;
    /// the first `constant_bigs` are the hypothesis's and goals' own.
    pub(crate) bigs: Vec<num_bigint::BigInt>,
    constant_bigs: usize,
    /// Bindings made so far: delayed goals (`dif/2`) are checked again
    /// when it has moved.
    pub(crate) binds: u64,
    /// Reused work lists, so a resolution step allocates nothing: one each
    /// for `unify`, `unify_template` (which calls the other two) and `build`.
    stack: Vec<(Cell, Cell)>,
    template_stack: Vec<(Cell, Cell)>,
    pending: Vec<(u32, u32)>,
}

impl Store {
    /// A store over `heap` and `trail`, empty vectors whose capacity an
    /// earlier evaluation may have left, with the compiled program's big
    /// integer constants.
    pub(crate) fn new(
        limits: Limits,
        mut heap: Vec<Cell>,
        trail: Vec<u32>,
        bigs: Vec<num_bigint::BigInt>,
    ) -> Store {
        heap.clear();
        heap.reserve(1 << 12);
        Store {
            heap,
            trail,
            work: 0,
            work_spent: 0,
            held: 0,
            peak: 0,
            limits,
            constant_bigs: bigs.len(),
            bigs,
            binds: 0,
            stack: Vec::new(),
            template_stack: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// Starts the next goal: an empty heap and trail, its work counted from
    /// zero (the goals before stay in the answer's total), nothing held.
    pub(crate) fn start_goal(&mut self) {
        self.heap.clear();
        self.trail.clear();
        self.work_spent += self.work;
        self.work = 0;
        self.held = 0;
        self.bigs.truncate(self.constant_bigs);
    }

    /// Charges `units` of work: one per cell visited, built or compared,
    /// per list element walked, per [`TEXT_BYTES_PER_UNIT`] bytes of text
    /// scanned or copied, per machine word of a big integer. Past the goal's
    /// or the answer's limit the goal is out of budget (a timeout).
    #[inline]
    pub(crate) fn charge(&mut self, units: u64) -> Result<(), Fallback> {
        self.work += units;
        if self.work > self.limits.work || self.work_spent + self.work > self.limits.total_work {
            return Err(Fallback::new("budget", "term work limit exceeded"));
        }
        Ok(())
    }

    /// Charges scanning or copying `bytes` of text.
    #[inline]
    pub(crate) fn charge_text(&mut self, bytes: usize) -> Result<(), Fallback> {
        self.charge((bytes / TEXT_BYTES_PER_UNIT) as u64 + 1)
    }

    /// Work units the goal may still use.
    pub(crate) fn work_left(&self) -> u64 {
        let goal = self.limits.work.saturating_sub(self.work);
        let answer = self
            .limits
            .total_work
            .saturating_sub(self.work_spent + self.work);
        goal.min(answer)
    }

    /// Work units used: by the current goal, and by the whole answer.
    pub(crate) fn work_used(&self) -> (u64, u64) {
        (self.work, self.work_spent + self.work)
    }

    /// Counts `bytes` more memory the goal holds beyond heap cells (atoms,
    /// big integers, copies); past the limit it is a resource error.
    pub(crate) fn hold(&mut self, bytes: usize) -> Result<(), Fallback> {
        self.held = self.held.saturating_add(bytes);
        self.check_heap(0)
    }

    /// Gives back memory counted by [`Store::hold`].
    pub(crate) fn release(&mut self, bytes: usize) {
        self.held = self.held.saturating_sub(bytes);
    }

    /// Whether `extra` more heap cells fit in the memory budget (else a
    /// resource error). Decided by counting, before allocating.
    pub(crate) fn check_heap(&mut self, extra: usize) -> Result<(), Fallback> {
        let cells = self.heap.len().saturating_add(extra);
        let bytes = cells.saturating_mul(CELL_BYTES).saturating_add(self.held);
        if bytes > self.limits.memory {
            return Err(Fallback::new("memory", "memory limit exceeded"));
        }
        self.peak = self.peak.max(bytes);
        Ok(())
    }

    /// The most bytes any goal so far held (as counted).
    pub(crate) fn peak_memory(&self) -> usize {
        self.peak
    }

    /// A big integer cell for `value` (a small one if it fits 64 bits),
    /// charged for its words and counted in the memory budget.
    pub(crate) fn big(&mut self, value: num_bigint::BigInt) -> Result<Cell, Fallback> {
        if let Ok(i) = i64::try_from(&value) {
            return Ok(Cell::Int(i));
        }
        let words = value.bits().div_ceil(64) as usize + 1;
        self.charge(words as u64)?;
        self.hold(words * 8 + 32)?;
        let at = u32::try_from(self.bigs.len())
            .map_err(|_| Fallback::new("memory", "too many big integers"))?;
        self.bigs.push(value);
        Ok(Cell::Big(at))
    }

    /// Follows bound references.
    #[inline]
    pub(crate) fn deref(&self, mut cell: Cell) -> Cell {
        while let Cell::Ref(a) = cell {
            let next = self.heap[a as usize];
            if let Cell::Ref(b) = next {
                if b == a {
                    return cell;
                }
            }
            cell = next;
        }
        cell
    }

    /// A fresh unbound variable.
    pub(crate) fn new_var(&mut self) -> Result<Cell, Fallback> {
        self.check_heap(1)?;
        let a = self.heap.len() as u32;
        self.heap.push(Cell::Ref(a));
        Ok(Cell::Ref(a))
    }

    /// Binds the unbound variable at `addr`.
    #[inline]
    pub(crate) fn bind(&mut self, addr: u32, value: Cell) {
        self.heap[addr as usize] = value;
        self.trail.push(addr);
        self.binds += 1;
    }

    /// Undoes bindings back to trail length `trail` and drops heap cells
    /// from `heap` on.
    pub(crate) fn undo_to(&mut self, trail: usize, heap: usize) {
        while self.trail.len() > trail {
            if let Some(a) = self.trail.pop() {
                if (a as usize) < self.heap.len() {
                    self.heap[a as usize] = Cell::Ref(a);
                }
            }
        }
        self.heap.truncate(heap);
    }

    /// `name(_, …, _)` with `arity` fresh variables (`functor/3`): each
    /// argument cell is itself the unbound variable. Counted and charged
    /// before anything is made.
    pub(crate) fn compound_of_fresh(&mut self, name: u32, arity: u64) -> Result<Cell, Fallback> {
        let cells = usize::try_from(arity).map_or(usize::MAX, |n| n.saturating_add(1));
        self.check_heap(cells)?;
        self.charge(arity.saturating_add(1))?;
        let at = self.heap.len() as u32;
        self.heap.push(Cell::Functor(name, arity as u32));
        for i in 1..=arity as u32 {
            self.heap.push(Cell::Ref(at + i));
        }
        Ok(Cell::Str(at))
    }

    /// The compound `name(args…)`, or the atom when `args` is empty.
    pub(crate) fn compound(&mut self, name: u32, args: &[Cell]) -> Result<Cell, Fallback> {
        if args.is_empty() {
            return Ok(Cell::Atom(name));
        }
        self.check_heap(args.len() + 1)?;
        self.charge(args.len() as u64 + 1)?;
        let at = self.heap.len() as u32;
        self.heap.push(Cell::Functor(name, args.len() as u32));
        for &arg in args {
            // An unbound variable stored in an argument slot stays a reference
            // to its own cell, so bindings through either are seen by both.
            self.heap.push(arg);
        }
        Ok(Cell::Str(at))
    }

    /// `(name, arity, first argument address)` of a callable cell.
    #[inline]
    pub(crate) fn functor_of(&self, cell: Cell) -> Option<(u32, u32, u32)> {
        match cell {
            Cell::Atom(a) => Some((a, 0, 0)),
            Cell::Str(p) => match self.heap[p as usize] {
                Cell::Functor(n, ar) => Some((n, ar, p + 1)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether `cell` (dereferenced) is a list cell `'.'(H, T)`.
    pub(crate) fn list_cell(&self, cell: Cell) -> Option<(Cell, Cell)> {
        match cell {
            Cell::Str(p) => match self.heap[p as usize] {
                Cell::Functor(DOT, 2) => {
                    Some((self.heap[p as usize + 1], self.heap[p as usize + 2]))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The elements of a list and its dereferenced tail. Bounded by the heap
    /// size, so a cyclic list is reported rather than walked forever.
    pub(crate) fn list_items(&mut self, list: Cell) -> Result<(Vec<Cell>, Cell), Fallback> {
        let mut items = Vec::new();
        let mut t = self.deref(list);
        while let Some((h, rest)) = self.list_cell(t) {
            items.push(h);
            if items.len() > self.heap.len() {
                return Err(Fallback::new("cyclic", "cyclic list"));
            }
            t = self.deref(rest);
        }
        self.charge(items.len() as u64)?;
        Ok((items, t))
    }

    /// The elements of a proper list; a partial or improper list falls back
    /// (SWI raises an error for those in every list built-in used here).
    pub(crate) fn proper_list(&mut self, list: Cell) -> Result<Vec<Cell>, Fallback> {
        let (items, tail) = self.list_items(list)?;
        match tail {
            Cell::Atom(NIL) => Ok(items),
            _ => Err(Fallback::new("error", "not a proper list")),
        }
    }

    /// Builds the list of `items` ending in `tail`.
    pub(crate) fn make_list(&mut self, items: &[Cell], tail: Cell) -> Result<Cell, Fallback> {
        self.check_heap(items.len() * 3)?;
        let mut list = tail;
        for &item in items.iter().rev() {
            list = self.compound(DOT, &[item, list])?;
        }
        Ok(list)
    }

    /// Unifies two heap terms (no occurs check, as in SWI and scryer).
    /// Bindings are trailed; on failure the caller undoes them.
    pub(crate) fn unify(&mut self, a: Cell, b: Cell) -> Result<bool, Fallback> {
        self.unify_checked(a, b, false)
    }

    /// Whether variable `x` occurs in `term` (charged per cell visited, so
    /// a cyclic term runs out of budget rather than forever).
    fn occurs(&mut self, x: u32, term: Cell) -> Result<bool, Fallback> {
        let mut todo = vec![term];
        while let Some(t) = todo.pop() {
            self.charge(1)?;
            match self.deref(t) {
                Cell::Ref(y) if y == x => return Ok(true),
                Cell::Str(p) => {
                    if let Cell::Functor(_, n) = self.heap[p as usize] {
                        self.charge(u64::from(n))?;
                        todo.extend((1..=n).map(|i| self.heap[(p + i) as usize]));
                    }
                }
                _ => {}
            }
        }
        Ok(false)
    }

    /// Unification; with `occurs_check`, a variable is never bound to a
    /// term that contains it (unify_with_occurs_check/2).
    pub(crate) fn unify_checked(
        &mut self,
        a: Cell,
        b: Cell,
        occurs_check: bool,
    ) -> Result<bool, Fallback> {
        // Charged per pair pushed, before pushing: two terms of a huge
        // arity that differ in their first argument cost their arity.
        self.charge(1)?;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push((a, b));
        let mut result = Ok(true);
        while let Some((a, b)) = stack.pop() {
            let a = self.deref(a);
            let b = self.deref(b);
            match (a, b) {
                (Cell::Ref(x), Cell::Ref(y)) => {
                    if x != y {
                        // The younger variable points to the older, so a
                        // binding never outlives the cell it refers to.
                        if x < y {
                            self.bind(y, a)
                        } else {
                            self.bind(x, b)
                        }
                    }
                }
                (Cell::Ref(x), other) | (other, Cell::Ref(x)) => {
                    if occurs_check {
                        match self.occurs(x, other) {
                            Ok(false) => {}
                            found => {
                                result = found.map(|_| false);
                                break;
                            }
                        }
                    }
                    self.bind(x, other)
                }
                (Cell::Atom(x), Cell::Atom(y)) if x == y => {}
                (Cell::Int(x), Cell::Int(y)) if x == y => {}
                (Cell::Float(x), Cell::Float(y)) if x.to_bits() == y.to_bits() => {}
                (Cell::Big(x), Cell::Big(y)) if self.same_big(x, y)? => {}
                (Cell::Str(p), Cell::Str(q)) => {
                    if p == q {
                        continue;
                    }
                    match (self.heap[p as usize], self.heap[q as usize]) {
                        (Cell::Functor(f, n), Cell::Functor(g, m)) if f == g && n == m => {
                            if let Err(e) = self.charge(u64::from(n)) {
                                result = Err(e);
                                break;
                            }
                            for i in (1..=n).rev() {
                                stack.push((
                                    self.heap[(p + i) as usize],
                                    self.heap[(q + i) as usize],
                                ));
                            }
                        }
                        _ => {
                            result = Ok(false);
                            break;
                        }
                    }
                }
                _ => {
                    result = Ok(false);
                    break;
                }
            }
        }
        stack.clear();
        self.stack = stack;
        result
    }

    /// Whether two big integer cells hold the same value (charged).
    fn same_big(&mut self, x: u32, y: u32) -> Result<bool, Fallback> {
        let (a, b) = (&self.bigs[x as usize], &self.bigs[y as usize]);
        let words = a.bits().min(b.bits()) / 64 + 1;
        let same = a == b;
        self.charge(words)?;
        Ok(same)
    }

    /// Structural identity (`==`).
    pub(crate) fn identical(&mut self, a: Cell, b: Cell) -> Result<bool, Fallback> {
        // Two atomic terms or variables are compared without a stack (the
        // common case, e.g. every delayed dif/2 re-checked after a binding).
        match (self.deref(a), self.deref(b)) {
            (Cell::Str(_), Cell::Str(_)) | (Cell::Big(_), Cell::Big(_)) => {}
            (Cell::Ref(x), Cell::Ref(y)) => {
                self.charge(1)?;
                return Ok(x == y);
            }
            (Cell::Atom(x), Cell::Atom(y)) => {
                self.charge(1)?;
                return Ok(x == y);
            }
            (Cell::Int(x), Cell::Int(y)) => {
                self.charge(1)?;
                return Ok(x == y);
            }
            (Cell::Float(x), Cell::Float(y)) => {
                self.charge(1)?;
                return Ok(x.to_bits() == y.to_bits());
            }
            (x, y) if std::mem::discriminant(&x) != std::mem::discriminant(&y) => {
                self.charge(1)?;
                return Ok(false);
            }
            _ => {}
        }
        // Charged per pair pushed, as unification is.
        self.charge(1)?;
        let mut stack = vec![(a, b)];
        while let Some((a, b)) = stack.pop() {
            let a = self.deref(a);
            let b = self.deref(b);
            let same = match (a, b) {
                (Cell::Ref(x), Cell::Ref(y)) => x == y,
                (Cell::Atom(x), Cell::Atom(y)) => x == y,
                (Cell::Int(x), Cell::Int(y)) => x == y,
                (Cell::Float(x), Cell::Float(y)) => x.to_bits() == y.to_bits(),
                (Cell::Big(x), Cell::Big(y)) => self.same_big(x, y)?,
                (Cell::Str(p), Cell::Str(q)) => {
                    if p != q {
                        match (self.heap[p as usize], self.heap[q as usize]) {
                            (Cell::Functor(f, n), Cell::Functor(g, m)) if f == g && n == m => {
                                self.charge(u64::from(n))?;
                                for i in (1..=n).rev() {
                                    stack.push((
                                        self.heap[(p + i) as usize],
                                        self.heap[(q + i) as usize],
                                    ));
                                }
                            }
                            _ => return Ok(false),
                        }
                    }
                    true
                }
                _ => false,
            };
            if !same {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Builds template term `t` (from `arena`) on the heap, with `vars`
    /// holding where each template variable already is.
    pub(crate) fn build(
        &mut self,
        arena: &[Cell],
        t: Cell,
        vars: &mut VarMap,
    ) -> Result<Cell, Fallback> {
        match t {
            Cell::Ref(i) => match vars[i as usize] {
                Some(c) => Ok(c),
                None => {
                    let v = self.new_var()?;
                    vars[i as usize] = Some(v);
                    Ok(v)
                }
            },
            Cell::Str(p) => {
                let root = self.new_var()?;
                let Cell::Ref(slot) = root else {
                    return Err(Fallback::new("internal", "new_var"));
                };
                self.build_into(arena, p, slot, vars)?;
                Ok(self.heap[slot as usize])
            }
            other => Ok(other),
        }
    }

    /// Builds the template compound at `arena[p]` and stores it at heap `slot`.
    fn build_into(
        &mut self,
        arena: &[Cell],
        p: u32,
        slot: u32,
        vars: &mut VarMap,
    ) -> Result<(), Fallback> {
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        pending.push((p, slot));
        let result = self.build_pending(arena, &mut pending, vars);
        self.pending = pending;
        result
    }

    fn build_pending(
        &mut self,
        arena: &[Cell],
        pending: &mut Vec<(u32, u32)>,
        vars: &mut VarMap,
    ) -> Result<(), Fallback> {
        while let Some((p, slot)) = pending.pop() {
            let Cell::Functor(name, n) = arena[p as usize] else {
                return Err(Fallback::new("internal", "bad template"));
            };
            self.charge(n as u64 + 1)?;
            self.check_heap(n as usize + 1)?;
            let at = self.heap.len() as u32;
            self.heap.push(Cell::Functor(name, n));
            // Arguments are built left to right (the first popped first),
            // so variables get addresses in the order they were written:
            // the standard order of fresh variables depends on it.
            let first_pending = pending.len();
            for i in 1..=n {
                let arg_slot = at + i;
                let cell = match arena[(p + i) as usize] {
                    Cell::Ref(v) => match vars[v as usize] {
                        Some(c) => c,
                        None => {
                            let c = Cell::Ref(arg_slot);
                            vars[v as usize] = Some(c);
                            c
                        }
                    },
                    Cell::Str(q) => {
                        pending.push((q, arg_slot));
                        Cell::Ref(arg_slot) // placeholder, overwritten when built
                    }
                    other => other,
                };
                self.heap.push(cell);
            }
            pending[first_pending..].reverse();
            self.heap[slot as usize] = Cell::Str(at);
        }
        Ok(())
    }

    /// Unifies template term `t` with heap term `h` without building the
    /// parts that match existing structure.
    pub(crate) fn unify_template(
        &mut self,
        arena: &[Cell],
        t: Cell,
        h: Cell,
        vars: &mut VarMap,
    ) -> Result<bool, Fallback> {
        // Most calls meet a clause head whose arguments are atomic or
        // variables: those are unified here, left to right and charged as
        // the general loop charges them, and the general loop takes over
        // at the first compound argument.
        let mut stack = std::mem::take(&mut self.template_stack);
        stack.clear();
        let (Cell::Str(p), Cell::Str(q)) = (t, self.deref(h)) else {
            self.charge(1)?;
            stack.push((t, h));
            return self.unify_template_stack(arena, stack, vars);
        };
        self.charge(1)?;
        let (Cell::Functor(f, n), Cell::Functor(g, m)) = (arena[p as usize], self.heap[q as usize])
        else {
            return Ok(false);
        };
        if f != g || n != m {
            return Ok(false);
        }
        for i in 1..=n {
            let (t, h) = (arena[(p + i) as usize], self.heap[(q + i) as usize]);
            if matches!(t, Cell::Str(_)) {
                // The pairs pushed are charged here, not when popped.
                self.charge(u64::from(n - i + 1))?;
                for j in (i..=n).rev() {
                    stack.push((arena[(p + j) as usize], self.heap[(q + j) as usize]));
                }
                return self.unify_template_stack(arena, stack, vars);
            }
            self.charge(1)?;
            if !self.unify_template_leaf(t, h, vars)? {
                self.template_stack = stack;
                return Ok(false);
            }
        }
        self.template_stack = stack;
        Ok(true)
    }

    /// The general loop on `stack` (the last pair is unified first), which
    /// is then kept for the next call.
    fn unify_template_stack(
        &mut self,
        arena: &[Cell],
        mut stack: Vec<(Cell, Cell)>,
        vars: &mut VarMap,
    ) -> Result<bool, Fallback> {
        let result = self.unify_template_pairs(arena, &mut stack, vars);
        self.template_stack = stack;
        result
    }

    /// Unifies a template variable or atomic cell `t` with heap term `h`.
    fn unify_template_leaf(
        &mut self,
        t: Cell,
        h: Cell,
        vars: &mut VarMap,
    ) -> Result<bool, Fallback> {
        match t {
            Cell::Ref(i) => match vars[i as usize] {
                None => {
                    let h = self.deref(h);
                    vars[i as usize] = Some(h);
                    Ok(true)
                }
                Some(c) => self.unify(c, h),
            },
            atomic => {
                let h = self.deref(h);
                Ok(match (atomic, h) {
                    (_, Cell::Ref(a)) => {
                        self.bind(a, atomic);
                        true
                    }
                    (Cell::Atom(x), Cell::Atom(y)) => x == y,
                    (Cell::Int(x), Cell::Int(y)) => x == y,
                    (Cell::Float(x), Cell::Float(y)) => x.to_bits() == y.to_bits(),
                    (Cell::Big(x), Cell::Big(y)) => self.same_big(x, y)?,
                    _ => false,
                })
            }
        }
    }

    fn unify_template_pairs(
        &mut self,
        arena: &[Cell],
        stack: &mut Vec<(Cell, Cell)>,
        vars: &mut VarMap,
    ) -> Result<bool, Fallback> {
        // Each pair was charged when pushed: a head of a huge arity that
        // differs early costs what was pushed.
        while let Some((t, h)) = stack.pop() {
            match t {
                Cell::Str(p) => {
                    let h = self.deref(h);
                    match h {
                        Cell::Ref(a) => {
                            let built = self.build(arena, t, vars)?;
                            self.bind(a, built);
                        }
                        Cell::Str(q) => {
                            let (Cell::Functor(f, n), Cell::Functor(g, m)) =
                                (arena[p as usize], self.heap[q as usize])
                            else {
                                return Ok(false);
                            };
                            if f != g || n != m {
                                return Ok(false);
                            }
                            self.charge(u64::from(n))?;
                            for i in (1..=n).rev() {
                                stack.push((arena[(p + i) as usize], self.heap[(q + i) as usize]));
                            }
                        }
                        _ => return Ok(false),
                    }
                }
                leaf => {
                    if !self.unify_template_leaf(leaf, h, vars)? {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// Copies heap term `h` into `arena` as a template (variables numbered
    /// from 0 in order of appearance); returns the root cell and the number
    /// of variables. Used for findall results and copy_term.
    pub(crate) fn copy_out(
        &mut self,
        h: Cell,
        arena: &mut Vec<Cell>,
    ) -> Result<(Cell, u32), Fallback> {
        let cell = self.deref(h);
        if !matches!(cell, Cell::Ref(_) | Cell::Str(_)) {
            // An atomic result (as findall's usual template): one cell.
            arena.push(cell);
            self.hold(CELL_BYTES)?;
            return Ok((cell, 0));
        }
        let mut var_ids: HashMap<u32, u32> = HashMap::new();
        let mut pending: Vec<(u32, u32)> = Vec::new(); // (heap str addr, arena slot)
        let root_slot = arena.len() as u32;
        arena.push(Cell::Atom(NIL));
        self.hold(CELL_BYTES)?;
        let mut todo = vec![(h, root_slot)];
        loop {
            let (cell, slot) = if let Some(x) = todo.pop() {
                x
            } else if let Some((p, slot)) = pending.pop() {
                let Cell::Functor(name, n) = self.heap[p as usize] else {
                    return Err(Fallback::new("internal", "bad heap"));
                };
                self.charge(n as u64 + 1)?;
                // Counted before it grows: the copy is held until the
                // collection ends (see `Machine::finish_collect`).
                self.hold((n as usize + 1) * CELL_BYTES)?;
                let at = arena.len() as u32;
                arena.push(Cell::Functor(name, n));
                for i in 1..=n {
                    arena.push(Cell::Atom(NIL));
                    todo.push((self.heap[(p + i) as usize], at + i));
                }
                arena[slot as usize] = Cell::Str(at);
                continue;
            } else {
                break;
            };
            let cell = self.deref(cell);
            let out = match cell {
                Cell::Ref(a) => {
                    let next = var_ids.len() as u32;
                    Cell::Ref(*var_ids.entry(a).or_insert(next))
                }
                Cell::Str(p) => {
                    pending.push((p, slot));
                    continue;
                }
                other => other,
            };
            arena[slot as usize] = out;
        }
        let root = arena[root_slot as usize];
        Ok((root, var_ids.len() as u32))
    }
}

/// A fast hasher for the engine's integer-keyed maps (predicate and
/// first-argument keys, built-ins): one multiply per word instead of
/// SipHash, since every call looks predicates up. Those keys are atom ids
/// and numbers; a hypothesis adds at most a few predicates and index keys,
/// so crafted collisions could not cost much.
#[derive(Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    /// The multiply carries only upward, so a table's bucket (the low bits)
    /// would depend on a key's first bytes alone: the well-mixed high bits
    /// are rotated down.
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        let word = |at: usize| {
            let mut word = [0u8; 8];
            word.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(word)
        };
        let half = |at: usize| {
            let mut half = [0u8; 4];
            half.copy_from_slice(&bytes[at..at + 4]);
            u64::from(u32::from_le_bytes(half))
        };
        // Most keys are names shorter than 16 bytes: read them as at most
        // two overlapping fixed-size loads, not byte by byte. The length
        // goes in too, so overlapping reads of different lengths differ.
        self.write_u64(n as u64);
        match n {
            0 => {}
            1..=3 => self.write_u64(
                u64::from(bytes[0]) | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]) << 16,
            ),
            4..=7 => self.write_u64(half(0) | half(n - 4) << 32),
            _ => {
                let mut at = 0;
                while at + 8 < n {
                    self.write_u64(word(at));
                    at += 8;
                }
                self.write_u64(word(n - 8));
            }
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }
}

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;

/// The hasher of first-argument indexes: [`FastHasher`] started from a
/// random seed of the process and finished by a full avalanche (murmur3's
/// fmix64). An answer picks its own keys, and [`FastHasher`] can be
/// inverted: 40,000 facts with integers chosen to collide took 1.9 s to
/// index (0.1 s for consecutive ones), work no budget counts.
#[derive(Clone, Copy)]
pub(crate) struct IndexHashing {
    seed: u64,
}

impl Default for IndexHashing {
    fn default() -> IndexHashing {
        static SEED: once_cell::race::OnceBox<u64> = once_cell::race::OnceBox::new();
        let seed = *SEED.get_or_init(|| {
            use std::hash::BuildHasher;
            Box::new(std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64))
        });
        IndexHashing { seed }
    }
}

impl std::hash::BuildHasher for IndexHashing {
    type Hasher = IndexHasher;

    fn build_hasher(&self) -> IndexHasher {
        IndexHasher(FastHasher(self.seed))
    }
}

/// See [`IndexHashing`].
pub(crate) struct IndexHasher(FastHasher);

impl std::hash::Hasher for IndexHasher {
    fn finish(&self) -> u64 {
        let mut x = self.0 .0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }

    fn write_u8(&mut self, n: u8) {
        self.0.write_u8(n);
    }

    fn write_u32(&mut self, n: u32) {
        self.0.write_u32(n);
    }

    fn write_u64(&mut self, n: u64) {
        self.0.write_u64(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.0.write_usize(n);
    }

    fn write_i64(&mut self, n: i64) {
        self.0.write_i64(n);
    }
}

//! The solver: a goal stack and a choice-point stack in vectors (no Rust
//! recursion), clause resolution with first-argument indexing, control
//! constructs, and the built-ins the judge's whitelist admits.
//!
//! Continuations are frames in an arena, each pointing to an older frame,
//! so backtracking drops every frame made after the choice point at once.
//! Any error, unknown predicate or budget overrun returns a [`Fallback`]:
//! this engine only answers when it is sure.

use super::arith::{self, Num};
use super::compile::{key_of, Db};
use super::order;
use super::term::is_string_tag;
use super::term::{
    AtomTable, Atoms, Cell, FastMap, Limits, Store, VarMap, ARROW, CARET, CELL_BYTES, COMMA, DOT,
    EQUAL, FAIL, GREATER, LESS, LIST_NAME, MINUS, NIL, NOT, SOFT_ARROW, TRUE, X,
};
use super::Fallback;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashSet;

#[path = "builtins.rs"]
mod builtins;
#[path = "format.rs"]
mod format;
#[path = "library.rs"]
mod library;
use builtins::Ext;
use library::Lib;

const NONE: u32 = u32::MAX;

/// Built-in predicates and control constructs, by what they do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    Conj,
    True,
    Fail,
    Cut,
    Or,
    IfThen,
    SoftIfThen,
    Not,
    Call,
    Findall,
    Findall4,
    Forall,
    AggregateAll,
    Setof,
    Bagof,
    Once,
    Ignore,
    JudgeArith,
    Undefined,
    Unify,
    NotUnify,
    Identical,
    NotIdentical,
    TermLess,
    TermGreater,
    TermLessEq,
    TermGreaterEq,
    Compare,
    UnifyOccursCheck,
    Var,
    Nonvar,
    Atom,
    Number,
    Integer,
    Float,
    Atomic,
    Compound,
    Callable,
    IsList,
    Ground,
    Is,
    ArithEq,
    ArithNe,
    ArithLt,
    ArithGt,
    ArithLe,
    ArithGe,
    Length,
    Msort,
    Sort2,
    Sort4,
    Keysort,
    ListToSet,
    SumList,
    MaxList,
    MinList,
    Numlist,
    Succ,
    CopyTerm,
    Functor,
    Arg,
    Univ,
    MustBeList,
    BetweenCheck,
    NthIndex,
    PermCheck,
    Variant,
    /// A built-in of `builtins.rs`.
    Ext(Ext),
    Lib(Lib),
}

/// The built-in table, keyed by (name id, arity) in `atoms`.
pub(crate) fn builtin_table(atoms: &mut AtomTable) -> FastMap<(u32, u32), Builtin> {
    use super::term::Intern;
    use Builtin::*;
    let mut entries: Vec<(&str, u32, Builtin)> = vec![
        (",", 2, Conj),
        ("true", 0, True),
        ("fail", 0, Fail),
        ("false", 0, Fail),
        ("!", 0, Cut),
        (";", 2, Or),
        ("->", 2, IfThen),
        ("*->", 2, SoftIfThen),
        ("\\+", 1, Not),
        ("not", 1, Not),
        ("findall", 3, Findall),
        ("findall", 4, Findall4),
        ("forall", 2, Forall),
        ("aggregate_all", 3, AggregateAll),
        ("setof", 3, Setof),
        ("bagof", 3, Bagof),
        ("once", 1, Once),
        ("ignore", 1, Ignore),
        ("$judge_arith", 3, JudgeArith),
        ("$judge_undefined", 2, Undefined),
        ("=", 2, Unify),
        ("\\=", 2, NotUnify),
        ("==", 2, Identical),
        ("\\==", 2, NotIdentical),
        ("@<", 2, TermLess),
        ("@>", 2, TermGreater),
        ("@=<", 2, TermLessEq),
        ("@>=", 2, TermGreaterEq),
        ("compare", 3, Compare),
        ("unify_with_occurs_check", 2, UnifyOccursCheck),
        ("var", 1, Var),
        ("nonvar", 1, Nonvar),
        ("atom", 1, Atom),
        ("number", 1, Number),
        ("integer", 1, Integer),
        ("float", 1, Float),
        ("atomic", 1, Atomic),
        ("compound", 1, Compound),
        ("callable", 1, Callable),
        ("is_list", 1, IsList),
        ("ground", 1, Ground),
        ("is", 2, Is),
        ("=:=", 2, ArithEq),
        ("=\\=", 2, ArithNe),
        ("<", 2, ArithLt),
        (">", 2, ArithGt),
        ("=<", 2, ArithLe),
        (">=", 2, ArithGe),
        ("length", 2, Length),
        ("msort", 2, Msort),
        ("sort", 2, Sort2),
        ("sort", 4, Sort4),
        ("keysort", 2, Keysort),
        ("list_to_set", 2, ListToSet),
        ("sum_list", 2, SumList),
        ("sumlist", 2, SumList),
        ("max_list", 2, MaxList),
        ("min_list", 2, MinList),
        ("numlist", 3, Numlist),
        ("succ", 2, Succ),
        ("copy_term", 2, CopyTerm),
        ("functor", 3, Functor),
        ("arg", 3, Arg),
        ("=..", 2, Univ),
        ("$must_be_list", 1, MustBeList),
        ("$between_check", 3, BetweenCheck),
        ("$nth_index", 2, NthIndex),
        ("$perm_check", 2, PermCheck),
        ("=@=", 2, Variant),
    ];
    for n in 1..=8u32 {
        entries.push(("call", n, Call));
    }
    entries.extend(
        builtins::TABLE
            .iter()
            .map(|&(name, arity, ext)| (name, arity, Ext(ext))),
    );
    entries.extend(
        library::TABLE
            .iter()
            .map(|&(name, arity, lib)| (name, arity, Lib(lib))),
    );
    entries
        .into_iter()
        .map(|(name, arity, b)| ((atoms.intern(name), arity), b))
        .collect()
}

#[derive(Debug, Clone, Copy)]
enum Goal {
    Call(Cell),
    /// Removes the choice points from this height on (the `->` commit).
    CutTo(u32),
    /// Disables the else branch of a `*->` at this height.
    SoftCut(u32),
    /// Records a findall solution, then fails.
    Collect(Cell, u32),
    Fail,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    goal: Goal,
    /// Choice-point height a `!` in this goal cuts back to.
    cut: u32,
    next: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Agg {
    Bag,
    Set,
    Count,
    Sum,
    Max,
    Min,
    /// aggregate_all(max(X, W)) / min: the result's functor name.
    MaxWitness(u32),
    MinWitness(u32),
    /// bagof/setof without free variables: fail on no solutions.
    BagNonEmpty,
    SetNonEmpty,
}

#[derive(Debug, Clone, Copy)]
enum Alt {
    Clauses {
        goal: Cell,
        layer: u8,
        pred: u32,
        list: u32,
        pos: u32,
    },
    Goal {
        goal: Cell,
        cut: u32,
    },
    Collect {
        slot: u32,
        result: Cell,
        tail: Option<Cell>,
        agg: Agg,
    },
    Disabled,
}

#[derive(Debug, Clone, Copy)]
struct ChoicePoint {
    alt: Alt,
    /// How many delayed `dif/2` constraints there were.
    difs: u32,
    trail: u32,
    heap: u32,
    frames: u32,
    cont: u32,
}

#[derive(Debug, Default)]
struct Collector {
    arena: Vec<Cell>,
    roots: Vec<(Cell, u32)>,
}

/// One evaluation's machine over a base (background and library) and a
/// hypothesis layer.
pub(crate) struct Machine<'a> {
    base: &'a Db,
    /// The compiled library, beneath the base.
    library: &'a Db,
    hyp: &'a Db,
    pub(crate) atoms: Atoms<'a>,
    builtins: &'a FastMap<(u32, u32), Builtin>,
    pub(crate) store: Store,
    frames: Vec<Frame>,
    cps: Vec<ChoicePoint>,
    cont: u32,
    collectors: Vec<Collector>,
    /// Delayed `dif/2` constraints: pairs of terms that must not become
    /// identical (undone on backtracking, see [`ChoicePoint::difs`]).
    difs: Vec<(Cell, Cell)>,
    /// [`Store::binds`] when the constraints were last checked.
    difs_checked: u64,
    steps: u64,
    step_limit: u64,
    /// Steps of the goals already run in this evaluation, and the cap on
    /// all of them together: the fallback also has a wall-clock cap per
    /// evaluation, which many goals near their own budget could approach.
    spent: u64,
    total_limit: u64,
    vars: VarMap,
}

fn error(detail: &str) -> Fallback {
    Fallback::new("error", detail)
}

/// The vectors a machine grows, kept per thread between evaluations, so
/// that an evaluation neither regrows them nor faults in fresh pages.
#[derive(Default)]
struct Spare {
    heap: Vec<Cell>,
    trail: Vec<u32>,
    frames: Vec<Frame>,
    cps: Vec<ChoicePoint>,
}

thread_local! {
    static SPARE: RefCell<Spare> = RefCell::new(Spare::default());
}

/// Bytes each kept vector may hold on to between evaluations, so one huge
/// evaluation does not keep its memory for ever.
const SPARE_BYTES: usize = 8 << 20;

/// `v` emptied, its capacity cut to [`SPARE_BYTES`].
fn spare<T>(mut v: Vec<T>) -> Vec<T> {
    v.clear();
    v.shrink_to(SPARE_BYTES / std::mem::size_of::<T>().max(1));
    v
}

impl Drop for Machine<'_> {
    fn drop(&mut self) {
        let kept = Spare {
            heap: spare(std::mem::take(&mut self.store.heap)),
            trail: spare(std::mem::take(&mut self.store.trail)),
            frames: spare(std::mem::take(&mut self.frames)),
            cps: spare(std::mem::take(&mut self.cps)),
        };
        // During thread teardown the pool may be gone: then nothing is kept.
        let _ = SPARE.try_with(|s| *s.borrow_mut() = kept);
    }
}

impl<'a> Machine<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        base: &'a Db,
        library: &'a Db,
        hyp: &'a Db,
        atoms: Atoms<'a>,
        builtins: &'a FastMap<(u32, u32), Builtin>,
        step_limit: u64,
        total_limit: u64,
        memory_limit: usize,
    ) -> Machine<'a> {
        let spare = SPARE.with(RefCell::take);
        let limits = Limits {
            work: super::work_budget(step_limit),
            total_work: super::work_budget(total_limit),
            memory: memory_limit,
        };
        Machine {
            base,
            library,
            hyp,
            atoms,
            builtins,
            store: Store::new(limits, spare.heap, spare.trail, hyp.bigs.clone()),
            frames: spare.frames,
            cps: spare.cps,
            cont: NONE,
            collectors: Vec::new(),
            difs: Vec::new(),
            difs_checked: 0,
            steps: 0,
            step_limit,
            spent: 0,
            total_limit,
            vars: Vec::new(),
        }
    }

    /// Layer 0 is the hypothesis, 1 the background, 2 the library.
    fn db(&self, layer: u8) -> &'a Db {
        match layer {
            0 => self.hyp,
            1 => self.base,
            _ => self.library,
        }
    }

    /// Runs the template goal `goal` (from the hypothesis arena) once:
    /// whether it has a solution.
    pub(crate) fn solve_template(&mut self, goal: Cell, nvars: u32) -> Result<bool, Fallback> {
        self.store.start_goal();
        self.atoms.forget_made();
        self.frames.clear();
        self.cps.clear();
        self.collectors.clear();
        self.difs.clear();
        self.spent += self.steps;
        self.steps = 0;
        let mut vars: VarMap = vec![None; nvars as usize];
        let goal = self.store.build(&self.hyp.templates, goal, &mut vars)?;
        self.cont = self.push_frame(Goal::Call(goal), 0, NONE);
        loop {
            // Delayed dif/2 goals wake up after any binding, before the
            // next goal runs (as SWI's attributed variables do).
            if !self.difs.is_empty() && self.store.binds != self.difs_checked {
                if !self.difs_hold()? && !self.backtrack()? {
                    return Ok(false);
                }
                continue;
            }
            if self.cont == NONE {
                return Ok(true);
            }
            let frame = self.frames[self.cont as usize];
            self.cont = frame.next;
            let ok = match frame.goal {
                Goal::Call(g) => self.call(g, frame.cut)?,
                Goal::CutTo(height) => {
                    self.cps.truncate(height as usize);
                    true
                }
                Goal::SoftCut(height) => {
                    if let Some(cp) = self.cps.get_mut(height as usize) {
                        cp.alt = Alt::Disabled;
                    }
                    true
                }
                Goal::Collect(template, slot) => {
                    self.collect(template, slot)?;
                    false
                }
                Goal::Fail => false,
            };
            if !ok && !self.backtrack()? {
                return Ok(false);
            }
        }
    }

    /// Whether every delayed `dif/2` still holds: none has become an
    /// identity. Charged for the terms compared.
    fn difs_hold(&mut self) -> Result<bool, Fallback> {
        for i in 0..self.difs.len() {
            let (a, b) = self.difs[i];
            if self.store.identical(a, b)? {
                return Ok(false);
            }
        }
        self.difs_checked = self.store.binds;
        Ok(true)
    }

    /// Runs `goal` next (opaque to cut, as a call/1).
    fn call_next(&mut self, goal: Cell) {
        let height = self.cps.len() as u32;
        self.cont = self.push_frame(Goal::Call(goal), height, self.cont);
    }

    /// Steps the last goal used, and all goals so far together.
    pub(crate) fn steps_used(&self) -> (u64, u64) {
        (self.steps, self.spent + self.steps)
    }

    fn push_frame(&mut self, goal: Goal, cut: u32, next: u32) -> u32 {
        let at = self.frames.len() as u32;
        self.frames.push(Frame { goal, cut, next });
        at
    }

    fn push_cp(&mut self, alt: Alt) {
        self.cps.push(ChoicePoint {
            alt,
            difs: self.difs.len() as u32,
            trail: self.store.trail.len() as u32,
            heap: self.store.heap.len() as u32,
            frames: self.frames.len() as u32,
            cont: self.cont,
        });
    }

    /// Resumes the newest alternative; `false` when there is none left.
    fn backtrack(&mut self) -> Result<bool, Fallback> {
        loop {
            let Some(&cp) = self.cps.last() else {
                return Ok(false);
            };
            self.store.undo_to(cp.trail as usize, cp.heap as usize);
            self.difs.truncate(cp.difs as usize);
            self.frames.truncate(cp.frames as usize);
            self.cont = cp.cont;
            match cp.alt {
                Alt::Disabled => {
                    self.cps.pop();
                }
                Alt::Goal { goal, cut } => {
                    self.cps.pop();
                    self.cont = self.push_frame(Goal::Call(goal), cut, cp.cont);
                    return Ok(true);
                }
                Alt::Clauses {
                    goal,
                    layer,
                    pred,
                    list,
                    pos,
                } => {
                    let barrier = self.cps.len() as u32 - 1;
                    if self.try_clauses(goal, layer, pred, list, pos, barrier, true)? {
                        return Ok(true);
                    }
                }
                Alt::Collect {
                    slot,
                    result,
                    tail,
                    agg,
                } => {
                    self.cps.pop();
                    if self.finish_collect(slot, result, tail, agg)? {
                        return Ok(true);
                    }
                }
            }
        }
    }

    fn call(&mut self, goal: Cell, cut: u32) -> Result<bool, Fallback> {
        self.charge_steps(1)?;
        let goal = self.store.deref(goal);
        let (name, arity, args) = match goal {
            Cell::Ref(_) => return Err(error("instantiation error: variable goal")),
            c => self
                .store
                .functor_of(c)
                .ok_or_else(|| error("type error: callable"))?,
        };
        if let Some(&b) = self.builtins.get(&(name, arity)) {
            return self.builtin(b, args, arity, cut);
        }
        let (layer, pred) = if let Some(p) = self.hyp.pred(name, arity) {
            (0u8, p)
        } else if let Some(p) = self.base.pred(name, arity) {
            (1u8, p)
        } else if let Some(p) = self.library.pred(name, arity) {
            (2u8, p)
        } else {
            return Err(Fallback::new(
                "unknown",
                format!("unknown procedure {}/{arity}", self.atoms.name(name)),
            ));
        };
        let key = if arity > 0 {
            let first = self.store.deref(self.store.heap[args as usize]);
            key_of(first, &self.store.heap)
        } else {
            None
        };
        let list = self.db(layer).preds[pred as usize].candidates(key);
        let barrier = self.cps.len() as u32;
        self.try_clauses(goal, layer, pred, list, 0, barrier, false)
    }

    /// Tries the candidate clauses from `pos` on. With `has_cp`, the choice
    /// point on top is this call's and the state is restored to it.
    #[allow(clippy::too_many_arguments)]
    fn try_clauses(
        &mut self,
        goal: Cell,
        layer: u8,
        pred: u32,
        list: u32,
        mut pos: u32,
        barrier: u32,
        mut has_cp: bool,
    ) -> Result<bool, Fallback> {
        let db = self.db(layer);
        let p = &db.preds[pred as usize];
        let candidates = p.list(list);
        loop {
            let Some(&id) = candidates.get(pos as usize) else {
                if has_cp {
                    self.cps.pop();
                }
                return Ok(false);
            };
            let last = pos as usize + 1 == candidates.len();
            if last {
                if has_cp {
                    self.cps.pop();
                    has_cp = false;
                }
            } else if has_cp {
                if let Some(ChoicePoint {
                    alt: Alt::Clauses { pos: next, .. },
                    ..
                }) = self.cps.last_mut()
                {
                    *next = pos + 1;
                }
            } else {
                self.push_cp(Alt::Clauses {
                    goal,
                    layer,
                    pred,
                    list,
                    pos: pos + 1,
                });
                has_cp = true;
            }
            let clause = p.clauses[id as usize];
            let (trail, heap) = (self.store.trail.len(), self.store.heap.len());
            self.vars.clear();
            self.vars.resize(clause.nvars as usize, None);
            if self
                .store
                .unify_template(&db.templates, clause.head, goal, &mut self.vars)?
            {
                if !matches!(clause.body, Cell::Atom(TRUE)) {
                    let body = self
                        .store
                        .build(&db.templates, clause.body, &mut self.vars)?;
                    self.cont = self.push_frame(Goal::Call(body), barrier, self.cont);
                }
                return Ok(true);
            }
            self.store.undo_to(trail, heap);
            if last {
                return Ok(false);
            }
            pos += 1;
        }
    }

    // The charging API for built-ins (see the module docs of `native`):
    // a built-in charges before it does or allocates what it charges for.

    /// Charges `n` steps: list built-ins charge one per element, as SWI
    /// runs most of them in Prolog at an inference or more per element.
    pub(crate) fn charge_steps(&mut self, n: usize) -> Result<(), Fallback> {
        self.steps += n as u64;
        if self.steps > self.step_limit || self.spent + self.steps > self.total_limit {
            return Err(Fallback::new("budget", "step limit exceeded"));
        }
        Ok(())
    }

    /// Charges `units` of work: cells visited, built or compared, list
    /// cells walked, big-integer words ([`Store::charge`]).
    pub(crate) fn charge_work(&mut self, units: u64) -> Result<(), Fallback> {
        self.store.charge(units)
    }

    /// Charges scanning, copying or making `bytes` of text.
    pub(crate) fn charge_text(&mut self, bytes: usize) -> Result<(), Fallback> {
        self.store.charge_text(bytes)
    }

    /// Counts `bytes` the goal holds beyond heap cells (a copy kept, a
    /// table) in the memory budget; [`Store::release`] gives them back.
    pub(crate) fn hold_memory(&mut self, bytes: usize) -> Result<(), Fallback> {
        self.store.hold(bytes)
    }

    /// A proper list's elements, charged as steps.
    fn proper_list_arg(&mut self, args: u32, i: u32) -> Result<Vec<Cell>, Fallback> {
        let items = self.store.proper_list(self.arg(args, i))?;
        self.charge_steps(items.len())?;
        Ok(items)
    }

    fn arg(&self, args: u32, i: u32) -> Cell {
        self.store.heap[(args + i) as usize]
    }

    fn deref_arg(&self, args: u32, i: u32) -> Cell {
        self.store.deref(self.arg(args, i))
    }

    fn unify(&mut self, a: Cell, b: Cell) -> Result<bool, Fallback> {
        self.store.unify(a, b)
    }

    /// `C -> T ; E` (and `\+`, `once`, `ignore` through it).
    fn if_then_else(&mut self, cond: Cell, then: Cell, otherwise: Cell, cut: u32) {
        let height = self.cps.len() as u32;
        self.push_cp(Alt::Goal {
            goal: otherwise,
            cut,
        });
        let then_frame = self.push_frame(Goal::Call(then), cut, self.cont);
        let commit = self.push_frame(Goal::CutTo(height), 0, then_frame);
        self.cont = self.push_frame(Goal::Call(cond), height + 1, commit);
    }

    fn negation(&mut self, goal: Cell) {
        let height = self.cps.len() as u32;
        self.push_cp(Alt::Goal {
            goal: Cell::Atom(TRUE),
            cut: 0,
        });
        let fail = self.push_frame(Goal::Fail, 0, NONE);
        let commit = self.push_frame(Goal::CutTo(height), 0, fail);
        self.cont = self.push_frame(Goal::Call(goal), height + 1, commit);
    }

    /// Starts a findall-like collection of `template` over `goal`.
    fn start_collect(
        &mut self,
        template: Cell,
        goal: Cell,
        result: Cell,
        tail: Option<Cell>,
        agg: Agg,
    ) {
        let slot = self.collectors.len() as u32;
        self.collectors.push(Collector::default());
        self.push_cp(Alt::Collect {
            slot,
            result,
            tail,
            agg,
        });
        let collect = self.push_frame(Goal::Collect(template, slot), 0, NONE);
        let height = self.cps.len() as u32;
        self.cont = self.push_frame(Goal::Call(goal), height, collect);
    }

    fn collect(&mut self, template: Cell, slot: u32) -> Result<(), Fallback> {
        let Some(collector) = self.collectors.get_mut(slot as usize) else {
            return Err(Fallback::new("internal", "collector"));
        };
        let mut arena = std::mem::take(&mut collector.arena);
        let copied = self.store.copy_out(template, &mut arena);
        let collector = &mut self.collectors[slot as usize];
        collector.arena = arena;
        let (root, nvars) = copied?;
        collector.roots.push((root, nvars));
        Ok(())
    }

    fn finish_collect(
        &mut self,
        slot: u32,
        result: Cell,
        tail: Option<Cell>,
        agg: Agg,
    ) -> Result<bool, Fallback> {
        let collector = match self.collectors.get_mut(slot as usize) {
            Some(c) => std::mem::take(c),
            None => return Err(Fallback::new("internal", "collector")),
        };
        self.collectors.truncate(slot as usize);
        // The copies are rebuilt on the heap (counted there) and dropped.
        self.store.release(collector.arena.len() * CELL_BYTES);
        self.charge_steps(collector.roots.len())?;
        let mut items = Vec::with_capacity(collector.roots.len());
        if agg != Agg::Count {
            for &(root, nvars) in &collector.roots {
                let mut vars: VarMap = vec![None; nvars as usize];
                items.push(self.store.build(&collector.arena, root, &mut vars)?);
            }
        }
        let value = match agg {
            Agg::Count => Cell::Int(collector.roots.len() as i64),
            Agg::Bag => self
                .store
                .make_list(&items, tail.unwrap_or(Cell::Atom(NIL)))?,
            Agg::BagNonEmpty => {
                if items.is_empty() {
                    return Ok(false);
                }
                self.store.make_list(&items, Cell::Atom(NIL))?
            }
            Agg::Set | Agg::SetNonEmpty => {
                if items.is_empty() && agg == Agg::SetNonEmpty {
                    return Ok(false);
                }
                let sorted = self.sort_terms(items, true)?;
                self.store.make_list(&sorted, Cell::Atom(NIL))?
            }
            Agg::Sum => {
                let mut total = Num::Int(0);
                for item in items {
                    let v = arith::eval(&mut self.store, &self.atoms, item)?;
                    total = arith::add(&mut self.store, total, v)?;
                }
                total.cell(&mut self.store)?
            }
            Agg::Max | Agg::Min => match self.extreme(&items, agg == Agg::Max)? {
                Some(v) => v,
                // No solutions: SWI unifies its state (the template) with
                // the result and succeeds when that is bound.
                None => {
                    let Some(t) = tail else {
                        return Ok(false);
                    };
                    let unified = self.unify(t, result)?;
                    return Ok(unified && !matches!(self.store.deref(t), Cell::Ref(_)));
                }
            },
            Agg::MaxWitness(name) | Agg::MinWitness(name) => {
                let max = matches!(agg, Agg::MaxWitness(_));
                match self.extreme_witness(&items, max)? {
                    Some(pair) => {
                        let Some((_, 2, a)) = self.store.functor_of(pair) else {
                            return Err(Fallback::new("internal", "witness pair"));
                        };
                        let (x, w) = (self.arg(a, 0), self.arg(a, 1));
                        self.store.compound(name, &[x, w])?
                    }
                    None => return Ok(false),
                }
            }
        };
        self.unify(result, value)
    }

    /// The largest (or smallest) of `items` by arithmetic `max`/`min`
    /// (each evaluated, as SWI's `is` does); `None` for no items.
    fn extreme(&mut self, items: &[Cell], max: bool) -> Result<Option<Cell>, Fallback> {
        let mut best: Option<Num> = None;
        for &item in items {
            let v = arith::eval(&mut self.store, &self.atoms, item)?;
            best = Some(match best {
                None => v,
                Some(b) => arith::max_min(&mut self.store, max, b, v)?,
            });
        }
        best.map(|b| b.cell(&mut self.store)).transpose()
    }

    /// aggregate_all(max(X, W)) and min: the first witness of the extreme
    /// value; every X must be a number.
    fn extreme_witness(&mut self, items: &[Cell], max: bool) -> Result<Option<Cell>, Fallback> {
        let mut best: Option<(Num, Cell, Cell)> = None;
        for &item in items {
            let Some((MINUS, 2, a)) = self.store.functor_of(self.store.deref(item)) else {
                return Err(Fallback::new("internal", "witness pair"));
            };
            let (x, w) = (self.arg(a, 0), self.arg(a, 1));
            // The first X must be a number; later ones are compared with
            // `>` / `<`, which evaluates them (and keeps them unevaluated).
            let v = match (self.store.deref(x), &best) {
                (Cell::Int(i), _) => Num::Int(i),
                (Cell::Float(f), _) => Num::Float(f),
                (Cell::Big(b), _) => {
                    // Copied, and compared with the best so far: its size.
                    let value = self.store.bigs[b as usize].clone();
                    self.store.charge(value.bits() / 64 + 1)?;
                    Num::Big(value)
                }
                (_, None) => return Err(Fallback::raise("type_error(number) in aggregate_all/3")),
                (_, Some(_)) => arith::eval(&mut self.store, &self.atoms, x)?,
            };
            let better = match &best {
                None => true,
                Some((b, _, _)) => {
                    let o = arith::compare(&v, b)?;
                    if max {
                        o == Ordering::Greater
                    } else {
                        o == Ordering::Less
                    }
                }
            };
            if better {
                best = Some((v, x, w));
            }
        }
        Ok(best
            .map(|(_, x, w)| (x, w))
            .map(|(x, w)| {
                // Rebuilt by the caller as max(X, W) / min(X, W).
                self.store.compound(MINUS, &[x, w])
            })
            .transpose()?)
    }

    /// Sorts in standard order (stable); `dedup` removes equal neighbours.
    fn sort_terms(&mut self, items: Vec<Cell>, dedup: bool) -> Result<Vec<Cell>, Fallback> {
        let atoms = &self.atoms;
        let store = &mut self.store;
        let items = order::stable_sort(items, |a, b| order::compare(store, atoms, a, b))?;
        if dedup {
            let mut out: Vec<Cell> = Vec::with_capacity(items.len());
            for item in items {
                match out.last() {
                    Some(&prev)
                        if order::compare(&mut self.store, atoms, prev, item)?
                            == Ordering::Equal => {}
                    _ => out.push(item),
                }
            }
            return Ok(out);
        }
        Ok(items)
    }

    /// `None` when an operand is NaN.
    fn arith_compare(&mut self, args: u32, first: u32) -> Result<Option<Ordering>, Fallback> {
        let (x, y) = (self.arg(args, first), self.arg(args, first + 1));
        let a = arith::eval(&mut self.store, &self.atoms, x)?;
        let b = arith::eval(&mut self.store, &self.atoms, y)?;
        Ok(arith::compare_numbers(&a, &b))
    }

    fn term_compare(&mut self, args: u32) -> Result<Ordering, Fallback> {
        let (a, b) = (self.arg(args, 0), self.arg(args, 1));
        order::compare(&mut self.store, &self.atoms, a, b)
    }

    /// The distinct variables of a term (addresses), in depth-first,
    /// left-to-right order of first occurrence.
    fn ordered_variables(&mut self, term: Cell) -> Result<Vec<u32>, Fallback> {
        let (mut seen, mut out) = (HashSet::new(), Vec::new());
        let mut stack = vec![term];
        while let Some(t) = stack.pop() {
            self.store.charge(1)?;
            match self.store.deref(t) {
                Cell::Ref(a) => {
                    if seen.insert(a) {
                        out.push(a);
                    }
                }
                Cell::Str(p) => {
                    if let Cell::Functor(_, n) = self.store.heap[p as usize] {
                        for i in (1..=n).rev() {
                            stack.push(self.store.heap[(p + i) as usize]);
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// Whether two terms are variants (`=@=`): equal up to a one-to-one
    /// renaming of their variables.
    fn variant(&mut self, a: Cell, b: Cell) -> Result<bool, Fallback> {
        let (mut left, mut right) = (FastMap::default(), FastMap::default());
        // Charged per pair pushed, as unification is.
        self.store.charge(1)?;
        let mut stack = vec![(a, b)];
        while let Some((a, b)) = stack.pop() {
            match (self.store.deref(a), self.store.deref(b)) {
                (Cell::Ref(x), Cell::Ref(y)) => {
                    if *left.entry(x).or_insert(y) != y || *right.entry(y).or_insert(x) != x {
                        return Ok(false);
                    }
                }
                (x @ Cell::Str(p), y @ Cell::Str(q)) => {
                    match (self.store.heap[p as usize], self.store.heap[q as usize]) {
                        (Cell::Functor(f, n), Cell::Functor(g, m)) if f == g && n == m => {
                            if is_string_tag(f, n) {
                                if !self.store.identical(x, y)? {
                                    return Ok(false);
                                }
                                continue;
                            }
                            self.store.charge(u64::from(n))?;
                            for i in 1..=n {
                                stack.push((
                                    self.store.heap[(p + i) as usize],
                                    self.store.heap[(q + i) as usize],
                                ));
                            }
                        }
                        _ => return Ok(false),
                    }
                }
                (Cell::Ref(_), _) | (_, Cell::Ref(_)) | (Cell::Str(_), _) | (_, Cell::Str(_)) => {
                    return Ok(false)
                }
                (x, y) => {
                    if !self.store.identical(x, y)? {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// The variables of a term (addresses).
    fn variables(&mut self, term: Cell, into: &mut HashSet<u32>) -> Result<(), Fallback> {
        let mut stack = vec![term];
        while let Some(t) = stack.pop() {
            self.store.charge(1)?;
            match self.store.deref(t) {
                Cell::Ref(a) => {
                    into.insert(a);
                }
                Cell::Str(p) => {
                    if let Cell::Functor(_, n) = self.store.heap[p as usize] {
                        for i in 1..=n {
                            stack.push(self.store.heap[(p + i) as usize]);
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn builtin(&mut self, b: Builtin, args: u32, arity: u32, cut: u32) -> Result<bool, Fallback> {
        use Builtin as B;
        match b {
            B::Conj => {
                let second = self.push_frame(Goal::Call(self.arg(args, 1)), cut, self.cont);
                self.cont = self.push_frame(Goal::Call(self.arg(args, 0)), cut, second);
                Ok(true)
            }
            B::True => Ok(true),
            B::Fail => Ok(false),
            B::Cut => {
                self.cps.truncate(cut as usize);
                Ok(true)
            }
            B::Or => {
                let left = self.deref_arg(args, 0);
                let right = self.arg(args, 1);
                match self.store.functor_of(left) {
                    Some((ARROW, 2, a)) => {
                        let (c, t) = (self.arg(a, 0), self.arg(a, 1));
                        self.if_then_else(c, t, right, cut);
                    }
                    Some((SOFT_ARROW, 2, a)) => {
                        let (c, t) = (self.arg(a, 0), self.arg(a, 1));
                        let height = self.cps.len() as u32;
                        self.push_cp(Alt::Goal { goal: right, cut });
                        let then_frame = self.push_frame(Goal::Call(t), cut, self.cont);
                        let soft = self.push_frame(Goal::SoftCut(height), 0, then_frame);
                        self.cont = self.push_frame(Goal::Call(c), height + 1, soft);
                    }
                    _ => {
                        self.push_cp(Alt::Goal { goal: right, cut });
                        self.cont = self.push_frame(Goal::Call(left), cut, self.cont);
                    }
                }
                Ok(true)
            }
            B::IfThen => {
                let (c, t) = (self.arg(args, 0), self.arg(args, 1));
                self.if_then_else(c, t, Cell::Atom(FAIL), cut);
                Ok(true)
            }
            B::SoftIfThen => {
                // Without an else branch, `C *-> T` is `C, T`.
                let (c, t) = (self.arg(args, 0), self.arg(args, 1));
                let height = self.cps.len() as u32;
                let then_frame = self.push_frame(Goal::Call(t), cut, self.cont);
                self.cont = self.push_frame(Goal::Call(c), height, then_frame);
                Ok(true)
            }
            B::Not => {
                self.negation(self.arg(args, 0));
                Ok(true)
            }
            B::Once => {
                self.if_then_else(self.arg(args, 0), Cell::Atom(TRUE), Cell::Atom(FAIL), cut);
                Ok(true)
            }
            B::Ignore => {
                self.if_then_else(self.arg(args, 0), Cell::Atom(TRUE), Cell::Atom(TRUE), cut);
                Ok(true)
            }
            B::Call => {
                let closure = self.deref_arg(args, 0);
                let goal = if arity == 1 {
                    closure
                } else {
                    let (name, n, cargs) = match closure {
                        Cell::Ref(_) => return Err(error("instantiation error: call/N")),
                        c => self
                            .store
                            .functor_of(c)
                            .ok_or_else(|| error("type error: callable"))?,
                    };
                    let mut all: Vec<Cell> = (0..n).map(|i| self.arg(cargs, i)).collect();
                    all.extend((1..arity).map(|i| self.arg(args, i)));
                    self.store.compound(name, &all)?
                };
                let height = self.cps.len() as u32;
                self.cont = self.push_frame(Goal::Call(goal), height, self.cont);
                Ok(true)
            }
            B::Findall => {
                let (t, g, l) = (self.arg(args, 0), self.arg(args, 1), self.arg(args, 2));
                self.start_collect(t, g, l, None, Agg::Bag);
                Ok(true)
            }
            B::Findall4 => {
                let (t, g, l, tail) = (
                    self.arg(args, 0),
                    self.arg(args, 1),
                    self.arg(args, 2),
                    self.arg(args, 3),
                );
                self.start_collect(t, g, l, Some(tail), Agg::Bag);
                Ok(true)
            }
            B::Forall => {
                // forall(C, A) is \+ (C, \+ A).
                let (c, a) = (self.arg(args, 0), self.arg(args, 1));
                let not_a = self.store.compound(NOT, &[a])?;
                let both = self.store.compound(COMMA, &[c, not_a])?;
                self.negation(both);
                Ok(true)
            }
            B::AggregateAll => {
                let spec = self.deref_arg(args, 0);
                let (g, r) = (self.arg(args, 1), self.arg(args, 2));
                let (agg, template) = match spec {
                    Cell::Atom(a) if self.atoms.name(a) == "count" => (Agg::Count, Cell::Atom(X)),
                    Cell::Str(_) if matches!(self.store.functor_of(spec), Some((_, 2, _))) => {
                        let Some((name, 2, a)) = self.store.functor_of(spec) else {
                            return Err(Fallback::new("internal", "aggregate_all spec"));
                        };
                        let agg = match self.atoms.name(name) {
                            "max" => Agg::MaxWitness(name),
                            "min" => Agg::MinWitness(name),
                            _ => {
                                return Err(Fallback::raise(
                                    "domain_error(aggregate_spec) in aggregate_all/3",
                                ))
                            }
                        };
                        let pair = self
                            .store
                            .compound(MINUS, &[self.arg(a, 0), self.arg(a, 1)])?;
                        (agg, pair)
                    }
                    Cell::Str(_) => {
                        let Some((name, 1, a)) = self.store.functor_of(spec) else {
                            return Err(Fallback::raise(
                                "domain_error(aggregate_spec) in aggregate_all/3",
                            ));
                        };
                        let agg = match self.atoms.name(name) {
                            "sum" => Agg::Sum,
                            "max" => Agg::Max,
                            "min" => Agg::Min,
                            "bag" => Agg::Bag,
                            "set" => Agg::Set,
                            _ => return Err(Fallback::new("unsupported", "aggregate_all spec")),
                        };
                        (agg, self.arg(a, 0))
                    }
                    _ => return Err(Fallback::new("unsupported", "aggregate_all spec")),
                };
                // SWI's max(X)/min(X) keep a state that starts as the
                // template itself: with no solutions, a bound template is
                // the result. So the template rides along.
                let tail = matches!(agg, Agg::Max | Agg::Min).then_some(template);
                if let Agg::MaxWitness(name) | Agg::MinWitness(name) = agg {
                    // The result is unified with max(_, _) before the goal runs.
                    match self.store.deref(r) {
                        Cell::Ref(_) => {}
                        c if matches!(self.store.functor_of(c), Some((n, 2, _)) if n == name) => {}
                        _ => return Ok(false),
                    }
                }
                self.start_collect(template, g, r, tail, agg);
                Ok(true)
            }
            B::Setof | B::Bagof => {
                let template = self.arg(args, 0);
                let mut goal = self.deref_arg(args, 1);
                let result = self.arg(args, 2);
                let mut bound = HashSet::new();
                self.variables(template, &mut bound)?;
                while let Some((CARET, 2, a)) = self.store.functor_of(goal) {
                    self.variables(self.arg(a, 0), &mut bound)?;
                    goal = self.deref_arg(a, 1);
                }
                let free: Vec<Cell> = self
                    .ordered_variables(goal)?
                    .into_iter()
                    .filter(|v| !bound.contains(v))
                    .map(Cell::Ref)
                    .collect();
                if !free.is_empty() {
                    // Grouped by the free variables' bindings, as SWI's
                    // bags.pl does: '$bagof_free'/5 in the prelude.
                    let witness = self.store.compound(X, &free)?;
                    let name = self.atoms.make(&mut self.store, "$bagof_free")?;
                    let set = Cell::Int(i64::from(b == B::Setof));
                    let call = self
                        .store
                        .compound(name, &[witness, template, goal, result, set])?;
                    self.call_next(call);
                    return Ok(true);
                }
                let agg = if b == B::Setof {
                    Agg::SetNonEmpty
                } else {
                    Agg::BagNonEmpty
                };
                self.start_collect(template, goal, result, None, agg);
                Ok(true)
            }
            B::Variant => {
                let (a, b) = (self.arg(args, 0), self.arg(args, 1));
                self.variant(a, b)
            }
            B::JudgeArith => {
                let op = self.deref_arg(args, 0);
                let Cell::Atom(op) = op else {
                    return Err(Fallback::new("internal", "judge_arith"));
                };
                let b = match self.atoms.name(op) {
                    "is" => B::Is,
                    "=:=" => B::ArithEq,
                    "=\\=" => B::ArithNe,
                    "<" => B::ArithLt,
                    ">" => B::ArithGt,
                    "=<" => B::ArithLe,
                    ">=" => B::ArithGe,
                    _ => return Err(Fallback::new("internal", "judge_arith")),
                };
                self.builtin(b, args + 1, 2, cut)
            }
            B::Undefined => {
                let (name, arity) = (self.deref_arg(args, 0), self.deref_arg(args, 1));
                let name = match name {
                    Cell::Atom(a) => self.atoms.name(a).to_string(),
                    _ => "?".into(),
                };
                let arity = match arity {
                    Cell::Int(n) => n,
                    _ => -1,
                };
                Err(Fallback::raise(format!(
                    "existence_error(procedure, {name}/{arity})"
                )))
            }
            B::Unify => self.unify(self.arg(args, 0), self.arg(args, 1)),
            B::NotUnify => {
                let (trail, heap) = (self.store.trail.len(), self.store.heap.len());
                let unified = self.unify(self.arg(args, 0), self.arg(args, 1))?;
                self.store.undo_to(trail, heap);
                Ok(!unified)
            }
            B::Identical => self.store.identical(self.arg(args, 0), self.arg(args, 1)),
            B::NotIdentical => Ok(!self.store.identical(self.arg(args, 0), self.arg(args, 1))?),
            B::TermLess => Ok(self.term_compare(args)? == Ordering::Less),
            B::TermGreater => Ok(self.term_compare(args)? == Ordering::Greater),
            B::TermLessEq => Ok(self.term_compare(args)? != Ordering::Greater),
            B::TermGreaterEq => Ok(self.term_compare(args)? != Ordering::Less),
            B::UnifyOccursCheck => {
                let (a, b) = (self.arg(args, 0), self.arg(args, 1));
                self.store.unify_checked(a, b, true)
            }
            B::Compare => {
                let order = self.deref_arg(args, 0);
                let symbol = match order {
                    Cell::Ref(_) => None,
                    Cell::Atom(a) if a == LESS || a == EQUAL || a == GREATER => Some(a),
                    _ => return Err(error("compare/3: not an order")),
                };
                let (x, y) = (self.arg(args, 1), self.arg(args, 2));
                let o = order::compare(&mut self.store, &self.atoms, x, y)?;
                let atom = match o {
                    Ordering::Less => LESS,
                    Ordering::Equal => EQUAL,
                    Ordering::Greater => GREATER,
                };
                match symbol {
                    Some(s) => Ok(s == atom),
                    None => self.unify(order, Cell::Atom(atom)),
                }
            }
            B::Var => Ok(matches!(self.deref_arg(args, 0), Cell::Ref(_))),
            B::Nonvar => Ok(!matches!(self.deref_arg(args, 0), Cell::Ref(_))),
            // SWI 7+ does not count [] as an atom.
            B::Atom => Ok(matches!(self.deref_arg(args, 0), Cell::Atom(a) if a != NIL)),
            B::Number => Ok(matches!(
                self.deref_arg(args, 0),
                Cell::Int(_) | Cell::Float(_) | Cell::Big(_)
            )),
            B::Integer => Ok(matches!(
                self.deref_arg(args, 0),
                Cell::Int(_) | Cell::Big(_)
            )),
            B::Float => Ok(matches!(self.deref_arg(args, 0), Cell::Float(_))),
            B::Atomic => {
                let c = self.deref_arg(args, 0);
                Ok(matches!(
                    c,
                    Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Big(_)
                ) || self.is_string(c))
            }
            B::Compound => {
                let c = self.deref_arg(args, 0);
                Ok(matches!(c, Cell::Str(_)) && !self.is_string(c))
            }
            B::Callable => {
                let c = self.deref_arg(args, 0);
                Ok(matches!(c, Cell::Atom(a) if a != NIL)
                    || matches!(c, Cell::Str(_)) && !self.is_string(c))
            }
            B::IsList => {
                let (items, tail) = self.store.list_items(self.arg(args, 0))?;
                self.charge_steps(items.len())?;
                Ok(matches!(tail, Cell::Atom(NIL)))
            }
            B::Ground => {
                let mut vars = HashSet::new();
                self.variables(self.arg(args, 0), &mut vars)?;
                Ok(vars.is_empty())
            }
            B::Is => {
                let expression = self.arg(args, 1);
                let v = arith::eval(&mut self.store, &self.atoms, expression)?;
                let v = v.cell(&mut self.store)?;
                self.unify(self.arg(args, 0), v)
            }
            B::ArithEq => Ok(self.arith_compare(args, 0)? == Some(Ordering::Equal)),
            B::ArithNe => Ok(self.arith_compare(args, 0)? != Some(Ordering::Equal)),
            B::ArithLt => Ok(self.arith_compare(args, 0)? == Some(Ordering::Less)),
            B::ArithGt => Ok(self.arith_compare(args, 0)? == Some(Ordering::Greater)),
            B::ArithLe => Ok(matches!(
                self.arith_compare(args, 0)?,
                Some(Ordering::Less | Ordering::Equal)
            )),
            B::ArithGe => Ok(matches!(
                self.arith_compare(args, 0)?,
                Some(Ordering::Greater | Ordering::Equal)
            )),
            B::Length => self.length(args),
            B::Msort | B::Sort2 => {
                let items = self.proper_list_arg(args, 0)?;
                let sorted = self.sort_terms(items, b == B::Sort2)?;
                let list = self.store.make_list(&sorted, Cell::Atom(NIL))?;
                self.unify(self.arg(args, 1), list)
            }
            B::Sort4 => self.sort4(args),
            B::Keysort => {
                let items = self.proper_list_arg(args, 0)?;
                let mut pairs = Vec::with_capacity(items.len());
                for item in items {
                    match self.store.functor_of(self.store.deref(item)) {
                        Some((MINUS, 2, a)) => pairs.push((self.arg(a, 0), item)),
                        _ => return Err(error("keysort: not a pair")),
                    }
                }
                let sorted: Vec<Cell> = self
                    .sort_by_keys(pairs, false)?
                    .into_iter()
                    .map(|(_, v)| v)
                    .collect();
                let list = self.store.make_list(&sorted, Cell::Atom(NIL))?;
                self.unify(self.arg(args, 1), list)
            }
            B::ListToSet => {
                let items = self.proper_list_arg(args, 0)?;
                let mut kept: Vec<Cell> = Vec::new();
                for item in items {
                    let mut seen = false;
                    for &k in &kept {
                        if self.store.identical(k, item)? {
                            seen = true;
                            break;
                        }
                    }
                    if !seen {
                        kept.push(item);
                    }
                }
                let list = self.store.make_list(&kept, Cell::Atom(NIL))?;
                self.unify(self.arg(args, 1), list)
            }
            B::SumList => {
                let items = self.proper_list_arg(args, 0)?;
                let mut total = Num::Int(0);
                for item in items {
                    let v = arith::eval(&mut self.store, &self.atoms, item)?;
                    total = arith::add(&mut self.store, total, v)?;
                }
                let total = total.cell(&mut self.store)?;
                self.unify(self.arg(args, 1), total)
            }
            B::MaxList | B::MinList => {
                let items = self.proper_list_arg(args, 0)?;
                match items.len() {
                    0 => Ok(false),
                    // A one-element list gives the element itself, unevaluated.
                    1 => self.unify(self.arg(args, 1), items[0]),
                    _ => match self.extreme(&items, b == B::MaxList)? {
                        Some(v) => self.unify(self.arg(args, 1), v),
                        None => Ok(false),
                    },
                }
            }
            B::Numlist => {
                let (Cell::Int(low), Cell::Int(high)) =
                    (self.deref_arg(args, 0), self.deref_arg(args, 1))
                else {
                    return Err(error("numlist: not integers"));
                };
                if low > high {
                    return Ok(false);
                }
                // 2^64 for the whole range, which `as u64` made 0.
                let count =
                    u64::try_from(i128::from(high) - i128::from(low) + 1).unwrap_or(u64::MAX);
                self.store.check_heap((count as usize).saturating_mul(4))?;
                self.store.charge(count)?;
                self.charge_steps(count as usize)?;
                let items: Vec<Cell> = (low..=high).map(Cell::Int).collect();
                let list = self.store.make_list(&items, Cell::Atom(NIL))?;
                self.unify(self.arg(args, 2), list)
            }
            B::Succ => match (self.deref_arg(args, 0), self.deref_arg(args, 1)) {
                (_, Cell::Int(y)) if y < 0 => {
                    Err(error("domain_error(not_less_than_zero) in succ/2"))
                }
                (Cell::Int(x), y)
                    if x >= 0 && matches!(y, Cell::Ref(_) | Cell::Int(_) | Cell::Big(_)) =>
                {
                    let next = arith::add(&mut self.store, Num::Int(x), Num::Int(1))?;
                    let next = next.cell(&mut self.store)?;
                    self.unify(y, next)
                }
                (x @ Cell::Ref(_), Cell::Int(y)) if y > 0 => self.unify(x, Cell::Int(y - 1)),
                (Cell::Ref(_), Cell::Int(0)) => Ok(false),
                _ => Err(error("succ: bad arguments")),
            },
            B::CopyTerm => {
                let mut arena = Vec::new();
                let (root, nvars) = self.store.copy_out(self.arg(args, 0), &mut arena)?;
                let mut vars: VarMap = vec![None; nvars as usize];
                let copy = self.store.build(&arena, root, &mut vars)?;
                // The copy is on the heap now (counted there).
                self.store.release(arena.len() * CELL_BYTES);
                self.unify(self.arg(args, 1), copy)
            }
            B::Functor => self.functor(args),
            B::Arg => match (self.deref_arg(args, 0), self.deref_arg(args, 1)) {
                (Cell::Int(n), c @ Cell::Str(p)) if n >= 0 && !self.is_string(c) => {
                    let Cell::Functor(_, arity) = self.store.heap[p as usize] else {
                        return Err(Fallback::new("internal", "arg"));
                    };
                    if n < 1 || n > arity as i64 {
                        return Ok(false);
                    }
                    let value = self.store.heap[(p as i64 + n) as usize];
                    self.unify(self.arg(args, 2), value)
                }
                _ => self.arg_modes(args),
            },
            B::Univ => self.univ(args),
            B::MustBeList => {
                self.proper_list_arg(args, 0)?;
                Ok(true)
            }
            B::BetweenCheck => {
                let int_or = |c: Cell, inf: bool, what: &str| -> Result<(), Fallback> {
                    match c {
                        Cell::Int(_) | Cell::Big(_) => Ok(()),
                        Cell::Ref(_) => {
                            Err(Fallback::raise(format!("instantiation_error in {what}")))
                        }
                        Cell::Atom(a)
                            if inf && matches!(self.atoms.name(a), "inf" | "infinite") =>
                        {
                            Ok(())
                        }
                        _ => Err(Fallback::raise(format!("type_error(integer) in {what}"))),
                    }
                };
                int_or(self.deref_arg(args, 0), false, "between/3")?;
                int_or(self.deref_arg(args, 1), true, "between/3")?;
                match self.deref_arg(args, 2) {
                    Cell::Ref(_) => Ok(true),
                    x => int_or(x, false, "between/3").map(|_| true),
                }
            }
            B::NthIndex => match (self.deref_arg(args, 0), self.deref_arg(args, 1)) {
                (Cell::Ref(_), _) => Ok(true),
                (Cell::Int(i), Cell::Int(base)) => Ok(i >= base),
                _ => Err(Fallback::raise("type_error(integer) in nth0/nth1")),
            },
            B::PermCheck => {
                let (xs, xtail) = self.store.list_items(self.arg(args, 0))?;
                let (ys, ytail) = self.store.list_items(self.arg(args, 1))?;
                self.charge_steps(xs.len() + ys.len())?;
                // As SWI: two proper lists must be as long; a partial list
                // is made as long as the proper one; a tail that is neither
                // is SWI's type error. Two partial lists enumerate lengths
                // in SWI (mostly until its stack overflows): not here.
                let fill = |m: &mut Self, tail: Cell, have: usize, want: usize| {
                    let Cell::Ref(var) = tail else {
                        return Err(Fallback::new("internal", "permutation/2 tail"));
                    };
                    if have > want {
                        return Ok(false);
                    }
                    m.charge_steps(want - have)?;
                    let mut fresh = Vec::with_capacity(want - have);
                    for _ in have..want {
                        fresh.push(m.store.new_var()?);
                    }
                    let list = m.store.make_list(&fresh, Cell::Atom(NIL))?;
                    m.store.bind(var, list);
                    Ok(true)
                };
                match (xtail, ytail) {
                    (Cell::Atom(NIL), Cell::Atom(NIL)) => Ok(xs.len() == ys.len()),
                    (Cell::Atom(NIL), Cell::Ref(_)) => fill(self, ytail, ys.len(), xs.len()),
                    (Cell::Ref(_), Cell::Atom(NIL)) => fill(self, xtail, xs.len(), ys.len()),
                    (Cell::Ref(_), Cell::Ref(_)) => Err(Fallback::new(
                        "unsupported",
                        "permutation/2 of two partial lists",
                    )),
                    _ => Err(Fallback::raise("type_error(list) in permutation/2")),
                }
            }
            B::Ext(ext) => self.ext_builtin(ext, args),
            B::Lib(lib) => self.lib_builtin(lib, args),
        }
    }

    fn length(&mut self, args: u32) -> Result<bool, Fallback> {
        let n = self.deref_arg(args, 1);
        match n {
            Cell::Int(k) if k < 0 => {
                return Err(Fallback::raise(format!(
                    "domain_error(not_less_than_zero, {k}) in length/2"
                )))
            }
            Cell::Int(_) | Cell::Ref(_) => {}
            // SWI runs out of memory making such a list.
            Cell::Big(_) => return Err(Fallback::new("memory", "length/2 beyond memory")),
            _ => return Err(Fallback::raise("type_error(integer) in length/2")),
        }
        let (items, tail) = self.store.list_items(self.arg(args, 0))?;
        self.charge_steps(items.len())?;
        let len = items.len() as i64;
        match (tail, n) {
            (Cell::Atom(NIL), Cell::Ref(_)) => self.unify(n, Cell::Int(len)),
            (Cell::Atom(NIL), Cell::Int(k)) => Ok(k == len),
            (Cell::Ref(tail_var), Cell::Int(k)) => {
                if k < len {
                    return Ok(false);
                }
                let extra = (k - len) as u64;
                // SWI runs out of stack on a huge list before any limit on
                // inferences: a resource error, as here.
                self.store.check_heap((extra as usize).saturating_mul(4))?;
                self.store.charge(extra)?;
                self.charge_steps(extra as usize)?;
                let mut fresh = Vec::with_capacity(extra as usize);
                for _ in 0..extra {
                    fresh.push(self.store.new_var()?);
                }
                let list = self.store.make_list(&fresh, Cell::Atom(NIL))?;
                self.store.bind(tail_var, list);
                Ok(true)
            }
            // A partial list and an unbound length: enumerate 0, 1, 2, …
            (Cell::Ref(_), _) => {
                let name = self.atoms.make(&mut self.store, "$length_enum")?;
                let goal = self.store.compound(name, &[self.arg(args, 0), n])?;
                self.call_next(goal);
                Ok(true)
            }
            _ => Err(Fallback::raise("type_error(list) in length/2")),
        }
    }

    /// Sorts (key, item) pairs stably on their keys.
    fn sort_by_keys(
        &mut self,
        pairs: Vec<(Cell, Cell)>,
        descending: bool,
    ) -> Result<Vec<(Cell, Cell)>, Fallback> {
        let atoms = &self.atoms;
        let store = &mut self.store;
        order::stable_sort(pairs, |(a, _), (b, _)| {
            if descending {
                order::compare(store, atoms, b, a)
            } else {
                order::compare(store, atoms, a, b)
            }
        })
    }

    fn sort4(&mut self, args: u32) -> Result<bool, Fallback> {
        let Cell::Int(key) = self.deref_arg(args, 0) else {
            return Err(error("sort/4 key"));
        };
        let Cell::Atom(order_atom) = self.deref_arg(args, 1) else {
            return Err(error("sort/4 order"));
        };
        let (descending, dedup) = match self.atoms.name(order_atom) {
            "@<" => (false, true),
            "@=<" => (false, false),
            "@>" => (true, true),
            "@>=" => (true, false),
            _ => return Err(error("sort/4 order")),
        };
        if key < 0 {
            return Err(error("sort/4 key"));
        }
        let items = self.proper_list_arg(args, 2)?;
        let mut pairs = Vec::with_capacity(items.len());
        for item in items {
            let k = if key == 0 {
                item
            } else {
                match self.store.deref(item) {
                    Cell::Str(p) => match self.store.heap[p as usize] {
                        Cell::Functor(_, n) if key <= n as i64 => {
                            self.store.heap[(p as i64 + key) as usize]
                        }
                        _ => return Err(error("sort/4: key out of range")),
                    },
                    _ => return Err(error("sort/4: not compound")),
                }
            };
            pairs.push((k, item));
        }
        let sorted = self.sort_by_keys(pairs, descending)?;
        let mut kept: Vec<(Cell, Cell)> = Vec::with_capacity(sorted.len());
        for (k, item) in sorted {
            if dedup {
                if let Some(&(prev_key, _)) = kept.last() {
                    // Of elements with equal keys the first (the sort is
                    // stable) is kept, as in SWI.
                    if order::compare(&mut self.store, &self.atoms, prev_key, k)? == Ordering::Equal
                    {
                        continue;
                    }
                }
            }
            kept.push((k, item));
        }
        let sorted: Vec<Cell> = kept.into_iter().map(|(_, v)| v).collect();
        let list = self.store.make_list(&sorted, Cell::Atom(NIL))?;
        self.unify(self.arg(args, 3), list)
    }

    fn functor(&mut self, args: u32) -> Result<bool, Fallback> {
        let t = self.deref_arg(args, 0);
        match t {
            Cell::Str(_) if self.is_string(t) => {
                Ok(self.unify(self.arg(args, 1), t)?
                    && self.unify(self.arg(args, 2), Cell::Int(0))?)
            }
            Cell::Str(p) => {
                let Cell::Functor(name, n) = self.store.heap[p as usize] else {
                    return Err(Fallback::new("internal", "functor"));
                };
                let name = if name == DOT && n == 2 {
                    LIST_NAME
                } else {
                    name
                };
                Ok(self.unify(self.arg(args, 1), Cell::Atom(name))?
                    && self.unify(self.arg(args, 2), Cell::Int(n as i64))?)
            }
            Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Big(_) => Ok(self
                .unify(self.arg(args, 1), t)?
                && self.unify(self.arg(args, 2), Cell::Int(0))?),
            Cell::Ref(_) => match (self.deref_arg(args, 1), self.deref_arg(args, 2)) {
                (
                    name @ (Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Big(_)),
                    Cell::Int(0),
                ) => self.unify(t, name),
                (name, Cell::Int(0)) if self.is_string(name) => self.unify(t, name),
                (Cell::Atom(name), Cell::Int(n)) if n > 0 && !(name == DOT && n == 2) => {
                    let name = if name == LIST_NAME && n == 2 {
                        DOT
                    } else {
                        name
                    };
                    let built = self.store.compound_of_fresh(name, n as u64)?;
                    self.unify(t, built)
                }
                _ => Err(Fallback::new("unsupported", "functor/3 mode")),
            },
            Cell::Functor(..) => Err(Fallback::new("internal", "functor")),
        }
    }

    fn univ(&mut self, args: u32) -> Result<bool, Fallback> {
        let t = self.deref_arg(args, 0);
        match t {
            Cell::Str(_) if self.is_string(t) => {
                let list = self.store.make_list(&[t], Cell::Atom(NIL))?;
                self.unify(self.arg(args, 1), list)
            }
            Cell::Str(p) => {
                let Cell::Functor(name, n) = self.store.heap[p as usize] else {
                    return Err(Fallback::new("internal", "univ"));
                };
                let name = if name == DOT && n == 2 {
                    LIST_NAME
                } else {
                    name
                };
                let mut items = vec![Cell::Atom(name)];
                items.extend((1..=n).map(|i| self.store.heap[(p + i) as usize]));
                let list = self.store.make_list(&items, Cell::Atom(NIL))?;
                self.unify(self.arg(args, 1), list)
            }
            Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Big(_) => {
                let list = self.store.make_list(&[t], Cell::Atom(NIL))?;
                self.unify(self.arg(args, 1), list)
            }
            Cell::Ref(_) => {
                let items = self.proper_list_arg(args, 1)?;
                let Some((&head, rest)) = items.split_first() else {
                    return Err(error("=..: empty list"));
                };
                match (self.store.deref(head), rest.len()) {
                    (h @ (Cell::Atom(_) | Cell::Int(_) | Cell::Float(_) | Cell::Big(_)), 0) => {
                        self.unify(t, h)
                    }
                    (h, 0) if self.is_string(h) => self.unify(t, h),
                    (Cell::Atom(name), n) if !(name == DOT && n == 2) => {
                        let name = if name == LIST_NAME && n == 2 {
                            DOT
                        } else {
                            name
                        };
                        let built = self.store.compound(name, rest)?;
                        self.unify(t, built)
                    }
                    (Cell::Ref(_), _) => Err(Fallback::raise("instantiation_error in =../2")),
                    (Cell::Int(_) | Cell::Float(_) | Cell::Big(_), _) => {
                        Err(Fallback::raise("type_error(atom) in =../2"))
                    }
                    _ => Err(Fallback::new("unsupported", "=.. mode")),
                }
            }
            Cell::Functor(..) => Err(Fallback::new("internal", "univ")),
        }
    }
}

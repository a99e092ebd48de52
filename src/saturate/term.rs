//! Terms, substitutions, unification, matching and the Knuth–Bendix order
//! of the saturation prover.
//!
//! Terms are trees over interned symbols (`Sym`) and numbered variables.
//! Their depth is bounded where clauses are made (see `MAX_DEPTH` in the
//! parent module), so the recursive walks here cannot overflow the stack;
//! unification and matching use explicit work lists all the same.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::cmp::Ordering;

thread_local! {
    /// The work done on this thread by unification, matching, the term
    /// order and the making of clauses, counted in term nodes visited or
    /// made: the saturation loop's budget reads it, so a run costs a
    /// bounded amount of work whatever its clauses look like.
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// The work counted on this thread so far (see [`WORK`]).
pub(crate) fn work() -> u64 {
    WORK.with(Cell::get)
}

/// Adds `n` to this thread's work counter.
pub(crate) fn count(n: u64) {
    WORK.with(|w| w.set(w.get().wrapping_add(n)));
}

/// An interned function or predicate symbol.
pub(crate) type Sym = u32;

/// The symbol `⊤` that a predicate atom is equated with (`p(..) ≈ ⊤`); it
/// is the least symbol of the precedence.
pub(crate) const TRUE: Sym = 0;

/// A term: a variable or a symbol applied to arguments.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) enum T {
    V(u32),
    F(Sym, Vec<T>),
}

impl T {
    /// Symbols and variables counted once each (Prover9's default weight).
    pub(crate) fn weight(&self) -> usize {
        match self {
            T::V(_) => 1,
            T::F(_, args) => 1 + args.iter().map(T::weight).sum::<usize>(),
        }
    }

    /// The term with every variable `v` renamed `v + k`.
    pub(crate) fn offset(&self, k: u32) -> T {
        match self {
            T::V(v) => T::V(v + k),
            T::F(f, args) => T::F(*f, args.iter().map(|a| a.offset(k)).collect()),
        }
    }

    /// Calls `f` on every variable occurrence.
    pub(crate) fn each_var(&self, f: &mut impl FnMut(u32)) {
        match self {
            T::V(v) => f(*v),
            T::F(_, args) => args.iter().for_each(|a| a.each_var(f)),
        }
    }

    /// Calls `f` on every symbol occurrence.
    pub(crate) fn each_sym(&self, f: &mut impl FnMut(Sym)) {
        if let T::F(s, args) = self {
            f(*s);
            args.iter().for_each(|a| a.each_sym(f));
        }
    }

    /// The subterm at `path` (argument indices from the root).
    pub(crate) fn at(&self, path: &[usize]) -> &T {
        let mut t = self;
        for &i in path {
            match t {
                T::F(_, args) => t = &args[i],
                T::V(_) => break,
            }
        }
        t
    }

    /// This term with the subterm at `path` replaced by `by`.
    pub(crate) fn replace(&self, path: &[usize], by: &T) -> T {
        match (path.split_first(), self) {
            (None, _) => by.clone(),
            (Some((&i, rest)), T::F(f, args)) => T::F(
                *f,
                args.iter()
                    .enumerate()
                    .map(|(j, a)| {
                        if j == i {
                            a.replace(rest, by)
                        } else {
                            a.clone()
                        }
                    })
                    .collect(),
            ),
            (Some(_), T::V(_)) => self.clone(),
        }
    }

    /// The paths of every non-variable subterm, the root (`[]`) first.
    pub(crate) fn positions(&self, out: &mut Vec<Vec<usize>>) {
        let mut stack: Vec<(Vec<usize>, &T)> = vec![(Vec::new(), self)];
        while let Some((path, t)) = stack.pop() {
            if let T::F(_, args) = t {
                for (i, a) in args.iter().enumerate().rev() {
                    let mut p = path.clone();
                    p.push(i);
                    stack.push((p, a));
                }
                out.push(path);
            }
        }
    }
}

/// A substitution with a trail, so bindings made by a failed attempt can be
/// undone.
#[derive(Default, Clone, Debug)]
pub(crate) struct Subst {
    map: Vec<Option<T>>,
    trail: Vec<u32>,
}

impl Subst {
    pub(crate) fn new(vars: u32) -> Subst {
        Subst {
            map: vec![None; vars as usize],
            trail: Vec::new(),
        }
    }

    fn get(&self, v: u32) -> Option<&T> {
        self.map.get(v as usize).and_then(Option::as_ref)
    }

    fn bind(&mut self, v: u32, t: T) {
        let i = v as usize;
        if i >= self.map.len() {
            self.map.resize(i + 1, None);
        }
        self.map[i] = Some(t);
        self.trail.push(v);
    }

    /// A point to [`Subst::undo`] back to.
    pub(crate) fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Removes the bindings made since `mark`.
    pub(crate) fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            if let Some(v) = self.trail.pop() {
                self.map[v as usize] = None;
            }
        }
    }

    /// `t` with bound variables followed at the root only.
    fn walk<'a>(&'a self, mut t: &'a T) -> &'a T {
        while let T::V(v) = t {
            match self.get(*v) {
                Some(b) => t = b,
                None => break,
            }
        }
        t
    }

    /// `t` with the substitution applied throughout.
    pub(crate) fn apply(&self, t: &T) -> T {
        match self.walk(t) {
            T::V(v) => T::V(*v),
            T::F(f, args) => T::F(*f, args.iter().map(|a| self.apply(a)).collect()),
        }
    }

    fn occurs(&self, v: u32, t: &T) -> bool {
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            match self.walk(t) {
                T::V(w) => {
                    if *w == v {
                        return true;
                    }
                }
                T::F(_, args) => stack.extend(args.iter()),
            }
        }
        false
    }

    /// `t` as a [`Cow`] with bound variables followed at the root: the
    /// subterms of the caller's terms are borrowed, a binding is cloned.
    fn walk_cow<'a>(&self, mut t: Cow<'a, T>) -> Cow<'a, T> {
        while let T::V(v) = &*t {
            match self.get(*v) {
                Some(b) => t = Cow::Owned(b.clone()),
                None => break,
            }
        }
        t
    }

    /// Extends the substitution to a most general unifier of `a` and `b`;
    /// `false` (bindings undone) if there is none.
    pub(crate) fn unify(&mut self, a: &T, b: &T) -> bool {
        // Most attempts fail on a symbol clash, found here without a copy.
        if !compatible(a, b) {
            return false;
        }
        let mark = self.mark();
        let mut pending: Vec<(Cow<T>, Cow<T>)> = vec![(Cow::Borrowed(a), Cow::Borrowed(b))];
        while let Some((x, y)) = pending.pop() {
            count(1);
            let x = self.walk_cow(x);
            let y = self.walk_cow(y);
            match (&*x, &*y) {
                (T::V(v), T::V(w)) if v == w => {}
                (T::V(v), other) | (other, T::V(v)) => {
                    if self.occurs(*v, other) {
                        self.undo(mark);
                        return false;
                    }
                    self.bind(*v, other.clone());
                }
                (T::F(f, xs), T::F(g, ys)) => {
                    if f != g || xs.len() != ys.len() {
                        self.undo(mark);
                        return false;
                    }
                    for i in (0..xs.len()).rev() {
                        pending.push((child(&x, i), child(&y, i)));
                    }
                }
            }
        }
        true
    }
}

/// One-way matching that binds the pattern's variables to the target's
/// subterms by reference: a failed attempt copies nothing, and one matcher
/// serves many attempts (its vectors are reused). The target's variables
/// are another name space and are never bound.
#[derive(Default, Debug)]
pub(crate) struct Matcher<'a> {
    binds: Vec<Option<&'a T>>,
    trail: Vec<u32>,
    stack: Vec<(&'a T, &'a T)>,
}

impl<'a> Matcher<'a> {
    /// Drops every binding, for a pattern whose variables are below `vars`.
    pub(crate) fn reset(&mut self, vars: u32) {
        self.binds.clear();
        self.binds.resize(vars as usize, None);
        self.trail.clear();
    }

    /// A point to [`Matcher::undo`] back to.
    pub(crate) fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Removes the bindings made since `mark`.
    pub(crate) fn undo(&mut self, mark: usize) {
        for v in self.trail.drain(mark..) {
            self.binds[v as usize] = None;
        }
    }

    /// Extends the bindings so that `pattern` becomes `target`; `false`
    /// (bindings undone) if impossible.
    pub(crate) fn matches(&mut self, pattern: &'a T, target: &'a T) -> bool {
        let mark = self.mark();
        self.stack.clear();
        self.stack.push((pattern, target));
        while let Some((p, t)) = self.stack.pop() {
            count(1);
            let fits = match p {
                T::V(v) => {
                    let i = *v as usize;
                    if i >= self.binds.len() {
                        self.binds.resize(i + 1, None);
                    }
                    match self.binds[i] {
                        Some(b) => b == t,
                        None => {
                            self.binds[i] = Some(t);
                            self.trail.push(*v);
                            true
                        }
                    }
                }
                T::F(f, ps) => match t {
                    T::F(g, ts) if f == g && ps.len() == ts.len() => {
                        self.stack.extend(ps.iter().zip(ts.iter()));
                        true
                    }
                    _ => false,
                },
            };
            if !fits {
                self.undo(mark);
                return false;
            }
        }
        true
    }

    /// `t` with each bound variable replaced by a copy of its binding.
    pub(crate) fn instantiate(&self, t: &T) -> T {
        match t {
            T::V(v) => match self.binds.get(*v as usize) {
                Some(Some(b)) => (*b).clone(),
                _ => T::V(*v),
            },
            T::F(f, args) => T::F(*f, args.iter().map(|a| self.instantiate(a)).collect()),
        }
    }
}

/// A term's fingerprint (Schulz, "Fingerprint Indexing for Paramodulation
/// and Rewriting", 2012): what it has at a few fixed positions, so most
/// pairs that cannot unify, or cannot match, are told apart by comparing
/// eight numbers, before any substitution is made.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Fingerprint([u32; 8]);

/// The sampled positions: the root, the first three arguments, and the
/// first two arguments of the first two.
const SAMPLED: [&[usize]; 8] = [&[], &[0], &[1], &[2], &[0, 0], &[0, 1], &[1, 0], &[1, 1]];
/// A variable is at the position.
const AT_VAR: u32 = 0;
/// A variable is above the position (an instance may have anything there).
const BELOW_VAR: u32 = 1;
/// No term is there, nor in any instance (a symbol above has fewer
/// arguments).
const ABSENT: u32 = 2;

impl Fingerprint {
    pub(crate) fn of(t: &T) -> Fingerprint {
        let mut out = [0; 8];
        for (k, path) in SAMPLED.iter().enumerate() {
            out[k] = sample(t, path);
        }
        Fingerprint(out)
    }

    /// Whether the terms may unify (necessary, not sufficient).
    pub(crate) fn may_unify(&self, other: &Fingerprint) -> bool {
        self.0.iter().zip(&other.0).all(|(&a, &b)| match (a, b) {
            (BELOW_VAR, _) | (_, BELOW_VAR) => true,
            (ABSENT, ABSENT) => true,
            (ABSENT, _) | (_, ABSENT) => false,
            (AT_VAR, _) | (_, AT_VAR) => true,
            _ => a == b,
        })
    }

    /// Whether this term (a pattern) may match `target`, an instance of
    /// it (necessary, not sufficient).
    pub(crate) fn may_match(&self, target: &Fingerprint) -> bool {
        self.0.iter().zip(&target.0).all(|(&p, &t)| match p {
            BELOW_VAR => true,
            AT_VAR => t != ABSENT,
            ABSENT => t == ABSENT || t == BELOW_VAR,
            symbol => t == symbol,
        })
    }
}

fn sample(mut t: &T, path: &[usize]) -> u32 {
    for &i in path {
        match t {
            T::V(_) => return BELOW_VAR,
            T::F(_, args) => match args.get(i) {
                Some(a) => t = a,
                None => return ABSENT,
            },
        }
    }
    match t {
        T::V(_) => AT_VAR,
        T::F(f, _) => f + 3,
    }
}

/// Argument `i` of the application `t`: borrowed when `t` is, else a copy.
fn child<'a>(t: &Cow<'a, T>, i: usize) -> Cow<'a, T> {
    match t {
        Cow::Borrowed(T::F(_, args)) => Cow::Borrowed(&args[i]),
        Cow::Owned(T::F(_, args)) => Cow::Owned(args[i].clone()),
        _ => t.clone(),
    }
}

/// Whether `a` and `b` agree on every symbol at the positions where both
/// have one, variables read as wildcards: necessary for them to unify
/// under any substitution.
fn compatible(a: &T, b: &T) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((x, y)) = stack.pop() {
        if let (T::F(f, xs), T::F(g, ys)) = (x, y) {
            if f != g || xs.len() != ys.len() {
                return false;
            }
            stack.extend(xs.iter().zip(ys));
        }
    }
    true
}

/// The outcome of comparing two terms in a partial order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cmp {
    Gt,
    Lt,
    Eq,
    Inc,
}

impl Cmp {
    /// The outcome with the two terms swapped.
    pub(crate) fn reverse(self) -> Cmp {
        match self {
            Cmp::Gt => Cmp::Lt,
            Cmp::Lt => Cmp::Gt,
            other => other,
        }
    }
}

/// The symbol precedence: by arity, then by the order symbols were first
/// met (their number); `⊤` is least.
fn prec(f: Sym, fa: usize, g: Sym, ga: usize) -> Ordering {
    (fa, f).cmp(&(ga, g))
}

/// The Knuth–Bendix order with every symbol and variable of weight 1 and
/// the precedence [`prec`]: total on ground terms, stable under
/// substitution, and a simplification order. One pass over both terms
/// (Löchner, "Things to know when implementing KBO", 2006): the weight and
/// variable balances are kept as the terms are walked, so comparing two
/// terms that agree down a long path does not weigh the same subterms
/// again at every level.
pub(crate) fn kbo(s: &T, t: &T) -> Cmp {
    // One balance vector per thread, reused: a call allocates nothing.
    thread_local! {
        static BALANCE: RefCell<Vec<i32>> = const { RefCell::new(Vec::new()) };
    }
    BALANCE.with(|b| {
        let mut balance = b.borrow_mut();
        balance.clear();
        let mut walk = Balances {
            vars: &mut balance,
            positive: 0,
            negative: 0,
            weight: 0,
            visited: 0,
        };
        let out = walk.compare(s, t);
        count(walk.visited);
        out
    })
}

/// The running balances of [`kbo`]: per variable, its occurrences in the
/// left term less those in the right; how many variables are ahead on
/// each side; the weight of the left term less the right's.
struct Balances<'b> {
    vars: &'b mut Vec<i32>,
    positive: u32,
    negative: u32,
    weight: i64,
    visited: u64,
}

impl Balances<'_> {
    fn var(&mut self, v: u32, by: i32) {
        let i = v as usize;
        if i >= self.vars.len() {
            self.vars.resize(i + 1, 0);
        }
        let before = self.vars[i];
        let after = before + by;
        self.vars[i] = after;
        self.positive = self.positive + u32::from(after > 0) - u32::from(before > 0);
        self.negative = self.negative + u32::from(after < 0) - u32::from(before < 0);
        self.weight += i64::from(by);
    }

    /// Adds `t` on the side `sign`; whether it contains the variable `x`.
    fn add(&mut self, t: &T, sign: i32, x: Option<u32>) -> bool {
        self.visited += 1;
        match t {
            T::V(v) => {
                self.var(*v, sign);
                Some(*v) == x
            }
            T::F(_, args) => {
                self.weight += i64::from(sign);
                let mut found = false;
                for a in args {
                    found |= self.add(a, sign, x);
                }
                found
            }
        }
    }

    /// `s` against `t`, each added on its side: the outcome for the two
    /// terms, read off the balances of everything added since they were
    /// zero (the callers compare arguments only while the earlier pairs
    /// were equal, so that is these two terms).
    fn compare(&mut self, s: &T, t: &T) -> Cmp {
        match (s, t) {
            (T::V(x), T::V(y)) => {
                self.visited += 2;
                self.var(*x, 1);
                self.var(*y, -1);
                if x == y {
                    Cmp::Eq
                } else {
                    Cmp::Inc
                }
            }
            (T::V(x), _) => {
                self.visited += 1;
                let inside = self.add(t, -1, Some(*x));
                self.var(*x, 1);
                if inside {
                    Cmp::Lt
                } else {
                    Cmp::Inc
                }
            }
            (_, T::V(y)) => {
                self.visited += 1;
                let inside = self.add(s, 1, Some(*y));
                self.var(*y, -1);
                if inside {
                    Cmp::Gt
                } else {
                    Cmp::Inc
                }
            }
            (T::F(f, xs), T::F(g, ys)) => {
                self.visited += 2;
                let lex = match prec(*f, xs.len(), *g, ys.len()) {
                    Ordering::Equal => {
                        let mut lex = Cmp::Eq;
                        for (x, y) in xs.iter().zip(ys) {
                            if lex == Cmp::Eq {
                                lex = self.compare(x, y);
                            } else {
                                self.add(x, 1, None);
                                self.add(y, -1, None);
                            }
                        }
                        lex
                    }
                    by_precedence => {
                        xs.iter().for_each(|x| {
                            self.add(x, 1, None);
                        });
                        ys.iter().for_each(|y| {
                            self.add(y, -1, None);
                        });
                        if by_precedence == Ordering::Greater {
                            Cmp::Gt
                        } else {
                            Cmp::Lt
                        }
                    }
                };
                // The two top symbols weigh 1 each: no change to the weight.
                let (s_covers, t_covers) = (self.negative == 0, self.positive == 0);
                let if_gt = if s_covers { Cmp::Gt } else { Cmp::Inc };
                let if_lt = if t_covers { Cmp::Lt } else { Cmp::Inc };
                match self.weight.cmp(&0) {
                    Ordering::Greater => if_gt,
                    Ordering::Less => if_lt,
                    Ordering::Equal => match lex {
                        Cmp::Gt => if_gt,
                        Cmp::Lt => if_lt,
                        other => other,
                    },
                }
            }
        }
    }
}

pub(crate) fn gt(s: &T, t: &T) -> bool {
    kbo(s, t) == Cmp::Gt
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: Sym, args: Vec<T>) -> T {
        T::F(s, args)
    }

    #[test]
    fn unification_finds_the_mgu_and_refuses_cycles() {
        // p(x, g(y)) with p(h(y), x') where x' = g(a)
        let a = f(1, vec![]);
        let s = f(5, vec![T::V(0), f(3, vec![T::V(1)])]);
        let t = f(5, vec![f(4, vec![T::V(1)]), f(3, vec![a.clone()])]);
        let mut sub = Subst::new(2);
        assert!(sub.unify(&s, &t));
        assert_eq!(sub.apply(&s), sub.apply(&t));
        assert_eq!(sub.apply(&T::V(0)), f(4, vec![a.clone()]));
        let mut sub = Subst::new(1);
        assert!(!sub.unify(&T::V(0), &f(3, vec![T::V(0)])));
        assert_eq!(sub.mark(), 0);
    }

    #[test]
    fn matching_binds_only_the_pattern() {
        let pat = f(5, vec![T::V(0), T::V(0)]);
        let (same, other) = (f(5, vec![T::V(7), T::V(7)]), f(5, vec![T::V(7), T::V(8)]));
        let mut sub = Matcher::default();
        sub.reset(1);
        assert!(sub.matches(&pat, &same));
        sub.reset(1);
        assert!(!sub.matches(&pat, &other));
        assert_eq!(sub.mark(), 0);
        // The target's variables are another name space: x*e against
        // x'*e binds x to x', and the instance is x', not x''….
        let (e, inv) = (f(1, vec![]), |t: T| f(2, vec![t]));
        let (pat, target) = (f(3, vec![T::V(0), e.clone()]), f(3, vec![inv(T::V(0)), e]));
        let mut sub = Matcher::default();
        sub.reset(1);
        assert!(sub.matches(&pat, &target));
        assert_eq!(sub.instantiate(&T::V(0)), inv(T::V(0)));
    }

    /// Random small terms over two constants, two binary symbols and three
    /// variables.
    fn random_term(seed: &mut u64, depth: u32) -> T {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = (*seed >> 33) % 7;
        match r {
            0..=2 if depth > 0 => T::F(
                5 + r as Sym % 2,
                vec![random_term(seed, depth - 1), random_term(seed, depth - 1)],
            ),
            0 | 1 => f(1 + r as Sym, vec![]),
            _ => T::V((r % 3) as u32),
        }
    }

    #[test]
    fn fingerprints_never_rule_out_a_unifier_or_a_match() {
        let mut seed = 7;
        let (mut unified, mut matched) = (0, 0);
        for _ in 0..20_000 {
            let a = random_term(&mut seed, 4);
            let b = random_term(&mut seed, 4).offset(3);
            let (fa, fb) = (Fingerprint::of(&a), Fingerprint::of(&b));
            if Subst::new(6).unify(&a, &b) {
                unified += 1;
                assert!(fa.may_unify(&fb), "{a:?} {b:?}");
            }
            let mut m = Matcher::default();
            m.reset(6);
            if m.matches(&a, &b) {
                matched += 1;
                assert!(fa.may_match(&fb), "{a:?} {b:?}");
            }
        }
        // The property is not vacuous.
        assert!(unified > 1000 && matched > 100, "{unified} {matched}");
    }

    /// KBO as defined, weighing and counting variables afresh at each
    /// level: the reference for the one-pass [`kbo`].
    fn kbo_by_definition(s: &T, t: &T) -> Cmp {
        fn tally(t: &T, sign: i32, balance: &mut Vec<i32>) -> i64 {
            match t {
                T::V(v) => {
                    let i = *v as usize;
                    if i >= balance.len() {
                        balance.resize(i + 1, 0);
                    }
                    balance[i] += sign;
                    1
                }
                T::F(_, args) => 1 + args.iter().map(|a| tally(a, sign, balance)).sum::<i64>(),
            }
        }
        if s == t {
            return Cmp::Eq;
        }
        let mut balance = Vec::new();
        let (ws, wt) = (tally(s, 1, &mut balance), tally(t, -1, &mut balance));
        let if_gt = if balance.iter().all(|&b| b >= 0) {
            Cmp::Gt
        } else {
            Cmp::Inc
        };
        let if_lt = if balance.iter().all(|&b| b <= 0) {
            Cmp::Lt
        } else {
            Cmp::Inc
        };
        match ws.cmp(&wt) {
            Ordering::Greater => if_gt,
            Ordering::Less => if_lt,
            Ordering::Equal => match (s, t) {
                (T::F(f, xs), T::F(g, ys)) => match prec(*f, xs.len(), *g, ys.len()) {
                    Ordering::Greater => if_gt,
                    Ordering::Less => if_lt,
                    Ordering::Equal => {
                        let Some((x, y)) = xs.iter().zip(ys).find(|(x, y)| x != y) else {
                            return Cmp::Eq;
                        };
                        match kbo_by_definition(x, y) {
                            Cmp::Gt => if_gt,
                            Cmp::Lt => if_lt,
                            _ => Cmp::Inc,
                        }
                    }
                },
                _ => Cmp::Inc,
            },
        }
    }

    #[test]
    fn the_one_pass_kbo_agrees_with_the_definition() {
        let mut seed = 11;
        let mut seen = [0; 4];
        for _ in 0..20_000 {
            let a = random_term(&mut seed, 4);
            let b = random_term(&mut seed, 4);
            let expected = kbo_by_definition(&a, &b);
            assert_eq!(kbo(&a, &b), expected, "{a:?} {b:?}");
            seen[expected as usize] += 1;
        }
        // Every outcome occurs.
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }

    #[test]
    fn kbo_orders_by_weight_precedence_and_variables() {
        let e = f(1, vec![]);
        let x = T::V(0);
        // mult(e, x) > x; x and e are incomparable.
        let m = f(3, vec![e.clone(), x.clone()]);
        assert_eq!(kbo(&m, &x), Cmp::Gt);
        assert_eq!(kbo(&x, &m), Cmp::Lt);
        assert_eq!(kbo(&x, &e), Cmp::Inc);
        // f(x, y) vs f(y, x): incomparable; f(a, b) vs f(b, a) by lex.
        let y = T::V(1);
        assert_eq!(
            kbo(&f(3, vec![x.clone(), y.clone()]), &f(3, vec![y, x])),
            Cmp::Inc
        );
        let b = f(2, vec![]);
        assert_eq!(
            kbo(&f(3, vec![b.clone(), e.clone()]), &f(3, vec![e, b])),
            Cmp::Gt
        );
    }
}

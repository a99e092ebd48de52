//! A small CDCL SAT solver for the finite model search's ground problems:
//! two watched literals, first-UIP learning, activity-ordered decisions with
//! phase saving, and Luby restarts. Written for ground expansions of a few
//! hundred thousand clauses, which it loads far faster than Z3's API can, and
//! checked cheaply against a `stop` callback so a deadline ends it promptly.
//! Deterministic: ties are broken by variable number.

/// A literal: variable `v` is `2v` (positive) or `2v + 1` (negated).
pub type Lit = u32;

/// The positive literal of variable `v`.
pub fn pos(v: u32) -> Lit {
    v << 1
}

/// The negative literal of variable `v`.
pub fn neg(v: u32) -> Lit {
    (v << 1) | 1
}

/// How many conflicts pass between two calls of the `stop` callback.
const STOP_EVERY: u64 = 64;

const UNDEF: u8 = 2;

pub struct Solver {
    clauses: Vec<Vec<Lit>>,
    /// Clause indices watching each literal (watched when it becomes false).
    watches: Vec<Vec<usize>>,
    /// Per variable: 0 false, 1 true, [`UNDEF`].
    value: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<Option<usize>>,
    trail: Vec<Lit>,
    trail_lim: Vec<usize>,
    head: usize,
    activity: Vec<f64>,
    bump: f64,
    phase: Vec<bool>,
    heap: Heap,
    seen: Vec<bool>,
    /// An empty clause was added or derived at level 0.
    inconsistent: bool,
}

impl Solver {
    pub fn new(vars: u32) -> Solver {
        let n = vars as usize;
        let mut heap = Heap::new(n);
        let activity = vec![0.0; n];
        for v in 0..vars {
            heap.insert(v, &activity);
        }
        Solver {
            clauses: Vec::new(),
            watches: vec![Vec::new(); 2 * n],
            value: vec![UNDEF; n],
            level: vec![0; n],
            reason: vec![None; n],
            trail: Vec::new(),
            trail_lim: Vec::new(),
            head: 0,
            activity,
            bump: 1.0,
            phase: vec![false; n],
            heap,
            seen: vec![false; n],
            inconsistent: false,
        }
    }

    fn lit_value(&self, l: Lit) -> u8 {
        match self.value[(l >> 1) as usize] {
            UNDEF => UNDEF,
            v => v ^ (l & 1) as u8,
        }
    }

    /// Adds a clause (at level 0, before [`Solver::solve`]).
    pub fn add_clause(&mut self, lits: &[Lit]) {
        if self.inconsistent {
            return;
        }
        let mut c: Vec<Lit> = lits.to_vec();
        c.sort_unstable();
        c.dedup();
        if c.windows(2).any(|w| w[0] ^ 1 == w[1]) {
            return; // a tautology
        }
        c.retain(|&l| self.lit_value(l) != 0);
        if c.iter().any(|&l| self.lit_value(l) == 1) {
            return;
        }
        match c.len() {
            0 => self.inconsistent = true,
            1 => {
                self.assign(c[0], None);
                if self.propagate().is_some() {
                    self.inconsistent = true;
                }
            }
            _ => {
                self.attach(c);
            }
        }
    }

    fn attach(&mut self, c: Vec<Lit>) -> usize {
        let i = self.clauses.len();
        self.watches[c[0] as usize].push(i);
        self.watches[c[1] as usize].push(i);
        self.clauses.push(c);
        i
    }

    fn assign(&mut self, l: Lit, reason: Option<usize>) {
        let v = (l >> 1) as usize;
        self.value[v] = ((l & 1) ^ 1) as u8;
        self.level[v] = self.trail_lim.len() as u32;
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Unit propagation; a falsified clause on conflict.
    fn propagate(&mut self) -> Option<usize> {
        while self.head < self.trail.len() {
            let falsified = self.trail[self.head] ^ 1;
            self.head += 1;
            let mut watching = std::mem::take(&mut self.watches[falsified as usize]);
            let mut i = 0;
            let mut conflict = None;
            while i < watching.len() {
                let ci = watching[i];
                let c = &mut self.clauses[ci];
                if c[0] == falsified {
                    c.swap(0, 1);
                }
                let first = c[0];
                if self.lit_value(first) == 1 {
                    i += 1;
                    continue;
                }
                // Look for a new literal to watch.
                let mut moved = false;
                for k in 2..self.clauses[ci].len() {
                    let l = self.clauses[ci][k];
                    if self.lit_value(l) != 0 {
                        self.clauses[ci].swap(1, k);
                        self.watches[l as usize].push(ci);
                        watching.swap_remove(i);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                if self.lit_value(first) == 0 {
                    conflict = Some(ci);
                    break;
                }
                self.assign(first, Some(ci));
                i += 1;
            }
            self.watches[falsified as usize] = watching;
            if conflict.is_some() {
                self.head = self.trail.len();
                return conflict;
            }
        }
        None
    }

    /// First-UIP learning: the learnt clause (asserting literal first) and
    /// the level to go back to.
    fn analyze(&mut self, mut conflict: usize) -> (Vec<Lit>, u32) {
        let current = self.trail_lim.len() as u32;
        let mut learnt = vec![0];
        let mut open = 0;
        let mut index = self.trail.len();
        // The variable whose reason is being expanded (its literal is skipped).
        let mut expanding: Option<usize> = None;
        loop {
            for k in 0..self.clauses[conflict].len() {
                let l = self.clauses[conflict][k];
                let v = (l >> 1) as usize;
                if Some(v) == expanding || self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                self.seen[v] = true;
                self.bump_var(v as u32);
                if self.level[v] == current {
                    open += 1;
                } else {
                    learnt.push(l);
                }
            }
            loop {
                index -= 1;
                if self.seen[(self.trail[index] >> 1) as usize] {
                    break;
                }
            }
            let p = self.trail[index];
            let v = (p >> 1) as usize;
            self.seen[v] = false;
            open -= 1;
            if open == 0 {
                learnt[0] = p ^ 1;
                break;
            }
            expanding = Some(v);
            // Only the level's decision has no reason, and it is the last open literal.
            let Some(reason) = self.reason[v] else {
                learnt[0] = p ^ 1;
                break;
            };
            conflict = reason;
        }
        for &l in &learnt[1..] {
            self.seen[(l >> 1) as usize] = false;
        }
        // The second watch goes on the literal of the highest level.
        let mut back = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for k in 2..learnt.len() {
                if self.level[(learnt[k] >> 1) as usize] > self.level[(learnt[best] >> 1) as usize]
                {
                    best = k;
                }
            }
            learnt.swap(1, best);
            back = self.level[(learnt[1] >> 1) as usize];
        }
        self.bump *= 1.0 / 0.95;
        (learnt, back)
    }

    fn bump_var(&mut self, v: u32) {
        self.activity[v as usize] += self.bump;
        if self.activity[v as usize] > 1e100 {
            self.activity.iter_mut().for_each(|a| *a *= 1e-100);
            self.bump *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    fn backtrack(&mut self, level: u32) {
        let level = level as usize;
        if self.trail_lim.len() <= level {
            return;
        }
        let keep = self.trail_lim[level];
        for k in (keep..self.trail.len()).rev() {
            let l = self.trail[k];
            let v = l >> 1;
            self.phase[v as usize] = l & 1 == 0;
            self.value[v as usize] = UNDEF;
            self.reason[v as usize] = None;
            self.heap.insert(v, &self.activity);
        }
        self.trail.truncate(keep);
        self.trail_lim.truncate(level);
        self.head = keep;
    }

    /// `Some(true)` satisfiable (read it with [`Solver::value`]), `Some(false)`
    /// unsatisfiable, `None` when `stop` said so first.
    pub fn solve(&mut self, stop: &mut dyn FnMut() -> bool) -> Option<bool> {
        if self.inconsistent {
            return Some(false);
        }
        if self.propagate().is_some() {
            self.inconsistent = true;
            return Some(false);
        }
        let mut conflicts: u64 = 0;
        let mut restart = 1u64;
        loop {
            let budget = 100 * luby(restart);
            restart += 1;
            let mut here = 0u64;
            loop {
                if let Some(conflict) = self.propagate() {
                    conflicts += 1;
                    here += 1;
                    if self.trail_lim.is_empty() {
                        self.inconsistent = true;
                        return Some(false);
                    }
                    let (learnt, back) = self.analyze(conflict);
                    self.backtrack(back);
                    if learnt.len() == 1 {
                        self.assign(learnt[0], None);
                    } else {
                        let first = learnt[0];
                        let ci = self.attach(learnt);
                        self.assign(first, Some(ci));
                    }
                    if conflicts % STOP_EVERY == 0 && stop() {
                        return None;
                    }
                    continue;
                }
                if here >= budget {
                    self.backtrack(0);
                    break;
                }
                let Some(v) = self.next_decision() else {
                    return Some(true);
                };
                self.trail_lim.push(self.trail.len());
                let l = if self.phase[v as usize] { pos(v) } else { neg(v) };
                self.assign(l, None);
            }
            if stop() {
                return None;
            }
        }
    }

    fn next_decision(&mut self) -> Option<u32> {
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value[v as usize] == UNDEF {
                return Some(v);
            }
        }
        None
    }

    /// The value of variable `v` in the model after a satisfiable answer.
    pub fn value(&self, v: u32) -> bool {
        self.value[v as usize] == 1
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, … (`i` from 1).
fn luby(mut i: u64) -> u64 {
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A max-heap of variables by activity (ties: lower variable first).
struct Heap {
    items: Vec<u32>,
    /// Position of each variable in `items`, or `usize::MAX`.
    at: Vec<usize>,
}

impl Heap {
    fn new(n: usize) -> Heap {
        Heap {
            items: Vec::with_capacity(n),
            at: vec![usize::MAX; n],
        }
    }

    fn before(a: u32, b: u32, activity: &[f64]) -> bool {
        let (x, y) = (activity[a as usize], activity[b as usize]);
        x > y || (x == y && a < b)
    }

    fn insert(&mut self, v: u32, activity: &[f64]) {
        if self.at[v as usize] != usize::MAX {
            return;
        }
        self.items.push(v);
        self.at[v as usize] = self.items.len() - 1;
        self.up(self.items.len() - 1, activity);
    }

    fn increased(&mut self, v: u32, activity: &[f64]) {
        let i = self.at[v as usize];
        if i != usize::MAX {
            self.up(i, activity);
        }
    }

    fn pop(&mut self, activity: &[f64]) -> Option<u32> {
        let top = *self.items.first()?;
        let last = self.items.pop()?;
        self.at[top as usize] = usize::MAX;
        if !self.items.is_empty() {
            self.items[0] = last;
            self.at[last as usize] = 0;
            self.down(0, activity);
        }
        Some(top)
    }

    fn up(&mut self, mut i: usize, activity: &[f64]) {
        let v = self.items[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.items[parent];
            if !Heap::before(v, p, activity) {
                break;
            }
            self.items[i] = p;
            self.at[p as usize] = i;
            i = parent;
        }
        self.items[i] = v;
        self.at[v as usize] = i;
    }

    fn down(&mut self, mut i: usize, activity: &[f64]) {
        let v = self.items[i];
        loop {
            let left = 2 * i + 1;
            if left >= self.items.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.items.len()
                && Heap::before(self.items[right], self.items[left], activity)
            {
                right
            } else {
                left
            };
            let c = self.items[child];
            if !Heap::before(c, v, activity) {
                break;
            }
            self.items[i] = c;
            self.at[c as usize] = i;
            i = child;
        }
        self.items[i] = v;
        self.at[v as usize] = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn satisfiable_by_truth_table(vars: u32, clauses: &[Vec<Lit>]) -> bool {
        (0..1u32 << vars).any(|row| {
            clauses.iter().all(|c| {
                c.iter()
                    .any(|&l| ((row >> (l >> 1)) & 1 == 1) == (l & 1 == 0))
            })
        })
    }

    #[test]
    fn luby_sequence() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    /// Differential against truth tables on random 3-CNFs near the
    /// satisfiability threshold; every model satisfies every clause.
    #[test]
    fn agrees_with_truth_tables_on_random_cnfs() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        let (mut sat, mut unsat) = (0, 0);
        for case in 0..600 {
            let vars = rng.gen_range(1..=12u32);
            let count = rng.gen_range(0..=(vars as usize * 5));
            let clauses: Vec<Vec<Lit>> = (0..count)
                .map(|_| {
                    (0..rng.gen_range(1..=3))
                        .map(|_| {
                            let v = rng.gen_range(0..vars);
                            if rng.gen_bool(0.5) {
                                pos(v)
                            } else {
                                neg(v)
                            }
                        })
                        .collect()
                })
                .collect();
            let mut s = Solver::new(vars);
            clauses.iter().for_each(|c| s.add_clause(c));
            let expected = satisfiable_by_truth_table(vars, &clauses);
            let got = s.solve(&mut || false).expect("no stop");
            assert_eq!(got, expected, "case {case}: {clauses:?}");
            if got {
                sat += 1;
                for c in &clauses {
                    assert!(
                        c.iter().any(|&l| s.value(l >> 1) == (l & 1 == 0)),
                        "case {case}: model breaks {c:?}"
                    );
                }
            } else {
                unsat += 1;
            }
        }
        assert!(sat > 100 && unsat > 100, "{sat} sat, {unsat} unsat");
    }

    /// Pigeonhole: 6 pigeons do not fit in 5 holes; 5 do.
    #[test]
    fn pigeonhole() {
        for (pigeons, holes, expected) in [(6u32, 5u32, false), (5, 5, true)] {
            let var = |p: u32, h: u32| p * holes + h;
            let mut s = Solver::new(pigeons * holes);
            for p in 0..pigeons {
                let c: Vec<Lit> = (0..holes).map(|h| pos(var(p, h))).collect();
                s.add_clause(&c);
            }
            for h in 0..holes {
                for p in 0..pigeons {
                    for q in p + 1..pigeons {
                        s.add_clause(&[neg(var(p, h)), neg(var(q, h))]);
                    }
                }
            }
            assert_eq!(s.solve(&mut || false), Some(expected));
        }
    }

    #[test]
    fn stop_ends_the_search() {
        // Pigeonhole 9 into 8 takes far more than 64 conflicts.
        let (pigeons, holes) = (9u32, 8u32);
        let var = |p: u32, h: u32| p * holes + h;
        let mut s = Solver::new(pigeons * holes);
        for p in 0..pigeons {
            let c: Vec<Lit> = (0..holes).map(|h| pos(var(p, h))).collect();
            s.add_clause(&c);
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    s.add_clause(&[neg(var(p, h)), neg(var(q, h))]);
                }
            }
        }
        assert_eq!(s.solve(&mut || true), None);
    }
}

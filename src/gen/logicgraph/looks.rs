//! How a premise looks to a reader who draws the premises' graph without
//! following a proof, and how much more like a distractor than a cited
//! premise that look is: the tilt [`super::build`] gives its choice of
//! distractors.
//!
//! The figures are those of `scripts/cue-audit`'s link and sharing readers
//! and of `scripts/distractor-ranking`'s graph, capped. `looks.forest`
//! holds gradient-boosted trees over them whose leaves add up to the log
//! odds of "distractor", fitted by `scripts/distractor-looks` on generated
//! instances. Keeping a candidate set of distractors with weight `exp(-Σ
//! log odds)` over its premises divides out the density ratio the trees
//! estimate, so that the figures of the distractors kept, jointly, are
//! distributed as those of cited premises. The trees are fitted again on
//! the output of the tilted build and added, until a held-out reader is
//! at chance; a change to the construction needs them fitted again.

use super::prop::Prop;
use std::collections::{BTreeMap, BTreeSet};

/// How many figures [`figures`] gives.
pub(super) const FIGURES: usize = 28;

/// Each figure's cap: a value above is counted as the cap.
pub(super) const CAPS: [usize; FIGURES] = [
    4, 6, 2, 1, 2, 3, 1, 1, 1, 1, 10, 10, 10, 10, 7, 6, 4, 10, 10, 10, 10, 15, 10, 15, 15, 6, 2, 7,
];

/// One premise, read as the audit reads its `formal` text.
struct Read {
    /// Its atoms, each once.
    atoms: Vec<usize>,
    /// Atoms of its "if" part and its "then" part (a premise that is not a
    /// conditional is all "then").
    ante: Vec<usize>,
    cons: Vec<usize>,
    /// Its literals as written, (negated, atom), in order.
    literals: Vec<(bool, usize)>,
    fact: bool,
}

fn read(p: &Prop) -> Read {
    let (ante, cons) = super::build::if_then_atoms(p);
    let mut literals = Vec::new();
    super::build::written_literals(p, &mut literals);
    Read {
        atoms: super::build::atoms_in(p),
        ante,
        cons,
        literals,
        fact: p.is_literal(),
    }
}

fn overlap(a: &[usize], b: &[usize]) -> usize {
    a.iter().filter(|x| b.contains(x)).count()
}

/// What the figures count over a pool: how many premises mention each
/// atom, write each literal (and how often), have each atom in their "if"
/// part; which atoms are facts.
#[derive(Clone, Default)]
struct Counts {
    mentions: BTreeMap<usize, usize>,
    polarity: BTreeMap<(bool, usize), usize>,
    writers: BTreeMap<(bool, usize), usize>,
    as_ante: BTreeMap<usize, usize>,
    facts: BTreeSet<usize>,
}

impl Counts {
    fn add(&mut self, r: &Read) {
        for &a in &r.atoms {
            *self.mentions.entry(a).or_default() += 1;
        }
        for &l in &r.literals {
            *self.polarity.entry(l).or_default() += 1;
        }
        let mut written = r.literals.clone();
        written.sort_unstable();
        written.dedup();
        for l in written {
            *self.writers.entry(l).or_default() += 1;
        }
        for &a in &r.ante {
            *self.as_ante.entry(a).or_default() += 1;
        }
        if r.fact {
            self.facts.extend(r.atoms.iter().copied());
        }
    }
}

/// How many `m` counts for `k` (0 when none).
pub(super) fn count<K: Ord>(m: &BTreeMap<K, usize>, k: K) -> usize {
    m.get(&k).copied().unwrap_or(0)
}

/// Whether two premises are joined in the graph: a shared sentence other
/// than `G`'s.
fn joined(a: &Read, b: &Read) -> bool {
    a.atoms.iter().any(|&x| x != 0 && b.atoms.contains(&x))
}

/// The real pool read once, so that each candidate set of distractors
/// read with it costs only its own premises.
pub(super) struct Reader {
    real: Vec<Read>,
    counts: Counts,
    /// The real premises each real premise is joined to.
    near: Vec<Vec<usize>>,
}

impl Reader {
    pub(super) fn new(real: &[Prop]) -> Self {
        let real: Vec<Read> = real.iter().map(read).collect();
        let mut counts = Counts::default();
        for r in &real {
            counts.add(r);
        }
        let near = (0..real.len())
            .map(|i| {
                (0..real.len())
                    .filter(|&k| k != i && joined(&real[i], &real[k]))
                    .collect()
            })
            .collect();
        Reader { real, counts, near }
    }

    /// The capped figures of each of `props`, added to the real pool, as
    /// it links to all the other premises: how many others mention its
    /// least and most mentioned atom, how many "if" atoms are facts,
    /// whether it is a fact, how many of its literals have an atom's rarer
    /// polarity, how often its "then" atoms are others' "if" atoms, where
    /// it writes `G` (four indicators), how many others mention each of its
    /// atoms (sorted; the first two and the last two, zeros after fewer
    /// than four), its atoms and "if" atoms, the facts sharing an atom, how
    /// often its "if" and "then" atoms are in others' "if" and "then"
    /// parts, how many others share one atom or two; and, in the graph of
    /// premises joined by a sentence other than `G`'s (as
    /// `scripts/distractor-ranking` draws it), its degree, its neighbours'
    /// mean degree (rounded down) and its distance to a premise that
    /// mentions `G`; then how many of its literals no other premise writes
    /// (a verb form no other premise has) and how many literals it writes.
    pub(super) fn figures(&self, props: &[Prop]) -> Vec<[usize; FIGURES]> {
        let n = self.real.len();
        let extra: Vec<Read> = props.iter().map(read).collect();
        let mut counts = self.counts.clone();
        for r in &extra {
            counts.add(r);
        }
        let at = |k: usize| if k < n { &self.real[k] } else { &extra[k - n] };
        let total = n + extra.len();
        // The graph: each added premise's neighbours, and the added
        // premises each real one gains.
        let extra_near: Vec<Vec<usize>> = (0..extra.len())
            .map(|e| {
                (0..total)
                    .filter(|&k| k != n + e && joined(&extra[e], at(k)))
                    .collect()
            })
            .collect();
        let mut gained: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (e, near) in extra_near.iter().enumerate() {
            for &k in near.iter().filter(|&&k| k < n) {
                gained.entry(k).or_default().push(n + e);
            }
        }
        let neighbours = |k: usize| -> Vec<usize> {
            if k < n {
                let mut all = self.near[k].clone();
                all.extend(gained.get(&k).into_iter().flatten().copied());
                all
            } else {
                extra_near[k - n].clone()
            }
        };
        let degree = |k: usize| {
            if k < n {
                self.near[k].len() + gained.get(&k).map_or(0, Vec::len)
            } else {
                extra_near[k - n].len()
            }
        };
        let mut distance: Vec<Option<usize>> = (0..total)
            .map(|k| at(k).atoms.contains(&0).then_some(0))
            .collect();
        let mut frontier: Vec<usize> = (0..total).filter(|&k| distance[k].is_some()).collect();
        let mut step = 0;
        while !frontier.is_empty() {
            step += 1;
            let mut reached = Vec::new();
            for &i in &frontier {
                for j in neighbours(i) {
                    if distance[j].is_none() {
                        distance[j] = Some(step);
                        reached.push(j);
                    }
                }
            }
            frontier = reached;
        }
        (n..total)
            .map(|i| {
                let me = at(i);
                let mut per_atom: Vec<usize> = me
                    .atoms
                    .iter()
                    .map(|&a| count(&counts.mentions, a) - 1)
                    .collect();
                per_atom.sort_unstable();
                let fewest = per_atom.first().copied().unwrap_or(0);
                let most = per_atom.last().copied().unwrap_or(0);
                let four = if per_atom.len() < 4 {
                    let mut padded = per_atom.clone();
                    padded.resize(4, 0);
                    padded
                } else {
                    let m = per_atom.len();
                    vec![per_atom[0], per_atom[1], per_atom[m - 2], per_atom[m - 1]]
                };
                let rarer = me
                    .literals
                    .iter()
                    .filter(|&&(neg, a)| {
                        count(&counts.polarity, (neg, a)) < count(&counts.polarity, (!neg, a))
                    })
                    .count();
                let then_used: usize = me
                    .cons
                    .iter()
                    .map(|&a| count(&counts.as_ante, a) - usize::from(me.ante.contains(&a)))
                    .sum();
                let goal = |antecedent: bool, negated: bool| {
                    let role = me.ante.contains(&0) == antecedent;
                    usize::from(role && me.literals.contains(&(negated, 0)))
                };
                let (mut one, mut two, mut facts_sharing) = (0, 0, 0);
                let (mut if_if, mut if_then, mut then_if, mut then_then) = (0, 0, 0, 0);
                for k in (0..total).filter(|&k| k != i) {
                    let other = at(k);
                    let shared = overlap(&me.atoms, &other.atoms);
                    one += usize::from(shared >= 1);
                    two += usize::from(shared >= 2);
                    facts_sharing += usize::from(other.fact && shared >= 1);
                    if_if += overlap(&me.ante, &other.ante);
                    if_then += overlap(&me.ante, &other.cons);
                    then_if += overlap(&me.cons, &other.ante);
                    then_then += overlap(&me.cons, &other.cons);
                }
                let near = neighbours(i);
                let raw = [
                    fewest,
                    most,
                    me.ante.iter().filter(|a| counts.facts.contains(a)).count(),
                    usize::from(me.fact),
                    rarer,
                    then_used,
                    goal(true, false),
                    goal(true, true),
                    goal(false, false),
                    goal(false, true),
                    four[0],
                    four[1],
                    four[2],
                    four[3],
                    me.atoms.len(),
                    me.ante.len(),
                    facts_sharing,
                    if_if,
                    if_then,
                    then_if,
                    then_then,
                    one,
                    two,
                    near.len(),
                    near.iter().map(|&j| degree(j)).sum::<usize>() / near.len().max(1),
                    distance[i].unwrap_or(usize::MAX),
                    me.literals
                        .iter()
                        .filter(|&&l| count(&counts.writers, l) == 1)
                        .count(),
                    me.literals.len(),
                ];
                let mut out = [0; FIGURES];
                for (o, (v, cap)) in out.iter_mut().zip(raw.iter().zip(CAPS)) {
                    *o = (*v).min(cap);
                }
                out
            })
            .collect()
    }

    /// How much more like distractors than cited premises `props`, added
    /// to the real pool, look, summed: the trees' log odds of "distractor"
    /// (less their intercept), in thousandths.
    pub(super) fn distractor_look(&self, props: &[Prop]) -> i64 {
        let forest = &forests()[POOL_SIZES.iter().filter(|&&n| self.real.len() >= n).count()];
        self.figures(props)
            .iter()
            .map(|f| forest.roots.iter().map(|&r| forest.leaf(r, f)).sum::<i64>())
            .sum()
    }
}

/// A node of a regression tree over [`figures`]: a leaf when `figure` is
/// [`LEAF`], else `left` when the figure is at most `at_most`.
#[derive(Clone, Copy)]
struct Node {
    figure: u8,
    at_most: u8,
    left: u16,
    right: u16,
    value: i16,
}

const LEAF: u8 = u8::MAX;

/// Trees whose leaves add up to the log odds of "distractor", in
/// thousandths, less the intercept.
#[derive(Default)]
struct Forest {
    nodes: Vec<Node>,
    roots: Vec<u16>,
}

impl Forest {
    fn leaf(&self, root: u16, f: &[usize; FIGURES]) -> i64 {
        let mut at = usize::from(root);
        loop {
            let n = self.nodes[at];
            if n.figure == LEAF {
                return i64::from(n.value);
            }
            at = usize::from(if f[usize::from(n.figure)] <= usize::from(n.at_most) {
                n.left
            } else {
                n.right
            });
        }
    }
}

/// Where the forests' pools of real premises change: the tiers' pools
/// overlap (Small has 12 to 32, Medium 30 to 54, Large 48 to 93 from the
/// tenth to the ninetieth percentile), and each looks different.
const POOL_SIZES: [usize; 2] = [24, 50];

/// How many forests: one per range of pool sizes.
const BUCKETS: usize = POOL_SIZES.len() + 1;

/// The forests of `looks.forest`, read once.
fn forests() -> &'static [Forest; BUCKETS] {
    static FORESTS: std::sync::OnceLock<[Forest; BUCKETS]> = std::sync::OnceLock::new();
    FORESTS.get_or_init(|| read_forests(include_str!("looks.forest")).unwrap_or_default())
}

/// Reads forests in the format `scripts/distractor-looks` writes: a tree
/// begins with `R bucket`, then a line per node, the root first: `figure
/// at_most left right 0` for a split (children numbered within the tree)
/// or `255 0 0 0 value` for a leaf. An error names the line.
fn read_forests(text: &str) -> Result<[Forest; BUCKETS], String> {
    let mut forests: [Forest; BUCKETS] = Default::default();
    let mut tree: Option<(usize, usize)> = None;
    for (n, line) in text.lines().enumerate() {
        let bad = || format!("looks.forest:{}: {line:?}", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["R", bucket] = words[..] {
            let bucket: usize = bucket.parse().map_err(|_| bad())?;
            let forest = forests.get_mut(bucket).ok_or_else(bad)?;
            let root = forest.nodes.len();
            forest.roots.push(u16::try_from(root).map_err(|_| bad())?);
            tree = Some((bucket, root));
            continue;
        }
        let (bucket, root) = tree.ok_or_else(bad)?;
        let numbers: Vec<i64> = words
            .iter()
            .map(|w| w.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let [figure, at_most, left, right, value] = numbers[..] else {
            return Err(bad());
        };
        let small = |x: i64| u16::try_from(root as i64 + x).map_err(|_| bad());
        let node = Node {
            figure: u8::try_from(figure).map_err(|_| bad())?,
            at_most: u8::try_from(at_most).map_err(|_| bad())?,
            left: small(left)?,
            right: small(right)?,
            value: i16::try_from(value).map_err(|_| bad())?,
        };
        if node.figure != LEAF && usize::from(node.figure) >= FIGURES {
            return Err(bad());
        }
        forests[bucket].nodes.push(node);
    }
    // Every split's children are nodes of its own tree, after it.
    for forest in &forests {
        let ends = forest
            .roots
            .iter()
            .skip(1)
            .map(|&r| usize::from(r))
            .chain([forest.nodes.len()]);
        for (&root, end) in forest.roots.iter().zip(ends) {
            for at in usize::from(root)..end {
                let n = forest.nodes[at];
                let inside = |c: u16| usize::from(c) > at && usize::from(c) < end;
                if n.figure != LEAF && !(inside(n.left) && inside(n.right)) {
                    return Err(format!(
                        "looks.forest: a split's child is outside its tree (node {at})"
                    ));
                }
            }
            if usize::from(root) >= end {
                return Err("looks.forest: an empty tree".to_string());
            }
        }
    }
    Ok(forests)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(k: usize) -> Prop {
        Prop::atom(k)
    }

    #[test]
    fn figures_are_the_audits_on_a_small_pool() {
        // A1; A1 → A2; A2 → G; A2 ∨ ¬A3.
        let pool = vec![
            a(1),
            Prop::Implies(Box::new(a(1)), Box::new(a(2))),
            Prop::Implies(Box::new(a(2)), Box::new(a(0))),
            Prop::Or(Box::new(a(2)), Box::new(Prop::neg(&a(3)))),
        ];
        let f = Reader::new(&pool[..1]).figures(&pool[1..]);
        assert_eq!(
            f[0].to_vec(),
            [1, 2, 1, 0, 0, 1, 0, 0, 0, 0, 1, 2, 0, 0, 2, 1, 1, 0, 1, 1, 1, 3, 0, 3, 1, 1, 0, 2]
        );
        assert_eq!(
            f[1][6..10].to_vec(),
            [0, 0, 1, 0],
            "A2 → G writes G in its then part"
        );
        assert_eq!(
            f[2].to_vec(),
            [0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 1, 1, 2, 0, 2, 2, 1, 1, 2]
        );
    }

    #[test]
    fn the_shipped_forest_reads() {
        let forests = read_forests(include_str!("looks.forest")).expect("the shipped forest reads");
        assert!(
            forests.iter().all(|f| !f.roots.is_empty()),
            "a forest per pool size"
        );
    }

    #[test]
    fn a_malformed_forest_is_refused_with_its_line() {
        for (text, line) in [
            ("0 0 1 2 0\n", 1),
            ("R 0\n0 1 1 2 0\n255 0 0 0 5\n", 0),
            ("R 3\n", 1),
            ("R 0\n28 1 1 2 0\n255 0 0 0 1\n255 0 0 0 2\n", 2),
            ("R 0\n255 0 0 0 99999\n", 2),
        ] {
            let err = read_forests(text).err().expect(text);
            if line > 0 {
                assert!(err.starts_with(&format!("looks.forest:{line}:")), "{err}");
            }
        }
        let ok = read_forests("R 1\n3 2 1 2 0\n255 0 0 0 -40\n255 0 0 0 70\n").expect("a stump");
        let mut f = [0; FIGURES];
        f[3] = 2;
        assert_eq!(ok[1].leaf(ok[1].roots[0], &f), -40);
        f[3] = 3;
        assert_eq!(ok[1].leaf(ok[1].roots[0], &f), 70);
    }
}

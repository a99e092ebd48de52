//! The logical graph: formulas as nodes, reasoning relations as edges.
//!
//! As in LogiConBench (its section 3.1), the graph grows from one atom, the
//! first of the atom list, and every new node expands one existing node by
//! an introduction rule: its negation `¬A`, or `A ∧ q` or `A ∨ q` with an
//! atom `q` drawn from the list. Conjunction, disjunction and negation thus
//! live in nodes, while implication, equivalence and contradiction are the
//! edges: each new node is joined to the node it expands by the relation
//! the truth-table engine finds between them. A node that is valid,
//! unsatisfiable, already present, has more atom occurrences than allowed,
//! or holds a form a reader would simplify at sight (see [`redundant`]) is
//! not added, so every edge is a checked fact and no statement is padded.

use crate::syntax::prover9::Formula;
use crate::truth::{Models, TruthError, TruthTable};
use rand::Rng;
use std::collections::{HashSet, VecDeque};

/// A reasoning relation on an edge of the logical graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Relation {
    /// `from` entails `to`.
    Implies,
    /// `from` and `to` are equivalent.
    Iff,
    /// `from` is equivalent to the negation of `to`.
    Contradicts,
}

/// A directed edge between two node indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Edge {
    pub from: usize,
    pub relation: Relation,
    pub to: usize,
}

impl Edge {
    /// The end that is not `n`.
    fn other(self, n: usize) -> usize {
        if self.from == n {
            self.to
        } else {
            self.from
        }
    }
}

/// One node: its formula, its models over the graph's atoms, its atom
/// occurrences, which atoms it mentions, and its depth (introduction rules
/// applied since the root).
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub formula: Formula,
    pub models: Models,
    pub atoms: usize,
    /// Bit `i` set: the node mentions the graph's atom `i` (a truth table
    /// has at most 20 atoms, so they fit).
    pub mentioned: u32,
    pub depth: usize,
}

impl Node {
    /// How many different atoms the node mentions.
    pub(crate) fn distinct_atoms(&self) -> usize {
        self.mentioned.count_ones() as usize
    }
}

/// A logical graph over a fixed list of atoms.
#[derive(Debug, Clone)]
pub(crate) struct Graph {
    pub atoms: Vec<String>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// For each node, the indices of its edges, in insertion order.
    incident: Vec<Vec<usize>>,
}

/// The introduction rules that build nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Rule {
    Not,
    And,
    Or,
}

const RULES: [Rule; 3] = [Rule::Not, Rule::And, Rule::Or];

/// How often [`Graph::grow`] draws each introduction rule: weights of `-`,
/// `&` and `|`, in [`RULES`]' order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RuleWeights(pub [usize; 3]);

impl RuleWeights {
    /// Each rule as often as the others.
    pub(crate) const EVEN: RuleWeights = RuleWeights([1, 1, 1]);

    fn draw(self, rng: &mut impl Rng) -> Rule {
        RULES[draw_weighted(&self.0, rng).unwrap_or(0)]
    }
}

/// An index drawn with probability proportional to its weight, or `None`
/// when every weight is 0.
pub(crate) fn draw_weighted(weights: &[usize], rng: &mut impl Rng) -> Option<usize> {
    let total: usize = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut ticket = rng.gen_range(0..total);
    weights.iter().position(|&w| {
        let hit = ticket < w;
        ticket = ticket.saturating_sub(w);
        hit
    })
}

/// The strongest relation between two sets of models, if any, oriented from `a` to `b`
/// (`Some((true, Implies))` means `b` entails `a`).
fn relation(a: &Models, b: &Models) -> Option<(bool, Relation)> {
    if a == b {
        Some((false, Relation::Iff))
    } else if *a == b.not() {
        Some((false, Relation::Contradicts))
    } else if a.is_subset(b) {
        Some((false, Relation::Implies))
    } else if b.is_subset(a) {
        Some((true, Relation::Implies))
    } else {
        None
    }
}

/// How many atom occurrences `f` has.
pub(crate) fn atom_occurrences(f: &Formula) -> usize {
    match f {
        Formula::Not(a) => atom_occurrences(a),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Implies(a, b)
        | Formula::ImpliedBy(a, b)
        | Formula::Iff(a, b) => atom_occurrences(a) + atom_occurrences(b),
        Formula::Atom(_) => 1,
        _ => 0,
    }
}

/// The operands of `f`'s top chain of `&` (`and`) or of `|`, left to
/// right; `f` alone when its top is anything else.
pub(super) fn chain<'a>(f: &'a Formula, and: bool, out: &mut Vec<&'a Formula>) {
    match f {
        Formula::And(a, b) if and => {
            chain(a, and, out);
            chain(b, and, out);
        }
        Formula::Or(a, b) if !and => {
            chain(a, and, out);
            chain(b, and, out);
        }
        _ => out.push(f),
    }
}

/// Whether expanding `parent` by `rule` (with the atom `q` for `&` and `|`)
/// gives a form a reader would simplify at sight: a double negation `--A`,
/// an operand repeated in one chain (`p & p`, `(p | q) | q`), or one
/// absorbed by a chain beside it (`(p | q) & q`, `((p & q) | r) | q`).
/// Every proper subformula of a node is an earlier node, checked when it
/// was added, so looking at the new top chain is enough.
fn redundant(parent: &Formula, rule: Rule, q: &Formula) -> bool {
    let and = match rule {
        Rule::Not => return matches!(parent, Formula::Not(_)),
        Rule::And => true,
        Rule::Or => false,
    };
    let mut operands = Vec::new();
    chain(parent, and, &mut operands);
    operands.iter().any(|&operand| {
        let mut dual = Vec::new();
        chain(operand, !and, &mut dual);
        dual.contains(&q)
    })
}

impl Graph {
    /// Grows a graph over `atoms` until it has `target_nodes` nodes or the
    /// attempts run out, drawing each expansion's rule by `weights`. No
    /// node has more than `max_occurrences` atom occurrences.
    pub(crate) fn grow(
        atoms: Vec<String>,
        target_nodes: usize,
        max_occurrences: usize,
        weights: RuleWeights,
        rng: &mut impl Rng,
    ) -> Result<Graph, TruthError> {
        let table = TruthTable::with_atoms(atoms.clone())?;
        let mut graph = Graph {
            atoms,
            nodes: Vec::new(),
            edges: Vec::new(),
            incident: Vec::new(),
        };
        let root = Formula::atom(graph.atoms[0].clone());
        graph.push_node(root.clone(), table.models(&root)?, 1, 0);
        // A node is its rule applied to a distinct parent, so (parent, rule,
        // atom) names its formula exactly and is far cheaper to compare than
        // the formula. Membership only: the hash order never reaches the output.
        let mut seen: HashSet<(usize, Rule, usize)> = HashSet::new();
        let atom_formulas: Vec<Formula> = graph
            .atoms
            .iter()
            .map(|a| Formula::atom(a.clone()))
            .collect();
        let atom_models = atom_formulas
            .iter()
            .map(|a| table.models(a))
            .collect::<Result<Vec<Models>, TruthError>>()?;
        // Most draws succeed; the bound only stops a pathological stream.
        let attempts = target_nodes.saturating_mul(20);
        for _ in 0..attempts {
            if graph.nodes.len() >= target_nodes {
                break;
            }
            let rule = weights.draw(rng);
            // Half the expansions continue the newest node, so that
            // chains grow deep as well as wide.
            let parent = if rng.gen_ratio(1, 2) {
                graph.nodes.len() - 1
            } else {
                rng.gen_range(0..graph.nodes.len())
            };
            let q = rng.gen_range(0..graph.atoms.len());
            let node = &graph.nodes[parent];
            let (occurrences, models) = match rule {
                Rule::Not => (node.atoms, node.models.not()),
                Rule::And => (node.atoms + 1, node.models.and(&atom_models[q])),
                Rule::Or => (node.atoms + 1, node.models.or(&atom_models[q])),
            };
            if occurrences > max_occurrences || models.is_empty() || models.is_all() {
                continue;
            }
            let Some((reversed, rel)) = relation(&models, &node.models) else {
                continue;
            };
            let atom = &atom_formulas[q];
            if redundant(&node.formula, rule, atom) {
                continue;
            }
            let key = (parent, rule, if let Rule::Not = rule { 0 } else { q });
            if !seen.insert(key) {
                continue;
            }
            let formula = match rule {
                Rule::Not => Formula::not(node.formula.clone()),
                Rule::And => Formula::and(node.formula.clone(), atom.clone()),
                Rule::Or => Formula::or(node.formula.clone(), atom.clone()),
            };
            let mentioned = match rule {
                Rule::Not => node.mentioned,
                Rule::And | Rule::Or => node.mentioned | (1 << q),
            };
            let depth = node.depth + 1;
            let new = graph.push_node(formula, models, mentioned, depth);
            let (from, to) = if reversed {
                (parent, new)
            } else {
                (new, parent)
            };
            graph.push_edge(Edge {
                from,
                relation: rel,
                to,
            });
        }
        Ok(graph)
    }

    /// The depth of the deepest node.
    pub(crate) fn depth(&self) -> usize {
        self.nodes.iter().map(|n| n.depth).max().unwrap_or(0)
    }

    fn push_node(
        &mut self,
        formula: Formula,
        models: Models,
        mentioned: u32,
        depth: usize,
    ) -> usize {
        self.nodes.push(Node {
            atoms: atom_occurrences(&formula),
            formula,
            models,
            mentioned,
            depth,
        });
        self.incident.push(Vec::new());
        self.nodes.len() - 1
    }

    fn push_edge(&mut self, edge: Edge) {
        let index = self.edges.len();
        self.incident[edge.from].push(index);
        self.incident[edge.to].push(index);
        self.edges.push(edge);
    }

    /// A breadth-first search from `source` over the undirected graph.
    pub(crate) fn search(&self, source: usize) -> Search {
        let mut search = Search {
            distance: vec![usize::MAX; self.nodes.len()],
            via: vec![usize::MAX; self.nodes.len()],
        };
        search.distance[source] = 0;
        let mut queue = VecDeque::from([source]);
        while let Some(n) = queue.pop_front() {
            for &e in &self.incident[n] {
                let m = self.edges[e].other(n);
                if search.distance[m] == usize::MAX {
                    search.distance[m] = search.distance[n] + 1;
                    search.via[m] = e;
                    queue.push_back(m);
                }
            }
        }
        search
    }

    /// The edges of the shortest path from `from` to `to` in `from`'s
    /// search tree, each as traversed, or `None` if `to` is not reached.
    fn tree_path(&self, tree: &Search, from: usize, to: usize) -> Option<Vec<Traversed>> {
        let mut path = Vec::new();
        let mut n = to;
        while n != from {
            let e = *tree.via.get(n).filter(|&&e| e != usize::MAX)?;
            let previous = self.edges[e].other(n);
            path.push(Traversed::along(e, self.edges[e], previous));
            n = previous;
        }
        path.reverse();
        Some(path)
    }

    /// The reasoning path joining `terminals`, found as LogiConBench's
    /// Appendix E does: for every order of the terminals, the walk that
    /// joins consecutive ones by shortest paths; the walk with the fewest
    /// distinct edges wins, ties going to fewer distinct nodes, then to the
    /// earlier order. Its distinct edges are listed in the order the walk
    /// first crosses them, each read in that direction (an `->` crossed
    /// backwards reads `<-`). `None` if the terminals are not connected.
    pub(crate) fn paper_path(&self, terminals: &[usize]) -> Option<Vec<Traversed>> {
        let trees: Vec<Search> = terminals.iter().map(|&t| self.search(t)).collect();
        let k = terminals.len();
        let mut between = vec![Vec::new(); k * k];
        for (i, &a) in terminals.iter().enumerate() {
            for (j, &b) in terminals.iter().enumerate() {
                if i != j {
                    between[i * k + j] = self.tree_path(&trees[i], a, b)?;
                }
            }
        }
        // Up to k! walks are scored: their buffers are reused.
        let mut edge_seen = vec![false; self.edges.len()];
        let mut node_seen = vec![false; self.nodes.len()];
        let mut walk: Vec<Traversed> = Vec::new();
        let mut best: Option<((usize, usize), Vec<Traversed>)> = None;
        let mut order: Vec<usize> = (0..k).collect();
        loop {
            walk.clear();
            edge_seen.fill(false);
            for pair in order.windows(2) {
                for t in &between[pair[0] * k + pair[1]] {
                    if !std::mem::replace(&mut edge_seen[t.edge], true) {
                        walk.push(*t);
                    }
                }
            }
            node_seen.fill(false);
            let mut nodes = 0;
            for n in walk
                .iter()
                .flat_map(|t| [t.from, t.to])
                .chain(terminals.iter().copied())
            {
                if !std::mem::replace(&mut node_seen[n], true) {
                    nodes += 1;
                }
            }
            let cost = (walk.len(), nodes);
            if best.as_ref().is_none_or(|(b, _)| cost < *b) {
                best = Some((cost, walk.clone()));
            }
            if !next_permutation(&mut order) {
                break;
            }
        }
        best.map(|(_, walk)| walk)
    }
}

/// Steps `order` to the next permutation in lexicographic order; `false`
/// after the last.
fn next_permutation(order: &mut [usize]) -> bool {
    let Some(i) = (1..order.len()).rev().find(|&i| order[i - 1] < order[i]) else {
        return false;
    };
    let j = (i..order.len())
        .rev()
        .find(|&j| order[j] > order[i - 1])
        .expect("order[i] qualifies");
    order.swap(i - 1, j);
    order[i..].reverse();
    true
}

/// What a breadth-first search from one node found.
pub(crate) struct Search {
    /// Each node's distance, ignoring edge directions (`usize::MAX`: not
    /// reached).
    pub distance: Vec<usize>,
    /// The edge by which each node was first reached (`usize::MAX` for the
    /// source and for nodes not reached). Ties go to the edge added first,
    /// so the paths read from it are the same on every run.
    via: Vec<usize>,
}

/// A relation read in the direction a path crosses its edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// `from` entails `to`.
    Implies,
    /// `to` entails `from` (an `->` edge crossed backwards).
    ImpliedBy,
    /// Equivalent.
    Iff,
    /// Each is the other's negation.
    Contradicts,
}

impl Reading {
    /// `->`, `<-`, `<->` or `x`, as the path field writes it.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Reading::Implies => "->",
            Reading::ImpliedBy => "<-",
            Reading::Iff => "<->",
            Reading::Contradicts => "x",
        }
    }

    /// The truth-value pairs (`from`, `to`) the relation allows: the
    /// paper's LOGIC_RULES.
    fn allows(self, from: bool, to: bool) -> bool {
        match self {
            Reading::Implies => !from || to,
            Reading::ImpliedBy => from || !to,
            Reading::Iff => from == to,
            Reading::Contradicts => from != to,
        }
    }
}

/// An edge as a path crosses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Traversed {
    /// The edge's index in the graph.
    pub edge: usize,
    pub from: usize,
    pub reading: Reading,
    pub to: usize,
}

impl Traversed {
    /// `edge` (index `index`) crossed starting at node `start`.
    fn along(index: usize, edge: Edge, start: usize) -> Traversed {
        let forward = start == edge.from;
        let reading = match (edge.relation, forward) {
            (Relation::Implies, true) => Reading::Implies,
            (Relation::Implies, false) => Reading::ImpliedBy,
            (Relation::Iff, _) => Reading::Iff,
            (Relation::Contradicts, _) => Reading::Contradicts,
        };
        Traversed {
            edge: index,
            from: start,
            reading,
            to: edge.other(start),
        }
    }
}

/// The paper's label of each of the `2^k` canonical lists over `targets`
/// (bit `k-1-j` set: target `j` is `F`): a list is consistent when some
/// truth assignment to the nodes on `path` keeps every edge within
/// LOGIC_RULES and gives the targets the list's values. That is the
/// projection of the paper's DFS over the path onto the targets; each
/// edge is a two-literal constraint, so each list is one 2-SAT problem,
/// decided by propagation without search.
pub(crate) fn paper_consistency(path: &[Traversed], targets: &[usize]) -> Vec<bool> {
    let k = targets.len();
    let size = path
        .iter()
        .flat_map(|t| [t.from, t.to])
        .chain(targets.iter().copied())
        .max()
        .map_or(0, |n| n + 1);
    (0..1usize << k)
        .map(|mask| {
            let mut values = vec![None; size];
            for (j, &t) in targets.iter().enumerate() {
                values[t] = Some(mask >> (k - 1 - j) & 1 == 0);
            }
            satisfiable(path, values)
        })
        .collect()
}

/// Node values by node index (`None`: open).
type Values = Vec<Option<bool>>;

/// Whether `values` extends to every node of `path` within its edges'
/// relations. Propagating a choice that meets no conflict never loses a
/// solution when every constraint has two variables, so each open node
/// needs at most two tries.
fn satisfiable(path: &[Traversed], mut values: Values) -> bool {
    if !propagate(path, &mut values) {
        return false;
    }
    for t in path {
        for n in [t.from, t.to] {
            if values[n].is_some() {
                continue;
            }
            let tried = [true, false].into_iter().find_map(|v| {
                let mut attempt = values.clone();
                attempt[n] = Some(v);
                propagate(path, &mut attempt).then_some(attempt)
            });
            match tried {
                Some(extended) => values = extended,
                None => return false,
            }
        }
    }
    true
}

/// The value an edge forces on its open end, given which values it allows
/// there: `Err` if none, `Ok(None)` if both.
fn forced(allows: impl Fn(bool) -> bool) -> Result<Option<bool>, ()> {
    match (allows(true), allows(false)) {
        (false, false) => Err(()),
        (true, false) => Ok(Some(true)),
        (false, true) => Ok(Some(false)),
        (true, true) => Ok(None),
    }
}

/// Fixes every node value that an edge forces, until nothing changes;
/// `false` on an edge whose ends both have values it forbids.
fn propagate(path: &[Traversed], values: &mut Values) -> bool {
    loop {
        let mut changed = false;
        for t in path {
            let (open, forcing) = match (values[t.from], values[t.to]) {
                (Some(a), Some(b)) if !t.reading.allows(a, b) => return false,
                (Some(a), None) => (t.to, forced(|b| t.reading.allows(a, b))),
                (None, Some(b)) => (t.from, forced(|a| t.reading.allows(a, b))),
                _ => continue,
            };
            match forcing {
                Err(()) => return false,
                Ok(Some(v)) => {
                    values[open] = Some(v);
                    changed = true;
                }
                Ok(None) => {}
            }
        }
        if !changed {
            return true;
        }
    }
}

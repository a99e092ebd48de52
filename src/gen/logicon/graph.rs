//! The logical graph: formulas as nodes, reasoning relations as edges.
//!
//! The graph grows from its atoms by the five introduction rules. Each rule
//! builds a new node from one or two existing ones (`¬A`, `A ∧ B`, `A ∨ B`,
//! `A → B`, `A ↔ B`); the new node is joined to its parents by the strongest
//! relation the truth-table engine finds between them (equivalence, then
//! contradiction, then implication either way). A node that is valid,
//! unsatisfiable, already present, or related to neither parent is dropped,
//! so every edge is a checked fact and every node is reachable from an atom.

use crate::syntax::prover9::Formula;
use crate::truth::{Models, TruthError, TruthTable};
use rand::Rng;
use std::collections::{BTreeSet, VecDeque};

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

impl Relation {
    /// The symbol used in JSON output: `->`, `<->` or `x`.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Relation::Implies => "->",
            Relation::Iff => "<->",
            Relation::Contradicts => "x",
        }
    }
}

/// A directed edge between two node indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Edge {
    pub from: usize,
    pub relation: Relation,
    pub to: usize,
}

/// One node: its formula, its printed form and its models over the graph's atoms.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub formula: Formula,
    pub printed: String,
    pub models: Models,
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

/// The introduction rules, in the order they are drawn from.
#[derive(Debug, Clone, Copy)]
enum Rule {
    Not,
    And,
    Or,
    Implies,
    Iff,
}

const RULES: [Rule; 5] = [Rule::Not, Rule::And, Rule::Or, Rule::Implies, Rule::Iff];

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

fn connectives(f: &Formula) -> usize {
    match f {
        Formula::Not(a) => 1 + connectives(a),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Implies(a, b)
        | Formula::ImpliedBy(a, b)
        | Formula::Iff(a, b) => 1 + connectives(a) + connectives(b),
        _ => 0,
    }
}

impl Graph {
    /// Grows a graph over `atoms` until it has `target_nodes` nodes or the
    /// attempts run out. No new node has more than `max_connectives` connectives.
    pub(crate) fn grow(
        atoms: Vec<String>,
        target_nodes: usize,
        max_connectives: usize,
        rng: &mut impl Rng,
    ) -> Result<Graph, TruthError> {
        let table = TruthTable::with_atoms(atoms.clone())?;
        let mut graph = Graph {
            atoms,
            nodes: Vec::new(),
            edges: Vec::new(),
            incident: Vec::new(),
        };
        let mut seen = BTreeSet::new();
        for name in graph.atoms.clone() {
            let formula = Formula::atom(name);
            let models = table.models(&formula)?;
            let printed = formula.to_string();
            seen.insert(printed.clone());
            graph.push_node(formula, printed, models);
        }
        // Most draws succeed; the bound only stops a pathological stream.
        let attempts = target_nodes.saturating_mul(20);
        for _ in 0..attempts {
            if graph.nodes.len() >= target_nodes {
                break;
            }
            let rule = RULES[rng.gen_range(0..RULES.len())];
            let a = rng.gen_range(0..graph.nodes.len());
            let b = rng.gen_range(0..graph.nodes.len());
            let parents: Vec<usize> = match rule {
                Rule::Not => vec![a],
                _ if a == b => continue,
                _ => vec![a, b],
            };
            let (fa, ma) = (&graph.nodes[a].formula, &graph.nodes[a].models);
            let (fb, mb) = (&graph.nodes[b].formula, &graph.nodes[b].models);
            let (formula, models) = match rule {
                Rule::Not => (Formula::not(fa.clone()), ma.not()),
                Rule::And => (Formula::and(fa.clone(), fb.clone()), ma.and(mb)),
                Rule::Or => (Formula::or(fa.clone(), fb.clone()), ma.or(mb)),
                Rule::Implies => (Formula::implies(fa.clone(), fb.clone()), ma.not().or(mb)),
                Rule::Iff => (Formula::iff(fa.clone(), fb.clone()), ma.iff(mb)),
            };
            if connectives(&formula) > max_connectives || models.is_empty() || models.is_all() {
                continue;
            }
            let links: Vec<(usize, bool, Relation)> = parents
                .iter()
                .filter_map(|&p| {
                    relation(&models, &graph.nodes[p].models).map(|(rev, r)| (p, rev, r))
                })
                .collect();
            if links.is_empty() {
                continue;
            }
            let printed = formula.to_string();
            if seen.contains(&printed) {
                continue;
            }
            seen.insert(printed.clone());
            let new = graph.push_node(formula, printed, models);
            for (p, reversed, rel) in links {
                let (from, to) = if reversed { (p, new) } else { (new, p) };
                graph.push_edge(Edge {
                    from,
                    relation: rel,
                    to,
                });
            }
        }
        Ok(graph)
    }

    fn push_node(&mut self, formula: Formula, printed: String, models: Models) -> usize {
        self.nodes.push(Node {
            formula,
            printed,
            models,
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

    /// How many connectives node `n`'s formula has.
    /// Undirected shortest-path distances from `source`; `usize::MAX` if unreachable.
    pub(crate) fn distances(&self, source: usize) -> Vec<usize> {
        let mut dist = vec![usize::MAX; self.nodes.len()];
        let mut queue = VecDeque::from([source]);
        dist[source] = 0;
        while let Some(n) = queue.pop_front() {
            for &e in &self.incident[n] {
                let edge = self.edges[e];
                let m = if edge.from == n { edge.to } else { edge.from };
                if dist[m] == usize::MAX {
                    dist[m] = dist[n] + 1;
                    queue.push_back(m);
                }
            }
        }
        dist
    }

    /// The edges of a Steiner-style connection of `terminals`: starting from
    /// the first, repeatedly join the nearest unjoined terminal to the tree by
    /// a shortest path. Edges are listed in the order they are added, each
    /// path from the tree outwards. `None` if the terminals are not connected.
    pub(crate) fn steiner_edges(&self, terminals: &[usize]) -> Option<Vec<usize>> {
        let first = *terminals.first()?;
        let mut in_tree = vec![false; self.nodes.len()];
        in_tree[first] = true;
        let mut used = Vec::new();
        let mut remaining: Vec<usize> = terminals[1..]
            .iter()
            .copied()
            .filter(|&t| t != first)
            .collect();
        while !remaining.is_empty() {
            // Multi-source BFS from the whole tree; `via[n]` is the edge that reached n.
            let mut via = vec![usize::MAX; self.nodes.len()];
            let mut reached = in_tree.clone();
            let mut queue: VecDeque<usize> =
                (0..self.nodes.len()).filter(|&n| in_tree[n]).collect();
            let mut found = None;
            while let Some(n) = queue.pop_front() {
                if !in_tree[n] && remaining.contains(&n) {
                    found = Some(n);
                    break;
                }
                for &e in &self.incident[n] {
                    let edge = self.edges[e];
                    let m = if edge.from == n { edge.to } else { edge.from };
                    if !reached[m] {
                        reached[m] = true;
                        via[m] = e;
                        queue.push_back(m);
                    }
                }
            }
            let target = found?;
            let mut path = Vec::new();
            let mut n = target;
            while !in_tree[n] {
                let e = via[n];
                path.push(e);
                in_tree[n] = true;
                let edge = self.edges[e];
                n = if edge.from == n { edge.to } else { edge.from };
            }
            path.reverse();
            used.extend(path);
            remaining.retain(|&t| !in_tree[t]);
        }
        Some(used)
    }
}

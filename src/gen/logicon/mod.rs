//! LogiConBench-style logical-consistency samples with exact labels.
//!
//! A sample is `k` statements drawn from a logical graph that grows
//! from atoms by the five introduction rules, within a maximum graph distance
//! of each other. Each of the `2^k` true/false lists over the statements is
//! labelled by the truth-table engine: a list is consistent exactly when the
//! statements, each asserted or negated per its label, have a common model.
//! Samples also carry the reasoning path joining the statements, rewrites of
//! every statement (each checked equivalent by the engine) and an English
//! rendering. With `task: GenTask::Generative` a run makes Task 3's group
//! samples instead (see `task3`). [`score`] scores model answers to Tasks 1–3.
//!
//! Variants: `plain` lists every consistent and inconsistent list in a fixed
//! order (all-`T` first, `F` counting up from the right). `hard` and
//! `completion` do too, but move a *minimal pair* to the front: the first
//! consistent and the first inconsistent list differ in exactly one position.
//! A hard item asks about one list of the pair; a completion item hides the
//! position where they differ and asks for its label.

mod graph;
mod prompt;
mod reward;
mod rewrite;
mod score;
mod task3;
#[cfg(test)]
mod tests;
mod text;

use crate::syntax::answer::truth::Truth;
pub use prompt::PromptStyle;
pub use reward::{gold_answer, reward, Record, Reward};
pub use score::{score, Answer, Report, Samples, ScoreConfig, Task};
pub(crate) use score::{GroupsReport, Ratio, Task1Report, Task2Report, Task3Report, TaskReport};
pub use task3::{GenTask, Group, GroupSample};

use crate::gen::{item_rng, write_in_order, Progress, Shard};
use crate::syntax::prover9::Formula;
use crate::truth::{Models, TruthError, TruthTable};
use graph::{atom_occurrences, draw_weighted, paper_consistency, Graph, RuleWeights, Traversed};
use rand::seq::SliceRandom;
use rand::Rng;
use rewrite::RewriteRule;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// The atom list, the paper's eight: the Prover9 default reads names from
/// `u` to `z` as variables, so after `p`..`t` the list goes on at `a`.
pub(crate) const ATOM_NAMES: [&str; 8] = ["p", "q", "r", "s", "t", "a", "b", "c"];

/// The largest `k` accepted: `2^k` lists per sample stay small to print.
pub(crate) const MAX_K: usize = 6;

/// How many nodes a graph for two statements grows to by default (see
/// `graph_nodes` for more). With 16 atom occurrences a statement, they give
/// the paper's Table 7 means of `&` and `|` per statement (about 2.1 and
/// 2.2; 40 nodes gave 1.6 and 1.6), and chains up to its depth (see
/// [`DEEP_NODE_ATOMS`]).
pub(crate) const GRAPH_NODES: usize = 100;

/// How many more atom occurrences than a statement a graph node may hold.
/// Such nodes are never drawn as statements; they let chains reach the
/// paper's depth (its deepest graph is 32). A chain over `n` occurrences is
/// at most `2n - 1` deep (each `&` or `|` adds one, and no `-` follows a
/// `-`), so the statements' 16 capped it at 31, and only a chain with a `-`
/// at nearly every other step came near: none of 280,000 graphs (seed 2024)
/// went past 27. With `-` drawn as [`rule_weights`] does, the deepest of
/// 20,000 graphs (seed 11) was 29 with 2 more, 30 with 3 and 31 with 4,
/// and of 280,000 (seed 2024) 31 with 3 and 32 with 4.
pub(crate) const DEEP_NODE_ATOMS: usize = 4;

/// Most atom occurrences in a statement by default: room for Table 7's
/// largest counts (13 `&`, 16 `|` in its widest formulas, rewrites
/// included) while its "atoms" (up to 9) count different atoms.
pub(crate) const STATEMENT_ATOMS: usize = 16;

/// Most atom occurrences in a rewrite: the paper's largest forms (18
/// negations, 16 disjunctions, 13 conjunctions in its Table 7) fit in 18.
const REWRITE_ATOMS: usize = 18;

/// Which items a run makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Variant {
    /// Full label lists in canonical order.
    #[default]
    Plain,
    /// A consistent/inconsistent minimal pair first, for Task 1 on hard lists.
    Hard,
    /// A minimal pair first; the differing position is the hidden label.
    Completion,
}

impl Variant {
    /// The name used in ids and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Plain => "plain",
            Variant::Hard => "hard",
            Variant::Completion => "completion",
        }
    }

    /// The variant named `name`, if any.
    pub fn from_name(name: &str) -> Option<Variant> {
        [Variant::Plain, Variant::Hard, Variant::Completion]
            .into_iter()
            .find(|v| v.name() == name)
    }
}

/// Which rule decides the labels a sample's lists carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Labels {
    /// The truth: a list is consistent when the statements, each asserted
    /// or negated per its label, have a common model.
    #[default]
    Exact,
    /// LogiConBench's rule: a list is consistent when truth values can be
    /// propagated along the reasoning path within the edges' relations. It
    /// calls some inconsistent lists consistent (never the reverse), and a
    /// sample where it finds no inconsistent list is drawn again, as the
    /// paper rejects it.
    Paper,
}

impl Labels {
    /// The name used on the command line and in the `labels` field.
    pub fn name(self) -> &'static str {
        match self {
            Labels::Exact => "exact",
            Labels::Paper => "paper",
        }
    }

    /// The rule named `name`, if any.
    pub fn from_name(name: &str) -> Option<Labels> {
        [Labels::Exact, Labels::Paper]
            .into_iter()
            .find(|l| l.name() == name)
    }
}

/// Everything that decides a run's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The run's seed; item `i` uses `item_rng(seed, i)`.
    pub seed: u64,
    /// How many samples.
    pub count: u64,
    /// Smallest number of statements per sample (≥ 2).
    pub k_min: usize,
    /// Largest number of statements; items cycle through `k_min..=k_max` by index.
    pub k_max: usize,
    /// Largest undirected graph distance between any two chosen statements.
    pub max_distance: usize,
    /// Fewest atoms in a graph's atom list (its length is drawn uniformly
    /// per item from `min_atoms..=max_atoms`).
    pub min_atoms: usize,
    /// Most atoms in the list (at most 8, the paper's length).
    pub max_atoms: usize,
    /// How many nodes a graph for k = 2 grows to; a fifth more for each
    /// further statement (see `graph_nodes`).
    pub graph_nodes: usize,
    /// Most atom occurrences in one statement (default 16; the paper's
    /// Table 7 counts up to 9 different atoms). Graph nodes may hold
    /// [`DEEP_NODE_ATOMS`] more.
    pub statement_atoms: usize,
    /// Plain, hard or completion items.
    pub variant: Variant,
    /// Which rule labels the lists.
    pub labels: Labels,
    /// The prompt each sample carries, if any.
    pub prompt: Option<PromptStyle>,
    /// Statement samples (Tasks 1 and 2) or Task 3's groups of facts.
    pub task: GenTask,
    /// Task 3: fewest groups per sample; items cycle through
    /// `groups_min..=groups_max` by index.
    pub groups_min: usize,
    /// Task 3: most groups per sample.
    pub groups_max: usize,
    /// Task 3: atoms per group.
    pub group_atoms: usize,
    /// Which part of the run: a block of the item indices (see [`Shard`]).
    pub shard: Shard,
    /// Worker threads; the output does not depend on it.
    pub threads: usize,
    /// The WordNet directory the sentences' words come from; `None`:
    /// `$ENTAIL_WORDNET`, else `/usr/share/wordnet`.
    pub wordnet: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 0,
            count: 100,
            k_min: 2,
            k_max: 5,
            max_distance: 6,
            min_atoms: 8,
            max_atoms: 8,
            graph_nodes: GRAPH_NODES,
            statement_atoms: STATEMENT_ATOMS,
            variant: Variant::Plain,
            labels: Labels::Exact,
            prompt: None,
            task: GenTask::Lists,
            groups_min: 2,
            groups_max: 5,
            group_atoms: 3,
            shard: Shard::WHOLE,
            threads: 1,
            wordnet: None,
        }
    }
}

impl Config {
    /// Checks the ranges, so generation cannot fail for a bad setting.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |msg: String| Err(Error::Config(msg));
        if self.k_min < 2 || self.k_min > self.k_max || self.k_max > MAX_K {
            return bad(format!(
                "k must be a range within 2..={MAX_K}, got {}..={}",
                self.k_min, self.k_max
            ));
        }
        if self.min_atoms < 1
            || self.min_atoms > self.max_atoms
            || self.max_atoms > ATOM_NAMES.len()
        {
            return bad(format!(
                "atoms must be a range within 1..={}, got {}..={}",
                ATOM_NAMES.len(),
                self.min_atoms,
                self.max_atoms
            ));
        }
        if self.max_distance < 1 {
            return bad("the maximum distance must be at least 1".into());
        }
        if self.graph_nodes < self.k_max + 1 {
            return bad(format!("graph nodes must be more than k = {}", self.k_max));
        }
        if self.statement_atoms < 2 {
            return bad("statements need room for at least two atom occurrences".into());
        }
        if self.task == GenTask::Generative {
            return self.validate_generative();
        }
        Ok(())
    }

    /// The number of statements of item `index`.
    pub(crate) fn k_for(&self, index: u64) -> usize {
        let span = (self.k_max - self.k_min + 1) as u64;
        self.k_min + (index % span.max(1)) as usize
    }
}

/// Why generation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A setting out of range.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// The truth-table engine refused a formula (a bug: generated formulas are propositional).
    #[error("truth tables: {0}")]
    Truth(#[from] TruthError),
    /// WordNet could not be read (the message says what to install).
    #[error("{0}")]
    Lexicon(String),
    /// No graph of the item's stream gave an admissible sample.
    #[error("item {0}: no admissible sample found; loosen the distance or atom settings")]
    Exhausted(u64),
    /// A rewrite the engine found not equivalent (a bug in the rewriter).
    #[error("item {index}: rewrite {rule} of `{statement}` gave the inequivalent `{result}`")]
    Unsound {
        /// The item.
        index: u64,
        /// The rule's name.
        rule: &'static str,
        /// The statement rewritten.
        statement: String,
        /// What the rule produced.
        result: String,
    },
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Io(#[from] std::io::Error),
    /// Serialising a sample failed.
    #[error("serialising: {0}")]
    Json(#[from] serde_json::Error),
}

/// One statement: Prover9 syntax and English.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statement {
    /// The formula in our Prover9 syntax, e.g. `p -> -q`.
    pub symbolic: String,
    /// The English rendering.
    pub text: String,
}

/// An equivalent variant of a statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rewrite {
    /// The rule's name, e.g. `cnf` (one of the nine rewrite rules).
    pub rule: String,
    /// The rewritten formula in Prover9 syntax.
    pub symbolic: String,
    /// Its English rendering.
    pub text: String,
}

/// One edge of the reasoning path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathEdge {
    /// The source formula (Prover9 syntax).
    pub from: String,
    /// `->` (entails), `<-` (is entailed by), `<->` (equivalent) or `x`
    /// (each is the other's negation).
    pub relation: String,
    /// The target formula.
    pub to: String,
}

/// What a Task 1 item asks: set on `hard` and `completion` samples.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Query {
    /// The list asked about, one of the minimal pair; in a completion item
    /// the hidden position is `null`.
    pub labels: Vec<Option<Truth>>,
    /// The hidden position (0-based) of a completion item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<usize>,
    /// The expected answer: `consistent` or `inconsistent` (hard), or the
    /// hidden label that makes the list consistent, `T` or `F` (completion).
    pub answer: String,
}

/// One JSONL line of `entail gen logicon`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    /// `logicon-VARIANT-kK-INDEX`, unique within a run.
    pub id: String,
    /// The number of statements.
    pub k: usize,
    /// The statements, in order.
    pub statements: Vec<Statement>,
    /// For each statement (same order), its equivalent variants that differ from it.
    pub rewrites: Vec<Vec<Rewrite>>,
    /// Every consistent label list (for hard/completion, the minimal pair's list first).
    pub consistent_lists: Vec<Vec<Truth>>,
    /// Every inconsistent label list (likewise).
    pub inconsistent_lists: Vec<Vec<Truth>>,
    /// The task as a model sees it (with `--prompt`): Task 2 for plain
    /// samples, the `query` for hard and completion ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// What a Task 1 item asks (hard and completion samples only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<Query>,
    /// Which rule labels the lists: `exact` or `paper` (see [`Labels`]);
    /// samples written before the field existed are exact.
    #[serde(default = "exact")]
    pub labels: String,
    /// The lists the two rules label differently, in canonical order: each
    /// is inconsistent, but the paper's rule calls it consistent.
    #[serde(default)]
    pub disagreements: Vec<Vec<Truth>>,
    /// The depth of the graph the statements come from: the most
    /// introduction rules applied on a chain from its root atom.
    #[serde(default)]
    pub graph_depth: usize,
    /// The reasoning path joining the statements (the paper's Appendix E):
    /// the paper's label of every list follows from these edges alone.
    pub path: Vec<PathEdge>,
    /// The run's seed.
    pub seed: u64,
}

impl Sample {
    /// The variant named in the id, if it is one of ours.
    pub fn variant(&self) -> Option<Variant> {
        self.id.split('-').nth(1).and_then(Variant::from_name)
    }
}

fn exact() -> String {
    Labels::Exact.name().to_string()
}

/// The label list with index `mask` in canonical order: bit `k-1-j` set means
/// statement `j` is `F`, so mask 0 is all `T`.
fn labels_of(mask: usize, k: usize) -> Vec<Truth> {
    (0..k)
        .map(|j| {
            if mask >> (k - 1 - j) & 1 == 1 {
                Truth::F
            } else {
                Truth::T
            }
        })
        .collect()
}

/// Which of the `2^k` canonical lists are consistent with the statements'
/// model sets: a list is consistent iff the intersection of each statement's
/// models (or their complement, for `F`) is non-empty.
fn consistency(table: &TruthTable, models: &[Models]) -> Vec<bool> {
    let k = models.len();
    (0..1usize << k)
        .map(|mask| {
            let mut acc = table.all();
            for (j, m) in models.iter().enumerate() {
                acc = if mask >> (k - 1 - j) & 1 == 1 {
                    acc.and(&m.not())
                } else {
                    acc.and(m)
                };
            }
            !acc.is_empty()
        })
        .collect()
}

/// The Task 1 question of a hard or completion item over its minimal pair
/// (`consistent`, `inconsistent` masks). A hard item asks about the
/// consistent list when `ask_consistent`, a fair coin of the item's own
/// stream, so the answer follows neither the index nor `k` (nor the number
/// of statements); a completion item hides the position where the two
/// differ, and its answer is the consistent list's label there.
fn query(
    variant: Variant,
    ask_consistent: bool,
    k: usize,
    consistent: Option<&usize>,
    inconsistent: Option<&usize>,
) -> Option<Query> {
    let (&c, &i) = (consistent?, inconsistent?);
    let list = |mask: usize| labels_of(mask, k).into_iter().map(Some).collect::<Vec<_>>();
    match variant {
        Variant::Plain => None,
        Variant::Hard if ask_consistent => Some(Query {
            labels: list(c),
            hidden: None,
            answer: "consistent".into(),
        }),
        Variant::Hard => Some(Query {
            labels: list(i),
            hidden: None,
            answer: "inconsistent".into(),
        }),
        Variant::Completion => {
            let hidden = (0..k).find(|&j| (c ^ i) >> (k - 1 - j) & 1 == 1)?;
            let mut labels = list(c);
            let answer = labels[hidden].take()?;
            Some(Query {
                labels,
                hidden: Some(hidden),
                answer: format!("{answer:?}"),
            })
        }
    }
}

/// Both rules' label of each canonical list of a sample.
struct Labelling {
    exact: Vec<bool>,
    paper: Vec<bool>,
}

impl Labelling {
    fn chosen(&self, labels: Labels) -> &[bool] {
        match labels {
            Labels::Exact => &self.exact,
            Labels::Paper => &self.paper,
        }
    }
}

/// How many graphs an item may try, and how many node draws per graph.
const GRAPH_TRIES: usize = 40;
const PICK_TRIES: usize = 30;

/// Table 7 of the paper for one k: how many of its formulas have 1, 2, ...,
/// 8 different atoms (its ATOM row; 9 atoms, under 0.05%, need a ninth atom
/// name), and its mean `-`, `&` and `|` per formula in hundredths (its NOT,
/// AND and OR rows read from 0). The ATOM row counts different atoms: there `&`
/// and `|` together outnumber the atoms of a formula (4.56 against 4.45 at
/// k = 2), which only repeated atoms allow.
struct Table7Row {
    atoms: [usize; 8],
    not: usize,
    and: usize,
    or: usize,
}

/// [`Table7Row`] for k = 2, 3, 4, 5.
static TABLE7: [Table7Row; 4] = [
    Table7Row {
        atoms: [2743, 5302, 10284, 12524, 12007, 10230, 6136, 1366],
        not: 183,
        and: 222,
        or: 234,
    },
    Table7Row {
        atoms: [11959, 22465, 34740, 40529, 38863, 30806, 19166, 7423],
        not: 159,
        and: 197,
        or: 238,
    },
    Table7Row {
        atoms: [16490, 40684, 60423, 67757, 58154, 47196, 28414, 11506],
        not: 148,
        and: 223,
        or: 210,
    },
    Table7Row {
        atoms: [28089, 52362, 84020, 99497, 96025, 73891, 43030, 18548],
        not: 150,
        and: 201,
        or: 229,
    },
];

/// Table 7's row for `k` (k = 6, beyond the table, takes k = 5's).
fn table7(k: usize) -> &'static Table7Row {
    &TABLE7[k.clamp(2, 5) - 2]
}

/// The introduction rules a sample's graph grows by: `-`, `&` and `|` in
/// the proportion of Table 7's means for `k`, with `-` raised by 15%.
/// Drawn evenly, they gave 2.17 `&` against 2.10 `|` at k = 3, where the
/// paper has 1.97 and 2.38. A `-` drawn for a node that is a negation is
/// not added (no `--`): 62-65% of the drawn `-` are added against 75-76%
/// of `&` and `|` (a ratio of 1.16-1.22 by k), and with Table 7's plain
/// proportion statements held 4-9% fewer `-` than its means. Raised by
/// 20%, k = 2 held 5% more.
fn rule_weights(k: usize) -> RuleWeights {
    let row = table7(k);
    RuleWeights([row.not * 115 / 100, row.and, row.or])
}

/// How many nodes a graph for `k` statements grows to: `nodes` (the
/// configured size) for two, a fifth more for each further statement.
/// Every statement lies within the maximum distance of all the others, so
/// in a graph of one size the nodes close enough to four or five others
/// are fewer and smaller: 100 nodes gave 4.07 `&` and `|` per statement at
/// k = 4 and 5, against 4.33 and 4.30 in Table 7.
fn graph_nodes(nodes: usize, k: usize) -> usize {
    nodes * (k + 3) / 5
}

/// Draws `k` distinct nodes of at most `config.statement_atoms` atom
/// occurrences, each within `config.max_distance` of all the others.
/// The paper samples statements "with a uniformly distributed number of
/// atoms" and its Table 7 shows which: each draw first picks a number of
/// different atoms among the candidates' numbers, weighted by Table 7's
/// ATOM row for `k`, then a candidate with that number. Picking the numbers
/// uniformly made one statement in eight a literal (`p` or `-p`, the only
/// nodes with one atom), against one in eighteen in Table 7, and a pair of
/// them was 39% of the contradictory pairs (a count of the sentences told
/// those apart, 8 points above chance).
fn pick_nodes(graph: &Graph, k: usize, config: &Config, rng: &mut impl Rng) -> Option<Vec<usize>> {
    let row = &table7(k).atoms;
    let mut chosen: Vec<usize> = Vec::with_capacity(k);
    let mut reach: Vec<Vec<usize>> = Vec::with_capacity(k);
    while chosen.len() < k {
        let mut by_count: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for n in 0..graph.nodes.len() {
            if graph.nodes[n].atoms <= config.statement_atoms
                && !chosen.contains(&n)
                && reach.iter().all(|d| d[n] <= config.max_distance)
            {
                by_count
                    .entry(graph.nodes[n].distinct_atoms())
                    .or_default()
                    .push(n);
            }
        }
        let counts: Vec<usize> = by_count.keys().copied().collect();
        let weights: Vec<usize> = counts
            .iter()
            .map(|&c| row.get(c.wrapping_sub(1)).copied().unwrap_or(0))
            .collect();
        let group = &by_count[&counts[draw_weighted(&weights, rng)?]];
        let next = group[rng.gen_range(0..group.len())];
        chosen.push(next);
        reach.push(graph.search(next).distance);
    }
    Some(chosen)
}

/// The six labellings two statements can have (consistency of `TT`, `TF`,
/// `FT`, `FF`): each statement can be true and can be false, and not every
/// list is consistent. They are the relations between the two: one entails
/// the other (either way), they are equivalent, contradictory, exclusive,
/// or exhaustive.
const PAIR_LABELLINGS: [[bool; 4]; 6] = [
    [true, false, true, true],
    [true, true, false, true],
    [true, false, false, true],
    [false, true, true, false],
    [false, true, true, true],
    [true, true, true, false],
];

/// Generates item `index` of the run `config` (validate the config first).
///
/// With two statements, Task 2's answer is one of [`PAIR_LABELLINGS`],
/// which a graph yields unevenly (one of them in about a quarter of
/// samples): the labelling is drawn first, uniformly, and a pair of
/// statements with it is searched for, in either order. With more
/// statements the answers are too many for one to stand out once the
/// statements are put in a random order.
///
/// A completion item's answer (`T` or `F`) is drawn first too, with what
/// else its minimal pair must have (see [`Completion`]), and only
/// statements with such a pair are kept (and with two statements, only
/// labellings that have one). Should no graph of the budget have such a
/// pair, the search runs again asking for the answer alone.
pub(crate) fn sample(config: &Config, index: u64) -> Result<Sample, Error> {
    let mut rng = item_rng(config.seed, index);
    let k = config.k_for(index);
    let completion = (config.variant == Variant::Completion).then(|| Completion::draw(k, &mut rng));
    let mut rounds = vec![(completion, None)];
    if let Some(completion) = completion {
        rounds.push((Some(completion.answer_only()), None));
    }
    if k == 2 {
        // Should no graph of the budget give the wanted labelling, any will do.
        for (completion, wanted) in std::mem::take(&mut rounds) {
            let labellings: Vec<[bool; 4]> = PAIR_LABELLINGS
                .iter()
                .copied()
                .filter(|l| completion.is_none_or(|c| c.fits(l, k, &[])))
                .collect();
            if !labellings.is_empty() {
                rounds.push((
                    completion,
                    Some(labellings[rng.gen_range(0..labellings.len())]),
                ));
            }
            rounds.push((completion, wanted));
        }
    }
    let weights = rule_weights(k);
    for (completion, wanted) in rounds {
        // Two equivalent statements are rare in a graph: with the budget of
        // any other sample, 22% of the items that drew that labelling (of
        // seed 6061) found none, and it was 13% of the answers, not 1/6.
        let graphs = if wanted.is_some() {
            3 * GRAPH_TRIES
        } else {
            GRAPH_TRIES
        };
        for _ in 0..graphs {
            let atom_count = rng.gen_range(config.min_atoms..=config.max_atoms);
            let atoms: Vec<String> = ATOM_NAMES[..atom_count]
                .iter()
                .map(|a| a.to_string())
                .collect();
            let graph = Graph::grow(
                atoms,
                graph_nodes(config.graph_nodes, k),
                config.statement_atoms + DEEP_NODE_ATOMS,
                weights,
                &mut rng,
            )?;
            if graph.nodes.len() < k {
                continue;
            }
            let table = TruthTable::with_atoms(graph.atoms.clone())?;
            for _ in 0..PICK_TRIES {
                let Some(mut chosen) = pick_nodes(&graph, k, config, &mut rng) else {
                    continue;
                };
                // The statements in a uniformly random order: the order
                // they are drawn in follows the graph (a later one is more
                // often entailed by an earlier one), which made one
                // labelling of three statements in 5-6% of samples.
                if k > 2 {
                    chosen.shuffle(&mut rng);
                }
                let Some((models, path, labels)) = label(&graph, &table, &chosen, config.labels)?
                else {
                    continue;
                };
                let (models, path, labels) = match wanted {
                    Some(wanted) if labels.chosen(config.labels) != wanted => {
                        chosen.reverse();
                        match label(&graph, &table, &chosen, config.labels)? {
                            Some(found) if found.2.chosen(config.labels) == wanted => found,
                            _ => continue,
                        }
                    }
                    _ => (models, path, labels),
                };
                let leanings = match completion {
                    Some(completion) => {
                        let leanings = leanings(&table, &models);
                        if !completion.fits(labels.chosen(config.labels), k, &leanings) {
                            continue;
                        }
                        leanings
                    }
                    None => Vec::new(),
                };
                let found = Candidate {
                    chosen,
                    models,
                    path,
                    labels,
                    leanings,
                };
                return finish(config, index, &graph, &table, &found, completion, &mut rng);
            }
        }
    }
    Err(Error::Exhausted(index))
}

/// What [`label`] finds for a list of statements.
type Labelled = (Vec<Models>, Vec<Traversed>, Labelling);

/// The statements' models, their reasoning path and both rules' labels;
/// `None` when the statements are not connected or every list is
/// consistent by the `labels` rule (nothing to ask).
fn label(
    graph: &Graph,
    table: &TruthTable,
    chosen: &[usize],
    labels: Labels,
) -> Result<Option<Labelled>, Error> {
    // Labels come from fresh tables of the formulas, not the models the
    // graph carried while growing.
    let models = chosen
        .iter()
        .map(|&n| table.models(&graph.nodes[n].formula))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(path) = graph.paper_path(chosen) else {
        return Ok(None);
    };
    let labelling = Labelling {
        exact: consistency(table, &models),
        paper: paper_consistency(&path, chosen),
    };
    if labelling.chosen(labels).iter().all(|&c| c) {
        return Ok(None);
    }
    Ok(Some((models, path, labelling)))
}

/// Whether the consistent list `c` has `T` where it differs from the
/// list `i` (a set bit of a mask is an `F`, see `labels_of`).
fn pair_answer_t(c: usize, i: usize) -> bool {
    c & (c ^ i) == 0
}

/// What a completion item's minimal pair must have, drawn before its
/// statements so that the answer (`answer_t`) follows none of what is
/// readable without relating the statements: the number of `F`s the query
/// shows, whether the answer is the hidden statement's usual value (see
/// [`Leaning`]) and how usual that value is. Drawn alone, the answer was
/// the majority of the shown labels in 55-60% of items and the hidden
/// statement's usual value in 77%. Without the strength, the usual value
/// was still the answer in 65-72% of the items whose hidden statement
/// leans strongly; and had a statement true in exactly half of the
/// assignments fitted any draw, the search would take one whenever the
/// drawn leaning was hard to find.
#[derive(Debug, Clone, Copy)]
struct Completion {
    answer_t: bool,
    shown_f: Option<usize>,
    with_leaning: Option<bool>,
    strength: Option<usize>,
}

impl Completion {
    /// A fair coin for the answer, one for each shown label (so the number
    /// of shown `F`s is binomial, as in a list drawn at random) and one for
    /// agreeing with the leaning.
    fn draw(k: usize, rng: &mut impl Rng) -> Completion {
        let answer_t = rng.gen_bool(0.5);
        let shown_f = (1..k).filter(|_| rng.gen_bool(0.5)).count();
        let with_leaning = rng.gen_bool(0.5);
        // About the shares of the strengths when they were not drawn (6%,
        // 11%, 22%, 28%, 33% at seed 555).
        let strength = draw_weighted(&[6, 11, 22, 28, 33], rng).unwrap_or(0);
        Completion {
            answer_t,
            shown_f: Some(shown_f),
            with_leaning: Some(with_leaning),
            strength: Some(strength),
        }
    }

    fn answer_only(self) -> Completion {
        Completion {
            answer_t: self.answer_t,
            shown_f: None,
            with_leaning: None,
            strength: None,
        }
    }

    /// Whether the minimal pair of the consistent list `c` and the
    /// inconsistent `i` of `k` statements has this answer, number of shown
    /// `F`s and agreement with the hidden statement's leaning (`leanings`
    /// by statement; empty when not known yet).
    fn fits_pair(self, c: usize, i: usize, k: usize, leanings: &[Leaning]) -> bool {
        let shown = c & !(c ^ i);
        let hidden = k - 1 - (c ^ i).trailing_zeros() as usize;
        let leaning = leanings.get(hidden);
        pair_answer_t(c, i) == self.answer_t
            && self
                .shown_f
                .is_none_or(|f| shown.count_ones() as usize == f)
            && leaning.is_none_or(|leaning| {
                self.strength
                    .is_none_or(|strength| leaning.strength == strength)
                    && (leaning.strength == 0
                        || self
                            .with_leaning
                            .is_none_or(|with| (leaning.toward_t == self.answer_t) == with))
            })
    }

    /// Whether the consistency labels `consistent` (by mask) of `k`
    /// statements have a minimal pair (a consistent list and an
    /// inconsistent one that differ in one place) that fits.
    fn fits(self, consistent: &[bool], k: usize, leanings: &[Leaning]) -> bool {
        (0..consistent.len()).filter(|&c| consistent[c]).any(|c| {
            (0..k).any(|j| {
                let i = c ^ (1 << j);
                !consistent[i] && self.fits_pair(c, i, k, leanings)
            })
        })
    }
}

/// Which value a statement takes in most assignments, and in how many:
/// its strength is 0 for exactly half of them, then 1 to 4 for a share in
/// (1/2, 5/8), [5/8, 3/4), [3/4, 7/8), [7/8, 1).
#[derive(Debug, Clone, Copy)]
struct Leaning {
    toward_t: bool,
    strength: usize,
}

fn leanings(table: &TruthTable, models: &[Models]) -> Vec<Leaning> {
    let all = table.all().count();
    models
        .iter()
        .map(|m| {
            let held = m.count();
            let most = held.max(all - held);
            Leaning {
                toward_t: 2 * held > all,
                strength: if 2 * most == all {
                    0
                } else {
                    (8 * most / all).saturating_sub(3).min(4)
                },
            }
        })
        .collect()
}

/// The statements a search kept for an item, with what it worked out
/// about them.
struct Candidate {
    /// The statements' graph nodes, in the order shown.
    chosen: Vec<usize>,
    models: Vec<Models>,
    path: Vec<Traversed>,
    labels: Labelling,
    /// Each statement's [`Leaning`]; only a completion item needs them
    /// (empty otherwise).
    leanings: Vec<Leaning>,
}

fn finish(
    config: &Config,
    index: u64,
    graph: &Graph,
    table: &TruthTable,
    found: &Candidate,
    completion: Option<Completion>,
    rng: &mut impl Rng,
) -> Result<Sample, Error> {
    let Candidate {
        chosen,
        models,
        path,
        labels,
        leanings,
    } = found;
    let k = chosen.len();
    let consistent = labels.chosen(config.labels);
    let mut good: Vec<usize> = (0..consistent.len()).filter(|&m| consistent[m]).collect();
    let mut bad: Vec<usize> = (0..consistent.len()).filter(|&m| !consistent[m]).collect();
    if config.variant != Variant::Plain {
        // Every split of the k-cube into two non-empty parts has an edge
        // across it, so a minimal pair always exists.
        let pairs: Vec<(usize, usize)> = good
            .iter()
            .flat_map(|&c| (0..k).map(move |j| (c, c ^ (1 << j))))
            .filter(|&(_, i)| !consistent[i])
            .collect();
        // A completion item's answer is the consistent list's label where
        // the pair differs: it was drawn first, with the number of `F`s
        // the query shows and its agreement with the hidden statement's
        // leaning (see `Completion`), and the pair is one that has them.
        let fitting: Vec<(usize, usize)> = pairs
            .iter()
            .copied()
            .filter(|&(c, i)| completion.is_none_or(|t| t.fits_pair(c, i, k, leanings)))
            .collect();
        let pairs = if fitting.is_empty() { pairs } else { fitting };
        if let Some(&(c, i)) = pairs.get(rng.gen_range(0..pairs.len().max(1))) {
            good.retain(|&m| m != c);
            good.insert(0, c);
            bad.retain(|&m| m != i);
            bad.insert(0, i);
        }
    }
    let ask_consistent = config.variant == Variant::Hard && rng.gen_bool(0.5);
    let query = query(config.variant, ask_consistent, k, good.first(), bad.first());
    let words = text::words(config.wordnet.as_deref()).map_err(Error::Lexicon)?;
    let vocabulary = text::Vocabulary::draw(&graph.atoms, words, rng);
    // The path names its nodes again and again: each is printed once.
    let mut printed: Vec<Option<String>> = vec![None; graph.nodes.len()];
    let mut print = |n: usize| -> String {
        printed[n]
            .get_or_insert_with(|| graph.nodes[n].formula.to_string())
            .clone()
    };
    let mut statements = Vec::with_capacity(k);
    let mut rewrites = Vec::with_capacity(k);
    for (&n, m) in chosen.iter().zip(models) {
        let node = &graph.nodes[n];
        statements.push(Statement {
            symbolic: print(n),
            text: vocabulary.sentence(&node.formula),
        });
        // Statements hold only -, & and |, and nothing to simplify, so a
        // rule that does not change the statement (the eliminations of ->
        // and <->, simplification) is applied to the first variant it
        // changes, introductions coming first.
        let mut found: Vec<(RewriteRule, Formula, String)> = Vec::new();
        for rule in RewriteRule::BY_INPUT {
            let sources = std::iter::once(&node.formula).chain(found.iter().map(|(_, f, _)| f));
            let result = sources
                .filter(|from| rule.may_change(from))
                .find_map(|from| {
                    let result = rule.apply(from);
                    (result != *from && result != node.formula).then_some(result)
                });
            // Normal forms and chained eliminations can grow exponentially;
            // a variant with more than twice its statement's atom
            // occurrences, or more than REWRITE_ATOMS, is left out.
            // A variant read with a sentence of more than
            // MAX_SENTENCE_WORDS words (deeply nested normal forms) is left
            // out too, before it can be the source of a later rule (so a
            // simplification always has its longer source beside it).
            let most = (2 * node.atoms).min(REWRITE_ATOMS);
            let result = result.filter(|r| atom_occurrences(r) <= most);
            let result = result
                .map(|r| {
                    let text = vocabulary.sentence(&r);
                    (r, text)
                })
                .filter(|(_, text)| text::longest_sentence(text) <= text::MAX_SENTENCE_WORDS);
            if let Some((result, text)) = result {
                found.push((rule, result, text));
            }
        }
        found.sort_by_key(|(rule, _, _)| *rule);
        let mut variants = Vec::new();
        for (rule, result, text) in found {
            let printed = result.to_string();
            if table.models(&result)? != *m {
                return Err(Error::Unsound {
                    index,
                    rule: rule.name(),
                    statement: node.formula.to_string(),
                    result: printed,
                });
            }
            variants.push(Rewrite {
                rule: rule.name().to_string(),
                symbolic: printed,
                text,
            });
        }
        rewrites.push(variants);
    }
    let path = path
        .iter()
        .map(|t| PathEdge {
            from: print(t.from),
            relation: t.reading.symbol().to_string(),
            to: print(t.to),
        })
        .collect();
    let disagreements = (0..consistent.len())
        .filter(|&m| labels.exact[m] != labels.paper[m])
        .map(|m| labels_of(m, k))
        .collect();
    Ok(Sample {
        id: format!("logicon-{}-k{k}-{index}", config.variant.name()),
        k,
        statements,
        rewrites,
        consistent_lists: good.iter().map(|&m| labels_of(m, k)).collect(),
        inconsistent_lists: bad.iter().map(|&m| labels_of(m, k)).collect(),
        prompt: None,
        query,
        labels: config.labels.name().to_string(),
        disagreements,
        graph_depth: graph.depth(),
        path,
        seed: config.seed,
    })
}

/// The worked examples a run's prompts show: three samples for each `k`,
/// of the run's variant and labels, from a stream of their own (the run's
/// seed with [`Examples::STREAM`] mixed in), so every shard shows the same.
struct Examples {
    by_k: BTreeMap<usize, Vec<Sample>>,
}

impl Examples {
    /// Mixed into the run's seed for the examples' stream.
    const STREAM: u64 = 0x6578_616d_706c_6573;

    fn draw(config: &Config) -> Result<Examples, Error> {
        let mut by_k = BTreeMap::new();
        let wanted = config.prompt.map_or(0, PromptStyle::examples) as u64;
        if wanted > 0 {
            for k in config.k_min..=config.k_max {
                let own = Config {
                    seed: config.seed ^ Examples::STREAM,
                    k_min: k,
                    k_max: k,
                    ..config.clone()
                };
                let drawn = (0..wanted)
                    .map(|j| sample(&own, j))
                    .collect::<Result<Vec<_>, _>>()?;
                by_k.insert(k, drawn);
            }
        }
        Ok(Examples { by_k })
    }

    fn of(&self, k: usize) -> &[Sample] {
        self.by_k.get(&k).map_or(&[], Vec::as_slice)
    }
}

/// Counts of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Samples written.
    pub samples: u64,
}

/// Writes the samples of `config.shard`'s block of the items
/// `0..config.count` (all of them for the whole run) as JSONL to `out`,
/// using `config.threads` worker threads. Output is identical for any thread
/// count. `progress` is called with the number of items written.
pub fn generate(config: &Config, out: &mut dyn Write, progress: Progress) -> Result<Stats, Error> {
    config.validate()?;
    // A missing WordNet is reported before any work starts.
    text::words(config.wordnet.as_deref()).map_err(Error::Lexicon)?;
    let items = config.shard.range(config.count);
    let examples = Examples::draw(config)?;
    write_in_order(
        items.clone(),
        config.threads,
        out,
        progress,
        |index, buf| {
            if config.task == GenTask::Generative {
                serde_json::to_writer(&mut *buf, &task3::sample(config, index)?)?;
                buf.push(b'\n');
                return Ok(());
            }
            let mut sample = sample(config, index)?;
            if let Some(style) = config.prompt {
                sample.prompt = Some(prompt::prompt(style, &sample, examples.of(sample.k)));
            }
            serde_json::to_writer(&mut *buf, &sample)?;
            buf.push(b'\n');
            Ok(())
        },
        || Error::Config("a worker thread panicked".into()),
    )?;
    out.flush()?;
    Ok(Stats {
        samples: items.end - items.start,
    })
}

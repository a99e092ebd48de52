//! LogiConBench Task 3 (generative) inputs, its section 4.3.
//!
//! A sample partitions a global atom set into `n` disjoint groups, draws a
//! truth assignment ℓ, and gives each group ten facts over its own atoms.
//! Every fact is a formula drawn from a logical graph over the group's atoms
//! (or one of its rewrites), uses at least two kinds of connective, and is
//! kept only if the truth-table engine finds it true under ℓ. The model sees
//! the facts and writes `n` new statements, one per group over that group's
//! atoms.
//!
//! The paper scores an answer over every cross-group combination
//! `C_α = (f_{1,a_1}, …, f_{n,a_n})`, α ∈ {1..10}^n, a combination being
//! consistent iff every fact in it is true under ℓ. Our reading: the
//! model's statements join every combination, and the answer's consistency
//! is the share of the `10^n` extended combinations that stay consistent by
//! that rule (see [`super::score`]). Since the facts are all true under ℓ,
//! that share is 1 exactly when each new statement is true under ℓ. So that
//! the rule is also the logical truth about what the model is shown, each
//! group's ten facts together have ℓ (on the group's atoms) as their only
//! model: a statement is true under ℓ iff it is consistent with its group's
//! facts, and, the groups sharing no atom, iff all the facts and statements
//! together are satisfiable.

use super::graph::{atom_occurrences, Graph, RuleWeights};
use super::rewrite::RewriteRule;
use super::text::Vocabulary;
use super::{Config, Error, Labels, PromptStyle, Statement, Truth, Variant};
use crate::gen::item_rng;
use crate::syntax::prover9::Formula;
use crate::truth::{Models, TruthTable};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Facts per group, the paper's ten.
pub const FACTS_PER_GROUP: usize = 10;

/// The most groups a sample may have.
pub const MAX_GROUPS: usize = 6;

/// Atom names for the global set: the statement samples' eight, then the
/// other letters Prover9 reads as constants (`u`..`z` are variables).
pub(crate) const GROUP_ATOM_NAMES: [&str; 20] = [
    "p", "q", "r", "s", "t", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n",
    "o",
];

/// Most atom occurrences in one fact, so that sentences stay readable.
const FACT_ATOMS: usize = 6;

/// How many nodes a group's graph grows to: facts are gathered over many
/// small graphs (see `draw_facts`), so each stays cheap.
const GRAPH_NODES: usize = 40;

/// How many graphs a group may try before the item gives up.
const GROUP_TRIES: usize = 40;

/// Which samples a run makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum GenTask {
    /// Statements with labelled lists, for Tasks 1 and 2.
    #[default]
    Lists,
    /// Task 3's groups of facts ([`GroupSample`]).
    Generative,
}

impl GenTask {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GenTask::Lists => "lists",
            GenTask::Generative => "generative",
        }
    }

    /// The task named `name`, if any.
    pub fn from_name(name: &str) -> Option<GenTask> {
        [GenTask::Lists, GenTask::Generative]
            .into_iter()
            .find(|t| t.name() == name)
    }
}

/// One group: its atoms and its ten facts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The group's atoms, disjoint from every other group's.
    pub atoms: Vec<String>,
    /// Ten facts over those atoms, each true under the sample's assignment.
    pub facts: Vec<Statement>,
}

/// One JSONL line of `entail gen logicon --task generative`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupSample {
    /// `logicon-generative-nN-INDEX`.
    pub id: String,
    /// The number of groups, and of statements the model writes.
    pub n: usize,
    /// ℓ: the truth value of every atom of the global set.
    pub assignment: BTreeMap<String, Truth>,
    /// The groups, in order; their atoms partition the assignment's.
    pub groups: Vec<Group>,
    /// The task as the model sees it (zero-shot, as the paper's Table 4).
    pub prompt: String,
    /// The run's seed.
    pub seed: u64,
}

impl Config {
    /// Checks the Task 3 settings: the groups' atoms must fit the names, and
    /// the statement samples' variant, labels and prompt do not apply.
    pub(crate) fn validate_generative(&self) -> Result<(), Error> {
        let bad = |msg: String| Err(Error::Config(msg));
        if self.groups_min < 2 || self.groups_min > self.groups_max || self.groups_max > MAX_GROUPS
        {
            return bad(format!(
                "groups must be a range within 2..={MAX_GROUPS}, got {}..={}",
                self.groups_min, self.groups_max
            ));
        }
        // Over two atoms only 7 contingent formulas are true under one
        // assignment, too few for ten facts with different models.
        if self.group_atoms < 3 || self.groups_max * self.group_atoms > GROUP_ATOM_NAMES.len() {
            return bad(format!(
                "atoms per group must be at least 3, and groups times atoms per group at most {}, \
                 got {} atoms for {} groups",
                GROUP_ATOM_NAMES.len(),
                self.group_atoms,
                self.groups_max
            ));
        }
        if self.variant != Variant::Plain || self.labels != Labels::Exact {
            return bad("Task 3 samples have no label lists: drop --variant and --labels".into());
        }
        if self.prompt.is_some_and(|p| p != PromptStyle::ZeroShot) {
            return bad("Task 3 prompts are zero-shot, as in the paper's Table 4".into());
        }
        Ok(())
    }

    /// The number of groups of Task 3 item `index`: items cycle through
    /// `groups_min..=groups_max`.
    pub(crate) fn groups_for(&self, index: u64) -> usize {
        let span = (self.groups_max - self.groups_min + 1) as u64;
        self.groups_min + (index % span.max(1)) as usize
    }
}

/// The kinds of connective in `f`, as bits: `-`, `&`, `|`, `->`/`<-`, `<->`.
fn connective_kinds(f: &Formula) -> u8 {
    match f {
        Formula::Not(a) => 1 | connective_kinds(a),
        Formula::And(a, b) => 2 | connective_kinds(a) | connective_kinds(b),
        Formula::Or(a, b) => 4 | connective_kinds(a) | connective_kinds(b),
        Formula::Implies(a, b) | Formula::ImpliedBy(a, b) => {
            8 | connective_kinds(a) | connective_kinds(b)
        }
        Formula::Iff(a, b) => 16 | connective_kinds(a) | connective_kinds(b),
        _ => 0,
    }
}

/// Whether `f` has a negation directly under a negation, which reads badly.
fn double_negation(f: &Formula) -> bool {
    match f {
        Formula::Not(a) => matches!(a.as_ref(), Formula::Not(_)) || double_negation(a),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Implies(a, b)
        | Formula::ImpliedBy(a, b)
        | Formula::Iff(a, b) => double_negation(a) || double_negation(b),
        _ => false,
    }
}

/// Whether `f` may be a fact: two or more kinds of connective, two or more
/// distinct atoms, no double negation, at most [`FACT_ATOMS`] occurrences.
fn fact_shape(f: &Formula) -> bool {
    connective_kinds(f).count_ones() >= 2
        && atom_occurrences(f) <= FACT_ATOMS
        && !double_negation(f)
        && crate::truth::atoms(f).is_ok_and(|a| a.len() >= 2)
}

/// Ten facts over `atoms`, each of [`fact_shape`] and true
/// in row `row` of the group's table (ℓ on these atoms), with pairwise
/// different models, that together have `row` as their only model.
fn draw_facts(
    atoms: &[String],
    row: usize,
    index: u64,
    rng: &mut impl Rng,
) -> Result<Vec<Formula>, Error> {
    let table = TruthTable::with_atoms(atoms.to_vec())?;
    // One graph over three atoms often holds fewer than ten different
    // models true under ℓ, so candidates gather over the graphs tried.
    let mut pool: BTreeMap<Formula, Models> = BTreeMap::new();
    for _ in 0..GROUP_TRIES {
        // A graph grows from its first atom: start from a random one.
        let mut order = atoms.to_vec();
        let start = rng.gen_range(0..order.len());
        order.rotate_left(start);
        let graph = Graph::grow(order, GRAPH_NODES, FACT_ATOMS, RuleWeights::EVEN, rng)?;
        for node in &graph.nodes {
            // Rewrites keep the models, so a node false under ℓ gives no
            // fact; they bring in `->` and `<->`, which nodes lack.
            if !table.models(&node.formula)?.contains(row) {
                continue;
            }
            let rewritten = RewriteRule::BY_INPUT.map(|rule| rule.apply(&node.formula));
            for f in std::iter::once(node.formula.clone()).chain(rewritten) {
                if fact_shape(&f) && !pool.contains_key(&f) {
                    let models = table.models(&f)?;
                    if models.contains(row) {
                        pool.insert(f, models);
                    }
                }
            }
        }
        let mut candidates: Vec<(&Formula, &Models)> = pool.iter().collect();
        candidates.shuffle(rng);
        let mut facts: Vec<Formula> = Vec::with_capacity(FACTS_PER_GROUP);
        let mut seen: Vec<&Models> = Vec::with_capacity(FACTS_PER_GROUP);
        for (f, models) in candidates {
            if !seen.contains(&models) {
                facts.push(f.clone());
                seen.push(models);
                if facts.len() == FACTS_PER_GROUP {
                    break;
                }
            }
        }
        if facts.len() == FACTS_PER_GROUP {
            let common = table.models_of_all(&facts)?;
            if common.count() == 1 && common.contains(row) {
                return Ok(facts);
            }
        }
    }
    Err(Error::Exhausted(index))
}

/// Generates Task 3 item `index` of the run `config` (validate the config first).
pub(crate) fn sample(config: &Config, index: u64) -> Result<GroupSample, Error> {
    let mut rng = item_rng(config.seed, index);
    let n = config.groups_for(index);
    let width = config.group_atoms;
    let global: Vec<String> = GROUP_ATOM_NAMES[..n * width]
        .iter()
        .map(|a| a.to_string())
        .collect();
    let mut shuffled = global.clone();
    shuffled.shuffle(&mut rng);
    let truth: BTreeMap<String, bool> = global
        .iter()
        .map(|a| (a.clone(), rng.gen_bool(0.5)))
        .collect();
    let words = super::text::words(config.wordnet.as_deref()).map_err(Error::Lexicon)?;
    let vocabulary = Vocabulary::draw(&global, words, &mut rng);
    let mut groups = Vec::with_capacity(n);
    for chunk in shuffled.chunks(width) {
        // Each group lists its atoms in the global order.
        let atoms: Vec<String> = global
            .iter()
            .filter(|a| chunk.contains(a))
            .cloned()
            .collect();
        let row = atoms
            .iter()
            .enumerate()
            .filter(|(_, a)| truth[*a])
            .map(|(i, _)| 1usize << i)
            .sum();
        let facts = draw_facts(&atoms, row, index, &mut rng)?
            .iter()
            .map(|f| Statement {
                symbolic: f.to_string(),
                text: vocabulary.sentence(f),
            })
            .collect();
        groups.push(Group { atoms, facts });
    }
    let prompt = prompt(&groups, &vocabulary);
    Ok(GroupSample {
        id: format!("logicon-generative-n{n}-{index}"),
        n,
        assignment: truth
            .into_iter()
            .map(|(a, v)| (a, if v { Truth::T } else { Truth::F }))
            .collect(),
        groups,
        prompt,
        seed: config.seed,
    })
}

/// The zero-shot prompt: each group's atoms and facts, then the request
/// for one new statement per group in the form the scorer reads.
fn prompt(groups: &[Group], vocabulary: &Vocabulary) -> String {
    let n = groups.len();
    let mut out = format!(
        "The facts below are all true. They come in {n} groups; each group speaks only \
         of its own atoms, and no atom belongs to two groups.\n\n"
    );
    for (i, group) in groups.iter().enumerate() {
        let _ = writeln!(out, "Group {} atoms:", i + 1);
        for atom in &group.atoms {
            let _ = writeln!(
                out,
                "  {atom}: {}",
                vocabulary.sentence(&Formula::atom(atom.clone()))
            );
        }
        let _ = writeln!(out, "Group {} facts:", i + 1);
        for (j, fact) in group.facts.iter().enumerate() {
            let _ = writeln!(out, "  {}. {} ({})", j + 1, fact.text, fact.symbolic);
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Write {n} new statements, one per group, each using only the atoms of its group and \
         each different from that group's facts, so that all the facts and your {n} \
         statements stay consistent: they can all be true at once. Write each statement as a \
         formula over the atom letters (- not, & and, | or, -> implies, <-> if and only if), \
         one line per group:"
    );
    for i in 1..=n {
        let _ = writeln!(out, "Group {i}: <statement>");
    }
    out.push_str("Answer:");
    out
}

//! `entail gen logicon`.

use super::super::{choice, Failure, Outcome};
use entail::gen::logicon::{self, Config, Error};
use entail::picture::counted;
use std::path::PathBuf;

/// Arguments of `entail gen logicon`.
#[derive(clap::Args)]
#[command(after_help = "\
Each sample is k statements drawn from a logical graph, as LogiConBench builds it: the
graph grows from the atom p, each new node expanding an existing one A into -A, A & q
or A | q (q from an atom list of 8: p..t, a..c), drawn as often as the paper's Table 7
has -, & and | for k; -> , <-> and contradiction are the edges, each checked by truth
tables. Statements hold up to --statement-atoms atom occurrences, and the statements
of a sample are within --max-distance of each other, drawn with their numbers of
different atoms weighted by Table 7's ATOM row for k (4.4 on average).
Every one of the 2^k T/F lists is labelled exactly by truth tables: a list is
consistent iff the statements, each asserted (T) or negated (F), have a common model.
With --labels paper the lists carry LogiConBench's labels instead: a list is
consistent iff truth values can be propagated along the reasoning path (path) within
its edges' relations; that rule calls some inconsistent lists consistent. Every sample
has at least one consistent and one inconsistent list under the rule used, and flags
the lists the two rules label differently (disagreements).

Words: each atom is a sentence in one of the paper's four shapes (the NOUN is ADJ,
the NOUN VERBs, the EVENT occurs, the NOUN has the THING), with words from WordNet,
read at run time from --wordnet DIR, else $ENTAIL_WORDNET, else /usr/share/wordnet
(Debian's wordnet-base); no noun serves two atoms of a sample.

JSONL fields: id, k, statements [{symbolic, text}], rewrites (per statement:
[{rule, symbolic, text}], each checked equivalent), consistent_lists,
inconsistent_lists ([\"T\",\"F\",...]), labels (exact or paper), disagreements (lists
inconsistent in truth but consistent by the paper's rule), path ([{from, relation,
to}] in the order the paper's walk crosses them; relation is ->, <-, <-> or x),
graph_depth, seed; hard and completion samples add query {labels, hidden, answer}: the
list Task 1 asks about (a hard item asks about the pair's consistent or inconsistent
list by a fair coin of its own) or, for completion, the list with its hidden position null and the
label that makes it consistent.

Variants:
  plain       all lists in canonical order (all-T first)
  hard        the first consistent and first inconsistent list differ in one position
  completion  as hard; the differing position is the label to complete

With --k 2..5, item i has k = 2 + (i mod 4), so 280000 items give 70000 per k.

Task 3 (--task generative, the paper's generative task): each sample partitions
--groups n x --group-atoms atoms into n disjoint groups, draws a truth assignment
(assignment) and gives each group ten facts over its own atoms (groups [{atoms,
facts [{symbolic, text}]}]): formulas from a logical graph over the group's atoms or
their rewrites, each with at least two kinds of connective and checked true under the
assignment by truth tables; together a group's facts have the assignment as their
only model. The prompt (always present, zero-shot as the paper's Table 4) asks for n
new statements, one per group; `entail score logicon --task 3` scores the answers.
With --groups 2..5, item i has n = 2 + (i mod 4).

Examples:
  entail gen logicon --k 2..5 --count 1000 --seed 7 --output logicon.jsonl
  entail gen logicon --k 3 --count 5 --variant hard --output -
  entail gen logicon --k 2 --count 5 --variant completion --prompt 3-shot-path -o -
  entail gen logicon --k 4 --count 100 --max-distance 3 --atoms 3..4 -o close.jsonl
  entail gen logicon --task generative --groups 2..5 --count 1000 --seed 7 -o task3.jsonl
  entail gen logicon --count 280000 --seed 7 --shard 0/4 -o logicon.0.jsonl
      (shards 0/4 .. 3/4, concatenated in order, equal the unsharded file)")]
pub struct Args {
    /// lists (statements with labelled lists, for Tasks 1 and 2) or
    /// generative (Task 3's groups of facts).
    #[arg(long, value_enum, default_value_t = choice::LogiconGenTask::Lists)]
    task: choice::LogiconGenTask,
    /// Task 3: groups per sample, one number or a range such as 2..5.
    #[arg(long, default_value = "2..5", value_parser = crate::cli::parse_range)]
    groups: (usize, usize),
    /// Task 3: atoms per group.
    #[arg(long, default_value_t = 3)]
    group_atoms: usize,
    /// Statements per sample: one number or a range such as 2..5.
    #[arg(long, default_value = "2..5", value_parser = crate::cli::parse_range)]
    k: (usize, usize),
    /// Number of samples.
    #[arg(long, default_value_t = 100)]
    count: u64,
    /// plain, hard or completion.
    #[arg(long, value_enum, default_value_t = choice::Variant::Plain)]
    variant: choice::Variant,
    /// Which rule labels the lists: exact (truth tables) or paper
    /// (propagation along the reasoning path, as LogiConBench labels).
    #[arg(long, value_enum, default_value_t = choice::Labels::Exact)]
    labels: choice::Labels,
    /// Also write each sample's prompt (prompt field): Task 2 for plain
    /// samples, the Task 1 query for hard and completion ones.
    #[arg(long, value_enum)]
    prompt: Option<choice::LogiconPrompt>,
    /// Largest graph distance between any two statements of a sample.
    #[arg(long, default_value_t = 6)]
    max_distance: usize,
    /// Length of each graph's atom list, drawn uniformly from this range
    /// (at most 8, the paper's length).
    #[arg(long, default_value = "8", value_parser = crate::cli::parse_range)]
    atoms: (usize, usize),
    /// Nodes a logical graph for two statements grows to; a fifth more
    /// for each further statement.
    #[arg(long, default_value_t = 100)]
    graph_nodes: usize,
    /// Most atom occurrences in one statement (the paper's Table 7 counts
    /// up to 9 different atoms and 16 `|` in a formula).
    #[arg(long, default_value_t = 16)]
    statement_atoms: usize,
    /// The WordNet directory (index.*, data.*, cntlist.rev); default
    /// $ENTAIL_WORDNET, else /usr/share/wordnet.
    #[arg(long, value_name = "DIR")]
    wordnet: Option<PathBuf>,
    #[command(flatten)]
    records: super::Records,
}

impl Args {
    fn config(&self) -> Config {
        Config {
            seed: self.records.run.seed,
            count: self.count,
            k_min: self.k.0,
            k_max: self.k.1,
            max_distance: self.max_distance,
            min_atoms: self.atoms.0,
            max_atoms: self.atoms.1,
            graph_nodes: self.graph_nodes,
            statement_atoms: self.statement_atoms,
            variant: self.variant.into(),
            labels: self.labels.into(),
            prompt: self.prompt.map(Into::into),
            task: self.task.into(),
            groups_min: self.groups.0,
            groups_max: self.groups.1,
            group_atoms: self.group_atoms,
            shard: self.records.run.shard,
            threads: self.records.run.threads(),
            wordnet: self.wordnet.clone(),
        }
    }
}

/// Runs `entail gen logicon`.
pub fn run(args: Args) -> Outcome {
    let config = args.config();
    config.validate().map_err(|e| Failure::new(e.to_string()))?;
    args.records.generate(
        "logicon",
        (config.shard.range(config.count).count() as u64, "samples"),
        |out, progress| logicon::generate(&config, out, progress),
        |stats| counted(stats.samples, "samples"),
        |e| match e {
            Error::Io(e) => Ok(e),
            e => Err(e),
        },
    )
}

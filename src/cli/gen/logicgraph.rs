//! `entail gen logicgraph`.

use super::super::{choice, Failure, Outcome};
use entail::gen::logicgraph::{self, Config};
use entail::picture::counted;
use std::path::PathBuf;

/// Arguments of `entail gen logicgraph`.
#[derive(clap::Args)]
#[command(after_help = "\
Each instance is a goal G that follows from a premise pool by several distinct proof
paths, built backward from G with the forms MP, MT, HS, DS, CD, RAA and DE. Paths that
share the final inference into G form a family: a core path and branches that derive one
of its intermediate conclusions by another form. New leaves get fresh atoms, and every
instance is checked with the engine before it is written: every step valid, every path
globally valid and minimal, the pool consistent, and the minimal supports of G exactly
the paths' premise sets. Failing draws are discarded and counted.

Output: DIR/test_1 .. DIR/test_N, each in the published LogicGraph layout
(question.json, complete.json, solutions.json, verify_true.json; prompt.txt with
--prompt), readable by `entail prove DIR/test_1 --supports`.

Tiers: small 2-4 paths, medium 5-7 (uniform), large 8-19 (most near 8, mean about
10.3, as published); --paths overrides the range. Paths have 2-14 steps, most often
5-6 (mean about 6) within --depth, and instances have the tier's families as published
(small 1-4, mean 1.7; medium 1-6, mean 3; large 2-8, mean 4.2).

Words: the sentences are built from WordNet, read at run time from --wordnet DIR, else
$ENTAIL_WORDNET, else /usr/share/wordnet (Debian's wordnet-base, which
scripts/install-deps installs). The statistics name the WordNet version used.

Examples:
  entail gen logicgraph --tier small --count 100 --seed 1 --output out/small
  entail gen logicgraph --tier large --count 10 --distractors 8 --prompt --output out/large
  entail gen logicgraph --paths 3-3 --depth 4-8 --forms MP,MT,DS --count 5 -o out/mix
  entail prove out/small/test_1 --supports
  entail gen logicgraph --count 1000 --seed 1 --shard 0/4 --output out/small
      (each shard writes its own test_K directories; together they are the whole tree)")]
pub struct Args {
    /// Difficulty tier: small (2-4 paths), medium (5-7) or large (8-19).
    #[arg(long, value_enum, default_value_t = choice::Tier::Small)]
    tier: choice::Tier,
    /// Paths per instance as MIN-MAX (overrides --tier), e.g. 3-5.
    #[arg(long, value_parser = crate::cli::parse_range)]
    paths: Option<(usize, usize)>,
    /// Steps per path as MIN-MAX.
    #[arg(long, default_value = "2-14", value_parser = crate::cli::parse_range)]
    depth: (usize, usize),
    /// Argument forms to use, comma-separated (MP,MT,HS,DS,CD,RAA,DE).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        ignore_case = true,
        default_value = "MP,MT,HS,DS,CD,RAA,DE"
    )]
    forms: Vec<choice::Form>,
    /// Distractor premises per instance (in no proof).
    ///
    /// Copies of a window of real premises, with new sentences where only the
    /// window had them, or paths built as real ones with one literal negated,
    /// whichever links to the rest more as real premises do. Use 8 or more:
    /// a model of how premises link tells them from real ones about 3 to 5
    /// points above chance with 8, about 4 to 7 with 3 to 7, about 20 with 2,
    /// and every one with 1 (a lone distractor can hardly mention a sentence
    /// that exactly one other premise mentions, as most real premises do);
    /// the summary says so when asked for fewer (docs/logicgraph.md, "Distractors").
    #[arg(long, default_value_t = 0)]
    distractors: usize,
    /// Discard draws with more atoms than this (G included).
    #[arg(long, default_value_t = 120)]
    max_atoms: usize,
    /// WordNet directory (index.* and data.* files); default: $ENTAIL_WORDNET,
    /// else /usr/share/wordnet.
    #[arg(long, value_name = "DIR")]
    wordnet: Option<PathBuf>,
    /// Number of instances.
    #[arg(long, default_value_t = 10)]
    count: u64,
    /// Also write prompt.txt, the task text for a model.
    #[arg(long)]
    prompt: bool,
    /// Output directory (created if needed).
    #[arg(long, short)]
    output: PathBuf,
    #[command(flatten)]
    run: super::Run,
}

impl Args {
    fn config(&self) -> Config {
        let mut config = Config::for_tier(self.tier.into());
        if let Some(p) = self.paths {
            config.paths = p;
        }
        config.depth = self.depth;
        config.forms = Vec::new();
        for form in self.forms.iter().map(|&f| f.into()) {
            if !config.forms.contains(&form) {
                config.forms.push(form);
            }
        }
        config.distractors = self.distractors;
        config.max_atoms = self.max_atoms;
        config.seed = self.run.seed;
        config.count = self.count;
        config.shard = self.run.shard;
        config.prompt = self.prompt;
        config.threads = self.run.threads();
        config.wordnet.clone_from(&self.wordnet);
        config
    }
}

/// Runs `entail gen logicgraph`.
pub fn run(args: Args) -> Outcome {
    let config = args.config();
    config.validate().map_err(|e| Failure::new(e.to_string()))?;
    let bar =
        crate::cli::progress::bar(config.shard.range(config.count).count() as u64, "instances");
    let result = logicgraph::generate(&config, &args.output, &|n| bar.inc(n));
    bar.finish_and_clear();
    let stats = result.map_err(|e| Failure::new(e.to_string()))?;
    let discarded: u64 = stats.discarded.values().sum();
    let reasons: Vec<String> = stats
        .discarded
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    let text = format!(
        "{} in {} ({}, mean {:.1} steps per path, at most {} atoms, words from {}); {} discarded{}",
        counted(stats.generated, "instances"),
        args.output.display(),
        counted(stats.paths, "paths"),
        stats.steps as f64 / stats.paths.max(1) as f64,
        stats.max_atoms,
        stats.lexicon,
        counted(discarded, "draws"),
        if reasons.is_empty() {
            String::new()
        } else {
            format!(" ({})", reasons.join(", "))
        }
    );
    let text = match config.distractor_note() {
        Some(note) => format!("{text}; note: {note} (see --help)"),
        None => text,
    };
    super::summary("logicgraph", args.run.json, &stats, &text)
}

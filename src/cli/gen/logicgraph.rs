//! `entail gen logicgraph`.

use entail::gen::logicgraph::{self, Config, Form, Tier};
use std::path::PathBuf;
use std::process::ExitCode;

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

Tiers: small 2-4 paths, medium 5-7, large 8-10 (--paths overrides).

Examples:
  entail gen logicgraph --tier small --count 100 --seed 1 --output out/small
  entail gen logicgraph --tier large --count 10 --distractors 4 --prompt --output out/large
  entail gen logicgraph --paths 3-3 --depth 4-8 --forms MP,MT,DS --count 5 -o out/mix
  entail prove out/small/test_1 --supports")]
pub struct Args {
    /// Difficulty tier: small (2-4 paths), medium (5-7) or large (8-10).
    #[arg(long, default_value = "small", value_parser = ["small", "medium", "large"])]
    tier: String,
    /// Paths per instance as MIN-MAX (overrides --tier), e.g. 3-5.
    #[arg(long, value_parser = crate::cli::parse_range)]
    paths: Option<(usize, usize)>,
    /// Steps per path as MIN-MAX.
    #[arg(long, default_value = "2-12", value_parser = crate::cli::parse_range)]
    depth: (usize, usize),
    /// Argument forms to use, comma-separated (MP,MT,HS,DS,CD,RAA,DE).
    #[arg(long, default_value = "MP,MT,HS,DS,CD,RAA,DE", value_parser = check_forms)]
    forms: String,
    /// Distractor premises per instance (in no proof).
    #[arg(long, default_value_t = 0)]
    distractors: usize,
    /// Discard draws with more atoms than this (G included).
    #[arg(long, default_value_t = 40)]
    max_atoms: usize,
    /// Number of instances.
    #[arg(long, default_value_t = 10)]
    count: u64,
    /// Run seed; the same seed gives a byte-identical output tree.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Also write prompt.txt, the task text for a model.
    #[arg(long)]
    prompt: bool,
    /// Worker threads (output does not depend on it); default: all cores.
    #[arg(long)]
    threads: Option<usize>,
    /// Output directory (created if needed).
    #[arg(long, short)]
    output: PathBuf,
}

/// Validates a form list for clap; the list is parsed again in `config`.
fn check_forms(text: &str) -> Result<String, String> {
    parse_forms(text).map(|_| text.to_string())
}

/// `MP,MT,DS`: the forms named, without repeats.
fn parse_forms(text: &str) -> Result<Vec<Form>, String> {
    let mut out = Vec::new();
    for name in text.split(',').filter(|s| !s.trim().is_empty()) {
        let f = Form::parse(name).ok_or_else(|| {
            format!("unknown form `{name}` (expected MP, MT, HS, DS, CD, RAA, DE)")
        })?;
        if !out.contains(&f) {
            out.push(f);
        }
    }
    if out.is_empty() {
        return Err("no forms given".into());
    }
    Ok(out)
}

impl Args {
    fn config(&self) -> Config {
        let tier = Tier::parse(&self.tier).unwrap_or(Tier::Small);
        let mut config = Config::for_tier(tier);
        if let Some(p) = self.paths {
            config.paths = p;
        }
        config.depth = self.depth;
        config.forms = parse_forms(&self.forms).unwrap_or_else(|_| Form::ALL.to_vec());
        config.distractors = self.distractors;
        config.max_atoms = self.max_atoms;
        config.seed = self.seed;
        config.count = self.count;
        config.prompt = self.prompt;
        config.threads = crate::cli::threads(self.threads);
        config
    }
}

/// Runs `entail gen logicgraph`.
pub fn run(args: Args) -> ExitCode {
    let config = args.config();
    if let Err(e) = config.validate() {
        eprintln!("entail gen logicgraph: {e}");
        return ExitCode::from(2);
    }
    let bar = crate::cli::progress::bar(args.count, "instances");
    let result = logicgraph::generate(&config, &args.output, &|n| bar.inc(n));
    match result {
        Ok(stats) => {
            bar.finish_and_clear();
            let discarded: u64 = stats.discarded.values().sum();
            let reasons: Vec<String> = stats
                .discarded
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect();
            eprintln!(
                "entail gen logicgraph: {} instances in {} ({} paths, mean {:.1} steps per path, at most {} atoms); {} draws discarded{}",
                stats.generated,
                args.output.display(),
                stats.paths,
                stats.steps as f64 / stats.paths.max(1) as f64,
                stats.max_atoms,
                discarded,
                if reasons.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", reasons.join(", "))
                }
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            bar.abandon();
            eprintln!("entail gen logicgraph: {e}");
            ExitCode::from(1)
        }
    }
}

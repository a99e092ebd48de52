//! `entail gen slr`.

use super::super::{choice, Failure, Outcome};
use entail::gen::slr::{self, BackgroundSampling, Config, Error, Language, Pmf, Theta};
use entail::judge::JudgeConfig;
use entail::picture::counted;
use std::path::PathBuf;

/// Arguments of `entail gen slr`.
#[derive(clap::Args)]
#[command(after_help = "\
Each task is a hidden rule eastbound(T) :- ..., a validation program (labelled trains
with their background facts) and a prompt asking for the rule. Trains are labelled by
the judge (the same sandboxed engine `entail judge` uses); every task is re-scored and
kept only if its ground-truth rule scores 1.0. Tasks are distinct up to renaming: splits
share no rule (up to variable renaming and literal order) and no problem (labelled trains
up to order and renaming) at any level, and within a split no problem repeats across
levels; a level's tasks depend on the earlier levels of its split, never on which levels
a run asks for.

Curriculum (SLR Table 2): levels 1-5 basic, 6-10 easy, 11-15 medium, 16-20 hard.
Cars per train, active predicates, problem size and rule length grow with the level;
levels 1-5 use mirror backgrounds and uniform rules, later levels uniform backgrounds
and 30% pattern-guided rules (the 22 constructs of Appendix E: counting, forall, negation,
neighbours, max_list, recursion, projection, ...; the `construct` field names it).

Task configuration (the paper's Θ): the levels are presets; --theta FILE and the flags
--kappa-pos, --kappa-neg, --rule-length, --cars, --predicates, --background and
--pattern-percent replace a field of every requested level (flags over the file).
A Θ file is a JSON object with any of these fields:
  {\"kappa_pos\": 5, \"kappa_neg\": 3, \"rule_length\": [2, 3], \"cars\": [2, 4],
   \"predicates\": 7, \"pattern_percent\": 50,
   \"background\": \"uniform\" | \"mirror\" | {\"pmf\": {\"car_color\": {\"red\": 3, \"blue\": 1}}}}
A PMF weighs each value of the attributes it names (unnamed values weigh 0, unnamed
attributes stay uniform), always under the language's grammar.

JSONL fields, as SLR-Bench publishes them (names and types): id (int: the row in the
run), prompt, ground-truth rule, validation program, symbols (the examples and background
as Prolog), curriculum level, curriculum tier, rule sampling, rule complexity (Θ's rule
length, \"1-2\"), background sampling, problem size (int), vocabulary predicates (int),
vocabulary car constants (cars per train, \"2-3\"); then ours: construct, rule length (this
rule's literals), holdout program (with --holdout K), evaluation_config, seed.

Statistics (rules resampled, candidates labelled, judge calls, duplicates) go to stderr,
as one JSON object with --json. --threads is also the judge's number of workers.

Examples:
  entail gen slr --level 3 --count 10 --seed 1 --output -
  entail gen slr --levels 1-20 --count 50 --seed 7 --split test -o slr_test.jsonl
  entail gen slr --levels 1-20 --count 1000 --seed 7 -o slr_train.jsonl
      (disjoint from that test split, up to renaming: no rule, problem or prompt in common;
      a test run writes --test-tasks per level, by default its --count, and every run of
      the seed must be given that size)
  entail gen slr --levels 1-5 --count 20 --seed 7 --format parquet -o slr_train.parquet
  entail gen slr --level 8 --kappa-pos 5 --kappa-neg 3 --cars 3-5 --rule-length 2-3 -o custom.jsonl
  entail gen slr --level 10 --background '{\"car_color\": {\"red\": 4, \"blue\": 1, \"green\": 1}}' -o skewed.jsonl
  entail gen slr --level 12 --count 50 --prompt nl --language corpora/slr-lang/trains.json -o nl.jsonl
  entail gen slr --levels 1-20 --count 1000 --seed 7 --shard 0/4 -o slr.0.jsonl
      (shards 0/4 .. 3/4, concatenated in order, equal the unsharded file)")]
pub struct Args {
    /// One curriculum level (1-20).
    #[arg(long, conflicts_with = "levels", value_parser = clap::value_parser!(u32).range(1..=20))]
    level: Option<u32>,
    /// A range of levels such as 1-20 (default: 1-20 when --level is absent).
    #[arg(long, value_parser = parse_levels)]
    levels: Option<(u32, u32)>,
    /// Tasks per level.
    #[arg(long, default_value_t = 10)]
    count: u64,
    /// train, validation or test. Splits are disjoint up to renaming, by
    /// rule and by problem: train and validation runs hold out the test
    /// (and validation) tasks of the same seed at every level, computed first.
    #[arg(long, value_enum, default_value_t = choice::Split::Train)]
    split: choice::Split,
    /// prolog (facts) or nl (English sentences).
    #[arg(long, value_enum, default_value_t = choice::Prompt::Prolog)]
    prompt: choice::Prompt,
    /// A language file (JSON, same shape as corpora/slr-lang/trains.json).
    #[arg(long)]
    language: Option<PathBuf>,
    /// Test tasks per level, the test split's size, which train and
    /// validation runs of the same seed hold out [default: --count in a
    /// test run, else 50]. A test run writes exactly this many per level.
    #[arg(long)]
    test_tasks: Option<u64>,
    /// Validation tasks per level, which train runs of the same seed hold
    /// out [default: --count in a validation run, else 10].
    #[arg(long)]
    validation_tasks: Option<u64>,
    /// K labelled trains per task kept out of the prompt, in the record's
    /// `holdout program`; `entail judge` and `score slr` report answers'
    /// `holdout_score` on them.
    #[arg(long, value_name = "K", default_value_t = 0)]
    holdout: usize,
    /// A task configuration Θ file (JSON, see below) over the level presets.
    #[arg(long, value_name = "FILE")]
    theta: Option<PathBuf>,
    /// κ_pos: positive examples per task.
    #[arg(long, value_name = "N")]
    kappa_pos: Option<usize>,
    /// κ_neg: negative examples per task.
    #[arg(long, value_name = "N")]
    kappa_neg: Option<usize>,
    /// Attribute literals in the rule body, such as 2-3.
    #[arg(long, value_name = "MIN-MAX", value_parser = parse_span)]
    rule_length: Option<(usize, usize)>,
    /// Cars per train, such as 2-4.
    #[arg(long, value_name = "MIN-MAX", value_parser = parse_span)]
    cars: Option<(usize, usize)>,
    /// Active predicates (a prefix of the language's order).
    #[arg(long, value_name = "N")]
    predicates: Option<usize>,
    /// uniform, mirror, or a PMF as JSON: {"car_color": {"red": 3, "blue": 1}}.
    #[arg(long, value_name = "POLICY", value_parser = parse_background)]
    background: Option<BackgroundSampling>,
    /// Percentage of rules drawn from the construct templates (rest uniform).
    #[arg(long, value_name = "P")]
    pattern_percent: Option<u32>,
    #[command(flatten)]
    records: super::Records,
}

/// `1-20`, `1..20` or `7`.
fn parse_levels(text: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = crate::cli::parse_range(text)?;
    for n in [lo, hi] {
        if !(1..=20).contains(&n) {
            return Err(format!("`{n}` is not a level in 1..20"));
        }
    }
    Ok((lo as u32, hi as u32))
}

/// `2-4`, `2..4` or `3`.
fn parse_span(text: &str) -> Result<(usize, usize), String> {
    crate::cli::parse_range(text)
}

/// `uniform`, `mirror` or a PMF in JSON.
fn parse_background(text: &str) -> Result<BackgroundSampling, String> {
    match text {
        "uniform" => Ok(BackgroundSampling::Uniform),
        "mirror" => Ok(BackgroundSampling::Mirror),
        json => serde_json::from_str::<Pmf>(json)
            .map(BackgroundSampling::Pmf)
            .map_err(|e| {
                format!(
                    "not uniform, mirror or a PMF such as {{\"car_color\": {{\"red\": 1}}}}: {e}"
                )
            }),
    }
}

/// The Θ of `args`: the file's, then the flags'.
fn theta(args: &Args) -> Result<Theta, Failure> {
    let file = match &args.theta {
        None => Theta::default(),
        Some(path) => {
            let text = super::super::read_text(path)?;
            serde_json::from_str(&text)
                .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?
        }
    };
    Ok(file.or(Theta {
        kappa_pos: args.kappa_pos,
        kappa_neg: args.kappa_neg,
        rule_length: args.rule_length,
        cars: args.cars,
        predicates: args.predicates,
        background: args.background.clone(),
        pattern_percent: args.pattern_percent,
    }))
}

/// Runs `entail gen slr`.
pub fn run(args: Args) -> Outcome {
    let language = match &args.language {
        None => Language::trains(),
        Some(path) => {
            let text = super::super::read_text(path)?;
            Language::from_json(&text)
                .map_err(|e| Failure::new(format!("{}: {e}", path.display())))?
        }
    };
    let (lo, hi) = match (args.level, args.levels) {
        (Some(l), _) => (l, l),
        (None, Some(range)) => range,
        (None, None) => (1, 20),
    };
    let threads = args.records.run.threads();
    let config = Config {
        seed: args.records.run.seed,
        levels: (lo..=hi).collect(),
        theta: theta(&args)?,
        count: args.count,
        split: args.split.into(),
        prompt: args.prompt.into(),
        language,
        shard: args.records.run.shard,
        threads,
        judge: JudgeConfig {
            workers: threads.max(1),
            ..JudgeConfig::default()
        },
        test_tasks: args.test_tasks.unwrap_or(match args.split {
            choice::Split::Test => args.count,
            _ => 50,
        }),
        validation_tasks: args.validation_tasks.unwrap_or(match args.split {
            choice::Split::Validation => args.count,
            _ => 10,
        }),
        holdout: args.holdout,
    };
    let start = std::time::Instant::now();
    args.records.generate(
        "slr",
        (slr::work(&config), "tasks"),
        |out, progress| slr::generate(&config, out, progress),
        |stats| {
            let json = serde_json::to_string(stats).unwrap_or_default();
            let seconds = start.elapsed().as_secs_f64();
            format!(
                "{} in {seconds:.1}s; stats {json}",
                counted(stats.tasks, "tasks")
            )
        },
        |e| match e {
            Error::Io(e) => Ok(e),
            e => Err(e),
        },
    )
}

//! `entail gen slr`.

use entail::gen::slr::language::Language;
use entail::gen::slr::prompt::PromptStyle;
use entail::gen::slr::{self, Config, Error, Split};
use entail::judge::JudgeConfig;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `entail gen slr`.
#[derive(clap::Args)]
#[command(after_help = "\
Each task is a hidden rule eastbound(T) :- ..., a validation program (labelled trains
with their background facts) and a prompt asking for the rule. Trains are labelled by
the judge (the same sandboxed engine `entail judge` uses); every task is re-scored and
kept only if its ground-truth rule scores 1.0. Tasks are deduplicated by (rule,
validation program).

Curriculum (SLR Table 2): levels 1-5 basic, 6-10 easy, 11-15 medium, 16-20 hard.
Cars per train, active predicates, problem size and rule length grow with the level;
levels 1-5 use mirror backgrounds and uniform rules, later levels uniform backgrounds
and 30% pattern-guided rules (counting, forall, negation, neighbours, max_list, ...).

JSONL fields (SLR-Bench names): id, prompt, ground-truth rule, validation program,
curriculum level, curriculum tier, rule sampling, rule complexity, background sampling,
problem size, vocabulary predicates, vocabulary car constants, evaluation_config, seed.

Statistics (rules resampled, candidates labelled, judge calls, duplicates) go to stderr.

Examples:
  entail gen slr --level 3 --count 10 --seed 1 --output -
  entail gen slr --levels 1-20 --count 1000 --seed 7 --split test -o slr_test.jsonl
  entail gen slr --level 12 --count 50 --prompt nl --language my_domain.json -o nl.jsonl")]
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
    /// Run seed; the same seed gives byte-identical output.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// train, validation or test (disjoint random streams).
    #[arg(long, default_value = "train", value_parser = ["train", "validation", "test"])]
    split: String,
    /// prolog (facts) or nl (English sentences).
    #[arg(long, default_value = "prolog", value_parser = ["prolog", "nl"])]
    prompt: String,
    /// A language file (JSON, same shape as corpora/slr-lang/trains.json).
    #[arg(long)]
    language: Option<PathBuf>,
    /// Judge workers and generator threads (output does not depend on it); default: all cores.
    #[arg(long)]
    threads: Option<usize>,
    /// Output JSONL file, or `-` for stdout.
    #[arg(long, short, default_value = "-")]
    output: PathBuf,
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

/// Runs `entail gen slr`.
pub fn run(args: Args) -> ExitCode {
    let language = match &args.language {
        None => Language::trains(),
        Some(path) => match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| Language::from_json(&t).map_err(|e| e.to_string()))
        {
            Ok(l) => l,
            Err(e) => {
                eprintln!("entail gen slr: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
    };
    let (lo, hi) = match (args.level, args.levels) {
        (Some(l), _) => (l, l),
        (None, Some(range)) => range,
        (None, None) => (1, 20),
    };
    let threads = crate::cli::threads(args.threads);
    let config = Config {
        seed: args.seed,
        levels: (lo..=hi).collect(),
        count: args.count,
        split: Split::from_name(&args.split).unwrap_or_default(),
        prompt: PromptStyle::from_name(&args.prompt).unwrap_or_default(),
        language,
        shard: entail::gen::WHOLE_RUN,
        threads,
        judge: JudgeConfig {
            workers: threads.max(1),
            ..JudgeConfig::default()
        },
    };
    let bar = crate::cli::progress::bar(config.count * config.levels.len() as u64, "tasks");
    let start = std::time::Instant::now();
    let result = if args.output.as_os_str() == "-" {
        write(&config, std::io::stdout().lock(), &bar)
    } else {
        match std::fs::File::create(&args.output) {
            Ok(f) => write(&config, f, &bar),
            Err(e) => Err(Error::Io(e)),
        }
    };
    match result {
        Ok(stats) => {
            bar.finish_and_clear();
            let json = serde_json::to_string(&stats).unwrap_or_default();
            eprintln!(
                "entail gen slr: {} tasks in {:.1}s; stats {json}",
                stats.tasks,
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        // A closed pipe (e.g. `| head`) means the reader has what it wanted.
        Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            bar.abandon();
            eprintln!("entail gen slr: {e}");
            ExitCode::from(1)
        }
    }
}

fn write(
    config: &Config,
    out: impl Write,
    bar: &indicatif::ProgressBar,
) -> Result<slr::Stats, Error> {
    let mut out = BufWriter::new(out);
    let stats = slr::generate(config, &mut out, &|n| bar.inc(n))?;
    out.flush()?;
    Ok(stats)
}

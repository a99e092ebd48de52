//! `entail judge`: score one answer or a JSONL batch against SLR tasks.

use entail::judge::{
    extract_rule, run_batch, Engine, ErrorKind, Isomorphic, Judge, JudgeConfig, JudgeResult,
    TaskRecord,
};
use entail::syntax::prolog::parse_program;
use entail::syntax::SyntaxError;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `entail judge`.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  entail judge --task task.json --hypothesis 'eastbound(T) :- has_car(T, C), short(C).'
  entail judge --task task.json --hypothesis-file answer.txt --json
  model_output | entail judge --task task.json -
  entail judge --batch corpora/slr/predictions.jsonl --output results.jsonl --workers 2
  entail judge --task task.json --hypothesis-file answer.txt --isomorphic both --renamings 8

Task constants (train<N>, car<N>_<M>) get opaque names drawn from --seed and the task,
and the trains' fact blocks a random order, so no label can be read from a name or from
fact order. --renamings K scores under K independent renamings and reports the lowest.
With --isomorphic both the result also has the score on the original names, and
\"shortcut\": true when the answer is correct there but not under renaming.

A task is a JSON object with \"validation program\" (or \"validation_program\"), and
optionally \"evaluation_config\": {\"positive_predicate\", \"negative_predicate\"} and \"id\".
Batch lines are task objects with an extra \"prediction\" field.")]
pub struct Args {
    /// The task record (JSON) to score against.
    #[arg(long, conflicts_with = "batch")]
    task: Option<PathBuf>,
    /// The answer text.
    #[arg(long, conflicts_with_all = ["hypothesis_file", "stdin"])]
    hypothesis: Option<String>,
    /// A file holding the answer text.
    #[arg(long, conflicts_with = "stdin")]
    hypothesis_file: Option<PathBuf>,
    /// Read the answer from standard input.
    #[arg(value_name = "-", num_args = 0..=1, default_missing_value = "-")]
    stdin: Option<String>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// A JSONL file of task records with a "prediction" field.
    #[arg(long)]
    batch: Option<PathBuf>,
    /// Where batch results go (default: standard output).
    #[arg(long, requires = "batch")]
    output: Option<PathBuf>,
    /// Worker processes (and threads) for a batch.
    #[arg(long, default_value_t = 1)]
    workers: usize,
    /// Inferences each example may use before the answer counts as a timeout.
    #[arg(long, default_value_t = 5_000_000)]
    inference_limit: u64,
    /// Wall-clock cap per answer, in seconds.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Address-space cap per worker, in MiB.
    #[arg(long, default_value_t = 2048)]
    memory_mb: u64,
    /// `renamed` (default) scores with task constants renamed; `both` also
    /// scores with the original names and reports `shortcut`.
    #[arg(long, default_value = "renamed", value_parser = ["renamed", "both"])]
    isomorphic: String,
    /// Independent renamings to score each answer under; the lowest score counts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    renamings: u64,
    /// Seed of the renamings (the same seed gives the same names).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// `auto` (default) runs hypotheses natively and hands anything the
    /// native evaluator is not sure of to scryer workers; `scryer` uses the
    /// workers only.
    #[arg(long, default_value = "auto", value_parser = ["auto", "scryer"])]
    engine: String,
}

/// Runs `entail judge`.
pub fn run(args: Args) -> ExitCode {
    let mut config = JudgeConfig::default();
    config.workers = args.workers.max(1);
    config.inference_limit = args.inference_limit;
    config.worker.eval_timeout = Duration::from_secs_f64(args.timeout.max(0.001));
    config.worker.memory_limit_bytes = args.memory_mb.saturating_mul(1 << 20);
    config.isomorphic = if args.isomorphic == "both" {
        Isomorphic::Both
    } else {
        Isomorphic::Renamed
    };
    config.renamings = args.renamings as usize;
    config.seed = args.seed;
    config.engine = if args.engine == "scryer" {
        Engine::Scryer
    } else {
        Engine::Auto
    };
    let judge = Judge::new(config);
    match (&args.batch, &args.task) {
        (Some(batch), _) => run_batch_file(&judge, batch, args.output.as_ref()),
        (None, Some(task)) => run_single(&judge, task, &args),
        (None, None) => {
            eprintln!("entail judge: give --task with an answer, or --batch (see --help)");
            ExitCode::from(2)
        }
    }
}

fn run_single(judge: &Judge, task_path: &PathBuf, args: &Args) -> ExitCode {
    let text = match std::fs::read(task_path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("entail judge: {}: {e}", task_path.display());
            return ExitCode::from(2);
        }
    };
    let record: TaskRecord = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            // serde_json's message ends with " at line L column C".
            let message = e.to_string();
            let message = message.split(" at line ").next().unwrap_or_default();
            let (line, column) = (e.line(), e.column().max(1));
            eprintln!("{}:{line}:{column}: {message}", task_path.display());
            return ExitCode::from(2);
        }
    };
    let answer = if let Some(text) = &args.hypothesis {
        text.clone()
    } else if let Some(path) = &args.hypothesis_file {
        match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("entail judge: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    } else if args.stdin.is_some() {
        let mut bytes = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
            eprintln!("entail judge: standard input: {e}");
            return ExitCode::from(2);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        eprintln!("entail judge: give --hypothesis, --hypothesis-file or - (see --help)");
        return ExitCode::from(2);
    };
    let task = match judge.task(&record) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("entail judge: {}: {e}", task_path.display());
            return ExitCode::from(2);
        }
    };
    let mut result = task.score(&answer);
    if result.error_kind == Some(ErrorKind::Syntax) {
        let source = match &args.hypothesis_file {
            Some(path) => path.display().to_string(),
            None if args.hypothesis.is_some() => "<hypothesis>".to_string(),
            None => "<stdin>".to_string(),
        };
        if let Some(error) = answer_syntax_error(&answer) {
            result.error = Some(error.in_file(source).to_string());
        }
    }
    if args.json {
        match serde_json::to_string_pretty(&result) {
            Ok(text) => outln!("{text}"),
            Err(e) => {
                eprintln!("entail judge: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        print_human(&result);
    }
    ExitCode::SUCCESS
}

/// The reader's error on the rule in `answer`, placed in the whole answer
/// (the rule may sit inside reasoning and a `[RULE]` block).
fn answer_syntax_error(answer: &str) -> Option<SyntaxError> {
    let rule = extract_rule(answer);
    let error = parse_program(rule).err()?;
    // `rule` is a slice of `answer`.
    let base = rule.as_ptr() as usize - answer.as_ptr() as usize;
    Some(SyntaxError::at(
        answer,
        base + error.pos.offset,
        error.message,
    ))
}

fn print_human(result: &JudgeResult) {
    outln!("syntax_valid:  {}", result.syntax_valid);
    outln!("is_correct:    {}", result.is_correct);
    outln!("partial_score: {:.4}", result.partial_score);
    if let Some(kind) = &result.error_kind {
        let kind = serde_json::to_string(kind).unwrap_or_default();
        outln!(
            "error:         {} {}",
            kind.trim_matches('"'),
            result.error.as_deref().unwrap_or("")
        );
    }
    for e in &result.examples {
        let mark = if e.correct { "ok   " } else { "WRONG" };
        let label = if e.label == entail::judge::Label::Pos {
            "pos"
        } else {
            "neg"
        };
        outln!("  {mark} {label} predicted={:<5} {}", e.predicted, e.atom);
    }
    if let Some(original) = &result.original_names {
        outln!(
            "with original names: is_correct={} partial_score={:.4}",
            original.is_correct,
            original.partial_score
        );
    }
    if result.shortcut == Some(true) {
        outln!("shortcut:      correct on the original names only");
    }
    outln!("time:          {:.1} ms", result.time_ms);
}

fn run_batch_file(judge: &Judge, path: &PathBuf, output: Option<&PathBuf>) -> ExitCode {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("entail judge: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let lines = count_lines(path);
    let bar = crate::cli::progress::bar(lines as u64, "answers");
    let out: Box<dyn Write> = match output {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("entail judge: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
        None => Box::new(std::io::stdout().lock()),
    };
    let on_done = || bar.inc(1);
    match run_batch(judge, BufReader::new(file), out, &on_done) {
        Ok(summary) => {
            bar.finish_and_clear();
            eprintln!(
                "{} answers ({} malformed): accuracy {:.4}, partial {:.4}, syntax {:.4}",
                summary.lines, summary.malformed, summary.accuracy, summary.partial, summary.syntax
            );
            if let Some(stats) = judge.native_stats() {
                eprintln!("evaluations: {stats}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            bar.finish_and_clear();
            eprintln!("entail judge: {e}");
            ExitCode::from(1)
        }
    }
}

/// How many lines `path` has, for the progress bar (read in blocks, so a
/// huge file is never held in memory; 0 if it cannot be read).
fn count_lines(path: &PathBuf) -> usize {
    let Ok(file) = std::fs::File::open(path) else {
        return 0;
    };
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut count = 0;
    while let Ok(block) = reader.fill_buf() {
        if block.is_empty() {
            break;
        }
        count += block.iter().filter(|&&b| b == b'\n').count();
        let used = block.len();
        reader.consume(used);
    }
    count
}

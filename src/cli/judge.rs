//! `entail judge`: score one answer or a JSONL batch against SLR tasks.

use super::{choice, Exit, Failure, Outcome};
use entail::judge::{
    extract_rule, message, reference_rules, run_batch, BatchSummary, ErrorKind, Judge, JudgeConfig,
    JudgeResult, Rules, TaskRecord,
};
use entail::picture::counted;
use entail::syntax::prolog::parse_program;
use entail::syntax::SyntaxError;
use entail::table::{self, Format, ParquetSink};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `entail judge`.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  entail judge --task corpora/slr/task_l1.json --hypothesis 'eastbound(T) :- has_car(T, C), car_color(C, red).'
  echo 'eastbound(T) :- has_car(T, C), car_len(C, long).' | entail judge --task corpora/slr/task_l1.json - --json
  entail judge --batch corpora/slr/predictions.jsonl --output results.jsonl --workers 2
  entail judge --batch corpora/slr/predictions.jsonl --format parquet --output results.parquet
  entail judge --task corpora/slr/task_l1.json --hypothesis 'eastbound(T) :- has_car(T, C), car_color(C, red).' --isomorphic both --renamings 8
  entail judge --task corpora/slr/task_holdout.json --hypothesis 'eastbound(T) :- has_car(T, C), car_color(C, red), car_len(C, short).'

The rules are found as the SLR reference metric finds them: with % comments deleted and
lines joined, every eastbound(args) :- body. in the answer (args without parentheses, the
body up to its first full stop), wherever it stands: reasoning, prose, fences, [RULE]
blocks, /* */ comments. All of them are loaded together, as the reference loads them;
restated facts, directives, helper predicates and prose are never loaded. --rules last
loads only the last rule; --rules program loads the last rule with the program around it
(its fence, [RULE] block or the answer), helpers kept, an extension of the reference.

Task constants (train<N>, car<N>_<M>) get opaque names drawn from --seed and the task,
and the trains' fact blocks a random order, so no label can be read from a name or from
fact order. --renamings K scores under K independent renamings and reports the lowest.
With --isomorphic both the result also has the score on the original names, and
\"shortcut\": true when the answer is correct there but not under renaming.

A task is a JSON object with \"validation program\" (or \"validation_program\"), and
optionally \"evaluation_config\": {\"positive_predicate\", \"negative_predicate\"} and \"id\".
A task with a \"holdout program\" (trains the prompt does not show, from gen slr --holdout K)
also gets holdout_score and holdout_correct: the answer's score on those trains, which a
rule that memorises the shown trains does not keep.
Batch lines are task objects with an extra \"prediction\" field; a Parquet file with
those columns (as SLR-Bench publishes its tasks) is read row by row. Every input line gets
one output line, in order; a bad line gets error_kind \"input\", is reported on stderr
as FILE:LINE: message and counted in the summary (on stderr; JSON with --json).
On a terminal, without --output or --json, a batch prints one row per answer (line, id,
partial score, verdict) instead of JSONL; piped, it writes JSONL.")]
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
    /// Print the result as JSON (with --batch: the summary on stderr).
    #[arg(long)]
    json: bool,
    /// A JSONL or Parquet file of task records with a "prediction" field.
    #[arg(long)]
    batch: Option<PathBuf>,
    /// Where batch results go (default: standard output).
    #[arg(long, short, requires = "batch")]
    output: Option<PathBuf>,
    /// The format of batch results: one JSON object per line, or a Parquet
    /// table with the same fields as columns.
    #[arg(long, value_enum, default_value_t = Format::Jsonl, requires = "batch")]
    format: Format,
    /// Worker processes (and threads) for a batch.
    #[arg(long, default_value_t = 1)]
    workers: usize,
    /// --engine scryer only: inferences each example may use before the answer
    /// counts as a timeout. The native engine (the default) has fixed counted
    /// budgets: 10,000 steps per example, 100,000 per answer.
    #[arg(long, default_value_t = 5_000_000)]
    inference_limit: u64,
    /// --engine scryer only: wall-clock cap per answer, in seconds. The
    /// native engine is never timed, only counted.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// --engine scryer only: address-space cap per worker, in MiB. The native
    /// engine counts 32 MB per example instead.
    #[arg(long, default_value_t = 2048)]
    memory_mb: u64,
    /// `renamed` (default) scores with task constants renamed; `both` also
    /// scores with the original names and reports `shortcut`.
    #[arg(long, value_enum, default_value_t = choice::Isomorphic::Renamed)]
    isomorphic: choice::Isomorphic,
    /// Independent renamings to score each answer under; the lowest score counts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    renamings: u64,
    /// Seed of the renamings (the same seed gives the same names).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Which rules of the answer are loaded: `all` (default) every rule
    /// the reference finds, together, as the reference does; `last` the
    /// last one alone; `program` the last one with the program around it.
    #[arg(long, value_enum, default_value_t = choice::Rules::All)]
    rules: choice::Rules,
    /// `auto` (default) runs hypotheses natively, never handing them to
    /// another engine; `scryer` uses scryer workers only.
    #[arg(long, value_enum, default_value_t = choice::Engine::Auto)]
    engine: choice::Engine,
}

/// Runs `entail judge`.
pub fn run(args: Args) -> Outcome {
    let mut config = JudgeConfig {
        workers: args.workers.max(1),
        inference_limit: args.inference_limit,
        isomorphic: args.isomorphic.into(),
        renamings: args.renamings as usize,
        seed: args.seed,
        engine: args.engine.into(),
        rules: args.rules.into(),
        ..JudgeConfig::default()
    };
    config.worker.eval_timeout = Duration::from_secs_f64(args.timeout.max(0.001));
    config.worker.memory_limit_bytes = args.memory_mb.saturating_mul(1 << 20);
    let judge = Judge::new(config);
    match (&args.batch, &args.task) {
        (Some(batch), _) => run_batch_file(&judge, batch, &args),
        (None, Some(task)) => run_single(&judge, task, &args),
        (None, None) => Err(Failure::new(
            "give --task with an answer, or --batch (see --help)",
        )),
    }
}

fn run_single(judge: &Judge, task_path: &Path, args: &Args) -> Outcome {
    let text = super::read_text(task_path)?;
    let record: TaskRecord = serde_json::from_str(&text).map_err(|e| {
        // serde_json's message ends with " at line L column C".
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or_default();
        let (line, column) = (e.line(), e.column().max(1));
        Failure::placed(format!(
            "{}:{line}:{column}: {message}",
            task_path.display()
        ))
    })?;
    let answer = if let Some(text) = &args.hypothesis {
        text.clone()
    } else if let Some(path) = &args.hypothesis_file {
        super::read_text(path)?
    } else if args.stdin.is_some() {
        super::read_text(Path::new("-"))?
    } else {
        return Err(Failure::new(
            "give --hypothesis, --hypothesis-file or - (see --help)",
        ));
    };
    let task = judge
        .task(&record)
        .map_err(|e| Failure::new(format!("{}: {e}", task_path.display())))?;
    let mut result = task.score(&answer);
    if result.error_kind == Some(ErrorKind::Syntax) {
        let source = match &args.hypothesis_file {
            Some(path) => path.display().to_string(),
            None if args.hypothesis.is_some() => "<hypothesis>".to_string(),
            None => "<stdin>".to_string(),
        };
        let rules = args.rules.into();
        if let Some(error) = answer_syntax_error(&answer, &task.program().positive, rules) {
            result.error = Some(error.in_file(source).to_string());
        }
    }
    if args.json {
        super::print_json(&result)?;
    } else {
        print_human(&result);
    }
    Ok(Exit::Done)
}

/// The reader's error on the rules in `answer`, placed in the whole answer
/// (a rule may sit inside reasoning and a `[RULE]` block): the error on
/// the first rule loaded that does not read, or with `--rules program` on
/// the reference's last clause, which the judge loads alone when it does
/// not read.
fn answer_syntax_error(answer: &str, positive: &str, rules: Rules) -> Option<SyntaxError> {
    if rules != Rules::Program {
        let found = reference_rules(answer, positive);
        let first = if rules == Rules::Last {
            found.rules.len().checked_sub(1)?
        } else {
            0
        };
        return (first..found.rules.len()).find_map(|i| {
            let error = parse_program(found.rule(i)).err()?;
            let at = found.answer_offset(answer, found.rules[i].start + error.pos.offset);
            Some(SyntaxError::at(answer, at, error.message))
        });
    }
    let found = extract_rule(answer, positive)?;
    let error = parse_program(&found.clause).err()?;
    Some(SyntaxError::at(
        answer,
        found.clause_at.start + error.pos.offset,
        error.message,
    ))
}

fn print_human(result: &JudgeResult) {
    outln!("syntax_valid:  {}", result.syntax_valid);
    outln!("is_correct:    {}", result.is_correct);
    outln!("partial_score: {:.4}", result.partial_score);
    if let (Some(score), Some(correct)) = (result.holdout_score, result.holdout_correct) {
        outln!("holdout_score: {score:.4} (is_correct={correct} on the held-out trains)");
    }
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

fn run_batch_file(judge: &Judge, path: &Path, args: &Args) -> Outcome {
    // Open the input first, so that a missing file is reported before an
    // output file is created.
    let read_failure = |e: std::io::Error| Failure::new(format!("{}: {e}", path.display()));
    let input = table::json_lines(super::open_file(path)?).map_err(read_failure)?;
    // On a terminal a person reads the results: one row per answer (and no
    // bar, which the rows would tear: hidden from the start, since its
    // ticker may draw a frame as soon as it exists); elsewhere they stay
    // JSONL.
    let rows = args.output.is_none()
        && matches!(args.format, Format::Jsonl)
        && !args.json
        && std::io::IsTerminal::is_terminal(&std::io::stdout());
    let bar = if rows {
        indicatif::ProgressBar::hidden()
    } else {
        crate::cli::progress::bar(count_records(path), "answers")
    };
    let out: Box<dyn Write + Send> = match &args.output {
        Some(p) => Box::new(std::io::BufWriter::new(super::create_file(p)?)),
        None if rows => Box::new(super::terminal::JudgeTable::new(std::io::stdout())),
        None => Box::new(std::io::BufWriter::new(std::io::stdout())),
    };
    let on_done = || bar.inc(1);
    let summary = match args.format {
        Format::Jsonl => run_batch(judge, input, BadLines::new(path, out), &on_done),
        Format::Parquet => ParquetSink::new(out).and_then(|sink| {
            let mut lines = BadLines::new(path, sink);
            let summary = run_batch(judge, input, &mut lines, &on_done)?;
            lines.out.finish()?.flush()?;
            Ok(summary)
        }),
    };
    bar.finish_and_clear();
    let summary = summary.map_err(read_failure)?;
    let evaluations = judge.native_stats().map(|stats| Evaluations {
        native: stats.native_answers,
        unsupported: stats.fallbacks,
        unsupported_reasons: stats
            .fallback_kinds
            .iter()
            .map(|(kind, n)| (message::fallback_reason(kind), *n))
            .collect(),
    });
    let summary = Summary {
        summary: &summary,
        bad_lines: summary.malformed,
        evaluations,
    };
    if args.json {
        let text = serde_json::to_string(&summary)
            .map_err(|e| Failure::new(format!("cannot write the summary as JSON: {e}")))?;
        eprintln!("{text}");
    } else {
        eprintln!("{}", summary.to_text());
    }
    Ok(Exit::Done)
}

/// The summary of a batch, printed on stderr (results go to stdout).
#[derive(serde::Serialize)]
struct Summary<'a> {
    #[serde(flatten)]
    summary: &'a BatchSummary,
    /// Lines with error kind `input` (the same as `malformed`).
    bad_lines: usize,
    /// What the native evaluator answered itself (`--engine auto`).
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluations: Option<Evaluations>,
}

/// Evaluations the native engine answered, and those it does not implement
/// (scored `engine_unsupported`), with why.
#[derive(serde::Serialize)]
struct Evaluations {
    native: u64,
    unsupported: u64,
    unsupported_reasons: std::collections::BTreeMap<String, u64>,
}

impl Summary<'_> {
    fn to_text(&self) -> String {
        let s = self.summary;
        let mut text = format!(
            "{}, {} bad {}: accuracy {:.4}, partial score {:.4}, syntax score {:.4}",
            counted(s.lines as u64, "answers"),
            self.bad_lines,
            if self.bad_lines == 1 { "line" } else { "lines" },
            s.accuracy,
            s.partial,
            s.syntax
        );
        if let Some(score) = s.holdout_score {
            text.push_str(&format!(
                "\nholdout score {score:.4} over the {} answers whose task has held-out trains",
                s.holdout_lines
            ));
        }
        if let Some(e) = &self.evaluations {
            text.push_str(&format!(
                "\nevaluations: {} answered natively, {} not implemented natively",
                e.native, e.unsupported
            ));
            if !e.unsupported_reasons.is_empty() {
                let reasons: Vec<String> = e
                    .unsupported_reasons
                    .iter()
                    .map(|(why, n)| format!("{n} for {why}"))
                    .collect();
                text.push_str(&format!(" ({})", reasons.join(", ")));
            }
        }
        text
    }
}

/// The batch's output, passed through, with each line whose error kind is
/// `input` also reported as `FILE:LINE: message`: the judge writes one
/// result line per input line, in order, so output line n is input line n.
struct BadLines<'a, W: Write> {
    file: &'a Path,
    out: W,
    /// The output line being written, until its newline.
    pending: Vec<u8>,
    /// Output lines seen.
    line: usize,
}

impl<W: Write> BadLines<'_, W> {
    fn new(file: &Path, out: W) -> BadLines<'_, W> {
        BadLines {
            file,
            out,
            pending: Vec::new(),
            line: 0,
        }
    }

    fn check(&mut self, line: &[u8]) {
        self.line += 1;
        #[derive(serde::Deserialize)]
        struct Seen {
            error_kind: Option<ErrorKind>,
            error: Option<String>,
        }
        if let Ok(Seen {
            error_kind: Some(ErrorKind::Input),
            error,
        }) = serde_json::from_slice::<Seen>(line)
        {
            let message = error.unwrap_or_default();
            super::bad_line(self.file, self.line, &message);
        }
    }
}

impl<W: Write> Write for BadLines<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.out.write(bytes)?;
        let mut rest = &bytes[..written];
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            self.pending.extend_from_slice(&rest[..at]);
            let line = std::mem::take(&mut self.pending);
            self.check(&line);
            rest = &rest[at + 1..];
        }
        self.pending.extend_from_slice(rest);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// How many records `path` has, for the progress bar: a Parquet file's
/// rows, or lines, read in blocks so a huge file is never held in memory
/// (0 if it cannot be read). The bar draws only where stderr is a terminal;
/// elsewhere (pipelines, RL workers) the input is not read an extra time,
/// and this is 0. So is a pipe's: counting would consume what the batch
/// reads.
pub(crate) fn count_records(path: &Path) -> u64 {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return 0;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return 0;
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return 0;
    }
    let mut reader = BufReader::with_capacity(1 << 16, file);
    if reader.fill_buf().is_ok_and(table::is_parquet) {
        return table::parquet_rows(reader.into_inner()).unwrap_or(0);
    }
    let mut count = 0;
    while let Ok(block) = reader.fill_buf() {
        if block.is_empty() {
            break;
        }
        count += block.iter().filter(|&&b| b == b'\n').count() as u64;
        let used = block.len();
        reader.consume(used);
    }
    count
}

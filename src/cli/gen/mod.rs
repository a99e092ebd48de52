//! `entail gen`: benchmark generators, one subcommand per family.

mod divlogic;
mod logicgraph;
mod logicon;
mod slr;

use super::{Exit, Failure, Outcome};
use entail::gen::{Progress, Shard};
use entail::table::{Format, ParquetSink};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Arguments of `entail gen`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    family: Family,
}

#[derive(clap::Subcommand)]
enum Family {
    /// SLR inductive rule-learning tasks over trains, in 20 curriculum levels
    Slr(slr::Args),
    /// LogicGraph multi-path proof problems with all their minimal proofs, engine-verified
    Logicgraph(logicgraph::Args),
    /// LogiConBench consistency samples with exact labels
    Logicon(logicon::Args),
    /// DivLogicEval multiple-choice questions with solver-checked answers
    Divlogic(divlogic::Args),
}

/// Runs `entail gen`.
pub fn run(args: Args) -> Outcome {
    match args.family {
        Family::Slr(a) => slr::run(a),
        Family::Logicgraph(a) => logicgraph::run(a),
        Family::Logicon(a) => logicon::run(a),
        Family::Divlogic(a) => divlogic::run(a),
    }
}

/// The flags every `gen` command shares: which run, which part of it, on
/// how many threads, and how its summary is printed.
#[derive(clap::Args)]
struct Run {
    /// Run seed; the same seed gives byte-identical output.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write only block I of N of the run (0-based, e.g. 0/4); the N shards'
    /// outputs, concatenated in order, are the whole run's output.
    #[arg(long, value_name = "I/N", default_value = "0/1", value_parser = parse_shard)]
    shard: Shard,
    /// Worker threads (output does not depend on it); default: all cores.
    #[arg(long)]
    threads: Option<usize>,
    /// Print the run's statistics on stderr as JSON.
    #[arg(long)]
    json: bool,
}

impl Run {
    /// The worker threads asked for, or all cores.
    fn threads(&self) -> usize {
        crate::cli::threads(self.threads)
    }
}

/// Where a JSONL generator writes its records, besides the shared flags.
#[derive(clap::Args)]
struct Records {
    /// Output file, or `-` for stdout.
    #[arg(long, short, default_value = "-")]
    output: PathBuf,
    /// `jsonl` (one record per line) or `parquet` (one table, the records'
    /// fields as columns, as `datasets.load_dataset("parquet", ...)` reads).
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    #[command(flatten)]
    run: Run,
}

impl Records {
    /// The whole of a JSONL generator's command: runs `generate` into this
    /// run's output with a progress bar over `items` `unit`, then prints
    /// the summary `describe` gives (or the statistics as JSON). `io` picks
    /// out a write error, so that a closed pipe ends the run quietly.
    fn generate<S: serde::Serialize, E: From<std::io::Error> + std::fmt::Display>(
        &self,
        family: &str,
        (items, unit): (u64, &str),
        generate: impl FnOnce(&mut dyn Write, Progress) -> Result<S, E>,
        describe: impl FnOnce(&S) -> String,
        io: impl FnOnce(E) -> Result<std::io::Error, E>,
    ) -> Outcome {
        let out = output(&self.output, self.format)?;
        let bar = crate::cli::progress::bar(items, unit);
        let result = out.write_with(|lines| generate(lines, &|n| bar.inc(n)));
        bar.finish_and_clear();
        match result.map_err(io) {
            Ok(stats) => summary(family, self.run.json, &stats, &describe(&stats)),
            Err(Ok(e)) => io_outcome(&self.output, e),
            Err(Err(e)) => Err(Failure::new(e.to_string())),
        }
    }
}

/// `I/N`: shard `I` (0-based) of `N`, as [`Shard`] checks it.
fn parse_shard(text: &str) -> Result<Shard, String> {
    let number = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|_| format!("`{text}` is not I/N (shard I of N, e.g. 0/4)"))
    };
    let (index, count) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not I/N (shard I of N, e.g. 0/4)"))?;
    Shard::new(number(index)?, number(count)?)
}

/// Where a JSONL generator writes: the file at `path` or stdout (`-`), as
/// JSON Lines or as one Parquet table with the records' fields as columns,
/// which is written when the run ends ([`Output::finish`]).
enum Output {
    Lines(Box<dyn Write + Send>),
    Parquet(ParquetSink<Box<dyn Write + Send>>),
}

fn output(path: &Path, format: Format) -> Result<Output, Failure> {
    let file: Box<dyn Write + Send> = if path.as_os_str() == "-" {
        Box::new(std::io::stdout())
    } else {
        Box::new(super::create_file(path)?)
    };
    Ok(match format {
        Format::Jsonl => Output::Lines(file),
        Format::Parquet => Output::Parquet(
            ParquetSink::new(file).map_err(|e| super::io_failure(path, "write", &e))?,
        ),
    })
}

impl Output {
    /// Runs `generate` on this output, buffered, then finishes it: a
    /// generator's whole run, whatever the format.
    fn write_with<S, E: From<std::io::Error>>(
        self,
        generate: impl FnOnce(&mut BufWriter<Output>) -> Result<S, E>,
    ) -> Result<S, E> {
        let mut lines = BufWriter::new(self);
        let stats = generate(&mut lines)?;
        lines.into_inner().map_err(|e| e.into_error())?.finish()?;
        Ok(stats)
    }

    /// Writes the Parquet table, if that is the format, and flushes.
    fn finish(self) -> std::io::Result<()> {
        match self {
            Output::Lines(mut out) => out.flush(),
            Output::Parquet(sink) => sink.finish()?.flush(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::Lines(out) => out.write(bytes),
            Output::Parquet(sink) => sink.write(bytes),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::Lines(out) => out.flush(),
            Output::Parquet(sink) => sink.flush(),
        }
    }
}

/// How a run that wrote to `path` ended: a closed pipe (e.g. `| head`) means
/// the reader has what it wanted; another write error names the output.
fn io_outcome(path: &Path, error: std::io::Error) -> Outcome {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(Exit::Done)
    } else {
        Err(super::io_failure(path, "write", &error))
    }
}

/// Prints a finished run's summary on stderr (the output may be stdout):
/// `text` after the command's name, or with `--json` the run's statistics
/// as one JSON object.
fn summary<S: serde::Serialize>(family: &str, json: bool, stats: &S, text: &str) -> Outcome {
    if json {
        let line = serde_json::to_string(stats)
            .map_err(|e| Failure::new(format!("cannot write the statistics as JSON: {e}")))?;
        eprintln!("{line}");
    } else {
        eprintln!("entail gen {family}: {text}");
    }
    Ok(Exit::Done)
}

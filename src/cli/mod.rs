//! Argument parsing and dispatch. Each subcommand turns its raw flags into the
//! library's typed configuration before any work starts, and ends in one of
//! the exit codes of [`Exit`]; every error goes through [`report`].

#[macro_use]
mod output;
mod choice;
mod gen;
mod judge;
mod parse;
mod progress;
mod prove;
mod report;
mod score;
mod show;
mod terminal;

use clap::{Args as _, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::Path;
use std::process::ExitCode;

/// The exit-code table of every command, as `entail --help` and the README
/// show it (a macro, so that `concat!` can put it in the help text).
macro_rules! exit_codes {
    () => {
        "\
Exit status, the same for every command:
  0  done. A batch (judge --batch, score) also exits 0 when some lines were bad:
     each is reported on stderr as FILE:LINE: message and counted in the summary.
  1  usage or input error: an invalid flag, or a missing, unreadable or malformed
     file (FILE: message, or FILE:LINE:COL: message); score logicgraph also when a
     gold instance does not load (the rest is scored).
  2  prove: not proved, or a step or solution refuted.
  4  prove: unknown (a timeout or Z3 `unknown`), nothing refuted."
    };
}

/// The exit-code table; see [`exit_codes`].
#[cfg(test)]
const EXIT_CODES: &str = exit_codes!();

/// How a command ended; see [`EXIT_CODES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// The command did its work.
    Done = 0,
    /// A usage or input error.
    Input = 1,
    /// `prove`: not proved, or something refuted.
    Refuted = 2,
    /// `prove`: unknown, nothing refuted.
    Unknown = 4,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

/// Why a command stopped early. It always exits with [`Exit::Input`].
#[derive(Debug)]
pub(crate) struct Failure {
    message: String,
    /// The message starts with its own place (`FILE:LINE:COL: …`), as a
    /// compiler's does, and is printed without the command's name.
    placed: bool,
}

impl Failure {
    /// A failure printed as `entail <command>: message`.
    pub(crate) fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            placed: false,
        }
    }

    /// A failure whose message already names its place (`FILE:LINE:COL: …`).
    pub(crate) fn placed(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            placed: true,
        }
    }
}

/// What a command returns.
pub(crate) type Outcome = Result<Exit, Failure>;

/// The one error path: prints the failure on stderr and gives its exit code.
fn report(command: &str, outcome: Outcome) -> ExitCode {
    match outcome {
        Ok(exit) => exit.into(),
        Err(failure) if failure.placed => {
            eprintln!("{}", failure.message);
            Exit::Input.into()
        }
        Err(failure) => {
            eprintln!("entail {command}: {}", failure.message);
            Exit::Input.into()
        }
    }
}

/// Check logic, fast and without being fooled.
///
/// entail scores Prolog rules proposed for inductive tasks (judge), checks
/// Prover9-syntax proofs with Z3 (prove), and generates benchmark tasks whose
/// labels are verified by those engines (gen).
#[derive(Parser)]
#[command(name = "entail", version)]
#[command(after_help = concat!(
    "Run `entail <COMMAND> --help` for the details and examples of each command.\n\n",
    exit_codes!()
))]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a Prover9 or Prolog file and print its normalized form
    Parse(parse::ParseArgs),
    /// Score a Prolog rule proposed for an inductive (SLR) task, sandboxed
    Judge(judge::Args),
    /// Check a Prover9 problem, a step file or a LogicGraph instance (truth tables, Z3, E, Prover9)
    Prove(prove::Args),
    /// Generate benchmark tasks with verified labels: slr, logicgraph, logicon, divlogic
    Gen(gen::Args),
    /// Score model answers against generated tasks
    Score(score::Args),
    /// Write score and judge outputs of one or more models as one HTML page of charts
    Report(report::Args),
    /// Draw one item: an SLR task's trains, a LogicGraph DAG, a LogiConBench path
    Show(show::Args),
}

/// Runs the command line and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    if let Some(exit) = prove_alone() {
        return exit;
    }
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        // Help and version go to stdout with status 0; a usage error to
        // stderr, with clap's explanation (e.g. the valid values), as 1.
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                Exit::Input.into()
            } else {
                Exit::Done.into()
            };
        }
    };
    let outcome = match cli.command {
        Command::Parse(args) => parse::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Prove(args) => prove::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Score(args) => score::run(args),
        Command::Report(args) => report::run(args),
        Command::Show(args) => show::run(args),
    };
    report(&command_name(&matches), outcome)
}

/// `entail prove ARGS` parsed with `prove`'s flags alone. Most proofs take
/// milliseconds, and building every command's flags and help texts took
/// about one of them. Anything this parse refuses (help, a usage error) is
/// left to the whole command line, which says it as it always has.
fn prove_alone() -> Option<ExitCode> {
    if std::env::args_os().nth(1)? != "prove" {
        return None;
    }
    let command = prove::Args::augment_args(clap::Command::new("prove").bin_name("entail prove"));
    let matches = command
        .try_get_matches_from(std::env::args_os().skip(1))
        .ok()?;
    let args = prove::Args::from_arg_matches(&matches).ok()?;
    Some(report("prove", prove::run(args)))
}

/// The command as typed, such as `gen slr` or `judge`, for the prefix of
/// its messages: the names of the subcommands clap matched.
fn command_name(matches: &clap::ArgMatches) -> String {
    let mut names = Vec::new();
    let mut level = matches;
    while let Some((name, sub)) = level.subcommand() {
        names.push(name);
        level = sub;
    }
    names.join(" ")
}

/// The one range syntax of every command: `3`, `3-5`, `3..5` or `3..=5`,
/// all inclusive.
fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{s}` is not a number"))
    };
    let split = text
        .split_once("..")
        .map(|(a, b)| (a, b.trim_start_matches('=')))
        .or_else(|| text.split_once('-'));
    match split {
        Some((lo, hi)) => {
            let (lo, hi) = (number(lo)?, number(hi)?);
            if lo > hi {
                return Err(format!("empty range {text}"));
            }
            Ok((lo, hi))
        }
        None => number(text).map(|n| (n, n)),
    }
}

/// The `--threads` a command asked for, or one per core.
fn threads(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// Why `path` cannot be read or written, in the one shape every command
/// uses: `FILE: cannot read: reason`.
fn io_failure(path: &Path, verb: &str, error: &std::io::Error) -> Failure {
    use std::io::ErrorKind;
    let reason = match error.kind() {
        ErrorKind::NotFound => "no such file or directory".to_string(),
        ErrorKind::PermissionDenied => "permission denied".to_string(),
        ErrorKind::IsADirectory => "is a directory, expected a file".to_string(),
        _ => {
            // Drop the " (os error N)" that adds nothing for a reader.
            let text = error.to_string();
            match text.find(" (os error") {
                Some(at) => text[..at].to_string(),
                None => text,
            }
        }
    };
    Failure::new(format!("{}: cannot {verb}: {reason}", path.display()))
}

/// Opens the input file at `path`.
fn open_file(path: &Path) -> Result<std::fs::File, Failure> {
    // Reading a directory fails late and without its name; say what it is
    // up front.
    if path.is_dir() {
        let error = std::io::Error::from(std::io::ErrorKind::IsADirectory);
        return Err(io_failure(path, "read", &error));
    }
    std::fs::File::open(path).map_err(|e| io_failure(path, "read", &e))
}

/// The bytes of the file at `path`; `-` is standard input.
fn read_file(path: &Path) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| io_failure(Path::new("<stdin>"), "read", &e))?;
    } else {
        open_file(path)?
            .read_to_end(&mut bytes)
            .map_err(|e| io_failure(path, "read", &e))?;
    }
    Ok(bytes)
}

/// The text of the file at `path`, bytes that are not UTF-8 replaced (so a
/// parser reports them at their place).
fn read_text(path: &Path) -> Result<String, Failure> {
    read_file(path).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// Creates (or truncates) the output file at `path`.
fn create_file(path: &Path) -> Result<std::fs::File, Failure> {
    std::fs::File::create(path).map_err(|e| io_failure(path, "write", &e))
}

/// Reports a bad input line on stderr, as every batch command does.
fn bad_line(file: &Path, line: usize, message: &str) {
    eprintln!("{}:{line}: {message}", file.display());
}

/// The usable lines of a JSONL file, read with `parse`; each bad line is
/// reported by [`bad_line`] and counted, and the rest are read. Blank lines
/// are skipped.
struct Lines<T> {
    /// What the good lines gave, in file order, with their line numbers.
    items: Vec<(usize, T)>,
    /// How many lines were bad.
    bad: usize,
}

impl<T> Lines<T> {
    /// The items without their line numbers.
    fn into_items(self) -> Vec<T> {
        self.items.into_iter().map(|(_, item)| item).collect()
    }

    /// Keeps the first line per `id`: each later one is reported as a bad
    /// line of `path` and counted, since a second answer to one question
    /// is a mistake upstream, not a revision.
    fn first_per_id(mut self, path: &Path, id: impl Fn(&T) -> String) -> Lines<T> {
        let mut first: std::collections::HashMap<String, usize> = Default::default();
        let mut bad = 0;
        self.items.retain(|(number, item)| {
            let key = id(item);
            match first.get(&key) {
                Some(line) => {
                    bad_line(
                        path,
                        *number,
                        &format!("id {key} answered twice (first on line {line})"),
                    );
                    bad += 1;
                    false
                }
                None => {
                    first.insert(key, *number);
                    true
                }
            }
        });
        self.bad += bad;
        self
    }
}

/// Reads the JSONL file at `path` line by line with `parse`.
fn read_jsonl<T>(
    path: &Path,
    mut parse: impl FnMut(&str) -> Result<T, String>,
) -> Result<Lines<T>, Failure> {
    let bytes = read_file(path)?;
    let mut lines = Lines {
        items: Vec::new(),
        bad: 0,
    };
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let number = i + 1;
        let item = match std::str::from_utf8(raw) {
            Err(e) => Err(format!("invalid UTF-8 at byte {}", e.valid_up_to() + 1)),
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => parse(text.trim_end_matches('\r')),
        };
        match item {
            Ok(item) => lines.items.push((number, item)),
            Err(message) => {
                bad_line(path, number, &message);
                lines.bad += 1;
            }
        }
    }
    Ok(lines)
}

/// A JSONL line read as `T`, or serde's reason with the column (the line
/// is the file's, reported beside it).
fn json_line<T: serde::de::DeserializeOwned>(line: &str) -> Result<T, String> {
    serde_json::from_str(line).map_err(|e| {
        let message = e.to_string();
        let reason = message.split(" at line ").next().unwrap_or_default();
        format!("{reason} (column {})", e.column())
    })
}

/// A report with the bad-line count every batch command adds to its JSON.
#[derive(serde::Serialize)]
struct Counted<'a, R> {
    #[serde(flatten)]
    report: &'a R,
    /// Input lines that were reported and skipped.
    bad_lines: usize,
}

/// Prints `value` as pretty JSON on stdout.
fn print_json<T: serde::Serialize>(value: &T) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| Failure::new(format!("cannot write the report as JSON: {e}")))?;
    outln!("{text}");
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_readme_shows_the_exit_codes_of_the_help() {
        let readme = include_str!("../../README.md");
        assert!(
            readme.contains(super::EXIT_CODES),
            "README.md must show the exit-code table of src/cli/mod.rs verbatim"
        );
    }
}

/// When a page is made, for its header: `SOURCE_DATE_EPOCH` (seconds) when
/// set, as reproducible builds do, else now.
fn made_at() -> String {
    let now = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map(|secs| std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs))
        .unwrap_or_else(std::time::SystemTime::now);
    entail::picture::utc(now)
}

/// Writes a command's whole output to `path`, or to stdout without one.
fn write_output(path: Option<&Path>, text: &str) -> Result<(), Failure> {
    use std::io::Write;
    match path {
        Some(path) => create_file(path)?
            .write_all(text.as_bytes())
            .map_err(|e| io_failure(path, "write", &e)),
        None => {
            out!("{text}");
            Ok(())
        }
    }
}

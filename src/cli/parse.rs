//! `entail parse`: read a Prover9 or Prolog file and print it back normalized.

use super::{Exit, Failure, Outcome};
use entail::syntax::{prolog, prover9, SyntaxError};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Which reader to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Syntax {
    /// Prover9 (LADR) input: formulas(..) lists, set/assign/op commands.
    Prover9,
    /// ISO Prolog clauses and directives.
    Prolog,
}

/// Arguments of `entail parse`.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  entail parse corpora/prove/group.in
  entail parse --json corpora/prove/mp_chain.in
  cat corpora/prove/group.in | entail parse - --syntax prover9

A syntax error is printed as FILE:LINE:COL: reason and exits 1.")]
pub struct ParseArgs {
    /// The file to read; `-` reads standard input.
    file: PathBuf,
    /// The syntax of the file. By default it is detected from the extension
    /// (.in/.p9 are Prover9, .pl/.pro/.P are Prolog), then from the content.
    #[arg(long, value_enum)]
    syntax: Option<Syntax>,
    /// Print a JSON summary of the parsed file instead of the normalized text.
    #[arg(long)]
    json: bool,
}

/// Runs `entail parse`.
pub fn run(args: ParseArgs) -> Outcome {
    let text = super::read_text(&args.file)?;
    let name = if args.file.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        args.file.display().to_string()
    };
    let syntax = args
        .syntax
        .unwrap_or_else(|| detect_syntax(&args.file, &text));
    let result = match syntax {
        Syntax::Prover9 => prover9::parse(&text).map(|input| {
            if args.json {
                prover9_summary(&input).to_string()
            } else {
                input.to_string()
            }
        }),
        Syntax::Prolog => prolog::parse_program(&text).map(|program| {
            if args.json {
                prolog_summary(&program).to_string()
            } else {
                program.to_string()
            }
        }),
    };
    let out =
        result.map_err(|error| Failure::placed(SyntaxError::in_file(error, name).to_string()))?;
    out!("{out}");
    if !out.ends_with('\n') {
        outln!();
    }
    Ok(Exit::Done)
}

/// Guesses the syntax from the extension, then from Prover9's list keywords.
fn detect_syntax(path: &Path, text: &str) -> Syntax {
    match path.extension().and_then(|e| e.to_str()) {
        Some("in" | "p9" | "prover9") => Syntax::Prover9,
        Some("pl" | "pro" | "P" | "prolog") => Syntax::Prolog,
        _ if text.contains("end_of_list") => Syntax::Prover9,
        _ => Syntax::Prolog,
    }
}

fn prover9_summary(input: &prover9::Input) -> serde_json::Value {
    let lists: Vec<_> = input
        .lists()
        .map(|(kind, name, entries)| {
            let labels: Vec<String> = entries.iter().filter_map(|e| e.label()).collect();
            json!({
                "kind": match kind {
                    prover9::ListKind::Formulas => "formulas",
                    prover9::ListKind::Clauses => "clauses",
                    prover9::ListKind::Terms => "terms",
                },
                "name": name,
                "count": entries.len(),
                "labels": labels,
            })
        })
        .collect();
    json!({ "syntax": "prover9", "lists": lists })
}

fn prolog_summary(program: &prolog::Program) -> serde_json::Value {
    let mut predicates: BTreeMap<(String, usize), usize> = BTreeMap::new();
    let mut directives = 0;
    for sentence in &program.sentences {
        match sentence.head().and_then(|h| h.name_arity()) {
            Some((name, arity)) => *predicates.entry((name.to_string(), arity)).or_default() += 1,
            None => directives += 1,
        }
    }
    let predicates: Vec<_> = predicates
        .into_iter()
        .map(|((name, arity), clauses)| json!({ "name": name, "arity": arity, "clauses": clauses }))
        .collect();
    json!({
        "syntax": "prolog",
        "clauses": program.sentences.len() - directives,
        "directives": directives,
        "predicates": predicates,
    })
}

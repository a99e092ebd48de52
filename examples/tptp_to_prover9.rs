//! Prints a TPTP problem (FOF or CNF, includes followed) as the Prover9
//! input `entail prove` gives Prover9, for running Prover9 alone on the
//! same question (`scripts/tptp-compare`). Distinct objects get their
//! disequalities; negated conjectures are plain assumptions, as Prover9
//! has no such role.
//!
//! usage: cargo run --example tptp_to_prover9 -- FILE.p [SECONDS] > FILE.in

use entail::syntax::prover9::{Formula, Item};
use entail::syntax::tptp::{self, Role};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(file) = args.next() else {
        eprintln!("usage: tptp_to_prover9 FILE.p [SECONDS]");
        return ExitCode::from(1);
    };
    let seconds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let root = std::env::var_os("TPTP").map(PathBuf::from);
    let problem = match tptp::load(&PathBuf::from(&file), root.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let mut premises: Vec<Formula> = problem
        .formulas
        .iter()
        .filter(|a| a.role != Role::Conjecture)
        .map(|a| a.formula.clone())
        .collect();
    premises.extend(problem.distinct_object_axioms());
    let goal = problem
        .formulas
        .iter()
        .find(|a| a.role == Role::Conjecture)
        .map(|a| &a.formula);
    let refs: Vec<&Formula> = premises.iter().collect();
    // TPTP's case convention for variables is Prover9's under this flag.
    let directives = [Item::Set("prolog_style_variables".into())];
    match entail::prove::ladr::translate(&directives, &refs, goal, seconds) {
        Ok(t) => {
            print!("{}", t.text);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{file}: {e}");
            ExitCode::from(1)
        }
    }
}

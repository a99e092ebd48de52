//! Prints a plain Prover9 problem as the TPTP text `entail prove` gives E
//! (assumption lists as axioms, the goals' conjunction as the conjecture),
//! for running E alone on the same question (`scripts/prove-speed`).
//!
//! usage: cargo run --example prover9_to_tptp -- FILE.in > FILE.p

use entail::prove::{combined_goal, tptp, ASSUMPTION_LISTS};
use entail::syntax::prover9::{self, Item};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(file) = std::env::args().nth(1) else {
        eprintln!("usage: prover9_to_tptp FILE.in");
        return ExitCode::from(1);
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(1);
        }
    };
    let input = match prover9::parse(&text) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(1);
        }
    };
    let mut premises = Vec::new();
    let mut goals = Vec::new();
    for item in input.prover9_items() {
        if let Item::Formulas { name, entries, .. } = item {
            if ASSUMPTION_LISTS.contains(&name.as_str()) {
                premises.extend(entries.iter().map(|e| e.formula.clone()));
            } else if name == "goals" {
                goals.extend(entries.iter());
            }
        }
    }
    let goal = match combined_goal(&goals) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(1);
        }
    };
    let refs: Vec<_> = premises.iter().collect();
    match tptp::translate(&refs, goal.as_ref()) {
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

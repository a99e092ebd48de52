//! What `entail prove` does with a problem before any engine runs, on any
//! bytes and on generated extreme problems: the TPTP and Prover9 readers,
//! the distinct-object encoding, the signature, the translations for E and
//! Prover9 (each read back), a short finite model search and the native
//! saturation prover. Fails on a panic, or when the saturation prover
//! refutes formulas the model search found a model of; an abort, a stack
//! overflow or an allocation without bound ends the fuzzer too. The first
//! byte picks the input: raw TPTP (0-1), raw Prover9 (2-3), or a generated
//! extreme problem whose shape and size come from the next bytes (high
//! arity, deep terms and parentheses, long conjunctions and clauses, many
//! distinct objects, many variables).
#![no_main]

use entail::prove::{ladr, tptp as e_tptp};
use entail::saturate::{saturate, Budget, Outcome};
use entail::smt::{finite, Signature};
use entail::syntax::prover9::Formula;
use entail::syntax::{prover9, tptp};
use libfuzzer_sys::fuzz_target;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn extreme(shape: u8, size: usize, rest: &str) -> String {
    let mut t = String::new();
    match shape % 7 {
        0 => {
            let a = size % 300 + 1;
            let vars: Vec<String> = (0..a).map(|i| format!("X{i}")).collect();
            let _ = writeln!(t, "cnf(a, axiom, p({})).", vars.join(","));
            let _ = writeln!(t, "cnf(b, axiom, ~ p({})).", vec!["c"; a].join(","));
        }
        1 => {
            let d = size * 8;
            let _ = writeln!(t, "fof(a, axiom, p({}c{})).", "f(".repeat(d), ")".repeat(d));
        }
        2 => {
            let atoms: Vec<String> = (0..size * 8).map(|i| format!("r{}(c)", i % 50)).collect();
            let _ = writeln!(t, "fof(a, axiom, {}).", atoms.join(" & "));
        }
        3 => {
            let lits: Vec<String> = (0..size * 4).map(|i| format!("~ s{}(X{})", i % 9, i % 1200)).collect();
            let _ = writeln!(t, "cnf(a, axiom, {}).", lits.join(" | "));
        }
        4 => {
            for i in 0..size {
                let _ = writeln!(t, "fof(d{i}, axiom, o(\"x{i}\") & o({i})).");
            }
        }
        5 => {
            let d = size * 8;
            let _ = writeln!(t, "fof(a, axiom, {}q{}).", "(".repeat(d), ")".repeat(d));
        }
        _ => {
            let atoms: Vec<String> = (0..size * 8).map(|i| format!("r{}(c)", i % 50)).collect();
            let _ = writeln!(t, "formulas(assumptions).\n{}.\nend_of_list.", atoms.join(" | "));
            return t + rest;
        }
    }
    t + rest
}

fn check(formulas: &[Formula], negated: &[usize]) {
    let refs: Vec<&Formula> = formulas.iter().collect();
    let _ = Signature::of(refs.iter().copied());
    let _ = e_tptp::translate_marked(&refs, negated, None);
    let _ = ladr::translate(&[], &refs, None, 1);
    let stop = Arc::new(AtomicBool::new(false));
    let deadline = Instant::now() + Duration::from_millis(20);
    let model = finite::find_model(formulas, 4, 1, deadline, &stop);
    // The native prover on the same formulas, with the race's budget: a
    // refutation of formulas that have a model would be unsound.
    let (outcome, _) = saturate(&refs, None, &Budget::RACE);
    if let (Outcome::Theorem(proof), Some(model)) = (&outcome, &model) {
        assert!(
            !model.satisfies_all(formulas),
            "saturation refuted formulas with a model: {proof:?}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = match first % 8 {
        0 | 1 => String::from_utf8_lossy(rest).into_owned(),
        2 | 3 => {
            if let Ok(input) = prover9::parse(&String::from_utf8_lossy(rest)) {
                let formulas: Vec<Formula> = input
                    .items
                    .iter()
                    .filter_map(|item| match item {
                        prover9::Item::Formulas { entries, .. } => Some(entries),
                        _ => None,
                    })
                    .flatten()
                    .map(|e| e.formula.clone())
                    .collect();
                check(&formulas, &[]);
            }
            return;
        }
        _ => {
            let (shape, size) = match rest {
                [s, a, b, ..] => (*s, usize::from(*a) * 256 + usize::from(*b)),
                _ => return,
            };
            let tail = String::from_utf8_lossy(&rest[3..]);
            let text = extreme(shape, size % 4000 + 1, &tail);
            if shape % 7 == 6 {
                if let Ok(input) = prover9::parse(&text) {
                    let _ = input.to_string();
                }
                return;
            }
            text
        }
    };
    let Ok(statements) = tptp::parse(&text) else {
        return;
    };
    let problem = tptp::Problem {
        formulas: statements
            .into_iter()
            .filter_map(|s| match s {
                tptp::Statement::Formula(a) => Some(a),
                tptp::Statement::Include(_) => None,
            })
            .collect(),
    };
    let mut formulas: Vec<Formula> = problem.formulas.iter().map(|a| a.formula.clone()).collect();
    let negated: Vec<usize> = problem
        .formulas
        .iter()
        .enumerate()
        .filter(|(_, a)| a.role == tptp::Role::NegatedConjecture)
        .map(|(i, _)| i)
        .collect();
    formulas.extend(problem.distinct_object_encoding(&problem.distinct_objects()));
    check(&formulas, &negated);
});

//! Z3 on the ground expansion of one domain size: every quantifier becomes
//! a conjunction or disjunction over `n` distinct elements, and every
//! function value is one of them. The cell search ([`super::finite`])
//! evaluates nested terms only bottom-up, so one deeply nested equation
//! (LADR's ring19 and ring41) leaves it guessing whole tables; Z3's
//! congruence closure and clause learning find such small models at once.
//! Limited by Z3's resource count (`rlimit`), so the outcome does not depend
//! on the machine's speed.

use super::model::{Countermodel, Tuples};
use super::{Sat, Signature, SymbolKind, Z3Session};
use crate::syntax::prover9::{Formula, Term};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use z3::ast::{Ast, Bool, Dynamic};

/// Ground expansions larger than this many formula nodes are not tried.
const MAX_GROUND_NODES: u128 = 200_000;

/// A model of size `n` of the universally `closed` formulas: `Ok(Some)`
/// found, `Ok(None)` none exists, `Err` too large, out of resources or time.
pub(super) fn model_of_size(
    closed: &[Formula],
    signature: &Signature,
    n: usize,
    rlimit: u32,
    deadline: Instant,
    stop: &Arc<AtomicBool>,
) -> Result<Option<Countermodel>, ()> {
    if n == 0 || ground_size(closed, signature, n) > MAX_GROUND_NODES {
        return Err(());
    }
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(());
    }
    let mut engine = Z3Session::new(left);
    engine.set_rlimit(rlimit);
    engine.set_watchdog(true);
    engine.set_stop(Some(stop.clone()));
    let elements: Vec<Dynamic> = (0..n)
        .map(|_| Dynamic::fresh_const("e", &engine.universe))
        .collect();
    if n > 1 {
        engine.assert(&Dynamic::distinct(&elements));
    }
    // Constants in name order: the i-th is among the first i + 1 elements
    // (the least-number heuristic on constants).
    let mut constants: Vec<&str> = signature
        .symbols()
        .filter(|&(_, arity, kind)| arity == 0 && kind == SymbolKind::Function)
        .map(|(name, _, _)| name)
        .collect();
    constants.sort_unstable();
    for (name, arity, kind) in signature.symbols() {
        if kind != SymbolKind::Function {
            continue;
        }
        let decl = engine.decl(name, arity, kind);
        let rank = match arity {
            0 => constants.iter().position(|c| *c == name).unwrap_or(n - 1),
            _ => n - 1,
        };
        for tuple in Tuples::new(n, arity) {
            let args: Vec<&dyn Ast> = tuple.iter().map(|&i| &elements[i] as &dyn Ast).collect();
            let value = decl.apply(&args);
            let options: Vec<Bool> = elements[..=rank.min(n - 1)]
                .iter()
                .map(|e| value.eq(e))
                .collect();
            engine.assert(&Bool::or(&options));
        }
    }
    engine.expand = Some(elements);
    for f in closed {
        let ground = engine.formula(f, &mut Vec::new()).map_err(|_| ())?;
        engine.assert(&ground);
    }
    match engine.check(&[]) {
        Sat::Unsat => Ok(None),
        Sat::Unknown => Err(()),
        Sat::Sat => Ok(engine.countermodel(signature)),
    }
}

/// A bound on the formula nodes of the ground expansion at size `n`.
fn ground_size(closed: &[Formula], signature: &Signature, n: usize) -> u128 {
    let n = n as u128;
    let formulas = closed
        .iter()
        .fold(0u128, |s, f| s.saturating_add(expanded_nodes(f, n)));
    signature.symbols().fold(formulas, |s, (_, arity, _)| {
        s.saturating_add(n.saturating_pow(arity as u32 + 1))
    })
}

fn expanded_nodes(formula: &Formula, n: u128) -> u128 {
    match formula {
        Formula::True | Formula::False => 1,
        Formula::Atom(t) => term_nodes(t),
        Formula::Not(f) => 1 + expanded_nodes(f, n),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Implies(a, b)
        | Formula::ImpliedBy(a, b)
        | Formula::Iff(a, b) => 1u128
            .saturating_add(expanded_nodes(a, n))
            .saturating_add(expanded_nodes(b, n)),
        Formula::Quant(_, _, body) => n.saturating_mul(expanded_nodes(body, n)),
    }
}

fn term_nodes(term: &Term) -> u128 {
    match term {
        Term::Var(_) => 1,
        Term::App(_, args) => args.iter().fold(1, |s, a| s.saturating_add(term_nodes(a))),
    }
}

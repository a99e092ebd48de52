//! Mace4-style finite model search: for domain sizes 1, 2, 3, … the formulas
//! are expanded over the elements (every quantifier becomes a conjunction or
//! disjunction) and the ground problem goes to Z3, which decides it without
//! quantifier instantiation. A model found this way is a finite model of the
//! formulas; [`Countermodel::satisfies`] lets callers re-check it.
//!
//! Symmetry breaking: every model is isomorphic to one where the `i`-th
//! constant (in name order) is among the first `i + 1` elements, so only
//! those are searched (Mace4's least-number heuristic, restricted to
//! constants).

use super::model::{read_tables, Countermodel, Tuples};
use super::{universal_closure, Engine, Sat, Signature, SymbolKind};
use crate::syntax::prover9::{Formula, Term};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, Dynamic};

/// Ground problems larger than this many formula nodes are not attempted.
const MAX_GROUND_NODES: u128 = 4_000_000;

/// Searches domain sizes `1..=max_size` for a model of all `formulas` (free
/// variables universally closed), until `deadline` or until `stop` is
/// raised. Runs on the calling thread's Z3 context.
pub fn find_model(
    formulas: &[Formula],
    max_size: usize,
    deadline: Instant,
    stop: &Arc<AtomicBool>,
) -> Option<Countermodel> {
    let signature = Signature::of(formulas.iter()).ok()?;
    let closed: Vec<Formula> = formulas.iter().map(universal_closure).collect();
    let mut engine = Engine::new(Duration::from_secs(1));
    engine.set_watchdog(true);
    engine.set_stop(Some(stop.clone()));
    let mut constants: Vec<&str> = signature
        .symbols()
        .filter(|&(_, arity, kind)| arity == 0 && kind == SymbolKind::Function)
        .map(|(name, _, _)| name)
        .collect();
    constants.sort_unstable();
    for n in 1..=max_size {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stop.load(Ordering::Relaxed) {
            return None;
        }
        if ground_size(&closed, &signature, n) > MAX_GROUND_NODES {
            return None;
        }
        engine.set_timeout(left);
        engine.push();
        let out_of_time = || Instant::now() >= deadline || stop.load(Ordering::Relaxed);
        let found = try_size(
            &mut engine,
            &closed,
            &signature,
            &constants,
            n,
            &out_of_time,
        );
        engine.pop();
        match found {
            Ok(Some(model)) => return Some(model),
            Ok(None) => continue,
            Err(()) => return None,
        }
    }
    None
}

/// One domain size: `Ok(Some)` a model, `Ok(None)` none of this size,
/// `Err` gave up (deadline, stop, or an encoding problem).
fn try_size(
    engine: &mut Engine,
    closed: &[Formula],
    signature: &Signature,
    constants: &[&str],
    n: usize,
    out_of_time: &dyn Fn() -> bool,
) -> Result<Option<Countermodel>, ()> {
    // Encoding a large domain takes a while; give up as soon as time is out.
    let elements: Vec<Dynamic> = (0..n)
        .map(|_| Dynamic::fresh_const("e", &engine.universe))
        .collect();
    if n > 1 {
        engine.assert(&Dynamic::distinct(&elements));
    }
    for (name, arity, kind) in signature.symbols() {
        if kind != SymbolKind::Function {
            continue;
        }
        let decl = engine.decl(name, arity, kind);
        // Symmetry breaking for constants, closure of the domain for the rest.
        let rank = if arity == 0 {
            constants.iter().position(|c| *c == name).unwrap_or(n - 1)
        } else {
            n - 1
        };
        for tuple in Tuples::new(n, arity) {
            if out_of_time() {
                return Err(());
            }
            let args: Vec<&dyn Ast> = tuple.iter().map(|&i| &elements[i] as &dyn Ast).collect();
            let value = decl.apply(&args);
            let options: Vec<Bool> = elements[..=rank.min(n - 1)]
                .iter()
                .map(|e| value.eq(e))
                .collect();
            engine.assert(&Bool::or(&options));
        }
    }
    for f in closed {
        if out_of_time() {
            return Err(());
        }
        let ground = engine
            .formula(f, &mut Vec::new(), Some(&elements))
            .map_err(|_| ())?;
        engine.assert(&ground);
    }
    match engine.check(&[]) {
        Sat::Unsat => Ok(None),
        Sat::Unknown => Err(()),
        Sat::Sat => {
            let model = engine.solver.get_model().ok_or(())?;
            extract(engine, &model, signature, &elements).map(Some)
        }
    }
}

/// Reads the tables of `signature` on `elements` from a model of the ground
/// problem; every term there equals one of the elements.
fn extract(
    engine: &mut Engine,
    model: &z3::Model,
    signature: &Signature,
    elements: &[Dynamic],
) -> Result<Countermodel, ()> {
    let mut index = HashMap::new();
    for (i, e) in elements.iter().enumerate() {
        let value = model.eval(e, true).ok_or(())?;
        index.insert(value.to_string(), i);
    }
    read_tables(model, signature, elements, &index, |name, arity, kind| {
        Some(engine.decl(name, arity, kind))
    })
    .ok_or(())
}

/// A bound on the number of nodes of the ground expansion at size `n`.
fn ground_size(closed: &[Formula], signature: &Signature, n: usize) -> u128 {
    let n = n as u128;
    let formulas: u128 = closed.iter().map(|f| expanded_nodes(f, n)).sum();
    let tables: u128 = signature
        .symbols()
        .map(|(_, arity, _)| n.saturating_pow(arity as u32 + 1))
        .sum();
    formulas.saturating_add(tables)
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
        Term::App(_, args) => 1 + args.iter().map(term_nodes).sum::<u128>(),
    }
}

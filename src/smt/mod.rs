//! Z3 as an engine for Prover9 formulas: the encoding of the AST into Z3 terms
//! over one uninterpreted sort, a reusable solver with a per-check timeout,
//! and the extraction of finite countermodels in Mace4's notation.
//!
//! Z3 objects live in a thread-local context (z3 0.22), so an [`Z3Session`] is
//! bound to the thread that made it; services keep one engine per thread and
//! reuse its solver with `push`/`pop`, because a fresh solver costs
//! milliseconds where a scoped check costs microseconds.

pub mod finite;
mod ground;
mod map;
mod model;
mod signature;

pub use map::SubsetMap;
pub use model::{Countermodel, Table};
pub use signature::{
    closed, free_variables, universal_closure, EncodeError, Signature, SymbolKind,
};

use crate::syntax::prover9::{Formula, Quantifier, Term};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, Dynamic};
use z3::{FuncDecl, Params, SatResult, Solver, Sort};

/// How a program that loads libz3 on first use says whether it can
/// ([`set_z3_check`]).
static Z3_CHECK: std::sync::OnceLock<fn() -> bool> = std::sync::OnceLock::new();

/// Installs the check [`z3_loads`] makes: for a program that loads libz3
/// when first called (the `entail` binary) instead of linking it.
pub fn set_z3_check(check: fn() -> bool) {
    let _ = Z3_CHECK.set(check);
}

/// Whether Z3 can be called: true where libz3 is linked; else the
/// installed check's answer, which may load the library. A race of several
/// provers leaves Z3 out when this is false, rather than stopping.
pub fn z3_loads() -> bool {
    Z3_CHECK.get().is_none_or(|check| check())
}

/// The answer of one satisfiability check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sat {
    /// The assertions have a model.
    Sat,
    /// They have none.
    Unsat,
    /// Z3 gave up (timeout, incompleteness with quantifiers, resource limit).
    Unknown,
}

/// How many closed encodings an engine keeps before it starts afresh; the
/// cache only saves re-encoding, so dropping it is always safe.
const CACHE_LIMIT: usize = 100_000;

/// A Z3 solver plus the declarations of the symbols it has seen.
///
/// Symbols are declared by name, arity and kind, so problems checked one after
/// another on the same engine cannot interfere; whether a single problem uses
/// a symbol consistently is [`Signature`]'s job.
pub struct Z3Session {
    universe: Sort,
    decls: HashMap<(String, usize, SymbolKind), Rc<FuncDecl>>,
    solver: Solver,
    closed_cache: HashMap<Formula, Bool>,
    timeout: Duration,
    watchdog: bool,
    stop: Option<Arc<AtomicBool>>,
    /// With elements, quantifiers are expanded over them (see `ground`).
    expand: Option<Vec<Dynamic>>,
}

impl Z3Session {
    /// A new engine whose checks give up after `timeout` (reported as
    /// [`Sat::Unknown`]).
    pub fn new(timeout: Duration) -> Z3Session {
        let solver = Solver::new();
        let mut engine = Z3Session {
            universe: Sort::uninterpreted("U".into()),
            decls: HashMap::new(),
            solver,
            closed_cache: HashMap::new(),
            timeout,
            watchdog: false,
            stop: None,
            expand: None,
        };
        engine.set_timeout(timeout);
        engine
    }

    /// Changes the per-check timeout.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
        let mut params = Params::new();
        // Z3 takes u32 milliseconds; 0 would mean "no limit", so keep at least 1.
        let ms = timeout.as_millis().clamp(1, u32::MAX as u128) as u32;
        params.set_u32("timeout", ms);
        // Z3 4.8 catches SIGINT during a check by default (to cancel it),
        // which swallows the Ctrl-C meant for the process or for Python.
        params.set_bool("ctrl_c", false);
        self.solver.set_params(&params);
    }

    /// Limits each check to `rlimit` of Z3's resource units (counted, so
    /// the answer does not depend on the machine's speed).
    pub fn set_rlimit(&mut self, rlimit: u32) {
        let mut params = Params::new();
        params.set_u32("rlimit", rlimit);
        self.solver.set_params(&params);
    }

    /// Whether checks run under a watchdog thread that interrupts Z3 at the
    /// timeout. Costs a thread per check (tens of microseconds), so it is
    /// meant for first-order problems, where Z3 may overrun its timeout.
    pub fn set_watchdog(&mut self, on: bool) {
        self.watchdog = on;
    }

    /// A flag another thread raises to end the check in progress early (it
    /// then answers [`Sat::Unknown`]); watched only with the watchdog on.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// The per-check timeout in force.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The universal closure of `formula`, encoded (cached by formula).
    pub fn closed(&mut self, formula: &Formula) -> Result<Bool, EncodeError> {
        if let Some(b) = self.closed_cache.get(formula) {
            return Ok(b.clone());
        }
        let free = free_variables(formula);
        let mut env: Vec<(String, Dynamic)> = free
            .iter()
            .map(|v| (v.clone(), Dynamic::fresh_const(v, &self.universe)))
            .collect();
        let body = self.formula(formula, &mut env)?;
        let bounds: Vec<&dyn Ast> = env.iter().map(|(_, c)| c as &dyn Ast).collect();
        let closed = z3::ast::forall_const(&bounds, &[], &body);
        if self.closed_cache.len() >= CACHE_LIMIT {
            self.closed_cache.clear();
        }
        self.closed_cache.insert(formula.clone(), closed.clone());
        Ok(closed)
    }

    /// A fresh Boolean constant, used as an indicator literal that switches an
    /// assertion on or off through [`Z3Session::check`]'s assumptions.
    pub fn indicator(&self, prefix: &str) -> Bool {
        Bool::fresh_const(prefix)
    }

    /// Opens a scope: assertions made until the matching [`Z3Session::pop`] are
    /// retracted by it.
    pub fn push(&mut self) {
        self.solver.push();
    }

    /// Closes the innermost scope.
    pub fn pop(&mut self) {
        self.solver.pop(1);
    }

    /// Adds an assertion to the current scope.
    pub fn assert(&mut self, assertion: &Bool) {
        self.solver.assert(assertion);
    }

    /// Checks the current assertions together with `assumptions` (literals
    /// assumed true for this check only).
    pub fn check(&mut self, assumptions: &[Bool]) -> Sat {
        let run = || {
            if assumptions.is_empty() {
                self.solver.check()
            } else {
                self.solver.check_assumptions(assumptions)
            }
        };
        let result = if self.watchdog {
            // Z3's own timeout is not always honoured inside quantifier
            // instantiation; a watchdog thread interrupts the context at the
            // deadline, or as soon as the stop flag is raised.
            let context = z3::Context::thread_local();
            let handle = context.handle();
            let deadline = Instant::now() + self.timeout;
            let stop = self.stop.clone();
            let (done, wait) = std::sync::mpsc::channel::<()>();
            std::thread::scope(|scope| {
                scope.spawn(move || {
                    let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
                    loop {
                        let left = deadline.saturating_duration_since(Instant::now());
                        let step = match &stop {
                            Some(_) => left.min(Duration::from_millis(5)),
                            None => left,
                        };
                        match wait.recv_timeout(step) {
                            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                            _ => return,
                        }
                        if stopped() || Instant::now() >= deadline {
                            break;
                        }
                    }
                    // Some Z3 phases consume an interrupt without stopping;
                    // keep interrupting until the check returns.
                    loop {
                        handle.interrupt();
                        match wait.recv_timeout(Duration::from_millis(20)) {
                            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                            _ => return,
                        }
                    }
                });
                let r = run();
                // The watchdog may already have left; a failed send is fine.
                let _ = done.send(());
                r
            })
        } else {
            run()
        };
        match result {
            SatResult::Sat => Sat::Sat,
            SatResult::Unsat => Sat::Unsat,
            SatResult::Unknown => Sat::Unknown,
        }
    }

    /// Why the last check was [`Sat::Unknown`], as Z3 says it.
    pub fn reason_unknown(&self) -> String {
        self.solver
            .get_reason_unknown()
            .unwrap_or_else(|| "unknown".to_string())
    }

    /// After an `Unsat` check with assumptions: a subset of them that is
    /// already unsatisfiable with the assertions (not necessarily minimal).
    pub fn unsat_core(&self) -> Vec<Bool> {
        self.solver.get_unsat_core()
    }

    /// After a `Sat` check: the model restricted to `signature`, or `None`
    /// when Z3 has no model to give.
    pub fn countermodel(&self, signature: &Signature) -> Option<Countermodel> {
        let model = self.solver.get_model()?;
        model::extract(&model, &self.universe, signature, |name, arity, kind| {
            self.decls.get(&(name.to_string(), arity, kind)).cloned()
        })
    }

    fn decl(&mut self, name: &str, arity: usize, kind: SymbolKind) -> Rc<FuncDecl> {
        let key = (name.to_string(), arity, kind);
        if let Some(d) = self.decls.get(&key) {
            return d.clone();
        }
        let domain: Vec<&Sort> = (0..arity).map(|_| &self.universe).collect();
        let range = match kind {
            SymbolKind::Predicate => Sort::bool(),
            SymbolKind::Function => self.universe.clone(),
        };
        let decl = Rc::new(FuncDecl::new(name, &domain, &range));
        self.decls.insert(key, decl.clone());
        decl
    }

    /// Encodes `formula`.
    fn formula(
        &mut self,
        formula: &Formula,
        env: &mut Vec<(String, Dynamic)>,
    ) -> Result<Bool, EncodeError> {
        Ok(match formula {
            Formula::True => Bool::from_bool(true),
            Formula::False => Bool::from_bool(false),
            Formula::Atom(Term::App(name, args)) if name == "=" && args.len() == 2 => {
                let a = self.term(&args[0], env)?;
                let b = self.term(&args[1], env)?;
                a.eq(&b)
            }
            Formula::Atom(Term::App(name, args)) => {
                let args = args
                    .iter()
                    .map(|a| self.term(a, env))
                    .collect::<Result<Vec<_>, _>>()?;
                let decl = self.decl(name, args.len(), SymbolKind::Predicate);
                let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
                decl.apply(&refs).as_bool().ok_or_else(|| {
                    EncodeError::new(format!("predicate `{name}` did not encode as a Boolean"))
                })?
            }
            Formula::Atom(Term::Var(v)) => {
                return Err(EncodeError::new(format!(
                    "variable `{v}` is used as a formula"
                )));
            }
            Formula::Not(f) => self.formula(f, env)?.not(),
            Formula::And(a, b) => Bool::and(&[self.formula(a, env)?, self.formula(b, env)?]),
            Formula::Or(a, b) => Bool::or(&[self.formula(a, env)?, self.formula(b, env)?]),
            Formula::Implies(a, b) => self.formula(a, env)?.implies(self.formula(b, env)?),
            Formula::ImpliedBy(a, b) => self.formula(b, env)?.implies(self.formula(a, env)?),
            Formula::Iff(a, b) => self.formula(a, env)?.iff(self.formula(b, env)?),
            Formula::Quant(q, var, body) if self.expand.is_some() => {
                let elements = self.expand.clone().unwrap_or_default();
                let mut parts = Vec::with_capacity(elements.len());
                for e in elements {
                    env.push((var.clone(), e));
                    let part = self.formula(body, env);
                    env.pop();
                    parts.push(part?);
                }
                match q {
                    Quantifier::All => Bool::and(&parts),
                    Quantifier::Exists => Bool::or(&parts),
                }
            }
            Formula::Quant(q, var, body) => {
                // A fresh constant per binding: shadowing and clashes with a
                // constant of the same name are then impossible.
                let bound = Dynamic::fresh_const(var, &self.universe);
                env.push((var.clone(), bound.clone()));
                let body = self.formula(body, env);
                env.pop();
                let body = body?;
                match q {
                    Quantifier::All => z3::ast::forall_const(&[&bound], &[], &body),
                    Quantifier::Exists => z3::ast::exists_const(&[&bound], &[], &body),
                }
            }
        })
    }

    fn term(&mut self, term: &Term, env: &[(String, Dynamic)]) -> Result<Dynamic, EncodeError> {
        match term {
            Term::Var(v) => env
                .iter()
                .rev()
                .find(|(name, _)| name == v)
                .map(|(_, c)| c.clone())
                .ok_or_else(|| EncodeError::new(format!("variable `{v}` is not bound"))),
            Term::App(name, args) => {
                let args = args
                    .iter()
                    .map(|a| self.term(a, env))
                    .collect::<Result<Vec<_>, _>>()?;
                let decl = self.decl(name, args.len(), SymbolKind::Function);
                let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
                Ok(decl.apply(&refs))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Term {
        Term::App(name.into(), vec![])
    }

    fn app(p: &str, args: Vec<Term>) -> Formula {
        Formula::Atom(Term::App(p.into(), args))
    }

    /// Whether `premises` entail `goal` on a fresh scope of `engine`.
    fn entails(engine: &mut Z3Session, premises: &[Formula], goal: &Formula) -> Sat {
        engine.push();
        for p in premises {
            let b = engine.closed(p).expect("encodes");
            engine.assert(&b);
        }
        let g = engine.closed(goal).expect("encodes");
        engine.assert(&g.not());
        let r = engine.check(&[]);
        engine.pop();
        r
    }

    #[test]
    fn free_variables_are_universally_closed() {
        let mut e = Z3Session::new(Duration::from_secs(5));
        let px = app("p", vec![Term::Var("x".into())]);
        // p(x) closed is all x p(x), which entails p(a) …
        assert_eq!(
            entails(&mut e, &[px.clone()], &app("p", vec![c("a")])),
            Sat::Unsat
        );
        // … while p(a) does not entail p(x) (closed: all x p(x)).
        assert_eq!(entails(&mut e, &[app("p", vec![c("a")])], &px), Sat::Sat);
    }

    #[test]
    fn equality_and_functions_are_congruent() {
        let mut e = Z3Session::new(Duration::from_secs(5));
        let eq = Formula::Atom(Term::App("=".into(), vec![c("a"), c("b")]));
        let fa = Term::App("f".into(), vec![c("a")]);
        let fb = Term::App("f".into(), vec![c("b")]);
        let goal = Formula::Atom(Term::App("=".into(), vec![fa, fb]));
        assert_eq!(entails(&mut e, &[eq], &goal), Sat::Unsat);
    }

    #[test]
    fn shadowed_quantifiers_bind_innermost() {
        let mut e = Z3Session::new(Duration::from_secs(5));
        // all x (p(x) -> exists x q(x)) with q(a) false everywhere except …
        let inner = Formula::Quant(
            Quantifier::Exists,
            "x".into(),
            Box::new(app("q", vec![Term::Var("x".into())])),
        );
        let f = Formula::Quant(
            Quantifier::All,
            "x".into(),
            Box::new(Formula::implies(
                app("p", vec![Term::Var("x".into())]),
                inner.clone(),
            )),
        );
        // Together with p(a) it entails exists x q(x), but not q(a).
        assert_eq!(
            entails(&mut e, &[f.clone(), app("p", vec![c("a")])], &inner),
            Sat::Unsat
        );
        assert_eq!(
            entails(
                &mut e,
                &[f, app("p", vec![c("a")])],
                &app("q", vec![c("a")])
            ),
            Sat::Sat
        );
    }

    #[test]
    fn same_name_different_kinds_do_not_clash_across_problems() {
        let mut e = Z3Session::new(Duration::from_secs(5));
        let p_pred = app("p", vec![c("a")]);
        assert_eq!(entails(&mut e, &[p_pred.clone()], &p_pred), Sat::Unsat);
        let p_fun = Formula::Atom(Term::App(
            "=".into(),
            vec![Term::App("p".into(), vec![c("a")]), c("a")],
        ));
        assert_eq!(entails(&mut e, &[], &p_fun), Sat::Sat);
    }
}

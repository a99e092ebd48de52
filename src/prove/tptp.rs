//! E prover as a second engine: our AST → TPTP `fof`, checked to read back
//! to the same formulas, then `eprover` under the caller's deadline.
//!
//! Symbols are renamed (`p0`, `f0`, … by name and arity, variables `X0`, …)
//! so that no Prover9 name can collide with TPTP syntax or E's built-ins
//! (numbers, `"distinct objects"`, `$` words). E's answer is trusted only
//! after [`translate`] has parsed its own text back, mapped the names back,
//! and found exactly the universally closed input formulas.

use super::child::{self, Ended};
use crate::smt::universal_closure;
use crate::syntax::prover9::{Formula, Quantifier, Term};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A TPTP problem and the names it gave our symbols.
#[derive(Debug, Clone)]
pub struct Translation {
    /// The `fof(..)` lines: axioms `a0`, `a1`, … then the conjecture `goal`.
    pub text: String,
}

/// What E said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EOutcome {
    /// `SZS status Theorem` (or `Unsatisfiable` without a goal).
    Proved,
    /// `CounterSatisfiable` / `Satisfiable`: no proof exists; E gives no model.
    Refuted,
    /// Anything else: resource out, stopped, or an unexpected answer.
    Unknown(String),
    /// No `eprover` on the PATH.
    Absent,
}

#[derive(Default)]
struct Names {
    /// (name, arity, is predicate) → TPTP name.
    symbols: BTreeMap<(String, usize, bool), String>,
}

impl Names {
    fn collect_term(&mut self, t: &Term) {
        if let Term::App(name, args) = t {
            self.symbols
                .entry((name.clone(), args.len(), false))
                .or_default();
            args.iter().for_each(|a| self.collect_term(a));
        }
    }

    fn collect(&mut self, f: &Formula) {
        match f {
            Formula::True | Formula::False => {}
            Formula::Atom(Term::App(name, args)) => {
                if !(name == "=" && args.len() == 2) {
                    self.symbols
                        .entry((name.clone(), args.len(), true))
                        .or_default();
                }
                args.iter().for_each(|a| self.collect_term(a));
            }
            Formula::Atom(Term::Var(_)) => {}
            Formula::Not(g) | Formula::Quant(_, _, g) => self.collect(g),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::ImpliedBy(a, b)
            | Formula::Iff(a, b) => {
                self.collect(a);
                self.collect(b);
            }
        }
    }

    /// Numbers the symbols in sorted order, so the text is deterministic.
    fn number(&mut self) {
        let (mut p, mut f) = (0, 0);
        for ((_, _, predicate), tptp) in self.symbols.iter_mut() {
            *tptp = if *predicate {
                p += 1;
                format!("p{}", p - 1)
            } else {
                f += 1;
                format!("f{}", f - 1)
            };
        }
    }
}

/// Writes one closed formula; `vars` maps bound names to `X<k>` innermost last.
struct Writer<'a> {
    names: &'a Names,
    out: String,
    vars: Vec<(String, String)>,
    next_var: usize,
}

impl Writer<'_> {
    fn term(&mut self, t: &Term) -> Result<(), String> {
        match t {
            Term::Var(v) => {
                let Some((_, x)) = self.vars.iter().rev().find(|(name, _)| name == v) else {
                    return Err(format!("variable `{v}` is not bound"));
                };
                self.out.push_str(&x.clone());
            }
            Term::App(name, args) => {
                let tptp = &self.names.symbols[&(name.clone(), args.len(), false)];
                self.out.push_str(tptp);
                self.args(args)?;
            }
        }
        Ok(())
    }

    fn args(&mut self, args: &[Term]) -> Result<(), String> {
        if !args.is_empty() {
            self.out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    self.out.push(',');
                }
                self.term(a)?;
            }
            self.out.push(')');
        }
        Ok(())
    }

    fn formula(&mut self, f: &Formula) -> Result<(), String> {
        let binary = |w: &mut Self, a: &Formula, op: &str, b: &Formula| {
            w.out.push('(');
            w.formula(a)?;
            w.out.push_str(op);
            w.formula(b)?;
            w.out.push(')');
            Ok::<(), String>(())
        };
        match f {
            Formula::True => self.out.push_str("$true"),
            Formula::False => self.out.push_str("$false"),
            Formula::Atom(Term::App(name, args)) if name == "=" && args.len() == 2 => {
                self.out.push('(');
                self.term(&args[0])?;
                self.out.push_str(" = ");
                self.term(&args[1])?;
                self.out.push(')');
            }
            Formula::Atom(Term::App(name, args)) => {
                let tptp = &self.names.symbols[&(name.clone(), args.len(), true)];
                self.out.push_str(tptp);
                self.args(args)?;
            }
            Formula::Atom(Term::Var(v)) => return Err(format!("variable `{v}` used as a formula")),
            Formula::Not(g) => {
                self.out.push_str("~ ");
                self.formula(g)?;
            }
            Formula::And(a, b) => binary(self, a, " & ", b)?,
            Formula::Or(a, b) => binary(self, a, " | ", b)?,
            Formula::Implies(a, b) => binary(self, a, " => ", b)?,
            Formula::ImpliedBy(a, b) => binary(self, a, " <= ", b)?,
            Formula::Iff(a, b) => binary(self, a, " <=> ", b)?,
            Formula::Quant(q, v, body) => {
                let x = format!("X{}", self.next_var);
                self.next_var += 1;
                self.out.push_str(match q {
                    Quantifier::All => "! [",
                    Quantifier::Exists => "? [",
                });
                self.out.push_str(&x);
                self.out.push_str("] : ");
                self.vars.push((v.clone(), x));
                let r = self.formula(body);
                self.vars.pop();
                r?;
            }
        }
        Ok(())
    }
}

/// Translates "`assumptions` entail `goal`" (no goal: "are unsatisfiable")
/// and checks that the text reads back to the same closed formulas.
pub fn translate(assumptions: &[&Formula], goal: Option<&Formula>) -> Result<Translation, String> {
    let closed: Vec<Formula> = assumptions.iter().map(|f| universal_closure(f)).collect();
    let goal = goal.map(universal_closure);
    let mut names = Names::default();
    closed.iter().chain(&goal).for_each(|f| names.collect(f));
    names.number();
    let mut text = String::new();
    let mut var_names = BTreeMap::new();
    let mut write = |role: &str, name: String, f: &Formula| -> Result<(), String> {
        let mut w = Writer {
            names: &names,
            out: String::new(),
            vars: Vec::new(),
            next_var: var_names.len(),
        };
        collect_binders(f, &mut var_names);
        w.formula(f)?;
        text.push_str(&format!("fof({name}, {role}, {}).\n", w.out));
        Ok(())
    };
    for (i, f) in closed.iter().enumerate() {
        write("axiom", format!("a{i}"), f)?;
    }
    if let Some(g) = &goal {
        write("conjecture", "goal".to_string(), g)?;
    }
    // Read it back and map the names back: it must be the same problem.
    let back: BTreeMap<String, (String, usize)> = names
        .symbols
        .iter()
        .map(|((name, arity, _), tptp)| (tptp.clone(), (name.clone(), *arity)))
        .collect();
    let read = read_back(&text, &back, &var_names)?;
    let expected: Vec<(String, Formula)> = closed
        .iter()
        .map(|f| ("axiom".to_string(), f.clone()))
        .chain(goal.iter().map(|g| ("conjecture".to_string(), g.clone())))
        .collect();
    if read != expected {
        return Err("the TPTP translation does not read back to the input".to_string());
    }
    Ok(Translation { text })
}

/// Records `X<k>` → the bound name, in the order [`Writer`] numbers binders.
fn collect_binders(f: &Formula, out: &mut BTreeMap<String, String>) {
    match f {
        Formula::Quant(_, v, body) => {
            out.insert(format!("X{}", out.len()), v.clone());
            collect_binders(body, out);
        }
        Formula::Not(g) => collect_binders(g, out),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Implies(a, b)
        | Formula::ImpliedBy(a, b)
        | Formula::Iff(a, b) => {
            collect_binders(a, out);
            collect_binders(b, out);
        }
        Formula::True | Formula::False | Formula::Atom(_) => {}
    }
}

/// A strict reader for the TPTP that [`translate`] writes: every binary
/// connective parenthesised, `~` and quantifiers over a unitary formula.
struct Reader<'a> {
    toks: Vec<&'a str>,
    at: usize,
    back: &'a BTreeMap<String, (String, usize)>,
    vars: &'a BTreeMap<String, String>,
}

fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$')
            {
                i += 1;
            }
        } else {
            let three = text.get(i..i + 3);
            let two = text.get(i..i + 2);
            i += if three == Some("<=>") {
                3
            } else if matches!(two, Some("=>") | Some("<=")) {
                2
            } else {
                1
            };
        }
        out.push(&text[start..i]);
    }
    out
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.at).copied()
    }

    fn expect(&mut self, t: &str) -> Result<(), String> {
        if self.peek() == Some(t) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!(
                "TPTP read-back: expected `{t}`, found {:?}",
                self.peek()
            ))
        }
    }

    fn word(&mut self) -> Result<String, String> {
        match self.peek() {
            Some(w)
                if w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') =>
            {
                self.at += 1;
                Ok(w.to_string())
            }
            other => Err(format!("TPTP read-back: expected a word, found {other:?}")),
        }
    }

    fn unitary(&mut self, bound: &mut Vec<String>) -> Result<Formula, String> {
        match self.peek() {
            Some("(") => {
                self.at += 1;
                let left = self.unitary_or_term(bound)?;
                let op = self.peek().unwrap_or("").to_string();
                self.at += 1;
                let f = match op.as_str() {
                    "=" => {
                        let Some(Left::Term(a)) = Some(left) else {
                            return Err("TPTP read-back: `=` needs terms".into());
                        };
                        let b = self.term(bound)?;
                        Formula::Atom(Term::App("=".into(), vec![a, b]))
                    }
                    _ => {
                        let a = left.formula()?;
                        let b = self.unitary(bound)?;
                        let (a, b) = (Box::new(a), Box::new(b));
                        match op.as_str() {
                            "&" => Formula::And(a, b),
                            "|" => Formula::Or(a, b),
                            "=>" => Formula::Implies(a, b),
                            "<=" => Formula::ImpliedBy(a, b),
                            "<=>" => Formula::Iff(a, b),
                            _ => return Err(format!("TPTP read-back: unexpected `{op}`")),
                        }
                    }
                };
                self.expect(")")?;
                Ok(f)
            }
            _ => self.unitary_or_term(bound)?.formula(),
        }
    }

    /// A unitary formula, or (inside parentheses, before `=`) a term.
    fn unitary_or_term(&mut self, bound: &mut Vec<String>) -> Result<Left, String> {
        match self.peek() {
            Some("(") => Ok(Left::Formula(self.unitary(bound)?)),
            Some("~") => {
                self.at += 1;
                Ok(Left::Formula(Formula::Not(Box::new(self.unitary(bound)?))))
            }
            Some(q @ ("!" | "?")) => {
                let q = if q == "!" {
                    Quantifier::All
                } else {
                    Quantifier::Exists
                };
                self.at += 1;
                self.expect("[")?;
                let x = self.word()?;
                self.expect("]")?;
                self.expect(":")?;
                let name = self
                    .vars
                    .get(&x)
                    .ok_or("TPTP read-back: unknown variable")?;
                bound.push(x);
                let body = self.unitary(bound);
                bound.pop();
                Ok(Left::Formula(Formula::Quant(
                    q,
                    name.clone(),
                    Box::new(body?),
                )))
            }
            Some("$true") => {
                self.at += 1;
                Ok(Left::Formula(Formula::True))
            }
            Some("$false") => {
                self.at += 1;
                Ok(Left::Formula(Formula::False))
            }
            Some(w) if w.starts_with('p') => {
                Ok(Left::Formula(Formula::Atom(self.application(bound)?)))
            }
            _ => Ok(Left::Term(self.term(bound)?)),
        }
    }

    /// A variable or a function term (`f<k>`).
    fn term(&mut self, bound: &mut Vec<String>) -> Result<Term, String> {
        match self.peek() {
            Some(w) if w.starts_with('X') || w.starts_with('f') => self.application(bound),
            other => Err(format!("TPTP read-back: expected a term, found {other:?}")),
        }
    }

    /// `X<k>`, or a symbol with its arguments, mapped back to our names.
    fn application(&mut self, bound: &mut Vec<String>) -> Result<Term, String> {
        let w = self.word()?;
        if w.starts_with('X') {
            if !bound.contains(&w) {
                return Err(format!("TPTP read-back: `{w}` is not bound"));
            }
            let name = self
                .vars
                .get(&w)
                .ok_or("TPTP read-back: unknown variable")?;
            return Ok(Term::Var(name.clone()));
        }
        let mut args = Vec::new();
        if self.peek() == Some("(") {
            self.at += 1;
            loop {
                args.push(self.term(bound)?);
                if self.peek() == Some(",") {
                    self.at += 1;
                } else {
                    break;
                }
            }
            self.expect(")")?;
        }
        let (name, arity) = self
            .back
            .get(&w)
            .ok_or_else(|| format!("TPTP read-back: unknown symbol `{w}`"))?;
        if *arity != args.len() {
            return Err(format!("TPTP read-back: `{w}` has the wrong arity"));
        }
        Ok(Term::App(name.clone(), args))
    }
}

/// A parenthesised left side, before its operator is known.
enum Left {
    Formula(Formula),
    Term(Term),
}

impl Left {
    fn formula(self) -> Result<Formula, String> {
        match self {
            Left::Formula(f) => Ok(f),
            Left::Term(t) => Err(format!("TPTP read-back: term `{t}` used as a formula")),
        }
    }
}

fn read_back(
    text: &str,
    back: &BTreeMap<String, (String, usize)>,
    vars: &BTreeMap<String, String>,
) -> Result<Vec<(String, Formula)>, String> {
    let mut r = Reader {
        toks: tokens(text),
        at: 0,
        back,
        vars,
    };
    let mut out = Vec::new();
    while r.peek().is_some() {
        r.expect("fof")?;
        r.expect("(")?;
        r.word()?;
        r.expect(",")?;
        let role = r.word()?;
        r.expect(",")?;
        let f = r.unitary(&mut Vec::new())?;
        r.expect(")")?;
        r.expect(".")?;
        out.push((role, f));
    }
    Ok(out)
}

/// Whether an `eprover` executable is on the PATH (looked up once).
pub fn eprover_installed() -> bool {
    child::on_path("eprover")
}

/// Runs `eprover` on `problem` until it answers, `deadline` passes or `stop`
/// is raised (then it is killed).
pub fn run_eprover(problem: &Translation, deadline: Instant, stop: &AtomicBool) -> EOutcome {
    let left = deadline.saturating_duration_since(Instant::now());
    let cpu = left.as_secs().max(1) + 1;
    // `--auto`, not `--auto-schedule`: the schedule proves some equational
    // problems `--auto` misses (LADR's basax/dn1), but it cuts its time into
    // slices by the CPU limit, so a long limit delays what `--auto` finds at
    // once (corpora/prove/fo/set_union.in: 2 s with `--auto`, 19 s as a
    // schedule of 20 s).
    let args = [
        "--auto".to_string(),
        "-s".to_string(),
        "--memory-limit=2048".to_string(),
        format!("--cpu-limit={cpu}"),
    ];
    let out = match child::run("eprover", &args, &problem.text, deadline, stop) {
        Ended::Exited(_, out) => out,
        Ended::Absent => return EOutcome::Absent,
        Ended::Unknown(why) => return EOutcome::Unknown(why),
    };
    let status = out
        .lines()
        .find_map(|l| l.strip_prefix("# SZS status "))
        .unwrap_or("")
        .trim();
    match status {
        "Theorem" | "Unsatisfiable" | "ContradictoryAxioms" => EOutcome::Proved,
        "CounterSatisfiable" | "Satisfiable" => EOutcome::Refuted,
        "" => EOutcome::Unknown("eprover gave no SZS status".into()),
        other => EOutcome::Unknown(format!("eprover: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::prover9::{parse_formula, ParseOptions};

    fn f(s: &str) -> Formula {
        parse_formula(s, &ParseOptions::default()).expect("parses")
    }

    #[test]
    fn translation_is_exact_and_reads_back() {
        let a = f("all x (p(x) -> (exists x q(x, f(x))))");
        let b = f("-(a = b) <-> r | ($T & -$F)");
        let g = f("p(y) <- q(y, y)");
        let t = translate(&[&a, &b], Some(&g)).expect("faithful");
        assert_eq!(
            t.text,
            "fof(a0, axiom, ! [X0] : (p0(X0) => ? [X1] : p1(X1,f2(X1)))).\n\
             fof(a1, axiom, (~ (f0 = f1) <=> (p2 | ($true & ~ $false)))).\n\
             fof(goal, conjecture, ! [X2] : (p0(X2) <= p1(X2,X2))).\n"
        );
    }

    #[test]
    fn a_mapping_that_loses_information_is_caught() {
        // p/1 and p/2 must get different TPTP names.
        let a = f("p(a) & p(a, b)");
        let t = translate(&[&a], None).expect("faithful");
        assert!(
            t.text.contains("p0(f0)") && t.text.contains("p1(f0,f1)"),
            "{}",
            t.text
        );
        // A forged text with the two predicates merged does not read back.
        let back: BTreeMap<String, (String, usize)> = [("p0".to_string(), ("p".to_string(), 1))]
            .into_iter()
            .collect();
        let vars = BTreeMap::new();
        let forged = "fof(a0, axiom, (p0(f0) & p0(f0,f1))).\n";
        assert!(read_back(forged, &back, &vars).is_err());
    }
}

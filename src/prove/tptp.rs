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
use crate::syntax::prover9::{Formula, Term};
use crate::syntax::tptp::{Fof, Role, Statement};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A TPTP problem and the names it gave our symbols.
#[derive(Debug, Clone)]
pub struct Translation {
    /// The `fof(..)` lines: axioms `a0`, `a1`, … then the conjecture `goal`.
    pub text: String,
    /// The TPTP name of each symbol (`p0`, `f3`, …) → the problem's name.
    pub symbols: BTreeMap<String, String>,
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

/// Renames one closed formula's symbols to their TPTP names and its bound
/// variables to fresh `X<k>`, recording `X<k>` → the bound name.
struct Renamer<'a> {
    names: &'a Names,
    /// Bound names in scope, innermost last, with their `X<k>`.
    scope: Vec<(String, String)>,
    /// `X<k>` → the name it stands for, over the whole problem.
    back: BTreeMap<String, String>,
}

impl Renamer<'_> {
    fn term(&self, t: &Term) -> Result<Term, String> {
        match t {
            Term::Var(v) => match self.scope.iter().rev().find(|(name, _)| name == v) {
                Some((_, x)) => Ok(Term::Var(x.clone())),
                None => Err(format!("variable `{v}` is not bound")),
            },
            Term::App(name, args) => Ok(Term::App(
                self.names.symbols[&(name.clone(), args.len(), false)].clone(),
                args.iter()
                    .map(|a| self.term(a))
                    .collect::<Result<_, _>>()?,
            )),
        }
    }

    fn formula(&mut self, f: &Formula) -> Result<Formula, String> {
        let pair = |r: &mut Self, a: &Formula, b: &Formula| -> Result<_, String> {
            Ok((Box::new(r.formula(a)?), Box::new(r.formula(b)?)))
        };
        Ok(match f {
            Formula::True => Formula::True,
            Formula::False => Formula::False,
            Formula::Atom(Term::App(name, args)) if name == "=" && args.len() == 2 => {
                Formula::Atom(Term::App(
                    "=".into(),
                    vec![self.term(&args[0])?, self.term(&args[1])?],
                ))
            }
            Formula::Atom(Term::App(name, args)) => Formula::Atom(Term::App(
                self.names.symbols[&(name.clone(), args.len(), true)].clone(),
                args.iter()
                    .map(|a| self.term(a))
                    .collect::<Result<_, _>>()?,
            )),
            Formula::Atom(Term::Var(v)) => return Err(format!("variable `{v}` used as a formula")),
            Formula::Not(g) => Formula::Not(Box::new(self.formula(g)?)),
            Formula::And(a, b) => {
                let (a, b) = pair(self, a, b)?;
                Formula::And(a, b)
            }
            Formula::Or(a, b) => {
                let (a, b) = pair(self, a, b)?;
                Formula::Or(a, b)
            }
            Formula::Implies(a, b) => {
                let (a, b) = pair(self, a, b)?;
                Formula::Implies(a, b)
            }
            Formula::ImpliedBy(a, b) => {
                let (a, b) = pair(self, a, b)?;
                Formula::ImpliedBy(a, b)
            }
            Formula::Iff(a, b) => {
                let (a, b) = pair(self, a, b)?;
                Formula::Iff(a, b)
            }
            Formula::Quant(q, v, body) => {
                let x = format!("X{}", self.back.len());
                self.back.insert(x.clone(), v.clone());
                self.scope.push((v.clone(), x.clone()));
                let body = self.formula(body);
                self.scope.pop();
                Formula::Quant(*q, x, Box::new(body?))
            }
        })
    }
}

/// `f` with its symbols and variables mapped through `symbols` and `vars`
/// (names missing from them are an error).
fn rename_back(
    f: &Formula,
    symbols: &BTreeMap<String, String>,
    vars: &BTreeMap<String, String>,
) -> Result<Formula, String> {
    let look = |map: &BTreeMap<String, String>, n: &str| {
        map.get(n)
            .cloned()
            .ok_or_else(|| format!("TPTP read-back: unknown name `{n}`"))
    };
    fn term(
        t: &Term,
        symbols: &BTreeMap<String, String>,
        vars: &BTreeMap<String, String>,
    ) -> Result<Term, String> {
        Ok(match t {
            Term::Var(v) => Term::Var(
                vars.get(v)
                    .cloned()
                    .ok_or_else(|| format!("TPTP read-back: unknown variable `{v}`"))?,
            ),
            Term::App(n, args) => Term::App(
                symbols
                    .get(n)
                    .cloned()
                    .ok_or_else(|| format!("TPTP read-back: unknown symbol `{n}`"))?,
                args.iter()
                    .map(|a| term(a, symbols, vars))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }
    let pair = |a: &Formula, b: &Formula| -> Result<_, String> {
        Ok((
            Box::new(rename_back(a, symbols, vars)?),
            Box::new(rename_back(b, symbols, vars)?),
        ))
    };
    Ok(match f {
        Formula::True => Formula::True,
        Formula::False => Formula::False,
        Formula::Atom(Term::App(n, args)) if n == "=" && args.len() == 2 => {
            Formula::Atom(Term::App(
                "=".into(),
                vec![
                    term(&args[0], symbols, vars)?,
                    term(&args[1], symbols, vars)?,
                ],
            ))
        }
        Formula::Atom(t) => Formula::Atom(term(t, symbols, vars)?),
        Formula::Not(g) => Formula::Not(Box::new(rename_back(g, symbols, vars)?)),
        Formula::And(a, b) => {
            let (a, b) = pair(a, b)?;
            Formula::And(a, b)
        }
        Formula::Or(a, b) => {
            let (a, b) = pair(a, b)?;
            Formula::Or(a, b)
        }
        Formula::Implies(a, b) => {
            let (a, b) = pair(a, b)?;
            Formula::Implies(a, b)
        }
        Formula::ImpliedBy(a, b) => {
            let (a, b) = pair(a, b)?;
            Formula::ImpliedBy(a, b)
        }
        Formula::Iff(a, b) => {
            let (a, b) = pair(a, b)?;
            Formula::Iff(a, b)
        }
        Formula::Quant(q, v, body) => Formula::Quant(
            *q,
            look(vars, v)?,
            Box::new(rename_back(body, symbols, vars)?),
        ),
    })
}

/// Translates "`assumptions` entail `goal`" (no goal: "are unsatisfiable")
/// and checks that the text reads back to the same closed formulas.
pub fn translate(assumptions: &[&Formula], goal: Option<&Formula>) -> Result<Translation, String> {
    translate_marked(assumptions, &[], goal)
}

/// [`translate`], with the assumptions at the indices `negated_conjectures`
/// given to E as `negated_conjecture`s (a CNF problem's goal), so that E's
/// goal-directed heuristics see them as the goal.
pub fn translate_marked(
    assumptions: &[&Formula],
    negated_conjectures: &[usize],
    goal: Option<&Formula>,
) -> Result<Translation, String> {
    let closed: Vec<Formula> = assumptions.iter().map(|f| universal_closure(f)).collect();
    let goal = goal.map(universal_closure);
    let mut names = Names::default();
    closed.iter().chain(&goal).for_each(|f| names.collect(f));
    names.number();
    let mut renamer = Renamer {
        names: &names,
        scope: Vec::new(),
        back: BTreeMap::new(),
    };
    let negated: std::collections::BTreeSet<usize> = negated_conjectures.iter().copied().collect();
    let mut expected = Vec::new();
    for (i, f) in closed.iter().enumerate() {
        let role = if negated.contains(&i) {
            Role::NegatedConjecture
        } else {
            Role::Axiom
        };
        expected.push((format!("a{i}"), role, renamer.formula(f)?, f));
    }
    if let Some(g) = &goal {
        expected.push(("goal".to_string(), Role::Conjecture, renamer.formula(g)?, g));
    }
    let text: String = expected
        .iter()
        .map(|(name, role, f, _)| format!("fof({name}, {}, {}).\n", role.name(), Fof(f)))
        .collect();
    // Read it back with our TPTP reader and map the names back: it must be
    // the same problem.
    let symbols: BTreeMap<String, String> = names
        .symbols
        .iter()
        .map(|((name, _, _), tptp)| (tptp.clone(), name.clone()))
        .collect();
    let read = crate::syntax::tptp::parse(&text)
        .map_err(|e| format!("the TPTP translation does not read back: {e}"))?;
    let faithful = read.len() == expected.len()
        && read
            .iter()
            .zip(&expected)
            .all(|(statement, (name, role, renamed, original))| {
                matches!(statement, Statement::Formula(a)
                if a.name == *name && a.role == *role && a.formula == *renamed
                && rename_back(&a.formula, &symbols, &renamer.back).as_ref() == Ok(*original))
            });
    if !faithful {
        return Err("the TPTP translation does not read back to the input".to_string());
    }
    Ok(Translation { text, symbols })
}

/// The names a TSTP derivation of a [`translate`]d problem uses, mapped
/// back to the problem's: symbols `p<k>`/`f<k>` to the problem's symbols,
/// formula names `a<i>` to `premises[i]` and `goal` to `goal`, and
/// `file('<stdin>', ..)` to `file('<source>', ..)`. Names that are not TPTP
/// words are quoted. Text in quotes and every other word (E's clause names
/// `c_0_7`, Skolem symbols `esk1_0`, variables) is kept.
pub fn in_user_names(
    proof: &str,
    symbols: &BTreeMap<String, String>,
    premises: &[String],
    goal: &str,
    source: &str,
) -> String {
    let mut out = String::with_capacity(proof.len());
    let bytes = proof.as_bytes();
    let mut i = 0;
    let word_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\'' || b == b'"' {
            // Quoted text, to the closing quote on the same line.
            let end = proof[i + 1..]
                .find(|c| c == b as char || c == '\n')
                .map_or(proof.len(), |e| i + 1 + e + 1);
            let quoted = &proof[i..end.min(proof.len())];
            if quoted == "'<stdin>'" {
                out.push_str(&tptp_name(source));
            } else {
                out.push_str(quoted);
            }
            i = end.min(proof.len());
        } else if word_byte(b) {
            let start = i;
            while i < bytes.len() && word_byte(bytes[i]) {
                i += 1;
            }
            let word = &proof[start..i];
            let index = |prefix: char| {
                word.strip_prefix(prefix)
                    .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
                    .and_then(|d| d.parse::<usize>().ok())
            };
            match (symbols.get(word), index('a')) {
                (Some(name), _) => out.push_str(&tptp_name(name)),
                (None, Some(k)) if k < premises.len() => out.push_str(&tptp_name(&premises[k])),
                _ if word == "goal" => out.push_str(&tptp_name(goal)),
                _ => out.push_str(word),
            }
        } else {
            let ch = proof[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// `name` as a TPTP atomic word: as it is when it is a lower word, a
/// quoted atom, a distinct object or an integer, else in single quotes.
fn tptp_name(name: &str) -> String {
    let lower_word = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let quoted = name.len() >= 2
        && ((name.starts_with('\'') && name.ends_with('\''))
            || (name.starts_with('"') && name.ends_with('"')));
    let integer = name
        .strip_prefix('-')
        .unwrap_or(name)
        .bytes()
        .all(|b| b.is_ascii_digit())
        && !name.is_empty()
        && name != "-";
    if lower_word || quoted || integer {
        name.to_string()
    } else {
        format!("'{}'", name.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// Whether an `eprover` executable is on the PATH (looked up once).
pub fn eprover_installed() -> bool {
    child::on_path("eprover")
}

/// Runs `eprover` on `problem` until it answers, `deadline` passes or `stop`
/// is raised (then it is killed).
pub fn run_eprover(problem: &Translation, deadline: Instant, stop: &AtomicBool) -> EOutcome {
    run_eprover_proof(problem, deadline, stop).0
}

/// [`run_eprover`], with E's TSTP derivation (`# SZS output start` to
/// `end`) when it found a proof.
pub fn run_eprover_proof(
    problem: &Translation,
    deadline: Instant,
    stop: &AtomicBool,
) -> (EOutcome, Option<String>) {
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
        "--proof-object".to_string(),
        format!("--cpu-limit={cpu}"),
    ];
    let out = match child::run("eprover", &args, &problem.text, deadline, stop) {
        Ended::Exited(_, out) => out,
        Ended::Absent => return (EOutcome::Absent, None),
        Ended::Unknown(why) => return (EOutcome::Unknown(why), None),
    };
    let status = out
        .lines()
        .find_map(|l| l.strip_prefix("# SZS status "))
        .unwrap_or("")
        .trim();
    let outcome = match status {
        "Theorem" | "Unsatisfiable" | "ContradictoryAxioms" => EOutcome::Proved,
        "CounterSatisfiable" | "Satisfiable" => EOutcome::Refuted,
        "" => EOutcome::Unknown("eprover gave no SZS status".into()),
        other => EOutcome::Unknown(format!("eprover: {other}")),
    };
    let proof = (outcome == EOutcome::Proved)
        .then(|| {
            let start = out.find("# SZS output start")?;
            let end = out[start..]
                .find("# SZS output end")
                .map_or(out.len(), |e| start + e);
            let end = out[end..].find('\n').map_or(out.len(), |n| end + n + 1);
            Some(out[start..end].to_string())
        })
        .flatten();
    (outcome, proof)
}

/// Whether a `cvc5` executable is on the PATH (looked up once).
pub fn cvc5_installed() -> bool {
    child::on_path("cvc5")
}

/// Runs `cvc5` (its default strategy: quantifier instantiation) on the same
/// translation as E until it answers, `deadline` passes or `stop` is raised.
/// cvc5 1.0 reports a problem with a conjecture as the status of the axioms
/// and the negated conjecture (`Unsatisfiable` for a theorem), later
/// versions as `Theorem`: both mean proved.
pub fn run_cvc5(problem: &Translation, deadline: Instant, stop: &AtomicBool) -> EOutcome {
    let left = deadline.saturating_duration_since(Instant::now());
    let args = [
        "--lang=tptp".to_string(),
        format!("--tlimit={}", left.as_millis().max(1)),
    ];
    let out = match child::run("cvc5", &args, &problem.text, deadline, stop) {
        Ended::Exited(_, out) => out,
        Ended::Absent => return EOutcome::Absent,
        Ended::Unknown(why) => return EOutcome::Unknown(why),
    };
    let status = out
        .lines()
        .find_map(|l| l.strip_prefix("% SZS status "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or("");
    match status {
        "Theorem" | "Unsatisfiable" | "ContradictoryAxioms" => EOutcome::Proved,
        "CounterSatisfiable" | "Satisfiable" => EOutcome::Refuted,
        "" => EOutcome::Unknown("cvc5 gave no SZS status".into()),
        other => EOutcome::Unknown(format!("cvc5: {other}")),
    }
}

/// The assumptions (by index) a TSTP derivation of a [`translate`]d
/// problem cites as input: `file(.., a<i>)`.
pub fn used_axioms(proof: &str) -> Vec<usize> {
    let mut used: Vec<usize> = proof
        .match_indices("file(")
        .filter_map(|(at, _)| {
            let rest = &proof[at..];
            let inside = rest[..rest.find(')')?].rsplit(',').next()?.trim();
            inside.strip_prefix('a')?.parse().ok()
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    used
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
    fn a_derivation_names_the_axioms_it_used() {
        let proof = "# SZS output start CNFRefutation\n\
                     fof(goal, conjecture, p1(f0), file('<stdin>', goal)).\n\
                     fof(a10, axiom, ![X1]:(p0(X1)=>p1(X1)), file('<stdin>', a10)).\n\
                     fof(a1, axiom, p0(f0), file('<stdin>', a1)).\n\
                     cnf(c_0_7, plain, (p0(f0)), inference(split_conjunct,[status(thm)],[a1])).\n\
                     # SZS output end CNFRefutation\n";
        assert_eq!(used_axioms(proof), [1, 10]);
    }

    #[test]
    fn a_derivation_is_printed_in_the_problems_names() {
        let a = f("all x (Man(x) -> mortal(x))");
        let b = f("Man(socrates)");
        let g = f("mortal(socrates)");
        let t = translate(&[&a, &b], Some(&g)).expect("faithful");
        // E's derivation of that text, in E's words.
        let proof = "# SZS output start CNFRefutation\n\
                     fof(a0, axiom, ![X1]:(p0(X1)=>p1(X1)), file('<stdin>', a0)).\n\
                     fof(goal, conjecture, p1(f0), file('<stdin>', goal)).\n\
                     cnf(c_0_3, negated_conjecture, (~p1(f0)), inference(fof_nnf,[status(thm)],[goal])).\n\
                     cnf(c_0_4, plain, (p1(X1)|~p0(X1)), inference(split_conjunct,[status(thm)],[a0])).\n\
                     # SZS output end CNFRefutation\n";
        let premises = [
            "men_are_mortal".to_string(),
            "Socrates is a man".to_string(),
        ];
        let named = in_user_names(proof, &t.symbols, &premises, "socrates_dies", "dir/p.p");
        assert_eq!(
            named,
            "# SZS output start CNFRefutation\n\
             fof(men_are_mortal, axiom, ![X1]:('Man'(X1)=>mortal(X1)), file('dir/p.p', men_are_mortal)).\n\
             fof(socrates_dies, conjecture, mortal(socrates), file('dir/p.p', socrates_dies)).\n\
             cnf(c_0_3, negated_conjecture, (~mortal(socrates)), inference(fof_nnf,[status(thm)],[socrates_dies])).\n\
             cnf(c_0_4, plain, (mortal(X1)|~'Man'(X1)), inference(split_conjunct,[status(thm)],[men_are_mortal])).\n\
             # SZS output end CNFRefutation\n"
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
    }
}

//! TPTP problem files in the FOF and CNF languages, read into the formula
//! AST of the Prover9 reader ([`crate::syntax::prover9::Formula`]).
//!
//! [`parse`] reads one file's statements, [`load`] a problem with its
//! `include`s resolved, [`parse_formula`] one FOF formula. [`Fof`] prints a
//! formula as TPTP that parses back to an equal AST. The accepted language
//! is specified in `grammar/tptp.md`; typed (TFF), higher-order (THF) and
//! arithmetic TPTP are refused with a message saying so.

mod lexer;
mod parser;

use crate::syntax::prover9::{Formula, Quantifier, Term};
use crate::syntax::{Pos, SyntaxError};
use parser::Parser;
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// The language of an annotated formula.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    /// `fof(..)`: a closed first-order formula.
    Fof,
    /// `cnf(..)`: a clause, its variables implicitly universally closed.
    Cnf,
}

/// The role of an annotated formula (TPTP's `formula_role`), the ones that
/// state a first-order problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// `axiom`
    Axiom,
    /// `hypothesis`
    Hypothesis,
    /// `definition`
    Definition,
    /// `assumption`
    Assumption,
    /// `lemma`
    Lemma,
    /// `theorem`
    Theorem,
    /// `corollary`
    Corollary,
    /// `conjecture`: the formula to prove.
    Conjecture,
    /// `negated_conjecture`: an assumption that is the negation of what is
    /// to be proved (CNF problems state their goal this way).
    NegatedConjecture,
    /// `plain`
    Plain,
}

impl Role {
    const ALL: [(Role, &'static str); 10] = [
        (Role::Axiom, "axiom"),
        (Role::Hypothesis, "hypothesis"),
        (Role::Definition, "definition"),
        (Role::Assumption, "assumption"),
        (Role::Lemma, "lemma"),
        (Role::Theorem, "theorem"),
        (Role::Corollary, "corollary"),
        (Role::Conjecture, "conjecture"),
        (Role::NegatedConjecture, "negated_conjecture"),
        (Role::Plain, "plain"),
    ];

    /// The role called `name` in TPTP.
    pub fn from_name(name: &str) -> Option<Role> {
        Role::ALL.iter().find(|(_, n)| *n == name).map(|(r, _)| *r)
    }

    /// Its TPTP name.
    pub fn name(self) -> &'static str {
        Role::ALL
            .iter()
            .find(|(r, _)| *r == self)
            .map_or("axiom", |(_, n)| n)
    }
}

/// One `fof(..)` or `cnf(..)` statement.
///
/// Equality ignores `pos`, as in [`crate::syntax::prover9::Entry`].
#[derive(Debug, Clone)]
pub struct Annotated {
    /// FOF or CNF.
    pub language: Language,
    /// The formula's name, as written (a quoted name keeps its quotes).
    pub name: String,
    /// Its role.
    pub role: Role,
    /// The formula; a clause is a disjunction of literals with free variables.
    pub formula: Formula,
    /// Where the statement starts.
    pub pos: Pos,
}

impl PartialEq for Annotated {
    fn eq(&self, other: &Annotated) -> bool {
        (self.language, &self.name, self.role, &self.formula)
            == (other.language, &other.name, other.role, &other.formula)
    }
}

/// `include('file')` or `include('file', [names])`.
#[derive(Debug, Clone, PartialEq)]
pub struct Include {
    /// The file name as written, quotes removed.
    pub path: String,
    /// Only the formulas with these names, when a list is given.
    pub names: Option<Vec<String>>,
    /// Where the statement starts.
    pub pos: Pos,
}

/// A top-level statement of a TPTP file.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// `fof(..)` or `cnf(..)`
    Formula(Annotated),
    /// `include(..)`
    Include(Include),
}

/// Reads the statements of one TPTP file (includes are not followed).
pub fn parse(src: &str) -> Result<Vec<Statement>, SyntaxError> {
    Parser::new(src)?.statements()
}

/// Reads one closed FOF formula, e.g. `! [X] : (p(X) => q(X))`, with an
/// optional trailing `.`.
pub fn parse_formula(src: &str) -> Result<Formula, SyntaxError> {
    let mut parser = Parser::new(src)?;
    let f = parser.logic_formula()?;
    parser.end()?;
    Ok(f)
}

/// A problem: its annotated formulas, includes followed, in file order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Problem {
    /// Every `fof`/`cnf` statement of the file and of what it includes.
    pub formulas: Vec<Annotated>,
}

impl Problem {
    /// The distinct objects (`"text"`) and integers the formulas use,
    /// sorted. TPTP makes distinct objects pairwise unequal, and E reads
    /// FOF integers the same way.
    pub fn distinct_objects(&self) -> Vec<String> {
        fn term(t: &Term, out: &mut BTreeSet<String>) {
            if let Term::App(name, args) = t {
                if name.starts_with('"') || parser::is_integer(name) {
                    out.insert(name.clone());
                }
                args.iter().for_each(|a| term(a, out));
            }
        }
        fn formula(f: &Formula, out: &mut BTreeSet<String>) {
            match f {
                Formula::True | Formula::False => {}
                Formula::Atom(t) => term(t, out),
                Formula::Not(g) | Formula::Quant(_, _, g) => formula(g, out),
                Formula::And(a, b)
                | Formula::Or(a, b)
                | Formula::Implies(a, b)
                | Formula::ImpliedBy(a, b)
                | Formula::Iff(a, b) => {
                    formula(a, out);
                    formula(b, out);
                }
            }
        }
        let mut out = BTreeSet::new();
        self.formulas
            .iter()
            .for_each(|a| formula(&a.formula, &mut out));
        out.into_iter().collect()
    }

    /// Axioms that make the distinct objects pairwise unequal, growing
    /// (almost) linearly with their number: `a != b` for each pair when
    /// there are at most [`PAIRWISE_DISTINCT`] objects; beyond that, object
    /// `i` is given its number in binary by unit literals over
    /// `⌈log2 n⌉` fresh unary predicates (`b_j(o)` or `~b_j(o)`), so two
    /// objects differ on some predicate and cannot be equal: `n·⌈log2 n⌉`
    /// ground units (36,000 for 3,000 objects) instead of `n(n-1)/2`
    /// disequalities (4.5 million). The fresh predicates are named
    /// `distinct_object_bit<j>` (with more `_` if the problem uses such a
    /// name). `objects` are the problem's [`Problem::distinct_objects`],
    /// which the caller has at hand (finding them walks every formula).
    pub fn distinct_object_encoding(&self, objects: &[String]) -> Vec<Formula> {
        if objects.len() <= PAIRWISE_DISTINCT {
            return pairwise_unequal(objects);
        }
        let bits = usize::BITS - (objects.len() - 1).leading_zeros();
        let mut prefix = "distinct_object_bit".to_string();
        while self.uses_symbol_prefix(&prefix) {
            prefix.push('_');
        }
        let mut out = Vec::with_capacity(objects.len() * bits as usize);
        for (i, o) in objects.iter().enumerate() {
            for j in 0..bits {
                let atom = Formula::Atom(Term::App(
                    format!("{prefix}{j}"),
                    vec![Term::App(o.clone(), vec![])],
                ));
                out.push(if (i >> j) & 1 == 1 {
                    atom
                } else {
                    Formula::not(atom)
                });
            }
        }
        out
    }

    /// Whether a predicate or function name of the problem starts with `prefix`.
    fn uses_symbol_prefix(&self, prefix: &str) -> bool {
        fn term(t: &Term, prefix: &str) -> bool {
            match t {
                Term::Var(_) => false,
                Term::App(name, args) => {
                    name.starts_with(prefix) || args.iter().any(|a| term(a, prefix))
                }
            }
        }
        fn formula(f: &Formula, prefix: &str) -> bool {
            match f {
                Formula::True | Formula::False => false,
                Formula::Atom(t) => term(t, prefix),
                Formula::Not(g) | Formula::Quant(_, _, g) => formula(g, prefix),
                Formula::And(a, b)
                | Formula::Or(a, b)
                | Formula::Implies(a, b)
                | Formula::ImpliedBy(a, b)
                | Formula::Iff(a, b) => formula(a, prefix) || formula(b, prefix),
            }
        }
        self.formulas.iter().any(|a| formula(&a.formula, prefix))
    }

    /// `a != b` for each pair of distinct objects.
    pub fn distinct_object_axioms(&self) -> Vec<Formula> {
        pairwise_unequal(&self.distinct_objects())
    }
}

/// `a != b` for each pair of `objects`.
fn pairwise_unequal(objects: &[String]) -> Vec<Formula> {
    let mut out = Vec::new();
    for (i, a) in objects.iter().enumerate() {
        for b in &objects[i + 1..] {
            out.push(Formula::not(Formula::Atom(Term::App(
                "=".into(),
                vec![Term::App(a.clone(), vec![]), Term::App(b.clone(), vec![])],
            ))));
        }
    }
    out
}

/// The most distinct objects made unequal pair by pair (120 disequalities);
/// more are numbered in binary (see [`Problem::distinct_object_encoding`]).
pub const PAIRWISE_DISTINCT: usize = 16;

/// How deep includes may nest (a cycle is caught by this too).
const MAX_INCLUDE_DEPTH: usize = 32;

/// Reads the problem in `path`, following its includes.
///
/// An included file is looked up relative to the including file's directory
/// and then each of its ancestors (so `Problems/SET/SET001+1.p` finds
/// `Axioms/SET005+0.ax` at the root of a TPTP tree), and then under `tptp`
/// (the `$TPTP` directory, when the caller gives one).
pub fn load(path: &Path, tptp: Option<&Path>) -> Result<Problem, SyntaxError> {
    load_text(path, &read(path)?, tptp)
}

/// Reads the problem whose text `src` was read from `path`, following its
/// includes as [`load`] does: for a caller that has read the file already.
pub fn load_text(path: &Path, src: &str, tptp: Option<&Path>) -> Result<Problem, SyntaxError> {
    let mut problem = Problem::default();
    load_text_into(path, src, None, tptp, 0, &mut problem.formulas)?;
    Ok(problem)
}

/// The text of the file at `path`.
fn read(path: &Path) -> Result<String, SyntaxError> {
    std::fs::read_to_string(path).map_err(|e| SyntaxError {
        file: Some(path.display().to_string()),
        pos: Pos {
            offset: 0,
            line: 1,
            col: 1,
        },
        message: format!("cannot read: {e}"),
    })
}

fn load_text_into(
    path: &Path,
    src: &str,
    selection: Option<&BTreeSet<String>>,
    tptp: Option<&Path>,
    depth: usize,
    out: &mut Vec<Annotated>,
) -> Result<(), SyntaxError> {
    let file = path.display().to_string();
    let statements = parse(src).map_err(|e| e.in_file(&file))?;
    for statement in statements {
        match statement {
            Statement::Formula(a) => {
                if selection.is_none_or(|names| names.contains(&a.name)) {
                    out.push(a);
                }
            }
            Statement::Include(inc) => {
                let fail = |message: String| SyntaxError {
                    file: Some(file.clone()),
                    pos: inc.pos,
                    message,
                };
                if depth >= MAX_INCLUDE_DEPTH {
                    return Err(fail(format!(
                        "includes nest deeper than {MAX_INCLUDE_DEPTH} (a cycle?)"
                    )));
                }
                let found = resolve(path, &inc.path, tptp).ok_or_else(|| {
                    fail(format!(
                        "cannot find `{}` in the file's directory, its parents{}",
                        inc.path,
                        if tptp.is_some() {
                            " or $TPTP"
                        } else {
                            " (and $TPTP is not set)"
                        }
                    ))
                })?;
                let names: Option<BTreeSet<String>> =
                    inc.names.as_ref().map(|n| n.iter().cloned().collect());
                // An include within a selected include is read whole, then
                // filtered by the outer selection too.
                let mut inner = Vec::new();
                load_text_into(
                    &found,
                    &read(&found)?,
                    names.as_ref(),
                    tptp,
                    depth + 1,
                    &mut inner,
                )?;
                out.extend(
                    inner
                        .into_iter()
                        .filter(|a| selection.is_none_or(|s| s.contains(&a.name))),
                );
            }
        }
    }
    Ok(())
}

/// Where an include of `name` from `from` is: see [`load`].
fn resolve(from: &Path, name: &str, tptp: Option<&Path>) -> Option<PathBuf> {
    let dir = from.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    dir.ancestors()
        .map(|d| d.join(name))
        .chain(tptp.map(|t| t.join(name)))
        .find(|p| p.is_file())
}

/// Whether `text` looks like TPTP: its first token, after comments, is
/// `fof(`, `cnf(`, `include(` or another TPTP statement keyword.
pub fn looks_like_tptp(text: &str) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.starts_with('%') {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
        } else {
            break;
        }
    }
    ["fof", "cnf", "include", "tff", "thf", "tcf"]
        .iter()
        .any(|k| {
            rest.strip_prefix(k)
                .is_some_and(|r| r.trim_start().starts_with('('))
        })
}

/// Prints a formula as TPTP FOF: every binary connective and equation in
/// parentheses, `~` and quantifiers before a unit formula. Names print as
/// they are, so the text is TPTP (and parses back to an equal formula)
/// when the formula was read from TPTP or uses TPTP names.
pub struct Fof<'a>(pub &'a Formula);

impl fmt::Display for Fof<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_formula(f, self.0)
    }
}

fn write_term(f: &mut fmt::Formatter<'_>, t: &Term) -> fmt::Result {
    match t {
        Term::Var(v) => f.write_str(v),
        Term::App(name, args) => {
            f.write_str(name)?;
            if !args.is_empty() {
                f.write_str("(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_term(f, a)?;
                }
                f.write_str(")")?;
            }
            Ok(())
        }
    }
}

fn write_formula(f: &mut fmt::Formatter<'_>, formula: &Formula) -> fmt::Result {
    let binary = |f: &mut fmt::Formatter<'_>, a: &Formula, op: &str, b: &Formula| {
        f.write_str("(")?;
        write_formula(f, a)?;
        f.write_str(op)?;
        write_formula(f, b)?;
        f.write_str(")")
    };
    match formula {
        Formula::True => f.write_str("$true"),
        Formula::False => f.write_str("$false"),
        Formula::Atom(Term::App(name, args)) if name == "=" && args.len() == 2 => {
            f.write_str("(")?;
            write_term(f, &args[0])?;
            f.write_str(" = ")?;
            write_term(f, &args[1])?;
            f.write_str(")")
        }
        Formula::Atom(t) => write_term(f, t),
        Formula::Not(g) => {
            f.write_str("~ ")?;
            write_formula(f, g)
        }
        Formula::And(a, b) => binary(f, a, " & ", b),
        Formula::Or(a, b) => binary(f, a, " | ", b),
        Formula::Implies(a, b) => binary(f, a, " => ", b),
        Formula::ImpliedBy(a, b) => binary(f, a, " <= ", b),
        Formula::Iff(a, b) => binary(f, a, " <=> ", b),
        Formula::Quant(q, v, body) => {
            f.write_str(match q {
                Quantifier::All => "! [",
                Quantifier::Exists => "? [",
            })?;
            f.write_str(v)?;
            f.write_str("] : ")?;
            write_formula(f, body)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_vectors_hold_exactly_their_arguments() {
        // A pushed-to empty vector reserves four: deep terms took 4x their memory.
        fn check(t: &Term) {
            if let Term::App(_, args) = t {
                assert_eq!(args.capacity(), args.len(), "{t}");
                args.iter().for_each(check);
            }
        }
        let statements =
            parse("cnf(a, axiom, p(f(f(a)), g(b, c, d), h(X, e, f(X)))).").expect("parses");
        let Statement::Formula(a) = &statements[0] else {
            panic!("a formula")
        };
        let Formula::Atom(atom) = &a.formula else {
            panic!("an atom: {:?}", a.formula)
        };
        check(atom);
    }

    #[test]
    fn looks_like_tptp_skips_comments() {
        assert!(looks_like_tptp("% c\n/* x */ fof (a, axiom, p)."));
        assert!(looks_like_tptp("include('Axioms/A.ax')."));
        assert!(!looks_like_tptp(
            "formulas(assumptions).\np.\nend_of_list.\n"
        ));
        assert!(!looks_like_tptp("% fof(a, axiom, p).\n"));
    }
}

//! First-order logic as natural-language-to-logic pipelines write it
//! (FOLIO, Logic-LM, LINC): `∀x (Student(x) → ¬Lazy(x))`, in Unicode or
//! ASCII, read into the Prover9 AST.
//!
//! # Formulas
//!
//! | connective | spellings |
//! |---|---|
//! | negation | `¬` `~` `!` `-` `not` |
//! | conjunction | `∧` `&` `&&` `/\` `and` |
//! | disjunction | `∨` `\|` `\|\|` `\/` `or` |
//! | exclusive or | `⊕` `⊻` `^` `xor` (`a ⊕ b` is `¬(a ↔ b)`) |
//! | implication | `→` `->` `=>` `⇒` `implies` |
//! | equivalence | `↔` `<->` `<=>` `⇔` `iff` |
//! | quantifiers | `∀x` `forall x` `all x.`, `∃x` `exists x` |
//! | equality | `=` `==`, `≠` `!=` |
//!
//! Precedence, tightest first: `¬`, `∧`, `∨` and `⊕` (one level, left to
//! right), `→` (right-associative), `↔` (left to right). Brackets `()`,
//! `[]` and `{}` group. A quantifier may stand wherever a formula may
//! (`A ∧ ∀x B(x)`, `¬∃x P(x)`) and takes one or more variables (`∀x ∀y`,
//! `∀x,y`, `all x y.`). Its scope: a bracketed body directly after the
//! variables (`∀x (P(x) → Q(x)) ∧ R(a)`) is the scope, unless a variable it
//! binds is used after the bracket, in which case (and for a body without
//! brackets) the scope runs as far right as possible.
//!
//! # Names
//!
//! A name bound by an enclosing quantifier is a variable; every other name
//! is a constant, a function or a predicate, whatever its spelling
//! (`Study(yale)` is about Yale). The one exception is an unbound name of
//! one letter from u to z (`x`, `y1`): that is a free variable, read as
//! universally quantified over its whole premise, as Prover9 and NLTK read
//! it, and the program's notes say so. A symbol keeps one number of
//! arguments throughout a program; a second arity is an error.
//!
//! # Programs
//!
//! [`parse_program`] reads the text models write: `Predicates:`,
//! `Premises:` and `Conclusion:` sections, each line optionally followed by
//! ` ::: ` and its English (Logic-LM's format); or LINC's `FOL:` lines (the
//! last is the conclusion); or JSON with a `premises` list (or FOLIO's
//! `premises-FOL`) and a `conclusion` (`conclusion-FOL`). Errors carry the
//! line and column in that text and say what was expected.

mod lexer;
mod parser;

use crate::syntax::prover9::Formula;
use crate::syntax::SyntaxError;
use parser::Role;
use std::collections::BTreeMap;

/// One premise or the conclusion.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// The formula (free variables are universally closed when proved).
    pub formula: Formula,
    /// The formula as written.
    pub text: String,
    /// The English after ` ::: `, if any.
    pub english: Option<String>,
    /// The 1-based line of the program it is on.
    pub line: u32,
}

/// A program: premises, one conclusion, and notes on how it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The premises in order.
    pub premises: Vec<Statement>,
    /// The conclusion.
    pub conclusion: Statement,
    /// How names and scopes were read where the text left a choice (free
    /// variables, widened quantifier scopes), one line each.
    pub notes: Vec<String>,
}

/// Reads one formula on its own, e.g. `∀x (P(x) → Q(x))`.
pub fn parse_formula(src: &str) -> Result<Formula, SyntaxError> {
    let mut reader = Reader::new(src);
    let f = reader.formula(0, src.len(), None)?;
    reader.check_symbols()?;
    Ok(f)
}

/// Reads a program from text (sections or `FOL:` lines) or JSON (see the
/// module documentation).
pub fn parse_program(src: &str) -> Result<Program, SyntaxError> {
    let trimmed = src.trim_start_matches('\u{feff}').trim();
    if trimmed.starts_with('{') {
        return parse_json(trimmed);
    }
    parse_text(src)
}

/// Reads a program given as its premises and conclusion. Errors are placed
/// on line N for premise N and on the line after the last premise for the
/// conclusion.
pub fn parse_parts(premises: &[String], conclusion: &str) -> Result<Program, SyntaxError> {
    let mut text = String::new();
    let mut spans = Vec::new();
    for p in premises.iter().map(String::as_str).chain([conclusion]) {
        // A premise spanning lines is one formula all the same.
        let one = p.replace(['\n', '\r'], " ");
        spans.push((text.len(), text.len() + one.len()));
        text.push_str(&one);
        text.push('\n');
    }
    let mut reader = Reader::new(&text);
    let mut statements = Vec::new();
    for (i, &(start, end)) in spans.iter().enumerate() {
        let what = if i < premises.len() {
            format!("premise {}", i + 1)
        } else {
            "the conclusion".to_string()
        };
        let formula = reader
            .formula(start, end, Some(what.as_str()))
            .map_err(|e| prefixed(e, &what))?;
        statements.push(Statement {
            formula,
            text: text[start..end].trim().to_string(),
            english: None,
            line: i as u32 + 1,
        });
    }
    reader.check_symbols()?;
    let conclusion = statements
        .pop()
        .ok_or_else(|| SyntaxError::at("", 0, "no conclusion"))?;
    Ok(Program {
        premises: statements,
        conclusion,
        notes: reader.notes,
    })
}

fn prefixed(mut e: SyntaxError, what: &str) -> SyntaxError {
    e.message = format!("in {what}: {}", e.message);
    e
}

fn parse_json(src: &str) -> Result<Program, SyntaxError> {
    let value: serde_json::Value = serde_json::from_str(src).map_err(|e| SyntaxError {
        file: None,
        pos: crate::syntax::Pos {
            offset: 0,
            line: e.line() as u32,
            col: e.column() as u32,
        },
        message: format!("invalid JSON: {e}"),
    })?;
    let top = |m: &str| SyntaxError::at(src, 0, m.to_string());
    let field = |names: &[&str]| names.iter().find_map(|n| value.get(*n));
    let premises = match field(&["premises", "premises-FOL", "premises_fol"]) {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| top("every premise must be a string"))
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(serde_json::Value::String(s)) => s
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect(),
        Some(_) => return Err(top("\"premises\" must be a list of strings")),
        None => return Err(top("no \"premises\" field (a list of formulas)")),
    };
    let conclusion = match field(&["conclusion", "conclusion-FOL", "conclusion_fol"]) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(_) => return Err(top("\"conclusion\" must be a string")),
        None => return Err(top("no \"conclusion\" field (a formula)")),
    };
    parse_parts(&premises, &conclusion)
}

/// The section a header line opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Predicates,
    Premises,
    Conclusion,
    Other,
}

/// The section a line opens, and where its own text (after the `:`) starts.
fn header(line: &str) -> Option<(Section, usize)> {
    let stripped = line.trim_start_matches(|c: char| c == '#' || c == '*' || c.is_whitespace());
    let lead = line.len() - stripped.len();
    let colon = stripped.find(':')?;
    let name: String = stripped[..colon]
        .trim_matches(|c: char| c == '*' || c.is_whitespace())
        .to_lowercase();
    let rest = lead + colon + 1;
    let rest = rest + line[rest..].len() - line[rest..].trim_start_matches('*').len();
    let section = match name.as_str() {
        "predicates" | "predicate" => Section::Predicates,
        "premises" | "premise" | "fol premises" | "first-order logic premises" => Section::Premises,
        "conclusion" | "conclusions" | "fol conclusion" | "first-order logic conclusion" => {
            Section::Conclusion
        }
        "constants" | "functions" | "explanation" | "translation" => Section::Other,
        _ => return None,
    };
    Some((section, rest))
}

/// The byte range of a statement's formula within `line` (bullets,
/// numbering and the ` ::: ` English removed), and the English.
fn statement_span(line: &str) -> Option<((usize, usize), Option<String>)> {
    let (formula_part, english) = match line.find(":::") {
        Some(at) => (&line[..at], Some(line[at + 3..].trim().to_string())),
        None => (line, None),
    };
    let trimmed = formula_part.trim_start();
    let mut start = formula_part.len() - trimmed.len();
    let rest = &formula_part[start..];
    // `1.`, `1)`, `(1)`, `- `, `* `, `• ` before the formula.
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && matches!(rest[digits..].chars().next(), Some('.' | ')')) {
        start += digits + 1;
    } else if rest.starts_with("- ") || rest.starts_with("* ") || rest.starts_with("• ") {
        start += rest.chars().next().map_or(1, char::len_utf8);
    }
    start += formula_part[start..].len() - formula_part[start..].trim_start().len();
    let end = formula_part.trim_end().len();
    if start >= end {
        return None;
    }
    Some(((start, end), english.filter(|e| !e.is_empty())))
}

fn parse_text(src: &str) -> Result<Program, SyntaxError> {
    let mut reader = Reader::new(src);
    let mut premises: Vec<Statement> = Vec::new();
    let mut conclusions: Vec<Statement> = Vec::new();
    let mut linc: Vec<Statement> = Vec::new();
    let mut section = None;
    let mut offset = 0;
    // `Predicates:` lines: name → (arity, line), compared with the uses.
    let mut declared: BTreeMap<String, (usize, u32)> = BTreeMap::new();
    // Prose before the first section header (a model's preamble) is skipped.
    let first_header = src.split('\n').position(|l| header(l).is_some());
    // LINC: `FOL:` lines among English ones; only the `FOL:` lines count.
    let linc_only =
        first_header.is_none() && src.split('\n').any(|l| l.trim_start().starts_with("FOL:"));
    for (index, raw) in src.split('\n').enumerate() {
        let line_start = offset;
        offset += raw.len() + 1;
        if first_header.is_some_and(|h| index < h) {
            continue;
        }
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let number = index as u32 + 1;
        let t = line.trim();
        if t.is_empty() || t.starts_with("```") || (t.starts_with('<') && t.ends_with('>')) {
            continue;
        }
        if t.starts_with("TEXT:") {
            continue;
        }
        let mut body = (0, line.len());
        if t.starts_with("FOL:") {
            let at = line.len() - line.trim_start().len() + "FOL:".len();
            if let Some(((s, e), english)) = statement_span(&line[at..]) {
                let (s, e) = (line_start + at + s, line_start + at + e);
                let formula = reader.formula(s, e, None)?;
                linc.push(Statement {
                    formula,
                    text: src[s..e].to_string(),
                    english,
                    line: number,
                });
            }
            continue;
        }
        if let Some((opened, rest)) = header(line) {
            section = Some(opened);
            body = (rest, line.len());
        }
        let Some(current) = section else {
            if linc_only {
                continue;
            }
            return Err(SyntaxError::at(
                src,
                line_start,
                "expected a `Premises:` section (then `Conclusion:`), or `FOL:` lines, \
                 before any formula",
            ));
        };
        if current == Section::Predicates {
            if let Some((name, arity)) = declaration(&line[body.0..body.1]) {
                declared.entry(name).or_insert((arity, number));
            }
            continue;
        }
        if current == Section::Other {
            continue;
        }
        let Some(((s, e), english)) = statement_span(&line[body.0..body.1]) else {
            continue;
        };
        let (s, e) = (line_start + body.0 + s, line_start + body.0 + e);
        let formula = reader.formula(s, e, None)?;
        let statement = Statement {
            formula,
            text: src[s..e].to_string(),
            english,
            line: number,
        };
        match current {
            Section::Premises => premises.push(statement),
            _ => conclusions.push(statement),
        }
    }
    let at_end = |m: &str| SyntaxError::at(src, src.len(), m.to_string());
    if premises.is_empty() && conclusions.is_empty() && !linc.is_empty() {
        // LINC: every `FOL:` line a premise but the last, the conclusion.
        let conclusion = linc.pop().ok_or_else(|| at_end("no formulas"))?;
        reader.check_symbols()?;
        return Ok(Program {
            premises: linc,
            conclusion,
            notes: reader.notes,
        });
    }
    if conclusions.len() > 1 {
        let second = &conclusions[1];
        return Err(SyntaxError::at(
            src,
            line_offset(src, second.line),
            format!(
                "found {} conclusions: give exactly one formula under `Conclusion:`",
                conclusions.len()
            ),
        ));
    }
    let conclusion = conclusions.pop().ok_or_else(|| {
        at_end("expected a `Conclusion:` section with one formula, found the end of the program")
    })?;
    reader.check_symbols()?;
    reader.compare_declarations(&declared);
    Ok(Program {
        premises,
        conclusion,
        notes: reader.notes,
    })
}

fn line_offset(src: &str, line: u32) -> usize {
    src.split('\n')
        .take(line.saturating_sub(1) as usize)
        .map(|l| l.len() + 1)
        .sum()
}

/// Where a symbol was first used: arity, role and byte offset.
type FirstUse = (usize, Role, usize);

/// Reads the formulas of one program against one symbol table.
struct Reader<'a> {
    src: &'a str,
    /// Symbol name and role → first use.
    symbols: BTreeMap<(String, Role), FirstUse>,
    /// Name and arity → role and offset of the first use.
    roles: BTreeMap<(String, usize), (Role, usize)>,
    notes: Vec<String>,
    error: Option<SyntaxError>,
}

impl<'a> Reader<'a> {
    fn new(src: &'a str) -> Reader<'a> {
        Reader {
            src,
            symbols: BTreeMap::new(),
            roles: BTreeMap::new(),
            notes: Vec::new(),
            error: None,
        }
    }

    fn column(&self, at: usize) -> String {
        let p = crate::syntax::Pos::of_offset(self.src, at);
        format!("line {}, column {}", p.line, p.col)
    }

    /// The formula at `src[start..end]`, its symbols recorded.
    fn formula(
        &mut self,
        start: usize,
        end: usize,
        what: Option<&str>,
    ) -> Result<Formula, SyntaxError> {
        let text = &self.src[start..end];
        let parsed =
            parser::parse(text).map_err(|(at, m)| SyntaxError::at(self.src, start + at, m))?;
        let place = match what {
            Some(w) => w.to_string(),
            None => format!(
                "the formula on line {}",
                crate::syntax::Pos::of_offset(self.src, start).line
            ),
        };
        for v in &parsed.free {
            self.notes.push(format!(
                "`{v}` is not bound by a quantifier in {}: read as ∀{v} over the whole formula",
                place
            ));
        }
        for &q in &parsed.widened {
            let column = text[..q].chars().count() + 1;
            self.notes.push(format!(
                "the quantifier at column {column} of {} binds a variable used after its brackets: its scope was read as the rest of the formula",
                place
            ));
        }
        for u in &parsed.uses {
            if self.error.is_some() {
                break;
            }
            let at = start + u.at;
            let kind = match u.role {
                Role::Predicate => "predicate",
                Role::Function => "function or constant",
            };
            match self.symbols.get(&(u.name.clone(), u.role)) {
                Some(&(arity, _, first)) if arity != u.arity => {
                    self.error = Some(SyntaxError::at(
                        self.src,
                        at,
                        format!(
                            "{kind} `{}` has {} here but {} at {}: a symbol must always take the same number of arguments (rename one of them)",
                            u.name,
                            arguments(u.arity),
                            arguments(arity),
                            self.column(first)
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    self.symbols
                        .insert((u.name.clone(), u.role), (u.arity, u.role, at));
                }
            }
            match self.roles.get(&(u.name.clone(), u.arity)) {
                Some(&(role, first)) if role != u.role && self.error.is_none() => {
                    let (this, that) = match u.role {
                        Role::Predicate => ("a predicate", "an argument (a constant or function)"),
                        Role::Function => ("an argument (a constant or function)", "a predicate"),
                    };
                    self.error = Some(SyntaxError::at(
                        self.src,
                        at,
                        format!(
                            "`{}` is used as {this} here but as {that} at {}: give the two different names",
                            u.name,
                            self.column(first)
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    self.roles.insert((u.name.clone(), u.arity), (u.role, at));
                }
            }
        }
        Ok(parsed.formula)
    }

    /// Notes where the predicates used differ from those the `Predicates:`
    /// section declares: a second arity, or a name never declared (often a
    /// typo that leaves the conclusion unconnected). Notes, not errors:
    /// the formulas alone define the problem, as the pipelines read it.
    fn compare_declarations(&mut self, declared: &BTreeMap<String, (usize, u32)>) {
        if declared.is_empty() {
            return;
        }
        let used: Vec<(String, usize, usize)> = self
            .symbols
            .iter()
            .filter(|((_, role), _)| *role == Role::Predicate)
            .map(|((name, _), &(arity, _, at))| (name.clone(), arity, at))
            .collect();
        for (name, arity, at) in used {
            let note = match declared.get(&name) {
                Some(&(d, _)) if d == arity => continue,
                Some(&(d, line)) => format!(
                    "predicate `{name}` is declared with {} on line {line} but used with {} at {}",
                    arguments(d),
                    arguments(arity),
                    self.column(at)
                ),
                None => format!(
                    "predicate `{name}` (at {}) is not declared under `Predicates:`",
                    self.column(at)
                ),
            };
            self.notes.push(note);
        }
    }

    fn check_symbols(&mut self) -> Result<(), SyntaxError> {
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// A `Predicates:` line's symbol and arity: `Drinks(x) ::: …` is
/// `("Drinks", 1)`, `Raining ::: …` is `("Raining", 0)`.
fn declaration(line: &str) -> Option<(String, usize)> {
    let text = line.split(":::").next()?.trim();
    let text = text.trim_start_matches(['-', '*', '•']).trim_start();
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let name = &text[..end];
    if name.is_empty() || !name.starts_with(|c: char| c.is_alphabetic()) {
        return None;
    }
    let rest = text[end..].trim_start();
    let Some(args) = rest.strip_prefix('(') else {
        return rest.is_empty().then(|| (name.to_string(), 0));
    };
    let close = args.find(')')?;
    let inside = args[..close].trim();
    let arity = if inside.is_empty() {
        0
    } else {
        inside.split(',').count()
    };
    Some((name.to_string(), arity))
}

fn arguments(n: usize) -> String {
    match n {
        0 => "no arguments".into(),
        1 => "1 argument".into(),
        n => format!("{n} arguments"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOGIC_LM: &str = "Predicates:\n\
Dependent(x) ::: x is a person dependent on caffeine.\n\
Drinks(x) ::: x regularly drinks coffee.\n\
Premises:\n\
∀x (Drinks(x) → Dependent(x)) ::: All people who regularly drink coffee are dependent on caffeine.\n\
Drinks(yale) ::: Yale drinks coffee.\n\
Conclusion:\n\
Dependent(yale) ::: Yale is dependent on caffeine.\n";

    #[test]
    fn logic_lm_programs_read_with_their_english() {
        let p = parse_program(LOGIC_LM).expect("reads");
        assert_eq!(p.premises.len(), 2);
        assert_eq!(p.premises[1].text, "Drinks(yale)");
        assert_eq!(
            p.premises[1].english.as_deref(),
            Some("Yale drinks coffee.")
        );
        assert_eq!(p.premises[1].line, 6);
        assert_eq!(p.conclusion.text, "Dependent(yale)");
        assert!(p.notes.is_empty());
    }

    #[test]
    fn uses_unlike_the_declarations_are_noted() {
        let p = parse_program(
            "Predicates:\nDrinks(x) ::: x drinks coffee.\nLikes(x, y) ::: x likes y.\n\
             Premises:\n∀x (Drinks(x) → Awake(x))\nLikes(ann)\nConclusion:\nAwake(ann)\n",
        )
        .expect("reads");
        assert_eq!(
            p.notes,
            [
                "predicate `Awake` (at line 5, column 17) is not declared under `Predicates:`",
                "predicate `Likes` is declared with 2 arguments on line 3 but used with 1 argument at line 6, column 1",
            ]
        );
        assert_eq!(
            declaration("Raining ::: it rains."),
            Some(("Raining".into(), 0))
        );
        assert_eq!(declaration("- Owns(x, y, z)"), Some(("Owns".into(), 3)));
        assert_eq!(declaration("::: nothing"), None);
    }

    #[test]
    fn json_and_linc_programs() {
        let p = parse_program(
            r#"{"premises": ["∀x (A(x) → B(x))", "A(max)"], "conclusion": "B(max)"}"#,
        )
        .expect("reads");
        assert_eq!(p.premises.len(), 2);
        let q = parse_program(
            "<EVALUATE>\nTEXT: All a are b.\nFOL: all x. (A(x) -> B(x))\nTEXT: Max is a.\nFOL: A(max)\nFOL: B(max)\n</EVALUATE>\n",
        )
        .expect("reads");
        assert_eq!(q.premises.len(), 2);
        assert_eq!(p.premises[0].formula, q.premises[0].formula);
        assert_eq!(p.conclusion.formula, q.conclusion.formula);
    }

    #[test]
    fn errors_have_line_and_column() {
        let e = parse_program("Premises:\nP(a)\n∀x (P(x) → )\nConclusion:\nP(a)\n")
            .expect_err("refused");
        assert_eq!((e.pos.line, e.pos.col), (3, 12));
        assert!(e.message.starts_with("expected a formula"), "{}", e.message);
        let e =
            parse_program("Premises:\nOwns(a, b)\nConclusion:\nOwns(a)\n").expect_err("refused");
        assert_eq!((e.pos.line, e.pos.col), (4, 1));
        assert_eq!(
            e.message,
            "predicate `Owns` has 1 argument here but 2 arguments at line 2, column 1: a symbol must always take the same number of arguments (rename one of them)"
        );
        let e = parse_parts(&["P(a)".into(), "Q(".into()], "P(a)").expect_err("refused");
        assert_eq!(e.pos.line, 2);
        assert!(
            e.message.starts_with("in premise 2: expected a term"),
            "{}",
            e.message
        );
        let e = parse_program("P(a)\n").expect_err("refused");
        assert!(e.message.contains("`Premises:`"), "{}", e.message);
    }

    #[test]
    fn free_variables_are_noted() {
        let p = parse_parts(&["P(x) → Q(x)".into()], "P(a)").expect("reads");
        assert_eq!(
            p.notes,
            ["`x` is not bound by a quantifier in premise 1: read as ∀x over the whole formula"]
        );
    }

    #[test]
    fn numbered_and_bulleted_lines() {
        let p = parse_program("**Premises:**\n1. P(a) ::: one\n- Q(a)\nConclusion: P(a) ∧ Q(a)\n")
            .expect("reads");
        assert_eq!(p.premises.len(), 2);
        assert_eq!(p.conclusion.text, "P(a) ∧ Q(a)");
    }
}

//! A recursive-descent parser for TPTP FOF and CNF (`grammar/tptp.md`).

use super::lexer::{Kind, Lexer, Token};
use super::{Annotated, Include, Language, Role, Statement};
use crate::syntax::prover9::{Formula, Quantifier, Term};
use crate::syntax::{Pos, PosCursor, SyntaxError};

/// Deeper nesting than this is an error, so later recursive passes are safe.
const MAX_DEPTH: usize = 1000;

/// The connectives that do not chain: `a => b => c` needs parentheses.
const NON_ASSOCIATIVE: [&str; 6] = ["<=>", "=>", "<=", "<~>", "~|", "~&"];

pub(crate) struct Parser<'a> {
    src: &'a str,
    lexer: Lexer<'a>,
    /// The token under the cursor (the parser never looks further).
    current: Token<'a>,
    /// The lexer's error, once it failed; `current` is then [`Kind::Bad`].
    lex_error: Option<SyntaxError>,
    depth: usize,
    /// The variables bound at this point of a FOF formula, innermost last.
    bound: Vec<String>,
    /// Whether free variables are allowed (CNF clauses are implicitly closed).
    open: bool,
    /// The statements' positions, worked out incrementally (linear reading).
    positions: PosCursor,
    /// The variables of the CNF clause being read: each becomes a
    /// quantifier when the clause is closed, so they count as nesting.
    clause_vars: std::collections::BTreeSet<String>,
}

type Parsed<T> = Result<T, SyntaxError>;

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str) -> Parsed<Parser<'a>> {
        let mut parser = Parser {
            src,
            lexer: Lexer::new(src),
            current: Token {
                kind: Kind::End,
                offset: 0,
            },
            lex_error: None,
            depth: 0,
            bound: Vec::new(),
            open: false,
            positions: PosCursor::new(),
            clause_vars: std::collections::BTreeSet::new(),
        };
        parser.advance();
        Ok(parser)
    }

    fn peek(&self) -> &Kind<'a> {
        &self.current.kind
    }

    fn offset(&self) -> usize {
        self.current.offset
    }

    /// Moves to the next token. A lexer error stops the cursor on
    /// [`Kind::Bad`], which no rule accepts, so the next [`Parser::error`]
    /// reports it.
    fn advance(&mut self) {
        if self.lex_error.is_some() {
            return;
        }
        match self.lexer.next_token() {
            Ok(token) => self.current = token,
            Err(e) => {
                self.current = Token {
                    kind: Kind::Bad,
                    offset: self.current.offset,
                };
                self.lex_error = Some(e);
            }
        }
    }

    fn error<T>(&self, message: impl Into<String>) -> Parsed<T> {
        if let Some(e) = &self.lex_error {
            return Err(e.clone());
        }
        Err(SyntaxError::at(self.src, self.offset(), message))
    }

    fn describe(&self) -> String {
        let text: &str = match self.peek() {
            Kind::Word(w) => w,
            Kind::Distinct(w) => w,
            Kind::Var(w) | Kind::Dollar(w) | Kind::Number(w) | Kind::Punct(w) => w,
            Kind::End => return "the end of the input".to_string(),
            Kind::Bad => return "an unreadable token".to_string(),
        };
        format!("`{text}`")
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Kind::Punct(q) if *q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        let yes = self.is(p);
        if yes {
            self.advance();
        }
        yes
    }

    fn expect(&mut self, p: &str) -> Parsed<()> {
        if self.eat(p) {
            Ok(())
        } else {
            self.error(format!("expected `{p}`, found {}", self.describe()))
        }
    }

    fn deeper(&mut self) -> Parsed<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.error(format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        Ok(())
    }

    /// A whole file: annotated formulas and includes.
    pub(crate) fn statements(&mut self) -> Parsed<Vec<Statement>> {
        let mut out = Vec::new();
        while *self.peek() != Kind::End {
            out.push(self.statement()?);
        }
        Ok(out)
    }

    fn statement(&mut self) -> Parsed<Statement> {
        let start = self.offset();
        let pos = self.positions.at(self.src, start);
        let keyword = match self.peek() {
            Kind::Word(w) => w.to_string(),
            _ => {
                return self.error(format!(
                    "expected `fof(`, `cnf(` or `include(`, found {}",
                    self.describe()
                ))
            }
        };
        let language = match keyword.as_str() {
            "fof" => Language::Fof,
            "cnf" => Language::Cnf,
            "include" => return self.include(pos),
            "tff" | "thf" | "tcf" | "tpi" => {
                return self.error(format!(
                    "`{keyword}` formulas are not supported: entail reads FOF and CNF (typed and higher-order TPTP are refused)"
                ))
            }
            _ => return self.error(format!("expected `fof(`, `cnf(` or `include(`, found `{keyword}`")),
        };
        self.advance();
        self.expect("(")?;
        let name = self.name()?;
        self.expect(",")?;
        let role = match self.peek() {
            Kind::Word(w) => match Role::from_name(w) {
                Some(r) => r,
                None => {
                    return self.error(format!(
                        "role `{w}` is not supported (axiom, hypothesis, definition, assumption, lemma, theorem, corollary, conjecture, negated_conjecture and plain are)"
                    ))
                }
            },
            _ => return self.error(format!("expected a role, found {}", self.describe())),
        };
        self.advance();
        self.expect(",")?;
        self.open = language == Language::Cnf;
        self.clause_vars.clear();
        let formula = match language {
            Language::Fof => self.logic_formula()?,
            Language::Cnf => self.clause()?,
        };
        if self.clause_vars.len() > MAX_DEPTH {
            return Err(SyntaxError::at(
                self.src,
                start,
                format!(
                    "a clause with {} variables: at most {MAX_DEPTH} are supported",
                    self.clause_vars.len()
                ),
            ));
        }
        if self.eat(",") {
            self.skip_annotations()?;
        }
        self.expect(")")?;
        self.expect(".")?;
        Ok(Statement::Formula(Annotated {
            language,
            name,
            role,
            formula,
            pos,
        }))
    }

    /// `include('file')` or `include('file', [name, ...])`.
    fn include(&mut self, pos: Pos) -> Parsed<Statement> {
        self.advance();
        self.expect("(")?;
        let path = match self.peek() {
            Kind::Word(w) if w.starts_with('\'') => unquote(w),
            Kind::Word(w) => w.to_string(),
            _ => {
                return self.error(format!(
                    "expected a quoted file name, found {}",
                    self.describe()
                ))
            }
        };
        self.advance();
        let mut names = None;
        if self.eat(",") {
            self.expect("[")?;
            let mut list = Vec::new();
            if !self.is("]") {
                loop {
                    list.push(self.name()?);
                    if !self.eat(",") {
                        break;
                    }
                }
            }
            self.expect("]")?;
            names = Some(list);
        }
        self.expect(")")?;
        self.expect(".")?;
        Ok(Statement::Include(Include { path, names, pos }))
    }

    /// A formula name: an atomic word or an integer.
    fn name(&mut self) -> Parsed<String> {
        let name = match self.peek() {
            Kind::Word(w) => w.to_string(),
            Kind::Number(n) => n.to_string(),
            _ => return self.error(format!("expected a name, found {}", self.describe())),
        };
        self.advance();
        Ok(name)
    }

    /// Skips the source and useful-info annotations up to the closing `)`.
    fn skip_annotations(&mut self) -> Parsed<()> {
        let mut open = 0usize;
        loop {
            match self.peek() {
                Kind::End | Kind::Bad => return self.error("unterminated annotations"),
                Kind::Punct("(") | Kind::Punct("[") => open += 1,
                Kind::Punct(")") | Kind::Punct("]") if open == 0 => return Ok(()),
                Kind::Punct(")") | Kind::Punct("]") => open -= 1,
                _ => {}
            }
            self.advance();
        }
    }

    /// `<fof_logic_formula>`: a unit formula, or units joined by one
    /// non-associative connective, or by a chain of `|` or of `&`.
    pub(crate) fn logic_formula(&mut self) -> Parsed<Formula> {
        self.deeper()?;
        let first = self.unit()?;
        let f = match self.peek().clone() {
            Kind::Punct(op) if NON_ASSOCIATIVE.contains(&op) => {
                self.advance();
                let second = self.unit()?;
                if let Kind::Punct(next) = self.peek() {
                    if NON_ASSOCIATIVE.contains(next) || *next == "&" || *next == "|" {
                        return self.error(format!(
                            "`{op}` does not associate: add parentheses before `{next}`"
                        ));
                    }
                }
                let (a, b) = (Box::new(first), Box::new(second));
                match op {
                    "<=>" => Formula::Iff(a, b),
                    "=>" => Formula::Implies(a, b),
                    "<=" => Formula::ImpliedBy(a, b),
                    "<~>" => Formula::Not(Box::new(Formula::Iff(a, b))),
                    "~|" => Formula::Not(Box::new(Formula::Or(a, b))),
                    _ => Formula::Not(Box::new(Formula::And(a, b))),
                }
            }
            Kind::Punct(op @ ("&" | "|")) => {
                let mut operands = vec![first];
                while self.eat(op) {
                    operands.push(self.unit()?);
                }
                let f = chain(operands, op == "&");
                if let Kind::Punct(next) = self.peek() {
                    if NON_ASSOCIATIVE.contains(next) || *next == "&" || *next == "|" {
                        return self.error(format!(
                            "`{op}` and `{next}` do not mix without parentheses"
                        ));
                    }
                }
                f
            }
            _ => first,
        };
        self.depth -= 1;
        Ok(f)
    }

    /// `<fof_unit_formula>`: `~` before a unit formula, a quantified
    /// formula (whose scope is the unit formula after `:`), a parenthesised
    /// formula or an atomic one.
    fn unit(&mut self) -> Parsed<Formula> {
        self.deeper()?;
        let f = if self.eat("~") {
            Formula::Not(Box::new(self.unit()?))
        } else if self.is("!") || self.is("?") {
            let quantifier = if self.eat("!") {
                Quantifier::All
            } else {
                self.advance();
                Quantifier::Exists
            };
            self.expect("[")?;
            let mut vars = Vec::new();
            loop {
                match self.peek().clone() {
                    Kind::Var(v) => {
                        self.advance();
                        vars.push(v.to_string());
                    }
                    _ => {
                        return self
                            .error(format!("expected a variable, found {}", self.describe()))
                    }
                }
                if self.is(":") {
                    return self.error("typed variables are TFF, which is not supported");
                }
                if !self.eat(",") {
                    break;
                }
            }
            if vars.len() > MAX_DEPTH - self.depth {
                return self.error(format!(
                    "{} variables under one quantifier: nesting deeper than {MAX_DEPTH} levels",
                    vars.len()
                ));
            }
            self.expect("]")?;
            self.expect(":")?;
            let depth = self.bound.len();
            self.bound.extend(vars.iter().cloned());
            let body = self.unit();
            self.bound.truncate(depth);
            vars.into_iter()
                .rev()
                .fold(body?, |f, v| Formula::Quant(quantifier, v, Box::new(f)))
        } else if self.eat("(") {
            let f = self.logic_formula()?;
            self.expect(")")?;
            f
        } else {
            self.atomic()?
        };
        self.depth -= 1;
        Ok(f)
    }

    /// `$true`, `$false`, a predicate application, `s = t` or `s != t`.
    fn atomic(&mut self) -> Parsed<Formula> {
        match self.peek() {
            Kind::Dollar("$true") => {
                self.advance();
                return Ok(Formula::True);
            }
            Kind::Dollar("$false") => {
                self.advance();
                return Ok(Formula::False);
            }
            _ => {}
        }
        let start = self.offset();
        let left = self.term()?;
        let equation = |a: Term, b: Term| Formula::Atom(Term::App("=".into(), vec![a, b]));
        if self.eat("=") {
            let right = self.term()?;
            return Ok(equation(left, right));
        }
        if self.eat("!=") {
            let right = self.term()?;
            return Ok(Formula::Not(Box::new(equation(left, right))));
        }
        match left {
            Term::App(name, args) if !name.starts_with('"') && !is_integer(&name) => {
                Ok(Formula::Atom(Term::App(name, args)))
            }
            other => Err(SyntaxError::at(
                self.src,
                start,
                format!("`{other}` is a term, not a formula"),
            )),
        }
    }

    /// A variable, a constant, a distinct object or a function application.
    fn term(&mut self) -> Parsed<Term> {
        self.deeper()?;
        let t = match self.peek().clone() {
            Kind::Var(v) => {
                if self.open {
                    if !self.clause_vars.contains(v) {
                        self.clause_vars.insert(v.to_string());
                    }
                } else if !self.bound.iter().any(|b| b == v) {
                    return self.error(format!(
                        "variable `{v}` is not bound: a fof formula must be closed"
                    ));
                }
                self.advance();
                Term::Var(v.to_string())
            }
            Kind::Word(w) => {
                self.advance();
                let mut args = Vec::new();
                if self.eat("(") {
                    // Sized for one argument, the commonest, and trimmed
                    // after more: a pushed-to empty vector reserves four,
                    // which made deep terms take 4x their memory.
                    args.reserve_exact(1);
                    loop {
                        args.push(self.term()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    args.shrink_to_fit();
                    self.expect(")")?;
                }
                Term::App(w.into_owned(), args)
            }
            Kind::Distinct(d) => {
                self.advance();
                Term::App(d, Vec::new())
            }
            // An integer is a constant unequal to every other integer and
            // distinct object, as E reads FOF numerals.
            Kind::Number(n) if is_integer(n) => {
                self.advance();
                Term::App(n.to_string(), Vec::new())
            }
            Kind::Number(n) => {
                return self.error(format!(
                    "number `{n}`: rationals and reals are not supported in FOF and CNF (only integers; the rest needs TFF's arithmetic)"
                ))
            }
            Kind::Dollar(d) => {
                return self.error(format!(
                    "`{d}` is not supported: entail reads FOF and CNF without arithmetic or other interpreted symbols"
                ))
            }
            _ => return self.error(format!("expected a term, found {}", self.describe())),
        };
        self.depth -= 1;
        Ok(t)
    }

    /// A CNF clause: literals joined by `|`, optionally in parentheses.
    fn clause(&mut self) -> Parsed<Formula> {
        if self.eat("(") {
            let c = self.disjunction()?;
            self.expect(")")?;
            Ok(c)
        } else {
            self.disjunction()
        }
    }

    fn disjunction(&mut self) -> Parsed<Formula> {
        let mut literals = vec![self.literal()?];
        while self.eat("|") {
            literals.push(self.literal()?);
        }
        Ok(chain(literals, false))
    }

    fn literal(&mut self) -> Parsed<Formula> {
        if self.eat("~") {
            Ok(Formula::Not(Box::new(self.atomic()?)))
        } else {
            self.atomic()
        }
    }

    /// Fails unless every token was read.
    pub(crate) fn end(&mut self) -> Parsed<()> {
        self.eat(".");
        if *self.peek() == Kind::End {
            Ok(())
        } else {
            self.error(format!("unexpected {} after the formula", self.describe()))
        }
    }
}

/// The longest `&` or `|` chain kept left-nested as written; a longer one
/// is read as a balanced tree, so that a conjunction of 10,000 atoms is 14
/// levels deep, not 10,000, for every later pass that walks formulas
/// recursively (the meaning is the same: both connectives associate).
pub(crate) const FLAT_CHAIN: usize = 16;

/// `operands` joined by `&` (`and`) or `|`: left-nested up to
/// [`FLAT_CHAIN`] operands, else a balanced tree of such chains.
pub(crate) fn chain(mut operands: Vec<Formula>, and: bool) -> Formula {
    let join = |a, b| {
        if and {
            Formula::and(a, b)
        } else {
            Formula::or(a, b)
        }
    };
    if operands.len() <= FLAT_CHAIN {
        let mut rest = operands.into_iter();
        // A chain has at least one operand.
        let first = rest.next().unwrap_or(Formula::True);
        return rest.fold(first, join);
    }
    let right = operands.split_off(operands.len() / 2);
    join(chain(operands, and), chain(right, and))
}

/// Whether `text` is an integer numeral in its one canonical spelling
/// (`0`, `42`, `-7`; not `+7`, `007` or `-0`, which would name the same
/// number twice).
pub(crate) fn is_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" && digits.len() == text.len() || !digits.starts_with('0'))
}

/// The text of a quoted atom, quotes removed and escapes undone.
fn unquote(quoted: &str) -> String {
    let inner = &quoted[1..quoted.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(e) = chars.next() {
                out.push(e);
            }
        } else {
            out.push(c);
        }
    }
    out
}

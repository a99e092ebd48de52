//! One FOLIO-style formula into the Prover9 AST. See the module
//! documentation of `syntax::fol` for the grammar and how names are read.

use super::lexer::{describe, lex, Tok, Token};
use crate::syntax::prover9::{Formula, Quantifier, Term};
use std::collections::BTreeSet;

/// Parentheses and quantifiers nested deeper than this are refused rather
/// than risking the stack.
const MAX_DEPTH: usize = 64;

/// Whether a symbol stands as a predicate or inside a term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Role {
    Predicate,
    Function,
}

/// One use of a symbol: name, arity, role and byte offset in the formula.
#[derive(Debug, Clone)]
pub(crate) struct Use {
    pub(crate) name: String,
    pub(crate) arity: usize,
    pub(crate) role: Role,
    pub(crate) at: usize,
}

/// A parsed formula with what the program layer checks across formulas.
#[derive(Debug, Clone)]
pub(crate) struct Parsed {
    pub(crate) formula: Formula,
    pub(crate) uses: Vec<Use>,
    /// Names read as free variables (universally closed), in order.
    pub(crate) free: Vec<String>,
    /// Quantifiers whose parenthesised body was widened to the rest of the
    /// formula (byte offsets), because a variable they bind is used after it.
    pub(crate) widened: Vec<usize>,
}

/// An error: byte offset in the formula and message.
pub(crate) type Error = (usize, String);

/// Whether an unbound name reads as a variable: one letter from u to z,
/// then digits or primes (`x`, `y1`, `z'`), as in Prover9 and NLTK.
pub(crate) fn variable_like(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('u'..='z'))
        && chars.all(|c| c.is_ascii_digit() || c == '\'' || c == '_')
}

/// Parses one formula (an optional final `.` is allowed).
pub(crate) fn parse(src: &str) -> Result<Parsed, Error> {
    let mut tokens = lex(src)?;
    if matches!(tokens.last(), Some(t) if t.tok == Tok::Dot) {
        tokens.pop();
    }
    let quantifiers = tokens
        .iter()
        .filter(|t| matches!(t.tok, Tok::Forall | Tok::Exists))
        .count();
    let mut wide = BTreeSet::new();
    // Each retry widens one more quantifier, so this ends.
    for _ in 0..=quantifiers {
        let mut p = Parser {
            src,
            tokens: &tokens,
            at: 0,
            bound: Vec::new(),
            closed: Vec::new(),
            wide: &wide,
            uses: Vec::new(),
            free: Vec::new(),
            depth: 0,
        };
        match p.whole() {
            Ok(formula) => {
                return Ok(Parsed {
                    formula,
                    uses: p.uses,
                    free: p.free,
                    widened: wide.into_iter().collect(),
                })
            }
            Err(Failure::Widen(at)) => {
                wide.insert(at);
            }
            Err(Failure::Error(at, message)) => return Err((at, message)),
        }
    }
    Err((0, "internal error: quantifier scopes did not settle".into()))
}

enum Failure {
    /// Parse again with the quantifier at this offset scoping to the right.
    Widen(usize),
    Error(usize, String),
}

type R<T> = Result<T, Failure>;

struct Parser<'a> {
    src: &'a str,
    tokens: &'a [Token],
    at: usize,
    /// Variables in scope, innermost last.
    bound: Vec<String>,
    /// Variables of parenthesised quantifiers already closed: (name, offset).
    closed: Vec<(String, usize)>,
    wide: &'a BTreeSet<usize>,
    uses: Vec<Use>,
    free: Vec<String>,
    depth: usize,
}

const FORMULA_START: &str =
    "a formula (an atom such as Student(x) or Rain, ¬, ∀x, ∃x, or an opening parenthesis)";

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.at)
    }

    fn peek_tok(&self) -> Option<&'a Tok> {
        self.peek().map(|t| &t.tok)
    }

    fn here(&self) -> usize {
        self.peek().map_or(self.src.len(), |t| t.start)
    }

    fn error<T>(&self, message: impl Into<String>) -> R<T> {
        Err(Failure::Error(self.here(), message.into()))
    }

    fn expected<T>(&self, what: &str) -> R<T> {
        self.error(format!(
            "expected {what}, found {}",
            describe(self.peek(), self.src)
        ))
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek_tok() == Some(tok) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn whole(&mut self) -> R<Formula> {
        if self.tokens.is_empty() {
            return self.error(format!("empty formula: expected {FORMULA_START}"));
        }
        let f = self.formula()?;
        if self.at < self.tokens.len() {
            let found = describe(self.peek(), self.src);
            let hint = match self.peek_tok() {
                Some(Tok::Close(_)) => " (it closes no opening parenthesis: remove it)",
                Some(Tok::Ident(_)) | Some(Tok::Open(_)) => {
                    " (two formulas side by side need a connective between them)"
                }
                _ => "",
            };
            return self.error(format!(
                "expected a connective (∧ ∨ ⊕ → ↔) or the end of the formula, found {found}{hint}"
            ));
        }
        Ok(f)
    }

    fn nest(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.error(format!(
                "formula nested more than {MAX_DEPTH} deep: split it into simpler premises"
            ));
        }
        Ok(())
    }

    /// iff := imp (↔ imp)*, left-associative.
    fn formula(&mut self) -> R<Formula> {
        self.nest()?;
        let mut left = self.implication()?;
        while self.eat(&Tok::Iff) {
            let right = self.implication()?;
            left = Formula::iff(left, right);
        }
        self.depth -= 1;
        Ok(left)
    }

    /// imp := disj (→ imp)?, right-associative.
    fn implication(&mut self) -> R<Formula> {
        let left = self.disjunction()?;
        if self.eat(&Tok::Implies) {
            self.nest()?;
            let right = self.implication()?;
            self.depth -= 1;
            return Ok(Formula::implies(left, right));
        }
        Ok(left)
    }

    /// disj := conj ((∨ | ⊕) conj)*, left-associative; `a ⊕ b` is `¬(a ↔ b)`.
    fn disjunction(&mut self) -> R<Formula> {
        let mut left = self.conjunction()?;
        loop {
            if self.eat(&Tok::Or) {
                left = Formula::or(left, self.conjunction()?);
            } else if self.eat(&Tok::Xor) {
                left = Formula::not(Formula::iff(left, self.conjunction()?));
            } else {
                return Ok(left);
            }
        }
    }

    /// conj := unary (∧ unary)*, left-associative.
    fn conjunction(&mut self) -> R<Formula> {
        let mut left = self.unary()?;
        while self.eat(&Tok::And) {
            left = Formula::and(left, self.unary()?);
        }
        Ok(left)
    }

    fn unary(&mut self) -> R<Formula> {
        match self.peek_tok() {
            Some(Tok::Not) => {
                self.at += 1;
                self.nest()?;
                let f = self.unary()?;
                self.depth -= 1;
                Ok(Formula::not(f))
            }
            Some(Tok::Forall | Tok::Exists) => self.quantified(),
            Some(Tok::ExistsUnique) => self
                .error("unique existence ∃! is not supported: write ∃x (P(x) ∧ ∀y (P(y) → y = x))"),
            _ => self.primary(),
        }
    }

    /// The variables after a quantifier: `x`, `x, y`, `x y.` (NLTK) or `(x, y)`.
    fn variables(&mut self) -> R<Vec<String>> {
        let name_at = |p: &Self, i: usize| match p.tokens.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(n))
                if !matches!(p.tokens.get(i + 1).map(|t| &t.tok), Some(Tok::Open(_))) =>
            {
                Some(n.clone())
            }
            _ => None,
        };
        if let (Some(Tok::Open(')')), Some(_)) = (self.peek_tok(), name_at(&*self, self.at + 1)) {
            // `∀(x, y) F`: a parenthesised list of names, then `)`.
            let mut i = self.at + 1;
            let mut names = Vec::new();
            while let Some(n) = name_at(&*self, i) {
                names.push(n);
                i += 1;
                match self.tokens.get(i).map(|t| &t.tok) {
                    Some(Tok::Comma) => i += 1,
                    Some(Tok::Close(')')) => {
                        self.at = i + 1;
                        return Ok(names);
                    }
                    _ => break,
                }
            }
        }
        // The first name is a variable even if a bracketed body follows it.
        let Some(Tok::Ident(first)) = self.peek_tok().cloned() else {
            return self.expected("a variable after the quantifier (as in ∀x or ∃y)");
        };
        let mut names = vec![first];
        self.at += 1;
        // `x, y` as long as names follow commas. A one-letter name (with
        // digits or primes) right before a bracket is the last variable of
        // `∀x,y (F)`; any other name before a bracket starts the body
        // (`∀x, P(x)`).
        let short_name = |p: &Self, i: usize| match p.tokens.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(n)) if is_short_variable(n) => Some(n.clone()),
            _ => None,
        };
        while self.peek_tok() == Some(&Tok::Comma) {
            match name_at(&*self, self.at + 1).or_else(|| short_name(&*self, self.at + 1)) {
                Some(n) => {
                    names.push(n);
                    self.at += 2;
                }
                None => break,
            }
        }
        // NLTK's `all x y. F`: names then a `.` or `:`.
        let mut i = self.at;
        let mut more = Vec::new();
        while let Some(n) = name_at(&*self, i) {
            more.push(n);
            i += 1;
        }
        if !more.is_empty()
            && matches!(
                self.tokens.get(i).map(|t| &t.tok),
                Some(Tok::Dot | Tok::Colon)
            )
        {
            names.extend(more);
            self.at = i;
        }
        Ok(names)
    }

    fn quantified(&mut self) -> R<Formula> {
        let start = self.here();
        let kind = match self.peek_tok() {
            Some(Tok::Forall) => Quantifier::All,
            _ => Quantifier::Exists,
        };
        self.at += 1;
        let names = self.variables()?;
        if !(self.eat(&Tok::Dot) || self.eat(&Tok::Colon)) {
            // `∀x, P(x)` is written too.
            self.eat(&Tok::Comma);
        }
        let depth = self.bound.len();
        self.bound.extend(names.iter().cloned());
        self.nest()?;
        let narrow = matches!(self.peek_tok(), Some(Tok::Open(_))) && !self.wide.contains(&start);
        let body = if narrow {
            self.group()?
        } else if self.peek().is_none() {
            return self.expected(&format!("the quantified {FORMULA_START}"));
        } else {
            self.formula()?
        };
        self.depth -= 1;
        self.bound.truncate(depth);
        if narrow {
            self.closed.extend(names.iter().map(|n| (n.clone(), start)));
        }
        Ok(names
            .into_iter()
            .rev()
            .fold(body, |f, v| Formula::Quant(kind, v, Box::new(f))))
    }

    /// `( F )` with any of the three bracket kinds, matched.
    fn group(&mut self) -> R<Formula> {
        let Some(Token {
            tok: Tok::Open(close),
            start,
            ..
        }) = self.peek().cloned()
        else {
            return self.expected("`(`");
        };
        self.at += 1;
        let f = self.formula()?;
        if self.eat(&Tok::Close(close)) {
            return Ok(f);
        }
        let column = self.src[..start].chars().count() + 1;
        let found = describe(self.peek(), self.src);
        let hint = match self.peek_tok() {
            Some(Tok::Ident(_)) | Some(Tok::Open(_)) => {
                " (two formulas side by side need a connective between them)"
            }
            _ => "",
        };
        self.error(format!(
            "expected `{close}` to close the bracket at column {column}, or a connective, found {found}{hint}"
        ))
    }

    fn primary(&mut self) -> R<Formula> {
        match self.peek_tok() {
            Some(Tok::Open(_)) => {
                // `(a = b)`-style groups are formulas too.
                self.group()
            }
            Some(Tok::Top) => {
                self.at += 1;
                Ok(Formula::True)
            }
            Some(Tok::Bottom) => {
                self.at += 1;
                Ok(Formula::False)
            }
            Some(Tok::Ident(_)) => {
                let (name, args, at) = self.application()?;
                if matches!(self.peek_tok(), Some(Tok::Eq | Tok::Neq)) {
                    let negated = self.peek_tok() == Some(&Tok::Neq);
                    self.at += 1;
                    let left = self.term_of(name, args, at)?;
                    let right = self.term()?;
                    let atom = Formula::Atom(Term::App("=".into(), vec![left, right]));
                    return Ok(if negated { Formula::not(atom) } else { atom });
                }
                if args.is_empty() && self.bound.contains(&name) {
                    return Err(Failure::Error(
                        at,
                        format!(
                            "`{name}` is a variable here, not a formula: apply a predicate to it, as in P({name})"
                        ),
                    ));
                }
                self.uses.push(Use {
                    name: name.clone(),
                    arity: args.len(),
                    role: Role::Predicate,
                    at,
                });
                Ok(Formula::Atom(Term::App(name, args)))
            }
            _ => self.expected(FORMULA_START),
        }
    }

    /// `name` or `name(t1, …, tn)`: its name, arguments and offset.
    fn application(&mut self) -> R<(String, Vec<Term>, usize)> {
        let Some(Token {
            tok: Tok::Ident(name),
            start,
            ..
        }) = self.peek().cloned()
        else {
            return self.expected("a name");
        };
        self.at += 1;
        let mut args = Vec::new();
        if let Some(Token {
            tok: Tok::Open(close),
            start: open,
            ..
        }) = self.peek().cloned()
        {
            self.at += 1;
            self.nest()?;
            loop {
                args.push(self.term()?);
                if self.eat(&Tok::Comma) {
                    continue;
                }
                if self.eat(&Tok::Close(close)) {
                    break;
                }
                let column = self.src[..open].chars().count() + 1;
                return self.expected(&format!(
                    "`,` or `{close}` to close the arguments of `{name}` opened at column {column}"
                ));
            }
            self.depth -= 1;
        }
        Ok((name, args, start))
    }

    fn term(&mut self) -> R<Term> {
        if !matches!(self.peek_tok(), Some(Tok::Ident(_))) {
            return self.expected(
                "a term (a constant such as bob, a variable, or a function application such as father(x))",
            );
        }
        let (name, args, at) = self.application()?;
        self.term_of(name, args, at)
    }

    /// The term `name(args)` read at `at`: a variable when bound, else a
    /// symbol (see `variable_like` for unbound names).
    fn term_of(&mut self, name: String, args: Vec<Term>, at: usize) -> R<Term> {
        if args.is_empty() {
            if self.bound.contains(&name) {
                return Ok(Term::Var(name));
            }
            if let Some((_, q)) = self
                .closed
                .iter()
                .rev()
                .find(|(n, q)| *n == name && !self.wide.contains(q))
            {
                return Err(Failure::Widen(*q));
            }
            if variable_like(&name) {
                if !self.free.contains(&name) {
                    self.free.push(name.clone());
                }
                return Ok(Term::Var(name));
            }
        }
        self.uses.push(Use {
            name: name.clone(),
            arity: args.len(),
            role: Role::Function,
            at,
        });
        Ok(Term::App(name, args))
    }
}

/// `x`, `y2`, `z'`: a lower-case letter with only digits, primes or
/// underscores after it, as quantified variables are written.
fn is_short_variable(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_digit() || c == '\'' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::prover9::parse_formula;

    /// The Prover9 reading of `ladr` (which must use quoted-free names).
    fn p9(ladr: &str) -> Formula {
        parse_formula(ladr, &Default::default()).expect("prover9 parses")
    }

    fn fol(src: &str) -> Formula {
        match parse(src) {
            Ok(p) => p.formula,
            Err((at, m)) => panic!("{src}: {at}: {m}"),
        }
    }

    #[test]
    fn precedence_is_not_and_or_implies_iff() {
        assert_eq!(
            fol("¬a ∧ b ∨ c → d ↔ e"),
            p9("((((-a) & b) | c) -> d) <-> e")
        );
        assert_eq!(fol("a → b → c"), p9("a -> (b -> c)"));
        assert_eq!(fol("a ∨ b ∧ c"), p9("a | (b & c)"));
        assert_eq!(fol("a ⊕ b ∧ c"), p9("-(a <-> (b & c))"));
        assert_eq!(fol("a ↔ b ↔ c"), p9("(a <-> b) <-> c"));
    }

    #[test]
    fn quantifiers_stand_anywhere_a_formula_does() {
        assert_eq!(
            fol("∀x (P(x) → ∃y Q(x, y))"),
            p9("all x (P(x) -> (exists y Q(x, y)))")
        );
        assert_eq!(fol("¬∃x P(x)"), p9("-(exists x P(x))"));
        assert_eq!(fol("A ∧ ∀x B(x)"), p9("A & (all x B(x))"));
        assert_eq!(fol("∀x ∀y R(x, y)"), p9("all x all y R(x, y)"));
        assert_eq!(fol("∀x,y R(x, y)"), p9("all x all y R(x, y)"));
        assert_eq!(
            fol("∀x,y (R(x, y) → R(y, x))"),
            p9("all x all y (R(x, y) -> R(y, x))")
        );
        assert_eq!(fol("∀x, y2 (R(x, y2))"), p9("all x all y2 R(x, y2)"));
        assert_eq!(fol("all x y. R(x, y)"), p9("all x all y R(x, y)"));
        assert_eq!(fol("forall x: P(x)"), p9("all x P(x)"));
    }

    #[test]
    fn a_parenthesised_body_is_the_scope_unless_its_variable_is_used_after() {
        // The group is the scope: the conjunct is outside it.
        assert_eq!(
            fol("∀x (P(x) → Q(x)) ∧ R(bob)"),
            p9("(all x (P(x) -> Q(x))) & R(bob)")
        );
        // x is used after the group: the scope is the rest of the formula.
        let parsed = parse("∀x (P(x)) → Q(x)").expect("parses");
        assert_eq!(parsed.formula, p9("all x (P(x) -> Q(x))"));
        assert_eq!(parsed.widened, vec![0]);
        // Without a group, the scope extends as far right as possible (NLTK).
        assert_eq!(fol("all x. P(x) -> Q(x)"), p9("all x (P(x) -> Q(x))"));
    }

    #[test]
    fn names_starting_u_to_z_are_constants_unless_bound() {
        let yale = Term::App("yale".into(), vec![]);
        assert_eq!(
            fol("Study(yale)"),
            Formula::Atom(Term::App("Study".into(), vec![yale]))
        );
        let parsed = parse("P(x) → Q(x)").expect("parses");
        assert_eq!(parsed.free, vec!["x".to_string()]);
        assert_eq!(
            parsed.formula,
            Formula::implies(
                Formula::Atom(Term::App("P".into(), vec![Term::Var("x".into())])),
                Formula::Atom(Term::App("Q".into(), vec![Term::Var("x".into())]))
            )
        );
    }

    #[test]
    fn equality_and_functions() {
        assert_eq!(fol("father(x) = bob"), p9("father(x) = bob"));
        assert_eq!(fol("∀x (x ≠ bob)"), p9("all x (x != bob)"));
    }

    #[test]
    fn errors_say_what_was_expected() {
        let (at, m) = parse("∀x (P(x) → )").expect_err("refused");
        assert_eq!(at, 15); // a byte offset: ∀ and → are three bytes each
        assert!(m.starts_with("expected a formula"), "{m}");
        let (_, m) = parse("Student(x) Happy(x)").expect_err("refused");
        assert!(m.contains("need a connective"), "{m}");
        let (_, m) = parse("∀x (P(x) ∧ Q(x)").expect_err("refused");
        assert!(
            m.starts_with("expected `)` to close the bracket at column 4"),
            "{m}"
        );
        let (_, m) = parse("∃!x P(x)").expect_err("refused");
        assert!(m.contains("∃x (P(x) ∧ ∀y (P(y) → y = x))"), "{m}");
        let deep = "(".repeat(10_000) + "a" + &")".repeat(10_000);
        assert!(parse(&deep).is_err());
    }
}

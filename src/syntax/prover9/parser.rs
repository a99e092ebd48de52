//! The Prover9 parser: operator-precedence parsing of LADR terms over the
//! token stream, then interpretation of each `.`-terminated term as a command,
//! a list entry or a formula.
//!
//! Terms are first read into [`Node`]s without deciding what is a variable or
//! a connective; that is decided on conversion, with the declarations in force
//! (as Prover9 does, a connective symbol used inside a term is a function).

use std::collections::VecDeque;

use super::ast::{Attribute, Entry, Formula, Input, Item, ListKind, Quantifier, Term};
use super::lexer::{RawKind, RawLexer};
use super::table::{Syntax, QUANTIFIER_PREC};
use crate::syntax::{PosCursor, SyntaxError};

/// Deepest nesting accepted, both of the parser's recursion and of the tree
/// it builds, so that later recursive passes cannot overflow the stack.
pub(crate) const MAX_DEPTH: usize = 1000;

/// The precedence of a whole clause or command term.
const TOP_PREC: u32 = 1000;

/// The precedence of an argument (below `,`, as in Prolog).
const ARG_PREC: u32 = 999;

type Result<T> = std::result::Result<T, SyntaxError>;

/// A term as read, before variables and connectives are told apart.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// A symbol applied to arguments (a constant when there are none).
    App {
        sym: String,
        args: Vec<Node>,
        start: usize,
    },
    /// `all x F` / `exists x F`.
    Quant {
        quantifier: Quantifier,
        var: String,
        body: Box<Node>,
        start: usize,
    },
    /// A variable; only the printer builds these, the parser decides later.
    Var { name: String },
}

impl Node {
    fn start(&self) -> usize {
        match self {
            Node::App { start, .. } | Node::Quant { start, .. } => *start,
            Node::Var { .. } => 0,
        }
    }

    /// The symbol of a constant (an application without arguments).
    fn constant(&self) -> Option<&str> {
        match self {
            Node::App { sym, args, .. } if args.is_empty() => Some(sym),
            _ => None,
        }
    }
}

/// A token after special-character runs are split.
#[derive(Debug, Clone, Copy)]
struct Tok {
    kind: RawKind,
    start: usize,
    end: usize,
}

pub(crate) struct Parser<'a> {
    src: &'a str,
    lexer: RawLexer<'a>,
    buffer: VecDeque<Tok>,
    pub(crate) syntax: Syntax,
    depth: usize,
    /// Entry positions, worked out incrementally: linear in the file, also
    /// when it is one long line.
    lines: PosCursor,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str, syntax: Syntax) -> Parser<'a> {
        Parser {
            src,
            lexer: RawLexer::new(src),
            buffer: VecDeque::new(),
            syntax,
            depth: 0,
            lines: PosCursor::new(),
        }
    }

    fn error<T>(&self, offset: usize, message: impl Into<String>) -> Result<T> {
        Err(SyntaxError::at(self.src, offset, message))
    }

    fn text(&self, tok: Tok) -> &'a str {
        &self.src[tok.start..tok.end]
    }

    /// `` `text` `` or "end of input", for messages.
    fn describe(&self, tok: Option<Tok>) -> String {
        match tok {
            Some(t) => format!("`{}`", self.text(t)),
            None => "end of input".to_string(),
        }
    }

    /// The `k`-th token ahead. Special runs are split here, lazily, so that a
    /// declaration applies to every token after its closing period.
    fn peek_at(&mut self, k: usize) -> Result<Option<Tok>> {
        while self.buffer.len() <= k {
            if self
                .buffer
                .back()
                .is_some_and(|t| t.kind == RawKind::Period)
            {
                return Ok(None);
            }
            match self.lexer.next_token() {
                Err((offset, message)) => return self.error(offset, message),
                Ok(None) => return Ok(None),
                Ok(Some((RawKind::Special, start, end))) => {
                    for (a, b) in self.syntax.split_special(&self.src[start..end]) {
                        self.buffer.push_back(Tok {
                            kind: RawKind::Special,
                            start: start + a,
                            end: start + b,
                        });
                    }
                }
                Ok(Some((kind, start, end))) => self.buffer.push_back(Tok { kind, start, end }),
            }
        }
        Ok(self.buffer.get(k).copied())
    }

    fn peek(&mut self) -> Result<Option<Tok>> {
        self.peek_at(0)
    }

    fn bump(&mut self) {
        self.buffer.pop_front();
    }

    fn is_symbol(kind: RawKind) -> bool {
        matches!(kind, RawKind::Ordinary | RawKind::Special | RawKind::Quoted)
    }

    /// Whether `tok` can begin an operand: operators that need a left operand
    /// cannot, so `f(-)` reads `-` as a constant.
    fn starts_term(&self, tok: Option<Tok>) -> bool {
        let Some(tok) = tok else { return false };
        match tok.kind {
            RawKind::LParen | RawKind::LBracket => true,
            RawKind::Ordinary | RawKind::Special | RawKind::Quoted => !self
                .syntax
                .op(self.text(tok))
                .is_some_and(|d| d.fixity.is_infix() || d.fixity.is_postfix()),
            _ => false,
        }
    }

    /// Parses a term whose precedence is at most `max`. Returns the node, its
    /// precedence and its height.
    fn expr(&mut self, max: u32) -> Result<(Node, u32, usize)> {
        self.depth += 1;
        let result = self.expr_inner(max);
        self.depth -= 1;
        result
    }

    fn expr_inner(&mut self, max: u32) -> Result<(Node, u32, usize)> {
        if self.depth > MAX_DEPTH {
            let at = self.peek()?.map_or(self.src.len(), |t| t.start);
            return self.error(at, format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        let (mut left, mut left_prec, mut height) = self.primary(max)?;
        while let Some(tok) = self.peek()? {
            if !Self::is_symbol(tok.kind) {
                break;
            }
            let sym = self.text(tok);
            let Some(def) = self.syntax.op(sym) else {
                break;
            };
            let (left_max, right_max) = def.operand_limits();
            if def.prec > max || !(def.fixity.is_infix() || def.fixity.is_postfix()) {
                break;
            }
            if left_prec > left_max {
                // e.g. `a = b = c` or `p -> q <-> r`: no reading exists.
                return self.error(
                    tok.start,
                    format!("`{sym}` needs parentheses: its left operand has precedence {left_prec}, above {left_max}"),
                );
            }
            self.bump();
            let start = left.start();
            let associative = def.fixity == super::table::Fixity::InfixRight
                && (sym == self.syntax.connectives.and || sym == self.syntax.connectives.or);
            if associative {
                // A chain of `&` (or `|`) is read in a loop, not by a
                // recursion per operand, and a long one is balanced.
                let sym = sym.to_string();
                let (node, h) = self.chain(&sym, left, height, def.prec)?;
                left = node;
                height = h;
                if height > MAX_DEPTH {
                    return self.error(start, format!("nesting deeper than {MAX_DEPTH} levels"));
                }
                left_prec = def.prec;
                continue;
            }
            if def.fixity.is_infix() {
                let (right, _, right_height) = self.expr(right_max)?;
                height = height.max(right_height) + 1;
                left = Node::App {
                    sym: sym.to_string(),
                    args: vec![left, right],
                    start,
                };
            } else {
                height += 1;
                left = Node::App {
                    sym: sym.to_string(),
                    args: vec![left],
                    start,
                };
            }
            if height > MAX_DEPTH {
                return self.error(start, format!("nesting deeper than {MAX_DEPTH} levels"));
            }
            left_prec = def.prec;
        }
        Ok((left, left_prec, height))
    }

    /// The rest of a chain `first sym o2 sym o3 …` of the right-associative
    /// connective `sym` (precedence `prec`), after the first `sym`: the
    /// operands are read one by one, each below `prec`, and joined as
    /// Prover9 reads them, right-nested, when there are at most
    /// [`FLAT_CHAIN`]; a longer chain is a balanced tree of such chains (the
    /// same meaning: the connective associates). Another operator of the
    /// same precedence after an operand takes that operand and the rest as
    /// its operands, as a right-nested reading would.
    fn chain(
        &mut self,
        sym: &str,
        first: Node,
        first_height: usize,
        prec: u32,
    ) -> Result<(Node, usize)> {
        let mut operands = vec![(first, first_height)];
        loop {
            let (mut operand, _, mut h) = self.expr(prec - 1)?;
            if let Some(tok) = self.peek()? {
                let text = self.text(tok);
                if Self::is_symbol(tok.kind) && text != sym {
                    if let Some(other) = self
                        .syntax
                        .op(text)
                        .filter(|d| d.prec == prec && d.fixity.is_infix())
                    {
                        let other_sym = text.to_string();
                        let (_, right_max) = other.operand_limits();
                        self.bump();
                        let (right, _, right_height) = self.expr(right_max)?;
                        let start = operand.start();
                        h = h.max(right_height) + 1;
                        operand = Node::App {
                            sym: other_sym,
                            args: vec![operand, right],
                            start,
                        };
                    }
                }
            }
            operands.push((operand, h));
            match self.peek()? {
                Some(tok) if Self::is_symbol(tok.kind) && self.text(tok) == sym => self.bump(),
                _ => break,
            }
        }
        Ok(join_chain(sym, operands))
    }

    fn primary(&mut self, max: u32) -> Result<(Node, u32, usize)> {
        let Some(tok) = self.peek()? else {
            return self.error(self.src.len(), "unexpected end of input, expected a term");
        };
        match tok.kind {
            RawKind::LParen => {
                self.bump();
                let (node, _, height) = self.expr(TOP_PREC)?;
                self.close(tok, RawKind::RParen, "`)`")?;
                Ok((node, 0, height))
            }
            RawKind::LBracket => {
                self.bump();
                let (node, height) = self.list(tok)?;
                Ok((node, 0, height))
            }
            RawKind::Ordinary | RawKind::Special | RawKind::Quoted => {
                self.bump();
                let sym = self.text(tok);
                let next = self.peek()?;
                if let Some(open) = next.filter(|n| n.kind == RawKind::LParen && n.start == tok.end)
                {
                    self.bump();
                    let (args, height) = self.arguments(open)?;
                    return Ok((
                        Node::App {
                            sym: sym.to_string(),
                            args,
                            start: tok.start,
                        },
                        0,
                        height + 1,
                    ));
                }
                let is_quantifier =
                    sym == self.syntax.connectives.all || sym == self.syntax.connectives.exists;
                if is_quantifier && next.is_some_and(|n| n.kind == RawKind::Ordinary) {
                    return self.quantified(tok, max);
                }
                if let Some(def) = self.syntax.op(sym).filter(|d| d.fixity.is_prefix()) {
                    if self.starts_term(next) {
                        if def.prec > max {
                            return self.error(
                                tok.start,
                                format!(
                                    "prefix operator `{sym}` (precedence {}) needs parentheses here",
                                    def.prec
                                ),
                            );
                        }
                        let (operand, _, height) = self.expr(def.operand_limits().1)?;
                        let node = Node::App {
                            sym: sym.to_string(),
                            args: vec![operand],
                            start: tok.start,
                        };
                        return Ok((node, def.prec, height + 1));
                    }
                }
                Ok((
                    Node::App {
                        sym: sym.to_string(),
                        args: vec![],
                        start: tok.start,
                    },
                    0,
                    1,
                ))
            }
            _ => self.error(
                tok.start,
                format!("unexpected {}, expected a term", self.describe(Some(tok))),
            ),
        }
    }

    /// Consumes the bracket closing `open`; the error names the opening one
    /// when the clause or file ends first.
    fn close(&mut self, open: Tok, kind: RawKind, what: &str) -> Result<()> {
        match self.peek()? {
            Some(t) if t.kind == kind => {
                self.bump();
                Ok(())
            }
            None
            | Some(Tok {
                kind: RawKind::Period,
                ..
            }) => self.error(open.start, format!("unclosed `{}`", self.text(open))),
            other => self.error(
                other.map_or(self.src.len(), |t| t.start),
                format!("expected {what}, found {}", self.describe(other)),
            ),
        }
    }

    /// `(t1, …, tn)` after the `(`.
    fn arguments(&mut self, open: Tok) -> Result<(Vec<Node>, usize)> {
        let mut args = Vec::new();
        let mut height = 0;
        loop {
            let (arg, _, h) = self.expr(ARG_PREC)?;
            height = height.max(h);
            args.push(arg);
            match self.peek()? {
                Some(t) if t.kind == RawKind::Comma => self.bump(),
                _ => break,
            }
        }
        self.close(open, RawKind::RParen, "`,` or `)`")?;
        Ok((args, height))
    }

    /// `[]`, `[a, b]` or `[a, b : tail]` after the `[`, as `$cons`/`$nil`.
    fn list(&mut self, open: Tok) -> Result<(Node, usize)> {
        let nil = |start| Node::App {
            sym: "$nil".to_string(),
            args: vec![],
            start,
        };
        if self.peek()?.is_some_and(|t| t.kind == RawKind::RBracket) {
            self.bump();
            return Ok((nil(open.start), 1));
        }
        let mut items = Vec::new();
        let mut height = 0;
        loop {
            let (item, _, h) = self.expr(ARG_PREC)?;
            height = height.max(h);
            items.push(item);
            match self.peek()? {
                Some(t) if t.kind == RawKind::Comma => self.bump(),
                _ => break,
            }
        }
        let tail = if self.peek()?.is_some_and(|t| t.kind == RawKind::Colon) {
            self.bump();
            let (tail, _, h) = self.expr(ARG_PREC)?;
            height = height.max(h);
            tail
        } else {
            nil(open.start)
        };
        self.close(open, RawKind::RBracket, "`,`, `:` or `]`")?;
        height += items.len();
        if height > MAX_DEPTH {
            return self.error(
                open.start,
                format!("nesting deeper than {MAX_DEPTH} levels"),
            );
        }
        let node = items.into_iter().rev().fold(tail, |rest, item| {
            let start = item.start();
            Node::App {
                sym: "$cons".to_string(),
                args: vec![item, rest],
                start,
            }
        });
        Ok((node, height))
    }

    /// `all x F` after `all`; also Otter's `all x y F` for `all x all y F`.
    fn quantified(&mut self, quantifier_tok: Tok, max: u32) -> Result<(Node, u32, usize)> {
        if QUANTIFIER_PREC > max {
            return self.error(
                quantifier_tok.start,
                "quantified formula needs parentheses here",
            );
        }
        let quantifier = if self.text(quantifier_tok) == self.syntax.connectives.all {
            Quantifier::All
        } else {
            Quantifier::Exists
        };
        let mut vars = Vec::new();
        while let Some(tok) = self.peek()? {
            if tok.kind != RawKind::Ordinary {
                break;
            }
            let name = self.text(tok);
            if !vars.is_empty() {
                // A further symbol is another variable only if it cannot be
                // the body: not an operator or quantifier, not applied, and
                // followed by something that can start the body.
                let after = self.peek_at(1)?;
                let c = &self.syntax.connectives;
                let applied =
                    after.is_some_and(|a| a.kind == RawKind::LParen && a.start == tok.end);
                if name == c.all
                    || name == c.exists
                    || self.syntax.op(name).is_some()
                    || applied
                    || !self.starts_term(after)
                {
                    break;
                }
            }
            vars.push(name.to_string());
            self.bump();
        }
        let (mut body, _, mut height) = self.expr(QUANTIFIER_PREC)?;
        for var in vars.into_iter().rev() {
            body = Node::Quant {
                quantifier,
                var,
                body: Box::new(body),
                start: quantifier_tok.start,
            };
            height += 1;
        }
        if height > MAX_DEPTH {
            return self.error(
                quantifier_tok.start,
                format!("nesting deeper than {MAX_DEPTH} levels"),
            );
        }
        Ok((body, QUANTIFIER_PREC, height))
    }

    /// One `.`-terminated term; `None` at the end of the input.
    fn statement(&mut self) -> Result<Option<(Node, usize)>> {
        let Some(first) = self.peek()? else {
            return Ok(None);
        };
        let (node, _, _) = self.expr(TOP_PREC)?;
        match self.peek()? {
            Some(t) if t.kind == RawKind::Period => self.bump(),
            None => return self.error(self.src.len(), "expected `.` at end of input"),
            other => {
                let at = other.map_or(self.src.len(), |t| t.start);
                return self.error(
                    at,
                    format!(
                        "expected an operator or `.`, found {}",
                        self.describe(other)
                    ),
                );
            }
        }
        Ok(Some((node, first.start)))
    }

    /// A whole input file.
    pub(crate) fn input(&mut self) -> Result<Input> {
        let items = self.items(None, true)?;
        Ok(Input { items })
    }

    /// Items up to the end of input, or up to `end_if.` when inside an
    /// `if(..)` opened at `open_if`. `active` says whether declarations take
    /// effect (only in `if(Prover9)` blocks, like Prover9).
    fn items(&mut self, open_if: Option<usize>, active: bool) -> Result<Vec<Item>> {
        let mut items = Vec::new();
        loop {
            let Some((node, start)) = self.statement()? else {
                return match open_if {
                    Some(at) => self.error(at, "`if(..)` is not closed by `end_if.`"),
                    None => Ok(items),
                };
            };
            let item = match &node {
                Node::App { sym, args, .. } => match (sym.as_str(), args.as_slice()) {
                    ("end_if", []) => match open_if {
                        Some(_) => return Ok(items),
                        None => return self.error(start, "`end_if` without a matching `if(..)`"),
                    },
                    ("end_of_list", []) => {
                        return self.error(start, "`end_of_list` without an open list")
                    }
                    ("formulas" | "clauses" | "list" | "terms", [name]) => {
                        let Some(name) = name.constant() else {
                            return self.error(name.start(), "a list name must be a symbol");
                        };
                        self.list_body(sym, name.to_string(), start)?
                    }
                    ("if", [program]) => {
                        let Some(program) = program.constant().map(str::to_string) else {
                            return self
                                .error(start, "`if` needs a program name, e.g. `if(Prover9).`");
                        };
                        let inner = self.items(Some(start), active && program == "Prover9")?;
                        Item::If {
                            program,
                            items: inner,
                        }
                    }
                    ("set", [flag]) if flag.constant().is_some() => {
                        Item::Set(flag.constant().unwrap_or("").to_string())
                    }
                    ("clear", [flag]) if flag.constant().is_some() => {
                        Item::Clear(flag.constant().unwrap_or("").to_string())
                    }
                    ("assign", [param, value]) if param.constant().is_some() => {
                        let value = self.term(value, &mut Vec::new())?;
                        Item::Assign(param.constant().unwrap_or("").to_string(), value)
                    }
                    ("op", args) => self.op_command(args, start)?,
                    ("redeclare", [operation, symbol]) => {
                        let (Some(operation), Some(symbol)) =
                            (operation.constant(), symbol.constant())
                        else {
                            return self
                                .error(start, "`redeclare` takes an operation name and a symbol");
                        };
                        Item::Redeclare(operation.to_string(), unquote(symbol).to_string())
                    }
                    _ => Item::Command(self.term(&node, &mut Vec::new())?),
                },
                _ => Item::Command(self.term(&node, &mut Vec::new())?),
            };
            // An `if` block's items took effect one by one as they were read.
            if active && !matches!(item, Item::If { .. }) {
                if let Err(message) = self.syntax.apply(&item) {
                    return self.error(start, message);
                }
            }
            items.push(item);
        }
    }

    /// `op(prec, type, symbols)` or `op(ordinary, symbols)`.
    fn op_command(&mut self, args: &[Node], start: usize) -> Result<Item> {
        let (prec, kind, symbols) = match args {
            [prec, kind, symbols] => {
                let Some(prec_text) = prec.constant() else {
                    return self.error(prec.start(), "operator precedence must be a number");
                };
                let Ok(prec) = prec_text.parse::<u32>() else {
                    return self.error(
                        prec.start(),
                        format!("operator precedence `{prec_text}` is not a number"),
                    );
                };
                (Some(prec), kind, symbols)
            }
            [kind, symbols] => (None, kind, symbols),
            _ => return self.error(start, "`op` takes a precedence, a type and symbols"),
        };
        let Some(kind) = kind.constant() else {
            return self.error(kind.start(), "operator type must be a symbol");
        };
        if prec.is_none() && kind != "ordinary" {
            return self.error(start, format!("operator type `{kind}` needs a precedence"));
        }
        let mut names = Vec::new();
        let mut rest = symbols;
        loop {
            match rest {
                Node::App { sym, args, .. } if sym == "$cons" && args.len() == 2 => {
                    let Some(name) = args[0].constant() else {
                        return self.error(args[0].start(), "operator symbols must be symbols");
                    };
                    names.push(unquote(name).to_string());
                    rest = &args[1];
                }
                Node::App { sym, args, .. } if sym == "$nil" && args.is_empty() => break,
                Node::App { sym, args, .. } if args.is_empty() && names.is_empty() => {
                    names.push(unquote(sym).to_string());
                    break;
                }
                other => {
                    return self.error(
                        other.start(),
                        "operator symbols must be a symbol or a list of symbols",
                    )
                }
            }
        }
        Ok(Item::Op {
            prec,
            kind: kind.to_string(),
            symbols: names,
        })
    }

    /// The entries of a list, up to its `end_of_list.`.
    fn list_body(&mut self, head: &str, name: String, start: usize) -> Result<Item> {
        let kind = match head {
            "formulas" => ListKind::Formulas,
            "clauses" => ListKind::Clauses,
            _ => ListKind::Terms,
        };
        let mut entries = Vec::new();
        let mut terms = Vec::new();
        loop {
            let Some((node, entry_start)) = self.statement()? else {
                return self.error(
                    start,
                    format!("`{head}({name})` is not closed by `end_of_list.`"),
                );
            };
            if node.constant() == Some("end_of_list") {
                break;
            }
            if kind == ListKind::Terms {
                terms.push(self.term(&node, &mut Vec::new())?);
            } else {
                let (formula, attributes) = self.entry(&node)?;
                entries.push(Entry {
                    formula,
                    attributes,
                    pos: self.lines.at(self.src, entry_start),
                });
            }
        }
        Ok(match kind {
            ListKind::Terms => Item::Terms { name, terms },
            _ => Item::Formulas {
                kind,
                name,
                entries,
            },
        })
    }

    /// Splits `F # a1 # a2` into the formula and its attributes.
    pub(crate) fn entry(&self, node: &Node) -> Result<(Formula, Vec<Attribute>)> {
        let attribute_sym = &self.syntax.connectives.attribute;
        let (formula_node, mut rest) = match node {
            Node::App { sym, args, .. } if sym == attribute_sym && args.len() == 2 => {
                (&args[0], Some(&args[1]))
            }
            _ => (node, None),
        };
        let mut attributes = Vec::new();
        while let Some(attr) = rest {
            let current = match attr {
                Node::App { sym, args, .. } if sym == attribute_sym && args.len() == 2 => {
                    rest = Some(&args[1]);
                    &args[0]
                }
                _ => {
                    rest = None;
                    attr
                }
            };
            match current {
                Node::App { sym, args, .. } => {
                    let args = args
                        .iter()
                        .map(|a| self.term(a, &mut Vec::new()))
                        .collect::<Result<Vec<_>>>()?;
                    attributes.push(Attribute {
                        name: sym.clone(),
                        args,
                    });
                }
                other => {
                    return self.error(other.start(), "an attribute must be a term like `label(x)`")
                }
            }
        }
        let formula = self.formula(formula_node, &mut Vec::new())?;
        Ok((formula, attributes))
    }

    /// Reads a node as a formula; `bound` holds the quantified variables in scope.
    pub(crate) fn formula(&self, node: &Node, bound: &mut Vec<String>) -> Result<Formula> {
        let (sym, args, start) = match node {
            Node::Quant {
                quantifier,
                var,
                body,
                ..
            } => {
                bound.push(var.clone());
                let body = self.formula(body, bound);
                bound.pop();
                return Ok(Formula::Quant(*quantifier, var.clone(), Box::new(body?)));
            }
            Node::Var { name } => return Ok(Formula::Atom(Term::Var(name.clone()))),
            Node::App { sym, args, start } => (sym, args, *start),
        };
        let c = &self.syntax.connectives;
        let sub = |i: usize, bound: &mut Vec<String>| self.formula(&args[i], bound).map(Box::new);
        Ok(match args.len() {
            0 if *sym == c.truth => Formula::True,
            0 if *sym == c.falsity => Formula::False,
            1 if *sym == c.not => Formula::Not(sub(0, bound)?),
            2 if *sym == c.and => Formula::And(sub(0, bound)?, sub(1, bound)?),
            2 if *sym == c.or => Formula::Or(sub(0, bound)?, sub(1, bound)?),
            2 if *sym == c.implies => Formula::Implies(sub(0, bound)?, sub(1, bound)?),
            2 if *sym == c.implied_by => Formula::ImpliedBy(sub(0, bound)?, sub(1, bound)?),
            2 if *sym == c.iff => Formula::Iff(sub(0, bound)?, sub(1, bound)?),
            2 if *sym == c.attribute => {
                return self.error(
                    start,
                    format!("attributes (`{sym}`) may only follow a whole formula"),
                )
            }
            2 if *sym == c.eq || *sym == c.neq => {
                let terms = vec![self.term(&args[0], bound)?, self.term(&args[1], bound)?];
                let atom = Formula::Atom(Term::App("=".to_string(), terms));
                if *sym == c.eq {
                    atom
                } else {
                    Formula::Not(Box::new(atom))
                }
            }
            _ => {
                if sym == "=" && c.eq != "=" {
                    return self.error(
                        start,
                        format!("`=` is not equality here: it was redeclared as `{}`", c.eq),
                    );
                }
                let args = args
                    .iter()
                    .map(|a| self.term(a, bound))
                    .collect::<Result<Vec<_>>>()?;
                Formula::Atom(Term::App(sym.clone(), args))
            }
        })
    }

    /// Reads a node as a term, deciding which constants are variables.
    pub(crate) fn term(&self, node: &Node, bound: &mut Vec<String>) -> Result<Term> {
        match node {
            Node::Quant { start, .. } => {
                self.error(*start, "a quantified formula cannot be used as a term")
            }
            Node::Var { name } => Ok(Term::Var(name.clone())),
            Node::App { sym, args, .. } if args.is_empty() => {
                if bound.iter().any(|b| b == sym) || self.syntax.is_variable_name(sym) {
                    Ok(Term::Var(sym.clone()))
                } else {
                    Ok(Term::App(sym.clone(), vec![]))
                }
            }
            Node::App { sym, args, .. } => {
                let args = args
                    .iter()
                    .map(|a| self.term(a, bound))
                    .collect::<Result<Vec<_>>>()?;
                Ok(Term::App(sym.clone(), args))
            }
        }
    }

    /// A single formula or term: one term, an optional `.`, then the end.
    pub(crate) fn lone(&mut self) -> Result<Node> {
        let (node, _, _) = self.expr(TOP_PREC)?;
        if self.peek()?.is_some_and(|t| t.kind == RawKind::Period) {
            self.bump();
        }
        match self.peek()? {
            None => Ok(node),
            Some(t) => self.error(
                t.start,
                format!("unexpected {} after the end", self.describe(Some(t))),
            ),
        }
    }
}

/// `"sym"` → `sym`: the `op` and `redeclare` commands ignore quotes.
fn unquote(symbol: &str) -> &str {
    symbol
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(symbol)
}

/// The longest chain of `&` or `|` kept right-nested as Prover9 reads it; a
/// longer one is a balanced tree, so that a conjunction of 10,000 atoms is
/// 14 levels deep for every later pass, not 10,000.
const FLAT_CHAIN: usize = 16;

/// `operands` (with their heights) joined by `sym`: right-nested up to
/// [`FLAT_CHAIN`], else balanced; the node and its height.
fn join_chain(sym: &str, mut operands: Vec<(Node, usize)>) -> (Node, usize) {
    let join = |(a, ha): (Node, usize), (b, hb): (Node, usize)| {
        let start = a.start();
        (
            Node::App {
                sym: sym.to_string(),
                args: vec![a, b],
                start,
            },
            ha.max(hb) + 1,
        )
    };
    if operands.len() <= FLAT_CHAIN {
        let mut rev = operands.into_iter().rev();
        let last = rev.next().unwrap_or((
            Node::App {
                sym: "$T".to_string(),
                args: vec![],
                start: 0,
            },
            1,
        ));
        return rev.fold(last, |acc, o| join(o, acc));
    }
    let right = operands.split_off(operands.len() / 2);
    let left = join_chain(sym, operands);
    join(left, join_chain(sym, right))
}

//! Printing Prover9 text that parses back to an equal AST.
//!
//! A printer works under a [`Syntax`] (operator table, connective symbols,
//! variable rule); `Input` threads it through the items exactly as the parser
//! does, so `op` and `redeclare` commands print their own effect. Parentheses
//! are added only where precedence needs them, except that a quantified
//! formula is always parenthesised as an operand, which reads unambiguously.

use std::fmt;

use super::ast::{Entry, Formula, Input, Item, ListKind, Quantifier, Term};
use super::parser::Node;
use super::table::{
    is_ordinary_char, is_special_char, OpDef, Syntax, OPERATOR_ATOM_PREC, QUANTIFIER_PREC,
};

const TOP_PREC: u32 = 1000;
const ARG_PREC: u32 = 999;

/// The highest precedence an entry's formula may have before `#`.
const BEFORE_ATTRIBUTE_PREC: u32 = 809;

pub(crate) struct Printer<'s> {
    syntax: &'s Syntax,
}

impl<'s> Printer<'s> {
    pub(crate) fn new(syntax: &'s Syntax) -> Printer<'s> {
        Printer { syntax }
    }

    pub(crate) fn term_node(term: &Term) -> Node {
        match term {
            Term::Var(name) => Node::Var { name: name.clone() },
            Term::App(sym, args) => Node::App {
                sym: sym.clone(),
                args: args.iter().map(Self::term_node).collect(),
                start: 0,
            },
        }
    }

    fn formula_node(&self, formula: &Formula) -> Node {
        let c = &self.syntax.connectives;
        let app = |sym: &str, args: Vec<Node>| Node::App {
            sym: sym.to_string(),
            args,
            start: 0,
        };
        let pair = |a: &Formula, b: &Formula| vec![self.formula_node(a), self.formula_node(b)];
        match formula {
            Formula::True => app(&c.truth, vec![]),
            Formula::False => app(&c.falsity, vec![]),
            Formula::Atom(Term::App(sym, args)) if sym == "=" && args.len() == 2 => {
                app(&c.eq, args.iter().map(Self::term_node).collect())
            }
            Formula::Atom(term) => Self::term_node(term),
            Formula::Not(inner) => match inner.as_ref() {
                Formula::Atom(Term::App(sym, args)) if sym == "=" && args.len() == 2 => {
                    app(&c.neq, args.iter().map(Self::term_node).collect())
                }
                _ => app(&c.not, vec![self.formula_node(inner)]),
            },
            Formula::And(a, b) => app(&c.and, pair(a, b)),
            Formula::Or(a, b) => app(&c.or, pair(a, b)),
            Formula::Implies(a, b) => app(&c.implies, pair(a, b)),
            Formula::ImpliedBy(a, b) => app(&c.implied_by, pair(a, b)),
            Formula::Iff(a, b) => app(&c.iff, pair(a, b)),
            Formula::Quant(quantifier, var, body) => Node::Quant {
                quantifier: *quantifier,
                var: var.clone(),
                body: Box::new(self.formula_node(body)),
                start: 0,
            },
        }
    }

    /// The precedence `node` prints with, to decide on parentheses.
    fn precedence(&self, node: &Node) -> u32 {
        match node {
            // A variable named like an operator (`v` is infix by default)
            // reads as that operator unless parenthesised or an argument.
            Node::Var { name } if self.syntax.op(name).is_some() => OPERATOR_ATOM_PREC,
            Node::Var { .. } => 0,
            Node::Quant { .. } => QUANTIFIER_PREC,
            Node::App { sym, args, .. } => match (self.syntax.op(sym), args.len()) {
                (Some(d), 2) if d.fixity.is_infix() => d.prec,
                (Some(d), 1) if d.fixity.is_prefix() || d.fixity.is_postfix() => d.prec,
                (Some(_), 0) => OPERATOR_ATOM_PREC,
                _ => 0,
            },
        }
    }

    /// Appends a symbol, separated by a space only where the two would
    /// otherwise lex as one token or split differently.
    fn push_symbol(&self, out: &mut String, symbol: &str) {
        if let (Some(last), Some(first)) = (out.chars().last(), symbol.chars().next()) {
            let glued = if is_ordinary_char(last) && is_ordinary_char(first) {
                true
            } else if is_special_char(last) && is_special_char(first) {
                let run_start = out.len()
                    - out
                        .chars()
                        .rev()
                        .take_while(|&c| is_special_char(c))
                        .map(char::len_utf8)
                        .sum::<usize>();
                let run = &out[run_start..];
                // Long runs only come from deep nesting; a space is always safe.
                const CHECKED_RUN: usize = 32;
                let head_len: usize = symbol
                    .chars()
                    .take_while(|&c| is_special_char(c))
                    .map(char::len_utf8)
                    .sum();
                let head = &symbol[..head_len];
                let pieces = |s: &str| -> Vec<String> {
                    self.syntax
                        .split_special(s)
                        .into_iter()
                        .map(|(a, b)| s[a..b].to_string())
                        .collect()
                };
                let mut apart = pieces(run);
                apart.extend(pieces(head));
                run.len() > CHECKED_RUN || pieces(&format!("{run}{head}")) != apart
            } else {
                false
            };
            if glued {
                out.push(' ');
            }
        }
        out.push_str(symbol);
    }

    /// Writes an operator's operand; quantified operands are parenthesised.
    fn operand(&self, node: &Node, max: u32, out: &mut String) {
        if matches!(node, Node::Quant { .. }) {
            out.push('(');
            self.node(node, TOP_PREC, out);
            out.push(')');
        } else {
            self.node(node, max, out);
        }
    }

    pub(crate) fn node(&self, node: &Node, max: u32, out: &mut String) {
        let prec = self.precedence(node);
        if prec > max {
            out.push('(');
            self.node(node, TOP_PREC, out);
            out.push(')');
            return;
        }
        match node {
            Node::Var { name } => self.push_symbol(out, name),
            Node::Quant {
                quantifier,
                var,
                body,
                ..
            } => {
                let c = &self.syntax.connectives;
                let symbol = match quantifier {
                    Quantifier::All => &c.all,
                    Quantifier::Exists => &c.exists,
                };
                self.push_symbol(out, symbol);
                out.push(' ');
                out.push_str(var);
                out.push(' ');
                self.operand(body, QUANTIFIER_PREC, out);
            }
            Node::App { sym, args, .. } => self.application(sym, args, out),
        }
    }

    fn application(&self, sym: &str, args: &[Node], out: &mut String) {
        if sym == "$nil" && args.is_empty() {
            out.push_str("[]");
            return;
        }
        if sym == "$cons" && args.len() == 2 {
            self.list(args, out);
            return;
        }
        match (self.syntax.op(sym), args) {
            (Some(d), [left, right]) if d.fixity.is_infix() => {
                let (left_max, right_max) = d.operand_limits();
                self.operand(left, left_max, out);
                out.push(' ');
                out.push_str(sym);
                out.push(' ');
                self.operand(right, right_max, out);
            }
            (Some(d), [operand]) if d.fixity.is_prefix() => {
                let (_, operand_max) = d.operand_limits();
                self.push_symbol(out, sym);
                if self.precedence(operand) > operand_max || matches!(operand, Node::Quant { .. }) {
                    // `-(…)` reads as an application of `-`, which is the same term.
                    out.push('(');
                    self.node(operand, TOP_PREC, out);
                    out.push(')');
                } else {
                    let mut text = String::new();
                    self.node(operand, operand_max, &mut text);
                    // `- (a | b)'` must not read as the application `-(a | b)`.
                    if text.starts_with('(') {
                        out.push(' ');
                        out.push_str(&text);
                    } else {
                        self.push_symbol(out, &text);
                    }
                }
            }
            (Some(d), [operand]) if d.fixity.is_postfix() => {
                let (operand_max, _) = d.operand_limits();
                self.operand(operand, operand_max, out);
                self.push_symbol(out, sym);
            }
            (_, []) => self.push_symbol(out, sym),
            _ => {
                self.push_symbol(out, sym);
                out.push('(');
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.node(arg, ARG_PREC, out);
                }
                out.push(')');
            }
        }
    }

    /// `[a,b]` or `[a,b:tail]` for a `$cons` chain.
    fn list(&self, args: &[Node], out: &mut String) {
        out.push('[');
        self.node(&args[0], ARG_PREC, out);
        let mut rest = &args[1];
        loop {
            match rest {
                Node::App { sym, args, .. } if sym == "$cons" && args.len() == 2 => {
                    out.push(',');
                    self.node(&args[0], ARG_PREC, out);
                    rest = &args[1];
                }
                Node::App { sym, args, .. } if sym == "$nil" && args.is_empty() => break,
                tail => {
                    out.push(':');
                    self.node(tail, ARG_PREC, out);
                    break;
                }
            }
        }
        out.push(']');
    }

    pub(crate) fn term(&self, term: &Term, out: &mut String) {
        self.node(&Self::term_node(term), TOP_PREC, out);
    }

    pub(crate) fn formula(&self, formula: &Formula, out: &mut String) {
        if self.is_plain(formula) {
            self.plain(formula, TOP_PREC, out);
        } else {
            self.node(&self.formula_node(formula), TOP_PREC, out);
        }
    }

    /// The operator a connective of a plain formula prints with, if the
    /// syntax gives its symbol the fixity the connective needs.
    fn connective(&self, formula: &Formula) -> Option<(&str, OpDef)> {
        let c = &self.syntax.connectives;
        let (symbol, unary) = match formula {
            Formula::Not(_) => (&c.not, true),
            Formula::And(..) => (&c.and, false),
            Formula::Or(..) => (&c.or, false),
            Formula::Implies(..) => (&c.implies, false),
            Formula::ImpliedBy(..) => (&c.implied_by, false),
            Formula::Iff(..) => (&c.iff, false),
            _ => return None,
        };
        let d = self.syntax.op(symbol)?;
        let fits = if unary {
            d.fixity.is_prefix()
        } else {
            d.fixity.is_infix()
        };
        fits.then_some((symbol.as_str(), d))
    }

    /// Whether `formula` is propositional over atoms with plain names (not
    /// operators, not starting with a special character), which
    /// [`Printer::plain`] prints without building the operator tree.
    fn is_plain(&self, formula: &Formula) -> bool {
        match formula {
            Formula::Atom(Term::App(name, args)) => {
                args.is_empty()
                    && name
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphanumeric())
                    && name.chars().all(is_ordinary_char)
                    && self.syntax.op(name).is_none()
            }
            Formula::Not(a) => self.connective(formula).is_some() && self.is_plain(a),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::ImpliedBy(a, b)
            | Formula::Iff(a, b) => {
                self.connective(formula).is_some() && self.is_plain(a) && self.is_plain(b)
            }
            _ => false,
        }
    }

    /// Prints a plain formula (see [`Printer::is_plain`]) straight from the
    /// AST, with the same text as the general path through `node`: generators
    /// print millions of these. A test compares the two.
    fn plain(&self, formula: &Formula, max: u32, out: &mut String) {
        let Some((symbol, d)) = self.connective(formula) else {
            if let Formula::Atom(Term::App(name, _)) = formula {
                self.push_symbol(out, name);
            }
            return;
        };
        if d.prec > max {
            out.push('(');
            self.plain(formula, TOP_PREC, out);
            out.push(')');
            return;
        }
        match formula {
            Formula::Not(operand) => {
                let (_, operand_max) = d.operand_limits();
                self.push_symbol(out, symbol);
                let operand_prec = self.connective(operand).map_or(0, |(_, o)| o.prec);
                if operand_prec > operand_max {
                    out.push('(');
                    self.plain(operand, TOP_PREC, out);
                    out.push(')');
                } else if let Formula::Atom(Term::App(name, _)) = operand.as_ref() {
                    self.push_symbol(out, name);
                } else {
                    let mut text = String::new();
                    self.plain(operand, operand_max, &mut text);
                    // `- (a | b)'` must not read as the application `-(a | b)`.
                    if text.starts_with('(') {
                        out.push(' ');
                        out.push_str(&text);
                    } else {
                        self.push_symbol(out, &text);
                    }
                }
            }
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::ImpliedBy(a, b)
            | Formula::Iff(a, b) => {
                let (left_max, right_max) = d.operand_limits();
                self.plain(a, left_max, out);
                out.push(' ');
                out.push_str(symbol);
                out.push(' ');
                self.plain(b, right_max, out);
            }
            _ => {}
        }
    }

    pub(crate) fn entry(&self, entry: &Entry, out: &mut String) {
        let max = if entry.attributes.is_empty() {
            TOP_PREC
        } else {
            BEFORE_ATTRIBUTE_PREC
        };
        self.node(&self.formula_node(&entry.formula), max, out);
        for attribute in &entry.attributes {
            out.push(' ');
            out.push_str(&self.syntax.connectives.attribute);
            out.push(' ');
            let node = Node::App {
                sym: attribute.name.clone(),
                args: attribute.args.iter().map(Self::term_node).collect(),
                start: 0,
            };
            self.node(&node, BEFORE_ATTRIBUTE_PREC, out);
        }
        out.push('.');
    }
}

/// Writes `items` one per line, applying their declarations to `syntax` as
/// the parser does.
pub(crate) fn write_items(syntax: &mut Syntax, items: &[Item], active: bool, out: &mut String) {
    for item in items {
        match item {
            Item::If { program, items } => {
                out.push_str(&format!("if({program}).\n"));
                write_items(syntax, items, active && program == "Prover9", out);
                out.push_str("end_if.\n");
            }
            _ => {
                write_item(syntax, item, out);
                if active {
                    // Items that do not parse back (e.g. an invalid op) are
                    // printed as they are; their effect is not simulated.
                    let _ = syntax.apply(item);
                }
            }
        }
    }
}

fn quoted(symbol: &str) -> String {
    format!("\"{symbol}\"")
}

fn write_item(syntax: &Syntax, item: &Item, out: &mut String) {
    let printer = Printer::new(syntax);
    match item {
        Item::Set(flag) => out.push_str(&format!("set({flag}).\n")),
        Item::Clear(flag) => out.push_str(&format!("clear({flag}).\n")),
        Item::Assign(param, value) => {
            out.push_str(&format!("assign({param}, "));
            printer.node(&Printer::term_node(value), ARG_PREC, out);
            out.push_str(").\n");
        }
        Item::Op {
            prec,
            kind,
            symbols,
        } => {
            let symbols = match symbols.as_slice() {
                [one] => quoted(one),
                many => format!(
                    "[{}]",
                    many.iter()
                        .map(|s| quoted(s))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            match prec {
                Some(p) => out.push_str(&format!("op({p}, {kind}, {symbols}).\n")),
                None => out.push_str(&format!("op({kind}, {symbols}).\n")),
            }
        }
        Item::Redeclare(operation, symbol) => {
            out.push_str(&format!("redeclare({operation}, {}).\n", quoted(symbol)))
        }
        Item::Formulas {
            kind,
            name,
            entries,
        } => {
            let head = if *kind == ListKind::Clauses {
                "clauses"
            } else {
                "formulas"
            };
            out.push_str(&format!("{head}({name}).\n"));
            for entry in entries {
                printer.entry(entry, out);
                out.push('\n');
            }
            out.push_str("end_of_list.\n");
        }
        Item::Terms { name, terms } => {
            out.push_str(&format!("list({name}).\n"));
            for term in terms {
                printer.term(term, out);
                out.push_str(".\n");
            }
            out.push_str("end_of_list.\n");
        }
        Item::Command(term) => {
            printer.term(term, out);
            out.push_str(".\n");
        }
        Item::If { .. } => write_items(&mut syntax.clone(), std::slice::from_ref(item), true, out),
    }
}

/// Prover9's built-in operator table, built once: `Display` is called for
/// every formula a generator prints.
fn builtin_syntax() -> &'static Syntax {
    static BUILTIN: once_cell::race::OnceBox<Syntax> = once_cell::race::OnceBox::new();
    BUILTIN.get_or_init(|| Box::new(Syntax::new(false)))
}

/// Under Prover9's built-in declarations, e.g. `f(x,[a,b:c]) * y'`.
impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        Printer::new(builtin_syntax()).term(self, &mut out);
        f.write_str(&out)
    }
}

/// Under Prover9's built-in declarations, e.g. `all x (p(x) -> a != x)`.
impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        Printer::new(builtin_syntax()).formula(self, &mut out);
        f.write_str(&out)
    }
}

/// The formula, its attributes and the period: `p(x) # label(a).`
impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        Printer::new(builtin_syntax()).entry(self, &mut out);
        f.write_str(&out)
    }
}

/// One item as it would appear at the start of a file, ending in a newline.
impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_items(
            &mut Syntax::new(false),
            std::slice::from_ref(self),
            true,
            &mut out,
        );
        f.write_str(&out)
    }
}

/// The whole file; each item is printed under the declarations before it.
impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_items(&mut Syntax::new(false), &self.items, true, &mut out);
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Formulas mixing plain atoms with what the fast path must refuse:
    /// operator-named and special atoms, equality, constants, quantifiers.
    fn formula() -> impl Strategy<Value = Formula> {
        let leaf = prop_oneof![
            4 => prop::sample::select(vec!["p", "q", "r", "a1", "x", "Big"]).prop_map(Formula::atom),
            1 => prop::sample::select(vec!["v", "$x", "-", "'it'"]).prop_map(Formula::atom),
            1 => Just(Formula::Atom(Term::App(
                "=".into(),
                vec![Term::Var("x".into()), Term::App("c".into(), vec![])]
            ))),
            1 => Just(Formula::True),
            1 => Just(Formula::False),
        ];
        leaf.prop_recursive(6, 48, 2, |inner| {
            prop_oneof![
                3 => inner.clone().prop_map(Formula::not),
                2 => (inner.clone(), inner.clone()).prop_map(|(a, b)| Formula::and(a, b)),
                2 => (inner.clone(), inner.clone()).prop_map(|(a, b)| Formula::or(a, b)),
                1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| Formula::implies(a, b)),
                1 => (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| Formula::ImpliedBy(Box::new(a), Box::new(b))),
                1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| Formula::iff(a, b)),
                1 => inner.prop_map(|a| Formula::Quant(Quantifier::All, "x".into(), Box::new(a))),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn the_plain_path_prints_what_the_operator_tree_prints(f in formula()) {
            let printer = Printer::new(builtin_syntax());
            let mut general = String::new();
            printer.node(&printer.formula_node(&f), TOP_PREC, &mut general);
            let mut printed = String::new();
            printer.formula(&f, &mut printed);
            prop_assert_eq!(printed, general);
        }
    }

    #[test]
    fn plain_formulas_take_the_plain_path_and_others_do_not() {
        let printer = Printer::new(builtin_syntax());
        let p = || Formula::atom("p");
        assert!(printer.is_plain(&Formula::not(Formula::not(Formula::and(p(), p())))));
        assert!(!printer.is_plain(&Formula::and(p(), Formula::atom("v"))));
        assert!(!printer.is_plain(&Formula::or(p(), Formula::True)));
        assert_eq!(
            Formula::not(Formula::not(Formula::or(p(), Formula::atom("q")))).to_string(),
            "--(p | q)"
        );
    }
}

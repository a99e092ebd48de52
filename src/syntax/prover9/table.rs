//! The parsing state that Prover9 input changes as it is read: the operator
//! table (`op`), the symbols of the built-in operations (`redeclare`) and the
//! variable rule (`prolog_style_variables`). The parser and the printer share
//! it, so printed text is read back under the same declarations.

use std::collections::BTreeMap;

use super::ast::Item;

/// Precedence at which `all x`/`exists x` bind, LADR's
/// `declare_quantifier_precedence(750)`: `=` (700) binds tighter, so
/// `all x f(x) = a` quantifies the equation, and `&`, `|`, `->` bind looser,
/// so `all x p(x) -> q(x)` is `(all x p(x)) -> q(x)` (see grammar/README.md).
pub(crate) const QUANTIFIER_PREC: u32 = 750;

/// Precedence given to a bare operator symbol used as a constant (e.g. the `'`
/// in `lex([', f])`): it must be parenthesised as the operand of an operator.
pub(crate) const OPERATOR_ATOM_PREC: u32 = 999;

/// The shape of an operator, named as in Prover9's `op` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fixity {
    Infix,
    InfixLeft,
    InfixRight,
    Prefix,
    PrefixParen,
    Postfix,
    PostfixParen,
}

impl Fixity {
    pub(crate) fn from_name(name: &str) -> Option<Fixity> {
        Some(match name {
            "infix" => Fixity::Infix,
            "infix_left" => Fixity::InfixLeft,
            "infix_right" => Fixity::InfixRight,
            "prefix" => Fixity::Prefix,
            "prefix_paren" => Fixity::PrefixParen,
            "postfix" => Fixity::Postfix,
            "postfix_paren" => Fixity::PostfixParen,
            _ => return None,
        })
    }

    pub(crate) fn is_infix(self) -> bool {
        matches!(self, Fixity::Infix | Fixity::InfixLeft | Fixity::InfixRight)
    }

    pub(crate) fn is_prefix(self) -> bool {
        matches!(self, Fixity::Prefix | Fixity::PrefixParen)
    }

    pub(crate) fn is_postfix(self) -> bool {
        matches!(self, Fixity::Postfix | Fixity::PostfixParen)
    }
}

/// An operator declaration in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OpDef {
    pub(crate) prec: u32,
    pub(crate) fixity: Fixity,
}

impl OpDef {
    /// The highest precedence allowed for the left and right operands
    /// (Prolog's x/y convention: `y` allows equal precedence, `x` does not).
    pub(crate) fn operand_limits(self) -> (u32, u32) {
        let p = self.prec;
        match self.fixity {
            Fixity::Infix => (p - 1, p - 1),
            Fixity::InfixLeft => (p, p - 1),
            Fixity::InfixRight => (p - 1, p),
            Fixity::Prefix => (0, p),
            Fixity::PrefixParen => (0, p - 1),
            Fixity::Postfix => (p, 0),
            Fixity::PostfixParen => (p - 1, 0),
        }
    }
}

/// The symbols currently denoting the built-in operations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Connectives {
    pub(crate) truth: String,
    pub(crate) falsity: String,
    pub(crate) not: String,
    pub(crate) or: String,
    pub(crate) and: String,
    pub(crate) implies: String,
    pub(crate) implied_by: String,
    pub(crate) iff: String,
    pub(crate) all: String,
    pub(crate) exists: String,
    pub(crate) eq: String,
    pub(crate) neq: String,
    pub(crate) attribute: String,
}

impl Default for Connectives {
    fn default() -> Self {
        let s = |x: &str| x.to_string();
        Connectives {
            truth: s("$T"),
            falsity: s("$F"),
            not: s("-"),
            or: s("|"),
            and: s("&"),
            implies: s("->"),
            implied_by: s("<-"),
            iff: s("<->"),
            all: s("all"),
            exists: s("exists"),
            eq: s("="),
            neq: s("!="),
            attribute: s("#"),
        }
    }
}

impl Connectives {
    /// The slot `redeclare(operation, _)` changes, by the manual's operation names.
    fn slot_mut(&mut self, operation: &str) -> Option<&mut String> {
        Some(match operation {
            "true" => &mut self.truth,
            "false" => &mut self.falsity,
            "negation" => &mut self.not,
            "disjunction" => &mut self.or,
            "conjunction" => &mut self.and,
            "implication" => &mut self.implies,
            "backward_implication" => &mut self.implied_by,
            "equivalence" => &mut self.iff,
            "universal_quantification" => &mut self.all,
            "existential_quantification" => &mut self.exists,
            "equality" => &mut self.eq,
            "negated_equality" => &mut self.neq,
            "attribute" => &mut self.attribute,
            _ => return None,
        })
    }

    fn all_symbols(&self) -> [&str; 13] {
        [
            &self.truth,
            &self.falsity,
            &self.not,
            &self.or,
            &self.and,
            &self.implies,
            &self.implied_by,
            &self.iff,
            &self.all,
            &self.exists,
            &self.eq,
            &self.neq,
            &self.attribute,
        ]
    }
}

/// Whether `c` may appear in an ordinary symbol.
pub(crate) fn is_ordinary_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '$' || c == '_'
}

/// Whether `c` may appear in a special symbol.
pub(crate) fn is_special_char(c: char) -> bool {
    "+-*/\\^<>=`~?@&|!#';".contains(c)
}

/// Everything declarations change while a file is read.
#[derive(Debug, Clone)]
pub(crate) struct Syntax {
    ops: BTreeMap<String, OpDef>,
    pub(crate) connectives: Connectives,
    pub(crate) prolog_style_variables: bool,
}

impl Syntax {
    /// The state at the start of a file: Prover9's built-in operator table.
    pub(crate) fn new(prolog_style_variables: bool) -> Syntax {
        use Fixity::*;
        let defaults: [(&str, u32, Fixity); 26] = [
            ("#", 810, InfixRight),
            ("<->", 800, Infix),
            ("->", 800, Infix),
            ("<-", 800, Infix),
            ("|", 790, InfixRight),
            ("&", 780, InfixRight),
            ("=", 700, Infix),
            ("!=", 700, Infix),
            ("==", 700, Infix),
            ("<", 700, Infix),
            ("<=", 700, Infix),
            (">", 700, Infix),
            (">=", 700, Infix),
            // Not in the manual's table, but LADR declares them and the
            // manual's own list.in uses `x @<= z` without an `op` command.
            ("@<", 700, Infix),
            ("@<=", 700, Infix),
            ("@>", 700, Infix),
            ("@>=", 700, Infix),
            ("+", 500, Infix),
            ("*", 500, Infix),
            ("@", 500, Infix),
            ("/", 500, Infix),
            ("\\", 500, Infix),
            ("^", 500, Infix),
            ("v", 500, Infix),
            ("-", 350, Prefix),
            ("'", 300, Postfix),
        ];
        let ops = defaults
            .iter()
            .map(|&(s, prec, fixity)| (s.to_string(), OpDef { prec, fixity }))
            .collect();
        Syntax {
            ops,
            connectives: Connectives::default(),
            prolog_style_variables,
        }
    }

    /// The operator declaration of `symbol`, if it has one.
    pub(crate) fn op(&self, symbol: &str) -> Option<OpDef> {
        self.ops.get(symbol).copied()
    }

    /// Whether a bare symbol (no arguments) is a variable under the rule in force.
    pub(crate) fn is_variable_name(&self, symbol: &str) -> bool {
        match symbol.chars().next() {
            Some(c) if self.prolog_style_variables => c.is_ascii_uppercase() || c == '_',
            Some(c) => ('u'..='z').contains(&c),
            None => false,
        }
    }

    /// Whether the special-character string `s` is a symbol the input knows
    /// as a whole (an operator or a built-in operation's symbol).
    fn is_known(&self, s: &str) -> bool {
        self.ops.contains_key(s) || self.connectives.all_symbols().contains(&s)
    }

    /// Splits a maximal run of special characters into symbols, as `p|-q` is
    /// `p | -q`: a known symbol stays whole; otherwise the longest known
    /// prefix is taken repeatedly, and unknown stretches stay together up to
    /// the next place where a known symbol starts. Returns byte ranges.
    pub(crate) fn split_special(&self, s: &str) -> Vec<(usize, usize)> {
        if self.is_known(s) {
            return vec![(0, s.len())];
        }
        // Only prefixes up to the longest known symbol can be known, which
        // keeps long runs (e.g. 1000 `-`) linear.
        let longest = self
            .ops
            .keys()
            .map(String::len)
            .chain(self.connectives.all_symbols().map(str::len))
            .max()
            .unwrap_or(0);
        let known_prefix_at = |i: usize| -> Option<usize> {
            let rest = &s[i..];
            (1..=rest.len().min(longest))
                .rev()
                .filter(|&n| rest.is_char_boundary(n))
                .find(|&n| self.is_known(&rest[..n]))
        };
        let mut pieces = Vec::new();
        let mut i = 0;
        while i < s.len() {
            if let Some(n) = known_prefix_at(i) {
                pieces.push((i, i + n));
                i += n;
            } else {
                let mut j = i + 1;
                while j < s.len() && (!s.is_char_boundary(j) || known_prefix_at(j).is_none()) {
                    j += 1;
                }
                pieces.push((i, j));
                i = j;
            }
        }
        pieces
    }

    /// `op(prec, fixity, symbols)`; `fixity == "ordinary"` removes declarations.
    fn declare(
        &mut self,
        prec: Option<u32>,
        fixity: &str,
        symbols: &[String],
    ) -> Result<(), String> {
        if fixity == "ordinary" {
            for s in symbols {
                self.ops.remove(s);
            }
            return Ok(());
        }
        let fixity = Fixity::from_name(fixity).ok_or_else(|| {
            format!("unknown operator type `{fixity}` (expected infix, infix_left, infix_right, prefix, prefix_paren, postfix, postfix_paren or ordinary)")
        })?;
        let prec = match prec {
            Some(p) if (1..=998).contains(&p) => p,
            Some(p) => return Err(format!("operator precedence {p} is outside 1..998")),
            None => return Err("operator type needs a precedence".to_string()),
        };
        for s in symbols {
            self.ops.insert(s.clone(), OpDef { prec, fixity });
        }
        Ok(())
    }

    /// `redeclare(operation, symbol)`: the new symbol takes over the old one's
    /// parsing properties, as the manual specifies.
    fn redeclare(&mut self, operation: &str, symbol: &str) -> Result<(), String> {
        let Some(slot) = self.connectives.slot_mut(operation) else {
            return Err(format!("unknown operation `{operation}` in redeclare"));
        };
        let old = std::mem::replace(slot, symbol.to_string());
        if let Some(def) = self.ops.get(&old).copied() {
            self.ops.insert(symbol.to_string(), def);
        }
        Ok(())
    }

    /// Applies the effect of a parsed item on the state. `If` blocks change
    /// the state only when they are for Prover9, as Prover9 skips the others.
    pub(crate) fn apply(&mut self, item: &Item) -> Result<(), String> {
        match item {
            Item::Set(flag) if flag == "prolog_style_variables" => {
                self.prolog_style_variables = true
            }
            Item::Clear(flag) if flag == "prolog_style_variables" => {
                self.prolog_style_variables = false
            }
            Item::Set(flag) if flag == "arithmetic" => {
                // Mace4's documented effect of set(arithmetic) on parsing;
                // the manual's kenken6.in and send-money.in rely on it.
                let arithmetic: [(u32, &str, &str); 5] = [
                    (490, "infix_right", "+"),
                    (470, "infix_right", "*"),
                    (460, "infix", "/"),
                    (460, "infix", "mod"),
                    (390, "prefix", "-"),
                ];
                for (prec, fixity, symbol) in arithmetic {
                    self.declare(Some(prec), fixity, &[symbol.to_string()])?;
                }
            }
            Item::Op {
                prec,
                kind,
                symbols,
            } => self.declare(*prec, kind, symbols)?,
            Item::Redeclare(operation, symbol) => self.redeclare(operation, symbol)?,
            Item::If { program, items } if program == "Prover9" => {
                for item in items {
                    self.apply(item)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(syntax: &Syntax, s: &str) -> Vec<String> {
        syntax
            .split_special(s)
            .into_iter()
            .map(|(a, b)| s[a..b].to_string())
            .collect()
    }

    #[test]
    fn special_runs_split_into_known_symbols() {
        let syntax = Syntax::new(false);
        assert_eq!(pieces(&syntax, "|-"), ["|", "-"]);
        assert_eq!(pieces(&syntax, "->"), ["->"]);
        assert_eq!(pieces(&syntax, "''"), ["'", "'"]);
        assert_eq!(pieces(&syntax, "~~|"), ["~~", "|"]);
        assert_eq!(pieces(&syntax, "~~"), ["~~"]);
        assert_eq!(pieces(&syntax, "&-"), ["&", "-"]);
    }

    #[test]
    fn redeclared_symbols_take_over_parsing_properties() {
        let mut syntax = Syntax::new(false);
        syntax.redeclare("conjunction", "AND").unwrap();
        assert_eq!(
            syntax.op("AND"),
            Some(OpDef {
                prec: 780,
                fixity: Fixity::InfixRight
            })
        );
        assert_eq!(syntax.connectives.and, "AND");
        assert!(syntax.redeclare("xor", "X").is_err());
    }
}

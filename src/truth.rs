//! Exact propositional semantics by truth tables.
//!
//! This is the second engine beside Z3, for the propositional problems the
//! generators make by the hundred thousand: a formula over `n` atoms is
//! evaluated on all `2^n` rows at once, 64 rows per machine word, so a check
//! costs nanoseconds where a solver call costs microseconds. It is exact, has
//! no timeouts, and refuses anything that is not propositional.

use crate::syntax::prover9::{Formula, Term};
use std::collections::BTreeSet;

/// The most atoms a table may have: 2^20 rows are 128 KiB per set of models.
pub const MAX_ATOMS: usize = 20;

/// Why a formula cannot be decided by truth tables.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TruthError {
    /// A quantifier, a variable, equality or an atom with arguments.
    #[error("not propositional: {0}")]
    NotPropositional(String),
    /// More atoms than [`MAX_ATOMS`].
    #[error("{0} atoms is more than the {MAX_ATOMS} a truth table allows")]
    TooManyAtoms(usize),
    /// An atom the table was not built with.
    #[error("unknown atom {0}")]
    UnknownAtom(String),
}

/// The rows of a truth table over a fixed list of atoms. Row `r` gives atom
/// `i` the value of bit `i` of `r`.
#[derive(Debug, Clone)]
pub struct TruthTable {
    atoms: Vec<String>,
    words: usize,
    /// Valid bits of the last word (all rows fit in it when there are < 6 atoms).
    last_mask: u64,
}

/// A set of rows of a [`TruthTable`]: where a formula is true.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Models {
    words: Vec<u64>,
    last_mask: u64,
}

/// Bit patterns of the first six atoms inside one 64-row word.
const COLUMN: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

/// The names of the atoms of `f`, sorted; an error if `f` is not
/// propositional.
pub fn atoms(f: &Formula) -> Result<BTreeSet<String>, TruthError> {
    let mut out = BTreeSet::new();
    collect_atoms(f, &mut out)?;
    Ok(out)
}

impl TruthTable {
    /// A table over the atoms of `formulas`, in sorted order.
    pub fn new<'a>(
        formulas: impl IntoIterator<Item = &'a Formula>,
    ) -> Result<TruthTable, TruthError> {
        let mut atoms = BTreeSet::new();
        for f in formulas {
            collect_atoms(f, &mut atoms)?;
        }
        TruthTable::with_atoms(atoms.into_iter().collect())
    }

    /// A table over exactly these atoms, in this order.
    pub fn with_atoms(atoms: Vec<String>) -> Result<TruthTable, TruthError> {
        if atoms.len() > MAX_ATOMS {
            return Err(TruthError::TooManyAtoms(atoms.len()));
        }
        let rows = 1usize << atoms.len();
        let words = rows.div_ceil(64);
        let last_mask = if rows >= 64 {
            u64::MAX
        } else {
            (1u64 << rows) - 1
        };
        Ok(TruthTable {
            atoms,
            words,
            last_mask,
        })
    }

    /// The atoms, in row-bit order.
    pub fn atoms(&self) -> &[String] {
        &self.atoms
    }

    /// The number of rows, `2^atoms`.
    pub fn rows(&self) -> usize {
        1 << self.atoms.len()
    }

    /// Every row.
    pub fn all(&self) -> Models {
        self.models_from(vec![u64::MAX; self.words])
    }

    /// The rows where `formula` is true.
    pub fn models(&self, formula: &Formula) -> Result<Models, TruthError> {
        let words = match formula {
            Formula::True => vec![u64::MAX; self.words],
            Formula::False => vec![0; self.words],
            Formula::Atom(t) => self.column(atom_name(t)?)?,
            Formula::Not(a) => return Ok(self.models(a)?.not()),
            Formula::And(a, b) => return Ok(self.models(a)?.and(&self.models(b)?)),
            Formula::Or(a, b) => return Ok(self.models(a)?.or(&self.models(b)?)),
            Formula::Implies(a, b) => return Ok(self.models(a)?.not().or(&self.models(b)?)),
            Formula::ImpliedBy(a, b) => return Ok(self.models(b)?.not().or(&self.models(a)?)),
            Formula::Iff(a, b) => return Ok(self.models(a)?.iff(&self.models(b)?)),
            Formula::Quant(..) => return Err(TruthError::NotPropositional(formula_kind(formula))),
        };
        Ok(self.models_from(words))
    }

    /// The rows where every formula is true.
    pub fn models_of_all(&self, formulas: &[Formula]) -> Result<Models, TruthError> {
        formulas
            .iter()
            .try_fold(self.all(), |acc, f| Ok(acc.and(&self.models(f)?)))
    }

    /// The value of each atom in `row`.
    pub fn assignment(&self, row: usize) -> Vec<(String, bool)> {
        self.atoms
            .iter()
            .enumerate()
            .map(|(i, a)| (a.clone(), row >> i & 1 == 1))
            .collect()
    }

    fn column(&self, atom: &str) -> Result<Vec<u64>, TruthError> {
        let i = self
            .atoms
            .iter()
            .position(|a| a == atom)
            .ok_or_else(|| TruthError::UnknownAtom(atom.to_string()))?;
        Ok((0..self.words)
            .map(|w| match COLUMN.get(i) {
                Some(&pattern) => pattern,
                None if w >> (i - 6) & 1 == 1 => u64::MAX,
                None => 0,
            })
            .collect())
    }

    fn models_from(&self, words: Vec<u64>) -> Models {
        let mut models = Models {
            words,
            last_mask: self.last_mask,
        };
        models.trim();
        models
    }
}

impl Models {
    /// Rows in both sets.
    pub fn and(&self, other: &Models) -> Models {
        self.zip(other, |a, b| a & b)
    }

    /// Rows in either set.
    pub fn or(&self, other: &Models) -> Models {
        self.zip(other, |a, b| a | b)
    }

    /// Rows in both sets or in neither.
    pub fn iff(&self, other: &Models) -> Models {
        self.zip(other, |a, b| !(a ^ b))
    }

    /// Rows not in the set.
    pub fn not(&self) -> Models {
        let mut m = Models {
            words: self.words.iter().map(|w| !w).collect(),
            last_mask: self.last_mask,
        };
        m.trim();
        m
    }

    /// No row: the formula is unsatisfiable.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Every row: the formula is valid.
    pub fn is_all(&self) -> bool {
        self.not().is_empty()
    }

    /// Every row of `self` is in `other`: entailment.
    pub fn is_subset(&self, other: &Models) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .all(|(a, b)| a & !b == 0)
    }

    /// How many rows.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether `row` is in the set.
    pub fn contains(&self, row: usize) -> bool {
        self.words
            .get(row / 64)
            .is_some_and(|w| w >> (row % 64) & 1 == 1)
    }

    /// The lowest row in the set: a model to show, deterministically.
    pub fn first(&self) -> Option<usize> {
        self.words
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    fn zip(&self, other: &Models, op: impl Fn(u64, u64) -> u64) -> Models {
        let words = self
            .words
            .iter()
            .zip(&other.words)
            .map(|(&a, &b)| op(a, b))
            .collect();
        let mut m = Models {
            words,
            last_mask: self.last_mask,
        };
        m.trim();
        m
    }

    /// Clears the bits past the last row, so counts and emptiness are exact.
    fn trim(&mut self) {
        if let Some(last) = self.words.last_mut() {
            *last &= self.last_mask;
        }
    }
}

/// Whether the formulas have a common model.
pub fn satisfiable(formulas: &[Formula]) -> Result<bool, TruthError> {
    let table = TruthTable::new(formulas)?;
    Ok(!table.models_of_all(formulas)?.is_empty())
}

/// Whether every model of `premises` is a model of `goal`.
pub fn entails(premises: &[Formula], goal: &Formula) -> Result<bool, TruthError> {
    let table = TruthTable::new(premises.iter().chain([goal]))?;
    Ok(table
        .models_of_all(premises)?
        .is_subset(&table.models(goal)?))
}

/// Whether the two formulas have the same models.
pub fn equivalent(a: &Formula, b: &Formula) -> Result<bool, TruthError> {
    let table = TruthTable::new([a, b])?;
    Ok(table.models(a)? == table.models(b)?)
}

fn atom_name(t: &Term) -> Result<&str, TruthError> {
    match t {
        Term::App(name, args) if args.is_empty() => Ok(name),
        Term::App(name, args) => Err(TruthError::NotPropositional(format!(
            "atom {name}/{}",
            args.len()
        ))),
        Term::Var(v) => Err(TruthError::NotPropositional(format!("variable {v}"))),
    }
}

fn collect_atoms(f: &Formula, out: &mut BTreeSet<String>) -> Result<(), TruthError> {
    match f {
        Formula::True | Formula::False => Ok(()),
        Formula::Atom(t) => {
            out.insert(atom_name(t)?.to_string());
            Ok(())
        }
        Formula::Not(a) => collect_atoms(a, out),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Implies(a, b)
        | Formula::ImpliedBy(a, b)
        | Formula::Iff(a, b) => {
            collect_atoms(a, out)?;
            collect_atoms(b, out)
        }
        Formula::Quant(..) => Err(TruthError::NotPropositional(formula_kind(f))),
    }
}

fn formula_kind(f: &Formula) -> String {
    match f {
        Formula::Quant(_, v, _) => format!("quantifier over {v}"),
        _ => "formula".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(name: &str) -> Formula {
        Formula::Atom(Term::App(name.to_string(), vec![]))
    }
    fn not(f: Formula) -> Formula {
        Formula::Not(Box::new(f))
    }
    fn imp(a: Formula, b: Formula) -> Formula {
        Formula::Implies(Box::new(a), Box::new(b))
    }
    fn or(a: Formula, b: Formula) -> Formula {
        Formula::Or(Box::new(a), Box::new(b))
    }

    /// Row by row, against the definition, for tables that span 1 to 3 words.
    #[test]
    fn columns_match_the_row_bits() {
        for n in [1usize, 3, 6, 7, 8] {
            let atoms: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
            let table = TruthTable::with_atoms(atoms.clone()).unwrap();
            for (i, a) in atoms.iter().enumerate() {
                let m = table.models(&atom(a)).unwrap();
                for row in 0..table.rows() {
                    assert_eq!(
                        m.contains(row),
                        row >> i & 1 == 1,
                        "atom {i} row {row} of {n}"
                    );
                }
                assert_eq!(m.count(), table.rows() / 2);
            }
        }
    }

    #[test]
    fn classic_inferences() {
        let (p, q, r) = (atom("p"), atom("q"), atom("r"));
        // Modus ponens and modus tollens hold; affirming the consequent does not.
        assert!(entails(&[imp(p.clone(), q.clone()), p.clone()], &q).unwrap());
        assert!(entails(
            &[imp(p.clone(), q.clone()), not(q.clone())],
            &not(p.clone())
        )
        .unwrap());
        assert!(!entails(&[imp(p.clone(), q.clone()), q.clone()], &p).unwrap());
        // Disjunction elimination.
        let de = [
            or(p.clone(), q.clone()),
            imp(p.clone(), r.clone()),
            imp(q.clone(), r.clone()),
        ];
        assert!(entails(&de, &r).unwrap());
        // Contradictions entail anything and are unsatisfiable.
        assert!(!satisfiable(&[p.clone(), not(p.clone())]).unwrap());
        assert!(entails(&[p.clone(), not(p.clone())], &r).unwrap());
        assert!(equivalent(&imp(p.clone(), q.clone()), &or(not(p), q)).unwrap());
    }

    #[test]
    fn refuses_what_is_not_propositional() {
        let fo = Formula::Atom(Term::App("p".into(), vec![Term::Var("x".into())]));
        assert!(matches!(
            satisfiable(&[fo]),
            Err(TruthError::NotPropositional(_))
        ));
        let many: Vec<Formula> = (0..21).map(|i| atom(&format!("a{i}"))).collect();
        assert_eq!(satisfiable(&many), Err(TruthError::TooManyAtoms(21)));
    }
}

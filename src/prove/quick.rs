//! Settles easy problems before any engine starts. Creating Z3's first
//! context costs some 10 ms of CPU (it fills two 8 MB tables) and E's
//! `--auto` about as much, where Prover9 answers a trivial problem in 3-7 ms.
//! Three exact checks with counted limits run first, without Z3 or E:
//!
//! - a propositional problem is decided by truth table ([`TableCheck`], also
//!   what `Prover` uses for small propositional steps); a failing row is the
//!   countermodel;
//! - a proof by ground instances: the universal premises instantiated with
//!   the problem's constants (the goal's variables become fresh constants)
//!   entail the goal by truth table, every atom read as an opaque
//!   proposition. Instances of premises are consequences of them, so this is
//!   sound;
//! - a countermodel by exhaustive search over tiny interpretations (a few
//!   hundred at most), each checked by our evaluator.
//!
//! Everything else goes to the race of engines.

use super::portfolio::confirms;
use super::Entailment;
use crate::smt::{universal_closure, Countermodel, Signature, SymbolKind, Table};
use crate::syntax::prover9::{Formula, Quantifier, Term};
use crate::truth::{Models, TruthTable, MAX_ATOMS};
use std::collections::{BTreeMap, BTreeSet};

/// The most ground instances the proof attempt builds.
const MAX_INSTANCES: usize = 256;

/// The most interpretations the model search evaluates, over all sizes.
const MAX_CANDIDATES: u64 = 512;

/// The most formula nodes (connectives, atoms and terms) a problem may have
/// for the ground-instance proof and the model search to be tried. Neither
/// can succeed on a large problem (at most [`MAX_ATOMS`] propositions,
/// [`MAX_CANDIDATES`] tiny interpretations), yet both would walk all of it,
/// the model search once per candidate: on 140,000 constants they were a
/// third of the time to read and prove. Leaving them out never changes a
/// verdict, only which engine gives it.
const MAX_NODES: usize = 20_000;

/// The largest domain the model search tries.
const MAX_SIZE: usize = 3;

/// A verdict and the engine name for the report, or `None` for "not easy".
pub(crate) fn settle(
    premises: &[&Formula],
    goal: Option<&Formula>,
) -> Option<(Entailment, &'static str)> {
    if let Some(result) = by_table(premises, goal, MAX_ATOMS, true) {
        return Some((result, "truth-table"));
    }
    if larger_than(premises.iter().copied().chain(goal), MAX_NODES) {
        return None;
    }
    if by_instances(premises, goal) == Some(true) {
        return Some((Entailment::Proved, "truth-table"));
    }
    let countermodel = small_model(premises, goal)?;
    Some((
        Entailment::NotProved {
            countermodel: Some(countermodel),
        },
        "model-search",
    ))
}

/// Whether `formulas` have more than `limit` nodes together; counts no
/// further than the limit.
fn larger_than<'a>(formulas: impl Iterator<Item = &'a Formula>, limit: usize) -> bool {
    let mut formulas: Vec<&Formula> = formulas.collect();
    let mut terms: Vec<&Term> = Vec::new();
    let mut count = 0;
    while count <= limit {
        if let Some(t) = terms.pop() {
            if let Term::App(_, args) = t {
                terms.extend(args);
            }
        } else if let Some(f) = formulas.pop() {
            match f {
                Formula::True | Formula::False => {}
                Formula::Atom(t) => terms.push(t),
                Formula::Not(g) | Formula::Quant(_, _, g) => formulas.push(g),
                Formula::And(a, b)
                | Formula::Or(a, b)
                | Formula::Implies(a, b)
                | Formula::ImpliedBy(a, b)
                | Formula::Iff(a, b) => formulas.extend([&**a, &**b]),
            }
        } else {
            return false;
        }
        count += 1;
    }
    true
}

/// The verdict of a [`TableCheck`] (see there for `None`), its countermodel,
/// if asked for, re-checked by our evaluator.
pub(crate) fn by_table(
    premises: &[&Formula],
    goal: Option<&Formula>,
    max_atoms: usize,
    model: bool,
) -> Option<Entailment> {
    let result = TableCheck::new(premises, goal, max_atoms)?.decide(model);
    match &result {
        Entailment::NotProved {
            countermodel: Some(cm),
        } if !confirms(cm, premises, goal) => None,
        _ => Some(result),
    }
}

/// A propositional check decided by truth table: the rows where each premise
/// holds, and those where the goal fails. Exact, with no solver and no
/// timeout, and for the few atoms of a step check far cheaper than a Z3 call
/// (and than creating Z3's first context, which a step file then never pays).
pub(crate) struct TableCheck {
    table: TruthTable,
    premises: Vec<Models>,
    /// Every row without a goal: then a check asks for satisfiability.
    goal_fails: Models,
}

impl TableCheck {
    /// `None` unless every formula is propositional (no quantifier, variable,
    /// equality or argument) and they have at most `max_atoms` atoms together.
    pub(crate) fn new(
        premises: &[&Formula],
        goal: Option<&Formula>,
        max_atoms: usize,
    ) -> Option<TableCheck> {
        let mut atoms = BTreeSet::new();
        for f in premises.iter().copied().chain(goal) {
            atoms.extend(crate::truth::atoms(f).ok()?);
            if atoms.len() > max_atoms {
                return None;
            }
        }
        let table = TruthTable::with_atoms(atoms.into_iter().collect()).ok()?;
        let premises = premises
            .iter()
            .map(|p| table.models(p))
            .collect::<Result<Vec<_>, _>>()
            .ok()?;
        let goal_fails = match goal {
            Some(g) => table.models(g).ok()?.not(),
            None => table.all(),
        };
        Some(TableCheck {
            table,
            premises,
            goal_fails,
        })
    }

    /// The rows where the premises in `subset` hold and the goal fails.
    pub(crate) fn counter_rows(&self, subset: impl IntoIterator<Item = usize>) -> Models {
        subset.into_iter().fold(self.goal_fails.clone(), |rows, i| {
            rows.and(&self.premises[i])
        })
    }

    /// The verdict on all premises, with the first failing row as the
    /// countermodel when `model` asks for one.
    pub(crate) fn decide(&self, model: bool) -> Entailment {
        match self.counter_rows(0..self.premises.len()).first() {
            None => Entailment::Proved,
            Some(row) => Entailment::NotProved {
                countermodel: model.then(|| self.countermodel(row)),
            },
        }
    }

    /// Row `row` in Mace4's notation: one element, each atom a 0-ary relation.
    fn countermodel(&self, row: usize) -> Countermodel {
        let relations = self
            .table
            .assignment(row)
            .into_iter()
            .map(|(symbol, on)| Table {
                symbol,
                arity: 0,
                values: vec![usize::from(on)],
            })
            .collect();
        Countermodel {
            domain_size: 1,
            functions: Vec::new(),
            relations,
            truncated: false,
        }
    }
}

/// The variables of a leading run of `all` and the body under them.
fn universal_prefix(mut f: Formula) -> (Vec<String>, Formula) {
    let mut vars = Vec::new();
    while let Formula::Quant(Quantifier::All, v, body) = f {
        vars.push(v);
        f = *body;
    }
    (vars, f)
}

fn quantifier_free(f: &Formula) -> bool {
    match f {
        Formula::True | Formula::False | Formula::Atom(_) => true,
        Formula::Not(g) => quantifier_free(g),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Implies(a, b)
        | Formula::ImpliedBy(a, b)
        | Formula::Iff(a, b) => quantifier_free(a) && quantifier_free(b),
        Formula::Quant(..) => false,
    }
}

fn substitute_term(t: &Term, map: &BTreeMap<&str, &Term>) -> Term {
    match t {
        Term::Var(v) => map
            .get(v.as_str())
            .map_or_else(|| t.clone(), |&c| c.clone()),
        Term::App(name, args) => Term::App(
            name.clone(),
            args.iter().map(|a| substitute_term(a, map)).collect(),
        ),
    }
}

/// `f` (quantifier-free) with variables replaced by ground terms.
fn substitute(f: &Formula, map: &BTreeMap<&str, &Term>) -> Formula {
    let both =
        |a: &Formula, b: &Formula| (Box::new(substitute(a, map)), Box::new(substitute(b, map)));
    match f {
        Formula::True | Formula::False | Formula::Quant(..) => f.clone(),
        Formula::Atom(t) => Formula::Atom(substitute_term(t, map)),
        Formula::Not(g) => Formula::Not(Box::new(substitute(g, map))),
        Formula::And(a, b) => {
            let (a, b) = both(a, b);
            Formula::And(a, b)
        }
        Formula::Or(a, b) => {
            let (a, b) = both(a, b);
            Formula::Or(a, b)
        }
        Formula::Implies(a, b) => {
            let (a, b) = both(a, b);
            Formula::Implies(a, b)
        }
        Formula::ImpliedBy(a, b) => {
            let (a, b) = both(a, b);
            Formula::ImpliedBy(a, b)
        }
        Formula::Iff(a, b) => {
            let (a, b) = both(a, b);
            Formula::Iff(a, b)
        }
    }
}

fn constants_of_term(t: &Term, out: &mut BTreeSet<Term>) {
    if let Term::App(_, args) = t {
        if args.is_empty() {
            out.insert(t.clone());
        }
        args.iter().for_each(|a| constants_of_term(a, out));
    }
}

fn constants(f: &Formula, out: &mut BTreeSet<Term>) {
    match f {
        Formula::True | Formula::False => {}
        // A propositional atom is a 0-ary predicate, not a constant.
        Formula::Atom(Term::App(_, args)) => args.iter().for_each(|a| constants_of_term(a, out)),
        Formula::Atom(Term::Var(_)) => {}
        Formula::Not(g) | Formula::Quant(_, _, g) => constants(g, out),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Implies(a, b)
        | Formula::ImpliedBy(a, b)
        | Formula::Iff(a, b) => {
            constants(a, out);
            constants(b, out);
        }
    }
}

/// Ground atoms as propositional atoms `0`, `1`, … (names no Prover9 atom
/// has); `t = t` is true.
#[derive(Default)]
struct Propositions {
    atoms: BTreeMap<Term, String>,
}

impl Propositions {
    fn of(&mut self, f: &Formula) -> Formula {
        match f {
            Formula::True | Formula::False | Formula::Quant(..) => f.clone(),
            Formula::Atom(Term::App(eq, args))
                if eq == "=" && args.len() == 2 && args[0] == args[1] =>
            {
                Formula::True
            }
            Formula::Atom(t) => {
                let next = self.atoms.len().to_string();
                let name = self.atoms.entry(t.clone()).or_insert(next).clone();
                Formula::Atom(Term::App(name, vec![]))
            }
            Formula::Not(g) => Formula::Not(Box::new(self.of(g))),
            Formula::And(a, b) => Formula::And(Box::new(self.of(a)), Box::new(self.of(b))),
            Formula::Or(a, b) => Formula::Or(Box::new(self.of(a)), Box::new(self.of(b))),
            Formula::Implies(a, b) => Formula::Implies(Box::new(self.of(a)), Box::new(self.of(b))),
            Formula::ImpliedBy(a, b) => {
                Formula::ImpliedBy(Box::new(self.of(a)), Box::new(self.of(b)))
            }
            Formula::Iff(a, b) => Formula::Iff(Box::new(self.of(a)), Box::new(self.of(b))),
        }
    }
}

/// Every assignment of `values` to `k` positions, first position slowest.
fn tuples<T: Clone>(values: &[T], k: usize) -> Vec<Vec<T>> {
    let mut out = vec![Vec::new()];
    for _ in 0..k {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut t = prefix.clone();
                    t.push(v.clone());
                    t
                })
            })
            .collect();
    }
    out
}

/// Whether the ground instances prove the goal (see [`by_instances`]).
pub(crate) fn proved_by_instances(premises: &[&Formula], goal: Option<&Formula>) -> bool {
    by_instances(premises, goal) == Some(true)
}

/// Whether the ground instances prove the goal; `None` when the problem does
/// not fit the attempt.
fn by_instances(premises: &[&Formula], goal: Option<&Formula>) -> Option<bool> {
    let mut clauses = Vec::new();
    for p in premises {
        let (vars, body) = universal_prefix(universal_closure(p));
        if !quantifier_free(&body) {
            return None;
        }
        clauses.push((vars, body));
    }
    let mut ground = BTreeSet::new();
    for (_, body) in &clauses {
        constants(body, &mut ground);
    }
    // The negated goal `-(all x G(x))` holds of fresh constants: `-G(c)`.
    let goal = match goal {
        Some(g) => {
            let (vars, body) = universal_prefix(universal_closure(g));
            if !quantifier_free(&body) {
                return None;
            }
            constants(&body, &mut ground);
            let fresh: Vec<Term> = vars
                .iter()
                .map(|v| Term::App(format!("{v}#goal"), vec![]))
                .collect();
            if fresh.iter().any(|c| ground.contains(c)) {
                return None;
            }
            let map = vars.iter().map(String::as_str).zip(&fresh).collect();
            let body = substitute(&body, &map);
            ground.extend(fresh);
            Some(body)
        }
        None => None,
    };
    // The domain is never empty: one arbitrary element if nothing names one.
    if ground.is_empty() {
        ground.insert(Term::App("#".into(), vec![]));
    }
    let ground: Vec<Term> = ground.into_iter().collect();
    let mut propositions = Propositions::default();
    let mut instances = Vec::new();
    for (vars, body) in &clauses {
        let count = ground.len().checked_pow(vars.len() as u32)?;
        if instances.len().saturating_add(count) > MAX_INSTANCES {
            return None;
        }
        for tuple in tuples(&ground, vars.len()) {
            let map = vars.iter().map(String::as_str).zip(&tuple).collect();
            instances.push(propositions.of(&substitute(body, &map)));
        }
        if propositions.atoms.len() > MAX_ATOMS {
            return None;
        }
    }
    let goal = goal.map(|g| propositions.of(&g));
    let table = TruthTable::new(instances.iter().chain(&goal)).ok()?;
    let mut counter = table.models_of_all(&instances).ok()?;
    if let Some(g) = &goal {
        counter = counter.and(&table.models(g).ok()?.not());
    }
    Some(counter.is_empty())
}

/// The lexicographically first interpretation (constants and tables in
/// name order, least values first, as Mace4 prints its first model) of
/// size up to [`MAX_SIZE`] that our evaluator confirms, if the whole
/// search fits in [`MAX_CANDIDATES`].
fn small_model(premises: &[&Formula], goal: Option<&Formula>) -> Option<Countermodel> {
    let signature = Signature::of(premises.iter().copied().chain(goal)).ok()?;
    let symbols: Vec<(&str, usize, SymbolKind)> = signature.symbols().collect();
    let mut budget = MAX_CANDIDATES;
    for n in 1..=MAX_SIZE {
        // One digit per table cell: a function cell takes n values, a relation cell 2.
        // The candidates are counted before any table is built: with a
        // 54-ary predicate, size 2 has 2^54 cells, which must never be
        // allocated (PUZ037-1 aborted on a 1.4e17-byte request here).
        let mut count: u64 = 1;
        let mut total_cells: usize = 0;
        for &(_, arity, kind) in &symbols {
            let cells = n.checked_pow(u32::try_from(arity).ok()?)?;
            let base = if kind == SymbolKind::Function { n } else { 2 };
            let per_symbol = u64::try_from(base)
                .ok()?
                .checked_pow(u32::try_from(cells).ok()?)?;
            count = count.checked_mul(per_symbol)?;
            total_cells = total_cells.checked_add(cells)?;
            if count > budget {
                return None;
            }
        }
        budget -= count;
        let mut radix = Vec::with_capacity(total_cells);
        for &(_, arity, kind) in &symbols {
            let base = if kind == SymbolKind::Function { n } else { 2 };
            radix.extend(std::iter::repeat_n(base, n.pow(arity as u32)));
        }
        let mut digits = vec![0usize; radix.len()];
        loop {
            let cm = interpretation(&symbols, n, &digits);
            if confirms(&cm, premises, goal) {
                return Some(cm);
            }
            if !advance(&mut digits, &radix) {
                break;
            }
        }
    }
    None
}

/// The next candidate, last digit fastest; `false` after the last one.
fn advance(digits: &mut [usize], radix: &[usize]) -> bool {
    for i in (0..digits.len()).rev() {
        digits[i] += 1;
        if digits[i] < radix[i] {
            return true;
        }
        digits[i] = 0;
    }
    false
}

/// The interpretation of `symbols` on `0..n` whose cells are `digits`.
fn interpretation(
    symbols: &[(&str, usize, SymbolKind)],
    n: usize,
    digits: &[usize],
) -> Countermodel {
    let mut cm = Countermodel {
        domain_size: n,
        functions: Vec::new(),
        relations: Vec::new(),
        truncated: false,
    };
    let mut at = 0;
    for &(name, arity, kind) in symbols {
        let cells = n.pow(arity as u32);
        let table = Table {
            symbol: name.to_string(),
            arity,
            values: digits[at..at + cells].to_vec(),
        };
        at += cells;
        match kind {
            SymbolKind::Function => cm.functions.push(table),
            SymbolKind::Predicate => cm.relations.push(table),
        }
    }
    cm
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::{ProveOptions, Prover};
    use crate::syntax::prover9::{parse_formula, ParseOptions};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::time::Duration;

    fn f(s: &str) -> Formula {
        parse_formula(s, &ParseOptions::default()).expect("parses")
    }

    fn settle_str(premises: &[&str], goal: &str) -> Option<(Entailment, &'static str)> {
        let premises: Vec<Formula> = premises.iter().map(|p| f(p)).collect();
        let refs: Vec<&Formula> = premises.iter().collect();
        settle(&refs, Some(&f(goal)))
    }

    #[test]
    fn nodes_are_counted_up_to_the_limit() {
        // And, two atoms, and the terms p(f(a)), f(a), a and q: 7 nodes.
        let g = f("p(f(a)) & q");
        assert!(larger_than([&g].into_iter(), 6));
        assert!(!larger_than([&g].into_iter(), 7));
        assert!(!larger_than(std::iter::empty(), 0));
    }

    #[test]
    fn large_problems_skip_the_instance_proof_and_the_model_search() {
        // One premise with more than MAX_NODES nodes: the tiny model that
        // refutes `q` would be found at size 1, but the search is not tried.
        let atoms: Vec<String> = (0..MAX_NODES / 3).map(|i| format!("p(c{i})")).collect();
        let big = atoms.join(" & ");
        assert_eq!(settle_str(&[&big], "q"), None);
        let small = atoms[..10].join(" & ");
        assert_eq!(
            settle_str(&[&small], "q").map(|(_, e)| e),
            Some("model-search")
        );
    }

    #[test]
    fn easy_problems_are_settled_without_an_engine() {
        let (r, engine) =
            settle_str(&["all x (man(x) -> mortal(x))", "man(s)"], "mortal(s)").expect("settled");
        assert_eq!((r, engine), (Entailment::Proved, "truth-table"));
        // The goal's variable becomes a fresh constant: p(x) does not follow from p(a).
        let (r, engine) = settle_str(&["p(a)"], "p(x)").expect("settled");
        assert_eq!(engine, "model-search");
        let Entailment::NotProved {
            countermodel: Some(cm),
        } = r
        else {
            panic!("expected a countermodel, got {r:?}");
        };
        // Mace4's first model: a = 0, p true of 0 only.
        assert_eq!(
            cm.to_string(),
            "interpretation(2, [], [\n    function(a, [0]),\n    relation(p(_), [1,0])\n])."
        );
        // A propositional non-theorem gets its failing row.
        let (r, engine) = settle_str(&["p -> q", "q"], "p").expect("settled");
        assert_eq!(engine, "truth-table");
        let Entailment::NotProved {
            countermodel: Some(cm),
        } = r
        else {
            panic!("expected a countermodel, got {r:?}");
        };
        assert_eq!(cm.true_atoms(), vec!["q"]);
        // Equality beyond `t = t` and existential premises are for the engines.
        assert_eq!(settle_str(&["f(a) = b", "b = c"], "f(a) = c"), None);
        assert_eq!(
            settle_str(&["exists x p(x)"], "p(a)").map(|s| s.1),
            Some("model-search")
        );
        assert_eq!(
            settle_str(&["exists x p(x)", "all x (p(x) -> q(x))"], "exists x q(x)"),
            None
        );
    }

    fn random_term(rng: &mut ChaCha8Rng, vars: &[&str], depth: u32) -> Term {
        if depth == 0 || rng.gen_bool(0.6) {
            if !vars.is_empty() && rng.gen_bool(0.5) {
                return Term::Var(vars[rng.gen_range(0..vars.len())].into());
            }
            return Term::App(["a", "b"][rng.gen_range(0..2)].into(), vec![]);
        }
        Term::App("f".into(), vec![random_term(rng, vars, depth - 1)])
    }

    /// Quantifier-free formulas over free variables x, y (closed universally
    /// when read), with unary and binary predicates, equality and atoms.
    fn random_formula(rng: &mut ChaCha8Rng, depth: u32) -> Formula {
        let vars = ["x", "y"];
        if depth == 0 || rng.gen_bool(0.3) {
            let t = random_term(rng, &vars, 1);
            return match rng.gen_range(0..4) {
                0 => Formula::Atom(Term::App("p".into(), vec![t])),
                1 => Formula::Atom(Term::App("=".into(), vec![t, random_term(rng, &vars, 1)])),
                2 => Formula::Atom(Term::App("r".into(), vec![t, random_term(rng, &vars, 1)])),
                _ => Formula::atom("q"),
            };
        }
        let a = Box::new(random_formula(rng, depth - 1));
        let b = Box::new(random_formula(rng, depth - 1));
        match rng.gen_range(0..5) {
            0 => Formula::Not(a),
            1 => Formula::And(a, b),
            2 => Formula::Or(a, b),
            3 => Formula::Implies(a, b),
            _ => Formula::Iff(a, b),
        }
    }

    /// Differential: whatever is settled here, Z3 never contradicts, and
    /// every countermodel satisfies the premises and falsifies the goal.
    #[test]
    fn settled_verdicts_never_contradict_z3() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut prover = Prover::new(ProveOptions {
            timeout: Some(Duration::from_secs(2)),
            countermodels: false,
        });
        let (mut proved, mut refuted, mut open) = (0, 0, 0);
        for case in 0..400 {
            let premises: Vec<Formula> = (0..rng.gen_range(1..4))
                .map(|_| random_formula(&mut rng, 3))
                .collect();
            let goal = random_formula(&mut rng, 2);
            let refs: Vec<&Formula> = premises.iter().collect();
            let context = format!("case {case}: {premises:?} |- {goal}");
            let z3 = prover.entails(&premises, &goal).expect("checks");
            match settle(&refs, Some(&goal)) {
                Some((Entailment::Proved, _)) => {
                    proved += 1;
                    assert!(!matches!(z3, Entailment::NotProved { .. }), "{context}");
                }
                Some((Entailment::NotProved { countermodel }, _)) => {
                    refuted += 1;
                    let cm = countermodel.expect("a countermodel");
                    assert!(confirms(&cm, &refs, Some(&goal)), "{context}");
                    assert!(!matches!(z3, Entailment::Proved), "{context}");
                }
                Some((Entailment::Unknown { .. }, _)) => panic!("{context}: settled as unknown"),
                None => open += 1,
            }
        }
        println!(
            "400 random problems: {proved} proved, {refuted} refuted, {open} left to the engines"
        );
        assert!(proved > 20 && refuted > 20, "the sample settles too little");
    }
}

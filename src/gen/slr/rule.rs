//! Hidden rules: uniform sampling over body atoms, and pattern-guided
//! templates for the constructs of the SLR paper's appendix E.

use super::train::Vocabulary;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// How a rule was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum RuleSampling {
    /// `Rlen` atoms over car variables.
    Uniform,
    /// A template for one construct (stands in for the paper's LLM-guided policy).
    Pattern,
}

impl RuleSampling {
    /// The name written to the `rule sampling` field.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RuleSampling::Uniform => "uniform",
            RuleSampling::Pattern => "pattern-guided",
        }
    }
}

/// A sampled rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rule {
    /// The clause, e.g. `eastbound(T) :- has_car(T, C1), car_color(C1, red).`
    pub text: String,
    /// How it was drawn.
    pub sampling: RuleSampling,
    /// The construct (`uniform` for uniform rules, else the template name).
    pub construct: &'static str,
    /// Attribute literals in the body (the paper's rule length).
    pub complexity: usize,
    /// Active attributes the rule reads (indices into the vocabulary's
    /// attributes): what mirror backgrounds may change.
    pub relevant: BTreeSet<usize>,
}

/// One condition on a car: an attribute value or a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Literal {
    Attribute(usize, usize),
    Position(usize),
}

/// The pattern templates, by construct name.
pub(crate) const CONSTRUCTS: &[&str] = &[
    "conjunction",
    "disjunction",
    "negation",
    "distinctness",
    "counting",
    "exactly-one",
    "uniqueness",
    "universal",
    "implication",
    "neighbour",
    "sequence",
    "max",
    "last-car",
    "subset",
    "count-vs-count",
    "car-count",
    "exact-count",
    "recursion",
    "projection",
    "symmetry",
    "position-bound",
    "triple",
];

struct Builder<'v, 'l> {
    vocabulary: &'v Vocabulary<'l>,
    relevant: BTreeSet<usize>,
    complexity: usize,
    /// Conditions may fix a car's position (`car_num(C, 2)`); off where the
    /// template itself reads positions, so they never clash with it.
    positions: bool,
}

impl Builder<'_, '_> {
    fn new<'v, 'l>(vocabulary: &'v Vocabulary<'l>) -> Builder<'v, 'l> {
        Builder {
            vocabulary,
            relevant: BTreeSet::new(),
            complexity: 0,
            positions: true,
        }
    }

    fn max_cars(&self) -> usize {
        self.vocabulary.cars.1
    }

    /// Whether `literals` could all hold of one car: one value per
    /// predicate, grammar respected.
    fn compatible(&self, literals: &[Literal]) -> bool {
        let mut positions = 0;
        let mut seen = BTreeSet::new();
        for literal in literals {
            match literal {
                Literal::Position(_) => positions += 1,
                Literal::Attribute(a, _) => {
                    if !seen.insert(*a) {
                        return false;
                    }
                }
            }
        }
        let attributes = &self.vocabulary.attributes;
        positions <= 1
            && self.vocabulary.language.consistent(|name| {
                literals.iter().find_map(|l| match *l {
                    Literal::Attribute(a, v) if attributes[a].name == name => {
                        Some(attributes[a].values[v].as_str())
                    }
                    _ => None,
                })
            })
    }

    /// One more literal for a car already constrained by `existing`, or
    /// `None` if no predicate can be added. Predicate first, then value,
    /// each uniform among what the grammar allows.
    fn extend(&self, rng: &mut ChaCha8Rng, existing: &[Literal]) -> Option<Literal> {
        let mut options: Vec<Vec<Literal>> = Vec::new();
        for (a, attribute) in self.vocabulary.attributes.iter().enumerate() {
            let values: Vec<Literal> = (0..attribute.values.len())
                .map(|v| Literal::Attribute(a, v))
                .filter(|l| {
                    let mut all = existing.to_vec();
                    all.push(*l);
                    self.compatible(&all)
                })
                .collect();
            if !values.is_empty() {
                options.push(values);
            }
        }
        if self.positions && self.vocabulary.position && self.max_cars() > 1 {
            let values: Vec<Literal> = (1..=self.max_cars())
                .map(Literal::Position)
                .filter(|l| {
                    let mut all = existing.to_vec();
                    all.push(*l);
                    self.compatible(&all)
                })
                .collect();
            if !values.is_empty() {
                options.push(values);
            }
        }
        let values = options.choose(rng)?;
        values.choose(rng).copied()
    }

    /// `size` literals for one car.
    fn condition(&self, rng: &mut ChaCha8Rng, size: usize) -> Option<Vec<Literal>> {
        let mut literals = Vec::new();
        for _ in 0..size {
            let literal = self.extend(rng, &literals)?;
            literals.push(literal);
        }
        literals.sort();
        Some(literals)
    }

    /// Prints `literals` on variable `var` and records what they read.
    fn print(&mut self, literals: &[Literal], var: &str) -> String {
        let attributes = &self.vocabulary.attributes;
        let position = &self.vocabulary.language.position.name;
        let parts: Vec<String> = literals
            .iter()
            .map(|l| match *l {
                Literal::Attribute(a, v) => {
                    self.relevant.insert(a);
                    format!("{}({var}, {})", attributes[a].name, attributes[a].values[v])
                }
                Literal::Position(p) => format!("{position}({var}, {p})"),
            })
            .collect();
        self.complexity += literals.len();
        parts.join(", ")
    }

    fn has_car(&self, var: &str) -> String {
        format!("{}(T, {var})", self.vocabulary.language.membership.name)
    }
}

/// A uniform rule with `length` literals: each goes to an existing car
/// variable or (with probability ½, while cars remain) a new one introduced
/// by `has_car(T, Ck)`. `None` when the vocabulary cannot host it.
pub(crate) fn uniform(
    rng: &mut ChaCha8Rng,
    vocabulary: &Vocabulary,
    length: usize,
) -> Option<Rule> {
    let mut builder = Builder::new(vocabulary);
    let mut cars: Vec<Vec<Literal>> = Vec::new();
    for _ in 0..length {
        let fresh = cars.is_empty() || (cars.len() < builder.max_cars() && rng.gen_bool(0.5));
        let target = if fresh {
            cars.push(Vec::new());
            cars.len() - 1
        } else {
            rng.gen_range(0..cars.len())
        };
        let literal = match builder.extend(rng, &cars[target]) {
            Some(l) => l,
            None if !fresh && cars.len() < builder.max_cars() => {
                cars.push(Vec::new());
                let last = cars.len() - 1;
                let l = builder.extend(rng, &cars[last])?;
                cars[last].push(l);
                continue;
            }
            None => return None,
        };
        cars[target].push(literal);
    }
    for car in &mut cars {
        car.sort();
    }
    // A car whose literals are a subset of another's adds nothing: the
    // other car's binding satisfies it too, so the rule would be shorter
    // than its stated length.
    for (i, a) in cars.iter().enumerate() {
        for (j, b) in cars.iter().enumerate() {
            if i != j && a.iter().all(|l| b.contains(l)) && (a.len() < b.len() || i > j) {
                return None;
            }
        }
    }
    let mut body = Vec::new();
    for (k, car) in cars.iter().enumerate() {
        let var = format!("C{}", k + 1);
        body.push(builder.has_car(&var));
        body.push(builder.print(car, &var));
    }
    Some(finish(
        builder,
        RuleSampling::Uniform,
        "uniform",
        &body.join(", "),
    ))
}

fn finish(builder: Builder, sampling: RuleSampling, construct: &'static str, body: &str) -> Rule {
    let head = format!("{}(T)", builder.vocabulary.language.labels.positive);
    Rule {
        text: format!("{head} :- {body}."),
        sampling,
        construct,
        complexity: builder.complexity,
        relevant: builder.relevant,
    }
}

/// Splits `total` literals over `slots` conditions, each at least one.
fn split(rng: &mut ChaCha8Rng, total: usize, slots: usize) -> Vec<usize> {
    let mut sizes = vec![1; slots];
    for _ in slots..total.max(slots) {
        let i = rng.gen_range(0..slots);
        sizes[i] += 1;
    }
    sizes
}

/// A rule from the template for `construct` with about `length` literals.
/// `None` when the level's vocabulary cannot express the construct.
pub(crate) fn pattern(
    rng: &mut ChaCha8Rng,
    vocabulary: &Vocabulary,
    construct: &'static str,
    length: usize,
) -> Option<Rule> {
    let mut b = Builder::new(vocabulary);
    let many = b.max_cars() >= 2;
    let sequential = vocabulary.position && many;
    let length = length.max(1);
    let member = vocabulary.language.membership.name.clone();
    let position = vocabulary.language.position.name.clone();
    // An optional existential prefix carrying literals a template has no
    // room for, so the rule keeps its level's length.
    let prefix = |b: &mut Builder, rng: &mut ChaCha8Rng, size: usize| -> Option<String> {
        if size == 0 {
            return Some(String::new());
        }
        let condition = b.condition(rng, size)?;
        Some(format!(
            "{}, {}, ",
            b.has_car("C0"),
            b.print(&condition, "C0")
        ))
    };
    let body = match construct {
        "conjunction" => {
            let c = b.condition(rng, length.max(2))?;
            format!("{}, {}", b.has_car("C"), b.print(&c, "C"))
        }
        "disjunction" => {
            let sizes = split(rng, length, 2);
            let x = b.condition(rng, sizes[0])?;
            let y = b.condition(rng, sizes[1])?;
            if x == y {
                return None;
            }
            let (x, y) = (b.print(&x, "C"), b.print(&y, "C"));
            format!("{}, ({x} ; {y})", b.has_car("C"))
        }
        "negation" => {
            if length == 1 {
                let x = b.condition(rng, 1)?;
                format!("\\+ ({}, {})", b.has_car("C"), b.print(&x, "C"))
            } else {
                let sizes = split(rng, length, 2);
                let x = b.condition(rng, sizes[0])?;
                let y = b.condition(rng, sizes[1])?;
                let (x, y) = (b.print(&x, "C1"), b.print(&y, "C2"));
                format!("{}, {x}, \\+ ({}, {y})", b.has_car("C1"), b.has_car("C2"))
            }
        }
        "distinctness" if many => {
            let sizes = split(rng, length, 2);
            let x = b.condition(rng, sizes[0])?;
            let y = b.condition(rng, sizes[1])?;
            let (x, y) = (b.print(&x, "C1"), b.print(&y, "C2"));
            format!(
                "{}, {x}, {}, {y}, C1 \\== C2",
                b.has_car("C1"),
                b.has_car("C2")
            )
        }
        "counting" if many => {
            let x = b.condition(rng, length)?;
            let at_least = rng.gen_range(2..=b.max_cars().min(3));
            format!(
                "findall(C, ({}, {}), Cs), length(Cs, N), N >= {at_least}",
                b.has_car("C"),
                b.print(&x, "C")
            )
        }
        "exactly-one" if many => {
            let x = b.condition(rng, length)?;
            format!(
                "findall(C, ({}, {}), Cs), length(Cs, 1)",
                b.has_car("C"),
                b.print(&x, "C")
            )
        }
        "uniqueness" if many => {
            let a = rng.gen_range(0..vocabulary.attributes.len().max(1));
            let attribute = vocabulary.attributes.get(a)?;
            let prefix = prefix(&mut b, rng, length - 1)?;
            b.relevant.insert(a);
            b.complexity += 1;
            format!(
                "{prefix}findall(V, ({}, {}(C, V)), Vs), sort(Vs, S), length(Vs, N), length(S, N)",
                b.has_car("C"),
                attribute.name
            )
        }
        "universal" => {
            // Every car satisfies one of two conditions: a plain conjunction
            // over every car of a long train is almost never true.
            let sizes = split(rng, length.max(2), 2);
            let x = b.condition(rng, sizes[0])?;
            let y = b.condition(rng, sizes[1])?;
            if x == y {
                return None;
            }
            let (x, y) = (b.print(&x, "C"), b.print(&y, "C"));
            format!("forall({}, ({x} ; {y}))", b.has_car("C"))
        }
        "implication" => {
            let sizes = split(rng, length, 2);
            let x = b.condition(rng, sizes[0])?;
            let y = b.condition(rng, sizes[1])?;
            if y.iter().all(|l| x.contains(l)) {
                return None;
            }
            let (x, y) = (b.print(&x, "C"), b.print(&y, "C"));
            format!("forall(({}, {x}), ({y}))", b.has_car("C"))
        }
        "neighbour" if sequential => {
            b.positions = false;
            let sizes = split(rng, length, 2);
            let x = b.condition(rng, sizes[0])?;
            let y = b.condition(rng, sizes[1])?;
            let (x, y) = (b.print(&x, "C1"), b.print(&y, "C2"));
            format!(
                "{}, {position}(C1, N1), {x}, {}, {position}(C2, N2), N2 =:= N1 + 1, {y}",
                b.has_car("C1"),
                b.has_car("C2")
            )
        }
        "sequence" if sequential => {
            let a = rng.gen_range(0..vocabulary.attributes.len().max(1));
            let attribute = vocabulary.attributes.get(a)?;
            let prefix = prefix(&mut b, rng, length.saturating_sub(1))?;
            b.relevant.insert(a);
            b.complexity += 1;
            let name = &attribute.name;
            format!(
                "{prefix}forall(({member}(T, C1), {position}(C1, N1), {member}(T, C2), {position}(C2, N2), N2 =:= N1 + 1), \\+ ({name}(C1, V), {name}(C2, V)))"
            )
        }
        "max" => {
            let numeric: Vec<usize> = (0..vocabulary.attributes.len())
                .filter(|&a| {
                    vocabulary.attributes[a].numeric && vocabulary.attributes[a].values.len() > 1
                })
                .collect();
            let a = *numeric.choose(rng)?;
            let attribute = vocabulary.attributes[a];
            let prefix = prefix(&mut b, rng, length - 1)?;
            b.relevant.insert(a);
            b.complexity += 1;
            let threshold = &attribute.values[rng.gen_range(1..attribute.values.len())];
            // Some car reaches the threshold, or every car does.
            let list = if rng.gen_bool(0.5) {
                "max_list"
            } else {
                "min_list"
            };
            format!(
                "{prefix}findall(X, ({}, {}(C, X)), Xs), {list}(Xs, M), M >= {threshold}",
                b.has_car("C"),
                attribute.name
            )
        }
        "last-car" if sequential => {
            b.positions = false;
            let x = b.condition(rng, length)?;
            format!(
                "findall(N, ({}, {position}(C, N)), Ns), max_list(Ns, M), {}, {position}(L, M), {}",
                b.has_car("C"),
                b.has_car("L"),
                b.print(&x, "L")
            )
        }
        "subset" if many => {
            let choices: Vec<usize> = (0..vocabulary.attributes.len())
                .filter(|&a| vocabulary.attributes[a].values.len() >= 3)
                .collect();
            let a = *choices.choose(rng)?;
            let attribute = vocabulary.attributes[a];
            let prefix = prefix(&mut b, rng, length - 1)?;
            b.relevant.insert(a);
            b.complexity += 1;
            let size = rng.gen_range(2..attribute.values.len());
            let mut allowed: Vec<&String> = attribute.values.choose_multiple(rng, size).collect();
            allowed.sort_by_key(|v| attribute.values.iter().position(|w| w == *v));
            let allowed: Vec<&str> = allowed.iter().map(|s| s.as_str()).collect();
            format!(
                "{prefix}findall(V, ({}, {}(C, V)), Vs), forall(member(W, Vs), memberchk(W, [{}]))",
                b.has_car("C"),
                attribute.name,
                allowed.join(", ")
            )
        }
        // Appendix E 5: more cars of one kind than of another.
        "count-vs-count" if many => {
            let sizes = split(rng, length, 2);
            let x = b.condition(rng, sizes[0])?;
            let y = b.condition(rng, sizes[1])?;
            if x == y {
                return None;
            }
            let (x, y) = (b.print(&x, "C1"), b.print(&y, "C2"));
            format!(
                "findall(C1, ({}, {x}), As), findall(C2, ({}, {y}), Bs), length(As, A), length(Bs, B), A > B",
                b.has_car("C1"),
                b.has_car("C2")
            )
        }
        // Appendix E 8: exactly k cars, where trains' lengths vary.
        "car-count" if vocabulary.cars.0 < vocabulary.cars.1 => {
            let prefix = prefix(&mut b, rng, length - 1)?;
            b.complexity += 1;
            let k = rng.gen_range(vocabulary.cars.0..=vocabulary.cars.1);
            format!(
                "{prefix}findall(C, {}, Cs), length(Cs, {k})",
                b.has_car("C")
            )
        }
        // Appendix E 14: exactly k (two or more) cars meet a condition.
        "exact-count" if many => {
            let x = b.condition(rng, length)?;
            let k = rng.gen_range(2..=b.max_cars().min(3));
            format!(
                "findall(C, ({}, {}), Cs), length(Cs, {k})",
                b.has_car("C"),
                b.print(&x, "C")
            )
        }
        // Appendix E 15: a recursive helper walks the cars from the first:
        // each meets one condition until a car meets the other.
        "recursion" if sequential => {
            b.positions = false;
            let sizes = split(rng, length, 2);
            let x = b.condition(rng, sizes[0])?;
            let y = b.condition(rng, sizes[1])?;
            if x == y {
                return None;
            }
            let (x, y) = (b.print(&x, "C"), b.print(&y, "C"));
            // The walk is the label predicate itself at arity 2, as the
            // paper writes recursion with `eastbound` alone: the reference
            // loads only `eastbound(…) :- ….` clauses, so a helper of
            // another name would never load and the gold rule score 0.
            let chain = b.vocabulary.language.labels.positive.clone();
            let mut rule = finish(
                b,
                RuleSampling::Pattern,
                construct,
                &format!("{member}(T, C), {position}(C, 1), {chain}(T, C)"),
            );
            rule.text.push_str(&format!(
                "\n{chain}(_, C) :- {y}.\n{chain}(T, C) :- {x}, {position}(C, N), M is N + 1, \
                 {member}(T, D), {position}(D, M), {chain}(T, D)."
            ));
            return Some(rule);
        }
        // Appendix E 19: no two cars share their pair of values of two
        // attributes (a projection onto them, then uniqueness).
        "projection" if many => {
            let choices: Vec<usize> = (0..vocabulary.attributes.len())
                .filter(|&a| vocabulary.attributes[a].values.len() >= 2)
                .collect();
            let mut pair: Vec<usize> = choices.choose_multiple(rng, 2).copied().collect();
            if pair.len() < 2 {
                return None;
            }
            pair.sort();
            let prefix = prefix(&mut b, rng, length.saturating_sub(2))?;
            b.relevant.extend(pair.iter().copied());
            b.complexity += 2;
            let (p, q) = (
                &vocabulary.attributes[pair[0]].name,
                &vocabulary.attributes[pair[1]].name,
            );
            format!(
                "{prefix}findall(X-Y, ({}, {p}(C, X), {q}(C, Y)), Ps), sort(Ps, S), length(Ps, N), length(S, N)",
                b.has_car("C")
            )
        }
        // Appendix E 13: two neighbouring cars share an attribute's value.
        "symmetry" if sequential => {
            let a = rng.gen_range(0..vocabulary.attributes.len().max(1));
            let attribute = vocabulary.attributes.get(a)?;
            let prefix = prefix(&mut b, rng, length - 1)?;
            b.relevant.insert(a);
            b.complexity += 1;
            let name = &attribute.name;
            format!(
                "{prefix}{}, {position}(C1, N1), {}, {position}(C2, N2), N2 =:= N1 + 1, {name}(C1, V), {name}(C2, V)",
                b.has_car("C1"),
                b.has_car("C2")
            )
        }
        // Appendix E 18: every car meeting a condition is among the first k.
        "position-bound" if sequential => {
            b.positions = false;
            let x = b.condition(rng, (length - 1).max(1))?;
            b.complexity += 1;
            let k = rng.gen_range(1..b.max_cars());
            format!(
                "forall(({}, {}), ({position}(C, N), N =< {k}))",
                b.has_car("C"),
                b.print(&x, "C")
            )
        }
        // Appendix E 16: three consecutive cars meet three conditions.
        "triple" if sequential && b.max_cars() >= 3 => {
            b.positions = false;
            let sizes = split(rng, length, 3);
            let mut parts = Vec::new();
            for (k, size) in sizes.into_iter().enumerate() {
                let x = b.condition(rng, size)?;
                let var = format!("C{}", k + 1);
                let link = if k == 0 {
                    String::new()
                } else {
                    format!(", N{} =:= N{k} + 1", k + 1)
                };
                parts.push(format!(
                    "{}, {position}({var}, N{}){link}, {}",
                    b.has_car(&var),
                    k + 1,
                    b.print(&x, &var)
                ));
            }
            parts.join(", ")
        }
        _ => return None,
    };
    Some(finish(b, RuleSampling::Pattern, construct, &body))
}

//! What makes two tasks the same, as the SLR paper counts them: a rule is
//! its form up to variable renaming and literal order, a problem is its
//! labelled trains up to train order and renaming of train and car
//! constants. Runs deduplicate by both, across levels and splits.

use super::train::{Train, Vocabulary};
use crate::judge::Label;
use crate::syntax::prolog::{parse_program, Sentence, Term};
use std::collections::BTreeMap;

/// A task's identity: its rule's and its problem's canonical forms.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Identity {
    /// [`rule_key`] of the rule.
    pub rule: String,
    /// [`problem_key`] of the shown examples.
    pub problem: String,
}

/// Variable numberings tried per clause before settling for one: beyond
/// it, the key may tell apart two renamings of one rule (never merge two
/// different rules). No rule our templates write comes near it.
const NUMBERINGS: usize = 5040;

/// The canonical form of a rule's text: each clause with its conjunctions
/// and disjunctions as sorted sets of their members, under the variable
/// numbering that gives the least text. Two rules get the same key only if
/// one is the other with variables renamed and the members of its
/// conjunctions and disjunctions reordered: the key is one such rewriting
/// of the rule itself. It is also the same for every such rewriting, as
/// long as the variables' classes (by how they occur) leave at most
/// [`NUMBERINGS`] numberings to try. Clause order is kept. A text that does
/// not parse is its own key.
pub(crate) fn rule_key(text: &str) -> String {
    let Ok(program) = parse_program(text) else {
        return format!("text:{text}");
    };
    let clauses: Vec<String> = program
        .sentences
        .iter()
        .map(|s| match s {
            Sentence::Clause { term, .. } => clause_key(term),
            Sentence::Directive { goal, .. } => format!(":-{}", clause_key(goal)),
        })
        .collect();
    clauses.join("\n")
}

/// The canonical text of one clause (see [`rule_key`]).
fn clause_key(clause: &Term) -> String {
    let mut variables: Vec<&str> = Vec::new();
    for t in clause.subterms() {
        if let Term::Var(v) = t {
            if v != "_" && !variables.contains(&v.as_str()) {
                variables.push(v);
            }
        }
    }
    // Classes of variables that no renaming or reordering can tell apart
    // less finely: refined three times by the classes of their neighbours.
    let mut colour: BTreeMap<&str, String> =
        variables.iter().map(|v| (*v, String::new())).collect();
    for _ in 0..3 {
        let mut next = BTreeMap::new();
        for &v in &variables {
            let mut contexts = Vec::new();
            occurrences(clause, v, &colour, "", &mut contexts);
            contexts.sort();
            next.insert(v, contexts.join("|"));
        }
        colour = next;
    }
    let mut classes: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for &v in &variables {
        classes.entry(colour[v].as_str()).or_default().push(v);
    }
    let classes: Vec<Vec<&str>> = classes.into_values().collect();
    let count: usize = classes
        .iter()
        .map(|c| (1..=c.len()).product::<usize>())
        .try_fold(1usize, |a, b| a.checked_mul(b))
        .unwrap_or(usize::MAX);
    let mut best: Option<String> = None;
    let mut numbering: BTreeMap<&str, usize> = BTreeMap::new();
    if count <= NUMBERINGS {
        each_numbering(&classes, 0, 0, &mut numbering, &mut |n| {
            let text = render(clause, n);
            if best.as_ref().is_none_or(|b| text < *b) {
                best = Some(text);
            }
        });
    } else {
        // Sound but not complete: one numbering, classes in order.
        let mut k = 0;
        for class in &classes {
            for v in class {
                numbering.insert(*v, k);
                k += 1;
            }
        }
        best = Some(render(clause, &numbering));
    }
    best.unwrap_or_default()
}

/// Calls `f` with every numbering that gives class `c` the numbers after
/// those of the classes before it.
fn each_numbering<'a>(
    classes: &[Vec<&'a str>],
    c: usize,
    first: usize,
    numbering: &mut BTreeMap<&'a str, usize>,
    f: &mut dyn FnMut(&BTreeMap<&'a str, usize>),
) {
    let Some(class) = classes.get(c) else {
        f(numbering);
        return;
    };
    let mut order: Vec<usize> = (0..class.len()).collect();
    permutations(&mut order, 0, &mut |order| {
        for (v, k) in class.iter().zip(order) {
            numbering.insert(*v, first + k);
        }
        each_numbering(classes, c + 1, first + class.len(), numbering, f);
    });
}

/// Every permutation of `items[k..]` (Heap-free, by swapping).
fn permutations(items: &mut [usize], k: usize, f: &mut dyn FnMut(&[usize])) {
    if k + 1 >= items.len() {
        f(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, f);
        items.swap(k, i);
    }
}

/// The members of the `op` chain at `term` (`,` or `;`), flattened.
fn members<'t>(term: &'t Term, op: &str, out: &mut Vec<&'t Term>) {
    match term {
        Term::Compound(name, args) if name == op && args.len() == 2 => {
            members(&args[0], op, out);
            members(&args[1], op, out);
        }
        _ => out.push(term),
    }
}

/// Whether `term` is a conjunction or a disjunction whose members may be
/// reordered (an if-then-else `(C -> T ; E)` may not).
fn set_operator(term: &Term) -> Option<&'static str> {
    match term {
        Term::Compound(name, args) if args.len() == 2 && name == "," => Some(","),
        Term::Compound(name, args) if args.len() == 2 && name == ";" => {
            let mut parts = Vec::new();
            members(term, ";", &mut parts);
            let branching = parts.iter().any(
                |p| matches!(p, Term::Compound(n, a) if a.len() == 2 && (n == "->" || n == "*->")),
            );
            (!branching).then_some(";")
        }
        _ => None,
    }
}

/// `term` as text with variables numbered by `numbering` and the members of
/// every conjunction and disjunction sorted. Atoms are quoted and variables
/// are not, so the text is unambiguous.
fn render(term: &Term, numbering: &BTreeMap<&str, usize>) -> String {
    if let Some(op) = set_operator(term) {
        let mut parts = Vec::new();
        members(term, op, &mut parts);
        let mut texts: Vec<String> = parts.iter().map(|p| render(p, numbering)).collect();
        texts.sort();
        return format!("{op}[{}]", texts.join(","));
    }
    match term {
        Term::Var(v) if v == "_" => "_".to_string(),
        Term::Var(v) => format!(
            "V{}",
            numbering.get(v.as_str()).copied().unwrap_or(usize::MAX)
        ),
        Term::Compound(name, args) => {
            let args: Vec<String> = args.iter().map(|a| render(a, numbering)).collect();
            format!("{name:?}({})", args.join(","))
        }
        other => atomic(other),
    }
}

/// A constant as unambiguous text.
fn atomic(term: &Term) -> String {
    match term {
        Term::Atom(a) => format!("{a:?}"),
        Term::Int(i) => i.to_string(),
        Term::BigInt(i) => i.clone(),
        Term::Float(f) => format!("f{f:?}"),
        Term::Str(s) => format!("s{s:?}"),
        Term::Var(v) => v.clone(),
        Term::Compound(..) => String::new(),
    }
}

/// Where `v` occurs in `term`, each occurrence as the path to it (set
/// operators without a member index, other compounds with the argument's)
/// and the enclosing literal with every variable shown by its class.
fn occurrences(
    term: &Term,
    v: &str,
    colour: &BTreeMap<&str, String>,
    path: &str,
    out: &mut Vec<String>,
) {
    if let Some(op) = set_operator(term) {
        let mut parts = Vec::new();
        members(term, op, &mut parts);
        for p in parts {
            occurrences(p, v, colour, &format!("{path}{op}"), out);
        }
        return;
    }
    let literal = shape(term, v, colour);
    literal_occurrences(term, v, &format!("{path}/{literal}"), colour, out);
}

/// The occurrences of `v` inside one literal, by argument path.
fn literal_occurrences(
    term: &Term,
    v: &str,
    path: &str,
    colour: &BTreeMap<&str, String>,
    out: &mut Vec<String>,
) {
    match term {
        Term::Var(x) if x == v => out.push(path.to_string()),
        Term::Compound(name, args) => {
            if set_operator(term).is_some() {
                occurrences(term, v, colour, path, out);
                return;
            }
            for (i, a) in args.iter().enumerate() {
                literal_occurrences(a, v, &format!("{path}.{name:?}{i}"), colour, out);
            }
        }
        _ => {}
    }
}

/// `term` with `v` as `@`, other variables by their class, and set
/// operators' members sorted: what a literal looks like from `v`.
fn shape(term: &Term, v: &str, colour: &BTreeMap<&str, String>) -> String {
    if let Some(op) = set_operator(term) {
        let mut parts = Vec::new();
        members(term, op, &mut parts);
        let mut texts: Vec<String> = parts.iter().map(|p| shape(p, v, colour)).collect();
        texts.sort();
        return format!("{op}[{}]", texts.join(","));
    }
    match term {
        Term::Var(x) if x == v => "@".to_string(),
        Term::Var(x) if x == "_" => "_".to_string(),
        Term::Var(x) => {
            let class = colour.get(x.as_str()).map_or("", |c| c.as_str());
            format!("<{:x}>", crate::gen::stable_hash(class.as_bytes()))
        }
        Term::Compound(name, args) => {
            let args: Vec<String> = args.iter().map(|a| shape(a, v, colour)).collect();
            format!("{name:?}({})", args.join(","))
        }
        other => atomic(other),
    }
}

/// The canonical form of a problem: every example's train as the sorted
/// descriptions of its cars (attribute values, and the position where the
/// level shows it), which names no train or car constant; the examples
/// sorted within each label.
pub(crate) fn problem_key(vocabulary: &Vocabulary, examples: &[(Label, Train)]) -> String {
    let position = &vocabulary.language.position.name;
    let (mut positive, mut negative) = (Vec::new(), Vec::new());
    for (label, train) in examples {
        let mut cars: Vec<String> = train
            .cars
            .iter()
            .enumerate()
            .map(|(i, car)| {
                let mut facts: Vec<String> = vocabulary
                    .attributes
                    .iter()
                    .zip(&car.values)
                    .map(|(a, &v)| format!("{}={}", a.name, a.values[v]))
                    .collect();
                if vocabulary.position {
                    facts.push(format!("{position}={}", i + 1));
                }
                facts.sort();
                facts.join(",")
            })
            .collect();
        cars.sort();
        let text = format!("[{}]", cars.join(";"));
        match label {
            Label::Pos => positive.push(text),
            Label::Neg => negative.push(text),
        }
    }
    positive.sort();
    negative.sort();
    format!("+{}\n-{}", positive.join(""), negative.join(""))
}

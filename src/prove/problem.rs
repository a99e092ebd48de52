//! Problems with solutions, independent of where they come from: step files
//! (Prover9 syntax, see `grammar/stepfile.md`) and LogicGraph instances both
//! load into a [`StepProblem`].

use super::report::ProveError;
use crate::syntax::prover9::{Entry, Formula, Input, Item, Term};
use crate::syntax::Pos;
use std::collections::BTreeSet;
use std::time::Duration;

/// A premise: an id that steps cite, and its formula.
#[derive(Debug, Clone, PartialEq)]
pub struct Premise {
    /// `P1`, `Rule3`, `Fact1`, …
    pub id: String,
    /// The formula (free variables are universally closed when checked).
    pub formula: Formula,
    /// Where it is written, when it comes from a file.
    pub pos: Option<Pos>,
}

/// One step of a solution: a conclusion and what it is drawn from.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The step's label, unique within its solution.
    pub label: String,
    /// What the step concludes.
    pub conclusion: Formula,
    /// Cited premise ids and labels of earlier steps.
    pub from: Vec<String>,
    /// The declared inference rule (`MP`, `MT`, `HS`, `DS`, `CD`, `RAA`, `DE`).
    pub rule: Option<String>,
    /// Where it is written, when it comes from a file.
    pub pos: Option<Pos>,
}

/// A solution: a sequence of steps meant to end in the goal.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// `1` for `formulas(solution_1)`, or LogicGraph's id.
    pub id: String,
    /// The steps in order.
    pub steps: Vec<Step>,
}

/// Premises, one goal and any number of solutions.
#[derive(Debug, Clone, PartialEq)]
pub struct StepProblem {
    /// The premise pool.
    pub premises: Vec<Premise>,
    /// The goal, universally closed (several goals: their disjunction).
    pub goal: Formula,
    /// The solutions to check.
    pub solutions: Vec<Solution>,
    /// Per-check timeout from the file (`assign(max_seconds, N)`), if any.
    pub timeout: Option<Duration>,
    /// Variables are upper case (`set(prolog_style_variables)`); only used
    /// to word lint messages.
    pub prolog_style_variables: bool,
}

/// The lists a plain Prover9 problem takes its assumptions from.
pub const ASSUMPTION_LISTS: [&str; 4] = ["assumptions", "sos", "usable", "demodulators"];

/// The entries of the Prover9-visible lists named `name`.
pub(crate) fn list_entries<'a>(input: &'a Input, name: &str) -> Vec<&'a Entry> {
    input
        .prover9_items()
        .into_iter()
        .filter_map(|item| match item {
            Item::Formulas {
                name: n, entries, ..
            } if n == name => Some(entries.iter()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// `assign(max_seconds, N)` as a duration (N > 0), if given.
pub(crate) fn max_seconds(input: &Input) -> Option<Duration> {
    match input.assigned("max_seconds") {
        Some(Term::App(n, args)) if args.is_empty() => n
            .parse::<u64>()
            .ok()
            .filter(|&s| s > 0)
            .map(Duration::from_secs),
        _ => None,
    }
}

/// The first domain size to search for a countermodel: Mace4's
/// `assign(domain_size, N)` or `assign(start_size, N)` (N > 0), else 1.
/// Any model is a countermodel, so this only orders the search.
pub(crate) fn first_model_size(input: &Input) -> usize {
    ["domain_size", "start_size"]
        .iter()
        .find_map(|name| match input.assigned(name) {
            Some(Term::App(n, args)) if args.is_empty() => {
                n.parse::<usize>().ok().filter(|&s| s > 0)
            }
            _ => None,
        })
        .unwrap_or(1)
}

/// The multiple-goal restriction of Prover9 (goals.html): with more than one
/// goal, each must be built from atoms with `&` and `all` only.
fn positive_universal_conjunctive(f: &Formula) -> bool {
    match f {
        Formula::Atom(_) => true,
        Formula::And(a, b) => {
            positive_universal_conjunctive(a) && positive_universal_conjunctive(b)
        }
        Formula::Quant(crate::syntax::prover9::Quantifier::All, _, body) => {
            positive_universal_conjunctive(body)
        }
        _ => false,
    }
}

/// The goal of a problem: each goal universally closed, several goals as
/// their disjunction (Prover9 reports a proof when any goal is proved), and
/// `None` when there is no goal. Enforces Prover9's restriction on multiple
/// goals.
pub fn combined_goal(goals: &[&Entry]) -> Result<Option<Formula>, ProveError> {
    if goals.len() > 1 {
        if let Some(bad) = goals
            .iter()
            .find(|g| !positive_universal_conjunctive(&g.formula))
        {
            return Err(ProveError::new(
                Some(bad.pos),
                "with more than one goal, each must be a positive universal conjunctive formula \
                 (atoms, & and all only), as Prover9 requires; write one goal instead",
            ));
        }
    }
    if let [single] = goals {
        // Kept open: the check closes it, and lints still see its variables.
        return Ok(Some(single.formula.clone()));
    }
    let mut closed = goals
        .iter()
        .map(|g| crate::smt::universal_closure(&g.formula));
    Ok(closed.next().map(|first| closed.fold(first, Formula::or)))
}

/// The names in an attribute's arguments (`from(P1, P4)` → `P1`, `P4`).
fn attribute_names(entry: &Entry, name: &str) -> Option<Vec<String>> {
    let attr = entry.attributes.iter().find(|a| a.name == name)?;
    Some(
        attr.args
            .iter()
            .flat_map(|t| flatten_list(t))
            .filter_map(|t| match t {
                Term::App(s, args) if args.is_empty() => Some(s.clone()),
                Term::Var(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
    )
}

/// `[a, b]` (a `$cons` list) as its elements; any other term as itself, so
/// both `from(P1, P2)` and `from([P1, P2])` work.
fn flatten_list(t: &Term) -> Vec<&Term> {
    let mut out = Vec::new();
    let mut cur = t;
    loop {
        match cur {
            Term::App(c, args) if c == "$cons" && args.len() == 2 => {
                out.push(&args[0]);
                cur = &args[1];
            }
            Term::App(n, args) if n == "$nil" && args.is_empty() => return out,
            other => {
                out.push(other);
                return out;
            }
        }
    }
}

/// Whether an input is a step file (has a `solution_*` list).
pub fn is_step_file(input: &Input) -> bool {
    input
        .prover9_items()
        .iter()
        .any(|item| matches!(item, Item::Formulas { name, .. } if name.starts_with("solution")))
}

impl StepProblem {
    /// Reads a step file (see `grammar/stepfile.md`).
    pub fn from_step_file(input: &Input) -> Result<StepProblem, ProveError> {
        let mut premises = Vec::new();
        let mut ids = BTreeSet::new();
        for list in ASSUMPTION_LISTS {
            for entry in list_entries(input, list) {
                let id = entry.label().ok_or_else(|| {
                    ProveError::new(Some(entry.pos), "a premise needs `# label(NAME)`")
                })?;
                if !ids.insert(id.clone()) {
                    return Err(ProveError::new(
                        Some(entry.pos),
                        format!("duplicate premise label `{id}`"),
                    ));
                }
                premises.push(Premise {
                    id,
                    formula: entry.formula.clone(),
                    pos: Some(entry.pos),
                });
            }
        }
        let goals = list_entries(input, "goals");
        let goal = combined_goal(&goals)?.ok_or_else(|| {
            ProveError::new(
                None,
                "a step file needs a `formulas(goals)` list with the goal",
            )
        })?;
        let mut solutions = Vec::new();
        for item in input.prover9_items() {
            let Item::Formulas { name, entries, .. } = item else {
                continue;
            };
            let Some(id) = name.strip_prefix("solution") else {
                continue;
            };
            let id = id.trim_start_matches('_');
            let mut steps = Vec::new();
            let mut labels = BTreeSet::new();
            for (i, entry) in entries.iter().enumerate() {
                let label = entry.label().unwrap_or_else(|| format!("S{}", i + 1));
                if ids.contains(&label) || !labels.insert(label.clone()) {
                    return Err(ProveError::new(
                        Some(entry.pos),
                        format!(
                            "step label `{label}` is already used by a premise or an earlier step"
                        ),
                    ));
                }
                let from = attribute_names(entry, "from").ok_or_else(|| {
                    ProveError::new(Some(entry.pos), "a step needs `# from(LABEL, ...)`")
                })?;
                let rule = attribute_names(entry, "rule").and_then(|r| r.into_iter().next());
                steps.push(Step {
                    label,
                    conclusion: entry.formula.clone(),
                    from,
                    rule,
                    pos: Some(entry.pos),
                });
            }
            solutions.push(Solution {
                id: if id.is_empty() {
                    name.clone()
                } else {
                    id.to_string()
                },
                steps,
            });
        }
        Ok(StepProblem {
            premises,
            goal,
            solutions,
            timeout: max_seconds(input),
            prolog_style_variables: input.flag("prolog_style_variables"),
        })
    }
}

/// What a plain problem's file asks of Prover9 that does not change the
/// question and is not used here, said once per kind: search guidance
/// (`hints`, `weights`, other lists), and `set(production)`. With
/// `prover9_in_race`, hints and weights go to Prover9 (see `ladr`).
pub(crate) fn ignored_features(input: &Input, prover9_in_race: bool) -> Vec<String> {
    let mut lists = BTreeSet::new();
    for item in input.prover9_items() {
        match item {
            Item::Formulas { name, .. } | Item::Terms { name, .. }
                if name != "goals" && !ASSUMPTION_LISTS.contains(&name.as_str()) =>
            {
                lists.insert(name.as_str());
            }
            _ => {}
        }
    }
    let mut notes: Vec<String> = lists
        .into_iter()
        .map(|name| match name {
            _ if prover9_in_race && super::ladr::GUIDANCE_LISTS.contains(&name) => {
                format!("list `{name}` guides only Prover9's search: the other engines ignore it")
            }
            "hints" => format!("list `{name}` is ignored: hints guide Prover9's search"),
            "weights" | "kbo_weights" => {
                format!("list `{name}` is ignored: weights guide Prover9's search")
            }
            "interpretations" => format!(
                "list `{name}` is ignored: interpretations guide Prover9's search (semantic guidance)"
            ),
            _ => format!(
                "list `{name}` is ignored: only assumptions, sos, usable, demodulators and goals state the problem"
            ),
        })
        .collect();
    if input.flag("production") {
        notes.push(
            "set(production) is not honoured: a failed proof is reported as unknown".to_string(),
        );
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_are_said_to_guide_prover9_only_when_it_runs() {
        let input = crate::syntax::prover9::parse(
            "set(production).\n\
             formulas(sos). p. end_of_list.\n\
             formulas(hints). q. end_of_list.\n\
             formulas(candidates). r. end_of_list.\n",
        )
        .expect("parses");
        assert_eq!(
            ignored_features(&input, false),
            [
                "list `candidates` is ignored: only assumptions, sos, usable, demodulators and goals state the problem",
                "list `hints` is ignored: hints guide Prover9's search",
                "set(production) is not honoured: a failed proof is reported as unknown",
            ]
        );
        assert_eq!(
            ignored_features(&input, true)[1],
            "list `hints` guides only Prover9's search: the other engines ignore it"
        );
    }
}

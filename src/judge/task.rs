//! Turning a task record into what the engine loads: the background clauses
//! (labels removed, grouped by predicate) and the examples. Renamings of
//! the constants are drawn from it in [`super::rename`].

use super::rename::Fnv;
use super::JudgeError;
use crate::prolog::Background;
use crate::syntax::prolog::{parse_program, Program, Sentence, Term};
use std::collections::{BTreeMap, BTreeSet};

/// Whether an example is labelled positive or negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// A fact of the positive label predicate (e.g. `eastbound`).
    Pos,
    /// A fact of the negative label predicate (e.g. `westbound`).
    Neg,
}

/// One labelled example of a task.
#[derive(Debug, Clone)]
pub struct Example {
    /// The label fact as written in the task, e.g. `eastbound(train0)`.
    pub atom: String,
    /// Its label.
    pub label: Label,
    /// The example's atom under the positive label, with the task's own
    /// names, e.g. `eastbound(train0)`.
    pub goal: Term,
}

impl Example {
    /// The goal the judge runs for this example, for every engine, given
    /// its atom under the naming being scored ([`Example::goal`], renamed
    /// or not). The reference collects `setof(E, ((pos(E), eastbound(E)) ;
    /// (neg(E), \+ eastbound(E))), Es)`: a positive example enumerates
    /// *all* solutions (a later clause that loops or raises spoils the
    /// answer), a negative one stops at the first. So a positive example
    /// runs `findall(x, Atom, [_|_])` and a negative one `Atom`; either
    /// succeeds exactly when the answer predicts the positive label. (No
    /// named variable: a scryer worker runs all goals in one query.)
    pub fn run_goal(&self, atom: Term) -> Term {
        match self.label {
            Label::Neg => atom,
            Label::Pos => {
                let anonymous = || Term::Var("_".into());
                let non_empty = Term::Compound(".".into(), vec![anonymous(), anonymous()]);
                Term::Compound(
                    "findall".into(),
                    vec![Term::Atom("x".into()), atom, non_empty],
                )
            }
        }
    }
}

/// A parsed, split and printed task, shared by all scorings of it.
#[derive(Debug)]
pub struct TaskProgram {
    /// The positive label predicate's name: the predicate the hypothesis defines.
    pub positive: String,
    /// The negative label predicate's name.
    pub negative: String,
    /// Arity of the label predicates, taken from the examples.
    pub arity: usize,
    /// The examples in task order.
    pub examples: Vec<Example>,
    /// Background with the task's own names, as the task orders it.
    pub background_original: Background,
    /// A hash of the whole program, the same on every platform: what
    /// renamings are keyed by.
    pub content_hash: u64,
    /// Name/arity of every background predicate.
    pub background_predicates: BTreeSet<(String, usize)>,
}

impl TaskProgram {
    /// Parses `program` (a validation program) with the given label names.
    pub fn parse(program: &str, positive: &str, negative: &str) -> Result<TaskProgram, JudgeError> {
        let parsed = parse_program(program)
            .map_err(|e| JudgeError::Task(format!("validation program: {e}")))?;
        TaskProgram::from_program(parsed, positive, negative)
    }

    /// A validation program that is already parsed (generators build one
    /// without printing it), with the given label names.
    pub fn from_program(
        parsed: Program,
        positive: &str,
        negative: &str,
    ) -> Result<TaskProgram, JudgeError> {
        let mut examples = Vec::new();
        let mut arity: Option<usize> = None;
        // Background clauses grouped by predicate, groups in order of first
        // appearance: scryer drops earlier clauses of a discontiguous predicate.
        let mut group_of: BTreeMap<(String, usize), usize> = BTreeMap::new();
        let mut groups: Vec<Vec<Term>> = Vec::new();
        let mut last: Option<(String, usize, usize)> = None;
        for sentence in parsed.sentences {
            if matches!(sentence, Sentence::Directive { .. }) {
                return Err(JudgeError::Task(
                    "validation program: directives are not supported".into(),
                ));
            }
            let Some(head) = sentence.head() else {
                continue;
            };
            let Some((name, n)) = head.name_arity() else {
                return Err(JudgeError::Task(format!(
                    "validation program: clause head {head} is not callable"
                )));
            };
            let label = if name == positive {
                Some(Label::Pos)
            } else if name == negative {
                Some(Label::Neg)
            } else {
                None
            };
            if let Some(label) = label {
                if sentence.body().is_some() {
                    return Err(JudgeError::Task(format!(
                        "validation program: label clause {sentence} is not a fact"
                    )));
                }
                match arity {
                    None => arity = Some(n),
                    Some(a) if a != n => {
                        return Err(JudgeError::Task(format!(
                            "validation program: label facts have arities {a} and {n}"
                        )))
                    }
                    Some(_) => {}
                }
                let goal_original = match head {
                    Term::Compound(_, args) => Term::Compound(positive.to_string(), args.clone()),
                    _ => Term::Atom(positive.to_string()),
                };
                examples.push(Example {
                    atom: head.to_string(),
                    label,
                    goal: goal_original,
                });
                continue;
            }
            // Clauses of one predicate mostly come together: look the group
            // up only when the predicate changes.
            let index = match &last {
                Some((last_name, last_n, index)) if last_name == name && *last_n == n => *index,
                _ => {
                    let key = (name.to_string(), n);
                    let index = *group_of.entry(key).or_insert_with(|| {
                        groups.push(Vec::new());
                        groups.len() - 1
                    });
                    last = Some((name.to_string(), n, index));
                    index
                }
            };
            if let Sentence::Clause { term, .. } = sentence {
                groups[index].push(term);
            }
        }
        if examples.is_empty() {
            return Err(JudgeError::Task(format!(
                "validation program has no {positive} or {negative} facts"
            )));
        }
        let clauses: Vec<Term> = groups.into_iter().flatten().collect();
        // Keyed by the clauses and examples: the same task gets the same
        // key, and no clause needs printing (only a scryer worker reads text).
        let mut hash = Fnv::new();
        hash.text(positive);
        hash.text(negative);
        for clause in &clauses {
            hash.term(clause);
        }
        for example in &examples {
            hash.bytes(&[example.label as u8]);
            hash.term(&example.goal);
        }
        let content_hash = hash.finish();
        Ok(TaskProgram {
            positive: positive.to_string(),
            negative: negative.to_string(),
            arity: arity.unwrap_or(1),
            examples,
            background_original: Background::new(content_hash, clauses),
            content_hash,
            background_predicates: group_of.into_keys().collect(),
        })
    }
}

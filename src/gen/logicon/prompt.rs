//! The prompts LogiConBench evaluates with: zero-shot, three worked examples
//! (3-shot), and three worked examples with their reasoning paths.
//!
//! A plain sample asks Task 2 (list every consistent list); a hard or
//! completion sample asks its Task 1 `query`. The examples of a run are
//! three samples of the same `k` and variant drawn from a stream of their
//! own, so every item of one `k` shows the same examples, and the answer
//! forms are those the scorer reads.

use super::{Query, Sample, Truth};
use std::fmt::Write;

/// Which prompt a sample carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PromptStyle {
    /// The task alone.
    ZeroShot,
    /// The task after three worked examples.
    ThreeShot,
    /// As `ThreeShot`, each example with its reasoning path.
    ThreeShotPath,
}

impl PromptStyle {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PromptStyle::ZeroShot => "zero-shot",
            PromptStyle::ThreeShot => "3-shot",
            PromptStyle::ThreeShotPath => "3-shot-path",
        }
    }

    /// The style named `name`, if any.
    pub fn from_name(name: &str) -> Option<PromptStyle> {
        [
            PromptStyle::ZeroShot,
            PromptStyle::ThreeShot,
            PromptStyle::ThreeShotPath,
        ]
        .into_iter()
        .find(|p| p.name() == name)
    }

    /// How many worked examples it shows.
    pub(crate) fn examples(self) -> usize {
        match self {
            PromptStyle::ZeroShot => 0,
            PromptStyle::ThreeShot | PromptStyle::ThreeShotPath => 3,
        }
    }
}

const RULES: &str = "Each statement below is given a truth value, T (true) or F (false). \
A list of truth values is consistent when the statements, each taken as true or false as \
the list says, can all hold at once.";

/// The prompt of `sample` in `style`, after `examples` (as many as the
/// style shows).
pub(crate) fn prompt(style: PromptStyle, sample: &Sample, examples: &[Sample]) -> String {
    let mut out = String::new();
    out.push_str(RULES);
    out.push_str("\n\n");
    for (n, example) in examples.iter().take(style.examples()).enumerate() {
        let _ = writeln!(out, "Example {}:", n + 1);
        task(&mut out, example);
        if style == PromptStyle::ThreeShotPath {
            path(&mut out, example);
        }
        let _ = writeln!(out, "Answer: {}\n", answer(example));
    }
    if style.examples() > 0 {
        out.push_str("Now the task:\n");
    }
    task(&mut out, sample);
    out.push_str("Answer:");
    out
}

/// The statements and the question.
fn task(out: &mut String, sample: &Sample) {
    out.push_str("Statements:\n");
    for (j, st) in sample.statements.iter().enumerate() {
        let _ = writeln!(out, "{}. {}", j + 1, st.text);
    }
    match &sample.query {
        None => out.push_str(
            "Which lists of truth values for these statements are consistent? Give every \
             consistent list, one per line, such as [T, F].\n",
        ),
        Some(Query {
            labels,
            hidden: None,
            ..
        }) => {
            let _ = writeln!(
                out,
                "Is the list {} consistent? Answer consistent or inconsistent.",
                list(labels)
            );
        }
        Some(Query {
            labels,
            hidden: Some(h),
            ..
        }) => {
            let _ = writeln!(
                out,
                "In the list {}, which value of statement {} makes the list consistent? \
                 Answer T or F.",
                list(labels),
                h + 1
            );
        }
    }
}

/// The reasoning path: the statements' formulas and the edges joining them.
fn path(out: &mut String, sample: &Sample) {
    out.push_str(
        "Reasoning path (-> entails, <- is entailed by, <-> equivalent, x contradicts):\n",
    );
    for (j, st) in sample.statements.iter().enumerate() {
        let _ = writeln!(out, "  statement {} is {}", j + 1, st.symbolic);
    }
    for e in &sample.path {
        let _ = writeln!(out, "  {} {} {}", e.from, e.relation, e.to);
    }
}

/// The expected answer, in the form the scorer reads.
pub(crate) fn answer(sample: &Sample) -> String {
    match &sample.query {
        Some(q) => q.answer.clone(),
        None => sample
            .consistent_lists
            .iter()
            .map(|l| list(&l.iter().copied().map(Some).collect::<Vec<_>>()))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// `[T, F, ?]`.
fn list(labels: &[Option<Truth>]) -> String {
    let items: Vec<&str> = labels
        .iter()
        .map(|l| match l {
            Some(Truth::T) => "T",
            Some(Truth::F) => "F",
            None => "?",
        })
        .collect();
    format!("[{}]", items.join(", "))
}

//! Instruction prompts in two styles: Prolog facts or English sentences.

use super::train::{Train, Vocabulary};
use crate::judge::Label;

/// How the background is shown to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PromptStyle {
    /// Prolog facts, as in SLR-Bench.
    #[default]
    Prolog,
    /// One English sentence per fact.
    NaturalLanguage,
}

impl PromptStyle {
    /// The style named `name`, `prolog` or `nl` (as Python passes it).
    pub fn from_name(name: &str) -> Option<PromptStyle> {
        match name {
            "prolog" => Some(PromptStyle::Prolog),
            "nl" => Some(PromptStyle::NaturalLanguage),
            _ => None,
        }
    }
}

/// `name/2` for every active background predicate.
pub(crate) fn predicate_signatures(vocabulary: &Vocabulary) -> Vec<String> {
    let language = vocabulary.language;
    let mut out = vec![format!("{}/2", language.membership.name)];
    if vocabulary.position {
        out.push(format!("{}/2", language.position.name));
    }
    out.extend(
        vocabulary
            .attributes
            .iter()
            .map(|a| format!("{}/2", a.name)),
    );
    out
}

/// The prompt for a task whose examples are `examples` (train number = index).
pub(crate) fn prompt(
    vocabulary: &Vocabulary,
    examples: &[(Label, Train)],
    style: PromptStyle,
) -> String {
    let language = vocabulary.language;
    let (pos, neg) = (&language.labels.positive, &language.labels.negative);
    let mut out = String::new();
    out.push_str(&format!(
        "You are an expert in inductive logic programming. Below are {} trains, each labelled \
         {pos} or {neg}. Find the hidden classification rule.\n\n",
        examples.len()
    ));
    // The published prompts' order: the task, the vocabulary, the
    // examples with their background, the answer's form.
    out.push_str("## Vocabulary\n");
    out.push_str(&format!(
        "Background predicates: {}.\n",
        predicate_signatures(vocabulary).join(", ")
    ));
    for attribute in &vocabulary.attributes {
        out.push_str(&format!(
            "- {}(Car, Value) with Value in {{{}}}\n",
            attribute.name,
            attribute.values.join(", ")
        ));
    }
    out.push('\n');
    match style {
        PromptStyle::Prolog => {
            out.push_str("## Examples and background (Prolog facts)\n```prolog\n");
            for (t, (label, train)) in examples.iter().enumerate() {
                let name = if *label == Label::Pos { pos } else { neg };
                out.push_str(&format!("{name}({}).\n", language.train_name(t)));
                vocabulary.facts(train, t, &mut out);
            }
            out.push_str("```\n\n");
        }
        PromptStyle::NaturalLanguage => {
            out.push_str("## Examples and background\n");
            for (t, (label, train)) in examples.iter().enumerate() {
                let name = if *label == Label::Pos { pos } else { neg };
                out.push_str(&format!("Train {} is {name}.\n", language.train_name(t)));
                vocabulary.sentences(train, t, &mut out);
                out.push('\n');
            }
        }
    }
    out.push_str(&format!(
        "## Task\nWrite a Prolog rule `{pos}(Train) :- ...` over these predicates that holds for \
         every {pos} train and for no {neg} train. Do not name specific trains or cars. Prefer the \
         shortest correct rule. Give your final answer between [RULE] and [/RULE].\n"
    ));
    out
}

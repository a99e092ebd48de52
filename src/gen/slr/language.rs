//! The task language: vocabulary, value domains, grammar constraints, label
//! names, constant naming and English renderings, read from a JSON file.
//!
//! The default language is the SLR trains domain (`corpora/slr-lang/trains.json`,
//! compiled into the binary). A user language has the same shape.

use super::Error;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

/// The trains domain shipped with entail.
pub(crate) const TRAINS_JSON: &str = include_str!("../../../corpora/slr-lang/trains.json");

/// Names of the two label predicates.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct Labels {
    /// The predicate the hidden rule defines (`eastbound`).
    pub(crate) positive: String,
    /// The predicate of negative examples (`westbound`).
    pub(crate) negative: String,
}

/// A structural predicate (`has_car/2`, `car_num/2`) with its English form.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct Structural {
    /// Predicate name.
    pub(crate) name: String,
    /// Sentence template with `{train}`, `{car}` and `{value}` holes.
    pub(crate) sentence: String,
}

/// A car attribute `name(Car, Value)` with a finite domain.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct Attribute {
    /// Predicate name.
    pub(crate) name: String,
    /// The values, printed as written (numbers as integers when `numeric`).
    pub(crate) values: Vec<String>,
    /// Values are integers (allows comparisons in pattern rules).
    #[serde(default)]
    pub(crate) numeric: bool,
    /// Sentence template with `{car}` and `{value}` holes.
    pub(crate) sentence: String,
    /// Sentences for particular values, where the template would not read
    /// as English (`none`: "The car … has no roof."; `1`: "… 1 passenger").
    #[serde(default)]
    pub(crate) sentences: BTreeMap<String, String>,
}

impl Attribute {
    /// The sentence template for the value at `index` in `values`.
    pub(crate) fn sentence_for(&self, index: usize) -> &str {
        self.values
            .get(index)
            .and_then(|v| self.sentences.get(v))
            .unwrap_or(&self.sentence)
    }
}

/// `predicate ∈ values`, one side of a grammar constraint.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct Condition {
    /// An attribute name.
    pub(crate) predicate: String,
    /// The values that satisfy the condition.
    #[serde(rename = "in")]
    pub(crate) values: Vec<String>,
}

/// A grammar constraint on one car: if `if` holds then `then` holds. It only
/// binds when both predicates are active at the level.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct Constraint {
    /// Antecedent.
    #[serde(rename = "if")]
    pub(crate) antecedent: Condition,
    /// Consequent.
    #[serde(rename = "then")]
    pub(crate) consequent: Condition,
}

/// A whole language.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Language {
    /// A short name.
    pub(crate) name: String,
    /// Label predicates.
    pub(crate) labels: Labels,
    /// Train constant template with a `{train}` hole.
    pub(crate) train_constant: String,
    /// Car constant template with `{train}` and `{car}` holes.
    pub(crate) car_constant: String,
    /// `has_car(Train, Car)`.
    pub(crate) membership: Structural,
    /// `car_num(Car, Position)`.
    pub(crate) position: Structural,
    /// Car attributes.
    pub(crate) attributes: Vec<Attribute>,
    /// All predicates (membership, position, attributes) in the order levels
    /// activate them: a level with `n` predicates uses the first `n`.
    pub(crate) order: Vec<String>,
    /// Grammar constraints.
    #[serde(default)]
    pub(crate) constraints: Vec<Constraint>,
}

fn is_prolog_atom(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.len() < 10 && digits.bytes().all(|b| b.is_ascii_digit())
}

impl Language {
    /// The built-in trains language.
    pub fn trains() -> Language {
        // The embedded file is validated by the tests; failing here would be a
        // build defect, and parsing it again keeps one code path.
        Language::from_json(TRAINS_JSON).unwrap_or_else(|e| panic!("built-in language: {e}"))
    }

    /// Parses and validates a language file.
    pub fn from_json(text: &str) -> Result<Language, Error> {
        let language: Language =
            serde_json::from_str(text).map_err(|e| Error::Language(e.to_string()))?;
        language.validate()?;
        Ok(language)
    }

    fn validate(&self) -> Result<(), Error> {
        let fail = |m: String| Err(Error::Language(m));
        let mut names = BTreeSet::new();
        for name in [
            &self.labels.positive,
            &self.labels.negative,
            &self.membership.name,
            &self.position.name,
        ]
        .into_iter()
        .chain(self.attributes.iter().map(|a| &a.name))
        {
            if !is_prolog_atom(name) {
                return fail(format!("`{name}` is not a plain Prolog atom"));
            }
            if !names.insert(name.as_str()) {
                return fail(format!("`{name}` is named twice"));
            }
        }
        for attribute in &self.attributes {
            if attribute.values.is_empty() {
                return fail(format!("`{}` has no values", attribute.name));
            }
            let mut seen = BTreeSet::new();
            for value in &attribute.values {
                let ok = if attribute.numeric {
                    is_integer(value)
                } else {
                    is_prolog_atom(value)
                };
                if !ok {
                    return fail(format!("`{}` has a bad value `{value}`", attribute.name));
                }
                if !seen.insert(value) {
                    return fail(format!("`{}` lists `{value}` twice", attribute.name));
                }
            }
            if let Some(v) = attribute.sentences.keys().find(|v| !seen.contains(v)) {
                return fail(format!(
                    "`{}` has a sentence for `{v}`, which is not one of its values",
                    attribute.name
                ));
            }
        }
        let mut ordered = BTreeSet::new();
        for name in &self.order {
            if !ordered.insert(name.as_str()) {
                return fail(format!("order lists `{name}` twice"));
            }
            if *name != self.membership.name
                && *name != self.position.name
                && self.attribute(name).is_none()
            {
                return fail(format!("order names unknown predicate `{name}`"));
            }
        }
        if self.order.len() != self.attributes.len() + 2 {
            return fail("order must list every predicate once".into());
        }
        if self.order.first() != Some(&self.membership.name) {
            return fail("order must start with the membership predicate".into());
        }
        for constraint in &self.constraints {
            for side in [&constraint.antecedent, &constraint.consequent] {
                let Some(attribute) = self.attribute(&side.predicate) else {
                    return fail(format!(
                        "constraint on unknown attribute `{}`",
                        side.predicate
                    ));
                };
                if let Some(v) = side.values.iter().find(|v| !attribute.values.contains(v)) {
                    return fail(format!(
                        "constraint value `{v}` not in `{}`",
                        attribute.name
                    ));
                }
            }
        }
        if !self.train_constant.contains("{train}")
            || !self.car_constant.contains("{train}")
            || !self.car_constant.contains("{car}")
        {
            return fail("constant templates need {train} (and {car}) holes".into());
        }
        Ok(())
    }

    /// The attribute called `name`.
    pub(crate) fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The attributes active when the first `count` predicates of the order
    /// are, in order, and whether the position predicate is active.
    pub(crate) fn active(&self, count: usize) -> (Vec<&Attribute>, bool) {
        let names = &self.order[..count.min(self.order.len())];
        let attributes = names.iter().filter_map(|n| self.attribute(n)).collect();
        (attributes, names.contains(&self.position.name))
    }

    /// The name of train `t`.
    pub(crate) fn train_name(&self, train: usize) -> String {
        fill(&self.train_constant, train, None)
    }

    /// The name of car `c` (1-based) of train `t`.
    pub(crate) fn car_name(&self, train: usize, car: usize) -> String {
        fill(&self.car_constant, train, Some(car))
    }

    /// Whether a car's (attribute, value) pairs break no constraint whose
    /// two predicates both appear among them.
    pub(crate) fn consistent<'v>(&self, assigned: impl Fn(&str) -> Option<&'v str>) -> bool {
        self.constraints.iter().all(|c| {
            match (
                assigned(&c.antecedent.predicate),
                assigned(&c.consequent.predicate),
            ) {
                (Some(a), Some(b)) => {
                    !c.antecedent.values.iter().any(|v| v == a)
                        || c.consequent.values.iter().any(|v| v == b)
                }
                _ => true,
            }
        })
    }
}

/// `template` with `{train}` (and, given `car`, `{car}`) replaced by the
/// numbers, in one pass: what replacing each in turn gives, since numbers
/// hold no braces, without the searches that made naming a hot spot.
pub(crate) fn fill(template: &str, train: usize, car: Option<usize>) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(template.len() + 8);
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if let Some(after) = rest.strip_prefix("{train}") {
            let _ = write!(out, "{train}");
            rest = after;
        } else if let Some((after, car)) = car.and_then(|c| Some((rest.strip_prefix("{car}")?, c)))
        {
            let _ = write!(out, "{car}");
            rest = after;
        } else {
            out.push('{');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_with_their_own_sentence_read_as_english() {
        let trains = Language::trains();
        let roof = trains.attribute("has_roof").expect("has_roof");
        let at = |value: &str| {
            roof.values
                .iter()
                .position(|v| v == value)
                .expect("a value")
        };
        assert_eq!(roof.sentence_for(at("none")), "The car {car} has no roof.");
        assert_eq!(
            roof.sentence_for(at("peaked_roof")),
            "The car {car} has a {value}."
        );
        let passengers = trains.attribute("passenger_num").expect("passenger_num");
        assert_eq!(
            passengers.sentence_for(1),
            "The car {car} carries 1 passenger."
        );
    }

    #[test]
    fn a_sentence_for_a_value_the_attribute_lacks_is_refused() {
        let text = TRAINS_JSON.replace(
            r#""sentences": { "none": "The car {car} has no roof." }"#,
            r#""sentences": { "flat": "The car {car} has a flat roof." }"#,
        );
        assert_ne!(text, TRAINS_JSON);
        let err = Language::from_json(&text).unwrap_err();
        assert!(
            err.to_string()
                .contains("`has_roof` has a sentence for `flat`"),
            "{err}"
        );
    }
}

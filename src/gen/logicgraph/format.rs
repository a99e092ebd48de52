//! The published LogicGraph files as one typed schema, used both to write
//! instances (`output`) and to read them back (`instance`): `question.json`,
//! `complete.json`, `solutions.json` and `verify_true.json`, with field names
//! and nesting as in the published instances.
//!
//! Reading is lenient where the published instances or model answers leave
//! things out: what the loader does not need has a default, so a hand-written
//! instance with only its premises, target and translations loads, and an
//! answer's solution needs only its steps.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// A JSON object whose keys keep the order given (`A1, A2, …, A10, G`), which
/// a sorted map would not.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Ordered<V>(pub Vec<(String, V)>);

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Ordered<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
            type Value = Ordered<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered<V>, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Ordered(entries))
            }
        }
        d.deserialize_map(Entries(std::marker::PhantomData))
    }
}

/// A solution's or family's id: the published files write numbers, answers
/// may write strings; `"3"` and `3` are the same id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum Id {
    Number(u64),
    Text(String),
    /// Any other JSON scalar, kept as its JSON text.
    Other(serde_json::Value),
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Id::Number(n) => write!(f, "{n}"),
            Id::Text(s) => f.write_str(s),
            Id::Other(v) => write!(f, "{v}"),
        }
    }
}

/// `question.json`: the task as a model sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct QuestionFile {
    pub context: Context,
    pub question: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Context {
    pub rules: Vec<String>,
    pub facts: Vec<String>,
}

/// `complete.json`: premises, target, the solutions and the translations.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CompleteFile {
    #[serde(default)]
    pub metadata: Metadata,
    pub knowledge_base: KnowledgeBase,
    pub target: Target,
    #[serde(default)]
    pub solutions: Vec<Path<String>>,
    #[serde(default)]
    pub translations: Translations,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Metadata {
    /// The published generator renders a graph image; this one does not.
    #[serde(default)]
    pub graph_path: Option<String>,
    #[serde(default)]
    pub num_solutions: usize,
    #[serde(default)]
    pub family_stats: Ordered<FamilyStats>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct FamilyStats {
    pub core: usize,
    pub branch: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct KnowledgeBase {
    pub rules: Vec<KbEntry>,
    pub facts: Vec<KbEntry>,
}

/// A premise: `formal` in the A-notation, `prover9_expression` instantiated.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct KbEntry {
    pub id: String,
    pub formal: String,
    pub prover9_expression: String,
    #[serde(default)]
    pub natural: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Target {
    pub formal: String,
    #[serde(default)]
    pub prover9: String,
    pub prover9_expression: String,
    #[serde(default)]
    pub natural: String,
}

/// One solution (a proof path). `P` is how a step cites a premise: its
/// formula in `complete.json`, a [`UsedPremise`] in `solutions.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Path<P> {
    #[serde(default)]
    pub id: Option<Id>,
    #[serde(default)]
    pub family_id: Option<Id>,
    #[serde(default)]
    pub path_type: String,
    #[serde(default)]
    pub branch_from: Option<usize>,
    pub steps: Vec<PathStep<P>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct PathStep<P> {
    /// The step's number; labels fall back to the position when it is not
    /// a number.
    #[serde(default)]
    pub step_number: Option<Id>,
    #[serde(default)]
    pub rule_applied: Option<String>,
    pub premises_used: Vec<P>,
    pub conclusion: String,
    #[serde(default)]
    pub natural: String,
}

/// A cited premise in `solutions.json`: its id (`Derived` for an earlier
/// step's conclusion, identified by the quoted `prover9` formula).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct UsedPremise {
    pub id: String,
    #[serde(default)]
    pub prover9: Option<String>,
    #[serde(default)]
    pub prover9_expression: String,
    #[serde(default)]
    pub natural: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Translations {
    #[serde(default)]
    pub domain_theme: String,
    #[serde(default)]
    pub atomic_facts: Ordered<String>,
    #[serde(default)]
    pub natural_facts: Ordered<String>,
    #[serde(default)]
    pub prover9_expressions: Vec<String>,
    #[serde(default)]
    pub natural_expressions: Vec<String>,
    #[serde(default)]
    pub node_mappings: BTreeMap<String, Node>,
}

/// A formula the instance mentions, in each spelling.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Node {
    #[serde(default)]
    pub formal: String,
    #[serde(default)]
    pub prover9: String,
    #[serde(default)]
    pub prover9_expression: String,
    #[serde(default)]
    pub natural: String,
}

/// `solutions.json`: the reference solutions with the premises they cite.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct SolutionsFile {
    #[serde(default)]
    pub solution_stats: SolutionStats,
    pub solutions: Vec<Path<UsedPremise>>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct SolutionStats {
    pub total_solutions: usize,
    pub details: Vec<SolutionDetail>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct SolutionDetail {
    pub solution_id: usize,
    pub steps_count: usize,
}

/// `verify_true.json`: the engine's check of the instance.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct VerifyFile {
    pub total_solutions: usize,
    pub valid_solutions: usize,
    pub invalid_solutions: usize,
    pub solutions_reaching_target: usize,
    pub detailed_results: Vec<VerifiedSolution>,
    pub global_target_verification: GlobalCheck,
    pub premises_consistency_check: ConsistencyCheck,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct VerifiedSolution {
    pub solution_id: usize,
    pub valid: bool,
    pub step_results: Vec<VerifiedStep>,
    pub reaches_target: bool,
    pub error_message: Option<String>,
    pub derived_conclusions: Vec<DerivedConclusion>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct VerifiedStep {
    pub step_number: usize,
    pub rule_applied: String,
    pub valid: bool,
    pub message: String,
    pub conclusion: String,
    pub conclusion_expression: String,
    pub premises_used: Vec<String>,
    pub premises_expressions: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct DerivedConclusion {
    pub formal: String,
    pub prover9_expression: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct GlobalCheck {
    pub valid: bool,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ConsistencyCheck {
    pub consistent: bool,
    pub message: String,
}

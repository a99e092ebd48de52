//! Scoring model solutions to LogicGraph instances against the gold ones.
//!
//! Every answered solution is checked with the [`Prover`] against the gold
//! premise pool and target (an answer cannot bring premises of its own: only
//! the ids it cites are used). A solution is *valid* when every step is
//! valid, its last conclusion entails the target and the target follows from
//! its support (the leaf premises it cites); a timeout or Z3 `unknown` is
//! never valid. The gold side is checked the same way: gold supports and the
//! gold minimum step count come from the gold solutions that check as valid.
//!
//! Metrics per instance and answer set:
//! - success: 1 if at least one answered solution is valid, else 0;
//! - precision: valid / answered solutions (an unreadable solution counts as
//!   answered and invalid; no answers gives 0);
//! - shortest path: 1 if a valid solution has exactly as many steps as the
//!   shortest gold solution, else 0;
//! - diversity: |distinct valid supports ∩ gold supports| / |gold supports|;
//! - versatility: |gold families hit| / |gold families|, where a family is
//!   hit when a valid answer's support equals the support of a gold solution
//!   of that family;
//! - originality, across several answer sets (one per model): for each gold
//!   support s, f(s) = the number of answer sets that found it; a set's
//!   originality = mean over the gold supports it found of 1/f(s), and 0 if
//!   it found none. With a single answer set it equals success on supports
//!   (1 if it found any gold support).
//!
//! Ratios with an empty denominator (no gold support, no family) are 0.
//! Averages are arithmetic means over the instances of a tier (the name of
//! the instance directory's parent) and over all instances.

use super::instance::{self, Instance, InstanceDir, Instances, ParsedSolution};
use crate::gen::Progress;
use crate::prove::{
    ProveError, ProveOptions, Prover, Solution, SolutionReport, Step, StepProblem, StepStatus,
};
use crate::syntax::answer::read;
use crate::syntax::answer::steps::{self, Cite, PathAnswer};
use crate::syntax::prover9::{self, Attribute, Entry, Input, Item, ListKind, Term};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// The set of premise ids a solution rests on.
pub(crate) type Support = BTreeSet<String>;

/// A gold solution as checked by the prover.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct GoldSolution {
    /// Its id in `solutions.json`.
    pub id: String,
    /// Its `family_id`; a solution without one is its own family
    /// (`solution ID`).
    pub family: String,
    /// Its number of steps.
    pub steps: usize,
    /// The leaf premises it cites, as computed by the prover.
    pub support: Vec<String>,
    /// Whether it checks as valid (`null`: a check was unknown). Only valid
    /// gold solutions define gold supports, families and the minimum length.
    pub valid: Option<bool>,
}

/// The gold side of one instance: premises, target and checked solutions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Gold {
    /// The instance's name (see [`InstanceDir::name`]).
    pub name: String,
    /// Its tier.
    pub tier: String,
    /// The instance as loaded.
    pub instance: Instance,
    /// Its solutions, checked.
    pub solutions: Vec<GoldSolution>,
}

impl Gold {
    /// Checks the gold solutions of `instance` with `prover`.
    pub(crate) fn check(
        prover: &mut Prover,
        name: &str,
        tier: &str,
        instance: Instance,
    ) -> Result<Gold, ProveError> {
        let mut solutions = Vec::new();
        for (k, solution) in instance.problem.solutions.iter().enumerate() {
            let report = prover.check_solution(&instance.problem, solution)?;
            let family = instance
                .families
                .get(k)
                .cloned()
                .flatten()
                .unwrap_or_else(|| format!("solution {}", solution.id));
            solutions.push(GoldSolution {
                id: solution.id.clone(),
                family,
                steps: solution.steps.len(),
                valid: verdict(&report),
                support: report.support,
            });
        }
        Ok(Gold {
            name: name.to_string(),
            tier: tier.to_string(),
            instance,
            solutions,
        })
    }

    /// Loads and checks the instance in `dir`.
    pub(crate) fn load(
        prover: &mut Prover,
        dir: &InstanceDir,
        instantiated: bool,
    ) -> Result<Gold, ProveError> {
        let instance = instance::load_instance(&dir.path, instantiated)?;
        Gold::check(prover, &dir.name, &dir.tier, instance)
    }

    fn valid(&self) -> impl Iterator<Item = &GoldSolution> {
        self.solutions.iter().filter(|s| s.valid == Some(true))
    }

    /// The distinct supports of the valid gold solutions.
    pub(crate) fn supports(&self) -> BTreeSet<Support> {
        self.valid()
            .map(|s| s.support.iter().cloned().collect())
            .collect()
    }

    /// Each family of the valid gold solutions with its members' supports.
    pub(crate) fn families(&self) -> BTreeMap<String, BTreeSet<Support>> {
        let mut out: BTreeMap<String, BTreeSet<Support>> = BTreeMap::new();
        for s in self.valid() {
            out.entry(s.family.clone())
                .or_default()
                .insert(s.support.iter().cloned().collect());
        }
        out
    }

    /// The step count of the shortest valid gold solution.
    pub(crate) fn min_steps(&self) -> Option<usize> {
        self.valid().map(|s| s.steps).min()
    }

    /// The premise pool and target answers are checked against.
    pub(crate) fn problem(&self) -> &StepProblem {
        &self.instance.problem
    }
}

/// A solution is valid when every step is valid, it reaches the goal and the
/// goal follows from its support; `None` when none of these is refuted but
/// one is unknown.
pub(crate) fn verdict(report: &SolutionReport) -> Option<bool> {
    let answers = [
        report.steps_valid,
        report.reaches_goal,
        report.globally_valid,
    ];
    if answers.contains(&Some(false)) {
        Some(false)
    } else if answers.contains(&None) {
        None
    } else {
        Some(true)
    }
}

/// One instance's answer before it is read against the gold: the JSON shape
/// of `solutions.json`, the paths of the prompt's `Step k: [..] => ..`
/// format, or the text of a step file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum AnswerSource {
    /// `{solutions: [...]}` or a bare array of solutions.
    Json(Value),
    /// `Path n:` blocks of `Step k: [Fact x, Rule y] => conclusion` lines.
    Paths(Vec<PathAnswer>),
    /// A step file in Prover9 syntax (see `grammar/stepfile.md`).
    Steps(String),
}

/// An answer text: the prompt's path format when it has a step line, else a
/// step file.
fn text_answer(text: &str) -> AnswerSource {
    let paths = steps::read(text);
    if paths.is_empty() {
        AnswerSource::Steps(text.to_string())
    } else {
        AnswerSource::Paths(paths)
    }
}

/// Reads a single-instance answer file: JSON when it starts with `{` or `[`
/// (after white space), else the prompt's path format or a step file.
pub(crate) fn parse_answer_text(text: &str) -> Result<AnswerSource, ProveError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        serde_json::from_str(text)
            .map(AnswerSource::Json)
            .map_err(|e| ProveError::invalid_json(&e))
    } else {
        // JSON after reasoning or with special tokens around it.
        let visible = read::visible(text);
        let trimmed = visible.trim();
        if trimmed.starts_with('{') || trimmed.starts_with('[') {
            if let Ok(value) = serde_json::from_str(trimmed) {
                return Ok(AnswerSource::Json(value));
            }
        }
        Ok(text_answer(text))
    }
}

/// The answer lines of a JSONL answer file, by instance name.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct AnswerLines {
    /// For each instance: the 1-based line and its answer, or why the line
    /// could not be used (the instance then counts as answered with nothing).
    pub(crate) by_instance: BTreeMap<String, (usize, Result<AnswerSource, String>)>,
    /// Lines that name no instance or repeat one, as `FILE:LINE: reason`.
    pub(crate) problems: Vec<String>,
}

impl AnswerLines {
    /// Every line that could not be used, as `FILE:LINE: reason`: those
    /// left out, then those whose instance counts as answered with nothing.
    fn bad_lines(&self) -> impl Iterator<Item = &str> {
        let unreadable = self
            .by_instance
            .values()
            .filter_map(|(_, source)| source.as_ref().err());
        self.problems.iter().chain(unreadable).map(String::as_str)
    }
}

/// Whether `text` looks like a JSONL answer file: its first non-blank line is
/// a JSON object with an `instance` key.
pub(crate) fn looks_like_answer_lines(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|v| v.get("instance").is_some())
}

/// Reads a JSONL answer file: one line per instance, either
/// `{"instance": NAME, "solutions": [...]}` or `{"instance": NAME, "steps":
/// TEXT}`. A bad line is recorded, never fatal; the first line for an
/// instance counts and later ones are reported.
pub(crate) fn parse_answer_lines(file: &str, text: &str) -> AnswerLines {
    let mut out = AnswerLines::default();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                out.problems
                    .push(format!("{file}:{n}: invalid JSON, line ignored: {e}"));
                continue;
            }
        };
        let Some(name) = value.get("instance").and_then(Value::as_str) else {
            out.problems
                .push(format!("{file}:{n}: no string `instance`, line ignored"));
            continue;
        };
        let name = name.trim_matches('/').to_string();
        if let Some((first, _)) = out.by_instance.get(&name) {
            out.problems.push(format!(
                "{file}:{n}: a second answer for `{name}` (first on line {first}), line ignored"
            ));
            continue;
        }
        let source = match (value.get("solutions"), value.get("steps")) {
            (Some(_), None) => Ok(AnswerSource::Json(value.clone())),
            (None, Some(Value::String(s))) => Ok(text_answer(s)),
            (None, Some(_)) => Err(format!("{file}:{n}: `steps` is not a string")),
            (Some(_), Some(_)) => Err(format!(
                "{file}:{n}: give either `solutions` or `steps`, not both"
            )),
            (None, None) => Err(format!("{file}:{n}: neither `solutions` nor `steps`")),
        };
        out.by_instance.insert(name, (n, source));
    }
    out
}

/// Reads an answer against `gold`: each solution, or why it cannot be read.
/// The error is for an answer that cannot be read at all (not the expected
/// shape, a step file with a syntax error or no solution list).
pub(crate) fn read_answer(
    source: &AnswerSource,
    gold: &Gold,
) -> Result<Vec<ParsedSolution>, ProveError> {
    match source {
        AnswerSource::Json(doc) => instance::parse_solutions(doc, &gold.instance.notation),
        AnswerSource::Paths(paths) => Ok(path_solutions(paths, gold)),
        AnswerSource::Steps(text) => step_file_solutions(text, gold),
    }
}

/// The solutions of a path-format answer, conclusions read in the gold's
/// notation: a formula (A-notation, Unicode or Prover9 connectives) or the
/// sentence of one of the instance's nodes, as the prompt words them. Any
/// other conclusion makes its path unreadable (answered and invalid).
fn path_solutions(paths: &[PathAnswer], gold: &Gold) -> Vec<ParsedSolution> {
    let notation = &gold.instance.notation;
    paths
        .iter()
        .map(|path| {
            let id = path.number.to_string();
            let solution = path
                .steps
                .iter()
                .map(|s| {
                    let label = format!("S{}", s.number);
                    let what = format!("path {id} step {}", s.number);
                    Ok(Step {
                        conclusion: notation.conclusion(&s.conclusion, &what)?,
                        from: s
                            .cited
                            .iter()
                            .map(|c| match c {
                                Cite::Premise(p) => p.clone(),
                                Cite::Step(k) => format!("S{k}"),
                            })
                            .collect(),
                        rule: None,
                        pos: None,
                        label,
                    })
                })
                .collect::<Result<Vec<Step>, ProveError>>()
                .map(|steps| Solution {
                    id: id.clone(),
                    steps,
                });
            ParsedSolution {
                id,
                family: None,
                solution,
            }
        })
        .collect()
}

/// The solution lists of a step file, each read against the gold premises
/// and goal (the file's own premise and goal lists are ignored).
fn step_file_solutions(text: &str, gold: &Gold) -> Result<Vec<ParsedSolution>, ProveError> {
    let input = prover9::parse(text)?;
    let problem = gold.problem();
    let premises = Item::Formulas {
        kind: ListKind::Formulas,
        name: "assumptions".into(),
        entries: problem
            .premises
            .iter()
            .map(|p| Entry {
                formula: p.formula.clone(),
                attributes: vec![Attribute {
                    name: "label".into(),
                    args: vec![Term::App(p.id.clone(), Vec::new())],
                }],
                pos: Default::default(),
            })
            .collect(),
    };
    let goals = Item::Formulas {
        kind: ListKind::Formulas,
        name: "goals".into(),
        entries: vec![Entry {
            formula: problem.goal.clone(),
            attributes: Vec::new(),
            pos: Default::default(),
        }],
    };
    let mut out = Vec::new();
    for item in input.prover9_items() {
        let Item::Formulas { name, .. } = item else {
            continue;
        };
        let Some(suffix) = name.strip_prefix("solution") else {
            continue;
        };
        let suffix = suffix.trim_start_matches('_');
        let id = if suffix.is_empty() {
            name.clone()
        } else {
            suffix.to_string()
        };
        // Reading the list through the step-file reader, with the gold
        // premises in place of the file's, keeps one definition of labels,
        // `from` and `rule`.
        let alone = Input {
            items: vec![premises.clone(), goals.clone(), item.clone()],
        };
        let solution = StepProblem::from_step_file(&alone).and_then(|p| {
            p.solutions
                .into_iter()
                .next()
                .ok_or_else(|| ProveError::new(None, "empty solution list"))
        });
        let solution = solution.map(|mut s| {
            for step in &mut s.steps {
                step.conclusion = gold.instance.notation.apply(step.conclusion.clone());
            }
            s
        });
        out.push(ParsedSolution {
            id,
            family: None,
            solution,
        });
    }
    if out.is_empty() {
        return Err(ProveError::new(
            None,
            "the step file has no `formulas(solution_N)` list",
        ));
    }
    Ok(out)
}

/// The check of one answered solution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SolutionScore {
    /// The solution's id.
    pub id: String,
    /// Its number of steps (0 when it could not be read).
    pub steps: usize,
    /// Valid, invalid, or `null` when a check was unknown.
    pub valid: Option<bool>,
    /// The leaf premises it cites.
    pub support: Vec<String>,
    /// Why it is not valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The metrics of one answer set on one instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct InstanceScore {
    /// The instance's name.
    pub instance: String,
    /// Its tier.
    pub tier: String,
    /// Solutions answered (readable or not).
    pub answered: usize,
    /// Solutions valid.
    pub valid: usize,
    /// Solutions neither valid nor refuted (a check was unknown).
    pub unknown: usize,
    /// 1 if some solution is valid, else 0.
    pub success: f64,
    /// valid / answered (0 without answers).
    pub precision: f64,
    /// 1 if a valid solution is as short as the shortest gold solution.
    pub shortest_path: f64,
    /// Share of gold supports found by valid solutions.
    pub diversity: f64,
    /// Share of gold families hit.
    pub versatility: f64,
    /// Mean of 1/f(s) over the gold supports s found, where f(s) counts the
    /// answer sets that found s (0 if none found).
    pub originality: f64,
    /// Gold supports (distinct, from valid gold solutions).
    pub gold_supports: usize,
    /// Gold supports found.
    pub supports_found: usize,
    /// Gold families.
    pub gold_families: usize,
    /// Gold families hit.
    pub families_hit: usize,
    /// Steps of the shortest valid gold solution.
    pub gold_min_steps: Option<usize>,
    /// Why the answer could not be read at all, or that there was none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Each answered solution.
    pub solutions: Vec<SolutionScore>,
    /// The gold supports found, for originality.
    #[serde(skip)]
    pub found: BTreeSet<Support>,
}

/// Why a checked solution is not valid, in one line.
fn reason(report: &SolutionReport) -> Option<String> {
    if let Some(st) = report.steps.iter().find(|s| s.status != StepStatus::Valid) {
        let status = match st.status {
            StepStatus::Invalid => "invalid",
            _ => "unknown",
        };
        let kind = st
            .error_kind
            .and_then(|k| serde_json::to_value(k).ok())
            .and_then(|v| v.as_str().map(str::to_string));
        let mut s = format!("step {} is {status}", st.label);
        if let Some(k) = kind {
            s.push_str(&format!(" ({k})"));
        }
        if let Some(m) = &st.message {
            s.push_str(&format!(": {m}"));
        }
        return Some(s);
    }
    match (report.reaches_goal, report.globally_valid) {
        (Some(false), _) => Some("the last step does not entail the target".into()),
        (_, Some(false)) => Some("the cited premises do not entail the target".into()),
        (None, _) | (_, None) => Some("a check of the target was unknown".into()),
        _ => None,
    }
}

/// Checks one answer set's answer to `gold` and computes every metric but
/// originality (set to 0 here; see [`set_originality`]). `answer` is the
/// read answer, or a message saying why there is none (then nothing is
/// valid).
pub(crate) fn score_instance(
    prover: &mut Prover,
    gold: &Gold,
    answer: Result<Vec<ParsedSolution>, String>,
) -> InstanceScore {
    let (parsed, error) = match answer {
        Ok(p) => (p, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    let mut solutions = Vec::new();
    for p in parsed {
        let score = match p.solution {
            Err(e) => SolutionScore {
                id: p.id,
                steps: 0,
                valid: Some(false),
                support: Vec::new(),
                reason: Some(match e.pos {
                    Some(pos) => format!("unreadable at {}:{}: {}", pos.line, pos.col, e.message),
                    None => format!("unreadable: {}", e.message),
                }),
            },
            Ok(solution) => match prover.check_solution(gold.problem(), &solution) {
                Ok(report) => SolutionScore {
                    id: p.id,
                    steps: solution.steps.len(),
                    valid: verdict(&report),
                    reason: reason(&report),
                    support: report.support,
                },
                Err(e) => SolutionScore {
                    id: p.id,
                    steps: solution.steps.len(),
                    valid: Some(false),
                    support: Vec::new(),
                    reason: Some(format!("cannot be checked: {}", e.message)),
                },
            },
        };
        solutions.push(score);
    }
    let gold_supports = gold.supports();
    let families = gold.families();
    let min_steps = gold.min_steps();
    let valid: Vec<&SolutionScore> = solutions.iter().filter(|s| s.valid == Some(true)).collect();
    let found: BTreeSet<Support> = valid
        .iter()
        .map(|s| s.support.iter().cloned().collect::<Support>())
        .filter(|s| gold_supports.contains(s))
        .collect();
    let families_hit = families
        .values()
        .filter(|members| members.iter().any(|s| found.contains(s)))
        .count();
    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let indicator = |b: bool| if b { 1.0 } else { 0.0 };
    InstanceScore {
        instance: gold.name.clone(),
        tier: gold.tier.clone(),
        answered: solutions.len(),
        valid: valid.len(),
        unknown: solutions.iter().filter(|s| s.valid.is_none()).count(),
        success: indicator(!valid.is_empty()),
        precision: ratio(valid.len(), solutions.len()),
        shortest_path: indicator(valid.iter().any(|s| Some(s.steps) == min_steps)),
        diversity: ratio(found.len(), gold_supports.len()),
        versatility: ratio(families_hit, families.len()),
        originality: 0.0,
        gold_supports: gold_supports.len(),
        supports_found: found.len(),
        gold_families: families.len(),
        families_hit,
        gold_min_steps: min_steps,
        error,
        solutions,
        found,
    }
}

/// Originality of each answer set on one instance, given the gold supports
/// each set found: f(s) = how many sets found s; a set's originality is the
/// mean of 1/f(s) over the supports it found, 0 if it found none.
pub(crate) fn originality(found_by_set: &[&BTreeSet<Support>]) -> Vec<f64> {
    let mut frequency: BTreeMap<&Support, usize> = BTreeMap::new();
    for found in found_by_set {
        for s in found.iter() {
            *frequency.entry(s).or_default() += 1;
        }
    }
    found_by_set
        .iter()
        .map(|found| {
            if found.is_empty() {
                return 0.0;
            }
            let sum: f64 = found
                .iter()
                .map(|s| 1.0 / frequency.get(s).copied().unwrap_or(1) as f64)
                .sum();
            sum / found.len() as f64
        })
        .collect()
}

/// Fills in originality for the scores of several answer sets on the same
/// instance.
pub(crate) fn set_originality(scores: &mut [&mut InstanceScore]) {
    let values = {
        let found: Vec<&BTreeSet<Support>> = scores.iter().map(|s| &s.found).collect();
        originality(&found)
    };
    for (score, value) in scores.iter_mut().zip(values) {
        score.originality = value;
    }
}

/// Mean metrics over a group of instances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Average {
    /// The tier's name, or `all`.
    pub tier: String,
    /// How many instances are averaged.
    pub instances: usize,
    /// Mean success.
    pub success: f64,
    /// Mean precision.
    pub precision: f64,
    /// Mean shortest-path indicator.
    pub shortest_path: f64,
    /// Mean diversity.
    pub diversity: f64,
    /// Mean versatility.
    pub versatility: f64,
    /// Mean originality.
    pub originality: f64,
}

fn average(tier: &str, scores: &[&InstanceScore]) -> Average {
    let mean = |f: fn(&InstanceScore) -> f64| {
        if scores.is_empty() {
            0.0
        } else {
            scores.iter().map(|s| f(s)).sum::<f64>() / scores.len() as f64
        }
    };
    Average {
        tier: tier.to_string(),
        instances: scores.len(),
        success: mean(|s| s.success),
        precision: mean(|s| s.precision),
        shortest_path: mean(|s| s.shortest_path),
        diversity: mean(|s| s.diversity),
        versatility: mean(|s| s.versatility),
        originality: mean(|s| s.originality),
    }
}

/// Averages per tier (sorted by tier name) and over all instances.
pub(crate) fn averages(scores: &[InstanceScore]) -> (Vec<Average>, Average) {
    let mut by_tier: BTreeMap<&str, Vec<&InstanceScore>> = BTreeMap::new();
    for s in scores {
        by_tier.entry(s.tier.as_str()).or_default().push(s);
    }
    let tiers = by_tier.iter().map(|(t, group)| average(t, group)).collect();
    let all: Vec<&InstanceScore> = scores.iter().collect();
    (tiers, average("all", &all))
}

/// One answer set's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct AnswerSetReport {
    /// Where the answers came from (the file name).
    pub answers: String,
    /// Lines or files that could not be used, as `FILE:LINE: reason`.
    pub problems: Vec<String>,
    /// Per instance, in instance order.
    pub instances: Vec<InstanceScore>,
    /// Averages per tier.
    pub tiers: Vec<Average>,
    /// Averages over all instances.
    pub all: Average,
}

/// The whole scoring run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The gold directory.
    pub gold: String,
    /// Whether formulas were instantiated.
    pub instantiated: bool,
    /// Instances scored.
    pub instances: usize,
    /// Gold instances that could not be loaded or checked (left out).
    pub gold_errors: Vec<String>,
    /// One report per answer set, in the order given (read each
    /// instance's metrics from the JSON).
    pub(crate) answer_sets: Vec<AnswerSetReport>,
}

/// One model's answers, as read from its file.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerSet {
    /// The file name, used in messages.
    pub file: String,
    /// The answers by instance.
    lines: AnswerLines,
    /// When true, positions in errors are the file's own (a single-instance
    /// file); else they are within the answer line.
    single: bool,
}

impl AnswerSet {
    /// Reads an answer file's text for the instances in `instances`: a JSONL
    /// file of answer lines, or (when there is exactly one instance and the
    /// text is not JSONL) one answer for that instance.
    pub fn read(file: &str, text: &str, instances: &Instances) -> AnswerSet {
        if let [only] = instances.dirs.as_slice() {
            if !looks_like_answer_lines(text) {
                let source =
                    parse_answer_text(text).map_err(|e| e.in_file(file.to_string()).to_string());
                let mut lines = AnswerLines::default();
                lines.by_instance.insert(only.name.clone(), (1, source));
                return AnswerSet {
                    file: file.to_string(),
                    lines,
                    single: true,
                };
            }
        }
        let mut lines = parse_answer_lines(file, text);
        let known: BTreeSet<&str> = instances.dirs.iter().map(|d| d.name.as_str()).collect();
        for (name, (line, _)) in &lines.by_instance {
            if !known.contains(name.as_str()) {
                lines.problems.push(format!(
                    "{file}:{line}: no gold instance `{name}`, line ignored"
                ));
            }
        }
        lines.problems.sort();
        AnswerSet {
            file: file.to_string(),
            lines,
            single: false,
        }
    }

    /// Every line that could not be used, as `FILE:LINE: reason`: those
    /// left out, then those whose instance counts as answered with nothing.
    pub fn bad_lines(&self) -> impl Iterator<Item = &str> {
        self.lines.bad_lines()
    }

    /// The answer for `gold`, read against it, or why there is none.
    pub(crate) fn answer(&self, gold: &Gold) -> Result<Vec<ParsedSolution>, String> {
        let Some((line, source)) = self.lines.by_instance.get(&gold.name) else {
            return Err(format!("{}: no answer for this instance", self.file));
        };
        let source = source.as_ref().map_err(Clone::clone)?;
        read_answer(source, gold).map_err(|e| {
            if self.single {
                e.in_file(self.file.clone()).to_string()
            } else {
                let place = match e.pos {
                    Some(p) => format!(" at {}:{}", p.line, p.col),
                    None => String::new(),
                };
                format!("{}:{line}: answer{place}: {}", self.file, e.message)
            }
        })
    }
}

/// How answers are checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreConfig {
    /// Each check's time limit (a timeout never counts as valid).
    pub timeout: Duration,
    /// Check the instantiated formulas (`prover9_expression`) instead of the
    /// A-notation.
    pub instantiated: bool,
}

impl Default for ScoreConfig {
    /// Ten seconds per check, A-notation.
    fn default() -> ScoreConfig {
        ScoreConfig {
            timeout: Duration::from_secs(10),
            instantiated: false,
        }
    }
}

/// Scores every answer set (one per model) on every instance of `gold`,
/// calling `progress(1)` after each instance. A gold instance that does not
/// load is left out and named in [`Report::gold_errors`].
pub fn score(
    gold: &Instances,
    answer_sets: &[AnswerSet],
    config: &ScoreConfig,
    progress: Progress,
) -> Report {
    let mut prover = Prover::new(ProveOptions {
        timeout: Some(config.timeout),
        countermodels: false,
    });
    let prover = &mut prover;
    let instantiated = config.instantiated;
    let mut gold_errors = Vec::new();
    let mut per_set: Vec<Vec<InstanceScore>> = vec![Vec::new(); answer_sets.len()];
    for dir in &gold.dirs {
        match Gold::load(prover, dir, instantiated) {
            Err(e) => gold_errors.push(format!("{}: {e}", dir.name)),
            Ok(gold) => {
                let mut scores: Vec<InstanceScore> = answer_sets
                    .iter()
                    .map(|set| score_instance(prover, &gold, set.answer(&gold)))
                    .collect();
                let mut refs: Vec<&mut InstanceScore> = scores.iter_mut().collect();
                set_originality(&mut refs);
                for (k, s) in scores.into_iter().enumerate() {
                    per_set[k].push(s);
                }
            }
        }
        progress(1);
    }
    let scored = per_set.first().map_or(0, Vec::len);
    let answer_sets = answer_sets
        .iter()
        .zip(per_set)
        .map(|(set, instances)| {
            let (tiers, all) = averages(&instances);
            AnswerSetReport {
                answers: set.file.clone(),
                problems: set.lines.problems.clone(),
                instances,
                tiers,
                all,
            }
        })
        .collect();
    Report {
        gold: gold.root.display().to_string(),
        instantiated,
        instances: scored,
        gold_errors,
        answer_sets,
    }
}

impl Report {
    /// The human-readable report: per answer set, a table of instances, the
    /// problems met, and the averages by tier.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for e in &self.gold_errors {
            s.push_str(&format!("gold error: {e}\n"));
        }
        for set in &self.answer_sets {
            s.push_str(&format!("answers: {}\n", set.answers));
            let width = set
                .instances
                .iter()
                .map(|i| i.instance.len())
                .max()
                .unwrap_or(0)
                .max("instance".len());
            s.push_str(&format!(
                "{:<width$}  {:>8} {:>5} {:>7} {:>9} {:>8} {:>9} {:>11} {:>11}\n",
                "instance",
                "answered",
                "valid",
                "success",
                "precision",
                "shortest",
                "diversity",
                "versatility",
                "originality"
            ));
            for i in &set.instances {
                s.push_str(&format!(
                    "{:<width$}  {:>8} {:>5} {:>7} {:>9.4} {:>8} {:>9.4} {:>11.4} {:>11.4}\n",
                    i.instance,
                    i.answered,
                    i.valid,
                    i.success,
                    i.precision,
                    i.shortest_path,
                    i.diversity,
                    i.versatility,
                    i.originality
                ));
            }
            for i in &set.instances {
                if let Some(e) = &i.error {
                    s.push_str(&format!("  {}: {e}\n", i.instance));
                }
                for sol in i.solutions.iter().filter(|x| x.valid != Some(true)) {
                    if let Some(r) = &sol.reason {
                        s.push_str(&format!("  {} solution {}: {r}\n", i.instance, sol.id));
                    }
                }
            }
            for p in &set.problems {
                s.push_str(&format!("  {p}\n"));
            }
            let tier_width = set
                .tiers
                .iter()
                .map(|t| t.tier.len())
                .max()
                .unwrap_or(0)
                .max("tier".len());
            s.push_str(&format!(
                "{:<tier_width$}  {:>9} {:>7} {:>9} {:>8} {:>9} {:>11} {:>11}\n",
                "tier",
                "instances",
                "success",
                "precision",
                "shortest",
                "diversity",
                "versatility",
                "originality"
            ));
            for t in set.tiers.iter().chain(Some(&set.all)) {
                s.push_str(&format!(
                    "{:<tier_width$}  {:>9} {:>7.4} {:>9.4} {:>8.4} {:>9.4} {:>11.4} {:>11.4}\n",
                    t.tier,
                    t.instances,
                    t.success,
                    t.precision,
                    t.shortest_path,
                    t.diversity,
                    t.versatility,
                    t.originality
                ));
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::{originality, Support};
    use std::collections::BTreeSet;

    #[test]
    fn originality_follows_the_inverse_frequency_formula() {
        let support = |ids: &[&str]| -> Support { ids.iter().map(|s| s.to_string()).collect() };
        let (a, b, c) = (support(&["R1"]), support(&["R2", "F1"]), support(&["R3"]));
        // f(a) = 1, f(b) = 3, f(c) = 1.
        let sets = [
            BTreeSet::from([a.clone(), b.clone()]),
            BTreeSet::from([b.clone(), c.clone()]),
            BTreeSet::from([b.clone()]),
            BTreeSet::new(),
        ];
        let refs: Vec<&BTreeSet<Support>> = sets.iter().collect();
        let got = originality(&refs);
        let want = [
            (1.0 + 1.0 / 3.0) / 2.0,
            (1.0 / 3.0 + 1.0) / 2.0,
            1.0 / 3.0,
            0.0,
        ];
        assert_eq!(got, want);
        // Two sets finding the same single support share it: 1/2 each.
        let same = [BTreeSet::from([a.clone()]), BTreeSet::from([a])];
        let refs: Vec<&BTreeSet<Support>> = same.iter().collect();
        assert_eq!(originality(&refs), [0.5, 0.5]);
    }
}

//! `entail show`: one item as a picture.
//!
//! - [`slr_task`]: an SLR task's trains as Michalski trains;
//! - [`logicgraph_instance`]: a LogicGraph instance as its DAG (premises,
//!   derived formulas, goal; gold paths coloured by family), with a model's
//!   steps marked valid or invalid when an answer is given;
//! - [`logicon_sample`]: a LogiConBench sample's statements and the
//!   reasoning path that joins them in its logical graph.

use super::chart::css_colour;
use super::graph::{Edge, Graph, Key, Node, Shape};
use super::page::Page;
use super::{trains, Error};
use crate::gen::logicgraph::{self, AnswerSet, Instances};
use crate::gen::logicon::Sample;
use crate::judge::TaskRecord;
use crate::prove::{ProveOptions, Prover, StepStatus};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// A drawn item.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// What it shows, as a caption.
    pub title: String,
    /// The drawing, an SVG document.
    pub svg: String,
    /// What the drawing counts: cars for trains, nodes for graphs.
    pub marks: usize,
    /// The same content as text (the full formulas, every car's attributes).
    pub text: String,
}

impl Picture {
    /// The picture as a self-contained HTML page; `made` says when and by
    /// which entail, as a report's header does.
    pub fn to_html(&self, made: &str) -> String {
        let mut page = Page::new(&self.title);
        page.header_line(made);
        page.end_header();
        page.drawing(&self.title, &self.svg, self.marks, &self.text);
        page.finish()
    }
}

/// An SLR task's trains, grouped by label, or unlabelled (`hide_labels`)
/// as a model sees trains it must classify.
pub fn slr_task(task: &TaskRecord, hide_labels: bool) -> Result<Picture, Error> {
    let config = task.evaluation_config.clone().unwrap_or_default();
    let positive = config.positive_predicate.as_deref().unwrap_or("eastbound");
    let negative = config.negative_predicate.as_deref().unwrap_or("westbound");
    let trains = trains::task_trains(task)?;
    if trains.is_empty() {
        return Err(Error("the validation program has no trains".into()));
    }
    let svg = trains::draw(&trains, positive, negative, hide_labels)?;
    let id = task
        .id
        .as_ref()
        .map(|id| format!(" {}", crate::gen::slr::id_key(id)))
        .unwrap_or_default();
    Ok(Picture {
        title: format!("SLR task{id}: {} trains", trains.len()),
        marks: trains.iter().map(|t| t.cars.len()).sum(),
        text: trains::describe(&trains, positive, negative, hide_labels),
        svg,
    })
}

const PREMISE_FILL: &str = "#eef3fb";
const PREMISE_LINE: &str = "#4a6fa5";
const DERIVED_FILL: &str = "#ffffff";
const DERIVED_LINE: &str = "#555555";
const GOAL_FILL: &str = "#fff4d6";
const GOAL_LINE: &str = "#b8860b";
const VALID: &str = "#1a9850";
const INVALID: &str = "#d73027";
const UNKNOWN: &str = "#999999";
const UNKNOWN_FILL: &str = "#fde0dd";

/// The key of a LogicGraph drawing: its node kinds, each gold family's
/// colour, and what the answer's marks mean, for those the drawing has.
fn logicgraph_key(graph: &Graph, families: &[&String]) -> Vec<Key> {
    let has = |kind: &str| {
        graph
            .nodes
            .iter()
            .any(|n| n.kind.split(' ').any(|k| k == kind))
    };
    let mut key = vec![
        Key::Node(
            Shape::Box,
            PREMISE_FILL.into(),
            PREMISE_LINE.into(),
            "premise (fact or rule)".into(),
        ),
        Key::Node(
            Shape::Ellipse,
            DERIVED_FILL.into(),
            DERIVED_LINE.into(),
            "derived by a gold step".into(),
        ),
        Key::Node(
            Shape::Goal,
            GOAL_FILL.into(),
            GOAL_LINE.into(),
            "the goal".into(),
        ),
    ];
    for (k, family) in families.iter().enumerate() {
        key.push(Key::Edge(
            css_colour(k),
            false,
            format!("gold path, family {family}"),
        ));
    }
    let answered = has("answered") || has("step");
    for (kind, colour, text) in [
        ("valid", VALID, "✓ answer step the prover finds valid"),
        ("invalid", INVALID, "✗ answer step the prover refutes"),
        ("unknown", UNKNOWN, "? answer step the prover cannot decide"),
    ] {
        if answered && has(kind) {
            key.push(Key::Node(
                Shape::Box,
                "#ffffff".into(),
                colour.into(),
                text.into(),
            ));
        }
    }
    if answered {
        key.push(Key::Edge(
            "#777777".into(),
            true,
            "dashed: what an answer step cites, in its verdict's colour".into(),
        ));
    }
    if has("unknown-reference") {
        key.push(Key::Node(
            Shape::Box,
            UNKNOWN_FILL.into(),
            INVALID.into(),
            "X? a name the answer cites that does not exist".into(),
        ));
    }
    key
}

/// A LogicGraph instance directory as its DAG. With `answer` (file name and
/// text: a step file or an answer line, as `score logicgraph` reads them),
/// the model's steps are added as nodes of their own, marked valid (green)
/// or invalid (red) by the prover, with dashed edges from what they cite.
/// `timeout` bounds each prover check.
pub fn logicgraph_instance(
    dir: &Path,
    answer: Option<(&str, &str)>,
    timeout: Duration,
) -> Result<Picture, Error> {
    let instances = Instances::find(dir).map_err(|e| Error(e.to_string()))?;
    let [only] = instances.dirs.as_slice() else {
        return Err(Error(format!(
            "{}: not one LogicGraph instance (a directory with complete.json)",
            dir.display()
        )));
    };
    let mut prover = Prover::new(ProveOptions {
        timeout: Some(timeout),
        countermodels: false,
    });
    let gold = logicgraph::Gold::load(&mut prover, only, false)
        .map_err(|e| Error(format!("{}: {e}", dir.display())))?;
    let problem = gold.problem();
    let mut graph = Graph::default();
    let mut text = String::new();
    // Nodes by formula text: a formula derived on several paths is one node.
    let mut by_formula: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_premise: BTreeMap<String, usize> = BTreeMap::new();
    for p in &problem.premises {
        let formula = p.formula.to_string();
        let n = graph.add(Node {
            label: format!("{}: {formula}", p.id),
            kind: "premise".into(),
            shape: Shape::Box,
            fill: PREMISE_FILL.into(),
            line: PREMISE_LINE.into(),
            title: format!("premise {}: {formula}", p.id),
        });
        text.push_str(&format!("premise {}: {formula}\n", p.id));
        by_formula.entry(formula).or_insert(n);
        by_premise.insert(p.id.clone(), n);
    }
    let goal_text = problem.goal.to_string();
    let goal = graph.add(Node {
        label: format!("goal: {goal_text}"),
        kind: "goal".into(),
        shape: Shape::Goal,
        fill: GOAL_FILL.into(),
        line: GOAL_LINE.into(),
        title: String::new(),
    });
    text.push_str(&format!("goal: {goal_text}\n"));
    by_formula.insert(goal_text, goal);
    let families: Vec<&String> = {
        let mut f: Vec<&String> = gold.solutions.iter().map(|s| &s.family).collect();
        f.sort();
        f.dedup();
        f
    };
    for (solution, checked) in problem.solutions.iter().zip(&gold.solutions) {
        let family = families
            .iter()
            .position(|f| **f == checked.family)
            .unwrap_or(0);
        let colour = css_colour(family);
        text.push_str(&format!(
            "gold solution {} ({}, {} steps)\n",
            solution.id,
            checked.family,
            solution.steps.len()
        ));
        let mut by_label: BTreeMap<&str, usize> = BTreeMap::new();
        for step in &solution.steps {
            let formula = step.conclusion.to_string();
            let node = match by_formula.get(&formula) {
                Some(&n) => n,
                None => {
                    let n = graph.add(Node {
                        label: formula.clone(),
                        kind: "derived".into(),
                        shape: Shape::Ellipse,
                        fill: DERIVED_FILL.into(),
                        line: DERIVED_LINE.into(),
                        title: format!("derived: {formula}"),
                    });
                    by_formula.insert(formula.clone(), n);
                    n
                }
            };
            text.push_str(&format!(
                "  {}: {formula} from {}\n",
                step.label,
                step.from.join(", ")
            ));
            for cited in &step.from {
                let source = by_label
                    .get(cited.as_str())
                    .or_else(|| by_premise.get(cited))
                    .copied();
                if let Some(from) = source {
                    let edge = Edge {
                        from,
                        to: node,
                        label: String::new(),
                        colour: colour.clone(),
                        dashed: false,
                        kind: format!("gold family-{}", family + 1),
                    };
                    if !graph.edges.contains(&edge) {
                        graph.edges.push(edge);
                    }
                }
            }
            by_label.insert(&step.label, node);
        }
    }
    let gold_nodes = graph.nodes.len();
    let mut answered = String::new();
    if let Some((file, answer_text)) = answer {
        let set = AnswerSet::read(file, answer_text, &instances);
        let parsed = set.answer(&gold).map_err(Error)?;
        for p in parsed {
            let solution = match p.solution {
                Ok(s) => s,
                Err(e) => {
                    text.push_str(&format!(
                        "answer solution {}: unreadable: {}\n",
                        p.id, e.message
                    ));
                    continue;
                }
            };
            let report = prover
                .check_solution(problem, &solution)
                .map_err(|e| Error(e.to_string()))?;
            text.push_str(&format!("answer solution {}\n", p.id));
            let mut by_label: BTreeMap<&str, usize> = BTreeMap::new();
            for (step, checked) in solution.steps.iter().zip(&report.steps) {
                let (verdict, line) = match checked.status {
                    StepStatus::Valid => ("valid", VALID),
                    StepStatus::Invalid => ("invalid", INVALID),
                    StepStatus::Unknown => ("unknown", UNKNOWN),
                };
                let mark = match checked.status {
                    StepStatus::Valid => "✓",
                    StepStatus::Invalid => "✗",
                    StepStatus::Unknown => "?",
                };
                let formula = step.conclusion.to_string();
                let tip = format!(
                    "{mark} answer {} step {}: {formula} ({verdict})",
                    p.id, step.label
                );
                // A step that concludes a formula of the gold graph is drawn
                // on that node (its outline the verdict's colour, its kind
                // `answered`); only steps that conclude something new get
                // nodes of their own.
                let node = match by_formula.get(&formula) {
                    Some(&n) if n < gold_nodes => {
                        // Several steps may conclude it: it shows the best
                        // verdict (valid, then unknown, then invalid); the
                        // tooltip lists them all.
                        let gold = &mut graph.nodes[n];
                        let rank = |v: &str| match v {
                            "valid" => 2,
                            "unknown" => 1,
                            _ => 0,
                        };
                        let shown = gold.kind.split(" answered ").nth(1).map(str::to_string);
                        let (kind, label) = match &shown {
                            None => (gold.kind.clone(), gold.label.clone()),
                            Some(_) => (
                                gold.kind
                                    .split(" answered ")
                                    .next()
                                    .unwrap_or("")
                                    .to_string(),
                                gold.label
                                    .split_once(' ')
                                    .map_or(String::new(), |(_, l)| l.to_string()),
                            ),
                        };
                        if shown.as_deref().is_none_or(|v| rank(verdict) > rank(v)) {
                            gold.kind = format!("{kind} answered {verdict}");
                            gold.line = line.into();
                            gold.label = format!("{mark} {label}");
                        }
                        let title = if gold.title.is_empty() {
                            gold.label.clone()
                        } else {
                            gold.title.clone()
                        };
                        gold.title = format!("{title}\n{tip}");
                        n
                    }
                    _ => graph.add(Node {
                        label: format!("{mark} {}.{}: {formula}", p.id, step.label),
                        kind: format!("step {verdict}"),
                        shape: Shape::Box,
                        fill: "#ffffff".into(),
                        line: line.into(),
                        title: tip,
                    }),
                };
                let why = checked
                    .message
                    .as_ref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default();
                text.push_str(&format!(
                    "  {} {verdict}: {formula} from {}{why}\n",
                    step.label,
                    step.from.join(", ")
                ));
                for cited in &step.from {
                    let from = match by_label
                        .get(cited.as_str())
                        .or_else(|| by_premise.get(cited))
                    {
                        Some(&n) => n,
                        // A citation of nothing in the instance: drawn as an
                        // invalid node of its own, so the bad reference shows.
                        None => graph.add(Node {
                            label: format!("{cited}?"),
                            kind: "unknown-reference".into(),
                            shape: Shape::Box,
                            fill: UNKNOWN_FILL.into(),
                            line: INVALID.into(),
                            title: format!(
                                "{cited}: cited by answer {} step {}, but no premise or step has this name",
                                p.id, step.label
                            ),
                        }),
                    };
                    graph.edges.push(Edge {
                        from,
                        to: node,
                        label: String::new(),
                        colour: line.into(),
                        dashed: true,
                        kind: format!("step {verdict}"),
                    });
                }
                by_label.insert(&step.label, node);
            }
        }
        answered = format!(
            ", {} answer step nodes from {file}",
            graph.nodes.len() - gold_nodes
        );
    }
    graph.key = logicgraph_key(&graph, &families);
    Ok(Picture {
        title: format!(
            "LogicGraph instance {}: {} premises, {} gold solutions in {} families{answered}",
            only.name,
            problem.premises.len(),
            problem.solutions.len(),
            families.len()
        ),
        marks: graph.nodes.len(),
        svg: graph.to_svg(),
        text,
    })
}

/// A LogiConBench sample: its statements (boxes) and the other formulas of
/// its reasoning path (ellipses), with the path's edges labelled by their
/// relation (`->` entails, `<-` is entailed by, `<->` equivalent, `x`
/// negation of each other).
pub fn logicon_sample(sample: &Sample) -> Result<Picture, Error> {
    let mut graph = Graph {
        vertical: true,
        ..Graph::default()
    };
    let mut by_formula: BTreeMap<String, usize> = BTreeMap::new();
    let mut text = String::new();
    for (i, s) in sample.statements.iter().enumerate() {
        let n = graph.add(Node {
            label: format!("S{}: {}", i + 1, s.symbolic),
            kind: "statement".into(),
            shape: Shape::Box,
            fill: PREMISE_FILL.into(),
            line: PREMISE_LINE.into(),
            title: format!("S{}: {}\n{}", i + 1, s.symbolic, s.text),
        });
        by_formula.entry(s.symbolic.clone()).or_insert(n);
        text.push_str(&format!("S{}: {}\n    {}\n", i + 1, s.symbolic, s.text));
    }
    let mut node = |graph: &mut Graph, formula: &str| match by_formula.get(formula) {
        Some(&n) => n,
        None => {
            let n = graph.add(Node {
                label: formula.to_string(),
                kind: "path".into(),
                shape: Shape::Ellipse,
                fill: DERIVED_FILL.into(),
                line: DERIVED_LINE.into(),
                title: String::new(),
            });
            by_formula.insert(formula.to_string(), n);
            n
        }
    };
    text.push_str("reasoning path:\n");
    for edge in &sample.path {
        let from = node(&mut graph, &edge.from);
        let to = node(&mut graph, &edge.to);
        graph.edges.push(Edge {
            from,
            to,
            label: edge.relation.clone(),
            colour: "#444444".into(),
            dashed: edge.relation == "x",
            kind: "path".into(),
        });
        text.push_str(&format!("  {} {} {}\n", edge.from, edge.relation, edge.to));
    }
    graph.key = vec![
        Key::Node(
            Shape::Box,
            PREMISE_FILL.into(),
            PREMISE_LINE.into(),
            "a statement of the sample".into(),
        ),
        Key::Node(
            Shape::Ellipse,
            DERIVED_FILL.into(),
            DERIVED_LINE.into(),
            "a formula on the reasoning path".into(),
        ),
        Key::Edge(
            "#444444".into(),
            false,
            "->  entails, <-  is entailed by, <->  equivalent".into(),
        ),
        Key::Edge("#444444".into(), true, "x  negations of each other".into()),
    ];
    Ok(Picture {
        title: format!(
            "LogiConBench sample {}: {} statements, reasoning path of {} edges",
            sample.id,
            sample.statements.len(),
            sample.path.len()
        ),
        marks: graph.nodes.len(),
        svg: graph.to_svg(),
        text,
    })
}

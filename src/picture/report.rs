//! `entail report`: the score and judge outputs of one or more models as one
//! HTML page of bar charts, one section per benchmark, models side by side.
//!
//! Inputs are what entail writes: `entail score <benchmark> --json` reports
//! and `entail judge --batch` results (JSONL). [`Results::read`] tells them
//! apart by their fields. Judge results carry no curriculum level; a map
//! from task id to level ([`TaskLevel`], read from the tasks file) places
//! them, and without it they are shown as one group.

use super::chart::{counted, n_statement, BarChart, Series};
use super::page::Page;
use super::Error;
use crate::gen::{divlogic, logicgraph, logicon, slr};
use crate::judge::JudgeResult;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What one input file holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Results {
    /// `entail score slr --json`.
    Slr(slr::Report),
    /// `entail judge --batch` results, each with its task's level if known.
    Judged(Vec<Judged>),
    /// `entail score logicgraph --json` (one or more answer sets).
    LogicGraph(logicgraph::Report),
    /// `entail score logicon --json` (Task 1, 2 or 3).
    Logicon(logicon::Report),
    /// `entail score divlogic --json`.
    Divlogic(divlogic::Report),
}

/// One judged SLR answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// Its task's curriculum level, when the tasks were given.
    pub level: Option<u32>,
    /// The judge's result.
    pub result: JudgeResult,
}

/// The two fields of an SLR task line that place a judged answer.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TaskLevel {
    /// The task's id, as the judge results repeat it.
    pub id: Value,
    /// 1..=20.
    #[serde(rename = "curriculum level")]
    pub level: u32,
}

/// The level of each task, keyed as [`Results::read`] looks ids up.
pub fn levels(tasks: &[TaskLevel]) -> BTreeMap<String, u32> {
    tasks
        .iter()
        .map(|t| (slr::id_key(&t.id), t.level))
        .collect()
}

/// One model's results, as the page names it.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The model's name on the page (`--label`, else the file's stem).
    pub label: String,
    /// The file read, for the header.
    pub file: String,
    /// What it holds.
    pub results: Results,
}

/// What the header says beyond the inputs: when and by which entail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct About {
    /// When the page was made (UTC, as the caller writes it).
    pub when: String,
    /// The entail version that made it.
    pub version: String,
}

impl Results {
    /// Reads a score report or judge results from `text`. `levels` maps a
    /// task id (a string as it is, anything else as JSON) to its level.
    /// An error names the line it is on (`LINE: message`) when there is one.
    pub fn read(text: &str, levels: &BTreeMap<String, u32>) -> Result<Results, Error> {
        if let Ok(Value::Object(doc)) = serde_json::from_str::<Value>(text) {
            let has = |key: &str| doc.contains_key(key);
            let value = Value::Object(doc.clone());
            let typed = |what: &str, e: serde_json::Error| Error(format!("not a {what}: {e}"));
            if has("levels") && has("lrl") {
                return serde_json::from_value(value)
                    .map(Results::Slr)
                    .map_err(|e| typed("score slr report", e));
            }
            if has("answer_sets") {
                return serde_json::from_value(value)
                    .map(Results::LogicGraph)
                    .map_err(|e| typed("score logicgraph report", e));
            }
            if has("partial_circular") {
                return serde_json::from_value(value)
                    .map(Results::Divlogic)
                    .map_err(|e| typed("score divlogic report", e));
            }
            // Each task's report on its own: serde cannot read the integer
            // keys of `by_k` and `by_groups` through the untagged enum.
            let logicon = |e| typed("score logicon report", e);
            if has("completion") {
                return serde_json::from_value(value)
                    .map(|r| {
                        Results::Logicon(logicon::Report(logicon::TaskReport::Discriminative(r)))
                    })
                    .map_err(logicon);
            }
            if has("exact_accuracy") {
                return serde_json::from_value(value)
                    .map(|r| Results::Logicon(logicon::Report(logicon::TaskReport::Enumerative(r))))
                    .map_err(logicon);
            }
            if has("by_groups") {
                return serde_json::from_value(value)
                    .map(|r| Results::Logicon(logicon::Report(logicon::TaskReport::Generative(r))))
                    .map_err(logicon);
            }
            if !has("is_correct") {
                return Err(Error(
                    "not an entail score report (--json) nor judge --batch results".into(),
                ));
            }
        }
        let mut judged = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let result: JudgeResult = serde_json::from_str(line).map_err(|e| {
                Error(format!(
                    "{}: not a judge --batch result nor a score report: {e}",
                    i + 1
                ))
            })?;
            let level = result
                .id
                .as_ref()
                .and_then(|id| levels.get(&slr::id_key(id)).copied());
            judged.push(Judged { level, result });
        }
        if judged.is_empty() {
            return Err(Error("empty: no results".into()));
        }
        Ok(Results::Judged(judged))
    }

    /// What the results are, for the header.
    fn describe(&self) -> String {
        match self {
            Results::Slr(r) => format!(
                "SLR score report, {}",
                counted(r.overall.total as u64, "tasks")
            ),
            Results::Judged(j) => format!(
                "judge --batch results, {}",
                counted(j.len() as u64, "answers")
            ),
            Results::LogicGraph(r) => format!(
                "LogicGraph score report, {}, {}",
                counted(r.instances as u64, "instances"),
                counted(r.answer_sets.len() as u64, "answer sets")
            ),
            Results::Logicon(logicon::Report(logicon::TaskReport::Discriminative(_))) => {
                "LogiConBench Task 1 score report".into()
            }
            Results::Logicon(logicon::Report(logicon::TaskReport::Enumerative(r))) => {
                format!(
                    "LogiConBench Task 2 score report, {}",
                    counted(r.answers as u64, "answers")
                )
            }
            Results::Logicon(logicon::Report(logicon::TaskReport::Generative(r))) => {
                format!(
                    "LogiConBench Task 3 score report, {}",
                    counted(r.all.answers as u64, "answers")
                )
            }
            Results::Divlogic(r) => {
                format!(
                    "DivLogicEval score report, {}",
                    counted(r.questions as u64, "questions")
                )
            }
        }
    }
}

/// Makes the page: a header naming every input, then one section per
/// benchmark present, each chart with its table.
pub fn report(inputs: &[Input], about: &About) -> Result<String, Error> {
    let mut page = Page::new("entail report");
    for input in inputs {
        page.header_line(&format!(
            "{}: {} ({})",
            input.label,
            input.file,
            input.results.describe()
        ));
    }
    page.header_line(&format!("Made {} by entail {}.", about.when, about.version));
    page.end_header();
    slr_section(&mut page, inputs)?;
    logicgraph_section(&mut page, inputs)?;
    logicon_section(&mut page, inputs)?;
    divlogic_section(&mut page, inputs)?;
    Ok(page.finish())
}

/// Counts of one group of SLR answers (a level).
#[derive(Debug, Clone, Default, PartialEq)]
struct Tally {
    total: u64,
    solved: u64,
    syntax_valid: u64,
    /// Sum of partial scores (judge results only).
    partial: f64,
    /// Answers by error kind (`wrong`: no error, not every example right).
    errors: BTreeMap<String, u64>,
    /// Answers with held-out trains, and the sums of their partial scores
    /// on the shown and the held-out trains.
    holdout: (u64, f64, f64),
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.total += other.total;
        self.solved += other.solved;
        self.syntax_valid += other.syntax_valid;
        self.partial += other.partial;
        for (k, n) in &other.errors {
            *self.errors.entry(k.clone()).or_default() += n;
        }
        self.holdout.0 += other.holdout.0;
        self.holdout.1 += other.holdout.1;
        self.holdout.2 += other.holdout.2;
    }

    fn rate(&self, part: u64) -> Option<f64> {
        (self.total > 0).then(|| part as f64 / self.total as f64)
    }
}

/// One model's SLR results per level (0: level unknown).
struct SlrModel<'a> {
    label: &'a str,
    levels: BTreeMap<u32, Tally>,
    /// Judge results give partial scores and error kinds; score reports do not.
    judged: bool,
}

impl SlrModel<'_> {
    fn tiers(&self) -> BTreeMap<&'static str, Tally> {
        let mut tiers: BTreeMap<&'static str, Tally> = BTreeMap::new();
        for (&level, tally) in &self.levels {
            let name = if level == 0 {
                "unknown"
            } else {
                slr::tier(level)
            };
            tiers.entry(name).or_default().add(tally);
        }
        tiers
    }

    fn all(&self) -> Tally {
        let mut all = Tally::default();
        for t in self.levels.values() {
            all.add(t);
        }
        all
    }
}

fn slr_models(inputs: &[Input]) -> Vec<SlrModel<'_>> {
    let mut models = Vec::new();
    for input in inputs {
        match &input.results {
            Results::Slr(report) => {
                let levels = report
                    .levels
                    .iter()
                    .map(|(&level, g)| {
                        let tally = Tally {
                            total: g.total,
                            solved: g.solved,
                            syntax_valid: g.syntax_valid,
                            ..Tally::default()
                        };
                        (level, tally)
                    })
                    .collect();
                models.push(SlrModel {
                    label: &input.label,
                    levels,
                    judged: false,
                });
            }
            Results::Judged(judged) => {
                let mut levels: BTreeMap<u32, Tally> = BTreeMap::new();
                for j in judged {
                    let r = &j.result;
                    let t = levels.entry(j.level.unwrap_or(0)).or_default();
                    t.total += 1;
                    t.solved += r.is_correct as u64;
                    t.syntax_valid += r.syntax_valid as u64;
                    t.partial += r.partial_score;
                    let kind = match r.error_kind {
                        Some(kind) => serde_json::to_value(kind)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_else(|| "error".into()),
                        None if r.is_correct => "correct".into(),
                        None => "wrong".into(),
                    };
                    *t.errors.entry(kind).or_default() += 1;
                    if let Some(held) = r.holdout_score {
                        t.holdout.0 += 1;
                        t.holdout.1 += r.partial_score;
                        t.holdout.2 += held;
                    }
                }
                models.push(SlrModel {
                    label: &input.label,
                    levels,
                    judged: true,
                });
            }
            _ => {}
        }
    }
    models
}

/// The level's name as a category.
fn level_name(level: u32) -> String {
    level.to_string()
}

/// `n = …` of a chart over each model's answers (`unit`), as counted by `count`.
fn slr_n(models: &[&SlrModel], unit: &str, count: impl Fn(&SlrModel) -> u64) -> String {
    let per: Vec<(String, u64)> = models
        .iter()
        .map(|m| (m.label.to_string(), count(m)))
        .collect();
    n_statement(unit, &per)
}

fn slr_section(page: &mut Page, inputs: &[Input]) -> Result<(), Error> {
    let models = slr_models(inputs);
    if models.is_empty() {
        return Ok(());
    }
    page.section("SLR");
    let all: Vec<&SlrModel> = models.iter().collect();
    let answers = |m: &SlrModel| m.all().total;
    // Judge results placed by no task: say what is missing rather than
    // draw them as a level of their own.
    let unplaced: Vec<(String, u64)> = models
        .iter()
        .filter_map(|m| m.levels.get(&0).map(|t| (m.label.to_string(), t.total)))
        .collect();
    if !unplaced.is_empty() {
        let which: Vec<String> = unplaced.iter().map(|(m, n)| format!("{m}: {n}")).collect();
        page.note(&format!(
            "Judge results carry no curriculum level, and no task placed these answers ({}): \
             give the tasks with --tasks (the tasks file, or the judge --batch input) to see \
             them by level and tier. They count in the overall chart only.",
            which.join(", ")
        ));
    }
    let levels: Vec<u32> = models
        .iter()
        .flat_map(|m| m.levels.keys().copied())
        .filter(|&l| l != 0)
        .collect::<BTreeSet<u32>>()
        .into_iter()
        .collect();
    let level_names: Vec<String> = levels.iter().map(|&l| level_name(l)).collect();
    let by_level = |m: &SlrModel, value: &dyn Fn(&Tally) -> Option<f64>| {
        Series::model(
            m.label,
            levels
                .iter()
                .map(|l| m.levels.get(l).and_then(value))
                .collect(),
        )
    };
    let level_counts = |m: &SlrModel, part: &dyn Fn(&Tally) -> u64| {
        levels
            .iter()
            .map(|l| m.levels.get(l).map(|t| (part(t), t.total)))
            .collect::<Vec<_>>()
    };
    let placed = |m: &SlrModel| m.all().total - m.levels.get(&0).map_or(0, |t| t.total);
    // Overall.
    page.chart(&BarChart {
        title: "SLR: overall".into(),
        x_label: "metric".into(),
        y_label: "score".into(),
        categories: vec![
            "accuracy".into(),
            "partial score".into(),
            "syntax score".into(),
        ],
        series: models
            .iter()
            .map(|m| {
                let all = m.all();
                let partial = m.judged.then(|| all.partial / all.total.max(1) as f64);
                Series::model(
                    m.label,
                    vec![all.rate(all.solved), partial, all.rate(all.syntax_valid)],
                )
                .with_counts(vec![
                    Some((all.solved, all.total)),
                    None,
                    Some((all.syntax_valid, all.total)),
                ])
            })
            .collect(),
        rates: true,
        n: slr_n(&all, "answers", answers),
    })?;
    if levels.is_empty() {
        return Ok(());
    }
    page.chart(&BarChart {
        title: "SLR: accuracy by curriculum level".into(),
        x_label: "level".into(),
        y_label: "accuracy".into(),
        categories: level_names.clone(),
        series: models
            .iter()
            .map(|m| by_level(m, &|t| t.rate(t.solved)).with_counts(level_counts(m, &|t| t.solved)))
            .collect(),
        rates: true,
        n: slr_n(&all, "answers placed by level", placed),
    })?;
    let tiers: Vec<&str> = slr::TIERS
        .iter()
        .copied()
        .filter(|name| models.iter().any(|m| m.tiers().contains_key(name)))
        .collect();
    page.chart(&BarChart {
        title: "SLR: accuracy by tier".into(),
        x_label: "tier".into(),
        y_label: "accuracy".into(),
        categories: tiers.iter().map(|t| t.to_string()).collect(),
        series: models
            .iter()
            .map(|m| {
                let by_tier = m.tiers();
                Series::model(
                    m.label,
                    tiers
                        .iter()
                        .map(|t| by_tier.get(t).and_then(|t| t.rate(t.solved)))
                        .collect(),
                )
                .with_counts(
                    tiers
                        .iter()
                        .map(|t| by_tier.get(t).map(|t| (t.solved, t.total)))
                        .collect(),
                )
            })
            .collect(),
        rates: true,
        n: slr_n(&all, "answers placed by level", placed),
    })?;
    let judged: Vec<&SlrModel> = models.iter().filter(|m| m.judged).collect();
    if !judged.is_empty() {
        page.chart(&BarChart {
            title: "SLR: partial score by curriculum level".into(),
            x_label: "level".into(),
            y_label: "mean partial score".into(),
            categories: level_names.clone(),
            series: judged
                .iter()
                .map(|m| by_level(m, &|t| (t.total > 0).then(|| t.partial / t.total as f64)))
                .collect(),
            rates: true,
            n: slr_n(&judged, "answers placed by level", placed),
        })?;
    }
    page.chart(&BarChart {
        title: "SLR: syntax score by curriculum level".into(),
        x_label: "level".into(),
        y_label: "syntax score".into(),
        categories: level_names.clone(),
        series: models
            .iter()
            .map(|m| {
                by_level(m, &|t| t.rate(t.syntax_valid))
                    .with_counts(level_counts(m, &|t| t.syntax_valid))
            })
            .collect(),
        rates: true,
        n: slr_n(&all, "answers placed by level", placed),
    })?;
    for m in &judged {
        let placed_levels: Vec<u32> = m.levels.keys().copied().filter(|&l| l != 0).collect();
        let kinds: BTreeSet<&String> = placed_levels
            .iter()
            .filter_map(|l| m.levels.get(l))
            .flat_map(|t| t.errors.keys())
            .collect();
        page.chart(&BarChart {
            title: format!("SLR: answers of {} by error kind and level", m.label),
            x_label: "level".into(),
            y_label: "answers".into(),
            categories: placed_levels.iter().map(|&l| level_name(l)).collect(),
            series: kinds
                .iter()
                .map(|kind| {
                    Series::category(
                        kind,
                        placed_levels
                            .iter()
                            .map(|l| {
                                let t = m.levels.get(l);
                                Some(t.and_then(|t| t.errors.get(*kind)).copied().unwrap_or(0)
                                    as f64)
                            })
                            .collect(),
                    )
                })
                .collect(),
            rates: false,
            n: format!("n = {} answers of {} placed by level", placed(m), m.label),
        })?;
    }
    let holdout: Vec<(&SlrModel, Tally)> = judged
        .iter()
        .map(|m| (*m, m.all()))
        .filter(|(_, all)| all.holdout.0 > 0)
        .collect();
    if !holdout.is_empty() {
        page.note(
            "Answers to tasks with held-out trains (gen slr --holdout): a rule that \
             memorises the shown trains scores less on the held-out ones.",
        );
        let per: Vec<(String, u64)> = holdout
            .iter()
            .map(|(m, all)| (m.label.to_string(), all.holdout.0))
            .collect();
        page.chart(&BarChart {
            title: "SLR: shown against held-out trains".into(),
            x_label: "trains".into(),
            y_label: "mean partial score".into(),
            categories: vec!["shown".into(), "held-out".into(), "gap".into()],
            series: holdout
                .iter()
                .map(|(m, all)| {
                    let n = all.holdout.0 as f64;
                    let (shown, held) = (all.holdout.1 / n, all.holdout.2 / n);
                    Series::model(
                        m.label,
                        vec![Some(shown), Some(held), Some((shown - held).max(0.0))],
                    )
                })
                .collect(),
            rates: true,
            n: n_statement("answers to tasks with held-out trains", &per),
        })?;
    }
    Ok(())
}

/// A LogicGraph answer set with the name the page gives it.
fn logicgraph_sets(inputs: &[Input]) -> Vec<(String, &logicgraph::AnswerSetReport)> {
    let mut sets = Vec::new();
    for input in inputs {
        if let Results::LogicGraph(report) = &input.results {
            for set in &report.answer_sets {
                let name = if report.answer_sets.len() == 1 {
                    input.label.clone()
                } else {
                    let stem = std::path::Path::new(&set.answers)
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_else(|| set.answers.clone());
                    format!("{}: {stem}", input.label)
                };
                sets.push((name, set));
            }
        }
    }
    sets
}

/// The kind of a solution's verdict, for the step-error taxonomy: `valid`,
/// the step error kind the prover named, or what failed at the target.
fn solution_kind(s: &logicgraph::SolutionScore) -> String {
    if s.valid == Some(true) {
        return "valid".into();
    }
    let reason = s.reason.as_deref().unwrap_or("");
    // `step S2 is invalid (insufficient_premise): …`: the prover's kind.
    if let Some(rest) = reason.strip_prefix("step ") {
        if let (Some(open), Some(close)) = (rest.find(" ("), rest.find(')')) {
            if open < close {
                return rest[open + 2..close].to_string();
            }
        }
    }
    let kinds = [
        ("unreadable", "unreadable"),
        ("cannot be checked", "unchecked"),
        ("is unknown", "unknown step"),
        ("is invalid", "invalid step"),
        ("last step does not entail", "misses the target"),
        (
            "premises do not entail",
            "support does not entail the target",
        ),
        ("unknown", "unknown"),
    ];
    kinds
        .iter()
        .find(|(text, _)| reason.contains(text))
        .map(|(_, kind)| kind.to_string())
        .unwrap_or_else(|| "invalid".into())
}

/// The reasoning depth bucket of an instance, by the steps of its shortest
/// gold solution, as the LogicGraph paper's Figure 4 groups them.
fn depth_bucket(steps: usize) -> &'static str {
    match steps {
        0..=3 => "2-3",
        4 => "4",
        5 => "5",
        6 => "6",
        7 => "7",
        8 => "8",
        9 | 10 => "9-10",
        _ => "11+",
    }
}

const DEPTH_BUCKETS: [&str; 8] = ["2-3", "4", "5", "6", "7", "8", "9-10", "11+"];

fn logicgraph_section(page: &mut Page, inputs: &[Input]) -> Result<(), Error> {
    let sets = logicgraph_sets(inputs);
    if sets.is_empty() {
        return Ok(());
    }
    page.section("LogicGraph");
    let mut tiers: Vec<String> = Vec::new();
    for (_, set) in &sets {
        for t in &set.tiers {
            if !tiers.contains(&t.tier) {
                tiers.push(t.tier.clone());
            }
        }
    }
    let mut categories = tiers.clone();
    categories.push("all".into());
    let instances: Vec<(String, u64)> = sets
        .iter()
        .map(|(label, set)| (label.clone(), set.all.instances as u64))
        .collect();
    type Metric = fn(&logicgraph::Average) -> f64;
    let metrics: [(&str, Metric); 6] = [
        ("success", |a| a.success),
        ("precision", |a| a.precision),
        ("shortest path", |a| a.shortest_path),
        ("diversity", |a| a.diversity),
        ("versatility", |a| a.versatility),
        ("originality", |a| a.originality),
    ];
    for (name, metric) in metrics {
        // Success and the shortest-path rate are shares of instances: their
        // bars carry intervals.
        let proportion = name == "success" || name == "shortest path";
        page.chart(&BarChart {
            title: format!("LogicGraph: {name} by tier"),
            x_label: "tier".into(),
            y_label: name.into(),
            categories: categories.clone(),
            series: sets
                .iter()
                .map(|(label, set)| {
                    let averages: Vec<Option<&logicgraph::Average>> = tiers
                        .iter()
                        .map(|t| set.tiers.iter().find(|a| &a.tier == t))
                        .chain([Some(&set.all)])
                        .collect();
                    let series =
                        Series::model(label, averages.iter().map(|a| a.map(metric)).collect());
                    if !proportion {
                        return series;
                    }
                    series.with_counts(
                        averages
                            .iter()
                            .map(|a| {
                                a.map(|a| {
                                    let n = a.instances as u64;
                                    ((metric(a) * n as f64).round() as u64, n)
                                })
                            })
                            .collect(),
                    )
                })
                .collect(),
            rates: true,
            n: n_statement("instances", &instances),
        })?;
    }
    // By reasoning depth, as the paper's Figure 4.
    let by_depth = |set: &logicgraph::AnswerSetReport| {
        let mut buckets: BTreeMap<&str, (u64, f64, f64)> = BTreeMap::new();
        for i in &set.instances {
            if let Some(steps) = i.gold_min_steps {
                let b = buckets.entry(depth_bucket(steps)).or_default();
                b.0 += 1;
                b.1 += i.success;
                b.2 += i.precision;
            }
        }
        buckets
    };
    let depths: Vec<BTreeMap<&str, (u64, f64, f64)>> =
        sets.iter().map(|(_, s)| by_depth(s)).collect();
    let buckets: Vec<&str> = DEPTH_BUCKETS
        .iter()
        .copied()
        .filter(|b| depths.iter().any(|d| d.contains_key(b)))
        .collect();
    if !buckets.is_empty() {
        let with_depth: Vec<(String, u64)> = sets
            .iter()
            .zip(&depths)
            .map(|((label, _), d)| (label.clone(), d.values().map(|b| b.0).sum()))
            .collect();
        let bucket_sizes: Vec<String> = buckets
            .iter()
            .map(|b| {
                let n: u64 = depths
                    .iter()
                    .map(|d| d.get(b).map_or(0, |x| x.0))
                    .max()
                    .unwrap_or(0);
                format!("{b}: {n}")
            })
            .collect();
        for (name, pick) in [("success", 1usize), ("precision", 2)] {
            page.chart(&BarChart {
                title: format!("LogicGraph: {name} by reasoning depth"),
                x_label: "reasoning depth (steps of the shortest gold solution)".into(),
                y_label: name.into(),
                categories: buckets.iter().map(|b| b.to_string()).collect(),
                series: sets
                    .iter()
                    .zip(&depths)
                    .map(|((label, _), d)| {
                        let value = |b: &&str| {
                            d.get(b)
                                .map(|x| (if pick == 1 { x.1 } else { x.2 }) / x.0 as f64)
                        };
                        let series = Series::model(label, buckets.iter().map(value).collect());
                        if pick == 1 {
                            series.with_counts(
                                buckets
                                    .iter()
                                    .map(|b| d.get(b).map(|x| (x.1.round() as u64, x.0)))
                                    .collect(),
                            )
                        } else {
                            series
                        }
                    })
                    .collect(),
                rates: true,
                n: format!(
                    "{}; instances per depth: {}",
                    n_statement("instances", &with_depth),
                    bucket_sizes.join(", ")
                ),
            })?;
        }
    }
    let count = |set: &logicgraph::AnswerSetReport| {
        let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
        for s in set.instances.iter().flat_map(|i| &i.solutions) {
            *kinds.entry(solution_kind(s)).or_default() += 1;
        }
        kinds
    };
    let counts: Vec<BTreeMap<String, u64>> = sets.iter().map(|(_, s)| count(s)).collect();
    let kinds: Vec<String> = counts
        .iter()
        .flat_map(|c| c.keys().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let solutions: Vec<(String, u64)> = sets
        .iter()
        .zip(&counts)
        .map(|((label, _), c)| (label.clone(), c.values().sum()))
        .collect();
    page.chart(&BarChart {
        title: "LogicGraph: answered solutions by verdict (step-error taxonomy)".into(),
        x_label: "verdict".into(),
        y_label: "solutions".into(),
        categories: kinds.clone(),
        series: sets
            .iter()
            .zip(&counts)
            .map(|((label, _), c)| {
                Series::model(
                    label,
                    kinds
                        .iter()
                        .map(|k| Some(c.get(k).copied().unwrap_or(0) as f64))
                        .collect(),
                )
            })
            .collect(),
        rates: false,
        n: n_statement("answered solutions", &solutions),
    })?;
    Ok(())
}

fn logicon_section(page: &mut Page, inputs: &[Input]) -> Result<(), Error> {
    let reports: Vec<(&str, &logicon::Report)> = inputs
        .iter()
        .filter_map(|i| match &i.results {
            Results::Logicon(r) => Some((i.label.as_str(), r)),
            _ => None,
        })
        .collect();
    if reports.is_empty() {
        return Ok(());
    }
    page.section("LogiConBench");
    let task1: Vec<(&str, &logicon::Task1Report)> = reports
        .iter()
        .filter_map(|(l, r)| match &r.0 {
            logicon::TaskReport::Discriminative(t) => Some((*l, t)),
            _ => None,
        })
        .collect();
    let task1_lists: Vec<(String, u64)> = task1
        .iter()
        .map(|(l, t)| {
            let lists = t.all.consistent.total + t.all.inconsistent.total + t.completion.total;
            (l.to_string(), lists as u64)
        })
        .collect();
    if !task1.is_empty() {
        let rate = |r: &logicon::Ratio| (r.total > 0).then_some(r.rate);
        let count =
            |r: &logicon::Ratio| (r.total > 0).then_some((r.correct as u64, r.total as u64));
        page.chart(&BarChart {
            title:
                "LogiConBench Task 1 (is this list consistent?): accuracy by variant and gold label"
                    .into(),
            x_label: "lists".into(),
            y_label: "accuracy".into(),
            categories: [
                "all: consistent",
                "all: inconsistent",
                "all: balanced",
                "hard: consistent",
                "hard: inconsistent",
                "hard: balanced",
                "completion",
            ]
            .map(String::from)
            .to_vec(),
            series: task1
                .iter()
                .map(|(label, t)| {
                    Series {
                        name: label.to_string(),
                        colour: None,
                        counts: Vec::new(),
                        values: vec![
                            rate(&t.all.consistent),
                            rate(&t.all.inconsistent),
                            Some(t.all.overall),
                            rate(&t.hard.consistent),
                            rate(&t.hard.inconsistent),
                            (t.hard.consistent.total + t.hard.inconsistent.total > 0)
                                .then_some(t.hard.overall),
                            rate(&t.completion),
                        ],
                    }
                    .with_counts(vec![
                        count(&t.all.consistent),
                        count(&t.all.inconsistent),
                        None,
                        count(&t.hard.consistent),
                        count(&t.hard.inconsistent),
                        None,
                        count(&t.completion),
                    ])
                })
                .collect(),
            rates: true,
            n: n_statement("lists judged (Task 1 answers)", &task1_lists),
        })?;
    }
    let ks: Vec<usize> = task1
        .iter()
        .flat_map(|(_, t)| t.by_k.keys().copied())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !ks.is_empty() {
        page.chart(&BarChart {
            title: "LogiConBench Task 1: balanced accuracy by number of statements k".into(),
            x_label: "k".into(),
            y_label: "balanced accuracy".into(),
            categories: ks.iter().map(|k| k.to_string()).collect(),
            series: task1
                .iter()
                .map(|(label, t)| Series {
                    name: label.to_string(),
                    colour: None,
                    counts: Vec::new(),
                    values: ks
                        .iter()
                        .map(|k| t.by_k.get(k).map(|a| a.overall))
                        .collect(),
                })
                .collect(),
            rates: true,
            n: n_statement("lists judged (Task 1 answers)", &task1_lists),
        })?;
    }
    let task2: Vec<(&str, &logicon::Task2Report)> = reports
        .iter()
        .filter_map(|(l, r)| match &r.0 {
            logicon::TaskReport::Enumerative(t) => Some((*l, t)),
            _ => None,
        })
        .collect();
    if !task2.is_empty() {
        page.chart(&BarChart {
            title: "LogiConBench Task 2 (list every consistent list)".into(),
            x_label: "metric".into(),
            y_label: "score".into(),
            categories: [
                "format accuracy",
                "exact accuracy",
                "precision",
                "recall",
                "F1",
            ]
            .map(String::from)
            .to_vec(),
            series: task2
                .iter()
                .map(|(label, t)| Series {
                    name: label.to_string(),
                    colour: None,
                    counts: Vec::new(),
                    values: [
                        t.format_accuracy,
                        t.exact_accuracy,
                        t.precision,
                        t.recall,
                        t.f1,
                    ]
                    .map(Some)
                    .to_vec(),
                })
                .collect(),
            rates: true,
            n: n_statement(
                "Task 2 answers",
                &task2
                    .iter()
                    .map(|(l, t)| (l.to_string(), t.answers as u64))
                    .collect::<Vec<_>>(),
            ),
        })?;
    }
    let task3: Vec<(&str, &logicon::Task3Report)> = reports
        .iter()
        .filter_map(|(l, r)| match &r.0 {
            logicon::TaskReport::Generative(t) => Some((*l, t)),
            _ => None,
        })
        .collect();
    if !task3.is_empty() {
        let groups: Vec<usize> = task3
            .iter()
            .flat_map(|(_, t)| t.by_groups.keys().copied())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut categories: Vec<String> = groups.iter().map(|g| format!("{g} groups")).collect();
        categories.push("all".into());
        type Metric = fn(&logicon::GroupsReport) -> f64;
        let metrics: [(&str, Metric); 2] = [
            ("execution rate", |g| g.execution_rate),
            ("consistency", |g| g.consistency),
        ];
        for (name, metric) in metrics {
            page.chart(&BarChart {
                title: format!(
                    "LogiConBench Task 3 (write consistent statements): {name} by groups"
                ),
                x_label: "groups".into(),
                y_label: name.into(),
                categories: categories.clone(),
                series: task3
                    .iter()
                    .map(|(label, t)| Series {
                        name: label.to_string(),
                        colour: None,
                        counts: Vec::new(),
                        values: groups
                            .iter()
                            .map(|g| t.by_groups.get(g).map(metric))
                            .chain([Some(metric(&t.all))])
                            .collect(),
                    })
                    .collect(),
                rates: true,
                n: n_statement(
                    "Task 3 answers",
                    &task3
                        .iter()
                        .map(|(l, t)| (l.to_string(), t.all.answers as u64))
                        .collect::<Vec<_>>(),
                ),
            })?;
        }
    }
    Ok(())
}

fn divlogic_section(page: &mut Page, inputs: &[Input]) -> Result<(), Error> {
    let reports: Vec<(&str, &divlogic::Report)> = inputs
        .iter()
        .filter_map(|i| match &i.results {
            Results::Divlogic(r) => Some((i.label.as_str(), r)),
            _ => None,
        })
        .collect();
    if reports.is_empty() {
        return Ok(());
    }
    page.section("DivLogicEval");
    let alphas: Vec<f64> = reports
        .iter()
        .flat_map(|(_, r)| r.pc_alpha.iter().map(|(a, _)| *a))
        .fold(Vec::new(), |mut all, a| {
            if !all.contains(&a) {
                all.push(a);
            }
            all
        });
    let mut categories: Vec<String> = vec![
        "accuracy".into(),
        "circular".into(),
        "partial circular".into(),
    ];
    categories.extend(alphas.iter().map(|a| format!("PC α={a}")));
    page.chart(&BarChart {
        title: "DivLogicEval: accuracy, Circular and PartialCircular".into(),
        x_label: "metric".into(),
        y_label: "score".into(),
        categories,
        series: reports
            .iter()
            .map(|(label, r)| {
                let mut values = vec![Some(r.accuracy), r.circular, r.partial_circular];
                values.extend(alphas.iter().map(|a| {
                    r.pc_alpha
                        .iter()
                        .find(|(b, _)| b == a)
                        .and_then(|(_, v)| *v)
                }));
                // Accuracy and Circular are shares (of original questions,
                // of rotation groups): their bars carry intervals.
                let share = |value: Option<f64>, n: usize| {
                    value
                        .filter(|_| n > 0)
                        .map(|v| ((v * n as f64).round() as u64, n as u64))
                };
                let mut counts = vec![
                    share(Some(r.accuracy), r.originals),
                    share(r.circular, r.rotation_groups),
                ];
                counts.resize(values.len(), None);
                Series {
                    name: label.to_string(),
                    colour: None,
                    counts,
                    values,
                }
            })
            .collect(),
        rates: true,
        n: divlogic_n(&reports),
    })?;
    let types: Vec<&String> = reports
        .iter()
        .flat_map(|(_, r)| r.by_type.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !types.is_empty() {
        type Metric = fn(&divlogic::Report) -> Option<f64>;
        let metrics: [(&str, Metric); 2] = [
            ("accuracy", |r| Some(r.accuracy)),
            ("PartialCircular", |r| r.partial_circular),
        ];
        for (name, metric) in metrics {
            page.chart(&BarChart {
                title: format!("DivLogicEval: {name} by question type"),
                x_label: "question type".into(),
                y_label: name.into(),
                categories: types.iter().map(|t| t.to_string()).collect(),
                series: reports
                    .iter()
                    .map(|(label, r)| Series {
                        name: label.to_string(),
                        colour: None,
                        counts: Vec::new(),
                        values: types
                            .iter()
                            .map(|t| r.by_type.get(*t).and_then(metric))
                            .collect(),
                    })
                    .collect(),
                rates: true,
                n: divlogic_n(&reports),
            })?;
        }
    }
    Ok(())
}

/// `n = …` of the DivLogicEval charts: question lines per model, and how
/// many full rotation groups Circular and PartialCircular rest on.
fn divlogic_n(reports: &[(&str, &divlogic::Report)]) -> String {
    let questions: Vec<(String, u64)> = reports
        .iter()
        .map(|(l, r)| (l.to_string(), r.questions as u64))
        .collect();
    let groups: Vec<(String, u64)> = reports
        .iter()
        .map(|(l, r)| (l.to_string(), r.rotation_groups as u64))
        .collect();
    format!(
        "{} (rotations count apart); Circular and PartialCircular over {}",
        n_statement("question lines", &questions),
        n_statement("rotation groups", &groups).trim_start_matches("n = ")
    )
}

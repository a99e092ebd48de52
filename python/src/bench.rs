//! The four benchmarks' scorers and rewards: records arrive as JSON texts
//! (the lines `entail score` reads), are read with the library's types as
//! the command line reads them, and scored with the GIL released. A record
//! that does not read is left out and named, as the command line reports a
//! bad line, and counted in the report's `bad_lines`.

use crate::value::to_python;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeSet;

/// Records read from JSON texts: the good ones, and a message per bad one.
struct Read<T> {
    items: Vec<T>,
    problems: Vec<String>,
}

impl<T: DeserializeOwned> Read<T> {
    /// Reads `lines` (of `what`, numbered from 1 in messages) with `check`.
    fn new(what: &str, lines: &[String], check: impl Fn(&T) -> Result<(), String>) -> Read<T> {
        let mut read = Read {
            items: Vec::new(),
            problems: Vec::new(),
        };
        for (i, line) in lines.iter().enumerate() {
            match serde_json::from_str::<T>(line)
                .map_err(|e| e.to_string())
                .and_then(|item| check(&item).map(|()| item))
            {
                Ok(item) => read.items.push(item),
                Err(e) => read.problems.push(format!("{what} {}: {e}", i + 1)),
            }
        }
        read
    }

    /// Keeps the first record per `id`; later ones are problems, as a
    /// second answer to one question is on the command line.
    fn first_per_id(mut self, what: &str, id: impl Fn(&T) -> String) -> Read<T> {
        let mut seen = BTreeSet::new();
        let mut problems = Vec::new();
        self.items.retain(|item| {
            let key = id(item);
            let first = seen.insert(key.clone());
            if !first {
                problems.push(format!("{what}: id {key} answered twice"));
            }
            first
        });
        self.problems.extend(problems);
        self
    }
}

/// A report with its bad-line count (the command line's JSON report) and
/// the messages of the bad records, as `(report, problems)`.
fn counted<R: Serialize>(
    py: Python<'_>,
    report: &R,
    problems: Vec<String>,
) -> PyResult<(Py<PyAny>, Vec<String>)> {
    let mut value =
        serde_json::to_value(report).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if let Some(map) = value.as_object_mut() {
        map.insert("bad_lines".into(), problems.len().into());
    }
    Ok((to_python(py, &value)?, problems))
}

/// Reads `items` (records of `what`, each passing `check`) and `answers`
/// (the first per `id` counts) from JSON texts and scores them with
/// `score`, the GIL released: the report with its bad records counted.
fn scored<T, A, R>(
    py: Python<'_>,
    (what, items, check): (&str, Vec<String>, fn(&T) -> Result<(), String>),
    (answers, id): (Vec<String>, fn(&A) -> String),
    score: impl FnOnce(&[T], &[A]) -> R + Send,
) -> PyResult<(Py<PyAny>, Vec<String>)>
where
    T: DeserializeOwned,
    A: DeserializeOwned,
    R: Serialize + Send,
{
    let what = what.to_string();
    let (report, problems) = py.detach(move || {
        let items = Read::<T>::new(&what, &items, check);
        let answers = Read::<A>::new("answer", &answers, |_| Ok(())).first_per_id("answers", id);
        let report = score(&items.items, &answers.items);
        (report, [items.problems, answers.problems].concat())
    });
    counted(py, &report, problems)
}

/// `entail score slr --json` for task and answer records.
#[pyfunction]
#[pyo3(signature = (tasks, answers, threads, worker_command))]
pub fn score_slr(
    py: Python<'_>,
    tasks: Vec<String>,
    answers: Vec<String>,
    threads: usize,
    worker_command: Vec<String>,
) -> PyResult<(Py<PyAny>, Vec<String>)> {
    use entail::gen::slr::{score, Answer, ScoreConfig, ScoredTask};
    let mut config = ScoreConfig::default();
    config.judge.workers = threads.max(1);
    crate::judge::set_worker_command(&mut config.judge.worker, &worker_command)?;
    scored(
        py,
        ("task", tasks, |_: &ScoredTask| Ok(())),
        (answers, Answer::id_key),
        move |tasks, answers| score(tasks, answers, &config, &|_| {}),
    )
}

/// `entail score divlogic --json` for question and answer records.
#[pyfunction]
#[pyo3(signature = (questions, answers, alphas))]
pub fn score_divlogic(
    py: Python<'_>,
    questions: Vec<String>,
    answers: Vec<String>,
    alphas: Vec<f64>,
) -> PyResult<(Py<PyAny>, Vec<String>)> {
    use entail::gen::divlogic::{score, Answer, Question, ScoreConfig};
    if let Some(bad) = alphas.iter().find(|a| !(0.0..=1.0).contains(*a)) {
        return Err(PyValueError::new_err(format!(
            "alpha {bad} is outside [0, 1]"
        )));
    }
    scored(
        py,
        ("question", questions, Question::check_scorable),
        (answers, |a: &Answer| a.id.clone()),
        move |questions, answers| score(questions, answers, &ScoreConfig { alphas }, &|_| {}),
    )
}

/// `entail score logicon --task TASK --json` for sample and answer records.
#[pyfunction]
#[pyo3(signature = (task, samples, answers))]
pub fn score_logicon(
    py: Python<'_>,
    task: u8,
    samples: Vec<String>,
    answers: Vec<String>,
) -> PyResult<(Py<PyAny>, Vec<String>)> {
    use entail::gen::logicon::{score, Answer, GroupSample, Sample, Samples, ScoreConfig, Task};
    let task = match task {
        1 => Task::Discriminative,
        2 => Task::Enumerative,
        3 => Task::Generative,
        other => {
            return Err(PyValueError::new_err(format!(
                "task {other}: expected 1, 2 or 3"
            )))
        }
    };
    let config = ScoreConfig { task };
    let (report, problems) = py.detach(move || {
        let answers = Read::<Answer>::new("answer", &answers, |_| Ok(()));
        let (report, samples_problems) = if task == Task::Generative {
            let samples = Read::<GroupSample>::new("sample", &samples, |_| Ok(()));
            let report = score(
                Samples::Groups(&samples.items),
                &answers.items,
                &config,
                &|_| {},
            );
            (report, samples.problems)
        } else {
            let samples = Read::<Sample>::new("sample", &samples, |_| Ok(()));
            let report = score(
                Samples::Statements(&samples.items),
                &answers.items,
                &config,
                &|_| {},
            );
            (report, samples.problems)
        };
        (
            report.map_err(|e| e.to_string()),
            [samples_problems, answers.problems].concat(),
        )
    });
    let report = report.map_err(PyValueError::new_err)?;
    counted(py, &report, problems)
}

/// `entail score logicgraph --json` for the instance tree `gold` and
/// answer sets given as `(name, text)`, each the text of one answers file.
#[pyfunction]
#[pyo3(signature = (gold, answer_sets, timeout, instantiated))]
pub fn score_logicgraph(
    py: Python<'_>,
    gold: String,
    answer_sets: Vec<(String, String)>,
    timeout: f64,
    instantiated: bool,
) -> PyResult<(Py<PyAny>, Vec<String>)> {
    use entail::gen::logicgraph::{score, AnswerSet, Instances, ScoreConfig};
    let config = ScoreConfig {
        timeout: crate::seconds(timeout, "timeout")?,
        instantiated,
    };
    let result = py.detach(move || {
        let instances = Instances::find(std::path::Path::new(&gold)).map_err(|e| e.to_string())?;
        if instances.dirs.is_empty() {
            return Err(format!(
                "no instance (directory with complete.json) under {gold}"
            ));
        }
        let sets: Vec<AnswerSet> = answer_sets
            .iter()
            .map(|(name, text)| AnswerSet::read(name, text, &instances))
            .collect();
        let problems: Vec<String> = sets
            .iter()
            .flat_map(AnswerSet::bad_lines)
            .map(str::to_string)
            .collect();
        Ok((score(&instances, &sets, &config, &|_| {}), problems))
    });
    let (report, problems) = result.map_err(PyValueError::new_err)?;
    counted(py, &report, problems)
}

/// A reward as JSON, or why there is none.
fn json<R: Serialize>(reward: Result<R, String>) -> Result<serde_json::Value, String> {
    reward.and_then(|r| serde_json::to_value(r).map_err(|e| e.to_string()))
}

/// Rewards as Python values: a dict per completion, or the error message
/// (a str) for a record that cannot be scored.
fn reward_list(
    py: Python<'_>,
    rewards: Vec<Result<serde_json::Value, String>>,
) -> PyResult<Vec<Py<PyAny>>> {
    rewards
        .into_iter()
        .map(|r| match r {
            Ok(value) => to_python(py, &value),
            Err(message) => to_python(py, &serde_json::Value::String(message)),
        })
        .collect()
}

/// Per-completion rewards of one benchmark (`logicgraph`, `logicon` or
/// `divlogic`) for `records[i]` (JSON texts of generated items) answered by
/// `completions[i]`.
#[pyfunction]
#[pyo3(signature = (benchmark, records, completions, timeout, instantiated))]
pub fn rewards(
    py: Python<'_>,
    benchmark: &str,
    records: Vec<String>,
    completions: Vec<String>,
    timeout: f64,
    instantiated: bool,
) -> PyResult<Vec<Py<PyAny>>> {
    use entail::gen::{divlogic, logicgraph, logicon};
    if records.len() != completions.len() {
        return Err(PyValueError::new_err(format!(
            "{} completions but {} ground truths",
            completions.len(),
            records.len()
        )));
    }
    let timeout = crate::seconds(timeout, "timeout")?;
    let benchmark = benchmark.to_string();
    let result: Result<Vec<Result<serde_json::Value, String>>, String> = py.detach(move || {
        let completions: Vec<&str> = completions.iter().map(String::as_str).collect();
        Ok(match benchmark.as_str() {
            "logicgraph" => {
                let records: Vec<&str> = records.iter().map(String::as_str).collect();
                let config = logicgraph::ScoreConfig {
                    timeout,
                    instantiated,
                };
                logicgraph::rewards(&records, &completions, &config)
                    .into_iter()
                    .map(json)
                    .collect()
            }
            "logicon" => records
                .iter()
                .zip(&completions)
                .map(|(record, completion)| {
                    let record: Result<logicon::Record, String> =
                        serde_json::from_str(record).map_err(|e| format!("ground truth: {e}"));
                    json(record.and_then(|r| logicon::reward(&r, completion)))
                })
                .collect(),
            "divlogic" => {
                let read: Vec<Result<divlogic::Question, String>> = records
                    .iter()
                    .map(|r| {
                        serde_json::from_str::<divlogic::Question>(r)
                            .map_err(|e| format!("ground truth: {e}"))
                            .and_then(|q| q.check_scorable().map(|()| q))
                    })
                    .collect();
                // Rotation groups are formed over the readable questions.
                let good: Vec<(divlogic::Question, &str)> = read
                    .iter()
                    .zip(&completions)
                    .filter_map(|(q, c)| q.as_ref().ok().map(|q| (q.clone(), *c)))
                    .collect();
                let (questions, texts): (Vec<_>, Vec<_>) = good.into_iter().unzip();
                let mut scored = divlogic::rewards(&questions, &texts).into_iter();
                read.into_iter()
                    .map(|q| match q {
                        Ok(_) => json(scored.next().ok_or_else(|| "lost".to_string())),
                        Err(e) => Err(e),
                    })
                    .collect()
            }
            other => return Err(format!("unknown benchmark {other:?}")),
        })
    });
    let result = result.map_err(PyValueError::new_err)?;
    reward_list(py, result)
}

/// A completion that earns the full reward on `record` (a JSON text of a
/// generated item) of `benchmark` (`logicgraph`, `logicon` or `divlogic`).
#[pyfunction]
pub fn gold_answer(benchmark: &str, record: &str) -> PyResult<String> {
    use entail::gen::{divlogic, logicgraph, logicon};
    let bad = |e: String| PyValueError::new_err(e);
    match benchmark {
        "logicgraph" => logicgraph::gold_answer(record).map_err(bad),
        "logicon" => serde_json::from_str(record)
            .map(|r| logicon::gold_answer(&r))
            .map_err(|e| bad(e.to_string())),
        "divlogic" => serde_json::from_str(record)
            .map(|q| divlogic::gold_answer(&q))
            .map_err(|e| bad(e.to_string())),
        other => Err(bad(format!("unknown benchmark {other:?}"))),
    }
}

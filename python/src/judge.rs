//! The judge for Python: a batch of answers scored on all cores with the GIL
//! released, Ctrl-C honoured within a tenth of a second (answers under way
//! on the native engine finish, waits on scryer workers are cut short).

use crate::value::to_python;
use entail::judge::{
    Engine, ErrorKind, ExampleResult, Isomorphic, Judge, JudgeConfig, JudgeResult, Label, Rules,
    Task, TaskRecord,
};
use entail::prolog::{with_cancel, WorkerCommand, WorkerConfig};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::{intern, IntoPyObjectExt};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// How often a running batch takes the GIL to look for Ctrl-C and move the
/// progress bar.
const POLL: Duration = Duration::from_millis(100);

/// Points `worker` at `command`: the program and its leading arguments
/// (the interpreter running `entail._worker`).
pub fn set_worker_command(worker: &mut WorkerConfig, command: &[String]) -> PyResult<()> {
    let [program, args @ ..] = command else {
        return Err(PyValueError::new_err("the worker command is empty"));
    };
    worker.command = Some(WorkerCommand {
        program: program.into(),
        args: args.iter().map(Into::into).collect(),
    });
    Ok(())
}

/// A distinct task as Python hands it over: a task record as JSON text, or
/// the parts of a dict (the program, `evaluation_config` and `id` as JSON
/// text, and the holdout program), so that a program held in a dict is
/// never escaped into JSON only to be read back here.
#[derive(FromPyObject)]
pub enum TaskArg {
    Parts(String, Option<String>, Option<String>, Option<String>),
    Record(String),
}

impl TaskArg {
    fn record(&self) -> Result<TaskRecord, String> {
        let json_error = |e: serde_json::Error| format!("reference: {e}");
        match self {
            TaskArg::Record(json) => serde_json::from_str(json).map_err(json_error),
            TaskArg::Parts(program, config, id, holdout) => Ok(TaskRecord {
                validation_program: program.clone(),
                evaluation_config: config
                    .as_deref()
                    .map(serde_json::from_str)
                    .transpose()
                    .map_err(json_error)?,
                id: id
                    .as_deref()
                    .map(serde_json::from_str)
                    .transpose()
                    .map_err(json_error)?,
                ground_truth_rule: None,
                holdout_program: holdout.clone(),
            }),
        }
    }
}

/// A judge and its pool of scryer workers.
#[pyclass(frozen, module = "entail._native")]
pub struct NativeJudge {
    judge: Judge,
}

#[pymethods]
impl NativeJudge {
    #[new]
    #[pyo3(signature = (workers, inference_limit, timeout, memory_mb, isomorphic, engine, worker_command, renamings=1, seed=0, rules="all"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        workers: usize,
        inference_limit: u64,
        timeout: f64,
        memory_mb: u64,
        isomorphic: &str,
        engine: &str,
        worker_command: Vec<String>,
        renamings: usize,
        seed: u64,
        rules: &str,
    ) -> PyResult<NativeJudge> {
        let mut config = JudgeConfig {
            workers: workers.max(1),
            inference_limit,
            renamings: renamings.max(1),
            seed,
            isomorphic: match isomorphic {
                "renamed" => Isomorphic::Renamed,
                "both" => Isomorphic::Both,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "isomorphic must be 'renamed' or 'both', not {other:?}"
                    )))
                }
            },
            engine: match engine {
                "auto" => Engine::Auto,
                "scryer" => Engine::Scryer,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "engine must be 'auto' or 'scryer', not {other:?}"
                    )))
                }
            },
            rules: match rules {
                "all" => Rules::All,
                "last" => Rules::Last,
                "program" => Rules::Program,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "rules must be 'all', 'last' or 'program', not {other:?}"
                    )))
                }
            },
            ..JudgeConfig::default()
        };
        config.worker.eval_timeout = crate::seconds(timeout, "timeout")?;
        config.worker.memory_limit_bytes = memory_mb.saturating_mul(1 << 20);
        set_worker_command(&mut config.worker, &worker_command)?;
        Ok(NativeJudge {
            judge: Judge::new(config),
        })
    }

    /// Scores `predictions[i]` against the task `tasks[task_of[i]]` and
    /// returns one result dict per prediction.
    /// `progress`, if given, is called with the number of answers finished
    /// since its last call.
    #[pyo3(signature = (tasks, task_of, predictions, progress=None))]
    fn score_batch(
        &self,
        py: Python<'_>,
        tasks: Vec<TaskArg>,
        task_of: Vec<usize>,
        predictions: Vec<Bound<'_, PyString>>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        if task_of.len() != predictions.len() || task_of.iter().any(|&t| t >= tasks.len()) {
            return Err(PyValueError::new_err("task_of does not fit the tasks"));
        }
        let predictions: Vec<String> = predictions
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let results = py.detach(|| run(&self.judge, &tasks, &task_of, &predictions, progress))?;
        results.iter().map(|r| result_to_python(py, r)).collect()
    }

    /// How many evaluations the native engine answered and how many it did
    /// not implement (`fallbacks`, scored `engine_unsupported`), by reason (`None` with `engine="scryer"`).
    fn native_stats(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.judge.native_stats() {
            None => Ok(py.None()),
            Some(stats) => to_python(
                py,
                &serde_json::json!({
                    "native_answers": stats.native_answers,
                    "fallbacks": stats.fallbacks,
                    "fallback_kinds": stats.fallback_kinds,
                }),
            ),
        }
    }
}

/// A task while its answers are scored: loaded by the first thread to need
/// it, and dropped by the thread that scores its last answer, so freeing it
/// is spread over the workers instead of left to the thread holding the GIL.
struct Loaded<'j> {
    task: Mutex<Option<Arc<Result<Task<'j>, String>>>>,
    answers_left: AtomicUsize,
}

/// Scores every prediction on the judge's worker count of threads. Answers
/// are taken in task order, so a task is parsed once, by the first thread
/// to need it, and its background stays loaded in the workers.
fn run(
    judge: &Judge,
    tasks: &[TaskArg],
    task_of: &[usize],
    predictions: &[String],
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<JudgeResult>> {
    let n = predictions.len();
    let loaded: Vec<Loaded<'_>> = tasks
        .iter()
        .map(|_| Loaded {
            task: Mutex::new(None),
            answers_left: AtomicUsize::new(0),
        })
        .collect();
    for &t in task_of {
        loaded[t].answers_left.fetch_add(1, Ordering::Relaxed);
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| task_of[i]);
    let next = AtomicUsize::new(0);
    // Set on Ctrl-C: threads take no further answer, and a thread waiting
    // on a scryer worker stops waiting (`with_cancel`).
    let cancel = Arc::new(AtomicBool::new(false));
    let slots: Mutex<Vec<Option<JudgeResult>>> = Mutex::new(vec![None; n]);
    let threads = judge.config().workers.clamp(1, n.max(1));
    // Units of work over `order`: a task's answers together when there are
    // tasks enough for every thread (threads then load different tasks at
    // once instead of waiting on the same one), else single answers.
    let mut units: Vec<(usize, usize)> = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        match units.last_mut() {
            Some((_, end)) if tasks.len() >= threads && task_of[order[*end - 1]] == task_of[i] => {
                *end = k + 1
            }
            _ => units.push((k, k + 1)),
        }
    }
    // Workers count what they finish and say only when they stop, so the
    // watching thread is not woken once per answer.
    let done = AtomicUsize::new(0);
    let (stopped, stops) = mpsc::channel::<()>();
    let mut interrupted: Option<PyErr> = None;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let stopped = stopped.clone();
            let (loaded, order, units, next, cancel, slots, done) =
                (&loaded, &order, &units, &next, &cancel, &slots, &done);
            let flag = Arc::clone(&cancel);
            scope.spawn(move || {
                with_cancel(flag, || {
                    'units: while let Some(&(start, end)) =
                        units.get(next.fetch_add(1, Ordering::Relaxed))
                    {
                        for &i in &order[start..end] {
                            if cancel.load(Ordering::Relaxed) {
                                break 'units;
                            }
                            let t = task_of[i];
                            let task = {
                                let mut slot =
                                    loaded[t].task.lock().unwrap_or_else(|e| e.into_inner());
                                let task = slot.get_or_insert_with(|| {
                                    Arc::new(tasks[t].record().and_then(|record| {
                                        judge.task(&record).map_err(|e| e.to_string())
                                    }))
                                });
                                Arc::clone(task)
                            };
                            let result = match &*task {
                                Ok(task) => task.score(&predictions[i]),
                                Err(e) => {
                                    JudgeResult::failed(None, false, ErrorKind::Input, e.clone())
                                }
                            };
                            if loaded[t].answers_left.fetch_sub(1, Ordering::Relaxed) == 1 {
                                loaded[t]
                                    .task
                                    .lock()
                                    .unwrap_or_else(|e| e.into_inner())
                                    .take();
                            }
                            drop(task);
                            slots.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(result);
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    let _ = stopped.send(());
                })
            });
        }
        drop(stopped);
        // This thread watches: Ctrl-C stops the batch after the answers
        // under way, and the progress callback hears how far it got.
        let (mut running, mut reported) = (threads, 0usize);
        while running > 0 {
            match stops.recv_timeout(POLL) {
                Ok(()) => running -= 1,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => running = 0,
            }
            if running == 0 && progress.is_none() {
                break;
            }
            let now = done.load(Ordering::Relaxed);
            let polled = Python::attach(|py| -> PyResult<()> {
                py.check_signals()?;
                if let Some(callback) = &progress {
                    if now > reported {
                        callback.call1(py, (now - reported,))?;
                    }
                }
                Ok(())
            });
            reported = now;
            if let Err(e) = polled {
                cancel.store(true, Ordering::Relaxed);
                interrupted = Some(e);
                break;
            }
        }
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    let slots = slots.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(slots
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                JudgeResult::failed(None, false, ErrorKind::Resource, "not scored".into())
            })
        })
        .collect())
}

/// A result as the dict `json.loads` gives for its line in `entail judge
/// --batch` output, keys in the same order, built directly: this runs on the
/// thread holding the GIL, once per answer.
fn result_to_python(py: Python<'_>, r: &JudgeResult) -> PyResult<Py<PyAny>> {
    let dict = PyDict::new(py);
    let id = match &r.id {
        Some(id) => to_python(py, id)?,
        None => py.None(),
    };
    dict.set_item(intern!(py, "id"), id)?;
    dict.set_item(intern!(py, "syntax_valid"), r.syntax_valid)?;
    dict.set_item(intern!(py, "is_correct"), r.is_correct)?;
    dict.set_item(intern!(py, "partial_score"), r.partial_score)?;
    if let (Some(score), Some(correct)) = (r.holdout_score, r.holdout_correct) {
        dict.set_item(intern!(py, "holdout_score"), score)?;
        dict.set_item(intern!(py, "holdout_correct"), correct)?;
    }
    let examples = PyList::empty(py);
    for e in &r.examples {
        examples.append(example_to_python(py, e)?)?;
    }
    dict.set_item(intern!(py, "examples"), examples)?;
    let kind = match r.error_kind {
        Some(kind) => to_python(py, &serde_json::json!(kind))?,
        None => py.None(),
    };
    dict.set_item(intern!(py, "error_kind"), kind)?;
    dict.set_item(intern!(py, "error"), r.error.as_deref())?;
    dict.set_item(intern!(py, "time_ms"), r.time_ms)?;
    if let Some(original) = &r.original_names {
        dict.set_item(
            intern!(py, "original_names"),
            result_to_python(py, original)?,
        )?;
    }
    if let Some(shortcut) = r.shortcut {
        dict.set_item(intern!(py, "shortcut"), shortcut)?;
    }
    dict.into_py_any(py)
}

fn example_to_python<'py>(py: Python<'py>, e: &ExampleResult) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "atom"), &e.atom)?;
    let label = match e.label {
        Label::Pos => intern!(py, "pos"),
        Label::Neg => intern!(py, "neg"),
    };
    dict.set_item(intern!(py, "label"), label)?;
    dict.set_item(intern!(py, "predicted"), e.predicted)?;
    dict.set_item(intern!(py, "correct"), e.correct)?;
    Ok(dict)
}

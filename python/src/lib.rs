//! `entail._native`: the Rust side of the `entail` Python package.
//!
//! A thin layer over the `entail` library: argument checking and the
//! friendly API live in Python (`python/entail/`); this module turns typed
//! arguments into the library's configurations, runs the work with the GIL
//! released, and hands results back as plain Python values.

mod bench;
mod fol;
mod interrupt;
mod judge;
mod picture;
mod value;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::time::Duration;

/// Generators and the judge build and drop millions of small terms; the
/// `entail` binary uses mimalloc for the same reason.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A duration from seconds, or a `ValueError` naming `what`.
pub(crate) fn seconds(value: f64, what: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            PyValueError::new_err(format!("{what} must be a positive number of seconds"))
        })
}

/// Serves scryer requests on stdin/stdout until stdin closes, then ends the
/// process: the body of `python -m entail._worker`.
#[pyfunction]
fn serve_worker() {
    let code = entail::prolog::serve_worker();
    std::process::exit(if code == std::process::ExitCode::SUCCESS {
        0
    } else {
        2
    })
}

/// Checks a Prover9 problem, a step file (`text`) or a LogicGraph instance
/// directory (`directory`) and returns the `entail prove --json` report.
#[pyfunction]
#[pyo3(signature = (text, directory, timeout, supports, supports_cap, supports_timeout, instantiated, countermodels))]
#[allow(clippy::too_many_arguments)]
fn prove(
    py: Python<'_>,
    text: Option<String>,
    directory: Option<String>,
    timeout: Option<f64>,
    supports: bool,
    supports_cap: usize,
    supports_timeout: f64,
    instantiated: bool,
    countermodels: bool,
) -> PyResult<Py<PyAny>> {
    use entail::gen::logicgraph;
    use entail::prove::{is_step_file, ProveOptions, Prover, StepProblem};
    let timeout = timeout.map(|t| seconds(t, "timeout")).transpose()?;
    let support_options = if supports {
        Some(entail::prove::SupportOptions {
            cap: supports_cap,
            timeout: seconds(supports_timeout, "supports_timeout")?,
        })
    } else {
        None
    };
    let report = py.detach(move || -> Result<serde_json::Value, String> {
        let mut prover = Prover::new(ProveOptions {
            timeout,
            countermodels,
        });
        let json = |r: Result<serde_json::Value, serde_json::Error>| r.map_err(|e| e.to_string());
        let problem = match (&text, &directory) {
            (_, Some(dir)) => logicgraph::Instances::load(std::path::Path::new(dir), instantiated)
                .map_err(|e| e.in_file(dir.clone()).to_string())?,
            (Some(text), None) => {
                let input = entail::syntax::prover9::parse(text)
                    .map_err(|e| entail::prove::ProveError::from(e).to_string())?;
                if !is_step_file(&input) {
                    let report = prover.prove_input(&input).map_err(|e| e.to_string())?;
                    return json(serde_json::to_value(report.json()));
                }
                StepProblem::from_step_file(&input).map_err(|e| e.to_string())?
            }
            (None, None) => return Err("give a text or a directory".into()),
        };
        let report = prover
            .check_problem(&problem, support_options.as_ref())
            .map_err(|e| e.to_string())?;
        json(serde_json::to_value(report))
    });
    match report {
        Ok(value) => value::to_python(py, &value),
        Err(message) => Err(PyValueError::new_err(message)),
    }
}

/// Shard `index` of `count`, as `--shard INDEX/COUNT` takes it.
fn shard_of((index, count): (u64, u64)) -> PyResult<entail::gen::Shard> {
    entail::gen::Shard::new(index, count).map_err(PyValueError::new_err)
}

/// `entail gen slr`'s JSONL for the same arguments.
#[pyfunction]
#[pyo3(signature = (levels, count, seed, split, prompt, language, threads, worker_command, shard, held_out, theta=None))]
#[allow(clippy::too_many_arguments)]
fn gen_slr(
    py: Python<'_>,
    levels: (u32, u32),
    count: u64,
    seed: u64,
    split: &str,
    prompt: &str,
    language: Option<String>,
    threads: usize,
    worker_command: Vec<String>,
    shard: (u64, u64),
    held_out: (u64, u64),
    theta: Option<String>,
) -> PyResult<String> {
    use entail::gen::slr::{self, Config, Language, PromptStyle, Split, Theta};
    let bad = |m: String| PyValueError::new_err(m);
    let language = match language {
        None => Language::trains(),
        Some(text) => Language::from_json(&text).map_err(|e| bad(e.to_string()))?,
    };
    if levels.0 < 1 || levels.1 > 20 || levels.0 > levels.1 {
        return Err(bad(format!(
            "levels {}-{}: need 1 <= low <= high <= 20",
            levels.0, levels.1
        )));
    }
    let theta: Theta = match theta {
        None => Theta::default(),
        Some(text) => serde_json::from_str(&text).map_err(|e| bad(format!("theta: {e}")))?,
    };
    let mut config = Config {
        seed,
        levels: (levels.0..=levels.1).collect(),
        theta,
        count,
        split: Split::from_name(split).ok_or_else(|| bad(format!("unknown split {split:?}")))?,
        prompt: PromptStyle::from_name(prompt)
            .ok_or_else(|| bad(format!("unknown prompt style {prompt:?}")))?,
        language,
        shard: shard_of(shard)?,
        threads: threads.max(1),
        judge: entail::judge::JudgeConfig {
            workers: threads.max(1),
            ..Default::default()
        },
        test_tasks: held_out.0,
        validation_tasks: held_out.1,
        holdout: 0,
    };
    judge::set_worker_command(&mut config.judge.worker, &worker_command)?;
    interrupt::run(py, move |cancel| {
        let mut out = cancel.output();
        slr::generate(&config, &mut out, &|_| {}).map_err(|e| e.to_string())?;
        String::from_utf8(out.bytes).map_err(|e| e.to_string())
    })?
    .map_err(bad)
}

/// `entail gen logicon`'s JSONL for the same arguments.
#[pyfunction]
#[pyo3(signature = (k, count, seed, variant, labels, prompt, max_distance, atoms, graph_nodes, statement_atoms, task, groups, group_atoms, threads, shard))]
#[allow(clippy::too_many_arguments)]
fn gen_logicon(
    py: Python<'_>,
    k: (usize, usize),
    count: u64,
    seed: u64,
    variant: &str,
    labels: &str,
    prompt: Option<&str>,
    max_distance: usize,
    atoms: (usize, usize),
    graph_nodes: usize,
    statement_atoms: usize,
    task: &str,
    groups: (usize, usize),
    group_atoms: usize,
    threads: usize,
    shard: (u64, u64),
) -> PyResult<String> {
    use entail::gen::logicon::{self, Config, GenTask, Labels, PromptStyle, Variant};
    let config = Config {
        seed,
        count,
        k_min: k.0,
        k_max: k.1,
        max_distance,
        min_atoms: atoms.0,
        max_atoms: atoms.1,
        graph_nodes,
        statement_atoms,
        variant: Variant::from_name(variant)
            .ok_or_else(|| PyValueError::new_err(format!("unknown variant {variant:?}")))?,
        labels: Labels::from_name(labels)
            .ok_or_else(|| PyValueError::new_err(format!("unknown labels {labels:?}")))?,
        prompt: prompt
            .map(|p| {
                PromptStyle::from_name(p)
                    .ok_or_else(|| PyValueError::new_err(format!("unknown prompt {p:?}")))
            })
            .transpose()?,
        task: GenTask::from_name(task)
            .ok_or_else(|| PyValueError::new_err(format!("unknown task {task:?}")))?,
        groups_min: groups.0,
        groups_max: groups.1,
        group_atoms,
        threads: threads.max(1),
        shard: shard_of(shard)?,
        wordnet: None,
    };
    interrupt::run(py, move |cancel| {
        let mut out = cancel.output();
        logicon::generate(&config, &mut out, &|_| {}).map_err(|e| e.to_string())?;
        String::from_utf8(out.bytes).map_err(|e| e.to_string())
    })?
    .map_err(PyValueError::new_err)
}

/// `entail gen divlogic`'s JSONL for the same arguments.
#[pyfunction]
#[pyo3(signature = (kind, count, seed, rotations, n, threads, shard))]
fn gen_divlogic(
    py: Python<'_>,
    kind: &str,
    count: u64,
    seed: u64,
    rotations: bool,
    n: usize,
    threads: usize,
    shard: (u64, u64),
) -> PyResult<String> {
    use entail::gen::divlogic::{self, Config, QuestionType, TypeChoice};
    let types = match kind {
        "mixed" => TypeChoice::Mixed,
        name => TypeChoice::Only(
            QuestionType::ALL
                .into_iter()
                .find(|t| t.name() == name)
                .ok_or_else(|| PyValueError::new_err(format!("unknown type {name:?}")))?,
        ),
    };
    let config = Config {
        types,
        count,
        seed,
        rotations,
        n,
        wordnet: None,
        shard: shard_of(shard)?,
        threads: threads.max(1),
    };
    interrupt::run(py, move |cancel| {
        let mut out = cancel.output();
        divlogic::generate(&config, &mut out, &|_| {}).map_err(|e| e.to_string())?;
        String::from_utf8(out.bytes).map_err(|e| e.to_string())
    })?
    .map_err(PyValueError::new_err)
}

/// `entail gen logicgraph` into `output` (the same tree the CLI writes);
/// returns the run's note on distractors too few to hide, if any.
#[pyfunction]
#[pyo3(signature = (output, tier, paths, depth, forms, distractors, max_atoms, count, seed, prompt, threads, shard))]
#[allow(clippy::too_many_arguments)]
fn gen_logicgraph(
    py: Python<'_>,
    output: String,
    tier: &str,
    paths: Option<(usize, usize)>,
    depth: (usize, usize),
    forms: Vec<String>,
    distractors: usize,
    max_atoms: usize,
    count: u64,
    seed: u64,
    prompt: bool,
    threads: usize,
    shard: (u64, u64),
) -> PyResult<Option<String>> {
    use entail::gen::logicgraph::{Config, Form, Tier};
    let bad = |m: String| PyValueError::new_err(m);
    let tier = Tier::parse(tier).ok_or_else(|| bad(format!("unknown tier {tier:?}")))?;
    let mut config = Config::for_tier(tier);
    if let Some(p) = paths {
        config.paths = p;
    }
    config.depth = depth;
    config.forms = Vec::new();
    for name in &forms {
        let form = Form::parse(name).ok_or_else(|| {
            bad(format!(
                "unknown form {name:?} (expected MP, MT, HS, DS, CD, RAA, DE)"
            ))
        })?;
        if !config.forms.contains(&form) {
            config.forms.push(form);
        }
    }
    config.distractors = distractors;
    config.max_atoms = max_atoms;
    config.seed = seed;
    config.count = count;
    config.prompt = prompt;
    config.threads = threads.max(1);
    config.shard = shard_of(shard)?;
    config.validate().map_err(|e| bad(e.to_string()))?;
    let note = config.distractor_note();
    interrupt::run(py, move |cancel| {
        logicgraph_blocks(config, shard, &output, &cancel)
    })?
    .map_err(bad)?;
    Ok(note)
}

/// `logicgraph::generate` of `config` into `output`, in blocks of its
/// shard (shard `i` of `n` is shards `i*m .. i*m+m` of `n*m`, the same
/// items) so that an interrupted run stops after its current block; an
/// interrupted run's directory is removed.
fn logicgraph_blocks(
    mut config: entail::gen::logicgraph::Config,
    (index, count): (u64, u64),
    output: &str,
    cancel: &interrupt::Cancel,
) -> Result<(), String> {
    let items = config.shard.range(config.count).count() as u64;
    let per_block = (8 * config.threads.max(1) as u64).max(32);
    let blocks = (items / per_block).clamp(1, u64::MAX / count.max(1));
    for block in 0..blocks {
        if cancel.is_set() {
            break;
        }
        config.shard = entail::gen::Shard::new(index * blocks + block, count * blocks)?;
        entail::gen::logicgraph::generate(&config, std::path::Path::new(output), &|_| {})
            .map_err(|e| e.to_string())?;
    }
    if cancel.is_set() {
        let _ = std::fs::remove_dir_all(output);
    }
    Ok(())
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<judge::NativeJudge>()?;
    m.add_function(wrap_pyfunction!(serve_worker, m)?)?;
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_function(wrap_pyfunction!(fol::fol_solve, m)?)?;
    m.add_function(wrap_pyfunction!(fol::fol_solve_batch, m)?)?;
    m.add_function(wrap_pyfunction!(gen_slr, m)?)?;
    m.add_function(wrap_pyfunction!(gen_logicon, m)?)?;
    m.add_function(wrap_pyfunction!(gen_divlogic, m)?)?;
    m.add_function(wrap_pyfunction!(gen_logicgraph, m)?)?;
    m.add_function(wrap_pyfunction!(bench::score_slr, m)?)?;
    m.add_function(wrap_pyfunction!(bench::score_divlogic, m)?)?;
    m.add_function(wrap_pyfunction!(bench::score_logicon, m)?)?;
    m.add_function(wrap_pyfunction!(bench::score_logicgraph, m)?)?;
    m.add_function(wrap_pyfunction!(bench::rewards, m)?)?;
    m.add_function(wrap_pyfunction!(bench::gold_answer, m)?)?;
    m.add_function(wrap_pyfunction!(picture::report_page, m)?)?;
    m.add_function(wrap_pyfunction!(picture::show_item, m)?)?;
    m.add_function(wrap_pyfunction!(picture::show_logicgraph, m)?)?;
    Ok(())
}

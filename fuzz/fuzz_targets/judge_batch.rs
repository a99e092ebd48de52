//! Any bytes through the whole batch path (`run_batch` with the native
//! engine): reading lines, JSON, extraction, the reader, the sandbox and the
//! evaluator. The first byte picks how the rest becomes a batch:
//!
//! - 0: the bytes are the batch file;
//! - 1: each `\n`-separated piece is the prediction of a valid task line;
//! - 2: each piece is spliced raw into a line as the value of `prediction`;
//! - 3: each piece is the validation program of a line with a good answer.
//!
//! A control line (a good answer that scores 1.0) ends every batch. The
//! target fails if anything panics, if the output does not have exactly one
//! line per input line, if any line reports an internal error, if an `id`
//! written into a whole JSON line (modes 1 and 3) does not come back, or if
//! the control line does not score 1.0.
#![no_main]

use entail::judge::{run_batch, Evaluator, Judge, JudgeConfig};
use entail::prolog::native::NativeEvaluator;
use entail::prolog::{Background, Outcome, WorkerFailure};
use entail::syntax::prolog::Term;
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

const TASK: &str = "eastbound(train0).\nhas_car(train0, car0_1).\nshort(car0_1).\n\
westbound(train1).\nhas_car(train1, car1_1).\nlong(car1_1).\n";
const GOOD: &str = "eastbound(T) :- has_car(T, C), short(C).";

/// Stands in for the scryer workers: a fuzz process must not start copies
/// of itself, so whatever the native engine hands on fails cleanly.
struct NoFallback;

impl Evaluator for NoFallback {
    fn evaluate(
        &self,
        _: &Background,
        _: &[Term],
        _: &[Term],
        _: u64,
    ) -> Result<Outcome, WorkerFailure> {
        Err(WorkerFailure::Spawn("no fallback while fuzzing".into()))
    }
}

fn judge() -> &'static Judge {
    static JUDGE: OnceLock<Judge> = OnceLock::new();
    JUDGE.get_or_init(|| {
        let mut config = JudgeConfig::default();
        config.inference_limit = 100_000;
        let fallback: Arc<dyn Evaluator> = Arc::new(NoFallback);
        Judge::with_evaluator(config, Arc::new(NativeEvaluator::new(fallback)))
    })
}

fn line(id: usize, program: &str, prediction: &str) -> String {
    serde_json::json!({"id": id, "validation program": program, "prediction": prediction})
        .to_string()
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let pieces = || rest.split(|&b| b == b'\n').map(String::from_utf8_lossy);
    let mut batch: Vec<u8> = match mode % 4 {
        0 => rest.to_vec(),
        1 => pieces()
            .enumerate()
            .map(|(i, p)| line(i, TASK, &p) + "\n")
            .collect::<String>()
            .into_bytes(),
        2 => pieces()
            .enumerate()
            .map(|(i, p)| {
                let task = serde_json::to_string(TASK).unwrap_or_default();
                format!("{{\"id\": {i}, \"validation program\": {task}, \"prediction\": {p}}}\n")
            })
            .collect::<String>()
            .into_bytes(),
        _ => pieces()
            .enumerate()
            .map(|(i, p)| line(i, &p, GOOD) + "\n")
            .collect::<String>()
            .into_bytes(),
    };
    if !batch.is_empty() && !batch.ends_with(b"\n") {
        batch.push(b'\n');
    }
    let control = line(usize::MAX, TASK, GOOD);
    batch.extend_from_slice(control.as_bytes());
    let lines = batch.split(|&b| b == b'\n').count();
    let mut output = Vec::new();
    run_batch(judge(), &batch[..], &mut output, &|| {}).expect("in-memory I/O cannot fail");
    let text = String::from_utf8(output).expect("output is UTF-8");
    let results: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("output lines are JSON"))
        .collect();
    assert_eq!(results.len(), lines, "one output line per input line");
    for (i, result) in results.iter().enumerate() {
        assert_ne!(result["error_kind"], "internal", "line {i}: {result}");
        // Modes 1 and 3 write whole JSON lines with ids (a spliced piece
        // in mode 2 may add an `id` of its own).
        if matches!(mode % 4, 1 | 3) && i + 1 < lines {
            assert_eq!(result["id"], i, "line {i}: {result}");
        }
    }
    let last = &results[lines - 1];
    assert_eq!(last["id"], usize::MAX, "{last}");
    assert_eq!(last["partial_score"], 1.0, "{last}");
});

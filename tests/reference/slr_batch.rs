//! The reference method of `slr_baseline.rs` for many answers at once: each
//! (validation program, answer) pair becomes its own module file (renamed
//! as the reference renames, with the same `check_count/1`, holding what
//! the judge loads of the answer, `loaded`), and
//! two swipl processes load, score and unload them in turn. Each scoring
//! runs under an inference limit (and the reference's 5 s as a safety net),
//! so a looping answer costs a fraction of a second instead of 5 s; any
//! error or overrun scores 0, as in the reference. Needs the including
//! crate to declare `mod baseline` (tests/reference/slr_baseline.rs).

#![allow(dead_code)]

use crate::baseline::{guarded_program, loaded, BaselineScore};
use std::io::Write;
use std::process::{Command, Stdio};

/// Inferences one answer may use in the batched reference: some 0.1 s of
/// swipl, far above what a terminating SLR answer needs.
pub const REFERENCE_INFERENCES: u64 = 2_000_000;

const DRIVER: &str = r#"
:- use_module(library(time)).
score(I, File, Out) :-
    catch(load_files(File, [silent(true)]), _, true),
    atom_concat(p_, I, M),
    catch(call_with_time_limit(5,
              call_with_inference_limit(M:check_count(C), LIMIT, R)),
          _, (C = 0, R = error)),
    ( R == inference_limit_exceeded -> Out = 0 ; var(C) -> Out = 0 ; Out = C ),
    catch(unload_file(File), _, true).
main :- forall(item(I, F), (score(I, F, C), format("~w ~w~n", [I, C]), flush_output)).
"#;

/// Scores every pair with the reference method (label predicates
/// `eastbound`/`westbound`), two swipl processes at a time. Panics if
/// swipl cannot run (tests only).
pub fn score_all(pairs: &[(String, String)]) -> Vec<BaselineScore> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("entail_slr_batch_{}_{run}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut examples = Vec::with_capacity(pairs.len());
    for (i, (program, hypothesis)) in pairs.iter().enumerate() {
        // What the judge loads of the answer (`loaded`); where the
        // reference finds no rule it scores 0.
        let loaded = loaded(hypothesis, "eastbound");
        let (text, n) = guarded_program(
            program,
            loaded.as_ref().map_or("", |l| l.text.as_str()),
            loaded.as_ref().and_then(|l| l.must_read.as_deref()),
            "eastbound",
            "westbound",
        );
        let text = if loaded.is_some() {
            text
        } else {
            String::new()
        };
        examples.push(n);
        let module = format!(
            ":- module(p_{i}, []).\n:- style_check(-singleton).\n:- style_check(-discontiguous).\n{text}"
        );
        std::fs::write(dir.join(format!("p_{i}.pl")), module).expect("temp file");
    }
    let counts = std::sync::Mutex::new(vec![0usize; pairs.len()]);
    std::thread::scope(|s| {
        for part in 0..2 {
            let (dir, counts) = (&dir, &counts);
            s.spawn(move || {
                let mut driver = DRIVER.replace("LIMIT", &REFERENCE_INFERENCES.to_string());
                for i in (part..pairs.len()).step_by(2) {
                    let file = dir.join(format!("p_{i}.pl"));
                    driver.push_str(&format!("item({i}, '{}').\n", file.display()));
                }
                let path = dir.join(format!("driver_{part}.pl"));
                std::fs::File::create(&path)
                    .and_then(|mut f| f.write_all(driver.as_bytes()))
                    .expect("driver file");
                let output = Command::new("swipl")
                    .args(["-q", "-g", "main", "-t", "halt"])
                    .arg(&path)
                    .stdin(Stdio::null())
                    .stderr(Stdio::null())
                    .output()
                    .expect("swipl runs");
                let text = String::from_utf8_lossy(&output.stdout);
                let mut counts = counts.lock().expect("no panic while held");
                for line in text.lines() {
                    let mut words = line.split_whitespace();
                    if let (Some(i), Some(c)) = (words.next(), words.next()) {
                        if let (Ok(i), Ok(c)) = (i.parse::<usize>(), c.parse::<usize>()) {
                            if i < counts.len() {
                                counts[i] = c;
                            }
                        }
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let counts = counts.into_inner().expect("no panic while held");
    counts
        .iter()
        .zip(&examples)
        .map(|(&count, &n)| {
            let partial_score = if n == 0 { 0.0 } else { count as f64 / n as f64 };
            BaselineScore {
                partial_score,
                is_correct: partial_score == 1.0,
            }
        })
        .collect()
}

/// How a judge's results compare with the reference's scores: the pairs
/// that differ (described, with the answer) and how many answers the judge
/// refused with `engine_unsupported`, which is never a different score.
pub fn compare(
    pairs: &[(String, String)],
    ours: &[entail::judge::JudgeResult],
    theirs: &[BaselineScore],
) -> (Vec<String>, usize) {
    let mut differing = Vec::new();
    let mut unsupported = 0;
    for (i, (ours, reference)) in ours.iter().zip(theirs).enumerate() {
        if ours.error_kind == Some(entail::judge::ErrorKind::EngineUnsupported) {
            unsupported += 1;
        } else if reference.partial_score != ours.partial_score
            || reference.is_correct != ours.is_correct
        {
            differing.push(format!(
                "pair {i}: ours {} ({:?} {:?}) vs swipl {}\n{}",
                ours.partial_score,
                ours.error_kind,
                ours.error,
                reference.partial_score,
                pairs[i].1
            ));
        }
    }
    (differing, unsupported)
}

/// Fails with the first 40 of `differing` (from [`compare`]) unless it is empty.
pub fn assert_none_differ(pairs: &[(String, String)], differing: &[String]) {
    assert!(
        differing.is_empty(),
        "{} of {} pairs differ from swipl:\n{}",
        differing.len(),
        pairs.len(),
        differing[..differing.len().min(40)].join("\n\n")
    );
}

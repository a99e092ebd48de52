//! The SLR reference judge's method, re-implemented from its description and
//! run through `swipl`, one process per prediction. Tests use it as the
//! oracle for scores; the benchmark uses it as the speed baseline.
//!
//! Method: rename the label predicates to `pos`/`neg` and the constants
//! `train<d>`/`car<d>_<d>` to `mytrain…`/`mycar…` by whole-word replacement in
//! the validation program text; count the examples as occurrences of `pos(`
//! and `neg(`; sort the program's lines; append a checker counting the
//! distinct examples E with `pos(E), eastbound(E)` or `neg(E), \+
//! eastbound(E)` (setof, 0 if none); append the hypothesis; run `swipl`
//! with a 5 s timeout and read the count.
//! Any failure to print a count (error, timeout) scores 0.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Scores from the baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineScore {
    /// Correct examples / examples.
    pub partial_score: f64,
    /// All examples correct.
    pub is_correct: bool,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Replaces whole-word occurrences of `word` with `with`.
fn replace_word(text: &str, word: &str, with: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with(word)
            && (i == 0 || !is_word_byte(bytes[i - 1]))
            && bytes
                .get(i + word.len())
                .map_or(true, |&b| !is_word_byte(b))
        {
            out.push_str(with);
            i += word.len();
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// `train<digits>` → `mytrain<digits>`, `car<digits>_<digits>` → `mycar…`,
/// as whole words.
fn rename_constants(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 64);
    let mut i = 0;
    while i < text.len() {
        let at_word_start = i == 0 || !is_word_byte(bytes[i - 1]);
        if at_word_start && bytes[i].is_ascii_alphanumeric() {
            let end = (i..text.len())
                .find(|&j| !is_word_byte(bytes[j]))
                .unwrap_or(text.len());
            let word = &text[i..end];
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            let renamed = match word.strip_prefix("train") {
                Some(rest) if digits(rest) => true,
                _ => match word.strip_prefix("car").and_then(|r| r.split_once('_')) {
                    Some((a, b)) => digits(a) && digits(b),
                    None => false,
                },
            };
            if renamed {
                out.push_str("my");
            }
            out.push_str(word);
            i = end;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The program text the reference runs.
pub fn reference_program(
    validation_program: &str,
    hypothesis: &str,
    positive: &str,
    negative: &str,
) -> (String, usize) {
    let renamed = replace_word(validation_program, positive, "pos");
    let renamed = replace_word(&renamed, negative, "neg");
    let renamed = rename_constants(&renamed);
    let examples = renamed.matches("pos(").count() + renamed.matches("neg(").count();
    // The reference loads the program's lines sorted: a train's cars come
    // as car0_1, car0_10, car0_11, car0_2, …
    let mut lines: Vec<&str> = renamed.lines().collect();
    lines.sort_unstable();
    let renamed = lines.join("\n");
    let checker = format!(
        "\ncheck_count(Count) :-\n    (   setof(E, ((pos(E), {positive}(E)) ; (neg(E), \\+ {positive}(E))), Es)\n    ->  length(Es, Count)\n    ;   Count = 0\n    ).\n"
    );
    (format!("{renamed}\n{checker}\n{hypothesis}\n"), examples)
}

/// Scores `hypothesis` with one `swipl` process. `None` if `swipl` cannot be
/// started at all.
pub fn score(
    validation_program: &str,
    hypothesis: &str,
    positive: &str,
    negative: &str,
) -> Option<BaselineScore> {
    if !hypothesis.contains(positive) {
        return Some(BaselineScore {
            partial_score: 0.0,
            is_correct: false,
        });
    }
    let (program, examples) = reference_program(validation_program, hypothesis, positive, negative);
    let dir = std::env::temp_dir();
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!("entail_slr_baseline_{}_{n}.pl", std::process::id()));
    std::fs::File::create(&path)
        .ok()?
        .write_all(program.as_bytes())
        .ok()?;
    let output = Command::new("timeout")
        .arg("5")
        .arg("swipl")
        .args(["-q", "-g", "check_count(C), write(C), nl", "-t", "halt"])
        .arg(&path)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let _ = std::fs::remove_file(&path);
    let count: usize = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .unwrap_or(0);
    let partial_score = if examples == 0 {
        0.0
    } else {
        count as f64 / examples as f64
    };
    Some(BaselineScore {
        partial_score,
        is_correct: partial_score == 1.0,
    })
}

/// Whether `swipl` is installed.
pub fn swipl_available() -> bool {
    Command::new("swipl")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A timeout long enough for any baseline run.
pub const BASELINE_TIMEOUT: Duration = Duration::from_secs(5);

/// Scores every (validation program, hypothesis) pair with `score`, two
/// swipl processes at a time, in order. Panics if swipl cannot start (tests
/// only).
pub fn score_all(pairs: &[(String, String)]) -> Vec<BaselineScore> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let scores = std::sync::Mutex::new(vec![None; pairs.len()]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((program, h)) = pairs.get(i) else {
                    break;
                };
                let score = score(program, h, "eastbound", "westbound").expect("swipl runs");
                scores.lock().expect("no panic while held")[i] = Some(score);
            });
        }
    });
    scores
        .into_inner()
        .expect("no panic while held")
        .into_iter()
        .map(|s| s.expect("every pair scored"))
        .collect()
}

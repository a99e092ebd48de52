//! The SLR reference judge's method, re-implemented from its description and
//! run through `swipl`, one process per prediction. Tests use it as the
//! oracle for scores; the benchmark uses it as the speed baseline.
//!
//! Method: find the rules in the answer ([`reference_rules`]: `%` comments
//! deleted, lines joined, then **every** `eastbound(args) :- body.` with
//! `args` free of parentheses and the body up to the first `.`, found left
//! to right without overlap; the reference calls its extraction with its
//! multiple-rules switch always on, so all of them are loaded together, one
//! per line; no such text scores 0); rename the label predicates to
//! `pos`/`neg` and the constants `train<d>`/`car<d>_<d>` to
//! `mytrain…`/`mycar…` by whole-word replacement in the validation program
//! text; count the examples as occurrences of `pos(` and `neg(`; sort the
//! program's lines; append a checker counting the distinct examples E with
//! `pos(E), eastbound(E)` or `neg(E), \+ eastbound(E)` (setof, 0 if none);
//! append the rules; run `swipl` with a 5 s timeout and read the count.
//! Any failure to print a count (error, timeout) scores 0. Everything else
//! in the answer (facts, directives, helper predicates, prose) is never
//! loaded.
//!
//! [`score_reference`] is the reference to the letter (all its rules);
//! [`score_reference_last`] is the reference with the switch off (the last
//! rule alone, the judge's `--rules last`); [`score`] scores what the
//! judge's `--rules program` loads ([`loaded`]: the program around the last
//! rule, helpers kept), for answers written as Prolog text.

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
    guarded_program(validation_program, hypothesis, None, positive, negative)
}

/// [`reference_program`], whose count is 0 unless SWI reads `must_read`
/// as a term (see [`Loaded`]).
pub fn guarded_program(
    validation_program: &str,
    hypothesis: &str,
    must_read: Option<&str>,
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
    let guard = match must_read {
        Some(clause) => {
            let quoted: String = clause
                .chars()
                .flat_map(|c| match c {
                    '\\' => vec!['\\', '\\'],
                    '"' => vec!['\\', '"'],
                    '\n' | '\r' => vec![' '],
                    c => vec![c],
                })
                .collect();
            format!("catch(term_string(_, \"{quoted}\"), _, fail),\n        ")
        }
        None => String::new(),
    };
    let checker = format!(
        "\ncheck_count(Count) :-\n    (   {guard}setof(E, ((pos(E), {positive}(E)) ; (neg(E), \\+ {positive}(E))), Es)\n    ->  length(Es, Count)\n    ;   Count = 0\n    ).\n"
    );
    (format!("{renamed}\n{checker}\n{hypothesis}\n"), examples)
}

/// Python's `\s` on a `str`.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// The last rule the reference's pattern finds in `answer` (what it would
/// load with its multiple-rules switch off), or `None` where it finds none.
pub fn reference_clause(answer: &str, positive: &str) -> Option<String> {
    reference_matches(answer, positive).pop()
}

/// The rules the reference's pattern finds in `answer`, in order: every
/// `%` and the rest of its line deleted; each line break with the white
/// space after it made one space; then, scanning left to right without
/// overlap, the matches of `P\([^()]*\)\s*:-.*?\.` (`P` the positive label
/// predicate), each trimmed.
pub fn reference_matches(answer: &str, positive: &str) -> Vec<String> {
    let uncommented: Vec<&str> = answer
        .split('\n')
        .map(|line| line.split_once('%').map_or(line, |(code, _)| code))
        .collect();
    let uncommented = uncommented.join("\n");
    let mut joined = String::with_capacity(uncommented.len());
    let mut chars = uncommented.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            joined.push(' ');
            while chars.peek().is_some_and(|&c| is_python_space(c)) {
                chars.next();
            }
        } else {
            joined.push(c);
        }
    }
    let opening = format!("{positive}(");
    let mut found = Vec::new();
    let mut at = 0;
    while at < joined.len() {
        let rest = &joined[at..];
        let matched = rest.strip_prefix(opening.as_str()).and_then(|args| {
            let close = args.find(['(', ')'])?;
            let after = args[close..].strip_prefix(')')?;
            let body = after
                .trim_start_matches(is_python_space)
                .strip_prefix(":-")?;
            let dot = body.find('.')?;
            Some(joined.len() - body.len() + dot + 1)
        });
        match matched {
            Some(end) => {
                found.push(joined[at..end].trim().to_string());
                at = end;
            }
            None => at += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    found
}

/// The reference's program text for `answer` (what it appends to the
/// validation program), or `None` where it finds no rule: every match of
/// its pattern in the text [`reference_clause`] reads, one per line, in
/// order.
pub fn reference_rules(answer: &str, positive: &str) -> Option<String> {
    let rules = reference_matches(answer, positive);
    (!rules.is_empty()).then(|| rules.join("\n"))
}

/// What the judge loads of an answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The Prolog text loaded.
    pub text: String,
    /// Where `text` is the whole answer: the reference's clause, which must
    /// read (as one of the answer's clauses) for the answer to count; when
    /// it does not, the judge loads it alone and gets a syntax error.
    pub must_read: Option<String>,
}

/// What the judge loads for `answer`, modelled for answers written as
/// Prolog text: the whole answer (trailing special tokens such as `</s>`
/// removed) when the reference's clause stands in it as a clause of its
/// own (at the start or after a full stop, its `.` followed by white space
/// or the end) and reads, else the reference's clause alone. `None` where
/// the reference finds no rule.
pub fn loaded(answer: &str, positive: &str) -> Option<Loaded> {
    let clause = reference_clause(answer, positive)?;
    let mut program = answer.trim_end();
    while let Some(open) = program.strip_suffix('>').and_then(|p| p.rfind('<')) {
        let token = &program[open + 1..program.len() - 1];
        if token.is_empty() || token.contains(|c: char| c.is_whitespace() || c == '<') {
            break;
        }
        program = program[..open].trim_end();
    }
    // The clause as it stands in the answer (comments deleted): its text
    // with each run of white space free to differ.
    let uncommented: Vec<&str> = program
        .split('\n')
        .map(|line| line.split_once('%').map_or(line, |(code, _)| code))
        .collect();
    let text = uncommented.join("\n");
    let words: Vec<&str> = clause.split_whitespace().collect();
    let stands_whole = |start: usize| {
        let program = text.as_str();
        let mut at = start;
        for (i, word) in words.iter().enumerate() {
            if i > 0 {
                let rest = &program[at..];
                let trimmed = rest.trim_start();
                if trimmed.len() == rest.len() {
                    return false;
                }
                at += rest.len() - trimmed.len();
            }
            if !program[at..].starts_with(word) {
                return false;
            }
            at += word.len();
        }
        let before = program[..start].trim_end();
        (before.is_empty() || before.ends_with('.'))
            && program[at..]
                .chars()
                .next()
                .map_or(true, char::is_whitespace)
    };
    let first = words.first()?;
    let whole = text
        .match_indices(first)
        .any(|(start, _)| stands_whole(start));
    Some(if whole {
        Loaded {
            text: program.to_string(),
            must_read: Some(clause),
        }
    } else {
        Loaded {
            text: clause,
            must_read: None,
        }
    })
}

/// Scores `answer` with one `swipl` process, loading what the judge loads
/// ([`loaded`]). `None` if `swipl` cannot be started at all.
pub fn score(
    validation_program: &str,
    answer: &str,
    positive: &str,
    negative: &str,
) -> Option<BaselineScore> {
    match loaded(answer, positive) {
        Some(Loaded { text, must_read }) => score_text(
            validation_program,
            &text,
            must_read.as_deref(),
            positive,
            negative,
        ),
        None => Some(BaselineScore {
            partial_score: 0.0,
            is_correct: false,
        }),
    }
}

/// Scores `answer` exactly as the reference does: all its rules together
/// ([`reference_rules`]), or 0 where it finds none.
pub fn score_reference(
    validation_program: &str,
    answer: &str,
    positive: &str,
    negative: &str,
) -> Option<BaselineScore> {
    match reference_rules(answer, positive) {
        Some(rules) => score_text(validation_program, &rules, None, positive, negative),
        None => Some(BaselineScore {
            partial_score: 0.0,
            is_correct: false,
        }),
    }
}

/// Scores `answer` as the reference would with its multiple-rules switch
/// off: its last rule alone ([`reference_clause`]), or 0 where it finds
/// none.
pub fn score_reference_last(
    validation_program: &str,
    answer: &str,
    positive: &str,
    negative: &str,
) -> Option<BaselineScore> {
    match reference_clause(answer, positive) {
        Some(clause) => score_text(validation_program, &clause, None, positive, negative),
        None => Some(BaselineScore {
            partial_score: 0.0,
            is_correct: false,
        }),
    }
}

/// Scores the program text `hypothesis` as the reference scores the rule
/// it extracted.
fn score_text(
    validation_program: &str,
    hypothesis: &str,
    must_read: Option<&str>,
    positive: &str,
    negative: &str,
) -> Option<BaselineScore> {
    let (program, examples) = guarded_program(
        validation_program,
        hypothesis,
        must_read,
        positive,
        negative,
    );
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

/// A way to score one answer: [`score`], [`score_reference`] or
/// [`score_reference_last`].
pub type Scorer = fn(&str, &str, &str, &str) -> Option<BaselineScore>;

/// Scores every (validation program, hypothesis) pair with [`score`] (what
/// the judge's `--rules program` loads), two swipl processes at a time, in
/// order. Panics if swipl cannot start (tests only).
pub fn score_all(pairs: &[(String, String)]) -> Vec<BaselineScore> {
    score_all_by(pairs, score)
}

/// Scores every pair with `scorer`, two swipl processes at a time, in
/// order. Panics if swipl cannot start (tests only).
pub fn score_all_by(pairs: &[(String, String)], scorer: Scorer) -> Vec<BaselineScore> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let scores = std::sync::Mutex::new(vec![None; pairs.len()]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((program, h)) = pairs.get(i) else {
                    break;
                };
                let score = scorer(program, h, "eastbound", "westbound").expect("swipl runs");
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

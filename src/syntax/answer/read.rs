//! The one reader of what a model wrote: which part of a completion is its
//! answer, and which label that answer names. Every benchmark's scorer and
//! reward (LogicGraph, LogiConBench, DivLogicEval) reads completions here,
//! so `entail score`, the Python rewards and the framework adapters read
//! the same text the same way.
//!
//! | What the completion holds | How it is read |
//! |---|---|
//! | `<think>…</think>` (also `<thinking>`, `<reasoning>`, `<thought>`, `[THINK]…[/THINK]`, `<\|begin_of_thought\|>…<\|end_of_thought\|>`) | reasoning, not the answer; an answer only there earns nothing |
//! | an unclosed `<think>` | everything after it is reasoning |
//! | text before a lone `</think>` (the template opened the block) | reasoning |
//! | gpt-oss channels (`<\|channel\|>analysis…`, `<\|channel\|>final<\|message\|>…`) | only the final channel is read |
//! | end-of-sequence and chat-template tokens (`</s>`, `<s>`, `<eos>`, `<bos>`, `<pad>`, `<end_of_turn>`, `<start_of_turn>model`, any `<\|…\|>` such as `<\|im_end\|>`, `<\|endoftext\|>`, `<\|eot_id\|>`, `<\|end\|>`) | dropped, wherever they are (a role name after a turn-start token too) |
//! | answer markers: `Answer: D`, `**Answer:** D`, `Final answer: D`, `The answer is D.`, `The correct option is (D)`, a `## Answer` / `**Final Answer**` line (the answer on the next line), `\boxed{D}`, `<answer>D</answer>` | the **last** marker in the text decides; earlier ones are drafts |
//! | no marker | the last non-empty line, else the first, read as the answer |
//! | markdown and LaTeX around a label: `**D**`, `(D)`, `[D]`, `` `D` ``, `D.`, `$\text{D}$`, `"D"` | the label |
//! | option text after the letter: `Answer: (B) Some cats …`, `D. All …` | the letter |
//! | case | ignored (`answer: d`, `CONSISTENT`, `t`) |
//! | several labels (`A B C D`, `A or B`, `A, C`, `consistent or inconsistent`, `T/F`) | no answer |
//! | hedges (`I don't know`, `I can't tell`, `cannot be determined`, `unsure`, `maybe`, `either`, `none`, `unknown`, `?`) | no answer |
//! | negated labels (`not T`, `It is not true`, `not D`) | no answer; except a consistency verdict, where `not consistent` is `inconsistent` |
//! | a label the question does not have (`E` of four options) | no answer |
//!
//! Multi-line answers (LogiConBench T/F lists and Task 3 statements,
//! LogicGraph steps) are read from [`region`]: the visible text after the
//! last marker (a tag's or `\boxed`'s contents), or the whole visible text
//! without one.

use super::truth::{self, Truth};
use std::collections::BTreeSet;

/// Think-block openers and closers (lower case).
const THINK_OPEN: &[&str] = &[
    "<think>",
    "<thinking>",
    "<reasoning>",
    "<thought>",
    "[think]",
    "<|begin_of_thought|>",
];
const THINK_CLOSE: &[&str] = &[
    "</think>",
    "</thinking>",
    "</reasoning>",
    "</thought>",
    "[/think]",
    "<|end_of_thought|>",
];

/// Special tokens without pipes (lower case).
const PLAIN_TOKENS: &[&str] = &[
    "</s>",
    "<s>",
    "<eos>",
    "<bos>",
    "<pad>",
    "<unk>",
    "<end_of_turn>",
    "<start_of_turn>",
    "<eot>",
];

/// Tokens followed by a role or channel name, which is dropped with them.
const ROLE_TOKENS: &[&str] = &[
    "<start_of_turn>",
    "<|im_start|>",
    "<|start_header_id|>",
    "<|start|>",
    "<|channel|>",
    "<|constrain|>",
];

/// The first occurrence at or after `from` of any of `needles` in `lower`:
/// its start and length.
fn find_any(lower: &str, from: usize, needles: &[&str]) -> Option<(usize, usize)> {
    needles
        .iter()
        .filter_map(|n| lower.get(from..)?.find(n).map(|at| (from + at, n.len())))
        .min()
}

/// `text` without its reasoning blocks (see the module's table).
fn without_thinking(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::new();
    let mut pos = 0;
    let mut inside = false;
    loop {
        let open = find_any(&lower, pos, THINK_OPEN);
        let close = find_any(&lower, pos, THINK_CLOSE);
        match (open, close) {
            (Some((o, n)), c) if c.is_none_or(|(c, _)| o < c) => {
                if !inside {
                    out.push_str(&text[pos..o]);
                    out.push('\n');
                }
                inside = true;
                pos = o + n;
            }
            (_, Some((c, n))) => {
                if !inside {
                    // A lone closer: what came before it was reasoning.
                    out.clear();
                }
                inside = false;
                pos = c + n;
            }
            _ => break,
        }
    }
    if !inside {
        out.push_str(&text[pos..]);
    }
    out
}

/// The length of a `<|name|>` token at the start of `s`, if there is one
/// (a name of at most 40 bytes, so a scan never runs past it).
fn pipe_token(s: &str) -> Option<usize> {
    let inner = s.strip_prefix("<|")?.as_bytes();
    let end = inner.iter().take(41).position(|&b| {
        !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':' | b' '))
    })?;
    (inner[end] == b'|' && inner.get(end + 1) == Some(&b'>')).then_some(end + 4)
}

/// `text` without special tokens (each replaced by a line break).
fn without_tokens(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let rest = &lower[i..];
        let token = if rest.starts_with('<') || rest.starts_with('[') {
            pipe_token(rest).or_else(|| {
                PLAIN_TOKENS
                    .iter()
                    .find(|t| rest.starts_with(*t))
                    .map(|t| t.len())
            })
        } else {
            None
        };
        match token {
            Some(n) => {
                let role = ROLE_TOKENS
                    .iter()
                    .any(|t| rest.starts_with(t) && t.len() == n);
                i += n;
                if role {
                    i += lower[i..]
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(lower.len() - i);
                }
                out.push('\n');
            }
            None => {
                let c = text[i..].chars().next().unwrap_or(' ');
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

/// The part of a completion meant as its answer: reasoning blocks, other
/// channels than gpt-oss's final one, and special tokens removed.
pub fn visible(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let text = if let Some(at) = lower.rfind("<|channel|>final") {
        &text[at..]
    } else if let Some(at) = lower.find("<|channel|>analysis") {
        &text[..at]
    } else {
        text
    };
    without_tokens(&without_thinking(text))
}

/// One answer marker in the visible text.
#[derive(Debug, Clone, PartialEq)]
struct Marker {
    /// Where the marker starts (markers are ordered by it).
    start: usize,
    /// The short answer: the rest of the marker's line, the next non-empty
    /// line after a marker that ends its line, or a tag's contents.
    span: (usize, usize),
    /// The long answer: from the answer to the end of the text (or the
    /// tag's end).
    rest: (usize, usize),
    /// A marker in prose (`the answer is`, `the correct option is`), which
    /// gives way to an earlier marker when it names nothing.
    prose: bool,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Skips markdown emphasis and spaces (not line breaks) from `at`.
fn skip_marks(s: &str, mut at: usize) -> usize {
    let b = s.as_bytes();
    while at < b.len() && matches!(b[at], b'*' | b'_' | b' ' | b'\t' | b'#' | b'"' | b'\'') {
        at += 1;
    }
    at
}

/// The span after a marker ending at `end`: the rest of the line, or the
/// next non-empty line when the rest is only markup.
fn span_after(v: &str, end: usize) -> (usize, usize) {
    let line_end = v[end..].find('\n').map_or(v.len(), |n| end + n);
    if !v[end..line_end]
        .trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '#' | ':' | '-'))
        .is_empty()
    {
        return (end, line_end);
    }
    let mut at = line_end;
    while at < v.len() {
        let next = v[at + 1..].find('\n').map_or(v.len(), |n| at + 1 + n);
        if !v[(at + 1).min(next)..next].trim().is_empty() {
            return (at + 1, next);
        }
        at = next;
    }
    (line_end, line_end)
}

/// The words that may follow `answer` (or `option`, `choice`) to make it a
/// marker, with what must follow them.
const IS_FORMS: &[&str] = &[
    "is",
    "would be",
    "should be",
    "must be",
    "will be",
    "is therefore",
    "is thus",
    "was",
];

/// Markers at a word `answer`/`option`/`choice` found at `at` (length `n`).
fn word_marker(v: &str, lower: &str, at: usize, n: usize) -> Option<Marker> {
    let b = lower.as_bytes();
    if at > 0 && is_word_byte(b[at - 1]) {
        return None;
    }
    let word = &lower[at..at + n];
    let mut end = at + n;
    if lower[end..].starts_with("(s)") {
        end += 3;
    }
    if end < b.len() && is_word_byte(b[end]) {
        return None;
    }
    let after = skip_marks(lower, end);
    let colon = ["：", ":", "="]
        .iter()
        .find(|c| lower[after..].starts_with(*c))
        .map(|c| after + c.len());
    if word != "answer" {
        // `option` and `choice` mark an answer only as `the correct option is`.
        let before = lower[..at].trim_end_matches(|c: char| !c.is_ascii_alphabetic());
        let previous = before
            .rsplit(|c: char| !c.is_ascii_alphabetic())
            .next()
            .unwrap_or_default();
        if !matches!(
            previous,
            "correct" | "right" | "best" | "final" | "my" | "chosen" | "selected"
        ) {
            return None;
        }
    }
    let mut prose = false;
    let marker_end = if let Some(e) = colon.filter(|_| word == "answer") {
        Some(e)
    } else {
        prose = true;
        let form = IS_FORMS.iter().filter(|f| {
            lower[after..].starts_with(*f)
                && !lower
                    .as_bytes()
                    .get(after + f.len())
                    .copied()
                    .is_some_and(is_word_byte)
        });
        form.map(|f| after + f.len()).max().map(|e| {
            let e = skip_marks(lower, e);
            if lower[e..].starts_with(':') {
                e + 1
            } else {
                e
            }
        })
    };
    let marker_end = match marker_end {
        Some(e) => e,
        None if word == "answer" => {
            // A header line: only markup and `final`/`the`/`my`/`correct` around it.
            let line_start = lower[..at].rfind('\n').map_or(0, |n| n + 1);
            let line_end = lower[at..].find('\n').map_or(lower.len(), |n| at + n);
            let before = lower[line_start..at]
                .split(|c: char| !c.is_ascii_alphabetic())
                .all(|w| matches!(w, "" | "final" | "the" | "my" | "correct"));
            let after_ok = lower[end..line_end]
                .trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '#' | ':'))
                .is_empty();
            if !(before && after_ok) {
                return None;
            }
            prose = false;
            line_end
        }
        None => return None,
    };
    let span = span_after(v, marker_end);
    Some(Marker {
        start: at,
        span,
        rest: (span.0, v.len()),
        prose,
    })
}

/// The end of the balanced `{…}` group whose contents start at `from`.
fn closing_brace(v: &str, from: usize) -> usize {
    let mut depth = 1usize;
    for (i, c) in v[from..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return from + i;
                }
            }
            _ => {}
        }
    }
    v.len()
}

/// How many of the last places that may hold a marker are looked at (a
/// count, so that a text of many `answer` words costs linear time).
const MARKER_CANDIDATES: usize = 64;

/// The answer markers among the last [`MARKER_CANDIDATES`] places of the
/// visible text `v` that may hold one, in order.
fn markers(v: &str) -> Vec<Marker> {
    let lower = v.to_ascii_lowercase();
    // (start, kind): 0-2 a word, 3 a tag, 4-5 a box.
    let mut places: Vec<(usize, usize)> = Vec::new();
    for (kind, needle) in [
        "answer", "option", "choice", "<answer>", "\\boxed{", "\\fbox{",
    ]
    .iter()
    .enumerate()
    {
        places.extend(lower.match_indices(needle).map(|(at, _)| (at, kind)));
    }
    places.sort_unstable();
    let from = places.len().saturating_sub(MARKER_CANDIDATES);
    let mut found = Vec::new();
    for &(at, kind) in &places[from..] {
        match kind {
            0..=2 => found.extend(word_marker(v, &lower, at, 6)),
            3 => {
                let from = at + "<answer>".len();
                let end = lower[from..]
                    .find("</answer>")
                    .map_or(v.len(), |n| from + n);
                found.push(Marker {
                    start: at,
                    span: (from, end),
                    rest: (from, end),
                    prose: false,
                });
            }
            _ => {
                let from = at + if kind == 4 { "\\boxed{" } else { "\\fbox{" }.len();
                let end = closing_brace(v, from);
                found.push(Marker {
                    start: at,
                    span: (from, end),
                    rest: (from, end),
                    prose: false,
                });
            }
        }
    }
    found
}

/// The multi-line answer of a completion: the visible text after the last
/// marker, when what follows it `holds` (e.g. has a step line) or the
/// marker is explicit (`Answer:`, a tag, `\boxed`); a prose marker (`the
/// answer is`) followed by no such answer gives way to the marker before
/// it. Without a marker, the whole visible text.
pub fn region(text: &str, holds: impl Fn(&str) -> bool) -> String {
    let v = visible(text);
    for m in markers(&v).iter().rev() {
        let rest = &v[m.rest.0..m.rest.1];
        if !m.prose || holds(rest) {
            return rest.to_string();
        }
    }
    v
}

/// What a short answer reads as.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Reading<T> {
    /// One label.
    Label(T),
    /// A non-committal answer: a hedge, several labels, a negated one, or
    /// a label the question does not have. No answer, and no earlier
    /// draft is read instead.
    Hedge,
    /// No label at all (prose).
    Nothing,
}

/// The short answer of a completion read by `read`: the last marker's
/// span (a prose marker such as `the answer is` whose span names nothing
/// gives way to the marker before it), or without a marker the last
/// non-empty line, else the first.
fn short<T: Copy>(text: &str, read: impl Fn(&str) -> Reading<T>) -> Option<T> {
    let v = visible(text);
    let found = markers(&v);
    for m in found.iter().rev() {
        match read(&v[m.span.0..m.span.1]) {
            Reading::Label(t) => return Some(t),
            Reading::Hedge => return None,
            Reading::Nothing if m.prose => continue,
            Reading::Nothing => return None,
        }
    }
    let lines: Vec<&str> = v.lines().filter(|l| !l.trim().is_empty()).collect();
    for line in [lines.last(), lines.first()].into_iter().flatten() {
        match read(line) {
            Reading::Label(t) => return Some(t),
            Reading::Hedge => return None,
            Reading::Nothing => {}
        }
    }
    None
}

/// A span with LaTeX commands, braces, dollars and markdown emphasis
/// turned into spaces, and cut at its first line (and before a tag).
fn clean(span: &str) -> String {
    let first = span
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    let first = first.split('<').next().unwrap_or_default();
    let mut out = String::with_capacity(first.len());
    let mut chars = first.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                while chars.peek().is_some_and(char::is_ascii_alphabetic) {
                    chars.next();
                }
                out.push(' ');
            }
            '{' | '}' | '$' | '*' | '_' | '`' | '#' | '"' | '“' | '”' | '|' => out.push(' '),
            '’' | '‘' => out.push('\''),
            c => out.push(c),
        }
    }
    out
}

/// The tokens of a cleaned span, case kept: words (letters, digits, inner
/// apostrophes) and single punctuation characters.
fn tokens(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in s.chars() {
        if c.is_alphanumeric() || (c == '\'' && !word.is_empty()) {
            word.push(c);
        } else {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word).trim_end_matches('\'').to_string());
            }
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
        }
    }
    if !word.is_empty() {
        out.push(word.trim_end_matches('\'').to_string());
    }
    out
}

/// Phrases that make an answer non-committal (as lower-case token
/// sequences).
const HEDGES: &[&[&str]] = &[
    &["don't", "know"],
    &["do", "not", "know"],
    &["dont", "know"],
    &["not", "sure"],
    &["unsure"],
    &["can't", "tell"],
    &["cannot", "tell"],
    &["can", "not", "tell"],
    &["can't", "be"],
    &["cannot", "be"],
    &["can't", "determine"],
    &["cannot", "determine"],
    &["can't", "say"],
    &["cannot", "say"],
    &["not", "possible", "to"],
    &["impossible", "to"],
    &["undetermined"],
    &["indeterminate"],
    &["undecidable"],
    &["unknown"],
    &["unclear"],
    &["uncertain"],
    &["either"],
    &["neither"],
    &["maybe"],
    &["perhaps"],
    &["possibly"],
    &["probably"],
    &["likely"],
    &["might"],
    &["could", "be"],
    &["may", "be"],
    &["depends"],
    &["not", "enough"],
    &["insufficient"],
    &["n", "/", "a"],
    &["?"],
    &["i", "think"],
    &["i", "believe"],
    &["guess"],
    &["no", "answer"],
];

fn hedged(lower: &[String]) -> bool {
    HEDGES.iter().any(|h| {
        lower
            .windows(h.len())
            .any(|w| w.iter().zip(h.iter()).all(|(a, b)| a == b))
    })
}

fn negation(t: &str) -> bool {
    matches!(t, "not" | "never" | "no" | "cannot" | "nor") || t.ends_with("n't")
}

/// The lower-case tokens of a span after its last `but` (`however`,
/// `actually`, `instead`), in clauses: cut at a sentence end, `;`, `,`,
/// `(`, or `because`/`since`/`as`/`so`.
fn clauses(span: &str) -> Vec<Vec<String>> {
    let mut all: Vec<String> = tokens(&clean(span))
        .into_iter()
        .map(|t| t.to_lowercase())
        .collect();
    // A correction within the line: what follows the last `but` counts.
    if let Some(at) = all
        .iter()
        .rposition(|t| matches!(t.as_str(), "but" | "however" | "actually" | "instead"))
    {
        all.drain(..=at);
    }
    let mut out = vec![Vec::new()];
    for t in all {
        let cut = matches!(
            t.as_str(),
            ";" | "," | "(" | "." | "!" | ":" | "because" | "since" | "as" | "so" | "—" | "given"
        );
        if cut {
            if out.last().is_some_and(|c| !c.is_empty()) {
                out.push(Vec::new());
            }
        } else if let Some(c) = out.last_mut() {
            c.push(t);
        }
    }
    out.retain(|c| !c.is_empty());
    out
}

/// The first clause of `span` that `read` finds a label or a hedge in (a
/// hedge in an earlier clause counts too).
fn first_clause<T>(span: &str, read: impl Fn(&[String]) -> Reading<T>) -> Reading<T> {
    for words in clauses(span) {
        if hedged(&words) {
            return Reading::Hedge;
        }
        match read(&words) {
            Reading::Nothing => {}
            other => return other,
        }
    }
    Reading::Nothing
}

/// Words that may stand before an option letter.
const LEAD: &[&str] = &[
    "option",
    "choice",
    "letter",
    "the",
    "is",
    "it",
    "it's",
    "answer",
    "final",
    "correct",
    "my",
    "(",
    "[",
    ":",
    "-",
    "'",
    "=",
    "so",
    "therefore",
    "thus",
    "hence",
    "one",
    ",",
];

/// Words joining several labels.
const JOINS: &[&str] = &[
    "or", "and", "/", ",", "&", "+", "vs", "versus", "to", "-", "through", "nor", "plus",
];

/// A one-letter token as an option index (`a`/`A` is 0).
fn letter(t: &str) -> Option<usize> {
    let mut cs = t.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => {
            Some((c.to_ascii_lowercase() as u8 - b'a') as usize)
        }
        _ => None,
    }
}

/// The letters written as `(X)` among `all`.
fn bracketed(all: &[String]) -> BTreeSet<usize> {
    all.windows(3)
        .filter(|w| w[0] == "(" && w[2] == ")")
        .filter_map(|w| letter(&w[1]))
        .collect()
}

/// A short answer read as one option letter among `options`: the first
/// word after lead words (`option`, `the`, …) is the letter, and what
/// follows it is not another letter; else the one `(X)` of the span.
fn read_option(span: &str, options: usize) -> Reading<usize> {
    let all = tokens(&clean(span));
    let lower: Vec<String> = all.iter().map(|t| t.to_lowercase()).collect();
    let in_range = |i: usize| {
        if i < options {
            Reading::Label(i)
        } else {
            Reading::Hedge
        }
    };
    let start = lower
        .iter()
        .position(|t| !LEAD.contains(&t.as_str()))
        .unwrap_or(lower.len());
    // `I` followed by a word is the pronoun (`I don't know`, `I think`).
    let pronoun = all.get(start).is_some_and(|t| t == "I")
        && all
            .get(start + 1)
            .is_some_and(|t| t.chars().all(char::is_alphabetic));
    let index = lower
        .get(start)
        .and_then(|t| letter(t))
        .filter(|_| !pronoun);
    let Some(index) = index else {
        let many = |t: &String| matches!(t.as_str(), "none" | "neither" | "all" | "both" | "any");
        if lower.get(start).is_some_and(|t| negation(t) || many(t)) || hedged(&lower) {
            return Reading::Hedge;
        }
        let found = bracketed(&all);
        return match found.len() {
            0 => Reading::Nothing,
            1 => found.first().map_or(Reading::Nothing, |&i| in_range(i)),
            _ => Reading::Hedge,
        };
    };
    let mut next = lower[start + 1..]
        .iter()
        .skip_while(|t| matches!(t.as_str(), ")" | "]" | "'"));
    match next.next().map(String::as_str) {
        None | Some("." | ":" | "!" | "—" | ";") => {}
        Some(t) if letter(t).is_some() => return Reading::Hedge,
        Some("?") => return Reading::Hedge,
        Some(t) if JOINS.contains(&t) => {
            let after = next.find(|t| !matches!(t.as_str(), "(" | "[" | "option" | "'"));
            if after.is_some_and(|t| letter(t).is_some()) {
                return Reading::Hedge;
            }
        }
        Some("(") => {
            if next.next().is_some_and(|t| letter(t).is_some()) {
                return Reading::Hedge;
            }
        }
        Some(_) => {
            // A lower-case letter followed by a word is an article or prose.
            if all[start].chars().all(|c| c.is_ascii_lowercase()) {
                return Reading::Nothing;
            }
        }
    }
    in_range(index)
}

/// The option a completion picks among `options` (`A` is 0), or `None`
/// when it names none, several, a hedge or an option past the last.
pub fn option(text: &str, options: usize) -> Option<usize> {
    short(text, |span| read_option(span, options))
}

/// A short answer read as a consistency verdict (`true` for consistent).
fn read_verdict(span: &str) -> Reading<bool> {
    first_clause(span, |words| {
        let mut seen = BTreeSet::new();
        for (i, w) in words.iter().enumerate() {
            let negated = words[i.saturating_sub(2)..i].iter().any(|p| negation(p));
            match w.as_str() {
                "inconsistent" | "unsatisfiable" | "contradictory" => {
                    seen.insert(negated);
                }
                "consistent" | "satisfiable" => {
                    seen.insert(!negated);
                }
                _ => {}
            }
        }
        match seen.len() {
            1 => seen
                .first()
                .map_or(Reading::Nothing, |&v| Reading::Label(v)),
            0 => {
                let bare: Vec<&str> = words
                    .iter()
                    .map(String::as_str)
                    .filter(|w| !matches!(*w, ")" | "'" | "[" | "]" | "-" | "="))
                    .collect();
                match bare.as_slice() {
                    ["yes" | "true"] => Reading::Label(true),
                    ["no" | "false"] => Reading::Label(false),
                    _ => Reading::Nothing,
                }
            }
            _ => Reading::Hedge,
        }
    })
}

/// The consistency verdict of a completion: `Some(true)` for consistent,
/// `Some(false)` for inconsistent (`not consistent`, `unsatisfiable`), or
/// `None` for no verdict, a hedge or both.
pub fn verdict(text: &str) -> Option<bool> {
    short(text, read_verdict)
}

/// A short answer read as one T/F label.
fn read_label(span: &str) -> Reading<Truth> {
    first_clause(span, |words| {
        let mut seen = BTreeSet::new();
        for (i, w) in words.iter().enumerate() {
            if let Some(t) = truth::word(w) {
                if words[i.saturating_sub(2)..i].iter().any(|p| negation(p)) {
                    return Reading::Hedge;
                }
                seen.insert(t);
            } else if JOINS.contains(&w.as_str()) && !seen.is_empty() {
                // `T or F`, `T/F`: a second label after a join is a hedge.
                if words[i + 1..].iter().any(|w| truth::word(w).is_some()) {
                    return Reading::Hedge;
                }
            }
        }
        match seen.len() {
            1 => seen
                .first()
                .map_or(Reading::Nothing, |&t| Reading::Label(t)),
            0 => Reading::Nothing,
            _ => Reading::Hedge,
        }
    })
}

/// The T/F label a completion names (`T`, `F`, `true`, `false`), or `None`
/// for none, both, a negated one or a hedge.
pub fn label(text: &str) -> Option<Truth> {
    short(text, read_label)
}

/// The T/F lists of length `k` a completion gives (see [`truth::parse`]),
/// read from its [`region`].
pub fn lists(text: &str, k: usize) -> Option<BTreeSet<Vec<Truth>>> {
    truth::parse(&region(text, |r| r.contains(['[', '('])), k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasoning_and_tokens_are_not_the_answer() {
        assert_eq!(
            visible("<think>Answer: A</think>\nAnswer: D<|im_end|>").trim(),
            "Answer: D"
        );
        assert_eq!(visible("Answer: A\n</think>\nD</s>").trim(), "D");
        assert_eq!(visible("Answer: B\n<think>Answer: A").trim(), "Answer: B");
        assert_eq!(
            visible(
                "<|channel|>analysis<|message|>A?<|end|><|start|>assistant<|channel|>final<|message|>Answer: C<|return|>"
            )
            .trim(),
            "Answer: C"
        );
        assert_eq!(
            visible("<start_of_turn>model\nAnswer: B<end_of_turn>").trim(),
            "Answer: B"
        );
    }

    #[test]
    fn many_markers_and_token_starts_are_read_in_linear_work() {
        let text = format!("{}Answer: B", "the answer is ".repeat(100_000));
        assert_eq!(option(&text, 4), Some(1));
        let text = format!("{}\nAnswer: C</s>", "<|".repeat(100_000));
        assert_eq!(option(&text, 4), Some(2));
        let text = format!("\\boxed{{{}\nAnswer: D", "{".repeat(100_000));
        assert_eq!(option(&text, 4), Some(3));
    }

    #[test]
    fn option_letters() {
        let ok = [
            ("Answer: D", 3),
            ("Answer: D</s>", 3),
            ("**Answer:** D", 3),
            ("The answer is D.", 3),
            ("\\boxed{D}", 3),
            ("Final answer: $\\boxed{\\text{D}}$", 3),
            ("<answer>D</answer>", 3),
            ("(D)", 3),
            ("d", 3),
            ("I think A.\nAnswer: **(d)**.", 3),
            ("Answer: B. All cats are animals.", 1),
            ("Answer: (C) Some birds fly", 2),
            ("Answer: A\nWait, no.\nFinal Answer: C", 2),
            ("## Final Answer\n\n**B**", 1),
            ("The correct option is (A).", 0),
            ("{\"answer\": \"B\"}", 1),
            ("Answer: A, because the premises say so", 0),
        ];
        for (text, want) in ok {
            assert_eq!(option(text, 4), Some(want), "{text:?}");
        }
        let none = [
            "Answer: A B C D",
            "Answer: A or B",
            "Answer: (A) and (C)",
            "Answer: E",
            "Answer: not D",
            "Answer: I don't know",
            "<think>Answer: D</think>",
            "The answer is a contradiction.",
            "Answer: either A or B",
            "",
            "Answer: D\nFinal answer: unsure",
        ];
        for text in none {
            assert_eq!(option(text, 4), None, "{text:?}");
        }
    }

    #[test]
    fn verdicts_and_labels() {
        assert_eq!(verdict("Answer: Inconsistent."), Some(false));
        assert_eq!(verdict(" consistent"), Some(true));
        assert_eq!(verdict("The list is not consistent."), Some(false));
        assert_eq!(verdict("consistent or inconsistent"), None);
        assert_eq!(verdict("I can't tell"), None);
        assert_eq!(
            verdict("Answer: consistent\nAnswer: inconsistent"),
            Some(false)
        );
        assert_eq!(label("I don't know."), None);
        assert_eq!(label("I can't tell"), None);
        assert_eq!(label("It is not true"), None);
        assert_eq!(label("not T"), None);
        assert_eq!(label("Answer: T"), Some(Truth::T));
        assert_eq!(label("**Answer:** F</s>"), Some(Truth::F));
        assert_eq!(
            label("Answer: T, since statement 2 is false"),
            Some(Truth::T)
        );
        assert_eq!(label("T/F"), None);
        assert_eq!(
            verdict("The statements cannot all hold, so the list is inconsistent."),
            Some(false)
        );
        assert_eq!(
            verdict("Both can hold together, so the list is consistent."),
            Some(true)
        );
        assert_eq!(verdict("No, it is not consistent."), Some(false));
        assert_eq!(option("Answer: None of the above", 4), None);
        assert_eq!(option("Therefore, B.", 4), Some(1));
    }
}

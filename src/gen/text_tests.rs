//! What the generators write is publishable English: no word that WordNet
//! or our own list marks offensive (`Lexicon::offensive`), and no
//! agreement error a checker of our own finds (a plural subject with a
//! singular verb, "1 … items", "type none", "a" before a vowel, a doubled
//! word). Each family is sampled here by a few thousand items; the same
//! scan over 100,000 items per family is the ignored tests `large_*` (run
//! them with `--ignored`, nice'd).

use crate::gen::wordnet::{locate, Lexicon};
use crate::gen::{divlogic, logicgraph, logicon, slr};
use std::collections::{BTreeMap, BTreeSet};

/// Nouns ending in `s` that are singular (the checker's own list, for the
/// words of that shape the generators use).
const SINGULAR_IN_S: [&str; 17] = [
    "news", "lens", "canvas", "gas", "atlas", "bias", "chaos", "cosmos", "ethos", "yes", "alias",
    "pancreas", "corps", "series", "biceps", "fracas", "dickens",
];

/// Plural nouns without a final `s`.
const IRREGULAR_PLURALS: [&str; 22] = [
    "men",
    "women",
    "children",
    "people",
    "police",
    "cattle",
    "mice",
    "feet",
    "teeth",
    "geese",
    "oxen",
    "data",
    "media",
    "bacteria",
    "algae",
    "larvae",
    "fungi",
    "criteria",
    "phenomena",
    "alumni",
    "livestock",
    "clergy",
];

/// Words after "the NOUN" that say the noun is its clause's subject and
/// singular.
const SINGULAR_VERBS: [&str; 5] = ["is", "has", "does", "was", "occurs"];

/// Words that end in `s` and follow a noun without being its verb.
const NOT_VERBS: [&str; 4] = ["unless", "as", "this", "thus"];

/// A word is plural by its form: a final `s` that is not part of `-ss`,
/// `-us`, `-is`, `-ous` or a known singular, or an irregular plural.
fn plural_looking(word: &str) -> bool {
    if IRREGULAR_PLURALS.contains(&word) {
        return true;
    }
    word.len() > 3
        && word.ends_with('s')
        && !["ss", "us", "is"].iter().any(|e| word.ends_with(e))
        && !SINGULAR_IN_S.contains(&word)
        && !word.ends_with("species")
        && !word.ends_with("ics")
}

/// The words of `text`: letters, digits and underscores.
fn tokens(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The agreement errors in `text`, each with the words around it.
fn grammar_errors(text: &str) -> Vec<String> {
    let words = tokens(text);
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let mut errors = Vec::new();
    let mut flag = |i: usize, what: &str| {
        let around = words[i.saturating_sub(2)..(i + 4).min(words.len())].join(" ");
        errors.push(format!("{what}: \"{around}\""));
    };
    // A plain lower-case word.
    let english = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase());
    for i in 0..words.len() {
        let previous = if i > 0 { words[i - 1] } else { "" };
        let next = lower.get(i + 1).map(String::as_str).unwrap_or("");
        let after = lower.get(i + 2).map(String::as_str).unwrap_or("");
        let vowel = next.starts_with(['a', 'e', 'i', 'o', 'u']);
        let vowel_sound_exception = ["uni", "use", "usu", "eu", "one", "once", "ur"]
            .iter()
            .any(|p| next.starts_with(p));
        // Articles between English words (not the atom `a` of `a & -e`).
        let article = english(previous) && previous.len() > 1 && english(next) && next.len() > 1;
        match words[i] {
            "a" if article && vowel && !vowel_sound_exception => flag(i, "\"a\" before a vowel"),
            "an" if article
                && !vowel
                && !["hour", "honest", "heir", "honor"]
                    .iter()
                    .any(|p| next.starts_with(p)) =>
            {
                flag(i, "\"an\" before a consonant")
            }
            // Numbers and `none` in English, after a word (not in Prolog
            // facts such as `load_num(car1_1, 1)`).
            "1" if english(previous)
                && (plural_looking(next)
                    || (plural_looking(after) && !SINGULAR_VERBS.contains(&next))) =>
            {
                flag(i, "one with a plural noun")
            }
            "0" if english(previous) && english(next) => flag(i, "\"0\" counting things"),

            _ => {}
        }
        if lower[i] == "the" && plural_looking(next) {
            let verb = after;
            // After a subject comes its verb; after an object, punctuation
            // or a connective.
            // A verb in the third person ends in `s` but not in `-ss`,
            // `-us` or `-is` (`the upstairs class`, `the upstairs circus`).
            let third_person = verb.ends_with('s')
                && !["ss", "us", "is"].iter().any(|e| verb.ends_with(e))
                && !NOT_VERBS.contains(&verb);
            if SINGULAR_VERBS.contains(&verb) || third_person {
                flag(i, "plural subject, singular verb");
            }
        }
        // English words only: `p | p` and `M, M` are formulas.
        // Case-sensitive: "… is third. Third, …" is two sentences.
        if words.get(i + 1) == Some(&words[i]) && words[i].len() > 1 && english(words[i]) {
            flag(i, "doubled word");
        }
    }
    // "none" right after a word ("roof type none"), not in a list of
    // values ("full, half, none") or a fact (`has_roof(car1_1, none)`).
    for (at, _) in text.match_indices(" none") {
        let before = text[..at].chars().next_back();
        let after = text[at + 5..].chars().next();
        if before.is_some_and(|c| c.is_ascii_lowercase())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            let start = text[..at].rfind(' ').map_or(0, |i| i + 1);
            errors.push(format!("\"none\" as a value: \"{}\"", &text[start..at + 5]));
        }
    }
    errors
}

/// Offensive lemmas found in `text`: single words and two-word lemmas
/// (`dirty_word`), compared in lower case.
fn offensive_words(text: &str, offensive: &BTreeSet<String>) -> Vec<String> {
    let lower: Vec<String> = tokens(text)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let mut found = Vec::new();
    for (i, w) in lower.iter().enumerate() {
        if offensive.contains(w) {
            found.push(w.clone());
        }
        if let Some(next) = lower.get(i + 1) {
            let pair = format!("{w}_{next}");
            if offensive.contains(&pair) {
                found.push(pair);
            }
        }
    }
    found
}

/// The strings of a JSON value, depth first.
fn strings<'v>(value: &'v serde_json::Value, out: &mut Vec<&'v str>) {
    match value {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// What a scan of one family found: items, words checked, offensive
/// words by count, and the first agreement errors with their total.
#[derive(Default)]
struct Scan {
    items: u64,
    words: u64,
    offensive: BTreeMap<String, u64>,
    errors: Vec<String>,
    error_count: u64,
}

impl Scan {
    fn text(&mut self, text: &str, offensive: &BTreeSet<String>) {
        self.words += tokens(text).len() as u64;
        for w in offensive_words(text, offensive) {
            *self.offensive.entry(w).or_default() += 1;
        }
        let errors = grammar_errors(text);
        self.error_count += errors.len() as u64;
        self.errors.extend(
            errors
                .into_iter()
                .take(10usize.saturating_sub(self.errors.len())),
        );
    }

    /// One JSON record per line, each counted as an item.
    fn jsonl(&mut self, text: &str, offensive: &BTreeSet<String>) {
        for line in text.lines() {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
            let mut texts = Vec::new();
            strings(&value, &mut texts);
            for t in texts {
                self.text(t, offensive);
            }
            self.items += 1;
        }
    }

    /// What was found, or `None` when the sample is clean (printed).
    fn problems(&self, family: &str) -> Option<String> {
        if self.items == 0 {
            return Some(format!("{family}: nothing generated"));
        }
        if !self.offensive.is_empty() || self.error_count > 0 {
            return Some(format!(
                "{family}: offensive words {:?}; {} agreement errors, first {:?}",
                self.offensive, self.error_count, self.errors
            ));
        }
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "{family}: {} items, {} words checked, 0 offensive words, 0 agreement errors",
            self.items,
            self.words
        );
        None
    }

    fn assert_clean(&self, family: &str) {
        if let Some(problems) = self.problems(family) {
            panic!("{problems}");
        }
    }
}

/// The installed WordNet (`$ENTAIL_WORDNET`, else /usr/share/wordnet), or
/// `None` after printing why `test` is skipped (`scripts/install-deps`
/// installs it).
fn lexicon(test: &str) -> Option<Lexicon> {
    match Lexicon::open(&locate(None)) {
        Ok(lex) => Some(lex),
        Err(e) => {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {e}");
            None
        }
    }
}

fn scan_divlogic(count: u64, seed: u64, offensive: &BTreeSet<String>) -> Scan {
    let config = divlogic::Config {
        types: divlogic::TypeChoice::Mixed,
        count,
        seed,
        threads: 2,
        ..divlogic::Config::default()
    };
    let mut out = Vec::new();
    divlogic::generate(&config, &mut out, &|_| {}).expect("divlogic generates");
    let mut scan = Scan::default();
    scan.jsonl(&String::from_utf8(out).expect("utf-8"), offensive);
    scan
}

fn scan_logicon(count: u64, seed: u64, offensive: &BTreeSet<String>) -> Scan {
    let mut scan = Scan::default();
    // The two tasks' texts: Task 1/2 samples and Task 3 groups.
    for generative in [false, true] {
        let config = logicon::Config {
            count: if generative { count / 10 } else { count },
            seed,
            threads: 2,
            prompt: Some(logicon::PromptStyle::ZeroShot),
            task: if generative {
                logicon::GenTask::Generative
            } else {
                logicon::GenTask::Lists
            },
            ..logicon::Config::default()
        };
        let mut out = Vec::new();
        logicon::generate(&config, &mut out, &|_| {}).expect("logicon generates");
        scan.jsonl(&String::from_utf8(out).expect("utf-8"), offensive);
    }
    scan
}

/// A third of `count` per tier, Small, Medium and Large.
fn scan_logicgraph(count: u64, seed: u64, offensive: &BTreeSet<String>) -> Scan {
    let mut scan = Scan::default();
    for tier in [
        logicgraph::Tier::Small,
        logicgraph::Tier::Medium,
        logicgraph::Tier::Large,
    ] {
        let dir = std::env::temp_dir().join(format!(
            "entail-gen-text-{}-{tier:?}-{seed}-{count}",
            std::process::id()
        ));
        let config = logicgraph::Config {
            count: count / 3,
            seed,
            prompt: true,
            threads: 2,
            ..logicgraph::Config::for_tier(tier)
        };
        logicgraph::generate(&config, &dir, &|_| {}).expect("logicgraph generates");
        for i in 0..config.count {
            let item = dir.join(format!("test_{}", i + 1));
            let question = std::fs::read_to_string(item.join("question.json")).expect("a question");
            let value: serde_json::Value = serde_json::from_str(&question).expect("json");
            let mut texts = Vec::new();
            strings(&value, &mut texts);
            texts.iter().for_each(|t| scan.text(t, offensive));
            let prompt = std::fs::read_to_string(item.join("prompt.txt")).expect("a prompt");
            scan.text(&prompt, offensive);
            scan.items += 1;
            // Large runs would fill the disk otherwise.
            let _ = std::fs::remove_dir_all(&item);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    scan
}

fn scan_slr(count: u64, seed: u64, offensive: &BTreeSet<String>) -> Scan {
    let config = slr::Config {
        seed,
        levels: (1..=20).collect(),
        count,
        split: slr::Split::Test,
        prompt: slr::PromptStyle::NaturalLanguage,
        test_tasks: count,
        threads: 2,
        ..slr::Config::default()
    };
    let mut out = Vec::new();
    slr::generate(&config, &mut out, &|_| {}).expect("slr generates");
    let mut scan = Scan::default();
    scan.jsonl(&String::from_utf8(out).expect("utf-8"), offensive);
    scan
}

#[test]
fn the_checker_finds_each_kind_of_error() {
    let cases = [
        ("The cows is mute.", "plural subject, singular verb"),
        (
            "If the glasses sings, then the nurse is calm.",
            "plural subject, singular verb",
        ),
        (
            "The car car1_1 carries 1 load items.",
            "one with a plural noun",
        ),
        (
            "The car car1_1 carries 1 passengers.",
            "one with a plural noun",
        ),
        (
            "The car car1_1 carries 0 passengers.",
            "\"0\" counting things",
        ),
        ("The car car1_1 has roof type none.", "\"none\" as a value"),
        (
            "The car car1_1 has a oval vase payload.",
            "\"a\" before a vowel",
        ),
        ("It is an lantern.", "\"an\" before a consonant"),
        ("The nurse is is calm.", "doubled word"),
        ("The patient patient sings.", "doubled word"),
    ];
    for (text, kind) in cases {
        let errors = grammar_errors(text);
        assert!(
            errors.iter().any(|e| e.starts_with(kind)),
            "{text:?}: {errors:?}"
        );
    }
    for clean in [
        "The news is calm.",
        "The upstairs class coalesces. The nurse is third. Third, the cat sings.",
        "The nurse carries the glass, and the glass is blue.",
        "The car car1_1 carries 1 load. The car car1_2 carries 2 loads.",
        "The car car1_1 has no roof. It is an oval vase, a unicorn, an hour.",
        "Train train1 has a car car1_1. The car car1_1 is at position 1 in its train.",
        "If the otter is calm, then the nurse does not carry the lantern.",
        "has_car(train1, car1_1). car_num(car1_1, 1). has_roof(car1_1, none).",
    ] {
        assert_eq!(grammar_errors(clean), Vec::<String>::new(), "{clean:?}");
    }
    let offensive: BTreeSet<String> = ["cur", "dirty_word"].map(String::from).into();
    assert_eq!(
        offensive_words("The Cur says a dirty word.", &offensive),
        ["cur", "dirty_word"]
    );
}

#[test]
fn samples_of_every_family_are_clean() {
    let Some(lex) = lexicon("samples_of_every_family_are_clean") else {
        return;
    };
    let offensive = lex.offensive();
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{} lemmas left out", offensive.len());
    let problems: Vec<String> = [
        scan_divlogic(3_000, 11, offensive).problems("divlogic"),
        scan_logicon(3_000, 11, offensive).problems("logicon"),
        scan_logicgraph(300, 11, offensive).problems("logicgraph"),
        scan_slr(5, 11, offensive).problems("slr"),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The closing figures: 100,000 items per family (SLR: 500 tasks per level
/// over its 20 levels, 10,000, since every task is labelled by the judge),
/// one test per family so they can run apart. Slow: `cargo test --release
/// --lib text_tests -- --ignored large_`, nice'd.
fn large(family: &str, scan: impl Fn(&BTreeSet<String>, u64) -> Scan) {
    let Some(lex) = lexicon(family) else {
        return;
    };
    // `ENTAIL_TEXT_ITEMS` overrides the 100,000 items (not SLR's tasks).
    let items = std::env::var("ENTAIL_TEXT_ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    scan(lex.offensive(), items).assert_clean(family);
}

#[test]
#[ignore]
fn large_divlogic_sample_is_clean() {
    large("divlogic", |o, n| scan_divlogic(n, 2026, o));
}

#[test]
#[ignore]
fn large_logicon_sample_is_clean() {
    large("logicon", |o, n| scan_logicon(n, 2026, o));
}

#[test]
#[ignore]
fn large_logicgraph_sample_is_clean() {
    large("logicgraph", |o, n| scan_logicgraph(n, 2026, o));
}

#[test]
#[ignore]
fn large_slr_sample_is_clean() {
    large("slr", |o, _| scan_slr(500, 2026, o));
}

/// Prints what the scan finds in the JSONL files named by
/// `ENTAIL_TEXT_FILES` (space-separated), without asserting: the same
/// checks on another build's output, for before/after figures.
#[test]
#[ignore]
fn scan_files() {
    let Some(lex) = lexicon("scan_files") else {
        return;
    };
    let files = std::env::var("ENTAIL_TEXT_FILES").unwrap_or_default();
    for file in files.split_whitespace() {
        let text = std::fs::read_to_string(file).expect("a readable file");
        let mut scan = Scan::default();
        scan.jsonl(&text, lex.offensive());
        // Items with a finding, each record scanned on its own.
        let (mut with_offensive, mut with_errors) = (0, 0);
        for line in text.lines() {
            let mut one = Scan::default();
            one.jsonl(line, lex.offensive());
            with_offensive += usize::from(!one.offensive.is_empty());
            with_errors += usize::from(one.error_count > 0);
        }
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "{file}: {} items, {} words; {with_offensive} with a left-out word {:?}; \
             {with_errors} with an agreement error ({} errors), first {:?}",
            scan.items,
            scan.words,
            scan.offensive.iter().max_by_key(|(_, n)| **n),
            scan.error_count,
            scan.errors.first()
        );
    }
}

//! A small reader of the Princeton WordNet database files (`index.*`,
//! `data.*`, as Debian's `wordnet-base` installs them), for generators that
//! need many plain English words: nouns by lexicographer file (`noun.animal`,
//! `noun.artifact`, …), predicative adjectives and verbs with their
//! transitivity.
//!
//! Only common single words are kept: lower-case ASCII letters, 3 to 12 of
//! them, tagged at least [`MIN_TAGGED`] times in WordNet's semantic
//! concordance (`cntlist.rev`), and filed by the word's *most frequent* sense (so `bank` is a place, not a
//! verb of aviation). Every list is in the files' order (alphabetical), so a
//! generator that draws from them with a seeded stream is deterministic.
//!
//! WordNet is read at run time, never shipped: [`locate`] finds it from a
//! flag, `$ENTAIL_WORDNET` or `/usr/share/wordnet`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where WordNet is found when no directory is given and `$ENTAIL_WORDNET`
/// is unset: Debian's `wordnet-base`.
pub const DEFAULT_DIR: &str = "/usr/share/wordnet";

/// Noun categories whose nouns can be "somebody" in a verb frame.
pub const SOMEBODY: [&str; 2] = ["noun.person", "noun.animal"];

/// Noun categories of things, nouns that can be "something" in a verb frame.
pub const SOMETHING: [&str; 9] = [
    "noun.artifact",
    "noun.food",
    "noun.plant",
    "noun.location",
    "noun.substance",
    "noun.object",
    "noun.body",
    "noun.communication",
    "noun.possession",
];

/// How often a word must be tagged in the concordance, over all its senses
/// of one part of speech, to count as common (3 keeps `gulp`, drops `glom`).
pub const MIN_TAGGED: u64 = 3;

/// The lexicographer files, by number (`lex_filenum` in `data.*`).
const LEX_FILES: [&str; 45] = [
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
];

/// A verb and the sentence frames of its most frequent sense that a
/// template can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verb {
    /// The base form (`swim`).
    pub lemma: String,
    /// Its lexicographer file (`verb.motion`).
    pub category: &'static str,
    /// "Somebody ----s" (frame 2).
    pub intransitive: bool,
    /// "Somebody ----s something" (frame 8).
    pub transitive: bool,
}

impl Verb {
    /// The third person singular present (`swims`, `watches`, `carries`).
    pub fn third_person(&self) -> String {
        third_person(&self.lemma)
    }
}

/// The third person singular present of a regular English verb.
pub fn third_person(lemma: &str) -> String {
    let consonant_y = lemma.ends_with('y')
        && !lemma
            .chars()
            .rev()
            .nth(1)
            .is_some_and(|c| "aeiou".contains(c));
    if consonant_y {
        format!("{}ies", &lemma[..lemma.len() - 1])
    } else if ["s", "x", "z", "ch", "sh", "o"]
        .iter()
        .any(|e| lemma.ends_with(e))
    {
        format!("{lemma}es")
    } else {
        format!("{lemma}s")
    }
}

/// The common words of one WordNet installation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lexicon {
    version: String,
    nouns: BTreeMap<&'static str, Vec<String>>,
    adjectives: Vec<String>,
    verbs: Vec<Verb>,
}

/// Why WordNet could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(String);

/// The WordNet directory to read: `flag` when given, else
/// `$ENTAIL_WORDNET`, else [`DEFAULT_DIR`].
pub fn locate(flag: Option<&Path>) -> PathBuf {
    match (flag, std::env::var_os("ENTAIL_WORDNET")) {
        (Some(dir), _) => dir.to_path_buf(),
        (None, Some(dir)) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(DEFAULT_DIR),
    }
}

/// Whether `lemma` is a plain word a template can use.
fn plain(lemma: &str) -> bool {
    (3..=12).contains(&lemma.len()) && lemma.bytes().all(|b| b.is_ascii_lowercase())
}

/// One `index.*` line's lemma and the offset of its most frequent sense;
/// `None` for the licence header and lemmas that are not plain words.
fn index_entry(line: &str) -> Option<(&str, u64)> {
    if line.starts_with(' ') {
        return None;
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    let lemma = *fields.first()?;
    let pointers: usize = fields.get(3)?.parse().ok()?;
    let first: u64 = fields.get(6 + pointers)?.parse().ok()?;
    plain(lemma).then_some((lemma, first))
}

/// The concordance counts of `cntlist.rev` (`lemma%ss_type:… sense count`)
/// summed by part of speech (`n`, `v`, `a`: satellites count as adjectives)
/// and lemma.
fn tag_counts(text: &str) -> BTreeMap<(char, &str), u64> {
    let mut counts = BTreeMap::new();
    for line in text.lines() {
        let mut fields = line.split_whitespace();
        let (Some(key), Some(_), Some(count)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Some((lemma, sense)) = key.split_once('%') else {
            continue;
        };
        let pos = match sense.as_bytes().first() {
            Some(b'1') => 'n',
            Some(b'2') => 'v',
            Some(b'3' | b'5') => 'a',
            _ => continue,
        };
        *counts.entry((pos, lemma)).or_default() += count.parse::<u64>().unwrap_or(0);
    }
    counts
}

/// A parsed `data.*` synset line: its lexicographer file, its words with
/// their markers (`former(a)`) and its verb frame numbers.
struct Synset<'a> {
    lex_file: usize,
    words: Vec<&'a str>,
    frames: Vec<u32>,
}

fn synset(data: &str, offset: u64) -> Option<Synset<'_>> {
    let line = data.get(usize::try_from(offset).ok()?..)?.lines().next()?;
    let head = line.split(" | ").next()?;
    let fields: Vec<&str> = head.split_whitespace().collect();
    let lex_file: usize = fields.get(1)?.parse().ok()?;
    let words_n = usize::from_str_radix(fields.get(3)?, 16).ok()?;
    let words: Vec<&str> = (0..words_n)
        .filter_map(|i| fields.get(4 + 2 * i).copied())
        .collect();
    let at = 4 + 2 * words_n;
    let pointers: usize = fields.get(at)?.parse().ok()?;
    let at = at + 1 + 4 * pointers;
    let frames = match fields.get(at).and_then(|n| n.parse::<usize>().ok()) {
        Some(n) => (0..n)
            .filter_map(|i| fields.get(at + 2 + 3 * i)?.parse().ok())
            .collect(),
        None => Vec::new(),
    };
    Some(Synset {
        lex_file,
        words,
        frames,
    })
}

impl Lexicon {
    /// Reads the WordNet database in `dir`. The error says what is missing
    /// and how to get it.
    pub fn open(dir: &Path) -> Result<Lexicon, Error> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path).map_err(|e| {
                Error(format!(
                    "WordNet: cannot read {}: {e}. Install Debian's `wordnet-base` \
                     (scripts/install-deps does), or point --wordnet DIR or \
                     $ENTAIL_WORDNET at a directory holding WordNet 3's index.*, data.* and cntlist.rev files",
                    path.display()
                ))
            })
        };
        let counts_text = read("cntlist.rev")?;
        let counts = tag_counts(&counts_text);
        let common =
            |pos: char, lemma: &str| counts.get(&(pos, lemma)).is_some_and(|&n| n >= MIN_TAGGED);
        let data_noun = read("data.noun")?;
        let version = data_noun
            .lines()
            .take_while(|l| l.starts_with("  "))
            .find_map(|l| {
                let at = l.find("WordNet ")?;
                let rest = &l[at..];
                let end = rest
                    .char_indices()
                    .skip(8)
                    .find(|(_, c)| !(c.is_ascii_digit() || *c == '.'))
                    .map_or(rest.len(), |(i, _)| i);
                Some(rest[..end].trim_end_matches('.').to_string())
            })
            .unwrap_or_else(|| "WordNet (version unknown)".to_string());
        let mut nouns: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
        for line in read("index.noun")?.lines() {
            if let Some((lemma, first)) = index_entry(line).filter(|e| common('n', e.0)) {
                // `holmes` is `Holmes` in the synset: a name, left out.
                if let Some(s) = synset(&data_noun, first).filter(|s| s.words.contains(&lemma)) {
                    if let Some(&cat) = LEX_FILES.get(s.lex_file) {
                        nouns.entry(cat).or_default().push(lemma.to_string());
                    }
                }
            }
        }
        let data_adj = read("data.adj")?;
        let mut adjectives = Vec::new();
        for line in read("index.adj")?.lines() {
            if let Some((lemma, first)) = index_entry(line).filter(|e| common('a', e.0)) {
                // Attributive-only words (`former(a)`) cannot follow "is".
                let predicative = synset(&data_adj, first)
                    .is_some_and(|s| s.lex_file == 0 && s.words.contains(&lemma));
                if predicative {
                    adjectives.push(lemma.to_string());
                }
            }
        }
        let data_verb = read("data.verb")?;
        let mut verbs = Vec::new();
        for line in read("index.verb")?.lines() {
            if let Some((lemma, first)) = index_entry(line).filter(|e| common('v', e.0)) {
                if matches!(lemma, "be" | "have" | "do") {
                    continue;
                }
                let Some(s) = synset(&data_verb, first).filter(|s| s.words.contains(&lemma)) else {
                    continue;
                };
                let Some(&category) = LEX_FILES.get(s.lex_file) else {
                    continue;
                };
                let verb = Verb {
                    lemma: lemma.to_string(),
                    category,
                    intransitive: s.frames.contains(&2),
                    transitive: s.frames.contains(&8),
                };
                if verb.intransitive || verb.transitive {
                    verbs.push(verb);
                }
            }
        }
        if nouns.is_empty() || adjectives.is_empty() || verbs.is_empty() {
            return Err(Error(format!(
                "WordNet: {} holds no usable words (expected WordNet 3's index.* and data.* files)",
                dir.display()
            )));
        }
        Ok(Lexicon {
            version,
            nouns,
            adjectives,
            verbs,
        })
    }

    /// The database's version, as its licence header states it (`WordNet 3.0`).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The common nouns whose most frequent sense is filed under `category`
    /// (`noun.animal`, `noun.artifact`, …), alphabetically; empty for an
    /// unknown category.
    pub fn nouns(&self, category: &str) -> &[String] {
        self.nouns.get(category).map_or(&[], Vec::as_slice)
    }

    /// The noun categories with their noun counts, in name order.
    pub fn noun_categories(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        self.nouns.iter().map(|(c, n)| (*c, n.len()))
    }

    /// Common adjectives that can follow "is" (`adj.all`, not attributive-only).
    pub fn adjectives(&self) -> &[String] {
        &self.adjectives
    }

    /// Common verbs with a person-subject frame, intransitive or transitive.
    pub fn verbs(&self) -> &[Verb] {
        &self.verbs
    }
}

/// The word pools sentence builders draw from, borrowed from a [`Lexicon`].
pub(crate) struct Words<'l> {
    /// People and animals ([`SOMEBODY`]).
    pub subjects: Vec<&'l str>,
    /// Things ([`SOMETHING`]).
    pub objects: Vec<&'l str>,
    /// Events (`noun.event`): things that occur.
    pub events: Vec<&'l str>,
    pub adjectives: &'l [String],
    pub intransitive: Vec<&'l Verb>,
    pub transitive: Vec<&'l Verb>,
}

impl<'l> Words<'l> {
    /// The words of `lex`; an error if a pool is too small for a generator
    /// to give every atom of an item its own noun.
    pub(crate) fn new(lex: &'l Lexicon) -> Result<Words<'l>, String> {
        let nouns = |categories: &[&str]| -> Vec<&'l str> {
            categories
                .iter()
                .flat_map(|c| lex.nouns(c))
                .map(String::as_str)
                .collect()
        };
        let words = Words {
            subjects: nouns(&SOMEBODY),
            objects: nouns(&SOMETHING),
            events: nouns(&["noun.event"]),
            adjectives: lex.adjectives(),
            intransitive: lex.verbs().iter().filter(|v| v.intransitive).collect(),
            transitive: lex.verbs().iter().filter(|v| v.transitive).collect(),
        };
        // Eight distinct subjects and objects per item need some slack.
        if words.subjects.len() < 32
            || words.objects.len() < 32
            || words.events.len() < 32
            || words.adjectives.len() < 2
            || words.intransitive.is_empty()
            || words.transitive.is_empty()
        {
            return Err(format!(
                "{} has too few people, animals, things, events, adjectives or verbs",
                lex.version()
            ));
        }
        Ok(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn third_person_follows_the_spelling_rules() {
        let forms: Vec<String> = ["swim", "watch", "carry", "play", "go", "fix", "wash"]
            .iter()
            .map(|v| third_person(v))
            .collect();
        assert_eq!(
            forms,
            ["swims", "watches", "carries", "plays", "goes", "fixes", "washes"]
        );
    }

    #[test]
    fn index_and_data_lines_are_read() {
        let index = "dog n 7 5 @ ~ #m #p %p 7 1 02084071 10114209  ";
        assert_eq!(index_entry(index), Some(("dog", 2084071)));
        // Multi-word and header lines are left out.
        assert_eq!(
            index_entry("hot_dog n 2 2 @ ~ 2 1 07676602 10114209  "),
            None
        );
        let counts = tag_counts(
            "dog%1:05:00:: 1 42\ndog%2:38:00:: 1 1\ncalm%5:00:00:still:01 2 4\n\
                                 calm%3:00:00:: 1 15\nbad line\n",
        );
        assert_eq!(counts.get(&('n', "dog")), Some(&42));
        assert_eq!(counts.get(&('v', "dog")), Some(&1));
        assert_eq!(counts.get(&('a', "calm")), Some(&19));
        assert_eq!(index_entry("  1 This software and database is"), None);
        let data = "00001740 29 v 02 breathe 0 respire 3 001 * 00005041 v 0000 \
                    02 + 02 00 + 08 00 | draw air";
        let s = synset(data, 0).expect("parses");
        assert_eq!(LEX_FILES[s.lex_file], "verb.body");
        assert_eq!(s.words, ["breathe", "respire"]);
        assert_eq!(s.frames, [2, 8]);
        assert!(synset(data, 10_000).is_none());
    }

    #[test]
    fn a_missing_directory_says_what_to_install() {
        let err = Lexicon::open(Path::new("/nonexistent/wordnet")).unwrap_err();
        assert!(err.0.contains("wordnet-base"), "{err}");
        assert!(err.0.contains("--wordnet DIR"), "{err}");
        assert_eq!(
            locate(Some(Path::new("/x"))),
            PathBuf::from("/x"),
            "a flag wins over the environment"
        );
    }

    /// The installed WordNet, or `None` (with one printed line) when absent.
    fn installed() -> Option<Lexicon> {
        match Lexicon::open(&locate(None)) {
            Ok(lex) => Some(lex),
            Err(e) => {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "SKIPPED wordnet test: {e}");
                None
            }
        }
    }

    #[test]
    fn the_installed_wordnet_gives_many_plain_words_in_file_order() {
        let Some(lex) = installed() else { return };
        assert!(lex.version().starts_with("WordNet 3"), "{}", lex.version());
        assert!(lex.nouns("noun.animal").len() >= 60);
        assert!(lex.nouns("noun.artifact").len() >= 400);
        assert!(lex.nouns("noun.nothing").is_empty());
        assert!(lex.adjectives().len() >= 800);
        assert!(lex.verbs().iter().filter(|v| v.transitive).count() >= 500);
        assert!(lex.verbs().iter().filter(|v| v.intransitive).count() >= 200);
        let animals = lex.nouns("noun.animal");
        assert!(animals.iter().any(|w| w == "dog"));
        let people = lex.nouns("noun.person");
        assert!(people.iter().any(|w| w == "nurse"));
        assert!(!people.iter().any(|w| w == "holmes"), "a name");
        assert!(animals.windows(2).all(|w| w[0] < w[1]), "alphabetical");
        assert!(animals.iter().all(|w| plain(w)));
        assert!(
            !lex.adjectives().iter().any(|a| a == "former"),
            "attributive only"
        );
        assert!(lex.verbs().iter().any(|v| v.lemma == "gulp"));
        assert!(!lex.verbs().iter().any(|v| v.lemma == "glom"), "rare");
        assert!(lex.verbs().iter().all(|v| v.lemma != "be"));
        assert_eq!(lex, Lexicon::open(&locate(None)).expect("reads again"));
    }
}

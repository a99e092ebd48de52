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
//! No word that could not be published is kept: a lemma is left out of every
//! list when any of its senses, in any part of speech, is marked offensive
//! by WordNet itself or is on our own short list ([`Lexicon::offensive`]).
//! Nouns whose form is plural (`glasses`, `oxen`, `cattle`) are left out too,
//! so every noun takes a singular verb.
//!
//! WordNet is read at run time, never shipped: [`locate`] finds it from a
//! flag, `$ENTAIL_WORDNET` or `/usr/share/wordnet`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where WordNet is found when no directory is given and `$ENTAIL_WORDNET`
/// is unset: Debian's `wordnet-base`.
pub(crate) const DEFAULT_DIR: &str = "/usr/share/wordnet";

/// Noun categories whose nouns can be "somebody" in a verb frame.
pub(crate) const SOMEBODY: [&str; 2] = ["noun.person", "noun.animal"];

/// Noun categories of things, nouns that can be "something" in a verb frame.
pub(crate) const SOMETHING: [&str; 9] = [
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
/// of one part of speech, to count as common (2 keeps `gulp`, tagged 8
/// times as a verb, and drops `glom`, tagged once).
pub(crate) const MIN_TAGGED: u64 = 2;

/// Noun categories of groups, which can be "somebody" too (`committee`,
/// `family`): the widest subjects ([`Words::any_subjects`]).
pub(crate) const GROUPS: [&str; 1] = ["noun.group"];

/// Noun categories of abstract things (acts, ideas, feelings, states…):
/// with [`SOMETHING`] and events, the widest objects ([`Words::any_objects`]).
/// Not `noun.time`, whose `then` and `now` read as adverbs.
pub(crate) const ABSTRACT: [&str; 11] = [
    "noun.act",
    "noun.attribute",
    "noun.cognition",
    "noun.feeling",
    "noun.motive",
    "noun.phenomenon",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
];

/// Words of the usage-domain synsets whose members cannot be published:
/// a sense that points there (WordNet's `;u` pointer, listed on the domain
/// as `-u`) is a slur, a disparaging term or an obscenity. "Slang" and
/// "colloquialism" are not among them: they tag hundreds of senses of plain
/// words (`cat`, `ice`, `cool`), and their offensive members are also in
/// one of these domains or say so in their gloss.
const OFFENSIVE_DOMAINS: [&str; 6] = [
    "disparagement",
    "derogation",
    "ethnic_slur",
    "obscenity",
    "vulgarism",
    "profanity",
];

/// Register words of a gloss that calls its *word* offensive, as in
/// "offensive term for", "obscene terms for", "derogatory name for".
const OFFENSIVE_REGISTERS: [&str; 11] = [
    "offensive",
    "derogatory",
    "disparaging",
    "obscene",
    "vulgar",
    "contemptuous",
    "insulting",
    "pejorative",
    "uncomplimentary",
    "coarse",
    "abusive",
];

/// Other phrases by which a gloss says its word is offensive.
const OFFENSIVE_PHRASES: [&str; 16] = [
    // Profanity: the senses WordNet glosses as expletives ("expletives
    // used informally as intensifiers": damn, goddamned, blasted; "used as
    // expletives"; "(British informal expletive)").
    "expletives used",
    "used as expletives",
    "used as an expletive",
    "informal expletive",
    "ethnic slur",
    "racial slur",
    "considered offensive",
    "regarded as offensive",
    "term of abuse",
    "terms of abuse",
    "(offensive",
    "(derogatory",
    "(disparaging",
    "(vulgar",
    "(obscene",
    "(ethnic slur",
];

/// Our own list of words WordNet does not mark but no benchmark should
/// print (slurs, sexual and vulgar terms, insults for people), found by
/// reading what the generators emit; one lemma a line, `#` comments.
const OWN_OFFENSIVE: &str = include_str!("offensive.txt");

/// Our own list of plural nouns WordNet's morphology does not reveal
/// (`cattle`, `bacteria`, `clothes`); same format.
const OWN_PLURAL: &str = include_str!("plural.txt");

/// The lemmas of one of our word lists.
fn list(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
}

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
pub(crate) struct Verb {
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
pub(crate) fn third_person(lemma: &str) -> String {
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
        && !lemma.ends_with("oo")
    {
        format!("{lemma}es")
    } else {
        format!("{lemma}s")
    }
}

/// The common words of one WordNet installation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lexicon {
    version: String,
    nouns: BTreeMap<&'static str, Vec<String>>,
    adjectives: Vec<String>,
    verbs: Vec<Verb>,
    offensive: BTreeSet<String>,
}

/// Why WordNet could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Error(String);

/// The WordNet directory to read: `flag` when given, else
/// `$ENTAIL_WORDNET`, else [`DEFAULT_DIR`].
pub(crate) fn locate(flag: Option<&Path>) -> PathBuf {
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
/// their markers (`former(a)`), its pointers, its verb frame numbers and
/// its gloss.
struct Synset<'a> {
    lex_file: usize,
    words: Vec<&'a str>,
    pointers: Vec<Pointer<'a>>,
    frames: Vec<u32>,
    gloss: &'a str,
}

/// A pointer of a synset: its symbol (`@`, `;u`, `-u`), its target and the
/// target word's number (0 when it points at the whole synset).
struct Pointer<'a> {
    symbol: &'a str,
    offset: u64,
    pos: &'a str,
    target_word: usize,
}

/// A word of a synset as a lemma: lower case, without its marker
/// (`Former(a)` is `former`).
fn lemma_of(word: &str) -> String {
    word.split('(').next().unwrap_or(word).to_ascii_lowercase()
}

fn synset(data: &str, offset: u64) -> Option<Synset<'_>> {
    synset_line(data.get(usize::try_from(offset).ok()?..)?.lines().next()?)
}

fn synset_line(line: &str) -> Option<Synset<'_>> {
    let (head, gloss) = line.split_once(" | ").unwrap_or((line, ""));
    let fields: Vec<&str> = head.split_whitespace().collect();
    let lex_file: usize = fields.get(1)?.parse().ok()?;
    let words_n = usize::from_str_radix(fields.get(3)?, 16).ok()?;
    let words: Vec<&str> = (0..words_n)
        .filter_map(|i| fields.get(4 + 2 * i).copied())
        .collect();
    let at = 4 + 2 * words_n;
    let pointers_n: usize = fields.get(at)?.parse().ok()?;
    let pointers = (0..pointers_n)
        .filter_map(|i| {
            let f = fields.get(at + 1 + 4 * i..at + 5 + 4 * i)?;
            Some(Pointer {
                symbol: f[0],
                offset: f[1].parse().ok()?,
                pos: f[2],
                target_word: usize::from_str_radix(f[3].get(2..)?, 16).ok()?,
            })
        })
        .collect();
    let at = at + 1 + 4 * pointers_n;
    let frames = match fields.get(at).and_then(|n| n.parse::<usize>().ok()) {
        Some(n) => (0..n)
            .filter_map(|i| fields.get(at + 2 + 3 * i)?.parse().ok())
            .collect(),
        None => Vec::new(),
    };
    Some(Synset {
        lex_file,
        words,
        pointers,
        frames,
        gloss: gloss.trim_end(),
    })
}

/// Whether a gloss calls its word offensive: a register word (one of
/// [`OFFENSIVE_REGISTERS`]) before "term(s)/name(s)/word(s)/expression(s)
/// for" or "... of address" or "... used", "slang for", or one of
/// [`OFFENSIVE_PHRASES`]. Only the definition is read, not the quoted
/// examples after it; "an abusive word or phrase" defines a concept and
/// does not mark its word.
fn gloss_marks_offensive(gloss: &str) -> bool {
    let definition = gloss.split("; \"").next().unwrap_or(gloss);
    // Most glosses hold none of the words: skip them without allocating.
    let cue = definition.contains("slur")
        || definition.contains("abuse")
        || definition.contains("expletive")
        || OFFENSIVE_REGISTERS
            .iter()
            .any(|r| definition.contains(&r[1..]));
    if !cue {
        return false;
    }
    let definition = definition.to_ascii_lowercase();
    if OFFENSIVE_PHRASES.iter().any(|p| definition.contains(p)) {
        return true;
    }
    let mut words: Vec<&str> = definition
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    // Windows of four see a phrase that ends the definition.
    words.push("");
    let noun = |w: &str| {
        matches!(
            w,
            "term" | "terms" | "name" | "names" | "word" | "words" | "expression" | "expressions"
        )
    };
    words.windows(4).any(|w| {
        OFFENSIVE_REGISTERS.contains(&w[0])
            && ((noun(w[1]) && (matches!(w[2], "for" | "used") || w[2..] == ["of", "address"]))
                || (w[1] == "slang" && w[2] == "for"))
    })
}

/// The lemmas of the four `data.*` texts that cannot be published: every
/// word of a synset marked by [`OFFENSIVE_DOMAINS`] (the word the pointer
/// names, or all of them) or whose gloss says so
/// ([`gloss_marks_offensive`]), and our own list. Lower case, with
/// WordNet's underscores.
fn offensive_lemmas(data: &[&str]) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = list(OWN_OFFENSIVE).map(str::to_string).collect();
    let text_of = |pos: &str| match pos {
        "n" => Some(data[0]),
        "v" => Some(data[1]),
        "a" | "s" => Some(data[2]),
        "r" => Some(data[3]),
        _ => None,
    };
    for text in data {
        for line in text.lines().filter(|l| !l.starts_with(' ')) {
            let Some(s) = synset_line(line) else { continue };
            if gloss_marks_offensive(s.gloss) {
                out.extend(s.words.iter().map(|w| lemma_of(w)));
            }
            let domain = s
                .words
                .iter()
                .any(|w| OFFENSIVE_DOMAINS.contains(&lemma_of(w).as_str()));
            if !domain {
                continue;
            }
            // The domain lists its members with `-u` pointers.
            for p in s.pointers.iter().filter(|p| p.symbol == "-u") {
                let Some(member) = text_of(p.pos).and_then(|t| synset(t, p.offset)) else {
                    continue;
                };
                match p.target_word {
                    0 => out.extend(member.words.iter().map(|w| lemma_of(w))),
                    k => out.extend(member.words.get(k - 1).map(|w| lemma_of(w))),
                }
            }
        }
    }
    out
}

/// Whether the noun `lemma` has a plural form, so that it would need a
/// plural verb: an inflected form in `noun.exc` (`oxen`, `larvae`), a
/// regular plural of another noun (`glasses` of `glass`, `cows` of `cow`;
/// not words in `-ss`, `-us`, `-is`, whose `s` is their own), or on our
/// own list (`cattle`). A singular noun wrongly taken is only left out.
fn plural_noun(lemma: &str, nouns: &BTreeSet<&str>, irregular: &BTreeSet<&str>) -> bool {
    if irregular.contains(lemma) || list(OWN_PLURAL).any(|w| w == lemma) {
        return true;
    }
    if !lemma.ends_with('s') || ["ss", "us", "is"].iter().any(|e| lemma.ends_with(e)) {
        return false;
    }
    let singular = |stem: &str, add: &str| {
        let base = format!("{stem}{add}");
        base.len() >= 3 && nouns.contains(base.as_str())
    };
    let s = &lemma[..lemma.len() - 1];
    singular(s, "")
        || ["ses", "xes", "zes", "ches", "shes"]
            .iter()
            .any(|e| lemma.ends_with(e) && singular(&lemma[..lemma.len() - 2], ""))
        || lemma
            .strip_suffix("ies")
            .is_some_and(|stem| singular(stem, "y"))
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
                     $ENTAIL_WORDNET at a directory holding WordNet 3's index.*, data.*, noun.exc and cntlist.rev files",
                    path.display()
                ))
            })
        };
        let counts_text = read("cntlist.rev")?;
        let counts = tag_counts(&counts_text);
        let common =
            |pos: char, lemma: &str| counts.get(&(pos, lemma)).is_some_and(|&n| n >= MIN_TAGGED);
        let data_noun = read("data.noun")?;
        let data_verb = read("data.verb")?;
        let data_adj = read("data.adj")?;
        let data_adv = read("data.adv")?;
        let offensive = offensive_lemmas(&[&data_noun, &data_verb, &data_adj, &data_adv]);
        let usable = |lemma: &str| !offensive.contains(lemma);
        let index_noun = read("index.noun")?;
        let noun_lemmas: BTreeSet<&str> = index_noun
            .lines()
            .filter(|l| !l.starts_with(' '))
            .filter_map(|l| l.split(' ').next())
            .collect();
        let noun_exc = read("noun.exc")?;
        let irregular: BTreeSet<&str> = noun_exc
            .lines()
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                let (form, base) = (f.next()?, f.next()?);
                (form != base).then_some(form)
            })
            .collect();
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
        for line in index_noun.lines() {
            let entry = index_entry(line).filter(|e| {
                common('n', e.0) && usable(e.0) && !plural_noun(e.0, &noun_lemmas, &irregular)
            });
            if let Some((lemma, first)) = entry {
                // `holmes` is `Holmes` in the synset: a name, left out.
                if let Some(s) = synset(&data_noun, first).filter(|s| s.words.contains(&lemma)) {
                    if let Some(&cat) = LEX_FILES.get(s.lex_file) {
                        nouns.entry(cat).or_default().push(lemma.to_string());
                    }
                }
            }
        }
        let mut adjectives = Vec::new();
        for line in read("index.adj")?.lines() {
            if let Some((lemma, first)) =
                index_entry(line).filter(|e| common('a', e.0) && usable(e.0))
            {
                // Attributive-only words (`former(a)`) cannot follow "is".
                let predicative = synset(&data_adj, first)
                    .is_some_and(|s| s.lex_file == 0 && s.words.contains(&lemma));
                if predicative {
                    adjectives.push(lemma.to_string());
                }
            }
        }
        let mut verbs = Vec::new();
        for line in read("index.verb")?.lines() {
            if let Some((lemma, first)) =
                index_entry(line).filter(|e| common('v', e.0) && usable(e.0))
            {
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
            offensive,
        })
    }

    /// The database's version, as its licence header states it (`WordNet 3.0`).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The common nouns whose most frequent sense is filed under `category`
    /// (`noun.animal`, `noun.artifact`, …), alphabetically; empty for an
    /// unknown category.
    pub(crate) fn nouns(&self, category: &str) -> &[String] {
        self.nouns.get(category).map_or(&[], Vec::as_slice)
    }

    /// The noun categories with their noun counts, in name order.
    #[cfg(test)]
    fn noun_categories(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        self.nouns.iter().map(|(c, n)| (*c, n.len()))
    }

    /// Common adjectives that can follow "is" (`adj.all`, not attributive-only).
    pub(crate) fn adjectives(&self) -> &[String] {
        &self.adjectives
    }

    /// Common verbs with a person-subject frame, intransitive or transitive.
    pub(crate) fn verbs(&self) -> &[Verb] {
        &self.verbs
    }

    /// The lemmas left out because they cannot be published (lower case,
    /// multi-word lemmas with underscores): those WordNet marks offensive
    /// in any sense and our own list. No list of this lexicon holds one.
    pub fn offensive(&self) -> &BTreeSet<String> {
        &self.offensive
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
    /// People, animals and groups ([`GROUPS`]), for a generator that wants
    /// the widest vocabulary (DivLogicEval's).
    pub any_subjects: Vec<&'l str>,
    /// Things, events and abstractions ([`ABSTRACT`]), likewise.
    pub any_objects: Vec<&'l str>,
    /// The lemmas left out ([`Lexicon::offensive`]), which two words drawn
    /// apart can still make (`yellow` + `woman`).
    offensive: &'l BTreeSet<String>,
}

impl<'l> Words<'l> {
    /// Whether the words `first second` in a row are a lemma left out
    /// (`yellow woman`), which a sentence must not say.
    pub(crate) fn offensive_pair(&self, first: &str, second: &str) -> bool {
        self.offensive.contains(&format!("{first}_{second}"))
    }

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
            any_subjects: nouns(&[&SOMEBODY[..], &GROUPS[..]].concat()),
            any_objects: nouns(&[&SOMETHING[..], &["noun.event"], &ABSTRACT[..]].concat()),
            offensive: lex.offensive(),
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
        let forms: Vec<String> = ["swim", "watch", "carry", "play", "go", "fix", "wash", "woo"]
            .iter()
            .map(|v| third_person(v))
            .collect();
        assert_eq!(
            forms,
            ["swims", "watches", "carries", "plays", "goes", "fixes", "washes", "woos"]
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

    #[test]
    fn offensive_lemmas_and_plural_nouns_are_left_out() {
        let Some(lex) = installed() else { return };
        let offensive = lex.offensive();
        // Marked by WordNet: the ethnic-slur and disparagement domains
        // (`boy` through one sense), obscenities, and glosses ("offensive
        // term for", "obscene terms for"); our own list (`whore`).
        for word in [
            "nigger",
            "spade",
            "boy",
            "kike",
            "wop",
            "pansy",
            "queer",
            "cock",
            "prick",
            "fuck",
            "shit",
            "pussy",
            "colored",
            "oriental",
            "hillbilly",
            "whore",
            "negro",
            // Profanity: glossed as expletives by WordNet (`infernal`,
            // `jiggered`), or on our list (`damn`, `goddamned`, `testicle`).
            "infernal",
            "jiggered",
            "damn",
            "goddamned",
            "testicle",
        ] {
            assert!(offensive.contains(word), "{word} is not left out");
        }
        // Plain words, also those with a slang or colloquial sense.
        for word in [
            "dog", "nurse", "lantern", "cat", "ice", "cool", "name", "bristle",
        ] {
            assert!(!offensive.contains(word), "{word} is left out");
        }
        let mut all: Vec<&str> = lex.adjectives().iter().map(String::as_str).collect();
        all.extend(lex.verbs().iter().map(|v| v.lemma.as_str()));
        let nouns: Vec<&str> = lex
            .noun_categories()
            .flat_map(|(c, _)| lex.nouns(c))
            .map(String::as_str)
            .collect();
        all.extend(&nouns);
        assert!(all.iter().all(|w| !offensive.contains(*w)));
        for plural in ["cows", "glasses", "oxen", "cattle", "pants", "bacteria"] {
            assert!(
                !nouns.contains(&plural),
                "{plural} is a noun of the lexicon"
            );
        }
        for singular in ["cow", "glass", "news", "nurse"] {
            assert!(nouns.contains(&singular), "{singular} is missing");
        }
    }

    #[test]
    fn glosses_that_call_their_word_offensive_are_recognised() {
        for gloss in [
            "(ethnic slur) offensive term for a person of Italian descent",
            "obscene terms for female genitals",
            "uncomplimentary terms for a policeman",
            "a United States term for Blacks that is now considered offensive",
            "vulgar slang for anus",
            "insulting terms of address for people who are stupid",
            "expletives used informally as intensifiers; \"he's a blasted idiot\"",
            "used as expletives; \"oh, damn (or goddamn)!\"",
            "(British informal expletive) surprised; \"Well I'm jiggered!\"",
        ] {
            assert!(gloss_marks_offensive(gloss), "{gloss}");
        }
        for gloss in [
            "a defamatory or abusive word or phrase",
            "a stiff fiber (coarse hair or filament); natural or synthetic",
            "an offensive move in a sport or game; \"an offensive term for X\"",
            "female of any member of the dog family",
        ] {
            assert!(!gloss_marks_offensive(gloss), "{gloss}");
        }
    }
}

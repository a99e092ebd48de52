//! DivLogicEval-style multiple-choice questions whose answers are decided by
//! the truth-table engine, and the PartialCircular metric to score them.
//!
//! A question's content is a few premises over `A`..`H`, each shaped like the
//! antecedent of one of the paper's three inference schemes
//! (`content::Scheme`), sampled by the paper's Algorithm 1
//! (`content::sample_content`). The candidate answers (every literal and every
//! implication between literals of the content's less used variables) are
//! split by [`crate::truth`] into those the content entails and those it does
//! not; entailed candidates that already follow from one premise are dropped,
//! so a correct answer always combines at least two premises. From the two
//! groups come three question types ([`QuestionType`]). The four options of a
//! question share one surface form (`content::Shape`), so no form cue points
//! at the answer. Every option's verdict is recomputed with truth tables and
//! written out with the question. The English is built from WordNet words
//! (`language`).
//!
//! Item `i` of a run with seed `s` depends only on `item_rng(s, i)`
//! and the WordNet files, so the same seed gives byte-identical output.

mod content;
mod language;
mod reward;
mod score;
#[cfg(test)]
mod tests;

pub use reward::{gold_answer, rewards, Reward};
pub use score::{score, Answer, Report, ScoreConfig};

use crate::gen::wordnet::Words;
use crate::gen::wordnet::{self, Lexicon};
use crate::gen::{item_rng, write_in_order, Progress, Shard};
use crate::syntax::prover9::Formula;
use crate::truth::{Models, TruthError, TruthTable};
use content::{pick, sample_premises, Literal, Premise, Scheme, Statement, VARIABLES};
use language::Renderer;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;

/// The three kinds of question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum QuestionType {
    /// "3c1e": three options are not entailed by the content, one is (the answer).
    #[serde(rename = "3c1e")]
    OneEntailed,
    /// "3e1c": three options are entailed, one is not (the answer).
    #[serde(rename = "3e1c")]
    OneNotEntailed,
    /// "missing": the content lacks one premise needed for the conclusion;
    /// the answer is a premise that restores the entailment (the removed
    /// one or one of its scheme), the only option that does.
    #[serde(rename = "missing")]
    MissingPremise,
}

impl QuestionType {
    /// Every type, in the order `mixed` runs cycle through them.
    pub const ALL: [QuestionType; 3] = [
        QuestionType::OneEntailed,
        QuestionType::OneNotEntailed,
        QuestionType::MissingPremise,
    ];

    /// The fewest premises a content of this type can have (the removed
    /// premise of a missing-premise question counted): 3 for 3c1e and
    /// missing premises, 4 for 3e1c, where Algorithm 1 draws 2 to `n + 1`. A 3e1c question needs three
    /// entailed options that each need two premises, of one shape, whose
    /// variables the content mentions as often as the answer's; a
    /// missing-premise question needs three premises of the removed one's
    /// scheme whose "if" and "then" parts relate to the shown premises and
    /// to the conclusion as the removed one's do; and a 3c1e question needs
    /// distractors whose sentences the premises mention in the roles an
    /// entailed option's are (see [`pick_answer`]): of two premises, the
    /// options that need both chain through their shared sentence and no
    /// option of their shape and roles fails to. No content of two premises
    /// allows any of the three (a test runs all 810 of them, up to
    /// renaming). A 3e1c question needs 4: its answer must also be
    /// mentioned together by as many premises as each entailed option (see
    /// [`cooccurrence`]), and with three premises none was found (50,000
    /// contents tried for each of several items and seeds).
    pub fn min_premises(self) -> usize {
        match self {
            QuestionType::OneNotEntailed => 4,
            _ => 3,
        }
    }

    /// The name used on the command line and in the JSON `type` field.
    pub fn name(self) -> &'static str {
        match self {
            QuestionType::OneEntailed => "3c1e",
            QuestionType::OneNotEntailed => "3e1c",
            QuestionType::MissingPremise => "missing",
        }
    }
}

/// Which types a run produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeChoice {
    /// Only this type.
    Only(QuestionType),
    /// Item `i` gets `QuestionType::ALL[i % 3]`, so the types are balanced.
    Mixed,
}

impl TypeChoice {
    /// The type of item `index`.
    pub(crate) fn for_item(self, index: u64) -> QuestionType {
        match self {
            TypeChoice::Only(t) => t,
            TypeChoice::Mixed => QuestionType::ALL[(index % 3) as usize],
        }
    }
}

/// What to generate.
#[derive(Debug, Clone)]
pub struct Config {
    /// Question types.
    pub types: TypeChoice,
    /// Number of questions (before rotation).
    pub count: u64,
    /// Run seed.
    pub seed: u64,
    /// Emit the four circular rotations of each question instead of one.
    pub rotations: bool,
    /// The paper's `n` (Algorithm 1): a content has 3 (3e1c: 4) to `n + 1` premises
    /// (Algorithm 1 draws 2 to `n + 1`: see [`QuestionType::min_premises`]),
    /// and no variable occurs in more than `n` of them. 2 to 11.
    pub n: usize,
    /// The WordNet directory the sentences' words come from; `None` for
    /// `$ENTAIL_WORDNET`, else `/usr/share/wordnet`.
    pub wordnet: Option<PathBuf>,
    /// Which part of the run: a block of the question indices (see [`Shard`]).
    pub shard: Shard,
    /// Worker threads; the output does not depend on it.
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            types: TypeChoice::Mixed,
            count: 100,
            seed: 0,
            rotations: false,
            n: 4,
            wordnet: None,
            shard: Shard::WHOLE,
            threads: 1,
        }
    }
}

/// A statement as the question shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// Prover9 syntax over atoms `A`..`H`.
    pub symbolic: String,
    /// English.
    pub text: String,
}

/// The premises of a question, and for missing-premise questions the conclusion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Content {
    /// Each premise in Prover9 syntax.
    pub symbolic: Vec<String>,
    /// The premises in English, one sentence each, in the same order.
    pub text: String,
    /// The sentence each variable `A`..`H` stands for, in that order; a
    /// negated variable reads "… is not …", "… does not …" or "it is not the
    /// case that …". Empty when read from a file written before it existed.
    #[serde(default)]
    pub atoms: Vec<String>,
    /// The conclusion the content should reach (missing-premise questions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conclusion: Option<Shown>,
}

/// One multiple-choice question, one JSONL line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// `divlogic-SEED-INDEX`, plus `-rK` for rotation `K`.
    pub id: String,
    /// The question type.
    #[serde(rename = "type")]
    pub kind: QuestionType,
    /// The premises (and conclusion).
    pub content: Content,
    /// The question asked, by type (for missing premises, it names the
    /// conclusion). Empty when read from a file written before it existed.
    #[serde(default)]
    pub question: String,
    /// Four options.
    pub options: Vec<Shown>,
    /// Index of the correct option.
    pub answer: usize,
    /// The run seed; with the index in `id` it reproduces the question.
    pub seed: u64,
    /// The solver's verdict per option: does the content entail the option
    /// (3c1e, 3e1c), or do the content and the option together entail the
    /// conclusion (missing)?
    pub verdicts: Vec<bool>,
    /// The whole zero-shot prompt, as the paper's evaluation lays it out:
    /// the answer format, the content, the question and the lettered
    /// options. Empty when read from a file written before it existed.
    #[serde(default)]
    pub prompt: String,
}

impl QuestionType {
    /// What a question of this type asks, about `conclusion` for a missing
    /// premise.
    fn stem(self, conclusion: Option<&str>) -> String {
        match self {
            QuestionType::OneEntailed => {
                "Taking the statements above as true, which conclusion must also be true?".into()
            }
            QuestionType::OneNotEntailed => {
                "Taking the statements above as true, which conclusion does not necessarily follow?"
                    .into()
            }
            QuestionType::MissingPremise => format!(
                "Which statement, added to those above, would make this conclusion follow: {}",
                conclusion.unwrap_or_default()
            ),
        }
    }
}

/// The prompt of a question whose content reads `content`, asking
/// `question` with `options` in this order.
fn prompt(content: &str, question: &str, options: &[Shown]) -> String {
    let mut out = format!(
        "Answer with one line of the form 'Answer: <A/B/C/D>', without explanation.\n\n{content}\n\n{question}\n"
    );
    for (letter, option) in ['A', 'B', 'C', 'D'].iter().zip(options) {
        out.push_str(&format!("\n{letter}. {}", option.text));
    }
    out
}

/// Why generation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The configuration cannot work.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// WordNet could not be read or lacks words.
    #[error("{0}")]
    Lexicon(String),
    /// No question of the type was found in the attempt budget.
    #[error("no {kind} question found for item {index} after {MAX_ATTEMPTS} attempts")]
    Exhausted {
        /// Type name.
        kind: &'static str,
        /// Item index.
        index: u64,
    },
    /// The truth-table engine refused a formula (a bug: all are propositional).
    #[error("truth tables: {0}")]
    Truth(#[from] TruthError),
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Io(#[from] std::io::Error),
}

/// Counts of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Questions generated.
    pub questions: u64,
    /// JSONL records written (four per question with rotations).
    pub records: u64,
    /// The WordNet the words came from (`WordNet 3.0`): the output depends on it.
    pub lexicon: String,
}

/// Content samples tried per question before giving up: a guard against
/// configurations that cannot work. Some draws are rare: with the fewest
/// premises a 3e1c question takes some hundreds of contents, and 2,000
/// failed once in 100,000 questions (seed 2026, item 35179). An item that
/// succeeds sooner is unchanged by the bound.
pub(crate) const MAX_ATTEMPTS: usize = 50_000;

/// The number of options per question.
pub(crate) const OPTIONS: usize = 4;

/// Writes the questions of `config.shard`'s block of the question indices
/// `0..config.count` (all of them for the whole run; times four records with
/// rotations) as JSONL to `out`, using `config.threads` worker threads, in
/// index order as they are made (so memory stays flat for any count);
/// output is identical for any thread count. `progress` is called with the
/// number of questions written.
pub fn generate(config: &Config, out: &mut dyn Write, progress: Progress) -> Result<Stats, Error> {
    validate(config)?;
    let lex = Lexicon::open(&wordnet::locate(config.wordnet.as_deref()))
        .map_err(|e| Error::Lexicon(e.to_string()))?;
    let words = Words::new(&lex).map_err(Error::Lexicon)?;
    let items = config.shard.range(config.count);
    write_in_order(
        items.clone(),
        config.threads,
        out,
        progress,
        |index, buf| {
            for record in item_records(config, &words, index)? {
                serde_json::to_writer(&mut *buf, &record).map_err(std::io::Error::from)?;
                buf.push(b'\n');
            }
            Ok(())
        },
        || Error::Config("a worker thread panicked".into()),
    )?;
    out.flush()?;
    let questions = items.end - items.start;
    Ok(Stats {
        questions,
        records: questions * if config.rotations { OPTIONS as u64 } else { 1 },
        lexicon: lex.version().to_string(),
    })
}

fn validate(config: &Config) -> Result<(), Error> {
    // n = 1 leaves no variable used more than 0 and fewer than n times, so
    // no candidate answers; above 11, 12 or more premises leave too few
    // non-entailed options.
    if !(2..=11).contains(&config.n) {
        return Err(Error::Config(format!(
            "n is {}; it must be between 2 and 11",
            config.n
        )));
    }
    Ok(())
}

/// Question `index` of a run: depends only on the seed, the index, the
/// config and the words. The number of premises `l` is drawn once,
/// uniformly over the counts a question admits (`3..=n+1`: see
/// [`QuestionType::min_premises`]), and each attempt fills `l` premises by Algorithm 1 afresh until they allow a question of the
/// type. Drawing `l` per attempt instead would keep fewer short contents
/// (they allow fewer questions), and `l` would no longer be uniform.
fn question(config: &Config, words: &Words<'_>, index: u64) -> Result<Question, Error> {
    validate(config)?;
    let kind = config.types.for_item(index);
    let mut rng = item_rng(config.seed, index);
    let analysis = Analysis::new()?;
    let fewest = kind.min_premises();
    if config.n + 1 < fewest {
        return Err(Error::Config(format!(
            "n is {}; {} questions need n of at least {}",
            config.n,
            kind.name(),
            fewest - 1
        )));
    }
    let l = fewest + pick(&mut rng, config.n + 2 - fewest);
    for _ in 0..MAX_ATTEMPTS {
        let Some((premises, uses)) = sample_premises(&mut rng, config.n, l) else {
            continue;
        };
        // Appendix B: options are built over the variables x' with
        // 0 < o_k < n, the less used ones.
        let options_over: Vec<usize> = (0..VARIABLES.len())
            .filter(|&v| uses[v] > 0 && uses[v] < config.n)
            .collect();
        if let Some(symbolic) = analysis.build(kind, premises, &options_over, &mut rng)? {
            let id = format!("divlogic-{}-{index:06}", config.seed);
            return Ok(render(id, kind, config.seed, &symbolic, words, &mut rng));
        }
    }
    Err(Error::Exhausted {
        kind: kind.name(),
        index,
    })
}

/// The records item `index` of a run writes: its question, or with
/// `config.rotations` the question under each of the [`OPTIONS`] rotations.
pub(crate) fn item_records(
    config: &Config,
    words: &Words<'_>,
    index: u64,
) -> Result<Vec<Question>, Error> {
    let q = question(config, words, index)?;
    Ok(if config.rotations {
        (0..OPTIONS).map(|k| rotate(&q, k)).collect()
    } else {
        vec![q]
    })
}

/// Rotation `k` of a question: option `j` is the original option `(j + k) % 4`.
pub(crate) fn rotate(q: &Question, k: usize) -> Question {
    let k = k % OPTIONS;
    let n = q.options.len().max(1);
    let turn = |j: usize| (j + k) % n;
    let options: Vec<Shown> = (0..q.options.len())
        .map(|j| q.options[turn(j)].clone())
        .collect();
    Question {
        id: format!("{}-r{k}", q.id),
        prompt: prompt(&q.content.text, &q.question, &options),
        options,
        verdicts: (0..q.verdicts.len()).map(|j| q.verdicts[turn(j)]).collect(),
        answer: (q.answer + n - k % n) % n,
        ..q.clone()
    }
}

/// A question before it is put into words.
struct Symbolic {
    /// The premises shown (a missing-premise question lacks one).
    shown: Vec<Statement>,
    conclusion: Option<Statement>,
    options: Vec<Statement>,
    answer: usize,
    verdicts: Vec<bool>,
}

/// The truth-table view of a content: the models of each premise.
struct Analysis {
    table: TruthTable,
}

impl Analysis {
    fn new() -> Result<Analysis, Error> {
        Ok(Analysis {
            table: TruthTable::with_atoms(VARIABLES.iter().map(|v| v.to_string()).collect())?,
        })
    }

    fn models(&self, s: &Statement) -> Result<Models, Error> {
        Ok(self.table.models(&s.formula())?)
    }

    /// Tries to make a question of `kind` from this content, with options
    /// over the variables `vars`; `None` if the content does not allow one
    /// (too few candidates of a group and shape).
    fn build(
        &self,
        kind: QuestionType,
        premises: Vec<Premise>,
        vars: &[usize],
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<Symbolic>, Error> {
        let premise_models: Vec<Models> = premises
            .iter()
            .map(|p| Ok(self.table.models(&p.formula())?))
            .collect::<Result<_, Error>>()?;
        let all = premise_models
            .iter()
            .fold(self.table.all(), |acc, m| acc.and(m));
        if all.is_empty() {
            return Ok(None);
        }
        let (entailed, not_entailed) = self.split(vars, &premise_models, &all)?;
        let symbolic = match kind {
            QuestionType::OneEntailed | QuestionType::OneNotEntailed => {
                let (answer_pool, distractor_pool) = if kind == QuestionType::OneEntailed {
                    (&entailed, &not_entailed)
                } else {
                    (&not_entailed, &entailed)
                };
                // How often the content mentions each variable of an
                // option, part by part (the "if" part, then the "then"
                // part): distractors match the answer, so "the option about
                // what the content says least", or whose if part it says
                // least about, does not find it.
                let mut mentions = [0usize; VARIABLES.len()];
                for v in premises.iter().flat_map(|p| &p.vars) {
                    mentions[*v] += 1;
                }
                // And which premises mention the option's sentences
                // together ([`cooccurrence`]): an entailed option that one
                // premise gives alone is not a candidate, so without this
                // the options no premise mentions together were the
                // entailed ones (3e1c: one premise named both sentences of
                // the answer in 66% of questions, of an entailed option in
                // 13%, and a reader of that alone picked the answer 63% of
                // the time).
                // For 3e1c also the option's role ([`Roles::of_statement`]):
                // drawn by class, the answer's role still stood out among
                // the options' (the option whose "then" sentence the most
                // premises' "if" parts name was the answer in 36 of 87
                // questions where one was, seed 303, and the audit's
                // boosted role reader read +5.2 at seeds 101 and 202). A
                // 3c1e question whose options all have one role is too rare
                // (none in 50,000 contents for some items), and its roles
                // drawn by class read below chance.
                let roles = Roles::of(&premises);
                let same_role = kind == QuestionType::OneNotEntailed;
                let profile = |s: &Statement| {
                    let mut p: Vec<usize> = s.vars().iter().map(|&v| mentions[v]).collect();
                    p.extend(cooccurrence(&premises, s));
                    if same_role {
                        p.extend(roles.of_statement(s));
                    }
                    p
                };
                let Some((correct, distractors)) =
                    pick_answer(answer_pool, distractor_pool, profile, &roles, rng)
                else {
                    return Ok(None);
                };
                let (options, answer) = place(correct, distractors, rng);
                let mut verdicts = Vec::with_capacity(OPTIONS);
                for (s, _) in &options {
                    verdicts.push(all.is_subset(&self.models(s)?));
                }
                let shown = premises.into_iter().map(Statement::Premise).collect();
                Symbolic {
                    shown,
                    conclusion: None,
                    options: options.into_iter().map(|(s, _)| s).collect(),
                    answer,
                    verdicts,
                }
            }
            QuestionType::MissingPremise => {
                match self.missing(premises, &premise_models, vars, &entailed, &all, rng)? {
                    Some(s) => s,
                    None => return Ok(None),
                }
            }
        };
        Ok(Some(symbolic))
    }

    /// Splits the candidates over `vars` into (entailed and needing two or
    /// more premises, not entailed), each with its models, in a fixed order.
    #[allow(clippy::type_complexity)]
    fn split(
        &self,
        vars: &[usize],
        premise_models: &[Models],
        all: &Models,
    ) -> Result<(Vec<(Statement, Models)>, Vec<(Statement, Models)>), Error> {
        let (mut entailed, mut not_entailed) = (Vec::new(), Vec::new());
        for candidate in candidates(vars) {
            let m = self.models(&candidate)?;
            if !all.is_subset(&m) {
                not_entailed.push((candidate, m));
            } else if !premise_models.iter().any(|p| p.is_subset(&m)) {
                entailed.push((candidate, m));
            }
        }
        Ok((entailed, not_entailed))
    }

    /// A missing-premise question: a conclusion entailed by the content, one
    /// premise it needs (removed), a premise of the removed one's scheme
    /// and profile that restores the conclusion (the answer: the removed
    /// premise or another), and three distractors of that scheme and
    /// profile over `vars` that neither the content nor the shown premises
    /// with the answer entail and that do not restore the conclusion. The
    /// answer and the distractors are drawn by role as [`pick_answer`]'s
    /// are, roles counted in the shown premises. The paper draws them
    /// from the non-entailment group (literals and implications); a
    /// premise-shaped answer among three plain implications would stand out
    /// by its form, so ours share the answer's scheme.
    fn missing(
        &self,
        premises: Vec<Premise>,
        premise_models: &[Models],
        vars: &[usize],
        entailed: &[(Statement, Models)],
        all: &Models,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<Symbolic>, Error> {
        let without = |skip: usize| {
            premise_models
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .fold(self.table.all(), |acc, (_, m)| acc.and(m))
        };
        for conclusion_at in shuffled(entailed.len(), rng) {
            let (conclusion, conclusion_models) = &entailed[conclusion_at];
            let necessary: Vec<usize> = (0..premises.len())
                .filter(|&i| !without(i).is_subset(conclusion_models))
                .collect();
            if necessary.is_empty() {
                continue;
            }
            let removed = necessary[pick(rng, necessary.len())];
            let rest = without(removed);
            // How each part of an option relates to the question's text:
            // for every variable of its "if" part and of its "then" part,
            // whether the shown premises never mention it and whether the
            // conclusion does. Distractors match the answer part by part,
            // so neither "the option about something new" nor "the option
            // whose if part names the conclusion least" finds it.
            let shown: Vec<usize> = premises
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != removed)
                .flat_map(|(_, p)| p.vars.iter().copied())
                .collect();
            let in_conclusion = conclusion.vars();
            let scheme = premises[removed].scheme;
            let relations = |vars: &[usize]| {
                let relation = |v: &usize| (!shown.contains(v), in_conclusion.contains(v));
                // The last variable is the consequent; the antecedent's
                // are unordered for the symmetric schemes.
                let (consequent, antecedent) = vars.split_last().unwrap_or((&0, &[]));
                let mut antecedent: Vec<(bool, bool)> = antecedent.iter().map(relation).collect();
                antecedent.sort_unstable();
                (antecedent, relation(consequent))
            };
            let shown_premises: Vec<Premise> = premises
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != removed)
                .map(|(_, p)| p.clone())
                .collect();
            // With which shown premises mention the option's sentences
            // together (see `cooccurrence`), and how each shown premise
            // meets the option and the conclusion (see `meetings`).
            let profile = |s: &Statement| {
                (
                    relations(&s.vars()),
                    cooccurrence(&shown_premises, s),
                    meetings(&shown_premises, conclusion, s),
                )
            };
            let answer_profile = profile(&Statement::Premise(premises[removed].clone()));
            // Of the removed premise's scheme and profile: those that
            // restore the conclusion (the removed premise among them) and
            // those that fail to, neither entailed by the full content.
            let (mut restoring, mut failing) = (Vec::new(), Vec::new());
            for p in premises_over(scheme, vars) {
                if profile(&p) != answer_profile {
                    continue;
                }
                let m = self.models(&p)?;
                if rest.and(&m).is_subset(conclusion_models) {
                    if !m.is_subset(conclusion_models) {
                        restoring.push((p, m));
                    }
                } else if !all.is_subset(&m) {
                    failing.push((p, m));
                }
            }
            let roles = Roles::of(&shown_premises);
            let (restoring, failing) = roles.mixed(&restoring, &failing);
            let mut found = None;
            for at in class_order(&restoring.1, rng) {
                let (answer, answer_models) = &restoring.0[at];
                // With the answer in, no distractor may follow.
                let with_answer = rest.and(answer_models);
                let (pool, classes): (Vec<(Statement, Models)>, Vec<usize>) = failing
                    .0
                    .iter()
                    .zip(&failing.1)
                    .filter(|((_, m), _)| !with_answer.is_subset(m))
                    .map(|(d, c)| (d.clone(), *c))
                    .unzip();
                let chosen = choose_symmetric(answer, answer_models, &pool, &classes, rng);
                if chosen.len() == OPTIONS - 1 {
                    found = Some(((answer.clone(), answer_models.clone()), chosen));
                    break;
                }
            }
            let Some((correct, distractors)) = found else {
                continue;
            };
            let (options, answer) = place(correct, distractors, rng);
            let verdicts = options
                .iter()
                .map(|(_, m)| rest.and(m).is_subset(conclusion_models))
                .collect();
            let shown = shown_premises.into_iter().map(Statement::Premise).collect();
            return Ok(Some(Symbolic {
                shown,
                conclusion: Some(conclusion.clone()),
                options: options.into_iter().map(|(s, _)| s).collect(),
                answer,
                verdicts,
            }));
        }
        Ok(None)
    }
}

/// The answer and three distractors of `distractors` of the same
/// [`content::Shape`] and `profile`, no two logically equivalent, their
/// parts as [`choose_symmetric`] wants them; `None` if no answer has enough.
///
/// Options of one shape and profile still differ in their [`Roles`], and
/// an entailed implication mostly goes the way the premises go while a
/// non-entailed one mostly does not, so the answer was the option whose
/// roles went the premises' way. Here only roles that both an answer and a
/// distractor have are used ([`Roles::mixed`]), and the answer's role and
/// each distractor's are drawn uniformly among them ([`class_order`]), so
/// the answer's role is drawn as a distractor's is.
#[allow(clippy::type_complexity)]
fn pick_answer(
    answers: &[(Statement, Models)],
    distractors: &[(Statement, Models)],
    profile: impl Fn(&Statement) -> Vec<usize>,
    roles: &Roles,
    rng: &mut ChaCha8Rng,
) -> Option<((Statement, Models), Vec<(Statement, Models)>)> {
    let group = |s: &Statement| (s.shape(), profile(s));
    let ((answers, answer_classes), (distractors, distractor_classes)) =
        roles.mixed_by(answers, distractors, &group);
    for at in class_order(&answer_classes, rng) {
        let correct = &answers[at];
        let wanted = group(&correct.0);
        let (same, classes): (Vec<(Statement, Models)>, Vec<usize>) = distractors
            .iter()
            .zip(&distractor_classes)
            .filter(|((s, _), _)| group(s) == wanted)
            .map(|(d, c)| (d.clone(), *c))
            .unzip();
        let chosen = choose_symmetric(&correct.0, &correct.1, &same, &classes, rng);
        if chosen.len() == OPTIONS - 1 {
            return Some((correct.clone(), chosen));
        }
    }
    None
}

/// How the premises mention each variable: in how many "if" parts, and in
/// how many as the "then" part. An option's role is what the content says
/// of its parts' sentences that way, the figure a reader who follows the
/// premises' direction (without chaining them) sees.
struct Roles {
    ifs: [usize; VARIABLES.len()],
    thens: [usize; VARIABLES.len()],
}

/// A pool of statements with their models, and each one's class (an index
/// into a sorted list of roles, the same for both pools of a question).
type Classed = (Vec<(Statement, Models)>, Vec<usize>);

impl Roles {
    fn of(premises: &[Premise]) -> Roles {
        let (mut ifs, mut thens) = ([0; VARIABLES.len()], [0; VARIABLES.len()]);
        for p in premises {
            let (last, first) = p.vars.split_last().unwrap_or((&0, &[]));
            for &v in first {
                ifs[v] += 1;
            }
            thens[*last] += 1;
        }
        Roles { ifs, thens }
    }

    /// A statement's role: for its "if" part's variables (summed) and its
    /// "then" part's, how many premises' "if" parts and "then" parts
    /// mention them.
    fn of_statement(&self, s: &Statement) -> [usize; 4] {
        let (first, last) = parts(s);
        let sum = |counts: &[usize; VARIABLES.len()]| first.iter().map(|&v| counts[v]).sum();
        [
            sum(&self.ifs),
            sum(&self.thens),
            self.ifs[last],
            self.thens[last],
        ]
    }

    /// [`Roles::mixed_by`] for pools of one group.
    fn mixed(
        &self,
        answers: &[(Statement, Models)],
        distractors: &[(Statement, Models)],
    ) -> (Classed, Classed) {
        self.mixed_by(answers, distractors, &|_: &Statement| ())
    }

    /// The members of `answers` and of `distractors` whose role, within
    /// their `group`, both pools have, each with its class (group and
    /// role).
    fn mixed_by<G: Ord>(
        &self,
        answers: &[(Statement, Models)],
        distractors: &[(Statement, Models)],
        group: &dyn Fn(&Statement) -> G,
    ) -> (Classed, Classed) {
        let key = |s: &Statement| (group(s), self.of_statement(s));
        let answer_keys: Vec<_> = answers.iter().map(|(s, _)| key(s)).collect();
        let distractor_keys: Vec<_> = distractors.iter().map(|(s, _)| key(s)).collect();
        let in_answers: BTreeSet<&(G, [usize; 4])> = answer_keys.iter().collect();
        let both: Vec<&(G, [usize; 4])> = distractor_keys
            .iter()
            .filter(|k| in_answers.contains(k))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let keep = |pool: &[(Statement, Models)], keys: &[(G, [usize; 4])]| -> Classed {
            pool.iter()
                .zip(keys)
                .filter_map(|(s, k)| both.binary_search(&k).ok().map(|c| (s.clone(), c)))
                .unzip()
        };
        (
            keep(answers, &answer_keys),
            keep(distractors, &distractor_keys),
        )
    }
}

/// An order of the indices of `classes` (each element's class): each next
/// element is of a class drawn uniformly among those with elements left,
/// then drawn uniformly within it, so a large class is not drawn more often.
fn class_order(classes: &[usize], rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, &c) in classes.iter().enumerate() {
        members.entry(c).or_default().push(i);
    }
    let mut open: Vec<Vec<usize>> = members.into_values().collect();
    let mut order = Vec::with_capacity(classes.len());
    while !open.is_empty() {
        let c = pick(rng, open.len());
        let m = pick(rng, open[c].len());
        order.push(open[c].swap_remove(m));
        if open[c].is_empty() {
            open.swap_remove(c);
        }
    }
    order
}

/// Every premise of `scheme` over distinct variables of `vars`; for the
/// symmetric schemes the first two in increasing order.
fn premises_over(scheme: Scheme, vars: &[usize]) -> Vec<Statement> {
    let mut out = Vec::new();
    for &a in vars {
        for &b in vars {
            if a == b {
                continue;
            }
            if scheme == Scheme::Implication {
                out.push(Statement::Premise(Premise {
                    scheme,
                    vars: vec![a, b],
                }));
                continue;
            }
            for &c in vars {
                if a < b && c != a && c != b {
                    out.push(Statement::Premise(Premise {
                        scheme,
                        vars: vec![a, b, c],
                    }));
                }
            }
        }
    }
    out
}

/// The candidate answers over `vars`: every literal, then every implication
/// between literals of two different variables.
fn candidates(vars: &[usize]) -> Vec<Statement> {
    let literals: Vec<Literal> = vars
        .iter()
        .flat_map(|&var| [true, false].map(|positive| Literal { var, positive }))
        .collect();
    let mut out: Vec<Statement> = literals.iter().map(|&l| Statement::Literal(l)).collect();
    for &a in &literals {
        for &b in &literals {
            if a.var != b.var {
                out.push(Statement::Implication(a, b));
            }
        }
    }
    out
}

/// `0..n` in random order (Fisher–Yates on the item stream).
fn shuffled(n: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, pick(rng, i + 1));
    }
    order
}

/// A statement's "if" part (its antecedent's variables, sorted; none for a
/// literal) and its "then" part (the consequent's variable).
fn parts(s: &Statement) -> (Vec<usize>, usize) {
    match s {
        Statement::Literal(l) => (Vec::new(), l.var),
        Statement::Implication(a, b) => (vec![a.var], b.var),
        Statement::Premise(p) => {
            let (last, first) = p.vars.split_last().unwrap_or((&0, &[]));
            let mut first = first.to_vec();
            first.sort_unstable();
            (first, *last)
        }
    }
}

/// Which of `premises` mention a statement's sentences together: how many
/// mention all of them, and for a statement of three sentences (a premise)
/// how many mention each pair of them (its two "if" sentences, then each
/// "if" sentence with the "then" sentence, those two sorted). The options
/// of a question agree on these figures, so a reader who only looks at
/// which premises name which sentences learns nothing of the answer.
fn cooccurrence(premises: &[Premise], s: &Statement) -> Vec<usize> {
    let (first, last) = parts(s);
    let count = |vars: &[usize]| {
        premises
            .iter()
            .filter(|p| vars.iter().all(|v| p.vars.contains(v)))
            .count()
    };
    let mut all = first.clone();
    all.push(last);
    let mut out = vec![count(&all)];
    if let [a, b] = first[..] {
        let mut with_then = [count(&[a, last]), count(&[b, last])];
        with_then.sort_unstable();
        out.extend([count(&[a, b]), with_then[0], with_then[1]]);
    }
    out
}

/// How each of `premises` meets a missing-premise option `s` and the
/// `conclusion`: per premise, how many of the option's sentences it names
/// and how many of the conclusion's, sorted (premise order carries
/// nothing). The answer restores the chain from the premises to the
/// conclusion, so without this more premises named both the answer's
/// sentences and the conclusion's than a distractor's: of 600 questions
/// (seed 101) the option most such premises named, where one did, was the
/// answer in 87 of 99, and the audit's co-occurrence readers picked the
/// answer 20 to 22 points above chance.
fn meetings(premises: &[Premise], conclusion: &Statement, s: &Statement) -> Vec<[usize; 2]> {
    let (option, within) = (s.vars(), conclusion.vars());
    let mut out: Vec<[usize; 2]> = premises
        .iter()
        .map(|p| {
            let count = |vars: &[usize]| vars.iter().filter(|v| p.vars.contains(v)).count();
            [count(&option), count(&within)]
        })
        .collect();
    out.sort_unstable();
    out
}

/// Random orders of the pool [`choose_symmetric`] tries.
const SYMMETRIC_TRIES: usize = 8;

/// Three random members of `pool` to stand beside `answer` (whose models
/// are `answer_models`), no two of the four logically equivalent, so the
/// options are four different claims; fewer if none such were found. They
/// are tried in [`class_order`] of `classes` (each member's class).
///
/// The four options are alike as a set: their "if" parts are all the same
/// or all different, and so are their "then" parts, and every option's
/// variables are mentioned by as many of the options (the same counts,
/// variable by variable). Otherwise one option could be the odd one out
/// (the only one with its "then" part, or whose sentences the other
/// options mention least), and the answer was that more often than a
/// distractor: the distractors of one scheme and relation to the question
/// tend to share parts the answer lacks (the odd "then" part was the answer
/// of 47% of missing-premise questions and the odd "if" part of 45% of
/// 3e1c ones, where a quarter is chance). Which of the three patterns (one
/// "if" part, one "then" part, or all different) is tried first is drawn.
fn choose_symmetric(
    answer: &Statement,
    answer_models: &Models,
    pool: &[(Statement, Models)],
    classes: &[usize],
    rng: &mut ChaCha8Rng,
) -> Vec<(Statement, Models)> {
    let (answer_if, answer_then) = parts(answer);
    let mut best: Vec<(Statement, Models)> = Vec::new();
    for _ in 0..SYMMETRIC_TRIES {
        let order = class_order(classes, rng);
        for pattern in shuffled(3, rng) {
            let mut chosen: Vec<(Statement, Models)> = Vec::with_capacity(OPTIONS - 1);
            let mut ifs = vec![answer_if.clone()];
            let mut thens = vec![answer_then];
            for &i in &order {
                if chosen.len() == OPTIONS - 1 {
                    break;
                }
                let (s, m) = &pool[i];
                if m == answer_models || chosen.iter().any(|(_, c)| c == m) {
                    continue;
                }
                let (p_if, p_then) = parts(s);
                let fits = match pattern {
                    0 => p_if == answer_if && !thens.contains(&p_then),
                    1 => p_then == answer_then && !ifs.contains(&p_if),
                    _ => !ifs.contains(&p_if) && !thens.contains(&p_then),
                };
                if fits {
                    chosen.push((s.clone(), m.clone()));
                    ifs.push(p_if);
                    thens.push(p_then);
                }
            }
            if chosen.len() == OPTIONS - 1 && evenly_shared(answer, &chosen) {
                return chosen;
            }
            if chosen.len() > best.len() && chosen.len() < OPTIONS - 1 {
                best = chosen;
            }
        }
    }
    best
}

/// Whether every option's variables are mentioned by as many of the
/// options as any other option's (the same sorted counts).
fn evenly_shared(answer: &Statement, distractors: &[(Statement, Models)]) -> bool {
    let options: Vec<Vec<usize>> = std::iter::once(answer)
        .chain(distractors.iter().map(|(s, _)| s))
        .map(|s| {
            let mut vars = s.vars();
            vars.sort_unstable();
            vars.dedup();
            vars
        })
        .collect();
    let mut mentions = [0usize; VARIABLES.len()];
    for v in options.iter().flatten() {
        mentions[*v] += 1;
    }
    let counts = |vars: &Vec<usize>| {
        let mut c: Vec<usize> = vars.iter().map(|&v| mentions[v]).collect();
        c.sort_unstable();
        c
    };
    options.iter().all(|o| counts(o) == counts(&options[0]))
}

/// The options with the correct one at a random position, and that position.
fn place(
    correct: (Statement, Models),
    distractors: Vec<(Statement, Models)>,
    rng: &mut ChaCha8Rng,
) -> (Vec<(Statement, Models)>, usize) {
    let answer = pick(rng, OPTIONS);
    let mut options = distractors;
    options.insert(answer.min(options.len()), correct);
    (options, answer)
}

/// Puts a symbolic question into Prover9 syntax and English.
fn render(
    id: String,
    kind: QuestionType,
    seed: u64,
    q: &Symbolic,
    words: &Words<'_>,
    rng: &mut ChaCha8Rng,
) -> Question {
    let renderer = Renderer::new(words, rng);
    let mut show = |s: &Statement| Shown {
        symbolic: prover9(&s.formula()),
        text: renderer.statement(s, rng),
    };
    let shown: Vec<Shown> = q.shown.iter().map(&mut show).collect();
    let conclusion = q.conclusion.as_ref().map(&mut show);
    let options: Vec<Shown> = q.options.iter().map(&mut show).collect();
    let text = shown
        .iter()
        .map(|s| s.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let question = kind.stem(conclusion.as_ref().map(|c| c.text.as_str()));
    Question {
        id,
        kind,
        prompt: prompt(&text, &question, &options),
        question,
        content: Content {
            symbolic: shown.iter().map(|s| s.symbolic.clone()).collect(),
            text,
            atoms: renderer
                .atoms()
                .iter()
                .map(|a| a.positive.clone())
                .collect(),
            conclusion,
        },
        options,
        answer: q.answer,
        seed,
        verdicts: q.verdicts.clone(),
    }
}

/// A formula in our Prover9 syntax.
fn prover9(f: &Formula) -> String {
    f.to_string()
}

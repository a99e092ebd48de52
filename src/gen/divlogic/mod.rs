//! DivLogicEval-style multiple-choice questions whose answers are decided by
//! the truth-table engine, and the PartialCircular metric to score them.
//!
//! A question's content is a few premises over `A`..`H`, each shaped like the
//! antecedent of one of the paper's three inference schemes
//! (`content::Scheme`). The candidate answers (every literal and every
//! implication between literals of the content's variables) are split by
//! [`crate::truth`] into those the content entails and those it does not;
//! entailed candidates that already follow from one premise are dropped, so a
//! correct answer always combines at least two premises. From the two groups
//! come three question types ([`QuestionType`]). Every option's verdict is
//! recomputed with truth tables and written out with the question.
//!
//! Item `i` of a run with seed `s` depends only on [`crate::gen::item_rng`]`(s, i)`,
//! so the same seed gives byte-identical output.

mod content;
mod language;
mod score;
#[cfg(test)]
mod tests;

pub use score::{score, Answer, Report, ScoreConfig};

use crate::gen::{item_rng, Progress, Shard};
use crate::syntax::prover9::Formula;
use crate::truth::{Models, TruthError, TruthTable};
use content::{pick, sample_content, Literal, Premise, Statement, VARIABLES};
use language::{Lexicon, Renderer};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::io::Write;

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
    /// the answer is that premise, the only option that restores the entailment.
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
    /// Fewest premises in a content (at least 3, so a missing-premise
    /// question still shows two).
    pub min_premises: usize,
    /// Most premises in a content; the `n` of the sampling's cap.
    pub max_premises: usize,
    /// Which part of the run: a block of the question indices (see [`Shard`]).
    pub shard: Shard,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            types: TypeChoice::Mixed,
            count: 100,
            seed: 0,
            rotations: false,
            min_premises: 3,
            max_premises: 5,
            shard: Shard::WHOLE,
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
}

/// Content samples tried per question before giving up. With the default
/// 3..=5 premises a question needs 1.2 samples on average (3e1c: 2.2, at
/// most 14 in 6,000 questions), so this bound is only a guard against
/// configurations that cannot work.
pub(crate) const MAX_ATTEMPTS: usize = 2000;

/// The number of options per question.
pub(crate) const OPTIONS: usize = 4;

/// Writes the questions of `config.shard`'s block of the question indices
/// `0..config.count` (all of them for the whole run; times four records with
/// rotations) as JSONL to `out`, calling `progress(1)` after each question.
pub fn generate(config: &Config, out: &mut dyn Write, progress: Progress) -> Result<Stats, Error> {
    validate(config)?;
    let mut stats = Stats::default();
    for index in config.shard.range(config.count) {
        let records = item_records(config, index)?;
        for record in &records {
            serde_json::to_writer(&mut *out, record).map_err(std::io::Error::from)?;
            out.write_all(b"\n")?;
        }
        stats.questions += 1;
        stats.records += records.len() as u64;
        progress(1);
    }
    out.flush()?;
    Ok(stats)
}

fn validate(config: &Config) -> Result<(), Error> {
    if config.min_premises < 3 {
        return Err(Error::Config("min premises must be at least 3".into()));
    }
    if config.max_premises < config.min_premises {
        return Err(Error::Config("max premises is below min premises".into()));
    }
    if config.max_premises > 12 {
        return Err(Error::Config(
            "max premises above 12 leaves too few non-entailed options".into(),
        ));
    }
    Ok(())
}

/// Question `index` of a run: depends only on the seed, the index and the config.
fn question(config: &Config, index: u64) -> Result<Question, Error> {
    validate(config)?;
    let kind = config.types.for_item(index);
    let mut rng = item_rng(config.seed, index);
    let analysis = Analysis::new()?;
    for _ in 0..MAX_ATTEMPTS {
        let n = config.min_premises + pick(&mut rng, config.max_premises - config.min_premises + 1);
        let Some(premises) = sample_content(&mut rng, n) else {
            continue;
        };
        if let Some(symbolic) = analysis.build(kind, premises, &mut rng)? {
            let id = format!("divlogic-{}-{index:06}", config.seed);
            return Ok(render(
                id,
                kind,
                config.seed,
                &symbolic,
                Lexicon::builtin(),
                &mut rng,
            ));
        }
    }
    Err(Error::Exhausted {
        kind: kind.name(),
        index,
    })
}

/// The records item `index` of a run writes: its question, or with
/// `config.rotations` the question under each of the [`OPTIONS`] rotations.
pub(crate) fn item_records(config: &Config, index: u64) -> Result<Vec<Question>, Error> {
    let q = question(config, index)?;
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

    /// Tries to make a question of `kind` from this content; `None` if the
    /// content does not allow one (too few candidates of a group).
    fn build(
        &self,
        kind: QuestionType,
        premises: Vec<Premise>,
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
        let (entailed, not_entailed) = self.split(&premises, &premise_models, &all)?;
        let symbolic = match kind {
            QuestionType::OneEntailed | QuestionType::OneNotEntailed => {
                let (answer_pool, distractor_pool) = if kind == QuestionType::OneEntailed {
                    (&entailed, &not_entailed)
                } else {
                    (&not_entailed, &entailed)
                };
                let Some(correct) = choose_distinct(answer_pool, 1, &[], rng).pop() else {
                    return Ok(None);
                };
                // Distractors of the same kind as the answer (literal or
                // implication), so the form of an option says nothing about
                // whether it is right.
                let same_kind: Vec<(Statement, Models)> = distractor_pool
                    .iter()
                    .filter(|(s, _)| is_literal(s) == is_literal(&correct.0))
                    .cloned()
                    .collect();
                let distractors = choose_distinct(&same_kind, OPTIONS - 1, &[], rng);
                if distractors.len() < OPTIONS - 1 {
                    return Ok(None);
                }
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
                match self.missing(premises, &premise_models, &entailed, &not_entailed, rng) {
                    Some(s) => s,
                    None => return Ok(None),
                }
            }
        };
        Ok(Some(symbolic))
    }

    /// Splits the candidates into (entailed and needing two or more premises,
    /// not entailed), each with its models, in a fixed order.
    #[allow(clippy::type_complexity)]
    fn split(
        &self,
        premises: &[Premise],
        premise_models: &[Models],
        all: &Models,
    ) -> Result<(Vec<(Statement, Models)>, Vec<(Statement, Models)>), Error> {
        let mut vars: Vec<usize> = premises
            .iter()
            .flat_map(|p| p.vars.iter().copied())
            .collect();
        vars.sort_unstable();
        vars.dedup();
        let (mut entailed, mut not_entailed) = (Vec::new(), Vec::new());
        for candidate in candidates(&vars) {
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
    /// premise it needs (removed, and the answer), and three distractors from
    /// the non-entailed group that do not restore the conclusion.
    fn missing(
        &self,
        premises: Vec<Premise>,
        premise_models: &[Models],
        entailed: &[(Statement, Models)],
        not_entailed: &[(Statement, Models)],
        rng: &mut ChaCha8Rng,
    ) -> Option<Symbolic> {
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
            let failing: Vec<(Statement, Models)> = not_entailed
                .iter()
                // Implications only: the answer is a premise, never a bare
                // literal, so literal distractors would be ruled out by form.
                .filter(|(s, m)| !is_literal(s) && !rest.and(m).is_subset(conclusion_models))
                .cloned()
                .collect();
            let removed_models = premise_models[removed].clone();
            let distractors = choose_distinct(
                &failing,
                OPTIONS - 1,
                std::slice::from_ref(&removed_models),
                rng,
            );
            if distractors.len() < OPTIONS - 1 {
                continue;
            }
            let correct = (
                Statement::Premise(premises[removed].clone()),
                removed_models,
            );
            let (options, answer) = place(correct, distractors, rng);
            let verdicts = options
                .iter()
                .map(|(_, m)| rest.and(m).is_subset(conclusion_models))
                .collect();
            let shown = premises
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != removed)
                .map(|(_, p)| Statement::Premise(p.clone()))
                .collect();
            return Some(Symbolic {
                shown,
                conclusion: Some(conclusion.clone()),
                options: options.into_iter().map(|(s, _)| s).collect(),
                answer,
                verdicts,
            });
        }
        None
    }
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

fn is_literal(s: &Statement) -> bool {
    matches!(s, Statement::Literal(_))
}

/// `0..n` in random order (Fisher–Yates on the item stream).
fn shuffled(n: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, pick(rng, i + 1));
    }
    order
}

/// Up to `k` random members of `pool` no two of which (nor any of `avoid`)
/// are logically equivalent, so the options are really four different claims.
fn choose_distinct(
    pool: &[(Statement, Models)],
    k: usize,
    avoid: &[Models],
    rng: &mut ChaCha8Rng,
) -> Vec<(Statement, Models)> {
    let mut chosen: Vec<(Statement, Models)> = Vec::with_capacity(k);
    for i in shuffled(pool.len(), rng) {
        if chosen.len() == k {
            break;
        }
        let m = &pool[i].1;
        if avoid
            .iter()
            .chain(chosen.iter().map(|(_, c)| c))
            .all(|c| c != m)
        {
            chosen.push(pool[i].clone());
        }
    }
    chosen
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
    lexicon: &Lexicon,
    rng: &mut ChaCha8Rng,
) -> Question {
    let renderer = Renderer::new(lexicon, rng);
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

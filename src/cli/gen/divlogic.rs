//! `entail gen divlogic`.

use super::super::{choice, Outcome};
use entail::gen::divlogic::{self, Config, Error};
use entail::picture::counted;
use std::path::PathBuf;

/// Arguments of `entail gen divlogic`.
#[derive(clap::Args)]
#[command(after_help = "\
Each question's content is 3 to n+1 premises (4 to n+1 for 3e1c; a missing-premise
question's removed one counted; the number drawn uniformly per question; the paper
draws 2 to n+1, but no content of two premises allows a question of any type, nor of
three a 3e1c question whose options are alike as below) over A..H, shaped like the
antecedents of A->B, -(A&B)->C and (A|B)->C, drawn by the paper's Algorithm 1 (Eq. 3
weights). Truth tables split the candidate answers (literals and implications between
literals) into entailed and not entailed; entailed answers that follow from a single
premise are dropped. The four options of a question share one form (connectives and
negations), and which premises mention their sentences together is the same for all
four, so it says nothing of the answer.
The solver's verdict for every option is written in the `verdicts` field.

Words: each variable stands for a sentence built from WordNet words (a person or an
animal with a property, an action, or an action on a thing), read at run time from
--wordnet DIR, else $ENTAIL_WORDNET, else /usr/share/wordnet (Debian's wordnet-base,
which scripts/install-deps installs). `content.atoms` lists the sentence of each of A..H.

Types:
  3c1e     three options are not entailed, one is (the answer)
  3e1c     three options are entailed, one is not (the answer)
  missing  one premise was removed; the answer is the option that restores the conclusion
  mixed    3c1e, 3e1c, missing in turn

Examples:
  entail gen divlogic --type mixed --count 1000 --seed 7 --output questions.jsonl
  entail gen divlogic --type missing --count 5 --seed 1 --output -
  entail gen divlogic --count 200 --rotations --output rotated.jsonl
      (4 lines per question, ids ending in -r0..-r3, for `entail score divlogic`)
  entail gen divlogic --count 1000 --seed 7 --shard 0/4 -o questions.0.jsonl
      (shards 0/4 .. 3/4, concatenated in order, equal the unsharded file)")]
pub struct Args {
    /// Question type: 3c1e, 3e1c, missing or mixed.
    #[arg(long = "type", value_enum, default_value_t = choice::QuestionType::Mixed)]
    kind: choice::QuestionType,
    /// Number of questions.
    #[arg(long, default_value_t = 100)]
    count: u64,
    /// Emit the four circular rotations of every question (ids QID-r0..QID-r3).
    #[arg(long)]
    rotations: bool,
    /// The paper's n (Algorithm 1): each content has 3 (3e1c: 4) to n+1 premises, and no
    /// variable occurs in more than n of them (2 to 11).
    #[arg(long, default_value_t = 4)]
    n: usize,
    /// The WordNet directory (index.*, data.*, cntlist.rev); default
    /// $ENTAIL_WORDNET, else /usr/share/wordnet.
    #[arg(long, value_name = "DIR")]
    wordnet: Option<PathBuf>,
    #[command(flatten)]
    records: super::Records,
}

impl Args {
    fn config(&self) -> Config {
        Config {
            types: self.kind.into(),
            count: self.count,
            seed: self.records.run.seed,
            rotations: self.rotations,
            n: self.n,
            wordnet: self.wordnet.clone(),
            shard: self.records.run.shard,
            threads: self.records.run.threads(),
        }
    }
}

/// Runs `entail gen divlogic`. Questions are written in order as they are
/// made, so memory stays flat for any `--count` and `| head` stops the run
/// early.
pub fn run(args: Args) -> Outcome {
    let config = args.config();
    args.records.generate(
        "divlogic",
        (config.shard.range(config.count).count() as u64, "questions"),
        |out, progress| divlogic::generate(&config, out, progress),
        |stats| {
            format!(
                "{}, {} ({})",
                counted(stats.questions, "questions"),
                counted(stats.records, "records"),
                stats.lexicon
            )
        },
        |e| match e {
            Error::Io(e) => Ok(e),
            e => Err(e),
        },
    )
}

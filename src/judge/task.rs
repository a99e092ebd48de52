//! Turning a task record into what the engine loads: the background clauses
//! (labels removed, grouped by predicate) and the examples. Renamings of
//! the constants are drawn from it in [`super::rename`].

use super::rename::Fnv;
use super::JudgeError;
use crate::prolog::native::FastMap;
use crate::prolog::{Arg, Background, Clause, ClausesBuilder};
use crate::syntax::prolog::{read_program, Reading, Sentence, Term};
use std::collections::{BTreeMap, BTreeSet};

/// Whether an example is labelled positive or negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// A fact of the positive label predicate (e.g. `eastbound`).
    Pos,
    /// A fact of the negative label predicate (e.g. `westbound`).
    Neg,
}

/// One labelled example of a task.
#[derive(Debug, Clone)]
pub struct Example {
    /// The label fact as written in the task, e.g. `eastbound(train0)`.
    pub atom: String,
    /// Its label.
    pub label: Label,
    /// The example's atom under the positive label, with the task's own
    /// names, e.g. `eastbound(train0)`.
    pub goal: Term,
}

impl Example {
    /// The goal the judge runs for this example, for every engine, given
    /// its atom under the naming being scored ([`Example::goal`], renamed
    /// or not). The reference collects `setof(E, ((pos(E), eastbound(E)) ;
    /// (neg(E), \+ eastbound(E))), Es)`: a positive example enumerates
    /// *all* solutions (a later clause that loops or raises spoils the
    /// answer), a negative one stops at the first. So a positive example
    /// runs `findall(x, Atom, [_|_])` and a negative one `Atom`; either
    /// succeeds exactly when the answer predicts the positive label. (No
    /// named variable: a scryer worker runs all goals in one query.)
    pub fn run_goal(&self, atom: Term) -> Term {
        match self.label {
            Label::Neg => atom,
            Label::Pos => {
                let anonymous = || Term::Var("_".into());
                let non_empty = Term::Compound(".".into(), vec![anonymous(), anonymous()]);
                Term::Compound(
                    "findall".into(),
                    vec![Term::Atom("x".into()), atom, non_empty],
                )
            }
        }
    }
}

/// A parsed, split and printed task, shared by all scorings of it.
#[derive(Debug)]
pub struct TaskProgram {
    /// The positive label predicate's name: the predicate the hypothesis defines.
    pub positive: String,
    /// The negative label predicate's name.
    pub negative: String,
    /// Arity of the label predicates, taken from the examples.
    pub arity: usize,
    /// The examples in task order.
    pub examples: Vec<Example>,
    /// Background with the task's own names, as the task orders it.
    pub background_original: Background,
    /// A hash of the whole program, the same on every platform: what
    /// renamings are keyed by.
    pub content_hash: u64,
    /// Name/arity of every background predicate.
    pub background_predicates: BTreeSet<(String, usize)>,
    /// For each background predicate defined by flat ground facts alone:
    /// how many facts, and the most that share one first argument (what a
    /// call with its first argument bound may enumerate under SWI's
    /// first-argument index). The same under every renaming.
    pub fact_counts: BTreeMap<(String, usize), (u64, u64)>,
}

impl TaskProgram {
    /// Parses `program` (a validation program) with the given label names.
    pub fn parse(program: &str, positive: &str, negative: &str) -> Result<TaskProgram, JudgeError> {
        // The reader goes on to the end, so a syntax error anywhere is
        // reported before any other problem, as when reading first.
        let mut unreadable = None;
        // Background facts take about 25 bytes each.
        let task = TaskProgram::from_readings(positive, negative, program.len() / 25, |add| {
            unreadable = read_program(program, &mut |reading| add(reading)).err();
        });
        match unreadable {
            Some(e) => Err(JudgeError::Task(format!("validation program: {e}"))),
            None => task,
        }
    }

    /// A validation program handed over sentence by sentence, with the
    /// given label names: `read` gives each [`Reading`] to its argument in
    /// order, as the reader does, and about `facts` of them are facts.
    /// Generators hand over the facts they would print, without printing
    /// and reading them back.
    pub fn from_readings(
        positive: &str,
        negative: &str,
        facts: usize,
        read: impl FnOnce(&mut dyn FnMut(Reading<'_, '_>)),
    ) -> Result<TaskProgram, JudgeError> {
        let mut loader = Loader::new(positive, negative, facts);
        let mut problem = None;
        read(&mut |reading| {
            if problem.is_none() {
                problem = loader.add(reading).err();
            }
        });
        match problem {
            Some(problem) => Err(problem),
            None => loader.finish(),
        }
    }
}

/// Splits a validation program, sentence by sentence, into examples and
/// background clauses grouped by predicate.
struct Loader<'l> {
    positive: &'l str,
    negative: &'l str,
    examples: Vec<Example>,
    arity: Option<usize>,
    /// Background clauses grouped by predicate, groups in order of first
    /// appearance: scryer drops earlier clauses of a discontiguous predicate.
    /// Predicate (name symbol, arity) → its group.
    group_of: FastMap<(u32, usize), usize>,
    groups: Vec<Vec<Clause>>,
    builder: ClausesBuilder,
}

impl<'l> Loader<'l> {
    /// A loader for about `clauses` clauses.
    fn new(positive: &'l str, negative: &'l str, clauses: usize) -> Loader<'l> {
        Loader {
            positive,
            negative,
            examples: Vec::new(),
            arity: None,
            group_of: FastMap::default(),
            groups: Vec::new(),
            builder: ClausesBuilder::with_capacity(clauses),
        }
    }

    fn add(&mut self, reading: Reading<'_, '_>) -> Result<(), JudgeError> {
        let (name, n) = match &reading {
            Reading::Fact { name, args, .. } => (*name, args.len()),
            Reading::Sentence(Sentence::Directive { .. }) => {
                return Err(JudgeError::Task(
                    "validation program: directives are not supported".into(),
                ))
            }
            Reading::Sentence(sentence) => {
                let Some(head) = sentence.head() else {
                    return Ok(());
                };
                head.name_arity().ok_or_else(|| {
                    JudgeError::Task(format!(
                        "validation program: clause head {head} is not callable"
                    ))
                })?
            }
        };
        let label = if name == self.positive {
            Some(Label::Pos)
        } else if name == self.negative {
            Some(Label::Neg)
        } else {
            None
        };
        if let Some(label) = label {
            let head = match reading {
                Reading::Fact { name, args, .. } => {
                    Term::Compound(name.to_string(), args.iter().map(|a| a.to_term()).collect())
                }
                Reading::Sentence(sentence) => {
                    if sentence.body().is_some() {
                        return Err(JudgeError::Task(format!(
                            "validation program: label clause {sentence} is not a fact"
                        )));
                    }
                    match sentence {
                        Sentence::Clause { term, .. } => term,
                        Sentence::Directive { goal, .. } => goal,
                    }
                }
            };
            return self.example(head, label, n);
        }
        // The predicate's name is interned before its arguments, and once:
        // a flat fact gives its name's symbol back.
        let sentence_symbol = match &reading {
            Reading::Fact { .. } => None,
            Reading::Sentence(_) => Some(self.builder.symbol(name)),
        };
        let (symbol, clause) = match reading {
            Reading::Fact { name, args, .. } => {
                let clause = self.builder.fact(name, args);
                let symbol = match &clause {
                    Clause::Fact { name: symbol, .. } => *symbol,
                    Clause::Term(_) => self.builder.symbol(name),
                };
                (symbol, clause)
            }
            Reading::Sentence(Sentence::Clause { term, .. }) => {
                let clause = self.builder.term(term);
                (sentence_symbol.unwrap_or_default(), clause)
            }
            Reading::Sentence(Sentence::Directive { .. }) => return Ok(()),
        };
        let index = self.group(symbol, n);
        self.groups[index].push(clause);
        Ok(())
    }

    /// The group of predicate `name/n` (`name` a symbol), made when first seen.
    fn group(&mut self, name: u32, n: usize) -> usize {
        let key = (name, n);
        let groups = &mut self.groups;
        *self.group_of.entry(key).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        })
    }

    /// A label fact `head` of arity `n`.
    fn example(&mut self, head: Term, label: Label, n: usize) -> Result<(), JudgeError> {
        match self.arity {
            None => self.arity = Some(n),
            Some(a) if a != n => {
                return Err(JudgeError::Task(format!(
                    "validation program: label facts have arities {a} and {n}"
                )))
            }
            Some(_) => {}
        }
        let atom = head.to_string();
        let goal = match head {
            Term::Compound(_, args) => Term::Compound(self.positive.to_string(), args),
            _ => Term::Atom(self.positive.to_string()),
        };
        self.examples.push(Example { atom, label, goal });
        Ok(())
    }

    fn finish(self) -> Result<TaskProgram, JudgeError> {
        let (positive, negative) = (self.positive, self.negative);
        if self.examples.is_empty() {
            return Err(JudgeError::Task(format!(
                "validation program has no {positive} or {negative} facts"
            )));
        }
        // Each predicate's clauses in the order of their text, as the
        // reference loads them (it sorts the program's lines): a train's
        // cars enumerate as car0_1, car0_10, car0_11, car0_2, … and trains
        // as train0, train1, train10, …
        let mut groups = self.groups;
        for group in &mut groups {
            group.sort_by_cached_key(|clause| line_text(&self.builder, clause));
        }
        let clauses = self.builder.finish(groups.into_iter().flatten().collect());
        let background_predicates = self
            .group_of
            .into_keys()
            .map(|(name, n)| (clauses.symbol(name).to_string(), n))
            .collect();
        // Keyed by the clauses and examples: the same task gets the same
        // key, and no clause needs printing (only a scryer worker reads text).
        let mut hash = Fnv::new();
        hash.text(positive);
        hash.text(negative);
        for clause in clauses.iter() {
            hash.clause(&clauses, clause);
        }
        for example in &self.examples {
            hash.bytes(&[example.label as u8]);
            hash.term(&example.goal);
        }
        let content_hash = hash.finish();
        let fact_counts = fact_counts(&clauses);
        Ok(TaskProgram {
            positive: positive.to_string(),
            negative: negative.to_string(),
            arity: self.arity.unwrap_or(1),
            examples: self.examples,
            background_original: Background::from_clauses(content_hash, clauses),
            content_hash,
            background_predicates,
            fact_counts,
        })
    }
}

/// [`TaskProgram::fact_counts`] of `clauses`.
fn fact_counts(clauses: &crate::prolog::Clauses) -> BTreeMap<(String, usize), (u64, u64)> {
    // Per predicate: facts, and facts per first argument; `None` once a
    // clause of it is not a flat fact.
    type ByFirst = FastMap<(bool, i64), u64>;
    let mut per: BTreeMap<(String, usize), Option<(u64, ByFirst)>> = BTreeMap::new();
    for clause in clauses.iter() {
        let Some((name, arity)) = clauses.predicate(clause) else {
            continue;
        };
        let entry = per
            .entry((name.to_string(), arity))
            .or_insert_with(|| Some((0, FastMap::default())));
        match (clause, entry.as_mut()) {
            (Clause::Fact { .. }, Some((count, by_first))) => {
                *count += 1;
                let first = match clauses.args(clause).first() {
                    Some(Arg::Atom(a)) => (true, i64::from(*a)),
                    Some(Arg::Int(i)) => (false, *i),
                    None => (false, 0),
                };
                *by_first.entry(first).or_insert(0) += 1;
            }
            _ => *entry = None,
        }
    }
    per.into_iter()
        .filter_map(|(key, counts)| {
            let (count, by_first) = counts?;
            Some((key, (count, by_first.values().copied().max().unwrap_or(0))))
        })
        .collect()
}

/// A background clause as one line of program text, for ordering: flat
/// facts as `name(a,b)`, other clauses as printed.
fn line_text(builder: &ClausesBuilder, clause: &Clause) -> String {
    match clause {
        Clause::Term(term) => term.to_string(),
        Clause::Fact { name, .. } => {
            let mut text = format!("{}(", builder.name(*name));
            for (i, arg) in builder.args(clause).iter().enumerate() {
                if i > 0 {
                    text.push(',');
                }
                match *arg {
                    Arg::Atom(a) => text.push_str(builder.name(a)),
                    Arg::Int(n) => text.push_str(&n.to_string()),
                }
            }
            text.push(')');
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TaskProgram;
    use crate::judge::rename::Fnv;
    use crate::syntax::prolog::{parse_program, Reading};

    /// Validation programs of the shipped corpora, plus layouts that take
    /// the general reader (comments, rules, quoted atoms, operators).
    fn programs() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/slr");
        let mut programs = vec![
            "% c\neastbound(train0).\nhas_car(train0, car0_1).\n/* x */ car_len(car0_1, 'long').\n\
             westbound(train1).\nhas_car(train1,car1_1).\ncar_len(car1_1, - 1).\n\
             short(C) :- car_len(C, short).\nhas_car(train1, car1_2).\nwheels(car1_2, [2, 3]).\n"
                .to_string(),
        ];
        for file in ["golden.jsonl", "predictions.jsonl"] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            for line in text.lines() {
                let record: serde_json::Value = serde_json::from_str(line).unwrap();
                for key in ["validation program", "validation_program"] {
                    if let Some(program) = record.get(key).and_then(|v| v.as_str()) {
                        programs.push(program.to_string());
                    }
                }
            }
        }
        programs
    }

    /// Reading a text straight into symbols gives the task that reading it
    /// into terms gives: the same clauses, examples and content hash, and
    /// the hash is the one of the clauses as terms.
    #[test]
    fn reading_into_symbols_equals_reading_into_terms() {
        let programs = programs();
        assert!(programs.len() >= 8, "{}", programs.len());
        let mut compared = 0;
        for text in &programs {
            let direct = TaskProgram::parse(text, "eastbound", "westbound");
            let via_terms = parse_program(text)
                .map_err(|e| e.to_string())
                .and_then(|p| {
                    TaskProgram::from_readings("eastbound", "westbound", 0, |add| {
                        for sentence in p.sentences {
                            add(Reading::Sentence(sentence));
                        }
                    })
                    .map_err(|e| e.to_string())
                });
            let (direct, via_terms) = match (direct, via_terms) {
                (Ok(direct), Ok(via_terms)) => (direct, via_terms),
                (Err(a), Err(b)) => {
                    // Only unreadable programs: both fail alike.
                    assert!(a.to_string().ends_with(&b), "{a} / {b}");
                    continue;
                }
                (a, b) => panic!("{text}: {:?} / {:?}", a.err(), b.err()),
            };
            let terms = direct.background_original.terms();
            assert_eq!(terms, via_terms.background_original.terms(), "{text}");
            assert_eq!(
                direct.background_predicates,
                via_terms.background_predicates
            );
            let goals = |t: &TaskProgram| -> Vec<String> {
                t.examples
                    .iter()
                    .map(|e| format!("{} {:?} {}", e.atom, e.label, e.goal))
                    .collect()
            };
            assert_eq!(goals(&direct), goals(&via_terms));
            let mut hash = Fnv::new();
            hash.text("eastbound");
            hash.text("westbound");
            for term in &terms {
                hash.term(term);
            }
            for example in &direct.examples {
                hash.bytes(&[example.label as u8]);
                hash.term(&example.goal);
            }
            assert_eq!(direct.content_hash, hash.finish(), "{text}");
            assert_eq!(direct.content_hash, via_terms.content_hash);
            compared += 1;
        }
        assert!(compared >= 8, "{compared}");
    }
}

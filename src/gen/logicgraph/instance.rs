//! LogicGraph instances as published: `complete.json` (premises, target,
//! atom translations) and `solutions.json` (reference solutions), read into a
//! [`StepProblem`].
//!
//! By default formulas are the A-notation (`A1`, `G`): premises from `formal`
//! with Unicode connectives, steps from `conclusion` and the cited premises'
//! `prover9`. With `instantiated`, premises come from `prover9_expression` and
//! step formulas have their atoms replaced by `translations.atomic_facts`, so
//! the check sees exactly what a Prover9 pipeline would.

use super::config::Error;
use super::format::{CompleteFile, Id, Path as PathFile, UsedPremise};
use crate::prove::{Premise, ProveError, Solution, Step, StepProblem};
use crate::syntax::prover9::{parse_formula, Formula, ParseOptions, Term};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The Prover9 spelling of LogicGraph's Unicode connectives.
pub(crate) fn ascii_connectives(formal: &str) -> String {
    let mut out = String::with_capacity(formal.len() + 8);
    for c in formal.chars() {
        match c {
            '¬' => out.push('-'),
            '∧' => out.push_str(" & "),
            '∨' => out.push_str(" | "),
            '→' => out.push_str(" -> "),
            '↔' => out.push_str(" <-> "),
            other => out.push(other),
        }
    }
    out
}

/// Reads `dir/name` as the schema's type `T`; errors name the file and,
/// for JSON that does not fit, the line and column.
fn read_file<T: DeserializeOwned>(dir: &Path, name: &str) -> Result<T, ProveError> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| ProveError::new(None, format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| ProveError::invalid_json(&e).in_file(path.display().to_string()))
}

fn formula(src: &str, what: &str) -> Result<Formula, ProveError> {
    parse_formula(src, &ParseOptions::default())
        .map_err(|e| ProveError::new(None, format!("{what}: cannot parse `{src}`: {}", e.message)))
}

/// Replaces each propositional atom that has a translation by it.
fn instantiate(f: &Formula, atoms: &BTreeMap<String, Formula>) -> Formula {
    let rec = |g: &Formula| Box::new(instantiate(g, atoms));
    match f {
        Formula::Atom(Term::App(name, args)) if args.is_empty() => {
            atoms.get(name).cloned().unwrap_or_else(|| f.clone())
        }
        Formula::True | Formula::False | Formula::Atom(_) => f.clone(),
        Formula::Not(g) => Formula::Not(rec(g)),
        Formula::And(a, b) => Formula::And(rec(a), rec(b)),
        Formula::Or(a, b) => Formula::Or(rec(a), rec(b)),
        Formula::Implies(a, b) => Formula::Implies(rec(a), rec(b)),
        Formula::ImpliedBy(a, b) => Formula::ImpliedBy(rec(a), rec(b)),
        Formula::Iff(a, b) => Formula::Iff(rec(a), rec(b)),
        Formula::Quant(q, v, body) => Formula::Quant(*q, v.clone(), rec(body)),
    }
}

/// How step formulas of an instance are read: the A-notation as written, or
/// (instantiated) with each atom replaced by its `translations.atomic_facts`
/// entry. Answers to an instance are read with the instance's notation, so a
/// model's A-notation conclusions are checked against the same premises.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Notation {
    instantiated: bool,
    atoms: BTreeMap<String, Formula>,
    /// `translations.node_mappings`: each node's sentence (see [`sentence_key`])
    /// and formula, so a conclusion written in words can be read.
    sentences: BTreeMap<String, Formula>,
}

/// A sentence as looked up: trimmed, without a final period, lower case,
/// single spaces.
fn sentence_key(text: &str) -> String {
    let words: Vec<&str> = text
        .trim()
        .trim_end_matches('.')
        .split_whitespace()
        .collect();
    words.join(" ").to_lowercase()
}

impl Notation {
    /// The notation of the instance whose `complete.json` is `complete`.
    pub(crate) fn of_complete(
        complete: &CompleteFile,
        instantiated: bool,
    ) -> Result<Notation, ProveError> {
        let mut atoms = BTreeMap::new();
        if instantiated {
            for (atom, expr) in &complete.translations.atomic_facts.0 {
                atoms.insert(atom.clone(), formula(expr, &format!("atomic fact {atom}"))?);
            }
        }
        // A node whose formula does not parse is left out: it only costs the
        // lookup of its sentence, never the instance.
        let sentences = complete
            .translations
            .node_mappings
            .values()
            .filter_map(|node| {
                let f = formula(&ascii_connectives(&node.formal), "node").ok()?;
                Some((sentence_key(&node.natural), f))
            })
            .collect();
        Ok(Notation {
            instantiated,
            atoms,
            sentences,
        })
    }

    /// `f` in this notation: atoms replaced by their translations when
    /// instantiated, else unchanged. Formulas already instantiated have no
    /// bare `A1`-style atoms and pass through unchanged.
    pub fn apply(&self, f: Formula) -> Formula {
        if self.instantiated {
            instantiate(&f, &self.atoms)
        } else {
            f
        }
    }

    /// Parses a step formula written in A-notation (Unicode or Prover9
    /// connectives) and puts it in this notation.
    pub(crate) fn step_formula(&self, src: &str, what: &str) -> Result<Formula, ProveError> {
        Ok(self.apply(formula(&ascii_connectives(src), what)?))
    }

    /// A conclusion as a model writes it: a formula as for
    /// [`Notation::step_formula`], or else the sentence of one of the
    /// instance's nodes (`translations.node_mappings`), in this notation.
    pub fn conclusion(&self, src: &str, what: &str) -> Result<Formula, ProveError> {
        self.step_formula(src, what).or_else(|_| {
            self.sentences
                .get(&sentence_key(src))
                .map(|f| self.apply(f.clone()))
                .ok_or_else(|| {
                    ProveError::new(
                        None,
                        format!(
                            "{what}: `{src}` is neither a formula nor a sentence of the instance"
                        ),
                    )
                })
        })
    }
}

/// One solution of a `solutions.json`-shaped document. A solution that
/// cannot be read keeps its error, so one bad solution does not hide the
/// others (scoring counts it as answered and invalid).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ParsedSolution {
    /// The solution's `id`, or its 1-based position when it has none.
    pub id: String,
    /// Its `family_id`, when given.
    pub family: Option<String>,
    /// The solution, or why it could not be read.
    pub solution: Result<Solution, ProveError>,
}

/// Reads the solutions of a `solutions.json`-shaped document: an object
/// `{solutions: [...]}` or a bare array of solutions, each read with the
/// schema on its own, so a malformed solution is an error for it alone. Only
/// premise ids are taken from `premises_used` (the formulas quoted there are
/// ignored, so a solution cannot redefine a premise); a cited `Derived`
/// premise is resolved to the latest earlier step with the quoted
/// conclusion, and stays `Derived` (a bad reference) when there is none.
pub(crate) fn parse_solutions(
    doc: &Value,
    notation: &Notation,
) -> Result<Vec<ParsedSolution>, ProveError> {
    let list = match doc {
        Value::Array(list) => list,
        Value::Object(map) => map
            .get("solutions")
            .ok_or_else(|| ProveError::new(None, "the document has no `solutions`"))?
            .as_array()
            .ok_or_else(|| ProveError::new(None, "`solutions` is not an array"))?,
        _ => {
            return Err(ProveError::new(
                None,
                "expected an object with `solutions` or an array of solutions",
            ))
        }
    };
    Ok(list
        .iter()
        .enumerate()
        .map(|(k, raw)| {
            let read = PathFile::<UsedPremise>::deserialize(raw);
            // The id and family as given, even when the rest does not read.
            let scalar = |key: &str| {
                raw.get(key)
                    .and_then(|v| Option::<Id>::deserialize(v).ok().flatten())
                    .map(|id| id.to_string())
            };
            let id = scalar("id").unwrap_or_else(|| (k + 1).to_string());
            let solution = match read {
                Ok(path) => parse_solution(&path, &id, notation),
                Err(e) => Err(ProveError::new(None, format!("solution {id}: {e}"))),
            };
            ParsedSolution {
                family: scalar("family_id"),
                id,
                solution,
            }
        })
        .collect())
}

fn parse_solution(
    path: &PathFile<UsedPremise>,
    id: &str,
    notation: &Notation,
) -> Result<Solution, ProveError> {
    let what = format!("solution {id}");
    let mut steps: Vec<Step> = Vec::new();
    for (i, st) in path.steps.iter().enumerate() {
        let label = match st.step_number {
            Some(Id::Number(n)) => format!("S{n}"),
            _ => format!("S{}", i + 1),
        };
        let swhat = format!("{what} step {label}");
        let conclusion = notation.step_formula(&st.conclusion, &swhat)?;
        let mut from = Vec::new();
        for p in &st.premises_used {
            if p.id != "Derived" {
                from.push(p.id.clone());
                continue;
            }
            let quoted = p.prover9.as_deref().ok_or_else(|| {
                ProveError::new(
                    None,
                    format!("{swhat}: a `Derived` premise has no `prover9`"),
                )
            })?;
            let quoted = notation.step_formula(quoted, &swhat)?;
            let earlier = steps.iter().rev().find(|s| s.conclusion == quoted);
            from.push(earlier.map_or_else(|| "Derived".to_string(), |s| s.label.clone()));
        }
        steps.push(Step {
            label,
            conclusion,
            from,
            rule: st.rule_applied.clone(),
            pos: None,
        });
    }
    Ok(Solution {
        id: id.to_string(),
        steps,
    })
}

/// A LogicGraph instance with what scoring needs beyond the [`StepProblem`]:
/// the gold solutions' families and the notation answers are read in.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Instance {
    /// Premises, target and the gold solutions.
    pub problem: StepProblem,
    /// `family_id` of each gold solution, in the order of `problem.solutions`.
    pub families: Vec<Option<String>>,
    /// How step formulas of this instance are read.
    pub notation: Notation,
}

/// Whether `dir` is a LogicGraph instance directory (it holds a
/// `complete.json`).
fn is_instance_dir(dir: &Path) -> bool {
    dir.join("complete.json").is_file()
}

/// Reads the instance in `dir` with its families and notation.
pub(crate) fn load_instance(dir: &Path, instantiated: bool) -> Result<Instance, ProveError> {
    let complete: CompleteFile = read_file(dir, "complete.json")?;
    let solutions: Value = read_file(dir, "solutions.json")?;
    instance_of(&complete, &solutions, instantiated)
        .map_err(|(file, e)| e.in_file(dir.join(file).display().to_string()))
}

/// The instance of a `complete.json` and a `solutions.json` already read;
/// an error comes with the name of the file it is in.
pub(crate) fn instance_of(
    complete: &CompleteFile,
    solutions: &Value,
    instantiated: bool,
) -> Result<Instance, (&'static str, ProveError)> {
    let in_complete = |e: ProveError| ("complete.json", e);
    let in_solutions = |e: ProveError| ("solutions.json", e);

    let notation = Notation::of_complete(complete, instantiated).map_err(in_complete)?;
    // Premises and target in the notation asked for: the A-notation
    // (`formal`) or instantiated (`prover9_expression`).
    let spelling = |formal: &str, expression: &str| {
        ascii_connectives(if instantiated { expression } else { formal })
    };
    let kb = &complete.knowledge_base;
    let mut premises = Vec::new();
    for p in kb.rules.iter().chain(&kb.facts) {
        let src = spelling(&p.formal, &p.prover9_expression);
        premises.push(Premise {
            id: p.id.clone(),
            formula: formula(&src, &p.id).map_err(in_complete)?,
            pos: None,
        });
    }
    let target = &complete.target;
    let goal_src = spelling(&target.formal, &target.prover9_expression);
    let goal = formula(&goal_src, "target").map_err(in_complete)?;

    let mut gold = Vec::new();
    let mut families = Vec::new();
    for parsed in parse_solutions(solutions, &notation).map_err(in_solutions)? {
        gold.push(parsed.solution.map_err(in_solutions)?);
        families.push(parsed.family);
    }
    Ok(Instance {
        problem: StepProblem {
            premises,
            goal,
            solutions: gold,
            timeout: None,
            prolog_style_variables: false,
        },
        families,
        notation,
    })
}

/// An instance directory found under a root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceDir {
    /// The directory holding `complete.json`.
    pub path: PathBuf,
    /// The path relative to the root with `/` separators (`Small/test_1`);
    /// for a root that is itself an instance, its directory name. Answer
    /// lines name instances by it.
    pub name: String,
    /// The name of the directory's parent (`Small`, `Medium`, `Large`).
    pub tier: String,
}

/// The instances under a directory: the items that [`score`](super::score)
/// grades and [`Instances::check`] checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instances {
    /// The directory searched, as given.
    pub root: PathBuf,
    /// `root` itself when it is an instance, else every directory below it
    /// that holds a `complete.json`, sorted by name (an instance is not
    /// searched for nested instances).
    pub dirs: Vec<InstanceDir>,
}

/// Deepest directory level searched below the root; guards against symlink
/// loops.
const MAX_DEPTH: usize = 16;

impl Instances {
    /// Whether `dir` is a LogicGraph instance directory (it holds a
    /// `complete.json`).
    pub fn is_instance(dir: &Path) -> bool {
        is_instance_dir(dir)
    }

    /// Reads the instance in `dir` as a step problem. A gold solution's
    /// `Derived` premise is the latest earlier step with the conclusion it
    /// quotes; any unreadable gold solution is an error.
    pub fn load(dir: &Path, instantiated: bool) -> Result<StepProblem, ProveError> {
        load_instance(dir, instantiated).map(|i| i.problem)
    }

    /// Finds the instances under `root`.
    pub fn find(root: &Path) -> Result<Instances, Error> {
        let dirs = if is_instance_dir(root) {
            vec![InstanceDir {
                path: root.to_path_buf(),
                name: own_name(root),
                tier: parent_name(root),
            }]
        } else if root.is_dir() {
            let mut found = Vec::new();
            walk(root, root, 0, &mut found)?;
            found.sort_by(|a, b| a.name.cmp(&b.name));
            found
        } else {
            return Err(Error::Io {
                path: root.display().to_string(),
                message: "not a directory".into(),
            });
        };
        Ok(Instances {
            root: root.to_path_buf(),
            dirs,
        })
    }
}

/// The name of `dir`'s parent directory, resolving `.` and relative paths.
fn parent_name(dir: &Path) -> String {
    let resolved = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    resolved
        .parent()
        .and_then(Path::file_name)
        .map_or_else(|| "-".to_string(), |n| n.to_string_lossy().into_owned())
}

/// The directory's own name, resolving `.` and relative paths.
fn own_name(dir: &Path) -> String {
    let resolved = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    resolved.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn walk(root: &Path, dir: &Path, depth: usize, found: &mut Vec<InstanceDir>) -> Result<(), Error> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| Error::Io {
        path: dir.display().to_string(),
        message: format!("cannot read: {e}"),
    })?;
    let mut subdirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    subdirs.sort();
    for sub in subdirs {
        if is_instance_dir(&sub) {
            let relative = sub.strip_prefix(root).unwrap_or(&sub);
            let name = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            found.push(InstanceDir {
                tier: parent_name(&sub),
                path: sub,
                name,
            });
        } else {
            walk(root, &sub, depth + 1, found)?;
        }
    }
    Ok(())
}

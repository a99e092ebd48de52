//! One embedded scryer-prolog machine, with the judge's runtime loaded.
//!
//! The engine trusts its input: it is handed program text that the judge has
//! already parsed, checked and re-printed. It knows nothing about tasks or
//! scores; it loads text and runs goals under an inference limit.

use scryer_prolog::{LeafAnswer, Machine, MachineBuilder, StreamConfig, Term};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The judge's Prolog runtime (SWI compatibility predicates and the
/// evaluation driver), compiled into the binary so a worker needs no files.
pub const STDLIB: &str = include_str!("../../stdlib/judge.pl");

/// The module (stream) name background text is consulted under. Consulting
/// the same name again replaces the previous definitions.
const BACKGROUND_MODULE: &str = "judge_background";
/// The module (stream) name hypotheses are consulted under.
const HYPOTHESIS_MODULE: &str = "judge_hypothesis";

/// What running a list of goals gave.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Every goal ran to completion: `true` where it succeeded.
    Verdicts(Vec<bool>),
    /// A goal exceeded the inference limit; the verdicts of the goals run
    /// before it are kept.
    Timeout(Vec<bool>),
    /// A goal raised an exception (printed); earlier verdicts are kept.
    Error(Vec<bool>, String),
}

/// A failure of the engine itself rather than of the goals.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MachineError {
    /// Scryer panicked; the machine must not be used again.
    #[error("scryer panicked: {0}")]
    Panic(String),
    /// The engine ran out of a resource outside the driver's control.
    #[error("engine out of resources: {0}")]
    Resource(String),
    /// The driver returned something it never returns (a bug or a corrupted machine).
    #[error("unexpected answer from the engine: {0}")]
    Protocol(String),
}

/// A scryer machine with the judge runtime loaded.
pub struct ScryerMachine {
    machine: Machine,
    poisoned: bool,
}

impl ScryerMachine {
    /// Builds a machine and loads the runtime (about 100-200 ms).
    pub fn new() -> Result<ScryerMachine, MachineError> {
        let machine = guarded(|| {
            let mut machine = MachineBuilder::new()
                .with_streams(StreamConfig::in_memory())
                .build();
            machine.consult_module_string("judge_stdlib", STDLIB.to_string());
            machine
        })?;
        Ok(ScryerMachine {
            machine,
            poisoned: false,
        })
    }

    /// Whether a panic has left this machine unusable.
    pub fn is_poisoned(&self) -> bool {
        self.poisoned
    }

    /// Replaces the task background with `text` (trusted, printed clauses).
    pub fn load_background(&mut self, text: &str) -> Result<(), MachineError> {
        self.consult(BACKGROUND_MODULE, text)
    }

    /// Replaces the hypothesis with `text` (trusted, printed clauses).
    pub fn load_hypothesis(&mut self, text: &str) -> Result<(), MachineError> {
        self.consult(HYPOTHESIS_MODULE, text)
    }

    fn consult(&mut self, module: &str, text: &str) -> Result<(), MachineError> {
        self.check_usable()?;
        let machine = &mut self.machine;
        let result = guarded(AssertUnwindSafe(|| {
            machine.consult_module_string(module, text.to_string())
        }));
        self.poisoned = result.is_err();
        result
    }

    fn check_usable(&self) -> Result<(), MachineError> {
        if self.poisoned {
            return Err(MachineError::Panic(
                "machine poisoned by an earlier panic".into(),
            ));
        }
        Ok(())
    }

    /// Runs each goal (printed Prolog terms) once, under `inference_limit`
    /// inferences per goal, in one query. Stops at the first goal that runs
    /// out of inferences or raises.
    pub fn run_goals(
        &mut self,
        goals: &[String],
        inference_limit: u64,
    ) -> Result<Outcome, MachineError> {
        self.check_usable()?;
        let query = format!(
            "'$judge_eval'([{}], {}, Vs).",
            goals.join(", "),
            inference_limit
        );
        let machine = &mut self.machine;
        let answers = guarded(AssertUnwindSafe(|| {
            machine.run_query(query).take(1).collect::<Vec<_>>()
        }));
        let answers = match answers {
            Ok(a) => a,
            Err(e) => {
                self.poisoned = true;
                return Err(e);
            }
        };
        let verdicts = match answers.into_iter().next() {
            Some(Ok(LeafAnswer::LeafAnswer { bindings, .. })) => match bindings.get("Vs") {
                Some(term) => term.clone(),
                None => return Err(MachineError::Protocol("no binding for Vs".into())),
            },
            // The driver catches everything, so an exception here is an engine
            // fault such as its heap running out; the machine is not reused.
            Some(Err(term)) | Some(Ok(LeafAnswer::Exception(term))) => {
                self.poisoned = true;
                return Err(MachineError::Resource(print_term(&term)));
            }
            other => return Err(MachineError::Protocol(format!("{other:?}"))),
        };
        decode_verdicts(&verdicts)
    }
}

/// Turns the driver's verdict list into an [`Outcome`].
fn decode_verdicts(term: &Term) -> Result<Outcome, MachineError> {
    let items: &[Term] = match term {
        Term::List(items) => items,
        Term::Atom(a) if a == "[]" => &[],
        other => return Err(MachineError::Protocol(format!("verdicts {other:?}"))),
    };
    let mut done = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Term::Integer(i) if *i == 0.into() => done.push(false),
            Term::Integer(i) if *i == 1.into() => done.push(true),
            Term::Integer(i) if *i == 2.into() => return Ok(Outcome::Timeout(done)),
            Term::Compound(f, args) if f == "error" && args.len() == 1 => {
                // Built-ins throw error(Formal, Context), the runtime throws
                // '$judge_unsupported'(What), and answers cannot throw;
                // anything else is scryer failing to read back a resource
                // error from an overfull heap.
                return match &args[0] {
                    Term::Compound(g, inner) if g == "error" && inner.len() == 2 => {
                        Ok(Outcome::Error(done, print_term(&args[0])))
                    }
                    // The runtime's signal that scryer cannot do what SWI does.
                    Term::Compound(g, _) if g == "$judge_unsupported" => {
                        Ok(Outcome::Error(done, print_term(&args[0])))
                    }
                    other => Err(MachineError::Resource(print_term(other))),
                };
            }
            other => return Err(MachineError::Protocol(format!("verdict {other:?}"))),
        }
    }
    Ok(Outcome::Verdicts(done))
}

/// A short Prolog-like rendering of an answer term, for error messages.
pub fn print_term(term: &Term) -> String {
    let mut out = String::new();
    write_term(term, &mut out);
    const MAX: usize = 300;
    if out.len() > MAX {
        let mut cut = MAX;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    out
}

fn write_term(term: &Term, out: &mut String) {
    use std::fmt::Write;
    // Long error terms are cut anyway; stop early so a huge term costs little.
    if out.len() > 400 {
        return;
    }
    match term {
        Term::Integer(i) => {
            let _ = write!(out, "{i}");
        }
        Term::Rational(r) => {
            let _ = write!(out, "{r}");
        }
        Term::Float(f) => {
            let _ = write!(out, "{f:?}");
        }
        Term::Atom(a) => out.push_str(a),
        Term::String(s) => {
            let _ = write!(out, "{s:?}");
        }
        Term::Var(v) => out.push_str(v),
        Term::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_term(item, out);
            }
            out.push(']');
        }
        Term::Compound(f, args) => {
            out.push_str(f);
            out.push('(');
            for (i, arg) in args.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_term(arg, out);
            }
            out.push(')');
        }
        _ => out.push('?'),
    }
}

/// Runs `f`, turning a panic into [`MachineError::Panic`] with its message.
fn guarded<T>(f: impl FnOnce() -> T + std::panic::UnwindSafe) -> Result<T, MachineError> {
    catch_unwind(f).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        MachineError::Panic(message)
    })
}

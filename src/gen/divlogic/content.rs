//! The symbolic side of a question: literals, the three premise shapes, and
//! the sampling of a question's content (the paper's Algorithm 1 / Eq. 3).

use crate::syntax::prover9::Formula;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The variables a question may use, `A`..`H`, as atom names.
pub(crate) const VARIABLES: [&str; 8] = ["A", "B", "C", "D", "E", "F", "G", "H"];

/// A variable (index into [`VARIABLES`]) or its negation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Literal {
    /// Index into [`VARIABLES`].
    pub var: usize,
    /// `false` for the negated variable.
    pub positive: bool,
}

impl Literal {
    /// The literal as a formula: `A` or `-A`.
    pub(crate) fn formula(self) -> Formula {
        let atom = Formula::atom(VARIABLES[self.var]);
        if self.positive {
            atom
        } else {
            Formula::not(atom)
        }
    }
}

/// The three inference schemes of DivLogicEval, named by the shape of their
/// antecedent, which is the shape a premise takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Scheme {
    /// `A -> B`, from `(A→B) → (¬B→¬A)`.
    Implication,
    /// `-(A & B) -> C`, from `(¬(A∧B)→C) → (¬A→C)`.
    NotBoth,
    /// `(A | B) -> C`, from `((A∨B)→C) → (A→C)`.
    Either,
}

impl Scheme {
    /// How many distinct variables a premise of this shape mentions.
    pub(crate) fn arity(self) -> usize {
        match self {
            Scheme::Implication => 2,
            Scheme::NotBoth | Scheme::Either => 3,
        }
    }
}

/// One proposition of a question's content: a scheme's antecedent shape
/// instantiated with distinct variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Premise {
    /// The shape.
    pub scheme: Scheme,
    /// Indexes into [`VARIABLES`], `scheme.arity()` of them, all distinct.
    pub vars: Vec<usize>,
}

impl Premise {
    /// The premise as a formula over atoms `A`..`H`.
    pub(crate) fn formula(&self) -> Formula {
        let v = |i: usize| Formula::atom(VARIABLES[self.vars[i]]);
        match self.scheme {
            Scheme::Implication => Formula::implies(v(0), v(1)),
            Scheme::NotBoth => Formula::implies(Formula::not(Formula::and(v(0), v(1))), v(2)),
            Scheme::Either => Formula::implies(Formula::or(v(0), v(1)), v(2)),
        }
    }
}

/// A statement a question shows: a premise, a literal, or an implication
/// between two literals (the candidate answers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Statement {
    /// A proposition of the content (the correct option of a missing-premise question).
    Premise(Premise),
    /// A single, possibly negated, variable.
    Literal(Literal),
    /// `l1 -> l2` between literals of different variables.
    Implication(Literal, Literal),
}

impl Statement {
    /// The statement as a formula.
    pub(crate) fn formula(&self) -> Formula {
        match self {
            Statement::Premise(p) => p.formula(),
            Statement::Literal(l) => l.formula(),
            Statement::Implication(a, b) => Formula::implies(a.formula(), b.formula()),
        }
    }
}

/// A uniform index below `n` (> 0). Drawn as `u32` so that the stream of
/// numbers does not depend on the width of `usize`.
pub(crate) fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    rng.gen_range(0..n as u32) as usize
}

/// An index drawn with probability proportional to `weights[i]`; `None` when
/// every weight is zero.
fn pick_weighted(rng: &mut ChaCha8Rng, weights: &[u32]) -> Option<usize> {
    let total: u32 = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut ticket = rng.gen_range(0..total);
    for (i, &w) in weights.iter().enumerate() {
        if ticket < w {
            return Some(i);
        }
        ticket -= w;
    }
    None
}

/// Samples the content: `n` premises, each of a uniformly chosen scheme with
/// two or three distinct variables.
///
/// Variables are drawn as in the paper's Algorithm 1: a variable's weight is
/// `n − uses`, where `uses` counts the premises already mentioning it (Eq. 3),
/// so its selection probability drops each time it is chosen, and no variable
/// can occur in more than `n` premises. Within a premise the variables are
/// distinct. `None` only if the weights run out, which needs `n` below 2.
pub(crate) fn sample_content(rng: &mut ChaCha8Rng, n: usize) -> Option<Vec<Premise>> {
    const SCHEMES: [Scheme; 3] = [Scheme::Implication, Scheme::NotBoth, Scheme::Either];
    let mut uses = [0usize; VARIABLES.len()];
    let mut premises = Vec::with_capacity(n);
    for _ in 0..n {
        let scheme = SCHEMES[pick(rng, SCHEMES.len())];
        let mut vars = Vec::with_capacity(3);
        for _ in 0..scheme.arity() {
            let weights: Vec<u32> = (0..VARIABLES.len())
                .map(|v| {
                    if vars.contains(&v) {
                        0
                    } else {
                        n.saturating_sub(uses[v]) as u32
                    }
                })
                .collect();
            vars.push(pick_weighted(rng, &weights)?);
        }
        for &v in &vars {
            uses[v] += 1;
        }
        premises.push(Premise { scheme, vars });
    }
    Some(premises)
}

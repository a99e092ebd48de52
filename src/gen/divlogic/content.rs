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

/// The surface form of a statement: which connectives it has and which of
/// its literals are negated. Options of one question share it, so the form
/// of an option says nothing about whether it is the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Shape {
    /// A literal, positive or not.
    Literal(bool),
    /// An implication, with the polarity of each side.
    Implication(bool, bool),
    /// A premise of this scheme (its variables are positive).
    Premise(Scheme),
}

impl Statement {
    /// The variables the statement mentions, in order.
    pub(crate) fn vars(&self) -> Vec<usize> {
        match self {
            Statement::Literal(l) => vec![l.var],
            Statement::Implication(a, b) => vec![a.var, b.var],
            Statement::Premise(p) => p.vars.clone(),
        }
    }

    /// The statement's [`Shape`].
    pub(crate) fn shape(&self) -> Shape {
        match self {
            Statement::Literal(l) => Shape::Literal(l.positive),
            Statement::Implication(a, b) => Shape::Implication(a.positive, b.positive),
            Statement::Premise(p) => Shape::Premise(p.scheme),
        }
    }
}

/// The paper's three schemes in its order, (1a), (1b), (1c).
const SCHEMES: [Scheme; 3] = [Scheme::Implication, Scheme::NotBoth, Scheme::Either];

/// Selection weights of the eight variables after `uses` (the paper's
/// counter `o`), for the cap `n`: proportional to Eq. 3,
/// `(max(o) + 1 − o_i) / Σ_j (max(o) + 1 − o_j)`, except that a variable
/// used `n − 1` times has probability 0.1 and one used `n` or more times 0
/// (Algorithm 1, lines 6–11).
///
/// Readings we chose: the sum of Eq. 3 runs over all eight variables, as
/// written, including those the 0.1 and 0 rules override; the 0.1 is a
/// probability on Eq. 3's scale, and the eight values are then normalised
/// to sum to 1 (as a sampler such as `numpy.random.choice` needs). The
/// weights are those probabilities times `10 · Σ`, so they are exact
/// integers: `10 (max(o) + 1 − o_i)`, `Σ` for the 0.1 rule, 0 for the cap.
pub(crate) fn weights(uses: &[usize; 8], n: usize) -> [u64; 8] {
    let max = uses.iter().copied().max().unwrap_or(0);
    let eq3 = |o: usize| (max + 1 - o) as u64;
    let sum: u64 = uses.iter().map(|&o| eq3(o)).sum();
    uses.map(|o| {
        if o + 1 == n {
            sum
        } else if o >= n {
            0
        } else {
            10 * eq3(o)
        }
    })
}

/// Three distinct variables drawn one after another, each with probability
/// proportional to its weight among those not drawn yet (sampling without
/// replacement); `None` if fewer than three have a weight.
pub(crate) fn draw_three(rng: &mut ChaCha8Rng, weights: &[u64; 8]) -> Option<[usize; 3]> {
    let mut w = *weights;
    let mut drawn = [0; 3];
    for slot in &mut drawn {
        let total: u64 = w.iter().sum();
        if total == 0 {
            return None;
        }
        let mut ticket = rng.gen_range(0..total);
        let at = w.iter().position(|&x| {
            let hit = ticket < x;
            ticket = ticket.saturating_sub(x);
            hit
        })?;
        *slot = at;
        w[at] = 0;
    }
    Some(drawn)
}

/// Samples a content by the paper's Algorithm 1 with cap `n`: a number of
/// premises `l` uniform in `2..=n+1`; then for each premise three variables
/// drawn by [`weights`], a scheme chosen uniformly, and the scheme filled
/// with the first two or all three of them. Only the variables a premise
/// uses count as used (line 16). Appendix B says the *third* rule keeps two
/// variables, but of the three schemes as numbered only (1a) has two: we
/// read it as the two-variable rule.
///
/// Returns the premises and the final counter `o`. `None` only if fewer
/// than three variables keep a weight, which cannot happen: before the last
/// premise at most `3n` uses are counted, so at most three variables have
/// reached the cap `n`.
#[cfg(test)]
pub(crate) fn sample_content(rng: &mut ChaCha8Rng, n: usize) -> Option<(Vec<Premise>, [usize; 8])> {
    let l = 2 + pick(rng, n);
    sample_premises(rng, n, l)
}

/// Algorithm 1 after its draw of `l`: `l` premises with cap `n`, as
/// [`sample_content`] fills them.
pub(crate) fn sample_premises(
    rng: &mut ChaCha8Rng,
    n: usize,
    l: usize,
) -> Option<(Vec<Premise>, [usize; 8])> {
    let mut uses = [0usize; VARIABLES.len()];
    let mut premises = Vec::with_capacity(l);
    for _ in 0..l {
        let drawn = draw_three(rng, &weights(&uses, n))?;
        let scheme = SCHEMES[pick(rng, SCHEMES.len())];
        let vars = drawn[..scheme.arity()].to_vec();
        for &v in &vars {
            uses[v] += 1;
        }
        premises.push(Premise { scheme, vars });
    }
    Some((premises, uses))
}

//! The seven argument forms a LogicGraph step applies.

/// The seven argument forms (¬¬X is always simplified to X).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Form {
    /// Modus ponens: `(P→Q), P ⊢ Q`
    MP,
    /// Modus tollens: `(P→Q), ¬Q ⊢ ¬P`
    MT,
    /// Hypothetical syllogism: `(P→Q), (Q→R) ⊢ (P→R)`
    HS,
    /// Disjunctive syllogism: `(P∨Q), ¬P ⊢ Q`
    DS,
    /// Constructive dilemma: `(P→R), (Q→S), (P∨Q) ⊢ (R∨S)`
    CD,
    /// Reductio: `(P→Q), (P→¬Q) ⊢ ¬P`
    RAA,
    /// Disjunction elimination: `(P∨Q), (P→R), (Q→R) ⊢ R`
    DE,
}

impl Form {
    /// All seven, in the order the issue lists them.
    pub const ALL: [Form; 7] = [
        Form::MP,
        Form::MT,
        Form::HS,
        Form::DS,
        Form::CD,
        Form::RAA,
        Form::DE,
    ];

    /// The name written in `rule_applied`.
    pub fn name(self) -> &'static str {
        match self {
            Form::MP => "MP",
            Form::MT => "MT",
            Form::HS => "HS",
            Form::DS => "DS",
            Form::CD => "CD",
            Form::RAA => "RAA",
            Form::DE => "DE",
        }
    }

    /// The form named `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Form> {
        Form::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether it can conclude any formula (HS needs an implication and CD
    /// a disjunction as conclusion, so neither can conclude `G`).
    pub(crate) fn concludes_anything(self) -> bool {
        !matches!(self, Form::HS | Form::CD)
    }
}

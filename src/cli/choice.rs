//! The values of the enum flags. clap refuses anything else and lists what
//! it accepts; each value maps to the library's own type.

use clap::ValueEnum;
use entail::gen::{divlogic, logicgraph, logicon, slr};
use entail::judge;

/// `judge --isomorphic`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Isomorphic {
    /// Score with task constants renamed.
    Renamed,
    /// Also score with the original names and report `shortcut`.
    Both,
}

impl From<Isomorphic> for judge::Isomorphic {
    fn from(choice: Isomorphic) -> judge::Isomorphic {
        match choice {
            Isomorphic::Renamed => judge::Isomorphic::Renamed,
            Isomorphic::Both => judge::Isomorphic::Both,
        }
    }
}

/// `judge --engine`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Engine {
    /// The native evaluator only, on counted budgets; the rare corner it does
    /// not implement is `engine_unsupported`, never handed to another engine.
    Auto,
    /// The scryer workers only.
    Scryer,
}

impl From<Engine> for judge::Engine {
    fn from(choice: Engine) -> judge::Engine {
        match choice {
            Engine::Auto => judge::Engine::Auto,
            Engine::Scryer => judge::Engine::Scryer,
        }
    }
}

/// `judge --rules`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Rules {
    /// Every rule the reference's pattern finds, loaded together (as the
    /// SLR reference metric loads them).
    All,
    /// The last rule the pattern finds, alone.
    Last,
    /// The last rule with the program around it (its helpers kept).
    Program,
}

impl From<Rules> for judge::Rules {
    fn from(choice: Rules) -> judge::Rules {
        match choice {
            Rules::All => judge::Rules::All,
            Rules::Last => judge::Rules::Last,
            Rules::Program => judge::Rules::Program,
        }
    }
}

/// `gen slr --split`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Split {
    /// Training tasks.
    Train,
    /// Validation tasks.
    Validation,
    /// Test tasks.
    Test,
}

impl From<Split> for slr::Split {
    fn from(choice: Split) -> slr::Split {
        match choice {
            Split::Train => slr::Split::Train,
            Split::Validation => slr::Split::Validation,
            Split::Test => slr::Split::Test,
        }
    }
}

/// `gen slr --prompt`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Prompt {
    /// Prolog facts, as in SLR-Bench.
    Prolog,
    /// One English sentence per fact.
    Nl,
}

impl From<Prompt> for slr::PromptStyle {
    fn from(choice: Prompt) -> slr::PromptStyle {
        match choice {
            Prompt::Prolog => slr::PromptStyle::Prolog,
            Prompt::Nl => slr::PromptStyle::NaturalLanguage,
        }
    }
}

/// `gen logicon --variant`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Variant {
    /// All lists in canonical order.
    Plain,
    /// A consistent/inconsistent minimal pair first.
    Hard,
    /// As hard; the differing position is the label to complete.
    Completion,
}

impl From<Variant> for logicon::Variant {
    fn from(choice: Variant) -> logicon::Variant {
        match choice {
            Variant::Plain => logicon::Variant::Plain,
            Variant::Hard => logicon::Variant::Hard,
            Variant::Completion => logicon::Variant::Completion,
        }
    }
}

/// `gen logicon --prompt`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LogiconPrompt {
    /// The task alone.
    #[value(name = "zero-shot")]
    ZeroShot,
    /// The task after three worked examples.
    #[value(name = "3-shot")]
    ThreeShot,
    /// Three worked examples with their reasoning paths, then the task.
    #[value(name = "3-shot-path")]
    ThreeShotPath,
}

impl From<LogiconPrompt> for logicon::PromptStyle {
    fn from(choice: LogiconPrompt) -> logicon::PromptStyle {
        match choice {
            LogiconPrompt::ZeroShot => logicon::PromptStyle::ZeroShot,
            LogiconPrompt::ThreeShot => logicon::PromptStyle::ThreeShot,
            LogiconPrompt::ThreeShotPath => logicon::PromptStyle::ThreeShotPath,
        }
    }
}

/// `gen logicon --task`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LogiconGenTask {
    /// Statements with labelled lists, for Tasks 1 and 2.
    Lists,
    /// Task 3: groups of facts for the model to extend.
    Generative,
}

impl From<LogiconGenTask> for logicon::GenTask {
    fn from(choice: LogiconGenTask) -> logicon::GenTask {
        match choice {
            LogiconGenTask::Lists => logicon::GenTask::Lists,
            LogiconGenTask::Generative => logicon::GenTask::Generative,
        }
    }
}

/// `gen logicon --labels`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Labels {
    /// The truth, by truth tables: consistent iff the statements have a common model.
    Exact,
    /// LogiConBench's rule: truth values propagated along the reasoning path.
    Paper,
}

impl From<Labels> for logicon::Labels {
    fn from(choice: Labels) -> logicon::Labels {
        match choice {
            Labels::Exact => logicon::Labels::Exact,
            Labels::Paper => logicon::Labels::Paper,
        }
    }
}

/// `gen divlogic --type`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum QuestionType {
    /// Three options are not entailed, one is.
    #[value(name = "3c1e")]
    OneEntailed,
    /// Three options are entailed, one is not.
    #[value(name = "3e1c")]
    OneNotEntailed,
    /// The option that restores a removed premise.
    Missing,
    /// The three types in turn.
    Mixed,
}

impl From<QuestionType> for divlogic::TypeChoice {
    fn from(choice: QuestionType) -> divlogic::TypeChoice {
        use divlogic::{QuestionType as Q, TypeChoice};
        match choice {
            QuestionType::OneEntailed => TypeChoice::Only(Q::OneEntailed),
            QuestionType::OneNotEntailed => TypeChoice::Only(Q::OneNotEntailed),
            QuestionType::Missing => TypeChoice::Only(Q::MissingPremise),
            QuestionType::Mixed => TypeChoice::Mixed,
        }
    }
}

/// `gen logicgraph --tier`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Tier {
    /// 2-4 paths.
    Small,
    /// 5-7 paths.
    Medium,
    /// 8-19 paths.
    Large,
}

impl From<Tier> for logicgraph::Tier {
    fn from(choice: Tier) -> logicgraph::Tier {
        match choice {
            Tier::Small => logicgraph::Tier::Small,
            Tier::Medium => logicgraph::Tier::Medium,
            Tier::Large => logicgraph::Tier::Large,
        }
    }
}

/// `gen logicgraph --forms`, one value of the comma-separated list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Form {
    /// Modus ponens.
    #[value(name = "MP")]
    Mp,
    /// Modus tollens.
    #[value(name = "MT")]
    Mt,
    /// Hypothetical syllogism.
    #[value(name = "HS")]
    Hs,
    /// Disjunctive syllogism.
    #[value(name = "DS")]
    Ds,
    /// Constructive dilemma.
    #[value(name = "CD")]
    Cd,
    /// Reductio ad absurdum.
    #[value(name = "RAA")]
    Raa,
    /// Disjunction elimination.
    #[value(name = "DE")]
    De,
}

impl From<Form> for logicgraph::Form {
    fn from(choice: Form) -> logicgraph::Form {
        match choice {
            Form::Mp => logicgraph::Form::MP,
            Form::Mt => logicgraph::Form::MT,
            Form::Hs => logicgraph::Form::HS,
            Form::Ds => logicgraph::Form::DS,
            Form::Cd => logicgraph::Form::CD,
            Form::Raa => logicgraph::Form::RAA,
            Form::De => logicgraph::Form::DE,
        }
    }
}

/// `score logicon --task`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LogiconTask {
    /// Task 1, discriminative.
    #[value(name = "1")]
    Discriminative,
    /// Task 2, enumerative.
    #[value(name = "2")]
    Enumerative,
    /// Task 3, generative.
    #[value(name = "3")]
    Generative,
}

impl From<LogiconTask> for logicon::Task {
    fn from(choice: LogiconTask) -> logicon::Task {
        match choice {
            LogiconTask::Discriminative => logicon::Task::Discriminative,
            LogiconTask::Enumerative => logicon::Task::Enumerative,
            LogiconTask::Generative => logicon::Task::Generative,
        }
    }
}

//! LogicGraph step answers, the format `gen logicgraph --prompt` asks for
//! (the structure of the LogicGraph paper's test prompt):
//!
//! ```text
//! Solution 1:
//! Step 1: [Fact 2, Rule 1] => A3 (Used: [Fact 2, Rule 1])
//! Step 2: [Rule 4, Step 1] => ¬A5 (Used: [Rule 4, Step 1])
//! Solution 2:
//! ...
//! ```
//!
//! A header is `Solution n:`, `Solution [n]:` or `Path n:`. A cited premise
//! is a name and a number (`Fact 2`, `Rule1`), an earlier step of the same
//! path is `Step k`; the brackets around the citations may be left out. The
//! conclusion is the rest of the line, without a final `(Used: …)` (which
//! repeats the citations) and without brackets around it. Lines that are
//! neither a header nor a step (prose, fences, blank lines) are skipped;
//! steps before any header form path 1. Markdown around a line (bullets,
//! list numbers, `**Step 1:**`, `### Solution 1`) is ignored. Completions
//! are read through [`super::read::region`] first (reasoning and special
//! tokens dropped, after the last answer marker): see [`read`].

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while, take_while1};
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{all_consuming, map, map_res, opt};
use nom::multi::separated_list1;
use nom::sequence::{delimited, pair, preceded, terminated, tuple};
use nom::IResult;
use std::fmt;

/// What a step cites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cite {
    /// A premise of the pool, by id (`Fact2`, `Rule1`).
    Premise(String),
    /// The conclusion of step `k` of the same path.
    Step(u32),
}

/// One step line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepLine {
    /// The number written after `Step`.
    pub number: u32,
    /// What it cites, in order.
    pub cited: Vec<Cite>,
    /// The conclusion as written (trimmed).
    pub conclusion: String,
}

/// One path: its steps in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathAnswer {
    /// The number written after `Path` (1 for steps before any header).
    pub number: u32,
    /// Its steps.
    pub steps: Vec<StepLine>,
}

fn number(text: &str) -> IResult<&str, u32> {
    map_res(digit1, str::parse)(text)
}

/// `Solution 3:`, `Solution [3]:` or `Path 3:` (markdown emphasis around
/// it is allowed).
fn path_header(line: &str) -> IResult<&str, u32> {
    let marks = || take_while(|c| c == '*' || c == '#' || c == ' ');
    delimited(
        pair(marks(), alt((tag_no_case("solution"), tag_no_case("path")))),
        preceded(
            space0,
            alt((
                delimited(pair(char('['), space0), number, pair(space0, char(']'))),
                number,
            )),
        ),
        tuple((space0, opt(char(':')), marks(), opt(char(':')), space0)),
    )(line)
}

/// The conclusion of a step line: without a final `(Used: …)` and without
/// one pair of brackets around it.
fn conclusion_text(rest: &str) -> &str {
    let mut text = rest.trim();
    if text.ends_with(')') {
        if let Some(at) = text.to_ascii_lowercase().rfind("(used:") {
            text = text[..at].trim_end();
        }
    }
    let text = text
        .trim_end_matches(|c: char| matches!(c, '*' | '`' | '$') || c.is_whitespace())
        .trim_start_matches(|c: char| matches!(c, '*' | '`' | '$') || c.is_whitespace());
    text.strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .map_or(text, str::trim)
}

/// A line without the markdown a model puts before a step or header:
/// bullets (`-`, `*`, `+`, `•`, `>`), a list number (`1.`, `2)`), emphasis
/// and inline-code marks.
fn unmarked(line: &str) -> &str {
    let mut line = line.trim();
    loop {
        let before = line;
        line = line
            .trim_start_matches(|c: char| matches!(c, '-' | '*' | '+' | '•' | '>' | '`' | '_'))
            .trim_start();
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 {
            if let Some(rest) = line[digits..].strip_prefix(['.', ')']) {
                if rest.starts_with(' ') {
                    line = rest.trim_start();
                }
            }
        }
        if line == before {
            return line;
        }
    }
}

fn cite(text: &str) -> IResult<&str, Cite> {
    alt((
        map(
            preceded(pair(tag_no_case("step"), space0), number),
            Cite::Step,
        ),
        map(
            pair(
                take_while1(|c: char| c.is_ascii_alphabetic()),
                preceded(space0, digit1),
            ),
            |(name, n): (&str, &str)| Cite::Premise(format!("{name}{n}")),
        ),
    ))(text)
}

/// `Step 2: [Rule 4, Step 1] => conclusion (Used: [Rule 4, Step 1])`.
fn step_line(line: &str) -> IResult<&str, StepLine> {
    let cites = || separated_list1(tuple((space0, char(','), space0)), preceded(space0, cite));
    let (rest, (number, cited)) = pair(
        delimited(
            pair(tag_no_case("step"), space0),
            number,
            tuple((
                take_while(|c| c == '*' || c == ' '),
                char(':'),
                take_while(|c| c == '*' || c == '_'),
            )),
        ),
        alt((
            delimited(pair(space0, char('[')), cites(), pair(space0, char(']'))),
            preceded(space0, cites()),
        )),
    )(line)?;
    let (conclusion, _) = terminated(
        preceded(space0, alt((tag("=>"), tag("⇒"), tag("⟹")))),
        opt(space1),
    )(rest)?;
    let conclusion = conclusion_text(conclusion);
    if conclusion.is_empty() {
        return Err(nom::Err::Error(nom::error::Error::new(
            conclusion,
            nom::error::ErrorKind::Eof,
        )));
    }
    Ok((
        "",
        StepLine {
            number,
            cited,
            conclusion: conclusion.to_string(),
        },
    ))
}

/// The paths of an answer; empty when no line is a step.
pub fn parse(text: &str) -> Vec<PathAnswer> {
    parse_lines(text)
}

/// The paths of a model's completion: [`parse`] of its
/// [`super::read::region`], the visible text after the last answer marker
/// followed by a step line.
pub fn read(completion: &str) -> Vec<PathAnswer> {
    parse_lines(&super::read::region(completion, |r| {
        !parse_lines(r).is_empty()
    }))
}

fn parse_lines(text: &str) -> Vec<PathAnswer> {
    let mut paths: Vec<PathAnswer> = Vec::new();
    for line in text.lines() {
        let line = unmarked(line);
        if let Ok((_, n)) = all_consuming(path_header)(line) {
            paths.push(PathAnswer {
                number: n,
                steps: Vec::new(),
            });
        } else if let Ok((_, step)) = step_line(line) {
            if paths.is_empty() {
                paths.push(PathAnswer {
                    number: 1,
                    steps: Vec::new(),
                });
            }
            if let Some(path) = paths.last_mut() {
                path.steps.push(step);
            }
        }
    }
    paths.retain(|p| !p.steps.is_empty());
    paths
}

impl fmt::Display for Cite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cite::Premise(id) => write!(f, "{id}"),
            Cite::Step(k) => write!(f, "Step {k}"),
        }
    }
}

impl fmt::Display for PathAnswer {
    /// The answer format itself, which [`parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Solution {}:", self.number)?;
        for s in &self.steps {
            let cited: Vec<String> = s.cited.iter().map(Cite::to_string).collect();
            let cited = cited.join(", ");
            writeln!(
                f,
                "Step {}: [{cited}] => {} (Used: [{cited}])",
                s.number, s.conclusion
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn paths_steps_and_citations_are_read() {
        let text = "Here are the paths.\n\n**Path 1:**\nStep 1: [Fact 2, Rule1] => A3\n\
                    Step 2: [Rule 4, Step 1] => ¬A5 ∨ G\n\nPath 2:\nstep 1 : [ Fact1 ] => G\n\
                    Step 2: [] => nothing\nStep 3: [Fact 1] =>\n";
        let paths = parse(text);
        assert_eq!(paths.len(), 2);
        assert_eq!(paths[0].number, 1);
        assert_eq!(
            paths[0].steps[1],
            StepLine {
                number: 2,
                cited: vec![Cite::Premise("Rule4".into()), Cite::Step(1)],
                conclusion: "¬A5 ∨ G".into(),
            }
        );
        assert_eq!(
            paths[1].steps.len(),
            1,
            "empty citations and conclusions are not steps"
        );
        assert_eq!(paths[1].steps[0].cited, vec![Cite::Premise("Fact1".into())]);
        assert!(parse("no steps at all").is_empty());
    }

    #[test]
    fn the_papers_solution_format_is_read() {
        let text =
            "Solution [1]:\nStep 1: [Fact1, Rule 2] => [The nurse sings] (Used: [Fact1, Rule 2])\n\
                    Step 2: Rule3, Step1 => The nurse is calm (Used: Rule3, Step1)\n\
                    **Solution 2:**\nStep 1: [Rule4] => G (used: [Rule4])\n";
        let paths = parse(text);
        assert_eq!(paths.len(), 2);
        assert_eq!(paths[0].number, 1);
        assert_eq!(
            paths[0].steps,
            vec![
                StepLine {
                    number: 1,
                    cited: vec![Cite::Premise("Fact1".into()), Cite::Premise("Rule2".into())],
                    conclusion: "The nurse sings".into(),
                },
                StepLine {
                    number: 2,
                    cited: vec![Cite::Premise("Rule3".into()), Cite::Step(1)],
                    conclusion: "The nurse is calm".into(),
                },
            ]
        );
        assert_eq!(paths[1].number, 2);
        assert_eq!(paths[1].steps[0].conclusion, "G");
    }

    fn cite_strategy() -> impl Strategy<Value = Cite> {
        prop_oneof![
            ("(Fact|Rule|Premise)", 1u32..100).prop_map(|(n, k)| Cite::Premise(format!("{n}{k}"))),
            (1u32..50).prop_map(Cite::Step),
        ]
    }

    fn path_strategy() -> impl Strategy<Value = PathAnswer> {
        let step = (
            1u32..50,
            proptest::collection::vec(cite_strategy(), 1..4),
            "[A-Za-z0-9¬∧∨→()&|>-][A-Za-z0-9¬∧∨→()&|> -]{0,20}[A-Za-z0-9)]",
        )
            .prop_map(|(number, cited, conclusion)| StepLine {
                number,
                cited,
                conclusion,
            });
        (1u32..20, proptest::collection::vec(step, 1..5))
            .prop_map(|(number, steps)| PathAnswer { number, steps })
    }

    proptest! {
        #[test]
        fn printed_answers_read_back(paths in proptest::collection::vec(path_strategy(), 1..4)) {
            let text: String = paths.iter().map(PathAnswer::to_string).collect();
            prop_assert_eq!(parse(&text), paths);
        }

        #[test]
        fn any_text_gives_paths_with_steps(text in "(\\PC|\n){0,80}") {
            for p in parse(&text) {
                prop_assert!(!p.steps.is_empty());
                for s in &p.steps {
                    prop_assert!(!s.cited.is_empty() && !s.conclusion.is_empty());
                }
            }
        }
    }
}

//! T/F label lists, as models write them for LogiConBench: `[T, F]`,
//! `("true", "false")`, `[['T','F'],['F','F']]`, inside prose.
//!
//! A *group* is an innermost `[..]` or `(..)` (no bracket inside; the two
//! brackets need not match). A group whose items, split at commas and white
//! space, are all label words (`T`, `F`, `true`, `false`, any case, quotes
//! ignored) is a list; a group with other words is prose and skipped; an
//! empty group is the empty set.

use nom::branch::alt;
use nom::bytes::complete::{take_till, take_till1, take_while};
use nom::character::complete::{anychar, one_of};
use nom::combinator::{map, value};
use nom::multi::many0;
use nom::sequence::{delimited, preceded};
use nom::IResult;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A truth value in a label list, written `"T"` or `"F"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Truth {
    /// The statement is asserted.
    T,
    /// The statement is negated.
    F,
}

/// One label word, or `None` for any other word.
pub fn word(w: &str) -> Option<Truth> {
    match w
        .trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_ascii_lowercase()
        .as_str()
    {
        "t" | "true" => Some(Truth::T),
        "f" | "false" => Some(Truth::F),
        _ => None,
    }
}

fn is_bracket(c: char) -> bool {
    matches!(c, '[' | ']' | '(' | ')')
}

fn is_separator(c: char) -> bool {
    c == ',' || c.is_whitespace()
}

/// A group's items: the words between separators.
fn items(inner: &str) -> IResult<&str, Vec<&str>> {
    many0(preceded(take_while(is_separator), take_till1(is_separator)))(inner)
}

/// An innermost group's text, brackets dropped.
fn group(text: &str) -> IResult<&str, &str> {
    delimited(one_of("(["), take_till(is_bracket), one_of(")]"))(text)
}

/// The groups of `text`, skipping everything between them.
fn groups(text: &str) -> IResult<&str, Vec<Option<&str>>> {
    many0(alt((map(group, Some), value(None, anychar))))(text)
}

/// What a text holds: its label lists, whether it has an empty group, and
/// whether a list of a length other than `k` was seen.
struct Found {
    lists: BTreeSet<Vec<Truth>>,
    empty: bool,
    wrong_length: bool,
}

fn find(text: &str, k: usize) -> Found {
    let mut found = Found {
        lists: BTreeSet::new(),
        empty: false,
        wrong_length: false,
    };
    let groups = groups(text).map(|(_, g)| g).unwrap_or_default();
    for inner in groups.into_iter().flatten() {
        let words = items(inner).map(|(_, w)| w).unwrap_or_default();
        if words.is_empty() {
            found.empty = true;
            continue;
        }
        let Some(labels) = words
            .iter()
            .map(|w| word(w))
            .collect::<Option<Vec<Truth>>>()
        else {
            continue;
        };
        if labels.len() == k {
            found.lists.insert(labels);
        } else {
            found.wrong_length = true;
        }
    }
    found
}

/// The label lists of length `k` in `text`. `None` if there is no list and no
/// empty group (nothing was answered), or if a list has another length.
pub fn parse(text: &str, k: usize) -> Option<BTreeSet<Vec<Truth>>> {
    let found = find(text, k);
    if found.wrong_length || (found.lists.is_empty() && !found.empty) {
        None
    } else {
        Some(found.lists)
    }
}

/// `lists` as a JSON array of arrays, the form the parser reads back.
pub fn print(lists: &BTreeSet<Vec<Truth>>) -> String {
    serde_json::to_string(lists).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use Truth::{F, T};

    fn set(lists: &[&[Truth]]) -> BTreeSet<Vec<Truth>> {
        lists.iter().map(|l| l.to_vec()).collect()
    }

    #[test]
    fn lists_are_read_from_innermost_groups_in_prose() {
        assert_eq!(
            parse("The consistent ones (in order) are [[T, F], ['F','F']].", 2),
            Some(set(&[&[T, F], &[F, F]]))
        );
        assert_eq!(parse("[(true false)]", 2), Some(set(&[&[T, F]])));
        assert_eq!(parse("none: []", 3), Some(BTreeSet::new()));
        assert_eq!(parse("no brackets T F", 2), None);
        assert_eq!(parse("[T, F, T]", 2), None);
        assert_eq!(parse("[T, F) and (F F]", 2), Some(set(&[&[T, F], &[F, F]])));
        assert_eq!(parse("[[T, F]", 2), Some(set(&[&[T, F]])));
    }

    fn truth() -> impl Strategy<Value = Truth> {
        prop_oneof![Just(T), Just(F)]
    }

    proptest! {
        #[test]
        fn printed_lists_read_back(k in 1usize..6, lists in proptest::collection::vec(proptest::collection::vec(truth(), 5), 0..8)) {
            let lists: BTreeSet<Vec<Truth>> = lists.into_iter().map(|mut l| { l.truncate(k); l }).collect();
            prop_assert_eq!(parse(&print(&lists), k), Some(lists.clone()));
            // The same lists in prose, parenthesised and unquoted.
            let prose: Vec<String> = lists.iter().map(|l| {
                let words: Vec<&str> = l.iter().map(|t| if *t == T { "true" } else { "false" }).collect();
                format!("({})", words.join(" "))
            }).collect();
            let text = format!("Answer: the lists {} (and no others).", prose.join(" and "));
            let expected = if lists.is_empty() { None } else { Some(lists) };
            prop_assert_eq!(parse(&text, k), expected);
        }

        #[test]
        fn any_text_gives_lists_of_length_k_or_none(text in "\\PC{0,40}", k in 0usize..5) {
            if let Some(lists) = parse(&text, k) {
                prop_assert!(lists.iter().all(|l| l.len() == k));
            }
        }
    }
}

//! Option letters of a multiple-choice answer: `A`, `b`, ` C ` name options
//! 0, 1, 2 (case and surrounding white space do not matter).

use nom::bytes::complete::take_while;
use nom::character::complete::satisfy;
use nom::combinator::{all_consuming, map};
use nom::sequence::delimited;
use nom::IResult;

fn letter(text: &str) -> IResult<&str, char> {
    let space = || take_while(char::is_whitespace);
    delimited(
        space(),
        map(satisfy(|c| c.is_ascii_alphabetic()), |c| {
            c.to_ascii_uppercase()
        }),
        space(),
    )(text)
}

/// The option index `text` names among `options` options: the answer is one
/// letter, `A` for 0; `None` for anything else or a letter past the last option.
pub fn parse(text: &str, options: usize) -> Option<usize> {
    let (_, c) = all_consuming(letter)(text).ok()?;
    let index = (c as u8 - b'A') as usize;
    (index < options).then_some(index)
}

/// The letter of option `index` (`0` is `A`); `None` past `Z`.
pub fn print(index: usize) -> Option<char> {
    (index < 26).then(|| (b'A' + index as u8) as char)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn letters_name_options_in_order() {
        assert_eq!(parse("A", 4), Some(0));
        assert_eq!(parse(" d\n", 4), Some(3));
        assert_eq!(parse("E", 4), None);
        assert_eq!(parse("AB", 4), None);
        assert_eq!(parse("", 4), None);
        assert_eq!(parse("1", 4), None);
        assert_eq!(parse("(A)", 4), None);
    }

    proptest! {
        #[test]
        fn printed_letters_read_back(index in 0usize..26, options in 1usize..27, pad in "[ \t\n]{0,3}") {
            let letter = print(index).expect("a letter");
            let text = format!("{pad}{letter}{pad}");
            prop_assert_eq!(parse(&text, options), (index < options).then_some(index));
            prop_assert_eq!(parse(&text.to_lowercase(), options), (index < options).then_some(index));
        }

        #[test]
        fn any_text_gives_an_answer_or_none(text in "\\PC{0,8}", options in 0usize..30) {
            if let Some(i) = parse(&text, options) {
                prop_assert!(i < options);
                prop_assert_eq!(text.trim().to_ascii_uppercase(), print(i).expect("a letter").to_string());
            }
        }
    }
}

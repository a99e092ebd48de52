//! Finding the rule in a model's answer.
//!
//! Answers mix reasoning, prose and code. The rule is looked for in this
//! order: the text after the last `</think>`; then, within that, the last
//! `[RULE]…[/RULE]` block; then, within that, the last fenced code block
//! (```prolog or a plain fence), as models often fence the rule inside
//! the block; else what was left.

/// The part of `answer` that should hold the Prolog rule.
pub fn extract_rule(answer: &str) -> &str {
    let text = match answer.rfind("</think>") {
        Some(at) => &answer[at + "</think>".len()..],
        None => answer,
    };
    let text = last_rule_block(text).unwrap_or(text);
    last_fenced_block(text).unwrap_or(text)
}

/// The content of the last complete `[RULE]…[/RULE]`.
fn last_rule_block(text: &str) -> Option<&str> {
    let end = text.rfind("[/RULE]")?;
    let start = text[..end].rfind("[RULE]")? + "[RULE]".len();
    Some(&text[start..end])
}

/// The content of the last complete fenced block. The opening fence may carry
/// an info string (```prolog); the content starts on the next line.
fn last_fenced_block(text: &str) -> Option<&str> {
    // Fences alternate open, close, open, close…; pair them from the start.
    let fences: Vec<usize> = text.match_indices("```").map(|(i, _)| i).collect();
    let mut last = None;
    let mut i = 0;
    while i + 1 < fences.len() {
        let open = fences[i] + 3;
        let close = fences[i + 1];
        let content_start = match text[open..close].find('\n') {
            Some(nl) => open + nl + 1,
            None => open,
        };
        let info = &text[open..content_start];
        // An info string is a single word like `prolog`; anything else on the
        // fence line is already code (```foo(X) :- bar.```).
        let content_start = if info
            .trim()
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            content_start
        } else {
            open
        };
        last = Some(&text[content_start..close]);
        i += 2;
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_of_preference() {
        assert_eq!(extract_rule("a</think>b"), "b");
        assert_eq!(extract_rule("x [RULE]r1[/RULE] y [RULE]r2[/RULE] z"), "r2");
        assert_eq!(
            extract_rule("```prolog\np.\n```\ntext\n```\nq.\n```"),
            "q.\n"
        );
        assert_eq!(
            extract_rule("[RULE]in think[/RULE]</think>```prolog\np.\n```"),
            "p.\n"
        );
        assert_eq!(extract_rule("  p :- q.  "), "  p :- q.  ");
        // An unclosed fence is not a block: the whole text is used.
        assert_eq!(extract_rule("```prolog\np."), "```prolog\np.");
        assert_eq!(extract_rule("```p :- q.```"), "p :- q.");
        // A fence inside the rule block, with prose around both.
        assert_eq!(
            extract_rule("```\nnot this.\n```\n[RULE]\n```prolog\np :- q.\n```\n[/RULE] done"),
            "p :- q.\n"
        );
        assert_eq!(extract_rule("[RULE]```p.```[/RULE]"), "p.");
    }
}

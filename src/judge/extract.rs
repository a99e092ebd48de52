//! Finding the rules in a model's answer, where the SLR reference judge finds them.
//!
//! RL frameworks hand over raw decoded text: reasoning, prose, code fences,
//! `[RULE]` blocks, special tokens such as `</s>` or `<|im_end|>`. The
//! reference judge (the SLR metric) finds the rules with one pattern: after
//! deleting every `%` comment (to the end of its line) and joining the
//! lines (a line break and the white space after it become one space), a
//! rule is text of the form `P(args) :- body.` where `P` is the positive
//! label predicate, `args` holds no parenthesis, and `body` runs to the
//! first `.` after `:-`. Matches are taken left to right without overlap.
//! The reference calls this extraction with its multiple-rules switch
//! always on (its configuration flag is read, then not used), so **every**
//! match is loaded, one per line, together with the validation program.
//! Text anywhere in the answer counts: inside `</think>` reasoning, prose,
//! a fence, inline backticks, a `/* */` block. Everything else (facts,
//! directives, helper predicates, prose) is never loaded. An answer with no
//! such text (say only the fact `eastbound(train0).`) has no rule: 0,
//! `syntax_valid` false.
//!
//! [`reference_rules`] finds those rules, as the reference writes them
//! (the judge's default, [`super::Rules::All`]); their last one alone is
//! [`super::Rules::Last`] (the reference with its switch off).
//!
//! [`extract_rule`] finds the last of them in the answer as it stands (its
//! offsets point into the answer) and the Prolog text it stands in, for
//! [`super::Rules::Program`]: the innermost inline code span, code fence
//! or `[RULE]…[/RULE]` block around it, else the whole answer (after the
//! last `</think>` that precedes the clause, trailing special tokens
//! removed). That text keeps the answer's helper predicates and its other
//! clauses, which the reference drops. When that text is not a loadable
//! program (prose around the rule, `The rule is: …`, a query block,
//! `</s>`), the clause alone is loaded, as the reference loads it.

use std::borrow::Cow;
use std::ops::Range;

/// The rule found in an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted<'a> {
    /// The Prolog text the rule stands in (a slice of the answer): what the
    /// judge loads when it reads as a program.
    pub program: &'a str,
    /// The clause the reference judge takes, comments blanked out: what the
    /// judge loads otherwise. It ends with its `.`.
    pub clause: String,
    /// Where [`Extracted::clause`] stands in the answer (byte offsets).
    pub clause_at: Range<usize>,
}

/// The rule for `positive` in `answer`, found as the reference judge finds
/// it (see the module documentation), or `None` where the reference finds
/// no rule.
pub fn extract_rule<'a>(answer: &'a str, positive: &str) -> Option<Extracted<'a>> {
    let blanked = blank_comments(answer);
    let clause_at = last_reference_clause(&blanked, positive)?;
    let program = enclosing_program(answer, clause_at.clone());
    Some(Extracted {
        program,
        clause: blanked[clause_at.clone()].to_string(),
        clause_at,
    })
}

/// The rules the reference loads from an answer: the answer as the
/// reference reads it (comments deleted, lines joined) and where each rule
/// stands in it, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReferenceRules {
    /// The answer with every `%` comment deleted and each line break, with
    /// the white space after it, made one space.
    pub joined: String,
    /// Each rule's byte range in [`ReferenceRules::joined`], left to right.
    pub rules: Vec<Range<usize>>,
}

impl ReferenceRules {
    /// Whether the reference finds no rule.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The text of rule `i`.
    pub fn rule(&self, i: usize) -> &str {
        &self.joined[self.rules[i].clone()]
    }

    /// Every rule, one per line: the program the reference appends to the
    /// validation program.
    pub fn program(&self) -> String {
        let mut text = String::with_capacity(self.rules.iter().map(|r| r.len() + 1).sum());
        for rule in &self.rules {
            text.push_str(&self.joined[rule.clone()]);
            text.push('\n');
        }
        text
    }

    /// The program the judge loads for these rules: [`ReferenceRules::program`]
    /// with each repeat of a rule's exact text left out, where no rule's
    /// body names `positive` (then nothing can count its solutions, so a
    /// repeat changes no score, only the cost: an answer of 2,000 copies
    /// of one draft loads one clause). With such a body, every rule.
    pub fn loaded(&self, positive: &str) -> String {
        let texts = self.rules.iter().map(|r| &self.joined[r.clone()]);
        let recursive = texts.clone().any(|t| {
            t.split_once(":-")
                .is_some_and(|(_, body)| body.contains(positive))
        });
        if recursive {
            return self.program();
        }
        let mut seen = hashbrown::HashSet::new();
        let mut text = String::new();
        for rule in texts.filter(|t| seen.insert(*t)) {
            text.push_str(rule);
            text.push('\n');
        }
        text
    }

    /// The last rule alone (the reference with its multiple-rules switch
    /// off), or the empty text.
    pub fn last(&self) -> &str {
        self.rules.last().map_or("", |r| &self.joined[r.clone()])
    }

    /// Where byte `at` of [`ReferenceRules::joined`] stands in `answer`,
    /// the text these rules were read from (one pass over it).
    pub fn answer_offset(&self, answer: &str, at: usize) -> usize {
        let mut joined = 0;
        let mut found = answer.len();
        join_lines(answer, &mut |from, piece| {
            if found == answer.len() && at < joined + piece.len() {
                found = from + (at - joined);
            }
            joined += piece.len();
        });
        found
    }
}

/// The rules for `positive` in `answer`, found as the reference finds them
/// (see the module documentation): none where the reference finds none.
pub fn reference_rules(answer: &str, positive: &str) -> ReferenceRules {
    let mut joined = String::with_capacity(answer.len());
    join_lines(answer, &mut |_, piece| joined.push_str(piece));
    let rules = reference_clauses(&joined, positive);
    ReferenceRules { joined, rules }
}

/// Calls `out` with the pieces of `answer` as the reference reads it, in
/// order, each with its byte offset in `answer` (a joined line break is the
/// piece `" "`, at the break): every `%` and the rest of its line deleted,
/// then each line break and the white space after it made one space.
fn join_lines(answer: &str, out: &mut dyn FnMut(usize, &str)) {
    let bytes = answer.as_bytes();
    let mut at = 0;
    // Whether white space after a line break is being skipped.
    let mut skipping = false;
    while at < answer.len() {
        if skipping {
            let rest = &answer[at..];
            let code = rest.trim_start_matches(is_python_space);
            at += rest.len() - code.len();
            if code.starts_with('%') {
                // A comment inside the white space: deleted, and the line
                // break after it is white space too.
                at += code.find('\n').unwrap_or(code.len());
                continue;
            }
            skipping = false;
            continue;
        }
        // Code up to the next `%` or line break.
        let end = memchr::memchr2(b'%', b'\n', &bytes[at..]).map_or(answer.len(), |i| at + i);
        if end > at {
            out(at, &answer[at..end]);
        }
        at = end;
        if at >= answer.len() {
            break;
        }
        if bytes[at] == b'%' {
            at += memchr::memchr(b'\n', &bytes[at..]).unwrap_or(answer.len() - at);
            continue;
        }
        // A line break.
        out(at, " ");
        at += 1;
        skipping = true;
    }
}

/// `text` with every `%` and the rest of its line replaced by spaces (the
/// reference deletes them; spaces keep the byte offsets). Like the
/// reference, a `%` inside a quoted atom starts a comment too.
fn blank_comments(text: &str) -> Cow<'_, str> {
    if !text.contains('%') {
        return Cow::Borrowed(text);
    }
    // `%` and newline are ASCII, so blanking whole bytes between them
    // blanks whole characters and keeps the text UTF-8.
    let mut bytes = text.as_bytes().to_vec();
    let mut in_comment = false;
    for b in &mut bytes {
        match *b {
            b'\n' => in_comment = false,
            b'%' => in_comment = true,
            _ => {}
        }
        if in_comment {
            *b = b' ';
        }
    }
    Cow::Owned(String::from_utf8(bytes).unwrap_or_default())
}

/// Whitespace as Python's `\s` sees it in a `str` pattern.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// The byte range of the last `P(args) :- body.` in `text` (see
/// [`reference_clauses`]).
fn last_reference_clause(text: &str, positive: &str) -> Option<Range<usize>> {
    reference_clauses(text, positive).pop()
}

/// The byte ranges of every `P(args) :- body.` in `text`, matched as the
/// reference's pattern matches in its joined text: non-overlapping, left
/// to right; `args` without `(` or `)`; any whitespace before `:-`; the
/// body up to the first `.`.
fn reference_clauses(text: &str, positive: &str) -> Vec<Range<usize>> {
    let opening = format!("{positive}(");
    let finder = memchr::memmem::Finder::new(&opening);
    let mut found_all = Vec::new();
    let Some(last_dot) = text.rfind('.') else {
        return found_all;
    };
    let mut from = 0;
    while let Some(found) = finder.find(&text.as_bytes()[from..]) {
        let start = from + found;
        let args = start + opening.len();
        match match_clause_from(text, args, last_dot) {
            Some(end) => {
                found_all.push(start..end);
                from = end;
            }
            None => from = start + 1,
        }
        // `find` may land inside a character no more: `from` is always at a
        // character boundary (after an ASCII `(`, `.`, or one byte into
        // `positive`, whose first character is ASCII for every sane name).
        while !text.is_char_boundary(from) {
            from += 1;
        }
    }
    found_all
}

/// The end (after the `.`) of a clause whose head's arguments start at
/// `args`, or `None` if the text there is not `args) :- body.`.
fn match_clause_from(text: &str, args: usize, last_dot: usize) -> Option<usize> {
    let rest = &text[args..];
    let close = args + rest.find(['(', ')'])?;
    if text.as_bytes()[close] != b')' {
        return None;
    }
    let after = &text[close + 1..];
    let neck = close + 1 + (after.len() - after.trim_start_matches(is_python_space).len());
    if !text[neck..].starts_with(":-") {
        return None;
    }
    let body = neck + 2;
    if body > last_dot {
        return None;
    }
    Some(body + text[body..].find('.')? + 1)
}

/// The Prolog text around `clause` in `answer`: the innermost inline code
/// span, code fence or `[RULE]` block holding it, else the whole answer
/// after the last `</think>` before the clause, without trailing special
/// tokens.
fn enclosing_program(answer: &str, clause: Range<usize>) -> &str {
    if let Some(span) = inline_code(answer, clause.clone()) {
        return &answer[span];
    }
    if let Some(fence) = fenced_block(answer, clause.clone()) {
        return &answer[fence];
    }
    if let Some(block) = rule_block(answer, clause.clone()) {
        return &answer[block];
    }
    let start = answer[..clause.start]
        .rfind("</think>")
        .map_or(0, |at| at + "</think>".len());
    without_trailing_tokens(&answer[start..])
}

/// The inline code span (`` `…` ``, on one line) holding `clause`.
fn inline_code(answer: &str, clause: Range<usize>) -> Option<Range<usize>> {
    let line_start = answer[..clause.start].rfind('\n').map_or(0, |at| at + 1);
    let line_end = answer[clause.end..]
        .find('\n')
        .map_or(answer.len(), |at| clause.end + at);
    if answer[clause.clone()].contains('\n') {
        return None;
    }
    let open = line_start + answer[line_start..clause.start].rfind('`')?;
    let close = clause.end + answer[clause.end..line_end].find('`')?;
    let bytes = answer.as_bytes();
    // A backtick of a fence (```) is not an inline span.
    let lone = |at: usize| {
        (at == 0 || bytes[at - 1] != b'`') && bytes.get(at + 1).is_none_or(|&b| b != b'`')
    };
    (lone(open) && lone(close)).then_some(open + 1..close)
}

/// The content of the complete code fence holding `clause`. Fences pair
/// from the start of the answer (open, close, open, close…); the opening
/// fence may carry an info string (```prolog), and the content starts on
/// the next line.
fn fenced_block(answer: &str, clause: Range<usize>) -> Option<Range<usize>> {
    let fences: Vec<usize> = memchr::memmem::find_iter(answer.as_bytes(), "```").collect();
    for pair in fences.chunks_exact(2) {
        let (open, close) = (pair[0] + 3, pair[1]);
        if open > clause.start || close < clause.end {
            continue;
        }
        let first_line = answer[open..close].find('\n').map_or(close, |nl| open + nl);
        let info = answer[open..first_line].trim();
        let is_info = info
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '+');
        // ```eastbound(T) :- … .``` has its code on the fence line.
        let content = if is_info && first_line <= clause.start {
            (first_line + 1).min(close)
        } else {
            open
        };
        return Some(content..close);
    }
    None
}

/// The content of the complete `[RULE]…[/RULE]` block holding `clause`.
fn rule_block(answer: &str, clause: Range<usize>) -> Option<Range<usize>> {
    let open = answer[..clause.start].rfind("[RULE]")? + "[RULE]".len();
    if answer[open..clause.start].contains("[/RULE]") {
        return None;
    }
    let close = clause.end + answer[clause.end..].find("[/RULE]")?;
    Some(open..close)
}

/// `text` without the special tokens (`</s>`, `<|im_end|>`, `<eos>`, …) and
/// whitespace at its end. No Prolog clause ends in `>`: a clause ends in
/// its `.`.
fn without_trailing_tokens(text: &str) -> &str {
    let mut text = text.trim_end();
    while text.ends_with('>') {
        let Some(open) = text.rfind('<') else { break };
        let token = &text[open + 1..text.len() - 1];
        if token.is_empty() || token.contains(|c: char| c.is_whitespace() || c == '<') {
            break;
        }
        text = text[..open].trim_end();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clause(answer: &str) -> Option<String> {
        extract_rule(answer, "eastbound").map(|e| e.clause)
    }

    fn program(answer: &str) -> Option<&str> {
        extract_rule(answer, "eastbound").map(|e| e.program)
    }

    const RULE: &str = "eastbound(T) :- has_car(T, C), car_len(C, short).";

    /// The reference's clause, shape by shape (the clause it would load).
    #[test]
    fn the_clause_is_the_references() {
        let cases: Vec<(String, Option<&str>)> = vec![
            (RULE.into(), Some(RULE)),
            (format!("{RULE}</s>"), Some(RULE)),
            (format!("{RULE}<|im_end|>"), Some(RULE)),
            (format!("The rule is: {RULE}"), Some(RULE)),
            (format!("{RULE} This says a short car goes east."), Some(RULE)),
            (
                format!("Trains with a short car, i.e. {RULE} That is all."),
                Some(RULE),
            ),
            (format!("[RULE]\n`{RULE}`\n[/RULE]"), Some(RULE)),
            (
                format!("[RULE]\n```prolog\n{RULE}\n```\n[/RULE]\n```\n?- eastbound(train0).\ntrue.\n```"),
                Some(RULE),
            ),
            // The last clause wins, even over an earlier block.
            (
                format!("[RULE]\n{RULE}\n[/RULE]\nAlso: eastbound(T) :- has_car(T, C), short(C)."),
                Some("eastbound(T) :- has_car(T, C), short(C)."),
            ),
            // Comments are deleted first: a rule in a comment is none.
            (format!("% {RULE}"), None),
            // Only a fact: no rule.
            ("eastbound(train0).".into(), None),
            ("eastbound(T).".into(), None),
            ("".into(), None),
            // The body ends at the first `.`, wherever it stands.
            (
                "eastbound(T) :- has_car(T, C), car_num(C, N), N > 2.5.".into(),
                Some("eastbound(T) :- has_car(T, C), car_num(C, N), N > 2."),
            ),
            // The head's arguments hold no parenthesis.
            ("eastbound(f(T)) :- t.".into(), None),
            // A head split over lines, and a name ending in the predicate's.
            (
                "not_eastbound(T)\n  :- t.".into(),
                Some("eastbound(T)\n  :- t."),
            ),
            // No `.` after `:-`: no rule.
            ("eastbound(T) :- has_car(T, C)".into(), None),
        ];
        for (answer, expected) in cases {
            assert_eq!(clause(&answer).as_deref(), expected, "{answer:?}");
        }
    }

    /// The text loaded when it reads as a program.
    #[test]
    fn the_program_is_the_text_around_the_clause() {
        let helper = "eastbound(T) :- has_car(T, C), s(C).\ns(C) :- car_len(C, short).";
        assert_eq!(program(helper), Some(helper));
        assert_eq!(program(&format!("{helper}\n</s>")), Some(helper));
        assert_eq!(
            program(&format!("{helper}<|im_end|><|endoftext|>\n")),
            Some(helper)
        );
        assert_eq!(
            program(&format!("thinking: {RULE}</think>\n{helper}")),
            Some(&format!("\n{helper}")[..])
        );
        // A rule only in the reasoning is found there, as the reference does.
        assert_eq!(
            program(&format!("<think>{RULE}</think>I am not sure.")),
            Some(&format!("<think>{RULE}</think>I am not sure.")[..])
        );
        assert_eq!(
            program(&format!("[RULE]\n{helper}\n[/RULE] done")),
            Some(&format!("\n{helper}\n")[..])
        );
        assert_eq!(
            program(&format!(
                "x\n```prolog\n{helper}\n```\n```\n?- eastbound(t).\n```"
            )),
            Some(&format!("{helper}\n")[..])
        );
        assert_eq!(program(&format!("```{RULE}```")), Some(RULE));
        assert_eq!(program(&format!("[RULE] `{RULE}` [/RULE]")), Some(RULE));
        // An unclosed fence is no block: the whole answer.
        assert_eq!(
            program(&format!("```prolog\n{RULE}")),
            Some(&format!("```prolog\n{RULE}")[..])
        );
        // Offsets point into the answer.
        let answer = format!("The rule is: {RULE} Done.");
        let found = extract_rule(&answer, "eastbound").unwrap();
        assert_eq!(&answer[found.clause_at], RULE);
    }

    #[test]
    fn comments_are_blanked_in_place() {
        let answer = "eastbound(T) :- % a. b\n  t. % c\n";
        let found = extract_rule(answer, "eastbound").unwrap();
        assert_eq!(found.clause, "eastbound(T) :-       \n  t.");
        assert_eq!(found.clause_at, 0..answer.find("t.").unwrap() + 2);
        assert_eq!(blank_comments("a%é\nb"), "a   \nb");
    }

    #[test]
    fn other_label_predicates() {
        let found = extract_rule("So: westbound(X) :- a(X).", "westbound").unwrap();
        assert_eq!(found.clause, "westbound(X) :- a(X).");
        assert!(extract_rule("eastbound(X) :- a(X).", "westbound").is_none());
    }
}

#[cfg(test)]
mod loaded_tests {
    use super::reference_rules;

    #[test]
    fn repeats_load_once_unless_a_body_names_the_predicate() {
        let draft = "eastbound(T) :- has_car(T, C), car_num(C, 1).";
        let other = "eastbound(T) :- has_car(T, C), car_len(C, long).";
        let answer = format!("{draft}\n{other}\n{}", format!("{draft}\n").repeat(500));
        let found = reference_rules(&answer, "eastbound");
        assert_eq!(found.rules.len(), 502);
        assert_eq!(found.loaded("eastbound"), format!("{draft}\n{other}\n"));
        // A body that calls eastbound could count its solutions: all load.
        let counting = "eastbound(T) :- aggregate_all(count, eastbound(T), 3).";
        let answer = format!("{draft}\n{draft}\n{counting}\n");
        let found = reference_rules(&answer, "eastbound");
        assert_eq!(found.loaded("eastbound"), found.program());
        assert_eq!(found.program().lines().count(), 3);
    }
}

//! The words users see for what went wrong in an answer. Engines report
//! ISO error terms (`existence_error(procedure, car_colour/2)`, or scryer's
//! `error(existence_error(procedure,/(car_colour,2)),/(car_colour,2))`);
//! the `error` field of a result says the same in a sentence. The
//! machine-readable contract is `error_kind`, which these never change.

use crate::syntax::prolog::{parse_term, Term};

/// Most bytes of an error the engine reported that a result repeats: a
/// culprit can be an atom the answer made of a megabyte (`X is A + 1`
/// names it), which would turn a 200-byte answer into a 1 MB result line.
const MAX_ERROR_BYTES: usize = 512;

/// The sentence for a runtime error the engine reported as `raw`: an error
/// term, possibly followed by ` in NAME/ARITY` (where it was raised). Text
/// that is not an error term is returned as it is; either is cut to
/// [`MAX_ERROR_BYTES`], ending in `…`.
pub fn runtime_error(raw: &str) -> String {
    if raw.len() > MAX_ERROR_BYTES {
        let mut end = MAX_ERROR_BYTES;
        while !raw.is_char_boundary(end) {
            end -= 1;
        }
        return format!("{}…", &raw[..end]);
    }
    let (term_text, place) = match raw.rsplit_once(" in ") {
        Some((term, place)) => (term, Some(place.to_string())),
        None => (raw, None),
    };
    let Ok(term) = parse_term(term_text) else {
        return raw.to_string();
    };
    // ISO's error(Formal, Context): the context often names the predicate.
    let (formal, place) = match &term {
        Term::Compound(name, args) if name == "error" && args.len() == 2 => {
            (&args[0], place.or_else(|| context_place(&args[1])))
        }
        _ => (&term, place),
    };
    let Some(words) = formal_words(formal) else {
        return raw.to_string();
    };
    match place {
        Some(place) => format!("{words} (in {place})"),
        None => words,
    }
}

/// Whether the engine's error `raw` is a resource error (its formal term,
/// bare or inside `error/2`), as opposed to a runtime error that merely
/// names an atom `resource_error`.
pub fn is_resource_error(raw: &str) -> bool {
    raw.starts_with("resource_error") || raw.starts_with("error(resource_error")
}

/// The sentence for an answer that used up its inference budget.
pub fn out_of_budget() -> String {
    "ran out of its inference budget (it may loop)".to_string()
}

/// The words for one reason the native evaluator did not decide an
/// evaluation (a `Fallback` kind), for summaries.
pub fn fallback_reason(kind: &str) -> String {
    let words = match kind {
        "unknown" => "a built-in the native engine lacks",
        "unsupported" => "a construct the native engine does not run",
        "unsure" => "a case the native engine does not implement",
        "arith" => "an arithmetic function the native engine lacks",
        "order" => "an order the native engine does not implement",
        "cyclic" => "a cyclic term",
        "syntax" => "syntax the native engine does not read",
        "internal" => "a limit of the native engine",
        "budget" => "the native step budget ran out",
        "error" => "a runtime error",
        "memory" => "the native memory budget ran out",
        other => other,
    };
    words.to_string()
}

/// `car_colour/2` from a context `car_colour/2` or `context(car_colour/2, _)`.
fn context_place(context: &Term) -> Option<String> {
    match context {
        Term::Compound(name, args) if name == "/" && args.len() == 2 => Some(context.to_string()),
        Term::Compound(name, args) if name == "context" && !args.is_empty() => {
            context_place(&args[0])
        }
        _ => None,
    }
}

/// The sentence for an ISO formal error term, if it is one.
fn formal_words(formal: &Term) -> Option<String> {
    let (name, args): (&str, &[Term]) = match formal {
        Term::Atom(name) => (name, &[]),
        Term::Compound(name, args) => (name, args),
        _ => return None,
    };
    let words = match (name, args) {
        ("instantiation_error", _) => "an argument was an unbound variable".to_string(),
        ("existence_error", [kind, what]) if is_atom(kind, "procedure") => {
            format!("unknown predicate {what}")
        }
        ("existence_error", [kind, what]) => format!("no {} {what}", spaced(kind)),
        ("type_error", [kind, culprit]) if is_atom(kind, "evaluable") => {
            format!("{culprit} is not an arithmetic function")
        }
        ("type_error", [kind, culprit]) => {
            format!("expected {}, found {culprit}", a(&spaced(kind)))
        }
        ("type_error", [kind]) => format!("expected {}", a(&spaced(kind))),
        ("domain_error", [domain, culprit]) => {
            format!("{culprit} is outside the domain {}", spaced(domain))
        }
        ("domain_error", [domain]) => format!("a value outside the domain {}", spaced(domain)),
        ("evaluation_error", [what]) if is_atom(what, "zero_divisor") => {
            "division by zero".to_string()
        }
        ("evaluation_error", [what]) if is_atom(what, "undefined") => {
            "an undefined arithmetic result".to_string()
        }
        ("evaluation_error", [what]) => format!("arithmetic error: {}", spaced(what)),
        ("representation_error", [what]) => {
            format!("a value beyond the limit of {}", spaced(what))
        }
        ("resource_error", [what]) => format!("ran out of {}", spaced(what)),
        ("permission_error", [action, kind, culprit]) => format!(
            "no permission to {} the {} {culprit}",
            spaced(action),
            spaced(kind)
        ),
        ("syntax_error", [what]) => format!("syntax error: {}", spaced(what)),
        _ => return None,
    };
    Some(words)
}

fn is_atom(term: &Term, name: &str) -> bool {
    matches!(term, Term::Atom(a) if a == name)
}

/// An atom such as `static_procedure` as words: `static procedure`.
fn spaced(term: &Term) -> String {
    match term {
        Term::Atom(a) => a.replace('_', " "),
        other => other.to_string(),
    }
}

/// `an integer`, `a list`.
fn a(noun: &str) -> String {
    let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {noun}")
}

#[cfg(test)]
mod tests {
    use super::runtime_error;

    #[test]
    fn error_terms_become_sentences() {
        for (raw, words) in [
            (
                "existence_error(procedure, car_colour/2)",
                "unknown predicate car_colour/2",
            ),
            (
                "error(existence_error(procedure,/(car_colour,2)),/(car_colour,2))",
                "unknown predicate car_colour/2 (in car_colour/2)",
            ),
            (
                "type_error(evaluable, foo/0)",
                "foo/0 is not an arithmetic function",
            ),
            (
                "type_error(integer) in atom_length/2",
                "expected an integer (in atom_length/2)",
            ),
            (
                "instantiation_error in atom_codes/2",
                "an argument was an unbound variable (in atom_codes/2)",
            ),
            ("instantiation_error", "an argument was an unbound variable"),
            (
                "evaluation_error(zero_divisor) in /",
                "division by zero (in /)",
            ),
            (
                "error(domain_error(not_less_than_zero,-1),/(functor,3))",
                "-1 is outside the domain not less than zero (in functor/3)",
            ),
            (
                "error(type_error(list,foo),context(length/2,_))",
                "expected a list, found foo (in length/2)",
            ),
            (
                "error(permission_error(modify,static_procedure,foo/1),foo/1)",
                "no permission to modify the static procedure foo/1 (in foo/1)",
            ),
            ("resource_error(memory)", "ran out of memory"),
            (
                "syntax_error(operator_expected)",
                "syntax error: operator expected",
            ),
            // Anything else is kept as the engine said it.
            ("my_ball", "my_ball"),
            ("worker died: signal 9", "worker died: signal 9"),
        ] {
            assert_eq!(runtime_error(raw), words, "{raw}");
        }
    }

    #[test]
    fn a_huge_culprit_is_cut_and_names_decide_no_kind() {
        // `X is A + 1` with A an atom of 100,000 letters names A.
        let raw = format!("type_error(evaluable, {}/0)", "é".repeat(50_000));
        let words = runtime_error(&raw);
        assert!(words.len() <= 512 + 3, "{}", words.len());
        assert!(words.starts_with("type_error(evaluable, éé") && words.ends_with('…'));
        assert!(super::is_resource_error(
            "resource_error(memory): memory limit exceeded"
        ));
        assert!(super::is_resource_error(
            "error(resource_error(memory),context(foo/1,_))"
        ));
        assert!(!super::is_resource_error(
            "type_error(evaluable, resource_error/0)"
        ));
    }
}

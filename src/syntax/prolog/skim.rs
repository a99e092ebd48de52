//! Sentences found by their tokens alone, with no term built, so a loader
//! can read in full only the sentences it needs (the judge reads the
//! clauses an answer's rule can reach; the rest of a megabyte of padding
//! costs one pass of the tokenizer and no memory).

use super::lexer::{Lexer, Tok};
use super::parser::{flat_clause_at, Atomic, FlatArg, FlatClause};

/// One sentence of a text as [`skim_program`] finds it.
pub struct Skimmed<'t> {
    /// Where reading the sentence starts: just after the previous end
    /// token (layout and comments included), or 0.
    pub start: usize,
    /// Its tokens, the end token included.
    pub tokens: usize,
    /// The head's name and arity when the sentence is plainly `name`,
    /// `name(…)`, each followed by `:-` or the end token, and reads
    /// without a lexical error; `None` for anything else (directives,
    /// operators in the head, a sentence the input ends inside).
    pub head: Option<(&'t str, usize)>,
    /// Every name, quoted atom and string after the head (the whole
    /// sentence when `head` is `None`): what its body may call.
    pub mentions: &'t [String],
}

/// Hands every sentence of `src` to `each`, in order. Sentences end at
/// end tokens, as [`super::parse_program_recovering`] finds them, so
/// reading from a sentence's `start` reads that sentence.
pub fn skim_program(src: &str, each: &mut dyn FnMut(Skimmed<'_>)) {
    skim(src, true, each)
}

/// [`skim_program`], with flat clauses read from the bytes or not (only
/// tests compare the two).
fn skim(src: &str, flat_clauses: bool, each: &mut dyn FnMut(Skimmed<'_>)) {
    let mut lexer = Lexer::new(src);
    let mut start = 0;
    let mut mentions = Mentions::default();
    let mut flat = FlatClause::default();
    loop {
        mentions.clear();
        // Most of a long text is flat facts and rules: those are found by
        // bytes.
        let found = flat_clauses
            .then(|| flat_clause_at(lexer.rest().1, &mut flat))
            .flatten();
        if let Some((_, len)) = found {
            let mut literals = flat.each_literal();
            let (name, head_args) = literals.next().expect("a head");
            for (callee, args) in literals {
                mentions.add(callee);
                for arg in args {
                    if let FlatArg::Atomic(Atomic::Atom(atom)) = arg {
                        mentions.add(atom);
                    }
                }
            }
            each(Skimmed {
                start,
                tokens: flat.tokens(),
                head: Some((name, head_args.len())),
                mentions: &mentions.list,
            });
            lexer.skip(len);
            start = lexer.rest().0;
            continue;
        }
        let mut tokens = 0usize;
        // The head so far: its name, arity, bracket depth, and whether it
        // is still plain (`None` once it is not).
        let mut head: Option<(String, usize, usize)> = None;
        let mut plain = true;
        let mut in_body = false;
        let mut ended = false;
        // Whether the last token opened the head's arguments (`foo()` is
        // no plain head).
        let mut opened = false;
        loop {
            let token = match lexer.next_token() {
                Ok(token) => token,
                Err(error) => {
                    plain = false;
                    tokens += 1;
                    if error.message.starts_with("unterminated") {
                        // It runs to the end of the input.
                        break;
                    }
                    continue;
                }
            };
            if token.tok == Tok::Eof {
                break;
            }
            tokens += 1;
            if token.tok == Tok::End {
                ended = true;
                break;
            }
            if in_body || !plain {
                if let Tok::Name(s) | Tok::Quoted(s) | Tok::Str(s) = &token.tok {
                    mentions.add(s);
                }
                continue;
            }
            // Still reading a plain head.
            let just_opened = std::mem::take(&mut opened);
            match (&mut head, token.tok) {
                (None, Tok::Name(name) | Tok::Quoted(name))
                    if tokens == 1 && !matches!(name.as_str(), ":-" | "?-" | "-->") =>
                {
                    head = Some((name, 0, 0));
                }
                (Some(_), Tok::Close) if just_opened => plain = false,
                (Some((_, arity, depth)), Tok::Open) if *arity == 0 && *depth == 0 => {
                    if token.layout_before {
                        plain = false;
                    } else {
                        *arity = 1;
                        *depth = 1;
                        opened = true;
                    }
                }
                (Some((_, _, depth)), Tok::Open | Tok::OpenList | Tok::OpenCurly) if *depth > 0 => {
                    *depth += 1;
                }
                (Some((_, _, depth)), Tok::Close | Tok::CloseList | Tok::CloseCurly)
                    if *depth > 0 =>
                {
                    *depth -= 1;
                }
                (Some((_, arity, 1)), Tok::Comma) => *arity += 1,
                (Some((_, _, 0)), Tok::Name(neck)) if neck == ":-" => in_body = true,
                (Some((_, _, d)), _) if *d > 0 => {}
                (_, tok) => {
                    plain = false;
                    if let Tok::Name(s) | Tok::Quoted(s) | Tok::Str(s) = &tok {
                        mentions.add(s);
                    }
                }
            }
        }
        if tokens == 0 {
            return;
        }
        let plain_head = match &head {
            Some((name, arity, 0)) if plain && ended => Some((name.as_str(), *arity)),
            _ => None,
        };
        if plain_head.is_none() {
            if let Some((name, ..)) = &head {
                mentions.add(name);
            }
        }
        each(Skimmed {
            start,
            tokens,
            head: plain_head,
            mentions: &mentions.list,
        });
        if !ended {
            return;
        }
        start = lexer.rest().0;
    }
}

/// A sentence's mentions, each name once: a body may repeat one a
/// million times.
#[derive(Default)]
struct Mentions {
    list: Vec<String>,
    seen: hashbrown::HashSet<String>,
}

impl Mentions {
    fn add(&mut self, name: &str) {
        if !self.seen.contains(name) {
            self.seen.insert(name.to_string());
            self.list.push(name.to_string());
        }
    }

    fn clear(&mut self) {
        self.list.clear();
        self.seen.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::skim;

    /// What the skim hands over, printed.
    fn skimmed(src: &str, flat: bool) -> Vec<String> {
        let mut out = Vec::new();
        skim(src, flat, &mut |s| {
            out.push(format!(
                "{} {} {:?} {:?}",
                s.start, s.tokens, s.head, s.mentions
            ));
        });
        out
    }

    /// Flat facts and rules are skimmed from their bytes exactly as the
    /// tokenizer skims them: starts, token counts, heads and mentions.
    #[test]
    fn flat_clauses_skim_as_tokens_do() {
        let texts = [
            "eastbound(T) :- has_car(T, C), car_num(C, 1).\n",
            "eastbound(T):-has_car(T,C),car_color(C,red),car_len(C, red).",
            "  p(a, 1).\nq(X) :- p(X, _), p(b, Y).\n\np(c, 2) .\n",
            "h(T) :- a(T),\n  b(T, z),\n  a(T).\nh(T) :- c(T).",
            "eastbound(T) :- has_car(T, C), \\+ car_num(C, 1).\np(a).\n",
            "x(A) :- y(A, is, 2).\nx(a) :- y(B).",
        ];
        for text in texts {
            assert_eq!(skimmed(text, true), skimmed(text, false), "{text:?}");
        }
        // The flat reader took the rules (a mention list, head and tokens).
        assert_eq!(
            skimmed(texts[0], true),
            ["0 19 Some((\"eastbound\", 1)) [\"has_car\", \"car_num\"]"]
        );
    }
}

//! The whitelist: which answers may reach the engine, and in what form.
//!
//! Scryer has no sandbox, so safety comes from here. Every goal in a kept
//! clause must be control, a whitelisted built-in, a background predicate,
//! the target, or a helper the answer defines. Meta-calls are allowed only
//! where the goal is visible (findall, forall, setof/bagof with `^`,
//! aggregate_all, include/exclude/maplist/call with a closure we can check).
//! A variable goal could be anything, so it is unsafe. Calls to predicates
//! nobody defines are rewritten to raise SWI's existence error, so nothing a
//! previous answer left in the machine can be reached.

use super::task::TaskProgram;
use crate::syntax::prolog::{parse_sentences_in, skim_program, Program, Sentence, Term};
use crate::syntax::SyntaxError;
use std::collections::{BTreeMap, BTreeSet};

/// Why an answer was not loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// No clause defines the target predicate.
    NoRule(String),
    /// Something the sandbox forbids.
    Unsafe(String),
    /// A clause that is not a valid Prolog clause (e.g. a numeric head).
    Syntax(String),
    /// More to read than [`MAX_READ_TOKENS`].
    Resource(String),
}

/// Most tokens the judge reads of one answer: the sentences its rule can
/// reach, its directives and whatever else [`consult`] cannot tell apart
/// by tokens. A term costs about 100 bytes per token, so this bounds an
/// answer's syntax trees near 30 MB; legitimate SLR answers hold a few
/// hundred tokens.
pub const MAX_READ_TOKENS: usize = 1 << 18;

/// The part of an answer's text the judge reads (see [`consult`]).
#[derive(Debug)]
pub struct Consulted {
    /// The sentences read, in order.
    pub program: Program,
    /// Syntax errors in the sentences read: SWI reports such a sentence
    /// and skips it.
    pub errors: Vec<SyntaxError>,
    /// The clauses not read: they cannot run, but defining some
    /// predicates is refused anyway.
    pub unread: Unread,
}

/// Name and arity of every predicate whose clauses were not read, first
/// appearance first, their names in one buffer: an answer of a million
/// distinct facts costs a few bytes per name beyond its text.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Unread {
    names: String,
    /// (start, length) in `names`, and arity.
    heads: Vec<(u32, u32, u32)>,
}

impl Unread {
    /// Each (name, arity), first appearance first.
    pub fn iter(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        self.heads.iter().map(|&(start, len, arity)| {
            let start = start as usize;
            (&self.names[start..start + len as usize], arity as usize)
        })
    }
}

/// The names of an answer's sentences, each once, in one buffer. Hashed
/// by SipHash with a random key: the names are the answer's, and a fixed
/// hash could be flooded with colliding ones.
#[derive(Default)]
struct NameTable {
    text: String,
    /// (start, length) in `text`, by id.
    spans: Vec<(u32, u32)>,
    index: hashbrown::HashTable<u32>,
    hasher: std::collections::hash_map::RandomState,
}

impl NameTable {
    fn len(&self) -> usize {
        self.spans.len()
    }

    fn intern(&mut self, name: &str) -> u32 {
        use std::hash::BuildHasher;
        let hash = self.hasher.hash_one(name);
        let found = self.index.find(hash, |&id| {
            let (start, len) = self.spans[id as usize];
            &self.text[start as usize..(start + len) as usize] == name
        });
        if let Some(&id) = found {
            return id;
        }
        let id = self.spans.len() as u32;
        self.spans.push((self.text.len() as u32, name.len() as u32));
        self.text.push_str(name);
        let (text, spans, hasher) = (&self.text, &self.spans, &self.hasher);
        self.index.insert_unique(hash, id, |&id| {
            let (start, len) = spans[id as usize];
            hasher.hash_one(&text[start as usize..(start + len) as usize])
        });
        id
    }
}

/// Reads `text` as SWI consults a file, but in part: every sentence is
/// found by its tokens ([`skim_program`]), and only the directives, the
/// sentences whose head the tokens do not tell plainly, and the clauses of
/// predicates whose names the target `positive` can reach by name (through
/// every name and string the bodies read mention) are parsed into terms.
/// So a megabyte of clauses the rule never calls costs one pass of the
/// tokenizer and a few bytes per run of same-named clauses and per name,
/// and what is read is bounded by [`MAX_READ_TOKENS`].
pub fn consult(text: &str, positive: &str) -> Result<Consulted, Rejection> {
    /// A run of consecutive sentences: where it starts, and the head name
    /// its clauses share ([`HEADLESS`]: one sentence without a plain head).
    struct Run {
        start: u32,
        name: u32,
    }
    const HEADLESS: u32 = u32::MAX;
    // Offsets into the text and into the names (no longer than the text)
    // are kept as `u32`s.
    if text.len() > (u32::MAX / 2) as usize {
        return Err(Rejection::Resource(format!(
            "the answer is {} bytes long, more than the 2 GiB read of an answer",
            text.len()
        )));
    }
    let mut names = NameTable::default();
    let target = names.intern(positive);
    // Which names each name's clauses mention, as (from, to) edges: a
    // fact mentions nothing, so a text of facts adds none.
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut tokens_of: Vec<u32> = Vec::new();
    // Each (name, arity, sentence start) where a run of heads begins.
    let mut firsts: Vec<(u32, u32, u32)> = Vec::new();
    let mut runs: Vec<Run> = Vec::new();
    // The last head, so that a predicate's consecutive clauses (most of
    // a long text) are neither hashed nor looked up again.
    let mut last: Option<(String, usize, u32)> = None;
    let (mut roots, mut always_tokens) = (vec![target], 0usize);
    skim_program(text, &mut |sentence| {
        let start = sentence.start as u32;
        let Some((name, arity)) = sentence.head else {
            roots.extend(sentence.mentions.iter().map(|m| names.intern(m)));
            always_tokens = always_tokens.saturating_add(sentence.tokens);
            runs.push(Run {
                start,
                name: HEADLESS,
            });
            last = None;
            return;
        };
        let id = match &last {
            Some((last_name, last_arity, id)) if last_name == name && *last_arity == arity => *id,
            _ => {
                let id = names.intern(name);
                firsts.push((id, arity as u32, start));
                if runs.last().is_none_or(|run| run.name != id) {
                    runs.push(Run { start, name: id });
                }
                last = Some((name.to_string(), arity, id));
                id
            }
        };
        edges.extend(sentence.mentions.iter().map(|m| (id, names.intern(m))));
        if tokens_of.len() <= id as usize {
            tokens_of.resize(id as usize + 1, 0);
        }
        let tokens = u32::try_from(sentence.tokens).unwrap_or(u32::MAX);
        tokens_of[id as usize] = tokens_of[id as usize].saturating_add(tokens);
    });
    tokens_of.resize(names.len(), 0);
    edges.sort_unstable();
    edges.dedup();
    let mut reached = vec![false; names.len()];
    let mut read_tokens = always_tokens;
    while let Some(name) = roots.pop() {
        if std::mem::replace(&mut reached[name as usize], true) {
            continue;
        }
        read_tokens = read_tokens.saturating_add(tokens_of[name as usize] as usize);
        let from = edges.partition_point(|&(f, _)| f < name);
        let to = edges.partition_point(|&(f, _)| f <= name);
        roots.extend(edges[from..to].iter().map(|&(_, m)| m));
    }
    if read_tokens > MAX_READ_TOKENS {
        return Err(Rejection::Resource(format!(
            "the clauses the rule can reach hold {read_tokens} tokens, more than the {MAX_READ_TOKENS} read of an answer"
        )));
    }
    // Heads in order of first appearance, each (name, arity) once.
    firsts.sort_unstable();
    firsts.dedup_by_key(|&mut (name, arity, _)| (name, arity));
    firsts.sort_unstable_by_key(|&(.., start)| start);
    // `into_iter` lets the collect reuse `firsts`' memory: on a flood of
    // distinct names both are as long as the text has sentences.
    let heads = firsts
        .into_iter()
        .filter(|&(name, ..)| !reached[name as usize])
        .map(|(name, arity, _)| {
            let (start, len) = names.spans[name as usize];
            (start, len, arity)
        })
        .collect();
    // The runs read: a headless run (one sentence), and each run of
    // clauses whose name is reached, as spans of the text.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        if run.name == HEADLESS || reached[run.name as usize] {
            let end = runs
                .get(i + 1)
                .map_or(text.len(), |next| next.start as usize);
            match spans.last_mut() {
                Some(last) if last.1 == run.start as usize => last.1 = end,
                _ => spans.push((run.start as usize, end)),
            }
        }
    }
    let (program, errors) = parse_sentences_in(text, &spans);
    Ok(Consulted {
        program,
        errors,
        unread: Unread {
            names: names.text,
            heads,
        },
    })
}

/// Built-ins that are pure and safe whatever their arguments.
const SAFE_BUILTINS: &[(&str, usize)] = &[
    ("true", 0),
    ("fail", 0),
    ("false", 0),
    ("!", 0),
    ("=", 2),
    ("\\=", 2),
    ("==", 2),
    ("\\==", 2),
    ("@<", 2),
    ("@>", 2),
    ("@=<", 2),
    ("@>=", 2),
    ("compare", 3),
    ("unify_with_occurs_check", 2),
    ("is", 2),
    ("=:=", 2),
    ("=\\=", 2),
    ("<", 2),
    (">", 2),
    ("=<", 2),
    (">=", 2),
    ("length", 2),
    ("member", 2),
    ("memberchk", 2),
    ("append", 3),
    ("append", 2),
    ("nth0", 3),
    ("nth1", 3),
    ("nth0", 4),
    ("nth1", 4),
    ("last", 2),
    ("msort", 2),
    ("sort", 2),
    ("sort", 4),
    ("reverse", 2),
    ("sum_list", 2),
    ("sumlist", 2),
    ("max_list", 2),
    ("min_list", 2),
    ("list_to_set", 2),
    ("keysort", 2),
    ("select", 3),
    ("permutation", 2),
    ("numlist", 3),
    ("between", 3),
    ("succ", 2),
    ("var", 1),
    ("nonvar", 1),
    ("atom", 1),
    ("number", 1),
    ("integer", 1),
    ("float", 1),
    ("atomic", 1),
    ("compound", 1),
    ("callable", 1),
    ("is_list", 1),
    ("ground", 1),
    ("atom_length", 2),
    ("atom_chars", 2),
    ("atom_codes", 2),
    ("atom_number", 2),
    ("atom_concat", 3),
    ("sub_atom", 5),
    ("char_code", 2),
    ("number_codes", 2),
    ("number_chars", 2),
    ("functor", 3),
    ("arg", 3),
    ("=..", 2),
    ("copy_term", 2),
    // library(lists), library(apply) and SWI built-ins the native engine
    // runs with SWI's semantics.
    ("subtract", 3),
    ("intersection", 3),
    ("union", 3),
    ("delete", 3),
    ("nextto", 3),
    ("max_member", 2),
    ("min_member", 2),
    ("plus", 3),
    ("upcase_atom", 2),
    ("downcase_atom", 2),
    ("atom_string", 2),
    ("string", 1),
    ("string_chars", 2),
    ("string_codes", 2),
    ("string_to_atom", 2),
    ("string_length", 2),
    ("string_concat", 3),
    ("dif", 2),
    // Added for answers SWI scores (library(lists), library(pairs),
    // library(ordsets), text): native built-ins or prelude predicates.
    ("atomic_list_concat", 2),
    ("atomic_list_concat", 3),
    ("split_string", 4),
    ("number_string", 2),
    ("string_code", 3),
    ("term_variables", 2),
    // Into atom(A), string(S), codes(C) or chars(C) only: the engine
    // refuses a stream (format/1,2 stay forbidden).
    ("format", 3),
    ("sub_string", 5),
    ("string_upper", 2),
    ("string_lower", 2),
    ("flatten", 2),
    ("selectchk", 3),
    ("select", 4),
    ("selectchk", 4),
    ("clumped", 2),
    ("proper_length", 2),
    ("prefix", 2),
    ("same_length", 2),
    ("is_set", 1),
    ("subset", 2),
    ("pairs_keys_values", 3),
    ("pairs_keys", 2),
    ("pairs_values", 2),
    ("group_pairs_by_key", 2),
    ("transpose_pairs", 2),
    ("ord_empty", 1),
    ("ord_seteq", 2),
    ("list_to_ord_set", 2),
    ("ord_intersect", 2),
    ("ord_disjoint", 2),
    ("ord_intersect", 3),
    ("ord_intersection", 3),
    ("ord_intersection", 4),
    ("ord_add_element", 3),
    ("ord_del_element", 3),
    ("ord_selectchk", 3),
    ("ord_memberchk", 2),
    ("ord_subset", 2),
    ("ord_subtract", 3),
    ("ord_union", 2),
    ("ord_union", 3),
    ("ord_union", 4),
    ("ord_symdiff", 3),
];

/// The whitelisted predicates only the native engine has (scryer's
/// library does not define them): an answer that needs scryer and uses
/// one is not scored rather than scored differently.
const NATIVE_ONLY: &[&str] = &[
    "atomic_list_concat",
    "split_string",
    "number_string",
    "string_code",
    "term_variables",
    "sub_string",
    "string_upper",
    "string_lower",
    "flatten",
    "selectchk",
    "select",
    "clumped",
    "proper_length",
    "prefix",
    "same_length",
    "is_set",
    "subset",
    "pairs_keys_values",
    "pairs_keys",
    "pairs_values",
    "group_pairs_by_key",
    "transpose_pairs",
    "map_list_to_pairs",
    "max_member",
    "min_member",
];

/// Predicates whose mention alone makes an answer unsafe (reported as such
/// rather than as an undefined call). Safety does not depend on this list:
/// anything not whitelisted is never called.
const FORBIDDEN: &[&str] = &[
    "halt",
    "shell",
    "system",
    "open",
    "close",
    "write",
    "writeln",
    "print",
    "write_canonical",
    "writeq",
    "write_term",
    "format",
    "nl",
    "tab",
    "put_char",
    "read",
    "read_term",
    "see",
    "tell",
    "seen",
    "told",
    "assert",
    "asserta",
    "assertz",
    "retract",
    "retractall",
    "abolish",
    "erase",
    "recorda",
    "recordz",
    "op",
    "set_prolog_flag",
    "current_prolog_flag",
    "consult",
    "use_module",
    "ensure_loaded",
    "load_files",
    "include",
    "initialization",
    "call_cleanup",
    "setup_call_cleanup",
    "catch",
    "throw",
    "getenv",
    "setenv",
    "process_create",
    "delete_file",
    "exists_file",
    "make_directory",
    "tmp_file",
    "nb_setval",
    "b_setval",
    "nb_getval",
    "b_getval",
    "garbage_collect",
    "statistics",
    "dynamic",
    "discontiguous",
    "multifile",
    "module",
    "call_with_inference_limit",
    "call_with_time_limit",
    "phrase",
    "atom_to_term",
    "term_to_atom",
    "read_term_from_atom",
    "numbervars",
    "apply",
];

/// The goal-taking positions handled specially: returns the closures'
/// extra-argument counts for include/exclude/maplist/call.
fn closure_extra_args(name: &str, arity: usize) -> Option<usize> {
    match (name, arity) {
        ("include", 3) | ("exclude", 3) | ("partition", 4) => Some(1),
        ("partition", 5) => Some(2),
        ("foldl", n) if (4..=6).contains(&n) => Some(n - 1),
        ("predsort", 3) => Some(3),
        ("max_member", 3) | ("min_member", 3) | ("map_list_to_pairs", 3) => Some(2),
        ("maplist", n) if (2..=5).contains(&n) => Some(n - 1),
        ("call", n) if n >= 1 => Some(n - 1),
        _ => None,
    }
}

struct Checker<'a> {
    task: &'a TaskProgram,
    /// Helpers the answer defines: name/arity → private name.
    helpers: BTreeMap<(String, usize), String>,
}

/// SWI-Prolog 9's ISO built-ins (`predicate_property(system:H, iso)`): a
/// user file may not define them, so SWI reports a permission error for
/// such a clause, skips it and loads the rest. Every other built-in and
/// library predicate (plus/3, succ/2, upcase_atom/2, member/2, foldl/4, …)
/// a user definition overrides.
const ISO_PROTECTED: &[(&str, usize)] = &[
    ("!", 0),
    (",", 2),
    ("->", 2),
    (";", 2),
    ("<", 2),
    ("=", 2),
    ("=..", 2),
    ("=:=", 2),
    ("=<", 2),
    ("==", 2),
    ("=\\=", 2),
    (">", 2),
    (">=", 2),
    ("@<", 2),
    ("@=<", 2),
    ("@>", 2),
    ("@>=", 2),
    ("\\+", 1),
    ("\\=", 2),
    ("\\==", 2),
    ("abolish", 1),
    ("acyclic_term", 1),
    ("arg", 3),
    ("asserta", 1),
    ("assertz", 1),
    ("at_end_of_stream", 0),
    ("at_end_of_stream", 1),
    ("atom", 1),
    ("atom_chars", 2),
    ("atom_codes", 2),
    ("atom_concat", 3),
    ("atom_length", 2),
    ("atomic", 1),
    ("bagof", 3),
    ("call", 1),
    ("call", 2),
    ("call", 3),
    ("call", 4),
    ("call", 5),
    ("call", 6),
    ("call", 7),
    ("call", 8),
    ("callable", 1),
    ("catch", 3),
    ("char_code", 2),
    ("char_conversion", 2),
    ("clause", 2),
    ("close", 1),
    ("close", 2),
    ("compare", 3),
    ("compound", 1),
    ("copy_term", 2),
    ("current_char_conversion", 2),
    ("current_input", 1),
    ("current_op", 3),
    ("current_output", 1),
    ("current_predicate", 1),
    ("current_prolog_flag", 2),
    ("discontiguous", 1),
    ("dynamic", 1),
    ("fail", 0),
    ("false", 0),
    ("findall", 3),
    ("float", 1),
    ("flush_output", 0),
    ("flush_output", 1),
    ("functor", 3),
    ("get_byte", 1),
    ("get_byte", 2),
    ("get_char", 1),
    ("get_char", 2),
    ("get_code", 1),
    ("get_code", 2),
    ("ground", 1),
    ("halt", 0),
    ("halt", 1),
    ("initialization", 1),
    ("integer", 1),
    ("is", 2),
    ("keysort", 2),
    ("length", 2),
    ("message_queue_create", 2),
    ("message_queue_destroy", 1),
    ("message_queue_property", 2),
    ("multifile", 1),
    ("mutex_create", 2),
    ("mutex_destroy", 1),
    ("mutex_lock", 1),
    ("mutex_property", 2),
    ("mutex_trylock", 1),
    ("mutex_unlock", 1),
    ("nl", 0),
    ("nl", 1),
    ("nonvar", 1),
    ("number", 1),
    ("number_chars", 2),
    ("number_codes", 2),
    ("numbervars", 3),
    ("once", 1),
    ("op", 3),
    ("open", 3),
    ("open", 4),
    ("peek_byte", 1),
    ("peek_byte", 2),
    ("peek_char", 1),
    ("peek_char", 2),
    ("peek_code", 1),
    ("peek_code", 2),
    ("phrase", 2),
    ("phrase", 3),
    ("predicate_property", 2),
    ("put_byte", 1),
    ("put_byte", 2),
    ("put_char", 1),
    ("put_char", 2),
    ("put_code", 1),
    ("put_code", 2),
    ("read", 1),
    ("read", 2),
    ("read_term", 2),
    ("read_term", 3),
    ("repeat", 0),
    ("retract", 1),
    ("retractall", 1),
    ("set_input", 1),
    ("set_output", 1),
    ("set_prolog_flag", 2),
    ("set_stream_position", 2),
    ("setof", 3),
    ("sort", 2),
    ("stream_property", 2),
    ("sub_atom", 5),
    ("subsumes_term", 2),
    ("term_variables", 2),
    ("thread_create", 3),
    ("thread_detach", 1),
    ("thread_get_message", 1),
    ("thread_get_message", 2),
    ("thread_get_message", 3),
    ("thread_peek_message", 1),
    ("thread_peek_message", 2),
    ("thread_property", 2),
    ("thread_self", 1),
    ("thread_send_message", 2),
    ("thread_signal", 2),
    ("throw", 1),
    ("true", 0),
    ("unify_with_occurs_check", 2),
    ("var", 1),
    ("with_mutex", 2),
    ("write", 1),
    ("write", 2),
    ("write_canonical", 1),
    ("write_canonical", 2),
    ("write_term", 2),
    ("write_term", 3),
    ("writeq", 1),
    ("writeq", 2),
];

/// Directives that only load or declare, which SWI runs and which change
/// nothing the judge runs (a library SWI autoloads anyway; a missing
/// library or a failing declaration is only a warning in SWI).
const HARMLESS_DIRECTIVES: &[(&str, usize)] = &[
    ("use_module", 1),
    ("use_module", 2),
    ("ensure_loaded", 1),
    ("discontiguous", 1),
    ("style_check", 1),
    // Only in a module file's first line; elsewhere SWI reports it and
    // goes on with the file.
    ("module", 2),
    // Goals that do nothing (a failing directive is only a warning).
    ("true", 0),
    ("fail", 0),
    ("false", 0),
];

/// Prolog flags a directive may set: ones that change nothing a rule's
/// meaning depends on. `double_quotes` is applied to the clauses after it.
const HARMLESS_FLAGS: &[&str] = &[
    "verbose",
    "verbose_load",
    "optimise",
    "generate_debug_info",
    "warn_override_implicit_import",
];

/// How the reader takes `"text"` (SWI's `double_quotes` flag).
#[derive(Clone, Copy, PartialEq, Eq)]
enum DoubleQuotes {
    String,
    Codes,
    Chars,
    Atom,
}

/// Checks `program` (an extracted answer) and returns the clauses to load,
/// target first, each predicate's clauses together. As SWI consults a
/// file: loading directives and declarations are accepted (see
/// [`HARMLESS_DIRECTIVES`]), a clause for an ISO built-in is skipped (SWI's
/// permission error), and a definition of any other built-in or library
/// predicate overrides it.
pub fn sanitize(
    program: Program,
    unread: &Unread,
    task: &TaskProgram,
) -> Result<Vec<Term>, Rejection> {
    let target = (task.positive.clone(), task.arity);
    let mut clauses: BTreeMap<(String, usize), Vec<(Term, Option<Term>)>> = BTreeMap::new();
    let mut order: Vec<(String, usize)> = Vec::new();
    let mut dynamic: Vec<(String, usize)> = Vec::new();
    let mut quotes = DoubleQuotes::String;
    for sentence in program.sentences {
        let term = match sentence {
            Sentence::Directive { goal, .. } => {
                directive(&goal, &mut dynamic, &mut quotes)?;
                continue;
            }
            Sentence::Clause { term, .. } => with_double_quotes(term, quotes),
        };
        let (head, body) = match term {
            Term::Compound(neck, args) if neck == ":-" && args.len() == 2 => {
                let [head, body]: [Term; 2] = args.try_into().expect("two arguments");
                (head, Some(body))
            }
            other => (other, None),
        };
        let head = match head {
            // `user:Head` defines Head where the rest of the file does.
            Term::Compound(colon, args) if colon == ":" && args.len() == 2 => {
                let [module, head]: [Term; 2] = args.try_into().expect("two arguments");
                if module != Term::Atom("user".into()) {
                    return Err(Rejection::Unsafe(format!(
                        "defines {} in another module",
                        Term::Compound(colon, vec![module, head])
                    )));
                }
                head
            }
            head => head,
        };
        let Some((name, arity)) = head.name_arity() else {
            // SWI reports a clause whose head is not callable and loads
            // the rest.
            continue;
        };
        // Clauses of a name mostly come together: the last key found
        // (never a protected one) spares the checks, a key's allocation
        // and a search.
        if let Some(last) = order.last().filter(|(n, a)| n == name && *a == arity) {
            if let Some(list) = clauses.get_mut(last) {
                list.push((head, body));
                continue;
            }
        }
        if is_iso_protected(name, arity) {
            // SWI: permission error for this clause alone.
            continue;
        }
        let key = (name.to_string(), arity);
        match clauses.get_mut(&key) {
            Some(list) => list.push((head, body)),
            None => {
                order.push(key.clone());
                clauses.insert(key, vec![(head, body)]);
            }
        }
    }
    // A dynamic predicate with no clauses fails where an undefined one
    // raises: it is defined here by one clause that fails.
    for (name, arity) in dynamic {
        let key = (name.clone(), arity);
        if is_iso_protected(&name, arity)
            || clauses.contains_key(&key)
            || key == target
            || task.background_predicates.contains(&key)
            || name == task.negative
            || name == "pos"
            || name == "neg"
        {
            continue;
        }
        let head = if arity == 0 {
            Term::Atom(name.clone())
        } else {
            Term::Compound(
                name.clone(),
                (0..arity).map(|_| Term::Var("_".into())).collect(),
            )
        };
        order.push(key.clone());
        clauses.insert(key, vec![(head, Some(Term::Atom("fail".into())))]);
    }
    // Refuse redefinitions first, whether or not the clause is reachable:
    // in the reference judge any loaded clause changes the program.
    let refuse = |name: &str, arity: usize| -> Result<(), Rejection> {
        if name.starts_with('$') {
            return Err(Rejection::Unsafe(format!(
                "defines reserved predicate {name}/{arity}"
            )));
        }
        // The positive predicate of another arity is only a helper: the
        // label facts are never loaded (the reference renames them).
        let other_arity = name == task.positive && arity != task.arity;
        if !other_arity
            && (name == task.positive || name == task.negative || name == "pos" || name == "neg")
        {
            return Err(Rejection::Unsafe(format!(
                "defines label predicate {name}/{arity}"
            )));
        }
        if task
            .background_predicates
            .iter()
            .any(|(n, a)| n == name && *a == arity)
        {
            return Err(Rejection::Unsafe(format!(
                "redefines background predicate {name}/{arity}"
            )));
        }
        // Control SWI compiles inline whatever the user defines.
        if matches!((name, arity), ("*->", 2) | ("|", 2) | ("^", 2) | (":", 2)) {
            return Err(Rejection::Unsafe(format!(
                "redefines control construct {name}/{arity}"
            )));
        }
        Ok(())
    };
    let mut helpers = BTreeMap::new();
    for key in order.iter().filter(|key| **key != target) {
        refuse(&key.0, key.1)?;
        helpers.insert(key.clone(), format!("$judge_helper_{}", key.0));
    }
    // Clauses not read cannot be called (nothing read names them), so they
    // need no helper name; defining them is still refused alike.
    for (name, arity) in unread.iter() {
        if (name, arity) != (target.0.as_str(), target.1) && !is_iso_protected(name, arity) {
            refuse(name, arity)?;
        }
    }
    if !clauses.contains_key(&target) {
        return Err(Rejection::NoRule(format!(
            "no clause for {}/{}",
            target.0, target.1
        )));
    }
    let checker = Checker { task, helpers };
    let joins = JoinPredicates::of(task);
    // Keep the target and the helpers reachable from it.
    let mut kept: Vec<(String, usize)> = vec![target.clone()];
    let mut seen: BTreeSet<(String, usize)> = kept.iter().cloned().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < kept.len() {
        let key = kept[i].clone();
        i += 1;
        // Each name is kept once, so its clauses can be taken.
        let Some(list) = clauses.remove(&key) else {
            continue;
        };
        for (head, body) in list {
            let mut called = Vec::new();
            let new_head = checker.rename_head(head, &key);
            let term = match body {
                Some(body) => {
                    // A join of background facts is its own rewriting.
                    let mut new_body = if joins.holds(&body) {
                        body
                    } else {
                        checker.goal(&body, &mut called)?
                    };
                    if key == target {
                        if let Some(joined) = join_in_order(&new_head, &new_body, &joins) {
                            new_body = joined;
                        }
                    }
                    Term::Compound(":-".into(), vec![new_head, new_body])
                }
                None => new_head,
            };
            out.push(term);
            for callee in called {
                if seen.insert(callee.clone()) {
                    kept.push(callee);
                }
            }
        }
    }
    Ok(out)
}

/// Most calls SWI may make running a join in the answer's own order for
/// the judge to run it in another: some half a second of SWI, well within
/// the reference's 5 s.
pub const MAX_JOIN_CALLS: u64 = 10_000_000;

/// Most literals (and head variables) of a join [`join_in_order`] plans.
const MAX_JOIN_LITERALS: usize = 64;

/// A body that is a join of background facts, run in a cheap order: for a
/// clause `Head :- L1, …, Ln` whose literals all call background
/// predicates defined by flat facts alone, with variables and constants as
/// arguments, the body `(ground(Head) -> Reordered ; Original)`, where
/// `Reordered` takes next the literal that may enumerate the fewest facts
/// (see [`TaskProgram::fact_counts`]). With the head ground (as every
/// example calls it) the body binds nothing the caller sees, cannot raise
/// and ends, and any order gives the same solutions as often: only the
/// work differs, so a correct rule written with its `has_car/2` literals
/// first does not run out of a budget SWI's speed hides. Only where the
/// answer's own order costs SWI at most [`MAX_JOIN_CALLS`] calls (bounded
/// from the fact counts), so an order the reference would not finish
/// within its time limit is never rescued.
fn join_in_order<'t>(head: &'t Term, body: &'t Term, joins: &JoinPredicates) -> Option<Term> {
    fn conjuncts<'t>(goal: &'t Term, out: &mut Vec<&'t Term>) {
        match goal {
            Term::Compound(comma, args) if comma == "," && args.len() == 2 => {
                conjuncts(&args[0], out);
                conjuncts(&args[1], out);
            }
            goal => out.push(goal),
        }
    }
    let mut literals = Vec::new();
    conjuncts(body, &mut literals);
    // The planner below is quadratic in literals and bound variables: a
    // longer join keeps the answer's order (no rule SLR asks for is near).
    if literals.len() < 2 || literals.len() > MAX_JOIN_LITERALS {
        return None;
    }
    // Each literal's fact counts and arguments.
    let mut facts = Vec::with_capacity(literals.len());
    for literal in &literals {
        let Term::Compound(name, args) = literal else {
            return None;
        };
        let counts = joins.counts.get(&(name.as_str(), args.len()))?;
        if !args
            .iter()
            .all(|a| matches!(a, Term::Var(_) | Term::Atom(_) | Term::Int(_)))
        {
            return None;
        }
        facts.push((counts, args));
    }
    // Bound variables: a few names, so a list.
    let mut head_vars = Vec::new();
    collect_vars(head, &mut head_vars);
    if head_vars.len() > MAX_JOIN_LITERALS {
        return None;
    }
    let is_bound = |a: &Term, bound: &[&str]| match a {
        Term::Var(v) => v != "_" && bound.contains(&v.as_str()),
        _ => true,
    };
    // What a literal may enumerate once `bound` variables are bound.
    let fanout = |(counts, args): &(&(u64, u64), &Vec<Term>), bound: &[&str]| {
        if args.iter().all(|a| is_bound(a, bound)) {
            1.min(counts.0)
        } else if args.first().is_some_and(|a| is_bound(a, bound)) {
            counts.1
        } else {
            counts.0
        }
    };
    let bind = |args: &'t Vec<Term>, bound: &mut Vec<&'t str>| {
        for a in args {
            if let Term::Var(v) = a {
                if !bound.contains(&v.as_str()) {
                    bound.push(v);
                }
            }
        }
    };
    // The cheap order: fewest facts next, the answer's order among equals.
    // Kept only from the first literal it moves (most answers' order is
    // cheap already).
    let mut used = 0u64;
    let mut order: Option<Vec<usize>> = None;
    let mut bound = head_vars;
    for step in 0..facts.len() {
        let i = (0..facts.len())
            .filter(|i| used & (1 << i) == 0)
            .min_by_key(|&i| (fanout(&facts[i], &bound), i))?;
        used |= 1 << i;
        bind(facts[i].1, &mut bound);
        if order.is_none() && i != step {
            order = Some((0..step).collect());
        }
        if let Some(order) = &mut order {
            order.push(i);
        }
    }
    let order = order?;
    // SWI's calls in the answer's order, bounded.
    let (mut calls, mut runs, mut bound) = (0u64, 1u64, Vec::new());
    collect_vars(head, &mut bound);
    for literal in &facts {
        calls = calls.saturating_add(runs);
        // Every fact the index gives is tried.
        let tried = if literal.1.first().is_some_and(|a| is_bound(a, &bound)) {
            literal.0 .1
        } else {
            literal.0 .0
        };
        runs = runs.saturating_mul(tried.max(1));
        calls = calls.saturating_add(runs);
        bind(literal.1, &mut bound);
    }
    if calls > MAX_JOIN_CALLS {
        return None;
    }
    let reordered = order
        .iter()
        .rev()
        .map(|&i| literals[i].clone())
        .reduce(|rest, literal| compound(",", vec![literal, rest]))?;
    let guarded = compound(
        "->",
        vec![compound("ground", vec![head.clone()]), reordered],
    );
    Some(compound(";", vec![guarded, body.clone()]))
}

/// The background predicates a body may call as plain goals, which
/// [`Checker::goal`] returns as they are (a body that only joins them needs
/// no rewriting: most rules are such joins), with their fact counts
/// ([`TaskProgram::fact_counts`]). Found once per answer, not per clause.
struct JoinPredicates<'t> {
    joinable: hashbrown::HashSet<(&'t str, usize)>,
    counts: hashbrown::HashMap<(&'t str, usize), (u64, u64)>,
}

impl<'t> JoinPredicates<'t> {
    fn of(task: &'t TaskProgram) -> JoinPredicates<'t> {
        let joinable = task
            .background_predicates
            .iter()
            .map(|(name, arity)| (name.as_str(), *arity))
            // A plain name, none the checker reads as control or library
            // (a task's background may name its facts anything).
            .filter(|&(name, arity)| {
                name.starts_with(|c: char| c.is_ascii_lowercase())
                    && !is_library(name, arity)
                    && !matches!(
                        name,
                        "not"
                            | "once"
                            | "ignore"
                            | "findall"
                            | "aggregate_all"
                            | "forall"
                            | "setof"
                            | "bagof"
                            | "aggregate"
                            | "is"
                    )
            })
            .collect();
        let counts = task
            .fact_counts
            .iter()
            .map(|((name, arity), &counts)| ((name.as_str(), *arity), counts))
            .collect();
        JoinPredicates { joinable, counts }
    }

    /// Whether `body` is a conjunction of calls of these predicates.
    fn holds(&self, body: &Term) -> bool {
        match body {
            Term::Compound(comma, args) if comma == "," && args.len() == 2 => {
                self.holds(&args[0]) && self.holds(&args[1])
            }
            Term::Compound(name, args) => self.joinable.contains(&(name.as_str(), args.len())),
            _ => false,
        }
    }
}

/// The names of the variables in `term`, each once, until there are more
/// than [`MAX_JOIN_LITERALS`] (the list is searched linearly).
fn collect_vars<'t>(term: &'t Term, out: &mut Vec<&'t str>) {
    match term {
        _ if out.len() > MAX_JOIN_LITERALS => {}
        Term::Var(v) if v != "_" => {
            if !out.contains(&v.as_str()) {
                out.push(v);
            }
        }
        Term::Compound(_, args) => args.iter().for_each(|a| collect_vars(a, out)),
        _ => {}
    }
}

/// Accepts a directive SWI runs harmlessly (recording `dynamic`
/// declarations and the `double_quotes` flag), or refuses it.
fn directive(
    goal: &Term,
    dynamic: &mut Vec<(String, usize)>,
    quotes: &mut DoubleQuotes,
) -> Result<(), Rejection> {
    let unsafe_directive = || Rejection::Unsafe(format!("directive :- {goal}"));
    let (name, arity) = goal.name_arity().ok_or_else(unsafe_directive)?;
    let args = goal.args();
    match (name, arity) {
        (",", 2) => {
            directive(&args[0], dynamic, quotes)?;
            directive(&args[1], dynamic, quotes)
        }
        ("dynamic", 1) => {
            let mut specs = Vec::new();
            predicate_specs(&args[0], &mut specs);
            dynamic.extend(specs);
            Ok(())
        }
        ("set_prolog_flag", 2) => match (&args[0], &args[1]) {
            (Term::Atom(flag), Term::Atom(value)) if flag == "double_quotes" => {
                *quotes = match value.as_str() {
                    "codes" => DoubleQuotes::Codes,
                    "chars" => DoubleQuotes::Chars,
                    "atom" => DoubleQuotes::Atom,
                    "string" => DoubleQuotes::String,
                    // SWI refuses the value and keeps the flag.
                    _ => *quotes,
                };
                Ok(())
            }
            (Term::Atom(flag), _) if HARMLESS_FLAGS.contains(&flag.as_str()) => Ok(()),
            _ => Err(unsafe_directive()),
        },
        _ if HARMLESS_DIRECTIVES.contains(&(name, arity)) => Ok(()),
        _ => Err(unsafe_directive()),
    }
}

/// The `Name/Arity` specifications of a `dynamic` declaration (one, a
/// comma sequence or a list); anything else SWI reports and skips.
fn predicate_specs(spec: &Term, out: &mut Vec<(String, usize)>) {
    match spec {
        Term::Compound(f, args) if (f == "," || f == ".") && args.len() == 2 => {
            predicate_specs(&args[0], out);
            predicate_specs(&args[1], out);
        }
        Term::Compound(f, args) if f == "/" && args.len() == 2 => {
            if let (Term::Atom(name), Term::Int(arity)) = (&args[0], &args[1]) {
                if let Ok(arity) = usize::try_from(*arity) {
                    out.push((name.clone(), arity));
                }
            }
        }
        _ => {}
    }
}

/// `term` with its double-quoted text read as `quotes` says.
fn with_double_quotes(term: Term, quotes: DoubleQuotes) -> Term {
    if quotes == DoubleQuotes::String {
        return term;
    }
    match term {
        Term::Str(text) => match quotes {
            DoubleQuotes::Atom => Term::Atom(text),
            _ => text.chars().rev().fold(Term::Atom("[]".into()), |tail, c| {
                let item = match quotes {
                    DoubleQuotes::Codes => Term::Int(c as i64),
                    _ => Term::Atom(c.to_string()),
                };
                Term::Compound(".".into(), vec![item, tail])
            }),
        },
        Term::Compound(name, args) => Term::Compound(
            name,
            args.into_iter()
                .map(|a| with_double_quotes(a, quotes))
                .collect(),
        ),
        other => other,
    }
}

fn is_control(name: &str, arity: usize) -> bool {
    matches!(
        (name, arity),
        (",", 2)
            | (";", 2)
            | ("|", 2)
            | ("->", 2)
            | ("*->", 2)
            | ("\\+", 1)
            | ("findall", 3)
            | ("findall", 4)
            | ("forall", 2)
            | ("aggregate_all", 3)
            | ("aggregate", 3)
            | ("setof", 3)
            | ("bagof", 3)
            | ("^", 2)
            | (":", 2)
            | ("call", _)
            | ("include", 3)
            | ("exclude", 3)
            | ("partition", 4)
            | ("partition", 5)
            | ("foldl", 4..=6)
            | ("predsort", 3)
            | ("max_member", 3)
            | ("min_member", 3)
            | ("map_list_to_pairs", 3)
            | ("maplist", _)
            | ("not", 1)
            | ("once", 1)
            | ("ignore", 1)
    )
}

/// How many parameters a yall parameter list (`[X, Y]` or
/// `{Free}/[X, Y]`) has, if it is a proper list.
fn lambda_params(params: &Term) -> Option<usize> {
    let mut list = match params {
        Term::Compound(slash, args) if slash == "/" && args.len() == 2 => &args[1],
        other => other,
    };
    let mut n = 0;
    loop {
        match list {
            Term::Atom(nil) if nil == "[]" => return Some(n),
            Term::Compound(dot, args) if dot == "." && args.len() == 2 => {
                n += 1;
                list = &args[1];
            }
            _ => return None,
        }
    }
}

/// yall's free-variable term: `{X, Y}` or `{}`.
fn is_lambda_free(term: &Term) -> bool {
    matches!(term, Term::Atom(a) if a == "{}")
        || matches!(term, Term::Compound(f, args) if f == "{}" && args.len() == 1)
}

/// A built-in or library predicate SWI has whatever the answer defines.
fn is_library(name: &str, arity: usize) -> bool {
    is_builtin(name, arity) || closure_extra_args(name, arity).is_some() || is_control(name, arity)
}

/// Whether SWI refuses a user definition of `name/arity` ([`ISO_PROTECTED`],
/// kept sorted for this search).
fn is_iso_protected(name: &str, arity: usize) -> bool {
    ISO_PROTECTED.binary_search(&(name, arity)).is_ok()
}

fn is_builtin(name: &str, arity: usize) -> bool {
    SAFE_BUILTINS.contains(&(name, arity))
}

impl Checker<'_> {
    fn rename_head(&self, head: Term, key: &(String, usize)) -> Term {
        match self.helpers.get(key) {
            Some(private) => match head {
                Term::Compound(_, args) => Term::Compound(private.clone(), args),
                _ => Term::Atom(private.clone()),
            },
            None => head,
        }
    }

    /// Checks a goal and returns it rewritten; records the helpers it calls.
    fn goal(&self, goal: &Term, called: &mut Vec<(String, usize)>) -> Result<Term, Rejection> {
        let (name, arity) = match goal {
            Term::Var(v) => return Err(Rejection::Unsafe(format!("variable goal {v}"))),
            Term::Atom(_) | Term::Compound(..) => goal.name_arity().unwrap_or(("", 0)),
            other => return Err(Rejection::Unsafe(format!("{other} is not a goal"))),
        };
        let args = goal.args();
        if self.helpers.contains_key(&(name.to_string(), arity)) {
            return self.simple_goal(goal, name, arity, called);
        }
        let rebuild = |new_args: Vec<Term>| Term::Compound(name.to_string(), new_args);
        match (name, arity) {
            // SWI runs `(A | B)` in a body as `(A ; B)`.
            ("|", 2) => Ok(Term::Compound(
                ";".into(),
                vec![self.goal(&args[0], called)?, self.goal(&args[1], called)?],
            )),
            (",", 2) | (";", 2) | ("->", 2) | ("*->", 2) => Ok(rebuild(vec![
                self.goal(&args[0], called)?,
                self.goal(&args[1], called)?,
            ])),
            ("\\+", 1) => Ok(rebuild(vec![self.goal(&args[0], called)?])),
            // SWI's not/1, once/1 and ignore/1, written with control scryer
            // and SWI share.
            ("not", 1) => Ok(Term::Compound(
                "\\+".into(),
                vec![self.goal(&args[0], called)?],
            )),
            ("once", 1) => Ok(Term::Compound(
                "->".into(),
                vec![self.goal(&args[0], called)?, Term::Atom("true".into())],
            )),
            ("ignore", 1) => Ok(Term::Compound(
                ";".into(),
                vec![
                    Term::Compound(
                        "->".into(),
                        vec![self.goal(&args[0], called)?, Term::Atom("true".into())],
                    ),
                    Term::Atom("true".into()),
                ],
            )),
            ("findall", 3) | ("findall", 4) | ("aggregate_all", 3) => {
                let mut new_args = args.to_vec();
                new_args[1] = self.goal(&args[1], called)?;
                Ok(rebuild(new_args))
            }
            ("forall", 2) => Ok(rebuild(vec![
                self.goal(&args[0], called)?,
                self.goal(&args[1], called)?,
            ])),
            ("setof", 3) | ("bagof", 3) | ("aggregate", 3) => {
                let mut new_args = args.to_vec();
                new_args[1] = self.caret_goal(&args[1], called)?;
                Ok(rebuild(new_args))
            }
            (":", 2) => self.qualified_goal(goal, called),
            // yall: `Params>>Lambda` and `{Free}/Lambda`, called with any
            // number of extra arguments (see the prelude).
            (">>", n) if n >= 2 => {
                let extra = n - 2;
                let lambda_extra = match lambda_params(&args[0]) {
                    Some(params) if params <= extra => extra - params,
                    // Too many parameters: SWI's domain error, at run time.
                    _ => 0,
                };
                let mut new_args = args.to_vec();
                new_args[1] = self.closure(&args[1], lambda_extra, called)?;
                Ok(rebuild(new_args))
            }
            ("/", n) if n >= 2 && is_lambda_free(&args[0]) => {
                let mut new_args = args.to_vec();
                new_args[1] = self.closure(&args[1], n - 2, called)?;
                Ok(rebuild(new_args))
            }
            _ => {
                if let Some(extra) = closure_extra_args(name, arity) {
                    // The closure is the first argument of call/N, include/3,
                    // exclude/3 and maplist/N alike.
                    let mut new_args = args.to_vec();
                    new_args[0] = self.closure(&args[0], extra, called)?;
                    return Ok(rebuild(new_args));
                }
                self.simple_goal(goal, name, arity, called)
            }
        }
    }

    /// `Module:Goal`. In the reference, library modules are mostly not
    /// loaded when the answer runs, and a module SWI creates on the spot
    /// inherits from `user`: `lists:memberchk(X, L)`, `lists:has_car(T, C)`
    /// and `user:helper(X)` all run as the unqualified goal (an answer's
    /// own `intersection/3` included). Only `system` sees nothing of
    /// `user`: there the answer's predicates do not exist and a library
    /// name is SWI's own.
    fn qualified_goal(
        &self,
        goal: &Term,
        called: &mut Vec<(String, usize)>,
    ) -> Result<Term, Rejection> {
        let args = goal.args();
        let Term::Atom(module) = &args[0] else {
            return Err(Rejection::Unsafe(format!("module-qualified goal {goal}")));
        };
        let inner = &args[1];
        if module != "system" {
            return self.goal(inner, called);
        }
        let Some((name, arity)) = inner.name_arity() else {
            return self.goal(inner, called);
        };
        if !is_library(name, arity) {
            return Ok(Term::Compound(
                "$judge_undefined".into(),
                vec![Term::Atom(name.to_string()), Term::Int(arity as i64)],
            ));
        }
        let mut helpers = self.helpers.clone();
        helpers.remove(&(name.to_string(), arity));
        let library = Checker {
            task: self.task,
            helpers,
        };
        library.goal(inner, called)
    }

    /// `V^Goal` as setof/bagof take it.
    fn caret_goal(
        &self,
        goal: &Term,
        called: &mut Vec<(String, usize)>,
    ) -> Result<Term, Rejection> {
        match goal {
            Term::Compound(name, args) if name == "^" && args.len() == 2 => Ok(Term::Compound(
                "^".into(),
                vec![args[0].clone(), self.caret_goal(&args[1], called)?],
            )),
            _ => self.goal(goal, called),
        }
    }

    /// A closure called with `extra` more arguments: checked as the goal it
    /// becomes, then returned with the answer's helper names rewritten.
    fn closure(
        &self,
        closure: &Term,
        extra: usize,
        called: &mut Vec<(String, usize)>,
    ) -> Result<Term, Rejection> {
        let (name, args) = match closure {
            Term::Compound(colon, args) if colon == ":" && args.len() == 2 => {
                let Term::Atom(_) = &args[0] else {
                    return Err(Rejection::Unsafe(format!(
                        "module-qualified closure {closure}"
                    )));
                };
                return self.closure(&args[1], extra, called);
            }
            Term::Atom(a) => (a.clone(), Vec::new()),
            Term::Compound(f, args) => (f.clone(), args.clone()),
            Term::Var(v) => return Err(Rejection::Unsafe(format!("call of variable closure {v}"))),
            other => return Err(Rejection::Unsafe(format!("{other} is not a closure"))),
        };
        let mut full_args = args.clone();
        for i in 0..extra {
            full_args.push(Term::Var(format!("_JudgeExtra{i}")));
        }
        let full = if full_args.is_empty() {
            Term::Atom(name.clone())
        } else {
            Term::Compound(name, full_args)
        };
        let checked = self.goal(&full, called)?;
        if let Term::Compound(f, a) = &checked {
            // An undefined closure raises with its name and full arity.
            if f == "$judge_undefined" && a.len() == 2 {
                return Ok(checked);
            }
        }
        // Strip the extra arguments again.
        Ok(match checked {
            Term::Compound(f, mut a) => {
                a.truncate(a.len() - extra);
                if a.is_empty() {
                    Term::Atom(f)
                } else {
                    Term::Compound(f, a)
                }
            }
            other => other,
        })
    }

    fn simple_goal(
        &self,
        goal: &Term,
        name: &str,
        arity: usize,
        called: &mut Vec<(String, usize)>,
    ) -> Result<Term, Rejection> {
        let key = (name.to_string(), arity);
        if let Some(private) = self.helpers.get(&key) {
            called.push(key);
            return Ok(match goal {
                Term::Compound(_, args) => Term::Compound(private.clone(), args.clone()),
                _ => Term::Atom(private.clone()),
            });
        }
        if name == self.task.positive && arity == self.task.arity {
            return Ok(goal.clone());
        }
        if name == self.task.positive
            || name == self.task.negative
            || name == "pos"
            || name == "neg"
        {
            return Err(Rejection::Unsafe(format!(
                "calls label predicate {name}/{arity}"
            )));
        }
        if arity == 2 && ["is", "=:=", "=\\=", "<", ">", "=<", ">="].contains(&name) {
            let mut args = vec![Term::Atom(name.to_string())];
            args.extend(goal.args().iter().cloned());
            return Ok(Term::Compound("$judge_arith".into(), args));
        }
        if self.task.background_predicates.contains(&key) || is_builtin(name, arity) {
            return Ok(goal.clone());
        }
        if FORBIDDEN.contains(&name) || name.starts_with('$') || is_control(name, arity) {
            return Err(Rejection::Unsafe(format!("calls {name}/{arity}")));
        }
        // Unknown to everyone: SWI raises an existence error when it is
        // reached; so does the replacement.
        Ok(Term::Compound(
            "$judge_undefined".into(),
            vec![Term::Atom(name.to_string()), Term::Int(arity as i64)],
        ))
    }
}

/// Names that can bring a float into a computation: float functions and
/// constants of arithmetic, and the predicates that read numbers from text.
const FLOAT_SOURCES: &[&str] = &[
    "/",
    "**",
    "^",
    "sqrt",
    "exp",
    "log",
    "log2",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "float",
    "pi",
    "e",
    "inf",
    "infinite",
    "nan",
    "epsilon",
    "random_float",
    "cputime",
    "realtime",
    "float_integer_part",
    "float_fractional_part",
    "copysign",
    "nexttoward",
    "lgamma",
    "erf",
    "erfc",
    "atom_number",
    "number_codes",
    "number_chars",
];

/// SWI's string predicates: scryer has no string type.
const STRING_SOURCES: &[&str] = &[
    "string",
    "atom_string",
    "string_chars",
    "string_codes",
    "string_to_atom",
    "string_length",
    "string_concat",
];

/// Predicates and built-ins that order terms by the standard order.
const STANDARD_ORDER: &[&str] = &[
    "sort",
    "msort",
    "predsort",
    "@<",
    "@>",
    "@=<",
    "@>=",
    "compare",
    "setof",
    "set",
    "max_member",
    "min_member",
    "list_to_set",
];

/// Rewrites sanitized clauses for scryer-prolog 0.10, or says why scryer
/// cannot run them as SWI-Prolog does. Scryer lets a cut in the condition
/// of `->` cut the whole clause (SWI keeps it local), so such a condition
/// is wrapped in `call/1`; it has no `*->`, which becomes `\+`/`->`. It
/// reads double-quoted text as a list where SWI makes a string (and lacks
/// SWI's string predicates), and its
/// standard order puts every float before every integer where SWI compares
/// by value: answers with strings, or with both a possible float (in them
/// or in the `background`) and a standard-order comparison, are refused.
/// Comparisons go through the runtime, which refuses to order two distinct
/// unbound variables (ordered by address in both systems).
pub(crate) fn for_scryer(clauses: Vec<Term>, background: &[Term]) -> Result<Vec<Term>, String> {
    let strings = |t: &Term| match t {
        Term::Str(_) => true,
        Term::Atom(name) | Term::Compound(name, _) => STRING_SOURCES.contains(&name.as_str()),
        _ => false,
    };
    if clauses.iter().any(|c| mentions(c, &strings)) {
        return Err("strings".into());
    }
    let native_only = |t: &Term| match t {
        Term::Atom(name) => NATIVE_ONLY.contains(&name.as_str()) || name.starts_with("ord_"),
        // yall lambdas.
        Term::Compound(name, args) if name == ">>" && args.len() == 2 => {
            lambda_params(&args[0]).is_some()
        }
        Term::Compound(name, args) if name == "/" && args.len() == 2 => is_lambda_free(&args[0]),
        Term::Compound(name, _) => NATIVE_ONLY.contains(&name.as_str()) || name.starts_with("ord_"),
        _ => false,
    };
    if clauses.iter().any(|c| mentions(c, &native_only)) {
        return Err("a library predicate only the native engine has".into());
    }
    let floats = |t: &Term| match t {
        Term::Float(_) => true,
        Term::Atom(name) | Term::Compound(name, _) => FLOAT_SOURCES.contains(&name.as_str()),
        _ => false,
    };
    let ordered = |t: &Term| match t {
        Term::Atom(name) | Term::Compound(name, _) => STANDARD_ORDER.contains(&name.as_str()),
        _ => false,
    };
    if clauses.iter().any(|c| mentions(c, &ordered))
        && clauses
            .iter()
            .chain(background)
            .any(|c| mentions(c, &floats))
    {
        return Err("floats in the standard order of terms".into());
    }
    Ok(clauses
        .into_iter()
        .map(|clause| match clause {
            Term::Compound(name, mut args) if name == ":-" && args.len() == 2 => {
                let body = args.pop().map(scryer_goal);
                args.extend(body);
                Term::Compound(name, args)
            }
            fact => fact,
        })
        .collect())
}

/// Whether `term` or any subterm satisfies `test`.
fn mentions(term: &Term, test: &dyn Fn(&Term) -> bool) -> bool {
    test(term) || term.args().iter().any(|a| mentions(a, test))
}

fn compound(name: &str, args: Vec<Term>) -> Term {
    Term::Compound(name.into(), args)
}

/// A goal with local cuts and soft-cuts rewritten for scryer (see
/// [`for_scryer`]), including inside the goals of findall and its kind.
fn scryer_goal(goal: Term) -> Term {
    let Term::Compound(name, args) = goal else {
        return goal;
    };
    let mut args = args;
    match (name.as_str(), args.len()) {
        (";", 2) => {
            let (left, right) = (args.remove(0), scryer_goal(args.remove(0)));
            match left {
                Term::Compound(soft, mut inner) if soft == "*->" && inner.len() == 2 => {
                    // (C *-> T ; E) runs E if C has no solution, else C, T.
                    let condition = local_cut(scryer_goal(inner.remove(0)));
                    let then = scryer_goal(inner.remove(0));
                    compound(
                        ";",
                        vec![
                            compound("->", vec![compound("\\+", vec![condition.clone()]), right]),
                            compound(",", vec![condition, then]),
                        ],
                    )
                }
                left => compound(";", vec![scryer_goal(left), right]),
            }
        }
        ("->", 2) | ("*->", 2) => {
            let condition = local_cut(scryer_goal(args.remove(0)));
            let then = scryer_goal(args.remove(0));
            // (C *-> T) alone is C, T.
            let joint = if name == "->" { "->" } else { "," };
            compound(joint, vec![condition, then])
        }
        (",", 2) | ("\\+", 1) | ("forall", 2) => {
            compound(&name, args.into_iter().map(scryer_goal).collect())
        }
        ("findall", 3) | ("findall", 4) | ("aggregate_all", 3) | ("setof", 3) | ("bagof", 3) => {
            args[1] = scryer_goal(std::mem::replace(&mut args[1], Term::Atom("true".into())));
            compound(&name, args)
        }
        ("^", 2) => {
            args[1] = scryer_goal(std::mem::replace(&mut args[1], Term::Atom("true".into())));
            compound(&name, args)
        }
        // Through the runtime, which refuses to order distinct variables.
        ("@<" | "@>" | "@=<" | "@>=", 2) => {
            args.insert(0, Term::Atom(name));
            compound("$judge_order", args)
        }
        ("compare", 3) => compound("$judge_compare", args),
        _ => compound(&name, args),
    }
}

/// `goal`, wrapped in `call/1` if a cut in it would cut the clause.
fn local_cut(goal: Term) -> Term {
    fn cuts(goal: &Term) -> bool {
        match goal {
            Term::Atom(a) => a == "!",
            Term::Compound(name, args) if matches!(name.as_str(), "," | ";" | "->" | "*->") => {
                args.iter().any(cuts)
            }
            _ => false,
        }
    }
    if cuts(&goal) {
        compound("call", vec![goal])
    } else {
        goal
    }
}

#[cfg(test)]
mod tests {
    use super::{consult, sanitize, Rejection, Unread};

    /// `is_iso_protected` binary-searches the table: it must stay sorted,
    /// each entry once.
    #[test]
    fn the_iso_protected_table_is_sorted() {
        let table = super::ISO_PROTECTED;
        assert!(table.windows(2).all(|w| w[0] < w[1]));
        assert!(table
            .iter()
            .all(|&(name, arity)| super::is_iso_protected(name, arity)));
        assert!(!super::is_iso_protected("eastbound", 1));
        assert!(!super::is_iso_protected("atom_length", 3));
    }
    use crate::judge::task::TaskProgram;
    use crate::syntax::prolog::parse_program_recovering;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Sentences that reach or escape the rule in every way the sandbox
    /// knows, and sentences the tokens alone cannot place.
    const PIECES: &[&str] = &[
        "eastbound(T) :- has_car(T, C), h(C).",
        "eastbound(T) :- g.",
        "eastbound(T) :- maplist(k, [T]).",
        "eastbound(T) :- findall(X, 'k'(X), [_|_]), has_car(T, _).",
        "eastbound(T) :- call(\"z\"), has_car(T, _).",
        "eastbound(train9).",
        "h(C) :- car_color(C, red).",
        "h(C) :- k(C).",
        "h(C) --> k(C).",
        "k(_).",
        "k(X) :- X = 'a. b'.",
        "k(1) :- X = 0'., X > 0.",
        "g :- call(k, x).",
        "z.",
        "pad(1).",
        "pad(X) :- pad(X).",
        "pad().",
        "pad(a,).",
        "has_car(a, b).",
        "westbound(x).",
        "pos(x).",
        "'$x'(a).",
        "length(x, y).",
        "','(a, b).",
        "':-'(h(y), true).",
        "m:h(x).",
        "user:h(x).",
        "- h.",
        "h (x).",
        "x y.",
        "a :- b :- c.",
        "pad :- /* unterminated",
        "pad('unterminated",
        ":- dynamic k/1.",
        ":- dynamic pad/1.",
        ":- use_module(library(lists)).",
        ":- set_prolog_flag(double_quotes, atom).",
        ":- initialization(main).",
        "% a comment. with a dot",
        "/* k. */ z.",
    ];

    fn kind(r: &Result<Vec<crate::syntax::prolog::Term>, Rejection>) -> String {
        match r {
            Ok(terms) => terms
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            Err(Rejection::NoRule(_)) => "no rule".into(),
            Err(Rejection::Unsafe(_)) => "unsafe".into(),
            Err(Rejection::Syntax(_)) => "syntax".into(),
            Err(Rejection::Resource(_)) => "resource".into(),
        }
    }

    /// Reading only what the rule can reach loads what reading the whole
    /// text loads, and refuses what it refuses.
    #[test]
    fn consulting_in_part_loads_what_reading_all_loads() {
        let task = TaskProgram::parse(
            "eastbound(train0).\nhas_car(train0, car0_1).\ncar_color(car0_1, red).\nwestbound(train1).\n",
            "eastbound",
            "westbound",
        )
        .expect("task reads");
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let mut differ = Vec::new();
        for _ in 0..4000 {
            let n = rng.gen_range(1..12);
            let text: String = (0..n)
                .map(|_| {
                    let piece = *PIECES.choose(&mut rng).expect("pieces");
                    let gap = *["\n", " ", "\n\n  "].choose(&mut rng).expect("gaps");
                    format!("{piece}{gap}")
                })
                .collect();
            let whole = sanitize(parse_program_recovering(&text).0, &Unread::default(), &task);
            let part = consult(&text, "eastbound")
                .and_then(|read| sanitize(read.program, &read.unread, &task));
            if kind(&whole) != kind(&part) {
                differ.push(format!("{text:?}: {} / {}", kind(&whole), kind(&part)));
            }
        }
        assert!(
            differ.is_empty(),
            "{} differ, e.g. {:#?}",
            differ.len(),
            &differ[..differ.len().min(5)]
        );
    }

    #[test]
    fn what_no_rule_reaches_is_never_parsed() {
        let text = format!(
            "eastbound(T) :- has_car(T, _).\n{}",
            "pad(1, x).\npad(X) :- pad(X), 'quoted', \"string\".\n".repeat(1000)
        );
        let read = consult(&text, "eastbound").expect("reads");
        assert_eq!(read.program.sentences.len(), 1);
        assert_eq!(
            read.unread.iter().collect::<Vec<_>>(),
            vec![("pad", 2), ("pad", 1)]
        );
        let dense = format!(
            "eastbound(T) :- has_car(T, _){}.",
            ", true".repeat(super::MAX_READ_TOKENS / 2)
        );
        assert!(matches!(
            consult(&dense, "eastbound"),
            Err(Rejection::Resource(_))
        ));
    }
}

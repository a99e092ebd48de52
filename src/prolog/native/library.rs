//! SWI-Prolog library built-ins answers use beyond those of `builtins.rs`:
//! atomic_list_concat/2,3 (with its split mode), split_string/4,
//! number_string/2, string_code/3, term_variables/2 and format/3 into a
//! text. Each gives SWI 9's
//! results and raises where SWI raises (checked against swipl 9.0.4 in
//! `tests/judge_compat.rs`), and charges a step per list cell it walks or
//! builds and a work unit per character it scans.

use super::arith::Num;
use super::builtins::{raise, unsure, Chars, Kind, Text};
use super::format::{self, Columns};
use super::Machine;
use crate::prolog::native::term::{Cell, MINUS, NIL, QUOTED_NIL};
use crate::prolog::native::Fallback;
use crate::syntax::prolog::{
    atom_text, float_text, quoted as quoted_text, QUOTED_NIL as QUOTED_NIL_TEXT,
};
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// The built-ins of this file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lib {
    AtomicListConcat2,
    AtomicListConcat3,
    SplitString,
    NumberString,
    StringCode,
    TermVariables,
    Format,
}

/// Name, arity and built-in.
pub(crate) const TABLE: &[(&str, u32, Lib)] = &[
    ("atomic_list_concat", 2, Lib::AtomicListConcat2),
    ("atomic_list_concat", 3, Lib::AtomicListConcat3),
    ("split_string", 4, Lib::SplitString),
    ("number_string", 2, Lib::NumberString),
    ("string_code", 3, Lib::StringCode),
    ("term_variables", 2, Lib::TermVariables),
    ("format", 3, Lib::Format),
];

/// What the elements of an atomic_list_concat list are.
enum Parts {
    /// All bound: their texts.
    Bound(Vec<String>),
    /// An unbound element or tail: only the split mode can answer.
    Partial,
}

impl Machine<'_> {
    /// Runs a built-in of this file.
    pub(super) fn lib_builtin(&mut self, lib: Lib, args: u32) -> Result<bool, Fallback> {
        match lib {
            Lib::AtomicListConcat2 => {
                let what = "atomic_list_concat/2";
                match self.concat_parts(args, what)? {
                    Parts::Bound(parts) => self.unify_text(args, 1, &parts.concat(), Kind::Atom),
                    Parts::Partial => Err(raise(format!("instantiation_error in {what}"))),
                }
            }
            Lib::AtomicListConcat3 => self.atomic_list_concat3(args),
            Lib::SplitString => self.split_string(args),
            Lib::NumberString => self.number_string(args),
            Lib::StringCode => {
                let what = "string_code/3";
                let index = match self.deref_arg(args, 0) {
                    Cell::Int(i) => i,
                    Cell::Ref(_) => return Err(raise(format!("instantiation_error in {what}"))),
                    _ => return Err(raise(format!("type_error(integer) in {what}"))),
                };
                if index < 0 {
                    return Err(raise(format!("domain_error(not_less_than_zero) in {what}")));
                }
                let text = self.bound_text(self.arg(args, 1), what)?;
                self.store.charge(text.len() as u64)?;
                match usize::try_from(index - 1)
                    .ok()
                    .and_then(|i| text.chars().nth(i))
                {
                    Some(c) if index > 0 => self.unify(self.arg(args, 2), Cell::Int(c as i64)),
                    _ => Ok(false),
                }
            }
            Lib::Format => self.format_into_text(args),
            Lib::TermVariables => {
                let vars: Vec<Cell> = self
                    .ordered_variables(self.arg(args, 0))?
                    .into_iter()
                    .map(Cell::Ref)
                    .collect();
                self.charge_steps(vars.len())?;
                let list = self.store.make_list(&vars, Cell::Atom(NIL))?;
                self.unify(self.arg(args, 1), list)
            }
        }
    }

    /// format/3 into `atom(A)`, `string(S)`, `codes(C)` or `chars(C)`, with
    /// the directives `~w ~p ~q ~a ~d ~D ~s ~c ~e ~f ~g ~r ~R ~i ~n ~~` and
    /// column stops `~t ~| ~+`. What SWI writes by its term writer (a
    /// compound, a variable), other directives and a stream fall back.
    fn format_into_text(&mut self, args: u32) -> Result<bool, Fallback> {
        let what = "format/3";
        let sink = match self.store.deref(self.arg(args, 0)) {
            Cell::Str(p) => match self.store.heap[p as usize] {
                Cell::Functor(name, 1) => match self.atoms.name(name) {
                    "atom" => Some(Ok(Kind::Atom)),
                    "string" => Some(Ok(Kind::String)),
                    "codes" => Some(Err(Chars::Codes)),
                    "chars" => Some(Err(Chars::Chars)),
                    _ => None,
                }
                .map(|kind| (kind, self.store.heap[p as usize + 1])),
                _ => None,
            },
            _ => None,
        };
        let Some((kind, target)) = sink else {
            return Err(unsure("format/3 to a stream"));
        };
        let format = match self.store.deref(self.arg(args, 1)) {
            Cell::Ref(_) => return Err(raise(format!("instantiation_error in {what}"))),
            cell @ (Cell::Atom(_) | Cell::Int(_)) => self.bound_text(cell, what)?,
            cell => self.list_text(cell, what)?,
        };
        // A list holds the arguments; anything else is the one argument.
        let values = match self.store.deref(self.arg(args, 2)) {
            cell if matches!(cell, Cell::Atom(NIL)) || self.store.list_cell(cell).is_some() => {
                self.store.proper_list(cell)?
            }
            cell => vec![cell],
        };
        self.charge_steps(values.len())?;
        self.store.charge(format.len() as u64)?;
        let too_few = || raise(format!("format('not enough arguments') in {what}"));
        let bad = |detail: &str| raise(format!("format('{detail}') in {what}"));
        let mut values = values.into_iter();
        let mut out: Vec<char> = Vec::new();
        let mut columns = Columns::default();
        let mut chars = format.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '~' {
                out.push(c);
                continue;
            }
            // The numeric argument: digits, `*` (the next argument) or
            // `` `c `` (a character).
            let mut count: Option<usize> = None;
            match chars.peek() {
                Some('*') => {
                    chars.next();
                    match self.store.deref(values.next().ok_or_else(too_few)?) {
                        Cell::Int(n) if n >= 0 => count = Some(n as usize),
                        _ => return Err(bad("no or negative integer for `*' argument")),
                    }
                }
                Some('`') => {
                    chars.next();
                    let fill = chars.next().ok_or_else(|| bad("truncated format"))?;
                    count = Some(fill as usize);
                }
                Some(d) if d.is_ascii_digit() => {
                    let mut n: usize = 0;
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                        chars.next();
                        n = n.saturating_mul(10).saturating_add(d as usize);
                    }
                    count = Some(n);
                }
                _ => {}
            }
            let directive = chars.next().ok_or_else(|| bad("truncated format"))?;
            match directive {
                '~' => out.push('~'),
                'n' => {
                    let n = count.unwrap_or(1);
                    self.reserve_format(out.len(), n)?;
                    out.extend(std::iter::repeat('\n').take(n));
                }
                't' => {
                    let fill = match count {
                        Some(code) => u32::try_from(code)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(|| bad("illegal fill character"))?,
                        None => ' ',
                    };
                    columns.fill(&out, fill);
                }
                '|' | '+' => {
                    let here = Columns::column(&out);
                    let target = match (directive, count) {
                        ('|', Some(n)) => n,
                        ('|', None) => here,
                        (_, n) => columns.previous(&out).saturating_add(n.unwrap_or(8)),
                    };
                    let pad = Columns::padding(&out, target);
                    self.reserve_format(out.len(), pad)?;
                    columns.stop(&mut out, pad);
                }
                'i' => {
                    values.next().ok_or_else(too_few)?;
                }
                'w' | 'p' | 'q' | 'a' | 'd' | 'D' | 's' | 'c' | 'e' | 'f' | 'g' | 'r' | 'R' => {
                    let value = self.store.deref(values.next().ok_or_else(too_few)?);
                    let text = self.format_value(directive, count, value, what)?;
                    self.reserve_format(out.len(), text.len())?;
                    out.extend(text.chars());
                }
                // SWI's other directives (`~k ~I ~W ~@ ~:` …) are not
                // implemented; any other letter is SWI's error.
                d if d.is_ascii_alphabetic() && !"IkNW".contains(d) => {
                    return Err(raise(format!(
                        "existence_error(format_character) in {what}"
                    )))
                }
                _ => return Err(unsure("format/3 directive")),
            }
        }
        let text: String = out.into_iter().collect();
        if values.next().is_some() {
            return Err(raise(format!("format('too many arguments') in {what}")));
        }
        let made = match kind {
            Ok(kind) => self.make_text(&text, kind)?,
            Err(chars) => self.char_list(&text, chars)?,
        };
        self.unify(target, made)
    }

    /// Room for `more` characters after `len` in a format/3 output: a
    /// padding, precision or count beyond memory is SWI's resource error.
    fn reserve_format(&mut self, len: usize, more: usize) -> Result<(), Fallback> {
        let total = len.saturating_add(more);
        if total > 1 << 24 {
            return Err(Fallback::new("memory", "format/3 output beyond memory"));
        }
        self.store.check_heap(total / 2)?;
        self.charge_text(more)
    }

    /// The text one format/3 directive writes for `value`, `count` its
    /// numeric argument. What needs SWI's term writer (a compound, a
    /// variable, a non-ASCII atom quoted) falls back.
    fn format_value(
        &mut self,
        directive: char,
        count: Option<usize>,
        value: Cell,
        what: &str,
    ) -> Result<String, Fallback> {
        let argument_type = || raise(format!("format_argument_type({directive}) in {what}"));
        // ~d ~D ~r evaluate their argument, which must be an integer.
        let integer = |m: &mut Self| -> Result<Option<BigInt>, Fallback> {
            Ok(match super::arith::eval(&mut m.store, &m.atoms, value)? {
                Num::Int(i) => Some(BigInt::from(i)),
                Num::Big(b) => Some(b),
                Num::Float(_) => None,
            })
        };
        let text = match directive {
            's' => self.list_text(value, what)?,
            'w' | 'p' | 'q' | 'a' => {
                let quoted = directive == 'p' || directive == 'q';
                match value {
                    Cell::Float(f) => float_text(f),
                    Cell::Atom(a) if quoted => {
                        let name = self.atoms.name(a).to_string();
                        if !name.is_ascii() {
                            return Err(unsure("format/3 quotes a non-ASCII atom"));
                        }
                        if a == QUOTED_NIL {
                            atom_text(QUOTED_NIL_TEXT)
                        } else {
                            atom_text(&name)
                        }
                    }
                    cell if quoted && self.is_string(cell) => {
                        quoted_text(&self.bound_text(cell, what)?, '"')
                    }
                    Cell::Atom(_) | Cell::Int(_) | Cell::Big(_) => self.bound_text(value, what)?,
                    cell if self.is_string(cell) => self.bound_text(cell, what)?,
                    Cell::Ref(_) if directive == 'a' => {
                        return Err(raise(format!("instantiation_error in {what}")))
                    }
                    _ if directive == 'a' => return Err(argument_type()),
                    _ => return Err(unsure("format/3 writes a term")),
                }
            }
            'd' | 'D' => {
                let n = integer(self)?.ok_or_else(|| {
                    raise(format!(
                        "format('~{directive} expects an integer argument') in {what}"
                    ))
                })?;
                let point = count.unwrap_or(0);
                self.reserve_format(0, point)?;
                format::integer_d(&n, point, directive == 'D')
            }
            'c' => {
                let code = match value {
                    Cell::Int(i) => u32::try_from(i).ok().and_then(char::from_u32),
                    _ => None,
                };
                let c = code.ok_or_else(argument_type)?;
                let n = count.unwrap_or(1);
                self.reserve_format(0, n)?;
                std::iter::repeat(c).take(n).collect()
            }
            'r' | 'R' => {
                let radix = match count.unwrap_or(8) {
                    r @ 2..=36 => r as u32,
                    _ => return Err(raise(format!("domain_error(radix) in {what}"))),
                };
                let n = integer(self)?.ok_or_else(argument_type)?;
                let text = n.to_str_radix(radix);
                if directive == 'R' {
                    text.to_uppercase()
                } else {
                    text
                }
            }
            _ => {
                // ~e ~f ~g: the argument is evaluated, as SWI does.
                let precision = count.unwrap_or(6);
                self.reserve_format(0, precision)?;
                let n = super::arith::eval(&mut self.store, &self.atoms, value)?;
                match (directive, n) {
                    // SWI writes a big integer's digits exactly.
                    ('f', Num::Big(b)) => format!("{b}.{}", "0".repeat(precision)),
                    ('g', Num::Big(_)) => return Err(unsure("~g of a big integer")),
                    (_, n) => {
                        let f = match n {
                            Num::Int(i) => i as f64,
                            Num::Float(f) => f,
                            Num::Big(b) => b.to_f64().unwrap_or(f64::INFINITY),
                        };
                        match directive {
                            'e' => format::float_e(f, precision),
                            'f' => format::float_f(f, precision),
                            _ => format::float_g(f, precision),
                        }
                    }
                }
            }
        };
        Ok(text)
    }

    /// Unifies argument `i` with an atom or string of `text`.
    fn unify_text(&mut self, args: u32, i: u32, text: &str, kind: Kind) -> Result<bool, Fallback> {
        let made = self.make_text(text, kind)?;
        self.unify(self.arg(args, i), made)
    }

    /// The texts of atomic_list_concat's list (argument 0): SWI's type
    /// errors for a compound element or a tail that is not a list.
    fn concat_parts(&mut self, args: u32, what: &str) -> Result<Parts, Fallback> {
        let (items, tail) = self.store.list_items(self.arg(args, 0))?;
        self.charge_steps(items.len())?;
        let mut parts = Vec::with_capacity(items.len());
        let mut partial = false;
        for item in items {
            match self.store.deref(item) {
                Cell::Ref(_) => partial = true,
                cell @ (Cell::Atom(_) | Cell::Int(_)) => match self.text_arg(cell, what)? {
                    Text::Value(t) => parts.push(t),
                    Text::Unbound => partial = true,
                },
                cell if self.is_string(cell) => parts.push(self.bound_text(cell, what)?),
                Cell::Float(_) => return Err(unsure("float as text")),
                _ => return Err(raise(format!("type_error(text) in {what}"))),
            }
        }
        match tail {
            Cell::Atom(NIL) => {}
            Cell::Ref(_) => partial = true,
            _ => return Err(raise(format!("type_error(list) in {what}"))),
        }
        let chars: usize = parts.iter().map(String::len).sum();
        self.store.charge(chars as u64)?;
        Ok(if partial {
            Parts::Partial
        } else {
            Parts::Bound(parts)
        })
    }

    /// atomic_list_concat/3: joins a bound list; otherwise splits a bound
    /// atom at a non-empty separator into atoms.
    fn atomic_list_concat3(&mut self, args: u32) -> Result<bool, Fallback> {
        let what = "atomic_list_concat/3";
        if matches!(self.deref_arg(args, 1), Cell::Atom(NIL)) {
            // `[]` is no text to SWI.
            return Err(raise(format!("type_error(text) in {what}")));
        }
        let separator = self.bound_text(self.arg(args, 1), what)?;
        match self.concat_parts(args, what)? {
            Parts::Bound(parts) => {
                let joined = parts.join(&separator);
                self.unify_text(args, 2, &joined, Kind::Atom)
            }
            Parts::Partial => {
                let whole = match self.text_arg(self.arg(args, 2), what)? {
                    Text::Value(t) => t,
                    Text::Unbound => return Err(raise(format!("instantiation_error in {what}"))),
                };
                if separator.is_empty() {
                    return Err(raise(format!("domain_error(non_empty_atom) in {what}")));
                }
                self.store.charge(whole.len() as u64)?;
                let mut pieces = Vec::new();
                for piece in whole.split(separator.as_str()) {
                    pieces.push(self.make_text(piece, Kind::Atom)?);
                }
                self.charge_steps(pieces.len())?;
                let list = self.store.make_list(&pieces, Cell::Atom(NIL))?;
                self.unify(self.arg(args, 0), list)
            }
        }
    }

    /// A text argument of split_string/4: a string or an atom (a number is
    /// SWI's type error).
    fn split_text(&mut self, args: u32, i: u32, what: &str) -> Result<String, Fallback> {
        match self.deref_arg(args, i) {
            Cell::Int(_) | Cell::Float(_) => Err(raise(format!("type_error(text) in {what}"))),
            cell => {
                let text = self.bound_text(cell, what)?;
                self.store.charge(text.len() as u64)?;
                Ok(text)
            }
        }
    }

    /// split_string/4 as SWI 9 does it: the padding is stripped from the
    /// whole text first; then each field runs from the next non-padding
    /// character to the next separator, and loses its trailing padding.
    fn split_string(&mut self, args: u32) -> Result<bool, Fallback> {
        let what = "split_string/4";
        let text: Vec<char> = self.split_text(args, 0, what)?.chars().collect();
        // Sorted, so that a long separator or padding text costs a binary
        // search per character, not a scan.
        let sorted = |text: &str| {
            let mut chars: Vec<char> = text.chars().collect();
            chars.sort_unstable();
            chars.dedup();
            chars
        };
        let separators = sorted(&self.split_text(args, 1, what)?);
        let pad = sorted(&self.split_text(args, 2, what)?);
        let is_pad = |c: &char| pad.binary_search(c).is_ok();
        let mut start = 0;
        let mut end = text.len();
        while start < end && is_pad(&text[start]) {
            start += 1;
        }
        while end > start && is_pad(&text[end - 1]) {
            end -= 1;
        }
        let mut fields = Vec::new();
        loop {
            while start < end && is_pad(&text[start]) {
                start += 1;
            }
            let stop = (start..end)
                .find(|&i| separators.binary_search(&text[i]).is_ok())
                .unwrap_or(end);
            let mut last = stop;
            while last > start && is_pad(&text[last - 1]) {
                last -= 1;
            }
            let field: String = text[start..last].iter().collect();
            fields.push(self.make_text(&field, Kind::String)?);
            if stop >= end {
                break;
            }
            start = stop + 1;
        }
        self.charge_steps(fields.len())?;
        self.unify_fields(self.arg(args, 3), &fields, what)
    }

    /// Unifies `target` with the list of `fields` one element at a time,
    /// as SWI does: a mismatch fails, and a tail that is no list (reached
    /// before a mismatch) raises.
    fn unify_fields(
        &mut self,
        target: Cell,
        fields: &[Cell],
        what: &str,
    ) -> Result<bool, Fallback> {
        let mut at = target;
        for (i, &field) in fields.iter().enumerate() {
            let cell = self.store.deref(at);
            match self.store.list_cell(cell) {
                Some((head, rest)) => {
                    if !self.unify(head, field)? {
                        return Ok(false);
                    }
                    at = rest;
                }
                None => return self.unify_tail(cell, &fields[i..], what),
            }
        }
        let cell = self.store.deref(at);
        self.unify_tail(cell, &[], what)
    }

    /// The rest of [`Machine::unify_fields`]: `cell` is not a list cell.
    fn unify_tail(&mut self, cell: Cell, rest: &[Cell], what: &str) -> Result<bool, Fallback> {
        match cell {
            Cell::Ref(_) => {
                let list = self.store.make_list(rest, Cell::Atom(NIL))?;
                self.unify(cell, list)
            }
            Cell::Atom(NIL) => Ok(rest.is_empty()),
            // More elements than fields.
            _ if self.store.list_cell(cell).is_some() => Ok(false),
            _ => Err(raise(format!("type_error(list) in {what}"))),
        }
    }

    /// number_string/2: a string is read as a number (plain decimals here;
    /// SWI's other number syntax falls back), else a number is written.
    fn number_string(&mut self, args: u32) -> Result<bool, Fallback> {
        let what = "number_string/2";
        let text = self.deref_arg(args, 1);
        if self.is_string(text) {
            let text = self.bound_text(text, what)?;
            self.store.charge(text.len() as u64)?;
            return match self.number_cell(&text)? {
                Some(n) => self.unify(self.arg(args, 0), n),
                None => Ok(false),
            };
        }
        match (self.deref_arg(args, 0), text) {
            (_, Cell::Atom(a)) if a != NIL => Err(raise(format!("type_error(list) in {what}"))),
            (_, Cell::Atom(_) | Cell::Str(_)) => Err(unsure("number_string/2 on a list")),
            (Cell::Int(i), Cell::Ref(_)) => self.unify_text(args, 1, &i.to_string(), Kind::String),
            (Cell::Float(_), Cell::Ref(_)) => Err(unsure("float as text")),
            (Cell::Ref(_), Cell::Ref(_)) => Err(raise(format!("instantiation_error in {what}"))),
            (_, Cell::Ref(_)) => Err(raise(format!("type_error(number) in {what}"))),
            _ => Err(unsure("number_string/2 on a number")),
        }
    }

    /// arg/3 beyond a non-negative index into a compound: SWI enumerates
    /// the arguments for an unbound index, and raises for a negative one
    /// or for a term that is not compound.
    pub(super) fn arg_modes(&mut self, args: u32) -> Result<bool, Fallback> {
        let what = "arg/3";
        let term = self.deref_arg(args, 1);
        let compound = match term {
            Cell::Str(p) if !self.is_string(term) => match self.store.heap[p as usize] {
                Cell::Functor(_, arity) => Some((p, arity)),
                _ => None,
            },
            _ => None,
        };
        match (self.deref_arg(args, 0), compound) {
            (Cell::Int(n), _) if n < 0 => {
                Err(raise(format!("domain_error(not_less_than_zero) in {what}")))
            }
            (Cell::Ref(_) | Cell::Int(_), None) => match term {
                Cell::Ref(_) => Err(raise(format!("instantiation_error in {what}"))),
                _ => Err(raise(format!("type_error(compound) in {what}"))),
            },
            (Cell::Ref(_), Some((p, arity))) => {
                self.charge_steps(arity as usize)?;
                let mut solutions = Vec::with_capacity(arity as usize);
                for i in 1..=arity {
                    let value = self.store.heap[(p + i) as usize];
                    solutions.push(self.store.compound(MINUS, &[Cell::Int(i as i64), value])?);
                }
                let pattern = self
                    .store
                    .compound(MINUS, &[self.arg(args, 0), self.arg(args, 2)])?;
                self.alternatives(pattern, &solutions)
            }
            (Cell::Int(_), Some(_)) => Err(Fallback::new("internal", "arg/3")),
            _ => Err(raise(format!("type_error(integer) in {what}"))),
        }
    }
}

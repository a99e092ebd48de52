//! Built-ins beyond the core control and term predicates of `machine.rs`,
//! grouped as SWI-Prolog groups them: text (atoms, strings, characters and
//! number syntax), arithmetic helpers, and coroutining (`dif/2`, decidable
//! cases only). Each raises where SWI 9 raises (checked against swipl 9.0.4)
//! and falls back where it is not sure (floats printed as text, number
//! syntax beyond plain decimals, non-ASCII case mapping).
//!
//! Every built-in here charges for the text it scans, copies or makes
//! ([`super::super::term::Store::charge_text`]) and counts the atoms it
//! makes in the memory budget. A built-in with several solutions either
//! finds them all in one charged scan and continues as
//! `member(Solution, All)` (sub_atom/5 with Sub bound), or enumerates them
//! one at a time through a prelude predicate (atom_concat/3 and sub_atom/5
//! with unbound positions), so nothing is made before it is charged.

use super::Machine;
use crate::prolog::native::arith::{self, Num};
use crate::prolog::native::compile::MAX_LITERAL_DIGITS;
use crate::prolog::native::term::{
    is_string_tag, Cell, MEMBER, MINUS, NIL, STRING, TEXT_BYTES_PER_UNIT,
};
use crate::prolog::native::Fallback;
use std::borrow::Cow;

/// The built-ins of this file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ext {
    AtomCodes,
    AtomChars,
    CharCode,
    AtomLength,
    AtomNumber,
    NumberCodes,
    NumberChars,
    AtomString,
    UpcaseAtom,
    DowncaseAtom,
    AtomConcat,
    SubAtom,
    SubAtomAt,
    TextSplit,
    String,
    StringChars,
    StringCodes,
    StringToAtom,
    StringLength,
    StringConcat,
    Plus,
    Dif,
    Raise,
    Unsupported,
}

/// Name, arity and built-in.
pub(crate) const TABLE: &[(&str, u32, Ext)] = &[
    ("atom_codes", 2, Ext::AtomCodes),
    ("atom_chars", 2, Ext::AtomChars),
    ("char_code", 2, Ext::CharCode),
    ("atom_length", 2, Ext::AtomLength),
    ("atom_number", 2, Ext::AtomNumber),
    ("number_codes", 2, Ext::NumberCodes),
    ("number_chars", 2, Ext::NumberChars),
    ("atom_string", 2, Ext::AtomString),
    ("upcase_atom", 2, Ext::UpcaseAtom),
    ("downcase_atom", 2, Ext::DowncaseAtom),
    ("atom_concat", 3, Ext::AtomConcat),
    ("sub_atom", 5, Ext::SubAtom),
    ("$sub_atom_at", 5, Ext::SubAtomAt),
    ("$text_split", 5, Ext::TextSplit),
    ("string", 1, Ext::String),
    ("string_chars", 2, Ext::StringChars),
    ("string_codes", 2, Ext::StringCodes),
    ("string_to_atom", 2, Ext::StringToAtom),
    ("string_length", 2, Ext::StringLength),
    ("string_concat", 3, Ext::StringConcat),
    ("plus", 3, Ext::Plus),
    ("dif", 2, Ext::Dif),
    ("$raise", 1, Ext::Raise),
    ("$unsupported", 1, Ext::Unsupported),
];

pub(super) fn raise(detail: String) -> Fallback {
    Fallback::raise(detail)
}

pub(super) fn unsure(detail: &str) -> Fallback {
    Fallback::new("unsure", detail)
}

/// What a text argument is.
pub(super) enum Text {
    Unbound,
    Value(String),
}

/// How a list of characters is given: as codes or as one-char atoms.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Chars {
    Codes,
    Chars,
}

/// What the result of a text conversion is made of.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Atom,
    String,
}

/// What [`other_syntax`] makes of a number's text.
enum Other {
    /// Plain decimal syntax: read on.
    Plain,
    NotNumber,
    /// A form SWI reads that is not decided here (`1r3`, `0'\\n`, …).
    Unsure,
    Int(num_bigint::BigInt),
    Float(f64),
}

/// Digits in `radix`, in groups joined by single `_` (`1_000`), as SWI 9
/// reads them; `None` when `text` is not that.
fn grouped_digits(text: &str, radix: u32) -> Option<num_bigint::BigInt> {
    if text.len() > MAX_LITERAL_DIGITS {
        return None;
    }
    let mut digits = Vec::with_capacity(text.len());
    for group in text.split('_') {
        if group.is_empty() || !group.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        digits.extend_from_slice(group.as_bytes());
    }
    num_bigint::BigInt::parse_bytes(&digits, radix)
}

/// SWI 9's number syntax beyond plain decimals, on the text after an
/// optional sign (`signed`): `0x1A`, `0o17`, `0b101`, `16'FF` (no sign),
/// `0'c`, digit groups `1_000`, `1.5NaN` and `1.0Inf`. Checked against
/// swipl 9.0.4's atom_number/2.
fn other_syntax(body: &str, signed: bool) -> Other {
    if body.len() > MAX_LITERAL_DIGITS {
        return Other::Plain;
    }
    let to = |n: Option<num_bigint::BigInt>| n.map_or(Other::NotNumber, Other::Int);
    if let Some(rest) = body.strip_prefix("0'") {
        if signed {
            return Other::Unsure;
        }
        let mut chars = rest.chars();
        return match (chars.next(), chars.next(), chars.next()) {
            (Some('\\'), ..) => Other::Unsure,
            (Some('\''), None, _) | (Some('\''), Some('\''), None) => Other::Int(39.into()),
            (Some(c), None, _) if c != '\'' => Other::Int((c as u32).into()),
            _ => Other::NotNumber,
        };
    }
    if body.ends_with(char::is_whitespace) {
        return Other::NotNumber;
    }
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = body.strip_prefix(prefix) {
            return to(grouped_digits(rest, radix));
        }
    }
    let lead = body.bytes().take_while(u8::is_ascii_digit).count();
    if body.as_bytes().get(lead) == Some(&b'\'') {
        let radix: u32 = body[..lead].parse().unwrap_or(0);
        if signed || !(2..=36).contains(&radix) {
            return Other::NotNumber;
        }
        let rest = &body[lead + 1..];
        if rest.is_empty() || !rest.chars().all(|c| c.is_digit(radix)) {
            return Other::NotNumber;
        }
        return to(num_bigint::BigInt::parse_bytes(rest.as_bytes(), radix));
    }
    if body.contains('_') {
        return to(grouped_digits(body, 10));
    }
    // A fraction or exponent cut short: `1.`, `1.5e`, `1.5e+`.
    if body.ends_with(['.', 'e', 'E', '+', '-']) {
        return Other::NotNumber;
    }
    if body.starts_with("0X") || body.starts_with("00x") {
        return Other::NotNumber;
    }
    match body {
        "1.5NaN" => Other::Float(f64::NAN),
        "1.0Inf" | "1.5Inf" => Other::Float(f64::INFINITY),
        // Other mantissas of 1.x carry a NaN payload in SWI; not read here.
        _ if body.starts_with("1.") && body.ends_with("NaN") && !body.starts_with("1.0") => {
            Other::Unsure
        }
        _ if body.ends_with("NaN") || body.ends_with("Inf") => Other::NotNumber,
        _ => Other::Plain,
    }
}

/// A plain decimal number as SWI reads it (`-12`, `+3`, `1.5`, `1.0e10`,
/// `1e10`, big integers): `Ok(Some(number))`; `Ok(None)` when `text` is
/// certainly not a number; an `unsure` fallback for SWI's other number
/// syntax (`0x1A`, `0'a`, `1_000`, `1r2`, `1.5Inf`) and anything that
/// starts like a number but is not plain.
pub(super) fn parse_number(text: &str) -> Result<Option<Num>, Fallback> {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !body.starts_with(|c: char| c.is_ascii_digit()) {
        return Ok(None);
    }
    let negative = text.starts_with('-');
    match other_syntax(body, body.len() != text.len()) {
        Other::Plain => {}
        Other::NotNumber => return Ok(None),
        Other::Unsure => return Err(unsure("number syntax beyond SWI's common forms")),
        Other::Float(f) => return Ok(Some(Num::Float(if negative { -f } else { f }))),
        Other::Int(value) => {
            let value = if negative { -value } else { value };
            return Ok(Some(match i64::try_from(&value) {
                Ok(i) => Num::Int(i),
                Err(_) => Num::Big(value),
            }));
        }
    }
    let bytes = body.as_bytes();
    let digits = |i: usize| bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut i = digits(0);
    let mut is_float = false;
    if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
        i += 1 + digits(i + 1);
        is_float = true;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        let mut j = i + 1;
        if j < bytes.len() && (bytes[j] == b'-' || bytes[j] == b'+') {
            j += 1;
        }
        let n = digits(j);
        if n > 0 {
            i = j + n;
            is_float = true;
        }
    }
    if i != bytes.len() {
        return Err(unsure("number syntax beyond plain decimals"));
    }
    if is_float {
        let value: f64 = body.parse().map_err(|_| unsure("float syntax"))?;
        if !value.is_finite() {
            return Err(unsure("float out of range"));
        }
        Ok(Some(Num::Float(if negative { -value } else { value })))
    } else {
        if body.len() > MAX_LITERAL_DIGITS {
            return Err(Fallback::new("memory", "integer text too long"));
        }
        let value: num_bigint::BigInt = body.parse().map_err(|_| unsure("integer syntax"))?;
        let value = if negative { -value } else { value };
        Ok(Some(match i64::try_from(&value) {
            Ok(i) => Num::Int(i),
            Err(_) => Num::Big(value),
        }))
    }
}

/// Byte offsets of `len` characters of `text` from character `from`;
/// `None` when out of range. Plain ASCII is sliced directly.
fn char_span(text: &str, from: i64, len: i64) -> Option<(usize, usize)> {
    if from < 0 || len < 0 {
        return None;
    }
    let (from, len) = (from as usize, len as usize);
    if text.is_ascii() {
        let to = from.checked_add(len)?;
        return (to <= text.len()).then_some((from, to));
    }
    let mut offsets = text.char_indices().map(|(i, _)| i).chain([text.len()]);
    let start = offsets.nth(from)?;
    let end = if len == 0 {
        start
    } else {
        offsets.nth(len - 1)?
    };
    Some((start, end))
}

impl Machine<'_> {
    /// Whether `cell` (dereferenced) is a string object.
    pub(super) fn is_string(&self, cell: Cell) -> bool {
        match cell {
            Cell::Str(p) => {
                matches!(self.store.heap[p as usize], Cell::Functor(n, a) if is_string_tag(n, a))
            }
            _ => false,
        }
    }

    /// The text of an atomic argument (atom, integer, string), borrowed
    /// where it can be; floats fall back (SWI's float printing is not
    /// imitated); compounds raise. Not charged: see [`Machine::text_arg`].
    pub(super) fn text_of(&self, cell: Cell, what: &str) -> Result<Option<Cow<'_, str>>, Fallback> {
        let cell = self.store.deref(cell);
        match cell {
            Cell::Ref(_) => Ok(None),
            Cell::Atom(a) => Ok(Some(Cow::Borrowed(self.atoms.name(a)))),
            Cell::Int(i) => Ok(Some(Cow::Owned(i.to_string()))),
            Cell::Big(b) => Ok(Some(Cow::Owned(self.store.bigs[b as usize].to_string()))),
            Cell::Float(_) => Err(unsure("float as text")),
            Cell::Str(p) if self.is_string(cell) => {
                match self.store.deref(self.store.heap[p as usize + 1]) {
                    Cell::Atom(a) => Ok(Some(Cow::Borrowed(self.atoms.name(a)))),
                    _ => Err(Fallback::new("internal", "string cell")),
                }
            }
            _ => Err(raise(format!("type_error(atomic) in {what}"))),
        }
    }

    /// Charges for reading an atomic argument's text: its bytes, and for a
    /// big integer the conversion to decimal (quadratic in its words).
    fn charge_text_of(&mut self, cell: Cell) -> Result<(), Fallback> {
        match self.store.deref(cell) {
            Cell::Big(b) => {
                let words = self.store.bigs[b as usize].bits() / 64 + 1;
                self.store.charge(words.saturating_mul(words) / 8 + words)
            }
            Cell::Ref(_) | Cell::Float(_) => Ok(()),
            c => {
                // Not text: the caller raises the error, naming itself.
                let bytes = self.text_of(c, "").ok().flatten().map_or(0, |t| t.len());
                self.charge_text(bytes)
            }
        }
    }

    /// The text of an atomic argument, copied (and charged for it).
    pub(super) fn text_arg(&mut self, cell: Cell, what: &str) -> Result<Text, Fallback> {
        self.charge_text_of(cell)?;
        Ok(match self.text_of(cell, what)? {
            None => Text::Unbound,
            Some(t) => Text::Value(t.into_owned()),
        })
    }

    /// A text argument that must be bound.
    pub(super) fn bound_text(&mut self, cell: Cell, what: &str) -> Result<String, Fallback> {
        match self.text_arg(cell, what)? {
            Text::Value(t) => Ok(t),
            Text::Unbound => Err(raise(format!("instantiation_error in {what}"))),
        }
    }

    /// An atom or string cell holding `text`, charged for copying it and
    /// counted in the memory budget.
    pub(super) fn make_text(&mut self, text: &str, kind: Kind) -> Result<Cell, Fallback> {
        self.charge_text(text.len())?;
        let atom = self.atoms.make(&mut self.store, text)?;
        match kind {
            Kind::Atom => Ok(Cell::Atom(atom)),
            Kind::String => self.store.compound(STRING, &[Cell::Atom(atom)]),
        }
    }

    /// The list of `text`'s characters as codes or one-char atoms.
    pub(super) fn char_list(&mut self, text: &str, chars: Chars) -> Result<Cell, Fallback> {
        let mut items = Vec::with_capacity(text.len());
        for c in text.chars() {
            items.push(match chars {
                Chars::Codes => Cell::Int(c as i64),
                Chars::Chars => {
                    let mut buf = [0u8; 4];
                    Cell::Atom(self.atoms.make(&mut self.store, c.encode_utf8(&mut buf))?)
                }
            });
        }
        self.charge_steps(items.len())?;
        self.store.make_list(&items, Cell::Atom(NIL))
    }

    /// The text a proper list of codes or chars spells (either kind is
    /// accepted, as SWI does); a partial list or unbound element raises an
    /// instantiation error, anything else a type error.
    pub(super) fn list_text(&mut self, list: Cell, what: &str) -> Result<String, Fallback> {
        let cell = self.store.deref(list);
        if self.is_string(cell) {
            return self.bound_text(cell, what);
        }
        if matches!(cell, Cell::Atom(a) if a != NIL) {
            return Err(unsure("text given as an atom"));
        }
        let (items, tail) = self.store.list_items(list)?;
        self.charge_steps(items.len())?;
        match tail {
            Cell::Atom(NIL) => {}
            Cell::Ref(_) => return Err(raise(format!("instantiation_error in {what}"))),
            _ => return Err(raise(format!("type_error(list) in {what}"))),
        }
        let mut text = String::with_capacity(items.len());
        // Codes or chars, not both (SWI raises on a mixed list).
        let mut codes: Option<bool> = None;
        for item in items {
            let item = self.store.deref(item);
            let is_code = matches!(item, Cell::Int(_));
            if !matches!(item, Cell::Ref(_)) && *codes.get_or_insert(is_code) != is_code {
                return Err(raise(format!("type_error(character) in {what}")));
            }
            match item {
                Cell::Ref(_) => return Err(raise(format!("instantiation_error in {what}"))),
                Cell::Int(code) => match u32::try_from(code).ok().and_then(char::from_u32) {
                    Some(c) if code > 0 => text.push(c),
                    _ => return Err(raise(format!("representation_error in {what}"))),
                },
                Cell::Atom(a) => {
                    let name = self.atoms.name(a);
                    let mut it = name.chars();
                    match (it.next(), it.next()) {
                        (Some(c), None) => text.push(c),
                        _ => return Err(raise(format!("type_error(character) in {what}"))),
                    }
                }
                _ => return Err(raise(format!("type_error(character) in {what}"))),
            }
        }
        Ok(text)
    }

    /// Unifies argument `i` with a list of `text`'s characters.
    fn unify_chars(
        &mut self,
        args: u32,
        i: u32,
        text: &str,
        chars: Chars,
        kind: Kind,
        what: &str,
    ) -> Result<bool, Fallback> {
        let target = self.deref_arg(args, i);
        let atomic_text = matches!(target, Cell::Int(_) | Cell::Big(_))
            || matches!(target, Cell::Atom(a) if a != NIL);
        if self.is_string(target) || (kind == Kind::String && atomic_text) {
            // SWI compares the text when the list is given as a string
            // (or, for string_codes/2 and kin, as any atomic).
            return Ok(self.bound_text(target, "text")? == text);
        }
        if kind == Kind::Atom
            && !matches!(
                self.store.list_items(target)?.1,
                Cell::Ref(_) | Cell::Atom(NIL)
            )
        {
            // SWI checks the list's shape before comparing (atom_codes/2,
            // number_codes/2 and kin; string_codes/2 only compares).
            return Err(raise(format!("type_error(list) in {what}")));
        }
        let list = self.char_list(text, chars)?;
        self.unify(self.arg(args, i), list)
    }

    /// atom_codes/2, atom_chars/2, string_chars/2, string_codes/2.
    fn text_to_list(
        &mut self,
        args: u32,
        chars: Chars,
        kind: Kind,
        what: &str,
    ) -> Result<bool, Fallback> {
        match self.text_arg(self.arg(args, 0), what)? {
            Text::Value(text) => self.unify_chars(args, 1, &text, chars, kind, what),
            Text::Unbound => {
                let text = self.list_text(self.arg(args, 1), what)?;
                let made = self.make_text(&text, kind)?;
                self.unify(self.arg(args, 0), made)
            }
        }
    }

    /// number_codes/2, number_chars/2.
    fn number_list(&mut self, args: u32, chars: Chars, what: &str) -> Result<bool, Fallback> {
        match self.deref_arg(args, 0) {
            n @ (Cell::Int(_) | Cell::Big(_)) => {
                let text = self.bound_text(n, what)?;
                self.unify_chars(args, 1, &text, chars, Kind::Atom, what)
            }
            Cell::Float(_) => Err(unsure("float as text")),
            Cell::Ref(_) => {
                let text = self.list_text(self.arg(args, 1), what)?;
                // Leading layout is allowed here (not in atom_number/2).
                match self.number_cell(text.trim_start())? {
                    Some(n) => self.unify(self.arg(args, 0), n),
                    None => Err(raise(format!("syntax_error(illegal_number) in {what}"))),
                }
            }
            _ => Err(raise(format!("type_error(number) in {what}"))),
        }
    }

    /// The number `text` spells ([`parse_number`]) as a cell, charged for
    /// reading it (quadratic in the words of a big integer).
    pub(super) fn number_cell(&mut self, text: &str) -> Result<Option<Cell>, Fallback> {
        let words = (text.len() / 19 + 1) as u64;
        if words > 1 {
            self.store.charge(words * words / 16 + words)?;
        }
        match parse_number(text)? {
            Some(n) => Ok(Some(n.cell(&mut self.store)?)),
            None => Ok(None),
        }
    }

    /// Solutions as `member(Solution, [All…])`, run next.
    pub(super) fn alternatives(
        &mut self,
        pattern: Cell,
        solutions: &[Cell],
    ) -> Result<bool, Fallback> {
        let list = self.store.make_list(solutions, Cell::Atom(NIL))?;
        let goal = self.store.compound(MEMBER, &[pattern, list])?;
        self.call_next(goal);
        Ok(true)
    }

    /// atom_concat/3 and string_concat/3. With the whole bound and both
    /// parts unbound, the splits are enumerated one at a time
    /// (`'$concat_enum'/5` in the prelude), each charged as it is made.
    fn concat(&mut self, args: u32, kind: Kind, what: &str) -> Result<bool, Fallback> {
        // SWI checks every argument first: `[]` is no text, a compound
        // whole is no atomic (even when the parts alone decide).
        for i in 0..3 {
            let cell = self.deref_arg(args, i);
            if matches!(cell, Cell::Atom(NIL)) {
                return Err(raise(format!("type_error(atom) in {what}")));
            }
            if matches!(cell, Cell::Str(_)) && !self.is_string(cell) {
                return Err(raise(format!("type_error(atomic) in {what}")));
            }
        }
        let a = self.text_arg(self.arg(args, 0), what)?;
        let b = self.text_arg(self.arg(args, 1), what)?;
        if let (Text::Value(a), Text::Value(b)) = (&a, &b) {
            self.charge_text(a.len() + b.len())?;
            let joined = format!("{a}{b}");
            if !matches!(self.deref_arg(args, 2), Cell::Ref(_)) {
                // SWI compares the text: atom_concat(a, b, "ab") holds.
                return Ok(self.bound_text(self.arg(args, 2), what)? == joined);
            }
            let made = self.make_text(&joined, kind)?;
            return self.unify(self.arg(args, 2), made);
        }
        let whole = self.bound_text(self.arg(args, 2), what)?;
        match (a, b) {
            (Text::Value(a), _) => match whole.strip_prefix(a.as_str()) {
                Some(rest) => {
                    let rest = self.make_text(rest, kind)?;
                    self.unify(self.arg(args, 1), rest)
                }
                None => Ok(false),
            },
            (_, Text::Value(b)) => match whole.strip_suffix(b.as_str()) {
                Some(rest) => {
                    let rest = self.make_text(rest, kind)?;
                    self.unify(self.arg(args, 0), rest)
                }
                None => Ok(false),
            },
            _ => {
                let n = whole.chars().count() as i64;
                let name = self.atoms.make(&mut self.store, "$concat_enum")?;
                let goal = self.store.compound(
                    name,
                    &[
                        self.arg(args, 2),
                        Cell::Int(n),
                        Cell::Int(kind as i64),
                        self.arg(args, 0),
                        self.arg(args, 1),
                    ],
                )?;
                self.call_next(goal);
                Ok(true)
            }
        }
    }

    /// `'$text_split'(Whole, I, Kind, A, B)`: A is the first I characters
    /// of Whole, B the rest, both of kind `Kind` (0 atom, 1 string).
    fn text_split(&mut self, args: u32) -> Result<bool, Fallback> {
        let (Cell::Int(at), Cell::Int(kind)) = (self.deref_arg(args, 1), self.deref_arg(args, 2))
        else {
            return Err(Fallback::new("internal", "$text_split"));
        };
        let kind = if kind == 0 { Kind::Atom } else { Kind::String };
        let whole = self.bound_text(self.arg(args, 0), "atom_concat/3")?;
        let Some((from, _)) = char_span(&whole, at, 0) else {
            return Ok(false);
        };
        let left = self.make_text(&whole[..from], kind)?;
        let right = self.make_text(&whole[from..], kind)?;
        Ok(self.unify(self.arg(args, 3), left)? && self.unify(self.arg(args, 4), right)?)
    }

    /// An integer argument of any size that may be unbound.
    fn opt_integer(&mut self, args: u32, i: u32, what: &str) -> Result<Option<Num>, Fallback> {
        match self.deref_arg(args, i) {
            Cell::Ref(_) => Ok(None),
            Cell::Int(n) => Ok(Some(Num::Int(n))),
            Cell::Big(b) => {
                self.store
                    .charge(self.store.bigs[b as usize].bits() / 64 + 1)?;
                Ok(Some(Num::Big(self.store.bigs[b as usize].clone())))
            }
            _ => Err(raise(format!("type_error(integer) in {what}"))),
        }
    }

    /// An integer argument that may be unbound: SWI's type errors.
    pub(super) fn opt_int(&self, args: u32, i: u32, what: &str) -> Result<Option<i64>, Fallback> {
        match self.deref_arg(args, i) {
            Cell::Ref(_) => Ok(None),
            Cell::Int(n) => Ok(Some(n)),
            _ => Err(raise(format!("type_error(integer) in {what}"))),
        }
    }

    /// sub_atom/5 on a bound atom, with SWI's solutions in SWI's order
    /// (Before, then Length, ascending). A bound Sub is searched for; two
    /// of Before, Length and After bound give the one answer directly;
    /// otherwise the candidates are enumerated one at a time
    /// (`'$sub_atom_enum'/6` in the prelude), so no answer materialises
    /// more than one substring per solution, and each is charged.
    fn sub_atom(&mut self, args: u32) -> Result<bool, Fallback> {
        let what = "sub_atom/5";
        let atom = self.arg(args, 0);
        if matches!(self.store.deref(atom), Cell::Ref(_)) {
            return Err(raise(format!("instantiation_error in {what}")));
        }
        let before = self.opt_int(args, 1, what)?;
        let length = self.opt_int(args, 2, what)?;
        let after = self.opt_int(args, 3, what)?;
        if [before, length, after].iter().flatten().any(|&x| x < 0) {
            return Err(raise(format!("domain_error(not_less_than_zero) in {what}")));
        }
        self.charge_text_of(atom)?;
        let n = match self.text_of(atom, what)? {
            Some(whole) => whole.chars().count() as i64,
            None => return Err(Fallback::new("internal", "sub_atom")),
        };
        self.charge_text_of(self.arg(args, 4))?;
        if self.text_of(self.arg(args, 4), what)?.is_some() {
            return self.sub_atom_search(args, n, (before, length, after));
        }
        let direct = match (before, length, after) {
            (Some(b), Some(l), _) => Some((b, l)),
            // Saturating: Before and After near 2^63 overflowed (a panic,
            // or a wrong answer where overflow wraps); a negative result
            // fails in `sub_atom_at`.
            (Some(b), None, Some(a)) => Some((b, n.saturating_sub(b).saturating_sub(a))),
            (None, Some(l), Some(a)) => Some((n.saturating_sub(l).saturating_sub(a), l)),
            _ => None,
        };
        if let Some((b, l)) = direct {
            return self.sub_atom_at(args, b, l);
        }
        let name = self.atoms.make(&mut self.store, "$sub_atom_enum")?;
        let goal = self.store.compound(
            name,
            &[
                atom,
                Cell::Int(n),
                self.arg(args, 1),
                self.arg(args, 2),
                self.arg(args, 3),
                self.arg(args, 4),
            ],
        )?;
        self.call_next(goal);
        Ok(true)
    }

    /// sub_atom/5's one answer at Before `b`, Length `l` (its arguments at
    /// `args`): fails when out of range.
    fn sub_atom_at(&mut self, args: u32, b: i64, l: i64) -> Result<bool, Fallback> {
        let what = "sub_atom/5";
        let atom = self.arg(args, 0);
        let (sub, n) = {
            let Some(whole) = self.text_of(atom, what)? else {
                return Err(raise(format!("instantiation_error in {what}")));
            };
            let n = whole.chars().count() as i64;
            match char_span(&whole, b, l) {
                Some((from, to)) if b + l <= n => (whole[from..to].to_string(), n),
                _ => return Ok(false),
            }
        };
        self.charge_text_of(atom)?;
        let sub = self.make_text(&sub, Kind::Atom)?;
        Ok(self.unify(self.arg(args, 1), Cell::Int(b))?
            && self.unify(self.arg(args, 2), Cell::Int(l))?
            && self.unify(self.arg(args, 3), Cell::Int(n - b - l))?
            && self.unify(self.arg(args, 4), sub)?)
    }

    /// `'$sub_atom_at'(Atom, B, L, A, Sub)` with B and L bound.
    fn sub_atom_at_builtin(&mut self, args: u32) -> Result<bool, Fallback> {
        match (self.deref_arg(args, 1), self.deref_arg(args, 2)) {
            (Cell::Int(b), Cell::Int(l)) => self.sub_atom_at(args, b, l),
            _ => Err(Fallback::new("internal", "$sub_atom_at")),
        }
    }

    /// sub_atom/5 with Sub bound: its occurrences (overlapping ones too),
    /// filtered by what else is bound. Each search is charged for the text
    /// it passes over.
    fn sub_atom_search(
        &mut self,
        args: u32,
        n: i64,
        (before, length, after): (Option<i64>, Option<i64>, Option<i64>),
    ) -> Result<bool, Fallback> {
        let what = "sub_atom/5";
        // The scan borrows the text, so it is charged after, but stops
        // as soon as it has done more than the budget has left.
        let allowance = self
            .store
            .work_left()
            .saturating_mul(TEXT_BYTES_PER_UNIT as u64);
        let (found, scanned) = {
            let (Some(whole), Some(sub)) = (
                self.text_of(self.arg(args, 0), what)?,
                self.text_of(self.arg(args, 4), what)?,
            ) else {
                return Err(Fallback::new("internal", "sub_atom"));
            };
            let l = sub.chars().count() as i64;
            let mut found: Vec<i64> = Vec::new();
            let mut scanned = 0usize;
            if length.is_none_or(|x| x == l) {
                // Byte offset and character offset of the search start.
                let (mut from, mut chars) = (0usize, 0i64);
                while from <= whole.len() && scanned as u64 <= allowance {
                    let Some(hit) = whole[from..].find(sub.as_ref()) else {
                        scanned += whole.len() - from;
                        break;
                    };
                    scanned += hit + sub.len();
                    chars += whole[from..from + hit].chars().count() as i64;
                    let b = chars;
                    if before.is_none_or(|x| x == b) && after.is_none_or(|x| x == n - b - l) {
                        found.push(b);
                    }
                    // The next search starts one character later.
                    let step = whole[from + hit..].chars().next().map_or(1, char::len_utf8);
                    from += hit + step;
                    chars += 1;
                }
            }
            (found, scanned)
        };
        self.charge_text(scanned)?;
        self.charge_steps(found.len())?;
        let sub = self.deref_arg(args, 4);
        let l = match self.text_of(sub, what)? {
            Some(t) => t.chars().count() as i64,
            None => 0,
        };
        let mut solutions = Vec::with_capacity(found.len());
        for b in found {
            let t = self
                .store
                .compound(MINUS, &[Cell::Int(b), Cell::Int(l), Cell::Int(n - b - l)])?;
            solutions.push(t);
        }
        let pattern = self.store.compound(
            MINUS,
            &[self.arg(args, 1), self.arg(args, 2), self.arg(args, 3)],
        )?;
        self.alternatives(pattern, &solutions)
    }

    /// Runs a built-in of this file.
    pub(super) fn ext_builtin(&mut self, ext: Ext, args: u32) -> Result<bool, Fallback> {
        match ext {
            Ext::AtomCodes => self.text_to_list(args, Chars::Codes, Kind::Atom, "atom_codes/2"),
            Ext::AtomChars => self.text_to_list(args, Chars::Chars, Kind::Atom, "atom_chars/2"),
            Ext::StringChars => {
                self.text_to_list(args, Chars::Chars, Kind::String, "string_chars/2")
            }
            Ext::StringCodes => {
                self.text_to_list(args, Chars::Codes, Kind::String, "string_codes/2")
            }
            Ext::CharCode => {
                let what = "char_code/2";
                match self.deref_arg(args, 0) {
                    Cell::Atom(a) => {
                        let name = self.atoms.name(a);
                        let mut it = name.chars();
                        match (it.next(), it.next()) {
                            (Some(c), None) => match self.deref_arg(args, 1) {
                                // SWI checks a given code first.
                                Cell::Int(code) if !(0..=0x10FFFF).contains(&code) => {
                                    Err(raise(format!("type_error(character_code) in {what}")))
                                }
                                Cell::Big(_) => {
                                    Err(raise(format!("type_error(character_code) in {what}")))
                                }
                                Cell::Ref(_) | Cell::Int(_) => {
                                    self.unify(self.arg(args, 1), Cell::Int(c as i64))
                                }
                                _ => Err(raise(format!("type_error(integer) in {what}"))),
                            },
                            _ => Err(raise(format!("type_error(character) in {what}"))),
                        }
                    }
                    Cell::Ref(_) => match self.deref_arg(args, 1) {
                        Cell::Ref(_) => Err(raise(format!("instantiation_error in {what}"))),
                        Cell::Int(code) => {
                            match u32::try_from(code).ok().and_then(char::from_u32) {
                                Some(c) if code > 0 => {
                                    let mut buf = [0u8; 4];
                                    let atom = self
                                        .atoms
                                        .make(&mut self.store, c.encode_utf8(&mut buf))?;
                                    self.unify(self.arg(args, 0), Cell::Atom(atom))
                                }
                                _ => Err(raise(format!("representation_error in {what}"))),
                            }
                        }
                        _ => Err(raise(format!("type_error(integer) in {what}"))),
                    },
                    _ => Err(raise(format!("type_error(character) in {what}"))),
                }
            }
            Ext::AtomLength | Ext::StringLength => {
                let what = "atom_length/2";
                let text = self.bound_text(self.arg(args, 0), what)?;
                match self.deref_arg(args, 1) {
                    Cell::Ref(_) | Cell::Int(_) => {}
                    _ => return Err(raise(format!("type_error(integer) in {what}"))),
                }
                let n = text.chars().count() as i64;
                self.unify(self.arg(args, 1), Cell::Int(n))
            }
            Ext::AtomNumber => {
                // SWI's order: an atom is parsed; otherwise a number is
                // printed and unified (so a compound fails); only then the
                // type and instantiation errors.
                let what = "atom_number/2";
                match (self.deref_arg(args, 0), self.deref_arg(args, 1)) {
                    // `[]` is no text: SWI fails against a number, and
                    // raises otherwise.
                    (Cell::Atom(NIL), Cell::Int(_) | Cell::Big(_) | Cell::Float(_)) => Ok(false),
                    (Cell::Atom(NIL), Cell::Ref(_)) => {
                        Err(raise(format!("type_error(atom) in {what}")))
                    }
                    (Cell::Atom(NIL), _) => Err(raise(format!("type_error(number) in {what}"))),
                    (c @ Cell::Atom(_), _) => {
                        let text = self.bound_text(c, what)?;
                        match self.number_cell(&text)? {
                            Some(n) => self.unify(self.arg(args, 1), n),
                            None => Ok(false),
                        }
                    }
                    (c, _) if self.is_string(c) => Err(unsure("atom_number/2 on a string")),
                    (Cell::Ref(_), n @ (Cell::Int(_) | Cell::Big(_))) => {
                        let text = self.bound_text(n, what)?;
                        let made = self.make_text(&text, Kind::Atom)?;
                        self.unify(self.arg(args, 0), made)
                    }
                    (Cell::Ref(_), Cell::Float(_)) => Err(unsure("float as text")),
                    (_, Cell::Int(_) | Cell::Float(_) | Cell::Big(_)) => Ok(false),
                    (Cell::Ref(_), Cell::Ref(_)) => {
                        Err(raise(format!("instantiation_error in {what}")))
                    }
                    (_, Cell::Ref(_)) => Err(raise(format!("type_error(atom) in {what}"))),
                    _ => Err(raise(format!("type_error(number) in {what}"))),
                }
            }
            Ext::NumberCodes => self.number_list(args, Chars::Codes, "number_codes/2"),
            Ext::NumberChars => self.number_list(args, Chars::Chars, "number_chars/2"),
            Ext::AtomString | Ext::StringToAtom => {
                // atom_string(A, S) and string_to_atom(S, A): which side is the atom.
                let (atom_at, string_at) = if ext == Ext::AtomString {
                    (0, 1)
                } else {
                    (1, 0)
                };
                let what = "atom_string/2";
                match self.text_arg(self.arg(args, atom_at), what)? {
                    Text::Value(text) => {
                        let made = self.make_text(&text, Kind::String)?;
                        self.unify(self.arg(args, string_at), made)
                    }
                    Text::Unbound => {
                        let text = self.bound_text(self.arg(args, string_at), what)?;
                        let made = self.make_text(&text, Kind::Atom)?;
                        self.unify(self.arg(args, atom_at), made)
                    }
                }
            }
            Ext::UpcaseAtom | Ext::DowncaseAtom => {
                // SWI raises on `[]` in either place and on a compound result.
                for i in 0..2 {
                    let cell = self.deref_arg(args, i);
                    if matches!(cell, Cell::Atom(NIL))
                        || (i == 1 && matches!(cell, Cell::Str(_)) && !self.is_string(cell))
                    {
                        return Err(raise("type_error(atom) in upcase_atom/2".to_string()));
                    }
                }
                let text = self.bound_text(self.arg(args, 0), "upcase_atom/2")?;
                if !text.is_ascii() {
                    return Err(unsure("case mapping beyond ASCII"));
                }
                let mapped = if ext == Ext::UpcaseAtom {
                    text.to_ascii_uppercase()
                } else {
                    text.to_ascii_lowercase()
                };
                if !matches!(self.deref_arg(args, 1), Cell::Ref(_)) {
                    // SWI compares the text: upcase_atom(a, "A") holds.
                    return Ok(self.bound_text(self.arg(args, 1), "upcase_atom/2")? == mapped);
                }
                let made = self.make_text(&mapped, Kind::Atom)?;
                self.unify(self.arg(args, 1), made)
            }
            Ext::AtomConcat => self.concat(args, Kind::Atom, "atom_concat/3"),
            Ext::StringConcat => self.concat(args, Kind::String, "string_concat/3"),
            Ext::SubAtom => self.sub_atom(args),
            Ext::SubAtomAt => self.sub_atom_at_builtin(args),
            Ext::TextSplit => self.text_split(args),
            Ext::String => Ok(self.is_string(self.deref_arg(args, 0))),
            Ext::Plus => {
                let what = "plus/3";
                let x = self.opt_integer(args, 0, what)?;
                let y = self.opt_integer(args, 1, what)?;
                let z = self.opt_integer(args, 2, what)?;
                let (at, value) = match (x, y, z) {
                    (Some(x), Some(y), _) => (2, arith::add(&mut self.store, x, y)?),
                    (Some(x), None, Some(z)) => (1, arith::sub(&mut self.store, z, x)?),
                    (None, Some(y), Some(z)) => (0, arith::sub(&mut self.store, z, y)?),
                    _ => return Err(raise(format!("instantiation_error in {what}"))),
                };
                let value = value.cell(&mut self.store)?;
                self.unify(self.arg(args, at), value)
            }
            Ext::Dif => {
                let (a, b) = (self.arg(args, 0), self.arg(args, 1));
                if self.store.identical(a, b)? {
                    return Ok(false);
                }
                let (trail, heap) = (self.store.trail.len(), self.store.heap.len());
                let unifiable = self.unify(a, b)?;
                self.store.undo_to(trail, heap);
                if unifiable {
                    // Delayed: checked again after every binding, and
                    // fails once the two terms are identical.
                    self.charge_work(1)?;
                    self.hold_memory(16)?;
                    self.difs.push((a, b));
                }
                Ok(true)
            }
            Ext::Raise => {
                let detail = match self.deref_arg(args, 0) {
                    Cell::Atom(a) => self.atoms.name(a).to_string(),
                    _ => "error".to_string(),
                };
                Err(raise(detail))
            }
            Ext::Unsupported => {
                let detail = match self.deref_arg(args, 0) {
                    Cell::Atom(a) => self.atoms.name(a).to_string(),
                    _ => "prelude".to_string(),
                };
                Err(Fallback::new("unsupported", &detail))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimal_numbers_only() {
        let int = |t: &str| match parse_number(t) {
            Ok(Some(Num::Int(i))) => Some(i),
            _ => None,
        };
        assert_eq!(int("12"), Some(12));
        assert_eq!(int("-12"), Some(-12));
        assert_eq!(int("+12"), Some(12));
        assert!(matches!(parse_number("1e3"), Ok(Some(Num::Float(f))) if f == 1000.0));
        assert!(matches!(parse_number("1.5"), Ok(Some(Num::Float(f))) if f == 1.5));
        assert!(matches!(parse_number("abc"), Ok(None)));
        assert!(matches!(parse_number(" 12"), Ok(None)));
        assert!(matches!(parse_number("- 1"), Ok(None)));
        assert_eq!(int("0x1A"), Some(26));
        assert_eq!(int("1_000"), Some(1000));
        assert_eq!(int("0'a"), Some(97));
        assert_eq!(int("16'FF"), Some(255));
        assert!(matches!(parse_number("1.5Inf"), Ok(Some(Num::Float(f))) if f.is_infinite()));
        assert!(matches!(parse_number("12 "), Ok(None)));
        assert!(matches!(parse_number("-16'ff"), Ok(None)));
        for unsure in ["1r2", "0'\\n", "1.25NaN"] {
            assert!(parse_number(unsure).is_err(), "{unsure}");
        }
        assert!(
            matches!(parse_number("-99999999999999999999"), Ok(Some(Num::Big(b))) if b.to_string() == "-99999999999999999999")
        );
    }
}

//! Built-ins beyond the core control and term predicates of `machine.rs`,
//! grouped as SWI-Prolog groups them: text (atoms, strings, characters and
//! number syntax), arithmetic helpers, and coroutining (`dif/2`, decidable
//! cases only). Each raises where SWI 9 raises (checked against swipl 9.0.4)
//! and falls back where it is not sure (floats printed as text, number
//! syntax beyond plain decimals, non-ASCII case mapping).
//!
//! A built-in with several solutions (atom_concat/3 and sub_atom/5 on a
//! bound atom) computes them all and continues as `member(Solution, All)`.

use super::Machine;
use crate::prolog::native::term::{is_string_tag, Cell, MEMBER, MINUS, NIL, STRING};
use crate::prolog::native::Fallback;

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
    String,
    StringChars,
    StringCodes,
    StringToAtom,
    StringLength,
    StringConcat,
    Plus,
    Dif,
    Raise,
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
    ("string", 1, Ext::String),
    ("string_chars", 2, Ext::StringChars),
    ("string_codes", 2, Ext::StringCodes),
    ("string_to_atom", 2, Ext::StringToAtom),
    ("string_length", 2, Ext::StringLength),
    ("string_concat", 3, Ext::StringConcat),
    ("plus", 3, Ext::Plus),
    ("dif", 2, Ext::Dif),
    ("$raise", 1, Ext::Raise),
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

/// A plain decimal number as SWI reads it (`-12`, `+3`, `1.5`, `1.0e10`,
/// `1e10`): `Ok(Some(cell))`; `Ok(None)` when `text` is certainly not a
/// number; an `unsure` fallback for SWI's other number syntax (`0x1A`,
/// `0'a`, `1_000`, `1r2`, `1.5Inf`, big integers) and anything that starts
/// like a number but is not plain.
pub(super) fn parse_number(text: &str) -> Result<Option<Cell>, Fallback> {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !body.starts_with(|c: char| c.is_ascii_digit()) {
        return Ok(None);
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
    let negative = text.starts_with('-');
    if is_float {
        let value: f64 = body.parse().map_err(|_| unsure("float syntax"))?;
        if !value.is_finite() {
            return Err(unsure("float out of range"));
        }
        Ok(Some(Cell::Float(if negative { -value } else { value })))
    } else {
        let signed = if negative {
            format!("-{body}")
        } else {
            body.to_string()
        };
        let value: i64 = signed.parse().map_err(|_| unsure("big integer"))?;
        Ok(Some(Cell::Int(value)))
    }
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

    /// The text of an atomic argument (atom, integer, string); floats fall
    /// back (SWI's float printing is not imitated); compounds raise.
    pub(super) fn text_arg(&self, cell: Cell, what: &str) -> Result<Text, Fallback> {
        let cell = self.store.deref(cell);
        match cell {
            Cell::Ref(_) => Ok(Text::Unbound),
            Cell::Atom(a) => Ok(Text::Value(self.atoms.name(a).to_string())),
            Cell::Int(i) => Ok(Text::Value(i.to_string())),
            Cell::Float(_) => Err(unsure("float as text")),
            Cell::Str(p) if self.is_string(cell) => {
                match self.store.deref(self.store.heap[p as usize + 1]) {
                    Cell::Atom(a) => Ok(Text::Value(self.atoms.name(a).to_string())),
                    _ => Err(Fallback::new("internal", "string cell")),
                }
            }
            _ => Err(raise(format!("type_error(atomic) in {what}"))),
        }
    }

    /// A text argument that must be bound.
    pub(super) fn bound_text(&self, cell: Cell, what: &str) -> Result<String, Fallback> {
        match self.text_arg(cell, what)? {
            Text::Value(t) => Ok(t),
            Text::Unbound => Err(raise(format!("instantiation_error in {what}"))),
        }
    }

    /// An atom or string cell holding `text`.
    pub(super) fn make_text(&mut self, text: &str, kind: Kind) -> Result<Cell, Fallback> {
        self.store.charge(text.len() as u64 + 1)?;
        let atom = self.atoms.make(text)?;
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
                    Cell::Atom(self.atoms.make(c.encode_utf8(&mut buf))?)
                }
            });
        }
        self.charge_steps(items.len())?;
        self.store.make_list(&items, Cell::Atom(NIL))
    }

    /// The text a proper list of codes or chars spells (either kind is
    /// accepted, as SWI does); a partial list or unbound element raises an
    /// instantiation error, anything else a type error.
    fn list_text(&mut self, list: Cell, what: &str) -> Result<String, Fallback> {
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
    ) -> Result<bool, Fallback> {
        let target = self.deref_arg(args, i);
        if self.is_string(target) {
            // SWI compares the text when the list is given as a string.
            return Ok(self.bound_text(target, "text")? == text);
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
            Text::Value(text) => self.unify_chars(args, 1, &text, chars),
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
            Cell::Int(i) => self.unify_chars(args, 1, &i.to_string(), chars),
            Cell::Float(_) => Err(unsure("float as text")),
            Cell::Ref(_) => {
                let text = self.list_text(self.arg(args, 1), what)?;
                // Leading layout is allowed here (not in atom_number/2).
                match parse_number(text.trim_start())? {
                    Some(n) => self.unify(self.arg(args, 0), n),
                    None => Err(raise(format!("syntax_error(illegal_number) in {what}"))),
                }
            }
            _ => Err(raise(format!("type_error(number) in {what}"))),
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

    /// atom_concat/3 and string_concat/3.
    fn concat(&mut self, args: u32, kind: Kind, what: &str) -> Result<bool, Fallback> {
        let a = self.text_arg(self.arg(args, 0), what)?;
        let b = self.text_arg(self.arg(args, 1), what)?;
        if let (Text::Value(a), Text::Value(b)) = (&a, &b) {
            let joined = format!("{a}{b}");
            let made = self.make_text(&joined, kind)?;
            return self.unify(self.arg(args, 2), made);
        }
        let whole = self.bound_text(self.arg(args, 2), what)?;
        let mut solutions = Vec::new();
        let splits: Vec<usize> = whole
            .char_indices()
            .map(|(i, _)| i)
            .chain([whole.len()])
            .collect();
        self.charge_steps(splits.len())?;
        for at in splits {
            let left = self.make_text(&whole[..at], kind)?;
            let right = self.make_text(&whole[at..], kind)?;
            solutions.push(self.store.compound(MINUS, &[left, right])?);
        }
        let pattern = self
            .store
            .compound(MINUS, &[self.arg(args, 0), self.arg(args, 1)])?;
        self.alternatives(pattern, &solutions)
    }

    /// An integer argument that may be unbound: SWI's type errors.
    pub(super) fn opt_int(&self, args: u32, i: u32, what: &str) -> Result<Option<i64>, Fallback> {
        match self.deref_arg(args, i) {
            Cell::Ref(_) => Ok(None),
            Cell::Int(n) => Ok(Some(n)),
            _ => Err(raise(format!("type_error(integer) in {what}"))),
        }
    }

    /// sub_atom/5 on a bound atom: every (Before, Length, After, Sub) in
    /// SWI's order (Before, then Length, ascending), filtered by what is bound.
    fn sub_atom(&mut self, args: u32) -> Result<bool, Fallback> {
        let what = "sub_atom/5";
        let whole = self.bound_text(self.arg(args, 0), what)?;
        let chars: Vec<char> = whole.chars().collect();
        let n = chars.len() as i64;
        let before = self.opt_int(args, 1, what)?;
        let length = self.opt_int(args, 2, what)?;
        let after = self.opt_int(args, 3, what)?;
        if [before, length, after].iter().flatten().any(|&x| x < 0) {
            return Err(raise(format!("domain_error(not_less_than_zero) in {what}")));
        }
        let sub = match self.text_arg(self.arg(args, 4), what)? {
            Text::Value(t) => Some(t.chars().collect::<Vec<char>>()),
            Text::Unbound => None,
        };
        let mut found: Vec<(i64, i64)> = Vec::new();
        for b in 0..=n {
            if before.is_some_and(|x| x != b) {
                continue;
            }
            self.charge_steps(1)?;
            for l in 0..=(n - b) {
                if length.is_some_and(|x| x != l) || after.is_some_and(|x| x != n - b - l) {
                    continue;
                }
                if let Some(s) = &sub {
                    if s.len() as i64 != l || chars[b as usize..(b + l) as usize] != s[..] {
                        continue;
                    }
                }
                found.push((b, l));
            }
        }
        self.charge_steps(found.len())?;
        let mut solutions = Vec::with_capacity(found.len());
        for (b, l) in found {
            let text: String = chars[b as usize..(b + l) as usize].iter().collect();
            let s = self.make_text(&text, Kind::Atom)?;
            let t = self.store.compound(
                MINUS,
                &[Cell::Int(b), Cell::Int(l), Cell::Int(n - b - l), s],
            )?;
            solutions.push(t);
        }
        let pattern = self.store.compound(
            MINUS,
            &[
                self.arg(args, 1),
                self.arg(args, 2),
                self.arg(args, 3),
                self.arg(args, 4),
            ],
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
                            (Some(c), None) => self.unify(self.arg(args, 1), Cell::Int(c as i64)),
                            _ => Err(raise(format!("type_error(character) in {what}"))),
                        }
                    }
                    Cell::Ref(_) => match self.deref_arg(args, 1) {
                        Cell::Ref(_) => Err(raise(format!("instantiation_error in {what}"))),
                        Cell::Int(code) => {
                            match u32::try_from(code).ok().and_then(char::from_u32) {
                                Some(c) if code > 0 => {
                                    let mut buf = [0u8; 4];
                                    let atom = self.atoms.make(c.encode_utf8(&mut buf))?;
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
                    (c @ Cell::Atom(_), _) => {
                        let text = self.bound_text(c, what)?;
                        match parse_number(&text)? {
                            Some(n) => self.unify(self.arg(args, 1), n),
                            None => Ok(false),
                        }
                    }
                    (c, _) if self.is_string(c) => Err(unsure("atom_number/2 on a string")),
                    (Cell::Ref(_), Cell::Int(i)) => {
                        let made = self.make_text(&i.to_string(), Kind::Atom)?;
                        self.unify(self.arg(args, 0), made)
                    }
                    (Cell::Ref(_), Cell::Float(_)) => Err(unsure("float as text")),
                    (_, Cell::Int(_) | Cell::Float(_)) => Ok(false),
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
                let text = self.bound_text(self.arg(args, 0), "upcase_atom/2")?;
                if !text.is_ascii() {
                    return Err(unsure("case mapping beyond ASCII"));
                }
                let mapped = if ext == Ext::UpcaseAtom {
                    text.to_ascii_uppercase()
                } else {
                    text.to_ascii_lowercase()
                };
                let made = self.make_text(&mapped, Kind::Atom)?;
                self.unify(self.arg(args, 1), made)
            }
            Ext::AtomConcat => self.concat(args, Kind::Atom, "atom_concat/3"),
            Ext::StringConcat => self.concat(args, Kind::String, "string_concat/3"),
            Ext::SubAtom => self.sub_atom(args),
            Ext::String => Ok(self.is_string(self.deref_arg(args, 0))),
            Ext::Plus => {
                let what = "plus/3";
                let x = self.opt_int(args, 0, what)?;
                let y = self.opt_int(args, 1, what)?;
                let z = self.opt_int(args, 2, what)?;
                let overflow = || Fallback::new("arith", "plus/3 past 64 bits");
                match (x, y, z) {
                    (Some(x), Some(y), _) => {
                        let s = x.checked_add(y).ok_or_else(overflow)?;
                        self.unify(self.arg(args, 2), Cell::Int(s))
                    }
                    (Some(x), None, Some(z)) => {
                        let d = z.checked_sub(x).ok_or_else(overflow)?;
                        self.unify(self.arg(args, 1), Cell::Int(d))
                    }
                    (None, Some(y), Some(z)) => {
                        let d = z.checked_sub(y).ok_or_else(overflow)?;
                        self.unify(self.arg(args, 0), Cell::Int(d))
                    }
                    _ => Err(raise(format!("instantiation_error in {what}"))),
                }
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
                    // SWI delays the constraint; not modelled here.
                    return Err(Fallback::new("unsupported", "dif/2 on unifiable terms"));
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimal_numbers_only() {
        let int = |t: &str| match parse_number(t) {
            Ok(Some(Cell::Int(i))) => Some(i),
            _ => None,
        };
        assert_eq!(int("12"), Some(12));
        assert_eq!(int("-12"), Some(-12));
        assert_eq!(int("+12"), Some(12));
        assert!(matches!(parse_number("1e3"), Ok(Some(Cell::Float(f))) if f == 1000.0));
        assert!(matches!(parse_number("1.5"), Ok(Some(Cell::Float(f))) if f == 1.5));
        assert!(matches!(parse_number("abc"), Ok(None)));
        assert!(matches!(parse_number(" 12"), Ok(None)));
        assert!(matches!(parse_number("- 1"), Ok(None)));
        for unsure in [
            "0x1A",
            "1_000",
            "0'a",
            "12 ",
            "1r2",
            "1.5Inf",
            "99999999999999999999",
        ] {
            assert!(parse_number(unsure).is_err(), "{unsure}");
        }
    }
}

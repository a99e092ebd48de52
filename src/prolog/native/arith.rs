//! Arithmetic with SWI-Prolog 9's semantics (flags at their defaults:
//! `prefer_rationals=false`, `iso=false`, float errors on): `/` on integers
//! gives an integer when exact, else a float; `//` truncates; `mod` takes the
//! divisor's sign; a float result that is infinite or NaN raises, as does a
//! zero divisor, an unbound variable, a float where an integer is needed, and
//! any name that is not an arithmetic function.
//!
//! Integers are unbounded, as in SWI: a result past 64 bits becomes a big
//! integer (`num-bigint`), and one that fits again becomes small. Big
//! integer work is charged by its size in machine words before it is done
//! (products and quotients by the product of their sizes), and a result
//! that would not fit the memory budget is a resource error, as SWI's
//! stack overflow is. Mixed integer and float comparisons convert the
//! integer to the nearest float, as SWI 9 does.
//!
//! Left undecided ([`Fallback`] of kind `arith`): the functions SWI has
//! that are not implemented here (`random`, `cputime`, `inf`, `nan`,
//! rationals, …), and strings or one-element lists evaluated as characters.

use super::term::{Atoms, Cell, Store, DOT};
use super::Fallback;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{FromPrimitive, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// A number.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Num {
    Int(i64),
    Float(f64),
    /// Beyond 64 bits (never one that fits: see [`big`]).
    Big(BigInt),
}

impl Num {
    /// The number as a cell, a big integer stored (and counted) in `store`.
    pub(crate) fn cell(self, store: &mut Store) -> Result<Cell, Fallback> {
        match self {
            Num::Int(i) => Ok(Cell::Int(i)),
            Num::Float(f) => Ok(Cell::Float(f)),
            Num::Big(b) => store.big(b),
        }
    }

    /// Machine words of the number, the unit big integer work is charged in.
    pub(crate) fn words(&self) -> u64 {
        match self {
            Num::Big(b) => b.bits() / 64 + 1,
            _ => 1,
        }
    }
}

/// An integer result: small when it fits 64 bits.
fn big(b: BigInt) -> Num {
    match b.to_i64() {
        Some(i) => Num::Int(i),
        None => Num::Big(b),
    }
}

fn unsure(detail: &str) -> Fallback {
    Fallback::new("arith", detail)
}

fn raise(detail: String) -> Fallback {
    Fallback::raise(detail)
}

/// A float result: SWI raises on overflow and on undefined results.
fn float(f: f64) -> Result<Num, Fallback> {
    if f.is_nan() {
        Err(raise("evaluation_error(undefined)".into()))
    } else if f.is_infinite() {
        Err(raise("evaluation_error(float_overflow)".into()))
    } else {
        Ok(Num::Float(f))
    }
}

/// The nearest float; a big integer beyond the float range overflows, as
/// in SWI.
fn to_float(n: &Num) -> Result<f64, Fallback> {
    match n {
        Num::Int(i) => Ok(*i as f64),
        Num::Float(f) => Ok(*f),
        Num::Big(b) => match b.to_f64() {
            Some(f) if f.is_finite() => Ok(f),
            _ => Err(raise("evaluation_error(float_overflow)".into())),
        },
    }
}

/// The nearest float for comparing: a big integer beyond the float range
/// is an infinity of its sign.
fn float_for_compare(n: &Num) -> f64 {
    match n {
        Num::Int(i) => *i as f64,
        Num::Float(f) => *f,
        Num::Big(b) => b.to_f64().unwrap_or(if b.is_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }),
    }
}

/// Arithmetic comparison as SWI's `=:=`, `<`, … make it: `None` when an
/// operand is NaN (every comparison but `=\=` then fails).
pub(crate) fn compare_numbers(a: &Num, b: &Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Float(x), _) | (_, Num::Float(x)) if x.is_nan() => None,
        _ => compare(a, b).ok(),
    }
}

/// Arithmetic comparison.
pub(crate) fn compare(a: &Num, b: &Num) -> Result<Ordering, Fallback> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Ok(x.cmp(y)),
        (Num::Float(_), _) | (_, Num::Float(_)) => float_for_compare(a)
            .partial_cmp(&float_for_compare(b))
            .ok_or_else(|| unsure("NaN")),
        // Without copying: a big integer is never word-sized, so against a
        // small one only its sign and length matter.
        (Num::Big(x), Num::Big(y)) => Ok(x.cmp(y)),
        (Num::Big(x), Num::Int(y)) => Ok(x.cmp(&BigInt::from(*y))),
        (Num::Int(x), Num::Big(y)) => Ok(BigInt::from(*x).cmp(y)),
    }
}

/// Work units of applying `name` to `x` (and `y`), charged before it runs:
/// words for a linear operation, the product of the sizes for a product or
/// quotient, the result's size squared for a power.
/// Word-sized operands and results cost nothing beyond the step; a power
/// or a left shift of word-sized operands can still make a big integer,
/// so those are charged by their result.
fn cost(name: &str, x: &Num, y: Option<&Num>) -> u64 {
    let (wx, wy) = (x.words(), y.map_or(1, Num::words));
    let units = match name {
        "^" | "**" => {
            let r = power_words(x, y);
            r.saturating_mul(r) / 16 + r
        }
        "<<" | ">>" => left_shift_words(name, x, y).unwrap_or(wx),
        _ if wx == 1 && wy == 1 => return 0,
        // Binary GCD removes a bit per pass over the words.
        "gcd" | "lcm" => {
            let w = wx.max(wy);
            w.saturating_mul(w).saturating_add(wx + wy)
        }
        "*" | "/" | "//" | "mod" | "rem" | "div" => wx.saturating_mul(wy) / 16 + wx + wy,
        _ => wx + wy,
    };
    if units <= 2 {
        0
    } else {
        units
    }
}

/// Words of `x ^ y` for integers, roughly (saturating).
fn power_words(x: &Num, y: Option<&Num>) -> u64 {
    let bits = match x {
        Num::Big(b) => b.bits(),
        Num::Int(i) => 64 - i.unsigned_abs().leading_zeros() as u64,
        Num::Float(_) => return 1,
    };
    let e = match y {
        Some(Num::Int(e)) if *e > 0 => *e as u64,
        Some(Num::Big(e)) if e.is_positive() => u64::MAX,
        _ => return 1,
    };
    bits.saturating_mul(e) / 64 + 1
}

/// Words of the result of a shift that goes left (`<<` by a positive
/// amount, or `>>` by a negative one, as SWI reads it); `None` for one that
/// goes right, whose result is no larger than `x`.
fn left_shift_words(name: &str, x: &Num, y: Option<&Num>) -> Option<u64> {
    let (amount, negative) = match y? {
        Num::Int(s) => (s.unsigned_abs(), *s < 0),
        Num::Big(s) => (u64::MAX / 2, s.is_negative()),
        Num::Float(_) => return None,
    };
    let left = (name == "<<") != negative;
    left.then(|| x.words().saturating_add(amount / 64 + 1))
}

/// Bytes the result of `name` on `x`, `y` may need at most, when it can be
/// large: checked against the memory budget before computing it.
fn result_bytes(name: &str, x: &Num, y: Option<&Num>) -> u64 {
    match name {
        "^" | "**" => power_words(x, y).saturating_mul(8),
        "<<" | ">>" => left_shift_words(name, x, y).map_or(0, |w| w.saturating_mul(8)),
        "*" => (x.words() + y.map_or(1, Num::words)).saturating_mul(8),
        _ => 0,
    }
}

enum Task {
    Eval(Cell),
    Apply(u32, u32),
}

/// SWI-Prolog 9's arithmetic functions (`current_arithmetic_function/1`):
/// a name outside this list is a type error there, one inside that is not
/// implemented here falls back.
const SWI_FUNCTIONS: &[(&str, u32)] = &[
    ("copysign", 2),
    ("cputime", 0),
    ("erf", 1),
    ("erfc", 1),
    ("eval", 1),
    ("gcd", 2),
    ("lcm", 2),
    ("lgamma", 1),
    ("nexttoward", 2),
    ("numerator", 1),
    ("denominator", 1),
    ("powm", 3),
    ("random", 1),
    ("random_float", 0),
    ("rational", 1),
    ("rationalize", 1),
    ("rdiv", 2),
    ("roundtoward", 2),
];

/// Evaluates `term` as an arithmetic expression.
pub(crate) fn eval(store: &mut Store, atoms: &Atoms, term: Cell) -> Result<Num, Fallback> {
    let mut tasks = vec![Task::Eval(term)];
    let mut values: Vec<Num> = Vec::new();
    while let Some(task) = tasks.pop() {
        store.charge(1)?;
        match task {
            Task::Eval(cell) => match store.deref(cell) {
                Cell::Int(i) => values.push(Num::Int(i)),
                Cell::Float(f) => values.push(Num::Float(f)),
                Cell::Big(b) => {
                    let value = store.bigs[b as usize].clone();
                    store.charge(value.bits() / 64 + 1)?;
                    values.push(Num::Big(value));
                }
                Cell::Ref(_) => return Err(raise("instantiation_error".into())),
                Cell::Atom(a) => match atoms.name(a) {
                    "e" => values.push(Num::Float(std::f64::consts::E)),
                    "pi" => values.push(Num::Float(std::f64::consts::PI)),
                    // SWI's constants; an infinite or undefined float only
                    // comes from these, never from overflow.
                    "inf" => values.push(Num::Float(f64::INFINITY)),
                    "nan" => values.push(Num::Float(f64::NAN)),
                    "epsilon" => values.push(Num::Float(f64::EPSILON)),
                    // `[]` evaluates in SWI only in odd corners.
                    "[]" => return Err(unsure("[] in arithmetic")),
                    name if SWI_FUNCTIONS.contains(&(name, 0)) => {
                        return Err(unsure("unsupported function"))
                    }
                    name => return Err(raise(format!("type_error(evaluable, {name}/0)"))),
                },
                Cell::Str(p) => {
                    let Cell::Functor(name, n) = store.heap[p as usize] else {
                        return Err(unsure("bad term"));
                    };
                    if name == DOT || super::term::is_string_tag(name, n) {
                        // "a" and [X] evaluate as character codes in SWI.
                        return Err(unsure("string or list in arithmetic"));
                    }
                    let text = atoms.name(name);
                    if !implemented(text, n) {
                        if SWI_FUNCTIONS.contains(&(text, n)) {
                            return Err(unsure("unsupported function"));
                        }
                        return Err(raise(format!("type_error(evaluable, {text}/{n})")));
                    }
                    tasks.push(Task::Apply(name, n));
                    for i in (1..=n).rev() {
                        tasks.push(Task::Eval(store.heap[(p + i) as usize]));
                    }
                }
                Cell::Functor(..) => return Err(unsure("bad term")),
            },
            Task::Apply(name, n) => {
                let name = atoms.name(name);
                let result = if n == 1 {
                    let x = values.pop().ok_or_else(|| unsure("stack"))?;
                    store.charge(cost(name, &x, None))?;
                    unary(name, x)?
                } else {
                    let y = values.pop().ok_or_else(|| unsure("stack"))?;
                    let x = values.pop().ok_or_else(|| unsure("stack"))?;
                    // Counted before computing: a power or shift whose
                    // result cannot fit is refused before it is allocated.
                    let bytes = result_bytes(name, &x, Some(&y));
                    store.check_heap(usize::try_from(bytes / 16).unwrap_or(usize::MAX))?;
                    store.charge(cost(name, &x, Some(&y)))?;
                    binary(name, x, y)?
                };
                values.push(result);
            }
        }
    }
    match (values.pop(), values.is_empty()) {
        (Some(v), true) => Ok(v),
        _ => Err(unsure("stack")),
    }
}

/// Whether `name/arity` is computed here.
fn implemented(name: &str, arity: u32) -> bool {
    match arity {
        1 => matches!(
            name,
            "-" | "+"
                | "abs"
                | "sign"
                | "float"
                | "integer"
                | "truncate"
                | "round"
                | "ceiling"
                | "floor"
                | "sqrt"
                | "sin"
                | "cos"
                | "tan"
                | "atan"
                | "exp"
                | "log"
                | "float_integer_part"
                | "float_fractional_part"
                | "msb"
                | "\\"
                | "acos"
                | "asin"
                | "acosh"
                | "asinh"
                | "atanh"
                | "cosh"
                | "sinh"
                | "tanh"
                | "log10"
                | "ceil"
                | "lsb"
                | "popcount"
        ),
        2 => matches!(
            name,
            "+" | "-"
                | "*"
                | "/"
                | "//"
                | "rem"
                | "mod"
                | "div"
                | "min"
                | "max"
                | "^"
                | "**"
                | "atan2"
                | "atan"
                | "/\\"
                | "\\/"
                | "xor"
                | "<<"
                | ">>"
                | "gcd"
                | "lcm"
                | "getbit"
        ),
        _ => false,
    }
}

/// A float to an integer (big when it must be), as SWI's `integer/1` and
/// friends on an already rounded float.
fn to_int(f: f64) -> Result<Num, Fallback> {
    if f.abs() < 9.0e18 {
        return Ok(Num::Int(f as i64));
    }
    BigInt::from_f64(f)
        .map(big)
        .ok_or_else(|| raise("evaluation_error(undefined)".into()))
}

/// An integer operand (a float raises SWI's type error).
fn need_int(name: &str, x: &Num) -> Result<BigInt, Fallback> {
    match x {
        Num::Int(i) => Ok(BigInt::from(*i)),
        Num::Big(b) => Ok(b.clone()),
        Num::Float(f) => Err(raise(format!("type_error(integer, {f:?}) in {name}"))),
    }
}

/// `i` for an error message; printing a big integer is quadratic work, so
/// one is named by its size.
fn shown_int(i: &BigInt) -> String {
    if i.bits() <= 64 {
        i.to_string()
    } else {
        format!("<a {}-bit integer>", i.bits())
    }
}

fn zero_divisor(name: &str) -> Fallback {
    raise(format!("evaluation_error(zero_divisor) in {name}"))
}

fn unary(name: &str, x: Num) -> Result<Num, Fallback> {
    use Num::{Big as B, Float as F, Int as I};
    match (name, x) {
        ("-", I(i)) => Ok(i.checked_neg().map_or_else(|| big(-BigInt::from(i)), I)),
        ("-", B(b)) => Ok(big(-b)),
        // Negation and abs never overflow: they keep `inf` as it is.
        ("-", F(f)) => Ok(F(-f)),
        ("+", x) => Ok(x),
        ("abs", I(i)) => Ok(i
            .checked_abs()
            .map_or_else(|| big(BigInt::from(i).abs()), I)),
        ("abs", B(b)) => Ok(big(b.abs())),
        ("abs", F(f)) => Ok(F(f.abs())),
        ("sign", I(i)) => Ok(I(i.signum())),
        ("sign", B(b)) => Ok(I(if b.is_negative() { -1 } else { 1 })),
        ("sign", F(f)) if f.is_nan() => Ok(F(f)),
        ("sign", F(f)) => float(if f > 0.0 {
            1.0
        } else if f < 0.0 {
            -1.0
        } else {
            // SWI: sign(-0.0) is 0.0.
            0.0
        }),
        ("float", x) => float(to_float(&x)?),
        ("integer" | "truncate" | "round" | "ceiling" | "ceil" | "floor", x @ (I(_) | B(_))) => {
            Ok(x)
        }
        // SWI gives a NaN or an infinity back as it is.
        ("integer" | "truncate" | "round" | "ceiling" | "ceil" | "floor", F(f))
            if !f.is_finite() =>
        {
            Ok(F(f))
        }
        // Rust's round is half away from zero, as SWI's integer/1 and round/1.
        ("integer" | "round", F(f)) => to_int(f.round()),
        ("truncate", F(f)) => to_int(f.trunc()),
        ("ceiling" | "ceil", F(f)) => to_int(f.ceil()),
        ("floor", F(f)) => to_int(f.floor()),
        ("float_integer_part", x @ B(_)) => Ok(x),
        ("float_integer_part", x) => float(to_float(&x)?.trunc()),
        ("float_fractional_part", I(_) | B(_)) => Ok(I(0)),
        // SWI keeps the sign on a zero part: -2.0 gives -0.0.
        ("float_fractional_part", F(f)) => float((f - f.trunc()).copysign(f)),
        ("sqrt", x) => float(to_float(&x)?.sqrt()),
        ("sin", x) => float(to_float(&x)?.sin()),
        ("cos", x) => float(to_float(&x)?.cos()),
        ("tan", x) => float(to_float(&x)?.tan()),
        ("atan", x) => float(to_float(&x)?.atan()),
        ("asin", x) => float(to_float(&x)?.asin()),
        ("acos", x) => float(to_float(&x)?.acos()),
        ("sinh", x) => float(to_float(&x)?.sinh()),
        ("cosh", x) => float(to_float(&x)?.cosh()),
        ("tanh", x) => float(to_float(&x)?.tanh()),
        ("asinh", x) => float(to_float(&x)?.asinh()),
        ("acosh", x) => float(to_float(&x)?.acosh()),
        ("atanh", x) => float(to_float(&x)?.atanh()),
        ("log10", x) => float(to_float(&x)?.log10()),
        ("lsb", x) => {
            let i = need_int(name, &x)?;
            match i.trailing_zeros() {
                Some(zeros) if i.is_positive() => Ok(I(zeros as i64)),
                _ => Err(raise(format!(
                    "domain_error(not_less_than_one, {})",
                    shown_int(&i)
                ))),
            }
        }
        ("popcount", x) => {
            let i = need_int(name, &x)?;
            if i.is_negative() {
                return Err(raise(format!(
                    "domain_error(not_less_than_zero, {})",
                    shown_int(&i)
                )));
            }
            Ok(I(i.magnitude().count_ones() as i64))
        }
        ("exp", x) => float(to_float(&x)?.exp()),
        ("log", x) => {
            let f = to_float(&x)?;
            if f == 0.0 {
                // SWI reports log(0) as a float overflow.
                return Err(raise("evaluation_error(float_overflow)".into()));
            }
            float(f.ln())
        }
        ("msb", x) => {
            let i = need_int(name, &x)?;
            if i < BigInt::from(1) {
                return Err(raise(format!(
                    "domain_error(not_less_than_one, {})",
                    shown_int(&i)
                )));
            }
            Ok(I(i.bits() as i64 - 1))
        }
        ("\\", I(i)) => Ok(I(!i)),
        ("\\", x) => Ok(big(!need_int(name, &x)?)),
        _ => Err(unsure("unsupported function")),
    }
}

/// An integer operation on big operands (or small ones that overflowed).
fn big_binary(name: &str, a: BigInt, b: BigInt) -> Result<Num, Fallback> {
    if matches!(name, "//" | "rem" | "mod" | "div") && b.is_zero() {
        return Err(zero_divisor(name));
    }
    Ok(big(match name {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        // SWI's default integer_rounding_function is toward_zero.
        "//" => a / b,
        "rem" => a % b,
        "div" => a.div_floor(&b),
        "mod" => a.mod_floor(&b),
        "gcd" => a.gcd(&b),
        "lcm" => a.lcm(&b),
        "/\\" => a & b,
        "\\/" => a | b,
        "xor" => a ^ b,
        _ => return Err(unsure("unsupported function")),
    }))
}

fn binary(name: &str, x: Num, y: Num) -> Result<Num, Fallback> {
    use Num::{Big as B, Float as F, Int as I};
    let either_big = matches!(x, B(_)) || matches!(y, B(_));
    match (name, &x, &y) {
        ("+" | "-" | "*", I(a), I(b)) => {
            let r = match name {
                "+" => a.checked_add(*b),
                "-" => a.checked_sub(*b),
                _ => a.checked_mul(*b),
            };
            match r {
                Some(r) => Ok(I(r)),
                None => big_binary(name, BigInt::from(*a), BigInt::from(*b)),
            }
        }
        ("+" | "-" | "*", F(_), _) | ("+" | "-" | "*", _, F(_)) => {
            let (a, b) = (to_float(&x)?, to_float(&y)?);
            float(match name {
                "+" => a + b,
                "-" => a - b,
                _ => a * b,
            })
        }
        ("+" | "-" | "*", ..) => big_binary(name, need_int(name, &x)?, need_int(name, &y)?),
        ("/", I(_) | B(_), I(_) | B(_)) => {
            let (a, b) = (need_int(name, &x)?, need_int(name, &y)?);
            if b.is_zero() {
                return Err(zero_divisor(name));
            }
            let (q, r) = a.div_rem(&b);
            if r.is_zero() {
                Ok(big(q))
            } else {
                float(to_float(&x)? / to_float(&y)?)
            }
        }
        ("/", ..) => {
            let d = to_float(&y)?;
            if d == 0.0 {
                return Err(zero_divisor(name));
            }
            float(to_float(&x)? / d)
        }
        ("//" | "rem" | "mod" | "div" | "gcd" | "lcm", I(a), I(b)) if !either_big => {
            let (a, b) = (*a, *b);
            if b == 0 && !matches!(name, "gcd" | "lcm") {
                return Err(zero_divisor(name));
            }
            let small = match name {
                "//" => a.checked_div(b),
                "rem" => a.checked_rem(b),
                // Floored division: (a - a mod b) / b is exact.
                "div" => floored_mod(a, b).and_then(|m| (a - m).checked_div(b)),
                "mod" => floored_mod(a, b),
                _ => None,
            };
            match small {
                Some(r) => Ok(I(r)),
                None => big_binary(name, BigInt::from(a), BigInt::from(b)),
            }
        }
        ("getbit", ..) => {
            let (value, index) = (need_int(name, &x)?, need_int(name, &y)?);
            if value.is_negative() || index.is_negative() {
                return Err(unsure("getbit of a negative integer"));
            }
            // A bit past the value's last is 0.
            let bit = u64::try_from(&index).is_ok_and(|k| value.bit(k));
            Ok(I(bit as i64))
        }
        ("//" | "rem" | "mod" | "div" | "gcd" | "lcm", ..) => {
            big_binary(name, need_int(name, &x)?, need_int(name, &y)?)
        }
        // SWI 9 skips a NaN operand: max(1, nan) is 1; two NaNs give NaN.
        ("min" | "max", F(a), F(b)) if a.is_nan() && b.is_nan() => Ok(F(*a)),
        ("min" | "max", F(a), _) if a.is_nan() => Ok(y.clone()),
        ("min" | "max", _, F(b)) if b.is_nan() => Ok(x.clone()),
        ("min" | "max", I(a), I(b)) => Ok(I(if name == "min" { *a.min(b) } else { *a.max(b) })),
        // SWI orders -0.0 before 0.0 here.
        // The result is an operand: `inf` passes through, as in SWI.
        ("min", F(a), F(b)) if !a.is_nan() && !b.is_nan() => {
            Ok(F(if b.total_cmp(a).is_lt() { *b } else { *a }))
        }
        ("max", F(a), F(b)) if !a.is_nan() && !b.is_nan() => {
            Ok(F(if b.total_cmp(a).is_gt() { *b } else { *a }))
        }
        ("min", F(a), F(b)) => float(if b.total_cmp(a).is_lt() { *b } else { *a }),
        ("max", F(a), F(b)) => float(if b.total_cmp(a).is_gt() { *b } else { *a }),
        ("min" | "max", ..) => {
            // Mixed types: the result keeps the type of the chosen operand;
            // on a tie SWI 9 gives the float, but max(-0.0, 0) is the integer.
            let o = compare(&x, &y)?;
            let has_float = matches!(x, F(_)) || matches!(y, F(_));
            let (float_one, int_one) = if matches!(x, F(_)) {
                (x.clone(), y.clone())
            } else {
                (y.clone(), x.clone())
            };
            let negative_zero = matches!(float_one, F(f) if f == 0.0 && f.is_sign_negative());
            Ok(match (o, name) {
                (Ordering::Equal, "max") if has_float && negative_zero => int_one,
                (Ordering::Equal, _) if has_float => float_one,
                (Ordering::Equal, _) => x,
                (Ordering::Less, "min") | (Ordering::Greater, "max") => x,
                _ => y,
            })
        }
        // SWI gives the integer 1 for any power to the exponent 0 (int or
        // float) and for the integer base 1.
        ("^" | "**", _, I(0)) | ("^" | "**", I(1), I(_) | B(_) | F(_)) => Ok(I(1)),
        ("^" | "**", _, F(e)) if *e == 0.0 => Ok(I(1)),
        ("^" | "**", I(0 | -1), F(_)) => Err(unsure("0 or -1 to a float power")),
        ("^" | "**", I(_) | B(_), I(_) | B(_)) => {
            let (a, e) = (need_int(name, &x)?, need_int(name, &y)?);
            if !e.is_negative() {
                if a.is_zero() || a == BigInt::from(1) {
                    return Ok(big(a));
                }
                if a == BigInt::from(-1) {
                    return Ok(I(if e.is_even() { 1 } else { -1 }));
                }
                // Too large an exponent was refused by the memory check.
                let e = e
                    .to_u32()
                    .ok_or_else(|| Fallback::new("memory", "integer power too large"))?;
                return Ok(big(num_traits::pow::Pow::pow(a, e)));
            }
            if a.is_zero() {
                return Err(zero_divisor(name));
            }
            if a == BigInt::from(-1) {
                return Ok(I(if e.is_even() { 1 } else { -1 }));
            }
            // With prefer_rationals=false SWI 9 gives a float here.
            float(to_float(&x)?.powf(to_float(&y)?))
        }
        ("^" | "**", ..) => {
            let (a, b) = (to_float(&x)?, to_float(&y)?);
            if a == 0.0 && b < 0.0 {
                return Err(zero_divisor(name));
            }
            float(a.powf(b))
        }
        ("atan2" | "atan", ..) => {
            let (a, b) = (to_float(&x)?, to_float(&y)?);
            // atan2(0, 0) is 0.0 in SWI 9, signed as C's atan2.
            float(a.atan2(b))
        }
        ("/\\" | "\\/" | "xor", I(a), I(b)) => Ok(I(match name {
            "/\\" => a & b,
            "\\/" => a | b,
            _ => a ^ b,
        })),
        ("/\\" | "\\/" | "xor", ..) => big_binary(name, need_int(name, &x)?, need_int(name, &y)?),
        ("<<" | ">>", ..) => {
            let a = need_int(name, &x)?;
            let s = need_int(name, &y)?;
            // A negative shift goes the other way, as in SWI.
            let left = (name == "<<") != s.is_negative();
            let s = s.abs();
            if left {
                let s = s
                    .to_usize()
                    .ok_or_else(|| Fallback::new("memory", "shift too large"))?;
                Ok(big(a << s))
            } else {
                match s.to_usize() {
                    Some(s) => Ok(big(a >> s)),
                    None => Ok(I(if a.is_negative() { -1 } else { 0 })),
                }
            }
        }
        _ => Err(unsure("unsupported function")),
    }
}

/// `a mod b` with the divisor's sign (`None` on overflow).
fn floored_mod(a: i64, b: i64) -> Option<i64> {
    a.checked_rem_euclid(b)
        .map(|r| if b < 0 && r != 0 { r + b } else { r })
}

/// `name` applied to `x` and `y` outside an expression (a built-in that
/// sums or compares a list), charged as [`eval`] charges it: the sum of a
/// huge number and many small ones costs the huge one's size every time.
fn charged_binary(store: &mut Store, name: &str, x: Num, y: Num) -> Result<Num, Fallback> {
    store.charge(cost(name, &x, Some(&y)))?;
    binary(name, x, y)
}

/// SWI's `max(x, y)` (or `min`).
pub(crate) fn max_min(store: &mut Store, max: bool, x: Num, y: Num) -> Result<Num, Fallback> {
    charged_binary(store, if max { "max" } else { "min" }, x, y)
}

/// `x + y`.
pub(crate) fn add(store: &mut Store, x: Num, y: Num) -> Result<Num, Fallback> {
    charged_binary(store, "+", x, y)
}

/// `x - y`.
pub(crate) fn sub(store: &mut Store, x: Num, y: Num) -> Result<Num, Fallback> {
    charged_binary(store, "-", x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swi_division_and_rounding() {
        let i = |n: Num| match n {
            Num::Int(i) => Some(i),
            _ => None,
        };
        assert_eq!(i(binary("/", Num::Int(6), Num::Int(3)).unwrap()), Some(2));
        assert!(matches!(binary("/", Num::Int(7), Num::Int(2)), Ok(Num::Float(f)) if f == 3.5));
        assert_eq!(
            i(binary("div", Num::Int(7), Num::Int(-2)).unwrap()),
            Some(-4)
        );
        assert_eq!(
            i(binary("div", Num::Int(-7), Num::Int(2)).unwrap()),
            Some(-4)
        );
        assert_eq!(
            i(binary("div", Num::Int(6), Num::Int(-2)).unwrap()),
            Some(-3)
        );
        assert_eq!(
            i(binary("//", Num::Int(-7), Num::Int(2)).unwrap()),
            Some(-3)
        );
        assert_eq!(
            i(binary("mod", Num::Int(-7), Num::Int(2)).unwrap()),
            Some(1)
        );
        assert_eq!(
            i(binary("mod", Num::Int(7), Num::Int(-2)).unwrap()),
            Some(-1)
        );
        assert_eq!(i(unary("round", Num::Float(-2.5)).unwrap()), Some(-3));
        assert_eq!(i(unary("integer", Num::Float(2.5)).unwrap()), Some(3));
        assert_eq!(i(unary("msb", Num::Int(8)).unwrap()), Some(3));
        assert_eq!(
            binary("/", Num::Int(1), Num::Int(0)).map_err(|f| f.kind),
            Err("error")
        );
        assert_eq!(
            binary("mod", Num::Int(1), Num::Float(2.0)).map_err(|f| f.kind),
            Err("error")
        );
        assert!(matches!(
            binary("+", Num::Int(i64::MAX), Num::Int(1)),
            Ok(Num::Big(b)) if b.to_string() == "9223372036854775808"
        ));
        // A result that fits 64 bits again is small.
        let big = binary("*", Num::Int(i64::MAX), Num::Int(4)).unwrap();
        assert!(matches!(binary("//", big, Num::Int(8)), Ok(Num::Int(i)) if i == i64::MAX / 2));
        assert!(
            matches!(binary("max", Num::Int(2), Num::Float(2.0)), Ok(Num::Float(f)) if f == 2.0)
        );
        assert!(matches!(
            binary("min", Num::Int(1), Num::Float(2.5)),
            Ok(Num::Int(1))
        ));
        assert!(matches!(
            binary("**", Num::Int(2), Num::Int(3)),
            Ok(Num::Int(8))
        ));
        assert!(matches!(
            binary("^", Num::Int(-1), Num::Int(-3)),
            Ok(Num::Int(-1))
        ));
    }
}

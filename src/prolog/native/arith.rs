//! Arithmetic with SWI-Prolog 9's semantics (flags at their defaults:
//! `prefer_rationals=false`, `iso=false`, float errors on): `/` on integers
//! gives an integer when exact, else a float; `//` truncates; `mod` takes the
//! divisor's sign; a float result that is infinite or NaN raises, as does a
//! zero divisor, an unbound variable, a float where an integer is needed, and
//! any name that is not an arithmetic function.
//!
//! Decided natively: everything on 64-bit integers and finite floats. Left to
//! the fallback ([`Fallback`] of kind `arith`): results that need SWI's big
//! integers (overflow past 64 bits: SWI does not raise there, it grows),
//! mixed comparisons of integers beyond 2^53 with floats, the functions SWI
//! has that are not implemented here (`random`, `cputime`, `inf`, `nan`,
//! rationals, …), and strings or one-element lists evaluated as characters.

use super::term::{Atoms, Cell, Store, DOT};
use super::Fallback;
use std::cmp::Ordering;

/// A number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    pub(crate) fn cell(self) -> Cell {
        match self {
            Num::Int(i) => Cell::Int(i),
            Num::Float(f) => Cell::Float(f),
        }
    }
}

fn unsure(detail: &str) -> Fallback {
    Fallback::new("arith", detail)
}

fn raise(detail: String) -> Fallback {
    Fallback::raise(detail)
}

/// Integers up to 2^53 convert to floats exactly, so mixed comparisons on
/// them are exact in every system.
const EXACT: i64 = 1 << 53;

fn as_exact_float(i: i64) -> Result<f64, Fallback> {
    if (-EXACT..=EXACT).contains(&i) {
        Ok(i as f64)
    } else {
        Err(unsure("large integer mixed with float"))
    }
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

fn to_float(n: Num) -> Result<f64, Fallback> {
    match n {
        Num::Int(i) => as_exact_float(i),
        Num::Float(f) => Ok(f),
    }
}

/// Arithmetic comparison.
pub(crate) fn compare(a: Num, b: Num) -> Result<Ordering, Fallback> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Ok(x.cmp(&y)),
        _ => {
            let (x, y) = (to_float(a)?, to_float(b)?);
            x.partial_cmp(&y).ok_or_else(|| unsure("NaN"))
        }
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
    ("acos", 1),
    ("acosh", 1),
    ("asin", 1),
    ("asinh", 1),
    ("atanh", 1),
    ("ceil", 1),
    ("copysign", 2),
    ("cosh", 1),
    ("cputime", 0),
    ("epsilon", 0),
    ("erf", 1),
    ("erfc", 1),
    ("eval", 1),
    ("getbit", 2),
    ("gcd", 2),
    ("inf", 0),
    ("lcm", 2),
    ("lgamma", 1),
    ("log10", 1),
    ("lsb", 1),
    ("nan", 0),
    ("nexttoward", 2),
    ("numerator", 1),
    ("denominator", 1),
    ("popcount", 1),
    ("powm", 3),
    ("random", 1),
    ("random_float", 0),
    ("rational", 1),
    ("rationalize", 1),
    ("rdiv", 2),
    ("roundtoward", 2),
    ("sinh", 1),
    ("tanh", 1),
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
                Cell::Ref(_) => return Err(raise("instantiation_error".into())),
                Cell::Atom(a) => match atoms.name(a) {
                    "e" => values.push(Num::Float(std::f64::consts::E)),
                    "pi" => values.push(Num::Float(std::f64::consts::PI)),
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
                    unary(name, x)?
                } else {
                    let y = values.pop().ok_or_else(|| unsure("stack"))?;
                    let x = values.pop().ok_or_else(|| unsure("stack"))?;
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
        ),
        _ => false,
    }
}

/// An integer result; `None` means it overflowed 64 bits, where SWI
/// switches to big integers.
fn int_result(r: Option<i64>) -> Result<Num, Fallback> {
    r.map(Num::Int)
        .ok_or_else(|| unsure("integer overflow (SWI uses big integers)"))
}

fn to_int(f: f64) -> Result<Num, Fallback> {
    if f.is_finite() && f.abs() < 9.0e18 {
        Ok(Num::Int(f as i64))
    } else {
        Err(unsure("float to integer out of range"))
    }
}

fn need_int(name: &str, x: Num) -> Result<i64, Fallback> {
    match x {
        Num::Int(i) => Ok(i),
        Num::Float(f) => Err(raise(format!("type_error(integer, {f:?}) in {name}"))),
    }
}

fn zero_divisor(name: &str) -> Fallback {
    raise(format!("evaluation_error(zero_divisor) in {name}"))
}

fn unary(name: &str, x: Num) -> Result<Num, Fallback> {
    use Num::{Float as F, Int as I};
    match (name, x) {
        ("-", I(i)) => int_result(i.checked_neg()),
        ("-", F(f)) => float(-f),
        ("+", x) => Ok(x),
        ("abs", I(i)) => int_result(i.checked_abs()),
        ("abs", F(f)) => float(f.abs()),
        ("sign", I(i)) => Ok(I(i.signum())),
        ("sign", F(f)) => float(if f > 0.0 {
            1.0
        } else if f < 0.0 {
            -1.0
        } else {
            // SWI: sign(-0.0) is 0.0.
            0.0
        }),
        ("float", x) => float(to_float(x)?),
        ("integer" | "truncate" | "round" | "ceiling" | "floor", I(i)) => Ok(I(i)),
        // Rust's round is half away from zero, as SWI's integer/1 and round/1.
        ("integer" | "round", F(f)) => to_int(f.round()),
        ("truncate", F(f)) => to_int(f.trunc()),
        ("ceiling", F(f)) => to_int(f.ceil()),
        ("floor", F(f)) => to_int(f.floor()),
        ("float_integer_part", x) => float(to_float(x)?.trunc()),
        ("float_fractional_part", I(_)) => Ok(I(0)),
        // SWI keeps the sign on a zero part: -2.0 gives -0.0.
        ("float_fractional_part", F(f)) => float((f - f.trunc()).copysign(f)),
        ("sqrt", x) => float(to_float(x)?.sqrt()),
        ("sin", x) => float(to_float(x)?.sin()),
        ("cos", x) => float(to_float(x)?.cos()),
        ("tan", x) => float(to_float(x)?.tan()),
        ("atan", x) => float(to_float(x)?.atan()),
        ("exp", x) => float(to_float(x)?.exp()),
        ("log", x) => {
            let f = to_float(x)?;
            if f == 0.0 {
                // SWI reports log(0) as a float overflow.
                return Err(raise("evaluation_error(float_overflow)".into()));
            }
            float(f.ln())
        }
        ("msb", x) => {
            let i = need_int(name, x)?;
            if i < 1 {
                return Err(raise(format!("domain_error(not_less_than_one, {i})")));
            }
            Ok(I(63 - i.leading_zeros() as i64))
        }
        ("\\", x) => Ok(I(!need_int(name, x)?)),
        _ => Err(unsure("unsupported function")),
    }
}

fn binary(name: &str, x: Num, y: Num) -> Result<Num, Fallback> {
    use Num::{Float as F, Int as I};
    match (name, x, y) {
        ("+", I(a), I(b)) => int_result(a.checked_add(b)),
        ("-", I(a), I(b)) => int_result(a.checked_sub(b)),
        ("*", I(a), I(b)) => int_result(a.checked_mul(b)),
        ("+", ..) => float(to_float(x)? + to_float(y)?),
        ("-", ..) => float(to_float(x)? - to_float(y)?),
        ("*", ..) => float(to_float(x)? * to_float(y)?),
        ("/", I(a), I(b)) => {
            if b == 0 {
                return Err(zero_divisor(name));
            }
            match a.checked_rem(b) {
                Some(0) => int_result(a.checked_div(b)),
                Some(_) => float(as_exact_float(a)? / as_exact_float(b)?),
                None => Err(unsure("integer overflow (SWI uses big integers)")),
            }
        }
        ("/", ..) => {
            let d = to_float(y)?;
            if d == 0.0 {
                return Err(zero_divisor(name));
            }
            float(to_float(x)? / d)
        }
        ("//" | "rem" | "mod" | "div", ..) => {
            let (a, b) = (need_int(name, x)?, need_int(name, y)?);
            if b == 0 {
                return Err(zero_divisor(name));
            }
            int_result(match name {
                // SWI's default integer_rounding_function is toward_zero.
                "//" => a.checked_div(b),
                "rem" => a.checked_rem(b),
                // Floored division: (a - a mod b) / b is exact.
                "div" => floored_mod(a, b).and_then(|m| (a - m).checked_div(b)),
                // mod takes the sign of the divisor.
                _ => floored_mod(a, b),
            })
        }
        ("min", I(a), I(b)) => Ok(I(a.min(b))),
        ("max", I(a), I(b)) => Ok(I(a.max(b))),
        // SWI orders -0.0 before 0.0 here.
        ("min", F(a), F(b)) => float(if b.total_cmp(&a).is_lt() { b } else { a }),
        ("max", F(a), F(b)) => float(if b.total_cmp(&a).is_gt() { b } else { a }),
        ("min" | "max", ..) => {
            // Mixed types: the result keeps the type of the chosen operand;
            // on a tie SWI 9 gives the float.
            let (float_one, int_one) = if matches!(x, F(_)) { (x, y) } else { (y, x) };
            // -0.0 against 0: the float is the smaller.
            let negative_zero = matches!(float_one, F(f) if f == 0.0 && f.is_sign_negative());
            Ok(match (compare(x, y)?, name) {
                (Ordering::Equal, "max") if negative_zero => int_one,
                (Ordering::Equal, _) => float_one,
                (Ordering::Less, "min") | (Ordering::Greater, "max") => x,
                _ => y,
            })
        }
        // SWI gives the integer 1 for any power to the exponent 0 (int or
        // float) and for the integer base 1.
        ("^" | "**", _, I(0)) | ("^" | "**", I(1), _) => Ok(I(1)),
        ("^" | "**", _, F(e)) if e == 0.0 => Ok(I(1)),
        ("^" | "**", I(0 | -1), F(_)) => Err(unsure("0 or -1 to a float power")),
        ("^" | "**", I(a), I(b)) => {
            if b >= 0 {
                let e = u32::try_from(b).map_err(|_| unsure("power too large"))?;
                return int_result(a.checked_pow(e));
            }
            match a {
                0 => Err(zero_divisor(name)),
                1 => Ok(I(1)),
                -1 => Ok(I(if b % 2 == 0 { 1 } else { -1 })),
                _ => Err(unsure("integer to a negative power")),
            }
        }
        ("^" | "**", ..) => {
            let (a, b) = (to_float(x)?, to_float(y)?);
            if a == 0.0 && b < 0.0 {
                return Err(zero_divisor(name));
            }
            float(a.powf(b))
        }
        ("atan2" | "atan", ..) => {
            let (a, b) = (to_float(x)?, to_float(y)?);
            if a == 0.0 && b == 0.0 {
                return Err(unsure("atan2(0, 0)"));
            }
            float(a.atan2(b))
        }
        ("/\\" | "\\/" | "xor" | "<<" | ">>", ..) => {
            let (a, b) = (need_int(name, x)?, need_int(name, y)?);
            match name {
                "/\\" => Ok(I(a & b)),
                "\\/" => Ok(I(a | b)),
                "xor" => Ok(I(a ^ b)),
                _ if !(0..63).contains(&b) => Err(unsure("shift out of range")),
                ">>" => Ok(I(a >> b)),
                _ => {
                    let shifted = a << b;
                    if shifted >> b == a {
                        Ok(I(shifted))
                    } else {
                        Err(unsure("integer overflow (SWI uses big integers)"))
                    }
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

/// SWI's `max(x, y)` (or `min`).
pub(crate) fn max_min(max: bool, x: Num, y: Num) -> Result<Num, Fallback> {
    binary(if max { "max" } else { "min" }, x, y)
}

/// `x + y`.
pub(crate) fn add(x: Num, y: Num) -> Result<Num, Fallback> {
    binary("+", x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swi_division_and_rounding() {
        let i = |n: Num| match n {
            Num::Int(i) => Some(i),
            Num::Float(_) => None,
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
        assert_eq!(
            binary("+", Num::Int(i64::MAX), Num::Int(1)).map_err(|f| f.kind),
            Err("arith")
        );
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

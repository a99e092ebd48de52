//! Arithmetic with SWI-Prolog's integer and float semantics, for the
//! subset where SWI and scryer agree. Anything else (overflow past 64 bits,
//! int/int `/`, `**`, bit operations, special atoms, errors) falls back.

use super::term::{Atoms, Cell, Store};
use super::Fallback;
use std::cmp::Ordering;

/// A number.
#[derive(Debug, Clone, Copy)]
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

fn float(f: f64) -> Result<Num, Fallback> {
    if f.is_finite() {
        Ok(Num::Float(f))
    } else {
        Err(unsure("float overflow or undefined"))
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
                Cell::Ref(_) => return Err(Fallback::new("error", "instantiation error")),
                Cell::Atom(_) => return Err(unsure("atom in arithmetic")),
                Cell::Str(p) => {
                    let Cell::Functor(name, n) = store.heap[p as usize] else {
                        return Err(unsure("bad term"));
                    };
                    if n > 2 {
                        return Err(unsure("unknown function"));
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

fn int_result(r: Option<i64>) -> Result<Num, Fallback> {
    r.map(Num::Int)
        .ok_or_else(|| unsure("integer overflow or division by zero"))
}

fn to_int(f: f64) -> Result<Num, Fallback> {
    if f.is_finite() && f.abs() < 9.0e15 {
        Ok(Num::Int(f as i64))
    } else {
        Err(unsure("float to integer out of range"))
    }
}

fn unary(name: &str, x: Num) -> Result<Num, Fallback> {
    match (name, x) {
        ("-", Num::Int(i)) => int_result(i.checked_neg()),
        ("-", Num::Float(f)) => float(-f),
        ("+", x) => Ok(x),
        ("abs", Num::Int(i)) => int_result(i.checked_abs()),
        ("abs", Num::Float(f)) => float(f.abs()),
        ("sign", Num::Int(i)) => Ok(Num::Int(i.signum())),
        ("float", x) => float(to_float(x)?),
        ("integer", Num::Int(i)) => Ok(Num::Int(i)),
        ("integer", Num::Float(f)) => to_int(f.round()),
        ("truncate", Num::Int(i))
        | ("round", Num::Int(i))
        | ("ceiling", Num::Int(i))
        | ("floor", Num::Int(i)) => Ok(Num::Int(i)),
        ("truncate", Num::Float(f)) => to_int(f.trunc()),
        ("round", Num::Float(f)) => to_int(f.round()),
        ("ceiling", Num::Float(f)) => to_int(f.ceil()),
        ("floor", Num::Float(f)) => to_int(f.floor()),
        ("sqrt", x) => {
            let f = to_float(x)?;
            if f < 0.0 {
                return Err(unsure("sqrt of negative"));
            }
            float(f.sqrt())
        }
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
        ("/", I(_), I(_)) => Err(unsure("integer division with /")),
        ("/", ..) => {
            let d = to_float(y)?;
            if d == 0.0 {
                return Err(unsure("division by zero"));
            }
            float(to_float(x)? / d)
        }
        // SWI's default integer_rounding_function is toward_zero.
        ("//", I(a), I(b)) => int_result(a.checked_div(b)),
        ("rem", I(a), I(b)) => int_result(a.checked_rem(b)),
        // mod takes the sign of the divisor.
        ("mod", I(a), I(b)) => {
            int_result(
                a.checked_rem_euclid(b)
                    .map(|r| if b < 0 && r != 0 { r + b } else { r }),
            )
        }
        ("min", I(a), I(b)) => Ok(I(a.min(b))),
        ("max", I(a), I(b)) => Ok(I(a.max(b))),
        ("min", F(a), F(b)) => float(a.min(b)),
        ("max", F(a), F(b)) => float(a.max(b)),
        ("min", ..) | ("max", ..) => {
            // Mixed types: the result keeps the type of the chosen operand;
            // SWI leaves equal values undefined, so those fall back.
            match compare(x, y)? {
                Ordering::Equal => Err(unsure("mixed min/max tie")),
                Ordering::Less => Ok(if name == "min" { x } else { y }),
                Ordering::Greater => Ok(if name == "min" { y } else { x }),
            }
        }
        ("^", I(a), I(b)) => {
            if b < 0 {
                return Err(unsure("negative integer power"));
            }
            let e = u32::try_from(b).map_err(|_| unsure("power too large"))?;
            int_result(a.checked_pow(e))
        }
        _ => Err(unsure("unsupported function")),
    }
}

/// `x + y`.
pub(crate) fn add(x: Num, y: Num) -> Result<Num, Fallback> {
    binary("+", x, y)
}

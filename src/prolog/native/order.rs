//! The standard order of terms, as SWI-Prolog 9 defines it:
//! Var < Number < Atom < Compound; numbers by value; compounds by arity,
//! then name, then arguments. Where SWI and scryer may disagree (distinct
//! variables, `[]` against other atoms, equal int/float values, list cells
//! against functors named between `'.'` and `'[|]'`) the comparison falls back.

use super::term::{Atoms, Cell, Store, DOT, NIL};
use super::Fallback;
use std::cmp::Ordering;

fn unsure(detail: &str) -> Fallback {
    Fallback::new("order", detail)
}

fn rank(cell: Cell) -> u8 {
    match cell {
        Cell::Ref(_) => 0,
        Cell::Int(_) | Cell::Float(_) => 1,
        Cell::Atom(_) => 3,
        Cell::Str(_) | Cell::Functor(..) => 4,
    }
}

/// Compares two heap terms in the standard order.
pub(crate) fn compare(
    store: &mut Store,
    atoms: &Atoms,
    a: Cell,
    b: Cell,
) -> Result<Ordering, Fallback> {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        store.charge(1)?;
        let a = store.deref(a);
        let b = store.deref(b);
        let (ra, rb) = (rank(a), rank(b));
        if ra != rb {
            return Ok(ra.cmp(&rb));
        }
        let order = match (a, b) {
            (Cell::Ref(x), Cell::Ref(y)) => {
                if x == y {
                    Ordering::Equal
                } else {
                    return Err(unsure("distinct variables"));
                }
            }
            (Cell::Int(x), Cell::Int(y)) => x.cmp(&y),
            (Cell::Float(x), Cell::Float(y)) => {
                if x == 0.0 && y == 0.0 && x.to_bits() != y.to_bits() {
                    return Err(unsure("signed zeros"));
                }
                x.partial_cmp(&y).ok_or_else(|| unsure("NaN"))?
            }
            (Cell::Int(_), Cell::Float(_)) | (Cell::Float(_), Cell::Int(_)) => {
                let o = super::arith::compare(num(a), num(b))?;
                if o == Ordering::Equal {
                    return Err(unsure("equal int and float"));
                }
                o
            }
            (Cell::Atom(x), Cell::Atom(y)) => {
                if x == y {
                    Ordering::Equal
                } else if x == NIL || y == NIL {
                    return Err(unsure("[] against an atom"));
                } else {
                    atoms.name(x).cmp(atoms.name(y))
                }
            }
            (Cell::Str(p), Cell::Str(q)) => {
                let (Cell::Functor(f, n), Cell::Functor(g, m)) =
                    (store.heap[p as usize], store.heap[q as usize])
                else {
                    return Err(unsure("bad term"));
                };
                let o = n.cmp(&m).then_with(|| {
                    if f == g {
                        Ordering::Equal
                    } else {
                        atoms.name(f).cmp(atoms.name(g))
                    }
                });
                if o == Ordering::Equal {
                    for i in (1..=n).rev() {
                        stack.push((store.heap[(p + i) as usize], store.heap[(q + i) as usize]));
                    }
                } else if n == 2 && (f == DOT || g == DOT) {
                    // SWI names list cells '[|]', scryer '.'.
                    let other = atoms.name(if f == DOT { g } else { f });
                    if other > "." && other < "[|]" {
                        return Err(unsure("list cell against a functor"));
                    }
                }
                o
            }
            _ => return Err(unsure("bad term")),
        };
        if order != Ordering::Equal {
            return Ok(order);
        }
    }
    Ok(Ordering::Equal)
}

fn num(cell: Cell) -> super::arith::Num {
    match cell {
        Cell::Float(f) => super::arith::Num::Float(f),
        Cell::Int(i) => super::arith::Num::Int(i),
        _ => super::arith::Num::Int(0),
    }
}

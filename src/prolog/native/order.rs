//! The standard order of terms, as SWI-Prolog 9.0 orders them (checked
//! against swipl 9.0.4): Var < Number < String < Atom < Compound, with `[]`
//! before every atom; numbers by value, a float before an integer of equal
//! value and -0.0 before 0.0; strings and atoms by character codes;
//! compounds by arity, then name (a list cell is named `'[|]'`), then
//! arguments. Two distinct variables are ordered by age (heap address:
//! the older first), as SWI orders them by address; the engine builds a
//! clause's terms left to right, so fresh variables compare in the order
//! they were written, as they do in SWI.

use super::term::{is_string_tag, Atoms, Cell, Store, DOT, LIST_NAME, NIL};
use super::Fallback;
use std::cmp::Ordering;

fn unsure(detail: &str) -> Fallback {
    Fallback::new("order", detail)
}

fn rank(store: &Store, cell: Cell) -> u8 {
    match cell {
        Cell::Ref(_) => 0,
        Cell::Int(_) | Cell::Float(_) | Cell::Big(_) => 1,
        Cell::Atom(_) => 3,
        Cell::Str(p) => match store.heap[p as usize] {
            Cell::Functor(name, arity) if is_string_tag(name, arity) => 2,
            _ => 4,
        },
        Cell::Functor(..) => 4,
    }
}

fn name_of<'a>(atoms: &'a Atoms, name: u32) -> &'a str {
    atoms.name(if name == DOT { LIST_NAME } else { name })
}

/// Compares two texts by character codes (UTF-8 byte order is code
/// order), charged for the bytes it may scan.
fn compare_text(store: &mut Store, a: &str, b: &str) -> Result<Ordering, Fallback> {
    store.charge_text(a.len().min(b.len()))?;
    Ok(a.cmp(b))
}

/// Compares two heap terms in the standard order.
pub(crate) fn compare(
    store: &mut Store,
    atoms: &Atoms,
    a: Cell,
    b: Cell,
) -> Result<Ordering, Fallback> {
    // Charged per pair pushed, before pushing: two terms of a huge arity
    // that differ in their first argument cost their arity.
    store.charge(1)?;
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        let a = store.deref(a);
        let b = store.deref(b);
        let (ra, rb) = (rank(store, a), rank(store, b));
        if ra != rb {
            return Ok(ra.cmp(&rb));
        }
        let order = match (a, b) {
            (Cell::Ref(x), Cell::Ref(y)) => x.cmp(&y),
            (Cell::Int(x), Cell::Int(y)) => x.cmp(&y),
            (Cell::Float(x), Cell::Float(y)) => x
                .partial_cmp(&y)
                .ok_or_else(|| unsure("NaN"))?
                .then_with(|| x.is_sign_positive().cmp(&y.is_sign_positive())),
            // Numbers of other types by value; on a tie the float first.
            (Cell::Int(_) | Cell::Big(_) | Cell::Float(_), _) => {
                let (x, y) = (num(store, a)?, num(store, b)?);
                super::arith::compare(&x, &y)?
                    .then_with(|| matches!(b, Cell::Float(_)).cmp(&matches!(a, Cell::Float(_))))
            }
            (Cell::Atom(x), Cell::Atom(y)) => {
                if x == y {
                    Ordering::Equal
                } else if x == NIL {
                    Ordering::Less
                } else if y == NIL {
                    Ordering::Greater
                } else {
                    compare_text(store, atoms.name(x), atoms.name(y))?
                }
            }
            (Cell::Str(p), Cell::Str(q)) => {
                let (Cell::Functor(f, n), Cell::Functor(g, m)) =
                    (store.heap[p as usize], store.heap[q as usize])
                else {
                    return Err(unsure("bad term"));
                };
                if is_string_tag(f, n) {
                    // Both strings (same rank): by text, `[]` included.
                    let text = |s: &Store, at: u32| match s.deref(s.heap[at as usize + 1]) {
                        Cell::Atom(t) => atoms.name(t),
                        _ => "",
                    };
                    let o = compare_text(store, text(store, p), text(store, q))?;
                    if o != Ordering::Equal {
                        return Ok(o);
                    }
                    continue;
                }
                let o = match n.cmp(&m) {
                    Ordering::Equal if f != g => {
                        compare_text(store, name_of(atoms, f), name_of(atoms, g))?
                    }
                    o => o,
                };
                if o == Ordering::Equal {
                    store.charge(u64::from(n))?;
                    for i in (1..=n).rev() {
                        stack.push((store.heap[(p + i) as usize], store.heap[(q + i) as usize]));
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

/// A number cell's value, charged by its size.
fn num(store: &mut Store, cell: Cell) -> Result<super::arith::Num, Fallback> {
    use super::arith::Num;
    Ok(match cell {
        Cell::Float(f) => Num::Float(f),
        Cell::Int(i) => Num::Int(i),
        Cell::Big(b) => {
            let value = store.bigs[b as usize].clone();
            store.charge(value.bits() / 64 + 1)?;
            Num::Big(value)
        }
        _ => return Err(unsure("bad term")),
    })
}

/// Sorts `items` stably by `compare`, stopping at its first error. A merge
/// sort of our own: the standard library's sorts may panic when comparisons
/// are inconsistent, which a comparison that stopped half-way would make them.
pub(crate) fn stable_sort<T: Copy>(
    mut items: Vec<T>,
    mut compare: impl FnMut(T, T) -> Result<Ordering, Fallback>,
) -> Result<Vec<T>, Fallback> {
    let n = items.len();
    let mut buffer: Vec<T> = Vec::with_capacity(n);
    let mut width = 1;
    while width < n {
        buffer.clear();
        for start in (0..n).step_by(2 * width) {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            while i < mid && j < end {
                // Equal keys keep their order: take from the left run.
                if compare(items[i], items[j])? == Ordering::Greater {
                    buffer.push(items[j]);
                    j += 1;
                } else {
                    buffer.push(items[i]);
                    i += 1;
                }
            }
            buffer.extend_from_slice(&items[i..mid]);
            buffer.extend_from_slice(&items[j..end]);
        }
        std::mem::swap(&mut items, &mut buffer);
        width *= 2;
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_sort_is_stable_sorted_and_stops_at_an_error() {
        let pairs: Vec<(u8, usize)> = [3, 1, 2, 1, 3, 0, 2, 1]
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i))
            .collect();
        let sorted = stable_sort(pairs.clone(), |a, b| Ok(a.0.cmp(&b.0))).expect("sorts");
        let mut expected = pairs.clone();
        expected.sort_by_key(|p| p.0);
        assert_eq!(sorted, expected);
        let mut calls = 0;
        let failed = stable_sort(pairs, |a, b| {
            calls += 1;
            if calls == 3 {
                Err(Fallback::new("order", "test"))
            } else {
                Ok(a.0.cmp(&b.0))
            }
        });
        assert_eq!(failed.map_err(|f| f.kind), Err("order"));
        assert_eq!(calls, 3);
    }
}

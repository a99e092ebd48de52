//! Shared by `fuzz/fuzz_targets/judge_cost.rs` and `tests/judge_cost.rs`:
//! answers built from bytes as built-in calls on growing atoms, lists and
//! numbers, and the check that the native evaluator's counted cost (steps,
//! work units, counted bytes) accounts for the bytes it really allocated.
//! The including crate installs [`Counting`] as its global allocator.

#![allow(dead_code)]

use entail::prolog::native::{run_native_counted, Steps, MAX_STEPS};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;

/// Counts every byte allocated (reallocations count their new size), and
/// the bytes live at once.
pub struct Counting;

pub static ALLOCATED: AtomicU64 = AtomicU64::new(0);
/// Bytes allocated and not yet freed.
pub static LIVE: AtomicU64 = AtomicU64::new(0);
/// The most [`LIVE`] has been since it was last reset to the live bytes.
pub static PEAK: AtomicU64 = AtomicU64::new(0);

fn grow_live(by: u64) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        grow_live(layout.size() as u64);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new_size as u64, Ordering::Relaxed);
        // The old block is live until the new one holds its bytes.
        grow_live(new_size as u64);
        LIVE.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

/// Bytes one counted unit (a step, a work unit, a counted byte) may
/// allocate at most: a step or unit stands for about one 16-byte cell, and
/// vectors grow by doubling.
pub const FACTOR: u64 = 64;

/// Bytes any answer may allocate beyond what it is charged for: parsing
/// and compiling it (at most 4 KB of text) and the machine's vectors.
pub const SLACK: u64 = 4 << 20;

/// The answer the bytes spell: pairs of (operation, argument).
pub fn answer(data: &[u8]) -> String {
    let mut body = vec![
        "A0 = abc".to_string(),
        "L0 = [3, 1, 2]".into(),
        "N0 = 7".into(),
    ];
    let (mut a, mut l, mut n) = (0, 0, 0);
    for pair in data.chunks(2) {
        let (op, k) = (pair[0] % 26, u32::from(pair.get(1).copied().unwrap_or(1)));
        let goal = match op {
            0 => format!("atom_concat(A{a}, A{a}, A{})", a + 1),
            1 => format!("atom_concat(A{a}, x{k}, A{})", a + 1),
            2 => format!("sub_atom(A{a}, {}, 1, _, _)", k % 8),
            3 => format!("findall(B-L, sub_atom(A{a}, B, L, _, _), _)"),
            4 => format!("atom_codes(A{a}, C), atom_codes(A{}, C)", a + 1),
            5 => format!("atom_length(A{a}, _)"),
            6 => format!("upcase_atom(A{a}, A{})", a + 1),
            7 => format!("findall(X-Y, atom_concat(X, Y, A{a}), _)"),
            8 => format!("findall(B, sub_atom(A{a}, B, _, _, ab), _)"),
            9 => format!("atom_chars(A{a}, Cs), length(Cs, _)"),
            10 => format!("append(L{l}, L{l}, L{})", l + 1),
            11 => format!("length(L{l}, _)"),
            12 => format!("msort(L{l}, L{})", l + 1),
            13 => format!("sort(0, @>=, L{l}, L{})", l + 1),
            14 => format!("findall(X, member(X, L{l}), L{})", l + 1),
            15 => format!("numlist(1, {}, L{})", k * 37, l + 1),
            16 => format!("copy_term(L{l}, L{})", l + 1),
            17 => format!("N{} is N{n} * N{n}", n + 1),
            18 => format!("N{} is N{n} ^ {k}", n + 1),
            19 => format!("N{} is N{n} + {k}", n + 1),
            20 => format!("number_codes(N{n}, Ds), atom_codes(A{}, Ds)", a + 1),
            21 => format!("setof(X, member(X, L{l}), L{})", l + 1),
            22 => format!("N{} is N{n} // ({k} + 1)", n + 1),
            // Big results from word-sized operands.
            23 => format!("N{} is {} ^ ({k} * 9973)", n + 1, k % 9 + 2),
            24 => format!("N{} is 1 << ({k} * 65537)", n + 1),
            _ => format!("dif(X{k}, L{l}), X{k} = L{l}"),
        };
        match op {
            0 | 1 | 4 | 6 | 20 => a += 1,
            10 | 12..=16 | 21 => l += 1,
            17..=19 | 22..=24 => n += 1,
            _ => {}
        }
        // A goal that fails does not end the answer: the next goals still
        // run on what there is (one that raises does end it).
        body.push(format!("ignore(({goal}))"));
    }
    format!("eastbound(x) :- {}.\n", body.join(", "))
}

/// Compiles the library, once per process: not any answer's cost.
pub fn warm() {
    static WARM: Once = Once::new();
    WARM.call_once(|| {
        let _ = run_native_counted(
            "",
            &answer(&[0, 1]),
            &["eastbound(x)".to_string()],
            MAX_STEPS,
            &mut Steps::default(),
        );
    });
}

/// Runs the answer `data` spells; `Err` with the numbers when it allocated
/// more than its counted cost allows.
pub fn check(data: &[u8]) -> Result<(u64, Steps), String> {
    let goals = ["eastbound(x)".to_string()];
    warm();
    let hypothesis = answer(data);
    let mut steps = Steps::default();
    let before = ALLOCATED.load(Ordering::Relaxed);
    let _ = run_native_counted("", &hypothesis, &goals, MAX_STEPS, &mut steps);
    let allocated = ALLOCATED.load(Ordering::Relaxed) - before;
    let counted = steps.total + steps.work + steps.memory as u64;
    if allocated > FACTOR * counted + SLACK {
        return Err(format!(
            "allocated {allocated} bytes, counted {counted} ({steps:?}): {hypothesis}"
        ));
    }
    Ok((allocated, steps))
}

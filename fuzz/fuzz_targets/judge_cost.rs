//! Answers built from built-in calls on growing atoms, lists and numbers:
//! the native evaluator's counted cost (steps, work units, memory) must
//! account for what it really did, measured as the bytes it allocated. It
//! fails when an answer allocates more than a fixed factor times what was
//! counted (plus a constant for parsing and compiling the answer): work a
//! budget does not see. See `tests/reference/judge_cost.rs`.
#![no_main]

#[path = "../../tests/reference/judge_cost.rs"]
mod judge_cost;

use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOCATOR: judge_cost::Counting = judge_cost::Counting;

fuzz_target!(|data: &[u8]| {
    if let Err(message) = judge_cost::check(data) {
        panic!("{message}");
    }
});

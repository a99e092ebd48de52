//! Answers built from built-in calls on growing atoms, lists and numbers:
//! the native evaluator's counted cost (steps, work units, memory) must
//! account for what it really did. It fails when an answer allocates more
//! than a fixed factor times what was counted (plus a constant for parsing
//! and compiling the answer), or spends more CPU time than a generous
//! bound per counted unit: work a budget does not see. See
//! `tests/reference/judge_cost.rs`. The CPU bound is for fuzzing only: no
//! test or verdict depends on time.
#![no_main]

#[path = "../../tests/reference/judge_cost.rs"]
mod judge_cost;
#[path = "../../tests/reference/thread_cpu.rs"]
mod thread_cpu;

use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOCATOR: judge_cost::Counting = judge_cost::Counting;

/// CPU nanoseconds one counted unit may take: a step costs about 100 ns
/// and a work unit about 10 ns in an optimised build, so this leaves 20x
/// for a loaded machine.
const NS_PER_UNIT: u64 = 2_000;

/// CPU time any answer may take beyond its counted units: parsing and
/// compiling it.
const SLACK_NS: u64 = 50_000_000;

fuzz_target!(|data: &[u8]| {
    judge_cost::warm();
    let start = thread_cpu::thread_cpu_ns();
    match judge_cost::check(data) {
        Err(message) => panic!("{message}"),
        Ok((_, steps)) => {
            let spent = thread_cpu::thread_cpu_ns() - start;
            let counted = steps.total + steps.work + steps.memory as u64;
            if spent > NS_PER_UNIT * counted + SLACK_NS {
                panic!(
                    "{spent} ns of CPU for {counted} counted units ({steps:?}): {}",
                    judge_cost::answer(data)
                );
            }
        }
    }
});

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

/// This thread's CPU time, in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

fuzz_target!(|data: &[u8]| {
    judge_cost::warm();
    let start = thread_cpu_ns();
    match judge_cost::check(data) {
        Err(message) => panic!("{message}"),
        Ok((_, steps)) => {
            let spent = thread_cpu_ns() - start;
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

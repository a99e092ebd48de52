//! The native evaluator's counted cost against the bytes it allocates, on
//! answers built from built-in calls on growing atoms, lists and numbers
//! (the `judge_cost` fuzz target's check, on a fixed set of random inputs:
//! see `tests/reference/judge_cost.rs`).

#[path = "reference/judge_cost.rs"]
mod judge_cost;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[global_allocator]
static ALLOCATOR: judge_cost::Counting = judge_cost::Counting;

#[test]
fn counted_cost_accounts_for_the_memory_allocated() {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let mut failures = Vec::new();
    let (mut most, mut total) = (0u64, 0u64);
    for _ in 0..300 {
        let len = rng.gen_range(2..48);
        let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        match judge_cost::check(&data) {
            Ok((allocated, _)) => {
                most = most.max(allocated);
                total += allocated;
            }
            Err(message) => failures.push(message),
        }
    }
    eprintln!("300 answers: {total} bytes allocated, at most {most} by one");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

//! Any bytes as a hypothesis (not even sanitized, so more than the judge
//! ever passes): the native evaluator must answer or fall back, never panic,
//! and stay within its budgets.
#![no_main]

use entail::prolog::native::run_native;
use libfuzzer_sys::fuzz_target;

const BACKGROUND: &str = "has_car(t1,c1).\nhas_car(t1,c2).\nhas_car(t2,c3).\n\
car_num(c1,1).\ncar_num(c2,2).\ncar_num(c3,1).\ncar_color(c1,red).\n\
car_color(c2,blue).\ncar_color(c3,red).\nload_num(c1,2).\nload_num(c2,0).\n\
load_num(c3,3).\n";

fuzz_target!(|data: &[u8]| {
    let hypothesis = String::from_utf8_lossy(data);
    let goals = ["eastbound(t1)".to_string(), "eastbound(t2)".to_string()];
    let _ = run_native(BACKGROUND, &hypothesis, &goals, 1_000_000);
});

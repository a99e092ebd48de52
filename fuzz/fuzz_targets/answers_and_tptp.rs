//! Any bytes, read as what a model or a user hands over: a TPTP file (the
//! reader must return, never panic, and a FOF statement it accepts must
//! print to text that reads back to the same statement), and an answer to each benchmark
//! family (an SLR rule's extraction, an option letter, T/F label lists,
//! step lines). Every reader returns on any text; label lists it reads
//! print to text it reads back the same.
#![no_main]

use entail::judge::extract_rule;
use entail::syntax::{answer, tptp};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(statements) = tptp::parse(&text) {
        for statement in statements {
            // The printer writes FOF (a clause's negated equation prints
            // as `~ (a = b)`, which CNF does not allow).
            let tptp::Statement::Formula(annotated) = statement else {
                continue;
            };
            if annotated.language != tptp::Language::Fof {
                continue;
            }
            let printed = format!(
                "fof({}, {}, {}).",
                annotated.name,
                annotated.role.name(),
                tptp::Fof(&annotated.formula)
            );
            let reread = tptp::parse(&printed)
                .unwrap_or_else(|e| panic!("printed form does not parse: {e}\n{printed}"));
            assert_eq!(
                reread,
                [tptp::Statement::Formula(annotated)],
                "round trip changed the statement:\n{printed}"
            );
        }
    }
    let _ = extract_rule(&text, "eastbound");
    let _ = answer::option::parse(&text, 4);
    let _ = answer::steps::parse(&text);
    for k in 1..=5 {
        if let Some(lists) = answer::truth::parse(&text, k) {
            let printed = answer::truth::print(&lists);
            assert_eq!(answer::truth::parse(&printed, k), Some(lists), "{printed}");
        }
    }
});

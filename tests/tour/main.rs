//! The tour in the crate documentation (`src/lib.rs` shows `body.rs`, so
//! it runs there as a doctest and here as a test).

#[test]
fn tour() {
    include!("body.rs")
}

//! Links the `entail` command as a position-dependent executable on Linux.
//!
//! A position-independent `entail` is relocated by the dynamic loader at
//! every start: about 34,000 relative relocations and 120 more page faults,
//! 0.4 ms of a 2.4 ms `entail prove` of a trivial problem, which Prover9
//! answers in 2.0 ms (`perf stat`, see `docs/performance.md`). Linked at a
//! fixed address, the same start costs what Prover9's does. Only the command
//! is linked so: the library, the worker and the Python extension stay
//! position-independent.
fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bin=entail=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}

//! `entail-worker`: one sandboxed scryer-prolog machine behind pipes, started
//! by the judge (`entail::prolog::Worker`); not meant to be run by hand.

/// The same allocator as `entail`: scryer builds and drops many small terms.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    entail::prolog::serve_worker()
}

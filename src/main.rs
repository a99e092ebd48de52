//! The `entail` command line. It is a thin layer over the `entail` library and
//! uses only its public API.

mod cli;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod lazy_z3;

/// Generators and the judge build and drop millions of small terms;
/// mimalloc roughly halves `gen slr`'s time against the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    entail::smt::set_z3_check(lazy_z3::loads);
    if std::env::args_os()
        .nth(1)
        .is_some_and(|command| command == "judge")
    {
        return_freed_memory_at_once();
    }
    cli::main()
}

/// Most proofs take milliseconds, and mimalloc asks for transparent huge
/// pages, so the first allocations made the kernel zero fresh 2 MiB pages:
/// 1.2-1.5 ms of a 5-6 ms `entail prove` of an easy problem
/// (`scripts/prove-speed`). This runs before mimalloc's own initialiser
/// (ours has the first priority a program may use; glibc passes `argv` to
/// initialisers), so `prove` never gets a huge page. The setting is
/// inherited by the provers `prove` starts. Other commands run long enough
/// to keep them.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[link_section = ".init_array.00101"]
static NO_HUGE_PAGES_FOR_PROVE: extern "C" fn(
    std::ffi::c_int,
    *const *const std::ffi::c_char,
    *const *const std::ffi::c_char,
) = {
    extern "C" fn no_huge_pages_for_prove(
        argc: std::ffi::c_int,
        argv: *const *const std::ffi::c_char,
        _env: *const *const std::ffi::c_char,
    ) {
        if argc < 2 || argv.is_null() {
            return;
        }
        // SAFETY: glibc passes the program's argc and argv, whose entries
        // are NUL-terminated strings.
        let command = unsafe {
            let arg = *argv.add(1);
            !arg.is_null() && std::ffi::CStr::from_ptr(arg).to_bytes() == b"prove"
        };
        if command {
            // SAFETY: PR_SET_THP_DISABLE takes plain integers and changes
            // only which pages back this process's memory.
            unsafe {
                libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
            }
        }
    }
    no_huge_pages_for_prove
};

/// mimalloc keeps freed pages a second before it gives them back, so a judge
/// run over one long answer held its memory twice over (a 15 MB answer:
/// 160 MB at peak, 101 MB with this). Batches of short answers run as fast;
/// `gen` keeps the delay, which saves it system time.
fn return_freed_memory_at_once() {
    /// `mi_option_purge_delay` in mimalloc's option enum (v2 and v3; the
    /// crate names no constant for it).
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    // mimalloc read the user's own setting, which stands.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: setting an option is allowed at any time, from any thread.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) }
}

#[cfg(test)]
mod tests {
    /// The option set above is the purge delay: option 15 of mimalloc v3
    /// (the crate's default), whose default is 1,000 ms.
    #[test]
    fn option_15_is_the_purge_delay() {
        // SAFETY: reading an option is allowed at any time.
        let value = unsafe { libmimalloc_sys::mi_option_get(15) };
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!(value, 1000);
        }
    }
}

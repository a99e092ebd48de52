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
    cli::main()
}

/// mimalloc's `mi_option_arena_reserve` (its v3 option number; the crate
/// names only the older options).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MI_OPTION_ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;

/// The first arena `entail prove` reserves, in KiB: mimalloc's default of
/// 1 GiB costs its bitmaps 41 more page faults at start (271 against 230
/// for a trivial problem), about 0.15-0.3 ms of a 2 ms run. Larger problems
/// get more arenas as they need them.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const PROVE_ARENA_KIB: std::ffi::c_long = 16 * 1024;

/// Most proofs take milliseconds, and mimalloc asks for transparent huge
/// pages, so the first allocations made the kernel zero fresh 2 MiB pages:
/// 1.2-1.5 ms of a 5-6 ms `entail prove` of an easy problem
/// (`scripts/prove-speed`). Its first arena is made smaller too
/// ([`PROVE_ARENA_KIB`]). This runs before mimalloc's own initialiser
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
            // only which pages back this process's memory. mi_option_set
            // only stores the option, and mimalloc has not started yet.
            unsafe {
                libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
                libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_RESERVE, PROVE_ARENA_KIB);
            }
        }
    }
    no_huge_pages_for_prove
};

//! Printing command output. `println!` panics when stdout is a closed pipe
//! (`entail … | head`); these macros end the process quietly instead, the
//! way Unix tools die of SIGPIPE. (The signal itself stays ignored: the judge
//! writes to worker processes and must survive one of them dying.)

use std::io::Write;

/// Where command output goes instead of stdout (`-o/--output` of the
/// commands that print a report), once set. Unbuffered, so a process that
/// ends at once (`prove`'s hard deadline) loses nothing.
static REDIRECT: std::sync::OnceLock<std::sync::Mutex<std::fs::File>> = std::sync::OnceLock::new();

/// Sends this command's output to `path` (created, or truncated) instead of
/// stdout; `None` leaves it on stdout.
pub(crate) fn redirect(path: Option<&std::path::Path>) -> Result<(), super::Failure> {
    if let Some(path) = path {
        let file = super::create_file(path)?;
        let _ = REDIRECT.set(std::sync::Mutex::new(file));
    }
    Ok(())
}

/// Flushes the redirected output, if any; a failure names the file.
pub(crate) fn finish_redirect(path: Option<&std::path::Path>) -> Result<(), super::Failure> {
    if let (Some(path), Some(out)) = (path, REDIRECT.get()) {
        let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
        out.flush()
            .map_err(|e| super::io_failure(path, "write", &e))?;
    }
    Ok(())
}

/// Writes `args` to stdout (or the file of [`redirect`]); on a closed pipe,
/// exits with status 0.
pub fn write_stdout(args: std::fmt::Arguments) {
    if let Some(out) = REDIRECT.get() {
        let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = out.write_fmt(args) {
            eprintln!("entail: cannot write the output file: {e}");
            std::process::exit(1);
        }
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("entail: cannot write to stdout: {e}");
        std::process::exit(1);
    }
}

/// `print!` for command output.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::output::write_stdout(format_args!($($arg)*)) };
}

/// `println!` for command output.
macro_rules! outln {
    () => { $crate::cli::output::write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::cli::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

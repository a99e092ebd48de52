//! Printing command output. `println!` panics when stdout is a closed pipe
//! (`entail … | head`); these macros end the process quietly instead, the
//! way Unix tools die of SIGPIPE. (The signal itself stays ignored: the judge
//! writes to worker processes and must survive one of them dying.)

use std::io::Write;

/// Writes `args` to stdout; on a closed pipe, exits with status 0.
pub fn write_stdout(args: std::fmt::Arguments) {
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

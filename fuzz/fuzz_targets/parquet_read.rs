//! Any bytes as a `judge --batch` input file through the Parquet reader
//! (`table::json_lines`, which sniffs the magic number): reading must end
//! in rows or an error, never a panic that escapes. The parquet crate
//! panics on some corrupt files and `table` catches those, so this target
//! replaces libFuzzer's abort-on-any-panic hook with a silent one; a panic
//! that escapes still fails the run. Seed it with real Parquet files (see
//! README.md here) so mutations reach past the footer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::{BufRead, Seek, SeekFrom, Write};

fuzz_target!(|data: &[u8]| {
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    let mut file = tempfile::tempfile().expect("a temporary file");
    file.write_all(data).expect("written");
    file.seek(SeekFrom::Start(0)).expect("rewound");
    let Ok(lines) = entail::table::json_lines(file) else {
        return;
    };
    for line in lines.lines() {
        if line.is_err() {
            break;
        }
    }
});

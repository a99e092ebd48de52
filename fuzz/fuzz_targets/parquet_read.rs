//! Any bytes as a `judge --batch` input file through the Parquet reader
//! (`table::json_lines`, which sniffs the magic number): reading must end
//! in rows or an error, never a panic. Seed it with real Parquet files
//! (see README.md here) so mutations reach past the footer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::{BufRead, Seek, SeekFrom, Write};

fuzz_target!(|data: &[u8]| {
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

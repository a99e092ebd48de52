//! What several test files share: running the `entail` binary this build
//! made, and a scratch directory per test.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The crate root, where commands run (so `corpora/…` paths resolve).
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs `entail ARGS` from the crate root: (exit code, stdout, stderr).
pub fn entail(args: &[&str]) -> (i32, String, String) {
    entail_with_env(args, &[])
}

/// [`entail`] with these environment variables set.
pub fn entail_with_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(ROOT)
        .output()
        .expect("run entail");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// A fresh, empty scratch directory named after the test file and `name`.
pub fn scratch(file: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("entail-{file}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Writes an executable shell script `dir/program` running `body`: a
/// stand-in for an outside program, found first on a test's `PATH`.
#[cfg(unix)]
#[allow(dead_code)]
pub fn stand_in(dir: &std::path::Path, program: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join(program);
    std::fs::write(&script, format!("#!/bin/sh\n{body}")).expect("write the stand-in");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    script
}

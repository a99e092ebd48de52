//! Every `examples/*.in` of Debian's prover9-doc: `entail prove` agrees with
//! the verdict in the matching `.out` (`THEOREM PROVED` or not), or answers
//! `unknown` within the timeout. Mace4-only examples (no `.out` or a Mace4
//! `.out`) count as "no proof". Expects the package unpacked at
//! `.cache/prover9-doc` (see the README); fails with instructions otherwise.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// Examples the package ships without a `.out` that Prover9 proves: LADR's
/// own `examples/misc/RBA-2.out` ends in THEOREM PROVED (Robbins algebra,
/// proved by E here).
const PROVED_WITHOUT_OUT: [&str; 1] = ["RBA-2.in"];

const TIMEOUT_SECS: u64 = 2;

#[test]
fn prover9_doc_examples_agree_or_are_unknown() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(".cache/prover9-doc/usr/share/doc/prover9-doc/examples");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "prover9-doc examples missing at {} ({e}); run: mkdir -p .cache && dpkg -x /tmp/prover9-doc_*.deb .cache/prover9-doc",
            dir.display()
        )
    });
    let mut inputs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "in"))
        .collect();
    inputs.sort();
    let (mut agree, mut unknown, mut errors) = (0, 0, Vec::new());
    let mut slowest: f64 = 0.0;
    let mut disagreements = Vec::new();
    for input in &inputs {
        let in_list = input
            .file_name()
            .is_some_and(|n| PROVED_WITHOUT_OUT.iter().any(|p| n == *p));
        let expected_proved = in_list
            || std::fs::read_to_string(input.with_extension("out"))
                .map(|out| out.contains("THEOREM PROVED"))
                .unwrap_or(false);
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_entail"))
            .args([
                "prove",
                "--no-countermodels",
                "--timeout",
                &TIMEOUT_SECS.to_string(),
            ])
            .arg(input)
            .output()
            .expect("runs entail");
        slowest = slowest.max(started.elapsed().as_secs_f64());
        let name = input
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        match (out.status.code(), expected_proved) {
            (Some(0), true) | (Some(2), false) => agree += 1,
            (Some(4), _) => unknown += 1,
            (Some(1), _) => errors.push(format!(
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )),
            (code, _) => disagreements.push(format!(
                "{name}: exit {code:?}, expected proved = {expected_proved}"
            )),
        }
    }
    eprintln!(
        "prover9-doc examples: {} inputs, {agree} agree, {unknown} unknown, {} input errors; slowest run {slowest:.2} s at --timeout {TIMEOUT_SECS}",
        inputs.len(),
        errors.len()
    );
    for e in &errors {
        eprintln!("  input error: {e}");
    }
    assert!(
        disagreements.is_empty(),
        "disagreements: {disagreements:#?}"
    );
    // bool-ring.in is rejected by the Prover9 parser (operator precedence of
    // `+`), reported to the parser's owner; any other input error fails.
    assert!(
        errors.iter().all(|e| e.starts_with("bool-ring.in:")),
        "input errors: {errors:#?}"
    );
    assert!(agree >= 15, "only {agree} examples decided");
}

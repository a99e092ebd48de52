//! Where the published LogicGraph corpus lives, for the tests that read it.
//!
//! The instances are not ours to commit, so they are read in place: from
//! `$ENTAIL_LOGICGRAPH_CORPUS`, else `../shared/corpora/logicgraph` beside the
//! checkout. On a fresh clone neither exists, and the tests that need the
//! corpus skip with one visible line instead of failing. So do the tests
//! that need WordNet ([`wordnet`]) when it is not installed.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

/// The corpus root (holding `Small/`, `Medium/`, `Large/`), or `None` after
/// printing why `test` is skipped.
pub fn logicgraph_corpus(test: &str) -> Option<PathBuf> {
    let root = match std::env::var_os("ENTAIL_LOGICGRAPH_CORPUS") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/logicgraph"),
    };
    if root.join("Small").is_dir() {
        return Some(root);
    }
    // Written to the real stderr, not through `eprintln!`, which the test
    // harness captures: a skip must be seen.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: no published LogicGraph corpus at {} (set ENTAIL_LOGICGRAPH_CORPUS)",
        root.display()
    );
    None
}

/// The WordNet directory the generators read by default: `$ENTAIL_WORDNET`,
/// else /usr/share/wordnet (Debian's wordnet-base).
pub fn wordnet_dir() -> PathBuf {
    match std::env::var_os("ENTAIL_WORDNET") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from("/usr/share/wordnet"),
    }
}

/// Whether WordNet, which the generators word their items from, is
/// installed in [`wordnet_dir`] (the files they read are there); if not,
/// prints why `test` is skipped. `scripts/install-deps` installs it.
pub fn wordnet(test: &str) -> bool {
    let dir = wordnet_dir();
    let files = [
        "index.noun",
        "data.noun",
        "data.verb",
        "data.adj",
        "data.adv",
        "noun.exc",
        "cntlist.rev",
    ];
    match files.iter().find(|f| !dir.join(f).is_file()) {
        None => true,
        Some(missing) => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: no WordNet at {} ({missing} is missing; set ENTAIL_WORDNET)",
                dir.display()
            );
            false
        }
    }
}

//! Three-way answers on FOLIO-notation programs: `corpora/fol/problems.jsonl`
//! (our own problems, each with its golden label and a hand-written LADR
//! translation, u–z constants renamed) answered by the library, by
//! `entail prove --three-way --batch`, and, when `prover9` is on the PATH,
//! differentially against Prover9 run the pipelines' way (the goal, then its
//! negation) on the LADR translation, its proofs read from its output.

mod common;

use entail::prove::{program_of, three_way_answer, Answer, ProveOptions, Prover};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn corpus() -> Vec<serde_json::Map<String, Value>> {
    let path = PathBuf::from(common::ROOT).join("corpora/fol/problems.jsonl");
    let text = std::fs::read_to_string(path).expect("corpus");
    text.lines()
        .map(|l| match serde_json::from_str(l).expect("json") {
            Value::Object(m) => m,
            _ => panic!("not an object: {l}"),
        })
        .collect()
}

fn label(problem: &serde_json::Map<String, Value>) -> &str {
    problem["label"].as_str().expect("label")
}

#[test]
fn the_corpus_gets_its_golden_answers() {
    let problems = corpus();
    assert!(problems.len() >= 30);
    let mut prover = Prover::new(ProveOptions::default());
    for p in &problems {
        let id = p["id"].as_str().unwrap_or("?");
        let program = program_of(p).unwrap_or_else(|e| panic!("{id}: {}", e.message));
        let report = three_way_answer(&mut prover, &program);
        assert_eq!(report.answer.name(), label(p), "{id}: {report:?}");
        match report.answer {
            Answer::True | Answer::False => assert!(report.used_premises.is_some(), "{id}"),
            Answer::Uncertain => {
                assert!(report.settled, "{id}");
                let (c, n) = (report.conclusion.as_ref(), report.negation.as_ref());
                assert!(c.and_then(|d| d.countermodel.as_ref()).is_some(), "{id}");
                assert!(n.and_then(|d| d.countermodel.as_ref()).is_some(), "{id}");
            }
            Answer::Error => unreachable!(),
        }
        assert_eq!(report.inconsistent_premises, id == "inconsistent", "{id}");
    }
}

#[test]
fn the_batch_command_answers_every_line_in_order() {
    let (code, out, err) = common::entail(&[
        "prove",
        "--three-way",
        "--batch",
        "corpora/fol/problems.jsonl",
        "--workers",
        "2",
        "--no-countermodels",
    ]);
    assert_eq!(code, 0, "{err}");
    let problems = corpus();
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), problems.len());
    for (line, p) in lines.iter().zip(&problems) {
        assert_eq!(line["id"], p["id"]);
        assert_eq!(line["answer"], label(p), "{line}");
        assert_eq!(line["correct"], true);
    }
    let n = problems.len();
    assert!(
        err.contains(&format!("{n} of {n} labelled answered as labelled")),
        "{err}"
    );
}

#[test]
fn a_single_program_file_and_its_errors() {
    let dir = common::scratch("fol_corpus", "single");
    let good = dir.join("good.txt");
    std::fs::write(
        &good,
        "Premises:\n∀x (Drinks(x) → Dependent(x))\nDrinks(yale)\nConclusion:\nDependent(yale)\n",
    )
    .expect("write");
    let (code, out, _) = common::entail(&["prove", "--three-way", good.to_str().expect("utf-8")]);
    assert_eq!((code, out.as_str()), (0, "True\nused premises: 1, 2\n"));
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "Premises:\n∀x (Drinks(x) → )\nConclusion:\nDrinks(yale)\n",
    )
    .expect("write");
    let (code, out, _) = common::entail(&[
        "prove",
        "--three-way",
        "--json",
        bad.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(report["answer"], "Error");
    assert_eq!(report["error"]["kind"], "syntax");
    assert_eq!(
        (
            report["error"]["line"].clone(),
            report["error"]["column"].clone()
        ),
        (2.into(), 17.into())
    );
}

/// `prover9` from `ENTAIL_LADR_BIN` or the PATH.
fn prover9() -> Option<PathBuf> {
    std::env::var_os("ENTAIL_LADR_BIN")
        .into_iter()
        .chain(std::env::var_os("PATH"))
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("prover9"))
        .find(|p| p.is_file())
}

fn prover9_proves(prover9: &PathBuf, assumptions: &[&str], goal: &str) -> bool {
    use std::io::Write;
    let mut text = String::from("formulas(assumptions).\n");
    for a in assumptions {
        text.push_str(&format!("{a}.\n"));
    }
    text.push_str(&format!(
        "end_of_list.\nformulas(goals).\n{goal}.\nend_of_list.\n"
    ));
    let mut child = Command::new(prover9)
        .args(["-t", "5"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("runs prover9");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("writes");
    let out = child.wait_with_output().expect("prover9 ends");
    // A printed proof, whatever the exit status: with more than one
    // negative clause Prover9 raises max_proofs to 2, prints the first
    // proof, and exits with sos_empty (2) when no second comes; NLTK reads
    // that status as "no proof".
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|l| l.starts_with("============================== PROOF"))
}

/// The pipelines' answer, by Prover9 on the careful LADR translation: the
/// goal proved → True, its negation proved → False, else Uncertain.
#[test]
fn answers_equal_prover9_on_careful_ladr_translations() {
    let Some(prover9) = prover9() else {
        println!("SKIP answers_equal_prover9_on_careful_ladr_translations: prover9 not found (set ENTAIL_LADR_BIN)");
        return;
    };
    let mut prover = Prover::new(ProveOptions::default());
    let mut bare = Prover::new(ProveOptions {
        countermodels: false,
        ..ProveOptions::default()
    });
    for p in &corpus() {
        let id = p["id"].as_str().unwrap_or("?");
        let ladr = &p["ladr"];
        let assumptions: Vec<&str> = ladr["assumptions"]
            .as_array()
            .expect("assumptions")
            .iter()
            .map(|a| a.as_str().expect("string"))
            .collect();
        let goal = ladr["goal"].as_str().expect("goal");
        let theirs = if prover9_proves(&prover9, &assumptions, goal) {
            "True"
        } else if prover9_proves(&prover9, &assumptions, &format!("-({goal})")) {
            "False"
        } else {
            "Uncertain"
        };
        let program = program_of(p).unwrap_or_else(|e| panic!("{id}: {}", e.message));
        // Both ways of answering: with countermodels, and without (where a
        // saturation of the native prover settles a direction).
        for prover in [&mut prover, &mut bare] {
            let report = three_way_answer(prover, &program);
            assert_eq!(report.answer.name(), theirs, "{id}");
            // The used premises alone prove it, by Prover9.
            if let Some(used) = &report.used_premises {
                let kept: Vec<&str> = used.iter().map(|&i| assumptions[i - 1]).collect();
                let target = match report.answer {
                    Answer::True => goal.to_string(),
                    _ => format!("-({goal})"),
                };
                assert!(
                    prover9_proves(&prover9, &kept, &target),
                    "{id}: premises {used:?} alone do not prove it"
                );
            }
        }
        assert_eq!(
            theirs,
            label(p),
            "{id}: the golden label disagrees with Prover9"
        );
    }
}

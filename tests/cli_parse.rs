//! `entail parse`: normalized output, the JSON summary, and FILE:LINE:COL errors.

mod common;

use common::entail;

#[test]
fn prover9_summary_lists_counts_and_labels() {
    let (code, out, _) = entail(&["parse", "--json", "corpora/prove/mp_chain.in"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(json["syntax"], "prover9");
    assert_eq!(json["lists"][0]["name"], "assumptions");
    assert_eq!(json["lists"][0]["count"], 6);
    assert_eq!(
        json["lists"][0]["labels"],
        serde_json::json!(["P1", "P2", "P3", "P4", "P5", "P6"])
    );
}

#[test]
fn prolog_is_detected_and_normalized() {
    let dir = std::env::temp_dir().join(format!("entail-cli-parse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("r.pl");
    std::fs::write(&good, "eastbound(T):-has_car(T,C),car_len(C , short).\n").unwrap();
    let (code, out, _) = entail(&["parse", good.to_str().unwrap()]);
    assert_eq!(
        (code, out.as_str()),
        (0, "eastbound(T):-has_car(T,C),car_len(C,short).\n")
    );

    let bad = dir.join("bad.pl");
    std::fs::write(&bad, "p(X) :- q(X\n").unwrap();
    let (code, _, err) = entail(&["parse", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        err.trim_end(),
        format!("{}:2:1: unexpected end of file", bad.display())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

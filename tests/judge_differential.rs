//! Differential test: entail's scores equal the SLR reference method run
//! through SWI-Prolog on ≥500 generated (task, hypothesis) pairs, the
//! rules extracted as the reference extracts them (all of them, together);
//! and, for the pairs with helpers or restated facts, `--rules program`
//! equals SWI loading the program around the rule.

#[path = "reference/slr_baseline.rs"]
mod baseline;
#[path = "reference/slr_gen.rs"]
mod slr_gen;

use entail::judge::{Judge, JudgeConfig, Rules, TaskRecord};

/// (trains, max cars per train): level 1 (one car) up to 32 trains of 6 cars.

#[test]
fn scores_match_swipl_reference() {
    assert!(
        baseline::swipl_available(),
        "swipl is required (apt-get install swi-prolog-nox)"
    );
    let pairs = slr_gen::differential_pairs();
    assert!(pairs.len() >= 500);
    // The judge's names are opaque and drawn (the reference prefixes `my`),
    // so scores agree only for rules that never look inside or order
    // constants. The generated hypotheses never do; a mutation may name a
    // `train<N>`, which exists under neither renaming.
    for (_, h) in &pairs {
        let inspects = [
            "atom_",
            "sub_atom",
            "char_code",
            "@<",
            "@>",
            "compare(",
            "msort",
        ];
        assert!(!inspects.iter().any(|p| h.contains(p)), "{h}");
    }

    // The judge's default against the reference as it extracts.
    let (agree, differing) = compare(&pairs, Rules::All, baseline::score_reference);
    eprintln!(
        "--rules all: {agree} of {} pairs agree with the reference",
        pairs.len()
    );
    assert!(
        differing.is_empty(),
        "{} of {} pairs differ:\n{}",
        differing.len(),
        pairs.len(),
        differing.join("\n\n")
    );
    // `--rules program` where it loads more than the reference.
    let more: Vec<(String, String)> = pairs
        .iter()
        .filter(|(_, h)| {
            baseline::loaded(h, "eastbound").map(|l| l.text.trim().to_string())
                != baseline::reference_rules(h, "eastbound")
        })
        .cloned()
        .collect();
    assert!(more.len() >= 30, "{}", more.len());
    let (agree, differing) = compare(&more, Rules::Program, baseline::score);
    eprintln!(
        "--rules program: {agree} of {} pairs with helpers or facts agree with SWI",
        more.len()
    );
    assert!(
        differing.is_empty(),
        "{} of {} pairs differ:\n{}",
        differing.len(),
        more.len(),
        differing.join("\n\n")
    );
}

/// Scores every pair with the judge under `rules` and with `scorer`: the
/// number that agree and a description of each that does not.
fn compare(
    pairs: &[(String, String)],
    rules: Rules,
    scorer: baseline::Scorer,
) -> (usize, Vec<String>) {
    let mut config = JudgeConfig::default();
    config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    config.rules = rules;
    let judge = Judge::new(config);
    let ours: Vec<(f64, bool, Option<String>)> = pairs
        .iter()
        .map(|(program, h)| {
            let record = TaskRecord {
                validation_program: program.clone(),
                ..Default::default()
            };
            let result = judge.task(&record).expect("generated task loads").score(h);
            (result.partial_score, result.is_correct, result.error)
        })
        .collect();

    let theirs = baseline::score_all_by(pairs, scorer);
    let mut differing = Vec::new();
    let mut distinct_scores = std::collections::BTreeSet::new();
    for (i, ((program, h), (partial, correct, error))) in pairs.iter().zip(&ours).enumerate() {
        let reference = &theirs[i];
        distinct_scores.insert((partial * 1000.0) as i64);
        if reference.partial_score != *partial || reference.is_correct != *correct {
            differing.push(format!(
                "pair {i}: ours {partial} (error {error:?}) vs swipl {}\n{h}\n--- program head:\n{}",
                reference.partial_score,
                program.lines().take(3).collect::<Vec<_>>().join("\n")
            ));
        }
    }
    // The corpus must exercise the scoring: many different partial scores.
    assert!(
        distinct_scores.len() >= 10 || pairs.len() < 100,
        "too few distinct scores: {distinct_scores:?}"
    );
    (pairs.len() - differing.len(), differing)
}

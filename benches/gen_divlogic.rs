//! Throughput of `entail gen divlogic` per question type, and of scoring.
//! Run with `cargo bench --bench gen_divlogic`.

use entail::gen::divlogic::{
    self, score, Answer, Config, Question, QuestionType, ScoreConfig, TypeChoice,
};
use std::time::Instant;

/// The records `generate` writes for `config`, read back.
fn questions(config: &Config) -> Result<Vec<Question>, String> {
    let mut out = Vec::new();
    divlogic::generate(config, &mut out, &|_| {}).map_err(|e| e.to_string())?;
    let text = String::from_utf8(out).map_err(|e| e.to_string())?;
    text.lines()
        .map(|line| serde_json::from_str(line).map_err(|e| e.to_string()))
        .collect()
}

fn main() {
    let count = 5000;
    for (name, types) in [
        ("3c1e", TypeChoice::Only(QuestionType::OneEntailed)),
        ("3e1c", TypeChoice::Only(QuestionType::OneNotEntailed)),
        ("missing", TypeChoice::Only(QuestionType::MissingPremise)),
        ("mixed", TypeChoice::Mixed),
    ] {
        let config = Config {
            types,
            count,
            seed: 1,
            ..Config::default()
        };
        let start = Instant::now();
        let mut out = Vec::new();
        if let Err(e) = divlogic::generate(&config, &mut out, &|_| {}) {
            eprintln!("{name}: {e}");
            return;
        }
        let secs = start.elapsed().as_secs_f64();
        let written = out.iter().filter(|&&b| b == b'\n').count() as f64;
        println!(
            "gen {name:8} {count} questions in {secs:.3} s: {:.0} questions/s, {:.1} µs each",
            written / secs,
            secs * 1e6 / written
        );
    }
    let config = Config {
        count,
        seed: 2,
        rotations: true,
        ..Config::default()
    };
    let Ok(questions) = questions(&config) else {
        return;
    };
    let answers: Vec<Answer> = questions
        .iter()
        .map(|q| Answer {
            id: q.id.clone(),
            answer: Some(0),
        })
        .collect();
    let start = Instant::now();
    let report = score(&questions, &answers, &ScoreConfig::default(), &|_| {});
    println!(
        "score {} rotated lines in {:.3} s (always-A: accuracy {:.4}, PC {:?})",
        questions.len(),
        start.elapsed().as_secs_f64(),
        report.accuracy,
        report.partial_circular
    );
}

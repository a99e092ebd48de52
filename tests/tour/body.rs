{
    use entail::gen::divlogic;
    use entail::judge::{Judge, JudgeConfig, TaskRecord};
    use entail::prove::{Entailment, ProveOptions, Prover};
    let corpora = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora");
    let read = |name: &str| std::fs::read_to_string(corpora.join(name)).expect("a shipped file");

    // Judge: score a Prolog rule an LLM proposed for an SLR task, sandboxed.
    let record: TaskRecord = serde_json::from_str(&read("slr/task_l1.json")).expect("a task");
    let judge = Judge::new(JudgeConfig::default());
    let task = judge.task(&record).expect("the task loads");
    let result = task.score("eastbound(T) :- has_car(T, C), car_color(C, red).");
    assert!(result.is_correct);
    let result = task.score("eastbound(T) :- has_car(T, C), car_len(C, long).");
    assert_eq!((result.is_correct, result.partial_score), (false, 0.75));

    // Prove: does a Prover9 problem's assumptions entail its goal?
    let input = entail::syntax::prover9::parse(&read("prove/group.in")).expect("parses");
    let report = Prover::new(ProveOptions::default())
        .prove_input(&input)
        .expect("a report");
    assert_eq!(report.result, Entailment::Proved);

    // Generate: every benchmark has a `Config`, `generate` and `score`.
    let config = divlogic::Config {
        count: 3,
        seed: 7,
        rotations: true,
        ..divlogic::Config::default()
    };
    let mut jsonl = Vec::new();
    let stats = divlogic::generate(&config, &mut jsonl, &|_| {}).expect("generates");
    assert_eq!((stats.questions, stats.records), (3, 12));
    let questions: Vec<divlogic::Question> = serde_json::Deserializer::from_slice(&jsonl)
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("questions");
    // A model that always answers the right option scores 1 everywhere.
    let answers: Vec<divlogic::Answer> = questions
        .iter()
        .map(|q| divlogic::Answer {
            id: q.id.clone(),
            answer: Some(q.answer),
        })
        .collect();
    let config = divlogic::ScoreConfig::default();
    let scores = divlogic::score(&questions, &answers, &config, &|_| {});
    assert_eq!((scores.accuracy, scores.circular), (1.0, Some(1.0)));
}

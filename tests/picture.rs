//! `entail report` and `entail show` on the shipped corpora: a page with two
//! models side by side has one bar per present value in every chart, the
//! numbers of the tables are the inputs', and each kind of item draws
//! exactly its cars or nodes. Counts are read from the SVG itself (bars and
//! car bodies are the drawings' only filled rectangles, graph nodes carry
//! the class `node`), and checked against counts derived here by hand from
//! the corpora.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs the CLI in the repository root at a fixed time; (status, stdout, stderr).
fn entail(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_entail"))
        .args(args)
        .current_dir(ROOT)
        .env("SOURCE_DATE_EPOCH", "0")
        .output()
        .expect("entail runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A figure of a page: its caption, `data-marks`, and its HTML.
struct Figure {
    caption: String,
    marks: usize,
    html: String,
}

fn figures(page: &str) -> Vec<Figure> {
    page.split("<figure ")
        .skip(1)
        .map(|rest| {
            let html = rest.split("</figure>").next().unwrap().to_string();
            let marks = html
                .split("data-marks=\"")
                .nth(1)
                .and_then(|s| s.split('"').next())
                .and_then(|n| n.parse().ok())
                .expect("data-marks");
            let caption = html
                .split("<figcaption>")
                .nth(1)
                .and_then(|s| s.split("</figcaption>").next())
                .unwrap()
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
            Figure {
                caption,
                marks,
                html,
            }
        })
        .collect()
}

/// The filled `<rect>`s of an SVG (plotters writes `fill="none"` for outlines).
fn filled_rects(svg: &str) -> usize {
    svg.split("<rect ")
        .skip(1)
        .filter(|r| !r.split("/>").next().unwrap().contains("fill=\"none\""))
        .count()
}

/// Elements whose class list starts with `class` (`node premise`, …).
fn with_class(svg: &str, class: &str) -> usize {
    svg.matches(&format!("class=\"{class}")).count()
}

/// The rows of a figure's table: category, then one cell per model.
fn table(figure: &Figure) -> Vec<Vec<String>> {
    figure
        .html
        .split("<tr>")
        .skip(2)
        .map(|row| {
            row.split("<td>")
                .skip(1)
                .map(|cell| cell.split("</td>").next().unwrap().to_string())
                .collect()
        })
        .collect()
}

/// A report of two models on every benchmark, from corpora/report/.
const TWO_MODELS: [&str; 14] = [
    "report",
    "corpora/report/judged_a.jsonl",
    "corpora/report/judged_b.jsonl",
    "corpora/report/logicgraph.json",
    "corpora/report/logicon_a.json",
    "corpora/report/logicon_b.json",
    "corpora/report/divlogic_a.json",
    "corpora/report/divlogic_b.json",
    "--tasks",
    "corpora/report/slr_tasks.jsonl",
    "--label",
    "model-a",
    "--label",
    "model-b",
];

#[test]
fn a_report_of_two_models_draws_one_bar_per_value() {
    let (code, page, err) = entail(&TWO_MODELS);
    assert_eq!(code, 0, "{err}");
    assert!(page.contains("Made 1970-01-01 00:00 UTC by entail 0.1.0."));
    assert!(
        page.contains("model-a: corpora/report/judged_a.jsonl (judge --batch results, 10 answers)")
    );
    assert!(page.contains("logicgraph: corpora/report/logicgraph.json (LogicGraph score report, 1 instance, 2 answer sets)"));
    // Self-contained: nothing is fetched.
    for fetch in ["src=", "href=", "@import", "url(http", "<script", "<link"] {
        assert!(!page.contains(fetch), "the page has {fetch}");
    }
    let figures = figures(&page);
    // The bars each chart must draw, counted by hand from corpora/report/make:
    // 5 levels x 2 models, 2 held-out trains per task, b's errors at levels 3-5,
    // 2 LogicGraph answer sets on one tier (+ all), Task 1 answers on plain
    // samples only (no hard or completion item), DivLogicEval with one alpha.
    let expected: &[(&str, usize)] = &[
        ("SLR: overall", 6),
        ("SLR: accuracy by curriculum level", 10),
        ("SLR: accuracy by tier", 2),
        ("SLR: partial score by curriculum level", 10),
        ("SLR: syntax score by curriculum level", 10),
        ("SLR: answers of model-a by error kind and level", 5),
        ("SLR: answers of model-b by error kind and level", 20),
        ("SLR: shown against held-out trains", 6),
        ("LogicGraph: success by tier", 4),
        ("LogicGraph: precision by tier", 4),
        ("LogicGraph: shortest path by tier", 4),
        ("LogicGraph: diversity by tier", 4),
        ("LogicGraph: versatility by tier", 4),
        ("LogicGraph: originality by tier", 4),
        ("LogicGraph: success by reasoning depth", 2),
        ("LogicGraph: precision by reasoning depth", 2),
        (
            "LogicGraph: answered solutions by verdict (step-error taxonomy)",
            8,
        ),
        (
            "LogiConBench Task 1 (is this list consistent?): accuracy by variant and gold label",
            6,
        ),
        (
            "LogiConBench Task 1: balanced accuracy by number of statements k",
            4,
        ),
        ("DivLogicEval: accuracy, Circular and PartialCircular", 8),
        ("DivLogicEval: accuracy by question type", 4),
        ("DivLogicEval: PartialCircular by question type", 4),
    ];
    let captions: Vec<&str> = figures.iter().map(|f| f.caption.as_str()).collect();
    let wanted: Vec<&str> = expected.iter().map(|(c, _)| *c).collect();
    assert_eq!(captions, wanted);
    for (figure, (caption, bars)) in figures.iter().zip(expected) {
        assert_eq!(figure.marks, *bars, "{caption}: data-marks");
        assert_eq!(filled_rects(&figure.html), *bars, "{caption}: bars drawn");
    }
    // The tables hold the inputs' numbers: b solves levels 1-2 only, a all,
    // two answers a level each, with 95% Wilson intervals.
    let by_level = &figures[1];
    assert_eq!(
        table(by_level),
        (1..=5)
            .map(|l| vec![
                l.to_string(),
                "1.000 [0.342, 1.000] (2/2)".to_string(),
                if l <= 2 {
                    "1.000 [0.342, 1.000] (2/2)"
                } else {
                    "0.000 [0.000, 0.658] (0/2)"
                }
                .to_string()
            ])
            .collect::<Vec<_>>()
    );
    // DivLogicEval: accuracy (of 2 original questions) and Circular (of 2
    // rotation groups) are shares, with intervals; PartialCircular is not.
    let divlogic = &table(&figures[19])[..2];
    assert_eq!(
        divlogic,
        [
            [
                "accuracy",
                "1.000 [0.342, 1.000] (2/2)",
                "0.500 [0.095, 0.905] (1/2)"
            ],
            [
                "circular",
                "0.500 [0.095, 0.905] (1/2)",
                "0.000 [0.000, 0.658] (0/2)"
            ]
        ]
    );
    // Every chart states its n.
    for figure in &figures {
        assert!(
            figure.html.contains("<p class=\"n\">n = "),
            "{}",
            figure.caption
        );
    }
    assert!(by_level
        .html
        .contains("<p class=\"n\">n = 10 answers placed by level per model</p>"));
    // One colour per category on every chart: b's `correct` bars are the
    // colour every page gives `correct`, which no model has.
    assert!(figures[6].html.contains("background:#1b7837"));
    assert!(!figures[0].html.contains("#1b7837"));
    // b's answers: 2 correct at levels 1-2, 2 wrong at 3, 2 syntax errors at
    // 4, 2 without a rule at 5 (kinds in name order).
    assert_eq!(
        table(&figures[6]),
        vec![
            vec!["1", "2", "0", "0", "0"],
            vec!["2", "2", "0", "0", "0"],
            vec!["3", "0", "0", "0", "2"],
            vec!["4", "0", "0", "2", "0"],
            vec!["5", "0", "2", "0", "0"],
        ]
    );
    assert!(figures[6].html.contains(
        "<tr><th>level</th><th>correct</th><th>no_rule</th><th>syntax</th><th>wrong</th></tr>"
    ));
    // The taxonomy: a has 3 valid solutions, 1 bad reference, 1 insufficient
    // premise, 1 unreadable; b keeps solutions 2-4 of a's (1 valid).
    assert_eq!(
        table(&figures[16]),
        vec![
            vec!["bad_reference", "1", "1"],
            vec!["insufficient_premise", "1", "1"],
            vec!["unreadable", "1", "0"],
            vec!["valid", "3", "1"],
        ]
    );
    // Per k: a is right on one of the two k=2 lists, wrong on both k=3 ones;
    // b says "consistent" to all (right on both k=2 lists, on one of k=3's,
    // whose other is inconsistent: balanced 0.5).
    assert_eq!(
        table(&figures[18]),
        vec![vec!["2", "0.500", "1.000"], vec!["3", "0.000", "0.500"]]
    );
    // Per type: a answers all right, b only the 3c1e question's original.
    assert_eq!(
        table(&figures[20]),
        vec![
            vec!["3c1e", "1.000", "1.000"],
            vec!["3e1c", "1.000", "0.000"]
        ]
    );
    // The page is the same page when made again at the same time.
    let (_, again, _) = entail(&TWO_MODELS);
    assert_eq!(page, again);
}

#[test]
fn score_reports_of_two_models_compare_by_level_and_tier() {
    let (code, page, err) = entail(&[
        "report",
        "corpora/report/slr_a.json",
        "corpora/report/slr_b.json",
    ]);
    assert_eq!(code, 0, "{err}");
    let figures = figures(&page);
    let captions: Vec<&str> = figures.iter().map(|f| f.caption.as_str()).collect();
    // Score reports have no partial scores nor error kinds.
    assert_eq!(
        captions,
        [
            "SLR: overall",
            "SLR: accuracy by curriculum level",
            "SLR: accuracy by tier",
            "SLR: syntax score by curriculum level"
        ]
    );
    // Score reports have no partial score: that category is left out.
    assert_eq!(table(&figures[0]).len(), 2);
    // Accuracy with its 95% Wilson interval and counts.
    assert_eq!(
        table(&figures[0])[0],
        [
            "accuracy",
            "1.000 [0.722, 1.000] (10/10)",
            "0.400 [0.168, 0.687] (4/10)"
        ]
    );
    assert!(page.contains("<p class=\"n\">n = 10 answers per model</p>"));
    for figure in &figures {
        assert_eq!(
            filled_rects(&figure.html),
            figure.marks,
            "{}",
            figure.caption
        );
    }
}

#[test]
fn logicon_task_2_and_3_reports_chart_their_metrics() {
    let dir = std::env::temp_dir().join(format!("entail-picture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let s = "corpora/score/";
    let runs: [(&str, &str, &str); 2] = [
        ("2", "logicon_samples.jsonl", "logicon_task2.jsonl"),
        ("3", "logicon_groups.jsonl", "logicon_task3.jsonl"),
    ];
    let mut files = Vec::new();
    for (task, samples, answers) in runs {
        let (code, json, err) = entail(&[
            "score",
            "logicon",
            "--task",
            task,
            "--samples",
            &format!("{s}{samples}"),
            "--answers",
            &format!("{s}{answers}"),
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let file = dir.join(format!("task{task}.json"));
        std::fs::write(&file, json).unwrap();
        files.push(file.display().to_string());
    }
    let (code, page, err) = entail(&["report", &files[0], &files[1]]);
    assert_eq!(code, 0, "{err}");
    let figures = figures(&page);
    let drawn: Vec<(&str, usize)> = figures
        .iter()
        .map(|f| (f.caption.as_str(), filled_rects(&f.html)))
        .collect();
    // Task 2: five metrics; Task 3: groups 2 and 3, and all.
    assert_eq!(
        drawn,
        [
            ("LogiConBench Task 2 (list every consistent list)", 5),
            (
                "LogiConBench Task 3 (write consistent statements): execution rate by groups",
                3
            ),
            (
                "LogiConBench Task 3 (write consistent statements): consistency by groups",
                3
            ),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_slr_task_draws_every_car_of_every_train() {
    // corpora/slr/task_l1.json: train0 (2 cars) and train2 (1) eastbound,
    // train1 (1) and train3 (2) westbound.
    let (code, svg, err) = entail(&["show", "corpora/slr/task_l1.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(svg.starts_with("<svg"));
    assert_eq!(filled_rects(&svg), 6);
    // Only what the task defines is drawn: it has no has_wheel, so the
    // circles are the engines' two wheels each.
    assert_eq!(svg.matches("<circle ").count(), 4 * 2);
    // The key names the colours and lengths the task uses, and no more.
    let key = &svg[svg.find("class=\"legend\"").unwrap()..];
    for word in ["red car", "blue car", "green car", "short car", "long car"] {
        assert!(key.contains(word), "{word}");
    }
    assert!(!key.contains("load") && !key.contains("roof"));
    // plotters writes a text on a line of its own.
    let at = |name: &str| svg.find(&format!(">\n{name}\n<")).unwrap();
    assert!(at("eastbound") < at("train0") && at("train2") < at("westbound"));
    assert!(at("westbound") < at("train1"));
    // Unlabelled, one group and no label names.
    let (_, svg, _) = entail(&["show", "corpora/slr/task_l1.json", "--unlabelled"]);
    assert_eq!(filled_rects(&svg), 6);
    assert!(!svg.contains("\neastbound\n") && !svg.contains("\nwestbound\n"));
    // A task of a JSONL file by id, as an HTML page that counts its cars:
    // task 8 of corpora/report/slr_tasks.jsonl has 6 trains of 2 cars, and
    // 2 held-out trains of 2 cars.
    let (code, page, err) = entail(&[
        "show",
        "corpora/report/slr_tasks.jsonl",
        "--id",
        "8",
        "--html",
    ]);
    assert_eq!(code, 0, "{err}");
    let figures = figures(&page);
    assert_eq!(figures.len(), 1);
    assert_eq!(figures[0].caption, "SLR task 8: 8 trains");
    assert_eq!((figures[0].marks, filled_rects(&figures[0].html)), (16, 16));
    // A task with held-out trains draws them apart, after the shown ones:
    // corpora/slr/task_holdout.json shows train0 (2 cars) and train1 (1),
    // and holds out train2 and train3 (1 car each).
    let (code, svg, err) = entail(&["show", "corpora/slr/task_holdout.json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(filled_rects(&svg), 5);
    let at = |name: &str| svg.find(&format!(">\n{name}\n<")).unwrap();
    assert!(at("westbound") < at("held out: eastbound"));
    assert!(at("held out: eastbound") < at("train2") && at("train2") < at("held out: westbound"));
}

#[test]
fn a_logicgraph_instance_draws_its_dag_and_the_models_steps() {
    let dir = "corpora/logicgraph-answers/Tiny/case_1";
    let (code, svg, err) = entail(&["show", dir]);
    assert_eq!(code, 0, "{err}");
    // 10 premises, the goal G, and the derived A1, A5 and A2 -> G.
    assert_eq!(with_class(&svg, "node premise"), 10);
    assert_eq!(with_class(&svg, "node goal"), 1);
    assert_eq!(with_class(&svg, "node derived"), 3);
    assert_eq!(with_class(&svg, "node "), 14);
    // Gold edges coloured by family: three families.
    for family in 1..=3 {
        assert!(svg.contains(&format!("class=\"edge gold family-{family}\"")));
    }
    assert!(!svg.contains("class=\"edge gold family-4\""));
    // Every node has its full text as a tooltip, and the drawing a key.
    assert_eq!(svg.matches("<title>").count(), 14);
    assert!(svg.contains("<title>premise Rule4: A4 | A5</title>"));
    assert!(svg.contains("class=\"legend\""));
    // With the model's answer: solutions 1, 2 and 5 have valid steps, 3
    // cites its own P1 and 4 cites too little (invalid); 6 does not read.
    // Every step concludes a formula of the gold graph (A5, A2 -> G, G), so
    // it is drawn on that node, which shows its best verdict; only the
    // citation of P1, which does not exist, adds a node.
    let answer = "corpora/logicgraph-answers/case_1.answer.in";
    let (code, svg, err) = entail(&["show", dir, "--answer", answer]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(with_class(&svg, "node step"), 0);
    assert_eq!(with_class(&svg, "node derived answered valid"), 2);
    assert_eq!(with_class(&svg, "node goal answered valid"), 1);
    assert_eq!(with_class(&svg, "node unknown-reference"), 1);
    assert_eq!(with_class(&svg, "node "), 14 + 1);
    // G's tooltip lists every step that concludes it, with its verdict.
    let goal = &svg[svg.find("class=\"node goal").unwrap()..];
    let tip = &goal[goal.find("<title>").unwrap()..goal.find("</title>").unwrap()];
    assert!(tip.contains("answer 1 step S2: G (valid)"), "{tip}");
    assert!(tip.contains("answer 4 step S1: G (invalid)"), "{tip}");
    // The red (invalid) citations stay, dashed.
    assert!(svg.contains("class=\"edge step invalid\""));
    // The layout is the same on every run.
    let (_, again, _) = entail(&["show", dir, "--answer", answer]);
    assert_eq!(svg, again);
}

#[test]
fn a_logicon_sample_draws_its_statements_and_reasoning_path() {
    let (code, page, err) = entail(&[
        "show",
        "corpora/score/logicon_samples.jsonl",
        "--id",
        "logicon-plain-k3-1",
        "--html",
    ]);
    assert_eq!(code, 0, "{err}");
    let figures = figures(&page);
    assert_eq!(
        figures[0].caption,
        "LogiConBench sample logicon-plain-k3-1: 3 statements, reasoning path of 5 edges"
    );
    // Three statements and the three formulas between S1 and S2 on the path.
    assert_eq!(with_class(&figures[0].html, "node statement"), 3);
    assert_eq!(with_class(&figures[0].html, "node path"), 3);
    assert_eq!(figures[0].marks, 6);
    assert_eq!(with_class(&figures[0].html, "edge path"), 5);
}

#[test]
fn what_is_not_a_report_or_an_item_is_refused_with_its_file() {
    let (code, _, err) = entail(&["report", "corpora/slr/task_l1.json"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "entail report: corpora/slr/task_l1.json: not an entail score report (--json) nor judge --batch results\n"
    );
    let (code, _, err) = entail(&[
        "report",
        "corpora/report/slr_a.json",
        "--label",
        "a",
        "--label",
        "b",
    ]);
    assert_eq!(code, 1);
    assert_eq!(err, "entail report: 2 labels for 1 files\n");
    let (code, _, err) = entail(&["show", "corpora/report/slr_tasks.jsonl", "--id", "nope"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "entail show: corpora/report/slr_tasks.jsonl: no item with id nope\n"
    );
    let (code, _, err) = entail(&["show", "corpora/report/slr_a.json"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("corpora/report/slr_a.json:1: not an SLR task"),
        "{err}"
    );
    assert!(Path::new(ROOT).join("corpora/report/make").exists());
}

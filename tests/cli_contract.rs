//! The command line's contract, the same for every command: the exit codes,
//! one message shape for files that cannot be read, `FILE:LINE: message` for
//! each bad line of a batch (which goes on), enum flags refused with their
//! valid values, `--json` everywhere, and `--help` examples that run on the
//! files the repository ships.

mod common;

use common::{entail, scratch, ROOT};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Every command that reads an input file, with `{}` where the file goes.
const READERS: [(&str, &[&str]); 10] = [
    ("judge", &["judge", "--task", "{}", "--hypothesis", "x"]),
    ("judge", &["judge", "--batch", "{}"]),
    (
        "score slr",
        &[
            "score",
            "slr",
            "--tasks",
            "{}",
            "--answers",
            "corpora/score/slr_answers.jsonl",
        ],
    ),
    (
        "score logicon",
        &[
            "score",
            "logicon",
            "--task",
            "1",
            "--samples",
            "corpora/score/logicon_samples.jsonl",
            "--answers",
            "{}",
        ],
    ),
    (
        "score divlogic",
        &[
            "score",
            "divlogic",
            "--questions",
            "{}",
            "--answers",
            "corpora/score/divlogic_answers.jsonl",
        ],
    ),
    (
        "score logicgraph",
        &[
            "score",
            "logicgraph",
            "--gold",
            "corpora/logicgraph-answers/Tiny",
            "--answers",
            "{}",
        ],
    ),
    ("prove", &["prove", "{}"]),
    ("parse", &["parse", "{}"]),
    (
        "gen slr",
        &["gen", "slr", "--language", "{}", "--count", "1"],
    ),
    (
        "judge",
        &[
            "judge",
            "--task",
            "corpora/slr/task_l1.json",
            "--hypothesis-file",
            "{}",
        ],
    ),
];

fn with_file<'a>(args: &[&'a str], file: &'a str) -> Vec<&'a str> {
    args.iter()
        .map(|&a| if a == "{}" { file } else { a })
        .collect()
}

#[test]
fn a_missing_file_is_one_message_and_exit_1_in_every_command() {
    let missing = "/nonexistent/input.jsonl";
    for (command, args) in READERS {
        let (code, out, err) = entail(&with_file(args, missing));
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (
                1,
                "",
                format!("entail {command}: {missing}: cannot read: no such file or directory\n")
                    .as_str()
            ),
            "{args:?}"
        );
    }
}

#[test]
fn a_directory_where_a_file_belongs_is_named_in_every_command() {
    let dir = scratch("contract", "dir");
    let name = dir.display().to_string();
    for (command, args) in READERS {
        let (code, _, err) = entail(&with_file(args, &name));
        let expected = if command == "prove" {
            // `prove` reads a tree of instance directories; this one holds none.
            format!(
                "entail prove: {name}: no LogicGraph instance (a directory with complete.json) \
                 under it\n"
            )
        } else {
            format!("entail {command}: {name}: cannot read: is a directory, expected a file\n")
        };
        assert_eq!((code, err), (1, expected), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_that_cannot_be_written_is_named() {
    let (code, _, err) = entail(&[
        "gen",
        "divlogic",
        "--count",
        "1",
        "--output",
        "/nonexistent/q.jsonl",
    ]);
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "entail gen divlogic: /nonexistent/q.jsonl: cannot write: no such file or directory\n"
        )
    );
}

#[test]
fn a_syntax_error_is_placed_and_exits_1() {
    let dir = scratch("contract", "syntax");
    let bad = dir.join("bad.in");
    std::fs::write(&bad, "formulas(assumptions).\n  p(a) q.\nend_of_list.\n").unwrap();
    let bad = bad.display().to_string();
    for command in ["parse", "prove"] {
        let (code, out, err) = entail(&[command, &bad]);
        assert_eq!(code, 1, "{command}: {err}");
        assert_eq!(out, "");
        assert!(err.starts_with(&format!("{bad}:2:")), "{command}: {err}");
        assert_eq!(err.lines().count(), 1, "{command}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn prove_exit_codes_follow_the_table() {
    for (file, code) in [
        ("corpora/prove/group.in", 0),
        ("corpora/prove/not_proved.in", 2),
        ("corpora/prove/mp_chain.in", 2),
    ] {
        assert_eq!(entail(&["prove", file]).0, code, "{file}");
    }
    let dir = scratch("contract", "unknown");
    let hard = dir.join("hard.in");
    // Unprovable, with no finite countermodel and no saturation by E (an
    // injective function missing a point would saturate): only `unknown`
    // is honest.
    std::fs::write(
        &hard,
        "formulas(assumptions).\n  -less(x, x).\n  less(x, y) & less(y, z) -> less(x, z).\n\
         less(x, s(x)).\nend_of_list.\nformulas(goals).\n  p(c0).\nend_of_list.\n",
    )
    .unwrap();
    let (code, out, _) = entail(&["prove", &hard.display().to_string(), "--timeout", "1"]);
    assert_eq!((code, out.split(' ').next()), (4, Some("unknown")), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_help_shows_the_exit_code_table() {
    let (code, out, _) = entail(&["--help"]);
    assert_eq!(code, 0);
    for row in [
        "  0  done.",
        "  1  usage or input error:",
        "  2  prove: not proved, or a step or solution refuted.",
        "  4  prove: unknown (a timeout or Z3 `unknown`), nothing refuted.",
    ] {
        assert!(out.contains(row), "{row}\n{out}");
    }
}

#[test]
fn an_invalid_enum_value_is_refused_with_the_valid_ones() {
    for (args, flag, valid) in [
        (
            &["judge", "--engine", "swi"][..],
            "--engine <ENGINE>",
            "auto, scryer",
        ),
        (
            &["judge", "--isomorphic", "x"],
            "--isomorphic <ISOMORPHIC>",
            "renamed, both",
        ),
        (
            &["gen", "slr", "--split", "dev"],
            "--split <SPLIT>",
            "train, validation, test",
        ),
        (
            &["gen", "slr", "--prompt", "en"],
            "--prompt <PROMPT>",
            "prolog, nl",
        ),
        (
            &["gen", "logicon", "--variant", "easy"],
            "--variant <VARIANT>",
            "plain, hard, completion",
        ),
        (
            &["gen", "divlogic", "--type", "3c2e"],
            "--type <KIND>",
            "3c1e, 3e1c, missing, mixed",
        ),
        (
            &["gen", "logicgraph", "--tier", "huge", "-o", "x"],
            "--tier <TIER>",
            "small, medium, large",
        ),
        (
            &["gen", "logicgraph", "--forms", "MP,XX", "-o", "x"],
            "--forms <FORMS>",
            "MP, MT, HS, DS, CD, RAA, DE",
        ),
        (
            &[
                "score",
                "logicon",
                "--task",
                "4",
                "--samples",
                "s",
                "--answers",
                "a",
            ],
            "--task <TASK>",
            "1, 2, 3",
        ),
        (
            &["parse", "--syntax", "tptp", "x"],
            "--syntax <SYNTAX>",
            "prover9, prolog",
        ),
    ] {
        let (code, out, err) = entail(args);
        assert_eq!((code, out.as_str()), (1, ""), "{args:?}");
        let value = args[args.iter().position(|a| a.starts_with("--")).unwrap() + 1];
        let value = value.rsplit(',').next().unwrap();
        assert!(
            err.starts_with(&format!("error: invalid value '{value}' for '{flag}'\n")),
            "{args:?}: {err}"
        );
        assert!(
            err.contains(&format!("[possible values: {valid}]")),
            "{args:?}: {err}"
        );
    }
}

/// Writes `lines` to `dir/name` and returns its path as text.
fn write(dir: &Path, name: &str, lines: &[String]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.display().to_string()
}

/// The lines of a shipped file.
fn shipped(path: &str) -> Vec<String> {
    std::fs::read_to_string(Path::new(ROOT).join(path))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn judge_batch_reports_a_bad_line_and_goes_on() {
    let dir = scratch("contract", "judge-batch");
    let mut lines = shipped("corpora/slr/predictions.jsonl")[..2].to_vec();
    lines.insert(1, "{\"id\": 1".to_string());
    let batch = write(&dir, "batch.jsonl", &lines);
    let (code, out, err) = entail(&["judge", "--batch", &batch]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3);
    let mut err_lines = err.lines();
    assert_eq!(
        err_lines.next(),
        Some(
            format!("{batch}:2: not JSON: EOF while parsing an object at line 1 column 8").as_str()
        )
    );
    assert!(
        err_lines
            .next()
            .unwrap()
            .starts_with("3 answers, 1 bad line: accuracy "),
        "{err}"
    );
    // --json: the same summary as one JSON object on stderr.
    let (code, _, err) = entail(&["judge", "--batch", &batch, "--json"]);
    assert_eq!(code, 0);
    let summary: Value = serde_json::from_str(err.lines().nth(1).unwrap()).expect("JSON summary");
    assert_eq!(
        (summary["lines"].as_u64(), summary["bad_lines"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(summary["evaluations"]["native"].as_u64(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A batch scorer run on inputs with one bad line: exit 0, the bad line
/// reported on stderr exactly, and counted in the JSON report.
fn check_bad_line(args: &[&str], reported: &str) {
    let (code, out, err) = entail(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert_eq!(err, format!("{reported}\n"), "{args:?}");
    let report: Value = serde_json::from_str(&out).expect("JSON report");
    assert_eq!(report["bad_lines"], 1, "{args:?}");
    // Without --json the text report says so too.
    let text_args: Vec<&str> = args.iter().copied().filter(|&a| a != "--json").collect();
    let (code, out, _) = entail(&text_args);
    assert_eq!(code, 0);
    assert!(out.contains("1 bad line"), "{args:?}: {out}");
}

#[test]
fn every_score_command_reports_a_bad_line_and_goes_on() {
    let dir = scratch("contract", "score");
    let mut tasks = shipped("corpora/score/slr_tasks.jsonl");
    tasks.insert(2, "{\"id\": \"x\"}".to_string());
    let tasks = write(&dir, "tasks.jsonl", &tasks);
    let (code, out, _) = entail(&[
        "score",
        "slr",
        "--tasks",
        &tasks,
        "--answers",
        "corpora/score/slr_answers.jsonl",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["overall"]["total"], 4, "every good task is scored");
    check_bad_line(
        &[
            "score",
            "slr",
            "--tasks",
            &tasks,
            "--answers",
            "corpora/score/slr_answers.jsonl",
            "--threads",
            "1",
            "--json",
        ],
        &format!("{tasks}:3: missing field `validation program` (column 11)"),
    );

    // A second answer to a task is a bad line too: the first one counts.
    let mut answers = shipped("corpora/score/slr_answers.jsonl");
    let first: Value = serde_json::from_str(&answers[0]).unwrap();
    let count = answers.len();
    answers.push(answers[0].clone());
    let answers = write(&dir, "slr_answers.jsonl", &answers);
    check_bad_line(
        &[
            "score",
            "slr",
            "--tasks",
            "corpora/score/slr_tasks.jsonl",
            "--answers",
            &answers,
            "--threads",
            "1",
            "--json",
        ],
        &format!(
            "{answers}:{}: id {} answered twice (first on line 1)",
            count + 1,
            first["id"].as_str().unwrap()
        ),
    );

    let mut answers = shipped("corpora/score/logicon_task1.jsonl");
    answers.insert(0, "[1, 2]".to_string());
    let answers = write(&dir, "logicon.jsonl", &answers);
    check_bad_line(
        &[
            "score",
            "logicon",
            "--task",
            "1",
            "--samples",
            "corpora/score/logicon_samples.jsonl",
            "--answers",
            &answers,
            "--json",
        ],
        &format!("{answers}:1: invalid type: integer `1`, expected a string (column 2)"),
    );

    let mut answers = shipped("corpora/score/divlogic_answers.jsonl");
    answers.push(answers[0].clone());
    let answers = write(&dir, "divlogic.jsonl", &answers);
    let first = shipped("corpora/score/divlogic_answers.jsonl")[0].clone();
    let id: Value = serde_json::from_str(&first).unwrap();
    check_bad_line(
        &[
            "score",
            "divlogic",
            "--questions",
            "corpora/score/divlogic_questions.jsonl",
            "--answers",
            &answers,
            "--json",
        ],
        &format!(
            "{answers}:9: id {} answered twice (first on line 1)",
            id["id"].as_str().unwrap()
        ),
    );

    let mut answers = shipped("corpora/score/logicgraph_answers.jsonl");
    answers.push("{\"instance\": 3}".to_string());
    let answers = write(&dir, "logicgraph.jsonl", &answers);
    check_bad_line(
        &[
            "score",
            "logicgraph",
            "--gold",
            "corpora/logicgraph-answers/Tiny",
            "--answers",
            &answers,
            "--json",
        ],
        &format!("{answers}:2: no string `instance`, line ignored"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_command_speaks_json() {
    let dir = scratch("contract", "json");
    let json = |text: &str, what: &str| -> Value {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"))
    };
    let (_, out, _) = entail(&["parse", "--json", "corpora/prove/group.in"]);
    json(&out, "parse");
    let (_, out, _) = entail(&["prove", "--json", "corpora/prove/group.in"]);
    assert_eq!(json(&out, "prove")["status"], "proved");
    let (_, out, _) = entail(&[
        "judge",
        "--json",
        "--task",
        "corpora/slr/task_l1.json",
        "--hypothesis",
        "eastbound(T) :- has_car(T, C), car_colour(C, red).",
    ]);
    let result = json(&out, "judge");
    assert_eq!(result["error_kind"], "runtime");
    assert_eq!(result["error"], "unknown predicate car_colour/2");
    for (family, extra) in [
        ("slr", &["--level", "1", "--threads", "1"][..]),
        ("logicon", &["--threads", "1"]),
        ("divlogic", &[]),
    ] {
        let mut args = vec!["gen", family, "--count", "1", "--json", "--output", "-"];
        args.extend(extra);
        let (code, out, err) = entail(&args);
        assert_eq!(code, 0, "{family}: {err}");
        assert!(!out.is_empty());
        let stats = json(&err, family);
        assert!(stats.is_object(), "{family}: {err}");
    }
    let out_dir = dir.join("lg").display().to_string();
    let (code, _, err) = entail(&[
        "gen",
        "logicgraph",
        "--count",
        "1",
        "--threads",
        "1",
        "--json",
        "-o",
        &out_dir,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&err, "gen logicgraph")["generated"], 1);
    for args in [
        &[
            "score",
            "slr",
            "--tasks",
            "corpora/score/slr_tasks.jsonl",
            "--answers",
            "corpora/score/slr_answers.jsonl",
            "--threads",
            "1",
            "--json",
        ][..],
        &[
            "score",
            "logicon",
            "--task",
            "2",
            "--samples",
            "corpora/score/logicon_samples.jsonl",
            "--answers",
            "corpora/score/logicon_task2.jsonl",
            "--json",
        ],
        &[
            "score",
            "divlogic",
            "--questions",
            "corpora/score/divlogic_questions.jsonl",
            "--answers",
            "corpora/score/divlogic_answers.jsonl",
            "--json",
        ],
        &[
            "score",
            "logicgraph",
            "--gold",
            "corpora/logicgraph-answers/Tiny",
            "--answers",
            "corpora/score/logicgraph_answers.jsonl",
            "--json",
        ],
    ] {
        let (code, out, err) = entail(args);
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
        assert_eq!(json(&out, args[1])["bad_lines"], 0, "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The example commands of a command's `--help`.
fn examples(command: &[&str]) -> Vec<String> {
    let mut args = command.to_vec();
    args.push("--help");
    let (code, out, _) = entail(&args);
    assert_eq!(code, 0);
    out.lines()
        .skip_while(|l| *l != "Examples:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(str::trim)
        .filter(|l| l.starts_with("entail ") || l.contains("| entail "))
        .map(str::to_string)
        .collect()
}

/// Every `--help` example names only files that ship (or that an earlier
/// example of the same help writes), and runs: the cheap ones as written,
/// the generators with `--count 1`.
#[test]
fn every_help_example_runs_on_shipped_files() {
    let commands: [&[&str]; 13] = [
        &["judge"],
        &["prove"],
        &["parse"],
        &["gen", "slr"],
        &["gen", "logicgraph"],
        &["gen", "logicon"],
        &["gen", "divlogic"],
        &["score", "slr"],
        &["score", "logicgraph"],
        &["score", "logicon"],
        &["score", "divlogic"],
        &["report"],
        &["show"],
    ];
    let dir = scratch("contract", "examples");
    // The examples run in a scratch directory that sees the shipped corpora.
    std::os::unix::fs::symlink(Path::new(ROOT).join("corpora"), dir.join("corpora")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_entail")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for command in commands {
        let examples = examples(command);
        assert!(!examples.is_empty(), "{command:?} has examples");
        for example in examples {
            for word in example.split_whitespace() {
                if word.starts_with("corpora/") {
                    assert!(
                        Path::new(ROOT).join(word).exists(),
                        "{command:?}: {word} does not ship"
                    );
                }
            }
            let runnable = example
                .split_whitespace()
                .map(|w| {
                    if w.chars().all(|c| c.is_ascii_digit())
                        && example.contains(&format!("--count {w}"))
                    {
                        "1"
                    } else {
                        w
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            // Keep the single quotes of a hypothesis intact.
            let runnable = if example.contains('\'') {
                example.clone()
            } else {
                runnable
            };
            let out = Command::new("sh")
                .arg("-c")
                .arg(&runnable)
                .env("PATH", &path)
                .current_dir(&dir)
                .output()
                .expect("sh runs");
            let code = out.status.code();
            let allowed: &[i32] = if command == ["prove"] || example.starts_with("entail prove") {
                &[0, 2, 4]
            } else {
                &[0]
            };
            assert!(
                code.is_some_and(|c| allowed.contains(&c)),
                "{runnable}: {code:?}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 30, "{ran} examples ran");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The four `gen` commands share one set of flags (`--seed`, `--shard`,
/// `--threads`, `--json`), each documented once; the output does not depend
/// on `--threads` (here DivLogicEval, whose 70 questions are two of the
/// writer's chunks, so two threads make them at once).
#[test]
fn every_gen_command_takes_the_shared_flags() {
    for family in ["slr", "logicgraph", "logicon", "divlogic"] {
        let (code, out, err) = entail(&["gen", family, "--help"]);
        assert_eq!(code, 0, "{family}: {err}");
        for line in [
            "Run seed; the same seed gives byte-identical output",
            "--shard <I/N>",
            "Worker threads (output does not depend on it); default: all cores",
            "Print the run's statistics on stderr as JSON",
        ] {
            assert!(out.contains(line), "gen {family} --help lacks {line:?}");
        }
    }
    let run = |threads: &str| {
        let args = [
            "gen",
            "divlogic",
            "--count",
            "70",
            "--seed",
            "3",
            "--threads",
            threads,
        ];
        let (code, out, err) = entail(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let one = run("1");
    assert_eq!(one.lines().count(), 70);
    assert!(one == run("2"), "divlogic output differs on two threads");
}

/// `entail` with libz3 made unloadable (`ENTAIL_LIBZ3` names a file that does
/// not exist): (exit code, stdout, stderr).
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn entail_without_z3(args: &[&str]) -> (i32, String, String) {
    common::entail_with_env(args, &[("ENTAIL_LIBZ3", "/nonexistent/libz3.so")])
}

/// The binary does not load libz3 at start (it costs about 2 ms of every
/// run), so work that never reaches Z3 runs without it; work that does
/// reach it loads it then, and says plainly when it cannot.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[test]
fn libz3_is_loaded_only_when_z3_is_used() {
    let dynamic = Command::new("readelf")
        .args(["-d", env!("CARGO_BIN_EXE_entail")])
        .output()
        .expect("readelf (binutils, which the linker comes with)");
    let dynamic = String::from_utf8_lossy(&dynamic.stdout);
    assert!(dynamic.contains("(NEEDED)"), "{dynamic}");
    assert!(
        !dynamic.contains("libz3"),
        "entail needs libz3 at start:\n{dynamic}"
    );
    assert!(!dynamic.contains("libstdc++"), "{dynamic}");

    // The native prover proves this one; Z3 is never touched.
    let (code, out, err) = entail_without_z3(&["prove", "corpora/prove/group.in"]);
    assert_eq!((code, out.trim()), (0, "proved"), "{err}");

    // First-order steps are checked by Z3.
    let dir = scratch("cli_contract", "libz3");
    let steps = dir.join("steps.in");
    std::fs::write(
        &steps,
        "formulas(assumptions).\n  all x (man(x) -> mortal(x)) # label(P1).\n  \
         man(socrates) # label(P2).\nend_of_list.\nformulas(goals).\n  mortal(socrates).\n\
         end_of_list.\nformulas(solution_1).\n  mortal(socrates) # label(S1) # from(P1, P2).\n\
         end_of_list.\n",
    )
    .unwrap();
    let steps = steps.to_str().unwrap();

    // A race goes on without Z3: saturation never ends here, and the model
    // search answers.
    let endless = dir.join("endless.in");
    std::fs::write(
        &endless,
        "formulas(assumptions).\n  p(z).\n  all x (p(x) -> p(s(x))).\nend_of_list.\n\
         formulas(goals).\n  q(z).\nend_of_list.\n",
    )
    .unwrap();
    let (code, out, err) = entail_without_z3(&["prove", "--szs", endless.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        out.starts_with("% SZS status CounterSatisfiable for endless\nnot_proved\n"),
        "{out}"
    );

    let (code, _, err) = entail_without_z3(&["prove", steps]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("libz3 could not be loaded (/nonexistent/libz3.so: ")
            && err.contains("set ENTAIL_LIBZ3 to its path"),
        "{err}"
    );
    let (code, out, err) = entail(&["prove", steps]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("solution 1: steps valid: yes"), "{out}");
}

//! Adversarial answers: each must give an error kind or an honest score of
//! 0 (never 1.0, never a crash), and the legitimate answer after it in the
//! same batch must still be scored correctly.

use entail::judge::{run_batch, ErrorKind, Judge, JudgeConfig, JudgeResult, Rules};

const PROGRAM: &str = "eastbound(train0).\nhas_car(train0, car0_1).\ncar_color(car0_1, red).\nwestbound(train1).\nhas_car(train1, car1_1).\ncar_color(car1_1, blue).\neastbound(train2).\nhas_car(train2, car2_1).\ncar_color(car2_1, red).\nhas_car(train2, car2_2).\ncar_color(car2_2, blue).\n";
const LEGIT: &str = "eastbound(T) :- has_car(T, C), car_color(C, red).";

fn adversarial() -> Vec<(&'static str, String)> {
    let garbage: String = (0..1_000_000u64)
        .map(|i| (b'!' + (i * 7919 % 90) as u8) as char)
        .collect();
    vec![
        ("pos leak", "eastbound(T) :- pos(T).".into()),
        ("neg leak", "eastbound(T) :- \\+ neg(T).".into()),
        ("westbound leak", "eastbound(T) :- \\+ westbound(T).".into()),
        ("writeln+halt", "eastbound(T) :- writeln(hello), halt.".into()),
        ("shell", "eastbound(T) :- shell('touch /tmp/entail_pwned').".into()),
        ("open/write", "eastbound(T) :- open('/tmp/entail_pwned', write, S), write(S, x), close(S).".into()),
        ("assertz", "eastbound(T) :- assertz(pos(T)), pos(T).".into()),
        ("op", ":- op(700, xfx, ===).\neastbound(T) :- T === T.".into()),
        ("set_prolog_flag", "eastbound(T) :- set_prolog_flag(unknown, fail), has_car(T, _).".into()),
        ("consult", "eastbound(T) :- consult('/etc/passwd').".into()),
        ("call-built shell", "eastbound(T) :- call((G = shell(ls), G)).".into()),
        // In a helper: the reference cuts a rule at its first '.', so in
        // the rule itself `=..` would end it (a syntax error, below).
        ("univ-built goal", "eastbound(T) :- g(G), call(G).\ng(G) :- G =.. [shell, ls].".into()),
        ("univ in the rule", "eastbound(T) :- G =.. [shell, ls], call(G).".into()),
        ("module-qualified", "eastbound(T) :- system:shell(ls).".into()),
        ("infinite recursion", "eastbound(T) :- eastbound(T).".into()),
        ("left recursion", "eastbound(T) :- reach(T, _).\nreach(X, Y) :- reach(X, Z), has_car(Z, Y).\nreach(X, Y) :- has_car(X, Y).".into()),
        ("huge length", "eastbound(T) :- length(L, 100000000), has_car(T, _), L = [_|_].".into()),
        ("deep non-tail recursion", "eastbound(T) :- deep(100000000), has_car(T, _).\ndeep(0).\ndeep(N) :- N > 0, M is N - 1, deep(M), true.".into()),
        ("1 MB of garbage", garbage),
        ("non-UTF-8", String::from_utf8_lossy(b"eastbound(T) :- \xff\xfe has_car(T, \xc3\x28).").into_owned()),
        ("empty answer", String::new()),
        ("redefines background", "eastbound(T) :- has_car(T, _).\nhas_car(train1, foo).".into()),
        ("names trains", "eastbound(train0).\neastbound(train2).".into()),
        ("arithmetic load error", "eastbound(T) :- X is foo + 1, has_car(T, X).".into()),
        // Cost bombs: unbounded work or memory inside few inference steps.
        ("long-atom walk", format!("eastbound(T) :- has_car(T, _), d(16, a, A), w(2000, A).\n{DOUBLE}w(0, _) :- !.\nw(N, A) :- sub_atom(A, 0, 1, _, _), N1 is N - 1, w(N1, A).")),
        ("long-atom walk, last character", format!("eastbound(T) :- has_car(T, _), d(16, a, A), w(2000, A).\n{DOUBLE}w(0, _) :- !.\nw(N, A) :- sub_atom(A, _, 1, 0, _), N1 is N - 1, w(N1, A).")),
        ("long-atom walk, atom_codes", format!("eastbound(T) :- has_car(T, _), d(16, a, A), w(2000, A).\n{DOUBLE}w(0, _) :- !.\nw(N, A) :- atom_codes(A, _), N1 is N - 1, w(N1, A).")),
        ("unbound sub_atom", format!("eastbound(T) :- has_car(T, _), d(11, abcdefghij, A), findall(B-L, sub_atom(A, B, L, _, _), Ps), Ps = [_|_].\n{DOUBLE}")),
        ("unbound sub_atom, failure loop", format!("eastbound(T) :- has_car(T, _), d(11, abcdefghij, A), \\+ (sub_atom(A, _, _, _, S), S == none).\n{DOUBLE}")),
        ("unbound atom_concat", format!("eastbound(T) :- has_car(T, _), d(14, a, A), findall(X, atom_concat(X, _, A), Xs), Xs = [_|_].\n{DOUBLE}")),
        ("big-integer loop", "eastbound(T) :- has_car(T, _), sq(3).\nsq(X) :- Y is X * X, sq(Y).".into()),
        ("loop after a big integer", "eastbound(T) :- X is 2 ^ 200, X > 0, eastbound(T).".into()),
        ("huge power", "eastbound(T) :- has_car(T, _), X is 2 ^ (2 ^ 80), X > 0.".into()),
        ("dif loop", "eastbound(T) :- has_car(T, _), ds(0).\nds(N) :- dif(_, N), N1 is N + 1, ds(N1).".into()),
        ("dif pile-up", "eastbound(T) :- has_car(T, _), length(L, 5000), maplist(dif(x), L), maplist(=(y), L).".into()),
    ]
}

/// Doubles an atom N times with atom_concat/3.
const DOUBLE: &str =
    "d(0, A, A) :- !.\nd(N, A0, A) :- atom_concat(A0, A0, A1), N1 is N - 1, d(N1, A1, A).\n";

/// Runs every adversarial answer, each followed by the legitimate one, in
/// one batch under `rules`: none passes, every legitimate answer after one
/// scores 1.0. The judge and each adversarial answer's result.
fn batch(rules: Rules) -> (Judge, Vec<(&'static str, JudgeResult)>) {
    let mut config = JudgeConfig::default();
    config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    config.worker.memory_limit_bytes = 1 << 30;
    config.inference_limit = 2_000_000;
    config.rules = rules;
    let judge = Judge::new(config);
    let items = adversarial();
    let mut input = String::new();
    for (_, answer) in &items {
        for prediction in [answer.as_str(), LEGIT] {
            let line = serde_json::json!({"validation program": PROGRAM, "prediction": prediction});
            input.push_str(&line.to_string());
            input.push('\n');
        }
    }
    let mut output = Vec::new();
    let summary = run_batch(&judge, input.as_bytes(), &mut output, &|| {}).expect("batch runs");
    let results: Vec<JudgeResult> = String::from_utf8(output)
        .expect("utf-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).expect("result line"))
        .collect();
    assert_eq!(results.len(), items.len() * 2);
    assert_eq!(summary.lines, items.len() * 2);
    assert!(
        !std::path::Path::new("/tmp/entail_pwned").exists(),
        "an answer wrote a file"
    );
    for (i, (name, _)) in items.iter().enumerate() {
        let bad = &results[2 * i];
        let good = &results[2 * i + 1];
        assert!(
            !bad.is_correct && (bad.error_kind.is_some() || bad.partial_score < 1.0),
            "{name}: {bad:?}"
        );
        assert!(
            bad.error_kind.is_some() || bad.partial_score <= 2.0 / 3.0,
            "{name}: {bad:?}"
        );
        assert!(
            good.is_correct && good.partial_score == 1.0 && good.error_kind.is_none(),
            "after {name}: {good:?}"
        );
    }
    let bad = items
        .iter()
        .zip(results.into_iter().step_by(2))
        .map(|((name, _), result)| (*name, result))
        .collect();
    (judge, bad)
}

/// The result of the adversarial answer `name`.
fn result<'a>(results: &'a [(&str, JudgeResult)], name: &str) -> &'a JudgeResult {
    &results
        .iter()
        .find(|(n, _)| *n == name)
        .expect("item exists")
        .1
}

/// By default only the rules the reference finds are loaded: helpers and
/// facts never are, so a bomb in a helper is an undefined call (a runtime
/// error, 0), and a restated background fact changes nothing.
#[test]
fn adversarial_answers_never_pass_with_the_reference_rules() {
    let (_, results) = batch(Rules::All);
    let kind = |name: &str| result(&results, name).error_kind;
    assert_eq!(kind("pos leak"), Some(ErrorKind::Unsafe));
    assert_eq!(kind("shell"), Some(ErrorKind::Unsafe));
    assert_eq!(kind("call-built shell"), Some(ErrorKind::Unsafe));
    assert_eq!(kind("univ-built goal"), Some(ErrorKind::Unsafe));
    assert_eq!(kind("univ in the rule"), Some(ErrorKind::Syntax));
    assert_eq!(kind("infinite recursion"), Some(ErrorKind::Timeout));
    assert_eq!(kind("long-atom walk"), Some(ErrorKind::Runtime));
    // The fact `has_car(train1, foo)` is never loaded: the rule alone.
    let restated = result(&results, "redefines background");
    assert_eq!(
        (restated.error_kind, restated.partial_score),
        (None, 2.0 / 3.0)
    );
    assert_eq!(kind("loop after a big integer"), Some(ErrorKind::Timeout));
}

#[test]
fn adversarial_answers_never_pass_and_never_break_the_batch() {
    // The program around the rule, helpers kept: the bombs run.
    let (judge, results) = batch(Rules::Program);
    // Spot-check the kinds the sandbox is expected to give.
    let kind = |name: &str| result(&results, name).error_kind;
    assert_eq!(kind("pos leak"), Some(ErrorKind::Unsafe));
    assert_eq!(kind("shell"), Some(ErrorKind::Unsafe));
    assert_eq!(kind("call-built shell"), Some(ErrorKind::Unsafe));
    assert_eq!(kind("univ-built goal"), Some(ErrorKind::Unsafe));
    assert_eq!(kind("univ in the rule"), Some(ErrorKind::Syntax));
    // An operator directive never takes effect: the answer does not read
    // as a whole, so the reference's clause (`eastbound(T) :- T === T.`) is
    // loaded alone, a syntax error as in the SLR reference.
    assert_eq!(kind("op"), Some(ErrorKind::Syntax));
    assert_eq!(kind("infinite recursion"), Some(ErrorKind::Timeout));
    assert_eq!(kind("empty answer"), Some(ErrorKind::NoRule));
    assert_eq!(kind("redefines background"), Some(ErrorKind::Unsafe));
    assert_eq!(kind("huge length"), Some(ErrorKind::Resource));
    assert_eq!(kind("arithmetic load error"), Some(ErrorKind::Runtime));
    // Every cost bomb ends in a counted budget, never a wall clock.
    for name in [
        "long-atom walk",
        "long-atom walk, last character",
        "long-atom walk, atom_codes",
        "unbound sub_atom",
        "unbound sub_atom, failure loop",
        "unbound atom_concat",
        "big-integer loop",
        "loop after a big integer",
        "dif loop",
        "dif pile-up",
    ] {
        assert!(
            matches!(kind(name), Some(ErrorKind::Timeout | ErrorKind::Resource)),
            "{name}: {:?}",
            kind(name)
        );
    }
    assert_eq!(kind("huge power"), Some(ErrorKind::Resource));
    assert_eq!(
        judge.native_stats().map(|s| s.fallbacks),
        Some(0),
        "nothing is left undecided"
    );
}

//! Answers SWI-Prolog consults and the reference scores, which the judge
//! must score the same: harmless directives, module-qualified goals, own
//! definitions of library predicates (and of ISO built-ins, which SWI
//! skips), a malformed clause among good ones, library predicates
//! (atomic_list_concat, split_string, ordsets, pairs, yall lambdas, …).
//! Each case is scored by the judge and by the reference method run
//! through swipl (`tests/reference/slr_baseline.rs`); the scores must be
//! equal. Each class has the example and variants of our own.

#[path = "reference/slr_baseline.rs"]
mod baseline;

use entail::judge::{ErrorKind, Judge, JudgeConfig, TaskRecord};

/// Four trains, two eastbound: scores in quarters tell rules apart.
const PROGRAM: &str = "\
eastbound(train0).
has_car(train0, car0_1).
has_car(train0, car0_2).
car_color(car0_1, red).
car_color(car0_2, blue).
car_len(car0_1, short).
car_len(car0_2, long).
load_num(car0_1, 2).
load_num(car0_2, 1).
eastbound(train1).
has_car(train1, car1_1).
car_color(car1_1, red).
car_len(car1_1, long).
load_num(car1_1, 3).
westbound(train2).
has_car(train2, car2_1).
has_car(train2, car2_2).
car_color(car2_1, yellow).
car_color(car2_2, white).
car_len(car2_1, short).
car_len(car2_2, short).
load_num(car2_1, 0).
load_num(car2_2, 1).
westbound(train3).
has_car(train3, car3_1).
car_color(car3_1, blue).
car_len(car3_1, long).
load_num(car3_1, 2).
";

fn judge() -> Judge {
    let mut config = JudgeConfig::default();
    config.worker.command = Some(entail::prolog::WorkerCommand::new(env!(
        "CARGO_BIN_EXE_entail-worker"
    )));
    // Directives, helpers and module qualification around the rule are
    // loaded (`--rules program`), as `baseline::score` loads them.
    config.rules = entail::judge::Rules::Program;
    Judge::new(config)
}

/// Scores every answer with the judge and with swipl; returns the
/// disagreements, each with both scores and the judge's error.
fn disagreements(answers: &[&str]) -> Vec<String> {
    assert!(baseline::swipl_available(), "swipl is required");
    let judge = judge();
    let record = TaskRecord {
        validation_program: PROGRAM.into(),
        ..Default::default()
    };
    let task = judge.task(&record).expect("task loads");
    let mut differing = Vec::new();
    for answer in answers {
        let ours = task.score(answer);
        let theirs =
            baseline::score(PROGRAM, answer, "eastbound", "westbound").expect("swipl runs");
        if ours.partial_score != theirs.partial_score {
            differing.push(format!(
                "ours {} ({:?}: {:?}) vs swipl {}\n{answer}",
                ours.partial_score, ours.error_kind, ours.error, theirs.partial_score
            ));
        }
    }
    differing
}

fn assert_agree(answers: &[&str]) {
    let differing = disagreements(answers);
    assert!(
        differing.is_empty(),
        "{} of {} differ:\n{}",
        differing.len(),
        answers.len(),
        differing.join("\n\n")
    );
}

/// A score of a correct rule, so that a case that silently scores 0 on
/// both sides does not pass for agreement on a working answer.
fn score(answer: &str) -> f64 {
    let judge = judge();
    let record = TaskRecord {
        validation_program: PROGRAM.into(),
        ..Default::default()
    };
    judge
        .task(&record)
        .expect("task loads")
        .score(answer)
        .partial_score
}

const RULE: &str = "eastbound(T) :- has_car(T, C), car_color(C, red).";

#[test]
fn harmless_directives_are_accepted_as_swi_accepts_them() {
    let answers = [
        // The example.
        ":- use_module(library(lists)).\neastbound(T) :- has_car(T, C), car_color(C, red).",
        ":- ensure_loaded(library(lists)).\n:- use_module(library(apply), [maplist/2]).\n:- discontiguous eastbound/1.\neastbound(T) :- has_car(T, C), car_color(C, red).",
        ":- use_module(library(no_such_library)).\n:- style_check(-singleton).\neastbound(T) :- has_car(T, C), car_color(C, red).",
        // A dynamic predicate without clauses fails; undefined, it raises.
        ":- dynamic visited/1.\neastbound(T) :- has_car(T, C), car_color(C, red), \\+ visited(C).",
        "eastbound(T) :- has_car(T, C), car_color(C, red), \\+ visited(C).",
        ":- dynamic(eastbound/1).\neastbound(T) :- has_car(T, C), car_len(C, long).",
        ":- set_prolog_flag(double_quotes, codes).\neastbound(T) :- has_car(T, C), car_color(C, red), X = \"ab\", X = [97|_].",
        ":- set_prolog_flag(double_quotes, atom).\neastbound(T) :- has_car(T, C), car_color(C, A), A == \"red\".",
        ":- module(answer, [eastbound/1]).\neastbound(T) :- has_car(T, C), car_len(C, short).",
    ];
    assert_agree(&answers);
    for answer in &answers[..4] {
        assert_eq!(score(answer), 1.0, "{answer}");
    }
    // What the sandbox must refuse stays refused.
    let judge = judge();
    let record = TaskRecord {
        validation_program: PROGRAM.into(),
        ..Default::default()
    };
    let task = judge.task(&record).expect("task loads");
    for answer in [
        ":- initialization(main).\neastbound(T) :- has_car(T, _).",
        ":- assertz(eastbound(train2)).\neastbound(T) :- has_car(T, _).",
        ":- set_prolog_flag(unknown, fail).\neastbound(T) :- has_car(T, _).",
    ] {
        assert_eq!(
            task.score(answer).error_kind,
            Some(ErrorKind::Unsafe),
            "{answer}"
        );
    }
}

#[test]
fn module_qualified_goals_run_as_in_swi() {
    assert_agree(&[
        // The example.
        "eastbound(T) :- has_car(T, C), car_color(C, X), lists:memberchk(X, [red, white]).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), lists:append(_, [L], Cs), user:car_len(L, long).",
        "eastbound(T) :- has_car(T, C), maplist(lists:member(red), [[red]]), system:car_color(C, red).",
        "small(C) :- load_num(C, N), N < 3.\neastbound(T) :- has_car(T, C), user:small(C), car_color(C, red).",
        // The library's intersection/3, not the answer's own.
        "intersection(_, _, [none]).\neastbound(T) :- has_car(T, C), car_color(C, X), lists:intersection([X], [red], [red]).",
        "intersection(_, _, [none]).\neastbound(T) :- has_car(T, C), car_color(C, X), user:intersection([X], [red], [none]).",
        "eastbound(T) :- has_car(T, C), nowhere:undefined_thing(C).",
        "eastbound(T) :- lists:has_car(T, C), other:car_color(C, red).",
        "eastbound(T) :- has_car(T, C), system:car_color(C, red).",
        "eastbound(T) :- has_car(T, C), car_color(C, A), system:atom_length(A, 3).",
    ]);
}

#[test]
fn own_definitions_of_library_predicates_override_them() {
    assert_agree(&[
        // The examples: library (and non-ISO built-in) names.
        "intersection([], _, []).\nintersection([X|Xs], Ys, Zs) :- ( memberchk(X, Ys) -> Zs = [X|Zs1] ; Zs = Zs1 ), intersection(Xs, Ys, Zs1).\neastbound(T) :- findall(A, (has_car(T, C), car_color(C, A)), As), intersection(As, [red], [_|_]).",
        "union(_, _, [weird]).\neastbound(T) :- has_car(T, C), car_color(C, A), union([A], [], [weird]).",
        "nextto(X, Y, [Y, X|_]).\neastbound(T) :- findall(C, has_car(T, C), Cs), nextto(A, B, Cs), car_color(A, blue), car_color(B, red).",
        "plus(A, B, C) :- C is A * B.\neastbound(T) :- has_car(T, C), load_num(C, N), plus(N, N, 9).",
        "foldl(_, _, V, V).\neastbound(T) :- findall(C, has_car(T, C), Cs), foldl(count, Cs, 0, 0), has_car(T, D), car_color(D, red).",
        "predsort(_, L, L).\neastbound(T) :- findall(N, (has_car(T, C), load_num(C, N)), Ns), predsort(compare, Ns, [2|_]).",
        "upcase_atom(X, X).\neastbound(T) :- has_car(T, C), car_color(C, A), upcase_atom(A, red).",
        "succ(X, Y) :- Y is X + 10.\neastbound(T) :- has_car(T, C), load_num(C, N), succ(N, 13).",
        // ISO built-ins: SWI refuses the clause (permission error) and
        // scores the rest with its own length/2.
        "length(_, 7).\neastbound(T) :- findall(C, has_car(T, C), Cs), length(Cs, 2).",
        "atom_length(_, 0).\neastbound(T) :- has_car(T, C), car_color(C, A), atom_length(A, 3).",
        "length(_, 7).\neastbound(T) :- findall(C, has_car(T, C), Cs), length(Cs, 7).",
        "sort(L, L).\nmember(X, [X]).\neastbound(T) :- has_car(T, C), car_len(C, L), member(L, [long, short]), sort([b, a], [a, b]).",
    ]);
    // Not every such answer scores 0.
    assert_eq!(
        score("length(_, 7).\neastbound(T) :- findall(C, has_car(T, C), Cs), length(Cs, 2)."),
        0.5
    );
}

#[test]
fn a_malformed_clause_is_skipped_and_the_rest_scored() {
    let answers = [
        // The example: one clause with an operator error.
        "eastbound(T) :- has_car(T, C), car_color(C, red).\nhelper(X) :- X = = 1.",
        "eastbound(T) :- has_car(T, C) car_len(C, long).\neastbound(T) :- has_car(T, C), car_color(C, red).",
        "eastbound(T) :- has_car(T, C), (car_len(C, long).\neastbound(T) :- has_car(T, C), car_color(C, red).",
        "eastbound(T) :- has_car(T, C) car_len(C, long). eastbound(T) :- has_car(T, C), car_color(C, red).",
        "eastbound(T :- has_car(T, _).\nfoo(a) :- .\neastbound(T) :- has_car(T, C), car_color(C, red).",
        // Not here: a quote or block comment that swallows the rest, as in
        // `car_color(C, 'red.` or `/* car_color(C, red).` followed by a
        // second rule. The reference extracts that second rule by its
        // pattern and consults it alone (tests/judge_extract.rs), so the
        // judge scores it, where SWI consulting the whole text reads none.
        "eastbound(T) :- has_car(T, C) car_len(C, long).",
    ];
    assert_agree(&answers);
    assert_eq!(score(answers[0]), 1.0);
    assert_eq!(score(answers[1]), 1.0);
}

#[test]
fn library_predicates_answers_use_run_as_in_swi() {
    assert_agree(&[
        "eastbound(T) :- findall(A, (has_car(T, C), car_color(C, A)), As), atomic_list_concat(As, '-', X), sub_atom(X, 0, _, _, red).",
        "eastbound(T) :- findall(A, (has_car(T, C), car_color(C, A)), As), atomic_list_concat(As, X), atom_length(X, N), N < 8.",
        "eastbound(T) :- has_car(T, C), car_color(C, A), atomic_list_concat(Ps, e, A), Ps = [r|_].",
        "eastbound(T) :- has_car(T, C), car_color(C, A), atomic_list_concat([A, x], '', _).",
        "eastbound(T) :- has_car(T, C), car_color(C, A), atomic_list_concat(_, '', A).",
        "eastbound(T) :- has_car(T, C), car_color(C, A), split_string(A, \"e\", \"\", [\"r\", _]).",
        "eastbound(T) :- has_car(T, C), car_color(C, A), split_string(A, \"\", \"rd\", [\"e\"]).",
        "eastbound(T) :- has_car(T, C), load_num(C, N), split_string(N, \"\", \"\", _).",
        "eastbound(T) :- has_car(T, C), car_color(C, A), sub_string(A, 0, 1, _, \"r\").",
        "eastbound(T) :- has_car(T, C), load_num(C, N), number_string(N, S), number_string(M, S), M > 2.",
        "eastbound(T) :- has_car(T, C), car_color(C, A), string_code(1, A, 0'r).",
        "eastbound(T) :- has_car(T, C), car_color(C, A), string_upper(A, \"RED\").",
        "eastbound(T) :- findall(C-A, (has_car(T, C), car_color(C, A)), Ps), pairs_keys_values(Ps, _, Vs), memberchk(red, Vs).",
        "eastbound(T) :- findall(N-C, (has_car(T, C), load_num(C, N)), Ps), pairs_keys(Ps, Ks), max_list(Ks, 3).",
        "eastbound(T) :- findall(A, (has_car(T, C), car_color(C, A)), As), list_to_ord_set(As, S), ord_memberchk(red, S).",
        "eastbound(T) :- findall(A, (has_car(T, C), car_color(C, A)), As), ord_union(As, [green], U), ord_subtract(U, [blue, green], [red]).",
        "eastbound(T) :- findall(A, (has_car(T, C), car_color(C, A)), As), msort(As, S), ord_intersection(S, [red, white], [_|_]).",
        "eastbound(T) :- findall([A], (has_car(T, C), car_color(C, A)), As), flatten(As, F), selectchk(red, F, _).",
        "eastbound(T) :- has_car(T, C), term_variables(f(C, X, g(Y, X)), [_, _]), var(Y).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), include([X]>>car_color(X, red), Cs, [_|_]).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), exclude([X]>>car_len(X, short), Cs, L), length(L, 1).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), partition([X]>>car_len(X, long), Cs, [_], _).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), maplist([X, N]>>load_num(X, N), Cs, Ns), sum_list(Ns, S), S >= 3.",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), foldl([X, A0, A]>>(load_num(X, N), A is A0 + N), Cs, 0, S), S >= 3.",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), Y = 1, maplist([X]>>(car_color(X, _), Y = 2), Cs).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), maplist([X]>>(Z = X), Cs), Z == red.",
        "eastbound(T) :- has_car(T, C), car_color(C, A), findall(D, has_car(T, D), Ds), include({A}/[X]>>car_color(X, A), Ds, [_|_]), A == red.",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), maplist([X, Y]>>true, Cs).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), maplist(\\X^car_color(X, red), Cs).",
    ]);
}

#[test]
fn an_undefined_closure_is_named_with_its_arity() {
    let judge = judge();
    let record = TaskRecord {
        validation_program: PROGRAM.into(),
        ..Default::default()
    };
    let task = judge.task(&record).expect("task loads");
    for (answer, name) in [
        (
            "eastbound(T) :- findall(C, has_car(T, C), Cs), maplist(is_red, Cs).",
            "is_red/1",
        ),
        (
            "eastbound(T) :- findall(C, has_car(T, C), Cs), maplist(weight, Cs, _).",
            "weight/2",
        ),
        (
            "eastbound(T) :- findall(C, has_car(T, C), Cs), include(heavy(2), Cs, _).",
            "heavy/2",
        ),
        (
            "eastbound(T) :- findall(C, has_car(T, C), Cs), maplist([X]>>nope(X), Cs).",
            "nope/1",
        ),
    ] {
        let result = task.score(answer);
        assert_eq!(result.error_kind, Some(ErrorKind::Runtime), "{answer}");
        let error = result.error.unwrap_or_default();
        assert!(error.contains(name), "{answer}: {error}");
    }
    assert_agree(&[
        "eastbound(T) :- findall(C, has_car(T, C), Cs), maplist(is_red, Cs).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), maplist([X]>>nope(X), Cs).",
    ]);
    assert_eq!(score(RULE), 1.0);
}

#[test]
fn built_in_corners_raise_or_succeed_as_in_swi() {
    let corner = |goal: &str| format!("eastbound(T) :- has_car(T, C), car_color(C, red), {goal}.");
    let goals = [
        // memberchk/2 and intersection/3 on what is not a list.
        "memberchk(a, foo)",
        "memberchk(a, [b|foo])",
        "memberchk(red, [red|foo])",
        "memberchk(a, L), L = [a|_]",
        "intersection([a], foo, _)",
        "intersection(foo, [a], _)",
        // Negative indexes and an unbound one.
        "sub_atom(abc, -1, _, _, _)",
        "sub_atom(abc, _, -1, _, _)",
        "sub_atom(abc, 4, _, _, _)",
        "arg(-1, f(a), _)",
        "arg(0, f(a), _)",
        "arg(N, f(a, b), b), N == 2",
        "findall(N-X, arg(N, g(x, y, z), X), [1-x, 2-y, 3-z])",
        "arg(_, a, _)",
        "arg(a, f(a), _)",
        // Signed zero.
        "X is sign(-0.0), X == 0.0",
        "X is min(0.0, -0.0), X == -0.0",
        "X is max(-0.0, 0.0), X == 0.0",
        "X is max(-0.0, 0), X == 0",
        "X is min(0, -0.0), X == -0.0",
        "X is float_fractional_part(-0.0), X == -0.0",
        "X is float_fractional_part(-2.0), X == -0.0",
        "X is min(1, 1.0), X == 1.0",
    ];
    let answers: Vec<String> = goals.iter().map(|g| corner(g)).collect();
    let answers: Vec<&str> = answers.iter().map(String::as_str).collect();
    assert_agree(&answers);
}

/// Issue 50, item 6, inside rule bodies under the default `--rules all`:
/// the judge and the reference (all rules, through swipl) score the same,
/// and the rules that work score above 0 on both sides.
#[test]
fn swi_library_goals_in_rule_bodies_score_as_the_reference() {
    assert!(baseline::swipl_available(), "swipl is required");
    let judge = Judge::new(JudgeConfig::default());
    let record = TaskRecord {
        validation_program: PROGRAM.into(),
        ..Default::default()
    };
    let task = judge.task(&record).expect("task loads");
    let answers = [
        "eastbound(T) :- aggregate(count, C^has_car(T, C), N), N >= 2.",
        "eastbound(T) :- aggregate(max(L), C^(has_car(T, C), load_num(C, L)), M), M >= 2.",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), nth0(0, Cs, C, _), car_color(C, red).",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), nth1(I, Cs, C, Rest), car_color(C, red), I >= 1, is_list(Rest).",
        "eastbound(T) :- has_car(T, C), car_color(C, red), unify_with_occurs_check(X, f(Y)), X = f(Y).",
        "eastbound(T) :- has_car(T, C), car_color(C, red), \\+ unify_with_occurs_check(X, f(X)).",
        "eastbound(T) :- has_car(T, C), car_color(C, K), format(atom(A), \"~t~w~6|\", [K]), atom_length(A, 6), sub_atom(A, _, 3, 0, red).",
        "eastbound(T) :- has_car(T, C), load_num(C, N), format(atom(A), \"~e\", [N]), sub_atom(A, 0, 1, _, '2').",
        "eastbound(T) :- has_car(T, C), load_num(C, N), format(atom(A), \"~8r|~c\", [N, 65]), A == '2|A'.",
        "eastbound(T) :- has_car(T, C), load_num(C, N), X is max(N, nan), X >= 2.",
        "eastbound(T) :- has_car(T, C), load_num(C, N), X is atan2(0, 0), N > X, atom_number('0x1', M), N > M.",
        "eastbound(T) :- findall(C, has_car(T, C), Cs), permutation(P, Cs), P = [F|_], car_color(F, red).",
    ];
    let mut differing = Vec::new();
    let mut above_zero = 0;
    for answer in answers {
        let ours = task.score(answer);
        let theirs = baseline::score_reference(PROGRAM, answer, "eastbound", "westbound")
            .expect("swipl runs");
        above_zero += (theirs.partial_score > 0.0) as usize;
        if (ours.partial_score, ours.is_correct) != (theirs.partial_score, theirs.is_correct) {
            differing.push(format!(
                "ours {} ({:?}: {:?}) vs swipl {}\n{answer}",
                ours.partial_score, ours.error_kind, ours.error, theirs.partial_score
            ));
        }
    }
    assert!(differing.is_empty(), "{}", differing.join("\n\n"));
    assert_eq!(above_zero, answers.len());
}

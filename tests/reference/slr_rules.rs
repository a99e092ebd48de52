//! Random SLR answers for differential tests: rules over the trains of
//! `slr_gen::task` that use the whole fragment answers use (cut, `->`,
//! `*->`, negation, once/ignore with a cut inside, findall, aggregate_all,
//! setof/bagof, sorting, arithmetic corners with integers, floats and
//! division, library(lists)/library(apply) predicates, atoms and strings),
//! sometimes with a second clause that loops, explodes or raises, or with
//! helper predicates. Deterministic for a seed.

#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A literal: its text, the variables it needs bound, and those it binds.
type Literal = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const LITERALS: &[Literal] = &[
    // Producers.
    ("has_car(T, C)", &["T"], &["C"]),
    ("has_car(T, D)", &["T"], &["D"]),
    ("car_num(C, N)", &["C"], &["N"]),
    ("load_num(C, M)", &["C"], &["M"]),
    ("car_color(C, A)", &["C"], &["A"]),
    ("car_len(C, A)", &["C"], &["A"]),
    ("has_roof(D, B)", &["D"], &["B"]),
    ("findall(C1, has_car(T, C1), L)", &["T"], &["L"]),
    (
        "findall(N1, (has_car(T, C1), load_num(C1, N1)), L)",
        &["T"],
        &["L"],
    ),
    (
        "findall(A1, (has_car(T, C1), car_color(C1, A1)), L)",
        &["T"],
        &["L"],
    ),
    (
        "findall(X1-Y1, (has_car(T, C1), car_num(C1, X1), has_payload(C1, Y1)), L)",
        &["T"],
        &["L"],
    ),
    ("aggregate_all(count, has_car(T, _), N)", &["T"], &["N"]),
    (
        "aggregate_all(count, (has_car(T, C1), car_len(C1, long)), N)",
        &["T"],
        &["N"],
    ),
    (
        "aggregate_all(sum(N1), (has_car(T, C1), load_num(C1, N1)), N)",
        &["T"],
        &["N"],
    ),
    (
        "aggregate_all(max(N1), (has_car(T, C1), load_num(C1, N1)), M)",
        &["T"],
        &["M"],
    ),
    (
        "aggregate_all(min(N1), (has_car(T, C1), car_num(C1, N1)), M)",
        &["T"],
        &["M"],
    ),
    (
        "aggregate_all(max(N1, C1), (has_car(T, C1), load_num(C1, N1)), max(M, D))",
        &["T"],
        &["M", "D"],
    ),
    (
        "aggregate_all(min(N1, C1), (has_car(T, C1), car_num(C1, N1)), min(M, D))",
        &["T"],
        &["M", "D"],
    ),
    (
        "aggregate_all(bag(A1), (has_car(T, C1), has_roof(C1, A1)), L)",
        &["T"],
        &["L"],
    ),
    (
        "aggregate_all(set(A1), (has_car(T, C1), has_roof(C1, A1)), L)",
        &["T"],
        &["L"],
    ),
    (
        "setof(A1, C1^(has_car(T, C1), car_color(C1, A1)), L)",
        &["T"],
        &["L"],
    ),
    ("bagof(C1, has_car(T, C1), L)", &["T"], &["L"]),
    (
        "setof(N1, C1^(has_car(T, C1), load_num(C1, N1)), L)",
        &["T"],
        &["L"],
    ),
    ("msort(L, S)", &["L"], &["S"]),
    ("sort(L, S)", &["L"], &["S"]),
    ("sort(0, @>=, L, S)", &["L"], &["S"]),
    ("predsort(cmp_num, L, S)", &["L"], &["S"]),
    ("length(L, N)", &["L"], &["N"]),
    ("sum_list(L, N)", &["L"], &["N"]),
    ("sumlist(L, N)", &["L"], &["N"]),
    ("max_list(L, M)", &["L"], &["M"]),
    ("min_list(L, M)", &["L"], &["M"]),
    ("last(L, X)", &["L"], &["X"]),
    ("nth0(1, L, X)", &["L"], &["X"]),
    ("nth1(N, L, X)", &["L"], &["N", "X"]),
    ("reverse(L, S)", &["L"], &["S"]),
    ("list_to_set(L, S)", &["L"], &["S"]),
    ("subtract(L, [red, blue, 1], S)", &["L"], &["S"]),
    ("intersection(L, [red, short, 2], S)", &["L"], &["S"]),
    ("union(L, [white], S)", &["L"], &["S"]),
    ("delete(L, red, S)", &["L"], &["S"]),
    ("exclude(is_red, L, S)", &["L"], &["S"]),
    ("include(is_red, L, S)", &["L"], &["S"]),
    ("partition(is_red, L, S, S2)", &["L"], &["S", "S2"]),
    ("partition(cmp_two, L, S, S2, S3)", &["L"], &["S", "S2"]),
    ("foldl(add_load, L, 0, N)", &["L"], &["N"]),
    ("foldl(plus, L, 0, N)", &["L"], &["N"]),
    ("max_member(X, L)", &["L"], &["X"]),
    ("min_member(X, L)", &["L"], &["X"]),
    ("nextto(X, Y, L)", &["L"], &["X", "Y"]),
    ("member(X, L)", &["L"], &["X"]),
    ("select(X, L, S)", &["L"], &["X", "S"]),
    ("numlist(1, N, S)", &["N"], &["S"]),
    ("between(1, N, M)", &["N"], &["M"]),
    ("between(1, inf, M), M > 2, !", &[], &["M"]),
    ("plus(N, 1, M)", &["N"], &["M"]),
    ("succ(M, N)", &["N"], &["M"]),
    ("atom_codes(A, Cs), last(Cs, X)", &["A"], &["X"]),
    ("atom_length(A, N)", &["A"], &["N"]),
    ("atom_chars(A, Cs), Cs = [X|_]", &["A"], &["X"]),
    ("upcase_atom(A, X)", &["A"], &["X"]),
    ("sub_atom(A, 0, 1, _, X)", &["A"], &["X"]),
    ("sub_atom(A, B1, 1, 0, X), B1 >= 2", &["A"], &["X"]),
    ("atom_concat(A, '_x', X)", &["A"], &["X"]),
    ("atom_concat(X, Y, A)", &["A"], &["X", "Y"]),
    ("atom_number(A, N)", &["A"], &["N"]),
    ("atom_number(X, N)", &["N"], &["X"]),
    ("atom_string(A, Str)", &["A"], &["Str"]),
    ("string_concat(Str, \"x\", S)", &["Str"], &["S"]),
    ("string_length(Str, N)", &["Str"], &["N"]),
    ("string_chars(Str, Cs), length(Cs, N)", &["Str"], &["N"]),
    ("Str = \"red\"", &[], &["Str"]),
    ("char_code(X, 0'a)", &[], &["X"]),
    ("number_codes(N, \"12\")", &[], &["N"]),
    ("M is N / 2", &["N"], &["M"]),
    ("M is N // 2", &["N"], &["M"]),
    ("M is N mod 2", &["N"], &["M"]),
    ("M is N * 1.5", &["N"], &["M"]),
    ("M is 6 / N", &["N"], &["M"]),
    ("M is N / 0", &["N"], &["M"]),
    ("M is N / 0.0", &["N"], &["M"]),
    ("M is max(N, 2.0)", &["N"], &["M"]),
    ("M is min(N, 2)", &["N"], &["M"]),
    ("M is N ** 2", &["N"], &["M"]),
    ("M is 2 ^ N", &["N"], &["M"]),
    ("M is sqrt(N)", &["N"], &["M"]),
    ("M is truncate(N / 3)", &["N"], &["M"]),
    ("M is round(N * 0.5)", &["N"], &["M"]),
    ("M is abs(N - 3)", &["N"], &["M"]),
    ("M is sign(N - 2)", &["N"], &["M"]),
    ("M is N rem 3", &["N"], &["M"]),
    ("M is N xor 1", &["N"], &["M"]),
    ("M is N << 2", &["N"], &["M"]),
    ("M is msb(N + 1)", &["N"], &["M"]),
    ("M is float(N)", &["N"], &["M"]),
    ("M is integer(N / 2)", &["N"], &["M"]),
    ("M is N div -2", &["N"], &["M"]),
    ("M is cot(N)", &["N"], &["M"]),
    ("M is A + 1", &["A"], &["M"]),
    ("M is e ** 0", &[], &["M"]),
    // Arithmetic corners: mod/rem/div/`//` of negatives, zero divisors,
    // `**` and `^` with negative exponents, max/min of equal mixed numbers,
    // overflow past 64 bits, floats against integers.
    ("M is (N - 4) mod 3", &["N"], &["M"]),
    ("M is (N - 4) rem 3", &["N"], &["M"]),
    ("M is (N - 5) // 2", &["N"], &["M"]),
    ("M is (N - 5) div 2", &["N"], &["M"]),
    ("M is N mod 0", &["N"], &["M"]),
    ("M is N // 0", &["N"], &["M"]),
    ("M is N ** -1", &["N"], &["M"]),
    ("M is 2 ^ -N", &["N"], &["M"]),
    ("M is N ^ 2", &["N"], &["M"]),
    ("M is 2.0 ** N", &["N"], &["M"]),
    ("M is max(N, N * 1.0)", &["N"], &["M"]),
    ("M is min(N * 1.0, N)", &["N"], &["M"]),
    ("M is N * 9223372036854775807", &["N"], &["M"]),
    ("M is 2 ** (N * 40)", &["N"], &["M"]),
    ("M is N << 62", &["N"], &["M"]),
    ("M is ceiling(N / 2)", &["N"], &["M"]),
    ("M is truncate(N / 2.0)", &["N"], &["M"]),
    (
        "findall(X1, (has_car(T, C1), load_num(C1, N1), X1 is N1 / 2), L)",
        &["T"],
        &["L"],
    ),
    (
        "findall(X1, (has_car(T, C1), car_num(C1, N1), (N1 > 1 -> X1 is N1 * 1.0 ; X1 = N1)), L)",
        &["T"],
        &["L"],
    ),
    (
        "setof(X1, C1^N1^(has_car(T, C1), load_num(C1, N1), X1 is N1 / 2), L)",
        &["T"],
        &["L"],
    ),
    (
        "bagof(C1, (has_car(T, C1), car_color(C1, A1)), L)",
        &["T"],
        &["L"],
    ),
    (
        "aggregate_all(max(X1), (has_car(T, C1), car_num(C1, N1), X1 is N1 / 2), M)",
        &["T"],
        &["M"],
    ),
    // Tests.
    ("N > 1", &["N"], &[]),
    ("N =:= 2", &["N"], &[]),
    ("N =:= 2.0", &["N"], &[]),
    ("N / 2 =:= 1", &["N"], &[]),
    ("M < 2.5", &["M"], &[]),
    ("M == 1.0", &["M"], &[]),
    ("M @< 1.5", &["M"], &[]),
    ("M > 9223372036854775807", &["M"], &[]),
    ("M < 2", &["M"], &[]),
    ("M >= 1.5", &["M"], &[]),
    ("M =\\= N", &["M", "N"], &[]),
    ("N \\= M", &["N", "M"], &[]),
    ("M == 2", &["M"], &[]),
    ("M == 2.0", &["M"], &[]),
    ("A == red", &["A"], &[]),
    ("A \\== blue", &["A"], &[]),
    ("A @< m", &["A"], &[]),
    ("C @> D", &["C", "D"], &[]),
    ("C \\== D", &["C", "D"], &[]),
    ("compare(<, C, D)", &["C", "D"], &[]),
    ("compare(O, M, N), O == (<)", &["M", "N"], &[]),
    ("M @< N", &["M", "N"], &[]),
    ("S == []", &["S"], &[]),
    ("L \\== []", &["L"], &[]),
    ("S = [_, _|_]", &["S"], &[]),
    ("is_list(S)", &["S"], &[]),
    ("number(M)", &["M"], &[]),
    ("integer(M)", &["M"], &[]),
    ("float(M)", &["M"], &[]),
    ("atom(X)", &["X"], &[]),
    ("atomic(X)", &["X"], &[]),
    ("string(S)", &["S"], &[]),
    ("callable(X)", &["X"], &[]),
    ("ground(L)", &["L"], &[]),
    ("var(X)", &[], &[]),
    ("X == \"red\"", &["X"], &[]),
    ("Str @< red", &["Str"], &[]),
    ("\\+ has_roof(C, none)", &["C"], &[]),
    ("\\+ (has_car(T, D1), car_len(D1, long))", &["T"], &[]),
    ("forall(has_car(T, D1), car_len(D1, short))", &["T"], &[]),
    ("forall(member(X1, L), X1 \\== red)", &["L"], &[]),
    (
        "(car_color(C, red) -> true ; car_len(C, long))",
        &["C"],
        &[],
    ),
    (
        "(has_car(T, D1), car_color(D1, red) -> N2 = 1 ; N2 = 0), N2 > 0",
        &["T"],
        &[],
    ),
    (
        "(has_car(T, D1), car_len(D1, long) *-> has_roof(D1, flat) ; true)",
        &["T"],
        &[],
    ),
    ("(car_color(C, red) ; car_color(C, blue))", &["C"], &[]),
    ("(car_color(C, red), ! ; car_len(C, short))", &["C"], &[]),
    ("once(has_car(T, _))", &["T"], &[]),
    ("once((has_car(T, D1), !, car_len(D1, short)))", &["T"], &[]),
    ("ignore((has_car(T, D1), !, fail))", &["T"], &[]),
    ("ignore(car_color(C, red))", &["C"], &[]),
    (
        "((has_car(T, D1), !) -> car_len(D1, long) ; fail)",
        &["T"],
        &[],
    ),
    ("\\+ (has_car(T, D1), !, car_len(D1, long))", &["T"], &[]),
    ("not(car_color(C, green))", &["C"], &[]),
    ("memberchk(red, L)", &["L"], &[]),
    ("dif(A, red)", &["A"], &[]),
    ("!", &[], &[]),
    ("count_red(L, N3), N3 >= 1", &["L"], &[]),
    ("helper_undefined(C)", &["C"], &[]),
];

/// Second clauses: ordinary ones, and ones that loop, explode or raise.
const SECOND_CLAUSES: &[&str] = &[
    "eastbound(T) :- eastbound(T).",
    "eastbound(T) :- has_car(T, C), car_color(C, yellow), spin(T).",
    "eastbound(T) :- has_car(T, C), load_num(C, 3), between(1, inf, N), N < 0.",
    "eastbound(T) :- has_car(T, C), car_num(C, N), N > 3, X is N / 0, X > 0.",
    "eastbound(T) :- has_car(T, C), has_payload(C, circle), undefined_helper(C).",
    "eastbound(T) :- has_car(T, C), car_color(C, white).",
    "eastbound(T) :- has_car(T, C), car_len(C, long), has_roof(C, peaked).",
    "eastbound(T) :- findall(C, has_car(T, C), Cs), length(Cs, N), N >= 4.",
    "eastbound(T) :- has_car(T, C), car_num(C, N), N > 2, grow([], N).",
];

/// Helpers every answer may call (included when used).
const HELPERS: &[(&str, &str)] = &[
    ("is_red", "is_red(C) :- car_color(C, red).\nis_red(red)."),
    (
        "cmp_num",
        "cmp_num(O, A, B) :- ( car_num(A, NA), car_num(B, NB) -> compare(O, NA, NB) ; compare(O, A, B) ).",
    ),
    ("cmp_two", "cmp_two(X, O) :- ( number(X) -> compare(O, X, 2) ; O = (>) )."),
    (
        "add_load",
        "add_load(C, S0, S) :- ( load_num(C, L) -> S is S0 + L ; S = S0 ).",
    ),
    (
        "count_red",
        "count_red([], 0).\ncount_red([C|Cs], N) :- count_red(Cs, N0), ( car_color(C, red) -> N is N0 + 1 ; N = N0 ).",
    ),
    ("spin", "spin(T) :- spin(T)."),
    ("grow", "grow(L, N) :- grow([N|L], N)."),
];

/// The random-rule corpus of the differential tests: 5,000 answers, 50 on
/// each of 100 generated tasks (levels as in `slr_gen::DIFFERENTIAL_LEVELS`),
/// each task's answers together, as (validation program, answer) pairs.
pub fn corpus() -> Vec<(String, String)> {
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut pairs = Vec::new();
    for t in 0..100 {
        let levels = crate::slr_gen::DIFFERENTIAL_LEVELS;
        let (trains, cars) = levels[t % levels.len()];
        let task = crate::slr_gen::task(&mut rng, trains, cars);
        for _ in 0..50 {
            pairs.push((task.program.clone(), rule(&mut rng)));
        }
    }
    pairs
}

/// Scores `pairs` with `judge` on `threads` threads. Each thread takes whole
/// tasks (runs of pairs with the same program), so a scryer worker keeps a
/// task's background loaded between its answers. Results in input order.
pub fn score_by_task(
    judge: &entail::judge::Judge,
    pairs: &[(String, String)],
    threads: usize,
) -> Vec<entail::judge::JudgeResult> {
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, (program, _)) in pairs.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if pairs[g.start].0 == *program => g.end = i + 1,
            _ => groups.push(i..i + 1),
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![None; pairs.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(range) = groups.get(g) else { break };
                let record = entail::judge::TaskRecord {
                    validation_program: pairs[range.start].0.clone(),
                    ..Default::default()
                };
                let task = judge.task(&record).expect("generated task loads");
                for i in range.clone() {
                    let mut result = task.score(&pairs[i].1);
                    result.time_ms = 0.0;
                    results.lock().expect("no panic while held")[i] = Some(result);
                }
            });
        }
    });
    results
        .into_inner()
        .expect("no panic while held")
        .into_iter()
        .map(|r| r.expect("every pair scored"))
        .collect()
}

/// One random answer (a rule, maybe a second clause, and its helpers).
pub fn rule(rng: &mut ChaCha8Rng) -> String {
    let mut bound: Vec<&str> = vec!["T"];
    let mut body: Vec<&str> = Vec::new();
    let n = rng.gen_range(1..=5);
    for i in 0..n {
        // Mostly literals whose inputs are bound; sometimes anything, so
        // instantiation errors are exercised too.
        let candidates: Vec<&Literal> = LITERALS
            .iter()
            .filter(|(_, needs, _)| needs.iter().all(|v| bound.contains(v)))
            .collect();
        let pick = if i == 0 && rng.gen_bool(0.7) {
            &LITERALS[0]
        } else if rng.gen_bool(0.93) && !candidates.is_empty() {
            candidates[rng.gen_range(0..candidates.len())]
        } else {
            LITERALS.choose(rng).unwrap_or(&LITERALS[0])
        };
        body.push(pick.0);
        bound.extend(pick.2.iter());
    }
    let mut text = format!("eastbound(T) :- {}.", body.join(", "));
    if rng.gen_bool(0.2) {
        let second = SECOND_CLAUSES.choose(rng).unwrap_or(&SECOND_CLAUSES[0]);
        text.push('\n');
        text.push_str(second);
    }
    let mut helpers = Vec::new();
    for (name, clauses) in HELPERS {
        if text.contains(name) {
            helpers.push(*clauses);
        }
    }
    for h in helpers {
        text.push('\n');
        text.push_str(h);
    }
    text
}

// ---------------------------------------------------------------------------
// Answers SWI consults that use more of what it accepts: library built-ins
// (text, ordsets, pairs, yall lambdas), harmless directives, module
// qualification, own definitions of library predicates and of ISO
// built-ins (which SWI skips), and malformed clauses among good ones.

/// Literals over the library built-ins, on colours and numbers only (task
/// constants are named differently by the judge and by the reference).
const LIBRARY_LITERALS: &[Literal] = &[
    ("atomic_list_concat(L, '-', X)", &["L"], &["X"]),
    ("atomic_list_concat([A, x, 1], X)", &["A"], &["X"]),
    ("atomic_list_concat(Ps, e, A), Ps = [X|_]", &["A"], &["X"]),
    ("atomic_list_concat([X, Y], l, A)", &["A"], &["X", "Y"]),
    ("atomic_list_concat(L, '', A)", &["A"], &["L"]),
    ("split_string(A, \"e\", \"\", L)", &["A"], &["L"]),
    ("split_string(A, \"\", \"rd\", L)", &["A"], &["L"]),
    ("split_string(A, \"l\", \"ow\", L)", &["A"], &["L"]),
    ("sub_string(A, 0, 2, _, Str)", &["A"], &["Str"]),
    ("sub_string(A, B1, 1, 0, Str), B1 > 1", &["A"], &["Str"]),
    ("string_upper(A, Str)", &["A"], &["Str"]),
    ("string_lower(Str, X)", &["Str"], &["X"]),
    ("number_string(N, Str)", &["N"], &["Str"]),
    ("number_string(M, \"7\")", &[], &["M"]),
    ("number_string(M, Str)", &["Str"], &["M"]),
    ("string_code(2, A, M)", &["A"], &["M"]),
    ("string_code(N, A, M)", &["N", "A"], &["M"]),
    ("term_variables(f(L, X1, g(Y1, X1)), S)", &["L"], &["S"]),
    ("flatten([L, [x, [L]]], S)", &["L"], &["S"]),
    ("selectchk(X, L, S)", &["L"], &["X", "S"]),
    ("select(red, L, white, S)", &["L"], &["S"]),
    ("clumped(L, P)", &["L"], &["P"]),
    ("is_set(L)", &["L"], &[]),
    ("subset([red], L)", &["L"], &[]),
    ("prefix(S, L)", &["L"], &["S"]),
    ("same_length(L, S)", &["L"], &["S"]),
    ("proper_length(L, N)", &["L"], &["N"]),
    ("pairs_keys_values(P, L, L)", &["L"], &["P"]),
    ("pairs_keys(P, S)", &["P"], &["S"]),
    ("pairs_values(P, S)", &["P"], &["S"]),
    ("transpose_pairs(P, S)", &["P"], &["S"]),
    ("group_pairs_by_key(P, S)", &["P"], &["S"]),
    ("map_list_to_pairs(atom_length, L, P)", &["L"], &["P"]),
    ("list_to_ord_set(L, S)", &["L"], &["S"]),
    ("ord_union(S, [red], S2)", &["S"], &["S2"]),
    ("ord_union([S, [blue], L], S2)", &["S", "L"], &["S2"]),
    ("ord_subtract(S, [red, 1], S2)", &["S"], &["S2"]),
    ("ord_memberchk(red, S)", &["S"], &[]),
    ("ord_intersection(S, [blue, red], S2)", &["S"], &["S2"]),
    ("ord_subset([red], S)", &["S"], &[]),
    ("ord_add_element(S, white, S2)", &["S"], &["S2"]),
    ("ord_del_element(S, red, S2)", &["S"], &["S2"]),
    ("ord_symdiff(S, [red, white], S2)", &["S"], &["S2"]),
    ("ord_disjoint(S, [red])", &["S"], &[]),
    ("include([X1]>>car_color(X1, red), L, S)", &["L"], &["S"]),
    ("include([X1]>>(X1 == red), L, S)", &["L"], &["S"]),
    ("exclude([X1]>>(number(X1), X1 > 1), L, S)", &["L"], &["S"]),
    (
        "partition([X1]>>car_len(X1, long), L, S, S2)",
        &["L"],
        &["S", "S2"],
    ),
    (
        "maplist([X1, Y1]>>(car_color(X1, Y1) -> true ; Y1 = none), L, S)",
        &["L"],
        &["S"],
    ),
    ("maplist([X1]>>atom(X1), L)", &["L"], &[]),
    (
        "maplist([X1, Y1, Z1]>>(Z1 = X1-Y1), L, L, P)",
        &["L"],
        &["P"],
    ),
    (
        "foldl([X1, S0, S1]>>(load_num(X1, V1) -> S1 is S0 + V1 ; S1 = S0), L, 0, N)",
        &["L"],
        &["N"],
    ),
    (
        "foldl([_, _, S0, S1]>>(S1 is S0 + 1), L, L, 0, N)",
        &["L"],
        &["N"],
    ),
    (
        "include({A}/[X1]>>car_color(X1, A), L, S)",
        &["L", "A"],
        &["S"],
    ),
    ("maplist([X1]>>(Z1 = X1), L), var(Z1)", &["L"], &[]),
    ("maplist([X1, Y1]>>true, L)", &["L"], &[]),
    ("maplist(\\X1^atom(X1), L)", &["L"], &[]),
    ("max_member([X1, Y1]>>(X1 @< Y1), X, L)", &["L"], &["X"]),
    ("lists:memberchk(red, L)", &["L"], &[]),
    ("lists:append(L, [x], S)", &["L"], &["S"]),
    ("user:has_car(T, C)", &["T"], &["C"]),
    ("maplist(lists:member(red), [L])", &["L"], &[]),
    ("apply:maplist(atom, L)", &["L"], &[]),
    ("system:length(L, N)", &["L"], &["N"]),
    ("intersection(L, [red, 1], S)", &["L"], &["S"]),
    ("union(L, [red], S)", &["L"], &["S"]),
    ("nextto(X, Y, L)", &["L"], &["X", "Y"]),
    ("last(L, X)", &["L"], &["X"]),
    ("sum_list(L, N)", &["L"], &["N"]),
    ("upcase_atom(A, X)", &["A"], &["X"]),
    ("plus(N, 1, M)", &["N"], &["M"]),
    ("length(L, N)", &["L"], &["N"]),
    ("atom_length(A, N)", &["A"], &["N"]),
    ("\\+ visited(C)", &["C"], &[]),
];

/// Directives an answer may start with.
const DIRECTIVES: &[&str] = &[
    ":- use_module(library(lists)).",
    ":- use_module(library(apply)).",
    ":- use_module(library(yall)).",
    ":- use_module(library(pairs)).",
    ":- use_module(library(ordsets)).",
    ":- use_module(library(lists), [member/2, append/3]).",
    ":- ensure_loaded(library(lists)).",
    ":- discontiguous eastbound/1.",
    ":- dynamic visited/1.",
    ":- dynamic([visited/1, other/2]).",
    ":- style_check(-singleton).",
    ":- use_module(library(no_such_library)).",
];

/// Own definitions of library predicates (which override them) and of ISO
/// built-ins (which SWI refuses, clause by clause).
const OWN_DEFINITIONS: &[&str] = &[
    "intersection(_, _, []).",
    "union(A, B, C) :- append(A, B, C).",
    "nextto(X, Y, [Y, X|_]).",
    "last([X|_], X).",
    "sum_list(_, 100).",
    "upcase_atom(X, X).",
    "plus(A, B, C) :- C is A * B.",
    "flatten(L, L).",
    "list_to_ord_set(L, L).",
    "length(_, 7).",
    "atom_length(_, 0).",
    "msort(L, L).",
    "visited(red).",
];

/// Clauses SWI reports as syntax errors and skips.
const MALFORMED: &[&str] = &[
    "eastbound(T) :- has_car(T, C) car_len(C, long).",
    "helper(X) :- X = = 1.",
    "eastbound(T) :- has_car(T, C), (car_len(C, long).",
    "eastbound(T :- has_car(T, _).",
    "foo(a) :- .",
    "eastbound(T) :- has_car(T, C), car_color(C, red)) .",
];

/// One answer of the library corpus: a rule over the usual literals and
/// the library ones, sometimes after a directive, with an own definition
/// of a library name, or with a malformed clause before or after it.
pub fn library_rule(rng: &mut ChaCha8Rng) -> String {
    let mut bound: Vec<&str> = vec!["T"];
    let mut body: Vec<&str> = Vec::new();
    let n = rng.gen_range(2..=5);
    for i in 0..n {
        let pool: &[Literal] = if i > 0 && rng.gen_bool(0.6) {
            LIBRARY_LITERALS
        } else {
            LITERALS
        };
        let candidates: Vec<&Literal> = pool
            .iter()
            .filter(|(_, needs, _)| needs.iter().all(|v| bound.contains(v)))
            .collect();
        let pick = if i == 0 && rng.gen_bool(0.7) {
            &LITERALS[0]
        } else if rng.gen_bool(0.95) && !candidates.is_empty() {
            candidates[rng.gen_range(0..candidates.len())]
        } else {
            pool.choose(rng).unwrap_or(&LITERALS[0])
        };
        body.push(pick.0);
        bound.extend(pick.2.iter());
    }
    let mut lines = Vec::new();
    if rng.gen_bool(0.3) {
        lines.push(DIRECTIVES.choose(rng).unwrap_or(&DIRECTIVES[0]).to_string());
    }
    if rng.gen_bool(0.3) {
        lines.push(
            OWN_DEFINITIONS
                .choose(rng)
                .unwrap_or(&OWN_DEFINITIONS[0])
                .to_string(),
        );
    }
    lines.push(format!("eastbound(T) :- {}.", body.join(", ")));
    if rng.gen_bool(0.15) {
        let at = rng.gen_range(0..=lines.len());
        lines.insert(
            at,
            MALFORMED.choose(rng).unwrap_or(&MALFORMED[0]).to_string(),
        );
    }
    let mut text = lines.join("\n");
    let mut helpers = Vec::new();
    for (name, clauses) in HELPERS {
        if text.contains(name) {
            helpers.push(*clauses);
        }
    }
    for h in helpers {
        text.push('\n');
        text.push_str(h);
    }
    text
}

/// The library corpus: `tasks` generated tasks with 50 answers each, as
/// (validation program, answer) pairs. Deterministic.
pub fn library_corpus(tasks: usize) -> Vec<(String, String)> {
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let mut pairs = Vec::new();
    for t in 0..tasks {
        let levels = crate::slr_gen::DIFFERENTIAL_LEVELS;
        let (trains, cars) = levels[t % levels.len()];
        let task = crate::slr_gen::task(&mut rng, trains, cars);
        for _ in 0..50 {
            pairs.push((task.program.clone(), library_rule(&mut rng)));
        }
    }
    pairs
}

//! A small deterministic generator of SLR-style tasks and hypotheses, for the
//! differential test and the benchmark. Tasks are trains of cars with
//! attributes; labels come from a hidden rule; hypotheses cover the SLR
//! appendix constructs plus recursion and random mutations.

#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

const COLORS: &[&str] = &["red", "blue", "green", "yellow", "white"];
const LENGTHS: &[&str] = &["short", "long"];
const ROOFS: &[&str] = &["none", "flat", "peaked"];
const PAYLOADS: &[&str] = &["circle", "triangle", "rectangle"];

/// Attribute predicates and their values.
const ATTRIBUTES: &[(&str, &[&str])] = &[
    ("car_color", COLORS),
    ("car_len", LENGTHS),
    ("has_roof", ROOFS),
    ("has_payload", PAYLOADS),
];

struct Car {
    num: usize,
    attrs: Vec<&'static str>,
    load: u32,
}

/// A generated task: its validation program.
pub struct GenTask {
    /// The validation program text (labels interleaved with background).
    pub program: String,
    /// Number of trains.
    pub trains: usize,
}

/// A task with `trains` trains of 1..=`max_cars` cars.
pub fn task(rng: &mut ChaCha8Rng, trains: usize, max_cars: usize) -> GenTask {
    let (attr, values) = ATTRIBUTES[rng.gen_range(0..ATTRIBUTES.len())];
    let _ = attr;
    let hidden_attr = rng.gen_range(0..ATTRIBUTES.len());
    let hidden_value = values[rng.gen_range(0..values.len())];
    let hidden_value = ATTRIBUTES[hidden_attr]
        .1
        .iter()
        .find(|v| **v == hidden_value)
        .copied()
        .unwrap_or(ATTRIBUTES[hidden_attr].1[0]);
    let mut program = String::new();
    // SLR tasks always have both labels; without one, the reference's
    // checker calls an undefined pos/1 or neg/1 and scores 0.
    let mut labels_seen = [false, false];
    for t in 0..trains {
        let n = rng.gen_range(1..=max_cars);
        let cars: Vec<Car> = (1..=n)
            .map(|num| Car {
                num,
                attrs: ATTRIBUTES
                    .iter()
                    .map(|(_, vs)| *vs.choose(rng).unwrap_or(&vs[0]))
                    .collect(),
                load: rng.gen_range(0..4),
            })
            .collect();
        let mut positive = cars.iter().any(|c| c.attrs[hidden_attr] == hidden_value)
            != (rng.gen_range(0..10) == 0);
        if t + 1 == trains && labels_seen[positive as usize] && !labels_seen[!positive as usize] {
            positive = !positive;
        }
        labels_seen[positive as usize] = true;
        let label = if positive { "eastbound" } else { "westbound" };
        program.push_str(&format!("{label}(train{t}).\n"));
        for car in &cars {
            let id = format!("car{t}_{}", car.num);
            program.push_str(&format!("has_car(train{t}, {id}).\n"));
            program.push_str(&format!("car_num({id}, {}).\n", car.num));
            for ((name, _), value) in ATTRIBUTES.iter().zip(&car.attrs) {
                program.push_str(&format!("{name}({id}, {value}).\n"));
            }
            program.push_str(&format!("load_num({id}, {}).\n", car.load));
        }
    }
    GenTask { program, trains }
}

fn attr_literal(rng: &mut ChaCha8Rng, var: &str) -> String {
    let (name, values) = ATTRIBUTES[rng.gen_range(0..ATTRIBUTES.len())];
    format!(
        "{name}({var}, {})",
        values.choose(rng).unwrap_or(&values[0])
    )
}

/// One hypothesis of construct `kind` (0..14; larger values wrap).
pub fn hypothesis(rng: &mut ChaCha8Rng, kind: usize) -> String {
    let a = attr_literal(rng, "C");
    let b = attr_literal(rng, "C");
    let k: u32 = rng.gen_range(1..4);
    match kind % 14 {
        0 => format!("eastbound(T) :- has_car(T, C), {a}."),
        1 => format!("eastbound(T) :- has_car(T, C), {a}, {b}."),
        2 => format!("eastbound(T) :- has_car(T, C), ({a} ; {b})."),
        3 => format!("eastbound(T) :- has_car(T, C), {a}, \\+ (has_car(T, D), {}).", attr_literal(rng, "D")),
        4 => format!(
            "eastbound(T) :- has_car(T, C1), has_car(T, C2), C1 \\= C2, {}, {}.",
            attr_literal(rng, "C1"),
            attr_literal(rng, "C2")
        ),
        5 => format!("eastbound(T) :- findall(C, has_car(T, C), Cs), length(Cs, N), N >= {k}."),
        6 => format!("eastbound(T) :- findall(C, (has_car(T, C), {a}), Cs), length(Cs, N), N < {k}.5."),
        7 => format!("eastbound(T) :- has_car(T, _), forall(has_car(T, C), {a})."),
        8 => format!(
            "eastbound(T) :- findall(Col, (has_car(T, C), car_color(C, Col)), Cols), sort(Cols, U), length(U, N), N >= {k}."
        ),
        9 => format!("eastbound(T) :- has_car(T, C), car_num(C, N), N mod 2 =:= {}, {a}.", k % 2),
        10 => format!("eastbound(T) :- findall(L, (has_car(T, C), load_num(C, L)), Ls), max_list(Ls, M), M >= {k}."),
        11 => format!(
            "eastbound(T) :- findall(C, has_car(T, C), Cs), all_ok(Cs).\nall_ok([]).\nall_ok([C|Cs]) :- {a}, all_ok(Cs)."
        ),
        12 => format!(
            "eastbound(T) :- has_car(T, C), car_num(C, 1), chain(T, C, {k}).\nchain(_, _, 0).\nchain(T, C, K) :- K > 0, {a}, car_num(C, N), M is N + 1, has_car(T, D), car_num(D, M), K1 is K - 1, chain(T, D, K1).\nchain(T, C, K) :- K > 0, car_num(C, N), \\+ (M is N + 1, has_car(T, D), car_num(D, M))."
        ),
        _ => format!("eastbound(T) :- aggregate_all(count, (has_car(T, C), {a}), N), N >= {}.", k.min(2)),
    }
}

/// A random mutation of `h`: a changed constant, a dropped literal, an
/// extra clause naming a train, or a second rule.
pub fn mutate(rng: &mut ChaCha8Rng, h: &str) -> String {
    match rng.gen_range(0..4) {
        0 => {
            let from = ["red", "short", "peaked", "circle", "long", "blue"]
                .choose(rng)
                .copied()
                .unwrap_or("red");
            let to = ["green", "long", "flat", "triangle", "short", "white"]
                .choose(rng)
                .copied()
                .unwrap_or("green");
            h.replacen(from, to, 1)
        }
        1 => match h.find(", ") {
            // Drop the literal after the first comma when it is a plain one.
            Some(i) => {
                let rest = &h[i + 2..];
                match rest.find(", ") {
                    Some(j)
                        if !rest[..j].contains('(')
                            || rest[..j].ends_with(')')
                                && !rest[..j].contains(';')
                                && rest[..j].matches('(').count()
                                    == rest[..j].matches(')').count() =>
                    {
                        format!("{}{}", &h[..i + 2], &rest[j + 2..])
                    }
                    _ => h.to_string(),
                }
            }
            None => h.to_string(),
        },
        2 => format!("{h}\neastbound(train{}).", rng.gen_range(0..4)),
        _ => format!(
            "{h}\neastbound(T) :- has_car(T, C), {}.",
            attr_literal(rng, "C")
        ),
    }
}

/// Trains and cars per train of the differential tasks, small to SLR's hardest.
pub const DIFFERENTIAL_LEVELS: &[(usize, usize)] =
    &[(2, 1), (4, 2), (6, 3), (8, 4), (16, 5), (32, 6)];

/// The 540 (validation program, hypothesis) pairs the differential tests
/// compare on: 90 tasks across [`DIFFERENTIAL_LEVELS`], six hypotheses each,
/// the sixth a mutation.
pub fn differential_pairs() -> Vec<(String, String)> {
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(20240603);
    let mut pairs = Vec::new();
    for task_index in 0..90 {
        let (trains, cars) = DIFFERENTIAL_LEVELS[task_index % DIFFERENTIAL_LEVELS.len()];
        let task = task(&mut rng, trains, cars);
        for j in 0..6 {
            let mut h = hypothesis(&mut rng, task_index * 6 + j);
            if j == 5 {
                h = mutate(&mut rng, &h);
            }
            pairs.push((task.program.clone(), h));
        }
    }
    pairs
}

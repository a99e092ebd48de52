//! An SLR task's trains drawn as Michalski drew them: an engine, then each
//! car with its length, wall, roof, wheels and load, trains grouped by label.
//! The trains are read back from the task's Prolog facts, so any task in the
//! SLR vocabulary draws, whoever generated it.

use super::Error;
use crate::judge::TaskRecord;
use crate::syntax::prolog::{parse_program, Term};
use plotters::prelude::*;
use std::collections::BTreeMap;

/// One car: its position and its attribute values by predicate name.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Car {
    pub name: String,
    pub position: i64,
    pub attributes: BTreeMap<String, String>,
}

/// One train: its label (`Some(true)` positive) and its cars in position order.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Train {
    pub name: String,
    pub label: Option<bool>,
    pub cars: Vec<Car>,
    /// From the task's holdout program: kept out of the prompt.
    pub held_out: bool,
}

/// A constant as text: an atom's name, a number's digits.
fn constant(term: &Term) -> Option<String> {
    match term {
        Term::Atom(a) => Some(a.clone()),
        Term::Int(i) => Some(i.to_string()),
        Term::BigInt(s) | Term::Str(s) => Some(s.clone()),
        Term::Float(f) => Some(f.to_string()),
        _ => None,
    }
}

/// The trains of `program` (the facts of a validation or holdout program),
/// in the order their first fact names them.
pub(crate) fn read_trains(
    program: &str,
    positive: &str,
    negative: &str,
) -> Result<Vec<Train>, Error> {
    let parsed = parse_program(program).map_err(|e| Error(format!("validation program: {e}")))?;
    let mut trains: Vec<Train> = Vec::new();
    let mut car_of: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut pending: Vec<(String, String, String)> = Vec::new();
    let train_index =
        |trains: &mut Vec<Train>, name: &str| match trains.iter().position(|t| t.name == name) {
            Some(i) => i,
            None => {
                trains.push(Train {
                    name: name.to_string(),
                    ..Train::default()
                });
                trains.len() - 1
            }
        };
    for sentence in &parsed.sentences {
        if sentence.body().is_some() {
            continue;
        }
        let Some(Term::Compound(name, args)) = sentence.head() else {
            continue;
        };
        let args: Vec<Option<String>> = args.iter().map(constant).collect();
        match (name.as_str(), args.as_slice()) {
            (label, [Some(train)]) if label == positive || label == negative => {
                let i = train_index(&mut trains, train);
                trains[i].label = Some(label == positive);
            }
            ("has_car", [Some(train), Some(car)]) => {
                let i = train_index(&mut trains, train);
                let position = trains[i].cars.len() as i64 + 1;
                trains[i].cars.push(Car {
                    name: car.clone(),
                    position,
                    ..Car::default()
                });
                car_of.insert(car.clone(), (i, trains[i].cars.len() - 1));
            }
            (attribute, [Some(car), Some(value)]) => {
                pending.push((car.clone(), attribute.to_string(), value.clone()));
            }
            _ => {}
        }
    }
    for (car, attribute, value) in pending {
        let Some(&(t, c)) = car_of.get(&car) else {
            continue;
        };
        let car = &mut trains[t].cars[c];
        if attribute == "car_num" {
            car.position = value.parse().unwrap_or(car.position);
        } else {
            car.attributes.insert(attribute, value);
        }
    }
    for train in &mut trains {
        train.cars.sort_by_key(|c| c.position);
    }
    Ok(trains)
}

/// The trains of a task record, with its label names.
pub(crate) fn task_trains(task: &TaskRecord) -> Result<Vec<Train>, Error> {
    let config = task.evaluation_config.clone().unwrap_or_default();
    let positive = config.positive_predicate.as_deref().unwrap_or("eastbound");
    let negative = config.negative_predicate.as_deref().unwrap_or("westbound");
    let mut trains = read_trains(&task.validation_program, positive, negative)?;
    if let Some(holdout) = &task.holdout_program {
        let mut held = read_trains(holdout, positive, negative)
            .map_err(|e| Error(e.0.replace("validation program", "holdout program")))?;
        for train in &mut held {
            train.held_out = true;
        }
        trains.extend(held);
    }
    Ok(trains)
}

/// A car colour from the vocabulary's `car_color` values.
fn paint(colour: Option<&str>) -> RGBColor {
    match colour {
        Some("red") => RGBColor(0xD6, 0x3B, 0x3B),
        Some("blue") => RGBColor(0x3B, 0x6F, 0xD6),
        Some("green") => RGBColor(0x3B, 0xA5, 0x5C),
        Some("yellow") => RGBColor(0xF2, 0xC9, 0x2E),
        Some("white") => RGBColor(0xFA, 0xFA, 0xFA),
        _ => RGBColor(0xB8, 0xB8, 0xB8),
    }
}

const ROW: i32 = 92;
const HEADING: i32 = 30;
const LEFT: i32 = 150;
const SHORT: i32 = 46;
const LONG: i32 = 72;
const GAP: i32 = 14;

/// The trains as an SVG drawing, grouped under their labels (positive,
/// negative, then unlabelled ones), or all in one group when `hide_labels`;
/// held-out trains (the task's holdout program) in groups of their own after.
/// Every car body is one filled rectangle, and nothing else is (so a reader
/// counts cars by filled rectangles); wheels are the only circles.
pub(crate) fn draw(
    trains: &[Train],
    positive: &str,
    negative: &str,
    hide_labels: bool,
) -> Result<String, Error> {
    let mut groups: Vec<(String, Vec<&Train>)> = Vec::new();
    for held_out in [false, true] {
        let part = |t: &&Train| t.held_out == held_out;
        let prefix = if held_out { "held out: " } else { "" };
        if hide_labels {
            let members: Vec<&Train> = trains.iter().filter(part).collect();
            if !members.is_empty() {
                groups.push((format!("{prefix}trains (unlabelled)"), members));
            }
            continue;
        }
        for (title, label) in [
            (positive, Some(true)),
            (negative, Some(false)),
            ("unlabelled", None),
        ] {
            let members: Vec<&Train> = trains
                .iter()
                .filter(part)
                .filter(|t| t.label == label)
                .collect();
            if !members.is_empty() {
                groups.push((format!("{prefix}{title}"), members));
            }
        }
    }
    let widest = trains
        .iter()
        .map(|t| t.cars.iter().map(|c| car_width(c) + GAP).sum::<i32>())
        .max()
        .unwrap_or(0);
    let width = (LEFT + 60 + widest + 20).max(360) as u32;
    let drawn = groups
        .iter()
        .map(|(_, m)| HEADING + ROW * m.len() as i32)
        .sum::<i32>()
        .max(ROW)
        + 10;
    let (key, key_height) = legend(trains, width as i32, drawn);
    let height = (drawn + key_height) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let mut y = 6;
        for (title, members) in &groups {
            root.draw(&Text::new(
                title.clone(),
                (8, y + 6),
                ("sans-serif", 20.0).into_font().style(FontStyle::Bold),
            ))
            .map_err(Error::drawing)?;
            y += HEADING;
            for train in members {
                draw_train(&root, train, y).map_err(Error::drawing)?;
                y += ROW;
            }
        }
        root.present().map_err(Error::drawing)?;
    }
    Ok(match svg.rfind("</svg>") {
        Some(end) => format!("{}{key}{}", &svg[..end], &svg[end..]),
        None => svg,
    })
}

/// What a car's look means, for the values these trains use: the key drawn
/// under the trains, as an SVG group of class `legend` at height `top`, and
/// its height. Swatches are polygons, so the car bodies stay the drawing's
/// only filled rectangles and the wheels its only circles.
fn legend(trains: &[Train], width: i32, top: i32) -> (String, i32) {
    let mut used: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for car in trains.iter().flat_map(|t| &t.cars) {
        for (attribute, value) in &car.attributes {
            let values = used.entry(attribute.as_str()).or_default();
            if !values.contains(&value.as_str()) {
                values.push(value.as_str());
            }
        }
    }
    for values in used.values_mut() {
        values.sort();
    }
    let mut items: Vec<(String, String)> = Vec::new(); // (swatch SVG, text)
    let swatch = |colour: &str| {
        format!("<polygon points=\"0,-11 16,-11 16,1 0,1\" fill=\"{colour}\" stroke=\"#000\"/>")
    };
    for value in used.get("car_color").into_iter().flatten() {
        let RGBColor(r, g, b) = paint(Some(*value));
        items.push((
            swatch(&format!("#{r:02x}{g:02x}{b:02x}")),
            format!("{value} car"),
        ));
    }
    if !used.contains_key("car_color") {
        items.push((swatch("#b8b8b8"), "grey: no colour given".to_string()));
    }
    for value in used.get("car_len").into_iter().flatten() {
        let w = if *value == "long" { 24 } else { 14 };
        items.push((
            format!("<polygon points=\"0,-9 {w},-9 {w},1 0,1\" fill=\"none\" stroke=\"#000\"/>"),
            format!("{value} car"),
        ));
    }
    for value in used.get("has_payload").into_iter().flatten() {
        if *value == "none" {
            continue;
        }
        let (points, colour) = load_shape(value);
        let points: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{},{}", x + 8, y + 1))
            .collect();
        items.push((
            format!(
                "<polygon points=\"{}\" fill=\"#{:02x}{:02x}{:02x}\"/>",
                points.join(" "),
                colour.0,
                colour.1,
                colour.2
            ),
            format!("load: {}", value.replace('_', " ")),
        ));
    }
    let words = [
        ("has_roof", "roof"),
        ("has_wall", "wall"),
        ("has_window", "window"),
        ("has_wheel", "wheels"),
        ("load_num", "loads"),
    ];
    for (attribute, what) in words {
        if let Some(values) = used.get(attribute) {
            items.push((
                String::new(),
                format!("{what}: {}", values.join(", ").replace('_', " ")),
            ));
        }
    }
    if items.is_empty() {
        return (String::new(), 0);
    }
    // Items flow left to right in rows of fixed-width cells.
    let cell = 190;
    let per_row = ((width - 16) / cell).max(1) as usize;
    let rows = items.len().div_ceil(per_row) as i32;
    let mut out = format!(
        "<g class=\"legend\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <text x=\"8\" y=\"{}\" font-weight=\"bold\">Key</text>\n",
        top + 14
    );
    for (k, (mark, text)) in items.iter().enumerate() {
        let x = 8 + (k % per_row) as i32 * cell;
        let y = top + 36 + (k / per_row) as i32 * 20;
        out.push_str(&format!(
            "<g transform=\"translate({x},{y})\">{mark}<text x=\"{}\" y=\"0\">{}</text></g>\n",
            if mark.is_empty() { 0 } else { 30 },
            escape(text)
        ));
    }
    out.push_str("</g>\n");
    (out, 30 + rows * 20 + 8)
}

/// `text` with XML's special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A car's width: by its length, and wide enough for its caption, so the
/// captions of neighbouring cars never overlap.
fn car_width(car: &Car) -> i32 {
    let body = match car.attributes.get("car_len").map(String::as_str) {
        Some("long") => LONG,
        _ => SHORT,
    };
    body.max(caption(car).chars().count() as i32 * CAPTION_CHAR + 2)
}

/// The width of a caption character (plotters' 14, drawn at about 11.3 px,
/// sans-serif), an upper bound.
const CAPTION_CHAR: i32 = 8;

/// The text under a car: its type and passengers, where the vocabulary has them.
fn caption(car: &Car) -> String {
    let get = |name: &str| car.attributes.get(name).map(String::as_str);
    let mut caption = Vec::new();
    if let Some(kind) = get("car_type") {
        caption.push(kind.to_string());
    }
    if let Some(n) = get("passenger_num").filter(|n| *n != "0") {
        caption.push(format!("{n}p"));
    }
    caption.join(" ")
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type Drawn<'a> = Result<(), DrawingAreaErrorKind<<SVGBackend<'a> as DrawingBackend>::ErrorType>>;

/// One train at height `top`: its name, the engine, its cars.
fn draw_train<'a>(root: &Area<'a>, train: &Train, top: i32) -> Drawn<'a> {
    let black = BLACK.stroke_width(1);
    let base = top + 58; // the bottom of the car bodies
    root.draw(&Text::new(
        train.name.clone(),
        (8, base - 22),
        ("sans-serif", 16.0).into_font(),
    ))?;
    // The engine: a cab and a boiler, facing left.
    let x = LEFT;
    root.draw(&Polygon::new(
        vec![
            (x, base),
            (x, base - 22),
            (x + 10, base - 22),
            (x + 10, base - 34),
            (x + 16, base - 34),
            (x + 16, base - 22),
            (x + 34, base - 22),
            (x + 34, base - 40),
            (x + 50, base - 40),
            (x + 50, base),
        ],
        RGBColor(0x33, 0x33, 0x33).filled(),
    ))?;
    for cx in [x + 12, x + 38] {
        root.draw(&Circle::new((cx, base + 7), 7, black))?;
    }
    let mut left = x + 50 + GAP;
    for car in &train.cars {
        let w = car_width(car);
        draw_car(root, car, left, base, w)?;
        // The coupling to the car before.
        root.draw(&PathElement::new(
            vec![(left - GAP, base - 6), (left, base - 6)],
            black,
        ))?;
        left += w + GAP;
    }
    Ok(())
}

/// One car with its lower left corner at `(left, base)`.
fn draw_car<'a>(root: &Area<'a>, car: &Car, left: i32, base: i32, w: i32) -> Drawn<'a> {
    let get = |name: &str| car.attributes.get(name).map(String::as_str);
    let black = BLACK.stroke_width(1);
    let h = 28;
    let top = base - h;
    let fill = paint(get("car_color"));
    root.draw(&Rectangle::new(
        [(left, top), (left + w, base)],
        fill.filled(),
    ))?;
    root.draw(&Rectangle::new([(left, top), (left + w, base)], black))?;
    if get("has_wall") == Some("railing") {
        // A railing: open slats instead of a full wall (grey on a white car).
        let slat = if get("car_color") == Some("white") {
            RGBColor(0xB0, 0xB0, 0xB0)
        } else {
            WHITE
        };
        let mut x = left + 6;
        while x < left + w - 2 {
            root.draw(&PathElement::new(
                vec![(x, top), (x, base - 4)],
                slat.stroke_width(2),
            ))?;
            x += 8;
        }
    }
    match get("has_window") {
        Some("full") | Some("half") => {
            let bottom = if get("has_window") == Some("full") {
                top + 16
            } else {
                top + 10
            };
            let mut x = left + 5;
            while x + 10 < left + w - 2 {
                root.draw(&Polygon::new(
                    vec![(x, top + 4), (x + 9, top + 4), (x + 9, bottom), (x, bottom)],
                    WHITE.mix(0.85).filled(),
                ))?;
                x += 14;
            }
        }
        _ => {}
    }
    // The roof.
    let (l, r, t) = (left - 2, left + w + 2, top);
    match get("has_roof") {
        Some("peaked_roof") => {
            root.draw(&Polygon::new(
                vec![(l, t), (r, t), ((l + r) / 2, t - 14)],
                BLACK.filled(),
            ))?;
        }
        Some("solid_roof") => {
            root.draw(&Polygon::new(
                vec![(l, t), (r, t), (r, t - 7), (l, t - 7)],
                BLACK.filled(),
            ))?;
        }
        Some("braced_roof") => {
            root.draw(&PathElement::new(
                vec![(l, t - 8), (r, t - 8)],
                BLACK.stroke_width(2),
            ))?;
            let mut x = l;
            while x < r {
                root.draw(&PathElement::new(vec![(x, t), (x + 6, t - 8)], black))?;
                x += 6;
            }
        }
        Some("roof_foundation") => {
            root.draw(&PathElement::new(
                vec![(l, t - 2), (r, t - 2)],
                BLACK.stroke_width(3),
            ))?;
        }
        _ => {}
    }
    // The load, on the car.
    let loads: i32 = get("load_num").and_then(|n| n.parse().ok()).unwrap_or(0);
    if let Some(payload) = get("has_payload").filter(|p| *p != "none") {
        let lift = match get("has_roof") {
            Some("peaked_roof") => 16,
            Some("none") | None => 0,
            _ => 9,
        };
        let step = (w - 8) / loads.max(1);
        for k in 0..loads {
            let cx = left + 4 + step * k + step / 2;
            draw_load(root, payload, cx, t - lift)?;
        }
    }
    // The wheels, where the task gives them: a task that does not define
    // has_wheel shows no wheels, so nothing drawn is left to guess.
    let wheels: i32 = get("has_wheel").and_then(|n| n.parse().ok()).unwrap_or(0);
    for k in 0..wheels {
        let cx = left + (k + 1) * w / (wheels + 1);
        root.draw(&Circle::new((cx, base + 7), 6, black))?;
    }
    // Car type and passengers, where the vocabulary has them.
    let caption = caption(car);
    if !caption.is_empty() {
        root.draw(&Text::new(
            caption,
            (left + 1, base + 16),
            ("sans-serif", 14.0).into_font(),
        ))?;
    }
    Ok(())
}

/// One piece of load standing on `(cx, floor)`.
fn draw_load<'a>(root: &Area<'a>, payload: &str, cx: i32, floor: i32) -> Drawn<'a> {
    let (shape, colour) = load_shape(payload);
    let points: Vec<(i32, i32)> = shape.iter().map(|(x, y)| (cx + x, floor + y)).collect();
    root.draw(&Polygon::new(points, colour.filled()))?;
    Ok(())
}

/// A load's outline around its foot `(0, 0)`, and its colour.
fn load_shape(payload: &str) -> (Vec<(i32, i32)>, RGBColor) {
    match payload {
        "blue_box" => (
            vec![(-5, 0), (5, 0), (5, -10), (-5, -10)],
            RGBColor(0x1F, 0x4E, 0xA8),
        ),
        "golden_vase" => (
            vec![(-3, 0), (3, 0), (5, -6), (2, -12), (-2, -12), (-5, -6)],
            RGBColor(0xD4, 0xA0, 0x17),
        ),
        "barrel" => (
            vec![(-4, 0), (4, 0), (6, -5), (4, -11), (-4, -11), (-6, -5)],
            RGBColor(0x8B, 0x5A, 0x2B),
        ),
        "diamond" => (
            vec![(0, 0), (5, -6), (0, -12), (-5, -6)],
            RGBColor(0x7F, 0xD8, 0xF0),
        ),
        "metal_pot" => (
            vec![(-4, 0), (4, 0), (6, -8), (-6, -8)],
            RGBColor(0x80, 0x80, 0x80),
        ),
        "oval_vase" => (
            vec![
                (-2, 0),
                (2, 0),
                (5, -4),
                (5, -8),
                (2, -12),
                (-2, -12),
                (-5, -8),
                (-5, -4),
            ],
            RGBColor(0xA0, 0x50, 0xC0),
        ),
        _ => (vec![(-4, 0), (4, 0), (0, -10)], RGBColor(0x55, 0x55, 0x55)),
    }
}

/// The trains as text, one car per line, for the page's folded account.
pub(crate) fn describe(
    trains: &[Train],
    positive: &str,
    negative: &str,
    hide_labels: bool,
) -> String {
    let mut out = String::new();
    for train in trains {
        let label = match (hide_labels, train.label) {
            (true, _) | (_, None) => String::new(),
            (_, Some(true)) => format!(" ({positive})"),
            (_, Some(false)) => format!(" ({negative})"),
        };
        let held = if train.held_out { " [held out]" } else { "" };
        out.push_str(&format!("{}{label}{held}\n", train.name));
        for car in &train.cars {
            let attrs: Vec<String> = car
                .attributes
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            out.push_str(&format!("  car {}: {}\n", car.position, attrs.join(", ")));
        }
    }
    out
}

//! Grouped bar charts: one group of bars per category (a level, a tier, a
//! metric), one bar per series (a model) in each group. Drawn by plotters'
//! SVG backend; the numbers go in a table beside the drawing (see
//! [`super::Page`]).

use super::Error;
use plotters::prelude::*;

/// One model's values, one per category of its chart (`None`: no data, no bar).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    /// The model, as the legend names it.
    pub name: String,
    /// The values, in the order of the chart's categories.
    pub values: Vec<Option<f64>>,
    /// The colour of its bars (`#rrggbb`): a category's own colour, the
    /// same on every chart of a page ([`category_colour`]); `None` for a
    /// model, coloured by its place among the chart's series.
    pub colour: Option<String>,
    /// For a proportion, the successes and trials behind each value: the
    /// bar then carries its 95% Wilson interval. Empty, or `None` for a
    /// value that is not a proportion.
    pub counts: Vec<Option<(u64, u64)>>,
}

impl Series {
    /// A model's series.
    pub fn model(name: &str, values: Vec<Option<f64>>) -> Series {
        Series {
            name: name.to_string(),
            values,
            ..Series::default()
        }
    }

    /// A category's series (an error kind, a verdict), in its page-wide colour.
    pub fn category(name: &str, values: Vec<Option<f64>>) -> Series {
        Series {
            name: name.to_string(),
            colour: Some(category_colour(name)),
            values,
            counts: Vec::new(),
        }
    }

    /// The same series with the counts of its proportions.
    pub fn with_counts(mut self, counts: Vec<Option<(u64, u64)>>) -> Series {
        self.counts = counts;
        self
    }

    /// The counts behind value `i`, if it is a proportion.
    fn count(&self, i: usize) -> Option<(u64, u64)> {
        self.counts
            .get(i)
            .copied()
            .flatten()
            .filter(|(_, n)| *n > 0)
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, k as f64 / n as f64);
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The colours of categories (error kinds, verdicts, labels): each name
/// keeps its colour on every chart, and none is a model's colour
/// ([`PALETTE`]): dark, saturated tones beside Okabe–Ito's bright ones.
const CATEGORY_COLOURS: [(&str, &str); 21] = [
    ("correct", "#1b7837"),
    ("valid", "#1b7837"),
    ("wrong", "#8e0152"),
    ("no_rule", "#7f7f7f"),
    ("syntax", "#542788"),
    ("unsafe", "#7f3b08"),
    ("timeout", "#01665e"),
    ("resource", "#c51b7d"),
    ("runtime", "#4d4d4d"),
    ("input", "#b8b8b8"),
    ("engine_unsupported", "#bf812d"),
    ("engine_unavailable", "#35978f"),
    ("internal", "#1a1a1a"),
    ("insufficient_premise", "#d6604d"),
    ("invalid_deduction", "#8e0152"),
    ("bad_reference", "#542788"),
    ("rule_mismatch", "#7f3b08"),
    ("unreadable", "#7f7f7f"),
    ("misses the target", "#c51b7d"),
    ("support does not entail the target", "#01665e"),
    ("unknown", "#b8b8b8"),
];

/// Colours for categories not in [`CATEGORY_COLOURS`], picked by name.
const MORE_CATEGORY_COLOURS: [&str; 6] = [
    "#4d9221", "#a50026", "#313695", "#8c510a", "#762a83", "#5aae61",
];

/// A category's colour, the same wherever the name appears.
pub fn category_colour(name: &str) -> String {
    if let Some((_, colour)) = CATEGORY_COLOURS.iter().find(|(n, _)| *n == name) {
        return colour.to_string();
    }
    // FNV-1a of the name: the same on every run and every machine.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    MORE_CATEGORY_COLOURS[(hash % MORE_CATEGORY_COLOURS.len() as u64) as usize].to_string()
}

/// A grouped bar chart with what a reader needs to read it.
#[derive(Debug, Clone, PartialEq)]
pub struct BarChart {
    /// What the chart shows, as its caption.
    pub title: String,
    /// What the categories are (`curriculum level`).
    pub x_label: String,
    /// What the values are (`accuracy`).
    pub y_label: String,
    /// The categories, left to right.
    pub categories: Vec<String>,
    /// The series, in legend order.
    pub series: Vec<Series>,
    /// Values are rates in [0, 1] (the axis stops at 1, the table shows
    /// three decimals); otherwise counts.
    pub rates: bool,
    /// What the values rest on, as the chart states it: `n = 40 answers
    /// (model-a 20, model-b 20)`.
    pub n: String,
}

/// The series colours, in order: the Okabe–Ito palette, which stays apart
/// for colour-blind readers.
pub(crate) const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xF0, 0xE4, 0x42),
    RGBColor(0x00, 0x00, 0x00),
];

/// The colour of series `index`, as CSS writes it.
pub(crate) fn css_colour(index: usize) -> String {
    let RGBColor(r, g, b) = PALETTE[index % PALETTE.len()];
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// `n = N UNIT`, or per series `n = N UNIT (a N1, b N2)` when they differ.
pub fn n_statement(unit: &str, per_series: &[(String, u64)]) -> String {
    let total: u64 = per_series.iter().map(|(_, n)| n).sum();
    let same = per_series.windows(2).all(|w| w[0].1 == w[1].1);
    match per_series {
        [] => format!("n = 0 {unit}"),
        [(_, n)] => format!("n = {n} {}", unit_for(*n, unit)),
        [(_, n), ..] if same => format!("n = {n} {} per model", unit_for(*n, unit)),
        _ => {
            let parts: Vec<String> = per_series.iter().map(|(s, n)| format!("{s} {n}")).collect();
            format!(
                "n = {total} {} ({})",
                unit_for(total, unit),
                parts.join(", ")
            )
        }
    }
}

/// `n` and its unit: "1 instance", "2 instances".
pub fn counted(n: u64, unit: &str) -> String {
    format!("{n} {}", unit_for(n, unit))
}

/// `unit` (a plural such as "instances") as it reads after the count `n`:
/// "1 instance", "2 instances".
pub fn unit_for(n: u64, unit: &str) -> &str {
    match unit.strip_suffix('s') {
        Some(singular) if n == 1 => singular,
        _ => unit,
    }
}

/// The colour of series `j` of a chart.
fn series_colour(series: &Series, j: usize) -> RGBColor {
    let hex = series.colour.clone().unwrap_or_else(|| css_colour(j));
    let byte = |at: usize| u8::from_str_radix(hex.get(at..at + 2).unwrap_or("00"), 16).unwrap_or(0);
    RGBColor(byte(1), byte(3), byte(5))
}

impl BarChart {
    /// The chart without the categories no series has a value for (or, for
    /// counts, only zeros), so no empty group is drawn.
    pub fn without_empty(&self) -> BarChart {
        let keep: Vec<usize> = (0..self.categories.len())
            .filter(|&i| {
                self.series
                    .iter()
                    .any(|s| match s.values.get(i).copied().flatten() {
                        Some(v) => self.rates || v != 0.0,
                        None => false,
                    })
            })
            .collect();
        let pick = |values: &[Option<f64>]| -> Vec<Option<f64>> {
            keep.iter()
                .map(|&i| values.get(i).copied().flatten())
                .collect()
        };
        BarChart {
            categories: keep.iter().map(|&i| self.categories[i].clone()).collect(),
            series: self
                .series
                .iter()
                .map(|s| Series {
                    values: pick(&s.values),
                    counts: if s.counts.is_empty() {
                        Vec::new()
                    } else {
                        keep.iter()
                            .map(|&i| s.counts.get(i).copied().flatten())
                            .collect()
                    },
                    ..s.clone()
                })
                .collect(),
            ..self.clone()
        }
    }

    /// The colour of series `j`, as CSS writes it.
    pub(crate) fn colour(&self, j: usize) -> String {
        let RGBColor(r, g, b) = series_colour(&self.series[j], j);
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// The number of bars drawn: one per present value.
    pub fn bars(&self) -> usize {
        self.series
            .iter()
            .map(|s| s.values.iter().flatten().count())
            .sum()
    }

    /// The chart as an SVG document. Bars are the drawing's only filled
    /// rectangles (the background is left to the page), so a reader of the
    /// SVG can count them.
    pub fn to_svg(&self) -> Result<String, Error> {
        let n = self.categories.len().max(1);
        let groups = self.series.len().max(1);
        let label_len = self
            .categories
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(1);
        let slot = (groups * 14 + 16).max(label_len * 7 + 8);
        let width = (90 + n * slot).clamp(340, 1400) as u32;
        let y_top = if self.rates {
            1.0
        } else {
            let max = self
                .series
                .iter()
                .flat_map(|s| s.values.iter().flatten())
                .fold(0.0f64, |a, &b| a.max(b));
            (max * 1.1).max(1.0)
        };
        let categories = &self.categories;
        // plotters' integer ranges are inclusive: `0..n-1` makes n segments,
        // except that one segment needs a range of two.
        let last = (n - 1).max(1);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, 260)).into_drawing_area();
            let mut chart = ChartBuilder::on(&root)
                .margin(8)
                .x_label_area_size(36)
                .y_label_area_size(52)
                .build_cartesian_2d((0..last).into_segmented(), 0f64..y_top)
                .map_err(Error::drawing)?;
            let name = |x: &SegmentValue<usize>| match x {
                SegmentValue::CenterOf(i) => categories.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            };
            // Counts are whole: their axis marks whole numbers only.
            let whole = |v: &f64| format!("{v:.0}");
            let fraction = |v: &f64| format!("{v:.1}");
            let y_format: &dyn Fn(&f64) -> String = if self.rates { &fraction } else { &whole };
            let y_labels = if self.rates {
                11
            } else {
                (y_top.floor() as usize + 1).min(11)
            };
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(n)
                .y_labels(y_labels)
                .x_desc(self.x_label.as_str())
                .y_desc(self.y_label.as_str())
                .x_label_formatter(&name)
                .y_label_formatter(y_format)
                .label_style(("sans-serif", 14))
                .axis_desc_style(("sans-serif", 14))
                .draw()
                .map_err(Error::drawing)?;
            // The bars of a category share its segment: the chart's
            // coordinates place the segment, the bar's share of it is ours.
            let share = 0.8 / groups as f64;
            for (j, series) in self.series.iter().enumerate() {
                let style = series_colour(series, j).filled();
                for (i, v) in series.values.iter().enumerate() {
                    let Some(v) = v else { continue };
                    let (left, bottom) = chart.backend_coord(&(SegmentValue::Exact(i), 0.0));
                    let (right, top) =
                        chart.backend_coord(&(SegmentValue::Exact(i + 1), v.min(y_top)));
                    let span = (right - left) as f64;
                    let x0 = left + (span * (0.1 + j as f64 * share)).round() as i32;
                    let x1 = left + (span * (0.1 + (j + 1) as f64 * share)).round() as i32;
                    root.draw(&Rectangle::new([(x0, top), (x1, bottom)], style))
                        .map_err(Error::drawing)?;
                    // The 95% Wilson interval: a whisker, drawn as lines so
                    // bars stay the only filled rectangles.
                    if let Some((k, trials)) = series.count(i) {
                        let (low, high) = wilson(k, trials);
                        let (_, y_low) = chart.backend_coord(&(SegmentValue::Exact(i), low));
                        let (_, y_high) = chart.backend_coord(&(SegmentValue::Exact(i), high));
                        let mid = (x0 + x1) / 2;
                        let cap = ((x1 - x0) / 4).max(2);
                        let ink = BLACK.stroke_width(1);
                        for line in [
                            vec![(mid, y_low), (mid, y_high)],
                            vec![(mid - cap, y_low), (mid + cap, y_low)],
                            vec![(mid - cap, y_high), (mid + cap, y_high)],
                        ] {
                            root.draw(&PathElement::new(line, ink))
                                .map_err(Error::drawing)?;
                        }
                    }
                }
            }
            root.present().map_err(Error::drawing)?;
        }
        Ok(svg)
    }

    /// A value as the table prints it, with its interval and counts when
    /// it is a proportion (`0.500 [0.237, 0.763] (4/8)`).
    pub(crate) fn format(&self, series: &Series, i: usize) -> String {
        let value = series.values.get(i).copied().flatten();
        let text = match value {
            None => return "–".to_string(),
            Some(v) if self.rates => format!("{v:.3}"),
            Some(v) => format!("{:.0}", v),
        };
        match series.count(i) {
            Some((k, n)) => {
                let (low, high) = wilson(k, n);
                format!("{text} [{low:.3}, {high:.3}] ({k}/{n})")
            }
            None => text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::n_statement;

    #[test]
    fn one_item_reads_singular() {
        let one = [("m".to_string(), 1)];
        assert_eq!(n_statement("instances", &one), "n = 1 instance");
        let two = [("a".to_string(), 1), ("b".to_string(), 1)];
        assert_eq!(n_statement("instances", &two), "n = 1 instance per model");
        let mixed = [("a".to_string(), 1), ("b".to_string(), 3)];
        assert_eq!(n_statement("tasks", &mixed), "n = 4 tasks (a 1, b 3)");
        assert_eq!(n_statement("tasks", &[]), "n = 0 tasks");
    }
}

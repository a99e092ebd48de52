//! Grouped bar charts: one group of bars per category (a level, a tier, a
//! metric), one bar per series (a model) in each group. Drawn by plotters'
//! SVG backend; the numbers go in a table beside the drawing (see
//! [`super::Page`]).

use super::Error;
use plotters::prelude::*;

/// One model's values, one per category of its chart (`None`: no data, no bar).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The model, as the legend names it.
    pub name: String,
    /// The values, in the order of the chart's categories.
    pub values: Vec<Option<f64>>,
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

impl BarChart {
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
        let slot = (groups * 12 + 14).max(label_len * 7 + 6);
        let width = (90 + n * slot).clamp(320, 1400) as u32;
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
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(n)
                .x_desc(self.x_label.as_str())
                .y_desc(self.y_label.as_str())
                .x_label_formatter(&name)
                .label_style(("sans-serif", 12))
                .draw()
                .map_err(Error::drawing)?;
            // The bars of a category share its segment: the chart's
            // coordinates place the segment, the bar's share of it is ours.
            let share = 0.8 / groups as f64;
            for (j, series) in self.series.iter().enumerate() {
                let style = PALETTE[j % PALETTE.len()].filled();
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
                }
            }
            root.present().map_err(Error::drawing)?;
        }
        Ok(svg)
    }

    /// A value as the table prints it.
    pub(crate) fn format(&self, value: Option<f64>) -> String {
        match value {
            None => "–".to_string(),
            Some(v) if self.rates => format!("{v:.3}"),
            Some(v) if v.fract() == 0.0 => format!("{v}"),
            Some(v) => format!("{v:.2}"),
        }
    }
}

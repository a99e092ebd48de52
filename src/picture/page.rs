//! One self-contained HTML page: a header, sections, and figures, each a
//! drawing with its numbers. Styles are inline and nothing is loaded from
//! elsewhere, so the page reads the same offline.

use super::chart::BarChart;
use super::Error;

/// An HTML page being put together.
#[derive(Debug, Clone, Default)]
pub struct Page {
    title: String,
    body: String,
}

/// `text` with the characters HTML gives a meaning escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The page's look: plain, readable, printable.
const STYLE: &str =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1200px;color:#222;background:#fff}\
header{border-bottom:1px solid #ccc;margin-bottom:1em}\
h1{font-size:1.5em}h2{font-size:1.25em;margin-top:2em}\
figure{margin:1.2em 0;padding:.5em;border:1px solid #eee}\
figcaption{font-weight:bold;margin-bottom:.4em}\
figure{overflow-x:auto}\
table{border-collapse:collapse;font-size:.85em;margin-top:.4em}\
td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}\
th:first-child,td:first-child{text-align:left}\
.legend span{display:inline-block;margin-right:1em;font-size:.9em}\
.swatch{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:middle}\
.note{color:#555;font-size:.9em}\
.n{color:#444;font-size:.85em;margin:.1em 0 .3em}\
details{margin-top:.3em}";

impl Page {
    /// An empty page titled `title`.
    pub fn new(title: &str) -> Page {
        Page {
            title: title.to_string(),
            body: format!("<header><h1>{}</h1>\n", escape(title)),
        }
    }

    /// A line of the header (plain text), such as what was scored and when.
    pub fn header_line(&mut self, text: &str) {
        self.body.push_str(&format!("<p>{}</p>\n", escape(text)));
    }

    /// Closes the header; sections follow.
    pub fn end_header(&mut self) {
        self.body.push_str("</header>\n");
    }

    /// Starts a section titled `title`.
    pub fn section(&mut self, title: &str) {
        self.body.push_str(&format!("<h2>{}</h2>\n", escape(title)));
    }

    /// A short note in the current section.
    pub fn note(&mut self, text: &str) {
        self.body
            .push_str(&format!("<p class=\"note\">{}</p>\n", escape(text)));
    }

    /// A bar chart, its legend and the table of its numbers. The figure
    /// says how many bars it draws (`data-marks`), for a reader to check.
    pub fn chart(&mut self, chart: &BarChart) -> Result<(), Error> {
        let chart = &chart.without_empty();
        let svg = chart.to_svg()?;
        let mut legend = String::from("<div class=\"legend\">");
        for (j, s) in chart.series.iter().enumerate() {
            legend.push_str(&format!(
                "<span><i class=\"swatch\" style=\"background:{}\"></i>{}</span>",
                chart.colour(j),
                escape(&s.name)
            ));
        }
        if chart.series.iter().any(|s| !s.counts.is_empty()) {
            legend.push_str("<span>whiskers: 95% Wilson interval</span>");
        }
        legend.push_str("</div>");
        let mut table = format!("<table><tr><th>{}</th>", escape(&chart.x_label));
        for s in &chart.series {
            table.push_str(&format!("<th>{}</th>", escape(&s.name)));
        }
        table.push_str("</tr>");
        for (i, category) in chart.categories.iter().enumerate() {
            table.push_str(&format!("<tr><td>{}</td>", escape(category)));
            for s in &chart.series {
                table.push_str(&format!("<td>{}</td>", chart.format(s, i)));
            }
            table.push_str("</tr>");
        }
        table.push_str("</table>");
        self.body.push_str(&format!(
            "<figure class=\"chart\" data-marks=\"{}\"><figcaption>{}</figcaption>\n\
             <p class=\"n\">{}</p>\n{}\n{}\n{}</figure>\n",
            chart.bars(),
            escape(&chart.title),
            escape(&chart.n),
            strip_prolog(&svg),
            legend,
            table
        ));
        Ok(())
    }

    /// A drawing (an SVG document) with its caption; `marks` counts what it
    /// draws (cars, nodes), `details` is a plain-text account shown folded.
    pub fn drawing(&mut self, caption: &str, svg: &str, marks: usize, details: &str) {
        let folded = if details.is_empty() {
            String::new()
        } else {
            format!(
                "<details><summary>as text</summary><pre>{}</pre></details>",
                escape(details)
            )
        };
        self.body.push_str(&format!(
            "<figure class=\"drawing\" data-marks=\"{marks}\"><figcaption>{}</figcaption>\n{}\n{folded}</figure>\n",
            escape(caption),
            strip_prolog(svg)
        ));
    }

    /// The page as one HTML document.
    pub fn finish(self) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <title>{}</title><style>{STYLE}</style></head>\n<body>\n{}</body></html>\n",
            escape(&self.title),
            self.body
        )
    }
}

/// An SVG document without its XML declaration, to sit inside HTML.
fn strip_prolog(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(at) => &svg[at..],
        None => svg,
    }
}

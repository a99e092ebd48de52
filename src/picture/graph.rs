//! Directed graphs laid out in layers (Sugiyama style) by `layout-rs` and
//! written as SVG by its backend. Every node is drawn inside a group with
//! the class `node` and its kind (`node premise`), so a reader of the SVG
//! finds and counts nodes by class; edges carry the class `edge`.

use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::geometry::{Point, Position};
use layout::core::style::{LineStyleKind, StyleAttr};
use layout::std_shapes::render::get_shape_size;
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, ShapeKind};
use layout::topo::layout::VisualGraph;

/// The font size the layout sizes nodes by: `layout-rs` gives every
/// character a square of the font size, about twice what a character
/// takes, so nodes are sized at this size and their text drawn at [`FONT`].
/// (One size: the SVG backend declares one style class per size from a hash
/// map, so one size keeps its output deterministic.)
const LAYOUT_FONT: usize = 6;

/// The size text is drawn at, in pixels.
const FONT: usize = 12;

/// The height of a line of text at [`FONT`] (the backend's `1.0em`).
const LINE: f64 = FONT as f64;

/// The longest line of a node's label; longer labels wrap, up to
/// [`LABEL_LINES`] lines. The full text is the node's tooltip and is in the
/// page's textual account.
const LABEL_CHARS: usize = 22;

/// The most lines of a node's label.
const LABEL_LINES: usize = 3;

/// The space kept free around each node, in pixels (`layout-rs` keeps 60).
const HALO: f64 = 18.0;

/// How a node is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A box (premises, statements).
    Box,
    /// An ellipse (derived formulas).
    Ellipse,
    /// A double ellipse (the goal).
    Goal,
}

/// A node: its text, its kind (the CSS class after `node`), its look.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub label: String,
    pub kind: String,
    pub shape: Shape,
    /// Fill colour, `#rrggbb`.
    pub fill: String,
    /// Outline colour, `#rrggbb`.
    pub line: String,
    /// The full text, shown as the node's tooltip (SVG `<title>`); the
    /// label when empty.
    pub title: String,
}

/// One entry of a graph's key: a mark and what it means.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Key {
    /// A node look: its shape, fill, outline.
    Node(Shape, String, String, String),
    /// An edge look: colour, dashed.
    Edge(String, bool, String),
}

/// An edge from node `from` to node `to`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Edge {
    pub from: usize,
    pub to: usize,
    /// Text on the edge (may be empty).
    pub label: String,
    /// `#rrggbb`.
    pub colour: String,
    pub dashed: bool,
    /// The CSS class after `edge`.
    pub kind: String,
}

/// A graph to lay out.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// Lay layers out top to bottom (a chain of wide formulas) rather than
    /// left to right (many premises, few steps deep).
    pub vertical: bool,
    /// What the drawing's looks mean, drawn under it as its legend.
    pub key: Vec<Key>,
}

fn colour(css: &str) -> Color {
    Color::from_name(css).unwrap_or_else(|| Color::fast("black"))
}

/// `text` wrapped at spaces into lines of at most [`LABEL_CHARS`]
/// characters (a longer word is cut), at most [`LABEL_LINES`] of them, the
/// last ending in an ellipsis when text is left out.
fn short(text: &str) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let Some(line) = lines.last_mut() else { break };
            let used = line.chars().count();
            let room = LABEL_CHARS.saturating_sub(used + usize::from(used > 0));
            if word.len() <= room {
                if used > 0 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if used > 0 && word.len() <= LABEL_CHARS {
                lines.push(String::new());
                continue;
            }
            // A word longer than a line: cut it where the line ends.
            let (head, tail) = word.split_at(room.max(1).min(word.len()));
            if used > 0 {
                line.push(' ');
            }
            line.extend(head.iter());
            word = tail.to_vec();
            lines.push(String::new());
        }
    }
    if lines.last().is_some_and(String::is_empty) && lines.len() > 1 {
        lines.pop();
    }
    if lines.len() > LABEL_LINES {
        lines.truncate(LABEL_LINES);
        if let Some(last) = lines.last_mut() {
            let kept: String = last.chars().take(LABEL_CHARS - 1).collect();
            *last = format!("{kept}…");
        }
    }
    lines.join("\n")
}

/// `text` with XML's special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The numbers of attribute `name` in an SVG element's text.
fn attribute(element: &str, name: &str) -> Option<f64> {
    let at = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let rest = &element[at..];
    rest[..rest.find('"')?].trim().parse().ok()
}

/// The extent of what an SVG body draws: the bottom right corner of every
/// rectangle, ellipse, text line and path point. (`layout-rs` grows its
/// window by ten pixels per character of every text, downwards, so its own
/// size is far too large.)
fn extent(body: &str) -> (f64, f64) {
    let (mut w, mut h) = (0.0f64, 0.0f64);
    for element in body.split('<').skip(1) {
        let name = element.split([' ', '>', '\n']).next().unwrap_or("");
        match name {
            "rect" => {
                let x = attribute(element, "x").unwrap_or(0.0);
                let y = attribute(element, "y").unwrap_or(0.0);
                w = w.max(x + attribute(element, "width").unwrap_or(0.0));
                h = h.max(y + attribute(element, "height").unwrap_or(0.0));
            }
            "ellipse" => {
                let x = attribute(element, "cx").unwrap_or(0.0);
                let y = attribute(element, "cy").unwrap_or(0.0);
                w = w.max(x + attribute(element, "rx").unwrap_or(0.0));
                h = h.max(y + attribute(element, "ry").unwrap_or(0.0));
            }
            "text" => {
                if let (Some(x), Some(y)) = (attribute(element, "x"), attribute(element, "y")) {
                    h = h.max(y + FONT as f64 * 4.0);
                    w = w.max(x);
                }
            }
            "path" => {
                let Some(at) = element.find(" d=\"") else {
                    continue;
                };
                let d = &element[at + 4..];
                let d = &d[..d.find('"').unwrap_or(d.len())];
                let numbers: Vec<f64> = d
                    .split(|c: char| c == ' ' || c == ',' || c.is_ascii_alphabetic())
                    .filter_map(|n| n.parse().ok())
                    .collect();
                for pair in numbers.chunks(2) {
                    if let [x, y] = pair {
                        w = w.max(*x);
                        h = h.max(*y);
                    }
                }
            }
            _ => {}
        }
    }
    (w, h)
}

/// The backend's text with its lines centred at [`FONT`]: it places a text
/// of `n` lines from `(n + 1) / 2` lines of [`LAYOUT_FONT`] above the
/// middle, each line a `1.0em` ([`FONT`]) below the last.
fn centre_text(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find("<text dominant-baseline") {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest
            .find("</text>")
            .map_or(rest.len(), |e| e + "</text>".len());
        let element = &rest[..end];
        let lines = element.matches("<tspan").count().max(1) as f64;
        let moved = (|| {
            let from = element.find(" y=\"")? + 4;
            let to = from + element[from..].find('"')?;
            let y: f64 = element[from..to].trim().parse().ok()?;
            let layout = LAYOUT_FONT as f64;
            let centre = y + layout * (lines + 1.0) / 2.0;
            let first = centre - LINE * (lines - 1.0) / 2.0;
            Some(format!(
                "{}{}{}",
                &element[..from],
                first - LINE,
                &element[to..]
            ))
        })();
        out.push_str(moved.as_deref().unwrap_or(element));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A key's entries drawn as an SVG group of class `legend`, `width` wide,
/// from height `top`; and its height.
fn legend(key: &[Key], width: f64, top: f64) -> (String, f64) {
    if key.is_empty() {
        return (String::new(), 0.0);
    }
    let cell = 250.0;
    let per_row = ((width - 16.0) / cell).floor().max(1.0) as usize;
    let rows = key.len().div_ceil(per_row);
    let mut out = format!(
        "<g class=\"legend\" font-family=\"sans-serif\" font-size=\"{FONT}\">\n\
         <text x=\"8\" y=\"{}\" font-weight=\"bold\">Key</text>\n",
        top + 16.0
    );
    for (k, entry) in key.iter().enumerate() {
        let x = 8.0 + (k % per_row) as f64 * cell;
        let y = top + 40.0 + (k / per_row) as f64 * 24.0;
        let (mark, text) = match entry {
            Key::Node(shape, fill, line, text) => {
                let mark = match shape {
                    Shape::Box => format!(
                        "<rect class=\"key\" x=\"0\" y=\"-12\" width=\"36\" height=\"16\" \
                         fill=\"{fill}\" stroke=\"{line}\" stroke-width=\"2\"/>"
                    ),
                    Shape::Ellipse => format!(
                        "<ellipse cx=\"18\" cy=\"-4\" rx=\"18\" ry=\"9\" fill=\"{fill}\" \
                         stroke=\"{line}\" stroke-width=\"2\"/>"
                    ),
                    Shape::Goal => format!(
                        "<ellipse cx=\"18\" cy=\"-4\" rx=\"18\" ry=\"9\" fill=\"{fill}\" \
                         stroke=\"{line}\" stroke-width=\"2\"/><ellipse cx=\"18\" cy=\"-4\" \
                         rx=\"14\" ry=\"6\" fill=\"none\" stroke=\"{line}\"/>"
                    ),
                };
                (mark, text)
            }
            Key::Edge(colour, dashed, text) => {
                let dash = if *dashed {
                    " stroke-dasharray=\"5,5\""
                } else {
                    ""
                };
                (
                    format!(
                        "<path d=\"M 0 -4 L 36 -4\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>"
                    ),
                    text,
                )
            }
        };
        out.push_str(&format!(
            "<g transform=\"translate({x},{y})\">{mark}<text x=\"44\" y=\"0\">{}</text></g>\n",
            escape(text)
        ));
    }
    out.push_str("</g>\n");
    (out, 48.0 + rows as f64 * 24.0)
}

impl Graph {
    /// Adds a node and returns its index.
    pub(crate) fn add(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The graph laid out in layers, as an SVG document. Left to right,
    /// layers are columns, so many premises stack up rather than widen the
    /// page.
    pub(crate) fn to_svg(&self) -> String {
        let orientation = if self.vertical {
            Orientation::TopToBottom
        } else {
            Orientation::LeftToRight
        };
        let mut vg = VisualGraph::new(orientation);
        let handles: Vec<_> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let text = short(&n.label);
                let shape = match n.shape {
                    Shape::Box => ShapeKind::new_box(&text),
                    Shape::Ellipse => ShapeKind::new_circle(&text),
                    Shape::Goal => ShapeKind::new_double_circle(&text),
                };
                let look =
                    StyleAttr::new(colour(&n.line), 2, Some(colour(&n.fill)), 4, LAYOUT_FONT);
                let mut size = get_shape_size(orientation, &shape, LAYOUT_FONT, false);
                // Tall enough for its lines at the drawn size.
                let lines = text.lines().count().max(1) as f64;
                let pad = if n.shape == Shape::Box { 8.0 } else { 16.0 };
                size.y = size.y.max(lines * LINE + pad);
                let mut element = Element::create_with_properties(
                    shape,
                    look,
                    Orientation::LeftToRight,
                    size,
                    format!("class=\"node {}\" data-n=\"{i}\"", n.kind),
                );
                element.pos = Position::new(Point::zero(), size, Point::zero(), Point::splat(HALO));
                vg.add_node(element)
            })
            .collect();
        for e in &self.edges {
            let look = StyleAttr::new(colour(&e.colour), 2, None, 0, LAYOUT_FONT);
            let style = if e.dashed {
                LineStyleKind::Dashed
            } else {
                LineStyleKind::Normal
            };
            let arrow = Arrow::with_properties(
                LineEndKind::None,
                LineEndKind::Arrow,
                style,
                &e.label,
                &look,
                format!("class=\"edge {}\"", e.kind),
                &None,
                &None,
            );
            vg.add_edge(arrow, handles[e.from], handles[e.to]);
        }
        let mut svg = SVGWriter::new();
        if !self.nodes.is_empty() {
            vg.do_it(false, false, false, &mut svg);
        }
        self.finish(&svg.finalize())
    }

    /// The backend's SVG with its text at [`FONT`], a tooltip on every node,
    /// its size cut to what it draws, and the key under it.
    fn finish(&self, svg: &str) -> String {
        let Some(open) = svg.find("<svg ") else {
            return svg.to_string();
        };
        let Some(open_end) = svg[open..].find('>').map(|e| open + e + 1) else {
            return svg.to_string();
        };
        let close = svg.rfind("</svg>").unwrap_or(svg.len());
        let body = svg[open_end..close].replace(
            &format!(
                ".a{LAYOUT_FONT} {{ font-size: {LAYOUT_FONT}px; font-family: Times, serif; }}"
            ),
            &format!(".a{LAYOUT_FONT} {{ font-size: {FONT}px; font-family: Times, serif; }}"),
        );
        let mut body = centre_text(&body);
        for (i, n) in self.nodes.iter().enumerate() {
            let marker = format!("data-n=\"{i}\">");
            if let Some(at) = body.find(&marker) {
                let title = if n.title.is_empty() {
                    &n.label
                } else {
                    &n.title
                };
                let at = at + marker.len();
                body.insert_str(at, &format!("<title>{}</title>", escape(title)));
            }
        }
        let (w, h) = extent(&body);
        let w = (w + 10.0).max(self.key_width());
        let h = h + 10.0;
        let (key, key_height) = legend(&self.key, w, h);
        let total = h + key_height;
        format!(
            "{}<svg width=\"{w}\" height=\"{total}\" viewBox=\"0 0 {w} {total}\" \
             xmlns=\"http://www.w3.org/2000/svg\">{body}{key}</svg>\n",
            &svg[..open]
        )
    }

    /// The narrowest drawing the key fits in, in one column.
    fn key_width(&self) -> f64 {
        if self.key.is_empty() {
            return 0.0;
        }
        let longest = self
            .key
            .iter()
            .map(|k| match k {
                Key::Node(_, _, _, t) | Key::Edge(_, _, t) => t.chars().count(),
            })
            .max()
            .unwrap_or(0);
        60.0 + longest as f64 * 7.0
    }
}

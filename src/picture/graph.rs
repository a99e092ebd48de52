//! Directed graphs laid out in layers (Sugiyama style) by `layout-rs` and
//! written as SVG by its backend. Every node is drawn inside a group with
//! the class `node` and its kind (`node premise`), so a reader of the SVG
//! finds and counts nodes by class; edges carry the class `edge`.

use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::style::{LineStyleKind, StyleAttr};
use layout::std_shapes::render::get_shape_size;
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, ShapeKind};
use layout::topo::layout::VisualGraph;

/// The one font size of a graph: the SVG backend declares one style class
/// per size from a hash map, so one size keeps its output deterministic.
const FONT: usize = 13;

/// The longest label drawn in a node; the full text goes in the page's
/// textual account.
const LABEL_CHARS: usize = 44;

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
}

fn colour(css: &str) -> Color {
    Color::from_name(css).unwrap_or_else(|| Color::fast("black"))
}

/// `text` cut to [`LABEL_CHARS`] characters, with an ellipsis when cut.
fn short(text: &str) -> String {
    if text.chars().count() <= LABEL_CHARS {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(LABEL_CHARS - 1).collect();
    cut.push('…');
    cut
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
            .map(|n| {
                let text = short(&n.label);
                let shape = match n.shape {
                    Shape::Box => ShapeKind::new_box(&text),
                    Shape::Ellipse => ShapeKind::new_circle(&text),
                    Shape::Goal => ShapeKind::new_double_circle(&text),
                };
                let look = StyleAttr::new(colour(&n.line), 2, Some(colour(&n.fill)), 4, FONT);
                let size = get_shape_size(orientation, &shape, FONT, false);
                vg.add_node(Element::create_with_properties(
                    shape,
                    look,
                    Orientation::LeftToRight,
                    size,
                    format!("class=\"node {}\"", n.kind),
                ))
            })
            .collect();
        for e in &self.edges {
            let look = StyleAttr::new(colour(&e.colour), 2, None, 0, FONT);
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
        svg.finalize()
    }
}

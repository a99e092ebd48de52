//! The operator table.
//!
//! The reader uses SWI-Prolog 9's default table (as `current_op/3` reports
//! it), so text written for SWI reads the same here. The printer writes
//! operator notation only for operators that scryer-prolog also defines with
//! the same priority and type; every other operator is printed in functional
//! notation (`dynamic(foo/1)`), which both systems read identically.

/// How an operator takes its arguments, as in `op/3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpType {
    /// Prefix, argument priority strictly below the operator's.
    Fx,
    /// Prefix, argument priority up to the operator's.
    Fy,
    /// Infix, both arguments strictly below.
    Xfx,
    /// Infix, right argument up to the operator's (right-associative).
    Xfy,
    /// Infix, left argument up to the operator's (left-associative).
    Yfx,
}

/// One operator definition: `op(priority, type, name)`, plus whether the
/// printer may use it (scryer defines it identically).
#[derive(Debug, Clone, Copy)]
struct OpDef {
    priority: u16,
    kind: OpType,
    name: &'static str,
    portable: bool,
}

const fn op(priority: u16, kind: OpType, name: &'static str, portable: bool) -> OpDef {
    OpDef {
        priority,
        kind,
        name,
        portable,
    }
}

use OpType::*;

/// SWI-Prolog 9.0's default operators (the `.` dict operator, which SWI only
/// applies to dicts, is left out). `portable` marks those scryer-prolog 0.10
/// also defines by default with the same priority and type.
const TABLE: &[OpDef] = &[
    op(1200, Xfx, ":-", true),
    op(1200, Xfx, "-->", true),
    op(1200, Xfx, "=>", false),
    op(1200, Fx, ":-", true),
    op(1200, Fx, "?-", true),
    op(1150, Fx, "dynamic", false),
    op(1150, Fx, "discontiguous", false),
    op(1150, Fx, "initialization", false),
    op(1150, Fx, "meta_predicate", false),
    op(1150, Fx, "module_transparent", false),
    op(1150, Fx, "multifile", false),
    op(1150, Fx, "public", false),
    op(1150, Fx, "thread_local", false),
    op(1150, Fx, "thread_initialization", false),
    op(1150, Fx, "volatile", false),
    op(1150, Fx, "table", false),
    op(1105, Xfy, "|", false),
    op(1100, Xfy, ";", true),
    op(1050, Xfy, "->", true),
    op(1050, Xfy, "*->", false),
    op(1000, Xfy, ",", true),
    op(800, Xfx, ":=", false),
    op(900, Fy, "\\+", true),
    op(700, Xfx, "=", true),
    op(700, Xfx, "\\=", true),
    op(700, Xfx, "==", true),
    op(700, Xfx, "\\==", true),
    op(700, Xfx, "@<", true),
    op(700, Xfx, "@>", true),
    op(700, Xfx, "@=<", true),
    op(700, Xfx, "@>=", true),
    op(700, Xfx, "=..", true),
    op(700, Xfx, "is", true),
    op(700, Xfx, "=:=", true),
    op(700, Xfx, "=\\=", true),
    op(700, Xfx, "<", true),
    op(700, Xfx, ">", true),
    op(700, Xfx, "=<", true),
    op(700, Xfx, ">=", true),
    op(700, Xfx, ">:<", false),
    op(700, Xfx, ":<", false),
    op(700, Xfx, "as", false),
    op(700, Xfx, "=@=", false),
    op(700, Xfx, "\\=@=", false),
    op(600, Xfy, ":", true),
    op(500, Yfx, "+", true),
    op(500, Yfx, "-", true),
    op(500, Yfx, "/\\", true),
    op(500, Yfx, "\\/", true),
    op(500, Yfx, "xor", false),
    op(400, Yfx, "*", true),
    op(400, Yfx, "/", true),
    op(400, Yfx, "//", true),
    op(400, Yfx, "rdiv", true),
    op(400, Yfx, "rem", true),
    op(400, Yfx, "mod", true),
    op(400, Yfx, "div", true),
    op(400, Yfx, "<<", true),
    op(400, Yfx, ">>", true),
    op(200, Xfx, "**", true),
    op(200, Xfy, "^", true),
    op(200, Fy, "-", true),
    op(200, Fy, "+", true),
    op(200, Fy, "\\", true),
    op(1, Fx, "$", false),
];

/// Atoms scryer-prolog treats as operators although SWI does not; the
/// printer brackets them as operands so scryer reads them as plain atoms.
const SCRYER_ONLY: &[&str] = &["non_counted_backtracking"];

/// The operator table indexed by name.
struct ByName {
    /// Each name's definitions, in table order.
    definitions: std::collections::HashMap<&'static str, Vec<&'static OpDef>>,
    /// Per first byte, a bit per name length (lengths from 63 share bit 63)
    /// some operator has: most names the reader meets are no operator,
    /// and this tells so without hashing them.
    shapes: [u64; 256],
}

fn shape_bit(name: &str) -> u64 {
    1 << name.len().min(63)
}

/// The definitions of each operator name, in table order. The reader asks
/// for every name it reads, so this is a map rather than a scan.
fn definitions(name: &str) -> &'static [&'static OpDef] {
    static BY_NAME: once_cell::race::OnceBox<ByName> = once_cell::race::OnceBox::new();
    let by_name = BY_NAME.get_or_init(|| {
        let mut by_name = ByName {
            definitions: Default::default(),
            shapes: [0; 256],
        };
        for d in TABLE {
            by_name.definitions.entry(d.name).or_default().push(d);
            by_name.shapes[d.name.as_bytes()[0] as usize] |= shape_bit(d.name);
        }
        Box::new(by_name)
    });
    match name.as_bytes().first() {
        Some(&first) if by_name.shapes[first as usize] & shape_bit(name) != 0 => {
            by_name.definitions.get(name).map_or(&[], Vec::as_slice)
        }
        _ => &[],
    }
}

fn find(name: &str, infix: bool, portable_only: bool) -> Option<(u16, OpType)> {
    definitions(name)
        .iter()
        .find(|d| matches!(d.kind, Xfx | Xfy | Yfx) == infix && (d.portable || !portable_only))
        .map(|d| (d.priority, d.kind))
}

/// The reader's prefix definition of `name`, if any.
pub(crate) fn prefix(name: &str) -> Option<(u16, OpType)> {
    find(name, false, false)
}

/// The reader's infix definition of `name`, if any.
pub(crate) fn infix(name: &str) -> Option<(u16, OpType)> {
    find(name, true, false)
}

/// The prefix definition the printer may use for `name`.
pub(crate) fn print_prefix(name: &str) -> Option<(u16, OpType)> {
    find(name, false, true)
}

/// The infix definition the printer may use for `name`.
pub(crate) fn print_infix(name: &str) -> Option<(u16, OpType)> {
    find(name, true, true)
}

/// Whether either SWI-Prolog or scryer-prolog treats `name` as an operator,
/// so that the atom must be bracketed when it stands as an operand.
pub(crate) fn is_any_operator(name: &str) -> bool {
    !definitions(name).is_empty() || SCRYER_ONLY.contains(&name)
}

/// The maximum argument priorities `(left, right)` of an infix operator, or
/// `(0, arg)` for a prefix operator.
pub(crate) fn arg_priorities(priority: u16, kind: OpType) -> (u16, u16) {
    let below = priority.saturating_sub(1);
    match kind {
        Fx => (0, below),
        Fy => (0, priority),
        Xfx => (below, below),
        Xfy => (below, priority),
        Yfx => (priority, below),
    }
}

//! Bitwise functions (Trino docs functions/bitwise), typed by BitwiseFunctions' signatures.

use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr, UnaryOp};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, calls, scalar};
use super::math::sqlite::{
    QM_BIT_COUNT, QM_BITWISE_LEFT_SHIFT, QM_BITWISE_RIGHT_SHIFT, QM_BITWISE_RIGHT_SHIFT_ARITHMETIC,
};

const BIGINT_2: &[(&str, &str)] = &[("bigint, bigint", "bigint")];
/// The shifts keep the value's type; the shift is an integer.
const SHIFT: &[(&str, &str)] = &[
    ("tinyint, integer", "tinyint"),
    ("smallint, integer", "smallint"),
    ("integer, integer", "integer"),
    ("bigint, integer", "bigint"),
];

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "bit_count",
        BIGINT_2,
        Typing::Resolved,
        calls!(QM_BIT_COUNT),
        "Count number of set bits in 2's complement representation",
    ),
    scalar(
        "bitwise_not",
        &[("bigint", "bigint")],
        Typing::Resolved,
        Lower::Scalar(bitwise_not),
        "Bitwise NOT in 2's complement arithmetic",
    ),
    scalar(
        "bitwise_and",
        BIGINT_2,
        Typing::Resolved,
        Lower::Scalar(bitwise),
        "Bitwise AND in 2's complement arithmetic",
    ),
    scalar(
        "bitwise_or",
        BIGINT_2,
        Typing::Resolved,
        Lower::Scalar(bitwise),
        "Bitwise OR in 2's complement arithmetic",
    ),
    // SQLite has no XOR; a | b less a & b is it, and (a & b ⊆ a | b) never overflows.
    scalar(
        "bitwise_xor",
        BIGINT_2,
        Typing::Resolved,
        Lower::Scalar(bitwise),
        "Bitwise XOR in 2's complement arithmetic",
    ),
    scalar(
        "bitwise_left_shift",
        SHIFT,
        Typing::Resolved,
        Lower::Scalar(shift),
        "bitwise left shift",
    ),
    scalar(
        "bitwise_right_shift",
        SHIFT,
        Typing::Resolved,
        Lower::Scalar(shift),
        "bitwise logical right shift",
    ),
    scalar(
        "bitwise_right_shift_arithmetic",
        SHIFT,
        Typing::Resolved,
        calls!(QM_BITWISE_RIGHT_SHIFT_ARITHMETIC),
        "bitwise arithmetic right shift",
    ),
];

/// The left and logical right shifts work within the value's type's width.
fn shift(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ty = c.returns();
    let bits = match ty {
        TrinoType::TinyInt => 8,
        TrinoType::SmallInt => 16,
        TrinoType::Integer => 32,
        _ => 64,
    };
    let f = if c.name == "bitwise_left_shift" {
        QM_BITWISE_LEFT_SHIFT
    } else {
        QM_BITWISE_RIGHT_SHIFT
    };
    Ok(match c.args.as_slice() {
        [v, s] => Some(Typed::new(
            f.call([v.sql.clone(), s.sql.clone(), SqlExpr::Integer(bits)]),
            ty,
        )),
        _ => None,
    })
}

fn bitwise_not(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [a] => Some(Typed::new(
            SqlExpr::Unary(UnaryOp::BitNot, Box::new(a.sql.clone())),
            c.returns(),
        )),
        _ => None,
    })
}

/// bitwise_and, bitwise_or, and bitwise_xor as `(a | b) - (a & b)` (SQLite has no XOR).
fn bitwise(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a, b] = c.args.as_slice() else {
        return Ok(None);
    };
    let op = |l: &Typed, op, r: &Typed| SqlExpr::binary(l.sql.clone(), op, r.sql.clone());
    let sql = match c.name.as_str() {
        "bitwise_and" => op(a, BinaryOp::BitAnd, b),
        "bitwise_or" => op(a, BinaryOp::BitOr, b),
        _ => SqlExpr::binary(
            op(a, BinaryOp::BitOr, b),
            BinaryOp::Subtract,
            op(a, BinaryOp::BitAnd, b),
        ),
    };
    Ok(Some(Typed::new(sql, c.returns())))
}

//! Bitwise functions (Trino docs functions/bitwise), typed by BitwiseFunctions' signatures.

use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};

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
        Lower::Template("qm_bit_count({0}, {1})"),
        "Count number of set bits in 2's complement representation",
    ),
    scalar(
        "bitwise_not",
        &[("bigint", "bigint")],
        Typing::Resolved,
        Lower::Template("(~{0})"),
        "Bitwise NOT in 2's complement arithmetic",
    ),
    scalar(
        "bitwise_and",
        BIGINT_2,
        Typing::Resolved,
        Lower::Template("({0} & {1})"),
        "Bitwise AND in 2's complement arithmetic",
    ),
    scalar(
        "bitwise_or",
        BIGINT_2,
        Typing::Resolved,
        Lower::Template("({0} | {1})"),
        "Bitwise OR in 2's complement arithmetic",
    ),
    // SQLite has no XOR; a | b less a & b is it, and (a & b ⊆ a | b) never overflows.
    scalar(
        "bitwise_xor",
        BIGINT_2,
        Typing::Resolved,
        Lower::Template("(({0} | {1}) - ({0} & {1}))"),
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
        Lower::Template("qm_bitwise_right_shift_arithmetic({0}, {1})"),
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
    Ok(match c.sql().as_slice() {
        [v, s] => Some(Typed::new(format!("qm_{}({v}, {s}, {bits})", c.name), ty)),
        _ => None,
    })
}

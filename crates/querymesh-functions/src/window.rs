//! Window functions (Trino docs functions/window): ranking, lag/lead, value functions, and
//! aggregates OVER a window with PARTITION BY, ORDER BY and literal frames.

pub mod sqlite;

use querymesh_values::error::{ErrorName, TrinoError, error_at};
use querymesh_values::typed::{Constant, Typed};

use super::entry::{FunctionDef, Kind, Lower, Typing};

const fn window(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    description: &'static str,
) -> FunctionDef {
    FunctionDef {
        name,
        kind: Kind::Window,
        signatures,
        typing: Typing::ByLowering,
        lower: Lower::Window,
        description,
        deterministic: true,
    }
}

pub const FUNCTIONS: &[FunctionDef] = &[
    window(
        "row_number",
        &[("", "bigint")],
        "Unique, sequential number of the row within its partition",
    ),
    window(
        "rank",
        &[("", "bigint")],
        "Rank of the row within its partition, with gaps",
    ),
    window(
        "dense_rank",
        &[("", "bigint")],
        "Rank of the row within its partition, without gaps",
    ),
    window(
        "ntile",
        &[("bigint", "bigint")],
        "Bucket number of the row, the partition divided into n buckets",
    ),
    window(
        "percent_rank",
        &[("", "double")],
        "Percentage ranking of the row: (rank - 1) / (rows - 1)",
    ),
    window(
        "cume_dist",
        &[("", "double")],
        "Cumulative distribution of the row within its partition",
    ),
    window(
        "lag",
        &[("T", "T"), ("T, bigint", "T"), ("T, bigint, T", "T")],
        "Value offset rows before the current row",
    ),
    window(
        "lead",
        &[("T", "T"), ("T, bigint", "T"), ("T, bigint, T", "T")],
        "Value offset rows after the current row",
    ),
    window(
        "first_value",
        &[("T", "T")],
        "First value of the window frame",
    ),
    window(
        "last_value",
        &[("T", "T")],
        "Last value of the window frame",
    ),
    window(
        "nth_value",
        &[("T, bigint", "T")],
        "Value at the offset of the window frame",
    ),
];

/// A window function's count argument that must be at least `min`: refused while analysing
/// when it is a literal, checked per row (`qm_at_least`) otherwise.
/// Trino checks these while running, so its message has no `line L:C`.
pub fn checked_count(arg: &Typed, min: i64, message: &str) -> Result<String, TrinoError> {
    match arg.constant {
        Some(Constant::Int(n)) if n < min => {
            Err(error_at(ErrorName::InvalidFunctionArgument, None, message))
        }
        Some(Constant::Int(_)) => Ok(arg.sql.clone()),
        _ => Ok(format!(
            "qm_at_least({}, {min}, {})",
            arg.sql,
            querymesh_values::sqlite_text::sql_string(message)
        )),
    }
}

//! Window functions (Trino docs functions/window): ranking, lag/lead, value functions, and
//! aggregates OVER a window with PARTITION BY, ORDER BY and literal frames.

pub mod rows_frame;
pub mod sqlite;

use querymesh_values::error::{ErrorName, TrinoError, error_at};
use querymesh_values::sqlite_expr::{SqlExpr, SqliteFn, builtin};
use querymesh_values::typed::{Constant, Typed};

use super::aggregate::checksum::Kind as Checksum;
use super::aggregate::sqlite as aggregates;
use super::entry::{FunctionDef, Kind, Lower, Typing};
use super::geospatial::sqlite as geospatial;
use super::setdigest::sqlite as setdigest;
use super::sketch::sqlite as sketches;
use super::udf::numbers::QM_AT_LEAST;

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
pub fn checked_count(arg: &Typed, min: i64, message: &str) -> Result<SqlExpr, TrinoError> {
    match arg.constant {
        Some(Constant::Int(n)) if n < min => {
            Err(error_at(ErrorName::InvalidFunctionArgument, None, message))
        }
        Some(Constant::Int(_)) => Ok(arg.sql.clone()),
        _ => Ok(QM_AT_LEAST.call([
            arg.sql.clone(),
            SqlExpr::Integer(min),
            SqlExpr::text(message),
        ])),
    }
}

/// Whether a call of `function` over `args` in a lowering is an aggregate (a name with a
/// window form; not a scalar `min`/`max` of several values).
pub fn is_aggregate(function: SqliteFn, args: &[SqlExpr]) -> bool {
    let name = function.name();
    window_form(name).is_some() && !((name == "min" || name == "max") && args.len() > 1)
}

/// How a SQLite aggregate the lowerings write runs over a window: `Some(true)` under its
/// window form's name (`<name>_over`, udf/replayed.rs), `Some(false)` under its own name
/// (SQLite's aggregates and the `qm_*` registered with `define_window`), `None`: not an
/// aggregate. min and max are aggregates only with one argument (the caller counts).
pub fn window_form(name: &str) -> Option<bool> {
    const OWN_NAME: &[&str] = &[
        builtin::COUNT.name(),
        builtin::SUM.name(),
        builtin::AVG.name(),
        builtin::TOTAL.name(),
        builtin::MIN.name(),
        builtin::MAX.name(),
        "group_concat",
        "json_group_array",
        "json_group_object",
        sqlite::QM_NTH_NON_NULL.name(),
        sqlite::QM_COUNT_DISTINCT.name(),
        rows_frame::QM_ROWS_FRAME.name(),
        // Registered by the map, decimal and array families.
        "qm_map_agg",
        "qm_multimap_agg",
        "qm_histogram",
        super::udf::decimals::QM_DEC_SUM.name(),
        super::udf::decimals::QM_DEC_AVG.name(),
        "qm_array_agg",
        // A digest takes no value back out: a frame whose start moves is refused
        // (setdigest/sqlite.rs).
        setdigest::QM_MAKE_SET_DIGEST.name(),
        setdigest::QM_MERGE_SET_DIGEST.name(),
    ];
    if OWN_NAME.contains(&name) {
        return Some(false);
    }
    REPLAYED.contains(&name).then_some(true)
}

/// The aggregates registered with `define_replayable` (a window form `<name>_over` beside).
const REPLAYED: &[&str] = &[
    aggregates::QM_LISTAGG.name(),
    aggregates::QM_MAX_BY.name(),
    aggregates::QM_MIN_BY.name(),
    aggregates::QM_PERCENTILE.name(),
    aggregates::QM_BITWISE_AND.name(),
    aggregates::QM_BITWISE_OR.name(),
    aggregates::QM_BITWISE_XOR.name(),
    aggregates::QM_MAX_N.name(),
    aggregates::QM_MIN_N.name(),
    aggregates::QM_MAX_BY_N.name(),
    aggregates::QM_MIN_BY_N.name(),
    aggregates::QM_CORR.name(),
    aggregates::QM_CORR_REAL.name(),
    aggregates::QM_COVAR_POP.name(),
    aggregates::QM_COVAR_POP_REAL.name(),
    aggregates::QM_COVAR_SAMP.name(),
    aggregates::QM_COVAR_SAMP_REAL.name(),
    aggregates::QM_REGR_SLOPE.name(),
    aggregates::QM_REGR_SLOPE_REAL.name(),
    aggregates::QM_REGR_INTERCEPT.name(),
    aggregates::QM_REGR_INTERCEPT_REAL.name(),
    aggregates::QM_SKEWNESS.name(),
    aggregates::QM_KURTOSIS.name(),
    Checksum::Long.function().name(),
    Checksum::Real.function().name(),
    Checksum::Double.function().name(),
    Checksum::ShortDecimal.function().name(),
    Checksum::LongDecimal.function().name(),
    Checksum::Char.function().name(),
    Checksum::Date.function().name(),
    Checksum::Timestamp.function().name(),
    Checksum::Bytes.function().name(),
    Checksum::Hashed.function().name(),
    // The sketches (sketch/sqlite/).
    sketches::QM_APPROX_SET.name(),
    sketches::QM_MERGE_HLL.name(),
    sketches::QM_QDIGEST_AGG.name(),
    sketches::QM_QDIGEST_AGG_WEIGHTED.name(),
    sketches::QM_MERGE_QDIGEST.name(),
    sketches::QM_TDIGEST_AGG.name(),
    sketches::QM_TDIGEST_AGG_WEIGHTED.name(),
    sketches::QM_MERGE_TDIGEST.name(),
    sketches::QM_NUMERIC_HISTOGRAM.name(),
    sketches::QM_NUMERIC_HISTOGRAM_WEIGHTED.name(),
    sketches::QM_APPROX_MOST_FREQUENT.name(),
    // The geospatial aggregates (geospatial/sqlite/).
    geospatial::QM_CONVEX_HULL_AGG.name(),
    geospatial::QM_GEOMETRY_UNION_AGG.name(),
];

#[cfg(test)]
mod window_form_tests {
    use super::*;

    /// Every aggregate registered on a connection has its way over a window listed, so the
    /// analysis never writes OVER after an aggregate SQLite can't run as a window.
    #[test]
    fn every_registered_aggregate_has_a_window_form() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        crate::sqlite::register(&conn).unwrap();
        let mut stmt = conn
            .prepare("SELECT DISTINCT name, type FROM pragma_function_list WHERE name LIKE 'qm%'")
            .unwrap();
        let functions: Vec<(String, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let registered =
            |name: &str, kind: &str| functions.iter().any(|(n, k)| n == name && k == kind);
        for (name, kind) in &functions {
            match kind.as_str() {
                "w" if name.ends_with(crate::udf::WINDOW_FORM_SUFFIX) => {
                    let plain = name.trim_end_matches(crate::udf::WINDOW_FORM_SUFFIX);
                    assert_eq!(window_form(plain), Some(true), "{name}");
                }
                "w" => assert_eq!(window_form(name), Some(false), "{name}"),
                "a" if name == "qm_map_union" => {}
                "a" => assert_eq!(window_form(name), Some(true), "{name}"),
                _ => {}
            }
        }
        for name in REPLAYED {
            assert!(registered(name, "a"), "{name}");
            let over = format!("{name}{}", crate::udf::WINDOW_FORM_SUFFIX);
            assert!(registered(&over, "w"), "{over}");
        }
    }
}

//! Window functions (Trino docs functions/window): ranking, lag/lead, value functions, and
//! aggregates OVER a window with PARTITION BY, ORDER BY and literal frames.

pub mod rows_frame;
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
        Some(Constant::Int(_)) => Ok(arg.sql.to_string()),
        _ => Ok(format!(
            "qm_at_least({}, {min}, {})",
            arg.sql,
            querymesh_values::sqlite_text::sql_string(message)
        )),
    }
}

/// How a SQLite aggregate the lowerings write runs over a window: `Some(true)` under its
/// window form's name (`<name>_over`, udf/replayed.rs), `Some(false)` under its own name
/// (SQLite's aggregates and the `qm_*` registered with `define_window`), `None`: not an
/// aggregate. min and max are aggregates only with one argument (the caller counts).
pub fn window_form(name: &str) -> Option<bool> {
    const OWN_NAME: &[&str] = &[
        "count",
        "sum",
        "avg",
        "total",
        "min",
        "max",
        "group_concat",
        "json_group_array",
        "json_group_object",
        "qm_nth_non_null",
        "qm_count_distinct",
        "qm_rows_frame",
        "qm_map_agg",
        "qm_multimap_agg",
        "qm_histogram",
        "qm_dec_sum",
        "qm_dec_avg",
        "qm_array_agg",
        // A digest takes no value back out: a frame whose start moves is refused
        // (setdigest/sqlite.rs).
        "qm_make_set_digest",
        "qm_merge_set_digest",
    ];
    if OWN_NAME.contains(&name) {
        return Some(false);
    }
    REPLAYED.contains(&name).then_some(true)
}

/// The aggregates registered with `define_replayable` (a window form `<name>_over` beside).
const REPLAYED: &[&str] = &[
    "qm_listagg",
    "qm_max_by",
    "qm_min_by",
    "qm_percentile",
    "qm_bitwise_and",
    "qm_bitwise_or",
    "qm_bitwise_xor",
    "qm_max_n",
    "qm_min_n",
    "qm_max_by_n",
    "qm_min_by_n",
    "qm_corr",
    "qm_corr_real",
    "qm_covar_pop",
    "qm_covar_pop_real",
    "qm_covar_samp",
    "qm_covar_samp_real",
    "qm_regr_slope",
    "qm_regr_slope_real",
    "qm_regr_intercept",
    "qm_regr_intercept_real",
    "qm_skewness",
    "qm_kurtosis",
    "qm_checksum_long",
    "qm_checksum_real",
    "qm_checksum_double",
    "qm_checksum_short_decimal",
    "qm_checksum_long_decimal",
    "qm_checksum_char",
    "qm_checksum_date",
    "qm_checksum_timestamp",
    "qm_checksum_bytes",
    "qm_checksum_hashed",
    // The sketches (sketch/sqlite/).
    "qm_approx_set",
    "qm_merge_hll",
    "qm_qdigest_agg",
    "qm_qdigest_agg_weighted",
    "qm_merge_qdigest",
    "qm_tdigest_agg",
    "qm_tdigest_agg_weighted",
    "qm_merge_tdigest",
    "qm_numeric_histogram",
    "qm_numeric_histogram_weighted",
    "qm_approx_most_frequent",
    // The geospatial aggregates (geospatial/sqlite/).
    "qm_convex_hull_agg",
    "qm_geometry_union_agg",
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

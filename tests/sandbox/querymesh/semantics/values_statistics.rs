//! VALUES as Trino 476 analyses it, and `SHOW STATS FOR` a query Trino folds into constant
//! rows. Every expected answer here is Trino 476's, checked against it.

use serde_json::json;

use super::{check_errors, check_rows};
use crate::support::engine::engine;

/// StatementAnalyzer.visitValues: every row is analysed before rows are compared; each row is a
/// row type (`row(integer)` for `VALUES 1`); a mismatch names the first row's type and the
/// differing one, at the VALUES keyword.
#[test]
fn values_rows_that_do_not_match_are_refused_at_values_naming_row_types() {
    check_errors(
        &engine(),
        &[
            (
                "VALUES (1, 2), (3)",
                "TYPE_MISMATCH: line 1:1: Values rows have mismatched sizes: 2 vs 1",
            ),
            // Was an internal error: the longer row's extra column had no type.
            (
                "VALUES (1, 2), (3, 4, 5)",
                "TYPE_MISMATCH: line 1:1: Values rows have mismatched sizes: 2 vs 3",
            ),
            (
                "VALUES 1.5, 2, 'x'",
                "TYPE_MISMATCH: line 1:1: Values rows have mismatched types: row(decimal(2,1)) vs row(varchar(1))",
            ),
            (
                "SELECT 1 FROM (VALUES (1, 'a'), (2, 3)) t",
                "TYPE_MISMATCH: line 1:16: Values rows have mismatched types: row(integer, varchar(1)) vs row(integer, integer)",
            ),
            (
                "VALUES CAST(ROW(1) AS ROW(a integer)), 'x'",
                "TYPE_MISMATCH: line 1:1: Values rows have mismatched types: row(a integer) vs row(varchar(1))",
            ),
            (
                "VALUES (1, 'a'), (2, nope)",
                "COLUMN_NOT_FOUND: line 1:22: Column 'nope' cannot be resolved",
            ),
        ],
    );
}

/// ValuesStatsRule (core/trino-main/.../cost/ValuesStatsRule.java) as ShowStatsRewrite prints
/// it: no data size, distinct non-null values, the nulls' fraction, and bounds for types
/// with a numeric representation; an all-null column is Trino's zero estimate.
#[test]
fn show_stats_of_constant_rows_is_computed_from_the_rows() {
    check_rows(
        &engine(),
        &[
            (
                "SHOW STATS FOR (SELECT 1)",
                json!([
                    ["_col0", null, 1.0, 0.0, null, "1", "1"],
                    [null, null, null, null, 1.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (VALUES (1, 'a'), (1, 'b'), (NULL, 'a'))",
                json!([
                    ["_col0", null, 1.0, 0.3333333333333333, null, "1", "1"],
                    ["_col1", null, 2.0, 0.0, null, null, null],
                    [null, null, null, null, 3.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT NULL, CAST(NULL AS integer))",
                json!([
                    ["_col0", 0.0, 0.0, 1.0, null, null, null],
                    ["_col1", 0.0, 0.0, 1.0, null, null, null],
                    [null, null, null, null, 1.0, null, null]
                ]),
            ),
            // Bounds: Double.toString for doubles and decimals, Float.toString for reals,
            // booleans and dates as text, an infinite bound unknown.
            (
                "SHOW STATS FOR (VALUES 0.10, 100.00)",
                json!([
                    ["_col0", null, 2.0, 0.0, null, "0.1", "100.0"],
                    [null, null, null, null, 2.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (VALUES 1e300, 1e-5, 1e7)",
                json!([
                    ["_col0", null, 3.0, 0.0, null, "1.0E-5", "1.0E300"],
                    [null, null, null, null, 3.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (VALUES REAL '0.1', REAL 'Infinity')",
                json!([
                    ["_col0", null, 2.0, 0.0, null, "0.1", null],
                    [null, null, null, null, 2.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT true x, DATE '2020-01-02' y)",
                json!([
                    ["x", null, 1.0, 0.0, null, "true", "true"],
                    ["y", null, 1.0, 0.0, null, "2020-01-02", "2020-01-02"],
                    [null, null, null, null, 1.0, null, null]
                ]),
            ),
            // Timestamps as their text, in UTC for those with a zone.
            (
                "SHOW STATS FOR (VALUES TIMESTAMP '2020-01-01 00:00:00.120 America/New_York')",
                json!([
                    [
                        "_col0",
                        null,
                        1.0,
                        0.0,
                        null,
                        "2020-01-01 05:00:00.120 UTC",
                        "2020-01-01 05:00:00.120 UTC"
                    ],
                    [null, null, null, null, 1.0, null, null]
                ]),
            ),
            // Arrays are never equal to each other there: each is distinct.
            (
                "SHOW STATS FOR (VALUES (ARRAY[1]), (ARRAY[1]), (NULL))",
                json!([
                    ["_col0", null, 2.0, 0.3333333333333333, null, null, null],
                    [null, null, null, null, 3.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT extract(YEAR FROM DATE '2020-05-01') AS y, upper('a'))",
                json!([
                    ["y", null, 1.0, 0.0, null, "2020", "2020"],
                    ["_col1", null, 1.0, 0.0, null, null, null],
                    [null, null, null, null, 1.0, null, null]
                ]),
            ),
        ],
    );
}

/// Constant rows Trino estimates rather than folds (random(); aggregates and subqueries:
/// constant_stats.rs's own tests) stay refused (a filtered table's estimate:
/// filtered_statistics.rs); an error inside the query is placed where it stands in the
/// statement.
#[test]
fn show_stats_refuses_estimates_and_places_errors_in_the_statement() {
    check_errors(
        &engine(),
        &[
            (
                "SHOW STATS FOR (SELECT random())",
                "NOT_SUPPORTED: line 1:16: SHOW STATS FOR a query",
            ),
            (
                "SHOW STATS FOR\n  (SELECT 1,\n     nope)",
                "COLUMN_NOT_FOUND: line 3:6: Column 'nope' cannot be resolved",
            ),
            (
                "SHOW STATS FOR (VALUES 1, 'a')",
                "TYPE_MISMATCH: line 1:17: Values rows have mismatched types: row(integer) vs row(varchar(1))",
            ),
        ],
    );
}

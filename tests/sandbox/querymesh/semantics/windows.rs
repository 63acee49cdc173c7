//! Named windows, IGNORE NULLS and frames, as trinodb/trino docs/src/main/sphinx/sql/select.md
//! ("WINDOW clause") and functions/window.md describe them; each answer is the pinned Trino
//! 476's (the window_functions parity corpus).

use serde_json::json;

use super::{check_errors, check_rows};
use crate::support::engine::engine;

#[test]
fn named_windows() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT x, lag(x) OVER w, lead(x) OVER w FROM (VALUES 5, 6, 7) t(x) \
                 WINDOW w AS (ORDER BY x DESC) ORDER BY x",
                json!([[5, 6, null], [6, 7, 5], [7, null, 6]]),
            ),
            // A definition refining an earlier one, and an OVER refining a definition.
            (
                "SELECT x, sum(x) OVER w1, max(x) OVER w2 FROM (VALUES 1, 2, 3, 4) t(x) \
                 WINDOW w1 AS (ORDER BY x), w2 AS (w1 ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) \
                 ORDER BY x",
                json!([[1, 1, 2], [2, 3, 3], [3, 6, 4], [4, 10, 4]]),
            ),
            (
                "SELECT x, row_number() OVER (w ORDER BY x DESC) FROM (VALUES (1, 1), (2, 1), (3, 2)) t(x, p) \
                 WINDOW w AS (PARTITION BY p) ORDER BY x",
                json!([[1, 2], [2, 1], [3, 1]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT x, rank() OVER w FROM (VALUES 1) t(x)",
                "INVALID_WINDOW_REFERENCE: line 1:23: Cannot resolve WINDOW name w",
            ),
            (
                "SELECT x FROM (VALUES 1) t(x) WINDOW w AS (ORDER BY x), w AS (ORDER BY x)",
                "DUPLICATE_WINDOW_NAME",
            ),
            (
                "SELECT sum(x) OVER (w PARTITION BY x) FROM (VALUES 1) t(x) WINDOW w AS (ORDER BY x)",
                "INVALID_PARTITION_BY",
            ),
            (
                "SELECT sum(x) OVER (w ORDER BY x) FROM (VALUES 1) t(x) WINDOW w AS (ORDER BY x)",
                "INVALID_ORDER_BY",
            ),
            (
                "SELECT sum(x) OVER (w) FROM (VALUES 1) t(x) WINDOW w AS (ORDER BY x ROWS 1 PRECEDING)",
                "INVALID_WINDOW_REFERENCE",
            ),
        ],
    );
}

const NULLS: &str = "(VALUES (1, 10), (2, NULL), (3, NULL), (4, 40), (5, NULL)) t(k, x)";

#[test]
fn ignore_nulls() {
    let engine = engine();
    let q = |call: &str| format!("SELECT {call} FROM {NULLS} ORDER BY k");
    check_rows(
        &engine,
        &[
            (
                &q("lag(x) IGNORE NULLS OVER (ORDER BY k)"),
                json!([[null], [10], [10], [10], [40]]),
            ),
            (
                &q("lead(x) IGNORE NULLS OVER (ORDER BY k)"),
                json!([[40], [40], [40], [null], [null]]),
            ),
            (
                &q("lag(x, 1, 0) IGNORE NULLS OVER (ORDER BY k)"),
                json!([[0], [10], [10], [10], [40]]),
            ),
            (
                &q(
                    "last_value(x) IGNORE NULLS OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
                ),
                json!([[10], [10], [10], [40], [40]]),
            ),
            (
                &q(
                    "first_value(x) IGNORE NULLS OVER (ORDER BY k ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)",
                ),
                json!([[40], [40], [40], [null], [null]]),
            ),
            (
                &q(
                    "nth_value(x, 2) IGNORE NULLS OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)",
                ),
                json!([[40], [40], [40], [40], [40]]),
            ),
            // count(DISTINCT x) over the whole partition and over a running frame.
            (
                "SELECT x, count(DISTINCT x) OVER (), count(DISTINCT x) OVER (ORDER BY x) \
                 FROM (VALUES 1, 1, 2, NULL) t(x) ORDER BY x",
                json!([[1, 2, 1], [1, 2, 1], [2, 2, 2], [null, 2, 2]]),
            ),
            (
                &q(
                    "first_value(x) RESPECT NULLS OVER (ORDER BY k ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)",
                ),
                json!([[null], [null], [40], [null], [null]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT rank() IGNORE NULLS OVER (ORDER BY x) FROM (VALUES 1) t(x)",
            "NULL_TREATMENT_NOT_ALLOWED",
        )],
    );
}

#[test]
fn range_frames_with_offsets() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND 0.5 FOLLOWING) \
                 FROM (VALUES 1.0, 2.0, 2.5, 4.0) t(x) ORDER BY x",
                json!([
                    ["1.0", "1.0"],
                    ["2.0", "5.5"],
                    ["2.5", "5.5"],
                    ["4.0", "6.5"]
                ]),
            ),
            (
                "SELECT d, count(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '2' DAY PRECEDING AND CURRENT ROW) \
                 FROM (VALUES DATE '2024-02-27', DATE '2024-02-28', DATE '2024-02-29', DATE '2024-03-01', DATE '2024-03-04') t(d) ORDER BY d",
                json!([
                    ["2024-02-27", 1],
                    ["2024-02-28", 2],
                    ["2024-02-29", 3],
                    ["2024-03-01", 3],
                    ["2024-03-04", 1]
                ]),
            ),
            (
                "SELECT ts, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) \
                 FROM (VALUES TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 00:30:00', \
                 TIMESTAMP '2024-01-01 01:15:00', TIMESTAMP '2024-01-01 03:00:00') t(ts) ORDER BY ts",
                json!([
                    ["2024-01-01 00:00:00", 1],
                    ["2024-01-01 00:30:00", 2],
                    ["2024-01-01 01:15:00", 2],
                    ["2024-01-01 03:00:00", 1]
                ]),
            ),
            (
                "SELECT d, count(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND CURRENT ROW) \
                 FROM (VALUES DATE '2024-01-15', DATE '2024-02-14', DATE '2024-02-15', DATE '2024-03-16') t(d) ORDER BY d",
                json!([
                    ["2024-01-15", 1],
                    ["2024-02-14", 2],
                    ["2024-02-15", 3],
                    ["2024-03-16", 1]
                ]),
            ),
        ],
    );
    let one = |over: &str| format!("SELECT sum(x) OVER ({over}) FROM (VALUES 1) t(x)");
    check_errors(
        &engine,
        &[
            (
                &one("ORDER BY x ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW"),
                "INVALID_WINDOW_FRAME: line 1:",
            ),
            (
                &one("ORDER BY x ROWS BETWEEN CURRENT ROW AND 1 PRECEDING"),
                "INVALID_WINDOW_FRAME",
            ),
            (
                &one("ORDER BY x ROWS BETWEEN -1 PRECEDING AND CURRENT ROW"),
                "INVALID_WINDOW_FRAME: Window frame offset value must not be negative or null",
            ),
            (
                &one("RANGE BETWEEN 1 PRECEDING AND CURRENT ROW"),
                "MISSING_ORDER_BY",
            ),
            (
                &one("ORDER BY x, x RANGE BETWEEN 1 PRECEDING AND CURRENT ROW"),
                "INVALID_ORDER_BY",
            ),
            (
                &one("ORDER BY x RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND CURRENT ROW"),
                "TYPE_MISMATCH",
            ),
            (&one("ORDER BY x ROWS 1.5 PRECEDING"), "TYPE_MISMATCH"),
            (
                "SELECT count(*) OVER (ORDER BY x RANGE 1 PRECEDING) FROM (VALUES 'a') t(x)",
                "TYPE_MISMATCH",
            ),
            (
                "SELECT x FROM (VALUES 1) t(x) GROUP BY 1 HAVING rank() OVER (ORDER BY x) = 1",
                "NESTED_WINDOW",
            ),
        ],
    );
}

/// A ROWS frame offset may be any exact expression, a column included, read for each row
/// (docs sql/select "WINDOW clause": "the offset … can be an expression"; Trino's
/// RowsFraming clamps it to the partition and judges an empty frame by the first row's
/// offsets; a NULL or negative offset is INVALID_WINDOW_FRAME). Answers of Trino 476.
#[test]
fn rows_frame_offsets_computed_per_row() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, 2), (2, 3), (3, 4)) t(k, x) ORDER BY k",
                json!([[0, 1], [1, 3], [2, 6], [3, 10]]),
            ),
            (
                "SELECT k, avg(x) OVER (PARTITION BY g ORDER BY k ROWS BETWEEN CURRENT ROW AND k FOLLOWING), count(*) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND 1 FOLLOWING), first_value(x) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1, 'a'), (1, 2, 'a'), (2, 3, 'b'), (3, 4, 'b'), (4, 5, 'a')) t(k, x, g) ORDER BY k",
                json!([
                    [0, 1.0, 2, 1],
                    [1, 3.5, 3, 1],
                    [2, 3.5, 4, 1],
                    [3, 4.0, 5, 1],
                    [4, 5.0, 5, 1]
                ]),
            ),
            (
                "SELECT k, max(e) OVER (ORDER BY k ROWS BETWEEN k FOLLOWING AND k + 1 FOLLOWING), count(*) OVER (ORDER BY k ROWS BETWEEN k + 2 PRECEDING AND k + 1 PRECEDING) FROM (VALUES (0, 0e0), (1, 1e0), (2, 2e0), (3, 3e0)) t(k, e) ORDER BY k",
                json!([[0, 1.0, 0], [1, 3.0, 1], [2, 3.0, 1], [3, 3.0, 1]]),
            ),
            (
                "SELECT k, sum(d) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW), sum(e) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1.5, nan()), (1, 2.25, 1e0)) t(k, d, e) ORDER BY k",
                json!([[0, "1.50", "NaN"], [1, "3.75", "NaN"]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN x PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, -2), (2, 3)) t(k, x)",
                "INVALID_WINDOW_FRAME: Window frame offset value must not be negative or null",
            ),
            (
                "SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN IF(k > 0, k) PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, 2)) t(k, x)",
                "INVALID_WINDOW_FRAME: Window frame offset value must not be negative or null",
            ),
            (
                "SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN k * 1.5 PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, 2)) t(k, x)",
                "TYPE_MISMATCH",
            ),
        ],
    );
}

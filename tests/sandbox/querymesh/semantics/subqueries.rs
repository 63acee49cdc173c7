//! Quantified comparisons and IN over subqueries, as trinodb/trino
//! docs/src/main/sphinx/functions/comparison.md ("Quantified comparison predicates: ALL, ANY
//! and SOME") describes them; each answer is the pinned Trino 476's (the subqueries corpus).

use serde_json::json;

use super::{check_errors, check_rows};
use crate::support::engine::engine;

#[test]
fn quantified_comparisons() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            // NULL among the rows: ALL is NULL unless one row is false; ANY NULL unless one is true.
            (
                "SELECT 3 > ALL (VALUES 1, NULL), 3 > ALL (VALUES 5, NULL), 3 = ANY (VALUES 3, NULL), 3 = ANY (VALUES 4, NULL)",
                json!([[null, false, true, null]]),
            ),
            // Over no rows ALL is true and ANY false.
            (
                "SELECT 3 > ALL (SELECT x FROM (VALUES 1) t(x) WHERE false), 3 > ANY (SELECT x FROM (VALUES 1) t(x) WHERE false)",
                json!([[true, false]]),
            ),
            (
                "SELECT 3 < SOME (VALUES 1, 2), 3 < SOME (VALUES 1, 4), 2 = ALL (VALUES 2, 2)",
                json!([[false, true, true]]),
            ),
            (
                "SELECT x FROM (VALUES 1, 5, 10) t(x) WHERE x <> ALL (SELECT y FROM (VALUES 5, 10) u(y)) ORDER BY 1",
                json!([[1]]),
            ),
            // UNION ALL before a parenthesized VALUES is no quantifier.
            (
                "SELECT 1 UNION ALL (VALUES 2) ORDER BY 1",
                json!([[1], [2]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT x FROM (VALUES 1) t(x) WHERE x > ALL (SELECT 'a')",
            "TYPE_MISMATCH",
        )],
    );
}

#[test]
fn in_subqueries_and_row_subqueries() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            // Both sides compared as their common type, decimal(2,1).
            (
                "SELECT x FROM (VALUES 1.5, 2.0) t(x) WHERE x IN (SELECT 2 FROM (VALUES 1) u(y)) ORDER BY 1",
                json!([["2.0"]]),
            ),
            (
                "SELECT (a, b) IN (SELECT x, y FROM (VALUES (1, 2), (3, 4)) u(x, y)) FROM (VALUES (1, 2), (1, 4)) t(a, b) ORDER BY b",
                json!([[true], [false]]),
            ),
            ("SELECT (SELECT 1, 2)", json!([[[1, 2]]])),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT x FROM (VALUES 1) t(x) WHERE x IN (SELECT 1, 2)",
            "TYPE_MISMATCH",
        )],
    );
}

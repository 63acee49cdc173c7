//! Joins as Trino 476 answers them (docs sql/select "Joins", "USING", "UNNEST", "LATERAL";
//! StatementAnalyzer.visitJoin): the USING column, parenthesized joins, the joins UNNEST
//! takes, the correlated LATERAL shapes Trino refuses (only when their outputs are used: its
//! planner prunes the others first), and ORDER BY an array.

use serde_json::json;

use super::{check_errors, check_rows};
use crate::support::engine::engine;

#[test]
fn using_gives_one_joined_column() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT k FROM (VALUES 1, 2) a(k) FULL JOIN (VALUES 2, 3) b(k) USING (k) ORDER BY k",
                json!([[1], [2], [3]]),
            ),
            (
                "SELECT k FROM (VALUES 1, 2) a(k) RIGHT JOIN (VALUES 2, 3) b(k) USING (k) ORDER BY k",
                json!([[2], [3]]),
            ),
            (
                "SELECT typeof(k) FROM (VALUES 1) a(k) JOIN (VALUES BIGINT '1') b(k) USING (k)",
                json!([["bigint"]]),
            ),
            (
                "SELECT x, y, z FROM (VALUES 1, 2) a(x) LEFT JOIN ((VALUES 1) b(y) JOIN (VALUES 1) c(z) \
                 ON y = z) ON x = y ORDER BY 1",
                json!([[1, 1, 1], [2, null, null]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT region.regionkey FROM tpch.tiny.nation JOIN tpch.tiny.region USING (regionkey)",
                "COLUMN_NOT_FOUND",
            ),
            (
                "SELECT a.k FROM (VALUES 1) a(k) JOIN (VALUES 1) b(k) USING (k)",
                "COLUMN_NOT_FOUND",
            ),
        ],
    );
}

#[test]
fn unnest_and_lateral_joins_refused_as_trino() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT * FROM (VALUES (1, ARRAY[1])) t(id, arr) RIGHT JOIN UNNEST(arr) u(x) ON true",
                "INVALID_COLUMN_REFERENCE",
            ),
            (
                "SELECT * FROM (VALUES (1, ARRAY[1])) t(id, arr) FULL JOIN LATERAL (SELECT id AS z) u ON true",
                "INVALID_COLUMN_REFERENCE",
            ),
            (
                "SELECT a.x FROM UNNEST(ARRAY[1, 2, 3]) a(x) JOIN UNNEST(ARRAY[2, 3, 4]) b(y) ON a.x = b.y",
                "NOT_SUPPORTED",
            ),
            (
                "SELECT id FROM (VALUES (1, ARRAY[1])) t(id, arr) LEFT JOIN UNNEST(arr) u(x) ON x > 0",
                "NOT_SUPPORTED",
            ),
            // Trino's planner cannot decorrelate these LATERAL outputs once they are used:
            // in the select list, through `*`, or in WHERE.
            (
                "SELECT a.x, t.y FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y)",
                "NOT_SUPPORTED: line 1:61: Given correlated subquery is not supported",
            ),
            (
                "SELECT * FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y)",
                "NOT_SUPPORTED: line 1:54: Given correlated subquery is not supported",
            ),
            (
                "SELECT a.x FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y) WHERE t.y > 0",
                "NOT_SUPPORTED: line 1:56: Given correlated subquery is not supported",
            ),
            (
                "SELECT a.x, t.y FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES (a.x, 1), (a.x, 2)) t(y, z)",
                "NOT_SUPPORTED: line 1:61: Given correlated subquery is not supported",
            ),
            (
                "SELECT a.x, t.y FROM (VALUES 1, 2) a(x) LEFT JOIN LATERAL (SELECT a.x AS y WHERE a.x > 1) t ON true",
                "NOT_SUPPORTED: line 1:60: Given correlated subquery is not supported",
            ),
            // The refusal comes after the analysis: an unknown column is reported first.
            (
                "SELECT t.y, nosuch FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y)",
                "COLUMN_NOT_FOUND: line 1:13: Column 'nosuch' cannot be resolved",
            ),
        ],
    );
    check_rows(
        &engine,
        &[
            (
                "SELECT * FROM (VALUES (1, ARRAY[1])) t(id, arr) RIGHT JOIN UNNEST(ARRAY[1, 2]) u(x) ON true",
                json!([[1, [1], 1], [1, [1], 2]]),
            ),
            (
                "SELECT a.x, t.y FROM (VALUES 1, 2) a(x) LEFT JOIN LATERAL (SELECT 5 AS y WHERE a.x > 1) t \
                 ON true ORDER BY 1",
                json!([[1, null], [2, 5]]),
            ),
            (
                "SELECT a.x, t.y FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x) t(y) ORDER BY 1",
                json!([[1, 1], [2, 2]]),
            ),
            // Unused, the refused outputs are pruned before decorrelation and Trino 476
            // answers: the rows the LATERAL gives still count.
            (
                "SELECT a.x FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y) ORDER BY 1",
                json!([[1], [1], [2], [2]]),
            ),
            (
                "SELECT count(*) FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y)",
                json!([[4]]),
            ),
            (
                "SELECT a.x, t.z FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES (a.x, 1), (a.x, 2)) t(y, z) \
                 ORDER BY 1, 2",
                json!([[1, 1], [1, 2], [2, 1], [2, 2]]),
            ),
            (
                "SELECT a.x FROM (VALUES 1, 2) a(x) LEFT JOIN LATERAL (SELECT a.x AS y WHERE a.x > 1) t ON true \
                 ORDER BY 1",
                json!([[1], [2]]),
            ),
        ],
    );
}

/// Arrays order element by element, a prefix first (docs functions/comparison).
#[test]
fn order_by_an_array_is_element_by_element() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT a FROM (VALUES ARRAY[3, 1], ARRAY[20], ARRAY[3], ARRAY[-5, 2]) t(a) ORDER BY a",
                json!([[[-5, 2]], [[3]], [[3, 1]], [[20]]]),
            ),
            (
                "SELECT a FROM (VALUES ARRAY['b'], ARRAY['ab'], ARRAY['a', 'z']) t(a) ORDER BY 1 DESC",
                json!([[["b"]], [["ab"]], [["a", "z"]]]),
            ),
        ],
    );
}

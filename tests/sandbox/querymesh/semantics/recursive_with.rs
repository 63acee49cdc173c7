//! WITH RECURSIVE, as Trino plans it (docs sql/select.md "WITH RECURSIVE clause": the
//! example below, column aliases required, the step expanded up to max_recursion_depth
//! times, 10 by default, and "Recursion depth limit exceeded" past it).

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::{engine, run_in, tiny};

#[test]
fn recursion_unrolls_up_to_the_depth_limit() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs sql/select.md.
            (
                "WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 4) \
                 SELECT sum(n) FROM t",
                "bigint",
                json!(10),
            ),
            // Ten steps past the base are allowed.
            (
                "WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 11) \
                 SELECT max(n) FROM t",
                "integer",
                json!(11),
            ),
            // A CTE of WITH RECURSIVE that doesn't name itself is an ordinary one (it still
            // needs column aliases: Trino 476 refuses `plain AS (SELECT 1 AS one)` here), and
            // a recursive one may read the table's data.
            (
                "WITH RECURSIVE r(k) AS (SELECT min(regionkey) FROM tpch.tiny.region \
                 UNION ALL SELECT k + 1 FROM r WHERE k < 4), plain(one) AS (SELECT 1) \
                 SELECT count(*) + max(one) FROM r, plain",
                "bigint",
                json!(6),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 20) \
                 SELECT max(n) FROM t",
                "NOT_SUPPORTED: Recursion depth limit exceeded (10). Use 'max_recursion_depth' session property to modify the limit.",
            ),
            (
                "WITH RECURSIVE t AS (VALUES (1) UNION ALL SELECT 1 FROM t) SELECT * FROM t",
                "MISSING_COLUMN_ALIASES: line 1:16: missing column aliases in recursive WITH query",
            ),
        ],
    );
}

#[test]
fn the_session_sets_the_depth() {
    let engine = engine();
    let mut session = tiny();
    session.properties = vec![("max_recursion_depth".into(), "30".into())];
    let answer = run_in(
        &engine,
        &session,
        "WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 20) \
         SELECT max(n) FROM t",
    )
    .expect("runs within 30 steps");
    assert_eq!(answer.rows, vec![vec![json!(20)]]);
}

/// StatementAnalyzer.analyzeWith: a repeated name, a WITH RECURSIVE query without column
/// aliases (recursive or not); recursion through UNION (distinct) and through a join that
/// stops before the depth limit (Trino 476's answers).
#[test]
fn with_names_aliases_and_union_recursion() {
    let engine = crate::support::engine::engine();
    super::check_errors(
        &engine,
        &[
            (
                "WITH t AS (SELECT 1 AS x), T AS (SELECT 2 AS x) SELECT * FROM t",
                "DUPLICATE_NAMED_QUERY",
            ),
            (
                "WITH RECURSIVE a(x) AS (SELECT 1), b AS (SELECT 2 AS y) SELECT * FROM a, b",
                "MISSING_COLUMN_ALIASES",
            ),
            (
                "WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT 1 FROM t) SELECT n FROM t",
                "NOT_SUPPORTED",
            ),
        ],
    );
    super::check_rows(
        &engine,
        &[
            (
                "WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n + 1 FROM t WHERE n < 3) \
                 SELECT n FROM t ORDER BY n",
                serde_json::json!([[1], [2], [3]]),
            ),
            (
                "WITH RECURSIVE edges(a, b) AS (VALUES (1, 2), (2, 3), (3, 4), (2, 5)), \
                 walk(node, depth) AS (SELECT 1, 0 UNION ALL SELECT e.b, w.depth + 1 FROM walk w \
                 JOIN edges e ON w.node = e.a) SELECT node, depth FROM walk ORDER BY node",
                serde_json::json!([[1, 0], [2, 1], [3, 2], [4, 3], [5, 2]]),
            ),
        ],
    );
}

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
            // A CTE of WITH RECURSIVE that doesn't name itself is an ordinary one, and a
            // recursive one may read the table's data.
            (
                "WITH RECURSIVE r(k) AS (SELECT min(regionkey) FROM tpch.tiny.region \
                 UNION ALL SELECT k + 1 FROM r WHERE k < 4), plain AS (SELECT 1 AS one) \
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

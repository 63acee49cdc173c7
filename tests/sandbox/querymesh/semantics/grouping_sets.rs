//! GROUP BY ROLLUP, CUBE and GROUPING SETS and the grouping() operation, as trinodb/trino
//! docs/src/main/sphinx/sql/select.md describes them ("Complex grouping operations": each set
//! groups by its keys, the other keys are NULL; ROLLUP (a, b) is the sets (a, b), (a), ();
//! CUBE all subsets; plain keys beside them multiply the sets; "GROUPING operation": a bit per
//! argument, set when the key is not grouped, the first argument the highest bit).

use serde_json::json;

use super::{check_errors, check_rows};
use crate::support::engine::engine;

const T: &str = "(VALUES (1, 'x'), (1, 'y'), (2, 'x')) t(a, b)";

#[test]
fn rollup_cube_and_grouping_sets() {
    let engine = engine();
    let q = |group: &str, extra: &str| {
        format!("SELECT a, b, count(*) FROM {T} GROUP BY {group}{extra} ORDER BY a, b")
    };
    check_rows(
        &engine,
        &[
            (
                q("ROLLUP (a, b)", "").as_str(),
                json!([
                    [1, "x", 1],
                    [1, "y", 1],
                    [1, null, 2],
                    [2, "x", 1],
                    [2, null, 1],
                    [null, null, 3]
                ]),
            ),
            (
                q("CUBE (a, b)", "").as_str(),
                json!([
                    [1, "x", 1],
                    [1, "y", 1],
                    [1, null, 2],
                    [2, "x", 1],
                    [2, null, 1],
                    [null, "x", 2],
                    [null, "y", 1],
                    [null, null, 3]
                ]),
            ),
            (
                q("GROUPING SETS ((a), (b))", "").as_str(),
                json!([[1, null, 2], [2, null, 1], [null, "x", 2], [null, "y", 1]]),
            ),
            (
                q("a, ROLLUP (b)", "").as_str(),
                json!([
                    [1, "x", 1],
                    [1, "y", 1],
                    [1, null, 2],
                    [2, "x", 1],
                    [2, null, 1]
                ]),
            ),
            (
                q("ROLLUP (a, b)", " HAVING count(*) > 1").as_str(),
                json!([[1, null, 2], [null, null, 3]]),
            ),
        ],
    );
    check_rows(
        &engine,
        &[
            // The grouping() bits: (a, b) → 0, (a) → 1, () → 3.
            (
                &format!(
                    "SELECT a, b, grouping(a, b), grouping(b) FROM {T} GROUP BY ROLLUP (a, b) \
                     ORDER BY 3, a, b"
                ),
                json!([
                    [1, "x", 0, 0],
                    [1, "y", 0, 0],
                    [2, "x", 0, 0],
                    [1, null, 1, 1],
                    [2, null, 1, 1],
                    [null, null, 3, 1]
                ]),
            ),
            // The empty set is a global aggregation: one row over no rows.
            (
                "SELECT x, count(*) FROM (VALUES 1) t(x) WHERE false GROUP BY GROUPING SETS ((x), ())",
                json!([[null, 0]]),
            ),
            // The ORDER BY naming an output alias.
            (
                &format!(
                    "SELECT a AS k, count(*) AS n FROM {T} GROUP BY ROLLUP (a) ORDER BY k DESC"
                ),
                json!([[2, 1], [1, 2], [null, 3]]),
            ),
            // GROUP BY DISTINCT keeps each grouping set once; ALL (the default) keeps both.
            (
                &format!("SELECT count(*) FROM {T} GROUP BY DISTINCT GROUPING SETS ((), ())"),
                json!([[3]]),
            ),
            (
                &format!("SELECT count(*) FROM {T} GROUP BY ALL GROUPING SETS ((), ())"),
                json!([[3], [3]]),
            ),
            // grouping() is an integer (Trino 476: typeof answers integer).
            (
                &format!("SELECT typeof(grouping(a)) FROM {T} GROUP BY ROLLUP (a) LIMIT 1"),
                json!([["integer"]]),
            ),
            // A plain GROUP BY has grouping() 0.
            (
                &format!("SELECT a, grouping(a) FROM {T} GROUP BY a ORDER BY a"),
                json!([[1, 0], [2, 0]]),
            ),
        ],
    );
}

#[test]
fn grouping_refusals() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT grouping(a) FROM (VALUES 1) t(a)",
                "MISSING_GROUP_BY: A GROUPING() operation can only be used with a corresponding GROUPING SET/CUBE/ROLLUP/GROUP BY clause",
            ),
            (
                &format!("SELECT grouping(b) FROM {T} GROUP BY ROLLUP (a)"),
                "INVALID_ARGUMENTS: line 1:8: The arguments to GROUPING() must be expressions referenced by the GROUP BY at the associated query level. Mismatch due to b.",
            ),
            // Trino 476: WHERE refuses grouping() as it does aggregates.
            (
                &format!("SELECT count(*) FROM {T} WHERE grouping(a) = 0 GROUP BY ROLLUP (a)"),
                "EXPRESSION_NOT_SCALAR",
            ),
            // ORDER BY resolves `a` to the output, which grouping() cannot read.
            (
                &format!(
                    "SELECT a, count(*) FROM {T} GROUP BY GROUPING SETS ((a), ()) ORDER BY grouping(a)"
                ),
                "INVALID_ARGUMENTS",
            ),
            // Trino 476 takes only columns inside ROLLUP, CUBE and GROUPING SETS.
            (
                &format!("SELECT count(*) FROM {T} GROUP BY ROLLUP (a * 10)"),
                "INVALID_COLUMN_REFERENCE",
            ),
            (
                &format!("SELECT b, count(*) FROM {T} GROUP BY ROLLUP (a)"),
                "EXPRESSION_NOT_AGGREGATE: line 1:8: 'b' must be an aggregate expression or appear in GROUP BY clause",
            ),
        ],
    );
}

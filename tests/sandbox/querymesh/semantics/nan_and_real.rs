//! NaN, the infinities and single-precision reals (docs functions/math "nan()", functions/
//! comparison, language/types "REAL"); each answer is Trino 476's.

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn comparisons_with_nan_are_false() {
    let engine = engine();
    check_values(
        &engine,
        &[
            ("SELECT nan() > 1", "boolean", json!(false)),
            ("SELECT nan() >= nan()", "boolean", json!(false)),
            ("SELECT 1 <= nan()", "boolean", json!(false)),
            ("SELECT nan() < 1", "boolean", json!(false)),
            (
                "SELECT x > 0 FROM (VALUES nan()) t(x)",
                "boolean",
                json!(false),
            ),
            ("SELECT nan() IN (nan())", "boolean", json!(false)),
            ("SELECT nan() NOT IN (nan())", "boolean", json!(true)),
            ("SELECT nan() IN (1e0, NULL)", "boolean", json!(null)),
            ("SELECT 1e0 IN (nan(), 1e0)", "boolean", json!(true)),
            ("SELECT greatest(1.5E0, nan())", "double", json!(1.5)),
            ("SELECT least(1.5E0, nan())", "double", json!(1.5)),
            ("SELECT greatest(nan(), nan())", "double", json!("NaN")),
            ("SELECT greatest(1e0, NULL, nan())", "double", json!(null)),
        ],
    );
}

#[test]
fn nan_survives_arithmetic_and_max_passes_over_it() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT is_nan(infinity() - infinity())",
                "boolean",
                json!(true),
            ),
            ("SELECT nan() + 1", "double", json!("NaN")),
            // A NaN made by one operator stays NaN through the next, parenthesised or not.
            (
                "SELECT x - x - 1e0 FROM (VALUES infinity()) t(x)",
                "double",
                json!("NaN"),
            ),
            (
                "SELECT (x - x) * 2 FROM (VALUES infinity()) t(x)",
                "double",
                json!("NaN"),
            ),
            // SQLite's sum never answers NaN, so a HAVING on it compares plainly (TPC-H q18).
            (
                "SELECT count(*) FROM (SELECT k FROM (VALUES (1, 2e0), (1, 3e0), (2, 1e0)) t(k, x) GROUP BY k HAVING sum(x) > 4)",
                "bigint",
                json!(1),
            ),
            ("SELECT 0 * infinity()", "double", json!("NaN")),
            ("SELECT 2e0 * 3", "double", json!(6.0)),
            (
                "SELECT max(x) FROM (VALUES nan(), 1e0, 2e0) t(x)",
                "double",
                json!(2.0),
            ),
            (
                "SELECT min(x) FROM (VALUES nan(), 1e0, 2e0) t(x)",
                "double",
                json!(1.0),
            ),
            (
                "SELECT max(x) FROM (VALUES nan(), nan()) t(x)",
                "double",
                json!("NaN"),
            ),
        ],
    );
}

#[test]
fn reals_are_floats_and_doubles_parse_as_java_reads_them() {
    let engine = engine();
    check_values(
        &engine,
        &[
            ("SELECT REAL '0.1' = 0.1E0", "boolean", json!(false)),
            (
                "SELECT CAST(REAL '1.1' AS double)",
                "double",
                json!(1.100000023841858),
            ),
            (
                "SELECT CAST(CAST(1.1E0 AS real) AS double)",
                "double",
                json!(1.100000023841858),
            ),
            ("SELECT CAST(16777217 AS real)", "real", json!(16777216.0)),
            ("SELECT CAST('+NaN' AS double)", "double", json!("NaN")),
            ("SELECT CAST('1.5d' AS double)", "double", json!(1.5)),
            ("SELECT try_cast('inf' AS double)", "double", json!(null)),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT CAST('inf' AS double)",
            "INVALID_CAST_ARGUMENT: Cannot cast 'inf' to DOUBLE",
        )],
    );
}

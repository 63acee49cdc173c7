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

/// sum and avg of doubles are NaN when a value is NaN or the values hold both infinities, as
/// aggregates and over a window (Trino's DoubleSumAggregation / DoubleAverageAggregation add
/// with Java's `+`; answers asked of Trino 476).
#[test]
fn sum_and_avg_keep_nan() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT sum(x) FROM (VALUES nan(), 1e0) t(x)",
                "double",
                json!("NaN"),
            ),
            (
                "SELECT avg(x) FROM (VALUES 1e0, nan()) t(x)",
                "double",
                json!("NaN"),
            ),
            (
                "SELECT sum(x) FROM (VALUES infinity(), -infinity()) t(x)",
                "double",
                json!("NaN"),
            ),
            (
                "SELECT avg(x) FROM (VALUES infinity(), 1e0, NULL) t(x)",
                "double",
                json!("Infinity"),
            ),
            (
                "SELECT sum(x) FROM (VALUES CAST(NULL AS double)) t(x)",
                "double",
                json!(null),
            ),
            (
                "SELECT sum(DISTINCT x) FROM (VALUES nan(), 1e0, 1e0) t(x)",
                "double",
                json!("NaN"),
            ),
            (
                "SELECT sum(x) FROM (VALUES REAL 'NaN', REAL '1') t(x)",
                "real",
                json!("NaN"),
            ),
            // A NaN sum is greater than nothing.
            (
                "SELECT sum(x) > 1 FROM (VALUES nan(), 1e0) t(x)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT array_agg(s ORDER BY k) FROM (SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM (VALUES (1, 1e0), (2, nan()), (3, 2e0), (4, 3e0)) t(k, x))",
                "array(double)",
                json!([1.0, "NaN", "NaN", 5.0]),
            ),
            (
                "SELECT array_agg(a ORDER BY k) FROM (SELECT k, avg(x) OVER (ORDER BY k) AS a FROM (VALUES (1, 1e0), (2, nan()), (3, 2e0)) t(k, x))",
                "array(double)",
                json!([1.0, "NaN", "NaN"]),
            ),
        ],
    );
}

/// tpch's double columns hold no NaN or infinity, nor does `+ - *` of them and small numbers
/// (`Typed::finite_bound`): their sums stay SQLite's own sum, with no NaN check to pay
/// (TPC-H q1, q3, q14), while a product that could overflow to infinity keeps it. (A column
/// of a derived table is not known finite: q7, q8, q9 and q22 pay one max per sum.)
#[test]
fn sums_of_tpch_doubles_pay_no_nan_check() {
    // As the expression tree renders the check (aggregate/mod.rs keeping_nan).
    const NAN_CHECK: &str = " = 'NaN') OR (";
    let engine = engine();
    let session = crate::support::engine::tiny();
    for n in [1, 3, 5, 6, 10, 14, 18, 19] {
        let path = format!(
            "{}/fixtures/tpch/queries/q{n}.sql",
            env!("CARGO_MANIFEST_DIR")
        );
        let sql = std::fs::read_to_string(&path).expect("the query text");
        let prepared = engine.prepare(&sql, &session).expect("prepares");
        let translated = prepared.sqlite_sql().unwrap_or_default();
        assert!(!translated.contains(NAN_CHECK), "q{n}: {translated}");
    }
    let overflowing = engine
        .prepare(
            "SELECT sum(totalprice * 1e300 * 1e300) FROM orders",
            &session,
        )
        .expect("prepares");
    assert!(
        overflowing
            .sqlite_sql()
            .unwrap_or_default()
            .contains(NAN_CHECK)
    );
}

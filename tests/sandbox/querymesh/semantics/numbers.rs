//! Numbers: the types of aggregates, round, abs, integer and decimal arithmetic.

use serde_json::{Value, json};

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn aggregates_keep_trinos_types() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/aggregate: sum(integer) → bigint, avg(integer) → double,
            // min/max keep the type; count is bigint.
            (
                "SELECT sum(linenumber) FROM lineitem WHERE orderkey = 1",
                "bigint",
                json!(21),
            ),
            (
                "SELECT sum(quantity) FROM lineitem WHERE orderkey = 1",
                "double",
                json!(145.0),
            ),
            (
                "SELECT sum(x) FROM (VALUES (1.5), (2.25)) t (x)",
                "decimal(38, 2)",
                json!("3.75"),
            ),
            (
                "SELECT avg(x) FROM (VALUES (1), (2)) t (x)",
                "double",
                json!(1.5),
            ),
            (
                "SELECT avg(x) FROM (VALUES (1.5), (2.0)) t (x)",
                "decimal(2, 1)",
                json!("1.8"),
            ),
            // Decimal results round half up at their scale (DecimalAverageAggregation).
            (
                "SELECT avg(x) FROM (VALUES (0.25), (0.00)) t (x)",
                "decimal(2, 2)",
                json!("0.13"),
            ),
            (
                "SELECT min(orderdate) FROM orders",
                "date",
                json!("1992-01-01"),
            ),
            (
                "SELECT max(name) FROM region",
                "varchar(25)",
                json!("MIDDLE EAST"),
            ),
            (
                "SELECT count(DISTINCT regionkey) FROM nation",
                "bigint",
                json!(5),
            ),
            (
                "SELECT count(DISTINCT x) FROM (VALUES (1), (1), (NULL)) t (x)",
                "bigint",
                json!(1),
            ),
            (
                "SELECT approx_distinct(x) FROM (VALUES (1), (1), (2)) t (x)",
                "bigint",
                json!(2),
            ),
            // approx_distinct(x, e): the standard error only bounds the estimate.
            (
                "SELECT approx_distinct(x, 0.01) FROM (VALUES (1), (1), (2)) t (x)",
                "bigint",
                json!(2),
            ),
            (
                "SELECT approx_distinct(x) FROM (VALUES (CAST(NULL AS integer))) t (x)",
                "bigint",
                json!(0),
            ),
            (
                "SELECT count(x) FROM (VALUES (1), (NULL)) t (x)",
                "bigint",
                json!(1),
            ),
            (
                "SELECT sum(x) FROM (VALUES (1)) t (x) WHERE x > 1",
                "bigint",
                Value::Null,
            ),
            // VarianceAggregation etc. on 1, 2, 3, 4.
            (
                "SELECT stddev(x) FROM (VALUES (1), (2), (3), (4)) t (x)",
                "double",
                json!(1.2909944487358056),
            ),
            (
                "SELECT stddev_pop(x) FROM (VALUES (1), (2), (3), (4)) t (x)",
                "double",
                json!(1.118033988749895),
            ),
            (
                "SELECT variance(x) FROM (VALUES (1), (2), (3), (4)) t (x)",
                "double",
                json!(1.6666666666666667),
            ),
            (
                "SELECT var_pop(x) FROM (VALUES (1), (2), (3), (4)) t (x)",
                "double",
                json!(1.25),
            ),
            (
                "SELECT stddev(x) FROM (VALUES (1)) t (x)",
                "double",
                Value::Null,
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            ("SELECT sum(name) FROM nation", "FUNCTION_NOT_FOUND"),
            ("SELECT avg(orderdate) FROM orders", "FUNCTION_NOT_FOUND"),
            // BigintOperators: a sum past 2^63 overflows.
            (
                "SELECT sum(x) FROM (VALUES (9223372036854775807), (1)) t (x)",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
        ],
    );
}

#[test]
fn round_abs_and_integer_arithmetic() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // MathFunctions.round(double, n): Math.round on |x| * 10^n, sign restored (half
            // away from zero); a value already integral at 10^n is itself (Trino 476 answers
            // round(1E300, 2) with 1E300).
            ("SELECT round(2.5E0)", "double", json!(3.0)),
            ("SELECT round(-2.5E0)", "double", json!(-3.0)),
            ("SELECT round(-0.5E0)", "double", json!(-1.0)),
            ("SELECT round(2.345E0, 2)", "double", json!(2.35)),
            ("SELECT round(1234.5E0, -2)", "double", json!(1200.0)),
            ("SELECT round(1E300, 2)", "double", json!(1e300)),
            ("SELECT round(0E0 / 0E0)", "double", json!("NaN")),
            ("SELECT round(2.5E0, NULL)", "double", Value::Null),
            // Round and RoundN on decimals: half away from zero; round(x) is decimal(p-s+1, 0),
            // round(x, n) keeps the scale at precision p + 1.
            ("SELECT round(2.5)", "decimal(2, 0)", json!("3")),
            ("SELECT round(-2.5)", "decimal(2, 0)", json!("-3")),
            ("SELECT round(1.005, 2)", "decimal(5, 3)", json!("1.010")),
            ("SELECT round(-1.005, 2)", "decimal(5, 3)", json!("-1.010")),
            ("SELECT round(123.45, -1)", "decimal(6, 2)", json!("120.00")),
            // round of integers: the same type; a negative n rounds HALF_UP (roundLong).
            ("SELECT round(123)", "integer", json!(123)),
            ("SELECT round(15, -1)", "integer", json!(20)),
            ("SELECT round(BIGINT '-25', -1)", "bigint", json!(-30)),
            ("SELECT round(BIGINT '1234', 2)", "bigint", json!(1234)),
            // abs keeps the type (docs functions/math).
            ("SELECT abs(-3)", "integer", json!(3)),
            ("SELECT abs(-3.5)", "decimal(2, 1)", json!("3.5")),
            ("SELECT abs(-2.5E0)", "double", json!(2.5)),
            ("SELECT abs(BIGINT '-9')", "bigint", json!(9)),
            // Integer division truncates toward zero; % has the dividend's sign
            // (IntegerOperators.divide / modulus, Java semantics).
            ("SELECT -7 / 2", "integer", json!(-3)),
            ("SELECT 7 / -2", "integer", json!(-3)),
            ("SELECT -7 % 3", "integer", json!(-1)),
            ("SELECT 7 % -3", "integer", json!(1)),
            ("SELECT mod(-7, 3)", "integer", json!(-1)),
            ("SELECT BIGINT '7' / 2", "bigint", json!(3)),
            ("SELECT -7E0 % 3", "double", json!(-1.0)),
            ("SELECT 1E0 / 0", "double", json!("Infinity")),
        ],
    );
    check_errors(
        &engine,
        &[
            // Overflow is NUMERIC_VALUE_OUT_OF_RANGE (BigintOperators / IntegerOperators use
            // Math.addExact and friends), also in the middle of an expression.
            (
                "SELECT 9223372036854775807 + 1",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
            (
                "SELECT BIGINT '-9223372036854775808' - 1",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
            (
                "SELECT 2147483647 + 1",
                "NUMERIC_VALUE_OUT_OF_RANGE: integer addition overflow: 2147483647 + 1",
            ),
            (
                "SELECT nationkey + 9223372036854775807 FROM nation",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
            ("SELECT 2147483647 + 1 - 1", "NUMERIC_VALUE_OUT_OF_RANGE"),
            (
                "SELECT (9223372036854775807 + 10) / 2",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
            (
                "SELECT 4611686018427387904 * 2 > 0",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
            (
                "SELECT BIGINT '-9223372036854775808' / -1",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
            (
                "SELECT abs(BIGINT '-9223372036854775808')",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
            (
                "SELECT round(9223372036854775807, -1)",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
            // Division by zero of integers and decimals (not of doubles).
            ("SELECT 1 / 0", "DIVISION_BY_ZERO: Division by zero"),
            ("SELECT 1 % 0", "DIVISION_BY_ZERO: Division by zero"),
            ("SELECT mod(5, 0)", "DIVISION_BY_ZERO: Division by zero"),
            ("SELECT 1.5 / 0", "DIVISION_BY_ZERO: Division by zero"),
            ("SELECT 1.5 % 0", "DIVISION_BY_ZERO: Division by zero"),
            (
                "SELECT nationkey / 0 FROM nation",
                "DIVISION_BY_ZERO: Division by zero",
            ),
            ("SELECT round('a')", "FUNCTION_NOT_FOUND"),
            ("SELECT abs('a')", "FUNCTION_NOT_FOUND"),
        ],
    );
}

#[test]
fn decimal_literal_arithmetic_types() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // DecimalOperators: + and - give decimal(1 + max(s) + max(p - s), max(s)),
            // * gives decimal(p1 + p2, s1 + s2), / gives scale max(s1, s2) at precision
            // p1 + s2 + max(s2 - s1, 0) rounding half up, % gives
            // decimal(min(p1 - s1, p2 - s2) + max(s), max(s)). An integer is decimal(10, 0).
            ("SELECT 1.5", "decimal(2, 1)", json!("1.5")),
            ("SELECT -1.5", "decimal(2, 1)", json!("-1.5")),
            ("SELECT 0.1 + 0.2", "decimal(2, 1)", json!("0.3")),
            ("SELECT 1.5 + 2.25", "decimal(4, 2)", json!("3.75")),
            ("SELECT 1.5 - 2", "decimal(12, 1)", json!("-0.5")),
            ("SELECT 1.5 * 2.25", "decimal(5, 3)", json!("3.375")),
            ("SELECT 1.5 * 2", "decimal(12, 1)", json!("3.0")),
            ("SELECT 1.0 / 3", "decimal(2, 1)", json!("0.3")),
            ("SELECT 2.0 / 3", "decimal(2, 1)", json!("0.7")),
            ("SELECT 1.0 / 4", "decimal(2, 1)", json!("0.3")),
            ("SELECT -1.0 / 4", "decimal(2, 1)", json!("-0.3")),
            ("SELECT 10.5 % 3", "decimal(3, 1)", json!("1.5")),
            ("SELECT DECIMAL '1.50'", "decimal(3, 2)", json!("1.50")),
            ("SELECT 1.5 + 1E0", "double", json!(2.5)),
            ("SELECT 0.1 + 0.2 = 0.3", "boolean", json!(true)),
        ],
    );
}

/// width_bucket, TestMathFunctions.testWidthBucket and testWidthBucketArray case for case.
#[test]
fn width_bucket_counts_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            ("SELECT width_bucket(3.14, 0, 4, 3)", "bigint", json!(3)),
            ("SELECT width_bucket(2, 0, 4, 3)", "bigint", json!(2)),
            (
                "SELECT width_bucket(infinity(), 0, 4, 3)",
                "bigint",
                json!(4),
            ),
            ("SELECT width_bucket(-1, 0, 3.2, 4)", "bigint", json!(0)),
            ("SELECT width_bucket(3.14, 4, 0, 3)", "bigint", json!(1)),
            ("SELECT width_bucket(2, 4, 0, 3)", "bigint", json!(2)),
            (
                "SELECT width_bucket(infinity(), 4, 0, 3)",
                "bigint",
                json!(0),
            ),
            ("SELECT width_bucket(-1, 3.2, 0, 4)", "bigint", json!(5)),
            (
                "SELECT width_bucket(3.14, ARRAY[0.0, 2.0, 4.0])",
                "bigint",
                json!(2),
            ),
            (
                "SELECT width_bucket(-1, ARRAY[0.0, 1.2, 3.3, 4.5])",
                "bigint",
                json!(0),
            ),
            ("SELECT infinity() > 1e308", "boolean", json!(true)),
            ("SELECT pi()", "double", json!(std::f64::consts::PI)),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT width_bucket(3.14, 0, 4, 0)",
                "INVALID_FUNCTION_ARGUMENT: bucketCount must be greater than 0",
            ),
            (
                "SELECT width_bucket(3.14, -1, -1, 3)",
                "INVALID_FUNCTION_ARGUMENT: bounds cannot equal each other",
            ),
            (
                "SELECT width_bucket(3.14, infinity(), -1, 3)",
                "INVALID_FUNCTION_ARGUMENT: first bound must be finite",
            ),
            (
                "SELECT width_bucket(3.14, -1, infinity(), 3)",
                "INVALID_FUNCTION_ARGUMENT: second bound must be finite",
            ),
        ],
    );
}

//! Exact decimals up to 38 digits (issue 13): arithmetic, comparisons, casts, functions and
//! aggregates as Trino computes them, from TestDecimalOperators, TestDecimalCasts,
//! TestDecimalSumAggregation / DecimalAverageAggregation and docs language/types "decimal".

use serde_json::json;

use super::{check_errors, check_rows, check_values};
use crate::support::engine::{engine, run};

#[test]
fn long_decimal_arithmetic_is_exact() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestDecimalOperators.testAdd: long long -> long, short short -> long.
            (
                "SELECT DECIMAL '12345678901234567890123456789012345678' + DECIMAL '12345678901234567890123456789012345678'",
                "decimal(38, 0)",
                json!("24691357802469135780246913578024691356"),
            ),
            (
                "SELECT DECIMAL '999999999999999999' + DECIMAL '.999999999999999999'",
                "decimal(37, 18)",
                json!("999999999999999999.999999999999999999"),
            ),
            (
                "SELECT DECIMAL '-12345678901234567890' + DECIMAL '12345678901234567891'",
                "decimal(21, 0)",
                json!("1"),
            ),
            // Rescaling may pass 10^38 inside 127 bits (testAdd "max supported value").
            (
                "SELECT DECIMAL '17014000000000000000000000000000000000' + DECIMAL '-7014000000000000000000000000000000000.1'",
                "decimal(38, 1)",
                json!("9999999999999999999999999999999999999.9"),
            ),
            // testSubtract: long short -> long.
            (
                "SELECT DECIMAL '123456789012345678901234567890' - DECIMAL '.00000001'",
                "decimal(38, 8)",
                json!("123456789012345678901234567889.99999999"),
            ),
            // testMultiply: short short -> long, long short -> long.
            (
                "SELECT DECIMAL '12345678901234567' * DECIMAL '123456789012345670'",
                "decimal(35, 0)",
                json!("1524157875323883455265967556774890"),
            ),
            (
                "SELECT DECIMAL '1234567890123456789.0123456789012345678' * DECIMAL '3'",
                "decimal(38, 19)",
                json!("3703703670370370367.0370370367037037034"),
            ),
            (
                "SELECT CAST(3 AS DECIMAL(38,0)) * CAST(DECIMAL '0.2' AS DECIMAL(38,1))",
                "decimal(38, 1)",
                json!("0.6"),
            ),
            // testDivide: HALF_UP at the result's scale, and a dividend past 128 bits.
            (
                "SELECT DECIMAL '200.00' / DECIMAL '0.3'",
                "decimal(6, 2)",
                json!("666.67"),
            ),
            (
                "SELECT DECIMAL '-9' / DECIMAL '5'",
                "decimal(1, 0)",
                json!("-2"),
            ),
            (
                "SELECT DECIMAL '7' / DECIMAL '-5'",
                "decimal(1, 0)",
                json!("-1"),
            ),
            (
                "SELECT DECIMAL '10' / DECIMAL '.000000001'",
                "decimal(20, 9)",
                json!("10000000000.000000000"),
            ),
            (
                "SELECT DECIMAL '200000000000000000000000000000000000' / DECIMAL '0.30'",
                "decimal(38, 2)",
                json!("666666666666666666666666666666666666.67"),
            ),
            // testModulus, testNegation.
            (
                "SELECT DECIMAL '-3.5' % DECIMAL '1'",
                "decimal(2, 1)",
                json!("-0.5"),
            ),
            (
                "SELECT -DECIMAL '12345678901234567890.5'",
                "decimal(21, 1)",
                json!("-12345678901234567890.5"),
            ),
            // Integers join as decimal(10, 0) / decimal(19, 0) (docs language/types).
            (
                "SELECT BIGINT '9223372036854775807' + DECIMAL '0.5'",
                "decimal(21, 1)",
                json!("9223372036854775807.5"),
            ),
            // A decimal with a double is a double.
            ("SELECT DECIMAL '1.5' * DOUBLE '2'", "double", json!(3.0)),
        ],
    );
}

#[test]
fn arithmetic_past_38_digits_overflows_as_trino() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            // TestDecimalOperators.testAdd / testMultiply overflow tests.
            (
                "SELECT DECIMAL '99999999999999999999999999999999999999' + DECIMAL '1'",
                "NUMERIC_VALUE_OUT_OF_RANGE: Decimal overflow",
            ),
            (
                "SELECT DECIMAL '-99999999999999999999999999999999999999' - DECIMAL '1'",
                "NUMERIC_VALUE_OUT_OF_RANGE: Decimal overflow",
            ),
            (
                "SELECT DECIMAL '12345678901234567890123456789012345678' * DECIMAL '9'",
                "NUMERIC_VALUE_OUT_OF_RANGE: Decimal overflow",
            ),
            (
                "SELECT DECIMAL '17015000000000000000000000000000000000' + DECIMAL '-7015000000000000000000000000000000000.1'",
                "NUMERIC_VALUE_OUT_OF_RANGE: Decimal overflow",
            ),
            // DecimalSumAggregation: a sum past 38 digits.
            (
                "SELECT sum(x) FROM (VALUES DECIMAL '99999999999999999999999999999999999999', DECIMAL '1') t(x)",
                "NUMERIC_VALUE_OUT_OF_RANGE: Decimal overflow",
            ),
            // DecimalOperators.divide / modulus by zero.
            (
                "SELECT DECIMAL '1.5' / DECIMAL '0'",
                "DIVISION_BY_ZERO: Division by zero",
            ),
            (
                "SELECT DECIMAL '12345678901234567890' % DECIMAL '0'",
                "DIVISION_BY_ZERO: Division by zero",
            ),
        ],
    );
}

#[test]
fn decimals_compare_across_scales_integers_and_doubles() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT DECIMAL '1.50' = DECIMAL '1.5'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT DECIMAL '0.1' + DECIMAL '0.2' = DECIMAL '0.3'",
                "boolean",
                json!(true),
            ),
            ("SELECT DECIMAL '2.0' = 2", "boolean", json!(true)),
            ("SELECT DECIMAL '1.5' < BIGINT '2'", "boolean", json!(true)),
            (
                "SELECT DECIMAL '12345678901234567890.1' > DECIMAL '12345678901234567890.09'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT DECIMAL '-12345678901234567890.1' < DECIMAL '1.5'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT DECIMAL '0.5' = DOUBLE '0.5'",
                "boolean",
                json!(true),
            ),
            ("SELECT 1.5 BETWEEN 1 AND 2", "boolean", json!(true)),
            ("SELECT 2.50 IN (1, 2.5)", "boolean", json!(true)),
            (
                "SELECT CASE WHEN true THEN 1.5 ELSE DECIMAL '12345678901234567890' END",
                "decimal(21, 1)",
                json!("1.5"),
            ),
            (
                "SELECT coalesce(NULL, 2.25, 1)",
                "decimal(12, 2)",
                json!("2.25"),
            ),
            (
                "SELECT greatest(1.5, 2, 0.25)",
                "decimal(12, 2)",
                json!("2.00"),
            ),
            ("SELECT least(1.5, -2.5)", "decimal(2, 1)", json!("-2.5")),
            // Containers compare in their common type (TestArrayOperators.testComparison).
            (
                "SELECT ARRAY[1.5, 2] = ARRAY[1.50, 2.00]",
                "boolean",
                json!(true),
            ),
            ("SELECT ARRAY[1.5] < ARRAY[1.25]", "boolean", json!(false)),
            (
                "SELECT ROW(1.5, 'a') = ROW(1.50, 'a')",
                "boolean",
                json!(true),
            ),
        ],
    );
    // Native ordering, grouping and extremes of one decimal type, short and long.
    check_rows(
        &engine,
        &[
            (
                "SELECT x FROM (VALUES DECIMAL '-1.5', DECIMAL '10.0', DECIMAL '2.25', DECIMAL '-1.50') t(x) ORDER BY x",
                json!([["-1.50"], ["-1.50"], ["2.25"], ["10.00"]]),
            ),
            (
                "SELECT x, count(*) FROM (VALUES DECIMAL '1.5', DECIMAL '1.50', DECIMAL '2') t(x) GROUP BY x ORDER BY x",
                json!([["1.50", 2], ["2.00", 1]]),
            ),
            (
                "SELECT min(x), max(x), count(DISTINCT x) FROM (VALUES DECIMAL '-12345678901234567890.5', DECIMAL '3', DECIMAL '12345678901234567890.5', DECIMAL '3.0') t(x)",
                json!([["-12345678901234567890.5", "12345678901234567890.5", 3]]),
            ),
        ],
    );
}

#[test]
fn decimal_casts_are_exact_with_trinos_messages() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestDecimalCasts.testVarcharToDecimalCasts / testDecimalToVarcharCasts.
            (
                "SELECT CAST('1000.01' AS DECIMAL(7,2))",
                "decimal(7, 2)",
                json!("1000.01"),
            ),
            (
                "SELECT CAST('-1234567890' AS DECIMAL(30,20))",
                "decimal(30, 20)",
                json!("-1234567890.00000000000000000000"),
            ),
            (
                "SELECT CAST('1.005' AS DECIMAL(3,2))",
                "decimal(3, 2)",
                json!("1.01"),
            ),
            (
                "SELECT CAST(DECIMAL '-1234567890.12345678900000000000' AS varchar)",
                "varchar",
                json!("-1234567890.12345678900000000000"),
            ),
            (
                "SELECT CAST(DECIMAL '-.001' AS varchar)",
                "varchar",
                json!("-0.001"),
            ),
            // testDoubleToShortDecimalCasts / testDoubleToLongDecimalCasts.
            (
                "SELECT CAST(DOUBLE '1234567890.51' AS DECIMAL(16,0))",
                "decimal(16, 0)",
                json!("1234567891"),
            ),
            (
                "SELECT CAST(DOUBLE '1234567890123456789012345' AS DECIMAL(30,5))",
                "decimal(30, 5)",
                json!("1234567890123456800000000.00000"),
            ),
            // testDecimalToBigintCasts-style rounding (HALF_UP), testDecimalToTinyintCasts.
            (
                "SELECT CAST(DECIMAL '-2.5' AS tinyint)",
                "tinyint",
                json!(-3),
            ),
            ("SELECT CAST(DECIMAL '2.49' AS bigint)", "bigint", json!(2)),
            // testBooleanToDecimalCasts / testDecimalToBooleanCasts / to double.
            (
                "SELECT CAST(true AS DECIMAL(20,10))",
                "decimal(20, 10)",
                json!("1.0000000000"),
            ),
            (
                "SELECT CAST(DECIMAL '0.0000000000000000000' AS boolean)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT CAST(DECIMAL '2.34' AS double)",
                "double",
                json!(2.34),
            ),
            // Decimal to decimal rounds HALF_UP (DecimalConversions).
            (
                "SELECT CAST(DECIMAL '12.345' AS DECIMAL(4,2))",
                "decimal(4, 2)",
                json!("12.35"),
            ),
            (
                "SELECT CAST(DECIMAL '12345678901234567890.55' AS DECIMAL(21,1))",
                "decimal(21, 1)",
                json!("12345678901234567890.6"),
            ),
            (
                "SELECT TRY_CAST('abc' AS DECIMAL(3,1))",
                "decimal(3, 1)",
                json!(null),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT CAST('foo' AS DECIMAL(2, 0))",
                "INVALID_CAST_ARGUMENT: Cannot cast VARCHAR 'foo' to DECIMAL(2, 0). Value is not a number.",
            ),
            (
                "SELECT CAST('1000.01' AS DECIMAL(5,2))",
                "INVALID_CAST_ARGUMENT: Cannot cast VARCHAR '1000.01' to DECIMAL(5, 2). Value too large.",
            ),
            (
                "SELECT CAST(BIGINT '10' AS DECIMAL(38,37))",
                "INVALID_CAST_ARGUMENT: Cannot cast BIGINT '10' to DECIMAL(38, 37)",
            ),
            (
                "SELECT CAST(DOUBLE '234.0' AS DECIMAL(2,0))",
                "INVALID_CAST_ARGUMENT: Cannot cast DOUBLE '234.0' to DECIMAL(2, 0)",
            ),
            (
                "SELECT CAST(DECIMAL '12345678901234567890' AS tinyint)",
                "INVALID_CAST_ARGUMENT: Cannot cast '12345678901234567890' to TINYINT",
            ),
            (
                "SELECT CAST(DECIMAL '12.4' AS varchar(3))",
                "INVALID_CAST_ARGUMENT: Value 12.4 cannot be represented as varchar(3)",
            ),
        ],
    );
}

#[test]
fn functions_and_aggregates_keep_exact_values() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/math: abs, round, ceil, floor, truncate, sign on decimals.
            (
                "SELECT abs(DECIMAL '-12345678901234567890.5')",
                "decimal(21, 1)",
                json!("12345678901234567890.5"),
            ),
            (
                "SELECT round(DECIMAL '1.005', 2)",
                "decimal(5, 3)",
                json!("1.010"),
            ),
            (
                "SELECT round(DECIMAL '12345678901234567890.5')",
                "decimal(21, 0)",
                json!("12345678901234567891"),
            ),
            ("SELECT ceil(DECIMAL '-1.5')", "decimal(2, 0)", json!("-1")),
            ("SELECT floor(DECIMAL '-1.5')", "decimal(2, 0)", json!("-2")),
            // MathFunctions.Truncate: decimal(max(1, p - s), 0), unlike ceil and floor.
            (
                "SELECT truncate(DECIMAL '-1.5')",
                "decimal(1, 0)",
                json!("-1"),
            ),
            (
                "SELECT sign(DECIMAL '-12345678901234567890.5')",
                "decimal(1, 0)",
                json!("-1"),
            ),
            ("SELECT sqrt(DECIMAL '6.25')", "double", json!(2.5)),
            // DecimalSumAggregation: decimal(38, s); DecimalAverageAggregation: decimal(p, s),
            // HALF_UP.
            (
                "SELECT sum(x) FROM (VALUES DECIMAL '0.10', DECIMAL '0.20', DECIMAL '0.05') t(x)",
                "decimal(38, 2)",
                json!("0.35"),
            ),
            (
                "SELECT avg(x) FROM (VALUES DECIMAL '1.00', DECIMAL '2.00', DECIMAL '2.00') t(x)",
                "decimal(3, 2)",
                json!("1.67"),
            ),
            (
                "SELECT avg(DISTINCT x) FROM (VALUES DECIMAL '12345678901234567890.1', DECIMAL '0.1', DECIMAL '0.1') t(x)",
                "decimal(21, 1)",
                json!("6172839450617283945.1"),
            ),
            (
                "SELECT stddev_pop(x) FROM (VALUES DECIMAL '1', DECIMAL '3') t(x)",
                "double",
                json!(1.0),
            ),
            // Elements of arrays keep their exact value (element form: the unscaled value).
            (
                "SELECT ARRAY[DECIMAL '1.5', DECIMAL '12345678901234567890.25']",
                "array(decimal(22, 2))",
                json!(["1.50", "12345678901234567890.25"]),
            ),
            (
                "SELECT element_at(ARRAY[DECIMAL '12345678901234567890.25'], 1) + 1",
                "decimal(23, 2)",
                json!("12345678901234567891.25"),
            ),
        ],
    );
    // Window sums share the aggregate (a frame's sum exact, running and sliding).
    check_rows(
        &engine,
        &[
            (
                "SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES DECIMAL '0.1', DECIMAL '0.2', DECIMAL '0.3') t(x) ORDER BY x",
                json!([["0.1", "0.1"], ["0.2", "0.3"], ["0.3", "0.5"]]),
            ),
            (
                "SELECT avg(x) OVER (), avg(x) OVER (ORDER BY x) FROM (VALUES DECIMAL '1.0', DECIMAL '2.0') t(x) ORDER BY x",
                json!([["1.5", "1.0"], ["1.5", "1.5"]]),
            ),
        ],
    );
}

/// The acceptance: every extendedprice as decimal(12, 2), summed exactly to the cent,
/// against the same sum counted in integer cents.
#[test]
fn lineitem_extendedprice_sums_exactly_to_the_cent() {
    let engine = engine();
    let sum = run(
        &engine,
        "SELECT sum(CAST(extendedprice AS decimal(12,2))) FROM tpch.tiny.lineitem",
    )
    .expect("the decimal sum runs");
    assert_eq!(sum.types, ["decimal(38, 2)"]);
    let cents = run(
        &engine,
        "SELECT sum(CAST(round(extendedprice * 100) AS bigint)) FROM tpch.tiny.lineitem",
    )
    .expect("the sum of cents runs");
    let cents = cents.rows[0][0].as_i64().expect("a bigint");
    let expected = format!("{}.{:02}", cents / 100, cents % 100);
    assert_eq!(sum.rows[0][0], json!(expected));
    // Scaled far past a double's 16 digits (about 2.3e21, to the cent), still exact.
    let scaled = run(
        &engine,
        "SELECT sum(CAST(extendedprice AS decimal(12,2)) * 1000000000000) FROM tpch.tiny.lineitem",
    )
    .expect("the scaled sum runs");
    assert_eq!(scaled.types, ["decimal(38, 2)"]);
    assert_eq!(
        scaled.rows[0][0],
        json!(format!("{}.00", i128::from(cents) * 10_000_000_000))
    );
}

/// TPC-H's money is double, its literals decimal (`0.06 - 0.01`, `100.00 *`, `0.2 *`): each
/// must fold to a double constant or convert inline, never cost a function call per row.
#[test]
fn tpch_decimal_literals_stay_plain_sql() {
    use zero_sandbox::querymesh::engine::SessionContext;
    let engine = engine();
    let session = SessionContext {
        catalog: Some("tpch".into()),
        schema: Some("tiny".into()),
        ..Default::default()
    };
    for n in 1..=22 {
        let path = format!(
            "{}/fixtures/tpch/queries/q{n}.sql",
            env!("CARGO_MANIFEST_DIR")
        );
        let sql = std::fs::read_to_string(&path).expect("the query text");
        let prepared = engine.prepare(&sql, &session).expect("prepares");
        let translated = prepared.sqlite_sql().unwrap_or_default();
        assert!(!translated.contains("qm_dec_"), "q{n}: {translated}");
    }
    let q6 = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/tpch/queries/q6.sql"
    ))
    .expect("q6");
    let prepared = engine.prepare(&q6, &session).expect("prepares");
    let translated = prepared.sqlite_sql().unwrap_or_default();
    assert!(translated.contains("BETWEEN 0.05 AND 0.07"), "{translated}");
}

//! CAST and TRY_CAST.

use serde_json::{Value, json};

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn cast_and_try_cast() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // VarcharOperators: the text is trimmed, then parsed.
            ("SELECT CAST(' 12 ' AS integer)", "integer", json!(12)),
            ("SELECT CAST('-42' AS bigint)", "bigint", json!(-42)),
            ("SELECT CAST('1e3' AS double)", "double", json!(1000.0)),
            ("SELECT CAST('T' AS boolean)", "boolean", json!(true)),
            ("SELECT CAST('false' AS boolean)", "boolean", json!(false)),
            // Decimal and double to integer round half away from zero
            // (DecimalCasts, DoubleOperators.castToInteger with HALF_UP).
            ("SELECT CAST(2.5 AS integer)", "integer", json!(3)),
            ("SELECT CAST(-2.5 AS integer)", "integer", json!(-3)),
            ("SELECT CAST(2.5E0 AS bigint)", "bigint", json!(3)),
            ("SELECT CAST(-2.5E0 AS bigint)", "bigint", json!(-3)),
            // DecimalCasts: rescaling rounds half up.
            (
                "SELECT CAST(1.995 AS decimal(3, 2))",
                "decimal(3, 2)",
                json!("2.00"),
            ),
            (
                "SELECT CAST('1.25' AS decimal(3, 1))",
                "decimal(3, 1)",
                json!("1.3"),
            ),
            ("SELECT CAST(12.50 AS varchar)", "varchar", json!("12.50")),
            (
                "SELECT CAST(CAST(0.125 AS decimal(3, 2)) AS varchar)",
                "varchar",
                json!("0.13"),
            ),
            // DoubleOperators / RealOperators.castToVarchar (Trino 4xx): Java's digits through
            // DecimalFormat("0.0###################E0"), so always scientific; zero is 0E0.
            ("SELECT CAST(1E7 AS varchar)", "varchar", json!("1.0E7")),
            ("SELECT CAST(0.5E0 AS varchar)", "varchar", json!("5.0E-1")),
            (
                "SELECT CAST(0.001E0 AS varchar)",
                "varchar",
                json!("1.0E-3"),
            ),
            (
                "SELECT CAST(1E0 / 3 AS varchar)",
                "varchar",
                json!("3.333333333333333E-1"),
            ),
            (
                "SELECT CAST(REAL '1.1' AS varchar)",
                "varchar",
                json!("1.1E0"),
            ),
            ("SELECT CAST(nan() AS varchar)", "varchar", json!("NaN")),
            // ArrayFunctions.array_join casts each element to varchar the same way.
            (
                "SELECT array_join(ARRAY[1.5E0, 100E0], ',')",
                "varchar",
                json!("1.5E0,1.0E2"),
            ),
            // Real to bigint saturates (RealOperators.castToLong).
            (
                "SELECT CAST(REAL '1e20' AS bigint)",
                "bigint",
                json!(9223372036854775807i64),
            ),
            ("SELECT CAST(true AS varchar)", "varchar", json!("true")),
            ("SELECT CAST(true AS integer)", "integer", json!(1)),
            ("SELECT CAST(12 AS varchar(2))", "varchar(2)", json!("12")),
            (
                "SELECT TRY_CAST(123 AS varchar(2))",
                "varchar(2)",
                Value::Null,
            ),
            (
                "SELECT CAST('abcdef' AS varchar(3))",
                "varchar(3)",
                json!("abc"),
            ),
            (
                "SELECT CAST(DATE '2020-01-02' AS varchar)",
                "varchar",
                json!("2020-01-02"),
            ),
            (
                "SELECT CAST('2020-01-02' AS date)",
                "date",
                json!("2020-01-02"),
            ),
            (
                "SELECT CAST(TIMESTAMP '2020-01-02 03:04:05' AS date)",
                "date",
                json!("2020-01-02"),
            ),
            (
                "SELECT CAST(DATE '2020-01-02' AS timestamp)",
                "timestamp(3)",
                json!("2020-01-02 00:00:00.000"),
            ),
            ("SELECT CAST(NULL AS integer)", "integer", Value::Null),
            ("SELECT CAST(0.1E0 AS real)", "real", json!(0.1)),
            // TRY_CAST: NULL where CAST fails (docs functions/conversion).
            ("SELECT TRY_CAST('abc' AS integer)", "integer", Value::Null),
            ("SELECT TRY_CAST(300 AS tinyint)", "tinyint", Value::Null),
            ("SELECT TRY_CAST('2020-13-01' AS date)", "date", Value::Null),
            ("SELECT TRY_CAST('12' AS bigint)", "bigint", json!(12)),
        ],
    );
    check_errors(
        &engine,
        &[
            // DoubleOperators.castToLong rounds with Guava's DoubleMath: NaN, the infinities
            // and what lies past a long are all "Unable to cast".
            (
                "SELECT CAST(1E19 AS bigint)",
                "INVALID_CAST_ARGUMENT: Unable to cast 1.0E19 to bigint",
            ),
            (
                "SELECT CAST(infinity() AS bigint)",
                "INVALID_CAST_ARGUMENT: Unable to cast Infinity to bigint",
            ),
            (
                "SELECT CAST(1.5E0 AS varchar(2))",
                "INVALID_CAST_ARGUMENT: Value 1.5 (1.5E0) cannot be represented as varchar(2)",
            ),
            // Past 38 digits but inside Trino's 128 bits, rescaling overflows; further out
            // the cast itself fails (TestDecimalCasts).
            (
                "SELECT CAST(1E38 AS decimal(38, 0))",
                "NUMERIC_VALUE_OUT_OF_RANGE: Decimal overflow",
            ),
            (
                "SELECT CAST(1E39 AS decimal(38, 0))",
                "INVALID_CAST_ARGUMENT: Cannot cast DOUBLE '1.0E39' to DECIMAL(38, 0)",
            ),
            // The decimal parser takes no surrounding spaces, unlike the integer casts.
            (
                "SELECT CAST(' 12.5 ' AS decimal(4, 1))",
                "INVALID_CAST_ARGUMENT: Cannot cast VARCHAR ' 12.5 ' to DECIMAL(4, 1). Value is not a number.",
            ),
            // VarcharOperators: "Cannot cast '%s' to INT" (INT for integer), also when the
            // number does not fit.
            (
                "SELECT CAST('abc' AS integer)",
                "INVALID_CAST_ARGUMENT: Cannot cast 'abc' to INT",
            ),
            (
                "SELECT CAST('3000000000' AS integer)",
                "INVALID_CAST_ARGUMENT: Cannot cast '3000000000' to INT",
            ),
            (
                "SELECT CAST('1.5' AS bigint)",
                "INVALID_CAST_ARGUMENT: Cannot cast '1.5' to BIGINT",
            ),
            (
                "SELECT CAST(' true' AS boolean)",
                "INVALID_CAST_ARGUMENT: Cannot cast ' true' to BOOLEAN",
            ),
            // IntegerOperators.castToTinyint: "Out of range for tinyint: 300".
            (
                "SELECT CAST(300 AS tinyint)",
                "NUMERIC_VALUE_OUT_OF_RANGE: Out of range for tinyint: 300",
            ),
            // DecimalConversions.throwCastException: INVALID_CAST_ARGUMENT with both types.
            (
                "SELECT CAST(123.45 AS decimal(4, 2))",
                "INVALID_CAST_ARGUMENT: Cannot cast DECIMAL(5, 2) '123.45' to DECIMAL(4, 2)",
            ),
            // DoubleOperators.castToInteger prints the double as Java does.
            (
                "SELECT CAST(1E10 AS integer)",
                "NUMERIC_VALUE_OUT_OF_RANGE: Out of range for integer: 1.0E10",
            ),
            // IntegerOperators/DateOperators castToVarchar: the text must fit varchar(n).
            (
                "SELECT CAST(12 AS varchar(1))",
                "INVALID_CAST_ARGUMENT: Value 12 cannot be represented as varchar(1)",
            ),
            (
                "SELECT CAST(DATE '2020-01-02' AS varchar(4))",
                "INVALID_CAST_ARGUMENT: Value 2020-01-02 cannot be represented as varchar(4)",
            ),
            // DateOperators.castFromVarchar (and Trino's connector tests):
            // "Value cannot be cast to date: 2005-06-bad-date".
            (
                "SELECT CAST('2005-06-bad-date' AS date)",
                "INVALID_CAST_ARGUMENT: Value cannot be cast to date: 2005-06-bad-date",
            ),
            (
                "SELECT CAST('noon' AS timestamp)",
                "INVALID_CAST_ARGUMENT: Value cannot be cast to timestamp: noon",
            ),
            // DoubleOperators.castToBigint: "Cannot cast double NaN to bigint".
            (
                "SELECT CAST(0E0 / 0E0 AS bigint)",
                "INVALID_CAST_ARGUMENT: Unable to cast NaN to bigint",
            ),
            ("SELECT CAST(1 AS date)", "TYPE_MISMATCH"),
            ("SELECT TRY_CAST(1 AS date)", "TYPE_MISMATCH"),
        ],
    );
}

/// A container cast is one cast: TRY_CAST is NULL as a whole when one element fails, and a map
/// whose keys meet after the cast fails (MapToMapCast "duplicate keys"); Trino 476's answers.
#[test]
fn container_casts_fail_as_a_whole() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT try_cast(ARRAY['1', 'x'] AS array(integer))",
                "array(integer)",
                Value::Null,
            ),
            (
                "SELECT try_cast(ARRAY['1', NULL] AS array(integer))",
                "array(integer)",
                json!([1, null]),
            ),
            (
                "SELECT try_cast(MAP(ARRAY[1.1, 1.2], ARRAY[1, 2]) AS map(integer, integer))",
                "map(integer, integer)",
                Value::Null,
            ),
            (
                "SELECT try_cast(MAP(ARRAY[1], ARRAY['x']) AS map(integer, integer))",
                "map(integer, integer)",
                Value::Null,
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT CAST(MAP(ARRAY[1.1, 1.2], ARRAY[1, 2]) AS map(integer, integer))",
                "INVALID_CAST_ARGUMENT: duplicate keys",
            ),
            ("SELECT CAST(1 AS nosuchtype)", "TYPE_MISMATCH"),
        ],
    );
}

/// `CAST(x AS INTERVAL DAY TO SECOND)` and `… YEAR TO MONTH` (sqlparser reads the type as an
/// interval literal's start; Trino 476 casts NULL and intervals to them, and refuses numbers
/// and text).
#[test]
fn casts_to_interval_types() {
    check_values(
        &engine(),
        &[
            (
                "SELECT CAST(NULL AS INTERVAL DAY TO SECOND)",
                "interval day to second",
                Value::Null,
            ),
            (
                "SELECT CAST(INTERVAL '1' DAY AS interval day to second)",
                "interval day to second",
                json!("1 00:00:00.000"),
            ),
            (
                "SELECT TRY_CAST(INTERVAL '1' MONTH AS INTERVAL YEAR TO MONTH)",
                "interval year to month",
                json!("0-1"),
            ),
        ],
    );
    check_errors(
        &engine(),
        &[(
            "SELECT CAST('1' AS INTERVAL DAY TO SECOND)",
            "TYPE_MISMATCH: line 1:8: Cannot cast varchar(1) to interval day to second",
        )],
    );
}

//! Trino semantics of the constructs issue 5 lists, one by one, at engine level: each case is
//! the result TYPE, VALUE (in Trino's JSON encoding) or ERROR that Trino gives, with the source
//! of that expectation. Sources are trinodb/trino's own code and tests (named by class), and the
//! trino.io function docs (named by page, e.g. "docs functions/string").

use serde_json::{Value, json};
use zero_sandbox::querymesh::engine::Engine;

use crate::support::engine::{engine, run};

/// Checks each `(sql, type, value)`: a one-row, one-column answer; all mismatches reported.
fn check_values(engine: &Engine, cases: &[(&str, &str, Value)]) {
    let mut wrong = Vec::new();
    for (sql, ty, value) in cases {
        match run(engine, sql) {
            Ok(a) if a.rows.len() == 1 && a.types.len() == 1 => {
                let got = (a.types[0].as_str(), &a.rows[0][0]);
                if got != (*ty, value) {
                    wrong.push(format!(
                        "{sql}\n    expected {ty} {value}\n    got      {} {}",
                        got.0, got.1
                    ));
                }
            }
            Ok(a) => wrong.push(format!("{sql}\n    got {:?} rows {:?}", a.types, a.rows)),
            Err(e) => wrong.push(format!(
                "{sql}\n    expected {ty} {value}\n    failed   {e}"
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Checks each `(sql, rows)` for the whole answer.
fn check_rows(engine: &Engine, cases: &[(&str, Value)]) {
    let mut wrong = Vec::new();
    for (sql, expected) in cases {
        match run(engine, sql) {
            Ok(a) if json!(a.rows) == *expected => {}
            Ok(a) => wrong.push(format!(
                "{sql}\n    expected {expected}\n    got      {}",
                json!(a.rows)
            )),
            Err(e) => wrong.push(format!("{sql}\n    failed {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Checks each `(sql, error)`: the query fails and its `"NAME: message"` starts with `error`.
fn check_errors(engine: &Engine, cases: &[(&str, &str)]) {
    let mut wrong = Vec::new();
    for (sql, expected) in cases {
        match run(engine, sql) {
            Err(e) if e.starts_with(expected) => {}
            Err(e) => wrong.push(format!("{sql}\n    expected {expected}\n    got      {e}")),
            Ok(a) => wrong.push(format!(
                "{sql}\n    expected {expected}\n    succeeded {:?} {}",
                a.types,
                json!(a.rows)
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ---- dates, timestamps, intervals ----

#[test]
fn date_and_timestamp_literals_and_interval_arithmetic() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs language/types (DATE, TIMESTAMP(P): the precision is the literal's digits).
            ("SELECT DATE '2020-02-29'", "date", json!("2020-02-29")),
            (
                "SELECT TIMESTAMP '2020-01-02 03:04:05'",
                "timestamp(0)",
                json!("2020-01-02 03:04:05"),
            ),
            (
                "SELECT TIMESTAMP '2020-01-02 03:04:05.123456'",
                "timestamp(6)",
                json!("2020-01-02 03:04:05.123456"),
            ),
            (
                "SELECT TIMESTAMP '2020-01-02'",
                "timestamp(0)",
                json!("2020-01-02 00:00:00"),
            ),
            // docs functions/datetime, "Interval functions" and TestDateTimeOperators: months
            // are added with the day clamped to the month's end.
            (
                "SELECT DATE '2020-03-31' - INTERVAL '1' MONTH",
                "date",
                json!("2020-02-29"),
            ),
            (
                "SELECT DATE '2019-12-31' + INTERVAL '2' DAY",
                "date",
                json!("2020-01-02"),
            ),
            (
                "SELECT INTERVAL '1' YEAR + DATE '2020-02-29'",
                "date",
                json!("2021-02-28"),
            ),
            (
                "SELECT TIMESTAMP '2020-01-01 23:00:00' + INTERVAL '90' MINUTE",
                "timestamp(0)",
                json!("2020-01-02 00:30:00"),
            ),
            (
                "SELECT TIMESTAMP '2020-01-31 10:00:00.000' + INTERVAL '1' MONTH",
                "timestamp(3)",
                json!("2020-02-29 10:00:00.000"),
            ),
            // Interval values: trino-facts.md "Value encoding" (day to second `D HH:MM:SS.fff`,
            // year to month `Y-M`).
            (
                "SELECT INTERVAL '1' DAY + INTERVAL '2' HOUR",
                "interval day to second",
                json!("1 02:00:00.000"),
            ),
            (
                "SELECT INTERVAL '3' YEAR - INTERVAL '1' MONTH",
                "interval year to month",
                json!("2-11"),
            ),
            // A date or a less precise timestamp compares as the more precise timestamp
            // (implicit coercion, docs language/types "TIMESTAMP(P)").
            (
                "SELECT TIMESTAMP '2020-01-02 03:04:05.123456' > TIMESTAMP '2020-01-02 03:04:05.123'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT TIMESTAMP '2020-01-02 03:04:05.1' = TIMESTAMP '2020-01-02 03:04:05.100000'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT DATE '2020-01-02' BETWEEN TIMESTAMP '2020-01-02 00:00:00' AND TIMESTAMP '2020-01-03 00:00:00'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT DATE '2020-01-02' IN (TIMESTAMP '2020-01-02 00:00:00.000000')",
                "boolean",
                json!(true),
            ),
            (
                "SELECT DATE '2020-01-02' IS DISTINCT FROM TIMESTAMP '2020-01-02 00:00:00'",
                "boolean",
                json!(false),
            ),
            // A common super type converts every branch's value (TypeCoercion).
            (
                "SELECT CASE WHEN true THEN DATE '2020-01-02' ELSE TIMESTAMP '2020-01-02 03:04:05' END",
                "timestamp(0)",
                json!("2020-01-02 00:00:00"),
            ),
            (
                "SELECT coalesce(NULL, DATE '2020-01-02', TIMESTAMP '2020-01-02 03:04:05.1')",
                "timestamp(1)",
                json!("2020-01-02 00:00:00.0"),
            ),
            (
                "SELECT CASE DATE '2020-01-02' WHEN TIMESTAMP '2020-01-02 00:00:00' THEN 'same' END",
                "varchar(4)",
                json!("same"),
            ),
            (
                "SELECT count(*) FROM (SELECT DATE '2020-01-02' UNION SELECT TIMESTAMP '2020-01-02 00:00:00')",
                "bigint",
                json!(1),
            ),
            (
                "SELECT max(x) FROM (VALUES (DATE '2020-01-02'), (TIMESTAMP '2020-01-01 23:00:00')) t (x)",
                "timestamp(0)",
                json!("2020-01-02 00:00:00"),
            ),
            // Casting to a lower precision rounds; to varchar writes the type's digits.
            (
                "SELECT CAST(TIMESTAMP '2020-01-02 03:04:05.123456' AS timestamp(3))",
                "timestamp(3)",
                json!("2020-01-02 03:04:05.123"),
            ),
            (
                "SELECT CAST(TIMESTAMP '2020-01-02 23:59:59.9999' AS timestamp(0))",
                "timestamp(0)",
                json!("2020-01-03 00:00:00"),
            ),
            (
                "SELECT CAST(TIMESTAMP '2020-01-02 03:04:05' AS varchar)",
                "varchar",
                json!("2020-01-02 03:04:05"),
            ),
            // Interval literals with two fields and fractional seconds, and interval * n.
            (
                "SELECT INTERVAL '1-2' YEAR TO MONTH",
                "interval year to month",
                json!("1-2"),
            ),
            (
                "SELECT INTERVAL '2 03:04:05.5' DAY TO SECOND",
                "interval day to second",
                json!("2 03:04:05.500"),
            ),
            (
                "SELECT INTERVAL '3:04' HOUR TO MINUTE",
                "interval day to second",
                json!("0 03:04:00.000"),
            ),
            (
                "SELECT INTERVAL '1.5' SECOND",
                "interval day to second",
                json!("0 00:00:01.500"),
            ),
            (
                "SELECT INTERVAL '-1' DAY",
                "interval day to second",
                json!("-1 00:00:00.000"),
            ),
            (
                "SELECT DATE '2020-01-31' + INTERVAL '1-1' YEAR TO MONTH",
                "date",
                json!("2021-02-28"),
            ),
            (
                "SELECT DATE '2020-01-01' + INTERVAL '1' DAY * 3",
                "date",
                json!("2020-01-04"),
            ),
            (
                "SELECT 2 * INTERVAL '5' MONTH",
                "interval year to month",
                json!("0-10"),
            ),
            (
                "SELECT orderdate + INTERVAL '1' DAY FROM orders WHERE orderkey = 1",
                "date",
                json!("1996-01-03"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // DateTimeOperators.datePlusIntervalDayToSecond refuses a fraction of a day.
            (
                "SELECT DATE '2020-01-01' + INTERVAL '1' HOUR",
                "INVALID_FUNCTION_ARGUMENT",
            ),
            ("SELECT DATE '2020-02-30'", "INVALID_LITERAL"),
            ("SELECT INTERVAL '1-13' YEAR TO MONTH", "INVALID_LITERAL"),
            ("SELECT INTERVAL 'x' DAY", "INVALID_LITERAL"),
            ("SELECT DATE '2020-01-01' + 1", "TYPE_MISMATCH"),
        ],
    );
}

#[test]
fn extract_and_the_parts_of_dates() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/datetime "Convenience extraction functions": all bigint;
            // day_of_week is ISO (Monday 1 … Sunday 7), week is the ISO week.
            (
                "SELECT extract(YEAR FROM DATE '2020-08-15')",
                "bigint",
                json!(2020),
            ),
            ("SELECT month(DATE '2020-08-15')", "bigint", json!(8)),
            ("SELECT day(DATE '2020-08-15')", "bigint", json!(15)),
            ("SELECT quarter(DATE '2020-08-15')", "bigint", json!(3)),
            (
                "SELECT extract(QUARTER FROM DATE '2020-01-01')",
                "bigint",
                json!(1),
            ),
            ("SELECT day_of_week(DATE '2024-01-07')", "bigint", json!(7)),
            (
                "SELECT extract(DOW FROM DATE '2024-01-01')",
                "bigint",
                json!(1),
            ),
            ("SELECT week(DATE '2021-01-03')", "bigint", json!(53)),
            ("SELECT week_of_year(DATE '2021-01-04')", "bigint", json!(1)),
            (
                "SELECT day_of_year(DATE '2020-12-31')",
                "bigint",
                json!(366),
            ),
            (
                "SELECT extract(DOY FROM DATE '2021-03-01')",
                "bigint",
                json!(60),
            ),
            // ExtractField: DAY_OF_WEEK, DAY_OF_MONTH, DAY_OF_YEAR and YEAR_OF_WEEK too.
            (
                "SELECT extract(DAY_OF_WEEK FROM DATE '2024-01-07')",
                "bigint",
                json!(7),
            ),
            (
                "SELECT extract(DAY_OF_MONTH FROM DATE '2024-01-07')",
                "bigint",
                json!(7),
            ),
            (
                "SELECT extract(DAY_OF_YEAR FROM DATE '2024-02-01')",
                "bigint",
                json!(32),
            ),
            (
                "SELECT extract(YEAR_OF_WEEK FROM DATE '2021-01-03')",
                "bigint",
                json!(2020),
            ),
            (
                "SELECT year_of_week(DATE '2019-12-30')",
                "bigint",
                json!(2020),
            ),
            ("SELECT yow(DATE '2019-12-29')", "bigint", json!(2019)),
            (
                "SELECT hour(TIMESTAMP '2020-01-02 03:04:05.678')",
                "bigint",
                json!(3),
            ),
            (
                "SELECT extract(MINUTE FROM TIMESTAMP '2020-01-02 03:04:05')",
                "bigint",
                json!(4),
            ),
            (
                "SELECT second(TIMESTAMP '2020-01-02 03:04:05.678')",
                "bigint",
                json!(5),
            ),
            (
                "SELECT year(TIMESTAMP '1999-12-31 23:59:59')",
                "bigint",
                json!(1999),
            ),
            (
                "SELECT year(orderdate) FROM orders WHERE orderkey = 1",
                "bigint",
                json!(1996),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            ("SELECT year('2020-01-01')", "FUNCTION_NOT_FOUND"),
            // AstBuilder.visitExtract: "Invalid EXTRACT field: foo" (a parse error).
            (
                "SELECT extract(foo FROM DATE '2020-01-01')",
                "SYNTAX_ERROR: line 1:8: Invalid EXTRACT field: foo",
            ),
        ],
    );
}

#[test]
fn date_trunc_date_add_and_date_diff() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/datetime "Truncation function": week starts on Monday; the unit
            // is case-insensitive (DateTimeFunctions.getDateField lower-cases it).
            (
                "SELECT date_trunc('week', DATE '2024-01-07')",
                "date",
                json!("2024-01-01"),
            ),
            (
                "SELECT date_trunc('quarter', DATE '2020-08-15')",
                "date",
                json!("2020-07-01"),
            ),
            (
                "SELECT date_trunc('YEAR', DATE '2020-08-15')",
                "date",
                json!("2020-01-01"),
            ),
            (
                "SELECT date_trunc('hour', TIMESTAMP '2001-08-22 03:04:05.321')",
                "timestamp(3)",
                json!("2001-08-22 03:00:00.000"),
            ),
            (
                "SELECT date_trunc('month', TIMESTAMP '2001-08-22 03:04:05.321')",
                "timestamp(3)",
                json!("2001-08-01 00:00:00.000"),
            ),
            // docs "Interval functions": date_add(unit, value, timestamp).
            (
                "SELECT date_add('month', 1, DATE '2020-01-31')",
                "date",
                json!("2020-02-29"),
            ),
            (
                "SELECT date_add('day', NULL, DATE '2020-03-01')",
                "date",
                Value::Null,
            ),
            (
                "SELECT date_add('day', -1, DATE '2020-03-01')",
                "date",
                json!("2020-02-29"),
            ),
            (
                "SELECT date_add('quarter', 1, DATE '2020-11-30')",
                "date",
                json!("2021-02-28"),
            ),
            (
                "SELECT date_add('hour', 25, TIMESTAMP '2020-01-01 00:00:00')",
                "timestamp(0)",
                json!("2020-01-02 01:00:00"),
            ),
            (
                "SELECT date_add('second', -1, TIMESTAMP '2020-01-01 00:00:00.000')",
                "timestamp(3)",
                json!("2019-12-31 23:59:59.000"),
            ),
            // date_diff is Joda's field difference (DateTimeFunctions.diffDate): a month
            // counts when adding it does not pass the later date, so Jan 31 → Feb 29 is one.
            (
                "SELECT date_diff('day', DATE '2020-03-15', DATE '2020-03-01')",
                "bigint",
                json!(-14),
            ),
            (
                "SELECT date_diff('week', DATE '2020-01-01', DATE '2020-01-14')",
                "bigint",
                json!(1),
            ),
            (
                "SELECT date_diff('month', DATE '2020-01-31', DATE '2020-02-29')",
                "bigint",
                json!(1),
            ),
            (
                "SELECT date_diff('month', DATE '2020-02-29', DATE '2020-01-31')",
                "bigint",
                json!(-1),
            ),
            (
                "SELECT date_diff('month', DATE '2020-01-15', DATE '2020-02-14')",
                "bigint",
                json!(0),
            ),
            (
                "SELECT date_diff('quarter', DATE '2020-01-01', DATE '2020-12-31')",
                "bigint",
                json!(3),
            ),
            (
                "SELECT date_diff('year', DATE '2020-02-29', DATE '2021-02-28')",
                "bigint",
                json!(1),
            ),
            (
                "SELECT date_diff('year', DATE '2020-03-01', DATE '2021-02-28')",
                "bigint",
                json!(0),
            ),
            (
                "SELECT date_diff('hour', TIMESTAMP '2020-01-01 00:00:00', TIMESTAMP '2020-01-02 01:30:00')",
                "bigint",
                json!(25),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // DateTimeFunctions.getDateField: "'hour' is not a valid DATE field".
            (
                "SELECT date_trunc('hour', DATE '2020-01-01')",
                "INVALID_FUNCTION_ARGUMENT: 'hour' is not a valid DATE field",
            ),
            (
                "SELECT date_add('fortnight', 1, DATE '2020-01-01')",
                "INVALID_FUNCTION_ARGUMENT",
            ),
        ],
    );
}

// ---- CAST and TRY_CAST ----

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
            // Double to varchar is Java's Double.toString.
            ("SELECT CAST(1E7 AS varchar)", "varchar", json!("1.0E7")),
            ("SELECT CAST(0.5E0 AS varchar)", "varchar", json!("0.5")),
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
            (
                "SELECT CAST(123.45 AS decimal(4, 2))",
                "NUMERIC_VALUE_OUT_OF_RANGE",
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
                "INVALID_CAST_ARGUMENT: Cannot cast double NaN to bigint",
            ),
            ("SELECT CAST(1 AS date)", "TYPE_MISMATCH"),
            ("SELECT TRY_CAST(1 AS date)", "TYPE_MISMATCH"),
        ],
    );
}

// ---- strings ----

#[test]
fn substring_strpos_length_and_concat() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // StringFunctions.substring and TestStringFunctions.testSubstring: a negative
            // start counts from the end; 0, or a start outside the string, gives ''.
            (
                "SELECT substr('Quadratically', 5)",
                "varchar(13)",
                json!("ratically"),
            ),
            (
                "SELECT substr('Quadratically', 5, 6)",
                "varchar(13)",
                json!("ratica"),
            ),
            (
                "SELECT substr('Quadratically', -5)",
                "varchar(13)",
                json!("cally"),
            ),
            (
                "SELECT substr('Quadratically', -5, 3)",
                "varchar(13)",
                json!("cal"),
            ),
            (
                "SELECT substr('Quadratically', 0)",
                "varchar(13)",
                json!(""),
            ),
            (
                "SELECT substr('Quadratically', 0, 3)",
                "varchar(13)",
                json!(""),
            ),
            (
                "SELECT substr('Quadratically', 14)",
                "varchar(13)",
                json!(""),
            ),
            (
                "SELECT substr('Quadratically', -14)",
                "varchar(13)",
                json!(""),
            ),
            (
                "SELECT substr('Quadratically', -14, 5)",
                "varchar(13)",
                json!(""),
            ),
            (
                "SELECT substr('Quadratically', 2, -1)",
                "varchar(13)",
                json!(""),
            ),
            (
                "SELECT substring('Trino' FROM 2 FOR 3)",
                "varchar(5)",
                json!("rin"),
            ),
            (
                "SELECT substring(name, -3) FROM nation WHERE nationkey = 0",
                "varchar(25)",
                json!("RIA"),
            ),
            // StringFunctions.stringPosition: 0 when absent, 1 for '', code points.
            ("SELECT strpos('abc', 'd')", "bigint", json!(0)),
            ("SELECT strpos('abc', '')", "bigint", json!(1)),
            ("SELECT strpos('äbc', 'c')", "bigint", json!(3)),
            ("SELECT strpos('abcabc', 'c', 2)", "bigint", json!(6)),
            ("SELECT strpos('abcabc', 'a', -1)", "bigint", json!(4)),
            ("SELECT strpos('abcabc', 'c', 3)", "bigint", json!(0)),
            // StringFunctions.length counts code points.
            ("SELECT length('äbc')", "bigint", json!(3)),
            ("SELECT length('')", "bigint", json!(0)),
            // A bare NULL argument takes the parameter's type (docs functions: any NULL
            // argument gives NULL).
            ("SELECT substr('abc', NULL)", "varchar(3)", Value::Null),
            ("SELECT strpos('abc', 'b', NULL)", "bigint", Value::Null),
            ("SELECT length(CAST('ab' AS char(5)))", "bigint", json!(5)),
            // docs functions/string concat: NULL if any argument is NULL; `||` the same.
            ("SELECT concat('a', NULL)", "varchar(1)", Value::Null),
            ("SELECT concat('a', 'b', 'cd')", "varchar(4)", json!("abcd")),
            ("SELECT 'a' || NULL", "varchar(1)", Value::Null),
            ("SELECT 'ab' || 'c'", "varchar(3)", json!("abc")),
        ],
    );
    check_errors(
        &engine,
        &[
            // ConcatFunction: "There must be two or more concatenation arguments".
            (
                "SELECT concat('a')",
                "INVALID_FUNCTION_ARGUMENT: line 1:8: There must be two or more concatenation arguments",
            ),
            ("SELECT 'a' || 1", "FUNCTION_NOT_FOUND"),
            ("SELECT substr(1234, 2)", "FUNCTION_NOT_FOUND"),
            ("SELECT length(12)", "FUNCTION_NOT_FOUND"),
            (
                "SELECT strpos('abc', 'a', 0)",
                "INVALID_FUNCTION_ARGUMENT: 'instance' must be a positive or negative number.",
            ),
        ],
    );
}

#[test]
fn case_mapping_trim_and_replace() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // StringFunctions.lower/upper map every code point (not only ASCII), one to one.
            ("SELECT lower('ÄÖÜ ABC')", "varchar(7)", json!("äöü abc")),
            ("SELECT upper('straße é')", "varchar(8)", json!("STRAßE É")),
            // trim/ltrim/rtrim remove whitespace (SliceUtf8.trim: tabs and newlines too).
            ("SELECT trim(' \t a b \n ')", "varchar(9)", json!("a b")),
            ("SELECT ltrim('  a ')", "varchar(4)", json!("a ")),
            ("SELECT rtrim('  a ')", "varchar(4)", json!("  a")),
            // The SQL form with characters trims only those (docs functions/string trim).
            (
                "SELECT trim(BOTH 'x' FROM 'xxaxx')",
                "varchar(5)",
                json!("a"),
            ),
            (
                "SELECT trim(LEADING 'x' FROM 'xxaxx')",
                "varchar(5)",
                json!("axx"),
            ),
            ("SELECT trim('xyaxy', 'xy')", "varchar(5)", json!("a")),
            // StringFunctions.replace: 2 arguments keep varchar(x); 3 give
            // varchar(x + z * (x + 1)); an empty search inserts before every code point.
            ("SELECT replace('a-b-c', '-')", "varchar(5)", json!("abc")),
            (
                "SELECT replace('a-b-c', '-', '+')",
                "varchar(11)",
                json!("a+b+c"),
            ),
            (
                "SELECT replace('abc', '', '-')",
                "varchar(7)",
                json!("-a-b-c-"),
            ),
            (
                "SELECT replace(name, 'A', 'a') FROM region WHERE regionkey = 0",
                "varchar(51)",
                json!("aFRICa"),
            ),
        ],
    );
}

// ---- conditionals and predicates ----

#[test]
fn coalesce_nullif_case_like_in_between() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/conditional.
            ("SELECT coalesce(NULL, 2, 3)", "integer", json!(2)),
            ("SELECT coalesce(1, 2.5)", "decimal(11, 1)", json!("1.0")),
            ("SELECT nullif(1, 1)", "integer", Value::Null),
            ("SELECT nullif('a', 'b')", "varchar(1)", json!("a")),
            (
                "SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END",
                "varchar(3)",
                json!("two"),
            ),
            ("SELECT CASE WHEN false THEN 1 END", "integer", Value::Null),
            (
                "SELECT CASE WHEN true THEN 1 ELSE 2.5 END",
                "decimal(11, 1)",
                json!("1.0"),
            ),
            // docs functions/comparison LIKE: case-sensitive; ESCAPE makes % and _ literal.
            ("SELECT 'abc' LIKE 'A%'", "boolean", json!(false)),
            ("SELECT 'abc' LIKE 'a_c'", "boolean", json!(true)),
            (
                "SELECT 'a_c' LIKE 'a#_c' ESCAPE '#'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT 'abc' LIKE 'a#_c' ESCAPE '#'",
                "boolean",
                json!(false),
            ),
            (
                "SELECT '50%' LIKE '50\\%' ESCAPE '\\'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT 'a#b' LIKE 'a##b' ESCAPE '#'",
                "boolean",
                json!(true),
            ),
            ("SELECT 'abc' NOT LIKE '%b%'", "boolean", json!(false)),
            // IN and BETWEEN with SQL's three-valued logic and implicit coercion.
            ("SELECT 2 IN (1, 2)", "boolean", json!(true)),
            ("SELECT 3 IN (1, NULL)", "boolean", Value::Null),
            ("SELECT 1 IN (1.0, 2.5)", "boolean", json!(true)),
            ("SELECT 3 NOT IN (1, 2)", "boolean", json!(true)),
            ("SELECT 2 BETWEEN 3 AND 1", "boolean", json!(false)),
            ("SELECT 'b' BETWEEN 'a' AND 'c'", "boolean", json!(true)),
            ("SELECT 2 NOT BETWEEN 1 AND 3", "boolean", json!(false)),
            (
                "SELECT DATE '2020-01-02' BETWEEN DATE '2020-01-01' AND DATE '2020-01-31'",
                "boolean",
                json!(true),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // LikeFunctions / LikePattern: the escape is one character and must escape
            // %, _ or itself.
            (
                "SELECT 'a' LIKE 'a' ESCAPE '##'",
                "INVALID_FUNCTION_ARGUMENT: Escape string must be a single character",
            ),
            (
                "SELECT 'ab' LIKE 'a#b' ESCAPE '#'",
                "INVALID_FUNCTION_ARGUMENT: Escape character must be followed by '%', '_' or the escape character itself",
            ),
            ("SELECT 'a' IN (1, 2)", "TYPE_MISMATCH"),
            ("SELECT 1 BETWEEN 'a' AND 'b'", "TYPE_MISMATCH"),
            ("SELECT 1 LIKE '1'", "TYPE_MISMATCH"),
            ("SELECT nullif(1, 'a')", "FUNCTION_NOT_FOUND"),
            ("SELECT coalesce(1, 'a')", "FUNCTION_NOT_FOUND"),
            ("SELECT CASE WHEN true THEN 1 ELSE 'a' END", "TYPE_MISMATCH"),
        ],
    );
}

// ---- query structure ----

#[test]
fn subqueries_ctes_and_set_operations() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            // Correlated EXISTS / NOT EXISTS and a correlated scalar subquery
            // (AbstractTestQueries.testCorrelatedExistsSubqueries-style).
            (
                "SELECT name FROM region r WHERE NOT EXISTS (SELECT 1 FROM nation n WHERE n.regionkey = r.regionkey AND n.nationkey < 5) ORDER BY name",
                json!([["ASIA"], ["EUROPE"]]),
            ),
            (
                "SELECT regionkey, (SELECT count(*) FROM nation n WHERE n.regionkey = r.regionkey) FROM region r ORDER BY regionkey LIMIT 2",
                json!([[0, 5], [1, 5]]),
            ),
            (
                "SELECT count(*) FROM nation n WHERE nationkey = (SELECT max(nationkey) FROM nation m WHERE m.regionkey = n.regionkey)",
                json!([[5]]),
            ),
            // CTEs, one reading another (docs sql/select "WITH clause").
            (
                "WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT y FROM b",
                json!([[2]]),
            ),
            (
                "WITH t (k) AS (SELECT regionkey FROM region) SELECT count(*) FROM t a JOIN t b ON a.k = b.k",
                json!([[5]]),
            ),
            // docs sql/select "UNION | INTERSECT | EXCEPT clause": DISTINCT is the default,
            // ALL keeps duplicates (INTERSECT ALL and EXCEPT ALL count them).
            ("SELECT 1 UNION ALL SELECT 1", json!([[1], [1]])),
            ("SELECT 1 UNION SELECT 1", json!([[1]])),
            ("SELECT 1 UNION DISTINCT SELECT 1", json!([[1]])),
            (
                "SELECT x FROM (VALUES (1), (1), (1), (2)) t (x) INTERSECT ALL SELECT x FROM (VALUES (1), (1), (3)) u (x) ORDER BY 1",
                json!([[1], [1]]),
            ),
            (
                "SELECT x FROM (VALUES (1), (1), (1), (2)) t (x) EXCEPT ALL SELECT x FROM (VALUES (1), (3)) u (x) ORDER BY 1",
                json!([[1], [1], [2]]),
            ),
            (
                "SELECT x FROM (VALUES (1), (1), (2)) t (x) INTERSECT DISTINCT SELECT 1",
                json!([[1]]),
            ),
            (
                "SELECT x FROM (VALUES (1), (1), (2), (NULL)) t (x) EXCEPT SELECT 2 ORDER BY 1",
                json!([[1], [null]]),
            ),
            // SqlBase.g4: `VALUES expression, …` rows need no parentheses when they have one
            // column.
            ("VALUES 3, 1, 2 ORDER BY 1", json!([[1], [2], [3]])),
            ("SELECT sum(x) FROM (VALUES 1, 2, 3) t (x)", json!([[6]])),
            (
                "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t (k, v) WHERE k = 2",
                json!([[2, "b"]]),
            ),
            (
                "SELECT x FROM (VALUES 1 + 1, abs(-3)) t (x) ORDER BY x",
                json!([[2], [3]]),
            ),
            // INTERSECT binds tighter than UNION.
            (
                "SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 ORDER BY 1",
                json!([[1]]),
            ),
        ],
    );
    // The set operation's column names come from its first query, types from both.
    let a = run(&engine, "SELECT 1 AS a UNION SELECT 2.5 AS b ORDER BY 1").expect("union");
    assert_eq!(
        (a.names, a.types, json!(a.rows)),
        (
            vec!["a".to_string()],
            vec!["decimal(11, 1)".to_string()],
            json!([["1.0"], ["2.5"]])
        )
    );
    check_errors(
        &engine,
        &[
            ("SELECT 1 UNION SELECT 'a'", "TYPE_MISMATCH"),
            ("SELECT 1, 2 EXCEPT SELECT 1", "TYPE_MISMATCH"),
        ],
    );
}

#[test]
fn grouping_ordering_and_row_counts() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT regionkey, count(*) c FROM nation GROUP BY regionkey HAVING count(*) = 5 ORDER BY regionkey DESC LIMIT 2",
                json!([[4, 5], [3, 5]]),
            ),
            (
                "SELECT count(*) FROM nation HAVING count(*) > 100",
                json!([]),
            ),
            (
                "SELECT nationkey % 2, count(*) FROM nation GROUP BY nationkey % 2 ORDER BY 1",
                json!([[0, 13], [1, 12]]),
            ),
            // docs sql/select "ORDER BY clause": NULLS LAST is the default in both
            // directions.
            (
                "SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x",
                json!([[1], [2], [null]]),
            ),
            (
                "SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x DESC",
                json!([[2], [1], [null]]),
            ),
            (
                "SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x DESC NULLS FIRST",
                json!([[null], [2], [1]]),
            ),
            (
                "SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x ASC NULLS FIRST",
                json!([[null], [1], [2]]),
            ),
            // docs sql/select "OFFSET", "LIMIT or FETCH FIRST clauses".
            (
                "SELECT regionkey FROM region ORDER BY regionkey OFFSET 2 ROWS FETCH NEXT 2 ROWS ONLY",
                json!([[2], [3]]),
            ),
            (
                "SELECT regionkey FROM region ORDER BY regionkey OFFSET 4 LIMIT 10",
                json!([[4]]),
            ),
            (
                "SELECT regionkey FROM region ORDER BY regionkey FETCH FIRST ROW ONLY",
                json!([[0]]),
            ),
            (
                "SELECT count(*) FROM (SELECT regionkey FROM region LIMIT ALL)",
                json!([[5]]),
            ),
            // FETCH FIRST … WITH TIES keeps the rows tied with the last one.
            (
                "SELECT regionkey FROM nation ORDER BY regionkey FETCH FIRST 2 ROWS WITH TIES",
                json!([[0], [0], [0], [0], [0]]),
            ),
            (
                "SELECT regionkey FROM nation ORDER BY regionkey OFFSET 3 ROWS FETCH NEXT 3 ROWS WITH TIES",
                json!([[0], [0], [1], [1], [1], [1], [1]]),
            ),
            (
                "SELECT name AS n FROM region ORDER BY n DESC FETCH FIRST 2 ROWS WITH TIES",
                json!([["MIDDLE EAST"], ["EUROPE"]]),
            ),
            (
                "SELECT count(*) FROM (SELECT regionkey, count(*) c FROM nation GROUP BY regionkey ORDER BY c FETCH FIRST 1 ROW WITH TIES)",
                json!([[5]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // StatementAnalyzer: "FETCH FIRST WITH TIES clause requires ORDER BY".
            (
                "SELECT regionkey FROM nation FETCH FIRST 2 ROWS WITH TIES",
                "MISSING_ORDER_BY",
            ),
            ("SELECT 1 LIMIT 1.5", "SYNTAX_ERROR"),
        ],
    );
}

#[test]
fn window_functions() {
    let engine = engine();
    let t = "(VALUES (1, 10), (2, 20), (3, 20), (4, 40), (5, 50)) t (k, v)";
    let column = |expr: &str| format!("SELECT {expr} FROM {t} ORDER BY k");
    let cases: Vec<(String, &str, Value)> = vec![
        // docs functions/window: ranking functions are bigint, distributions double.
        (
            column("row_number() OVER (ORDER BY v DESC, k)"),
            "bigint",
            json!([5, 3, 4, 2, 1]),
        ),
        (
            column("rank() OVER (ORDER BY v)"),
            "bigint",
            json!([1, 2, 2, 4, 5]),
        ),
        (
            column("dense_rank() OVER (ORDER BY v)"),
            "bigint",
            json!([1, 2, 2, 3, 4]),
        ),
        (
            column("ntile(2) OVER (ORDER BY k)"),
            "bigint",
            json!([1, 1, 1, 2, 2]),
        ),
        (
            column("percent_rank() OVER (ORDER BY v)"),
            "double",
            json!([0.0, 0.25, 0.25, 0.75, 1.0]),
        ),
        (
            column("cume_dist() OVER (ORDER BY v)"),
            "double",
            json!([0.2, 0.6, 0.6, 0.8, 1.0]),
        ),
        // lag/lead(x, offset, default): the value's type.
        (
            column("lag(v, 2, 0) OVER (ORDER BY k)"),
            "integer",
            json!([0, 0, 10, 20, 20]),
        ),
        (
            column("lead(v) OVER (ORDER BY k)"),
            "integer",
            json!([20, 20, 40, 50, null]),
        ),
        (
            column("lead(v, 1, -1) OVER (ORDER BY k)"),
            "integer",
            json!([20, 20, 40, 50, -1]),
        ),
        // The default frame is RANGE UNBOUNDED PRECEDING to CURRENT ROW, peers included.
        (
            column("first_value(v) OVER (ORDER BY k DESC)"),
            "integer",
            json!([50, 50, 50, 50, 50]),
        ),
        (
            column("last_value(k) OVER (ORDER BY v)"),
            "integer",
            json!([1, 3, 3, 4, 5]),
        ),
        (
            column("sum(v) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)"),
            "bigint",
            json!([10, 30, 40, 60, 90]),
        ),
        (
            column("avg(v) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)"),
            "double",
            json!([
                15.0,
                16.666666666666668,
                26.666666666666668,
                36.666666666666664,
                45.0
            ]),
        ),
        (
            column("sum(v) OVER ()"),
            "bigint",
            json!([140, 140, 140, 140, 140]),
        ),
        (
            column("count(*) OVER (PARTITION BY v)"),
            "bigint",
            json!([1, 2, 2, 1, 1]),
        ),
    ];
    let mut wrong = Vec::new();
    for (sql, ty, expected) in &cases {
        match run(&engine, sql) {
            Ok(a) => {
                let values: Vec<Value> = a.rows.iter().map(|r| r[0].clone()).collect();
                if a.types[0] != *ty || json!(values) != *expected {
                    wrong.push(format!(
                        "{sql}\n    expected {ty} {expected}\n    got      {} {}",
                        a.types[0],
                        json!(values)
                    ));
                }
            }
            Err(e) => wrong.push(format!("{sql}\n    failed {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    check_errors(
        &engine,
        &[
            // lag(x, offset, default): the default must have x's type.
            (
                &column("lag(v, 1, 'x') OVER (ORDER BY k)"),
                "FUNCTION_NOT_FOUND",
            ),
            (
                &column("ntile('a') OVER (ORDER BY k)"),
                "FUNCTION_NOT_FOUND",
            ),
            ("SELECT row_number() FROM nation", "GENERIC_USER_ERROR"),
            // LagFunction and NTileFunction check their counts while running.
            (
                &column("lag(v, -1) OVER (ORDER BY k)"),
                "INVALID_FUNCTION_ARGUMENT: Offset must be at least 0",
            ),
            (
                &column("lead(v, k - 2) OVER (ORDER BY k)"),
                "INVALID_FUNCTION_ARGUMENT: Offset must be at least 0",
            ),
            (
                &column("ntile(0) OVER (ORDER BY k)"),
                "INVALID_FUNCTION_ARGUMENT: Buckets must be greater than 0",
            ),
            (
                &column("ntile(k - 1) OVER (ORDER BY k)"),
                "INVALID_FUNCTION_ARGUMENT: Buckets must be greater than 0",
            ),
            // SQLite cannot skip NULLs in value functions: refused rather than ignored.
            (
                &column("first_value(v) IGNORE NULLS OVER (ORDER BY k)"),
                "NOT_SUPPORTED",
            ),
        ],
    );
}

// ---- numbers ----

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
            // away from zero); Math.round saturates at Long.MAX_VALUE.
            ("SELECT round(2.5E0)", "double", json!(3.0)),
            ("SELECT round(-2.5E0)", "double", json!(-3.0)),
            ("SELECT round(-0.5E0)", "double", json!(-1.0)),
            ("SELECT round(2.345E0, 2)", "double", json!(2.35)),
            ("SELECT round(1234.5E0, -2)", "double", json!(1200.0)),
            (
                "SELECT round(1E300, 2)",
                "double",
                json!(92233720368547758.0),
            ),
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

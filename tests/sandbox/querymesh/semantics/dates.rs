//! Dates, timestamps and intervals: literals, arithmetic, EXTRACT, date_trunc, date_add, date_diff.

use serde_json::{Value, json};

use super::{check_errors, check_values};
use crate::support::engine::engine;

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
                // A day-to-second interval gives at least millisecond precision.
                "SELECT TIMESTAMP '2020-01-01 23:00:00' + INTERVAL '90' MINUTE",
                "timestamp(3)",
                json!("2020-01-02 00:30:00.000"),
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

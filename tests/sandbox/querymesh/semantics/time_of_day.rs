//! time(p) and time(p) with time zone (docs language/types "TIME", "TIME WITH TIME ZONE";
//! functions/datetime), and intervals beyond their literals: values, types and errors as
//! Trino 476 answers them (TestTime, TestTimeWithTimeZone, TestIntervalDayTime).

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn time_literals_casts_and_comparisons() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // The precision is the digits written; an offset makes a time with time zone.
            ("SELECT TIME '13:45'", "time(0)", json!("13:45:00")),
            (
                "SELECT TIME '13:45:07.123456'",
                "time(6)",
                json!("13:45:07.123456"),
            ),
            (
                "SELECT TIME '08:15:00.250 -07:30'",
                "time(3) with time zone",
                json!("08:15:00.250-07:30"),
            ),
            (
                "SELECT CAST('12:34' AS time)",
                "time(3)",
                json!("12:34:00.000"),
            ),
            // Rounding half up wraps past midnight.
            (
                "SELECT CAST(TIME '23:59:59.9' AS time(0))",
                "time(0)",
                json!("00:00:00"),
            ),
            (
                "SELECT CAST(TIMESTAMP '2020-02-29 12:34:56.789 Europe/Warsaw' AS time with time zone)",
                "time(3) with time zone",
                json!("12:34:56.789+01:00"),
            ),
            (
                "SELECT CAST(TIME '12:34:56 +05:30' AS time)",
                "time(3)",
                json!("12:34:56.000"),
            ),
            (
                "SELECT CAST(TIME '12:34:56.789' AS varchar)",
                "varchar",
                json!("12:34:56.789"),
            ),
            // A time with time zone compares by its instant.
            (
                "SELECT TIME '10:00:00 +02:00' = TIME '08:00:00 +00:00'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT TIME '07:00:00' < TIME '07:00:00.000001'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT typeof(TIME '12:00:00+05:00')",
                "varchar",
                json!("time(0) with time zone"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            ("SELECT TIME '24:00:00'", "INVALID_LITERAL"),
            (
                "SELECT TIME '10:00:00.1234567890123'",
                "NUMERIC_VALUE_OUT_OF_RANGE",
            ),
            (
                "SELECT CAST('12:34:56 +05:30' AS time)",
                "INVALID_CAST_ARGUMENT",
            ),
            (
                "SELECT last_day_of_month(TIME '10:00:00')",
                "FUNCTION_NOT_FOUND",
            ),
        ],
    );
}

#[test]
fn time_arithmetic_and_fields() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // ± interval wraps modulo a day and has at least millisecond precision.
            (
                "SELECT TIME '02:30' - INTERVAL '4' HOUR",
                "time(3)",
                json!("22:30:00.000"),
            ),
            (
                "SELECT TIME '12:00:00 +05:30' + INTERVAL '13' HOUR",
                "time(3) with time zone",
                json!("01:00:00.000+05:30"),
            ),
            (
                "SELECT TIME '10:00:00' - TIME '07:30:15'",
                "interval day to second",
                json!("0 02:29:45.000"),
            ),
            (
                "SELECT date_add('minute', 90, TIME '23:00:00')",
                "time(0)",
                json!("00:30:00"),
            ),
            (
                "SELECT date_trunc('hour', TIME '17:45:12.345')",
                "time(3)",
                json!("17:00:00.000"),
            ),
            (
                "SELECT date_diff('minute', TIME '10:00:00', TIME '08:15:30')",
                "bigint",
                json!(-104),
            ),
            (
                "SELECT date_diff('hour', TIME '01:00:00 +00:00', TIME '01:00:00 -03:00')",
                "bigint",
                json!(3),
            ),
            (
                "SELECT millisecond(TIME '23:59:59.999 -11:00')",
                "bigint",
                json!(999),
            ),
            (
                "SELECT timezone_minute(TIME '01:02:03 -00:30')",
                "bigint",
                json!(-30),
            ),
            (
                "SELECT timezone(TIME '12:00:00 +04:00')",
                "varchar",
                json!("+04:00"),
            ),
            (
                "SELECT TIME '10:00:00 +02:00' AT TIME ZONE '-03:00'",
                "time(0) with time zone",
                json!("05:00:00-03:00"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT date_add('day', 1, TIME '10:00:00')",
            "INVALID_FUNCTION_ARGUMENT",
        )],
    );
}

#[test]
fn intervals_scale_subtract_and_have_fields() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // IntervalDayTimeOperators.multiplyByDouble / divideByDouble: (long) of the double.
            (
                "SELECT INTERVAL '1' DAY * 0.1",
                "interval day to second",
                json!("0 02:24:00.000"),
            ),
            (
                "SELECT INTERVAL '7' MONTH / 2",
                "interval year to month",
                json!("0-3"),
            ),
            (
                "SELECT TIMESTAMP '2024-12-31 12:00:00' - TIMESTAMP '2024-01-01 00:00:00.5'",
                "interval day to second",
                json!("365 11:59:59.500"),
            ),
            (
                "SELECT DATE '2020-06-01' - DATE '2020-05-01'",
                "interval day to second",
                json!("31 00:00:00.000"),
            ),
            (
                "SELECT hour(INTERVAL '9 10:11:12' DAY TO SECOND)",
                "bigint",
                json!(10),
            ),
            (
                "SELECT month(INTERVAL '5-11' YEAR TO MONTH)",
                "bigint",
                json!(11),
            ),
            (
                "SELECT CAST(INTERVAL '1 02:03:04.5' DAY TO SECOND AS varchar)",
                "varchar",
                json!("1 02:03:04.500"),
            ),
            // A day-to-second interval gives at least millisecond precision and keeps the
            // digits past the millisecond.
            (
                "SELECT TIMESTAMP '2020-02-29 23:59:59' + INTERVAL '1' SECOND",
                "timestamp(3)",
                json!("2020-03-01 00:00:00.000"),
            ),
            (
                "SELECT TIMESTAMP '2020-02-29 23:59:59.123456' + INTERVAL '1' DAY",
                "timestamp(6)",
                json!("2020-03-01 23:59:59.123456"),
            ),
            (
                "SELECT date_diff('millisecond', TIMESTAMP '2020-01-01 00:00:00.000000000001', TIMESTAMP '2020-01-01 00:00:00.999999999999')",
                "bigint",
                json!(999),
            ),
            (
                "SELECT from_iso8601_date('2021-W01-1')",
                "date",
                json!("2021-01-04"),
            ),
            (
                "SELECT from_iso8601_date('2020-366')",
                "date",
                json!("2020-12-31"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            ("SELECT INTERVAL '1' DAY / 0", "INVALID_FUNCTION_ARGUMENT"),
            (
                "SELECT extract(HOUR FROM DATE '2020-01-01')",
                "TYPE_MISMATCH",
            ),
            (
                "SELECT TIMESTAMP '2022-03-27 02:30:00 Europe/Berlin'",
                "INVALID_LITERAL",
            ),
            (
                "SELECT TIMESTAMP '2020-01-01 00:00:00 Mars/Olympus'",
                "INVALID_LITERAL",
            ),
            (
                "SELECT TIMESTAMP '2024-01-01 00:00:00 UTC' AT TIME ZONE 'Mars/Base'",
                "INVALID_FUNCTION_ARGUMENT",
            ),
        ],
    );
}

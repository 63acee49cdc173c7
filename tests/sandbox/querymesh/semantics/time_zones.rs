//! timestamp(p) with time zone: literals, casts, comparisons by instant, AT TIME ZONE and the
//! zone functions, zoned date arithmetic (DST-correct), unix times and ISO 8601, and the
//! session time zone. Expectations from Trino's docs (functions/datetime, language/types)
//! and tests (TestDateTimeFunctions, TestTimestampWithTimeZone, TestAtTimeZone).

use serde_json::{Value, json};
use zero_sandbox::querymesh::engine::{Engine, SessionContext};

use super::{check_errors, check_rows, check_values};
use crate::support::engine::{engine, run_in, tiny};

fn in_zone(zone: &str) -> SessionContext {
    SessionContext {
        time_zone: Some(zone.into()),
        ..tiny()
    }
}

fn check_in_zone(engine: &Engine, zone: &str, cases: &[(&str, &str, Value)]) {
    let session = in_zone(zone);
    let mut wrong = Vec::new();
    for (sql, ty, value) in cases {
        match run_in(engine, &session, sql) {
            Ok(a) if a.types.len() == 1 && a.rows.len() == 1 => {
                if (a.types[0].as_str(), &a.rows[0][0]) != (*ty, value) {
                    wrong.push(format!(
                        "{sql}\n    expected {ty} {value}\n    got      {} {}",
                        a.types[0], a.rows[0][0]
                    ));
                }
            }
            Ok(a) => wrong.push(format!("{sql}\n    got {:?} {:?}", a.types, a.rows)),
            Err(e) => wrong.push(format!("{sql}\n    failed {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

const LA: &str = "TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles'";

#[test]
fn literals_carry_their_zone_and_precision() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs language/types "TIMESTAMP WITH TIME ZONE" example.
            (
                "SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles'",
                "timestamp(3) with time zone",
                json!("2001-08-22 03:04:05.321 America/Los_Angeles"),
            ),
            // TestTimestampWithTimeZone.testLiterals: offsets, precision from the digits.
            (
                "SELECT TIMESTAMP '2001-01-02 03:04:05.123456789 +07:09'",
                "timestamp(9) with time zone",
                json!("2001-01-02 03:04:05.123456789 +07:09"),
            ),
            (
                "SELECT TIMESTAMP '2001-01-02 03:04:05.123456789012 +07:09'",
                "timestamp(12) with time zone",
                json!("2001-01-02 03:04:05.123456789012 +07:09"),
            ),
            (
                "SELECT TIMESTAMP '2001-01-02 03:04:05 UTC'",
                "timestamp(0) with time zone",
                json!("2001-01-02 03:04:05 UTC"),
            ),
            (
                "SELECT TIMESTAMP '2001-01-02 03:04:05.1+07:09'",
                "timestamp(1) with time zone",
                json!("2001-01-02 03:04:05.1 +07:09"),
            ),
            (
                "SELECT TIMESTAMP '2001-01-02 03:04 Z'",
                "timestamp(0) with time zone",
                json!("2001-01-02 03:04:00 UTC"),
            ),
            // TestTimestampWithTimeZone.testLiterals: before the epoch (local mean time).
            (
                "SELECT TIMESTAMP '1500-05-01 12:34:56.123456789012 Asia/Kathmandu'",
                "timestamp(12) with time zone",
                json!("1500-05-01 12:34:56.123456789012 Asia/Kathmandu"),
            ),
            // Elements of an array keep the same text.
            (
                &format!("SELECT ARRAY[{LA}]"),
                "array(timestamp(3) with time zone)",
                json!(["2001-08-22 03:04:05.321 America/Los_Angeles"]),
            ),
        ],
    );
}

#[test]
fn casts_follow_trinos_rules() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // VarcharToTimestampWithTimeZoneCast; TestTimestampWithTimeZone.testCastFromVarchar.
            (
                "SELECT CAST('2001-08-22 03:04:05.321 America/Los_Angeles' AS timestamp(3) with time zone)",
                "timestamp(3) with time zone",
                json!("2001-08-22 03:04:05.321 America/Los_Angeles"),
            ),
            (
                "SELECT CAST('2001-08-22 03:04:05.321' AS timestamp(3) with time zone)",
                "timestamp(3) with time zone",
                json!("2001-08-22 03:04:05.321 UTC"),
            ),
            (
                "SELECT CAST('2001-08-22 03:04:05.321 +07:09' AS timestamp(1) with time zone)",
                "timestamp(1) with time zone",
                json!("2001-08-22 03:04:05.3 +07:09"),
            ),
            // To timestamp and date: the wall time in the value's zone (TestTimestampWithTimeZone
            // .testCastToTimestamp / testCastToDate).
            (
                &format!("SELECT CAST({LA} AS timestamp(3))"),
                "timestamp(3)",
                json!("2001-08-22 03:04:05.321"),
            ),
            (
                &format!("SELECT CAST({LA} AS date)"),
                "date",
                json!("2001-08-22"),
            ),
            (
                &format!("SELECT CAST({LA} AS varchar)"),
                "varchar",
                json!("2001-08-22 03:04:05.321 America/Los_Angeles"),
            ),
            // Rounding to a lower precision (TestTimestampWithTimeZone.testCastToTimestampWithTimeZone).
            (
                "SELECT CAST(TIMESTAMP '2001-08-22 03:04:05.987654 UTC' AS timestamp(3) with time zone)",
                "timestamp(3) with time zone",
                json!("2001-08-22 03:04:05.988 UTC"),
            ),
            (
                "SELECT CAST(TIMESTAMP '2001-12-31 23:59:59.9999 UTC' AS timestamp(0) with time zone)",
                "timestamp(0) with time zone",
                json!("2002-01-01 00:00:00 UTC"),
            ),
            (
                "SELECT TRY_CAST('not a time' AS timestamp with time zone)",
                "timestamp(3) with time zone",
                Value::Null,
            ),
        ],
    );
    // timestamp -> timestamp with time zone takes the session zone (TestTimestamp
    // .testCastToTimestampWithTimeZone runs in a session zone).
    check_in_zone(
        &engine,
        "America/New_York",
        &[
            (
                "SELECT CAST(TIMESTAMP '2001-08-22 03:04:05.321' AS timestamp(3) with time zone)",
                "timestamp(3) with time zone",
                json!("2001-08-22 03:04:05.321 America/New_York"),
            ),
            (
                "SELECT CAST(DATE '2001-08-22' AS timestamp(0) with time zone)",
                "timestamp(0) with time zone",
                json!("2001-08-22 00:00:00 America/New_York"),
            ),
            (
                "SELECT CAST('2001-08-22 03:04:05' AS timestamp(0) with time zone)",
                "timestamp(0) with time zone",
                json!("2001-08-22 03:04:05 America/New_York"),
            ),
            (
                "SELECT current_timezone()",
                "varchar",
                json!("America/New_York"),
            ),
            (
                "SELECT typeof(current_timestamp)",
                "varchar",
                json!("timestamp(3) with time zone"),
            ),
            (
                "SELECT substr(CAST(current_timestamp AS varchar), 25)",
                "varchar",
                json!("America/New_York"),
            ),
            (
                "SELECT date_diff('second', CAST(localtimestamp AS timestamp(3) with time zone), current_timestamp) BETWEEN -1 AND 1",
                "boolean",
                json!(true),
            ),
        ],
    );
}

#[test]
fn one_instant_in_two_zones_is_equal_and_sorts_by_instant() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestTimestampWithTimeZone.testEqual: equality is by instant.
            (
                &format!("SELECT {LA} = TIMESTAMP '2001-08-22 10:04:05.321 UTC'"),
                "boolean",
                json!(true),
            ),
            (
                &format!("SELECT {LA} = TIMESTAMP '2001-08-22 03:04:05.321 UTC'"),
                "boolean",
                json!(false),
            ),
            (
                &format!("SELECT {LA} < TIMESTAMP '2001-08-22 10:04:05.322 +00:00'"),
                "boolean",
                json!(true),
            ),
            (
                &format!("SELECT {LA} IS DISTINCT FROM TIMESTAMP '2001-08-22 12:04:05.321 +02:00'"),
                "boolean",
                json!(false),
            ),
            (
                &format!(
                    "SELECT {LA} BETWEEN TIMESTAMP '2001-08-22 10:00:00 UTC' AND TIMESTAMP '2001-08-22 10:05:00 UTC'"
                ),
                "boolean",
                json!(true),
            ),
            (
                &format!("SELECT {LA} IN (TIMESTAMP '2001-08-22 19:04:05.321 Asia/Tokyo')"),
                "boolean",
                json!(true),
            ),
            // A timestamp compared with one with a zone is taken in the session zone (UTC).
            (
                &format!("SELECT {LA} = TIMESTAMP '2001-08-22 10:04:05.321'"),
                "boolean",
                json!(true),
            ),
        ],
    );
    check_rows(
        &engine,
        &[
            (
                "SELECT t FROM (VALUES TIMESTAMP '2020-01-01 12:00 +05:00', TIMESTAMP '2020-01-01 08:00 UTC', TIMESTAMP '2020-01-01 06:00 America/New_York') v(t) ORDER BY t",
                // 07:00, 08:00 and 11:00 UTC.
                json!([
                    ["2020-01-01 12:00:00 +05:00"],
                    ["2020-01-01 08:00:00 UTC"],
                    ["2020-01-01 06:00:00 America/New_York"]
                ]),
            ),
            // GROUP BY compares as `=` does: 12:00 +05:00 and 07:00 UTC are one group.
            (
                "SELECT count(*) FROM (SELECT t FROM (VALUES TIMESTAMP '2020-01-01 12:00 +05:00', TIMESTAMP '2020-01-01 07:00 UTC', TIMESTAMP '2020-01-01 08:00 UTC') v(t) GROUP BY t)",
                json!([[2]]),
            ),
            (
                "SELECT min(t), max(t) FROM (VALUES TIMESTAMP '2020-01-01 12:00 +05:00', TIMESTAMP '2020-01-01 08:00 UTC', TIMESTAMP '2020-01-01 06:00 America/New_York') v(t)",
                json!([[
                    "2020-01-01 12:00:00 +05:00",
                    "2020-01-01 06:00:00 America/New_York"
                ]]),
            ),
        ],
    );
}

#[test]
fn at_time_zone_and_the_zone_functions() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/datetime "Time zone conversion".
            (
                "SELECT TIMESTAMP '2012-10-31 01:00 UTC' AT TIME ZONE 'America/Los_Angeles'",
                "timestamp(0) with time zone",
                json!("2012-10-30 18:00:00 America/Los_Angeles"),
            ),
            // docs: at_timezone(TIMESTAMP '2021-08-22 00:00 UTC', 'Europe/Berlin').
            (
                "SELECT at_timezone(TIMESTAMP '2021-08-22 00:00 UTC', 'Europe/Berlin')",
                "timestamp(0) with time zone",
                json!("2021-08-22 02:00:00 Europe/Berlin"),
            ),
            // docs: with_timezone(TIMESTAMP '2021-08-22 00:00', 'Europe/Berlin').
            (
                "SELECT with_timezone(TIMESTAMP '2021-08-22 00:00:00.000', 'Europe/Berlin')",
                "timestamp(3) with time zone",
                json!("2021-08-22 00:00:00.000 Europe/Berlin"),
            ),
            // A timestamp AT TIME ZONE is first taken in the session zone (TestAtTimeZone).
            (
                "SELECT TIMESTAMP '2012-10-31 01:00' AT TIME ZONE '+07:09'",
                "timestamp(0) with time zone",
                json!("2012-10-31 08:09:00 +07:09"),
            ),
            // docs: timezone_hour / timezone_minute (TIMESTAMP '2020-05-10 12:34:56 +08:35').
            (
                "SELECT timezone_hour(TIMESTAMP '2020-05-10 12:34:56 +08:35')",
                "bigint",
                json!(8),
            ),
            (
                "SELECT timezone_minute(TIMESTAMP '2020-05-10 12:34:56 +08:35')",
                "bigint",
                json!(35),
            ),
            (
                "SELECT EXTRACT(TIMEZONE_HOUR FROM TIMESTAMP '2020-01-10 12:34:56 America/Los_Angeles')",
                "bigint",
                json!(-8),
            ),
            (
                "SELECT timezone_minute(TIMESTAMP '2020-01-10 12:34:56 -03:30')",
                "bigint",
                json!(-30),
            ),
            ("SELECT current_timezone()", "varchar", json!("UTC")),
            // Fields are those of the wall time in the value's zone (TestDateTimeFunctions
            // .testExtractFromTimestampWithTimeZone).
            (&format!("SELECT hour({LA})"), "bigint", json!(3)),
            (&format!("SELECT day({LA})"), "bigint", json!(22)),
            (
                "SELECT day_of_week(TIMESTAMP '2001-08-22 23:00:00 UTC' AT TIME ZONE 'Asia/Tokyo')",
                "bigint",
                json!(4),
            ),
        ],
    );
}

#[test]
fn zoned_date_arithmetic_is_dst_correct() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestDateTimeFunctions.testDateTrunc on timestamps with time zone.
            (
                "SELECT date_trunc('day', TIMESTAMP '2001-08-22 03:04:05.321 +07:09')",
                "timestamp(3) with time zone",
                json!("2001-08-22 00:00:00.000 +07:09"),
            ),
            (
                "SELECT date_trunc('month', TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles')",
                "timestamp(3) with time zone",
                json!("2001-08-01 00:00:00.000 America/Los_Angeles"),
            ),
            (
                "SELECT date_trunc('hour', TIMESTAMP '2001-08-22 03:34:05.321 Asia/Kolkata')",
                "timestamp(3) with time zone",
                json!("2001-08-22 03:00:00.000 Asia/Kolkata"),
            ),
            // New York springs forward on 2020-03-08: a day keeps the wall time, 24 hours
            // do not (Joda's zoned chronology, as DateTimeFunctions.addFieldValue uses it).
            (
                "SELECT date_add('day', 1, TIMESTAMP '2020-03-07 12:00:00 America/New_York')",
                "timestamp(0) with time zone",
                json!("2020-03-08 12:00:00 America/New_York"),
            ),
            (
                "SELECT date_add('hour', 24, TIMESTAMP '2020-03-07 12:00:00 America/New_York')",
                "timestamp(0) with time zone",
                json!("2020-03-08 13:00:00 America/New_York"),
            ),
            (
                "SELECT TIMESTAMP '2020-03-07 12:00:00 America/New_York' + INTERVAL '1' MONTH",
                "timestamp(0) with time zone",
                json!("2020-04-07 12:00:00 America/New_York"),
            ),
            (
                "SELECT TIMESTAMP '2020-03-07 12:00:00 America/New_York' + INTERVAL '24' HOUR",
                "timestamp(3) with time zone",
                json!("2020-03-08 13:00:00.000 America/New_York"),
            ),
            (
                "SELECT date_diff('hour', TIMESTAMP '2020-03-07 12:00:00 America/New_York', TIMESTAMP '2020-03-08 12:00:00 America/New_York')",
                "bigint",
                json!(23),
            ),
            (
                "SELECT date_diff('day', TIMESTAMP '2020-03-07 12:00:00 America/New_York', TIMESTAMP '2020-03-08 12:00:00 America/New_York')",
                "bigint",
                json!(1),
            ),
            // TestDateTimeFunctions.testDateDiffTimestampWithTimeZone-style: zones differ.
            (
                "SELECT date_diff('millisecond', TIMESTAMP '2001-08-22 03:04:05.321 UTC', TIMESTAMP '2001-08-22 05:04:05.322 +02:00')",
                "bigint",
                json!(1),
            ),
            // TimestampWithTimeZoneOperators.subtract: the interval between the instants.
            (
                "SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' - TIMESTAMP '2001-08-21 03:04:05 UTC'",
                "interval day to second",
                json!("1 07:00:00.321"),
            ),
            // NULL is any type, also a timestamp with time zone.
            ("SELECT to_unixtime(NULL)", "double", Value::Null),
            (
                "SELECT at_timezone(NULL, 'UTC')",
                "timestamp(3) with time zone",
                Value::Null,
            ),
        ],
    );
}

#[test]
fn unix_times_iso_8601_and_month_ends() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestDateTimeFunctions.testToUnixTime.
            (
                &format!("SELECT to_unixtime({LA})"),
                "double",
                json!(998474645.321),
            ),
            (
                "SELECT to_unixtime(TIMESTAMP '1970-01-01 00:00:01')",
                "double",
                json!(1.0),
            ),
            // TestDateTimeFunctions.testFromUnixTime.
            (
                "SELECT from_unixtime(0)",
                "timestamp(3) with time zone",
                json!("1970-01-01 00:00:00.000 UTC"),
            ),
            (
                "SELECT from_unixtime(1700000000, 'Asia/Kolkata')",
                "timestamp(3) with time zone",
                json!("2023-11-15 03:43:20.000 Asia/Kolkata"),
            ),
            (
                "SELECT from_unixtime(0, 7, 9)",
                "timestamp(3) with time zone",
                json!("1970-01-01 07:09:00.000 +07:09"),
            ),
            (
                "SELECT from_unixtime(1.5)",
                "timestamp(3) with time zone",
                json!("1970-01-01 00:00:01.500 UTC"),
            ),
            (
                "SELECT from_unixtime_nanos(1234567890123456789)",
                "timestamp(9) with time zone",
                json!("2009-02-13 23:31:30.123456789 UTC"),
            ),
            // TestDateTimeFunctions.testToIso8601.
            (
                &format!("SELECT to_iso8601({LA})"),
                "varchar(32)",
                json!("2001-08-22T03:04:05.321-07:00"),
            ),
            (
                "SELECT to_iso8601(TIMESTAMP '2001-08-22 03:04:05.321 UTC')",
                "varchar(32)",
                json!("2001-08-22T03:04:05.321Z"),
            ),
            (
                "SELECT to_iso8601(TIMESTAMP '2001-08-22 03:04:05.321')",
                "varchar(26)",
                json!("2001-08-22T03:04:05.321"),
            ),
            (
                "SELECT to_iso8601(DATE '2001-08-22')",
                "varchar(16)",
                json!("2001-08-22"),
            ),
            // docs functions/datetime: from_iso8601_timestamp('2020-05-11T11:15:05.055+01:00').
            (
                "SELECT from_iso8601_timestamp('2020-05-11T11:15:05.055+01:00')",
                "timestamp(3) with time zone",
                json!("2020-05-11 11:15:05.055 +01:00"),
            ),
            (
                "SELECT from_iso8601_timestamp('2020-05-11')",
                "timestamp(3) with time zone",
                json!("2020-05-11 00:00:00.000 UTC"),
            ),
            (
                "SELECT from_iso8601_timestamp('2020-05-11T11:15:05Z')",
                "timestamp(3) with time zone",
                json!("2020-05-11 11:15:05.000 UTC"),
            ),
            (
                "SELECT from_iso8601_timestamp_nanos('2020-05-11T11:15:05.123456789+01:00')",
                "timestamp(9) with time zone",
                json!("2020-05-11 11:15:05.123456789 +01:00"),
            ),
            (
                "SELECT from_iso8601_date('2020-05-11')",
                "date",
                json!("2020-05-11"),
            ),
            // docs: last_day_of_month.
            (
                "SELECT last_day_of_month(DATE '2020-02-10')",
                "date",
                json!("2020-02-29"),
            ),
            (
                "SELECT last_day_of_month(TIMESTAMP '2021-12-31 23:00:00 UTC' AT TIME ZONE 'Asia/Tokyo')",
                "date",
                json!("2022-01-31"),
            ),
            // docs "Duration function": parse_duration, and human_readable_seconds.
            (
                "SELECT parse_duration('42.8ms')",
                "interval day to second",
                json!("0 00:00:00.043"),
            ),
            (
                "SELECT parse_duration('3.81 d')",
                "interval day to second",
                json!("3 19:26:24.000"),
            ),
            // TestDateTimeFunctions.testParseDuration.
            (
                "SELECT parse_duration('1234.567 d')",
                "interval day to second",
                json!("1234 13:36:28.800"),
            ),
            (
                "SELECT parse_duration('1234us')",
                "interval day to second",
                json!("0 00:00:00.001"),
            ),
            (
                "SELECT to_milliseconds(parse_duration('1h'))",
                "bigint",
                json!(3_600_000),
            ),
            (
                "SELECT human_readable_seconds(96)",
                "varchar",
                json!("1 minute, 36 seconds"),
            ),
            (
                "SELECT human_readable_seconds(56363463)",
                "varchar",
                json!("93 weeks, 1 day, 8 hours, 31 minutes, 3 seconds"),
            ),
        ],
    );
    check_in_zone(
        &engine,
        "Asia/Kolkata",
        &[(
            "SELECT from_unixtime(0)",
            "timestamp(3) with time zone",
            json!("1970-01-01 05:30:00.000 Asia/Kolkata"),
        )],
    );
}

#[test]
fn bad_zones_and_texts_fail_as_trino_fails() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            // An unknown zone: a literal that is not one, a cast that cannot be, a zone function's
            // bad argument (Trino 476's answers); a zone spelled other than its canonical name
            // is unknown too, and so is a wall time in a spring-forward gap.
            (
                "SELECT TIMESTAMP '2001-08-22 03:04:05 Foo/Bar'",
                "INVALID_LITERAL: line 1:8: '2001-08-22 03:04:05 Foo/Bar' is not a valid TIMESTAMP literal",
            ),
            (
                "SELECT TIMESTAMP '2020-06-01 12:00:00 europe/berlin'",
                "INVALID_LITERAL",
            ),
            (
                "SELECT TIMESTAMP '2020-03-08 02:30:00 America/New_York'",
                "INVALID_LITERAL",
            ),
            (
                &format!("SELECT at_timezone({LA}, 'Mars/Olympus')"),
                "INVALID_FUNCTION_ARGUMENT: 'Mars/Olympus' is not a valid time zone",
            ),
            (
                &format!("SELECT {LA} AT TIME ZONE 'Nowhere'"),
                "INVALID_FUNCTION_ARGUMENT: 'Nowhere' is not a valid time zone",
            ),
            (
                "SELECT CAST('2001-08-22 03:04:05 Foo/Bar' AS timestamp with time zone)",
                "INVALID_CAST_ARGUMENT: Value cannot be cast to timestamp: 2001-08-22 03:04:05 Foo/Bar",
            ),
            (
                "SELECT CAST('yesterday' AS timestamp with time zone)",
                "INVALID_CAST_ARGUMENT: Value cannot be cast to timestamp with time zone: yesterday",
            ),
            // TestTimestampWithTimeZone.testLiterals.
            (
                "SELECT TIMESTAMP '2020-13-01 Asia/Kathmandu'",
                "INVALID_LITERAL: line 1:8: '2020-13-01 Asia/Kathmandu' is not a valid TIMESTAMP literal",
            ),
            (
                "SELECT TIMESTAMP '2020-05-01 12:34:56.1234567890123 Asia/Kathmandu'",
                "NUMERIC_VALUE_OUT_OF_RANGE: line 1:8: TIMESTAMP WITH TIME ZONE precision must be in range [0, 12]: 13",
            ),
            (
                "SELECT from_iso8601_timestamp('2020-13-01')",
                "INVALID_FUNCTION_ARGUMENT",
            ),
            (
                &format!("SELECT CAST({LA} AS bigint)"),
                // Trino places a cast's errors at CAST (trino-q).
                "TYPE_MISMATCH: line 1:8: Cannot cast timestamp(3) with time zone to bigint",
            ),
            (
                &format!("SELECT CAST({LA} AS varchar(5))"),
                "INVALID_CAST_ARGUMENT: Value 2001-08-22 03:04:05.321 America/Los_Angeles cannot be represented as varchar(5)",
            ),
            (
                "SELECT from_unixtime(1e300)",
                "INVALID_FUNCTION_ARGUMENT: Millis overflow",
            ),
        ],
    );
    // An unknown session zone fails every query, as Trino's session does.
    let err = run_in(&engine, &in_zone("Foo/Bar"), "SELECT 1").err();
    assert_eq!(
        err.as_deref(),
        Some("NOT_SUPPORTED: Time zone not supported: Foo/Bar")
    );
}

#[test]
fn set_time_zone_asks_the_client_to_set_the_session_property() {
    use zero_sandbox::querymesh::engine::sql::session::SessionUpdate;
    let engine = engine();
    // SetTimeZoneTask: the zone is checked, then the hidden time_zone_id property is set.
    let update = |sql: &str| {
        engine
            .prepare(sql, &tiny())
            .map(|p| p.session_update.clone())
            .map_err(|e| e.message())
    };
    assert_eq!(
        update("SET TIME ZONE 'america/los_angeles'"),
        Ok(Some(SessionUpdate::SetProperty {
            name: "time_zone_id".into(),
            value: "America/Los_Angeles".into(),
        }))
    );
    assert_eq!(
        update("SET TIME ZONE LOCAL"),
        Ok(Some(SessionUpdate::SetProperty {
            name: "time_zone_id".into(),
            value: "UTC".into(),
        }))
    );
    assert_eq!(
        update("SET TIME ZONE 'Foo/Bar'"),
        Err("line 1:15: Time zone not supported: Foo/Bar".into())
    );
    // The property the client sends back wins over X-Trino-Time-Zone.
    let session = SessionContext {
        properties: vec![("time_zone_id".into(), "Asia/Tokyo".into())],
        ..in_zone("Europe/Berlin")
    };
    let answer = run_in(&engine, &session, "SELECT current_timezone()").map(|a| a.rows);
    assert_eq!(answer, Ok(vec![vec![json!("Asia/Tokyo")]]));
}

/// TestDateTimeFunctions runs in the session zone Pacific/Apia; these are its cases.
#[test]
fn trinos_date_time_function_tests_in_pacific_apia() {
    let engine = engine();
    let tz = "timestamp(3) with time zone";
    check_in_zone(
        &engine,
        "Pacific/Apia",
        &[
            // testFromUnixTime
            (
                "SELECT from_unixtime(980172245)",
                tz,
                json!("2001-01-22 03:04:05.000 Pacific/Apia"),
            ),
            (
                "SELECT from_unixtime(980172245.888)",
                tz,
                json!("2001-01-22 03:04:05.888 Pacific/Apia"),
            ),
            // testFromUnixTimeNanos
            (
                "SELECT from_unixtime_nanos(1234567890123456789)",
                "timestamp(9) with time zone",
                json!("2009-02-13 12:31:30.123456789 Pacific/Apia"),
            ),
            (
                "SELECT from_unixtime_nanos(-1234567890123456789)",
                "timestamp(9) with time zone",
                json!("1930-11-17 12:58:29.876543211 Pacific/Apia"),
            ),
            (
                "SELECT from_unixtime_nanos(-999999999)",
                "timestamp(9) with time zone",
                json!("1969-12-31 12:59:59.000000001 Pacific/Apia"),
            ),
            // testFromUnixTimeWithOffset, testFromUnixTimeWithTimeZone
            (
                "SELECT from_unixtime(980172245, 1, 10)",
                tz,
                json!("2001-01-22 15:14:05.000 +01:10"),
            ),
            (
                "SELECT from_unixtime(7200, 'Asia/Shanghai')",
                tz,
                json!("1970-01-01 10:00:00.000 Asia/Shanghai"),
            ),
            (
                "SELECT from_unixtime(7200, 'America/Los_Angeles')",
                tz,
                json!("1969-12-31 18:00:00.000 America/Los_Angeles"),
            ),
            // testDate
            (
                "SELECT date(TIMESTAMP '2001-08-22 03:04:05.321 +07:09')",
                "date",
                json!("2001-08-22"),
            ),
            // testFromISO8601, testFromIso8601Nanos
            (
                "SELECT from_iso8601_timestamp('2001-08-22T03:04:05.321-11:00')",
                tz,
                json!("2001-08-22 03:04:05.321 -11:00"),
            ),
            (
                "SELECT from_iso8601_timestamp_nanos('2001-08-22T12:34:56.123Z')",
                "timestamp(9) with time zone",
                json!("2001-08-22 12:34:56.123000000 UTC"),
            ),
            // testToIso8601ForTimestampWithoutTimeZone
            (
                "SELECT to_iso8601(TIMESTAMP '2001-08-22 03:04:05.321')",
                "varchar(26)",
                json!("2001-08-22T03:04:05.321"),
            ),
            // testTimeZone
            (
                "SELECT current_timezone()",
                "varchar",
                json!("Pacific/Apia"),
            ),
            // testLastDayOfMonth
            (
                "SELECT last_day_of_month(TIMESTAMP '2001-08-22 03:04:05.321 +07:09')",
                "date",
                json!("2001-08-31"),
            ),
            (
                "SELECT last_day_of_month(TIMESTAMP '2018-12-31 23:59:59.999 America/Bahia_Banderas')",
                "date",
                json!("2018-12-31"),
            ),
            // testParseDatetime
            (
                "SELECT parse_datetime('2020-08-18 03:04:05.678', 'yyyy-MM-dd HH:mm:ss.SSS')",
                tz,
                json!("2020-08-18 03:04:05.678 Pacific/Apia"),
            ),
            (
                "SELECT parse_datetime('1960/01/22 03:04 Asia/Oral', 'yyyy/MM/dd HH:mm ZZZZZ')",
                tz,
                json!("1960-01-22 03:04:00.000 Asia/Oral"),
            ),
            (
                "SELECT parse_datetime('1960/01/22 03:04 +0500', 'yyyy/MM/dd HH:mm Z')",
                tz,
                json!("1960-01-22 03:04:00.000 +05:00"),
            ),
            // testWithTimezone
            (
                "SELECT with_timezone(TIMESTAMP '2001-08-22 03:04:05.321', '+13')",
                tz,
                json!("2001-08-22 03:04:05.321 +13:00"),
            ),
            (
                "SELECT with_timezone(TIMESTAMP '2001-08-22 03:04:05.321', '-14')",
                tz,
                json!("2001-08-22 03:04:05.321 -14:00"),
            ),
            (
                "SELECT with_timezone(TIMESTAMP '2001-08-22 03:04:05.321', '+00:45')",
                tz,
                json!("2001-08-22 03:04:05.321 +00:45"),
            ),
            (
                "SELECT with_timezone(TIMESTAMP '2001-12-01 03:04:05.321', 'America/Los_Angeles')",
                tz,
                json!("2001-12-01 03:04:05.321 America/Los_Angeles"),
            ),
        ],
    );
    check_in_zone(
        &engine,
        "Pacific/Apia",
        &[
            // TestAtTimeZone.testAtTimeZone / testAtTimeZoneWithOffset (session Pacific/Apia).
            (
                "SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56 +07:09', 'America/Los_Angeles')",
                "timestamp(0) with time zone",
                json!("2020-04-30 22:25:56 America/Los_Angeles"),
            ),
            (
                "SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56.123456789123 +07:09', 'America/Los_Angeles')",
                "timestamp(12) with time zone",
                json!("2020-04-30 22:25:56.123456789123 America/Los_Angeles"),
            ),
            (
                "SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56.1 +07:09', INTERVAL '03:04' HOUR TO MINUTE)",
                "timestamp(1) with time zone",
                json!("2020-05-01 08:29:56.1 +03:04"),
            ),
            (
                "SELECT TIMESTAMP '2020-05-01 12:34:56 +07:09' AT TIME ZONE INTERVAL '03:04' HOUR TO MINUTE",
                "timestamp(0) with time zone",
                json!("2020-05-01 08:29:56 +03:04"),
            ),
        ],
    );
    check_in_zone(
        &engine,
        "-0900",
        &[(
            "SELECT from_iso8601_timestamp_nanos('2001-08-22T03:34:56.123456789')",
            "timestamp(9) with time zone",
            json!("2001-08-22 03:34:56.123456789 -09:00"),
        )],
    );
    check_errors(
        &engine,
        &[
            // testWithTimezone, testFromUnixTimeWithOffset
            (
                "SELECT with_timezone(TIMESTAMP '2001-08-22 03:04:05.321', 'invalidzoneid')",
                "INVALID_FUNCTION_ARGUMENT: 'invalidzoneid' is not a valid time zone",
            ),
            (
                "SELECT from_unixtime(0, 1, 10000)",
                "INVALID_FUNCTION_ARGUMENT",
            ),
            (
                "SELECT from_unixtime(0, 10000, 0)",
                "INVALID_FUNCTION_ARGUMENT",
            ),
            (
                "SELECT from_unixtime(0, -100, 100)",
                "INVALID_FUNCTION_ARGUMENT",
            ),
        ],
    );
}

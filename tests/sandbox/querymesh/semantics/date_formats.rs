//! date_format/date_parse (MySQL specifiers) and format_datetime/parse_datetime (Joda-Time
//! patterns), from Trino's docs (functions/datetime "MySQL date functions", "Java date
//! functions") and TestDateTimeFunctions (testDateFormat, testDateParse, testFormatDatetime,
//! testParseDatetime).

use serde_json::{Value, json};

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn mysql_formats_print_and_parse() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs: date_format(TIMESTAMP '2022-10-20 05:10:00', '%m-%d-%Y %H').
            (
                "SELECT date_format(TIMESTAMP '2022-10-20 05:10:00', '%m-%d-%Y %H')",
                "varchar",
                json!("10-20-2022 05"),
            ),
            // docs: date_parse('2022/10/20/05', '%Y/%m/%d/%H').
            (
                "SELECT date_parse('2022/10/20/05', '%Y/%m/%d/%H')",
                "timestamp(3)",
                json!("2022-10-20 05:00:00.000"),
            ),
            // TestDateTimeFunctions.testDateFormat: every specifier on 2001-01-09 13:04:05.321.
            (
                "SELECT date_format(TIMESTAMP '2001-01-09 13:04:05.321', '%a %b %c %d %e %f %H %h %I %i %j %k %l %M %m %p %r %S %s %T %v %W %x %Y %y %%')",
                "varchar",
                json!(
                    "Tue Jan 1 09 9 321000 13 01 01 04 009 13 1 January 01 PM 01:04:05 PM 05 05 13:04:05 02 Tuesday 2001 2001 01 %"
                ),
            ),
            // With a zone: the wall time in the value's zone.
            (
                "SELECT date_format(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles', '%Y-%m-%d %H:%i:%s')",
                "varchar",
                json!("2001-08-22 03:04:05"),
            ),
            (
                "SELECT date_parse('2013-05-17 12:35:10 PM', '%Y-%m-%d %h:%i:%s %p')",
                "timestamp(3)",
                json!("2013-05-17 12:35:10.000"),
            ),
            (
                "SELECT date_parse('2013-05-17 00:35:10.456', '%Y-%m-%d %H:%i:%s.%f')",
                "timestamp(3)",
                json!("2013-05-17 00:35:10.456"),
            ),
            (
                "SELECT date_parse('20130517', '%Y%m%d')",
                "timestamp(3)",
                json!("2013-05-17 00:00:00.000"),
            ),
            (
                "SELECT date_parse('17 May 13', '%d %M %y')",
                "timestamp(3)",
                json!("2013-05-17 00:00:00.000"),
            ),
            ("SELECT date_format(NULL, '%Y')", "varchar", Value::Null),
            // TestDateTimeFunctions.testDateFormat / testDateParse.
            (
                "SELECT date_format(TIMESTAMP '2001-01-09 13:04:05.321 +07:09', '%Y年%m月%d日 %x %v %g %4')",
                "varchar",
                json!("2001年01月09日 2001 02 g 4"),
            ),
            (
                "SELECT date_format(TIMESTAMP '2001-01-09 00:04:05.32', '%k %f')",
                "varchar",
                json!("0 320000"),
            ),
            (
                "SELECT date_parse('abc 2013-05-17 fff 23:35:10 xyz', 'abc %Y-%m-%d fff %H:%i:%s xyz')",
                "timestamp(3)",
                json!("2013-05-17 23:35:10.000"),
            ),
            (
                "SELECT date_parse('2013-05-17 12:35:10', '%Y-%m-%d %h:%i:%s')",
                "timestamp(3)",
                json!("2013-05-17 00:35:10.000"),
            ),
            (
                "SELECT date_parse('2013 14', '%Y %y')",
                "timestamp(3)",
                json!("2014-01-01 00:00:00.000"),
            ),
            (
                "SELECT date_parse('1998 53', '%x %v')",
                "timestamp(3)",
                json!("1998-12-28 00:00:00.000"),
            ),
            (
                "SELECT date_parse('1.2006', '%s.%f')",
                "timestamp(3)",
                json!("1970-01-01 00:00:01.200"),
            ),
            (
                "SELECT date_parse('59.123456789', '%s.%f')",
                "timestamp(3)",
                json!("1970-01-01 00:00:59.123"),
            ),
            (
                "SELECT date_parse('28-JAN-16 11.45.46.421000 PM', '%d-%b-%y %l.%i.%s.%f %p')",
                "timestamp(3)",
                json!("2016-01-28 23:45:46.421"),
            ),
            (
                "SELECT date_parse('31-MAY-69 04.59.59.999000 AM', '%d-%b-%y %l.%i.%s.%f %p')",
                "timestamp(3)",
                json!("2069-05-31 04:59:59.999"),
            ),
            (
                "SELECT date_parse('11-DEC-70 11.12.13.456000 AM', '%d-%b-%y %l.%i.%s.%f %p')",
                "timestamp(3)",
                json!("1970-12-11 11:12:13.456"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // DateTimeFunctions.createDateTimeFormatter refuses these.
            (
                "SELECT date_format(TIMESTAMP '2001-01-09 13:04:05', '%U')",
                "INVALID_FUNCTION_ARGUMENT: %U not supported in date format string",
            ),
            (
                "SELECT date_format(DATE '2001-01-09', '%D')",
                "INVALID_FUNCTION_ARGUMENT: %D not supported in date format string",
            ),
            (
                "SELECT date_parse('3.0123456789', '%s.%f')",
                "INVALID_FUNCTION_ARGUMENT: Invalid format: \"3.0123456789\" is malformed at \"9\"",
            ),
            (
                "SELECT date_parse('1970-01-01', '')",
                "INVALID_FUNCTION_ARGUMENT: Both printing and parsing not supported",
            ),
            // TestDateTimeFunctions.testParseDuration's refusals.
            (
                "SELECT parse_duration('')",
                "INVALID_FUNCTION_ARGUMENT: duration is empty",
            ),
            (
                "SELECT parse_duration('1f')",
                "INVALID_FUNCTION_ARGUMENT: Unknown time unit: f",
            ),
            (
                "SELECT parse_duration('abc')",
                "INVALID_FUNCTION_ARGUMENT: duration is not a valid data duration string: abc",
            ),
            (
                "SELECT date_parse('2001', '%X')",
                "INVALID_FUNCTION_ARGUMENT: %X not supported in date format string",
            ),
            // Joda's parse errors.
            (
                "SELECT date_parse('2013-05-17x', '%Y-%m-%d')",
                "INVALID_FUNCTION_ARGUMENT: Invalid format: \"2013-05-17x\" is malformed at \"x\"",
            ),
            (
                "SELECT date_parse('2013-05', '%Y-%m-%d')",
                "INVALID_FUNCTION_ARGUMENT: Invalid format: \"2013-05\" is too short",
            ),
            (
                "SELECT date_parse('2013-13-01', '%Y-%m-%d')",
                "INVALID_FUNCTION_ARGUMENT: Cannot parse \"2013-13-01\": Value 13 for monthOfYear must be in the range [1,12]",
            ),
        ],
    );
}

#[test]
fn joda_patterns_print_and_parse() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestDateTimeFunctions.testFormatDatetime.
            (
                "SELECT format_datetime(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles', 'yyyy-MM-dd HH:mm:ss.SSS ZZ')",
                "varchar",
                json!("2001-08-22 03:04:05.321 -07:00"),
            ),
            (
                "SELECT format_datetime(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles', 'EEEE, MMMM d, yyyy h:mm a z Z ZZZ')",
                "varchar",
                json!("Wednesday, August 22, 2001 3:04 AM PDT -0700 America/Los_Angeles"),
            ),
            (
                "SELECT format_datetime(TIMESTAMP '2001-01-02 03:04:05', 'EEE MMM yy D ''at'' HH')",
                "varchar",
                json!("Tue Jan 01 2 at 03"),
            ),
            // TestDateTimeFunctions.testParseDatetime: the parsed offset is the value's zone.
            (
                "SELECT parse_datetime('2020-05-11 11:15:05 +0100', 'yyyy-MM-dd HH:mm:ss Z')",
                "timestamp(3) with time zone",
                json!("2020-05-11 11:15:05.000 +01:00"),
            ),
            (
                "SELECT parse_datetime('1960/01/22 03:04', 'yyyy/MM/dd HH:mm')",
                "timestamp(3) with time zone",
                json!("1960-01-22 03:04:00.000 UTC"),
            ),
            (
                "SELECT parse_datetime('20200511 America/Los_Angeles', 'yyyyMMdd ZZZ')",
                "timestamp(3) with time zone",
                json!("2020-05-11 00:00:00.000 America/Los_Angeles"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT format_datetime(TIMESTAMP '2001-01-02 03:04:05 UTC', 'yyyy-qq')",
                "INVALID_FUNCTION_ARGUMENT: Illegal pattern component: q",
            ),
            (
                "SELECT parse_datetime('2020-05-11', 'yyyy-MM-dd HH')",
                "INVALID_FUNCTION_ARGUMENT: Invalid format: \"2020-05-11\" is too short",
            ),
        ],
    );
}

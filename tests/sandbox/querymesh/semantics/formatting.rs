//! `format()`: trinodb/trino's TestFormatFunction.testFormat case for case (the ipaddress, time
//! and time-with-time-zone cases aside: the stand-in has none of those types), and the docs
//! functions/conversion examples; `format_number` and `parse_data_size` from the same page.

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn format_follows_java_formatter_as_trino_calls_it() {
    let engine = engine();
    let v = |sql: &'static str, value: &'static str| (sql, "varchar", json!(value));
    check_values(
        &engine,
        &[
            v("SELECT format('%s%%', 123)", "123%"),
            v("SELECT format('%.4f', pi())", "3.1416"),
            v("SELECT format('%.5f', pi())", "3.14159"),
            v("SELECT format('%03d', 8)", "008"),
            v(
                "SELECT format('%-7s,%7s', 'hello', 'world')",
                "hello  ,  world",
            ),
            v(
                "SELECT format('%b %B %b', true, false, null)",
                "true FALSE false",
            ),
            v(
                "SELECT format('%s %s %s', true, false, null)",
                "true false null",
            ),
            v(
                "SELECT format('%S %S %S', true, false, null)",
                "TRUE FALSE NULL",
            ),
            v(
                "SELECT format('%4$s %3$s %2$s %1$s %4$s %3$s %2$s %1$s', 'a', 'b', 'c', 'd')",
                "d c b a d c b a",
            ),
            v(
                "SELECT format('%s %s %<s %<s', 'a', 'b', 'c', 'd')",
                "a b b b",
            ),
            v(
                "SELECT format('%2$s %s %<s %s', 'a', 'b', 'c', 'd')",
                "b a a b",
            ),
            v(
                "SELECT format('%2$s %3$s %1$s', 'a', 'b', 'c', 'd')",
                "b c a",
            ),
            v("SELECT format('%s %s', 2, 3, 4)", "2 3"),
            v("SELECT format('%d', tinyint '123')", "123"),
            v("SELECT format('%d', smallint '32123')", "32123"),
            v("SELECT format('%d', 1234567890)", "1234567890"),
            v("SELECT format('%d', 1234567890123)", "1234567890123"),
            v("SELECT format('%,.2f', 1234567.89)", "1,234,567.89"),
            v(
                "SELECT format('%1$s %1$f %1$.2f', decimal '9.12345678')",
                "9.12345678 9.123457 9.12",
            ),
            v(
                "SELECT format('%1$d %1$x %1$X %1$o', 1234)",
                "1234 4d2 4D2 2322",
            ),
            v(
                "SELECT format('%s', json '[123,\"abc\",true]')",
                "[123,\"abc\",true]",
            ),
            v(
                "SELECT format('%1$s %1$tF %1$tY-%1$tm-%1$td', date '2001-08-22')",
                "2001-08-22 2001-08-22 2001-08-22",
            ),
            v(
                "SELECT format('%1$tA, %1$tB %1$te, %1$tY', date '2006-07-04')",
                "Tuesday, July 4, 2006",
            ),
            v(
                "SELECT format('%1$s %1$tF %1$tT', timestamp '1969-07-20 16:17:00')",
                "1969-07-20T16:17 1969-07-20 16:17:00",
            ),
            v(
                "SELECT format('%1$s %1$tF %1$tT', timestamp '1969-07-20 16:17:03')",
                "1969-07-20T16:17:03 1969-07-20 16:17:03",
            ),
            v("SELECT format('%s', cast('test' AS char(5)))", "test "),
            v(
                "SELECT format('%1$s %1$tc', cast('1969-07-20 16:17:00 America/New_York' AS timestamp with time zone))",
                "1969-07-20T16:17-04:00[America/New_York] Sun Jul 20 16:17:00 EDT 1969",
            ),
            v(
                "SELECT format('%1$s %1$tc', cast('1969-07-20 20:17:00 UTC' AS timestamp with time zone))",
                "1969-07-20T20:17Z[UTC] Sun Jul 20 20:17:00 UTC 1969",
            ),
            v(
                "SELECT format('%1$s %1$tz %1$ts', TIMESTAMP '2001-08-22 03:04:05.321 +07:09')",
                "2001-08-22T03:04:05.321+07:09 +0709 998423705",
            ),
            // Not Trino's tests, but what its converters make of these types.
            v(
                "SELECT format('%s|%.2e', real '1.5', 12345.678e0)",
                "1.5|1.23e+04",
            ),
            v(
                "SELECT format('%s', uuid '12151fd2-7586-11e9-8f9e-2a86e4085a59')",
                "12151fd2-7586-11e9-8f9e-2a86e4085a59",
            ),
            v("SELECT format('[%8.3f]', -3.14159e0)", "[  -3.142]"),
            (
                "SELECT format(CAST(NULL AS varchar), 1)",
                "varchar",
                serde_json::Value::Null,
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT format('%.4d', 8)",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %.4d (IllegalFormatPrecision: 4)",
            ),
            (
                "SELECT format('%-02d', 8)",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %-02d (IllegalFormatFlags: Flags = '-0')",
            ),
            (
                "SELECT format('%--2d', 8)",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %--2d (DuplicateFormatFlags: Flags = '-')",
            ),
            (
                "SELECT format('%+s', 8)",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %+s (FormatFlagsConversionMismatch: Conversion = s, Flags = +)",
            ),
            (
                "SELECT format('%-s', 8)",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %-s (MissingFormatWidth: %-s)",
            ),
            (
                "SELECT format('%5n', 8)",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %5n (IllegalFormatWidth: 5)",
            ),
            (
                "SELECT format('%s %d', 8)",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %s %d (MissingFormatArgument: Format specifier '%d')",
            ),
            (
                "SELECT format('%d', decimal '8')",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %d (IllegalFormatConversion: d != java.math.BigDecimal)",
            ),
            (
                "SELECT format('%tT', 'x')",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %tT (IllegalFormatConversion: T != java.lang.String)",
            ),
            (
                "SELECT format('%.2f', 5)",
                "INVALID_FUNCTION_ARGUMENT: Invalid format string: %.2f (IllegalFormatConversion: f != java.lang.Long)",
            ),
            (
                "SELECT format('%s', array[8])",
                "NOT_SUPPORTED: line 1:8: Type not supported for formatting: array(integer)",
            ),
            // ExpressionAnalyzer.visitFormat: a bare NULL is `unknown`, not varchar.
            (
                "SELECT format(NULL, 8)",
                "TYPE_MISMATCH: line 1:8: Type of first argument to format() must be VARCHAR (actual: unknown)",
            ),
            (
                "SELECT format(5, 8)",
                "TYPE_MISMATCH: line 1:8: Type of first argument to format() must be VARCHAR (actual: integer)",
            ),
            ("SELECT format('%999999999s', 'x')", "EXCEEDED_"),
        ],
    );
}

#[test]
fn format_number_and_parse_data_size() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // The documentation's examples (functions/conversion), and FormatNumberFunction's
            // double overload, which truncates to a long first.
            ("SELECT format_number(123456)", "varchar", json!("123K")),
            ("SELECT format_number(1000000)", "varchar", json!("1M")),
            (
                "SELECT format_number(-123456)",
                "varchar",
                json!("-123.46K"),
            ),
            ("SELECT format_number(1234.5E0)", "varchar", json!("1.23K")),
            ("SELECT format_number(12.5)", "varchar", json!("12")),
            ("SELECT format_number(NULL)", "varchar", json!(null)),
            // DataSizeFunctions: powers of 1024, the fraction of a byte dropped.
            (
                "SELECT parse_data_size('1kB')",
                "decimal(38, 0)",
                json!("1024"),
            ),
            (
                "SELECT parse_data_size('2.3MB')",
                "decimal(38, 0)",
                json!("2411724"),
            ),
            (
                "SELECT parse_data_size('1YB')",
                "decimal(38, 0)",
                json!("1208925819614629174706176"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT parse_data_size('1KB')",
                "INVALID_FUNCTION_ARGUMENT: Invalid data size: '1KB'",
            ),
            (
                "SELECT parse_data_size('')",
                "INVALID_FUNCTION_ARGUMENT: Invalid data size: ''",
            ),
        ],
    );
}

//! String functions: substring, strpos, length, concat, case mapping, trim, replace.

use serde_json::{Value, json};

use super::{check_errors, check_values};
use crate::support::engine::engine;

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

//! String functions: substring, strpos, length, concat, case mapping, trim, replace, chr,
//! codepoint, translate, concat_ws, soundex.

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
            // Trino 476 types concat(varchar...) as plain varchar; a string and a NULL
            // literal bind concat(E, array(E)); char(x) || char(y) is char(x + y)
            // (CharConcatFunction, the left padded).
            ("SELECT concat('a', NULL)", "array(varchar(1))", Value::Null),
            ("SELECT concat('a', NULL, 'b')", "varchar", Value::Null),
            ("SELECT concat('a', 'b', 'cd')", "varchar", json!("abcd")),
            ("SELECT 'a' || NULL", "array(varchar(1))", Value::Null),
            ("SELECT 'ab' || 'c'", "varchar", json!("abc")),
            (
                "SELECT CAST('ab' AS char(4)) || 'c'",
                "char(5)",
                json!("ab  c"),
            ),
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

#[test]
fn code_points_translate_and_concat_ws() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // StringFunctions.chr / codepoint (docs functions/string): varchar(1) and integer.
            ("SELECT chr(65)", "varchar(1)", json!("A")),
            ("SELECT chr(128512)", "varchar(1)", json!("😀")),
            ("SELECT codepoint('é')", "integer", json!(233)),
            ("SELECT codepoint(chr(9731))", "integer", json!(9731)),
            ("SELECT chr(NULL)", "varchar(1)", Value::Null),
            // StringFunctions.translate: the first mapping of a character wins; one past the
            // end of `to` is dropped.
            (
                "SELECT translate('abcd', 'bbd', 'xy')",
                "varchar",
                json!("axc"),
            ),
            (
                "SELECT translate(name, 'AEIOU', 'aeiou') FROM region WHERE regionkey = 1",
                "varchar",
                json!("aMeRiCa"),
            ),
            // ConcatWsFunction: NULL values are skipped, a NULL separator is NULL; an
            // array of varchar is the other form.
            (
                "SELECT concat_ws(',', 'a', NULL, 'c')",
                "varchar",
                json!("a,c"),
            ),
            (
                "SELECT concat_ws(' | ', ARRAY['p', 'q', NULL, 'r'])",
                "varchar",
                json!("p | q | r"),
            ),
            ("SELECT concat_ws('-', ARRAY[])", "varchar", json!("")),
            ("SELECT concat_ws(NULL, 'a', 'b')", "varchar", Value::Null),
            // StringFunctions.soundex: commons-codec's American Soundex, varchar(4).
            ("SELECT soundex('Robert')", "varchar(4)", json!("R163")),
            ("SELECT soundex('Tymczak')", "varchar(4)", json!("T522")),
            ("SELECT soundex('123')", "varchar(4)", json!("")),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT chr(-5)",
                "INVALID_FUNCTION_ARGUMENT: Not a valid Unicode code point: -5",
            ),
            (
                "SELECT codepoint('')",
                "INVALID_FUNCTION_ARGUMENT: Input string must be a single character string",
            ),
            ("SELECT codepoint('ab')", "FUNCTION_NOT_FOUND"),
            (
                "SELECT concat_ws(',')",
                "INVALID_FUNCTION_ARGUMENT: There must be two or more arguments",
            ),
            ("SELECT concat_ws(',', 1, 2)", "FUNCTION_NOT_FOUND"),
            (
                "SELECT soundex('Émile')",
                "INVALID_FUNCTION_ARGUMENT: The character is not mapped: É",
            ),
        ],
    );
}

/// Trino 476's answers (docs functions/string; checked against the real engine).
#[test]
fn unicode_literals_sql_forms_maps_normal_forms_and_stems() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // SqlBase.g4 UNICODE_STRING.
            ("SELECT codepoint(U&'\\+01F600')", "integer", json!(128512)),
            ("SELECT length(U&'\\+01F600x')", "bigint", json!(2)),
            // TRIM(side FROM s), and NULL literals as varchar(0).
            (
                "SELECT trim(LEADING FROM ' lead')",
                "varchar(5)",
                json!("lead"),
            ),
            ("SELECT trim(BOTH FROM ' z ')", "varchar(3)", json!("z")),
            ("SELECT trim('a' FROM NULL)", "varchar(0)", Value::Null),
            ("SELECT position(NULL IN 'abc')", "bigint", Value::Null),
            ("SELECT lower(NULL)", "varchar(0)", Value::Null),
            // StringFunctions.splitPart: an empty delimiter splits between code points.
            ("SELECT split_part('abc', '', 1)", "varchar(3)", json!("a")),
            // A char(n) is read with its padding.
            (
                "SELECT substr(CAST('ab' AS char(5)), 1, 4)",
                "varchar(5)",
                json!("ab  "),
            ),
            (
                "SELECT split_to_map('a=1,b=', ',', '=')",
                "map(varchar, varchar)",
                json!({"a": "1", "b": ""}),
            ),
            (
                "SELECT split_to_multimap('a=1,b=2,a=3', ',', '=')",
                "map(varchar, array(varchar))",
                json!({"a": ["1", "3"], "b": ["2"]}),
            ),
            ("SELECT normalize('ﬁ', NFKC)", "varchar", json!("fi")),
            ("SELECT length(normalize('é', NFD))", "bigint", json!(2)),
            (
                "SELECT word_stem('generously')",
                "varchar(10)",
                json!("generous"),
            ),
            (
                "SELECT word_stem('laufen', 'de')",
                "varchar(6)",
                json!("lauf"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT split_to_map('a=1,a=2', ',', '=')",
                "INVALID_FUNCTION_ARGUMENT: Duplicate keys (a) are not allowed",
            ),
            (
                "SELECT word_stem('running', 'xx')",
                "INVALID_FUNCTION_ARGUMENT: Unknown stemmer language: xx",
            ),
        ],
    );
}

/// Unicode string literals, `U&'…' [UESCAPE 'c']` (docs language/types.md "VARCHAR";
/// TestSqlParser.testUnicodeString): decoded with the escape character named, refused with
/// Trino's messages at the literal.
#[test]
fn unicode_string_literals() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT U&'Hello winter \\2603 !'",
                "varchar(16)",
                json!("Hello winter ☃ !"),
            ),
            (
                "SELECT U&'Hello winter #2603 !' UESCAPE '#'",
                "varchar(16)",
                json!("Hello winter ☃ !"),
            ),
            ("SELECT U&'\\0041\\+01F600'", "varchar(2)", json!("A😀")),
            (
                "SELECT U&'a##b\\n' UESCAPE '#'",
                "varchar(5)",
                json!("a#b\\n"),
            ),
            ("SELECT u&'it''s'", "varchar(4)", json!("it's")),
            // Digit separators: no exponent after them (Trino 476's lexer reads the
            // identifier `e4`, an alias, after the decimal).
            ("SELECT 123_456.789e4", "decimal(9, 3)", json!("123456.789")),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT 1_000e2",
                "SYNTAX_ERROR: line 1:8: identifiers must not start with a digit",
            ),
            (
                "SELECT U&'x' UESCAPE ''",
                "SYNTAX_ERROR: line 1:8: Empty Unicode escape character",
            ),
            (
                "SELECT U&'x' UESCAPE '+'",
                "SYNTAX_ERROR: line 1:8: Invalid Unicode escape character: +",
            ),
            (
                "SELECT U&'hello\\6dB'",
                "SYNTAX_ERROR: line 1:8: Incomplete escape sequence: 6dB",
            ),
            (
                "SELECT U&'hello\\K6B'",
                "SYNTAX_ERROR: line 1:8: Invalid hexadecimal digit: K",
            ),
            (
                "SELECT U&'hello\\DBFF'",
                "SYNTAX_ERROR: line 1:8: Invalid escaped character: DBFF. Escaped character is a surrogate. Use '\\+123456' instead.",
            ),
        ],
    );
}

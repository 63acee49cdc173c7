//! Regular expression functions. Cases are the examples of trinodb/trino
//! docs/src/main/sphinx/functions/regexp.md (one per function form), with the types Trino's
//! signatures give (JoniRegexpFunctions: the input's varchar(x) is kept where the docs say
//! `varchar`), plus the refusals: JoniRegexpFunctions.validateGroup's message, and patterns
//! the stand-in can't match as Java does.

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn the_documented_examples_answer_as_in_trino() {
    let engine = engine();
    let apples = "'I have 23 apples, 5 pears and 13 oranges'";
    let position = |rest: &str| format!("SELECT regexp_position({apples}, '\\b\\d+\\b'{rest})");
    let (p1, p2, p3, p4, p5, p6) = (
        position(""),
        position(", 5"),
        position(", 12"),
        position(", 12, 1"),
        position(", 12, 2"),
        position(", 12, 3"),
    );
    check_values(
        &engine,
        &[
            (
                "SELECT regexp_count('1a 2b 14m', '\\s*[a-z]+\\s*')",
                "bigint",
                json!(3),
            ),
            (
                "SELECT regexp_extract_all('1a 2b 14m', '\\d+')",
                "array(varchar(9))",
                json!(["1", "2", "14"]),
            ),
            (
                "SELECT regexp_extract_all('1a 2b 14m', '(\\d+)([a-z]+)', 2)",
                "array(varchar(9))",
                json!(["a", "b", "m"]),
            ),
            (
                "SELECT regexp_extract('1a 2b 14m', '\\d+')",
                "varchar(9)",
                json!("1"),
            ),
            (
                "SELECT regexp_extract('1a 2b 14m', '(\\d+)([a-z]+)', 2)",
                "varchar(9)",
                json!("a"),
            ),
            (
                "SELECT regexp_like('1a 2b 14m', '\\d+b')",
                "boolean",
                json!(true),
            ),
            (&p1, "integer", json!(8)),
            (&p2, "integer", json!(8)),
            (&p3, "integer", json!(19)),
            (&p4, "integer", json!(19)),
            (&p5, "integer", json!(31)),
            (&p6, "integer", json!(-1)),
            (
                "SELECT regexp_replace('1a 2b 14m', '\\d+[ab] ')",
                "varchar(9)",
                json!("14m"),
            ),
            (
                "SELECT regexp_replace('1a 2b 14m', '(\\d+)([ab]) ', '3c$2 ')",
                // JoniRegexpFunctions.regexpReplace: varchar(x + max(x * y / 2, y) * (x + 1)).
                "varchar(229)",
                json!("3ca 3cb 14m"),
            ),
            (
                "SELECT regexp_replace('new york', '(\\w)(\\w*)', x -> upper(x[1]) || lower(x[2]))",
                "varchar",
                json!("New York"),
            ),
            (
                "SELECT regexp_split('1a 2b 14m', '\\s*[a-z]+\\s*')",
                "array(varchar(9))",
                json!(["1", "2", "14", ""]),
            ),
        ],
    );
}

#[test]
fn nulls_misses_and_escapes() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT regexp_extract('abc', '\\d')",
                "varchar(3)",
                json!(null),
            ),
            ("SELECT regexp_like(NULL, 'a')", "boolean", json!(null)),
            (
                "SELECT regexp_extract_all('abc', '\\d')",
                "array(varchar(3))",
                json!([]),
            ),
            // A group that took no part in the match is NULL (Trino's extract of group 1).
            (
                "SELECT regexp_extract_all('a1 b', '[a-z](\\d)?', 1)",
                "array(varchar(4))",
                json!(["1", null]),
            ),
            // `\$` is a literal dollar; `${name}` a named group.
            (
                "SELECT regexp_replace('a-b', '(?<x>-)', '\\$${x}')",
                "varchar(39)",
                json!("a$-b"),
            ),
            // A lambda's NULL varchar makes the whole answer NULL (Trino 476).
            (
                "SELECT regexp_replace('a1b2', '(\\d)', x -> CAST(NULL AS varchar))",
                "varchar",
                json!(null),
            ),
            // Positions count code points, not bytes.
            ("SELECT regexp_position('ééx', 'x')", "integer", json!(3)),
            (
                "SELECT regexp_like('STRASSE', '(?i)strasse')",
                "boolean",
                json!(true),
            ),
        ],
    );
}

#[test]
fn bad_groups_positions_and_patterns_are_refused() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT regexp_extract('1a', '(\\d)', 2)",
                "INVALID_FUNCTION_ARGUMENT: Pattern has 1 groups. Cannot access group 2",
            ),
            (
                "SELECT regexp_position('abc', 'b', 0)",
                "INVALID_FUNCTION_ARGUMENT: start position cannot be smaller than 1",
            ),
            (
                "SELECT regexp_position('abc', 'b', 1, 0)",
                "INVALID_FUNCTION_ARGUMENT: occurrence cannot be smaller than 1",
            ),
            // Java has look-ahead; the stand-in says so rather than match differently.
            (
                "SELECT regexp_like('ab', 'a(?=b)')",
                "INVALID_FUNCTION_ARGUMENT: Invalid regular expression (the sandbox matches with the Rust regex crate",
            ),
            (
                "SELECT regexp_replace('a', '(a)', '$2')",
                "INVALID_FUNCTION_ARGUMENT: No group 2",
            ),
            (
                "SELECT regexp_like(1, 'a')",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (integer, varchar(1)) for function regexp_like",
            ),
        ],
    );
}

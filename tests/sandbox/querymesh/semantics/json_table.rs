//! JSON_TABLE in FROM. Sources: trinodb/trino docs functions/json ("json_table") and
//! TestJsonTable (core/trino-main/src/test/java/io/trino/sql/query); every answer checked
//! against Trino 476.

use serde_json::json;

use super::{check_errors, check_rows};
use crate::support::engine::{engine, run};

#[test]
fn columns_are_named_and_typed_as_trino_answers() {
    let engine = engine();
    // Unquoted column names are upper-cased, quoted ones kept; ordinality is bigint.
    let a = run(
        &engine,
        r#"SELECT * FROM JSON_TABLE('[{"a":1},{"a":2}]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $.a', "b" varchar(3) FORMAT JSON PATH 'lax $', o FOR ORDINALITY))"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.names, ["A", "b", "O"]);
    assert_eq!(a.types, ["bigint", "varchar(3)", "bigint"]);
    assert_eq!(json!(a.rows), json!([[1, "{\"a", 1], [2, "{\"a", 2]]));
}

#[test]
fn rows_follow_nested_paths_and_plans() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            // docs "json_table": continents and their countries, flattened.
            (
                r#"SELECT * FROM json_table('[{"continent": "Asia", "countries": [{"name": "Japan"}, {"name": "Thailand"}]}, {"continent": "Europe", "countries": [{"name": "France"}]}]', 'lax $' COLUMNS (NESTED PATH 'lax $[*]' COLUMNS (continent varchar PATH 'lax $.continent', NESTED PATH 'lax $.countries[*]' COLUMNS (country varchar PATH 'lax $.name'))))"#,
                json!([
                    ["Asia", "Japan"],
                    ["Asia", "Thailand"],
                    ["Europe", "France"]
                ]),
            ),
            // docs "json_table": PLAN (root OUTER nested) keeps the parent row, INNER drops it.
            (
                r#"SELECT * FROM JSON_TABLE('[]', 'lax $' AS "root_path" COLUMNS(a varchar(1) PATH 'lax "A"', NESTED PATH 'lax $[*]' AS "nested_path" COLUMNS (b varchar(1) PATH 'lax "B"')) PLAN ("root_path" OUTER "nested_path"))"#,
                json!([["A", null]]),
            ),
            (
                r#"SELECT * FROM JSON_TABLE('[]', 'lax $' AS "root_path" COLUMNS(a varchar(1) PATH 'lax "A"', NESTED PATH 'lax $[*]' AS "nested_path" COLUMNS (b varchar(1) PATH 'lax "B"')) PLAN ("root_path" INNER "nested_path"))"#,
                json!([]),
            ),
            // Siblings: UNION one after the other (the default), CROSS every combination.
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' AS x COLUMNS (a bigint PATH 'lax $', NESTED PATH 'lax $' AS y COLUMNS (b bigint PATH 'lax $'), NESTED PATH 'lax $' AS z COLUMNS (c bigint PATH 'lax $')))",
                json!([[1, 1, null], [1, null, 1]]),
            ),
            (
                "SELECT * FROM JSON_TABLE('[[1, 2]]', 'lax $[*]' COLUMNS (NESTED PATH 'lax $[*]' AS y COLUMNS (b bigint PATH 'lax $'), NESTED PATH 'lax $[*]' AS z COLUMNS (c bigint PATH 'lax $')) PLAN DEFAULT (CROSS))",
                json!([[1, 1], [1, 2], [2, 1], [2, 2]]),
            ),
            // Ordinality counts a level's items per parent item.
            (
                "SELECT * FROM JSON_TABLE('[[1,2],[3]]', 'lax $[*]' COLUMNS (o1 FOR ORDINALITY, NESTED PATH 'lax $[*]' COLUMNS (o2 FOR ORDINALITY, v bigint PATH 'lax $')))",
                json!([[1, 1, 1], [1, 2, 2], [2, 1, 3]]),
            ),
            // TestJsonTable.testCorrelation: the input, PASSING and DEFAULT read the FROM items
            // before it.
            (
                "SELECT empty_default, error_default FROM (SELECT '[[1, 2, 3], [4, 5, 6]]', 0, -42, 42) t(json_col, index_col, empty_default_col, error_default_col), JSON_TABLE(json_col, 'lax $[$index]' PASSING index_col AS \"index\" COLUMNS(empty_default bigint PATH 'lax $[-42]' DEFAULT empty_default_col ON EMPTY, error_default bigint PATH 'strict $[42]' DEFAULT error_default_col ON ERROR))",
                json!([[-42, 42]]),
            ),
            // TestJsonTable.testJoinTypes: LEFT JOIN … ON TRUE keeps rows with no item.
            (
                "SELECT * FROM (VALUES ('[1, 2, 3]'), ('[4, 5, 6, 7, 8]')) t(json_col) LEFT JOIN JSON_TABLE(json_col, 'lax $[4]' COLUMNS(a integer PATH 'lax $')) ON TRUE",
                json!([["[1, 2, 3]", null], ["[4, 5, 6, 7, 8]", 8]]),
            ),
            // Columns read their item as json_value does: varchar(n) and char(n) cut a string,
            // a char takes strings only, a timestamp reads a string's literal.
            (
                r#"SELECT * FROM json_table('[{"a": "abcdef"}, {"a": 12345}]', 'lax $[*]' COLUMNS (v varchar(3) PATH 'lax $.a', c char(3) PATH 'lax $.a'))"#,
                json!([["abc", "abc"], [null, null]]),
            ),
            (
                r#"SELECT * FROM json_table('[{"a": "2020-01-01 10:00:00.123456"}]', 'lax $[*]' COLUMNS (t timestamp(3) PATH 'lax $.a'))"#,
                json!([["2020-01-01 10:00:00.123"]]),
            ),
            // Errors: none by default (EMPTY ON ERROR), a column's own NULL / DEFAULT.
            (
                "SELECT * FROM JSON_TABLE('not json', 'lax $[*]' COLUMNS (a bigint))",
                json!([]),
            ),
            (
                "SELECT * FROM JSON_TABLE('[1,\"x\"]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $' DEFAULT -1 ON ERROR, b bigint PATH 'lax $'))",
                json!([[1, 1], [-1, null]]),
            ),
            (
                "SELECT * FROM JSON_TABLE('[1,[2]]', 'lax $[*]' COLUMNS (a varchar FORMAT JSON PATH 'lax $' WITH ARRAY WRAPPER, b varchar FORMAT JSON PATH 'lax $.q' EMPTY ARRAY ON EMPTY))",
                json!([["[1]", "[]"], ["[[2]]", "[]"]]),
            ),
        ],
    );
}

#[test]
fn misuse_gets_trinos_errors() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (a bigint, a varchar))",
                "DUPLICATE_COLUMN_OR_PATH_NAME",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' AS a COLUMNS (a bigint))",
                "DUPLICATE_COLUMN_OR_PATH_NAME",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (a bigint) PLAN (x))",
                "MISSING_PATH_NAME",
            ),
            (
                "SELECT * FROM JSON_TABLE('[[3]]', 'lax $[*]' COLUMNS (NESTED PATH 'lax $[*]' COLUMNS (v bigint PATH 'lax $')) PLAN DEFAULT (INNER))",
                "MISSING_PATH_NAME",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' AS x COLUMNS (a bigint, NESTED PATH 'lax $' AS y COLUMNS (b bigint)) PLAN (x))",
                "INVALID_PLAN",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' AS x COLUMNS (a bigint, NESTED PATH 'lax $' AS y COLUMNS (b bigint), NESTED PATH 'lax $' AS z COLUMNS (c bigint)) PLAN (x OUTER (y UNION y)))",
                "INVALID_PLAN",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (x bigint EXISTS PATH 'lax $.a'))",
                "SYNTAX_ERROR",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS ())",
                "SYNTAX_ERROR",
            ),
            // The context item must be a string (not json); a column's path sees no PASSING.
            (
                "SELECT * FROM JSON_TABLE(json '[1]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $'))",
                "TYPE_MISMATCH",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' PASSING 10 AS \"x\" COLUMNS (a bigint PATH 'lax $ + $x'))",
                "INVALID_PATH",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (a bigint FORMAT JSON PATH 'lax $'))",
                "TYPE_MISMATCH",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $' DEFAULT 'x' ON EMPTY))",
                "TYPE_MISMATCH",
            ),
            // ERROR ON ERROR: the row path's errors and the columns' (unless their own ON ERROR).
            (
                "SELECT * FROM JSON_TABLE('[1,2]', 'strict $.x' COLUMNS (a bigint) ERROR ON ERROR)",
                "PATH_EVALUATION_ERROR",
            ),
            (
                "SELECT * FROM JSON_TABLE('[1,\"x\"]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $') ERROR ON ERROR)",
                "JSON_VALUE_RESULT_ERROR",
            ),
            // A JSON_TABLE reading an enclosing query's columns is not decorrelated.
            (
                "SELECT * FROM nation n WHERE EXISTS (SELECT 1 FROM JSON_TABLE(json_array(n.nationkey), 'lax $[*]' COLUMNS (a bigint PATH 'lax $')))",
                "NOT_SUPPORTED",
            ),
        ],
    );
}

//! Conditionals and predicates: COALESCE, NULLIF, CASE, LIKE, IN, BETWEEN.

use serde_json::{Value, json};

use super::{check_errors, check_rows, check_values};
use crate::support::engine::engine;

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
            // greatest/least take E:orderable (docs functions/comparison); maps are not.
            (
                "SELECT least(MAP(ARRAY[1], ARRAY[1]), MAP(ARRAY[2], ARRAY[2]))",
                "FUNCTION_NOT_FOUND",
            ),
            (
                "SELECT greatest(MAP(ARRAY[1], ARRAY[1]), MAP(ARRAY[2], ARRAY[2]))",
                "FUNCTION_NOT_FOUND",
            ),
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
            // Trino 476 (trino-q): the special forms' own TYPE_MISMATCH.
            ("SELECT nullif(1, 'a')", "TYPE_MISMATCH"),
            ("SELECT coalesce(1, 'a')", "TYPE_MISMATCH"),
            ("SELECT CASE WHEN true THEN 1 ELSE 'a' END", "TYPE_MISMATCH"),
        ],
    );
}

/// `try(x)`: the docs functions/conditional example (the `shipping` table) and cases of
/// trinodb/trino's TestTryFunction; only TryFunction's errors become NULL.
#[test]
fn try_turns_data_errors_into_null() {
    let engine = engine();
    let shipping = "(VALUES ('California', '94131', 25, 100), ('California', 'P332a', 5, 72), \
        ('California', '94025', 0, 155), ('New Jersey', '08544', 225, 490)) \
        AS shipping(origin_state, origin_zip, packages, total_cost)";
    let rows = |sql: String, expected: Value| (sql, expected);
    let cases = [
        rows(
            format!("SELECT origin_zip, try(total_cost / packages) FROM {shipping}"),
            json!([["94131", 4], ["P332a", 14], ["94025", null], ["08544", 2]]),
        ),
        rows(
            format!("SELECT try(CAST(origin_zip AS BIGINT)) FROM {shipping}"),
            json!([[94131], [null], [94025], [8544]]),
        ),
        rows(
            format!(
                "SELECT COALESCE(try(total_cost / packages), 0) AS per_package FROM {shipping}"
            ),
            json!([[4], [14], [0], [2]]),
        ),
    ];
    let cases: Vec<(&str, Value)> = cases.iter().map(|(s, v)| (s.as_str(), v.clone())).collect();
    check_rows(&engine, &cases);
    check_values(
        &engine,
        &[
            ("SELECT try(42)", "integer", json!(42)),
            ("SELECT try(DOUBLE '4.5')", "double", json!(4.5)),
            ("SELECT try(1/0)", "integer", Value::Null),
            ("SELECT try(CAST('a' AS integer))", "integer", Value::Null),
            (
                "SELECT try(abs(-9223372036854775807 - 1))",
                "bigint",
                Value::Null,
            ),
            ("SELECT try(ARRAY[1, 2][5])", "integer", Value::Null),
            ("SELECT try(json_parse('{'))", "json", Value::Null),
            (
                "SELECT try('it''s qm_x(' || 'ok')",
                "varchar",
                json!("it's qm_x(ok"),
            ),
            ("SELECT try(2147483647 + 1)", "integer", Value::Null),
            ("SELECT coalesce(try(1/0), -1)", "integer", json!(-1)),
            // Calls built as SQLite expression trees, alone and nested: the failing call
            // is caught wherever it sits, and a call that does not fail keeps its value.
            ("SELECT try(from_base('zz', 2))", "bigint", Value::Null),
            (
                "SELECT try(length(to_base(from_base('zz', 2), 10)))",
                "bigint",
                Value::Null,
            ),
            (
                "SELECT try(upper(to_base(from_base('11', 2), 1)))",
                "varchar(64)",
                Value::Null,
            ),
            (
                "SELECT try(if(true, upper(to_base(from_base('1111', 2), 16)), 'x'))",
                "varchar(64)",
                json!("F"),
            ),
        ],
    );
    // The same expressions still fail outside try, and errors TryFunction doesn't catch
    // still fail inside it.
    check_errors(
        &engine,
        &[
            ("SELECT 1/0", "DIVISION_BY_ZERO"),
            (
                "SELECT 2147483647 + 1",
                "NUMERIC_VALUE_OUT_OF_RANGE: integer addition overflow: 2147483647 + 1",
            ),
            ("SELECT CAST('a' AS integer)", "INVALID_CAST_ARGUMENT"),
            ("SELECT from_base('zz', 2)", "INVALID_FUNCTION_ARGUMENT"),
            (
                "SELECT upper(to_base(from_base('11', 2), 1))",
                "INVALID_FUNCTION_ARGUMENT",
            ),
            // MathFunctions.abs.
            (
                "SELECT abs(-9223372036854775807 - 1)",
                "NUMERIC_VALUE_OUT_OF_RANGE: Value -9223372036854775808 is out of range for abs(bigint)",
            ),
            (
                "SELECT abs(x) FROM (VALUES CAST(-2147483648 AS integer)) t(x)",
                "NUMERIC_VALUE_OUT_OF_RANGE: Value -2147483648 is out of range for abs(integer)",
            ),
            (
                "SELECT try(length(lpad('x', 1000000000, 'y')))",
                "EXCEEDED_",
            ),
        ],
    );
}

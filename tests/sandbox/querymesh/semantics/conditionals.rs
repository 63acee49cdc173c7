//! Conditionals and predicates: COALESCE, NULLIF, CASE, LIKE, IN, BETWEEN.

use serde_json::{Value, json};

use super::{check_errors, check_values};
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
            ("SELECT nullif(1, 'a')", "FUNCTION_NOT_FOUND"),
            ("SELECT coalesce(1, 'a')", "FUNCTION_NOT_FOUND"),
            ("SELECT CASE WHEN true THEN 1 ELSE 'a' END", "TYPE_MISMATCH"),
        ],
    );
}

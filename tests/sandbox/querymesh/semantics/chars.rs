//! char(n): stored without trailing spaces, padded where it becomes a varchar (docs
//! language/types "CHAR", TestCharacterStringCasts, TestCharOperators); each answer is
//! Trino 476's.

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn chars_cut_pad_and_compare_as_trino_does() {
    let engine = engine();
    check_values(
        &engine,
        &[
            ("SELECT CAST('abcdef' AS char(2))", "char(2)", json!("ab")),
            ("SELECT CAST('abc' AS char(5))", "char(5)", json!("abc  ")),
            (
                "SELECT CAST(CAST('ab' AS char(4)) AS varchar)",
                "varchar",
                json!("ab  "),
            ),
            (
                "SELECT CAST(CAST('ab' AS char(4)) AS varchar(3))",
                "varchar(3)",
                json!("ab "),
            ),
            ("SELECT length(CAST('abc' AS char(5)))", "bigint", json!(5)),
            (
                "SELECT CAST(CAST('abc' AS char(5)) AS varchar) = 'abc'",
                "boolean",
                json!(false),
            ),
            (
                "SELECT 'abc' = CAST('abc' AS char(5))",
                "boolean",
                json!(true),
            ),
            (
                "SELECT 'abc ' = CAST('abc' AS char(5))",
                "boolean",
                json!(true),
            ),
            (
                "SELECT CAST('abc' AS char(5)) = CAST('abc ' AS char(7))",
                "boolean",
                json!(true),
            ),
            (
                "SELECT CAST('ab' AS char(4)) LIKE 'ab'",
                "boolean",
                json!(false),
            ),
            (
                "SELECT CAST('ab' AS char(4)) LIKE 'ab%'",
                "boolean",
                json!(true),
            ),
            // varchar(6) and char(2) meet in char(6).
            (
                "SELECT coalesce('abcdef', CAST('a' AS char(2)))",
                "char(6)",
                json!("abcdef"),
            ),
            (
                "SELECT coalesce('ab  ', CAST('a' AS char(2)))",
                "char(4)",
                json!("ab  "),
            ),
            ("SELECT char 'ab '", "char(3)", json!("ab ")),
            (
                "SELECT CAST(NULL AS char(3)) = CAST(NULL AS char(3))",
                "boolean",
                json!(null),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            ("SELECT CAST(12 AS char(3))", "TYPE_MISMATCH"),
            (
                "SELECT CAST(CAST('1' AS char(3)) AS double)",
                "TYPE_MISMATCH",
            ),
        ],
    );
}

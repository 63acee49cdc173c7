//! Arrays, maps and rows: constructors, subscripts, field access, casts and equality.
//! Sources: trinodb/trino TestArrayOperators, TestRowOperators, TestMapOperators,
//! ArraySubscriptOperator, MapSubscriptOperator, and docs functions/array ("Subscript
//! operator: []"), language/types ("ARRAY", "MAP", "ROW").

use serde_json::json;

use super::{check_errors, check_rows, check_values};
use crate::support::engine::{engine, run};

/// Checks each `(sql, name, text)`: the query fails with that error name and message text,
/// wherever it places it (`NAME: line L:C: text`).
fn check_error_texts(
    engine: &zero_sandbox::querymesh::engine::Engine,
    cases: &[(&str, &str, &str)],
) {
    let mut wrong = Vec::new();
    for (sql, name, text) in cases {
        match run(engine, sql) {
            Err(e) => {
                let rest = e.strip_prefix(&format!("{name}: ")).unwrap_or("");
                let message = match rest.strip_prefix("line ") {
                    Some(placed) => placed.split_once(": ").map_or("", |(_, m)| m),
                    None => rest,
                };
                if message != *text {
                    wrong.push(format!(
                        "{sql}\n    expected {name}: {text}\n    got      {e}"
                    ));
                }
            }
            Ok(a) => wrong.push(format!("{sql}\n    succeeded {:?}", a.types)),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn array_constructor_and_subscript() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestArrayOperators.testConstructor: the elements' common super type.
            ("SELECT ARRAY[1, 2]", "array(integer)", json!([1, 2])),
            ("SELECT ARRAY[1, 2.0E0]", "array(double)", json!([1.0, 2.0])),
            ("SELECT ARRAY[]", "array(unknown)", json!([])),
            ("SELECT ARRAY[NULL]", "array(unknown)", json!([null])),
            (
                "SELECT ARRAY['a', 'bc']",
                "array(varchar(2))",
                json!(["a", "bc"]),
            ),
            (
                "SELECT ARRAY[ARRAY[1, 2], NULL, ARRAY[3]]",
                "array(array(integer))",
                json!([[1, 2], null, [3]]),
            ),
            (
                "SELECT ARRAY[1.5, 2]",
                "array(decimal(11, 1))",
                json!(["1.5", "2.0"]),
            ),
            (
                "SELECT ARRAY[true, false, NULL]",
                "array(boolean)",
                json!([true, false, null]),
            ),
            (
                "SELECT ARRAY[DATE '2020-01-02']",
                "array(date)",
                json!(["2020-01-02"]),
            ),
            // docs functions/array "Subscript operator: []": 1-based.
            ("SELECT ARRAY[5, 3, 41, 6][3]", "integer", json!(41)),
            ("SELECT ARRAY['a', 'b'][2]", "varchar(1)", json!("b")),
            (
                "SELECT ARRAY[ARRAY[1, 2], ARRAY[3]][1][2]",
                "integer",
                json!(2),
            ),
            ("SELECT ARRAY[1, NULL][2]", "integer", json!(null)),
            ("SELECT ARRAY[1, 2][NULL]", "integer", json!(null)),
            // TestArrayOperators.testTypeOf via the display names (trino-facts.md).
            (
                "SELECT typeof(ARRAY[1, 2])",
                "varchar",
                json!("array(integer)"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // ArraySubscriptOperator.checkIndex / checkArrayIndex (TestArrayOperators
            // .testSubscript).
            (
                "SELECT ARRAY[1, 2, 3][5]",
                "INVALID_FUNCTION_ARGUMENT: Array subscript must be less than or equal to array length: 5 > 3",
            ),
            (
                "SELECT ARRAY[1, 2, 3][0]",
                "INVALID_FUNCTION_ARGUMENT: SQL array indices start at 1",
            ),
            (
                "SELECT ARRAY[1, 2, 3][-1]",
                "INVALID_FUNCTION_ARGUMENT: Array subscript is negative: -1",
            ),
            (
                "SELECT ARRAY[1, 'a']",
                "TYPE_MISMATCH: line 1:17: All ARRAY elements must be the same type",
            ),
            (
                "SELECT ARRAY[1]['a']",
                "TYPE_MISMATCH: line 1:17: Cannot use varchar(1) for subscript of array(integer)",
            ),
        ],
    );
    // The stand-in places these at the first operand inside ARRAY[…] / CAST(…), Trino at the
    // ARRAY / CAST keyword: the name and text are pinned, the place is not.
    check_error_texts(
        &engine,
        // Arrays order when their elements do (TestArrayOperators.testLessThan); maps don't.
        &[(
            "SELECT ARRAY[MAP(ARRAY[1], ARRAY[2])] < ARRAY[MAP(ARRAY[1], ARRAY[3])]",
            "TYPE_MISMATCH",
            "Cannot apply operator: array(map(integer, integer)) < array(map(integer, integer))",
        )],
    );
}

#[test]
fn rows_fields_and_positions() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestRowOperators.testRowTypeLookup / docs language/types "ROW".
            (
                "SELECT ROW(1, 'a')",
                "row(integer, varchar(1))",
                json!([1, "a"]),
            ),
            (
                "SELECT CAST(ROW(1, 2.0) AS ROW(x BIGINT, y DOUBLE))",
                "row(x bigint, y double)",
                json!([1, 2.0]),
            ),
            (
                "SELECT CAST(ROW(1, 2.0) AS ROW(x BIGINT, y DOUBLE)).x",
                "bigint",
                json!(1),
            ),
            (
                "SELECT CAST(ROW(1, 2.0) AS ROW(x BIGINT, y DOUBLE)).Y",
                "double",
                json!(2.0),
            ),
            ("SELECT ROW(1, 'a')[2]", "varchar(1)", json!("a")),
            (
                "SELECT typeof(CAST(ROW(1, 'a') AS ROW(x integer, y varchar)))",
                "varchar",
                json!("row(x integer, y varchar)"),
            ),
            (
                "SELECT ROW(ARRAY[1], ROW(true))",
                "row(array(integer), row(boolean))",
                json!([[1], [true]]),
            ),
            // TestRowOperators.testRowComparison: equality by field.
            ("SELECT ROW(1, 'a') = ROW(1, 'a')", "boolean", json!(true)),
            ("SELECT ROW(1, 'a') = ROW(1, 'b')", "boolean", json!(false)),
        ],
    );
    // Field access on a column of a derived table (docs language/types "ROW": `x.y`).
    check_rows(
        &engine,
        &[(
            "SELECT t.r.x, r.y FROM (SELECT CAST(ROW(n, 'q') AS ROW(x bigint, y varchar)) AS r FROM (VALUES 7) v(n)) t",
            json!([[7, "q"]]),
        )],
    );
    check_errors(
        &engine,
        &[
            // ExpressionAnalyzer.visitSubscriptExpression.
            (
                "SELECT ROW(1, 2)[3]",
                "INVALID_FUNCTION_ARGUMENT: line 1:18: Subscript index out of bounds: 3, max value is 2",
            ),
            // TestAnalyzer.testInvalidTypes (subscript on Row), places included.
            (
                "SELECT ROW(1, 'a')[x] FROM (VALUES 1) t(x)",
                "EXPRESSION_NOT_CONSTANT: line 1:20: Subscript expression on ROW requires a constant index",
            ),
            (
                "SELECT ROW(1, 'a')[9999999999]",
                "TYPE_MISMATCH: line 1:20: Subscript expression on ROW requires integer index, found bigint",
            ),
            (
                "SELECT ROW(1, 'a')[-1]",
                "INVALID_FUNCTION_ARGUMENT: line 1:20: Invalid subscript index: -1. ROW indices start at 1",
            ),
            (
                "SELECT ROW(1, 'a')[5]",
                "INVALID_FUNCTION_ARGUMENT: line 1:20: Subscript index out of bounds: 5, max value is 2",
            ),
            // TestAnalyzer.testInvalidTypes (row type): a field of a column that is no row.
            ("SELECT t.x.f1 FROM (VALUES 1) t(x)", "TYPE_MISMATCH: "),
            ("SELECT x.f1 FROM (VALUES 1) t(x)", "TYPE_MISMATCH: "),
            (
                "SELECT ROW(1, 2)[0]",
                "INVALID_FUNCTION_ARGUMENT: line 1:18: Invalid subscript index: 0. ROW indices start at 1",
            ),
        ],
    );
    check_error_texts(
        &engine,
        &[
            (
                "SELECT CAST(ROW(1) AS ROW(x integer)).z",
                "INVALID_COLUMN_REFERENCE",
                "Column reference 'z' is invalid",
            ),
            (
                "SELECT CAST(ROW(1, 2) AS ROW(x integer))",
                "TYPE_MISMATCH",
                "Cannot cast row(integer, integer) to row(x integer)",
            ),
        ],
    );
}

#[test]
fn complex_casts_and_equality() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestArrayOperators.testArrayToArrayCast.
            (
                "SELECT CAST(ARRAY[1, 2] AS array(bigint))",
                "array(bigint)",
                json!([1, 2]),
            ),
            (
                "SELECT CAST(ARRAY[1, NULL, 3] AS ARRAY(varchar))",
                "array(varchar)",
                json!(["1", null, "3"]),
            ),
            (
                "SELECT CAST(ARRAY[1, 2] AS array(double))",
                "array(double)",
                json!([1.0, 2.0]),
            ),
            (
                "SELECT CAST(ARRAY['1', '2'] AS array(integer))",
                "array(integer)",
                json!([1, 2]),
            ),
            (
                // One element that fails makes the whole TRY_CAST NULL (Trino 476).
                "SELECT TRY_CAST(ARRAY['1', 'x'] AS array(integer))",
                "array(integer)",
                json!(null),
            ),
            (
                "SELECT CAST(NULL AS map(varchar, array(integer)))",
                "map(varchar, array(integer))",
                json!(null),
            ),
            (
                "SELECT CAST(CAST(ARRAY[1] AS array(bigint)) AS\n array(varchar))",
                "array(varchar)",
                json!(["1"]),
            ),
            (
                "SELECT CAST(ARRAY[ARRAY[1]] AS array(array(double)))",
                "array(array(double))",
                json!([[1.0]]),
            ),
            // TestArrayOperators.testComparison: equality of equal-typed arrays.
            ("SELECT ARRAY[1, 2] = ARRAY[1, 2]", "boolean", json!(true)),
            ("SELECT ARRAY[1, 2] <> ARRAY[2, 1]", "boolean", json!(true)),
            // ArrayEqualOperator: a NULL element makes equality indeterminate, unless
            // another pair already differs.
            (
                "SELECT ARRAY[1, NULL] = ARRAY[1, NULL]",
                "boolean",
                json!(null),
            ),
            (
                "SELECT ARRAY[1, NULL] = ARRAY[2, NULL]",
                "boolean",
                json!(false),
            ),
            (
                "SELECT ARRAY[1, NULL] IS DISTINCT FROM ARRAY[1, NULL]",
                "boolean",
                json!(false),
            ),
            ("SELECT ROW(1, NULL) = ROW(1, NULL)", "boolean", json!(null)),
            (
                "SELECT ARRAY[1, 2] = CAST(ARRAY[1, 2] AS array(bigint))",
                "boolean",
                json!(true),
            ),
            (
                "SELECT ARRAY[1] IS DISTINCT FROM ARRAY[2]",
                "boolean",
                json!(true),
            ),
            (
                "SELECT ARRAY[1] IN (ARRAY[2], ARRAY[1])",
                "boolean",
                json!(true),
            ),
            // TestUuidOperators: varchar to uuid and back, lowercase.
            (
                "SELECT CAST('12151FD2-7586-11E9-8F9E-2A86E4085A59' AS uuid)",
                "uuid",
                json!("12151fd2-7586-11e9-8f9e-2a86e4085a59"),
            ),
            (
                "SELECT CAST(CAST('12151fd2-7586-11e9-8f9e-2a86e4085a59' AS uuid) AS varchar)",
                "varchar",
                json!("12151fd2-7586-11e9-8f9e-2a86e4085a59"),
            ),
            ("SELECT TRY_CAST('x' AS uuid)", "uuid", json!(null)),
            // Varbinary is base64 in the protocol (trino-facts.md "Value encoding").
            (
                "SELECT CAST('abc' AS varbinary)",
                "varbinary",
                json!("YWJj"),
            ),
        ],
    );
    check_error_texts(
        &engine,
        &[
            // Trino has no cast between array and varchar (only through json).
            (
                "SELECT CAST(ARRAY[1] AS varchar)",
                "TYPE_MISMATCH",
                "Cannot cast array(integer) to varchar",
            ),
            (
                "SELECT CAST(1 AS array(foo))",
                "TYPE_MISMATCH",
                "Unknown type: array(foo)",
            ),
            (
                "SELECT ARRAY[1] = ARRAY['a']",
                "TYPE_MISMATCH",
                "Cannot apply operator: array(integer) = array(varchar(1))",
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT CAST('x' AS uuid)",
            "INVALID_CAST_ARGUMENT: Cannot cast value to UUID: x",
        )],
    );
}

//! JSON: the json type, json_* functions, casts between json and SQL values, and the SQL/JSON
//! functions. Sources: docs functions/json, TestJsonFunctions, TestJsonExtract,
//! TestJsonValueFunction, TestJsonQueryFunction, TestJsonExistsFunction,
//! TestJsonArrayFunction, TestJsonObjectFunction.

use serde_json::{Value, json};

use super::{check_errors, check_values};
use crate::support::engine::engine;

fn json_text(s: &str) -> Value {
    json!(s)
}

#[test]
fn json_parse_format_and_literals() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/json json_parse / json_format.
            (
                "SELECT json_parse('[1, 2, 3]')",
                "json",
                json_text("[1,2,3]"),
            ),
            (
                r#"SELECT json_parse('"abc"')"#,
                "json",
                json_text(r#""abc""#),
            ),
            ("SELECT json_parse('42')", "json", json_text("42")),
            ("SELECT json_parse('true')", "json", json_text("true")),
            ("SELECT json_parse('null')", "json", json_text("null")),
            // JsonFunctions.jsonParse writes with Jackson's SORTED_MAPPER: keys sorted.
            (
                r#"SELECT json_parse('{"b": 1, "a": [1.0, 2.50]}')"#,
                "json",
                json_text(r#"{"a":[1.0,2.5],"b":1}"#),
            ),
            (
                r#"SELECT json_format(JSON '{"a": 1, "b": 2}')"#,
                "varchar",
                json!(r#"{"a":1,"b":2}"#),
            ),
            // TestJsonFunctions.testJsonFormat
            (
                r#"SELECT JSON_FORMAT(JSON '["a", "b"]')"#,
                "varchar",
                json!(r#"["a","b"]"#),
            ),
            ("SELECT json_format(JSON '42')", "varchar", json!("42")),
            (
                r#"SELECT json_format(JSON '"a"')"#,
                "varchar",
                json!(r#""a""#),
            ),
            ("SELECT json_parse(NULL)", "json", Value::Null),
            ("SELECT typeof(JSON '[1]')", "varchar", json!("json")),
        ],
    );
    check_errors(
        &engine,
        &[
            // TestJsonFunctions.testInvalidJsonParse; docs: json_parse('not_json') fails.
            (
                "SELECT JSON 'INVALID'",
                "INVALID_LITERAL: line 1:8: 'INVALID' is not a valid JSON literal",
            ),
            (
                "SELECT JSON_PARSE('INVALID')",
                "INVALID_FUNCTION_ARGUMENT: Cannot convert value to JSON: 'INVALID'",
            ),
            (
                r#"SELECT JSON_PARSE('"x": 1')"#,
                "INVALID_FUNCTION_ARGUMENT: Cannot convert value to JSON",
            ),
            (
                "SELECT json_format('[1]')",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (varchar(3)) for function json_format",
            ),
        ],
    );
}

#[test]
fn json_extract_and_json_size() {
    let engine = engine();
    let doc = r#"'{"store": {"book": [{"author": "Nigel", "price": 8.95}, {"author": "Evelyn", "price": 12.99}], "book name": "x"}}'"#;
    check_values(
        &engine,
        &[
            // docs functions/json json_extract / json_extract_scalar examples.
            (
                &format!("SELECT json_extract({doc}, '$.store.book[0]')"),
                "json",
                json_text(r#"{"author":"Nigel","price":8.95}"#),
            ),
            (
                &format!("SELECT json_extract({doc}, '$.store[book][1].author')"),
                "json",
                json_text(r#""Evelyn""#),
            ),
            (
                &format!(r#"SELECT json_extract({doc}, '$.store["book name"]')"#),
                "json",
                json_text(r#""x""#),
            ),
            (
                &format!("SELECT json_extract_scalar({doc}, '$.store.book[0].author')"),
                "varchar(113)",
                json!("Nigel"),
            ),
            (
                "SELECT json_extract_scalar('[1, 2, 3]', '$[2]')",
                "varchar(9)",
                json!("3"),
            ),
            // TestJsonExtract: a scalar's text as written; no scalar at a container.
            (
                r#"SELECT json_extract_scalar('{"a": 1.50}', '$.a')"#,
                "varchar(11)",
                json!("1.50"),
            ),
            (
                r#"SELECT json_extract_scalar('{"a": [1]}', '$.a')"#,
                "varchar(10)",
                Value::Null,
            ),
            (
                r#"SELECT json_extract_scalar('{"a": null}', '$.a')"#,
                "varchar(11)",
                Value::Null,
            ),
            (
                r#"SELECT json_extract('{"a": null}', '$.a')"#,
                "json",
                json_text("null"),
            ),
            (
                r#"SELECT json_extract('{"a": 1}', '$.b')"#,
                "json",
                Value::Null,
            ),
            // Invalid JSON input is NULL, not an error (JsonExtract).
            ("SELECT json_extract('{', '$')", "json", Value::Null),
            (
                r#"SELECT json_extract(JSON '{"x": [1, 2]}', '$.x')"#,
                "json",
                json_text("[1,2]"),
            ),
            // TestJsonExtract.testFullScalarExtract / testFullJsonExtract: a numeric token
            // names an array element or an object member; a field may start with a digit.
            (
                "SELECT json_extract_scalar('[0, 1, 2]', '$.1')",
                "varchar(9)",
                json!("1"),
            ),
            (
                r#"SELECT json_extract_scalar('[0, 1, 2]', '$["1"]')"#,
                "varchar(9)",
                json!("1"),
            ),
            (
                r#"SELECT json_extract_scalar('{"15day" : 0, "30day" : 1}', '$[30day]')"#,
                "varchar(26)",
                json!("1"),
            ),
            (
                r#"SELECT json_extract('{"fuu": [0, [100, 101], 2]}', '$["fuu"][1]')"#,
                "json",
                json_text("[100,101]"),
            ),
            (
                r#"SELECT json_extract('{"@$fuu": {".b.ar": 1}}', '$["@$fuu"]')"#,
                "json",
                json_text(r#"{".b.ar":1}"#),
            ),
            (
                r#"SELECT json_extract('{"fuu": ["\u0001"]}', '$.fuu[0]')"#,
                "json",
                json_text(r#""\u0001""#),
            ),
            (
                r#"SELECT json_extract_scalar('{"foo:42": 7}', '$.foo:42')"#,
                "varchar(13)",
                json!("7"),
            ),
            // TestJsonFunctions.testJsonSize
            (
                r#"SELECT JSON_SIZE('{"x": {"a" : 1, "b" : 2} }', '$')"#,
                "bigint",
                json!(1),
            ),
            (
                r#"SELECT JSON_SIZE('{"x": {"a" : 1, "b" : 2} }', '$.x')"#,
                "bigint",
                json!(2),
            ),
            (
                r#"SELECT JSON_SIZE('{"x": {"a" : 1, "b" : [1,2,3], "c" : {"w":9}} }', '$.x')"#,
                "bigint",
                json!(3),
            ),
            (
                r#"SELECT JSON_SIZE('{"x": {"a" : 1, "b" : 2} }', '$.x.a')"#,
                "bigint",
                json!(0),
            ),
            ("SELECT JSON_SIZE('[1,2,3]', '$')", "bigint", json!(3)),
            ("SELECT JSON_SIZE('[1,2,3]', CHAR '$')", "bigint", json!(3)),
            ("SELECT JSON_SIZE(null, '$')", "bigint", Value::Null),
            (
                "SELECT JSON_SIZE('INVALID_JSON', '$')",
                "bigint",
                Value::Null,
            ),
            ("SELECT JSON_SIZE('[1,2,3]', null)", "bigint", Value::Null),
            (
                r#"SELECT JSON_SIZE(JSON '{"x": {"a" : 1, "b" : 2} }', '$.x')"#,
                "bigint",
                json!(2),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // TestJsonFunctions.testJsonSize
            (
                r#"SELECT JSON_SIZE('{"":""}', '')"#,
                "INVALID_FUNCTION_ARGUMENT: Invalid JSON path: ''",
            ),
            (
                r#"SELECT JSON_SIZE('{"":""}', CHAR ' ')"#,
                "INVALID_FUNCTION_ARGUMENT: Invalid JSON path: ' '",
            ),
            (
                r#"SELECT JSON_SIZE('{"":""}', '.')"#,
                "INVALID_FUNCTION_ARGUMENT: Invalid JSON path: '.'",
            ),
            (
                r#"SELECT JSON_SIZE('{"":""}', 'null')"#,
                "INVALID_FUNCTION_ARGUMENT: Invalid JSON path: 'null'",
            ),
            (
                "SELECT json_extract('[1]', '$.')",
                "INVALID_FUNCTION_ARGUMENT: Invalid JSON path: '$.'",
            ),
            // TestJsonExtract.testJsonTokenizer: no whitespace, a colon only quoted in [].
            (
                "SELECT json_extract('[1]', '$.x [42]')",
                "INVALID_FUNCTION_ARGUMENT: Invalid JSON path: '$.x [42]'",
            ),
            (
                "SELECT json_extract('[1]', '$[foo:bar]')",
                "INVALID_FUNCTION_ARGUMENT: Invalid JSON path: '$[foo:bar]'",
            ),
        ],
    );
}

#[test]
fn json_array_functions() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestJsonFunctions.testJsonArrayLength
            ("SELECT JSON_ARRAY_LENGTH('[]')", "bigint", json!(0)),
            (
                "SELECT JSON_ARRAY_LENGTH('[1, \"foo\", null]')",
                "bigint",
                json!(3),
            ),
            (
                r#"SELECT JSON_ARRAY_LENGTH(JSON '[2, 4, {"a": [8, 9]}, [], [5], 4]')"#,
                "bigint",
                json!(6),
            ),
            ("SELECT JSON_ARRAY_LENGTH(null)", "bigint", Value::Null),
            ("SELECT JSON_ARRAY_LENGTH('{}')", "bigint", Value::Null),
            // TestJsonFunctions.testJsonArrayContains*
            (
                "SELECT JSON_ARRAY_CONTAINS('[]', true)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[true, false]', false)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[1]', true)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[[true]]', true)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[3]', 3)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[-4]', -4)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[1.0]', 1)",
                "boolean",
                json!(false),
            ),
            (
                r#"SELECT JSON_ARRAY_CONTAINS('[2, 4, {"a": [8, 9]}, [], [5], 6]', 6)"#,
                "boolean",
                json!(true),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[92233720368547758071]', -9)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[1.5]', 1.5)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[1]', 1.0)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[9.6E400]', 4.2)",
                "boolean",
                json!(false),
            ),
            (
                r#"SELECT JSON_ARRAY_CONTAINS(JSON '[1, "foo", null]', 'foo')"#,
                "boolean",
                json!(true),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[1, 5]', '5')",
                "boolean",
                json!(false),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[\"\"]', '')",
                "boolean",
                json!(true),
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS(null, 'x')",
                "boolean",
                Value::Null,
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('[3]', null)",
                "boolean",
                Value::Null,
            ),
            // TestJsonFunctions.testJsonArrayContainsInvalid
            (
                "SELECT JSON_ARRAY_CONTAINS('[1,0,]', 8)",
                "boolean",
                Value::Null,
            ),
            (
                "SELECT JSON_ARRAY_CONTAINS('123', 'x')",
                "boolean",
                Value::Null,
            ),
            // TestJsonFunctions.testJsonArrayGet*; docs: a string element comes back unquoted.
            (
                "SELECT JSON_ARRAY_GET('[2, 7, 4]', 1)",
                "json",
                json_text("7"),
            ),
            (
                "SELECT JSON_ARRAY_GET('[2, 7, 4, 6, 8, 1, 0]', -1)",
                "json",
                json_text("0"),
            ),
            (
                "SELECT JSON_ARRAY_GET('[2, 7, 4, 6, 8, 1, 0]', -8)",
                "json",
                Value::Null,
            ),
            ("SELECT JSON_ARRAY_GET('[1, 3, 2]', 3)", "json", Value::Null),
            (
                "SELECT JSON_ARRAY_GET('[\"jhfa\"]', 0)",
                "json",
                json_text("jhfa"),
            ),
            (
                "SELECT JSON_ARRAY_GET('[\"jhfa\", null]', 1)",
                "json",
                Value::Null,
            ),
            (
                "SELECT JSON_ARRAY_GET('[3.14]', 0)",
                "json",
                json_text("3.14"),
            ),
            (
                "SELECT JSON_ARRAY_GET('[true, false]', 1)",
                "json",
                json_text("false"),
            ),
            (
                r#"SELECT JSON_ARRAY_GET('[{"hello":"world"}, [1,2, {"x" : 2} ]]', 1)"#,
                "json",
                json_text(r#"[1,2,{"x":2}]"#),
            ),
            (
                "SELECT JSON_ARRAY_GET('[1]', -9223372036854775807 - 1)",
                "json",
                Value::Null,
            ),
            ("SELECT JSON_ARRAY_GET('', 1)", "json", Value::Null),
            // TestJsonFunctions.testIsJsonScalar
            ("SELECT IS_JSON_SCALAR(JSON 'null')", "boolean", json!(true)),
            ("SELECT IS_JSON_SCALAR('\"str\"')", "boolean", json!(true)),
            (
                "SELECT IS_JSON_SCALAR(JSON '[1, 2, 3]')",
                "boolean",
                json!(false),
            ),
            (
                "SELECT IS_JSON_SCALAR('{\"a\": 1, \"b\": 2}')",
                "boolean",
                json!(false),
            ),
            ("SELECT IS_JSON_SCALAR(null)", "boolean", Value::Null),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT IS_JSON_SCALAR('[1')",
                "INVALID_FUNCTION_ARGUMENT: Invalid JSON value: [1",
            ),
            (
                "SELECT IS_JSON_SCALAR('1 trailing')",
                "INVALID_FUNCTION_ARGUMENT: Invalid JSON value: 1 trailing",
            ),
        ],
    );
}

#[test]
fn casts_between_json_and_scalars() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/json "Cast to JSON"
            ("SELECT CAST(NULL AS JSON)", "json", Value::Null),
            ("SELECT CAST(1 AS JSON)", "json", json_text("1")),
            (
                "SELECT CAST(9223372036854775807 AS JSON)",
                "json",
                json_text("9223372036854775807"),
            ),
            ("SELECT CAST('abc' AS JSON)", "json", json_text(r#""abc""#)),
            ("SELECT CAST(true AS JSON)", "json", json_text("true")),
            ("SELECT CAST(1.234 AS JSON)", "json", json_text("1.234")),
            // docs json_parse note: CAST(string AS JSON) makes a JSON string of any text.
            (
                r#"SELECT CAST('["a": 1, "b": 2]' AS JSON)"#,
                "json",
                json_text(r#""[\"a\": 1, \"b\": 2]""#),
            ),
            ("SELECT CAST(1.5E0 AS JSON)", "json", json_text("1.5")),
            // docs functions/json "Cast from JSON"
            (
                "SELECT CAST(JSON 'null' AS VARCHAR)",
                "varchar",
                Value::Null,
            ),
            ("SELECT CAST(JSON '1' AS INTEGER)", "integer", json!(1)),
            (
                "SELECT CAST(JSON '9223372036854775807' AS BIGINT)",
                "bigint",
                json!(9223372036854775807i64),
            ),
            (
                r#"SELECT CAST(JSON '"abc"' AS VARCHAR)"#,
                "varchar",
                json!("abc"),
            ),
            (
                "SELECT CAST(JSON 'true' AS BOOLEAN)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT CAST(JSON '1.234' AS DOUBLE)",
                "double",
                json!(1.234),
            ),
            ("SELECT CAST(JSON '42' AS VARCHAR)", "varchar", json!("42")),
            (
                "SELECT CAST(JSON 'true' AS VARCHAR)",
                "varchar",
                json!("true"),
            ),
            (r#"SELECT CAST(JSON '"12"' AS BIGINT)"#, "bigint", json!(12)),
            (
                "SELECT CAST(JSON '1.5' AS DECIMAL(3,2))",
                "decimal(3, 2)",
                json!("1.50"),
            ),
            (
                "SELECT TRY_CAST(JSON '[1]' AS BIGINT)",
                "bigint",
                Value::Null,
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // docs: JSON object and JSON array cannot be cast to VARCHAR.
            (
                r#"SELECT CAST(JSON '{"a": 1, "b": 2}' AS VARCHAR)"#,
                "INVALID_CAST_ARGUMENT: Cannot cast '{\"a\":1,\"b\":2}' to varchar",
            ),
            (
                "SELECT CAST(JSON '[1, 2, 3]' AS VARCHAR)",
                "INVALID_CAST_ARGUMENT: Cannot cast '[1,2,3]' to varchar",
            ),
            // JsonOperators.castToVarchar(x)
            (
                r#"SELECT CAST(JSON '"abcdef"' AS VARCHAR(3))"#,
                "INVALID_CAST_ARGUMENT: Cannot cast '\"abcdef\"' to varchar(3)",
            ),
            (
                "SELECT CAST(JSON '1000' AS TINYINT)",
                "INVALID_CAST_ARGUMENT: Cannot cast '1000' to tinyint",
            ),
        ],
    );
}

/// TestJsonValueFunction / TestJsonQueryFunction's input.
const INPUT: &str = r#"'["a", "b", "c"]'"#;

#[test]
fn json_value_and_json_exists() {
    let engine = engine();
    let v = |rest: &str| format!("SELECT json_value({INPUT}, {rest})");
    check_values(
        &engine,
        &[
            // TestJsonValueFunction.testJsonValue
            (&v("'lax $[1]'"), "varchar", json!("b")),
            (&v("'strict $[1]'"), "varchar", json!("b")),
            (&v("'lax $[2 to 100]'"), "varchar", json!("c")),
            (&v("'strict $[100]'"), "varchar", Value::Null),
            (&v("'strict $[100]' NULL ON ERROR"), "varchar", Value::Null),
            (
                &v("'strict $[100]' DEFAULT 'x' ON ERROR"),
                "varchar",
                json!("x"),
            ),
            (&v("'lax $[100]'"), "varchar", Value::Null),
            (
                &v("'lax $[100]' DEFAULT 'x' ON EMPTY"),
                "varchar",
                json!("x"),
            ),
            (&v("'lax $[0 to 2]'"), "varchar", Value::Null),
            (
                &v("'lax $[0 to 2]' DEFAULT 'x' ON ERROR"),
                "varchar",
                json!("x"),
            ),
            // testInputFormat: a varbinary input is UTF-8 JSON text.
            (
                "SELECT json_value(X'5B2261222C202262225D', 'lax $[1]')",
                "varchar",
                json!("b"),
            ),
            (
                "SELECT json_value(X'5B2261222C202262225D' FORMAT JSON ENCODING UTF8, 'lax $[1]')",
                "varchar",
                json!("b"),
            ),
            // testInputConversionError, testReturnedType, testPathResultNonScalar
            (
                "SELECT json_value('[...', 'lax $[1]')",
                "varchar",
                Value::Null,
            ),
            (
                "SELECT json_value('[...', 'lax $[1]' DEFAULT 'x' ON ERROR)",
                "varchar",
                json!("x"),
            ),
            (&v("'lax 1'"), "varchar", json!("1")),
            (&v("'lax true'"), "varchar", json!("true")),
            (&v("'lax null'"), "varchar", Value::Null),
            (
                &v("'lax $[1]' RETURNING char(10)"),
                "char(10)",
                json!("b         "),
            ),
            (&v("'lax 1000' RETURNING tinyint"), "tinyint", Value::Null),
            (
                &v("'lax 1000' RETURNING tinyint DEFAULT TINYINT '-1' ON ERROR"),
                "tinyint",
                json!(-1),
            ),
            (&v("'lax $'"), "varchar", Value::Null),
            (&v("'lax $' DEFAULT 'x' ON ERROR"), "varchar", json!("x")),
            // testPassingClause
            (
                &v("'lax $number + 1' PASSING 5 AS \"number\""),
                "varchar",
                json!("6"),
            ),
            (
                &v("'lax $array[0]' PASSING '[1, 2, 3]' FORMAT JSON AS \"array\""),
                "varchar",
                json!("1"),
            ),
            (
                &v("'lax $[$number]' PASSING 5 AS \"number\""),
                "varchar",
                Value::Null,
            ),
            (
                &v("'lax $var' PASSING null AS \"var\""),
                "varchar",
                Value::Null,
            ),
            // testReturnedType: the overflow is an error, ON ERROR gives the default.
            (
                &v(
                    "'lax 1000000000000 * 1000000000000' RETURNING bigint DEFAULT TINYINT '-1' ON ERROR",
                ),
                "bigint",
                json!(-1),
            ),
            // docs functions/json: 'strict $.price + $tax'-style arithmetic (without PASSING).
            (
                r#"SELECT json_value('{"price": 10, "tax": 2}', 'strict $.price + $.tax' RETURNING bigint)"#,
                "bigint",
                json!(12),
            ),
            ("SELECT json_value(null, 'lax $')", "varchar", Value::Null),
            (
                &v("'lax 1' DEFAULT null ON EMPTY DEFAULT null ON ERROR"),
                "varchar",
                json!("1"),
            ),
            // docs functions/json json_value examples (customers 101 and 102)
            (
                r#"SELECT json_value('{"comment" : "nice", "children" : [10, 13, 16]}', 'lax $.children[0]' RETURNING tinyint)"#,
                "tinyint",
                json!(10),
            ),
            (
                r#"SELECT json_value('{"comment" : "problematic", "children" : [8, 11]}', 'strict $.children[2]' DEFAULT 'err' ON ERROR)"#,
                "varchar",
                json!("err"),
            ),
            (
                r#"SELECT json_value('{"comment" : "problematic", "children" : [8, 11]}', 'lax $.children[2]' DEFAULT 'missing' ON EMPTY)"#,
                "varchar",
                json!("missing"),
            ),
            (
                r#"SELECT json_value('{"comment" : "nice"}', 'lax $.comment' RETURNING char(12))"#,
                "char(12)",
                json!("nice        "),
            ),
            // docs functions/json json_exists examples
            (
                r#"SELECT json_exists('{"comment" : "nice", "children" : [10, 13, 16]}', 'lax $.children[*]?(@ > 10)')"#,
                "boolean",
                json!(true),
            ),
            (
                r#"SELECT json_exists('{"comment" : "knows best", "children" : [2]}', 'lax $.children[*]?(@ > 10)')"#,
                "boolean",
                json!(false),
            ),
            (
                r#"SELECT json_exists('{"comment" : "nice", "children" : [10, 13, 16]}', 'strict $.children[2]?(@ > 10)' UNKNOWN ON ERROR)"#,
                "boolean",
                json!(true),
            ),
            (
                r#"SELECT json_exists('{"comment" : "problematic", "children" : [8, 11]}', 'strict $.children[2]?(@ > 10)' UNKNOWN ON ERROR)"#,
                "boolean",
                Value::Null,
            ),
            // AbstractTestJsonExistsFunction: the default is FALSE ON ERROR.
            (
                "SELECT json_exists('[...', 'lax $')",
                "boolean",
                json!(false),
            ),
            (
                "SELECT json_exists('[...', 'lax $' TRUE ON ERROR)",
                "boolean",
                json!(true),
            ),
            ("SELECT json_exists(null, 'lax $')", "boolean", Value::Null),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                &v("'strict $[100]' ERROR ON ERROR"),
                "PATH_EVALUATION_ERROR: path evaluation failed: structural error: invalid array subscript: [100, 100] for array of size 3",
            ),
            (
                &v("'lax $[100]' ERROR ON EMPTY"),
                "JSON_VALUE_RESULT_ERROR: cannot extract SQL scalar from JSON: JSON path found no items",
            ),
            (
                &v("'lax $[0 to 2]' ERROR ON ERROR"),
                "JSON_VALUE_RESULT_ERROR: cannot extract SQL scalar from JSON: JSON path found multiple items",
            ),
            (
                &v("'lax $' ERROR ON ERROR"),
                "JSON_VALUE_RESULT_ERROR: cannot extract SQL scalar from JSON: JSON path found an item that cannot be converted to an SQL value",
            ),
            (
                "SELECT json_value('[...', 'lax $[1]' ERROR ON ERROR)",
                "JSON_INPUT_CONVERSION_ERROR: conversion to JSON failed: ",
            ),
            // testIncorrectPath
            (
                &v("'certainly not a valid path'"),
                "SYNTAX_ERROR: line 1:39: mismatched input 'certainly' expecting {'lax', 'strict'}",
            ),
            // testInputFormat
            (
                &format!("SELECT json_value({INPUT} FORMAT JSON ENCODING UTF8, 'lax $[1]')"),
                "TYPE_MISMATCH: line 1:19: Cannot read input of type varchar(15) as JSON using formatting JSON ENCODING UTF8",
            ),
            // Beyond the stand-in: refused, not answered differently.
            // testPassingClause: unquoted names are uppercased, so the path does not see it.
            (
                &v("'lax $number + 1' PASSING 2 AS number"),
                "INVALID_PATH: line 1:38: no value passed for parameter number. Try quoting \"number\" in the PASSING clause to match case",
            ),
            (&v("'lax $.keyvalue()'"), "NOT_SUPPORTED: "),
            (
                "SELECT json_exists('[1]', 'strict $[5]' ERROR ON ERROR)",
                "PATH_EVALUATION_ERROR: ",
            ),
        ],
    );
}

#[test]
fn json_query() {
    let engine = engine();
    let q = |rest: &str| format!("SELECT json_query({INPUT}, {rest})");
    let object = r#"'{"key" : 1}'"#;
    check_values(
        &engine,
        &[
            // TestJsonQueryFunction.testJsonQuery
            (&q("'lax $'"), "varchar", json!(r#"["a","b","c"]"#)),
            (&q("'strict $'"), "varchar", json!(r#"["a","b","c"]"#)),
            (&q("'strict $[100]'"), "varchar", Value::Null),
            (
                &q("'strict $[100]' EMPTY ARRAY ON ERROR"),
                "varchar",
                json!("[]"),
            ),
            (
                &q("'strict $[100]' EMPTY OBJECT ON ERROR"),
                "varchar",
                json!("{}"),
            ),
            (&q("'lax $[100]'"), "varchar", Value::Null),
            (
                &q("'lax $[100]' EMPTY ARRAY ON EMPTY"),
                "varchar",
                json!("[]"),
            ),
            (&q("'lax $[0 to 2]'"), "varchar", Value::Null),
            (
                &q("'lax $[0 to 2]' EMPTY OBJECT ON ERROR"),
                "varchar",
                json!("{}"),
            ),
            // testInputFormat, testOutput
            (&q("'lax $[1]'"), "varchar", json!(r#""b""#)),
            (
                &format!("SELECT json_query({INPUT} FORMAT JSON, 'lax $[1]')"),
                "varchar",
                json!(r#""b""#),
            ),
            (&q("'lax 1'"), "varchar", json!("1")),
            (
                &q("'lax true' RETURNING varchar FORMAT JSON"),
                "varchar",
                json!("true"),
            ),
            (
                &q("'lax null' RETURNING varchar FORMAT JSON"),
                "varchar",
                json!("null"),
            ),
            (
                &q("'lax $[1]' RETURNING char(10)"),
                "char(10)",
                json!("\"b\"       "),
            ),
            (
                &q("'lax \"text too long\"' RETURNING char(10)"),
                "char(10)",
                json!("\"text too "),
            ),
            // testWrapperBehavior
            (&q("'lax $[0 to 1]'"), "varchar", Value::Null),
            (
                &q("'lax $[0 to 1]' WITH CONDITIONAL ARRAY WRAPPER"),
                "varchar",
                json!(r#"["a","b"]"#),
            ),
            (
                &q("'lax $[0]' WITH CONDITIONAL ARRAY WRAPPER"),
                "varchar",
                json!(r#"["a"]"#),
            ),
            (
                &q("'lax $' WITH CONDITIONAL ARRAY WRAPPER"),
                "varchar",
                json!(r#"["a","b","c"]"#),
            ),
            (
                &format!("SELECT json_query({object}, 'lax $' WITH CONDITIONAL ARRAY WRAPPER)"),
                "varchar",
                json!(r#"{"key":1}"#),
            ),
            (
                &q("'lax $[0 to 1]' WITH UNCONDITIONAL ARRAY WRAPPER"),
                "varchar",
                json!(r#"["a","b"]"#),
            ),
            (
                &q("'lax $' WITH UNCONDITIONAL ARRAY WRAPPER"),
                "varchar",
                json!(r#"[["a","b","c"]]"#),
            ),
            (
                &format!("SELECT json_query({object}, 'lax $' WITH ARRAY WRAPPER)"),
                "varchar",
                json!(r#"[{"key":1}]"#),
            ),
            // testQuotesBehavior
            (
                &q("'lax \"some scalar text value\"'"),
                "varchar",
                json!(r#""some scalar text value""#),
            ),
            (
                &q("'lax \"some scalar text value\"' KEEP QUOTES ON SCALAR STRING"),
                "varchar",
                json!(r#""some scalar text value""#),
            ),
            (
                &q("'lax \"some scalar text value\"' OMIT QUOTES ON SCALAR STRING"),
                "varchar",
                json!("some scalar text value"),
            ),
            (
                &q("'lax $' OMIT QUOTES ON SCALAR STRING"),
                "varchar",
                json!(r#"["a","b","c"]"#),
            ),
            ("SELECT json_query(null, 'lax $')", "varchar", Value::Null),
            // testDescendantMemberAccessor
            (
                r#"SELECT json_query('{"a" : {"b" : 1}, "c" :  [true, {"c" : {"c" : null}}]}', 'lax $..c' WITH ARRAY WRAPPER)"#,
                "varchar",
                json!(r#"[[true,{"c":{"c":null}}],{"c":null},null]"#),
            ),
            // docs functions/json json_query examples
            (
                r#"SELECT json_query('{"comment" : "nice", "children" : [10, 13, 16]}', 'lax $.children')"#,
                "varchar",
                json!("[10,13,16]"),
            ),
            (
                r#"SELECT json_query('{"comment" : "knows best", "children" : [2]}', 'lax $.children[*]' WITHOUT ARRAY WRAPPER NULL ON ERROR)"#,
                "varchar",
                json!("2"),
            ),
            (
                r#"SELECT json_query('{"comment" : "nice", "children" : [10, 13, 16]}', 'lax $.children[last]' WITH ARRAY WRAPPER)"#,
                "varchar",
                json!("[16]"),
            ),
            (
                r#"SELECT json_query('{"comment" : "nice", "children" : [10, 13, 16]}', 'strict $.children[*]?(@ > 12)' WITH ARRAY WRAPPER EMPTY ARRAY ON EMPTY)"#,
                "varchar",
                json!("[13,16]"),
            ),
            (
                r#"SELECT json_query('{"comment" : "problematic", "children" : [8, 11]}', 'strict $.children[*]?(@ > 12)' WITH ARRAY WRAPPER EMPTY ARRAY ON EMPTY)"#,
                "varchar",
                json!("[]"),
            ),
            (
                r#"SELECT json_query('{"comment" : "nice"}', 'strict $.comment' OMIT QUOTES)"#,
                "varchar",
                json!("nice"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                &q("'strict $[100]' ERROR ON ERROR"),
                "PATH_EVALUATION_ERROR: path evaluation failed: structural error: invalid array subscript: [100, 100] for array of size 3",
            ),
            (
                &q("'lax $[100]' ERROR ON EMPTY"),
                "JSON_OUTPUT_CONVERSION_ERROR: conversion from JSON failed: JSON path found no items",
            ),
            (
                &q("'lax $[0 to 2]' ERROR ON ERROR"),
                "JSON_OUTPUT_CONVERSION_ERROR: conversion from JSON failed: JSON path found multiple items",
            ),
            (
                "SELECT json_query('[...', 'lax $[1]' ERROR ON ERROR)",
                "JSON_INPUT_CONVERSION_ERROR: conversion to JSON failed: ",
            ),
            (
                &q("'lax 1' RETURNING tinyint"),
                "TYPE_MISMATCH: line 1:8: Cannot output JSON value as tinyint using formatting JSON",
            ),
        ],
    );
}

#[test]
fn json_array_and_json_object() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/json json_array
            (
                "SELECT json_array(true, 12e-1, 'text')",
                "varchar",
                json!(r#"[true,1.2,"text"]"#),
            ),
            (
                r#"SELECT json_array('[  "text"  ] ' FORMAT JSON)"#,
                "varchar",
                json!(r#"[["text"]]"#),
            ),
            (
                r#"SELECT json_array(json_query('{"key" : [  "value"  ]}', 'lax $.key') FORMAT JSON)"#,
                "varchar",
                json!(r#"[["value"]]"#),
            ),
            (
                "SELECT json_array(DATE '2001-01-31')",
                "varchar",
                json!(r#"["2001-01-31"]"#),
            ),
            ("SELECT json_array()", "varchar", json!("[]")),
            (
                "SELECT json_array(true, null, 1)",
                "varchar",
                json!("[true,1]"),
            ),
            (
                "SELECT json_array(true, null, 1 ABSENT ON NULL)",
                "varchar",
                json!("[true,1]"),
            ),
            (
                "SELECT json_array(true, null, 1 NULL ON NULL)",
                "varchar",
                json!("[true,null,1]"),
            ),
            (
                "SELECT json_array(true, 1 RETURNING VARCHAR(100))",
                "varchar(100)",
                json!("[true,1]"),
            ),
            // docs functions/json json_object
            (
                "SELECT json_object('key1' : 1, 'key2' : true)",
                "varchar",
                json!(r#"{"key1":1,"key2":true}"#),
            ),
            (
                "SELECT json_object(KEY 'key1' VALUE 1, KEY 'key2' VALUE true)",
                "varchar",
                json!(r#"{"key1":1,"key2":true}"#),
            ),
            (
                "SELECT json_object('key1' VALUE 1, 'key2' VALUE true)",
                "varchar",
                json!(r#"{"key1":1,"key2":true}"#),
            ),
            (
                "SELECT json_object('x' : true, 'y' : 12e-1, 'z' : 'text')",
                "varchar",
                json!(r#"{"x":true,"y":1.2,"z":"text"}"#),
            ),
            (
                r#"SELECT json_object('x' : '[  "text"  ] ' FORMAT JSON)"#,
                "varchar",
                json!(r#"{"x":["text"]}"#),
            ),
            (
                "SELECT json_object('x' : DATE '2001-01-31')",
                "varchar",
                json!(r#"{"x":"2001-01-31"}"#),
            ),
            ("SELECT json_object()", "varchar", json!("{}")),
            (
                "SELECT json_object('x' : null, 'y' : 1)",
                "varchar",
                json!(r#"{"x":null,"y":1}"#),
            ),
            (
                "SELECT json_object('x' : null, 'y' : 1 NULL ON NULL)",
                "varchar",
                json!(r#"{"x":null,"y":1}"#),
            ),
            (
                "SELECT json_object('x' : null, 'y' : 1 ABSENT ON NULL)",
                "varchar",
                json!(r#"{"y":1}"#),
            ),
            (
                "SELECT json_object('x' : 1 RETURNING VARCHAR(100))",
                "varchar(100)",
                json!(r#"{"x":1}"#),
            ),
            (
                "SELECT json_object('name' : name) FROM tpch.tiny.nation WHERE nationkey = 1",
                "varchar",
                json!(r#"{"name":"ARGENTINA"}"#),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT json_object('x' : null, 'x' : 1 WITH UNIQUE KEYS)",
                "INVALID_FUNCTION_ARGUMENT: duplicate key passed to JSON_OBJECT function",
            ),
            // Trino 476 refuses a duplicate key WITHOUT UNIQUE KEYS too, when it serializes.
            (
                "SELECT json_object('x' : null, 'x' : 1)",
                "NOT_SUPPORTED: cannot construct a JSON object with duplicate key",
            ),
            (
                "SELECT json_array(ARRAY[1, 2])",
                "NOT_SUPPORTED: line 1:8: Unsupported type of value passed to JSON_ARRAY function: array(integer)",
            ),
            (
                "SELECT json_object(CAST(null AS varchar) : 1)",
                "INVALID_FUNCTION_ARGUMENT: null value passed for JSON object key to JSON_OBJECT function",
            ),
        ],
    );
}

#[test]
fn casts_between_json_and_arrays_maps_rows() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/json "Cast to JSON"
            (
                "SELECT CAST(ARRAY[1, 23, 456] AS JSON)",
                "json",
                json_text("[1,23,456]"),
            ),
            (
                "SELECT CAST(ARRAY[1, NULL, 456] AS JSON)",
                "json",
                json_text("[1,null,456]"),
            ),
            (
                "SELECT CAST(ARRAY[ARRAY[1, 23], ARRAY[456]] AS JSON)",
                "json",
                json_text("[[1,23],[456]]"),
            ),
            (
                "SELECT CAST(CAST(ROW(123, 'abc', true) AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN)) AS JSON)",
                "json",
                json_text(r#"{"v1":123,"v2":"abc","v3":true}"#),
            ),
            (
                "SELECT CAST(ARRAY[1.5E0, 2] AS JSON)",
                "json",
                json_text("[1.5,2.0]"),
            ),
            (
                "SELECT CAST(ARRAY[JSON '{\"b\": 1}', NULL] AS JSON)",
                "json",
                json_text(r#"[{"b":1},null]"#),
            ),
            // docs functions/json "Cast from JSON"
            (
                "SELECT CAST(JSON '[1,23,456]' AS ARRAY(INTEGER))",
                "array(integer)",
                json!([1, 23, 456]),
            ),
            (
                "SELECT CAST(JSON '[1,null,456]' AS ARRAY(INTEGER))",
                "array(integer)",
                json!([1, null, 456]),
            ),
            (
                "SELECT CAST(JSON '[[1,23],[456]]' AS ARRAY(ARRAY(INTEGER)))",
                "array(array(integer))",
                json!([[1, 23], [456]]),
            ),
            (
                r#"SELECT CAST(JSON '{"k1":1,"k2":23,"k3":456}' AS MAP(VARCHAR, INTEGER))"#,
                "map(varchar, integer)",
                json!({"k1": 1, "k2": 23, "k3": 456}),
            ),
            (
                r#"SELECT CAST(JSON '{"v1":123,"v2":"abc","v3":true}' AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN))"#,
                "row(v1 bigint, v2 varchar, v3 boolean)",
                json!([123, "abc", true]),
            ),
            (
                r#"SELECT CAST(JSON '[123,"abc",true]' AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN))"#,
                "row(v1 bigint, v2 varchar, v3 boolean)",
                json!([123, "abc", true]),
            ),
            // Partial casting (docs): json elements keep their JSON text.
            (
                "SELECT CAST(JSON '[[1, 23], 456]' AS ARRAY(JSON))",
                "array(json)",
                json!(["[1,23]", "456"]),
            ),
            (
                r#"SELECT CAST(JSON '{"k1": [1, 23], "k2": 456}' AS MAP(VARCHAR, JSON))"#,
                "map(varchar, json)",
                json!({"k1": "[1,23]", "k2": "456"}),
            ),
            (
                "SELECT CAST(JSON '[null]' AS ARRAY(JSON))",
                "array(json)",
                json!(["null"]),
            ),
            (
                "SELECT CAST(json_parse('[1, 2, 3]') AS ARRAY(BIGINT))[2]",
                "bigint",
                json!(2),
            ),
            (
                "SELECT TRY_CAST(JSON '{}' AS ARRAY(BIGINT))",
                "array(bigint)",
                Value::Null,
            ),
            // docs functions/json "Cast to JSON"
            (
                "SELECT CAST(MAP(ARRAY['k1', 'k2', 'k3'], ARRAY[1, 23, 456]) AS JSON)",
                "json",
                json_text(r#"{"k1":1,"k2":23,"k3":456}"#),
            ),
            // MapToJsonCast writes the keys in order (a TreeMap), as json_parse does.
            (
                r#"SELECT CAST(CAST(JSON '{"b": 1, "a": 2}' AS MAP(VARCHAR, INTEGER)) AS JSON)"#,
                "json",
                json_text(r#"{"a":2,"b":1}"#),
            ),
            (
                r#"SELECT CAST(CAST(JSON '{"1": 1.5}' AS MAP(BIGINT, DOUBLE)) AS JSON)"#,
                "json",
                json_text(r#"{"1":1.5}"#),
            ),
            (
                "SELECT CAST(CAST(ARRAY['a', 'b'] AS JSON) AS ARRAY(VARCHAR))",
                "array(varchar)",
                json!(["a", "b"]),
            ),
            // Trino 476 casts a date to json as its text (JsonOperators over varchar), alone
            // or as an element.
            (
                "SELECT CAST(DATE '2001-01-31' AS JSON)",
                "json",
                json!("\"2001-01-31\""),
            ),
            (
                "SELECT CAST(ARRAY[DATE '2001-01-31'] AS JSON)",
                "json",
                json!("[\"2001-01-31\"]"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT CAST(JSON '{\"a\": 1}' AS ARRAY(BIGINT))",
                "INVALID_CAST_ARGUMENT: Cannot cast to array(bigint). Expected a json array, but got {",
            ),
            (
                "SELECT CAST(JSON '[\"x\"]' AS ARRAY(BIGINT))",
                "INVALID_CAST_ARGUMENT: Cannot cast to array(bigint). Cannot cast 'x' to BIGINT",
            ),
        ],
    );
}

/// Trino 476's answers (asked of the real server) for the SQL/JSON functions' nesting,
/// RETURNING types and json inputs (docs functions/json).
#[test]
fn sql_json_nesting_returning_and_json_values() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // A JSON_ARRAY / JSON_OBJECT / JSON_QUERY value embeds as JSON.
            (
                "SELECT json_object('o': json_object('i': json_array(1)))",
                "varchar",
                json!(r#"{"o":{"i":[1]}}"#),
            ),
            (
                "SELECT json_array(json_array(1, 2), json_array())",
                "varchar",
                json!("[[1,2],[]]"),
            ),
            (
                "SELECT json_array(json_query('[1]', 'lax $'))",
                "varchar",
                json!("[[1]]"),
            ),
            // Any other varchar, a cast of one of them too, is a JSON string.
            (
                "SELECT json_array(CAST(json_array(1) AS varchar))",
                "varchar",
                json!(r#"["[1]"]"#),
            ),
            (
                "SELECT json_query(json_object('a': json_array(1, 2)), 'lax $.a[1]')",
                "varchar",
                json!("2"),
            ),
            // RETURNING varbinary: the JSON text's UTF-8 bytes (base64 in the protocol).
            (
                "SELECT json_array('x' RETURNING varbinary)",
                "varbinary",
                json!("WyJ4Il0="),
            ),
            (
                "SELECT json_query('[1, 2]', 'lax $' RETURNING varbinary)",
                "varbinary",
                json!("WzEsMl0="),
            ),
            (
                r#"SELECT json_value('{"a": "2024-02-29"}', 'lax $.a' RETURNING date)"#,
                "date",
                json!("2024-02-29"),
            ),
            (
                r#"SELECT json_value('{"a": "x"}', 'lax $.a' RETURNING date)"#,
                "date",
                json!(null),
            ),
            // A json value passes to json_array as its cast to varchar.
            (
                r#"SELECT json_array(JSON '"a"')"#,
                "varchar",
                json!(r#"["a"]"#),
            ),
            ("SELECT json_array(JSON '1')", "varchar", json!(r#"["1"]"#)),
            ("SELECT json_array(JSON 'null')", "varchar", json!("[]")),
            // json_array_get keeps a number element's text.
            (
                "SELECT json_array_get('[1.50, 2]', 0)",
                "json",
                json!("1.50"),
            ),
            (
                "SELECT json_array_get('[[1.50]]', 0)",
                "json",
                json!("[1.5]"),
            ),
            // json = json compares canonical texts.
            (
                "SELECT JSON '[1, 2]' = JSON '[1,2]'",
                "boolean",
                json!(true),
            ),
            ("SELECT JSON '1.0' = JSON '1'", "boolean", json!(false)),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                r#"SELECT json_value('{"a": "abc"}', 'lax $.a' RETURNING integer ERROR ON ERROR)"#,
                "JSON_VALUE_RESULT_ERROR: cannot extract SQL scalar from JSON: Cannot cast value of type varchar",
            ),
            (
                r#"SELECT json_value('{"a": 1}', 'lax $.a' RETURNING array(integer))"#,
                "TYPE_MISMATCH: line 1:8: Invalid return type of function JSON_VALUE: array(integer)",
            ),
            (
                r#"SELECT json_value(JSON '{"a": {"b": 2.5}}', 'strict $.a.b' RETURNING double)"#,
                "TYPE_MISMATCH",
            ),
            (
                r#"SELECT json_array(JSON '{"b": 1}', 1.50)"#,
                "INVALID_CAST_ARGUMENT",
            ),
        ],
    );
}

/// `FORMAT JSON ENCODING UTF8 | UTF16 | UTF32` (docs functions/json.md, json_array and
/// json_object; SqlBase.g4 `jsonRepresentation`): a varbinary input decoded from the
/// encoding's little-endian code units, a varbinary output encoded in them; an encoding on
/// anything else is Trino's TYPE_MISMATCH. Values checked against Trino 476.
#[test]
fn json_text_in_utf16_and_utf32() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT json_array(true, 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF16)",
                "varbinary",
                json!("WwB0AHIAdQBlACwAMQBdAA=="),
            ),
            (
                "SELECT json_object('x' : 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF32)",
                "varbinary",
                json!("ewAAACIAAAB4AAAAIgAAADoAAAAxAAAAfQAAAA=="),
            ),
            (
                "SELECT json_array('[ \"text\" ] ' FORMAT JSON, X'5B0035005D00' FORMAT JSON ENCODING UTF16)",
                "varchar",
                json!("[[\"text\"],[5]]"),
            ),
            (
                "SELECT json_value(X'5B0031005D00' FORMAT JSON ENCODING UTF16, 'lax $[0]')",
                "varchar",
                json!("1"),
            ),
            (
                "SELECT json_query(X'5B000000310000005D000000' FORMAT JSON ENCODING UTF32, 'lax $')",
                "varchar",
                json!("[1]"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT json_array(1 RETURNING varchar FORMAT JSON ENCODING UTF16)",
                "TYPE_MISMATCH: line 1:8: Cannot output JSON value as varchar using formatting JSON ENCODING UTF16",
            ),
            (
                "SELECT json_array('[1]' FORMAT JSON ENCODING UTF16)",
                "TYPE_MISMATCH: line 1:19: Cannot read input of type varchar(3) as JSON using formatting JSON ENCODING UTF16",
            ),
            (
                "SELECT json_array(X'00D8' FORMAT JSON ENCODING UTF16)",
                "JSON_INPUT_CONVERSION_ERROR",
            ),
        ],
    );
}

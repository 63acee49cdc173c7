//! Where Trino refuses a statement in its parser or analyzer, with its error name, message
//! and place; and the literal and special-form typings those checks sit beside. Every case
//! is the real Trino 476's answer (asked with `trino-q`); the rules are SqlBase.g4's, the
//! reserved words docs language/reserved.md's, and the special forms' those of TestSqlParser,
//! TestAnalyzer and docs functions/conditional.

use serde_json::{Value, json};

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn the_grammar_refuses_what_sqlparser_takes() {
    check_errors(
        &engine(),
        &[
            // docs language/reserved: a reserved word is no alias unless quoted.
            (
                "SELECT 1 AS select",
                "SYNTAX_ERROR: line 1:13: mismatched input 'select'. Expecting: <identifier>",
            ),
            (
                "SELECT n.name FROM nation AS from",
                "SYNTAX_ERROR: line 1:30: mismatched input 'from'. Expecting: <identifier>",
            ),
            (
                "SELECT 1 AS \"\", 2",
                "SYNTAX_ERROR: line 1:13: Zero-length delimited identifier not allowed",
            ),
            (
                "SELECT 1e",
                "SYNTAX_ERROR: line 1:8: identifiers must not start with a digit",
            ),
            // SqlBase.g4 `predicated`: one predicate per operand.
            (
                "SELECT 1 < 2 = true",
                "SYNTAX_ERROR: line 1:14: mismatched input '='",
            ),
            (
                "SELECT 1 = 1 IS NULL",
                "SYNTAX_ERROR: line 1:14: mismatched input 'IS'",
            ),
            (
                "SELECT count(DISTINCT *) FROM nation",
                "SYNTAX_ERROR: line 1:23: mismatched input '*'. Expecting: <expression>",
            ),
            (
                "WITH x AS (SELECT 1) DELETE FROM nation",
                "SYNTAX_ERROR: line 1:22: mismatched input 'DELETE'",
            ),
            ("call", "SYNTAX_ERROR: line 1:5: mismatched input '<EOF>'"),
            // AbstractTestQueries: ORDER BY / GROUP BY positions, negative ones included.
            (
                "SELECT name FROM nation ORDER BY -1",
                "INVALID_COLUMN_REFERENCE: line 1:34: ORDER BY position -1 is not in select list",
            ),
            (
                "SELECT name FROM nation GROUP BY -1",
                "INVALID_COLUMN_REFERENCE: line 1:34: GROUP BY position -1 is not in select list",
            ),
        ],
    );
}

#[test]
fn special_forms_check_their_arguments() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT coalesce(1)",
                "SYNTAX_ERROR: line 1:8: The 'coalesce' function must have at least two arguments",
            ),
            (
                "SELECT coalesce(2, 'b', 3)",
                "TYPE_MISMATCH: line 1:20: All COALESCE operands must be the same type or \
                 coercible to a common type. Cannot find common type between integer and \
                 varchar(1), all types (without duplicates): [integer, varchar(1)]",
            ),
            (
                "SELECT if(1, 'a', 'b')",
                "TYPE_MISMATCH: line 1:11: IF condition must evaluate to a boolean (actual: integer)",
            ),
            (
                "SELECT if(true, 1, 'b')",
                "TYPE_MISMATCH: line 1:8: Result types for IF must be the same: integer vs varchar(1)",
            ),
            (
                "SELECT if(true)",
                "SYNTAX_ERROR: line 1:8: Invalid number of arguments for 'if' function",
            ),
            (
                "SELECT nullif(1, 'a')",
                "TYPE_MISMATCH: line 1:8: Types are not comparable with NULLIF: integer vs varchar(1)",
            ),
            (
                "SELECT concat()",
                "AMBIGUOUS_FUNCTION_CALL: line 1:8: Could not choose a best candidate operator",
            ),
            (
                "SELECT substr('abc')",
                "FUNCTION_NOT_FOUND: line 1:15: Unexpected parameters (varchar(3)) for function substr",
            ),
            // FailureFunction: the message is the error's, with no position; try() keeps it.
            (
                "SELECT fail('custom message')",
                "GENERIC_USER_ERROR: custom message",
            ),
            ("SELECT try(fail('x'))", "GENERIC_USER_ERROR: x"),
            ("SELECT fail(3, 'm')", "USER_CANCELED: m"),
        ],
    );
    check_values(
        &engine,
        &[
            // NullIfExpression compares in the common type; NaN equals nothing.
            ("SELECT nullif(1, 1.0)", "integer", Value::Null),
            ("SELECT nullif(2, 1.5)", "integer", json!(2)),
            ("SELECT nullif(nan(), nan())", "double", json!("NaN")),
            ("SELECT fail(NULL)", "unknown", Value::Null),
        ],
    );
}

#[test]
fn literals_types_and_references_as_trino_checks_them() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT UUID 'not-a-uuid'",
                "INVALID_LITERAL: line 1:8: 'not-a-uuid' is not a valid UUID literal",
            ),
            (
                "SELECT UUID '12151fd2758611e98f9e2a86e4085a59'",
                "INVALID_LITERAL: line 1:8: '12151fd2758611e98f9e2a86e4085a59' is not a valid UUID literal",
            ),
            (
                "SELECT CAST(UUID '00112233-4455-6677-8899-aabbccddeeff' AS varchar(10))",
                "TYPE_MISMATCH: line 1:8: Cannot cast uuid to varchar(10)",
            ),
            (
                "SELECT JSON 'INVALID'",
                "INVALID_LITERAL: line 1:8: 'INVALID' is not a valid JSON literal",
            ),
            (
                "SELECT DECIMAL ' 7.1 '",
                "INVALID_LITERAL: line 1:8: ' 7.1 ' is not a valid DECIMAL literal",
            ),
            (
                "SELECT CAST(1 AS text)",
                "TYPE_MISMATCH: line 1:8: Unknown type: text",
            ),
            (
                "SELECT CAST(1 AS array(foo))",
                "TYPE_MISMATCH: line 1:8: Unknown type: array(foo)",
            ),
            (
                "SELECT ROW(1, 'a').field0",
                "INVALID_COLUMN_REFERENCE: line 1:8: Column reference 'field0' is invalid",
            ),
            (
                "SELECT CAST(ROW(1, 2) AS row(a integer, b integer)).c",
                "INVALID_COLUMN_REFERENCE: line 1:8: Column reference 'c' is invalid",
            ),
            (
                "SELECT r.x FROM (SELECT ROW(1, 2) AS r)",
                "INVALID_COLUMN_REFERENCE: line 1:8: Column reference 'r.x' is invalid",
            ),
            (
                "SELECT * FROM UNNEST('abc')",
                "INVALID_FUNCTION_ARGUMENT: Cannot unnest type: varchar(3)",
            ),
            (
                "SELECT x.a FROM (VALUES CAST(ROW(1, 'p') AS row(a integer, b varchar))) t(x)",
                "MISMATCHED_COLUMN_ALIASES",
            ),
        ],
    );
    check_values(
        &engine,
        &[
            ("SELECT CHAR 'ab'", "char(2)", json!("ab")),
            ("SELECT VARCHAR 'xyz'", "varchar", json!("xyz")),
            ("SELECT NULL * 2.5", "decimal(3, 1)", Value::Null),
            (
                "SELECT typeof(NULL + 12.345)",
                "varchar",
                json!("decimal(6,3)"),
            ),
            ("SELECT 1.5e", "decimal(2, 1)", json!("1.5")),
        ],
    );
}

/// An operator's or predicate's type error is placed at its node as Trino's parser places it —
/// the operator (`=`, `+`, the sign), the first keyword of `[NOT] BETWEEN`, `IS [NOT]
/// DISTINCT FROM` — and worded as Trino's ExpressionAnalyzer words it (`<>` resolves `=`, `>`
/// resolves `<`). Every expected error here is Trino 476's.
#[test]
fn operator_type_errors_are_placed_and_worded_as_trinos() {
    check_errors(
        &engine(),
        &[
            (
                "SELECT 'a' + 1",
                "TYPE_MISMATCH: line 1:12: Cannot apply operator: varchar(1) + integer",
            ),
            (
                "SELECT 1 + 2 * 'x'",
                "TYPE_MISMATCH: line 1:14: Cannot apply operator: integer * varchar(1)",
            ),
            (
                "SELECT 2 - (3 + 'x')",
                "TYPE_MISMATCH: line 1:15: Cannot apply operator: integer + varchar(1)",
            ),
            (
                "SELECT 1\n  = 'x'",
                "TYPE_MISMATCH: line 2:3: Cannot apply operator: integer = varchar(1)",
            ),
            (
                "SELECT 1 <> 'x'",
                "TYPE_MISMATCH: line 1:10: Cannot apply operator: integer = varchar(1)",
            ),
            (
                "SELECT 1 > 'x'",
                "TYPE_MISMATCH: line 1:10: Cannot apply operator: integer < varchar(1)",
            ),
            (
                "SELECT 1 >= 'x'",
                "TYPE_MISMATCH: line 1:10: Cannot apply operator: integer <= varchar(1)",
            ),
            (
                "SELECT 1 NOT BETWEEN 2 AND 'a'",
                "TYPE_MISMATCH: line 1:10: Cannot check if integer is BETWEEN integer and varchar(1)",
            ),
            (
                "SELECT (1 + 1) BETWEEN 'a' AND 'b'",
                "TYPE_MISMATCH: line 1:16: Cannot check if integer is BETWEEN varchar(1) and varchar(1)",
            ),
            (
                "SELECT 1 IS NOT DISTINCT FROM ARRAY[1]",
                "TYPE_MISMATCH: line 1:10: Cannot check if integer is identical to array(integer)",
            ),
            (
                "SELECT 1 = -'a'",
                "TYPE_MISMATCH: line 1:12: Cannot negate varchar(1)",
            ),
            (
                "SELECT 1 AND true",
                "TYPE_MISMATCH: line 1:8: Logical expression term must evaluate to a boolean (actual: integer)",
            ),
            (
                "SELECT NOT 1",
                "TYPE_MISMATCH: line 1:12: Value of logical NOT expression must evaluate to a boolean (actual: integer)",
            ),
            (
                "SELECT CASE WHEN 1 THEN 2 END",
                "TYPE_MISMATCH: line 1:18: CASE WHEN clause must evaluate to a boolean (actual: integer)",
            ),
            (
                "SELECT 1 LIKE 'a'",
                "TYPE_MISMATCH: line 1:8: Left side of LIKE expression must evaluate to a varchar (actual: integer)",
            ),
            (
                "SELECT 'a' LIKE 1",
                "TYPE_MISMATCH: line 1:17: Pattern for LIKE expression must evaluate to a varchar (actual: integer)",
            ),
            (
                "SELECT 1 IN (2, 'a', DATE '2020-01-01', 'b')",
                "TYPE_MISMATCH: line 1:17: IN value and list items must be the same type or coercible to a common type. Cannot find common type between integer and varchar(1), all types (without duplicates): [integer, varchar(1), date]",
            ),
            (
                "SELECT 1 = ANY (VALUES 'a')",
                "TYPE_MISMATCH: line 1:10: Value expression and result of subquery must be of the same type: row(integer) vs row(varchar(1))",
            ),
        ],
    );
}

/// An expression neither grouped nor aggregated is named whole, as Trino's ExpressionFormatter
/// prints it (`(a + b)`, `concat(a, b)` for `||`, `DECIMAL '2.5'`, `(CASE … END)`), at its
/// node: the operator, IS / IN / LIKE / BETWEEN, the sign, NOT or CAST (AggregationAnalyzer).
/// Every expected error here is Trino 476's.
#[test]
fn an_expression_not_aggregated_is_named_whole_at_its_node() {
    let not_aggregate = |at: &str, text: &str| {
        format!(
            "EXPRESSION_NOT_AGGREGATE: line 1:{at}: '{text}' must be an aggregate expression or appear in GROUP BY clause"
        )
    };
    let cases = [
        (
            "SELECT upper(name) FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("8", "upper(name)"),
        ),
        (
            "SELECT regionkey + nationkey FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("18", "(regionkey + nationkey)"),
        ),
        (
            "SELECT name || 'x' || comment FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("20", "concat(concat(name, 'x'), comment)"),
        ),
        (
            "SELECT CASE WHEN regionkey = 1 THEN name END FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("8", "(CASE WHEN (regionkey = 1) THEN name END)"),
        ),
        (
            "SELECT nationkey * 2.5 FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("18", "(nationkey * DECIMAL '2.5')"),
        ),
        (
            "SELECT name IN ('a', 'b') FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("13", "(name IN ('a', 'b'))"),
        ),
        (
            "SELECT nationkey BETWEEN 1 AND 2 FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("18", "(nationkey BETWEEN 1 AND 2)"),
        ),
        (
            "SELECT -nationkey FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("8", "-(nationkey)"),
        ),
        (
            "SELECT NOT name LIKE 'x' FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("8", "(NOT (name LIKE 'x'))"),
        ),
        (
            "SELECT CAST(name AS varchar(3)) FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("8", "CAST(name AS varchar(3))"),
        ),
        (
            "SELECT count(*) FROM tpch.tiny.nation GROUP BY regionkey HAVING nationkey > 1",
            not_aggregate("75", "(nationkey > 1)"),
        ),
        (
            "SELECT name FROM tpch.tiny.nation GROUP BY regionkey",
            not_aggregate("8", "name"),
        ),
    ];
    let cases: Vec<(&str, &str)> = cases.iter().map(|(sql, e)| (*sql, e.as_str())).collect();
    check_errors(&engine(), &cases);
}

//! Lambda expressions and the array functions that take them. Each case is an example from
//! trinodb/trino docs/src/main/sphinx/functions/lambda.md ("Lambda expressions") or
//! functions/array.md (transform, filter, reduce, any_match, all_match, none_match,
//! zip_with), with the types Trino's signatures give; errors as Trino's FunctionResolver
//! reports them.

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn transform_applies_the_lambda_to_each_element() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/array transform.
            (
                "SELECT transform(ARRAY[], x -> x + 1)",
                "array(integer)",
                json!([]),
            ),
            (
                "SELECT transform(ARRAY[5, 6], x -> x + 1)",
                "array(integer)",
                json!([6, 7]),
            ),
            (
                "SELECT transform(ARRAY[5, NULL, 6], x -> coalesce(x, 0) + 1)",
                "array(integer)",
                json!([6, 1, 7]),
            ),
            (
                "SELECT transform(ARRAY['x', 'abc', 'z'], x -> x || '0')",
                "array(varchar)",
                json!(["x0", "abc0", "z0"]),
            ),
            (
                "SELECT transform(ARRAY[ARRAY[1, NULL, 2], ARRAY[3, NULL]], \
                 a -> filter(a, x -> x IS NOT NULL))",
                "array(array(integer))",
                json!([[1, 2], [3]]),
            ),
            // docs functions/lambda: a lambda reads the query's columns too (correlated).
            (
                "SELECT transform(ARRAY[1, 2], x -> x * regionkey) FROM tpch.tiny.region \
                 WHERE regionkey = 3",
                "array(bigint)",
                json!([3, 6]),
            ),
            (
                "SELECT transform(CAST(NULL AS array(integer)), x -> x)",
                "array(integer)",
                json!(null),
            ),
        ],
    );
}

#[test]
fn filter_keeps_the_elements_the_predicate_is_true_for() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/array filter.
            (
                "SELECT filter(ARRAY[], x -> true)",
                "array(unknown)",
                json!([]),
            ),
            (
                "SELECT filter(ARRAY[5, -6, NULL, 7], x -> x > 0)",
                "array(integer)",
                json!([5, 7]),
            ),
            (
                "SELECT filter(ARRAY[5, NULL, 7, NULL], x -> x IS NOT NULL)",
                "array(integer)",
                json!([5, 7]),
            ),
        ],
    );
}

#[test]
fn reduce_folds_the_elements_through_a_state() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/array reduce.
            (
                "SELECT reduce(ARRAY[], 0, (s, x) -> s + x, s -> s)",
                "integer",
                json!(0),
            ),
            (
                "SELECT reduce(ARRAY[5, 20, 50], 0, (s, x) -> s + x, s -> s)",
                "integer",
                json!(75),
            ),
            (
                "SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> s + x, s -> s)",
                "integer",
                json!(null),
            ),
            (
                "SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> s + coalesce(x, 0), s -> s)",
                "integer",
                json!(75),
            ),
            (
                "SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> IF(x IS NULL, s, s + x), s -> s)",
                "integer",
                json!(75),
            ),
            (
                "SELECT reduce(ARRAY[2147483647, 1], BIGINT '0', (s, x) -> s + x, s -> s)",
                "bigint",
                json!(2147483648i64),
            ),
            (
                "SELECT reduce(ARRAY[5, 6, 10, 20], \
                 CAST(ROW(0.0, 0) AS ROW(sum DOUBLE, count INTEGER)), \
                 (s, x) -> CAST(ROW(x + s.sum, s.count + 1) AS ROW(sum DOUBLE, count INTEGER)), \
                 s -> IF(s.count = 0, NULL, s.sum / s.count))",
                "double",
                json!(10.25),
            ),
        ],
    );
}

#[test]
fn the_match_functions_use_three_valued_logic() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/array any_match / all_match / none_match.
            (
                "SELECT all_match(ARRAY[5, -6, 0, 7], x -> x > 0)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT any_match(ARRAY[5, -6, 0, 7], x -> x > 0)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT none_match(ARRAY[5, -6, 0, 7], x -> x > 7)",
                "boolean",
                json!(true),
            ),
            // "a special case is when the array is empty": all/none true, any false.
            (
                "SELECT all_match(ARRAY[], x -> x > 0)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT any_match(ARRAY[], x -> x > 0)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT none_match(ARRAY[], x -> x > 0)",
                "boolean",
                json!(true),
            ),
            // NULL when the predicate is NULL for some and decides nothing for the rest.
            (
                "SELECT all_match(ARRAY[1, NULL], x -> x > 0)",
                "boolean",
                json!(null),
            ),
            (
                "SELECT any_match(ARRAY[-1, NULL], x -> x > 0)",
                "boolean",
                json!(null),
            ),
            (
                "SELECT any_match(ARRAY[1, NULL], x -> x > 0)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT none_match(ARRAY[-1, NULL], x -> x > 0)",
                "boolean",
                json!(null),
            ),
            (
                "SELECT all_match(ARRAY[-1, NULL], x -> x > 0)",
                "boolean",
                json!(false),
            ),
        ],
    );
}

#[test]
fn zip_with_pairs_elements_padding_the_shorter_array() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/array zip_with.
            (
                "SELECT zip_with(ARRAY[1, 2], ARRAY[3, 4], (x, y) -> x + y)",
                "array(integer)",
                json!([4, 6]),
            ),
            (
                "SELECT zip_with(ARRAY['a', 'b', 'c'], ARRAY['d', 'e', 'f'], (x, y) -> concat(x, y))",
                "array(varchar)",
                json!(["ad", "be", "cf"]),
            ),
            (
                "SELECT zip_with(ARRAY['a'], ARRAY['d', null, 'f'], (x, y) -> coalesce(x, y))",
                "array(varchar(1))",
                json!(["a", null, "f"]),
            ),
            (
                "SELECT zip_with(ARRAY[1, 3, 5], ARRAY['a', 'b', 'c'], (x, y) -> ROW(y, x))",
                "array(row(varchar(1), integer))",
                json!([["a", 1], ["b", 3], ["c", 5]]),
            ),
        ],
    );
}

#[test]
fn lambdas_that_do_not_fit_are_refused_as_trino_does() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            // A lambda's arity is part of the signature (FunctionResolver: no match).
            (
                "SELECT transform(ARRAY[1], (x, y) -> x)",
                // Trino 476: the lambda's arity is checked first.
                "INVALID_PARAMETER_USAGE: line 1:38: Expected a lambda that takes 1 argument(s) but got 2",
            ),
            // filter's lambda must return boolean.
            (
                "SELECT filter(ARRAY[1], x -> x + 1)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (array(integer), <function>) for function filter",
            ),
            // Not an array.
            (
                "SELECT transform(1, x -> x)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (integer, <function>) for function transform",
            ),
            // A lambda where a function takes none.
            (
                "SELECT abs(x -> x)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (<function>) for function abs",
            ),
            // The body's names still resolve against the query.
            (
                "SELECT transform(ARRAY[1], x -> y)",
                "COLUMN_NOT_FOUND: line 1:33: Column 'y' cannot be resolved",
            ),
        ],
    );
}

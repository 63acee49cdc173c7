//! Map functions and map aggregates. Sources: trinodb/trino docs functions/map (each
//! function's examples), functions/aggregate ("Map aggregate functions"), TestMapOperators
//! (testConstructor, testMapFromEntries, testMapConcat, testMapKeys, testMapValues),
//! MapFromEntriesFunction, MapTransformKeysFunction, MapAggregationFunction.

use serde_json::json;

use super::{check_errors, check_rows, check_values};
use crate::support::engine::engine;

#[test]
fn map_constructors() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/map "map() -> map<unknown, unknown>"; TestMapOperators
            // .testEmptyMapConstructor.
            ("SELECT map()", "map(unknown, unknown)", json!({})),
            // docs functions/map "map(array(K), array(V))".
            (
                "SELECT map(ARRAY[1,3], ARRAY[2,4])",
                "map(integer, integer)",
                json!({"1": 2, "3": 4}),
            ),
            (
                "SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY[2373, 3463, 45837])",
                "map(varchar(4), integer)",
                json!({"key1": 2373, "key2": 3463, "key3": 45837}),
            ),
            (
                "SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', NULL, 'v3'])",
                "map(varchar(4), varchar(2))",
                json!({"key1": "v1", "key2": null, "key3": "v3"}),
            ),
            // docs functions/map "Subscript operator: []".
            (
                "SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', 'v2', 'v3'])['key2']",
                "varchar(2)",
                json!("v2"),
            ),
            // TestMapOperators.testConstructor: nested values and keys.
            (
                "SELECT MAP(ARRAY[1, 2], ARRAY[ARRAY[1, 2], ARRAY[3]])",
                "map(integer, array(integer))",
                json!({"1": [1, 2], "2": [3]}),
            ),
            (
                "SELECT MAP(ARRAY['x'], ARRAY[MAP(ARRAY[1], ARRAY[2.0E0])])['x'][1]",
                "double",
                json!(2.0),
            ),
            (
                "SELECT MAP(NULL, ARRAY[1])",
                "map(unknown, integer)",
                json!(null),
            ),
            (
                "SELECT typeof(MAP(ARRAY['a'], ARRAY[1]))",
                "varchar",
                json!("map(varchar(1), integer)"),
            ),
            // docs functions/map "map_from_entries".
            (
                "SELECT map_from_entries(ARRAY[ROW(1, 'x'), ROW(2, 'y')])",
                "map(integer, varchar(1))",
                json!({"1": "x", "2": "y"}),
            ),
            // The docs' own spelling: `(1, 'x')` is a row (SqlBase.g4 rowConstructor).
            (
                "SELECT map_from_entries(ARRAY[(1, 'x'), (2, 'y')])",
                "map(integer, varchar(1))",
                json!({"1": "x", "2": "y"}),
            ),
            ("SELECT (1, 'a') = ROW(1, 'a')", "boolean", json!(true)),
            (
                "SELECT map_from_entries(NULL)",
                "map(unknown, unknown)",
                json!(null),
            ),
            // docs functions/map "multimap_from_entries".
            (
                "SELECT multimap_from_entries(ARRAY[ROW(1, 'x'), ROW(2, 'y'), ROW(1, 'z')])",
                "map(integer, array(varchar(1)))",
                json!({"1": ["x", "z"], "2": ["y"]}),
            ),
            // docs functions/map "map_entries".
            (
                "SELECT map_entries(MAP(ARRAY[1, 2], ARRAY['x', 'y']))",
                "array(row(integer, varchar(1)))",
                json!([[1, "x"], [2, "y"]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // TestMapOperators.testConstructor / MapConstructor.
            (
                "SELECT MAP(ARRAY [1], ARRAY [2, 4])",
                "INVALID_FUNCTION_ARGUMENT: Key and value arrays must be the same length",
            ),
            (
                "SELECT MAP(ARRAY [1, 2, 3, 2], ARRAY [4, 5, 6, 7])",
                "INVALID_FUNCTION_ARGUMENT: Duplicate map keys (2) are not allowed",
            ),
            (
                "SELECT MAP(ARRAY [ARRAY [1, 2], ARRAY [1, 3], ARRAY [1, 2]], ARRAY [1, 2, 3])",
                "INVALID_FUNCTION_ARGUMENT: Duplicate map keys ([1, 2]) are not allowed",
            ),
            (
                "SELECT MAP(ARRAY [1, NULL], ARRAY [2, 4])",
                "INVALID_FUNCTION_ARGUMENT: map key cannot be null",
            ),
            (
                "SELECT MAP(ARRAY [1], 2)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (array(integer), integer) for function map",
            ),
            // MapFromEntriesFunction.
            (
                "SELECT map_from_entries(ARRAY[ROW(1, 'x'), NULL])",
                "INVALID_FUNCTION_ARGUMENT: map entry cannot be null",
            ),
            (
                "SELECT map_from_entries(ARRAY[ROW(NULL, 'x')])",
                "INVALID_FUNCTION_ARGUMENT: map key cannot be null",
            ),
            (
                "SELECT map_from_entries(ARRAY[ROW('a', 1), ROW('a', 2)])",
                "INVALID_FUNCTION_ARGUMENT: Duplicate map keys (a) are not allowed",
            ),
            (
                "SELECT map_from_entries(ARRAY[1])",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (array(integer)) for function map_from_entries",
            ),
            (
                "SELECT map_entries(ARRAY[1])",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (array(integer)) for function map_entries",
            ),
        ],
    );
}

#[test]
fn map_keys_values_and_concat() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestMapOperators.testMapKeys / testMapValues.
            (
                "SELECT map_keys(MAP(ARRAY['1', '3'], ARRAY['2', '4']))",
                "array(varchar(1))",
                json!(["1", "3"]),
            ),
            (
                "SELECT map_keys(MAP(ARRAY[ARRAY[1, 2], ARRAY[3]], ARRAY['a', 'b']))",
                "array(array(integer))",
                json!([[1, 2], [3]]),
            ),
            (
                "SELECT map_values(MAP(ARRAY['1'], ARRAY[ARRAY[TRUE, FALSE, NULL]]))",
                "array(array(boolean))",
                json!([[true, false, null]]),
            ),
            (
                "SELECT map_values(MAP(ARRAY[1, 2], ARRAY[NULL, 'x']))",
                "array(varchar(1))",
                json!([null, "x"]),
            ),
            ("SELECT map_keys(map())", "array(unknown)", json!([])),
            // docs functions/map "map_concat": the last map's value wins.
            (
                "SELECT map_concat(MAP(ARRAY[1, 2], ARRAY['a', 'b']), MAP(ARRAY[2, 3], ARRAY['c', 'd']))",
                "map(integer, varchar(1))",
                json!({"1": "a", "2": "c", "3": "d"}),
            ),
            // TestMapOperators.testMapConcat: three maps, the super type of their keys.
            (
                "SELECT map_concat(MAP(ARRAY[1], ARRAY[1]), MAP(ARRAY[1, 2], ARRAY[2, 2]), MAP(ARRAY[BIGINT '3'], ARRAY[3]))",
                "map(bigint, integer)",
                json!({"1": 2, "2": 2, "3": 3}),
            ),
            (
                "SELECT map_concat(MAP(ARRAY[1], ARRAY[1]), NULL)",
                "map(integer, integer)",
                json!(null),
            ),
            (
                "SELECT map_keys(map_concat(MAP(ARRAY['k', 'j'], ARRAY[1, 2]), MAP(ARRAY['k'], ARRAY[3])))",
                "array(varchar(1))",
                json!(["k", "j"]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT map_concat(MAP(ARRAY[1], ARRAY[1]), MAP(ARRAY['a'], ARRAY[1]))",
            "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (map(integer, integer), map(varchar(1), integer)) for function map_concat",
        )],
    );
}

#[test]
fn map_lambdas() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/map "map_filter".
            (
                "SELECT map_filter(MAP(ARRAY[], ARRAY[]), (k, v) -> true)",
                "map(unknown, unknown)",
                json!({}),
            ),
            (
                "SELECT map_filter(MAP(ARRAY[10, 20, 30], ARRAY['a', NULL, 'c']), (k, v) -> v IS NOT NULL)",
                "map(integer, varchar(1))",
                json!({"10": "a", "30": "c"}),
            ),
            (
                "SELECT map_filter(MAP(ARRAY['k1', 'k2', 'k3'], ARRAY[20, 3, 15]), (k, v) -> v > 10)",
                "map(varchar(2), integer)",
                json!({"k1": 20, "k3": 15}),
            ),
            // docs functions/map "transform_keys".
            (
                "SELECT transform_keys(MAP(ARRAY[], ARRAY[]), (k, v) -> k + 1)",
                "map(integer, unknown)",
                json!({}),
            ),
            (
                "SELECT transform_keys(MAP(ARRAY [1, 2, 3], ARRAY ['a', 'b', 'c']), (k, v) -> k + 1)",
                "map(integer, varchar(1))",
                json!({"2": "a", "3": "b", "4": "c"}),
            ),
            (
                "SELECT transform_keys(MAP(ARRAY ['a', 'b', 'c'], ARRAY [1, 2, 3]), (k, v) -> v * v)",
                "map(integer, integer)",
                json!({"1": 1, "4": 2, "9": 3}),
            ),
            (
                "SELECT transform_keys(MAP(ARRAY ['a', 'b'], ARRAY [1, 2]), (k, v) -> k || CAST(v as VARCHAR))",
                "map(varchar, integer)",
                json!({"a1": 1, "b2": 2}),
            ),
            (
                "SELECT transform_keys(MAP(ARRAY [1, 2], ARRAY [1.0, 1.4]), (k, v) -> MAP(ARRAY[1, 2], ARRAY['one', 'two'])[k])",
                "map(varchar(3), decimal(2, 1))",
                json!({"one": "1.0", "two": "1.4"}),
            ),
            // docs functions/map "map_zip_with".
            (
                "SELECT map_zip_with(MAP(ARRAY[1, 2, 3], ARRAY['a', 'b', 'c']), MAP(ARRAY[1, 2, 3], ARRAY['d', 'e', 'f']), (k, v1, v2) -> concat(v1, v2))",
                "map(integer, varchar)",
                json!({"1": "ad", "2": "be", "3": "cf"}),
            ),
            (
                "SELECT map_zip_with(MAP(ARRAY['k1', 'k2'], ARRAY[1, 2]), MAP(ARRAY['k2', 'k3'], ARRAY[4, 9]), (k, v1, v2) -> ROW(v1, v2))",
                "map(varchar(2), row(integer, integer))",
                json!({"k1": [1, null], "k2": [2, 4], "k3": [null, 9]}),
            ),
            (
                "SELECT map_zip_with(MAP(ARRAY['a', 'b', 'c'], ARRAY[1, 8, 27]), MAP(ARRAY['a', 'b', 'c'], ARRAY[1, 2, 3]), (k, v1, v2) -> k || CAST(v1 / v2 AS VARCHAR))",
                "map(varchar(1), varchar)",
                json!({"a": "a1", "b": "b4", "c": "c9"}),
            ),
            // docs functions/map "transform_values".
            (
                "SELECT transform_values(MAP(ARRAY [1, 2, 3], ARRAY [10, 20, 30]), (k, v) -> v + k)",
                "map(integer, integer)",
                json!({"1": 11, "2": 22, "3": 33}),
            ),
            (
                "SELECT transform_values(MAP(ARRAY [1, 2, 3], ARRAY ['a', 'b', 'c']), (k, v) -> k * k)",
                "map(integer, integer)",
                json!({"1": 1, "2": 4, "3": 9}),
            ),
            (
                "SELECT transform_values(MAP(ARRAY ['a', 'b'], ARRAY [1, 2]), (k, v) -> k || CAST(v as VARCHAR))",
                "map(varchar(1), varchar)",
                json!({"a": "a1", "b": "b2"}),
            ),
            (
                "SELECT transform_values(MAP(ARRAY [1, 2], ARRAY [1.0, 1.4]), (k, v) -> MAP(ARRAY[1, 2], ARRAY['one', 'two'])[k] || '_' || CAST(v AS VARCHAR))",
                "map(integer, varchar)",
                json!({"1": "one_1.0", "2": "two_1.4"}),
            ),
            (
                "SELECT transform_values(CAST(NULL AS map(integer, integer)), (k, v) -> v)",
                "map(integer, integer)",
                json!(null),
            ),
            // A lambda reads the row it is evaluated for (a correlated column).
            (
                "SELECT map_keys(map_filter(MAP(ARRAY[1, 2, 3], ARRAY[10, 20, 30]), (k, v) -> k <= n.regionkey)) FROM nation n WHERE n.nationkey = 1",
                "array(integer)",
                json!([1]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // MapTransformKeysFunction: the new keys are checked.
            (
                "SELECT transform_keys(MAP(ARRAY[1, 2], ARRAY['a', 'b']), (k, v) -> 7)",
                "INVALID_FUNCTION_ARGUMENT: Duplicate keys (7) are not allowed",
            ),
            (
                "SELECT transform_keys(MAP(ARRAY[1, 2], ARRAY['a', 'b']), (k, v) -> NULL)",
                "INVALID_FUNCTION_ARGUMENT: map key cannot be null",
            ),
            (
                "SELECT map_filter(MAP(ARRAY[1], ARRAY[2]), (k, v) -> 1)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (map(integer, integer), <function>) for function map_filter",
            ),
            (
                "SELECT map_filter(MAP(ARRAY[1], ARRAY[2]), k -> true)",
                // Trino 476: the lambda's arity is checked first.
                "INVALID_PARAMETER_USAGE: line 1:49: Expected a lambda that takes 2 argument(s) but got 1",
            ),
        ],
    );
}

#[test]
fn map_aggregates() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/aggregate "map_agg": rows with a NULL key are left out
            // (MapAggregationFunction's key is not nullable), the first value of a key stays.
            (
                "SELECT map_agg(k, v) FROM (VALUES ('a', 1), ('b', NULL), (NULL, 3), ('a', 4)) AS t(k, v)",
                "map(varchar(1), integer)",
                json!({"a": 1, "b": null}),
            ),
            (
                "SELECT map_agg(k, v) FROM (VALUES ('a', 1)) AS t(k, v) WHERE k = 'z'",
                "map(varchar(1), integer)",
                json!(null),
            ),
            // docs functions/aggregate "multimap_agg".
            (
                "SELECT multimap_agg(k, v) FROM (VALUES (1, 'x'), (2, 'y'), (1, 'z'), (1, NULL)) AS t(k, v)",
                "map(integer, array(varchar(1)))",
                json!({"1": ["x", "z", null], "2": ["y"]}),
            ),
            // docs functions/aggregate "histogram".
            (
                "SELECT histogram(x) FROM (VALUES 'a', 'b', 'a', NULL) AS t(x)",
                "map(varchar(1), bigint)",
                json!({"a": 2, "b": 1}),
            ),
            (
                "SELECT histogram(regionkey) FROM nation",
                "map(bigint, bigint)",
                json!({"0": 5, "1": 5, "2": 5, "3": 5, "4": 5}),
            ),
            (
                "SELECT map_agg(name, regionkey) FILTER (WHERE nationkey < 2) FROM nation",
                "map(varchar(25), bigint)",
                json!({"ALGERIA": 0, "ARGENTINA": 1}),
            ),
            (
                "SELECT map_agg(r.name, ARRAY[r.regionkey])['ASIA'] FROM region r",
                "array(bigint)",
                json!([2]),
            ),
        ],
    );
    check_rows(
        &engine,
        &[
            // map_agg's entries come in the order of Trino's hash table
            // (AbstractMapAggregationState: bucket order of `hash >> 7`, the table doubled at
            // 15/16; bigint by AbstractLongType.hash, varchar by XxHash64); answers of Trino
            // 476. With ORDER BY one state, however the rows came.
            (
                "SELECT regionkey, map_keys(map_agg(nationkey, name ORDER BY nationkey DESC)) FROM nation WHERE regionkey = 0 GROUP BY regionkey",
                json!([[0, [0, 16, 15, 5, 14]]]),
            ),
            // A global aggregation over a table: a partial and a final state, the table
            // grown once for 25 keys.
            (
                "SELECT map_keys(map_agg(nationkey, name)) FROM nation",
                json!([[[
                    0, 3, 8, 13, 18, 7, 2, 10, 5, 15, 20, 14, 4, 9, 12, 17, 22, 16, 11, 1, 6, 19,
                    21, 24, 23
                ]]]),
            ),
            // Two states put IRAQ, which meets JAPAN's probe, before it ...
            (
                "SELECT map_keys(map_agg(name, 1)) FROM nation WHERE nationkey < 13",
                json!([[[
                    "ARGENTINA",
                    "BRAZIL",
                    "IRAQ",
                    "ALGERIA",
                    "ETHIOPIA",
                    "GERMANY",
                    "IRAN",
                    "CANADA",
                    "JAPAN",
                    "EGYPT",
                    "FRANCE",
                    "INDIA",
                    "INDONESIA"
                ]]]),
            ),
            // ... one state over VALUES does not.
            (
                "SELECT map_keys(map_agg(x, 1)) FROM (VALUES 'ALGERIA', 'ARGENTINA', 'BRAZIL', 'CANADA', 'EGYPT', 'ETHIOPIA', 'FRANCE', 'GERMANY', 'INDIA', 'INDONESIA', 'IRAN', 'IRAQ', 'JAPAN') t(x)",
                json!([[[
                    "ARGENTINA",
                    "BRAZIL",
                    "JAPAN",
                    "ALGERIA",
                    "ETHIOPIA",
                    "GERMANY",
                    "IRAN",
                    "CANADA",
                    "EGYPT",
                    "FRANCE",
                    "INDIA",
                    "INDONESIA",
                    "IRAQ"
                ]]]),
            ),
            (
                "SELECT map_keys(map_agg(x, 1)) FROM (VALUES 1.5e0, 0e0, -0e0, nan(), 2e0, infinity()) t(x)",
                json!([[[1.5, 0.0, "NaN", 2.0, "Infinity"]]]),
            ),
            // Over a window: one state per frame.
            (
                "SELECT x, map_keys(map_agg(x, x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)) FROM (VALUES 1, 2, 3) AS t(x) ORDER BY x",
                json!([[1, [1]], [2, [2, 1]], [3, [3, 2]]]),
            ),
            (
                "SELECT x, histogram(y) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1, 'a'), (2, 'a'), (3, 'b')) AS t(x, y) ORDER BY x",
                json!([[1, {"a": 1}], [2, {"a": 2}], [3, {"a": 1, "b": 1}]]),
            ),
        ],
    );
}

#[test]
fn row_and_map_comparison() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestRowOperators.testRowComparison.
            ("SELECT ROW(1, 2) = ROW(1, 2)", "boolean", json!(true)),
            ("SELECT ROW(2, 1) != ROW(1, 2)", "boolean", json!(true)),
            (
                "SELECT row(1, CAST(NULL AS INTEGER)) = row(1, 2)",
                "boolean",
                json!(null),
            ),
            (
                "SELECT row(1, CAST(NULL AS INTEGER)) != row(1, 2)",
                "boolean",
                json!(null),
            ),
            (
                "SELECT row(2, CAST(NULL AS INTEGER)) = row(1, 2)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT row(2, CAST(NULL AS INTEGER)) != row(1, 2)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT row(TRUE, ARRAY [1], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0])) = row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0]))",
                "boolean",
                json!(false),
            ),
            (
                "SELECT row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0])) = row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0]))",
                "boolean",
                json!(true),
            ),
            // assertComparisonCombination: each pair is ordered left < right.
            ("SELECT ROW(1, 2) < ROW(2, 1)", "boolean", json!(true)),
            ("SELECT ROW(1, 2) >= ROW(2, 1)", "boolean", json!(false)),
            (
                "SELECT row(1.0E0, 'kittens') < row(1.0E0, 'puppies')",
                "boolean",
                json!(true),
            ),
            (
                "SELECT row(1, 2.0E0) > row(5, 2.0E0)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT row(TRUE, FALSE, TRUE, FALSE) <= row(TRUE, TRUE, TRUE, FALSE)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT row(1.0E0, ARRAY [1,2,3], row(2, 2.0E0)) < row(1.0E0, ARRAY [1,3,3], row(2, 2.0E0))",
                "boolean",
                json!(true),
            ),
            (
                "SELECT row(TRUE, ARRAY [1]) < row(TRUE, ARRAY [1, 2])",
                "boolean",
                json!(true),
            ),
            (
                "SELECT CAST(NULL AS row(a integer)) < ROW(1)",
                "boolean",
                json!(null),
            ),
            // TestMapOperators.testEquals: the pairs' order does not matter.
            (
                "SELECT MAP(ARRAY[1, 3], ARRAY[2, 4]) = MAP(ARRAY[3, 1], ARRAY[4, 2])",
                "boolean",
                json!(true),
            ),
            (
                "SELECT MAP(ARRAY[1, 3], ARRAY[2, 4]) != MAP(ARRAY[1], ARRAY[2])",
                "boolean",
                json!(true),
            ),
            (
                "SELECT MAP(ARRAY[1], ARRAY[NULL]) = MAP(ARRAY[1], ARRAY[2])",
                "boolean",
                json!(null),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT row(1, CAST(NULL AS INTEGER)) < row(1, 2)",
                "NOT_SUPPORTED: ROW comparison not supported for fields with null elements",
            ),
            (
                "SELECT row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0])) > row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0]))",
                "TYPE_MISMATCH: line 1:71: Cannot apply operator: row(boolean, array(integer), map(integer, double)) < row(boolean, array(integer), map(integer, double))",
            ),
            (
                "SELECT MAP(ARRAY[1], ARRAY[2]) < MAP(ARRAY[1], ARRAY[2])",
                "TYPE_MISMATCH: line 1:32: Cannot apply operator: map(integer, integer) < map(integer, integer)",
            ),
            (
                "SELECT ROW(1, 2) = ROW(1)",
                "TYPE_MISMATCH: line 1:18: Cannot apply operator: row(integer, integer) = row(integer)",
            ),
        ],
    );
}

/// Trino 476's answers (asked of the real server): maps compared by their pairs in IS
/// DISTINCT FROM and IN (TestMapOperators.testDistinctFrom), a single map_concat argument,
/// and array keys named as Java prints a list.
#[test]
fn maps_distinct_in_single_concat_and_array_keys() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT MAP(ARRAY['a'], ARRAY[NULL]) IS DISTINCT FROM MAP(ARRAY['a'], ARRAY[NULL])",
                "boolean",
                json!(false),
            ),
            (
                "SELECT MAP(ARRAY['a'], ARRAY[1]) IS DISTINCT FROM MAP(ARRAY['a'], ARRAY[2])",
                "boolean",
                json!(true),
            ),
            (
                "SELECT MAP(ARRAY['a'], ARRAY[1]) IS DISTINCT FROM NULL",
                "boolean",
                json!(true),
            ),
            (
                "SELECT MAP(ARRAY['a', 'b'], ARRAY[1, 2]) IN (MAP(ARRAY['b', 'a'], ARRAY[2, 1]))",
                "boolean",
                json!(true),
            ),
            (
                "SELECT MAP(ARRAY['a'], ARRAY[1]) IN (MAP(ARRAY['a'], ARRAY[2]), NULL)",
                "boolean",
                json!(null),
            ),
            (
                "SELECT map_concat(NULL)",
                "map(unknown, unknown)",
                json!(null),
            ),
            (
                "SELECT MAP(ARRAY[ARRAY[1], ARRAY[2, 3]], ARRAY['a', 'b'])",
                "map(array(integer), varchar(1))",
                json!({"[1]": "a", "[2, 3]": "b"}),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT map_concat(MAP(ARRAY['a'], ARRAY[1]))",
            "INVALID_FUNCTION_ARGUMENT: There must be two or more concatenation arguments to map_concat",
        )],
    );
}

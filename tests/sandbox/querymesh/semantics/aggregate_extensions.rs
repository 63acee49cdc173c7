//! The statistical aggregates, min/max/max_by/min_by with n, map_union, reduce_agg, sums and
//! means of intervals, and aggregates given to lambda functions. Sources: trinodb/trino
//! docs/src/main/sphinx/functions/aggregate.md, the states CovarianceState, CorrelationState,
//! RegressionState and CentralMomentsState, and Trino 476's answers to the parity corpus
//! (tests/parity/corpus/aggregate_functions.sql, aggregations.sql, lambda_functions.sql).

use serde_json::json;

use super::{check_errors, check_rows, check_values};
use crate::support::engine::engine;

#[test]
fn statistical_aggregates() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT covar_samp(x, y) FROM (VALUES (1e0, 10e0), (2e0, 20e0), (3e0, 31e0)) t(x, y)",
                "double",
                json!(10.5),
            ),
            (
                "SELECT corr(x, y) FROM (VALUES (1e0, 10e0), (2e0, 20e0), (3e0, 31e0)) t(x, y)",
                "double",
                json!(0.9996222851612185),
            ),
            // Integers are read as reals, and the answer is a real.
            (
                "SELECT regr_slope(y, x) FROM (VALUES (1, 3), (2, 5), (3, 7)) t(x, y)",
                "real",
                json!(2.0),
            ),
            (
                "SELECT regr_intercept(y, x) FROM (VALUES (1, 3), (2, 5), (3, 7)) t(x, y)",
                "real",
                json!(1.0),
            ),
            (
                "SELECT covar_pop(y, x) FROM (VALUES (1, 2)) t(x, y)",
                "real",
                json!(0.0),
            ),
            // One row: no sample covariance; no spread: no slope.
            (
                "SELECT covar_samp(y, x) FROM (VALUES (1, 2)) t(x, y)",
                "real",
                json!(null),
            ),
            (
                "SELECT regr_slope(y, x) FROM (VALUES (2, 1), (2, 3)) t(x, y)",
                "real",
                json!(null),
            ),
            (
                "SELECT skewness(x) FROM (VALUES 1, 2, 3, 4, 10) t(x)",
                "double",
                json!(1.1384199576606164),
            ),
            (
                "SELECT kurtosis(x) FROM (VALUES 1, 2, 3, 4, 10) t(x)",
                "double",
                json!(3.1519999999999992),
            ),
            (
                "SELECT kurtosis(x) FROM (VALUES 1, 2, 3) t(x)",
                "double",
                json!(null),
            ),
        ],
    );
}

#[test]
fn extremes_with_n_and_over_arrays_and_rows() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT max(x, 2) FROM (VALUES 4, 9, 1, 7, NULL) t(x)",
                "array(integer)",
                json!([9, 7]),
            ),
            (
                "SELECT min(x, 3) FROM (VALUES 4, 9, 1, 7, NULL) t(x)",
                "array(integer)",
                json!([1, 4, 7]),
            ),
            (
                "SELECT max(x, 2) FROM (VALUES CAST(NULL AS integer)) t(x)",
                "array(integer)",
                json!(null),
            ),
            (
                "SELECT max_by(x, y, 2) FROM (VALUES ('a', 3), ('b', 1), ('c', 2), ('d', 5)) t(x, y)",
                "array(varchar(1))",
                json!(["d", "a"]),
            ),
            (
                "SELECT min_by(x, y, 9) FROM (VALUES ('a', 3), ('b', 1)) t(x, y)",
                "array(varchar(1))",
                json!(["b", "a"]),
            ),
            (
                "SELECT max(x) FROM (VALUES ARRAY[1, 2], ARRAY[1, 3], ARRAY[0, 9]) t(x)",
                "array(integer)",
                json!([1, 3]),
            ),
            (
                "SELECT min(ROW(a, b)) FROM (VALUES (1, 'b'), (1, 'a'), (0, 'z')) t(a, b)",
                "row(integer, varchar(1))",
                json!([0, "z"]),
            ),
            (
                "SELECT max_by(name, ARRAY[nationkey]) FROM tpch.tiny.nation",
                "varchar(25)",
                json!("UNITED STATES"),
            ),
            (
                "SELECT max_by(x, y) FROM (VALUES (1, ROW(1, 'a')), (2, ROW(1, 'b'))) t(x, y)",
                "integer",
                json!(2),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT max(x, -1) FROM (VALUES 1) t(x)",
                "INVALID_FUNCTION_ARGUMENT: second argument of max_n must be positive",
            ),
            (
                "SELECT max_by(x, y, 0) FROM (VALUES (1, 2)) t(x, y)",
                "INVALID_FUNCTION_ARGUMENT: third argument of max_by must be a positive integer",
            ),
        ],
    );
}

#[test]
fn intervals_maps_listagg_and_reduce_agg() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT sum(x) FROM (VALUES INTERVAL '1' DAY, INTERVAL '6' HOUR) t(x)",
                "interval day to second",
                json!("1 06:00:00.000"),
            ),
            // The mean of 12 and 2 months, 7.
            (
                "SELECT avg(x) FROM (VALUES INTERVAL '1' YEAR, INTERVAL '2' MONTH) t(x)",
                "interval year to month",
                json!("0-7"),
            ),
            (
                "SELECT map_union(m) FROM (VALUES MAP(ARRAY[1], ARRAY['x']), NULL) t(m)",
                "map(integer, varchar(1))",
                json!({"1": "x"}),
            ),
            (
                "SELECT listagg(v) WITHIN GROUP (ORDER BY v) FROM (VALUES 'q', 'e', 'w') t(v)",
                "varchar",
                json!("eqw"),
            ),
            (
                "SELECT listagg(DISTINCT v, ',') WITHIN GROUP (ORDER BY v) \
                 FROM (VALUES 'b', 'a', 'b') t(v)",
                "varchar",
                json!("a,b"),
            ),
            (
                "SELECT reduce_agg(x, 1, (a, b) -> a * b, (a, b) -> a * b) \
                 FROM (VALUES 2, 3, 7) t(x)",
                "integer",
                json!(42),
            ),
            (
                "SELECT reduce_agg(x, 0, (a, b) -> a + b, (a, b) -> a + b) \
                 FROM (SELECT 1 AS x WHERE false)",
                "integer",
                json!(null),
            ),
            (
                "SELECT geometric_mean(x) FROM (VALUES -1e0, 4e0) t(x)",
                "double",
                json!("NaN"),
            ),
            (
                "SELECT sum(x) FROM (SELECT 1 AS x WHERE false) GROUP BY ()",
                "bigint",
                json!(null),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT listagg(x, ',') WITHIN GROUP (ORDER BY x) FROM (VALUES 1, 2) t(x)",
            "TYPE_MISMATCH",
        )],
    );
}

#[test]
fn aggregates_given_to_lambda_functions() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT regionkey, reduce(array_agg(nationkey), 0, (s, x) -> s + x, s -> s) \
                 FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey",
                json!([[0, 50], [1, 47], [2, 68], [3, 77], [4, 58]]),
            ),
            (
                "SELECT regionkey, any_match(array_agg(name), n -> starts_with(n, 'I')) \
                 FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey",
                json!([[0, false], [1, false], [2, true], [3, false], [4, true]]),
            ),
            (
                "SELECT transform_values(multimap_agg(k, v), (key, vs) -> array_sort(vs)) \
                 FROM (VALUES ('a', 3), ('b', 2), ('a', 1)) t(k, v)",
                json!([[{"a": [1, 3], "b": [2]}]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT transform(ARRAY[1, 2], x -> max(x))",
                "EXPRESSION_NOT_SCALAR",
            ),
            (
                "SELECT transform(ARRAY[1, 2], x -> (SELECT 1) + x)",
                "NOT_SUPPORTED",
            ),
            (
                "SELECT transform(ARRAY[1, 2], (x, y) -> x + y)",
                "INVALID_PARAMETER_USAGE",
            ),
        ],
    );
}

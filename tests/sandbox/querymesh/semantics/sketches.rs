//! Sketches (Trino docs functions/hyperloglog, functions/qdigest, functions/tdigest and
//! functions/aggregate; TestHyperLogLogFunctions, TestDoubleHistogramAggregation,
//! TestApproximateMostFrequentHistogram, TestApproximateSetAggregation,
//! TestQuantileDigestFunctions, TestQuantileDigestAggregationFunction, TestTDigestFunctions,
//! TestTDigestAggregationFunction): the `HyperLogLog`, `P4HyperLogLog`, `qdigest(T)` and
//! `tdigest` types, their aggregates and functions, and their bytes, as Trino 476 answers.

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn hyperloglogs_count_and_keep_trinos_bytes() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/hyperloglog: approx_set, cardinality, empty_approx_set, merge.
            (
                "SELECT cardinality(approx_set(v)) FROM (VALUES 3, 3, 4, 9, 9, 12) t(v)",
                "bigint",
                json!(4),
            ),
            // A sparse HyperLogLog of 4096 buckets (format 2, 12 index bits, 3 entries), as
            // Trino 476 writes it.
            (
                "SELECT approx_set(v) FROM (VALUES 17, 18, 19) t(v)",
                "HyperLogLog",
                json!("AgwDAABjrjhBPppdgeJJ8g=="),
            ),
            (
                "SELECT empty_approx_set()",
                "HyperLogLog",
                json!("AgwAAA=="),
            ),
            // 512 distinct values make it dense (airlift's memory estimates cross).
            (
                "SELECT substr(CAST(approx_set(v) AS varbinary), 1, 2) FROM UNNEST(sequence(1, 512)) t(v)",
                "varbinary",
                json!("Aww="),
            ),
            (
                "SELECT cardinality(approx_set(x * 10 + y)) FROM UNNEST(sequence(1, 6000)) a(x) CROSS JOIN UNNEST(sequence(0, 9)) b(y)",
                "bigint",
                json!(59115),
            ),
            (
                "SELECT cardinality(merge(h)) FROM (SELECT approx_set(v) AS h FROM UNNEST(sequence(1, 9000)) t(v) GROUP BY v % 5)",
                "bigint",
                json!(8869),
            ),
            (
                "SELECT cardinality(CAST(approx_set(v) AS P4HyperLogLog)) FROM UNNEST(sequence(1, 300)) t(v)",
                "bigint",
                json!(300),
            ),
            (
                "SELECT typeof(CAST(empty_approx_set() AS P4HyperLogLog))",
                "varchar",
                json!("P4HyperLogLog"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT CAST(X'0203' AS P4HyperLogLog)",
                "TYPE_MISMATCH: line 1:8: Cannot cast varbinary to P4HyperLogLog",
            ),
            (
                "SELECT approx_set(v) FROM (VALUES true) t(v)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (boolean) for function approx_set",
            ),
        ],
    );
}

#[test]
fn quantile_digests_answer_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // Trino 476's bytes of a one-value digest: format, max error 0.01, no decay, min
            // and max 1, one leaf of weight 1.
            (
                "SELECT qdigest_agg(v) FROM (VALUES 1) t(v)",
                "qdigest(bigint)",
                json!(
                    "AHsUrkfheoQ/AAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAQAAAAAAAAABAAAAAAAAAAAAAPA/AQAAAAAAAIA="
                ),
            ),
            (
                "SELECT value_at_quantile(qdigest_agg(v), 0.5) FROM UNNEST(sequence(1, 100)) t(v)",
                "bigint",
                json!(51),
            ),
            (
                "SELECT values_at_quantiles(qdigest_agg(CAST(v AS real)), ARRAY[0.2, 0.8]) FROM UNNEST(sequence(1, 200)) t(v)",
                "array(real)",
                json!([41.0, 161.0]),
            ),
            (
                "SELECT quantile_at_value(qdigest_agg(v), 3) FROM (VALUES 1, 2, 3, 4, 5) t(v)",
                "double",
                json!(0.4),
            ),
            (
                "SELECT quantile_at_value(qdigest_agg(v), 99) FROM (VALUES 1, 2, 3, 4, 5) t(v)",
                "double",
                json!(null),
            ),
            // A decimal makes a qdigest(real).
            (
                "SELECT typeof(qdigest_agg(CAST(v AS decimal(4,1)))) FROM (VALUES 1) t(v)",
                "varchar",
                json!("qdigest(real)"),
            ),
            (
                "SELECT value_at_quantile(merge(d), 0.5) FROM (SELECT qdigest_agg(v) AS d FROM UNNEST(sequence(1, 1000)) t(v) GROUP BY v % 4)",
                "bigint",
                json!(501),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT qdigest_agg(v, 0) FROM (VALUES 1) t(v)",
                "INVALID_FUNCTION_ARGUMENT: Percentile weight must be > 0, was 0",
            ),
            (
                "SELECT qdigest_agg(v, 1, 1) FROM (VALUES 1) t(v)",
                "INVALID_FUNCTION_ARGUMENT: Percentile accuracy must be exclusively between 0 and 1, was 1.0",
            ),
            (
                "SELECT CAST(qdigest_agg(1) AS qdigest(double))",
                "TYPE_MISMATCH: line 1:8: Cannot cast qdigest(bigint) to qdigest(double)",
            ),
        ],
    );
}

#[test]
fn t_digests_answer_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT tdigest_agg(v) FROM (VALUES 1) t(v)",
                "tdigest",
                json!("AAAAAAAAAPA/AAAAAAAA8D8AAAAAAABZQAAAAAAAAPA/AQAAAAAAAAAAAPA/AAAAAAAA8D8="),
            ),
            (
                "SELECT value_at_quantile(tdigest_agg(v), 0.5) FROM (VALUES 1.5, 2.5) t(v)",
                "double",
                json!(2.5),
            ),
            (
                "SELECT values_at_quantiles(tdigest_agg(v), ARRAY[0.1, 0.5, 0.9]) FROM UNNEST(sequence(1, 1000)) t(v)",
                "array(double)",
                json!([100.5, 500.5, 900.5]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT tdigest_agg(v, 0) FROM (VALUES 1e0) t(v)",
                "INVALID_FUNCTION_ARGUMENT: weight must be >= 1, was 0.0",
            ),
            (
                "SELECT values_at_quantiles(tdigest_agg(v), ARRAY[0.5, 0.1]) FROM (VALUES 1, 2, 3) t(v)",
                "INVALID_FUNCTION_ARGUMENT: percentiles must be sorted in increasing order",
            ),
        ],
    );
}

#[test]
fn numeric_histograms_merge_the_closest_buckets_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/aggregate, numeric_histogram; Trino 476's answers.
            (
                "SELECT numeric_histogram(3, v) FROM (VALUES 1e0, 2e0, 5e0, 6e0, 10e0) t(v)",
                "map(double, double)",
                json!({"1.5": 2.0, "5.5": 2.0, "10.0": 1.0}),
            ),
            (
                "SELECT numeric_histogram(2, v, w) FROM (VALUES (1e0, 2e0), (2e0, 1e0), (5e0, 1e0), (6e0, 3e0), (10e0, 1e0)) t(v, w)",
                "map(double, double)",
                json!({"1.3333333333333333": 3.0, "6.6": 5.0}),
            ),
            // Integers make a map(real, real).
            (
                "SELECT numeric_histogram(2, v) FROM (VALUES 1, 2, 5, 6, 10) t(v)",
                "map(real, real)",
                json!({"1.5": 2.0, "7.0": 3.0}),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT numeric_histogram(1, v) FROM (VALUES 1e0) t(v)",
            "INVALID_FUNCTION_ARGUMENT: numeric_histogram bucket count must be greater than one",
        )],
    );
}

#[test]
fn most_frequent_values_keep_trinos_space_saving_ties() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/aggregate, approx_most_frequent; Trino 476's answers.
            (
                "SELECT approx_most_frequent(3, v, 10) FROM (VALUES 1, 2, 2, 3, 3, 3, 4) t(v)",
                "map(bigint, bigint)",
                json!({"3": 3, "2": 2, "1": 1}),
            ),
            // Two counters for four values: a new value takes over the oldest counter of the
            // smallest count, and counts on from it.
            (
                "SELECT approx_most_frequent(2, v, 2) FROM (VALUES 'a', 'a', 'b', 'c', 'c', 'd') t(v)",
                "map(varchar, bigint)",
                json!({"c": 3, "d": 3}),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT approx_most_frequent(1, v, 6) FROM (VALUES 1) t(v)",
            "INVALID_FUNCTION_ARGUMENT: approx_most_frequent bucket count must be greater than one",
        )],
    );
}

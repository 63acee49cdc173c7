//! Aggregates beyond SQLite's own: max_by/min_by, approx_percentile, geometric_mean,
//! bitwise_and_agg/bitwise_or_agg/bitwise_xor_agg and listagg with WITHIN GROUP and ON OVERFLOW. Sources:
//! trinodb/trino docs/src/main/sphinx/functions/aggregate.md (the listagg examples verbatim),
//! ListaggAggregationFunction (its 1048576-byte limit and message), and the tpch.tiny data.

use serde_json::json;

use super::{check_errors, check_rows, check_values};
use crate::support::engine::engine;

#[test]
fn values_at_extremes_percentiles_and_bitwise() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT max_by(name, nationkey) FROM tpch.tiny.nation",
                "varchar(25)",
                json!("UNITED STATES"),
            ),
            (
                "SELECT min_by(name, nationkey) FROM tpch.tiny.nation",
                "varchar(25)",
                json!("ALGERIA"),
            ),
            // Rows whose key is NULL don't count; no rows is NULL.
            (
                "SELECT max_by(x, y) FROM (VALUES (1, NULL), (2, 5)) t(x, y)",
                "integer",
                json!(2),
            ),
            (
                "SELECT max_by(name, nationkey) FROM tpch.tiny.nation WHERE false",
                "varchar(25)",
                json!(null),
            ),
            (
                "SELECT approx_percentile(x, 0.5) FROM (VALUES 1, 2, 3) t(x)",
                "bigint",
                json!(2),
            ),
            (
                "SELECT approx_percentile(x, 0.5) FROM (VALUES 1e0, 2e0, 30e0) t(x)",
                "double",
                json!(2.0),
            ),
            (
                "SELECT approx_percentile(x, 1) FROM (VALUES 1, 9, 3) t(x)",
                "bigint",
                json!(9),
            ),
            (
                "SELECT round(geometric_mean(x), 6) FROM (VALUES 2, 8) t(x)",
                "double",
                json!(4.0),
            ),
            (
                "SELECT bitwise_and_agg(x) FROM (VALUES 3, 5, 7) t(x)",
                "bigint",
                json!(1),
            ),
            (
                "SELECT bitwise_or_agg(x) FROM (VALUES 3, 5, 7) t(x)",
                "bigint",
                json!(7),
            ),
            // BitwiseXorAggregation: 3 ^ 5 ^ 7 = 1; -1 ^ 5 in two's complement.
            (
                "SELECT bitwise_xor_agg(x) FROM (VALUES 3, 5, 7) t(x)",
                "bigint",
                json!(1),
            ),
            (
                "SELECT bitwise_xor_agg(x) FROM (VALUES -1, 5) t(x)",
                "bigint",
                json!(-6),
            ),
        ],
    );
}

#[test]
fn listagg_orders_within_group_and_handles_overflow() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/aggregate listagg.
            (
                "SELECT listagg(value, ',') WITHIN GROUP (ORDER BY value) csv_value \
                 FROM (VALUES 'a', 'c', 'b') t(value)",
                "varchar",
                json!("a,b,c"),
            ),
            (
                "SELECT listagg(value, ',') WITHIN GROUP (ORDER BY value DESC) \
                 FROM (VALUES 'a', NULL, 'b') t(value)",
                "varchar",
                json!("b,a"),
            ),
            // Ten 100,000-byte values fit in 1048576 bytes, the other fifteen are counted.
            (
                "SELECT length(listagg(lpad('', 100000, 'x'), ',' ON OVERFLOW TRUNCATE '...' WITH COUNT) \
                 WITHIN GROUP (ORDER BY name)) FROM tpch.tiny.nation",
                "bigint",
                json!(1_000_009 + 1 + 3 + 4),
            ),
            (
                "SELECT substr(listagg(lpad('', 100000, 'x'), ',' ON OVERFLOW TRUNCATE WITHOUT COUNT) \
                 WITHIN GROUP (ORDER BY name), 999990) FROM tpch.tiny.nation",
                "varchar",
                json!("xxxxxxxxxxxxxxxxxxxx,..."),
            ),
        ],
    );
    check_rows(
        &engine,
        &[(
            // docs functions/aggregate listagg, grouped.
            "SELECT id, listagg(value, ',') WITHIN GROUP (ORDER BY o) csv_value \
             FROM (VALUES (100, 1, 'a'), (200, 3, 'c'), (200, 2, 'b')) t(id, o, value) \
             GROUP BY id ORDER BY id",
            json!([[100, "a"], [200, "b,c"]]),
        )],
    );
}

#[test]
fn refusals() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT approx_percentile(x, 2) FROM (VALUES 1) t(x)",
                "INVALID_FUNCTION_ARGUMENT: Percentile must be between 0 and 1",
            ),
            (
                "SELECT listagg(lpad('', 100000, 'x'), ',') WITHIN GROUP (ORDER BY name) \
                 FROM tpch.tiny.nation",
                "EXCEEDED_FUNCTION_MEMORY_LIMIT: Concatenated string has the length in bytes larger than the maximum output length 1048576",
            ),
            (
                "SELECT bitwise_and_agg(name) FROM tpch.tiny.nation",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (varchar(25)) for function bitwise_and_agg",
            ),
        ],
    );
}

/// FILTER on an aggregate that lowers to several SQLite aggregates (stddev and variance are
/// a root and a quotient of sums): the filter applies to each, as it does to the one
/// aggregate Trino computes (docs functions/aggregate.md, "Filtering during aggregation";
/// the figures asked of Trino 476). The text lowering put FILTER after the whole
/// expression, which SQLite refused.
#[test]
fn filter_applies_to_every_aggregate_a_lowering_writes() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT stddev(x) FILTER (WHERE x > 1) FROM (VALUES 1, 2, 3, 4) t(x)",
                "double",
                json!(1.0),
            ),
            (
                "SELECT variance(x) FILTER (WHERE x > 1) FROM (VALUES 1, 2, 3, 4) t(x)",
                "double",
                json!(1.0),
            ),
            (
                "SELECT var_pop(nationkey) FILTER (WHERE name LIKE '%A%') FROM tpch.tiny.nation \
                 WHERE regionkey = 1",
                "double",
                json!(91.25),
            ),
        ],
    );
}

//! Set digests (Trino docs functions/setdigest; SetDigestFunctions, BuildSetDigestAggregation,
//! MergeSetDigestAggregation, SetDigestOperators; TestSetDigestFunctions): the `SetDigest`
//! type, its aggregates and functions, and its bytes, as Trino 476 answers.

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn digests_answer_the_documented_examples() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/setdigest, make_set_digest / cardinality.
            (
                "SELECT cardinality(make_set_digest(v)) FROM (VALUES 4, 4, 5, 6, 6, 6, 7, 8, 8) t(v)",
                "bigint",
                json!(5),
            ),
            (
                "SELECT cardinality(make_set_digest(v)) FROM (VALUES 'Presto', 'Trino', 'Trino', 'SQL') t(v)",
                "bigint",
                json!(3),
            ),
            // intersection_cardinality and jaccard_index: NULLs are skipped.
            (
                "SELECT intersection_cardinality(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (5, 5), (NULL, 6), (6, 7), (7, 8)) t(v1, v2)",
                "bigint",
                json!(3),
            ),
            (
                "SELECT jaccard_index(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (1, 4), (2, 5), (3, 6)) t(v1, v2)",
                "double",
                json!(0.0),
            ),
            // hash_counts: Trino's Murmur3 hashes of 7 and 8, with how often each was added.
            (
                "SELECT hash_counts(make_set_digest(v)) FROM (VALUES 7, 7, 7, 8, 8) t(v)",
                "map(bigint, smallint)",
                json!({"3522142095546486706": 3, "4145513480871534457": 2}),
            ),
            (
                "SELECT cardinality(merge_set_digest(d)) FROM (SELECT make_set_digest(v) AS d FROM (VALUES (1, 'x'), (2, 'x'), (2, 'y'), (3, 'y')) t(v, g) GROUP BY g)",
                "bigint",
                json!(3),
            ),
            (
                "SELECT typeof(make_set_digest(v)) FROM (VALUES 1) t(v)",
                "varchar",
                json!("SetDigest"),
            ),
            // No value at all: NULL.
            (
                "SELECT make_set_digest(v) IS NULL FROM (SELECT 1 AS v WHERE false)",
                "boolean",
                json!(true),
            ),
        ],
    );
}

#[test]
fn digests_have_trinos_bytes_and_bounds() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // The serialized digest (a sparse HyperLogLog, then the MinHash), as Trino shows it.
            (
                "SELECT make_set_digest(v) FROM (VALUES 1) t(v)",
                "SetDigest",
                json!("AQgAAAACCwEAgANEAAAgAAABAAAASsQF+7cDRAABAA=="),
            ),
            (
                "SELECT cardinality(CAST(CAST(make_set_digest(v) AS varbinary) AS setdigest)) FROM (VALUES 1, 2, 3) t(v)",
                "bigint",
                json!(3),
            ),
            // A char hashes without its padding, a short decimal as its unscaled long.
            (
                "SELECT hash_counts(make_set_digest(v)) FROM (VALUES CAST('ab' AS char(4))) t(v)",
                "map(bigint, smallint)",
                json!({"-7815133031266706642": 1}),
            ),
            (
                "SELECT hash_counts(make_set_digest(v)) FROM (VALUES 2.5) t(v)",
                "map(bigint, smallint)",
                json!({"-8472726019075949522": 1}),
            ),
            // A timestamp hashes as its microseconds since the epoch, as the bigint 1 does.
            (
                "SELECT hash_counts(make_set_digest(v)) FROM (VALUES TIMESTAMP '1970-01-01 00:00:00.000001') t(v)",
                "map(bigint, smallint)",
                json!({"19144387141682250": 1}),
            ),
            // Over a window whose frame only grows.
            (
                "SELECT cardinality(make_set_digest(v) OVER ()) FROM (VALUES 1) t(v)",
                "bigint",
                json!(1),
            ),
            // Past 8192 distinct values the MinHash is capped and the HyperLogLog (dense by
            // then) estimates: Trino 476's estimates.
            (
                "SELECT cardinality(make_set_digest(a * 10000 + b)) FROM UNNEST(sequence(0, 1)) x(a), UNNEST(sequence(1, 10000)) y(b)",
                "bigint",
                json!(19418),
            ),
            (
                "SELECT cardinality(hash_counts(make_set_digest(a * 10000 + b))) FROM UNNEST(sequence(0, 1)) x(a), UNNEST(sequence(1, 10000)) y(b)",
                "bigint",
                json!(8192),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT jaccard_index(1, 2)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (integer, integer) for function jaccard_index",
            ),
            (
                "SELECT merge_set_digest(x) FROM (VALUES 1) t(x)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (integer) for function merge_set_digest",
            ),
            (
                "SELECT make_set_digest(v) FROM (VALUES 1e0) t(v)",
                "FUNCTION_IMPLEMENTATION_MISSING: Unsupported type parameters (system.builtin.make_set_digest(double):SetDigest) for <T>(t):setdigest",
            ),
            // Bytes that are not a digest are refused when read with Trino's error name (its
            // message, "Unexpected version", stays inside the stand-in as internal errors do).
            (
                "SELECT cardinality(CAST(X'00' AS setdigest))",
                "GENERIC_INTERNAL_ERROR: a function met a value it cannot read",
            ),
        ],
    );
}

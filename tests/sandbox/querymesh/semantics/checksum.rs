//! `checksum(x)`: Trino's ChecksumAggregationFunction — the wrapping sum of
//! `xxHash64(x) * PRIME64` (PRIME64 for a NULL) as 8 little-endian bytes, NULL without rows —
//! checked against that formula computed here, and its order-insensitivity, as
//! TestChecksumAggregation checks it.

use base64::Engine as _;
use serde_json::{Value, json};

use super::check_values;
use crate::support::engine::{engine, run};

const PRIME64: u64 = 0x9E37_79B1_85EB_CA87;

/// The checksum of bigints (None = NULL) as Trino's protocol carries the varbinary: base64.
fn expected(values: &[Option<i64>]) -> Value {
    let sum = values.iter().fold(0u64, |sum, v| {
        let h = v.map_or(1, |v| xxhash_rust::xxh64::xxh64(&v.to_le_bytes(), 0));
        sum.wrapping_add(h.wrapping_mul(PRIME64))
    });
    json!(base64::engine::general_purpose::STANDARD.encode(sum.to_le_bytes()))
}

#[test]
fn checksum_is_trinos_order_insensitive_hash_sum() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT checksum(x) FROM (VALUES BIGINT '1', NULL, BIGINT '-7') t(x)",
                "varbinary",
                expected(&[Some(1), None, Some(-7)]),
            ),
            (
                "SELECT checksum(DISTINCT x) FROM (VALUES 3, 3, 5) t(x)",
                "varbinary",
                expected(&[Some(3), Some(5)]),
            ),
            (
                "SELECT checksum(x) FROM (VALUES 1) t(x) WHERE x > 1",
                "varbinary",
                Value::Null,
            ),
            (
                "SELECT checksum(x) FROM (VALUES CAST(NULL AS bigint)) t(x)",
                "varbinary",
                expected(&[None]),
            ),
            (
                "SELECT checksum(nationkey) FROM tpch.tiny.nation",
                "varbinary",
                expected(&(0..25).map(Some).collect::<Vec<_>>()),
            ),
            // DoubleType's XX_HASH_64 makes -0 equal to 0.
            (
                "SELECT checksum(x) = checksum(-x) FROM (VALUES 0e0) t(x)",
                "boolean",
                json!(true),
            ),
            // A date hashes as its days since the epoch, as bigints do.
            (
                "SELECT checksum(d) = (SELECT checksum(x) FROM (VALUES BIGINT '1') t(x)) FROM (VALUES DATE '1970-01-02') t(d)",
                "boolean",
                json!(true),
            ),
        ],
    );
    // Order-insensitive: the same multiset in another order, and a different one.
    let answer = |sql: &str| run(&engine, sql).map(|a| a.rows[0][0].clone());
    let by_name = answer("SELECT checksum(name) FROM tpch.tiny.nation");
    let reordered = answer(
        "SELECT checksum(name) FROM (SELECT name FROM tpch.tiny.nation ORDER BY name DESC LIMIT 25)",
    );
    let fewer = answer("SELECT checksum(name) FROM tpch.tiny.nation WHERE nationkey > 0");
    assert!(by_name.is_ok());
    assert_eq!(by_name, reordered);
    assert_ne!(by_name, fewer);
    // An array hashes as 31·h + each element's hash (ArrayType.hashOperator), so ARRAY[1]
    // as 1; a NULL element as 0. Trino 476's bytes.
    check_values(
        &engine,
        &[
            (
                "SELECT checksum(ARRAY[1])",
                "varbinary",
                json!("k4/DCrUt5dQ="),
            ),
            (
                "SELECT checksum(x) FROM (VALUES ARRAY[1, NULL, 3], ARRAY[], NULL) t(x)",
                "varbinary",
                json!("oSVSBQT+sJ0="),
            ),
            // A map hashes as the sum of hash(key) ^ hash(value) (MapType's hash operator):
            // its entries' order does not count, a NULL value hashes as 0. Trino 476's bytes.
            (
                "SELECT checksum(MAP(ARRAY[1], ARRAY[2]))",
                "varbinary",
                json!("gzGPj6gJEqc="),
            ),
            (
                "SELECT checksum(m) FROM (VALUES MAP(ARRAY['a', 'b'], ARRAY[1, NULL]), \
                 MAP(ARRAY['b', 'a'], ARRAY[NULL, 1]), NULL) t(m)",
                "varbinary",
                json!("RS/L62PLvC0="),
            ),
            (
                "SELECT checksum(ARRAY[MAP(ARRAY[1], ARRAY[2])])",
                "varbinary",
                json!("gzGPj6gJEqc="),
            ),
        ],
    );
    // A row hashes as 31·h + each field's HASH_CODE from h = 1 (RowType builds its XX_HASH_64
    // from its fields' HASH_CODE operators): the types held as a long mix it as
    // AbstractLongType.hash does, booleans, strings, json, varbinary and long decimals as their
    // XX_HASH_64, containers inside from their elements' HASH_CODE. Trino 476's bytes.
    check_values(
        &engine,
        &[
            (
                "SELECT checksum(ROW(1, 2))",
                "varbinary",
                json!("dtYV4y99+xA="),
            ),
            (
                "SELECT checksum(ROW(1, NULL))",
                "varbinary",
                json!("ybXd76kAQbo="),
            ),
            (
                "SELECT checksum(ROW(-1))",
                "varbinary",
                json!("asznoOIPFuk="),
            ),
            (
                "SELECT checksum(ROW(TINYINT '1'))",
                "varbinary",
                json!("F+0flGiM0D8="),
            ),
            (
                "SELECT checksum(ROW(true))",
                "varbinary",
                json!("7BVRQjTqnP0="),
            ),
            (
                "SELECT checksum(ROW(false))",
                "varbinary",
                json!("9rOjsOsMSRM="),
            ),
            (
                "SELECT checksum(ROW(DOUBLE '1.5'))",
                "varbinary",
                json!("WYYRe4r5CcU="),
            ),
            (
                "SELECT checksum(ROW(DOUBLE '-0.0'))",
                "varbinary",
                json!("WYaNN3+8tyg="),
            ),
            (
                "SELECT checksum(ROW(REAL '-1.5'))",
                "varbinary",
                json!("0dQeFiWEB7o="),
            ),
            (
                "SELECT checksum(ROW('ab'))",
                "varbinary",
                json!("gEkgqhR5Kvk="),
            ),
            (
                "SELECT checksum(ROW(CHAR 'ab '))",
                "varbinary",
                json!("gEkgqhR5Kvk="),
            ),
            (
                "SELECT checksum(ROW(CAST('x' AS varbinary)))",
                "varbinary",
                json!("zi1ZbhXVPU8="),
            ),
            (
                "SELECT checksum(ROW(DATE '1970-01-02'))",
                "varbinary",
                json!("F+0flGiM0D8="),
            ),
            (
                "SELECT checksum(ROW(TIMESTAMP '1970-01-01 00:00:01'))",
                "varbinary",
                json!("nX+GaB5hsBc="),
            ),
            (
                "SELECT checksum(ROW(DECIMAL '1.50'))",
                "varbinary",
                json!("I6zT98ImLSI="),
            ),
            (
                "SELECT checksum(ROW(DECIMAL '12345678901234567890.5'))",
                "varbinary",
                json!("8S+GQvLkbDY="),
            ),
            (
                "SELECT checksum(ROW(INTERVAL '1' DAY))",
                "varbinary",
                json!("ykv9LV1CX/Y="),
            ),
            (
                "SELECT checksum(ROW(INTERVAL '1' MONTH))",
                "varbinary",
                json!("F+0flGiM0D8="),
            ),
            (
                "SELECT checksum(ROW(ARRAY[1, 2]))",
                "varbinary",
                json!("CBiAYEdmc0s="),
            ),
            (
                "SELECT checksum(ROW(MAP(ARRAY[1], ARRAY[2])))",
                "varbinary",
                json!("qKtcm8/OSS4="),
            ),
            (
                "SELECT checksum(ROW(ROW(1)))",
                "varbinary",
                json!("cHOty+dIiGg="),
            ),
            (
                "SELECT checksum(MAP(ARRAY[1], ARRAY[ROW(1)]))",
                "varbinary",
                json!("vL9PF07pftY="),
            ),
            // json hashes its canonical text.
            (
                "SELECT checksum(ROW(JSON '1'))",
                "varbinary",
                json!("JfqQqF8OwuM="),
            ),
            (
                "SELECT checksum(ROW(JSON '{\"a\": 1}'))",
                "varbinary",
                json!("Ucm5o0Mnl9A="),
            ),
            (
                "SELECT checksum(ARRAY[JSON '[1, 2]'])",
                "varbinary",
                json!("CTn6i6p6N8U="),
            ),
        ],
    );
}

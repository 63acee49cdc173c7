//! The order of the entries of a map Trino's map_agg makes: the order of its hash table.
//!
//! Trino 476's MapAggregationFunction keeps its entries in AbstractMapAggregationState, an
//! open-addressing table of 16 buckets to start with, doubled (every entry placed again, in
//! bucket order) once it holds 15/16 of its capacity. An entry's home bucket is bits 7 and up
//! of its key's hash (`hash >> 7 & mask`); it takes the first free bucket of the eight from
//! there, else the probe moves on by 1, 9, 17, … buckets. An ungrouped state answers its
//! entries in bucket order. The hash is the key type's HASH_CODE operator: for the integer
//! types and double `AbstractLongType.hash` (xxHash64's round: `rotateLeft(v × P2, 31) × P1`,
//! a double by its `doubleToLongBits`, -0 as 0), for varchar `XxHash64.hash` of its UTF-8
//! bytes.
//!
//! Which state answers depends on the plan (map/mod.rs `map_agg`): a global aggregation
//! reading a table runs twice, a partial state per split and a final one adding the
//! partial's entries in its order; over VALUES, with ORDER BY, and over a window's frame it
//! runs once. (A table of several splits merges their partial states in the order they
//! finish; only keys that meet in the final table's probing can tell.) A GROUP BY's state
//! is one table shared by every group of the query, each group's entries linked newest
//! first; a group's order then depends on the other groups' keys, so it is not reproduced.

use serde_json::Value;

/// How a key type hashes, for the types whose order is reproduced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KeyHash {
    /// tinyint, smallint, integer, bigint: `AbstractLongType.hash` of the value.
    Long,
    /// double: `AbstractLongType.hash` of `doubleToLongBits`.
    Double,
    /// varchar: xxHash64 of the UTF-8 bytes, seed 0.
    Varchar,
}

impl KeyHash {
    pub fn for_type(ty: &querymesh_values::types::TrinoType) -> Option<Self> {
        use querymesh_values::types::TrinoType;
        match ty {
            t if t.is_integral() => Some(Self::Long),
            TrinoType::Double => Some(Self::Double),
            TrinoType::Varchar(_) => Some(Self::Varchar),
            _ => None,
        }
    }

    /// The name the lowering passes to SQLite.
    pub fn name(self) -> &'static str {
        match self {
            Self::Long => "long",
            Self::Double => "double",
            Self::Varchar => "varchar",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        [Self::Long, Self::Double, Self::Varchar]
            .into_iter()
            .find(|k| k.name() == name)
    }

    /// The key's hash; None for a value of another shape (the order is then left alone).
    fn hash(self, key: &Value) -> Option<u64> {
        match (self, key) {
            (Self::Long, Value::Number(n)) => Some(long_hash(n.as_i64()? as u64)),
            (Self::Double, _) => {
                let x = match key {
                    Value::Number(n) => n.as_f64()?,
                    Value::String(s) => match s.as_str() {
                        "NaN" => f64::NAN,
                        "Infinity" => f64::INFINITY,
                        "-Infinity" => f64::NEG_INFINITY,
                        _ => return None,
                    },
                    _ => return None,
                };
                Some(long_hash(double_to_long_bits(x)))
            }
            (Self::Varchar, Value::String(s)) => Some(xxhash_rust::xxh64::xxh64(s.as_bytes(), 0)),
            _ => None,
        }
    }
}

const PRIME64_1: u64 = 0x9E37_79B1_85EB_CA87;
const PRIME64_2: u64 = 0xC2B2_AE3D_27D4_EB4F;

/// `AbstractLongType.hash`: one round of xxHash64.
fn long_hash(v: u64) -> u64 {
    v.wrapping_mul(PRIME64_2)
        .rotate_left(31)
        .wrapping_mul(PRIME64_1)
}

/// Java's `doubleToLongBits` after DoubleType's `if (value == 0) value = 0`: one NaN, one
/// zero.
fn double_to_long_bits(x: f64) -> u64 {
    if x.is_nan() {
        0x7ff8_0000_0000_0000
    } else if x == 0.0 {
        0
    } else {
        x.to_bits()
    }
}

/// Bytes of control read at once, as Trino's VECTOR_LENGTH.
const VECTOR: usize = 8;

/// The positions of `hashes` (distinct keys, in the order they were added) in the order an
/// ungrouped state answers them.
fn table_order(hashes: &[u64]) -> Vec<usize> {
    let mut capacity = 16usize;
    let mut slots: Vec<Option<usize>> = vec![None; capacity];
    let mut size = 0usize;
    for (entry, _) in hashes.iter().enumerate() {
        place(&mut slots, hashes, entry);
        size += 1;
        if size >= capacity / 16 * 15 {
            capacity *= 2;
            let old = std::mem::replace(&mut slots, vec![None; capacity]);
            for e in old.into_iter().flatten() {
                place(&mut slots, hashes, e);
            }
        }
    }
    slots.into_iter().flatten().collect()
}

/// Puts `entry` in the first free bucket of its probe sequence.
fn place(slots: &mut [Option<usize>], hashes: &[u64], entry: usize) {
    let mask = slots.len() - 1;
    let mut bucket = (hashes[entry] >> 7) as usize & mask;
    let mut step = 1;
    loop {
        if let Some(free) = (0..VECTOR)
            .map(|i| (bucket + i) & mask)
            .find(|&b| slots[b].is_none())
        {
            slots[free] = Some(entry);
            return;
        }
        bucket = (bucket + step) & mask;
        step += VECTOR;
    }
}

/// The order (indices into `keys`, distinct keys in the order they came) Trino answers a
/// map_agg of them in, through `passes` states (2: partial and final); None when a key does
/// not hash as `kind` expects.
pub fn trino_order(kind: KeyHash, keys: &[&Value], passes: usize) -> Option<Vec<usize>> {
    let hashes: Vec<u64> = keys.iter().map(|k| kind.hash(k)).collect::<Option<_>>()?;
    let mut order: Vec<usize> = (0..keys.len()).collect();
    for _ in 0..passes {
        let in_order: Vec<u64> = order.iter().map(|&i| hashes[i]).collect();
        order = table_order(&in_order)
            .into_iter()
            .map(|i| order[i])
            .collect();
    }
    Some(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ordered(kind: KeyHash, keys: &[Value], passes: usize) -> Vec<Value> {
        let refs: Vec<&Value> = keys.iter().collect();
        trino_order(kind, &refs, passes)
            .unwrap_or_default()
            .into_iter()
            .map(|i| keys[i].clone())
            .collect()
    }

    #[test]
    fn bigint_keys_in_trinos_bucket_order() {
        // map_agg(nationkey, name ORDER BY nationkey DESC) over region 0's nations, and
        // map_agg(x, x) OVER a frame of 1, 2 (Trino 476).
        let keys = [json!(16), json!(15), json!(14), json!(5), json!(0)];
        assert_eq!(
            ordered(KeyHash::Long, &keys, 1),
            [json!(0), json!(16), json!(15), json!(5), json!(14)]
        );
        assert_eq!(
            ordered(KeyHash::Long, &[json!(1), json!(2)], 1),
            [json!(2), json!(1)]
        );
        // The 25 nation keys grow the table once (map_agg(nationkey, name) FROM nation).
        let all: Vec<Value> = (0..25).map(|n| json!(n)).collect();
        let expected = [
            0, 3, 8, 13, 18, 7, 2, 10, 5, 15, 20, 14, 4, 9, 12, 17, 22, 16, 11, 1, 6, 19, 21, 24,
            23,
        ];
        assert_eq!(
            ordered(KeyHash::Long, &all, 2),
            expected.iter().map(|n| json!(n)).collect::<Vec<_>>()
        );
        let descending: Vec<Value> = (0..25).rev().map(|n| json!(n)).collect();
        let expected = [
            18, 13, 8, 3, 0, 7, 20, 15, 10, 5, 2, 14, 22, 17, 12, 9, 4, 21, 16, 24, 19, 11, 6, 1,
            23,
        ];
        assert_eq!(
            ordered(KeyHash::Long, &descending, 1),
            expected.iter().map(|n| json!(n)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn varchar_keys_by_xxhash64() {
        // map_agg(name, nationkey) FROM nation WHERE regionkey = 1 (Trino 476).
        let names = ["ARGENTINA", "BRAZIL", "CANADA", "PERU", "UNITED STATES"].map(|n| json!(n));
        assert_eq!(
            ordered(KeyHash::Varchar, &names, 2),
            ["ARGENTINA", "BRAZIL", "PERU", "UNITED STATES", "CANADA"].map(|n| json!(n))
        );
    }

    #[test]
    fn a_key_of_another_shape_leaves_the_order_alone() {
        assert_eq!(trino_order(KeyHash::Long, &[&json!("a")], 1), None);
    }
}

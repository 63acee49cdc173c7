//! The order Trino 476 prints a table scan's column assignments in.
//!
//! UnaliasSymbolReferences (core/trino-main/.../optimizations/UnaliasSymbolReferences.java,
//! `visitTableScan`) copies the scan's assignments, in the table's column order, into a plain
//! `java.util.HashMap<Symbol, ColumnHandle>`, and the printer iterates that map. A `Symbol` is
//! a record of (type, name), hashed `31 * type.hashCode() + name.hashCode()`; bigint, integer,
//! double and date hash as their class's identity hash, varchar(n) as `31 * n` plus its
//! class's. Identity hashes are a JVM process's own: the order is the same for every restart
//! of one Trino installation on a data directory it has used, and another one on its first
//! start on an empty directory (the parity suite compares assignments as a set for that
//! reason). The hashes here are those of Trino 476 on Temurin 25 after a restart, the Trino
//! the stand-in's expected plans were taken from.

use crate::types::TrinoType;

/// Identity hash codes of the type classes of tpch's columns in Trino 476 (read from its JVM).
const BIGINT_CLASS: i32 = 650_608_468;
const INTEGER_CLASS: i32 = 113_042_195;
const DOUBLE_CLASS: i32 = 351_249_017;
const DATE_CLASS: i32 = 1_461_216_550;
const VARCHAR_CLASS: i32 = 871_019_240;

/// Java's `String.hashCode`.
fn string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, unit| {
        h.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// The type's `hashCode` in Trino 476; `None` for a type tpch has none of.
fn type_hash(ty: &TrinoType) -> Option<i32> {
    Some(match ty {
        TrinoType::BigInt => BIGINT_CLASS,
        TrinoType::Integer => INTEGER_CLASS,
        TrinoType::Double => DOUBLE_CLASS,
        TrinoType::Date => DATE_CLASS,
        // Unbounded varchar has length Integer.MAX_VALUE.
        TrinoType::Varchar(length) => {
            let length = length.map_or(Ok(i32::MAX), i32::try_from).ok()?;
            length.wrapping_mul(31).wrapping_add(VARCHAR_CLASS)
        }
        _ => return None,
    })
}

/// HashMap's bucket of a hash in a table of `capacity` (a power of two).
fn bucket(hash: i32, capacity: usize) -> usize {
    let h = hash as u32;
    (h ^ (h >> 16)) as usize & (capacity - 1)
}

/// The iteration order of a `java.util.HashMap` (16 buckets, load factor 0.75) filled with
/// `hashes` in order: bucket by bucket, each bucket in insertion order. A bucket of more than
/// eight keys doubles a table smaller than 64 and makes a tree of a larger one, whose order
/// this does not model (`None`).
fn hash_map_order(hashes: &[i32]) -> Option<Vec<usize>> {
    let mut capacity = 16usize;
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); capacity];
    let resize = |buckets: &[Vec<usize>], capacity: usize| {
        let mut grown = vec![Vec::new(); capacity];
        for &i in buckets.iter().flatten() {
            grown[bucket(hashes[i], capacity)].push(i);
        }
        grown
    };
    for (i, &hash) in hashes.iter().enumerate() {
        let slot = bucket(hash, capacity);
        buckets[slot].push(i);
        if buckets[slot].len() > 8 {
            if capacity >= 64 {
                return None;
            }
            capacity *= 2;
            buckets = resize(&buckets, capacity);
        }
        if i + 1 > capacity / 4 * 3 {
            capacity *= 2;
            buckets = resize(&buckets, capacity);
        }
    }
    Some(buckets.into_iter().flatten().collect())
}

/// The order of a scan's `columns` (symbol name and type, in the table's order) as Trino
/// prints them; `None` when a type or a bucket is beyond the model.
pub(super) fn order(columns: &[(&str, TrinoType)]) -> Option<Vec<usize>> {
    let hashes: Option<Vec<i32>> = columns
        .iter()
        .map(|(name, ty)| {
            Some(
                type_hash(ty)?
                    .wrapping_mul(31)
                    .wrapping_add(string_hash(name)),
            )
        })
        .collect();
    hash_map_order(&hashes?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tpch;

    /// The table's columns in the order Trino 476 printed `SELECT *`'s scan.
    fn printed(table: &str) -> Vec<&'static str> {
        let (_, columns) = tpch::tables()
            .into_iter()
            .find(|(name, _)| *name == table)
            .expect("a tpch table");
        let order = order(&columns).expect("modelled");
        order.into_iter().map(|i| columns[i].0).collect()
    }

    /// Trino 476's EXPLAIN SELECT * of each table (the same Trino as the hashes above).
    #[test]
    fn every_tables_scan_prints_as_trinos() {
        assert_eq!(printed("region"), ["regionkey", "name", "comment"]);
        assert_eq!(
            printed("nation"),
            ["regionkey", "name", "nationkey", "comment"]
        );
        assert_eq!(
            printed("orders"),
            [
                "shippriority",
                "orderpriority",
                "orderdate",
                "comment",
                "orderstatus",
                "orderkey",
                "custkey",
                "totalprice",
                "clerk"
            ]
        );
        assert_eq!(
            printed("part"),
            [
                "name",
                "type",
                "mfgr",
                "size",
                "partkey",
                "container",
                "retailprice",
                "brand",
                "comment"
            ]
        );
        assert_eq!(
            printed("lineitem"),
            [
                "linestatus",
                "shipmode",
                "discount",
                "orderkey",
                "shipdate",
                "receiptdate",
                "comment",
                "returnflag",
                "suppkey",
                "commitdate",
                "tax",
                "linenumber",
                "shipinstruct",
                "extendedprice",
                "partkey",
                "quantity"
            ]
        );
    }

    #[test]
    fn two_columns_of_nation() {
        let columns = [
            ("name", TrinoType::Varchar(Some(25))),
            ("regionkey", TrinoType::BigInt),
        ];
        assert_eq!(order(&columns), Some(vec![1, 0]));
        let columns = [
            ("nationkey", TrinoType::BigInt),
            ("comment", TrinoType::Varchar(Some(152))),
        ];
        assert_eq!(order(&columns), Some(vec![0, 1]));
    }

    #[test]
    fn types_tpch_has_none_of_are_beyond_the_model() {
        assert_eq!(order(&[("x", TrinoType::Boolean)]), None);
    }

    #[test]
    fn java_string_hashes() {
        assert_eq!(string_hash("name"), 3_373_707);
        assert_eq!(string_hash(""), 0);
    }
}

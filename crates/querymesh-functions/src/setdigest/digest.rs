//! A set digest (Trino docs functions/setdigest; Trino's `SetDigest`): a HyperLogLog of 2048
//! buckets for the cardinality of large sets, and a MinHash of the smallest hashes seen,
//! each with how often it was seen, capped at 8192 hashes — the digest's memory is bounded
//! whatever the input. While fewer than the cap are held the MinHash is the exact set of
//! hashes, and the cardinality and intersections are exact.
//!
//! Serialized as Trino does, little-endian: a format byte (1), the HyperLogLog's length and
//! bytes (hll.rs), the cap, the number of hashes, the hashes in ascending order, then their
//! counts as 16-bit integers in the same order.

use std::collections::BTreeMap;

use crate::sketch::bytes::{Reader, Unreadable};
use crate::sketch::hll::Hll;
use crate::sketch::murmur3;

const FORMAT: u8 = 1;
/// SetDigest.NUMBER_OF_BUCKETS: 2^11.
const HLL_INDEX_BITS: u8 = 11;
/// SetDigest.DEFAULT_MAX_HASHES.
pub const DEFAULT_MAX_HASHES: i32 = 8192;

#[derive(Clone, Debug)]
pub struct SetDigest {
    hll: Hll,
    /// hash → how many times it was added (saturating at i16::MAX).
    minhash: BTreeMap<i64, i16>,
    max_hashes: i32,
}

impl Default for SetDigest {
    fn default() -> Self {
        SetDigest {
            hll: Hll::new(HLL_INDEX_BITS),
            minhash: BTreeMap::new(),
            max_hashes: DEFAULT_MAX_HASHES,
        }
    }
}

impl SetDigest {
    pub fn read(bytes: &[u8]) -> Result<SetDigest, Unreadable> {
        let mut input = Reader::new(bytes);
        if input.u8()? != FORMAT {
            return Err(Unreadable::new("Unexpected version"));
        }
        let hll_length = usize::try_from(input.i32()?)
            .map_err(|_| Unreadable::new("negative HyperLogLog length"))?;
        let hll = Hll::read(input.bytes(hll_length)?)?;
        let max_hashes = input.i32()?;
        let count = usize::try_from(input.i32()?)
            .map_err(|_| Unreadable::new("negative number of hashes"))?;
        // Checked before reading, so a corrupt count cannot make the map large.
        let keys = input.bytes(count.saturating_mul(8))?;
        let counts = input.bytes(count.saturating_mul(2))?;
        let minhash = keys
            .chunks_exact(8)
            .zip(counts.chunks_exact(2))
            .map(|(k, c)| {
                let mut key = [0; 8];
                key.copy_from_slice(k);
                (i64::from_le_bytes(key), i16::from_le_bytes([c[0], c[1]]))
            })
            .collect();
        Ok(SetDigest {
            hll,
            minhash,
            max_hashes,
        })
    }

    pub fn write(&self) -> Vec<u8> {
        let hll = self.hll.write();
        let mut out = Vec::with_capacity(13 + hll.len() + 10 * self.minhash.len());
        out.push(FORMAT);
        out.extend_from_slice(&(hll.len() as i32).to_le_bytes());
        out.extend_from_slice(&hll);
        out.extend_from_slice(&self.max_hashes.to_le_bytes());
        out.extend_from_slice(&(self.minhash.len() as i32).to_le_bytes());
        for key in self.minhash.keys() {
            out.extend_from_slice(&key.to_le_bytes());
        }
        for count in self.minhash.values() {
            out.extend_from_slice(&count.to_le_bytes());
        }
        out
    }

    /// Adds a value Trino holds as a long (bigint, integer, date, short decimal, …).
    pub fn add_long(&mut self, value: i64) {
        self.add_hash(murmur3::hash_long(value));
    }

    /// Adds a value Trino holds as bytes (varchar, varbinary, json, uuid).
    pub fn add_bytes(&mut self, value: &[u8]) {
        self.add_hash(murmur3::hash_bytes(value));
    }

    fn add_hash(&mut self, hash: i64) {
        let count = self.minhash.entry(hash).or_insert(0);
        *count = count.saturating_add(1);
        self.keep_smallest();
        self.hll.add_hash(hash);
    }

    /// Drops the largest hashes beyond the cap.
    fn keep_smallest(&mut self) {
        let cap = usize::try_from(self.max_hashes).unwrap_or(0);
        while self.minhash.len() > cap && self.minhash.pop_last().is_some() {}
    }

    pub fn merge(&mut self, other: &SetDigest) -> Result<(), Unreadable> {
        self.hll.merge(&other.hll)?;
        for (hash, count) in &other.minhash {
            let mine = self.minhash.entry(*hash).or_insert(0);
            *mine = mine.saturating_add(*count);
        }
        self.keep_smallest();
        Ok(())
    }

    /// Exact while the MinHash holds fewer hashes than its cap (at the cap it may have dropped
    /// some, so it is not).
    pub fn is_exact(&self) -> bool {
        (self.minhash.len() as i64) < i64::from(self.max_hashes)
    }

    pub fn cardinality(&self) -> i64 {
        if self.is_exact() {
            self.minhash.len() as i64
        } else {
            self.hll.cardinality()
        }
    }

    /// The hashes and their counts, in ascending order of hash.
    pub fn hash_counts(&self) -> impl Iterator<Item = (i64, i16)> + '_ {
        self.minhash.iter().map(|(h, c)| (*h, *c))
    }
}

/// The share of the smallest hashes of the union that both digests hold, among as many of
/// them as the smaller MinHash has (SetDigest.jaccardIndex).
pub fn jaccard_index(a: &SetDigest, b: &SetDigest) -> f64 {
    let smaller = a.minhash.len().min(b.minhash.len());
    let mut union: Vec<i64> = a.minhash.keys().chain(b.minhash.keys()).copied().collect();
    union.sort_unstable();
    union.dedup();
    let mut both = 0usize;
    // Trino looks at the first hash even when a MinHash is empty.
    for hash in union.iter().take(smaller.max(1)) {
        if a.minhash.contains_key(hash) && b.minhash.contains_key(hash) {
            both += 1;
        }
    }
    both as f64 / smaller as f64
}

/// intersection_cardinality: exact when both digests are; otherwise the Jaccard index times
/// the union's cardinality, at most the smaller set's (SetDigestFunctions).
pub fn intersection_cardinality(a: &SetDigest, b: &SetDigest) -> Result<i64, Unreadable> {
    if a.is_exact() && b.is_exact() {
        return Ok(a
            .minhash
            .keys()
            .filter(|h| b.minhash.contains_key(h))
            .count() as i64);
    }
    let (of_a, of_b) = (a.cardinality(), b.cardinality());
    let jaccard = jaccard_index(a, b);
    let mut union = a.clone();
    union.merge(b)?;
    let estimate = (jaccard * union.cardinality() as f64 + 0.5).floor() as i64;
    Ok(estimate.min(of_a.min(of_b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of_longs(values: impl IntoIterator<Item = i64>) -> SetDigest {
        let mut d = SetDigest::default();
        for v in values {
            d.add_long(v);
        }
        d
    }

    // The bytes Trino 476 gives for
    // `SELECT CAST(make_set_digest(v) AS varbinary) FROM (VALUES 1, 2, 3) t(v)`.
    #[test]
    fn writes_trinos_bytes() {
        let expected: &[u8] = b"\x01\x10\x00\x00\x00\x02\x0b\x03\x00\x80\x03D\x00\x00X=[\x80 \x08\xde\x00 \x00\x00\x03\x00\x00\x00\xa8\xc0vl\xa0 \x08\xdeJ\xc4\x05\xfb\xb7\x03D\x00\x0c\x8bH\xb29X=[\x01\x00\x01\x00\x01\x00";
        assert_eq!(of_longs([1, 2, 3]).write(), expected);
        let mut a = SetDigest::default();
        a.add_bytes(b"a");
        let expected: &[u8] = b"\x01\x08\x00\x00\x00\x02\x0b\x01\x00@UU\x85\x00 \x00\x00\x01\x00\x00\x00\x89xY\xf6eUU\x85\x01\x00";
        assert_eq!(a.write(), expected);
    }

    // docs functions/setdigest: hash_counts over (VALUES 7, 7, 7, 8, 8).
    #[test]
    fn counts_each_hash() {
        let d = of_longs([7, 7, 7, 8, 8]);
        let counts: Vec<_> = d.hash_counts().collect();
        assert_eq!(
            counts,
            vec![
                (3_522_142_095_546_486_706, 3),
                (4_145_513_480_871_534_457, 2)
            ]
        );
    }

    #[test]
    fn keeps_at_most_the_cap_of_hashes() {
        let d = of_longs(0..20_000);
        assert_eq!(d.minhash.len(), DEFAULT_MAX_HASHES as usize);
        assert!(!d.is_exact());
        let estimate = d.cardinality();
        assert!((19_000..21_000).contains(&estimate), "{estimate}");
        let read = SetDigest::read(&d.write()).map(|r| r.write());
        assert_eq!(read.ok(), Some(d.write()));
    }

    // docs functions/setdigest: intersection_cardinality and jaccard_index examples.
    #[test]
    fn intersects_exactly_while_exact() {
        let a = of_longs([5, 6, 7]);
        let b = of_longs([5, 6, 7, 8]);
        assert_eq!(intersection_cardinality(&a, &b), Ok(3));
        assert_eq!(
            jaccard_index(&of_longs([1, 2, 3]), &of_longs([4, 5, 6])),
            0.0
        );
        assert_eq!(jaccard_index(&a, &b), 1.0);
    }

    #[test]
    fn estimates_intersections_of_large_sets() {
        let a = of_longs(0..20_000);
        let b = of_longs(10_000..30_000);
        let estimate = intersection_cardinality(&a, &b).unwrap_or(0);
        assert!((8_000..12_000).contains(&estimate), "{estimate}");
    }

    #[test]
    fn refuses_bytes_that_are_not_a_digest() {
        assert_eq!(
            SetDigest::read(&[0]).err(),
            Some(Unreadable::new("Unexpected version"))
        );
        assert!(SetDigest::read(&[]).is_err());
        assert!(SetDigest::read(&[1, 0]).is_err());
        // A count of hashes far beyond the bytes.
        let mut d = of_longs([1]).write();
        let at = d.len() - 10 - 4;
        d[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(SetDigest::read(&d).is_err());
    }
}

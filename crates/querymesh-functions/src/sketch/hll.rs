//! airlift's `HyperLogLog`, kept and serialized as it does, so that the bytes are Trino's: the
//! `HyperLogLog` type of `approx_set` (4096 buckets) and the one inside a set digest (2048).
//!
//! It starts *sparse*: a sorted list of 32-bit entries, each the first 26 bits of a hash and
//! the number of zeros after them (format tag 2). Once the list would take more memory than
//! the dense form, it becomes *dense*: one 4-bit delta per bucket above a shared baseline,
//! with the rare values beyond 15 kept as overflows (format tag 3). The switch happens where
//! airlift's memory estimates cross: a list whose backing array (grown 10 entries at a time
//! as values arrive, exactly sized after a merge or a read) holds more than
//! (buckets / 2 + 16) / 4 entries — for 2048 buckets, 260, measured on Trino 476: a digest of
//! 251 distinct values is sparse, of 252 dense; a merge of 260 entries sparse, of 261 dense.
//! For 4096 buckets, 516: `approx_set` of 511 distinct values is sparse, of 512 dense.

use std::collections::BTreeMap;

use super::bytes::{Reader, Unreadable};
use super::hll_bias as bias;

const SPARSE_V2: u8 = 2;
const DENSE_V1: u8 = 1;
const DENSE_V2: u8 = 3;
/// A sparse entry: the hash's first 26 bits, then 6 bits counting the zeros after them.
const EXTENDED_PREFIX_BITS: u32 = 26;
const VALUE_BITS: u32 = 6;
const VALUE_MASK: u32 = (1 << VALUE_BITS) - 1;
const SPARSE_GROWTH: usize = 10;
const MAX_DELTA: u8 = 15;
const LINEAR_COUNTING_MIN_EMPTY_BUCKETS: f64 = 0.4;

#[derive(Clone, Debug)]
pub enum Hll {
    Sparse(Sparse),
    Dense(Dense),
}

#[derive(Clone, Debug)]
pub struct Sparse {
    index_bits: u8,
    /// Sorted by their 26-bit prefix.
    entries: Vec<u32>,
    /// The length of the Java array that would hold the entries: it decides when to go dense.
    capacity: usize,
}

#[derive(Clone, Debug)]
pub struct Dense {
    index_bits: u8,
    baseline: u8,
    /// How many buckets sit at the baseline (delta 0).
    baseline_count: usize,
    /// Two 4-bit deltas a byte, the even bucket in the high half.
    deltas: Vec<u8>,
    /// bucket → how far its value exceeds baseline + 15.
    overflows: BTreeMap<u32, u8>,
}

fn bucket_count(index_bits: u8) -> usize {
    1 << index_bits
}

/// The largest backing array of a sparse list before airlift's estimate of its memory
/// passes the dense form's: the dense deltas' bytes and the two objects' difference in size
/// (16 bytes), in 4-byte entries (see the module's comment).
fn sparse_capacity_before_dense(index_bits: u8) -> usize {
    (bucket_count(index_bits) / 2 + 16) / 4
}

/// The zeros after the first `index_bits` bits of `hash` (a 1 placed after the 64 bits keeps
/// an all-zero hash finite).
fn leading_zeros_after(hash: u64, index_bits: u32) -> u32 {
    ((hash << index_bits) | (1 << (index_bits - 1))).leading_zeros()
}

/// Java's `Math.round(double)`.
fn java_round(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

fn linear_counting(zero_buckets: usize, total_buckets: usize) -> f64 {
    total_buckets as f64 * (total_buckets as f64 / zero_buckets as f64).ln()
}

impl Hll {
    /// An empty HyperLogLog of `2^index_bits` buckets.
    pub fn new(index_bits: u8) -> Hll {
        Hll::Sparse(Sparse {
            index_bits,
            entries: Vec::new(),
            capacity: 1,
        })
    }

    pub fn read(bytes: &[u8]) -> Result<Hll, Unreadable> {
        match bytes.first() {
            Some(&SPARSE_V2) => Sparse::read(bytes).map(Hll::Sparse),
            Some(&DENSE_V1) | Some(&DENSE_V2) => Dense::read(bytes).map(Hll::Dense),
            Some(0) => Err(Unreadable::new("Sparse v1 encoding no longer supported")),
            _ => Err(Unreadable::new("Cannot deserialize HyperLogLog")),
        }
    }

    pub fn write(&self) -> Vec<u8> {
        match self {
            Hll::Sparse(s) => s.write(),
            Hll::Dense(d) => d.write(),
        }
    }

    pub fn add_hash(&mut self, hash: i64) {
        match self {
            Hll::Sparse(s) => {
                s.insert_hash(hash as u64);
                self.dense_if_larger();
            }
            Hll::Dense(d) => d.insert_hash(hash as u64),
        }
    }

    pub fn merge(&mut self, other: &Hll) -> Result<(), Unreadable> {
        if let (Hll::Sparse(mine), Hll::Sparse(theirs)) = (&mut *self, other) {
            mine.merge(theirs);
            self.dense_if_larger();
            return Ok(());
        }
        let mut dense = self.to_dense();
        match other {
            Hll::Dense(theirs) => dense.merge(theirs)?,
            Hll::Sparse(theirs) => dense.merge(&theirs.to_dense())?,
        }
        *self = Hll::Dense(dense);
        Ok(())
    }

    pub fn cardinality(&self) -> i64 {
        match self {
            Hll::Sparse(s) => s.cardinality(),
            Hll::Dense(d) => d.cardinality(),
        }
    }

    /// The same HyperLogLog in its dense form (airlift's `makeDense`, what a cast to
    /// P4HyperLogLog keeps).
    pub fn made_dense(&self) -> Hll {
        Hll::Dense(self.to_dense())
    }

    fn to_dense(&self) -> Dense {
        match self {
            Hll::Sparse(s) => s.to_dense(),
            Hll::Dense(d) => d.clone(),
        }
    }

    fn dense_if_larger(&mut self) {
        if let Hll::Sparse(s) = self
            && s.capacity > sparse_capacity_before_dense(s.index_bits)
        {
            *self = Hll::Dense(s.to_dense());
        }
    }
}

impl Sparse {
    fn read(bytes: &[u8]) -> Result<Sparse, Unreadable> {
        let mut input = Reader::new(bytes);
        input.u8()?;
        let index_bits = input.u8()?;
        if !(1..=EXTENDED_PREFIX_BITS as u8).contains(&index_bits) {
            return Err(Unreadable::new("indexBitLength is out of range"));
        }
        let count = usize::try_from(input.i16()?)
            .map_err(|_| Unreadable::new("negative number of entries"))?;
        let entries = (0..count)
            .map(|_| input.i32().map(|e| e as u32))
            .collect::<Result<Vec<_>, _>>()?;
        if !input.is_done() {
            return Err(Unreadable::new("input is too big"));
        }
        Ok(Sparse {
            index_bits,
            capacity: entries.len(),
            entries,
        })
    }

    fn write(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + 4 * self.entries.len());
        out.push(SPARSE_V2);
        out.push(self.index_bits);
        out.extend_from_slice(&(self.entries.len() as i16).to_le_bytes());
        for entry in &self.entries {
            out.extend_from_slice(&entry.to_le_bytes());
        }
        out
    }

    fn prefix(entry: u32) -> u32 {
        entry >> VALUE_BITS
    }

    fn value(entry: u32) -> u32 {
        entry & VALUE_MASK
    }

    fn insert_hash(&mut self, hash: u64) {
        let prefix = (hash >> (64 - EXTENDED_PREFIX_BITS)) as u32;
        let zeros = leading_zeros_after(hash, EXTENDED_PREFIX_BITS);
        let entry = (prefix << VALUE_BITS) | zeros;
        match self
            .entries
            .binary_search_by_key(&prefix, |e| Self::prefix(*e))
        {
            Ok(at) => {
                if Self::value(self.entries[at]) < zeros {
                    self.entries[at] = entry;
                }
            }
            Err(at) => {
                if self.entries.len() + 1 > self.capacity {
                    self.capacity += SPARSE_GROWTH;
                }
                self.entries.insert(at, entry);
            }
        }
    }

    fn merge(&mut self, other: &Sparse) {
        let mut merged = Vec::with_capacity(self.entries.len() + other.entries.len());
        let (mut left, mut right) = (
            self.entries.iter().peekable(),
            other.entries.iter().peekable(),
        );
        loop {
            match (left.peek(), right.peek()) {
                (Some(&&l), Some(&&r)) => {
                    let (lp, rp) = (Self::prefix(l), Self::prefix(r));
                    if lp < rp {
                        merged.push(l);
                        left.next();
                    } else if lp > rp {
                        merged.push(r);
                        right.next();
                    } else {
                        merged.push((lp << VALUE_BITS) | Self::value(l).max(Self::value(r)));
                        left.next();
                        right.next();
                    }
                }
                (Some(&&l), None) => {
                    merged.push(l);
                    left.next();
                }
                (None, Some(&&r)) => {
                    merged.push(r);
                    right.next();
                }
                (None, None) => break,
            }
        }
        self.capacity = merged.len();
        self.entries = merged;
    }

    /// Linear counting over the 2^26 prefixes the entries record.
    fn cardinality(&self) -> i64 {
        let total = 1usize << EXTENDED_PREFIX_BITS;
        java_round(linear_counting(total - self.entries.len(), total))
    }

    fn to_dense(&self) -> Dense {
        let mut dense = Dense::new(self.index_bits);
        let index_bits = u32::from(self.index_bits);
        for &entry in &self.entries {
            let bucket = entry >> (32 - index_bits);
            let mut zeros = (entry << index_bits).leading_zeros();
            let bits = EXTENDED_PREFIX_BITS - index_bits;
            if zeros >= bits {
                zeros = bits + Self::value(entry);
            }
            dense.insert(bucket, zeros as i32 + 1);
        }
        dense
    }
}

impl Dense {
    fn new(index_bits: u8) -> Dense {
        let buckets = bucket_count(index_bits);
        Dense {
            index_bits,
            baseline: 0,
            baseline_count: buckets,
            deltas: vec![0; buckets / 2],
            overflows: BTreeMap::new(),
        }
    }

    fn read(bytes: &[u8]) -> Result<Dense, Unreadable> {
        let mut input = Reader::new(bytes);
        let tag = input.u8()?;
        let index_bits = input.u8()?;
        if !(1..=16).contains(&index_bits) {
            return Err(Unreadable::new("indexBitLength is out of range"));
        }
        let buckets = bucket_count(index_bits);
        let mut dense = Dense::new(index_bits);
        dense.baseline = input.u8()?;
        dense.deltas = input.bytes(buckets / 2)?.to_vec();
        if tag == DENSE_V1 {
            let bucket = input.i16()?;
            let value = input.u8()? as i8;
            if bucket >= 0 && value > 0 {
                dense.overflows.insert(bucket as u32, value as u8);
            }
        } else {
            let count = usize::from(input.u16()?);
            if count > buckets {
                return Err(Unreadable::new(
                    "Overflow entries is greater than actual number of buckets (possibly corrupt input)",
                ));
            }
            let mut at = Vec::with_capacity(count);
            for _ in 0..count {
                let bucket = u32::from(input.u16()?);
                if bucket as usize > buckets {
                    return Err(Unreadable::new("Overflow bucket index is out of range"));
                }
                at.push(bucket);
            }
            for bucket in at {
                let value = input.u8()? as i8;
                if value <= 0 {
                    return Err(Unreadable::new("Overflow bucket value must be > 0"));
                }
                dense.overflows.insert(bucket, value as u8);
            }
        }
        dense.baseline_count = (0..buckets as u32).filter(|b| dense.delta(*b) == 0).count();
        if !input.is_done() {
            return Err(Unreadable::new("input is too big"));
        }
        Ok(dense)
    }

    fn write(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(5 + self.deltas.len() + 3 * self.overflows.len());
        out.extend_from_slice(&[DENSE_V2, self.index_bits, self.baseline]);
        out.extend_from_slice(&self.deltas);
        out.extend_from_slice(&(self.overflows.len() as u16).to_le_bytes());
        for bucket in self.overflows.keys() {
            out.extend_from_slice(&(*bucket as u16).to_le_bytes());
        }
        out.extend(self.overflows.values());
        out
    }

    fn shift(bucket: u32) -> u32 {
        ((!bucket) & 1) << 2
    }

    fn delta(&self, bucket: u32) -> u8 {
        self.deltas
            .get((bucket >> 1) as usize)
            .map_or(0, |slot| (slot >> Self::shift(bucket)) & 0x0f)
    }

    fn set_delta(&mut self, bucket: u32, delta: u8) {
        let shift = Self::shift(bucket);
        if let Some(slot) = self.deltas.get_mut((bucket >> 1) as usize) {
            *slot = (*slot & !(0x0f << shift)) | ((delta & 0x0f) << shift);
        }
    }

    fn overflow(&self, bucket: u32) -> i32 {
        self.overflows.get(&bucket).map_or(0, |v| i32::from(*v))
    }

    fn value(&self, bucket: u32) -> i32 {
        let delta = self.delta(bucket);
        let extra = if delta == MAX_DELTA {
            self.overflow(bucket)
        } else {
            0
        };
        i32::from(self.baseline) + i32::from(delta) + extra
    }

    fn insert_hash(&mut self, hash: u64) {
        let index_bits = u32::from(self.index_bits);
        let bucket = (hash >> (64 - index_bits)) as u32;
        let value = leading_zeros_after(hash, index_bits) as i32 + 1;
        self.insert(bucket, value);
    }

    fn insert(&mut self, bucket: u32, value: i32) {
        let mut delta = value - i32::from(self.baseline);
        let old = i32::from(self.delta(bucket));
        let max = i32::from(MAX_DELTA);
        if delta <= old || (old == max && delta <= old + self.overflow(bucket)) {
            return;
        }
        if delta > max {
            self.overflows.insert(bucket, (delta - max) as u8);
            delta = max;
        }
        self.set_delta(bucket, delta as u8);
        if old == 0 {
            self.baseline_count -= 1;
            self.raise_baseline_while_none_at_it();
        }
    }

    /// When no bucket is left at the baseline, the baseline rises and every delta (or its
    /// overflow) falls by one, until some bucket sits at it again.
    fn raise_baseline_while_none_at_it(&mut self) {
        while self.baseline_count == 0 {
            self.baseline = self.baseline.saturating_add(1);
            for bucket in 0..bucket_count(self.index_bits) as u32 {
                let mut delta = self.delta(bucket);
                let mut lowered_overflow = false;
                if delta == MAX_DELTA
                    && let Some(extra) = self.overflows.get_mut(&bucket)
                {
                    lowered_overflow = true;
                    *extra -= 1;
                    if *extra == 0 {
                        self.overflows.remove(&bucket);
                    }
                }
                if !lowered_overflow {
                    delta = delta.saturating_sub(1);
                    self.set_delta(bucket, delta);
                }
                if delta == 0 {
                    self.baseline_count += 1;
                }
            }
        }
    }

    fn merge(&mut self, other: &Dense) -> Result<(), Unreadable> {
        if self.index_bits != other.index_bits {
            return Err(Unreadable::new(format!(
                "Cannot merge HLLs with different number of buckets: {} vs {}",
                bucket_count(self.index_bits),
                bucket_count(other.index_bits)
            )));
        }
        let baseline = self.baseline.max(other.baseline);
        let mut at_baseline = 0;
        let max = i32::from(MAX_DELTA);
        for bucket in 0..bucket_count(self.index_bits) as u32 {
            let value = self.value(bucket).max(other.value(bucket));
            let mut delta = value - i32::from(baseline);
            if delta == 0 {
                at_baseline += 1;
            }
            if delta > max {
                self.overflows.insert(bucket, (delta - max) as u8);
                delta = max;
            } else {
                self.overflows.remove(&bucket);
            }
            self.set_delta(bucket, delta as u8);
        }
        self.baseline = baseline;
        self.baseline_count = at_baseline;
        self.raise_baseline_while_none_at_it();
        Ok(())
    }

    /// Linear counting while many buckets are empty, else HyperLogLog's estimate less
    /// HyperLogLog++'s empirical bias (DenseHll.cardinality).
    fn cardinality(&self) -> i64 {
        let buckets = bucket_count(self.index_bits);
        if self.baseline == 0
            && self.baseline_count as f64 > LINEAR_COUNTING_MIN_EMPTY_BUCKETS * buckets as f64
        {
            return java_round(linear_counting(self.baseline_count, buckets));
        }
        let sum: f64 = (0..buckets as u32)
            .map(|b| 1.0 / (1u64 << self.value(b).clamp(0, 63)) as f64)
            .sum();
        let m = buckets as f64;
        let estimate = alpha(self.index_bits) * m * m / sum;
        java_round(less_bias(estimate, self.index_bits))
    }
}

fn alpha(index_bits: u8) -> f64 {
    match index_bits {
        4 => 0.673,
        5 => 0.697,
        6 => 0.709,
        _ => 0.7213 / (1.0 + 1.079 / bucket_count(index_bits) as f64),
    }
}

/// The raw estimate less its bias (for the 2048 and 4096 buckets Trino makes; a HyperLogLog
/// of another size, which only hand-made bytes give, keeps its raw estimate). Outside the
/// measured range the estimate is kept, as airlift keeps it.
fn less_bias(raw: f64, index_bits: u8) -> f64 {
    let (estimates, biases) = match index_bits {
        11 => (&bias::RAW_ESTIMATES_11, &bias::BIAS_11),
        12 => (&bias::RAW_ESTIMATES_12, &bias::BIAS_12),
        _ => return raw,
    };
    let (Some(first), Some(last)) = (estimates.first(), estimates.last()) else {
        return raw;
    };
    if raw < *first || raw > *last {
        return raw;
    }
    let below = estimates.partition_point(|e| *e < raw);
    let bias = if estimates[below] == raw || below == 0 {
        biases[below]
    } else {
        let (x0, y0) = (estimates[below - 1], biases[below - 1]);
        let (x1, y1) = (estimates[below], biases[below]);
        (raw - x0) * (y1 - y0) / (x1 - x0) + y0
    };
    raw - bias
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sketch::murmur3::hash_long;

    fn of(values: impl Iterator<Item = i64>) -> Hll {
        let mut hll = Hll::new(11);
        for v in values {
            hll.add_hash(hash_long(v));
        }
        hll
    }

    // Measured on Trino 476: the HLL byte (offset 5) of CAST(make_set_digest(v) AS varbinary)
    // over sequence(1, n) is 2 (sparse) up to n = 251 and 3 (dense) from 252.
    #[test]
    fn turns_dense_where_trino_does() {
        assert!(matches!(of(1..=251), Hll::Sparse(_)));
        assert!(matches!(of(1..=252), Hll::Dense(_)));
    }

    #[test]
    fn reads_what_it_writes() {
        for n in [3, 300, 20_000] {
            let hll = of(1..=n);
            let bytes = hll.write();
            let read = Hll::read(&bytes).map(|h| h.write());
            assert_eq!(read.ok(), Some(bytes), "n = {n}");
        }
    }

    #[test]
    fn estimates_large_sets_closely() {
        let estimate = of(1..=20_000).cardinality();
        assert!((19_000..21_000).contains(&estimate), "{estimate}");
    }

    #[test]
    fn refuses_what_is_not_a_hyperloglog() {
        assert!(Hll::read(&[]).is_err());
        assert!(Hll::read(&[9]).is_err());
        assert!(Hll::read(&[SPARSE_V2, 11, 5, 0]).is_err());
    }
}

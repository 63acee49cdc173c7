//! airlift's `TDigest` (Trino's `tdigest`; docs functions/tdigest), kept, merged and
//! serialized as the airlift Trino 476 ships does, so that the bytes and quantiles are Trino's.
//!
//! Values are appended as centroids (mean, weight); when the buffer is full, and before the
//! digest is written, the centroids are sorted and neighbours merged while a cluster stays
//! under the size the t-digest's scale function allows at its quantile — alternately from
//! the low and the high end, as airlift does. The buffer is bounded (6 × (2 × compression +
//! 10) centroids), so the digest's memory is whatever the input. Serialized little-endian:
//! format 0, min, max, compression, total weight, the centroid count, the means, the weights.

use super::bytes::{Reader, Unreadable};

const FORMAT: u8 = 0;
pub const DEFAULT_COMPRESSION: f64 = 100.0;
const FUDGE_FACTOR: f64 = 10.0;

#[derive(Clone, Debug)]
pub struct TDigest {
    compression: f64,
    max_size: usize,
    means: Vec<f64>,
    weights: Vec<f64>,
    /// The length of Java's arrays: when full, the digest grows them or merges.
    capacity: usize,
    total_weight: f64,
    min: f64,
    max: f64,
    backwards: bool,
    needs_merge: bool,
}

fn internal_compression(compression: f64) -> f64 {
    2.0 * compression
}

fn normalizer(compression: f64, weight: f64) -> f64 {
    compression / (4.0 * (weight / compression).ln() + 24.0)
}

fn max_relative_cluster_size(quantile: f64, normalizer: f64) -> f64 {
    quantile * (1.0 - quantile) / normalizer
}

fn interpolate(x: f64, x0: f64, y0: f64, x1: f64, y1: f64) -> f64 {
    (x - x0) / (x1 - x0) * (y1 - y0)
}

impl TDigest {
    pub fn new() -> TDigest {
        TDigest::with(DEFAULT_COMPRESSION, f64::INFINITY, f64::NEG_INFINITY, 0.0)
    }

    fn with(compression: f64, min: f64, max: f64, total_weight: f64) -> TDigest {
        TDigest {
            compression,
            max_size: (6.0 * (internal_compression(compression) + FUDGE_FACTOR)) as usize,
            means: Vec::new(),
            weights: Vec::new(),
            capacity: 1,
            total_weight,
            min,
            max,
            backwards: false,
            needs_merge: false,
        }
    }

    pub fn read(bytes: &[u8]) -> Result<TDigest, Unreadable> {
        let mut input = Reader::new(bytes);
        if input.u8()? != FORMAT {
            return Err(Unreadable::new("Invalid format"));
        }
        let min = input.f64()?;
        let max = input.f64()?;
        let compression = input.f64()?;
        let total_weight = input.f64()?;
        let count = input.i32()?;
        if compression.is_nan() || compression < 10.0 {
            return Err(Unreadable::new("compression factor too small (< 10)"));
        }
        let count = usize::try_from(count).map_err(|_| Unreadable::new(format!("{count}")))?;
        // Checked before allocating, so a corrupt count cannot make the digest large.
        let means = input.bytes(count.saturating_mul(8))?;
        let weights = input.bytes(count.saturating_mul(8))?;
        let doubles = |b: &[u8]| -> Vec<f64> {
            b.chunks_exact(8)
                .map(|c| {
                    let mut x = [0; 8];
                    x.copy_from_slice(c);
                    f64::from_le_bytes(x)
                })
                .collect()
        };
        let mut digest = TDigest::with(compression, min, max, total_weight);
        digest.means = doubles(means);
        digest.weights = doubles(weights);
        digest.capacity = count;
        Ok(digest)
    }

    /// Merges with the compression, then writes (TDigest.serialize).
    pub fn write(&mut self) -> Vec<u8> {
        self.merge(self.compression);
        let mut out = Vec::with_capacity(37 + 16 * self.means.len());
        out.push(FORMAT);
        for x in [self.min, self.max, self.compression, self.total_weight] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&(self.means.len() as i32).to_le_bytes());
        for x in self.means.iter().chain(&self.weights) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// Adds `weight` of a finite `value` (the caller has refused NaN and infinities).
    pub fn add(&mut self, value: f64, weight: f64) -> Result<(), Unreadable> {
        if value.is_nan() {
            return Err(Unreadable::new("value is NaN"));
        }
        if weight.is_nan() {
            return Err(Unreadable::new("weight is NaN"));
        }
        if value.is_infinite() {
            return Err(Unreadable::new("value must be finite"));
        }
        if weight.is_infinite() {
            return Err(Unreadable::new("weight must be finite"));
        }
        if self.means.len() == self.capacity {
            if self.capacity < self.max_size {
                self.capacity = (self.capacity * 2).clamp(1, self.max_size);
            } else {
                self.merge(internal_compression(self.compression));
            }
        }
        self.means.push(value);
        self.weights.push(weight);
        self.total_weight += weight;
        self.min = self.min.min(value);
        self.max = self.max.max(value);
        self.needs_merge = true;
        Ok(())
    }

    pub fn merge_with(&mut self, other: &mut TDigest) {
        if self.means.len() + other.means.len() > self.capacity {
            self.merge(internal_compression(self.compression));
            other.merge(internal_compression(self.compression));
            self.capacity = self.capacity.max(self.means.len() + other.means.len());
        }
        self.means.extend_from_slice(&other.means);
        self.weights.extend_from_slice(&other.weights);
        self.total_weight += other.total_weight;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.needs_merge = true;
    }

    /// The values at the quantiles, which must be sorted and within [0, 1] (TDigest.valuesAt).
    pub fn values_at(&mut self, quantiles: &[f64]) -> Result<Vec<f64>, Unreadable> {
        for (i, q) in quantiles.iter().enumerate() {
            if i > 0 && *q < quantiles[i - 1] {
                return Err(Unreadable::new(
                    "quantiles must be sorted in increasing order",
                ));
            }
            if !(0.0..=1.0).contains(q) {
                return Err(Unreadable::new("quantiles should be in [0, 1] range"));
            }
        }
        let n = self.means.len();
        if n == 0 {
            return Ok(vec![f64::NAN; quantiles.len()]);
        }
        if self.needs_merge {
            self.merge(internal_compression(self.compression));
        }
        let (means, weights) = (&self.means, &self.weights);
        let n = means.len();
        if n == 1 {
            return Ok(vec![means[0]; quantiles.len()]);
        }
        let (min, max, total) = (self.min, self.max, self.total_weight);
        let mut result: Vec<f64> = quantiles.iter().map(|q| q * total).collect();
        let last_half = weights[n - 1] / 2.0;
        let mut index = 0;
        while index < result.len() && result[index] < 1.0 {
            result[index] = min;
            index += 1;
        }
        while index < result.len() && result[index] < weights[0] / 2.0 {
            result[index] = min + interpolate(result[index], 1.0, min, weights[0] / 2.0, means[0]);
            index += 1;
        }
        while index < result.len()
            && result[index] <= total - 1.0
            && total - result[index] <= last_half
            && last_half > 1.0
        {
            result[index] =
                max + interpolate(total - result[index], 1.0, max, last_half, means[n - 1]);
            index += 1;
        }
        if index < result.len() && result[index] >= total - 1.0 {
            result[index..].fill(max);
            return Ok(result);
        }
        let mut weight_so_far = weights[0] / 2.0;
        let mut current = 0;
        while index < result.len() {
            let mut delta = (weights[current] + weights[current + 1]) / 2.0;
            while current < n - 1 && weight_so_far + delta <= result[index] {
                weight_so_far += delta;
                current += 1;
                if current < n - 1 {
                    delta = (weights[current] + weights[current + 1]) / 2.0;
                }
            }
            if current == n - 1 {
                while index < result.len() && result[index] <= total - 1.0 && last_half > 1.0 {
                    result[index] =
                        max + interpolate(total - result[index], 1.0, max, last_half, means[n - 1]);
                    index += 1;
                }
                if index < result.len() {
                    result[index..].fill(max);
                }
                return Ok(result);
            }
            let offset_in = result[index] - weight_so_far;
            result[index] = if weights[current] == 1.0 && offset_in < weights[current] / 2.0 {
                means[current]
            } else if weights[current + 1] == 1.0 && offset_in >= weights[current] / 2.0 {
                means[current + 1]
            } else {
                let (mut offset, mut length) = (offset_in, delta);
                if weights[current] == 1.0 {
                    offset -= weights[current] / 2.0;
                    length = weights[current + 1] / 2.0;
                } else if weights[current + 1] == 1.0 {
                    length = weights[current] / 2.0;
                }
                means[current]
                    + interpolate(offset, 0.0, means[current], length, means[current + 1])
            };
            index += 1;
        }
        Ok(result)
    }

    /// Sorts the centroids by mean and merges neighbours (TDigest.merge), alternating the
    /// direction each time.
    fn merge(&mut self, compression: f64) {
        let n = self.means.len();
        if n == 0 {
            return;
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|a, b| self.means[*a].total_cmp(&self.means[*b]));
        if self.backwards {
            order.reverse();
        }
        let (mut means, mut weights) = (Vec::new(), Vec::new());
        let mut centroid_mean = self.means[order[0]];
        let mut centroid_weight = self.weights[order[0]];
        let mut weight_so_far = 0.0;
        let total = self.total_weight;
        let normalizer = normalizer(compression, total);
        let mut current_max_size = max_relative_cluster_size(0.0, normalizer);
        for &at in &order[1..] {
            let (entry_mean, entry_weight) = (self.means[at], self.weights[at]);
            let tentative_weight = centroid_weight + entry_weight;
            let tentative_quantile = ((weight_so_far + tentative_weight) / total).min(1.0);
            let max_cluster_weight = total
                * current_max_size.min(max_relative_cluster_size(tentative_quantile, normalizer));
            if tentative_weight <= max_cluster_weight {
                centroid_mean += (entry_mean - centroid_mean) * entry_weight / tentative_weight;
                centroid_weight = tentative_weight;
            } else {
                means.push(centroid_mean);
                weights.push(centroid_weight);
                weight_so_far += centroid_weight;
                current_max_size = max_relative_cluster_size(weight_so_far / total, normalizer);
                centroid_weight = entry_weight;
                centroid_mean = entry_mean;
            }
        }
        means.push(centroid_mean);
        weights.push(centroid_weight);
        if self.backwards {
            means.reverse();
            weights.reverse();
        }
        self.backwards = !self.backwards;
        self.means = means;
        self.weights = weights;
    }
}

impl Default for TDigest {
    fn default() -> Self {
        TDigest::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base64(bytes: &[u8]) -> String {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    // Trino 476: SELECT tdigest_agg(x) FROM (VALUES 1) t(x).
    #[test]
    fn writes_trinos_bytes_for_one_value() {
        let mut digest = TDigest::new();
        assert!(digest.add(1.0, 1.0).is_ok());
        assert_eq!(
            base64(&digest.write()),
            "AAAAAAAAAPA/AAAAAAAA8D8AAAAAAABZQAAAAAAAAPA/AQAAAAAAAAAAAPA/AAAAAAAA8D8="
        );
    }

    #[test]
    fn answers_quantiles_of_what_it_read() {
        let mut digest = TDigest::new();
        for v in 1..=5 {
            assert!(digest.add(f64::from(v), 1.0).is_ok());
        }
        let bytes = digest.write();
        let Ok(mut read) = TDigest::read(&bytes) else {
            panic!("reads")
        };
        assert_eq!(read.values_at(&[0.5]).ok(), Some(vec![3.0]));
        assert!(read.values_at(&[0.5, 0.1]).is_err());
        assert!(read.values_at(&[2.0]).is_err());
        assert!(TDigest::read(&[0]).is_err());
    }
}

//! Trino's StatisticRange (core/trino-main/.../cost/StatisticRange.java) and the NaN-aware
//! arithmetic of its cost model (MoreMath, Java's Math.min/max): the pieces
//! filter_estimate.rs combines as Trino's calculators do.

/// How much of a range with infinite ends another covers, when it cannot be measured.
const INFINITE_TO_FINITE_OVERLAP: f64 = 0.25;
const INFINITE_TO_INFINITE_OVERLAP: f64 = 0.5;
/// Below this many distinct values per unit of the range, overlap is estimated from the
/// distinct values instead (a sparse column's uniform overlap is near zero).
const DENSITY_HEURISTIC_THRESHOLD: f64 = 1e-3;

/// Trino's StatisticRange: a range of values as doubles and how many distinct ones it holds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Range {
    pub(super) low: f64,
    pub(super) high: f64,
    pub(super) distinct: f64,
}

impl Range {
    pub(super) fn new(low: f64, high: f64, distinct: f64) -> Self {
        Self {
            low,
            high,
            distinct,
        }
    }

    pub(super) fn empty() -> Self {
        Self::new(f64::NAN, f64::NAN, 0.0)
    }

    fn is_empty(&self) -> bool {
        self.low.is_nan() && self.high.is_nan()
    }

    fn length(&self) -> f64 {
        self.high - self.low
    }

    /// Java's Double.compare equality of the three fields (NaN equals NaN).
    fn same(&self, other: &Range) -> bool {
        let eq = |a: f64, b: f64| a.total_cmp(&b).is_eq() || (a.is_nan() && b.is_nan());
        eq(self.low, other.low) && eq(self.high, other.high) && eq(self.distinct, other.distinct)
    }

    pub(super) fn overlap_percent_with(&self, other: &Range) -> f64 {
        if self.is_empty() || other.is_empty() || self.distinct == 0.0 || other.distinct == 0.0 {
            return 0.0;
        }
        if self.same(other) {
            return 1.0;
        }
        let intersect = self.high.min(other.high) - self.low.max(other.low);
        if intersect.is_infinite() {
            if self.distinct.is_finite() && other.distinct.is_finite() {
                return (other.distinct / self.distinct).min(1.0);
            }
            return INFINITE_TO_INFINITE_OVERLAP;
        }
        if intersect == 0.0 {
            return 1.0 / self.distinct.max(1.0);
        }
        if intersect < 0.0 {
            return 0.0;
        }
        let length = self.length();
        if length.is_infinite() && intersect.is_finite() {
            return INFINITE_TO_FINITE_OVERLAP;
        }
        if intersect > 0.0 {
            let density = self.distinct / length;
            if !density.is_nan() && intersect != length && density < DENSITY_HEURISTIC_THRESHOLD {
                return min_excluding_nan(other.distinct / self.distinct, 1.0);
            }
            return intersect / length;
        }
        f64::NAN
    }

    fn overlapping_distinct(&self, other: &Range) -> f64 {
        let left = self.overlap_percent_with(other) * self.distinct;
        let right = other.overlap_percent_with(self) * other.distinct;
        min_excluding_nan(
            min_excluding_nan(self.distinct, other.distinct),
            max_excluding_nan(left, right),
        )
    }

    pub(super) fn intersect(&self, other: &Range) -> Range {
        // Java's Math.max/min: NaN if either is.
        let low = java_max(self.low, other.low);
        let high = java_min(self.high, other.high);
        if low <= high {
            Range::new(low, high, self.overlapping_distinct(other))
        } else {
            Range::empty()
        }
    }
}

pub(super) fn java_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

pub(super) fn java_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

pub(super) fn min_excluding_nan(a: f64, b: f64) -> f64 {
    match (a.is_nan(), b.is_nan()) {
        (true, _) => b,
        (_, true) => a,
        _ => a.min(b),
    }
}

pub(super) fn max_excluding_nan(a: f64, b: f64) -> f64 {
    match (a.is_nan(), b.is_nan()) {
        (true, _) => b,
        (_, true) => a,
        _ => a.max(b),
    }
}

/// MoreMath.averageExcludingNaNs.
pub(super) fn average_excluding_nan(a: f64, b: f64) -> f64 {
    match (a.is_nan(), b.is_nan()) {
        (true, _) => b,
        (_, true) => a,
        _ => (a + b) / 2.0,
    }
}

//! width_bucket (Trino's MathFunctions.widthBucket): the bucket of `x` among `n` equal-width
//! buckets between two bounds (0 below, n + 1 above), or among an array of bin edges.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use crate::udf::{FLAGS, define, fail};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_WIDTH_BUCKET: SqliteFn = SqliteFn::new("qm_width_bucket");
pub const QM_WIDTH_BUCKET_BINS: SqliteFn = SqliteFn::new("qm_width_bucket_bins");

/// A double argument; NaN arrives as the text 'NaN' (udf::real).
fn number(v: ValueRef<'_>) -> Option<f64> {
    match v {
        ValueRef::Integer(i) => Some(i as f64),
        ValueRef::Real(r) => Some(r),
        ValueRef::Text(b"NaN") => Some(f64::NAN),
        _ => None,
    }
}

fn invalid(text: &str) -> rusqlite::Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

pub(crate) fn width_bucket(x: f64, bound1: f64, bound2: f64, count: i64) -> rusqlite::Result<i64> {
    if count <= 0 {
        return Err(invalid("bucketCount must be greater than 0"));
    }
    if x.is_nan() {
        return Err(invalid("operand must not be NaN"));
    }
    if !bound1.is_finite() {
        return Err(invalid("first bound must be finite"));
    }
    if !bound2.is_finite() {
        return Err(invalid("second bound must be finite"));
    }
    if bound1 == bound2 {
        return Err(invalid("bounds cannot equal each other"));
    }
    // MathFunctions.widthBucket, step for step: the ascending bucket, mirrored for
    // descending bounds.
    let (lower, upper) = (bound1.min(bound2), bound1.max(bound2));
    let ascending = if x < lower {
        0
    } else if x >= upper {
        count.checked_add(1).ok_or_else(|| {
            fail(
                ErrorName::NumericValueOutOfRange,
                format!(
                    "Bucket for value {} is out of range",
                    crate::udf::java_double(x)
                ),
            )
        })?
    } else {
        (count as f64 * (x - lower) / (upper - lower) + 1.0) as i64
    };
    let bucket = if bound1 > bound2 {
        count - ascending + 1
    } else {
        ascending
    };
    Ok(bucket)
}

/// width_bucket(x, bins): MathFunctions.widthBucket's binary search for the first edge above
/// `x`, step for step: it checks only the ends of the range it narrows to for order and the
/// edges it visits for finiteness. It reads a NULL edge from the block without checking it;
/// what Trino 476 answers shows a NULL within the array reading as 0 and a NULL last one as
/// the edge before it (width_bucket(2, ARRAY[1.0, NULL]) is 2, width_bucket(0.9, ARRAY[1.0,
/// NULL]) 0, width_bucket(0, ARRAY[1.0, NULL, 3.0]) 2), which this reproduces.
fn bins_bucket(x: f64, bins: &[Option<f64>]) -> rusqlite::Result<i64> {
    if bins.is_empty() {
        return Err(invalid("Bins cannot be an empty array"));
    }
    if x.is_nan() {
        return Err(invalid("Operand cannot be NaN"));
    }
    let last = bins.len() - 1;
    let edge = |i: usize| match bins[i] {
        Some(v) => v,
        None if i == last && i > 0 => bins[i - 1].unwrap_or(0.0),
        None => 0.0,
    };
    let (mut lower, mut upper) = (0, bins.len());
    while lower < upper {
        if edge(lower) > edge(upper - 1) {
            return Err(invalid("Bin values are not sorted in ascending order"));
        }
        let index = (lower + upper) / 2;
        let bin = edge(index);
        if !bin.is_finite() {
            return Err(invalid(&format!(
                "Bin value must be finite, got {}",
                crate::udf::java_double(bin)
            )));
        }
        if x < bin {
            upper = index;
        } else {
            lower = index + 1;
        }
    }
    Ok(lower as i64)
}

/// A bin edge in element form: a number, NULL, or NaN and the infinities as text.
fn bin(v: &serde_json::Value) -> Option<f64> {
    match v {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_WIDTH_BUCKET.name(), 4, FLAGS, |ctx| {
        let (Some(x), Some(b1), Some(b2), Some(n)) = (
            number(ctx.get_raw(0)),
            number(ctx.get_raw(1)),
            number(ctx.get_raw(2)),
            number(ctx.get_raw(3)),
        ) else {
            return Ok(None);
        };
        width_bucket(x, b1, b2, n as i64).map(Some)
    })?;
    define(conn, QM_WIDTH_BUCKET_BINS.name(), 2, FLAGS, |ctx| {
        let (Some(x), ValueRef::Text(bins)) = (number(ctx.get_raw(0)), ctx.get_raw(1)) else {
            return Ok(None);
        };
        let bins: Vec<Option<f64>> = serde_json::from_slice::<Vec<serde_json::Value>>(bins)
            .map_err(|_| invalid("Bins must be an array of doubles"))?
            .iter()
            .map(bin)
            .collect();
        bins_bucket(x, &bins).map(Some)
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // 3.14 is Trino's test operand, not an approximation of pi.
    #[allow(clippy::approx_constant)]
    #[test]
    fn buckets_as_trinos_math_functions() {
        // TestMathFunctions.testWidthBucket.
        assert_eq!(width_bucket(3.14, 0.0, 4.0, 3).unwrap(), 3);
        assert_eq!(width_bucket(2.0, 0.0, 4.0, 3).unwrap(), 2);
        assert_eq!(width_bucket(-1.0, 0.0, 3.2, 4).unwrap(), 0);
        assert_eq!(width_bucket(3.14, 4.0, 0.0, 3).unwrap(), 1);
        assert_eq!(width_bucket(-1.0, 3.2, 0.0, 4).unwrap(), 5);
        assert_eq!(width_bucket(2.0, 4.0, 0.0, 3).unwrap(), 2);
        assert_eq!(width_bucket(f64::INFINITY, 4.0, 0.0, 3).unwrap(), 0);
        assert!(width_bucket(f64::INFINITY, 0.0, 4.0, i64::MAX).is_err());
        assert!(width_bucket(1.0, 1.0, 1.0, 3).is_err());
        assert!(width_bucket(1.0, 0.0, 2.0, 0).is_err());
        assert_eq!(
            bins_bucket(3.14, &[Some(0.0), Some(2.0), Some(4.0)]).unwrap(),
            2
        );
        assert_eq!(
            bins_bucket(-1.0, &[Some(0.0), Some(3.2), Some(4.0)]).unwrap(),
            0
        );
        assert!(bins_bucket(1.0, &[Some(2.0), Some(1.0)]).is_err());
        // Trino 476's answers with NULL edges.
        assert_eq!(bins_bucket(2.0, &[Some(1.0), None]).unwrap(), 2);
        assert_eq!(bins_bucket(0.9, &[Some(1.0), None]).unwrap(), 0);
        assert_eq!(bins_bucket(0.0, &[Some(5.0), None]).unwrap(), 0);
        assert_eq!(bins_bucket(2.5, &[Some(1.0), Some(2.0), None]).unwrap(), 3);
        assert_eq!(bins_bucket(-1.0, &[None, Some(3.0)]).unwrap(), 0);
        assert_eq!(bins_bucket(0.0, &[None]).unwrap(), 1);
        assert_eq!(bins_bucket(0.0, &[Some(1.0), None, Some(3.0)]).unwrap(), 2);
        assert!(width_bucket(f64::NAN, 0.0, 10.0, 5).is_err());
    }
}

//! Trino's estimates of a plan node's output (core/trino-main's cost package).

use crate::types::TrinoType;

/// What ValuesStatsRule leaves a value without a numeric form: DEFAULT_DATA_SIZE_PER_COLUMN.
pub(super) const DEFAULT_VALUE_SIZE: f64 = 50.0;

/// A type's fixed size in bytes (FixedWidthType), `None` for variable-width types.
pub(super) fn fixed_size(ty: &TrinoType) -> Option<f64> {
    Some(match ty {
        TrinoType::Boolean | TrinoType::TinyInt | TrinoType::Unknown => 1.0,
        TrinoType::SmallInt => 2.0,
        TrinoType::Integer | TrinoType::Real | TrinoType::Date => 4.0,
        TrinoType::BigInt | TrinoType::Double => 8.0,
        TrinoType::Decimal { precision, .. } if *precision <= 18 => 8.0,
        TrinoType::Decimal { .. } => 16.0,
        _ => return None,
    })
}

/// PlanNodeStatsEstimate.getOutputSizeForSymbol: `non_null` rows of `average` bytes (NaN: the
/// type's size, or the default), a null flag per row, an offset per row of a variable width.
pub(super) fn symbol_size(rows: f64, non_null: f64, average: f64, ty: &TrinoType) -> f64 {
    let fixed = fixed_size(ty);
    let average = match (average.is_nan(), fixed) {
        (false, _) => average,
        (true, Some(size)) => size,
        (true, None) => DEFAULT_VALUE_SIZE,
    };
    let mut size = non_null * average + rows;
    if fixed.is_none() {
        size += rows * 4.0;
    }
    size
}

/// Java's `DoubleStream.sum()`: Kahan's compensated sum, as JDK 18 and later finish it.
pub(super) fn java_sum(values: &[f64]) -> f64 {
    let (mut sum, mut compensation, mut simple) = (0.0f64, 0.0f64, 0.0f64);
    for &value in values {
        let corrected = value - compensation;
        let next = sum + corrected;
        compensation = (next - sum) - corrected;
        sum = next;
        simple += value;
    }
    let total = sum - compensation;
    if total.is_nan() && simple.is_infinite() {
        simple
    } else {
        total
    }
}

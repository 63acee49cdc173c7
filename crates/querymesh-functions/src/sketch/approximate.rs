//! `numeric_histogram` (Trino docs functions/aggregate, "Approximate aggregate functions";
//! DoubleHistogramAggregation, RealHistogramAggregation): an approximate histogram of a
//! double or real column in at most `buckets` buckets (numeric_histogram.rs).

use querymesh_values::error::TrinoError;
use querymesh_values::types::TrinoType;

use crate::context::LowerContext;
use crate::entry::{AggregateCall, FunctionDef, aggregate};

type Lowered = Result<Option<(String, TrinoType)>, TrinoError>;

pub const FUNCTIONS: &[FunctionDef] = &[aggregate(
    "numeric_histogram",
    &[
        ("bigint, double", "map(double,double)"),
        ("bigint, double, double", "map(double,double)"),
        ("bigint, real", "map(real,real)"),
        ("bigint, real, double", "map(real,real)"),
    ],
    numeric_histogram,
    // Trino 476 lists no description; the registry's entries each have one.
    "Returns an approximate histogram of the values in at most the given number of buckets",
)];

/// numeric_histogram(buckets, x[, weight]): a double makes a map(double, double), any other
/// number a map(real, real) (Trino 476 coerces integers and decimals to real first:
/// `typeof(numeric_histogram(5, x))` over integers is map(real, real)).
fn numeric_histogram(ctx: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let (buckets, x, weight) = match call.args {
        [b, x] => (b, x, None),
        [b, x, w] => (b, x, Some(w)),
        _ => return Ok(None),
    };
    let fits_bigint = |t: &TrinoType| t.is_integral() || *t == TrinoType::Unknown;
    let fits_double = |t: &TrinoType| t.is_numeric() || *t == TrinoType::Unknown;
    if !fits_bigint(&buckets.ty)
        || !fits_double(&x.ty)
        || !weight.is_none_or(|w| fits_double(&w.ty))
    {
        return Ok(None);
    }
    let value_type = match x.ty {
        TrinoType::Double => TrinoType::Double,
        _ => TrinoType::Real,
    };
    let buckets = ctx.coerce_to(buckets.clone(), &TrinoType::BigInt, None)?;
    let value = ctx.coerce_to(x.clone(), &value_type, None)?;
    let real = i32::from(value_type == TrinoType::Real);
    let sql = match weight {
        None => format!(
            "qm_numeric_histogram({}, {}, {real})",
            buckets.sql, value.sql
        ),
        Some(w) => {
            let w = ctx.coerce_to(w.clone(), &TrinoType::Double, None)?;
            format!(
                "qm_numeric_histogram_weighted({}, {}, {real}, {})",
                buckets.sql, value.sql, w.sql
            )
        }
    };
    let map = TrinoType::Map(Box::new(value_type.clone()), Box::new(value_type));
    Ok(Some((sql, map)))
}

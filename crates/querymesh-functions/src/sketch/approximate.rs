//! `numeric_histogram` and `approx_most_frequent` (Trino docs functions/aggregate,
//! "Approximate aggregate functions"; DoubleHistogramAggregation, RealHistogramAggregation,
//! BigintApproximateMostFrequent, VarcharApproximateMostFrequent): an approximate histogram
//! of a double or real column in at most `buckets` buckets (numeric_histogram.rs), and the
//! approximate counts of the most frequent values (most_frequent.rs).

use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::sqlite_expr::builtin::RTRIM;
use querymesh_values::types::TrinoType;

use super::sqlite::{QM_APPROX_MOST_FREQUENT, QM_NUMERIC_HISTOGRAM, QM_NUMERIC_HISTOGRAM_WEIGHTED};
use crate::aggregate::lowered;
use crate::context::LowerContext;
use crate::entry::{AggregateCall, FunctionDef, aggregate};

type Lowered = crate::entry::AggregateLowered;

pub const FUNCTIONS: &[FunctionDef] = &[
    aggregate(
        "approx_most_frequent",
        &[
            ("bigint, bigint, bigint", "map(bigint,bigint)"),
            ("bigint, varchar, bigint", "map(varchar,bigint)"),
        ],
        approx_most_frequent,
        // Trino 476 lists no description; the registry's entries each have one.
        "Returns the approximate counts of the most frequent values",
    ),
    aggregate(
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
    ),
];

/// approx_most_frequent(buckets, x, capacity): x a bigint (the integers coerced) or a varchar
/// (a char coerced, without its padding).
fn approx_most_frequent(ctx: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [buckets, x, capacity] = call.args else {
        return Ok(None);
    };
    let fits_bigint = |t: &TrinoType| t.is_integral() || *t == TrinoType::Unknown;
    if !fits_bigint(&buckets.ty) || !fits_bigint(&capacity.ty) {
        return Ok(None);
    }
    let (value, key) = match &x.ty {
        t if fits_bigint(t) => (
            ctx.coerce_to(x.clone(), &TrinoType::BigInt, None)?.sql,
            TrinoType::BigInt,
        ),
        TrinoType::Varchar(_) => (x.sql.clone(), TrinoType::Varchar(None)),
        TrinoType::Char(_) => (
            RTRIM.call([x.sql.clone(), SqlExpr::text(" ")]),
            TrinoType::Varchar(None),
        ),
        _ => return Ok(None),
    };
    let buckets = ctx.coerce_to(buckets.clone(), &TrinoType::BigInt, None)?;
    let capacity = ctx.coerce_to(capacity.clone(), &TrinoType::BigInt, None)?;
    Ok(lowered(
        QM_APPROX_MOST_FREQUENT.call([buckets.sql, value, capacity.sql]),
        TrinoType::Map(Box::new(key), Box::new(TrinoType::BigInt)),
    ))
}

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
    let real = SqlExpr::Integer(i64::from(value_type == TrinoType::Real));
    let sql = match weight {
        None => QM_NUMERIC_HISTOGRAM.call([buckets.sql, value.sql, real]),
        Some(w) => {
            let w = ctx.coerce_to(w.clone(), &TrinoType::Double, None)?;
            QM_NUMERIC_HISTOGRAM_WEIGHTED.call([buckets.sql, value.sql, real, w.sql])
        }
    };
    let map = TrinoType::Map(Box::new(value_type.clone()), Box::new(value_type));
    Ok(lowered(sql, map))
}

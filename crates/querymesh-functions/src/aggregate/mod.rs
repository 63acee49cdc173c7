//! Aggregate functions (Trino docs functions/aggregate), typed by Trino's signatures; the same
//! lowerings serve aggregates OVER a window (window.rs).

mod array_checksum;
pub mod checksum;
pub mod extended;
pub mod sqlite;
pub mod statistics;

use querymesh_values::decimal;
use querymesh_values::error::TrinoError;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::context::LowerContext;
use super::entry::{AggregateCall, FunctionDef, aggregate};
use super::is_numeric_or_null;

type Lowered = Result<Option<(String, TrinoType)>, TrinoError>;

const NUMBER_TO_DOUBLE: &[(&str, &str)] = &[("double", "double"), ("bigint", "double")];

pub const FUNCTIONS: &[FunctionDef] = &[
    aggregate(
        "count",
        &[("", "bigint"), ("T", "bigint")],
        count,
        "Counts the non-null values",
    ),
    aggregate(
        "approx_distinct",
        &[("T", "bigint"), ("T, double", "bigint")],
        approx_distinct,
        "Approximate number of distinct values (exact here)",
    ),
    aggregate(
        "count_if",
        &[("boolean", "bigint")],
        count_if,
        "Counts the true values",
    ),
    aggregate(
        "sum",
        &[
            ("bigint", "bigint"),
            ("double", "double"),
            ("real", "real"),
            ("decimal(p,s)", "decimal(38,s)"),
            ("interval year to month", "interval year to month"),
            ("interval day to second", "interval day to second"),
        ],
        sum,
        "Sum of the input values",
    ),
    aggregate(
        "avg",
        &[
            ("bigint", "double"),
            ("double", "double"),
            ("real", "real"),
            ("decimal(p,s)", "decimal(p,s)"),
            ("interval year to month", "interval year to month"),
            ("interval day to second", "interval day to second"),
        ],
        avg,
        "Average of the input values",
    ),
    aggregate(
        "min",
        &[("T", "T"), ("T, bigint", "array(T)")],
        extreme,
        "Minimum of the input values; with n, the n smallest",
    ),
    aggregate(
        "max",
        &[("T", "T"), ("T, bigint", "array(T)")],
        extreme,
        "Maximum of the input values; with n, the n largest",
    ),
    aggregate(
        "arbitrary",
        &[("T", "T")],
        arbitrary,
        "An arbitrary non-null input value",
    ),
    aggregate(
        "any_value",
        &[("T", "T")],
        arbitrary,
        "An arbitrary non-null input value",
    ),
    aggregate(
        "bool_and",
        &[("boolean", "boolean")],
        boolean,
        "True if every input value is true",
    ),
    aggregate(
        "every",
        &[("boolean", "boolean")],
        boolean,
        "True if every input value is true",
    ),
    aggregate(
        "bool_or",
        &[("boolean", "boolean")],
        boolean,
        "True if any input value is true",
    ),
    aggregate(
        "stddev",
        NUMBER_TO_DOUBLE,
        spread,
        "Sample standard deviation",
    ),
    aggregate(
        "stddev_samp",
        NUMBER_TO_DOUBLE,
        spread,
        "Sample standard deviation",
    ),
    aggregate(
        "stddev_pop",
        NUMBER_TO_DOUBLE,
        spread,
        "Population standard deviation",
    ),
    aggregate("variance", NUMBER_TO_DOUBLE, spread, "Sample variance"),
    aggregate("var_samp", NUMBER_TO_DOUBLE, spread, "Sample variance"),
    aggregate("var_pop", NUMBER_TO_DOUBLE, spread, "Population variance"),
    aggregate(
        "array_agg",
        &[("T", "array(T)")],
        super::array::array_agg,
        "return an array of values",
    ),
];

fn one<'c>(call: &'c AggregateCall<'_>) -> Option<&'c Typed> {
    match call.args {
        [a] => Some(a),
        _ => None,
    }
}

fn distinct(call: &AggregateCall<'_>) -> &'static str {
    if call.distinct { "DISTINCT " } else { "" }
}

fn count(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    if call.star {
        return Ok(Some(("count(*)".into(), TrinoType::BigInt)));
    }
    Ok(one(call).map(|a| {
        (
            format!("count({}{})", distinct(call), a.sql),
            TrinoType::BigInt,
        )
    }))
}

fn approx_distinct(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    Ok(match call.args {
        [a] => Some((format!("count(DISTINCT {})", a.sql), TrinoType::BigInt)),
        // approx_distinct(x, e): the maximum standard error only bounds the estimate, and
        // the exact count is within any bound.
        [a, e] if e.ty.is_numeric() => {
            Some((format!("count(DISTINCT {})", a.sql), TrinoType::BigInt))
        }
        _ => None,
    })
}

fn count_if(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    Ok(one(call)
        .filter(|a| matches!(a.ty, TrinoType::Boolean | TrinoType::Unknown))
        .map(|a| {
            (
                format!("count(CASE WHEN {} THEN 1 END)", a.sql),
                TrinoType::BigInt,
            )
        }))
}

fn sum(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let Some(a) = one(call) else { return Ok(None) };
    let ty = match &a.ty {
        t if t.is_integral() => TrinoType::BigInt,
        // Months and milliseconds, summed exactly (IntervalYearToMonthSumAggregation…).
        TrinoType::Double
        | TrinoType::Real
        | TrinoType::IntervalYearToMonth
        | TrinoType::IntervalDayToSecond => a.ty.clone(),
        // DecimalSumAggregation: decimal(38, s), exact (querymesh-functions/src/udf/decimals.rs).
        TrinoType::Decimal { scale, .. } => {
            return Ok(Some((
                format!("qm_dec_sum({}{})", distinct(call), a.sql),
                TrinoType::Decimal {
                    precision: 38,
                    scale: *scale,
                },
            )));
        }
        TrinoType::Unknown => TrinoType::Unknown,
        _ => return Ok(None),
    };
    Ok(Some((keeping_nan("sum", call, a), ty)))
}

/// `f(x)` (sum or avg), NaN as Trino's DoubleSumAggregation and DoubleAverageAggregation
/// answer it: when a value is NaN, or the values hold both infinities (`sum(x)` over nan()
/// and 1 is NaN, Trino 476). SQLite's sum reads the text 'NaN' (how NaN travels,
/// `udf::real`) as 0 and answers NULL for the NaN of infinity less infinity. `max(x)` is
/// that text exactly when a value is NaN (it orders above every number), and not NULL
/// when a value is not; SQLite computes an aggregate written twice once.
///
/// When `x` cannot be NaN or infinite (a number, an integer, tpch's columns and arithmetic
/// of them: `Typed::finite_bound`, or SQLite's own sum) the plain call, at no cost.
fn keeping_nan(f: &str, call: &AggregateCall<'_>, x: &Typed) -> String {
    let plain = format!("{f}({}{})", distinct(call), x.sql);
    let double = matches!(x.ty, TrinoType::Double | TrinoType::Real);
    if !double
        || x.finite_bound().is_some()
        || !crate::udf::double_ops::may_be_nan(&x.ty, &x.sql.to_string())
    {
        return plain;
    }
    format!(
        "(CASE WHEN max({x}) = 'NaN' OR ({plain} IS NULL AND max({x}) IS NOT NULL) \
         THEN 'NaN' ELSE {plain} END)",
        x = x.sql
    )
}

fn avg(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let Some(a) = one(call) else { return Ok(None) };
    let ty = match &a.ty {
        t if t.is_integral() => TrinoType::Double,
        // DecimalAverageAggregation: decimal(p, s), the sum over the count HALF_UP.
        TrinoType::Decimal { precision, .. } => {
            return Ok(Some((
                // DISTINCT takes one argument: the rescale gives p's representation. Without
                // it, no wrapper, so that OVER (…) can follow.
                if call.distinct {
                    format!(
                        "qm_dec_rescale(qm_dec_avg(DISTINCT {}), 0, 0, {precision})",
                        a.sql
                    )
                } else {
                    format!("qm_dec_avg({}, {precision})", a.sql)
                },
                a.ty.clone(),
            )));
        }
        TrinoType::Double | TrinoType::Real => a.ty.clone(),
        // IntervalYearToMonthAverageAggregation / IntervalDayToSecondAverageAggregation:
        // the mean of the months (milliseconds) rounded as Java's Math.round (half up).
        TrinoType::IntervalYearToMonth | TrinoType::IntervalDayToSecond => {
            return Ok(Some((
                format!(
                    "CAST(qm_floor(avg({}{}) + 0.5) AS INTEGER)",
                    distinct(call),
                    a.sql
                ),
                a.ty.clone(),
            )));
        }
        TrinoType::Unknown => TrinoType::Double,
        _ => return Ok(None),
    };
    Ok(Some((keeping_nan("avg", call, a), ty)))
}

fn extreme(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let largest = call.name == "max";
    match call.args {
        // max(x, n) / min(x, n): the n largest / smallest, largest (smallest) first.
        [x, n] if n.ty.is_integral() || n.ty == TrinoType::Unknown => {
            if !orderable(&x.ty) {
                return Ok(None);
            }
            Ok(Some((
                extended::top_n(largest, x, None, &n.sql.to_string()),
                TrinoType::Array(Box::new(x.ty.clone())),
            )))
        }
        // max(T) takes T:orderable (Trino 476: max of a map or a Bing tile is
        // FUNCTION_NOT_FOUND).
        [x] if !orderable(&x.ty) => Ok(None),
        // Arrays and rows in Trino's order (element by element, field by field).
        [x] if matches!(x.ty, TrinoType::Array(_) | TrinoType::Row(_)) => Ok(Some((
            extended::first_element(&extended::top_n(largest, x, None, "1"), &x.ty),
            x.ty.clone(),
        ))),
        // max of doubles passes over NaN unless every value is NaN (`max(x)` over nan(), 1, 2
        // is 2.0 in Trino 476). NaN travels as the text 'NaN', which SQLite's max orders above
        // every number (its min already passes over it): the numbers' max first, and only
        // when there is none, the max of all ('NaN' or NULL). Two of SQLite's own aggregates,
        // so the state stays two values and a window runs them as it runs max.
        [x] if largest && crate::udf::double_ops::may_be_nan(&x.ty, &x.sql.to_string()) => {
            let d = distinct(call);
            Ok(Some((
                format!(
                    "coalesce(max({d}nullif({x}, 'NaN')), max({d}{x}))",
                    x = x.sql
                ),
                x.ty.clone(),
            )))
        }
        [x] => Ok(Some((
            format!("{}({}{})", call.name, distinct(call), x.sql),
            x.ty.clone(),
        ))),
        _ => Ok(None),
    }
}

/// Trino's orderable types (TrinoType::is_orderable).
pub(crate) fn orderable(t: &TrinoType) -> bool {
    t.is_orderable()
}

fn arbitrary(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    Ok(one(call).map(|a| (format!("max({})", a.sql), a.ty.clone())))
}

fn boolean(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let Some(a) = one(call) else { return Ok(None) };
    if !matches!(a.ty, TrinoType::Boolean | TrinoType::Unknown) {
        return Ok(None);
    }
    let f = if call.name == "bool_or" { "max" } else { "min" };
    Ok(Some((format!("{f}({})", a.sql), TrinoType::Boolean)))
}

/// Variance and standard deviation from the sums of x and x², in doubles.
fn spread(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let Some(a) = one(call) else { return Ok(None) };
    if !is_numeric_or_null(&a.ty) || call.distinct {
        return Ok(None);
    }
    let x = format!("CAST({} AS REAL)", decimal::as_double(a));
    let n = format!("count({})", a.sql);
    let sum_sq = format!("sum({x} * {x})");
    let sq_sum = format!("(sum({x}) * sum({x}))");
    let variance = if call.name.ends_with("_pop") {
        format!("qm_fdiv(({sum_sq} - qm_fdiv({sq_sum}, {n})), {n})")
    } else {
        format!(
            "(CASE WHEN {n} > 1 THEN qm_fdiv(({sum_sq} - qm_fdiv({sq_sum}, {n})), ({n} - 1)) END)"
        )
    };
    let sql = if call.name.starts_with("stddev") {
        format!("qm_sqrt({variance})")
    } else {
        variance
    };
    Ok(Some((sql, TrinoType::Double)))
}

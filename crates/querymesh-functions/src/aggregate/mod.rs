//! Aggregate functions (Trino docs functions/aggregate), typed by Trino's signatures; the same
//! lowerings serve aggregates OVER a window (window.rs).

pub mod checksum;
mod complex_checksum;
pub mod extended;
pub mod sqlite;
pub mod statistics;

use querymesh_values::decimal;
use querymesh_values::sqlite_expr::builtin::{AVG, COALESCE, COUNT, MAX, MIN, NULLIF, SUM};
use querymesh_values::sqlite_expr::runtime::QM_DEC_RESCALE;
use querymesh_values::sqlite_expr::{Affinity, BinaryOp, SqlExpr, SqliteFn};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::context::LowerContext;
use super::entry::{AggregateCall, AggregateLowered, FunctionDef, aggregate};
use super::is_numeric_or_null;

use crate::udf::decimals::{QM_DEC_AVG, QM_DEC_SUM};
use crate::udf::numbers::{QM_FDIV, QM_FLOOR, QM_SQRT};

type Lowered = AggregateLowered;

/// An aggregate's lowering as the engine takes it (`entry::AggregateLowering`).
pub(crate) fn lowered(sql: SqlExpr, ty: TrinoType) -> Option<(SqlExpr, TrinoType)> {
    Some((sql, ty))
}

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

fn count(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    if call.star {
        return Ok(lowered(
            SqlExpr::aggregate(COUNT, false, []),
            TrinoType::BigInt,
        ));
    }
    Ok(one(call).and_then(|a| {
        lowered(
            SqlExpr::aggregate(COUNT, call.distinct, [a.sql.clone()]),
            TrinoType::BigInt,
        )
    }))
}

fn approx_distinct(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let exact = |a: &Typed| {
        lowered(
            SqlExpr::aggregate(COUNT, true, [a.sql.clone()]),
            TrinoType::BigInt,
        )
    };
    Ok(match call.args {
        [a] => exact(a),
        // approx_distinct(x, e): the maximum standard error only bounds the estimate, and
        // the exact count is within any bound.
        [a, e] if e.ty.is_numeric() => exact(a),
        _ => None,
    })
}

fn count_if(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    Ok(one(call)
        .filter(|a| matches!(a.ty, TrinoType::Boolean | TrinoType::Unknown))
        .and_then(|a| {
            let one_when_true =
                SqlExpr::case_when(vec![(a.sql.clone(), SqlExpr::Integer(1))], None);
            lowered(COUNT.call([one_when_true]), TrinoType::BigInt)
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
            return Ok(lowered(
                SqlExpr::aggregate(QM_DEC_SUM, call.distinct, [a.sql.clone()]),
                TrinoType::Decimal {
                    precision: 38,
                    scale: *scale,
                },
            ));
        }
        TrinoType::Unknown => TrinoType::Unknown,
        _ => return Ok(None),
    };
    Ok(lowered(keeping_nan(SUM, call, a), ty))
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
fn keeping_nan(f: SqliteFn, call: &AggregateCall<'_>, x: &Typed) -> SqlExpr {
    let plain = SqlExpr::aggregate(f, call.distinct, [x.sql.clone()]);
    let double = matches!(x.ty, TrinoType::Double | TrinoType::Real);
    if !double || x.finite_bound().is_some() || !crate::udf::double_ops::may_be_nan(&x.ty, &x.sql) {
        return plain;
    }
    let nan = || SqlExpr::text("NaN");
    let largest = MAX.call([x.sql.clone()]);
    let a_value_is_nan = SqlExpr::binary(largest.clone(), BinaryOp::Equal, nan());
    let infinities_cancel = SqlExpr::binary(
        SqlExpr::is_null(plain.clone()),
        BinaryOp::And,
        SqlExpr::is_not_null(largest),
    );
    SqlExpr::iff(
        SqlExpr::binary(a_value_is_nan, BinaryOp::Or, infinities_cancel),
        nan(),
        plain,
    )
}

fn avg(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let Some(a) = one(call) else { return Ok(None) };
    let ty = match &a.ty {
        t if t.is_integral() => TrinoType::Double,
        // DecimalAverageAggregation: decimal(p, s), the sum over the count HALF_UP.
        TrinoType::Decimal { precision, .. } => {
            let precision = SqlExpr::Integer(i64::from(*precision));
            // DISTINCT takes one argument: the rescale gives p's representation. Without
            // it, no wrapper, so that OVER (…) can follow.
            let sql = if call.distinct {
                let average = SqlExpr::aggregate(QM_DEC_AVG, true, [a.sql.clone()]);
                let zero = || SqlExpr::Integer(0);
                QM_DEC_RESCALE.call([average, zero(), zero(), precision])
            } else {
                QM_DEC_AVG.call([a.sql.clone(), precision])
            };
            return Ok(lowered(sql, a.ty.clone()));
        }
        TrinoType::Double | TrinoType::Real => a.ty.clone(),
        // IntervalYearToMonthAverageAggregation / IntervalDayToSecondAverageAggregation:
        // the mean of the months (milliseconds) rounded as Java's Math.round (half up).
        TrinoType::IntervalYearToMonth | TrinoType::IntervalDayToSecond => {
            let mean = SqlExpr::aggregate(AVG, call.distinct, [a.sql.clone()]);
            let half_up = SqlExpr::binary(mean, BinaryOp::Add, SqlExpr::Real(0.5));
            return Ok(lowered(
                SqlExpr::cast(QM_FLOOR.call([half_up]), Affinity::Integer),
                a.ty.clone(),
            ));
        }
        TrinoType::Unknown => TrinoType::Double,
        _ => return Ok(None),
    };
    Ok(lowered(keeping_nan(AVG, call, a), ty))
}

fn extreme(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let largest = call.name == "max";
    match call.args {
        // max(x, n) / min(x, n): the n largest / smallest, largest (smallest) first.
        [x, n] if n.ty.is_integral() || n.ty == TrinoType::Unknown => {
            if !orderable(&x.ty) {
                return Ok(None);
            }
            Ok(lowered(
                extended::top_n(largest, x, None, n.sql.clone()),
                TrinoType::Array(Box::new(x.ty.clone())),
            ))
        }
        // max(T) takes T:orderable (Trino 476: max of a map or a Bing tile is
        // FUNCTION_NOT_FOUND).
        [x] if !orderable(&x.ty) => Ok(None),
        // Arrays and rows in Trino's order (element by element, field by field).
        [x] if matches!(x.ty, TrinoType::Array(_) | TrinoType::Row(_)) => Ok(lowered(
            extended::first_element(
                extended::top_n(largest, x, None, SqlExpr::Integer(1)),
                &x.ty,
            ),
            x.ty.clone(),
        )),
        // max of doubles passes over NaN unless every value is NaN (`max(x)` over nan(), 1, 2
        // is 2.0 in Trino 476). NaN travels as the text 'NaN', which SQLite's max orders above
        // every number (its min already passes over it): the numbers' max first, and only
        // when there is none, the max of all ('NaN' or NULL). Two of SQLite's own aggregates,
        // so the state stays two values and a window runs them as it runs max.
        [x] if largest && crate::udf::double_ops::may_be_nan(&x.ty, &x.sql) => {
            let numbers = NULLIF.call([x.sql.clone(), SqlExpr::text("NaN")]);
            Ok(lowered(
                COALESCE.call([
                    SqlExpr::aggregate(MAX, call.distinct, [numbers]),
                    SqlExpr::aggregate(MAX, call.distinct, [x.sql.clone()]),
                ]),
                x.ty.clone(),
            ))
        }
        [x] => {
            let f = if largest { MAX } else { MIN };
            Ok(lowered(
                SqlExpr::aggregate(f, call.distinct, [x.sql.clone()]),
                x.ty.clone(),
            ))
        }
        _ => Ok(None),
    }
}

/// Trino's orderable types (TrinoType::is_orderable).
pub(crate) fn orderable(t: &TrinoType) -> bool {
    t.is_orderable()
}

fn arbitrary(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    Ok(one(call).and_then(|a| lowered(MAX.call([a.sql.clone()]), a.ty.clone())))
}

fn boolean(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let Some(a) = one(call) else { return Ok(None) };
    if !matches!(a.ty, TrinoType::Boolean | TrinoType::Unknown) {
        return Ok(None);
    }
    let f = if call.name == "bool_or" { MAX } else { MIN };
    Ok(lowered(f.call([a.sql.clone()]), TrinoType::Boolean))
}

/// Variance and standard deviation from the sums of x and x², in doubles.
fn spread(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let Some(a) = one(call) else { return Ok(None) };
    if !is_numeric_or_null(&a.ty) || call.distinct {
        return Ok(None);
    }
    let x = SqlExpr::cast(decimal::as_double(a), Affinity::Real);
    let n = || COUNT.call([a.sql.clone()]);
    let sum_x = || SUM.call([x.clone()]);
    let sum_sq = SUM.call([SqlExpr::binary(x.clone(), BinaryOp::Multiply, x.clone())]);
    let sq_sum = SqlExpr::binary(sum_x(), BinaryOp::Multiply, sum_x());
    let centered = SqlExpr::binary(sum_sq, BinaryOp::Subtract, QM_FDIV.call([sq_sum, n()]));
    let variance = if call.name.ends_with("_pop") {
        QM_FDIV.call([centered, n()])
    } else {
        let less_one = SqlExpr::binary(n(), BinaryOp::Subtract, SqlExpr::Integer(1));
        SqlExpr::case_when(
            vec![(
                SqlExpr::binary(n(), BinaryOp::Greater, SqlExpr::Integer(1)),
                QM_FDIV.call([centered, less_one]),
            )],
            None,
        )
    };
    let sql = if call.name.starts_with("stddev") {
        QM_SQRT.call([variance])
    } else {
        variance
    };
    Ok(lowered(sql, TrinoType::Double))
}

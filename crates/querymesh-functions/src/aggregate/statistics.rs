//! Statistical aggregates (Trino docs functions/aggregate, "Statistical aggregate functions"):
//! corr, covar_pop, covar_samp, regr_slope, regr_intercept, skewness and kurtosis, run by
//! the moments of aggregate/sqlite/statistics.rs.

use querymesh_values::decimal;
use querymesh_values::sqlite_expr::{SqlExpr, SqliteFn};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::lowered;
use super::sqlite::{
    QM_CORR, QM_CORR_REAL, QM_COVAR_POP, QM_COVAR_POP_REAL, QM_COVAR_SAMP, QM_COVAR_SAMP_REAL,
    QM_KURTOSIS, QM_REGR_INTERCEPT, QM_REGR_INTERCEPT_REAL, QM_REGR_SLOPE, QM_REGR_SLOPE_REAL,
    QM_SKEWNESS,
};
use crate::context::LowerContext;
use crate::entry::{AggregateCall, FunctionDef, aggregate};

type Lowered = crate::entry::AggregateLowered;

const PAIRS: &[(&str, &str)] = &[("double, double", "double"), ("real, real", "real")];
const VALUES: &[(&str, &str)] = &[("double", "double"), ("bigint", "double")];

pub const FUNCTIONS: &[FunctionDef] = &[
    aggregate("corr", PAIRS, pairs, "Correlation coefficient of the pairs"),
    aggregate(
        "covar_pop",
        PAIRS,
        pairs,
        "Population covariance of the pairs",
    ),
    aggregate("covar_samp", PAIRS, pairs, "Sample covariance of the pairs"),
    aggregate(
        "regr_slope",
        PAIRS,
        pairs,
        "Slope of the linear regression line of y on x",
    ),
    aggregate(
        "regr_intercept",
        PAIRS,
        pairs,
        "Intercept of the linear regression line of y on x",
    ),
    aggregate("skewness", VALUES, values, "Skewness of the values"),
    aggregate("kurtosis", VALUES, values, "Excess kurtosis of the values"),
];

fn number_or_null(t: &TrinoType) -> bool {
    t.is_numeric() || *t == TrinoType::Unknown
}

/// `f(y, x)`: double when either argument is a double, else real — Trino coerces integers and
/// decimals to real, the cheaper of its two signatures (`corr(1, 2)` is a real).
fn pairs(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [y, x] = call.args else { return Ok(None) };
    if !number_or_null(&y.ty) || !number_or_null(&x.ty) || call.distinct {
        return Ok(None);
    }
    let (double, float) = match call.name {
        "corr" => (QM_CORR, QM_CORR_REAL),
        "covar_pop" => (QM_COVAR_POP, QM_COVAR_POP_REAL),
        "covar_samp" => (QM_COVAR_SAMP, QM_COVAR_SAMP_REAL),
        "regr_slope" => (QM_REGR_SLOPE, QM_REGR_SLOPE_REAL),
        "regr_intercept" => (QM_REGR_INTERCEPT, QM_REGR_INTERCEPT_REAL),
        _ => return Ok(None),
    };
    let real = y.ty != TrinoType::Double && x.ty != TrinoType::Double;
    let (f, ty): (SqliteFn, _) = if real {
        (float, TrinoType::Real)
    } else {
        (double, TrinoType::Double)
    };
    Ok(lowered(
        f.call([as_number(y, real), as_number(x, real)]),
        ty,
    ))
}

fn values(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x] = call.args else { return Ok(None) };
    if !number_or_null(&x.ty) || call.distinct {
        return Ok(None);
    }
    let f = match call.name {
        "skewness" => QM_SKEWNESS,
        "kurtosis" => QM_KURTOSIS,
        _ => return Ok(None),
    };
    Ok(lowered(f.call([as_number(x, false)]), TrinoType::Double))
}

/// A decimal as the real or double Trino coerces it to; other numbers are read as they are
/// (the aggregate rounds to a float in its real form).
fn as_number(t: &Typed, real: bool) -> SqlExpr {
    match t.ty {
        TrinoType::Decimal { scale, .. } => decimal::to_double_sql(t, scale, real),
        _ => t.sql.clone(),
    }
}

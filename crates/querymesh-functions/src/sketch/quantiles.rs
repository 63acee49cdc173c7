//! The quantile digest and t-digest functions (Trino docs functions/qdigest and
//! functions/tdigest; QuantileDigestAggregationFunction, MergeQuantileDigestFunction,
//! QuantileDigestFunctions, TDigestAggregationFunction, MergeTDigestAggregation,
//! TDigestFunctions). A `qdigest(T)` holds bigints as they are, doubles and reals as their
//! sortable bits (qdigest.rs); a `tdigest` holds doubles.
//!
//! `merge` is one aggregate for HyperLogLogs, qdigests and tdigests (its lowering picks by
//! the argument's type).

use querymesh_values::error::{ErrorName, TrinoError};
use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::sqlite::{
    QM_MERGE_QDIGEST, QM_MERGE_TDIGEST, QM_QDIGEST_AGG, QM_QDIGEST_AGG_WEIGHTED,
    QM_QDIGEST_QUANTILE_AT_VALUE, QM_QDIGEST_SORTABLE, QM_QDIGEST_VALUE_AT_QUANTILE,
    QM_QDIGEST_VALUES_AT_QUANTILES, QM_TDIGEST_AGG, QM_TDIGEST_AGG_WEIGHTED,
    QM_TDIGEST_VALUE_AT_QUANTILE, QM_TDIGEST_VALUES_AT_QUANTILES,
};
use crate::Call;
use crate::aggregate::lowered;
use crate::context::LowerContext;
use crate::entry::{AggregateCall, FunctionDef, Lower, LowerResult, Typing, aggregate, scalar};

type Lowered = crate::entry::AggregateLowered;

/// How a qdigest's longs are the values of its type: the `kind` argument of its `qm_*`
/// functions.
const BIGINT_KIND: i64 = 0;
const DOUBLE_KIND: i64 = 1;
const REAL_KIND: i64 = 2;
/// QuantileDigestFunctions.DEFAULT_ACCURACY, when a weight but no accuracy is given.
const DEFAULT_ACCURACY: f64 = 0.01;

const QUANTILE_DESCRIPTION: &str = "Given an input q between [0, 1], find the value whose rank in the sorted sequence of the n values represented by the qdigest is qn.";
const QUANTILES_DESCRIPTION: &str = "For each input q between [0, 1], find the value whose rank in the sorted sequence of the n values represented by the qdigest is qn.";

pub const FUNCTIONS: &[FunctionDef] = &[
    aggregate(
        "qdigest_agg",
        &[
            ("bigint", "qdigest(bigint)"),
            ("bigint, bigint", "qdigest(bigint)"),
            ("bigint, bigint, double", "qdigest(bigint)"),
            ("double", "qdigest(double)"),
            ("double, bigint", "qdigest(double)"),
            ("double, bigint, double", "qdigest(double)"),
            ("real", "qdigest(real)"),
            ("real, bigint", "qdigest(real)"),
            ("real, bigint, double", "qdigest(real)"),
        ],
        qdigest_agg,
        // Trino's description names the type ("… of doubles", "… of reals"); one entry has
        // one description here.
        "Returns a qdigest from the set of bigints",
    ),
    aggregate(
        "tdigest_agg",
        &[("double", "tdigest"), ("double, double", "tdigest")],
        tdigest_agg,
        // Trino 476 lists no description; the registry's entries each have one.
        "Returns a tdigest from the set of doubles",
    ),
    aggregate(
        "merge",
        &[
            ("hyperloglog", "hyperloglog"),
            ("qdigest(V)", "qdigest(V)"),
            ("tdigest", "tdigest"),
        ],
        merge,
        // Trino's, for qdigests (its HyperLogLog and tdigest rows list none).
        "Merges the input quantile digests into a single quantile digest",
    ),
    scalar(
        "value_at_quantile",
        &[
            ("qdigest(bigint), double", "bigint"),
            ("qdigest(double), double", "double"),
            ("tdigest, double", "double"),
            ("qdigest(real), double", "real"),
        ],
        Typing::Resolved,
        Lower::Scalar(value_at_quantile),
        QUANTILE_DESCRIPTION,
    ),
    scalar(
        "values_at_quantiles",
        &[
            ("qdigest(bigint), array(double)", "array(bigint)"),
            ("qdigest(double), array(double)", "array(double)"),
            ("tdigest, array(double)", "array(double)"),
            ("qdigest(real), array(double)", "array(real)"),
        ],
        Typing::Resolved,
        Lower::Scalar(values_at_quantiles),
        QUANTILES_DESCRIPTION,
    ),
    scalar(
        "quantile_at_value",
        &[
            ("qdigest(bigint), bigint", "double"),
            ("qdigest(double), double", "double"),
            ("qdigest(real), real", "double"),
        ],
        Typing::Resolved,
        Lower::Scalar(quantile_at_value),
        "Given an input x between min/max values of qdigest, find which quantile is represented by that value",
    ),
];

/// The value types a qdigest holds (QuantileDigestType's parameters Trino casts and builds).
pub fn is_qdigest_value(ty: &TrinoType) -> bool {
    matches!(ty, TrinoType::BigInt | TrinoType::Double | TrinoType::Real)
}

fn kind_of(ty: &TrinoType) -> Option<i64> {
    match ty {
        TrinoType::BigInt => Some(BIGINT_KIND),
        TrinoType::Double => Some(DOUBLE_KIND),
        TrinoType::Real => Some(REAL_KIND),
        _ => None,
    }
}

/// qdigest_agg(x[, w[, accuracy]]): x's type picks the digest's (integers widen to bigint,
/// a decimal to real — Trino 476 types `qdigest_agg(CAST(x AS decimal(5,2)))` qdigest(real));
/// the weight is a bigint, the accuracy a double.
fn qdigest_agg(ctx: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let Some((x, rest)) = call.args.split_first() else {
        return Ok(None);
    };
    if rest.len() > 2 {
        return Ok(None);
    }
    let value_type = match &x.ty {
        t if t.is_integral() => TrinoType::BigInt,
        TrinoType::Real | TrinoType::Decimal { .. } => TrinoType::Real,
        TrinoType::Double => TrinoType::Double,
        TrinoType::Unknown => TrinoType::BigInt,
        _ => return Ok(None),
    };
    let value = ctx.coerce_to(x.clone(), &value_type, None)?;
    let mut args = vec![value.sql];
    for (arg, target) in rest.iter().zip([TrinoType::BigInt, TrinoType::Double]) {
        let fits = arg.ty == TrinoType::Unknown
            || (target == TrinoType::BigInt && arg.ty.is_integral())
            || (target == TrinoType::Double && arg.ty.is_numeric());
        if !fits {
            return Ok(None);
        }
        args.push(ctx.coerce_to(arg.clone(), &target, None)?.sql);
    }
    let kind = kind_of(&value_type).unwrap_or(BIGINT_KIND);
    // Aggregated as the longs the digest holds; DISTINCT over them is DISTINCT over the
    // values (SQLite takes DISTINCT with one argument only).
    let mut args = args.into_iter();
    let Some(value) = args.next() else {
        return Ok(None);
    };
    let held = QM_QDIGEST_SORTABLE.call([value, SqlExpr::Integer(kind)]);
    let sql = match (args.next(), args.next()) {
        (None, _) => SqlExpr::aggregate(QM_QDIGEST_AGG, call.distinct, [held]),
        _ if call.distinct => {
            return Err(TrinoError::new(
                ErrorName::NotSupported,
                "qdigest_agg(DISTINCT …) with a weight is not supported by the stand-in",
            ));
        }
        (Some(w), accuracy) => {
            let accuracy = accuracy.unwrap_or(SqlExpr::Real(DEFAULT_ACCURACY));
            QM_QDIGEST_AGG_WEIGHTED.call([held, w, accuracy])
        }
    };
    Ok(lowered(sql, TrinoType::QDigest(Box::new(value_type))))
}

/// tdigest_agg(x[, w]): doubles (every number coerced).
fn tdigest_agg(ctx: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    if call.args.is_empty() || call.args.len() > 2 {
        return Ok(None);
    }
    let mut args = Vec::new();
    for arg in call.args {
        if !(arg.ty.is_numeric() || arg.ty == TrinoType::Unknown) {
            return Ok(None);
        }
        args.push(ctx.coerce_to(arg.clone(), &TrinoType::Double, None)?.sql);
    }
    let sql = match args.as_slice() {
        [x] => SqlExpr::aggregate(QM_TDIGEST_AGG, call.distinct, [x.clone()]),
        [_, _] if !call.distinct => QM_TDIGEST_AGG_WEIGHTED.call(args),
        _ => {
            return Err(TrinoError::new(
                ErrorName::NotSupported,
                "tdigest_agg(DISTINCT …) with a weight is not supported by the stand-in",
            ));
        }
    };
    Ok(lowered(sql, TrinoType::TDigest))
}

/// merge(d): the union of HyperLogLogs, or the merged qdigests or tdigests; NULL when every
/// input is NULL.
fn merge(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [d] = call.args else { return Ok(None) };
    if let Some(lowered) = super::hyperloglog::merge(d) {
        return Ok(Some(lowered));
    }
    let f = match &d.ty {
        TrinoType::QDigest(v) if is_qdigest_value(v) => QM_MERGE_QDIGEST,
        TrinoType::TDigest => QM_MERGE_TDIGEST,
        _ => return Ok(None),
    };
    Ok(lowered(
        SqlExpr::aggregate(f, call.distinct, [d.sql.clone()]),
        d.ty.clone(),
    ))
}

/// The digest argument's kind, `None` for a tdigest.
fn digest_kind(c: &Call) -> Option<Option<i64>> {
    match &c.args.first()?.ty {
        TrinoType::QDigest(v) => kind_of(v).map(Some),
        TrinoType::TDigest => Some(None),
        _ => None,
    }
}

fn result_of(kind: Option<i64>) -> TrinoType {
    match kind {
        Some(BIGINT_KIND) => TrinoType::BigInt,
        Some(REAL_KIND) => TrinoType::Real,
        _ => TrinoType::Double,
    }
}

fn value_at_quantile(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let (Some(kind), [d, q]) = (digest_kind(c), c.args.as_slice()) else {
        return Ok(None);
    };
    let (d, q) = (d.sql.clone(), q.sql.clone());
    let sql = match kind {
        Some(kind) => QM_QDIGEST_VALUE_AT_QUANTILE.call([d, q, SqlExpr::Integer(kind)]),
        None => QM_TDIGEST_VALUE_AT_QUANTILE.call([d, q]),
    };
    Ok(Some(Typed::new(sql, result_of(kind))))
}

fn values_at_quantiles(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let (Some(kind), [d, qs]) = (digest_kind(c), c.args.as_slice()) else {
        return Ok(None);
    };
    let (d, qs) = (d.sql.clone(), qs.sql.clone());
    let sql = match kind {
        Some(kind) => QM_QDIGEST_VALUES_AT_QUANTILES.call([d, qs, SqlExpr::Integer(kind)]),
        None => QM_TDIGEST_VALUES_AT_QUANTILES.call([d, qs]),
    };
    Ok(Some(Typed::new(
        sql,
        TrinoType::Array(Box::new(result_of(kind))),
    )))
}

fn quantile_at_value(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let (Some(Some(kind)), [d, x]) = (digest_kind(c), c.args.as_slice()) else {
        return Ok(None);
    };
    Ok(Some(Typed::new(
        QM_QDIGEST_QUANTILE_AT_VALUE.call([d.sql.clone(), x.sql.clone(), SqlExpr::Integer(kind)]),
        TrinoType::Double,
    )))
}

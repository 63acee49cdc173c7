//! Aggregates beyond SQLite's own (Trino docs functions/aggregate): max_by / min_by (with n
//! too), approx_percentile, geometric_mean, bitwise_and_agg / bitwise_or_agg /
//! bitwise_xor_agg, checksum, reduce_agg (its entry; the analysis lowers it) and listagg,
//! run by the Rust aggregates of aggregate/sqlite/ and aggregate/checksum.rs.

use querymesh_values::decimal;
use querymesh_values::element::{from_element, to_element};
use querymesh_values::error::{ErrorName, TrinoError, error_at};
use querymesh_values::sqlite_expr::builtin::{AVG, JSON_ARRAY, JSON_EXTRACT, MAX};
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;
use sqlparser::ast::ListAggOnOverflow;

use super::complex_checksum::QM_CHECKSUM_COMPLEX_HASH;
use super::sqlite::{
    QM_BITWISE_AND, QM_BITWISE_OR, QM_BITWISE_XOR, QM_LISTAGG, QM_MAX_BY, QM_MAX_BY_N, QM_MAX_N,
    QM_MIN_BY, QM_MIN_BY_N, QM_MIN_N, QM_PERCENTILE,
};
use super::{lowered, orderable};
use crate::aggregate::checksum::Kind;
use crate::context::LowerContext;
use crate::entry::{AggregateCall, FunctionDef, aggregate};
use crate::udf::numbers::{QM_EXP, QM_LN};

type Lowered = crate::entry::AggregateLowered;

pub const FUNCTIONS: &[FunctionDef] = &[
    aggregate(
        "max_by",
        &[("T, U", "T"), ("T, U, bigint", "array(T)")],
        value_at_extreme,
        "Returns the value of x associated with the maximum value of y",
    ),
    aggregate(
        "min_by",
        &[("T, U", "T"), ("T, U, bigint", "array(T)")],
        value_at_extreme,
        "Returns the value of x associated with the minimum value of y",
    ),
    aggregate(
        "approx_percentile",
        &[
            ("bigint, double", "bigint"),
            ("double, double", "double"),
            ("real, double", "real"),
        ],
        percentile,
        "Approximate percentile of the values at the given percentage (computed exactly here)",
    ),
    aggregate(
        "geometric_mean",
        &[("bigint", "double"), ("double", "double"), ("real", "real")],
        geometric_mean,
        "Geometric mean of the input values",
    ),
    aggregate(
        "bitwise_and_agg",
        &[("bigint", "bigint")],
        bitwise,
        "Bitwise AND of all input values in two's complement",
    ),
    aggregate(
        "bitwise_or_agg",
        &[("bigint", "bigint")],
        bitwise,
        "Bitwise OR of all input values in two's complement",
    ),
    aggregate(
        "bitwise_xor_agg",
        &[("bigint", "bigint")],
        bitwise,
        "Bitwise XOR of all input values in two's complement",
    ),
    aggregate(
        "checksum",
        &[("T", "varbinary")],
        checksum,
        "Checksum of the given values",
    ),
    aggregate(
        "reduce_agg",
        &[("T, S, function(S,T,S), function(S,S,S)", "S")],
        lowered_by_the_analysis,
        "Reduces the input values into a single value with the lambda functions",
    ),
    aggregate(
        "listagg",
        &[
            ("varchar(x)", "varchar"),
            ("varchar(x), varchar(y)", "varchar"),
        ],
        listagg,
        "Concatenates the input values, separated by the separator, in the WITHIN GROUP order",
    ),
];

/// `qm_top_n` (aggregate/sqlite/top_n.rs) over `value`, ordered by `key` (`None`: the value
/// is its own key, as in max(x, n)), keeping `n`.
pub(crate) fn top_n(largest: bool, value: &Typed, key: Option<&Typed>, n: SqlExpr) -> SqlExpr {
    let f = match (largest, key.is_none()) {
        (true, true) => QM_MAX_N,
        (false, true) => QM_MIN_N,
        (true, false) => QM_MAX_BY_N,
        (false, false) => QM_MIN_BY_N,
    };
    let key = key.unwrap_or(value);
    f.call([
        JSON_ARRAY.call([to_element(value)]),
        JSON_ARRAY.call([to_element(key)]),
        n,
        SqlExpr::text(key.ty.to_string()),
    ])
}

/// The first element of the array `top_n` answers, as a value of `ty`.
pub(crate) fn first_element(array: SqlExpr, ty: &TrinoType) -> SqlExpr {
    from_element(JSON_EXTRACT.call([array, SqlExpr::text("$[0]")]), ty)
}

/// max_by(x, y) / min_by(x, y), and with a third argument n, the x of the n rows with the
/// largest (smallest) y, largest (smallest) first.
fn value_at_extreme(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let largest = call.name == "max_by";
    let (x, y, n) = match call.args {
        [x, y] => (x, y, None),
        [x, y, n] if n.ty.is_integral() || n.ty == TrinoType::Unknown => (x, y, Some(n)),
        _ => return Ok(None),
    };
    if !orderable(&y.ty) || call.distinct {
        return Ok(None);
    }
    if let Some(n) = n {
        return Ok(lowered(
            top_n(largest, x, Some(y), n.sql.clone()),
            TrinoType::Array(Box::new(x.ty.clone())),
        ));
    }
    if matches!(y.ty, TrinoType::Array(_) | TrinoType::Row(_)) {
        return Ok(lowered(
            first_element(top_n(largest, x, Some(y), SqlExpr::Integer(1)), &x.ty),
            x.ty.clone(),
        ));
    }
    let f = if largest { QM_MAX_BY } else { QM_MIN_BY };
    Ok(lowered(
        f.call([x.sql.clone(), y.sql.clone()]),
        x.ty.clone(),
    ))
}

fn percentile(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x, p] = call.args else { return Ok(None) };
    if !(p.ty.is_numeric() || p.ty == TrinoType::Unknown) || call.distinct {
        return Ok(None);
    }
    let ty = match &x.ty {
        t if t.is_integral() => TrinoType::BigInt,
        TrinoType::Real => TrinoType::Real,
        TrinoType::Double | TrinoType::Decimal { .. } | TrinoType::Unknown => TrinoType::Double,
        _ => return Ok(None),
    };
    // Decimals are read as the doubles Trino coerces them to (the signatures take double).
    Ok(lowered(
        QM_PERCENTILE.call([decimal::as_double(x), decimal::as_double(p)]),
        ty,
    ))
}

/// exp(avg(ln x)), as Trino's GeometricMeanAggregations sums logarithms.
fn geometric_mean(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x] = call.args else { return Ok(None) };
    let ty = match &x.ty {
        TrinoType::Real => TrinoType::Real,
        t if t.is_numeric() || *t == TrinoType::Unknown => TrinoType::Double,
        _ => return Ok(None),
    };
    let x = decimal::as_double(x);
    // The logarithm of a negative value is NaN, and so is the mean (SQLite's avg would read
    // the NaN qm_ln answers, the text 'NaN', as 0).
    let negative = SqlExpr::binary(x.clone(), BinaryOp::Less, SqlExpr::Integer(0));
    let one_when_negative = SqlExpr::case_when(vec![(negative, SqlExpr::Integer(1))], None);
    let a_value_is_negative = SqlExpr::binary(
        MAX.call([one_when_negative]),
        BinaryOp::Equal,
        SqlExpr::Integer(1),
    );
    let mean_of_logs = SqlExpr::aggregate(AVG, call.distinct, [QM_LN.call([x])]);
    Ok(lowered(
        SqlExpr::iff(
            a_value_is_negative,
            SqlExpr::text("NaN"),
            QM_EXP.call([mean_of_logs]),
        ),
        ty,
    ))
}

fn bitwise(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x] = call.args else { return Ok(None) };
    if !(x.ty.is_integral() || x.ty == TrinoType::Unknown) {
        return Ok(None);
    }
    let f = match call.name {
        "bitwise_and_agg" => QM_BITWISE_AND,
        "bitwise_or_agg" => QM_BITWISE_OR,
        _ => QM_BITWISE_XOR,
    };
    Ok(lowered(f.call([x.sql.clone()]), TrinoType::BigInt))
}

/// checksum(x): one `qm_checksum_<kind>` aggregate per way of hashing the stored value (see
/// querymesh-functions/src/aggregate/checksum.rs); decimals are hashed from their exact text. Types whose Trino hash the
/// stand-in doesn't reproduce are refused rather than given a checksum Trino wouldn't give.
fn checksum(ctx: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    use TrinoType::*;
    let [x] = call.args else { return Ok(None) };
    let plain = |kind: Kind| (kind, x.sql.clone());
    let (kind, sql) = match &x.ty {
        Unknown | Boolean | TinyInt | SmallInt | Integer | BigInt => plain(Kind::Long),
        IntervalYearToMonth | IntervalDayToSecond => plain(Kind::Long),
        Real => plain(Kind::Real),
        Double => plain(Kind::Double),
        Decimal { precision, .. } => {
            let text = ctx.cast(x.clone(), &Varchar(None), false, None)?;
            let kind = if *precision <= 18 {
                Kind::ShortDecimal
            } else {
                Kind::LongDecimal
            };
            (kind, text.sql)
        }
        Varchar(_) | Json | Varbinary => plain(Kind::Bytes),
        Char(_) => plain(Kind::Char),
        Date => plain(Kind::Date),
        Timestamp(p) if *p <= 6 => plain(Kind::Timestamp),
        // An array's, a map's or a row's hash from its elements' (complex_checksum.rs).
        Array(_) | Map(..) | Row(_) if super::complex_checksum::element_kind(&x.ty).is_some() => (
            Kind::Hashed,
            QM_CHECKSUM_COMPLEX_HASH.call([x.sql.clone(), SqlExpr::text(x.ty.to_string())]),
        ),
        other => {
            return Err(TrinoError::new(
                ErrorName::NotSupported,
                format!(
                    "checksum over {} is not supported by the stand-in",
                    other.display_name()
                ),
            ));
        }
    };
    Ok(lowered(
        SqlExpr::aggregate(kind.function(), call.distinct, [sql]),
        Varbinary,
    ))
}

/// listagg(x, separator [ON OVERFLOW ERROR | TRUNCATE [filler] WITH|WITHOUT COUNT])
/// WITHIN GROUP (ORDER BY …): the separator and filler must be literals (Trino's grammar).
fn listagg(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    // listagg(x) WITHIN GROUP (…): no separator (Trino's grammar defaults it to '').
    let no_separator = Typed::new(SqlExpr::text(""), TrinoType::Varchar(Some(0)));
    let (x, separator) = match call.args {
        [x] => (x, &no_separator),
        [x, separator] => (x, separator),
        _ => return Ok(None),
    };
    let string = |t: &Typed| t.ty.is_string() || t.ty == TrinoType::Unknown;
    if !string(x) {
        // The analyzer's check of the value (ExpressionAnalyzer.visitListagg) comes before
        // any signature is looked at.
        return Err(error_at(
            ErrorName::TypeMismatch,
            None,
            format!(
                "Expected expression of varchar, but the listagg value has {} type",
                x.ty
            ),
        ));
    }
    if !string(separator) {
        return Ok(None);
    }
    if !separator.sql.to_string().starts_with('\'') {
        return Err(error_at(
            ErrorName::SyntaxError,
            None,
            "The separator of listagg must be a string literal",
        ));
    }
    let (truncate, filler, with_count) = match call.listagg_overflow {
        None | Some(ListAggOnOverflow::Error) => (0, SqlExpr::text(""), 0),
        Some(ListAggOnOverflow::Truncate { filler, with_count }) => {
            let filler = match filler.as_deref() {
                None => SqlExpr::text("..."),
                Some(sqlparser::ast::Expr::Value(v)) => match &v.value {
                    sqlparser::ast::Value::SingleQuotedString(s) => SqlExpr::text(s),
                    _ => return Err(filler_not_literal()),
                },
                Some(_) => return Err(filler_not_literal()),
            };
            (1, filler, i64::from(*with_count))
        }
    };
    // DISTINCT: SQLite's DISTINCT takes one argument, so the aggregate drops repeats itself.
    let distinct = i64::from(call.distinct);
    let args = [
        x.sql.clone(),
        separator.sql.clone(),
        SqlExpr::Integer(truncate),
        filler,
        SqlExpr::Integer(with_count),
        SqlExpr::Integer(distinct),
    ];
    let within_group = SqlExpr::Aggregate {
        function: QM_LISTAGG,
        distinct: false,
        args: args.into(),
        order_by: call.order_by.clone(),
        filter: None,
    };
    Ok(lowered(within_group, TrinoType::Varchar(None)))
}

/// reduce_agg takes lambdas, which only the analysis reads (querymesh-engine
/// sql/analyze/calls/reduce_agg.rs lowers it); no plain call reaches here.
fn lowered_by_the_analysis(_: &mut dyn LowerContext, _: &AggregateCall<'_>) -> Lowered {
    Ok(None)
}

fn filler_not_literal() -> TrinoError {
    error_at(
        ErrorName::SyntaxError,
        None,
        "The filler of listagg's ON OVERFLOW TRUNCATE must be a string literal",
    )
}

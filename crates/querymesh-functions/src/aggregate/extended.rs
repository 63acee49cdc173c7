//! Aggregates beyond SQLite's own (Trino docs functions/aggregate): max_by / min_by,
//! approx_percentile, geometric_mean, bitwise_and_agg / bitwise_or_agg / bitwise_xor_agg, checksum and listagg,
//! run by the Rust aggregates of querymesh-functions/src/aggregate/sqlite.rs and querymesh-functions/src/aggregate/checksum.rs.

use querymesh_values::decimal;
use querymesh_values::error::{ErrorName, TrinoError, error_at};
use querymesh_values::sqlite_text::sql_string;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;
use sqlparser::ast::ListAggOnOverflow;

use crate::aggregate::checksum::Kind;
use crate::context::LowerContext;
use crate::entry::{AggregateCall, FunctionDef, aggregate};

type Lowered = Result<Option<(String, TrinoType)>, TrinoError>;

pub const FUNCTIONS: &[FunctionDef] = &[
    aggregate(
        "max_by",
        &[("T, U", "T")],
        value_at_extreme,
        "Returns the value of x associated with the maximum value of y",
    ),
    aggregate(
        "min_by",
        &[("T, U", "T")],
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
        "listagg",
        &[("varchar(x), varchar(y)", "varchar")],
        listagg,
        "Concatenates the input values, separated by the separator, in the WITHIN GROUP order",
    ),
];

fn orderable(t: &TrinoType) -> bool {
    !matches!(
        t,
        TrinoType::Array(_) | TrinoType::Map(..) | TrinoType::Row(_) | TrinoType::Json
    )
}

fn value_at_extreme(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x, y] = call.args else { return Ok(None) };
    if !orderable(&y.ty) || call.distinct {
        return Ok(None);
    }
    let f = if call.name == "max_by" {
        "qm_max_by"
    } else {
        "qm_min_by"
    };
    Ok(Some((format!("{f}({}, {})", x.sql, y.sql), x.ty.clone())))
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
    Ok(Some((
        format!(
            "qm_percentile({}, {})",
            decimal::as_double(x),
            decimal::as_double(p)
        ),
        ty,
    )))
}

/// exp(avg(ln x)), as Trino's GeometricMeanAggregations sums logarithms.
fn geometric_mean(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x] = call.args else { return Ok(None) };
    let ty = match &x.ty {
        TrinoType::Real => TrinoType::Real,
        t if t.is_numeric() || *t == TrinoType::Unknown => TrinoType::Double,
        _ => return Ok(None),
    };
    let d = if call.distinct { "DISTINCT " } else { "" };
    Ok(Some((
        format!("qm_exp(avg({d}qm_ln({})))", decimal::as_double(x)),
        ty,
    )))
}

fn bitwise(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x] = call.args else { return Ok(None) };
    if !(x.ty.is_integral() || x.ty == TrinoType::Unknown) {
        return Ok(None);
    }
    let f = match call.name {
        "bitwise_and_agg" => "qm_bitwise_and",
        "bitwise_or_agg" => "qm_bitwise_or",
        _ => "qm_bitwise_xor",
    };
    Ok(Some((format!("{f}({})", x.sql), TrinoType::BigInt)))
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
    let d = if call.distinct { "DISTINCT " } else { "" };
    Ok(Some((format!("{}({d}{sql})", kind.function()), Varbinary)))
}

/// listagg(x, separator [ON OVERFLOW ERROR | TRUNCATE [filler] WITH|WITHOUT COUNT])
/// WITHIN GROUP (ORDER BY …): the separator and filler must be literals (Trino's grammar).
fn listagg(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x, separator] = call.args else {
        return Ok(None);
    };
    let string = |t: &Typed| t.ty.is_string() || t.ty == TrinoType::Unknown;
    if !string(x) || !string(separator) {
        return Ok(None);
    }
    if !separator.sql.starts_with('\'') {
        return Err(error_at(
            ErrorName::SyntaxError,
            None,
            "The separator of listagg must be a string literal",
        ));
    }
    let (truncate, filler, with_count) = match call.listagg_overflow {
        None | Some(ListAggOnOverflow::Error) => (0, sql_string(""), 0),
        Some(ListAggOnOverflow::Truncate { filler, with_count }) => {
            let filler = match filler.as_deref() {
                None => sql_string("..."),
                Some(sqlparser::ast::Expr::Value(v)) => match &v.value {
                    sqlparser::ast::Value::SingleQuotedString(s) => sql_string(s),
                    _ => return Err(filler_not_literal()),
                },
                Some(_) => return Err(filler_not_literal()),
            };
            (1, filler, i32::from(*with_count))
        }
    };
    if call.distinct {
        return Err(querymesh_values::error::not_supported(
            None,
            "listagg(DISTINCT …)",
        ));
    }
    Ok(Some((
        format!(
            "qm_listagg({}, {}, {truncate}, {filler}, {with_count}{})",
            x.sql, separator.sql, call.order_by
        ),
        TrinoType::Varchar(None),
    )))
}

fn filler_not_literal() -> TrinoError {
    error_at(
        ErrorName::SyntaxError,
        None,
        "The filler of listagg's ON OVERFLOW TRUNCATE must be a string literal",
    )
}

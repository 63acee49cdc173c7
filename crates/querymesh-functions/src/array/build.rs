//! The array functions that build arrays (sequence, split, repeat, zip), concatenation of
//! arrays and elements (`concat`, `||`) and `array_agg`.

use querymesh_values::error::{ErrorName, Position, TrinoError, error_at};
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::super::context::LowerContext;
use super::concat_overloads::{ConcatOverload, resolve_concat};
use super::sqlite::{
    QM_ARRAY_AGG, QM_ARRAY_CONCAT, QM_REPEAT, QM_SEQUENCE, QM_SPLIT, QM_SPLIT_LIMIT, QM_ZIP,
};
use super::{element_of, wrap};
use crate::Call;
use crate::entry::{AggregateCall, LowerResult};
use crate::udf::stored_digits;

/// repeat(element, count): a NULL element repeats too (RepeatFunction).
pub(super) fn repeat(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x, count] = c.args.as_slice() else {
        return Ok(None);
    };
    Ok(Some(Typed::new(
        QM_REPEAT.call([wrap(x), count.sql.clone()]),
        c.returns(),
    )))
}

/// sequence over bigints, over dates with a day or month step, or over timestamps.
pub(super) fn sequence(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let (start, stop, step) = match c.args.as_slice() {
        [a, b] => (a, b, None),
        [a, b, s] => (a, b, Some(s)),
        _ => return Ok(None),
    };
    let month = step.is_some_and(|s| s.ty == TrinoType::IntervalYearToMonth);
    let (unit, returns) = match (&start.ty, &stop.ty) {
        (TrinoType::Timestamp(a), TrinoType::Timestamp(b)) => {
            let p = (*a).max(*b);
            let kind = if month { "month" } else { "day" };
            (
                format!("timestamp-{kind}:{}", stored_digits(p)),
                TrinoType::Array(Box::new(TrinoType::Timestamp(p))),
            )
        }
        _ => match &c.returns() {
            TrinoType::Array(e) if **e == TrinoType::BigInt => ("bigint".into(), c.returns()),
            _ if month => ("month".into(), c.returns()),
            _ => ("day".into(), c.returns()),
        },
    };
    Ok(Some(Typed::new(
        QM_SEQUENCE.call([
            start.sql.clone(),
            stop.sql.clone(),
            step.map_or(SqlExpr::Null, |s| s.sql.clone()),
            SqlExpr::text(unit),
            SqlExpr::Integer(i64::from(step.is_some())),
        ]),
        returns,
    )))
}

/// split(string, delimiter[, limit]): `array(varchar(x))` of the string's own length.
pub(super) fn split(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let (s, delimiter, limit) = match c.args.as_slice() {
        [s, d] => (s, d, None),
        [s, d, l] => (s, d, Some(l)),
        _ => return Ok(None),
    };
    let part = match &s.ty {
        TrinoType::Char(n) => TrinoType::Varchar(Some(*n)),
        TrinoType::Varchar(n) => TrinoType::Varchar(*n),
        // split(NULL, ',') is an array(varchar(0)).
        TrinoType::Unknown => TrinoType::Varchar(Some(0)),
        _ => TrinoType::Varchar(None),
    };
    let sql = match limit {
        None => QM_SPLIT.call([s.sql.clone(), delimiter.sql.clone(), SqlExpr::Null]),
        Some(l) => QM_SPLIT_LIMIT.call([s.sql.clone(), delimiter.sql.clone(), l.sql.clone()]),
    };
    Ok(Some(Typed::new(sql, TrinoType::Array(Box::new(part)))))
}

/// zip(a1, …, an), 2 ≤ n ≤ 5: `array(row(T1, …))` with anonymous fields (Trino 476's
/// ZipFunction builds `RowType.anonymous`), NULL-padded to the longest.
pub(super) fn zip(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if !(2..=5).contains(&c.args.len())
        || !c
            .args
            .iter()
            .all(|a| matches!(a.ty, TrinoType::Array(_) | TrinoType::Unknown))
    {
        return Ok(None);
    }
    let fields = c.args.iter().map(|a| (None, element_of(a))).collect();
    Ok(Some(Typed::new(
        QM_ZIP.call(c.args.iter().map(|a| a.sql.clone())),
        TrinoType::Array(Box::new(TrinoType::Row(fields))),
    )))
}

/// `concat(…)` and `||` when they bind one of the array overloads (concat_overloads.rs):
/// arrays of a common element type (ArrayConcatFunction), or one array and one element
/// (ArrayToElementConcatFunction / ElementToArrayConcatFunction); NULL when any argument is
/// NULL. `None`: the call binds a string or binary overload, or none (the caller reports it);
/// AMBIGUOUS_FUNCTION_CALL when Trino cannot choose.
pub fn array_concat(
    ctx: &mut dyn LowerContext,
    args: &[Typed],
    at: Option<Position>,
) -> Result<Option<Typed>, TrinoError> {
    let types: Vec<TrinoType> = args.iter().map(|a| a.ty.clone()).collect();
    let Some(bound) = resolve_concat(&types, at)? else {
        return Ok(None);
    };
    let element_position = match bound.overload {
        ConcatOverload::Arrays => None,
        ConcatOverload::ArrayToElement => Some(1),
        ConcatOverload::ElementToArray => Some(0),
        ConcatOverload::Varchar | ConcatOverload::Varbinary | ConcatOverload::Char => {
            return Ok(None);
        }
    };
    if args.len() < 2 {
        return Err(error_at(
            ErrorName::InvalidFunctionArgument,
            at,
            "There must be two or more concatenation arguments",
        ));
    }
    let mut parts = Vec::with_capacity(args.len());
    let mut nullable = Vec::new();
    for (i, (a, formal)) in args.iter().zip(&bound.arguments).enumerate() {
        let coerced = ctx.coerce_to(a.clone(), formal, at)?;
        if Some(i) == element_position {
            // A NULL element makes the whole concatenation NULL (Trino 476:
            // `ARRAY[2, 8] || CAST(NULL AS integer)` is NULL).
            nullable.push(SqlExpr::is_null(coerced.sql.clone()));
            parts.push(wrap(&coerced));
        } else {
            parts.push(coerced.sql);
        }
    }
    let concatenated = QM_ARRAY_CONCAT.call(parts);
    let sql = match any_of(nullable) {
        None => concatenated,
        Some(null) => SqlExpr::iff(null, SqlExpr::Null, concatenated),
    };
    Ok(Some(Typed::new(sql, bound.returns)))
}

/// `array_agg(x [ORDER BY …])` (ArrayAggregationFunction): NULL elements kept, NULL over
/// no rows.
pub(crate) fn array_agg(
    _: &mut dyn LowerContext,
    call: &AggregateCall<'_>,
) -> crate::entry::AggregateLowered {
    let [x] = call.args else {
        return Ok(None);
    };
    Ok(Some((
        call.aggregate(QM_ARRAY_AGG, [wrap(x)]),
        TrinoType::Array(Box::new(x.ty.clone())),
    )))
}

/// `c1 OR c2 OR …`, or `None` for no conditions.
pub(crate) fn any_of(conditions: Vec<SqlExpr>) -> Option<SqlExpr> {
    conditions
        .into_iter()
        .reduce(|l, r| SqlExpr::binary(l, BinaryOp::Or, r))
}

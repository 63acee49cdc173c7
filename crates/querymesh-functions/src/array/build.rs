//! The array functions that build arrays (sequence, split, repeat, zip), concatenation of
//! arrays and elements (`concat`, `||`) and `array_agg`.

use querymesh_values::coerce::super_type;
use querymesh_values::error::{ErrorName, Position, TrinoError, error_at};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::super::context::LowerContext;
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
        format!("qm_repeat({}, {})", wrap(x), count.sql),
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
        format!(
            "qm_sequence({}, {}, {}, '{unit}', {})",
            start.sql,
            stop.sql,
            step.map_or("NULL", |s| s.sql.as_str()),
            i32::from(step.is_some())
        ),
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
        None => format!("qm_split({}, {}, NULL)", s.sql, delimiter.sql),
        Some(l) => format!("qm_split_limit({}, {}, {})", s.sql, delimiter.sql, l.sql),
    };
    Ok(Some(Typed::new(sql, TrinoType::Array(Box::new(part)))))
}

/// zip(a1, …, an), 2 ≤ n ≤ 5: `array(row(field0 T1, …))`, NULL-padded to the longest.
pub(super) fn zip(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if !(2..=5).contains(&c.args.len())
        || !c
            .args
            .iter()
            .all(|a| matches!(a.ty, TrinoType::Array(_) | TrinoType::Unknown))
    {
        return Ok(None);
    }
    let fields = c
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| (Some(format!("field{i}")), element_of(a)))
        .collect();
    Ok(Some(Typed::new(
        format!("qm_zip({})", c.sql().join(", ")),
        TrinoType::Array(Box::new(TrinoType::Row(fields))),
    )))
}

/// `concat(…)` and `||` when an argument is an array: arrays of a common element type
/// (ArrayConcatFunction; NULL when any is NULL), or one array and one element
/// (ArrayToElementConcatFunction / ElementToArrayConcatFunction: a NULL element is
/// appended as NULL). `None`: these arguments are no array concatenation.
pub fn array_concat(
    ctx: &mut dyn LowerContext,
    args: &[Typed],
    at: Option<Position>,
) -> Result<Option<Typed>, TrinoError> {
    let arrays = |t: &Typed| matches!(t.ty, TrinoType::Array(_) | TrinoType::Unknown);
    if !args.iter().any(|t| matches!(t.ty, TrinoType::Array(_))) {
        return Ok(None);
    }
    if args.len() < 2 {
        return Err(error_at(
            ErrorName::InvalidFunctionArgument,
            at,
            "There must be two or more concatenation arguments",
        ));
    }
    if args.iter().all(arrays) {
        let common = args.iter().try_fold(TrinoType::Unknown, |acc, t| {
            super_type(&acc, &element_of(t))
        });
        if let Some(element) = common {
            let target = TrinoType::Array(Box::new(element));
            let mut parts = Vec::with_capacity(args.len());
            for a in args {
                parts.push(ctx.coerce_to(a.clone(), &target, at)?.sql);
            }
            return Ok(Some(Typed::new(
                format!("qm_array_concat({})", parts.join(", ")),
                target,
            )));
        }
    }
    let [l, r] = args else {
        return Ok(None);
    };
    // array || element, then element || array.
    for (array, item, array_first) in [(l, r, true), (r, l, false)] {
        let TrinoType::Array(e) = &array.ty else {
            continue;
        };
        let Some(element) = super_type(e, &item.ty) else {
            continue;
        };
        let target = TrinoType::Array(Box::new(element.clone()));
        let array = ctx.coerce_to(array.clone(), &target, at)?;
        let item = ctx.coerce_to(item.clone(), &element, at)?;
        let (first, second) = if array_first {
            (array.sql, wrap(&item))
        } else {
            (wrap(&item), array.sql)
        };
        return Ok(Some(Typed::new(
            format!("qm_array_concat({first}, {second})"),
            target,
        )));
    }
    Ok(None)
}

/// `array_agg(x [ORDER BY …])` (ArrayAggregationFunction): NULL elements kept, NULL over
/// no rows.
pub(crate) fn array_agg(
    _: &mut dyn LowerContext,
    call: &AggregateCall<'_>,
) -> Result<Option<(String, TrinoType)>, TrinoError> {
    let [x] = call.args else {
        return Ok(None);
    };
    let distinct = if call.distinct { "DISTINCT " } else { "" };
    Ok(Some((
        format!("qm_array_agg({distinct}{}{})", wrap(x), call.order_by),
        TrinoType::Array(Box::new(x.ty.clone())),
    )))
}

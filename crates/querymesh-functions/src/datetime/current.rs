//! The current date and time (docs functions/datetime.md "current_date", "current_time",
//! "current_timestamp", "localtime", "localtimestamp", "now"): the statement's clock in the
//! session's zone, each time value at the precision asked (SqlBase.g4 `CURRENT_TIME ('('
//! precision=INTEGER_VALUE ')')?`), 3 when none is.

use querymesh_values::error::{ErrorName, TrinoError, error_at};
use querymesh_values::sqlite_expr::{SqlExpr, builtin};
use querymesh_values::typed::{Constant, Typed};
use querymesh_values::types::TrinoType;

use super::{QM_TZ_LOCAL, now_sql};
use crate::Call;
use crate::context::LowerContext;
use crate::entry::LowerResult;

/// The wall time of `now` in its zone, a stored timestamp(3).
fn local_now(now: SqlExpr) -> SqlExpr {
    QM_TZ_LOCAL.call([now, SqlExpr::Integer(3)])
}

/// The precision a call asks for: none is 3; anything but an integer literal is Trino's
/// syntax error, one past 12 its range error naming the type.
fn precision(c: &Call, type_name: &str) -> Result<Option<u8>, TrinoError> {
    match c.args.as_slice() {
        [] => Ok(Some(3)),
        [p] => match (&p.ty, &p.constant) {
            (TrinoType::Integer | TrinoType::BigInt, Some(Constant::Int(n))) if *n >= 0 => {
                match u8::try_from(*n).ok().filter(|n| *n <= 12) {
                    Some(n) => Ok(Some(n)),
                    None => Err(TrinoError::new(
                        ErrorName::NumericValueOutOfRange,
                        format!("{type_name} precision must be in range [0, 12]: {n}"),
                    )),
                }
            }
            _ => Err(error_at(
                ErrorName::SyntaxError,
                c.at,
                "mismatched input. Expecting: <integer>",
            )),
        },
        _ => Ok(None),
    }
}

/// current_date: the date in the session zone.
pub(super) fn current_date(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let now = now_sql(&ctx.session_zone());
    Ok(c.args.is_empty().then(|| {
        Typed::new(
            builtin::SUBSTR.call([local_now(now), SqlExpr::Integer(1), SqlExpr::Integer(10)]),
            TrinoType::Date,
        )
    }))
}

/// now(): current_timestamp, which takes no precision.
pub(super) fn now(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if !c.args.is_empty() {
        return Ok(None);
    }
    current_timestamp(ctx, c)
}

/// `current_timestamp[(p)]`: the instant, in the session zone.
pub(super) fn current_timestamp(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some(p) = precision(c, "TIMESTAMP WITH TIME ZONE")? else {
        return Ok(None);
    };
    let now = Typed::new(now_sql(&ctx.session_zone()), TrinoType::TimestampTz(3));
    at_precision(ctx, now, TrinoType::TimestampTz(p), c)
}

/// `localtimestamp[(p)]`: the wall time in the session zone.
pub(super) fn local_timestamp(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some(p) = precision(c, "TIMESTAMP")? else {
        return Ok(None);
    };
    let wall = Typed::new(
        local_now(now_sql(&ctx.session_zone())),
        TrinoType::Timestamp(3),
    );
    at_precision(ctx, wall, TrinoType::Timestamp(p), c)
}

/// `current_time[(p)]`: the time of day with the session zone's offset.
pub(super) fn current_time(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some(p) = precision(c, "TIME WITH TIME ZONE")? else {
        return Ok(None);
    };
    let now = Typed::new(now_sql(&ctx.session_zone()), TrinoType::TimestampTz(3));
    at_precision(ctx, now, TrinoType::TimeTz(p), c)
}

/// `localtime[(p)]`: the wall clock's time of day in the session zone.
pub(super) fn local_time(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some(p) = precision(c, "TIME")? else {
        return Ok(None);
    };
    let wall = Typed::new(
        local_now(now_sql(&ctx.session_zone())),
        TrinoType::Timestamp(3),
    );
    at_precision(ctx, wall, TrinoType::Time(p), c)
}

/// `value` as `target`, a CAST's rounding (none when they are one type).
fn at_precision(
    ctx: &mut dyn LowerContext,
    value: Typed,
    target: TrinoType,
    c: &Call,
) -> LowerResult {
    if value.ty == target {
        return Ok(Some(value));
    }
    ctx.cast(value, &target, false, c.at).map(Some)
}

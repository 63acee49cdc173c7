//! Time zones and conversions (Trino docs functions/datetime "Time zone conversion",
//! "Date and time functions", "Convenience extraction functions", "Duration function"):
//! at_timezone, with_timezone, timezone_hour/minute, current_timezone, unix times, ISO 8601,
//! last_day_of_month, human_readable_seconds, parse_duration, to_milliseconds. Values with a
//! zone are stored as querymesh-functions/src/datetime/time_zone/sqlite says; a date or timestamp given where a timestamp with
//! time zone is expected is taken in the session zone, as Trino coerces it.

pub mod sqlite;

use querymesh_values::coerce::coerced;
use querymesh_values::sqlite_expr::{Affinity, SqlExpr, builtin};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use crate::context::LowerContext;
use crate::datetime::format::sqlite::{QM_HUMAN_READABLE_SECONDS, QM_PARSE_DURATION};
use crate::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};
use crate::{Call, is_integer_or_null, is_numeric_or_null};
use sqlite::{
    QM_TZ_AT, QM_TZ_FROM_HOURS, QM_TZ_FROM_ISO8601, QM_TZ_FROM_UNIXTIME, QM_TZ_FROM_UNIXTIME_NANOS,
    QM_TZ_ISO8601, QM_TZ_OFFSET, QM_TZ_OFFSET_ZONE, QM_TZ_UNIXTIME, QM_TZ_WITH_ZONE, QM_TZ_ZONE,
};

const fn by_lowering(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    lower: crate::entry::ScalarLowering,
    description: &'static str,
) -> FunctionDef {
    scalar(
        name,
        signatures,
        Typing::ByLowering,
        Lower::Scalar(lower),
        description,
    )
}

pub const FUNCTIONS: &[FunctionDef] = &[
    by_lowering(
        "at_timezone",
        &[
            (
                "timestamp(p) with time zone, varchar(x)",
                "timestamp(p) with time zone",
            ),
            (
                "timestamp(p) with time zone, interval day to second",
                "timestamp(p) with time zone",
            ),
        ],
        at_timezone,
        "Change the time zone component of timestamp with precision p to the given time zone",
    ),
    by_lowering(
        "with_timezone",
        &[("timestamp(p), varchar(x)", "timestamp(p) with time zone")],
        with_timezone,
        "Returns a timestamp with time zone from a timestamp and a time zone",
    ),
    by_lowering(
        "timezone_hour",
        &[
            ("timestamp(p) with time zone", "bigint"),
            ("time(p) with time zone", "bigint"),
        ],
        offset_part,
        "Hour of the time zone offset of timestamp",
    ),
    by_lowering(
        "timezone_minute",
        &[
            ("timestamp(p) with time zone", "bigint"),
            ("time(p) with time zone", "bigint"),
        ],
        offset_part,
        "Minute of the time zone offset of timestamp",
    ),
    by_lowering(
        "timezone",
        &[
            ("timestamp(p) with time zone", "varchar"),
            ("time(p) with time zone", "varchar"),
        ],
        zone_of,
        "Returns the time zone identifier of the given timestamp with time zone",
    ),
    crate::entry::FunctionDef {
        name: "current_timezone",
        kind: crate::entry::Kind::Scalar,
        signatures: &[("", "varchar")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(current_timezone),
        description: "Current time zone",
        deterministic: true,
    },
    by_lowering(
        "to_unixtime",
        &[("timestamp(p) with time zone", "double")],
        to_unixtime,
        "Returns timestamp as a UNIX timestamp",
    ),
    by_lowering(
        "from_unixtime",
        &[
            ("double", "timestamp(3) with time zone"),
            ("double, varchar(x)", "timestamp(3) with time zone"),
            ("double, bigint, bigint", "timestamp(3) with time zone"),
        ],
        from_unixtime,
        "Returns the UNIX timestamp as a timestamp with time zone",
    ),
    by_lowering(
        "from_unixtime_nanos",
        &[
            ("bigint", "timestamp(9) with time zone"),
            ("decimal(p,s)", "timestamp(9) with time zone"),
        ],
        from_unixtime_nanos,
        "Returns the UNIX timestamp in nanoseconds as a timestamp with time zone",
    ),
    by_lowering(
        "to_iso8601",
        &[
            ("date", "varchar(16)"),
            ("timestamp(p)", "varchar"),
            ("timestamp(p) with time zone", "varchar"),
        ],
        to_iso8601,
        "Formats the value as an ISO 8601 string",
    ),
    by_lowering(
        "from_iso8601_timestamp",
        &[("varchar(x)", "timestamp(3) with time zone")],
        from_iso8601,
        "Parses an ISO 8601 formatted timestamp",
    ),
    by_lowering(
        "from_iso8601_timestamp_nanos",
        &[("varchar(x)", "timestamp(9) with time zone")],
        from_iso8601,
        "Parses an ISO 8601 formatted timestamp with nanosecond precision",
    ),
    by_lowering(
        "last_day_of_month",
        &[
            ("date", "date"),
            ("timestamp(p)", "date"),
            ("timestamp(p) with time zone", "date"),
        ],
        last_day_of_month,
        "Last day of the month of the given timestamp",
    ),
    by_lowering(
        "to_milliseconds",
        &[("interval day to second", "bigint")],
        to_milliseconds,
        "The interval in milliseconds",
    ),
    by_lowering(
        "human_readable_seconds",
        &[("double", "varchar")],
        human_readable_seconds,
        "Formats seconds as weeks, days, hours, minutes and seconds",
    ),
    by_lowering(
        "parse_duration",
        &[("varchar(x)", "interval day to second")],
        parse_duration,
        "Converts a duration string (such as '3.5m') to an interval",
    ),
];

fn zone_text(t: &Typed) -> bool {
    t.ty.is_string() || t.ty == TrinoType::Unknown
}

fn at_timezone(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x, z] = c.args.as_slice() else {
        return Ok(None);
    };
    let z = &zone_operand(z.clone());
    if !zone_text(z) {
        return Ok(None);
    }
    let Some(x) = ctx.zoned(x) else {
        return Ok(None);
    };
    // An unknown zone fails in qm_tz_at with Trino's INVALID_FUNCTION_ARGUMENT.
    Ok(Some(Typed::new(
        QM_TZ_AT.call([x.sql, z.sql.clone()]),
        x.ty,
    )))
}

fn with_timezone(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x, z] = c.args.as_slice() else {
        return Ok(None);
    };
    let p = match x.ty {
        TrinoType::Timestamp(p) => p,
        TrinoType::Date => 0,
        TrinoType::Unknown => 3,
        _ => return Ok(None),
    };
    if !zone_text(z) {
        return Ok(None);
    }
    Ok(Some(Typed::new(
        QM_TZ_WITH_ZONE.call([x.sql.clone(), z.sql.clone(), precision(p)]),
        TrinoType::TimestampTz(p),
    )))
}

fn offset_part(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x] = c.args.as_slice() else {
        return Ok(None);
    };
    if let Some(part) = crate::datetime::time_of_day::part(&c.name, x) {
        return Ok(Some(part));
    }
    let Some(x) = ctx.zoned(x) else {
        return Ok(None);
    };
    let part = c.name.trim_start_matches("timezone_");
    Ok(Some(Typed::new(
        QM_TZ_OFFSET.call([x.sql, SqlExpr::text(part)]),
        TrinoType::BigInt,
    )))
}

fn zone_of(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x] = c.args.as_slice() else {
        return Ok(None);
    };
    if let Some(zone) = crate::datetime::time_of_day::zone_of(x) {
        return Ok(Some(zone));
    }
    if !matches!(x.ty, TrinoType::TimestampTz(_)) {
        return Ok(None);
    }
    let x = ctx.zoned(x).unwrap_or_else(|| x.clone());
    Ok(Some(Typed::new(
        QM_TZ_ZONE.call([x.sql]),
        TrinoType::Varchar(None),
    )))
}

fn current_timezone(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(c.args
        .is_empty()
        .then(|| Typed::new(session_zone(ctx), TrinoType::Varchar(None))))
}

fn to_unixtime(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x] = c.args.as_slice() else {
        return Ok(None);
    };
    Ok(ctx
        .zoned(x)
        .map(|x| Typed::new(QM_TZ_UNIXTIME.call([x.sql]), TrinoType::Double)))
}

fn from_unixtime(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let session = session_zone(ctx);
    let ty = TrinoType::TimestampTz(3);
    Ok(match c.args.as_slice() {
        [x] if is_numeric_or_null(&x.ty) => Some(Typed::new(
            QM_TZ_FROM_UNIXTIME.call([double(x), session, precision(3)]),
            ty,
        )),
        [x, z] if is_numeric_or_null(&x.ty) && zone_text(z) => {
            ctx.check_zone_literal(z, c.at)?;
            Some(Typed::new(
                QM_TZ_FROM_UNIXTIME.call([double(x), z.sql.clone(), precision(3)]),
                ty,
            ))
        }
        [x, h, m]
            if is_numeric_or_null(&x.ty)
                && is_integer_or_null(&h.ty)
                && is_integer_or_null(&m.ty) =>
        {
            Some(Typed::new(
                QM_TZ_FROM_HOURS.call([double(x), h.sql.clone(), m.sql.clone()]),
                ty,
            ))
        }
        _ => None,
    })
}

fn from_unixtime_nanos(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let session = session_zone(ctx);
    Ok(match c.args.as_slice() {
        [x] if is_integer_or_null(&x.ty) => Some(Typed::new(
            QM_TZ_FROM_UNIXTIME_NANOS.call([x.sql.clone(), session]),
            TrinoType::TimestampTz(9),
        )),
        // from_unixtime_nanos(decimal): rounded half up to whole nanoseconds
        // (TestDateTimeFunctions.testFromUnixTimeNanos), as the cast to bigint rounds.
        [x] if matches!(x.ty, TrinoType::Decimal { .. }) => {
            let nanos = ctx.cast(x.clone(), &TrinoType::BigInt, false, c.at)?;
            Some(Typed::new(
                QM_TZ_FROM_UNIXTIME_NANOS.call([nanos.sql, session]),
                TrinoType::TimestampTz(9),
            ))
        }
        _ => None,
    })
}

fn to_iso8601(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x] = c.args.as_slice() else {
        return Ok(None);
    };
    Ok(match x.ty {
        TrinoType::Date => Some(Typed::new(x.sql.clone(), TrinoType::Varchar(Some(16)))),
        TrinoType::Timestamp(p) => {
            let len = 19 + if p == 0 { 0 } else { i64::from(p) + 1 };
            let shown =
                builtin::SUBSTR.call([x.sql.clone(), SqlExpr::Integer(1), SqlExpr::Integer(len)]);
            Some(Typed::new(
                builtin::REPLACE.call([shown, SqlExpr::text(" "), SqlExpr::text("T")]),
                // DateTimeFunctions.toIso8601: varchar(22 + p, plus the point when p > 0).
                TrinoType::Varchar(Some(22 + u32::from(p) + u32::from(p.min(1)))),
            ))
        }
        // varchar(28 + p, plus the point): the offset's `+HH:MM` (ISO8601 `Z` is shorter).
        TrinoType::TimestampTz(p) => Some(Typed::new(
            QM_TZ_ISO8601.call([x.sql.clone(), precision(p)]),
            TrinoType::Varchar(Some(28 + u32::from(p) + u32::from(p.min(1)))),
        )),
        _ => None,
    })
}

fn from_iso8601(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x] = c.args.as_slice() else {
        return Ok(None);
    };
    if !zone_text(x) {
        return Ok(None);
    }
    let p = if c.name.ends_with("_nanos") { 9 } else { 3 };
    Ok(Some(Typed::new(
        QM_TZ_FROM_ISO8601.call([x.sql.clone(), session_zone(ctx), precision(p)]),
        TrinoType::TimestampTz(p),
    )))
}

fn last_day_of_month(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x] = c.args.as_slice() else {
        return Ok(None);
    };
    let day_of =
        |stored: SqlExpr| builtin::SUBSTR.call([stored, SqlExpr::Integer(1), SqlExpr::Integer(10)]);
    let day = match x.ty {
        TrinoType::Date => x.sql.clone(),
        TrinoType::Timestamp(_) => day_of(x.sql.clone()),
        TrinoType::TimestampTz(_) => day_of(ctx.wall_time(x).sql),
        _ => return Ok(None),
    };
    // SQLite's date modifiers: the month's first day, a month on, a day back.
    let modifiers = ["start of month", "+1 month", "-1 day"].map(SqlExpr::text);
    Ok(Some(Typed::new(
        builtin::DATE.call(std::iter::once(day).chain(modifiers)),
        TrinoType::Date,
    )))
}

fn to_milliseconds(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [x] if x.ty == TrinoType::IntervalDayToSecond => Some(Typed::new(
            SqlExpr::cast(x.sql.clone(), Affinity::Integer),
            TrinoType::BigInt,
        )),
        _ => None,
    })
}

/// A numeric argument as the double these functions take (a decimal's stored form is its
/// unscaled value, so it must be converted, as Trino coerces it to the signature's double).
fn double(x: &Typed) -> SqlExpr {
    coerced(x, &TrinoType::Double)
}

/// The session's zone id, a text argument of the functions that take a value in it.
fn session_zone(ctx: &dyn LowerContext) -> SqlExpr {
    SqlExpr::text(ctx.session_zone())
}

/// A precision argument (fraction digits) of the `qm_tz_*` functions.
fn precision(p: u8) -> SqlExpr {
    SqlExpr::Integer(i64::from(p))
}

fn human_readable_seconds(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [x] if is_numeric_or_null(&x.ty) => Some(Typed::new(
            QM_HUMAN_READABLE_SECONDS.call([double(x)]),
            TrinoType::Varchar(None),
        )),
        _ => None,
    })
}

fn parse_duration(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [x] if zone_text(x) => Some(Typed::new(
            QM_PARSE_DURATION.call([x.sql.clone()]),
            TrinoType::IntervalDayToSecond,
        )),
        _ => None,
    })
}

/// A zone given as an interval (`AT TIME ZONE INTERVAL '03:04' HOUR TO MINUTE`,
/// TestAtTimeZone.testAtTimeZoneWithOffset) as the id of its fixed offset.
pub fn zone_operand(z: Typed) -> Typed {
    if z.ty == TrinoType::IntervalDayToSecond {
        Typed::new(QM_TZ_OFFSET_ZONE.call([z.sql]), TrinoType::Varchar(None))
    } else {
        z
    }
}

//! The `qm_time_*` SQLite functions over the stored forms of value.rs.

use std::time::{SystemTime, UNIX_EPOCH};

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::functions::Context;
use rusqlite::{Connection, Error};

use super::value::{self, PICOS_PER_DAY, TimeTz};
use crate::datetime::time_zone::sqlite as zones;
use crate::udf::{FLAGS, define, fail, int, text};

/// The functions registered here, as lowerings call them.
pub const QM_TIME_PARSE: SqliteFn = SqliteFn::new("qm_time_parse");
pub const QM_TIME_TZ_PARSE: SqliteFn = SqliteFn::new("qm_time_tz_parse");
pub const QM_TIME_TEXT: SqliteFn = SqliteFn::new("qm_time_text");
pub const QM_TIME_ROUND: SqliteFn = SqliteFn::new("qm_time_round");
pub const QM_TIME_TZ_TEXT: SqliteFn = SqliteFn::new("qm_time_tz_text");
pub const QM_TIME_TZ_OF: SqliteFn = SqliteFn::new("qm_time_tz_of");
pub const QM_TIME_TZ_FROM_TSTZ: SqliteFn = SqliteFn::new("qm_time_tz_from_tstz");
pub const QM_TIME_TZ_LOCAL: SqliteFn = SqliteFn::new("qm_time_tz_local");
pub const QM_TIME_TZ_KEY: SqliteFn = SqliteFn::new("qm_time_tz_key");
pub const QM_TIME_TZ_OFFSET: SqliteFn = SqliteFn::new("qm_time_tz_offset");
pub const QM_TIME_TZ_ZONE: SqliteFn = SqliteFn::new("qm_time_tz_zone");
pub const QM_TIME_TZ_WITH: SqliteFn = SqliteFn::new("qm_time_tz_with");
pub const QM_TIME_TZ_AT: SqliteFn = SqliteFn::new("qm_time_tz_at");
pub const QM_TIME_TRUNC: SqliteFn = SqliteFn::new("qm_time_trunc");
pub const QM_TIME_ADD: SqliteFn = SqliteFn::new("qm_time_add");
pub const QM_TIME_DIFF: SqliteFn = SqliteFn::new("qm_time_diff");

fn precision(ctx: &Context<'_>, i: usize) -> u8 {
    int(ctx.get_raw(i)).unwrap_or(3).clamp(0, 12) as u8
}

fn time_tz(ctx: &Context<'_>, i: usize) -> rusqlite::Result<Option<TimeTz>> {
    match text(ctx.get_raw(i)) {
        None => Ok(None),
        Some(s) => TimeTz::parse_stored(&s).map(Some).ok_or_else(|| {
            fail(
                ErrorName::GenericInternalError,
                format!("Not a stored time with time zone: '{s}'"),
            )
        }),
    }
}

/// The offset of `zone` now, in minutes: Trino takes a time zone's offset for a time of day
/// at the session's start (CAST(time AS time with time zone), AT TIME ZONE).
fn offset_now(zone: &zones::Zone) -> i32 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    zone.offset_at(now) / 60
}

fn unit_error(unit: &str) -> Error {
    fail(
        ErrorName::InvalidFunctionArgument,
        format!("'{unit}' is not a valid TIME field"),
    )
}

fn unit(ctx: &Context<'_>) -> rusqlite::Result<Option<(String, i64)>> {
    let Some(name) = text(ctx.get_raw(0)) else {
        return Ok(None);
    };
    let picos = value::unit_picos(&name).ok_or_else(|| unit_error(&name))?;
    Ok(Some((name, picos)))
}

fn cast_error(to: &str, text: &str) -> Error {
    fail(
        ErrorName::InvalidCastArgument,
        format!("Value cannot be cast to {to}: {text}"),
    )
}

/// Registers the `qm_time_*` functions.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // qm_time_parse(text, p, try): CAST(varchar AS time(p)); an offset is refused
    // (TestTime: "Value cannot be cast to time: 12:34:56 +05:30").
    define(conn, QM_TIME_PARSE.name(), 3, FLAGS, |ctx| {
        let Some(t) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let try_cast = int(ctx.get_raw(2)).unwrap_or(0) != 0;
        match value::parse_time(t.trim()).filter(|(_, digits)| *digits <= 12) {
            Some((picos, _)) => Ok(Some(value::round(picos, precision(ctx, 1)))),
            None if try_cast => Ok(None),
            None => Err(cast_error("time", &t)),
        }
    })?;
    // qm_time_tz_parse(text, p, session zone, try): without an offset, the session zone's.
    define(conn, QM_TIME_TZ_PARSE.name(), 4, FLAGS, |ctx| {
        let (Some(t), Some(zone)) = (text(ctx.get_raw(0)), text(ctx.get_raw(2))) else {
            return Ok(None);
        };
        let try_cast = int(ctx.get_raw(3)).unwrap_or(0) != 0;
        let parsed = value::parse_time_with_offset(&t).filter(|(_, digits, _)| *digits <= 12);
        let Some((picos, _, offset)) = parsed else {
            return if try_cast {
                Ok(None)
            } else {
                Err(cast_error("time with time zone", &t))
            };
        };
        let offset_minutes = match offset {
            Some(m) => m,
            None => offset_now(&zones::zone(&zone).unwrap_or_else(|_| zones::utc_zone())),
        };
        Ok(Some(
            TimeTz {
                picos: value::round(picos, precision(ctx, 1)),
                offset_minutes,
            }
            .stored(),
        ))
    })?;
    // qm_time_text(time, p): as Trino writes a time(p).
    define(conn, QM_TIME_TEXT.name(), 2, FLAGS, |ctx| {
        Ok(int(ctx.get_raw(0)).map(|picos| value::format(picos, precision(ctx, 1))))
    })?;
    define(conn, QM_TIME_ROUND.name(), 2, FLAGS, |ctx| {
        Ok(int(ctx.get_raw(0)).map(|picos| value::round(picos, precision(ctx, 1))))
    })?;
    define(conn, QM_TIME_TZ_TEXT.name(), 2, FLAGS, |ctx| {
        Ok(time_tz(ctx, 0)?.map(|t| t.display(precision(ctx, 1))))
    })?;
    // qm_time_tz_of(time, zone): the time with the zone's offset now.
    define(conn, QM_TIME_TZ_OF.name(), 2, FLAGS, |ctx| {
        let (Some(picos), Some(zone)) = (int(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let zone = zones::zone(&zone).unwrap_or_else(|_| zones::utc_zone());
        Ok(Some(
            TimeTz {
                picos,
                offset_minutes: offset_now(&zone),
            }
            .stored(),
        ))
    })?;
    // qm_time_tz_from_tstz(timestamp with time zone, p): its wall time of day and the offset
    // its zone has at that instant.
    define(conn, QM_TIME_TZ_FROM_TSTZ.name(), 2, FLAGS, |ctx| {
        let Some(z) = text(ctx.get_raw(0)).and_then(|s| zones::parse_stored(&s)) else {
            return Ok(None);
        };
        let local = z.local().rem_euclid(86_400);
        let picos = local * value::PICOS_PER_SECOND + z.picos as i64;
        Ok(Some(
            TimeTz {
                picos: value::round(picos, precision(ctx, 1)),
                offset_minutes: z.zone.offset_at(z.secs) / 60,
            }
            .stored(),
        ))
    })?;
    define(conn, QM_TIME_TZ_LOCAL.name(), 1, FLAGS, |ctx| {
        Ok(time_tz(ctx, 0)?.map(|t| t.picos))
    })?;
    define(conn, QM_TIME_TZ_KEY.name(), 1, FLAGS, |ctx| {
        Ok(time_tz(ctx, 0)?.map(|t| t.key()))
    })?;
    define(conn, QM_TIME_TZ_OFFSET.name(), 1, FLAGS, |ctx| {
        Ok(time_tz(ctx, 0)?.map(|t| i64::from(t.offset_minutes)))
    })?;
    define(conn, QM_TIME_TZ_ZONE.name(), 1, FLAGS, |ctx| {
        Ok(time_tz(ctx, 0)?.map(|t| value::format_offset(t.offset_minutes)))
    })?;
    // qm_time_tz_with(x, time): x's offset with another local time (arithmetic, date_trunc).
    define(conn, QM_TIME_TZ_WITH.name(), 2, FLAGS, |ctx| {
        let (Some(t), Some(picos)) = (time_tz(ctx, 0)?, int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        Ok(Some(
            TimeTz {
                picos: picos.rem_euclid(PICOS_PER_DAY),
                ..t
            }
            .stored(),
        ))
    })?;
    // qm_time_tz_at(x, zone): the same instant at the zone's offset (AT TIME ZONE).
    define(conn, QM_TIME_TZ_AT.name(), 2, FLAGS, |ctx| {
        let (Some(t), Some(name)) = (time_tz(ctx, 0)?, text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let zone = zones::zone(&name).map_err(|_| {
            fail(
                ErrorName::InvalidFunctionArgument,
                format!("'{name}' is not a valid time zone"),
            )
        })?;
        Ok(Some(t.at_offset(offset_now(&zone)).stored()))
    })?;
    // qm_time_trunc(unit, time) (DateTimeFunctions.truncateTime).
    define(conn, QM_TIME_TRUNC.name(), 2, FLAGS, |ctx| {
        let (Some((_, unit)), Some(picos)) = (unit(ctx)?, int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        Ok(Some(picos / unit * unit))
    })?;
    // qm_time_add(unit, n, time): wraps modulo a day (DateTimeFunctions.addFieldValueTime).
    define(conn, QM_TIME_ADD.name(), 3, FLAGS, |ctx| {
        let (Some((_, unit)), Some(n), Some(picos)) =
            (unit(ctx)?, int(ctx.get_raw(1)), int(ctx.get_raw(2)))
        else {
            return Ok(None);
        };
        let sum = i128::from(picos) + i128::from(n) * i128::from(unit);
        Ok(Some(sum.rem_euclid(i128::from(PICOS_PER_DAY)) as i64))
    })?;
    // qm_time_diff(unit, a, b): whole units from a to b, truncated toward zero.
    define(conn, QM_TIME_DIFF.name(), 3, FLAGS, |ctx| {
        let (Some((_, unit)), Some(a), Some(b)) =
            (unit(ctx)?, int(ctx.get_raw(1)), int(ctx.get_raw(2)))
        else {
            return Ok(None);
        };
        Ok(Some((b - a) / unit))
    })?;
    Ok(())
}

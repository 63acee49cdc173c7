//! The `qm_tz_*` SQLite functions over the representation zones.rs defines.

use super::*;

/// Registers the `qm_tz_*` functions.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // qm_tz_from_varchar(text, p, session zone, try)
    define(conn, QM_TZ_FROM_VARCHAR.name(), 4, FLAGS, |ctx| {
        let Some(t) = text(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        let session: String = ctx.get(2)?;
        let try_cast = int(ctx.get_raw(3)).unwrap_or(0) != 0;
        match cast_from_varchar(&t, &session, precision_arg(ctx, 1)) {
            Err(_) if try_cast => Ok(Value::Null),
            other => other,
        }
    })?;
    // qm_tz_from_ts(timestamp text, zone, p): the wall time taken in the zone.
    define(conn, QM_TZ_FROM_TS.name(), 3, FLAGS, |ctx| {
        let Some(t) = text(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        let Some(name) = text(ctx.get_raw(1)) else {
            return Ok(Value::Null);
        };
        from_local_text(&t, &zone_arg(&name)?, precision_arg(ctx, 2))
    })?;
    // qm_tz_with_zone(timestamp text, zone, p): with_timezone, whose unknown zone is
    // "'Foo' is not a valid time zone" (TestDateTimeFunctions.testWithTimezone).
    define(conn, "qm_tz_with_zone", 3, FLAGS, |ctx| {
        let (Some(t), Some(name)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        let zone = zone(&name).map_err(|_| {
            fail(
                ErrorName::InvalidFunctionArgument,
                format!("'{name}' is not a valid time zone"),
            )
        })?;
        from_local_text(&t, &zone, precision_arg(ctx, 2))
    })?;
    // qm_tz_local(x, p): the wall time as a stored timestamp(p).
    define(conn, QM_TZ_LOCAL.name(), 2, FLAGS, |ctx| {
        Ok(stored_arg(ctx, 0)?.map(|z| z.local_timestamp(precision_arg(ctx, 1))))
    })?;
    // qm_tz_text(x, p): as Trino writes it.
    define(conn, QM_TZ_TEXT.name(), 2, FLAGS, |ctx| {
        Ok(stored_arg(ctx, 0)?.map(|z| z.display(precision_arg(ctx, 1))))
    })?;
    define(
        conn,
        QM_TZ_ROUND.name(),
        2,
        FLAGS,
        |ctx| match stored_arg(ctx, 0)? {
            None => Ok(Value::Null),
            Some(z) => result(Zoned::new(z.secs, z.picos, z.zone, precision_arg(ctx, 1))),
        },
    )?;
    // qm_tz_at(x, zone): the same instant in another zone (at_timezone, AT TIME ZONE).
    define(conn, QM_TZ_AT.name(), 2, FLAGS, |ctx| {
        let (Some(z), Some(name)) = (stored_arg(ctx, 0)?, text(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        // TestAtTimeZone: "'Nowhere' is not a valid time zone".
        let zone = zone_as_written(&name).map_err(|_| {
            fail(
                ErrorName::InvalidFunctionArgument,
                format!("'{name}' is not a valid time zone"),
            )
        })?;
        Ok(Value::Text(Zoned { zone, ..z }.stored()))
    })?;
    // qm_tz_offset_zone(milliseconds): the fixed zone of an interval (AT TIME ZONE INTERVAL).
    define(conn, "qm_tz_offset_zone", 1, FLAGS, |ctx| {
        let Some(ms) = int(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let minutes = ms / 60_000;
        let bad = || {
            fail(
                ErrorName::InvalidFunctionArgument,
                format!("Invalid offset minutes {minutes}"),
            )
        };
        if ms % 60_000 != 0 || minutes.abs() > 14 * 60 {
            return Err(bad());
        }
        let seconds = i32::try_from(minutes * 60).map_err(|_| bad())?;
        Ok(Some(if seconds == 0 {
            "UTC".to_string()
        } else {
            offset_id(seconds)
        }))
    })?;
    // qm_tz_offset(x, 'hour' | 'minute'): timezone_hour, timezone_minute.
    define(conn, QM_TZ_OFFSET.name(), 2, FLAGS, |ctx| {
        let part: String = ctx.get(1)?;
        Ok(stored_arg(ctx, 0)?.map(|z| {
            let minutes = i64::from(z.zone.offset_at(z.secs)) / 60;
            if part == "hour" {
                minutes / 60
            } else {
                minutes % 60
            }
        }))
    })?;
    define(conn, "qm_tz_trunc", 3, FLAGS, |ctx| {
        let unit = ctx.get::<String>(0)?.to_lowercase();
        match stored_arg(ctx, 1)? {
            None => Ok(None),
            Some(z) => Ok(Some(trunc(&unit, &z, precision_arg(ctx, 2))?.stored())),
        }
    })?;
    define(conn, QM_TZ_ADD.name(), 4, FLAGS, |ctx| {
        let unit = ctx.get::<String>(0)?.to_lowercase();
        match (int(ctx.get_raw(1)), stored_arg(ctx, 2)?) {
            (Some(n), Some(z)) => Ok(Some(add(&unit, n, &z, precision_arg(ctx, 3))?.stored())),
            _ => Ok(None),
        }
    })?;
    define(conn, QM_TZ_DIFF.name(), 3, FLAGS, |ctx| {
        let unit = ctx.get::<String>(0)?.to_lowercase();
        match (stored_arg(ctx, 1)?, stored_arg(ctx, 2)?) {
            (Some(a), Some(b)) => Ok(Some(diff(&unit, &a, &b)?)),
            _ => Ok(None),
        }
    })?;
    // to_unixtime: seconds as a double.
    define(conn, "qm_tz_unixtime", 1, FLAGS, |ctx| {
        Ok(stored_arg(ctx, 0)?.map_or(Value::Null, |z| {
            real(z.secs as f64 + z.picos as f64 / PICOS as f64)
        }))
    })?;
    // qm_tz_from_unixtime(seconds, zone, p)
    define(conn, "qm_tz_from_unixtime", 3, FLAGS, |ctx| {
        let (Some(x), Some(name)) = (num(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        // DateTimeEncoding.packDateTimeWithZone: the millis (Math.round, saturating) must
        // fit 52 bits.
        let millis = (x * 1000.0).round() as i64;
        if millis.unsigned_abs() > (i64::MAX >> 12) as u64 {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                format!("Millis overflow: {millis}"),
            ));
        }
        result(from_unix_seconds(
            x,
            zone_arg(&name)?,
            precision_arg(ctx, 2),
        ))
    })?;
    // qm_tz_from_unixtime_nanos(nanos, zone)
    define(conn, "qm_tz_from_unixtime_nanos", 2, FLAGS, |ctx| {
        let (Some(n), Some(name)) = (int(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        let zone = zone_arg(&name)?;
        let secs = n.div_euclid(1_000_000_000);
        let picos = (n.rem_euclid(1_000_000_000) as u64) * 1000;
        result(Zoned::new(secs, picos, zone, 9))
    })?;
    // qm_tz_from_hours(seconds, hours, minutes): from_unixtime(x, h, m), a fixed offset.
    define(conn, "qm_tz_from_hours", 3, FLAGS, |ctx| {
        let (Some(x), Some(h), Some(m)) = (
            num(ctx.get_raw(0)),
            int(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
        ) else {
            return Ok(Value::Null);
        };
        let minutes = h.saturating_mul(60).saturating_add(m);
        let name = offset_id(i32::try_from(minutes.clamp(-100_000, 100_000) * 60).unwrap_or(0));
        let zone = zone(&name).map_err(|_| {
            fail(
                ErrorName::InvalidFunctionArgument,
                format!("Invalid offset minutes {minutes}"),
            )
        })?;
        result(from_unix_seconds(x, zone, 3))
    })?;
    define(conn, "qm_tz_iso8601", 2, FLAGS, |ctx| {
        Ok(stored_arg(ctx, 0)?.map(|z| z.iso8601(precision_arg(ctx, 1))))
    })?;
    define(conn, "qm_tz_from_iso8601", 3, FLAGS, |ctx| {
        let Some(t) = text(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        let session: String = ctx.get(1)?;
        let p = precision_arg(ctx, 2);
        let z = from_iso8601(&t, &session, p).ok_or_else(|| {
            fail(
                ErrorName::InvalidFunctionArgument,
                format!("Invalid format: \"{t}\""),
            )
        })?;
        Ok(Value::Text(z.stored()))
    })?;
    // qm_tz_zone(x): the zone id (used by `timezone(x)` and tests).
    define(conn, "qm_tz_zone", 1, FLAGS, |ctx| {
        Ok(stored_arg(ctx, 0)?.map(|z| z.zone.id))
    })?;
    Ok(())
}

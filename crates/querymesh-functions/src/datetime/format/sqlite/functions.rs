//! The SQLite functions of the date formats: date_format/date_parse, format_datetime/
//! parse_datetime, human_readable_seconds, parse_duration.

use super::*;

/// Registers the format and duration functions.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // qm_date_format(x as a stored timestamp with time zone, format)
    define(conn, QM_DATE_FORMAT.name(), 2, FLAGS, |ctx| {
        let (Some(z), Some(format)) = (zoned_arg(ctx.get_raw(0))?, text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let items = mysql_items(&format)?;
        Ok(Some(print(&items, &fields_of(&z), &z.zone, z.secs)))
    })?;
    define(conn, QM_FORMAT_DATETIME.name(), 2, FLAGS, |ctx| {
        let (Some(z), Some(format)) = (zoned_arg(ctx.get_raw(0))?, text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let items = joda_items(&format)?;
        Ok(Some(print(&items, &fields_of(&z), &z.zone, z.secs)))
    })?;
    // qm_date_parse(text, format): a timestamp(3), stored.
    define(conn, QM_DATE_PARSE.name(), 2, FLAGS, |ctx| {
        let (Some(t), Some(format)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        let items = mysql_items(&format)?;
        let parsed = parse_with(&items, &t)?;
        let (local, picos) = local_of(&parsed, &t)?;
        let z = Zoned::new(local, picos, utc(), 3).ok_or_else(|| joda_error(&t, 0))?;
        Ok(Value::Text(z.local_timestamp(3)))
    })?;
    // qm_parse_datetime(text, pattern, session zone): a timestamp(3) with time zone.
    define(conn, QM_PARSE_DATETIME.name(), 3, FLAGS, |ctx| {
        let (Some(t), Some(format)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        let session: String = ctx.get(2)?;
        let items = joda_items(&format)?;
        let parsed = parse_with(&items, &t)?;
        let (local, picos) = local_of(&parsed, &t)?;
        let zone = zones::zone(parsed.zone.as_deref().unwrap_or(&session))
            .map_err(|m| fail(ErrorName::NotSupported, m))?;
        let secs = zone.instant_of(local).ok_or_else(|| joda_error(&t, 0))?;
        let z = Zoned::new(secs, picos, zone, 3).ok_or_else(|| joda_error(&t, 0))?;
        Ok(Value::Text(z.stored()))
    })?;
    define(
        conn,
        QM_HUMAN_READABLE_SECONDS.name(),
        1,
        FLAGS,
        |ctx| match num(ctx.get_raw(0)) {
            None => Ok(None),
            Some(x) => human_readable_seconds(x).map(Some),
        },
    )?;
    define(conn, QM_PARSE_DURATION.name(), 1, FLAGS, |ctx| {
        match text(ctx.get_raw(0)) {
            None => Ok(None),
            Some(t) => parse_duration(&t).map(Some),
        }
    })?;
    Ok(())
}

//! Dates and timestamps: `qm_date_part` and `qm_add_months`, and the stored text of a
//! timestamp(p) that casts, literals and operators share.

use querymesh_values::calendar;
use querymesh_values::calendar::stored_digits;
use querymesh_values::error::ErrorName;
use rusqlite::functions::Context;
use rusqlite::{Connection, Error};

use super::{FLAGS, fail, int, text};
use crate::udf::define;

fn date_arg(ctx: &Context<'_>, i: usize) -> rusqlite::Result<Option<i64>> {
    match text(ctx.get_raw(i)) {
        None => Ok(None),
        Some(s) => {
            let day = s.get(..10).unwrap_or(&s);
            calendar::parse_date(day).map(Some).ok_or_else(|| {
                fail(
                    ErrorName::InvalidFunctionArgument,
                    format!("Invalid date '{s}'"),
                )
            })
        }
    }
}

/// `YYYY-MM-DD HH:MM:SS.f…`, the stored form of a timestamp(p): the seconds' fraction rounded
/// half up to p digits (Trino's cast to a lower precision rounds), written with
/// [`stored_digits`] digits.
pub fn normalize_timestamp(day: i64, time: &str, precision: u8) -> Option<String> {
    let mut parts = time.trim().split(':');
    let h: u64 = parts.next()?.parse().ok()?;
    let m: u64 = parts.next().unwrap_or("0").parse().ok()?;
    let seconds = parts.next().unwrap_or("0");
    let (whole, frac) = seconds.split_once('.').unwrap_or((seconds, ""));
    let s: u64 = whole.parse().ok()?;
    let digits_ok = frac.len() <= 12 && frac.chars().all(|c| c.is_ascii_digit());
    if parts.next().is_some() || h > 23 || m > 59 || s > 59 || !digits_ok {
        return None;
    }
    let p = u32::from(precision.min(12));
    let picos: u64 = format!("{frac:0<12}").parse().ok()?;
    let unit = 10u64.pow(12 - p);
    let scale = 10u64.pow(p);
    let mut units = (h * 3600 + m * 60 + s) * scale + (picos + unit / 2) / unit;
    let mut day = day;
    if units >= 86_400 * scale {
        units -= 86_400 * scale;
        day = calendar::add_days(day, 1)?;
    }
    let (secs, fraction) = (units / scale, units % scale);
    let mut fraction = if p == 0 {
        String::new()
    } else {
        format!("{fraction:0width$}", width = p as usize)
    };
    while fraction.len() < stored_digits(precision) {
        fraction.push('0');
    }
    Some(format!(
        "{} {:02}:{:02}:{:02}.{fraction}",
        calendar::format_date(day),
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    ))
}

/// A stored timestamp as Trino writes a timestamp(p): exactly p fraction digits.
pub fn timestamp_text(stored: &str, precision: u8) -> String {
    let (base, frac) = stored.split_once('.').unwrap_or((stored, ""));
    if precision == 0 {
        return base.to_string();
    }
    let mut frac: String = frac.chars().take(usize::from(precision)).collect();
    while frac.len() < usize::from(precision) {
        frac.push('0');
    }
    format!("{base}.{frac}")
}

fn unit_error(unit: &str) -> Error {
    fail(
        ErrorName::InvalidFunctionArgument,
        format!("'{unit}' is not a valid DATE field"),
    )
}

/// Registers the date functions on `conn`.
pub(super) fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, "qm_date_part", 2, FLAGS, |ctx| {
        let part: String = ctx.get(0)?;
        let Some(d) = date_arg(ctx, 1)? else {
            return Ok(None);
        };
        let (y, m, day) = calendar::civil_from_days(d);
        Ok(Some(match part.as_str() {
            "year" => y,
            "quarter" => (m as i64 - 1) / 3 + 1,
            "month" => m as i64,
            "day" => day as i64,
            "day_of_week" => calendar::day_of_week(d),
            "day_of_year" => calendar::day_of_year(d),
            "week" => calendar::week_of_year(d),
            "year_of_week" => calendar::year_of_week(d),
            other => return Err(unit_error(other)),
        }))
    })?;
    define(conn, "qm_add_months", 2, FLAGS, |ctx| {
        let n = int(ctx.get_raw(1));
        match (n, date_arg(ctx, 0)?) {
            (Some(n), Some(d)) => calendar::add_months(d, n)
                .map(|r| Some(calendar::format_date(r)))
                .ok_or_else(|| fail(ErrorName::NumericValueOutOfRange, "Date is out of range")),
            _ => Ok(None),
        }
    })?;
    Ok(())
}

//! date_trunc, date_add and date_diff on dates and timestamps, as Trino computes them with
//! Joda-Time fields (DateTimeFunctions): months clamp to the month's end when added, and a
//! month (or year) only counts in a difference when adding it does not pass the later value.

use querymesh_values::calendar;
use querymesh_values::error::ErrorName;
use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error};

use super::{QM_DATE_ADD, QM_DATE_DIFF};
use crate::udf::{FLAGS, define, fail};

const DAY_MS: i64 = 86_400_000;

/// Picoseconds in a millisecond: a timestamp(p > 3) keeps its digits past the millisecond.
const PICOS_PER_MS: i128 = 1_000_000_000;

/// A point in time: days since 1970-01-01, milliseconds into the day, and the picoseconds
/// past that millisecond a timestamp(4..12) has (date_add and ± interval keep them,
/// TestDateTimeFunctions.testDateAdd on timestamp(9)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Instant {
    pub day: i64,
    pub ms: i64,
    pub sub_ms: i64,
}

impl Instant {
    fn from_millis(total: i64, sub_ms: i64) -> Self {
        Self {
            day: total.div_euclid(DAY_MS),
            ms: total.rem_euclid(DAY_MS),
            sub_ms,
        }
    }

    /// Picoseconds since the epoch, for exact differences.
    fn picos(self) -> i128 {
        (i128::from(self.day) * i128::from(DAY_MS) + i128::from(self.ms)) * PICOS_PER_MS
            + i128::from(self.sub_ms)
    }

    fn millis(self) -> Option<i64> {
        self.day.checked_mul(DAY_MS)?.checked_add(self.ms)
    }
}

/// Parses the stored `YYYY-MM-DD[ HH:MM:SS.fff]` text.
pub fn parse(text: &str) -> Option<Instant> {
    let (day, time) = text.trim().split_once(' ').unwrap_or((text.trim(), ""));
    let day = calendar::parse_date(day)?;
    if time.is_empty() {
        return Some(Instant {
            day,
            ms: 0,
            sub_ms: 0,
        });
    }
    let mut parts = time.split(':');
    let h: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let seconds = parts.next()?;
    let (whole, fraction) = seconds.split_once('.').unwrap_or((seconds, ""));
    let s: i64 = whole.parse().ok()?;
    if fraction.len() > 12 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let picos: i64 = format!("{fraction:0<12}").parse().ok()?;
    let ms = h * 3_600_000 + m * 60_000 + s * 1000 + picos / 1_000_000_000;
    (0..DAY_MS).contains(&ms).then_some(Instant {
        day,
        ms,
        sub_ms: picos % 1_000_000_000,
    })
}

/// The stored text: a date (`digits` 0), or a timestamp with `digits` fraction digits (its
/// stored form; this module computes in milliseconds, so further digits are zeros).
pub fn format(t: Instant, digits: usize) -> String {
    let date = calendar::format_date(t.day);
    if digits == 0 {
        return date;
    }
    let (h, m, s, f) = (
        t.ms / 3_600_000,
        t.ms / 60_000 % 60,
        t.ms / 1000 % 60,
        t.ms % 1000,
    );
    let sub_ms = format!("{:09}", t.sub_ms);
    format!(
        "{date} {h:02}:{m:02}:{s:02}.{f:03}{}",
        sub_ms.get(..digits.saturating_sub(3)).unwrap_or(&sub_ms)
    )
}

fn unit_error(unit: &str, timestamp: bool) -> Error {
    let kind = if timestamp { "TIMESTAMP" } else { "DATE" };
    fail(
        ErrorName::InvalidFunctionArgument,
        format!("'{unit}' is not a valid {kind} field"),
    )
}

/// The milliseconds of a unit shorter than a day; only timestamps have them.
fn time_unit(unit: &str) -> Option<i64> {
    match unit {
        "millisecond" => Some(1),
        "second" => Some(1000),
        "minute" => Some(60_000),
        "hour" => Some(3_600_000),
        _ => None,
    }
}

pub fn trunc(unit: &str, t: Instant, timestamp: bool) -> Result<Instant, Error> {
    let (y, m, _) = calendar::civil_from_days(t.day);
    let day = |day| Instant {
        day,
        ms: 0,
        sub_ms: 0,
    };
    Ok(match unit {
        u if timestamp && time_unit(u).is_some() => {
            let size = time_unit(u).unwrap_or(1);
            Instant {
                day: t.day,
                ms: t.ms - t.ms % size,
                sub_ms: 0,
            }
        }
        "day" => day(t.day),
        "week" => day(t.day - calendar::day_of_week(t.day) + 1),
        "month" => day(calendar::days_from_civil(y, m, 1)),
        "quarter" => day(calendar::days_from_civil(y, (m - 1) / 3 * 3 + 1, 1)),
        "year" => day(calendar::days_from_civil(y, 1, 1)),
        other => return Err(unit_error(other, timestamp)),
    })
}

pub fn add(unit: &str, n: i64, t: Instant, timestamp: bool) -> Result<Instant, Error> {
    let out_of_range = || fail(ErrorName::NumericValueOutOfRange, "Date is out of range");
    let months = |k: i64| {
        n.checked_mul(k)
            .and_then(|m| calendar::add_months(t.day, m))
            .map(|day| Instant { day, ..t })
    };
    let result = match unit {
        u if timestamp && time_unit(u).is_some() => n
            .checked_mul(time_unit(u).unwrap_or(1))
            .and_then(|delta| t.millis()?.checked_add(delta))
            .map(|total| Instant::from_millis(total, t.sub_ms))
            .filter(|r| calendar::in_range(r.day).is_some()),
        "day" | "week" => n
            .checked_mul(if unit == "week" { 7 } else { 1 })
            .and_then(|d| calendar::add_days(t.day, d))
            .map(|day| Instant { day, ..t }),
        "month" => months(1),
        "quarter" => months(3),
        "year" => months(12),
        other => return Err(unit_error(other, timestamp)),
    };
    result.ok_or_else(out_of_range)
}

/// Joda's month difference for `later ≥ earlier` (BasicMonthOfYearDateTimeField): the month
/// count, less one when the later day-and-time within its month is earlier, an earlier day
/// past the later month's last day counting as that last day.
fn months_forward(later: Instant, earlier: Instant) -> i64 {
    let (ly, lm, ld) = calendar::civil_from_days(later.day);
    let (ey, em, ed) = calendar::civil_from_days(earlier.day);
    let mut diff = (ly - ey) * 12 + i64::from(lm) - i64::from(em);
    let ed = if ld == calendar::days_in_month(ly, lm) && ed > ld {
        ld
    } else {
        ed
    };
    let later_rem = (i64::from(ld) - 1) * DAY_MS + later.ms;
    let earlier_rem = (i64::from(ed) - 1) * DAY_MS + earlier.ms;
    if later_rem < earlier_rem {
        diff -= 1;
    }
    diff
}

/// Joda's year difference for `later ≥ earlier` (BasicChronology.getYearDifference), which
/// lines up February 29 with the day before March 1 of a common year.
fn years_forward(later: Instant, earlier: Instant) -> i64 {
    let (ly, _, _) = calendar::civil_from_days(later.day);
    let (ey, _, _) = calendar::civil_from_days(earlier.day);
    let leap = |y: i64| calendar::days_in_month(y, 2) == 29;
    let rem = |t: Instant, y: i64| (t.day - calendar::days_from_civil(y, 1, 1)) * DAY_MS + t.ms;
    let (mut later_rem, mut earlier_rem) = (rem(later, ly), rem(earlier, ey));
    let feb_29 = 59 * DAY_MS;
    if earlier_rem >= feb_29 {
        if leap(ey) {
            if !leap(ly) {
                earlier_rem -= DAY_MS;
            }
        } else if later_rem >= feb_29 && leap(ly) {
            later_rem -= DAY_MS;
        }
    }
    let diff = ly - ey;
    if later_rem < earlier_rem {
        diff - 1
    } else {
        diff
    }
}

/// `date_diff(unit, a, b)`: b − a in whole units, truncated toward zero.
pub fn diff(unit: &str, a: Instant, b: Instant, timestamp: bool) -> Result<i64, Error> {
    let overflow = || fail(ErrorName::NumericValueOutOfRange, "Date is out of range");
    let calendar = |f: fn(Instant, Instant) -> i64| {
        if b >= a { f(b, a) } else { -f(a, b) }
    };
    // The exact difference, truncated toward zero (TestDateTimeFunctions.testDateDiff on
    // timestamp(12): 0.000000000001 to 0.999999999999 is 999 milliseconds).
    let millis = |size: i64| -> Result<i64, Error> {
        let delta = (b.picos() - a.picos()) / (PICOS_PER_MS * i128::from(size));
        i64::try_from(delta).map_err(|_| overflow())
    };
    match unit {
        u if timestamp && time_unit(u).is_some() => millis(time_unit(u).unwrap_or(1)),
        "day" => millis(DAY_MS),
        "week" => millis(7 * DAY_MS),
        "month" => Ok(calendar(months_forward)),
        "quarter" => Ok(calendar(months_forward) / 3),
        "year" => Ok(calendar(years_forward)),
        other => Err(unit_error(other, timestamp)),
    }
}

fn instant_arg(ctx: &Context<'_>, i: usize) -> rusqlite::Result<Option<Instant>> {
    match ctx.get_raw(i) {
        ValueRef::Text(t) => {
            let s = String::from_utf8_lossy(t);
            parse(&s).map(Some).ok_or_else(|| {
                fail(
                    ErrorName::InvalidFunctionArgument,
                    format!("Invalid date or timestamp '{s}'"),
                )
            })
        }
        _ => Ok(None),
    }
}

fn int_arg(ctx: &Context<'_>, i: usize) -> Option<i64> {
    match ctx.get_raw(i) {
        ValueRef::Integer(n) => Some(n),
        _ => None,
    }
}

/// Registers `qm_date_trunc(unit, x, digits)`, `qm_date_add(unit, n, x, digits)` and
/// `qm_date_diff(unit, a, b, digits)`, where `digits` is 0 for dates and the stored fraction
/// digits for timestamps; units are case-insensitive (DateTimeFunctions.getDateField
/// lower-cases them).
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    let digits = |ctx: &Context<'_>, i: usize| {
        usize::try_from(int_arg(ctx, i).unwrap_or(0).clamp(0, 12)).unwrap_or(0)
    };
    define(conn, "qm_date_trunc", 3, FLAGS, move |ctx| {
        let unit = ctx.get::<String>(0)?.to_lowercase();
        let digits = digits(ctx, 2);
        match instant_arg(ctx, 1)? {
            Some(t) => Ok(Some(format(trunc(&unit, t, digits > 0)?, digits))),
            None => Ok(None),
        }
    })?;
    define(conn, QM_DATE_ADD.name(), 4, FLAGS, move |ctx| {
        let unit = ctx.get::<String>(0)?.to_lowercase();
        let digits = digits(ctx, 3);
        match (int_arg(ctx, 1), instant_arg(ctx, 2)?) {
            (Some(n), Some(t)) => Ok(Some(format(add(&unit, n, t, digits > 0)?, digits))),
            _ => Ok(None),
        }
    })?;
    define(conn, QM_DATE_DIFF.name(), 4, FLAGS, move |ctx| {
        let unit = ctx.get::<String>(0)?.to_lowercase();
        let timestamp = digits(ctx, 3) > 0;
        match (instant_arg(ctx, 1)?, instant_arg(ctx, 2)?) {
            (Some(a), Some(b)) => Ok(Some(diff(&unit, a, b, timestamp)?)),
            _ => Ok(None),
        }
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Instant {
        parse(text).unwrap_or(Instant {
            day: 0,
            ms: 0,
            sub_ms: 0,
        })
    }

    #[test]
    fn month_and_year_differences_are_jodas() {
        let months = |a, b| diff("month", at(a), at(b), false).ok();
        assert_eq!(months("2020-01-31", "2020-02-29"), Some(1));
        assert_eq!(months("2020-02-29", "2020-01-31"), Some(-1));
        assert_eq!(months("2020-01-15", "2020-02-14"), Some(0));
        let years = |a, b| diff("year", at(a), at(b), false).ok();
        assert_eq!(years("2020-02-29", "2021-02-28"), Some(1));
        assert_eq!(years("2020-03-01", "2021-02-28"), Some(0));
        assert_eq!(
            diff(
                "hour",
                at("2020-01-01 00:00:00.000"),
                at("2020-01-02 01:30:00.000"),
                true
            )
            .ok(),
            Some(25)
        );
    }
}

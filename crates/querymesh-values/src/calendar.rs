//! Civil-calendar arithmetic for DATE values stored as `YYYY-MM-DD` text (proleptic
//! Gregorian, as Trino's DATE), without a date library; the English month and day names the
//! formatting functions print and parse, and the time of day of a stored time or timestamp.

/// Month names, January first (Trino's locale is English).
pub const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
/// Day names in ISO order, Monday first.
pub const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// Nanoseconds of the day of a stored time of day (`HH:MM[:SS[.f…]]`); digits past the
/// nanosecond are dropped.
pub fn parse_time_nanos(text: &str) -> Option<i64> {
    let mut parts = text.trim().split(':');
    let h: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let seconds = parts.next().unwrap_or("0");
    let (s, frac) = seconds.split_once('.').unwrap_or((seconds, ""));
    let s: i64 = s.parse().ok()?;
    let frac: String = frac.chars().take(9).collect();
    let nanos: i64 = format!("{frac:0<9}").parse().ok()?;
    Some(((h * 60 + m) * 60 + s) * 1_000_000_000 + nanos)
}

/// Days since 1970-01-01 for a civil date (Howard Hinnant's `days_from_civil`).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day number (inverse of [`days_from_civil`]).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

pub fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

/// The days this stand-in handles: about a million years either side of 1970 (Trino's own
/// range is larger), so no arithmetic on them can overflow.
pub const MAX_DAYS: i64 = 365_000_000;

/// `days` when it is within [`MAX_DAYS`].
pub fn in_range(days: i64) -> Option<i64> {
    (days.abs() <= MAX_DAYS).then_some(days)
}

/// Parses `YYYY-MM-DD` (Trino also accepts a one-digit month or day).
pub fn parse_date(text: &str) -> Option<i64> {
    let mut parts = text.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
    if y.abs() > 999_999 || !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    in_range(days_from_civil(y, m, d))
}

pub fn format_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Adds months the way Trino does: the day is clamped to the target month's length.
/// `None` when the result leaves the supported range.
pub fn add_months(days: i64, months: i64) -> Option<i64> {
    let (y, m, d) = civil_from_days(in_range(days)?);
    let total = (y * 12 + (m as i64 - 1)).checked_add(months)?;
    let (ny, nm) = (total.div_euclid(12), (total.rem_euclid(12) + 1) as u32);
    if ny.abs() > 999_999 {
        return None;
    }
    in_range(days_from_civil(ny, nm, d.min(days_in_month(ny, nm))))
}

/// Adds days, `None` when the result leaves the supported range.
pub fn add_days(days: i64, n: i64) -> Option<i64> {
    in_range(days.checked_add(n)?)
}

/// ISO day of week, Monday = 1.
pub fn day_of_week(days: i64) -> i64 {
    (days + 3).rem_euclid(7) + 1
}

pub fn day_of_year(days: i64) -> i64 {
    let (y, _, _) = civil_from_days(days);
    days - days_from_civil(y, 1, 1) + 1
}

/// ISO-8601 week of the year.
pub fn week_of_year(days: i64) -> i64 {
    let thursday = days - day_of_week(days) + 4;
    let (y, _, _) = civil_from_days(thursday);
    (thursday - days_from_civil(y, 1, 1)) / 7 + 1
}

/// The ISO week-numbering year: the year of the week's Thursday.
pub fn year_of_week(days: i64) -> i64 {
    civil_from_days(days - day_of_week(days) + 4).0
}

/// Digits a stored timestamp(p) carries after the point: at least milliseconds, so that the
/// stored text of two timestamps of one precision compares as their times do.
pub fn stored_digits(precision: u8) -> usize {
    usize::from(precision.clamp(3, 12))
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
        day = add_days(day, 1)?;
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
        format_date(day),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_month_arithmetic() {
        let d = parse_date("1995-03-15").unwrap_or_default();
        assert_eq!(format_date(d), "1995-03-15");
        assert_eq!(
            format_date(
                add_months(parse_date("2020-01-31").unwrap_or_default(), 1).unwrap_or_default()
            ),
            "2020-02-29"
        );
        assert_eq!(day_of_week(parse_date("2024-01-01").unwrap_or_default()), 1);
        assert_eq!(
            week_of_year(parse_date("2021-01-03").unwrap_or_default()),
            53
        );
        assert_eq!(parse_date("1995-02-30"), None);
    }
}

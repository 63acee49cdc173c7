//! Date formats: `date_format`/`date_parse` (MySQL specifiers, Trino docs functions/datetime
//! "MySQL date functions", built as DateTimeFunctions.createDateTimeFormatter builds them),
//! `format_datetime`/`parse_datetime` (Joda-Time patterns, as DateTimeFormat.forPattern
//! reads them), and the duration functions `human_readable_seconds` and `parse_duration`.
//! Both pattern languages compile to one list of [`Item`]s that formats and parses.

use querymesh_values::calendar::{self, DAYS, MONTHS};
use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::types::Value;
use rusqlite::{Connection, Error};

use crate::datetime::time_zone::sqlite::{self as zones, Zone, Zoned};
use crate::udf::{FLAGS, define, fail, num, text};

/// The format and duration functions (functions.rs registers them), as lowerings call them.
pub const QM_DATE_FORMAT: SqliteFn = SqliteFn::new("qm_date_format");
pub const QM_FORMAT_DATETIME: SqliteFn = SqliteFn::new("qm_format_datetime");
pub const QM_DATE_PARSE: SqliteFn = SqliteFn::new("qm_date_parse");
pub const QM_PARSE_DATETIME: SqliteFn = SqliteFn::new("qm_parse_datetime");
pub const QM_HUMAN_READABLE_SECONDS: SqliteFn = SqliteFn::new("qm_human_readable_seconds");
pub const QM_PARSE_DURATION: SqliteFn = SqliteFn::new("qm_parse_duration");

#[derive(Clone, Copy, Debug, PartialEq)]
enum Num {
    Year,
    YearOfEra,
    Century,
    WeekYear,
    Week,
    DayOfWeek,
    DayOfYear,
    Month,
    Day,
    Hour,
    ClockHour,
    HalfdayHour,
    ClockHalfdayHour,
    Minute,
    Second,
}

#[derive(Clone, Debug, PartialEq)]
enum Item {
    Literal(String),
    /// A number: at least `min` digits when printed, at most `max` read.
    Number(Num, usize, usize),
    TwoDigitYear,
    /// Fraction of the second: `min` digits printed, up to `max` read.
    Fraction(usize, usize),
    MonthText(bool),
    DayText(bool),
    HalfDay,
    Era,
    /// `Z` `-0800`, `ZZ` `-08:00`, `ZZZ` the zone id.
    Offset(usize),
    ZoneName,
}

/// The fields of a wall time, for printing.
struct Fields {
    year: i64,
    month: u32,
    day: u32,
    second_of_day: i64,
    picos: u64,
    days: i64,
    offset: i32,
    zone_id: String,
}

fn fields_of(z: &Zoned) -> Fields {
    let local = z.local();
    let days = local.div_euclid(86_400);
    let (year, month, day) = calendar::civil_from_days(days);
    Fields {
        year,
        month,
        day,
        second_of_day: local.rem_euclid(86_400),
        picos: z.picos,
        days,
        offset: z.zone.offset_at(z.secs),
        zone_id: z.zone.id.clone(),
    }
}

fn bad_format(message: String) -> Error {
    fail(ErrorName::InvalidFunctionArgument, message)
}

/// MySQL specifiers (DateTimeFunctions.createDateTimeFormatter); %U %u %V %w %X are refused
/// as Trino refuses them.
fn mysql_items(format: &str) -> Result<Vec<Item>, Error> {
    let mut items = Vec::new();
    let mut chars = format.chars();
    let lit = |items: &mut Vec<Item>, s: &str| items.push(Item::Literal(s.to_string()));
    while let Some(c) = chars.next() {
        if c != '%' {
            lit(&mut items, &c.to_string());
            continue;
        }
        let Some(spec) = chars.next() else {
            break;
        };
        use Num::*;
        match spec {
            'a' => items.push(Item::DayText(true)),
            'b' => items.push(Item::MonthText(true)),
            'c' => items.push(Item::Number(Month, 1, 2)),
            'd' => items.push(Item::Number(Day, 2, 2)),
            'e' => items.push(Item::Number(Day, 1, 2)),
            'f' => items.push(Item::Fraction(6, 9)),
            'H' => items.push(Item::Number(Hour, 2, 2)),
            'h' | 'I' => items.push(Item::Number(ClockHalfdayHour, 2, 2)),
            'i' => items.push(Item::Number(Minute, 2, 2)),
            'j' => items.push(Item::Number(DayOfYear, 3, 3)),
            'k' => items.push(Item::Number(Hour, 1, 2)),
            'l' => items.push(Item::Number(ClockHalfdayHour, 1, 2)),
            'M' => items.push(Item::MonthText(false)),
            'm' => items.push(Item::Number(Month, 2, 2)),
            'p' => items.push(Item::HalfDay),
            'r' => {
                items.push(Item::Number(ClockHalfdayHour, 2, 2));
                lit(&mut items, ":");
                items.push(Item::Number(Minute, 2, 2));
                lit(&mut items, ":");
                items.push(Item::Number(Second, 2, 2));
                lit(&mut items, " ");
                items.push(Item::HalfDay);
            }
            'S' | 's' => items.push(Item::Number(Second, 2, 2)),
            'T' => {
                items.push(Item::Number(Hour, 2, 2));
                lit(&mut items, ":");
                items.push(Item::Number(Minute, 2, 2));
                lit(&mut items, ":");
                items.push(Item::Number(Second, 2, 2));
            }
            'v' => items.push(Item::Number(Week, 2, 2)),
            'W' => items.push(Item::DayText(false)),
            'x' => items.push(Item::Number(WeekYear, 4, 4)),
            'Y' => items.push(Item::Number(Year, 4, 4)),
            'y' => items.push(Item::TwoDigitYear),
            // TestDateTimeFunctions.testDateFormat: "%D not supported in date format string".
            'D' | 'U' | 'u' | 'V' | 'w' | 'X' => {
                return Err(bad_format(format!(
                    "%{spec} not supported in date format string"
                )));
            }
            other => lit(&mut items, &other.to_string()),
        }
    }
    not_empty(items)
}

/// Joda's DateTimeFormatterBuilder builds no formatter of nothing.
fn not_empty(items: Vec<Item>) -> Result<Vec<Item>, Error> {
    if items.is_empty() {
        return Err(bad_format(
            "Both printing and parsing not supported".to_string(),
        ));
    }
    Ok(items)
}

/// Joda-Time pattern letters (DateTimeFormat.parsePatternTo); letters Joda does not know
/// fail with its message.
fn joda_items(pattern: &str) -> Result<Vec<Item>, Error> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut tokens: Vec<(char, usize, String)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            let mut j = i + 1;
            let mut s = String::new();
            loop {
                match chars.get(j) {
                    None => break,
                    Some('\'') if chars.get(j + 1) == Some(&'\'') => {
                        s.push('\'');
                        j += 2;
                    }
                    Some('\'') => {
                        j += 1;
                        break;
                    }
                    Some(&ch) => {
                        s.push(ch);
                        j += 1;
                    }
                }
            }
            if j == i + 2 && s.is_empty() {
                s.push('\'');
            }
            tokens.push(('\'', 0, s));
            i = j;
        } else if c.is_ascii_alphabetic() {
            let mut j = i;
            while chars.get(j) == Some(&c) {
                j += 1;
            }
            tokens.push((c, j - i, String::new()));
            i = j;
        } else {
            tokens.push(('\'', 0, c.to_string()));
            i += 1;
        }
    }
    let numeric_token = |t: Option<&(char, usize, String)>| match t {
        Some((c, n, _)) => match c {
            'M' => *n <= 2,
            'c' | 'C' | 'x' | 'y' | 'Y' | 'd' | 'h' | 'H' | 'm' | 's' | 'S' | 'e' | 'D' | 'F'
            | 'w' | 'W' | 'k' | 'K' => true,
            _ => false,
        },
        None => false,
    };
    let mut items = Vec::new();
    for (k, (c, n, s)) in tokens.iter().enumerate() {
        let n = *n;
        let next_numeric = numeric_token(tokens.get(k + 1));
        let wide = if next_numeric { n } else { 9 };
        use Num::*;
        let item = match c {
            '\'' => Item::Literal(s.clone()),
            'G' => Item::Era,
            'C' => Item::Number(Century, n, wide),
            'x' | 'y' | 'Y' if n == 2 => Item::TwoDigitYear,
            'x' => Item::Number(WeekYear, n, wide),
            'y' => Item::Number(Year, n, wide),
            'Y' => Item::Number(YearOfEra, n, wide),
            'M' if n >= 4 => Item::MonthText(false),
            'M' if n == 3 => Item::MonthText(true),
            'M' => Item::Number(Month, n, 2),
            'd' => Item::Number(Day, n, 2),
            'a' => Item::HalfDay,
            'h' => Item::Number(ClockHalfdayHour, n, 2),
            'H' => Item::Number(Hour, n, 2),
            'k' => Item::Number(ClockHour, n, 2),
            'K' => Item::Number(HalfdayHour, n, 2),
            'm' => Item::Number(Minute, n, 2),
            's' => Item::Number(Second, n, 2),
            'S' => Item::Fraction(n, n),
            'e' => Item::Number(DayOfWeek, n, 1),
            'E' => Item::DayText(n < 4),
            'D' => Item::Number(DayOfYear, n, 3),
            'w' => Item::Number(Week, n, 2),
            'z' => Item::ZoneName,
            'Z' => Item::Offset(n.min(3)),
            other => {
                return Err(bad_format(format!("Illegal pattern component: {other}")));
            }
        };
        items.push(item);
    }
    not_empty(items)
}

fn pad(out: &mut String, v: i64, min: usize) {
    if v < 0 {
        out.push('-');
    }
    out.push_str(&format!("{:0min$}", v.unsigned_abs()));
}

fn offset_text(seconds: i32, colon: bool) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let m = seconds.unsigned_abs() / 60;
    if colon {
        format!("{sign}{:02}:{:02}", m / 60, m % 60)
    } else {
        format!("{sign}{:02}{:02}", m / 60, m % 60)
    }
}

fn print(items: &[Item], f: &Fields, zone: &Zone, secs: i64) -> String {
    let mut out = String::new();
    let hour = f.second_of_day / 3600;
    let dow = calendar::day_of_week(f.days);
    for item in items {
        match item {
            Item::Literal(s) => out.push_str(s),
            Item::Number(n, min, _) => {
                let v = match n {
                    Num::Year => f.year,
                    Num::YearOfEra => {
                        if f.year <= 0 {
                            1 - f.year
                        } else {
                            f.year
                        }
                    }
                    Num::Century => f.year.div_euclid(100),
                    Num::WeekYear => calendar::year_of_week(f.days),
                    Num::Week => calendar::week_of_year(f.days),
                    Num::DayOfWeek => dow,
                    Num::DayOfYear => calendar::day_of_year(f.days),
                    Num::Month => i64::from(f.month),
                    Num::Day => i64::from(f.day),
                    Num::Hour => hour,
                    Num::ClockHour => {
                        if hour == 0 {
                            24
                        } else {
                            hour
                        }
                    }
                    Num::HalfdayHour => hour % 12,
                    Num::ClockHalfdayHour => {
                        if hour % 12 == 0 {
                            12
                        } else {
                            hour % 12
                        }
                    }
                    Num::Minute => f.second_of_day / 60 % 60,
                    Num::Second => f.second_of_day % 60,
                };
                pad(&mut out, v, *min);
            }
            Item::TwoDigitYear => pad(&mut out, f.year.rem_euclid(100), 2),
            Item::Fraction(min, _) => {
                // date_format truncates to milliseconds (docs: "The timestamp is truncated
                // to milliseconds"); Joda has milliseconds only.
                let millis = f.picos / 1_000_000_000;
                let digits = format!("{millis:03}000000000");
                out.push_str(&digits[..(*min).min(12)]);
            }
            Item::MonthText(short) => {
                let name = MONTHS[(f.month as usize).saturating_sub(1) % 12];
                out.push_str(if *short { &name[..3] } else { name });
            }
            Item::DayText(short) => {
                let name = DAYS[((dow - 1).rem_euclid(7)) as usize];
                out.push_str(if *short { &name[..3] } else { name });
            }
            Item::HalfDay => out.push_str(if hour < 12 { "AM" } else { "PM" }),
            Item::Era => out.push_str(if f.year <= 0 { "BC" } else { "AD" }),
            Item::Offset(3) => out.push_str(&f.zone_id),
            Item::Offset(n) => out.push_str(&offset_text(f.offset, *n == 2)),
            Item::ZoneName => out.push_str(&zone_abbreviation(zone, secs, &f.zone_id)),
        }
    }
    out
}

fn zone_abbreviation(zone: &Zone, secs: i64, id: &str) -> String {
    zone.abbreviation(secs).unwrap_or_else(|| id.to_string())
}

/// Parsed fields; what the text leaves out is 1970-01-01 00:00:00.
#[derive(Default)]
struct Parsed {
    year: Option<i64>,
    month: Option<i64>,
    day: Option<i64>,
    day_of_year: Option<i64>,
    week_year: Option<i64>,
    week: Option<i64>,
    hour: Option<i64>,
    halfday_hour: Option<i64>,
    pm: Option<bool>,
    minute: i64,
    second: i64,
    picos: u64,
    zone: Option<String>,
}

fn joda_error(text: &str, at: usize) -> Error {
    let rest = text.get(at..).unwrap_or("");
    bad_format(if rest.is_empty() {
        format!("Invalid format: \"{text}\" is too short")
    } else {
        format!("Invalid format: \"{text}\" is malformed at \"{rest}\"")
    })
}

fn take_name(rest: &str, names: &[&str], short: bool) -> Option<(usize, usize)> {
    names.iter().enumerate().find_map(|(i, n)| {
        let n = if short { &n[..3] } else { n };
        rest.get(..n.len())
            .filter(|head| head.eq_ignore_ascii_case(n))
            .map(|_| (i, n.len()))
    })
}

fn parse_with(items: &[Item], text: &str) -> Result<Parsed, Error> {
    let mut p = Parsed::default();
    let mut at = 0;
    for item in items {
        let rest = &text[at..];
        let fail_here = || joda_error(text, at);
        match item {
            Item::Literal(s) => {
                if !rest.starts_with(s.as_str()) {
                    return Err(fail_here());
                }
                at += s.len();
            }
            Item::Number(..) | Item::TwoDigitYear | Item::Fraction(..) => {
                let max = match item {
                    Item::Number(_, _, max) | Item::Fraction(_, max) => *max,
                    _ => 2,
                };
                let signed = matches!(item, Item::Number(Num::Year, ..)) && rest.starts_with('-');
                let start = usize::from(signed);
                let len = rest[start..]
                    .bytes()
                    .take(max)
                    .take_while(u8::is_ascii_digit)
                    .count();
                if len == 0 {
                    return Err(fail_here());
                }
                let digits = &rest[start..start + len];
                let v: i64 = digits.parse().map_err(|_| fail_here())?;
                let v = if signed { -v } else { v };
                match item {
                    Item::TwoDigitYear => {
                        // Joda's two-digit year with pivot 2020 (%y: 1970 .. 2069).
                        p.year = Some(if len == 2 {
                            if v >= 70 { 1900 + v } else { 2000 + v }
                        } else {
                            v
                        });
                    }
                    Item::Fraction(..) => {
                        // Joda keeps milliseconds, truncating the rest ('1.2006' is .200).
                        let kept = &digits[..digits.len().min(3)];
                        p.picos = format!("{kept:0<12}").parse().unwrap_or(0);
                    }
                    Item::Number(n, ..) => match n {
                        Num::Year | Num::YearOfEra => p.year = Some(v),
                        Num::WeekYear => p.week_year = Some(v),
                        Num::Century => p.year = Some(v * 100),
                        Num::Month => p.month = Some(v),
                        Num::Day => p.day = Some(v),
                        Num::DayOfYear => p.day_of_year = Some(v),
                        Num::Hour => p.hour = Some(v),
                        Num::ClockHour => p.hour = Some(v % 24),
                        Num::HalfdayHour | Num::ClockHalfdayHour => p.halfday_hour = Some(v % 12),
                        Num::Minute => p.minute = v,
                        Num::Second => p.second = v,
                        Num::Week => p.week = Some(v),
                        Num::DayOfWeek => {}
                    },
                    _ => {}
                }
                at += start + len;
            }
            Item::MonthText(short) => {
                let (i, len) = take_name(rest, &MONTHS, *short).ok_or_else(fail_here)?;
                p.month = Some(i as i64 + 1);
                at += len;
            }
            Item::DayText(short) => {
                let (_, len) = take_name(rest, &DAYS, *short).ok_or_else(fail_here)?;
                at += len;
            }
            Item::HalfDay => {
                let head = rest.get(..2).ok_or_else(fail_here)?;
                p.pm = Some(match head.to_ascii_uppercase().as_str() {
                    "AM" => false,
                    "PM" => true,
                    _ => return Err(fail_here()),
                });
                at += 2;
            }
            Item::Era => {
                let head = rest.get(..2).ok_or_else(fail_here)?;
                if !head.eq_ignore_ascii_case("AD") {
                    return Err(fail_here());
                }
                at += 2;
            }
            Item::Offset(3) | Item::ZoneName => {
                let len = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
                let name = &rest[..len];
                zones::zone(name).map_err(|_| fail_here())?;
                p.zone = Some(name.to_string());
                at += len;
            }
            Item::Offset(_) => {
                let len = rest
                    .bytes()
                    .take(6)
                    .take_while(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b':'))
                    .count();
                let name = &rest[..len];
                if rest.starts_with('Z') {
                    p.zone = Some("UTC".into());
                    at += 1;
                } else {
                    zones::zone(name).map_err(|_| fail_here())?;
                    p.zone = Some(name.to_string());
                    at += len;
                }
            }
        }
    }
    if at < text.len() {
        return Err(joda_error(text, at));
    }
    Ok(p)
}

/// Local seconds and picoseconds of the parsed fields; Joda's range checks fail with its
/// message ("Cannot parse …: Value 13 for monthOfYear must be in the range [1,12]").
fn local_of(p: &Parsed, text: &str) -> Result<(i64, u64), Error> {
    let range = |name: &str, v: i64, lo: i64, hi: i64| {
        if (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(bad_format(format!(
                "Cannot parse \"{text}\": Value {v} for {name} must be in the range [{lo},{hi}]"
            )))
        }
    };
    let year = range("year", p.year.unwrap_or(1970), -9999, 9999)?;
    let iso_week = p.month.is_none() && p.day.is_none() && p.day_of_year.is_none();
    let days = match p.day_of_year {
        // An ISO week-year and week (%x %v): the Monday of that week.
        _ if iso_week && (p.week.is_some() || p.week_year.is_some()) => {
            let week_year = range("weekyear", p.week_year.unwrap_or(year), -9999, 9999)?;
            let week = range("weekOfWeekyear", p.week.unwrap_or(1), 1, 53)?;
            let jan4 = calendar::days_from_civil(week_year, 1, 4);
            jan4 - (calendar::day_of_week(jan4) - 1) + (week - 1) * 7
        }
        Some(doy) if p.month.is_none() && p.day.is_none() => {
            let max = if calendar::days_in_month(year, 2) == 29 {
                366
            } else {
                365
            };
            calendar::days_from_civil(year, 1, 1) + range("dayOfYear", doy, 1, max)? - 1
        }
        _ => {
            let month = range("monthOfYear", p.month.unwrap_or(1), 1, 12)? as u32;
            let max = i64::from(calendar::days_in_month(year, month));
            let day = range("dayOfMonth", p.day.unwrap_or(1), 1, max)? as u32;
            calendar::days_from_civil(year, month, day)
        }
    };
    let hour = match (p.hour, p.halfday_hour) {
        (Some(h), _) => range("hourOfDay", h, 0, 23)?,
        (None, Some(h)) => h + if p.pm == Some(true) { 12 } else { 0 },
        (None, None) => {
            if p.pm == Some(true) {
                12
            } else {
                0
            }
        }
    };
    let minute = range("minuteOfHour", p.minute, 0, 59)?;
    let second = range("secondOfMinute", p.second, 0, 59)?;
    Ok((days * 86_400 + hour * 3600 + minute * 60 + second, p.picos))
}

fn zoned_arg(v: rusqlite::types::ValueRef<'_>) -> rusqlite::Result<Option<Zoned>> {
    match text(v) {
        None => Ok(None),
        Some(s) => zones::parse_stored(&s)
            .map(Some)
            .ok_or_else(|| fail(ErrorName::GenericInternalError, "Not a stored timestamp")),
    }
}

/// `human_readable_seconds` (DateTimeFunctions.humanReadableSeconds): rounded to whole
/// seconds, weeks to seconds, the zero units left out.
pub fn human_readable_seconds(x: f64) -> Result<String, Error> {
    if !x.is_finite() {
        return Err(bad_format(format!("Invalid argument found: {x}")));
    }
    let mut rest = x.abs().round().min(9.0e18) as u64;
    if rest == 0 {
        return Ok("0 seconds".into());
    }
    let units = [
        ("week", 604_800u64),
        ("day", 86_400),
        ("hour", 3600),
        ("minute", 60),
        ("second", 1),
    ];
    let mut parts = Vec::new();
    for (name, size) in units {
        let n = rest / size;
        rest %= size;
        if n > 0 {
            parts.push(format!("{n} {name}{}", if n == 1 { "" } else { "s" }));
        }
    }
    Ok(parts.join(", "))
}

/// `parse_duration` (airlift Duration.valueOf): a number and a unit, as milliseconds.
pub fn parse_duration(text: &str) -> Result<i64, Error> {
    let bad = || {
        bad_format(format!(
            "duration is not a valid data duration string: {text}"
        ))
    };
    let t = text.trim();
    if t.is_empty() {
        return Err(bad_format("duration is empty".to_string()));
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(bad)?;
    let (number, unit) = t.split_at(split);
    let unit = unit.trim();
    if number.is_empty() || !unit.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(bad());
    }
    let value: f64 = number.parse().map_err(|_| bad())?;
    let millis_per = match unit {
        "ns" => 1e-6,
        "us" => 1e-3,
        "ms" => 1.0,
        "s" => 1e3,
        "m" => 6e4,
        "h" => 3.6e6,
        "d" => 8.64e7,
        other => return Err(bad_format(format!("Unknown time unit: {other}"))),
    };
    let ms = (value * millis_per).round();
    if !ms.is_finite() || ms.abs() > 9.0e18 {
        return Err(bad());
    }
    Ok(ms as i64)
}

fn utc() -> Zone {
    zones::utc_zone()
}

mod functions;
pub(crate) use functions::register;

#[cfg(test)]
mod tests;

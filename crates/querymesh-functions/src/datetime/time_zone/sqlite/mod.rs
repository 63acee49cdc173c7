//! `timestamp(p) with time zone`: its representation inside SQLite, the zones (from jiff's
//! bundled copy of the IANA time-zone database, never a table of our own) and the `qm_tz_*`
//! functions the analyser lowers casts, `AT TIME ZONE` and the zoned date functions to.
//!
//! Representation: TEXT `YYYY-MM-DD HH:MM:SS.ffffffffffff ZONE` — the UTC instant with
//! always 12 fraction digits (picoseconds; a value of precision p < 12 is rounded to p digits
//! and padded with zeros, so p 0..12 are all exact), one space, and the zone id as Trino
//! names it: an IANA id in the database's spelling (`America/Los_Angeles`), `UTC`, or a fixed
//! offset `+07:09`. The first [`INSTANT_CHARS`] characters are the instant: SQLite's text
//! order on the whole value (ORDER BY, min, max) is instant order, and comparisons compare
//! that prefix, so that one instant in two zones is equal, as in Trino. Instants are kept
//! within the years 0001–9999 (UTC), where that text order holds; Trino's range is larger.
//! Inside arrays, maps and rows the element form is the same text.

use jiff::civil::DateTime;
use jiff::tz::{Offset, TimeZone};
use querymesh_values::calendar;
use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::builtin::SUBSTR;
use querymesh_values::sqlite_expr::{SqlExpr, SqliteFn};
use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error};

use crate::datetime::sqlite::arithmetic::{self as date_functions, Instant};
use crate::udf::{FLAGS, define, fail, int, num, real, text};

/// The `qm_tz_*` functions (functions.rs registers them), as lowerings call them.
pub const QM_TZ_FROM_VARCHAR: SqliteFn = SqliteFn::new("qm_tz_from_varchar");
pub const QM_TZ_FROM_TS: SqliteFn = SqliteFn::new("qm_tz_from_ts");
pub const QM_TZ_WITH_ZONE: SqliteFn = SqliteFn::new("qm_tz_with_zone");
pub const QM_TZ_LOCAL: SqliteFn = SqliteFn::new("qm_tz_local");
pub const QM_TZ_TEXT: SqliteFn = SqliteFn::new("qm_tz_text");
pub const QM_TZ_ROUND: SqliteFn = SqliteFn::new("qm_tz_round");
pub const QM_TZ_AT: SqliteFn = SqliteFn::new("qm_tz_at");
pub const QM_TZ_OFFSET_ZONE: SqliteFn = SqliteFn::new("qm_tz_offset_zone");
pub const QM_TZ_OFFSET: SqliteFn = SqliteFn::new("qm_tz_offset");
pub const QM_TZ_TRUNC: SqliteFn = SqliteFn::new("qm_tz_trunc");
pub const QM_TZ_ADD: SqliteFn = SqliteFn::new("qm_tz_add");
pub const QM_TZ_DIFF: SqliteFn = SqliteFn::new("qm_tz_diff");
pub const QM_TZ_UNIXTIME: SqliteFn = SqliteFn::new("qm_tz_unixtime");
pub const QM_TZ_FROM_UNIXTIME: SqliteFn = SqliteFn::new("qm_tz_from_unixtime");
pub const QM_TZ_FROM_UNIXTIME_NANOS: SqliteFn = SqliteFn::new("qm_tz_from_unixtime_nanos");
pub const QM_TZ_FROM_HOURS: SqliteFn = SqliteFn::new("qm_tz_from_hours");
pub const QM_TZ_ISO8601: SqliteFn = SqliteFn::new("qm_tz_iso8601");
pub const QM_TZ_FROM_ISO8601: SqliteFn = SqliteFn::new("qm_tz_from_iso8601");
pub const QM_TZ_ZONE: SqliteFn = SqliteFn::new("qm_tz_zone");

/// Characters of the stored text that are the UTC instant.
pub const INSTANT_CHARS: usize = 32;
const PICOS: u64 = 1_000_000_000_000;
const DAY_SECS: i64 = 86_400;

fn min_secs() -> i64 {
    calendar::days_from_civil(1, 1, 1) * DAY_SECS
}

fn max_secs() -> i64 {
    calendar::days_from_civil(10_000, 1, 1) * DAY_SECS - 1
}

/// A time zone: its Trino id and the rules to apply.
#[derive(Clone, Debug)]
pub struct Zone {
    pub id: String,
    tz: TimeZone,
}

/// "Time zone not supported: Foo/Bar" (TimeZoneNotSupportedException, NOT_SUPPORTED).
pub fn unsupported(name: &str) -> String {
    format!("Time zone not supported: {name}")
}

/// Spellings Trino's TimeZoneKey.normalizeZoneId takes for UTC itself.
fn is_utc_name(lower: &str) -> bool {
    let name = lower.strip_prefix("etc/").unwrap_or(lower);
    matches!(
        name,
        "utc"
            | "z"
            | "ut"
            | "uct"
            | "ut1"
            | "gmt"
            | "gmt0"
            | "greenwich"
            | "universal"
            | "zulu"
            | "gmt+0"
            | "gmt-0"
            | "utc+0"
            | "utc-0"
    )
}

/// `+HH:MM`, `+HHMM` or `+HH` as seconds east of UTC, within ±14:00 as Trino's offsets.
fn parse_offset(text: &str) -> Option<i32> {
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let body = &text[1..];
    let (h, m) = match body.split_once(':') {
        Some((h, m)) => (h, m),
        None if body.len() == 4 => body.split_at(2),
        None => (body, "0"),
    };
    let digits = |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(h) || !digits(m) {
        return None;
    }
    let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
    let total = h * 60 + m;
    (m < 60 && total <= 14 * 60).then_some(sign * total * 60)
}

fn offset_id(seconds: i32) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let minutes = seconds.unsigned_abs() / 60;
    format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60)
}

/// The zone Trino names `name`, case-insensitively; `Err` is Trino's message.
pub fn zone(name: &str) -> Result<Zone, String> {
    let trimmed = name.trim();
    let lower = trimmed.to_ascii_lowercase();
    if is_utc_name(&lower) {
        return Ok(Zone {
            id: "UTC".into(),
            tz: TimeZone::UTC,
        });
    }
    // `+07:09`, and `UTC+7`, `GMT-05:00` as Trino normalises them to an offset.
    let offset_text = ["utc", "gmt", "ut"]
        .iter()
        .find_map(|p| lower.strip_prefix(p).filter(|r| r.starts_with(['+', '-'])))
        .unwrap_or(&lower);
    if offset_text.starts_with(['+', '-']) {
        let seconds = parse_offset(offset_text).ok_or_else(|| unsupported(trimmed))?;
        if seconds == 0 {
            return Ok(Zone {
                id: "UTC".into(),
                tz: TimeZone::UTC,
            });
        }
        let offset = Offset::from_seconds(seconds).map_err(|_| unsupported(trimmed))?;
        return Ok(Zone {
            id: offset_id(seconds),
            tz: TimeZone::fixed(offset),
        });
    }
    if trimmed.is_empty() || trimmed.len() > 64 {
        return Err(unsupported(trimmed));
    }
    let tz = jiff::tz::db()
        .get(trimmed)
        .map_err(|_| unsupported(trimmed))?;
    let id = tz.iana_name().unwrap_or(trimmed).to_string();
    Ok(Zone { id, tz })
}

/// The zone a timestamp's text or AT TIME ZONE names, which Trino reads with the case as
/// written (ZoneId.of): `europe/berlin` and `utc` are not zones there, though the session's
/// zone is read case-insensitively.
pub fn zone_as_written(name: &str) -> Result<Zone, String> {
    let z = zone(name)?;
    let trimmed = name.trim();
    if trimmed != z.id && trimmed.eq_ignore_ascii_case(&z.id) {
        return Err(unsupported(trimmed));
    }
    Ok(z)
}

/// UTC.
pub fn utc_zone() -> Zone {
    Zone {
        id: "UTC".into(),
        tz: TimeZone::UTC,
    }
}

impl Zone {
    /// The zone's abbreviation at the instant (`PDT`), for Joda's `z`.
    pub fn abbreviation(&self, secs: i64) -> Option<String> {
        let ts = jiff::Timestamp::from_second(secs).ok()?;
        let info = self.tz.to_offset_info(ts);
        Some(info.abbreviation().to_string())
    }

    /// Seconds east of UTC at the instant `secs`.
    pub fn offset_at(&self, secs: i64) -> i32 {
        jiff::Timestamp::from_second(secs)
            .map(|ts| self.tz.to_offset(ts).seconds())
            .unwrap_or(0)
    }

    /// The instant whose wall time here is `local` (seconds of the local epoch); a wall time
    /// a DST gap skips moves forward by the gap and one a fold repeats takes the earlier
    /// instant, as Joda's DateTimeZone.convertLocalToUTC does.
    pub fn instant_of(&self, local: i64) -> Option<i64> {
        let day = local.div_euclid(DAY_SECS);
        let sod = local.rem_euclid(DAY_SECS);
        let (y, m, d) = calendar::civil_from_days(day);
        let y = i16::try_from(y).ok()?;
        let dt = DateTime::new(
            y,
            m as i8,
            d as i8,
            (sod / 3600) as i8,
            (sod / 60 % 60) as i8,
            (sod % 60) as i8,
            0,
        )
        .ok()?;
        let ts = self.tz.to_ambiguous_timestamp(dt).compatible().ok()?;
        Some(ts.as_second())
    }
}

/// A timestamp with time zone: the UTC instant (seconds and picoseconds) and its zone.
#[derive(Clone, Debug)]
pub struct Zoned {
    pub secs: i64,
    pub picos: u64,
    pub zone: Zone,
}

fn out_of_range() -> Error {
    fail(
        ErrorName::NumericValueOutOfRange,
        "Timestamp with time zone is out of range (years 0001 to 9999 UTC)",
    )
}

/// `YYYY-MM-DD HH:MM:SS` of seconds since the epoch.
fn civil_text(secs: i64) -> String {
    let day = secs.div_euclid(DAY_SECS);
    let sod = secs.rem_euclid(DAY_SECS);
    format!(
        "{} {:02}:{:02}:{:02}",
        calendar::format_date(day),
        sod / 3600,
        sod / 60 % 60,
        sod % 60
    )
}

/// `picos` rounded half up to `p` digits, and the seconds carried.
fn round_picos(picos: u64, p: u8) -> (u64, i64) {
    let unit = 10u64.pow(12 - u32::from(p.min(12)));
    let rounded = (picos + unit / 2) / unit * unit;
    if rounded >= PICOS {
        (rounded - PICOS, 1)
    } else {
        (rounded, 0)
    }
}

fn fraction(picos: u64, p: u8) -> String {
    if p == 0 {
        return String::new();
    }
    let digits = format!("{picos:012}");
    format!(".{}", &digits[..usize::from(p.min(12))])
}

impl Zoned {
    /// A value, rounded to `p` digits; `None` outside the years 0001–9999.
    pub fn new(secs: i64, picos: u64, zone: Zone, p: u8) -> Option<Self> {
        let (picos, carry) = round_picos(picos, p);
        let secs = secs.checked_add(carry)?;
        (min_secs()..=max_secs())
            .contains(&secs)
            .then_some(Self { secs, picos, zone })
    }

    /// The value's wall time in its zone, as seconds of the local epoch.
    pub fn local(&self) -> i64 {
        self.secs + i64::from(self.zone.offset_at(self.secs))
    }

    /// The stored text (see the module's head).
    pub fn stored(&self) -> String {
        format!(
            "{}.{:012} {}",
            civil_text(self.secs),
            self.picos,
            self.zone.id
        )
    }

    /// As Trino writes it (protocol, CAST to varchar): the wall time with p digits, a space,
    /// the zone id.
    pub fn display(&self, p: u8) -> String {
        format!(
            "{}{} {}",
            civil_text(self.local()),
            fraction(self.picos, p),
            self.zone.id
        )
    }

    /// The wall time as a stored timestamp(p) (`stored_digits(p)` fraction digits).
    pub fn local_timestamp(&self, p: u8) -> String {
        let digits = crate::udf::stored_digits(p);
        let frac = format!("{:012}", self.picos);
        format!("{}.{}", civil_text(self.local()), &frac[..digits])
    }

    /// ISO 8601 as Trino's to_iso8601 writes it: `2001-08-22T03:04:05.321-07:00`.
    pub fn iso8601(&self, p: u8) -> String {
        let offset = self.zone.offset_at(self.secs);
        // java.time's ISO_OFFSET_DATE_TIME writes a zero offset as `Z`.
        let zone = if offset == 0 {
            "Z".to_string()
        } else {
            offset_id(offset)
        };
        format!(
            "{}{}{zone}",
            civil_text(self.local()).replacen(' ', "T", 1),
            fraction(self.picos, p)
        )
    }
}

/// Reads the stored text.
pub fn parse_stored(stored: &str) -> Option<Zoned> {
    let instant = stored.get(..INSTANT_CHARS)?;
    let zone_id = stored.get(INSTANT_CHARS + 1..)?;
    let (day, time) = instant.split_once(' ')?;
    let day = calendar::parse_date(day)?;
    let (hms, frac) = time.split_once('.')?;
    let mut parts = hms.split(':').map(|p| p.parse::<i64>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    let picos: u64 = frac.parse().ok()?;
    Some(Zoned {
        secs: day * DAY_SECS + h * 3600 + m * 60 + s,
        picos,
        zone: zone(zone_id).ok()?,
    })
}

/// The parts of Trino's timestamp text (DateTimes' pattern): `YYYY-M-D[ H:M[:S[.f…]]]`, then
/// optionally a zone after optional spaces (`… 03:04:05.321 America/Los_Angeles`,
/// `…05.321+07:09`).
pub struct Parts {
    pub day: i64,
    pub second_of_day: i64,
    /// The fraction digits as written.
    pub fraction: String,
    pub zone: Option<String>,
}

pub fn parse_parts(text: &str) -> Option<Parts> {
    let t = text.trim();
    let (date, rest) = t.split_once(' ').unwrap_or((t, ""));
    let day = calendar::parse_date(date)?;
    let time_len = rest
        .find(|c: char| !(c.is_ascii_digit() || c == ':' || c == '.'))
        .unwrap_or(rest.len());
    let (time, zone) = rest.split_at(time_len);
    let mut second_of_day = 0;
    let mut fraction = String::new();
    if !time.is_empty() {
        let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
        let fields: Vec<&str> = hms.split(':').collect();
        let small = |s: &str| (1..=2).contains(&s.len());
        if !(2..=3).contains(&fields.len())
            || !fields.iter().all(|f| small(f))
            || (time.contains('.') && (fields.len() != 3 || frac.is_empty()))
            || frac.contains(['.', ':'])
            || frac.len() > 64
        {
            return None;
        }
        let n = |i: usize| fields.get(i).map_or(Some(0), |f| f.parse::<i64>().ok());
        let (h, m, s) = (n(0)?, n(1)?, n(2)?);
        if h > 23 || m > 59 || s > 59 {
            return None;
        }
        second_of_day = h * 3600 + m * 60 + s;
        fraction = frac.to_string();
    }
    let zone = zone.trim();
    Some(Parts {
        day,
        second_of_day,
        fraction,
        zone: (!zone.is_empty()).then(|| zone.to_string()),
    })
}

/// Why a text is not a timestamp with time zone.
pub enum TextError {
    Malformed,
    /// More fraction digits than picoseconds.
    Precision(usize),
    Zone(String),
    Range,
}

/// A timestamp with time zone from its parts; `default_zone` when the text names none.
pub fn from_parts(parts: &Parts, default_zone: &str, p: u8) -> Result<Zoned, TextError> {
    if parts.fraction.len() > 12 {
        return Err(TextError::Precision(parts.fraction.len()));
    }
    let zone = match parts.zone.as_deref() {
        Some(named) => zone_as_written(named),
        None => zone(default_zone),
    }
    .map_err(TextError::Zone)?;
    let local = parts.day * DAY_SECS + parts.second_of_day;
    let secs = zone.instant_of(local).ok_or(TextError::Range)?;
    let picos: u64 = format!("{:0<12}", parts.fraction)
        .parse()
        .map_err(|_| TextError::Malformed)?;
    Zoned::new(secs, picos, zone, p).ok_or(TextError::Range)
}

/// A stored timestamp(p) text (`YYYY-MM-DD HH:MM:SS.f…`) as local seconds and picoseconds.
pub fn parse_local(text: &str) -> Option<(i64, u64)> {
    let parts = parse_parts(text)?;
    if parts.zone.is_some() || parts.fraction.len() > 12 {
        return None;
    }
    let picos: u64 = format!("{:0<12}", parts.fraction).parse().ok()?;
    Some((parts.day * DAY_SECS + parts.second_of_day, picos))
}

fn zone_arg(name: &str) -> Result<Zone, Error> {
    zone(name).map_err(|m| fail(ErrorName::NotSupported, m))
}

fn stored_arg(ctx: &Context<'_>, i: usize) -> rusqlite::Result<Option<Zoned>> {
    match text(ctx.get_raw(i)) {
        None => Ok(None),
        Some(s) => parse_stored(&s).map(Some).ok_or_else(|| {
            fail(
                ErrorName::GenericInternalError,
                format!("Not a stored timestamp with time zone: '{s}'"),
            )
        }),
    }
}

fn precision_arg(ctx: &Context<'_>, i: usize) -> u8 {
    int(ctx.get_raw(i)).unwrap_or(3).clamp(0, 12) as u8
}

fn result(z: Option<Zoned>) -> rusqlite::Result<Value> {
    z.map_or(Err(out_of_range()), |z| Ok(Value::Text(z.stored())))
}

/// `timestamp(p)` wall time `text` in `zone` as a stored timestamp with time zone.
pub fn from_local_text(text: &str, zone: &Zone, p: u8) -> rusqlite::Result<Value> {
    let (local, picos) = parse_local(text).ok_or_else(|| {
        fail(
            ErrorName::InvalidCastArgument,
            format!("Value cannot be cast to timestamp with time zone: {text}"),
        )
    })?;
    result(
        zone.instant_of(local)
            .and_then(|secs| Zoned::new(secs, picos, zone.clone(), p)),
    )
}

/// CAST(varchar AS timestamp(p) with time zone): Trino's text, the session zone when it
/// names none (VarcharToTimestampWithTimeZoneCast).
pub fn cast_from_varchar(text: &str, session_zone: &str, p: u8) -> rusqlite::Result<Value> {
    let bad = || {
        fail(
            ErrorName::InvalidCastArgument,
            format!("Value cannot be cast to timestamp with time zone: {text}"),
        )
    };
    let parts = parse_parts(text).ok_or_else(bad)?;
    match from_parts(&parts, session_zone, p) {
        Ok(z) => Ok(Value::Text(z.stored())),
        // TestTimestampWithTimeZone: an unknown zone in the text is a bad value.
        Err(TextError::Zone(_)) => Err(fail(
            ErrorName::InvalidCastArgument,
            format!("Value cannot be cast to timestamp: {text}"),
        )),
        Err(TextError::Range) => Err(out_of_range()),
        Err(TextError::Malformed | TextError::Precision(_)) => Err(bad()),
    }
}

/// The value's wall time as a date-functions [`Instant`] (milliseconds).
fn local_instant(z: &Zoned) -> Instant {
    let local = z.local();
    Instant {
        day: local.div_euclid(DAY_SECS),
        ms: local.rem_euclid(DAY_SECS) * 1000 + (z.picos / 1_000_000_000) as i64,
        sub_ms: sub_milli(z.picos) as i64,
    }
}

/// Sub-millisecond picoseconds, which the millisecond date functions leave alone.
fn sub_milli(picos: u64) -> u64 {
    picos % 1_000_000_000
}

fn from_local_instant(t: Instant, sub: u64, zone: &Zone, p: u8) -> Option<Zoned> {
    let local = t
        .day
        .checked_mul(DAY_SECS)?
        .checked_add(t.ms.div_euclid(1000))?;
    let picos = (t.ms.rem_euclid(1000) as u64) * 1_000_000_000 + sub;
    let secs = zone.instant_of(local)?;
    Zoned::new(secs, picos, zone.clone(), p)
}

/// Units shorter than a day, which Joda's zoned chronology adds to the instant itself
/// (ZonedChronology.useTimeArithmetic); longer ones go by the wall time.
fn time_unit_ms(unit: &str) -> Option<i64> {
    match unit {
        "millisecond" => Some(1),
        "second" => Some(1000),
        "minute" => Some(60_000),
        "hour" => Some(3_600_000),
        _ => None,
    }
}

fn instant_millis(z: &Zoned) -> i64 {
    z.secs * 1000 + (z.picos / 1_000_000_000) as i64
}

/// date_add(unit, n, x) on a timestamp with time zone (DateTimeFunctions
/// .addFieldValueTimestampWithTimeZone): DST-correct, in the value's zone.
pub fn add(unit: &str, n: i64, z: &Zoned, p: u8) -> rusqlite::Result<Zoned> {
    let range = || fail(ErrorName::NumericValueOutOfRange, "Date is out of range");
    if let Some(size) = time_unit_ms(unit) {
        let ms = n
            .checked_mul(size)
            .and_then(|d| instant_millis(z).checked_add(d))
            .ok_or_else(range)?;
        let picos = (ms.rem_euclid(1000) as u64) * 1_000_000_000 + sub_milli(z.picos);
        return Zoned::new(ms.div_euclid(1000), picos, z.zone.clone(), p).ok_or_else(range);
    }
    let local = date_functions::add(unit, n, local_instant(z), true)?;
    from_local_instant(local, sub_milli(z.picos), &z.zone, p).ok_or_else(range)
}

/// date_trunc(unit, x), in the value's zone.
pub fn trunc(unit: &str, z: &Zoned, p: u8) -> rusqlite::Result<Zoned> {
    let local = date_functions::trunc(unit, local_instant(z), true)?;
    from_local_instant(local, 0, &z.zone, p).ok_or_else(out_of_range)
}

/// date_diff(unit, a, b): units shorter than a day on the instants, longer ones on the
/// wall times in the first value's zone (DateTimeFunctions.diffTimestampWithTimeZone takes
/// the first argument's chronology).
pub fn diff(unit: &str, a: &Zoned, b: &Zoned) -> rusqlite::Result<i64> {
    if let Some(size) = time_unit_ms(unit) {
        return Ok((instant_millis(b) - instant_millis(a)) / size);
    }
    let b_there = Zoned {
        zone: a.zone.clone(),
        ..b.clone()
    };
    date_functions::diff(unit, local_instant(a), local_instant(&b_there), true)
}

/// A double of seconds since the epoch as a value in `zone` (from_unixtime).
pub fn from_unix_seconds(x: f64, zone: Zone, p: u8) -> Option<Zoned> {
    if !x.is_finite() {
        return None;
    }
    let millis = (x * 1000.0).round();
    if millis.abs() > 1e15 {
        return None;
    }
    let millis = millis as i64;
    Zoned::new(
        millis.div_euclid(1000),
        (millis.rem_euclid(1000) as u64) * 1_000_000_000,
        zone,
        p,
    )
}

/// from_iso8601_timestamp: `YYYY[-MM[-DD]][T HH[:MM[:SS[.f]]]][Z|±HH[:MM]]` (Joda's
/// ISODateTimeFormat.dateTimeParser as Trino uses it); the session zone when none is given.
pub fn from_iso8601(text: &str, session_zone: &str, p: u8) -> Option<Zoned> {
    let t = text.trim();
    let (date, time) = t.split_once('T').unwrap_or((t, ""));
    let mut fields = date.split('-');
    let year: i64 = fields.next().filter(|y| y.len() == 4)?.parse().ok()?;
    let two = |f: Option<&str>| -> Option<u32> {
        match f {
            None => Some(1),
            Some(s) if s.len() == 2 => s.parse().ok(),
            _ => None,
        }
    };
    let (month, day) = (two(fields.next())?, two(fields.next())?);
    if fields.next().is_some() || !(1..=12).contains(&month) {
        return None;
    }
    if day == 0 || day > calendar::days_in_month(year, month) {
        return None;
    }
    let zone_at = time.find(['Z', 'z', '+', '-']).unwrap_or(time.len());
    let (clock, zone_text) = time.split_at(zone_at);
    let (hms, frac) = clock.split_once(['.', ',']).unwrap_or((clock, ""));
    if frac.len() > 12 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut secs = 0i64;
    if !hms.is_empty() {
        let parts: Vec<&str> = hms.split(':').collect();
        if parts.len() > 3 || parts.iter().any(|p| p.len() != 2) {
            return None;
        }
        let limits = [23, 59, 59];
        for (i, part) in parts.iter().enumerate() {
            let v: i64 = part.parse().ok()?;
            if v > limits[i] {
                return None;
            }
            secs += v * [3600, 60, 1][i];
        }
    } else if !frac.is_empty() || !zone_text.is_empty() && time.is_empty() {
        return None;
    }
    let zone = match zone_text {
        "" => zone(session_zone).ok()?,
        "Z" | "z" => zone("UTC").ok()?,
        offset => zone(offset).ok()?,
    };
    let local = calendar::days_from_civil(year, month, day) * DAY_SECS + secs;
    let picos: u64 = format!("{frac:0<12}").parse().ok()?;
    Zoned::new(zone.instant_of(local)?, picos, zone, p)
}

/// The instant's text of a stored value, for comparisons.
pub fn instant_sql(stored: SqlExpr) -> SqlExpr {
    SUBSTR.call([
        stored,
        SqlExpr::Integer(1),
        SqlExpr::Integer(INSTANT_CHARS as i64),
    ])
}

/// Reads a value the encoder gets: the protocol text of a stored value, `None` for garbage.
pub fn protocol_text(v: ValueRef<'_>, p: u8) -> Option<String> {
    let s = text(v)?;
    parse_stored(&s).map(|z| z.display(p))
}

mod functions;
pub(crate) use functions::register;

#[cfg(test)]
mod tests;

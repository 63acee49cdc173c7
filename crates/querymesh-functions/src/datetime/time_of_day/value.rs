//! The values of `time(p)` and `time(p) with time zone` (docs language/types "TIME",
//! "TIME WITH TIME ZONE") and how they are stored in SQLite:
//!
//! - a `time(p)` is an INTEGER, the picoseconds of the day already rounded to p digits, so
//!   that values of any precision compare, sort and subtract as integers;
//! - a `time(p) with time zone` is the TEXT `HH:MM:SS.ffffffffffff+HH:MM` (always 12 fraction
//!   digits): its local time and its offset. Trino compares it by the instant it names, the
//!   local time less the offset modulo a day ([`TimeTz::key`]).

pub const PICOS_PER_SECOND: i64 = 1_000_000_000_000;
pub const PICOS_PER_MILLI: i64 = 1_000_000_000;
pub const PICOS_PER_DAY: i64 = 86_400 * PICOS_PER_SECOND;
const PICOS_PER_MINUTE: i64 = 60 * PICOS_PER_SECOND;

/// A time of day as written: `H:MM[:SS[.f…]]` (Trino's DateTimes TIME_PATTERN takes one or
/// two digits for each field); its picoseconds and how many fraction digits it has. Digits
/// past the 12th are counted but not kept, so that the caller can refuse the precision.
pub fn parse_time(text: &str) -> Option<(i64, usize)> {
    let mut parts = text.split(':');
    let field = |s: &str, max: i64| -> Option<i64> {
        let ok = (1..=2).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
        ok.then(|| s.parse().ok()).flatten().filter(|v| *v <= max)
    };
    let h = field(parts.next()?, 23)?;
    let m = field(parts.next()?, 59)?;
    let (s, fraction) = match parts.next() {
        None => (0, ""),
        Some(seconds) => {
            let (whole, fraction) = match seconds.split_once('.') {
                Some((w, f)) if !f.is_empty() => (w, f),
                Some(_) => return None,
                None => (seconds, ""),
            };
            (field(whole, 59)?, fraction)
        }
    };
    if parts.next().is_some() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let kept: String = fraction.chars().take(12).collect();
    let picos: i64 = format!("{kept:0<12}").parse().ok()?;
    Some((
        ((h * 60 + m) * 60 + s) * PICOS_PER_SECOND + picos,
        fraction.len(),
    ))
}

/// `+HH:MM` / `-HH:MM` (one or two hour digits), in minutes east of UTC; Trino's offsets
/// lie within ±14:00.
pub fn parse_offset(text: &str) -> Option<i32> {
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (h, m) = text[1..].split_once(':')?;
    let digits = |s: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
    };
    if !digits(h, 1..=2) || !digits(m, 2..=2) {
        return None;
    }
    let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
    let total = h * 60 + m;
    (m < 60 && total <= 14 * 60).then_some(sign * total)
}

/// A time written with or without an offset (`08:15:00.250 -07:30`, `12:00:00+05:00`):
/// picoseconds, fraction digits, and the offset in minutes if there is one.
pub fn parse_time_with_offset(text: &str) -> Option<(i64, usize, Option<i32>)> {
    let text = text.trim();
    match text.rfind(['+', '-']) {
        Some(i) => {
            let (picos, digits) = parse_time(text[..i].trim_end())?;
            Some((picos, digits, Some(parse_offset(&text[i..])?)))
        }
        None => {
            let (picos, digits) = parse_time(text)?;
            Some((picos, digits, None))
        }
    }
}

/// Picoseconds rounded half up to `p` digits, wrapping past midnight as Trino's
/// TimeOperators/TimeToTimeCast round (`23:59:59.9` as time(0) is `00:00:00`).
pub fn round(picos: i64, p: u8) -> i64 {
    let unit = 10i64.pow(12 - u32::from(p.min(12)));
    ((picos + unit / 2) / unit * unit).rem_euclid(PICOS_PER_DAY)
}

/// Picoseconds as Trino writes a time(p): `HH:MM:SS` and exactly p fraction digits.
pub fn format(picos: i64, p: u8) -> String {
    let picos = picos.rem_euclid(PICOS_PER_DAY);
    let secs = picos / PICOS_PER_SECOND;
    let base = format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if p == 0 {
        return base;
    }
    let digits = format!("{:012}", picos % PICOS_PER_SECOND);
    format!("{base}.{}", &digits[..usize::from(p.min(12))])
}

/// Minutes east of UTC as Trino writes them: `+05:30`, `-00:30`, `+00:00`.
pub fn format_offset(minutes: i32) -> String {
    let sign = if minutes < 0 { '-' } else { '+' };
    let m = minutes.unsigned_abs();
    format!("{sign}{:02}:{:02}", m / 60, m % 60)
}

/// A `time with time zone`: the local time of day and its offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeTz {
    pub picos: i64,
    pub offset_minutes: i32,
}

impl TimeTz {
    /// The stored text (see the module's head).
    pub fn stored(&self) -> String {
        format!(
            "{}{}",
            format(self.picos, 12),
            format_offset(self.offset_minutes)
        )
    }

    /// Reads the stored text.
    pub fn parse_stored(text: &str) -> Option<Self> {
        let (time, offset) = text.split_at_checked(21)?;
        let (picos, _) = parse_time(time)?;
        Some(Self {
            picos,
            offset_minutes: parse_offset(offset)?,
        })
    }

    /// As Trino writes it: the local time with p digits, then the offset.
    pub fn display(&self, p: u8) -> String {
        format!(
            "{}{}",
            format(self.picos, p),
            format_offset(self.offset_minutes)
        )
    }

    /// What Trino compares: the UTC time of day it names (the local time less the offset,
    /// modulo a day).
    pub fn key(&self) -> i64 {
        (self.picos - i64::from(self.offset_minutes) * PICOS_PER_MINUTE).rem_euclid(PICOS_PER_DAY)
    }

    /// The same instant at another offset.
    pub fn at_offset(&self, offset_minutes: i32) -> Self {
        Self {
            picos: (self.key() + i64::from(offset_minutes) * PICOS_PER_MINUTE)
                .rem_euclid(PICOS_PER_DAY),
            offset_minutes,
        }
    }
}

/// The unit lengths of date_trunc, date_add and date_diff on a time (DateTimeFunctions
/// `getTimeField`: millisecond to hour); any other unit is "'day' is not a valid TIME field".
pub fn unit_picos(unit: &str) -> Option<i64> {
    Some(match unit.to_ascii_lowercase().as_str() {
        "millisecond" => PICOS_PER_MILLI,
        "second" => PICOS_PER_SECOND,
        "minute" => PICOS_PER_MINUTE,
        "hour" => 60 * PICOS_PER_MINUTE,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_times_as_trino() {
        // docs language/types "TIME": TIME '01:02:03.456'.
        let (picos, digits) = parse_time("01:02:03.456").unwrap_or_default();
        assert_eq!((format(picos, 3), digits), ("01:02:03.456".into(), 3));
        assert_eq!(
            parse_time("13:45").map(|(p, _)| format(p, 0)),
            Some("13:45:00".into())
        );
        assert_eq!(parse_time("24:00:00"), None);
        assert_eq!(parse_time("12:60"), None);
        assert_eq!(
            parse_time("13:45:07.123456789012").map(|(p, d)| (format(p, 12), d)),
            Some(("13:45:07.123456789012".into(), 12))
        );
        assert_eq!(
            parse_time("1:2:3").map(|(p, _)| format(p, 0)),
            Some("01:02:03".into())
        );
    }

    #[test]
    fn rounds_half_up_and_wraps() {
        // TestTime.testCastToTime: 23:59:59.9 as time(0) wraps to midnight.
        let picos = |t: &str| parse_time(t).map_or(-1, |(p, _)| p);
        assert_eq!(format(round(picos("23:59:59.9"), 0), 0), "00:00:00");
        assert_eq!(format(round(picos("12:34:56.7"), 0), 0), "12:34:57");
        assert_eq!(format(round(picos("12:34:56.123"), 0), 0), "12:34:56");
    }

    #[test]
    fn a_time_with_time_zone_compares_by_its_instant() {
        let read = |t: &str| {
            parse_time_with_offset(t).and_then(|(picos, _, offset)| {
                Some(TimeTz {
                    picos,
                    offset_minutes: offset?,
                })
            })
        };
        let (Some(a), Some(b)) = (read("10:00:00 +02:00"), read("08:00:00 +00:00")) else {
            panic!("unreadable");
        };
        assert_eq!(a.key(), b.key());
        assert_eq!(a.display(0), "10:00:00+02:00");
        assert_eq!(TimeTz::parse_stored(&a.stored()), Some(a));
        // docs functions/datetime "AT TIME ZONE": 10:00 +02:00 at -03:00 is 05:00.
        assert_eq!(a.at_offset(-180).display(0), "05:00:00-03:00");
        assert_eq!(read("01:02:03 -00:30").map(|t| t.offset_minutes), Some(-30));
        assert_eq!(read("23:59:59.999999 +14:01"), None);
    }
}

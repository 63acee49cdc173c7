//! Java's `%t…` date/time conversions, and `toString()` of the `java.time` values Trino hands
//! `String.format` for date, time and timestamp arguments (FormatFunction's converters:
//! `LocalDate`, `LocalTime`, `LocalDateTime`; a `long` is milliseconds since the epoch).
//! Locale: English, as Trino's default session locale.

use querymesh_values::calendar::{self, DAYS, MONTHS};

/// The fields a `java.time` value has; a conversion needing one it lacks is Java's
/// `IllegalFormatConversionException` (Formatter turns the DateTimeException into it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moment {
    /// Days since 1970-01-01.
    pub day: Option<i64>,
    /// Nanoseconds of the day.
    pub nanos: Option<i64>,
    /// Offset from UTC in seconds and the zone's abbreviation, for zoned values.
    pub zone: Option<(i64, String)>,
}

impl Moment {
    /// A Java `long` given to `%t`: milliseconds since the epoch, in the JVM's zone (UTC for
    /// the stand-in).
    pub fn from_millis(ms: i64) -> Moment {
        let day = ms.div_euclid(86_400_000);
        Moment {
            day: Some(day),
            nanos: Some(ms.rem_euclid(86_400_000) * 1_000_000),
            zone: Some((0, "UTC".into())),
        }
    }
}

/// `LocalDate.toString()`: at least four year digits, `+` past 9999.
pub fn date_text(day: i64) -> String {
    let (y, m, d) = calendar::civil_from_days(day);
    let year = if y > 9999 {
        format!("+{y}")
    } else if y < 0 {
        format!("-{:04}", -y)
    } else {
        format!("{y:04}")
    };
    format!("{year}-{m:02}-{d:02}")
}

/// `LocalTime.toString()`: seconds only when not zero, then the fraction in groups of three.
pub fn time_text(nanos: i64) -> String {
    let (h, m) = (nanos / 3_600_000_000_000, nanos / 60_000_000_000 % 60);
    let (s, n) = (nanos / 1_000_000_000 % 60, nanos % 1_000_000_000);
    let mut out = format!("{h:02}:{m:02}");
    if s > 0 || n > 0 {
        out.push_str(&format!(":{s:02}"));
        if n % 1_000_000 == 0 && n > 0 {
            out.push_str(&format!(".{:03}", n / 1_000_000));
        } else if n % 1000 == 0 && n > 0 {
            out.push_str(&format!(".{:06}", n / 1000));
        } else if n > 0 {
            out.push_str(&format!(".{n:09}"));
        }
    }
    out
}

/// One `%t` conversion; `None` when the value lacks a field it needs.
pub fn convert(c: char, m: &Moment) -> Option<String> {
    let date = || m.day.map(calendar::civil_from_days);
    let nanos = || m.nanos;
    let hour = || nanos().map(|n| n / 3_600_000_000_000);
    let twelve = |h: i64| if h % 12 == 0 { 12 } else { h % 12 };
    Some(match c {
        'H' => format!("{:02}", hour()?),
        'I' => format!("{:02}", twelve(hour()?)),
        'k' => hour()?.to_string(),
        'l' => twelve(hour()?).to_string(),
        'M' => format!("{:02}", nanos()? / 60_000_000_000 % 60),
        'S' => format!("{:02}", nanos()? / 1_000_000_000 % 60),
        'L' => format!("{:03}", nanos()? / 1_000_000 % 1000),
        'N' => format!("{:09}", nanos()? % 1_000_000_000),
        'p' => if hour()? < 12 { "am" } else { "pm" }.into(),
        'z' => {
            let offset = m.zone.as_ref()?.0;
            let sign = if offset < 0 { '-' } else { '+' };
            let a = offset.abs();
            format!("{sign}{:02}{:02}", a / 3600, a / 60 % 60)
        }
        'Z' => m.zone.as_ref()?.1.clone(),
        's' => epoch_seconds(m)?.to_string(),
        'Q' => (epoch_seconds(m)? * 1000 + nanos()? / 1_000_000 % 1000).to_string(),
        'B' => MONTHS[date()?.1 as usize - 1].into(),
        'b' | 'h' => MONTHS[date()?.1 as usize - 1][..3].into(),
        'A' => DAYS[calendar::day_of_week(m.day?) as usize - 1].into(),
        'a' => DAYS[calendar::day_of_week(m.day?) as usize - 1][..3].into(),
        'C' => format!("{:02}", date()?.0.div_euclid(100)),
        'Y' => format!("{:04}", date()?.0),
        'y' => format!("{:02}", date()?.0.rem_euclid(100)),
        'j' => format!("{:03}", calendar::day_of_year(m.day?)),
        'm' => format!("{:02}", date()?.1),
        'd' => format!("{:02}", date()?.2),
        'e' => date()?.2.to_string(),
        'R' => format!("{}:{}", convert('H', m)?, convert('M', m)?),
        'T' => format!("{}:{}", convert('R', m)?, convert('S', m)?),
        'r' => format!(
            "{}:{}:{} {}",
            convert('I', m)?,
            convert('M', m)?,
            convert('S', m)?,
            convert('p', m)?.to_uppercase()
        ),
        'D' => format!(
            "{}/{}/{}",
            convert('m', m)?,
            convert('d', m)?,
            convert('y', m)?
        ),
        'F' => format!(
            "{}-{}-{}",
            convert('Y', m)?,
            convert('m', m)?,
            convert('d', m)?
        ),
        // 'c'
        _ => format!(
            "{} {} {} {} {} {}",
            convert('a', m)?,
            convert('b', m)?,
            convert('d', m)?,
            convert('T', m)?,
            convert('Z', m)?,
            convert('Y', m)?
        ),
    })
}

fn epoch_seconds(m: &Moment) -> Option<i64> {
    let offset = m.zone.as_ref()?.0;
    Some(m.day? * 86_400 + m.nanos? / 1_000_000_000 - offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> i64 {
        calendar::parse_date(text).unwrap_or_default()
    }

    // TestFormatFunction: `%1$tA, %1$tB %1$te, %1$tY` of date '2006-07-04', `%tT %tr` of a time.
    #[test]
    fn conversions() {
        let d = Moment {
            day: Some(day("2006-07-04")),
            ..Moment::default()
        };
        let fields: Vec<_> = "ABeY".chars().map(|c| convert(c, &d)).collect();
        assert_eq!(
            fields,
            ["Tuesday", "July", "4", "2006"].map(|s| Some(s.to_string()))
        );
        assert_eq!(convert('H', &d), None);
        let t = Moment {
            nanos: calendar::parse_time_nanos("16:17:13"),
            ..Moment::default()
        };
        assert_eq!(convert('T', &t).as_deref(), Some("16:17:13"));
        assert_eq!(convert('r', &t).as_deref(), Some("04:17:13 PM"));
        let epoch = Moment::from_millis(1_000);
        assert_eq!(
            convert('c', &epoch).as_deref(),
            Some("Thu Jan 01 00:00:01 UTC 1970")
        );
        assert_eq!(convert('s', &epoch).as_deref(), Some("1"));
    }

    #[test]
    fn java_time_texts() {
        assert_eq!(
            time_text(calendar::parse_time_nanos("16:17:00").unwrap_or_default()),
            "16:17"
        );
        assert_eq!(
            time_text(calendar::parse_time_nanos("16:17:03.5").unwrap_or_default()),
            "16:17:03.500"
        );
        assert_eq!(
            time_text(calendar::parse_time_nanos("00:00:00.000001").unwrap_or_default()),
            "00:00:00.000001"
        );
        assert_eq!(date_text(day("0099-01-02")), "0099-01-02");
    }
}

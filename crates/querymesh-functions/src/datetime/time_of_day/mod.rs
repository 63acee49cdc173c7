//! `time(p)` and `time(p) with time zone` (docs language/types "TIME", "TIME WITH TIME
//! ZONE"; functions/datetime): literals, casts, comparisons, arithmetic with intervals and
//! the date functions over a time of day, each as the SQL the analyser emits over the stored
//! forms of [`value`].

pub mod sqlite;
pub mod value;

use querymesh_values::sqlite_text::sql_string;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use value::{PICOS_PER_DAY, PICOS_PER_MILLI};

/// Why a TIME literal was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum LiteralError {
    /// "'24:00:00' is not a valid TIME literal" (INVALID_LITERAL).
    Invalid,
    /// More than 12 fraction digits: "TIME precision must be in range [0, 12]: 13"
    /// (NUMERIC_VALUE_OUT_OF_RANGE).
    Precision(usize),
}

/// `TIME 'text'`: a time(p), or a time(p) with time zone when the text has an offset; p is
/// the number of fraction digits written (ExpressionAnalyzer.visitTimeLiteral).
pub fn literal(text: &str) -> Result<Typed, LiteralError> {
    let (picos, digits, offset) =
        value::parse_time_with_offset(text).ok_or(LiteralError::Invalid)?;
    if digits > 12 {
        return Err(LiteralError::Precision(digits));
    }
    let p = digits as u8;
    Ok(match offset {
        None => Typed::new(picos.to_string(), TrinoType::Time(p)),
        Some(offset_minutes) => Typed::new(
            sql_string(
                &value::TimeTz {
                    picos,
                    offset_minutes,
                }
                .stored(),
            ),
            TrinoType::TimeTz(p),
        ),
    })
}

pub fn is_time(t: &TrinoType) -> bool {
    matches!(t, TrinoType::Time(_) | TrinoType::TimeTz(_))
}

/// CAST between a time and another type, or `None` when Trino has no such cast (docs
/// functions/conversion; TestTime, TestTimeWithTimeZone casts). `zone` is the session's.
pub fn cast_sql(t: &Typed, target: &TrinoType, try_cast: bool, zone: &str) -> Option<String> {
    use TrinoType::*;
    let x = &t.sql;
    let zone = sql_string(zone);
    let try_flag = i32::from(try_cast);
    Some(match (&t.ty, target) {
        (Unknown, _) => "NULL".into(),
        (Time(p), Time(q)) if q >= p => x.to_string(),
        (Time(_), Time(q)) => format!("qm_time_round({x}, {q})"),
        (TimeTz(p), TimeTz(q)) if q >= p => x.to_string(),
        (TimeTz(_), TimeTz(q)) => {
            format!("qm_time_tz_with({x}, qm_time_round(qm_time_tz_local({x}), {q}))")
        }
        (Time(p), TimeTz(q)) => format!(
            "qm_time_tz_of({}, {zone})",
            round_if_narrower(x.to_string(), *p, *q)
        ),
        (TimeTz(p), Time(q)) => round_if_narrower(format!("qm_time_tz_local({x})"), *p, *q),
        (Time(p), Varchar(None)) => format!("qm_time_text({x}, {p})"),
        (TimeTz(p), Varchar(None)) => format!("qm_time_tz_text({x}, {p})"),
        (Time(p), Varchar(Some(n))) => fitted(format!("qm_time_text({x}, {p})"), *n, try_flag),
        (TimeTz(p), Varchar(Some(n))) => fitted(format!("qm_time_tz_text({x}, {p})"), *n, try_flag),
        (Varchar(_) | Char(_), Time(q)) => format!("qm_time_parse({x}, {q}, {try_flag})"),
        (Varchar(_) | Char(_), TimeTz(q)) => {
            format!("qm_time_tz_parse({x}, {q}, {zone}, {try_flag})")
        }
        // The stored timestamp's time of day (`YYYY-MM-DD HH:MM:SS.f…`), rounded to q.
        (Timestamp(_), Time(q)) => format!("qm_time_parse(substr({x}, 12), {q}, 0)"),
        (TimestampTz(_), Time(q)) => {
            format!("qm_time_tz_local(qm_time_tz_from_tstz({x}, {q}))")
        }
        (TimestampTz(_), TimeTz(q)) => format!("qm_time_tz_from_tstz({x}, {q})"),
        (Timestamp(p), TimeTz(q)) => format!(
            "qm_time_tz_of(qm_time_parse(substr({x}, 12), {}, 0), {zone})",
            (*p).min(*q)
        ),
        _ => return None,
    })
}

fn round_if_narrower(sql: String, from: u8, to: u8) -> String {
    if to >= from {
        sql
    } else {
        format!("qm_time_round({sql}, {to})")
    }
}

/// Text that must fit varchar(n) ("Value … cannot be represented as varchar(n)").
fn fitted(sql: String, n: u32, try_flag: i32) -> String {
    format!("qm_cast({sql}, 'varchar', 'varchar:{n}', {try_flag})")
}

/// What comparisons compare: a time as stored, a time with time zone by its instant.
pub fn compare_key(sql: String, target: &TrinoType) -> String {
    match target {
        TrinoType::TimeTz(_) => format!("qm_time_tz_key({sql})"),
        _ => sql,
    }
}

/// time ± interval day to second (wrapping modulo a day; the result has at least
/// millisecond precision, TimeOperators / TimeWithTimeZoneOperators), and time − time, an
/// interval day to second (TestTime.testSubtract). `None` when neither applies.
pub fn arithmetic(op: char, l: &Typed, r: &Typed) -> Option<Typed> {
    use TrinoType::*;
    let shifted = |t: &Typed, millis: &str, sign: &str| -> Option<Typed> {
        let delta = format!("{sign}({millis}) * {PICOS_PER_MILLI}");
        Some(match t.ty {
            Time(p) => Typed::new(
                format!(
                    "((({} + {delta}) % {PICOS_PER_DAY} + {PICOS_PER_DAY}) % {PICOS_PER_DAY})",
                    t.sql
                ),
                Time(p.max(3)),
            ),
            TimeTz(p) => Typed::new(
                format!(
                    "qm_time_tz_with({}, qm_time_tz_local({}) + {delta})",
                    t.sql, t.sql
                ),
                TimeTz(p.max(3)),
            ),
            _ => return None,
        })
    };
    match (&l.ty, &r.ty, op) {
        (Time(_) | TimeTz(_), IntervalDayToSecond, '+') => shifted(l, &r.sql.to_string(), ""),
        (Time(_) | TimeTz(_), IntervalDayToSecond, '-') => shifted(l, &r.sql.to_string(), "-"),
        (IntervalDayToSecond, Time(_) | TimeTz(_), '+') => shifted(r, &l.sql.to_string(), ""),
        (Time(_), Time(_), '-') => Some(Typed::new(
            format!("(({} - {}) / {PICOS_PER_MILLI})", l.sql, r.sql),
            IntervalDayToSecond,
        )),
        (TimeTz(_), TimeTz(_), '-') => Some(Typed::new(
            format!(
                "((qm_time_tz_key({}) - qm_time_tz_key({})) / {PICOS_PER_MILLI})",
                l.sql, r.sql
            ),
            IntervalDayToSecond,
        )),
        _ => None,
    }
}

/// hour, minute, second, millisecond (and EXTRACT) of a time's local time of day;
/// timezone_hour and timezone_minute of a time with time zone's offset. `None` for another
/// field or type.
pub fn part(unit: &str, t: &Typed) -> Option<Typed> {
    let local = match t.ty {
        TrinoType::Time(_) => t.sql.clone(),
        TrinoType::TimeTz(_) => format!("qm_time_tz_local({})", t.sql).into(),
        _ => return None,
    };
    let of_local = |divisor: i64, modulus: i64| format!("({local} / {divisor} % {modulus})");
    let sql = match (unit, &t.ty) {
        ("hour", _) => of_local(3_600 * value::PICOS_PER_SECOND, 24),
        ("minute", _) => of_local(60 * value::PICOS_PER_SECOND, 60),
        ("second", _) => of_local(value::PICOS_PER_SECOND, 60),
        ("millisecond", _) => of_local(PICOS_PER_MILLI, 1000),
        // SQLite's integer / and % truncate toward zero, as the offset's parts do in Trino
        // (`-00:30` is hour 0, minute -30).
        ("timezone_hour", TrinoType::TimeTz(_)) => format!("(qm_time_tz_offset({}) / 60)", t.sql),
        ("timezone_minute", TrinoType::TimeTz(_)) => {
            format!("(qm_time_tz_offset({}) % 60)", t.sql)
        }
        _ => return None,
    };
    Some(Typed::new(sql, TrinoType::BigInt))
}

/// date_trunc(unit, time): the unit is millisecond to hour.
pub fn trunc(unit: &Typed, t: &Typed) -> Option<Typed> {
    on_local(t, |local| format!("qm_time_trunc({}, {local})", unit.sql))
}

/// date_add(unit, n, time): wraps modulo a day; the type is kept.
pub fn add(unit: &Typed, n: &Typed, t: &Typed) -> Option<Typed> {
    on_local(t, |local| {
        format!("qm_time_add({}, {}, {local})", unit.sql, n.sql)
    })
}

/// A time's local time of day changed by `f`, for a time with time zone at its offset.
fn on_local(t: &Typed, f: impl Fn(&str) -> String) -> Option<Typed> {
    let sql = match t.ty {
        TrinoType::Time(_) => f(&t.sql.to_string()),
        TrinoType::TimeTz(_) => format!(
            "qm_time_tz_with({}, {})",
            t.sql,
            f(&format!("qm_time_tz_local({})", t.sql))
        ),
        _ => return None,
    };
    Some(Typed::new(sql, t.ty.clone()))
}

/// date_diff(unit, a, b) of two times, or two times with time zone by their instants.
pub fn diff(unit: &Typed, a: &Typed, b: &Typed) -> Option<Typed> {
    let key = |t: &Typed| match t.ty {
        TrinoType::Time(_) => Some(t.sql.clone()),
        TrinoType::TimeTz(_) => Some(format!("qm_time_tz_key({})", t.sql).into()),
        _ => None,
    };
    if std::mem::discriminant(&a.ty) != std::mem::discriminant(&b.ty) {
        return None;
    }
    Some(Typed::new(
        format!("qm_time_diff({}, {}, {})", unit.sql, key(a)?, key(b)?),
        TrinoType::BigInt,
    ))
}

/// `x AT TIME ZONE zone` for a time with time zone: the same instant at the zone's offset.
pub fn at_time_zone(t: &Typed, zone: &Typed) -> Option<Typed> {
    matches!(t.ty, TrinoType::TimeTz(_)).then(|| {
        Typed::new(
            format!("qm_time_tz_at({}, {})", t.sql, zone.sql),
            t.ty.clone(),
        )
    })
}

/// timezone(time with time zone): its offset, `+04:00`.
pub fn zone_of(t: &Typed) -> Option<Typed> {
    matches!(t.ty, TrinoType::TimeTz(_)).then(|| {
        Typed::new(
            format!("qm_time_tz_zone({})", t.sql),
            TrinoType::Varchar(None),
        )
    })
}

/// The protocol's text of a stored time or time with time zone.
pub fn protocol_text(v: rusqlite::types::ValueRef<'_>, ty: &TrinoType) -> Option<String> {
    use rusqlite::types::ValueRef;
    match (ty, v) {
        (TrinoType::Time(p), ValueRef::Integer(picos)) => Some(value::format(picos, *p)),
        (TrinoType::TimeTz(p), ValueRef::Text(t)) => {
            let t = std::str::from_utf8(t).ok()?;
            value::TimeTz::parse_stored(t).map(|t| t.display(*p))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_take_their_precision_from_the_digits() {
        // docs language/types "TIME": TIME '01:02:03.456' is a time(3).
        assert_eq!(
            literal("01:02:03.456").map(|t| t.ty),
            Ok(TrinoType::Time(3))
        );
        assert_eq!(
            literal("08:15:00.250 -07:30").map(|t| t.ty),
            Ok(TrinoType::TimeTz(3))
        );
        assert_eq!(
            literal("24:00:00").map(|t| t.ty),
            Err(LiteralError::Invalid)
        );
        assert_eq!(
            literal("10:00:00.1234567890123").map(|t| t.ty),
            Err(LiteralError::Precision(13))
        );
        assert_eq!(
            literal("10:00:00 America/New_York").map(|t| t.ty),
            Err(LiteralError::Invalid)
        );
    }

    #[test]
    fn time_arithmetic_keeps_at_least_milliseconds() {
        let time0 = Typed::new("0", TrinoType::Time(0));
        let hour = Typed::new("3600000", TrinoType::IntervalDayToSecond);
        assert_eq!(
            arithmetic('+', &time0, &hour).map(|t| t.ty),
            Some(TrinoType::Time(3))
        );
        assert_eq!(
            arithmetic('-', &time0, &time0).map(|t| t.ty),
            Some(TrinoType::IntervalDayToSecond)
        );
        assert!(arithmetic('*', &time0, &hour).is_none());
    }
}

//! `time(p)` and `time(p) with time zone` (docs language/types "TIME", "TIME WITH TIME
//! ZONE"; functions/datetime): literals, casts, comparisons, arithmetic with intervals and
//! the date functions over a time of day, each as the SQL the analyser emits over the stored
//! forms of [`value`].

pub mod sqlite;
pub mod value;

use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr, SqliteFn, UnaryOp, builtin};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use sqlite::{
    QM_TIME_ADD, QM_TIME_DIFF, QM_TIME_PARSE, QM_TIME_ROUND, QM_TIME_TEXT, QM_TIME_TRUNC,
    QM_TIME_TZ_AT, QM_TIME_TZ_FROM_TSTZ, QM_TIME_TZ_KEY, QM_TIME_TZ_LOCAL, QM_TIME_TZ_OF,
    QM_TIME_TZ_OFFSET, QM_TIME_TZ_PARSE, QM_TIME_TZ_TEXT, QM_TIME_TZ_WITH, QM_TIME_TZ_ZONE,
};
use value::{PICOS_PER_DAY, PICOS_PER_MILLI};

/// `qm_cast(x, from kind, to kind, try)`, registered by udf/cast.rs, which declares no
/// constant for it yet: the integrator should make this a use of that one.
const QM_CAST: SqliteFn = SqliteFn::new("qm_cast");

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
        None => Typed::new(SqlExpr::Integer(picos), TrinoType::Time(p)),
        Some(offset_minutes) => Typed::new(
            SqlExpr::text(
                value::TimeTz {
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

/// A precision as the `qm_time_*` functions take it.
fn digits(p: u8) -> SqlExpr {
    SqlExpr::Integer(i64::from(p))
}

/// The stored text of a timestamp from its time of day on (`YYYY-MM-DD HH:MM:SS.f…`).
fn time_of_timestamp(x: SqlExpr) -> SqlExpr {
    builtin::SUBSTR.call([x, SqlExpr::Integer(12)])
}

/// CAST between a time and another type, or `None` when Trino has no such cast (docs
/// functions/conversion; TestTime, TestTimeWithTimeZone casts). `zone` is the session's.
pub fn cast_sql(t: &Typed, target: &TrinoType, try_cast: bool, zone: &str) -> Option<SqlExpr> {
    use TrinoType::*;
    let x = || t.sql.clone();
    let zone = || SqlExpr::text(zone);
    let try_flag = SqlExpr::Integer(i64::from(try_cast));
    let local = || QM_TIME_TZ_LOCAL.call([x()]);
    Some(match (&t.ty, target) {
        (Unknown, _) => SqlExpr::Null,
        (Time(p), Time(q)) if q >= p => x(),
        (Time(_), Time(q)) => QM_TIME_ROUND.call([x(), digits(*q)]),
        (TimeTz(p), TimeTz(q)) if q >= p => x(),
        (TimeTz(_), TimeTz(q)) => {
            QM_TIME_TZ_WITH.call([x(), QM_TIME_ROUND.call([local(), digits(*q)])])
        }
        (Time(p), TimeTz(q)) => QM_TIME_TZ_OF.call([round_if_narrower(x(), *p, *q), zone()]),
        (TimeTz(p), Time(q)) => round_if_narrower(local(), *p, *q),
        (Time(p), Varchar(None)) => QM_TIME_TEXT.call([x(), digits(*p)]),
        (TimeTz(p), Varchar(None)) => QM_TIME_TZ_TEXT.call([x(), digits(*p)]),
        (Time(p), Varchar(Some(n))) => fitted(QM_TIME_TEXT.call([x(), digits(*p)]), *n, try_flag),
        (TimeTz(p), Varchar(Some(n))) => {
            fitted(QM_TIME_TZ_TEXT.call([x(), digits(*p)]), *n, try_flag)
        }
        (Varchar(_) | Char(_), Time(q)) => QM_TIME_PARSE.call([x(), digits(*q), try_flag]),
        (Varchar(_) | Char(_), TimeTz(q)) => {
            QM_TIME_TZ_PARSE.call([x(), digits(*q), zone(), try_flag])
        }
        // The stored timestamp's time of day, rounded to q.
        (Timestamp(_), Time(q)) => {
            QM_TIME_PARSE.call([time_of_timestamp(x()), digits(*q), SqlExpr::Integer(0)])
        }
        (TimestampTz(_), Time(q)) => {
            QM_TIME_TZ_LOCAL.call([QM_TIME_TZ_FROM_TSTZ.call([x(), digits(*q)])])
        }
        (TimestampTz(_), TimeTz(q)) => QM_TIME_TZ_FROM_TSTZ.call([x(), digits(*q)]),
        (Timestamp(p), TimeTz(q)) => {
            let time = QM_TIME_PARSE.call([
                time_of_timestamp(x()),
                digits((*p).min(*q)),
                SqlExpr::Integer(0),
            ]);
            QM_TIME_TZ_OF.call([time, zone()])
        }
        _ => return None,
    })
}

fn round_if_narrower(sql: SqlExpr, from: u8, to: u8) -> SqlExpr {
    if to >= from {
        sql
    } else {
        QM_TIME_ROUND.call([sql, digits(to)])
    }
}

/// Text that must fit varchar(n) ("Value … cannot be represented as varchar(n)").
fn fitted(sql: SqlExpr, n: u32, try_flag: SqlExpr) -> SqlExpr {
    QM_CAST.call([
        sql,
        SqlExpr::text("varchar"),
        SqlExpr::text(format!("varchar:{n}")),
        try_flag,
    ])
}

/// What comparisons compare: a time as stored, a time with time zone by its instant.
pub fn compare_key(sql: SqlExpr, target: &TrinoType) -> SqlExpr {
    match target {
        TrinoType::TimeTz(_) => QM_TIME_TZ_KEY.call([sql]),
        _ => sql,
    }
}

fn integer_op(left: SqlExpr, op: BinaryOp, right: i64) -> SqlExpr {
    SqlExpr::binary(left, op, SqlExpr::Integer(right))
}

/// time ± interval day to second (wrapping modulo a day; the result has at least
/// millisecond precision, TimeOperators / TimeWithTimeZoneOperators), and time − time, an
/// interval day to second (TestTime.testSubtract). `None` when neither applies.
pub fn arithmetic(op: char, l: &Typed, r: &Typed) -> Option<Typed> {
    use TrinoType::*;
    let shifted = |t: &Typed, millis: &SqlExpr, negated: bool| -> Option<Typed> {
        let millis = if negated {
            SqlExpr::Unary(UnaryOp::Negate, Box::new(millis.clone()))
        } else {
            millis.clone()
        };
        let delta = integer_op(millis, BinaryOp::Multiply, PICOS_PER_MILLI);
        Some(match t.ty {
            // ((t + delta) % day + day) % day: SQLite's % keeps the dividend's sign.
            Time(p) => {
                let sum = SqlExpr::binary(t.sql.clone(), BinaryOp::Add, delta);
                let wrapped = integer_op(sum, BinaryOp::Remainder, PICOS_PER_DAY);
                let positive = integer_op(wrapped, BinaryOp::Add, PICOS_PER_DAY);
                Typed::new(
                    integer_op(positive, BinaryOp::Remainder, PICOS_PER_DAY),
                    Time(p.max(3)),
                )
            }
            TimeTz(p) => {
                let local = QM_TIME_TZ_LOCAL.call([t.sql.clone()]);
                Typed::new(
                    QM_TIME_TZ_WITH
                        .call([t.sql.clone(), SqlExpr::binary(local, BinaryOp::Add, delta)]),
                    TimeTz(p.max(3)),
                )
            }
            _ => return None,
        })
    };
    let millis_between = |later: SqlExpr, earlier: SqlExpr| {
        let picos = SqlExpr::binary(later, BinaryOp::Subtract, earlier);
        Typed::new(
            integer_op(picos, BinaryOp::Divide, PICOS_PER_MILLI),
            IntervalDayToSecond,
        )
    };
    match (&l.ty, &r.ty, op) {
        (Time(_) | TimeTz(_), IntervalDayToSecond, '+') => shifted(l, &r.sql, false),
        (Time(_) | TimeTz(_), IntervalDayToSecond, '-') => shifted(l, &r.sql, true),
        (IntervalDayToSecond, Time(_) | TimeTz(_), '+') => shifted(r, &l.sql, false),
        (Time(_), Time(_), '-') => Some(millis_between(l.sql.clone(), r.sql.clone())),
        (TimeTz(_), TimeTz(_), '-') => Some(millis_between(
            QM_TIME_TZ_KEY.call([l.sql.clone()]),
            QM_TIME_TZ_KEY.call([r.sql.clone()]),
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
        TrinoType::TimeTz(_) => QM_TIME_TZ_LOCAL.call([t.sql.clone()]),
        _ => return None,
    };
    let of_local = |divisor: i64, modulus: i64| {
        let units = integer_op(local.clone(), BinaryOp::Divide, divisor);
        integer_op(units, BinaryOp::Remainder, modulus)
    };
    let offset = || QM_TIME_TZ_OFFSET.call([t.sql.clone()]);
    let sql = match (unit, &t.ty) {
        ("hour", _) => of_local(3_600 * value::PICOS_PER_SECOND, 24),
        ("minute", _) => of_local(60 * value::PICOS_PER_SECOND, 60),
        ("second", _) => of_local(value::PICOS_PER_SECOND, 60),
        ("millisecond", _) => of_local(PICOS_PER_MILLI, 1000),
        // SQLite's integer / and % truncate toward zero, as the offset's parts do in Trino
        // (`-00:30` is hour 0, minute -30).
        ("timezone_hour", TrinoType::TimeTz(_)) => integer_op(offset(), BinaryOp::Divide, 60),
        ("timezone_minute", TrinoType::TimeTz(_)) => integer_op(offset(), BinaryOp::Remainder, 60),
        _ => return None,
    };
    Some(Typed::new(sql, TrinoType::BigInt))
}

/// date_trunc(unit, time): the unit is millisecond to hour.
pub fn trunc(unit: &Typed, t: &Typed) -> Option<Typed> {
    on_local(t, |local| QM_TIME_TRUNC.call([unit.sql.clone(), local]))
}

/// date_add(unit, n, time): wraps modulo a day; the type is kept.
pub fn add(unit: &Typed, n: &Typed, t: &Typed) -> Option<Typed> {
    on_local(t, |local| {
        QM_TIME_ADD.call([unit.sql.clone(), n.sql.clone(), local])
    })
}

/// A time's local time of day changed by `f`, for a time with time zone at its offset.
fn on_local(t: &Typed, f: impl Fn(SqlExpr) -> SqlExpr) -> Option<Typed> {
    let sql = match t.ty {
        TrinoType::Time(_) => f(t.sql.clone()),
        TrinoType::TimeTz(_) => {
            QM_TIME_TZ_WITH.call([t.sql.clone(), f(QM_TIME_TZ_LOCAL.call([t.sql.clone()]))])
        }
        _ => return None,
    };
    Some(Typed::new(sql, t.ty.clone()))
}

/// date_diff(unit, a, b) of two times, or two times with time zone by their instants.
pub fn diff(unit: &Typed, a: &Typed, b: &Typed) -> Option<Typed> {
    let key = |t: &Typed| match t.ty {
        TrinoType::Time(_) => Some(t.sql.clone()),
        TrinoType::TimeTz(_) => Some(QM_TIME_TZ_KEY.call([t.sql.clone()])),
        _ => None,
    };
    if std::mem::discriminant(&a.ty) != std::mem::discriminant(&b.ty) {
        return None;
    }
    Some(Typed::new(
        QM_TIME_DIFF.call([unit.sql.clone(), key(a)?, key(b)?]),
        TrinoType::BigInt,
    ))
}

/// `x AT TIME ZONE zone` for a time with time zone: the same instant at the zone's offset.
pub fn at_time_zone(t: &Typed, zone: &Typed) -> Option<Typed> {
    matches!(t.ty, TrinoType::TimeTz(_)).then(|| {
        Typed::new(
            QM_TIME_TZ_AT.call([t.sql.clone(), zone.sql.clone()]),
            t.ty.clone(),
        )
    })
}

/// timezone(time with time zone): its offset, `+04:00`.
pub fn zone_of(t: &Typed) -> Option<Typed> {
    matches!(t.ty, TrinoType::TimeTz(_)).then(|| {
        Typed::new(
            QM_TIME_TZ_ZONE.call([t.sql.clone()]),
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

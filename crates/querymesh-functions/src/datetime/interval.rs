//! Intervals beyond their literals (docs functions/datetime "Interval functions", language/types
//! "INTERVAL …"): the fields year() … millisecond() and EXTRACT read from them, scaling by a
//! fraction (IntervalDayTimeOperators / IntervalYearMonthOperators multiplyByDouble,
//! divideByDouble) and their text (CAST to varchar). A year-to-month interval is stored as
//! its months, a day-to-second one as its milliseconds.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr, SqliteFn};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;
use rusqlite::Connection;

use crate::udf::{FLAGS, define, fail, int, num};

/// The functions registered here, as lowerings call them.
pub const QM_INTERVAL_SCALE: SqliteFn = SqliteFn::new("qm_interval_scale");
pub const QM_INTERVAL_TEXT: SqliteFn = SqliteFn::new("qm_interval_text");

fn is_interval(t: &TrinoType) -> bool {
    matches!(
        t,
        TrinoType::IntervalDayToSecond | TrinoType::IntervalYearToMonth
    )
}

/// year, month of a year-to-month interval; day … millisecond of a day-to-second one. The
/// parts keep the interval's sign, as Java's / and % (and SQLite's) truncate toward zero.
pub fn part(unit: &str, t: &Typed) -> Option<Typed> {
    let op = |left: SqlExpr, op: BinaryOp, right: i64| {
        SqlExpr::binary(left, op, SqlExpr::Integer(right))
    };
    let x = || t.sql.clone();
    // The whole units of `size` in the value, modulo `count` of them.
    let field =
        |size: i64, count: i64| op(op(x(), BinaryOp::Divide, size), BinaryOp::Remainder, count);
    let sql = match (&t.ty, unit) {
        (TrinoType::IntervalYearToMonth, "year") => op(x(), BinaryOp::Divide, 12),
        (TrinoType::IntervalYearToMonth, "month") => op(x(), BinaryOp::Remainder, 12),
        (TrinoType::IntervalDayToSecond, "day") => op(x(), BinaryOp::Divide, 86_400_000),
        (TrinoType::IntervalDayToSecond, "hour") => field(3_600_000, 24),
        (TrinoType::IntervalDayToSecond, "minute") => field(60_000, 60),
        (TrinoType::IntervalDayToSecond, "second") => field(1000, 60),
        (TrinoType::IntervalDayToSecond, "millisecond") => op(x(), BinaryOp::Remainder, 1000),
        _ => return None,
    };
    Some(Typed::new(sql, TrinoType::BigInt))
}

/// `interval * x`, `x * interval` and `interval / x` for a number `x` given as a double
/// (`as_double` is its SQL as one): `(long) (interval op x)`, NaN and division by zero
/// refused. Integer factors multiply exactly elsewhere; `None` when this does not apply.
pub fn scaled(
    op: char,
    iv: &Typed,
    factor: &Typed,
    as_double: impl Into<SqlExpr>,
) -> Option<Typed> {
    if !is_interval(&iv.ty) || !factor.ty.is_numeric() {
        return None;
    }
    Some(Typed::new(
        QM_INTERVAL_SCALE.call([
            iv.sql.clone(),
            as_double.into(),
            SqlExpr::text(op.to_string()),
        ]),
        iv.ty.clone(),
    ))
}

/// CAST(interval AS varchar): `1 02:03:04.500` (IntervalDayTime.formatMillis), `3-4`.
pub fn text_sql(t: &Typed) -> Option<SqlExpr> {
    let kind = match t.ty {
        TrinoType::IntervalDayToSecond => "day to second",
        TrinoType::IntervalYearToMonth => "year to month",
        _ => return None,
    };
    Some(QM_INTERVAL_TEXT.call([t.sql.clone(), SqlExpr::text(kind)]))
}

/// An interval's text as Trino writes it: `-1 02:03:04.500`, `-3-4`.
pub fn format(value: i64, day_to_second: bool) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let v = value.unsigned_abs();
    if day_to_second {
        format!(
            "{sign}{} {:02}:{:02}:{:02}.{:03}",
            v / 86_400_000,
            v / 3_600_000 % 24,
            v / 60_000 % 60,
            v / 1000 % 60,
            v % 1000
        )
    } else {
        format!("{sign}{}-{}", v / 12, v % 12)
    }
}

/// Registers `qm_interval_scale` and `qm_interval_text`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_INTERVAL_SCALE.name(), 3, FLAGS, |ctx| {
        let (Some(value), Some(x)) = (int(ctx.get_raw(0)), num(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let op: String = ctx.get(2)?;
        if op == "/" {
            if x.is_nan() || x == 0.0 {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    format!("Cannot divide by double {}", crate::udf::java_double(x)),
                ));
            }
            return Ok(Some((value as f64 / x) as i64));
        }
        if x.is_nan() {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                "Cannot multiply by double NaN",
            ));
        }
        Ok(Some((value as f64 * x) as i64))
    })?;
    define(conn, QM_INTERVAL_TEXT.name(), 2, FLAGS, |ctx| {
        let Some(value) = int(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let kind: String = ctx.get(1)?;
        Ok(Some(format(value, kind == "day to second")))
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_are_written_as_trino_writes_them() {
        // TestIntervalDayTime.testCastToVarchar; TestIntervalYearMonth.testCastToVarchar.
        assert_eq!(format(93_784_500, true), "1 02:03:04.500");
        assert_eq!(format(-93_784_500, true), "-1 02:03:04.500");
        assert_eq!(format(40, false), "3-4");
        assert_eq!(format(-40, false), "-3-4");
    }

    #[test]
    fn parts_keep_the_sign() {
        let iv = Typed::new("x", TrinoType::IntervalYearToMonth);
        let sql = |unit| part(unit, &iv).map(|t| t.sql.to_string());
        assert_eq!(sql("year"), Some("(x / 12)".into()));
        assert!(part("hour", &iv).is_none());
        let iv = Typed::new("x", TrinoType::IntervalDayToSecond);
        assert_eq!(
            part("hour", &iv).map(|t| t.sql.to_string()),
            Some("((x / 3600000) % 24)".into())
        );
    }
}

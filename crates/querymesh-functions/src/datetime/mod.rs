//! Date and time functions (Trino docs functions/datetime): fields of a date or timestamp,
//! date_trunc/date_add/date_diff (DateTimeFunctions: they take a date or a timestamp(p) and
//! keep its type), and the current date and time.

mod current;
pub mod format;
pub mod interval;
pub mod iso_date;
pub mod sqlite;
pub mod time_of_day;
pub mod time_zone;

use querymesh_values::coerce::{coerced, super_type};
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr, builtin};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing, scalar};
use super::{Call, is_integer_or_null};
use sqlite::{QM_DATE_ADD, QM_DATE_DIFF, QM_DATE_TRUNC};
use time_zone::sqlite::{QM_TZ_ADD, QM_TZ_DIFF, QM_TZ_LOCAL, QM_TZ_TRUNC};

const FIELD: &[(&str, &str)] = &[
    ("date", "bigint"),
    ("timestamp(p)", "bigint"),
    ("timestamp(p) with time zone", "bigint"),
];

/// The fields a time of day has too (hour … millisecond).
const TIME_FIELD: &[(&str, &str)] = &[
    ("date", "bigint"),
    ("timestamp(p)", "bigint"),
    ("timestamp(p) with time zone", "bigint"),
    ("time(p)", "bigint"),
    ("time(p) with time zone", "bigint"),
    ("interval day to second", "bigint"),
];

const fn time_field(name: &'static str, description: &'static str) -> FunctionDef {
    scalar(
        name,
        TIME_FIELD,
        Typing::ByLowering,
        Lower::Scalar(date_field),
        description,
    )
}

const fn field(name: &'static str, description: &'static str) -> FunctionDef {
    scalar(
        name,
        FIELD,
        Typing::ByLowering,
        Lower::Scalar(date_field),
        description,
    )
}

/// `now()` and `current_timestamp`: Trino lists `now` (as deterministic, as it lists
/// `current_date`: the value is fixed for the query), while `current_timestamp` and
/// `localtimestamp` are special forms of its grammar, which SHOW FUNCTIONS leaves out.
const fn now(
    name: &'static str,
    kind: Kind,
    lower: fn(&mut dyn LowerContext, &Call) -> LowerResult,
) -> FunctionDef {
    FunctionDef {
        name,
        kind,
        signatures: &[("", "timestamp(3) with time zone")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(lower),
        description: "Current timestamp with time zone",
        deterministic: true,
    }
}

pub const FUNCTIONS: &[FunctionDef] = &[
    field("year", "Year of the given date or timestamp"),
    field("month", "Month of the year of the given date or timestamp"),
    field("day", "Day of the month of the given date or timestamp"),
    field(
        "day_of_month",
        "Day of the month of the given date or timestamp",
    ),
    field(
        "quarter",
        "Quarter of the year of the given date or timestamp",
    ),
    field("day_of_week", "Day of the week, 1 (Monday) to 7 (Sunday)"),
    field("dow", "Day of the week, 1 (Monday) to 7 (Sunday)"),
    field(
        "day_of_year",
        "Day of the year of the given date or timestamp",
    ),
    field("doy", "Day of the year of the given date or timestamp"),
    field(
        "week",
        "ISO week of the year of the given date or timestamp",
    ),
    field(
        "week_of_year",
        "ISO week of the year of the given date or timestamp",
    ),
    field(
        "year_of_week",
        "Year of the ISO week of the given date or timestamp",
    ),
    field("yow", "Year of the ISO week of the given date or timestamp"),
    time_field("hour", "Hour of the day of the given timestamp"),
    time_field("minute", "Minute of the hour of the given timestamp"),
    time_field("second", "Second of the minute of the given timestamp"),
    time_field(
        "millisecond",
        "Millisecond of the second of the given timestamp",
    ),
    scalar(
        "date_trunc",
        &[
            ("varchar(x), date", "date"),
            ("varchar(x), timestamp(p)", "timestamp(p)"),
            (
                "varchar(x), timestamp(p) with time zone",
                "timestamp(p) with time zone",
            ),
            ("varchar(x), time(p)", "time(p)"),
            (
                "varchar(x), time(p) with time zone",
                "time(p) with time zone",
            ),
        ],
        Typing::ByLowering,
        Lower::Scalar(date_trunc),
        "Truncate to the specified time unit",
    ),
    scalar(
        "date_add",
        &[
            ("varchar(x), bigint, date", "date"),
            ("varchar(x), bigint, timestamp(p)", "timestamp(p)"),
            (
                "varchar(x), bigint, timestamp(p) with time zone",
                "timestamp(p) with time zone",
            ),
            ("varchar(x), bigint, time(p)", "time(p)"),
            (
                "varchar(x), bigint, time(p) with time zone",
                "time(p) with time zone",
            ),
        ],
        Typing::ByLowering,
        Lower::Scalar(date_add),
        "Add the specified amount of date to the given date",
    ),
    scalar(
        "date_diff",
        &[
            ("varchar(x), date, date", "bigint"),
            ("varchar(x), timestamp(p), timestamp(p)", "bigint"),
            (
                "varchar(x), timestamp(p) with time zone, timestamp(p) with time zone",
                "bigint",
            ),
            ("varchar(x), time(p), time(p)", "bigint"),
            (
                "varchar(x), time(p) with time zone, time(p) with time zone",
                "bigint",
            ),
        ],
        Typing::ByLowering,
        Lower::Scalar(date_diff),
        "Difference of the given dates in the given unit",
    ),
    scalar(
        "date",
        &[
            ("varchar(x)", "date"),
            ("timestamp(p)", "date"),
            ("timestamp(p) with time zone", "date"),
            ("date", "date"),
        ],
        Typing::ByLowering,
        Lower::Scalar(to_date),
        "Cast the value to date",
    ),
    scalar(
        "from_iso8601_date",
        &[("varchar(x)", "date")],
        Typing::ByLowering,
        Lower::Scalar(iso_date::lower),
        "Parses an ISO 8601 formatted date",
    ),
    FunctionDef {
        name: "current_date",
        kind: Kind::Scalar,
        signatures: &[("", "date")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(current::current_date),
        description: "Current date",
        deterministic: true,
    },
    now("now", Kind::Scalar, current::now),
    now(
        "current_timestamp",
        Kind::SpecialForm,
        current::current_timestamp,
    ),
    FunctionDef {
        name: "localtimestamp",
        kind: Kind::SpecialForm,
        signatures: &[("", "timestamp(3)")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(current::local_timestamp),
        description: "Current timestamp without time zone",
        deterministic: false,
    },
    FunctionDef {
        name: "current_time",
        kind: Kind::SpecialForm,
        signatures: &[("", "time(3) with time zone")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(current::current_time),
        description: "Current time with time zone",
        deterministic: true,
    },
    FunctionDef {
        name: "localtime",
        kind: Kind::SpecialForm,
        signatures: &[("", "time(3)")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(current::local_time),
        description: "Current time without time zone",
        deterministic: false,
    },
];

/// What the date functions are told of their argument: 0 for a date, else the fraction
/// digits its stored text has.
fn fraction_digits(t: &TrinoType) -> SqlExpr {
    let digits = match t {
        TrinoType::Timestamp(p) => crate::udf::stored_digits(*p),
        _ => 0,
    };
    SqlExpr::Integer(digits as i64)
}

fn is_date_or_timestamp(t: &TrinoType) -> bool {
    matches!(t, TrinoType::Date | TrinoType::Timestamp(_))
}

fn date_field(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a] = c.args.as_slice() else {
        return Ok(None);
    };
    let unit = match c.name.as_str() {
        "day_of_month" => "day",
        "dow" => "day_of_week",
        "doy" => "day_of_year",
        "week_of_year" => "week",
        "yow" => "year_of_week",
        other => other,
    };
    // hour(date) and its neighbours take the date as a timestamp at midnight (Trino coerces
    // date to timestamp(0) to find a signature), where EXTRACT refuses it.
    if a.ty == TrinoType::Date && matches!(unit, "hour" | "minute" | "second" | "millisecond") {
        let midnight = Typed::new(
            coerced(a, &TrinoType::Timestamp(0)),
            TrinoType::Timestamp(0),
        );
        return ctx.date_part(unit, midnight, c.at).map(Some);
    }
    ctx.date_part(unit, a.clone(), c.at).map(Some)
}

fn date_trunc(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [unit, t] if unit.ty.is_string() && time_of_day::is_time(&t.ty) => {
            time_of_day::trunc(unit, t)
        }
        [unit, d] if unit.ty.is_string() && matches!(d.ty, TrinoType::TimestampTz(_)) => {
            let TrinoType::TimestampTz(p) = d.ty else {
                return Ok(None);
            };
            Some(Typed::new(
                QM_TZ_TRUNC.call([
                    unit.sql.clone(),
                    d.sql.clone(),
                    SqlExpr::Integer(i64::from(p)),
                ]),
                d.ty.clone(),
            ))
        }
        [unit, d] if unit.ty.is_string() && is_date_or_timestamp(&d.ty) => Some(Typed::new(
            QM_DATE_TRUNC.call([unit.sql.clone(), d.sql.clone(), fraction_digits(&d.ty)]),
            d.ty.clone(),
        )),
        _ => None,
    })
}

fn date_add(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [unit, n, t]
            if unit.ty.is_string() && is_integer_or_null(&n.ty) && time_of_day::is_time(&t.ty) =>
        {
            time_of_day::add(unit, n, t)
        }
        [unit, n, d]
            if unit.ty.is_string()
                && is_integer_or_null(&n.ty)
                && matches!(d.ty, TrinoType::TimestampTz(_)) =>
        {
            let TrinoType::TimestampTz(p) = d.ty else {
                return Ok(None);
            };
            Some(Typed::new(
                QM_TZ_ADD.call([
                    unit.sql.clone(),
                    n.sql.clone(),
                    d.sql.clone(),
                    SqlExpr::Integer(i64::from(p)),
                ]),
                d.ty.clone(),
            ))
        }
        [unit, n, d]
            if unit.ty.is_string() && is_integer_or_null(&n.ty) && is_date_or_timestamp(&d.ty) =>
        {
            Some(Typed::new(
                QM_DATE_ADD.call([
                    unit.sql.clone(),
                    n.sql.clone(),
                    d.sql.clone(),
                    fraction_digits(&d.ty),
                ]),
                d.ty.clone(),
            ))
        }
        _ => None,
    })
}

fn date_diff(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [unit, a, b] = c.args.as_slice() else {
        return Ok(None);
    };
    if unit.ty.is_string() && time_of_day::is_time(&a.ty) {
        let (a, b) = match super_type(&a.ty, &b.ty) {
            Some(ty) => (
                Typed::new(coerced(a, &ty), ty.clone()),
                Typed::new(coerced(b, &ty), ty),
            ),
            None => return Ok(None),
        };
        return Ok(time_of_day::diff(unit, &a, &b));
    }
    let tz = |t: &Typed| matches!(t.ty, TrinoType::TimestampTz(_));
    if unit.ty.is_string() && (tz(a) || tz(b)) {
        let (a, b) = ctx.zoned_operands(a.clone(), b.clone());
        if !(tz(&a) && tz(&b)) {
            return Ok(None);
        }
        return Ok(Some(Typed::new(
            QM_TZ_DIFF.call([unit.sql.clone(), a.sql, b.sql]),
            TrinoType::BigInt,
        )));
    }
    // NULL takes the other operand's type (date_diff('day', NULL, DATE '2024-01-01')).
    let dated = |t: &Typed| is_date_or_timestamp(&t.ty) || t.ty == TrinoType::Unknown;
    if !(unit.ty.is_string() && dated(a) && dated(b)) || a.ty == b.ty && a.ty == TrinoType::Unknown
    {
        return Ok(None);
    }
    let Some(ty) = super_type(&a.ty, &b.ty) else {
        return Ok(None);
    };
    Ok(Some(Typed::new(
        QM_DATE_DIFF.call([
            unit.sql.clone(),
            coerced(a, &ty),
            coerced(b, &ty),
            fraction_digits(&ty),
        ]),
        TrinoType::BigInt,
    )))
}

fn to_date(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    match c.args.as_slice() {
        [a] if a.ty.is_string()
            || matches!(
                a.ty,
                TrinoType::Timestamp(_) | TrinoType::TimestampTz(_) | TrinoType::Date
            ) =>
        {
            ctx.cast(a.clone(), &TrinoType::Date, false, c.at).map(Some)
        }
        _ => Ok(None),
    }
}

/// The current instant in the session zone, stored (querymesh-functions/src/datetime/time_zone/sqlite): SQLite's `now` is UTC
/// and one value for the whole statement, as Trino's is for the query.
pub fn now_sql(zone: &str) -> SqlExpr {
    let utc_millis =
        builtin::STRFTIME.call([SqlExpr::text("%Y-%m-%d %H:%M:%f"), SqlExpr::text("now")]);
    // Padded to the stored 12 fraction digits, then the zone.
    let padded = SqlExpr::binary(utc_millis, BinaryOp::Concat, SqlExpr::text("000000000 "));
    SqlExpr::binary(padded, BinaryOp::Concat, SqlExpr::text(zone))
}

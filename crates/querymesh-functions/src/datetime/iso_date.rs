//! from_iso8601_date (docs functions/datetime): the ISO 8601 date forms Joda's
//! ISODateTimeFormat.dateElementParser reads — `2020`, `2020-05`, `2020-05-07`, the week
//! forms `2020-W10` and `2020-W10-3`, and the ordinal `2020-123` — with Joda's
//! "Cannot parse …" refusals (INVALID_FUNCTION_ARGUMENT).

use querymesh_values::calendar;
use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;
use rusqlite::Connection;

use crate::Call;
use crate::context::LowerContext;
use crate::entry::LowerResult;
use crate::udf::{FLAGS, define, fail, text};

/// `qm_from_iso8601_date(text)`, registered here.
pub const QM_FROM_ISO8601_DATE: SqliteFn = SqliteFn::new("qm_from_iso8601_date");

/// from_iso8601_date(varchar) and from_iso8601_date(NULL).
pub fn lower(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [x] if x.ty.is_string() || x.ty == TrinoType::Unknown => Some(Typed::new(
            QM_FROM_ISO8601_DATE.call([x.sql.clone()]),
            TrinoType::Date,
        )),
        _ => None,
    })
}

fn digits(s: &str, n: usize) -> Option<i64> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Joda's message for a field out of its range.
fn out_of_range(text: &str, value: i64, field: &str, max: i64) -> String {
    format!("Cannot parse \"{text}\": Value {value} for {field} must be in the range [1,{max}]")
}

/// The day number of an ISO 8601 date text, or Joda's message.
pub fn parse(text: &str) -> Result<i64, String> {
    let malformed = || format!("Invalid format: \"{text}\"");
    let mut parts = text.split('-');
    let year = parts
        .next()
        .and_then(|y| digits(y, 4))
        .ok_or_else(malformed)?;
    let rest: Vec<&str> = parts.collect();
    let first_of = |m: u32| calendar::days_from_civil(year, m, 1);
    match rest.as_slice() {
        [] => Ok(first_of(1)),
        [week, more @ ..] if week.starts_with('W') && more.len() <= 1 => {
            let w = digits(&week[1..], 2).ok_or_else(malformed)?;
            let d = match more {
                [d] => digits(d, 1).ok_or_else(malformed)?,
                _ => 1,
            };
            // Week 1 holds January 4; a year has 53 weeks when December 28 is in week 53.
            let weeks = calendar::week_of_year(calendar::days_from_civil(year, 12, 28));
            if !(1..=weeks).contains(&w) {
                return Err(out_of_range(text, w, "weekOfWeekyear", weeks));
            }
            if !(1..=7).contains(&d) {
                return Err(out_of_range(text, d, "dayOfWeek", 7));
            }
            let jan4 = calendar::days_from_civil(year, 1, 4);
            let monday = jan4 - calendar::day_of_week(jan4) + 1;
            Ok(monday + (w - 1) * 7 + d - 1)
        }
        [ordinal] if ordinal.len() == 3 => {
            let n = digits(ordinal, 3).ok_or_else(malformed)?;
            let days = calendar::day_of_year(calendar::days_from_civil(year, 12, 31));
            if !(1..=days).contains(&n) {
                return Err(out_of_range(text, n, "dayOfYear", days));
            }
            Ok(first_of(1) + n - 1)
        }
        [month, more @ ..] if more.len() <= 1 => {
            let m = digits(month, 2).ok_or_else(malformed)?;
            if !(1..=12).contains(&m) {
                return Err(out_of_range(text, m, "monthOfYear", 12));
            }
            let Some(day) = more.first() else {
                return Ok(first_of(m as u32));
            };
            let d = digits(day, 2).ok_or_else(malformed)?;
            let last = i64::from(calendar::days_in_month(year, m as u32));
            if !(1..=last).contains(&d) {
                return Err(out_of_range(text, d, "dayOfMonth", last));
            }
            Ok(first_of(m as u32) + d - 1)
        }
        _ => Err(malformed()),
    }
}

/// Registers `qm_from_iso8601_date`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_FROM_ISO8601_DATE.name(), 1, FLAGS, |ctx| {
        let Some(t) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        parse(&t)
            .map(|d| Some(calendar::format_date(d)))
            .map_err(|m| fail(ErrorName::InvalidFunctionArgument, m))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_iso_8601_date_forms() {
        // TestDateTimeFunctions.testFromIso8601Date.
        let day = |t: &str| parse(t).map(calendar::format_date);
        assert_eq!(day("2021-08-19"), Ok("2021-08-19".into()));
        assert_eq!(day("2021-08"), Ok("2021-08-01".into()));
        assert_eq!(day("2021"), Ok("2021-01-01".into()));
        assert_eq!(day("2021-W33"), Ok("2021-08-16".into()));
        assert_eq!(day("2021-W01-1"), Ok("2021-01-04".into()));
        assert_eq!(day("2021-231"), Ok("2021-08-19".into()));
        assert_eq!(day("2020-366"), Ok("2020-12-31".into()));
        assert!(day("2020-13-01").is_err_and(|m| m.contains("monthOfYear")));
        assert!(day("2021-W53").is_err_and(|m| m.contains("[1,52]")));
        assert!(day("2021-08-19T00:00").is_err());
    }
}

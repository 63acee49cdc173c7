//! Dates and timestamps: `qm_date_part` and `qm_add_months`, and the stored text of a
//! timestamp(p) that casts, literals and operators share.

pub mod arithmetic;

use querymesh_values::calendar;
use querymesh_values::error::ErrorName;
use rusqlite::functions::Context;
use rusqlite::{Connection, Error};

use crate::udf::define;
use crate::udf::{FLAGS, fail, int, text};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_DATE_PART: SqliteFn = SqliteFn::new("qm_date_part");
pub const QM_ADD_MONTHS: SqliteFn = SqliteFn::new("qm_add_months");
pub const QM_DATE_ADD: SqliteFn = SqliteFn::new("qm_date_add");
pub const QM_DATE_DIFF: SqliteFn = SqliteFn::new("qm_date_diff");

fn date_arg(ctx: &Context<'_>, i: usize) -> rusqlite::Result<Option<i64>> {
    match text(ctx.get_raw(i)) {
        None => Ok(None),
        Some(s) => {
            let day = s.get(..10).unwrap_or(&s);
            calendar::parse_date(day).map(Some).ok_or_else(|| {
                fail(
                    ErrorName::InvalidFunctionArgument,
                    format!("Invalid date '{s}'"),
                )
            })
        }
    }
}

fn unit_error(unit: &str) -> Error {
    fail(
        ErrorName::InvalidFunctionArgument,
        format!("'{unit}' is not a valid DATE field"),
    )
}

/// Registers the date functions on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    super::time_of_day::sqlite::register(conn)?;
    super::interval::register(conn)?;
    super::iso_date::register(conn)?;
    define(conn, QM_DATE_PART.name(), 2, FLAGS, |ctx| {
        let part: String = ctx.get(0)?;
        let Some(d) = date_arg(ctx, 1)? else {
            return Ok(None);
        };
        let (y, m, day) = calendar::civil_from_days(d);
        Ok(Some(match part.as_str() {
            "year" => y,
            "quarter" => (m as i64 - 1) / 3 + 1,
            "month" => m as i64,
            "day" => day as i64,
            "day_of_week" => calendar::day_of_week(d),
            "day_of_year" => calendar::day_of_year(d),
            "week" => calendar::week_of_year(d),
            "year_of_week" => calendar::year_of_week(d),
            other => return Err(unit_error(other)),
        }))
    })?;
    define(conn, QM_ADD_MONTHS.name(), 2, FLAGS, |ctx| {
        let n = int(ctx.get_raw(1));
        match (n, date_arg(ctx, 0)?) {
            (Some(n), Some(d)) => calendar::add_months(d, n)
                .map(|r| Some(calendar::format_date(r)))
                .ok_or_else(|| fail(ErrorName::NumericValueOutOfRange, "Date is out of range")),
            _ => Ok(None),
        }
    })?;
    Ok(())
}

//! Date formats (Trino docs functions/datetime "MySQL date functions" and "Java date
//! functions"): date_format/date_parse with MySQL specifiers, format_datetime/parse_datetime
//! with Joda-Time patterns; querymesh-functions/src/datetime/format/sqlite does the work on the value's wall time.

pub mod sqlite;

use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use crate::Call;
use crate::context::LowerContext;
use crate::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};
use sqlite::{QM_DATE_FORMAT, QM_DATE_PARSE, QM_FORMAT_DATETIME, QM_PARSE_DATETIME};

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "date_format",
        &[
            ("timestamp(p), varchar(x)", "varchar"),
            ("timestamp(p) with time zone, varchar(x)", "varchar"),
        ],
        Typing::ByLowering,
        Lower::Scalar(format),
        "Formats timestamp as a string using format",
    ),
    scalar(
        "format_datetime",
        &[
            ("timestamp(p), varchar(x)", "varchar"),
            ("timestamp(p) with time zone, varchar(x)", "varchar"),
        ],
        Typing::ByLowering,
        Lower::Scalar(format),
        "Formats the given timestamp by the given format",
    ),
    scalar(
        "date_parse",
        &[("varchar(x), varchar(y)", "timestamp(3)")],
        Typing::ByLowering,
        Lower::Scalar(parse),
        "Parses string into a timestamp using format",
    ),
    scalar(
        "parse_datetime",
        &[("varchar(x), varchar(y)", "timestamp(3) with time zone")],
        Typing::ByLowering,
        Lower::Scalar(parse),
        "Parses string into a timestamp with time zone using format",
    ),
];

fn is_text(t: &Typed) -> bool {
    t.ty.is_string() || t.ty == TrinoType::Unknown
}

/// A timestamp is formatted as its wall time (taken in the session zone for the zone
/// letters, as Trino coerces it); one with a zone in its own zone.
fn format(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x, f] = c.args.as_slice() else {
        return Ok(None);
    };
    if !is_text(f) {
        return Ok(None);
    }
    let Some(x) = (match x.ty {
        TrinoType::Timestamp(_) | TrinoType::TimestampTz(_) | TrinoType::Date => ctx.zoned(x),
        TrinoType::Unknown => Some(Typed::new(SqlExpr::Null, TrinoType::TimestampTz(3))),
        _ => None,
    }) else {
        return Ok(None);
    };
    let function = if c.name == "date_format" {
        QM_DATE_FORMAT
    } else {
        QM_FORMAT_DATETIME
    };
    Ok(Some(Typed::new(
        function.call([x.sql, f.sql.clone()]),
        TrinoType::Varchar(None),
    )))
}

fn parse(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [x, f] = c.args.as_slice() else {
        return Ok(None);
    };
    if !(is_text(x) && is_text(f)) {
        return Ok(None);
    }
    Ok(Some(if c.name == "date_parse" {
        Typed::new(
            QM_DATE_PARSE.call([x.sql.clone(), f.sql.clone()]),
            TrinoType::Timestamp(3),
        )
    } else {
        Typed::new(
            QM_PARSE_DATETIME.call([
                x.sql.clone(),
                f.sql.clone(),
                SqlExpr::text(ctx.session_zone()),
            ]),
            TrinoType::TimestampTz(3),
        )
    }))
}

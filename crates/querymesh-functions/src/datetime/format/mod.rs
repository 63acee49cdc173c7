//! Date formats (Trino docs functions/datetime "MySQL date functions" and "Java date
//! functions"): date_format/date_parse with MySQL specifiers, format_datetime/parse_datetime
//! with Joda-Time patterns; querymesh-functions/src/datetime/format/sqlite does the work on the value's wall time.

pub mod sqlite;

use querymesh_values::sqlite_text::sql_string;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use crate::Call;
use crate::context::LowerContext;
use crate::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};

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
        TrinoType::Unknown => Some(Typed::new("NULL", TrinoType::TimestampTz(3))),
        _ => None,
    }) else {
        return Ok(None);
    };
    let function = if c.name == "date_format" {
        "qm_date_format"
    } else {
        "qm_format_datetime"
    };
    Ok(Some(Typed::new(
        format!("{function}({}, {})", x.sql, f.sql),
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
            format!("qm_date_parse({}, {})", x.sql, f.sql),
            TrinoType::Timestamp(3),
        )
    } else {
        Typed::new(
            format!(
                "qm_parse_datetime({}, {}, {})",
                x.sql,
                f.sql,
                sql_string(&ctx.session_zone())
            ),
            TrinoType::TimestampTz(3),
        )
    }))
}

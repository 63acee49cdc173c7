//! `format(format, args…)` (Trino docs functions/conversion, FormatFunction): a special form
//! in Trino (the analyser rewrites it), so `SHOW FUNCTIONS` leaves it out. Each argument is
//! passed to `qm_format` with a letter naming the Java value Trino's converter makes of it;
//! decimals, uuids and intervals go as their varchar text and json as its canonical text,
//! as Trino's converters do. Types with no cast to varchar are refused as Trino refuses them.

pub mod sqlite;
pub mod units;

use querymesh_values::error::{ErrorName, TrinoError, error_at};
use querymesh_values::sqlite_expr::{SqlExpr, builtin};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing};
use sqlite::QM_FORMAT;

pub const FUNCTIONS: &[FunctionDef] = &[FunctionDef {
    name: "format",
    kind: Kind::SpecialForm,
    signatures: &[("varchar, T...", "varchar")],
    typing: Typing::ByLowering,
    lower: Lower::Scalar(format),
    description: "Formats the arguments with a Java format string",
    deterministic: true,
}];

fn format(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some((first, rest)) = c.args.split_first() else {
        return Ok(None);
    };
    if !matches!(first.ty, TrinoType::Varchar(_)) {
        return Err(error_at(
            ErrorName::TypeMismatch,
            c.at,
            format!(
                "Type of first argument to format() must be VARCHAR (actual: {})",
                first.ty
            ),
        ));
    }
    if rest.is_empty() {
        // Trino's grammar wants at least one argument after the format.
        return Err(error_at(
            ErrorName::SyntaxError,
            c.at,
            "mismatched input ')'. Expecting: ','",
        ));
    }
    let mut kinds = String::new();
    let mut values = Vec::with_capacity(rest.len());
    for arg in rest {
        let (kind, sql) = java_value(ctx, arg, c)?;
        kinds.push(kind);
        values.push(sql);
    }
    let args = [first.sql.clone(), SqlExpr::Text(kinds)]
        .into_iter()
        .chain(values);
    Ok(Some(Typed::new(
        QM_FORMAT.call(args),
        TrinoType::Varchar(None),
    )))
}

/// The letter `qm_format` reads the argument as, and its SQL.
fn java_value(
    ctx: &mut dyn LowerContext,
    a: &Typed,
    c: &Call,
) -> Result<(char, SqlExpr), TrinoError> {
    use TrinoType::*;
    let as_text = |ctx: &mut dyn LowerContext| {
        ctx.cast(a.clone(), &Varchar(None), false, c.at)
            .map(|t| ('s', t.sql))
    };
    let value = a.sql.clone();
    Ok(match &a.ty {
        Unknown => ('n', SqlExpr::Null),
        Boolean => ('b', value),
        TinyInt | SmallInt | Integer | BigInt => ('l', value),
        Real => ('f', value),
        Double => ('d', value),
        Decimal { .. } => ('m', as_text(ctx)?.1),
        Varchar(_) | Json => ('s', value),
        // Trino pads a char(n) to its length before formatting it (`!`: the width counts
        // characters, not bytes).
        Char(n) => {
            let width = SqlExpr::Integer(i64::from(*n));
            (
                's',
                builtin::PRINTF.call([SqlExpr::text("%!-*s"), width, value]),
            )
        }
        Date => ('D', value),
        Time(_) => ('t', value),
        Timestamp(_) => ('T', value),
        TimestampTz(_) => ('z', value),
        Uuid | IntervalYearToMonth | IntervalDayToSecond => as_text(ctx)?,
        other => {
            return Err(error_at(
                ErrorName::NotSupported,
                c.at,
                format!(
                    "Type not supported for formatting: {}",
                    other.display_name()
                ),
            ));
        }
    })
}

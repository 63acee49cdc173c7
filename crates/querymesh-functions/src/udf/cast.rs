//! CAST and TRY_CAST (`qm_cast`) with Trino's rules and messages: [`cast`] reads the target
//! kind and hands the value to one function per target (integers, double/real, decimal,
//! boolean, varchar, date, timestamp); the source kind decides how each reads it.

use querymesh_values::calendar;
use querymesh_values::error::ErrorName;
use querymesh_values::java_number;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error};

use super::{FLAGS, fail, int, java_double, normalize_timestamp, num, real, text, timestamp_text};
use crate::udf::define;

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_CAST: SqliteFn = SqliteFn::new("qm_cast");

/// "Cannot cast '…' to TARGET".
fn invalid(shown: String, target: &str) -> Error {
    fail(
        ErrorName::InvalidCastArgument,
        format!("Cannot cast '{shown}' to {}", target.to_uppercase()),
    )
}

// DateOperators / VarcharToTimestampCast: "Value cannot be cast to date: 2005-06-bad".
fn not_a(kind: &str, shown: &str) -> Error {
    fail(
        ErrorName::InvalidCastArgument,
        format!("Value cannot be cast to {kind}: {shown}"),
    )
}

fn round_half_away(x: f64) -> f64 {
    x.round()
}

/// CAST(value AS target) with Trino's rules; `from` is the analysed source kind.
pub(crate) fn cast(value: ValueRef<'_>, from: &str, to: &str) -> rusqlite::Result<Value> {
    if matches!(value, ValueRef::Null) {
        return Ok(Value::Null);
    }
    // Casts to and from decimals are exact (querymesh-functions/src/udf/decimals.rs).
    if let Some(done) = super::decimals::cast(value, from, to) {
        return done;
    }
    // Trino's messages print a double as Java does (`Out of range for integer: 1.0E10`).
    let shown = match (from, value) {
        ("double", ValueRef::Real(x)) => java_double(x),
        _ => text(value).unwrap_or_default(),
    };
    let (to_kind, to_arg) = to.split_once(':').unwrap_or((to, ""));
    match to_kind {
        "bigint" | "integer" | "smallint" | "tinyint" => to_integer(value, from, to_kind, shown),
        "double" | "real" => to_double(value, from, to_kind, shown),
        "boolean" => to_boolean(value, from, shown),
        "varchar" => to_varchar(value, from, to_arg, shown),
        "date" => to_date(from, shown),
        "timestamp" => to_timestamp(to_arg, shown),
        _ => Err(fail(
            ErrorName::NotSupported,
            format!("Cannot cast to {to_kind}"),
        )),
    }
}

/// CAST to bigint, integer, smallint or tinyint (`to_kind`).
fn to_integer(
    value: ValueRef<'_>,
    from: &str,
    to_kind: &str,
    shown: String,
) -> rusqlite::Result<Value> {
    let (lo, hi) = match to_kind {
        "bigint" => (i64::MIN as f64, i64::MAX as f64),
        "integer" => (i32::MIN as f64, i32::MAX as f64),
        "smallint" => (i16::MIN as f64, i16::MAX as f64),
        _ => (i8::MIN as f64, i8::MAX as f64),
    };
    let n = match (from, value) {
        // VarcharOperators parses the trimmed text as the target type itself, so a
        // number that does not fit is a bad cast too ("Cannot cast '…' to INT").
        ("varchar", ValueRef::Text(_)) => match shown.trim().parse::<i64>() {
            Ok(i) if (lo..=hi).contains(&(i as f64)) => i as f64,
            _ => {
                let name = if to_kind == "integer" { "int" } else { to_kind };
                return Err(invalid(shown, name));
            }
        },
        ("boolean", v) => int(v).unwrap_or(0) as f64,
        (_, ValueRef::Integer(i)) => {
            if (lo..=hi).contains(&(i as f64)) {
                return Ok(Value::Integer(i));
            }
            i as f64
        }
        (_, v) => round_half_away(num(v).ok_or_else(|| invalid(shown.clone(), to_kind))?),
    };
    // DoubleOperators.castToLong rounds with Guava's DoubleMath, which refuses NaN, the
    // infinities and what lies past a long alike; a real saturates (RealOperators).
    if to_kind == "bigint" && from == "double" && !(n.is_finite() && n >= lo && n < hi) {
        return Err(fail(
            ErrorName::InvalidCastArgument,
            format!("Unable to cast {shown} to bigint"),
        ));
    }
    if to_kind == "bigint" && from == "real" && !n.is_nan() {
        return Ok(Value::Integer(n as i64));
    }
    // DoubleOperators: "Cannot cast double NaN to integer".
    if n.is_nan() {
        return Err(fail(
            ErrorName::InvalidCastArgument,
            format!("Cannot cast {from} NaN to {to_kind}"),
        ));
    }
    if n < lo || n > hi {
        return Err(fail(
            ErrorName::NumericValueOutOfRange,
            format!("Out of range for {to_kind}: {shown}"),
        ));
    }
    Ok(Value::Integer(n as i64))
}

/// CAST to double or real (`to_kind`).
fn to_double(
    value: ValueRef<'_>,
    from: &str,
    to_kind: &str,
    shown: String,
) -> rusqlite::Result<Value> {
    let x = match (from, value) {
        ("varchar", _) => java_parse_double(&shown).ok_or_else(|| invalid(shown, to_kind))?,
        (_, v) => num(v).unwrap_or(0.0),
    };
    // A real holds only a float's precision: CAST(0.1 AS real) is 0.100000001490116…
    Ok(real(if to_kind == "real" {
        f64::from(x as f32)
    } else {
        x
    }))
}

/// Java's Double.parseDouble, which VarcharOperators.castToDouble uses: spaces around, a sign,
/// `NaN` and `Infinity` spelled so, a trailing d/f type letter; not Rust's `inf` or `nan`
/// (`CAST('inf' AS double)` fails in Trino).
fn java_parse_double(text: &str) -> Option<f64> {
    let t = text.trim_matches(|c: char| c <= ' ');
    let (negative, unsigned) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let magnitude = match unsigned {
        "NaN" => f64::NAN,
        "Infinity" => f64::INFINITY,
        _ => {
            let digits = unsigned
                .strip_suffix(['d', 'D', 'f', 'F'])
                .unwrap_or(unsigned);
            if !digits.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
                return None;
            }
            digits.parse::<f64>().ok()?
        }
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// CAST to boolean.
fn to_boolean(value: ValueRef<'_>, from: &str, shown: String) -> rusqlite::Result<Value> {
    match from {
        // VarcharOperators.castToBoolean: exactly these spellings, untrimmed.
        "varchar" => match shown.to_ascii_lowercase().as_str() {
            "true" | "t" | "1" => Ok(Value::Integer(1)),
            "false" | "f" | "0" => Ok(Value::Integer(0)),
            _ => Err(invalid(shown, "boolean")),
        },
        _ => Ok(Value::Integer(i64::from(num(value).unwrap_or(0.0) != 0.0))),
    }
}

/// CAST to varchar, or varchar(n) when `to_arg` is a length.
fn to_varchar(
    value: ValueRef<'_>,
    from: &str,
    to_arg: &str,
    shown: String,
) -> rusqlite::Result<Value> {
    let text = varchar_text(value, from, shown.clone());
    // Number, boolean and date casts to varchar(n) fail when the text is longer
    // ("Value 12 cannot be represented as varchar(1)", IntegerOperators and friends); a
    // double's or real's message shows Java's text beside the cast's
    // ("Value 1.5 (1.5E0) cannot be represented as varchar(2)", DoubleOperators).
    match to_arg.parse::<usize>() {
        Ok(n) if text.chars().count() > n => {
            let value = match from {
                "double" => format!("{shown} ({text})"),
                "real" => format!(
                    "{} ({text})",
                    java_number::float_to_string(num(value).unwrap_or(0.0) as f32)
                ),
                _ => text,
            };
            Err(fail(
                ErrorName::InvalidCastArgument,
                format!("Value {value} cannot be represented as varchar({n})"),
            ))
        }
        _ => Ok(Value::Text(text)),
    }
}

/// CAST to date.
fn to_date(from: &str, shown: String) -> rusqlite::Result<Value> {
    let day = shown.get(..10).unwrap_or(&shown);
    let parsed = if from == "varchar" {
        calendar::parse_date(shown.trim())
    } else {
        calendar::parse_date(day)
    };
    parsed
        .map(|d| Value::Text(calendar::format_date(d)))
        .ok_or_else(|| not_a("date", &shown))
}

/// CAST to timestamp(p); `to_arg` is p, 3 when absent.
fn to_timestamp(to_arg: &str, shown: String) -> rusqlite::Result<Value> {
    let precision: u8 = to_arg.parse().unwrap_or(3);
    let t = shown.trim();
    let (day, time) = t.split_once([' ', 'T']).unwrap_or((t, "00:00:00"));
    let d = calendar::parse_date(day).ok_or_else(|| not_a("timestamp", &shown))?;
    Ok(Value::Text(
        normalize_timestamp(d, time, precision).ok_or_else(|| not_a("timestamp", &shown))?,
    ))
}

/// `scale:precision` of a decimal cast kind.
pub(crate) fn decimal_kind(arg: &str) -> (i32, i32) {
    let mut parts = arg.split(':').map(|p| p.parse::<i32>().unwrap_or(0));
    let scale = parts.next().unwrap_or(0).clamp(0, 38);
    let precision = parts.next().unwrap_or(38).clamp(1, 38);
    (scale, precision)
}

/// A value as Trino's cast to varchar writes it; `from` is its analysed kind.
fn varchar_text(value: ValueRef<'_>, from: &str, shown: String) -> String {
    match from {
        "double" => java_number::double_to_varchar(num(value).unwrap_or(0.0)),
        "real" => java_number::float_to_varchar(num(value).unwrap_or(0.0) as f32),
        "boolean" => (if int(value).unwrap_or(0) != 0 {
            "true"
        } else {
            "false"
        })
        .into(),
        k if k.starts_with("timestamp") => {
            let precision = k.split_once(':').map_or(3, |(_, p)| p.parse().unwrap_or(3));
            timestamp_text(&shown, precision)
        }
        _ => shown,
    }
}

/// Registers `qm_cast` on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_CAST.name(), 4, FLAGS, |ctx| {
        let from: String = ctx.get(1)?;
        let to: String = ctx.get(2)?;
        let try_cast: bool = ctx.get(3)?;
        match cast(ctx.get_raw(0), &from, &to) {
            Err(_) if try_cast => Ok(Value::Null),
            other => other,
        }
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::java_parse_double;

    #[test]
    fn doubles_parse_as_java_reads_them() {
        // Trino 476: CAST('inf' AS double) and CAST('infinity' AS double) fail;
        // '+NaN', ' Infinity ' and '1.5d' are read (Double.parseDouble).
        assert_eq!(java_parse_double("inf"), None);
        assert_eq!(java_parse_double("infinity"), None);
        assert_eq!(java_parse_double("nan"), None);
        assert!(java_parse_double("+NaN").is_some_and(f64::is_nan));
        assert_eq!(java_parse_double(" Infinity "), Some(f64::INFINITY));
        assert_eq!(java_parse_double("-Infinity"), Some(f64::NEG_INFINITY));
        assert_eq!(java_parse_double("1.5d"), Some(1.5));
        assert_eq!(java_parse_double("1e999"), Some(f64::INFINITY));
    }
}

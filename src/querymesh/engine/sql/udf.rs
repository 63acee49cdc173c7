//! Trino functions and operators SQLite lacks or computes differently, registered on every
//! connection as `qm_*` SQLite functions. Failures carry Trino's error name across SQLite in
//! the message (`QM!NAME!text`) and [`decode_error`] turns them back into a [`TrinoError`].

use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error};

use super::calendar;
use crate::querymesh::engine::error::{ErrorName, TrinoError};

pub mod json;
pub mod json_path;

#[derive(Debug)]
struct FnError(ErrorName, String);

impl std::fmt::Display for FnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "QM!{}!{}", self.0.name_and_code().0, self.1)
    }
}

impl std::error::Error for FnError {}

pub(super) fn fail(name: ErrorName, text: impl Into<String>) -> Error {
    Error::UserFunctionError(Box::new(FnError(name, text.into())))
}

/// Asks the query's memory budget for a value of `bytes` before building it (memory.rs): a
/// function never allocates a value its query may not hold. Twice: the value built here and
/// SQLite's copy of it are held at once.
pub(super) fn reserve(bytes: usize) -> rusqlite::Result<()> {
    crate::querymesh::engine::memory::reserve((bytes as u64).saturating_mul(2)).map_err(|e| {
        let e = e.error();
        fail(e.name, e.text)
    })
}

/// The bytes of `s` padded to `target` code points with `pad` (StringFunctions.pad), when it
/// grows: what the padded value takes, counted before it is built.
fn padded_bytes(s: &str, chars: usize, target: usize, pad: &str) -> usize {
    let pad_chars = pad.chars().count().max(1);
    let fill = target.saturating_sub(chars);
    let partial: usize = pad.chars().take(fill % pad_chars).map(char::len_utf8).sum();
    (fill / pad_chars)
        .saturating_mul(pad.len())
        .saturating_add(partial)
        .saturating_add(s.len())
}

/// The Trino error a failed SQLite step carried, if it came from a `qm_*` function.
pub fn decode_error(message: &str) -> Option<TrinoError> {
    let rest = message.split_once("QM!")?.1;
    let (name, text) = rest.split_once('!')?;
    Some(TrinoError::new(ErrorName::from_name(name)?, text))
}

fn num(v: ValueRef<'_>) -> Option<f64> {
    match v {
        ValueRef::Integer(i) => Some(i as f64),
        ValueRef::Real(r) => Some(r),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

fn int(v: ValueRef<'_>) -> Option<i64> {
    match v {
        ValueRef::Integer(i) => Some(i),
        ValueRef::Real(r) => Some(r as i64),
        _ => None,
    }
}

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        _ => None,
    }
}

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

/// Java's `Double.toString`, which Trino uses to cast a double to varchar.
pub fn java_double(x: f64) -> String {
    super::java_number::double_to_string(x)
}

fn round_half_away(x: f64) -> f64 {
    x.round()
}

/// CAST(value AS target) with Trino's rules; `from` is the analysed source kind.
fn cast(value: ValueRef<'_>, from: &str, to: &str) -> rusqlite::Result<Value> {
    let invalid = |shown: String, target: &str| {
        fail(
            ErrorName::InvalidCastArgument,
            format!("Cannot cast '{shown}' to {}", target.to_uppercase()),
        )
    };
    // DateOperators / VarcharToTimestampCast: "Value cannot be cast to date: 2005-06-bad".
    let not_a = |kind: &str, shown: &str| {
        fail(
            ErrorName::InvalidCastArgument,
            format!("Value cannot be cast to {kind}: {shown}"),
        )
    };
    if matches!(value, ValueRef::Null) {
        return Ok(Value::Null);
    }
    // Trino's messages print a double as Java does (`Out of range for integer: 1.0E10`).
    let shown = match (from, value) {
        ("double", ValueRef::Real(x)) => java_double(x),
        _ => text(value).unwrap_or_default(),
    };
    let (to_kind, to_arg) = to.split_once(':').unwrap_or((to, ""));
    match to_kind {
        "bigint" | "integer" | "smallint" | "tinyint" => {
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
            // DoubleOperators: "Cannot cast double NaN to bigint".
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
        "double" | "real" => {
            let x = match (from, value) {
                ("varchar", _) => match shown.trim() {
                    "NaN" => return Ok(real(f64::NAN)),
                    "Infinity" => f64::INFINITY,
                    "-Infinity" => f64::NEG_INFINITY,
                    t => t.parse::<f64>().map_err(|_| invalid(shown, to_kind))?,
                },
                (_, v) => num(v).unwrap_or(0.0),
            };
            // A real holds only a float's precision: CAST(0.1 AS real) is 0.100000001490116…
            Ok(Value::Real(if to_kind == "real" {
                f64::from(x as f32)
            } else {
                x
            }))
        }
        "decimal" => {
            let (scale, precision) = decimal_kind(to_arg);
            let n = match from {
                "varchar" => shown
                    .trim()
                    .parse::<f64>()
                    .map_err(|_| invalid(shown.clone(), "decimal"))?,
                _ => num(value).unwrap_or(0.0),
            };
            // Half up, as DecimalCasts rescales (the nudge undoes the double's error).
            let factor = 10f64.powi(scale);
            let rounded = round_half_up(n * factor) / factor;
            if !rounded.is_finite() || rounded.abs() >= 10f64.powi(precision - scale) {
                let source = match from.split_once(':') {
                    Some((_, arg)) => {
                        let (s, p) = decimal_kind(arg);
                        format!("DECIMAL({p}, {s})")
                    }
                    None => from.to_uppercase(),
                };
                return Err(fail(
                    ErrorName::NumericValueOutOfRange,
                    format!("Cannot cast {source} '{shown}' to DECIMAL({precision}, {scale})"),
                ));
            }
            Ok(Value::Real(rounded))
        }
        "boolean" => match from {
            // VarcharOperators.castToBoolean: exactly these spellings, untrimmed.
            "varchar" => match shown.to_ascii_lowercase().as_str() {
                "true" | "t" | "1" => Ok(Value::Integer(1)),
                "false" | "f" | "0" => Ok(Value::Integer(0)),
                _ => Err(invalid(shown, "boolean")),
            },
            _ => Ok(Value::Integer(i64::from(num(value).unwrap_or(0.0) != 0.0))),
        },
        "varchar" => {
            let text = varchar_text(value, from, shown);
            // Number, boolean and date casts to varchar(n) fail when the text is longer
            // ("Value 12 cannot be represented as varchar(1)", IntegerOperators and friends).
            match to_arg.parse::<usize>() {
                Ok(n) if text.chars().count() > n => Err(fail(
                    ErrorName::InvalidCastArgument,
                    format!("Value {text} cannot be represented as varchar({n})"),
                )),
                _ => Ok(Value::Text(text)),
            }
        }
        "date" => {
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
        "timestamp" => {
            let precision: u8 = to_arg.parse().unwrap_or(3);
            let t = shown.trim();
            let (day, time) = t.split_once([' ', 'T']).unwrap_or((t, "00:00:00"));
            let d = calendar::parse_date(day).ok_or_else(|| not_a("timestamp", &shown))?;
            Ok(Value::Text(
                normalize_timestamp(d, time, precision)
                    .ok_or_else(|| not_a("timestamp", &shown))?,
            ))
        }
        _ => Err(fail(
            ErrorName::NotSupported,
            format!("Cannot cast to {to_kind}"),
        )),
    }
}

/// MathFunctions.round(double, decimals): Java's `Math.round` of |x|·10^d (which saturates at
/// Long.MAX_VALUE), divided back, the sign restored; NaN and infinities unchanged.
fn round_double(x: f64, decimals: i64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let factor = 10f64.powi(decimals.clamp(-400, 400) as i32);
    // For v ≥ 0, Math.round (ties toward +∞) is Rust's round (ties away from zero).
    let rounded = |v: f64| v.round().min(i64::MAX as f64);
    if x < 0.0 {
        -(rounded(-x * factor) / factor)
    } else {
        rounded(x * factor) / factor
    }
}

/// MathFunctions.roundLong: for d < 0, the nearest multiple of 10^-d, half away from zero;
/// outside `ty`'s range the result is NUMERIC_VALUE_OUT_OF_RANGE.
fn round_integer(n: i64, decimals: i64, ty: &str) -> rusqlite::Result<i64> {
    if decimals >= 0 {
        return Ok(n);
    }
    let overflow = || {
        fail(
            ErrorName::NumericValueOutOfRange,
            format!("numerical overflow: {n}"),
        )
    };
    let factor = u32::try_from(-decimals)
        .ok()
        .and_then(|e| 10i64.checked_pow(e))
        .ok_or_else(overflow)?;
    let (q, r) = (n / factor, n % factor);
    let q = if r.unsigned_abs() * 2 >= factor.unsigned_abs() {
        q + n.signum()
    } else {
        q
    };
    let rounded = q.checked_mul(factor).ok_or_else(overflow)?;
    let (lo, hi) = match ty {
        "integer" => (i64::from(i32::MIN), i64::from(i32::MAX)),
        "smallint" => (i64::from(i16::MIN), i64::from(i16::MAX)),
        "tinyint" => (i64::from(i8::MIN), i64::from(i8::MAX)),
        _ => (i64::MIN, i64::MAX),
    };
    if rounded < lo || rounded > hi {
        return Err(fail(
            ErrorName::NumericValueOutOfRange,
            format!("Out of range for {ty}: {rounded}"),
        ));
    }
    Ok(rounded)
}

/// `scale:precision` of a decimal cast kind.
fn decimal_kind(arg: &str) -> (i32, i32) {
    let mut parts = arg.split(':').map(|p| p.parse::<i32>().unwrap_or(0));
    let scale = parts.next().unwrap_or(0).clamp(0, 38);
    let precision = parts.next().unwrap_or(38).clamp(1, 38);
    (scale, precision)
}

/// Rounds half away from zero a value that stands for an exact decimal: the double nearest
/// 100.5 may be 100.4999…, so it is nudged a few ulps away from zero first.
pub(super) fn round_half_up(x: f64) -> f64 {
    (x * (1.0 + 4.0 * f64::EPSILON)).round()
}

/// A value as Trino's cast to varchar writes it; `from` is its analysed kind.
fn varchar_text(value: ValueRef<'_>, from: &str, shown: String) -> String {
    match from {
        "double" => java_double(num(value).unwrap_or(0.0)),
        // Trino casts a real to varchar as Java's Float.toString.
        "real" => super::java_number::float_to_string(num(value).unwrap_or(0.0) as f32),
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
        k if k.starts_with("decimal") => {
            let scale = k.split_once(':').map_or(0, |(_, arg)| decimal_kind(arg).0);
            super::encode::decimal_text(num(value).unwrap_or(0.0), scale as u8)
        }
        _ => shown,
    }
}

/// Digits a stored timestamp(p) carries after the point: at least milliseconds, so that the
/// stored text of two timestamps of one precision compares as their times do.
pub fn stored_digits(precision: u8) -> usize {
    usize::from(precision.clamp(3, 12))
}

/// `YYYY-MM-DD HH:MM:SS.f…`, the stored form of a timestamp(p): the seconds' fraction rounded
/// half up to p digits (Trino's cast to a lower precision rounds), written with
/// [`stored_digits`] digits.
pub fn normalize_timestamp(day: i64, time: &str, precision: u8) -> Option<String> {
    let mut parts = time.trim().split(':');
    let h: u64 = parts.next()?.parse().ok()?;
    let m: u64 = parts.next().unwrap_or("0").parse().ok()?;
    let seconds = parts.next().unwrap_or("0");
    let (whole, frac) = seconds.split_once('.').unwrap_or((seconds, ""));
    let s: u64 = whole.parse().ok()?;
    let digits_ok = frac.len() <= 12 && frac.chars().all(|c| c.is_ascii_digit());
    if parts.next().is_some() || h > 23 || m > 59 || s > 59 || !digits_ok {
        return None;
    }
    let p = u32::from(precision.min(12));
    let picos: u64 = format!("{frac:0<12}").parse().ok()?;
    let unit = 10u64.pow(12 - p);
    let scale = 10u64.pow(p);
    let mut units = (h * 3600 + m * 60 + s) * scale + (picos + unit / 2) / unit;
    let mut day = day;
    if units >= 86_400 * scale {
        units -= 86_400 * scale;
        day = calendar::add_days(day, 1)?;
    }
    let (secs, fraction) = (units / scale, units % scale);
    let mut fraction = if p == 0 {
        String::new()
    } else {
        format!("{fraction:0width$}", width = p as usize)
    };
    while fraction.len() < stored_digits(precision) {
        fraction.push('0');
    }
    Some(format!(
        "{} {:02}:{:02}:{:02}.{fraction}",
        calendar::format_date(day),
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    ))
}

/// A stored timestamp as Trino writes a timestamp(p): exactly p fraction digits.
pub fn timestamp_text(stored: &str, precision: u8) -> String {
    let (base, frac) = stored.split_once('.').unwrap_or((stored, ""));
    if precision == 0 {
        return base.to_string();
    }
    let mut frac: String = frac.chars().take(usize::from(precision)).collect();
    while frac.len() < usize::from(precision) {
        frac.push('0');
    }
    format!("{base}.{frac}")
}

fn unit_error(unit: &str) -> Error {
    fail(
        ErrorName::InvalidFunctionArgument,
        format!("'{unit}' is not a valid DATE field"),
    )
}

pub(super) const FLAGS: FunctionFlags =
    FunctionFlags::SQLITE_UTF8.union(FunctionFlags::SQLITE_DETERMINISTIC);

/// A double result. SQLite stores NaN as NULL, so NaN travels as the text `NaN`, which the
/// encoder prints as Trino does.
pub fn real(x: f64) -> Value {
    if x.is_nan() {
        Value::Text("NaN".into())
    } else {
        Value::Real(x)
    }
}

fn unary_math(conn: &Connection, name: &str, f: fn(f64) -> f64) -> rusqlite::Result<()> {
    conn.create_scalar_function(name, 1, FLAGS, move |ctx| {
        Ok(num(ctx.get_raw(0)).map_or(Value::Null, |x| real(f(x))))
    })
}

/// Registers every `qm_*` function on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    super::strings::register(conn)?;
    super::date_functions::register(conn)?;
    json::register(conn)?;
    let division_by_zero = || fail(ErrorName::DivisionByZero, "Division by zero");
    conn.create_scalar_function("qm_idiv", 2, FLAGS, move |ctx| {
        let (Some(a), Some(b)) = (int(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if b == 0 {
            return Err(division_by_zero());
        }
        a.checked_div(b).map(Some).ok_or_else(|| {
            fail(
                ErrorName::NumericValueOutOfRange,
                "bigint division overflow",
            )
        })
    })?;
    conn.create_scalar_function("qm_int", 3, FLAGS, |ctx| {
        let (lo, hi) = match ctx.get::<String>(1)?.as_str() {
            "integer" => (i64::from(i32::MIN), i64::from(i32::MAX)),
            "smallint" => (i64::from(i16::MIN), i64::from(i16::MAX)),
            "tinyint" => (i64::from(i8::MIN), i64::from(i8::MAX)),
            _ => (i64::MIN, i64::MAX),
        };
        match ctx.get_raw(0) {
            ValueRef::Integer(i) if (lo..=hi).contains(&i) => Ok(Some(i)),
            ValueRef::Null => Ok(None),
            // A whole REAL inside the range is an integer a source stored as REAL; SQLite's
            // answer to a 64-bit overflow is a REAL of 2^63 or more, outside every range.
            ValueRef::Real(x)
                if x.fract() == 0.0 && x.abs() < 9.2e18 && (lo..=hi).contains(&(x as i64)) =>
            {
                Ok(Some(x as i64))
            }
            _ => Err(fail(
                ErrorName::NumericValueOutOfRange,
                format!(
                    "{} {} overflow",
                    ctx.get::<String>(1)?,
                    ctx.get::<String>(2)?
                ),
            )),
        }
    })?;
    conn.create_scalar_function("qm_at_least", 3, FLAGS, |ctx| match ctx.get_raw(0) {
        ValueRef::Integer(n) if n < ctx.get::<i64>(1)? => Err(fail(
            ErrorName::InvalidFunctionArgument,
            ctx.get::<String>(2)?,
        )),
        ValueRef::Integer(n) => Ok(Some(n)),
        _ => Ok(None),
    })?;
    conn.create_scalar_function("qm_imod", 2, FLAGS, move |ctx| {
        let (Some(a), Some(b)) = (int(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if b == 0 {
            return Err(division_by_zero());
        }
        Ok(Some(a.wrapping_rem(b)))
    })?;
    conn.create_scalar_function("qm_ddiv", 3, FLAGS, move |ctx| {
        let (Some(a), Some(b)) = (num(ctx.get_raw(0)), num(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if b == 0.0 {
            return Err(division_by_zero());
        }
        let factor = 10f64.powi(int(ctx.get_raw(2)).unwrap_or(0).clamp(0, 38) as i32);
        Ok(Some(round_half_up(a / b * factor) / factor))
    })?;
    conn.create_scalar_function("qm_dmod", 2, FLAGS, move |ctx| {
        let (Some(a), Some(b)) = (num(ctx.get_raw(0)), num(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if b == 0.0 {
            return Err(division_by_zero());
        }
        Ok(Some(a % b))
    })?;
    conn.create_scalar_function(
        "qm_fail",
        2,
        FLAGS,
        |ctx| -> rusqlite::Result<Option<i64>> {
            let name: String = ctx.get(0)?;
            let text: String = ctx.get(1)?;
            Err(fail(
                ErrorName::from_name(&name).unwrap_or(ErrorName::GenericUserError),
                text,
            ))
        },
    )?;
    conn.create_scalar_function("qm_fdiv", 2, FLAGS, |ctx| {
        Ok(match (num(ctx.get_raw(0)), num(ctx.get_raw(1))) {
            (Some(a), Some(b)) => real(a / b),
            _ => Value::Null,
        })
    })?;
    conn.create_scalar_function("qm_fmod", 2, FLAGS, |ctx| {
        Ok(match (num(ctx.get_raw(0)), num(ctx.get_raw(1))) {
            (Some(a), Some(b)) => real(a % b),
            _ => Value::Null,
        })
    })?;
    conn.create_scalar_function("qm_cast", 4, FLAGS, |ctx| {
        let from: String = ctx.get(1)?;
        let to: String = ctx.get(2)?;
        let try_cast: bool = ctx.get(3)?;
        match cast(ctx.get_raw(0), &from, &to) {
            Err(_) if try_cast => Ok(Value::Null),
            other => other,
        }
    })?;
    conn.create_scalar_function("qm_date_part", 2, FLAGS, |ctx| {
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
    conn.create_scalar_function("qm_add_months", 2, FLAGS, |ctx| {
        let n = int(ctx.get_raw(1));
        match (n, date_arg(ctx, 0)?) {
            (Some(n), Some(d)) => calendar::add_months(d, n)
                .map(|r| Some(calendar::format_date(r)))
                .ok_or_else(|| fail(ErrorName::NumericValueOutOfRange, "Date is out of range")),
            _ => Ok(None),
        }
    })?;
    // A decimal is held as the nearest double (1.005 as 1.00499…); nudging by a few ulps
    // away from zero rounds it half-up as Trino's exact decimal does.
    conn.create_scalar_function("qm_round_decimal", 2, FLAGS, |ctx| {
        Ok(match (num(ctx.get_raw(0)), int(ctx.get_raw(1))) {
            (Some(x), Some(d)) => {
                let factor = 10f64.powi(d.clamp(-38, 38) as i32);
                Some((x * factor * (1.0 + 4.0 * f64::EPSILON)).round() / factor)
            }
            _ => None,
        })
    })?;
    conn.create_scalar_function("qm_round_double", 2, FLAGS, |ctx| {
        Ok(match (num(ctx.get_raw(0)), int(ctx.get_raw(1))) {
            (Some(x), Some(d)) => real(round_double(x, d)),
            _ => Value::Null,
        })
    })?;
    conn.create_scalar_function("qm_round_integer", 3, FLAGS, |ctx| {
        let ty: String = ctx.get(2)?;
        match (int(ctx.get_raw(0)), int(ctx.get_raw(1))) {
            (Some(n), Some(d)) => round_integer(n, d, &ty).map(Some),
            _ => Ok(None),
        }
    })?;
    unary_math(conn, "qm_floor", f64::floor)?;
    unary_math(conn, "qm_ceil", f64::ceil)?;
    unary_math(conn, "qm_sqrt", f64::sqrt)?;
    unary_math(conn, "qm_ln", f64::ln)?;
    unary_math(conn, "qm_log10", f64::log10)?;
    unary_math(conn, "qm_exp", f64::exp)?;
    unary_math(conn, "qm_truncate", f64::trunc)?;
    conn.create_scalar_function("qm_power", 2, FLAGS, |ctx| {
        Ok(match (num(ctx.get_raw(0)), num(ctx.get_raw(1))) {
            (Some(a), Some(b)) => real(a.powf(b)),
            _ => Value::Null,
        })
    })?;
    conn.create_scalar_function("qm_reverse", 1, FLAGS, |ctx| {
        let Some(s) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        reserve(s.len())?;
        Ok(Some(s.chars().rev().collect::<String>()))
    })?;
    conn.create_scalar_function("qm_starts_with", 2, FLAGS, |ctx| {
        Ok(match (text(ctx.get_raw(0)), text(ctx.get_raw(1))) {
            (Some(a), Some(b)) => Some(a.starts_with(&b)),
            _ => None,
        })
    })?;
    conn.create_scalar_function("qm_split_part", 3, FLAGS, |ctx| {
        let (Some(s), Some(sep), Some(i)) = (
            text(ctx.get_raw(0)),
            text(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
        ) else {
            return Ok(None);
        };
        if i < 1 {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                "Index must be greater than zero",
            ));
        }
        Ok(s.split(sep.as_str())
            .nth(i as usize - 1)
            .map(str::to_string))
    })?;
    for (name, left) in [("qm_lpad", true), ("qm_rpad", false)] {
        conn.create_scalar_function(name, 3, FLAGS, move |ctx| {
            let (Some(s), Some(n), Some(pad)) = (
                text(ctx.get_raw(0)),
                int(ctx.get_raw(1)),
                text(ctx.get_raw(2)),
            ) else {
                return Ok(None);
            };
            let n = usize::try_from(n).map_err(|_| {
                fail(
                    ErrorName::InvalidFunctionArgument,
                    "Target length must be in the range [0..2147483647]",
                )
            })?;
            if n > i32::MAX as usize {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "Target length must be in the range [0..2147483647]",
                ));
            }
            let chars = s.chars().count();
            if chars >= n {
                return Ok(Some(s.chars().take(n).collect::<String>()));
            }
            if pad.is_empty() {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "Padding string must not be empty",
                ));
            }
            let bytes = padded_bytes(&s, chars, n, &pad);
            reserve(bytes)?;
            let fill = n - chars;
            let pad_chars = pad.chars().count();
            let mut out = pad.repeat(fill / pad_chars);
            out.reserve_exact(bytes - out.len());
            out.extend(pad.chars().take(fill % pad_chars));
            if left {
                out.push_str(&s);
            } else {
                out.insert_str(0, &s);
            }
            Ok(Some(out))
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_is_measured_before_it_is_built() {
        for (s, target, pad) in [("x", 5, "ab"), ("é", 4, "çd"), ("", 3, "€"), ("ab", 2, "z")] {
            let chars = s.chars().count();
            let built: String = s
                .chars()
                .chain(pad.chars().cycle().take(target - chars))
                .collect();
            assert_eq!(
                padded_bytes(s, chars, target, pad),
                built.len(),
                "{s} {pad}"
            );
        }
        // A billion code points is counted, never built.
        assert_eq!(padded_bytes("x", 1, 1_000_000_000, "y"), 1_000_000_000);
    }

    #[test]
    fn java_double_printing() {
        assert_eq!(java_double(17.0), "17.0");
        assert_eq!(java_double(532348211.65), "5.3234821165E8");
        assert_eq!(java_double(1e7), "1.0E7");
        assert_eq!(java_double(0.0001), "1.0E-4");
    }
}

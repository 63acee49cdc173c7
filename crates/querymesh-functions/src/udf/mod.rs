//! Trino functions and operators SQLite lacks or computes differently, registered on every
//! connection as `qm_*` SQLite functions. Failures carry Trino's error name across SQLite in
//! the message (`QM!NAME!text`) and [`decode_error`] turns them back into a [`TrinoError`].
//!
//! This file holds what every family shares (errors, the memory check, argument reading, the
//! double result) and [`register`]; each family registers its own functions:
//! - `define`: registration, and the twin of each function that `try()` calls;
//! - `aggregate_state`: registration of aggregates, their state charged to the query's memory
//!   budget as it grows;
//! - `numbers`: integer arithmetic, rounding, math functions, Java's double text;
//! - `math`: trigonometry, logarithms, base conversion, random numbers, bitwise functions;
//! - `decimals`: exact decimal arithmetic, casts, rounding and sum/avg (sql/decimal.rs);
//! - `cast`: `qm_cast`, CAST and TRY_CAST by target kind;
//! - `dates`: date parts, month arithmetic and the stored form of a timestamp;
//! - `text`: reverse, starts_with, split_part, lpad/rpad;
//! - `binary`: varbinary functions, hashes, hex and base64, `uuid()`;
//! - `json` (and `json_path`, the SQL/JSON path language): the json type and functions.

use querymesh_values::error::{ErrorName, TrinoError};
use rusqlite::functions::FunctionFlags;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error};

mod aggregate_state;
mod aggregates;
mod arrays;
mod binary;
mod buckets;
mod cast;
mod checksum;
mod complex_values;
pub mod date_functions;
mod dates;
mod decimals;
mod define;
mod formats;
mod java_format;
pub mod json;
pub mod json_path;
mod maps;
mod math;
mod numbers;
pub mod regexp;
mod rows;
mod string_metrics;
pub mod strings;
mod text;
mod urls;
pub mod zones;

pub use aggregate_state::{define_aggregate, define_window};
pub use binary::uuid_from_varchar;
pub use checksum::Kind as ChecksumKind;
pub use complex_values::sqlite_value;
pub use dates::{normalize_timestamp, timestamp_text};
pub use define::{define, in_try, register_twins};
pub use numbers::java_double;
pub use querymesh_values::calendar::stored_digits;

#[derive(Debug)]
struct FnError(ErrorName, String);

impl std::fmt::Display for FnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The message crosses SQLite as a C string, which ends at a NUL: rusqlite would drop a
        // message holding one (an argument quoted back) for a bare SQLITE_CONSTRAINT.
        let text = self.1.replace('\0', "\u{FFFD}");
        write!(f, "QM!{}!{text}", self.0.name_and_code().0)
    }
}

impl std::error::Error for FnError {}

pub fn fail(name: ErrorName, text: impl Into<String>) -> Error {
    Error::UserFunctionError(Box::new(FnError(name, text.into())))
}

/// Asks the query's memory budget for a value of `bytes` before building it (memory.rs): a
/// function never allocates a value its query may not hold. Twice: the value built here and
/// SQLite's copy of it are held at once.
pub(super) fn reserve(bytes: usize) -> rusqlite::Result<()> {
    querymesh_values::memory::reserve((bytes as u64).saturating_mul(2)).map_err(|e| {
        let e = e.error();
        fail(e.name, e.text)
    })
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

/// Registers every `qm_*` function on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    strings::register(conn)?;
    date_functions::register(conn)?;
    complex_values::register(conn)?;
    regexp::register(conn)?;
    define(
        conn,
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
    aggregates::register(conn)?;
    java_format::register(conn)?;
    checksum::register(conn)?;
    decimals::register(conn)?;
    // qm_fail(error name, message, row value): a Trino error the plan raises where a row
    // reaches it; the row value (ignored) keeps SQLite from evaluating it once up front as a
    // constant.
    define(
        conn,
        "qm_fail",
        3,
        FLAGS,
        |ctx| -> rusqlite::Result<Option<i64>> {
            let name = ctx.get::<String>(0)?;
            let message = ctx.get::<String>(1)?;
            Err(fail(
                ErrorName::from_name(&name).unwrap_or(ErrorName::GenericUserError),
                message,
            ))
        },
    )?;
    maps::register(conn)?;
    rows::register(conn)?;
    binary::register(conn)?;
    arrays::register(conn)?;
    numbers::register(conn)?;
    math::register(conn)?;
    buckets::register(conn)?;
    string_metrics::register(conn)?;
    urls::register(conn)?;
    cast::register(conn)?;
    dates::register(conn)?;
    text::register(conn)?;
    zones::register(conn)?;
    formats::register(conn)?;
    json::register(conn)
}

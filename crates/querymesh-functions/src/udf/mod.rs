//! What every family's `qm_*` SQLite functions share, and the functions of no one family
//! (operators, casts, decimals). Failures carry Trino's error name across SQLite in the
//! message (`QM!NAME!text`) and [`decode_error`] turns them back into a [`TrinoError`].
//!
//! This file holds the shared helpers (errors, the memory check, argument reading, the double
//! result) and `qm_fail`; beside it:
//! - `define`: registration, and the twin of each function that `try()` calls;
//! - `aggregate_state`: registration of aggregates, their state charged to the query's memory
//!   budget as it grows;
//! - `double_ops`: double arithmetic and comparison that keep NaN;
//! - `numbers`: integer arithmetic, rounding, the one-argument math functions, Java's double
//!   text;
//! - `decimals`: exact decimal arithmetic, casts, rounding and sum/avg
//!   (querymesh-values/src/decimal.rs);
//! - `cast`: `qm_cast`, CAST and TRY_CAST by target kind;
//! - `rows`: comparison of rows and maps; `complex_values`: subscripts and equality of arrays,
//!   maps and rows.
//!
//! Each family's own SQLite functions are in its folder (`string/sqlite`, `datetime/sqlite`,
//! `json/sqlite`, …); `crate::sqlite::register` registers them all.

use querymesh_values::error::{ErrorName, TrinoError};
use rusqlite::functions::FunctionFlags;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error};

pub(crate) mod aggregate_state;
pub(crate) mod cast;
pub(crate) mod complex_values;
pub(crate) mod decimals;
pub(crate) mod define;
pub mod double_ops;
pub(crate) mod numbers;
pub(crate) mod replayed;
pub(crate) mod rows;

pub use aggregate_state::{define_aggregate, define_window};
pub use cast::QM_CAST;
pub use complex_values::sqlite_value;
pub use complex_values::{QM_ARRAY_PATH, QM_COMPLEX_EQ, QM_MAP_PATH};
pub use define::{define, has_twin, in_try, register_twins};
pub use numbers::java_double;
pub use numbers::{QM_FDIV, QM_FMOD, QM_IDIV, QM_IMOD, QM_INT, QM_INT_NEG, QM_INT_OP};
pub use querymesh_values::calendar::{normalize_timestamp, stored_digits, timestamp_text};
pub use replayed::{Args, RowAggregate, WINDOW_FORM_SUFFIX, define_replayable};
pub use rows::QM_COMPARE;

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_FAIL: SqliteFn = SqliteFn::new("qm_fail");

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
pub(crate) fn reserve(bytes: usize) -> rusqlite::Result<()> {
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

pub(crate) fn num(v: ValueRef<'_>) -> Option<f64> {
    match v {
        ValueRef::Integer(i) => Some(i as f64),
        ValueRef::Real(r) => Some(r),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

pub(crate) fn int(v: ValueRef<'_>) -> Option<i64> {
    match v {
        ValueRef::Integer(i) => Some(i),
        ValueRef::Real(r) => Some(r as i64),
        _ => None,
    }
}

pub(crate) fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        _ => None,
    }
}

pub(crate) const FLAGS: FunctionFlags =
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

/// `qm_fail(error name, message)` and `qm_fail(error name, message, row value)`: a Trino
/// error the plan raises; with a row value (ignored), where a row reaches it, which keeps
/// SQLite from evaluating it once up front as a constant.
pub(crate) fn register_failures(conn: &Connection) -> rusqlite::Result<()> {
    define(
        conn,
        QM_FAIL.name(),
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
    // qm_fail(error name, message, row value): a Trino error the plan raises where a row
    // reaches it; the row value (ignored) keeps SQLite from evaluating it once up front as a
    // constant.
    define(
        conn,
        QM_FAIL.name(),
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
    Ok(())
}

//! The sketches' `qm_*` SQLite functions: the aggregates (each with a window form that replays
//! its frame, udf/replayed.rs; their state charged to the query's memory budget) and the
//! scalars reading a sketch's bytes. Bytes that are not a sketch fail as they do in Trino,
//! with GENERIC_INTERNAL_ERROR (airlift throws an unchecked exception).

mod hyperloglog;
mod most_frequent;
mod numeric_histogram;
mod qdigest;
mod tdigest;

pub use hyperloglog::{QM_APPROX_SET, QM_HLL_CARDINALITY, QM_HLL_DENSE, QM_MERGE_HLL};
pub use most_frequent::QM_APPROX_MOST_FREQUENT;
pub use numeric_histogram::{QM_NUMERIC_HISTOGRAM, QM_NUMERIC_HISTOGRAM_WEIGHTED};
pub use qdigest::{
    QM_MERGE_QDIGEST, QM_QDIGEST_AGG, QM_QDIGEST_AGG_WEIGHTED, QM_QDIGEST_QUANTILE_AT_VALUE,
    QM_QDIGEST_SORTABLE, QM_QDIGEST_VALUE_AT_QUANTILE, QM_QDIGEST_VALUES_AT_QUANTILES,
};
pub use tdigest::{
    QM_MERGE_TDIGEST, QM_TDIGEST_AGG, QM_TDIGEST_AGG_WEIGHTED, QM_TDIGEST_VALUE_AT_QUANTILE,
    QM_TDIGEST_VALUES_AT_QUANTILES,
};

use querymesh_values::error::ErrorName;
use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};

use super::bytes::Unreadable;
use crate::udf::fail;

fn refused(e: Unreadable) -> rusqlite::Error {
    fail(ErrorName::GenericInternalError, e.0)
}

/// A sketch's bytes at argument `i` of a row; `None` for NULL.
fn bytes_of(v: ValueRef<'_>) -> Option<&[u8]> {
    match v {
        ValueRef::Blob(b) | ValueRef::Text(b) => Some(b),
        _ => None,
    }
}

/// A double argument (SQLite may hold an integral double as an INTEGER).
fn double_of(v: ValueRef<'_>) -> Option<f64> {
    match v {
        ValueRef::Real(x) => Some(x),
        ValueRef::Integer(i) => Some(i as f64),
        ValueRef::Text(t) if t == b"NaN" => Some(f64::NAN),
        _ => None,
    }
}

/// The doubles of an `array(double)` argument's JSON (NaN and ±Infinity are texts; a NULL
/// element reads as 0, as Trino's block reads one).
fn doubles_of(ctx: &Context<'_>, i: usize) -> Result<Option<Vec<f64>>> {
    let Some(text) = bytes_of(ctx.get_raw(i)) else {
        return Ok(None);
    };
    let parsed: Vec<serde_json::Value> = serde_json::from_slice(text).map_err(|e| {
        fail(
            ErrorName::GenericInternalError,
            format!("not an array: {e}"),
        )
    })?;
    Ok(Some(
        parsed
            .iter()
            .map(|v| match v {
                serde_json::Value::Number(n) => n.as_f64().unwrap_or(0.0),
                serde_json::Value::String(s) if s == "NaN" => f64::NAN,
                serde_json::Value::String(s) if s == "Infinity" => f64::INFINITY,
                serde_json::Value::String(s) if s == "-Infinity" => f64::NEG_INFINITY,
                _ => 0.0,
            })
            .collect(),
    ))
}

/// A JSON array of doubles as the stand-in holds `array(double)` (udf::real's texts for NaN
/// and the infinities).
fn double_array(values: &[f64]) -> String {
    let items: Vec<String> = values
        .iter()
        .map(|x| match x {
            x if x.is_nan() => "\"NaN\"".to_string(),
            x if *x == f64::INFINITY => "\"Infinity\"".to_string(),
            x if *x == f64::NEG_INFINITY => "\"-Infinity\"".to_string(),
            x => serde_json::Value::from(*x).to_string(),
        })
        .collect();
    format!("[{}]", items.join(","))
}

pub fn register(conn: &Connection) -> Result<()> {
    hyperloglog::register(conn)?;
    most_frequent::register(conn)?;
    numeric_histogram::register(conn)?;
    qdigest::register(conn)?;
    tdigest::register(conn)
}

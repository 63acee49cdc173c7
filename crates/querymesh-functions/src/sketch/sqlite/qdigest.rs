//! The qdigest functions: `qm_qdigest_sortable` (a value as the long its digest holds), the
//! `qm_qdigest_agg`, `qm_qdigest_agg_weighted` and `qm_merge_qdigest` aggregates, and the
//! quantile scalars.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::{bytes_of, double_array, double_of, doubles_of, refused};
use crate::sketch::qdigest::{
    QuantileDigest, double_to_sortable, real_to_sortable, sortable_to_double, sortable_to_real,
};
use crate::udf::{
    Args, FLAGS, RowAggregate, define, define_replayable, fail, java_double, real, reserve,
};

/// QuantileDigestFunctions.DEFAULT_ACCURACY and DEFAULT_WEIGHT.
const DEFAULT_ACCURACY: f64 = 0.01;
const DEFAULT_WEIGHT: i64 = 1;

const DOUBLE_KIND: i64 = 1;
const REAL_KIND: i64 = 2;

fn read(bytes: &[u8]) -> Result<QuantileDigest> {
    QuantileDigest::read(bytes).map_err(refused)
}

/// An aggregate's digest as Trino answers it: written by the partial aggregation, read back
/// and written again by the final one. The trip is not neutral — a leaf's level is written
/// less one and read as written (QuantileDigest's serializer) — so it is made here too.
fn answered(digest: &mut QuantileDigest) -> Result<Vec<u8>> {
    Ok(read(&digest.write())?.write())
}

/// The long a digest of `kind` holds for a value; `None` for NULL.
fn sortable(v: ValueRef<'_>, kind: i64) -> Option<i64> {
    match kind {
        DOUBLE_KIND => double_of(v).map(double_to_sortable),
        REAL_KIND => double_of(v).map(|x| real_to_sortable(x as f32)),
        _ => match v {
            ValueRef::Integer(i) => Some(i),
            _ => None,
        },
    }
}

/// The SQLite value of a digest's long as a value of `kind`.
fn value_of(long: i64, kind: i64) -> Value {
    match kind {
        DOUBLE_KIND => real(sortable_to_double(long)),
        REAL_KIND => real(f64::from(sortable_to_real(long))),
        _ => Value::Integer(long),
    }
}

fn invalid(text: String) -> rusqlite::Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

/// qdigest_agg over the digest's longs: `(v)` or `(v, weight, accuracy)`; rows with a NULL
/// are skipped, no row gives NULL (QuantileDigestAggregationFunction).
#[derive(Clone)]
struct QdigestAgg {
    /// `(v, weight, accuracy)`: a row with a NULL among them is skipped.
    weighted: bool,
}

impl RowAggregate for QdigestAgg {
    type State = Option<QuantileDigest>;
    type Output = Option<Vec<u8>>;

    fn init(&self, _: &dyn Args) -> Result<Option<QuantileDigest>> {
        Ok(None)
    }

    fn step(&self, row: &dyn Args, state: &mut Option<QuantileDigest>) -> Result<()> {
        let ValueRef::Integer(value) = row.raw(0) else {
            return Ok(());
        };
        let (weight, accuracy) = if self.weighted {
            let (ValueRef::Integer(weight), Some(accuracy)) = (row.raw(1), double_of(row.raw(2)))
            else {
                return Ok(());
            };
            (weight, accuracy)
        } else {
            (DEFAULT_WEIGHT, DEFAULT_ACCURACY)
        };
        if !(accuracy > 0.0 && accuracy < 1.0) {
            return Err(invalid(format!(
                "Percentile accuracy must be exclusively between 0 and 1, was {}",
                java_double(accuracy)
            )));
        }
        if weight <= 0 {
            return Err(invalid(format!(
                "Percentile weight must be > 0, was {weight}"
            )));
        }
        state
            .get_or_insert_with(|| QuantileDigest::new(accuracy))
            .add(value, weight as f64);
        Ok(())
    }

    fn answer(&self, state: Option<&mut Option<QuantileDigest>>) -> Result<Option<Vec<u8>>> {
        state.and_then(|s| s.as_mut()).map(answered).transpose()
    }
}

/// merge(qdigest): the first digest, with each later one merged in (MergeQuantileDigestFunction).
#[derive(Clone)]
struct MergeQdigest;

impl RowAggregate for MergeQdigest {
    type State = Option<QuantileDigest>;
    type Output = Option<Vec<u8>>;

    fn init(&self, _: &dyn Args) -> Result<Option<QuantileDigest>> {
        Ok(None)
    }

    fn step(&self, row: &dyn Args, state: &mut Option<QuantileDigest>) -> Result<()> {
        let Some(bytes) = bytes_of(row.raw(0)) else {
            return Ok(());
        };
        let digest = read(bytes)?;
        match state {
            None => *state = Some(digest),
            Some(merged) => merged.merge(&digest),
        }
        Ok(())
    }

    fn answer(&self, state: Option<&mut Option<QuantileDigest>>) -> Result<Option<Vec<u8>>> {
        state.and_then(|s| s.as_mut()).map(answered).transpose()
    }
}

pub const QM_QDIGEST_SORTABLE: SqliteFn = SqliteFn::new("qm_qdigest_sortable");
pub const QM_QDIGEST_AGG: SqliteFn = SqliteFn::new("qm_qdigest_agg");
pub const QM_QDIGEST_AGG_WEIGHTED: SqliteFn = SqliteFn::new("qm_qdigest_agg_weighted");
pub const QM_MERGE_QDIGEST: SqliteFn = SqliteFn::new("qm_merge_qdigest");
pub const QM_QDIGEST_VALUE_AT_QUANTILE: SqliteFn = SqliteFn::new("qm_qdigest_value_at_quantile");
pub const QM_QDIGEST_VALUES_AT_QUANTILES: SqliteFn =
    SqliteFn::new("qm_qdigest_values_at_quantiles");
pub const QM_QDIGEST_QUANTILE_AT_VALUE: SqliteFn = SqliteFn::new("qm_qdigest_quantile_at_value");

pub(super) fn register(conn: &Connection) -> Result<()> {
    define(conn, QM_QDIGEST_SORTABLE.name(), 2, FLAGS, |ctx| {
        let kind: i64 = ctx.get(1)?;
        Ok(sortable(ctx.get_raw(0), kind))
    })?;
    define_replayable(
        conn,
        QM_QDIGEST_AGG.name(),
        1,
        FLAGS,
        QdigestAgg { weighted: false },
    )?;
    let weighted = QdigestAgg { weighted: true };
    define_replayable(conn, QM_QDIGEST_AGG_WEIGHTED.name(), 3, FLAGS, weighted)?;
    define_replayable(conn, QM_MERGE_QDIGEST.name(), 1, FLAGS, MergeQdigest)?;
    define(conn, QM_QDIGEST_VALUE_AT_QUANTILE.name(), 3, FLAGS, |ctx| {
        let (Some(bytes), Some(q)) = (bytes_of(ctx.get_raw(0)), double_of(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        let kind: i64 = ctx.get(2)?;
        let long = read(bytes)?.quantile(q).map_err(refused)?;
        Ok(value_of(long, kind))
    })?;
    define(
        conn,
        QM_QDIGEST_VALUES_AT_QUANTILES.name(),
        3,
        FLAGS,
        |ctx| {
            let (Some(bytes), Some(qs)) = (bytes_of(ctx.get_raw(0)), doubles_of(ctx, 1)?) else {
                return Ok(None);
            };
            let kind: i64 = ctx.get(2)?;
            let digest = read(bytes)?;
            let longs = qs
                .iter()
                .map(|q| digest.quantile(*q).map_err(refused))
                .collect::<Result<Vec<_>>>()?;
            let json = if kind == DOUBLE_KIND || kind == REAL_KIND {
                let values: Vec<f64> = longs
                    .iter()
                    .map(|l| match kind {
                        DOUBLE_KIND => sortable_to_double(*l),
                        _ => f64::from(sortable_to_real(*l)),
                    })
                    .collect();
                double_array(&values)
            } else {
                serde_json::Value::from(longs).to_string()
            };
            reserve(json.len())?;
            Ok(Some(json))
        },
    )?;
    define(conn, QM_QDIGEST_QUANTILE_AT_VALUE.name(), 3, FLAGS, |ctx| {
        let kind: i64 = ctx.get(2)?;
        let (Some(bytes), Some(value)) = (bytes_of(ctx.get_raw(0)), sortable(ctx.get_raw(1), kind))
        else {
            return Ok(None);
        };
        Ok(read(bytes)?.quantile_at(value))
    })
}

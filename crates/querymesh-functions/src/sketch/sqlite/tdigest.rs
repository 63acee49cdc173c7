//! The tdigest functions: the `qm_tdigest_agg`, `qm_tdigest_agg_weighted` and
//! `qm_merge_tdigest` aggregates and the quantile scalars.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::types::Value;
use rusqlite::{Connection, Result};

use super::{bytes_of, double_array, double_of, doubles_of, refused};
use crate::sketch::tdigest::TDigest;
use crate::udf::{
    Args, FLAGS, RowAggregate, define, define_replayable, fail, java_double, real, reserve,
};

fn read(bytes: &[u8]) -> Result<TDigest> {
    TDigest::read(bytes).map_err(refused)
}

/// An aggregate's digest as Trino answers it: written (merged) by the partial aggregation,
/// read back and written (merged again, from the low end) by the final one.
fn answered(digest: &TDigest) -> Result<Vec<u8>> {
    Ok(read(&digest.clone().write())?.write())
}

/// tdigest_agg: `(x)` or `(x, weight)`; rows with a NULL are skipped, no row gives NULL
/// (TDigestAggregationFunction: a weight below 1 is refused).
#[derive(Clone)]
struct TdigestAgg {
    /// `(x, weight)`: a row whose weight is NULL is skipped.
    weighted: bool,
}

impl RowAggregate for TdigestAgg {
    type State = Option<TDigest>;
    type Output = Option<Vec<u8>>;

    fn init(&self, _: &dyn Args) -> Result<Option<TDigest>> {
        Ok(None)
    }

    fn step(&self, row: &dyn Args, state: &mut Option<TDigest>) -> Result<()> {
        let Some(value) = double_of(row.raw(0)) else {
            return Ok(());
        };
        let weight = if self.weighted {
            match double_of(row.raw(1)) {
                Some(w) => w,
                None => return Ok(()),
            }
        } else {
            1.0
        };
        // NaN fails it too.
        if weight.is_nan() || weight < 1.0 {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                format!("weight must be >= 1, was {}", java_double(weight)),
            ));
        }
        state
            .get_or_insert_with(TDigest::new)
            .add(value, weight)
            .map_err(refused)
    }

    fn answer(&self, state: Option<&mut Option<TDigest>>) -> Result<Option<Vec<u8>>> {
        state.and_then(|s| s.as_ref()).map(answered).transpose()
    }
}

/// merge(tdigest): the digests merged (MergeTDigestAggregation).
#[derive(Clone)]
struct MergeTdigest;

impl RowAggregate for MergeTdigest {
    type State = Option<TDigest>;
    type Output = Option<Vec<u8>>;

    fn init(&self, _: &dyn Args) -> Result<Option<TDigest>> {
        Ok(None)
    }

    fn step(&self, row: &dyn Args, state: &mut Option<TDigest>) -> Result<()> {
        let Some(bytes) = bytes_of(row.raw(0)) else {
            return Ok(());
        };
        let mut digest = read(bytes)?;
        match state {
            None => *state = Some(digest),
            Some(merged) => merged.merge_with(&mut digest),
        }
        Ok(())
    }

    fn answer(&self, state: Option<&mut Option<TDigest>>) -> Result<Option<Vec<u8>>> {
        state.and_then(|s| s.as_ref()).map(answered).transpose()
    }
}

pub const QM_TDIGEST_AGG: SqliteFn = SqliteFn::new("qm_tdigest_agg");
pub const QM_TDIGEST_AGG_WEIGHTED: SqliteFn = SqliteFn::new("qm_tdigest_agg_weighted");
pub const QM_MERGE_TDIGEST: SqliteFn = SqliteFn::new("qm_merge_tdigest");
pub const QM_TDIGEST_VALUE_AT_QUANTILE: SqliteFn = SqliteFn::new("qm_tdigest_value_at_quantile");
pub const QM_TDIGEST_VALUES_AT_QUANTILES: SqliteFn =
    SqliteFn::new("qm_tdigest_values_at_quantiles");

pub(super) fn register(conn: &Connection) -> Result<()> {
    define_replayable(
        conn,
        QM_TDIGEST_AGG.name(),
        1,
        FLAGS,
        TdigestAgg { weighted: false },
    )?;
    let weighted = TdigestAgg { weighted: true };
    define_replayable(conn, QM_TDIGEST_AGG_WEIGHTED.name(), 2, FLAGS, weighted)?;
    define_replayable(conn, QM_MERGE_TDIGEST.name(), 1, FLAGS, MergeTdigest)?;
    define(conn, QM_TDIGEST_VALUE_AT_QUANTILE.name(), 2, FLAGS, |ctx| {
        let (Some(bytes), Some(q)) = (bytes_of(ctx.get_raw(0)), double_of(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        let values = read(bytes)?.values_at(&[q]).map_err(refused)?;
        Ok(real(values.first().copied().unwrap_or(f64::NAN)))
    })?;
    define(
        conn,
        QM_TDIGEST_VALUES_AT_QUANTILES.name(),
        2,
        FLAGS,
        |ctx| {
            let (Some(bytes), Some(qs)) = (bytes_of(ctx.get_raw(0)), doubles_of(ctx, 1)?) else {
                return Ok(None);
            };
            if qs.windows(2).any(|w| w[1] < w[0]) {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "percentiles must be sorted in increasing order",
                ));
            }
            let values = read(bytes)?.values_at(&qs).map_err(refused)?;
            let json = double_array(&values);
            reserve(json.len())?;
            Ok(Some(json))
        },
    )
}

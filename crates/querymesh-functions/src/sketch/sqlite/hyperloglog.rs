//! `qm_approx_set`, `qm_merge_hll`, `qm_hll_cardinality` and `qm_hll_dense` (the cast to
//! P4HyperLogLog).

use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};

use super::{bytes_of, refused};
use crate::sketch::hll::Hll;
use crate::sketch::murmur3::{hash_bytes, hash_long};
use crate::udf::{Args, FLAGS, RowAggregate, define, define_replayable};

/// approx_set's HyperLogLog: 4096 buckets (ApproximateSetAggregation's default standard
/// error, 1.625 %).
const APPROX_SET_INDEX_BITS: u8 = 12;

fn read(bytes: &[u8]) -> Result<Hll> {
    Hll::read(bytes).map_err(refused)
}

/// Java's `Double.doubleToLongBits`: every NaN is the one canonical NaN.
fn double_bits(x: f64) -> i64 {
    if x.is_nan() {
        0x7ff8_0000_0000_0000
    } else {
        x.to_bits() as i64
    }
}

/// qm_approx_set(x, how): how 0 hashes x as a long, 1 as a double's bits, 2 as its bytes
/// (hyperloglog.rs). NULLs are skipped; no value at all gives NULL.
#[derive(Clone)]
struct ApproxSet;

impl RowAggregate for ApproxSet {
    type State = Option<Hll>;
    type Output = Option<Vec<u8>>;

    fn init(&self, _: &dyn Args) -> Result<Option<Hll>> {
        Ok(None)
    }

    fn step(&self, row: &dyn Args, state: &mut Option<Hll>) -> Result<()> {
        let hash = match (row.raw(0), row.raw(1)) {
            (ValueRef::Null, _) => return Ok(()),
            (ValueRef::Integer(i), ValueRef::Integer(1)) => hash_long(double_bits(i as f64)),
            (ValueRef::Real(x), _) => hash_long(double_bits(x)),
            (ValueRef::Integer(i), _) => hash_long(i),
            (ValueRef::Text(b) | ValueRef::Blob(b), _) => hash_bytes(b),
        };
        state
            .get_or_insert_with(|| Hll::new(APPROX_SET_INDEX_BITS))
            .add_hash(hash);
        Ok(())
    }

    fn answer(&self, state: Option<&mut Option<Hll>>) -> Result<Option<Vec<u8>>> {
        Ok(state.and_then(|s| s.as_ref().map(Hll::write)))
    }
}

/// qm_merge_hll(h): the union of the non-NULL HyperLogLogs, NULL when there are none
/// (MergeHyperLogLogAggregation).
#[derive(Clone)]
struct MergeHll;

impl RowAggregate for MergeHll {
    type State = Option<Hll>;
    type Output = Option<Vec<u8>>;

    fn init(&self, _: &dyn Args) -> Result<Option<Hll>> {
        Ok(None)
    }

    fn step(&self, row: &dyn Args, state: &mut Option<Hll>) -> Result<()> {
        let Some(bytes) = bytes_of(row.raw(0)) else {
            return Ok(());
        };
        let hll = read(bytes)?;
        match state {
            None => *state = Some(hll),
            Some(union) => union.merge(&hll).map_err(refused)?,
        }
        Ok(())
    }

    fn answer(&self, state: Option<&mut Option<Hll>>) -> Result<Option<Vec<u8>>> {
        Ok(state.and_then(|s| s.as_ref().map(Hll::write)))
    }
}

pub const QM_APPROX_SET: SqliteFn = SqliteFn::new("qm_approx_set");
pub const QM_MERGE_HLL: SqliteFn = SqliteFn::new("qm_merge_hll");
pub const QM_HLL_CARDINALITY: SqliteFn = SqliteFn::new("qm_hll_cardinality");
pub const QM_HLL_DENSE: SqliteFn = SqliteFn::new("qm_hll_dense");

pub(super) fn register(conn: &Connection) -> Result<()> {
    define_replayable(conn, QM_APPROX_SET.name(), 2, FLAGS, ApproxSet)?;
    define_replayable(conn, QM_MERGE_HLL.name(), 1, FLAGS, MergeHll)?;
    define(conn, QM_HLL_CARDINALITY.name(), 1, FLAGS, |ctx| {
        bytes_of(ctx.get_raw(0))
            .map(|b| read(b).map(|h| h.cardinality()))
            .transpose()
    })?;
    define(conn, QM_HLL_DENSE.name(), 1, FLAGS, |ctx| {
        bytes_of(ctx.get_raw(0))
            .map(|b| read(b).map(|h| h.made_dense().write()))
            .transpose()
    })
}

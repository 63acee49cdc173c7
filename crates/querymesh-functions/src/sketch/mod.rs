//! Sketches: Trino's approximate summaries of many values, each a type held as its serialized
//! bytes (a BLOB shown as varbinary), so a cast to varbinary and back keeps Trino's bytes.
//!
//! # Layout
//! - `hll.rs`, `hll_bias.rs`: airlift's HyperLogLog (sparse and dense), shared with the set
//!   digest (setdigest/); `murmur3.rs` the hash both key values by; `bytes.rs` reading
//!   serialized sketches.
//! - `hyperloglog.rs`: the `HyperLogLog` / `P4HyperLogLog` functions (docs
//!   functions/hyperloglog): `approx_set`, `empty_approx_set`, `merge`, `cardinality`.
//! - `qdigest.rs`: airlift's QuantileDigest; `tdigest.rs`: airlift's TDigest.
//! - `quantiles.rs`: the `qdigest(T)` and `tdigest` functions (docs functions/qdigest,
//!   functions/tdigest): `qdigest_agg`, `tdigest_agg`, `merge`, `value_at_quantile`,
//!   `values_at_quantiles`, `quantile_at_value`.
//! - `numeric_histogram.rs`: Trino's NumericHistogram; `most_frequent.rs` stream-lib's
//!   StreamSummary; `approximate.rs` the `numeric_histogram` and `approx_most_frequent`
//!   aggregates (docs functions/aggregate).
//! - `sqlite/`: their `qm_*` SQLite functions.

pub mod approximate;
pub mod bytes;
pub mod hll;
mod hll_bias;
pub mod hyperloglog;
pub mod most_frequent;
pub mod murmur3;
pub mod numeric_histogram;
pub mod qdigest;
pub mod quantiles;
pub mod sqlite;
pub mod tdigest;

use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

/// CAST to or from a sketch type: `Some(Some(sql))` a cast Trino has, `Some(None)` one it
/// refuses ("Cannot cast …"), `None` when neither side is one of these sketches.
/// HyperLogLog ↔ varbinary and qdigest(T) / tdigest ↔ varbinary keep the bytes (they are only
/// read, and refused, when a function uses them; HyperLogLogOperators, QuantileDigestOperators,
/// TDigestOperators); HyperLogLog → P4HyperLogLog makes it dense, P4HyperLogLog → HyperLogLog
/// keeps it. Trino has no cast between P4HyperLogLog and varbinary, nor between qdigests of
/// different types.
pub fn cast_sql(t: &Typed, target: &TrinoType) -> Option<Option<SqlExpr>> {
    use TrinoType::*;
    let ours = |ty: &TrinoType| matches!(ty, HyperLogLog | P4HyperLogLog | QDigest(_) | TDigest);
    if !ours(&t.ty) && !ours(target) {
        return None;
    }
    let same = || Some(Some(t.sql.clone()));
    match (&t.ty, target) {
        (from, to) if from == to => same(),
        (Unknown, _) => same(),
        (HyperLogLog, Varbinary) | (Varbinary, HyperLogLog) | (P4HyperLogLog, HyperLogLog) => {
            same()
        }
        (HyperLogLog, P4HyperLogLog) => Some(Some(sqlite::QM_HLL_DENSE.call([t.sql.clone()]))),
        (QDigest(v), Varbinary) | (Varbinary, QDigest(v)) if quantiles::is_qdigest_value(v) => {
            same()
        }
        (TDigest, Varbinary) | (Varbinary, TDigest) => same(),
        _ => Some(None),
    }
}

//! The HyperLogLog functions (Trino docs functions/hyperloglog; ApproximateSetAggregation,
//! MergeHyperLogLogAggregation, HyperLogLogFunctions): `approx_set(x)` builds a HyperLogLog
//! of 4096 buckets (airlift's, its bytes Trino's), `merge` unions them, `cardinality`
//! estimates the distinct values, `empty_approx_set()` is the empty one. A P4HyperLogLog (a
//! cast of one) is the same kept dense; functions taking a HyperLogLog take it too (the
//! coercion is in querymesh-values' coerce.rs).

use querymesh_values::sqlite_expr::builtin::RTRIM;
use querymesh_values::sqlite_expr::{Affinity, SqlExpr};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::sqlite::{QM_APPROX_SET, QM_HLL_CARDINALITY, QM_MERGE_HLL};
use crate::Call;
use crate::aggregate::lowered;
use crate::context::LowerContext;
use crate::entry::{AggregateCall, FunctionDef, Lower, Typing, aggregate, scalar};

type Lowered = crate::entry::AggregateLowered;

/// `cardinality(HyperLogLog)`, beside the array, map and setdigest ones (array/mod.rs).
pub const CARDINALITY_SIGNATURE: (&str, &str) = ("hyperloglog", "bigint");

/// How `qm_approx_set` hashes its value: as a long, as a double's bits, or as bytes.
const HASH_LONG: i64 = 0;
const HASH_DOUBLE: i64 = 1;
const HASH_BYTES: i64 = 2;

pub const FUNCTIONS: &[FunctionDef] = &[
    aggregate(
        "approx_set",
        &[
            ("bigint", "hyperloglog"),
            ("double", "hyperloglog"),
            ("varchar(x)", "hyperloglog"),
        ],
        approx_set,
        // Trino 476 lists no description; the registry's entries each have one.
        "Returns a HyperLogLog of the values",
    ),
    scalar(
        "empty_approx_set",
        &[("", "hyperloglog")],
        Typing::Resolved,
        // HyperLogLog.newInstance(4096).serialize(): sparse, 12 index bits, no entries.
        Lower::Scalar(|_, c| {
            Ok(Some(Typed::new(
                SqlExpr::Blob(vec![0x02, 0x0C, 0x00, 0x00]),
                c.returns(),
            )))
        }),
        "An empty HyperLogLog instance",
    ),
];

/// `cardinality(h)` of a HyperLogLog (or P4HyperLogLog); `None` for the other types
/// `cardinality` takes.
pub fn cardinality(c: &Call) -> Option<Typed> {
    let [h] = c.args.as_slice() else { return None };
    matches!(h.ty, TrinoType::HyperLogLog | TrinoType::P4HyperLogLog)
        .then(|| Typed::new(QM_HLL_CARDINALITY.call([h.sql.clone()]), TrinoType::BigInt))
}

/// approx_set(x): a bigint (and the integers, coerced) hashed as a long, a double (and a
/// real or decimal, coerced) as its bits, a varchar as its UTF-8 bytes.
fn approx_set(ctx: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x] = call.args else { return Ok(None) };
    let (value, how) = match &x.ty {
        t if t.is_integral() => (x.sql.clone(), HASH_LONG),
        TrinoType::Unknown => (SqlExpr::Null, HASH_LONG),
        TrinoType::Real | TrinoType::Double | TrinoType::Decimal { .. } => {
            let double = ctx.coerce_to(x.clone(), &TrinoType::Double, None)?;
            (SqlExpr::cast(double.sql, Affinity::Real), HASH_DOUBLE)
        }
        TrinoType::Varchar(_) => (x.sql.clone(), HASH_BYTES),
        // A char reaches varchar(x) as the varchar it casts to, without its padding.
        TrinoType::Char(_) => (RTRIM.call([x.sql.clone(), SqlExpr::text(" ")]), HASH_BYTES),
        _ => return Ok(None),
    };
    // DISTINCT changes no HyperLogLog (adding a value again leaves it as it was), and SQLite
    // takes DISTINCT only with one argument: it is left out.
    Ok(lowered(
        QM_APPROX_SET.call([value, SqlExpr::Integer(how)]),
        TrinoType::HyperLogLog,
    ))
}

/// merge(HyperLogLog): the union of the non-NULL HyperLogLogs (NULL when there are none;
/// DISTINCT changes no union).
pub fn merge(d: &Typed) -> Option<(SqlExpr, TrinoType)> {
    if !matches!(d.ty, TrinoType::HyperLogLog | TrinoType::P4HyperLogLog) {
        return None;
    }
    lowered(QM_MERGE_HLL.call([d.sql.clone()]), TrinoType::HyperLogLog)
}

//! Set digest functions (Trino docs functions/setdigest, SetDigestFunctions,
//! BuildSetDigestAggregation, MergeSetDigestAggregation): the `setdigest` type, the
//! `make_set_digest` and `merge_set_digest` aggregates, and `cardinality`,
//! `intersection_cardinality`, `jaccard_index` and `hash_counts` of digests.
//!
//! A digest is held in SQLite as Trino's serialized bytes (a BLOB; digest.rs), so a cast to
//! varbinary and back keeps them, and what the protocol shows is Trino's base64 of them.
//! The values are hashed as Trino hashes them (sketch/murmur3.rs), so `hash_counts` gives Trino's
//! keys; the digest's memory is capped as Trino's is (8192 hashes and a 2048-bucket
//! HyperLogLog).

pub mod digest;
pub mod sqlite;

use querymesh_values::decimal;
use querymesh_values::error::{ErrorName, TrinoError};
use querymesh_values::sqlite_expr::builtin::{JSON_ARRAY_LENGTH, JULIANDAY, RTRIM};
use querymesh_values::sqlite_expr::{Affinity, BinaryOp, SqlExpr};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use self::sqlite::{
    QM_MAKE_SET_DIGEST, QM_MERGE_SET_DIGEST, QM_SETDIGEST_CARDINALITY, QM_SETDIGEST_HASH_COUNTS,
    QM_SETDIGEST_INTERSECTION_CARDINALITY, QM_SETDIGEST_JACCARD_INDEX,
    QM_SETDIGEST_TIMESTAMP_MICROS,
};
use super::Call;
use super::aggregate::lowered;
use super::binary::sqlite::QM_UUID_TO_VARBINARY;
use super::context::LowerContext;
use super::entry::{AggregateCall, FunctionDef, LowerResult, Typing, aggregate, calls, scalar};

type Lowered = crate::entry::AggregateLowered;

/// `cardinality(setdigest)`, beside the array and map ones (array/mod.rs).
pub const CARDINALITY_SIGNATURE: (&str, &str) = ("setdigest", "bigint");

pub const FUNCTIONS: &[FunctionDef] = &[
    aggregate(
        "make_set_digest",
        &[("T", "setdigest")],
        make_set_digest,
        "Returns a set digest of the non-null values",
    ),
    aggregate(
        "merge_set_digest",
        &[("setdigest", "setdigest")],
        merge_set_digest,
        "Returns the union of the set digests",
    ),
    scalar(
        "intersection_cardinality",
        &[("setdigest, setdigest", "bigint")],
        Typing::Resolved,
        calls!(QM_SETDIGEST_INTERSECTION_CARDINALITY),
        "Returns the estimated cardinality of the intersection of two set digests",
    ),
    scalar(
        "jaccard_index",
        &[("setdigest, setdigest", "double")],
        Typing::Resolved,
        calls!(QM_SETDIGEST_JACCARD_INDEX),
        "Returns the estimated Jaccard index of two set digests",
    ),
    scalar(
        "hash_counts",
        &[("setdigest", "map(bigint,smallint)")],
        Typing::Resolved,
        calls!(QM_SETDIGEST_HASH_COUNTS),
        "Returns the hashes of the set digest's MinHash and how often each was added",
    ),
];

/// `cardinality(d)` of a set digest: exact below 8192 distinct values, else the
/// HyperLogLog's estimate. `None` for the other types `cardinality` takes.
pub fn cardinality(c: &Call) -> Option<Typed> {
    let [d] = c.args.as_slice() else { return None };
    (d.ty == TrinoType::SetDigest).then(|| {
        Typed::new(
            QM_SETDIGEST_CARDINALITY.call([d.sql.clone()]),
            TrinoType::BigInt,
        )
    })
}

/// `cardinality` dispatched by its argument's type (array and map: their JSON length).
pub fn cardinality_of_any(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if let Some(lowered) = cardinality(c) {
        return Ok(Some(lowered));
    }
    if let Some(lowered) = crate::sketch::hyperloglog::cardinality(c) {
        return Ok(Some(lowered));
    }
    let [x] = c.args.as_slice() else {
        return Ok(None);
    };
    Ok(Some(Typed::new(
        JSON_ARRAY_LENGTH.call([x.sql.clone()]),
        TrinoType::BigInt,
    )))
}

/// CAST between setdigest and varbinary: the same bytes either way (SetDigestOperators; the
/// bytes are only read, and refused, when a function uses them).
pub fn cast_sql(t: &Typed, target: &TrinoType) -> Option<SqlExpr> {
    match (&t.ty, target) {
        (TrinoType::SetDigest, TrinoType::Varbinary)
        | (TrinoType::Varbinary, TrinoType::SetDigest) => Some(t.sql.clone()),
        _ => None,
    }
}

/// make_set_digest(x): Trino takes any type it holds as a long or as bytes, and hashes that
/// (BuildSetDigestAggregation's two input functions). Here each such type is given to
/// `qm_make_set_digest` as an INTEGER (the long), a REAL (a real, hashed by its bits) or text
/// or a BLOB (the bytes).
fn make_set_digest(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x] = call.args else { return Ok(None) };
    let Some(value) = hashed_form(x) else {
        if held_as_long_by_trino(&x.ty) {
            return Err(TrinoError::new(
                ErrorName::NotSupported,
                format!(
                    "make_set_digest over {} is not supported by the stand-in",
                    x.ty.display_name()
                ),
            ));
        }
        // Trino binds T to any type, then finds no input function for a type it holds
        // neither as a long nor as bytes (double, boolean, arrays, a bare NULL, …).
        return Err(TrinoError::new(
            ErrorName::FunctionImplementationMissing,
            format!(
                "Unsupported type parameters (system.builtin.make_set_digest({}):SetDigest) for <T>(t):setdigest",
                x.ty.display_name()
            ),
        ));
    };
    Ok(lowered(
        SqlExpr::aggregate(QM_MAKE_SET_DIGEST, call.distinct, [value]),
        TrinoType::SetDigest,
    ))
}

/// The SQL of the long or bytes Trino hashes for a value of `x`'s type.
fn hashed_form(x: &Typed) -> Option<SqlExpr> {
    use TrinoType::*;
    let sql = x.sql.clone();
    Some(match &x.ty {
        t if t.is_integral() => sql,
        // The months and milliseconds Trino holds them as.
        IntervalYearToMonth | IntervalDayToSecond => sql,
        // A short decimal is its unscaled long (decimal.rs "Representation").
        Decimal { precision, .. } if decimal::is_short(*precision) => sql,
        Real => SqlExpr::cast(sql, Affinity::Real),
        // Days since 1970-01-01, as Trino holds a date.
        Date => {
            let days = SqlExpr::binary(
                JULIANDAY.call([sql]),
                BinaryOp::Subtract,
                SqlExpr::Real(2440587.5),
            );
            SqlExpr::cast(days, Affinity::Integer)
        }
        Varchar(_) | Json | Varbinary => sql,
        // Trino holds a char without its padding.
        Char(_) => RTRIM.call([sql, SqlExpr::text(" ")]),
        Uuid => QM_UUID_TO_VARBINARY.call([sql]),
        // Microseconds since the epoch, as Trino holds a short timestamp.
        Timestamp(p) if *p <= 6 => QM_SETDIGEST_TIMESTAMP_MICROS.call([sql]),
        _ => return None,
    })
}

/// The types Trino holds as a long that the stand-in does not hash yet.
fn held_as_long_by_trino(ty: &TrinoType) -> bool {
    use TrinoType::*;
    match ty {
        TimestampTz(p) => *p <= 3,
        TimeTz(p) => *p <= 9,
        Time(_) | Color => true,
        _ => false,
    }
}

fn merge_set_digest(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [d] = call.args else { return Ok(None) };
    if !matches!(d.ty, TrinoType::SetDigest | TrinoType::Unknown) {
        return Ok(None);
    }
    Ok(lowered(
        SqlExpr::aggregate(QM_MERGE_SET_DIGEST, call.distinct, [d.sql.clone()]),
        TrinoType::SetDigest,
    ))
}

//! The set digest functions as `qm_*` SQLite functions: the `qm_make_set_digest` and
//! `qm_merge_set_digest` aggregates, also over a window (their digest charged to the query's
//! memory budget), and
//! the scalars reading a digest's bytes. Bytes that are not a digest fail as they do in
//! Trino, with GENERIC_INTERNAL_ERROR (SetDigest.newInstance throws an unchecked exception).

use querymesh_values::calendar;
use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::functions::{Aggregate, Context, WindowAggregate};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};

use super::digest::{self, SetDigest};
use crate::sketch::bytes::Unreadable;
use crate::udf::{FLAGS, define, define_window, fail, reserve};

fn refused(e: Unreadable) -> rusqlite::Error {
    fail(ErrorName::GenericInternalError, e.0)
}

/// The digest an argument holds; `None` for NULL.
fn digest_at(ctx: &Context<'_>, i: usize) -> Result<Option<SetDigest>> {
    match ctx.get_raw(i) {
        ValueRef::Null => Ok(None),
        ValueRef::Blob(b) | ValueRef::Text(b) => SetDigest::read(b).map(Some).map_err(refused),
        _ => Err(refused(Unreadable::new("Unexpected version"))),
    }
}

/// make_set_digest(x): NULLs are skipped; no value at all gives NULL (the state's serializer
/// writes NULL for a digest never made).
struct MakeSetDigest;

impl Aggregate<Option<SetDigest>, Option<Vec<u8>>> for MakeSetDigest {
    fn init(&self, _: &mut Context<'_>) -> Result<Option<SetDigest>> {
        Ok(None)
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Option<SetDigest>) -> Result<()> {
        let value = ctx.get_raw(0);
        if value == ValueRef::Null {
            return Ok(());
        }
        let digest = acc.get_or_insert_with(SetDigest::default);
        match value {
            ValueRef::Integer(i) => digest.add_long(i),
            // A real is held by Trino as its float bits, read back as a (sign-extended) long.
            ValueRef::Real(r) => digest.add_long(i64::from((r as f32).to_bits() as i32)),
            ValueRef::Text(b) | ValueRef::Blob(b) => digest.add_bytes(b),
            ValueRef::Null => {}
        }
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        acc: Option<Option<SetDigest>>,
    ) -> Result<Option<Vec<u8>>> {
        Ok(acc.flatten().map(|d| d.write()))
    }
}

/// merge_set_digest(d): the union of the non-NULL digests, NULL when there are none.
struct MergeSetDigest;

impl Aggregate<Option<SetDigest>, Option<Vec<u8>>> for MergeSetDigest {
    fn init(&self, _: &mut Context<'_>) -> Result<Option<SetDigest>> {
        Ok(None)
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Option<SetDigest>) -> Result<()> {
        let Some(digest) = digest_at(ctx, 0)? else {
            return Ok(());
        };
        match acc {
            None => *acc = Some(digest),
            Some(union) => union.merge(&digest).map_err(refused)?,
        }
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        acc: Option<Option<SetDigest>>,
    ) -> Result<Option<Vec<u8>>> {
        Ok(acc.flatten().map(|d| d.write()))
    }
}

/// Over a window: the digest of the frame so far. A digest cannot take a value back out, so a
/// frame whose start moves is refused rather than answered wrongly.
fn frame_digest(acc: Option<&mut Option<SetDigest>>) -> Result<Option<Vec<u8>>> {
    Ok(acc.and_then(|d| d.as_ref().map(SetDigest::write)))
}

fn sliding_frame_refused(name: &str) -> rusqlite::Error {
    fail(
        ErrorName::NotSupported,
        format!("{name} over a window frame whose start moves is not supported by the stand-in"),
    )
}

impl WindowAggregate<Option<SetDigest>, Option<Vec<u8>>> for MakeSetDigest {
    fn value(&self, acc: Option<&mut Option<SetDigest>>) -> Result<Option<Vec<u8>>> {
        frame_digest(acc)
    }

    fn inverse(&self, _: &mut Context<'_>, _: &mut Option<SetDigest>) -> Result<()> {
        Err(sliding_frame_refused("make_set_digest"))
    }
}

impl WindowAggregate<Option<SetDigest>, Option<Vec<u8>>> for MergeSetDigest {
    fn value(&self, acc: Option<&mut Option<SetDigest>>) -> Result<Option<Vec<u8>>> {
        frame_digest(acc)
    }

    fn inverse(&self, _: &mut Context<'_>, _: &mut Option<SetDigest>) -> Result<()> {
        Err(sliding_frame_refused("merge_set_digest"))
    }
}

/// A stored timestamp(p ≤ 6) (`YYYY-MM-DD HH:MM:SS.ffffff`) as microseconds since the epoch.
fn epoch_micros(text: &str) -> Option<i64> {
    let (day, time) = text.split_once(' ').unwrap_or((text, "00:00:00"));
    let days = calendar::parse_date(day)?;
    days.checked_mul(86_400_000_000)?
        .checked_add(calendar::parse_time_nanos(time)? / 1000)
}

/// hash_counts(d) as a map's JSON (`[[hash, count], …]`, in ascending order of hash, as
/// Trino builds it from its sorted MinHash).
fn hash_counts_json(d: &SetDigest) -> String {
    let pairs: Vec<String> = d
        .hash_counts()
        .map(|(hash, count)| format!("[{hash},{count}]"))
        .collect();
    format!("[{}]", pairs.join(","))
}

pub const QM_MAKE_SET_DIGEST: SqliteFn = SqliteFn::new("qm_make_set_digest");
pub const QM_MERGE_SET_DIGEST: SqliteFn = SqliteFn::new("qm_merge_set_digest");
pub const QM_SETDIGEST_CARDINALITY: SqliteFn = SqliteFn::new("qm_setdigest_cardinality");
pub const QM_SETDIGEST_TIMESTAMP_MICROS: SqliteFn = SqliteFn::new("qm_setdigest_timestamp_micros");
pub const QM_SETDIGEST_INTERSECTION_CARDINALITY: SqliteFn =
    SqliteFn::new("qm_setdigest_intersection_cardinality");
pub const QM_SETDIGEST_JACCARD_INDEX: SqliteFn = SqliteFn::new("qm_setdigest_jaccard_index");
pub const QM_SETDIGEST_HASH_COUNTS: SqliteFn = SqliteFn::new("qm_setdigest_hash_counts");

pub fn register(conn: &Connection) -> Result<()> {
    define_window(conn, QM_MAKE_SET_DIGEST.name(), 1, FLAGS, MakeSetDigest)?;
    define_window(conn, QM_MERGE_SET_DIGEST.name(), 1, FLAGS, MergeSetDigest)?;
    define(conn, QM_SETDIGEST_CARDINALITY.name(), 1, FLAGS, |ctx| {
        Ok(digest_at(ctx, 0)?.map(|d| d.cardinality()))
    })?;
    define(
        conn,
        QM_SETDIGEST_INTERSECTION_CARDINALITY.name(),
        2,
        FLAGS,
        |ctx| {
            let (Some(a), Some(b)) = (digest_at(ctx, 0)?, digest_at(ctx, 1)?) else {
                return Ok(None);
            };
            digest::intersection_cardinality(&a, &b)
                .map(Some)
                .map_err(refused)
        },
    )?;
    define(conn, QM_SETDIGEST_JACCARD_INDEX.name(), 2, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (digest_at(ctx, 0)?, digest_at(ctx, 1)?) else {
            return Ok(None);
        };
        Ok(Some(digest::jaccard_index(&a, &b)))
    })?;
    define(
        conn,
        QM_SETDIGEST_TIMESTAMP_MICROS.name(),
        1,
        FLAGS,
        |ctx| {
            Ok(match ctx.get_raw(0) {
                ValueRef::Text(t) => epoch_micros(&String::from_utf8_lossy(t)),
                _ => None,
            })
        },
    )?;
    define(conn, QM_SETDIGEST_HASH_COUNTS.name(), 1, FLAGS, |ctx| {
        let Some(d) = digest_at(ctx, 0)? else {
            return Ok(None);
        };
        let json = hash_counts_json(&d);
        reserve(json.len())?;
        Ok(Some(json))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(conn: &Connection, sql: &str) -> rusqlite::Result<String> {
        conn.query_row(sql, [], |r| {
            r.get::<_, Option<String>>(0).map(|v| v.unwrap_or_default())
        })
    }

    fn connection() -> Connection {
        let conn = Connection::open_in_memory().expect("open");
        crate::sqlite::register(&conn).expect("register");
        conn
    }

    // docs functions/setdigest: the examples of make_set_digest, hash_counts and
    // intersection_cardinality, answered as Trino 476 answers them.
    #[test]
    fn answers_the_documented_examples() {
        let conn = connection();
        assert_eq!(
            query(
                &conn,
                "SELECT qm_setdigest_hash_counts(qm_make_set_digest(column1)) \
                 FROM (VALUES (7), (7), (7), (8), (8))"
            )
            .ok(),
            Some("[[3522142095546486706,3],[4145513480871534457,2]]".into())
        );
        assert_eq!(
            query(
                &conn,
                "SELECT CAST(qm_setdigest_cardinality(qm_make_set_digest(column1)) AS TEXT) \
                 FROM (VALUES ('Presto'), ('Trino'), ('Trino'), ('SQL'))"
            )
            .ok(),
            Some("3".into())
        );
        assert_eq!(
            query(
                &conn,
                "SELECT qm_make_set_digest(column1) FROM (VALUES (NULL)) WHERE 0"
            )
            .ok(),
            Some(String::new())
        );
    }

    #[test]
    fn refuses_bytes_that_are_not_a_digest() {
        let conn = connection();
        let e = query(&conn, "SELECT qm_setdigest_cardinality(X'00')").err();
        assert!(
            e.is_some_and(|e| e.to_string().contains("GENERIC_INTERNAL_ERROR")),
            "a digest of one zero byte"
        );
    }
}

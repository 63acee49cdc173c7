//! Trino's varbinary functions as `qm_*` SQLite functions over BLOBs (trinodb/trino's
//! VarbinaryFunctions, HmacFunctions, StringFunctions.fromUtf8/toUtf8): hashes, hex and
//! base64 with Java's decoders and their messages, byte-wise substr/reverse/pad, integer and
//! IEEE 754 encodings, and UTF-8 decoding that replaces invalid sequences as airlift's
//! SliceUtf8.fixInvalidUtf8 does. Also uuid: `uuid()` and the casts between uuid, varchar and
//! varbinary (UuidOperators), a uuid being its canonical lowercase text.
//!
//! This file registers every function and holds the argument helpers they share (and the
//! big-endian / IEEE 754 encodings, which are one line each); the rest is by concern:
//! - `hashes`: crc32, murmur3, SpookyHash V2, HMAC.
//! - `encodings`: hex, base64 and base64url, base32.
//! - `utf8`: `from_utf8`'s decoding and replacement.
//! - `bytewise`: `substr`, `lpad`, `rpad`.
//! - `uuids`: uuid parsing, text and casts.

mod bytewise;
mod encodings;
pub(crate) mod hashes;
mod utf8;
mod uuids;

use std::borrow::Cow;

use bytewise::{pad, substr};
use encodings::{from_base32, from_hex, java_base64_decode, to_base32, to_base64, to_hex};
use hashes::{crc32, hmac, murmur3, spooky};
use querymesh_values::error::ErrorName;
use rusqlite::functions::FunctionFlags;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error};
use sha2::Digest;
use utf8::{fix_utf8, replacement_char, replacement_code_point};

use crate::udf::{FLAGS, define, fail, reserve};
pub use uuids::uuid_from_varchar;
use uuids::{cast_result, uuid_text};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_VARCHAR_TO_UUID: SqliteFn = SqliteFn::new("qm_varchar_to_uuid");
pub const QM_VARBINARY_TO_UUID: SqliteFn = SqliteFn::new("qm_varbinary_to_uuid");
pub const QM_UUID_TO_VARBINARY: SqliteFn = SqliteFn::new("qm_uuid_to_varbinary");

/// The bytes of a varbinary argument: a BLOB, or the bytes of any other stored value.
fn bytes(v: ValueRef<'_>) -> Option<Cow<'_, [u8]>> {
    match v {
        ValueRef::Blob(b) | ValueRef::Text(b) => Some(Cow::Borrowed(b)),
        ValueRef::Integer(i) => Some(Cow::Owned(i.to_string().into_bytes())),
        ValueRef::Real(r) => Some(Cow::Owned(r.to_string().into_bytes())),
        ValueRef::Null => None,
    }
}

fn int(v: ValueRef<'_>) -> Option<i64> {
    match v {
        ValueRef::Integer(i) => Some(i),
        ValueRef::Real(r) => Some(r as i64),
        _ => None,
    }
}

/// A real or double argument; NaN travels as the text `NaN` (udf::real).
fn float(v: ValueRef<'_>) -> Option<f64> {
    match v {
        ValueRef::Integer(i) => Some(i as f64),
        ValueRef::Real(r) => Some(r),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

fn invalid(text: impl Into<String>) -> Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

fn exact_bytes<const N: usize>(
    b: &[u8],
    message: impl FnOnce() -> String,
) -> rusqlite::Result<[u8; N]> {
    <[u8; N]>::try_from(b).map_err(|_| invalid(message()))
}

/// A function of one varbinary argument; NULL gives NULL.
fn unary<T: rusqlite::types::ToSql + 'static>(
    conn: &Connection,
    name: &'static str,
    flags: FunctionFlags,
    f: fn(&[u8]) -> rusqlite::Result<T>,
) -> rusqlite::Result<()> {
    define(conn, name, 1, flags, move |ctx| {
        bytes(ctx.get_raw(0)).map(|b| f(&b)).transpose()
    })
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    unary(conn, "qm_md5", FLAGS, |b| Ok(md5::Md5::digest(b).to_vec()))?;
    unary(conn, "qm_sha1", FLAGS, |b| {
        Ok(sha1::Sha1::digest(b).to_vec())
    })?;
    unary(conn, "qm_sha256", FLAGS, |b| {
        Ok(sha2::Sha256::digest(b).to_vec())
    })?;
    unary(conn, "qm_sha512", FLAGS, |b| {
        Ok(sha2::Sha512::digest(b).to_vec())
    })?;
    // VarbinaryFunctions.xxhash64: the seed-0 hash, big-endian.
    unary(conn, "qm_xxhash64", FLAGS, |b| {
        Ok(xxhash_rust::xxh64::xxh64(b, 0).to_be_bytes().to_vec())
    })?;
    unary(conn, "qm_murmur3", FLAGS, |b| Ok(murmur3(b)))?;
    // VarbinaryFunctions.spookyHashV2_64 / _32: big-endian.
    unary(conn, "qm_spooky_hash_v2_64", FLAGS, |b| {
        Ok(spooky::hash64(b).to_be_bytes().to_vec())
    })?;
    unary(conn, "qm_spooky_hash_v2_32", FLAGS, |b| {
        Ok((spooky::hash64(b) as u32).to_be_bytes().to_vec())
    })?;
    unary(conn, "qm_crc32", FLAGS, |b| Ok(i64::from(crc32(b))))?;
    unary(conn, "qm_to_hex", FLAGS, to_hex)?;
    unary(conn, "qm_from_hex", FLAGS, from_hex)?;
    unary(conn, "qm_to_base64", FLAGS, |b| to_base64(b, false))?;
    unary(conn, "qm_to_base64url", FLAGS, |b| to_base64(b, true))?;
    unary(conn, "qm_from_base64", FLAGS, |b| {
        java_base64_decode(b, false).map_err(invalid)
    })?;
    unary(conn, "qm_to_base32", FLAGS, to_base32)?;
    unary(conn, "qm_from_base32", FLAGS, |b| {
        from_base32(b).map_err(invalid)
    })?;
    unary(conn, "qm_from_base64url", FLAGS, |b| {
        java_base64_decode(b, true).map_err(invalid)
    })?;
    unary(conn, "qm_varbinary_reverse", FLAGS, |b| {
        reserve(b.len())?;
        Ok(b.iter().rev().copied().collect::<Vec<u8>>())
    })?;
    unary(conn, "qm_from_utf8", FLAGS, |b| {
        fix_utf8(b, Some(char::REPLACEMENT_CHARACTER))
    })?;
    unary(conn, "qm_from_big_endian_64", FLAGS, |b| {
        let raw = exact_bytes::<8>(b, || {
            format!("expected 8-byte input, but got instead: {}", b.len())
        })?;
        Ok(i64::from_be_bytes(raw))
    })?;
    unary(conn, "qm_from_big_endian_32", FLAGS, |b| {
        let raw = exact_bytes::<4>(b, || {
            format!("expected 4-byte input, but got instead: {}", b.len())
        })?;
        Ok(i64::from(i32::from_be_bytes(raw)))
    })?;
    unary(conn, "qm_from_ieee754_32", FLAGS, |b| {
        let raw = exact_bytes::<4>(b, || {
            "Input floating-point value must be exactly 4 bytes long".into()
        })?;
        Ok(crate::udf::real(f64::from(f32::from_be_bytes(raw))))
    })?;
    unary(conn, "qm_from_ieee754_64", FLAGS, |b| {
        let raw = exact_bytes::<8>(b, || {
            "Input floating-point value must be exactly 8 bytes long".into()
        })?;
        Ok(crate::udf::real(f64::from_be_bytes(raw)))
    })?;
    define(conn, "qm_to_big_endian_64", 1, FLAGS, |ctx| {
        Ok(int(ctx.get_raw(0)).map(|i| i.to_be_bytes().to_vec()))
    })?;
    define(conn, "qm_to_big_endian_32", 1, FLAGS, |ctx| {
        Ok(int(ctx.get_raw(0)).map(|i| (i as i32).to_be_bytes().to_vec()))
    })?;
    define(conn, "qm_to_ieee754_32", 1, FLAGS, |ctx| {
        Ok(float(ctx.get_raw(0)).map(|x| (x as f32).to_bits().to_be_bytes().to_vec()))
    })?;
    define(conn, "qm_to_ieee754_64", 1, FLAGS, |ctx| {
        Ok(float(ctx.get_raw(0)).map(|x| x.to_bits().to_be_bytes().to_vec()))
    })?;
    for (name, f) in [
        (
            "qm_hmac_md5",
            hmac::<hmac::Hmac<md5::Md5>> as fn(&[u8], &[u8]) -> Vec<u8>,
        ),
        ("qm_hmac_sha1", hmac::<hmac::Hmac<sha1::Sha1>>),
        ("qm_hmac_sha256", hmac::<hmac::Hmac<sha2::Sha256>>),
        ("qm_hmac_sha512", hmac::<hmac::Hmac<sha2::Sha512>>),
    ] {
        define(conn, name, 2, FLAGS, move |ctx| {
            Ok(match (bytes(ctx.get_raw(0)), bytes(ctx.get_raw(1))) {
                (Some(data), Some(key)) => Some(f(&data, &key)),
                _ => None,
            })
        })?;
    }
    define(conn, "qm_from_utf8_char", 2, FLAGS, |ctx| {
        let (Some(b), Some(r)) = (bytes(ctx.get_raw(0)), bytes(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let replacement = replacement_char(&r)?;
        fix_utf8(&b, replacement).map(Some)
    })?;
    define(conn, "qm_from_utf8_code", 2, FLAGS, |ctx| {
        let (Some(b), Some(n)) = (bytes(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let replacement = replacement_code_point(n)?;
        fix_utf8(&b, Some(replacement)).map(Some)
    })?;
    // to_utf8(char(n)): the value padded to n code points (StringFunctions.toUtf8).
    define(conn, "qm_to_utf8_char", 2, FLAGS, |ctx| {
        let (Some(b), Some(n)) = (bytes(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&b);
        let missing = usize::try_from(n)
            .unwrap_or(0)
            .saturating_sub(text.chars().count());
        reserve(b.len().saturating_add(missing))?;
        let mut out = b.into_owned();
        out.resize(out.len() + missing, b' ');
        Ok(Some(out))
    })?;
    define(conn, "qm_varbinary_substr", -1, FLAGS, |ctx| {
        let n = ctx.len();
        let Some(b) = bytes(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let (Some(start), length) = (int(ctx.get_raw(1)), (n > 2).then(|| int(ctx.get_raw(2))))
        else {
            return Ok(None);
        };
        let part = match length {
            Some(None) => return Ok(None),
            Some(l) => substr(&b, start, l),
            None => substr(&b, start, None),
        };
        reserve(part.len())?;
        Ok(Some(part.to_vec()))
    })?;
    for (name, left) in [("qm_varbinary_lpad", true), ("qm_varbinary_rpad", false)] {
        define(conn, name, 3, FLAGS, move |ctx| {
            let (Some(b), Some(n), Some(p)) = (
                bytes(ctx.get_raw(0)),
                int(ctx.get_raw(1)),
                bytes(ctx.get_raw(2)),
            ) else {
                return Ok(None);
            };
            pad(&b, n, &p, left).map(Some)
        })?;
    }
    define(conn, QM_VARCHAR_TO_UUID.name(), 2, FLAGS, |ctx| {
        let Some(b) = bytes(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&b);
        cast_result(uuid_from_varchar(&text), ctx.get::<bool>(1)?)
    })?;
    // UuidOperators.castFromVarbinaryToUuid / castFromUuidToVarbinary: the 16 bytes in order.
    define(conn, QM_VARBINARY_TO_UUID.name(), 2, FLAGS, |ctx| {
        let Some(b) = bytes(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let parsed = <[u8; 16]>::try_from(b.as_ref())
            .map(|raw| uuid_text(u128::from_be_bytes(raw)))
            .map_err(|_| format!("Invalid UUID binary length: {}", b.len()));
        cast_result(parsed, ctx.get::<bool>(1)?)
    })?;
    define(conn, QM_UUID_TO_VARBINARY.name(), 1, FLAGS, |ctx| {
        let Some(b) = bytes(ctx.get_raw(0)) else {
            return Ok(None);
        };
        // A uuid value is always canonical text; anything else is not one.
        Ok(uuid::Uuid::try_parse_ascii(&b)
            .ok()
            .map(|u| u.as_bytes().to_vec()))
    })?;
    // uuid(): random, so not deterministic for SQLite either.
    define(
        conn,
        "qm_random_uuid",
        0,
        FunctionFlags::SQLITE_UTF8,
        |_| Ok(Value::Text(uuid::Uuid::new_v4().to_string())),
    )?;
    Ok(())
}

//! `checksum(x)` (Trino's ChecksumAggregationFunction): the sum, wrapping, of
//! `xxHash64(x) * PRIME64` over the rows (`PRIME64` for a NULL), as 8 little-endian bytes;
//! NULL only when there are no rows. Order-insensitive, so equal multisets match.
//!
//! Each value is hashed as Trino's type's `XX_HASH_64` operator hashes it: airlift's
//! `XxHash64.hash(long)` — XXH64 of the 8 little-endian bytes, seed 0 — of the long Trino holds
//! (integers, dates as days, short decimals unscaled, timestamps as epoch microseconds,
//! `floatToIntBits`/`doubleToLongBits` with -0 made 0), XXH64 of the bytes of strings and
//! varbinary, and `hash(high) ^ hash(low)` of a long decimal's 128 bits. One SQLite
//! aggregate per kind keeps a single argument, so `checksum(DISTINCT x)` works.

use querymesh_values::calendar;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};
use xxhash_rust::xxh64::xxh64;

use crate::udf::{Args, FLAGS, RowAggregate, define_replayable, num};

const PRIME64: u64 = 0x9E37_79B1_85EB_CA87;

/// The ways of reading a stored value, each its own SQLite aggregate `qm_checksum_<kind>`
/// (SQLite's function names ignore case, so these are words, not letters).
#[derive(Clone, Copy)]
pub enum Kind {
    /// Integers, booleans, intervals: the long Trino holds.
    Long,
    Real,
    Double,
    /// decimal(p ≤ 18) and decimal(p > 18), from their exact text.
    ShortDecimal,
    LongDecimal,
    /// varchar, json and varbinary: the bytes.
    Bytes,
    /// char(n): the bytes without trailing spaces, as Trino holds it.
    Char,
    Date,
    /// timestamp(p ≤ 6): epoch microseconds.
    Timestamp,
    /// A hash already computed as Trino's, such as an array's or a map's (complex_checksum.rs).
    Hashed,
}

impl Kind {
    const ALL: [Kind; 10] = [
        Kind::Long,
        Kind::Real,
        Kind::Double,
        Kind::ShortDecimal,
        Kind::LongDecimal,
        Kind::Bytes,
        Kind::Char,
        Kind::Date,
        Kind::Timestamp,
        Kind::Hashed,
    ];

    /// The aggregate of this kind, as lowerings call it and [`register`] registers it.
    pub const fn function(self) -> SqliteFn {
        SqliteFn::new(match self {
            Kind::Long => "qm_checksum_long",
            Kind::Real => "qm_checksum_real",
            Kind::Double => "qm_checksum_double",
            Kind::ShortDecimal => "qm_checksum_short_decimal",
            Kind::LongDecimal => "qm_checksum_long_decimal",
            Kind::Bytes => "qm_checksum_bytes",
            Kind::Char => "qm_checksum_char",
            Kind::Date => "qm_checksum_date",
            Kind::Timestamp => "qm_checksum_timestamp",
            Kind::Hashed => "qm_checksum_hashed",
        })
    }
}

fn long(v: i64) -> u64 {
    xxh64(&v.to_le_bytes(), 0)
}

fn text(v: ValueRef<'_>) -> Option<&[u8]> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(t),
        _ => None,
    }
}

/// The unscaled value of a decimal's text (`-12.30` → -1230).
fn unscaled(t: &[u8]) -> Option<i128> {
    let digits: String = std::str::from_utf8(t)
        .ok()?
        .chars()
        .filter(|c| *c != '.')
        .collect();
    digits.parse().ok()
}

/// The stored text of a timestamp(p ≤ 6) as epoch microseconds.
fn epoch_micros(t: &[u8]) -> Option<i64> {
    let t = std::str::from_utf8(t).ok()?;
    let (day, time) = t.split_once(' ').unwrap_or((t, "00:00:00"));
    let days = calendar::parse_date(day)?;
    Some(days * 86_400_000_000 + calendar::parse_time_nanos(time)? / 1000)
}

/// The long Trino holds for a value of a kind hashed as a long: integers, booleans and
/// intervals as they are, `floatToIntBits` / `doubleToLongBits` (-0 made 0, one NaN), a short
/// decimal unscaled, a date as days, a timestamp as epoch microseconds. `None` for the kinds
/// hashed from their bytes.
pub(crate) fn long_of(kind: Kind, v: ValueRef<'_>) -> Option<i64> {
    Some(match kind {
        Kind::Long => match v {
            ValueRef::Integer(i) => i,
            other => num(other)? as i64,
        },
        Kind::Real => {
            let x = num(v)? as f32;
            let x = if x == 0.0 { 0.0 } else { x };
            let bits = if x.is_nan() { 0x7fc0_0000 } else { x.to_bits() };
            i64::from(bits as i32)
        }
        Kind::Double => {
            let x = num(v)?;
            let x = if x == 0.0 { 0.0 } else { x };
            let bits = if x.is_nan() {
                0x7ff8_0000_0000_0000
            } else {
                x.to_bits()
            };
            bits as i64
        }
        Kind::ShortDecimal => i64::try_from(unscaled(text(v)?)?).ok()?,
        Kind::Date => calendar::parse_date(std::str::from_utf8(text(v)?).ok()?.get(..10)?)?,
        Kind::Timestamp => epoch_micros(text(v)?)?,
        Kind::LongDecimal | Kind::Bytes | Kind::Char | Kind::Hashed => return None,
    })
}

/// Trino's `HASH_CODE` of a type held as a long (AbstractLongType.hash, which the int, real,
/// double, short decimal, date and timestamp types use too): a shorter mix than XXH64. A row
/// hashes its fields with it (complex_checksum.rs).
pub(crate) fn long_hash_code(v: i64) -> u64 {
    const P1: u64 = 0x9E37_79B1_85EB_CA87;
    const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
    (v as u64).wrapping_mul(P2).rotate_left(31).wrapping_mul(P1)
}

/// Trino's `XX_HASH_64` of one non-NULL value of the given kind.
pub(crate) fn hash(kind: Kind, v: ValueRef<'_>) -> Option<u64> {
    Some(match kind {
        Kind::Long
        | Kind::Real
        | Kind::Double
        | Kind::ShortDecimal
        | Kind::Date
        | Kind::Timestamp => long(long_of(kind, v)?),
        Kind::LongDecimal => {
            let x = unscaled(text(v)?)?;
            long((x >> 64) as i64) ^ long(x as i64)
        }
        Kind::Char => {
            let t = text(v)?;
            let end = t.iter().rposition(|b| *b != b' ').map_or(0, |i| i + 1);
            xxh64(&t[..end], 0)
        }
        Kind::Hashed => match v {
            ValueRef::Integer(h) => h as u64,
            _ => return None,
        },
        Kind::Bytes => match v {
            ValueRef::Integer(i) => xxh64(i.to_string().as_bytes(), 0),
            other => xxh64(text(other)?, 0),
        },
    })
}

#[derive(Clone)]
struct Checksum(Kind);

impl RowAggregate for Checksum {
    type State = u64;
    type Output = Option<Vec<u8>>;

    fn init(&self, _: &dyn Args) -> Result<u64> {
        Ok(0)
    }

    fn step(&self, ctx: &dyn Args, sum: &mut u64) -> Result<()> {
        let v = ctx.raw(0);
        let h = match v {
            ValueRef::Null => 1,
            other => hash(self.0, other).ok_or_else(|| {
                crate::udf::fail(
                    querymesh_values::error::ErrorName::GenericInternalError,
                    "checksum: a value not of its analysed type",
                )
            })?,
        };
        *sum = sum.wrapping_add(h.wrapping_mul(PRIME64));
        Ok(())
    }

    /// `None` state: no rows were aggregated.
    fn answer(&self, sum: Option<&mut u64>) -> Result<Option<Vec<u8>>> {
        Ok(sum.map(|s| s.to_le_bytes().to_vec()))
    }
}

pub fn register(conn: &Connection) -> Result<()> {
    for kind in Kind::ALL {
        define_replayable(conn, kind.function().name(), 1, FLAGS, Checksum(kind))?;
    }
    super::complex_checksum::register(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// airlift's `XxHash64.hash(long)` step by step (seed 0): `updateTail` of the value, then
    /// `finalShuffle`.
    fn airlift(value: i64) -> u64 {
        const P1: u64 = 0x9E37_79B1_85EB_CA87;
        const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
        const P3: u64 = 0x1656_67B1_9E37_79F9;
        const P4: u64 = 0x85EB_CA77_C2B2_AE63;
        const P5: u64 = 0x27D4_EB2F_1656_67C5;
        let mix = (value as u64)
            .wrapping_mul(P2)
            .rotate_left(31)
            .wrapping_mul(P1);
        let mut h = P5.wrapping_add(8) ^ mix;
        h = h.rotate_left(27).wrapping_mul(P1).wrapping_add(P4);
        h ^= h >> 33;
        h = h.wrapping_mul(P2);
        h ^= h >> 29;
        h = h.wrapping_mul(P3);
        h ^ (h >> 32)
    }

    #[test]
    fn long_hash_is_airlifts() {
        for v in [0, 1, -1, 42, i64::MIN, i64::MAX] {
            assert_eq!(long(v), airlift(v), "{v}");
        }
        assert_eq!(
            hash(Kind::ShortDecimal, ValueRef::Text(b"-12.30")),
            Some(long(-1230))
        );
        assert_eq!(
            hash(Kind::Timestamp, ValueRef::Text(b"1970-01-01 00:00:01.000")),
            Some(long(1_000_000))
        );
        assert_eq!(
            hash(Kind::Double, ValueRef::Real(-0.0)),
            hash(Kind::Double, ValueRef::Real(0.0))
        );
        assert_eq!(
            hash(Kind::Char, ValueRef::Text(b"ab  ")),
            Some(xxh64(b"ab", 0))
        );
    }

    /// AbstractLongType.hash: `rotateLeft(value * 0xC2B2AE3D27D4EB4F, 31) * 0x9E3779B185EBCA87`
    /// (Trino 476: `checksum(ROW(1))` is the checksum of `31 + long_hash_code(1)`).
    #[test]
    fn long_hash_code_is_trinos() {
        assert_eq!(long_hash_code(1), 0x7f0e_345b_e364_9cd2);
        assert_eq!(long_hash_code(-1), 0xa5b0_3736_16af_98a7);
        assert_eq!(long_hash_code(0), 0);
        assert_eq!(
            long_of(Kind::Date, ValueRef::Text(b"1970-01-02")),
            long_of(Kind::Long, ValueRef::Integer(1))
        );
    }
}

//! `checksum` over arrays and maps, hashed as Trino's XX_HASH_64 operators hash them:
//! - an array as `31 · h + hash(element)` over its elements from h = 0, a NULL element hashing
//!   to 0 (ArrayType's hash operator bound to the element type's), so `checksum(ARRAY[1])` is
//!   `checksum(1)`;
//! - a map as the wrapping sum over its entries of `hash(key) ^ hash(value)`, a NULL value
//!   hashing to 0 (MapType's), so the order of its entries does not matter;
//! - a row as `31 · h + hash_code(field)` over its fields from h = 1, a NULL field hashing to
//!   0: RowType's XX_HASH_64 is built from its fields' HASH_CODE operators, not their
//!   XX_HASH_64. HASH_CODE is XX_HASH_64 for booleans, strings, json, varbinary and long decimals;
//!   the types held as a long (integers, intervals, real, double, short decimals, dates,
//!   timestamps) mix the long with AbstractLongType.hash instead of XXH64; arrays, maps and
//!   rows inside a row are hashed as above from their elements' HASH_CODE.
//!
//! `qm_checksum_complex_hash` computes that hash from the value's JSON (element form,
//! docs/complex-design.md), and the `qm_checksum_hashed` aggregate sums it as checksum sums
//! every hash (checksum.rs).

use base64::Engine as _;
use querymesh_values::sqlite_expr::SqliteFn;
use querymesh_values::types::TrinoType;
use rusqlite::types::{Value as SqliteValue, ValueRef};
use rusqlite::{Connection, Result};
use serde_json::Value;

use super::checksum::{Kind, hash, long_hash_code, long_of};
use crate::udf::{FLAGS, define};

/// How an element of `ty` is hashed, or `None` for an element type the stand-in does not
/// hash as Trino does.
pub fn element_kind(ty: &TrinoType) -> Option<Kind> {
    use TrinoType::*;
    Some(match ty {
        Unknown | Boolean | TinyInt | SmallInt | Integer | BigInt => Kind::Long,
        IntervalYearToMonth | IntervalDayToSecond => Kind::Long,
        Real => Kind::Real,
        Double => Kind::Double,
        Decimal { precision, .. } if *precision <= 18 => Kind::ShortDecimal,
        Decimal { .. } => Kind::LongDecimal,
        // A json element is a JSON string holding its (canonical) text.
        Varchar(_) | Json | Varbinary => Kind::Bytes,
        Char(_) => Kind::Char,
        Date => Kind::Date,
        Timestamp(p) if *p <= 6 => Kind::Timestamp,
        Array(inner) => {
            element_kind(inner)?;
            Kind::Hashed
        }
        Map(key, value) => {
            element_kind(key)?;
            element_kind(value)?;
            Kind::Hashed
        }
        Row(fields) => {
            for (_, field) in fields {
                element_kind(field)?;
            }
            Kind::Hashed
        }
        _ => return None,
    })
}

/// Which of a type's two hash operators: XX_HASH_64 (what checksum sums) or HASH_CODE (what a
/// row hashes its fields with).
#[derive(Clone, Copy)]
enum Operator {
    XxHash64,
    HashCode,
}

/// Trino's XX_HASH_64 of one element of `ty` in element form.
fn element_hash(ty: &TrinoType, v: &Value) -> Option<u64> {
    hash_of(Operator::XxHash64, ty, v)
}

/// Trino's `op` of one element of `ty` in element form (a NULL one hashes to 0).
fn hash_of(op: Operator, ty: &TrinoType, v: &Value) -> Option<u64> {
    if v.is_null() {
        return Some(0);
    }
    match ty {
        TrinoType::Array(inner) => {
            let Value::Array(items) = v else { return None };
            items.iter().try_fold(0u64, |h, item| {
                Some(h.wrapping_mul(31).wrapping_add(hash_of(op, inner, item)?))
            })
        }
        // A map is a JSON array of [key, value] pairs.
        TrinoType::Map(key_type, value_type) => {
            let Value::Array(entries) = v else {
                return None;
            };
            entries.iter().try_fold(0u64, |h, entry| {
                let [key, value] = entry.as_array()?.as_slice() else {
                    return None;
                };
                let entry = hash_of(op, key_type, key)? ^ hash_of(op, value_type, value)?;
                Some(h.wrapping_add(entry))
            })
        }
        // A row is a JSON array of its fields, by position; both its operators are built from
        // its fields' HASH_CODE.
        TrinoType::Row(fields) => {
            let Value::Array(values) = v else { return None };
            if values.len() != fields.len() {
                return None;
            }
            fields
                .iter()
                .zip(values)
                .try_fold(1u64, |h, ((_, field), value)| {
                    let field = hash_of(Operator::HashCode, field, value)?;
                    Some(h.wrapping_mul(31).wrapping_add(field))
                })
        }
        // A varbinary element is its bytes in base64.
        TrinoType::Varbinary => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(v.as_str()?)
                .ok()?;
            hash(Kind::Bytes, ValueRef::Blob(&bytes))
        }
        _ => {
            let (kind, value) = scalar(ty, v)?;
            let value = ValueRef::from(&value);
            // HASH_CODE mixes a type held as a long its own way; a boolean's, like a string's,
            // is its XX_HASH_64.
            match (op, long_of(kind, value)) {
                (Operator::HashCode, Some(long)) if *ty != TrinoType::Boolean => {
                    Some(long_hash_code(long))
                }
                _ => hash(kind, value),
            }
        }
    }
}

/// A scalar element as the SQLite value its checksum kind reads (a decimal as its text).
fn scalar(ty: &TrinoType, v: &Value) -> Option<(Kind, SqliteValue)> {
    let kind = element_kind(ty)?;
    let value = match (ty, v) {
        (TrinoType::Decimal { .. }, Value::String(digits)) => SqliteValue::Text(digits.clone()),
        (TrinoType::Decimal { .. }, other) => SqliteValue::Text(other.to_string()),
        (_, Value::Bool(b)) => SqliteValue::Integer(i64::from(*b)),
        (_, Value::Number(n)) => match n.as_i64() {
            Some(i) => SqliteValue::Integer(i),
            None => SqliteValue::Real(n.as_f64()?),
        },
        (_, Value::String(s)) => SqliteValue::Text(s.clone()),
        _ => return None,
    };
    Some((kind, value))
}

/// Trino's XX_HASH_64 of an array, a map or a row of type `ty` held as JSON text.
pub fn complex_hash(ty: &TrinoType, json: &[u8]) -> Option<u64> {
    let value: Value = serde_json::from_slice(json).ok()?;
    element_hash(ty, &value)
}

/// (array, map or row, its type's text): the value's hash, NULL for a NULL value.
pub const QM_CHECKSUM_COMPLEX_HASH: SqliteFn = SqliteFn::new("qm_checksum_complex_hash");

pub fn register(conn: &Connection) -> Result<()> {
    define(conn, QM_CHECKSUM_COMPLEX_HASH.name(), 2, FLAGS, |ctx| {
        let ValueRef::Text(json) = ctx.get_raw(0) else {
            return Ok(None);
        };
        let ty = match ctx.get_raw(1) {
            ValueRef::Text(t) => TrinoType::parse(&String::from_utf8_lossy(t)).ok(),
            _ => None,
        };
        Ok(ty.and_then(|ty| complex_hash(&ty, json)).map(|h| h as i64))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Trino 476: `SELECT checksum(ARRAY[1])` equals `checksum(1)`, as does
    // `checksum(ARRAY[ARRAY[1]])` (31 · 0 + hash(1)); a NULL element hashes to 0.
    fn array_of(element: TrinoType) -> TrinoType {
        TrinoType::Array(Box::new(element))
    }

    #[test]
    fn hashes_an_array_as_trino_does() {
        let one = hash(Kind::Long, ValueRef::Integer(1));
        let integers = array_of(TrinoType::Integer);
        assert_eq!(complex_hash(&integers, b"[1]"), one);
        assert_eq!(complex_hash(&array_of(integers.clone()), b"[[1]]"), one);
        let three = hash(Kind::Long, ValueRef::Integer(3)).unwrap_or(0);
        let expected = one.map(|h| h.wrapping_mul(31).wrapping_mul(31).wrapping_add(three));
        assert_eq!(complex_hash(&integers, b"[1, null, 3]"), expected);
        assert_eq!(complex_hash(&integers, b"[]"), Some(0));
    }

    // Trino 476: `checksum(MAP(ARRAY[1], ARRAY[2]))` is `gzGPj6gJEqc=`, the checksum of the one
    // hash `hash(1) ^ hash(2)`; entries in any order hash alike; a NULL value hashes to 0.
    #[test]
    fn hashes_a_map_as_trino_does() {
        let long = |i| hash(Kind::Long, ValueRef::Integer(i)).unwrap_or(0);
        let map = TrinoType::Map(Box::new(TrinoType::Integer), Box::new(TrinoType::Integer));
        assert_eq!(complex_hash(&map, b"[[1, 2]]"), Some(long(1) ^ long(2)));
        let both = (long(1) ^ long(2)).wrapping_add(long(3) ^ long(4));
        assert_eq!(complex_hash(&map, b"[[1, 2], [3, 4]]"), Some(both));
        assert_eq!(complex_hash(&map, b"[[3, 4], [1, 2]]"), Some(both));
        assert_eq!(complex_hash(&map, b"[[1, null]]"), Some(long(1)));
        assert_eq!(complex_hash(&map, b"[]"), Some(0));
        let checksum = long(1) ^ long(2);
        assert_eq!(
            checksum.wrapping_mul(0x9E37_79B1_85EB_CA87).to_le_bytes(),
            [0x83, 0x31, 0x8f, 0x8f, 0xa8, 0x09, 0x12, 0xa7]
        );
    }
}

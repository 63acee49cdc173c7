//! `checksum` over arrays: Trino hashes an array as `31 · h + hash(element)` over its
//! elements from h = 0, a NULL element hashing to 0 (ArrayType.hashOperator bound to the
//! element type's XX_HASH_64), so `checksum(ARRAY[1])` is `checksum(1)`. `qm_checksum_array_hash`
//! computes that hash from the array's JSON (element form, docs/complex-design.md), and the
//! `qm_checksum_hashed` aggregate sums it as checksum sums every hash (checksum.rs).

use base64::Engine as _;
use querymesh_values::sqlite_expr::SqliteFn;
use querymesh_values::types::TrinoType;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};
use serde_json::Value;

use super::checksum::{Kind, hash};
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
        Varchar(_) | Varbinary => Kind::Bytes,
        Char(_) => Kind::Char,
        Date => Kind::Date,
        Timestamp(p) if *p <= 6 => Kind::Timestamp,
        Array(inner) => {
            element_kind(inner)?;
            Kind::Hashed
        }
        _ => return None,
    })
}

/// Trino's XX_HASH_64 of one element of `ty` in element form.
fn element_hash(ty: &TrinoType, v: &Value) -> Option<u64> {
    if v.is_null() {
        return Some(0);
    }
    match ty {
        TrinoType::Array(inner) => {
            let Value::Array(items) = v else { return None };
            items.iter().try_fold(0u64, |h, item| {
                Some(h.wrapping_mul(31).wrapping_add(element_hash(inner, item)?))
            })
        }
        // A varbinary element is its bytes in base64.
        TrinoType::Varbinary => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(v.as_str()?)
                .ok()?;
            hash(Kind::Bytes, ValueRef::Blob(&bytes))
        }
        // A decimal element is its unscaled value (a number, or a long one's digits).
        TrinoType::Decimal { .. } => {
            let digits = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            hash(element_kind(ty)?, ValueRef::Text(digits.as_bytes()))
        }
        _ => {
            let kind = element_kind(ty)?;
            match v {
                Value::Bool(b) => hash(kind, ValueRef::Integer(i64::from(*b))),
                Value::Number(n) => match n.as_i64() {
                    Some(i) => hash(kind, ValueRef::Integer(i)),
                    None => hash(kind, ValueRef::Real(n.as_f64()?)),
                },
                Value::String(s) => hash(kind, ValueRef::Text(s.as_bytes())),
                _ => None,
            }
        }
    }
}

/// Trino's XX_HASH_64 of an array held as JSON text.
pub fn array_hash(element: &TrinoType, json: &[u8]) -> Option<u64> {
    let value: Value = serde_json::from_slice(json).ok()?;
    element_hash(&TrinoType::Array(Box::new(element.clone())), &value)
}

/// (array, element type's text): the array's hash, NULL for a NULL array.
pub const QM_CHECKSUM_ARRAY_HASH: SqliteFn = SqliteFn::new("qm_checksum_array_hash");

pub fn register(conn: &Connection) -> Result<()> {
    define(conn, QM_CHECKSUM_ARRAY_HASH.name(), 2, FLAGS, |ctx| {
        let ValueRef::Text(json) = ctx.get_raw(0) else {
            return Ok(None);
        };
        let element = match ctx.get_raw(1) {
            ValueRef::Text(t) => TrinoType::parse(&String::from_utf8_lossy(t)).ok(),
            _ => None,
        };
        Ok(element.and_then(|e| array_hash(&e, json)).map(|h| h as i64))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Trino 476: `SELECT checksum(ARRAY[1])` equals `checksum(1)`, as does
    // `checksum(ARRAY[ARRAY[1]])` (31 · 0 + hash(1)); a NULL element hashes to 0.
    #[test]
    fn hashes_an_array_as_trino_does() {
        let one = hash(Kind::Long, ValueRef::Integer(1));
        assert_eq!(array_hash(&TrinoType::Integer, b"[1]"), one);
        let nested = TrinoType::Array(Box::new(TrinoType::Integer));
        assert_eq!(array_hash(&nested, b"[[1]]"), one);
        let three = hash(Kind::Long, ValueRef::Integer(3)).unwrap_or(0);
        let expected = one.map(|h| h.wrapping_mul(31).wrapping_mul(31).wrapping_add(three));
        assert_eq!(array_hash(&TrinoType::Integer, b"[1, null, 3]"), expected);
        assert_eq!(array_hash(&TrinoType::Integer, b"[]"), Some(0));
    }
}

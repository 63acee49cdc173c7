//! `qm_compare(a, b, type, op)`: Trino's comparison of two rows or maps of one type (the
//! common super type, as text), field by field, which their JSON texts can't decide alone:
//! equality is NULL when a NULL field leaves it open (`row(1, NULL) = row(1, 2)`), false as
//! soon as a field differs; ordering is lexicographic and refuses NULL fields, as Trino's
//! RowType comparison does (TestRowOperators.testRowComparison).

use std::cmp::Ordering;

use querymesh_values::error::ErrorName;
use querymesh_values::types::TrinoType;
use rusqlite::Connection;
use rusqlite::types::ValueRef;
use serde_json::Value;

use super::{FLAGS, fail};
use crate::udf::define;

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_COMPARE: SqliteFn = SqliteFn::new("qm_compare");

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        _ => None,
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

/// Two scalars of one type in element form, ordered: numbers (and booleans, 0/1) by value,
/// text by its bytes (Trino compares varchar by UTF-8 bytes).
fn scalar_order(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::String(x), Value::String(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        _ => {
            if let (Value::Number(x), Value::Number(y)) = (a, b)
                && let (Some(x), Some(y)) = (x.as_i64(), y.as_i64())
            {
                return Some(x.cmp(&y));
            }
            number(a)?.partial_cmp(&number(b)?)
        }
    }
}

fn items(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or(&[])
}

/// Trino's equality: `None` when a NULL leaves it undecided.
pub(super) fn equal(a: &Value, b: &Value, ty: &TrinoType) -> Option<bool> {
    if a.is_null() || b.is_null() {
        return None;
    }
    let all = |pairs: &mut dyn Iterator<Item = Option<bool>>| {
        let mut open = false;
        for p in pairs {
            match p {
                Some(false) => return Some(false),
                None => open = true,
                Some(true) => {}
            }
        }
        if open { None } else { Some(true) }
    };
    match ty {
        TrinoType::Row(fields) => all(&mut items(a)
            .iter()
            .zip(items(b))
            .zip(fields)
            .map(|((x, y), (_, t))| equal(x, y, t))),
        TrinoType::Array(e) => {
            if items(a).len() != items(b).len() {
                return Some(false);
            }
            all(&mut items(a).iter().zip(items(b)).map(|(x, y)| equal(x, y, e)))
        }
        TrinoType::Map(k, v) => {
            let (pa, pb) = (items(a), items(b));
            if pa.len() != pb.len() {
                return Some(false);
            }
            all(&mut pa.iter().map(|p| {
                let (ka, va) = (&items(p).first()?, items(p).get(1)?);
                let found = pb
                    .iter()
                    .find(|q| items(q).first().and_then(|kb| equal(ka, kb, k)) == Some(true));
                match found {
                    None => Some(false),
                    Some(q) => equal(va, items(q).get(1)?, v),
                }
            }))
        }
        _ => scalar_order(a, b)
            .map(|o| o == Ordering::Equal)
            .or(Some(a == b)),
    }
}

fn null_fields() -> rusqlite::Error {
    fail(
        ErrorName::NotSupported,
        "ROW comparison not supported for fields with null elements",
    )
}

/// Trino's ordering of rows (lexicographic) and arrays (element by element, then length).
pub(super) fn order(a: &Value, b: &Value, ty: &TrinoType) -> rusqlite::Result<Ordering> {
    match ty {
        TrinoType::Row(fields) => {
            for ((x, y), (_, t)) in items(a).iter().zip(items(b)).zip(fields) {
                if x.is_null() || y.is_null() {
                    return Err(null_fields());
                }
                let o = order(x, y, t)?;
                if o != Ordering::Equal {
                    return Ok(o);
                }
            }
            Ok(Ordering::Equal)
        }
        TrinoType::Array(e) => {
            for (x, y) in items(a).iter().zip(items(b)) {
                if x.is_null() || y.is_null() {
                    return Err(fail(
                        ErrorName::NotSupported,
                        "Array comparison not supported for arrays with null elements",
                    ));
                }
                let o = order(x, y, e)?;
                if o != Ordering::Equal {
                    return Ok(o);
                }
            }
            Ok(items(a).len().cmp(&items(b).len()))
        }
        _ => scalar_order(a, b)
            .ok_or_else(|| fail(ErrorName::GenericInternalError, "A row value is not valid")),
    }
}

/// `a op b` for one of `=`, `<>`, `<`, `<=`, `>`, `>=`.
fn compare(a: &str, b: &str, ty: &TrinoType, op: &str) -> rusqlite::Result<Option<bool>> {
    let invalid = || fail(ErrorName::GenericInternalError, "A row value is not valid");
    let a: Value = serde_json::from_str(a).map_err(|_| invalid())?;
    let b: Value = serde_json::from_str(b).map_err(|_| invalid())?;
    Ok(match op {
        "=" => equal(&a, &b, ty),
        "<>" => equal(&a, &b, ty).map(|e| !e),
        _ => {
            let o = order(&a, &b, ty)?;
            Some(match op {
                "<" => o == Ordering::Less,
                "<=" => o != Ordering::Greater,
                ">" => o == Ordering::Greater,
                _ => o != Ordering::Less,
            })
        }
    })
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_COMPARE.name(), 4, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let ty = text(ctx.get_raw(2))
            .and_then(|t| TrinoType::parse(&t).ok())
            .unwrap_or(TrinoType::Unknown);
        let op = text(ctx.get_raw(3)).unwrap_or_default();
        compare(&a, &b, &ty, &op)
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(fields: &[TrinoType]) -> TrinoType {
        TrinoType::Row(fields.iter().map(|t| (None, t.clone())).collect())
    }

    #[test]
    fn rows_compare_as_trino() {
        // TestRowOperators.testRowComparison.
        let ints = row(&[TrinoType::Integer, TrinoType::Integer]);
        let c = |a: &str, b: &str, op: &str| compare(a, b, &ints, op).ok().flatten();
        assert_eq!(c("[1,null]", "[1,2]", "="), None);
        assert_eq!(c("[1,null]", "[1,2]", "<>"), None);
        assert_eq!(c("[2,null]", "[1,2]", "="), Some(false));
        assert_eq!(c("[2,null]", "[1,2]", "<>"), Some(true));
        assert_eq!(c("[1,2]", "[2,1]", "<"), Some(true));
        assert_eq!(c("[1,2]", "[1,2]", ">="), Some(true));
        assert!(compare("[1,null]", "[1,2]", &ints, "<").is_err());
        let text = row(&[TrinoType::Double, TrinoType::Varchar(None)]);
        assert_eq!(
            compare(r#"[1.0,"kittens"]"#, r#"[1,"puppies"]"#, &text, "<").ok(),
            Some(Some(true))
        );
        let map = TrinoType::Map(Box::new(TrinoType::Integer), Box::new(TrinoType::Double));
        assert_eq!(
            compare("[[1,2.0],[3,4.0]]", "[[3,4],[1,2]]", &map, "=").ok(),
            Some(Some(true))
        );
        assert_eq!(
            compare("[[1,2.0]]", "[[1,null]]", &map, "=").ok(),
            Some(None)
        );
        assert!(compare("nope", "[]", &ints, "=").is_err());
    }
}

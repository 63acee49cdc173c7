//! The `qm_*` functions of complex values: subscripts (`qm_array_path`, `qm_map_path`),
//! equality of their JSON texts, and varbinary elements as base64 (docs/complex-design.md).

use base64::Engine as _;
use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::runtime;
use rusqlite::Connection;
use rusqlite::types::{Value, ValueRef};

use super::{FLAGS, define, fail};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_ARRAY_PATH: SqliteFn = SqliteFn::new("qm_array_path");
pub const QM_MAP_PATH: SqliteFn = SqliteFn::new("qm_map_path");
pub const QM_COMPLEX_EQ: SqliteFn = SqliteFn::new("qm_complex_eq");

/// serde_json's value of an element as SQLite's json functions would give it.
pub fn sqlite_value(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Integer(i64::from(*b)),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Real(n.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(s) => Value::Text(s.clone()),
        other => Value::Text(other.to_string()),
    }
}

/// Whether two keys in element form are the same key: numbers by value (`1` and `1.0`).
fn same_key(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    match (a, b) {
        (serde_json::Value::Number(x), serde_json::Value::Number(y)) => {
            match (x.as_i64(), y.as_i64()) {
                (Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        _ => a == b,
    }
}

/// Trino's `=` on arrays and rows (ArrayEqualOperator, RowEqualOperator): false when a pair
/// of elements differs (or the lengths do), else NULL when a pair holds a NULL, else true.
fn complex_equal(a: &serde_json::Value, b: &serde_json::Value) -> Option<bool> {
    use serde_json::Value::{Array, Bool, Null, Number};
    let number = |v: &serde_json::Value| match v {
        Bool(b) => Some(serde_json::Value::from(i64::from(*b))),
        Number(_) => Some(v.clone()),
        _ => None,
    };
    match (a, b) {
        (Null, _) | (_, Null) => None,
        (Array(x), Array(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            let mut unknown = false;
            for (x, y) in x.iter().zip(y) {
                match complex_equal(x, y) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            (!unknown).then_some(true)
        }
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => Some(same_key(&x, &y)),
            _ => Some(a == b),
        },
    }
}

/// A key as Trino prints it in `Key not present in map: …`.
fn key_text(k: &serde_json::Value) -> String {
    match k {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn text_arg(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Null => None,
    }
}

/// The `json_extract` path of element `index` (1-based) of an array of `length` elements,
/// with ArraySubscriptOperator's errors.
fn array_path(length: i64, index: i64) -> rusqlite::Result<String> {
    if index == 0 {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            "SQL array indices start at 1",
        ));
    }
    if index < 0 {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            format!("Array subscript is negative: {index}"),
        ));
    }
    if index > length {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            format!(
                "Array subscript must be less than or equal to array length: {index} > {length}"
            ),
        ));
    }
    Ok(format!("$[{}]", index - 1))
}

/// The `json_extract` path of the value under `key` (a one-element JSON array) in `map`
/// (a JSON array of pairs), with MapSubscriptOperator's error.
fn map_path(map: &str, key: &str) -> rusqlite::Result<String> {
    let invalid = || fail(ErrorName::GenericInternalError, "A map value is not valid");
    let pairs: Vec<serde_json::Value> = serde_json::from_str(map).map_err(|_| invalid())?;
    let key: Vec<serde_json::Value> = serde_json::from_str(key).map_err(|_| invalid())?;
    let key = key.first().ok_or_else(invalid)?;
    pairs
        .iter()
        .position(|pair| pair.get(0).is_some_and(|k| same_key(k, key)))
        .map(|i| format!("$[{i}][1]"))
        .ok_or_else(|| {
            fail(
                ErrorName::InvalidFunctionArgument,
                format!("Key not present in map: {}", key_text(key)),
            )
        })
}

fn owned(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(x) => Value::Real(x),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

/// Registers the `qm_*` functions of complex values.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // A double or real in element form (querymesh-values element.rs): ±Infinity as text.
    define(conn, runtime::QM_FLOAT_ELEMENT.name(), 1, FLAGS, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Real(x) if x.is_infinite() => {
                Value::Text(if x > 0.0 { "Infinity" } else { "-Infinity" }.into())
            }
            other => owned(other),
        })
    })?;
    // An element read back as a top-level double: the texts of ±Infinity as the numbers.
    define(conn, runtime::QM_ELEMENT_FLOAT.name(), 1, FLAGS, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Text(b"Infinity") => Value::Real(f64::INFINITY),
            ValueRef::Text(b"-Infinity") => Value::Real(f64::NEG_INFINITY),
            other => owned(other),
        })
    })?;
    define(conn, QM_ARRAY_PATH.name(), 2, FLAGS, |ctx| {
        match (ctx.get::<Option<i64>>(0)?, ctx.get::<Option<i64>>(1)?) {
            (Some(length), Some(index)) => array_path(length, index).map(Some),
            _ => Ok(None),
        }
    })?;
    define(conn, QM_MAP_PATH.name(), 2, FLAGS, |ctx| {
        match (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) {
            (Some(map), Some(key)) => map_path(&map, &key).map(Some),
            _ => Ok(None),
        }
    })?;
    define(conn, QM_COMPLEX_EQ.name(), 2, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let parse = |t: &str| {
            serde_json::from_str::<serde_json::Value>(t).map_err(|_| {
                fail(
                    ErrorName::GenericInternalError,
                    "A complex value is not valid",
                )
            })
        };
        Ok(complex_equal(&parse(&a)?, &parse(&b)?))
    })?;
    define(conn, runtime::QM_BASE64.name(), 1, FLAGS, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Null => None,
            ValueRef::Blob(b) | ValueRef::Text(b) => {
                Some(base64::engine::general_purpose::STANDARD.encode(b))
            }
            other => text_arg(other).map(|t| base64::engine::general_purpose::STANDARD.encode(t)),
        })
    })?;
    define(conn, runtime::QM_UNBASE64.name(), 1, FLAGS, |ctx| {
        Ok(text_arg(ctx.get_raw(0)).and_then(|t| {
            base64::engine::general_purpose::STANDARD
                .decode(t.as_bytes())
                .ok()
        }))
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_paths_follow_array_subscript_operator() {
        // ArraySubscriptOperator.checkArrayIndex / checkIndex.
        assert_eq!(array_path(3, 1).ok(), Some("$[0]".to_string()));
        assert!(array_path(3, 4).is_err());
        assert!(array_path(3, 0).is_err());
        assert!(array_path(3, -1).is_err());
        assert_eq!(
            map_path(r#"[["a",1],[2.0,2]]"#, "[2]").ok(),
            Some("$[1][1]".to_string())
        );
        assert!(map_path(r#"[["a",1]]"#, r#"["b"]"#).is_err());
        assert!(map_path("not json", r#"["b"]"#).is_err());
        let eq = |a: &str, b: &str| {
            complex_equal(
                &serde_json::from_str(a).unwrap_or_default(),
                &serde_json::from_str(b).unwrap_or_default(),
            )
        };
        assert_eq!(eq("[1,null]", "[1,null]"), None);
        assert_eq!(eq("[1,null]", "[2,null]"), Some(false));
        assert_eq!(eq("[1,[2.0]]", "[1,[2]]"), Some(true));
        assert_eq!(eq("[1]", "[1,2]"), Some(false));
    }
}

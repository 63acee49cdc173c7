//! How Trino compares array elements, on their JSON element form: ordering (array_sort,
//! array_max), EQUAL (contains: NULLs make it indeterminate) and IDENTICAL (the set
//! functions: NULLs are alike), each by the element's Trino type.

use std::cmp::Ordering;
use std::collections::HashSet;

use base64::Engine as _;
use serde_json::Value;

use querymesh_values::types::TrinoType;

pub(super) fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        // A NaN double element is the text "NaN" (udf::real), which orders above every number.
        Value::String(s) if s == "NaN" => Some(f64::NAN),
        // ±Infinity elements are texts too (querymesh-values element.rs).
        Value::String(s) if s == "Infinity" => Some(f64::INFINITY),
        Value::String(s) if s == "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

pub(super) fn bool_of(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_f64().map(|x| x != 0.0),
        _ => None,
    }
}

pub(super) fn compare_numbers(a: &Value, b: &Value) -> Ordering {
    if let (Value::Number(x), Value::Number(y)) = (a, b)
        && let (Some(x), Some(y)) = (x.as_i64(), y.as_i64())
    {
        return x.cmp(&y);
    }
    // A long decimal's element is the string of its unscaled digits (querymesh-values/src/decimal.rs).
    if let (Value::String(x), Value::String(y)) = (a, b)
        && let (Ok(x), Ok(y)) = (x.parse::<i128>(), y.parse::<i128>())
    {
        return x.cmp(&y);
    }
    match (number(a), number(b)) {
        // Trino orders NaN above every other double.
        (Some(x), Some(y)) => x
            .partial_cmp(&y)
            .unwrap_or_else(|| x.is_nan().cmp(&y.is_nan())),
        _ => a.to_string().cmp(&b.to_string()),
    }
}

/// Trino's ordering of two non-null values of `ty` (nested NULLs last).
pub(crate) fn compare(a: &Value, b: &Value, ty: &TrinoType) -> Ordering {
    match (a.is_null(), b.is_null()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Greater,
        (false, true) => return Ordering::Less,
        _ => {}
    }
    match (ty, a, b) {
        (TrinoType::Array(e), Value::Array(x), Value::Array(y)) => x
            .iter()
            .zip(y)
            .map(|(x, y)| compare(x, y, e))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        (TrinoType::Row(fields), Value::Array(x), Value::Array(y)) => fields
            .iter()
            .zip(x.iter().zip(y))
            .map(|((_, t), (x, y))| compare(x, y, t))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal),
        (TrinoType::Boolean, _, _) => bool_of(a).cmp(&bool_of(b)),
        (t, _, _) if t.is_numeric() => compare_numbers(a, b),
        // Base64's alphabet is not in byte order: varbinary compares its bytes.
        (TrinoType::Varbinary, Value::String(x), Value::String(y)) => {
            let bytes = |s: &str| base64::engine::general_purpose::STANDARD.decode(s).ok();
            bytes(x).cmp(&bytes(y))
        }
        (_, Value::String(x), Value::String(y)) => x.cmp(y),
        _ => compare_numbers(a, b),
    }
}

/// IDENTICAL (`IS NOT DISTINCT FROM`): NULLs are identical to each other, at any depth; the
/// set functions (array_distinct, array_union, …) use it.
pub(super) fn identical(a: &Value, b: &Value, ty: &TrinoType) -> bool {
    match (a.is_null(), b.is_null()) {
        (true, true) => return true,
        (true, false) | (false, true) => return false,
        _ => {}
    }
    match (ty, a, b) {
        (TrinoType::Array(e), Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| identical(x, y, e))
        }
        (TrinoType::Row(fields), Value::Array(x), Value::Array(y)) => {
            x.len() == y.len()
                && fields
                    .iter()
                    .zip(x.iter().zip(y))
                    .all(|((_, t), (x, y))| identical(x, y, t))
        }
        (TrinoType::Map(k, v), Value::Array(x), Value::Array(y)) => {
            x.len() == y.len()
                && x.iter().all(|pair| {
                    y.iter().any(|other| {
                        identical(&pair[0], &other[0], k) && identical(&pair[1], &other[1], v)
                    })
                })
        }
        (TrinoType::Boolean, _, _) => bool_of(a) == bool_of(b),
        (t, _, _) if t.is_numeric() => {
            compare_numbers(a, b).is_eq()
                || (number(a).is_some_and(f64::is_nan) && number(b).is_some_and(f64::is_nan))
        }
        _ => a == b,
    }
}

/// EQUAL: `None` when NULLs make it indeterminate (`ARRAY[1, NULL] = ARRAY[1, 2]`).
pub(super) fn equal(a: &Value, b: &Value, ty: &TrinoType) -> Option<bool> {
    if a.is_null() || b.is_null() {
        return None;
    }
    let all = |pairs: Vec<Option<bool>>| {
        if pairs.contains(&Some(false)) {
            Some(false)
        } else if pairs.contains(&None) {
            None
        } else {
            Some(true)
        }
    };
    match (ty, a, b) {
        (TrinoType::Array(e), Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            all(x.iter().zip(y).map(|(x, y)| equal(x, y, e)).collect())
        }
        (TrinoType::Row(fields), Value::Array(x), Value::Array(y)) => all(fields
            .iter()
            .zip(x.iter().zip(y))
            .map(|((_, t), (x, y))| equal(x, y, t))
            .collect()),
        (t, _, _) if t.is_numeric() => Some(compare_numbers(a, b).is_eq()),
        _ => Some(identical(a, b, ty)),
    }
}

/// A text that two values of `ty` share exactly when they are [`identical`], so the set
/// functions hash instead of comparing every pair: numbers by value (`1` and `1.0`), map
/// pairs in key order.
pub(super) fn identity_key(v: &Value, ty: &TrinoType) -> String {
    match (ty, v) {
        (_, Value::Null) => "n".into(),
        (TrinoType::Array(e), Value::Array(items)) => {
            let keys: Vec<String> = items.iter().map(|i| identity_key(i, e)).collect();
            format!("[{}]", keys.join(","))
        }
        (TrinoType::Row(fields), Value::Array(items)) => {
            let keys: Vec<String> = fields
                .iter()
                .zip(items)
                .map(|((_, t), i)| identity_key(i, t))
                .collect();
            format!("({})", keys.join(","))
        }
        (TrinoType::Map(k, val), Value::Array(pairs)) => {
            let mut keys: Vec<String> = pairs
                .iter()
                .map(|p| format!("{}:{}", identity_key(&p[0], k), identity_key(&p[1], val)))
                .collect();
            keys.sort();
            format!("{{{}}}", keys.join(","))
        }
        (TrinoType::Boolean, _) => format!("b{}", bool_of(v).unwrap_or(false)),
        (t, _) if t.is_numeric() => match (v.as_i64(), number(v)) {
            (Some(i), _) => format!("i{i}"),
            (None, Some(x)) if x.is_nan() => "NaN".into(),
            (None, Some(x)) if x.fract() == 0.0 && x.abs() < 9.0e15 => format!("i{}", x as i64),
            (None, Some(x)) => format!("f{x:?}"),
            (None, None) => v.to_string(),
        },
        _ => v.to_string(),
    }
}

/// Keeps the first of each run of identical values.
pub(super) fn distinct(values: Vec<Value>, ty: &TrinoType) -> Vec<Value> {
    let mut seen = HashSet::with_capacity(values.len());
    values
        .into_iter()
        .filter(|v| seen.insert(identity_key(v, ty)))
        .collect()
}

pub(super) fn key_set(values: &[Value], ty: &TrinoType) -> HashSet<String> {
    values.iter().map(|v| identity_key(v, ty)).collect()
}

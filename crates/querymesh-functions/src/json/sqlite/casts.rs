//! The casts between json and SQL values (docs functions/json "Cast to JSON" and "Cast from
//! JSON"): scalars both ways (`qm_json_from`, `qm_json_to`) and arrays, maps and rows in
//! their element form (`qm_json_from_complex`, `qm_json_to_complex`).

use querymesh_values::decimal;
use querymesh_values::error::ErrorName;
use querymesh_values::types::TrinoType;
use rusqlite::types::{Value, ValueRef};

use super::value::{Json, is_integer_text, number_text, string_text};
use super::{fail, reserve, text_arg};

/// `CAST(x AS json)` of a scalar (JsonOperators / docs "Cast to JSON"): `kind` as qm_cast
/// names it.
pub(super) fn scalar_to_json(v: ValueRef<'_>, kind: &str) -> Option<String> {
    let num = |v: ValueRef<'_>| match v {
        ValueRef::Integer(i) => Some(i as f64),
        ValueRef::Real(r) => Some(r),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    };
    let non_finite = |x: f64| {
        if x.is_nan() {
            "\"NaN\"".to_string()
        } else if x > 0.0 {
            "\"Infinity\"".to_string()
        } else {
            "\"-Infinity\"".to_string()
        }
    };
    if matches!(v, ValueRef::Null) {
        return None;
    }
    let (kind, arg) = kind.split_once(':').unwrap_or((kind, ""));
    Some(match kind {
        "varchar" => string_text(&text_arg(v)?),
        "boolean" => (num(v)? != 0.0).to_string(),
        "bigint" | "integer" | "smallint" | "tinyint" => match v {
            ValueRef::Integer(i) => i.to_string(),
            other => (num(other)?.round() as i64).to_string(),
        },
        "double" => {
            let x = num(v)?;
            if x.is_finite() {
                crate::udf::java_double(x)
            } else {
                non_finite(x)
            }
        }
        "real" => {
            let x = num(v)? as f32;
            if x.is_finite() {
                querymesh_values::java_number::float_to_string(x)
            } else {
                non_finite(f64::from(x))
            }
        }
        "decimal" => {
            let scale = arg
                .split(':')
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            decimal::format(decimal::read(v)?, scale)
        }
        _ => return None,
    })
}

/// `CAST(json AS kind)` (JsonOperators, JsonUtil.currentTokenAs…): JSON null is NULL, a
/// string or number converts as the SQL value would, an array or object is an error.
pub(super) fn json_to_scalar(text: &str, kind: &str) -> rusqlite::Result<Value> {
    let shown_kind = match kind.split_once(':') {
        Some(("decimal", arg)) => {
            let (s, p) = crate::udf::cast::decimal_kind(arg);
            format!("decimal({p},{s})")
        }
        Some(("varchar", n)) => format!("varchar({n})"),
        Some((k, _)) => k.to_string(),
        None => kind.to_string(),
    };
    // JsonOperators.castToVarchar(x): a text longer than x is a bad cast of the JSON.
    if let Some(("varchar", n)) = kind.split_once(':') {
        let limit: usize = n.parse().unwrap_or(usize::MAX);
        return match json_to_scalar(text, "varchar")? {
            Value::Text(t) if t.chars().count() > limit => Err(fail(
                ErrorName::InvalidCastArgument,
                format!("Cannot cast '{text}' to {shown_kind}"),
            )),
            other => Ok(other),
        };
    }
    let cannot = || {
        fail(
            ErrorName::InvalidCastArgument,
            format!("Cannot cast '{text}' to {shown_kind}"),
        )
    };
    reserve(text.len())?;
    let json = Json::parse(text).ok_or_else(cannot)?;
    let to_kind = kind.split_once(':').map_or(kind, |(k, _)| k);
    match json {
        Json::Null => Ok(Value::Null),
        Json::Array(_) | Json::Object(_) => Err(cannot()),
        Json::String(s) => crate::udf::cast::cast(ValueRef::Text(s.as_bytes()), "varchar", kind),
        Json::Bool(b) => match to_kind {
            "varchar" => Ok(Value::Text(b.to_string())),
            _ => crate::udf::cast::cast(ValueRef::Integer(i64::from(b)), "boolean", kind),
        },
        Json::Number(t) if is_integer_text(&t) => match (to_kind, t.parse::<i64>()) {
            ("varchar", _) => Ok(Value::Text(number_text(&t))),
            // An integer the type cannot hold is an invalid cast from json (JsonOperators:
            // CAST(JSON '300' AS tinyint) fails with "Cannot cast '300' to tinyint").
            (_, Ok(i)) if !fits_integer_kind(i, to_kind) => Err(cannot()),
            (_, Ok(i)) => crate::udf::cast::cast(ValueRef::Integer(i), "bigint", kind),
            // Beyond a bigint: invalid for every integer type, a double for the rest.
            _ => match to_kind {
                "bigint" | "integer" | "smallint" | "tinyint" => Err(cannot()),
                _ => crate::udf::cast::cast(
                    ValueRef::Real(t.parse::<f64>().map_err(|_| cannot())?),
                    "double",
                    kind,
                ),
            },
        },
        // A decimal reads the number's digits exactly (JsonOperators: BigDecimal).
        Json::Number(t) if to_kind == "decimal" => {
            crate::udf::cast::cast(ValueRef::Text(t.as_bytes()), "varchar", kind)
                .map_err(|_| cannot())
        }
        Json::Number(t) => {
            let x: f64 = t.parse().map_err(|_| cannot())?;
            crate::udf::cast::cast(ValueRef::Real(x), "double", kind)
        }
    }
}

pub(super) fn complex_type(text: &str) -> rusqlite::Result<TrinoType> {
    TrinoType::parse(text).map_err(|m| fail(ErrorName::GenericInternalError, m))
}

/// A number element as a JSON number item.
fn number_item(v: &serde_json::Value) -> Option<f64> {
    match v {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.parse().ok(),
        serde_json::Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

/// A double (or real) as the JSON Trino's cast writes: Java's text, non-finite as strings.
fn double_item(x: f64, real: bool) -> Json {
    if !x.is_finite() {
        let name = if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        };
        return Json::String(name.into());
    }
    if real {
        Json::Number(querymesh_values::java_number::float_to_string(x as f32))
    } else {
        Json::Number(crate::udf::java_double(x))
    }
}

/// `CAST(array/map/row AS json)` (ArrayToJsonCast, MapToJsonCast, RowToJsonCast): a value
/// in element form (docs/complex-design.md) as JSON. A map's keys are sorted (MapToJsonCast's
/// TreeMap); a row is an object in field order.
pub(super) fn element_to_json(v: &serde_json::Value, ty: &TrinoType) -> Json {
    use serde_json::Value as V;
    match (ty, v) {
        (_, V::Null) => Json::Null,
        (TrinoType::Boolean, v) => Json::Bool(number_item(v).is_some_and(|x| x != 0.0)),
        (t, V::Number(n)) if t.is_integral() => Json::Number(n.as_i64().map_or_else(
            || n.as_f64().unwrap_or(0.0).round().to_string(),
            |i| i.to_string(),
        )),
        (TrinoType::Double, v) => number_item(v).map_or(Json::Null, |x| double_item(x, false)),
        (TrinoType::Real, v) => number_item(v).map_or(Json::Null, |x| double_item(x, true)),
        // The element form of a decimal is its unscaled value (decimal.rs).
        (TrinoType::Decimal { scale, .. }, v) => {
            let unscaled = match v {
                V::Number(n) => n.as_i64().map(i128::from),
                V::String(s) => s.parse().ok(),
                _ => None,
            };
            unscaled.map_or(Json::Null, |u| {
                Json::Number(decimal::format(u, u32::from(*scale)))
            })
        }
        (TrinoType::Json, V::String(text)) => Json::parse(text).unwrap_or(Json::Null),
        (TrinoType::Array(e), V::Array(items)) => {
            Json::Array(items.iter().map(|i| element_to_json(i, e)).collect())
        }
        (TrinoType::Map(k, val), V::Array(pairs)) => {
            let mut members: Vec<(String, Json)> = pairs
                .iter()
                .filter_map(|pair| {
                    let key = match element_to_json(pair.get(0)?, k) {
                        Json::String(s) => s,
                        other => other.compact(),
                    };
                    Some((key, element_to_json(pair.get(1)?, val)))
                })
                .collect();
            members.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            Json::Object(members)
        }
        (TrinoType::Row(fields), V::Array(items)) => {
            let values = items
                .iter()
                .zip(fields)
                .map(|(i, (_, t))| element_to_json(i, t));
            // Trino 476 writes every row as an object, an unnamed field under "" (RowToJsonCast:
            // CAST(ROW(1, 'x') AS JSON) is {"":1,"":"x"}).
            Json::Object(
                fields
                    .iter()
                    .map(|(name, _)| name.clone().unwrap_or_default())
                    .zip(values)
                    .collect(),
            )
        }
        (_, V::String(s)) => Json::String(s.clone()),
        (_, V::Bool(b)) => Json::Bool(*b),
        (_, V::Number(n)) => Json::Number(n.to_string()),
        _ => Json::Null,
    }
}

/// A scalar JSON item as the element of type `ty` (JsonToArrayCast and friends read each
/// element as the scalar cast from json would).
fn scalar_element(j: &Json, ty: &TrinoType) -> Result<serde_json::Value, String> {
    let kind = match ty {
        TrinoType::Varchar(_) | TrinoType::Char(_) => "varchar".to_string(),
        TrinoType::Decimal { precision, scale } => format!("decimal:{scale}:{precision}"),
        t => t.raw_type().to_string(),
    };
    let value = json_to_scalar(&j.canonical(), &kind).map_err(|e| {
        let text = e.to_string();
        text.rsplit_once('!')
            .map_or(text.clone(), |(_, m)| m.to_string())
    })?;
    Ok(match value {
        Value::Null => serde_json::Value::Null,
        Value::Integer(i) => serde_json::Value::from(i),
        Value::Real(x) => serde_json::Number::from_f64(x).map_or_else(
            || serde_json::Value::from(x.to_string()),
            serde_json::Value::Number,
        ),
        Value::Text(t) => serde_json::Value::from(t),
        // A long decimal's element form: its unscaled digits (querymesh-values/src/decimal.rs).
        Value::Blob(b) => decimal::read(ValueRef::Blob(&b))
            .map_or(serde_json::Value::Null, |u| u.to_string().into()),
    })
}

/// `CAST(json AS array/map/row)` (docs "Cast from JSON"): the element form of the value.
pub(super) fn json_to_element(j: &Json, ty: &TrinoType) -> Result<serde_json::Value, String> {
    use serde_json::Value as V;
    let got = |j: &Json| {
        let text = j.compact();
        text.chars().take(1).collect::<String>()
    };
    match (ty, j) {
        (TrinoType::Json, j) => Ok(V::String(j.canonical())),
        (_, Json::Null) => Ok(V::Null),
        (TrinoType::Array(e), Json::Array(items)) => items
            .iter()
            .map(|i| json_to_element(i, e))
            .collect::<Result<Vec<_>, _>>()
            .map(V::Array),
        (TrinoType::Array(_), other) => {
            Err(format!("Expected a json array, but got {}", got(other)))
        }
        (TrinoType::Map(k, v), Json::Object(members)) => {
            let mut pairs: Vec<V> = Vec::with_capacity(members.len());
            let mut seen: Vec<V> = Vec::with_capacity(members.len());
            for (key, value) in members {
                let key = scalar_element(&Json::String(key.clone()), k)?;
                if key.is_null() {
                    return Err("Map keys cannot be null".into());
                }
                if seen.contains(&key) {
                    return Err(format!("Duplicate map keys are not allowed: {key}"));
                }
                seen.push(key.clone());
                pairs.push(V::Array(vec![key, json_to_element(value, v)?]));
            }
            Ok(V::Array(pairs))
        }
        (TrinoType::Map(..), other) => {
            Err(format!("Expected a json object, but got {}", got(other)))
        }
        (TrinoType::Row(fields), Json::Array(items)) => {
            if items.len() != fields.len() {
                return Err(format!(
                    "Expected a json array with {} elements, but got {}",
                    fields.len(),
                    items.len()
                ));
            }
            items
                .iter()
                .zip(fields)
                .map(|(i, (_, t))| json_to_element(i, t))
                .collect::<Result<Vec<_>, _>>()
                .map(V::Array)
        }
        (TrinoType::Row(fields), Json::Object(members)) => fields
            .iter()
            .map(|(name, t)| {
                let name = name.as_deref().unwrap_or_default();
                let found = members.iter().rev().find(|(k, _)| k == name).or_else(|| {
                    members
                        .iter()
                        .rev()
                        .find(|(k, _)| k.eq_ignore_ascii_case(name))
                });
                match found {
                    Some((_, v)) => json_to_element(v, t),
                    None => Ok(V::Null),
                }
            })
            .collect::<Result<Vec<_>, _>>()
            .map(V::Array),
        (TrinoType::Row(_), other) => Err(format!(
            "Expected a json array or object, but got {}",
            got(other)
        )),
        (TrinoType::Boolean, j) => {
            let v = scalar_element(j, ty)?;
            Ok(match v {
                V::Number(n) => V::from(n.as_i64().unwrap_or(0)),
                other => other,
            })
        }
        (t, j) => scalar_element(j, t),
    }
}

/// Whether integer kind `kind` holds `i` (any other kind: yes).
fn fits_integer_kind(i: i64, kind: &str) -> bool {
    match kind {
        "tinyint" => i8::try_from(i).is_ok(),
        "smallint" => i16::try_from(i).is_ok(),
        "integer" => i32::try_from(i).is_ok(),
        _ => true,
    }
}

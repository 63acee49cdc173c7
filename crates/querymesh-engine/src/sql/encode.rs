//! Values in Trino's JSON encoding, by the column's analysed Trino type — never by SQLite's
//! storage class (trino-facts.md "Value encoding"): a double prints as a double even when
//! SQLite stored an integer, a decimal is a string with exactly `scale` fraction digits.

use querymesh_functions::udf::java_double;
use rusqlite::types::ValueRef;
use serde_json::Value;

use crate::types::TrinoType;

fn as_f64(v: ValueRef<'_>) -> Option<f64> {
    match v {
        ValueRef::Integer(i) => Some(i as f64),
        ValueRef::Real(r) => Some(r),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

fn as_text(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(r) => java_double(r),
        ValueRef::Null => String::new(),
    }
}

/// A double as Trino's JSON carries it: a number, or "NaN" / "Infinity" / "-Infinity".
pub fn double(x: f64) -> Value {
    if x.is_nan() {
        Value::from("NaN")
    } else if x.is_infinite() {
        Value::from(if x > 0.0 { "Infinity" } else { "-Infinity" })
    } else {
        Value::from(x)
    }
}

/// A real as Trino's JSON carries it: the double that prints as Java's `Float.toString`
/// (`0.1`, not the `0.10000000149011612` the widened float would print).
pub fn real(x: f32) -> Value {
    if !x.is_finite() {
        return double(f64::from(x));
    }
    querymesh_values::java_number::float_to_string(x)
        .parse::<f64>()
        .map_or(Value::Null, Value::from)
}

/// Writes one row of `data`, each double as the JSON number Trino writes (Java's text).
pub fn write_row(out: &mut Vec<u8>, row: &[Value]) {
    let mut serializer =
        serde_json::Serializer::with_formatter(out, querymesh_values::java_number::JavaNumbers);
    // Writing JSON values to memory cannot fail.
    let _ = serde::Serialize::serialize(row, &mut serializer);
}

/// A complex value's element (docs/complex-design.md "Element form") in Trino's encoding, by
/// type: arrays and rows as JSON arrays, maps as objects with stringified keys, varbinary's
/// base64 and json's text as the strings they are, every other value as at top level.
fn encode_element(v: &Value, ty: &TrinoType) -> Value {
    match (ty, v) {
        (_, Value::Null) => Value::Null,
        (TrinoType::Array(element), Value::Array(items)) => Value::Array(
            items
                .iter()
                .map(|item| encode_element(item, element))
                .collect(),
        ),
        (TrinoType::Row(fields), Value::Array(items)) => Value::Array(
            items
                .iter()
                .zip(fields)
                .map(|(item, (_, t))| encode_element(item, t))
                .collect(),
        ),
        (TrinoType::Map(key, value), Value::Array(pairs)) => {
            let mut object = serde_json::Map::with_capacity(pairs.len());
            for pair in pairs {
                let (Some(k), Some(v)) = (pair.get(0), pair.get(1)) else {
                    continue;
                };
                let k = key_text(&encode_element(k, key));
                object.insert(k, encode_element(v, value));
            }
            Value::Object(object)
        }
        (t, Value::String(_))
            if matches!(t, TrinoType::Varbinary | TrinoType::Json) || t.is_sketch() =>
        {
            v.clone()
        }
        (t, other) if !t.is_container() => {
            let stored = querymesh_functions::udf::sqlite_value(other);
            encode(ValueRef::from(&stored), t)
        }
        // Not the shape the type says: unreachable for values the engine built.
        _ => Value::Null,
    }
}

/// A map key as the protocol's JSON object names it: the Java `toString` of the key's client
/// value, so an array or row key is `[2, 3]` or `[1, x]` (Trino 476:
/// `MAP(ARRAY[ARRAY[2, 3]], ARRAY['b'])` is `{"[2, 3]": "b"}`).
fn key_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(key_text).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

pub fn encode(v: ValueRef<'_>, ty: &TrinoType) -> Value {
    if matches!(v, ValueRef::Null) {
        return Value::Null;
    }
    match ty {
        t if t.is_container() => match v {
            ValueRef::Text(text) => serde_json::from_slice::<Value>(text)
                .map_or(Value::Null, |parsed| encode_element(&parsed, t)),
            _ => Value::Null,
        },
        // A sketch (set digest, HyperLogLog, qdigest, tdigest) is shown as its bytes, as
        // varbinary is (SetDigestType.getObjectValue, AbstractVariableWidthType).
        t if *t == TrinoType::Varbinary || t.is_sketch() => match v {
            ValueRef::Blob(b) | ValueRef::Text(b) => {
                use base64::Engine as _;
                Value::from(base64::engine::general_purpose::STANDARD.encode(b))
            }
            other => Value::from(as_text(other)),
        },
        t if t.is_integral() => match v {
            ValueRef::Integer(i) => Value::from(i),
            other => as_f64(other).map_or(Value::Null, |f| Value::from(f.round() as i64)),
        },
        TrinoType::Double => as_f64(v).map_or(Value::Null, double),
        TrinoType::Real => as_f64(v).map_or(Value::Null, |x| real(x as f32)),
        // The unscaled value (decimal.rs), written with exactly `scale` fraction digits.
        TrinoType::Decimal { scale, .. } => querymesh_values::decimal::read(v)
            .map_or(Value::Null, |u| {
                Value::from(querymesh_values::decimal::format(u, u32::from(*scale)))
            }),
        TrinoType::Boolean => match v {
            ValueRef::Integer(i) => Value::from(i != 0),
            ValueRef::Real(r) => Value::from(r != 0.0),
            other => Value::from(matches!(
                as_text(other).to_lowercase().as_str(),
                "true" | "1"
            )),
        },
        TrinoType::Char(n) => Value::from(format!("{:<width$}", as_text(v), width = *n as usize)),
        // The wall time in the value's zone, p digits, the zone id (querymesh-functions/src/datetime/time_zone/sqlite).
        TrinoType::TimestampTz(p) => {
            querymesh_functions::datetime::time_zone::sqlite::protocol_text(v, *p)
                .map_or_else(|| Value::from(as_text(v)), Value::from)
        }
        TrinoType::Time(_) | TrinoType::TimeTz(_) => {
            querymesh_functions::datetime::time_of_day::protocol_text(v, ty)
                .map_or_else(|| Value::from(as_text(v)), Value::from)
        }
        TrinoType::Timestamp(p) => {
            let text = as_text(v);
            let (base, frac) = text.split_once('.').unwrap_or((&text, ""));
            let mut frac: String = frac.chars().take(*p as usize).collect();
            while frac.len() < *p as usize {
                frac.push('0');
            }
            Value::from(if *p == 0 {
                base.to_string()
            } else {
                format!("{base}.{frac}")
            })
        }
        TrinoType::IntervalYearToMonth => {
            let months = as_f64(v).unwrap_or(0.0) as i64;
            let sign = if months < 0 { "-" } else { "" };
            Value::from(format!("{sign}{}-{}", months.abs() / 12, months.abs() % 12))
        }
        TrinoType::IntervalDayToSecond => {
            let ms = as_f64(v).unwrap_or(0.0) as i64;
            let sign = if ms < 0 { "-" } else { "" };
            let ms = ms.abs();
            Value::from(format!(
                "{sign}{} {:02}:{:02}:{:02}.{:03}",
                ms / 86_400_000,
                ms / 3_600_000 % 24,
                ms / 60_000 % 60,
                ms / 1000 % 60,
                ms % 1000
            ))
        }
        // The address's text; IPv4 as a dotted quad (docs language/types IPADDRESS).
        TrinoType::IpAddress => {
            querymesh_functions::ipaddress::protocol_text(v).map_or(Value::Null, Value::from)
        }
        // A system color's name or `#rrggbb` (ColorType.getObjectValue).
        TrinoType::Color => match v {
            ValueRef::Integer(c) => {
                querymesh_functions::color::protocol_text(c).map_or(Value::Null, Value::from)
            }
            _ => Value::Null,
        },
        // Its x, y and zoom as an object (BingTileType.getObjectValue, Jackson's BingTile).
        TrinoType::BingTile => match v {
            ValueRef::Integer(t) => querymesh_functions::bing_tiles::protocol_value(t),
            _ => Value::Null,
        },
        TrinoType::Unknown => Value::Null,
        _ => Value::from(as_text(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_by_the_analysed_type() {
        assert_eq!(
            encode(ValueRef::Integer(17), &TrinoType::Double),
            serde_json::json!(17.0)
        );
        let decimal = |precision, scale| TrinoType::Decimal { precision, scale };
        assert_eq!(
            encode(ValueRef::Integer(15), &decimal(2, 1)),
            serde_json::json!("1.5")
        );
        assert_eq!(
            encode(ValueRef::Integer(-5), &decimal(3, 2)),
            serde_json::json!("-0.05")
        );
        let long = querymesh_values::decimal::to_blob(-12345678901234567890123);
        assert_eq!(
            encode(ValueRef::Blob(&long), &decimal(30, 3)),
            serde_json::json!("-12345678901234567890.123")
        );
        assert_eq!(
            encode(ValueRef::Real(f64::INFINITY), &TrinoType::Double),
            serde_json::json!("Infinity")
        );
        assert_eq!(
            encode(ValueRef::Integer(1), &TrinoType::Boolean),
            serde_json::json!(true)
        );
    }

    #[test]
    fn encodes_complex_values_recursively() {
        let parse = |t: &str| TrinoType::parse(t).unwrap_or(TrinoType::Unknown);
        let text = |s: &'static str| ValueRef::Text(s.as_bytes());
        assert_eq!(
            encode(text("[1,null,2]"), &parse("array(double)")),
            serde_json::json!([1.0, null, 2.0])
        );
        assert_eq!(
            encode(
                text(r#"[[1,"a"],[2,"b"]]"#),
                &parse("map(integer, varchar)")
            ),
            serde_json::json!({"1": "a", "2": "b"})
        );
        assert_eq!(
            encode(
                text(r#"[1,"AQI=",1,"{\"a\":1}",150]"#),
                &parse("row(x integer, varbinary, boolean, json, decimal(3,2))")
            ),
            serde_json::json!([1, "AQI=", true, r#"{"a":1}"#, "1.50"])
        );
        assert_eq!(
            encode(ValueRef::Blob(&[1, 2]), &TrinoType::Varbinary),
            serde_json::json!("AQI=")
        );
        assert_eq!(
            encode(text("not json"), &parse("array(integer)")),
            Value::Null
        );
    }
}

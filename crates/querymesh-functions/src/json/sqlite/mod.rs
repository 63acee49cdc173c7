//! JSON values for the `json` type and the json_* functions (Trino docs functions/json).
//!
//! This file holds what the functions share (reading an argument, the memory check before a
//! tree is built) and [`register`]; the rest by concern:
//! - `value`: the [`Json`] model, its parser and its two printers;
//! - `extract`: json_extract's path tokenizer and the functions that read at a path;
//! - `casts`: CAST between json and scalars, arrays, maps and rows;
//! - `sql_json`: json_exists / json_value / json_query over an SQL/JSON path, and the values
//!   of json_array / json_object;
//! - `table`: JSON_TABLE's rows.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::types::{Value, ValueRef};

use crate::udf::{FLAGS, fail, reserve};

mod casts;
mod extract;
#[cfg(test)]
mod properties;
mod sql_json;
mod table;
mod value;

use crate::udf::define;
use casts::{complex_type, element_to_json, json_to_element, json_to_scalar, scalar_to_json};
pub use extract::extract_path;
use extract::{array_contains, array_get, extract, json_and_path, scalar_text};
use sql_json::{SqlJsonError, element_json, json_value, sql_json_items};
pub use value::{Json, canonical_text, number_text, string_text, write_string};

/// The functions registered here, as the lowerings call them.
pub const QM_JSON_PARSE: SqliteFn = SqliteFn::new("qm_json_parse");
pub const QM_JSON_EXTRACT: SqliteFn = SqliteFn::new("qm_json_extract");
pub const QM_JSON_EXTRACT_SCALAR: SqliteFn = SqliteFn::new("qm_json_extract_scalar");
pub const QM_JSON_SIZE: SqliteFn = SqliteFn::new("qm_json_size");
pub const QM_JSON_ARRAY_LENGTH: SqliteFn = SqliteFn::new("qm_json_array_length");
pub const QM_JSON_ARRAY_CONTAINS: SqliteFn = SqliteFn::new("qm_json_array_contains");
pub const QM_JSON_ARRAY_GET: SqliteFn = SqliteFn::new("qm_json_array_get");
pub const QM_IS_JSON_SCALAR: SqliteFn = SqliteFn::new("qm_is_json_scalar");
pub const QM_JSON_FROM: SqliteFn = SqliteFn::new("qm_json_from");
pub const QM_JSON_TO: SqliteFn = SqliteFn::new("qm_json_to");
pub const QM_JSON_EXISTS: SqliteFn = SqliteFn::new("qm_json_exists");
pub const QM_JSON_VALUE: SqliteFn = SqliteFn::new("qm_json_value");
pub const QM_JSON_QUERY: SqliteFn = SqliteFn::new("qm_json_query");
pub const QM_JSON_ARRAY: SqliteFn = SqliteFn::new("qm_json_array");
pub const QM_JSON_OBJECT: SqliteFn = SqliteFn::new("qm_json_object");
pub const QM_JSON_FROM_COMPLEX: SqliteFn = SqliteFn::new("qm_json_from_complex");
pub const QM_JSON_TO_COMPLEX: SqliteFn = SqliteFn::new("qm_json_to_complex");
pub const QM_JSON_ENCODED: SqliteFn = SqliteFn::new("qm_json_encoded");
/// JSON input in UTF-16 or UTF-32 (`FORMAT JSON ENCODING …` of a varbinary) as text.
pub const QM_JSON_DECODED: SqliteFn = SqliteFn::new("qm_json_decoded");
pub const QM_JSON_TABLE: SqliteFn = SqliteFn::new("qm_json_table");

/// json_parse's error (JsonFunctions.jsonParse).
pub fn not_json(text: &str) -> rusqlite::Error {
    fail(
        ErrorName::InvalidFunctionArgument,
        format!("Cannot convert value to JSON: '{text}'"),
    )
}

pub(crate) fn text_arg(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(crate::udf::java_double(r)),
        ValueRef::Null => None,
    }
}

/// Parses a function's JSON argument after asking the memory budget for its tree.
fn parse_arg(text: &str) -> rusqlite::Result<Option<Json>> {
    reserve(text.len())?;
    Ok(Json::parse(text))
}

/// Registers the json_* functions' `qm_*` implementations.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    table::register(conn)?;
    define(conn, QM_JSON_PARSE.name(), 1, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        reserve(text.len())?;
        canonical_text(&text)
            .map(Some)
            .ok_or_else(|| not_json(&text))
    })?;
    define(conn, QM_JSON_EXTRACT.name(), 2, FLAGS, |ctx| {
        Ok(json_and_path(ctx)?.and_then(|(j, tokens)| extract(&j, &tokens).map(Json::compact)))
    })?;
    define(conn, QM_JSON_EXTRACT_SCALAR.name(), 2, FLAGS, |ctx| {
        Ok(json_and_path(ctx)?.and_then(|(j, tokens)| extract(&j, &tokens).and_then(scalar_text)))
    })?;
    define(conn, QM_JSON_SIZE.name(), 2, FLAGS, |ctx| {
        Ok(json_and_path(ctx)?.and_then(|(j, tokens)| {
            extract(&j, &tokens).map(|v| match v {
                Json::Array(items) => items.len() as i64,
                Json::Object(members) => members.len() as i64,
                _ => 0,
            })
        }))
    })?;
    define(conn, QM_JSON_ARRAY_LENGTH.name(), 1, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        Ok(parse_arg(&text)?.and_then(|j| match j {
            Json::Array(items) => Some(items.len() as i64),
            _ => None,
        }))
    })?;
    define(conn, QM_JSON_ARRAY_CONTAINS.name(), 3, FLAGS, |ctx| {
        let (Some(text), value) = (text_arg(ctx.get_raw(0)), ctx.get_raw(1)) else {
            return Ok(None);
        };
        if matches!(value, ValueRef::Null) {
            return Ok(None);
        }
        let kind: String = ctx.get(2)?;
        Ok(parse_arg(&text)?.and_then(|j| array_contains(&j, value, &kind)))
    })?;
    define(conn, QM_JSON_ARRAY_GET.name(), 2, FLAGS, |ctx| {
        let (Some(text), ValueRef::Integer(index)) = (text_arg(ctx.get_raw(0)), ctx.get_raw(1))
        else {
            return Ok(None);
        };
        Ok(parse_arg(&text)?.and_then(|j| array_get(&j, index)))
    })?;
    define(conn, QM_IS_JSON_SCALAR.name(), 1, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        match parse_arg(&text)? {
            Some(j) => Ok(Some(!matches!(j, Json::Array(_) | Json::Object(_)))),
            None => Err(fail(
                ErrorName::InvalidFunctionArgument,
                format!("Invalid JSON value: {text}"),
            )),
        }
    })?;
    define(conn, QM_JSON_FROM.name(), 2, FLAGS, |ctx| {
        let kind: String = ctx.get(1)?;
        Ok(scalar_to_json(ctx.get_raw(0), &kind))
    })?;
    define(conn, QM_JSON_TO.name(), 3, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        let kind: String = ctx.get(1)?;
        let try_cast: bool = ctx.get(2)?;
        match json_to_scalar(&text, &kind) {
            Err(_) if try_cast => Ok(Value::Null),
            other => other,
        }
    })?;
    define(conn, QM_JSON_EXISTS.name(), 4, FLAGS, |ctx| {
        let (Some(input), Some(path)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let vars = text_arg(ctx.get_raw(2)).unwrap_or_default();
        let on_error: String = ctx.get(3)?;
        match sql_json_items(&input, &path, &vars)? {
            Ok(items) => Ok(Some(!items.is_empty())),
            Err(e) => match on_error.as_str() {
                "true" => Ok(Some(true)),
                "false" => Ok(Some(false)),
                "unknown" => Ok(None),
                _ => Err(e.error()),
            },
        }
    })?;
    define(conn, QM_JSON_VALUE.name(), 7, FLAGS, |ctx| {
        let (Some(input), Some(path)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        let vars = text_arg(ctx.get_raw(2)).unwrap_or_default();
        let kind: String = ctx.get(3)?;
        let (on_empty, on_error): (String, String) = (ctx.get(4)?, ctx.get(5)?);
        let outcome_only: bool = ctx.get(6)?;
        let outcome = json_value(&input, &path, &vars, &kind)?;
        if outcome_only {
            return Ok(Value::Integer(match outcome {
                Ok(_) => 0,
                Err(SqlJsonError::Empty(_)) if on_empty == "default" => 1,
                Err(SqlJsonError::Failed(_)) if on_error == "default" => 2,
                Err(_) => 0,
            }));
        }
        match outcome {
            Ok(v) => Ok(v),
            Err(SqlJsonError::Empty(e)) if on_empty == "error" => Err(e),
            Err(SqlJsonError::Empty(_)) => Ok(Value::Null),
            Err(e) if on_error == "error" => Err(e.error()),
            Err(_) => Ok(Value::Null),
        }
    })?;
    define(conn, QM_JSON_QUERY.name(), 7, FLAGS, |ctx| {
        let (Some(input), Some(path)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let vars = text_arg(ctx.get_raw(2)).unwrap_or_default();
        let wrapper: String = ctx.get(3)?;
        let omit_quotes: bool = ctx.get(4)?;
        let (on_empty, on_error): (String, String) = (ctx.get(5)?, ctx.get(6)?);
        let behave = |b: &str, e: rusqlite::Error| -> rusqlite::Result<Option<String>> {
            match b {
                "empty array" => Ok(Some("[]".into())),
                "empty object" => Ok(Some("{}".into())),
                "error" => Err(e),
                _ => Ok(None),
            }
        };
        let items = match sql_json_items(&input, &path, &vars)? {
            Ok(items) => items,
            Err(e) => return behave(&on_error, e.error()),
        };
        if items.is_empty() {
            return behave(
                &on_empty,
                fail(
                    ErrorName::JsonOutputConversionError,
                    "conversion from JSON failed: JSON path found no items",
                ),
            );
        }
        let wrap = match wrapper.as_str() {
            "unconditional" => true,
            "conditional" => {
                !(items.len() == 1 && matches!(items[0], Json::Array(_) | Json::Object(_)))
            }
            _ => false,
        };
        if wrap {
            return Ok(Some(Json::Array(items).compact()));
        }
        match items.as_slice() {
            [Json::String(s)] if omit_quotes => Ok(Some(s.clone())),
            [one] => Ok(Some(one.compact())),
            _ => behave(
                &on_error,
                fail(
                    ErrorName::JsonOutputConversionError,
                    "conversion from JSON failed: JSON path found multiple items",
                ),
            ),
        }
    })?;
    define(conn, QM_JSON_ARRAY.name(), -1, FLAGS, |ctx| {
        let absent: bool = ctx.get(0)?;
        let mut out = String::from("[");
        let mut first = true;
        let mut i = 1;
        while i + 1 < ctx.len() {
            let kind: String = ctx.get(i)?;
            let value = ctx.get_raw(i + 1);
            i += 2;
            let Some(text) = element_json(value, &kind)? else {
                if absent {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                out.push_str("null");
                continue;
            };
            reserve(out.len() + text.len())?;
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(&text);
        }
        out.push(']');
        Ok(out)
    })?;
    define(conn, QM_JSON_OBJECT.name(), -1, FLAGS, |ctx| {
        let absent: bool = ctx.get(0)?;
        let unique: bool = ctx.get(1)?;
        let mut out = String::from("{");
        let mut keys = std::collections::HashSet::new();
        let mut first = true;
        let mut i = 2;
        while i + 2 < ctx.len() {
            let Some(key) = text_arg(ctx.get_raw(i)) else {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "null value passed for JSON object key to JSON_OBJECT function",
                ));
            };
            let kind: String = ctx.get(i + 1)?;
            let value = element_json(ctx.get_raw(i + 2), &kind)?;
            i += 3;
            if value.is_none() && absent {
                continue;
            }
            // WITHOUT UNIQUE KEYS too, Trino cannot build the object it would serialize.
            if !keys.insert(key.clone()) {
                return Err(if unique {
                    fail(
                        ErrorName::InvalidFunctionArgument,
                        "duplicate key passed to JSON_OBJECT function",
                    )
                } else {
                    fail(
                        ErrorName::NotSupported,
                        "cannot construct a JSON object with duplicate key",
                    )
                });
            }
            let value = value.unwrap_or_else(|| "null".into());
            reserve(out.len() + key.len() + value.len())?;
            if !first {
                out.push(',');
            }
            first = false;
            write_string(&mut out, &key);
            out.push(':');
            out.push_str(&value);
        }
        out.push('}');
        Ok(out)
    })?;
    define(conn, QM_JSON_FROM_COMPLEX.name(), 2, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let ty = complex_type(&ctx.get::<String>(1)?)?;
        reserve(text.len().saturating_mul(2))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|_| {
            fail(
                ErrorName::GenericInternalError,
                "A complex value is not valid",
            )
        })?;
        Ok(Some(element_to_json(&value, &ty).compact()))
    })?;
    define(conn, QM_JSON_TO_COMPLEX.name(), 3, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let ty = complex_type(&ctx.get::<String>(1)?)?;
        let try_cast: bool = ctx.get(2)?;
        reserve(text.len().saturating_mul(2))?;
        let converted = Json::parse(&text)
            .ok_or_else(|| format!("Cannot cast to {ty}. Invalid JSON\n{text}"))
            .and_then(|j| {
                json_to_element(&j, &ty).map_err(|m| format!("Cannot cast to {ty}. {m}\n{text}"))
            });
        match converted {
            Ok(serde_json::Value::Null) => Ok(None),
            Ok(v) => Ok(Some(v.to_string())),
            Err(_) if try_cast => Ok(None),
            Err(m) => Err(fail(ErrorName::InvalidCastArgument, m)),
        }
    })?;
    Ok(())
}

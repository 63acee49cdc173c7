//! The SQL/JSON functions' shared evaluation: json_exists, json_value and json_query run
//! an SQL/JSON path (`json_path`) over their input, and what json_value makes of the one
//! item; json_array and json_object's text of one value.

use querymesh_values::error::ErrorName;
use rusqlite::types::{Value, ValueRef};

use super::casts::scalar_to_json;
use super::value::{Json, is_integer_text};
use super::{fail, parse_arg, reserve, text_arg};

/// Why a SQL/JSON function found no value: the path found nothing (ON EMPTY applies), or
/// input, path or result failed (ON ERROR applies).
pub(super) enum SqlJsonError {
    Empty(rusqlite::Error),
    Failed(rusqlite::Error),
}

impl SqlJsonError {
    pub(super) fn error(self) -> rusqlite::Error {
        match self {
            SqlJsonError::Empty(e) | SqlJsonError::Failed(e) => e,
        }
    }
}

/// The items of an SQL/JSON path over an input text; the outer error is one no clause
/// handles (memory), the inner one is handled by ON ERROR.
pub(super) fn sql_json_items(
    input: &str,
    path: &str,
    vars: &str,
) -> rusqlite::Result<Result<Vec<Json>, SqlJsonError>> {
    // The path was checked when the query was analysed; a failure here is the same refusal.
    let path = crate::json::path::Path::parse(path).map_err(|_| {
        fail(
            ErrorName::InvalidPath,
            format!("Invalid JSON path: '{path}'"),
        )
    })?;
    let Some(json) = parse_arg(input)? else {
        return Ok(Err(SqlJsonError::Failed(fail(
            ErrorName::JsonInputConversionError,
            "conversion to JSON failed: ",
        ))));
    };
    // The PASSING values: a JSON object the analysis built (`{}` without PASSING).
    let vars = match parse_arg(vars)? {
        Some(Json::Object(members)) => members,
        _ => Vec::new(),
    };
    Ok(path.evaluate_with(&json, &vars).map_err(|e| {
        SqlJsonError::Failed(fail(
            ErrorName::PathEvaluationError,
            format!("path evaluation failed: structural error: {e}"),
        ))
    }))
}

/// json_value: the one scalar item the path finds, as a value of `kind` (qm_cast's names).
pub(super) fn json_value(
    input: &str,
    path: &str,
    vars: &str,
    kind: &str,
) -> rusqlite::Result<Result<Value, SqlJsonError>> {
    let result_error = |m: &str| {
        SqlJsonError::Failed(fail(
            ErrorName::JsonValueResultError,
            format!("cannot extract SQL scalar from JSON: {m}"),
        ))
    };
    let items = match sql_json_items(input, path, vars)? {
        Ok(items) => items,
        Err(e) => return Ok(Err(e)),
    };
    let item = match items.as_slice() {
        [] => {
            return Ok(Err(SqlJsonError::Empty(fail(
                ErrorName::JsonValueResultError,
                "cannot extract SQL scalar from JSON: JSON path found no items",
            ))));
        }
        [one] => one,
        _ => return Ok(Err(result_error("JSON path found multiple items"))),
    };
    // `char:n`: a JSON string read as varchar(n) (the analysis pads it); any other item is
    // none.
    let char_length = kind.strip_prefix("char:");
    let strings_only = char_length.is_some();
    let as_varchar = char_length.map(|n| format!("varchar:{n}"));
    let kind = as_varchar.as_deref().unwrap_or(kind);
    if strings_only
        && !matches!(
            item,
            Json::String(_) | Json::Null | Json::Array(_) | Json::Object(_)
        )
    {
        let item_type = if matches!(item, Json::Bool(_)) {
            "boolean"
        } else {
            "number"
        };
        return Ok(Err(result_error(&format!(
            "Cannot cast value of type {item_type} to declared return type of function \
             JSON_VALUE: char"
        ))));
    }
    let to_kind = kind.split_once(':').map_or(kind, |(k, _)| k);
    let converted = match item {
        Json::Null => return Ok(Ok(Value::Null)),
        Json::Array(_) | Json::Object(_) => {
            return Ok(Err(result_error(
                "JSON path found an item that cannot be converted to an SQL value",
            )));
        }
        // A string to varchar(n) is cut to n characters, as CAST of a varchar is (Trino 476:
        // "abcdef" RETURNING varchar(3) is 'abc').
        Json::String(s) if to_kind == "varchar" => {
            let cut: String = match kind.split_once(':').and_then(|(_, n)| n.parse().ok()) {
                Some(n) => s.chars().take(n).collect(),
                None => s.clone(),
            };
            Ok(Value::Text(cut))
        }
        Json::String(s) => crate::udf::cast::cast(ValueRef::Text(s.as_bytes()), "varchar", kind),
        Json::Bool(b) if to_kind == "varchar" => {
            crate::udf::cast::cast(ValueRef::Text(b.to_string().as_bytes()), "varchar", kind)
        }
        Json::Bool(b) => crate::udf::cast::cast(ValueRef::Integer(i64::from(*b)), "boolean", kind),
        // Trino 476 reads an integer that fits a bigint as one, any other integer as no SQL
        // value (an error: NULL ON ERROR by default), and a fraction or exponent as a double,
        // so json_value of 1.50 is the varchar '1.5E0' (a double's text) but RETURNING
        // decimal(5, 2) is 1.50.
        Json::Number(t) => match t.parse::<i64>() {
            Ok(i) if is_integer_text(t) => {
                crate::udf::cast::cast(ValueRef::Integer(i), "bigint", kind)
            }
            _ if is_integer_text(t) => {
                return Ok(Err(result_error("JSON path found a number out of range")));
            }
            _ => match t.parse::<f64>() {
                Ok(x) => crate::udf::cast::cast(ValueRef::Real(x), "double", kind),
                Err(_) => return Ok(Err(result_error("JSON path found a number out of range"))),
            },
        },
    };
    // A value that does not cast to the declared type is JSON_VALUE_RESULT_ERROR (Trino 476:
    // `json_value('{"a": "abc"}', 'lax $.a' RETURNING integer ERROR ON ERROR)`).
    let item_type = match item {
        Json::String(_) => "varchar",
        Json::Bool(_) => "boolean",
        _ => "number",
    };
    Ok(converted.map_err(|_| {
        result_error(&format!(
            "Cannot cast value of type {item_type} to declared return type of function \
             JSON_VALUE: {}",
            declared_type(kind)
        ))
    }))
}

/// The SQL type a `kind` text names (`decimal:2:5` is decimal(5,2)).
fn declared_type(kind: &str) -> String {
    let parts: Vec<&str> = kind.split(':').collect();
    match parts.as_slice() {
        ["decimal", scale, precision] => format!("decimal({precision},{scale})"),
        [name, length] => format!("{name}({length})"),
        _ => kind.to_string(),
    }
}

/// json_array / json_object's JSON text of one value of `kind`: `json` (a JSON value, or
/// JSON text given FORMAT JSON, embedded), `varchar` (a JSON string), `boolean`, numbers;
/// `None` for NULL.
pub(super) fn element_json(v: ValueRef<'_>, kind: &str) -> rusqlite::Result<Option<String>> {
    if matches!(v, ValueRef::Null) {
        return Ok(None);
    }
    if kind == "json" {
        let Some(text) = text_arg(v) else {
            return Ok(None);
        };
        reserve(text.len())?;
        return Json::parse(&text)
            .map(|j| Some(j.compact()))
            .ok_or_else(|| {
                fail(
                    ErrorName::JsonInputConversionError,
                    "conversion to JSON failed: ",
                )
            });
    }
    Ok(scalar_to_json(v, kind))
}

//! JSON functions (Trino docs functions/json; JsonFunctions, JsonExtract): json_parse,
//! json_format, json_extract(_scalar), json_size, json_array_length/contains/get,
//! is_json_scalar, the `JSON '…'` literal and casts between json and SQL values. Each takes a
//! `json` value or a varchar holding JSON text; the Rust side is querymesh-functions/src/json/sqlite.

pub mod path;
pub mod sqlite;
pub mod table;

use querymesh_values::error::{ErrorName, Position, TrinoError, error_at};
use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};
use crate::array::calling;
use crate::json::sqlite::{
    QM_IS_JSON_SCALAR, QM_JSON_ARRAY_CONTAINS, QM_JSON_ARRAY_GET, QM_JSON_ARRAY_LENGTH,
    QM_JSON_EXTRACT, QM_JSON_EXTRACT_SCALAR, QM_JSON_PARSE, QM_JSON_SIZE, canonical_text,
};

const JSON_OR_TEXT: &[(&str, &str)] = &[("json", "bigint"), ("varchar(x)", "bigint")];
const PATH: &[(&str, &str)] = &[
    ("json, varchar(y)", "json"),
    ("varchar(x), varchar(y)", "json"),
];
/// json_extract_scalar of a varchar(x) is a varchar(x) (JsonFunctions.varcharJsonExtractScalar).
const PATH_SCALAR: &[(&str, &str)] = &[
    ("json, varchar(y)", "varchar"),
    ("varchar(x), varchar(y)", "varchar(x)"),
];
const PATH_SIZE: &[(&str, &str)] = &[
    ("json, varchar(y)", "bigint"),
    ("varchar(x), varchar(y)", "bigint"),
];

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "json_parse",
        &[("varchar(x)", "json")],
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_JSON_PARSE, c)),
        "Parse string to JSON",
    ),
    scalar(
        "json_format",
        &[("json", "varchar")],
        Typing::Resolved,
        Lower::Scalar(json_format),
        "Serialize JSON to a string",
    ),
    scalar(
        "json_extract",
        PATH,
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_JSON_EXTRACT, c)),
        "Extract a JSON value by a JSONPath-like expression",
    ),
    scalar(
        "json_extract_scalar",
        PATH_SCALAR,
        Typing::Resolved,
        Lower::Scalar(extract_scalar),
        "Extract a scalar JSON value as a string by a JSONPath-like expression",
    ),
    scalar(
        "json_size",
        PATH_SIZE,
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_JSON_SIZE, c)),
        "Size of the JSON value at a JSONPath-like expression",
    ),
    scalar(
        "json_array_length",
        JSON_OR_TEXT,
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_JSON_ARRAY_LENGTH, c)),
        "Length of a JSON array",
    ),
    scalar(
        "json_array_contains",
        &[
            ("json, boolean", "boolean"),
            ("json, bigint", "boolean"),
            ("json, double", "boolean"),
            ("json, varchar(y)", "boolean"),
            ("varchar(x), boolean", "boolean"),
            ("varchar(x), bigint", "boolean"),
            ("varchar(x), double", "boolean"),
            ("varchar(x), varchar(y)", "boolean"),
        ],
        Typing::Resolved,
        Lower::Scalar(array_contains),
        "Whether a JSON array contains the value",
    ),
    scalar(
        "json_array_get",
        &[("json, bigint", "json"), ("varchar(x), bigint", "json")],
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_JSON_ARRAY_GET, c)),
        "Element of a JSON array at an index (negative from the end); strings come back unquoted",
    ),
    scalar(
        "is_json_scalar",
        &[("json", "boolean"), ("varchar(x)", "boolean")],
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_IS_JSON_SCALAR, c)),
        "Whether the JSON value is a scalar (not an array or object)",
    ),
];

/// json_extract_scalar(varchar(x), path) is a varchar(x), of json a varchar
/// (JsonFunctions.varcharJsonExtractScalar / jsonExtractScalar).
fn extract_scalar(_: &mut dyn LowerContext, call: &Call) -> LowerResult {
    let [json, path] = call.args.as_slice() else {
        return Ok(None);
    };
    let ty = match json.ty {
        TrinoType::Varchar(n) => TrinoType::Varchar(n),
        TrinoType::Char(n) => TrinoType::Varchar(Some(n)),
        _ => TrinoType::Varchar(None),
    };
    Ok(Some(Typed::new(
        QM_JSON_EXTRACT_SCALAR.call([json.sql.clone(), path.sql.clone()]),
        ty,
    )))
}

/// The kind of the value json_array_contains looks for, which decides what it matches.
fn array_contains(_: &mut dyn LowerContext, call: &Call) -> LowerResult {
    let [json, value] = call.args.as_slice() else {
        return Ok(None);
    };
    let kind = match &value.ty {
        TrinoType::Boolean => "boolean",
        TrinoType::Double => "double",
        t if t.is_string() => "varchar",
        _ => "bigint",
    };
    Ok(Some(Typed::new(
        QM_JSON_ARRAY_CONTAINS.call([json.sql.clone(), value.sql.clone(), SqlExpr::text(kind)]),
        TrinoType::Boolean,
    )))
}

/// `JSON '…'`: the text parsed now, kept as its canonical text (a bad one fails as
/// json_parse does, TestJsonFunctions.testInvalidJsonParse).
pub fn literal(text: &str, at: Option<Position>) -> Result<Typed, TrinoError> {
    let canonical = canonical_text(text).ok_or_else(|| {
        error_at(
            ErrorName::InvalidFunctionArgument,
            at,
            format!("Cannot convert value to JSON: '{text}'"),
        )
    })?;
    Ok(Typed::new(SqlExpr::text(canonical), TrinoType::Json))
}

/// The kind `qm_json_from` / `qm_json_to` take for a scalar type, if json casts to or from it
/// (docs functions/json "Cast to JSON", "Cast from JSON").
pub fn scalar_kind(t: &TrinoType) -> Option<String> {
    Some(match t {
        TrinoType::Varchar(None) | TrinoType::Char(_) => "varchar".into(),
        TrinoType::Varchar(Some(n)) => format!("varchar:{n}"),
        TrinoType::Decimal { precision, scale } => format!("decimal:{scale}:{precision}"),
        TrinoType::Boolean
        | TrinoType::TinyInt
        | TrinoType::SmallInt
        | TrinoType::Integer
        | TrinoType::BigInt
        | TrinoType::Real
        | TrinoType::Double => t.raw_type().to_string(),
        _ => return None,
    })
}

/// Whether json casts to and from `t` (docs "Cast to JSON" / "Cast from JSON"): the scalars
/// of [`scalar_kind`], json, and arrays, maps (scalar keys) and rows of them.
pub fn json_castable(t: &TrinoType) -> bool {
    castable(t, false)
}

/// Whether `t` casts to json: what [`json_castable`] allows, and dates (their ISO text) and
/// the unknown elements of `ARRAY[]` and `MAP()` (docs "Cast to JSON").
pub fn json_writable(t: &TrinoType) -> bool {
    castable(t, true)
}

fn castable(t: &TrinoType, writing: bool) -> bool {
    match t {
        TrinoType::Json => true,
        TrinoType::Date | TrinoType::Unknown => writing,
        TrinoType::Array(e) => castable(e, writing),
        TrinoType::Map(k, v) => {
            (scalar_kind(k).is_some() || (writing && **k == TrinoType::Unknown))
                && castable(v, writing)
        }
        TrinoType::Row(fields) => fields.iter().all(|(_, t)| castable(t, writing)),
        t => scalar_kind(t).is_some(),
    }
}

/// A type's text for [`TrinoType::parse`], row field names quoted so they keep their case.
pub fn type_text(t: &TrinoType) -> String {
    match t {
        TrinoType::Array(e) => format!("array({})", type_text(e)),
        TrinoType::Map(k, v) => format!("map({}, {})", type_text(k), type_text(v)),
        TrinoType::Row(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(name, t)| match name {
                    Some(n) => format!("\"{}\" {}", n.replace('"', "\"\""), type_text(t)),
                    None => type_text(t),
                })
                .collect();
            format!("row({})", fields.join(", "))
        }
        other => other.to_string(),
    }
}

/// json_format(json): the json value's text is already its canonical text.
fn json_format(_: &mut dyn LowerContext, call: &Call) -> LowerResult {
    let [json] = call.args.as_slice() else {
        return Ok(None);
    };
    Ok(Some(Typed::new(json.sql.clone(), call.returns())))
}

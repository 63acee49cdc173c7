//! JSON functions (Trino docs functions/json; JsonFunctions, JsonExtract): json_parse,
//! json_format, json_extract(_scalar), json_size, json_array_length/contains/get,
//! is_json_scalar, the `JSON '…'` literal and casts between json and SQL values. Each takes a
//! `json` value or a varchar holding JSON text; the Rust side is sql/udf/json.rs.

use super::Call;
use super::registry::{FunctionDef, Lower, LowerResult, Typing, scalar};
use crate::querymesh::engine::error::{ErrorName, Position, TrinoError};
use crate::querymesh::engine::sql::analyze::{Analyzer, Typed, error_at};
use crate::querymesh::engine::sql::expr::sql_string;
use crate::querymesh::engine::sql::udf::json::canonical_text;
use crate::querymesh::engine::types::TrinoType;

const JSON_OR_TEXT: &[(&str, &str)] = &[("json", "bigint"), ("varchar(x)", "bigint")];
const PATH: &[(&str, &str)] = &[
    ("json, varchar(y)", "json"),
    ("varchar(x), varchar(y)", "json"),
];
const PATH_SCALAR: &[(&str, &str)] = &[
    ("json, varchar(y)", "varchar"),
    ("varchar(x), varchar(y)", "varchar"),
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
        Lower::Template("qm_json_parse({0})"),
        "Parse string to JSON",
    ),
    scalar(
        "json_format",
        &[("json", "varchar")],
        Typing::Resolved,
        Lower::Template("{0}"),
        "Serialize JSON to a string",
    ),
    scalar(
        "json_extract",
        PATH,
        Typing::Resolved,
        Lower::Template("qm_json_extract({0}, {1})"),
        "Extract a JSON value by a JSONPath-like expression",
    ),
    scalar(
        "json_extract_scalar",
        PATH_SCALAR,
        Typing::Resolved,
        Lower::Template("qm_json_extract_scalar({0}, {1})"),
        "Extract a scalar JSON value as a string by a JSONPath-like expression",
    ),
    scalar(
        "json_size",
        PATH_SIZE,
        Typing::Resolved,
        Lower::Template("qm_json_size({0}, {1})"),
        "Size of the JSON value at a JSONPath-like expression",
    ),
    scalar(
        "json_array_length",
        JSON_OR_TEXT,
        Typing::Resolved,
        Lower::Template("qm_json_array_length({0})"),
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
        Lower::Template("qm_json_array_get({0}, {1})"),
        "Element of a JSON array at an index (negative from the end); strings come back unquoted",
    ),
    scalar(
        "is_json_scalar",
        &[("json", "boolean"), ("varchar(x)", "boolean")],
        Typing::Resolved,
        Lower::Template("qm_is_json_scalar({0})"),
        "Whether the JSON value is a scalar (not an array or object)",
    ),
];

/// The kind of the value json_array_contains looks for, which decides what it matches.
fn array_contains(_: &mut Analyzer<'_>, call: &Call) -> LowerResult {
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
        format!(
            "qm_json_array_contains({}, {}, '{kind}')",
            json.sql, value.sql
        ),
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
    Ok(Typed::new(sql_string(&canonical), TrinoType::Json))
}

/// The kind `qm_json_from` / `qm_json_to` take for a scalar type, if json casts to or from it
/// (docs functions/json "Cast to JSON", "Cast from JSON").
pub(super) fn scalar_kind(t: &TrinoType) -> Option<String> {
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
fn json_castable(t: &TrinoType) -> bool {
    match t {
        TrinoType::Json => true,
        TrinoType::Array(e) => json_castable(e),
        TrinoType::Map(k, v) => scalar_kind(k).is_some() && json_castable(v),
        TrinoType::Row(fields) => fields.iter().all(|(_, t)| json_castable(t)),
        t => scalar_kind(t).is_some(),
    }
}

/// A type's text for [`TrinoType::parse`], row field names quoted so they keep their case.
fn type_text(t: &TrinoType) -> String {
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

impl Analyzer<'_> {
    /// CAST / TRY_CAST where one side is json (complex.rs sends them here).
    pub fn json_cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let container = t.ty.is_container() || target.is_container();
        if !container {
            return self.json_scalar_cast(t, target, try_cast, at);
        }
        let other = if t.ty == TrinoType::Json {
            target
        } else {
            &t.ty
        };
        if !json_castable(other) {
            return Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot cast {} to {target}", t.ty),
            ));
        }
        let sql = if t.ty == TrinoType::Json {
            format!(
                "qm_json_to_complex({}, {}, {})",
                t.sql,
                sql_string(&type_text(target)),
                i32::from(try_cast)
            )
        } else {
            format!(
                "qm_json_from_complex({}, {})",
                t.sql,
                sql_string(&type_text(&t.ty))
            )
        };
        Ok(Typed::new(sql, target.clone()))
    }

    /// CAST / TRY_CAST to or from json between json and scalars.
    pub fn json_scalar_cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let refuse = || {
            error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot cast {} to {target}", t.ty),
            )
        };
        let sql = match (&t.ty, target) {
            (TrinoType::Json, TrinoType::Json) => t.sql.clone(),
            (TrinoType::Unknown, _) => "NULL".into(),
            (from, TrinoType::Json) => {
                let kind = match from {
                    t if t.is_string() => "varchar".to_string(),
                    other => scalar_kind(other).ok_or_else(refuse)?,
                };
                format!("qm_json_from({}, '{kind}')", t.sql)
            }
            (TrinoType::Json, to) => {
                let kind = scalar_kind(to).ok_or_else(refuse)?;
                format!("qm_json_to({}, '{kind}', {})", t.sql, i32::from(try_cast))
            }
            _ => return Err(refuse()),
        };
        Ok(Typed::new(sql, target.clone()))
    }
}

//! Trino's vector functions (docs functions/math, "Vector functions"; ArrayVectorFunctions and
//! MathFunctions.cosineSimilarity of sparse vectors): euclidean_distance, dot_product,
//! cosine_similarity and cosine_distance of two array(double), and cosine_similarity of two
//! map(varchar, double). Arrays of other numbers reach them coerced to array(double).

use std::collections::HashMap;

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::{Value, ValueRef};

use crate::Call;
use crate::context::LowerContext;
use crate::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};
use crate::udf::{FLAGS, define, fail, real};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use querymesh_values::sqlite_expr::{SqlExpr, SqliteFn};

pub const QM_VECTOR: SqliteFn = SqliteFn::new("qm_vector");
pub const QM_SPARSE_COSINE_SIMILARITY: SqliteFn = SqliteFn::new("qm_sparse_cosine_similarity");

const ARRAYS: &[(&str, &str)] = &[("array(double), array(double)", "double")];

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "euclidean_distance",
        ARRAYS,
        Typing::Resolved,
        Lower::Scalar(|_, c| Ok(Some(vector_measure("euclidean_distance", c)))),
        "Calculates the euclidean distance between two vectors",
    ),
    scalar(
        "dot_product",
        ARRAYS,
        Typing::Resolved,
        Lower::Scalar(|_, c| Ok(Some(vector_measure("dot_product", c)))),
        "Calculates the dot product between two vectors",
    ),
    scalar(
        "cosine_distance",
        ARRAYS,
        Typing::Resolved,
        Lower::Scalar(|_, c| Ok(Some(vector_measure("cosine_distance", c)))),
        "Calculates the cosine distance between two vectors",
    ),
    scalar(
        "cosine_similarity",
        &[
            ("array(double), array(double)", "double"),
            ("map(varchar,double), map(varchar,double)", "double"),
        ],
        Typing::Resolved,
        Lower::Scalar(cosine_similarity),
        "Calculates the cosine similarity between two vectors",
    ),
];

fn cosine_similarity(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a, b] = c.args.as_slice() else {
        return Ok(None);
    };
    Ok(Some(if matches!(a.ty, TrinoType::Map(..)) {
        Typed::new(
            QM_SPARSE_COSINE_SIMILARITY.call([a.sql.clone(), b.sql.clone()]),
            TrinoType::Double,
        )
    } else {
        vector_measure("cosine_similarity", c)
    }))
}

/// `qm_vector(measure, a, b)` of two array(double).
fn vector_measure(measure: &str, c: &Call) -> Typed {
    let args = std::iter::once(SqlExpr::text(measure)).chain(c.arg_exprs());
    Typed::new(QM_VECTOR.call(args), TrinoType::Double)
}

fn invalid(text: &str) -> rusqlite::Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

/// A double element in element form: a number, NULL, or NaN and the infinities as text.
fn element(v: &serde_json::Value) -> Option<f64> {
    match v {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => match s.as_str() {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            other => other.parse().ok(),
        },
        _ => None,
    }
}

/// An array(double) argument: its elements (None for NULL). SQLite writes an infinite double
/// as a number too large for a double (`9e999`), which serde_json refuses, so the flat array
/// is read by hand: a double's text never holds a comma or a bracket.
fn vector(text: &[u8]) -> rusqlite::Result<Vec<Option<f64>>> {
    let corrupt = || invalid("array(double) argument is not an array");
    let text = std::str::from_utf8(text).map_err(|_| corrupt())?.trim();
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(corrupt)?;
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    inner
        .split(',')
        .map(|item| {
            let item = item.trim();
            if item == "null" {
                return Ok(None);
            }
            match item.trim_matches('"') {
                "NaN" => Ok(Some(f64::NAN)),
                "Infinity" => Ok(Some(f64::INFINITY)),
                "-Infinity" => Ok(Some(f64::NEG_INFINITY)),
                number => number.parse().map(Some).map_err(|_| corrupt()),
            }
        })
        .collect()
}

/// ArrayVectorFunctions, for two vectors of the same length. Only cosine_similarity (and so
/// cosine_distance) answers NULL for a NULL element; the others read one as 0, as Trino's
/// `DOUBLE.getDouble` of a null position does.
pub fn vector_function(
    name: &str,
    a: &[Option<f64>],
    b: &[Option<f64>],
) -> rusqlite::Result<Option<f64>> {
    if a.len() != b.len() {
        return Err(invalid("The arguments must have the same length"));
    }
    let pairs = || a.iter().zip(b);
    Ok(match name {
        "euclidean_distance" => Some(
            pairs()
                .map(|(x, y)| x.unwrap_or(0.0) - y.unwrap_or(0.0))
                .fold(0.0, |sum, d| sum + d * d)
                .sqrt(),
        ),
        "dot_product" => {
            Some(pairs().fold(0.0, |sum, (x, y)| sum + x.unwrap_or(0.0) * y.unwrap_or(0.0)))
        }
        "cosine_similarity" | "cosine_distance" => {
            let (mut first, mut second, mut dot) = (0.0, 0.0, 0.0);
            for (x, y) in pairs() {
                let (Some(x), Some(y)) = (x, y) else {
                    return Ok(None);
                };
                first += x * x;
                second += y * y;
                dot += x * y;
            }
            if first == 0.0 || second == 0.0 {
                return Err(invalid("Vector magnitude cannot be zero"));
            }
            let similarity = dot / (first * second).sqrt();
            Some(if name == "cosine_distance" {
                1.0 - similarity
            } else {
                similarity
            })
        }
        _ => None,
    })
}

/// A map(varchar, double) argument: its pairs, a NULL value as None.
fn sparse(text: &[u8]) -> rusqlite::Result<Vec<(String, Option<f64>)>> {
    let pairs: Vec<(String, serde_json::Value)> = serde_json::from_slice(text)
        .map_err(|_| invalid("map(varchar, double) argument is not a map"))?;
    Ok(pairs.into_iter().map(|(k, v)| (k, element(&v))).collect())
}

/// MathFunctions.cosineSimilarity of sparse vectors: NULL when a value is NULL, else the dot
/// product over the shared keys divided by the norms (NaN for a zero vector, 0/0 in Java).
pub fn sparse_cosine_similarity(
    a: &[(String, Option<f64>)],
    b: &[(String, Option<f64>)],
) -> Option<f64> {
    let norm = |m: &[(String, Option<f64>)]| {
        m.iter()
            .try_fold(0.0, |sum, (_, v)| v.map(|v| sum + v * v))
            .map(f64::sqrt)
    };
    let (left, right) = (norm(a)?, norm(b)?);
    let right_values: HashMap<&str, f64> = b
        .iter()
        .filter_map(|(k, v)| v.map(|v| (k.as_str(), v)))
        .collect();
    let dot = a
        .iter()
        .filter_map(|(k, v)| Some(v.as_ref()? * right_values.get(k.as_str())?))
        .fold(0.0, |sum, p| sum + p);
    Some(dot / (left * right))
}

fn text_of<'a>(v: ValueRef<'a>) -> Option<&'a [u8]> {
    match v {
        ValueRef::Text(t) => Some(t),
        _ => None,
    }
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // qm_vector(function name, array, array)
    define(conn, QM_VECTOR.name(), 3, FLAGS, |ctx| {
        let name: String = ctx.get(0)?;
        let (Some(a), Some(b)) = (text_of(ctx.get_raw(1)), text_of(ctx.get_raw(2))) else {
            return Ok(Value::Null);
        };
        let (a, b) = (vector(a)?, vector(b)?);
        Ok(vector_function(&name, &a, &b)?.map_or(Value::Null, real))
    })?;
    define(conn, QM_SPARSE_COSINE_SIMILARITY.name(), 2, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (text_of(ctx.get_raw(0)), text_of(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        let (a, b) = (sparse(a)?, sparse(b)?);
        Ok(sparse_cosine_similarity(&a, &b).map_or(Value::Null, real))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_as_trino_answers() {
        // Trino 476 (docs functions/math, "Vector functions").
        let v = |s: &str| vector(s.as_bytes()).unwrap();
        let f = |n: &str, a: &str, b: &str| vector_function(n, &v(a), &v(b));
        assert_eq!(
            f("euclidean_distance", "[0.0,0.0]", "[3,4]").unwrap(),
            Some(5.0)
        );
        assert_eq!(f("dot_product", "[1,2,3]", "[4,5,6]").unwrap(), Some(32.0));
        assert_eq!(f("dot_product", "[1,null]", "[1,1]").unwrap(), Some(1.0));
        assert_eq!(f("cosine_similarity", "[1,null]", "[1,1]").unwrap(), None);
        assert_eq!(
            f("cosine_similarity", "[1.0,2.0]", "[3.0,4.0]").unwrap(),
            Some(0.983_869_910_099_907_4)
        );
        assert!(f("cosine_similarity", "[0,0]", "[1,1]").is_err());
        assert!(f("dot_product", "[1]", "[1,2]").is_err());
        assert_eq!(f("dot_product", "[]", "[]").unwrap(), Some(0.0));
        assert!(v("[9e999,\"NaN\"]")[0].is_some_and(f64::is_infinite));
        let m = |s: &str| sparse(s.as_bytes()).unwrap();
        assert_eq!(
            sparse_cosine_similarity(
                &m(r#"[["a",1.0],["b",2.0]]"#),
                &m(r#"[["b",3.0],["c",4.0]]"#)
            ),
            Some(0.536_656_314_599_949_4)
        );
        assert_eq!(
            sparse_cosine_similarity(&m(r#"[["a",null]]"#), &m(r#"[["a",1]]"#)),
            None
        );
    }
}

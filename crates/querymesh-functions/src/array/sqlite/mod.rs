//! The `qm_*` SQLite functions of Trino's array functions (docs functions/array): each takes
//! arrays as their JSON text (elements in element form, docs/complex-design.md) and, where it
//! compares elements, the element type as a constant text (`TrinoType::parse`), so `1` and
//! `1.0` are the same double and nested values compare field by field. A function returning
//! one element returns it wrapped in a one-element JSON array (`[e]`), which the lowering
//! unwraps with `json_extract(…, '$[0]')` into the top-level form of any type.

use std::collections::VecDeque;

use querymesh_values::error::ErrorName;
use querymesh_values::types::TrinoType;
use rusqlite::Connection;
use rusqlite::functions::{Aggregate, Context, FunctionFlags, WindowAggregate};
use rusqlite::types::ValueRef;
use serde_json::Value;

use crate::udf::{FLAGS, fail, reserve};

mod build;
mod sort_key;
pub(crate) mod values;

use crate::udf::{define, define_window};
#[cfg(test)]
use build::{month_sequence, sequence, split};
use values::{bool_of, compare, distinct, equal, identical, identity_key, key_set, number};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_NOT_DISTINCT: SqliteFn = SqliteFn::new("qm_not_distinct");

fn invalid(text: impl Into<String>) -> rusqlite::Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

fn corrupt() -> rusqlite::Error {
    fail(
        ErrorName::GenericInternalError,
        "An array value is not valid",
    )
}

fn text_of(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Null => None,
    }
}

/// Argument `i` as a JSON array; `None` for SQL NULL.
fn array_arg(ctx: &Context<'_>, i: usize) -> rusqlite::Result<Option<Vec<Value>>> {
    match text_of(ctx.get_raw(i)) {
        None => Ok(None),
        Some(t) => serde_json::from_str(&t).map(Some).map_err(|_| corrupt()),
    }
}

/// Argument `i`, one value wrapped in a JSON array by the lowering (`json_array(x)`).
fn element_arg(ctx: &Context<'_>, i: usize) -> rusqlite::Result<Value> {
    Ok(array_arg(ctx, i)?
        .and_then(|v| v.into_iter().next())
        .unwrap_or(Value::Null))
}

fn type_arg(ctx: &Context<'_>, i: usize) -> rusqlite::Result<TrinoType> {
    let text: String = ctx.get(i)?;
    TrinoType::parse(&text).map_err(|e| fail(ErrorName::GenericInternalError, e))
}

fn int_arg(ctx: &Context<'_>, i: usize) -> Option<i64> {
    match ctx.get_raw(i) {
        ValueRef::Integer(n) => Some(n),
        ValueRef::Real(r) => Some(r as i64),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

/// The JSON text of `values`, after asking the query's budget for it.
fn array_text(values: &[Value]) -> rusqlite::Result<String> {
    let text = serde_json::to_string(values).map_err(|_| corrupt())?;
    reserve(text.len())?;
    Ok(text)
}

/// One element as the lowering unwraps it: `[e]`.
fn wrapped(v: Value) -> rusqlite::Result<Option<String>> {
    if v.is_null() {
        return Ok(None);
    }
    array_text(&[v]).map(Some)
}

/// The element type of an `array(E)` type text.
fn element_type(ctx: &Context<'_>, i: usize) -> rusqlite::Result<TrinoType> {
    type_arg(ctx, i)
}

/// `element_at(array, i)`: the `json_extract` path, or NULL past either end
/// (ArrayElementAtFunction: 0 is an error, negative indices count from the end).
fn element_path(length: i64, index: i64) -> rusqlite::Result<Option<String>> {
    if index == 0 {
        return Err(invalid("SQL array indices start at 1"));
    }
    let position = if index < 0 { length + index } else { index - 1 };
    Ok((0..length)
        .contains(&position)
        .then(|| format!("$[{position}]")))
}

/// ArraySliceFunction.
fn slice(values: Vec<Value>, from: i64, length: i64) -> rusqlite::Result<Vec<Value>> {
    if length < 0 {
        return Err(invalid("length must be greater than or equal to 0"));
    }
    if from == 0 {
        return Err(invalid("SQL array indices start at 1"));
    }
    let size = values.len() as i64;
    let from = if from < 0 { size + from + 1 } else { from };
    let to = from.saturating_add(length).min(size + 1);
    if from >= to || from < 1 {
        return Ok(Vec::new());
    }
    Ok(values
        .into_iter()
        .skip((from - 1) as usize)
        .take((to - from) as usize)
        .collect())
}

/// An element as `CAST(e AS varchar)` writes it, for array_join.
fn varchar_of(v: &Value, ty: &TrinoType) -> String {
    match (ty, v) {
        (TrinoType::Boolean, _) => bool_of(v).unwrap_or(false).to_string(),
        (TrinoType::Double, _) => number(v).map_or_else(
            || v.to_string(),
            querymesh_values::java_number::double_to_varchar,
        ),
        (TrinoType::Real, _) => number(v).map_or_else(
            || v.to_string(),
            |x| querymesh_values::java_number::float_to_varchar(x as f32),
        ),
        // The element form of a decimal is its unscaled value (decimal.rs).
        (TrinoType::Decimal { scale, .. }, _) => {
            let unscaled = match v {
                Value::Number(n) => n.as_i64().map(i128::from),
                Value::String(s) => s.parse().ok(),
                _ => None,
            };
            unscaled.map_or_else(
                || v.to_string(),
                |u| querymesh_values::decimal::format(u, u32::from(*scale)),
            )
        }
        (TrinoType::Timestamp(p), Value::String(s)) => crate::udf::timestamp_text(s, *p),
        (TrinoType::TimestampTz(p), Value::String(s)) => {
            crate::datetime::time_zone::sqlite::parse_stored(s)
                .map_or_else(|| s.clone(), |z| z.display(*p))
        }
        (_, Value::String(s)) => s.clone(),
        _ => v.to_string(),
    }
}

/// ArrayIntersectFunction / ArrayUnionFunction / ArrayExceptFunction (identity, no
/// duplicates; intersect walks the longer array, the left one when they are as long).
fn set_operation(left: Vec<Value>, right: Vec<Value>, ty: &TrinoType, op: &str) -> Vec<Value> {
    match op {
        "intersect" => {
            let (walk, other) = if left.len() < right.len() {
                (right, left)
            } else {
                (left, right)
            };
            let other = key_set(&other, ty);
            distinct(
                walk.into_iter()
                    .filter(|v| other.contains(&identity_key(v, ty)))
                    .collect(),
                ty,
            )
        }
        "union" => distinct(left.into_iter().chain(right).collect(), ty),
        _ => {
            let right = key_set(&right, ty);
            distinct(
                left.into_iter()
                    .filter(|v| !right.contains(&identity_key(v, ty)))
                    .collect(),
                ty,
            )
        }
    }
}

/// `array_agg(x)`: the elements in input order (or the call's ORDER BY), NULLs kept; no
/// rows give NULL. Also a window function: a frame's rows leave it in the order they came.
struct ArrayAgg;

impl Aggregate<VecDeque<Value>, Option<String>> for ArrayAgg {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<VecDeque<Value>> {
        Ok(VecDeque::new())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut VecDeque<Value>) -> rusqlite::Result<()> {
        let raw = text_of(ctx.get_raw(0)).unwrap_or_default();
        let v = serde_json::from_str::<Vec<Value>>(&raw)
            .ok()
            .and_then(|v| v.into_iter().next())
            .unwrap_or(Value::Null);
        acc.push_back(v);
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        mut acc: Option<VecDeque<Value>>,
    ) -> rusqlite::Result<Option<String>> {
        self.value(acc.as_mut())
    }
}

impl WindowAggregate<VecDeque<Value>, Option<String>> for ArrayAgg {
    fn value(&self, acc: Option<&mut VecDeque<Value>>) -> rusqlite::Result<Option<String>> {
        match acc {
            Some(values) if !values.is_empty() => array_text(values.make_contiguous()).map(Some),
            _ => Ok(None),
        }
    }

    fn inverse(&self, _: &mut Context<'_>, acc: &mut VecDeque<Value>) -> rusqlite::Result<()> {
        acc.pop_front();
        Ok(())
    }
}

fn register_array_fn(
    conn: &Connection,
    name: &'static str,
    args: i32,
    f: impl Fn(&Context<'_>) -> rusqlite::Result<Option<String>> + Send + Sync + 'static,
) -> rusqlite::Result<()> {
    define(conn, name, args, FLAGS, move |ctx| f(ctx))
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    build::register(conn)?;
    // `a IS NOT DISTINCT FROM b` for values of the complex type named by argument 2, each
    // wrapped in a JSON array (`json_array(x)`): NULL parts are identical to each other, maps
    // match pair by pair in any order (TestMapOperators.testDistinctFrom).
    define(conn, QM_NOT_DISTINCT.name(), 3, FLAGS, |ctx| {
        let (a, b) = (element_arg(ctx, 0)?, element_arg(ctx, 1)?);
        let ty = type_arg(ctx, 2)?;
        Ok(identical(&a, &b, &ty))
    })?;
    define(conn, "qm_array_contains", 3, FLAGS, |ctx| {
        let (Some(values), x) = (array_arg(ctx, 0)?, element_arg(ctx, 1)?) else {
            return Ok(None);
        };
        if x.is_null() {
            return Ok(None);
        }
        let ty = element_type(ctx, 2)?;
        let mut found_null = false;
        for v in &values {
            if v.is_null() {
                found_null = true;
                continue;
            }
            match equal(v, &x, &ty) {
                Some(true) => return Ok(Some(true)),
                Some(false) => {}
                None => {
                    return Err(fail(
                        ErrorName::NotSupported,
                        "contains does not support arrays with elements that are null or contain null",
                    ));
                }
            }
        }
        Ok((!found_null).then_some(false))
    })?;
    define(conn, "qm_array_position", 3, FLAGS, |ctx| {
        let (Some(values), x) = (array_arg(ctx, 0)?, element_arg(ctx, 1)?) else {
            return Ok(None);
        };
        if x.is_null() {
            return Ok(None);
        }
        let ty = element_type(ctx, 2)?;
        for (i, v) in values.iter().enumerate() {
            if v.is_null() {
                continue;
            }
            match equal(v, &x, &ty) {
                Some(true) => return Ok(Some(i as i64 + 1)),
                Some(false) => {}
                None => {
                    return Err(fail(
                        ErrorName::NotSupported,
                        "array_position does not support arrays with elements that are null or contain null",
                    ));
                }
            }
        }
        Ok(Some(0))
    })?;
    register_array_fn(conn, "qm_array_remove", 3, |ctx| {
        let (Some(values), x) = (array_arg(ctx, 0)?, element_arg(ctx, 1)?) else {
            return Ok(None);
        };
        if x.is_null() {
            return Ok(None);
        }
        let ty = element_type(ctx, 2)?;
        let mut kept = Vec::with_capacity(values.len());
        for v in values {
            if v.is_null() {
                kept.push(v);
                continue;
            }
            match equal(&v, &x, &ty) {
                Some(true) => {}
                Some(false) => kept.push(v),
                None => {
                    return Err(fail(
                        ErrorName::NotSupported,
                        "array_remove does not support arrays with elements that are null or contain null",
                    ));
                }
            }
        }
        array_text(&kept).map(Some)
    })?;
    register_array_fn(conn, "qm_array_distinct", 2, |ctx| {
        let Some(values) = array_arg(ctx, 0)? else {
            return Ok(None);
        };
        array_text(&distinct(values, &element_type(ctx, 1)?)).map(Some)
    })?;
    register_array_fn(conn, "qm_array_sort", 2, |ctx| {
        let Some(mut values) = array_arg(ctx, 0)? else {
            return Ok(None);
        };
        let ty = element_type(ctx, 1)?;
        values.sort_by(|a, b| compare(a, b, &ty));
        array_text(&values).map(Some)
    })?;
    // ArrayMaxFunction / ArrayMinFunction: NULL when any element is NULL.
    register_array_fn(conn, "qm_array_extreme", 3, |ctx| {
        let Some(values) = array_arg(ctx, 0)? else {
            return Ok(None);
        };
        let ty = element_type(ctx, 1)?;
        let max: bool = ctx.get(2)?;
        if values.iter().any(Value::is_null) {
            return Ok(None);
        }
        // Trino 476 passes over NaN doubles unless there is nothing else:
        // array_max(ARRAY[1e0, nan()]) and array_min(ARRAY[1e0, nan()]) are both 1.0.
        let is_nan = |v: &Value| values::number(v).is_some_and(f64::is_nan);
        let values: Vec<Value> = if values.iter().all(is_nan) {
            values
        } else {
            values.into_iter().filter(|v| !is_nan(v)).collect()
        };
        let best = values.into_iter().reduce(|best, v| {
            let o = compare(&v, &best, &ty);
            if (max && o.is_gt()) || (!max && o.is_lt()) {
                v
            } else {
                best
            }
        });
        wrapped(best.unwrap_or(Value::Null))
    })?;
    define(conn, "qm_element_path", 2, FLAGS, |ctx| {
        match (int_arg(ctx, 0), int_arg(ctx, 1)) {
            (Some(length), Some(index)) => element_path(length, index),
            _ => Ok(None),
        }
    })?;
    // element_at(map, key): the value, NULL when the key is missing (MapElementAtFunction).
    register_array_fn(conn, "qm_map_element", 3, |ctx| {
        let (Some(pairs), key) = (array_arg(ctx, 0)?, element_arg(ctx, 1)?) else {
            return Ok(None);
        };
        let ty = type_arg(ctx, 2)?;
        let found = pairs.into_iter().find_map(|pair| match pair {
            Value::Array(mut kv) if kv.len() == 2 && identical(&kv[0], &key, &ty) => kv.pop(),
            _ => None,
        });
        wrapped(found.unwrap_or(Value::Null))
    })?;
    // ArrayJoin: elements cast to varchar; NULLs skipped, or replaced when a replacement is
    // given (a NULL replacement makes the result NULL, the function not being nullable).
    define(conn, "qm_array_join", 5, FLAGS, |ctx| {
        let Some(values) = array_arg(ctx, 0)? else {
            return Ok(None);
        };
        let ty = element_type(ctx, 1)?;
        let Some(delimiter) = text_of(ctx.get_raw(2)) else {
            return Ok(None);
        };
        let has_replacement: bool = ctx.get(3)?;
        let replacement = text_of(ctx.get_raw(4));
        if has_replacement && replacement.is_none() {
            return Ok(None);
        }
        let parts: Vec<String> = values
            .iter()
            .filter_map(|v| match v {
                Value::Null => replacement.clone(),
                v => Some(varchar_of(v, &ty)),
            })
            .collect();
        let bytes: usize = parts.iter().map(String::len).sum::<usize>()
            + delimiter.len() * parts.len().saturating_sub(1);
        reserve(bytes)?;
        Ok(Some(parts.join(&delimiter)))
    })?;
    register_array_fn(conn, "qm_slice", 3, |ctx| {
        let (Some(values), Some(from), Some(length)) =
            (array_arg(ctx, 0)?, int_arg(ctx, 1), int_arg(ctx, 2))
        else {
            return Ok(None);
        };
        array_text(&slice(values, from, length)?).map(Some)
    })?;
    register_array_fn(conn, "qm_trim_array", 2, |ctx| {
        let (Some(mut values), Some(n)) = (array_arg(ctx, 0)?, int_arg(ctx, 1)) else {
            return Ok(None);
        };
        if n < 0 {
            return Err(invalid(format!("size must not be negative: {n}")));
        }
        if n > values.len() as i64 {
            return Err(invalid(format!(
                "size must not exceed array cardinality {}: {n}",
                values.len()
            )));
        }
        values.truncate(values.len() - n as usize);
        array_text(&values).map(Some)
    })?;
    // ArrayFlattenFunction: NULL inner arrays contribute nothing.
    register_array_fn(conn, "qm_flatten", 1, |ctx| {
        let Some(values) = array_arg(ctx, 0)? else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for v in values {
            match v {
                Value::Array(inner) => out.extend(inner),
                Value::Null => {}
                _ => return Err(corrupt()),
            }
        }
        array_text(&out).map(Some)
    })?;
    // zip(a1, a2, …): rows of the i-th elements, NULL-padded to the longest array.
    register_array_fn(conn, "qm_zip", -1, |ctx| {
        let mut arrays = Vec::with_capacity(ctx.len());
        for i in 0..ctx.len() {
            match array_arg(ctx, i)? {
                Some(a) => arrays.push(a),
                None => return Ok(None),
            }
        }
        let longest = arrays.iter().map(Vec::len).max().unwrap_or(0);
        reserve(longest.saturating_mul(arrays.len()).saturating_mul(8))?;
        let rows: Vec<Value> = (0..longest)
            .map(|i| {
                Value::Array(
                    arrays
                        .iter()
                        .map(|a| a.get(i).cloned().unwrap_or(Value::Null))
                        .collect(),
                )
            })
            .collect();
        array_text(&rows).map(Some)
    })?;
    // concat(a1, a2, …) of arrays (ArrayConcatFunction): NULL when any is NULL.
    register_array_fn(conn, "qm_array_concat", -1, |ctx| {
        let mut out = Vec::new();
        for i in 0..ctx.len() {
            match array_arg(ctx, i)? {
                Some(a) => out.extend(a),
                None => return Ok(None),
            }
        }
        array_text(&out).map(Some)
    })?;
    // ArrayHistogramFunction: a map of each non-NULL element to its count, in first-seen order.
    register_array_fn(conn, "qm_array_histogram", 2, |ctx| {
        let Some(values) = array_arg(ctx, 0)? else {
            return Ok(None);
        };
        let ty = element_type(ctx, 1)?;
        let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut pairs: Vec<(Value, i64)> = Vec::new();
        for v in values.into_iter().filter(|v| !v.is_null()) {
            let key = identity_key(&v, &ty);
            match index.get(&key) {
                Some(&i) => pairs[i].1 += 1,
                None => {
                    index.insert(key, pairs.len());
                    pairs.push((v, 1));
                }
            }
        }
        let map: Vec<Value> = pairs
            .into_iter()
            .map(|(k, n)| Value::Array(vec![k, Value::from(n)]))
            .collect();
        array_text(&map).map(Some)
    })?;
    register_array_fn(conn, "qm_reverse_array", 1, |ctx| {
        let Some(mut values) = array_arg(ctx, 0)? else {
            return Ok(None);
        };
        values.reverse();
        array_text(&values).map(Some)
    })?;
    // ArrayContainsSequence: `seq` appears in `a` as consecutive elements.
    define(conn, "qm_contains_sequence", 3, FLAGS, |ctx| {
        let (Some(values), Some(seq)) = (array_arg(ctx, 0)?, array_arg(ctx, 1)?) else {
            return Ok(None);
        };
        let ty = element_type(ctx, 2)?;
        if seq.is_empty() {
            return Ok(Some(true));
        }
        Ok(Some(values.windows(seq.len()).any(|w| {
            w.iter().zip(&seq).all(|(a, b)| identical(a, b, &ty))
        })))
    })?;
    define(conn, "qm_arrays_overlap", 3, FLAGS, |ctx| {
        let (Some(left), Some(right)) = (array_arg(ctx, 0)?, array_arg(ctx, 1)?) else {
            return Ok(None);
        };
        if left.is_empty() || right.is_empty() {
            return Ok(Some(false));
        }
        let ty = element_type(ctx, 2)?;
        let right_keys = key_set(&right, &ty);
        let found = left
            .iter()
            .filter(|v| !v.is_null())
            .any(|v| right_keys.contains(&identity_key(v, &ty)));
        if found {
            return Ok(Some(true));
        }
        let nulls = left.iter().chain(&right).any(Value::is_null);
        Ok((!nulls).then_some(false))
    })?;
    register_array_fn(conn, "qm_array_set", 4, |ctx| {
        let (Some(left), Some(right)) = (array_arg(ctx, 0)?, array_arg(ctx, 1)?) else {
            return Ok(None);
        };
        let ty = element_type(ctx, 2)?;
        let op: String = ctx.get(3)?;
        array_text(&set_operation(left, right, &ty, &op)).map(Some)
    })?;
    // The comparator of array_sort(a, (x, y) -> …) must answer -1, 0 or 1
    // (ArraySortComparatorFunction).
    // ORDER BY an array or row (sort_key.rs): the type as its second argument.
    define(conn, "qm_sort_key", 2, FLAGS, |ctx| {
        let (ValueRef::Text(value), ValueRef::Text(ty)) = (ctx.get_raw(0), ctx.get_raw(1)) else {
            return Ok(None);
        };
        let ty = TrinoType::parse(&String::from_utf8_lossy(ty)).unwrap_or(TrinoType::Unknown);
        reserve(value.len())?;
        Ok(sort_key::sort_key(&String::from_utf8_lossy(value), &ty))
    })?;
    define(conn, "qm_comparator", 1, FLAGS, |ctx| {
        match int_arg(ctx, 0) {
            Some(v @ -1..=1) if !matches!(ctx.get_raw(0), ValueRef::Null) => Ok(v),
            _ => Err(invalid("Lambda comparator must return either -1, 0, or 1")),
        }
    })?;
    define_window(
        conn,
        "qm_array_agg",
        1,
        FunctionFlags::SQLITE_UTF8.union(FunctionFlags::SQLITE_DETERMINISTIC),
        ArrayAgg,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use querymesh_values::calendar;
    use serde_json::json;
    use std::cmp::Ordering;

    fn values(v: Value) -> Vec<Value> {
        v.as_array().cloned().unwrap_or_default()
    }

    #[test]
    fn elements_compare_by_trino_type() {
        let double = TrinoType::Double;
        assert!(identical(&json!(1), &json!(1.0), &double));
        assert_eq!(
            compare(&json!(2), &json!(10), &TrinoType::Integer),
            Ordering::Less
        );
        assert_eq!(
            compare(&json!("b"), &json!("ab"), &TrinoType::Varchar(None)),
            Ordering::Greater
        );
        let nested = TrinoType::Array(Box::new(TrinoType::Integer));
        assert_eq!(equal(&json!([1, null]), &json!([1, 2]), &nested), None);
        assert_eq!(
            equal(&json!([1, null]), &json!([2, 2]), &nested),
            Some(false)
        );
        assert!(identical(&json!([1, null]), &json!([1, null]), &nested));
        for (a, b, t) in [
            (json!(1), json!(1.0), double.clone()),
            (
                json!([1, null]),
                json!([1.0, null]),
                TrinoType::Array(Box::new(TrinoType::Double)),
            ),
            (
                json!([["a", 1], ["b", 2]]),
                json!([["b", 2], ["a", 1]]),
                TrinoType::Map(
                    Box::new(TrinoType::Varchar(None)),
                    Box::new(TrinoType::Integer),
                ),
            ),
            (json!("1"), json!(1), TrinoType::Varchar(None)),
            (json!(true), json!(1), TrinoType::Boolean),
        ] {
            assert_eq!(
                identity_key(&a, &t) == identity_key(&b, &t),
                identical(&a, &b, &t),
                "{a} {b}"
            );
        }
        // 0x68 before 0xD0 0xA0, though base64 "aA==" sorts after "0KA=" as text.
        assert_eq!(
            compare(&json!("aA=="), &json!("0KA="), &TrinoType::Varbinary),
            Ordering::Less
        );
        let mut v = values(json!([3, null, 1, 2]));
        v.sort_by(|a, b| compare(a, b, &TrinoType::Integer));
        assert_eq!(v, values(json!([1, 2, 3, null])));
    }

    #[test]
    fn slices_sequences_and_splits_follow_trino() {
        // ArraySliceFunction.
        let a = values(json!([1, 2, 3, 4, 5]));
        assert_eq!(slice(a.clone(), 1, 2).ok(), Some(values(json!([1, 2]))));
        assert_eq!(slice(a.clone(), -2, 5).ok(), Some(values(json!([4, 5]))));
        assert_eq!(slice(a.clone(), 7, 2).ok(), Some(vec![]));
        assert!(slice(a.clone(), 0, 1).is_err());
        assert!(slice(a, 1, -1).is_err());
        // SequenceFunction.
        assert_eq!(sequence(1, 5, 2).ok(), Some(vec![1, 3, 5]));
        assert_eq!(sequence(5, 1, -2).ok(), Some(vec![5, 3, 1]));
        assert!(sequence(1, 5, 0).is_err());
        assert!(sequence(1, 5, -1).is_err());
        assert!(sequence(0, 10_000, 1).is_err());
        assert!(sequence(i64::MIN, i64::MAX, 1).is_err());
        assert_eq!(sequence(1, 10_000, 1).map(|v| v.len()).ok(), Some(10_000));
        let jan31 = calendar::days_from_civil(2016, 1, 31);
        let months = month_sequence(jan31, calendar::days_from_civil(2016, 4, 30), 1).unwrap();
        let shown: Vec<String> = months.into_iter().map(calendar::format_date).collect();
        assert_eq!(
            shown,
            ["2016-01-31", "2016-02-29", "2016-03-31", "2016-04-30"]
        );
        // StringFunctions.split.
        assert_eq!(
            split("a.b..", ".", Some(3)).ok(),
            Some(values(json!(["a", "b", "."])))
        );
        assert!(split("a", "", None).is_err());
        assert!(split("a", ".", Some(0)).is_err());
        assert_eq!(element_path(3, -1).ok(), Some(Some("$[2]".into())));
        assert_eq!(element_path(3, 4).ok(), Some(None));
        assert!(element_path(3, 0).is_err());
    }

    #[test]
    fn map_element_at_is_null_for_a_missing_key() {
        // docs functions/map element_at(map(K, V), key): NULL when the key is not present.
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        let at = |key: &str| -> Option<String> {
            conn.query_row(
                "SELECT qm_map_element('[[\"a\",1],[2.0,[3]]]', ?1, 'varchar')",
                [key],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert_eq!(at(r#"["a"]"#).as_deref(), Some("[1]"));
        assert_eq!(at(r#"["b"]"#), None);
        assert_eq!(at("[null]"), None);
    }
}

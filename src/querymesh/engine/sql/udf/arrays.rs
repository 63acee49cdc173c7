//! The `qm_*` SQLite functions of Trino's array functions (docs functions/array): each takes
//! arrays as their JSON text (elements in element form, complex-design.md) and, where it
//! compares elements, the element type as a constant text (`TrinoType::parse`), so `1` and
//! `1.0` are the same double and nested values compare field by field. A function returning
//! one element returns it wrapped in a one-element JSON array (`[e]`), which the lowering
//! unwraps with `json_extract(…, '$[0]')` into the top-level form of any type.

use std::cmp::Ordering;
use std::collections::{HashSet, VecDeque};

use base64::Engine as _;
use rusqlite::Connection;
use rusqlite::functions::{Aggregate, Context, FunctionFlags, WindowAggregate};
use rusqlite::types::ValueRef;
use serde_json::Value;

use super::{FLAGS, fail, reserve};
use crate::querymesh::engine::error::ErrorName;
use crate::querymesh::engine::sql::{calendar, date_functions};
use crate::querymesh::engine::types::TrinoType;

/// SequenceFunction.MAX_RESULT_ENTRIES.
const MAX_SEQUENCE: i64 = 10_000;

/// RepeatFunction.MAX_SIZE_IN_BYTES.
const MAX_REPEAT_BYTES: usize = 4 * 1024 * 1024;

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

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

fn bool_of(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_f64().map(|x| x != 0.0),
        _ => None,
    }
}

fn compare_numbers(a: &Value, b: &Value) -> Ordering {
    if let (Value::Number(x), Value::Number(y)) = (a, b)
        && let (Some(x), Some(y)) = (x.as_i64(), y.as_i64())
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
fn compare(a: &Value, b: &Value, ty: &TrinoType) -> Ordering {
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
fn identical(a: &Value, b: &Value, ty: &TrinoType) -> bool {
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
fn equal(a: &Value, b: &Value, ty: &TrinoType) -> Option<bool> {
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

/// The element type of an `array(E)` type text.
fn element_type(ctx: &Context<'_>, i: usize) -> rusqlite::Result<TrinoType> {
    type_arg(ctx, i)
}

/// A text that two values of `ty` share exactly when they are [`identical`], so the set
/// functions hash instead of comparing every pair: numbers by value (`1` and `1.0`), map
/// pairs in key order.
fn identity_key(v: &Value, ty: &TrinoType) -> String {
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
fn distinct(values: Vec<Value>, ty: &TrinoType) -> Vec<Value> {
    let mut seen = HashSet::with_capacity(values.len());
    values
        .into_iter()
        .filter(|v| seen.insert(identity_key(v, ty)))
        .collect()
}

fn key_set(values: &[Value], ty: &TrinoType) -> HashSet<String> {
    values.iter().map(|v| identity_key(v, ty)).collect()
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

/// SequenceFunction.checkValidStep.
fn check_step(start: i64, stop: i64, step: i64) -> rusqlite::Result<()> {
    if step == 0 {
        return Err(invalid("step must not be zero"));
    }
    if (step > 0 && stop < start) || (step < 0 && stop > start) {
        return Err(invalid(
            "sequence stop value should be greater than or equal to start value if step is greater than zero otherwise stop should be less than or equal to start",
        ));
    }
    Ok(())
}

fn too_many() -> rusqlite::Error {
    invalid(format!(
        "result of sequence function must not have more than {MAX_SEQUENCE} entries"
    ))
}

/// The values `start, start + step, …` up to `stop`, at most MAX_SEQUENCE of them.
fn sequence(start: i64, stop: i64, step: i64) -> rusqlite::Result<Vec<i64>> {
    check_step(start, stop, step)?;
    let count = (i128::from(stop) - i128::from(start)) / i128::from(step) + 1;
    if count > i128::from(MAX_SEQUENCE) {
        return Err(too_many());
    }
    Ok((0..count as i64).map(|i| start + i * step).collect())
}

/// `sequence(date, date, interval year to month)`: `start` plus whole multiples of the step.
fn month_sequence(start: i64, stop: i64, months: i64) -> rusqlite::Result<Vec<i64>> {
    check_step(start, stop, months)?;
    let mut out = Vec::new();
    for i in 0..=MAX_SEQUENCE {
        let Some(day) = i
            .checked_mul(months)
            .and_then(|m| calendar::add_months(start, m))
        else {
            break;
        };
        if (months > 0 && day > stop) || (months < 0 && day < stop) {
            return Ok(out);
        }
        if i == MAX_SEQUENCE {
            return Err(too_many());
        }
        out.push(day);
    }
    Ok(out)
}

/// `sequence(timestamp, timestamp, interval)` (SequenceFunction's timestamp forms): `kind` is
/// `day:<digits>` (the step in milliseconds) or `month:<digits>`, `digits` the stored
/// fraction digits of the result. Computed in milliseconds, as date_functions.rs does.
fn timestamp_sequence(ctx: &Context<'_>, kind: &str) -> rusqlite::Result<Option<Vec<Value>>> {
    let (kind, digits) = kind.split_once(':').unwrap_or((kind, "3"));
    let digits: usize = digits.parse().unwrap_or(3);
    let instant = |i: usize| -> rusqlite::Result<Option<date_functions::Instant>> {
        match text_of(ctx.get_raw(i)) {
            None => Ok(None),
            Some(s) => date_functions::parse(&s)
                .map(Some)
                .ok_or_else(|| invalid(format!("Invalid timestamp '{s}'"))),
        }
    };
    let (Some(start), Some(stop), Some(step)) = (instant(0)?, instant(1)?, int_arg(ctx, 2)) else {
        return Ok(None);
    };
    let millis = |t: date_functions::Instant| i128::from(t.day) * 86_400_000 + i128::from(t.ms);
    let (from, to) = (millis(start), millis(stop));
    if step == 0 {
        return Err(invalid("step must not be zero"));
    }
    if (step > 0 && to < from) || (step < 0 && to > from) {
        return Err(invalid(
            "sequence stop value should be greater than or equal to start value if step is greater than zero otherwise stop should be less than or equal to start",
        ));
    }
    let mut out = Vec::new();
    for i in 0..=MAX_SEQUENCE {
        let t = if kind == "month" {
            match i
                .checked_mul(step)
                .map(|n| date_functions::add("month", n, start, true))
            {
                Some(Ok(t)) => t,
                _ => break,
            }
        } else {
            let total = from + i128::from(i) * i128::from(step);
            let Ok(total) = i64::try_from(total) else {
                break;
            };
            date_functions::Instant {
                day: total.div_euclid(86_400_000),
                ms: total.rem_euclid(86_400_000),
            }
        };
        let at = millis(t);
        if (step > 0 && at > to) || (step < 0 && at < to) {
            return Ok(Some(out));
        }
        if i == MAX_SEQUENCE {
            return Err(too_many());
        }
        out.push(Value::from(date_functions::format(t, digits)));
    }
    Ok(Some(out))
}

/// C(length, k), exactly (each step's division is exact).
fn combination_count(length: usize, k: usize) -> u128 {
    if k > length {
        return 0;
    }
    let mut count: u128 = 1;
    for i in 1..=k {
        count = count.saturating_mul((length - k + i) as u128) / i as u128;
    }
    count
}

/// The bytes of argument `i` as SQLite holds it.
fn arg_bytes(ctx: &Context<'_>, i: usize) -> usize {
    match ctx.get_raw(i) {
        ValueRef::Text(t) | ValueRef::Blob(t) => t.len(),
        _ => 8,
    }
}

/// ArrayCombinationsFunction: the `n`-element combinations of positions, in its order (the
/// lowest position that can advance advances, the ones below it reset).
fn combinations(values: &[Value], n: i64) -> rusqlite::Result<Vec<Value>> {
    if n < 0 {
        return Err(invalid(format!(
            "combination size must not be negative: {n}"
        )));
    }
    if n > 5 {
        return Err(invalid(format!("combination size must not exceed 5: {n}")));
    }
    let (length, k) = (values.len(), n as usize);
    if k > length {
        return Ok(Vec::new());
    }
    let count = combination_count(length, k);
    if count * k as u128 > 100_000 {
        return Err(invalid("combinations exceed max size"));
    }
    let mut positions: Vec<usize> = (0..k).chain([length]).collect();
    let mut out = Vec::with_capacity(count as usize);
    loop {
        out.push(Value::Array(
            positions[..k].iter().map(|&p| values[p].clone()).collect(),
        ));
        let Some(i) = (0..k).find(|&i| positions[i] + 1 < positions[i + 1]) else {
            return Ok(out);
        };
        positions[i] += 1;
        for (j, p) in positions.iter_mut().enumerate().take(i) {
            *p = j;
        }
    }
}

/// StringFunctions.split: at most `limit` parts, the last holding the rest.
fn split(s: &str, delimiter: &str, limit: Option<i64>) -> rusqlite::Result<Vec<Value>> {
    let limit = match limit {
        None => usize::MAX,
        Some(l) if l <= 0 => return Err(invalid("Limit must be positive")),
        Some(l) if l > i64::from(i32::MAX) => return Err(invalid("Limit is too large")),
        Some(l) => l as usize,
    };
    if delimiter.is_empty() {
        return Err(invalid("The delimiter may not be the empty string"));
    }
    Ok(s.splitn(limit, delimiter)
        .map(|p| Value::String(p.to_string()))
        .collect())
}

/// An element as `CAST(e AS varchar)` writes it, for array_join.
fn varchar_of(v: &Value, ty: &TrinoType) -> String {
    match (ty, v) {
        (TrinoType::Boolean, _) => bool_of(v).unwrap_or(false).to_string(),
        (TrinoType::Double | TrinoType::Real, _) => {
            number(v).map_or_else(|| v.to_string(), super::java_double)
        }
        (TrinoType::Decimal { scale, .. }, _) => {
            number(v).map_or_else(|| v.to_string(), |x| format!("{x:.*}", usize::from(*scale)))
        }
        (TrinoType::Timestamp(p), Value::String(s)) => super::timestamp_text(s, *p),
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
        reserve(raw.len())?;
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
    name: &str,
    args: i32,
    f: impl Fn(&Context<'_>) -> rusqlite::Result<Option<String>> + Send + 'static,
) -> rusqlite::Result<()> {
    conn.create_scalar_function(name, args, FLAGS, move |ctx| f(ctx))
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function("qm_array_contains", 3, FLAGS, |ctx| {
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
    conn.create_scalar_function("qm_array_position", 3, FLAGS, |ctx| {
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
    conn.create_scalar_function("qm_element_path", 2, FLAGS, |ctx| {
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
    conn.create_scalar_function("qm_array_join", 5, FLAGS, |ctx| {
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
    // sequence(start, stop[, step]) over bigints (`unit` 'bigint') or dates ('day': the step
    // an interval day to second in milliseconds; 'month': an interval year to month).
    register_array_fn(conn, "qm_sequence", 5, |ctx| {
        let unit: String = ctx.get(3)?;
        let has_step: bool = ctx.get(4)?;
        if let Some(kind) = unit.strip_prefix("timestamp-") {
            return timestamp_sequence(ctx, kind).and_then(|v| match v {
                Some(v) => array_text(&v).map(Some),
                None => Ok(None),
            });
        }
        let bound = |i: usize| -> rusqlite::Result<Option<i64>> {
            if unit == "bigint" {
                return Ok(int_arg(ctx, i));
            }
            match text_of(ctx.get_raw(i)) {
                None => Ok(None),
                Some(s) => calendar::parse_date(s.get(..10).unwrap_or(&s))
                    .map(Some)
                    .ok_or_else(|| invalid(format!("Invalid date '{s}'"))),
            }
        };
        let (Some(start), Some(stop)) = (bound(0)?, bound(1)?) else {
            return Ok(None);
        };
        let step = if has_step {
            match int_arg(ctx, 2) {
                Some(s) => s,
                None => return Ok(None),
            }
        } else if stop >= start {
            1
        } else {
            -1
        };
        let values: Vec<Value> = match unit.as_str() {
            "bigint" => sequence(start, stop, step)?
                .into_iter()
                .map(Value::from)
                .collect(),
            "month" => month_sequence(start, stop, step)?
                .into_iter()
                .map(|d| Value::from(calendar::format_date(d)))
                .collect(),
            _ => {
                let days = if !has_step {
                    step
                } else if step % 86_400_000 == 0 {
                    step / 86_400_000
                } else {
                    return Err(invalid(
                        "sequence step must be a day interval if start and end values are dates",
                    ));
                };
                sequence(start, stop, days)?
                    .into_iter()
                    .map(|d| Value::from(calendar::format_date(d)))
                    .collect()
            }
        };
        array_text(&values).map(Some)
    })?;
    register_array_fn(conn, "qm_split", 3, |ctx| {
        let (Some(s), Some(delimiter)) = (text_of(ctx.get_raw(0)), text_of(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let limit = match ctx.get_raw(2) {
            ValueRef::Null => None,
            _ => Some(int_arg(ctx, 2).unwrap_or(0)),
        };
        array_text(&split(&s, &delimiter, limit)?).map(Some)
    })?;
    register_array_fn(conn, "qm_split_limit", 3, |ctx| {
        let (Some(s), Some(delimiter), Some(limit)) = (
            text_of(ctx.get_raw(0)),
            text_of(ctx.get_raw(1)),
            int_arg(ctx, 2),
        ) else {
            return Ok(None);
        };
        array_text(&split(&s, &delimiter, Some(limit))?).map(Some)
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
    // ArrayShuffleFunction: a random permutation (registered non-deterministic).
    conn.create_scalar_function("qm_shuffle", 1, FunctionFlags::SQLITE_UTF8, |ctx| {
        let Some(mut values) = array_arg(ctx, 0)? else {
            return Ok(None);
        };
        for i in (1..values.len()).rev() {
            let j = (rand::random::<u64>() % (i as u64 + 1)) as usize;
            values.swap(i, j);
        }
        array_text(&values).map(Some)
    })?;
    register_array_fn(conn, "qm_reverse_array", 1, |ctx| {
        let Some(mut values) = array_arg(ctx, 0)? else {
            return Ok(None);
        };
        values.reverse();
        array_text(&values).map(Some)
    })?;
    // RepeatFunction: at most 10000 entries and 4 MB.
    register_array_fn(conn, "qm_repeat", 2, |ctx| {
        let x = element_arg(ctx, 0)?;
        let Some(count) = int_arg(ctx, 1) else {
            return Ok(None);
        };
        if count > MAX_SEQUENCE {
            return Err(invalid(format!(
                "count argument of repeat function must be less than or equal to {MAX_SEQUENCE}"
            )));
        }
        if count < 0 {
            return Err(invalid(
                "count argument of repeat function must be greater than or equal to 0",
            ));
        }
        let bytes = x.to_string().len().saturating_mul(count as usize);
        if bytes > MAX_REPEAT_BYTES {
            return Err(invalid(format!(
                "result of repeat function must not take more than {MAX_REPEAT_BYTES} bytes"
            )));
        }
        array_text(&vec![x; count as usize]).map(Some)
    })?;
    // ArrayNgramsFunction: n-element windows; a shorter array is its own only window.
    register_array_fn(conn, "qm_ngrams", 2, |ctx| {
        let (Some(values), Some(n)) = (array_arg(ctx, 0)?, int_arg(ctx, 1)) else {
            return Ok(None);
        };
        if n <= 0 {
            return Err(invalid("N must be positive"));
        }
        let width = (n as usize).min(values.len());
        let grams: Vec<Value> = if width == 0 {
            vec![Value::Array(Vec::new())]
        } else {
            // Each element lands in up to `width` grams.
            reserve(arg_bytes(ctx, 0).saturating_mul(width))?;
            values
                .windows(width)
                .map(|w| Value::Array(w.to_vec()))
                .collect()
        };
        array_text(&grams).map(Some)
    })?;
    register_array_fn(conn, "qm_combinations", 2, |ctx| {
        let (Some(values), Some(n)) = (array_arg(ctx, 0)?, int_arg(ctx, 1)) else {
            return Ok(None);
        };
        // Each combination holds k elements of the array's average size.
        let per_element = arg_bytes(ctx, 0) / values.len().max(1) + 1;
        let k = usize::try_from(n.clamp(0, 5)).unwrap_or(0);
        let count = combination_count(values.len(), k).min(100_000);
        reserve(per_element.saturating_mul(k).saturating_mul(count as usize))?;
        array_text(&combinations(&values, n)?).map(Some)
    })?;
    // ArrayContainsSequence: `seq` appears in `a` as consecutive elements.
    conn.create_scalar_function("qm_contains_sequence", 3, FLAGS, |ctx| {
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
    conn.create_scalar_function("qm_arrays_overlap", 3, FLAGS, |ctx| {
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
    conn.create_scalar_function("qm_comparator", 1, FLAGS, |ctx| match int_arg(ctx, 0) {
        Some(v @ -1..=1) if !matches!(ctx.get_raw(0), ValueRef::Null) => Ok(v),
        _ => Err(invalid("Lambda comparator must return either -1, 0, or 1")),
    })?;
    conn.create_window_function(
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
    use serde_json::json;

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

//! The array functions that build arrays from scalars or shapes: sequence (bigints, dates,
//! timestamps), split, repeat, ngrams, combinations and shuffle, each with Trino's limits.

use querymesh_values::calendar;
use rusqlite::Connection;
use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::ValueRef;
use serde_json::Value;

use super::{array_arg, array_text, element_arg, int_arg, invalid, register_array_fn, text_of};
use crate::udf::reserve;

use crate::datetime::sqlite::arithmetic as date_functions;
use crate::udf::define;

/// SequenceFunction.MAX_RESULT_ENTRIES.
pub(super) const MAX_SEQUENCE: i64 = 10_000;

/// RepeatFunction.MAX_SIZE_IN_BYTES.
const MAX_REPEAT_BYTES: usize = 4 * 1024 * 1024;

/// SequenceFunction.checkValidStep.
pub(super) fn check_step(start: i64, stop: i64, step: i64) -> rusqlite::Result<()> {
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

pub(super) fn too_many() -> rusqlite::Error {
    invalid(format!(
        "result of sequence function must not have more than {MAX_SEQUENCE} entries"
    ))
}

/// The values `start, start + step, …` up to `stop`, at most MAX_SEQUENCE of them.
pub(super) fn sequence(start: i64, stop: i64, step: i64) -> rusqlite::Result<Vec<i64>> {
    check_step(start, stop, step)?;
    let count = (i128::from(stop) - i128::from(start)) / i128::from(step) + 1;
    if count > i128::from(MAX_SEQUENCE) {
        return Err(too_many());
    }
    Ok((0..count as i64).map(|i| start + i * step).collect())
}

/// `sequence(date, date, interval year to month)`: `start` plus whole multiples of the step.
pub(super) fn month_sequence(start: i64, stop: i64, months: i64) -> rusqlite::Result<Vec<i64>> {
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
pub(super) fn timestamp_sequence(
    ctx: &Context<'_>,
    kind: &str,
) -> rusqlite::Result<Option<Vec<Value>>> {
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
                sub_ms: 0,
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
pub(super) fn combination_count(length: usize, k: usize) -> u128 {
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
pub(super) fn arg_bytes(ctx: &Context<'_>, i: usize) -> usize {
    match ctx.get_raw(i) {
        ValueRef::Text(t) | ValueRef::Blob(t) => t.len(),
        _ => 8,
    }
}

/// ArrayCombinationsFunction: the `n`-element combinations of positions, in its order (the
/// lowest position that can advance advances, the ones below it reset).
pub(super) fn combinations(values: &[Value], n: i64) -> rusqlite::Result<Vec<Value>> {
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
pub(super) fn split(s: &str, delimiter: &str, limit: Option<i64>) -> rusqlite::Result<Vec<Value>> {
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

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // sequence(start, stop[, step]) over bigints (`unit` 'bigint') or dates ('day': the step
    // an interval day to second in milliseconds; 'month': an interval year to month).
    register_array_fn(conn, super::QM_SEQUENCE.name(), 5, |ctx| {
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
    register_array_fn(conn, super::QM_SPLIT.name(), 3, |ctx| {
        let (Some(s), Some(delimiter)) = (text_of(ctx.get_raw(0)), text_of(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let limit = match ctx.get_raw(2) {
            ValueRef::Null => None,
            _ => Some(int_arg(ctx, 2).unwrap_or(0)),
        };
        array_text(&split(&s, &delimiter, limit)?).map(Some)
    })?;
    register_array_fn(conn, super::QM_SPLIT_LIMIT.name(), 3, |ctx| {
        let (Some(s), Some(delimiter), Some(limit)) = (
            text_of(ctx.get_raw(0)),
            text_of(ctx.get_raw(1)),
            int_arg(ctx, 2),
        ) else {
            return Ok(None);
        };
        array_text(&split(&s, &delimiter, Some(limit))?).map(Some)
    })?;
    // ArrayShuffleFunction: a random permutation (registered non-deterministic).
    define(
        conn,
        super::QM_SHUFFLE.name(),
        1,
        FunctionFlags::SQLITE_UTF8,
        |ctx| {
            let Some(mut values) = array_arg(ctx, 0)? else {
                return Ok(None);
            };
            for i in (1..values.len()).rev() {
                let j = (rand::random::<u64>() % (i as u64 + 1)) as usize;
                values.swap(i, j);
            }
            array_text(&values).map(Some)
        },
    )?;
    // RepeatFunction: at most 10000 entries and 4 MB.
    register_array_fn(conn, super::QM_REPEAT.name(), 2, |ctx| {
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
    register_array_fn(conn, super::QM_NGRAMS.name(), 2, |ctx| {
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
    register_array_fn(conn, super::QM_COMBINATIONS.name(), 2, |ctx| {
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
    Ok(())
}

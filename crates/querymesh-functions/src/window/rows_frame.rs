//! `qm_rows_frame(aggregate, start kind, start offset, end kind, end offset, x)`: an
//! aggregate over a ROWS frame whose offsets are read from each row (`ROWS BETWEEN k
//! PRECEDING AND CURRENT ROW` with k a column: Trino's frame offsets are any exact
//! expression, StatementAnalyzer.analyzeWindowFrame; SQLite's must be constants).
//!
//! It runs over the whole partition (`ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED
//! FOLLOWING`, engine calls/over.rs): SQLite adds every row of the partition, in the
//! window's order, then asks for one value per row in that order, so the n-th answer is the
//! n-th row's, its frame the rows its own offsets reach, clamped to the partition, and empty
//! as Trino's RowsFraming judges it. A kind is `UP` (UNBOUNDED
//! PRECEDING), `P` (PRECEDING), `C` (CURRENT ROW), `F` (FOLLOWING) or `UF`; an offset
//! NULL or negative is Trino's INVALID_WINDOW_FRAME, as its window operator checks each
//! row's. The aggregates are SQLite's own as the lowerings write them (count, sum, total,
//! avg, min, max) with their answers, the exact sum of decimals (`qm_dec_sum`), and
//! first_value / last_value.

use std::cmp::Ordering;

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::{SqliteFn, builtin};
use rusqlite::Connection;
use rusqlite::functions::{Aggregate, Context, WindowAggregate};
use rusqlite::types::{Value, ValueRef};

use crate::udf::replayed::compare_values as compare;
use crate::udf::{define_window, fail, reserve};

/// The aggregates `qm_rows_frame` runs.
pub const AGGREGATES: &[&str] = &[
    builtin::COUNT.name(),
    builtin::SUM.name(),
    builtin::TOTAL.name(),
    builtin::AVG.name(),
    builtin::MIN.name(),
    builtin::MAX.name(),
    "first_value",
    "last_value",
    "qm_dec_sum",
];

/// The partition's rows (value, start offset, end offset), the call's constants, and how
/// many answers were given.
#[derive(Default)]
struct Partition {
    aggregate: String,
    kinds: (String, String),
    rows: Vec<(Value, Value, Value)>,
    answered: usize,
}

struct RowsFrame;

fn owned(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(x) => Value::Real(x),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

impl Aggregate<Partition, Value> for RowsFrame {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<Partition> {
        Ok(Partition::default())
    }

    fn step(&self, ctx: &mut Context<'_>, p: &mut Partition) -> rusqlite::Result<()> {
        if p.rows.is_empty() {
            p.aggregate = ctx.get(0)?;
            p.kinds = (ctx.get(1)?, ctx.get(3)?);
        }
        let value = owned(ctx.get_raw(5));
        reserve(match &value {
            Value::Text(t) => t.len() + 48,
            Value::Blob(b) => b.len() + 48,
            _ => 48,
        })?;
        p.rows
            .push((value, owned(ctx.get_raw(2)), owned(ctx.get_raw(4))));
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, _: Option<Partition>) -> rusqlite::Result<Value> {
        Ok(Value::Null)
    }
}

impl WindowAggregate<Partition, Value> for RowsFrame {
    fn value(&self, p: Option<&mut Partition>) -> rusqlite::Result<Value> {
        let Some(p) = p else {
            return Ok(Value::Null);
        };
        let current = p.answered;
        p.answered += 1;
        let (Some((_, start_offset, end_offset)), Some((_, first_start, first_end))) =
            (p.rows.get(current), p.rows.first())
        else {
            return Ok(Value::Null);
        };
        let (row, last) = (current as i64, p.rows.len() as i64 - 1);
        let (start_kind, end_kind) = (p.kinds.0.as_str(), p.kinds.1.as_str());
        let start = bound(start_kind, start_offset, row, last)?;
        let end = bound(end_kind, end_offset, row, last)?;
        let empty = start > end || {
            let first = |kind: &str, offset: &Value| offset_of(kind, offset);
            let (s0, e0) = (first(start_kind, first_start)?, first(end_kind, first_end)?);
            empty_frame(start_kind, end_kind, s0, e0, row, last)
        };
        let frame: &[(Value, Value, Value)] = if empty {
            &[]
        } else {
            &p.rows[start as usize..=end as usize]
        };
        aggregate(&p.aggregate, frame.iter().map(|(v, _, _)| v))
    }

    fn inverse(&self, _: &mut Context<'_>, _: &mut Partition) -> rusqlite::Result<()> {
        Ok(())
    }
}

/// A bound's offset, checked as Trino's window operator checks each row's (0 for a bound
/// without one).
fn offset_of(kind: &str, offset: &Value) -> rusqlite::Result<i64> {
    match (kind, offset) {
        ("P" | "F", Value::Integer(k)) if *k >= 0 => Ok(*k),
        ("P" | "F", _) => Err(fail(
            ErrorName::InvalidWindowFrame,
            "Window frame offset value must not be negative or null",
        )),
        _ => Ok(0),
    }
}

/// The row a frame bound reaches from `row` of a partition whose last row is `last`:
/// Trino's RowsFraming clamps an offset reaching past either end to that end.
fn bound(kind: &str, offset: &Value, row: i64, last: i64) -> rusqlite::Result<i64> {
    let k = offset_of(kind, offset)?;
    Ok(match kind {
        "UP" => 0,
        "UF" => last,
        "C" => row,
        "P" if k > row => 0,
        "P" => row - k,
        _ if k > last - row => last,
        _ => row + k,
    })
}

/// RowsFraming.emptyFrame: whether the frame of `row` is empty, judged by the offsets of the
/// first row (`s0`, `e0`: Trino reads them at position 0 of its window index, which for the
/// first partition is its first row).
fn empty_frame(start: &str, end: &str, s0: i64, e0: i64, row: i64, last: i64) -> bool {
    let following = last - row;
    match (start, end) {
        ("UP", "P") => e0 > row,
        ("F", "UF") => s0 > following,
        ("P", "P") => s0 < e0 || (s0 > row && e0 > row),
        ("F", "F") => s0 > e0 || s0 > following,
        _ => false,
    }
}

/// SQLite's answer of `name` over `values`.
fn aggregate<'v>(name: &str, values: impl Iterator<Item = &'v Value>) -> rusqlite::Result<Value> {
    let mut values = values.peekable();
    match name {
        "first_value" => return Ok(values.next().cloned().unwrap_or(Value::Null)),
        "last_value" => return Ok(values.last().cloned().unwrap_or(Value::Null)),
        _ => {}
    }
    let present: Vec<&Value> = values.filter(|v| **v != Value::Null).collect();
    if name == "qm_dec_sum" {
        let refs: Vec<ValueRef<'_>> = present.iter().map(|v| ValueRef::from(*v)).collect();
        return crate::udf::decimals::sum_of(&refs);
    }
    Ok(match name {
        "count" => Value::Integer(present.len() as i64),
        "min" | "max" => {
            let largest = name == "max";
            present
                .into_iter()
                .reduce(|a, b| {
                    let order = compare(a, b);
                    if (order == Ordering::Less) == largest {
                        b
                    } else {
                        a
                    }
                })
                .cloned()
                .unwrap_or(Value::Null)
        }
        _ => sum(name, &present)?,
    })
}

/// sum, total and avg as SQLite computes them: integers exactly (sum fails on overflow),
/// anything else as a double (text that is no number counts 0); sum and avg of no value are
/// NULL, total 0.0. A NaN answer is NULL, as SQLite stores it.
fn sum(name: &str, present: &[&Value]) -> rusqlite::Result<Value> {
    if present.is_empty() {
        return Ok(if name == "total" {
            Value::Real(0.0)
        } else {
            Value::Null
        });
    }
    let mut exact: Option<i64> = Some(0);
    let mut approx = 0f64;
    for v in present {
        let (i, f) = match v {
            Value::Integer(i) => (Some(*i), *i as f64),
            Value::Real(f) => (None, *f),
            Value::Text(t) => (None, t.trim().parse::<f64>().unwrap_or(0.0)),
            _ => (None, 0.0),
        };
        exact = match (exact, i) {
            (Some(acc), Some(i)) => match acc.checked_add(i) {
                Some(s) => Some(s),
                None if name == "sum" => {
                    return Err(fail(
                        ErrorName::NumericValueOutOfRange,
                        "bigint addition overflow",
                    ));
                }
                None => None,
            },
            _ => None,
        };
        approx += f;
    }
    let real = |x: f64| {
        if x.is_nan() {
            Value::Null
        } else {
            Value::Real(x)
        }
    };
    Ok(match (name, exact) {
        ("avg", _) => real(approx / present.len() as f64),
        ("sum", Some(s)) => Value::Integer(s),
        _ => real(approx),
    })
}

/// `qm_rows_frame(…)` as calls name it.
pub const QM_ROWS_FRAME: SqliteFn = SqliteFn::new("qm_rows_frame");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define_window(
        conn,
        QM_ROWS_FRAME.name(),
        6,
        rusqlite::functions::FunctionFlags::SQLITE_UTF8,
        RowsFrame,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(sql: &str) -> Result<Vec<Value>, String> {
        let conn = Connection::open_in_memory().map_err(|e| e.to_string())?;
        crate::sqlite::register(&conn).map_err(|e| e.to_string())?;
        let mut stmt = conn.prepare(sql).map_err(|e| e.to_string())?;
        let rows = stmt
            .query_map([], |r| r.get::<_, Value>(0))
            .map_err(|e| e.to_string())?;
        rows.collect::<Result<_, _>>().map_err(|e| e.to_string())
    }

    const ROWS: &str =
        "(SELECT 0 AS k, 1 AS x UNION ALL SELECT 1, 2 UNION ALL SELECT 2, 3 UNION ALL SELECT 3, 4)";
    const WHOLE: &str = "ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";

    #[test]
    fn each_row_reaches_back_its_own_offset() {
        // sum(x) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW): 1, 3, 6, 10
        // (Trino 476).
        let sql = format!(
            "SELECT qm_rows_frame('sum', 'P', k, 'C', NULL, x) OVER ({WHOLE}) FROM {ROWS} ORDER BY k"
        );
        let ints = |v: Vec<i64>| v.into_iter().map(Value::Integer).collect::<Vec<_>>();
        assert_eq!(run(&sql), Ok(ints(vec![1, 3, 6, 10])));
        let sql = format!(
            "SELECT qm_rows_frame('count', 'C', NULL, 'F', k, x) OVER ({WHOLE}) FROM {ROWS} ORDER BY k"
        );
        assert_eq!(run(&sql), Ok(ints(vec![1, 2, 2, 1])));
        let sql = format!(
            "SELECT qm_rows_frame('max', 'P', 2, 'P', 1, x) OVER ({WHOLE}) FROM {ROWS} ORDER BY k"
        );
        assert_eq!(
            run(&sql),
            Ok(vec![
                Value::Null,
                Value::Integer(1),
                Value::Integer(2),
                Value::Integer(3)
            ])
        );
    }

    #[test]
    fn offsets_past_the_partition_clamp_to_its_ends_as_trinos() {
        // max(k) OVER (ORDER BY k ROWS BETWEEN k FOLLOWING AND k + 1 FOLLOWING) over k 0..3
        // is 1, 3, 3, 3, and count(*) OVER (… k + 2 PRECEDING AND k + 1 PRECEDING) 0, 1,
        // 1, 1 (Trino 476: RowsFraming judges emptiness by the first row's offsets).
        let sql = format!(
            "SELECT qm_rows_frame('max', 'F', k, 'F', k + 1, k) OVER ({WHOLE}) FROM {ROWS} ORDER BY k"
        );
        let ints = |v: Vec<i64>| v.into_iter().map(Value::Integer).collect::<Vec<_>>();
        assert_eq!(run(&sql), Ok(ints(vec![1, 3, 3, 3])));
        let sql = format!(
            "SELECT qm_rows_frame('count', 'P', k + 2, 'P', k + 1, 1) OVER ({WHOLE}) FROM {ROWS} ORDER BY k"
        );
        assert_eq!(run(&sql), Ok(ints(vec![0, 1, 1, 1])));
    }

    #[test]
    fn a_negative_or_null_offset_is_trinos_error() {
        let sql = format!(
            "SELECT qm_rows_frame('sum', 'P', k - 1, 'C', NULL, x) OVER ({WHOLE}) FROM {ROWS}"
        );
        let error = run(&sql).unwrap_err();
        assert!(
            error.contains(
                "QM!INVALID_WINDOW_FRAME!Window frame offset value must not be negative or null"
            ),
            "{error}"
        );
    }
}

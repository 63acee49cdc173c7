//! Aggregates SQLite has no equivalent of, as Rust aggregate functions: `qm_max_by` /
//! `qm_min_by` (the value at the largest / smallest key), `qm_percentile` (approx_percentile,
//! answered exactly — an exact answer is within any approximation's bounds), and
//! `qm_bitwise_and` / `qm_bitwise_or` / `qm_bitwise_xor` and `qm_listagg`; the statistical
//! aggregates (statistics.rs) and the n largest / smallest (top_n.rs) have files of their own.
//! What they keep counts against the query's memory budget as it grows (registered through
//! `define_aggregate`: aggregate_state.rs).

mod statistics;
mod top_n;

pub use statistics::{
    QM_CORR, QM_CORR_REAL, QM_COVAR_POP, QM_COVAR_POP_REAL, QM_COVAR_SAMP, QM_COVAR_SAMP_REAL,
    QM_KURTOSIS, QM_REGR_INTERCEPT, QM_REGR_INTERCEPT_REAL, QM_REGR_SLOPE, QM_REGR_SLOPE_REAL,
    QM_SKEWNESS,
};
pub use top_n::{QM_MAX_BY_N, QM_MAX_N, QM_MIN_BY_N, QM_MIN_N};

use std::cmp::Ordering;

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use crate::udf::{Args, FLAGS, RowAggregate, define_replayable, fail};

pub const QM_LISTAGG: SqliteFn = SqliteFn::new("qm_listagg");
pub const QM_MAX_BY: SqliteFn = SqliteFn::new("qm_max_by");
pub const QM_MIN_BY: SqliteFn = SqliteFn::new("qm_min_by");
pub const QM_PERCENTILE: SqliteFn = SqliteFn::new("qm_percentile");
pub const QM_BITWISE_AND: SqliteFn = SqliteFn::new("qm_bitwise_and");
pub const QM_BITWISE_OR: SqliteFn = SqliteFn::new("qm_bitwise_or");
pub const QM_BITWISE_XOR: SqliteFn = SqliteFn::new("qm_bitwise_xor");

/// SQLite's own order of values of one analysed type: numbers by value, text and blobs by
/// bytes (dates and timestamps are ISO text, so they sort by time).
fn compare(a: &Value, b: &Value) -> Ordering {
    let number = |v: &Value| match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Real(r) => Some(*r),
        _ => None,
    };
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::Text(x), Value::Text(y)) => x.cmp(y),
        (Value::Blob(x), Value::Blob(y)) => x.cmp(y),
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            _ => Ordering::Equal,
        },
    }
}

/// max_by(x, y) / min_by(x, y): the x of the row with the largest (smallest) y; rows whose y
/// is NULL don't count (Trino's MaxByAggregationFunction).
#[derive(Clone)]
struct ValueAtExtreme {
    largest: bool,
}

impl RowAggregate for ValueAtExtreme {
    type State = Option<(Value, Value)>;
    type Output = Value;

    fn init(&self, _: &dyn Args) -> Result<Option<(Value, Value)>> {
        Ok(None)
    }

    fn step(&self, ctx: &dyn Args, best: &mut Option<(Value, Value)>) -> Result<()> {
        let key: Value = ctx.owned(1);
        if key == Value::Null {
            return Ok(());
        }
        let wanted = if self.largest {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        let replace = match best {
            None => true,
            Some((current, _)) => compare(&key, current) == wanted,
        };
        if replace {
            *best = Some((key, ctx.owned(0)));
        }
        Ok(())
    }

    fn answer(&self, best: Option<&mut Option<(Value, Value)>>) -> Result<Value> {
        Ok(best
            .and_then(|b| b.as_ref())
            .map_or(Value::Null, |(_, value)| value.clone()))
    }
}

/// approx_percentile(x, p): the value at rank ⌈p·n⌉ (at least the first) of the non-NULL
/// values in order; p must be the same in every row, between 0 and 1.
#[derive(Clone)]
struct Percentile;

#[derive(Default)]
struct Values {
    values: Vec<Value>,
    percentile: Option<f64>,
}

impl RowAggregate for Percentile {
    type State = Values;
    type Output = Value;

    fn init(&self, _: &dyn Args) -> Result<Values> {
        Ok(Values::default())
    }

    fn step(&self, ctx: &dyn Args, acc: &mut Values) -> Result<()> {
        let p = match ctx.raw(1) {
            ValueRef::Integer(i) => i as f64,
            ValueRef::Real(r) => r,
            _ => {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "Percentile cannot be null",
                ));
            }
        };
        if !(0.0..=1.0).contains(&p) {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                "Percentile must be between 0 and 1",
            ));
        }
        if acc.percentile.is_some_and(|q| q != p) {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                "Percentile argument must be constant for all input rows",
            ));
        }
        acc.percentile = Some(p);
        let value: Value = ctx.owned(0);
        if value == Value::Null {
            return Ok(());
        }
        acc.values.push(value);
        Ok(())
    }

    fn answer(&self, acc: Option<&mut Values>) -> Result<Value> {
        let Some(acc) = acc else {
            return Ok(Value::Null);
        };
        let (Some(p), false) = (acc.percentile, acc.values.is_empty()) else {
            return Ok(Value::Null);
        };
        acc.values.sort_by(compare);
        let n = acc.values.len();
        let rank = ((p * n as f64).ceil() as usize).clamp(1, n);
        Ok(acc.values[rank - 1].clone())
    }
}

/// bitwise_and_agg / bitwise_or_agg / bitwise_xor_agg over bigints; NULLs are skipped, no rows
/// is NULL.
#[derive(Clone)]
struct Bitwise {
    op: BitOp,
}

#[derive(Clone)]
enum BitOp {
    And,
    Or,
    Xor,
}

impl RowAggregate for Bitwise {
    type State = Option<i64>;
    type Output = Option<i64>;

    fn init(&self, _: &dyn Args) -> Result<Option<i64>> {
        Ok(None)
    }

    fn step(&self, ctx: &dyn Args, acc: &mut Option<i64>) -> Result<()> {
        let ValueRef::Integer(x) = ctx.raw(0) else {
            return Ok(());
        };
        *acc = Some(match (*acc, &self.op) {
            (None, _) => x,
            (Some(a), BitOp::And) => a & x,
            (Some(a), BitOp::Or) => a | x,
            (Some(a), BitOp::Xor) => a ^ x,
        });
        Ok(())
    }

    fn answer(&self, acc: Option<&mut Option<i64>>) -> Result<Option<i64>> {
        Ok(acc.and_then(|a| *a))
    }
}

/// Trino's listagg output limit (ListaggAggregationFunction's maxOutputLength).
const LISTAGG_MAX_BYTES: usize = 1_048_576;

/// listagg(x, separator [ON OVERFLOW …]) WITHIN GROUP (ORDER BY …): SQLite hands the rows over
/// in the ORDER BY's order. Arguments: value, separator, truncate (0/1), filler, with count,
/// distinct (0/1: a value equal to one already kept is dropped).
#[derive(Clone)]
struct Listagg;

#[derive(Default)]
struct Joined {
    values: Vec<String>,
    bytes: usize,
    separator: String,
    truncate: bool,
    filler: String,
    with_count: bool,
    /// listagg(DISTINCT …): the values kept so far.
    seen: Option<std::collections::HashSet<String>>,
}

impl RowAggregate for Listagg {
    type State = Joined;
    type Output = Option<String>;

    fn init(&self, ctx: &dyn Args) -> Result<Joined> {
        let text = |i: usize| match ctx.raw(i) {
            ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
            _ => String::new(),
        };
        Ok(Joined {
            separator: text(1),
            truncate: matches!(ctx.raw(2), ValueRef::Integer(1)),
            filler: text(3),
            with_count: matches!(ctx.raw(4), ValueRef::Integer(1)),
            seen: matches!(ctx.raw(5), ValueRef::Integer(1)).then(Default::default),
            ..Joined::default()
        })
    }

    fn step(&self, ctx: &dyn Args, acc: &mut Joined) -> Result<()> {
        let value = match ctx.raw(0) {
            ValueRef::Null => return Ok(()),
            ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
            ValueRef::Integer(i) => i.to_string(),
            ValueRef::Real(r) => r.to_string(),
        };
        if let Some(seen) = &mut acc.seen
            && !seen.insert(value.clone())
        {
            return Ok(());
        }
        acc.bytes += value.len() + acc.separator.len() * usize::from(!acc.values.is_empty());
        if acc.bytes > LISTAGG_MAX_BYTES && !acc.truncate {
            return Err(fail(
                ErrorName::ExceededFunctionMemoryLimit,
                format!(
                    "Concatenated string has the length in bytes larger than the maximum output length {LISTAGG_MAX_BYTES}"
                ),
            ));
        }
        acc.values.push(value);
        Ok(())
    }

    fn answer(&self, acc: Option<&mut Joined>) -> Result<Option<String>> {
        let Some(acc) = acc else { return Ok(None) };
        if acc.values.is_empty() {
            return Ok(None);
        }
        let mut out = String::new();
        let mut kept = 0;
        for value in &acc.values {
            let added = value.len() + if kept > 0 { acc.separator.len() } else { 0 };
            if out.len() + added > LISTAGG_MAX_BYTES {
                break;
            }
            if kept > 0 {
                out.push_str(&acc.separator);
            }
            out.push_str(value);
            kept += 1;
        }
        let dropped = acc.values.len() - kept;
        if dropped > 0 {
            out.push_str(&acc.separator);
            out.push_str(&acc.filler);
            if acc.with_count {
                out.push_str(&format!("({dropped})"));
            }
        }
        Ok(Some(out))
    }
}

pub fn register(conn: &Connection) -> Result<()> {
    statistics::register(conn)?;
    top_n::register(conn)?;
    define_replayable(conn, QM_LISTAGG.name(), 6, FLAGS, Listagg)?;
    for (function, largest) in [(QM_MAX_BY, true), (QM_MIN_BY, false)] {
        define_replayable(conn, function.name(), 2, FLAGS, ValueAtExtreme { largest })?;
    }
    define_replayable(conn, QM_PERCENTILE.name(), 2, FLAGS, Percentile)?;
    for (function, op) in [
        (QM_BITWISE_AND, BitOp::And),
        (QM_BITWISE_OR, BitOp::Or),
        (QM_BITWISE_XOR, BitOp::Xor),
    ] {
        define_replayable(conn, function.name(), 1, FLAGS, Bitwise { op })?;
    }
    Ok(())
}

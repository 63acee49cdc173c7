//! `qm_top_n(value, key, n, key type, largest, by)`: the `n` values with the largest (or
//! smallest) keys, as an array in that order — `max(x, n)` / `min(x, n)` (the value is its own
//! key) and `max_by(x, y, n)` / `min_by(x, y, n)` (Trino docs functions/aggregate). Value and
//! key arrive in element form wrapped in a one-element JSON array (`json_array(…)`), so any
//! type reaches the aggregate as JSON; keys are ordered as Trino orders the key type
//! (array/sqlite/values.rs). Rows whose key or `n` is NULL don't count; none left is NULL.

use std::cmp::Ordering;

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use querymesh_values::types::TrinoType;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};
use serde_json::Value;

use crate::array::sqlite::values::compare;
use crate::udf::{Args, FLAGS, RowAggregate, define_replayable, fail};

/// Trino's bound on `n` (MinMaxNStateFactory / MaxByNStateFactory's MAX_NUMBER_OF_VALUES).
const MAX_N: i64 = 10_000;

#[derive(Default)]
struct Kept {
    /// `(key, value)` pairs, best first once sorted; at most `2n` between sorts.
    pairs: Vec<(Value, Value)>,
    n: usize,
    key_type: Option<TrinoType>,
    largest: bool,
}

impl Kept {
    fn order(&self, a: &Value, b: &Value) -> Ordering {
        let ty = self.key_type.as_ref().unwrap_or(&TrinoType::Unknown);
        let o = compare(a, b, ty);
        if self.largest { o.reverse() } else { o }
    }

    /// Best first, ties in arrival order, cut to `n`.
    fn settle(&mut self) {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.sort_by(|(a, _), (b, _)| self.order(a, b));
        pairs.truncate(self.n);
        self.pairs = pairs;
    }
}

fn first_of(v: ValueRef<'_>) -> Result<Value> {
    let text = match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => t,
        _ => return Ok(Value::Null),
    };
    let parsed: Value = serde_json::from_slice(text).map_err(|_| {
        fail(
            ErrorName::GenericInternalError,
            "top_n: an argument is not in element form",
        )
    })?;
    Ok(match parsed {
        Value::Array(mut items) if !items.is_empty() => items.swap_remove(0),
        _ => Value::Null,
    })
}

/// Trino's error for an `n` out of range, in the function's own words.
fn bad_n(largest: bool, by: bool, n: i64) -> rusqlite::Error {
    let (place, name) = match (by, largest) {
        (false, true) => ("second", "max_n"),
        (false, false) => ("second", "min_n"),
        (true, true) => ("third", "max_by"),
        (true, false) => ("third", "min_by"),
    };
    let message = match (by, n <= 0) {
        (false, true) => format!("{place} argument of {name} must be positive"),
        (true, true) => format!("{place} argument of {name} must be a positive integer"),
        _ => format!("{place} argument of {name} must be less than or equal to {MAX_N}; found {n}"),
    };
    fail(ErrorName::InvalidFunctionArgument, message)
}

#[derive(Clone)]
struct TopN {
    largest: bool,
    /// max_by / min_by (the value and its key differ).
    by: bool,
}

impl RowAggregate for TopN {
    type State = Kept;
    type Output = Option<String>;

    fn init(&self, _: &dyn Args) -> Result<Kept> {
        Ok(Kept {
            largest: self.largest,
            ..Kept::default()
        })
    }

    fn step(&self, ctx: &dyn Args, kept: &mut Kept) -> Result<()> {
        let ValueRef::Integer(n) = ctx.raw(2) else {
            return Ok(());
        };
        if kept.key_type.is_none() {
            if !(1..=MAX_N).contains(&n) {
                return Err(bad_n(self.largest, self.by, n));
            }
            kept.n = usize::try_from(n).unwrap_or(1);
            let ty = match ctx.raw(3) {
                ValueRef::Text(t) => TrinoType::parse(&String::from_utf8_lossy(t)).ok(),
                _ => None,
            };
            kept.key_type = Some(ty.unwrap_or(TrinoType::Unknown));
        }
        let key = first_of(ctx.raw(1))?;
        if key.is_null() {
            return Ok(());
        }
        if matches!(kept.key_type, Some(TrinoType::Array(_)))
            && key
                .as_array()
                .is_some_and(|items| items.iter().any(Value::is_null))
        {
            return Err(fail(
                ErrorName::NotSupported,
                "ARRAY comparison not supported for arrays with null elements",
            ));
        }
        let value = first_of(ctx.raw(0))?;
        kept.pairs.push((key, value));
        if kept.pairs.len() >= 2 * kept.n.max(1) {
            kept.settle();
        }
        Ok(())
    }

    fn answer(&self, kept: Option<&mut Kept>) -> Result<Option<String>> {
        let Some(kept) = kept else {
            return Ok(None);
        };
        if kept.pairs.is_empty() {
            return Ok(None);
        }
        kept.settle();
        let values: Vec<&Value> = kept.pairs.iter().map(|(_, v)| v).collect();
        serde_json::to_string(&values)
            .map(Some)
            .map_err(|e| fail(ErrorName::GenericInternalError, e.to_string()))
    }
}

pub const QM_MAX_N: SqliteFn = SqliteFn::new("qm_max_n");
pub const QM_MIN_N: SqliteFn = SqliteFn::new("qm_min_n");
pub const QM_MAX_BY_N: SqliteFn = SqliteFn::new("qm_max_by_n");
pub const QM_MIN_BY_N: SqliteFn = SqliteFn::new("qm_min_by_n");

pub fn register(conn: &Connection) -> Result<()> {
    for (function, largest, by) in [
        (QM_MAX_N, true, false),
        (QM_MIN_N, false, false),
        (QM_MAX_BY_N, true, true),
        (QM_MIN_BY_N, false, true),
    ] {
        define_replayable(conn, function.name(), 4, FLAGS, TopN { largest, by })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_best_n_in_order() {
        let mut kept = Kept {
            n: 2,
            key_type: Some(TrinoType::Integer),
            largest: true,
            ..Kept::default()
        };
        for x in [4, 9, 1, 7] {
            kept.pairs.push((Value::from(x), Value::from(x)));
        }
        kept.settle();
        let values: Vec<Value> = kept.pairs.into_iter().map(|(_, v)| v).collect();
        // max(x, 2) over 4, 9, 1, 7 is [9, 7] (the corpus's f8934bde5369).
        assert_eq!(values, vec![Value::from(9), Value::from(7)]);
    }

    #[test]
    fn n_out_of_range_has_trinos_messages() {
        let text = |e: rusqlite::Error| e.to_string();
        assert!(text(bad_n(false, false, 0)).contains("second argument of min_n must be positive"));
        assert!(
            text(bad_n(true, true, 10_001)).contains(
                "third argument of max_by must be less than or equal to 10000; found 10001"
            )
        );
    }
}

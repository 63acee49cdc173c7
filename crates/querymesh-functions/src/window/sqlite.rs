//! `qm_nth_non_null(x, n, from_end)`: the n-th non-NULL `x` of the window frame, counted
//! from its first row (`from_end` 0) or its last (1) — first_value, last_value and
//! nth_value with IGNORE NULLS (docs functions/window "Value functions"), and lag and lead
//! with IGNORE NULLS over the rows before or after the current one. SQLite has no null
//! treatment; its frames call `inverse` for the row leaving the frame, the oldest.

use std::collections::VecDeque;

use rusqlite::Connection;
use rusqlite::functions::{Aggregate, Context, WindowAggregate};
use rusqlite::types::{Value, ValueRef};

use crate::udf::{FLAGS, define_window};

/// The frame's non-NULL values in order, and the last `n` and direction asked for.
#[derive(Default)]
struct NonNulls {
    values: VecDeque<Value>,
    n: i64,
    from_end: bool,
}

struct NthNonNull;

impl Aggregate<NonNulls, Value> for NthNonNull {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<NonNulls> {
        Ok(NonNulls::default())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut NonNulls) -> rusqlite::Result<()> {
        acc.n = ctx.get::<Option<i64>>(1)?.unwrap_or(0);
        acc.from_end = ctx.get::<Option<i64>>(2)?.unwrap_or(0) != 0;
        let x: Value = ctx.get(0)?;
        if x != Value::Null {
            acc.values.push_back(x);
        }
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, mut acc: Option<NonNulls>) -> rusqlite::Result<Value> {
        self.value(acc.as_mut())
    }
}

impl WindowAggregate<NonNulls, Value> for NthNonNull {
    fn value(&self, acc: Option<&mut NonNulls>) -> rusqlite::Result<Value> {
        let Some(acc) = acc else {
            return Ok(Value::Null);
        };
        let Some(index) = usize::try_from(acc.n).ok().and_then(|n| n.checked_sub(1)) else {
            return Ok(Value::Null);
        };
        let found = if acc.from_end {
            acc.values
                .len()
                .checked_sub(index + 1)
                .and_then(|i| acc.values.get(i))
        } else {
            acc.values.get(index)
        };
        Ok(found.cloned().unwrap_or(Value::Null))
    }

    fn inverse(&self, ctx: &mut Context<'_>, acc: &mut NonNulls) -> rusqlite::Result<()> {
        // Only a non-NULL row was kept, so only one leaving takes a value out.
        if ctx.get_raw(0) != ValueRef::Null {
            acc.values.pop_front();
        }
        Ok(())
    }
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define_window(conn, "qm_nth_non_null", 3, FLAGS, NthNonNull)
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    fn column(sql: &str) -> Vec<Option<i64>> {
        let conn = Connection::open_in_memory().unwrap();
        super::register(&conn).unwrap();
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    const ROWS: &str = "(VALUES (1, 10), (2, NULL), (3, NULL), (4, 40), (5, NULL))";

    /// The docs' lag … IGNORE NULLS example shape: Trino 476 answers 10, 10, 10, 40 after
    /// the first row (window_functions corpus ab21cbfc7071).
    #[test]
    fn lag_ignoring_nulls_reads_the_last_non_null_before() {
        let got = column(&format!(
            "SELECT qm_nth_non_null(column2, 1, 1) OVER (ORDER BY column1 ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) FROM {ROWS}"
        ));
        assert_eq!(got, vec![None, Some(10), Some(10), Some(10), Some(40)]);
    }

    /// A sliding frame drops the values that leave it (nth_value(x, 2) IGNORE NULLS).
    #[test]
    fn a_sliding_frame_forgets_what_left() {
        let got = column(&format!(
            "SELECT qm_nth_non_null(column2, 1, 0) OVER (ORDER BY column1 ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM {ROWS}"
        ));
        assert_eq!(got, vec![Some(10), Some(10), None, Some(40), Some(40)]);
    }
}

//! `qm_nth_non_null(x, n, from_end)`: the n-th non-NULL `x` of the window frame, counted
//! from its first row (`from_end` 0) or its last (1) — first_value, last_value and
//! nth_value with IGNORE NULLS (docs functions/window "Value functions"), and lag and lead
//! with IGNORE NULLS over the rows before or after the current one. SQLite has no null
//! treatment; its frames call `inverse` for the row leaving the frame, the oldest.
//! Also `qm_count_distinct(x)`, count(DISTINCT x) over a frame.

use std::collections::{HashMap, VecDeque};

use querymesh_values::sqlite_expr::SqliteFn;
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

/// A value as a key of the frame's multiset: SQLite's storage classes, a double by its bits.
#[derive(PartialEq, Eq, Hash)]
enum Key {
    Integer(i64),
    Real(u64),
    Text(Vec<u8>),
    Blob(Vec<u8>),
}

fn key(v: ValueRef<'_>) -> Option<Key> {
    match v {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(Key::Integer(i)),
        ValueRef::Real(r) => Some(Key::Real(r.to_bits())),
        ValueRef::Text(t) => Some(Key::Text(t.to_vec())),
        ValueRef::Blob(b) => Some(Key::Blob(b.to_vec())),
    }
}

/// `qm_count_distinct(x)`: count(DISTINCT x) over a window frame (Trino takes DISTINCT in a
/// window aggregate, SQLite does not): the frame's non-NULL values counted by value, so a
/// row leaving takes its value out when it was the last of its kind.
struct CountDistinct;

impl Aggregate<HashMap<Key, u64>, i64> for CountDistinct {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<HashMap<Key, u64>> {
        Ok(HashMap::new())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut HashMap<Key, u64>) -> rusqlite::Result<()> {
        if let Some(k) = key(ctx.get_raw(0)) {
            *acc.entry(k).or_insert(0) += 1;
        }
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        mut acc: Option<HashMap<Key, u64>>,
    ) -> rusqlite::Result<i64> {
        self.value(acc.as_mut())
    }
}

impl WindowAggregate<HashMap<Key, u64>, i64> for CountDistinct {
    fn value(&self, acc: Option<&mut HashMap<Key, u64>>) -> rusqlite::Result<i64> {
        Ok(acc.map_or(0, |m| m.len() as i64))
    }

    fn inverse(&self, ctx: &mut Context<'_>, acc: &mut HashMap<Key, u64>) -> rusqlite::Result<()> {
        if let Some(k) = key(ctx.get_raw(0))
            && let Some(n) = acc.get_mut(&k)
        {
            *n -= 1;
            if *n == 0 {
                acc.remove(&k);
            }
        }
        Ok(())
    }
}

/// `qm_nth_non_null(x, n, from_end)` as calls name it.
pub const QM_NTH_NON_NULL: SqliteFn = SqliteFn::new("qm_nth_non_null");
/// `qm_count_distinct(x)` as calls name it.
pub const QM_COUNT_DISTINCT: SqliteFn = SqliteFn::new("qm_count_distinct");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define_window(conn, QM_NTH_NON_NULL.name(), 3, FLAGS, NthNonNull)?;
    define_window(conn, QM_COUNT_DISTINCT.name(), 1, FLAGS, CountDistinct)?;
    super::rows_frame::register(conn)
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

    /// count(DISTINCT x) over a sliding frame: 1, {1, 2}, {2, 2} → 1, 2, 1.
    #[test]
    fn count_distinct_forgets_values_that_left() {
        let got = column(
            "SELECT qm_count_distinct(column1) OVER (ORDER BY rowid ROWS 1 PRECEDING) FROM (SELECT column1, row_number() OVER () AS rowid FROM (VALUES (1), (2), (2), (NULL)))",
        );
        assert_eq!(got, vec![Some(1), Some(2), Some(1), Some(1)]);
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

//! Aggregates usable as window functions by replaying their frame. Trino runs every aggregate
//! as a window function (docs functions/window: "All Aggregate functions can be used as
//! window functions"); when the aggregate can't take a row back out, its
//! AggregationWindowFunction adds the rows of each new frame again. A [`RowAggregate`] reads
//! its rows through [`Args`], so the window form (`<name>_over`, registered beside the plain
//! one) keeps the frame's rows and, once SQLite takes one out (`inverse`), adds what is left
//! again — the same answer as Trino's. The plain form keeps no rows.
//!
//! The window form also takes sort keys after the aggregate's own arguments (listagg's
//! `WITHIN GROUP (ORDER BY …)` and an aggregate's `ORDER BY` over a window), in pairs
//! `key, how` (`how`: 1 descending, 2 NULLs first): the frame's rows are added in that order.

use std::cmp::Ordering;
use std::collections::VecDeque;
use std::panic::{RefUnwindSafe, UnwindSafe};

use rusqlite::functions::{Aggregate, Context, FunctionFlags, SqlFnOutput, WindowAggregate};
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::{define_aggregate, define_window};

/// The arguments of one row: SQLite's, or a row the window form kept. An index past the last
/// reads as NULL.
pub trait Args {
    fn raw(&self, i: usize) -> ValueRef<'_>;

    fn owned(&self, i: usize) -> Value {
        match self.raw(i) {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(x) => Value::Integer(x),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        }
    }
}

impl Args for Context<'_> {
    fn raw(&self, i: usize) -> ValueRef<'_> {
        if i < self.len() {
            self.get_raw(i)
        } else {
            ValueRef::Null
        }
    }
}

impl Args for Vec<Value> {
    fn raw(&self, i: usize) -> ValueRef<'_> {
        self.get(i).map_or(ValueRef::Null, ValueRef::from)
    }
}

/// An aggregate over rows of arguments, answering from its state without consuming it.
pub trait RowAggregate: Clone + Send + 'static {
    type State: RefUnwindSafe + UnwindSafe + Send + 'static;
    type Output: SqlFnOutput + 'static;

    /// The state before the first row (which it may read: listagg's separator).
    fn init(&self, first: &dyn Args) -> Result<Self::State>;
    fn step(&self, row: &dyn Args, state: &mut Self::State) -> Result<()>;
    /// The answer; `None`: no row was added.
    fn answer(&self, state: Option<&mut Self::State>) -> Result<Self::Output>;
}

/// The plain aggregate.
struct Plain<A>(A);

impl<A: RowAggregate> Aggregate<A::State, A::Output> for Plain<A> {
    fn init(&self, ctx: &mut Context<'_>) -> Result<A::State> {
        self.0.init(&*ctx)
    }

    fn step(&self, ctx: &mut Context<'_>, state: &mut A::State) -> Result<()> {
        self.0.step(&*ctx, state)
    }

    fn finalize(&self, _: &mut Context<'_>, mut state: Option<A::State>) -> Result<A::Output> {
        self.0.answer(state.as_mut())
    }
}

/// The window form: the aggregate's own arguments come first (`own`), sort keys after.
struct Replayed<A> {
    aggregate: A,
    own: usize,
}

/// The rows of the frame, and the state they were added into unless one has left since.
struct Frame<S> {
    rows: VecDeque<Vec<Value>>,
    state: Option<S>,
    stale: bool,
}

impl<A: RowAggregate> Replayed<A> {
    /// Orders two rows by their sort keys (SQLite's order of values; NULLs last unless asked).
    fn compare(&self, a: &Vec<Value>, b: &Vec<Value>) -> Ordering {
        let mut i = self.own;
        while i + 1 < a.len().max(b.len()) {
            let how = match a.raw(i + 1) {
                ValueRef::Integer(h) => h,
                _ => 0,
            };
            let (x, y) = (a.owned(i), b.owned(i));
            let order = match (&x, &y) {
                (Value::Null, Value::Null) => Ordering::Equal,
                (Value::Null, _) if how & 2 != 0 => Ordering::Less,
                (Value::Null, _) => Ordering::Greater,
                (_, Value::Null) if how & 2 != 0 => Ordering::Greater,
                (_, Value::Null) => Ordering::Less,
                _ => {
                    let o = compare_values(&x, &y);
                    if how & 1 != 0 { o.reverse() } else { o }
                }
            };
            if order != Ordering::Equal {
                return order;
            }
            i += 2;
        }
        Ordering::Equal
    }

    /// Brings the state up to the frame's rows, adding them again if one left.
    fn refresh(&self, frame: &mut Frame<A::State>) -> Result<()> {
        if !frame.stale {
            return Ok(());
        }
        frame.state = None;
        let mut order: Vec<&Vec<Value>> = frame.rows.iter().collect();
        order.sort_by(|a, b| self.compare(a, b));
        for row in order {
            add(&self.aggregate, &mut frame.state, row)?;
        }
        frame.stale = false;
        Ok(())
    }
}

fn add<A: RowAggregate>(
    aggregate: &A,
    state: &mut Option<A::State>,
    row: &Vec<Value>,
) -> Result<()> {
    let state = match state {
        Some(s) => s,
        None => state.insert(aggregate.init(row)?),
    };
    aggregate.step(row, state)
}

/// SQLite's order of two non-NULL values: numbers, then text, then blobs.
pub(crate) fn compare_values(a: &Value, b: &Value) -> Ordering {
    let rank = |v: &Value| match v {
        Value::Null => 0,
        Value::Integer(_) | Value::Real(_) => 1,
        Value::Text(_) => 2,
        Value::Blob(_) => 3,
    };
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::Integer(x), Value::Real(y)) => (*x as f64).total_cmp(y),
        (Value::Real(x), Value::Integer(y)) => x.total_cmp(&(*y as f64)),
        (Value::Real(x), Value::Real(y)) => x.total_cmp(y),
        (Value::Text(x), Value::Text(y)) => x.cmp(y),
        (Value::Blob(x), Value::Blob(y)) => x.cmp(y),
        _ => rank(a).cmp(&rank(b)),
    }
}

impl<A: RowAggregate> Aggregate<Frame<A::State>, A::Output> for Replayed<A> {
    fn init(&self, _: &mut Context<'_>) -> Result<Frame<A::State>> {
        Ok(Frame {
            rows: VecDeque::new(),
            state: None,
            stale: false,
        })
    }

    fn step(&self, ctx: &mut Context<'_>, frame: &mut Frame<A::State>) -> Result<()> {
        let row: Vec<Value> = (0..ctx.len()).map(|i| ctx.owned(i)).collect();
        // With sort keys a new row may belong anywhere: the frame is added again.
        if row.len() > self.own {
            frame.stale = true;
        }
        if !frame.stale {
            add(&self.aggregate, &mut frame.state, &row)?;
        }
        frame.rows.push_back(row);
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        mut frame: Option<Frame<A::State>>,
    ) -> Result<A::Output> {
        self.value(frame.as_mut())
    }
}

impl<A: RowAggregate> WindowAggregate<Frame<A::State>, A::Output> for Replayed<A> {
    fn value(&self, frame: Option<&mut Frame<A::State>>) -> Result<A::Output> {
        let Some(frame) = frame else {
            return self.aggregate.answer(None);
        };
        self.refresh(frame)?;
        self.aggregate.answer(frame.state.as_mut())
    }

    /// SQLite takes out the oldest row of the frame.
    fn inverse(&self, _: &mut Context<'_>, frame: &mut Frame<A::State>) -> Result<()> {
        frame.rows.pop_front();
        frame.stale = true;
        Ok(())
    }
}

/// The suffix of an aggregate's window form.
pub const WINDOW_FORM_SUFFIX: &str = "_over";

/// Registers `name` (`n_arg` arguments) as a plain aggregate, and `name_over` (the same
/// arguments, then any sort keys) as its window form.
pub fn define_replayable<A: RowAggregate>(
    conn: &Connection,
    name: &'static str,
    n_arg: i32,
    flags: FunctionFlags,
    aggregate: A,
) -> Result<()> {
    define_aggregate(conn, name, n_arg, flags, Plain(aggregate.clone()))?;
    let own = usize::try_from(n_arg).unwrap_or(0);
    define_window(
        conn,
        &format!("{name}{WINDOW_FORM_SUFFIX}"),
        -1,
        flags,
        Replayed { aggregate, own },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sum of the first argument, so a test sees which rows were added.
    #[derive(Clone)]
    struct Total;

    impl RowAggregate for Total {
        type State = i64;
        type Output = Option<i64>;

        fn init(&self, _: &dyn Args) -> Result<i64> {
            Ok(0)
        }

        fn step(&self, row: &dyn Args, sum: &mut i64) -> Result<()> {
            if let ValueRef::Integer(x) = row.raw(0) {
                *sum += x;
            }
            Ok(())
        }

        fn answer(&self, sum: Option<&mut i64>) -> Result<Option<i64>> {
            Ok(sum.map(|s| *s))
        }
    }

    #[derive(Clone)]
    struct Joined;

    impl RowAggregate for Joined {
        type State = String;
        type Output = String;

        fn init(&self, _: &dyn Args) -> Result<String> {
            Ok(String::new())
        }

        fn step(&self, row: &dyn Args, out: &mut String) -> Result<()> {
            if let ValueRef::Text(t) = row.raw(0) {
                out.push_str(&String::from_utf8_lossy(t));
            }
            Ok(())
        }

        fn answer(&self, out: Option<&mut String>) -> Result<String> {
            Ok(out.map(|s| s.clone()).unwrap_or_default())
        }
    }

    fn connection() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        define_replayable(&conn, "qm_test_total", 1, super::super::FLAGS, Total).unwrap();
        define_replayable(&conn, "qm_test_joined", 1, super::super::FLAGS, Joined).unwrap();
        conn
    }

    fn column<T: rusqlite::types::FromSql>(conn: &Connection, sql: &str) -> Vec<T> {
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<Vec<T>>>()
            .unwrap()
    }

    /// A sliding frame adds the rows left again; a running one adds each row once.
    #[test]
    fn sliding_and_running_frames() {
        let conn = connection();
        let rows = "VALUES (1), (2), (4), (8)";
        let sliding: Vec<i64> = column(
            &conn,
            &format!(
                "SELECT qm_test_total_over(column1) OVER (ORDER BY column1 ROWS BETWEEN 1 \
                 PRECEDING AND CURRENT ROW) FROM ({rows}) ORDER BY column1"
            ),
        );
        assert_eq!(sliding, vec![1, 3, 6, 12]);
        let running: Vec<i64> = column(
            &conn,
            &format!(
                "SELECT qm_test_total_over(column1) OVER (ORDER BY column1) FROM ({rows}) \
                 ORDER BY column1"
            ),
        );
        assert_eq!(running, vec![1, 3, 7, 15]);
        let plain: Vec<i64> = column(
            &conn,
            &format!("SELECT qm_test_total(column1) FROM ({rows})"),
        );
        assert_eq!(plain, vec![15]);
    }

    /// Sort keys order the frame's rows (descending here), whatever the window's order.
    #[test]
    fn sort_keys_order_the_rows_added() {
        let conn = connection();
        let joined: Vec<String> = column(
            &conn,
            "SELECT qm_test_joined_over(column1, column1, 1) OVER () \
             FROM (VALUES ('b'), ('a'), ('c'))",
        );
        assert_eq!(joined, vec!["cba", "cba", "cba"]);
    }
}

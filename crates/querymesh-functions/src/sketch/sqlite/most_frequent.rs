//! `qm_approx_most_frequent(buckets, x, capacity)`: the `buckets` most frequent values of a
//! Space-Saving summary of `capacity` counters, as a map's JSON (`[[value, count], …]`).
//! Rows with a NULL are skipped; no row gives NULL. Trino answers from the summary rebuilt
//! out of the partial aggregation's top `buckets` (ApproximateMostFrequentHistogram's
//! serialization), offered largest first: the same values, so it is not rebuilt here.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};

use crate::sketch::most_frequent::StreamSummary;
use crate::udf::{Args, FLAGS, RowAggregate, define_replayable, fail};

#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Long(i64),
    Text(String),
}

struct State {
    summary: StreamSummary<Key>,
    buckets: usize,
}

#[derive(Clone)]
struct MostFrequent;

impl RowAggregate for MostFrequent {
    type State = Option<State>;
    type Output = Option<String>;

    fn init(&self, _: &dyn Args) -> Result<Option<State>> {
        Ok(None)
    }

    fn step(&self, row: &dyn Args, state: &mut Option<State>) -> Result<()> {
        let (ValueRef::Integer(buckets), ValueRef::Integer(capacity)) = (row.raw(0), row.raw(2))
        else {
            return Ok(());
        };
        let key = match row.raw(1) {
            ValueRef::Integer(i) => Key::Long(i),
            ValueRef::Text(t) | ValueRef::Blob(t) => {
                Key::Text(String::from_utf8_lossy(t).into_owned())
            }
            _ => return Ok(()),
        };
        if state.is_none() {
            if buckets < 2 {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "approx_most_frequent bucket count must be greater than one",
                ));
            }
            let int = |n: i64| {
                i32::try_from(n)
                    .map_err(|_| fail(ErrorName::NumericValueOutOfRange, "integer overflow"))
            };
            let (buckets, capacity) = (int(buckets)?, int(capacity)?);
            *state = Some(State {
                summary: StreamSummary::new(usize::try_from(capacity).unwrap_or(0)),
                buckets: usize::try_from(buckets).unwrap_or(0),
            });
        }
        if let Some(state) = state
            && !state.summary.offer(key, 1)
        {
            // StreamSummary of no counter: Trino fails (a NullPointerException).
            return Err(fail(
                ErrorName::GenericInternalError,
                "approx_most_frequent capacity must be positive",
            ));
        }
        Ok(())
    }

    fn answer(&self, state: Option<&mut Option<State>>) -> Result<Option<String>> {
        let Some(Some(state)) = state else {
            return Ok(None);
        };
        let pairs: Vec<String> = state
            .summary
            .top(state.buckets)
            .into_iter()
            .map(|(key, count)| match key {
                Key::Long(k) => format!("[{k},{count}]"),
                Key::Text(t) => format!("[{},{count}]", serde_json::Value::from(t)),
            })
            .collect();
        Ok(Some(format!("[{}]", pairs.join(","))))
    }
}

pub const QM_APPROX_MOST_FREQUENT: SqliteFn = SqliteFn::new("qm_approx_most_frequent");

pub(super) fn register(conn: &Connection) -> Result<()> {
    define_replayable(conn, QM_APPROX_MOST_FREQUENT.name(), 3, FLAGS, MostFrequent)
}

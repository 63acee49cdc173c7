//! `qm_numeric_histogram(buckets, x, real)` and `qm_numeric_histogram_weighted(buckets, x,
//! real, weight)`: the histogram as a map's JSON (`[[value, weight], …]` in ascending order of
//! value; a real's as reals). Rows with a NULL are skipped; no row gives NULL.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};

use super::double_of;
use crate::sketch::numeric_histogram::NumericHistogram;
use crate::udf::{Args, FLAGS, RowAggregate, define_replayable, fail};

#[derive(Clone)]
struct Histogram {
    weighted: bool,
}

struct State {
    histogram: NumericHistogram,
    real: bool,
}

/// A bucket's value or weight as the map holds it: a double, or a real's float.
fn number(x: f64, real: bool) -> String {
    let x = if real { f64::from(x as f32) } else { x };
    match x {
        x if x.is_nan() => "\"NaN\"".to_string(),
        x if x == f64::INFINITY => "\"Infinity\"".to_string(),
        x if x == f64::NEG_INFINITY => "\"-Infinity\"".to_string(),
        x => serde_json::Value::from(x).to_string(),
    }
}

impl RowAggregate for Histogram {
    type State = Option<State>;
    type Output = Option<String>;

    fn init(&self, _: &dyn Args) -> Result<Option<State>> {
        Ok(None)
    }

    fn step(&self, row: &dyn Args, state: &mut Option<State>) -> Result<()> {
        let (ValueRef::Integer(buckets), Some(value)) = (row.raw(0), double_of(row.raw(1))) else {
            return Ok(());
        };
        let weight = if self.weighted {
            match double_of(row.raw(3)) {
                Some(w) => w,
                None => return Ok(()),
            }
        } else {
            1.0
        };
        if state.is_none() {
            if buckets < 2 {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "numeric_histogram bucket count must be greater than one",
                ));
            }
            let Ok(buckets) = usize::try_from(i32::try_from(buckets).unwrap_or(i32::MAX)) else {
                return Ok(());
            };
            *state = Some(State {
                histogram: NumericHistogram::new(buckets),
                real: matches!(row.raw(2), ValueRef::Integer(1)),
            });
        }
        if let Some(state) = state {
            // A real is added as its float (RealHistogramAggregation: intBitsToFloat).
            let value = if state.real {
                f64::from(value as f32)
            } else {
                value
            };
            state.histogram.add(value, weight);
        }
        Ok(())
    }

    fn answer(&self, state: Option<&mut Option<State>>) -> Result<Option<String>> {
        let Some(Some(state)) = state else {
            return Ok(None);
        };
        let real = state.real;
        let pairs: Vec<String> = state
            .histogram
            .clone()
            .buckets()
            .into_iter()
            .map(|(v, w)| format!("[{},{}]", number(v, real), number(w, real)))
            .collect();
        Ok(Some(format!("[{}]", pairs.join(","))))
    }
}

pub const QM_NUMERIC_HISTOGRAM: SqliteFn = SqliteFn::new("qm_numeric_histogram");
pub const QM_NUMERIC_HISTOGRAM_WEIGHTED: SqliteFn = SqliteFn::new("qm_numeric_histogram_weighted");

pub(super) fn register(conn: &Connection) -> Result<()> {
    define_replayable(
        conn,
        QM_NUMERIC_HISTOGRAM.name(),
        3,
        FLAGS,
        Histogram { weighted: false },
    )?;
    let weighted = Histogram { weighted: true };
    define_replayable(
        conn,
        QM_NUMERIC_HISTOGRAM_WEIGHTED.name(),
        4,
        FLAGS,
        weighted,
    )
}

//! The wire shapes of Trino's client protocol: query ids, the `QueryResults` document every
//! statement response carries, its `stats`, and the `nextUri` / `infoUri` addresses.
//!
//! Null fields are omitted, `data` is always a JSON array of rows (a JSON object would be read
//! as the spooling protocol), and `id`, `infoUri` and `stats` are in every response because
//! the python client reads them unconditionally (see /work/shared/spec/trino-facts.md).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::querymesh::engine::OutputColumn;
use crate::querymesh::engine::types::TrinoType;

use crate::querymesh::engine::sql::calendar::civil_from_days;

/// Where statements are posted.
pub const STATEMENT_PATH: &str = "/v1/statement";
/// The prefix of every `nextUri`: `/v1/statement/executing/{id}/{slug}/{token}`.
pub const EXECUTING_PATH: &str = "/v1/statement/executing";
/// Trino's query resource: `DELETE {QUERY_PATH}/{id}` cancels by id.
pub const QUERY_PATH: &str = "/v1/query";
/// The query page `infoUri` points at: `/ui/query.html?{id}`.
pub const INFO_PATH: &str = "/ui/query.html";

/// Trino's query id alphabet for the coordinator part: lower-case base 32 without the
/// look-alikes `l`, `o`, `0`, `1`.
const COORDINATOR_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// Makes query ids shaped like Trino's: `YYYYMMDD_HHMMSS_NNNNN_xxxxx` (UTC time, a counter
/// that wraps at 100 000, and this server's random coordinator id).
#[derive(Debug)]
pub struct QueryIds {
    coordinator: String,
    counter: AtomicU64,
}

impl Default for QueryIds {
    fn default() -> Self {
        let coordinator = (0..5)
            .map(|_| {
                let i = rand::random::<u32>() as usize % COORDINATOR_ALPHABET.len();
                COORDINATOR_ALPHABET[i] as char
            })
            .collect();
        Self {
            coordinator,
            counter: AtomicU64::new(0),
        }
    }
}

impl QueryIds {
    pub fn next(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed) % 100_000;
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let (year, month, day) = civil_from_days((secs / 86_400) as i64);
        let time = secs % 86_400;
        format!(
            "{year:04}{month:02}{day:02}_{:02}{:02}{:02}_{n:05}_{}",
            time / 3600,
            time / 60 % 60,
            time % 60,
            self.coordinator
        )
    }
}

/// The `columns` array for `columns`, rendered once per query.
pub fn columns_json(columns: &[OutputColumn]) -> Box<RawValue> {
    let columns: Vec<Value> = columns
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "type": client_type_name(&c.ty, true),
                "typeSignature": c.ty.type_signature(),
            })
        })
        .collect();
    serde_json::value::to_raw_value(&columns)
        .unwrap_or_else(|_| RawValue::from_string("[]".into()).unwrap_or_default())
}

/// A column's `type` as Trino sends it (ClientTypeSignature's text): the type's name, but
/// intervals in capitals at every depth (`array(INTERVAL DAY TO SECOND)`, while `typeof`
/// and the signature's `rawType` say `interval day to second`), and, for a client that does
/// not declare `PARAMETRIC_DATETIME` (`parametric` false), times and timestamps without their
/// precision (legacy_datetime.rs). What Trino 476 sends.
pub fn client_type_name(ty: &TrinoType, parametric: bool) -> String {
    let name = |t: &TrinoType| client_type_name(t, parametric);
    match ty {
        TrinoType::IntervalDayToSecond => "INTERVAL DAY TO SECOND".into(),
        TrinoType::IntervalYearToMonth => "INTERVAL YEAR TO MONTH".into(),
        TrinoType::Time(_) if !parametric => "time".into(),
        TrinoType::TimeTz(_) if !parametric => "time with time zone".into(),
        TrinoType::Timestamp(_) if !parametric => "timestamp".into(),
        TrinoType::TimestampTz(_) if !parametric => "timestamp with time zone".into(),
        TrinoType::Array(element) => format!("array({})", name(element)),
        TrinoType::Map(key, value) => format!("map({}, {})", name(key), name(value)),
        TrinoType::Row(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(field, t)| match field {
                    Some(field) => format!("{field} {}", name(t)),
                    None => name(t),
                })
                .collect();
            format!("row({})", fields.join(", "))
        }
        other => other.to_string(),
    }
}

/// A query's state as the protocol names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum QueryState {
    Queued,
    Running,
    Finished,
    Failed,
}

/// `stats`: Trino's StatementStats. A single node runs everything, so the split and node
/// counts only tell the client how far along the query is.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub state: QueryState,
    pub queued: bool,
    pub scheduled: bool,
    pub nodes: u32,
    pub total_splits: u32,
    pub queued_splits: u32,
    pub running_splits: u32,
    pub completed_splits: u32,
    pub cpu_time_millis: u64,
    pub wall_time_millis: u64,
    pub queued_time_millis: u64,
    pub elapsed_time_millis: u64,
    pub processed_rows: u64,
    pub processed_bytes: u64,
    pub physical_input_bytes: u64,
    pub peak_memory_bytes: u64,
    pub spilled_bytes: u64,
    /// Trino's client computes it from the splits once the query is scheduled:
    /// `min(100, completedSplits × 100 / totalSplits)`, absent before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress_percentage: Option<f64>,
}

impl Stats {
    pub fn new(state: QueryState, elapsed: Duration, processed_rows: u64) -> Self {
        let done = matches!(state, QueryState::Finished | QueryState::Failed);
        let running = state == QueryState::Running;
        let millis = elapsed.as_millis().min(u128::from(u64::MAX)) as u64;
        Self {
            state,
            queued: state == QueryState::Queued,
            scheduled: state != QueryState::Queued,
            nodes: u32::from(state != QueryState::Queued),
            total_splits: 1,
            queued_splits: u32::from(state == QueryState::Queued),
            running_splits: u32::from(running),
            completed_splits: u32::from(done),
            cpu_time_millis: millis,
            wall_time_millis: millis,
            queued_time_millis: 0,
            elapsed_time_millis: millis,
            processed_rows,
            processed_bytes: 0,
            physical_input_bytes: 0,
            peak_memory_bytes: 0,
            spilled_bytes: 0,
            progress_percentage: (state != QueryState::Queued).then_some(if done {
                100.0
            } else {
                0.0
            }),
        }
    }
}

/// One response of the statement protocol.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryResults<'a> {
    pub id: &'a str,
    pub info_uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_uri: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<&'a RawValue>,
    /// Rows already encoded by the engine: a JSON array of arrays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<&'a RawValue>,
    pub stats: Stats,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    pub warnings: [(); 0],
    /// The kind of a statement that changes something instead of reading (`USE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_type: Option<&'static str>,
}

impl QueryResults<'_> {
    pub fn to_body(&self) -> String {
        // Only strings, numbers and pre-rendered JSON: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

pub fn info_uri(base: &str, id: &str) -> String {
    format!("{base}{INFO_PATH}?{id}")
}

pub fn next_uri(base: &str, id: &str, slug: &str, token: u64) -> String {
    format!("{base}{EXECUTING_PATH}/{id}/{slug}/{token}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trino 476's `type` for `SELECT ARRAY[INTERVAL '1' DAY], ROW(INTERVAL '1' MONTH),
    /// MAP(ARRAY[1], ARRAY[INTERVAL '1' DAY]), TIME '01:02:03.456 -08:00'` to a client that
    /// declares PARAMETRIC_DATETIME; the signature keeps the lower-case `rawType`.
    #[test]
    fn intervals_are_named_in_capitals_at_every_depth() {
        let interval = || Box::new(TrinoType::IntervalDayToSecond);
        let cases = [
            (
                TrinoType::Array(interval()),
                "array(INTERVAL DAY TO SECOND)",
            ),
            (
                TrinoType::Row(vec![(None, TrinoType::IntervalYearToMonth)]),
                "row(INTERVAL YEAR TO MONTH)",
            ),
            (
                TrinoType::Map(Box::new(TrinoType::Integer), interval()),
                "map(integer, INTERVAL DAY TO SECOND)",
            ),
            (TrinoType::TimeTz(3), "time(3) with time zone"),
        ];
        for (ty, expected) in cases {
            assert_eq!(client_type_name(&ty, true), expected);
        }
        assert_eq!(
            TrinoType::IntervalDayToSecond.type_signature()["rawType"],
            "interval day to second"
        );
    }

    #[test]
    fn query_ids_have_trinos_shape() {
        let ids = QueryIds::default();
        let id = ids.next();
        let parts: Vec<&str> = id.split('_').collect();
        assert_eq!(parts.len(), 4, "{id}");
        assert_eq!(parts[0].len(), 8);
        assert_eq!(parts[1].len(), 6);
        assert_eq!(parts[2], "00000");
        assert_eq!(parts[3].len(), 5);
        assert!(
            parts[..3]
                .iter()
                .all(|p| p.bytes().all(|b| b.is_ascii_digit()))
        );
        assert!(ids.next().contains("_00001_"));
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
    }

    #[test]
    fn null_fields_are_omitted() {
        let body = QueryResults {
            id: "x",
            info_uri: info_uri("http://h", "x"),
            next_uri: None,
            columns: None,
            data: None,
            stats: Stats::new(QueryState::Finished, Duration::ZERO, 0),
            error: None,
            warnings: [],
            update_type: None,
        }
        .to_body();
        let v: Value = serde_json::from_str(&body).unwrap();
        assert!(v.get("nextUri").is_none() && v.get("error").is_none());
        assert!(v.get("updateType").is_none());
        assert_eq!(v["infoUri"], "http://h/ui/query.html?x");
        assert_eq!(v["stats"]["state"], "FINISHED");
        assert_eq!(v["stats"]["progressPercentage"], 100.0);
        assert_eq!(v["warnings"], json!([]));
    }
}

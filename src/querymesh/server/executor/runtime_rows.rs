//! The queries as `system.runtime.queries` lists them (Trino's `QuerySystemTable`): those the
//! registry still keeps — running, queued, and ended ones until their client is done with
//! them.

use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime};

use super::Executor;
use super::query::Query;
use crate::querymesh::engine::system_catalog::QueryRow;

impl Executor {
    pub fn query_rows(&self) -> Vec<QueryRow> {
        let queries: Vec<_> = self.registry().values().cloned().collect();
        let now = SystemTime::now();
        queries.iter().map(|q| query_row(q, now)).collect()
    }
}

fn query_row(query: &Query, now: SystemTime) -> QueryRow {
    let created = now
        .checked_sub(query.created.elapsed())
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let after = |ms: u64| created + Duration::from_millis(ms);
    let ended_after = query.ended_after.load(Ordering::Relaxed);
    let state = query.state_name();
    // A query the client cancelled is FAILED with USER_CANCELED before its end is recorded.
    let failure = query.failure.get().cloned().or_else(|| {
        (state == "FAILED")
            .then(|| query.control.stopped().map(|stop| stop.error().to_json()))
            .flatten()
    });
    let field = |name: &str| {
        failure
            .as_ref()
            .and_then(|f| f[name].as_str())
            .map(str::to_string)
    };
    QueryRow {
        query_id: query.id.clone(),
        state: state.to_string(),
        user: query.owner().to_string(),
        source: query.source.clone(),
        query: query.text.get().cloned().unwrap_or_default(),
        resource_group_id: query.resource_group.clone(),
        // The stand-in does not time the queue apart from the run.
        queued_time_ms: 0,
        created,
        started: query.started.load(Ordering::Relaxed).then_some(created),
        last_heartbeat: after(query.last_seen.load(Ordering::Relaxed)),
        end: (ended_after > 0).then(|| after(ended_after)),
        error_type: field("errorType"),
        error_code: field("errorName"),
    }
}

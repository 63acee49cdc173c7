//! One query: how it is stopped, its pages for the client, and what its owner may read of it.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use rusqlite::InterruptHandle;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::{Semaphore, mpsc, watch};

use crate::platform::{Journal, NewEvent, Source};
use crate::querymesh::engine::TableAccess;
use crate::querymesh::engine::error::{ErrorName, TrinoError};
use crate::querymesh::engine::types::TrinoType;
use crate::querymesh::server::protocol::{self, QueryResults, QueryState, Stats};

/// How long a GET waits for rows before answering with an empty page (Trino's default
/// `maxWait` for a results request is one second).
pub(super) const PAGE_WAIT: Duration = Duration::from_secs(1);
/// A page holds up to this many bytes of rows (Trino's default target result size)…
pub(super) const PAGE_BYTES: usize = 1 << 20;
/// …and up to this many rows.
pub(super) const PAGE_ROWS: usize = 10_000;
/// The producer sends a chunk when it holds this many bytes, rows, or has waited this long.
pub(super) const CHUNK_BYTES: usize = 64 << 10;
pub(super) const CHUNK_ROWS: usize = 1_000;
pub(super) const CHUNK_AGE: Duration = Duration::from_millis(50);
/// Chunks past CHUNK_BYTES (rows of large values) in flight between producer and pages hold
/// at most this many KiB together, one larger chunk alone: the channel bounds how many chunks
/// wait, this what they weigh, so a client that does not fetch holds a few MB, not a channel
/// full of the largest rows its query's budget allows.
const IN_FLIGHT_KIB: u32 = 4 << 10;

/// The KiB a chunk of `bytes` holds of [`IN_FLIGHT_KIB`]: none for an ordinary chunk.
fn in_flight_kib(bytes: usize) -> u32 {
    if bytes <= CHUNK_BYTES {
        return 0;
    }
    u32::try_from(bytes.div_ceil(1024)).map_or(IN_FLIGHT_KIB, |kib| kib.min(IN_FLIGHT_KIB))
}

/// [`Query::outcome`] values.
pub(super) const FINISHED: u8 = 1;
pub(super) const FAILED: u8 = 2;

/// Why a query was stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Canceled,
    TimeLimit(Duration),
}

impl Stop {
    pub(super) fn error(self) -> TrinoError {
        match self {
            Self::Canceled => TrinoError::new(ErrorName::UserCanceled, "Query was canceled"),
            Self::TimeLimit(limit) => TrinoError::new(
                ErrorName::ExceededTimeLimit,
                format!(
                    "Query exceeded maximum time limit of {:.2}s",
                    limit.as_secs_f64()
                ),
            ),
        }
    }
}

/// A batch of encoded rows; the last one of a query carries how it ended.
pub(super) struct Chunk {
    /// Rows as JSON arrays separated by commas, without the enclosing brackets.
    pub(super) json: String,
    pub(super) rows: usize,
    pub(super) end: Option<Result<(), TrinoError>>,
}

/// Stops a running query: the reason, and the interrupt of the connection it runs on.
pub(super) struct Control {
    pub(super) state: Mutex<ControlState>,
    /// Set by the first stop; read by SQLite's progress handler while the query runs.
    pub(super) flag: Arc<AtomicBool>,
    pub(super) stopped: watch::Sender<Option<Stop>>,
}

pub(super) struct ControlState {
    pub(super) stop: Option<Stop>,
    /// Set only while the query runs on a connection, so a late stop never interrupts the
    /// next query on that connection.
    pub(super) interrupt: Option<InterruptHandle>,
}

impl Control {
    pub(super) fn new() -> Self {
        Self {
            state: Mutex::new(ControlState {
                stop: None,
                interrupt: None,
            }),
            flag: Arc::new(AtomicBool::new(false)),
            stopped: watch::channel(None).0,
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, ControlState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records the first stop and interrupts SQLite if the query is on a connection.
    pub(super) fn stop(&self, why: Stop) {
        {
            let mut state = self.lock();
            if state.stop.is_some() {
                return;
            }
            state.stop = Some(why);
            self.flag.store(true, Ordering::Relaxed);
            if let Some(interrupt) = &state.interrupt {
                interrupt.interrupt();
            }
        }
        self.stopped.send_replace(Some(why));
    }

    pub(super) fn stopped(&self) -> Option<Stop> {
        self.lock().stop
    }

    /// Registers the connection's interrupt; false when the query was already stopped.
    pub(super) fn arm(&self, interrupt: InterruptHandle) -> bool {
        let mut state = self.lock();
        if state.stop.is_some() {
            return false;
        }
        state.interrupt = Some(interrupt);
        true
    }

    pub(super) fn disarm(&self) {
        self.lock().interrupt = None;
    }
}

/// What the client has been served so far.
pub(super) struct Pages {
    pub(super) rows: mpsc::Receiver<Chunk>,
    /// The token the next page is served for; `None` once the last page was served.
    pub(super) next_token: Option<u64>,
    /// The last page served, by token: a repeated GET gets it again (Trino's idempotence).
    pub(super) last: Option<(u64, Arc<str>)>,
}

/// One query, from submission until it is swept.
pub struct Query {
    pub id: String,
    pub(super) slug: String,
    /// For the log: the principal's `sub`.
    pub(super) principal: String,
    pub(super) created: Instant,
    pub(super) columns: Arc<Box<RawValue>>,
    pub(super) control: Control,
    pub(super) pages: tokio::sync::Mutex<Pages>,
    pub(super) processed_rows: AtomicU64,
    /// Elapsed milliseconds when it ended (0 while running), for `stats`.
    pub(super) ended_after: AtomicU64,
    /// Milliseconds after `created` of the client's last request.
    pub(super) last_seen: AtomicU64,
    /// How the query ended for its client, once the last page was served: 0 while pages
    /// remain, then [`FINISHED`] or [`FAILED`].
    pub(super) outcome: AtomicU8,
    /// Set once the query runs on a connection: QUEUED before, RUNNING after.
    pub(super) started: AtomicBool,
    /// `updateType` of its pages: what the statement changes, if it is not a read.
    pub(super) update_type: Option<&'static str>,
    /// Failed before it could run: its info page says so before its client reads the error.
    pub(super) refused: bool,
    /// `X-Trino-Source`, for `system.runtime.queries`.
    pub(super) source: Option<String>,
    /// The statement's text, for its owner's `GET /v1/query/{id}` and
    /// `system.runtime.queries` (never logged).
    pub(super) text: OnceLock<String>,
    /// What the statement changes in its client's session (`X-Trino-Set-Schema`,
    /// `X-Trino-Added-Prepare`, …): sent with its last page once it has finished, as Trino
    /// sends them. Never on an earlier page: Trino's Java client (JDBC, CLI) takes the catalog
    /// and schema from its last answer, so a `USE` told earlier was forgotten there.
    pub(super) session_changes: OnceLock<axum::http::HeaderMap>,
    /// How it failed, once it has: Trino's `error` object.
    pub(super) failure: OnceLock<Value>,
    /// What large chunks in flight may weigh (see [`IN_FLIGHT_KIB`]).
    pub(super) in_flight: Semaphore,
    /// Where its end is recorded (Trino's completed-query event); none in unit tests.
    pub(super) journal: Option<Journal>,
    /// The resource group it was placed in, its names from the root (none when refused).
    pub(super) resource_group: Option<Vec<String>>,
    /// The tables it reads, with the row filters and column masks applied to each, for the
    /// completed-query event.
    pub(super) tables: Vec<TableAccess>,
    /// The column types, when its client did not ask for `PARAMETRIC_DATETIME` and a column
    /// holds times or timestamps: each row is rewritten as Trino writes it for such a client.
    pub(super) legacy_datetime: Option<Arc<Vec<TrinoType>>>,
}

/// Why a page request was refused (answered without a QueryResults body).
#[derive(Debug, PartialEq, Eq)]
pub enum PageError {
    /// Unknown query, wrong slug, or a token past the end (HTTP 404).
    NotFound,
    /// A token before the last one served: that data is gone (HTTP 410).
    Gone,
}

impl Query {
    pub(super) fn new(
        id: String,
        principal: String,
        columns: Arc<Box<RawValue>>,
        rows: mpsc::Receiver<Chunk>,
    ) -> Self {
        Self {
            slug: uuid::Uuid::new_v4().simple().to_string(),
            principal,
            created: Instant::now(),
            columns,
            control: Control::new(),
            pages: tokio::sync::Mutex::new(Pages {
                rows,
                next_token: Some(1),
                last: None,
            }),
            processed_rows: AtomicU64::new(0),
            ended_after: AtomicU64::new(0),
            last_seen: AtomicU64::new(0),
            outcome: AtomicU8::new(0),
            started: AtomicBool::new(false),
            update_type: None,
            refused: false,
            source: None,
            text: OnceLock::new(),
            session_changes: OnceLock::new(),
            failure: OnceLock::new(),
            legacy_datetime: None,
            in_flight: Semaphore::new(IN_FLIGHT_KIB as usize),
            journal: None,
            resource_group: None,
            tables: Vec::new(),
            id,
        }
    }

    /// Sends a chunk of rows to the pages, first waiting while large chunks before it weigh
    /// [`IN_FLIGHT_KIB`]; false when the pages are gone.
    pub(super) async fn send(&self, tx: &mpsc::Sender<Chunk>, chunk: Chunk) -> bool {
        let kib = in_flight_kib(chunk.json.len());
        if kib > 0 {
            match self.in_flight.acquire_many(kib).await {
                // Given back by `collect` when the pages take the chunk.
                Ok(permit) => permit.forget(),
                Err(_) => return false,
            }
        }
        tx.send(chunk).await.is_ok()
    }

    /// Who ran the query: the principal's `sub`.
    pub fn owner(&self) -> &str {
        &self.principal
    }

    pub(super) fn elapsed(&self) -> Duration {
        match self.ended_after.load(Ordering::Relaxed) {
            0 => self.created.elapsed(),
            ms => Duration::from_millis(ms),
        }
    }

    pub(super) fn touch(&self) {
        let ms = self.created.elapsed().as_millis() as u64;
        self.last_seen.store(ms, Ordering::Relaxed);
    }

    pub(super) fn idle(&self) -> Duration {
        self.created.elapsed().saturating_sub(Duration::from_millis(
            self.last_seen.load(Ordering::Relaxed),
        ))
    }

    pub(super) fn end(&self, state: &'static str, error: Option<&TrinoError>) {
        if let Some(error) = error {
            let _ = self.failure.set(error.to_json());
        }
        let elapsed = self.created.elapsed();
        let first_end = self
            .ended_after
            .compare_exchange(
                0,
                (elapsed.as_millis() as u64).max(1),
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok();
        if let Some(journal) = self.journal.as_ref().filter(|_| first_end) {
            journal.record(self.completed_event(state, error, elapsed));
        }
        tracing::info!(
            query_id = %self.id,
            principal = %self.principal,
            state,
            error = error.map(|e| e.name.name_and_code().0),
            elapsed_ms = elapsed.as_millis() as u64,
            rows = self.processed_rows.load(Ordering::Relaxed),
            "query ended"
        );
    }

    /// Trino's completed-query event (`QueryCompletedEvent`): who, how it ended, how long and
    /// how many rows — never the statement's text.
    fn completed_event(
        &self,
        state: &'static str,
        error: Option<&TrinoError>,
        elapsed: Duration,
    ) -> NewEvent {
        let error_name = error.map(|e| e.name.name_and_code().0);
        NewEvent::new(Source::QueryMesh, "QUERY_COMPLETED")
            .of_person(self.principal.clone())
            .outcome(error_name.unwrap_or(state))
            .details(serde_json::json!({
                "query_id": self.id,
                "user": self.principal,
                "state": state,
                "error_name": error_name,
                "elapsed_ms": elapsed.as_millis() as u64,
                "rows": self.processed_rows.load(Ordering::Relaxed),
                // Trino's `ioMetadata.inputs`, with what the policies did to each: the rules
                // by position and the masked columns, never the expressions.
                "tables": self.tables.iter().map(|t| serde_json::json!({
                    "catalog": t.catalog,
                    "schema": t.schema,
                    "table": t.table,
                    "filters": t.filters,
                    "masks": t.masks,
                })).collect::<Vec<_>>(),
            }))
    }

    /// The response to the statement POST: queued, with the first `nextUri`.
    pub fn first_response(&self, base: &str) -> String {
        QueryResults {
            id: &self.id,
            info_uri: protocol::info_uri(base, &self.id),
            next_uri: Some(protocol::next_uri(base, &self.id, &self.slug, 1)),
            // Trino's queued resource answers before the statement is analysed: neither its
            // columns nor its `updateType` yet. Trino's Java client (JDBC, CLI) takes the
            // first answer with columns as the one that says whether the statement is a query
            // or an update; columns here without `updateType` made every PREPARE, USE and SET
            // SESSION a query to it, so it never held their prepared statement or session.
            columns: None,
            data: None,
            stats: Stats::new(QueryState::Queued, self.created.elapsed(), 0),
            error: None,
            warnings: [],
            update_type: None,
        }
        .to_body()
    }

    /// The columns, unless the statement failed before it had any (Trino then sends none); a
    /// statement without output (USE, SET SESSION, PREPARE) has none, `"columns": []`.
    pub(super) fn known_columns(&self) -> Option<&RawValue> {
        Some(&**self.columns).filter(|columns| columns.get() != "[]" || self.update_type.is_some())
    }

    pub fn cancel(&self) {
        self.touch();
        self.control.stop(Stop::Canceled);
    }

    /// The page for `token`: the next rows (waiting up to [`PAGE_WAIT`] for the first), the
    /// final page without `nextUri`, or the query's error.
    pub async fn page(&self, token: u64, base: &str) -> Result<Arc<str>, PageError> {
        self.touch();
        let mut pages = self.pages.lock().await;
        if pages.next_token != Some(token) {
            return match &pages.last {
                Some((last, body)) if *last == token => Ok(body.clone()),
                Some((last, _)) if token < *last => Err(PageError::Gone),
                _ => Err(PageError::NotFound),
            };
        }
        let (data, rows, end) = self.collect(&mut pages.rows).await;
        let running = if self.started.load(Ordering::Relaxed) {
            QueryState::Running
        } else {
            QueryState::Queued
        };
        let (state, next_uri, error) = match &end {
            None => (
                running,
                Some(protocol::next_uri(base, &self.id, &self.slug, token + 1)),
                None,
            ),
            Some(Ok(())) => (QueryState::Finished, None, None),
            Some(Err(e)) => (QueryState::Failed, None, Some(e)),
        };
        if let Some(end) = &end {
            self.end(
                if end.is_ok() { "FINISHED" } else { "FAILED" },
                end.as_ref().err(),
            );
            let outcome = if end.is_ok() { FINISHED } else { FAILED };
            self.outcome.store(outcome, Ordering::Relaxed);
        }
        let data = (rows > 0 && error.is_none())
            .then(|| RawValue::from_string(format!("[{data}]")).ok())
            .flatten();
        let body: Arc<str> = QueryResults {
            id: &self.id,
            info_uri: protocol::info_uri(base, &self.id),
            next_uri,
            columns: self.known_columns(),
            data: data.as_deref(),
            stats: Stats::new(
                state,
                self.elapsed(),
                self.processed_rows.load(Ordering::Relaxed),
            ),
            error: error.map(TrinoError::to_json),
            warnings: [],
            update_type: self.update_type,
        }
        .to_body()
        .into();
        pages.next_token = end.is_none().then_some(token + 1);
        pages.last = Some((token, body.clone()));
        Ok(body)
    }

    /// Gathers the rows for one page; `end` is how the query ended if it did.
    async fn collect(
        &self,
        rows: &mut mpsc::Receiver<Chunk>,
    ) -> (String, usize, Option<Result<(), TrinoError>>) {
        let mut data = String::new();
        let mut count = 0;
        let deadline = tokio::time::Instant::now() + PAGE_WAIT;
        let mut stopped = self.control.stopped.subscribe();
        loop {
            if let Some(stop) = self.control.stopped() {
                return (data, count, Some(Err(stop.error())));
            }
            let chunk = if count == 0 {
                tokio::select! {
                    // Rows first: when they are already there (a short query), the timer is
                    // never armed.
                    biased;
                    chunk = rows.recv() => chunk,
                    _ = tokio::time::sleep_until(deadline) => return (data, count, None),
                    _ = stopped.wait_for(Option::is_some) => continue,
                }
            } else {
                match rows.try_recv() {
                    Ok(chunk) => Some(chunk),
                    Err(mpsc::error::TryRecvError::Empty) => return (data, count, None),
                    Err(mpsc::error::TryRecvError::Disconnected) => None,
                }
            };
            if let Some(chunk) = &chunk {
                self.in_flight
                    .add_permits(in_flight_kib(chunk.json.len()) as usize);
            }
            let Some(chunk) = chunk else {
                // The producer is gone without saying how it ended: only a stop does that.
                let error = self.control.stopped().map_or_else(
                    || {
                        tracing::error!(query_id = %self.id, "a query ended without an answer");
                        TrinoError::internal(&self.id)
                    },
                    Stop::error,
                );
                return (data, count, Some(Err(error)));
            };
            if chunk.rows > 0 {
                if count > 0 {
                    data.push(',');
                }
                data.push_str(&chunk.json);
                count += chunk.rows;
            }
            if let Some(end) = chunk.end {
                return (data, count, Some(end));
            }
            if data.len() >= PAGE_BYTES || count >= PAGE_ROWS {
                return (data, count, None);
            }
        }
    }

    /// Trino's name for the state the query is in now.
    pub(super) fn state_name(&self) -> &'static str {
        match (self.outcome.load(Ordering::Relaxed), self.control.stopped()) {
            (FINISHED, _) => "FINISHED",
            (FAILED, _) | (_, Some(_)) => "FAILED",
            _ if self.refused => "FAILED",
            _ if self.started.load(Ordering::Relaxed) => "RUNNING",
            _ => "QUEUED",
        }
    }

    /// An HTML page for `infoUri`: the query's id and state, never its text.
    pub fn info_page(&self) -> String {
        format!(
            "<!doctype html><title>Query {id}</title><h1>Query {id}</h1><p>State: {state}</p><p>Elapsed: {ms} ms, rows: {rows}</p>",
            id = self.id,
            state = self.state_name(),
            ms = self.elapsed().as_millis(),
            rows = self.processed_rows.load(Ordering::Relaxed),
        )
    }

    /// Records the statement's text for [`Query::info`].
    pub fn set_text(&self, text: &str) {
        let _ = self.text.set(text.to_string());
    }

    /// Keeps what the statement changes in its client's session, for its last page.
    pub fn set_session_changes(&self, changes: axum::http::HeaderMap) {
        let _ = self.session_changes.set(changes);
    }

    /// The session changes to send with a page just served: once the query has finished, the
    /// only page served is its last (any other token is gone), so they go with that one.
    pub fn session_changes_with_page(&self) -> Option<&axum::http::HeaderMap> {
        (self.outcome.load(Ordering::Relaxed) == FINISHED)
            .then(|| self.session_changes.get())
            .flatten()
    }

    /// `GET /v1/query/{id}`: the parts of Trino's QueryInfo its clients read (the JavaScript
    /// client's `queryInfo`): id, state, text, who ran it, and how it failed.
    pub fn info(&self, base: &str) -> Value {
        let failure = self
            .failure
            .get()
            .cloned()
            .or_else(|| self.control.stopped().map(|stop| stop.error().to_json()));
        let mut info = serde_json::json!({
            "queryId": self.id,
            "state": self.state_name(),
            "query": self.text.get().map_or("", String::as_str),
            "self": format!("{base}{}/{}", protocol::QUERY_PATH, self.id),
            "session": { "user": self.principal },
            "queryStats": {
                "elapsedTime": format!("{:.2}ms", self.elapsed().as_secs_f64() * 1000.0),
                "processedInputPositions": self.processed_rows.load(Ordering::Relaxed),
            },
        });
        // Trino's QueryInfo writes the ResourceGroupId as its list of names.
        if let Some(group) = &self.resource_group {
            info["resourceGroupId"] = serde_json::json!(group);
        }
        if let Some(error) = failure {
            info["errorType"] = error["errorType"].clone();
            info["errorCode"] = serde_json::json!({
                "code": error["errorCode"],
                "name": error["errorName"],
                "type": error["errorType"],
            });
            info["failureInfo"] = error["failureInfo"].clone();
        }
        info
    }
}

/// Accumulates encoded rows until a chunk is worth sending.
#[derive(Default)]
pub(super) struct ChunkBuilder {
    pub(super) json: Vec<u8>,
    pub(super) rows: usize,
    pub(super) started: Option<Instant>,
    /// The query's [`Query::legacy_datetime`].
    legacy_datetime: Option<Arc<Vec<TrinoType>>>,
}

impl ChunkBuilder {
    pub(super) fn for_query(query: &Query) -> Self {
        Self {
            legacy_datetime: query.legacy_datetime.clone(),
            ..Self::default()
        }
    }

    pub(super) fn push(&mut self, mut row: Vec<Value>) {
        if let Some(types) = &self.legacy_datetime {
            crate::querymesh::server::legacy_datetime::rewrite_row(types, &mut row);
        }
        if self.rows > 0 {
            self.json.push(b',');
        } else {
            self.started = Some(Instant::now());
        }
        // Doubles in Java's text, as Trino writes them.
        crate::querymesh::engine::sql::encode::write_row(&mut self.json, &row);
        self.rows += 1;
    }

    pub(super) fn is_full(&self) -> bool {
        self.rows >= CHUNK_ROWS
            || self.json.len() >= CHUNK_BYTES
            || self.started.is_some_and(|t| t.elapsed() >= CHUNK_AGE)
    }

    pub(super) fn take(&mut self, end: Option<Result<(), TrinoError>>) -> Chunk {
        self.started = None;
        let json = std::mem::take(&mut self.json);
        Chunk {
            // serde_json writes UTF-8 only.
            json: String::from_utf8(json).unwrap_or_default(),
            rows: std::mem::take(&mut self.rows),
            end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big_row_chunk() -> Chunk {
        Chunk {
            json: format!("[\"{}\"]", "x".repeat(3 << 20)),
            rows: 1,
            end: None,
        }
    }

    /// Rows of 3 MB: the channel would take sixteen chunks of them; past the weight in
    /// flight the producer waits until the pages take what it sent.
    #[tokio::test]
    async fn large_chunks_in_flight_are_bounded_by_weight() {
        let (tx, rx) = mpsc::channel(16);
        let columns = Arc::new(protocol::columns_json(&[]));
        let query = Query::new("q".into(), "ada".into(), columns, rx);
        assert!(query.send(&tx, big_row_chunk()).await);
        // The second does not fit 4 MB in flight with the first: it cannot be sent, however
        // long it waits.
        let waited =
            tokio::time::timeout(Duration::from_millis(50), query.send(&tx, big_row_chunk())).await;
        assert!(waited.is_err(), "a second 3 MB chunk went in flight");
        // Small chunks still pass (the channel bounds those).
        let small = Chunk {
            json: "[1]".into(),
            rows: 1,
            end: None,
        };
        assert!(query.send(&tx, small).await);
        let page: Value =
            serde_json::from_str(&query.page(1, "http://h").await.expect("a page")).expect("json");
        assert_eq!(page["data"].as_array().map(Vec::len), Some(1));
        // Taken by the page, the first frees its weight for the next.
        assert!(query.send(&tx, big_row_chunk()).await);
        let weight = in_flight_kib(big_row_chunk().json.len());
        assert_eq!(
            query.in_flight.available_permits(),
            (IN_FLIGHT_KIB - weight) as usize
        );
    }
}

//! Running queries and handing out their results page by page.
//!
//! rusqlite blocks, so queries run on tokio's blocking pool (`spawn_blocking`), not on the
//! async workers that serve HTTP: a long scan must not stall other clients' requests, and
//! concurrent queries then run in parallel, each on its own read-only connection from a small
//! pool. The exception is a query whose last run took at most [`INLINE_MAX`]: waking a pool
//! thread costs about as much as such a query, so it runs on the worker right after the POST
//! is answered, stopped and moved to the pool if it passes [`INLINE_BUDGET`] after all.
//! The producer thread encodes rows to JSON and sends them in chunks through a bounded
//! channel, so a huge result is never held whole: when the client stops fetching, the
//! producer waits.
//!
//! Every query has a time limit, counted from its creation like Trino's `query_max_run_time`;
//! a watchdog interrupts the SQLite connection when it passes (and so does a cancel), and
//! SQLite stops at its next instruction check.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use rusqlite::{Connection, InterruptHandle};
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};

use super::engine::{Engine, Prepared, RunError};
use super::error::{ErrorName, TrinoError};
use super::protocol::{self, QueryIds, QueryResults, QueryState, Stats};

/// How long a GET waits for rows before answering with an empty page (Trino's default
/// `maxWait` for a results request is one second).
const PAGE_WAIT: Duration = Duration::from_secs(1);
/// A page holds up to this many bytes of rows (Trino's default target result size)…
const PAGE_BYTES: usize = 1 << 20;
/// …and up to this many rows.
const PAGE_ROWS: usize = 10_000;
/// The producer sends a chunk when it holds this many bytes, rows, or has waited this long.
const CHUNK_BYTES: usize = 64 << 10;
const CHUNK_ROWS: usize = 1_000;
const CHUNK_AGE: Duration = Duration::from_millis(50);
/// Chunks buffered between producer and client: with [`CHUNK_BYTES`], about 1 MB.
const CHANNEL_CHUNKS: usize = 16;
/// A query whose client has not fetched for this long is cancelled and forgotten, like
/// Trino's `query.client.timeout`.
const ABANDON_AFTER: Duration = Duration::from_secs(60);
/// A query whose last page was served stays this long, so a repeated GET still answers.
const KEEP_FINISHED: Duration = Duration::from_secs(5);
/// How often abandoned and finished queries are swept.
const SWEEP_EVERY: Duration = Duration::from_secs(1);
/// SQLite virtual-machine steps between two checks of a query's stop flag: a few
/// microseconds of work.
const PROGRESS_OPS: std::ffi::c_int = 1_000;
/// Idle connections kept open for the next queries.
const POOL_IDLE_MAX: usize = 8;
/// A query whose last run took at most this long runs on the async worker that accepted it
/// (see [`Executor::run_here`])…
const INLINE_MAX: Duration = Duration::from_micros(250);
/// …and is stopped and handed to the blocking pool if it takes longer than this after all…
const INLINE_BUDGET: Duration = Duration::from_millis(1);
/// …or encodes more than this many bytes of rows.
const INLINE_MAX_BYTES: usize = CHUNK_BYTES;
/// Queries running at once; more wait QUEUED, as Trino queues past its resource group's
/// concurrency limit. Each running query holds a SQLite connection and a thread of tokio's
/// blocking pool, which the rest of the process shares (DNS lookups, files): queries nobody
/// fetches must not be able to take all of it before they are abandoned.
const MAX_RUNNING: usize = 32;

/// [`Query::outcome`] values.
const FINISHED: u8 = 1;
const FAILED: u8 = 2;

/// Why a query was stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Canceled,
    TimeLimit(Duration),
}

impl Stop {
    fn error(self) -> TrinoError {
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
struct Chunk {
    /// Rows as JSON arrays separated by commas, without the enclosing brackets.
    json: String,
    rows: usize,
    end: Option<Result<(), TrinoError>>,
}

/// Stops a running query: the reason, and the interrupt of the connection it runs on.
struct Control {
    state: Mutex<ControlState>,
    /// Set by the first stop; read by SQLite's progress handler while the query runs.
    flag: Arc<AtomicBool>,
    stopped: watch::Sender<Option<Stop>>,
}

struct ControlState {
    stop: Option<Stop>,
    /// Set only while the query runs on a connection, so a late stop never interrupts the
    /// next query on that connection.
    interrupt: Option<InterruptHandle>,
}

impl Control {
    fn new() -> Self {
        Self {
            state: Mutex::new(ControlState {
                stop: None,
                interrupt: None,
            }),
            flag: Arc::new(AtomicBool::new(false)),
            stopped: watch::channel(None).0,
        }
    }

    fn lock(&self) -> MutexGuard<'_, ControlState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records the first stop and interrupts SQLite if the query is on a connection.
    fn stop(&self, why: Stop) {
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

    fn stopped(&self) -> Option<Stop> {
        self.lock().stop
    }

    /// Registers the connection's interrupt; false when the query was already stopped.
    fn arm(&self, interrupt: InterruptHandle) -> bool {
        let mut state = self.lock();
        if state.stop.is_some() {
            return false;
        }
        state.interrupt = Some(interrupt);
        true
    }

    fn disarm(&self) {
        self.lock().interrupt = None;
    }
}

/// What the client has been served so far.
struct Pages {
    rows: mpsc::Receiver<Chunk>,
    /// The token the next page is served for; `None` once the last page was served.
    next_token: Option<u64>,
    /// The last page served, by token: a repeated GET gets it again (Trino's idempotence).
    last: Option<(u64, Arc<str>)>,
}

/// One query, from submission until it is swept.
pub struct Query {
    pub id: String,
    slug: String,
    /// For the log: the principal's `sub`.
    principal: String,
    created: Instant,
    columns: Arc<Box<RawValue>>,
    control: Control,
    pages: tokio::sync::Mutex<Pages>,
    processed_rows: AtomicU64,
    /// Elapsed milliseconds when it ended (0 while running), for `stats`.
    ended_after: AtomicU64,
    /// Milliseconds after `created` of the client's last request.
    last_seen: AtomicU64,
    /// How the query ended for its client, once the last page was served: 0 while pages
    /// remain, then [`FINISHED`] or [`FAILED`].
    outcome: AtomicU8,
    /// Set once the query runs on a connection: QUEUED before, RUNNING after.
    started: AtomicBool,
    /// `updateType` of its pages: what the statement changes, if it is not a read.
    update_type: Option<&'static str>,
    /// Failed before it could run: its info page says so before its client reads the error.
    refused: bool,
    /// The statement's text, for its owner's `GET /v1/query/{id}` (never logged).
    text: OnceLock<String>,
    /// How it failed, once it has: Trino's `error` object.
    failure: OnceLock<Value>,
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
    fn new(
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
            text: OnceLock::new(),
            failure: OnceLock::new(),
            id,
        }
    }

    /// Who ran the query: the principal's `sub`.
    pub fn owner(&self) -> &str {
        &self.principal
    }

    fn elapsed(&self) -> Duration {
        match self.ended_after.load(Ordering::Relaxed) {
            0 => self.created.elapsed(),
            ms => Duration::from_millis(ms),
        }
    }

    fn touch(&self) {
        let ms = self.created.elapsed().as_millis() as u64;
        self.last_seen.store(ms, Ordering::Relaxed);
    }

    fn idle(&self) -> Duration {
        self.created.elapsed().saturating_sub(Duration::from_millis(
            self.last_seen.load(Ordering::Relaxed),
        ))
    }

    fn end(&self, state: &'static str, error: Option<&TrinoError>) {
        if let Some(error) = error {
            let _ = self.failure.set(error.to_json());
        }
        let elapsed = self.created.elapsed();
        let _ = self.ended_after.compare_exchange(
            0,
            (elapsed.as_millis() as u64).max(1),
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
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

    /// The response to the statement POST: queued, with the columns and the first `nextUri`.
    pub fn first_response(&self, base: &str) -> String {
        QueryResults {
            id: &self.id,
            info_uri: protocol::info_uri(base, &self.id),
            next_uri: Some(protocol::next_uri(base, &self.id, &self.slug, 1)),
            columns: self.known_columns(),
            data: None,
            stats: Stats::new(QueryState::Queued, self.created.elapsed(), 0),
            error: None,
            warnings: [],
            // Trino's queued resource answers before the statement is analysed.
            update_type: None,
        }
        .to_body()
    }

    /// The columns, unless the statement failed before it had any (Trino then sends none).
    fn known_columns(&self) -> Option<&RawValue> {
        Some(&**self.columns).filter(|columns| columns.get() != "[]")
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
            let Some(chunk) = chunk else {
                // The producer is gone without saying how it ended: only a stop does that.
                let error = self.control.stopped().map_or_else(
                    || TrinoError::new(ErrorName::GenericInternalError, "the query stopped"),
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
    fn state_name(&self) -> &'static str {
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

/// Runs queries and keeps them until their client is done with them.
pub struct Executor {
    engine: Arc<Engine>,
    time_limit: Duration,
    ids: QueryIds,
    idle: Mutex<Vec<Connection>>,
    queries: Mutex<HashMap<String, Arc<Query>>>,
    /// One permit per query allowed to run now.
    running: Arc<Semaphore>,
}

impl Executor {
    pub fn new(engine: Arc<Engine>, time_limit: Duration) -> Arc<Self> {
        Self::with_max_running(engine, time_limit, MAX_RUNNING)
    }

    fn with_max_running(engine: Arc<Engine>, time_limit: Duration, max: usize) -> Arc<Self> {
        let executor = Arc::new(Self {
            engine,
            time_limit,
            ids: QueryIds::default(),
            idle: Mutex::new(Vec::new()),
            queries: Mutex::new(HashMap::new()),
            running: Arc::new(Semaphore::new(max)),
        });
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(sweep(Arc::downgrade(&executor)));
        }
        executor
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn new_query_id(&self) -> String {
        self.ids.next()
    }

    fn registry(&self) -> MutexGuard<'_, HashMap<String, Arc<Query>>> {
        self.queries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The query `id` if `slug` is its own: the slug is what makes a `nextUri` unguessable.
    pub fn find(&self, id: &str, slug: &str) -> Option<Arc<Query>> {
        self.registry()
            .get(id)
            .filter(|q| q.slug.as_bytes() == slug.as_bytes())
            .cloned()
    }

    pub fn find_by_id(&self, id: &str) -> Option<Arc<Query>> {
        self.registry().get(id).cloned()
    }

    /// Registers a query that failed before it could run (bad SQL, denied access, …). Trino
    /// analyses a statement only after answering its POST, so its error arrives on the first
    /// `nextUri`, never in the POST's answer; clients (the JavaScript one among them) read
    /// errors only there. This query then ends and is swept like any other.
    pub fn submit_failed(&self, id: String, principal: String, error: TrinoError) -> Arc<Query> {
        let (tx, rows) = mpsc::channel(1);
        let query = Arc::new(Query {
            refused: true,
            ..Query::new(id, principal, Arc::new(protocol::columns_json(&[])), rows)
        });
        let _ = query.failure.set(error.to_json());
        // The channel is new and holds one chunk: the error fits.
        let _ = tx.try_send(Chunk {
            json: String::new(),
            rows: 0,
            end: Some(Err(error)),
        });
        self.registry().insert(query.id.clone(), query.clone());
        query
    }

    /// Registers a query and starts it: on this worker once the POST is answered when it was
    /// short last time (see [`Executor::run_here`]), else on the blocking pool, or queued while
    /// [`MAX_RUNNING`] queries run.
    pub fn submit(
        self: &Arc<Self>,
        id: String,
        principal: String,
        prepared: Arc<Prepared>,
    ) -> Arc<Query> {
        let (tx, rx) = mpsc::channel(CHANNEL_CHUNKS);
        let query = Arc::new(Query {
            update_type: prepared.update_type(),
            ..Query::new(
                id,
                principal,
                prepared.wire_columns(protocol::columns_json),
                rx,
            )
        });
        self.registry().insert(query.id.clone(), query.clone());
        match self.running.clone().try_acquire_owned().ok() {
            Some(permit) if prepared.last_run().is_some_and(|t| t <= INLINE_MAX) => {
                // A task spawned here runs on this worker as soon as the connection's task
                // yields, that is once the POST's answer is written: the query then runs while
                // the answer travels and the client asks for the first page.
                let executor = self.clone();
                let running = query.clone();
                tokio::spawn(async move {
                    if !executor.run_here(&running, &prepared, &tx) {
                        executor.start(running, prepared, tx, Some(permit));
                    }
                });
            }
            permit => self.start(query.clone(), prepared, tx, permit),
        }
        query
    }

    /// Starts a query on the blocking pool with `permit`, or queues it for one, and watches
    /// its time limit.
    fn start(
        self: &Arc<Self>,
        query: Arc<Query>,
        prepared: Arc<Prepared>,
        tx: mpsc::Sender<Chunk>,
        permit: Option<OwnedSemaphorePermit>,
    ) {
        let executor = self.clone();
        let running = query.clone();
        let start = move |permit: OwnedSemaphorePermit| {
            tokio::task::spawn_blocking(move || {
                executor.produce(&running, &prepared, &tx);
                drop(permit);
            })
        };
        // Started right away when a permit is free, not from a spawned task: a task spawned by
        // the POST handler would run only after the handler's response is written, so a query
        // not known to be short would start that much later.
        let (started, queued) = match permit {
            Some(permit) => (Some(start(permit)), None),
            None => (None, Some(start)),
        };
        let permits = self.running.clone();
        let watched = query.clone();
        let limit = self.time_limit;
        tokio::spawn(async move {
            let work = async {
                let work = match (started, queued) {
                    (Some(work), _) => work,
                    (None, Some(start)) => match permits.acquire_owned().await {
                        Ok(permit) => start(permit),
                        Err(_) => return,
                    },
                    (None, None) => return,
                };
                let _ = work.await;
            };
            let mut stopped = watched.control.stopped.subscribe();
            // The limit counts from creation, queued time included, like Trino's
            // query_max_run_time; the producer may be waiting on a slow client.
            let deadline = watched.created + limit;
            tokio::select! {
                _ = work => {}
                // A query stopped while queued gives up its place (its producer, once
                // started, sees the stop itself).
                _ = stopped.wait_for(Option::is_some) => {}
                _ = tokio::time::sleep_until(deadline.into()) => {
                    watched.control.stop(Stop::TimeLimit(limit));
                }
            }
        });
    }

    /// Runs on a blocking-pool thread: executes the query and sends its rows in chunks.
    fn produce(&self, query: &Query, prepared: &Prepared, tx: &mpsc::Sender<Chunk>) {
        let runtime = tokio::runtime::Handle::current();
        let mut conn = match self.checkout() {
            Ok(conn) => conn,
            Err(e) => {
                tracing::error!(query_id = %query.id, error = %e, "cannot open a connection");
                let error = TrinoError::new(
                    ErrorName::GenericInternalError,
                    "the stand-in could not open its database",
                );
                let _ = tx.blocking_send(Chunk {
                    json: String::new(),
                    rows: 0,
                    end: Some(Err(error)),
                });
                return;
            }
        };
        if !query.control.arm(conn.get_interrupt_handle()) {
            self.checkin(conn);
            return;
        }
        // sqlite3_interrupt only reaches statements already running: one that lands between
        // arming and the statement's first step is forgotten (SQLite clears it when a statement
        // starts on an idle connection), and the query would run on past every later stop.
        // The stop flag is therefore also checked every PROGRESS_OPS virtual-machine steps.
        let flag = query.control.flag.clone();
        let watched = conn
            .progress_handler(PROGRESS_OPS, Some(move || flag.load(Ordering::Relaxed)))
            .is_ok();
        if !watched {
            query.control.disarm();
            self.checkin(conn);
            let _ = tx.blocking_send(Chunk {
                json: String::new(),
                rows: 0,
                end: Some(Err(TrinoError::new(
                    ErrorName::GenericInternalError,
                    "the stand-in could not watch the query for a stop",
                ))),
            });
            return;
        }
        query.started.store(true, Ordering::Relaxed);
        let mut stopped = query.control.stopped.subscribe();
        let mut send = |chunk: Chunk| -> bool {
            runtime.block_on(async {
                tokio::select! {
                    sent = tx.send(chunk) => sent.is_ok(),
                    _ = stopped.wait_for(Option::is_some) => false,
                }
            })
        };
        let mut batch = ChunkBuilder::default();
        let running = Instant::now();
        let result = prepared.run(&conn, &mut |row: Vec<Value>| {
            batch.push(&row);
            query.processed_rows.fetch_add(1, Ordering::Relaxed);
            !batch.is_full() || send(batch.take(None))
        });
        if result.is_ok() {
            prepared.record_run(running.elapsed());
        }
        query.control.disarm();
        // A connection still watched for this query's stop must not go back to the pool.
        if conn.progress_handler(0, None::<fn() -> bool>).is_ok() {
            self.checkin(conn);
        }
        let end = match result {
            Ok(()) => Ok(()),
            Err(RunError::Query(e)) => Err(e),
            Err(RunError::Interrupted) => match query.control.stopped() {
                Some(stop) => Err(stop.error()),
                // Only a stop interrupts; nothing else may pass for success.
                None => Err(TrinoError::new(
                    ErrorName::GenericInternalError,
                    "the query was interrupted",
                )),
            },
        };
        if query.control.stopped().is_none() || end.is_err() {
            send(batch.take(Some(end)));
        }
    }

    /// Runs a query that was short last time right here, on an async worker, within
    /// [`INLINE_BUDGET`]; true when it ran to its end, its rows (or error) then waiting in the
    /// channel for the first GET. Handing a query to the blocking pool wakes another thread,
    /// which on a small machine competes with the POST's answer and the client's next request:
    /// for a query of a few hundred microseconds that costs about as much as the query. A query
    /// slower than its history is stopped at the budget and starts over on the pool (it only
    /// reads, so running it again is safe); a worker is never held longer than the budget.
    fn run_here(&self, query: &Query, prepared: &Prepared, tx: &mpsc::Sender<Chunk>) -> bool {
        if prepared.last_run().is_none_or(|t| t > INLINE_MAX) {
            return false;
        }
        let Some(mut conn) = self.idle_connection() else {
            return false;
        };
        if !query.control.arm(conn.get_interrupt_handle()) {
            self.checkin(conn);
            return false;
        }
        let started = Instant::now();
        let flag = query.control.flag.clone();
        let watched = conn
            .progress_handler(
                PROGRESS_OPS,
                Some(move || flag.load(Ordering::Relaxed) || started.elapsed() > INLINE_BUDGET),
            )
            .is_ok();
        if !watched {
            query.control.disarm();
            self.checkin(conn);
            return false;
        }
        query.started.store(true, Ordering::Relaxed);
        let mut batch = ChunkBuilder::default();
        let mut too_big = false;
        let result = prepared.run(&conn, &mut |row: Vec<Value>| {
            batch.push(&row);
            query.processed_rows.fetch_add(1, Ordering::Relaxed);
            too_big = batch.json.len() > INLINE_MAX_BYTES;
            !too_big
        });
        let took = started.elapsed();
        query.control.disarm();
        if conn.progress_handler(0, None::<fn() -> bool>).is_ok() {
            self.checkin(conn);
        }
        let stopped = query.control.stopped();
        let end = match (result, stopped) {
            (Ok(()), _) if !too_big => Ok(()),
            (Err(RunError::Query(e)), _) => Err(e),
            (Err(RunError::Interrupted), Some(stop)) => Err(stop.error()),
            // Past its budget or too large for one chunk: the blocking pool runs it again.
            (Ok(()) | Err(RunError::Interrupted), _) => {
                prepared.record_run(took.max(INLINE_MAX * 2));
                query.processed_rows.store(0, Ordering::Relaxed);
                query.started.store(false, Ordering::Relaxed);
                return false;
            }
        };
        if end.is_ok() {
            prepared.record_run(took);
        }
        // The channel is new and holds CHANNEL_CHUNKS: the one chunk fits.
        let _ = tx.try_send(batch.take(Some(end)));
        true
    }

    fn idle_connection(&self) -> Option<Connection> {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop()
    }

    fn checkout(&self) -> rusqlite::Result<Connection> {
        match self.idle_connection() {
            Some(conn) => Ok(conn),
            None => self.engine.connect(),
        }
    }

    fn checkin(&self, conn: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < POOL_IDLE_MAX {
            idle.push(conn);
        }
    }

    /// Stops every query: the server is going away, and a blocking thread left running a
    /// query would keep the process (or a test's runtime) from ending.
    pub fn stop_all(&self) {
        for query in self.registry().drain().map(|(_, q)| q) {
            query.control.stop(Stop::Canceled);
        }
    }

    /// Cancels queries nobody fetches any more and forgets those whose last page was served.
    fn sweep_once(&self) {
        self.registry().retain(|_, q| {
            let ended = q.outcome.load(Ordering::Relaxed) != 0;
            let stopped = q.control.stopped();
            // Only the client cancels a query that is still in the registry (the sweep's own
            // cancel and stop_all remove it at once).
            let cancelled = stopped == Some(Stop::Canceled);
            match sweep_verdict(ended, cancelled, q.idle()) {
                Sweep::Keep => true,
                Sweep::Forget => {
                    if !ended {
                        // Cancelled, and its client never came for the error.
                        q.end("FAILED", Some(&Stop::Canceled.error()));
                    }
                    false
                }
                Sweep::Abandon => {
                    q.control.stop(Stop::Canceled);
                    q.end("ABANDONED", None);
                    false
                }
            }
        });
    }
}

/// What the sweep does with a query.
#[derive(Debug, PartialEq, Eq)]
enum Sweep {
    Keep,
    /// Its outcome is settled: forget it.
    Forget,
    /// Still running with nobody fetching: stop it and forget it.
    Abandon,
}

/// A query that ended, or that its client cancelled, is kept [`KEEP_FINISHED`] after the
/// client's last request: a client that cancels rarely fetches again, and its query must not
/// wait out [`ABANDON_AFTER`] to be logged as abandoned. Any other query — running, or past
/// its time limit with the error not yet fetched by a client busy with the rows it has — is
/// abandoned once nobody has fetched for [`ABANDON_AFTER`].
fn sweep_verdict(ended: bool, cancelled: bool, idle: Duration) -> Sweep {
    match (ended || cancelled, idle) {
        (true, idle) if idle >= KEEP_FINISHED => Sweep::Forget,
        (false, idle) if idle >= ABANDON_AFTER => Sweep::Abandon,
        _ => Sweep::Keep,
    }
}

async fn sweep(executor: Weak<Executor>) {
    let mut every = tokio::time::interval(SWEEP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let Some(executor) = executor.upgrade() else {
            return;
        };
        executor.sweep_once();
    }
}

/// Accumulates encoded rows until a chunk is worth sending.
#[derive(Default)]
struct ChunkBuilder {
    json: Vec<u8>,
    rows: usize,
    started: Option<Instant>,
}

impl ChunkBuilder {
    fn push(&mut self, row: &[Value]) {
        if self.rows > 0 {
            self.json.push(b',');
        } else {
            self.started = Some(Instant::now());
        }
        // Doubles in Java's text, as Trino writes them.
        crate::querymesh::sql::encode::write_row(&mut self.json, row);
        self.rows += 1;
    }

    fn is_full(&self) -> bool {
        self.rows >= CHUNK_ROWS
            || self.json.len() >= CHUNK_BYTES
            || self.started.is_some_and(|t| t.elapsed() >= CHUNK_AGE)
    }

    fn take(&mut self, end: Option<Result<(), TrinoError>>) -> Chunk {
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
    use crate::querymesh::engine::SessionContext;

    /// Counts billions of rows: runs until something stops it.
    const ENDLESS: &str = "SELECT count(*) FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b CROSS JOIN tpch.tiny.orders c";
    const PATIENCE: Duration = Duration::from_secs(20);

    async fn until(what: &str, done: impl Fn() -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done() {
            assert!(Instant::now() < deadline, "{what} never happened");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn queries_past_the_running_limit_wait_queued() {
        let config = crate::Config::builtin().with_ephemeral_ports();
        let engine = Arc::new(Engine::open(&config).expect("the engine opens"));
        let endless = engine
            .prepare(ENDLESS, &SessionContext::default())
            .expect("prepares");
        let executor = Executor::with_max_running(engine, PATIENCE, 1);
        // The runtime waits for blocking threads when it ends: stop every query, even when an
        // assertion fails.
        struct StopAll(Arc<Executor>);
        impl Drop for StopAll {
            fn drop(&mut self) {
                self.0.stop_all();
            }
        }
        let _stop_all = StopAll(executor.clone());
        // A stop right as a query starts stops it (an interrupt that lands before SQLite's first
        // step used to be lost, and the query ran on, holding its place).
        for _ in 0..5 {
            let query = executor.submit("q0".into(), "ada".into(), endless.clone());
            until("the query's start", || {
                query.started.load(Ordering::Relaxed)
            })
            .await;
            query.cancel();
            until("the cancelled query's end", || {
                executor.running.available_permits() == 1
            })
            .await;
        }
        let first = executor.submit("q1".into(), "ada".into(), endless.clone());
        let second = executor.submit("q2".into(), "ada".into(), endless);
        until("the first query's start", || {
            first.started.load(Ordering::Relaxed)
        })
        .await;
        // The second waits its turn: its page, after the page wait, says QUEUED.
        let page: Value =
            serde_json::from_str(&second.page(1, "http://h").await.expect("a page")).expect("json");
        assert_eq!(page["stats"]["state"], "QUEUED", "{page}");
        assert!(!second.started.load(Ordering::Relaxed));
        first.cancel();
        until("the second query's start", || {
            second.started.load(Ordering::Relaxed)
        })
        .await;
        second.cancel();
        // A query cancelled while queued never runs.
        let third = executor.submit("q3".into(), "ada".into(), engine_prepared(&executor));
        let fourth = executor.submit("q4".into(), "ada".into(), engine_prepared(&executor));
        fourth.cancel();
        until("the third query's start", || {
            third.started.load(Ordering::Relaxed)
        })
        .await;
        third.cancel();
        let page: Value =
            serde_json::from_str(&fourth.page(1, "http://h").await.expect("a page")).expect("json");
        assert_eq!(page["error"]["errorName"], "USER_CANCELED", "{page}");
        assert!(!fourth.started.load(Ordering::Relaxed));
    }

    fn engine_prepared(executor: &Executor) -> Arc<Prepared> {
        executor
            .engine()
            .prepare(ENDLESS, &SessionContext::default())
            .expect("prepares")
    }

    /// Every page of `query` to the last: its rows and the last page.
    async fn all_pages(query: &Query) -> (Vec<Value>, Value) {
        let mut rows = Vec::new();
        for token in 1.. {
            let body = query.page(token, "http://h").await.expect("a page");
            let page: Value = serde_json::from_str(&body).expect("json");
            rows.extend(page["data"].as_array().into_iter().flatten().cloned());
            if page.get("nextUri").is_none() {
                return (rows, page);
            }
        }
        unreachable!("pages are counted until the last")
    }

    fn unstarted(id: &str) -> (Query, mpsc::Sender<Chunk>) {
        let (tx, rx) = mpsc::channel(CHANNEL_CHUNKS);
        let columns = Arc::new(protocol::columns_json(&[]));
        (Query::new(id.into(), "ada".into(), columns, rx), tx)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_query_short_last_time_runs_here_and_one_that_is_not_moves_to_the_pool() {
        let config = crate::Config::builtin().with_ephemeral_ports();
        let engine = Arc::new(Engine::open(&config).expect("the engine opens"));
        let executor = Executor::new(engine.clone(), PATIENCE);
        executor.checkin(engine.connect().expect("a connection"));
        let tiny = SessionContext {
            catalog: Some("tpch".into()),
            schema: Some("tiny".into()),
            ..SessionContext::default()
        };
        let plan = |sql: &str| engine.prepare(sql, &tiny).expect("prepares");

        // Never ran: not known to be short.
        let nation = plan("SELECT name FROM nation ORDER BY nationkey");
        let (query, tx) = unstarted("q1");
        assert!(!executor.run_here(&query, &nation, &tx));
        nation.record_run(Duration::from_micros(10));
        assert!(executor.run_here(&query, &nation, &tx));
        let (rows, last) = all_pages(&query).await;
        assert_eq!(rows.len(), 25);
        assert_eq!(rows[0], serde_json::json!(["ALGERIA"]));
        assert_eq!(last["stats"]["state"], "FINISHED");

        // Short last time, but now past the budget (a scan of every lineitem) or too many
        // bytes for one chunk: stopped, its history corrected, nothing sent.
        for sql in [
            "SELECT sum(l.quantity * p.retailprice) FROM lineitem l, part p WHERE p.partkey = l.partkey",
            "SELECT comment FROM lineitem ORDER BY orderkey, linenumber LIMIT 5000",
        ] {
            let long = plan(sql);
            long.record_run(Duration::from_micros(10));
            let (query, tx) = unstarted("q2");
            assert!(!executor.run_here(&query, &long, &tx), "{sql}");
            assert!(long.last_run().is_some_and(|t| t > INLINE_MAX));
            assert_eq!(query.processed_rows.load(Ordering::Relaxed), 0);
            assert!(!query.started.load(Ordering::Relaxed));
            // Through submit it runs on the pool, whole.
            long.record_run(Duration::from_micros(10));
            let submitted = executor.submit("q3".into(), "ada".into(), long);
            let (rows, last) = all_pages(&submitted).await;
            assert_eq!(last["stats"]["state"], "FINISHED", "{last}");
            assert_eq!(rows.len(), if sql.contains("LIMIT") { 5000 } else { 1 });
        }

        // Submitted while short: the same rows as from the pool.
        let submitted = executor.submit("q4".into(), "ada".into(), nation.clone());
        let (inline_rows, _) = all_pages(&submitted).await;
        let fresh = Arc::new(Engine::open(&config).expect("opens"))
            .prepare("SELECT name FROM nation ORDER BY nationkey", &tiny)
            .expect("prepares");
        let pooled = executor.submit("q5".into(), "ada".into(), fresh);
        let (pooled_rows, _) = all_pages(&pooled).await;
        assert_eq!(inline_rows, pooled_rows);
    }

    #[test]
    fn the_sweep_forgets_settled_queries_and_abandons_unfetched_ones() {
        let soon = KEEP_FINISHED - Duration::from_millis(1);
        assert_eq!(sweep_verdict(true, false, soon), Sweep::Keep);
        assert_eq!(sweep_verdict(true, false, KEEP_FINISHED), Sweep::Forget);
        // A cancelled query its client never fetched again goes as soon as a finished one.
        assert_eq!(sweep_verdict(false, true, soon), Sweep::Keep);
        assert_eq!(sweep_verdict(false, true, KEEP_FINISHED), Sweep::Forget);
        assert_eq!(sweep_verdict(false, false, KEEP_FINISHED), Sweep::Keep);
        assert_eq!(sweep_verdict(false, false, ABANDON_AFTER), Sweep::Abandon);
    }
}

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
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use serde_json::Value;
use tokio::sync::mpsc;

use super::protocol::{self, QueryIds};
use crate::querymesh::engine::error::{ErrorName, TrinoError};
use crate::querymesh::engine::{Engine, Prepared, RunError};

/// Chunks buffered between producer and client: with [`query::CHUNK_BYTES`], about 1 MB.
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
/// Idle connections kept open for the next queries while queries keep coming: one per query
/// that may run, so a burst does not open and close connections by the thousand (each open
/// and close left the heap more fragmented)…
const POOL_IDLE_MAX: usize = MAX_RUNNING;
/// …and once none runs (each holds its compiled statements, about half a megabyte).
const POOL_IDLE_QUIET: usize = 8;
/// A query whose last run took at most this long runs on the async worker that accepted it
/// (see [`Executor::run_here`])…
const INLINE_MAX: Duration = Duration::from_micros(250);
/// …and is stopped and handed to the blocking pool if it takes longer than this after all…
const INLINE_BUDGET: Duration = Duration::from_millis(1);
/// …or encodes more than this many bytes of rows.
const INLINE_MAX_BYTES: usize = query::CHUNK_BYTES;
/// Queries running at once; more wait QUEUED, as Trino queues past its resource group's
/// concurrency limit. Each running query holds a SQLite connection and a thread of tokio's
/// blocking pool, which the rest of the process shares (DNS lookups, files): queries nobody
/// fetches must not be able to take all of it before they are abandoned.
pub const MAX_RUNNING: usize = 32;
/// Queries waiting for a place, everyone's together (each person's own limit is configured).
pub const MAX_QUEUED: usize = 1_000;
/// How long into a quiet spell freed memory is given back again (see
/// [`Executor::trim_when_idle`]).
const TRIM_AGAIN_AFTER: [Duration; 2] = [Duration::from_secs(35), Duration::from_secs(65)];
/// Queries kept for their clients at once: running, waiting, and ended ones whose client has
/// not yet fetched their last page.
const MAX_REGISTERED: usize = 20_000;

mod admission;
mod query;

pub use admission::Limits;
use admission::{Admission, Admitted};

use query::{Chunk, ChunkBuilder};
pub use query::{PageError, Query, Stop};

/// Runs queries and keeps them until their client is done with them.
pub struct Executor {
    engine: Arc<Engine>,
    time_limit: Duration,
    ids: QueryIds,
    idle: Mutex<Vec<Connection>>,
    queries: Mutex<HashMap<String, Arc<Query>>>,
    /// Which queries run now and which wait, person by person.
    admission: Arc<Admission>,
    /// A connection came back since memory was last given back (see [`Executor::trim_when_idle`]).
    released: std::sync::atomic::AtomicBool,
    /// When the last quiet spell began, and how many of [`TRIM_AGAIN_AFTER`] it has passed.
    quiet: Mutex<(Instant, usize)>,
}

impl Executor {
    pub fn new(engine: Arc<Engine>, time_limit: Duration, limits: Limits) -> Arc<Self> {
        let executor = Arc::new(Self {
            engine,
            time_limit,
            ids: QueryIds::default(),
            idle: Mutex::new(Vec::new()),
            queries: Mutex::new(HashMap::new()),
            admission: Admission::new(limits),
            released: std::sync::atomic::AtomicBool::new(false),
            quiet: Mutex::new((Instant::now(), TRIM_AGAIN_AFTER.len())),
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

    /// Keeps `query` for its client. Queries whose client never fetches their last page stay
    /// until abandoned ([`ABANDON_AFTER`]), so a client posting fast without fetching would
    /// otherwise grow the registry with its rate: past [`MAX_REGISTERED`], the query nobody
    /// has asked about for longest is abandoned now (stopped first if it still runs).
    fn register(&self, query: &Arc<Query>) {
        self.register_within(query, MAX_REGISTERED);
    }

    fn register_within(&self, query: &Arc<Query>, max: usize) {
        let mut registry = self.registry();
        if registry.len() >= max
            && let Some(id) = registry
                .values()
                .max_by_key(|q| q.idle())
                .map(|q| q.id.clone())
            && let Some(oldest) = registry.remove(&id)
        {
            oldest.control.stop(Stop::Canceled);
            if oldest.outcome.load(Ordering::Relaxed) == 0 {
                oldest.end("ABANDONED", None);
            }
        }
        registry.insert(query.id.clone(), query.clone());
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
        self.register(&query);
        query
    }

    /// Registers a query and starts it: on this worker once the POST is answered when it was
    /// short last time (see [`Executor::run_here`]), else on the blocking pool, or queued while
    /// its person's share or everyone's places are taken (see [`admission`]); past the queue
    /// limits it fails as Trino's does.
    pub fn submit(
        self: &Arc<Self>,
        id: String,
        principal: String,
        prepared: Arc<Prepared>,
    ) -> Arc<Query> {
        let admitted = match self.admission.admit(&principal) {
            Ok(admitted) => admitted,
            Err(full) => return self.submit_failed(id, principal, full),
        };
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
        self.register(&query);
        match admitted {
            Admitted::Now(permit) if prepared.last_run().is_some_and(|t| t <= INLINE_MAX) => {
                // A task spawned here runs on this worker as soon as the connection's task
                // yields, that is once the POST's answer is written: the query then runs while
                // the answer travels and the client asks for the first page.
                let executor = self.clone();
                let running = query.clone();
                tokio::spawn(async move {
                    if !executor.run_here(&running, &prepared, &tx) {
                        executor.start(running, prepared, tx, Admitted::Now(permit));
                    }
                });
            }
            admitted => self.start(query.clone(), prepared, tx, admitted),
        }
        query
    }

    /// Starts a query on the blocking pool with its place, or waits for one, and watches its
    /// time limit.
    fn start(
        self: &Arc<Self>,
        query: Arc<Query>,
        prepared: Arc<Prepared>,
        tx: mpsc::Sender<Chunk>,
        admitted: Admitted,
    ) {
        let executor = self.clone();
        let running = query.clone();
        let start = move |permit: admission::Permit| {
            tokio::task::spawn_blocking(move || {
                executor.produce(&running, &prepared, &tx);
                drop(permit);
            })
        };
        // Started right away when a permit is free, not from a spawned task: a task spawned by
        // the POST handler would run only after the handler's response is written, so a query
        // not known to be short would start that much later.
        let (started, queued) = match admitted {
            Admitted::Now(permit) => (Some(start(permit)), None),
            Admitted::Later(waiting) => (None, Some((start, waiting))),
        };
        let watched = query.clone();
        let limit = self.time_limit;
        tokio::spawn(async move {
            let work = async {
                let work = match (started, queued) {
                    (Some(work), _) => work,
                    (None, Some((start, waiting))) => match waiting.place.await {
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
                    sent = query.send(tx, chunk) => sent,
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
            // An idle connection keeps its compiled statements, not the pages it last read.
            let _ = conn.release_memory();
            idle.push(conn);
        }
        self.released.store(true, Ordering::Relaxed);
    }

    /// Stops every query: the server is going away, and a blocking thread left running a
    /// query would keep the process (or a test's runtime) from ending.
    pub fn stop_all(&self) {
        for query in self.registry().drain().map(|(_, q)| q) {
            query.control.stop(Stop::Canceled);
        }
    }

    /// Once no query runs, closes the idle connections past [`POOL_IDLE_QUIET`] and gives the
    /// memory the last queries freed back to the system (memory::trim): without it a burst of
    /// concurrent queries leaves the process at its peak for good.
    ///
    /// The rest of the process frees more later — HTTP connections the components' clients
    /// pool close after 30 s, kept-alive ones after the listeners' 60 s — so a quiet spell
    /// trims again as it passes each of [`TRIM_AGAIN_AFTER`]; a trim of a quiet heap takes
    /// microseconds.
    fn trim_when_idle(&self) {
        if self.admission.running() != 0 {
            return;
        }
        let mut quiet = self.quiet.lock().unwrap_or_else(|p| p.into_inner());
        if self.released.swap(false, Ordering::Relaxed) {
            let extra: Vec<Connection> = {
                let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
                let keep = idle.len().min(POOL_IDLE_QUIET);
                idle.split_off(keep)
            };
            drop(extra);
            crate::querymesh::engine::memory::trim();
            *quiet = (Instant::now(), 0);
        } else if let Some(after) = TRIM_AGAIN_AFTER.get(quiet.1)
            && quiet.0.elapsed() >= *after
        {
            crate::querymesh::engine::memory::trim();
            quiet.1 += 1;
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
        executor.trim_when_idle();
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
        let engine = Arc::new(
            Engine::open(&config.querymesh, config.state_dir.as_deref()).expect("the engine opens"),
        );
        let endless = engine
            .prepare(ENDLESS, &SessionContext::default())
            .expect("prepares");
        let executor = Executor::new(
            engine,
            PATIENCE,
            Limits {
                running: 1,
                running_per_person: 1,
                queued_per_person: 10,
                queued: 10,
            },
        );
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
                executor.admission.running() == 0
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

    fn test_limits() -> Limits {
        Limits {
            running: MAX_RUNNING,
            running_per_person: 4,
            queued_per_person: 100,
            queued: MAX_QUEUED,
        }
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
        let engine = Arc::new(
            Engine::open(&config.querymesh, config.state_dir.as_deref()).expect("the engine opens"),
        );
        let executor = Executor::new(engine.clone(), PATIENCE, test_limits());
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
        let fresh =
            Arc::new(Engine::open(&config.querymesh, config.state_dir.as_deref()).expect("opens"))
                .prepare("SELECT name FROM nation ORDER BY nationkey", &tiny)
                .expect("prepares");
        let pooled = executor.submit("q5".into(), "ada".into(), fresh);
        let (pooled_rows, _) = all_pages(&pooled).await;
        assert_eq!(inline_rows, pooled_rows);
    }

    /// While queries come, connections are kept for every query that may run; once none runs,
    /// the pool shrinks back to a few (a burst used to leave 30 MB of connections and freed
    /// heap behind for good).
    #[tokio::test]
    async fn a_quiet_pool_shrinks_to_a_few_connections() {
        let config = crate::Config::builtin().with_ephemeral_ports();
        let engine = Arc::new(
            Engine::open(&config.querymesh, config.state_dir.as_deref()).expect("the engine opens"),
        );
        let executor = Executor::new(engine.clone(), PATIENCE, test_limits());
        for _ in 0..POOL_IDLE_QUIET + 4 {
            executor.checkin(engine.connect().expect("a connection"));
        }
        let idle = || executor.idle.lock().map(|i| i.len()).unwrap_or(0);
        assert_eq!(idle(), POOL_IDLE_QUIET + 4);
        // A query running: nothing is closed.
        let permit = match executor.admission.admit("ada") {
            Ok(Admitted::Now(permit)) => permit,
            _ => panic!("a place is free"),
        };
        executor.trim_when_idle();
        assert_eq!(idle(), POOL_IDLE_QUIET + 4);
        drop(permit);
        executor.trim_when_idle();
        assert_eq!(idle(), POOL_IDLE_QUIET);
    }

    #[tokio::test]
    async fn past_its_size_the_registry_abandons_the_query_unasked_for_longest() {
        let config = crate::Config::builtin().with_ephemeral_ports();
        let engine = Arc::new(
            Engine::open(&config.querymesh, config.state_dir.as_deref()).expect("the engine opens"),
        );
        let executor = Executor::new(engine, PATIENCE, test_limits());
        let mut senders = Vec::new();
        for id in ["q1", "q2", "q3"] {
            let (query, tx) = unstarted(id);
            senders.push(tx);
            executor.register_within(&Arc::new(query), 3);
        }
        // q1 and q3 were asked about later than q2 (seconds after their creation, that is
        // now): q2 is the one nobody has asked about for longest.
        for (id, seen_ms) in [("q1", 10_000), ("q3", 5_000)] {
            let query = executor.find_by_id(id).expect("kept");
            query.last_seen.store(seen_ms, Ordering::Relaxed);
        }
        let (query, _tx) = unstarted("q4");
        executor.register_within(&Arc::new(query), 3);
        let kept: Vec<bool> = ["q1", "q2", "q3", "q4"]
            .iter()
            .map(|id| executor.find_by_id(id).is_some())
            .collect();
        assert_eq!(kept, [true, false, true, true]);
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

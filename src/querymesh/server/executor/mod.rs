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

//!
//! # Layout
//!
//! - this file: [`Executor`], its limits, and submitting a query (now, inline, or queued).
//! - `run`: running a query on a connection, on the blocking pool or inline on a worker.
//! - `pool`: the idle connections kept between queries, and giving memory back when quiet.
//! - `registry`: the queries kept for their clients, and the sweep that forgets them.
//! - `admission`: which queries run now and which wait, by their resource groups.
//! - `resource_groups`: Trino's resource-groups file, read and checked.
//! - `query`: one query's state, its stop, and its pages.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tokio::sync::mpsc;

use super::legacy_datetime;
use super::protocol::{self, QueryIds};
use crate::platform::{Journal, NewEvent, Source};
use crate::querymesh::engine::error::TrinoError;
use crate::querymesh::engine::{Engine, Prepared};

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
/// …and once none runs (each holds its schemas and compiled statements, ~200 KB once its
/// pages are released)…
const POOL_IDLE_QUIET: usize = 8;
/// …and once none has run for the first of [`TRIM_AGAIN_AFTER`].
const POOL_IDLE_FLOOR: usize = 2;
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
/// How long into a quiet spell freed memory is given back again, and the idle pool shrinks to
/// [`POOL_IDLE_FLOOR`] (see [`Executor::trim_when_idle`]): first once the sweep has forgotten
/// the ended queries and their last pages (after [`KEEP_FINISHED`], within a
/// [`SWEEP_EVERY`]: about 6 MB after a burst of 50 clients), then once more a minute later.
const TRIM_AGAIN_AFTER: [Duration; 2] = [
    Duration::from_secs(KEEP_FINISHED.as_secs() + 2 * SWEEP_EVERY.as_secs()),
    Duration::from_secs(65),
];
/// Queries kept for their clients at once: running, waiting, and ended ones whose client has
/// not yet fetched their last page.
const MAX_REGISTERED: usize = 20_000;

mod admission;
mod pool;
mod query;
mod registry;
pub mod resource_groups;
mod run;
mod runtime_rows;
#[cfg(test)]
mod tests;

pub use admission::Limits;
use admission::{Admission, Admitted, Refused};
use resource_groups::{Criteria, ResourceGroups};

use query::Chunk;
pub use query::{PageError, Query, Stop};
use registry::sweep;

/// Runs queries and keeps them until their client is done with them.
pub struct Executor {
    engine: Arc<Engine>,
    time_limit: Duration,
    journal: Journal,
    ids: QueryIds,
    idle: Mutex<Vec<Connection>>,
    queries: Mutex<HashMap<String, Arc<Query>>>,
    /// Which queries run now and which wait, by their resource groups.
    admission: Arc<Admission>,
    /// A connection came back since memory was last given back (see [`Executor::trim_when_idle`]).
    released: std::sync::atomic::AtomicBool,
    /// When the last quiet spell began, and how many of [`TRIM_AGAIN_AFTER`] it has passed.
    quiet: Mutex<(Instant, usize)>,
}

impl Executor {
    pub fn new(
        engine: Arc<Engine>,
        time_limit: Duration,
        groups: impl Into<ResourceGroups>,
        journal: Journal,
    ) -> Arc<Self> {
        let executor = Arc::new(Self {
            engine,
            time_limit,
            journal,
            ids: QueryIds::default(),
            idle: Mutex::new(Vec::new()),
            queries: Mutex::new(HashMap::new()),
            admission: Admission::new(groups.into(), MAX_RUNNING, MAX_QUEUED),
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

    /// Registers a query that failed before it could run (bad SQL, denied access, …). Trino
    /// analyses a statement only after answering its POST, so its error arrives on the first
    /// `nextUri`, never in the POST's answer; clients (the JavaScript one among them) read
    /// errors only there. This query then ends and is swept like any other.
    pub fn submit_failed(&self, id: String, principal: String, error: TrinoError) -> Arc<Query> {
        let (tx, rows) = mpsc::channel(1);
        let query = Arc::new(Query {
            refused: true,
            journal: Some(self.journal.clone()),
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
    /// a group on its resource group's path is at its limit (see [`admission`]); past the queue
    /// limits, or matching no selector, it fails as Trino's does.
    /// [`Self::submit_for_client`] for a client that declared `PARAMETRIC_DATETIME`.
    #[cfg(test)]
    pub fn submit(
        self: &Arc<Self>,
        id: String,
        text: &str,
        prepared: Arc<Prepared>,
        criteria: &Criteria,
    ) -> Arc<Query> {
        self.submit_for_client(id, text, prepared, criteria, true)
    }

    /// `parametric_datetime`: the client declared `PARAMETRIC_DATETIME`; without it, times and
    /// timestamps go out as Trino writes them for older clients (`legacy_datetime`).
    pub fn submit_for_client(
        self: &Arc<Self>,
        id: String,
        text: &str,
        prepared: Arc<Prepared>,
        criteria: &Criteria,
        parametric_datetime: bool,
    ) -> Arc<Query> {
        let principal = criteria.user.clone();
        let (group, admitted) = match self.admission.admit(criteria) {
            Ok(admitted) => admitted,
            Err(refused) => {
                self.record_refusal(&id, &principal, &refused);
                return self.submit_failed(id, principal, refused.error);
            }
        };
        let (tx, rx) = mpsc::channel(CHANNEL_CHUNKS);
        let legacy_datetime = (!parametric_datetime)
            .then(|| legacy_datetime::column_types(&prepared.columns))
            .flatten();
        let columns = match legacy_datetime {
            // Rendered for this query alone: the statement's cached columns are the current form.
            Some(_) => Arc::new(
                serde_json::value::to_raw_value(&legacy_datetime::columns_json(&prepared.columns))
                    .unwrap_or_else(|_| protocol::columns_json(&[])),
            ),
            None => prepared.wire_columns(protocol::columns_json),
        };
        let query = Arc::new(Query {
            update_type: prepared.update_type(),
            resource_group: Some(group),
            tables: prepared.reads.clone(),
            journal: Some(self.journal.clone()),
            legacy_datetime: legacy_datetime.map(Arc::new),
            source: criteria.source.clone(),
            ..Query::new(id, principal, columns, rx)
        });
        // Before it can run: it lists itself in system.runtime.queries.
        query.set_text(text);
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

    /// Puts a resource group's refusal on record: NYXDB's governance_log fields (dimension,
    /// allowed, observed) with the group, never the statement.
    fn record_refusal(&self, id: &str, principal: &str, refused: &Refused) {
        let (full, allowed, observed) = match &refused.full {
            Some((group, allowed, observed)) => {
                (Some(group.as_str()), Some(*allowed), Some(*observed))
            }
            None => (None, None, None),
        };
        self.journal.record(
            NewEvent::new(Source::QueryMesh, "LIMIT_EXCEEDED")
                .of_person(principal)
                .outcome(refused.error.name.name_and_code().0)
                .details(serde_json::json!({
                    "query_id": id,
                    "dimension": "resource_group",
                    "group": refused.group,
                    "rule": full,
                    "allowed": allowed,
                    "observed": observed,
                })),
        );
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
        // The session's query_max_run_time can only shorten the sandbox's own limit.
        let limit = prepared
            .time_limit()
            .map_or(self.time_limit, |own| own.min(self.time_limit));
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

    /// Stops every query: the server is going away, and a blocking thread left running a
    /// query would keep the process (or a test's runtime) from ending.
    pub fn stop_all(&self) {
        for query in self.registry().drain().map(|(_, q)| q) {
            query.control.stop(Stop::Canceled);
        }
    }
}

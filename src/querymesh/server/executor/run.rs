//! Running one query on a SQLite connection: [`Executor::produce`] on a blocking-pool thread,
//! its rows sent in chunks as the client fetches them, and [`Executor::run_here`] for a query
//! short enough to run on the async worker that accepted it.

use std::sync::atomic::Ordering;
use std::time::Instant;

use serde_json::Value;
use tokio::sync::mpsc;

use super::query::{Chunk, ChunkBuilder, Query};
use super::{Executor, INLINE_BUDGET, INLINE_MAX, INLINE_MAX_BYTES, PROGRESS_OPS};
use crate::querymesh::engine::error::{InternalError, TrinoError};
use crate::querymesh::engine::{Prepared, RunError};

/// A failure of the stand-in itself, logged once here (what failed and SQLite's code, never
/// SQL: [`InternalError`] carries none) and answered as GENERIC_INTERNAL_ERROR naming only the
/// query, so the log line can be found from the answer.
fn internal(query: &Query, failure: InternalError) -> TrinoError {
    tracing::error!(
        query_id = %query.id,
        failure = failure.what,
        sqlite_code = failure.sqlite_code,
        "a query failed inside the QueryMesh stand-in"
    );
    TrinoError::internal(&query.id)
}

impl Executor {
    /// Runs on a blocking-pool thread: executes the query and sends its rows in chunks.
    pub(super) fn produce(&self, query: &Query, prepared: &Prepared, tx: &mpsc::Sender<Chunk>) {
        let runtime = tokio::runtime::Handle::current();
        let mut conn = match self.checkout() {
            Ok(conn) => conn,
            Err(e) => {
                tracing::error!(query_id = %query.id, error = %e, "cannot open a connection");
                let _ = tx.blocking_send(Chunk {
                    json: String::new(),
                    rows: 0,
                    end: Some(Err(TrinoError::internal(&query.id))),
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
                end: Some(Err(internal(
                    query,
                    InternalError::new("the stand-in could not watch the query for a stop"),
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
        let mut batch = ChunkBuilder::for_query(query);
        let running = Instant::now();
        let result = prepared.run(&conn, &mut |row: Vec<Value>| {
            batch.push(row);
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
            Err(RunError::Internal(failure)) => Err(internal(query, failure)),
            Err(RunError::Interrupted) => match query.control.stopped() {
                Some(stop) => Err(stop.error()),
                // Only a stop interrupts; nothing else may pass for success.
                None => Err(internal(
                    query,
                    InternalError::new("the query was interrupted without a stop"),
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
    pub(super) fn run_here(
        &self,
        query: &Query,
        prepared: &Prepared,
        tx: &mpsc::Sender<Chunk>,
    ) -> bool {
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
        let mut batch = ChunkBuilder::for_query(query);
        let mut too_big = false;
        let result = prepared.run(&conn, &mut |row: Vec<Value>| {
            batch.push(row);
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
            (Err(RunError::Internal(failure)), _) => Err(internal(query, failure)),
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
}

//! The idle connections kept between queries ([`POOL_IDLE_MAX`] while queries keep coming,
//! [`POOL_IDLE_QUIET`] once none runs, [`POOL_IDLE_FLOOR`] after a quiet spell), and giving
//! freed memory back to the system in a quiet spell.

use std::sync::atomic::Ordering;
use std::time::Instant;

use rusqlite::Connection;

use crate::querymesh::engine::memory::{self, ConnectionStats};

use super::{Executor, POOL_IDLE_FLOOR, POOL_IDLE_MAX, POOL_IDLE_QUIET, TRIM_AGAIN_AFTER};

impl Executor {
    pub(super) fn idle_connection(&self) -> Option<Connection> {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop()
    }

    pub(super) fn checkout(&self) -> rusqlite::Result<Connection> {
        match self.idle_connection() {
            Some(conn) => Ok(conn),
            None => self.engine.connect(),
        }
    }

    pub(super) fn checkin(&self, conn: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < POOL_IDLE_MAX {
            // An idle connection keeps its compiled statements, not the pages it last read.
            let _ = conn.release_memory();
            idle.push(conn);
        }
        self.released.store(true, Ordering::Relaxed);
    }

    /// Once no query runs, closes the idle connections past [`POOL_IDLE_QUIET`] and gives the
    /// memory the last queries freed back to the system (memory::trim): without it a burst of
    /// concurrent queries leaves the process at its peak for good.
    ///
    /// The rest of the process frees more later — the ended queries once the sweep forgets
    /// them, kept-alive connections after the listeners' 60 s (the components' own idle ones
    /// close as the whole process goes quiet, see `heap::give_back_when_quiet`) — so a quiet
    /// spell trims again as it passes each of [`TRIM_AGAIN_AFTER`]; a trim of a quiet heap
    /// takes microseconds. A spell that long is a pause, not a gap between queries: the pool then
    /// keeps only [`POOL_IDLE_FLOOR`] (each idle connection holds ~200 KB of schemas and
    /// compiled statements; opening one again costs about a millisecond).
    pub(super) fn trim_when_idle(&self) {
        self.trim_when_idle_at(Instant::now());
    }

    /// [`Executor::trim_when_idle`] with the clock read by the caller (tests pass a quiet
    /// spell without waiting it out).
    pub(super) fn trim_when_idle_at(&self, now: Instant) {
        if self.admission.running() != 0 {
            return;
        }
        let mut quiet = self.quiet.lock().unwrap_or_else(|p| p.into_inner());
        if self.released.swap(false, Ordering::Relaxed) {
            self.close_idle_past(POOL_IDLE_QUIET);
            self.give_back(0);
            *quiet = (now, 0);
        } else if let Some(after) = TRIM_AGAIN_AFTER.get(quiet.1)
            && now.saturating_duration_since(quiet.0) >= *after
        {
            quiet.1 += 1;
            self.close_idle_past(POOL_IDLE_FLOOR);
            self.give_back(quiet.1);
        }
    }

    /// Closes the idle connections past the first `keep` (outside the pool's lock).
    fn close_idle_past(&self, keep: usize) {
        let extra: Vec<Connection> = {
            let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
            let keep = idle.len().min(keep);
            idle.split_off(keep)
        };
        drop(extra);
    }

    /// Trims the heap, and says at debug level (target `zero_sandbox::memory`) what it held
    /// before and after and what the idle connections keep: numbers only.
    fn give_back(&self, round: usize) {
        let before = memory::heap_stats();
        crate::heap::trim();
        let after = memory::heap_stats();
        let (connections, held) = {
            let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
            let held = idle
                .iter()
                .map(ConnectionStats::of)
                .fold(ConnectionStats::default(), |a, b| a + b);
            (idle.len(), held)
        };
        tracing::debug!(
            target: "zero_sandbox::memory",
            round,
            heap_in_use = after.in_use,
            heap_free_before = before.free,
            heap_free_after = after.free,
            sqlite = after.sqlite,
            idle_connections = connections,
            page_cache = held.page_cache,
            statements = held.statements,
            schema = held.schema,
            "queries quiet: heap trimmed"
        );
    }
}

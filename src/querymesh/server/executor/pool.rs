//! The idle connections kept between queries ([`POOL_IDLE_MAX`] while queries keep coming,
//! [`POOL_IDLE_QUIET`] once none runs), and giving freed memory back to the system in a quiet
//! spell.

use std::sync::atomic::Ordering;
use std::time::Instant;

use rusqlite::Connection;

use super::{Executor, POOL_IDLE_MAX, POOL_IDLE_QUIET, TRIM_AGAIN_AFTER};

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
    /// The rest of the process frees more later — HTTP connections the components' clients
    /// pool close after 30 s, kept-alive ones after the listeners' 60 s — so a quiet spell
    /// trims again as it passes each of [`TRIM_AGAIN_AFTER`]; a trim of a quiet heap takes
    /// microseconds.
    pub(super) fn trim_when_idle(&self) {
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
}

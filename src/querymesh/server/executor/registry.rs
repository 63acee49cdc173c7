//! The queries kept for their clients, by id: registering one (abandoning the query unasked
//! for longest past [`MAX_REGISTERED`]), finding one for a request, and the sweep that forgets
//! settled queries and abandons those nobody fetches.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, MutexGuard, Weak};
use std::time::Duration;

use super::query::{Query, Stop};
use super::{ABANDON_AFTER, Executor, KEEP_FINISHED, MAX_REGISTERED, SWEEP_EVERY};

impl Executor {
    pub(super) fn registry(&self) -> MutexGuard<'_, HashMap<String, Arc<Query>>> {
        self.queries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keeps `query` for its client. Queries whose client never fetches their last page stay
    /// until abandoned ([`ABANDON_AFTER`]), so a client posting fast without fetching would
    /// otherwise grow the registry with its rate: past [`MAX_REGISTERED`], the query nobody
    /// has asked about for longest is abandoned now (stopped first if it still runs).
    pub(super) fn register(&self, query: &Arc<Query>) {
        self.register_within(query, MAX_REGISTERED);
    }

    pub(super) fn register_within(&self, query: &Arc<Query>, max: usize) {
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

    /// Cancels queries nobody fetches any more and forgets those whose last page was served.
    pub(super) fn sweep_once(&self) {
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
pub(super) enum Sweep {
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
pub(super) fn sweep_verdict(ended: bool, cancelled: bool, idle: Duration) -> Sweep {
    match (ended || cancelled, idle) {
        (true, idle) if idle >= KEEP_FINISHED => Sweep::Forget,
        (false, idle) if idle >= ABANDON_AFTER => Sweep::Abandon,
        _ => Sweep::Keep,
    }
}

pub(super) async fn sweep(executor: Weak<Executor>) {
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

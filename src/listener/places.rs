//! One listener's places under its cap, and the connections holding them: how a new client
//! gets in when the cap is reached.
//!
//! At the cap a new client is not refused at once: it waits for a place, as it would in the
//! kernel's accept queue of nginx or Apache at their limits, and places are made for it:
//!
//! - the connection kept alive idle the longest is closed (nginx, out of
//!   `worker_connections`, reuses its idle keepalive connections, oldest first), and so is
//!   any connection that goes idle while a client waits (Apache's event MPM closes kept-alive
//!   connections when its connections are full);
//! - from three quarters of the cap on, connections still sending their headers get
//!   [`Limits::header_read_timeout_near_cap`] instead of [`Limits::header_read_timeout`], so
//!   a flood of half-sent requests gives its places back within that.
//!
//! A connection answering a request is never closed to make room. A client that finds no
//! place within its header deadline gets the listener's 503.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::Limits;
use super::activity::{Activity, Phase};

/// Clients that may wait for a place at once; past them, a new client gets the 503 at once.
/// Each holds a file descriptor (counted in [`super::limits::max_connections_for`]).
pub(super) const MAX_WAITING: usize = 64;

/// A listener's cap, and every connection holding a place under it.
pub(super) struct Places {
    limits: Limits,
    open: Arc<Semaphore>,
    held: Mutex<Held>,
    /// `held`'s size, readable without its lock (every header deadline reads it).
    open_now: AtomicUsize,
    /// From this many open connections on, the shorter header deadline applies.
    pressure_from: usize,
    /// Clients waiting for a place.
    waiting: AtomicUsize,
}

#[derive(Default)]
struct Held {
    next_id: u64,
    connections: HashMap<u64, Arc<Activity>>,
}

impl Places {
    pub(super) fn new(limits: Limits) -> Arc<Self> {
        let cap = limits.max_connections;
        Arc::new(Self {
            open: Arc::new(Semaphore::new(cap)),
            held: Mutex::new(Held::default()),
            open_now: AtomicUsize::new(0),
            pressure_from: cap.saturating_mul(3).div_ceil(4).max(1),
            waiting: AtomicUsize::new(0),
            limits,
        })
    }

    pub(super) fn limits(&self) -> &Limits {
        &self.limits
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The header deadline in force now: shorter from three quarters of the cap on.
    pub(super) fn header_read_timeout(&self) -> Duration {
        let normal = self.limits.header_read_timeout;
        if self.open_now.load(Ordering::Relaxed) >= self.pressure_from {
            normal.min(self.limits.header_read_timeout_near_cap)
        } else {
            normal
        }
    }

    /// Whether a client waits for a place (then a connection going idle gives its place up).
    pub(super) fn someone_waits(&self) -> bool {
        self.waiting.load(Ordering::Relaxed) > 0
    }

    /// A place at once, if one is free.
    pub(super) fn try_take(self: &Arc<Self>) -> Option<Place> {
        let permit = self.open.clone().try_acquire_owned().ok()?;
        Some(self.hold(permit))
    }

    /// For a client that found the cap reached: a place made for it (the longest-idle
    /// kept-alive connection is told to close), to wait for; `None` when too many wait
    /// already. Counted in one step: a listener served by several threads has an accept
    /// loop on each, and the count must not pass its bound between two of them.
    pub(super) fn wait(self: &Arc<Self>) -> Option<Waiting> {
        self.waiting
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |waiting| {
                (waiting < MAX_WAITING).then_some(waiting + 1)
            })
            .ok()?;
        self.close_longest_idle();
        Some(Waiting {
            places: self.clone(),
        })
    }

    /// Tells the connection idle the longest to close; whether there was one. A connection
    /// whose next request begins meanwhile is skipped ([`Activity::close_if_idle`]).
    fn close_longest_idle(&self) -> bool {
        let held = self.held();
        loop {
            let longest = held
                .connections
                .values()
                .filter_map(|activity| match activity.phase() {
                    Phase::Idle { since } => Some((since, activity)),
                    _ => None,
                })
                .min_by_key(|(since, _)| *since);
            match longest {
                None => return false,
                Some((_, activity)) if activity.close_if_idle() => return true,
                Some(_) => {}
            }
        }
    }

    fn hold(self: &Arc<Self>, permit: OwnedSemaphorePermit) -> Place {
        let activity = Arc::new(Activity::new());
        let mut held = self.held();
        let id = held.next_id;
        held.next_id += 1;
        held.connections.insert(id, activity.clone());
        let open = held.connections.len();
        self.open_now.store(open, Ordering::Relaxed);
        // Counted under the lock, so exactly one new connection sees the pressure begin:
        // the connections already sending headers work their deadlines out again.
        if open == self.pressure_from {
            for connection in held.connections.values() {
                if let Phase::Head { .. } = connection.phase() {
                    connection.recheck();
                }
            }
        }
        drop(held);
        Place {
            places: self.clone(),
            id,
            activity,
            _permit: permit,
        }
    }
}

/// A client waiting for a place; counted in [`Places::someone_waits`] until it has one or
/// gives up.
pub(super) struct Waiting {
    places: Arc<Places>,
}

impl Waiting {
    /// A place, once one frees within the header deadline; `None` past it.
    pub(super) async fn place(self) -> Option<Place> {
        let open = self.places.open.clone();
        let permit =
            tokio::time::timeout(self.places.limits.header_read_timeout, open.acquire_owned())
                .await
                .ok()?
                .ok()?;
        Some(self.places.hold(permit))
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.places.waiting.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One connection's place under the cap, with its [`Activity`]; given back when dropped. It
/// lives in the connection's I/O, so an upgraded connection (a WebSocket through the edge),
/// which hyper hands over with that I/O, keeps its place until it closes.
pub(super) struct Place {
    places: Arc<Places>,
    id: u64,
    pub(super) activity: Arc<Activity>,
    _permit: OwnedSemaphorePermit,
}

impl Place {
    pub(super) fn places(&self) -> &Places {
        &self.places
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = self.places.held();
        held.connections.remove(&self.id);
        self.places
            .open_now
            .store(held.connections.len(), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_deadline_shortens_from_three_quarters_of_the_cap() {
        let limits = Limits {
            header_read_timeout: Duration::from_secs(10),
            header_read_timeout_near_cap: Duration::from_secs(1),
            max_connections: 8,
            ..Limits::default()
        };
        let places = Places::new(limits);
        let mut held = Vec::new();
        for open in 1..=8 {
            held.push(places.try_take().expect("a place"));
            let expected = Duration::from_secs(if open >= 6 { 1 } else { 10 });
            assert_eq!(places.header_read_timeout(), expected, "{open} open");
        }
        assert!(places.try_take().is_none(), "the cap holds");
        held.truncate(5);
        assert_eq!(places.header_read_timeout(), Duration::from_secs(10));
    }

    #[test]
    fn only_an_idle_connection_is_closed_to_make_room_the_longest_idle_first() {
        let places = Places::new(Limits {
            max_connections: 3,
            ..Limits::default()
        });
        let [busy, older, newer] = [(); 3].map(|()| places.try_take().expect("a place"));
        let _answering = busy.activity.request_started(places.clone());
        for place in [&older, &newer] {
            drop(place.activity.request_started(places.clone()));
        }
        assert!(places.close_longest_idle());
        assert!(matches!(older.activity.phase(), Phase::Closing));
        assert!(matches!(newer.activity.phase(), Phase::Idle { .. }));
        assert!(places.close_longest_idle());
        assert!(matches!(newer.activity.phase(), Phase::Closing));
        assert!(!places.close_longest_idle(), "the busy one is never taken");
        assert!(matches!(busy.activity.phase(), Phase::Busy { requests: 1 }));
    }
}

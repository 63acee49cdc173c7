//! Where a connection is between requests, for its timers and for the listener deciding which
//! connection may be closed to make room.

use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::Notify;
use tokio::time::Instant;

use super::places::Places;

/// Where a connection is between requests.
#[derive(Clone, Copy, Debug)]
pub(super) enum Phase {
    /// Waiting for the end of a request's headers since `since`.
    Head { since: Instant },
    /// This many requests are being answered (their responses not yet fully written).
    Busy { requests: usize },
    /// Kept alive with nothing asked since `since`.
    Idle { since: Instant },
    /// Told to close to make room for a new client, or handed over to an upgrade (a
    /// WebSocket): no longer timed, never chosen to make room again.
    Closing,
}

/// Why [`Activity::expired`] ended the wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Expired {
    /// Headers or the next request did not come in time: nothing is in flight.
    Deadline,
    /// The listener needs this connection's place: what is written is still sent.
    MakeRoom,
}

/// A connection's phase, moved by its reads, by the requests it serves and by its listener.
pub(super) struct Activity {
    phase: Mutex<Phase>,
    changed: Notify,
}

impl Activity {
    /// A new connection is waiting for its first request's headers from the start: a client
    /// that connects and says nothing is closed as one that stops mid-header.
    pub(super) fn new() -> Self {
        Self {
            phase: Mutex::new(Phase::Head {
                since: Instant::now(),
            }),
            changed: Notify::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn phase(&self) -> Phase {
        *self.lock()
    }

    /// Wakes [`Self::expired`] to work its deadline out again (the listener came under
    /// pressure, which shortens the header deadline).
    pub(super) fn recheck(&self) {
        self.changed.notify_one();
    }

    /// The first bytes after an idle spell start the next request's headers.
    pub(super) fn bytes_arrived(&self) {
        let mut phase = self.lock();
        if let Phase::Idle { .. } = *phase {
            *phase = Phase::Head {
                since: Instant::now(),
            };
            self.changed.notify_one();
        }
    }

    /// Not notified: a timer that fires while busy finds the phase busy and waits for the
    /// next change, so only the way out of busy must wake [`Self::expired`]. It runs in the
    /// connection's own task, which a notification here would poll again for nothing on
    /// every request.
    pub(super) fn request_started(self: &Arc<Self>, places: Arc<Places>) -> InFlight {
        let mut phase = self.lock();
        *phase = match *phase {
            Phase::Busy { requests } => Phase::Busy {
                requests: requests + 1,
            },
            Phase::Head { .. } | Phase::Idle { .. } => Phase::Busy { requests: 1 },
            Phase::Closing => Phase::Closing,
        };
        drop(phase);
        InFlight {
            activity: self.clone(),
            places,
        }
    }

    /// Closes the connection if it is idle between requests; whether it was. Checked and
    /// changed under one lock, so a connection whose next request has begun is never taken.
    pub(super) fn close_if_idle(&self) -> bool {
        let mut phase = self.lock();
        if !matches!(*phase, Phase::Idle { .. }) {
            return false;
        }
        *phase = Phase::Closing;
        self.changed.notify_one();
        true
    }

    /// The connection's task is ending, or has handed its I/O to an upgrade.
    pub(super) fn ended(&self) {
        *self.lock() = Phase::Closing;
    }

    /// Resolves once the connection has waited past its limit for headers or for its next
    /// request, or was told to close; never while a request is in flight. The header
    /// deadline is the one in force now ([`Places::header_read_timeout`]), so it shortens
    /// when the listener comes under pressure.
    pub(super) async fn expired(&self, places: &Places) -> Expired {
        loop {
            let changed = self.changed.notified();
            let deadline = match self.phase() {
                Phase::Head { since } => since + places.header_read_timeout(),
                Phase::Idle { since } => since + places.limits().idle_timeout,
                Phase::Closing => return Expired::MakeRoom,
                Phase::Busy { .. } => {
                    changed.await;
                    continue;
                }
            };
            tokio::select! {
                () = changed => {}
                () = tokio::time::sleep_until(deadline) => {
                    // Past a deadline worked out before the pressure eased: the one in
                    // force now may be later.
                    let now = Instant::now();
                    let over = match self.phase() {
                        Phase::Head { since } => since + places.header_read_timeout() <= now,
                        Phase::Idle { since } => since + places.limits().idle_timeout <= now,
                        Phase::Closing => return Expired::MakeRoom,
                        Phase::Busy { .. } => false,
                    };
                    if over {
                        return Expired::Deadline;
                    }
                }
            }
        }
    }
}

/// A request being answered; dropped once its response body is written (or abandoned).
pub(super) struct InFlight {
    activity: Arc<Activity>,
    places: Arc<Places>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let activity = &self.activity;
        let mut phase = activity.lock();
        *phase = match *phase {
            Phase::Busy { requests } if requests > 1 => Phase::Busy {
                requests: requests - 1,
            },
            Phase::Closing => Phase::Closing,
            // A client waits for a place: this connection's goes to it rather than being
            // kept alive (Apache's event MPM closes a kept-alive connection when its
            // connections are full).
            _ if self.places.someone_waits() => Phase::Closing,
            _ => Phase::Idle {
                since: Instant::now(),
            },
        };
        activity.changed.notify_one();
    }
}

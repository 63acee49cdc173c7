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
///
/// Its timer is lazy, as nginx's and Go's are: a request does not set or move it. It looks
/// at the phase when it fires and sets itself for the next look; a look set never later than
/// any deadline that can arise before it keeps every deadline on time, and only the changes
/// that could break that (a deadline earlier than the next look, a connection told to close)
/// wake it. On a connection answering request after request, it fires once every header
/// deadline, not twice per request: re-arming a timer per request made tokio's timer wake its
/// own thread through a system call each time (the edge's profile).
pub(super) struct Activity {
    state: Mutex<State>,
    changed: Notify,
}

struct State {
    phase: Phase,
    /// When [`Activity::expired`] looks next.
    next_look: Instant,
}

impl Activity {
    /// A new connection is waiting for its first request's headers from the start: a client
    /// that connects and says nothing is closed as one that stops mid-header.
    pub(super) fn new() -> Self {
        let now = Instant::now();
        Self {
            state: Mutex::new(State {
                phase: Phase::Head { since: now },
                next_look: now,
            }),
            changed: Notify::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn phase(&self) -> Phase {
        self.lock().phase
    }

    /// Wakes [`Self::expired`] to work its deadline out again (the listener came under
    /// pressure, which shortens the header deadline).
    pub(super) fn recheck(&self) {
        self.changed.notify_one();
    }

    /// The first bytes after an idle spell start the next request's headers; their deadline
    /// wakes the timer only if it falls before the timer's next look (a connection idle for
    /// longer than a header deadline).
    pub(super) fn bytes_arrived(&self, places: &Places) {
        let mut state = self.lock();
        if let Phase::Idle { .. } = state.phase {
            let now = Instant::now();
            state.phase = Phase::Head { since: now };
            if now + places.header_read_timeout() < state.next_look {
                self.changed.notify_one();
            }
        }
    }

    /// Not notified: the timer's next look comes within a header deadline of any moment, so
    /// it notices the request without being woken.
    pub(super) fn request_started(self: &Arc<Self>, places: Arc<Places>) -> InFlight {
        let mut state = self.lock();
        state.phase = match state.phase {
            Phase::Busy { requests } => Phase::Busy {
                requests: requests + 1,
            },
            Phase::Head { .. } | Phase::Idle { .. } => Phase::Busy { requests: 1 },
            Phase::Closing => Phase::Closing,
        };
        drop(state);
        InFlight {
            activity: self.clone(),
            places,
        }
    }

    /// Closes the connection if it is idle between requests; whether it was. Checked and
    /// changed under one lock, so a connection whose next request has begun is never taken.
    pub(super) fn close_if_idle(&self) -> bool {
        let mut state = self.lock();
        if !matches!(state.phase, Phase::Idle { .. }) {
            return false;
        }
        state.phase = Phase::Closing;
        self.changed.notify_one();
        true
    }

    /// The connection's task is ending, or has handed its I/O to an upgrade.
    pub(super) fn ended(&self) {
        self.lock().phase = Phase::Closing;
    }

    /// Resolves once the connection has waited past its limit for headers or for its next
    /// request, or was told to close; never while a request is in flight. The header
    /// deadline is the one in force now ([`Places::header_read_timeout`]), so it shortens
    /// when the listener comes under pressure.
    pub(super) async fn expired(&self, places: &Places) -> Expired {
        let timer = tokio::time::sleep_until(Instant::now());
        tokio::pin!(timer);
        loop {
            let changed = self.changed.notified();
            let next_look = match self.look(places) {
                Ok(next_look) => next_look,
                Err(expired) => return expired,
            };
            if timer.deadline() != next_look {
                timer.as_mut().reset(next_look);
            }
            tokio::select! {
                () = changed => {}
                () = timer.as_mut() => {}
            }
        }
    }

    /// Whether the connection is past its deadline now, or else when to look next: at the
    /// deadline of its headers; within a header deadline of going idle (the next request's
    /// headers may begin at any moment), then at its idle deadline; while busy, a header
    /// deadline from now.
    fn look(&self, places: &Places) -> Result<Instant, Expired> {
        let now = Instant::now();
        let header_deadline = places.header_read_timeout();
        let mut state = self.lock();
        let next_look = match state.phase {
            Phase::Closing => return Err(Expired::MakeRoom),
            Phase::Head { since } => {
                let deadline = since + header_deadline;
                if deadline <= now {
                    return Err(Expired::Deadline);
                }
                deadline
            }
            Phase::Idle { since } => {
                let deadline = since + places.limits().idle_timeout;
                if deadline <= now {
                    return Err(Expired::Deadline);
                }
                let early = since + header_deadline;
                if early > now {
                    early.min(deadline)
                } else {
                    deadline
                }
            }
            Phase::Busy { .. } => now + header_deadline,
        };
        state.next_look = next_look;
        Ok(next_look)
    }
}

/// A request being answered; dropped once its response body is written (or abandoned).
pub(super) struct InFlight {
    activity: Arc<Activity>,
    places: Arc<Places>,
}

impl Drop for InFlight {
    /// Going idle wakes no one (the timer's next look is due within a header deadline, before
    /// the idle deadline); being told to close does.
    fn drop(&mut self) {
        let activity = &self.activity;
        let mut state = activity.lock();
        state.phase = match state.phase {
            Phase::Busy { requests } if requests > 1 => Phase::Busy {
                requests: requests - 1,
            },
            Phase::Closing => Phase::Closing,
            // A client waits for a place: this connection's goes to it rather than being
            // kept alive (Apache's event MPM closes a kept-alive connection when its
            // connections are full).
            _ if self.places.someone_waits() => {
                activity.changed.notify_one();
                Phase::Closing
            }
            _ => Phase::Idle {
                since: Instant::now(),
            },
        };
    }
}

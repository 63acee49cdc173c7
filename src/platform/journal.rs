//! The platform's event journal: what the components and the test-control API did, in memory
//! and bounded (the oldest event goes first, and a counter says how many went), read with a
//! cursor (`GET /sandbox/v1/events?since=`); [`Journal::subscribe`] wakes a reader (a stream,
//! the events file) when something is recorded, so none has to poll.
//!
//! An event names who (`sub`, `sid`), never what they sent: no SQL text, token, identity,
//! cookie or code is ever put in one — the constructors below take none of them.
//!
//! # The event types
//!
//! Every type recorded, by source (add yours here, and a row to the table of
//! `tests/sandbox/platform/journal.rs`):
//!
//! - `iam`, in Keycloak's vocabulary: `LOGIN`, `LOGIN_ERROR`, `CODE_TO_TOKEN`,
//!   `CODE_TO_TOKEN_ERROR`, `REFRESH_TOKEN`, `REFRESH_TOKEN_ERROR` (outcome: Keycloak's `error`,
//!   e.g. `user_not_found`, `invalid_code`, `pkce_verification_failed`, `invalid_token`),
//!   `LOGOUT`; `SESSION_ENDED` for platform sessions the IAM ended (its end-session, a refused
//!   refresh). `LOGIN` is every sign-in into the client — the page's, "Continue as", and one
//!   the SSO session alone answers, as Keycloak's cookie authenticator does — with Keycloak's
//!   details (`auth_method`, `auth_type`, `response_type`, `response_mode`, `redirect_uri`,
//!   `consent`, `code_id`: the SSO session's id, `username`); SSO reuse is not flagged, as in
//!   Keycloak: it shows as a `code_id` an earlier `LOGIN` already had.
//! - `edge`: `SESSION_STARTED`, `SESSION_ENDED`, `LOGOUT`, `LOGOUT_ERROR`,
//!   `IDENTITY_HEADER_REMOVED`.
//! - `broker`: `QUERY`, `IDENTITY_REJECTED`; `QUERY_CANCELLED` for every query QueryMesh had
//!   accepted and the broker stopped (and cancelled there), `query_id` and a `reason`:
//!   `session_ended` (with `why`), `client_disconnected`, `timeout`, `fault`, `max_rows`,
//!   `answer_too_large`, `answers_at_limit`, `foreign_next_uri`, `failed_answer`, `shutdown`;
//!   `SESSION_REVOKED` (a session ended while its call waited); governance: `LIMIT_EXCEEDED`.
//! - `querymesh`: `QUERY_CREATED`, `QUERY_COMPLETED` (Trino's query events), `POLICY_DENIED`.
//! - `control`: `SESSION_STARTED`, `SESSION_ENDED`, `PERSON_ADDED`, `PERSON_REMOVED`,
//!   `QUERYMESH_TOKEN_ISSUED`, `FAULT_ADDED`, `FAULT_REMOVED`, `FAULTS_CLEARED`,
//!   `SWITCH_CHANGED`, `KEY_ROTATED`, `CLOCK_ADVANCED`, `RESET`.
//!
//! `SESSION_ENDED` is recorded by [`super::SessionStore`] itself, so every way a session ends
//! is on record once.

use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;
use serde_json::Value;
use tokio::sync::watch;

use super::Clock;

mod ring;
use ring::Ring;

/// Events kept at once by default; past this many the oldest is dropped (and counted).
pub const DEFAULT_CAPACITY: usize = 10_000;
/// The most events one read returns; the cursor continues from there.
pub const MAX_PAGE: usize = 1_000;

/// Which part of the platform an event comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Iam,
    Edge,
    Broker,
    #[serde(rename = "querymesh")]
    QueryMesh,
    Control,
}

/// One recorded event.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    /// Increasing from 1; the cursor.
    pub id: u64,
    /// The platform clock's unix milliseconds.
    pub ts_ms: u64,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub source: Source,
    pub sub: Option<String>,
    pub sid: Option<String>,
    /// The outcome code (e.g. the broker's refusal code, or `OK`).
    pub outcome: Option<String>,
    /// Type-specific fields, never a secret or the SQL.
    pub details: Value,
}

/// An event before the journal numbers and stamps it.
#[derive(Clone, Debug)]
pub struct NewEvent {
    kind: &'static str,
    source: Source,
    sub: Option<String>,
    sid: Option<String>,
    outcome: Option<String>,
    details: Value,
}

impl NewEvent {
    pub fn new(source: Source, kind: &'static str) -> Self {
        Self {
            kind,
            source,
            sub: None,
            sid: None,
            outcome: None,
            details: Value::Object(Default::default()),
        }
    }

    pub fn of_person(mut self, sub: impl Into<String>) -> Self {
        self.sub = Some(sub.into());
        self
    }

    pub fn in_session(mut self, sid: impl Into<String>) -> Self {
        self.sid = Some(sid.into());
        self
    }

    pub fn outcome(mut self, outcome: impl Into<String>) -> Self {
        self.outcome = Some(outcome.into());
        self
    }

    pub fn details(mut self, details: Value) -> Self {
        self.details = details;
        self
    }
}

/// What one read returns: the events after the cursor, the cursor to read from next, and how
/// many events the bound has dropped since the start.
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    pub events: Vec<Event>,
    pub next: u64,
    pub dropped: u64,
}

/// The journal of one sandbox; clones share it.
#[derive(Clone, Debug)]
pub struct Journal {
    ring: Arc<Mutex<Ring>>,
    clock: Clock,
    /// The id of the last event recorded; readers wait on it changing.
    recorded: Arc<watch::Sender<u64>>,
}

impl Default for Journal {
    fn default() -> Self {
        Self::new(DEFAULT_CAPACITY, Clock::default())
    }
}

impl Journal {
    pub fn new(capacity: usize, clock: Clock) -> Self {
        let capacity = capacity.max(1);
        Self {
            ring: Arc::new(Mutex::new(Ring::new(capacity))),
            clock,
            recorded: Arc::new(watch::Sender::new(0)),
        }
    }

    /// Changes to the id of the newest event each time one is recorded (a reader then reads
    /// from its own cursor; several events may have come).
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.recorded.subscribe()
    }

    fn ring(&self) -> MutexGuard<'_, Ring> {
        self.ring.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn record(&self, event: NewEvent) {
        let ts_ms = self.clock.now_ms();
        // Serialising a Value cannot fail (its keys are strings).
        let details = serde_json::to_string(&event.details).unwrap_or_else(|_| "null".into());
        let id = self.ring().push(ts_ms, event, &details);
        self.recorded.send_replace(id);
    }

    /// The events after `since` (an event id; 0 for all), of type `kind` and person `sub` when
    /// given, at most `limit` (and [`MAX_PAGE`]). `next` is the last event looked at, so a
    /// filtered read never sees the same event twice.
    pub fn read(&self, since: u64, kind: Option<&str>, sub: Option<&str>, limit: usize) -> Page {
        let limit = limit.clamp(1, MAX_PAGE);
        let ring = self.ring();
        let mut events = Vec::new();
        let mut next = since.max(ring.first_id() - 1);
        for held in ring.after(since) {
            if events.len() == limit {
                break;
            }
            next = held.id;
            if kind.is_some_and(|k| k != held.kind()) || sub.is_some_and(|s| held.sub() != Some(s))
            {
                continue;
            }
            events.push(held.event());
        }
        Page {
            events,
            next: next.min(ring.last_id),
            dropped: ring.dropped,
        }
    }

    /// How many events the bound has dropped.
    pub fn dropped(&self) -> u64 {
        self.ring().dropped
    }

    /// How many events are held now.
    pub fn len(&self) -> usize {
        self.ring().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_journal_stays_within_its_bound_and_counts_what_it_dropped() {
        let journal = Journal::new(100, Clock::default());
        for _ in 0..100_000 {
            journal.record(NewEvent::new(Source::Broker, "QUERY").outcome("OK"));
        }
        assert_eq!(journal.len(), 100);
        assert_eq!(journal.dropped(), 99_900);
        let page = journal.read(0, None, None, 10);
        assert_eq!(page.events[0].id, 99_901, "the oldest kept");
        assert_eq!(page.next, 99_910);
        assert_eq!(journal.read(page.next, None, None, 1000).events.len(), 90);
    }

    #[test]
    fn a_cursor_never_repeats_an_event_and_filters_skip_past_others() {
        let journal = Journal::default();
        journal.record(NewEvent::new(Source::Edge, "SESSION_STARTED").of_person("ada"));
        journal.record(NewEvent::new(Source::Broker, "QUERY").of_person("grace"));
        journal.record(NewEvent::new(Source::Broker, "QUERY").of_person("ada"));
        let ada = journal.read(0, Some("QUERY"), Some("ada"), 10);
        assert_eq!(ada.events.len(), 1);
        assert_eq!(ada.events[0].id, 3);
        assert_eq!(ada.next, 3);
        let none = journal.read(ada.next, None, None, 10);
        assert!(none.events.is_empty());
        assert_eq!(none.next, 3, "the cursor stays where it was");
        let first = journal.read(0, None, None, 1);
        assert_eq!((first.events[0].id, first.next), (1, 1));
    }

    /// The ring keeps an event compactly (details as JSON text): it reads back as recorded.
    #[test]
    fn an_event_reads_back_as_it_was_recorded() {
        let journal = Journal::default();
        let details = serde_json::json!({
            "query_id": "20261201_000000_00001_abcde",
            "rows": u64::MAX,
            "error_name": null,
            "nested": {"list": [1, -2.5, "x", true], "empty": {}},
        });
        journal.record(
            NewEvent::new(Source::QueryMesh, "QUERY_COMPLETED")
                .of_person("ada")
                .in_session("sid-1")
                .outcome("FINISHED")
                .details(details.clone()),
        );
        journal.record(NewEvent::new(Source::Edge, "SESSION_STARTED"));
        let page = journal.read(0, None, None, 10);
        let (full, bare) = (&page.events[0], &page.events[1]);
        assert_eq!(
            (
                full.kind,
                full.source,
                full.sub.as_deref(),
                full.sid.as_deref()
            ),
            (
                "QUERY_COMPLETED",
                Source::QueryMesh,
                Some("ada"),
                Some("sid-1")
            )
        );
        assert_eq!(full.outcome.as_deref(), Some("FINISHED"));
        assert_eq!(full.details, details);
        assert_eq!((bare.sub.as_deref(), bare.outcome.as_deref()), (None, None));
        assert_eq!(bare.details, serde_json::json!({}));
    }

    #[tokio::test]
    async fn a_subscriber_is_woken_with_the_newest_id() {
        let journal = Journal::default();
        let mut recorded = journal.subscribe();
        journal.record(NewEvent::new(Source::Edge, "SESSION_STARTED"));
        journal.record(NewEvent::new(Source::Edge, "SESSION_ENDED"));
        recorded.changed().await.unwrap();
        assert_eq!(*recorded.borrow_and_update(), 2);
    }
}

//! How the broker stops a query QueryMesh accepted: the session's end that revokes the call
//! ([`Revocation`]), the reasons it may stop one ([`Cancel`]), and the guard that cancels the
//! query in QueryMesh and puts it on record, also when the call is dropped half-way.

use serde_json::json;
use tokio::sync::watch;

use super::super::refusal::Refusal;
use super::{OnBehalfOf, TrinoClient};
use crate::platform::{Ending, NewEvent, SessionEnd, Source};

/// The platform session a query runs in: when it ends, the query is cancelled in QueryMesh
/// at once (DELETE on its nextUri, as a Trino client cancels) and the app's call answers 401
/// `USER_SESSION_REQUIRED` instead of rows.
pub struct Revocation {
    pub(super) end: SessionEnd,
    /// The session's `sid`, for the query's `QUERY_CANCELLED`.
    pub(super) sid: String,
    /// Set when the session ended while the broker waited: how, and the query cancelled.
    pub revoked: Option<Revoked>,
}

/// What a session's end revoked: the broker call, and its QueryMesh query if it had one.
#[derive(Clone, Debug)]
pub struct Revoked {
    pub ending: Ending,
    pub query_id: Option<String>,
}

impl Revocation {
    pub fn new(end: SessionEnd, sid: &str) -> Self {
        Self {
            end,
            sid: sid.to_string(),
            revoked: None,
        }
    }

    /// Resolves when the session ends.
    pub async fn ended(&mut self) -> Ending {
        self.end.ended().await
    }

    /// Notes the revocation and gives the app's answer.
    pub fn revoke(&mut self, ending: Ending, query_id: Option<String>) -> Refusal {
        let cancelled = if query_id.is_some() {
            "; its query was cancelled in QueryMesh"
        } else {
            ""
        };
        self.revoked = Some(Revoked { ending, query_id });
        Refusal::UserSessionRequired(format!(
            "The session of who signed in ended while the query ran ({}){cancelled}",
            ending.why
        ))
    }
}

/// Why the broker stopped a query QueryMesh had accepted before it finished: the `reason` of
/// its `QUERY_CANCELLED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cancel {
    /// Its platform session ended, `why` as the session's `SESSION_ENDED` says.
    SessionEnded { why: &'static str },
    /// The app hung up: its call to the broker was dropped half-way.
    ClientDisconnected,
    /// QueryMesh did not answer a page within `[broker] querymesh_timeout_secs`.
    Timeout,
    /// A fault rule of the test-control API: QueryMesh hanging up after accepting it.
    Fault,
    /// More rows than the call's `max_rows`.
    MaxRows,
    /// Past `[broker] max_answer_mb` for one answer.
    AnswerTooLarge,
    /// Past the broker's limit of answers gathered at once, everyone's together.
    AnswersAtLimit,
    /// QueryMesh asked to continue outside the configured address.
    ForeignNextUri,
    /// A page that failed: outside the protocol, an HTTP error, the connection lost.
    FailedAnswer,
    /// The sandbox is shutting down.
    Shutdown,
}

impl Cancel {
    pub fn reason(self) -> &'static str {
        match self {
            Self::SessionEnded { .. } => "session_ended",
            Self::ClientDisconnected => "client_disconnected",
            Self::Timeout => "timeout",
            Self::Fault => "fault",
            Self::MaxRows => "max_rows",
            Self::AnswerTooLarge => "answer_too_large",
            Self::AnswersAtLimit => "answers_at_limit",
            Self::ForeignNextUri => "foreign_next_uri",
            Self::FailedAnswer => "failed_answer",
            Self::Shutdown => "shutdown",
        }
    }
}

/// A query the broker stops: the app's answer, and why QueryMesh is told to cancel it
/// (`None`: QueryMesh ended it itself, nothing to cancel).
pub(super) struct Stop {
    pub(super) cancel: Option<Cancel>,
    pub(super) refusal: Refusal,
}

impl Stop {
    pub(super) fn cancel(cancel: Cancel, refusal: Refusal) -> Self {
        Self {
            cancel: Some(cancel),
            refusal,
        }
    }
}

/// The session's end noted, the app's answer, and the query to cancel for it.
pub(super) fn revoked(revocation: &mut Revocation, ending: Ending, query_id: &str) -> Stop {
    let refusal = revocation.revoke(ending, Some(query_id.to_string()));
    Stop::cancel(Cancel::SessionEnded { why: ending.why }, refusal)
}

pub(super) fn shutting_down() -> Stop {
    Stop::cancel(
        Cancel::Shutdown,
        Refusal::QueryMeshUnavailable(
            "The platform is shutting down; the query was cancelled in QueryMesh".into(),
        ),
    )
}

/// Resolves when the session of `revocation` ends, revoking the call; never without one.
pub(super) async fn revoked_once_ended(
    revocation: Option<&mut Revocation>,
    query_id: &str,
) -> Stop {
    match revocation {
        Some(revocation) => {
            let ending = revocation.ended().await;
            revoked(revocation, ending, query_id)
        }
        None => std::future::pending().await,
    }
}

/// Resolves once `shutdown` turns true (or its sender is gone); never without one.
pub(super) async fn stopping(shutdown: Option<&mut watch::Receiver<bool>>) {
    match shutdown {
        Some(shutdown) => {
            let _ = shutdown.wait_for(|stop| *stop).await;
        }
        None => std::future::pending().await,
    }
}

/// Cancels the query in QueryMesh unless it finished, also when the broker's request is
/// dropped half-way (the app hung up, or the sandbox stopped waiting for it); each cancel
/// goes on record with its reason.
pub(super) struct CancelGuard {
    client: TrinoClient,
    access_token: String,
    /// Who the query is for, on record: the person and their platform session.
    sub: String,
    sid: Option<String>,
    pub(super) query_id: String,
    /// The last nextUri on the configured origin; `None`: cancel by id.
    pub(super) next_uri: Option<String>,
    done: bool,
}

impl CancelGuard {
    pub(super) fn new(
        client: TrinoClient,
        person: &OnBehalfOf<'_>,
        sid: Option<String>,
        query_id: String,
    ) -> Self {
        Self {
            client,
            access_token: person.access_token.to_string(),
            sub: person.user.to_string(),
            sid,
            query_id,
            next_uri: None,
            done: false,
        }
    }

    pub(super) fn finished(&mut self) {
        self.done = true;
    }

    /// `QUERY_CANCELLED` with `cancel`'s reason and QueryMesh's query id, never the SQL.
    fn record(&self, cancel: Cancel) {
        let Some(journal) = &self.client.journal else {
            return;
        };
        let mut details = json!({ "query_id": self.query_id, "reason": cancel.reason() });
        if let Cancel::SessionEnded { why } = cancel {
            details["why"] = why.into();
        }
        let mut event = NewEvent::new(Source::Broker, "QUERY_CANCELLED")
            .of_person(&self.sub)
            .outcome("USER_CANCELED")
            .details(details);
        if let Some(sid) = &self.sid {
            event = event.in_session(sid);
        }
        journal.record(event);
    }

    /// Cancels the query and waits for QueryMesh to acknowledge it.
    pub(super) async fn cancel(&mut self, cancel: Cancel) {
        self.done = true;
        self.record(cancel);
        self.client
            .cancel(&self.access_token, self.next_uri.as_deref(), &self.query_id)
            .await;
    }

    /// Cancels the query without waiting for QueryMesh.
    pub(super) fn cancel_in_background(&mut self, cancel: Cancel) {
        self.done = true;
        self.record(cancel);
        let (client, token, next, id) = (
            self.client.clone(),
            std::mem::take(&mut self.access_token),
            self.next_uri.take(),
            self.query_id.clone(),
        );
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { client.cancel(&token, next.as_deref(), &id).await });
        }
    }
}

impl Drop for CancelGuard {
    /// Only a dropped call gets here unfinished: every other stop cancels explicitly.
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let cancel = if self.client.shutting_down() {
            Cancel::Shutdown
        } else {
            Cancel::ClientDisconnected
        };
        self.cancel_in_background(cancel);
    }
}

//! The broker's Trino client: one client for the stand-in and for a real Trino alike.
//!
//! It follows `nextUri` only on the configured origin, stops at `max_rows` (cancelling the
//! query), and turns every answer into columns and rows or a [`Refusal`].
//!
//! A query QueryMesh accepted and the broker stops before it finished — for whatever
//! [`Cancel`] reason, the app hanging up and the sandbox shutting down included — is
//! cancelled there (DELETE, as a Trino client cancels: nothing is left running for nobody)
//! and, for the broker's own queries, on record as `QUERY_CANCELLED` with that reason.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, Uri, header};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::watch;

use super::BrokerStartError;
use super::refusal::Refusal;
use crate::http::{BodyError, HttpClient, read_body};
use crate::platform::Journal;

mod cancel;
pub use cancel::{Cancel, Revocation, Revoked};
use cancel::{CancelGuard, Stop, revoked, revoked_once_ended, shutting_down, stopping};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct QueryResults {
    id: String,
    #[serde(default)]
    next_uri: Option<String>,
    #[serde(default)]
    columns: Option<Vec<Column>>,
    /// Always an array of rows in the classic protocol; an object would be the spooling
    /// protocol, which this client does not ask for.
    #[serde(default)]
    data: Option<Vec<Vec<Value>>>,
    #[serde(default)]
    error: Option<QueryError>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Column {
    name: String,
    #[serde(rename = "type")]
    type_name: String,
    #[serde(default)]
    type_signature: Option<TypeSignature>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TypeSignature {
    raw_type: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct QueryError {
    message: String,
    #[serde(default)]
    error_name: Option<String>,
    #[serde(default)]
    error_type: Option<String>,
}

/// A finished query: columns as (name, raw Trino type) and rows in Trino's value encoding.
#[derive(Debug)]
pub struct QueryOutcome {
    pub columns: Vec<(String, String)>,
    pub rows: Vec<Vec<Value>>,
}

/// Whom a query is on behalf of: the person's IAM access token and subject (QueryMesh checks
/// the one and runs as the other).
pub struct OnBehalfOf<'a> {
    pub access_token: &'a str,
    pub user: &'a str,
}

#[derive(Clone, Debug)]
pub struct TrinoClient {
    http: HttpClient,
    base: Uri,
    timeout: Duration,
    /// Bytes of answers being gathered now, everyone's together.
    held: Arc<AtomicUsize>,
    limits: AnswerLimits,
    /// Where the queries it cancels go on record (the broker's; not the console's listings).
    journal: Option<Journal>,
    /// Turns true when the sandbox shuts down: running queries are cancelled then.
    shutdown: Option<watch::Receiver<bool>>,
}

/// How much of QueryMesh's answers the broker holds (Trino's JSON as it arrives; about five
/// times that once parsed). `max_rows` bounds rows, not their width: 100,000 rows of a
/// megabyte each would otherwise all be held before the answer is written, and many people's
/// wide answers together must answer 503, not get the whole sandbox killed for its memory.
#[derive(Clone, Copy, Debug)]
pub struct AnswerLimits {
    pub per_query: usize,
    pub all: usize,
}

impl AnswerLimits {
    /// `[broker] max_answer_mb` per query, eight times that for everyone at once.
    pub fn from_mib(per_query: u32) -> Self {
        let per_query = (per_query as usize) << 20;
        Self {
            per_query,
            all: per_query.saturating_mul(8),
        }
    }
}

/// One answer's share of [`TrinoClient::held`], given back when the answer is written or
/// dropped.
struct Held {
    total: Arc<AtomicUsize>,
    mine: usize,
    limits: AnswerLimits,
}

impl Held {
    /// Counts `bytes` more of this answer, or refuses them: past the query's own limit it is
    /// the query's fault (422, as the spec's "the result went past the cap"); past everyone's
    /// the platform is busy (503).
    fn take(&mut self, bytes: usize) -> Result<(), Stop> {
        if self.mine + bytes > self.limits.per_query {
            return Err(Stop::cancel(
                Cancel::AnswerTooLarge,
                Refusal::QueryRefused(format!(
                    "The result is larger than the broker's limit of {} MiB for one answer; the \
                     query was cancelled in QueryMesh. Select fewer or narrower columns, or add a LIMIT",
                    self.limits.per_query >> 20
                )),
            ));
        }
        let before = self.total.fetch_add(bytes, Ordering::Relaxed);
        if before + bytes > self.limits.all {
            self.total.fetch_sub(bytes, Ordering::Relaxed);
            return Err(Stop::cancel(
                Cancel::AnswersAtLimit,
                Refusal::QueryMeshUnavailable(format!(
                    "The platform is at its limit of {} MiB of answers being gathered at once",
                    self.limits.all >> 20
                )),
            ));
        }
        self.mine += bytes;
        Ok(())
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.total.fetch_sub(self.mine, Ordering::Relaxed);
    }
}

impl TrinoClient {
    /// `base_url` is the configured QueryMesh address (validated by the configuration).
    pub fn new(
        http: HttpClient,
        base_url: &str,
        timeout: Duration,
        limits: AnswerLimits,
    ) -> Result<Self, BrokerStartError> {
        let base: Uri = base_url.trim_end_matches('/').parse().map_err(|source| {
            BrokerStartError::QueryMeshUrl {
                url: base_url.to_string(),
                source,
            }
        })?;
        if base.authority().is_none() {
            return Err(BrokerStartError::QueryMeshUrlWithoutHost {
                url: base_url.to_string(),
            });
        }
        Ok(Self {
            http,
            base,
            timeout,
            held: Arc::default(),
            limits,
            journal: None,
            shutdown: None,
        })
    }

    /// Puts each query it cancels on record in `journal`, as `QUERY_CANCELLED`.
    pub fn journaled(mut self, journal: Journal) -> Self {
        self.journal = Some(journal);
        self
    }

    /// Cancels its running queries in QueryMesh once `shutdown` turns true.
    pub fn with_shutdown(mut self, shutdown: watch::Receiver<bool>) -> Self {
        self.shutdown = Some(shutdown);
        self
    }

    fn shutting_down(&self) -> bool {
        self.shutdown.as_ref().is_some_and(|s| *s.borrow())
    }

    fn base_url(&self) -> String {
        format!(
            "{}://{}",
            self.base.scheme_str().unwrap_or("http"),
            self.base
                .authority()
                .map(|a| a.as_str())
                .unwrap_or_default()
        )
    }

    /// Whether `uri` is on the configured QueryMesh origin (scheme, host and port).
    fn same_origin(&self, uri: &Uri) -> bool {
        let port = |u: &Uri| {
            u.port_u16().unwrap_or(match u.scheme_str() {
                Some("https") => 443,
                _ => 80,
            })
        };
        uri.scheme_str() == self.base.scheme_str()
            && uri.host().map(str::to_ascii_lowercase)
                == self.base.host().map(str::to_ascii_lowercase)
            && port(uri) == port(&self.base)
    }

    /// How long the broker waits for QueryMesh's each answer.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Runs `sql` as `person`, bringing back at most `max_rows` rows.
    pub async fn query(
        &self,
        sql: &str,
        person: &OnBehalfOf<'_>,
        max_rows: usize,
    ) -> Result<QueryOutcome, Refusal> {
        self.query_with(sql, person, max_rows, false, None).await
    }

    /// [`Self::query`]; with `hangup` (a fault rule's), QueryMesh is taken to hang up right
    /// after accepting the query: it is cancelled there, and the answer is what a connection
    /// closed mid-answer gives. With `revocation`, the query is cancelled as soon as its
    /// session ends.
    pub async fn query_with(
        &self,
        sql: &str,
        person: &OnBehalfOf<'_>,
        max_rows: usize,
        hangup: bool,
        revocation: Option<&mut Revocation>,
    ) -> Result<QueryOutcome, Refusal> {
        let statement = format!("{}/v1/statement", self.base_url());
        let (page, bytes) = self
            .send(
                Method::POST,
                &statement,
                person,
                Body::from(sql.to_string()),
            )
            .await
            // Without the answer there is no query id to cancel (nor has a Trino client one).
            .map_err(|stop| stop.refusal)?;
        let sid = revocation.as_deref().map(|r| r.sid.clone());
        let mut guard = CancelGuard::new(self.clone(), person, sid, page.id.clone());
        let followed = self
            .follow(
                &mut guard, page, bytes, person, max_rows, hangup, revocation,
            )
            .await;
        match followed {
            Ok(outcome) => {
                guard.finished();
                Ok(outcome)
            }
            Err(Stop { cancel, refusal }) => {
                match cancel {
                    // A QueryMesh that stopped answering may not answer the DELETE either: the
                    // app is not kept waiting for it.
                    Some(Cancel::Timeout) => guard.cancel_in_background(Cancel::Timeout),
                    Some(cancel) => guard.cancel(cancel).await,
                    None => guard.finished(),
                }
                Err(refusal)
            }
        }
    }

    /// Follows the query's `nextUri` from its first `page` until the last page, or until the
    /// broker must stop it (the [`Stop`] says why). `guard` keeps the last trusted nextUri.
    #[allow(clippy::too_many_arguments)]
    async fn follow(
        &self,
        guard: &mut CancelGuard,
        mut page: QueryResults,
        bytes: usize,
        person: &OnBehalfOf<'_>,
        max_rows: usize,
        hangup: bool,
        mut revocation: Option<&mut Revocation>,
    ) -> Result<QueryOutcome, Stop> {
        let mut held = Held {
            total: self.held.clone(),
            mine: 0,
            limits: self.limits,
        };
        let mut shutdown = self.shutdown.clone();
        let mut taken = held.take(bytes);
        let mut columns: Option<Vec<(String, String)>> = None;
        let mut rows: Vec<Vec<Value>> = Vec::new();
        let mut first = true;
        loop {
            if let Some(error) = page.error {
                return Err(Stop {
                    cancel: None,
                    refusal: query_error(error, &page.id),
                });
            }
            // Checked before anything else is done with the page: a cancel only ever goes to
            // the configured origin, with the person's token.
            let next = page.next_uri.map(|next| self.trusted(next)).transpose()?;
            guard.next_uri.clone_from(&next);
            // A page without nextUri is the last: the query has finished in QueryMesh, and
            // whatever the broker makes of that page cancels nothing.
            let stop = |stop: Stop| match next {
                Some(_) => stop,
                None => Stop {
                    cancel: None,
                    ..stop
                },
            };
            if first {
                first = false;
                // Not raced with the POST, which Trino answers at once (QUEUED): cancelling
                // needs the query's id and nextUri that answer brings.
                if let Some(revocation) = revocation.as_deref_mut()
                    && let Some(ending) = revocation.end.has_ended()
                {
                    return Err(stop(revoked(revocation, ending, &page.id)));
                }
                if self.shutting_down() {
                    return Err(stop(shutting_down()));
                }
                if hangup {
                    return Err(stop(Stop::cancel(
                        Cancel::Fault,
                        Refusal::QueryMeshUnavailable(format!(
                            "QueryMesh at {} {} (a fault rule of the test-control API)",
                            self.base_url(),
                            BodyError::Read("connection closed before message completed".into())
                        )),
                    )));
                }
            }
            taken.map_err(stop)?;
            if columns.is_none()
                && let Some(cols) = page.columns
            {
                columns = Some(cols.into_iter().map(raw_column).collect());
            }
            if let Some(data) = page.data {
                rows.extend(data);
                if rows.len() > max_rows {
                    return Err(stop(Stop::cancel(
                        Cancel::MaxRows,
                        Refusal::QueryRefused(format!(
                            "The result has more than max_rows = {max_rows} rows; the query was \
                             cancelled in QueryMesh. Add a LIMIT, or raise max_rows (up to 100000)"
                        )),
                    )));
                }
            }
            let Some(next) = next else {
                break;
            };
            let get = self.send(Method::GET, &next, person, Body::empty());
            // QueryMesh holds each GET until rows come (Trino's long poll): the session's end
            // and the shutdown are awaited alongside it, not looked at between pages.
            let (next_page, bytes) = tokio::select! {
                biased;
                revoked = revoked_once_ended(revocation.as_deref_mut(), &page.id) => {
                    return Err(revoked);
                }
                () = stopping(shutdown.as_mut()) => return Err(shutting_down()),
                sent = get => sent?,
            };
            page = next_page;
            taken = held.take(bytes);
        }
        let columns = columns.ok_or_else(|| Stop {
            cancel: None,
            refusal: Refusal::QueryMeshProtocol(
                "QueryMesh finished the query without columns".into(),
            ),
        })?;
        if let Some(bad) = rows.iter().find(|r| r.len() != columns.len()) {
            return Err(Stop {
                cancel: None,
                refusal: Refusal::QueryMeshProtocol(format!(
                    "QueryMesh answered a row of {} values for {} columns",
                    bad.len(),
                    columns.len()
                )),
            });
        }
        Ok(QueryOutcome { columns, rows })
    }

    /// A page's `nextUri`, if it is one the broker follows: a URI on the configured origin.
    fn trusted(&self, next: String) -> Result<String, Stop> {
        let next_uri: Uri = next.parse().map_err(|_| {
            Stop::cancel(
                Cancel::FailedAnswer,
                Refusal::QueryMeshProtocol(format!(
                    "QueryMesh answered a nextUri that is not a URI: {next:?}"
                )),
            )
        })?;
        if !self.same_origin(&next_uri) {
            return Err(Stop::cancel(
                Cancel::ForeignNextUri,
                Refusal::QueryMeshProtocol(format!(
                    "QueryMesh asked to continue at {}, outside the configured address {}; the query was cancelled",
                    origin_of(&next_uri),
                    self.base_url()
                )),
            ));
        }
        Ok(next)
    }

    async fn send(
        &self,
        method: Method,
        uri: &str,
        person: &OnBehalfOf<'_>,
        body: Body,
    ) -> Result<(QueryResults, usize), Stop> {
        let failed = |refusal| Stop::cancel(Cancel::FailedAnswer, refusal);
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header(
                header::AUTHORIZATION,
                format!("Bearer {}", person.access_token),
            )
            .header("X-Trino-User", person.user)
            .header("X-Trino-Source", "nnumbers-broker")
            // As Trino's own clients: without it Trino renders timestamps and times in the
            // legacy form, rounded to milliseconds (`05.123456` → `05.123`).
            .header("X-Trino-Client-Capabilities", "PARAMETRIC_DATETIME")
            .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
            .body(body)
            .map_err(|e| {
                failed(Refusal::QueryMeshProtocol(format!(
                    "cannot build a request to QueryMesh: {e}"
                )))
            })?;
        let unavailable = |cause: String| {
            Refusal::QueryMeshUnavailable(format!("QueryMesh at {} {cause}", self.base_url()))
        };
        let timed_out = |cause: String| Stop::cancel(Cancel::Timeout, unavailable(cause));
        let response = tokio::time::timeout(self.timeout, self.http.request(request))
            .await
            .map_err(|_| {
                timed_out(format!(
                    "did not answer within {}",
                    super::in_words(self.timeout)
                ))
            })?
            .map_err(|e| {
                failed(unavailable(format!(
                    "did not answer ({})",
                    crate::http::describe(&e)
                )))
            })?;
        let status = response.status();
        // A page past one answer's limit is refused unread: its bytes would be held first.
        let bytes = tokio::time::timeout(
            self.timeout,
            read_body(response.into_body(), self.limits.per_query),
        )
        .await
        .map_err(|_| timed_out(format!("stopped answering within {}", super::in_words(self.timeout))))?
        .map_err(|e| match e {
            BodyError::TooLarge(limit) => Stop::cancel(
                Cancel::AnswerTooLarge,
                Refusal::QueryRefused(format!(
                    "QueryMesh sent a page larger than the broker's limit of {} MiB for one answer. \
                     Select fewer or narrower columns, or add a LIMIT",
                    limit >> 20
                )),
            ),
            other => failed(unavailable(other.to_string())),
        })?;
        match status {
            StatusCode::OK => serde_json::from_slice(&bytes)
                .map(|page| (page, bytes.len()))
                .map_err(|e| {
                    failed(Refusal::QueryMeshProtocol(format!(
                        "QueryMesh answered outside the Trino protocol (not QueryResults: {e})"
                    )))
                }),
            StatusCode::UNAUTHORIZED => Err(failed(Refusal::QueryMeshIdentityRejected(
                String::from_utf8_lossy(&bytes)
                    .trim()
                    .chars()
                    .take(300)
                    .collect(),
            ))),
            StatusCode::TOO_MANY_REQUESTS
            | StatusCode::BAD_GATEWAY
            | StatusCode::SERVICE_UNAVAILABLE
            | StatusCode::GATEWAY_TIMEOUT => {
                Err(failed(unavailable(format!("is busy (HTTP {status})"))))
            }
            other => Err(failed(Refusal::QueryMeshProtocol(format!(
                "QueryMesh answered outside the Trino protocol (HTTP {other})"
            )))),
        }
    }

    /// Cancels a query: DELETE on its nextUri, or Trino's `/v1/query/{id}` on the configured
    /// origin when the broker holds no trusted nextUri.
    async fn cancel(&self, access_token: &str, next_uri: Option<&str>, query_id: &str) {
        let uri = match next_uri {
            Some(uri) => uri.to_string(),
            None => format!("{}/v1/query/{}", self.base_url(), query_id),
        };
        let Ok(request) = Request::delete(&uri)
            .header(header::AUTHORIZATION, format!("Bearer {access_token}"))
            .body(Body::empty())
        else {
            return;
        };
        let _ = tokio::time::timeout(self.timeout, self.http.request(request)).await;
    }
}

fn raw_column(column: Column) -> (String, String) {
    let raw = match column.type_signature {
        Some(signature) => signature.raw_type,
        // Older servers: the display name up to its parameters.
        None => column
            .type_name
            .split('(')
            .next()
            .unwrap_or_default()
            .trim()
            .to_string(),
    };
    (column.name, raw)
}

fn origin_of(uri: &Uri) -> String {
    format!(
        "{}://{}",
        uri.scheme_str().unwrap_or("?"),
        uri.authority().map(|a| a.as_str()).unwrap_or("?")
    )
}

/// Trino's error → the refusal the spec gives it.
fn query_error(error: QueryError, query_id: &str) -> Refusal {
    let name = error.error_name.as_deref().unwrap_or_default();
    match (name, error.error_type.as_deref().unwrap_or_default()) {
        ("PERMISSION_DENIED", _) => Refusal::QueryMeshAccessDenied(error.message),
        // QueryMesh answered within the protocol that it failed the query (422, "QueryMesh
        // refused the query"; 502 is for answers outside the protocol). An internal error's
        // message is not the person's to read: it may describe the statement QueryMesh ran
        // (a row filter's predicate among it), so only its name and the query's id go on.
        (_, "INTERNAL_ERROR") => Refusal::QueryRefused(format!(
            "QueryMesh failed query {} with an internal error ({name}); its message stays in \
             QueryMesh's log",
            query_id.chars().take(64).collect::<String>()
        )),
        // A query past its own time or memory limit fails the same way every time: it is the
        // query's fault (422, "check the query"), not a busy QueryMesh's. The cluster being out
        // of memory or the queue full is (503, "repeat in a moment").
        (
            "EXCEEDED_TIME_LIMIT" | "EXCEEDED_LOCAL_MEMORY_LIMIT" | "EXCEEDED_GLOBAL_MEMORY_LIMIT",
            _,
        )
        | (_, "USER_ERROR") => {
            Refusal::QueryRefused(format!("QueryMesh refused the query: {}", error.message))
        }
        // Which limit: Trino's message names the resource group (`Too many queued queries
        // for "global.adhoc.other.ada"`).
        ("QUERY_QUEUE_FULL", _) => Refusal::QueryMeshUnavailable(format!(
            "QueryMesh's resource group is at its limit of queued queries (QUERY_QUEUE_FULL: {})",
            error.message
        )),
        (_, "INSUFFICIENT_RESOURCES") => {
            Refusal::QueryMeshUnavailable(format!("QueryMesh is out of resources ({name})"))
        }
        _ => Refusal::QueryMeshProtocol(format!("QueryMesh failed the query: {}", error.message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_bounded_per_query_and_for_everyone() {
        let total = Arc::new(AtomicUsize::new(0));
        let limits = AnswerLimits {
            per_query: 100,
            all: 150,
        };
        let held = |total: &Arc<AtomicUsize>| Held {
            total: total.clone(),
            mine: 0,
            limits,
        };
        let mut first = held(&total);
        assert!(first.take(60).is_ok() && first.take(40).is_ok());
        // Past its own limit: the query's fault.
        let refused = first.take(1).expect_err("past 100 bytes");
        assert_eq!(refused.cancel, Some(Cancel::AnswerTooLarge));
        let refused = refused.refusal;
        assert_eq!(refused.code(), "QUERYMESH_QUERY_FAILED");
        assert_eq!(refused.status(), 422);
        // Past everyone's: the platform is busy, and nothing is counted for the refusal.
        let mut second = held(&total);
        assert!(second.take(50).is_ok());
        let busy = second.take(1).expect_err("past 150 bytes in all");
        assert_eq!(busy.cancel, Some(Cancel::AnswersAtLimit));
        let busy = busy.refusal;
        assert_eq!(busy.code(), "QUERYMESH_UNAVAILABLE");
        assert_eq!(total.load(Ordering::Relaxed), 150);
        drop(first);
        assert_eq!(total.load(Ordering::Relaxed), 50);
        assert!(second.take(1).is_ok());
        drop(second);
        assert_eq!(total.load(Ordering::Relaxed), 0);
    }
}

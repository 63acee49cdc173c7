//! The broker's Trino client: one client for the stand-in and for a real Trino alike.
//!
//! It follows `nextUri` only on the configured origin, stops at `max_rows` (cancelling the
//! query), and turns every answer into columns and rows or a [`Refusal`].

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, Uri, header};
use serde::Deserialize;
use serde_json::Value;

use super::BrokerStartError;
use super::refusal::Refusal;
use crate::http::{BodyError, HttpClient, read_body};
use crate::platform::{Ending, SessionEnd};

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

/// The platform session a query runs in: when it ends, the query is cancelled in QueryMesh
/// at once (DELETE on its nextUri, as a Trino client cancels) and the app's call answers 401
/// `USER_SESSION_REQUIRED` instead of rows.
pub struct Revocation {
    end: SessionEnd,
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
    pub fn new(end: SessionEnd) -> Self {
        Self { end, revoked: None }
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
    fn take(&mut self, bytes: usize) -> Result<(), Refusal> {
        if self.mine + bytes > self.limits.per_query {
            return Err(Refusal::QueryRefused(format!(
                "The result is larger than the broker's limit of {} MiB for one answer; the \
                 query was cancelled in QueryMesh. Select fewer or narrower columns, or add a LIMIT",
                self.limits.per_query >> 20
            )));
        }
        let before = self.total.fetch_add(bytes, Ordering::Relaxed);
        if before + bytes > self.limits.all {
            self.total.fetch_sub(bytes, Ordering::Relaxed);
            return Err(Refusal::QueryMeshUnavailable(format!(
                "The platform is at its limit of {} MiB of answers being gathered at once",
                self.limits.all >> 20
            )));
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
        })
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
        mut revocation: Option<&mut Revocation>,
    ) -> Result<QueryOutcome, Refusal> {
        let statement = format!("{}/v1/statement", self.base_url());
        let mut held = Held {
            total: self.held.clone(),
            mine: 0,
            limits: self.limits,
        };
        let (mut page, bytes) = self
            .send(
                Method::POST,
                &statement,
                person,
                Body::from(sql.to_string()),
            )
            .await?;
        let mut guard = CancelGuard::new(self.clone(), person.access_token, page.id.clone());
        // Not raced with the POST, which Trino answers at once (QUEUED): cancelling needs the
        // query's id and nextUri that answer brings.
        if let Some(revocation) = revocation.as_deref_mut()
            && let Some(ending) = revocation.end.has_ended()
        {
            guard.cancel(page.next_uri.as_deref()).await;
            return Err(revocation.revoke(ending, Some(page.id)));
        }
        if hangup {
            guard.cancel(page.next_uri.as_deref()).await;
            return Err(Refusal::QueryMeshUnavailable(format!(
                "QueryMesh at {} {} (a fault rule of the test-control API)",
                self.base_url(),
                BodyError::Read("connection closed before message completed".into())
            )));
        }
        let mut taken = held.take(bytes);
        let mut columns: Option<Vec<(String, String)>> = None;
        let mut rows: Vec<Vec<Value>> = Vec::new();
        loop {
            if let Err(refusal) = taken {
                guard.cancel(page.next_uri.as_deref()).await;
                return Err(refusal);
            }
            if let Some(error) = page.error {
                guard.finished();
                return Err(query_error(error));
            }
            if columns.is_none()
                && let Some(cols) = page.columns
            {
                columns = Some(cols.into_iter().map(raw_column).collect());
            }
            if let Some(data) = page.data {
                rows.extend(data);
                if rows.len() > max_rows {
                    guard.cancel(page.next_uri.as_deref()).await;
                    return Err(Refusal::QueryRefused(format!(
                        "The result has more than max_rows = {max_rows} rows; the query was \
                         cancelled in QueryMesh. Add a LIMIT, or raise max_rows (up to 100000)"
                    )));
                }
            }
            let Some(next) = page.next_uri else {
                break;
            };
            let next_uri: Uri = next.parse().map_err(|_| {
                Refusal::QueryMeshProtocol(format!(
                    "QueryMesh answered a nextUri that is not a URI: {next:?}"
                ))
            })?;
            if !self.same_origin(&next_uri) {
                guard.cancel(None).await;
                return Err(Refusal::QueryMeshProtocol(format!(
                    "QueryMesh asked to continue at {}, outside the configured address {}; the query was cancelled",
                    origin_of(&next_uri),
                    self.base_url()
                )));
            }
            guard.next_uri = Some(next.clone());
            let get = self.send(Method::GET, &next, person, Body::empty());
            let (next_page, bytes) = match revocation.as_deref_mut() {
                None => get.await?,
                // QueryMesh holds each GET until rows come (Trino's long poll): the session's
                // end is awaited alongside it, not looked at between pages.
                Some(revocation) => tokio::select! {
                    biased;
                    ending = revocation.ended() => {
                        guard.cancel(Some(&next)).await;
                        return Err(revocation.revoke(ending, Some(page.id)));
                    }
                    sent = get => sent?,
                },
            };
            page = next_page;
            taken = held.take(bytes);
        }
        guard.finished();
        let columns = columns.ok_or_else(|| {
            Refusal::QueryMeshProtocol("QueryMesh finished the query without columns".into())
        })?;
        if let Some(bad) = rows.iter().find(|r| r.len() != columns.len()) {
            return Err(Refusal::QueryMeshProtocol(format!(
                "QueryMesh answered a row of {} values for {} columns",
                bad.len(),
                columns.len()
            )));
        }
        Ok(QueryOutcome { columns, rows })
    }

    async fn send(
        &self,
        method: Method,
        uri: &str,
        person: &OnBehalfOf<'_>,
        body: Body,
    ) -> Result<(QueryResults, usize), Refusal> {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header(
                header::AUTHORIZATION,
                format!("Bearer {}", person.access_token),
            )
            .header("X-Trino-User", person.user)
            .header("X-Trino-Source", "nnumbers-broker")
            .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
            .body(body)
            .map_err(|e| {
                Refusal::QueryMeshProtocol(format!("cannot build a request to QueryMesh: {e}"))
            })?;
        let unavailable = |cause: String| {
            Refusal::QueryMeshUnavailable(format!("QueryMesh at {} {cause}", self.base_url()))
        };
        let response = tokio::time::timeout(self.timeout, self.http.request(request))
            .await
            .map_err(|_| unavailable(format!("did not answer within {:?}", self.timeout)))?
            .map_err(|e| unavailable(format!("did not answer ({})", crate::http::describe(&e))))?;
        let status = response.status();
        // A page past one answer's limit is refused unread: its bytes would be held first.
        let bytes = tokio::time::timeout(
            self.timeout,
            read_body(response.into_body(), self.limits.per_query),
        )
        .await
        .map_err(|_| unavailable(format!("stopped answering within {:?}", self.timeout)))?
        .map_err(|e| match e {
            BodyError::TooLarge(limit) => Refusal::QueryRefused(format!(
                "QueryMesh sent a page larger than the broker's limit of {} MiB for one answer. \
                 Select fewer or narrower columns, or add a LIMIT",
                limit >> 20
            )),
            other => unavailable(other.to_string()),
        })?;
        match status {
            StatusCode::OK => serde_json::from_slice(&bytes)
                .map(|page| (page, bytes.len()))
                .map_err(|e| {
                    Refusal::QueryMeshProtocol(format!(
                        "QueryMesh answered outside the Trino protocol (not QueryResults: {e})"
                    ))
                }),
            StatusCode::UNAUTHORIZED => Err(Refusal::QueryMeshIdentityRejected(
                String::from_utf8_lossy(&bytes)
                    .trim()
                    .chars()
                    .take(300)
                    .collect(),
            )),
            StatusCode::TOO_MANY_REQUESTS
            | StatusCode::BAD_GATEWAY
            | StatusCode::SERVICE_UNAVAILABLE
            | StatusCode::GATEWAY_TIMEOUT => Err(unavailable(format!("is busy (HTTP {status})"))),
            other => Err(Refusal::QueryMeshProtocol(format!(
                "QueryMesh answered outside the Trino protocol (HTTP {other})"
            ))),
        }
    }

    /// Cancels a query: DELETE on its nextUri, or Trino's `/v1/query/{id}` on the configured
    /// origin when the nextUri cannot be trusted.
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

/// Cancels the query in QueryMesh unless it finished, also when the broker's request is
/// dropped half-way (the app hung up).
struct CancelGuard {
    client: TrinoClient,
    access_token: String,
    query_id: String,
    next_uri: Option<String>,
    done: bool,
}

impl CancelGuard {
    fn new(client: TrinoClient, access_token: &str, query_id: String) -> Self {
        Self {
            client,
            access_token: access_token.to_string(),
            query_id,
            next_uri: None,
            done: false,
        }
    }

    fn finished(&mut self) {
        self.done = true;
    }

    async fn cancel(&mut self, next_uri: Option<&str>) {
        self.done = true;
        self.client
            .cancel(&self.access_token, next_uri, &self.query_id)
            .await;
    }
}

impl Drop for CancelGuard {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let (client, token, next, id) = (
            self.client.clone(),
            std::mem::take(&mut self.access_token),
            self.next_uri.take(),
            std::mem::take(&mut self.query_id),
        );
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { client.cancel(&token, next.as_deref(), &id).await });
        }
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
fn query_error(error: QueryError) -> Refusal {
    let name = error.error_name.as_deref().unwrap_or_default();
    match (name, error.error_type.as_deref().unwrap_or_default()) {
        ("PERMISSION_DENIED", _) => Refusal::QueryMeshAccessDenied(error.message),
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
        assert_eq!(refused.code(), "QUERYMESH_QUERY_FAILED");
        assert_eq!(refused.status(), 422);
        // Past everyone's: the platform is busy, and nothing is counted for the refusal.
        let mut second = held(&total);
        assert!(second.take(50).is_ok());
        let busy = second.take(1).expect_err("past 150 bytes in all");
        assert_eq!(busy.code(), "QUERYMESH_UNAVAILABLE");
        assert_eq!(total.load(Ordering::Relaxed), 150);
        drop(first);
        assert_eq!(total.load(Ordering::Relaxed), 50);
        assert!(second.take(1).is_ok());
        drop(second);
        assert_eq!(total.load(Ordering::Relaxed), 0);
    }
}

//! `POST /v1/querymesh/query`: check the identity as the spec tells an app to, check the
//! platform session and switches, then query QueryMesh with the person's own IAM token.

use std::time::{Duration, Instant};

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Value, json};

use super::BrokerState;
use super::limits::{LimitExceeded, Person};
use super::refusal::Refusal;
use super::request::{QueryRequest, read_body};
use super::trino::{OnBehalfOf, QueryOutcome, Revocation, Revoked};
use crate::identity::jws::JwsError;
use crate::identity::{IDENTITY_HEADER, IdentityClaims, IdentityError, verify_identity};
use crate::platform::{FaultKind, NewEvent, SessionError, Source, Switch};

#[derive(Serialize)]
struct ColumnOut {
    name: String,
    #[serde(rename = "type")]
    type_name: String,
}

#[derive(Serialize)]
struct QueryAnswer {
    columns: Vec<ColumnOut>,
    rows: Vec<Vec<Value>>,
}

/// Who a query is for, once known: what the log line and the journal's event name.
#[derive(Default)]
struct Who {
    sub: Option<String>,
    sid: Option<String>,
    /// The fault rule that applied, if one did.
    fault: Option<u64>,
    /// Why the identity was rejected (a short category), if it was.
    rejected: Option<&'static str>,
    /// The platform limit the query met, if it met one.
    limit: Option<LimitExceeded>,
    /// The session ended while the call waited: how, and the query cancelled for it.
    revoked: Option<Revoked>,
}

/// What a query ends in besides a refusal: rows, or the answer a fault rule dictates.
enum Answer {
    Rows(QueryOutcome),
    Injected { status: u16, body: String },
}

/// Logs who, the outcome and the time — never the SQL, the identity or a token — and puts
/// the same on record in the journal.
pub async fn query(
    State(state): State<BrokerState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let started = Instant::now();
    let mut who = Who::default();
    let result = match read_body(body) {
        Ok(body) => run(&state, &headers, &body, &mut who).await,
        Err(refusal) => Err(refusal),
    };
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    let sub = who.sub.as_deref().unwrap_or("-");
    let mut event = NewEvent::new(Source::Broker, "QUERY");
    if let Some(s) = &who.sub {
        event = event.of_person(s);
    }
    if let Some(s) = &who.sid {
        event = event.in_session(s);
    }
    let (response, outcome, rows) = match result {
        Ok(Answer::Rows(outcome)) => {
            tracing::info!(
                sub,
                outcome = "OK",
                rows = outcome.rows.len(),
                elapsed_ms,
                "query"
            );
            let rows = outcome.rows.len();
            let answer = QueryAnswer {
                columns: outcome
                    .columns
                    .into_iter()
                    .map(|(name, type_name)| ColumnOut { name, type_name })
                    .collect(),
                rows: outcome.rows,
            };
            (Json(answer).into_response(), "OK".to_string(), Some(rows))
        }
        Ok(Answer::Injected { status, body }) => {
            tracing::info!(
                sub,
                outcome = "INJECTED",
                status,
                elapsed_ms,
                "query answered by a fault rule"
            );
            (
                injected_answer(status, body),
                format!("HTTP_{status}"),
                None,
            )
        }
        Err(refusal) => {
            tracing::info!(sub, outcome = refusal.code(), elapsed_ms, "query refused");
            let code = refusal.code().to_string();
            (refusal.into_response(), code, None)
        }
    };
    if let Some(reason) = who.rejected {
        let mut rejected = NewEvent::new(Source::Broker, "IDENTITY_REJECTED")
            .outcome("IDENTITY_ASSERTION_INVALID")
            .details(json!({ "reason": reason }));
        if let Some(s) = &who.sub {
            rejected = rejected.of_person(s);
        }
        state.parts.journal.record(rejected);
    }
    if let Some(exceeded) = &who.limit {
        // NYXDB's governance_log fields.
        let mut limit = NewEvent::new(Source::Broker, "LIMIT_EXCEEDED")
            .outcome("QUERYMESH_UNAVAILABLE")
            .details(json!({
                "dimension": exceeded.dimension,
                "allowed": exceeded.allowed,
                "observed": exceeded.observed,
                "rule": exceeded.rule,
            }));
        if let Some(s) = &who.sub {
            limit = limit.of_person(s);
        }
        if let Some(s) = &who.sid {
            limit = limit.in_session(s);
        }
        state.parts.journal.record(limit);
    }
    if let Some(revoked) = &who.revoked {
        record_revocation(&state, &who, revoked);
    }
    state
        .parts
        .journal
        .record(event.outcome(outcome).details(json!({
            "status": response.status().as_u16(),
            "rows": rows,
            "elapsed_ms": (elapsed_ms * 1000.0).round() / 1000.0,
            "fault": who.fault,
        })));
    let mut response = response;
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    // RFC 9110 §10.2.3: when the per-minute window frees a place.
    if let Some(secs) = who.limit.as_ref().and_then(|l| l.retry_after) {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from(secs));
    }
    response
}

/// NYXDB's auth revocation on record: `SESSION_REVOKED` for the call the session's end
/// answered 401 (the QueryMesh query it cancelled has its `QUERY_CANCELLED` already, from the
/// Trino client, as every cancel does).
fn record_revocation(state: &BrokerState, who: &Who, revoked: &Revoked) {
    let mut event = NewEvent::new(Source::Broker, "SESSION_REVOKED");
    if let Some(s) = &who.sub {
        event = event.of_person(s);
    }
    if let Some(s) = &who.sid {
        event = event.in_session(s);
    }
    state
        .parts
        .journal
        .record(event.outcome("USER_SESSION_REQUIRED").details(json!({
            "why": revoked.ending.why,
            "ended_by": revoked.ending.source,
            "query_id": revoked.query_id,
        })));
}

/// A fault rule's verbatim answer: JSON when the body is JSON, else plain text.
fn injected_answer(status: u16, body: String) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    let content_type = if serde_json::from_str::<Value>(&body).is_ok() {
        "application/json"
    } else {
        "text/plain; charset=utf-8"
    };
    (status, [(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn run(
    state: &BrokerState,
    headers: &HeaderMap,
    body: &[u8],
    who: &mut Who,
) -> Result<Answer, Refusal> {
    let parts = &state.parts;
    let claims = check_identity(state, headers, who)?;
    who.sub = Some(claims.sub.clone());
    who.sid = Some(claims.sid.clone());
    // Faults apply to a query whose identity checks out: their scope is its sub or sid.
    let mut delay = None;
    let mut hangup = false;
    if let Some((rule, fault)) = parts.faults.take(&claims.sub, &claims.sid) {
        who.fault = Some(rule);
        match fault {
            FaultKind::Code { code, status } => {
                return Err(Refusal::injected(&code, status, rule).unwrap_or_else(|| {
                    Refusal::QueryMeshUnavailable(format!(
                        "fault rule {rule} of the test-control API"
                    ))
                }));
            }
            FaultKind::Answer { status, body } => return Ok(Answer::Injected { status, body }),
            FaultKind::Delay { delay_ms } => delay = Some(Duration::from_millis(delay_ms)),
            FaultKind::Hangup => hangup = true,
        }
    }
    match parts.sessions.sub_of(&claims.sid) {
        None => {
            return Err(Refusal::UserSessionRequired(
                "The session of who signed in has ended (signed out, or ended in the IAM)".into(),
            ));
        }
        // The platform only ever signs a session's own person into its identity, so this one
        // is forged (with the signing key): the spec's "does not check out", never a person
        // — and never the other person's IAM token.
        Some(owner) if owner != claims.sub => {
            who.rejected = Some("sid");
            return Err(Refusal::IdentityAssertionInvalid(
                "its sid is a platform session of another person".into(),
            ));
        }
        Some(_) => {}
    }
    // From here on the session's end revokes the call (and its query in QueryMesh).
    let mut revocation = parts
        .sessions
        .end_signal(&claims.sid)
        .map(|end| Revocation::new(end, &claims.sid))
        .ok_or_else(|| {
            Refusal::UserSessionRequired("The session of who signed in has ended".into())
        })?;
    let request = QueryRequest::parse(body)?;
    if !parts.switches.get(Switch::QueryMeshConfigured) {
        return Err(Refusal::OrganizationIntegrationNotConfigured);
    }
    if !parts.switches.get(Switch::QueryMeshEnabled) {
        return Err(Refusal::QueryMeshNotEnabled);
    }
    let session = parts.sessions.get(&claims.sid);
    let person = Person {
        sub: &claims.sub,
        username: session
            .as_ref()
            .and_then(|s| s.person.profile.preferred_username.as_deref()),
        groups: session.as_ref().map_or(&[], |s| s.person.groups.as_slice()),
    };
    let _slot = parts.limits.take(&person).map_err(|exceeded| {
        let refusal = Refusal::QueryMeshUnavailable(exceeded.message());
        who.limit = Some(exceeded);
        refusal
    })?;
    let access_token = parts
        .sessions
        .fresh_access_token(&claims.sid, &parts.oidc)
        .await
        .map_err(|e| match e {
            SessionError::Ended => Refusal::UserSessionRequired(
                "The session of who signed in has ended (the IAM no longer renews it)".into(),
            ),
            SessionError::IamUnavailable(cause) => Refusal::QueryMeshUnavailable(cause),
        })?;
    if let Some(delay) = delay {
        // A slow QueryMesh: past the broker's own timeout it is a silent one.
        let timeout = state.trino.timeout();
        tokio::select! {
            biased;
            ending = revocation.ended() => {
                let refusal = revocation.revoke(ending, None);
                who.revoked = revocation.revoked.take();
                return Err(refusal);
            }
            _ = tokio::time::sleep(delay.min(timeout)) => {}
        }
        if delay >= timeout {
            return Err(Refusal::QueryMeshUnavailable(format!(
                "QueryMesh did not answer within {}",
                super::in_words(timeout)
            )));
        }
    }
    let person = OnBehalfOf {
        access_token: &access_token,
        user: &claims.sub,
    };
    let answer = state
        .trino
        .query_with(
            &request.sql,
            &person,
            request.max_rows,
            hangup,
            Some(&mut revocation),
        )
        .await;
    who.revoked = revocation.revoked.take();
    answer.map(Answer::Rows)
}

/// Why an identity that does not check out was rejected, in one word for the journal.
fn rejection_reason(error: &IdentityError) -> &'static str {
    match error {
        IdentityError::Expired(_) => "expired",
        IdentityError::NotYetValid(_) => "not_yet_valid",
        IdentityError::Audience(_) => "aud",
        IdentityError::Organization(_) => "org",
        IdentityError::Issuer(_) => "iss",
        IdentityError::Window { .. } | IdentityError::Lifetime(_) => "window",
        IdentityError::Jws(JwsError::UnknownKey(_)) => "kid",
        IdentityError::Jws(JwsError::Signature) => "signature",
        IdentityError::Jws(JwsError::Algorithm(_)) => "alg",
        IdentityError::Jws(_) => "malformed",
    }
}

/// The spec's checks on X-NNumbers-Identity: present once, and valid against the published
/// keys, issuer, app, organization and validity window.
/// `who.rejected` says why, for the journal, when it does not check out.
fn check_identity(
    state: &BrokerState,
    headers: &HeaderMap,
    who: &mut Who,
) -> Result<IdentityClaims, Refusal> {
    let mut values = headers.get_all(IDENTITY_HEADER).iter();
    let Some(value) = values.next() else {
        return Err(Refusal::UserSessionRequired(
            "No X-NNumbers-Identity came with the request: nobody is signed in".into(),
        ));
    };
    if values.next().is_some() {
        who.rejected = Some("duplicate_header");
        return Err(Refusal::IdentityAssertionInvalid(
            "more than one X-NNumbers-Identity header".into(),
        ));
    }
    let token = value.to_str().map_err(|_| {
        who.rejected = Some("malformed");
        Refusal::IdentityAssertionInvalid("the header is not ASCII".into())
    })?;
    let parts = &state.parts;
    if !parts.switches.get(Switch::IdentityKeysAvailable) {
        return Err(Refusal::ApplicationIdentityNotReady);
    }
    let keys = parts.identity_keys.published();
    if keys.is_empty() {
        return Err(Refusal::ApplicationIdentityNotReady);
    }
    // The platform clock: an identity expires when the sandbox's time says so.
    verify_identity(
        token.trim(),
        &keys,
        &parts.audience,
        parts.sessions.clock().now(),
    )
    .map_err(|e| {
        who.rejected = Some(rejection_reason(&e));
        Refusal::IdentityAssertionInvalid(e.to_string())
    })
}

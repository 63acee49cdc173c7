//! `POST /v1/querymesh/query`: check the identity as the spec tells an app to, check the
//! platform session and switches, then query QueryMesh with the person's own IAM token.

use std::time::Instant;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::Value;

use super::BrokerState;
use super::refusal::Refusal;
use super::request::{QueryRequest, read_body};
use super::trino::{OnBehalfOf, QueryOutcome};
use crate::identity::{IDENTITY_HEADER, IdentityClaims, unix_now, verify_identity};
use crate::platform::{SessionError, Switch};

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

/// Logs who, the outcome and the time — never the SQL, the identity or a token.
pub async fn query(
    State(state): State<BrokerState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let started = Instant::now();
    let mut sub = None;
    let result = match read_body(body) {
        Ok(body) => run(&state, &headers, &body, &mut sub).await,
        Err(refusal) => Err(refusal),
    };
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    let sub = sub.as_deref().unwrap_or("-");
    let response = match result {
        Ok(outcome) => {
            tracing::info!(
                sub,
                outcome = "OK",
                rows = outcome.rows.len(),
                elapsed_ms,
                "query"
            );
            let answer = QueryAnswer {
                columns: outcome
                    .columns
                    .into_iter()
                    .map(|(name, type_name)| ColumnOut { name, type_name })
                    .collect(),
                rows: outcome.rows,
            };
            Json(answer).into_response()
        }
        Err(refusal) => {
            tracing::info!(sub, outcome = refusal.code(), elapsed_ms, "query refused");
            refusal.into_response()
        }
    };
    let mut response = response;
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

async fn run(
    state: &BrokerState,
    headers: &HeaderMap,
    body: &[u8],
    sub: &mut Option<String>,
) -> Result<QueryOutcome, Refusal> {
    let parts = &state.parts;
    let claims = check_identity(state, headers)?;
    *sub = Some(claims.sub.clone());
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
            return Err(Refusal::IdentityAssertionInvalid(
                "its sid is a platform session of another person".into(),
            ));
        }
        Some(_) => {}
    }
    let request = QueryRequest::parse(body)?;
    if !parts.switches.get(Switch::QueryMeshConfigured) {
        return Err(Refusal::OrganizationIntegrationNotConfigured);
    }
    if !parts.switches.get(Switch::QueryMeshEnabled) {
        return Err(Refusal::QueryMeshNotEnabled);
    }
    let _slot = state.running.take(&claims.sub)?;
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
    let person = OnBehalfOf {
        access_token: &access_token,
        user: &claims.sub,
    };
    state
        .trino
        .query(&request.sql, &person, request.max_rows)
        .await
}

/// The spec's checks on X-NNumbers-Identity: present once, and valid against the published
/// keys, issuer, app, organization and validity window.
fn check_identity(state: &BrokerState, headers: &HeaderMap) -> Result<IdentityClaims, Refusal> {
    let mut values = headers.get_all(IDENTITY_HEADER).iter();
    let Some(value) = values.next() else {
        return Err(Refusal::UserSessionRequired(
            "No X-NNumbers-Identity came with the request: nobody is signed in".into(),
        ));
    };
    if values.next().is_some() {
        return Err(Refusal::IdentityAssertionInvalid(
            "more than one X-NNumbers-Identity header".into(),
        ));
    }
    let token = value
        .to_str()
        .map_err(|_| Refusal::IdentityAssertionInvalid("the header is not ASCII".into()))?;
    let parts = &state.parts;
    if !parts.switches.get(Switch::IdentityKeysAvailable) {
        return Err(Refusal::ApplicationIdentityNotReady);
    }
    let keys = parts.identity_keys.published();
    if keys.is_empty() {
        return Err(Refusal::ApplicationIdentityNotReady);
    }
    verify_identity(token.trim(), &keys, &parts.audience, unix_now())
        .map_err(|e| Refusal::IdentityAssertionInvalid(e.to_string()))
}

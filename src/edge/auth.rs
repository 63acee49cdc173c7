//! The reserved paths (runtime-protocol, "The Reserved Paths"): sign-in, its callback,
//! sign-out, the session and the context. They are answered here and never reach the app.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::error::EdgeError;
use super::id_token::{IdTokenClaims, IdTokenError};
use super::visitor::Visitor;
use super::{EdgeState, cookie, origin, pending, return_to};
use crate::oidc::{EDGE_CLIENT_ID, LOGIN_SCOPES};
use crate::platform::{Ending, IamTokens, NewEvent, Source};
use crate::reserved_paths::{CALLBACK_PATH, LOGIN_PATH, LOGOUT_PATH};

/// The first value of each query parameter, decoded; malformed input never fails the request.
fn query_param(uri: &Uri, name: &str) -> Option<String> {
    form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// A redirect the browser must not cache (every one of these carries one-time state).
fn redirect(status: StatusCode, location: &str) -> Response {
    let mut response = status.into_response();
    let headers = response.headers_mut();
    if let Ok(location) = HeaderValue::from_str(location) {
        headers.insert(header::LOCATION, location);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `GET /.nnumbers/auth/login?return_to=<path>`: 302 to the IAM's authorization endpoint with
/// state, nonce and a PKCE S256 challenge (RFC 6749 §4.1.1, RFC 7636 §4.3).
///
/// The sandbox's one addition: `&handoff=<code>`, a one-time link the test-control API made
/// for a session it started (the console's "sign in as"), sets that session's cookie and goes
/// straight to `return_to`; a spent, expired or unknown code is ignored (the usual sign-in).
pub async fn login(State(state): State<EdgeState>, uri: Uri, headers: HeaderMap) -> Response {
    let return_to = return_to::sanitize(query_param(&uri, "return_to").as_deref());
    if let Some(handle) =
        query_param(&uri, "handoff").and_then(|code| state.parts.sessions.take_handoff(&code))
    {
        let mut response = redirect(StatusCode::FOUND, &return_to);
        response
            .headers_mut()
            .insert(header::SET_COOKIE, cookie::set(&handle));
        return response;
    }
    let edge_port = state.parts.port;
    let own = origin::own_origin(&headers, edge_port)
        .unwrap_or_else(|| origin::canonical_origin(edge_port));
    // One binding per browser, reused while it lasts, so sign-ins in two tabs both complete.
    let browser = cookie::login_bindings(&headers)
        .into_iter()
        .find(|b| {
            b.len() == 43
                && b.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        })
        .unwrap_or_else(pending::random_value);
    let (login_state, started) =
        state
            .pending
            .start(return_to, format!("{own}{CALLBACK_PATH}"), browser.clone());
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("response_type", "code")
        .append_pair("client_id", EDGE_CLIENT_ID)
        .append_pair("redirect_uri", &started.redirect_uri)
        .append_pair("scope", LOGIN_SCOPES)
        .append_pair("state", &login_state)
        .append_pair("nonce", &started.nonce)
        .append_pair("code_challenge", &started.code_challenge)
        .append_pair("code_challenge_method", "S256")
        .finish();
    let authorization = &state.parts.oidc.endpoints.authorization;
    let mut response = redirect(StatusCode::FOUND, &format!("{authorization}?{query}"));
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie::set_login(&browser));
    response
}

/// `GET /.nnumbers/auth/callback`: the IAM's answer. The code is exchanged server-side, the
/// ID token checked, the platform session created, and the browser sent to `return_to`.
pub async fn callback(State(state): State<EdgeState>, uri: Uri, headers: HeaderMap) -> Response {
    match complete_sign_in(&state, &uri, &headers).await {
        Ok(response) => response,
        Err(e) => e.respond(&headers),
    }
}

async fn complete_sign_in(
    state: &EdgeState,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<Response, EdgeError> {
    let parts = &state.parts;
    // The state is taken before anything else is looked at, so it is spent even when the rest
    // fails: a callback URL works at most once.
    let pending = query_param(uri, "state")
        .and_then(|s| state.pending.take(&s))
        .ok_or(EdgeError::UnknownState)?;
    if !cookie::login_bindings(headers).contains(&pending.browser) {
        return Err(EdgeError::OtherBrowser);
    }
    if let Some(error) = query_param(uri, "error") {
        return Err(EdgeError::Authorization {
            error,
            description: query_param(uri, "error_description"),
        });
    }
    // RFC 9207: when the IAM names itself, it must be the IAM the sign-in went to.
    if let Some(iss) = query_param(uri, "iss")
        && iss != parts.oidc.endpoints.issuer
    {
        return Err(EdgeError::WrongIssuer {
            expected: parts.oidc.endpoints.issuer.clone(),
            got: iss,
        });
    }
    let code = query_param(uri, "code").ok_or(EdgeError::MissingParameter("code"))?;
    let tokens = parts
        .oidc
        .exchange_code(&code, &pending.redirect_uri, &pending.code_verifier)
        .await?;
    let id_token = tokens.id_token.as_deref().ok_or(IdTokenError::Missing)?;
    let claims = IdTokenClaims::verify(
        id_token,
        &parts.iam_keys.published(),
        &parts.oidc.endpoints.issuer,
        &pending.nonce,
    )?;

    // A browser that signs in again leaves its previous platform session behind: end it.
    for handle in cookie::session_handles(headers) {
        if let Some(previous) = parts.sessions.by_handle(&handle) {
            parts
                .sessions
                .end_with(&previous.sid, Ending::new(Source::Edge, "signed in again"));
        }
    }
    let person = claims.person(&parts.people);
    let sub = person.sub.clone();
    let now = parts.sessions.clock().now();
    let (handle, sid) = parts.sessions.create(
        person,
        IamTokens::from_response_at(tokens, None, now),
        claims.sid.clone(),
    );
    tracing::info!("platform session started");
    parts.journal.record(
        NewEvent::new(Source::Edge, "SESSION_STARTED")
            .of_person(sub)
            .in_session(sid)
            .details(json!({ "via": "sign-in" })),
    );
    let mut response = redirect(StatusCode::FOUND, &return_to::location(&pending.return_to));
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie::set(&handle));
    Ok(response)
}

/// `POST /.nnumbers/auth/logout`: only from a page of this address (Origin check, the
/// defence OWASP recommends for state-changing requests); ends the platform session — the
/// broker refuses its sid from then on — and leaves the IAM's SSO alone. 303 to `/`.
pub async fn logout(State(state): State<EdgeState>, headers: HeaderMap) -> Response {
    let edge_port = state.parts.port;
    if let Err((expected, got)) = origin::is_same_origin(&headers, edge_port) {
        state
            .parts
            .journal
            .record(NewEvent::new(Source::Edge, "LOGOUT_ERROR").outcome("FOREIGN_ORIGIN"));
        return EdgeError::ForeignOrigin { expected, got }.respond(&headers);
    }
    for handle in cookie::session_handles(&headers) {
        if let Some(session) = state.parts.sessions.by_handle(&handle) {
            // LOGOUT first: the store journals SESSION_ENDED (and revokes the session's
            // queries) as it ends it.
            state.parts.journal.record(
                NewEvent::new(Source::Edge, "LOGOUT")
                    .of_person(&session.person.sub)
                    .in_session(&session.sid)
                    .outcome("OK"),
            );
            state
                .parts
                .sessions
                .end_with(&session.sid, Ending::new(Source::Edge, "signed out"));
            tracing::info!("platform session ended by sign-out");
        }
    }
    let mut response = redirect(StatusCode::SEE_OTHER, "/");
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie::clear());
    response
}

/// A reserved path asked with a method it does not take: 405 with the edge's page or JSON
/// (axum adds `Allow`) instead of an empty body — a link to the logout path is a common slip.
pub async fn method_not_allowed(
    method: axum::http::Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path().to_string();
    let hint = if path == LOGOUT_PATH {
        format!(
            "sign-out is a POST from a page of this address, e.g. <form method=\"post\" action=\"{LOGOUT_PATH}\">"
        )
    } else {
        "this platform path is read with GET".into()
    };
    EdgeError::MethodNotAllowed {
        method: method.to_string(),
        path,
        hint,
    }
    .respond(&headers)
}

/// The platform's JSON: 203 and `Cache-Control: no-store`, as the spec relays it.
fn platform_json(body: Value) -> Response {
    let mut response =
        (StatusCode::NON_AUTHORITATIVE_INFORMATION, axum::Json(body)).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn organization(state: &EdgeState) -> Value {
    let org = &state.parts.organization;
    json!({ "id": org.id, "slug": org.slug })
}

/// `GET /.nnumbers/auth/session`: who is signed in, or `null`.
pub async fn session(State(state): State<EdgeState>, headers: HeaderMap) -> Response {
    let visitor = Visitor::resolve(&state.parts, &headers).await;
    let user = visitor.session.as_ref().map(|s| {
        let mut user = json!({ "sub": s.person.sub });
        if let (Value::Object(user), Ok(Value::Object(profile))) = (
            &mut user,
            serde_json::to_value(s.person.profile.published()),
        ) {
            user.extend(profile);
        }
        user
    });
    let mut response = platform_json(json!({ "user": user, "organization": organization(&state) }));
    if visitor.stale_cookie {
        response
            .headers_mut()
            .insert(header::SET_COOKIE, cookie::clear());
    }
    response
}

/// `GET /.nnumbers/v1/context`: the app, its organization, and where sign-in lives.
pub async fn context(State(state): State<EdgeState>) -> Response {
    platform_json(json!({
        "app": { "id": state.parts.app_id },
        "organization": organization(&state),
        "auth": { "login_path": LOGIN_PATH, "logout_path": LOGOUT_PATH },
    }))
}

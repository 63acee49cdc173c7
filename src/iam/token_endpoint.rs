//! The token endpoint (RFC 6749 §3.2): the authorization code grant with PKCE (§4.1.3,
//! RFC 7636 §4.5) and the refresh token grant (§6), for the one public client.

use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde::Serialize;

use super::codes::CodeRefusal;
use super::error::{IamError, OAuthCode, no_store};
use super::mint::{self, ACCESS_TOKEN_LIFETIME_SECS};
use super::params::Params;
use super::pkce;
use super::sso::{RefreshGrant, SsoSession};
use super::{IamState, Realm, is_known_client};
use crate::http::read_body;
use crate::platform::{NewEvent, Source};

/// RFC 6749 §5.1, with Keycloak's extra fields.
#[derive(Serialize)]
struct TokenResponse {
    access_token: String,
    expires_in: u64,
    refresh_expires_in: u64,
    refresh_token: String,
    token_type: &'static str,
    id_token: String,
    #[serde(rename = "not-before-policy")]
    not_before_policy: u64,
    session_state: String,
    scope: String,
}

/// A token request is a handful of short parameters; more than this is not one.
const MAX_TOKEN_REQUEST_BYTES: usize = 64 * 1024;

pub(super) async fn token(
    _: Realm,
    State(iam): State<IamState>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    // Read here rather than by the `Bytes` extractor, whose refusal is plain text: every
    // refusal of this endpoint is OAuth JSON (RFC 6749 §5.2).
    let answer = match read_body(body, MAX_TOKEN_REQUEST_BYTES).await {
        Ok(body) => grant(&iam, &headers, &body),
        Err(e) => Err(IamError::invalid_request(format!(
            "the token request could not be read: {e}"
        ))),
    };
    match answer {
        Ok(response) => response,
        Err(e) => {
            let challenge = matches!(
                e,
                IamError::Token {
                    code: OAuthCode::InvalidClient,
                    ..
                }
            );
            let mut response = e.into_response();
            // RFC 6749 §5.2 / RFC 9110 §15.5.2: a 401 names the scheme to authenticate with.
            if challenge
                && let Ok(value) = HeaderValue::from_str(&format!("Basic realm=\"{}\"", iam.slug()))
            {
                response
                    .headers_mut()
                    .insert(header::WWW_AUTHENTICATE, value);
            }
            response
        }
    }
}

/// RFC 6749 §3.2: the token request's parameters come as `application/x-www-form-urlencoded`
/// (any parameters, such as a charset, allowed). Anything else is named, not parsed as a form
/// into a misleading "client_id is required".
fn check_form_content_type(headers: &HeaderMap) -> Result<(), IamError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let is_form = content_type.as_deref().is_some_and(|ct| {
        ct.split(';')
            .next()
            .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(FORM))
    });
    if is_form {
        return Ok(());
    }
    Err(IamError::invalid_request(format!(
        "the token request must be {FORM} (RFC 6749 §3.2); it came as {}",
        content_type.map_or("no Content-Type".to_string(), |ct| format!("{ct:?}"))
    )))
}

const FORM: &str = "application/x-www-form-urlencoded";

fn grant(iam: &IamState, headers: &HeaderMap, body: &[u8]) -> Result<Response, IamError> {
    check_form_content_type(headers)?;
    let form = Params::parse(body).map_err(|e| IamError::invalid_request(e.to_string()))?;
    let client_id = client_id(headers, &form)?;
    let mut response = match form.get("grant_type") {
        None => return Err(IamError::invalid_request("grant_type is required")),
        Some("authorization_code") => {
            journaled(iam, "CODE_TO_TOKEN", code_grant(iam, &form, &client_id))?
        }
        Some("refresh_token") => {
            journaled(iam, "REFRESH_TOKEN", refresh_grant(iam, &form, &client_id))?
        }
        Some(other) => {
            return Err(IamError::token(
                OAuthCode::UnsupportedGrantType,
                format!(
                    "grant_type {other:?} is not supported; use authorization_code or refresh_token"
                ),
            ));
        }
    };
    no_store(&mut response);
    Ok(response)
}

/// The client: `client_id` in the body (RFC 6749 §2.3.1 / §3.2.1), or the user part of HTTP
/// Basic. It is public: a secret, if one is sent, is ignored, as Keycloak's public clients do.
fn client_id(headers: &HeaderMap, form: &Params) -> Result<String, IamError> {
    let basic = basic_user(headers)?;
    let client_id = match (basic, form.get("client_id")) {
        (Some(a), Some(b)) if a != b => {
            return Err(IamError::invalid_request(
                "client_id in the body and in Basic authentication differ",
            ));
        }
        (Some(id), _) => id,
        (None, Some(id)) => id.to_string(),
        (None, None) => {
            return Err(IamError::token(
                OAuthCode::InvalidClient,
                "client_id is required: the client is public and identifies itself with it",
            ));
        }
    };
    if !is_known_client(&client_id) {
        return Err(IamError::token(
            OAuthCode::InvalidClient,
            format!("no client {client_id:?} in this realm"),
        ));
    }
    Ok(client_id)
}

/// The user part of `Authorization: Basic` (RFC 7617), form-decoded as RFC 6749 §2.3.1 has
/// it encoded; `None` without Basic credentials.
fn basic_user(headers: &HeaderMap) -> Result<Option<String>, IamError> {
    let Some(encoded) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("basic"))
        .map(|(_, encoded)| encoded.trim())
    else {
        return Ok(None);
    };
    let decoded = B64
        .decode(encoded)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or_else(|| {
            IamError::token(
                OAuthCode::InvalidClient,
                "the Basic credentials are not base64 of user:password",
            )
        })?;
    let user = decoded.split_once(':').map_or(decoded.as_str(), |(u, _)| u);
    // Decoded as the value of one form field: an encoded client id holds no raw '&'.
    let user = form_urlencoded::parse(format!("={user}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    Ok(Some(user))
}

/// A grant refused, with Keycloak's event `error` for it (org.keycloak.events.Errors).
struct Refused(&'static str, IamError);

/// `kind` (Keycloak's `CODE_TO_TOKEN` or `REFRESH_TOKEN`) on record for a grant given, or
/// `kind_ERROR` with the error for one refused — never the code or a token.
fn journaled(
    iam: &IamState,
    kind: &'static str,
    granted: Result<(Response, String), Refused>,
) -> Result<Response, IamError> {
    let journal = &iam.parts().journal;
    match granted {
        Ok((response, sub)) => {
            journal.record(
                NewEvent::new(Source::Iam, kind)
                    .of_person(sub)
                    .outcome("OK"),
            );
            Ok(response)
        }
        Err(Refused(error, refusal)) => {
            let kind = match kind {
                "CODE_TO_TOKEN" => "CODE_TO_TOKEN_ERROR",
                _ => "REFRESH_TOKEN_ERROR",
            };
            journal.record(
                NewEvent::new(Source::Iam, kind)
                    .outcome(error)
                    .details(serde_json::json!({ "error": error })),
            );
            Err(refusal)
        }
    }
}

fn code_grant(
    iam: &IamState,
    form: &Params,
    client_id: &str,
) -> Result<(Response, String), Refused> {
    let code = form.get("code").ok_or_else(|| {
        Refused(
            "invalid_code",
            IamError::invalid_request("code is required"),
        )
    })?;
    let now = iam.now();
    let grant = iam
        .inner
        .codes
        .redeem(code, now)
        .map_err(|refusal| match refusal {
            CodeRefusal::Unknown => Refused(
                "invalid_code",
                IamError::invalid_grant("the authorization code is not valid"),
            ),
            CodeRefusal::Expired => Refused(
                "expired_code",
                IamError::invalid_grant("the authorization code has expired"),
            ),
            CodeRefusal::Reused { refresh_token } => {
                // RFC 6749 §4.1.2: a code used twice may have been stolen; what it gave is revoked.
                if let Some(token) = refresh_token {
                    iam.inner.sso.revoke_refresh_token(&token);
                }
                Refused(
                    "invalid_code",
                    IamError::invalid_grant("the authorization code was already used"),
                )
            }
        })?;
    if grant.client_id != client_id {
        return Err(Refused(
            "invalid_client",
            IamError::invalid_grant("the authorization code was issued to another client"),
        ));
    }
    match form.get("redirect_uri") {
        None => {
            return Err(Refused(
                "invalid_redirect_uri",
                IamError::invalid_request("redirect_uri is required"),
            ));
        }
        Some(uri) if uri != grant.redirect_uri => {
            return Err(Refused(
                "invalid_redirect_uri",
                IamError::invalid_grant("redirect_uri differs from the authorization request's"),
            ));
        }
        Some(_) => {}
    }
    // RFC 7636 §4.6; every PKCE failure is invalid_grant, as Keycloak answers.
    let verifier = form.get("code_verifier").ok_or_else(|| {
        Refused(
            "code_verifier_missing",
            IamError::invalid_grant("PKCE code_verifier is missing"),
        )
    })?;
    if !pkce::is_well_formed_verifier(verifier) {
        return Err(Refused(
            "invalid_code_verifier",
            IamError::invalid_grant(
                "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)",
            ),
        ));
    }
    if !pkce::verifies(verifier, &grant.code_challenge) {
        return Err(Refused(
            "pkce_verification_failed",
            IamError::invalid_grant("PKCE verification failed"),
        ));
    }
    let session = iam.inner.sso.get(&grant.sso_session, now).ok_or_else(|| {
        Refused(
            "user_session_not_found",
            IamError::invalid_grant("the sign-in session has ended"),
        )
    })?;
    let refresh_token = iam.inner.sso.issue_refresh_token(RefreshGrant {
        client_id: client_id.to_string(),
        sso_session: session.id.clone(),
        offline: grant.offline.then(|| session.clone()),
    });
    iam.inner.codes.record_refresh_token(code, &refresh_token);
    let sub = session.person.sub.clone();
    let offline = grant.offline;
    Ok((
        respond(iam, &session, grant.nonce, refresh_token, offline, now),
        sub,
    ))
}

fn refresh_grant(
    iam: &IamState,
    form: &Params,
    client_id: &str,
) -> Result<(Response, String), Refused> {
    let token = form.get("refresh_token").ok_or_else(|| {
        Refused(
            "invalid_token",
            IamError::invalid_request("refresh_token is required"),
        )
    })?;
    let now = iam.now();
    let (grant, session) = iam.inner.sso.refresh(token, now).ok_or_else(|| {
        Refused(
            "invalid_token",
            IamError::invalid_grant(
                "the refresh token is not valid: unknown, revoked, or its session has ended",
            ),
        )
    })?;
    if grant.client_id != client_id {
        return Err(Refused(
            "invalid_client",
            IamError::invalid_grant("the refresh token was issued to another client"),
        ));
    }
    // A new refresh token each time, the previous one staying valid until the session ends
    // (Keycloak's default: refresh tokens are not revoked on use).
    let offline = grant.offline.is_some();
    let refresh_token = iam.inner.sso.issue_refresh_token(grant);
    let sub = session.person.sub.clone();
    Ok((
        respond(iam, &session, None, refresh_token, offline, now),
        sub,
    ))
}

fn respond(
    iam: &IamState,
    session: &SsoSession,
    nonce: Option<String>,
    refresh_token: String,
    offline: bool,
    now: u64,
) -> Response {
    let minted = mint::mint(iam.parts(), session, nonce, offline, now);
    Json(TokenResponse {
        access_token: minted.access_token,
        expires_in: ACCESS_TOKEN_LIFETIME_SECS,
        // An offline token lasts until revoked: 0, as Keycloak says of a refresh token with no
        // lifespan of its own.
        refresh_expires_in: if offline {
            0
        } else {
            session.expires_at.saturating_sub(now)
        },
        refresh_token,
        token_type: "Bearer",
        id_token: minted.id_token,
        not_before_policy: 0,
        session_state: session.id.clone(),
        scope: minted.scope,
    })
    .into_response()
}

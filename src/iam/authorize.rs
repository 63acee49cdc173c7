//! The authorization endpoint (RFC 6749 §4.1.1, OIDC Core §3.1.2): validates the request,
//! then either completes it at once from the SSO session or shows the sign-in page.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;

use super::codes::CodeGrant;
use super::error::{AuthorizeRedirect, IamError, OAuthCode, found};
use super::params::{Params, form_body};
use super::pending::AuthRequest;
use super::pkce;
use super::signin_page::{self, SignInPage};
use super::sso::{self, SsoSession};
use super::{IamState, Realm, is_known_client};
use crate::oidc::{EDGE_CLIENT_ID, OFFLINE_SCOPE, QUERYMESH_SCOPE};
use crate::platform::{NewEvent, Source, Switch};

/// What `prompt` asks of the realm (OIDC Core §3.1.2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prompt {
    /// Sign-in page only when nobody is signed in.
    Default,
    /// Never show a page: complete from the SSO session or fail with `login_required`.
    None,
    /// Show the page even with an SSO session (`login`, `select_account`).
    Page,
}

pub(super) async fn authorize_get(
    _: Realm,
    State(iam): State<IamState>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, IamError> {
    let params = Params::parse_noting_repeats(query.unwrap_or_default().as_bytes());
    authorize(&iam, &params, &headers)
}

/// OIDC Core §3.1.2.1: the authorization endpoint takes POST (form-encoded) as well as GET.
pub(super) async fn authorize_post(
    _: Realm,
    State(iam): State<IamState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, IamError> {
    let body = form_body(body)?;
    let params = Params::parse_noting_repeats(&body);
    authorize(&iam, &params, &headers)
}

fn authorize(iam: &IamState, params: &Params, headers: &HeaderMap) -> Result<Response, IamError> {
    // Nothing is redirected anywhere before the client and its redirect URI check out
    // (RFC 6749 §4.1.2.1, §10.15): a repeated one of them cannot be trusted at all.
    for name in ["client_id", "redirect_uri"] {
        if params.is_repeated(name) {
            return Err(IamError::RepeatedParameter(name.to_string()));
        }
    }
    let client_id = params
        .get("client_id")
        .ok_or(IamError::MissingParameter("client_id"))?;
    if !is_known_client(client_id) {
        return Err(IamError::UnknownClient(client_id.to_string()));
    }
    let redirect_uri = params
        .get("redirect_uri")
        .ok_or(IamError::MissingParameter("redirect_uri"))?;
    if !iam
        .allowed_redirect_uris()
        .iter()
        .any(|u| u == redirect_uri)
    {
        return Err(IamError::RedirectUriMismatch(redirect_uri.to_string()));
    }

    let refuse = |code: OAuthCode, description: &str| {
        IamError::Authorize(Box::new(AuthorizeRedirect {
            redirect_uri: redirect_uri.to_string(),
            // A repeated state is not the client's one state: none goes back.
            state: params
                .owned("state")
                .filter(|_| !params.is_repeated("state")),
            issuer: iam.realm_url(),
            code,
            description: description.to_string(),
        }))
    };
    let (request, prompt) = validate(iam, params, redirect_uri).map_err(|(c, d)| refuse(c, &d))?;

    let now = iam.now();
    let session = iam.inner.sso.by_cookie(headers, now);
    match (prompt, session) {
        (Prompt::Default | Prompt::None, Some(session)) => {
            Ok(complete(iam, request, &session, None))
        }
        (Prompt::None, None) => Err(refuse(
            OAuthCode::LoginRequired,
            "nobody is signed in to the organization and prompt=none forbids the sign-in page",
        )),
        (Prompt::Default | Prompt::Page, session) => {
            let auth_request = iam.inner.pending.insert(request, now);
            Ok(signin_page::render(
                iam,
                SignInPage {
                    auth_request: &auth_request,
                    signed_in: session.as_ref().map(|s| &s.person),
                    error: None,
                    custom: None,
                },
            ))
        }
    }
}

/// Everything checked after the redirect URI: a failure goes back to the client.
fn validate(
    iam: &IamState,
    params: &Params,
    redirect_uri: &str,
) -> Result<(AuthRequest, Prompt), (OAuthCode, String)> {
    use OAuthCode::*;
    // RFC 6749 §4.1.2.1: "includes a parameter more than once" is invalid_request, told to
    // the client once its redirect URI is known good.
    if let Some(name) = params.first_repeated() {
        return Err((
            InvalidRequest,
            format!("`{name}` appears more than once (RFC 6749 §3.1)"),
        ));
    }
    // Ignoring them would silently drop whatever the client put there (OIDC Core §6.1, §6.2).
    if params.get("request").is_some() {
        return Err((
            RequestNotSupported,
            "request objects are not supported: send the parameters in the query".into(),
        ));
    }
    if params.get("request_uri").is_some() {
        return Err((
            RequestUriNotSupported,
            "request_uri is not supported: send the parameters in the query".into(),
        ));
    }
    match params.get("response_type") {
        None => return Err((InvalidRequest, "response_type is required".into())),
        Some("code") => {}
        Some(other) => {
            return Err((
                UnsupportedResponseType,
                format!(
                    "response_type {other:?} is not supported: this realm issues authorization codes (response_type=code)"
                ),
            ));
        }
    }
    if let Some(mode) = params.get("response_mode")
        && mode != "query"
    {
        return Err((
            InvalidRequest,
            format!("response_mode {mode:?} is not supported; use query"),
        ));
    }
    let offline = check_scope(iam, params.get("scope"))?;
    match params.get("code_challenge_method") {
        Some(pkce::S256) => {}
        None => {
            return Err((
                InvalidRequest,
                "PKCE is required: send code_challenge and code_challenge_method=S256".into(),
            ));
        }
        Some(other) => {
            return Err((
                InvalidRequest,
                format!("code_challenge_method {other:?} is not allowed; only S256"),
            ));
        }
    }
    let code_challenge = match params.get("code_challenge") {
        Some(c) if pkce::is_s256_challenge(c) => c.to_string(),
        Some(_) => {
            return Err((
                InvalidRequest,
                "code_challenge is not an S256 challenge (43 base64url characters)".into(),
            ));
        }
        None => {
            return Err((
                InvalidRequest,
                "PKCE is required: code_challenge is missing".into(),
            ));
        }
    };
    let prompt = parse_prompt(params.get("prompt"))?;
    Ok((
        AuthRequest {
            redirect_uri: redirect_uri.to_string(),
            state: params.owned("state"),
            nonce: params.owned("nonce"),
            code_challenge,
            offline,
        },
        prompt,
    ))
}

/// `openid` is required (this realm signs people in); every scope must be one the realm has.
/// Returns whether `offline_access` was asked for: Keycloak has it in every client's default
/// scopes, and OIDC clients ask for it to get a refresh token that outlives the sign-in.
fn check_scope(iam: &IamState, scope: Option<&str>) -> Result<bool, (OAuthCode, String)> {
    let scopes: Vec<&str> = scope.unwrap_or_default().split_whitespace().collect();
    if !scopes.contains(&"openid") {
        return Err((OAuthCode::InvalidScope, "scope must include openid".into()));
    }
    let querymesh = iam.parts().switches.get(Switch::QueryMeshScope);
    let offline = scopes.contains(&OFFLINE_SCOPE);
    for s in scopes {
        let known = matches!(s, "openid" | "profile" | "email" | OFFLINE_SCOPE)
            || (querymesh && s == QUERYMESH_SCOPE);
        if !known {
            return Err((
                OAuthCode::InvalidScope,
                format!("the realm has no client scope {s:?}"),
            ));
        }
    }
    Ok(offline)
}

fn parse_prompt(prompt: Option<&str>) -> Result<Prompt, (OAuthCode, String)> {
    let values: Vec<&str> = prompt.unwrap_or_default().split_whitespace().collect();
    if values.contains(&"none") && values.len() > 1 {
        return Err((
            OAuthCode::InvalidRequest,
            "prompt=none cannot be combined with other values".into(),
        ));
    }
    let mut result = Prompt::Default;
    for value in values {
        result = match value {
            "none" => Prompt::None,
            "login" | "select_account" => Prompt::Page,
            "consent" => result,
            other => {
                return Err((
                    OAuthCode::InvalidRequest,
                    format!("prompt {other:?} is not supported"),
                ));
            }
        };
    }
    Ok(result)
}

/// Issues a code for `session` and sends the browser back to the client (RFC 6749 §4.1.2,
/// with Keycloak's `session_state` and RFC 9207's `iss`); `set_cookie` starts the SSO.
/// Every sign-in into the client comes here, so each is on record as Keycloak's `LOGIN`.
pub(super) fn complete(
    iam: &IamState,
    request: AuthRequest,
    session: &SsoSession,
    set_cookie: Option<&str>,
) -> Response {
    record_login(iam, &request, session);
    let code = iam.inner.codes.issue(
        CodeGrant {
            client_id: EDGE_CLIENT_ID.to_string(),
            redirect_uri: request.redirect_uri.clone(),
            code_challenge: request.code_challenge,
            nonce: request.nonce,
            sso_session: session.id.clone(),
            offline: request.offline,
        },
        iam.now(),
    );
    let mut query = form_urlencoded::Serializer::new(String::new());
    if let Some(state) = &request.state {
        query.append_pair("state", state);
    }
    query.append_pair("session_state", &session.id);
    query.append_pair("iss", &iam.realm_url());
    query.append_pair("code", &code);
    let mut response = found(&format!("{}?{}", request.redirect_uri, query.finish()));
    if let Some(cookie) = set_cookie {
        let header = sso::set_cookie(
            iam.slug(),
            cookie,
            session.expires_at.saturating_sub(iam.now()),
        );
        if let Ok(value) = HeaderValue::from_str(&header) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
}

/// Keycloak's `LOGIN` with the details its browser flow gives it (AuthorizationEndpoint,
/// AuthorizationEndpointBase and AuthenticationProcessor.attachSession set them;
/// AuthenticationManager.finishedRequiredActions records the event), the same whether the
/// person chose a card or the SSO session alone signed them in: Keycloak's cookie
/// authenticator marks SSO reuse only in the client session (`SSO_AUTH`) and the token's
/// `acr` "0", not in the event, which shows it as the same `code_id` as the sign-in that
/// started the session. `code_id` is the SSO session's id (the tokens' `sid`, the
/// redirect's `session_state`), not the authorization code; no code or cookie goes on record.
fn record_login(iam: &IamState, request: &AuthRequest, session: &SsoSession) {
    let mut details = serde_json::json!({
        "auth_method": "openid-connect",
        "auth_type": "code",
        "response_type": "code",
        "response_mode": "query",
        "redirect_uri": request.redirect_uri,
        "consent": "no_consent_required",
        "code_id": session.id,
    });
    if let Some(username) = &session.person.profile.preferred_username {
        details["username"] = username.as_str().into();
    }
    iam.parts().journal.record(
        NewEvent::new(Source::Iam, "LOGIN")
            .of_person(&session.person.sub)
            .outcome("OK")
            .details(details),
    );
}

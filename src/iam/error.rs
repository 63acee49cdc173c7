//! Every refusal of the IAM, mapped once to what its caller can use: a page for a browser
//! that cannot safely be sent back, a redirect to the client once its `redirect_uri` is known
//! good (RFC 6749 §4.1.2.1), OAuth JSON for the token endpoint (RFC 6749 §5.2), a bearer
//! challenge for userinfo (RFC 6750 §3.1).

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::signin_page;

/// The OAuth 2.0 / OpenID Connect error codes this realm answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OAuthCode {
    InvalidRequest,
    InvalidClient,
    InvalidGrant,
    InvalidScope,
    UnsupportedGrantType,
    UnsupportedResponseType,
    /// OIDC Core §3.1.2.6: `prompt=none` and nobody is signed in.
    LoginRequired,
    /// OIDC Core §3.1.2.6 / §6: a `request` object, which this realm does not support (its
    /// discovery says `request_parameter_supported: false`).
    RequestNotSupported,
    /// The same for `request_uri`.
    RequestUriNotSupported,
}

impl OAuthCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidRequest => "invalid_request",
            Self::InvalidClient => "invalid_client",
            Self::InvalidGrant => "invalid_grant",
            Self::InvalidScope => "invalid_scope",
            Self::UnsupportedGrantType => "unsupported_grant_type",
            Self::UnsupportedResponseType => "unsupported_response_type",
            Self::LoginRequired => "login_required",
            Self::RequestNotSupported => "request_not_supported",
            Self::RequestUriNotSupported => "request_uri_not_supported",
        }
    }
}

/// An authorization error sent back to the client's (validated) redirect URI.
#[derive(Debug)]
pub struct AuthorizeRedirect {
    pub redirect_uri: String,
    pub state: Option<String>,
    pub issuer: String,
    pub code: OAuthCode,
    pub description: String,
}

#[derive(Debug, thiserror::Error)]
pub enum IamError {
    /// Keycloak's answer for a realm it does not have.
    #[error("Realm does not exist")]
    UnknownRealm,
    #[error("no such page")]
    NotFound,
    #[error("the request has no `{0}`")]
    MissingParameter(&'static str),
    #[error("`{0}` appears more than once (RFC 6749 §3.1)")]
    RepeatedParameter(String),
    #[error("no application is registered as client_id {0:?} in this realm")]
    UnknownClient(String),
    #[error("{0:?} is not a redirect URI registered for this application")]
    RedirectUriMismatch(String),
    #[error("this sign-in request is unknown or has expired")]
    AuthRequestExpired,
    #[error("{0:?} is not an address of the application, so signing out cannot return there")]
    LogoutRedirectRefused(String),
    #[error("the id_token_hint was not issued by this realm: {0}")]
    IdTokenHintInvalid(String),
    #[error("the address to return to cannot be used in a redirect")]
    UnusableRedirect,
    /// After the redirect URI is validated: the error goes back to the client.
    #[error("{}: {}", .0.code.as_str(), .0.description)]
    Authorize(Box<AuthorizeRedirect>),
    /// The token endpoint's refusals.
    #[error("{}: {description}", code.as_str())]
    Token {
        code: OAuthCode,
        description: String,
    },
    /// A form body over the limit (bytes): a page like every other browser-facing refusal,
    /// not axum's plain text, with HTTP's own 413 (RFC 9110 §15.5.14).
    #[error("the form is larger than this realm's limit of {0} bytes")]
    FormTooLarge(usize),
    /// A form body that broke while it was read (bad chunked encoding, cut short).
    #[error("the form could not be read: {0}")]
    FormUnreadable(String),
    /// A missing, invalid or expired bearer token at userinfo.
    #[error("{0}")]
    InvalidAccessToken(String),
}

impl IamError {
    pub fn token(code: OAuthCode, description: impl Into<String>) -> Self {
        Self::Token {
            code,
            description: description.into(),
        }
    }

    pub fn invalid_grant(description: impl Into<String>) -> Self {
        Self::token(OAuthCode::InvalidGrant, description)
    }

    pub fn invalid_request(description: impl Into<String>) -> Self {
        Self::token(OAuthCode::InvalidRequest, description)
    }

    /// The page's title for the browser-facing errors.
    fn page_title(&self) -> &'static str {
        match self {
            Self::UnknownClient(_) => "Unknown application",
            Self::RedirectUriMismatch(_) => "Invalid redirect address",
            Self::AuthRequestExpired => "This sign-in has expired",
            Self::LogoutRedirectRefused(_) | Self::IdTokenHintInvalid(_) => "Cannot sign out here",
            Self::NotFound => "Page not found",
            _ => "Invalid request",
        }
    }

    /// What the person can do about it.
    fn page_hint(&self) -> &'static str {
        match self {
            Self::AuthRequestExpired => "Go back to the application and choose Sign in again.",
            Self::NotFound => "Check the address.",
            _ => "The application sent an invalid request; nothing was sent back to it.",
        }
    }
}

#[derive(Serialize)]
struct OAuthErrorBody<'a> {
    error: &'a str,
    error_description: &'a str,
}

impl IntoResponse for IamError {
    fn into_response(self) -> Response {
        match self {
            Self::UnknownRealm => (
                StatusCode::NOT_FOUND,
                Json(serde_json::json!({"error": "Realm does not exist"})),
            )
                .into_response(),
            Self::Authorize(redirect) => authorize_redirect(&redirect),
            Self::Token { code, description } => {
                // RFC 6749 §5.2: 400, except invalid_client, which may be 401.
                let status = if code == OAuthCode::InvalidClient {
                    StatusCode::UNAUTHORIZED
                } else {
                    StatusCode::BAD_REQUEST
                };
                let body = OAuthErrorBody {
                    error: code.as_str(),
                    error_description: &description,
                };
                let mut response = (status, Json(body)).into_response();
                no_store(&mut response);
                response
            }
            Self::InvalidAccessToken(description) => {
                // RFC 6750 §3.1; the description is ours, free of quotes.
                let challenge = format!(
                    "Bearer error=\"invalid_token\", error_description=\"{}\"",
                    description.replace('"', "'")
                );
                let body = OAuthErrorBody {
                    error: "invalid_token",
                    error_description: &description,
                };
                let mut response = (StatusCode::UNAUTHORIZED, Json(body)).into_response();
                if let Ok(value) = HeaderValue::from_str(&challenge) {
                    response
                        .headers_mut()
                        .insert(header::WWW_AUTHENTICATE, value);
                }
                response
            }
            page_error => {
                let status = match page_error {
                    Self::NotFound => StatusCode::NOT_FOUND,
                    Self::FormTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
                    _ => StatusCode::BAD_REQUEST,
                };
                signin_page::message_page(
                    status,
                    None,
                    page_error.page_title(),
                    &page_error.to_string(),
                    page_error.page_hint(),
                )
            }
        }
    }
}

/// RFC 6749 §4.1.2.1 with the RFC 9207 `iss` parameter, as Keycloak sends it.
fn authorize_redirect(r: &AuthorizeRedirect) -> Response {
    let mut query = form_urlencoded::Serializer::new(String::new());
    query.append_pair("error", r.code.as_str());
    query.append_pair("error_description", &r.description);
    if let Some(state) = &r.state {
        query.append_pair("state", state);
    }
    query.append_pair("iss", &r.issuer);
    found(&format!("{}?{}", r.redirect_uri, query.finish()))
}

/// 302 Found, what Keycloak answers on the authorization endpoint (RFC 6749 §4.1.2).
pub fn found(location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(value) => (StatusCode::FOUND, [(header::LOCATION, value)]).into_response(),
        Err(_) => IamError::UnusableRedirect.into_response(),
    }
}

/// RFC 6749 §5.1: token responses must not be cached.
pub fn no_store(response: &mut Response) {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
        .headers_mut()
        .insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
}

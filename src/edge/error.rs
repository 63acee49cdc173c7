//! The edge's own refusals, mapped once to HTTP. A browser gets a readable page, any other
//! client a JSON `{"code","message"}`; both say what went wrong and what to do.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::id_token::IdTokenError;
use crate::oidc::OidcError;
use crate::reserved_paths::LOGIN_PATH;

#[derive(Debug, thiserror::Error)]
pub enum EdgeError {
    /// A `/.nnumbers/` path the platform does not serve (runtime-protocol, "The Reserved
    /// Paths": those paths never reach the app).
    #[error("{0} is reserved for the platform and is not one of its paths")]
    UnknownReservedPath(String),
    /// Logout is a state change: only a form on the edge's own address may ask for it.
    #[error(
        "sign-out needs an Origin header equal to this address ({expected}); got {}{}",
        got.as_deref().unwrap_or("none"),
        if got.as_deref() == Some("null") { NULL_ORIGIN_HINT } else { "" }
    )]
    ForeignOrigin {
        expected: String,
        got: Option<String>,
    },
    #[error(
        "this sign-in response does not belong to a sign-in in progress (its state is missing, unknown, expired or already used); start again from sign-in"
    )]
    UnknownState,
    #[error(
        "this sign-in was started in another browser, or this browser did not keep the edge's cookies; start again from sign-in in this browser"
    )]
    OtherBrowser,
    #[error("the organization IAM answered the sign-in with {error}{}", description.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    Authorization {
        error: String,
        description: Option<String>,
    },
    #[error("the sign-in response has no {0}")]
    MissingParameter(&'static str),
    #[error(
        "the sign-in response comes from issuer {got:?}, not the organization IAM {expected:?}"
    )]
    WrongIssuer { expected: String, got: String },
    #[error(
        "the organization IAM refused the authorization code (already used, expired or not issued to this sign-in): {0}"
    )]
    CodeRefused(String),
    #[error("the ID token does not check out: {0}")]
    IdToken(#[from] IdTokenError),
    #[error("the organization IAM did not answer: {0}")]
    IamUnavailable(String),
    #[error(
        "CONNECT asks for a tunnel, and the edge is a reverse proxy in front of your app, not a forward proxy"
    )]
    NotAForwardProxy,
    /// The client's request body broke while it was forwarded (bad chunked encoding, cut
    /// short, stalled): the client's fault, not the app's (RFC 9110 §15.5.1).
    #[error(
        "the request body could not be read from the client ({0}), so the request to your app was abandoned; send a well-formed body (valid chunked encoding, or as many bytes as its Content-Length says)"
    )]
    ClientBody(String),
    /// A reserved path asked with a method it does not take (RFC 9110 §15.5.6).
    #[error("{method} is not a method of {path}: {hint}")]
    MethodNotAllowed {
        method: String,
        path: String,
        hint: String,
    },
}

/// Why a browser sends `Origin: null` on a same-origin form POST (Fetch, "serializing a
/// request origin"), and the fix; seen in Chromium with helmet's default policy.
const NULL_ORIGIN_HINT: &str = ". A browser sends Origin: null when the page with the sign-out form is served with Referrer-Policy: no-referrer (helmet's default, for one) or sits in a sandboxed frame: serve that page with Referrer-Policy: same-origin or strict-origin-when-cross-origin";

impl EdgeError {
    fn status(&self) -> StatusCode {
        match self {
            Self::UnknownReservedPath(_) => StatusCode::NOT_FOUND,
            Self::ForeignOrigin { .. } => StatusCode::FORBIDDEN,
            Self::UnknownState
            | Self::OtherBrowser
            | Self::Authorization { .. }
            | Self::MissingParameter(_)
            | Self::WrongIssuer { .. }
            | Self::CodeRefused(_)
            | Self::IdToken(_)
            | Self::ClientBody(_) => StatusCode::BAD_REQUEST,
            Self::IamUnavailable(_) => StatusCode::BAD_GATEWAY,
            Self::MethodNotAllowed { .. } | Self::NotAForwardProxy => {
                StatusCode::METHOD_NOT_ALLOWED
            }
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::UnknownReservedPath(_) => "NOT_FOUND",
            Self::ForeignOrigin { .. } => "ORIGIN_MISMATCH",
            Self::UnknownState
            | Self::OtherBrowser
            | Self::Authorization { .. }
            | Self::MissingParameter(_)
            | Self::WrongIssuer { .. }
            | Self::CodeRefused(_)
            | Self::IdToken(_) => "SIGN_IN_FAILED",
            Self::IamUnavailable(_) => "IAM_UNAVAILABLE",
            Self::ClientBody(_) => "INVALID_REQUEST_BODY",
            Self::MethodNotAllowed { .. } | Self::NotAForwardProxy => "METHOD_NOT_ALLOWED",
        }
    }

    fn title(&self) -> &'static str {
        match self {
            Self::UnknownReservedPath(_) => "Not a platform path",
            Self::ForeignOrigin { .. } => "Sign-out refused",
            Self::IamUnavailable(_) => "The organization IAM did not answer",
            Self::MethodNotAllowed { .. } => "Not how this platform path is used",
            Self::NotAForwardProxy => "Not a forward proxy",
            Self::ClientBody(_) => "The request body could not be read",
            _ => "Sign-in did not complete",
        }
    }

    /// The response in the shape `headers` (the request's) asks for.
    pub fn respond(self, request_headers: &HeaderMap) -> Response {
        let message = self.to_string();
        if matches!(
            self,
            Self::UnknownState | Self::OtherBrowser | Self::CodeRefused(_)
        ) {
            tracing::info!(reason = %self.code(), "sign-in callback refused");
        }
        error_response(
            self.status(),
            self.code(),
            self.title(),
            &message,
            request_headers,
            Some(("Sign in again", LOGIN_PATH)).filter(|_| self.code() == "SIGN_IN_FAILED"),
        )
    }
}

impl From<OidcError> for EdgeError {
    fn from(e: OidcError) -> Self {
        match e {
            OidcError::Refused { .. } => Self::CodeRefused(e.to_string()),
            OidcError::Unreachable(m) | OidcError::Protocol(m) => Self::IamUnavailable(m),
        }
    }
}

/// Whether the client reads HTML (a browser navigation) rather than JSON.
pub fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("text/html"))
}

/// A refusal as a small HTML page or `{"code","message"}`, never cached.
pub fn error_response(
    status: StatusCode,
    code: &str,
    title: &str,
    message: &str,
    request_headers: &HeaderMap,
    action: Option<(&str, &str)>,
) -> Response {
    let mut response = if wants_html(request_headers) {
        let action = action
            .map(|(label, href)| {
                format!(
                    r#"<p><a href="{}">{}</a></p>"#,
                    escape_html(href),
                    escape_html(label)
                )
            })
            .unwrap_or_default();
        let body = format!("<p>{}</p>{action}", escape_html(message));
        (status, page(title, &body)).into_response()
    } else {
        (
            status,
            axum::Json(json!({ "code": code, "message": message })),
        )
            .into_response()
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A self-contained HTML page (no external assets: the app may be down).
pub fn page(title: &str, body_html: &str) -> axum::response::Html<String> {
    axum::response::Html(format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · zero-sandbox</title>
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 4rem auto; padding: 0 1rem; color: #1d2433; }}
h1 {{ font-size: 1.4rem; }} code {{ background: #f1f3f7; padding: .1rem .3rem; border-radius: 4px; }}
.by {{ color: #6b7280; font-size: .85rem; margin-top: 3rem; }}
</style></head>
<body><h1>{title}</h1>{body_html}<p class="by">zero-sandbox edge</p></body></html>
"#,
        title = escape_html(title),
    ))
}

pub use crate::html::escape as escape_html;

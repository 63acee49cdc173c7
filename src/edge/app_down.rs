//! What the developer sees when the app does not answer: a page (or JSON) naming the URL the
//! edge tried and how to fix it, with 502 (RFC 9110 §15.6.3: the edge is a gateway whose
//! upstream failed).

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::error::{escape_html, page, wants_html};

/// Why the request did not get an answer from the app.
pub enum AppDown {
    /// Nothing accepted the connection.
    Unreachable(String),
    /// The connection opened but closed (or failed) before a response came.
    NoResponse(String),
    /// The configured app URL cannot address this request.
    BadUrl(String),
}

impl AppDown {
    fn reason(&self) -> &str {
        match self {
            Self::Unreachable(r) | Self::NoResponse(r) | Self::BadUrl(r) => r,
        }
    }

    fn summary(&self, app_url: &str) -> String {
        match self {
            Self::Unreachable(_) => format!("Your app at {app_url} did not answer."),
            Self::NoResponse(_) => {
                format!("Your app at {app_url} closed the connection without a response.")
            }
            Self::BadUrl(_) => format!("The app URL {app_url} cannot be used for this request."),
        }
    }
}

const FIX: &str = "Start your app so it listens there, or restart zero-sandbox with --app pointing to where it listens (app.url in zero-sandbox.toml works too). Without --app, zero-sandbox serves its built-in demo app.";

pub fn response(app_url: &str, down: AppDown, request_headers: &HeaderMap) -> Response {
    tracing::warn!(app = %app_url, reason = %down.reason(), "the app did not answer");
    let summary = down.summary(app_url);
    let mut response = if wants_html(request_headers) {
        let body = format!(
            "<p>{summary}</p><p>The edge tried <code>{url}</code>: {reason}.</p>\
             <p><strong>How to fix it:</strong> {fix}</p>\
             <p><a href=\"\">Try again</a></p>",
            summary = escape_html(&summary),
            url = escape_html(app_url),
            reason = escape_html(down.reason()),
            fix = escape_html(FIX),
        );
        (
            StatusCode::BAD_GATEWAY,
            page("Your app is not answering", &body),
        )
            .into_response()
    } else {
        let body = json!({
            "code": "APP_UNREACHABLE",
            "message": format!("{summary} {FIX}"),
            "app_url": app_url,
            "reason": down.reason(),
        });
        (StatusCode::BAD_GATEWAY, axum::Json(body)).into_response()
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

//! What the developer sees when the app does not answer: a page (or JSON) naming the URL the
//! edge tried and how to fix it, with 502 (RFC 9110 §15.6.3: the edge is a gateway whose
//! upstream failed), or 504 when the app accepted the request but stayed silent
//! (RFC 9110 §15.6.5).

use std::time::Duration;

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
    /// The app took the request but sent no response headers within this long.
    TimedOut(Duration),
    /// The app URL leads back to the edge itself (`--app` given the edge's own port).
    PointsAtTheEdge,
}

impl AppDown {
    fn reason(&self) -> String {
        match self {
            Self::Unreachable(r) | Self::NoResponse(r) | Self::BadUrl(r) => r.clone(),
            Self::TimedOut(after) => format!(
                "no response headers within {} s; the request is still waiting inside your app",
                after.as_secs_f64()
            ),
            Self::PointsAtTheEdge => {
                "the request came back to the edge through the app URL (its Via header names this edge)".to_string()
            }
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            Self::TimedOut(_) => StatusCode::GATEWAY_TIMEOUT,
            _ => StatusCode::BAD_GATEWAY,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::TimedOut(_) => "APP_TIMEOUT",
            Self::PointsAtTheEdge => "APP_URL_IS_THE_EDGE",
            _ => "APP_UNREACHABLE",
        }
    }

    fn summary(&self, app_url: &str) -> String {
        match self {
            Self::Unreachable(_) => format!("Your app at {app_url} did not answer."),
            Self::NoResponse(_) => {
                format!("Your app at {app_url} closed the connection without a response.")
            }
            Self::BadUrl(_) => format!("The app URL {app_url} cannot be used for this request."),
            Self::TimedOut(after) => format!(
                "Your app at {app_url} accepted the request but did not answer within {} s.",
                after.as_secs_f64()
            ),
            Self::PointsAtTheEdge => {
                format!("The app URL {app_url} leads back to the edge itself, not to your app.")
            }
        }
    }
}

const FIX: &str = "Start your app so it listens there, or restart zero-sandbox with --app pointing to where it listens (app.url in zero-sandbox.toml works too). Without --app, zero-sandbox serves its built-in demo app.";

/// What a person should change for the app to answer.
const SLOW_FIX: &str = "Look for a request handler in your app that never sends a response (a missing reply, a deadlock, a call waiting on something that never comes); a response that starts in time may stream for as long as it needs.";

const LOOP_FIX: &str = "The edge listens on that address: start your app on another port and pass that one with --app (or app.url in zero-sandbox.toml).";

impl AppDown {
    fn fix(&self) -> &'static str {
        match self {
            Self::TimedOut(_) => SLOW_FIX,
            Self::PointsAtTheEdge => LOOP_FIX,
            _ => FIX,
        }
    }
}

pub fn response(app_url: &str, down: AppDown, request_headers: &HeaderMap) -> Response {
    let reason = down.reason();
    tracing::warn!(app = %app_url, %reason, "the app did not answer");
    let summary = down.summary(app_url);
    let mut response = if wants_html(request_headers) {
        let body = format!(
            "<p>{summary}</p><p>The edge tried <code>{url}</code>: {reason}.</p>\
             <p><strong>How to fix it:</strong> {fix}</p>\
             <p><a href=\"\">Try again</a></p>",
            summary = escape_html(&summary),
            url = escape_html(app_url),
            reason = escape_html(&reason),
            fix = escape_html(down.fix()),
        );
        (down.status(), page("Your app is not answering", &body)).into_response()
    } else {
        let body = json!({
            "code": down.code(),
            "message": format!("{summary} {}", down.fix()),
            "app_url": app_url,
            "reason": reason,
        });
        (down.status(), axum::Json(body)).into_response()
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

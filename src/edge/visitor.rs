//! Who is behind a request: the platform session its cookie names, if it is still alive.

use axum::http::HeaderMap;

use std::sync::Arc;

use super::EdgeParts;
use super::cookie;
use crate::platform::{PlatformSession, SessionError};

/// The request's platform session, and whether the browser holds a cookie to clear.
pub struct Visitor {
    pub session: Option<Arc<PlatformSession>>,
    /// The cookie names no live session (logged out elsewhere, restarted, or refused by the
    /// IAM on refresh): the response removes it.
    pub stale_cookie: bool,
}

impl Visitor {
    /// Resolves the cookie and keeps the session's IAM tokens fresh: `fresh_access_token`
    /// refreshes only when the access token nears expiry, and a refresh the IAM refuses ends
    /// the session, so the request goes on anonymous.
    pub async fn resolve(edge: &EdgeParts, headers: &HeaderMap) -> Self {
        let mut handles = cookie::session_handles_in(headers).peekable();
        let holds_a_cookie = handles.peek().is_some();
        let Some(session) = handles.find_map(|h| edge.sessions.shared_by_handle(h)) else {
            return Self {
                session: None,
                stale_cookie: holds_a_cookie,
            };
        };
        if session.access_token_fresh_at(edge.sessions.clock().now()) {
            return Self {
                session: Some(session),
                stale_cookie: false,
            };
        }
        match edge
            .sessions
            .fresh_access_token(&session.sid, &edge.oidc)
            .await
        {
            Ok(_) => Self {
                session: Some(session),
                stale_cookie: false,
            },
            Err(SessionError::Ended) => Self {
                session: None,
                stale_cookie: true,
            },
            // The IAM is down, not refusing: the person is still who they were; the broker
            // will report the IAM's absence when a query needs the token.
            Err(SessionError::IamUnavailable(reason)) => {
                tracing::warn!(%reason, "could not refresh a platform session's IAM tokens");
                Self {
                    session: Some(session),
                    stale_cookie: false,
                }
            }
        }
    }
}

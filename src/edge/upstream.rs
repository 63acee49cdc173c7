//! The bodies the edge passes through, without boxing them: the browser's request body on its
//! way to the app ([`ToApp`]) and the app's response body, or the edge's own, on its way back
//! ([`Reply`]). Both are http-body-util's `Either`, which forwards each call to its side.

use axum::body::Body;
use http_body_util::Either;

use super::app_pool::AppBody;
use crate::listener::ClientBody;

/// A request body for the app: `Left` the browser's as the listener hands it over (the app's
/// paths), `Right` as the router does (a path spelled unusually, routed first).
pub type ToApp = Either<ClientBody, Body>;

/// A response body for the browser: `Left` the app's, streamed as it comes, `Right` one of the
/// edge's own (its pages, the router's answers).
pub type Reply = Either<AppBody, Body>;

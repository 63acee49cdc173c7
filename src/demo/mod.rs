//! The built-in demo app: served on its own loopback port, so the edge treats it like any app.

use axum::Router;

pub fn router() -> Router {
    Router::new()
}

//! The built-in demo app: what runs behind the edge when no `--app` is given.
//!
//! It is served on its own loopback port, so the edge treats it exactly like any app, and it
//! follows the runtime protocol the way an app in any language should: it reads
//! `X-NNumbers-Identity`, makes the spec's five checks with the `NNUMBERS_*` environment
//! ([`verify`]), and queries QueryMesh through the broker with the identity it received
//! ([`query`]). The page itself (`web/demo`) shows each step.

mod assets;
mod keys;
mod query;
mod verify;

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};

use crate::http::HttpClient;
use crate::platform::SandboxEnv;

/// What the demo app knows: exactly what any app gets (the `NNUMBERS_*` environment), plus
/// an HTTP client.
pub struct DemoConfig {
    pub env: SandboxEnv,
    pub http: HttpClient,
}

#[derive(Clone)]
pub struct DemoState {
    env: Arc<SandboxEnv>,
    keys: keys::IdentityKeys,
    http: HttpClient,
}

pub fn router(config: DemoConfig) -> Router {
    let state = DemoState {
        keys: keys::IdentityKeys::new(&config.env, config.http.clone()),
        env: Arc::new(config.env),
        http: config.http,
    };
    Router::new()
        .route("/api/identity", get(verify::identity))
        .route("/api/query", post(query::query))
        .fallback(assets::serve)
        .with_state(state)
}

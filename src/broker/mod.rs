//! The broker: the identity's JWKS and queries to QueryMesh on behalf of who signed in.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};

use crate::sandbox::Shared;

#[derive(Clone)]
pub struct BrokerState {
    shared: Arc<Shared>,
}

impl BrokerState {
    pub fn new(shared: Arc<Shared>) -> Self {
        Self { shared }
    }
}

pub fn router(state: BrokerState) -> Router {
    Router::new().route("/v1/jwks", get(jwks)).with_state(state)
}

/// Every published key; a few minutes of caching, as the spec asks apps to keep them.
async fn jwks(State(state): State<BrokerState>) -> impl IntoResponse {
    (
        [(header::CACHE_CONTROL, "public, max-age=300")],
        Json(state.shared.identity.keys.jwks()),
    )
}

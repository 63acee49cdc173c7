//! The broker: the identity's JWKS, and queries to QueryMesh on behalf of who signed in
//! (runtime-protocol, "The Broker, from Inside the Cluster").

mod limits;
mod query;
mod refusal;
mod request;
mod trino;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};

pub use refusal::Refusal;
pub use request::QueryRequest;
pub use trino::TrinoClient;

use crate::sandbox::Shared;

#[derive(Clone)]
pub struct BrokerState {
    shared: Arc<Shared>,
    /// The platform's own concurrent-query limits, in all and per person.
    running: Arc<limits::QueryLimits>,
    trino: TrinoClient,
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BrokerStartError(String);

impl BrokerState {
    pub fn new(shared: Arc<Shared>) -> Result<Self, BrokerStartError> {
        let timeout = Duration::from_secs(shared.config.broker.querymesh_timeout_secs.into());
        let answers = trino::AnswerLimits::from_mib(shared.config.broker.max_answer_mb);
        let trino = TrinoClient::new(
            shared.http.clone(),
            &shared.querymesh_url(),
            timeout,
            answers,
        )
        .map_err(BrokerStartError)?;
        Ok(Self {
            running: limits::QueryLimits::new(
                shared.config.broker.max_concurrent_queries as usize,
                shared.config.broker.max_concurrent_queries_per_person as usize,
            ),
            shared,
            trino,
        })
    }
}

pub fn router(state: BrokerState) -> Router {
    Router::new()
        .route("/v1/jwks", get(jwks))
        .route(
            "/v1/querymesh/query",
            post(query::query).layer(DefaultBodyLimit::max(request::MAX_BODY_BYTES)),
        )
        .with_state(state)
}

/// Every published key; a few minutes of caching, as the spec asks apps to keep them.
async fn jwks(State(state): State<BrokerState>) -> impl IntoResponse {
    (
        [(header::CACHE_CONTROL, "public, max-age=300")],
        Json(state.shared.identity.keys.jwks()),
    )
}

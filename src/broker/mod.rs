//! The broker: the identity's JWKS, and queries to QueryMesh on behalf of who signed in
//! (runtime-protocol, "The Broker, from Inside the Cluster").

pub mod limits;
mod query;
mod refusal;
mod request;
mod trino;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::{Json, Router};

pub use limits::PersonLimits;
pub use refusal::{INJECTABLE_CODES, Refusal};
pub use request::QueryRequest;
pub use trino::TrinoClient;
pub use trino::{AnswerLimits, OnBehalfOf, QueryOutcome};

use crate::config::BrokerConfig;
use crate::http::HttpClient;
use crate::identity::{Audience, PublishedKeys};
use crate::oidc::OidcClient;
use crate::platform::{Faults, Journal, SessionStore, Switches};
use crate::route_table::{self, Endpoint, Verb};

/// What the broker is built from: `[broker]`, where QueryMesh is, and the platform handles it
/// uses — the identity keys' public side only, never the signing key.
pub struct BrokerParts {
    pub config: BrokerConfig,
    /// The configured Trino, or the stand-in.
    pub querymesh_url: String,
    /// The identity's published keys: what `/v1/jwks` serves and identities are checked with.
    pub identity_keys: PublishedKeys,
    /// The issuer, app and organization an identity must name.
    pub audience: Audience,
    /// Whose session a `sid` is, and its IAM access token.
    pub sessions: SessionStore,
    pub switches: Switches,
    /// The test-control API's fault rules, consulted on every query whose identity checks out.
    pub faults: Faults,
    /// Each query's outcome and each identity rejected go on record here.
    pub journal: Journal,
    /// Refreshes a session's IAM tokens when they near expiry.
    pub oidc: OidcClient,
    /// The platform's limits on queries, in all and per person; the control API changes them.
    pub limits: PersonLimits,
    pub http: HttpClient,
}

#[derive(Clone)]
pub struct BrokerState {
    parts: Arc<BrokerParts>,
    trino: TrinoClient,
}

/// Why the broker cannot be built; [`crate::sandbox::StartError`] wraps it.
#[derive(Debug, thiserror::Error)]
pub enum BrokerStartError {
    #[error("QueryMesh URL {url:?}: {source}")]
    QueryMeshUrl {
        url: String,
        source: axum::http::uri::InvalidUri,
    },
    #[error("QueryMesh URL {url:?} has no host")]
    QueryMeshUrlWithoutHost { url: String },
}

impl BrokerState {
    pub fn new(parts: BrokerParts) -> Result<Self, BrokerStartError> {
        let config = &parts.config;
        let timeout = Duration::from_secs(config.querymesh_timeout_secs.into());
        let answers = trino::AnswerLimits::from_mib(config.max_answer_mb);
        let trino = TrinoClient::new(parts.http.clone(), &parts.querymesh_url, timeout, answers)?
            .journaled(parts.journal.clone());
        Ok(Self {
            parts: Arc::new(parts),
            trino,
        })
    }

    /// Once `shutdown` turns true, the queries the broker runs are cancelled in QueryMesh (a
    /// configured Trino would otherwise run them on for nobody) and their calls answered.
    pub fn with_shutdown(mut self, shutdown: tokio::sync::watch::Receiver<bool>) -> Self {
        self.trino = self.trino.with_shutdown(shutdown);
        self
    }
}

/// A duration as a refusal's message says it ("30 s", "250 ms", "1.5 s"), not as Rust's
/// `Debug` writes it.
pub(crate) fn in_words(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

#[cfg(test)]
#[test]
fn durations_read_as_words() {
    let said = |ms| in_words(Duration::from_millis(ms));
    assert_eq!(
        (said(30_000), said(250), said(1_500)),
        ("30 s".into(), "250 ms".into(), "1.5 s".into())
    );
}

/// The spec's two operations: the one table the router is built from and [`routes`] lists.
fn endpoints() -> Vec<Endpoint<BrokerState>> {
    vec![
        Endpoint::new("/v1/jwks").on(Verb::Get, jwks),
        Endpoint::new("/v1/querymesh/query").on_layered(Verb::Post, query::query, |method| {
            method.layer(DefaultBodyLimit::max(request::MAX_BODY_BYTES))
        }),
    ]
}

/// Every (method, path) the router answers.
pub fn routes() -> Vec<(Verb, String)> {
    route_table::list(endpoints())
}

pub fn router(state: BrokerState) -> Router {
    route_table::router(endpoints(), |methods| methods).with_state(state)
}

/// Every published key; a few minutes of caching, as the spec asks apps to keep them.
async fn jwks(State(state): State<BrokerState>) -> impl IntoResponse {
    (
        [(header::CACHE_CONTROL, "public, max-age=300")],
        Json(state.parts.identity_keys.jwks()),
    )
}

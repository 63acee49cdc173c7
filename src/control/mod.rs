//! The test-control API: `/sandbox/v1/` on the broker's listener, JSON in and out, loopback
//! only. What a test suite in any language drives the platform with: sessions without a
//! browser, people, switches, fault rules scoped to everyone / one person / one session, key
//! rotation, the clock, reset (whole or per scope) and the event journal.
//!
//! # Layout
//!
//! - [`error`]: the API's own `{"code","message"}` errors, and the JSON reading that names
//!   the field at fault.
//! - `sessions`: `sessions`, `querymesh-tokens`, `people`.
//! - `faults`: `faults`.
//! - `settings`: `switches`, `keys`, `clock`, `reset`, `events`.
//! - `limits`: `limits`, the broker's per-person limits.
//! - `stream`: `events/stream`, the journal as server-sent events.
//! - `identity`: `identity/latest` and `identity/check`, decoded with the spec's five checks.
//! - `querymesh`: `querymesh/tables` (as a person sees them) and `querymesh/policies`.
//! - `console`: the page at `/sandbox/` over this API, and `endpoints`.
//! - `openapi`: `openapi.json`, this API and the broker described (OpenAPI 3.1).
//! - `guard`: who may use it: this machine, and of its web pages only the console; bodies
//!   are JSON.
//!
//! It holds no state of its own beyond what the sandbox started with: every change goes to
//! the platform core's handles, which the components read on their next request, and is put
//! on record in the journal (source `control`).

mod console;
pub mod error;
mod faults;
mod guard;
mod identity;
mod limits;
mod openapi;
mod querymesh;
mod sessions;
mod settings;
mod stream;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Uri};
use axum::routing::any;

use crate::config::Config;
use crate::iam::IamState;
use crate::identity::{IdentityIssuer, KeyRing, KeySnapshot};
use crate::platform::{
    Clock, Endpoints, Faults, Journal, NewEvent, People, SessionStore, Source, Switches,
};
use crate::route_table::{self, Endpoint, Verb};
pub use error::ApiError;

/// The base path of the API.
pub const BASE: &str = "/sandbox/v1";
/// The largest body the API reads (people and fault rules are small).
pub(crate) const MAX_BODY_BYTES: usize = 256 * 1024;

/// What the control API is built from: the configuration (what `reset` goes back to), the
/// addresses, and the platform core's handles.
pub struct ControlParts {
    pub config: Config,
    pub endpoints: Endpoints,
    /// The IAM realm's URL: the issuer of the QueryMesh tokens it hands out.
    pub realm_url: String,
    /// Where the broker sends queries (what a QueryMesh token is for).
    pub querymesh_url: String,
    /// The sandbox's one client: the QueryMesh listings go through it.
    pub http: crate::http::HttpClient,
    /// Signs the identity a new session gets, and rotates.
    pub identity: IdentityIssuer,
    /// The kids in the `NNUMBERS_IDENTITY_JWKS` the app started with.
    pub started_with_kids: Vec<String>,
    /// The identity keys that environment was made from: what `reset` goes back to.
    pub started_with_keys: KeySnapshot,
    /// The IAM's signing keys, for QueryMesh tokens.
    pub iam_keys: KeyRing,
    /// The IAM's internal side: signing in without the page, ending a person's sign-in.
    pub iam: IamState,
    pub sessions: SessionStore,
    pub switches: Switches,
    pub clock: Clock,
    pub journal: Journal,
    pub faults: Faults,
    pub people: People,
    /// The broker's limits on queries (`limits` replaces them).
    pub limits: crate::broker::PersonLimits,
    /// The data policies in words, for `querymesh/policies` (`None`: a real Trino's).
    pub data_policies: Option<Arc<crate::data_policies::DataPolicies>>,
}

#[derive(Clone)]
pub struct ControlState {
    parts: Arc<ControlParts>,
    /// The event streams' cap, and the shutdown that ends them.
    streams: stream::Streams,
    /// The Trino client the QueryMesh listings go through (`None`: the URL is not one).
    trino: Option<crate::broker::TrinoClient>,
    /// The access-control file's rules as read at start, for `querymesh/policies`.
    access_rules: Arc<serde_json::Value>,
}

impl ControlState {
    pub fn new(parts: ControlParts) -> Self {
        let trino = querymesh::client(
            parts.http.clone(),
            &parts.querymesh_url,
            parts.config.broker.querymesh_timeout_secs,
        );
        let access_rules = querymesh::load_rules(parts.config.querymesh.access_control.as_deref());
        Self {
            parts: Arc::new(parts),
            streams: stream::Streams::default(),
            trino,
            access_rules: Arc::new(access_rules),
        }
    }

    /// Event streams end when `shutdown` turns true, so they never hold up a graceful
    /// shutdown.
    pub fn with_shutdown(mut self, shutdown: tokio::sync::watch::Receiver<bool>) -> Self {
        self.streams = self.streams.with_shutdown(shutdown);
        self
    }

    /// Puts a change the API made on record.
    fn record(&self, event: NewEvent) {
        self.parts.journal.record(event);
    }
}

/// A control event: `kind`, with `details`.
fn event(kind: &'static str, details: serde_json::Value) -> NewEvent {
    NewEvent::new(Source::Control, kind).details(details)
}

/// Every endpoint: its path and what each method does there. The one table the router is
/// built from and [`routes`] lists (the OpenAPI document is checked against it).
fn endpoints() -> Vec<Endpoint<ControlState>> {
    use Verb::*;
    let api = |path: &str| Endpoint::new(format!("{BASE}{path}"));
    vec![
        api("/sessions")
            .on(Get, sessions::list)
            .on(Post, sessions::create)
            .on(Delete, sessions::end_of_person),
        api("/sessions/{sid}").on(Delete, sessions::end),
        api("/querymesh-tokens").on(Post, sessions::querymesh_token),
        api("/people")
            .on(Get, sessions::people)
            .on(Post, sessions::add_person),
        api("/people/{sub}").on(Delete, sessions::remove_person),
        api("/switches")
            .on(Get, settings::switches)
            .on(Patch, settings::set_switches),
        api("/faults")
            .on(Get, faults::list)
            .on(Post, faults::add)
            .on(Delete, faults::clear),
        api("/faults/{id}").on(Delete, faults::remove),
        api("/keys").on(Get, settings::keys),
        api("/keys/rotate").on(Post, settings::rotate_key),
        api("/clock")
            .on(Get, settings::clock)
            .on(Post, settings::advance_clock),
        api("/limits").on(Get, limits::get).on(Put, limits::put),
        api("/reset").on(Post, settings::reset),
        api("/events").on(Get, settings::events),
        api("/events/stream").on(Get, stream::stream),
        api("/identity/latest").on(Get, identity::latest),
        api("/identity/check").on(Post, identity::check),
        api("/querymesh/tables").on(Get, querymesh::tables),
        api("/querymesh/policies").on(Get, querymesh::policies),
        api("/endpoints").on(Get, console::endpoints),
        api("/openapi.json").on(Get, openapi::document),
        Endpoint::new("/sandbox").on(Get, console::to_console),
        Endpoint::new(console::CONSOLE_PATH).on(Get, console::serve),
        Endpoint::new("/sandbox/{file}").on(Get, console::serve),
    ]
}

/// Every (method, path) the router answers.
pub fn routes() -> Vec<(Verb, String)> {
    route_table::list(endpoints())
}

pub fn router(state: ControlState) -> Router {
    let listener = state.parts.endpoints.broker;
    route_table::router(endpoints(), |methods| methods.fallback(method_not_allowed))
        .route(&format!("{BASE}/{{*rest}}"), any(not_found))
        .route(BASE, any(not_found))
        .route_layer(axum::middleware::from_fn_with_state(
            listener,
            guard::only_this_machine,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(uri.path().to_string())
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::MethodNotAllowed {
        method: method.to_string(),
        path: uri.path().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::extract::{ConnectInfo, Request};
    use std::net::SocketAddr;
    use tower_service::Service;

    #[tokio::test]
    async fn a_peer_off_this_machine_is_refused_with_403() {
        let sandbox = crate::Sandbox::start(Config::builtin().with_ephemeral_ports())
            .await
            .expect("starts");
        let mut router = router(ControlState::new(sandbox.control_parts()));
        for (peer, status) in [("192.0.2.7:5000", 403), ("127.0.0.1:5000", 200)] {
            let mut request = Request::get(format!("{BASE}/switches"))
                .body(axum::body::Body::empty())
                .expect("a request");
            let peer: SocketAddr = peer.parse().expect("an address");
            request.extensions_mut().insert(ConnectInfo(peer));
            let response = router.call(request).await.expect("infallible");
            assert_eq!(response.status(), status, "{peer}");
            if status == 403 {
                let body = axum::body::to_bytes(response.into_body(), 1 << 16)
                    .await
                    .expect("a body");
                let body: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
                assert_eq!(body["code"], "NOT_LOOPBACK");
                assert!(
                    body["message"]
                        .as_str()
                        .is_some_and(|m| m.contains("192.0.2.7"))
                );
            }
        }
        sandbox.shutdown().await;
    }
}

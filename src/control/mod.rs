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
//!
//! It holds no state of its own beyond what the sandbox started with: every change goes to
//! the platform core's handles, which the components read on their next request, and is put
//! on record in the journal (source `control`).

mod console;
pub mod error;
mod faults;
mod identity;
mod limits;
mod querymesh;
mod sessions;
mod settings;
mod stream;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request};
use axum::http::{Method, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, any, delete, get, post};

use crate::config::Config;
use crate::iam::IamState;
use crate::identity::{IdentityIssuer, KeyRing};
use crate::platform::{
    Clock, Endpoints, Faults, Journal, NewEvent, People, SessionStore, Source, Switches,
};
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

pub fn router(state: ControlState) -> Router {
    let route = |r: MethodRouter<ControlState>| r.fallback(method_not_allowed);
    Router::new()
        .route(
            &format!("{BASE}/sessions"),
            route(
                get(sessions::list)
                    .post(sessions::create)
                    .delete(sessions::end_of_person),
            ),
        )
        .route(
            &format!("{BASE}/sessions/{{sid}}"),
            route(delete(sessions::end)),
        )
        .route(
            &format!("{BASE}/querymesh-tokens"),
            route(post(sessions::querymesh_token)),
        )
        .route(
            &format!("{BASE}/people"),
            route(get(sessions::people).post(sessions::add_person)),
        )
        .route(
            &format!("{BASE}/people/{{sub}}"),
            route(delete(sessions::remove_person)),
        )
        .route(
            &format!("{BASE}/switches"),
            route(get(settings::switches).patch(settings::set_switches)),
        )
        .route(
            &format!("{BASE}/faults"),
            route(get(faults::list).post(faults::add).delete(faults::clear)),
        )
        .route(
            &format!("{BASE}/faults/{{id}}"),
            route(delete(faults::remove)),
        )
        .route(&format!("{BASE}/keys"), route(get(settings::keys)))
        .route(
            &format!("{BASE}/keys/rotate"),
            route(post(settings::rotate_key)),
        )
        .route(
            &format!("{BASE}/clock"),
            route(get(settings::clock).post(settings::advance_clock)),
        )
        .route(
            &format!("{BASE}/limits"),
            route(get(limits::get).put(limits::put)),
        )
        .route(&format!("{BASE}/reset"), route(post(settings::reset)))
        .route(&format!("{BASE}/events"), route(get(settings::events)))
        .route(&format!("{BASE}/events/stream"), route(get(stream::stream)))
        .route(
            &format!("{BASE}/identity/latest"),
            route(get(identity::latest)),
        )
        .route(
            &format!("{BASE}/identity/check"),
            route(post(identity::check)),
        )
        .route(
            &format!("{BASE}/querymesh/tables"),
            route(get(querymesh::tables)),
        )
        .route(
            &format!("{BASE}/querymesh/policies"),
            route(get(querymesh::policies)),
        )
        .route(&format!("{BASE}/endpoints"), route(get(console::endpoints)))
        .route("/sandbox", get(console::to_console))
        .route(console::CONSOLE_PATH, get(console::serve))
        .route("/sandbox/{file}", get(console::serve))
        .route(&format!("{BASE}/{{*rest}}"), any(not_found))
        .route(BASE, any(not_found))
        .route_layer(axum::middleware::from_fn(loopback_only))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// The API changes what every test sees: only this machine may use it. The listeners bind
/// loopback already; this holds even if one is ever bound wider. A browser on this machine is
/// a peer on loopback too, so a request a web page sent (it carries another `Origin`) or one
/// for a name that is not loopback (DNS rebinding: another site's name resolving to 127.0.0.1)
/// is refused as well.
async fn loopback_only(request: Request, next: Next) -> Response {
    match request.extensions().get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(peer)) if peer.ip().is_loopback() => {}
        Some(ConnectInfo(peer)) => {
            return ApiError::NotLoopback(peer.ip().to_string()).into_response();
        }
        None => return ApiError::NotLoopback("an unknown peer".into()).into_response(),
    }
    let headers = request.headers();
    let host = headers
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()));
    if let Some(host) = host
        && !is_loopback_authority(&host)
    {
        return ApiError::ForeignOrigin(format!("host {host:?}")).into_response();
    }
    let origin = headers
        .get(header::ORIGIN)
        .map(|o| String::from_utf8_lossy(o.as_bytes()));
    if let Some(origin) = origin {
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        if !authority.is_some_and(is_loopback_authority) {
            return ApiError::ForeignOrigin(format!("origin {origin:?}")).into_response();
        }
    }
    next.run(request).await
}

/// Whether `authority` (`host[:port]`) names this machine's loopback.
fn is_loopback_authority(authority: &str) -> bool {
    let host = match authority.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
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
    use tower_service::Service;

    #[test]
    fn only_loopback_names_are_loopback_authorities() {
        for yes in [
            "127.0.0.1:4001",
            "localhost",
            "LOCALHOST:1",
            "[::1]:4001",
            "127.1.2.3",
        ] {
            assert!(is_loopback_authority(yes), "{yes}");
        }
        for no in [
            "evil.example:4001",
            "10.0.0.1",
            "[2001:db8::1]:80",
            "localhost.evil.example",
            "",
        ] {
            assert!(!is_loopback_authority(no), "{no}");
        }
    }

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

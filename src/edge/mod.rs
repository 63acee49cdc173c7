//! The app's address: the reserved `/.nnumbers/` paths and the reverse proxy to the app.
//!
//! # Layout
//!
//! - [`auth`]: the spec's reserved paths (login, callback, logout, session, context), with
//!   [`pending`] (sign-ins in flight), [`return_to`], [`origin`] and [`id_token`].
//! - [`proxy`]: everything else goes to the app, with the header hygiene of the spec
//!   ([`headers`]) and the identity of [`identity_header`] for whoever [`visitor`] finds
//!   signed in, to [`app_target`] on the thread's own connections ([`app_pool`]: hyper's, or
//!   for body-less requests to a plain-HTTP app the edge's own [`app_exchange`]); the bodies
//!   pass through as [`upstream`]'s.
//! - [`front`]: what each of the edge's threads serves: the app's paths straight to the proxy
//!   on hyper, the rest through the router.
//! - [`cookie`]: the platform session cookie; [`error`] and [`app_down`]: the edge's own pages.

mod app_down;
mod app_exchange;
mod app_pool;
mod app_target;
pub mod auth;
pub mod cookie;
mod error;
mod front;
mod headers;
mod id_token;
pub mod identity_header;
mod origin;
mod pending;
mod proxy;
pub mod reserved;
mod return_to;
mod upstream;
mod visitor;

pub use front::{EdgeFront, EdgeHandshake};

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};

use self::app_pool::AppPool;
use self::app_target::AppTarget;
use crate::config::{OrganizationConfig, Person};
use crate::http::HttpClient;
use crate::identity::{IdentityIssuer, PublishedKeys};
use crate::oidc::OidcClient;
use crate::platform::{Journal, SessionStore};
use crate::reserved_paths::{CALLBACK_PATH, CONTEXT_PATH, LOGIN_PATH, LOGOUT_PATH, SESSION_PATH};

/// The least the edge waits for the app to start answering (its status line and headers)
/// before it gives up with 504 Gateway Timeout (RFC 9110 §15.6.5). Sixty seconds, nginx's
/// `proxy_read_timeout`, outlasts a dev server compiling a page on first request; a body
/// that is already streaming (SSE, a download) is never cut.
pub const APP_RESPONSE_TIMEOUT: Duration = Duration::from_secs(60);

/// Time an app needs beyond the broker's own QueryMesh timeout to relay the broker's answer.
const BROKER_ANSWER_MARGIN: Duration = Duration::from_secs(30);

/// The edge's wait for `config`: an app request that waits on a broker query must get the
/// broker's own answer (503 QUERYMESH_UNAVAILABLE after `broker.querymesh_timeout_secs`), not
/// the edge's 504 first.
pub fn app_response_timeout_for(config: &crate::config::Config) -> Duration {
    let broker = Duration::from_secs(u64::from(config.broker.querymesh_timeout_secs));
    APP_RESPONSE_TIMEOUT.max(broker + BROKER_ANSWER_MARGIN)
}

/// What the edge is built from: its part of the configuration and the platform handles it
/// uses, nothing more.
pub struct EdgeParts {
    /// The edge's own port: its pages' origin, and the callback it registers with the IAM.
    pub port: u16,
    /// Where the edge forwards: `--app`, or the built-in demo app.
    pub app_url: String,
    /// `app.id`, for `/.nnumbers/v1/context`.
    pub app_id: String,
    /// The organization's id and slug, for the session and context answers.
    pub organization: OrganizationConfig,
    /// The configured people: a signed-in person keeps their groups and attributes.
    pub people: Vec<Person>,
    /// See [`app_response_timeout_for`].
    pub app_response_timeout: Duration,
    pub sessions: SessionStore,
    /// Signs the identity the app receives.
    pub identity: IdentityIssuer,
    /// The platform's client of the organization IAM (code exchange, refresh).
    pub oidc: OidcClient,
    /// The IAM's published keys, which sign the ID token of a sign-in.
    pub iam_keys: PublishedKeys,
    /// The platform's client: each edge thread's connections to the app are a pool of their
    /// own beside it, with its TLS set-up ([`EdgeState::for_thread`]).
    pub http: HttpClient,
    /// Sessions started and ended, and logouts refused, go on record here.
    pub journal: Journal,
}

#[derive(Clone)]
pub struct EdgeState {
    parts: Arc<EdgeParts>,
    pending: pending::PendingLogins,
    /// [`app_response_timeout_for`] in milliseconds; shared by every clone so a test can
    /// shorten it.
    app_response_timeout_ms: Arc<AtomicU64>,
    /// This edge's `Via` entry (RFC 9110 §7.6.3), with a random pseudonym: seeing it on an
    /// incoming request means the app URL leads back to this edge.
    via: axum::http::HeaderValue,
    /// The app's URL, parsed once.
    app: Arc<AppTarget>,
    /// This thread's connections to the app (see [`Self::for_thread`]).
    app_client: AppPool,
}

impl EdgeState {
    pub fn new(parts: EdgeParts) -> Self {
        let timeout = parts.app_response_timeout;
        let app = AppTarget::new(&parts.app_url);
        Self {
            app_client: AppPool::new(parts.http.connector(), app.origin()),
            app: Arc::new(app),
            parts: Arc::new(parts),
            pending: pending::PendingLogins::default(),
            app_response_timeout_ms: Arc::new(AtomicU64::new(
                u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
            )),
            via: axum::http::HeaderValue::from_str(&format!(
                "1.1 zero-sandbox-{:016x}",
                rand::random::<u64>()
            ))
            .unwrap_or_else(|_| axum::http::HeaderValue::from_static("1.1 zero-sandbox")),
        }
    }

    /// The state for one of the edge's threads: shared but for its connections to the app,
    /// so a request and the app's connection answering it are driven by one thread.
    pub fn for_thread(&self) -> Self {
        Self {
            app_client: AppPool::new(self.parts.http.connector(), self.app.origin()),
            ..self.clone()
        }
    }

    /// This thread's connections to the app, for the process to close when it goes quiet.
    pub fn app_connections(&self) -> Box<dyn crate::http::IdleConnections> {
        Box::new(self.app_client.clone())
    }

    /// How long the proxy waits for the app's response headers.
    pub fn app_response_timeout(&self) -> Duration {
        Duration::from_millis(self.app_response_timeout_ms.load(Ordering::Relaxed))
    }

    /// Changes [`Self::app_response_timeout`] for the next requests (tests live through a
    /// silent app without waiting a minute).
    pub fn set_app_response_timeout(&self, timeout: Duration) {
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        self.app_response_timeout_ms.store(ms, Ordering::Relaxed);
    }
}

/// How many threads serve the edge: one per two cores, up to [`MAX_THREADS`]. Not one per
/// core, as nginx's `worker_processes auto`: on a developer's machine the app and whatever
/// loads it run beside the edge. On 2 cores with the app and wrk beside it, two threads cost
/// 17–20 µs of CPU per request with p99 spikes of 2–3 ms where one cost 15.5 µs with p99
/// under 0.7 ms (docs/benchmarks.md).
pub fn threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    (cores / 2).clamp(1, MAX_THREADS)
}

/// Enough for a developer's browser and a load test on a laptop; a test process runs many
/// sandboxes at once, each with its threads.
const MAX_THREADS: usize = 4;

pub fn router(state: EdgeState) -> Router {
    let routes = Router::new()
        .route(LOGIN_PATH, get(auth::login))
        .route(CALLBACK_PATH, get(auth::callback))
        .route(LOGOUT_PATH, post(auth::logout))
        .route(SESSION_PATH, get(auth::session))
        .route(CONTEXT_PATH, get(auth::context))
        .method_not_allowed_fallback(auth::method_not_allowed)
        .fallback(proxy::routed)
        .with_state(state);
    // A layer runs after its router has routed, so the outer router routes nothing: its
    // layer rewrites an equivalent spelling of a platform path before `routes` sees it.
    Router::new()
        .fallback_service(routes)
        .layer(axum::middleware::map_request(reserved::normalise_request))
}

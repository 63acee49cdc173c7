//! The stand-in's server: Trino's client protocol over HTTP, in front of the [`engine`].
//!
//! # Layout
//!
//! - this file: [`QueryMeshState`] built from [`QueryMeshParts`], and [`router`].
//! - `statement`: the protocol's HTTP handlers; [`protocol`]: its JSON shapes and ids.
//! - [`auth`]: bearer tokens checked like Trino's JWT authenticator, yielding the engine's
//!   [`User`] that the access-control rules judge.
//! - `executor`: queries on a blocking pool, their time limit, cancel, and paging.
//! - `prepared_statements`: PREPARE / EXECUTE / DEALLOCATE carried in the client's headers.
//! - [`tls`]: one port for plain HTTP and HTTPS, and the stand-in's certificate.
//!
//! [`engine`]: crate::querymesh::engine
//! [`User`]: crate::querymesh::engine::User

pub mod auth;
mod executor;
mod legacy_datetime;
mod prepared_statements;
pub mod protocol;
mod statement;
pub mod tls;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::HeaderMap;
use axum::routing::{get, post};

use self::auth::{Authenticator, KeySource};
use self::executor::Executor;
use crate::config::QueryMeshConfig;
use crate::http::HttpClient;
use crate::oidc::RealmEndpoints;
use crate::platform::Journal;
use crate::querymesh::engine::access::{AccessControl, AccessRulesError};
use crate::querymesh::engine::system_catalog::{QueryRow, RuntimeInfo};
use crate::querymesh::engine::{Engine, EngineError};

pub use self::auth::WWW_AUTHENTICATE;

#[derive(Debug, thiserror::Error)]
pub enum QueryMeshStartError {
    #[error("cannot load the data: {0}")]
    Engine(#[from] EngineError),
    #[error(transparent)]
    AccessRules(#[from] AccessRulesError),
    #[error(transparent)]
    ResourceGroups(#[from] executor::resource_groups::ResourceGroupsError),
}

/// What the stand-in is built from: `[querymesh]`, its own address, the IAM realm whose tokens
/// it trusts, and its engine — nothing about people or identity keys.
pub struct QueryMeshParts {
    pub config: QueryMeshConfig,
    /// The listener's address, for `nextUri` when a client sends no usable `Host`.
    pub addr: SocketAddr,
    /// The IAM realm's URL: the issuer of the tokens accepted, and where its keys are.
    pub realm_url: String,
    /// Fetches the realm's keys.
    pub http: HttpClient,
    /// Opened by the assembler from `[querymesh]` and the state directory ([`Engine::open`]).
    pub engine: Arc<Engine>,
    /// Where the stand-in records what it decided (Trino's event listener's place): completed
    /// queries and governance decisions, never the SQL text or a token.
    pub journal: Journal,
}

#[derive(Clone)]
pub struct QueryMeshState {
    inner: Arc<Inner>,
}

struct Inner {
    /// The listener's address ([`QueryMeshParts::addr`]).
    addr: SocketAddr,
    /// What `system.runtime` shows of this server; the engine holds it weakly.
    _runtime: Arc<dyn RuntimeInfo>,
    auth: Authenticator,
    access: Arc<AccessControl>,
    executor: Arc<Executor>,
    journal: Journal,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.executor.stop_all();
    }
}

impl QueryMeshState {
    /// The stand-in as it runs: tokens verified by the keys the IAM publishes at its JWKS URL.
    pub fn new(parts: QueryMeshParts) -> Result<Self, QueryMeshStartError> {
        let source = KeySource::Url {
            url: RealmEndpoints::new(&parts.realm_url).certs,
            http: parts.http.clone(),
        };
        Self::with_key_source(parts, source)
    }

    /// The stand-in with the IAM's keys taken from `source`.
    pub fn with_key_source(
        parts: QueryMeshParts,
        source: KeySource,
    ) -> Result<Self, QueryMeshStartError> {
        let config = &parts.config;
        let access = match &config.access_control {
            Some(path) => AccessControl::load_for(path, parts.engine.catalogs())?,
            None => AccessControl::allow_all(),
        };
        let time_limit = Duration::from_secs(u64::from(config.query_time_limit_secs));
        // Without a file: Trino's per-user groups, `global.${USER}`, from the per-person keys.
        let groups = match &config.resource_groups {
            Some(path) => executor::resource_groups::ResourceGroups::load(path)?,
            None => executor::Limits {
                running: executor::MAX_RUNNING,
                running_per_person: config.max_running_queries_per_person as usize,
                queued_per_person: config.max_queued_queries_per_person as usize,
                queued: executor::MAX_QUEUED,
            }
            .into(),
        };
        let engine = parts.engine;
        let access = Arc::new(access);
        let executor = Executor::new(engine.clone(), time_limit, groups, parts.journal.clone());
        let runtime: Arc<dyn RuntimeInfo> = Arc::new(ServerRuntime {
            executor: Arc::downgrade(&executor),
            access: access.clone(),
            http_uri: format!("http://{}", parts.addr),
        });
        engine.runtime().install(Arc::downgrade(&runtime));
        Ok(Self {
            inner: Arc::new(Inner {
                auth: Authenticator::new(source, parts.realm_url),
                access,
                executor,
                _runtime: runtime,
                addr: parts.addr,
                journal: parts.journal,
            }),
        })
    }

    fn auth(&self) -> &Authenticator {
        &self.inner.auth
    }

    fn access(&self) -> &Arc<AccessControl> {
        &self.inner.access
    }

    fn executor(&self) -> &Arc<Executor> {
        &self.inner.executor
    }

    fn journal(&self) -> &Journal {
        &self.inner.journal
    }

    /// The origin clients reached us at, for `nextUri` and `infoUri`: the scheme of their
    /// connection (Trino builds these from the request URI, so an HTTPS client stays on
    /// HTTPS) and the `Host` they sent when it is a plain host[:port], else the listener's
    /// own address.
    fn base_url(&self, headers: &HeaderMap, extensions: &axum::http::Extensions) -> String {
        let scheme = extensions
            .get::<axum::extract::ConnectInfo<tls::Transport>>()
            .map_or(tls::Transport::Http, |info| info.0)
            .scheme();
        let host = headers
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|h| {
                !h.is_empty()
                    && h.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
            });
        match host {
            Some(host) => format!("{scheme}://{host}"),
            None => format!("{scheme}://{}", self.inner.addr),
        }
    }
}

/// What `system.runtime` shows of this server: its address and its queries, each person's
/// filtered as the access rules decide.
struct ServerRuntime {
    executor: std::sync::Weak<Executor>,
    access: Arc<AccessControl>,
    http_uri: String,
}

impl RuntimeInfo for ServerRuntime {
    fn http_uri(&self) -> String {
        self.http_uri.clone()
    }

    fn queries(&self) -> Vec<QueryRow> {
        self.executor
            .upgrade()
            .map(|e| e.query_rows())
            .unwrap_or_default()
    }

    fn may_view_queries_of(&self, viewer: &str, owner: &str) -> bool {
        self.access.may_view_queries_of(viewer, owner)
    }
}

pub fn router(state: QueryMeshState) -> Router {
    Router::new()
        .route(
            protocol::STATEMENT_PATH,
            post(statement::post_statement).layer(DefaultBodyLimit::max(statement::MAX_BODY_BYTES)),
        )
        .route(
            &format!("{}/{{id}}/{{slug}}/{{token}}", protocol::EXECUTING_PATH),
            get(statement::get_page).delete(statement::delete_query),
        )
        .route(
            &format!("{}/{{id}}", protocol::QUERY_PATH),
            get(statement::query_info).delete(statement::kill_query),
        )
        .route(protocol::INFO_PATH, get(statement::info_page))
        .route("/v1/info", get(statement::server_info))
        .with_state(state)
}

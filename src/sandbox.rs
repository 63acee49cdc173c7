//! Starting and stopping the whole sandbox.
//!
//! Every listener is bound first, so its address is reserved and known; then each component is
//! built with the real addresses of the others; then all serve until shutdown.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use serde::Serialize;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::http::HttpClient;
use crate::identity::{
    Audience, IAM_KEY_FILE, IDENTITY_KEY_FILE, IdentityIssuer, KeyError, KeyRing,
};
use crate::oidc::OidcClient;
use crate::session::SessionStore;
use crate::{broker, demo, edge, iam, listener, querymesh};

/// How long shutdown waits for open connections before closing them.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(500);

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot listen for the {component} on 127.0.0.1:{port}: {source}{hint}")]
    Bind {
        component: &'static str,
        port: u16,
        source: std::io::Error,
        hint: &'static str,
    },
    #[error(transparent)]
    Keys(#[from] KeyError),
    #[error("the {component} could not start: {message}")]
    Component {
        component: &'static str,
        message: String,
    },
}

/// Where each component listens.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Endpoints {
    pub edge: SocketAddr,
    pub broker: SocketAddr,
    pub iam: SocketAddr,
    pub querymesh: SocketAddr,
}

impl Endpoints {
    pub fn edge_url(&self) -> String {
        format!("http://{}", self.edge)
    }
    pub fn broker_url(&self) -> String {
        format!("http://{}", self.broker)
    }
    pub fn iam_url(&self) -> String {
        format!("http://{}", self.iam)
    }
    pub fn querymesh_url(&self) -> String {
        format!("http://{}", self.querymesh)
    }
}

/// Switches a running sandbox can flip, taking effect on the next request.
#[derive(Debug)]
pub struct Switches {
    /// The organization's QueryMesh integration is configured and on.
    pub querymesh_configured: AtomicBool,
    /// The app's querymesh capability is on.
    pub querymesh_enabled: AtomicBool,
    /// The realm grants the QueryMesh scope in new access tokens.
    pub querymesh_scope: AtomicBool,
    /// The broker has identity keys to verify with (off: 503 APPLICATION_IDENTITY_NOT_READY).
    pub identity_keys_available: AtomicBool,
}

impl Switches {
    fn from_config(config: &Config) -> Self {
        Self {
            querymesh_configured: AtomicBool::new(config.querymesh.configured),
            querymesh_enabled: AtomicBool::new(config.querymesh.enabled),
            querymesh_scope: AtomicBool::new(config.querymesh.scope),
            identity_keys_available: AtomicBool::new(true),
        }
    }

    pub fn get(flag: &AtomicBool) -> bool {
        flag.load(Ordering::SeqCst)
    }

    pub fn set(flag: &AtomicBool, on: bool) {
        flag.store(on, Ordering::SeqCst)
    }
}

/// The state all components may read: configuration, addresses, keys, sessions, switches.
pub struct Shared {
    pub config: Config,
    pub endpoints: Endpoints,
    /// Signs the identity the edge hands the app; its JWKS is what the broker publishes.
    pub identity: IdentityIssuer,
    /// The organization IAM's own signing keys.
    pub iam_keys: KeyRing,
    pub sessions: SessionStore,
    pub switches: Switches,
    /// Where the edge forwards: `--app`, or the built-in demo app.
    pub app_url: String,
    pub http: HttpClient,
    /// The platform's client of the organization IAM (code exchange, refresh).
    pub oidc: OidcClient,
}

impl Shared {
    /// The IAM realm's URL: the issuer of its tokens and the `iam` claim.
    pub fn realm_url(&self) -> String {
        realm_url(&self.endpoints, &self.config)
    }

    /// Where QueryMesh is: the configured Trino, or the stand-in.
    pub fn querymesh_url(&self) -> String {
        self.config
            .querymesh
            .url
            .clone()
            .unwrap_or_else(|| self.endpoints.querymesh_url())
    }

    pub fn env(&self) -> SandboxEnv {
        SandboxEnv::new(
            &self.config,
            &self.identity.keys,
            &self.endpoints.broker_url(),
        )
    }
}

fn realm_url(endpoints: &Endpoints, config: &Config) -> String {
    format!(
        "{}/realms/{}",
        endpoints.iam_url(),
        config.organization.slug
    )
}

/// The `NNUMBERS_*` environment an app runs with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SandboxEnv {
    #[serde(rename = "NNUMBERS_APP_ID")]
    pub app_id: String,
    #[serde(rename = "NNUMBERS_ORG_ID")]
    pub org_id: String,
    #[serde(rename = "NNUMBERS_IDENTITY_ISSUER")]
    pub identity_issuer: String,
    /// The JWKS JSON itself.
    #[serde(rename = "NNUMBERS_IDENTITY_JWKS")]
    pub identity_jwks: String,
    #[serde(rename = "NNUMBERS_BROKER_URL")]
    pub broker_url: String,
}

impl SandboxEnv {
    pub fn new(config: &Config, keys: &KeyRing, broker_url: &str) -> Self {
        Self {
            app_id: config.app.id.clone(),
            org_id: config.organization.id.clone(),
            identity_issuer: config.identity.issuer.clone(),
            identity_jwks: keys.jwks().to_json(),
            broker_url: broker_url.to_string(),
        }
    }

    pub fn vars(&self) -> [(&'static str, &str); 5] {
        [
            ("NNUMBERS_APP_ID", &self.app_id),
            ("NNUMBERS_ORG_ID", &self.org_id),
            ("NNUMBERS_IDENTITY_ISSUER", &self.identity_issuer),
            ("NNUMBERS_IDENTITY_JWKS", &self.identity_jwks),
            ("NNUMBERS_BROKER_URL", &self.broker_url),
        ]
    }

    /// `KEY='value'` lines; single quotes keep the JWKS JSON intact for dotenv parsers.
    pub fn to_dotenv(&self) -> String {
        self.vars()
            .iter()
            .map(|(k, v)| format!("{k}={}\n", shell_quote(v)))
            .collect()
    }

    pub fn to_shell(&self) -> String {
        self.vars()
            .iter()
            .map(|(k, v)| format!("export {k}={}\n", shell_quote(v)))
            .collect()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

fn shell_quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

/// The identity and IAM key rings for `config`: persisted in its state directory, or in memory.
pub fn open_keys(config: &Config) -> Result<(KeyRing, KeyRing), KeyError> {
    match &config.state_dir {
        Some(dir) => Ok((
            KeyRing::open(dir, IDENTITY_KEY_FILE)?,
            KeyRing::open(dir, IAM_KEY_FILE)?,
        )),
        None => Ok((KeyRing::ephemeral(), KeyRing::ephemeral())),
    }
}

async fn bind(component: &'static str, port: u16) -> Result<TcpListener, StartError> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, port))
        .await
        .map_err(|source| StartError::Bind {
            component,
            port,
            hint: if source.kind() == std::io::ErrorKind::AddrInUse {
                " (another program uses this port: stop it, or choose another port with --*-port or [ports] in zero-sandbox.toml; 0 picks a free one)"
            } else {
                ""
            },
            source,
        })
}

/// A running sandbox. Dropping it without [`Sandbox::shutdown`] stops the listeners too.
pub struct Sandbox {
    shared: Arc<Shared>,
    /// The IAM's handle, for its internal API (ending SSO sessions).
    iam: iam::IamState,
    /// The edge's handle, for its tunables (the app response timeout).
    edge: edge::EdgeState,
    /// The authority that signed the QueryMesh port's TLS certificate (DER).
    querymesh_certificate: Vec<u8>,
    shutdown: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Sandbox {
    /// Binds every listener, builds every component, serves, and returns once all accept.
    pub async fn start(config: Config) -> Result<Self, StartError> {
        let (identity_keys, iam_keys) = open_keys(&config)?;

        let edge_listener = bind("edge", config.ports.edge).await?;
        let broker_listener = bind("broker", config.ports.broker).await?;
        let iam_listener = bind("IAM", config.ports.iam).await?;
        let querymesh_listener = bind("QueryMesh stand-in", config.ports.querymesh).await?;
        let local = |l: &TcpListener, component| {
            l.local_addr().map_err(|e| StartError::Component {
                component,
                message: e.to_string(),
            })
        };
        let endpoints = Endpoints {
            edge: local(&edge_listener, "edge")?,
            broker: local(&broker_listener, "broker")?,
            iam: local(&iam_listener, "IAM")?,
            querymesh: local(&querymesh_listener, "QueryMesh stand-in")?,
        };

        let (shutdown, _) = watch::channel(false);
        let mut tasks = Vec::new();
        // The demo app's listener is bound now (its URL is the app URL), but its router is
        // built once the environment it needs (JWKS, broker URL) exists.
        let mut demo_listener = None;
        let app_url = match &config.app.url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => {
                let listener = bind("demo app", 0).await?;
                let url = format!("http://{}", local(&listener, "demo app")?);
                demo_listener = Some(listener);
                url
            }
        };

        let http = crate::http::client();
        let shared = Arc::new(Shared {
            oidc: OidcClient::new(http.clone(), &realm_url(&endpoints, &config)),
            http,
            identity: IdentityIssuer {
                keys: identity_keys,
                audience: Audience::from_config(&config),
                iam_issuer: realm_url(&endpoints, &config),
            },
            switches: Switches::from_config(&config),
            iam_keys,
            sessions: SessionStore::default(),
            endpoints,
            app_url,
            config,
        });

        if let Some(listener) = demo_listener {
            let demo = demo::router(demo::DemoConfig {
                env: shared.env(),
                http: shared.http.clone(),
            });
            tasks.push(serve(
                "demo app",
                listener,
                demo,
                &shared.config.listeners,
                shutdown.subscribe(),
            ));
        }

        let component = |component, e: String| StartError::Component {
            component,
            message: e,
        };
        let querymesh = querymesh::QueryMeshState::new(shared.clone())
            .map_err(|e| component("QueryMesh stand-in", e.to_string()))?;
        let broker = broker::BrokerState::new(shared.clone())
            .map_err(|e| component("broker", e.to_string()))?;
        let iam = iam::IamState::new(shared.clone());
        let edge = edge::EdgeState::new(shared.clone());
        let limits = &shared.config.listeners;
        let routers = [
            ("edge", edge_listener, edge::router(edge.clone())),
            ("broker", broker_listener, broker::router(broker)),
            ("IAM", iam_listener, iam::router(iam.clone())),
        ];
        for (name, listener, router) in routers {
            tasks.push(serve(name, listener, router, limits, shutdown.subscribe()));
        }
        let (acceptor, querymesh_certificate) =
            querymesh::tls::acceptor(shared.config.state_dir.as_deref())
                .map_err(|e| component("QueryMesh stand-in", e.to_string()))?;
        tasks.push(listener::serve(
            querymesh_listener,
            querymesh::tls::PlainOrTls::new(acceptor),
            querymesh::router(querymesh),
            limits.clone(),
            busy("QueryMesh stand-in", limits.max_connections),
            shutdown.subscribe(),
        ));

        let sandbox = Self {
            shared,
            iam,
            edge,
            querymesh_certificate,
            shutdown,
            tasks,
        };
        sandbox.wait_until_accepting().await?;
        Ok(sandbox)
    }

    /// Connects to every listener once: only then is the sandbox ready.
    async fn wait_until_accepting(&self) -> Result<(), StartError> {
        let e = self.shared.endpoints;
        for (component, addr) in [
            ("edge", e.edge),
            ("broker", e.broker),
            ("IAM", e.iam),
            ("QueryMesh stand-in", e.querymesh),
        ] {
            tokio::net::TcpStream::connect(addr)
                .await
                .map_err(|err| StartError::Component {
                    component,
                    message: format!("does not accept connections on {addr}: {err}"),
                })?;
        }
        Ok(())
    }

    pub fn endpoints(&self) -> &Endpoints {
        &self.shared.endpoints
    }

    /// The certificate (DER) of the authority that signed the QueryMesh port's certificate
    /// for 127.0.0.1 and localhost: what an HTTPS client trusts to verify it. Kept in the state
    /// directory as `querymesh-ca.pem`; without one, new for each run.
    pub fn querymesh_certificate(&self) -> &[u8] {
        &self.querymesh_certificate
    }

    /// [`Sandbox::querymesh_certificate`] as PEM, as most clients read a certificate file.
    pub fn querymesh_certificate_pem(&self) -> String {
        querymesh::tls::pem("CERTIFICATE", &self.querymesh_certificate)
    }

    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    pub fn env(&self) -> SandboxEnv {
        self.shared.env()
    }

    /// The organization IAM: end a person's SSO sessions, move its clock in tests.
    pub fn iam(&self) -> &iam::IamState {
        &self.iam
    }

    /// The edge: shorten how long it waits for a silent app, in tests.
    pub fn edge(&self) -> &edge::EdgeState {
        &self.edge
    }

    /// The one line `--ready-json` prints, `event` first.
    pub fn ready_json(&self) -> String {
        #[derive(Serialize)]
        struct Ready {
            event: &'static str,
            edge: String,
            broker: String,
            iam: String,
            querymesh: String,
            env: SandboxEnv,
        }
        let e = &self.shared.endpoints;
        serde_json::to_string(&Ready {
            event: "ready",
            edge: e.edge_url(),
            broker: e.broker_url(),
            iam: e.iam_url(),
            querymesh: e.querymesh_url(),
            env: self.env(),
        })
        .unwrap_or_default()
    }

    /// Stops accepting, gives open connections a moment, then closes them.
    pub async fn shutdown(mut self) {
        let _ = self.shutdown.send(true);
        let tasks = std::mem::take(&mut self.tasks);
        let aborts: Vec<_> = tasks.iter().map(|t| t.abort_handle()).collect();
        let all = futures_util::future::join_all(tasks);
        if tokio::time::timeout(SHUTDOWN_GRACE, all).await.is_err() {
            for abort in aborts {
                abort.abort();
            }
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// What each listener answers past its connection cap, in its component's own error shape
/// (see [`listener::Busy`]).
fn busy(component: &'static str, limit: usize) -> listener::Busy {
    let why = format!("The {component} is serving its limit of {limit} connections at once");
    let json = |value: serde_json::Value| listener::Busy {
        content_type: "application/json",
        body: value.to_string(),
    };
    match component {
        // The spec's 503 for "the platform is at its query limit".
        "broker" => {
            let refusal = broker::Refusal::QueryMeshUnavailable(why);
            json(serde_json::json!({ "code": refusal.code(), "message": refusal.message() }))
        }
        // RFC 6749 §4.1.2.1's code for an authorization server that is overloaded.
        "IAM" => json(serde_json::json!({
            "error": "temporarily_unavailable",
            "error_description": format!("{why}; repeat in a moment"),
        })),
        "edge" => json(serde_json::json!({
            "code": "TOO_MANY_CONNECTIONS",
            "message": format!("{why}; repeat in a moment, or close idle connections"),
        })),
        // Trino answers its HTTP-level refusals in plain text.
        _ => listener::Busy {
            content_type: "text/plain; charset=utf-8",
            body: format!("{why}; repeat in a moment"),
        },
    }
}

fn serve(
    component: &'static str,
    listener: TcpListener,
    router: Router,
    limits: &listener::Limits,
    shutdown: watch::Receiver<bool>,
) -> JoinHandle<()> {
    let busy = busy(component, limits.max_connections);
    listener::serve(
        listener,
        listener::Plain,
        router,
        limits.clone(),
        busy,
        shutdown,
    )
}

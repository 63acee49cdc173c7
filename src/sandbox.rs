//! Starting and stopping the whole sandbox.
//!
//! Every listener is bound first, so its address is reserved and known; then each component is
//! built with the real addresses of the others; then all serve until shutdown.

use std::net::Ipv4Addr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use serde::Serialize;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::data_policies::DataPolicies;
use crate::http::HttpClient;
use crate::identity::{
    Audience, IAM_KEY_FILE, IDENTITY_KEY_FILE, IdentityIssuer, KeyError, KeyRing,
};
use crate::oidc::OidcClient;
use crate::platform::{
    Clock, Endpoints, Faults, Journal, People, SandboxEnv, SessionStore, Switches,
};
use crate::querymesh::engine::Engine;
use crate::{broker, control, demo, edge, iam, listener, querymesh};

/// How long shutdown waits for open connections before closing them.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(500);

/// Why the sandbox did not start: the one start error, wrapping each component's own.
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
    /// A bound listener cannot say its own address.
    #[error("the {component} could not start: {source}")]
    Listen {
        component: &'static str,
        source: std::io::Error,
    },
    #[error("the QueryMesh stand-in could not start: {0}")]
    QueryMesh(#[source] querymesh::QueryMeshStartError),
    #[error("the QueryMesh stand-in could not start: {0}")]
    QueryMeshTls(#[source] querymesh::server::tls::TlsError),
    #[error("the broker could not start: {0}")]
    Broker(#[source] broker::BrokerStartError),
    #[error("the broker could not start: {0}")]
    TrustFile(#[from] crate::http::TrustFileError),
    #[error(transparent)]
    EventsFile(#[from] crate::platform::events_file::EventsFileError),
    /// A file of the state directory that SQLite would open is not a regular file.
    #[error("cannot use {}: {source}", path.display())]
    StateFile {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// A listener bound and served, but a connection to it failed: not ready.
    #[error("the {component} could not start: does not accept connections on {addr}: {source}")]
    NotAccepting {
        component: &'static str,
        addr: std::net::SocketAddr,
        source: std::io::Error,
    },
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

/// The state directory's database files (tpch.tiny's image, the generated schemas) are
/// regular files, or absent: SQLite opening a FIFO in their place would block forever. Keys
/// and the TLS authority are checked where they are read ([`crate::state_dir`]).
fn check_database_files(dir: &std::path::Path) -> Result<(), StartError> {
    use crate::querymesh::engine::tpch;
    let tiny = dir.join(tpch::file_name());
    let generated = tpch::generated_schemas(dir)
        .into_iter()
        .map(|(_, path)| path);
    for path in std::iter::once(tiny).chain(generated) {
        crate::state_dir::is_regular_if_present(&path)
            .map_err(|source| StartError::StateFile { path, source })?;
    }
    Ok(())
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
    platform: Platform,
    /// The IAM's handle, for its internal API (ending SSO sessions).
    iam: iam::IamState,
    /// The edge's handle, for its tunables (the app response timeout).
    edge: edge::EdgeState,
    /// The authority that signed the QueryMesh port's TLS certificate (DER).
    querymesh_certificate: Vec<u8>,
    shutdown: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

/// The platform core of one sandbox, with the configuration and the addresses it resolved:
/// what each component's parts are cut from, one method per component, so what a component
/// is given is written in one place.
struct Platform {
    config: Config,
    endpoints: Endpoints,
    /// The IAM realm's URL: the issuer of its tokens and the identity's `iam` claim.
    realm_url: String,
    /// Where the broker sends queries: the configured Trino, or the stand-in.
    querymesh_url: String,
    /// Where the edge forwards: `--app`, or the built-in demo app.
    app_url: String,
    http: HttpClient,
    /// The platform's client of the organization IAM (code exchange, refresh).
    oidc: OidcClient,
    /// Signs the identity the edge hands the app; its JWKS is what the broker publishes.
    identity: IdentityIssuer,
    /// The organization IAM's own signing keys.
    iam_keys: KeyRing,
    sessions: SessionStore,
    switches: Switches,
    clock: Clock,
    journal: Journal,
    faults: Faults,
    people: People,
    /// The broker's limits on queries; the control API replaces them while running.
    limits: broker::PersonLimits,
    /// The stand-in's data policies in words, for the banner, the console and the sign-in
    /// cards (`None` with a real Trino: its own policies decide, and the sandbox cannot
    /// know them).
    data_policies: Option<Arc<DataPolicies>>,
}

impl Platform {
    fn new(
        config: Config,
        endpoints: Endpoints,
        app_url: String,
        identity_keys: KeyRing,
        iam_keys: KeyRing,
        trusted: Vec<rustls::pki_types::CertificateDer<'static>>,
    ) -> Self {
        let realm_url = endpoints.realm_url(&config.organization.slug);
        let querymesh_url = config
            .querymesh
            .url
            .clone()
            .unwrap_or_else(|| endpoints.querymesh_url());
        let http = crate::http::client_trusting(trusted);
        let clock = Clock::default();
        let journal = Journal::new(config.events.capacity as usize, clock.clone());
        Self {
            oidc: OidcClient::new(http.clone(), &realm_url),
            http,
            identity: IdentityIssuer {
                keys: identity_keys,
                audience: Audience::from_config(&config),
                iam_issuer: realm_url.clone(),
            },
            iam_keys,
            sessions: SessionStore::with_clock(clock.clone()).with_journal(journal.clone()),
            switches: Switches::new(&config.querymesh),
            journal,
            faults: Faults::default(),
            people: People::new(config.people.clone()),
            limits: broker::PersonLimits::new(&config.broker, clock.clone()),
            data_policies: config.querymesh.url.is_none().then(|| {
                Arc::new(DataPolicies::load(
                    config.querymesh.access_control.as_deref(),
                ))
            }),
            clock,
            realm_url,
            querymesh_url,
            app_url,
            endpoints,
            config,
        }
    }

    fn env(&self) -> SandboxEnv {
        SandboxEnv::new(
            &self.config,
            &self.identity.keys,
            &self.endpoints.broker_url(),
        )
    }

    /// The demo app knows what any app knows: its environment.
    fn demo(&self) -> demo::DemoConfig {
        demo::DemoConfig {
            env: self.env(),
            http: self.http.clone(),
        }
    }

    fn edge(&self) -> edge::EdgeParts {
        edge::EdgeParts {
            port: self.endpoints.edge.port(),
            app_url: self.app_url.clone(),
            app_id: self.config.app.id.clone(),
            organization: self.config.organization.clone(),
            people: self.config.people.clone(),
            app_response_timeout: edge::app_response_timeout_for(&self.config),
            sessions: self.sessions.clone(),
            identity: self.identity.clone(),
            oidc: self.oidc.clone(),
            iam_keys: self.iam_keys.public_side(),
            http: self.http.clone(),
            journal: self.journal.clone(),
        }
    }

    fn broker(&self) -> broker::BrokerParts {
        broker::BrokerParts {
            config: self.config.broker.clone(),
            querymesh_url: self.querymesh_url.clone(),
            identity_keys: self.identity.keys.public_side(),
            audience: self.identity.audience.clone(),
            sessions: self.sessions.clone(),
            switches: self.switches.clone(),
            faults: self.faults.clone(),
            journal: self.journal.clone(),
            oidc: self.oidc.clone(),
            limits: self.limits.clone(),
            http: self.http.clone(),
        }
    }

    /// The test-control API's parts: the platform core's handles, and the IAM's and edge's
    /// internal side (signing in without a browser, the identity a session gets).
    fn control(&self, iam: iam::IamState) -> control::ControlParts {
        control::ControlParts {
            config: self.config.clone(),
            endpoints: self.endpoints,
            realm_url: self.realm_url.clone(),
            querymesh_url: self.querymesh_url.clone(),
            http: self.http.clone(),
            identity: self.identity.clone(),
            started_with_kids: self
                .identity
                .keys
                .published()
                .iter()
                .map(|k| k.jwk().kid)
                .collect(),
            started_with_keys: self.identity.keys.snapshot(),
            iam_keys: self.iam_keys.clone(),
            iam,
            sessions: self.sessions.clone(),
            switches: self.switches.clone(),
            clock: self.clock.clone(),
            journal: self.journal.clone(),
            faults: self.faults.clone(),
            people: self.people.clone(),
            limits: self.limits.clone(),
            data_policies: self.data_policies.clone(),
        }
    }

    fn iam(&self) -> iam::IamParts {
        iam::IamParts {
            config: self.config.iam.clone(),
            organization: self.config.organization.clone(),
            people: self.config.people.clone(),
            realm_url: self.realm_url.clone(),
            edge_port: self.endpoints.edge.port(),
            keys: self.iam_keys.clone(),
            switches: self.switches.clone(),
            sessions: self.sessions.clone(),
            clock: self.clock.clone(),
            journal: self.journal.clone(),
            data_policies: self.data_policies.clone(),
        }
    }

    /// The stand-in's parts, with its engine opened here from `[querymesh]` and the state
    /// directory ([`Engine::open`]).
    fn querymesh(&self) -> Result<querymesh::QueryMeshParts, querymesh::QueryMeshStartError> {
        Ok(querymesh::QueryMeshParts {
            config: self.config.querymesh.clone(),
            addr: self.endpoints.querymesh,
            realm_url: self.realm_url.clone(),
            http: self.http.clone(),
            engine: Arc::new(Engine::open(
                &self.config.querymesh.engine(),
                self.config.state_dir.as_deref(),
            )?),
            journal: self.journal.clone(),
        })
    }
}

impl Sandbox {
    /// Binds every listener, builds every component, serves, and returns once all accept.
    pub async fn start(config: Config) -> Result<Self, StartError> {
        let (identity_keys, iam_keys) = open_keys(&config)?;
        if let Some(dir) = &config.state_dir {
            check_database_files(dir)?;
        }
        let events_file = config
            .events
            .file
            .as_deref()
            .map(crate::platform::events_file::EventsFile::open)
            .transpose()?;

        let edge_listener = bind("edge", config.ports.edge).await?;
        let broker_listener = bind("broker", config.ports.broker).await?;
        let iam_listener = bind("IAM", config.ports.iam).await?;
        let querymesh_listener = bind("QueryMesh stand-in", config.ports.querymesh).await?;
        let local = |l: &TcpListener, component| {
            l.local_addr()
                .map_err(|source| StartError::Listen { component, source })
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
        let trusted = match &config.querymesh.ca_file {
            Some(path) => crate::http::read_trusted(path)?,
            None => Vec::new(),
        };
        let platform = Platform::new(config, endpoints, app_url, identity_keys, iam_keys, trusted);
        let limits = &platform.config.listeners;
        if let Some(file) = events_file {
            let journal = platform.journal.clone();
            tasks.push(tokio::spawn(file.write_from(journal, shutdown.subscribe())));
        }

        if let Some(listener) = demo_listener {
            let demo = demo::router(platform.demo());
            tasks.push(serve(
                "demo app",
                listener,
                demo,
                limits,
                shutdown.subscribe(),
            ));
        }

        let querymesh = platform
            .querymesh()
            .and_then(querymesh::QueryMeshState::new)
            .map_err(StartError::QueryMesh)?;
        let broker = broker::BrokerState::new(platform.broker())
            .map_err(StartError::Broker)?
            .with_shutdown(shutdown.subscribe());
        let iam = iam::IamState::new(platform.iam());
        let edge = edge::EdgeState::new(platform.edge());
        let edge_threads: Vec<edge::EdgeState> =
            (0..edge::threads()).map(|_| edge.for_thread()).collect();
        let mut pools: Vec<Box<dyn crate::http::IdleConnections>> =
            vec![Box::new(platform.http.clone())];
        pools.extend(edge_threads.iter().map(edge::EdgeState::app_connections));
        tasks.push(tokio::spawn(crate::heap::give_back_when_quiet(
            shutdown.subscribe(),
            pools,
        )));
        // The test-control API shares the broker's listener (loopback, like the broker).
        let broker_and_control = broker::router(broker).merge(control::router(
            control::ControlState::new(platform.control(iam.clone()))
                .with_shutdown(shutdown.subscribe()),
        ));
        // The edge on threads of its own, each with its own runtime, as nginx's workers
        // (listener::threads); the other components on the caller's runtime.
        tasks.push(listener::serve_on_threads(
            "edge",
            edge_listener,
            edge::EdgeHandshake,
            edge_threads.into_iter().map(edge::EdgeFront::new).collect(),
            limits.clone(),
            busy("edge", limits.max_connections),
            shutdown.subscribe(),
        ));
        let routers = [
            ("broker", broker_listener, broker_and_control),
            ("IAM", iam_listener, iam::router(iam.clone())),
        ];
        for (name, listener, router) in routers {
            tasks.push(serve(name, listener, router, limits, shutdown.subscribe()));
        }
        let (acceptor, querymesh_certificate) =
            querymesh::server::tls::acceptor(platform.config.state_dir.as_deref())
                .map_err(StartError::QueryMeshTls)?;
        tasks.push(listener::serve(
            querymesh_listener,
            querymesh::server::tls::PlainOrTls::new(acceptor),
            querymesh::router(querymesh),
            limits.clone(),
            busy("QueryMesh stand-in", limits.max_connections),
            shutdown.subscribe(),
        ));

        let sandbox = Self {
            platform,
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
        let e = self.platform.endpoints;
        for (component, addr) in [
            ("edge", e.edge),
            ("broker", e.broker),
            ("IAM", e.iam),
            ("QueryMesh stand-in", e.querymesh),
        ] {
            tokio::net::TcpStream::connect(addr)
                .await
                .map_err(|source| StartError::NotAccepting {
                    component,
                    addr,
                    source,
                })?;
        }
        Ok(())
    }

    /// Where each component listens.
    pub fn endpoints(&self) -> &Endpoints {
        &self.platform.endpoints
    }

    /// The configuration it runs with.
    pub fn config(&self) -> &Config {
        &self.platform.config
    }

    /// The IAM realm's URL: the issuer of its tokens, and the identity's `iam` claim.
    pub fn realm_url(&self) -> &str {
        &self.platform.realm_url
    }

    /// Where the broker sends queries: the configured Trino, or the stand-in.
    pub fn querymesh_url(&self) -> &str {
        &self.platform.querymesh_url
    }

    /// The stand-in's data policies in words; `None` when a real Trino answers instead.
    pub fn data_policies(&self) -> Option<&DataPolicies> {
        self.platform.data_policies.as_deref()
    }

    /// Where the edge forwards: `--app`, or the built-in demo app.
    pub fn app_url(&self) -> &str {
        &self.platform.app_url
    }

    /// The identity issuer: its keys sign the identity the edge hands the app, and its JWKS is
    /// what the broker publishes. Tests mint identities with it.
    pub fn identity(&self) -> &IdentityIssuer {
        &self.platform.identity
    }

    /// The organization IAM's own signing keys (never the identity's). Tests sign access
    /// tokens with them, as the IAM would.
    pub fn iam_keys(&self) -> &KeyRing {
        &self.platform.iam_keys
    }

    /// The platform sessions the edge creates and the broker consults.
    pub fn sessions(&self) -> &SessionStore {
        &self.platform.sessions
    }

    /// The control API's parts, for its unit tests and its fuzz target (which set the peer
    /// address themselves).
    #[doc(hidden)]
    pub fn control_parts(&self) -> control::ControlParts {
        self.platform.control(self.iam.clone())
    }

    /// The event journal (`GET /sandbox/v1/events` reads it).
    pub fn journal(&self) -> &Journal {
        &self.platform.journal
    }

    /// The fault rules the broker consults (`/sandbox/v1/faults` sets them).
    pub fn faults(&self) -> &Faults {
        &self.platform.faults
    }

    /// The platform's clock (`POST /sandbox/v1/clock` moves it).
    pub fn clock(&self) -> &Clock {
        &self.platform.clock
    }

    /// The switches, flipped while running; each takes effect on the next request.
    pub fn switches(&self) -> &Switches {
        &self.platform.switches
    }

    /// The certificate (DER) of the authority that signed the QueryMesh port's certificate
    /// for 127.0.0.1 and localhost: what an HTTPS client trusts to verify it. Kept in the state
    /// directory as `querymesh-ca.pem`; without one, new for each run.
    pub fn querymesh_certificate(&self) -> &[u8] {
        &self.querymesh_certificate
    }

    /// [`Sandbox::querymesh_certificate`] as PEM, as most clients read a certificate file.
    pub fn querymesh_certificate_pem(&self) -> String {
        querymesh::server::tls::pem("CERTIFICATE", &self.querymesh_certificate)
    }

    /// The `NNUMBERS_*` environment of the app behind the edge.
    pub fn env(&self) -> SandboxEnv {
        self.platform.env()
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
            control: String,
            console: String,
            env: SandboxEnv,
        }
        let e = &self.platform.endpoints;
        serde_json::to_string(&Ready {
            event: "ready",
            edge: e.edge_url(),
            broker: e.broker_url(),
            iam: e.iam_url(),
            querymesh: e.querymesh_url(),
            control: e.control_url(),
            console: e.console_url(),
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
            "message": format!("{why}, none of them idle; repeat in a moment"),
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

//! The one harness every integration test uses: a sandbox on ephemeral ports (alone or in
//! front of the echo app), an HTTP client, signing in over HTTP, a platform session straight in
//! the store, and a query through the broker.

#![allow(dead_code)]

pub mod browser;
pub mod echo_app;
pub mod engine;
pub mod fake_trino;
pub mod http_sign_in;
pub mod openapi;

pub use http_sign_in::{
    HttpSignIn, client, cookie_pairs, encode_form, hidden_input, location, sign_in_at,
};

use serde_json::Value;
use zero_sandbox::identity::unix_now;
use zero_sandbox::platform::IamTokens;
use zero_sandbox::{Config, Sandbox};

use echo_app::EchoApp;

/// A configuration on port 0 whose QueryMesh applies the access-control `rules` (written to
/// `rules.json` in the returned directory, which must outlive the sandbox), with `extra` TOML
/// after them in `[querymesh]`.
pub fn config_with_rules(rules: &str, extra: &str) -> (Config, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("rules.json");
    std::fs::write(&path, rules).expect("writes");
    let toml = format!(
        "[querymesh]\naccess_control = {:?}\n{extra}",
        path.display().to_string()
    );
    let config = Config::from_toml(&toml, "test.toml")
        .expect("a valid configuration")
        .with_ephemeral_ports();
    (config, dir)
}

/// The built-in configuration on port 0 with in-memory keys.
pub fn test_config() -> Config {
    Config::builtin().with_ephemeral_ports()
}

pub async fn start() -> Sandbox {
    start_with(test_config()).await
}

pub async fn start_with(config: Config) -> Sandbox {
    Sandbox::start(config).await.expect("the sandbox starts")
}

/// A sandbox whose app is a fresh echo app.
pub async fn start_with_echo() -> (Sandbox, EchoApp) {
    start_with_echo_and(test_config()).await
}

/// [`start_with_echo`] with `config` (its app URL set to the echo app's).
pub async fn start_with_echo_and(mut config: Config) -> (Sandbox, EchoApp) {
    let echo = EchoApp::start().await;
    config.app.url = Some(echo.url.clone());
    (start_with(config).await, echo)
}

/// The URL of `path` on the sandbox's edge.
pub fn edge(sandbox: &Sandbox, path: &str) -> String {
    format!("{}{path}", sandbox.endpoints().edge_url())
}

/// A platform session for `person` straight in the store (no sign-in), holding `access_token`
/// as its IAM access token: the identity the edge would hand the app for it, and its sid.
pub fn platform_session(sandbox: &Sandbox, person: &str, access_token: &str) -> (String, String) {
    let person = sandbox
        .config()
        .person(person)
        .unwrap_or_else(|| panic!("no configured person is called {person:?}"))
        .clone();
    let tokens = IamTokens {
        access_token: access_token.into(),
        access_expires_at: unix_now() + 300,
        refresh_token: None,
        id_token: None,
    };
    let (_, sid) = sandbox.sessions().create(person.clone(), tokens, None);
    let (identity, _) = sandbox.identity().mint(&person, &sid);
    (identity, sid)
}

/// Posts `sql` to the broker's query endpoint with `identity`: the status and the JSON body.
pub async fn broker_query(sandbox: &Sandbox, identity: &str, sql: &str) -> (u16, Value) {
    let response = client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("x-nnumbers-identity", identity)
        .json(&serde_json::json!({ "sql": sql }))
        .send()
        .await
        .expect("the broker answers");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON body"))
}

/// A cross join with an aggregate over tpch.tiny: 60,175 × 15,000 rows, minutes of work in
/// any build, so it is certainly still running when a test stops it.
pub const LONG_QUERY: &str = "SELECT count(*), max(l.orderkey + o.orderkey) FROM tpch.tiny.lineitem l CROSS JOIN tpch.tiny.orders o";

/// How long a poll waits before failing: generous, as the machine may be busy.
pub const DEADLINE: std::time::Duration = std::time::Duration::from_secs(30);

/// Polls `probe` until it gives a value, failing with `what` past [`DEADLINE`].
pub async fn until<T, F: std::future::Future<Output = Option<T>>>(
    what: &str,
    mut probe: impl FnMut() -> F,
) -> T {
    let deadline = std::time::Instant::now() + DEADLINE;
    loop {
        if let Some(value) = probe().await {
            return value;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "waited {DEADLINE:?} for {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

/// Trino's `GET /v1/query/{id}` on the stand-in, as the query's owner (`token`) reads it.
pub async fn query_info(sandbox: &Sandbox, token: &str, id: &str) -> Value {
    client()
        .get(format!("{}/v1/query/{id}", sandbox.querymesh_url()))
        .bearer_auth(token)
        .send()
        .await
        .expect("QueryMesh answers")
        .json()
        .await
        .expect("query info JSON")
}

/// The path of the binary under test.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_zero-sandbox")
}

/// A person signed in through the real HTTP flow, as a browser would be.
#[derive(Clone, Debug)]
pub struct SignedIn {
    /// `__nnumbers_session=…`: send it as the `Cookie` header to the edge.
    pub cookie: String,
    /// The platform session's sid (the identity's `sid` claim; what the broker checks).
    pub sid: String,
    /// The person's `sub`.
    pub sub: String,
    /// The IAM's SSO cookies (`KEYCLOAK_IDENTITY=…; …`), for signing in again without the
    /// sign-in page.
    pub iam_cookies: String,
}

impl SignedIn {
    /// The identity the edge would hand the app for this session right now.
    pub fn identity(&self, sandbox: &Sandbox) -> String {
        let session = sandbox
            .sessions()
            .get(&self.sid)
            .expect("the session is alive");
        zero_sandbox::edge::identity_header::identity_for(
            sandbox.identity(),
            sandbox.sessions(),
            &session,
        )
    }
}

/// Signs `person` (a sub, preferred_username, email or name of the configuration) in through
/// the edge and the IAM over real HTTP: `GET /.nnumbers/auth/login` → the IAM's authorization
/// endpoint → its sign-in page → the person's form → the edge's callback. Panics with the hop
/// that failed, so a broken flow names itself.
pub async fn sign_in(sandbox: &Sandbox, person: &str) -> SignedIn {
    let (signed_in, return_to) = sign_in_returning(sandbox, person, "/").await;
    assert_eq!(return_to, "/", "the callback redirects to return_to");
    signed_in
}

/// [`sign_in`] with `return_to` sent as given (URL-encoded); also returns where the callback
/// sent the browser (the raw Location).
pub async fn sign_in_returning(
    sandbox: &Sandbox,
    person: &str,
    return_to: &str,
) -> (SignedIn, String) {
    let sub = sandbox
        .config()
        .person(person)
        .unwrap_or_else(|| panic!("no configured person is called {person:?}"))
        .sub
        .clone();
    let HttpSignIn {
        cookie,
        iam_cookies,
        returned_to,
    } = sign_in_at(
        &sandbox.endpoints().edge_url(),
        sandbox.realm_url(),
        &sub,
        return_to,
    )
    .await;
    let handle = cookie.trim_start_matches("__nnumbers_session=");
    let sid = sandbox
        .sessions()
        .by_handle(handle)
        .expect("the cookie names a live platform session")
        .sid;
    let signed_in = SignedIn {
        cookie,
        sid,
        sub,
        iam_cookies,
    };
    (signed_in, returned_to)
}

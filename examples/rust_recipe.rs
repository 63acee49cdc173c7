//! The Rust recipe: an app's test against the sandbox through the library API and the
//! test-control API.
//!
//! ```text
//! cargo run --example rust_recipe
//! ```
//!
//! Starts a small app (it verifies the identity as the spec tells an app to, fetching
//! `/v1/jwks` when an unknown kid arrives, and asks the broker how many regions there are),
//! then the sandbox on ephemeral ports in front of it; signs a person in with `POST sessions`;
//! calls the app through the edge; and checks how the app handles an injected
//! QUERYMESH_UNAVAILABLE (scoped to this test's session, so parallel tests are untouched) and
//! a rotated identity key. Prints `ok` and exits 0 when the app behaves.

use std::error::Error;
use std::sync::{Arc, RwLock};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use zero_sandbox::identity::jws::JwsError;
use zero_sandbox::identity::{Audience, IdentityError, Jwks, PublicKey, verify_identity};
use zero_sandbox::{Config, Sandbox, SandboxEnv};

/// The app: built from its `NNUMBERS_*` environment only, as any app is.
struct App {
    audience: Audience,
    broker_url: String,
    keys: RwLock<Vec<PublicKey>>,
    http: reqwest::Client,
}

impl App {
    fn from_env(env: &SandboxEnv) -> Result<Self, Box<dyn Error>> {
        let jwks: Jwks = serde_json::from_str(&env.identity_jwks)?;
        Ok(Self {
            audience: Audience {
                issuer: env.identity_issuer.clone(),
                app_id: env.app_id.clone(),
                org_id: env.org_id.clone(),
                org_slug: String::new(),
            },
            broker_url: env.broker_url.clone(),
            keys: RwLock::new(jwks.public_keys()),
            http: reqwest::Client::new(),
        })
    }

    fn verify(&self, token: &str) -> Result<(), IdentityError> {
        let keys = self.keys.read().map(|k| k.clone()).unwrap_or_default();
        verify_identity(token, &keys, &self.audience, unix_now()).map(|_| ())
    }

    /// The spec's check 1: an unknown kid sends the app to the broker's JWKS, once.
    async fn verify_refreshing_keys(&self, token: &str) -> Result<(), String> {
        match self.verify(token) {
            Err(IdentityError::Jws(JwsError::UnknownKey(_))) => {
                let jwks: Jwks = self
                    .http
                    .get(format!("{}/v1/jwks", self.broker_url))
                    .send()
                    .await
                    .and_then(|r| r.error_for_status())
                    .map_err(|e| e.to_string())?
                    .json()
                    .await
                    .map_err(|e| e.to_string())?;
                if let Ok(mut keys) = self.keys.write() {
                    *keys = jwks.public_keys();
                }
                self.verify(token).map_err(|e| e.to_string())
            }
            other => other.map_err(|e| e.to_string()),
        }
    }
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// `GET /regions`: 401 without a valid identity; the count; 503 "try again" when the broker
/// says QueryMesh is unavailable.
async fn regions(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let Some(identity) = headers
        .get("x-nnumbers-identity")
        .and_then(|v| v.to_str().ok())
    else {
        return (StatusCode::UNAUTHORIZED, "sign in first").into_response();
    };
    if let Err(why) = app.verify_refreshing_keys(identity).await {
        return (StatusCode::UNAUTHORIZED, format!("not a person: {why}")).into_response();
    }
    let answer = app
        .http
        .post(format!("{}/v1/querymesh/query", app.broker_url))
        .header("x-nnumbers-identity", identity)
        .json(&json!({ "sql": "SELECT count(*) FROM tpch.tiny.region" }))
        .send()
        .await;
    let Ok(answer) = answer else {
        return (StatusCode::BAD_GATEWAY, "the broker did not answer").into_response();
    };
    let status = answer.status();
    let body: Value = answer.json().await.unwrap_or(Value::Null);
    match (status.as_u16(), body["code"].as_str()) {
        (200, _) => axum::Json(json!({ "regions": body["rows"][0][0] })).into_response(),
        (503, Some("QUERYMESH_UNAVAILABLE")) => {
            (StatusCode::SERVICE_UNAVAILABLE, "try again in a moment").into_response()
        }
        (_, code) => (
            StatusCode::BAD_GATEWAY,
            format!("the broker refused: {}", code.unwrap_or("?")),
        )
            .into_response(),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    // The app's port first: the sandbox's edge forwards to it.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let mut config = Config::builtin().with_ephemeral_ports();
    config.app.url = Some(format!("http://{}", listener.local_addr()?));
    let sandbox = Sandbox::start(config).await?;
    let app = Arc::new(App::from_env(&sandbox.env())?);
    let router = Router::new()
        .route("/regions", get(regions))
        .with_state(app);
    let server = tokio::spawn(async move { axum::serve(listener, router).await });

    let http = reqwest::Client::new();
    let control = sandbox.endpoints().control_url();
    let edge = sandbox.endpoints().edge_url();
    let session: Value = http
        .post(format!("{control}/sessions"))
        .json(&json!({ "person": "ada" }))
        .send()
        .await?
        .json()
        .await?;
    let cookie = session["cookie"]["header"]
        .as_str()
        .ok_or("POST sessions gave no cookie")?
        .to_string();
    let sid = session["sid"].clone();
    let call = || {
        http.get(format!("{edge}/regions"))
            .header("cookie", &cookie)
            .send()
    };

    // Signed in: the app counts the regions.
    let answer = call().await?;
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.json::<Value>().await?["regions"], 5);
    // Without the cookie the edge hands no identity, and the app says so.
    let anonymous = http.get(format!("{edge}/regions")).send().await?;
    assert_eq!(anonymous.status(), 401);

    // An injected refusal, for this session only: the app asks the person to try again.
    let fault = http
        .post(format!("{control}/faults"))
        .json(&json!({ "code": "QUERYMESH_UNAVAILABLE", "times": 1, "scope": { "sid": sid } }))
        .send()
        .await?;
    assert_eq!(fault.status(), 201);
    let answer = call().await?;
    assert_eq!(answer.status(), 503);
    assert_eq!(answer.text().await?, "try again in a moment");
    assert_eq!(call().await?.status(), 200, "the fault applied once");

    // A rotated key: the next identity has a kid the app's environment lacks, and the app
    // finds it at /v1/jwks.
    let rotated = http
        .post(format!("{control}/keys/rotate"))
        .json(&json!({}))
        .send()
        .await?;
    assert_eq!(rotated.status(), 200);
    assert_eq!(call().await?.status(), 200);

    println!("ok");
    server.abort();
    sandbox.shutdown().await;
    Ok(())
}

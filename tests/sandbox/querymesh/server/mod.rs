//! The QueryMesh stand-in's server over HTTP: the Trino statement protocol, the JWT
//! authenticator against the IAM's published keys, time limits, cancel, access control, TLS and
//! the official Python and JavaScript clients.

mod access_control;
mod authentication;
mod cancellation;
mod complex_columns;
mod internal_failures;
mod json_columns;
mod official_clients;
mod resource_groups;
mod row_filters_and_column_masks;
mod session_properties;
mod statement_protocol;
mod time_limits_and_fairness;
mod time_zone_header;
mod tls;

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use zero_sandbox::identity::jws::{self};
use zero_sandbox::identity::unix_now;
use zero_sandbox::oidc::{QUERYMESH_AUDIENCE, QUERYMESH_SCOPE};
use zero_sandbox::{Config, Sandbox};

use crate::support;

const NATION: &str = "SELECT name, regionkey FROM tpch.tiny.nation ORDER BY nationkey";

/// Billions of rows to count: runs until something stops it.
const ENDLESS: &str = "SELECT count(*) FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b CROSS JOIN tpch.tiny.orders c";

/// How long a test waits for anything before it fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(30);

/// A sandbox and what a client of its QueryMesh needs.
struct Mesh {
    sandbox: Sandbox,
    client: reqwest::Client,
}

impl Mesh {
    async fn start() -> Self {
        Self::with(support::test_config()).await
    }

    async fn with(config: Config) -> Self {
        Self {
            sandbox: support::start_with(config).await,
            client: support::client(),
        }
    }

    fn url(&self) -> String {
        self.sandbox.endpoints().querymesh_url()
    }

    /// The claims of an access token the IAM would issue to `sub`.
    fn claims(&self, sub: &str, groups: &[&str]) -> Value {
        let now = unix_now();
        json!({
            "iss": self.sandbox.realm_url(),
            "sub": sub,
            "aud": [QUERYMESH_AUDIENCE, "nnumbers-edge"],
            "azp": "nnumbers-edge",
            "exp": now + 300,
            "iat": now,
            "typ": "Bearer",
            "scope": format!("openid profile email {QUERYMESH_SCOPE}"),
            "groups": groups,
        })
    }

    /// Signs `claims` with the IAM's current key, as the IAM does.
    fn sign(&self, claims: &Value) -> String {
        jws::sign(&self.sandbox.iam_keys().current(), "JWT", claims)
    }

    fn token(&self) -> String {
        self.sign(&self.claims("ada", &["analysts"]))
    }

    async fn post(&self, sql: &str, token: &str) -> reqwest::Response {
        self.post_as("ada", sql, token).await
    }

    async fn post_as(&self, user: &str, sql: &str, token: &str) -> reqwest::Response {
        self.client
            .post(format!("{}/v1/statement", self.url()))
            .bearer_auth(token)
            .header("X-Trino-User", user)
            // As Trino's JDBC, Python and CLI clients: times keep their precision.
            .header("X-Trino-Client-Capabilities", "PARAMETRIC_DATETIME")
            .body(sql.to_string())
            .send()
            .await
            .expect("the stand-in answers")
    }

    /// The HTML page at a query's `infoUri`, which must answer.
    async fn info_page(&self, page: &Value) -> String {
        let uri = page["infoUri"].as_str().expect("infoUri");
        let info = self.client.get(uri).send().await.expect("answers");
        assert_eq!(info.status(), StatusCode::OK);
        info.text().await.expect("a page")
    }

    async fn get(&self, uri: &str) -> Value {
        let response = self.client.get(uri).send().await.expect("answers");
        assert_eq!(response.status(), StatusCode::OK, "GET {uri}");
        response.json().await.expect("a QueryResults")
    }

    /// Posts `sql` and follows `nextUri` to the end: every response, in order.
    async fn run_as(&self, sql: &str, token: &str) -> Vec<Value> {
        let response = self.post(sql, token).await;
        assert_eq!(response.status(), StatusCode::OK);
        self.follow(response).await
    }

    /// Reads the POST's answer, which is QUEUED without an error as Trino's always is (a
    /// statement fails on a later page), and follows `nextUri` to the end.
    async fn follow(&self, posted: reqwest::Response) -> Vec<Value> {
        self.follow_to_last_headers(posted).await.0
    }

    /// [`Mesh::follow`], with the last answer's headers (where Trino tells what the statement
    /// changed in the session).
    async fn follow_to_last_headers(
        &self,
        posted: reqwest::Response,
    ) -> (Vec<Value>, reqwest::header::HeaderMap) {
        assert_eq!(posted.status(), StatusCode::OK);
        let mut headers = posted.headers().clone();
        let first: Value = posted.json().await.expect("a QueryResults");
        assert_eq!(first["stats"]["state"], "QUEUED", "{first}");
        assert!(first.get("error").is_none(), "{first}");
        let mut pages = vec![first];
        let deadline = Instant::now() + PATIENCE;
        while let Some(next) = pages.last().and_then(|p| p["nextUri"].as_str()) {
            assert!(Instant::now() < deadline, "the query did not end");
            let next = next.to_string();
            let response = self.client.get(&next).send().await.expect("answers");
            assert_eq!(response.status(), StatusCode::OK, "GET {next}");
            headers = response.headers().clone();
            pages.push(response.json().await.expect("a QueryResults"));
        }
        (pages, headers)
    }

    async fn run(&self, sql: &str) -> Vec<Value> {
        self.run_as(sql, &self.token()).await
    }
}

fn rows(pages: &[Value]) -> Vec<Value> {
    pages
        .iter()
        .filter_map(|p| p["data"].as_array())
        .flatten()
        .cloned()
        .collect()
}

fn error_of(pages: &[Value]) -> &Value {
    let last = pages.last().expect("a response");
    assert_eq!(last["stats"]["state"], "FAILED", "{last}");
    &last["error"]
}

fn config_with(toml: &str) -> Config {
    Config::from_toml(toml, "test.toml")
        .expect("a valid configuration")
        .with_ephemeral_ports()
}

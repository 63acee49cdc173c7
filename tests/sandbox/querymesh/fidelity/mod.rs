//! The QueryMesh stand-in against Trino's finer points, over the statement protocol: the
//! grammar of OFFSET / LIMIT / FETCH, literals, doubles written as Java writes them, exploration
//! that shows only what the person may see, USE answering with the session headers, and every
//! response as the Java client reads it.

mod doubles;
mod exploration_under_policies;
mod java_client;
mod literals_and_aliases;
mod row_count_clauses;
mod system_catalog;
mod use_statement;

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use zero_sandbox::identity::jws;
use zero_sandbox::identity::unix_now;
use zero_sandbox::oidc::{QUERYMESH_AUDIENCE, QUERYMESH_SCOPE};
use zero_sandbox::{Config, Sandbox};

use crate::support;

/// How long a test waits for a query before it fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(30);

struct Mesh {
    sandbox: Sandbox,
    client: reqwest::Client,
}

/// One statement's answer: every page, in order, and the headers of the last (where Trino
/// tells the session's changes).
struct Answer {
    headers: reqwest::header::HeaderMap,
    /// Each page's body as sent, to check how numbers are written.
    texts: Vec<String>,
    pages: Vec<Value>,
}

impl Answer {
    fn rows(&self) -> Vec<Value> {
        self.pages
            .iter()
            .filter_map(|p| p["data"].as_array())
            .flatten()
            .cloned()
            .collect()
    }

    /// The first cell of each row, as text.
    fn firsts(&self) -> Vec<String> {
        self.rows()
            .iter()
            .map(|r| {
                r[0].as_str()
                    .map_or_else(|| r[0].to_string(), str::to_string)
            })
            .collect()
    }

    fn error(&self) -> &Value {
        let last = self.pages.last().expect("a response");
        assert_eq!(last["stats"]["state"], "FAILED", "{last}");
        &last["error"]
    }

    fn succeeded(&self) -> &Self {
        let last = self.pages.last().expect("a response");
        assert_eq!(last["stats"]["state"], "FINISHED", "{last}");
        self
    }
}

impl Mesh {
    async fn start(config: Config) -> Self {
        Self {
            sandbox: support::start_with(config).await,
            client: support::client(),
        }
    }

    /// An access token the IAM would issue to `sub` in `groups`.
    fn token(&self, sub: &str, groups: &[&str]) -> String {
        let now = unix_now();
        let claims = json!({
            "iss": self.sandbox.realm_url(),
            "sub": sub,
            "aud": [QUERYMESH_AUDIENCE],
            "exp": now + 300,
            "iat": now,
            "scope": format!("openid {QUERYMESH_SCOPE}"),
            "groups": groups,
        });
        jws::sign(&self.sandbox.iam_keys().current(), "JWT", &claims)
    }

    /// Posts `sql` as `who` with the session `headers`.
    async fn post(
        &self,
        who: (&str, &[&str]),
        headers: &[(&str, &str)],
        sql: &str,
    ) -> reqwest::Response {
        let mut request = self
            .client
            .post(format!(
                "{}/v1/statement",
                self.sandbox.endpoints().querymesh_url()
            ))
            .bearer_auth(self.token(who.0, who.1))
            // As Trino's JDBC, Python and CLI clients: times keep their precision.
            .header("X-Trino-Client-Capabilities", "PARAMETRIC_DATETIME")
            .body(sql.to_string());
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("the stand-in answers")
    }

    /// Runs `sql` as `who` with the session `headers`, following `nextUri` to the end.
    async fn run_with(&self, who: (&str, &[&str]), headers: &[(&str, &str)], sql: &str) -> Answer {
        let response = self.post(who, headers, sql).await;
        assert_eq!(response.status(), StatusCode::OK, "{sql}");
        let mut headers = response.headers().clone();
        let mut texts = vec![response.text().await.expect("a body")];
        let mut pages: Vec<Value> = vec![serde_json::from_str(&texts[0]).expect("JSON")];
        let deadline = Instant::now() + PATIENCE;
        while let Some(next) = pages.last().and_then(|p| p["nextUri"].as_str()) {
            assert!(Instant::now() < deadline, "{sql} did not end");
            let next = next.to_string();
            let response = self.client.get(&next).send().await.expect("answers");
            assert_eq!(response.status(), StatusCode::OK, "GET {next}");
            headers = response.headers().clone();
            let text = response.text().await.expect("a body");
            pages.push(serde_json::from_str(&text).expect("JSON"));
            texts.push(text);
        }
        Answer {
            headers,
            texts,
            pages,
        }
    }

    async fn run_as(&self, who: (&str, &[&str]), sql: &str) -> Answer {
        self.run_with(who, &[], sql).await
    }

    async fn run(&self, sql: &str) -> Answer {
        self.run_as(ADA, sql).await
    }
}

const ADA: (&str, &[&str]) = ("ada", &["analysts"]);

const GRACE: (&str, &[&str]) = ("grace", &["engineering"]);

const EVE: (&str, &[&str]) = ("eve", &["contractors"]);

/// The 1-based column of `needle` in one-line `sql`, as Trino reports positions.
fn column_of(sql: &str, needle: &str) -> usize {
    sql.find(needle).expect("the needle is in the SQL") + 1
}

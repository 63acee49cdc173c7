//! The QueryMesh stand-in's server over HTTP: the Trino statement protocol, the JWT
//! authenticator against the IAM's published keys, time limits, cancel, access control, and
//! the official Python client.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use zero_sandbox::identity::jws::{self, Header};
use zero_sandbox::identity::{KeyPair, unix_now};
use zero_sandbox::oidc::{QUERYMESH_AUDIENCE, QUERYMESH_SCOPE};
use zero_sandbox::querymesh::server::WWW_AUTHENTICATE;
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
        assert_eq!(posted.status(), StatusCode::OK);
        let first: Value = posted.json().await.expect("a QueryResults");
        assert_eq!(first["stats"]["state"], "QUEUED", "{first}");
        assert!(first.get("error").is_none(), "{first}");
        let mut pages = vec![first];
        let deadline = Instant::now() + PATIENCE;
        while let Some(next) = pages.last().and_then(|p| p["nextUri"].as_str()) {
            assert!(Instant::now() < deadline, "the query did not end");
            let next = next.to_string();
            pages.push(self.get(&next).await);
        }
        pages
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

#[tokio::test]
async fn a_query_answers_in_trinos_shape() {
    let mesh = Mesh::start().await;
    let pages = mesh.run(NATION).await;

    let first = &pages[0];
    let id = first["id"].as_str().expect("an id");
    let parts: Vec<&str> = id.split('_').collect();
    assert_eq!(
        parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
        [8, 6, 5, 5],
        "{id}"
    );
    assert_eq!(
        first["infoUri"],
        format!("{}/ui/query.html?{id}", mesh.url())
    );
    let next = first["nextUri"].as_str().expect("a nextUri");
    assert!(
        next.starts_with(&format!("{}/v1/statement/executing/{id}/", mesh.url())),
        "{next}"
    );
    for page in &pages {
        assert_eq!(page["id"], id);
        assert!(page["stats"].is_object() && page["infoUri"].is_string());
        assert_eq!(page["warnings"], json!([]));
        assert!(page.get("error").is_none());
    }

    let last = pages.last().expect("pages");
    assert_eq!(last["stats"]["state"], "FINISHED");
    assert!(last.get("nextUri").is_none());
    // Trino's StatementStats: progress once scheduled, none while queued.
    assert_eq!(first["stats"]["state"], "QUEUED");
    assert!(first["stats"].get("progressPercentage").is_none());
    assert_eq!(last["stats"]["progressPercentage"], 100.0);
    for field in [
        "queued",
        "scheduled",
        "nodes",
        "totalSplits",
        "queuedSplits",
        "runningSplits",
        "completedSplits",
        "cpuTimeMillis",
        "wallTimeMillis",
        "queuedTimeMillis",
        "elapsedTimeMillis",
        "processedRows",
        "processedBytes",
        "physicalInputBytes",
        "peakMemoryBytes",
        "spilledBytes",
    ] {
        assert!(last["stats"].get(field).is_some(), "stats.{field}");
    }
    assert_eq!(
        last["columns"],
        json!([
            {"name": "name", "type": "varchar(25)", "typeSignature":
                {"rawType": "varchar", "arguments": [{"kind": "LONG", "value": 25}]}},
            {"name": "regionkey", "type": "bigint", "typeSignature":
                {"rawType": "bigint", "arguments": []}},
        ])
    );
    let rows = rows(&pages);
    assert_eq!(rows.len(), 25);
    assert_eq!(rows[0], json!(["ALGERIA", 0]));
    assert_eq!(rows[24], json!(["UNITED STATES", 1]));

    // The info page exists while the query is remembered.
    let page = mesh.info_page(first).await;
    assert!(
        page.contains(id) && page.contains("State: FINISHED"),
        "{page}"
    );
}

#[tokio::test]
async fn large_results_page_through_next_uri() {
    let mesh = Mesh::start().await;
    let pages = mesh.run("SELECT * FROM tpch.tiny.lineitem").await;
    let with_data = pages.iter().filter(|p| p["data"].is_array()).count();
    assert!(with_data >= 3, "{with_data} pages held rows");
    assert_eq!(rows(&pages).len(), 60_175);
    for page in &pages[..pages.len() - 1] {
        assert!(page["nextUri"].is_string());
    }
    let last = pages.last().expect("pages");
    assert!(last.get("nextUri").is_none());
    assert_eq!(last["stats"]["processedRows"], 60_175);
}

#[tokio::test]
async fn next_uri_is_idempotent_and_checked() {
    let mesh = Mesh::start().await;
    let response = mesh
        .post("SELECT * FROM tpch.tiny.lineitem", &mesh.token())
        .await;
    let first: Value = response.json().await.expect("json");
    let next = first["nextUri"].as_str().expect("nextUri").to_string();
    let page = mesh.get(&next).await;
    assert_eq!(
        mesh.get(&next).await,
        page,
        "a repeated GET repeats the page"
    );

    let (prefix, token) = next.rsplit_once('/').expect("a token");
    let (query, _slug) = prefix.rsplit_once('/').expect("a slug");
    for (uri, status) in [
        (format!("{query}/wrongslug/{token}"), StatusCode::NOT_FOUND),
        (format!("{prefix}/99"), StatusCode::NOT_FOUND),
        (format!("{prefix}/x"), StatusCode::NOT_FOUND),
    ] {
        let response = mesh.client.get(&uri).send().await.expect("answers");
        assert_eq!(response.status(), status, "{uri}");
    }
    let second = page["nextUri"].as_str().expect("more pages").to_string();
    mesh.get(&second).await;
    let gone = mesh.client.get(&next).send().await.expect("answers");
    assert_eq!(
        gone.status(),
        StatusCode::GONE,
        "an older token's data is gone"
    );
}

#[tokio::test]
async fn concurrent_and_abandoned_fetches_lose_no_rows() {
    let mesh = Mesh::start().await;
    let token = mesh.token();
    // Two fetches of the same nextUri at once get the same page: rows are not split between
    // them, and the next page follows on.
    let first: Value = mesh
        .post("SELECT * FROM tpch.tiny.lineitem", &token)
        .await
        .json()
        .await
        .expect("json");
    let next = first["nextUri"].as_str().expect("nextUri").to_string();
    let (a, b) = tokio::join!(mesh.get(&next), mesh.get(&next));
    assert_eq!(a, b);
    assert!(!a["data"].as_array().expect("rows").is_empty());
    let mut pages = vec![first, a];
    while let Some(next) = pages.last().and_then(|p| p["nextUri"].as_str()) {
        let next = next.to_string();
        pages.push(mesh.get(&next).await);
    }
    assert_eq!(rows(&pages).len(), 60_175);

    // A client that hangs up while its GET waits for rows asks again and is answered.
    let first: Value = mesh.post(ENDLESS, &token).await.json().await.expect("json");
    let next = first["nextUri"].as_str().expect("nextUri").to_string();
    let hung_up = mesh
        .client
        .get(&next)
        .timeout(Duration::from_millis(50))
        .send()
        .await;
    assert!(hung_up.is_err(), "the page wait outlasts the client");
    let page = mesh.get(&next).await;
    assert!(page.get("error").is_none(), "{page}");
    let following = page["nextUri"].as_str().expect("still running");
    assert!(following.ends_with("/2"), "{following}");
    let deleted = mesh.client.delete(following).send().await.expect("answers");
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn delete_cancels_the_query() {
    let mesh = Mesh::start().await;
    let response = mesh.post(ENDLESS, &mesh.token()).await;
    let first: Value = response.json().await.expect("json");
    let next = first["nextUri"].as_str().expect("nextUri").to_string();

    let (prefix, _token) = next.rsplit_once('/').expect("a token");
    let (query, _slug) = prefix.rsplit_once('/').expect("a slug");
    for uri in [format!("{prefix}/x"), format!("{query}/wrongslug/1")] {
        let response = mesh.client.delete(&uri).send().await.expect("answers");
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{uri}");
    }
    let deleted = mesh.client.delete(&next).send().await.expect("answers");
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);

    let page = mesh.get(&next).await;
    assert_eq!(page["stats"]["state"], "FAILED");
    assert_eq!(page["error"]["errorName"], "USER_CANCELED");
    assert_eq!(page["error"]["message"], "Query was canceled");
    assert!(page.get("nextUri").is_none());
}

/// Trino's `DELETE /v1/query/{id}`, which the broker uses when it holds no trusted nextUri.
#[tokio::test]
async fn a_query_is_cancelled_by_id_by_its_owner() {
    let mesh = Mesh::start().await;
    let first: Value = mesh
        .post(ENDLESS, &mesh.token())
        .await
        .json()
        .await
        .expect("json");
    let id = first["id"].as_str().expect("an id");
    let by_id = format!("{}/v1/query/{id}", mesh.url());

    let anonymous = mesh.client.delete(&by_id).send().await.expect("answers");
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let grace = mesh.sign(&mesh.claims("grace", &[]));
    let other = mesh
        .client
        .delete(&by_id)
        .bearer_auth(grace)
        .send()
        .await
        .expect("answers");
    assert_eq!(other.status(), StatusCode::FORBIDDEN);

    let deleted = mesh
        .client
        .delete(&by_id)
        .bearer_auth(mesh.token())
        .send()
        .await
        .expect("answers");
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let page = mesh.get(first["nextUri"].as_str().expect("nextUri")).await;
    assert_eq!(page["error"]["errorName"], "USER_CANCELED", "{page}");

    let unknown = format!("{}/v1/query/20260101_000000_00000_xxxxx", mesh.url());
    let response = mesh
        .client
        .delete(&unknown)
        .bearer_auth(mesh.token())
        .send()
        .await
        .expect("answers");
    assert_eq!(
        response.status(),
        StatusCode::NO_CONTENT,
        "an unknown id, as in Trino"
    );
}

fn config_with(toml: &str) -> Config {
    Config::from_toml(toml, "test.toml")
        .expect("a valid configuration")
        .with_ephemeral_ports()
}

#[tokio::test]
async fn a_query_past_its_time_limit_is_stopped() {
    let mesh = Mesh::with(config_with("[querymesh]\nquery_time_limit_secs = 1\n")).await;
    let started = Instant::now();
    let pages = mesh.run(ENDLESS).await;
    let error = error_of(&pages);
    assert_eq!(error["errorName"], "EXCEEDED_TIME_LIMIT");
    assert_eq!(error["errorType"], "INSUFFICIENT_RESOURCES");
    assert_eq!(
        error["message"],
        "Query exceeded maximum time limit of 1.00s"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn slow_queries_run_at_the_same_time() {
    // With a state directory tpch.tiny is surely a file, which connections read side by side;
    // the engine's in-memory fallback is shared-cache, where SQLite serialises steps.
    let state = tempfile::tempdir().expect("a temporary directory");
    let mut config = config_with("[querymesh]\nquery_time_limit_secs = 20\n");
    config.state_dir = Some(state.path().to_path_buf());
    let mesh = Mesh::with(config).await;
    let token = mesh.token();
    let mut next = Vec::new();
    for _ in 0..2 {
        let first: Value = mesh.post(ENDLESS, &token).await.json().await.expect("json");
        next.push(first["nextUri"].as_str().expect("nextUri").to_string());
    }
    // Each GET waits up to a second for rows; once both report RUNNING, both hold a
    // connection at once (a queued query reports QUEUED until it starts).
    let deadline = Instant::now() + PATIENCE;
    let mut running = [false, false];
    while running != [true, true] {
        assert!(Instant::now() < deadline, "both queries never ran together");
        for (i, uri) in next.iter_mut().enumerate() {
            let page = mesh.get(uri).await;
            assert!(page.get("error").is_none(), "{page}");
            running[i] = page["stats"]["state"] == "RUNNING";
            *uri = page["nextUri"].as_str().expect("still running").to_string();
        }
    }
    for uri in &next {
        let deleted = mesh.client.delete(uri).send().await.expect("answers");
        assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    }
}

/// One person's runaway queries hold only their own share of the places: another person's
/// query starts and finishes while they run, and past the person's queue limit a query fails
/// as Trino's resource groups fail it.
#[tokio::test]
async fn one_persons_runaway_queries_do_not_hold_up_anyone_else() {
    let state = tempfile::tempdir().expect("a temporary directory");
    let mut config = config_with(
        "[querymesh]\nquery_time_limit_secs = 20\nmax_running_queries_per_person = 2\nmax_queued_queries_per_person = 3\n",
    );
    config.state_dir = Some(state.path().to_path_buf());
    let mesh = Mesh::with(config).await;
    let ada = mesh.token();
    let mut runaway = Vec::new();
    for _ in 0..5 {
        let first: Value = mesh.post(ENDLESS, &ada).await.json().await.expect("json");
        runaway.push(first["nextUri"].as_str().expect("nextUri").to_string());
    }
    // Two run, three wait: a sixth is past Ada's queue. Trino's InternalResourceGroup fails
    // it with `Too many queued queries for "<group>"`.
    let pages = mesh.run_as(ENDLESS, &ada).await;
    let error = error_of(&pages);
    assert_eq!(error["errorName"], "QUERY_QUEUE_FULL", "{error}");
    assert_eq!(error["errorType"], "INSUFFICIENT_RESOURCES", "{error}");
    assert_eq!(
        error["message"],
        r#"Too many queued queries for "global.ada""#
    );

    let grace = mesh.sign(&mesh.claims("grace", &[]));
    let pages = mesh
        .follow(mesh.post_as("grace", NATION, &grace).await)
        .await;
    assert_eq!(pages.last().unwrap()["stats"]["state"], "FINISHED");
    assert_eq!(rows(&pages).len(), 25);
    // …while Ada's first queries are still running away and the rest still wait.
    let mut states = Vec::new();
    for uri in &mut runaway {
        let page = mesh.get(uri).await;
        assert!(page.get("error").is_none(), "{page}");
        states.push(
            page["stats"]["state"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        );
        *uri = page["nextUri"].as_str().expect("still going").to_string();
    }
    assert_eq!(states[3..], ["QUEUED", "QUEUED"], "{states:?}");
    for uri in &runaway {
        let deleted = mesh.client.delete(uri).send().await.expect("answers");
        assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    }
}

#[tokio::test]
async fn refused_sql_fails_with_trinos_error() {
    let mesh = Mesh::start().await;
    let pages = mesh.run("SELECT nosuchcolumn FROM tpch.tiny.nation").await;
    let error = error_of(&pages);
    assert_eq!(error["errorName"], "COLUMN_NOT_FOUND");
    assert_eq!(error["errorType"], "USER_ERROR");
    let last = pages.last().expect("a page");
    assert!(last.get("nextUri").is_none());
    // Its infoUri answers, as a failed query's does in Trino.
    let page = mesh.info_page(last).await;
    assert!(page.contains("State: FAILED"), "{page}");

    // Failed already before its client reads the error, as in Trino.
    let posted = mesh.post("SELECT FROM", &mesh.token()).await;
    let first: Value = posted.json().await.expect("a QueryResults");
    assert_eq!(first["stats"]["state"], "QUEUED");
    let page = mesh.info_page(&first).await;
    assert!(page.contains("State: FAILED"), "{page}");
}

#[tokio::test]
async fn an_empty_statement_is_a_bad_request() {
    let mesh = Mesh::start().await;
    let response = mesh.post("", &mesh.token()).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        response.text().await.expect("text"),
        "SQL statement is empty"
    );
    // Trino refuses only an empty body; blank text is parsed, and fails as a query does.
    let pages = mesh.run("  \n").await;
    assert_eq!(error_of(&pages)["errorName"], "SYNTAX_ERROR");
}

#[tokio::test]
async fn an_oversized_statement_is_refused_with_trinos_limit() {
    let mesh = Mesh::start().await;
    // Trino's query.max-length: 1 000 000 characters (UTF-16 units, as Java counts).
    let long = format!("SELECT 1{}", " ".repeat(1_000_000 - 7));
    let response = mesh.post(&long, &mesh.token()).await;
    let pages = mesh.follow(response).await;
    let failed = pages.last().expect("a page");
    assert_eq!(failed["error"]["errorName"], "QUERY_TEXT_TOO_LARGE");
    assert_eq!(failed["error"]["errorCode"], 35);
    assert_eq!(
        failed["error"]["message"],
        "Query text length (1000001) exceeds the maximum length (1000000)"
    );
    let huge = format!("SELECT 1{}", " ".repeat(4_000_000));
    let response = mesh.post(&huge, &mesh.token()).await;
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        response.text().await.expect("text"),
        "Query text exceeds the maximum length (1000000)"
    );
    // Authentication still comes first.
    let response = mesh.post(&huge, "not-a-token").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_headers_trino_clients_send_are_understood() {
    let mesh = Mesh::start().await;
    let post = |session: &'static str| {
        mesh.client
            .post(format!("{}/v1/statement", mesh.url()))
            .bearer_auth(mesh.token())
            .header("X-Trino-User", "ada")
            .header("X-Trino-Catalog", "tpch")
            .header("X-Trino-Schema", "tiny")
            .header("X-Trino-Source", "trino-python-client")
            .header("X-Trino-Time-Zone", "Europe/Berlin")
            .header("X-Trino-Transaction-Id", "NONE")
            .header("X-Trino-Client-Capabilities", "PARAMETRIC_DATETIME")
            .header("X-Trino-Session", session)
            .body("SELECT count(*) FROM nation")
            .send()
    };
    for session in ["", "query_max_run_time=10m, tpch.split_size=4"] {
        let response = post(session).await.expect("answers");
        assert_eq!(response.status(), StatusCode::OK, "{session:?}");
        let first: Value = response.json().await.expect("json");
        let mut pages = vec![first];
        while let Some(next) = pages.last().and_then(|p| p["nextUri"].as_str()) {
            let next = next.to_string();
            pages.push(mesh.get(&next).await);
        }
        assert_eq!(rows(&pages), [json!([25])], "{session:?}");
    }
    // Trino parses X-Trino-Session as name=value pairs and answers 400 otherwise.
    for session in ["query_max_run_time", "=10m", "a.b.c=1"] {
        let response = post(session).await.expect("answers");
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{session:?}");
        assert_eq!(
            response.text().await.expect("text"),
            "Invalid X-Trino-Session header"
        );
    }
}

#[tokio::test]
async fn tokens_are_checked_like_trinos_jwt_authenticator() {
    let mesh = Mesh::start().await;
    let good = mesh.claims("ada", &[]);
    let with = |key: &str, value: Value| {
        let mut claims = good.clone();
        claims[key] = value;
        mesh.sign(&claims)
    };
    let without = |key: &str| {
        let mut claims = good.clone();
        claims.as_object_mut().expect("an object").remove(key);
        mesh.sign(&claims)
    };
    let current = mesh.sandbox.iam_keys().current();
    let stranger = KeyPair::generate();
    let cases = [
        ("no token", None),
        ("not a JWT", Some("abc.def".to_string())),
        (
            "bad signature",
            Some(jws::sign_with_header(
                &stranger,
                &Header::es256("JWT", current.kid()),
                &good,
            )),
        ),
        ("unknown key", Some(jws::sign(&stranger, "JWT", &good))),
        (
            "wrong issuer",
            Some(with("iss", json!("http://127.0.0.1:1/realms/other"))),
        ),
        (
            "wrong audience",
            Some(with("aud", json!(["nnumbers-edge"]))),
        ),
        (
            "no scope",
            Some(with("scope", json!("openid profile email"))),
        ),
        ("no audience", Some(without("aud"))),
        ("expired", Some(with("exp", json!(unix_now() - 120)))),
        ("not yet valid", Some(with("nbf", json!(unix_now() + 120)))),
        ("no subject", Some(without("sub"))),
    ];
    for (case, token) in cases {
        let mut request = mesh
            .client
            .post(format!("{}/v1/statement", mesh.url()))
            .body(NATION);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("answers");
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{case}");
        assert_eq!(
            response.headers()["www-authenticate"],
            WWW_AUTHENTICATE,
            "{case}"
        );
    }
    // A single-string audience is as good as a list.
    let response = mesh.post(NATION, &with("aud", json!("querymesh"))).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_rotated_iam_key_is_fetched_again() {
    let mesh = Mesh::start().await;
    assert_eq!(
        mesh.post(NATION, &mesh.token()).await.status(),
        StatusCode::OK
    );
    mesh.sandbox
        .iam_keys()
        .rotate(Duration::from_secs(600))
        .expect("rotates");
    let response = mesh.post(NATION, &mesh.token()).await;
    assert_eq!(response.status(), StatusCode::OK, "the new kid is fetched");
}

#[tokio::test]
async fn another_session_user_is_not_impersonated() {
    let mesh = Mesh::start().await;
    let response = mesh
        .client
        .post(format!("{}/v1/statement", mesh.url()))
        .bearer_auth(mesh.token())
        .header("X-Trino-User", "margaret")
        .body(NATION)
        .send()
        .await
        .expect("answers");
    let pages = mesh.follow(response).await;
    let page = pages.last().expect("a page");
    assert_eq!(page["error"]["errorName"], "PERMISSION_DENIED");
    assert_eq!(
        page["error"]["message"],
        "Access Denied: User ada cannot impersonate user margaret"
    );
}

const RULES: &str = r#"{
    "catalogs": [{"catalog": "tpch", "allow": "read-only"}],
    "tables": [
        {"group": "analysts", "table": "customer", "privileges": ["SELECT"],
         "columns": [{"name": "phone", "allow": false}]},
        {"group": "analysts", "privileges": ["SELECT"]},
        {"table": "region", "privileges": ["SELECT"]}
    ]
}"#;

#[tokio::test]
async fn data_policies_deny_as_trino_does() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let rules = dir.path().join("rules.json");
    std::fs::write(&rules, RULES).expect("writes");
    let config = config_with(&format!(
        "[querymesh]\naccess_control = {:?}\n",
        rules.display().to_string()
    ));
    let mesh = Mesh::with(config).await;
    let grace = mesh.sign(&mesh.claims("grace", &["engineering"]));
    let grace_post = |sql: &'static str| {
        let client = mesh.client.clone();
        let url = format!("{}/v1/statement", mesh.url());
        let token = grace.clone();
        let mesh = &mesh;
        async move {
            let response = client
                .post(url)
                .bearer_auth(token)
                .body(sql)
                .send()
                .await
                .expect("answers");
            let pages = mesh.follow(response).await;
            pages.last().expect("a page").clone()
        }
    };
    let denied = grace_post("SELECT name FROM tpch.tiny.nation").await;
    assert_eq!(denied["error"]["errorName"], "PERMISSION_DENIED");
    assert_eq!(denied["error"]["errorCode"], 4);
    assert_eq!(
        denied["error"]["message"],
        "Access Denied: Cannot select from table tpch.tiny.nation"
    );
    let allowed = grace_post("SELECT name FROM tpch.tiny.region").await;
    assert!(allowed.get("error").is_none(), "{allowed}");

    // Ada is an analyst: everything but customer phone numbers.
    assert_eq!(rows(&mesh.run(NATION).await).len(), 25);
    let pages = mesh
        .run("SELECT name FROM tpch.tiny.customer LIMIT 1")
        .await;
    assert_eq!(rows(&pages).len(), 1);
    let pages = mesh.run("SELECT phone FROM tpch.tiny.customer").await;
    assert_eq!(
        error_of(&pages)["message"],
        "Access Denied: Cannot select from table tpch.tiny.customer"
    );
}

#[tokio::test]
async fn unreadable_rules_stop_the_start_naming_the_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let missing = dir.path().join("missing.json");
    let invalid = dir.path().join("invalid.json");
    std::fs::write(&invalid, "{\"tables\": [").expect("writes");
    for path in [missing, invalid] {
        let shown = path.display().to_string();
        let config = config_with(&format!("[querymesh]\naccess_control = {shown:?}\n"));
        let error = match Sandbox::start(config).await {
            Ok(_) => panic!("started with {shown}"),
            Err(e) => e.to_string(),
        };
        assert!(error.contains(&shown), "{error}");
    }
}

/// The official Python client (`pip install trino`, done by .ci/run), unchanged: descriptions,
/// value types, fetchmany/fetchall over many pages, its error types, cancel (see the script).
#[tokio::test]
async fn the_python_trino_client_works() {
    let mesh = Mesh::start().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/trino_client.py");
    let certificate = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(certificate.path(), mesh.sandbox.querymesh_certificate_pem())
        .expect("the certificate is written");
    let output = tokio::process::Command::new("python3")
        .arg(script)
        .arg(mesh.url())
        .arg(mesh.token())
        .arg("ada")
        .arg(certificate.path())
        // `requests` lets these override a session's own `verify` (its issue #3829).
        .env("REQUESTS_CA_BUNDLE", certificate.path())
        .env("CURL_CA_BUNDLE", certificate.path())
        .output()
        .await
        .expect("python3 runs (install Python 3 and `pip install trino`)");
    assert!(
        output.status.success(),
        "the Python trino client failed (is it installed? `pip install trino`):\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Sends a bare HTTP/1.1 GET of `path` on `stream` and returns the status line.
async fn status_line<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(
    stream: &mut S,
    path: &str,
) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let text = String::from_utf8_lossy(&response);
    text.lines().next().unwrap_or_default().to_string()
}

/// The QueryMesh port answers HTTPS (Trino's CLI and JDBC send tokens only over HTTPS) with a
/// certificate for 127.0.0.1 that the run's authority signed, and HTTP on the same port.
#[tokio::test]
async fn the_port_speaks_https_too_and_a_silent_client_blocks_nobody() {
    use tokio_rustls::rustls;
    let mesh = Mesh::start().await;
    let address = mesh.sandbox.endpoints().querymesh;
    // A client that connects and says nothing holds no one up, in either protocol.
    let _silent = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    let mut half_tls = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    tokio::io::AsyncWriteExt::write_all(&mut half_tls, &[0x16, 0x03, 0x01])
        .await
        .expect("sent");

    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(mesh.sandbox.querymesh_certificate().to_vec().into())
        .expect("the run's authority is a certificate");
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("a server name");
    let tcp = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    let mut tls = connector
        .connect(name, tcp)
        .await
        .expect("the certificate verifies for 127.0.0.1");
    assert_eq!(status_line(&mut tls, "/v1/info").await, "HTTP/1.1 200 OK");

    let mut plain = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    assert_eq!(status_line(&mut plain, "/v1/info").await, "HTTP/1.1 200 OK");

    // Over HTTPS, nextUri and infoUri stay on HTTPS, as Trino builds them from the request.
    let tcp = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    let mut tls = connector
        .connect(
            rustls::pki_types::ServerName::try_from("localhost").expect("a server name"),
            tcp,
        )
        .await
        .expect("the certificate verifies for localhost");
    let sql = "SELECT 1";
    let request = format!(
        "POST /v1/statement HTTP/1.1\r\nHost: localhost:{}\r\nAuthorization: Bearer {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{sql}",
        address.port(),
        mesh.token(),
        sql.len()
    );
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    tls.write_all(request.as_bytes()).await.expect("sent");
    let mut response = Vec::new();
    tls.read_to_end(&mut response).await.expect("read");
    let response = String::from_utf8_lossy(&response);
    let body = response.split("\r\n\r\n").nth(1).unwrap_or_default();
    let page: Value = serde_json::from_str(body).expect("a QueryResults body");
    let https = format!("https://localhost:{}/", address.port());
    for uri in ["nextUri", "infoUri"] {
        let value = page[uri].as_str().unwrap_or_default();
        assert!(value.starts_with(&https), "{uri}: {value}");
    }
}

/// The official JavaScript client (`trino-client`, `npm ci --prefix tests/js`, done by
/// .ci/run), unchanged: columns, many pages, a failed query's error, cancel (see the script).
#[tokio::test]
async fn the_javascript_trino_client_works() {
    let mesh = Mesh::start().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js/trino_client.mjs");
    let output = tokio::process::Command::new("node")
        .arg(script)
        .arg(mesh.url())
        .arg(mesh.token())
        .arg("ada")
        .output()
        .await
        .expect("node runs (install Node.js and `npm ci --prefix tests/js`)");
    assert!(
        output.status.success(),
        "the JavaScript trino client failed (installed? `npm ci --prefix tests/js`):\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Prepared statements as Trino's clients hold them: the answer's headers, then each request
/// carrying what the client holds; refusals as Trino words them.
#[tokio::test]
async fn prepared_statements_travel_in_headers() {
    let mesh = Mesh::start().await;
    let send = |sql: &'static str, held: Option<&'static str>| {
        let mut request = mesh
            .client
            .post(format!("{}/v1/statement", mesh.url()))
            .bearer_auth(mesh.token())
            .body(sql);
        if let Some(held) = held {
            request = request.header("X-Trino-Prepared-Statement", held);
        }
        request.send()
    };
    let prepared = send(
        "PREPARE q FROM SELECT name FROM tpch.tiny.nation WHERE nationkey = ?",
        None,
    )
    .await
    .expect("answers");
    let added = prepared
        .headers()
        .get("x-trino-added-prepare")
        .expect("X-Trino-Added-Prepare")
        .to_str()
        .expect("text")
        .to_string();
    assert_eq!(
        added,
        "q=SELECT+name+FROM+tpch.tiny.nation+WHERE+nationkey+%3D+%3F"
    );
    let pages = mesh.follow(prepared).await;
    assert_eq!(rows(&pages), vec![json!([true])]);
    assert_eq!(pages.last().expect("a page")["updateType"], "PREPARE");

    let held: &'static str = Box::leak(added.into_boxed_str());
    let executed = send("EXECUTE q USING 7", Some(held))
        .await
        .expect("answers");
    assert_eq!(rows(&mesh.follow(executed).await), vec![json!(["GERMANY"])]);

    let deallocated = send("DEALLOCATE PREPARE q", Some(held))
        .await
        .expect("answers");
    assert_eq!(
        deallocated
            .headers()
            .get("x-trino-deallocated-prepare")
            .map(|v| v.as_bytes()),
        Some(&b"q"[..])
    );
    mesh.follow(deallocated).await;

    for (sql, name, message) in [
        ("EXECUTE q", "NOT_FOUND", "Prepared statement not found: q"),
        (
            "DEALLOCATE PREPARE q",
            "NOT_FOUND",
            "Prepared statement not found: q",
        ),
        ("PREPARE q FROM SELECT 1 +", "SYNTAX_ERROR", "line 1:"),
    ] {
        let pages = mesh.follow(send(sql, None).await.expect("answers")).await;
        let error = error_of(&pages);
        assert_eq!(error["errorName"], name, "{sql}");
        assert!(
            error["message"]
                .as_str()
                .unwrap_or_default()
                .contains(message),
            "{sql}: {error}"
        );
    }
    let malformed = send("EXECUTE q", Some("no-equals-sign"))
        .await
        .expect("answers");
    assert_eq!(malformed.status(), StatusCode::BAD_REQUEST);
}

/// `GET /v1/query/{id}`: its owner reads its id, state, text and failure; nobody else does.
#[tokio::test]
async fn query_info_answers_only_its_owner() {
    let mesh = Mesh::start().await;
    let pages = mesh.run("SELECT nosuchcolumn FROM tpch.tiny.nation").await;
    let id = pages[0]["id"].as_str().expect("an id").to_string();
    let url = format!("{}/v1/query/{id}", mesh.url());
    let info: Value = mesh
        .client
        .get(&url)
        .bearer_auth(mesh.token())
        .send()
        .await
        .expect("answers")
        .json()
        .await
        .expect("QueryInfo");
    assert_eq!(info["queryId"], id.as_str());
    assert_eq!(info["state"], "FAILED");
    assert_eq!(info["query"], "SELECT nosuchcolumn FROM tpch.tiny.nation");
    assert_eq!(info["errorCode"]["name"], "COLUMN_NOT_FOUND");

    let grace = mesh.sign(&mesh.claims("grace", &[]));
    for (token, status) in [
        (Some(grace.as_str()), StatusCode::FORBIDDEN),
        (None, StatusCode::UNAUTHORIZED),
    ] {
        let mut request = mesh.client.get(&url);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        assert_eq!(request.send().await.expect("answers").status(), status);
    }
    let unknown = mesh
        .client
        .get(format!(
            "{}/v1/query/20260101_000000_00000_nosuch",
            mesh.url()
        ))
        .bearer_auth(mesh.token())
        .send()
        .await
        .expect("answers");
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
}

//! The broker's refusal table, each row reached through real behaviour.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::Notify;
use zero_sandbox::identity::unix_now;
use zero_sandbox::platform::{IamTokens, Switch};
use zero_sandbox::{Config, Sandbox};

use crate::support::fake_trino::{Behaviour, FakeTrino};
use crate::support::{self, test_config};

const ACCESS_TOKEN: &str = "test-access-token-of-ada";

/// A platform session for `ada` created straight in the store (as the edge's callback does),
/// with an access token only the fake QueryMesh looks at; returns the identity and sid.
fn session_for_ada(sandbox: &Sandbox) -> (String, String) {
    let ada = sandbox.config().person("ada").unwrap().clone();
    let tokens = IamTokens {
        access_token: ACCESS_TOKEN.into(),
        access_expires_at: unix_now() + 300,
        refresh_token: None,
        id_token: None,
    };
    let (_, sid) = sandbox.sessions().create(ada.clone(), tokens, None);
    let (identity, _) = sandbox.identity().mint(&ada, &sid);
    (identity, sid)
}

fn config_with_fake(fake: &FakeTrino) -> Config {
    let mut config = test_config();
    config.querymesh.url = Some(fake.url.clone());
    config
}

async fn post(sandbox: &Sandbox, identity: Option<&str>, body: &str) -> (u16, Value) {
    let mut request = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(identity) = identity {
        request = request.header("X-NNumbers-Identity", identity);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

const EXAMPLE: &str =
    r#"{"sql": "SELECT name, regionkey FROM tpch.tiny.nation", "max_rows": 1000}"#;

fn assert_refusal(got: (u16, Value), status: u16, code: &str) -> String {
    assert_eq!(got.0, status, "{}", got.1);
    assert_eq!(got.1["code"], code, "{}", got.1);
    assert_eq!(
        got.1.as_object().unwrap().len(),
        2,
        "only code and message: {}",
        got.1
    );
    got.1["message"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn success_has_the_spec_shape_and_uses_the_persons_token() {
    let fake = FakeTrino::start(Behaviour::Rows(
        vec![
            ("name", "varchar(25)", "varchar"),
            ("regionkey", "bigint", "bigint"),
        ],
        vec![json!(["BRAZIL", 1])],
    ))
    .await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    let (status, body) = post(&sandbox, Some(&identity), EXAMPLE).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"columns": [{"name": "name", "type": "varchar"}, {"name": "regionkey", "type": "bigint"}],
               "rows": [["BRAZIL", 1]]})
    );
    let seen = fake.seen();
    let (_, path, headers) = &seen.requests[0];
    assert_eq!(path, "/v1/statement");
    assert_eq!(
        headers["authorization"],
        format!("Bearer {ACCESS_TOKEN}").as_str()
    );
    let ada = sandbox.config().person("ada").unwrap().sub.clone();
    assert_eq!(headers["x-trino-user"], ada.as_str());
    assert!(
        headers.get("x-nnumbers-identity").is_none(),
        "the identity stays in the platform"
    );
    assert_eq!(
        seen.bodies[0],
        "SELECT name, regionkey FROM tpch.tiny.nation"
    );
}

#[tokio::test]
async fn no_identity_is_user_session_required() {
    let sandbox = support::start().await;
    assert_refusal(
        post(&sandbox, None, EXAMPLE).await,
        401,
        "USER_SESSION_REQUIRED",
    );
}

#[tokio::test]
async fn an_identity_failing_any_check_is_invalid() {
    let sandbox = support::start().await;
    let (identity, sid) = session_for_ada(&sandbox);
    let ada = sandbox.config().person("ada").unwrap().clone();
    let claims = sandbox.identity().claims(&ada, &sid);
    let key = sandbox.identity().keys.current();
    use zero_sandbox::identity::{Forgery, forge};
    let forgeries = [
        Forgery::Expired,
        Forgery::NotYetValid,
        Forgery::Audience("another-app".into()),
        Forgery::Organization("another-org".into()),
        Forgery::Issuer("https://evil.example".into()),
        Forgery::UnknownKid,
        Forgery::BadSignature,
        Forgery::AlgNone,
    ];
    for forgery in forgeries {
        let token = forge(&key, claims.clone(), std::slice::from_ref(&forgery));
        let message = assert_refusal(
            post(&sandbox, Some(&token), EXAMPLE).await,
            401,
            "IDENTITY_ASSERTION_INVALID",
        );
        assert!(
            message.contains("does not check out"),
            "{forgery:?}: {message}"
        );
    }
    // The typ is checked too: a token of another type signed with the right key.
    let other_typ = zero_sandbox::identity::jws::sign(&key, "JWT", &claims);
    assert_refusal(
        post(&sandbox, Some(&other_typ), EXAMPLE).await,
        401,
        "IDENTITY_ASSERTION_INVALID",
    );
    assert_refusal(
        post(&sandbox, Some("garbage"), EXAMPLE).await,
        401,
        "IDENTITY_ASSERTION_INVALID",
    );
    // Two copies of the header.
    let response = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("X-NNumbers-Identity", &identity)
        .header("X-NNumbers-Identity", &identity)
        .body(EXAMPLE)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
}

#[tokio::test]
async fn an_ended_session_is_user_session_required() {
    let sandbox = support::start().await;
    let (identity, sid) = session_for_ada(&sandbox);
    assert!(sandbox.sessions().end(&sid));
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        401,
        "USER_SESSION_REQUIRED",
    );
    assert!(message.contains("ended"), "{message}");
}

#[tokio::test]
async fn bad_bodies_are_validation_failed() {
    let sandbox = support::start().await;
    let (identity, _) = session_for_ada(&sandbox);
    for body in [
        "{",
        "[]",
        "{}",
        r#"{"sql": ""}"#,
        r#"{"sql": "SELECT 1", "max_rows": 0}"#,
        r#"{"sql": "SELECT 1", "max_rows": 100001}"#,
    ] {
        assert_refusal(
            post(&sandbox, Some(&identity), body).await,
            400,
            "VALIDATION_FAILED",
        );
    }
}

#[tokio::test]
async fn switches_turn_querymesh_off_while_running() {
    let sandbox = support::start().await;
    let (identity, _) = session_for_ada(&sandbox);
    let switches = sandbox.switches();
    switches.set(Switch::QueryMeshEnabled, false);
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        409,
        "QUERYMESH_NOT_ENABLED",
    );
    assert!(message.contains("enabled = true"), "{message}");
    switches.set(Switch::QueryMeshConfigured, false);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        409,
        "ORGANIZATION_INTEGRATION_NOT_CONFIGURED",
    );
}

#[tokio::test]
async fn switches_from_the_configuration() {
    let mut config = test_config();
    config.querymesh.enabled = false;
    let sandbox = support::start_with(config).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        409,
        "QUERYMESH_NOT_ENABLED",
    );
}

#[tokio::test]
async fn querymesh_refusing_the_token_is_identity_rejected() {
    let fake = FakeTrino::start(Behaviour::Status(401)).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        502,
        "QUERYMESH_IDENTITY_REJECTED",
    );
}

#[tokio::test]
async fn trino_errors_map_to_the_spec() {
    let cases = [
        (
            (
                "PERMISSION_DENIED",
                "USER_ERROR",
                "Access Denied: Cannot select from table tpch.tiny.nation",
            ),
            403,
            "QUERYMESH_ACCESS_DENIED",
        ),
        (
            (
                "TABLE_NOT_FOUND",
                "USER_ERROR",
                "line 1:15: Table 'tpch.tiny.foo' does not exist",
            ),
            422,
            "QUERYMESH_QUERY_FAILED",
        ),
        (
            ("GENERIC_INTERNAL_ERROR", "INTERNAL_ERROR", "boom"),
            502,
            "QUERYMESH_QUERY_FAILED",
        ),
    ];
    for ((name, kind, text), status, code) in cases {
        let fake = FakeTrino::start(Behaviour::Error(name, kind, text)).await;
        let sandbox = support::start_with(config_with_fake(&fake)).await;
        let (identity, _) = session_for_ada(&sandbox);
        let message = assert_refusal(post(&sandbox, Some(&identity), EXAMPLE).await, status, code);
        assert!(message.contains(text), "Trino's message is kept: {message}");
    }
}

#[tokio::test]
async fn an_answer_outside_the_protocol_is_a_502() {
    let fake = FakeTrino::start(Behaviour::NotProtocol).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        502,
        "QUERYMESH_QUERY_FAILED",
    );
}

#[tokio::test]
async fn a_foreign_next_uri_is_not_followed_and_the_query_is_cancelled() {
    let fake = FakeTrino::start(Behaviour::ForeignNextUri).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        502,
        "QUERYMESH_QUERY_FAILED",
    );
    assert!(message.contains("evil.example"), "{message}");
    assert_eq!(
        fake.deletes(),
        vec!["/v1/query/20261129_000000_00001_fake0".to_string()]
    );
}

#[tokio::test]
async fn more_rows_than_max_rows_cancels_and_is_a_422() {
    let fake = FakeTrino::start(Behaviour::Pages {
        pages: 5,
        per_page: 10,
    })
    .await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    let body = r#"{"sql": "SELECT n FROM t", "max_rows": 25}"#;
    let message = assert_refusal(
        post(&sandbox, Some(&identity), body).await,
        422,
        "QUERYMESH_QUERY_FAILED",
    );
    assert!(message.contains("max_rows = 25"), "{message}");
    assert_eq!(fake.deletes().len(), 1, "cancelled once");
    // Exactly at the cap is fine, across pages.
    let (status, answer) = post(
        &sandbox,
        Some(&identity),
        r#"{"sql": "SELECT n FROM t", "max_rows": 50}"#,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["rows"].as_array().unwrap().len(), 50);
    assert_eq!(answer["rows"][49], json!([49]));
}

#[tokio::test]
async fn a_stopped_querymesh_is_unavailable() {
    let fake = FakeTrino::start(Behaviour::Status(503)).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );

    // Nothing listening at all.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut config = test_config();
    config.querymesh.url = Some(format!("http://{}", closed.local_addr().unwrap()));
    drop(closed);
    let sandbox = support::start_with(config).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
}

#[tokio::test]
async fn a_querymesh_that_never_answers_times_out_as_unavailable() {
    let fake = FakeTrino::start(Behaviour::Hang).await;
    let mut config = config_with_fake(&fake);
    config.broker.querymesh_timeout_secs = 1;
    let sandbox = support::start_with(config).await;
    let (identity, _) = session_for_ada(&sandbox);
    let started = Instant::now();
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn the_platform_query_limit_is_unavailable() {
    let release = Arc::new(Notify::new());
    let fake = FakeTrino::start(Behaviour::Wait(release.clone())).await;
    let mut config = config_with_fake(&fake);
    config.broker.max_concurrent_queries = 2;
    let sandbox = Arc::new(support::start_with(config).await);
    let (identity, _) = session_for_ada(&sandbox);
    let mut running = Vec::new();
    for _ in 0..2 {
        let (sandbox, identity) = (sandbox.clone(), identity.clone());
        running.push(tokio::spawn(async move {
            post(&sandbox, Some(&identity), EXAMPLE).await
        }));
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while fake.seen().requests.len() < 2 {
        assert!(Instant::now() < deadline, "both queries reach QueryMesh");
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(message.contains("limit of 2"), "{message}");
    release.notify_one();
    release.notify_one();
    for r in running {
        assert_eq!(r.await.unwrap().0, 200);
    }
    // The slots are free again.
    release.notify_one();
    assert_eq!(post(&sandbox, Some(&identity), EXAMPLE).await.0, 200);
}

/// One person at their share of the platform's limit gets 503; everyone else still queries.
#[tokio::test]
async fn one_persons_share_of_the_query_limit_leaves_room_for_others() {
    let release = Arc::new(Notify::new());
    let fake = FakeTrino::start(Behaviour::Wait(release.clone())).await;
    let mut config = config_with_fake(&fake);
    config.broker.max_concurrent_queries = 8;
    config.broker.max_concurrent_queries_per_person = 2;
    let sandbox = Arc::new(support::start_with(config).await);
    let (identity, _) = session_for_ada(&sandbox);
    let mut running = Vec::new();
    for _ in 0..2 {
        let (sandbox, identity) = (sandbox.clone(), identity.clone());
        running.push(tokio::spawn(async move {
            post(&sandbox, Some(&identity), EXAMPLE).await
        }));
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while fake.seen().requests.len() < 2 {
        assert!(Instant::now() < deadline, "both queries reach QueryMesh");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(message.contains("limit of 2"), "{message}");
    assert!(message.contains("for one person"), "{message}");

    // Grace's query is let through to QueryMesh while Ada's two wait there.
    let grace = sandbox.config().person("grace").unwrap().clone();
    let tokens = IamTokens {
        access_token: "test-access-token-of-grace".into(),
        access_expires_at: unix_now() + 300,
        refresh_token: None,
        id_token: None,
    };
    let (_, sid) = sandbox.sessions().create(grace.clone(), tokens, None);
    let (grace_identity, _) = sandbox.identity().mint(&grace, &sid);
    let theirs = {
        let sandbox = sandbox.clone();
        tokio::spawn(async move { post(&sandbox, Some(&grace_identity), EXAMPLE).await })
    };
    while fake.seen().requests.len() < 3 {
        assert!(Instant::now() < deadline, "Grace's query reaches QueryMesh");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for _ in 0..3 {
        release.notify_one();
    }
    for r in running {
        assert_eq!(r.await.unwrap().0, 200);
    }
    assert_eq!(theirs.await.unwrap().0, 200);
}

/// `max_rows` bounds rows, `[broker] max_answer_mb` their size: wide rows past it are the
/// query's fault (422) and the query is cancelled, never gathered whole.
#[tokio::test]
async fn an_answer_past_the_brokers_size_limit_is_refused_and_cancelled() {
    let mut config = test_config();
    config.broker.max_answer_mb = 1;
    let sandbox = support::start_with(config).await;
    let ada = support::sign_in(&sandbox, "ada").await;
    let identity = ada.identity(&sandbox);
    // About 6 MB of Trino JSON: 60,175 comments of lineitem.
    let wide = r#"{"sql": "SELECT comment FROM tpch.tiny.lineitem"}"#;
    let message = assert_refusal(
        post(&sandbox, Some(&identity), wide).await,
        422,
        "QUERYMESH_QUERY_FAILED",
    );
    assert!(message.contains("limit of 1 MiB"), "{message}");
    // The same person's narrower query still answers.
    let (status, body) = post(&sandbox, Some(&identity), EXAMPLE).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn no_identity_keys_is_not_ready() {
    let sandbox = support::start().await;
    let (identity, _) = session_for_ada(&sandbox);
    sandbox.switches().set(Switch::IdentityKeysAvailable, false);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "APPLICATION_IDENTITY_NOT_READY",
    );
}

#[tokio::test]
async fn an_https_querymesh_that_does_not_speak_tls_is_unavailable_with_the_cause() {
    let fake = FakeTrino::start(Behaviour::Status(200)).await;
    let mut config = test_config();
    config.querymesh.url = Some(fake.url.replace("http://", "https://"));
    let sandbox = support::start_with(config).await;
    let (identity, _) = session_for_ada(&sandbox);
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(message.contains("https://127.0.0.1"), "{message}");
    assert!(message.contains("did not answer ("), "{message}");
}

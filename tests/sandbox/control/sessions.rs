//! `POST/GET/DELETE sessions` and `POST querymesh-tokens`: a session without a browser works
//! like a browser's at the edge and the broker, and ends like one.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::{Value, json};

use super::{Control, assert_api_error, query};
use crate::support;

fn claims_of(identity: &str) -> Value {
    let payload = identity.split('.').nth(1).expect("a compact JWS");
    serde_json::from_slice(&B64.decode(payload).expect("base64url")).expect("JSON claims")
}

#[tokio::test]
async fn a_session_from_the_api_is_a_browser_session_at_the_edge_and_the_broker() {
    let (sandbox, _echo) = support::start_with_echo().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    let sub = sandbox.config().person("ada").expect("ada").sub.clone();
    assert_eq!(session["sub"], sub.as_str());
    assert_eq!(session["cookie"]["name"], "__nnumbers_session");
    let claims = claims_of(session["identity"].as_str().expect("identity"));
    assert_eq!(claims["sid"], session["sid"]);
    assert_eq!(claims["sub"], sub.as_str());
    assert_eq!(session["identity_expires_at"], claims["exp"]);

    // The edge takes the cookie as it takes a browser's: the app gets an identity of the sid.
    let echoed: Value = support::client()
        .get(support::edge(&sandbox, "/hello"))
        .header(
            "cookie",
            session["cookie"]["header"].as_str().expect("header"),
        )
        .send()
        .await
        .expect("the edge answers")
        .json()
        .await
        .expect("the echo");
    let forwarded = echoed["headers"]
        .as_array()
        .expect("headers")
        .iter()
        .find(|h| h[0] == "x-nnumbers-identity")
        .map(|h| h[1].as_str().expect("a value").to_string())
        .expect("the app got an identity");
    assert_eq!(claims_of(&forwarded)["sid"], session["sid"]);

    // The broker runs the first query with the session's own IAM token.
    assert_eq!(query(&sandbox, &session).await, (200, "OK".into()));
    let (status, listed) = control.get("/sessions").await;
    assert_eq!(status, 200);
    assert_eq!(listed["sessions"][0]["sid"], session["sid"]);
    assert_eq!(listed["sessions"][0]["sub"], sub.as_str());
    assert!(
        !listed
            .to_string()
            .contains(session["cookie"]["value"].as_str().unwrap())
    );
}

#[tokio::test]
async fn a_person_by_username_or_ad_hoc_claims() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let by_sub = control
        .session(&sandbox.config().person("grace").expect("grace").sub.clone())
        .await;
    let by_name = control.session("grace").await;
    assert_eq!(by_sub["sub"], by_name["sub"]);
    assert_ne!(by_sub["sid"], by_name["sid"]);

    let (status, ad_hoc) = control
        .post(
            "/sessions",
            json!({ "claims": { "sub": "tester-1", "name": "Tess", "email": "t@example.com", "groups": ["qa"] } }),
        )
        .await;
    assert_eq!(status, 201, "{ad_hoc}");
    let claims = claims_of(ad_hoc["identity"].as_str().expect("identity"));
    assert_eq!(
        (claims["sub"].as_str(), claims["name"].as_str()),
        (Some("tester-1"), Some("Tess"))
    );
    assert_eq!(query(&sandbox, &ad_hoc).await, (200, "OK".into()));
}

#[tokio::test]
async fn ending_a_session_or_a_persons_sign_in_answers_401_at_once() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let first = control.session("ada").await;
    let second = control.session("ada").await;
    let other = control.session("grace").await;

    // As the app's logout: that session only.
    let sid = first["sid"].as_str().expect("sid");
    assert_eq!(control.delete(&format!("/sessions/{sid}")).await.0, 200);
    assert_eq!(
        query(&sandbox, &first).await,
        (401, "USER_SESSION_REQUIRED".into())
    );
    assert_eq!(query(&sandbox, &second).await, (200, "OK".into()));

    // As the IAM ending the person's sign-in: all of theirs, nobody else's.
    let sub = second["sub"].as_str().expect("sub");
    let (status, ended) = control.delete(&format!("/sessions?sub={sub}")).await;
    assert_eq!((status, ended["ended"].as_u64()), (200, Some(1)));
    assert_eq!(
        query(&sandbox, &second).await,
        (401, "USER_SESSION_REQUIRED".into())
    );
    assert_eq!(query(&sandbox, &other).await, (200, "OK".into()));
    assert_eq!(sandbox.sessions().list().len(), 1);
}

#[tokio::test]
async fn the_errors_of_sessions_name_what_is_wrong() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let cases = [
        (
            json!({ "person": "nobody" }),
            404,
            "UNKNOWN_PERSON",
            "nobody",
        ),
        (
            json!({ "person": "ada", "extra": 1 }),
            400,
            "INVALID_REQUEST",
            "`extra`",
        ),
        (json!({ "person": 7 }), 400, "INVALID_REQUEST", "`person`"),
        (json!({}), 400, "INVALID_REQUEST", "`person`"),
        (
            json!({ "person": "ada", "claims": { "sub": "x" } }),
            400,
            "INVALID_REQUEST",
            "not both",
        ),
        (
            json!({ "claims": { "sub": "x", "colour": "red" } }),
            400,
            "INVALID_REQUEST",
            "`claims.colour`",
        ),
        (
            json!({ "claims": { "sub": "x", "groups": "qa" } }),
            400,
            "INVALID_REQUEST",
            "`claims.groups`",
        ),
        (
            json!({ "claims": { "sub": " " } }),
            400,
            "INVALID_REQUEST",
            "`claims.sub`",
        ),
        (
            json!({ "claims": { "sub": "x", "email_verified": true } }),
            400,
            "INVALID_REQUEST",
            "`claims.email_verified`",
        ),
        (json!({ "claims": [] }), 400, "INVALID_REQUEST", "`claims`"),
    ];
    for (body, status, code, names) in cases {
        assert_api_error(&control.post("/sessions", body).await, status, code, names);
    }
    assert_api_error(
        &control.delete("/sessions/not-a-sid").await,
        404,
        "UNKNOWN_SESSION",
        "not-a-sid",
    );
    assert_api_error(
        &control.delete("/sessions").await,
        400,
        "INVALID_REQUEST",
        "`sub`",
    );
    assert_api_error(
        &control.get("/sessions?who=ada").await,
        400,
        "INVALID_REQUEST",
        "`who`",
    );
    assert!(
        sandbox.sessions().list().is_empty(),
        "no refused request made a session"
    );
}

#[tokio::test]
async fn a_querymesh_token_lets_a_trino_client_query_querymesh_directly() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let (status, token) = control
        .post("/querymesh-tokens", json!({ "person": "ada" }))
        .await;
    assert_eq!(status, 200, "{token}");
    assert_eq!(token["querymesh"], sandbox.querymesh_url());
    let sub = sandbox.config().person("ada").expect("ada").sub.clone();
    assert_eq!(token["user"], sub.as_str());
    let response = support::client()
        .post(format!(
            "{}/v1/statement",
            sandbox.endpoints().querymesh_url()
        ))
        .bearer_auth(token["access_token"].as_str().expect("a token"))
        .header("x-trino-user", sub)
        .body("SELECT count(*) FROM tpch.tiny.region")
        .send()
        .await
        .expect("QueryMesh answers");
    assert_eq!(response.status(), 200, "QueryMesh accepts the token");
    let page: Value = response.json().await.expect("QueryResults");
    assert!(page.get("error").is_none(), "{page}");

    assert_api_error(
        &control
            .post("/querymesh-tokens", json!({ "person": "nobody" }))
            .await,
        404,
        "UNKNOWN_PERSON",
        "nobody",
    );
    assert_api_error(
        &control.post("/querymesh-tokens", json!({})).await,
        400,
        "INVALID_REQUEST",
        "`person`",
    );
    assert_api_error(
        &control
            .post("/querymesh-tokens", json!({ "person": "ada", "ttl": 5 }))
            .await,
        400,
        "INVALID_REQUEST",
        "`ttl`",
    );
}

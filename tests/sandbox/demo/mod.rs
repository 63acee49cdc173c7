//! The built-in demo app: served through the edge when no `--app` is given, it makes the
//! spec's five checks on the identity it receives and queries through the broker.

use std::time::Duration;

use reqwest::header::COOKIE;
use serde_json::{Value, json};
use zero_sandbox::Sandbox;
use zero_sandbox::identity::{Forgery, forge};

use crate::support::{self, client, edge, sign_in};

/// The demo backend's own address: what a request that skips the edge reaches.
fn demo_direct(sandbox: &Sandbox, path: &str) -> String {
    format!("{}{path}", sandbox.app_url())
}

/// Each check's name → passed, as the demo reports them for `token` sent straight to it.
async fn checks(sandbox: &Sandbox, token: &str) -> (bool, Vec<(String, bool)>) {
    let answer: Value = client()
        .get(demo_direct(sandbox, "/api/identity"))
        .header("X-NNumbers-Identity", token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["received"], true);
    let report = &answer["report"];
    let checks = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    (report["accepted"].as_bool().unwrap(), checks)
}

#[tokio::test]
async fn the_demo_page_is_served_through_the_edge() {
    let sandbox = support::start().await;
    let page = client().get(edge(&sandbox, "/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains(r#"href="/.nnumbers/auth/login?return_to=/""#));
    assert!(html.contains(r#"method="post" action="/.nnumbers/auth/logout""#));
    for asset in ["/app.js", "/style.css"] {
        let response = client().get(edge(&sandbox, asset)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{asset}");
    }
    let identity: Value = client()
        .get(edge(&sandbox, "/api/identity"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(identity, json!({ "received": false }));
}

#[tokio::test]
async fn the_demo_shows_each_of_the_five_checks() {
    let sandbox = support::start().await;
    let key = sandbox.identity().keys.current();
    let claims = sandbox
        .identity()
        .claims(&sandbox.config().people[0], "sid-demo");
    let names = ["signature", "iss", "aud", "org", "nbf/exp"];

    let (accepted, all) = checks(&sandbox, &forge(&key, claims.clone(), &[])).await;
    assert!(accepted);
    assert_eq!(all, names.map(|n| (n.to_string(), true)));

    for (forgery, failing) in [
        (Forgery::BadSignature, "signature"),
        (Forgery::UnknownKid, "signature"),
        (Forgery::AlgNone, "signature"),
        (Forgery::Issuer("https://other.example".into()), "iss"),
        (Forgery::Audience("another-app".into()), "aud"),
        (Forgery::Organization("another-org".into()), "org"),
        (Forgery::Expired, "nbf/exp"),
        (Forgery::NotYetValid, "nbf/exp"),
    ] {
        let token = forge(&key, claims.clone(), std::slice::from_ref(&forgery));
        let (accepted, all) = checks(&sandbox, &token).await;
        assert!(!accepted, "{forgery:?}");
        for (name, passed) in all {
            assert_eq!(passed, name != failing, "{forgery:?}: check {name}");
        }

        // And the demo refuses to query with it: never treated as a person.
        let refused = client()
            .post(demo_direct(&sandbox, "/api/query"))
            .header("X-NNumbers-Identity", &token)
            .json(&json!({ "sql": "SELECT 1" }))
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), 401);
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["code"], "IDENTITY_ASSERTION_INVALID");
    }
}

#[tokio::test]
async fn a_signed_in_person_passes_every_check_through_the_edge() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let answer: Value = client()
        .get(edge(&sandbox, "/api/identity"))
        .header(COOKIE, &ada.cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let report = &answer["report"];
    assert_eq!(report["accepted"], true, "{answer}");
    assert_eq!(report["claims"]["sub"], ada.sub.as_str());
    assert!(
        report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["passed"] == true)
    );
}

#[tokio::test]
async fn after_a_key_rotation_the_demo_fetches_the_brokers_jwks() {
    let sandbox = support::start().await;
    sandbox
        .identity()
        .keys
        .rotate(Duration::from_secs(600))
        .unwrap();
    // Signed by a key the demo's NNUMBERS_IDENTITY_JWKS (taken at start) does not hold.
    let (token, _) = sandbox
        .identity()
        .mint(&sandbox.config().people[0], "sid-rotated");
    let (accepted, _) = checks(&sandbox, &token).await;
    assert!(
        accepted,
        "the unknown kid was looked up at {{broker}}/v1/jwks"
    );
}

#[tokio::test]
async fn the_demo_queries_through_the_broker() {
    let sandbox = support::start().await;
    let anonymous = client()
        .post(edge(&sandbox, "/api/query"))
        .json(&json!({ "sql": "SELECT name FROM tpch.tiny.region" }))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    let body: Value = anonymous.json().await.unwrap();
    assert_eq!(body["code"], "USER_SESSION_REQUIRED");

    let ada = sign_in(&sandbox, "ada").await;
    let answer = client()
        .post(edge(&sandbox, "/api/query"))
        .header(COOKIE, &ada.cookie)
        .json(&json!({
            "sql": "SELECT name, regionkey FROM tpch.tiny.nation ORDER BY name",
            "max_rows": 1000,
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(
        body["columns"],
        json!([{"name": "name", "type": "varchar"}, {"name": "regionkey", "type": "bigint"}])
    );
    assert_eq!(body["rows"].as_array().unwrap().len(), 25);
    assert_eq!(body["rows"][0], json!(["ALGERIA", 0]));
}

#[tokio::test]
async fn the_demo_answers_a_body_that_is_not_a_query_in_the_spec_shape() {
    let sandbox = support::start().await;
    let refused = client()
        .post(edge(&sandbox, "/api/query"))
        .body("SELECT 1")
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "VALIDATION_FAILED");
}

//! Tokens checked like Trino's JWT authenticator: a rotated IAM key is fetched again, another
//! session user is not impersonated, query info answers only its owner.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use zero_sandbox::identity::jws::{self, Header};
use zero_sandbox::identity::{KeyPair, unix_now};
use zero_sandbox::querymesh::server::WWW_AUTHENTICATE;

use super::{Mesh, NATION};

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

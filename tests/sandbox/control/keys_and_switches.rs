//! `GET/PATCH switches`, `GET keys` and `POST keys/rotate`.

use serde_json::{Value, json};

use super::{Control, assert_api_error, query};
use crate::support;

fn kid_of(identity: &str) -> String {
    use base64::Engine;
    let header = identity.split('.').next().expect("a JWS");
    let header: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(header)
            .expect("base64url"),
    )
    .expect("JSON");
    header["kid"].as_str().expect("a kid").to_string()
}

#[tokio::test]
async fn each_switch_takes_effect_on_the_next_query() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let (status, switches) = control.get("/switches").await;
    assert_eq!(status, 200);
    assert_eq!(
        switches,
        json!({
            "querymesh_configured": true,
            "querymesh_enabled": true,
            "querymesh_scope": true,
            "identity_keys_available": true,
        })
    );
    let session = control.session("ada").await;
    for (switch, status, code) in [
        (
            "querymesh_configured",
            409,
            "ORGANIZATION_INTEGRATION_NOT_CONFIGURED",
        ),
        ("querymesh_enabled", 409, "QUERYMESH_NOT_ENABLED"),
        (
            "identity_keys_available",
            503,
            "APPLICATION_IDENTITY_NOT_READY",
        ),
    ] {
        let (patched, now) = control.patch("/switches", json!({ switch: false })).await;
        assert_eq!((patched, &now[switch]), (200, &json!(false)));
        assert_eq!(
            query(&sandbox, &session).await,
            (status, code.to_string()),
            "{switch}"
        );
        control.patch("/switches", json!({ switch: true })).await;
        assert_eq!(query(&sandbox, &session).await, (200, "OK".into()));
    }
    // The realm's scope reaches new tokens: a session started without it is refused by QueryMesh.
    control
        .patch("/switches", json!({ "querymesh_scope": false }))
        .await;
    let scopeless = control.session("grace").await;
    assert_eq!(
        query(&sandbox, &scopeless).await,
        (502, "QUERYMESH_IDENTITY_REJECTED".into())
    );

    assert_api_error(
        &control
            .patch("/switches", json!({ "querymesh": false }))
            .await,
        400,
        "INVALID_REQUEST",
        "`querymesh`",
    );
    assert_api_error(
        &control
            .patch("/switches", json!({ "querymesh_enabled": "no" }))
            .await,
        400,
        "INVALID_REQUEST",
        "`querymesh_enabled`",
    );
    // A refused PATCH changes nothing, not even its valid fields.
    control
        .patch(
            "/switches",
            json!({ "querymesh_enabled": false, "querymesh_scope": 1 }),
        )
        .await;
    assert_eq!(control.get("/switches").await.1["querymesh_enabled"], true);
}

#[tokio::test]
async fn a_rotated_key_signs_new_identities_and_is_not_in_the_apps_environment() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let jwks_of_app = sandbox.env().identity_jwks.clone();
    let before = control.session("ada").await;
    let (status, keys) = control.get("/keys").await;
    assert_eq!(status, 200);
    let first = keys["current"].as_str().expect("a kid").to_string();
    assert_eq!(kid_of(before["identity"].as_str().unwrap()), first);
    assert_eq!(keys["published"][0]["in_app_environment"], true);

    let (status, rotated) = control.post("/keys/rotate", json!({})).await;
    assert_eq!(status, 200, "{rotated}");
    let second = rotated["current"].as_str().expect("a kid").to_string();
    assert_ne!(first, second);
    assert_eq!(rotated["published"][0]["in_app_environment"], false);
    assert_eq!(rotated["published"][1]["kid"], first.as_str());
    assert!(
        !jwks_of_app.contains(&second),
        "the app's environment predates the rotation"
    );

    // New identities carry the new kid; /v1/jwks publishes both during the grace period.
    let after = control.session("ada").await;
    assert_eq!(kid_of(after["identity"].as_str().unwrap()), second);
    let jwks: Value = support::client()
        .get(format!("{}/v1/jwks", sandbox.endpoints().broker_url()))
        .send()
        .await
        .expect("jwks")
        .json()
        .await
        .expect("JSON");
    let kids: Vec<&str> = jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kid"].as_str().unwrap())
        .collect();
    assert_eq!(kids, [second.as_str(), first.as_str()]);
    assert_eq!(
        query(&sandbox, &before).await,
        (200, "OK".into()),
        "still published"
    );

    // Without a grace period the previous key is gone at once: its identities are refused.
    control
        .post("/keys/rotate", json!({ "grace_seconds": 0 }))
        .await;
    assert_eq!(
        query(&sandbox, &after).await,
        (401, "IDENTITY_ASSERTION_INVALID".into())
    );

    assert_api_error(
        &control.post("/keys/rotate", json!({ "grace": 5 })).await,
        400,
        "INVALID_REQUEST",
        "`grace`",
    );
    assert_api_error(
        &control
            .post("/keys/rotate", json!({ "grace_seconds": -1 }))
            .await,
        400,
        "INVALID_REQUEST",
        "`grace_seconds`",
    );
}

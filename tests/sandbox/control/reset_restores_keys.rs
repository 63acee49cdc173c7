//! `POST reset` puts the identity keys back to those the app's environment was made from: a
//! suite that rotates a key in one test and resets after it must not leave every later test
//! with identities whose kid is not in `NNUMBERS_IDENTITY_JWKS`. A scoped reset (`?sid=`,
//! `?sub=`) leaves the keys alone.

use serde_json::{Value, json};
use zero_sandbox::Sandbox;
use zero_sandbox::identity::{Jwks, verify_identity};

use super::{Control, query};
use crate::support;

/// What `GET /v1/jwks` publishes now.
async fn published(sandbox: &Sandbox) -> Jwks {
    support::client()
        .get(format!("{}/v1/jwks", sandbox.endpoints().broker_url()))
        .send()
        .await
        .expect("jwks")
        .json()
        .await
        .expect("a JWKS")
}

/// Whether the identity of `session` verifies as the app verifies it: against `environment`,
/// the JWKS its environment was given at start, and nothing fetched.
fn app_accepts(sandbox: &Sandbox, environment: &str, session: &Value) -> bool {
    let jwks: Jwks = serde_json::from_str(environment).expect("the environment's JWKS");
    let identity = session["identity"].as_str().expect("an identity");
    let audience = &sandbox.identity().audience;
    verify_identity(
        identity,
        &jwks.public_keys(),
        audience,
        zero_sandbox::identity::unix_now(),
    )
    .is_ok()
}

#[tokio::test]
async fn a_whole_reset_brings_back_the_key_the_apps_environment_holds() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let environment = sandbox.env().identity_jwks.clone();
    let original = control.get("/keys").await.1["current"].clone();
    assert!(app_accepts(
        &sandbox,
        &environment,
        &control.session("ada").await
    ));

    for grace in [600, 0] {
        let (status, _) = control
            .post("/keys/rotate", json!({ "grace_seconds": grace }))
            .await;
        assert_eq!(status, 200);
    }
    assert!(!app_accepts(
        &sandbox,
        &environment,
        &control.session("ada").await
    ));

    let (status, reset) = control.post("/reset", json!({})).await;
    assert_eq!(status, 200, "{reset}");
    assert_eq!(reset["keys_restored"], true);
    let (_, keys) = control.get("/keys").await;
    assert_eq!(keys["current"], original);
    assert_eq!(keys["published"][0]["in_app_environment"], true);
    assert_eq!(
        serde_json::to_value(published(&sandbox).await).expect("JSON"),
        serde_json::from_str::<Value>(&environment).expect("JSON"),
        "/v1/jwks is exactly the environment's JWKS"
    );
    let after = control.session("ada").await;
    assert!(
        app_accepts(&sandbox, &environment, &after),
        "the app verifies it"
    );
    assert_eq!(query(&sandbox, &after).await, (200, "OK".into()));

    // Nothing rotated since: a reset changes no key.
    let (_, again) = control.post("/reset", json!({})).await;
    assert_eq!(again["keys_restored"], false);
}

#[tokio::test]
async fn the_restored_key_is_the_one_the_state_directory_keeps() {
    let state = tempfile::tempdir().expect("a state directory");
    let config = || {
        let mut config = support::test_config();
        config.state_dir = Some(state.path().to_path_buf());
        config
    };
    let sandbox = support::start_with(config()).await;
    let control = Control::of(&sandbox);
    let environment = sandbox.env().identity_jwks.clone();
    control.post("/keys/rotate", json!({})).await;
    control.post("/reset", json!({})).await;
    sandbox.shutdown().await;

    let next = support::start_with(config()).await;
    assert_eq!(
        next.env().identity_jwks,
        environment,
        "the next start on this state directory gives the app the same keys"
    );
    next.shutdown().await;
}

#[tokio::test]
async fn a_scoped_reset_keeps_a_rotated_key() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = control.session("ada").await;
    let (_, rotated) = control.post("/keys/rotate", json!({})).await;
    let sid = ada["sid"].as_str().expect("a sid");
    let sub = ada["sub"].as_str().expect("a sub");
    for scope in [format!("sid={sid}"), format!("sub={sub}")] {
        let (status, reset) = control.post(&format!("/reset?{scope}"), json!({})).await;
        assert_eq!(status, 200, "{reset}");
        assert_eq!(reset.get("keys_restored"), None, "{scope}");
        assert_eq!(
            control.get("/keys").await.1["current"],
            rotated["current"],
            "{scope}"
        );
    }
}

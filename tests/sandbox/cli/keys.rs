//! The keys: kept across restarts and private, the identity's apart from the IAM's, published as
//! the env's JWKS.

use serde_json::Value;

use crate::support::{self, test_config};

#[tokio::test]
async fn keys_survive_a_restart_and_are_private() {
    let state = tempfile::tempdir().unwrap();
    let mut config = test_config();
    config.state_dir = Some(state.path().to_path_buf());
    let first = support::start_with(config.clone()).await;
    let jwks = first.env().identity_jwks;
    first.shutdown().await;
    let second = support::start_with(config).await;
    assert_eq!(second.env().identity_jwks, jwks);
    second.shutdown().await;

    #[cfg(unix)]
    for file in ["identity-keys.json", "iam-keys.json"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(state.path().join(file))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{file}");
    }
}

#[tokio::test]
async fn the_identity_and_iam_keys_differ() {
    let sandbox = support::start().await;
    assert_ne!(
        sandbox.identity().keys.current().kid(),
        sandbox.iam_keys().current().kid()
    );
}

#[tokio::test]
async fn broker_publishes_the_env_jwks_with_cache_headers() {
    let sandbox = support::start().await;
    let response = support::client()
        .get(format!("{}/v1/jwks", sandbox.endpoints().broker_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let cache = response.headers()["cache-control"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(cache.contains("max-age="), "{cache}");
    let body: Value = response.json().await.unwrap();
    let env: Value = serde_json::from_str(&sandbox.env().identity_jwks).unwrap();
    assert_eq!(body, env);
    assert_eq!(body["keys"][0]["alg"], "ES256");
    assert_eq!(body["keys"][0]["use"], "sig");
}

//! `scope=openid profile email offline_access` (issue 30): Keycloak has `offline_access` in
//! every client's default scopes and many OIDC clients ask for it. The realm lists it, grants
//! it, and the refresh token it comes with is an offline one (OIDC Core §11): it outlives the
//! sign-in session, as Keycloak's offline tokens do, until the person's sign-in is ended from
//! the test-control API or the sandbox is reset.

use reqwest::StatusCode;
use serde_json::Value;

use super::{ADA, error_of};
use crate::iam::Flow;
use crate::support;

const WITH_OFFLINE: &str = "openid profile email offline_access";

#[tokio::test]
async fn offline_access_is_listed_granted_and_outlives_the_sign_in() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let discovery: Value = support::client()
        .get(format!(
            "{}/.well-known/openid-configuration",
            flow.endpoints.issuer
        ))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let scopes = discovery["scopes_supported"].as_array().unwrap();
    assert!(scopes.contains(&"offline_access".into()), "{discovery}");

    // Asked for with the page: granted, and said in the scope.
    let (_, auth_request) = flow.sign_in_page(&[("scope", Some(WITH_OFFLINE))]).await;
    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", ADA)])
        .await;
    let offline = flow.tokens(&flow.code_from(&response)).await;
    let granted: Vec<&str> = offline["scope"].as_str().unwrap().split(' ').collect();
    assert!(granted.contains(&"offline_access"), "{offline}");
    assert_eq!(offline["refresh_expires_in"], 0, "no lifespan of its own");
    // Without it, a refresh token bound to the sign-in, as before.
    let online = flow
        .tokens(&flow.code_from(&flow.get(&flow.authorize_url(&[])).await))
        .await;
    assert!(!online["scope"].as_str().unwrap().contains("offline_access"));
    assert!(online["refresh_expires_in"].as_u64().unwrap() > 0);

    // The person signs out of the IAM: the online token dies, the offline one refreshes.
    sandbox
        .iam()
        .end_sso_session(offline["session_state"].as_str().unwrap());
    let (status, error, _) = error_of(
        flow.refresh(online["refresh_token"].as_str().unwrap())
            .await,
    )
    .await;
    assert_eq!(
        (status, error.as_str()),
        (StatusCode::BAD_REQUEST, "invalid_grant")
    );
    let response = flow
        .refresh(offline["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let refreshed: Value = response.json().await.unwrap();
    assert!(
        refreshed["scope"]
            .as_str()
            .unwrap()
            .contains("offline_access")
    );
    assert!(refreshed["access_token"].as_str().is_some());

    // Ending the person's sign-in from the test-control API revokes it too.
    sandbox.iam().end_sessions_of(ADA);
    let (status, error, _) = error_of(
        flow.refresh(refreshed["refresh_token"].as_str().unwrap())
            .await,
    )
    .await;
    assert_eq!(
        (status, error.as_str()),
        (StatusCode::BAD_REQUEST, "invalid_grant")
    );
}

//! The realm's discovery document and JWKS names Keycloak's paths; an unknown realm is 404.

use reqwest::StatusCode;
use serde_json::Value;

use super::Flow;
use crate::support;

#[tokio::test]
async fn discovery_names_keycloaks_paths_and_unknown_realms_are_404() {
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    let client = support::client();
    let discovery: Value = client
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
    let e = &flow.endpoints;
    assert_eq!(discovery["issuer"], e.issuer.as_str());
    assert!(e.issuer.ends_with("/realms/acme"));
    assert_eq!(
        discovery["authorization_endpoint"],
        e.authorization.as_str()
    );
    assert_eq!(discovery["token_endpoint"], e.token.as_str());
    assert_eq!(discovery["jwks_uri"], e.certs.as_str());
    assert_eq!(discovery["userinfo_endpoint"], e.userinfo.as_str());
    assert_eq!(discovery["end_session_endpoint"], e.end_session.as_str());
    assert_eq!(discovery["code_challenge_methods_supported"][0], "S256");

    let realm: Value = client
        .get(&flow.endpoints.issuer)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(realm["realm"], "acme");

    let iam = sandbox.endpoints().iam_url();
    for path in [
        "/realms/other/.well-known/openid-configuration",
        "/realms/other/protocol/openid-connect/certs",
        "/realms/other/anything",
    ] {
        let response = client.get(format!("{iam}{path}")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"], "Realm does not exist");
    }
}

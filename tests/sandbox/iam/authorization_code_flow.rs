//! The authorization code flow with PKCE end to end: its tokens, their claims, the scope switch,
//! and the forms of request the endpoints accept.

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, SET_COOKIE};
use serde_json::Value;
use zero_sandbox::oidc::EDGE_CLIENT_ID;
use zero_sandbox::platform::Switch;

use super::{ADA, Flow, GRACE, callback_query, verify};
use crate::support;

#[tokio::test]
async fn the_whole_code_flow_gives_tokens_that_verify_against_the_realm_jwks() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let (page, auth_request) = flow.sign_in_page(&[]).await;
    for person in &sandbox.config().people {
        assert!(
            page.contains(&format!(r#"class="person-card" data-sub="{}""#, person.sub)),
            "a card for {}",
            person.sub
        );
    }
    assert!(page.contains("Ada Lovelace") && page.contains("ada@acme.example"));
    assert!(page.contains("Local sandbox"));

    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", ADA)])
        .await;
    let set_cookie = response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("KEYCLOAK_IDENTITY="))
        .expect("the IAM's SSO cookie");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/realms/acme/"] {
        assert!(set_cookie.contains(attribute), "{set_cookie}");
    }
    let session_state = callback_query(&response, &flow.redirect_uri)["session_state"].clone();
    let code = flow.code_from(&response);

    let tokens = flow.tokens(&code).await;
    assert_eq!(tokens["token_type"], "Bearer");
    assert_eq!(tokens["expires_in"], 300);
    assert_eq!(tokens["session_state"], session_state.as_str());
    assert_eq!(tokens["scope"], "openid profile email querymesh");
    assert!(tokens["refresh_expires_in"].as_u64().unwrap() > 9 * 3600);

    let access = verify(
        &sandbox,
        tokens["access_token"].as_str().unwrap(),
        "querymesh",
    )
    .await;
    assert_eq!(access["sub"], ADA);
    assert_eq!(access["azp"], EDGE_CLIENT_ID);
    assert_eq!(access["typ"], "Bearer");
    assert_eq!(access["sid"], session_state.as_str());
    assert_eq!(access["scope"], "openid profile email querymesh");
    assert_eq!(access["email"], "ada@acme.example");
    assert_eq!(access["groups"][0], "analysts");
    assert_eq!(
        access["exp"].as_u64().unwrap() - access["iat"].as_u64().unwrap(),
        300
    );

    let id = verify(
        &sandbox,
        tokens["id_token"].as_str().unwrap(),
        EDGE_CLIENT_ID,
    )
    .await;
    assert_eq!(id["aud"], EDGE_CLIENT_ID);
    assert_eq!(id["nonce"], flow.nonce.as_str());
    assert_eq!(id["sid"], session_state.as_str());
    assert_eq!(id["name"], "Ada Lovelace");
    assert_eq!(id["email_verified"], true);
    assert_eq!(id["preferred_username"], "ada");
    assert!(id["auth_time"].as_u64().is_some());

    // Never the identity key.
    let kid = jsonwebtoken::decode_header(tokens["access_token"].as_str().unwrap())
        .unwrap()
        .kid
        .unwrap();
    assert!(
        sandbox
            .identity()
            .keys
            .published()
            .iter()
            .all(|k| k.kid != kid)
    );

    let userinfo: Value = support::client()
        .get(&flow.endpoints.userinfo)
        .bearer_auth(tokens["access_token"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(userinfo["sub"], ADA);
    assert_eq!(userinfo["name"], "Ada Lovelace");

    let refreshed = flow
        .refresh(tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    let refreshed: Value = refreshed.json().await.unwrap();
    let access = verify(
        &sandbox,
        refreshed["access_token"].as_str().unwrap(),
        "querymesh",
    )
    .await;
    assert_eq!(access["sid"], session_state.as_str());
    assert!(refreshed["id_token"].is_string());
}

#[tokio::test]
async fn a_person_without_email_gets_no_email_claims() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let code = flow.sign_in_as(GRACE).await;
    let tokens = flow.tokens(&code).await;
    let id = verify(
        &sandbox,
        tokens["id_token"].as_str().unwrap(),
        EDGE_CLIENT_ID,
    )
    .await;
    assert_eq!(id["name"], "Grace Hopper");
    assert!(id.get("email").is_none() && id.get("email_verified").is_none());
}

#[tokio::test]
async fn the_querymesh_switch_is_read_at_every_issue() {
    let mut config = support::test_config();
    config.querymesh.scope = false;
    let sandbox = support::start_with(config).await;
    let mut flow = Flow::new(&sandbox);
    let tokens = flow.signed_in_tokens(ADA).await;
    assert_eq!(tokens["scope"], "openid profile email");
    let access = verify(
        &sandbox,
        tokens["access_token"].as_str().unwrap(),
        EDGE_CLIENT_ID,
    )
    .await;
    assert!(!access["scope"].as_str().unwrap().contains("querymesh"));
    assert!(
        !access["aud"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "querymesh")
    );

    sandbox.switches().set(Switch::QueryMeshScope, true);
    let refreshed: Value = flow
        .refresh(tokens["refresh_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    let access = verify(
        &sandbox,
        refreshed["access_token"].as_str().unwrap(),
        "querymesh",
    )
    .await;
    assert_eq!(access["scope"], "openid profile email querymesh");
}

#[tokio::test]
async fn the_authorization_endpoint_takes_post_too() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    flow.sign_in_as(ADA).await;
    let url = flow.authorize_url(&[]);
    let (_, query) = url.split_once('?').unwrap();
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let form: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let response = flow.post_form(&flow.endpoints.authorization, &form).await;
    let code = flow.code_from(&response);
    assert_eq!(flow.tokens(&code).await["token_type"], "Bearer");
}

#[tokio::test]
async fn the_public_client_may_name_itself_in_basic_and_a_secret_is_ignored() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let code = flow.sign_in_as(ADA).await;
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", &flow.redirect_uri),
            ("code_verifier", &flow.verifier),
            ("client_secret", "there-is-none"),
        ])
        .finish();
    let response = support::client()
        .post(&flow.endpoints.token)
        .basic_auth(EDGE_CLIENT_ID, Some("there-is-none"))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

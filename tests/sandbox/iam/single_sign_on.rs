//! The IAM's SSO session: a second authorization skips the page, `prompt=none`, end-session,
//! the internal API that ends a person's sessions, and the account page.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{LOCATION, SET_COOKIE};
use zero_sandbox::platform::IamTokens;

use super::{ADA, GRACE, attribute_after, callback_query, error_of};
use crate::iam::Flow;
use crate::support;

#[tokio::test]
async fn a_second_authorization_skips_the_page_until_end_session() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let code = flow.sign_in_as(ADA).await;
    let first = flow.tokens(&code).await;

    // The app signed out and the person signs in again: no page while the SSO lasts.
    let response = flow.get(&flow.authorize_url(&[])).await;
    let code = flow.code_from(&response);
    let second = flow.tokens(&code).await;
    assert_eq!(second["session_state"], first["session_state"]);

    // prompt=login shows the page with "Continue as" and "Use another account".
    let (page, auth_request) = flow.sign_in_page(&[("prompt", Some("login"))]).await;
    assert!(page.contains("Continue as") && page.contains("Use another account"));
    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", ADA)])
        .await;
    let same = flow.tokens(&flow.code_from(&response)).await;
    assert_eq!(same["session_state"], first["session_state"]);

    // End-session with only the browser's cookie (any site can link there): the IAM asks
    // first and ends nothing, as Keycloak does; a forged confirmation is asked again.
    let response = flow.get(&flow.endpoints.end_session).await;
    assert_eq!(response.status(), StatusCode::OK);
    let question = response.text().await.unwrap();
    assert!(question.contains("Do you want to sign out"), "{question}");
    let confirm = support::hidden_input(&question, "confirm").expect("a confirmation code");
    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(response.status(), StatusCode::FOUND, "the SSO still lasts");
    let forged = flow
        .post_form(&flow.endpoints.end_session, &[("confirm", "guessed")])
        .await;
    assert!(
        forged
            .text()
            .await
            .unwrap()
            .contains("Do you want to sign out")
    );
    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(response.status(), StatusCode::FOUND, "the SSO still lasts");

    // Confirmed: a page, the cookie cleared, the tokens dead.
    let response = flow
        .post_form(&flow.endpoints.end_session, &[("confirm", &confirm)])
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .any(|c| c.to_str().unwrap().contains("Max-Age=0"))
    );
    assert!(response.text().await.unwrap().contains("signed out"));

    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(response.status(), StatusCode::OK, "the page is back");
    let (status, error, _) =
        error_of(flow.refresh(first["refresh_token"].as_str().unwrap()).await).await;
    assert_eq!(
        (status, error.as_str()),
        (StatusCode::BAD_REQUEST, "invalid_grant")
    );
    let userinfo = support::client()
        .get(&flow.endpoints.userinfo)
        .bearer_auth(first["access_token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(userinfo.status(), StatusCode::UNAUTHORIZED);
    assert!(
        userinfo.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .contains(r#"error="invalid_token""#)
    );
}

#[tokio::test]
async fn prompt_none_without_sso_is_login_required_and_sso_expires() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let response = flow
        .get(&flow.authorize_url(&[("prompt", Some("none"))]))
        .await;
    let query = callback_query(&response, &flow.redirect_uri);
    assert_eq!(query["error"], "login_required");
    assert_eq!(query["state"], flow.state);

    flow.sign_in_as(ADA).await;
    let hours = u64::from(sandbox.config().iam.sso_session_hours);
    sandbox
        .iam()
        .advance_clock(Duration::from_secs(hours * 3600));
    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "an expired SSO shows the page"
    );
}

#[tokio::test]
async fn end_session_returns_only_to_the_edge_and_ends_platform_sessions() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let code = flow.sign_in_as(ADA).await;
    let tokens = flow.tokens(&code).await;
    let sso = tokens["session_state"].as_str().unwrap().to_string();
    let person = sandbox.config().people[0].clone();
    let platform_tokens = IamTokens {
        access_token: String::new(),
        access_expires_at: 0,
        refresh_token: None,
        id_token: None,
    };
    let (_, platform_sid) = sandbox
        .sessions()
        .create(person, platform_tokens, Some(sso.clone()));

    let id_token = tokens["id_token"].as_str().unwrap();
    let evil = flow
        .get(&format!(
            "{}?id_token_hint={id_token}&post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F",
            flow.endpoints.end_session
        ))
        .await;
    assert_eq!(evil.status(), StatusCode::BAD_REQUEST);
    assert!(evil.headers().get(LOCATION).is_none());
    assert!(sandbox.sessions().is_alive(&platform_sid), "nothing ended");

    // The edge ends it server-side with the ID token as hint: no cookie involved.
    let edge = sandbox.endpoints().edge_url();
    let without_cookie = Flow::new(&sandbox);
    let response = without_cookie
        .post_form(
            &flow.endpoints.end_session,
            &[
                ("id_token_hint", id_token),
                ("post_logout_redirect_uri", &format!("{edge}/")),
                ("state", "s1"),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::FOUND);
    assert_eq!(response.headers()[LOCATION], format!("{edge}/?state=s1"));
    assert!(!sandbox.sessions().is_alive(&platform_sid));
    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(response.status(), StatusCode::OK, "the page is back");
}

#[tokio::test]
async fn the_internal_api_ends_every_sso_session_of_a_person() {
    let sandbox = support::start().await;
    let mut browser_a = Flow::new(&sandbox);
    let mut browser_b = Flow::new(&sandbox);
    let a = browser_a.signed_in_tokens(ADA).await;
    let b = browser_b.signed_in_tokens(ADA).await;
    let mut other = Flow::new(&sandbox);
    let g = other.signed_in_tokens(GRACE).await;

    assert_eq!(sandbox.iam().end_sessions_of(ADA), 2);
    for tokens in [&a, &b] {
        let response = browser_a
            .refresh(tokens["refresh_token"].as_str().unwrap())
            .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    }
    let response = other.refresh(g["refresh_token"].as_str().unwrap()).await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "Grace is still signed in"
    );
    assert!(
        sandbox
            .iam()
            .end_sso_session(g["session_state"].as_str().unwrap())
    );
    assert!(
        !sandbox
            .iam()
            .end_sso_session(g["session_state"].as_str().unwrap())
    );
    assert_eq!(sandbox.iam().end_sessions_of(ADA), 0);
}

#[tokio::test]
async fn the_account_page_shows_who_is_signed_in_and_signs_out() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let account = format!("{}/account", flow.endpoints.issuer);
    let page = flow.get(&account).await.text().await.unwrap();
    assert!(page.contains("Nobody is signed in"));

    flow.sign_in_as(ADA).await;
    let page = flow.get(&account).await.text().await.unwrap();
    assert!(page.contains("Ada Lovelace"));
    let action = attribute_after(&page, r#"<form method="post" action=""#);
    assert_eq!(action, "/realms/acme/protocol/openid-connect/logout");

    let confirm = support::hidden_input(&page, "confirm").expect("the form carries its code");
    let iam = sandbox.endpoints().iam_url();
    let response = flow
        .post_form(&format!("{iam}{action}"), &[("confirm", &confirm)])
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let page = flow.get(&account).await.text().await.unwrap();
    assert!(page.contains("Nobody is signed in"));
}

#[tokio::test]
async fn the_sso_cookie_is_found_next_to_a_utf8_cookie() {
    // Cookies ignore ports: an app's cookie for Path=/ on 127.0.0.1 reaches the IAM too.
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    flow.sign_in_as(ADA).await;
    let sso = flow.sso_cookie.clone().expect("the SSO cookie");
    flow.sso_cookie = Some(format!("name=André; {sso}"));
    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(
        response.status(),
        StatusCode::FOUND,
        "the SSO session completes the sign-in without the page"
    );
    flow.code_from(&response);
}

/// Keycloak records `LOGIN` for every sign-in into a client, the one its SSO cookie alone
/// makes too (keycloak/keycloak SSOTest.loginSuccess: the second authorization's event is
/// `expectLogin()` in the same session), with the same details: the page's sign-in, an
/// authorization answered from the SSO session, `prompt=none`, and "Continue as" are one
/// LOGIN each, the SSO session's id as `code_id` — never the code or the cookie.
#[tokio::test]
async fn every_sign_in_into_the_client_is_a_login_on_record_the_sso_sessions_too() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let mut codes = vec![flow.sign_in_as(ADA).await];
    let session_state = flow.tokens(&codes[0]).await["session_state"]
        .as_str()
        .expect("session_state")
        .to_string();
    for prompt in [None, Some("none")] {
        let response = flow.get(&flow.authorize_url(&[("prompt", prompt)])).await;
        codes.push(flow.code_from(&response));
    }
    let (_, auth_request) = flow.sign_in_page(&[("prompt", Some("login"))]).await;
    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", ADA)])
        .await;
    codes.push(flow.code_from(&response));

    let logins = sandbox.journal().read(0, Some("LOGIN"), None, 100).events;
    assert_eq!(logins.len(), 4, "one a sign-in: {logins:#?}");
    let username = sandbox
        .config()
        .person("ada")
        .unwrap()
        .profile
        .preferred_username
        .clone();
    let expected = serde_json::json!({
        "auth_method": "openid-connect",
        "auth_type": "code",
        "response_type": "code",
        "response_mode": "query",
        "redirect_uri": flow.redirect_uri,
        "consent": "no_consent_required",
        "code_id": session_state,
        "username": username.expect("ada has a username"),
    });
    let cookie = flow.sso_cookie.clone().expect("the SSO cookie");
    let cookie_value = cookie.split_once('=').expect("name=value").1;
    for login in &logins {
        assert_eq!(
            (login.source, login.sub.as_deref(), login.outcome.as_deref()),
            (zero_sandbox::platform::Source::Iam, Some(ADA), Some("OK"))
        );
        assert_eq!(login.details, expected);
        let text = login.details.to_string();
        assert!(!text.contains(cookie_value), "the cookie: {text}");
        for code in &codes {
            assert!(!text.contains(code.as_str()), "a code: {text}");
        }
    }
}

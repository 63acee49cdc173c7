//! Findings of the IAM review, each pinned by a test that failed before its fix.

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION, PRAGMA, WWW_AUTHENTICATE};
use serde_json::Value;
use zero_sandbox::oidc::EDGE_CLIENT_ID;

use crate::iam::Flow;
use crate::support;

const ADA: &str = "3c0e8f1a-7d2b-4b6e-9f41-2a5c8d7e6b01";

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

/// Posts the custom form with `field` set to `value`; returns (status, page).
async fn custom_with(flow: &mut Flow, field: &str, value: &str) -> (StatusCode, String) {
    let (_, auth_request) = flow.sign_in_page(&[]).await;
    let mut form = vec![
        ("auth_request", auth_request.as_str()),
        ("custom", "1"),
        ("sub", "dev-long"),
        ("email", "dev@example.com"),
    ];
    form.retain(|(name, _)| *name != field);
    form.push((field, value));
    let response = flow.authenticate(&form).await;
    let status = response.status();
    assert!(
        status != StatusCode::BAD_REQUEST || response.headers().get(LOCATION).is_none(),
        "no code for a refused person"
    );
    (status, response.text().await.unwrap())
}

#[tokio::test]
async fn a_custom_persons_fields_have_keycloaks_limits() {
    // Unbounded, a 60 kB name made every identity header too large for the app's server
    // (431 from Python, Node, …): the person could sign in but never use the app.
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let long = "n".repeat(256);
    for (field, value) in [
        ("name", long.as_str()),
        ("preferred_username", long.as_str()),
        ("email", &format!("{}@example.com", "e".repeat(250))),
        ("name", "Line\nbreak"),
    ] {
        let (status, page) = custom_with(&mut flow, field, value).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{field}={value:?}");
        assert!(page.contains("at most 255 characters"), "{page}");
    }
    let many: Vec<String> = (0..101).map(|i| format!("g{i}")).collect();
    let (status, page) = custom_with(&mut flow, "groups", &many.join(",")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(page.contains("at most 100 groups"), "{page}");

    // At the limits it works.
    let (status, _) = custom_with(&mut flow, "name", &"n".repeat(255)).await;
    assert_eq!(status, StatusCode::FOUND);
}

#[tokio::test]
async fn invalid_client_401_carries_a_challenge() {
    // RFC 6749 §5.2 and RFC 9110 §15.5.2: a 401 names the scheme to authenticate with.
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    let http = support::client();
    let basic = http
        .post(&flow.endpoints.token)
        .basic_auth("someone-else", Some("pw"))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body("grant_type=authorization_code&code=x")
        .send()
        .await
        .unwrap();
    assert_eq!(basic.status(), StatusCode::UNAUTHORIZED);
    let challenge = basic.headers()[WWW_AUTHENTICATE].to_str().unwrap();
    assert!(challenge.starts_with("Basic realm="), "{challenge}");
    let body: Value = basic.json().await.unwrap();
    assert_eq!(body["error"], "invalid_client");

    let no_client = flow
        .post_form(&flow.endpoints.token, &[("grant_type", "refresh_token")])
        .await;
    assert_eq!(no_client.status(), StatusCode::UNAUTHORIZED);
    assert!(no_client.headers().get(WWW_AUTHENTICATE).is_some());
}

#[tokio::test]
async fn a_token_request_that_is_not_a_form_says_so() {
    // RFC 6749 §3.2: parameters come as application/x-www-form-urlencoded. A JSON body was
    // parsed as a form and answered "client_id is required", which misleads.
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    let http = support::client();
    for content_type in [Some("application/json"), None] {
        let mut request = http.post(&flow.endpoints.token).body(format!(
            r#"{{"grant_type":"authorization_code","client_id":"{EDGE_CLIENT_ID}"}}"#
        ));
        if let Some(content_type) = content_type {
            request = request.header(CONTENT_TYPE, content_type);
        }
        let response = request.send().await.unwrap();
        assert_eq!(
            response.status(),
            StatusCode::BAD_REQUEST,
            "{content_type:?}"
        );
        assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
        assert_eq!(response.headers()[PRAGMA], "no-cache");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"], "invalid_request");
        assert!(
            body["error_description"]
                .as_str()
                .unwrap()
                .contains("application/x-www-form-urlencoded"),
            "{body}"
        );
    }
    // With a charset parameter it is a form.
    let response = http
        .post(&flow.endpoints.token)
        .header(
            CONTENT_TYPE,
            "Application/X-WWW-Form-Urlencoded; charset=UTF-8",
        )
        .body(format!(
            "grant_type=authorization_code&client_id={EDGE_CLIENT_ID}&code=nope"
        ))
        .send()
        .await
        .unwrap();
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant");
}

#[tokio::test]
async fn a_request_object_is_refused_not_ignored() {
    // Discovery says request_parameter_supported: false; OIDC Core §6 then wants
    // request_not_supported, not a sign-in that silently drops what the object said.
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    for (name, error) in [
        ("request", "request_not_supported"),
        ("request_uri", "request_uri_not_supported"),
    ] {
        let response = flow
            .get(&flow.authorize_url(&[(name, Some("eyJhbGciOiJub25lIn0.e30."))]))
            .await;
        assert_eq!(response.status(), StatusCode::FOUND, "{name}");
        let query = crate::iam::callback_query(&response, &flow.redirect_uri);
        assert_eq!(query["error"], error);
        assert_eq!(query["state"], flow.state);
        assert!(!query.contains_key("code"));
    }
}

#[tokio::test]
async fn a_repeated_authorization_parameter_goes_back_to_a_good_redirect_uri() {
    // RFC 6749 §4.1.2.1: once the redirect URI is known good, "includes a parameter more
    // than once" is an invalid_request for the client, not a dead-end page for the person.
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    let repeated = |name: &str, value: &str| {
        format!(
            "{}&{}",
            flow.authorize_url(&[]),
            support::encode_form(&[(name, value)])
        )
    };
    let response = flow.get(&repeated("scope", "openid")).await;
    assert_eq!(response.status(), StatusCode::FOUND);
    let query = crate::iam::callback_query(&response, &flow.redirect_uri);
    assert_eq!(query["error"], "invalid_request");
    assert!(query["error_description"].contains("`scope`"));
    assert_eq!(query["state"], flow.state);
    assert!(!query.contains_key("code"));

    // A repeated state: refused, and no state goes back.
    let response = flow.get(&repeated("state", "other")).await;
    let query = crate::iam::callback_query(&response, &flow.redirect_uri);
    assert_eq!(query["error"], "invalid_request");
    assert!(!query.contains_key("state"));

    // A repeated client_id or redirect_uri cannot be trusted: a page, never a redirect.
    for name in ["client_id", "redirect_uri"] {
        let response = flow.get(&repeated(name, "https://evil.example/")).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{name}");
        assert!(response.headers().get(LOCATION).is_none());
    }
}

#[tokio::test]
async fn an_oversized_token_request_gets_an_oauth_error() {
    // Before: up to 2 MB was buffered and parsed, and past that axum's extractor answered a
    // plain-text 413. Now: 64 KiB at most, refused in OAuth JSON like every other refusal.
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    let huge = format!(
        "grant_type=authorization_code&client_id={EDGE_CLIENT_ID}&code={}",
        "c".repeat(200 * 1024)
    );
    let response = support::client()
        .post(&flow.endpoints.token)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(huge)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"], "invalid_request");
    assert!(
        body["error_description"]
            .as_str()
            .unwrap()
            .contains("larger than"),
        "{body}"
    );
}

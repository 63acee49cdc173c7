//! Bad token requests get RFC 6749 §5.2 errors.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE, PRAGMA, WWW_AUTHENTICATE};
use serde_json::Value;
use sha2::{Digest, Sha256};
use zero_sandbox::oidc::EDGE_CLIENT_ID;

use super::{ADA, error_of};
use crate::iam::Flow;
use crate::support;

#[tokio::test]
async fn bad_token_requests_get_rfc6749_errors() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);

    // A wrong verifier, then the right one: the code was spent by the first attempt.
    let code = flow.sign_in_as(ADA).await;
    let wrong = B64.encode(Sha256::digest(b"another verifier"));
    let (status, error, _) = error_of(flow.exchange(&code, Some(&wrong)).await).await;
    assert_eq!(
        (status, error.as_str()),
        (StatusCode::BAD_REQUEST, "invalid_grant")
    );
    let (_, error, _) = error_of(flow.exchange(&code, Some(&flow.verifier)).await).await;
    assert_eq!(error, "invalid_grant");

    // No verifier at all.
    let code = flow.get(&flow.authorize_url(&[])).await;
    let code = flow.code_from(&code);
    let (_, error, description) = error_of(flow.exchange(&code, None).await).await;
    assert_eq!(error, "invalid_grant");
    assert!(description.contains("code_verifier"));

    // Reuse: refused, and the refresh token of the first use is revoked.
    let code = flow.code_from(&flow.get(&flow.authorize_url(&[])).await);
    let tokens = flow.tokens(&code).await;
    let (_, error, description) = error_of(flow.exchange(&code, Some(&flow.verifier)).await).await;
    assert_eq!(error, "invalid_grant");
    assert!(description.contains("already used"));
    let (_, error, _) = error_of(
        flow.refresh(tokens["refresh_token"].as_str().unwrap())
            .await,
    )
    .await;
    assert_eq!(error, "invalid_grant");

    // Expired: codes last 60 seconds.
    let code = flow.code_from(&flow.get(&flow.authorize_url(&[])).await);
    sandbox.iam().advance_clock(Duration::from_secs(61));
    let (_, error, description) = error_of(flow.exchange(&code, Some(&flow.verifier)).await).await;
    assert_eq!(error, "invalid_grant");
    assert!(description.contains("expired"));

    // A redirect_uri that differs from the authorization request's.
    let code = flow.code_from(&flow.get(&flow.authorize_url(&[])).await);
    let localhost = flow.redirect_uri.replace("127.0.0.1", "localhost");
    let response = flow
        .post_form(
            &flow.endpoints.token,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", &localhost),
                ("client_id", EDGE_CLIENT_ID),
                ("code_verifier", &flow.verifier),
            ],
        )
        .await;
    assert_eq!(error_of(response).await.1, "invalid_grant");

    let token = &flow.endpoints.token;
    for (form, status, expected) in [
        (
            vec![
                ("grant_type", "authorization_code"),
                ("code", "x"),
                ("client_id", "someone-else"),
            ],
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
        (
            vec![("grant_type", "authorization_code"), ("code", "x")],
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
        (
            vec![
                ("grant_type", "refresh_token"),
                ("refresh_token", "not-a-token"),
                ("client_id", EDGE_CLIENT_ID),
            ],
            StatusCode::BAD_REQUEST,
            "invalid_grant",
        ),
        (
            vec![("grant_type", "password"), ("client_id", EDGE_CLIENT_ID)],
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
        ),
        (
            vec![("client_id", EDGE_CLIENT_ID)],
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        (
            vec![
                ("grant_type", "authorization_code"),
                ("client_id", EDGE_CLIENT_ID),
            ],
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        (
            vec![
                ("grant_type", "refresh_token"),
                ("grant_type", "refresh_token"),
                ("client_id", EDGE_CLIENT_ID),
            ],
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
    ] {
        let response = flow.post_form(token, &form).await;
        assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
        let (got_status, error, _) = error_of(response).await;
        assert_eq!((got_status, error.as_str()), (status, expected), "{form:?}");
    }
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

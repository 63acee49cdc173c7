//! The sign-in page: a custom person, an unknown or expired sign-in request, its assets and
//! framing.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, LOCATION};
use zero_sandbox::oidc::EDGE_CLIENT_ID;

use super::{ADA, verify};
use crate::iam::Flow;
use crate::support;

#[tokio::test]
async fn a_custom_person_signs_in_and_an_empty_sub_is_refused() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let (_, auth_request) = flow.sign_in_page(&[]).await;
    let response = flow
        .authenticate(&[
            ("auth_request", &auth_request),
            ("custom", "1"),
            ("sub", "   "),
            ("name", "Nobody"),
        ])
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response.headers().get(LOCATION).is_none(), "no code issued");
    let page = response.text().await.unwrap();
    assert!(page.contains("needs a sub"), "a clear message");
    assert!(page.contains(r#"value="Nobody""#), "what was typed is kept");

    // The same pending request still works.
    let response = flow
        .authenticate(&[
            ("auth_request", &auth_request),
            ("custom", "1"),
            ("sub", "dev-42"),
            ("name", "Devi Custom"),
            ("email", "devi@example.com"),
            ("email_verified", "true"),
            ("groups", "analysts, , admins"),
        ])
        .await;
    let tokens = flow.tokens(&flow.code_from(&response)).await;
    let id = verify(
        &sandbox,
        tokens["id_token"].as_str().unwrap(),
        EDGE_CLIENT_ID,
    )
    .await;
    assert_eq!(id["sub"], "dev-42");
    assert_eq!(id["email_verified"], true);
    assert_eq!(id["groups"], serde_json::json!(["analysts", "admins"]));

    let (page, _) = flow.sign_in_page(&[("prompt", Some("login"))]).await;
    assert!(
        page.contains(r#"data-sub="dev-42""#),
        "remembered as a card"
    );
}

#[tokio::test]
async fn an_unknown_or_expired_sign_in_request_gets_a_clear_page() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let response = flow
        .authenticate(&[("auth_request", "made-up"), ("person", ADA)])
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response.headers().get(LOCATION).is_none());
    assert!(response.text().await.unwrap().contains("expired"));

    let (_, auth_request) = flow.sign_in_page(&[]).await;
    sandbox.iam().advance_clock(Duration::from_secs(601));
    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", ADA)])
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(flow.sso_cookie.is_none(), "nobody signed in");

    let (_, auth_request) = flow.sign_in_page(&[]).await;
    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", "nobody")])
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response.text().await.unwrap().contains("Nobody with sub"));
}

#[tokio::test]
async fn the_page_assets_are_served_and_pages_are_never_framed() {
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    let response = flow.get(&flow.authorize_url(&[])).await;
    let headers = response.headers();
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(
        headers["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'")
    );
    let iam = sandbox.endpoints().iam_url();
    for (file, kind) in [("signin.css", "text/css"), ("signin.js", "text/javascript")] {
        let response = flow.get(&format!("{iam}/resources/signin/{file}")).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert!(
            response.headers()[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with(kind)
        );
    }
    let response = flow
        .get(&format!("{iam}/resources/signin/layout.html"))
        .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
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

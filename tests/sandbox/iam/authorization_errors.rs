//! Bad authorization requests: a bad client or redirect URI gets a page and never a redirect;
//! other errors go back to the client as OAuth errors (RFC 6749 §4.1.2.1).

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, LOCATION};

use super::callback_query;
use crate::iam::Flow;
use crate::support;

#[tokio::test]
async fn a_bad_client_or_redirect_uri_gets_a_page_and_never_a_redirect() {
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    for changes in [
        vec![("client_id", Some("someone-else"))],
        vec![("client_id", None)],
        vec![(
            "redirect_uri",
            Some("https://evil.example/.nnumbers/auth/callback"),
        )],
        vec![("redirect_uri", Some(&*format!("{}/", flow.redirect_uri)))],
        vec![("redirect_uri", None)],
        // Still checked first when everything else is wrong too.
        vec![
            ("redirect_uri", Some("https://evil.example/")),
            ("code_challenge", None),
        ],
    ] {
        let response = flow.get(&flow.authorize_url(&changes)).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{changes:?}");
        assert!(response.headers().get(LOCATION).is_none(), "{changes:?}");
        assert!(
            response.headers()[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
    }
}

#[tokio::test]
async fn bad_authorization_requests_go_back_with_an_oauth_error() {
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    for (changes, expected) in [
        (vec![("code_challenge", None)], "invalid_request"),
        (vec![("code_challenge_method", None)], "invalid_request"),
        (
            vec![("code_challenge_method", Some("plain"))],
            "invalid_request",
        ),
        (
            vec![("code_challenge", Some("too-short"))],
            "invalid_request",
        ),
        (
            vec![("response_type", Some("token"))],
            "unsupported_response_type",
        ),
        (vec![("scope", Some("profile"))], "invalid_scope"),
        (vec![("prompt", Some("none login"))], "invalid_request"),
    ] {
        let response = flow.get(&flow.authorize_url(&changes)).await;
        assert_eq!(response.status(), StatusCode::FOUND, "{changes:?}");
        let query = callback_query(&response, &flow.redirect_uri);
        assert_eq!(query["error"], expected, "{changes:?}");
        assert_eq!(query["state"], flow.state);
        assert!(!query["error_description"].is_empty());
        assert!(!query.contains_key("code"));
    }
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

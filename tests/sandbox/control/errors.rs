//! The API's own errors outside any one endpoint: an unknown path, a wrong method, a body that
//! is not a JSON object — each `{"code","message"}` with a 4xx; and its base URL in the ready
//! line and the banner.

use serde_json::json;

use super::{Control, assert_api_error};
use crate::support;

#[tokio::test]
async fn unknown_paths_wrong_methods_and_bodies_that_are_not_objects() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    assert_api_error(
        &control.get("/nothing-here").await,
        404,
        "NOT_FOUND",
        "/sandbox/v1/nothing-here",
    );
    assert_api_error(&control.get("").await, 404, "NOT_FOUND", "/sandbox/v1");
    assert_api_error(
        &control.call(reqwest::Method::PUT, "/sessions", None).await,
        405,
        "METHOD_NOT_ALLOWED",
        "PUT",
    );
    assert_api_error(
        &control.get("/keys/rotate").await,
        405,
        "METHOD_NOT_ALLOWED",
        "/sandbox/v1/keys/rotate",
    );
    assert_api_error(
        &control.post("/sessions", json!(["ada"])).await,
        400,
        "INVALID_REQUEST",
        "JSON object",
    );
    let not_json = support::client()
        .post(format!("{}/sessions", control.base))
        .header("content-type", "application/json")
        .body("person=ada")
        .send()
        .await
        .expect("answers");
    assert_eq!(not_json.status(), 400);
    let body: serde_json::Value = not_json.json().await.expect("JSON");
    assert_eq!(body["code"], "INVALID_REQUEST");
    assert!(
        body["message"].as_str().unwrap().contains("not JSON"),
        "{body}"
    );
    // An empty body is `{}` for the endpoints whose fields are all optional.
    let empty = support::client()
        .post(format!("{}/keys/rotate", control.base))
        .send()
        .await
        .expect("answers");
    assert_eq!(empty.status(), 200);
}

#[tokio::test]
async fn the_ready_line_and_the_banner_name_the_control_api() {
    let sandbox = support::start().await;
    let ready: serde_json::Value = serde_json::from_str(&sandbox.ready_json()).expect("JSON");
    let control = format!("{}/sandbox/v1", sandbox.endpoints().broker_url());
    assert_eq!(ready["control"], control.as_str());
    let banner = zero_sandbox::commands::up::banner(&sandbox, true);
    assert!(banner.contains(&control), "{banner}");
}

#[tokio::test]
async fn a_web_page_of_another_origin_or_a_rebound_name_is_refused() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let http = support::client();
    let send = |header: &'static str, value: &'static str| {
        http.post(format!("{}/reset", control.base))
            .header(header, value)
            .send()
    };
    // A drive-by form from a site the developer visits: the browser names its origin.
    let foreign = send("origin", "http://evil.example")
        .await
        .expect("answers");
    assert_eq!(foreign.status(), 403);
    let body: serde_json::Value = foreign.json().await.expect("JSON");
    assert_eq!(body["code"], "FOREIGN_ORIGIN");
    assert!(
        body["message"].as_str().unwrap().contains("evil.example"),
        "{body}"
    );
    // DNS rebinding: another site's name resolving to 127.0.0.1.
    let rebound = send("host", "evil.example:4001").await.expect("answers");
    assert_eq!(rebound.status(), 403);
    // The console may: the page the broker's listener serves (a local dev server may not:
    // foreign_pages.rs).
    let console = http
        .post(format!("{}/reset", control.base))
        .header("origin", sandbox.endpoints().broker_url())
        .send()
        .await
        .expect("answers");
    assert_eq!(console.status(), 200);
}

#[tokio::test]
async fn a_body_past_the_limit_is_the_apis_own_413() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let huge = json!({ "name": "x".repeat(300 * 1024) });
    assert_api_error(
        &control.post("/people", huge).await,
        413,
        "BODY_TOO_LARGE",
        "bytes",
    );
}

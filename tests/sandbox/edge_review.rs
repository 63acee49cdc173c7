//! Findings of the edge review, each pinned by a test that failed before its fix.

use std::time::{Duration, Instant};

use reqwest::header::ACCEPT;
use serde_json::Value;
use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;
use zero_sandbox::Sandbox;

use crate::echo_app::EchoApp;
use crate::support::{self, client};

/// A sandbox whose app is a fresh echo app.
async fn start_with_echo() -> (Sandbox, EchoApp) {
    let echo = EchoApp::start().await;
    let mut config = support::test_config();
    config.app.url = Some(echo.url.clone());
    (support::start_with(config).await, echo)
}

fn edge(sandbox: &Sandbox, path: &str) -> String {
    format!("{}{path}", sandbox.endpoints().edge_url())
}

/// An app that accepts connections and reads requests but never answers.
async fn silent_app() -> (String, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = [0u8; 4096];
            let _ = socket.read(&mut buf).await;
            open.push(socket);
        }
    });
    (url, task)
}

// ---------------------------------------------------------------- a silent app

#[tokio::test]
async fn an_app_that_never_answers_gets_a_clear_504_instead_of_a_hang() {
    let (app_url, _app) = silent_app().await;
    let mut config = support::test_config();
    config.app.url = Some(app_url.clone());
    let sandbox = support::start_with(config).await;
    assert_eq!(
        sandbox.edge().app_response_timeout(),
        zero_sandbox::edge::APP_RESPONSE_TIMEOUT
    );
    sandbox
        .edge()
        .set_app_response_timeout(Duration::from_millis(300));

    let started = Instant::now();
    let response = tokio::time::timeout(
        Duration::from_secs(10),
        client().get(edge(&sandbox, "/slow")).send(),
    )
    .await
    .expect("the edge answers instead of hanging")
    .unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(response.status(), 504);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "APP_TIMEOUT");
    assert_eq!(body["app_url"], app_url.as_str());
    assert!(
        body["message"].as_str().unwrap().contains("did not answer"),
        "{body}"
    );

    let page = client()
        .get(edge(&sandbox, "/slow"))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 504);
    let html = page.text().await.unwrap();
    assert!(html.contains(&app_url) && html.contains("0.3 s"), "{html}");
}

#[tokio::test]
async fn a_streaming_response_is_not_cut_by_the_timeout() {
    let (sandbox, echo) = start_with_echo().await;
    sandbox
        .edge()
        .set_app_response_timeout(Duration::from_millis(200));
    let mut response = client().get(edge(&sandbox, "/sse")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let first = response.chunk().await.unwrap().expect("the first event");
    assert!(String::from_utf8_lossy(&first).contains("data:"));
    // Longer than the timeout with the stream open, then the rest arrives.
    tokio::time::sleep(Duration::from_millis(400)).await;
    echo.release_sse();
    let rest = response.bytes().await.expect("the stream completes");
    assert!(!rest.is_empty());
}

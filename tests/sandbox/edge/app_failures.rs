//! An app that is down, silent or misconfigured gets a clear answer from the edge, never a hang.

use std::time::{Duration, Instant};

use reqwest::header::ACCEPT;
use serde_json::Value;
use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;

use crate::support::{self, client, edge};

#[tokio::test]
async fn an_app_that_is_down_gets_a_clear_502() {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let app_url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let mut config = support::test_config();
    config.app.url = Some(app_url.clone());
    let sandbox = support::start_with(config).await;

    let page = client()
        .get(edge(&sandbox, "/"))
        .header(ACCEPT, "text/html,application/xhtml+xml")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 502);
    assert!(
        page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = page.text().await.unwrap();
    assert!(html.contains(&app_url) && html.contains("--app"), "{html}");

    let json = client().get(edge(&sandbox, "/api/x")).send().await.unwrap();
    assert_eq!(json.status(), 502);
    let body: Value = json.json().await.unwrap();
    assert_eq!(body["code"], "APP_UNREACHABLE");
    assert_eq!(body["app_url"], app_url.as_str());

    // The reserved paths still work without the app.
    let context = client()
        .get(edge(&sandbox, "/.nnumbers/v1/context"))
        .send()
        .await
        .unwrap();
    assert_eq!(context.status(), 203);
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

#[tokio::test]
async fn an_app_that_never_answers_gets_a_clear_504_instead_of_a_hang() {
    let (app_url, _app) = silent_app().await;
    let mut config = support::test_config();
    config.app.url = Some(app_url.clone());
    let sandbox = support::start_with(config).await;
    // Long enough for the broker's own QueryMesh timeout to answer first (60 s + 30 s).
    assert_eq!(sandbox.config().broker.querymesh_timeout_secs, 60);
    assert_eq!(
        sandbox.edge().app_response_timeout(),
        Duration::from_secs(90)
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

/// A TCP relay to a target set after it starts: an "app" that is really the edge again.
async fn relay() -> (
    String,
    tokio::sync::watch::Sender<Option<std::net::SocketAddr>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (target, rx) = tokio::sync::watch::channel(None);
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let Some(to) = *rx.borrow() else { continue };
            tokio::spawn(async move {
                if let Ok(mut outbound) = tokio::net::TcpStream::connect(to).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    (url, target)
}

#[tokio::test]
async fn an_app_url_that_leads_back_to_the_edge_is_named_not_looped() {
    // `--app http://127.0.0.1:4000` with the edge on 4000: each request was forwarded to
    // itself until the process ran out of file descriptors, then reported "did not answer".
    let (relay_url, target) = relay().await;
    let mut config = support::test_config();
    config.app.url = Some(relay_url.clone());
    let sandbox = support::start_with(config).await;
    target.send_replace(Some(sandbox.endpoints().edge));

    let response = tokio::time::timeout(
        Duration::from_secs(10),
        client().get(edge(&sandbox, "/x")).send(),
    )
    .await
    .expect("the loop is cut at once")
    .unwrap();
    assert_eq!(response.status(), 502);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "APP_URL_IS_THE_EDGE", "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("another port"),
        "{body}"
    );
}

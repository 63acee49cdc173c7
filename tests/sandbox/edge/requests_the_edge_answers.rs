//! What the edge answers itself, without the app: the context and session paths, other reserved
//! paths.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CACHE_CONTROL};
use serde_json::Value;
use tokio::io::AsyncReadExt;
use zero_sandbox::Sandbox;

use crate::support::{client, edge, start_with_echo};

#[tokio::test]
async fn context_and_anonymous_session_are_203_no_store() {
    let (sandbox, _echo) = start_with_echo().await;
    let config = sandbox.config();
    for (path, check) in [("/.nnumbers/v1/context", 0), ("/.nnumbers/auth/session", 1)] {
        let response = client().get(edge(&sandbox, path)).send().await.unwrap();
        assert_eq!(
            response.status(),
            StatusCode::NON_AUTHORITATIVE_INFORMATION,
            "{path}"
        );
        assert_eq!(response.headers()[CACHE_CONTROL], "no-store", "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["organization"]["id"], config.organization.id.as_str());
        assert_eq!(
            body["organization"]["slug"],
            config.organization.slug.as_str()
        );
        if check == 0 {
            assert_eq!(body["app"]["id"], config.app.id.as_str());
            assert_eq!(body["auth"]["login_path"], "/.nnumbers/auth/login");
            assert_eq!(body["auth"]["logout_path"], "/.nnumbers/auth/logout");
        } else {
            assert!(body["user"].is_null());
        }
    }
}

#[tokio::test]
async fn other_reserved_paths_are_404_from_the_edge() {
    let (sandbox, _echo) = start_with_echo().await;
    for path in [
        "/.nnumbers/",
        "/.nnumbers",
        "/.nnumbers/nope",
        "/.nnumbers/auth/session/",
        "/.NNumbers/auth/session",
        "/%2Ennumbers/nope",
        "/app/../.nnumbers/x",
    ] {
        let response = client().get(edge(&sandbox, path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "NOT_FOUND", "{path}: answered by the edge");
    }
    // A known path with another method is the edge's too, never the app's.
    let response = client()
        .post(edge(&sandbox, "/.nnumbers/v1/context"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 405);
    let response = client()
        .get(edge(&sandbox, "/.nnumbers/auth/logout"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 405);
}

#[tokio::test]
async fn a_reserved_path_with_the_wrong_method_says_how_to_use_it() {
    let (sandbox, _echo) = start_with_echo().await;
    let page = client()
        .get(edge(&sandbox, "/.nnumbers/auth/logout"))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 405);
    assert_eq!(page.headers()["allow"], "POST");
    let html = page.text().await.unwrap();
    assert!(html.contains("sign-out is a POST"), "{html}");

    let json = client()
        .delete(edge(&sandbox, "/.nnumbers/auth/session"))
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), 405);
    assert_eq!(json.headers()["allow"], "GET,HEAD");
    let body: Value = json.json().await.unwrap();
    assert_eq!(body["code"], "METHOD_NOT_ALLOWED");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("DELETE is not a method of /.nnumbers/auth/session"),
        "{body}"
    );
}

/// Sends raw bytes to the edge and returns what it answered until it closed.
async fn raw_exchange(sandbox: &Sandbox, request: &[u8]) -> String {
    use tokio::io::AsyncWriteExt;
    let mut socket = tokio::net::TcpStream::connect(sandbox.endpoints().edge)
        .await
        .unwrap();
    socket.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn options_star_and_connect_are_answered_by_the_edge() {
    let (sandbox, _echo) = start_with_echo().await;
    let star = raw_exchange(
        &sandbox,
        b"OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(star.starts_with("HTTP/1.1 200"), "{star}");
    assert!(star.to_ascii_lowercase().contains("allow: get"), "{star}");
    assert!(!star.contains("APP_UNREACHABLE"), "{star}");

    let connect = raw_exchange(
        &sandbox,
        b"CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(connect.starts_with("HTTP/1.1 405"), "{connect}");
    assert!(connect.contains("not a forward proxy"), "{connect}");
}

//! Bodies and streams pass through the edge: large bodies both ways, server-sent events,
//! WebSockets, and an app aborting a response.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::header::ACCEPT;
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

use super::{echoed, jsonwebtoken_claims};
use crate::support::echo_app::BIG_LEN;
use crate::support::{client, edge, sign_in, start_with_echo};

#[tokio::test]
async fn ten_megabytes_up_and_down_stream_through() {
    let (sandbox, _echo) = start_with_echo().await;
    let upload = vec![7u8; BIG_LEN];
    let echo: Value = client()
        .post(edge(&sandbox, "/upload"))
        .body(upload)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(echo["method"], "POST");
    assert_eq!(echo["body_len"], BIG_LEN);

    let response = client().get(edge(&sandbox, "/big")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let mut stream = response.bytes_stream();
    let mut received = 0;
    while let Some(chunk) = stream.next().await {
        received += chunk.expect("the body streams").len();
    }
    assert_eq!(received, BIG_LEN);
}

#[tokio::test]
async fn server_sent_events_arrive_while_the_stream_is_open() {
    let (sandbox, echo) = start_with_echo().await;
    let response = client()
        .get(edge(&sandbox, "/sse"))
        .header(ACCEPT, "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut stream = response.bytes_stream();
    let first = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("the first event arrives before the app ends the stream")
        .unwrap()
        .unwrap();
    assert_eq!(&first[..], b"data: first\n\n");
    echo.release_sse();
    let mut rest = Vec::new();
    while let Some(chunk) = stream.next().await {
        rest.extend_from_slice(&chunk.unwrap());
    }
    assert_eq!(rest, b"data: second\n\n");
}

#[tokio::test]
async fn websockets_pass_through_with_the_identity() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let mut request = format!("ws://{}/ws", sandbox.endpoints().edge)
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("cookie", ada.cookie.parse().unwrap());
    headers.insert("x-nnumbers-identity", "spoofed".parse().unwrap());
    let (mut socket, response) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the WebSocket handshake crosses the edge");
    assert_eq!(response.status(), 101);
    let hello: Value = serde_json::from_str(
        socket
            .next()
            .await
            .unwrap()
            .unwrap()
            .into_text()
            .unwrap()
            .as_str(),
    )
    .unwrap();
    let identities = hello["identities"].as_array().unwrap();
    assert_eq!(identities.len(), 1, "{hello}");
    assert_eq!(
        jsonwebtoken_claims(&sandbox, identities[0].as_str().unwrap())["sub"],
        ada.sub.as_str()
    );
    for text in ["hello", "again"] {
        socket.send(Message::text(text)).await.unwrap();
        let reply = socket.next().await.unwrap().unwrap();
        assert_eq!(reply.into_text().unwrap().as_str(), format!("echo: {text}"));
    }
    socket.send(Message::binary(vec![1u8, 2, 3])).await.unwrap();
    assert_eq!(
        socket.next().await.unwrap().unwrap().into_data().as_ref(),
        [1, 2, 3]
    );
    socket.close(None).await.unwrap();
}

#[tokio::test]
async fn an_app_closing_mid_response_aborts_that_response_only() {
    let (sandbox, _echo) = start_with_echo().await;
    let response = client().get(edge(&sandbox, "/abort")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        response.bytes().await.is_err(),
        "the client sees a truncated response, not a complete one"
    );
    let echo = echoed(&sandbox, "/next", None, &[]).await;
    assert_eq!(echo["path"], "/next");
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

#[tokio::test]
async fn a_websocket_closed_by_the_app_closes_in_the_browser() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let (sandbox, _echo) = start_with_echo().await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/ws", sandbox.endpoints().edge))
            .await
            .expect("the upgrade goes through");
    let _hello = socket.next().await.unwrap().unwrap();
    socket.send(Message::text("close, please")).await.unwrap();
    let closing = tokio::time::timeout(Duration::from_secs(5), async {
        let mut saw_close = false;
        while let Some(frame) = socket.next().await {
            match frame {
                Ok(Message::Close(_)) => saw_close = true,
                Ok(_) => {}
                Err(_) => break,
            }
        }
        saw_close
    })
    .await
    .expect("the connection ends instead of hanging open");
    assert!(closing, "the app's close frame reached the client");
}

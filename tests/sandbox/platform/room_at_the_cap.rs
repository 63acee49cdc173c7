//! A listener at its cap makes room for a new client instead of shutting it out: the
//! longest-idle kept-alive connection is closed, connections still sending headers get a
//! shorter deadline, and connections answering a request are never closed. Before, 256 idle
//! kept-alive connections shut a port to everyone else for up to 60 s, and 256 half-sent
//! requests for 10 s: a new client got 503 at once.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use zero_sandbox::listener::Limits;

use super::listeners::{
    DEADLINE, body_of, config_with, half_sent, read_response, read_until_closed, stalled_body,
};
use crate::support;

const JWKS: &[u8] = b"GET /v1/jwks HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

/// A connection kept alive after one whole request.
async fn kept_alive(address: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(address).await.expect("connects");
    ask(&mut stream).await;
    stream
}

/// One more request on a kept-alive connection, answered 200.
async fn ask(stream: &mut TcpStream) {
    stream.write_all(JWKS).await.expect("sent");
    let response = read_response(stream).await;
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
}

/// A new client's whole request on its own connection: its answer, and how long it took.
async fn new_client(address: SocketAddr) -> (String, Duration) {
    let started = Instant::now();
    let mut stream = TcpStream::connect(address).await.expect("connects");
    stream
        .write_all(b"GET /v1/jwks HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .expect("sent");
    let response = read_until_closed(&mut stream).await;
    (
        String::from_utf8_lossy(&response).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test]
async fn at_the_cap_the_longest_idle_kept_alive_connection_makes_room_for_a_new_client() {
    let limits = Limits {
        max_connections: 3,
        ..Limits::default()
    };
    let sandbox = support::start_with(config_with(limits)).await;
    let broker = sandbox.endpoints().broker;
    let mut oldest = kept_alive(broker).await;
    let mut second = kept_alive(broker).await;
    let mut third = kept_alive(broker).await;

    let (response, _) = new_client(broker).await;
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    // The one idle the longest was closed for it, without a word; the others still serve.
    assert!(read_until_closed(&mut oldest).await.is_empty());
    ask(&mut second).await;
    ask(&mut third).await;
    sandbox.shutdown().await;
}

#[tokio::test]
async fn at_the_cap_half_sent_requests_give_way_within_the_shorter_header_deadline() {
    let limits = Limits {
        // Without the shorter deadline near the cap, the flood would hold it this long.
        header_read_timeout: Duration::from_secs(30),
        header_read_timeout_near_cap: Duration::from_millis(500),
        max_connections: 4,
        ..Limits::default()
    };
    let sandbox = support::start_with(config_with(limits.clone())).await;
    let broker = sandbox.endpoints().broker;
    let mut flood = Vec::new();
    for _ in 0..limits.max_connections {
        flood.push(half_sent(broker).await);
    }

    // The new client waits for a place, which the flood gives up at the shorter deadline.
    let (response, took) = new_client(broker).await;
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    assert!(
        took < limits.header_read_timeout / 3,
        "served after {took:?}: the shorter deadline did not apply"
    );
    // (Below three quarters of the cap again, the rest of the flood has the longer deadline.)
    drop(flood);
    sandbox.shutdown().await;
}

/// The rest of a [`stalled_body`]'s 100 bytes, then its answer: whatever it is, a whole
/// response (the connection was never closed under it).
async fn finish(stream: &mut TcpStream) -> String {
    stream.write_all(&[b' '; 99]).await.expect("sent");
    read_response(stream).await
}

#[tokio::test]
async fn connections_answering_a_request_are_never_closed_to_make_room() {
    let limits = Limits {
        // How long a new client waits for a place before its 503.
        header_read_timeout: Duration::from_millis(500),
        max_connections: 2,
        ..Limits::default()
    };
    let sandbox = support::start_with(config_with(limits)).await;
    let broker = sandbox.endpoints().broker;
    let query = "/v1/querymesh/query";
    let mut busy = [
        stalled_body(broker, query, "application/json").await,
        stalled_body(broker, query, "application/json").await,
    ];

    let (response, _) = new_client(broker).await;
    assert!(response.starts_with("HTTP/1.1 503 "), "{response}");
    let body: Value = serde_json::from_str(body_of(response.as_bytes())).expect("JSON");
    assert_eq!(body["code"], "QUERYMESH_UNAVAILABLE");

    for stream in &mut busy {
        let answer = finish(stream).await;
        assert!(answer.starts_with("HTTP/1.1 401 "), "{answer}");
    }
    sandbox.shutdown().await;
}

/// Apache's event MPM does the same: a kept-alive connection is closed rather than kept
/// when clients wait for a place.
#[tokio::test]
async fn a_connection_finishing_its_request_while_a_client_waits_gives_it_its_place() {
    let limits = Limits {
        header_read_timeout: DEADLINE,
        max_connections: 1,
        ..Limits::default()
    };
    let sandbox = support::start_with(config_with(limits)).await;
    let broker = sandbox.endpoints().broker;
    let mut busy = stalled_body(broker, "/v1/querymesh/query", "application/json").await;
    let waiting = tokio::spawn(new_client(broker));

    let answer = finish(&mut busy).await;
    assert!(answer.starts_with("HTTP/1.1 401 "), "{answer}");
    assert!(read_until_closed(&mut busy).await.is_empty());
    let (response, _) = waiting.await.expect("the new client");
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    sandbox.shutdown().await;
}

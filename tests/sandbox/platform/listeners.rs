//! What every listener does with slow, idle and excess clients, and with bodies it cannot
//! take. Timeouts are configured tiny, and each test waits for the server's move (a close,
//! a response) with a generous deadline rather than sleeping.

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use zero_sandbox::Config;
use zero_sandbox::listener::Limits;

use crate::support;
use crate::support::echo_app::EchoApp;

/// Long enough that the server's own move, not the test's patience, ends each wait.
pub(super) const DEADLINE: Duration = Duration::from_secs(20);

pub(super) fn config_with(limits: Limits) -> Config {
    let mut config = support::test_config();
    config.listeners = limits;
    config
}

/// Everything the server sends until it closes the connection; panics past [`DEADLINE`].
pub(super) async fn read_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut received = Vec::new();
    match tokio::time::timeout(DEADLINE, stream.read_to_end(&mut received)).await {
        Ok(Ok(_)) => received,
        // A reset after the server's last bytes is a close too.
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::ConnectionReset => received,
        Ok(Err(e)) => panic!("reading failed: {e}"),
        Err(_) => panic!("the server kept the connection open past {DEADLINE:?}"),
    }
}

/// A request line and one header, without the blank line that ends the headers.
pub(super) async fn half_sent(address: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(address).await.expect("connects");
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .expect("sent");
    stream
}

pub(super) fn body_of(response: &[u8]) -> &str {
    let text = std::str::from_utf8(response).expect("UTF-8");
    text.split_once("\r\n\r\n").map_or("", |(_, body)| body)
}

/// One whole HTTP/1.1 response on a kept-alive connection, read by its Content-Length.
pub(super) async fn read_response(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(DEADLINE, stream.read(&mut buf))
            .await
            .expect("a response in time")
            .expect("read");
        assert!(n > 0, "closed before a whole response");
        received.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&received).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().expect("a length"))
                })
                .expect("a Content-Length");
            if body.len() >= length {
                return text;
            }
        }
    }
}

/// Before: `axum::serve` had no header deadline and no cap, so half-sent requests were held
/// forever and, past the process's 1,024 file descriptors, stopped all four ports
/// (scripts/flood.py measures it). A flood at the edge's cap leaves the other listeners
/// serving, and each half-sent request is closed at its header deadline.
#[tokio::test]
async fn a_flood_of_half_sent_requests_at_the_edge_leaves_the_other_listeners_serving() {
    let limits = Limits {
        header_read_timeout: Duration::from_secs(3),
        header_read_timeout_near_cap: Duration::from_secs(3),
        max_connections: 4,
        ..Limits::default()
    };
    let sandbox = support::start_with(config_with(limits.clone())).await;
    let e = *sandbox.endpoints();
    let opened = Instant::now();
    let mut flood = Vec::new();
    for _ in 0..limits.max_connections {
        flood.push(half_sent(e.edge).await);
    }

    // The other listeners answer meanwhile.
    let client = support::client();
    for url in [
        format!("{}/v1/jwks", e.broker_url()),
        format!(
            "{}/realms/acme/.well-known/openid-configuration",
            e.iam_url()
        ),
        format!("{}/v1/info", e.querymesh_url()),
    ] {
        let response = client
            .get(&url)
            .timeout(Duration::from_secs(5))
            .send()
            .await
            .unwrap_or_else(|err| panic!("{url}: {err}"));
        assert_eq!(response.status(), StatusCode::OK, "{url}");
    }

    // The server ends each half-sent request once its header deadline passes.
    for stream in &mut flood {
        let rest = read_until_closed(stream).await;
        assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
    }
    assert!(opened.elapsed() >= limits.header_read_timeout);

    // With them gone, the edge serves again.
    let response = client
        .get(e.edge_url())
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("the edge answers");
    assert_eq!(response.status(), StatusCode::OK);
    sandbox.shutdown().await;
}

/// A request whose body has begun but stalls, on its own connection: the connection is busy
/// answering it (a place that is never given up to make room) until the rest is sent.
pub(super) async fn stalled_body(address: SocketAddr, path: &str, content_type: &str) -> TcpStream {
    let mut stream = TcpStream::connect(address).await.expect("connects");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n\
         Content-Length: 100\r\n\r\nx"
    );
    stream.write_all(head.as_bytes()).await.expect("sent");
    stream
}

/// Each listener has its own cap, and past it answers in its own component's error shape:
/// the broker's refusal table, the IAM's OAuth JSON, Trino's plain text. The cap is held by
/// requests being answered (their bodies stalled), which are never closed to make room, so
/// a new client waits its header deadline for a place, then gets the 503.
#[tokio::test]
async fn each_listener_refuses_past_its_own_cap_in_its_own_shape() {
    let limits = Limits {
        header_read_timeout: Duration::from_millis(300),
        max_connections: 2,
        ..Limits::default()
    };
    let sandbox = support::start_with(config_with(limits)).await;
    let e = *sandbox.endpoints();
    let form = "application/x-www-form-urlencoded";
    for (address, path, body_type, content_type, says) in [
        (
            e.broker,
            "/v1/querymesh/query",
            "application/json",
            "application/json",
            r#""code":"QUERYMESH_UNAVAILABLE""#,
        ),
        (
            e.iam,
            "/realms/acme/protocol/openid-connect/token",
            form,
            "application/json",
            r#""error":"temporarily_unavailable""#,
        ),
        (
            e.querymesh,
            "/v1/statement",
            "text/plain",
            "text/plain",
            "limit of 2 connections",
        ),
    ] {
        let _held = [
            stalled_body(address, path, body_type).await,
            stalled_body(address, path, body_type).await,
        ];
        let mut refused = half_sent(address).await;
        let response = read_until_closed(&mut refused).await;
        let text = String::from_utf8_lossy(&response);
        assert!(text.starts_with("HTTP/1.1 503 "), "{address}: {text}");
        assert!(text.contains("connection: close\r\n"), "{text}");
        assert!(text.contains("retry-after: 1\r\n"), "{text}");
        assert!(
            text.contains(&format!("content-type: {content_type}")),
            "{address}: {text}"
        );
        assert!(body_of(&response).contains(says), "{address}: {text}");
    }
    sandbox.shutdown().await;
}

/// A kept-alive connection serves several requests, and is closed once it has stayed idle
/// past the idle timeout — not the shorter header timeout, which runs only once a request
/// has begun.
#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed_after_the_idle_timeout() {
    let limits = Limits {
        header_read_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_millis(1500),
        ..Limits::default()
    };
    let sandbox = support::start_with(config_with(limits.clone())).await;
    let broker = sandbox.endpoints().broker;
    let mut stream = TcpStream::connect(broker).await.expect("connects");
    // Taken before the last request goes: the server's idleness starts once its answer is
    // written, never before, so this bound holds however slowly the answer is read.
    let mut idle_from = Instant::now();
    for _ in 0..2 {
        idle_from = Instant::now();
        stream
            .write_all(b"GET /v1/jwks HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .await
            .expect("sent");
        let response = read_response(&mut stream).await;
        assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    }
    let rest = read_until_closed(&mut stream).await;
    assert!(rest.is_empty());
    let idle = idle_from.elapsed();
    assert!(
        idle >= limits.idle_timeout,
        "closed after {idle:?} of idleness, before the idle timeout"
    );
    sandbox.shutdown().await;
}

/// On the QueryMesh port, a client that connects and says nothing, starts a TLS handshake
/// and stops, or sends half a request in the clear, is closed at the header deadline (the
/// handshake counts in it). Before, the half request was held forever.
#[tokio::test]
async fn silent_half_handshaken_and_half_sent_querymesh_clients_are_closed() {
    let limits = Limits {
        header_read_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let sandbox = support::start_with(config_with(limits)).await;
    let querymesh = sandbox.endpoints().querymesh;
    let mut silent = TcpStream::connect(querymesh).await.expect("connects");
    let mut half_tls = TcpStream::connect(querymesh).await.expect("connects");
    half_tls.write_all(&[0x16, 0x03, 0x01]).await.expect("sent");
    let mut half_plain = half_sent(querymesh).await;
    for stream in [&mut silent, &mut half_tls, &mut half_plain] {
        assert!(read_until_closed(stream).await.is_empty());
    }
    let response = support::client()
        .get(format!("{}/v1/info", sandbox.endpoints().querymesh_url()))
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status(), StatusCode::OK);
    sandbox.shutdown().await;
}

/// A body that stops arriving is refused in the broker's shape, not waited for forever.
#[tokio::test]
async fn a_stalled_body_is_refused_in_the_brokers_shape() {
    let limits = Limits {
        body_read_timeout: Duration::from_millis(200),
        ..Limits::default()
    };
    let sandbox = support::start_with(config_with(limits)).await;
    let mut stream = TcpStream::connect(sandbox.endpoints().broker)
        .await
        .expect("connects");
    stream
        .write_all(
            b"POST /v1/querymesh/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"sql\":",
        )
        .await
        .expect("sent");
    let response = read_until_closed(&mut stream).await;
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{text}");
    let body: Value = serde_json::from_str(body_of(&response)).expect("JSON");
    assert_eq!(body["code"], "VALIDATION_FAILED");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("no byte of the request body arrived for 0.2 s"),
        "{body}"
    );
    sandbox.shutdown().await;
}

/// Before: the broker's body limit answered axum's plain text "length limit exceeded".
#[tokio::test]
async fn an_oversized_broker_body_is_refused_in_the_brokers_shape() {
    let sandbox = support::start().await;
    let limit = 4 * 1024 * 1024;
    let sql = "x".repeat(limit);
    let response = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .json(&serde_json::json!({ "sql": sql }))
        .send()
        .await
        .expect("answers");
    // RFC 9110 §15.5.14: the body is too large; the spec's shape and code.
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(body["code"], "VALIDATION_FAILED");
    assert!(
        body["message"].as_str().unwrap().contains("4194304 bytes"),
        "{body}"
    );
}

/// Before: the IAM's sign-in, authorization and logout forms answered an oversized body with
/// axum's plain text; now with the realm's page, like their other refusals.
#[tokio::test]
async fn oversized_iam_forms_are_refused_with_the_realms_page() {
    let sandbox = support::start().await;
    let realm = format!("{}/realms/acme", sandbox.endpoints().iam_url());
    let huge = format!("a={}", "b".repeat(2 * 1024 * 1024));
    for path in [
        "/login-actions/authenticate",
        "/protocol/openid-connect/auth",
        "/protocol/openid-connect/logout",
    ] {
        let response = support::client()
            .post(format!("{realm}{path}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(huge.clone())
            .send()
            .await
            .expect("answers");
        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE, "{path}");
        let content_type = response.headers()["content-type"].to_str().unwrap();
        assert!(
            content_type.starts_with("text/html"),
            "{path}: {content_type}"
        );
        let page = response.text().await.unwrap();
        assert!(page.contains("2097152 bytes"), "{path}: {page}");
    }
}

async fn edge_with_echo(limits: Limits) -> (zero_sandbox::Sandbox, EchoApp) {
    support::start_with_echo_and(config_with(limits)).await
}

/// Before: a client's broken chunked body surfaced as the app's failure, 502 APP_UNREACHABLE.
#[tokio::test]
async fn the_edge_reports_a_clients_broken_body_as_the_clients() {
    let (sandbox, _echo) = edge_with_echo(Limits::default()).await;
    let mut stream = TcpStream::connect(sandbox.endpoints().edge)
        .await
        .expect("connects");
    // "zz" is no chunk size (RFC 9112 §7.1).
    stream
        .write_all(
            b"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\nzz\r\n",
        )
        .await
        .expect("sent");
    let response = read_until_closed(&mut stream).await;
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{text}");
    let body: Value = serde_json::from_str(body_of(&response)).expect("JSON");
    assert_eq!(body["code"], "INVALID_REQUEST_BODY");
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("from the client"), "{body}");
    assert!(
        message.contains("chunk size"),
        "hyper's cause is named: {body}"
    );
    sandbox.shutdown().await;
}

/// A body that stalls on its way through the edge is the client's too, after the body
/// timeout; a body that keeps coming is forwarded whole.
#[tokio::test]
async fn the_edge_refuses_a_stalled_body_and_forwards_a_whole_one() {
    let limits = Limits {
        body_read_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let (sandbox, _echo) = edge_with_echo(limits).await;
    let mut stream = TcpStream::connect(sandbox.endpoints().edge)
        .await
        .expect("connects");
    stream
        .write_all(
            b"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\nConnection: close\r\n\r\nhalf",
        )
        .await
        .expect("sent");
    let response = read_until_closed(&mut stream).await;
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{text}");
    let body: Value = serde_json::from_str(body_of(&response)).expect("JSON");
    assert_eq!(body["code"], "INVALID_REQUEST_BODY");
    assert!(
        body["message"].as_str().unwrap().contains("0.5 s"),
        "{body}"
    );

    let echoed: Value = support::client()
        .post(format!("{}/upload", sandbox.endpoints().edge_url()))
        .body(vec![b'x'; 1024 * 1024])
        .send()
        .await
        .expect("answers")
        .json()
        .await
        .expect("the echo");
    assert_eq!(echoed["body_len"], 1024 * 1024);
    sandbox.shutdown().await;
}

/// A WebSocket through the edge keeps its place under the edge's cap while it is open (it
/// holds a connection as much as any request), and frees it when it closes.
#[tokio::test]
async fn an_open_websocket_counts_under_the_edges_cap() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let limits = Limits {
        header_read_timeout: Duration::from_millis(500),
        max_connections: 1,
        ..Limits::default()
    };
    let (sandbox, _echo) = edge_with_echo(limits).await;
    let edge = sandbox.endpoints().edge;
    let (mut socket, response) = tokio_tungstenite::connect_async(format!("ws://{edge}/ws"))
        .await
        .expect("the WebSocket handshake crosses the edge");
    assert_eq!(response.status(), 101);
    let hello = socket.next().await.expect("a first message").expect("read");
    assert!(hello.is_text());

    // Never closed to make room: a new client waits its header deadline, then is refused in
    // the edge's shape.
    let mut refused = half_sent(edge).await;
    let response = read_until_closed(&mut refused).await;
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 503 "), "{text}");
    let body: Value = serde_json::from_str(body_of(&response)).expect("JSON");
    assert_eq!(body["code"], "TOO_MANY_CONNECTIONS");
    assert!(
        body["message"].as_str().unwrap().contains("limit of 1"),
        "{body}"
    );

    socket.send(Message::Close(None)).await.expect("sent");
    while let Some(Ok(_)) = socket.next().await {}
    drop(socket);
    // Its place is free again once the tunnel has closed: poll for it.
    let started = Instant::now();
    loop {
        let response = support::client()
            .get(format!("http://{edge}/after"))
            .send()
            .await
            .expect("answers");
        if response.status() == StatusCode::OK {
            break;
        }
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            started.elapsed() < DEADLINE,
            "the WebSocket's place stayed taken"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    sandbox.shutdown().await;
}

/// Before: `zero-sandbox up > up.log 2>&1` wrote ANSI colour escapes into the file.
#[tokio::test]
async fn logs_to_a_pipe_carry_no_colour_escapes() {
    let mut child = Command::new(support::binary())
        .args(["up", "--ready-json", "--ephemeral", "--no-open"])
        .args(["--edge-port", "0", "--broker-port", "0"])
        .args(["--iam-port", "0", "--querymesh-port", "0"])
        .env("RUST_LOG", "debug")
        .env_remove("NO_COLOR")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the ready line");
    let ready: Value = serde_json::from_str(&line).expect("JSON");
    // Something worth logging: a request through the edge to the demo app.
    let edge = ready["edge"].as_str().expect("the edge's URL");
    let response = support::client().get(edge).send().await.expect("answers");
    assert_eq!(response.status(), StatusCode::OK);
    child.kill().expect("stops");
    let mut log = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut log)
        .expect("the log");
    let _ = child.wait();
    assert!(log.contains("DEBUG"), "the log has lines: {log}");
    assert!(
        !log.contains("\x1b["),
        "colour escapes in a piped log: {log}"
    );
}

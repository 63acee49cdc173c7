//! The edge's own HTTP/1.1 (src/listener/http1.rs) on the wire: pipelined requests in order,
//! the hand-over to hyper in the middle of a connection, a slow head, malformed and oversized
//! heads, request smuggling, the framing of HEAD, 304 and chunked answers, `Connection:
//! close`, and a client leaving a stream.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing;
use futures_util::StreamExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use zero_sandbox::Sandbox;
use zero_sandbox::listener::Limits;

use crate::support::{self, start_with_echo};

/// Long enough that the server's own move, not the test's patience, ends each wait.
const DEADLINE: Duration = Duration::from_secs(20);

fn config_with(limits: Limits) -> zero_sandbox::Config {
    let mut config = support::test_config();
    config.listeners = limits;
    config
}

/// Everything the server sends until it closes the connection; panics past [`DEADLINE`].
async fn read_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut received = Vec::new();
    match tokio::time::timeout(DEADLINE, stream.read_to_end(&mut received)).await {
        Ok(Ok(_)) => received,
        // A reset after the server's last bytes is a close too.
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::ConnectionReset => received,
        Ok(Err(e)) => panic!("reading failed: {e}"),
        Err(_) => panic!("the server kept the connection open past {DEADLINE:?}"),
    }
}

/// One connection to the edge, reading responses one after another as a client does.
struct Wire {
    stream: TcpStream,
    read: Vec<u8>,
}

/// One response: its head (status line and fields, field names in lower case) and body.
struct Answer {
    head: String,
    body: Vec<u8>,
}

impl Answer {
    fn status(&self) -> u16 {
        self.head[9..12].parse().expect("a status")
    }

    fn field(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("JSON")
    }
}

impl Wire {
    async fn to(sandbox: &Sandbox) -> Self {
        let stream = TcpStream::connect(sandbox.endpoints().edge)
            .await
            .expect("connects");
        Self {
            stream,
            read: Vec::new(),
        }
    }

    async fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).await.expect("sent");
    }

    async fn more(&mut self) {
        let mut buf = [0u8; 16 * 1024];
        let n = tokio::time::timeout(DEADLINE, self.stream.read(&mut buf))
            .await
            .expect("an answer in time")
            .expect("read");
        assert!(
            n > 0,
            "closed mid-answer after {:?}",
            String::from_utf8_lossy(&self.read)
        );
        self.read.extend_from_slice(&buf[..n]);
    }

    /// The next response; `bodiless` for the answer to HEAD (RFC 9112 §6.3).
    async fn answer(&mut self, bodiless: bool) -> Answer {
        let end = loop {
            if let Some(end) = self.read.windows(4).position(|w| w == b"\r\n\r\n") {
                break end;
            }
            self.more().await;
        };
        let head = String::from_utf8(self.read[..end].to_vec()).expect("UTF-8");
        self.read.drain(..end + 4);
        let mut answer = Answer {
            head,
            body: Vec::new(),
        };
        let status = answer.status();
        if bodiless || status == 204 || status == 304 {
            return answer;
        }
        if answer.field("transfer-encoding") == Some("chunked") {
            answer.body = self.chunked().await;
        } else {
            let length: usize = answer
                .field("content-length")
                .expect("a length")
                .parse()
                .expect("a number");
            while self.read.len() < length {
                self.more().await;
            }
            answer.body = self.read.drain(..length).collect();
        }
        answer
    }

    async fn chunked(&mut self) -> Vec<u8> {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(end) = self.read.windows(2).position(|w| w == b"\r\n") {
                    break end;
                }
                self.more().await;
            };
            let size =
                usize::from_str_radix(std::str::from_utf8(&self.read[..line_end]).unwrap(), 16)
                    .expect("a chunk size");
            self.read.drain(..line_end + 2);
            while self.read.len() < size + 2 {
                self.more().await;
            }
            body.extend(self.read.drain(..size));
            assert_eq!(self.read.drain(..2).collect::<Vec<_>>(), b"\r\n");
            if size == 0 {
                return body;
            }
        }
    }

    async fn closed(&mut self) -> Vec<u8> {
        let mut rest = std::mem::take(&mut self.read);
        rest.extend(read_until_closed(&mut self.stream).await);
        rest
    }
}

fn get_request(path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
}

#[tokio::test]
async fn pipelined_requests_are_answered_in_order_on_one_connection() {
    let (sandbox, _echo) = start_with_echo().await;
    let mut wire = Wire::to(&sandbox).await;
    let pipelined = [
        get_request("/1"),
        get_request("/2?x=y"),
        "HEAD /3 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".into(),
        "DELETE /4 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".into(),
        get_request("/5"),
    ]
    .concat();
    wire.send(pipelined.as_bytes()).await;
    for (path, method) in [("/1", "GET"), ("/2?x=y", "GET")] {
        let answer = wire.answer(false).await;
        assert_eq!(answer.status(), 200, "{}", answer.head);
        assert_eq!(answer.json()["path"], path);
        assert_eq!(answer.json()["method"], method);
        assert!(answer.field("date").is_some(), "{}", answer.head);
    }
    // HEAD: the GET's length, no body; the next answer follows straight after.
    let head = wire.answer(true).await;
    assert_eq!(head.status(), 200, "{}", head.head);
    assert!(head.field("content-length").is_some(), "{}", head.head);
    let delete = wire.answer(false).await;
    assert_eq!(delete.json()["method"], "DELETE");
    assert_eq!(delete.json()["path"], "/4");
    assert_eq!(wire.answer(false).await.json()["path"], "/5");
    sandbox.shutdown().await;
}

/// What the own loop leaves — a platform path, a body, `Expect`, HTTP/1.0 — hyper answers on
/// the same connection, from the very bytes the loop had read, and serves what follows.
#[tokio::test]
async fn a_connection_goes_to_hyper_at_the_first_request_the_own_loop_leaves() {
    let (sandbox, _echo) = start_with_echo().await;
    let mut wire = Wire::to(&sandbox).await;
    let pipelined = [
        get_request("/own"),
        get_request("/.nnumbers/auth/session"),
        get_request("/after"),
    ]
    .concat();
    wire.send(pipelined.as_bytes()).await;
    assert_eq!(wire.answer(false).await.json()["path"], "/own");
    let session = wire.answer(false).await;
    assert_eq!(session.status(), 203, "{}", session.head);
    assert_eq!(wire.answer(false).await.json()["path"], "/after");
    wire.send(b"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello")
        .await;
    let upload = wire.answer(false).await;
    assert_eq!(upload.json()["body_len"], 5);
    wire.send(
        b"PUT /put HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n",
    )
    .await;
    let go_on = wire.answer(true).await;
    assert_eq!(go_on.status(), 100, "{}", go_on.head);
    wire.send(b"abc").await;
    assert_eq!(wire.answer(false).await.json()["body_len"], 3);

    // A connection whose first request is left to hyper is hyper's from the start.
    let mut old = Wire::to(&sandbox).await;
    old.send(b"GET /old HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        .await;
    let answer = old.answer(false).await;
    assert!(answer.head.starts_with("HTTP/1.0 200"), "{}", answer.head);
    assert_eq!(answer.json()["path"], "/old");
    assert!(old.closed().await.is_empty());
    sandbox.shutdown().await;
}

/// A head begun after an answer, or pipelined behind one, is timed as a head (the header
/// deadline), not as idleness.
#[tokio::test]
async fn a_slow_head_behind_an_answer_is_closed_at_the_header_deadline() {
    let limits = Limits {
        header_read_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_secs(30),
        ..Limits::default()
    };
    let (sandbox, _echo) = support::start_with_echo_and(config_with(limits)).await;
    for later in [false, true] {
        let mut wire = Wire::to(&sandbox).await;
        let slow = "GET /slow HTTP/1.1\r\nHost: 127.0";
        if later {
            wire.send(get_request("/first").as_bytes()).await;
            assert_eq!(wire.answer(false).await.json()["path"], "/first");
            wire.send(slow.as_bytes()).await;
        } else {
            wire.send(format!("{}{slow}", get_request("/first")).as_bytes())
                .await;
            assert_eq!(wire.answer(false).await.json()["path"], "/first");
        }
        let begun = Instant::now();
        assert!(wire.closed().await.is_empty());
        assert!(
            begun.elapsed() < Duration::from_secs(10),
            "held {:?}: timed as idleness",
            begun.elapsed()
        );
    }
    sandbox.shutdown().await;
}

/// After an answer from the own loop, a malformed or oversized head gets hyper's 400 or 431,
/// as before the loop existed.
#[tokio::test]
async fn malformed_and_oversized_heads_get_hypers_answers_mid_connection() {
    let (sandbox, _echo) = start_with_echo().await;
    let many: String = (0..101).map(|i| format!("x-{i}: y\r\n")).collect();
    // Well past hyper's 400 KB: it checks the size between reads, so a head only a little
    // larger may be read whole in one and answered.
    let huge = format!("x-huge: {}\r\n", "a".repeat(2 * 1024 * 1024));
    for (bad, status) in [
        // RFC 9112 §5.2: obs-fold; §5.1: whitespace before the colon.
        ("GET / HTTP/1.1\r\nX-A: 1\r\n 2\r\n\r\n".to_string(), 400),
        ("GET / HTTP/1.1\r\nHost : x\r\n\r\n".to_string(), 400),
        ("GET / HTTP/1.1\r\nX-A: a\u{1}b\r\n\r\n".to_string(), 400),
        (format!("GET / HTTP/1.1\r\n{many}\r\n"), 431),
        (format!("GET / HTTP/1.1\r\n{huge}\r\n"), 431),
    ] {
        let mut wire = Wire::to(&sandbox).await;
        wire.send(get_request("/ok").as_bytes()).await;
        assert_eq!(wire.answer(false).await.status(), 200);
        // The client may still be sending a huge head when the 431 closes the connection.
        let _ = wire.stream.write_all(bad.as_bytes()).await;
        let rest = wire.closed().await;
        let text = String::from_utf8_lossy(&rest);
        assert!(
            text.starts_with(&format!("HTTP/1.1 {status} ")),
            "{:.60}: {text}",
            bad
        );
    }
    sandbox.shutdown().await;
}

/// RFC 9112 §6.1 and §11.2: a request with both a length and a chunked coding is never
/// answered by the own loop; hyper reads it as chunked and closes after its answer, so what
/// hides behind it is never read as a request.
#[tokio::test]
async fn a_request_with_two_framings_is_never_the_own_loops_and_smuggles_nothing() {
    let (sandbox, _echo) = start_with_echo().await;
    let mut wire = Wire::to(&sandbox).await;
    wire.send(
        b"GET /outer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n",
    )
    .await;
    let answer = wire.answer(false).await;
    assert_eq!(answer.json()["path"], "/outer");
    assert_eq!(answer.field("connection"), Some("close"));
    assert!(
        wire.closed().await.is_empty(),
        "the smuggled request was answered"
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn connection_close_makes_the_answer_the_last() {
    let (sandbox, _echo) = start_with_echo().await;
    let mut wire = Wire::to(&sandbox).await;
    let close = "GET /bye HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    wire.send(format!("{close}{}", get_request("/never")).as_bytes())
        .await;
    let answer = wire.answer(false).await;
    assert_eq!(answer.json()["path"], "/bye");
    assert_eq!(answer.field("connection"), Some("close"));
    assert!(wire.closed().await.is_empty());
    sandbox.shutdown().await;
}

/// An app answering 304, a chunked stream and a stream that never ends; the last sets
/// `left` once the edge has let go of it.
async fn framing_app(left: Arc<AtomicBool>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = Router::new()
        .route(
            "/not-modified",
            routing::get(|| async {
                let mut response = StatusCode::NOT_MODIFIED.into_response();
                response
                    .headers_mut()
                    .insert(header::ETAG, HeaderValue::from_static("\"v1\""));
                response
            }),
        )
        .route(
            "/chunked",
            routing::get(|| async {
                let pieces = futures_util::stream::iter(["one ", "two ", "three"])
                    .map(|piece| Ok::<_, std::io::Error>(Bytes::from_static(piece.as_bytes())));
                Body::from_stream(pieces).into_response()
            }),
        )
        .route(
            "/forever",
            routing::get(move || {
                let left = left.clone();
                async move { forever(left) }
            }),
        );
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    url
}

/// One event, then nothing until the reader leaves.
fn forever(left: Arc<AtomicBool>) -> Response {
    struct Gone(Arc<AtomicBool>);
    impl Drop for Gone {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let gone = Gone(left);
    let events = futures_util::stream::once(async {
        Ok::<_, std::io::Error>(Bytes::from_static(b"data: one\n\n"))
    })
    .chain(futures_util::stream::pending())
    .map(move |event| {
        let _ = &gone;
        event
    });
    Body::from_stream(events).into_response()
}

#[tokio::test]
async fn not_modified_and_chunked_answers_keep_the_connection_in_step() {
    let left = Arc::new(AtomicBool::new(false));
    let mut config = support::test_config();
    config.app.url = Some(framing_app(left.clone()).await);
    let sandbox = support::start_with(config).await;
    let mut wire = Wire::to(&sandbox).await;
    let pipelined = [
        get_request("/chunked"),
        get_request("/not-modified"),
        get_request("/chunked"),
    ]
    .concat();
    wire.send(pipelined.as_bytes()).await;
    let chunked = wire.answer(false).await;
    assert_eq!(
        chunked.field("transfer-encoding"),
        Some("chunked"),
        "{}",
        chunked.head
    );
    assert_eq!(chunked.body, b"one two three");
    let not_modified = wire.answer(false).await;
    assert_eq!(not_modified.status(), 304, "{}", not_modified.head);
    assert_eq!(not_modified.field("etag"), Some("\"v1\""));
    assert_eq!(
        not_modified.field("content-length"),
        None,
        "{}",
        not_modified.head
    );
    assert_eq!(wire.answer(false).await.body, b"one two three");
    sandbox.shutdown().await;
}

/// A client leaving an open stream is noticed before the stream's next event: the edge lets
/// go of the app's connection, so the app's stream ends too.
#[tokio::test]
async fn a_client_leaving_a_stream_ends_it_at_the_app() {
    let left = Arc::new(AtomicBool::new(false));
    let mut config = support::test_config();
    config.app.url = Some(framing_app(left.clone()).await);
    let sandbox = support::start_with(config).await;
    let mut wire = Wire::to(&sandbox).await;
    wire.send(get_request("/forever").as_bytes()).await;
    while !wire.read.windows(9).any(|w| w == b"data: one") {
        wire.more().await;
    }
    drop(wire);
    let waited = Instant::now();
    while !left.load(Ordering::SeqCst) {
        assert!(
            waited.elapsed() < DEADLINE,
            "the app's stream is still held"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    sandbox.shutdown().await;
}

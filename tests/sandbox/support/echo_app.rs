//! A test app that echoes what it receives, so tests can see exactly what the edge forwards.
//!
//! - any path: JSON `{method, path, headers: [[name, value], …] (every copy), body_len}`
//! - `/ws`: a WebSocket echo, whose first message lists the identities the handshake carried;
//!   `close, please` makes the app close it
//! - `/sse`: one event, then waits for [`EchoApp::release_sse`], then a second and the end —
//!   so a test proves the first event crossed the edge while the stream was still open
//! - `/big`: 10 MB in 64 KiB chunks
//! - `/abort`: announces 1 MB, sends 64 KiB, then drops the connection
//! - `/set-cookie`: tries to overwrite the platform's cookies, and sets one of its own

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::StreamExt;
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::watch;

pub const BIG_LEN: usize = 10 * 1024 * 1024;
const CHUNK: usize = 64 * 1024;

pub struct EchoApp {
    pub url: String,
    sse_gate: Arc<watch::Sender<bool>>,
    task: tokio::task::JoinHandle<()>,
}

impl EchoApp {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let sse_gate = Arc::new(watch::Sender::new(false));
        let app = Router::new()
            .route("/ws", get(ws))
            .route("/sse", get(sse))
            .route("/big", get(big))
            .route("/abort", get(abort))
            .route("/set-cookie", get(set_cookie))
            .fallback(echo)
            .with_state(sse_gate.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            url,
            sse_gate,
            task,
        }
    }

    /// Lets every open `/sse` stream send its second event and end.
    pub fn release_sse(&self) {
        self.sse_gate.send_replace(true);
    }
}

impl Drop for EchoApp {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn echo(request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let headers: Vec<[String; 2]> = parts
        .headers
        .iter()
        .map(|(name, value)| {
            [
                name.as_str().to_string(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            ]
        })
        .collect();
    // Counted frame by frame: the echo app never holds the body either.
    let mut body = body.into_data_stream();
    let mut body_len = 0usize;
    while let Some(Ok(chunk)) = body.next().await {
        body_len += chunk.len();
    }
    axum::Json(json!({
        "method": parts.method.as_str(),
        "path": parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/"),
        "headers": headers,
        "body_len": body_len,
    }))
    .into_response()
}

async fn ws(headers: HeaderMap, upgrade: WebSocketUpgrade) -> Response {
    // The first message says which identities the handshake carried.
    let identities: Vec<String> = headers
        .get_all("x-nnumbers-identity")
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect();
    upgrade.on_upgrade(|mut socket| async move {
        let hello = json!({ "identities": identities }).to_string();
        if socket.send(Message::Text(hello.into())).await.is_err() {
            return;
        }
        while let Some(Ok(message)) = socket.recv().await {
            let reply = match message {
                // The app ends the conversation: its close must reach the browser.
                Message::Text(text) if text.as_str() == "close, please" => {
                    let _ = socket.send(Message::Close(None)).await;
                    break;
                }
                Message::Text(text) => Message::Text(format!("echo: {}", text.as_str()).into()),
                Message::Binary(bytes) => Message::Binary(bytes),
                Message::Close(_) => break,
                _ => continue,
            };
            if socket.send(reply).await.is_err() {
                break;
            }
        }
    })
}

async fn sse(State(gate): State<Arc<watch::Sender<bool>>>) -> Response {
    let events = futures_util::stream::unfold(0u8, move |step| {
        let gate = gate.clone();
        async move {
            match step {
                0 => Some((Bytes::from_static(b"data: first\n\n"), 1)),
                1 => {
                    let _ = gate.subscribe().wait_for(|open| *open).await;
                    Some((Bytes::from_static(b"data: second\n\n"), 2))
                }
                _ => None,
            }
        }
    })
    .map(Ok::<_, std::io::Error>);
    let mut response = Body::from_stream(events).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    response
}

async fn big() -> Response {
    let chunks = futures_util::stream::iter(0..BIG_LEN / CHUNK)
        .map(|i| Ok::<_, std::io::Error>(Bytes::from(vec![(i % 251) as u8; CHUNK])));
    let mut response = Body::from_stream(chunks).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from(BIG_LEN));
    response
}

async fn abort() -> Response {
    // Yielding between the chunk and the failure lets hyper flush the head and the chunk
    // first: the failure then happens mid-response, not before it.
    let chunks = futures_util::stream::unfold(0u8, |step| async move {
        match step {
            0 => Some((Ok(Bytes::from(vec![b'x'; CHUNK])), 1)),
            1 => {
                tokio::task::yield_now().await;
                Some((
                    Err(std::io::Error::other("the app gave up mid-response")),
                    2,
                ))
            }
            _ => None,
        }
    });
    let mut response = Body::from_stream(chunks).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from(1024 * 1024));
    response
}

async fn set_cookie() -> Response {
    let mut response = "cookies set".into_response();
    let headers = response.headers_mut();
    headers.append(
        header::SET_COOKIE,
        HeaderValue::from_static("__nnumbers_session=forged; Path=/"),
    );
    // The IAM's cookies too: same host, and cookies ignore ports.
    headers.append(
        header::SET_COOKIE,
        HeaderValue::from_static("KEYCLOAK_IDENTITY=fixed; Path=/realms/acme/"),
    );
    headers.append(
        header::SET_COOKIE,
        HeaderValue::from_static("__nnumbers_login=fixed; Path=/.nnumbers/auth/"),
    );
    headers.append(
        header::SET_COOKIE,
        HeaderValue::from_static("app_pref=dark; Path=/"),
    );
    response
}

/// Every value the app received for `name` (any letter case).
pub fn header_values(echo: &serde_json::Value, name: &str) -> Vec<String> {
    echo["headers"]
        .as_array()
        .map(|headers| {
            headers
                .iter()
                .filter(|h| h[0].as_str().is_some_and(|n| n.eq_ignore_ascii_case(name)))
                .filter_map(|h| h[1].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

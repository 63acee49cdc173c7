//! Every spelling of a reserved path stays with the platform (runtime-protocol, "The Reserved
//! Paths": they "never reach the application code"). Spellings RFC 3986 §6.2.2 makes
//! equivalent are served as the platform path; other spellings that an app server might read
//! as one are 404 from the edge. Requests go out as raw bytes: an HTTP client would normalise
//! the very spellings under test.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use zero_sandbox::Sandbox;

use super::echoed_bytes;
use crate::support::{self, client, edge, start_with_echo};

/// An app that records every path that reaches it.
struct RecordingApp {
    url: String,
    reached: Arc<Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl RecordingApp {
    async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let reached = Arc::new(Mutex::new(Vec::new()));
        let app = Router::new()
            .fallback(
                |State(reached): State<Arc<Mutex<Vec<String>>>>, request: Request| async move {
                    reached.lock().unwrap().push(request.uri().to_string());
                    "the app"
                },
            )
            .with_state(reached.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { url, reached, task }
    }

    fn reached(&self) -> Vec<String> {
        self.reached.lock().unwrap().clone()
    }
}

impl Drop for RecordingApp {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn start() -> (Sandbox, RecordingApp) {
    let app = RecordingApp::start().await;
    let mut config = support::test_config();
    config.app.url = Some(app.url.clone());
    (support::start_with(config).await, app)
}

/// `GET target` sent byte for byte; the status and the body.
async fn get_raw(sandbox: &Sandbox, target: &str) -> (u16, String) {
    let mut socket = tokio::net::TcpStream::connect(sandbox.endpoints().edge)
        .await
        .unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), socket.read_to_end(&mut answer))
        .await
        .expect("the edge answers and closes")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer}"));
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default();
    (status, body)
}

/// `/.nnumbers` with the characters at `encoded` percent-encoded, in upper or lower hex.
fn prefix_with(encoded: &[usize], upper: bool) -> String {
    let mut out = String::from("/");
    for (i, c) in ".nnumbers".chars().enumerate() {
        if encoded.contains(&i) {
            let hex = format!("%{:02X}", u32::from(c));
            out.push_str(&if upper { hex } else { hex.to_lowercase() });
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn the_spellings_are_what_they_claim() {
    assert_eq!(prefix_with(&[1], false), "/.%6enumbers");
    assert_eq!(prefix_with(&[0, 8], true), "/%2Ennumber%73");
}

#[tokio::test]
async fn each_unreserved_character_of_the_prefix_encoded_is_the_platform_path() {
    let (sandbox, app) = start().await;
    let every: Vec<usize> = (0..9).collect();
    for rest in ["/v1/context", "/auth/session"] {
        let (status, canonical) = get_raw(&sandbox, &format!("/.nnumbers{rest}")).await;
        assert_eq!(status, 203, "{canonical}");
        let canonical: Value = serde_json::from_str(&canonical).unwrap();
        let mut spellings: Vec<Vec<usize>> = (0..9).map(|i| vec![i]).collect();
        spellings.push(every.clone());
        for encoded in &spellings {
            for upper in [false, true] {
                let path = format!("{}{rest}", prefix_with(encoded, upper));
                let (status, body) = get_raw(&sandbox, &path).await;
                assert_eq!(status, 203, "{path}: {body}");
                let body: Value = serde_json::from_str(&body).unwrap();
                assert_eq!(body, canonical, "{path}");
            }
        }
    }
    assert_eq!(app.reached(), Vec::<String>::new());
}

#[tokio::test]
async fn dot_segments_and_encoded_rest_are_the_platform_path_too() {
    let (sandbox, app) = start().await;
    for path in [
        "/app/../.nnumbers/v1/context",
        "/%2E%2E/.nnumbers/v1/context",
        "/.nnumbers/./v1/context",
        "/.nnumbers/x/%2e%2e/v1/context",
        "/.nnumbers/%76%31/%63ontext",
        // `%2F`, `\` and `;` are not `/` to RFC 3986, so `..` removes the whole `a%2Fb`.
        "/a%2Fb/../.nnumbers/v1/context",
        "/a%2fb/%2E%2E/.nnumbers/v1/context",
        "/a\\b/../.nnumbers/v1/context",
        "/a;x/b/../../.nnumbers/v1/context",
    ] {
        let (status, body) = get_raw(&sandbox, path).await;
        assert_eq!(status, 203, "{path}: {body}");
        assert!(body.contains("login_path"), "{path}: {body}");
    }
    // The query goes along: sign-in spelled otherwise still redirects to the IAM.
    let (status, _) = get_raw(&sandbox, "/.%6Enumbers/auth/login?return_to=/reports").await;
    assert_eq!(status, 302);
    assert_eq!(app.reached(), Vec::<String>::new());
}

#[tokio::test]
async fn other_spellings_are_404_from_the_edge_and_never_reach_the_app() {
    let (sandbox, app) = start().await;
    for path in [
        "/.%6Enumbers/nope",
        "/.%6enumbers",
        "/.nnumbers%2Fv1/context",
        "/.nnumbers%2fv1/context",
        "/%2Ennumbers%2Fv1%2Fcontext",
        "/.NNumbers/v1/context",
        "/.%4Enumbers/v1/context",
        "/.nnumbers;x/v1/context",
        "//.nnumbers/v1/context",
        "/.nnumbers%5Cv1/context",
    ] {
        let (status, body) = get_raw(&sandbox, path).await;
        assert_eq!(status, 404, "{path}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["code"], "NOT_FOUND", "{path}: answered by the edge");
    }
    assert_eq!(app.reached(), Vec::<String>::new());
    // The recorder does record: paths of the app's own reach it, untouched. The hardening
    // issue's `/.%6ennumbers/v1/context` is one: it decodes to `/.nnnumbers/…`, three n's.
    for path in [
        "/a/.nnumbers",
        "/nnumbers",
        "/%2E%6Ex",
        "/a%2Fb/../c",
        "/.%6ennumbers/v1/context",
    ] {
        let (status, body) = get_raw(&sandbox, path).await;
        assert_eq!((status, body.as_str()), (200, "the app"), "{path}");
    }
    assert_eq!(
        app.reached(),
        [
            "/a/.nnumbers",
            "/nnumbers",
            "/%2E%6Ex",
            "/a%2Fb/../c",
            "/.%6ennumbers/v1/context"
        ]
    );
}

#[tokio::test]
async fn path_parameter_spellings_of_the_prefix_stay_at_the_edge() {
    // Servlet containers drop `;…` from each segment, and read `..;` as `..`.
    let (sandbox, _echo) = start_with_echo().await;
    for path in [
        "/.nnumbers;x/auth/session",
        "/.nnumbers;jsessionid=1",
        "/a/..;/.nnumbers/auth/session",
        "/a/..;x=1/.NNUMBERS/v1/context",
    ] {
        let response = client().get(edge(&sandbox, path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "NOT_FOUND", "{path}: {body}");
    }
    // An app path with a parameter still reaches the app.
    let echo = echoed_bytes(&sandbox, "/a;v=1/b", &[]).await;
    assert_eq!(echo["path"], "/a;v=1/b");
}

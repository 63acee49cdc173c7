//! The test-control API's request bodies, through its router (`control::router`, driven with
//! `tower::ServiceExt::oneshot` as a loopback client without an Origin, `application/json`),
//! on a sandbox started once.
//!
//! The first byte picks the endpoint; for those that take query parameters, the text up to
//! the first newline is the query and the rest the body.
//!
//! What must hold: no panic and no 5xx, whatever the body; every refusal is the API's own
//! `{"code","message"}` with a message. After a change succeeds the sandbox is reset, so each
//! input starts from the configuration.

#![no_main]

use std::net::SocketAddr;
use std::sync::LazyLock;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Method, Request, header};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tower::ServiceExt;
use zero_sandbox::control::{BASE, ControlState, router};
use zero_sandbox::{Config, Sandbox};

/// (method, path under the base, takes query parameters).
const ENDPOINTS: [(Method, &str, bool); 14] = [
    (Method::POST, "sessions", false),
    (Method::DELETE, "sessions", true),
    (Method::POST, "querymesh-tokens", false),
    (Method::POST, "people", false),
    (Method::PATCH, "switches", false),
    (Method::POST, "faults", false),
    (Method::DELETE, "faults", true),
    (Method::POST, "keys/rotate", false),
    (Method::POST, "clock", false),
    (Method::PUT, "limits", false),
    (Method::POST, "reset", true),
    (Method::POST, "identity/check", false),
    (Method::GET, "events", true),
    (Method::GET, "sessions", true),
];

struct Control {
    runtime: tokio::runtime::Runtime,
    router: Router,
    host: HeaderValue,
    _sandbox: std::sync::Mutex<Sandbox>,
}

static CONTROL: LazyLock<Control> = LazyLock::new(|| {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let (sandbox, router, host) = runtime.block_on(async {
        let sandbox = Sandbox::start(Config::builtin().with_ephemeral_ports())
            .await
            .expect("the sandbox starts");
        let router = router(ControlState::new(sandbox.control_parts()));
        let host = HeaderValue::from_str(&sandbox.endpoints().broker.to_string()).expect("a host");
        (sandbox, router, host)
    });
    Control {
        runtime,
        router,
        host,
        _sandbox: std::sync::Mutex::new(sandbox),
    }
});

fn build_request(method: Method, uri: &str, body: Vec<u8>) -> Option<Request<Body>> {
    let control = &*CONTROL;
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, control.host.clone())
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .ok()?;
    let peer: SocketAddr = "127.0.0.1:40000".parse().expect("an address");
    request.extensions_mut().insert(ConnectInfo(peer));
    Some(request)
}

/// Sends the request; returns the status and the body.
fn send(request: Request<Body>) -> (u16, Vec<u8>) {
    let control = &*CONTROL;
    control.runtime.block_on(async {
        let response = control
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("the router is infallible");
        let status = response.status().as_u16();
        let body = axum::body::to_bytes(response.into_body(), 1 << 24)
            .await
            .expect("the body reads");
        (status, body.to_vec())
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((choice, rest)) = data.split_first() else {
        return;
    };
    let (method, path, takes_query) = &ENDPOINTS[usize::from(*choice) % ENDPOINTS.len()];
    let (query, body) = match rest.iter().position(|b| *b == b'\n') {
        Some(at) if *takes_query => (&rest[..at], &rest[at + 1..]),
        _ => (&rest[..0], rest),
    };
    let Ok(query) = std::str::from_utf8(query) else {
        return;
    };
    let uri = if query.is_empty() {
        format!("{BASE}/{path}")
    } else {
        format!("{BASE}/{path}?{query}")
    };
    let Some(request) = build_request(method.clone(), &uri, body.to_vec()) else {
        return;
    };
    let (status, answer) = send(request);
    assert!(
        status < 500,
        "{method} {uri} answered {status}: {}",
        String::from_utf8_lossy(&answer)
    );
    if status >= 400 {
        let error: Value = serde_json::from_slice(&answer)
            .unwrap_or_else(|_| panic!("{status} is not JSON: {answer:?}"));
        assert!(
            error["code"].is_string(),
            "{status} without a code: {error}"
        );
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{status} without a message: {error}"
        );
    } else if *method != Method::GET {
        let reset = build_request(Method::POST, &format!("{BASE}/reset"), Vec::new())
            .expect("a reset request");
        let (status, answer) = send(reset);
        assert!(
            status < 300,
            "reset answered {status}: {}",
            String::from_utf8_lossy(&answer)
        );
    }
});

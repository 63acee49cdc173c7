//! No web page but the console steers the sandbox: a request with an `Origin` other than the
//! console's own (scheme, host and port of the broker's listener as the browser addressed it)
//! is refused with 403 `FOREIGN_ORIGIN`, whatever the method; a body must say it is JSON
//! (415 `UNSUPPORTED_MEDIA_TYPE` otherwise). A developer runs other local servers beside the
//! sandbox — a Vite dev server on 5173, `python3 -m http.server` — and none of their pages may
//! reach the control API, not even with the `no-cors` fetches a browser sends without asking.

use reqwest::Method;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use zero_sandbox::Sandbox;

use super::{Control, assert_api_error};
use crate::support;
use crate::support::browser::{Browser, DEFAULT_DEADLINE};

/// One request of the matrix: a method, a path and a JSON body whose effect is harmless, and
/// the status it gets once accepted.
struct Call {
    method: Method,
    path: &'static str,
    body: Option<Value>,
    accepted: u16,
}

fn calls() -> Vec<Call> {
    let call = |method, path, body, accepted| Call {
        method,
        path,
        body,
        accepted,
    };
    vec![
        call(Method::GET, "/switches", None, 200),
        call(
            Method::POST,
            "/clock",
            Some(json!({ "advance_seconds": 1 })),
            200,
        ),
        call(
            Method::PUT,
            "/limits",
            Some(json!({
                "default": { "concurrent_queries": 4, "queries_per_minute": 0 },
                "rules": [],
            })),
            200,
        ),
        call(
            Method::PATCH,
            "/switches",
            Some(json!({ "querymesh_enabled": true })),
            200,
        ),
        call(Method::DELETE, "/faults", None, 200),
    ]
}

/// `call` with `origin` (none when `None`), and `host` as the Host header when given.
async fn send(
    sandbox: &Sandbox,
    call: &Call,
    origin: Option<&str>,
    host: Option<&str>,
) -> (u16, Value) {
    let url = format!("{}{}", sandbox.endpoints().control_url(), call.path);
    let mut request = support::client().request(call.method.clone(), url);
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    if let Some(host) = host {
        request = request.header("host", host);
    }
    if let Some(body) = &call.body {
        request = request.json(body);
    }
    let response = request.send().await.expect("the control API answers");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON answer"))
}

#[tokio::test]
async fn only_no_origin_or_the_consoles_own_origin_is_accepted_whatever_the_method() {
    let sandbox = support::start().await;
    let broker = sandbox.endpoints().broker;
    let port = broker.port();
    let console = format!("http://{broker}");
    let another_port = format!("http://127.0.0.1:{}", sandbox.endpoints().edge.port());
    let localhost_port = format!("http://localhost:{port}");
    let https = format!("https://{broker}");
    let localhost_host = format!("localhost:{port}");

    let accepted: [(Option<&str>, Option<&str>); 3] = [
        (None, None),
        (Some(&console), None),
        // The console opened as http://localhost:<port>: its requests say so in both headers.
        (Some(&localhost_port), Some(&localhost_host)),
    ];
    let refused: [&str; 7] = [
        "http://localhost:5173",
        &another_port,
        "http://127.0.0.1:8000",
        // The listener's port, but not the name the request was sent to (127.0.0.1).
        &localhost_port,
        &https,
        "null",
        "http://evil.example",
    ];
    let mut clock_moves = 0;
    for call in calls() {
        let what = format!("{} {}", call.method, call.path);
        for (origin, host) in accepted {
            let (status, body) = send(&sandbox, &call, origin, host).await;
            assert_eq!(status, call.accepted, "{what} from {origin:?}: {body}");
            clock_moves += usize::from(call.path == "/clock");
        }
        for origin in refused {
            let answer = send(&sandbox, &call, Some(origin), None).await;
            assert_api_error(&answer, 403, "FOREIGN_ORIGIN", origin);
        }
    }
    // Only the accepted calls moved the clock.
    let control = Control::of(&sandbox);
    assert_eq!(
        control.get("/clock").await.1["offset_seconds"],
        clock_moves as u64
    );
}

#[tokio::test]
async fn a_body_is_read_only_when_it_says_it_is_json() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let url = format!("{}/clock", control.base);
    let body = r#"{"advance_seconds":1}"#;
    let post = |content_type: Option<&'static str>| {
        let mut request = support::client().post(&url).body(body);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        request.send()
    };
    for content_type in [
        Some("text/plain"),
        Some("text/plain;charset=UTF-8"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        None,
    ] {
        let response = post(content_type).await.expect("answers");
        let status = response.status().as_u16();
        assert_eq!(
            response.headers().get("accept").map(|a| a.as_bytes()),
            Some(&b"application/json"[..]),
            "a 415 names what it takes (RFC 9110 §15.5.16)"
        );
        let answer = (status, response.json::<Value>().await.expect("JSON"));
        let names = content_type.unwrap_or("no Content-Type");
        assert_api_error(&answer, 415, "UNSUPPORTED_MEDIA_TYPE", names);
    }
    // Two Content-Types, one of them JSON: read as both, so not JSON.
    let twice = support::client()
        .post(&url)
        .header("content-type", "application/json")
        .header("content-type", "text/plain")
        .body(body)
        .send()
        .await
        .expect("answers");
    let answer = (
        twice.status().as_u16(),
        twice.json::<Value>().await.expect("JSON"),
    );
    assert_api_error(&answer, 415, "UNSUPPORTED_MEDIA_TYPE", "text/plain");
    for content_type in ["application/json", "application/json; charset=utf-8"] {
        let response = post(Some(content_type)).await.expect("answers");
        assert_eq!(response.status(), 200, "{content_type}");
    }
    assert_eq!(control.get("/clock").await.1["offset_seconds"], 2);
    // Without a body there is nothing to read: `curl -X POST $C/reset` still works.
    let empty = support::client()
        .post(format!("{}/reset", control.base))
        .header("content-type", "text/plain")
        .send()
        .await
        .expect("answers");
    assert_eq!(empty.status(), 200);
}

/// A page served by a server of its own on another loopback port, as a developer's other
/// local servers serve theirs: `script` runs when it loads.
async fn serve_page(script: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let url = format!("http://{}/", listener.local_addr().expect("an address"));
    let page =
        format!("<!doctype html><title>another local server</title><script>{script}</script>");
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let page = page.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buffer = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buffer[..n]),
                    }
                }
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{page}",
                    page.len()
                );
                let _ = stream.write_all(answer.as_bytes()).await;
            });
        }
    });
    url
}

/// What the control API says of the things a page would steer.
async fn state_of(control: &Control) -> Value {
    let keys = control.get("/keys").await.1;
    json!({
        "sessions": control.get("/sessions").await.1["sessions"],
        "faults": control.get("/faults").await.1["faults"],
        "key": keys["current"],
        "clock": control.get("/clock").await.1["offset_seconds"],
        "switches": control.get("/switches").await.1,
    })
}

#[tokio::test]
async fn a_page_of_another_local_server_cannot_steer_the_sandbox_in_a_browser() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let before = state_of(&control).await;
    // The fetches a page may send anywhere without a preflight (Fetch §4.8): no-cors, a
    // safelisted Content-Type. Each resolves (an opaque answer) once the server has answered.
    let script = format!(
        "const C = {control:?};
         const send = (path, body) => fetch(C + path, {{
             method: 'POST', mode: 'no-cors',
             headers: {{ 'Content-Type': 'text/plain' }}, body: JSON.stringify(body),
         }}).then(r => r.type, e => 'failed: ' + e);
         Promise.all([
             send('/sessions', {{ person: 'ada' }}),
             send('/faults', {{ code: 'QUERYMESH_UNAVAILABLE', scope: 'everyone' }}),
             send('/keys/rotate', {{ grace_seconds: 0 }}),
             send('/clock', {{ advance_seconds: 400 }}),
         ]).then(sent => {{ window.sent = sent; }});",
        control = control.base
    );
    let page = serve_page(script).await;
    let Some(mut browser) = Browser::launch().await else {
        return;
    };
    browser.goto(&page).await;
    browser
        .wait_for("Array.isArray(window.sent)", DEFAULT_DEADLINE)
        .await;
    assert_eq!(
        browser.eval("window.sent").await,
        json!(["opaque", "opaque", "opaque", "opaque"]),
        "the browser sent every request and the API answered each"
    );
    assert_eq!(state_of(&control).await, before, "nothing changed");
    let (_, events) = control.get("/events").await;
    let from_control: Vec<&Value> = events["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["source"] == "control")
        .collect();
    assert!(from_control.is_empty(), "{from_control:?}");
}

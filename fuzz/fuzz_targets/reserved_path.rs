//! The edge's reserved-path decision on arbitrary request targets, judged by a reference RFC
//! 3986 normaliser written here (not the edge's): the edge router itself (its normalising
//! layer, its routes and the proxy's reserved check) runs each target in front of a recording
//! app, and the app's answer tells "proxied" from "served by the edge".
//!
//! What must hold (runtime-protocol, "The Reserved Paths"; RFC 3986 §6.2.2):
//! - a target whose normal form is `/.nnumbers` or under `/.nnumbers/` never reaches the app;
//! - a target the edge keeps holds `.nnumbers` in some reading (its text once fully
//!   percent-decoded, in any letter case): nothing else is taken from the app;
//! - a target with no escape, `\`, `;` or empty segment — where the edge's lenient readings
//!   reduce to letter case — is kept exactly when its normal form, in lower case, is under the
//!   prefix;
//! - the edge's own normal form is the reference's.

#![no_main]

use std::net::SocketAddr;
use std::sync::LazyLock;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Request, Uri};
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;
use zero_sandbox::edge::reserved;
use zero_sandbox::{Config, Sandbox};

const PREFIX: &str = "/.nnumbers";
const APP_MARK: &str = "x-fuzz-app";

struct Edge {
    runtime: tokio::runtime::Runtime,
    router: Router,
    host: HeaderValue,
    /// Keeps the sandbox's listeners open.
    _sandbox: std::sync::Mutex<Sandbox>,
}

static EDGE: LazyLock<Edge> = LazyLock::new(|| {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let (sandbox, router, host) = runtime.block_on(async {
        // The app: answers every request it gets with a mark.
        let app = Router::new().fallback(|| async { ([(APP_MARK, "1")], "app") });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("the app binds");
        let app_addr = listener.local_addr().expect("an address");
        tokio::spawn(async move { axum::serve(listener, app).await });
        let mut config = Config::builtin().with_ephemeral_ports();
        config.app.url = Some(format!("http://{app_addr}"));
        let sandbox = Sandbox::start(config).await.expect("the sandbox starts");
        let router = zero_sandbox::edge::router(sandbox.edge().clone());
        let host = HeaderValue::from_str(&sandbox.endpoints().edge.to_string()).expect("a host");
        (sandbox, router, host)
    });
    Edge {
        runtime,
        router,
        host,
        _sandbox: std::sync::Mutex::new(sandbox),
    }
});

fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"-._~".contains(&byte)
}

/// RFC 3986 §6.2.2.1 (escapes in upper case) and §6.2.2.2 (unreserved ones decoded).
fn normalise_escapes(path: &str) -> String {
    let mut out = String::new();
    let mut chars = path.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let hex = path
            .get(i + 1..i + 3)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match (c, hex) {
            ('%', Some(hex)) => {
                let byte = u8::from_str_radix(hex, 16).expect("two hex digits");
                if is_unreserved(byte) {
                    out.push(char::from(byte));
                } else {
                    out.push('%');
                    out.push_str(&hex.to_ascii_uppercase());
                }
                chars.next();
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// RFC 3986 §5.2.4 remove_dot_segments, its five rules as written, on an input buffer.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path.to_string();
    let mut output = String::new();
    while !input.is_empty() {
        if input.starts_with("../") {
            input.drain(..3);
        } else if input.starts_with("./") {
            input.drain(..2);
        } else if input.starts_with("/./") {
            input.replace_range(..3, "/");
        } else if input == "/." {
            input = "/".into();
        } else if input.starts_with("/../") || input == "/.." {
            let len = if input == "/.." { 3 } else { 4 };
            input.replace_range(..len, "/");
            match output.rfind('/') {
                Some(at) => output.truncate(at),
                None => output.clear(),
            }
        } else if input == "." || input == ".." {
            input.clear();
        } else {
            let skip = usize::from(input.starts_with('/'));
            let end = input[skip..].find('/').map_or(input.len(), |at| at + skip);
            output.push_str(&input[..end]);
            input.drain(..end);
        }
    }
    output
}

fn reference_normal(path: &str) -> String {
    remove_dot_segments(&normalise_escapes(path))
}

fn under_prefix(path: &str) -> bool {
    path == PREFIX || path.starts_with("/.nnumbers/")
}

/// Every escape decoded once (bytes, then lossy text), for the widest reading.
fn decode_all(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = path
            .get(i + 1..i + 3)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match (bytes[i], hex) {
            (b'%', Some(hex)) => {
                out.push(u8::from_str_radix(hex, 16).expect("two hex digits"));
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn proxied(target: &str) -> Option<bool> {
    let uri: Uri = target.parse().ok()?;
    // Origin-form only (RFC 9112 §3.2.1): what a browser sends the app's address.
    if uri.scheme().is_some() || !target.starts_with('/') {
        return None;
    }
    let edge = &*EDGE;
    let mut request = Request::get(uri).body(Body::empty()).ok()?;
    request
        .headers_mut()
        .insert(axum::http::header::HOST, edge.host.clone());
    let peer: SocketAddr = "127.0.0.1:40000".parse().expect("an address");
    request.extensions_mut().insert(ConnectInfo(peer));
    let response = edge
        .runtime
        .block_on(edge.router.clone().oneshot(request))
        .expect("the router is infallible");
    Some(response.headers().contains_key(APP_MARK))
}

fuzz_target!(|data: &[u8]| {
    let Ok(target) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(uri) = target.parse::<Uri>() else {
        return;
    };
    let path = uri.path().to_string();
    let normal = reference_normal(&path);
    assert_eq!(
        reserved::normalise(&path),
        normal,
        "the normal form of {path:?}"
    );
    let Some(proxied) = proxied(target) else {
        return;
    };
    if under_prefix(&normal) {
        assert!(
            !proxied,
            "{target:?} (normal form {normal:?}) reached the app"
        );
    }
    if !proxied {
        assert!(
            decode_all(&path).to_ascii_lowercase().contains(".nnumbers"),
            "{target:?} was kept from the app with no reading under the prefix"
        );
    }
    let simple = !path.contains(['%', '\\', ';']) && !path.contains("//");
    if simple {
        assert_eq!(
            !proxied,
            under_prefix(&normal.to_ascii_lowercase()),
            "{target:?} (normal form {normal:?}): kept from the app = {}",
            !proxied
        );
    }
});

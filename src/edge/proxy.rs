//! The reverse proxy to the app: every request that is not a platform path.
//!
//! Header hygiene first (runtime-protocol: "A value sent by the browser is removed before
//! anything else"), then the signed identity for a signed-in person; bodies stream both ways
//! untouched, and an `Upgrade` (WebSocket, a dev server's hot reload) becomes a tunnel.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, Uri, Version, header};
use axum::response::{IntoResponse, Response};
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;

use super::app_down::{self, AppDown};
use super::error::EdgeError;
use super::identity_header::identity_for;
use super::visitor::Visitor;
use super::{EdgeState, cookie, reserved};
use crate::identity::IDENTITY_HEADER;
use crate::listener::ClientBodyError;
use crate::platform::{NewEvent, Source};

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
const X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");
const X_FORWARDED_HOST: HeaderName = HeaderName::from_static("x-forwarded-host");
const FORWARDED: HeaderName = HeaderName::from_static("forwarded");
const X_REAL_IP: HeaderName = HeaderName::from_static("x-real-ip");
const IDENTITY: HeaderName = HeaderName::from_static(IDENTITY_HEADER);

/// Hop-by-hop fields, meaningful only on one connection (RFC 9110 §7.6.1; Keep-Alive and
/// Proxy-Connection are its examples of legacy ones, Trailer from RFC 7230's list).
const HOP_BY_HOP: [&str; 7] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

pub async fn forward(State(state): State<EdgeState>, mut request: Request) -> Response {
    let edge = &state.parts;
    if let Some(answer) = not_for_the_app(&request) {
        return answer;
    }
    let path = request.uri().path();
    if reserved::is_reserved(path) {
        let path = path.to_string();
        return EdgeError::UnknownReservedPath(path).respond(request.headers());
    }
    // The edge's own answers read only Accept (HTML or JSON): that is all that is kept of the
    // request's headers once they move on to the app, not a copy of them all per request.
    let request_headers = accept_only(request.headers());
    if came_through(request.headers(), &state.via) {
        return app_down::response(&edge.app_url, AppDown::PointsAtTheEdge, &request_headers);
    }
    let target = match app_uri(&edge.app_url, request.uri()) {
        Ok(target) => target,
        Err(reason) => {
            return app_down::response(&edge.app_url, AppDown::BadUrl(reason), &request_headers);
        }
    };
    let visitor = Visitor::resolve(edge, request.headers()).await;
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    let host = request.headers().get(header::HOST).cloned();
    let upgrade = upgrade_protocol(request.headers());
    let client_upgrade = upgrade.is_some().then(|| hyper::upgrade::on(&mut request));

    let (parts, body) = request.into_parts();
    let mut outgoing = Request::new(body);
    *outgoing.method_mut() = parts.method;
    *outgoing.uri_mut() = target;
    *outgoing.version_mut() = Version::HTTP_11;
    *outgoing.headers_mut() = parts.headers;
    let headers = outgoing.headers_mut();
    strip_hop_by_hop(headers);
    if remove_client_identity(headers) {
        let mut removed = NewEvent::new(Source::Edge, "IDENTITY_HEADER_REMOVED");
        if let Some(session) = &visitor.session {
            removed = removed
                .of_person(&session.person.sub)
                .in_session(&session.sid);
        }
        edge.journal.record(removed);
    }
    cookie::without_platform_cookies(headers);
    set_forwarded(headers, peer, host);
    headers.append(header::VIA, state.via.clone());
    if let Some(protocol) = upgrade {
        headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(header::UPGRADE, protocol);
    }
    // From the String itself: the 1 KB token is checked, not copied again.
    if let Some(session) = &visitor.session
        && let Ok(identity) =
            HeaderValue::try_from(identity_for(&edge.identity, &edge.sessions, session))
    {
        headers.insert(IDENTITY, identity);
    }

    let timeout = state.app_response_timeout();
    let answer = tokio::time::timeout(timeout, edge.http.request(outgoing)).await;
    let mut response = match answer {
        Err(_) => {
            return app_down::response(&edge.app_url, AppDown::TimedOut(timeout), &request_headers);
        }
        Ok(Ok(response)) => response,
        Ok(Err(e)) => {
            if let Some(cause) = client_body_error(&e) {
                return EdgeError::ClientBody(cause.to_string()).respond(&request_headers);
            }
            let reason = error_chain(&e);
            let down = if e.is_connect() {
                AppDown::Unreachable(reason)
            } else {
                AppDown::NoResponse(reason)
            };
            return app_down::response(&edge.app_url, down, &request_headers);
        }
    };

    let switching = response.status() == StatusCode::SWITCHING_PROTOCOLS;
    if switching && let Some(client_upgrade) = client_upgrade {
        tunnel(client_upgrade, hyper::upgrade::on(&mut response));
    }
    let (parts, body) = response.into_parts();
    let mut reply = Response::new(Body::new(body));
    *reply.status_mut() = parts.status;
    *reply.headers_mut() = parts.headers;
    let headers = reply.headers_mut();
    let upgrade_reply = switching
        .then(|| headers.get(header::UPGRADE).cloned())
        .flatten();
    strip_hop_by_hop(headers);
    if let Some(protocol) = upgrade_reply {
        headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(header::UPGRADE, protocol);
    }
    keep_platform_cookie(headers);
    if visitor.stale_cookie {
        headers.append(header::SET_COOKIE, cookie::clear());
    }
    reply
}

/// Removes every identity the client sent: each copy in any letter case (HeaderMap names
/// are case-insensitive), and each spelling with `_` for `-`, which CGI-style servers (PHP,
/// WSGI, Rack) read as the same `HTTP_X_NNUMBERS_IDENTITY` — the reason nginx and Apache
/// drop underscored names by default.
/// Returns whether there was one to remove.
fn remove_client_identity(headers: &mut HeaderMap) -> bool {
    let lookalikes: Vec<HeaderName> = headers
        .keys()
        .filter(|name| is_identity_lookalike(name.as_str()))
        .cloned()
        .collect();
    let found = !lookalikes.is_empty();
    for name in lookalikes {
        headers.remove(name);
    }
    found
}

/// `name` (lower case, as HeaderMap keeps names) is the identity header with any `-` spelled
/// `_`; compared byte by byte, as every request's every header name goes through it.
fn is_identity_lookalike(name: &str) -> bool {
    name.len() == IDENTITY_HEADER.len()
        && name
            .bytes()
            .zip(IDENTITY_HEADER.bytes())
            .all(|(got, want)| got == want || (got == b'_' && want == b'-'))
}

/// The request's Accept fields, all that the edge's own error pages look at.
fn accept_only(headers: &HeaderMap) -> HeaderMap {
    let mut accept = HeaderMap::new();
    for value in headers.get_all(header::ACCEPT) {
        accept.append(header::ACCEPT, value.clone());
    }
    accept
}

/// Requests whose target is not a path of the app's address: `OPTIONS *` asks about the
/// server itself (RFC 9110 §9.3.7) and CONNECT asks for a tunnel, which only a forward proxy
/// gives (§9.3.6). Forwarded, they reached the app mangled or were reported as "your app did
/// not answer"; the edge answers them itself.
fn not_for_the_app(request: &Request) -> Option<Response> {
    if request.method() == axum::http::Method::CONNECT {
        return Some(EdgeError::NotAForwardProxy.respond(request.headers()));
    }
    if request.uri().path() == "*" {
        let mut response = StatusCode::OK.into_response();
        response.headers_mut().insert(
            header::ALLOW,
            HeaderValue::from_static("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
        );
        return Some(response);
    }
    None
}

/// Whether this edge's own `Via` entry is on the request: it went edge → app URL → edge, and
/// forwarding it again would loop until the process runs out of sockets.
fn came_through(headers: &HeaderMap, via: &HeaderValue) -> bool {
    let ours = via.as_bytes();
    headers
        .get_all(header::VIA)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .any(|entry| entry.trim_ascii() == ours)
}

/// The app's URL for this request: the app's base plus the request's path and query.
fn app_uri(app_url: &str, uri: &Uri) -> Result<Uri, String> {
    let path_and_query = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    format!("{app_url}{path_and_query}")
        .parse()
        .map_err(|e| format!("{e}"))
}

/// The protocol a request asks to switch to (RFC 9110 §7.8), when it really asks: `Upgrade`
/// present and `Connection` listing `upgrade`.
fn upgrade_protocol(headers: &HeaderMap) -> Option<HeaderValue> {
    connection_tokens(headers)
        .iter()
        .any(|t| t == "upgrade")
        .then(|| headers.get(header::UPGRADE).cloned())
        .flatten()
}

fn connection_tokens(headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().to_ascii_lowercase())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Removes the fixed hop-by-hop fields and every field the Connection header names.
fn strip_hop_by_hop(headers: &mut HeaderMap) {
    for name in connection_tokens(headers) {
        if let Ok(name) = HeaderName::from_bytes(name.as_bytes()) {
            headers.remove(name);
        }
    }
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
}

/// The edge is the first proxy, so what a client claims in these fields is replaced, not
/// extended.
fn set_forwarded(
    headers: &mut HeaderMap,
    peer: Option<std::net::IpAddr>,
    host: Option<HeaderValue>,
) {
    // Not only the three the edge sets: frameworks also trust X-Forwarded-Port, -Ssl,
    // -Scheme, -Prefix and X-Real-IP, and none of them may come from the client.
    let claimed: Vec<HeaderName> = headers
        .keys()
        .filter(|name| name.as_str().starts_with("x-forwarded-"))
        .cloned()
        .collect();
    for name in claimed {
        headers.remove(name);
    }
    headers.remove(FORWARDED);
    headers.remove(X_REAL_IP);
    if let Some(peer) = peer.and_then(|ip| HeaderValue::from_str(&ip.to_string()).ok()) {
        headers.insert(X_FORWARDED_FOR, peer);
    }
    headers.insert(X_FORWARDED_PROTO, HeaderValue::from_static("http"));
    if let Some(host) = host {
        headers.insert(X_FORWARDED_HOST, host);
    }
    // The client sets Host from the app's URL: what the app listens as.
    headers.remove(header::HOST);
}

/// Drops any `Set-Cookie` from the app that would overwrite a platform cookie.
fn keep_platform_cookie(headers: &mut HeaderMap) {
    let cookies: Vec<HeaderValue> = headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter(|v| !cookie::sets_platform_cookie(v))
        .cloned()
        .collect();
    headers.remove(header::SET_COOKIE);
    for value in cookies {
        headers.append(header::SET_COOKIE, value);
    }
}

/// Joins the browser's and the app's upgraded connections until either side closes.
fn tunnel(client: OnUpgrade, app: OnUpgrade) {
    tokio::spawn(async move {
        match tokio::try_join!(client, app) {
            Ok((client, app)) => {
                let (mut client, mut app) = (TokioIo::new(client), TokioIo::new(app));
                if let Err(e) = tokio::io::copy_bidirectional(&mut client, &mut app).await {
                    tracing::debug!(error = %e, "upgraded connection ended");
                }
            }
            Err(e) => tracing::debug!(error = %e, "upgrade did not complete"),
        }
    });
}

/// The client's own body failure behind a failed forward: the listener marks every request
/// body's errors as the client's (see [`ClientBodyError`]), and the hyper client reports
/// one as the cause of its error.
fn client_body_error<'e>(e: &'e (dyn std::error::Error + 'static)) -> Option<&'e ClientBodyError> {
    let mut cause = Some(e);
    while let Some(error) = cause {
        if let Some(found) = error.downcast_ref::<ClientBodyError>() {
            return Some(found);
        }
        cause = error.source();
    }
    None
}

/// The error and its causes in one line: hyper's top-level message alone says little.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

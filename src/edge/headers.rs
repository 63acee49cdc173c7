//! The header hygiene of the proxied path, done in place on the request's and the response's
//! own header maps. Each map's names are looked at once first, so a request with nothing to
//! remove (most requests) costs no removal and no allocation.
//!
//! runtime-protocol: "A value sent by the browser is removed before anything else"; RFC 9110
//! §7.6.1 for hop-by-hop fields; the `Forwarded` family is the edge's to set, being the first
//! proxy.

use std::net::IpAddr;

use axum::http::{HeaderMap, HeaderName, HeaderValue, header};

use super::cookie;
use crate::identity::IDENTITY_HEADER;

pub const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
const X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");
const X_FORWARDED_HOST: HeaderName = HeaderName::from_static("x-forwarded-host");
const FORWARDED: HeaderName = HeaderName::from_static("forwarded");
const X_REAL_IP: HeaderName = HeaderName::from_static("x-real-ip");
pub const IDENTITY: HeaderName = HeaderName::from_static(IDENTITY_HEADER);
const KEEP_ALIVE: HeaderName = HeaderName::from_static("keep-alive");
const PROXY_CONNECTION: HeaderName = HeaderName::from_static("proxy-connection");

/// Hop-by-hop fields, meaningful only on one connection (RFC 9110 §7.6.1; Keep-Alive and
/// Proxy-Connection are its examples of legacy ones, Trailer from RFC 7230's list), besides
/// `Connection` itself and what it names.
const HOP_BY_HOP: [HeaderName; 6] = [
    KEEP_ALIVE,
    PROXY_CONNECTION,
    header::TE,
    header::TRAILER,
    header::TRANSFER_ENCODING,
    header::UPGRADE,
];

/// What one look at a map's names found to remove.
#[derive(Default)]
struct Found {
    connection: bool,
    hop_by_hop: bool,
    identity: bool,
    forwarded: bool,
}

impl Found {
    fn in_names(headers: &HeaderMap) -> Self {
        let mut found = Self::default();
        for name in headers.keys() {
            if name == header::CONNECTION {
                found.connection = true;
            } else if HOP_BY_HOP.contains(name) {
                found.hop_by_hop = true;
            } else if is_identity_lookalike(name.as_str()) {
                found.identity = true;
            } else if is_forwarded_family(name) {
                found.forwarded = true;
            }
        }
        found
    }
}

/// The request as the app may see it, in place: hop-by-hop fields, every identity the client
/// sent and the platform's cookies removed; the `Forwarded` family replaced by the edge's own
/// (`peer` is the client's address, already a header value); `Host` moved to
/// `X-Forwarded-Host` (the client sets `Host` from the app's URL: what the app listens as).
/// Returns whether the client sent an identity.
pub fn for_the_app(headers: &mut HeaderMap, peer: Option<&HeaderValue>) -> bool {
    // Taken first: a `Connection: host` must not take it from X-Forwarded-Host.
    let host = headers.remove(header::HOST);
    let found = Found::in_names(headers);
    strip_hop_by_hop(headers, &found);
    if found.identity {
        remove_names(headers, |name| is_identity_lookalike(name.as_str()));
    }
    cookie::without_platform_cookies(headers);
    if found.forwarded {
        // Not only the three the edge sets: frameworks also trust X-Forwarded-Port, -Ssl,
        // -Scheme, -Prefix and X-Real-IP, and none of them may come from the client.
        remove_names(headers, is_forwarded_family);
    }
    if let Some(peer) = peer {
        headers.insert(X_FORWARDED_FOR, peer.clone());
    }
    headers.insert(X_FORWARDED_PROTO, HeaderValue::from_static("http"));
    if let Some(host) = host {
        headers.insert(X_FORWARDED_HOST, host);
    }
    found.identity
}

/// The response as the browser may see it, in place: hop-by-hop fields removed, and any
/// `Set-Cookie` that would overwrite a platform cookie.
pub fn for_the_browser(headers: &mut HeaderMap) {
    let found = Found::in_names(headers);
    strip_hop_by_hop(headers, &found);
    keep_platform_cookie(headers);
}

/// Removes the fixed hop-by-hop fields and every field the Connection header names.
fn strip_hop_by_hop(headers: &mut HeaderMap, found: &Found) {
    if found.connection {
        let named: Vec<HeaderName> = connection_tokens(headers)
            .filter_map(|token| HeaderName::from_bytes(token).ok())
            .collect();
        for name in named {
            headers.remove(name);
        }
        headers.remove(header::CONNECTION);
    }
    if found.hop_by_hop {
        for name in HOP_BY_HOP {
            headers.remove(name);
        }
    }
}

/// Removes every field whose name `matches`.
fn remove_names(headers: &mut HeaderMap, matches: impl Fn(&HeaderName) -> bool) {
    let names: Vec<HeaderName> = headers.keys().filter(|n| matches(n)).cloned().collect();
    for name in names {
        headers.remove(name);
    }
}

fn is_forwarded_family(name: &HeaderName) -> bool {
    name.as_str().starts_with("x-forwarded-") || name == FORWARDED || name == X_REAL_IP
}

/// `name` (lower case, as HeaderMap keeps names) is the identity header with any `-` spelled
/// `_`, which CGI-style servers (PHP, WSGI, Rack) read as the same `HTTP_X_NNUMBERS_IDENTITY`
/// — the reason nginx and Apache drop underscored names by default. Compared byte by byte,
/// as every request's every header name goes through it.
fn is_identity_lookalike(name: &str) -> bool {
    name.len() == IDENTITY_HEADER.len()
        && name
            .bytes()
            .zip(IDENTITY_HEADER.bytes())
            .all(|(got, want)| got == want || (got == b'_' && want == b'-'))
}

/// The tokens of every Connection field, trimmed, as bytes (any letter case).
fn connection_tokens(headers: &HeaderMap) -> impl Iterator<Item = &[u8]> {
    headers
        .get_all(header::CONNECTION)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .map(<[u8]>::trim_ascii)
        .filter(|t| !t.is_empty())
}

/// The protocol a request asks to switch to (RFC 9110 §7.8), when it really asks: `Upgrade`
/// present and `Connection` listing `upgrade`.
pub fn upgrade_protocol(headers: &HeaderMap) -> Option<HeaderValue> {
    connection_tokens(headers)
        .any(|t| t.eq_ignore_ascii_case(b"upgrade"))
        .then(|| headers.get(header::UPGRADE).cloned())
        .flatten()
}

/// Asks the app (or tells the browser) to switch to `protocol` on this connection: the two
/// fields hop-by-hop stripping removed, set again by the edge for its own hop.
pub fn set_upgrade(headers: &mut HeaderMap, protocol: HeaderValue) {
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, protocol);
}

/// Drops any `Set-Cookie` from the app that would overwrite a platform cookie.
fn keep_platform_cookie(headers: &mut HeaderMap) {
    let set_cookies = headers.get_all(header::SET_COOKIE);
    if !set_cookies.iter().any(cookie::sets_platform_cookie) {
        return;
    }
    let kept: Vec<HeaderValue> = set_cookies
        .iter()
        .filter(|v| !cookie::sets_platform_cookie(v))
        .cloned()
        .collect();
    headers.remove(header::SET_COOKIE);
    for value in kept {
        headers.append(header::SET_COOKIE, value);
    }
}

/// Whether this edge's own `Via` entry is on the request: it went edge → app URL → edge, and
/// forwarding it again would loop until the process runs out of sockets.
pub fn came_through(headers: &HeaderMap, via: &HeaderValue) -> bool {
    let ours = via.as_bytes();
    headers
        .get_all(header::VIA)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .any(|entry| entry.trim_ascii() == ours)
}

/// The client's address as `X-Forwarded-For` gives it: made once per connection.
pub fn forwarded_for(ip: IpAddr) -> Option<HeaderValue> {
    HeaderValue::from_str(&ip.to_string()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(fields: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in fields {
            headers.append(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        headers
    }

    #[test]
    fn what_the_app_gets_of_a_request_with_everything_to_remove() {
        let mut headers = map(&[
            ("host", "edge.test"),
            ("connection", "keep-alive, X-Custom"),
            ("x-custom", "hop"),
            ("keep-alive", "timeout=5"),
            ("te", "trailers"),
            ("x-nnumbers-identity", "forged"),
            ("x_nnumbers-identity", "forged"),
            ("x-forwarded-port", "1"),
            ("forwarded", "for=1.2.3.4"),
            ("x-real-ip", "1.2.3.4"),
            ("cookie", "a=1; __nnumbers_session=secret"),
            ("accept", "*/*"),
        ]);
        let peer = HeaderValue::from_static("127.0.0.1");
        assert!(for_the_app(&mut headers, Some(&peer)));
        let mut names: Vec<&str> = headers.keys().map(HeaderName::as_str).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "accept",
                "cookie",
                "x-forwarded-for",
                "x-forwarded-host",
                "x-forwarded-proto"
            ]
        );
        assert_eq!(headers["cookie"], "a=1");
        assert_eq!(headers["x-forwarded-host"], "edge.test");
        assert_eq!(headers["x-forwarded-for"], "127.0.0.1");
    }

    #[test]
    fn a_plain_request_keeps_its_fields_and_gains_the_edges() {
        let mut headers = map(&[("host", "edge.test"), ("accept", "*/*")]);
        assert!(!for_the_app(&mut headers, None));
        assert_eq!(headers.len(), 3, "{headers:?}");
        assert_eq!(headers["x-forwarded-proto"], "http");
    }

    #[test]
    fn the_browser_gets_no_hop_by_hop_field_and_no_platform_cookie() {
        let mut headers = map(&[
            ("connection", "close, x-internal"),
            ("x-internal", "1"),
            ("transfer-encoding", "chunked"),
            ("set-cookie", "a=1"),
            ("set-cookie", "__nnumbers_session=stolen; Path=/"),
            ("content-type", "text/plain"),
        ]);
        for_the_browser(&mut headers);
        let cookies: Vec<_> = headers.get_all("set-cookie").iter().collect();
        assert_eq!(cookies, ["a=1"]);
        assert_eq!(headers.len(), 2, "{headers:?}");
    }

    #[test]
    fn an_upgrade_is_asked_only_with_connection_naming_it() {
        let asked = map(&[
            ("connection", "keep-alive, Upgrade"),
            ("upgrade", "websocket"),
        ]);
        assert_eq!(upgrade_protocol(&asked).unwrap(), "websocket");
        let not = map(&[("upgrade", "websocket")]);
        assert!(upgrade_protocol(&not).is_none());
    }
}

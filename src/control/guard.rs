//! Who may use the test-control API: only this machine, and of the web pages on it only the
//! console. Every request passes three checks, in this order:
//!
//! 1. the peer is on loopback (the listeners bind loopback already; this holds even if one is
//!    ever bound wider), and the `Host` names loopback (DNS rebinding: another site's name
//!    resolving to 127.0.0.1 carries that name);
//! 2. the `Origin`, when there is one, is exactly the console's own origin: `http://` and the
//!    `Host` the request was sent to, a name of the listener it reached (its port, and
//!    `localhost` or its own address). A browser sends `Origin` with every cross-origin
//!    request and every non-GET one (the Fetch standard, "`Origin` header"), so a page served
//!    by another local port — a Vite dev server on 5173, `python3 -m http.server` — is another
//!    origin (RFC 6454 §5: scheme, host and port) and is refused, whatever its host; `null` is
//!    too;
//! 3. a request carrying a body says `Content-Type: application/json`. Without a preflight a
//!    page may send only the CORS-safelisted types (`text/plain` and the two form encodings;
//!    Fetch, "CORS-safelisted request-header"), and this API answers no preflight, so a page of
//!    another origin cannot send JSON — the second line of defence, should the first ever be
//!    bypassed.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body::Body as _;

use super::ApiError;

/// The middleware: `listener` is the address the broker's listener (which serves the API and
/// the console) is bound to.
pub async fn only_this_machine(
    State(listener): State<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    match check(&request, listener) {
        Ok(()) => next.run(request).await,
        Err(refusal) => refusal.into_response(),
    }
}

fn check(request: &Request, listener: SocketAddr) -> Result<(), ApiError> {
    match request.extensions().get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(peer)) if peer.ip().is_loopback() => {}
        Some(ConnectInfo(peer)) => return Err(ApiError::NotLoopback(peer.ip().to_string())),
        None => return Err(ApiError::NotLoopback("an unknown peer".into())),
    }
    let headers = request.headers();
    let host = text(headers, header::HOST);
    if let Some(host) = &host
        && !is_loopback_authority(host)
    {
        return Err(ApiError::ForeignOrigin(format!("host {host:?}")));
    }
    // Origin and Content-Type are single fields (RFC 6454 §7, RFC 9110 §8.3): several copies
    // are read as all of them, and only one that passes is accepted.
    if let Some(origin) = text(headers, header::ORIGIN)
        && !is_console_origin(&origin, host.as_deref(), listener)
    {
        return Err(ApiError::ForeignOrigin(format!("origin {origin:?}")));
    }
    let has_body = !request.body().is_end_stream() && request.body().size_hint().exact() != Some(0);
    if has_body {
        let content_type = text(headers, header::CONTENT_TYPE);
        if !content_type.as_deref().is_some_and(is_json) {
            return Err(ApiError::UnsupportedMediaType(content_type));
        }
    }
    Ok(())
}

/// Every copy of the field `name`, joined with `, ` as RFC 9110 §5.3 combines them.
fn text(headers: &HeaderMap, name: header::HeaderName) -> Option<String> {
    let values: Vec<String> = headers
        .get_all(name)
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

/// `host` split into its name (brackets kept off an IPv6 literal) and its port, if given.
fn split_authority(authority: &str) -> (&str, Option<&str>) {
    match authority.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((name, tail)) => (name, tail.strip_prefix(':')),
            None => (rest, None),
        },
        None => match authority.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (authority, None),
        },
    }
}

/// Whether `authority` (`host[:port]`) names this machine's loopback.
pub(super) fn is_loopback_authority(authority: &str) -> bool {
    let (name, _) = split_authority(authority);
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether `origin` is the console's: `http://` followed by exactly the `Host` the request
/// was sent to, where that `Host` names `listener` — its port (80 when none is written, as
/// RFC 9110 §4.2.1 says) and `localhost` or the address it is bound to. The console is served
/// over plain HTTP only, so an `https://` origin is never it.
fn is_console_origin(origin: &str, host: Option<&str>, listener: SocketAddr) -> bool {
    let (Some(authority), Some(host)) = (origin.strip_prefix("http://"), host) else {
        return false;
    };
    if !authority.eq_ignore_ascii_case(host) {
        return false;
    }
    let (name, port) = split_authority(host);
    let port = match port {
        Some(port) => port.parse::<u16>().ok(),
        None => Some(80),
    };
    let names_listener = if name.eq_ignore_ascii_case("localhost") {
        true
    } else {
        match name.parse::<IpAddr>() {
            Ok(ip) if listener.ip().is_unspecified() => ip.is_loopback(),
            Ok(ip) => ip == listener.ip(),
            Err(_) => false,
        }
    };
    port == Some(listener.port()) && names_listener
}

/// Whether `content_type` is JSON: `application/json` or a `+json` type (RFC 6839 §3.1), any
/// parameters (`; charset=utf-8`) allowed, case aside (RFC 9110 §8.3.1).
fn is_json(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    let subtype = subtype.to_ascii_lowercase();
    kind.eq_ignore_ascii_case("application")
        && (subtype == "json" || (subtype.ends_with("+json") && subtype.len() > "+json".len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_names_are_loopback_authorities() {
        for yes in [
            "127.0.0.1:4001",
            "localhost",
            "LOCALHOST:1",
            "[::1]:4001",
            "127.1.2.3",
        ] {
            assert!(is_loopback_authority(yes), "{yes}");
        }
        for no in [
            "evil.example:4001",
            "10.0.0.1",
            "[2001:db8::1]:80",
            "localhost.evil.example",
            "",
        ] {
            assert!(!is_loopback_authority(no), "{no}");
        }
    }

    #[test]
    fn the_console_origin_is_the_listener_as_the_browser_addressed_it() {
        let listener: SocketAddr = "127.0.0.1:4001".parse().expect("an address");
        let yes = [
            ("http://127.0.0.1:4001", "127.0.0.1:4001"),
            ("http://localhost:4001", "localhost:4001"),
            ("http://LOCALHOST:4001", "localhost:4001"),
        ];
        for (origin, host) in yes {
            assert!(
                is_console_origin(origin, Some(host), listener),
                "{origin} on {host}"
            );
        }
        let no = [
            // Another local server: same host, another port.
            ("http://localhost:5173", "127.0.0.1:4001"),
            ("http://127.0.0.1:8000", "127.0.0.1:4001"),
            // The listener's port under another name than the request was sent to.
            ("http://localhost:4001", "127.0.0.1:4001"),
            ("http://127.0.0.1:4001", "localhost:4001"),
            // Another scheme, an opaque origin, a path, no Host.
            ("https://127.0.0.1:4001", "127.0.0.1:4001"),
            ("null", "127.0.0.1:4001"),
            ("http://127.0.0.1:4001/", "127.0.0.1:4001"),
            ("http://127.0.0.1:4001", ""),
            // A Host that does not name this listener, though it matches the Origin.
            ("http://127.0.0.1:5173", "127.0.0.1:5173"),
            ("http://127.0.0.2:4001", "127.0.0.2:4001"),
            ("http://[::1]:4001", "[::1]:4001"),
            ("http://localhost", "localhost"),
            // Two Origin fields, read as one list.
            (
                "http://127.0.0.1:4001, http://127.0.0.1:4001",
                "127.0.0.1:4001",
            ),
        ];
        for (origin, host) in no {
            assert!(
                !is_console_origin(origin, Some(host).filter(|h| !h.is_empty()), listener),
                "{origin} on {host}"
            );
        }
        let anywhere: SocketAddr = "0.0.0.0:4001".parse().expect("an address");
        assert!(is_console_origin(
            "http://127.0.0.2:4001",
            Some("127.0.0.2:4001"),
            anywhere
        ));
    }

    #[test]
    fn json_is_application_json_with_any_parameters_or_a_json_suffix() {
        for yes in [
            "application/json",
            "Application/JSON",
            "application/json; charset=utf-8",
            "application/json;charset=UTF-8",
            "application/merge-patch+json",
        ] {
            assert!(is_json(yes), "{yes}");
        }
        for no in [
            "",
            "text/plain",
            "text/plain; charset=application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonp",
            "application/+json",
            "text/json",
            "application",
            "application/json, text/plain",
        ] {
            assert!(!is_json(no), "{no}");
        }
    }
}

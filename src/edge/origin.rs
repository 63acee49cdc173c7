//! The edge's own address as the browser uses it: `127.0.0.1:{port}` or `localhost:{port}`.
//! Both are loopback and both work; cookies are per host, so every URL the edge builds for a
//! browser (the IAM's `redirect_uri`) keeps the host the browser already uses.

use axum::http::{HeaderMap, header};

/// The origin `http://{host}` when the request's Host names the edge itself.
pub fn own_origin(headers: &HeaderMap, edge_port: u16) -> Option<String> {
    let host = headers
        .get(header::HOST)?
        .to_str()
        .ok()?
        .to_ascii_lowercase();
    let (name, port) = host.rsplit_once(':')?;
    let names_edge = matches!(name, "127.0.0.1" | "localhost") && port.parse() == Ok(edge_port);
    names_edge.then(|| format!("http://{host}"))
}

/// The origin used when the Host header does not name the edge (a non-browser client).
pub fn canonical_origin(edge_port: u16) -> String {
    format!("http://127.0.0.1:{edge_port}")
}

/// Whether the request's Origin is exactly the edge's own origin (RFC 6454 §7: browsers send it
/// on every cross-origin or POST request, so a missing one is refused too).
pub fn is_same_origin(headers: &HeaderMap, edge_port: u16) -> Result<(), (String, Option<String>)> {
    let expected = own_origin(headers, edge_port).unwrap_or_else(|| canonical_origin(edge_port));
    let origins: Vec<_> = headers.get_all(header::ORIGIN).iter().collect();
    let got = match origins.as_slice() {
        [one] => one.to_str().ok().map(str::to_string),
        _ => None,
    };
    match &got {
        Some(origin) if own_origin(headers, edge_port).is_some() && *origin == expected => Ok(()),
        _ => Err((expected, got)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(host: &str, origin: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn own_origin_needs_a_loopback_name_and_the_edge_port() {
        assert_eq!(
            own_origin(&headers("localhost:4000", None), 4000).as_deref(),
            Some("http://localhost:4000")
        );
        assert!(own_origin(&headers("127.0.0.1:4001", None), 4000).is_none());
        assert!(own_origin(&headers("evil.example:4000", None), 4000).is_none());
        assert!(own_origin(&headers("127.0.0.1", None), 4000).is_none());
    }

    #[test]
    fn origin_must_match_exactly() {
        let ok = headers("127.0.0.1:4000", Some("http://127.0.0.1:4000"));
        assert!(is_same_origin(&ok, 4000).is_ok());
        for (host, origin) in [
            ("127.0.0.1:4000", None),
            ("127.0.0.1:4000", Some("http://localhost:4000")),
            ("127.0.0.1:4000", Some("http://127.0.0.1:4000/")),
            ("127.0.0.1:4000", Some("null")),
            ("127.0.0.1:4000", Some("https://127.0.0.1:4000")),
            ("evil.example", Some("http://evil.example")),
        ] {
            assert!(
                is_same_origin(&headers(host, origin), 4000).is_err(),
                "{origin:?}"
            );
        }
    }
}

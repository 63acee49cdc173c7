//! URL functions (Trino's UrlFunctions): a URL is read as `java.net.URI` reads it —
//! `[scheme:][//authority][path][?query][#fragment]` (RFC 2396/3986) — and an invalid one
//! (a space, a stray `%`, a character URI forbids) gives NULL. Parts that are absent are the
//! empty string (Trino's `nullToEmpty`), except the port and a parameter, which are NULL.
//! Path, query and fragment are percent-decoded as `URI.getPath()` etc. decode them.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use crate::udf::{FLAGS, define, fail, reserve};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_URL_PROTOCOL: SqliteFn = SqliteFn::new("qm_url_protocol");
pub const QM_URL_HOST: SqliteFn = SqliteFn::new("qm_url_host");
pub const QM_URL_PATH: SqliteFn = SqliteFn::new("qm_url_path");
pub const QM_URL_QUERY: SqliteFn = SqliteFn::new("qm_url_query");
pub const QM_URL_FRAGMENT: SqliteFn = SqliteFn::new("qm_url_fragment");
pub const QM_URL_PORT: SqliteFn = SqliteFn::new("qm_url_port");
pub const QM_URL_PARAMETER: SqliteFn = SqliteFn::new("qm_url_parameter");
pub const QM_URL_ENCODE: SqliteFn = SqliteFn::new("qm_url_encode");
pub const QM_URL_DECODE: SqliteFn = SqliteFn::new("qm_url_decode");

#[derive(Debug, Default, PartialEq)]
struct Url<'a> {
    scheme: Option<&'a str>,
    host: Option<&'a str>,
    port: Option<i64>,
    path: Option<&'a str>,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// Characters java.net.URI refuses anywhere outside an escape (it allows non-ASCII "other"
/// characters, so those pass).
fn forbidden(c: char) -> bool {
    c.is_ascii_control() || " \"<>\\^`{|}".contains(c)
}

fn escapes_are_complete(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    true
}

fn parse(url: &str) -> Option<Url<'_>> {
    if url.chars().any(forbidden) || !escapes_are_complete(url) {
        return None;
    }
    let mut out = Url::default();
    let (rest, fragment) = match url.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (url, None),
    };
    if fragment.is_some_and(|f| f.contains('#')) {
        return None;
    }
    out.fragment = fragment;
    let mut rest = rest;
    if let Some(colon) = rest.find(':') {
        let scheme = &rest[..colon];
        let valid = scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
        if valid {
            out.scheme = Some(scheme);
            rest = &rest[colon + 1..];
            if rest.is_empty() {
                return None;
            }
            // An opaque URI (`mailto:a@b`) has no path or query.
            if !rest.starts_with('/') {
                return Some(out);
            }
        } else if !rest[..colon].contains(['/', '?']) {
            return None;
        }
    }
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    out.query = query;
    let path = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            let authority = &after[..end];
            let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            let (host, port) = match host_port.strip_prefix('[') {
                Some(v6) => {
                    let close = v6.find(']')?;
                    let port = v6[close + 1..].strip_prefix(':');
                    (&host_port[..close + 2], port)
                }
                None => match host_port.rsplit_once(':') {
                    Some((h, p)) => (h, Some(p)),
                    None => (host_port, None),
                },
            };
            // java.net.URI reads an authority it can't read as host and port (a port that is
            // no number, a host that is no ASCII hostname) as a registry name: the URI stands,
            // with neither host nor port (`url_extract_host('http://a.com:badport/')` is '',
            // as is `url_extract_host('http://bücher.example/')`; URI.parseServer).
            let port = match port {
                Some("") | None => Some(None),
                Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => p.parse().ok().map(Some),
                Some(_) => None,
            };
            match port {
                Some(port) if is_hostname(host) => {
                    out.port = port;
                    out.host = Some(host);
                }
                _ => {}
            }
            &after[end..]
        }
        None => rest,
    };
    out.path = Some(path);
    Some(out)
}

/// URI.parseHostname: an IPv6 literal in brackets, or dot-separated labels of ASCII letters,
/// digits and inner hyphens.
fn is_hostname(host: &str) -> bool {
    if host.starts_with('[') {
        return host.ends_with(']');
    }
    let labels = host.strip_suffix('.').unwrap_or(host);
    !labels.is_empty()
        && labels.split('.').all(|label| {
            let bytes = label.as_bytes();
            let edge = |b: Option<&u8>| b.is_some_and(u8::is_ascii_alphanumeric);
            edge(bytes.first())
                && edge(bytes.last())
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        })
}

/// `%XX` escapes decoded as UTF-8 (invalid sequences become U+FFFD, as Java's decoder does).
fn percent_decode(s: &str, plus_is_space: bool) -> Result<String, &'static str> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .ok_or("Incomplete trailing escape (%) pattern")?;
                let text = std::str::from_utf8(hex)
                    .map_err(|_| "Illegal hex characters in escape (%) pattern")?;
                let value = u8::from_str_radix(text, 16)
                    .map_err(|_| "Illegal hex characters in escape (%) pattern")?;
                out.push(value);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Guava's urlFormParameterEscaper: letters, digits and `.-*_` stay, a space is `+`, every
/// other byte of the UTF-8 is `%XX`.
fn form_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'*' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

/// The first query parameter called `name`: its value decoded, "" when it has none, NULL
/// when no parameter has that name.
fn parameter(query: &str, name: &str) -> rusqlite::Result<Option<String>> {
    for pair in query.split('&') {
        let (key, value) = match pair.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (pair, None),
        };
        if key == name {
            return match value {
                Some(v) => percent_decode(v, true).map(Some).map_err(decoder_error),
                None => Ok(Some(String::new())),
            };
        }
    }
    Ok(None)
}

fn decoder_error(what: &str) -> rusqlite::Error {
    fail(
        ErrorName::InvalidFunctionArgument,
        format!("URLDecoder: {what}"),
    )
}

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        _ => None,
    }
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    type Part = fn(&Url<'_>) -> Option<String>;
    let parts: [(&str, Part); 5] = [
        (QM_URL_PROTOCOL.name(), |u| {
            Some(u.scheme.unwrap_or("").to_string())
        }),
        (QM_URL_HOST.name(), |u| {
            Some(u.host.unwrap_or("").to_string())
        }),
        (QM_URL_PATH.name(), |u| {
            percent_decode(u.path.unwrap_or(""), false).ok()
        }),
        (QM_URL_QUERY.name(), |u| {
            percent_decode(u.query.unwrap_or(""), false).ok()
        }),
        (QM_URL_FRAGMENT.name(), |u| {
            percent_decode(u.fragment.unwrap_or(""), false).ok()
        }),
    ];
    for (name, part) in parts {
        define(conn, name, 1, FLAGS, move |ctx| {
            Ok(text(ctx.get_raw(0)).and_then(|s| parse(&s).and_then(|u| part(&u))))
        })?;
    }
    define(conn, QM_URL_PORT.name(), 1, FLAGS, |ctx| {
        Ok(text(ctx.get_raw(0)).and_then(|s| parse(&s).and_then(|u| u.port)))
    })?;
    define(conn, QM_URL_PARAMETER.name(), 2, FLAGS, |ctx| {
        let (Some(url), Some(name)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        match parse(&url).and_then(|u| u.query) {
            Some(query) => parameter(query, &name),
            None => Ok(None),
        }
    })?;
    define(conn, QM_URL_ENCODE.name(), 1, FLAGS, |ctx| {
        let Some(s) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        reserve(s.len().saturating_mul(3))?;
        Ok(Some(form_encode(&s)))
    })?;
    define(conn, QM_URL_DECODE.name(), 1, FLAGS, |ctx| {
        let Some(s) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        percent_decode(&s, true).map(Some).map_err(decoder_error)
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_read_as_java_net_uri_reads_them() {
        let u = parse("http://user@www.example.com:8080/a%20b/c?x=1&y=%41#frag").unwrap();
        assert_eq!(u.scheme, Some("http"));
        assert_eq!(u.host, Some("www.example.com"));
        assert_eq!(u.port, Some(8080));
        assert_eq!(u.path, Some("/a%20b/c"));
        assert_eq!(u.query, Some("x=1&y=%41"));
        assert_eq!(u.fragment, Some("frag"));
        assert_eq!(parse("http://[::1]:80/").unwrap().host, Some("[::1]"));
        for invalid in ["http://a b/", "http://x/%zz", "http://x/%4", "a#b#c", ":x"] {
            assert_eq!(parse(invalid), None, "{invalid}");
        }
        let opaque = parse("mailto:someone@example.com").unwrap();
        assert_eq!((opaque.path, opaque.query), (None, None));
        assert_eq!(parse("/just/a/path").unwrap().path, Some("/just/a/path"));
    }

    #[test]
    fn an_authority_that_is_no_host_and_port_is_a_registry_name() {
        // Trino 476: url_extract_host is '' and url_extract_port NULL for these; the path
        // stays ('/x').
        for url in [
            "http://a.com:badport/x",
            "http://bücher.example:8080/x",
            "http://a_b.com:80/x",
            "http://-a.com/x",
            "http://a-.com/x",
        ] {
            let u = parse(url).unwrap();
            assert_eq!((u.host, u.port, u.path), (None, None, Some("/x")), "{url}");
        }
        assert_eq!(parse("http://a.com:/").unwrap().host, Some("a.com"));
        assert_eq!(parse("http://1.2.3.4:5/").unwrap().port, Some(5));
    }

    #[test]
    fn encoding_is_guavas_form_parameter_escaping() {
        assert_eq!(form_encode("a b*c~é"), "a+b*c%7E%C3%A9");
        assert_eq!(percent_decode("a+b%2Ac%7E%C3%A9", true).unwrap(), "a b*c~é");
        assert!(percent_decode("%zz", true).is_err());
        assert!(percent_decode("%4", true).is_err());
    }
}

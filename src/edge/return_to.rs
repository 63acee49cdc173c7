//! `return_to`: where the callback sends the browser after sign-in.
//!
//! The spec accepts only a path of the edge's own address ("starts with /, not with //"). A
//! browser is more lenient than that rule reads: it drops tabs and newlines anywhere in a URL
//! and treats `\` like `/` (WHATWG URL, "special" schemes), so `/\evil.example` and
//! `/\t/evil.example` both mean `//evil.example`. Anything doubtful becomes `/`.

/// Where the browser goes when `return_to` is absent or refused.
pub const DEFAULT_RETURN_TO: &str = "/";

/// The accepted local path, or `/`.
pub fn sanitize(raw: Option<&str>) -> String {
    match raw {
        Some(path)
            if is_local_path(path)
                && is_local_path(&percent_decode(path))
                && is_local_path(&without_dot_segments(&percent_decode(path))) =>
        {
            path.to_string()
        }
        _ => DEFAULT_RETURN_TO.to_string(),
    }
}

/// A path on this origin: starts with exactly one `/`, no backslash, no control characters
/// (so no scheme, no host, nothing a browser would strip and reinterpret).
fn is_local_path(path: &str) -> bool {
    path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && !path.chars().any(char::is_control)
}

/// The path part (before `?` or `#`) with its dot segments resolved as a browser resolves them
/// (RFC 3986 §5.2.4; WHATWG URL reads `%2e%2e` as `..` too, hence the decoded input): so
/// `/../..//evil.example` is seen as the `//evil.example` it becomes. Empty segments stay.
fn without_dot_segments(path: &str) -> String {
    let end = path.find(['?', '#']).unwrap_or(path.len());
    let mut segments: Vec<&str> = Vec::new();
    for segment in path[..end].split('/').skip(1) {
        match segment {
            "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    format!("/{}", segments.join("/"))
}

/// One round of `%XX` decoding; invalid escapes stay as they are. Checking the decoded form
/// too refuses `%2F%2Fevil.example` whichever layer happens to decode it.
pub(super) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `path` as a `Location` value: every byte outside visible ASCII is percent-encoded, so a
/// decoded space or non-ASCII character cannot make the header invalid.
pub fn location(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if (0x21..=0x7e).contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_paths_are_kept() {
        for path in [
            "/",
            "/reports?year=2024#top",
            "/a/b/../c",
            "/%E2%9C%93",
            "/a//b",
            "/a/./b/../c?next=//x#//y",
        ] {
            assert_eq!(sanitize(Some(path)), path);
        }
    }

    #[test]
    fn everything_else_becomes_root() {
        for bad in [
            "",
            "//evil.example",
            "/\\evil.example",
            "\\\\evil.example",
            "%2F%2Fevil.example",
            "/%2F/evil.example",
            "/%5Cevil.example",
            "https://evil.example",
            "http:/evil.example",
            "javascript:alert(1)",
            "evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/%09/evil.example",
            "/ok\u{0}",
            "/ok\u{85}",
            "/../..//evil.example",
            "/%2e%2e/%2e%2e//evil.example",
            "/.//evil.example",
            "/a/..//evil.example?x#y",
        ] {
            assert_eq!(sanitize(Some(bad)), "/", "{bad:?}");
        }
        assert_eq!(sanitize(None), "/");
    }

    #[test]
    fn location_encodes_what_a_header_cannot_carry() {
        assert_eq!(location("/my page/é"), "/my%20page/%C3%A9");
        assert_eq!(location("/a?b=c&d"), "/a?b=c&d");
    }
}

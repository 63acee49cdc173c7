//! `return_to`: where the callback sends the browser after sign-in.
//!
//! The spec accepts only a path of the edge's own address ("starts with /, not with //"). A
//! browser is more lenient than that rule reads: it drops tabs and newlines anywhere in a URL
//! and treats `\` like `/` (WHATWG URL, "special" schemes), so `/\evil.example` and
//! `/\t/evil.example` both mean `//evil.example`. Anything doubtful becomes `/`.

/// Where the browser goes when `return_to` is absent or refused.
pub const DEFAULT_RETURN_TO: &str = "/";

/// Rounds of percent-decoding looked through; a path still encoded past them is refused
/// (and the work per path stays linear).
const MAX_DECODINGS: usize = 4;

/// The accepted local path, or `/`.
pub fn sanitize(raw: Option<&str>) -> String {
    match raw {
        Some(path) if stays_local(path) => path.to_string(),
        _ => DEFAULT_RETURN_TO.to_string(),
    }
}

/// Local as given and after every round of decoding some layer might apply, until nothing
/// changes: `/%252F%252Fevil.example` is `//evil.example` to whatever decodes it twice.
fn stays_local(path: &str) -> bool {
    let mut form = path.to_string();
    for _ in 0..=MAX_DECODINGS {
        if !is_local_path(&form) || !is_local_path(&without_dot_segments(&form)) {
            return false;
        }
        let decoded = percent_decode(&form);
        if decoded == form {
            return true;
        }
        form = decoded;
    }
    false
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
    use proptest::prelude::*;
    use reqwest::Url;

    use super::*;
    use crate::test_support::proptest_config;

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
            "/%252F%252Fevil.example",
            "/%25252F/evil.example",
            "/%2525252525252F",
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

    /// Pieces that make browsers and servers disagree about where a path goes.
    fn tricky_path() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "/",
            "//",
            "\\",
            "%2F",
            "%2f",
            "%5C",
            "%5c",
            "\t",
            "\n",
            "\r",
            "%09",
            "%0A",
            ".",
            "..",
            "%2e",
            "%2E%2E",
            "./",
            "../",
            "evil.example",
            "x",
            "http:",
            "javascript:",
            "?",
            "#",
            "@",
            ":",
            " ",
            "\u{0}",
            "%252F",
            "%25",
            "%",
            "\u{85}",
            "é",
            ";",
            "&",
        ]);
        prop::collection::vec(piece, 1..10).prop_map(|pieces| pieces.concat())
    }

    /// Where a browser goes for `path` on this origin: `Location` resolved as WHATWG URL does
    /// (tabs and newlines dropped, `\` as `/`, dot segments, `%2e`).
    fn host_after(path: &str) -> Option<String> {
        let base = Url::parse("http://edge.example/page").ok()?;
        base.join(path).ok()?.host_str().map(str::to_string)
    }

    proptest! {
        #![proptest_config(proptest_config(1024))]

        /// Whatever comes in, what goes out stays on this origin: as the `Location` the
        /// callback sends, and however many times layers decode it.
        #[test]
        fn accepted_return_to_is_always_a_local_path(
            raw in prop_oneof![any::<String>(), tricky_path(), "/[ -~]{0,16}"],
        ) {
            let kept = sanitize(Some(&raw));
            prop_assert!(kept == raw || kept == DEFAULT_RETURN_TO);
            prop_assert!(kept.starts_with('/') && !kept.starts_with("//"));
            let mut form = kept;
            for _ in 0..8 {
                let host = host_after(&location(&form));
                prop_assert_eq!(host.as_deref(), Some("edge.example"), "{:?} as {:?}", raw, form);
                form = percent_decode(&form);
            }
        }
    }
}

//! Which request paths belong to the platform: everything under `/.nnumbers/`.
//!
//! Two questions, two answers:
//!
//! - **Which platform path is this?** The path's RFC 3986 §6.2.2 normal form decides
//!   ([`normalise`]): escapes of unreserved characters decoded, dot segments removed. Those
//!   spellings are the same URI (RFC 3986 §6.2.2.2, RFC 9110 §4.2.3), so
//!   `/.%6Enumbers/v1/context` is served as `/.nnumbers/v1/context` — as nginx or Envoy
//!   with path normalisation would — and [`normalise_request`] rewrites it before routing.
//! - **May the app see it?** Not if any reading an app server might make of it lands under
//!   the prefix ([`is_reserved`]): besides the normal form, every combination of decoding
//!   every escape (`%2F` too), reading `\` as `/`, dropping `;` path parameters (servlet
//!   containers) and merging slashes, the last two before or after dot segments, in any
//!   letter case. Those spellings are not the platform's URIs, so the edge answers 404 for
//!   them; none reaches the app. (Decoding twice is not a reading: `%252E` stays the app's.)

use axum::extract::Request;
use axum::http::Uri;
use axum::http::uri::PathAndQuery;

pub use crate::reserved_paths::RESERVED_PREFIX;

/// The path's RFC 3986 §6.2.2 normal form: escapes in upper-case hex (§6.2.2.1), escapes of
/// unreserved characters decoded (§6.2.2.2), then dot segments removed (§6.2.2.3, by §5.2.4).
/// Other escapes (`%2F`, `%3B`, `%25`…) stay: decoding them would change the path's meaning.
pub fn normalise(path: &str) -> String {
    remove_dot_segments(&normalise_escapes(path))
}

/// Whether `path` is one of the platform's URIs: its normal form is the prefix or under it.
pub fn is_platform_path(path: &str) -> bool {
    under_prefix(&normalise(path))
}

/// Whether `path` must stay away from the app: some reading of it is under the prefix.
pub fn is_reserved(path: &str) -> bool {
    if is_plain(path) {
        return false;
    }
    is_platform_path(path) || LenientReading::all().any(|reading| reading.is_reserved(path))
}

/// A path that every reading leaves as it is, and whose first segment is not the prefix's:
/// no escape to decode, no `\`, no `;` parameter, no empty segment to merge but a last one,
/// and no segment starting with `.` (so no dot segment, no `.nnumbers` in any case). Most
/// paths an app gets are such; the 36 readings of [`is_reserved`] then all answer "no", and
/// the edge skips their allocations on every request.
pub(super) fn is_plain(path: &str) -> bool {
    path.starts_with('/')
        && !path.bytes().any(|b| matches!(b, b'%' | b'\\' | b';'))
        && !path.contains("/.")
        && !path.contains("//")
}

/// Routing sees a platform path in its normal form, so every equivalent spelling of a known
/// path is served as that path. Any other request goes on untouched, to the app unless
/// [`is_reserved`] stops it.
pub async fn normalise_request(mut request: Request) -> Request {
    let path = request.uri().path();
    if is_plain(path) {
        // Its own normal form, and not a platform path.
        return request;
    }
    let normal = normalise(path);
    if normal == path || !under_prefix(&normal) {
        return request;
    }
    let path_and_query = match request.uri().query() {
        Some(query) => format!("{normal}?{query}"),
        None => normal,
    };
    let mut parts = request.uri().clone().into_parts();
    // The normal form holds only characters of the original path, so it always parses;
    // if it did not, the lenient check would still keep the request from the app.
    if let Ok(path_and_query) = PathAndQuery::try_from(path_and_query) {
        parts.path_and_query = Some(path_and_query);
        if let Ok(uri) = Uri::from_parts(parts) {
            *request.uri_mut() = uri;
        }
    }
    request
}

/// `/.nnumbers` or `/.nnumbers/…`, exactly.
fn under_prefix(path: &str) -> bool {
    path.strip_prefix(RESERVED_PREFIX)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

fn hex_value(byte: u8) -> Option<u8> {
    char::from(byte)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

/// The byte `%XY` at `bytes[i..]` stands for, when it is a valid escape.
fn escape_at(bytes: &[u8], i: usize) -> Option<u8> {
    match bytes.get(i..i + 3)? {
        [b'%', hi, lo] => Some(hex_value(*hi)? << 4 | hex_value(*lo)?),
        _ => None,
    }
}

/// RFC 3986 §6.2.2.1 and §6.2.2.2; an invalid escape stays as it is.
fn normalise_escapes(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    let mut i = 0;
    while i < bytes.len() {
        if let Some(byte) = escape_at(bytes, i) {
            if is_unreserved(byte) {
                out.push(char::from(byte));
            } else {
                out.push_str(&format!("%{byte:02X}"));
            }
            i += 3;
        } else {
            let len = path[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&path[i..i + len]);
            i += len;
        }
    }
    out
}

/// RFC 3986 §5.2.4, step by step.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut output = String::with_capacity(path.len());
    let drop_last_segment = |output: &mut String| {
        let cut = output.rfind('/').unwrap_or(0);
        output.truncate(cut);
    };
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            input = rest; // A
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest; // A
        } else if input.starts_with("/./") {
            input = &input[2..]; // B
        } else if input == "/." {
            input = "/"; // B
        } else if input.starts_with("/../") {
            input = &input[3..]; // C
            drop_last_segment(&mut output);
        } else if input == "/.." {
            input = "/"; // C
            drop_last_segment(&mut output);
        } else if input == "." || input == ".." {
            input = ""; // D
        } else {
            // E: the first segment, with its leading `/`, up to the next `/`.
            let start = usize::from(input.starts_with('/'));
            let end = input[start..].find('/').map_or(input.len(), |i| i + start);
            output.push_str(&input[..end]);
            input = &input[end..];
        }
    }
    output
}

/// One way an app server might read a path more leniently than RFC 3986 does.
struct LenientReading {
    /// Decode every escape once, `%2F` and `%5C` included.
    decode_all: bool,
    /// `\` is `/` (WHATWG URL for special schemes; IIS, some proxies).
    backslash_is_slash: bool,
    /// A segment's `;` parameters are dropped (servlet containers: before dot segments, so
    /// `..;x` is `..`).
    drop_parameters: Step,
    /// Empty segments are merged (`merge_slashes`), `//.nnumbers` read as `/.nnumbers`.
    merge_slashes: Step,
}

/// When a lenient step happens, relative to removing dot segments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Never,
    BeforeDots,
    AfterDots,
}

impl LenientReading {
    /// Every combination: a server may apply any subset of these, in either order.
    fn all() -> impl Iterator<Item = Self> {
        const STEPS: [Step; 3] = [Step::Never, Step::BeforeDots, Step::AfterDots];
        (0..36usize).map(|n| Self {
            decode_all: n & 1 != 0,
            backslash_is_slash: n & 2 != 0,
            drop_parameters: STEPS[n / 4 % 3],
            merge_slashes: STEPS[n / 12],
        })
    }

    /// Whether the first segment of this reading is the prefix's, in any letter case.
    fn is_reserved(&self, path: &str) -> bool {
        let without_parameters = |segment: &str| {
            let end = segment.find(';').unwrap_or(segment.len());
            segment[..end].to_string()
        };
        let mut text = if self.decode_all {
            super::return_to::percent_decode(path)
        } else {
            normalise_escapes(path)
        };
        if self.backslash_is_slash {
            text = text.replace('\\', "/");
        }
        let mut segments: Vec<String> = Vec::new();
        for segment in text.strip_prefix('/').unwrap_or(&text).split('/') {
            let segment = match self.drop_parameters {
                Step::BeforeDots => without_parameters(segment),
                _ => segment.to_string(),
            };
            match segment.as_str() {
                "" if self.merge_slashes == Step::BeforeDots => {}
                "." => {}
                ".." => {
                    segments.pop();
                }
                _ => segments.push(segment),
            }
        }
        if self.drop_parameters == Step::AfterDots {
            segments = segments.iter().map(|s| without_parameters(s)).collect();
        }
        if self.merge_slashes == Step::AfterDots {
            segments.retain(|s| !s.is_empty());
        }
        segments
            .first()
            .is_some_and(|first| first.eq_ignore_ascii_case(&RESERVED_PREFIX[1..]))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::test_support::proptest_config;

    #[test]
    fn every_spelling_of_the_prefix_is_reserved() {
        for path in [
            "/.nnumbers",
            "/.nnumbers/",
            "/.nnumbers/nope",
            "/.NNumbers/auth/session",
            "/%2Ennumbers/x",
            "//.nnumbers/x",
            "/a/../.nnumbers/x",
            "/./.nnumbers",
            "/\\.nnumbers/x",
            "/.nnumbers;x/auth/session",
            "/a/..;/.nnumbers/x",
            "/a/..;v=1/.nnumbers",
            "/.%6enumbers/v1/context",
            "/.nnumbers%2Fv1/context",
            "/.nnumbers%5Cv1/context",
            // `%2F` is not decoded by the normal form, so `..` takes `a%2Fb` away...
            "/a%2Fb/../.nnumbers/v1/context",
            // ...and a server that does not read `\` as `/` does the same with `a\b`.
            "/a\\b/../.nnumbers/v1/context",
            "/a;x/b/../../.nnumbers",
            // Parameters or empty segments dropped only after the dot segments are removed.
            "/.nnumbers;x/..;",
            "//.nnumbers//..",
            "/.nnumbers%2F/..",
        ] {
            assert!(is_reserved(path), "{path}");
        }
    }

    #[test]
    fn app_paths_are_not() {
        for path in [
            "/",
            "/nnumbers",
            "/.nnumbersx/a",
            "/a/.nnumbers",
            "/.well-known/x",
            "/a;v=1/.nnumbers",
            "/.nnumbersx;y",
            "/%252Ennumbers/x",
        ] {
            assert!(!is_reserved(path), "{path}");
        }
    }

    #[test]
    fn the_normal_form_is_rfc_3986_section_6_2_2() {
        for (path, normal) in [
            ("/.%6enumbers/v1/context", "/.nnumbers/v1/context"),
            ("/%2E%6E%6E%75%6D%62%65%72%73/v1", "/.nnumbers/v1"),
            ("/a/%2e%2E/.nnumbers", "/.nnumbers"),
            ("/%7e%5f%2d%41%7A%30", "/~_-Az0"),
            ("/a%2fb%3b%25", "/a%2Fb%3B%25"),
            ("/%zz/%4", "/%zz/%4"),
            ("/é%C3%A9", "/é%C3%A9"),
            // RFC 3986 §5.2.4's own examples.
            ("/a/b/c/./../../g", "/a/g"),
            ("mid/content=5/../6", "mid/6"),
            ("/..", "/"),
            ("/a/..", "/"),
            ("/a/.", "/a/"),
            ("", ""),
        ] {
            assert_eq!(normalise(path), normal, "{path}");
        }
    }

    #[test]
    fn only_the_normal_form_names_a_platform_path() {
        assert!(is_platform_path("/.%6Enumbers/v1/context"));
        assert!(is_platform_path("/x/../.nnumbers"));
        for other in [
            "/.NNumbers/v1",
            "/.nnumbers%2Fv1",
            "//.nnumbers",
            "/.nnumbers;x",
        ] {
            assert!(!is_platform_path(other), "{other}");
            assert!(is_reserved(other), "{other}");
        }
    }

    /// `.nnumbers` with each character percent-encoded or not, in either hex case.
    fn prefix_spelling() -> impl Strategy<Value = String> {
        prop::collection::vec((any::<bool>(), any::<bool>()), 9).prop_map(|choices| {
            ".nnumbers"
                .bytes()
                .zip(choices)
                .map(|(c, (encode, upper))| match (encode, upper) {
                    (false, _) => char::from(c).to_string(),
                    (true, true) => format!("%{c:02X}"),
                    (true, false) => format!("%{c:02x}"),
                })
                .collect()
        })
    }

    fn tricky_path() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            3 => prefix_spelling(),
            6 => prop::sample::select(vec![
                "/", "//", ".", "..", "%2e", "%2E%2e", "a", "a%2Fb", "%2F", "%2f", "%5C", "\\",
                ";x", "..;", "v1", "context", "%7E", "~", "%41", ".NNumbers", "%25", "%", "é",
            ])
            .prop_map(str::to_string),
        ];
        prop::collection::vec(piece, 1..10).prop_map(|pieces| format!("/{}", pieces.concat()))
    }

    /// RFC 3986 §6.2.2 written another way: unreserved escapes decoded, then dot segments
    /// resolved on a stack of segments.
    fn reference_normal(path: &str) -> String {
        let mut decoded = String::new();
        let mut rest = path;
        while let Some(at) = rest.find('%') {
            decoded.push_str(&rest[..at]);
            let escape = rest
                .get(at + 1..at + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match escape.filter(|_| rest[at + 1..at + 3].bytes().all(|b| b.is_ascii_hexdigit())) {
                Some(b) if b.is_ascii_alphanumeric() || b"-._~".contains(&b) => {
                    decoded.push(char::from(b));
                    rest = &rest[at + 3..];
                }
                Some(b) => {
                    decoded.push_str(&format!("%{b:02X}"));
                    rest = &rest[at + 3..];
                }
                None => {
                    decoded.push('%');
                    rest = &rest[at + 1..];
                }
            }
        }
        decoded.push_str(rest);
        let mut segments: Vec<&str> = Vec::new();
        let parts: Vec<&str> = decoded.split('/').skip(1).collect();
        for (i, segment) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            match *segment {
                "." | ".." => {
                    if *segment == ".." {
                        segments.pop();
                    }
                    if last {
                        segments.push("");
                    }
                }
                s => segments.push(s),
            }
        }
        format!("/{}", segments.join("/"))
    }

    proptest! {
        #![proptest_config(proptest_config(2048))]

        /// The shortcut of [`is_reserved`] and [`normalise_request`] for plain paths answers
        /// what the full normal form and the 36 readings answer.
        #[test]
        fn a_plain_path_is_its_own_normal_form_and_never_reserved(
            path in prop_oneof![
                tricky_path(),
                "/[a-zA-Z0-9._~;%\\\\/-]{0,24}",
                "/[a-zA-Z/.]{0,12}",
            ]
        ) {
            if is_plain(&path) {
                prop_assert_eq!(normalise(&path), path.clone());
                prop_assert!(!is_platform_path(&path), "{}", path);
                prop_assert!(
                    !LenientReading::all().any(|reading| reading.is_reserved(&path)),
                    "{}",
                    path
                );
            }
        }

        #[test]
        fn any_text_is_classified_without_panicking(path in any::<String>()) {
            let normal = normalise(&path);
            prop_assert_eq!(normalise(&normal), normal.clone(), "idempotent");
            if is_platform_path(&path) {
                prop_assert!(is_reserved(&path));
            }
        }

        /// Every path whose RFC 3986 normal form is under the prefix is the platform's, and so
        /// is every path an app server reading it most leniently would put there.
        #[test]
        fn the_normal_form_and_every_lenient_reading_decide(path in tricky_path()) {
            let normal = reference_normal(&path);
            prop_assert_eq!(normalise(&path), normal.clone());
            let reserved = is_reserved(&path);
            if normal == RESERVED_PREFIX || normal.starts_with(&format!("{RESERVED_PREFIX}/")) {
                prop_assert!(is_platform_path(&path) && reserved, "{}", path);
            }
            let lenient = reference_normal(
                &super::super::return_to::percent_decode(&path).replace('\\', "/"),
            )
            .to_ascii_lowercase();
            let lenient: Vec<&str> = lenient
                .split('/')
                .map(|s| s.split(';').next().unwrap_or_default())
                .filter(|s| !s.is_empty())
                .collect();
            if lenient.first() == Some(&".nnumbers") {
                prop_assert!(reserved, "{} reads as {:?}", path, lenient);
            }
        }
    }
}

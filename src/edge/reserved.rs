//! Which request paths belong to the platform: everything under `/.nnumbers/`.
//!
//! The check runs on the path as the app would understand it — percent-decoded, `\` read as
//! `/`, dot segments removed (RFC 3986 §5.2.4), `;` path parameters dropped (RFC 3986 §3.3,
//! as servlet containers do), any letter case — so no spelling of a reserved path slips past
//! the edge to the app.

/// The platform's prefix on the app's address.
pub const RESERVED_PREFIX: &str = "/.nnumbers";

pub fn is_reserved(path: &str) -> bool {
    let decoded = super::return_to::percent_decode(path).replace('\\', "/");
    let mut segments: Vec<&str> = Vec::new();
    for segment in decoded.split('/') {
        // Servlet containers drop a segment's `;` parameters and read `..;x` as `..`.
        let segment = segment.split(';').next().unwrap_or_default();
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    segments
        .first()
        .is_some_and(|first| first.eq_ignore_ascii_case(&RESERVED_PREFIX[1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ] {
            assert!(!is_reserved(path), "{path}");
        }
    }
}

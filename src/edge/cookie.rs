//! The platform session cookie: an opaque handle (never the sid), HttpOnly so page scripts
//! cannot read it, SameSite=Lax so it rides top-level navigations back from the IAM but not
//! cross-site subrequests (RFC 6265bis §5.4.7).

use axum::http::{HeaderMap, HeaderValue, header};

/// The cookie's name; the `__` prefix keeps it apart from an app's own cookies.
pub const SESSION_COOKIE: &str = "__nnumbers_session";

/// Every value the request's Cookie headers give [`SESSION_COOKIE`] (a browser may send more
/// than one, e.g. from different paths).
pub fn session_handles(headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.trim_matches('"').to_string())
        .collect()
}

/// The Cookie headers minus the platform's cookie: what the app receives. A header left empty
/// is dropped.
pub fn without_session_cookie(headers: &mut HeaderMap) {
    let kept: Vec<HeaderValue> = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| {
            let text = v.to_str().ok()?;
            let others: Vec<&str> = text
                .split(';')
                .map(str::trim)
                .filter(|pair| !pair.is_empty())
                .filter(|pair| pair.split('=').next().map(str::trim) != Some(SESSION_COOKIE))
                .collect();
            if others.is_empty() {
                None
            } else {
                HeaderValue::from_str(&others.join("; ")).ok()
            }
        })
        .collect();
    headers.remove(header::COOKIE);
    for value in kept {
        headers.append(header::COOKIE, value);
    }
}

/// Sets the cookie to `handle` for the whole edge, for the browser's session.
pub fn set(handle: &str) -> HeaderValue {
    // The handle is base64url: always a valid header value.
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={handle}; Path=/; HttpOnly; SameSite=Lax"
    ))
    .unwrap_or_else(|_| clear())
}

/// Removes the cookie from the browser.
pub fn clear() -> HeaderValue {
    HeaderValue::from_static("__nnumbers_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// Whether a `Set-Cookie` from the app would overwrite the platform's cookie.
pub fn sets_session_cookie(set_cookie: &HeaderValue) -> bool {
    set_cookie
        .to_str()
        .ok()
        .and_then(|v| v.split('=').next())
        .is_some_and(|name| name.trim() == SESSION_COOKIE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_platform_cookie_is_removed() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_static("a=1; __nnumbers_session=secret; b=2"),
        );
        h.append(
            header::COOKIE,
            HeaderValue::from_static("__nnumbers_session=x"),
        );
        assert_eq!(session_handles(&h), ["secret", "x"]);
        without_session_cookie(&mut h);
        let left: Vec<_> = h.get_all(header::COOKIE).iter().collect();
        assert_eq!(left, [HeaderValue::from_static("a=1; b=2")]);
    }

    #[test]
    fn a_similar_name_is_not_the_platform_cookie() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_static("__nnumbers_session_x=1"),
        );
        assert!(session_handles(&h).is_empty());
        without_session_cookie(&mut h);
        assert_eq!(h.get(header::COOKIE).unwrap(), "__nnumbers_session_x=1");
    }

    #[test]
    fn the_cookie_attributes() {
        let v = set("abc");
        let v = v.to_str().unwrap();
        assert!(v.starts_with("__nnumbers_session=abc;"));
        assert!(v.contains("HttpOnly") && v.contains("SameSite=Lax") && v.contains("Path=/"));
    }
}

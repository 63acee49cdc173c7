//! The platform session cookie: an opaque handle (never the sid), HttpOnly so page scripts
//! cannot read it, SameSite=Lax so it rides top-level navigations back from the IAM but not
//! cross-site subrequests (RFC 6265bis §5.4.7).

use axum::http::{HeaderMap, HeaderValue, header};

use crate::reserved_paths::AUTH_PREFIX;

/// The cookie's name; the `__` prefix keeps it apart from an app's own cookies.
pub const SESSION_COOKIE: &str = "__nnumbers_session";

/// Binds each sign-in to the browser that started it (see [`super::pending::PendingLogin`]);
/// only the sign-in paths see it.
pub const LOGIN_COOKIE: &str = "__nnumbers_login";

/// The IAM's cookies (Keycloak's names). Cookies ignore ports, so the ones the IAM sets for
/// `/realms/{slug}/` reach the edge's host too; they are the platform's, never the app's.
const IAM_COOKIES: [&str; 7] = [
    "KEYCLOAK_IDENTITY",
    "KEYCLOAK_IDENTITY_LEGACY",
    "KEYCLOAK_SESSION",
    "KEYCLOAK_SESSION_LEGACY",
    "AUTH_SESSION_ID",
    "AUTH_SESSION_ID_LEGACY",
    "KC_RESTART",
];

/// The `name=value` pairs of every Cookie header, as bytes: browsers send what a page stored
/// in `document.cookie` as UTF-8, which `HeaderValue::to_str` (visible ASCII only) refuses.
fn cookie_pairs(headers: &HeaderMap) -> impl Iterator<Item = &[u8]> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b';'))
        .map(<[u8]>::trim_ascii)
        .filter(|pair| !pair.is_empty())
}

/// A pair's name, without surrounding spaces.
fn pair_name(pair: &[u8]) -> &[u8] {
    pair.split(|&b| b == b'=')
        .next()
        .unwrap_or_default()
        .trim_ascii()
}

/// Every value the request's Cookie headers give [`SESSION_COOKIE`] (a browser may send more
/// than one, e.g. from different paths).
pub fn session_handles(headers: &HeaderMap) -> Vec<String> {
    values_of(headers, SESSION_COOKIE)
}

/// [`session_handles`] without a copy: the edge reads them on every request.
pub fn session_handles_in(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    borrowed_values_of(headers, SESSION_COOKIE)
}

/// Every value the request gives [`LOGIN_COOKIE`].
pub fn login_bindings(headers: &HeaderMap) -> Vec<String> {
    values_of(headers, LOGIN_COOKIE)
}

fn values_of(headers: &HeaderMap, name: &str) -> Vec<String> {
    borrowed_values_of(headers, name)
        .map(str::to_string)
        .collect()
}

fn borrowed_values_of<'h>(headers: &'h HeaderMap, name: &str) -> impl Iterator<Item = &'h str> {
    cookie_pairs(headers)
        .filter(move |pair| pair_name(pair) == name.as_bytes())
        .filter_map(|pair| {
            let value = pair.splitn(2, |&b| b == b'=').nth(1)?.trim_ascii();
            let value = std::str::from_utf8(value).ok()?;
            Some(value.trim_matches('"'))
        })
}

/// Whether a cookie of this name belongs to the platform (the edge's session, the IAM's SSO).
fn is_platform_cookie(name: &[u8]) -> bool {
    name == SESSION_COOKIE.as_bytes()
        || name == LOGIN_COOKIE.as_bytes()
        || IAM_COOKIES.iter().any(|c| name == c.as_bytes())
}

/// The Cookie headers minus the platform's cookies: what the app receives, every other byte
/// of its own cookies intact. A header left empty is dropped. Headers without a platform
/// cookie are left as they came, unread twice and uncopied.
pub fn without_platform_cookies(headers: &mut HeaderMap) {
    if !cookie_pairs(headers).any(|pair| is_platform_cookie(pair_name(pair))) {
        return;
    }
    let kept: Vec<HeaderValue> = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| {
            let others: Vec<&[u8]> = v
                .as_bytes()
                .split(|&b| b == b';')
                .map(<[u8]>::trim_ascii)
                .filter(|pair| !pair.is_empty() && !is_platform_cookie(pair_name(pair)))
                .collect();
            if others.is_empty() {
                None
            } else {
                HeaderValue::from_bytes(&others.join(&b"; "[..])).ok()
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

/// Sets the login cookie to `binding` (base64url, so always a valid value) for the sign-in
/// paths, for as long as a sign-in may take.
pub fn set_login(binding: &str) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{LOGIN_COOKIE}={binding}; Path={AUTH_PREFIX}; HttpOnly; SameSite=Lax; Max-Age=600"
    ))
    .or_else(|_| HeaderValue::from_str(&format!("{LOGIN_COOKIE}=; Path={AUTH_PREFIX}; Max-Age=0")))
    .unwrap_or_else(|_| clear())
}

/// Removes the cookie from the browser.
pub fn clear() -> HeaderValue {
    HeaderValue::from_static("__nnumbers_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// Whether a `Set-Cookie` from the app would overwrite one of the platform's cookies: the
/// session, the login binding, or the IAM's (same host: cookies ignore ports).
pub fn sets_platform_cookie(set_cookie: &HeaderValue) -> bool {
    is_platform_cookie(pair_name(
        set_cookie
            .as_bytes()
            .split(|&b| b == b';')
            .next()
            .unwrap_or_default(),
    ))
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
        without_platform_cookies(&mut h);
        let left: Vec<_> = h.get_all(header::COOKIE).iter().collect();
        assert_eq!(left, [HeaderValue::from_static("a=1; b=2")]);
    }

    #[test]
    fn utf8_and_latin1_cookies_are_kept_byte_for_byte() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_bytes(b"name=Andr\xc3\xa9; __nnumbers_session=s; old=\xe9t\xe9")
                .unwrap(),
        );
        assert_eq!(session_handles(&h), ["s"]);
        without_platform_cookies(&mut h);
        assert_eq!(
            h.get(header::COOKIE).unwrap().as_bytes(),
            b"name=Andr\xc3\xa9; old=\xe9t\xe9"
        );
    }

    #[test]
    fn the_iams_cookies_are_the_platforms() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_static("KEYCLOAK_IDENTITY=x; a=1; KEYCLOAK_SESSION=y"),
        );
        without_platform_cookies(&mut h);
        assert_eq!(h.get(header::COOKIE).unwrap(), "a=1");
    }

    #[test]
    fn a_similar_name_is_not_the_platform_cookie() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_static("__nnumbers_session_x=1"),
        );
        assert!(session_handles(&h).is_empty());
        without_platform_cookies(&mut h);
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

//! What the edge forwards to the app: the forwarded headers, never the platform's cookie.

use serde_json::Value;

use super::{echoed, echoed_bytes};
use crate::support::echo_app::header_values;
use crate::support::{self, client, edge, sign_in, start_with_echo};

#[tokio::test]
async fn the_app_gets_forwarded_headers_and_never_the_platform_cookie() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let cookie = format!("theme=dark; {}; cart=3", ada.cookie);
    let echo = echoed(
        &sandbox,
        "/page?q=1",
        Some(&cookie),
        &[("X-Forwarded-For", "6.6.6.6"), ("Forwarded", "for=6.6.6.6")],
    )
    .await;
    assert_eq!(echo["path"], "/page?q=1");
    assert_eq!(header_values(&echo, "cookie"), ["theme=dark; cart=3"]);
    assert_eq!(header_values(&echo, "x-forwarded-for"), ["127.0.0.1"]);
    assert_eq!(header_values(&echo, "x-forwarded-proto"), ["http"]);
    assert_eq!(
        header_values(&echo, "x-forwarded-host"),
        [sandbox.endpoints().edge.to_string()]
    );
    assert!(header_values(&echo, "forwarded").is_empty());

    // Only the platform cookie: the app gets no Cookie header at all.
    let echo = echoed(&sandbox, "/", Some(&ada.cookie), &[]).await;
    assert!(header_values(&echo, "cookie").is_empty());

    // The app cannot overwrite the platform cookie either.
    let response = client()
        .get(edge(&sandbox, "/set-cookie"))
        .send()
        .await
        .unwrap();
    assert_eq!(support::cookie_pairs(&response), "app_pref=dark");
}

#[tokio::test]
async fn a_non_ascii_cookie_keeps_the_others_and_the_session() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = support::sign_in(&sandbox, "ada").await;
    // Browsers send what `document.cookie` stored as UTF-8 bytes.
    let cookie = format!("theme=dark; name=André; {}; cart=3", ada.cookie);
    let echo = echoed_bytes(&sandbox, "/page", &[("cookie", cookie.as_bytes())]).await;
    assert_eq!(
        header_values(&echo, "cookie"),
        ["theme=dark; name=André; cart=3"]
    );
    assert_eq!(
        header_values(&echo, "x-nnumbers-identity"),
        [ada.identity(&sandbox)],
        "the person stays signed in"
    );

    let session: Value = client()
        .get(edge(&sandbox, "/.nnumbers/auth/session"))
        .header(
            "cookie",
            reqwest::header::HeaderValue::from_bytes(cookie.as_bytes()).unwrap(),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(session["user"]["sub"], ada.sub.as_str());
}

#[tokio::test]
async fn the_iams_cookies_never_reach_the_app() {
    // Cookies ignore ports: the IAM's, scoped to /realms/{slug}/, reach the edge's host too.
    let (sandbox, _echo) = start_with_echo().await;
    let cookie =
        b"a=1; KEYCLOAK_IDENTITY=sso-secret; KEYCLOAK_SESSION=acme/x; AUTH_SESSION_ID=y; b=2";
    let echo = echoed_bytes(&sandbox, "/realms/acme/x", &[("cookie", cookie)]).await;
    assert_eq!(header_values(&echo, "cookie"), ["a=1; b=2"]);
}

#[tokio::test]
async fn forwarding_headers_from_the_client_are_all_dropped() {
    let (sandbox, _echo) = start_with_echo().await;
    let spoofed: [(&str, &[u8]); 7] = [
        ("X-Real-IP", b"6.6.6.6"),
        ("X-Forwarded-Port", b"443"),
        ("X-Forwarded-Ssl", b"on"),
        ("X-Forwarded-Scheme", b"https"),
        ("X-Forwarded-Prefix", b"/admin"),
        ("X-Forwarded-Server", b"evil.example"),
        ("X-Forwarded-Proto", b"https"),
    ];
    let echo = echoed_bytes(&sandbox, "/", &spoofed).await;
    for (name, _) in &spoofed[..6] {
        assert!(header_values(&echo, name).is_empty(), "{name}: {echo}");
    }
    assert_eq!(header_values(&echo, "x-forwarded-proto"), ["http"]);
}

#[tokio::test]
async fn the_app_sees_the_edge_in_via_after_the_clients_entries() {
    // RFC 9110 §7.6.3: a gateway sends Via on each request it forwards, appending its entry.
    let (sandbox, _echo) = start_with_echo().await;
    let echo = echoed_bytes(&sandbox, "/", &[("via", b"1.1 corporate-proxy")]).await;
    let via = header_values(&echo, "via").join(", ");
    assert!(
        via.starts_with("1.1 corporate-proxy, 1.1 zero-sandbox-"),
        "{via}"
    );
}

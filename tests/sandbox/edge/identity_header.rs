//! The identity header the edge hands the app: one per request, verifiable, cached per session,
//! and never a client's own.

use reqwest::header::COOKIE;
use serde_json::Value;
use zero_sandbox::identity::{unix_now, verify_identity};

use super::{audience, echoed, echoed_bytes, jsonwebtoken_claims};
use crate::support::echo_app::header_values;
use crate::support::{self, client, edge, sign_in, start_with_echo};

#[tokio::test]
async fn a_signed_in_request_carries_one_identity_that_verifies() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let spoof = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJtYWxsb3J5In0.";
    let echo = echoed(
        &sandbox,
        "/whoami",
        Some(&ada.cookie),
        &[
            ("X-NNumbers-Identity", spoof),
            ("x-nnumbers-identity", spoof),
        ],
    )
    .await;
    let identities = header_values(&echo, "x-nnumbers-identity");
    assert_eq!(identities.len(), 1, "exactly one identity: {identities:?}");
    let token = &identities[0];
    let claims = verify_identity(
        token,
        &sandbox.identity().keys.published(),
        &audience(&sandbox),
        unix_now(),
    )
    .expect("the identity verifies with the platform's checks");
    assert_eq!(claims.sub, ada.sub);
    assert_eq!(claims.sid, ada.sid);
    let independent = jsonwebtoken_claims(&sandbox, token);
    assert_eq!(independent["sub"], ada.sub.as_str());
    assert_eq!(independent["email"], "ada@acme.example");

    let session: Value = client()
        .get(edge(&sandbox, "/.nnumbers/auth/session"))
        .header(COOKIE, &ada.cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(session["user"]["sub"], ada.sub.as_str());
    assert_eq!(session["user"]["preferred_username"], "ada");
}

#[tokio::test]
async fn the_identity_is_cached_per_session_and_resigned_near_expiry() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let identity = |echo: Value| header_values(&echo, "x-nnumbers-identity").remove(0);
    let first = identity(echoed(&sandbox, "/1", Some(&ada.cookie), &[]).await);
    let second = identity(echoed(&sandbox, "/2", Some(&ada.cookie), &[]).await);
    assert_eq!(first, second, "signing is not per request");

    // Under 60 s left: the next request gets a new one.
    let sessions = sandbox.sessions();
    sessions.cache_identity(&ada.sid, first.clone(), unix_now() + 59);
    let third = identity(echoed(&sandbox, "/3", Some(&ada.cookie), &[]).await);
    assert_ne!(third, first);
    let claims = jsonwebtoken_claims(&sandbox, &third);
    assert!(claims["exp"].as_u64().unwrap() >= unix_now() + 240);
}

#[tokio::test]
async fn spoofed_identity_headers_never_reach_the_app() {
    let (sandbox, _echo) = start_with_echo().await;
    let forged = sandbox
        .identity()
        .mint(&sandbox.config().people[0], "forged-sid")
        .0;
    // Every spelling, several copies, on a plain request and on an upgrade request.
    let mut request = client().get(edge(&sandbox, "/anonymous"));
    for name in [
        "X-NNumbers-Identity",
        "x-nnumbers-identity",
        "X-NNUMBERS-IDENTITY",
    ] {
        request = request.header(name, &forged).header(name, "second copy");
    }
    let echo: Value = request.send().await.unwrap().json().await.unwrap();
    assert!(
        header_values(&echo, "x-nnumbers-identity").is_empty(),
        "{echo}"
    );

    // A stale or made-up cookie is anonymous too, and the edge clears it.
    let response = client()
        .get(edge(&sandbox, "/anonymous"))
        .header(COOKIE, "__nnumbers_session=made-up")
        .header("X-NNumbers-Identity", &forged)
        .send()
        .await
        .unwrap();
    let cleared = support::cookie_pairs(&response);
    assert_eq!(cleared, "__nnumbers_session=");
    let echo: Value = response.json().await.unwrap();
    assert!(header_values(&echo, "x-nnumbers-identity").is_empty());
}

/// Every header the app got whose name a CGI-style server (PHP, WSGI, Rack) would read as
/// `HTTP_X_NNUMBERS_IDENTITY`: `_` and `-` are the same there.
fn identity_like(echo: &Value) -> Vec<String> {
    echo["headers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| {
            h[0].as_str()
                .unwrap()
                .replace('_', "-")
                .eq_ignore_ascii_case("x-nnumbers-identity")
        })
        .map(|h| h[1].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn an_underscore_spelling_of_the_identity_header_never_reaches_the_app() {
    let (sandbox, _echo) = start_with_echo().await;
    let forged = sandbox
        .identity()
        .mint(&sandbox.config().people[0], "forged-sid")
        .0;
    let spellings: [(&str, &[u8]); 3] = [
        ("X_NNumbers_Identity", forged.as_bytes()),
        ("x_nnumbers-identity", forged.as_bytes()),
        ("X-NNUMBERS_IDENTITY", b"other"),
    ];
    let echo = echoed_bytes(&sandbox, "/anonymous", &spellings).await;
    assert!(identity_like(&echo).is_empty(), "{echo}");

    // Signed in: exactly the edge's one.
    let ada = support::sign_in(&sandbox, "ada").await;
    let mut with_cookie = spellings.to_vec();
    with_cookie.push(("cookie", ada.cookie.as_bytes()));
    let echo = echoed_bytes(&sandbox, "/signed-in", &with_cookie).await;
    assert_eq!(identity_like(&echo), [ada.identity(&sandbox)], "{echo}");
}

//! The whole sign-in as a person lives it, in headless Chromium against the demo app: sign in
//! → the app receives an identity that verifies against the JWKS → sign out → sign in again,
//! straight back through the IAM's single sign-on without its page.

use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Value, json};
use zero_sandbox::Sandbox;
use zero_sandbox::identity::{Audience, IdentityClaims, unix_now, verify_identity};

use crate::support;
use crate::support::browser::{Browser, DEFAULT_DEADLINE};

/// Ada, of the built-in configuration.
const ADA: &str = "3c0e8f1a-7d2b-4b6e-9f41-2a5c8d7e6b01";

/// The platform session cookie Chromium holds for the edge, if any.
async fn session_handle(browser: &mut Browser, edge: &str) -> Option<String> {
    let cookies = browser
        .command("Network.getCookies", json!({ "urls": [edge] }))
        .await;
    cookies["cookies"].as_array()?.iter().find_map(|c| {
        (c["name"] == "__nnumbers_session").then(|| {
            assert_eq!(c["httpOnly"], true, "the session cookie is HttpOnly");
            assert_eq!(c["sameSite"], "Lax", "the session cookie is SameSite=Lax");
            c["value"].as_str().unwrap_or_default().to_string()
        })
    })
}

/// Waits until the demo page at `/` shows the verdict on the identity it received.
async fn demo_verdict(browser: &mut Browser) -> String {
    browser
        .wait_for(
            "location.pathname === '/' && document.getElementById('verdict') !== null",
            DEFAULT_DEADLINE,
        )
        .await;
    browser
        .eval("document.getElementById('verdict').textContent")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The identity the edge handed the demo for the browser's session (the cached one: the
/// edge reuses it for every request of that session), verified twice.
fn verified_identity(sandbox: &Sandbox, handle: &str) -> IdentityClaims {
    let session = sandbox
        .sessions()
        .by_handle(handle)
        .expect("the browser's cookie names a live session");
    let (token, _) = session
        .cached_identity
        .expect("the edge signed an identity for the demo's requests");
    let claims = verify_identity(
        token.to_str().expect("a compact JWS is ASCII"),
        &sandbox.identity().keys.published(),
        &Audience::from_config(sandbox.config()),
        unix_now(),
    )
    .expect("the identity verifies against the JWKS");

    let env = sandbox.env();
    let jwks: jsonwebtoken::jwk::JwkSet = serde_json::from_str(&env.identity_jwks).unwrap();
    let kid = jsonwebtoken::decode_header(&token).unwrap().kid.unwrap();
    let key = DecodingKey::from_jwk(jwks.find(&kid).expect("the kid is in the JWKS")).unwrap();
    let mut validation = Validation::new(Algorithm::ES256);
    validation.leeway = 60;
    validation.set_issuer(&[env.identity_issuer.as_str()]);
    validation.set_audience(&[env.app_id.as_str()]);
    let independent = jsonwebtoken::decode::<Value>(&token, &key, &validation)
        .expect("jsonwebtoken verifies it too")
        .claims;
    assert_eq!(independent["org"], env.org_id);
    assert_eq!(independent["sid"], session.sid);
    claims
}

#[tokio::test]
async fn sign_in_identity_sign_out_and_single_sign_on_in_a_browser() {
    let Some(mut browser) = Browser::launch().await else {
        return;
    };
    let sandbox = support::start().await;
    let edge = sandbox.endpoints().edge_url();

    // Anonymous: the demo offers to sign in and received no identity.
    browser.goto(&format!("{edge}/")).await;
    browser
        .wait_for(
            "document.readyState === 'complete' && !document.getElementById('sign-in').hidden",
            DEFAULT_DEADLINE,
        )
        .await;
    assert!(session_handle(&mut browser, &edge).await.is_none());

    // Sign in: the IAM's page, Ada's card, back at the app.
    browser.click("#sign-in").await;
    let card = format!(r#".person-card[data-sub="{ADA}"]"#);
    browser
        .wait_for(
            &format!(
                "document.readyState === 'complete' && document.querySelector('{card}') !== null"
            ),
            DEFAULT_DEADLINE,
        )
        .await;
    browser.click(&card).await;
    let verdict = demo_verdict(&mut browser).await;
    assert!(verdict.starts_with("Accepted"), "{verdict}");
    let passed = browser
        .eval("document.querySelectorAll('#checks li.pass').length")
        .await;
    assert_eq!(passed, 5, "the demo shows the five checks passed");
    let handle = session_handle(&mut browser, &edge)
        .await
        .expect("the callback set the session cookie");
    let first = verified_identity(&sandbox, &handle);
    assert_eq!(first.sub, ADA);

    // Sign out with the demo's button: a form POST from the page, so Origin is the edge's.
    browser
        .wait_for(
            "!document.getElementById('sign-out').hidden",
            DEFAULT_DEADLINE,
        )
        .await;
    browser.click("#sign-out button").await;
    browser
        .wait_for(
            "location.pathname === '/' && document.readyState === 'complete' \
             && !document.getElementById('sign-in').hidden",
            DEFAULT_DEADLINE,
        )
        .await;
    assert!(
        !sandbox.sessions().is_alive(&first.sid),
        "sign-out ended the platform session"
    );
    assert!(session_handle(&mut browser, &edge).await.is_none());

    // Sign in again: the IAM's SSO answers at once, no page to click through.
    browser.click("#sign-in").await;
    let verdict = demo_verdict(&mut browser).await;
    assert!(verdict.starts_with("Accepted"), "{verdict}");
    let handle = session_handle(&mut browser, &edge)
        .await
        .expect("signed in again");
    let second = verified_identity(&sandbox, &handle);
    assert_eq!(second.sub, ADA);
    assert_ne!(second.sid, first.sid, "a new platform session");
}

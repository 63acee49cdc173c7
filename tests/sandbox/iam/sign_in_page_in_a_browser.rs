//! The IAM's sign-in page in headless Chromium: clicking a person's card reaches the edge's
//! callback; SSO, "Continue as", a phone's width, the custom person and the keyboard.

use serde_json::Value;

use super::{ADA, GRACE};
use crate::iam::Flow;
use crate::support;
use crate::support::browser::{Browser, DEFAULT_DEADLINE};

/// The query of the next request to the edge's callback.
async fn at_callback(
    browser: &mut Browser,
    flow: &Flow,
) -> std::collections::HashMap<String, String> {
    let url = browser.next_intercepted(DEFAULT_DEADLINE).await;
    let (base, query) = url.split_once('?').expect("a query");
    assert_eq!(base, flow.redirect_uri);
    form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect()
}

#[tokio::test]
async fn signing_in_by_clicking_a_card_reaches_the_edge_callback() {
    let Some(mut browser) = Browser::launch().await else {
        return;
    };
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    // The callback is the edge's business: the test only sees where the browser is sent.
    browser.intercept(&flow.redirect_uri).await;

    browser.goto(&flow.authorize_url(&[])).await;
    let card = format!(r#".person-card[data-sub="{ADA}"]"#);
    browser
        .wait_for(
            &format!("document.querySelector('{card}') !== null"),
            DEFAULT_DEADLINE,
        )
        .await;
    browser.keep_screenshot("iam-sign-in").await;
    browser.click(&card).await;
    let query = at_callback(&mut browser, &flow).await;
    assert_eq!(query.get("state"), Some(&flow.state));
    let code = query.get("code").expect("a code in the callback");
    let tokens = flow.tokens(code).await;
    assert!(tokens["access_token"].is_string(), "the code is a real one");

    // The browser's SSO cookie: the next authorization completes without the page.
    browser.goto(&flow.authorize_url(&[])).await;
    let again = at_callback(&mut browser, &flow).await;
    assert_ne!(again.get("code"), Some(code));
    assert_eq!(again.get("session_state"), query.get("session_state"));

    // prompt=login: "Continue as Ada", and "Use another account" takes the keyboard to the
    // people; on a phone's width nothing overflows.
    browser.viewport(390, 844, true).await;
    browser
        .goto(&flow.authorize_url(&[("prompt", Some("login"))]))
        .await;
    let continue_label = browser
        .eval("document.querySelector('.continue-button').textContent")
        .await;
    assert!(
        continue_label
            .as_str()
            .unwrap()
            .contains("Continue as Ada Lovelace")
    );
    browser.keep_screenshot("iam-continue-as-phone").await;
    browser.click(".another-account").await;
    browser
        .wait_for(
            "document.activeElement && document.activeElement.classList.contains('person-card')",
            DEFAULT_DEADLINE,
        )
        .await;
    assert_eq!(
        browser
            .eval("document.documentElement.scrollWidth <= window.innerWidth")
            .await,
        true,
        "the page fits a phone's width"
    );
    browser.click(".custom summary").await;
    // A blank sub (spaces pass the field's `required`): the page again, saying why.
    browser
        .eval("document.getElementById('custom-sub').value = '   '")
        .await;
    browser
        .eval("document.getElementById('custom-name').value = 'Nobody'")
        .await;
    browser.click(".custom-form button[type=submit]").await;
    browser
        .wait_for(
            "document.querySelector('.alert') !== null",
            DEFAULT_DEADLINE,
        )
        .await;
    let alert = browser
        .eval("document.querySelector('.alert').textContent")
        .await;
    assert!(alert.as_str().unwrap().contains("needs a sub"), "{alert}");
    assert_eq!(
        browser
            .eval("document.getElementById('custom-name').value")
            .await,
        "Nobody"
    );
    browser.keep_screenshot("iam-custom-error-phone").await;
    browser.viewport(1280, 900, false).await;

    // End the SSO with the account page's button (the visible way out), then the sign-in
    // page is back; sign in with the keyboard.
    browser
        .goto(&format!("{}/account", flow.endpoints.issuer))
        .await;
    browser.keep_screenshot("iam-account").await;
    browser.click(".panel form button[type=submit]").await;
    browser
        .wait_for(
            "document.querySelector('h1') && document.querySelector('h1').textContent === 'You have signed out'",
            DEFAULT_DEADLINE,
        )
        .await;
    assert_eq!(
        browser
            .eval("document.querySelector('h1').textContent")
            .await,
        "You have signed out"
    );
    browser.keep_screenshot("iam-signed-out").await;
    browser.goto(&flow.authorize_url(&[])).await;
    browser.keep_screenshot("iam-sign-in-again").await;
    browser
        .eval(&format!(
            r#"document.querySelector('.person-card[data-sub="{GRACE}"]').focus()"#
        ))
        .await;
    browser.press("Enter").await;
    let keyboard = at_callback(&mut browser, &flow).await;
    assert_ne!(keyboard.get("session_state"), query.get("session_state"));
    let tokens = flow.tokens(keyboard.get("code").unwrap()).await;
    let claims: Value = {
        use base64::Engine;
        let payload = tokens["id_token"]
            .as_str()
            .unwrap()
            .split('.')
            .nth(1)
            .unwrap();
        serde_json::from_slice(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(payload)
                .unwrap(),
        )
        .unwrap()
    };
    assert_eq!(claims["sub"], GRACE);
}

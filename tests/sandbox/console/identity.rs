//! `GET identity/latest` and `POST identity/check`: an identity decoded, with the spec's five
//! checks (runtime-protocol, "The Identity of Who Signed In") made against this sandbox.

use serde_json::{Value, json};
use zero_sandbox::identity::{Forgery, forge};

use crate::control::{Control, assert_api_error};
use crate::support;

fn checks(report: &Value) -> Vec<(String, bool)> {
    report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| (c["check"].as_str().unwrap().to_string(), c["ok"] == true))
        .collect()
}

fn all_pass() -> Vec<(String, bool)> {
    ["signature", "iss", "aud", "org", "validity"]
        .iter()
        .map(|c| (c.to_string(), true))
        .collect()
}

#[tokio::test]
async fn the_latest_identity_is_the_one_the_edge_signed_last_decoded_with_five_passing_checks() {
    let (sandbox, _echo) = support::start_with_echo().await;
    let control = Control::of(&sandbox);
    let (status, none) = control.get("/identity/latest").await;
    assert_eq!((status, &none), (200, &json!({ "identity": null })));

    let signed_in = support::sign_in(&sandbox, "ada").await;
    let identity =
        support::http_sign_in::identity_via_app(&sandbox.endpoints().edge_url(), &signed_in.cookie)
            .await;
    assert!(!identity.is_empty(), "the echo app received an identity");
    let (status, latest) = control.get("/identity/latest").await;
    assert_eq!(status, 200);
    let latest = &latest["identity"];
    assert_eq!(
        latest["token"],
        identity.as_str(),
        "the one the app received"
    );
    assert_eq!(checks(latest), all_pass());
    assert_eq!(latest["valid"], true);
    assert_eq!(latest["header"]["typ"], "nn-identity+jwt");
    assert_eq!(
        latest["header"]["kid"],
        sandbox.identity().keys.current().kid()
    );
    assert_eq!(latest["claims"]["preferred_username"], "ada");
    let left = latest["seconds_left"].as_i64().expect("seconds left");
    assert!((240..=300).contains(&left), "{left}");

    // Past its exp and the tolerance, the same identity fails the validity check only.
    control
        .post("/clock", json!({ "advance_seconds": 400 }))
        .await;
    let (_, later) = control.get("/identity/latest").await;
    let later = &later["identity"];
    assert_eq!(later["valid"], false);
    let mut expected = all_pass();
    expected[4].1 = false;
    assert_eq!(checks(later), expected);
    assert!(later["seconds_left"].as_i64().unwrap() < 0);
}

#[tokio::test]
async fn a_pasted_token_is_checked_and_each_forgery_fails_its_own_check() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    let (status, good) = control
        .post("/identity/check", json!({ "token": session["identity"] }))
        .await;
    assert_eq!(status, 200, "{good}");
    assert_eq!(checks(&good), all_pass());
    assert!(good.get("token").is_none(), "a pasted token is not echoed");

    let issuer = sandbox.identity();
    let person = sandbox.config().people[0].clone();
    let claims = issuer.claims_at(&person, "sid", sandbox.clock().now());
    let key = issuer.keys.current();
    for (forgery, failing) in [
        (Forgery::BadSignature, "signature"),
        (Forgery::UnknownKid, "signature"),
        (Forgery::Issuer("https://elsewhere.example".into()), "iss"),
        (Forgery::Audience("another-app".into()), "aud"),
        (Forgery::Organization("another-org".into()), "org"),
        (Forgery::Expired, "validity"),
        (Forgery::NotYetValid, "validity"),
    ] {
        let token = forge(&key, claims.clone(), std::slice::from_ref(&forgery));
        let (status, report) = control
            .post("/identity/check", json!({ "token": token }))
            .await;
        assert_eq!(status, 200, "{forgery:?}: {report}");
        assert_eq!(report["valid"], false, "{forgery:?}");
        let failed: Vec<String> = checks(&report)
            .into_iter()
            .filter(|(_, ok)| !ok)
            .map(|(c, _)| c)
            .collect();
        assert_eq!(failed, [failing], "{forgery:?}: {report}");
    }

    // Neither the pasted tokens nor the check are put on record.
    let (_, events) = control.get("/events").await;
    let text = events.to_string();
    assert!(!text.contains(session["identity"].as_str().unwrap()));
    assert!(!text.contains("IDENTITY_CHECK"));
}

/// Issue 30: an unknown kid was reported as `no published key has kid Some("…")`, Rust's
/// debug text. The detail names the kid as the header gives it, or says there is none.
#[tokio::test]
async fn an_unknown_kid_is_named_in_words_not_in_rust_debug_text() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let issuer = sandbox.identity();
    let person = sandbox.config().people[0].clone();
    let claims = issuer.claims_at(&person, "sid", sandbox.clock().now());
    let unknown = forge(
        &issuer.keys.current(),
        claims.clone(),
        &[Forgery::UnknownKid],
    );
    let header: Value = serde_json::from_slice(
        &base64::Engine::decode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            unknown.split('.').next().unwrap(),
        )
        .unwrap(),
    )
    .unwrap();
    let kid = header["kid"].as_str().expect("a forged kid");
    let without_kid = zero_sandbox::identity::jws::sign_bytes(
        &issuer.keys.current(),
        br#"{"alg":"ES256","typ":"nn-identity+jwt"}"#,
        &serde_json::to_vec(&claims).unwrap(),
    );
    for (token, expected) in [
        (
            unknown.clone(),
            format!("no published key has kid \"{kid}\""),
        ),
        (
            without_kid,
            "the header has no kid, so no published key can verify it".to_string(),
        ),
    ] {
        let (status, report) = control
            .post("/identity/check", json!({ "token": token }))
            .await;
        assert_eq!(status, 200, "{report}");
        let signature = &report["checks"][0];
        assert_eq!(signature["check"], "signature");
        assert_eq!(signature["detail"], expected.as_str(), "{report}");
        let text = report.to_string();
        for debug in ["Some(", "None", "Err("] {
            assert!(!text.contains(debug), "{debug} in {text}");
        }
    }
}

#[tokio::test]
async fn what_is_not_a_compact_jws_is_refused_with_400_saying_why() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    for (body, names) in [
        (json!({}), "`token`"),
        (json!({ "token": "just-one-part" }), "three"),
        (json!({ "token": "a.b" }), "three"),
        (json!({ "token": "!!.e30.sig" }), "header"),
        (json!({ "token": "e30.bm90IGpzb24.sig" }), "payload"),
        (json!({ "token": 7 }), "`token`"),
        (json!({ "token": "e30.e30.x", "extra": 1 }), "`extra`"),
    ] {
        let answer = control.post("/identity/check", body.clone()).await;
        assert_api_error(&answer, 400, "INVALID_REQUEST", names);
    }
}

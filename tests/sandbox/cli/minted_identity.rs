//! `token` mints an identity that independent verifiers (jsonwebtoken, raw p256) accept, and each
//! forgery it can make is refused for the reason it names.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use jsonwebtoken::errors::ErrorKind;
use p256::ecdsa::signature::Verifier;
use serde_json::Value;

use super::{env_json, jsonwebtoken_verify, run, token};
use crate::support::{self, test_config};

#[test]
fn minted_identity_verifies_with_jsonwebtoken_and_raw_p256() {
    let state = tempfile::tempdir().unwrap();
    let state = state.path().to_str().unwrap();
    let env = env_json(state);
    let token = token(state, &[]);

    let claims = jsonwebtoken_verify(&env, &token).expect("verifies");
    for claim in [
        "iss",
        "aud",
        "jti",
        "sub",
        "org",
        "org_slug",
        "iam",
        "sid",
        "name",
        "email",
        "email_verified",
        "preferred_username",
        "iat",
        "nbf",
        "exp",
    ] {
        assert!(claims.get(claim).is_some(), "missing {claim}");
    }
    assert_eq!(
        claims.as_object().unwrap().len(),
        15,
        "no extra claims: {claims}"
    );
    assert_eq!(
        claims["exp"].as_u64().unwrap(),
        claims["iat"].as_u64().unwrap() + 300
    );

    // The header, exactly.
    let (header_b64, rest) = token.split_once('.').unwrap();
    let header: Value = serde_json::from_slice(&B64.decode(header_b64).unwrap()).unwrap();
    let jwks: Value =
        serde_json::from_str(env["NNUMBERS_IDENTITY_JWKS"].as_str().unwrap()).unwrap();
    let jwk = &jwks["keys"][0];
    assert_eq!(
        header,
        serde_json::json!({"alg": "ES256", "typ": "nn-identity+jwt", "kid": jwk["kid"]})
    );

    // A direct P-256 check of r‖s over the signing input.
    let (payload_b64, sig_b64) = rest.split_once('.').unwrap();
    let mut sec1 = vec![4u8];
    sec1.extend(B64.decode(jwk["x"].as_str().unwrap()).unwrap());
    sec1.extend(B64.decode(jwk["y"].as_str().unwrap()).unwrap());
    let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(&sec1).unwrap();
    let signature = p256::ecdsa::Signature::from_slice(&B64.decode(sig_b64).unwrap()).unwrap();
    let input = format!("{header_b64}.{payload_b64}");
    assert!(key.verify(input.as_bytes(), &signature).is_ok());
}

#[test]
fn person_without_email_gets_no_email_claims() {
    let state = tempfile::tempdir().unwrap();
    let state = state.path().to_str().unwrap();
    let (ok, out, err) = run(&["token", "--as", "grace", "--state", state]);
    assert!(ok, "{err}");
    let claims = jsonwebtoken_verify(&env_json(state), out.trim()).unwrap();
    assert!(claims.get("email").is_none() && claims.get("email_verified").is_none());
    let (ok, out, _) = run(&["token", "--as", "alan", "--state", state]);
    assert!(ok);
    let claims = jsonwebtoken_verify(&env_json(state), out.trim()).unwrap();
    assert_eq!(claims["email_verified"], false);
}

#[test]
fn each_forgery_is_refused_for_the_reason_it_names() {
    let state = tempfile::tempdir().unwrap();
    let state = state.path().to_str().unwrap();
    let env = env_json(state);
    let cases: [(&[&str], ErrorKind); 8] = [
        (&["--expired"], ErrorKind::ExpiredSignature),
        (&["--not-yet-valid"], ErrorKind::ImmatureSignature),
        (&["--aud", "another-app"], ErrorKind::InvalidAudience),
        (&["--org", "another-org"], ErrorKind::InvalidSubject), // our org check
        (&["--iss", "https://evil.example"], ErrorKind::InvalidIssuer),
        (&["--unknown-kid"], ErrorKind::InvalidKeyFormat), // no JWK has that kid
        (&["--bad-signature"], ErrorKind::InvalidSignature),
        (&["--alg-none"], ErrorKind::InvalidAlgorithm),
    ];
    for (flags, reason) in cases {
        let forged = token(state, flags);
        let got = jsonwebtoken_verify(&env, &forged);
        match (&got, &reason) {
            // jsonwebtoken refuses "none" while parsing the header.
            (Err(ErrorKind::Json(_)), ErrorKind::InvalidAlgorithm) => {}
            _ => assert_eq!(got.err(), Some(reason.clone()), "{flags:?}"),
        }
    }
}

/// The forgeries a strict verifier refuses though a lenient JWT library takes them: the
/// broker of a sandbox on the same state directory refuses each, and the unforged token gets
/// past the identity check (to the session check: its sid is made up).
#[tokio::test]
async fn the_strict_verifiers_forgeries_are_refused_by_the_broker() {
    let state = tempfile::tempdir().unwrap();
    let mut config = test_config();
    config.state_dir = Some(state.path().to_path_buf());
    let sandbox = support::start_with(config).await;
    let state = state.path().to_str().unwrap();
    let broker = format!("{}/v1/querymesh/query", sandbox.endpoints().broker_url());
    let post = |identity: String| {
        support::client()
            .post(&broker)
            .header("X-NNumbers-Identity", identity)
            .header("content-type", "application/json")
            .body(r#"{"sql": "SELECT 1"}"#)
            .send()
    };
    for (flags, code) in [
        (&[][..], "USER_SESSION_REQUIRED"),
        (&["--long-lived"][..], "IDENTITY_ASSERTION_INVALID"),
        (&["--crit"][..], "IDENTITY_ASSERTION_INVALID"),
        (&["--high-s"][..], "IDENTITY_ASSERTION_INVALID"),
    ] {
        let response = post(token(state, flags)).await.unwrap();
        assert_eq!(response.status(), 401, "{flags:?}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], code, "{flags:?}: {body}");
    }
    sandbox.shutdown().await;
}

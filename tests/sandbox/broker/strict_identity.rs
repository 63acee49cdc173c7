//! The broker and the demo verify the identity strictly: what the platform never signs is
//! refused even with a valid signature (a forger holding the key), and a `sid` speaks only
//! for its own person.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::{Value, json};
use zero_sandbox::Sandbox;
use zero_sandbox::identity::{Forgery, IDENTITY_TYP, forge, jws};

use crate::support::fake_trino::{Behaviour, FakeTrino};
use crate::support::{self, client};

const QUERY: &str = r#"{"sql": "SELECT 1", "max_rows": 10}"#;

/// A platform session for `person` straight in the store, with `access_token` as its IAM
/// token; returns its sid.
fn session_for(sandbox: &Sandbox, person: &str, access_token: &str) -> String {
    support::platform_session(sandbox, person, access_token).1
}

/// A sandbox whose QueryMesh is a fake that records the tokens it is sent.
async fn start() -> (Sandbox, FakeTrino) {
    let fake = FakeTrino::start(Behaviour::Rows(
        vec![("_col0", "integer", "integer")],
        vec![json!([1])],
    ))
    .await;
    let mut config = support::test_config();
    config.querymesh.url = Some(fake.url.clone());
    (support::start_with(config).await, fake)
}

async fn query(sandbox: &Sandbox, identity: &str) -> (u16, Value) {
    let response = client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("content-type", "application/json")
        .header("X-NNumbers-Identity", identity)
        .body(QUERY)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

fn assert_invalid((status, body): (u16, Value), what: &str) -> String {
    assert_eq!(status, 401, "{what}: {body}");
    assert_eq!(body["code"], "IDENTITY_ASSERTION_INVALID", "{what}: {body}");
    body["message"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_sid_of_another_persons_session_is_refused_and_never_queries() {
    let (sandbox, fake) = start().await;
    let ada = sandbox.config().person("ada").unwrap().clone();
    let ada_sid = session_for(&sandbox, "ada", "token-of-ada");
    let grace_sid = session_for(&sandbox, "grace", "token-of-grace");

    // Ada's name on Grace's live session: signed with the platform's own key.
    let (forged, _) = sandbox.identity().mint(&ada, &grace_sid);
    let message = assert_invalid(query(&sandbox, &forged).await, "sid of grace");
    assert!(message.contains("another person"), "{message}");
    assert!(
        fake.seen().requests.is_empty(),
        "Grace's token was never used"
    );

    // Ada's own session still queries, with her own token.
    let (own, _) = sandbox.identity().mint(&ada, &ada_sid);
    let (status, body) = query(&sandbox, &own).await;
    assert_eq!(status, 200, "{body}");
    let seen = fake.seen();
    assert_eq!(seen.requests.len(), 1);
    assert_eq!(seen.requests[0].2["authorization"], "Bearer token-of-ada");
}

#[tokio::test]
async fn what_the_platform_never_signs_is_refused_by_the_broker_and_the_demo() {
    let (sandbox, fake) = start().await;
    let key = sandbox.identity().keys.current();
    let ada = sandbox.config().person("ada").unwrap().clone();
    let sid = session_for(&sandbox, "ada", "token-of-ada");
    let claims = sandbox.identity().claims(&ada, &sid);

    let mut forged: Vec<(String, String)> = [Forgery::LongLived, Forgery::Critical, Forgery::HighS]
        .into_iter()
        .map(|f| {
            let token = forge(&key, claims.clone(), std::slice::from_ref(&f));
            (format!("{f:?}"), token)
        })
        .collect();
    // Back-dated: nbf before iat.
    let mut back_dated = claims.clone();
    back_dated.nbf = back_dated.iat - 120;
    forged.push((
        "nbf before iat".into(),
        sandbox.identity().sign(&back_dated),
    ));
    // The claims as a JSON array, in field order: serde's structs would read it.
    let payload = serde_json::to_value(&claims).unwrap();
    let as_array: Vec<Value> = payload.as_object().unwrap().values().cloned().collect();
    let header = json!({"alg": "ES256", "typ": IDENTITY_TYP, "kid": key.kid()}).to_string();
    forged.push((
        "payload array".into(),
        jws::sign_bytes(
            &key,
            header.as_bytes(),
            json!(as_array).to_string().as_bytes(),
        ),
    ));
    // A repeated member, which serde_json's Value would read as the last one.
    let text = payload.to_string();
    let repeated = format!(r#"{{"org_slug":"other",{}"#, &text[1..]);
    forged.push((
        "repeated member".into(),
        jws::sign_bytes(&key, header.as_bytes(), repeated.as_bytes()),
    ));
    // Padded base64url.
    let genuine = sandbox.identity().sign(&claims);
    forged.push(("padding".into(), format!("{genuine}==")));

    for (what, token) in &forged {
        assert_invalid(query(&sandbox, token).await, what);
    }
    assert!(fake.seen().requests.is_empty());
    let (status, body) = query(&sandbox, &genuine).await;
    assert_eq!(
        status, 200,
        "the same claims, as the platform signs them: {body}"
    );

    // The demo app's verifier is the same one.
    for (what, token) in &forged {
        let answer: Value = client()
            .get(format!("{}/api/identity", sandbox.app_url()))
            .header("X-NNumbers-Identity", token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(answer["report"]["accepted"], false, "{what}: {answer}");
        // The failing check is the one that explains it.
        let failing: Vec<&str> = answer["report"]["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["passed"] == false)
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        let expected = match what.as_str() {
            "LongLived" | "nbf before iat" => "nbf/exp",
            _ => "signature",
        };
        assert!(failing.contains(&expected), "{what}: {answer}");
    }
}

#[test]
fn the_high_s_forgery_is_the_same_signature_otherwise() {
    // Pins that Forgery::HighS changes only s (to n − s), so its refusal is about the form.
    let key = zero_sandbox::identity::KeyPair::generate();
    let config = support::test_config();
    let issuer = zero_sandbox::identity::IdentityIssuer {
        keys: zero_sandbox::identity::KeyRing::ephemeral(),
        audience: zero_sandbox::identity::Audience::from_config(&config),
        iam_issuer: "http://127.0.0.1:1/realms/acme".into(),
    };
    let claims = issuer.claims(&config.people[0], "s");
    let genuine = forge(&key, claims.clone(), &[]);
    let twin = forge(&key, claims, &[Forgery::HighS]);
    let (input, signature) = genuine.rsplit_once('.').unwrap();
    let (twin_input, twin_signature) = twin.rsplit_once('.').unwrap();
    assert_eq!(input, twin_input);
    let (a, b) = (
        B64.decode(signature).unwrap(),
        B64.decode(twin_signature).unwrap(),
    );
    assert_eq!(a[..32], b[..32], "same r");
    assert_ne!(a[32..], b[32..], "another s");
}

//! Refusals for the identity: none, one failing any check, an ended session, a token QueryMesh
//! refuses, no identity keys to check with.

use zero_sandbox::platform::Switch;

use super::{EXAMPLE, assert_refusal, config_with_fake, post, session_for_ada};
use crate::support::fake_trino::{Behaviour, FakeTrino};
use crate::support::{self};

#[tokio::test]
async fn no_identity_is_user_session_required() {
    let sandbox = support::start().await;
    assert_refusal(
        post(&sandbox, None, EXAMPLE).await,
        401,
        "USER_SESSION_REQUIRED",
    );
}

#[tokio::test]
async fn an_identity_failing_any_check_is_invalid() {
    let sandbox = support::start().await;
    let (identity, sid) = session_for_ada(&sandbox);
    let ada = sandbox.config().person("ada").unwrap().clone();
    let claims = sandbox.identity().claims(&ada, &sid);
    let key = sandbox.identity().keys.current();
    use zero_sandbox::identity::{Forgery, forge};
    let forgeries = [
        Forgery::Expired,
        Forgery::NotYetValid,
        Forgery::Audience("another-app".into()),
        Forgery::Organization("another-org".into()),
        Forgery::Issuer("https://evil.example".into()),
        Forgery::UnknownKid,
        Forgery::BadSignature,
        Forgery::AlgNone,
    ];
    for forgery in forgeries {
        let token = forge(&key, claims.clone(), std::slice::from_ref(&forgery));
        let message = assert_refusal(
            post(&sandbox, Some(&token), EXAMPLE).await,
            401,
            "IDENTITY_ASSERTION_INVALID",
        );
        assert!(
            message.contains("does not check out"),
            "{forgery:?}: {message}"
        );
    }
    // The typ is checked too: a token of another type signed with the right key.
    let other_typ = zero_sandbox::identity::jws::sign(&key, "JWT", &claims);
    assert_refusal(
        post(&sandbox, Some(&other_typ), EXAMPLE).await,
        401,
        "IDENTITY_ASSERTION_INVALID",
    );
    assert_refusal(
        post(&sandbox, Some("garbage"), EXAMPLE).await,
        401,
        "IDENTITY_ASSERTION_INVALID",
    );
    // Two copies of the header.
    let response = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("X-NNumbers-Identity", &identity)
        .header("X-NNumbers-Identity", &identity)
        .body(EXAMPLE)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
}

#[tokio::test]
async fn an_ended_session_is_user_session_required() {
    let sandbox = support::start().await;
    let (identity, sid) = session_for_ada(&sandbox);
    assert!(sandbox.sessions().end(&sid));
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        401,
        "USER_SESSION_REQUIRED",
    );
    assert!(message.contains("ended"), "{message}");
}

#[tokio::test]
async fn querymesh_refusing_the_token_is_identity_rejected() {
    let fake = FakeTrino::start(Behaviour::Status(401)).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        502,
        "QUERYMESH_IDENTITY_REJECTED",
    );
}

#[tokio::test]
async fn no_identity_keys_is_not_ready() {
    let sandbox = support::start().await;
    let (identity, _) = session_for_ada(&sandbox);
    sandbox.switches().set(Switch::IdentityKeysAvailable, false);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "APPLICATION_IDENTITY_NOT_READY",
    );
}

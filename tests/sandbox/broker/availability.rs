//! QueryMesh stopped, silent or not speaking TLS, and the platform's query limit: UNAVAILABLE.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Notify;
use zero_sandbox::Sandbox;

use super::{EXAMPLE, assert_refusal, config_with_fake, post, session_for_ada};
use crate::support::fake_trino::{Behaviour, FakeTrino};
use crate::support::{self, test_config};

#[tokio::test]
async fn a_stopped_querymesh_is_unavailable() {
    let fake = FakeTrino::start(Behaviour::Status(503)).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );

    // Nothing listening at all.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut config = test_config();
    config.querymesh.url = Some(format!("http://{}", closed.local_addr().unwrap()));
    drop(closed);
    let sandbox = support::start_with(config).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
}

#[tokio::test]
async fn a_querymesh_that_never_answers_times_out_as_unavailable() {
    let fake = FakeTrino::start(Behaviour::Hang).await;
    let mut config = config_with_fake(&fake);
    config.broker.querymesh_timeout_secs = 1;
    let sandbox = support::start_with(config).await;
    let (identity, _) = session_for_ada(&sandbox);
    let started = Instant::now();
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// Queries of `identity` that hold their place at `fake` (it waits for `release`): started in
/// the background, returned once all `n` have reached QueryMesh.
async fn hold_places(
    sandbox: &Arc<Sandbox>,
    fake: &FakeTrino,
    identity: &str,
    n: usize,
) -> Vec<tokio::task::JoinHandle<(u16, serde_json::Value)>> {
    let before = fake.seen().requests.len();
    let running = (0..n)
        .map(|_| {
            let (sandbox, identity) = (sandbox.clone(), identity.to_string());
            tokio::spawn(async move { post(&sandbox, Some(&identity), EXAMPLE).await })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(10);
    while fake.seen().requests.len() < before + n {
        assert!(Instant::now() < deadline, "the queries reach QueryMesh");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    running
}

#[tokio::test]
async fn the_platform_query_limit_is_unavailable() {
    let release = Arc::new(Notify::new());
    let fake = FakeTrino::start(Behaviour::Wait(release.clone())).await;
    let mut config = config_with_fake(&fake);
    config.broker.max_concurrent_queries = 2;
    let sandbox = Arc::new(support::start_with(config).await);
    let (identity, _) = session_for_ada(&sandbox);
    let running = hold_places(&sandbox, &fake, &identity, 2).await;
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(message.contains("limit of 2"), "{message}");
    release.notify_one();
    release.notify_one();
    for r in running {
        assert_eq!(r.await.unwrap().0, 200);
    }
    // The slots are free again.
    release.notify_one();
    assert_eq!(post(&sandbox, Some(&identity), EXAMPLE).await.0, 200);
}

/// One person at their share of the platform's limit gets 503; everyone else still queries.
#[tokio::test]
async fn one_persons_share_of_the_query_limit_leaves_room_for_others() {
    let release = Arc::new(Notify::new());
    let fake = FakeTrino::start(Behaviour::Wait(release.clone())).await;
    let mut config = config_with_fake(&fake);
    config.broker.max_concurrent_queries = 8;
    config.broker.max_concurrent_queries_per_person = 2;
    let sandbox = Arc::new(support::start_with(config).await);
    let (identity, _) = session_for_ada(&sandbox);
    let running = hold_places(&sandbox, &fake, &identity, 2).await;
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(message.contains("limit of 2"), "{message}");
    assert!(message.contains("for one person"), "{message}");

    // Grace's query is let through to QueryMesh while Ada's two wait there.
    let (grace, _) = support::platform_session(&sandbox, "grace", "test-access-token-of-grace");
    let theirs = hold_places(&sandbox, &fake, &grace, 1).await;
    for _ in 0..3 {
        release.notify_one();
    }
    for r in running.into_iter().chain(theirs) {
        assert_eq!(r.await.unwrap().0, 200);
    }
}

#[tokio::test]
async fn an_https_querymesh_that_does_not_speak_tls_is_unavailable_with_the_cause() {
    let fake = FakeTrino::start(Behaviour::Status(200)).await;
    let mut config = test_config();
    config.querymesh.url = Some(fake.url.replace("http://", "https://"));
    let sandbox = support::start_with(config).await;
    let (identity, _) = session_for_ada(&sandbox);
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(message.contains("https://127.0.0.1"), "{message}");
    assert!(message.contains("did not answer ("), "{message}");
}

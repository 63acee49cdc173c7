//! What the broker makes of QueryMesh's answers: Trino errors, answers outside the protocol, a
//! foreign nextUri, too many rows, too large an answer.

use serde_json::json;

use super::{EXAMPLE, assert_refusal, config_with_fake, post, session_for_ada};
use crate::support::fake_trino::{Behaviour, FakeTrino};
use crate::support::{self, test_config};

#[tokio::test]
async fn trino_errors_map_to_the_spec() {
    let cases = [
        (
            (
                "PERMISSION_DENIED",
                "USER_ERROR",
                "Access Denied: Cannot select from table tpch.tiny.nation",
            ),
            403,
            "QUERYMESH_ACCESS_DENIED",
            true,
        ),
        (
            (
                "TABLE_NOT_FOUND",
                "USER_ERROR",
                "line 1:15: Table 'tpch.tiny.foo' does not exist",
            ),
            422,
            "QUERYMESH_QUERY_FAILED",
            true,
        ),
        // A failure within the protocol is a refusal (422); an internal error's message may
        // describe the statement QueryMesh ran, so only its name goes on.
        (
            (
                "GENERIC_INTERNAL_ERROR",
                "INTERNAL_ERROR",
                "boom in SELECT secret FROM t WHERE region = 'EU'",
            ),
            422,
            "QUERYMESH_QUERY_FAILED",
            false,
        ),
    ];
    for ((name, kind, text), status, code, kept) in cases {
        let fake = FakeTrino::start(Behaviour::Error(name, kind, text)).await;
        let sandbox = support::start_with(config_with_fake(&fake)).await;
        let (identity, _) = session_for_ada(&sandbox);
        let message = assert_refusal(post(&sandbox, Some(&identity), EXAMPLE).await, status, code);
        assert_eq!(message.contains(text), kept, "{message}");
        assert!(kept || message.contains(name), "{message}");
    }
}

#[tokio::test]
async fn an_answer_outside_the_protocol_is_a_502() {
    let fake = FakeTrino::start(Behaviour::NotProtocol).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        502,
        "QUERYMESH_QUERY_FAILED",
    );
}

#[tokio::test]
async fn a_foreign_next_uri_is_not_followed_and_the_query_is_cancelled() {
    let fake = FakeTrino::start(Behaviour::ForeignNextUri).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        502,
        "QUERYMESH_QUERY_FAILED",
    );
    assert!(message.contains("evil.example"), "{message}");
    assert_eq!(
        fake.deletes(),
        vec!["/v1/query/20261129_000000_00001_fake0".to_string()]
    );
}

#[tokio::test]
async fn more_rows_than_max_rows_cancels_and_is_a_422() {
    let fake = FakeTrino::start(Behaviour::Pages {
        pages: 5,
        per_page: 10,
    })
    .await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    let body = r#"{"sql": "SELECT n FROM t", "max_rows": 25}"#;
    let message = assert_refusal(
        post(&sandbox, Some(&identity), body).await,
        422,
        "QUERYMESH_QUERY_FAILED",
    );
    assert!(message.contains("max_rows = 25"), "{message}");
    assert_eq!(fake.deletes().len(), 1, "cancelled once");
    // Exactly at the cap is fine, across pages.
    let (status, answer) = post(
        &sandbox,
        Some(&identity),
        r#"{"sql": "SELECT n FROM t", "max_rows": 50}"#,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["rows"].as_array().unwrap().len(), 50);
    assert_eq!(answer["rows"][49], json!([49]));
}

/// `max_rows` bounds rows, `[broker] max_answer_mb` their size: wide rows past it are the
/// query's fault (422) and the query is cancelled, never gathered whole.
#[tokio::test]
async fn an_answer_past_the_brokers_size_limit_is_refused_and_cancelled() {
    let mut config = test_config();
    config.broker.max_answer_mb = 1;
    let sandbox = support::start_with(config).await;
    let ada = support::sign_in(&sandbox, "ada").await;
    let identity = ada.identity(&sandbox);
    // About 6 MB of Trino JSON: 60,175 comments of lineitem.
    let wide = r#"{"sql": "SELECT comment FROM tpch.tiny.lineitem"}"#;
    let message = assert_refusal(
        post(&sandbox, Some(&identity), wide).await,
        422,
        "QUERYMESH_QUERY_FAILED",
    );
    assert!(message.contains("limit of 1 MiB"), "{message}");
    // The same person's narrower query still answers.
    let (status, body) = post(&sandbox, Some(&identity), EXAMPLE).await;
    assert_eq!(status, 200, "{body}");
}

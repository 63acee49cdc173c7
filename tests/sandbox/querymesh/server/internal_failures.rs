//! A failure of the stand-in itself (a SQLite error the analyser did not anticipate) answers as
//! Trino's GENERIC_INTERNAL_ERROR (StandardErrorCode 65536, INTERNAL_ERROR) naming only the
//! query: never the SQLite statement the engine generated, which holds the person's row filter,
//! nor SQLite's wording; through the broker it is a refusal like any failed query, and the
//! journal records it (issue 25, hole 7; issue 28, "Errors").

use serde_json::{Value, json};

use super::{Mesh, error_of};
use crate::support;

/// Ada is an analyst: her rows of nation pass a filter she must not see.
const RULES: &str = r#"{
    "tables": [
        {"group": "analysts", "table": "nation", "privileges": ["SELECT"],
         "filter": "comment NOT LIKE '%zebra-secret%'"},
        {"privileges": ["SELECT"]}
    ]
}"#;
const ADA: &str = "3c0e8f1a-7d2b-4b6e-9f41-2a5c8d7e6b01";

/// Fails inside SQLite today: an ORDER BY key that is a correlated subquery, with OFFSET
/// (Trino answers it; issue 28); only its failure is pinned here, so when it works this needs
/// another one.
const FAILS_INSIDE: &str = "SELECT x FROM (VALUES 1) t(x) ORDER BY (SELECT count(*) \
    FROM tpch.tiny.nation n2 WHERE n2.nationkey > x) OFFSET 0 ROWS";

/// What no answer about it may contain: the generated SQL, SQLite's wording, the filter.
const NEVER: &[&str] = &[
    "qm_", "SELECT", "select", "SQLite", "sqlite", "misuse", "zebra", "LIKE", "nation",
];

fn assert_clean(text: &str) {
    for leak in NEVER {
        assert!(!text.contains(leak), "{leak:?} in {text}");
    }
}

#[tokio::test]
async fn an_internal_failure_answers_generic_internal_error_without_sql_or_the_row_filter() {
    let (config, _dir) = support::config_with_rules(RULES, "");
    let mesh = Mesh::with(config).await;

    // Straight through the Trino protocol.
    let token = mesh.sign(&mesh.claims(ADA, &["analysts"]));
    let pages = mesh
        .follow(mesh.post_as(ADA, FAILS_INSIDE, &token).await)
        .await;
    let query_id = pages[0]["id"].as_str().expect("an id").to_string();
    let error = error_of(&pages);
    assert_eq!(error["errorName"], "GENERIC_INTERNAL_ERROR", "{error}");
    assert_eq!(error["errorType"], "INTERNAL_ERROR", "{error}");
    assert_eq!(error["errorCode"], 65536, "{error}");
    assert_eq!(
        error["message"],
        format!("internal error in the QueryMesh stand-in; query {query_id}")
    );
    assert_clean(&error.to_string());

    // Through the broker: QueryMesh failed the query within the protocol, a 422 whose message
    // names the error and never carries QueryMesh's text.
    let session: Value = support::client()
        .post(format!(
            "{}/sessions",
            mesh.sandbox.endpoints().control_url()
        ))
        .json(&json!({ "person": "ada" }))
        .send()
        .await
        .expect("the control API answers")
        .json()
        .await
        .expect("a session");
    let identity = session["identity"].as_str().expect("an identity");
    let (status, body) = support::broker_query(&mesh.sandbox, identity, FAILS_INSIDE).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "QUERYMESH_QUERY_FAILED", "{body}");
    let message = body["message"].as_str().expect("a message");
    assert!(message.contains("GENERIC_INTERNAL_ERROR"), "{message}");
    assert_clean(message);

    // The journal: both QueryMesh's completed queries failed with the internal error, and the
    // broker's answer is on record; none of it carries the statement or the filter.
    let journal = mesh.sandbox.journal();
    let completed =
        serde_json::to_value(journal.read(0, Some("QUERY_COMPLETED"), None, 10)).expect("JSON");
    let events = completed["events"].as_array().expect("events");
    assert_eq!(events.len(), 2, "{completed}");
    for event in events {
        assert_eq!(event["outcome"], "GENERIC_INTERNAL_ERROR", "{event}");
        assert_eq!(
            event["details"]["error_name"], "GENERIC_INTERNAL_ERROR",
            "{event}"
        );
    }
    assert_eq!(events[0]["details"]["query_id"], query_id.as_str());
    let everything = serde_json::to_string(&journal.read(0, None, None, 100)).expect("JSON");
    assert!(
        everything.contains("QUERYMESH_QUERY_FAILED"),
        "the broker's outcome is on record: {everything}"
    );
    for leak in ["qm_", "misuse", "zebra", "SQLite"] {
        assert!(!everything.contains(leak), "{leak:?} in the journal");
    }
}

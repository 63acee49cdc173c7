//! The broker over the whole stack: a real sign-in, the IAM's real tokens, the QueryMesh
//! stand-in's real answers.

use serde_json::{Value, json};
use zero_sandbox::Sandbox;
use zero_sandbox::identity::unix_now;
use zero_sandbox::platform::Switch;

use crate::support::{self, sign_in, test_config};

async fn query(sandbox: &Sandbox, identity: &str, body: Value) -> (u16, Value) {
    let response = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("x-nnumbers-identity", identity)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// Asserts a refusal's status and code; returns its body for more checks.
fn refused((status, body): (u16, Value), expected_status: u16, code: &str) -> Value {
    assert_eq!(
        (status, body["code"].as_str()),
        (expected_status, Some(code)),
        "{body}"
    );
    body
}

fn example() -> Value {
    json!({"sql": "SELECT name, regionkey FROM tpch.tiny.nation", "max_rows": 1000})
}

#[tokio::test]
async fn the_spec_example_answers_in_the_spec_shape() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let (status, body) = query(&sandbox, &ada.identity(&sandbox), example()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["columns"],
        json!([{"name": "name", "type": "varchar"}, {"name": "regionkey", "type": "bigint"}])
    );
    let rows = body["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 25);
    assert!(rows.contains(&json!(["BRAZIL", 1])), "{body}");
    assert_eq!(body.as_object().unwrap().len(), 2);
}

/// Complex columns come through with QueryMesh's JSON values unchanged and the raw type names
/// (runtime-protocol: "the columns, with the Trino type"), as `varchar` and `bigint` do.
#[tokio::test]
async fn complex_columns_answer_with_raw_type_names_and_trinos_values() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let sql = "SELECT ARRAY[regionkey, 7] AS a, MAP(ARRAY[name], ARRAY[regionkey]) AS m, \
               CAST(ROW(regionkey, name) AS ROW(k bigint, n varchar)) AS r, \
               json_parse('{\"x\": [1]}') AS j \
               FROM tpch.tiny.region WHERE regionkey = 1";
    let (status, body) = query(&sandbox, &ada.identity(&sandbox), json!({"sql": sql})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({
            "columns": [
                {"name": "a", "type": "array"},
                {"name": "m", "type": "map"},
                {"name": "r", "type": "row"},
                {"name": "j", "type": "json"},
            ],
            "rows": [[[1, 7], {"AMERICA": 1}, [1, "AMERICA"], "{\"x\":[1]}"]],
        })
    );
}

#[tokio::test]
async fn trino_refusing_the_sql_is_a_422_with_trinos_message() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let body = refused(
        query(
            &sandbox,
            &ada.identity(&sandbox),
            json!({"sql": "SELECT * FROM tpch.tiny.nope"}),
        )
        .await,
        422,
        "QUERYMESH_QUERY_FAILED",
    );
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("line 1:15: Table 'tpch.tiny.nope' does not exist"),
        "{message}"
    );
}

#[tokio::test]
async fn a_result_past_max_rows_is_cancelled_and_refused() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let identity = ada.identity(&sandbox);
    let big =
        json!({"sql": "SELECT orderkey, linenumber FROM tpch.tiny.lineitem", "max_rows": 1000});
    let body = refused(
        query(&sandbox, &identity, big).await,
        422,
        "QUERYMESH_QUERY_FAILED",
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("max_rows = 1000"),
        "{body}"
    );
    // The whole table fits under the default cap.
    let all = json!({"sql": "SELECT orderkey FROM tpch.tiny.lineitem"});
    let (status, body) = query(&sandbox, &identity, all).await;
    assert_eq!(status, 200);
    assert_eq!(body["rows"].as_array().unwrap().len(), 60175);
}

#[tokio::test]
async fn a_realm_without_the_querymesh_scope_is_identity_rejected() {
    let mut config = test_config();
    config.querymesh.scope = false;
    let sandbox = support::start_with(config).await;
    let ada = sign_in(&sandbox, "ada").await;
    let body = refused(
        query(&sandbox, &ada.identity(&sandbox), example()).await,
        502,
        "QUERYMESH_IDENTITY_REJECTED",
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("signing in again does not help")
    );
}

#[tokio::test]
async fn the_scope_switch_takes_effect_at_the_next_token() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let identity = ada.identity(&sandbox);
    assert_eq!(query(&sandbox, &identity, example()).await.0, 200);
    sandbox.switches().set(Switch::QueryMeshScope, false);
    // The next refresh brings a token without the scope.
    let mut session = sandbox.sessions().get(&ada.sid).unwrap();
    session.tokens.access_expires_at = unix_now();
    sandbox.sessions().set_tokens(&ada.sid, session.tokens);
    refused(
        query(&sandbox, &identity, example()).await,
        502,
        "QUERYMESH_IDENTITY_REJECTED",
    );
}

#[tokio::test]
async fn an_expiring_access_token_is_refreshed_and_a_refused_refresh_ends_the_session() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let identity = ada.identity(&sandbox);
    let before = sandbox.sessions().get(&ada.sid).unwrap().tokens;
    let mut expiring = before.clone();
    expiring.access_expires_at = unix_now() + 5;
    sandbox.sessions().set_tokens(&ada.sid, expiring);
    assert_eq!(query(&sandbox, &identity, example()).await.0, 200);
    let after = sandbox.sessions().get(&ada.sid).unwrap().tokens;
    assert_ne!(after.access_token, before.access_token, "refreshed");
    assert!(after.access_expires_at > unix_now() + 200);

    let mut revoked = after.clone();
    revoked.access_expires_at = unix_now();
    revoked.refresh_token = Some("not-a-refresh-token-the-iam-issued".into());
    sandbox.sessions().set_tokens(&ada.sid, revoked);
    refused(
        query(&sandbox, &identity, example()).await,
        401,
        "USER_SESSION_REQUIRED",
    );
    assert!(
        !sandbox.sessions().is_alive(&ada.sid),
        "a refused refresh ends the session"
    );
}

#[tokio::test]
async fn ending_the_iam_session_ends_the_platform_session_at_once() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let identity = ada.identity(&sandbox);
    assert_eq!(query(&sandbox, &identity, example()).await.0, 200);
    assert_eq!(sandbox.iam().end_sessions_of(&ada.sub), 1);
    refused(
        query(&sandbox, &identity, example()).await,
        401,
        "USER_SESSION_REQUIRED",
    );
}

#[tokio::test]
async fn signing_out_at_the_edge_ends_queries_for_that_sid() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let identity = ada.identity(&sandbox);
    let edge = sandbox.endpoints().edge_url();
    let logout = support::client()
        .post(format!("{edge}/.nnumbers/auth/logout"))
        .header("origin", &edge)
        .header("cookie", &ada.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), 303);
    refused(
        query(&sandbox, &identity, example()).await,
        401,
        "USER_SESSION_REQUIRED",
    );
}

#[tokio::test]
async fn data_policies_deny_as_access_denied() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules.json");
    // Analysts may read tpch.tiny but not customer; nobody else may read anything.
    std::fs::write(
        &rules,
        r#"{"tables": [
            {"group": "analysts", "catalog": "tpch", "schema": "tiny", "table": "customer", "privileges": []},
            {"group": "analysts", "catalog": "tpch", "privileges": ["SELECT"]}
        ]}"#,
    )
    .unwrap();
    let mut config = test_config();
    config.querymesh.access_control = Some(rules);
    let sandbox = support::start_with(config).await;

    let ada = sign_in(&sandbox, "ada").await; // analysts
    let identity = ada.identity(&sandbox);
    assert_eq!(query(&sandbox, &identity, example()).await.0, 200);
    let body = refused(
        query(
            &sandbox,
            &identity,
            json!({"sql": "SELECT name FROM tpch.tiny.customer"}),
        )
        .await,
        403,
        "QUERYMESH_ACCESS_DENIED",
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("Cannot select from table tpch.tiny.customer"),
        "{body}"
    );

    let margaret = sign_in(&sandbox, "margaret").await; // admins only: no rule grants
    refused(
        query(&sandbox, &margaret.identity(&sandbox), example()).await,
        403,
        "QUERYMESH_ACCESS_DENIED",
    );
}

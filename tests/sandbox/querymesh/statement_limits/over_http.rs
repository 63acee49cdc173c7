//! Over HTTP: QueryMesh answers deep statements with Trino errors and keeps serving; the broker
//! answers queries past the limits with a 422.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zero_sandbox::Sandbox;
use zero_sandbox::identity::{jws, unix_now};
use zero_sandbox::oidc::{QUERYMESH_AUDIENCE, QUERYMESH_SCOPE};

use super::chain;
use crate::support::{self, broker_query, sign_in};

/// A QueryMesh access token for `ada`, signed with the IAM's key as the IAM issues them.
fn token(sandbox: &Sandbox) -> String {
    let now = unix_now();
    let claims = json!({
        "iss": sandbox.realm_url(),
        "sub": "ada",
        "aud": [QUERYMESH_AUDIENCE, "nnumbers-edge"],
        "azp": "nnumbers-edge",
        "exp": now + 300,
        "iat": now,
        "typ": "Bearer",
        "scope": format!("openid profile email {QUERYMESH_SCOPE}"),
        "groups": ["analysts"],
    });
    jws::sign(&sandbox.iam_keys().current(), "JWT", &claims)
}

/// Posts `sql` to QueryMesh's `/v1/statement` and follows `nextUri`: the last page.
async fn statement(sandbox: &Sandbox, sql: &str) -> Value {
    let client = support::client();
    let response = client
        .post(format!(
            "{}/v1/statement",
            sandbox.endpoints().querymesh_url()
        ))
        .bearer_auth(token(sandbox))
        .header("X-Trino-User", "ada")
        .body(sql.to_string())
        .send()
        .await
        .expect("QueryMesh answers");
    assert_eq!(response.status(), 200);
    let mut page: Value = response.json().await.expect("a QueryResults");
    let mut data = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while let Some(next) = page["nextUri"].as_str().map(str::to_string) {
        assert!(Instant::now() < deadline, "the query did not end");
        page = client
            .get(next)
            .send()
            .await
            .expect("answers")
            .json()
            .await
            .expect("a QueryResults");
        data.extend(page["data"].as_array().cloned().unwrap_or_default());
    }
    page["data"] = Value::Array(data);
    page
}

#[tokio::test]
async fn querymesh_answers_deep_statements_with_trino_errors_and_keeps_serving() {
    let sandbox = support::start().await;
    // Each crashed the whole process before (the analysis overflowed its worker's stack).
    let deep = [
        (format!("SELECT {}", chain("1", "+", 950)), None, json!(950)),
        (
            format!("SELECT {}", chain("true", " AND ", 1000)),
            None,
            json!(true),
        ),
        (
            format!("SELECT {}", chain("false", " OR ", 1000)),
            None,
            json!(false),
        ),
        (
            format!("SELECT length({})", chain("'a'", " || ", 1000)),
            None,
            json!(1000),
        ),
        (
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " UNION ALL ", 2500)
            ),
            None,
            json!(2500),
        ),
        (
            // One predicate per operand (SqlBase.g4 `predicated`): Trino 476 refuses the
            // second IS before any depth matters.
            format!("SELECT 1{}", " IS NULL".repeat(3000)),
            Some(("SYNTAX_ERROR", "line 1:18: mismatched input 'IS'")),
            json!(null),
        ),
        (
            // SQLite takes at most 2,000 columns.
            format!("SELECT {}", chain("1", ", ", 3000)),
            Some((
                "NOT_SUPPORTED",
                "The query is too large for the QueryMesh stand-in",
            )),
            json!(null),
        ),
    ];
    for (sql, error, value) in deep {
        let last = statement(&sandbox, &sql).await;
        match error {
            None => assert_eq!(last["data"][0][0], value, "{last}"),
            Some((name, message)) => {
                assert_eq!(last["error"]["errorName"], name, "{last}");
                assert_eq!(last["error"]["errorType"], "USER_ERROR", "{last}");
                let got = last["error"]["message"].as_str().unwrap_or_default();
                assert!(got.starts_with(message), "{got}");
            }
        }
    }
    let last = statement(&sandbox, "SELECT 1").await;
    assert_eq!(last["data"], json!([[1]]), "{last}");
}

#[tokio::test]
async fn the_broker_answers_queries_past_the_limits_with_a_422() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let identity = ada.identity(&sandbox);
    // SQLite's limits were internal errors, which the broker answered with a 502.
    for sql in [
        format!("SELECT {}", chain("1", ", ", 3000)),
        format!("SELECT 1{}", " IS NULL".repeat(3000)),
        format!("SELECT {}", chain("1", "+", 5000)),
    ] {
        let (status, body) = broker_query(&sandbox, &identity, &sql).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (422, Some("QUERYMESH_QUERY_FAILED")),
            "{body}"
        );
    }
    let (status, body) =
        broker_query(&sandbox, &identity, &chain("SELECT 1", " UNION ALL ", 500)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["rows"].as_array().map(Vec::len), Some(500), "{body}");
    let (status, body) = broker_query(&sandbox, &identity, "SELECT 1").await;
    assert_eq!((status, &body["rows"]), (200, &json!([[1]])), "{body}");
}

//! X-Trino-Time-Zone is the session time zone (Trino's ProtocolHeaders; docs client/jdbc
//! "timezone"): `current_timezone()`, `current_timestamp` and the cast of a timestamp to one
//! with a zone read it, and a zone Trino does not know fails the query (TimeZoneKey:
//! "Time zone not supported: …", NOT_SUPPORTED).

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{Mesh, error_of, rows};

async fn run_in_zone(mesh: &Mesh, zone: &str, sql: &str) -> Vec<Value> {
    let response = mesh
        .client
        .post(format!("{}/v1/statement", mesh.url()))
        .bearer_auth(mesh.token())
        .header("X-Trino-Time-Zone", zone)
        .header("X-Trino-Client-Capabilities", "PARAMETRIC_DATETIME")
        .body(sql.to_string())
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status(), StatusCode::OK);
    mesh.follow(response).await
}

#[tokio::test]
async fn the_time_zone_header_is_the_session_zone() {
    let mesh = Mesh::start().await;
    let sql = "SELECT current_timezone(), \
               CAST(TIMESTAMP '2020-06-01 12:00:00' AS timestamp(0) with time zone), \
               substr(CAST(current_timestamp AS varchar), 25)";
    let pages = run_in_zone(&mesh, "Asia/Kolkata", sql).await;
    assert_eq!(
        rows(&pages),
        [json!([
            "Asia/Kolkata",
            "2020-06-01 12:00:00 Asia/Kolkata",
            "Asia/Kolkata"
        ])]
    );
    // The same text in another zone is another plan, not the cached one.
    let pages = run_in_zone(&mesh, "+07:09", sql).await;
    assert_eq!(
        rows(&pages),
        [json!(["+07:09", "2020-06-01 12:00:00 +07:09", "+07:09"])]
    );
    // Without the header the stand-in, a fixed "server", is in UTC.
    let pages = mesh.run("SELECT current_timezone()").await;
    assert_eq!(rows(&pages), [json!(["UTC"])]);
    let pages = run_in_zone(&mesh, "Foo/Bar", "SELECT 1").await;
    let error = error_of(&pages);
    assert_eq!(error["errorName"], "NOT_SUPPORTED");
    assert_eq!(error["message"], "Time zone not supported: Foo/Bar");
}

/// Without `PARAMETRIC_DATETIME` in X-Trino-Client-Capabilities (the JavaScript client, plain
/// HTTP), Trino 476 names times and timestamps without their precision and sends them rounded
/// to milliseconds (measured against it: tests/real_trino and src/querymesh/server/legacy_datetime.rs).
#[tokio::test]
async fn a_client_without_parametric_datetime_gets_milliseconds() {
    let mesh = Mesh::start().await;
    let sql = "SELECT TIMESTAMP '2020-01-02 03:04:05.123456', \
               TIMESTAMP '2020-12-31 23:59:59.9995', \
               ARRAY[TIMESTAMP '2020-01-02 03:04:05 UTC'], 1";
    let response = mesh
        .client
        .post(format!("{}/v1/statement", mesh.url()))
        .bearer_auth(mesh.token())
        .body(sql)
        .send()
        .await
        .expect("answers");
    let pages = mesh.follow(response).await;
    assert_eq!(
        rows(&pages),
        [json!([
            "2020-01-02 03:04:05.123",
            "2021-01-01 00:00:00.000",
            ["2020-01-02 03:04:05.000 UTC"],
            1
        ])]
    );
    let columns = pages
        .iter()
        .find_map(|p| p.get("columns"))
        .expect("columns");
    let types: Vec<&str> = columns
        .as_array()
        .expect("an array")
        .iter()
        .map(|c| c["type"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        types,
        [
            "timestamp",
            "timestamp",
            "array(timestamp with time zone)",
            "integer"
        ]
    );
    // Declared, the same statement keeps its precision (and the plan cache serves both).
    let pages = mesh.run(sql).await;
    assert_eq!(
        rows(&pages),
        [json!([
            "2020-01-02 03:04:05.123456",
            "2020-12-31 23:59:59.9995",
            ["2020-01-02 03:04:05 UTC"],
            1
        ])]
    );
}

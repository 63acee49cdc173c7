//! Every response reads as the Java client's model (Trino CLI, JDBC).

use std::time::Instant;

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{ADA, Mesh, PATIENCE};
use crate::support;

/// Checks `page` against the Java client's model (io.trino.client.QueryResults and the types
/// it holds): every field its constructors require non-null is there, and every field has the
/// JSON kind Jackson needs. Returns what is wrong.
fn java_client_problems(page: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let mut need = |ok: bool, what: &str| {
        if !ok {
            problems.push(what.to_string());
        }
    };
    fn absent_or(v: &Value, kind: impl Fn(&Value) -> bool) -> bool {
        v.is_null() || kind(v)
    }
    fn int(v: &Value) -> bool {
        v.as_i64().is_some_and(|n| i32::try_from(n).is_ok())
    }
    fn long(v: &Value) -> bool {
        v.is_i64() || v.is_u64()
    }

    need(page["id"].as_str().is_some_and(|s| !s.is_empty()), "id");
    need(
        page["infoUri"]
            .as_str()
            .is_some_and(|u| u.starts_with("http")),
        "infoUri",
    );
    need(absent_or(&page["nextUri"], Value::is_string), "nextUri");
    need(
        absent_or(&page["partialCancelUri"], Value::is_string),
        "partialCancelUri",
    );
    need(absent_or(&page["warnings"], Value::is_array), "warnings");
    need(
        absent_or(&page["updateType"], Value::is_string),
        "updateType",
    );
    need(absent_or(&page["updateCount"], long), "updateCount");
    // QueryResults: "data present without columns".
    need(
        page["data"].is_null() || page["columns"].is_array(),
        "columns with data",
    );
    need(
        absent_or(&page["data"], |d| {
            d.as_array()
                .is_some_and(|rows| rows.iter().all(Value::is_array))
        }),
        "data",
    );
    for column in page["columns"].as_array().into_iter().flatten() {
        need(column["name"].is_string(), "column.name");
        need(column["type"].is_string(), "column.type");
        need(
            absent_or(&column["typeSignature"], signature_ok),
            "column.typeSignature",
        );
    }

    let stats = &page["stats"];
    need(stats.is_object(), "stats");
    need(stats["state"].is_string(), "stats.state");
    for flag in ["queued", "scheduled"] {
        need(absent_or(&stats[flag], Value::is_boolean), flag);
    }
    for count in [
        "nodes",
        "totalSplits",
        "queuedSplits",
        "runningSplits",
        "completedSplits",
    ] {
        need(absent_or(&stats[count], int), count);
    }
    for amount in [
        "cpuTimeMillis",
        "wallTimeMillis",
        "queuedTimeMillis",
        "elapsedTimeMillis",
        "processedRows",
        "processedBytes",
        "physicalInputBytes",
        "physicalWrittenBytes",
        "peakMemoryBytes",
        "spilledBytes",
    ] {
        need(absent_or(&stats[amount], long), amount);
    }
    for share in ["progressPercentage", "runningPercentage"] {
        need(absent_or(&stats[share], Value::is_number), share);
    }
    need(
        absent_or(&stats["rootStage"], Value::is_object),
        "rootStage",
    );

    let error = &page["error"];
    if !error.is_null() {
        need(error["message"].is_string(), "error.message");
        need(int(&error["errorCode"]), "error.errorCode");
        need(error["errorName"].is_string(), "error.errorName");
        need(error["errorType"].is_string(), "error.errorType");
        need(
            absent_or(&error["errorLocation"], |l| {
                int(&l["lineNumber"]) && int(&l["columnNumber"])
            }),
            "error.errorLocation",
        );
        // FailureInfo requires type, suppressed and stack.
        need(
            absent_or(&error["failureInfo"], |f| {
                f["type"].is_string() && f["suppressed"].is_array() && f["stack"].is_array()
            }),
            "error.failureInfo",
        );
    }
    problems
}

/// ClientTypeSignature: a rawType without `<>,`, and `arguments` always present, each of a
/// kind its deserializer knows with a value of that kind.
fn signature_ok(signature: &Value) -> bool {
    let raw = signature["rawType"].as_str().unwrap_or("");
    let raw_ok = !raw.is_empty() && !raw.contains(['<', '>', ',']);
    let Some(arguments) = signature["arguments"].as_array() else {
        return false;
    };
    raw_ok
        && arguments.iter().all(|a| {
            let value = &a["value"];
            match a["kind"].as_str() {
                Some("LONG") => value.is_i64() || value.is_u64(),
                Some("TYPE") => signature_ok(value),
                Some("NAMED_TYPE") => {
                    signature_ok(&value["typeSignature"])
                        && (value["fieldName"].is_null() || value["fieldName"]["name"].is_string())
                }
                _ => false,
            }
        })
}

/// The headers the Trino CLI and JDBC driver send with every statement.
const CLI_HEADERS: &[(&str, &str)] = &[
    ("X-Trino-User", "ada"),
    ("X-Trino-Source", "trino-cli"),
    ("X-Trino-Catalog", "tpch"),
    ("X-Trino-Schema", "tiny"),
    ("X-Trino-Time-Zone", "UTC"),
    ("X-Trino-Language", "en-US"),
    ("X-Trino-Client-Info", "trino-cli 470"),
    ("X-Trino-Client-Tags", "a,b"),
    (
        "X-Trino-Client-Capabilities",
        "PATH,PARAMETRIC_DATETIME,SESSION_AUTHORIZATION",
    ),
    ("X-Trino-Session", ""),
    ("X-Trino-Transaction-Id", "NONE"),
    ("X-Trino-Resource-Estimate", "EXECUTION_TIME=1h"),
];

#[tokio::test]
async fn every_response_reads_as_the_java_clients_model() {
    // The check itself tells what Jackson or the model's constructors would refuse.
    let refused = json!({"id": "q", "infoUri": "http://h/", "data": [[1]],
                         "stats": {"state": "FINISHED", "nodes": 1.5}});
    assert_eq!(
        java_client_problems(&refused),
        ["columns with data", "nodes"]
    );
    assert!(!signature_ok(&json!({"rawType": "bigint"})));
    assert!(!signature_ok(
        &json!({"rawType": "varchar", "arguments": [{"kind": "VARIABLE", "value": "x"}]})
    ));

    let mesh = Mesh::start(support::test_config()).await;
    let mut answers = Vec::new();
    for sql in [
        "SELECT name, regionkey FROM nation",
        "SELECT CAST(1.5 AS decimal(3, 1)), TIMESTAMP '2020-01-02 03:04:05.678', \
         DATE '2020-01-02', CAST(NULL AS varchar), 1e7, true, CAST(2 AS real)",
        "SELECT nosuchcolumn FROM nation",
        "SELECT 1 / (regionkey - regionkey) FROM region",
        "SHOW TABLES",
        "DESCRIBE nation",
        "USE tpch.tiny",
    ] {
        let answer = mesh.run_with(ADA, CLI_HEADERS, sql).await;
        for page in &answer.pages {
            let problems = java_client_problems(page);
            assert!(problems.is_empty(), "{sql}: {problems:?} in {page}");
        }
        answers.push(answer);
    }
    assert_eq!(answers[0].succeeded().rows().len(), 25);
    assert_eq!(answers[2].error()["errorName"], "COLUMN_NOT_FOUND");
    assert_eq!(answers[3].error()["errorName"], "DIVISION_BY_ZERO");

    // QUEUED and RUNNING pages of a query that is then cancelled.
    let endless = "SELECT count(*) FROM lineitem a CROSS JOIN lineitem b CROSS JOIN orders c";
    let response = mesh.post(ADA, CLI_HEADERS, endless).await;
    let mut page: Value = response.json().await.expect("JSON");
    let mut states = Vec::new();
    let deadline = Instant::now() + PATIENCE;
    while page["stats"]["state"] != "RUNNING" {
        assert!(Instant::now() < deadline, "the query never ran");
        assert!(java_client_problems(&page).is_empty(), "{page}");
        states.push(page["stats"]["state"].clone());
        let next = page["nextUri"].as_str().expect("a nextUri").to_string();
        page = mesh
            .client
            .get(&next)
            .send()
            .await
            .expect("answers")
            .json()
            .await
            .expect("JSON");
    }
    assert!(java_client_problems(&page).is_empty(), "{page}");
    assert_eq!(states.first(), Some(&json!("QUEUED")));
    let next = page["nextUri"].as_str().expect("a nextUri").to_string();
    let cancelled = mesh.client.delete(&next).send().await.expect("answers");
    assert_eq!(cancelled.status(), StatusCode::NO_CONTENT);
}

/// `version()` is the pinned Trino's: the JDBC driver's `getDatabaseProductVersion()` runs
/// `SELECT version()`, and DBeaver and DataGrip read it on connect. Hidden, as in Trino.
#[tokio::test]
async fn version_is_the_pinned_trinos() {
    let mesh = Mesh::start(support::test_config()).await;
    let answer = mesh.run("SELECT version(), typeof(version())").await;
    answer.succeeded();
    assert_eq!(answer.rows(), vec![json!(["476", "varchar"])]);
    let listed = mesh.run("SHOW FUNCTIONS LIKE 'version'").await;
    listed.succeeded();
    assert!(listed.rows().is_empty(), "{:?}", listed.rows());
}

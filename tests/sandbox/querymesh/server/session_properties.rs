//! SET SESSION, RESET SESSION and SHOW SESSION over the protocol, as Trino's statement
//! resource answers them (SetSessionTask / ResetSessionTask: `X-Trino-Set-Session:
//! name=value` and `X-Trino-Clear-Session: name`; the client sends values back in
//! `X-Trino-Session`; Trino tells them on the statement's last page), and query_max_run_time
//! taking effect.

use std::time::Duration;

use super::{Mesh, error_of, rows};

const ENDLESS: &str = "SELECT count(*) FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b";

impl Mesh {
    async fn post_with_session(&self, sql: &str, session: &str) -> reqwest::Response {
        self.client
            .post(format!("{}/v1/statement", self.url()))
            .bearer_auth(self.token())
            .header("x-trino-session", session)
            .body(sql.to_string())
            .send()
            .await
            .expect("answers")
    }
}

#[tokio::test]
async fn set_and_reset_answer_with_the_session_headers() {
    let mesh = Mesh::start().await;
    let posted = mesh
        .post("SET SESSION query_max_run_time = '5m'", &mesh.token())
        .await;
    assert!(
        posted.headers().get("x-trino-set-session").is_none(),
        "told on the last page"
    );
    let (pages, told) = mesh.follow_to_last_headers(posted).await;
    assert_eq!(
        told.get("x-trino-set-session")
            .map(|v| v.to_str().unwrap_or("")),
        Some("query_max_run_time=5m")
    );
    // Trino 476: no columns, no rows, the updateType.
    assert!(rows(&pages).is_empty());
    assert_eq!(pages.last().unwrap()["columns"], serde_json::json!([]));
    assert_eq!(pages.last().unwrap()["updateType"], "SET SESSION");

    let posted = mesh
        .post("RESET SESSION query_max_run_time", &mesh.token())
        .await;
    assert!(
        posted.headers().get("x-trino-clear-session").is_none(),
        "told on the last page"
    );
    let (pages, told) = mesh.follow_to_last_headers(posted).await;
    assert_eq!(
        told.get("x-trino-clear-session")
            .map(|v| v.to_str().unwrap_or("")),
        Some("query_max_run_time")
    );
    assert_eq!(pages.last().unwrap()["updateType"], "RESET SESSION");

    let posted = mesh
        .post("SET SESSION spill_enabled = TRUE", &mesh.token())
        .await;
    assert!(
        posted.headers().get("x-trino-set-session").is_none(),
        "told on the last page"
    );
    let (pages, told) = mesh.follow_to_last_headers(posted).await;
    assert_eq!(
        told.get("x-trino-set-session")
            .map(|v| v.to_str().unwrap_or("")),
        Some("spill_enabled=true")
    );
    assert_eq!(pages.last().unwrap()["stats"]["state"], "FINISHED");
}

/// Trino 476's answers: an unknown property at the value (at the statement for RESET), a
/// catalog that does not exist first, a value of another type and a malformed duration as its
/// own messages say.
#[tokio::test]
async fn unknown_properties_and_bad_values_are_refused() {
    let mesh = Mesh::start().await;
    let refused = async |sql: &str| {
        let pages = mesh.run(sql).await;
        let error = error_of(&pages);
        format!(
            "{}: {}",
            error["errorName"].as_str().unwrap_or(""),
            error["message"].as_str().unwrap_or("")
        )
    };
    assert_eq!(
        refused("SET SESSION no_such_property = 1").await,
        "INVALID_SESSION_PROPERTY: line 1:32: Session property 'no_such_property' does not exist"
    );
    assert_eq!(
        refused("RESET SESSION tpch.nothing").await,
        "INVALID_SESSION_PROPERTY: line 1:1: Session property 'tpch.nothing' does not exist"
    );
    assert_eq!(
        refused("SET SESSION nosuch.x = 1").await,
        "CATALOG_NOT_FOUND: line 1:24: Catalog 'nosuch' not found"
    );
    assert_eq!(
        refused("SET SESSION query_max_run_time = 'soon'").await,
        "INVALID_SESSION_PROPERTY: line 1:34: duration is not a valid data duration string: soon"
    );
    assert_eq!(
        refused("SET SESSION task_concurrency = 'many'").await,
        "INVALID_SESSION_PROPERTY: Unable to set session property 'task_concurrency' to ''many'': \
         Cannot cast type varchar(4) to integer"
    );
    assert_eq!(
        refused("SET SESSION task_concurrency = 6").await,
        "INVALID_SESSION_PROPERTY: line 1:32: task_concurrency must be a power of 2: 6"
    );
    assert_eq!(
        refused("SET SESSION max_drivers_per_task = -1").await,
        "INVALID_SESSION_PROPERTY: line 1:36: max_drivers_per_task must be equal or greater than 1"
    );
}

#[tokio::test]
async fn show_session_shows_what_the_client_sent() {
    let mesh = Mesh::start().await;
    let posted = mesh
        .post_with_session("SHOW SESSION LIKE 'query_max%'", "query_max_run_time=7m")
        .await;
    let pages = mesh.follow(posted).await;
    let columns: Vec<&str> = pages
        .iter()
        .find_map(|p| p["columns"].as_array())
        .map(|c| c.iter().filter_map(|c| c["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(columns, ["Name", "Value", "Default", "Type", "Description"]);
    let shown = rows(&pages);
    let names: Vec<&str> = shown.iter().filter_map(|r| r[0].as_str()).collect();
    // Trino 476's system session properties named query_max… (SHOW SESSION on the pinned
    // Trino; sql/session_properties.rs).
    assert_eq!(
        names,
        [
            "query_max_cpu_time",
            "query_max_execution_time",
            "query_max_planning_time",
            "query_max_run_time",
            "query_max_scan_physical_bytes"
        ]
    );
    assert_eq!(shown[3][1], "7m");
    assert_eq!(shown[3][2], "100.00d");
    assert_eq!(
        shown[1][1], "100.00d",
        "query_max_execution_time keeps its default"
    );
    // Each column is as wide as its longest value over every property, as Trino's VALUES
    // makes it, whatever LIKE keeps: the value the client sent counts too.
    let types: Vec<&str> = pages
        .iter()
        .find_map(|p| p["columns"].as_array())
        .map(|c| c.iter().filter_map(|c| c["type"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        types,
        [
            "varchar(57)",
            "varchar(14)",
            "varchar(14)",
            "varchar(7)",
            "varchar(142)"
        ]
    );
}

#[tokio::test]
async fn the_sessions_query_max_run_time_stops_a_query() {
    let mesh = Mesh::start().await;
    let started = std::time::Instant::now();
    let posted = mesh
        .post_with_session(ENDLESS, "query_max_run_time=500ms")
        .await;
    let pages = mesh.follow(posted).await;
    assert_eq!(error_of(&pages)["errorName"], "EXCEEDED_TIME_LIMIT");
    assert_eq!(
        error_of(&pages)["message"],
        "Query exceeded maximum time limit of 0.50s"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "stopped by the session's limit"
    );
}

/// `WITH SESSION query_max_run_time = '500ms'` limits the statement it leads, as the session's
/// property would (docs sql/select.md, WITH SESSION).
#[tokio::test]
async fn a_with_session_clause_limits_its_query() {
    let mesh = Mesh::start().await;
    let pages = mesh
        .run(&format!(
            "WITH SESSION query_max_run_time = '500ms' {ENDLESS}"
        ))
        .await;
    assert_eq!(error_of(&pages)["errorName"], "EXCEEDED_TIME_LIMIT");
    assert_eq!(
        error_of(&pages)["message"],
        "Query exceeded maximum time limit of 0.50s"
    );
}

/// An inline routine that loops forever (a recursive CTE running one step per row) ends at
/// the query's time limit, as Trino's would, with Trino's error.
#[tokio::test]
async fn an_endless_routine_stops_at_the_time_limit() {
    let mesh = Mesh::start().await;
    let endless = "WITH FUNCTION f() RETURNS bigint BEGIN DECLARE x bigint DEFAULT 0; \
                   WHILE true DO SET x = x + 1; END WHILE; RETURN x; END SELECT f()";
    let posted = mesh
        .post_with_session(endless, "query_max_run_time=500ms")
        .await;
    let pages = mesh.follow(posted).await;
    assert_eq!(error_of(&pages)["errorName"], "EXCEEDED_TIME_LIMIT");
}

/// docs functions/session: current_user is who runs the query; current_catalog and
/// current_schema the session's defaults (NULL without them).
#[tokio::test]
async fn current_user_catalog_and_schema() {
    let mesh = Mesh::start().await;
    let pages = mesh
        .run("SELECT current_user, current_catalog, current_schema")
        .await;
    assert_eq!(
        rows(&pages),
        vec![serde_json::json!(["ada", null, null])],
        "{pages:?}"
    );
}

/// SET ROLE (docs sql/set-role.md; SetRoleTask): ALL and NONE are the system roles a person
/// has, told as `X-Trino-Set-Role: system=ALL` on the last page; a named role does not exist
/// and no catalog manages roles (Trino 476's errors). COMMIT and ROLLBACK outside a
/// transaction are NOT_IN_TRANSACTION.
#[tokio::test]
async fn set_role_and_transaction_statements_answer_as_trinos() {
    let mesh = Mesh::start().await;
    let posted = mesh.post("SET ROLE ALL", &mesh.token()).await;
    let (pages, told) = mesh.follow_to_last_headers(posted).await;
    assert_eq!(
        told.get("x-trino-set-role")
            .map(|v| v.to_str().unwrap_or("")),
        Some("system=ALL")
    );
    assert!(rows(&pages).is_empty());
    assert_eq!(pages.last().unwrap()["updateType"], "SET ROLE");
    for (sql, name) in [
        ("SET ROLE admin", "ROLE_NOT_FOUND"),
        ("SET ROLE ALL IN tpch", "NOT_SUPPORTED"),
        ("COMMIT", "NOT_IN_TRANSACTION"),
        ("ROLLBACK", "NOT_IN_TRANSACTION"),
    ] {
        let posted = mesh.post(sql, &mesh.token()).await;
        let (pages, _) = mesh.follow_to_last_headers(posted).await;
        let error = error_of(&pages);
        assert_eq!(error["errorName"], name, "{sql}: {error}");
    }
}

//! The statement protocol: Trino's answer shape, paging through nextUri, idempotent and checked
//! fetches, refused and bad statements, the headers Trino clients send, prepared statements.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{ENDLESS, Mesh, NATION, error_of, rows};

#[tokio::test]
async fn a_query_answers_in_trinos_shape() {
    let mesh = Mesh::start().await;
    let pages = mesh.run(NATION).await;

    let first = &pages[0];
    let id = first["id"].as_str().expect("an id");
    let parts: Vec<&str> = id.split('_').collect();
    assert_eq!(
        parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
        [8, 6, 5, 5],
        "{id}"
    );
    assert_eq!(
        first["infoUri"],
        format!("{}/ui/query.html?{id}", mesh.url())
    );
    let next = first["nextUri"].as_str().expect("a nextUri");
    assert!(
        next.starts_with(&format!("{}/v1/statement/executing/{id}/", mesh.url())),
        "{next}"
    );
    for page in &pages {
        assert_eq!(page["id"], id);
        assert!(page["stats"].is_object() && page["infoUri"].is_string());
        assert_eq!(page["warnings"], json!([]));
        assert!(page.get("error").is_none());
    }

    let last = pages.last().expect("pages");
    assert_eq!(last["stats"]["state"], "FINISHED");
    assert!(last.get("nextUri").is_none());
    // Trino's StatementStats: progress once scheduled, none while queued.
    assert_eq!(first["stats"]["state"], "QUEUED");
    assert!(first["stats"].get("progressPercentage").is_none());
    assert_eq!(last["stats"]["progressPercentage"], 100.0);
    for field in [
        "queued",
        "scheduled",
        "nodes",
        "totalSplits",
        "queuedSplits",
        "runningSplits",
        "completedSplits",
        "cpuTimeMillis",
        "wallTimeMillis",
        "queuedTimeMillis",
        "elapsedTimeMillis",
        "processedRows",
        "processedBytes",
        "physicalInputBytes",
        "peakMemoryBytes",
        "spilledBytes",
    ] {
        assert!(last["stats"].get(field).is_some(), "stats.{field}");
    }
    assert_eq!(
        last["columns"],
        json!([
            {"name": "name", "type": "varchar(25)", "typeSignature":
                {"rawType": "varchar", "arguments": [{"kind": "LONG", "value": 25}]}},
            {"name": "regionkey", "type": "bigint", "typeSignature":
                {"rawType": "bigint", "arguments": []}},
        ])
    );
    let rows = rows(&pages);
    assert_eq!(rows.len(), 25);
    assert_eq!(rows[0], json!(["ALGERIA", 0]));
    assert_eq!(rows[24], json!(["UNITED STATES", 1]));

    // The info page exists while the query is remembered.
    let page = mesh.info_page(first).await;
    assert!(
        page.contains(id) && page.contains("State: FINISHED"),
        "{page}"
    );
}

#[tokio::test]
async fn large_results_page_through_next_uri() {
    let mesh = Mesh::start().await;
    let pages = mesh.run("SELECT * FROM tpch.tiny.lineitem").await;
    let with_data = pages.iter().filter(|p| p["data"].is_array()).count();
    assert!(with_data >= 3, "{with_data} pages held rows");
    assert_eq!(rows(&pages).len(), 60_175);
    for page in &pages[..pages.len() - 1] {
        assert!(page["nextUri"].is_string());
    }
    let last = pages.last().expect("pages");
    assert!(last.get("nextUri").is_none());
    assert_eq!(last["stats"]["processedRows"], 60_175);
}

#[tokio::test]
async fn next_uri_is_idempotent_and_checked() {
    let mesh = Mesh::start().await;
    let response = mesh
        .post("SELECT * FROM tpch.tiny.lineitem", &mesh.token())
        .await;
    let first: Value = response.json().await.expect("json");
    let next = first["nextUri"].as_str().expect("nextUri").to_string();
    let page = mesh.get(&next).await;
    assert_eq!(
        mesh.get(&next).await,
        page,
        "a repeated GET repeats the page"
    );

    let (prefix, token) = next.rsplit_once('/').expect("a token");
    let (query, _slug) = prefix.rsplit_once('/').expect("a slug");
    for (uri, status) in [
        (format!("{query}/wrongslug/{token}"), StatusCode::NOT_FOUND),
        (format!("{prefix}/99"), StatusCode::NOT_FOUND),
        (format!("{prefix}/x"), StatusCode::NOT_FOUND),
    ] {
        let response = mesh.client.get(&uri).send().await.expect("answers");
        assert_eq!(response.status(), status, "{uri}");
    }
    let second = page["nextUri"].as_str().expect("more pages").to_string();
    mesh.get(&second).await;
    let gone = mesh.client.get(&next).send().await.expect("answers");
    assert_eq!(
        gone.status(),
        StatusCode::GONE,
        "an older token's data is gone"
    );
}

#[tokio::test]
async fn concurrent_and_abandoned_fetches_lose_no_rows() {
    let mesh = Mesh::start().await;
    let token = mesh.token();
    // Two fetches of the same nextUri at once get the same page: rows are not split between
    // them, and the next page follows on.
    let first: Value = mesh
        .post("SELECT * FROM tpch.tiny.lineitem", &token)
        .await
        .json()
        .await
        .expect("json");
    let next = first["nextUri"].as_str().expect("nextUri").to_string();
    let (a, b) = tokio::join!(mesh.get(&next), mesh.get(&next));
    assert_eq!(a, b);
    assert!(!a["data"].as_array().expect("rows").is_empty());
    let mut pages = vec![first, a];
    while let Some(next) = pages.last().and_then(|p| p["nextUri"].as_str()) {
        let next = next.to_string();
        pages.push(mesh.get(&next).await);
    }
    assert_eq!(rows(&pages).len(), 60_175);

    // A client that hangs up while its GET waits for rows asks again and is answered.
    let first: Value = mesh.post(ENDLESS, &token).await.json().await.expect("json");
    let next = first["nextUri"].as_str().expect("nextUri").to_string();
    let hung_up = mesh
        .client
        .get(&next)
        .timeout(Duration::from_millis(50))
        .send()
        .await;
    assert!(hung_up.is_err(), "the page wait outlasts the client");
    let page = mesh.get(&next).await;
    assert!(page.get("error").is_none(), "{page}");
    let following = page["nextUri"].as_str().expect("still running");
    assert!(following.ends_with("/2"), "{following}");
    let deleted = mesh.client.delete(following).send().await.expect("answers");
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn refused_sql_fails_with_trinos_error() {
    let mesh = Mesh::start().await;
    let pages = mesh.run("SELECT nosuchcolumn FROM tpch.tiny.nation").await;
    let error = error_of(&pages);
    assert_eq!(error["errorName"], "COLUMN_NOT_FOUND");
    assert_eq!(error["errorType"], "USER_ERROR");
    let last = pages.last().expect("a page");
    assert!(last.get("nextUri").is_none());
    // Its infoUri answers, as a failed query's does in Trino.
    let page = mesh.info_page(last).await;
    assert!(page.contains("State: FAILED"), "{page}");

    // Failed already before its client reads the error, as in Trino.
    let posted = mesh.post("SELECT FROM", &mesh.token()).await;
    let first: Value = posted.json().await.expect("a QueryResults");
    assert_eq!(first["stats"]["state"], "QUEUED");
    let page = mesh.info_page(&first).await;
    assert!(page.contains("State: FAILED"), "{page}");
}

#[tokio::test]
async fn an_empty_statement_is_a_bad_request() {
    let mesh = Mesh::start().await;
    let response = mesh.post("", &mesh.token()).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        response.text().await.expect("text"),
        "SQL statement is empty"
    );
    // Trino refuses only an empty body; blank text is parsed, and fails as a query does.
    let pages = mesh.run("  \n").await;
    assert_eq!(error_of(&pages)["errorName"], "SYNTAX_ERROR");
}

#[tokio::test]
async fn an_oversized_statement_is_refused_with_trinos_limit() {
    let mesh = Mesh::start().await;
    // Trino's query.max-length: 1 000 000 characters (UTF-16 units, as Java counts).
    let long = format!("SELECT 1{}", " ".repeat(1_000_000 - 7));
    let response = mesh.post(&long, &mesh.token()).await;
    let pages = mesh.follow(response).await;
    let failed = pages.last().expect("a page");
    assert_eq!(failed["error"]["errorName"], "QUERY_TEXT_TOO_LARGE");
    assert_eq!(failed["error"]["errorCode"], 35);
    assert_eq!(
        failed["error"]["message"],
        "Query text length (1000001) exceeds the maximum length (1000000)"
    );
    let huge = format!("SELECT 1{}", " ".repeat(4_000_000));
    let response = mesh.post(&huge, &mesh.token()).await;
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        response.text().await.expect("text"),
        "Query text exceeds the maximum length (1000000)"
    );
    // Authentication still comes first.
    let response = mesh.post(&huge, "not-a-token").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_headers_trino_clients_send_are_understood() {
    let mesh = Mesh::start().await;
    let post = |session: &'static str| {
        mesh.client
            .post(format!("{}/v1/statement", mesh.url()))
            .bearer_auth(mesh.token())
            .header("X-Trino-User", "ada")
            .header("X-Trino-Catalog", "tpch")
            .header("X-Trino-Schema", "tiny")
            .header("X-Trino-Source", "trino-python-client")
            .header("X-Trino-Time-Zone", "Europe/Berlin")
            .header("X-Trino-Transaction-Id", "NONE")
            .header("X-Trino-Client-Capabilities", "PARAMETRIC_DATETIME")
            .header("X-Trino-Session", session)
            .body("SELECT count(*) FROM nation")
            .send()
    };
    for session in ["", "query_max_run_time=10m, tpch.split_size=4"] {
        let response = post(session).await.expect("answers");
        assert_eq!(response.status(), StatusCode::OK, "{session:?}");
        let first: Value = response.json().await.expect("json");
        let mut pages = vec![first];
        while let Some(next) = pages.last().and_then(|p| p["nextUri"].as_str()) {
            let next = next.to_string();
            pages.push(mesh.get(&next).await);
        }
        assert_eq!(rows(&pages), [json!([25])], "{session:?}");
    }
    // Trino parses X-Trino-Session as name=value pairs and answers 400 otherwise.
    for session in ["query_max_run_time", "=10m", "a.b.c=1"] {
        let response = post(session).await.expect("answers");
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{session:?}");
        assert_eq!(
            response.text().await.expect("text"),
            "Invalid X-Trino-Session header"
        );
    }
}

/// Prepared statements as Trino's clients hold them: the answer's headers, then each request
/// carrying what the client holds; refusals as Trino words them.
#[tokio::test]
async fn prepared_statements_travel_in_headers() {
    let mesh = Mesh::start().await;
    let send = |sql: &'static str, held: Option<&'static str>| {
        let mut request = mesh
            .client
            .post(format!("{}/v1/statement", mesh.url()))
            .bearer_auth(mesh.token())
            .body(sql);
        if let Some(held) = held {
            request = request.header("X-Trino-Prepared-Statement", held);
        }
        request.send()
    };
    let prepared = send(
        "PREPARE q FROM SELECT name FROM tpch.tiny.nation WHERE nationkey = ?",
        None,
    )
    .await
    .expect("answers");
    let (pages, told) = mesh.follow_to_last_headers(prepared).await;
    let added = told
        .get("x-trino-added-prepare")
        .expect("X-Trino-Added-Prepare")
        .to_str()
        .expect("text")
        .to_string();
    assert_eq!(
        added,
        "q=SELECT+name+FROM+tpch.tiny.nation+WHERE+nationkey+%3D+%3F"
    );
    // Trino 476: no columns, no rows, the updateType.
    assert!(rows(&pages).is_empty());
    assert_eq!(pages.last().expect("a page")["columns"], json!([]));
    assert_eq!(pages.last().expect("a page")["updateType"], "PREPARE");

    let held: &'static str = Box::leak(added.into_boxed_str());
    let executed = send("EXECUTE q USING 7", Some(held))
        .await
        .expect("answers");
    assert_eq!(rows(&mesh.follow(executed).await), vec![json!(["GERMANY"])]);

    let deallocated = send("DEALLOCATE PREPARE q", Some(held))
        .await
        .expect("answers");
    let (_, told) = mesh.follow_to_last_headers(deallocated).await;
    assert_eq!(
        told.get("x-trino-deallocated-prepare")
            .map(|v| v.as_bytes()),
        Some(&b"q"[..])
    );

    for (sql, name, message) in [
        ("EXECUTE q", "NOT_FOUND", "Prepared statement not found: q"),
        (
            "DEALLOCATE PREPARE q",
            "NOT_FOUND",
            "Prepared statement not found: q",
        ),
        ("PREPARE q FROM SELECT 1 +", "SYNTAX_ERROR", "line 1:"),
    ] {
        let pages = mesh.follow(send(sql, None).await.expect("answers")).await;
        let error = error_of(&pages);
        assert_eq!(error["errorName"], name, "{sql}");
        assert!(
            error["message"]
                .as_str()
                .unwrap_or_default()
                .contains(message),
            "{sql}: {error}"
        );
    }
    let malformed = send("EXECUTE q", Some("no-equals-sign"))
        .await
        .expect("answers");
    assert_eq!(malformed.status(), StatusCode::BAD_REQUEST);
}

/// What Trino's Java client (JDBC, the CLI) reads of the answers: the first with columns says
/// whether the statement is a query or an update (`updateType`), and what an update changed
/// in the session comes with the last answer (the client keeps the catalog and schema of the
/// last answer only). So, as Trino answers: no columns on the POST's (queued) answer, and the
/// session headers on the last page, none before.
#[tokio::test]
async fn an_update_tells_its_type_with_its_columns_and_its_changes_with_its_last_page() {
    let mesh = Mesh::start().await;
    for (sql, update_type, header, value) in [
        ("USE tpch.sf1", "USE", "x-trino-set-schema", "sf1"),
        (
            "SET SESSION query_max_run_time = '1h'",
            "SET SESSION",
            "x-trino-set-session",
            "query_max_run_time=1h",
        ),
        (
            "PREPARE p FROM SELECT 1",
            "PREPARE",
            "x-trino-added-prepare",
            "p=SELECT+1",
        ),
    ] {
        let posted = mesh.post(sql, &mesh.token()).await;
        let mut headers = vec![posted.headers().clone()];
        let first: Value = posted.json().await.expect("a QueryResults");
        assert!(first.get("columns").is_none(), "{sql}: {first}");
        assert!(first.get("updateType").is_none(), "{sql}: {first}");
        let mut pages = vec![first];
        while let Some(next) = pages.last().and_then(|p| p["nextUri"].as_str()) {
            let response = mesh.client.get(next).send().await.expect("answers");
            headers.push(response.headers().clone());
            pages.push(response.json().await.expect("a QueryResults"));
        }
        for page in &pages {
            if page.get("columns").is_some() {
                assert_eq!(page["updateType"], update_type, "{sql}: {page}");
            }
        }
        let (last, before) = headers.split_last().expect("answers");
        assert_eq!(
            last.get(header).map(|v| v.to_str().expect("text")),
            Some(value),
            "{sql}"
        );
        assert!(
            before.iter().all(|h| h.get(header).is_none()),
            "{sql}: told early"
        );
    }

    // A query's POST answer has no columns either; its pages bring them.
    let pages = mesh.run(NATION).await;
    assert!(pages[0].get("columns").is_none(), "{}", pages[0]);
    assert!(pages.last().expect("a page")["columns"].is_array());
}

/// DESCRIBE OUTPUT and DESCRIBE INPUT of a statement the client holds, which Trino's JDBC
/// driver asks for `getMetaData()` and `getParameterMetaData()` before the statement runs:
/// the answers Trino 476 gives (`DescribeOutputRewrite`, `DescribeInputRewrite`; checked
/// against it), and the access the described statement needs.
#[tokio::test]
async fn a_prepared_statement_is_described_before_it_runs() {
    let mesh = Mesh::start().await;
    let described = &mesh;
    let describe = |what: &'static str, statement: &str, token: String| {
        let held = format!(
            "q={}",
            form_urlencoded::byte_serialize(statement.as_bytes()).collect::<String>()
        );
        let request = mesh
            .client
            .post(format!("{}/v1/statement", mesh.url()))
            .bearer_auth(token)
            .header("X-Trino-Prepared-Statement", held)
            .body(format!("DESCRIBE {what} q"));
        async move {
            described
                .follow(request.send().await.expect("answers"))
                .await
        }
    };
    let columns = |pages: &[Value]| -> Vec<(String, String)> {
        let page = pages
            .iter()
            .find(|p| p["columns"].is_array())
            .expect("columns");
        page["columns"]
            .as_array()
            .expect("columns")
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or_default().to_string(),
                    c["type"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    };
    let statement =
        "SELECT name, regionkey + 1 AS next FROM tpch.tiny.nation WHERE name = ? AND regionkey < ?";

    let output = describe("OUTPUT", statement, mesh.token()).await;
    assert_eq!(
        columns(&output),
        [
            ("Column Name", "varchar(4)"),
            ("Catalog", "varchar(4)"),
            ("Schema", "varchar(4)"),
            ("Table", "varchar(6)"),
            ("Type", "varchar(11)"),
            ("Type Size", "integer"),
            ("Aliased", "boolean"),
        ]
        .map(|(n, t)| (n.to_string(), t.to_string()))
    );
    assert_eq!(
        rows(&output),
        [
            json!(["name", "tpch", "tiny", "nation", "varchar(25)", 0, false]),
            json!(["next", "", "", "", "bigint", 8, true]),
        ]
    );
    let input = describe("INPUT", statement, mesh.token()).await;
    assert_eq!(
        rows(&input),
        [json!([0, "varchar(25)"]), json!([1, "bigint"])]
    );

    // Origins through subqueries, WITH and the first term of a UNION; the coercions of
    // IN, BETWEEN, LIKE … ESCAPE, LIMIT and a bare WHERE parameter; fixed sizes by type.
    for (what, statement, expected) in [
        (
            "OUTPUT",
            "WITH t AS (SELECT name FROM tpch.tiny.nation) SELECT x FROM (SELECT name AS x FROM t) UNION SELECT name FROM tpch.tiny.region",
            vec![json!([
                "x",
                "tpch",
                "tiny",
                "nation",
                "varchar(25)",
                0,
                false
            ])],
        ),
        (
            "INPUT",
            "SELECT totalprice FROM tpch.tiny.orders WHERE orderkey IN (?, ?) AND totalprice BETWEEN ? AND 1 AND orderstatus LIKE ? ESCAPE ? AND ? LIMIT ?",
            vec![
                json!([0, "bigint"]),
                json!([1, "bigint"]),
                json!([2, "double"]),
                json!([3, "varchar"]),
                json!([4, "varchar"]),
                json!([5, "boolean"]),
                json!([6, "bigint"]),
            ],
        ),
        (
            "OUTPUT",
            "SELECT true AS b, CAST(1 AS smallint) s, DATE '2020-01-01' d, 1e0 AS x, CAST(1 AS decimal(30, 2)) AS l, TIMESTAMP '2020-01-01 00:00:00.1234 UTC' AS z, ARRAY[1] AS a, ?",
            vec![
                json!(["b", "", "", "", "boolean", 1, true]),
                json!(["s", "", "", "", "smallint", 2, true]),
                json!(["d", "", "", "", "date", 4, true]),
                json!(["x", "", "", "", "double", 8, true]),
                json!(["l", "", "", "", "decimal(30,2)", 16, true]),
                json!(["z", "", "", "", "timestamp(4) with time zone", 12, true]),
                json!(["a", "", "", "", "array(integer)", 0, true]),
                json!(["_col7", "", "", "", "unknown", 1, false]),
            ],
        ),
        ("INPUT", "SELECT * FROM tpch.tiny.region", vec![]),
        ("OUTPUT", "SET SESSION query_max_run_time = '1h'", vec![]),
    ] {
        let pages = describe(what, statement, mesh.token()).await;
        assert_eq!(rows(&pages), expected, "{what} {statement}");
    }

    // Nothing to describe: the columns are there, typed, with no rows.
    let empty = describe("INPUT", "SELECT 1", mesh.token()).await;
    assert_eq!(
        columns(&empty),
        [("Position", "bigint"), ("Type", "varchar")].map(|(n, t)| (n.to_string(), t.to_string()))
    );

    // Refusals: as the statement's analysis refuses it, or as Trino refuses to describe it
    // (access: access_control.rs).
    for (statement, name) in [
        (
            "SELECT nope FROM tpch.tiny.nation WHERE name = ?",
            "COLUMN_NOT_FOUND",
        ),
        ("USE tpch.sf1", "NOT_SUPPORTED"),
    ] {
        let pages = describe("OUTPUT", statement, mesh.token()).await;
        assert_eq!(error_of(&pages)["errorName"], name, "{statement}");
    }
    let unknown = mesh
        .follow(
            mesh.client
                .post(format!("{}/v1/statement", mesh.url()))
                .bearer_auth(mesh.token())
                .body("DESCRIBE OUTPUT nothing_held")
                .send()
                .await
                .expect("answers"),
        )
        .await;
    assert_eq!(error_of(&unknown)["errorName"], "NOT_FOUND");
}

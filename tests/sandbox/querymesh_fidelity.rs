//! The QueryMesh stand-in against Trino's finer points, over the statement protocol: the
//! grammar of OFFSET / LIMIT / FETCH, doubles written as Java writes them, exploration that
//! shows only what the person may see, and USE answering with the session headers.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use zero_sandbox::identity::jws;
use zero_sandbox::identity::unix_now;
use zero_sandbox::oidc::{QUERYMESH_AUDIENCE, QUERYMESH_SCOPE};
use zero_sandbox::{Config, Sandbox};

use crate::support;

/// How long a test waits for a query before it fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(30);

struct Mesh {
    sandbox: Sandbox,
    client: reqwest::Client,
}

/// One statement's answer: the POST response's headers and every page, in order.
struct Answer {
    headers: reqwest::header::HeaderMap,
    /// Each page's body as sent, to check how numbers are written.
    texts: Vec<String>,
    pages: Vec<Value>,
}

impl Answer {
    fn rows(&self) -> Vec<Value> {
        self.pages
            .iter()
            .filter_map(|p| p["data"].as_array())
            .flatten()
            .cloned()
            .collect()
    }

    /// The first cell of each row, as text.
    fn firsts(&self) -> Vec<String> {
        self.rows()
            .iter()
            .map(|r| {
                r[0].as_str()
                    .map_or_else(|| r[0].to_string(), str::to_string)
            })
            .collect()
    }

    fn error(&self) -> &Value {
        let last = self.pages.last().expect("a response");
        assert_eq!(last["stats"]["state"], "FAILED", "{last}");
        &last["error"]
    }

    fn succeeded(&self) -> &Self {
        let last = self.pages.last().expect("a response");
        assert_eq!(last["stats"]["state"], "FINISHED", "{last}");
        self
    }
}

impl Mesh {
    async fn start(config: Config) -> Self {
        Self {
            sandbox: support::start_with(config).await,
            client: support::client(),
        }
    }

    /// An access token the IAM would issue to `sub` in `groups`.
    fn token(&self, sub: &str, groups: &[&str]) -> String {
        let now = unix_now();
        let claims = json!({
            "iss": self.sandbox.realm_url(),
            "sub": sub,
            "aud": [QUERYMESH_AUDIENCE],
            "exp": now + 300,
            "iat": now,
            "scope": format!("openid {QUERYMESH_SCOPE}"),
            "groups": groups,
        });
        jws::sign(&self.sandbox.iam_keys().current(), "JWT", &claims)
    }

    /// Posts `sql` as `who` with the session `headers`.
    async fn post(
        &self,
        who: (&str, &[&str]),
        headers: &[(&str, &str)],
        sql: &str,
    ) -> reqwest::Response {
        let mut request = self
            .client
            .post(format!(
                "{}/v1/statement",
                self.sandbox.endpoints().querymesh_url()
            ))
            .bearer_auth(self.token(who.0, who.1))
            .body(sql.to_string());
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("the stand-in answers")
    }

    /// Runs `sql` as `who` with the session `headers`, following `nextUri` to the end.
    async fn run_with(&self, who: (&str, &[&str]), headers: &[(&str, &str)], sql: &str) -> Answer {
        let response = self.post(who, headers, sql).await;
        assert_eq!(response.status(), StatusCode::OK, "{sql}");
        let headers = response.headers().clone();
        let mut texts = vec![response.text().await.expect("a body")];
        let mut pages: Vec<Value> = vec![serde_json::from_str(&texts[0]).expect("JSON")];
        let deadline = Instant::now() + PATIENCE;
        while let Some(next) = pages.last().and_then(|p| p["nextUri"].as_str()) {
            assert!(Instant::now() < deadline, "{sql} did not end");
            let next = next.to_string();
            let response = self.client.get(&next).send().await.expect("answers");
            assert_eq!(response.status(), StatusCode::OK, "GET {next}");
            let text = response.text().await.expect("a body");
            pages.push(serde_json::from_str(&text).expect("JSON"));
            texts.push(text);
        }
        Answer {
            headers,
            texts,
            pages,
        }
    }

    async fn run_as(&self, who: (&str, &[&str]), sql: &str) -> Answer {
        self.run_with(who, &[], sql).await
    }

    async fn run(&self, sql: &str) -> Answer {
        self.run_as(ADA, sql).await
    }
}

const ADA: (&str, &[&str]) = ("ada", &["analysts"]);
const GRACE: (&str, &[&str]) = ("grace", &["engineering"]);
const EVE: (&str, &[&str]) = ("eve", &["contractors"]);

/// The 1-based column of `needle` in one-line `sql`, as Trino reports positions.
fn column_of(sql: &str, needle: &str) -> usize {
    sql.find(needle).expect("the needle is in the SQL") + 1
}

// ---- OFFSET / LIMIT / FETCH ----

const NATIONS: &str = "SELECT name FROM tpch.tiny.nation ORDER BY nationkey";

#[tokio::test]
async fn row_count_clauses_take_trinos_order_and_forms() {
    let mesh = Mesh::start(support::test_config()).await;
    for (tail, expected) in [
        ("OFFSET 2 LIMIT 3", vec!["BRAZIL", "CANADA", "EGYPT"]),
        ("OFFSET 2 ROWS LIMIT 3", vec!["BRAZIL", "CANADA", "EGYPT"]),
        (
            "OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY",
            vec!["BRAZIL", "CANADA", "EGYPT"],
        ),
        ("FETCH NEXT ROW ONLY", vec!["ALGERIA"]),
        (
            "OFFSET 23 LIMIT ALL",
            vec!["UNITED KINGDOM", "UNITED STATES"],
        ),
        ("offset 24 row", vec!["UNITED STATES"]),
    ] {
        let answer = mesh.run(&format!("{NATIONS} {tail}")).await;
        assert_eq!(answer.succeeded().firsts(), expected, "{tail}");
    }
    let all = mesh.run(&format!("{NATIONS} LIMIT ALL")).await;
    assert_eq!(all.succeeded().rows().len(), 25);
    // In a subquery too, and a column may still be called limit or offset.
    let inner = mesh
        .run("SELECT count(*) FROM (SELECT name AS offset FROM tpch.tiny.nation OFFSET 20)")
        .await;
    assert_eq!(inner.succeeded().rows(), vec![json!([5])]);
}

#[tokio::test]
async fn row_count_clauses_trino_rejects_are_syntax_errors() {
    let mesh = Mesh::start(support::test_config()).await;
    for (sql, found, expecting) in [
        (format!("{NATIONS} LIMIT 5 OFFSET 2"), "OFFSET", "<EOF>"),
        (format!("{NATIONS} limit all offset 2"), "offset", "<EOF>"),
        (
            "SELECT * FROM (SELECT name FROM tpch.tiny.nation LIMIT 5 OFFSET 2)".to_string(),
            "OFFSET",
            "')'",
        ),
        (
            format!("{NATIONS} LIMIT 3 FETCH FIRST 1 ROWS ONLY"),
            "FETCH",
            "<EOF>",
        ),
        (
            format!("{NATIONS} FETCH 3 ROWS ONLY"),
            "3",
            "'FIRST', 'NEXT'",
        ),
        (
            format!("{NATIONS} FETCH FIRST 3 ONLY"),
            "ONLY",
            "'ROW', 'ROWS'",
        ),
        (
            format!("{NATIONS} OFFSET 2 + 1"),
            "+",
            "'FETCH', 'LIMIT', <EOF>",
        ),
        (
            format!("{NATIONS} LIMIT 2.5"),
            "2.5",
            "'?', 'ALL', <integer>",
        ),
        (format!("{NATIONS} LIMIT -1"), "-", "'?', 'ALL', <integer>"),
        (format!("{NATIONS} OFFSET (2)"), "(", "'?', <integer>"),
        (
            "SELECT name FROM tpch.tiny.nation LIMIT 5 ORDER BY name".to_string(),
            "ORDER",
            "<EOF>",
        ),
        (
            "SELECT name FROM tpch.tiny.nation OFFSET 5 ORDER BY name".to_string(),
            "ORDER",
            "'FETCH', 'LIMIT', <EOF>",
        ),
    ] {
        let answer = mesh.run(&sql).await;
        let error = answer.error();
        assert_eq!(error["errorName"], "SYNTAX_ERROR", "{sql}: {error}");
        let column = column_of(&sql, &format!(" {found}")) + 1;
        assert_eq!(
            error["message"],
            format!("line 1:{column}: mismatched input '{found}'. Expecting: {expecting}"),
            "{sql}"
        );
        assert_eq!(
            error["errorLocation"],
            json!({"lineNumber": 1, "columnNumber": column})
        );
    }
    // A parenthesized set operand is Trino's queryNoWith: no WITH (a FROM subquery may).
    let sql = "SELECT 1 UNION (WITH a AS (SELECT 2 x) SELECT x FROM a)";
    assert_eq!(
        mesh.run(sql).await.error()["message"],
        format!(
            "line 1:{}: mismatched input 'WITH'. Expecting: '(', 'SELECT', 'TABLE', 'VALUES'",
            column_of(sql, "WITH")
        )
    );
    let derived = mesh
        .run("SELECT x FROM (WITH a AS (SELECT 2 x) SELECT x FROM a)")
        .await;
    assert_eq!(derived.succeeded().rows(), vec![json!([2])]);
    // Missing ONLY: Trino reports the end of the statement.
    let sql = format!("{NATIONS} FETCH FIRST 3 ROWS");
    let answer = mesh.run(&sql).await;
    assert_eq!(
        answer.error()["message"],
        format!(
            "line 1:{}: mismatched input '<EOF>'. Expecting: 'ONLY', 'WITH'",
            sql.len() + 1
        )
    );
}

// ---- literals and aliases sqlparser reads differently ----

#[tokio::test]
async fn integer_spellings_and_string_aliases_are_trinos() {
    let mesh = Mesh::start(support::test_config()).await;
    // SqlBase.g4 INTEGER_VALUE: `_` between digits, hexadecimal, octal and binary.
    let answer = mesh
        .run("SELECT 1_000, 0x1F, 0b101, 0o17, 1_000.5, 9_000_000_000")
        .await;
    assert_eq!(
        answer.succeeded().rows(),
        vec![json!([1000, 31, 5, 15, "1000.5", 9_000_000_000u64])]
    );
    let types: Vec<&str> = answer.pages.last().expect("a page")["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .map(|c| c["type"].as_str().expect("a type"))
        .collect();
    assert_eq!(
        types,
        [
            "integer",
            "integer",
            "integer",
            "integer",
            "decimal(5, 1)",
            "bigint"
        ]
    );
    let ten = mesh
        .run("SELECT count(*) FROM (SELECT name FROM tpch.tiny.nation LIMIT 1_0)")
        .await;
    assert_eq!(ten.succeeded().rows(), vec![json!([10])]);
    // An alias is an identifier in Trino, never a string.
    for (sql, found) in [
        ("SELECT 'a' 'b'", "'b'"),
        ("SELECT name FROM tpch.tiny.nation 'n'", "'n'"),
    ] {
        let error = mesh.run(sql).await.error().clone();
        assert_eq!(error["errorName"], "SYNTAX_ERROR", "{sql}");
        assert_eq!(
            error["message"],
            format!(
                "line 1:{}: mismatched input '{found}'",
                column_of(sql, found)
            )
        );
    }
}

// ---- doubles ----

#[tokio::test]
async fn doubles_are_written_as_java_writes_them() {
    let mesh = Mesh::start(support::test_config()).await;
    let answer = mesh
        .run(
            "SELECT 1e7, 9999999e0, 12345678e0, 1e-4, 0.001e0, 100e0, 0.1e0 + 0.2e0, \
             4.9e-324, 1.7976931348623157e308, -2.5e10, CAST(0.1 AS real), \
             CAST(1e7 AS varchar), CAST(CAST(0.1 AS real) AS varchar)",
        )
        .await;
    answer.succeeded();
    let text = answer.texts.concat();
    let expected = r#"[[1.0E7,9999999.0,1.2345678E7,1.0E-4,0.001,100.0,0.30000000000000004,4.9E-324,1.7976931348623157E308,-2.5E10,0.1,"1.0E7","0.1"]]"#;
    assert!(
        text.contains(&format!("\"data\":{expected}")),
        "data as Trino writes it: {expected}\nin {text}"
    );
    // Every page is still JSON that any parser reads as numbers.
    assert_eq!(answer.rows()[0][0].as_f64(), Some(1e7));
    let big = mesh
        .run("SELECT sum(totalprice) > 1e9, max(totalprice) FROM tpch.tiny.orders")
        .await;
    assert_eq!(big.succeeded().rows(), vec![json!([true, 466001.28])]);
}

// ---- exploration under data policies ----

const RULES: &str = r#"{
    "catalogs": [
        {"group": "contractors", "allow": "none"},
        {"allow": "read-only"}
    ],
    "tables": [
        {"group": "analysts", "table": "customer", "privileges": ["SELECT"],
         "columns": [{"name": "phone", "allow": false}]},
        {"group": "analysts", "privileges": ["SELECT"]},
        {"table": "region", "privileges": ["SELECT"]}
    ]
}"#;

async fn mesh_with_rules() -> (Mesh, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let rules = dir.path().join("rules.json");
    std::fs::write(&rules, RULES).expect("writes");
    let config = Config::from_toml(
        &format!(
            "[querymesh]\naccess_control = {:?}\n",
            rules.display().to_string()
        ),
        "test.toml",
    )
    .expect("a valid configuration")
    .with_ephemeral_ports();
    (Mesh::start(config).await, dir)
}

fn denied(answer: &Answer, message: &str) {
    let error = answer.error();
    assert_eq!(error["errorName"], "PERMISSION_DENIED", "{error}");
    assert_eq!(error["message"], message);
}

#[tokio::test]
async fn exploration_lists_only_what_the_person_may_see() {
    let (mesh, _dir) = mesh_with_rules().await;
    let all_tables = [
        "customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier",
    ];
    // Ada sees every table, and every column but customer phone numbers.
    let tables = mesh.run("SHOW TABLES FROM tpch.tiny").await;
    assert_eq!(tables.succeeded().firsts(), all_tables);
    for sql in [
        "SHOW COLUMNS FROM tpch.tiny.customer",
        "DESCRIBE tpch.tiny.customer",
        "SELECT column_name FROM tpch.information_schema.columns \
         WHERE table_name = 'customer' ORDER BY ordinal_position",
    ] {
        let columns = mesh.run(sql).await;
        assert_eq!(
            columns.succeeded().firsts(),
            [
                "custkey",
                "name",
                "address",
                "nationkey",
                "acctbal",
                "mktsegment",
                "comment"
            ],
            "{sql}"
        );
    }

    // Grace's only grant is region.
    let tables = mesh.run_as(GRACE, "SHOW TABLES FROM tpch.tiny").await;
    assert_eq!(tables.succeeded().firsts(), ["region"]);
    let listed = mesh
        .run_as(
            GRACE,
            "SELECT table_name FROM tpch.information_schema.tables WHERE table_schema = 'tiny'",
        )
        .await;
    assert_eq!(listed.succeeded().firsts(), ["region"]);
    let columns = mesh
        .run_as(
            GRACE,
            "SELECT DISTINCT table_name FROM tpch.information_schema.columns \
             WHERE table_schema = 'tiny'",
        )
        .await;
    assert_eq!(columns.succeeded().firsts(), ["region"]);
    let schemas = mesh.run_as(GRACE, "SHOW SCHEMAS FROM tpch").await;
    assert_eq!(schemas.succeeded().firsts(), ["information_schema", "tiny"]);
    denied(
        &mesh.run_as(GRACE, "DESCRIBE tpch.tiny.nation").await,
        "Access Denied: Cannot show columns of table tpch.tiny.nation",
    );
    // A table that does not exist is still TABLE_NOT_FOUND, checked first as in Trino.
    let missing = mesh.run_as(GRACE, "DESCRIBE tpch.tiny.nosuch").await;
    assert_eq!(missing.error()["errorName"], "TABLE_NOT_FOUND");

    // Eve's group may not use the catalog at all.
    let catalogs = mesh.run_as(EVE, "SHOW CATALOGS").await;
    assert!(
        catalogs.succeeded().rows().is_empty(),
        "{:?}",
        catalogs.rows()
    );
    denied(
        &mesh.run_as(EVE, "SHOW SCHEMAS FROM tpch").await,
        "Access Denied: Cannot show schemas",
    );
    denied(
        &mesh.run_as(EVE, "SHOW TABLES FROM tpch.tiny").await,
        "Access Denied: Cannot show tables of schema tpch.tiny",
    );
    // Trino checks access before existence here.
    denied(
        &mesh.run_as(EVE, "SHOW TABLES FROM nosuch.tiny").await,
        "Access Denied: Cannot show tables of schema nosuch.tiny",
    );
    denied(
        &mesh.run_as(EVE, "SHOW SCHEMAS FROM nosuch").await,
        "Access Denied: Cannot show schemas",
    );
    denied(
        &mesh
            .run_as(EVE, "SELECT * FROM tpch.information_schema.tables")
            .await,
        "Access Denied: Cannot select from table tpch.information_schema.tables",
    );
    denied(
        &mesh.run_as(EVE, "USE tpch.tiny").await,
        "Access Denied: Cannot access catalog tpch",
    );
    let catalogs = mesh.run_as(GRACE, "SHOW CATALOGS").await;
    assert_eq!(catalogs.succeeded().firsts(), ["tpch"]);
}

// ---- USE ----

#[tokio::test]
async fn use_answers_with_trinos_session_headers() {
    let mesh = Mesh::start(support::test_config()).await;
    let header = |a: &Answer, name: &str| {
        a.headers
            .get(name)
            .map(|v| v.to_str().expect("text").to_string())
    };
    let both = mesh.run("USE tpch.tiny").await;
    both.succeeded();
    // Trino's answer to a statement without output: one boolean `result`, true.
    let columns = both.pages.last().expect("a page")["columns"].clone();
    assert_eq!(columns[0]["name"], "result", "{columns}");
    assert_eq!(columns[0]["type"], "boolean", "{columns}");
    assert_eq!(both.rows(), vec![json!([true])]);
    let last = both.pages.last().expect("a page");
    assert_eq!(last["updateType"], "USE", "{last}");
    let select = mesh.run("SELECT 1").await;
    let last = select.pages.last().expect("a page");
    assert!(last.get("updateType").is_none(), "a read has none: {last}");
    assert_eq!(
        header(&both, "x-trino-set-catalog").as_deref(),
        Some("tpch")
    );
    assert_eq!(header(&both, "x-trino-set-schema").as_deref(), Some("tiny"));

    let tpch = [("X-Trino-Catalog", "tpch")];
    let schema_only = mesh.run_with(ADA, &tpch, "use TINY").await;
    schema_only.succeeded();
    assert_eq!(header(&schema_only, "x-trino-set-catalog"), None);
    assert_eq!(
        header(&schema_only, "x-trino-set-schema").as_deref(),
        Some("tiny")
    );

    for (headers, sql, name, message) in [
        (
            &[][..],
            "USE tiny",
            "MISSING_CATALOG_NAME",
            "line 1:1: Catalog must be specified when session catalog is not set",
        ),
        (
            &[][..],
            "USE nosuch.tiny",
            "CATALOG_NOT_FOUND",
            "Catalog 'nosuch' not found",
        ),
        (
            &tpch[..],
            "USE nosuch",
            "NOT_FOUND",
            "Schema does not exist: tpch.nosuch",
        ),
        (
            &[][..],
            "USE tpch.tiny.nation",
            "SYNTAX_ERROR",
            "line 1:14: mismatched input '.'. Expecting: <EOF>",
        ),
    ] {
        let answer = mesh.run_with(ADA, headers, sql).await;
        assert_eq!(answer.error()["errorName"], name, "{sql}");
        assert_eq!(answer.error()["message"], message, "{sql}");
        assert_eq!(header(&answer, "x-trino-set-schema"), None, "{sql}");
    }
}

// ---- what the Java client (Trino CLI, JDBC) requires ----

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

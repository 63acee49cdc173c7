//! Statements deep or wide enough to overflow a stack or to pass SQLite's limits: each runs,
//! or fails with a Trino error — never a crash of the process (src/querymesh/engine/sql/limits.rs).
//!
//! Trino's own parser answers a statement its stack cannot hold with `line 1:1: statement is
//! too large (stack overflow while parsing)`, a SYNTAX_ERROR (trinodb/trino
//! core/trino-parser/.../SqlParser.java `invokeParser`; TestSqlParser
//! `testStackOverflowStatement`), which the stand-in gives too.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};
use zero_sandbox::Sandbox;
use zero_sandbox::identity::{jws, unix_now};
use zero_sandbox::oidc::{QUERYMESH_AUDIENCE, QUERYMESH_SCOPE};
use zero_sandbox::querymesh::engine::Engine;

use crate::engine_harness::{engine, run};
use crate::support::{self, sign_in};

const TOO_LARGE: &str =
    "SYNTAX_ERROR: line 1:1: statement is too large (stack overflow while parsing)";
/// The stand-in's refusal of what only SQLite's limits stop.
const SQLITE_LIMIT: &str = "NOT_SUPPORTED: The query is too large for the QueryMesh stand-in";

/// tokio's worker and blocking threads have 2 MiB stacks; so does the thread each case runs on.
const WORKER_STACK: usize = 2 << 20;

/// `item sep item sep …`, `n` items.
fn chain(item: &str, sep: &str, n: usize) -> String {
    vec![item; n].join(sep)
}

/// `open … item … close`, nested `n` deep.
fn nest(open: &str, item: &str, close: &str, n: usize) -> String {
    format!("{}{item}{}", open.repeat(n), close.repeat(n))
}

/// What a statement must come to.
#[derive(Clone, Debug)]
enum Expect {
    /// The first column of the first row.
    Value(Value),
    /// An error starting with this (`ERROR_NAME: message`).
    Error(&'static str),
}

fn check(engine: &Engine, name: &str, sql: &str, expect: &Expect) {
    let got = run(engine, sql).map(|a| a.rows.first().and_then(|r| r.first()).cloned());
    let ok = match (&got, expect) {
        (Ok(Some(v)), Expect::Value(want)) => v == want,
        (Err(e), Expect::Error(prefix)) => e.starts_with(prefix),
        _ => false,
    };
    let shown = |r: &Result<Option<Value>, String>| match r {
        Ok(v) => format!("{v:?}").chars().take(200).collect::<String>(),
        Err(e) => e.chars().take(300).collect(),
    };
    assert!(ok, "{name}: expected {expect:?}, got {}", shown(&got));
}

/// Runs `f` on a thread with a worker's stack: an overflow aborts the whole test binary.
fn on_worker_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic");
}

fn cases() -> Vec<(&'static str, String, Expect)> {
    use Expect::*;
    let n = |v: i64| Value(json!(v));
    let t = Value(json!(true));
    let x = "FROM (VALUES 1) t (x)";
    vec![
        // Operator chains: analysed in a loop, whatever their length up to MAX_CHAIN.
        ("950 +", format!("SELECT {}", chain("1", "+", 950)), n(950)),
        (
            "3000 -",
            format!("SELECT 3000 - {}", chain("1", "-", 2999)),
            n(1),
        ),
        ("2000 *", format!("SELECT {}", chain("1", "*", 2000)), n(1)),
        (
            "300 + of a column",
            format!("SELECT {} {x}", chain("x", "+", 300)),
            n(300),
        ),
        // qm_int around every integer addition: past SQLite's expression depth of 1000.
        (
            "900 + of a column",
            format!("SELECT {} {x}", chain("x", "+", 900)),
            Error(SQLITE_LIMIT),
        ),
        (
            "1000 AND",
            format!("SELECT {}", chain("true", " AND ", 1000)),
            t.clone(),
        ),
        (
            "1000 OR",
            format!("SELECT {}", chain("false", " OR ", 999) + " OR true"),
            t.clone(),
        ),
        (
            "3998 AND, the longest chain",
            format!("SELECT {}", chain("true", " AND ", 3999)),
            t.clone(),
        ),
        (
            "3998 + of a column, the longest chain",
            format!("SELECT {} {x}", chain("x", "+", 3999)),
            Error(SQLITE_LIMIT),
        ),
        (
            "1000 AND of a column",
            format!("SELECT {} {x}", chain("x = 1", " AND ", 1000)),
            t.clone(),
        ),
        (
            "3000 mixed AND OR",
            format!("SELECT {}", chain("true AND false", " OR ", 1500)),
            Value(json!(false)),
        ),
        (
            "1000 ||",
            format!("SELECT length({})", chain("'ab'", " || ", 1000)),
            n(2000),
        ),
        (
            "comparisons",
            format!("SELECT {}", chain("1", " = ", 100)),
            Error("TYPE_MISMATCH"),
        ),
        (
            "past MAX_CHAIN",
            format!("SELECT {}", chain("1", "+", 5000)),
            Error(TOO_LARGE),
        ),
        (
            "past MAX_CHAIN in a function",
            format!("SELECT abs({})", chain("1", "+", 5000)),
            Error(TOO_LARGE),
        ),
        (
            "a 1 MB chain",
            format!("SELECT {}", chain("1", "+", 499_000)),
            Error(TOO_LARGE),
        ),
        // Chains sqlparser builds but the analysis recurses into: refused by the stack.
        (
            "3990 IS NULL",
            format!("SELECT 1{}", " IS NULL".repeat(3990)),
            Error(TOO_LARGE),
        ),
        (
            "3990 IN",
            format!("SELECT 1{}", " IN (true)".repeat(3990)),
            Error(TOO_LARGE),
        ),
        // Nesting: sqlparser's recursion limit, the analysis's stack budget.
        (
            "30 parentheses",
            format!("SELECT {}", nest("(", "1", ")", 30)),
            n(1),
        ),
        (
            "60 parentheses",
            format!("SELECT {}", nest("(", "1", ")", 60)),
            Error(TOO_LARGE),
        ),
        (
            "30 unary minus",
            format!("SELECT {}1", "- ".repeat(30)),
            n(1),
        ),
        (
            "31 unary minus",
            format!("SELECT {}1", "- ".repeat(31)),
            n(-1),
        ),
        (
            "500 unary minus",
            format!("SELECT {}1", "- ".repeat(500)),
            Error(TOO_LARGE),
        ),
        (
            "30 NOT",
            format!("SELECT {}true", "NOT ".repeat(30)),
            t.clone(),
        ),
        (
            "500 NOT",
            format!("SELECT {}true", "NOT ".repeat(500)),
            Error("SYNTAX_ERROR"),
        ),
        (
            "30 CASE",
            format!("SELECT {}", nest("CASE WHEN true THEN ", "1", " END", 30)),
            n(1),
        ),
        (
            "500 CASE",
            format!("SELECT {}", nest("CASE WHEN true THEN ", "1", " END", 500)),
            Error("SYNTAX_ERROR"),
        ),
        (
            "30 CASE in ELSE",
            format!(
                "SELECT {}",
                nest("CASE WHEN false THEN 0 ELSE ", "1", " END", 30)
            ),
            n(1),
        ),
        (
            "a CASE of 2000 WHEN",
            format!(
                "SELECT CASE {} ELSE 0 END",
                chain("WHEN false THEN 1", " ", 1999) + " WHEN true THEN 2"
            ),
            n(2),
        ),
        (
            "30 abs",
            format!("SELECT {}", nest("abs(", "-1", ")", 30)),
            n(1),
        ),
        (
            "500 abs",
            format!("SELECT {}", nest("abs(", "-1", ")", 500)),
            Error(TOO_LARGE),
        ),
        (
            "coalesce of 900",
            format!("SELECT coalesce({}, 7)", chain("NULL", ", ", 899)),
            n(7),
        ),
        (
            "coalesce of 5000",
            format!("SELECT coalesce({}, 7)", chain("NULL", ", ", 4999)),
            Error(SQLITE_LIMIT),
        ),
        (
            "IN of 20000",
            format!(
                "SELECT 19999 IN ({})",
                (0..20_000)
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            t.clone(),
        ),
        (
            "30 CAST",
            format!("SELECT {}", nest("CAST(", "1", " AS bigint)", 30)),
            n(1),
        ),
        (
            "500 CAST",
            format!("SELECT {}", nest("CAST(", "1", " AS bigint)", 500)),
            Error(TOO_LARGE),
        ),
        (
            "12 scalar subqueries",
            format!("SELECT {}", nest("(SELECT ", "1", ")", 12)),
            n(1),
        ),
        (
            "100 scalar subqueries",
            format!("SELECT {}", nest("(SELECT ", "1", ")", 100)),
            Error(TOO_LARGE),
        ),
        (
            "10 IN subqueries",
            format!(
                "SELECT 1 IN {}",
                nest("(SELECT 1 WHERE 1 IN ", "(SELECT 1)", ")", 10)
            ),
            t.clone(),
        ),
        (
            "100 IN subqueries",
            format!(
                "SELECT 1 IN {}",
                nest("(SELECT 1 WHERE 1 IN ", "(SELECT 1)", ")", 100)
            ),
            Error(TOO_LARGE),
        ),
        (
            "10 EXISTS",
            format!(
                "SELECT {}",
                nest("EXISTS (SELECT 1 WHERE ", "true", ")", 10)
            ),
            t.clone(),
        ),
        (
            "100 EXISTS",
            format!(
                "SELECT {}",
                nest("EXISTS (SELECT 1 WHERE ", "true", ")", 100)
            ),
            Error(TOO_LARGE),
        ),
        (
            "10 derived tables",
            format!(
                "SELECT * FROM {}",
                nest("(SELECT * FROM ", "(SELECT 1)", ")", 10)
            ),
            n(1),
        ),
        (
            "100 derived tables",
            format!(
                "SELECT * FROM {}",
                nest("(SELECT * FROM ", "(SELECT 1)", ")", 100)
            ),
            Error(TOO_LARGE),
        ),
        // Set operations: a loop, compounds of at most 100 terms (SQLite takes 500).
        (
            "500 UNION ALL",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " UNION ALL ", 501)
            ),
            n(501),
        ),
        (
            "2500 UNION ALL",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " UNION ALL ", 2500)
            ),
            n(2500),
        ),
        (
            "2500 UNION ALL of a table",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT regionkey FROM region", " UNION ALL ", 2500)
            ),
            n(12_500),
        ),
        (
            "1000 UNION",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " UNION ", 1000)
            ),
            n(1),
        ),
        (
            "1000 INTERSECT",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " INTERSECT ", 1000)
            ),
            n(1),
        ),
        (
            "1000 EXCEPT",
            format!(
                "SELECT count(*) FROM (SELECT 0 {})",
                " EXCEPT SELECT 1".repeat(999)
            ),
            n(1),
        ),
        (
            "200 mixed set operations",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1 UNION SELECT 2", " EXCEPT ", 100)
            ),
            n(1),
        ),
        (
            "400 mixed set operations",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1 UNION SELECT 2", " EXCEPT ", 200)
            ),
            n(1),
        ),
        // Each change of operation nests a subquery: SQLite's parser stops at its depth.
        (
            "600 mixed set operations",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1 UNION SELECT 2", " EXCEPT ", 300)
            ),
            Error(SQLITE_LIMIT),
        ),
        (
            "runs of 99 UNION ALL and an EXCEPT",
            format!(
                "SELECT count(*) FROM ({})",
                chain(&chain("SELECT 1", " UNION ALL ", 99), " EXCEPT ", 39)
            ),
            n(98),
        ),
        (
            "1000 mixed set operations",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1 UNION SELECT 2", " EXCEPT ", 500)
            ),
            Error(SQLITE_LIMIT),
        ),
        (
            "100 INTERSECT ALL",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " INTERSECT ALL ", 100)
            ),
            n(1),
        ),
        (
            "1000 INTERSECT ALL",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " INTERSECT ALL ", 1000)
            ),
            Error(SQLITE_LIMIT),
        ),
        (
            "5000 UNION ALL",
            chain("SELECT 1", " UNION ALL ", 5000),
            Error(TOO_LARGE),
        ),
        (
            "10 nested set operations",
            format!(
                "SELECT count(*) FROM {}",
                nest("(SELECT 1 UNION ALL ", "SELECT 1", ")", 10)
            ),
            n(11),
        ),
        (
            "100 nested set operations",
            format!(
                "SELECT count(*) FROM {}",
                nest("(SELECT 1 UNION ALL ", "SELECT 1", ")", 100)
            ),
            Error(TOO_LARGE),
        ),
        // Joins and CTEs are lists to sqlparser; SQLite takes at most 64 tables in a join.
        (
            "60 joins",
            format!(
                "SELECT count(*) FROM (SELECT 1 x) t0{}",
                (1..60)
                    .map(|i| format!(" JOIN (SELECT 1 x) t{i} ON t{i}.x = t0.x"))
                    .collect::<String>()
            ),
            n(1),
        ),
        (
            "100 joins",
            format!(
                "SELECT count(*) FROM (SELECT 1 x) t0{}",
                (1..100)
                    .map(|i| format!(" JOIN (SELECT 1 x) t{i} ON t{i}.x = t0.x"))
                    .collect::<String>()
            ),
            Error(SQLITE_LIMIT),
        ),
        (
            "100 comma joins",
            format!(
                "SELECT count(*) FROM {}",
                (0..100)
                    .map(|i| format!("(SELECT 1) t{i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Error(SQLITE_LIMIT),
        ),
        ("100 chained CTEs", cte_chain(100), n(1)),
        ("1000 chained CTEs", cte_chain(1000), Error(SQLITE_LIMIT)),
        (
            "2000 CTEs",
            format!(
                "WITH {} SELECT 1",
                (0..2000)
                    .map(|i| format!("c{i} AS (SELECT 1)"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            n(1),
        ),
        (
            "3000 columns",
            format!("SELECT {}", chain("1", ", ", 3000)),
            Error(SQLITE_LIMIT),
        ),
    ]
}

/// `WITH t0 AS (…), t1 AS (SELECT x FROM t0), …`: each CTE reads the one before.
fn cte_chain(n: usize) -> String {
    let ctes: Vec<String> = (1..n)
        .map(|i| format!("t{i} AS (SELECT x FROM t{})", i - 1))
        .collect();
    format!(
        "WITH t0 AS (SELECT 1 AS x), {} SELECT x FROM t{}",
        ctes.join(", "),
        n - 1
    )
}

#[test]
fn deep_and_wide_statements_run_or_fail_with_a_trino_error() {
    on_worker_stack(|| {
        let engine = engine();
        for (name, sql, expect) in cases() {
            let started = Instant::now();
            check(&engine, name, &sql, &expect);
            // None of them may take long: the bounds also bound the work.
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{name} took {:?}",
                started.elapsed()
            );
        }
        // The engine still answers.
        check(&engine, "after", "SELECT 1", &Expect::Value(json!(1)));
    });
}

// ---- over HTTP: QueryMesh itself, and the broker ----

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
            format!("SELECT 1{}", " IS NULL".repeat(3000)),
            Some((
                "SYNTAX_ERROR",
                "line 1:1: statement is too large (stack overflow while parsing)",
            )),
            json!(null),
        ),
        (
            cte_chain(1000),
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

async fn broker_query(sandbox: &Sandbox, identity: &str, sql: &str) -> (u16, Value) {
    let response = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("x-nnumbers-identity", identity)
        .json(&json!({ "sql": sql }))
        .send()
        .await
        .expect("the broker answers");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON body"))
}

#[tokio::test]
async fn the_broker_answers_queries_past_the_limits_with_a_422() {
    let sandbox = support::start().await;
    let ada = sign_in(&sandbox, "ada").await;
    let identity = ada.identity(&sandbox);
    // SQLite's limits were internal errors, which the broker answered with a 502.
    for sql in [
        cte_chain(1000),
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

// ---- property tests: random expressions and statements ----

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        (-3i64..1000).prop_map(|n| n.to_string()),
        Just("2147483647".to_string()),
        Just("9223372036854775807".to_string()),
        Just("1.5".to_string()),
        Just("1e3".to_string()),
        Just("'ab'".to_string()),
        Just("''".to_string()),
        Just("true".to_string()),
        Just("NULL".to_string()),
        Just("DATE '2024-02-29'".to_string()),
        Just("INTERVAL '1' DAY".to_string()),
        Just("nationkey".to_string()),
        Just("name".to_string()),
        Just("regionkey".to_string()),
    ]
}

/// Random expression trees over the columns of nation, every construct the analysis knows.
fn expression() -> impl Strategy<Value = String> {
    leaf().prop_recursive(6, 64, 4, |inner| {
        const BINARY: &[&str] = &[
            "+",
            "-",
            "*",
            "/",
            "%",
            "||",
            "AND",
            "OR",
            "=",
            "<>",
            "<",
            ">=",
            "IS DISTINCT FROM",
        ];
        const FUNCTIONS: &[&str] = &[
            "abs", "length", "upper", "round", "coalesce", "greatest", "concat", "sign", "nullif",
            "substr",
        ];
        const TYPES: &[&str] = &[
            "bigint",
            "integer",
            "double",
            "varchar",
            "decimal(10,2)",
            "date",
            "boolean",
        ];
        prop_oneof![
            (
                inner.clone(),
                proptest::sample::select(BINARY),
                inner.clone()
            )
                .prop_map(|(l, op, r)| format!("{l} {op} {r}")),
            inner.clone().prop_map(|e| format!("({e})")),
            inner.clone().prop_map(|e| format!("-{e}")),
            inner.clone().prop_map(|e| format!("NOT {e}")),
            inner.clone().prop_map(|e| format!("{e} IS NULL")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("CASE WHEN {a} THEN {b} ELSE {c} END")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("{a} BETWEEN {b} AND {c}")),
            (
                inner.clone(),
                proptest::collection::vec(inner.clone(), 1..4)
            )
                .prop_map(|(a, list)| format!("{a} IN ({})", list.join(", "))),
            (
                proptest::sample::select(FUNCTIONS),
                proptest::collection::vec(inner.clone(), 1..3)
            )
                .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
            (inner.clone(), proptest::sample::select(TYPES))
                .prop_map(|(e, t)| format!("TRY_CAST({e} AS {t})")),
            (inner.clone(), proptest::sample::select(TYPES))
                .prop_map(|(e, t)| format!("CAST({e} AS {t})")),
            inner
                .clone()
                .prop_map(|e| format!("(SELECT max({e}) FROM nation)")),
            inner
                .clone()
                .prop_map(|e| format!("EXISTS (SELECT 1 FROM region WHERE {e})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("{a} LIKE {b}")),
        ]
    })
}

/// Random statements: expressions in every clause, set operations, and long chains of the
/// shapes that once overflowed the stack.
fn statement_text() -> impl Strategy<Value = String> {
    let chain_of = (
        proptest::sample::select(
            &[
                "+",
                "AND",
                "OR",
                "||",
                " UNION ALL SELECT ",
                " IS NULL",
                ")",
            ][..],
        ),
        0usize..6000,
    )
        .prop_map(|(op, n)| match op {
            " UNION ALL SELECT " => format!("SELECT 1{}", " UNION ALL SELECT 1".repeat(n)),
            " IS NULL" => format!("SELECT 1{}", " IS NULL".repeat(n)),
            ")" => format!("SELECT {}1{}", "(".repeat(n % 200), ")".repeat(n % 200)),
            op => format!("SELECT {}", vec!["1"; n + 1].join(&format!(" {op} "))),
        });
    prop_oneof![
        4 => (expression(), expression()).prop_map(|(e, w)| format!("SELECT {e} FROM nation WHERE {w}")),
        2 => (expression(), expression()).prop_map(|(e, g)| format!("SELECT {g}, count(*) FROM nation GROUP BY {g} HAVING {e}")),
        2 => (expression(), expression()).prop_map(|(a, b)| format!("SELECT {a} FROM nation UNION SELECT {b} FROM region")),
        1 => expression().prop_map(|e| format!("SELECT {e} FROM nation ORDER BY {e} LIMIT 3")),
        2 => chain_of,
    ]
}

/// Random SQL may fail, but as Trino fails a query: with a user error (a SYNTAX_ERROR, a
/// TYPE_MISMATCH, …), never an internal one, a panic or an overflow.
fn assert_trino_answer(engine: &Engine, sql: &str) -> Result<(), TestCaseError> {
    if let Err(e) = run(engine, sql) {
        let name = e.split(':').next().unwrap_or_default();
        let named = !name.is_empty() && name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
        prop_assert!(named && name != "GENERIC_INTERNAL_ERROR", "{sql}\n→ {e}");
    }
    Ok(())
}

#[test]
fn random_sql_never_panics_nor_overflows() {
    on_worker_stack(|| {
        let engine = engine();
        // Bounded and seeded, for CI: the same cases every run, a few seconds unoptimised.
        let config = ProptestConfig {
            cases: 256,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut runner = TestRunner::new_with_rng(config, rng);
        runner
            .run(&statement_text(), |sql| assert_trino_answer(&engine, &sql))
            .unwrap_or_else(|e| panic!("{e}"));
    });
}

/// Found by the property test: SQLite reads an integer constant as a GROUP BY or ORDER BY
/// position, also one its parser folds (`'ab' IS NULL` is 0); Trino takes only a literal
/// integer for one (docs sql/select "GROUP BY clause", "ORDER BY clause").
#[test]
fn constant_keys_are_values_not_positions() {
    let engine = engine();
    for (sql, want) in [
        (
            "SELECT count(*) FROM nation GROUP BY ('ab' IS NULL)",
            json!(25),
        ),
        (
            "SELECT name FROM region ORDER BY INTERVAL '1' DAY, name LIMIT 1",
            json!("AFRICA"),
        ),
        (
            "SELECT name FROM region ORDER BY 'ab' IS NULL, name DESC LIMIT 1",
            json!("MIDDLE EAST"),
        ),
    ] {
        check(&engine, sql, sql, &Expect::Value(want));
    }
}

//! OFFSET / LIMIT / FETCH: the orders and forms Trino takes, and the ones it rejects.

use serde_json::json;

use super::{Mesh, column_of};
use crate::support;

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

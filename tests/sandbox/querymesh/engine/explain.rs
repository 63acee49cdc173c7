//! EXPLAIN: the statement is analysed as if it ran (its errors at its own positions, its
//! reads checked), and the answer is Trino's shape — one `Query Plan` varchar row, or one
//! `Valid` boolean row for `EXPLAIN (TYPE VALIDATE)` (docs sql/explain: "EXPLAIN (TYPE
//! VALIDATE) SELECT …" answers `Valid: true`).

use serde_json::json;

use crate::support::engine::{engine, error, ok};

#[test]
fn explain_answers_one_plan_row_describing_the_statement() {
    let engine = engine();
    let a = ok(
        &engine,
        "EXPLAIN SELECT name, regionkey FROM tpch.tiny.nation",
    );
    assert_eq!(a.names, vec!["Query Plan"]);
    let plan = a.rows[0][0].as_str().unwrap_or_default().to_string();
    // Trino 476 types the column as its one value, a varchar literal: `varchar(521)` there.
    assert_eq!(a.types, vec![format!("varchar({})", plan.chars().count())]);
    for part in [
        "Output[columnNames = [name, regionkey]]",
        "Layout: [name:varchar(25), regionkey:bigint]",
        "TableScan[table = tpch:tiny:nation]",
        "SQLite:",
    ] {
        assert!(plan.contains(part), "{part} in {plan}");
    }
    let a = ok(&engine, "EXPLAIN (TYPE VALIDATE) SELECT 1");
    assert_eq!(
        (a.names[0].as_str(), a.types[0].as_str()),
        ("Valid", "boolean")
    );
    assert_eq!(a.rows, vec![vec![json!(true)]]);
    let a = ok(
        &engine,
        "EXPLAIN (FORMAT JSON, TYPE DISTRIBUTED) SELECT 1 AS x",
    );
    let plan: serde_json::Value =
        serde_json::from_str(a.rows[0][0].as_str().unwrap_or_default()).unwrap();
    assert_eq!(plan["columns"], json!([{"name": "x", "type": "integer"}]));
    let a = ok(&engine, "EXPLAIN SHOW CATALOGS");
    assert!(a.rows[0][0].as_str().unwrap_or_default().contains("Values"));
}

#[test]
fn the_explained_statement_keeps_its_errors_and_positions() {
    let engine = engine();
    assert_eq!(
        error(&engine, "EXPLAIN SELECT nosuch FROM tpch.tiny.nation"),
        "COLUMN_NOT_FOUND: line 1:16: Column 'nosuch' cannot be resolved"
    );
    assert_eq!(
        error(&engine, "EXPLAIN (TYPE VALIDATE)\n  SELECT nosuch"),
        "COLUMN_NOT_FOUND: line 2:10: Column 'nosuch' cannot be resolved"
    );
    assert!(
        error(&engine, "EXPLAIN ANALYZE SELECT 1")
            .starts_with("NOT_SUPPORTED: line 1:9: EXPLAIN ANALYZE"),
    );
    assert!(error(&engine, "EXPLAIN (FORMAT GRAPHVIZ) SELECT 1").starts_with("NOT_SUPPORTED"));
    assert_eq!(
        error(&engine, "EXPLAIN (FORMAT XML) SELECT 1"),
        "SYNTAX_ERROR: line 1:17: mismatched input 'XML'. Expecting: 'GRAPHVIZ', 'JSON', 'TEXT'"
    );
    assert_eq!(
        error(&engine, "EXPLAIN"),
        "SYNTAX_ERROR: line 1:8: mismatched input '<EOF>'. Expecting: 'SELECT', 'WITH', 'VALUES', 'SHOW', 'DESCRIBE'"
    );
}

//! Catalogs, schemas, tables and columns can be explored.

use serde_json::json;
use zero_sandbox::querymesh::engine::SessionContext;

use crate::support::engine::{engine, ok, run_in};

#[test]
fn catalogs_schemas_tables_and_columns_can_be_explored() {
    let engine = engine();
    let catalogs = ok(&engine, "SHOW CATALOGS");
    assert_eq!(catalogs.names, ["Catalog"]);
    assert!(catalogs.rows.contains(&vec![json!("tpch")]));
    let schemas = ok(&engine, "SHOW SCHEMAS FROM tpch LIKE 't%'");
    assert_eq!(json!(schemas.rows), json!([["tiny"]]));
    let tables = ok(&engine, "SHOW TABLES FROM tpch.tiny");
    assert_eq!(
        json!(tables.rows),
        json!([
            ["customer"],
            ["lineitem"],
            ["nation"],
            ["orders"],
            ["part"],
            ["partsupp"],
            ["region"],
            ["supplier"]
        ])
    );
    let like = ok(&engine, "SHOW TABLES FROM tpch.tiny LIKE 'part%'");
    assert_eq!(json!(like.rows), json!([["part"], ["partsupp"]]));
    let columns = ok(&engine, "SHOW COLUMNS FROM tpch.tiny.region");
    assert_eq!(
        json!(columns.rows),
        json!([
            ["regionkey", "bigint", "", ""],
            ["name", "varchar(25)", "", ""],
            ["comment", "varchar(152)", "", ""]
        ])
    );
    let info = ok(
        &engine,
        "SELECT table_name FROM tpch.information_schema.tables WHERE table_schema = 'tiny' AND table_name LIKE 'n%'",
    );
    assert_eq!(json!(info.rows), json!([["nation"]]));
    // MetadataUtil.createQualifiedObjectName asks for the schema before the catalog.
    let no_session = run_in(&engine, &SessionContext::default(), "SELECT * FROM nation")
        .err()
        .unwrap_or_default();
    assert_eq!(
        no_session,
        "MISSING_SCHEMA_NAME: line 1:15: Schema must be specified when session schema is not set"
    );
    let no_session = run_in(
        &engine,
        &SessionContext::default(),
        "SHOW COLUMNS FROM nation",
    )
    .err()
    .unwrap_or_default();
    assert!(
        no_session.starts_with("MISSING_SCHEMA_NAME"),
        "{no_session}"
    );
    // SHOW COLUMNS FROM t LIKE pattern (SqlBase.g4 showColumns).
    let like = ok(&engine, "SHOW COLUMNS FROM tpch.tiny.nation LIKE '%key'");
    assert_eq!(
        json!(like.rows),
        json!([
            ["nationkey", "bigint", "", ""],
            ["regionkey", "bigint", "", ""]
        ])
    );
}

/// Trino's lexer has no `==` operator: `1 == 1` is `1 = = 1`, refused at the second `=`.
#[test]
fn double_equals_is_not_trinos() {
    let engine = engine();
    assert_eq!(
        crate::support::engine::error(&engine, "SELECT 1 == 1"),
        "SYNTAX_ERROR: line 1:11: mismatched input '='. Expecting: <expression>"
    );
}

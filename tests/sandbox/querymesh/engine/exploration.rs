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
    let schemas = ok(&engine, "SHOW SCHEMAS FROM tpch");
    assert_eq!(
        json!(schemas.rows),
        json!([["information_schema"], ["tiny"]])
    );
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
    let no_session = run_in(&engine, &SessionContext::default(), "SELECT * FROM nation")
        .err()
        .unwrap_or_default();
    assert!(
        no_session.starts_with("MISSING_CATALOG_NAME"),
        "{no_session}"
    );
}

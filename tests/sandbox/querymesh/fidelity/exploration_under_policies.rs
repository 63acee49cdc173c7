//! Exploration (SHOW, information_schema) lists only what the person may see.

use crate::support;

use super::{Answer, EVE, GRACE, Mesh};

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
    let (config, dir) = support::config_with_rules(RULES, "");
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
    let customer_columns = [
        "custkey",
        "name",
        "address",
        "nationkey",
        "acctbal",
        "mktsegment",
        "comment",
    ];
    for sql in [
        "SHOW COLUMNS FROM tpch.tiny.customer",
        "DESCRIBE tpch.tiny.customer",
    ] {
        let columns = mesh.run(sql).await;
        assert_eq!(columns.succeeded().firsts(), customer_columns, "{sql}");
    }
    // information_schema lists customer in each of the nine schemas tpch lists (Trino's tpch
    // connector has every table in every schema), each without the hidden phone column.
    let columns = mesh
        .run(
            "SELECT column_name FROM tpch.information_schema.columns \
             WHERE table_name = 'customer' ORDER BY ordinal_position",
        )
        .await;
    let expected: Vec<&str> = customer_columns
        .iter()
        .flat_map(|c| std::iter::repeat_n(*c, 9))
        .collect();
    assert_eq!(columns.succeeded().firsts(), expected);

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
    // Her region rule names no schema, so it reaches every schema tpch lists (sf1, … too).
    let schemas = mesh
        .run_as(GRACE, "SHOW SCHEMAS FROM tpch LIKE '%i%'")
        .await;
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
    // `system` too: Trino appends a rule giving everyone the system catalog.
    let catalogs = mesh.run_as(GRACE, "SHOW CATALOGS").await;
    assert_eq!(catalogs.succeeded().firsts(), ["system", "tpch"]);
}

/// SHOW CREATE TABLE and SHOW CREATE SCHEMA as Trino 476 writes them
/// (https://trino.io/docs/476/sql/show-create-table.html, checked against it), and the
/// ownership Trino's file-based access control wants for them (`checkCanShowCreateTable`,
/// `checkCanShowCreateSchema`): with rules granting SELECT only, nobody may; with rules that
/// name no tables and give the catalog `all`, everybody may. SHOW GRANTS and SHOW ROLES list
/// nothing: no catalog here keeps any.
#[tokio::test]
async fn show_create_needs_ownership_as_in_trino() {
    let (config, _open_rules) =
        support::config_with_rules(r#"{"catalogs": [{"allow": "all"}]}"#, "");
    let open = Mesh::start(config).await;
    let created = open.run("SHOW CREATE TABLE tpch.tiny.region").await;
    assert_eq!(
        created.succeeded().firsts(),
        [
            "CREATE TABLE tpch.tiny.region (\n   regionkey bigint NOT NULL,\n   name varchar(25) NOT NULL,\n   comment varchar(152) NOT NULL\n)"
        ]
    );
    let schema = open.run("SHOW CREATE SCHEMA tpch.tiny").await;
    assert_eq!(schema.succeeded().firsts(), ["CREATE SCHEMA tpch.tiny"]);
    for sql in [
        "SHOW GRANTS ON TABLE tpch.tiny.nation",
        "SHOW ROLES",
        "SHOW CURRENT ROLES",
    ] {
        assert!(open.run(sql).await.succeeded().rows().is_empty(), "{sql}");
    }
    let view = open.run("SHOW CREATE VIEW tpch.tiny.nation").await;
    assert_eq!(
        view.error()["message"],
        "line 1:1: Relation 'tpch.tiny.nation' is a table, not a view"
    );

    let (mesh, _dir) = mesh_with_rules().await;
    denied(
        &mesh.run("SHOW CREATE TABLE tpch.tiny.region").await,
        "Access Denied: Cannot show create table for tpch.tiny.region",
    );
    denied(
        &mesh.run("SHOW CREATE SCHEMA tpch.tiny").await,
        "Access Denied: Cannot show create schema for tpch.tiny",
    );
    // information_schema is everyone's.
    let columns = mesh
        .run("SHOW CREATE TABLE tpch.information_schema.schemata")
        .await;
    assert_eq!(columns.succeeded().rows().len(), 1);
}

/// SHOW STATS FOR a table: the tpch connector's statistics of tpch.tiny, which are exact
/// (https://trino.io/docs/476/sql/show-stats.html; these rows are Trino 476's): `data_size`
/// sums the lengths of a text column's distinct values. SELECT on the table is needed, as for
/// Trino's; the estimates of queries the stand-in has no model for are refused (constant
/// rows' and filtered tables' are computed: semantics/values_statistics.rs,
/// filtered_statistics.rs).
#[tokio::test]
async fn show_stats_gives_a_tables_exact_statistics() {
    use serde_json::json;
    let (mesh, _dir) = mesh_with_rules().await;
    let stats = mesh.run("SHOW STATS FOR tpch.tiny.region").await;
    assert_eq!(
        stats.succeeded().rows(),
        [
            json!(["regionkey", null, 5.0, 0.0, null, "0", "4"]),
            json!(["name", 34.0, 5.0, 0.0, null, null, null]),
            json!(["comment", 330.0, 5.0, 0.0, null, null, null]),
            json!([null, null, null, null, 5.0, null, null]),
        ]
    );
    let orders = mesh.run("SHOW STATS FOR tpch.tiny.orders").await;
    assert!(orders.succeeded().rows().contains(&json!([
        "totalprice",
        null,
        14996.0,
        0.0,
        null,
        "874.89",
        "466001.28"
    ])));
    denied(
        &mesh.run_as(GRACE, "SHOW STATS FOR tpch.tiny.nation").await,
        "Access Denied: Cannot select from table tpch.tiny.nation",
    );
    // A filtered table's estimate (semantics/filtered_statistics.rs) reads the table too.
    denied(
        &mesh
            .run_as(
                GRACE,
                "SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE regionkey = 1)",
            )
            .await,
        "Access Denied: Cannot select from table tpch.tiny.nation",
    );
    let estimate = mesh
        .run("SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE regionkey + 1 = 2)")
        .await;
    assert_eq!(estimate.error()["errorName"], "NOT_SUPPORTED");
}

//! The `system` catalog the JDBC driver and other tools read before any query: `system.jdbc`
//! answering the SQL `TrinoDatabaseMetaData` sends (trinodb/trino
//! client/trino-jdbc/src/main/java/io/trino/jdbc/TrinoDatabaseMetaData.java), with the rows of
//! core/trino-main/src/main/java/io/trino/connector/system/jdbc/ (ColumnJdbcTable,
//! TableJdbcTable, TypesJdbcTable); `system.metadata` and `system.runtime` as
//! https://trino.io/docs/476/connector/system.html lists them; the data policies filtering
//! them as FileBasedSystemAccessControl's filterCatalogs / filterTables / filterColumns do.

use serde_json::json;

use crate::support;

use super::{ADA, GRACE, Mesh};

fn columns_of(answer: &super::Answer) -> Vec<String> {
    let page = answer
        .pages
        .iter()
        .find(|p| p["columns"].is_array())
        .expect("a page with columns");
    page["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .map(|c| c["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn jdbc_database_metadata_statements_answer_as_trino() {
    let mesh = Mesh::start(support::test_config()).await;

    // getCatalogs(): the column named as the driver wrote it, `system` listed.
    let catalogs = mesh
        .run("SELECT TABLE_CAT\nFROM system.jdbc.catalogs\nORDER BY TABLE_CAT")
        .await;
    assert_eq!(columns_of(catalogs.succeeded()), ["TABLE_CAT"]);
    assert!(catalogs.firsts().contains(&"system".to_string()));
    assert!(catalogs.firsts().contains(&"tpch".to_string()));

    // getSchemas("system", "%")
    let schemas = mesh
        .run(
            "SELECT TABLE_SCHEM, TABLE_CATALOG FROM system.jdbc.schemas \
             WHERE TABLE_CATALOG = 'system' AND TABLE_SCHEM LIKE '%' ESCAPE '\\' \
             ORDER BY TABLE_CATALOG, TABLE_SCHEM",
        )
        .await;
    assert_eq!(
        schemas.succeeded().firsts(),
        ["information_schema", "jdbc", "metadata", "runtime"]
    );

    // getTableTypes()
    let types = mesh
        .run("SELECT TABLE_TYPE FROM system.jdbc.table_types ORDER BY TABLE_TYPE")
        .await;
    assert_eq!(types.succeeded().firsts(), ["TABLE", "VIEW"]);

    // getColumns("tpch", "tiny", "nation", "%"): java.sql.Types codes, sizes, and the tpch
    // connector's NOT NULL columns.
    let columns = mesh
        .run(
            "SELECT COLUMN_NAME, DATA_TYPE, TYPE_NAME, COLUMN_SIZE, BUFFER_LENGTH, \
             DECIMAL_DIGITS, NUM_PREC_RADIX, NULLABLE, CHAR_OCTET_LENGTH, ORDINAL_POSITION, \
             IS_NULLABLE FROM system.jdbc.columns WHERE TABLE_CAT = 'tpch' \
             AND TABLE_SCHEM LIKE 'tiny' ESCAPE '\\' AND TABLE_NAME LIKE 'nation' ESCAPE '\\' \
             AND COLUMN_NAME LIKE '%' ESCAPE '\\' \
             ORDER BY TABLE_CAT, TABLE_SCHEM, TABLE_NAME, ORDINAL_POSITION",
        )
        .await;
    assert_eq!(
        columns.succeeded().rows(),
        [
            json!(["nationkey", -5, "bigint", 19, 0, null, 10, 0, null, 1, "NO"]),
            json!(["name", 12, "varchar(25)", 25, 0, null, null, 0, 25, 2, "NO"]),
            json!(["regionkey", -5, "bigint", 19, 0, null, 10, 0, null, 3, "NO"]),
            json!([
                "comment",
                12,
                "varchar(152)",
                152,
                0,
                null,
                null,
                0,
                152,
                4,
                "NO"
            ]),
        ]
    );

    // A system table's columns are nullable, its timestamps TIMESTAMP_WITH_TIMEZONE (2014).
    let queries = mesh
        .run(
            "SELECT data_type, type_name, column_size, decimal_digits, nullable, is_nullable \
             FROM system.jdbc.columns WHERE table_cat = 'system' AND table_schem = 'runtime' \
             AND table_name = 'queries' AND column_name = 'created'",
        )
        .await;
    assert_eq!(
        queries.succeeded().rows(),
        [json!([
            2014,
            "timestamp(3) with time zone",
            59,
            3,
            1,
            "YES"
        ])]
    );

    // getTypeInfo(): every type Trino 476 lists, `integer` twice as it does.
    let info = mesh
        .run("SELECT count(*), count_if(TYPE_NAME = 'integer') FROM system.jdbc.types")
        .await;
    assert_eq!(info.succeeded().rows(), [json!([44, 2])]);

    // getPrimaryKeys() sends a constant query; getProcedures() reads an empty table.
    let keys = mesh
        .run(
            "SELECT  CAST(NULL AS varchar) TABLE_CAT,  CAST(NULL AS varchar) TABLE_SCHEM,  \
             CAST(NULL AS varchar) TABLE_NAME,  CAST(NULL AS varchar) COLUMN_NAME,  \
             CAST(NULL AS smallint) KEY_SEQ,  CAST(NULL AS varchar) PK_NAME WHERE false",
        )
        .await;
    assert!(keys.succeeded().rows().is_empty());
    let procedures = mesh
        .run(
            "SELECT PROCEDURE_CAT, PROCEDURE_SCHEM, PROCEDURE_NAME, null, null, null, REMARKS, \
             PROCEDURE_TYPE, SPECIFIC_NAME FROM system.jdbc.procedures ORDER BY PROCEDURE_CAT, \
             PROCEDURE_SCHEM, PROCEDURE_NAME, SPECIFIC_NAME LIMIT 0",
        )
        .await;
    assert_eq!(
        columns_of(procedures.succeeded()),
        [
            "PROCEDURE_CAT",
            "PROCEDURE_SCHEM",
            "PROCEDURE_NAME",
            "_col3",
            "_col4",
            "_col5",
            "REMARKS",
            "PROCEDURE_TYPE",
            "SPECIFIC_NAME"
        ]
    );
}

#[tokio::test]
async fn system_catalog_is_listed_and_described_as_trino_does() {
    let mesh = Mesh::start(support::test_config()).await;
    let catalogs = mesh.run("SHOW CATALOGS").await;
    assert!(
        catalogs
            .succeeded()
            .firsts()
            .contains(&"system".to_string())
    );
    let tables = mesh.run("SHOW TABLES FROM system.runtime").await;
    assert_eq!(
        tables.succeeded().firsts(),
        [
            "nodes",
            "optimizer_rule_stats",
            "queries",
            "tasks",
            "transactions"
        ]
    );
    let describe = mesh.run("DESCRIBE system.jdbc.tables").await;
    assert_eq!(
        describe.succeeded().firsts()[..4],
        ["table_cat", "table_schem", "table_name", "table_type"]
    );
    let listed = mesh
        .run(
            "SELECT table_name FROM system.information_schema.tables \
             WHERE table_schema = 'metadata' ORDER BY 1",
        )
        .await;
    assert_eq!(
        listed.succeeded().firsts(),
        [
            "analyze_properties",
            "catalogs",
            "column_properties",
            "materialized_view_properties",
            "materialized_views",
            "schema_properties",
            "table_comments",
            "table_properties"
        ]
    );
    let connectors = mesh
        .run("SELECT * FROM system.metadata.catalogs WHERE catalog_name IN ('system', 'tpch') ORDER BY 1")
        .await;
    assert_eq!(
        connectors.succeeded().rows(),
        [
            json!(["system", "system", "system"]),
            json!(["tpch", "tpch", "tpch"])
        ]
    );
    // One node, the coordinator, answering as Trino 476.
    let nodes = mesh
        .run("SELECT node_version, coordinator, state, http_uri LIKE 'http://%' FROM system.runtime.nodes")
        .await;
    assert_eq!(
        nodes.succeeded().rows(),
        [json!(["476", true, "active", true])]
    );
}

#[tokio::test]
async fn runtime_queries_lists_the_running_query_with_its_text() {
    let mesh = Mesh::start(support::test_config()).await;
    let sql = "SELECT query, state, user, resource_group_id IS NOT NULL FROM system.runtime.queries \
               WHERE query LIKE 'SELECT query, state%'";
    let answer = mesh.run(sql).await;
    assert_eq!(
        answer.succeeded().rows(),
        [json!([sql, "RUNNING", ADA.0, true])]
    );
}

/// Rules granting tpch by group and the system catalog to everyone: what each person sees
/// in system.jdbc is what SHOW lists for them.
const RULES: &str = r#"{
    "catalogs": [
        {"group": "contractors", "catalog": "tpch", "allow": "none"},
        {"allow": "read-only"}
    ],
    "tables": [
        {"catalog": "system", "privileges": ["SELECT"]},
        {"group": "analysts", "table": "customer", "privileges": ["SELECT"],
         "columns": [{"name": "phone", "allow": false}]},
        {"group": "analysts", "privileges": ["SELECT"]},
        {"table": "region", "privileges": ["SELECT"]}
    ]
}"#;

#[tokio::test]
async fn system_jdbc_lists_only_what_the_person_may_see() {
    let (config, _dir) = support::config_with_rules(RULES, "");
    let mesh = Mesh::start(config).await;
    let tables = "SELECT TABLE_NAME FROM system.jdbc.tables WHERE TABLE_CAT = 'tpch' \
                  AND TABLE_SCHEM LIKE 'tiny' ESCAPE '\\' ORDER BY TABLE_NAME";
    assert_eq!(mesh.run(tables).await.succeeded().firsts().len(), 8);
    // Grace's only tpch grant is region.
    assert_eq!(
        mesh.run_as(GRACE, tables).await.succeeded().firsts(),
        ["region"]
    );
    // Ada may not see customer phone numbers: getColumns leaves the column out.
    let columns = "SELECT COLUMN_NAME FROM system.jdbc.columns WHERE TABLE_CAT = 'tpch' \
                   AND TABLE_SCHEM = 'tiny' AND TABLE_NAME = 'customer' ORDER BY ORDINAL_POSITION";
    let seen = mesh.run(columns).await;
    assert!(!seen.succeeded().firsts().contains(&"phone".to_string()));
    assert_eq!(seen.firsts().len(), 7);
    // Eve's contractors group has no access to tpch: the catalog is not listed to her, while
    // the system catalog stays readable (Trino's rule appended after the file's).
    let eve = super::EVE;
    let catalogs = mesh
        .run_as(
            eve,
            "SELECT TABLE_CAT FROM system.jdbc.catalogs ORDER BY TABLE_CAT",
        )
        .await;
    assert!(!catalogs.succeeded().firsts().contains(&"tpch".to_string()));
    assert!(catalogs.firsts().contains(&"system".to_string()));
}

/// information_schema's hidden columns (trinodb/trino core/trino-main/src/main/java/io/trino/
/// connector/informationschema/InformationSchemaTable.java): `columns.comment`, `extra_info`,
/// `column_comment` and `tables.table_comment` are read by name (SQLAlchemy's Trino dialect
/// reads `comment`) and listed nowhere: not by `*`, DESCRIBE or the listings of columns.
#[tokio::test]
async fn information_schema_hidden_columns_are_read_by_name_and_listed_nowhere() {
    let mesh = Mesh::start(support::test_config()).await;
    let read = mesh
        .run(
            "SELECT column_name, is_nullable, comment, extra_info, column_comment \
             FROM tpch.information_schema.columns \
             WHERE table_schema = 'tiny' AND table_name = 'region' ORDER BY ordinal_position",
        )
        .await;
    assert_eq!(
        read.succeeded().rows(),
        [
            json!(["regionkey", "NO", null, null, null]),
            json!(["name", "NO", null, null, null]),
            json!(["comment", "NO", null, null, null])
        ]
    );
    let commented = mesh
        .run(
            "SELECT c.table_comment FROM tpch.information_schema.tables AS c \
             WHERE table_schema = 'tiny' AND table_name = 'region'",
        )
        .await;
    assert_eq!(commented.succeeded().rows(), [json!([null])]);

    let star = mesh
        .run("SELECT * FROM tpch.information_schema.columns LIMIT 1")
        .await;
    let listed = [
        "table_catalog",
        "table_schema",
        "table_name",
        "column_name",
        "ordinal_position",
        "column_default",
        "is_nullable",
        "data_type",
    ];
    assert_eq!(columns_of(&star), listed);
    let qualified_star = mesh
        .run("SELECT c.* FROM tpch.information_schema.tables c LIMIT 1")
        .await;
    assert_eq!(
        columns_of(&qualified_star),
        ["table_catalog", "table_schema", "table_name", "table_type"]
    );
    let described = mesh.run("DESCRIBE tpch.information_schema.columns").await;
    assert_eq!(described.succeeded().firsts(), listed);
    let in_listings = mesh
        .run(
            "SELECT count(*) FROM tpch.information_schema.columns \
             WHERE table_schema = 'information_schema' AND table_name = 'columns'",
        )
        .await;
    assert_eq!(in_listings.succeeded().rows(), [json!([8])]);
    let in_jdbc = mesh
        .run(
            "SELECT max(ordinal_position), count(*) FROM system.jdbc.columns \
             WHERE table_cat = 'tpch' AND table_schem = 'information_schema' \
             AND table_name = 'columns'",
        )
        .await;
    assert_eq!(in_jdbc.succeeded().rows(), [json!([8, 8])]);
}

//! Bigger tpch schemas (`zero-sandbox tpch generate sf1`): listed as Trino's tpch connector
//! lists them, queryable once generated into the state directory, and before that refused
//! with the command that generates them.
//!
//! Trino's `TpchMetadata.SCHEMA_NAMES` (plugin/trino-tpch) lists tiny, sf1, sf100, sf300,
//! sf1000, sf3000, sf10000, sf30000 and sf100000, and `schemaNameToScaleFactor` answers any
//! other `sf<N>` unlisted; docs/src/main/sphinx/connector/tpch.md shows SHOW SCHEMAS FROM tpch.

use serde_json::{Value, json};
use zero_sandbox::querymesh::engine::tpch::generate::{
    LISTED_SCHEMAS, Options, Outcome, generate_at_scale, schema_file,
};
use zero_sandbox::querymesh::engine::{Engine, SessionContext};

use crate::support::engine::{engine, ok, run, run_in};
use crate::support::{self, sign_in};

/// The rows of tpch.tiny, generated under `schema`'s name into `state` (the scale is the
/// library's to choose; the command line keeps named schemas).
fn generate_tiny_as(state: &std::path::Path, schema: &str) {
    let options = Options {
        chunk_rows: 20_000,
        ..Options::default()
    };
    let outcome = generate_at_scale(&schema_file(state, schema), 0.01, &options, &mut |_| {})
        .expect("generates");
    assert!(matches!(outcome, Outcome::Generated { .. }), "{outcome:?}");
}

#[test]
fn show_schemas_lists_what_trinos_tpch_connector_lists() {
    let engine = engine();
    let schemas = ok(&engine, "SHOW SCHEMAS FROM tpch");
    // SHOW SCHEMAS orders by name (ShowQueriesRewrite: ORDER BY schema_name).
    assert_eq!(
        json!(schemas.rows),
        json!([
            ["information_schema"],
            ["sf1"],
            ["sf100"],
            ["sf1000"],
            ["sf10000"],
            ["sf100000"],
            ["sf300"],
            ["sf3000"],
            ["sf30000"],
            ["tiny"]
        ])
    );
    assert_eq!(LISTED_SCHEMAS.len() + 1, schemas.rows.len());
    let schemata = ok(
        &engine,
        "SELECT schema_name FROM tpch.information_schema.schemata ORDER BY 1",
    );
    assert_eq!(schemata.rows, schemas.rows);
}

#[test]
fn a_schema_not_generated_yet_names_the_command_that_generates_it() {
    let engine = engine();
    for (sql, schema) in [
        ("SELECT count(*) FROM tpch.sf1.lineitem", "sf1"),
        ("SELECT * FROM tpch.sf100.nation", "sf100"),
        // Trino answers unlisted scale factors too.
        ("SELECT * FROM tpch.sf10.nation", "sf10"),
        ("SHOW STATS FOR tpch.sf1.nation", "sf1"),
    ] {
        let error = run(&engine, sql)
            .err()
            .unwrap_or_else(|| panic!("{sql} runs"));
        let message = format!(
            "tpch.{schema} is not generated yet: run 'zero-sandbox tpch generate {schema}' \
             (with the same --state as the sandbox), then restart the sandbox"
        );
        assert!(
            error.starts_with("TABLE_NOT_FOUND: ") && error.ends_with(&message),
            "{sql}: {error}"
        );
    }
    // A name that is no scale factor is still a missing schema.
    assert_eq!(
        run(&engine, "SELECT * FROM tpch.big.nation")
            .err()
            .as_deref(),
        Some("SCHEMA_NOT_FOUND: line 1:15: Schema 'big' does not exist")
    );
}

/// Trino's tpch connector lists the same tables and columns for every schema it lists
/// (TpchMetadata.listTables, getTableMetadata): asked of Trino 476,
/// `SELECT count(*) FROM tpch.information_schema.columns` is 583 (9 × 61 + 34) and
/// `DESCRIBE tpch.sf1.orders` lists orders' nine columns.
#[test]
fn a_schema_not_generated_yet_has_its_metadata_already() {
    let engine = engine();
    assert_eq!(
        json!(
            ok(
                &engine,
                "SELECT count(*) FROM tpch.information_schema.columns"
            )
            .rows
        ),
        json!([[583]])
    );
    assert_eq!(
        json!(
            ok(
                &engine,
                "SELECT count(*) FROM tpch.information_schema.tables"
            )
            .rows
        ),
        json!([[80]])
    );
    let described = ok(&engine, "DESCRIBE tpch.sf1.orders");
    assert_eq!(described.rows.len(), 9);
    assert_eq!(
        json!(described.rows[2][..2]),
        json!(["orderstatus", "varchar(1)"])
    );
    assert_eq!(
        ok(&engine, "SHOW TABLES FROM tpch.sf100000").rows,
        ok(&engine, "SHOW TABLES FROM tpch.tiny").rows
    );
}

#[tokio::test]
async fn a_generated_schema_is_served_like_tiny_through_the_whole_sandbox() {
    let state = tempfile::tempdir().expect("a state directory");
    generate_tiny_as(state.path(), "sf1");
    // A generated schema Trino does not list answers but is not listed either.
    std::fs::copy(
        schema_file(state.path(), "sf1"),
        schema_file(state.path(), "sf0.5"),
    )
    .expect("copies");
    let mut config = support::test_config();
    config.state_dir = Some(state.path().to_path_buf());

    let engine =
        Engine::open(&config.querymesh.engine(), config.state_dir.as_deref()).expect("opens");
    let sf1 = SessionContext {
        catalog: Some("tpch".into()),
        schema: Some("sf1".into()),
        ..Default::default()
    };
    let answer = |sql: &str| run_in(&engine, &sf1, sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    assert_eq!(
        answer("SELECT count(*) FROM lineitem").rows,
        vec![vec![json!(60175)]]
    );
    assert_eq!(
        answer("SHOW TABLES").rows,
        ok(&engine, "SHOW TABLES FROM tpch.tiny").rows
    );
    assert_eq!(
        answer("SHOW COLUMNS FROM lineitem").rows,
        ok(&engine, "SHOW COLUMNS FROM tpch.tiny.lineitem").rows
    );
    assert_eq!(
        answer(
            "SELECT table_name, column_name, data_type FROM tpch.information_schema.columns \
             WHERE table_schema = 'sf1' ORDER BY 1, 2"
        )
        .rows,
        answer(
            "SELECT table_name, column_name, data_type FROM tpch.information_schema.columns \
             WHERE table_schema = 'tiny' ORDER BY 1, 2"
        )
        .rows
    );
    // The same join as on tiny, the same answer.
    let q = |schema: &str| {
        format!(
            "SELECT n.name, count(*) FROM tpch.{schema}.customer c JOIN tpch.{schema}.nation n \
             ON c.nationkey = n.nationkey GROUP BY n.name ORDER BY n.name"
        )
    };
    assert_eq!(answer(&q("sf1")).rows, answer(&q("tiny")).rows);
    assert_eq!(
        answer("SELECT count(*) FROM tpch.\"sf0.5\".orders").rows,
        vec![vec![json!(15000)]]
    );
    let listed = answer("SHOW SCHEMAS FROM tpch").rows;
    assert!(!listed.contains(&vec![json!("sf0.5")]), "{listed:?}");
    assert!(listed.contains(&vec![json!("sf1")]));
    drop(engine);

    let sandbox = support::start_with(config).await;
    let ada = sign_in(&sandbox, "ada").await;
    let response = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("x-nnumbers-identity", ada.identity(&sandbox))
        .json(&json!({"sql": "SELECT count(*) FROM tpch.sf1.lineitem", "max_rows": 10}))
        .send()
        .await
        .expect("the broker answers");
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(body["rows"], json!([[60175]]), "{body}");
}

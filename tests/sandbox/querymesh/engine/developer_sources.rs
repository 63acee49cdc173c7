//! The developer's own data: SQLite and CSV sources become catalogs with Trino types.

use serde_json::json;
use zero_sandbox::querymesh::engine::types::TrinoType;
use zero_sandbox::querymesh::engine::{Engine, SessionContext};

use crate::support;
use crate::support::engine::run_in;

#[test]
fn sqlite_and_csv_sources_become_catalogs_with_trino_types() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("app.db");
    {
        // SQLite's memory is counted only if nothing opens it first (querymesh/engine/memory.rs).
        zero_sandbox::querymesh::engine::memory::install();
        let conn = rusqlite::Connection::open(&db).expect("a database");
        conn.execute_batch(
            "CREATE TABLE Accounts (id INTEGER NOT NULL, owner TEXT, balance REAL, opened DATE);
             INSERT INTO Accounts VALUES (1, 'ada', 10.5, '2024-01-02'), (2, 'grace', 20, '2024-02-03');",
        )
        .expect("rows");
    }
    let csv_dir = dir.path().join("sales");
    std::fs::create_dir(&csv_dir).expect("a folder");
    std::fs::write(csv_dir.join("orders.csv"), "id,amount,region,shipped,day\n1,12,\"north, east\",true,2024-01-01\n2,7.5,south,false,2024-01-02\n3,,south,true,\n")
        .expect("a csv");
    let mut config = support::test_config();
    config.querymesh.catalogs = vec![
        toml::from_str(&format!("catalog = 'mydata'\nschema = 'main'\nsqlite = {:?}", db.display().to_string())).expect("a source"),
        toml::from_str(&format!("catalog = 'files'\nschema = 'sales'\ncsv_dir = {:?}\ntypes = {{ 'orders.id' = 'integer' }}", csv_dir.display().to_string())).expect("a source"),
    ];
    let engine = Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
        .expect("the engine opens");
    let session = SessionContext {
        catalog: Some("mydata".into()),
        schema: Some("main".into()),
        ..Default::default()
    };
    let accounts = run_in(
        &engine,
        &session,
        "SELECT id, owner, balance, opened FROM accounts ORDER BY id",
    )
    .expect("accounts");
    assert_eq!(accounts.types, ["bigint", "varchar", "double", "date"]);
    assert_eq!(
        json!(accounts.rows),
        json!([
            [1, "ada", 10.5, "2024-01-02"],
            [2, "grace", 20.0, "2024-02-03"]
        ])
    );
    let orders = run_in(
        &engine,
        &session,
        "SELECT * FROM files.sales.orders ORDER BY id",
    )
    .expect("orders");
    assert_eq!(orders.names, ["id", "amount", "region", "shipped", "day"]);
    assert_eq!(
        orders.types,
        ["integer", "double", "varchar", "boolean", "date"]
    );
    assert_eq!(
        json!(orders.rows),
        json!([
            [1, 12.0, "north, east", true, "2024-01-01"],
            [2, 7.5, "south", false, "2024-01-02"],
            [3, null, "south", true, null]
        ])
    );
    let joined = run_in(&engine, &session, "SELECT a.owner, o.amount FROM accounts a JOIN files.sales.orders o ON a.id = o.id ORDER BY 1").expect("a join");
    assert_eq!(json!(joined.rows), json!([["ada", 12.0], ["grace", 7.5]]));
    let shown = run_in(&engine, &session, "SHOW SCHEMAS FROM files").expect("schemas");
    assert_eq!(
        json!(shown.rows),
        json!([["information_schema"], ["sales"]])
    );
    assert!(run_in(&engine, &session, "DELETE FROM accounts").is_err());
    assert_eq!(
        run_in(&engine, &session, "SELECT count(*) FROM accounts")
            .expect("count")
            .rows,
        vec![vec![json!(2)]]
    );
    assert_eq!(TrinoType::Date.to_string(), "date");
}

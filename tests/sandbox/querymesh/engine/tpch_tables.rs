//! The eight tpch.tiny tables: the connector's columns, types and rows, written once into the
//! state directory and reused.

use serde_json::json;
use zero_sandbox::querymesh::engine::Engine;

use crate::support;
use crate::support::engine::{engine, ok};

const TABLES: &[(&str, u64, &str)] = &[
    (
        "nation",
        25,
        "nationkey bigint, name varchar(25), regionkey bigint, comment varchar(152)",
    ),
    (
        "region",
        5,
        "regionkey bigint, name varchar(25), comment varchar(152)",
    ),
    (
        "part",
        2000,
        "partkey bigint, name varchar(55), mfgr varchar(25), brand varchar(10), type varchar(25), size integer, container varchar(10), retailprice double, comment varchar(23)",
    ),
    (
        "supplier",
        100,
        "suppkey bigint, name varchar(25), address varchar(40), nationkey bigint, phone varchar(15), acctbal double, comment varchar(101)",
    ),
    (
        "partsupp",
        8000,
        "partkey bigint, suppkey bigint, availqty integer, supplycost double, comment varchar(199)",
    ),
    (
        "customer",
        1500,
        "custkey bigint, name varchar(25), address varchar(40), nationkey bigint, phone varchar(15), acctbal double, mktsegment varchar(10), comment varchar(117)",
    ),
    (
        "orders",
        15000,
        "orderkey bigint, custkey bigint, orderstatus varchar(1), totalprice double, orderdate date, orderpriority varchar(15), clerk varchar(15), shippriority integer, comment varchar(79)",
    ),
    (
        "lineitem",
        60175,
        "orderkey bigint, partkey bigint, suppkey bigint, linenumber integer, quantity double, extendedprice double, discount double, tax double, returnflag varchar(1), linestatus varchar(1), shipdate date, commitdate date, receiptdate date, shipinstruct varchar(25), shipmode varchar(10), comment varchar(44)",
    ),
];

#[test]
fn tpch_tables_have_the_connectors_columns_types_and_rows() {
    let engine = engine();
    for (table, count, schema) in TABLES {
        let select = ok(&engine, &format!("SELECT * FROM tpch.tiny.{table} LIMIT 1"));
        let shape: Vec<String> = select
            .names
            .iter()
            .zip(&select.types)
            .map(|(n, t)| format!("{n} {t}"))
            .collect();
        assert_eq!(&shape.join(", "), schema, "SELECT * from {table}");

        let described = ok(&engine, &format!("DESCRIBE {table}"));
        assert_eq!(described.names, ["Column", "Type", "Extra", "Comment"]);
        let shape: Vec<String> = described
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    r[0].as_str().unwrap_or(""),
                    r[1].as_str().unwrap_or("")
                )
            })
            .collect();
        assert_eq!(&shape.join(", "), schema, "DESCRIBE {table}");

        let info = ok(
            &engine,
            &format!(
                "SELECT column_name, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = '{table}' ORDER BY ordinal_position"
            ),
        );
        let shape: Vec<String> = info
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    r[0].as_str().unwrap_or(""),
                    r[1].as_str().unwrap_or("")
                )
            })
            .collect();
        assert_eq!(
            &shape.join(", "),
            schema,
            "information_schema.columns of {table}"
        );

        let counted = ok(&engine, &format!("SELECT count(*) FROM {table}"));
        assert_eq!(counted.rows, vec![vec![json!(count)]], "rows of {table}");
    }
    let first = ok(&engine, "SELECT * FROM nation ORDER BY nationkey LIMIT 1");
    assert_eq!(
        first.rows[0],
        vec![
            json!(0),
            json!("ALGERIA"),
            json!(0),
            json!(" haggle. carefully final deposits detect slyly agai")
        ]
    );
    let line = ok(
        &engine,
        "SELECT orderkey, partkey, suppkey, linenumber, quantity, extendedprice, discount, tax, shipdate FROM lineitem ORDER BY orderkey, linenumber LIMIT 1",
    );
    assert_eq!(
        line.rows[0],
        vec![
            json!(1),
            json!(1552),
            json!(93),
            json!(1),
            json!(17.0),
            json!(24710.35),
            json!(0.04),
            json!(0.02),
            json!("1996-03-13")
        ]
    );
}

#[test]
fn tpch_is_written_once_into_the_state_directory_and_reused() {
    let state = tempfile::tempdir().expect("a state directory");
    let mut config = support::test_config();
    config.state_dir = Some(state.path().to_path_buf());
    let first = Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
        .expect("the engine opens");
    let file = state
        .path()
        .join(zero_sandbox::querymesh::engine::tpch::file_name());
    let modified = std::fs::metadata(&file)
        .and_then(|m| m.modified())
        .expect("the written file");
    let leftovers: Vec<_> = std::fs::read_dir(state.path())
        .expect("the directory")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary files are left behind");
    drop(first);
    let again = Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
        .expect("the engine opens again");
    assert_eq!(
        std::fs::metadata(&file)
            .and_then(|m| m.modified())
            .expect("the file"),
        modified,
        "reused, not rewritten"
    );
    assert_eq!(
        ok(&again, "SELECT count(*) FROM lineitem").rows,
        vec![vec![json!(60175)]]
    );
}

//! EXPLAIN of a statement whose plan the stand-in does not know node for node (a filter, an
//! expression, a join…): the stand-in's own plan, the output, the reads and the SQLite
//! statement it runs, said so in its first line; Graphviz and TYPE IO, which would need
//! Trino's nodes, are refused. Not Trino's answers by design, so the parity corpus does not
//! take these statements (scripts/parity_extract.py, SKIP_FILES); explain.rs holds Trino's.

use serde_json::json;

use crate::support::engine::{engine, error, ok};

#[test]
fn any_other_statement_is_the_stand_ins_own_plan() {
    let engine = engine();
    let a = ok(
        &engine,
        "EXPLAIN SELECT name FROM tpch.tiny.nation WHERE regionkey = 1",
    );
    let plan = a.rows[0][0].as_str().unwrap_or_default().to_string();
    assert_eq!(a.types, vec![format!("varchar({})", plan.chars().count())]);
    for part in [
        "QueryMesh stand-in plan",
        "Output[columnNames = [name]]",
        "TableScan[table = tpch:tiny:nation]",
        "SQLite:",
    ] {
        assert!(plan.contains(part), "{part} in {plan}");
    }
    let a = ok(
        &engine,
        "EXPLAIN (FORMAT JSON) SELECT upper(name) FROM tpch.tiny.nation",
    );
    let plan: serde_json::Value =
        serde_json::from_str(a.rows[0][0].as_str().unwrap_or_default()).unwrap();
    assert_eq!(
        plan["columns"],
        json!([{"name": "_col0", "type": "varchar(25)"}])
    );
    // Graphviz draws Trino's nodes only.
    assert_eq!(
        error(
            &engine,
            "EXPLAIN (FORMAT GRAPHVIZ) SELECT upper(name) FROM tpch.tiny.nation"
        ),
        "NOT_SUPPORTED: line 1:17: EXPLAIN (FORMAT GRAPHVIZ) is not supported by the QueryMesh \
         stand-in beyond constant rows, a tpch table's columns, a count per key and SHOW CATALOGS"
    );
    assert!(
        error(
            &engine,
            "EXPLAIN (TYPE IO) SELECT name FROM nation WHERE regionkey = 1"
        )
        .starts_with("NOT_SUPPORTED: line 1:15: EXPLAIN (TYPE IO) is not supported"),
    );
}

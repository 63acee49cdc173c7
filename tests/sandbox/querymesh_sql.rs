//! The QueryMesh engine at library level: Trino SQL through `Engine::prepare` and
//! `Prepared::run` on `Engine::connect`, against tpch.tiny and the developer's catalogs.

use serde_json::Value;
use zero_sandbox::querymesh::engine::{Engine, OutputColumn, SessionContext};

use crate::support;

fn engine() -> Engine {
    Engine::open(&support::test_config()).expect("the engine opens")
}

fn tiny() -> SessionContext {
    SessionContext {
        catalog: Some("tpch".into()),
        schema: Some("tiny".into()),
    }
}

fn query(engine: &Engine, sql: &str) -> Result<(Vec<OutputColumn>, Vec<Vec<Value>>), String> {
    let prepared = engine
        .prepare(sql, &tiny())
        .map_err(|e| format!("{}: {}", e.name.name_and_code().0, e.message()))?;
    let conn = engine.connect().expect("a connection");
    let mut rows = Vec::new();
    prepared
        .run(&conn, &mut |r| {
            rows.push(r);
            true
        })
        .map_err(|e| match e {
            zero_sandbox::querymesh::engine::RunError::Query(e) => {
                format!("{}: {}", e.name.name_and_code().0, e.message())
            }
            other => other.to_string(),
        })?;
    Ok((prepared.columns, rows))
}

#[test]
fn debug_tpch_queries() {
    let engine = engine();
    for n in 1..=22 {
        let sql =
            std::fs::read_to_string(format!("fixtures/tpch/queries/q{n}.sql")).expect("query text");
        let started = std::time::Instant::now();
        match query(&engine, &sql) {
            Ok((cols, rows)) => {
                let types: Vec<String> = cols
                    .iter()
                    .map(|c| format!("{} {}", c.name, c.ty))
                    .collect();
                eprintln!(
                    "q{n} {:?} rows={} {:?} first={:?}",
                    started.elapsed(),
                    rows.len(),
                    types,
                    rows.first()
                );
            }
            Err(e) => eprintln!("q{n} ERROR {e}"),
        }
    }
}

#[test]
fn debug_adhoc() {
    let engine = engine();
    for sql in [
        "SELECT count(*) FROM part WHERE brand = 'Brand#23' AND container = 'MED BOX'",
        "SELECT p.partkey, (SELECT 0.2 * avg(l2.quantity) FROM lineitem l2 WHERE l2.partkey = p.partkey), (SELECT min(quantity) FROM lineitem l3 WHERE l3.partkey = p.partkey) FROM part p WHERE brand = 'Brand#23' AND container = 'MED BOX'",
        "SELECT 0.06 - 0.01, 7/2, 1.5, avg(nationkey), sum(regionkey), typeof(1.5 * 2) FROM nation",
    ] {
        eprintln!("{sql}\n  => {:?}", query(&engine, sql));
    }
}

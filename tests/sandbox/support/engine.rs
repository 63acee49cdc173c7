//! Runs Trino SQL on the QueryMesh engine directly (no HTTP), for the SQL tests: an answer's
//! column names, Trino types and rows in Trino's JSON encoding, or its error as
//! `"ERROR_NAME: message"`.

use serde_json::Value;
use zero_sandbox::querymesh::engine::{Engine, RunError, SessionContext};

use crate::support;

pub fn engine() -> Engine {
    Engine::open(&support::test_config().querymesh.engine(), None).expect("the engine opens")
}

pub fn tiny() -> SessionContext {
    SessionContext {
        catalog: Some("tpch".into()),
        schema: Some("tiny".into()),
        ..Default::default()
    }
}

pub struct Answer {
    pub names: Vec<String>,
    pub types: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

/// Runs `sql`; an error is `"ERROR_NAME: message"`.
pub fn run_in(engine: &Engine, session: &SessionContext, sql: &str) -> Result<Answer, String> {
    let describe = |e: &zero_sandbox::querymesh::engine::error::TrinoError| {
        format!("{}: {}", e.name.name_and_code().0, e.message())
    };
    let prepared = engine.prepare(sql, session).map_err(|e| describe(&e))?;
    let conn = engine.connect().expect("a connection");
    let mut rows = Vec::new();
    prepared
        .run(&conn, &mut |r| {
            rows.push(r);
            true
        })
        .map_err(|e| match e {
            RunError::Query(e) => describe(&e),
            // What the server answers, and the engine's own words for it (never SQL).
            RunError::Internal(e) => format!("GENERIC_INTERNAL_ERROR: {e}"),
            RunError::Interrupted => "interrupted".into(),
        })?;
    Ok(Answer {
        names: prepared.columns.iter().map(|c| c.name.clone()).collect(),
        types: prepared.columns.iter().map(|c| c.ty.to_string()).collect(),
        rows,
    })
}

pub fn run(engine: &Engine, sql: &str) -> Result<Answer, String> {
    run_in(engine, &tiny(), sql)
}

pub fn ok(engine: &Engine, sql: &str) -> Answer {
    match run(engine, sql) {
        Ok(a) => a,
        Err(e) => panic!("{sql} failed: {e}"),
    }
}

pub fn single(engine: &Engine, sql: &str) -> (String, Value) {
    let a = ok(engine, sql);
    (a.types[0].clone(), a.rows[0][0].clone())
}

pub fn error(engine: &Engine, sql: &str) -> String {
    match run(engine, sql) {
        Ok(_) => panic!("{sql} should fail"),
        Err(e) => e,
    }
}

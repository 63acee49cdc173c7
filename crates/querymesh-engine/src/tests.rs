//! The plan cache's tests: one plan per text and session, never another session's, bounded,
//! and each plan's last run remembered.

use std::sync::Arc;
use std::time::Duration;

use super::error::ErrorName;

use super::*;

fn engine() -> Engine {
    Engine::open(&crate::EngineConfig::default(), None).expect("the engine opens")
}

fn session(catalog: Option<&str>, schema: Option<&str>) -> SessionContext {
    SessionContext {
        catalog: catalog.map(str::to_string),
        schema: schema.map(str::to_string),
        ..SessionContext::default()
    }
}

#[test]
fn the_same_text_and_session_share_one_plan() {
    let engine = engine();
    let tiny = session(Some("tpch"), Some("tiny"));
    let first = engine
        .prepare("SELECT name FROM nation", &tiny)
        .expect("plans");
    let again = engine
        .prepare("SELECT name FROM nation", &tiny)
        .expect("plans");
    assert!(Arc::ptr_eq(&first, &again));
    assert_eq!(first.columns, again.columns);
    // Refusals are not remembered, and are refused the same way every time.
    for _ in 0..2 {
        let refused = engine.prepare("SELECT nope FROM nation", &tiny);
        assert_eq!(
            refused.expect_err("refused").name,
            ErrorName::ColumnNotFound
        );
    }
    assert_eq!(engine.plans().len(), 1);
}

#[test]
fn another_session_default_never_gets_anothers_plan() {
    let engine = engine();
    let tiny = session(Some("tpch"), Some("tiny"));
    let info = session(Some("tpch"), Some("information_schema"));
    let bare = session(None, None);
    let regions = engine
        .prepare("SELECT * FROM region", &tiny)
        .expect("plans");
    assert_eq!(regions.reads[0].table, "region");
    // The same text under other defaults is analysed for those defaults.
    assert_eq!(
        engine
            .prepare("SELECT * FROM region", &info)
            .expect_err("no region in information_schema")
            .name,
        ErrorName::TableNotFound
    );
    assert!(engine.prepare("SELECT * FROM region", &bare).is_err());
    let tables = engine
        .prepare("SELECT table_name FROM tables", &info)
        .expect("plans");
    assert_eq!(tables.reads[0].schema, "information_schema");
    assert!(
        engine
            .prepare("SELECT table_name FROM tables", &tiny)
            .is_err()
    );
    // And the first session still gets its own plan.
    let again = engine
        .prepare("SELECT * FROM region", &tiny)
        .expect("plans");
    assert!(Arc::ptr_eq(&regions, &again));
}

#[test]
fn the_plan_cache_is_bounded() {
    let engine = engine();
    let tiny = session(Some("tpch"), Some("tiny"));
    let first = engine
        .prepare("SELECT 0 FROM region", &tiny)
        .expect("plans");
    for i in 1..PLAN_CACHE_SIZE + 20 {
        engine
            .prepare(&format!("SELECT {i} FROM region"), &tiny)
            .expect("plans");
        assert!(engine.plans().len() <= PLAN_CACHE_SIZE);
    }
    // The least recently used plan was forgotten: it is planned again.
    let again = engine
        .prepare("SELECT 0 FROM region", &tiny)
        .expect("plans");
    assert!(!Arc::ptr_eq(&first, &again));
    // A text past PLAN_CACHE_MAX_SQL_BYTES is planned but never kept.
    let long = format!(
        "SELECT 1 FROM region WHERE name <> '{}'",
        "x".repeat(PLAN_CACHE_MAX_SQL_BYTES)
    );
    let a = engine.prepare(&long, &tiny).expect("plans");
    let b = engine.prepare(&long, &tiny).expect("plans");
    assert!(!Arc::ptr_eq(&a, &b));
}

#[test]
fn a_plan_remembers_how_long_its_last_run_took() {
    let engine = engine();
    let tiny = session(Some("tpch"), Some("tiny"));
    let select = engine.prepare("SELECT 1", &tiny).expect("plans");
    assert_eq!(select.last_run(), None);
    select.record_run(Duration::from_micros(70));
    assert_eq!(select.last_run(), Some(Duration::from_micros(70)));
    let show = engine
        .prepare("SHOW SCHEMAS FROM tpch", &tiny)
        .expect("plans");
    assert_eq!(show.last_run(), Some(Duration::ZERO));
}

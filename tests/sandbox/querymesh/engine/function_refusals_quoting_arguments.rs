//! A function's refusal quotes its argument back, whatever the argument says: text that reads
//! like one of SQLite's limits is not mistaken for one. Found by the `sql_pipeline` fuzz
//! target (fuzz/corpus/sql_pipeline/function-refusal-quoting-a-sqlite-phrase.sql).

use crate::support::engine::{engine, error};

#[test]
fn a_refusal_quoting_a_sqlite_limit_phrase_keeps_its_trino_error() {
    let engine = engine();
    let refused = error(
        &engine,
        "SELECT parse_datetime('x parser stack overflow', 'yyyy')",
    );
    assert!(
        refused
            .starts_with("INVALID_FUNCTION_ARGUMENT: Invalid format: \"x parser stack overflow\""),
        "{refused}"
    );
}

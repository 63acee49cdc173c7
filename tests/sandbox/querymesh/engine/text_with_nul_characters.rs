//! A NUL character is text like any other in Trino's varchar: a literal holding one reaches
//! SQLite whole (SQLite stops reading SQL text at a NUL). Found by the `sql_pipeline` fuzz
//! target (fuzz/corpus/sql_pipeline/nul-in-string-literal.sql).

use serde_json::json;

use crate::support::engine::{engine, error, ok};

#[test]
fn a_string_literal_holding_a_nul_character_is_compared_whole() {
    let engine = engine();
    for (sql, count) in [
        ("SELECT count(*) FROM nation WHERE name = 'JAPAN\0'", 0),
        ("SELECT count(*) FROM nation WHERE name <> 'JAPAN\0'", 25),
        ("SELECT count(*) FROM nation WHERE name = 'JAPAN'", 1),
        (
            "SELECT count(*) FROM region r WHERE EXISTS (SELECT 1 FROM nation n \
             WHERE n.regionkey = r.regionkey AND n.name = 'JAPA\0\0N')",
            0,
        ),
    ] {
        assert_eq!(ok(&engine, sql).rows, vec![vec![json!(count)]], "{sql:?}");
    }
}

#[test]
fn a_nul_character_in_a_literal_comes_back_as_it_was_written() {
    let engine = engine();
    let answer = ok(&engine, "SELECT 'a' || 'b\0c' || 'd'");
    assert_eq!(answer.rows, vec![vec![json!("ab\0cd")]]);
}

/// A function's refusal that quotes an argument holding a NUL keeps its Trino error (the
/// message crosses SQLite as a C string; the NUL is shown as U+FFFD).
#[test]
fn a_refusal_quoting_a_nul_character_keeps_its_trino_error() {
    let engine = engine();
    let refused = error(&engine, "SELECT parse_datetime('20\0x', 'yyyy')");
    assert!(
        refused.starts_with("INVALID_FUNCTION_ARGUMENT: Invalid format: \"20\u{FFFD}x\""),
        "{refused}"
    );
}

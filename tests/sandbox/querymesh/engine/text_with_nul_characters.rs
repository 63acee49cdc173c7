//! A NUL character is text like any other in Trino's varchar: a literal holding one reaches
//! SQLite whole (SQLite stops reading SQL text at a NUL). Found by the `sql_pipeline` fuzz
//! target (fuzz/corpus/sql_pipeline/nul-in-string-literal.sql).

use serde_json::json;

use crate::support::engine::{engine, ok};

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

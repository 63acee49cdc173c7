//! Casts whose type texts overlap (a CAST inside another's type text) are refused, not a
//! panic. Found by the `sql_pipeline` fuzz target; its input is the seed below.

use crate::support::engine::{engine, run};

#[test]
fn overlapping_cast_type_texts_are_refused_not_a_panic() {
    let engine = engine();
    let sql = include_str!("../../../../fuzz/corpus/sql_pipeline/overlapping-cast-type-texts.sql");
    let Err(refused) = run(&engine, sql) else {
        panic!("answered, though it is not Trino SQL");
    };
    assert!(refused.starts_with("SYNTAX_ERROR: "), "{refused}");
}

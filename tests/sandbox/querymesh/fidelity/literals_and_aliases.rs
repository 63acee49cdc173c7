//! Literals and aliases sqlparser reads differently from Trino.

use serde_json::json;

use super::{Mesh, column_of};
use crate::support;

#[tokio::test]
async fn integer_spellings_and_string_aliases_are_trinos() {
    let mesh = Mesh::start(support::test_config()).await;
    // SqlBase.g4 INTEGER_VALUE: `_` between digits, hexadecimal, octal and binary.
    let answer = mesh
        .run("SELECT 1_000, 0x1F, 0b101, 0o17, 1_000.5, 9_000_000_000")
        .await;
    assert_eq!(
        answer.succeeded().rows(),
        vec![json!([1000, 31, 5, 15, "1000.5", 9_000_000_000u64])]
    );
    let types: Vec<&str> = answer.pages.last().expect("a page")["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .map(|c| c["type"].as_str().expect("a type"))
        .collect();
    assert_eq!(
        types,
        [
            "integer",
            "integer",
            "integer",
            "integer",
            "decimal(5, 1)",
            "bigint"
        ]
    );
    let ten = mesh
        .run("SELECT count(*) FROM (SELECT name FROM tpch.tiny.nation LIMIT 1_0)")
        .await;
    assert_eq!(ten.succeeded().rows(), vec![json!([10])]);
    // An alias is an identifier in Trino, never a string.
    for (sql, found) in [
        ("SELECT 'a' 'b'", "'b'"),
        ("SELECT name FROM tpch.tiny.nation 'n'", "'n'"),
    ] {
        let error = mesh.run(sql).await.error().clone();
        assert_eq!(error["errorName"], "SYNTAX_ERROR", "{sql}");
        assert_eq!(
            error["message"],
            format!(
                "line 1:{}: mismatched input '{found}'",
                column_of(sql, found)
            )
        );
    }
}

//! USE answers with Trino's session headers, on its last page as Trino sends them (Trino's
//! Java client keeps the catalog and schema of its last answer only).

use serde_json::json;

use super::{ADA, Answer, Mesh};
use crate::support;

#[tokio::test]
async fn use_answers_with_trinos_session_headers() {
    let mesh = Mesh::start(support::test_config()).await;
    let header = |a: &Answer, name: &str| {
        a.headers
            .get(name)
            .map(|v| v.to_str().expect("text").to_string())
    };
    let both = mesh.run("USE tpch.tiny").await;
    both.succeeded();
    // Trino 476's answer to a statement without output: no columns (`"columns": []`), no
    // rows, its updateType.
    let columns = both.pages.last().expect("a page")["columns"].clone();
    assert_eq!(columns, json!([]), "{columns}");
    assert!(both.rows().is_empty());
    let last = both.pages.last().expect("a page");
    assert_eq!(last["updateType"], "USE", "{last}");
    let select = mesh.run("SELECT 1").await;
    let last = select.pages.last().expect("a page");
    assert!(last.get("updateType").is_none(), "a read has none: {last}");
    assert_eq!(
        header(&both, "x-trino-set-catalog").as_deref(),
        Some("tpch")
    );
    assert_eq!(header(&both, "x-trino-set-schema").as_deref(), Some("tiny"));
    // Not on the POST's answer: the statement has not run yet.
    let posted = mesh.post(ADA, &[], "USE tpch.tiny").await;
    assert!(posted.headers().get("x-trino-set-schema").is_none());

    let tpch = [("X-Trino-Catalog", "tpch")];
    let schema_only = mesh.run_with(ADA, &tpch, "use TINY").await;
    schema_only.succeeded();
    assert_eq!(header(&schema_only, "x-trino-set-catalog"), None);
    assert_eq!(
        header(&schema_only, "x-trino-set-schema").as_deref(),
        Some("tiny")
    );

    for (headers, sql, name, message) in [
        (
            &[][..],
            "USE tiny",
            "MISSING_CATALOG_NAME",
            "line 1:1: Catalog must be specified when session catalog is not set",
        ),
        (
            &[][..],
            "USE nosuch.tiny",
            "CATALOG_NOT_FOUND",
            "Catalog 'nosuch' not found",
        ),
        (
            &tpch[..],
            "USE nosuch",
            "NOT_FOUND",
            "Schema does not exist: tpch.nosuch",
        ),
        (
            &[][..],
            "USE tpch.tiny.nation",
            "SYNTAX_ERROR",
            "line 1:14: mismatched input '.'. Expecting: <EOF>",
        ),
    ] {
        let answer = mesh.run_with(ADA, headers, sql).await;
        assert_eq!(answer.error()["errorName"], name, "{sql}");
        assert_eq!(answer.error()["message"], message, "{sql}");
        assert_eq!(header(&answer, "x-trino-set-schema"), None, "{sql}");
    }
}

//! Doubles are written as Java writes them.

use serde_json::json;

use super::Mesh;
use crate::support;

#[tokio::test]
async fn doubles_are_written_as_java_writes_them() {
    let mesh = Mesh::start(support::test_config()).await;
    let answer = mesh
        .run(
            "SELECT 1e7, 9999999e0, 12345678e0, 1e-4, 0.001e0, 100e0, 0.1e0 + 0.2e0, \
             4.9e-324, 1.7976931348623157e308, -2.5e10, CAST(0.1 AS real), \
             CAST(1e7 AS varchar), CAST(CAST(0.1 AS real) AS varchar)",
        )
        .await;
    answer.succeeded();
    let text = answer.texts.concat();
    let expected = r#"[[1.0E7,9999999.0,1.2345678E7,1.0E-4,0.001,100.0,0.30000000000000004,4.9E-324,1.7976931348623157E308,-2.5E10,0.1,"1.0E7","1.0E-1"]]"#;
    assert!(
        text.contains(&format!("\"data\":{expected}")),
        "data as Trino writes it: {expected}\nin {text}"
    );
    // Every page is still JSON that any parser reads as numbers.
    assert_eq!(answer.rows()[0][0].as_f64(), Some(1e7));
    let big = mesh
        .run("SELECT sum(totalprice) > 1e9, max(totalprice) FROM tpch.tiny.orders")
        .await;
    assert_eq!(big.succeeded().rows(), vec![json!([true, 466001.28])]);
}

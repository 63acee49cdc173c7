//! json columns over the statement protocol: type `json`, `typeSignature` without arguments,
//! and the value a JSON string holding the JSON text (trino-facts.md "Value encoding"), also
//! inside arrays and maps.

use serde_json::json;

use super::{Mesh, rows};

#[tokio::test]
async fn json_columns_carry_the_json_text_as_a_string() {
    let mesh = Mesh::start().await;
    let pages = mesh
        .run(
            "SELECT json_parse('{\"b\": [1, 2.5], \"a\": null}') AS j, \
             CAST(JSON '[[1], {\"x\": true}]' AS array(json)) AS aj, \
             json_extract('[\"x\"]', '$[0]') AS s",
        )
        .await;
    let last = pages.last().expect("pages");
    let json_type = json!({"rawType": "json", "arguments": []});
    assert_eq!(
        last["columns"],
        json!([
            {"name": "j", "type": "json", "typeSignature": json_type},
            {"name": "aj", "type": "array(json)", "typeSignature": {"rawType": "array",
                "arguments": [{"kind": "TYPE", "value": json_type}]}},
            {"name": "s", "type": "json", "typeSignature": json_type},
        ])
    );
    assert_eq!(
        rows(&pages),
        vec![json!([
            r#"{"a":null,"b":[1,2.5]}"#,
            ["[1]", r#"{"x":true}"#],
            r#""x""#
        ])]
    );
}

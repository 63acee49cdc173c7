//! Complex columns over the statement protocol: the column `type` (ProtocolUtil.formatType,
//! arguments joined with ", ") and `typeSignature` (row fields as NAMED_TYPE with fieldName,
//! TypeSignature / NamedTypeSignature), and values as Trino's JSON encodes them
//! (trino-facts.md "Value encoding": arrays as arrays, maps as objects with string keys, rows
//! positional, varbinary base64).

use serde_json::json;

use super::{Mesh, rows};

#[tokio::test]
async fn array_map_and_row_columns_carry_trinos_types_and_values() {
    let mesh = Mesh::start().await;
    let pages = mesh
        .run(
            "SELECT ARRAY[1, 2] AS a, \
             CAST(ROW(1, 'x') AS ROW(k bigint, \"V\" varchar)) AS r, \
             CAST(NULL AS map(varchar, array(double))) AS m, \
             ARRAY[CAST('ab' AS varbinary)] AS b, \
             CAST('12151fd2-7586-11e9-8f9e-2a86e4085a59' AS uuid) AS u",
        )
        .await;
    let last = pages.last().expect("pages");
    let long = |v: u64| json!({"kind": "LONG", "value": v});
    let bigint = json!({"rawType": "bigint", "arguments": []});
    let varchar = json!({"rawType": "varchar", "arguments": [long(2147483647)]});
    assert_eq!(
        last["columns"],
        json!([
            {"name": "a", "type": "array(integer)", "typeSignature": {"rawType": "array",
                "arguments": [{"kind": "TYPE", "value": {"rawType": "integer", "arguments": []}}]}},
            {"name": "r", "type": "row(k bigint, V varchar)", "typeSignature": {"rawType": "row",
                "arguments": [
                    {"kind": "NAMED_TYPE", "value": {"fieldName": {"name": "k"}, "typeSignature": bigint}},
                    {"kind": "NAMED_TYPE", "value": {"fieldName": {"name": "V"}, "typeSignature": varchar}},
                ]}},
            {"name": "m", "type": "map(varchar, array(double))", "typeSignature": {"rawType": "map",
                "arguments": [
                    {"kind": "TYPE", "value": varchar},
                    {"kind": "TYPE", "value": {"rawType": "array", "arguments": [
                        {"kind": "TYPE", "value": {"rawType": "double", "arguments": []}}]}},
                ]}},
            {"name": "b", "type": "array(varbinary)", "typeSignature": {"rawType": "array",
                "arguments": [{"kind": "TYPE", "value": {"rawType": "varbinary", "arguments": []}}]}},
            {"name": "u", "type": "uuid", "typeSignature": {"rawType": "uuid", "arguments": []}},
        ])
    );
    assert_eq!(
        rows(&pages),
        vec![json!([
            [1, 2],
            [1, "x"],
            null,
            ["YWI="],
            "12151fd2-7586-11e9-8f9e-2a86e4085a59"
        ])]
    );
}

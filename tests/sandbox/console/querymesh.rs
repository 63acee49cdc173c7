//! `GET querymesh/tables` and `GET querymesh/policies`: what QueryMesh holds as a person sees
//! it (asked over the Trino protocol with a token for that person, so the data policies shape
//! the listing as Trino's `information_schema` is shaped by access control), and the policies
//! in force.

use serde_json::{Value, json};

use crate::control::{Control, assert_api_error};
use crate::support;

/// Analysts read everything in tpch; anyone else reads only `region` (Trino's file-based
/// access control: the first `tables` rule that matches applies; a table no rule grants is
/// hidden from `information_schema`, as
/// https://trino.io/docs/current/security/file-system-access-control.html describes).
const RULES: &str = r#"{
    "catalogs": [{"catalog": "tpch", "allow": "read-only"}],
    "tables": [
        {"group": "analysts", "privileges": ["SELECT"]},
        {"table": "region", "privileges": ["SELECT"]}
    ]
}"#;

fn tables_of(listing: &Value, catalog: &str, schema: &str) -> Vec<String> {
    listing["catalogs"]
        .as_array()
        .expect("catalogs")
        .iter()
        .filter(|c| c["name"] == catalog)
        .flat_map(|c| c["schemas"].as_array().cloned().unwrap_or_default())
        .filter(|s| s["name"] == schema)
        .flat_map(|s| s["tables"].as_array().cloned().unwrap_or_default())
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

fn columns_of(listing: &Value, table: &str) -> Vec<(String, String)> {
    listing["catalogs"]
        .as_array()
        .expect("catalogs")
        .iter()
        .flat_map(|c| c["schemas"].as_array().cloned().unwrap_or_default())
        // Every tpch schema lists the same tables (Trino's tpch connector): tiny's.
        .filter(|s| s["name"] == "tiny")
        .flat_map(|s| s["tables"].as_array().cloned().unwrap_or_default())
        .filter(|t| t["name"] == table)
        .flat_map(|t| t["columns"].as_array().cloned().unwrap_or_default())
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["type"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn tables_lists_tpch_tiny_with_trinos_column_names_and_types() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let (status, listing) = control.get("/querymesh/tables?person=ada").await;
    assert_eq!(status, 200, "{listing}");
    assert_eq!(listing["person"]["preferred_username"], "ada");
    let tables = tables_of(&listing, "tpch", "tiny");
    for table in [
        "customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier",
    ] {
        assert!(tables.contains(&table.to_string()), "{table} in {tables:?}");
    }
    // Trino's tpch connector's nation table, in its column order
    // (trino/plugin/trino-tpch TpchMetadata; `varchar(25)` for name).
    let nation: Vec<(String, String)> = columns_of(&listing, "nation");
    let want = [
        ("nationkey", "bigint"),
        ("name", "varchar(25)"),
        ("regionkey", "bigint"),
        ("comment", "varchar(152)"),
    ];
    assert_eq!(
        nation,
        want.map(|(n, t)| (n.to_string(), t.to_string())),
        "{listing}"
    );

    // Without `person`: as the first configured person, named in the answer.
    let (status, default) = control.get("/querymesh/tables").await;
    assert_eq!(status, 200);
    assert_eq!(
        default["person"]["sub"],
        sandbox.config().people[0].sub.as_str()
    );

    let answer = control.get("/querymesh/tables?person=nobody").await;
    assert_api_error(&answer, 404, "UNKNOWN_PERSON", "nobody");
    let answer = control.get("/querymesh/tables?who=ada").await;
    assert_api_error(&answer, 400, "INVALID_REQUEST", "`who`");
}

#[tokio::test]
async fn under_data_policies_each_person_sees_only_what_they_may_read_and_the_rules_are_shown() {
    let (config, dir) = support::config_with_rules(RULES, "");
    let rules = dir.path().join("rules.json");
    let sandbox = support::start_with(config).await;
    let control = Control::of(&sandbox);

    let (_, ada) = control.get("/querymesh/tables?person=ada").await;
    assert!(
        tables_of(&ada, "tpch", "tiny").contains(&"nation".to_string()),
        "{ada}"
    );
    let (status, grace) = control.get("/querymesh/tables?person=grace").await;
    assert_eq!(status, 200, "{grace}");
    assert_eq!(tables_of(&grace, "tpch", "tiny"), ["region"], "{grace}");

    let (status, policies) = control.get("/querymesh/policies").await;
    assert_eq!(status, 200);
    let expected: Value = serde_json::from_str(RULES).unwrap();
    assert_eq!(policies["access_control"]["rules"], expected);
    assert_eq!(
        policies["access_control"]["path"],
        rules.display().to_string()
    );
    assert!(policies["querymesh_limits"]["max_running_queries_per_person"].is_u64());
}

#[tokio::test]
async fn without_an_access_control_file_the_policies_are_null() {
    let mut config = support::test_config();
    config.querymesh.access_control = None;
    let sandbox = support::start_with(config).await;
    let control = Control::of(&sandbox);
    let (status, policies) = control.get("/querymesh/policies").await;
    assert_eq!(status, 200);
    assert_eq!(policies["access_control"], json!(null));
}

#[tokio::test]
async fn the_built_in_demo_policies_are_shown_as_built_in() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let (status, policies) = control.get("/querymesh/policies").await;
    assert_eq!(status, 200);
    assert_eq!(policies["access_control"]["path"], "builtin:demo");
    assert!(
        policies["access_control"]["rules"]["tables"].is_array(),
        "{policies}"
    );
    // In words: the one restricting rule, and the one configured person it hits (Dana).
    let dana = &sandbox.config().people.last().expect("Dana").sub;
    assert_eq!(
        policies["access_control"]["restrictions"],
        json!([{
            "rule": 0,
            "for": "group demo-restricted",
            "tables": "tpch.*.customer",
            "effects": ["only EUROPE's customers (272 of 1,500)", "phone masked"],
            "people": [dana],
        }])
    );
}

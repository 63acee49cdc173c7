use std::sync::Arc;

use super::*;

fn person(name: &str, groups: &[&str]) -> User {
    User {
        name: name.into(),
        groups: groups.iter().map(|g| g.to_string()).collect(),
    }
}

fn read(table: &str, columns: &[&str]) -> TableAccess {
    TableAccess {
        catalog: "tpch".into(),
        schema: "tiny".into(),
        table: table.into(),
        columns: columns.iter().map(|c| c.to_string()).collect(),
        ..TableAccess::default()
    }
}

const RULES: &str = r#"{
    "catalogs": [
        {"group": "contractors", "allow": "none"},
        {"catalog": "tpch", "allow": "read-only"}
    ],
    "tables": [
        {"user": "alan", "table": "nation", "privileges": []},
        {"group": "analysts", "table": "customer", "privileges": ["SELECT"],
         "columns": [{"name": "phone", "allow": false}]},
        {"group": "analysts", "privileges": ["SELECT"]},
        {"table": "region", "privileges": ["SELECT"]}
    ]
}"#;

#[test]
fn first_matching_rule_decides() {
    let ac = AccessControl::parse(RULES).unwrap();
    let ada = person("ada", &["analysts"]);
    assert!(ac.check_select(&ada, &[read("nation", &["name"])]).is_ok());
    let alan = person("alan", &["analysts"]);
    let e = ac
        .check_select(&alan, &[read("nation", &["name"])])
        .unwrap_err();
    assert_eq!(e.name, ErrorName::PermissionDenied);
    assert_eq!(
        e.message(),
        "Access Denied: Cannot select from table tpch.tiny.nation"
    );
}

#[test]
fn no_matching_rule_denies_and_denied_columns_deny() {
    let ac = AccessControl::parse(RULES).unwrap();
    let grace = person("grace", &["engineering"]);
    assert!(ac.check_select(&grace, &[read("region", &[])]).is_ok());
    assert!(ac.check_select(&grace, &[read("nation", &[])]).is_err());
    let ada = person("ada", &["/analysts"]);
    assert!(
        ac.check_select(&ada, &[read("customer", &["name"])])
            .is_ok()
    );
    assert!(
        ac.check_select(&ada, &[read("customer", &["name", "phone"])])
            .is_err()
    );
}

#[test]
fn catalog_none_denies_and_information_schema_is_exempt_from_table_rules() {
    let ac = AccessControl::parse(RULES).unwrap();
    let eve = person("eve", &["contractors", "analysts"]);
    assert!(ac.check_select(&eve, &[read("nation", &[])]).is_err());
    let mut info = read("tables", &[]);
    info.schema = INFORMATION_SCHEMA.into();
    // Trino checks the catalog before the information_schema exemption.
    assert!(ac.check_select(&eve, &[info.clone()]).is_err());
    let alan = person("alan", &[]);
    assert!(ac.check_select(&alan, &[read("nation", &[])]).is_err());
    assert!(ac.check_select(&alan, &[info]).is_ok());
}

fn viewer(rules: &str, who: &User) -> Viewer {
    Viewer::of(&Arc::new(AccessControl::parse(rules).unwrap()), who).unwrap()
}

#[test]
fn viewers_see_what_trinos_filters_let_through() {
    let ada = viewer(RULES, &person("ada", &["analysts"]));
    assert!(ada.sees_catalog("tpch"));
    assert!(ada.sees_schema("tpch", "tiny"));
    assert!(ada.sees_table("tpch", "tiny", "nation"));
    assert!(ada.sees_column("tpch", "tiny", "customer", "name"));
    assert!(!ada.sees_column("tpch", "tiny", "customer", "phone"));
    // Alan's nation rule grants nothing: nation is hidden, region is not.
    let alan = viewer(RULES, &person("alan", &[]));
    assert!(!alan.sees_table("tpch", "tiny", "nation"));
    assert!(!alan.may_show_columns("tpch", "tiny", "nation"));
    assert!(alan.sees_table("tpch", "tiny", "region"));
    assert!(alan.sees_table("tpch", "information_schema", "tables"));
    let eve = viewer(RULES, &person("eve", &["contractors"]));
    assert!(!eve.sees_catalog("tpch"));
    assert!(!eve.sees_schema("tpch", "information_schema"));
    // No rule reaches the catalog "other": catalog access none.
    assert!(!ada.sees_catalog("other"));
}

#[test]
fn schema_owners_see_every_table_and_other_privileges_every_column() {
    let rules = r#"{
        "schemas": [{"user": "olga", "schema": "tiny", "owner": true}],
        "tables": [
            {"user": "olga", "table": "region", "privileges": []},
            {"user": "dan", "table": "customer", "privileges": ["SELECT", "DELETE"],
             "columns": [{"name": "phone", "allow": false}]},
            {"user": "dan", "table": "orders", "privileges": ["SELECT"]}
        ]
    }"#;
    let olga = viewer(rules, &person("olga", &[]));
    assert!(olga.sees_schema("tpch", "tiny"));
    assert!(olga.sees_table("tpch", "tiny", "region"));
    assert!(!olga.sees_column("tpch", "tiny", "region", "name"));
    let dan = viewer(rules, &person("dan", &[]));
    assert!(dan.sees_column("tpch", "tiny", "customer", "phone"));
    assert!(dan.sees_schema("tpch", "tiny"));
    // Neither owner nor granted anything: the schema is hidden, information_schema not.
    let zed = viewer(rules, &person("zed", &[]));
    assert!(!zed.sees_schema("tpch", "tiny"));
    assert!(zed.sees_schema("tpch", "information_schema"));
    assert!(!dan.sees_table("tpch", "tiny", "nation"));
    assert!(Viewer::of(&Arc::new(AccessControl::allow_all()), &person("x", &[])).is_none());
}

#[test]
fn missing_sections_allow_and_patterns_are_anchored() {
    let ac = AccessControl::parse(r#"{"tables": [{"table": "nat", "privileges": ["SELECT"]}]}"#)
        .unwrap();
    let p = person("x", &[]);
    assert!(ac.check_select(&p, &[read("nation", &[])]).is_err());
    assert!(
        AccessControl::parse("{}")
            .unwrap()
            .check_select(&p, &[read("nation", &[])])
            .is_ok()
    );
}

#[test]
fn typos_are_refused() {
    for bad in [
        r#"{"tables": [{"filter": "true AND", "privileges": ["SELECT"]}]}"#,
        r#"{"tables": [{"columns": [{"name": "a", "mask": "'x"}]}]}"#,
        r#"{"tables": [{"filter": "true", "filter_environment": {"usr": "a"}}]}"#,
        r#"{"tables": [{"privileges": ["SELEKT"]}]}"#,
        r#"{"catalogs": [{"allow": "maybe"}]}"#,
        r#"{"tabels": []}"#,
        r#"{"tables": [{"table": "(", "privileges": []}]}"#,
    ] {
        assert!(AccessControl::parse(bad).is_err(), "{bad}");
    }
}

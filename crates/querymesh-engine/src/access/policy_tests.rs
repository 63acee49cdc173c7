//! Row filters and column masks at engine level: parsed when the rules load, validated against
//! the catalogs, applied where a table is read, never to information_schema.

use std::sync::Arc;

use serde_json::{Value, json};

use super::*;
use crate::{Engine, SessionContext};

fn engine() -> Engine {
    Engine::open(&crate::EngineConfig::default(), None).expect("the engine opens")
}

fn person(name: &str, groups: &[&str]) -> User {
    User {
        name: name.into(),
        groups: groups.iter().map(|g| g.to_string()).collect(),
    }
}

fn session(rules: &Arc<AccessControl>, who: &User) -> SessionContext {
    SessionContext {
        catalog: Some("tpch".into()),
        schema: Some("tiny".into()),
        user: Some(who.name.clone()),
        viewer: Viewer::of(rules, who),
        ..SessionContext::default()
    }
}

/// The rows of `sql` run for `who` under `rules` (after the access check), or its error.
fn run(
    engine: &Engine,
    rules: &Arc<AccessControl>,
    who: &User,
    sql: &str,
) -> Result<Vec<Vec<Value>>, String> {
    run_in(engine, rules, who, &session(rules, who), sql)
}

/// [`run`] in `session` rather than one on `tpch.tiny`.
fn run_in(
    engine: &Engine,
    rules: &Arc<AccessControl>,
    who: &User,
    session: &SessionContext,
    sql: &str,
) -> Result<Vec<Vec<Value>>, String> {
    let prepared = engine.prepare(sql, session).map_err(|e| e.to_string())?;
    rules
        .check_select(who, &prepared.reads)
        .map_err(|e| e.to_string())?;
    let conn = engine.connect().expect("connects");
    let mut rows = Vec::new();
    prepared
        .run(&conn, &mut |r| {
            rows.push(r);
            true
        })
        .map_err(|e| e.to_string())?;
    Ok(rows)
}

fn rules(text: &str) -> Arc<AccessControl> {
    let rules = AccessControl::parse(text).expect("the rules parse");
    rules
        .validate(engine().catalogs())
        .expect("the rules are valid");
    Arc::new(rules)
}

const EUROPE: &str = r#"{
    "tables": [
        {"group": "admins", "privileges": ["SELECT"]},
        {"group": "analysts", "table": "nation", "privileges": ["SELECT"],
         "filter": "regionkey = 3",
         "columns": [{"name": "comment", "mask": "'(hidden)'"}]},
        {"privileges": ["SELECT"]}
    ]
}"#;

#[test]
fn a_filter_keeps_fewer_rows_with_the_same_columns_and_a_mask_keeps_name_and_type() {
    let engine = engine();
    let rules = rules(EUROPE);
    let (ada, root) = (person("ada", &["analysts"]), person("root", &["admins"]));
    let sql = "SELECT name, comment FROM nation ORDER BY nationkey";
    let filtered = run(&engine, &rules, &ada, sql).expect("runs");
    assert_eq!(filtered.len(), 5);
    assert_eq!(filtered[0], vec![json!("FRANCE"), json!("(hidden)")]);
    assert_eq!(run(&engine, &rules, &root, sql).expect("runs").len(), 25);
    let plan = engine.prepare(sql, &session(&rules, &ada)).expect("plans");
    let unfiltered = engine.prepare(sql, &session(&rules, &root)).expect("plans");
    assert_eq!(plan.columns, unfiltered.columns);
    assert_eq!(plan.reads[0].filters, ["tables[1]"]);
    assert_eq!(plan.reads[0].masks, ["comment"]);
    assert!(unfiltered.reads[0].filters.is_empty());
}

#[test]
fn policies_apply_in_joins_ctes_subqueries_and_unnest_but_not_information_schema() {
    let engine = engine();
    let rules = rules(EUROPE);
    let ada = person("ada", &["analysts"]);
    let count = |sql: &str| run(&engine, &rules, &ada, sql).expect(sql)[0][0].clone();
    assert_eq!(count("SELECT count(*) FROM nation"), json!(5));
    assert_eq!(
        count("SELECT count(*) FROM region r JOIN nation n ON n.regionkey = r.regionkey"),
        json!(5)
    );
    assert_eq!(
        count("WITH e AS (SELECT * FROM nation) SELECT count(*) FROM e"),
        json!(5)
    );
    assert_eq!(
        count("SELECT count(*) FROM region WHERE regionkey IN (SELECT regionkey FROM nation)"),
        json!(1)
    );
    assert_eq!(
        count("SELECT count(*) FROM nation CROSS JOIN UNNEST(ARRAY[1, 2]) AS u(x)"),
        json!(10)
    );
    assert_eq!(
        count(
            "SELECT count(*) FROM (SELECT comment FROM tpch.tiny.nation) WHERE comment = '(hidden)'"
        ),
        json!(5)
    );
    // information_schema lists the table's columns, with the types DESCRIBE shows.
    assert_eq!(
        count(
            "SELECT count(*) FROM information_schema.columns \
             WHERE table_schema = 'tiny' AND table_name = 'nation'"
        ),
        json!(4)
    );
}

#[test]
fn a_filters_names_resolve_in_its_tables_catalog_and_schema() {
    // The file-based rules' ViewExpression carries the table's catalog and schema
    // (TableAccessControlRule.getFilter), the defaults of the filter's view session.
    let engine = engine();
    let rules = rules(
        r#"{"tables": [{"table": "customer", "privileges": ["SELECT"],
            "filter": "nationkey IN (SELECT nationkey FROM nation WHERE regionkey = 3)"},
            {"privileges": ["SELECT"]}]}"#,
    );
    let ada = person("ada", &[]);
    let session = SessionContext {
        user: Some("ada".into()),
        viewer: Viewer::of(&rules, &ada),
        ..SessionContext::default()
    };
    let sql = "SELECT count(*) FROM tpch.tiny.customer";
    assert_eq!(
        run_in(&engine, &rules, &ada, &session, sql),
        Ok(vec![vec![json!(272)]])
    );
}

#[test]
fn a_plan_is_cached_per_rule_set_as_well_as_per_person() {
    // A plan follows from the rules as much as from the person (the environment users'
    // policies too): one engine serving two rule sets must not hand one's plan to the other
    // for the same person and text.
    let engine = engine();
    let filtered = rules(
        r#"{"tables": [{"table": "nation", "privileges": ["SELECT"], "filter": "regionkey = 3"},
            {"privileges": ["SELECT"]}]}"#,
    );
    let open = rules(r#"{"tables": [{"privileges": ["SELECT"]}]}"#);
    let ada = person("ada", &[]);
    let sql = "SELECT count(*) FROM nation";
    for _ in 0..2 {
        assert_eq!(run(&engine, &filtered, &ada, sql), Ok(vec![vec![json!(5)]]));
        assert_eq!(run(&engine, &open, &ada, sql), Ok(vec![vec![json!(25)]]));
    }
}

#[test]
fn the_filter_sees_the_values_before_the_mask() {
    // Trino's RelationPlanner.visitTable adds the row filters, then the column masks: a filter
    // on a masked column reads the stored value.
    let engine = engine();
    let rules = rules(
        r#"{"tables": [{"table": "nation", "privileges": ["SELECT"],
            "filter": "name LIKE 'A%'",
            "columns": [{"name": "name", "mask": "'X'"}]}, {"privileges": ["SELECT"]}]}"#,
    );
    let ada = person("ada", &[]);
    let rows = run(&engine, &rules, &ada, "SELECT name FROM nation").expect("runs");
    assert_eq!(rows, vec![vec![json!("X")], vec![json!("X")]]);
    // The query's own WHERE sees the masked value.
    let rows = run(
        &engine,
        &rules,
        &ada,
        "SELECT name FROM nation WHERE name = 'X'",
    )
    .expect("runs");
    assert_eq!(rows.len(), 2);
}

#[test]
fn an_environment_user_is_current_user_in_its_expression() {
    let engine = engine();
    let rules = rules(
        r#"{"tables": [{"table": "region", "privileges": ["SELECT"],
            "filter": "current_user = 'system_user'",
            "filter_environment": {"user": "system_user"},
            "columns": [{"name": "comment", "mask": "CAST(current_user AS varchar(152))",
                         "mask_environment": {"user": "masker"}},
                        {"name": "name", "mask": "CAST(current_user AS varchar(25))"}]},
            {"privileges": ["SELECT"]}]}"#,
    );
    let ada = person("ada", &[]);
    let rows = run(
        &engine,
        &rules,
        &ada,
        "SELECT name, comment, current_user FROM region",
    )
    .expect("runs");
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0], vec![json!("ada"), json!("masker"), json!("ada")]);
}

#[test]
fn the_first_matching_rule_decides_by_user_and_group_and_roles_never_match() {
    let engine = engine();
    let rules = rules(
        r#"{"tables": [
            {"role": "admin", "privileges": ["SELECT"]},
            {"user": "alan", "table": "region", "privileges": ["SELECT"], "filter": "regionkey = 0"},
            {"group": "analysts", "table": "region", "privileges": ["SELECT"], "filter": "regionkey < 2"},
            {"privileges": ["SELECT"]}
        ]}"#,
    );
    let count = |who: &User| {
        run(&engine, &rules, who, "SELECT count(*) FROM region").expect("runs")[0][0].clone()
    };
    assert_eq!(count(&person("alan", &["analysts"])), json!(1));
    assert_eq!(count(&person("ada", &["/analysts"])), json!(2));
    assert_eq!(count(&person("grace", &["engineering"])), json!(5));
}

#[test]
fn allow_false_still_denies_beside_a_mask() {
    let engine = engine();
    let rules = rules(
        r#"{"tables": [{"table": "nation", "privileges": ["SELECT"],
            "columns": [{"name": "comment", "allow": false}, {"name": "name", "mask": "lower(name)"}]}]}"#,
    );
    let ada = person("ada", &[]);
    let denied = run(&engine, &rules, &ada, "SELECT comment FROM nation").expect_err("denied");
    assert!(
        denied.contains("Cannot select from table tpch.tiny.nation"),
        "{denied}"
    );
    let rows = run(
        &engine,
        &rules,
        &ada,
        "SELECT name FROM nation WHERE nationkey = 0",
    )
    .expect("runs");
    assert_eq!(rows, vec![vec![json!("algeria")]]);
}

#[test]
fn one_persons_filtered_plan_is_never_anothers() {
    let engine = engine();
    let rules = rules(EUROPE);
    let (ada, root) = (person("ada", &["analysts"]), person("root", &["admins"]));
    let sql = "SELECT count(*) FROM nation";
    for _ in 0..2 {
        assert_eq!(
            run(&engine, &rules, &ada, sql).expect("runs")[0][0],
            json!(5)
        );
        assert_eq!(
            run(&engine, &rules, &root, sql).expect("runs")[0][0],
            json!(25)
        );
    }
}

/// The message of the start refusal for `rules`.
fn refusal(text: &str) -> String {
    match AccessControl::parse(text) {
        Err(e) => e.to_string(),
        Ok(rules) => rules
            .validate(engine().catalogs())
            .expect_err("refused")
            .to_string(),
    }
}

#[test]
fn an_invalid_filter_or_mask_is_refused_at_start_naming_the_rule() {
    let cases = [
        (
            r#"{"tables": [{"privileges": []}, {"table": "nation", "privileges": ["SELECT"], "filter": "regionkey ="}]}"#,
            "tables[1]: `table` \"nation\": the row filter is not valid: line 1:12: mismatched input '<EOF>'",
        ),
        (
            r#"{"tables": [{"table": "nation", "privileges": ["SELECT"], "filter": "nope = 1"}]}"#,
            "tables[0]: `table` \"nation\": the row filter on tpch.tiny.nation is not valid: ",
        ),
        (
            r#"{"tables": [{"table": "nat.*", "privileges": ["SELECT"], "filter": "regionkey + 1"}]}"#,
            "Expected row filter for 'tpch.tiny.nation' to be of type BOOLEAN, but was bigint",
        ),
        (
            r#"{"tables": [{"table": "nation", "privileges": ["SELECT"],
                "columns": [{"name": "name", "mask": "nationkey"}]}]}"#,
            "tables[0]: `table` \"nation\": the mask of column \"name\" on tpch.tiny.nation is not valid: ",
        ),
        (
            r#"{"tables": [{"table": "nation", "privileges": ["SELECT"], "filter": "1 = 1) OR (1 = 1"}]}"#,
            "mismatched input ')'. Expecting: <EOF>",
        ),
        (
            r#"{"tables": [{"table": "nation", "privileges": ["SELECT"], "filter": "true",
                "filter_environment": {"role": "x"}}]}"#,
            "unknown field `role`",
        ),
    ];
    for (text, expected) in cases {
        let message = refusal(text);
        assert!(
            message.contains(expected),
            "{message}\nexpected: {expected}"
        );
    }
    // A rule naming no table is only parsed.
    let rules = AccessControl::parse(
        r#"{"tables": [{"table": "none_such", "privileges": ["SELECT"], "filter": "nope = 1"}]}"#,
    )
    .expect("parses");
    assert!(rules.validate(engine().catalogs()).is_ok());
}

#[test]
fn a_mask_must_coerce_to_the_columns_type() {
    // StatementAnalyzer.analyzeColumnMask: current_user is an unbounded varchar, which does
    // not coerce to region.name's varchar(25).
    let message = refusal(
        r#"{"tables": [{"table": "region", "privileges": ["SELECT"],
            "columns": [{"name": "name", "mask": "current_user"}]}]}"#,
    );
    assert!(
        message.contains("Expected column mask for 'tpch.tiny.region.name' to be of type varchar(25), but was varchar"),
        "{message}"
    );
    // A narrower type coerces: integer into bigint, varchar(3) into varchar(25).
    rules(
        r#"{"tables": [{"table": "region", "privileges": ["SELECT"],
            "columns": [{"name": "name", "mask": "'XXX'"}, {"name": "regionkey", "mask": "0"}]}]}"#,
    );
}

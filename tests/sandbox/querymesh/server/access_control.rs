//! Data policies deny as Trino's file-based access control does; unreadable rules stop the start.

use zero_sandbox::Sandbox;

use super::{Mesh, NATION, config_with, error_of, rows};
use crate::support;

const RULES: &str = r#"{
    "catalogs": [{"catalog": "tpch", "allow": "read-only"}],
    "tables": [
        {"group": "analysts", "table": "customer", "privileges": ["SELECT"],
         "columns": [{"name": "phone", "allow": false}]},
        {"group": "analysts", "privileges": ["SELECT"]},
        {"table": "region", "privileges": ["SELECT"]}
    ]
}"#;

#[tokio::test]
async fn data_policies_deny_as_trino_does() {
    let (config, _rules) = support::config_with_rules(RULES, "");
    let mesh = Mesh::with(config).await;
    let grace = mesh.sign(&mesh.claims("grace", &["engineering"]));
    let grace_post = |sql: &'static str| {
        let client = mesh.client.clone();
        let url = format!("{}/v1/statement", mesh.url());
        let token = grace.clone();
        let mesh = &mesh;
        async move {
            let response = client
                .post(url)
                .bearer_auth(token)
                .body(sql)
                .send()
                .await
                .expect("answers");
            let pages = mesh.follow(response).await;
            pages.last().expect("a page").clone()
        }
    };
    let denied = grace_post("SELECT name FROM tpch.tiny.nation").await;
    assert_eq!(denied["error"]["errorName"], "PERMISSION_DENIED");
    assert_eq!(denied["error"]["errorCode"], 4);
    assert_eq!(
        denied["error"]["message"],
        "Access Denied: Cannot select from table tpch.tiny.nation"
    );
    // Describing a statement needs the access running it needs (Trino analyses it).
    let described = mesh
        .follow(
            mesh.client
                .post(format!("{}/v1/statement", mesh.url()))
                .bearer_auth(grace.clone())
                .header(
                    "X-Trino-Prepared-Statement",
                    "q=SELECT+name+FROM+tpch.tiny.nation",
                )
                .body("DESCRIBE OUTPUT q")
                .send()
                .await
                .expect("answers"),
        )
        .await;
    assert_eq!(
        error_of(&described)["message"],
        "Access Denied: Cannot select from table tpch.tiny.nation"
    );
    let allowed = grace_post("SELECT name FROM tpch.tiny.region").await;
    assert!(allowed.get("error").is_none(), "{allowed}");

    // Ada is an analyst: everything but customer phone numbers.
    assert_eq!(rows(&mesh.run(NATION).await).len(), 25);
    let pages = mesh
        .run("SELECT name FROM tpch.tiny.customer LIMIT 1")
        .await;
    assert_eq!(rows(&pages).len(), 1);
    let pages = mesh.run("SELECT phone FROM tpch.tiny.customer").await;
    assert_eq!(
        error_of(&pages)["message"],
        "Access Denied: Cannot select from table tpch.tiny.customer"
    );
    // A denied column read only inside a lambda's body is read all the same (Trino checks
    // the columns a query references, wherever they are).
    for sql in [
        "SELECT transform(ARRAY[1], x -> phone) FROM tpch.tiny.customer",
        "SELECT filter(ARRAY[name], x -> x <> phone) FROM tpch.tiny.customer",
        "SELECT reduce(ARRAY[1], '', (s, x) -> s || phone, s -> s) FROM tpch.tiny.customer",
    ] {
        let pages = mesh.run(sql).await;
        assert_eq!(
            error_of(&pages)["message"],
            "Access Denied: Cannot select from table tpch.tiny.customer",
            "{sql}"
        );
    }
    let pages = mesh
        .run("SELECT transform(ARRAY[1], x -> name) FROM tpch.tiny.customer LIMIT 1")
        .await;
    assert_eq!(rows(&pages).len(), 1);
}

#[tokio::test]
async fn unreadable_rules_stop_the_start_naming_the_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let missing = dir.path().join("missing.json");
    let invalid = dir.path().join("invalid.json");
    std::fs::write(&invalid, "{\"tables\": [").expect("writes");
    for path in [missing, invalid] {
        let shown = path.display().to_string();
        let config = config_with(&format!("[querymesh]\naccess_control = {shown:?}\n"));
        let error = match Sandbox::start(config).await {
            Ok(_) => panic!("started with {shown}"),
            Err(e) => e.to_string(),
        };
        assert!(error.contains(&shown), "{error}");
    }
}
